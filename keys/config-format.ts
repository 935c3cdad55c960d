/**
 * Which module syntax the `--persistent-config` block of `redis-ttl-keys` is printed in, so that it
 * pastes into the project's ESLint config as it is: the syntax of that config file when there is
 * one (`--config <file>`, else the first `eslint.config.{js,mjs,cjs,ts,mts,cts}` found from the
 * working directory up, as ESLint finds it: a package of a monorepo uses the root's config):
 * `.cjs` / `.cts` are CommonJS, `.mjs` / `.mts` ES modules, and a `.js` / `.ts` file is read:
 * `module.exports` or `require(` without an `export` statement is CommonJS. Without a config file, a package whose nearest `package.json` says
 * `"type": "module"` is ESM, and any other is `unknown`: the block is then printed as ESM with a
 * line saying how to write it in a CommonJS project.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The module syntax of the project's ESLint config. */
export type ConfigModuleFormat = 'esm' | 'commonjs' | 'unknown';

const CONFIG_NAMES = ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts'];

/**
 * The module syntax of the ESLint config the block goes into (see the module comment).
 * @param cwd the working directory
 * @param config the `--config` file given, if any
 */
export function configModuleFormat(cwd: string, config?: string): ConfigModuleFormat {
  if (config !== undefined) return fileFormat(path.resolve(cwd, config));
  // ESLint looks for its config from the working directory up, past a package's package.json (a
  // monorepo's one config at its root): the nearest package.json only speaks when there is none
  let manifest: string | undefined;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const found = CONFIG_NAMES.map((name) => path.join(dir, name)).find((file) => existsSync(file));
    if (found) return fileFormat(found);
    if (manifest === undefined && existsSync(path.join(dir, 'package.json'))) manifest = path.join(dir, 'package.json');
    if (path.dirname(dir) === dir) return manifest !== undefined && packageType(manifest) === 'module' ? 'esm' : 'unknown';
  }
}

/** The syntax of one config file, by its extension, else by its text. */
function fileFormat(file: string): ConfigModuleFormat {
  if (/\.c[jt]s$/.test(file)) return 'commonjs';
  if (/\.m[jt]s$/.test(file)) return 'esm';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 'unknown';
  }
  if (/^\s*export\s/m.test(text) || /^\s*import\s/m.test(text)) return 'esm';
  return /\bmodule\.exports\b|\brequire\s*\(/.test(text) ? 'commonjs' : 'unknown';
}

/** The `type` field of a `package.json` (`undefined` when unreadable or absent). */
function packageType(manifest: string): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown };
    return typeof parsed.type === 'string' ? parsed.type : undefined;
  } catch {
    return undefined;
  }
}
