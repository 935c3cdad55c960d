/**
 * What the typed ESLint benches (typed.ts, typed-file.ts) share: a measurement run in a fresh
 * child process (so that each pays the type checker's first questions), and the median of rounds.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The median of a non-empty list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Runs the bench script `script` (its `import.meta.url`) as `--child <subject>` in a new Node
 * process with tsx, from `cwd`, with `--plugin <dir>` when given, and parses the last line it
 * prints as JSON (the child's sample). Throws when the child fails.
 */
export function runChild<Sample>(script: string, subject: string, pluginDir: string | undefined, cwd: string): Sample {
  const args = ['--import', 'tsx', fileURLToPath(script), '--child', subject, ...(pluginDir ? ['--plugin', pluginDir] : [])];
  const out = execFileSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out.trim().split('\n').pop()!) as Sample;
}
