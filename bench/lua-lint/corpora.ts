/**
 * The corpora and parses of the lua-lint benchmarks (run.ts, instructions.ts): the `.lua` files of
 * the lua-real manifest's repositories read from their mirrors, and luaparse with its default
 * options and with the options lua-lint parses with.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import luaparse from 'luaparse';

/** A library's `#!lua` line is not Lua: the parses get the blanking the analyzer does. */
export const blankShebang = (source: string): string => (source.startsWith('#!') ? `--${source.slice(2)}` : source);
export const defaultParse = (source: string): unknown => luaparse.parse(source);
/** The options lua-lint parses with when it places findings (lua-lint/parse.ts). */
export const sameOptionsParse = (source: string): unknown =>
  luaparse.parse(source, { comments: true, locations: false, ranges: true, scope: false, luaVersion: '5.1', encodingMode: 'pseudo-latin1' });

/** The `.lua` files of the lua-real manifest's repositories found in `mirrors`. */
export function realScripts(mirrors: string): { sources: string[]; repos: number } {
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
