/**
 * lua-lint on host-language source (Go, Python, Ruby, PHP, Java, C#): what it finds in the
 * public repositories of manifest.json, and what it costs per MB of host source, next to the
 * analysis of Lua itself (the generated corpus of bench/lua-lint), in one process.
 *
 *   node --import tsx bench/hosts/run.ts [--mirrors /work/.mirror] [--rounds 7] [--warmup 2] [--list]
 *
 * The repositories are not in this project: bring each one (at its commit) into `--mirrors` as
 * `<owner>+<name>/repo` (a bare git directory, or a clone). Files are read with `git cat-file` at
 * the manifest's commit, so other commits of the mirror do not matter (and a blob the mirror
 * lacks is skipped, not fatal). `--list` prints every script and every run-time-built script
 * found, for checking recall by hand.
 *
 * Each round times, in alternating order: `analyzeLua` over the Lua corpus, and `lintHostSource`
 * over three sets of host files: files that never name Redis (skipped before parsing), files that
 * name Redis but hold no script (parsed and searched), and files with scripts (parsed, searched,
 * scripts analysed). The report is the median ms per MB of each over the measured rounds.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { analyzeLua } from '../../lua-lint/index.js';
import { extractHostScripts, hostLanguageOf, lintHostSource } from '../../lua-lint/hosts/index.js';
import { generateCorpus } from '../lua-lint/corpus.js';

interface Entry {
  repo: string;
  commit: string;
  kind: string;
}

interface HostFile {
  repo: string;
  path: string;
  text: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const TREE_SITTER_EXTENSIONS = /\.(go|py|rb|php|java|cs)$/i;

function parseArgs(argv: readonly string[]): { mirrors: string; rounds: number; warmup: number; list: boolean } {
  const settings = { mirrors: '/work/.mirror', rounds: 7, warmup: 2, list: false };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    if (name === '--list') settings.list = true;
    else if (name === '--mirrors') settings.mirrors = argv[++i] ?? settings.mirrors;
    else if (name === '--rounds' || name === '--warmup') settings[name.slice(2) as 'rounds' | 'warmup'] = Number(argv[++i]);
    else throw new Error('usage: run.ts [--mirrors DIR] [--rounds N] [--warmup N] [--list]');
  }
  return settings;
}

/** The host-language files of a repository at a commit, read from its mirror. */
function readRepository(mirrors: string, entry: Entry): HostFile[] {
  const gitDir = path.join(mirrors, entry.repo.replace('/', '+'), 'repo');
  const git = (args: string[], input?: string): Buffer =>
    execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 30, ...(input !== undefined ? { input } : {}) });
  const listing = git(['ls-tree', '-r', '--full-tree', entry.commit]).toString('utf8');
  const blobs: Array<{ sha: string; file: string }> = [];
  for (const line of listing.split('\n')) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line);
    if (match && TREE_SITTER_EXTENSIONS.test(match[2]!)) blobs.push({ sha: match[1]!, file: match[2]! });
  }
  const output = git(['cat-file', '--batch'], blobs.map((b) => b.sha).join('\n') + '\n');
  const files: HostFile[] = [];
  let at = 0;
  for (const blob of blobs) {
    const newline = output.indexOf(10, at);
    const header = output.subarray(at, newline).toString('utf8');
    at = newline + 1;
    const size = /^[0-9a-f]+ blob (\d+)$/.exec(header)?.[1];
    if (size === undefined) continue; // "<sha> missing": the mirror lacks that blob
    const bytes = output.subarray(at, at + Number(size));
    at += Number(size) + 1;
    if (!bytes.includes(0)) files.push({ repo: entry.repo, path: blob.file, text: new TextDecoder().decode(bytes) });
  }
  return files;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const megabytes = (texts: readonly string[]): number => texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / (1024 * 1024);

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2));
  const manifest = JSON.parse(readFileSync(path.join(here, 'manifest.json'), 'utf8')) as Entry[];

  // What lua-lint finds in each repository, and which files hold scripts.
  const withScripts: HostFile[] = [];
  const redisNoScript: HostFile[] = [];
  const noRedis: HostFile[] = [];
  const perRepo: string[] = [];
  for (const entry of manifest) {
    const files = readRepository(settings.mirrors, entry);
    const counts = new Map<string, number>();
    let scripts = 0;
    let dynamic = 0;
    for (const file of files) {
      const language = hostLanguageOf(file.path) as Parameters<typeof extractHostScripts>[0];
      const found = await extractHostScripts(language, file.text);
      scripts += found.scripts.length;
      dynamic += found.dynamic.length;
      if (found.scripts.length + found.dynamic.length > 0) withScripts.push(file);
      else if (/redis|valkey/i.test(file.text)) redisNoScript.push(file);
      else noRedis.push(file);
      if (settings.list) {
        for (const s of found.scripts) console.log(`${entry.repo}/${file.path}:${s.position(0).line} ${s.via} ${JSON.stringify(s.source.slice(0, 70))}`);
        for (const d of found.dynamic) console.log(`${entry.repo}/${file.path}:${d.line} built at run time: ${d.via}, ${d.how}`);
      }
      for (const finding of await lintHostSource(file.path, file.text)) {
        const id = finding.ruleId ?? 'parse-error';
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
    }
    perRepo.push(
      `| ${entry.repo} | ${entry.commit.slice(0, 10)} | ${files.length} | ${megabytes(files.map((f) => f.text)).toFixed(2)} | ${scripts} | ${dynamic} | ${[...counts].map(([id, n]) => `${id} ${n}`).join(', ') || 'none'} |`,
    );
  }

  const lua = generateCorpus(400, 42).map((script) => script.source);
  const sets = [
    { name: 'Lua scripts (bench/lua-lint corpus): analyzeLua', texts: lua, run: (text: string) => Promise.resolve(analyzeLua(text)) },
    ...[
      { name: 'host files that never name Redis', files: noRedis },
      { name: 'host files naming Redis, no script', files: redisNoScript },
      { name: 'host files with scripts', files: withScripts },
    ].map(({ name, files }) => ({ name, texts: files.map((f) => f.text), paths: files.map((f) => f.path), run: undefined })),
  ].map((set) => ({ ...set, mb: megabytes(set.texts), ms: [] as number[] }));

  for (let round = 0; round < settings.warmup + settings.rounds; round++) {
    const order = round % 2 === 0 ? sets : [...sets].reverse();
    for (const set of order) {
      const start = performance.now();
      if ('paths' in set && set.paths) {
        for (let i = 0; i < set.texts.length; i++) await lintHostSource(set.paths[i]!, set.texts[i]!);
      } else {
        for (const text of set.texts) analyzeLua(text);
      }
      const elapsed = performance.now() - start;
      if (round >= settings.warmup) set.ms.push(elapsed / set.mb);
    }
  }

  console.log(
    [
      `lua-lint on host-language source: ${manifest.length} repositories, ${settings.warmup} warm-up + ${settings.rounds} measured rounds, alternating order, medians; Node ${process.version}`,
      '',
      '| repository | commit | host files | MB | scripts | built at run time | findings |',
      '| --- | --- | ---: | ---: | ---: | ---: | --- |',
      ...perRepo,
      '',
      '| what | files | MB | ms/MB |',
      '| --- | ---: | ---: | ---: |',
      ...sets.map((set) => `| ${set.name} | ${set.texts.length} | ${set.mb.toFixed(2)} | ${median(set.ms).toFixed(1)} |`),
    ].join('\n'),
  );
}

await main();
