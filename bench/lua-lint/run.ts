/**
 * lua-lint benchmark: the analyzer's time per MB of Lua next to luaparse's parse time, side by side
 * in one process (medians of interleaved rounds), on two corpora:
 *
 * - `generated`: a deterministic corpus of realistic scripts (see corpus.ts; `--scripts`, `--seed`);
 * - `real`: the `.lua` files of the repositories of `bench/lua-real/manifest.json` that parse as
 *   Lua 5.1, read from the mirrors (`--mirrors`, default `/work/.mirror`; skipped when none is there).
 *
 * Two parses are timed: luaparse with its default options, and with the options lua-lint parses
 * with when it reports (ranges and comments, Lua 5.1, pseudo-latin1): the "same-options parse",
 * the floor of any analysis that places findings. Target: analysis <= 2.5x the same-options parse.
 *
 *   node --import tsx bench/lua-lint/run.ts [--scripts 400] [--rounds 11] [--warmup 3] [--seed 42] [--dist]
 *     [--baseline <commit>] [--mirrors <dir>]
 *
 * `--dist` measures the compiled analyzer in dist/ (run `npm run build` first) instead of the
 * sources as tsx compiles them on the fly; tsx adds a little per-function overhead (esbuild's
 * `__name` helper), so `--dist` is the figure a user of the package sees. `--baseline <commit>`
 * adds the analyzer of that commit, compiled the same way (baseline.ts), and checks that both
 * report the same findings on every script. To see where the time goes, run under `node --cpu-prof`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import luaparse from 'luaparse';
import type { analyzeLua as AnalyzeLua } from '../../lua-lint/index.js';
import { buildBaseline } from './baseline.js';
import { generateCorpus } from './corpus.js';

interface Settings {
  scripts: number;
  rounds: number;
  warmup: number;
  seed: number;
  dist: boolean;
  baseline?: string;
  mirrors: string;
}

const USAGE = 'usage: run.ts [--scripts N] [--rounds N] [--warmup N] [--seed N] [--dist] [--baseline <commit>] [--mirrors <dir>]';

function parseArgs(argv: readonly string[]): Settings {
  const settings: Settings = { scripts: 400, rounds: 11, warmup: 3, seed: 42, dist: false, mirrors: '/work/.mirror' };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]?.replace(/^--/, '');
    if (name === 'dist') {
      settings.dist = true;
      continue;
    }
    if (name === 'baseline' || name === 'mirrors') {
      const value = argv[++i];
      if (!value) throw new Error(`${USAGE} (--${name} needs a value)`);
      settings[name] = value;
      continue;
    }
    const value = Number(argv[++i]);
    if ((name !== 'scripts' && name !== 'rounds' && name !== 'warmup' && name !== 'seed') || !Number.isInteger(value) || value < 1) {
      throw new Error(`${USAGE} (got ${argv.slice(i - 1, i + 1).join(' ')})`);
    }
    settings[name] = value;
  }
  return settings;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * CPU milliseconds (this process's user + system time) to run `step` over every source once: other
 * load on a shared machine preempts the process, which wall time would count and CPU time does not.
 */
function time(sources: readonly string[], step: (source: string) => unknown): number {
  let sink = 0;
  const start = process.cpuUsage();
  for (const source of sources) sink += step(source) ? 1 : 0;
  const used = process.cpuUsage(start);
  const elapsed = (used.user + used.system) / 1000;
  if (sink < 0) console.log(sink); // keeps the results observable
  return elapsed;
}

/** A library's `#!lua` line is not Lua: the parses get the blanking the analyzer does. */
const blankShebang = (source: string): string => (source.startsWith('#!') ? `--${source.slice(2)}` : source);
const defaultParse = (source: string): unknown => luaparse.parse(source);
/** The options lua-lint parses with when it places findings (lua-lint/parse.ts). */
const sameOptionsParse = (source: string): unknown =>
  luaparse.parse(source, { comments: true, locations: false, ranges: true, scope: false, luaVersion: '5.1', encodingMode: 'pseudo-latin1' });

/** The `.lua` files of the lua-real manifest's repositories found in `mirrors`. */
function realScripts(mirrors: string): { sources: string[]; repos: number } {
  const here = dirname(fileURLToPath(import.meta.url));
  const manifest = JSON.parse(readFileSync(join(here, '..', 'lua-real', 'manifest.json'), 'utf8')) as Array<{ repo: string; commit: string; under?: string[] }>;
  const sources: string[] = [];
  let repos = 0;
  for (const entry of manifest) {
    const repoDir = join(mirrors, entry.repo.replace('/', '+'), 'repo');
    const gitDir = existsSync(join(repoDir, '.git')) ? join(repoDir, '.git') : repoDir;
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
    let listing: string[];
    try {
      listing = git('ls-tree', '-r', '--name-only', entry.commit).split('\n');
    } catch {
      continue;
    }
    repos++;
    for (const file of listing.filter((p) => p.endsWith('.lua') && (!entry.under || entry.under.some((u) => p.startsWith(u))))) {
      const source = git('show', `${entry.commit}:${file}`);
      // the parses are the yardstick: files that are not Lua 5.1 (ERB templates, Lua 5.2+) are left out
      try {
        defaultParse(blankShebang(source));
        sameOptionsParse(blankShebang(source));
      } catch {
        continue;
      }
      sources.push(source);
    }
  }
  return { sources, repos };
}

