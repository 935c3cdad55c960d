/**
 * The package's name and version, read once from the package.json that ships with this file, and
 * the URLs of its docs pinned to that version's git tag. The file sits at `cli/` in the sources
 * and at `dist/cli/` when built, so the package.json is found by walking up rather than at a fixed
 * relative path.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package the CLIs ship in. */
export const PACKAGE_NAME = 'eslint-plugin-redis-ttl';

let cachedVersion: string | undefined;

/** The version of eslint-plugin-redis-ttl (`'0.1.0'`), or `'0.0.0'` if its package.json cannot be found. */
export function packageVersion(): string {
  if (cachedVersion !== undefined) return cachedVersion;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (json.name === PACKAGE_NAME && typeof json.version === 'string') return (cachedVersion = json.version);
    } catch {
      // no package.json here (or not ours): keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) return (cachedVersion = '0.0.0');
    dir = parent;
  }
}

/** The repository on GitHub, where the docs of every released version live under its tag. */
export const REPOSITORY_URL = 'https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl';

/**
 * The git ref whose docs match this copy of the package: the tag of its version (`'v0.1.0'`), so a
 * link printed by an installed version shows the docs of that version, not of a later `main`.
 * `'HEAD'` (the default branch) only when no package.json of ours can be found above this file
 * (a copy bundled into another program).
 */
export function docsRef(): string {
  const version = packageVersion();
  return version === '0.0.0' ? 'HEAD' : `v${version}`;
}

/**
 * The URL of a file of the repository at {@link docsRef}: `docsUrl('docs/lua-lint.md')` is
 * `https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl/blob/v0.1.0/docs/lua-lint.md`.
 * `path` is relative to the repository root, without a leading slash; a fragment may follow.
 */
export function docsUrl(path: string): string {
  return `${REPOSITORY_URL}/blob/${docsRef()}/${path}`;
}
