/**
 * Tests that run the built packages (the runtime's `runtime/dist/`, the plugin's `dist/`) call
 * {@link ensureBuilt} first: it runs `npm run build` when an output is missing or older than a
 * source file. CI builds before the tests, so there it only checks.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Newest modification time of the files under `dir` (without `dist` and `node_modules`). */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds both packages unless `runtime/dist` and `dist` are newer than every source file. */
export function ensureBuilt(): void {
  const outputs = ['runtime/dist/index.js', 'dist/rules/index.js', 'dist/audit/cli/bin.js'].map((f) => join(ROOT, f));
  const sources = Math.max(...['runtime', 'rules', 'lua-lint', 'audit', 'cli', 'semantics'].map((d) => newestMtime(join(ROOT, d))));
  if (outputs.every((f) => existsSync(f) && statSync(f).mtimeMs >= sources)) return;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
}
