/**
 * lua-lint on real scripts: the `.lua` files of public repositories (job queues, locks, rate
 * limiters; `manifest.json` pins each repository's commit), linted as the CLI lints a directory
 * (includes resolved), with every TTL finding compared to its triage in `triage.json`.
 *
 *   node --import tsx bench/lua-real/run.ts [--mirrors /work/.mirror] [--write-triage]
 *
 * The repositories are not in this project: bring each one (at its commit) into `--mirrors` as
 * `<owner>+<name>/repo` (a bare git directory, or a clone: `git clone <url> <owner>+<name>/repo`). Files are read with `git show <commit>:<path>`, so other commits in the mirror do
 * not matter. Prints, per repository, the findings by rule, then the precision of the TTL findings
 * (write-path-needs-ttl, keepttl-needs-existing-key) over the triaged ones, the findings not
 * triaged yet, and the triaged true findings no longer reported (recall). Linted with
 * `"allowOptionalTtl": false`, so that every leak the analysis finds counts; the ones the default
 * leaves out as the caller's choice are listed.
 *
 * `--write-triage` adds every untriaged finding to triage.json with the verdict `"?"`, to be
 * reviewed by hand (never commit a `"?"`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../lua-lint/cli/main.js';

interface ManifestEntry {
  repo: string;
  commit: string;
  /** What the scripts are (for the report). */
  kind: string;
  /** Path prefixes of the `.lua` files to lint (all when absent). */
  under?: string[];
}

interface Triage {
  /** How the findings were triaged. */
  method: string[];
  /** `repo:path:line:rule` -> verdict and why. */
  findings: Record<string, { verdict: 'tp' | 'fp' | '?'; note: string }>;
}

const HERE = path.dirname(new URL(import.meta.url).pathname);
const TTL_RULES = new Set(['write-path-needs-ttl', 'keepttl-needs-existing-key']);

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

async function lint(dir: string): Promise<Array<{ filePath: string; messages: Array<{ ruleId: string | null; line: number; message: string; optionalTtl?: true }> }>> {
  let out = '';
  // every leak the analysis finds, caller-chosen TTLs included (the default leaves those out)
  const config = path.join(dir, '..', `${path.basename(dir)}.lua-lint.config.json`);
  writeFileSync(config, JSON.stringify({ allowOptionalTtl: false }));
  const io = {
    stdout: { write: (text: string) => ((out += text), true), isTTY: false },
    stderr: { write: () => true },
    stdin: process.stdin,
    cwd: dir,
  };
  await main([dir, '--format', 'json', '--config', config, '--no-error-on-unmatched-pattern'], io as never);
  return JSON.parse(out || '[]');
}

async function run(): Promise<void> {
  const mirrors = option('mirrors', '/work/.mirror');
  const manifest = JSON.parse(readFileSync(path.join(HERE, 'manifest.json'), 'utf8')) as ManifestEntry[];
  const triagePath = path.join(HERE, 'triage.json');
  const triage = JSON.parse(readFileSync(triagePath, 'utf8')) as Triage;
  const work = mkdtempSync(path.join(tmpdir(), 'lua-real-'));
  const seen = new Set<string>();
  let tp = 0;
  let fp = 0;
  const untriaged: string[] = [];
  /** TTL findings where the caller chose no TTL: found, but left out by lua-lint's default. */
  const optional: string[] = [];
  let files = 0;
  let bytes = 0;
  try {
    for (const entry of manifest) {
      // A bare mirror (what the session tool `fetch` leaves) or a clone's work tree.
      const repoDir = path.join(mirrors, entry.repo.replace('/', '+'), 'repo');
      const gitDir = existsSync(path.join(repoDir, '.git')) ? path.join(repoDir, '.git') : repoDir;
      const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
      let listing: string[];
      try {
        listing = git('ls-tree', '-r', '--name-only', entry.commit).split('\n');
      } catch {
        console.log(`${entry.repo}: not found at ${gitDir} (commit ${entry.commit}); skipped`);
        continue;
      }
      const lua = listing.filter((p) => p.endsWith('.lua') && (!entry.under || entry.under.some((u) => p.startsWith(u))));
      const root = path.join(work, entry.repo.replace('/', '+'));
      for (const file of lua) {
        const text = git('show', `${entry.commit}:${file}`);
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
        files++;
        bytes += Buffer.byteLength(text);
      }
      const results = await lint(root);
      const byRule = new Map<string, number>();
      for (const result of results) {
        for (const message of result.messages) {
          const rule = message.ruleId ?? 'parse-error';
          byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
          if (!message.ruleId || !TTL_RULES.has(message.ruleId)) continue;
          const key = `${entry.repo}:${path.relative(root, result.filePath)}:${message.line}:${message.ruleId}`;
          if (seen.has(key)) continue;
          seen.add(key);
          if (message.optionalTtl) optional.push(key);
          const verdict = triage.findings[key]?.verdict;
          if (verdict === 'tp') tp++;
          else if (verdict === 'fp') fp++;
          else untriaged.push(key);
        }
      }
      console.log(`${entry.repo} (${entry.kind}, ${lua.length} files): ${[...byRule].map(([r, n]) => `${r} ${n}`).join(', ') || 'no findings'}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const gone = Object.entries(triage.findings).filter(([key, t]) => t.verdict === 'tp' && !seen.has(key)).map(([key]) => key);
  console.log('');
  console.log(`${files} files, ${(bytes / 1024).toFixed(0)} KB; TTL findings: ${seen.size}`);
  console.log(`precision over triaged TTL findings: ${tp}/${tp + fp} = ${(tp / Math.max(1, tp + fp)).toFixed(3)} (${fp} false)`);
  console.log(`of which caller-chosen TTLs (found, left out by default; reported with "allowOptionalTtl": false): ${optional.length}${optional.length ? `\n  ${optional.join('\n  ')}` : ''}`);
  console.log(`true findings of the triage no longer reported: ${gone.length}${gone.length ? `\n  ${gone.join('\n  ')}` : ''}`);
  console.log(`not triaged: ${untriaged.length}${untriaged.length ? `\n  ${untriaged.join('\n  ')}` : ''}`);
  if (process.argv.includes('--write-triage')) {
    for (const key of untriaged) triage.findings[key] = { verdict: '?', note: '' };
    writeFileSync(triagePath, `${JSON.stringify(triage, null, 2)}\n`);
  }
}

await run();