type Analyze = (source: string) => Array<{ ruleId: string | null }>;

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2));
  const modulePath = settings.dist ? '../../dist/lua-lint/index.js' : '../../lua-lint/index.js';
  const { analyzeLua } = (await import(modulePath)) as { analyzeLua: typeof AnalyzeLua };
  const analyze: Analyze = (source) => analyzeLua(source);
  let baseline: Analyze | undefined;
  if (settings.baseline) {
    const dir = buildBaseline(settings.baseline);
    const mod = (await import(pathToFileURL(join(dir, 'lua-lint', 'index.js')).href)) as { analyzeLua: typeof AnalyzeLua };
    baseline = (source) => mod.analyzeLua(source);
  }
  const generated = generateCorpus(settings.scripts, settings.seed).map((script) => script.source);
  const real = realScripts(settings.mirrors);
  const corpora = [
    { name: `generated (${settings.scripts} scripts, seed ${settings.seed})`, sources: generated },
    ...(real.sources.length > 0 ? [{ name: `real (${real.sources.length} files of ${real.repos} repositories)`, sources: real.sources }] : []),
  ];

  // Sanity: the generated corpus is valid Lua; the baseline reports the same findings.
  const counts = new Map<string, number>();
  let differing = 0;
  for (const corpus of corpora) {
    for (const source of corpus.sources) {
      const findings = analyze(source);
      if (corpus.sources === generated) {
        for (const finding of findings) counts.set(finding.ruleId ?? 'parse-error', (counts.get(finding.ruleId ?? 'parse-error') ?? 0) + 1);
      }
      if (baseline && JSON.stringify(findings) !== JSON.stringify(baseline(source))) differing++;
    }
  }
  if (counts.has('parse-error')) throw new Error('the generated corpus does not parse; fix corpus.ts');

  const steps: Array<{ name: string; run: (source: string) => unknown; parse?: boolean }> = [
    { name: 'luaparse, default options', run: defaultParse, parse: true },
    { name: 'luaparse, same options', run: sameOptionsParse, parse: true },
    { name: 'analyzeLua', run: analyze },
    ...(baseline ? [{ name: `analyzeLua of ${settings.baseline}`, run: baseline }] : []),
  ];
  const rows = corpora.map((corpus) => ({
    ...corpus,
    parseSources: corpus.sources.map(blankShebang),
    megabytes: corpus.sources.reduce((sum, source) => sum + Buffer.byteLength(source), 0) / (1024 * 1024),
    ms: steps.map(() => [] as number[]),
  }));
  for (let round = 0; round < settings.warmup + settings.rounds; round++) {
    for (const row of rows) {
      // rotate the order of the steps from round to round
      for (let k = 0; k < steps.length; k++) {
        const index = (round + k) % steps.length;
        const step = steps[index]!;
        const ms = time(step.parse ? row.parseSources : row.sources, step.run);
        if (round >= settings.warmup) row.ms[index]!.push(ms / row.megabytes);
      }
    }
  }

  const lines = [
    `lua-lint benchmark: ${settings.warmup} warm-up + ${settings.rounds} measured rounds, order rotating, medians in CPU ms per MB; ` +
      `analyzer from ${settings.dist ? 'dist/ (compiled)' : 'sources via tsx'}; Node ${process.version}`,
    '',
    `| corpus | MB | ${steps.map((s) => s.name).join(' | ')} | analysis / same-options parse |${baseline ? ' analysis / baseline |' : ''}`,
    `| --- | --: | ${steps.map(() => '--:').join(' | ')} | --: |${baseline ? ' --: |' : ''}`,
  ];
  let worst = 0;
  for (const row of rows) {
    const medians = row.ms.map(median);
    const ratio = medians[2]! / medians[1]!;
    worst = Math.max(worst, ratio);
    lines.push(
      `| ${row.name} | ${row.megabytes.toFixed(2)} | ${medians.map((m) => m.toFixed(1)).join(' | ')} | ${ratio.toFixed(2)}x |${baseline ? ` ${(medians[2]! / medians[3]!).toFixed(2)}x |` : ''}`,
    );
  }
  lines.push(
    '',
    `analysis / same-options parse, worst corpus: ${worst.toFixed(2)}x (target <= 2.5x) ${worst <= 2.5 ? 'OK' : 'OVER TARGET'}`,
    `findings on the generated corpus: ${[...counts].map(([id, n]) => `${id} ${n}`).join(', ') || 'none'}`,
    ...(baseline ? [`scripts whose findings differ from the baseline's: ${differing}`] : []),
  );
  console.log(lines.join('\n'));
  if (differing > 0) process.exitCode = 1;
}

await main();
