/**
 * The package's name and version, read once from the package.json that ships with this file.
 * The file sits at `cli/` in the sources and at `dist/cli/` when built, so the package.json is
 * found by walking up rather than at a fixed relative path.
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
