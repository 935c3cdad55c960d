/**
 * Packages of the repository a manifest installs by path (round 38). A serverless repository's
 * functions often share one folder through a local dependency, with no workspace declared:
 *
 * ```text
 * common/package.json     { "name": "common", "main": "index.js" }
 * callback/package.json   { "dependencies": { "common": "file:../common" } }
 * callback/handlers/callback.js
 *   const { redisHelper } = require('common');   // common/index.js, repository code
 * ```
 *
 * `require('common')` reads `../common` as npm installs it (a `file:` dependency is a link, or a
 * copy, of that folder; `link:` is yarn's and pnpm's spelling of the same). The nearest
 * `package.json` above the importing file that names the package in its dependencies decides; the
 * folder must lie in the project that manifest belongs to (below the nearest directory above it
 * holding a `package.json` or `.git`, else below its own parent) and outside `node_modules`: a
 * path dependency leaving the repository (`file:../../other-checkout`) is not read, nor a tarball
 * (`file:./vendor/x.tgz`).
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { manifestOf } from './project.js';

/** The `package.json` fields that name a package's dependencies. */
const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;

/** `file:` / `link:` dependency specifiers (npm, yarn, pnpm). */
const PATH_DEPENDENCY = /^(?:file|link):(.+)$/;

/**
 * The directory of the package `name` that the nearest manifest above `dir` (the importing file's
 * directory) installs from a path of the repository (`"common": "file:../common"`), as an absolute
 * path resolved from that manifest's directory (symbolic links not followed); `undefined` when the nearest manifest naming it does so otherwise (a version range),
 * or the path leaves the project (see the module comment).
 */
export function localDependencyDir(dir: string, name: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    if (current.split(sep).includes('node_modules')) return undefined;
    const manifest = manifestOf(current);
    const spec = manifest ? dependencySpecifier(manifest, name) : undefined;
    if (spec !== undefined) {
      const path = PATH_DEPENDENCY.exec(spec)?.[1];
      if (path === undefined || isAbsolute(path)) return undefined;
      const target = resolve(current, path);
      if (!isDirectory(target) || target.split(sep).includes('node_modules')) return undefined;
      const project = projectRoot(current);
      const rel = relative(project, target);
      return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? target : undefined;
    }
    if (dirname(current) === current) return undefined;
  }
}

/** What a manifest's dependency fields give for `name`, if any. */
function dependencySpecifier(manifest: Readonly<Record<string, unknown>>, name: string): string | undefined {
  for (const field of FIELDS) {
    const dependencies = manifest[field];
    if (!dependencies || typeof dependencies !== 'object') continue;
    const spec = (dependencies as Record<string, unknown>)[name];
    if (typeof spec === 'string') return spec;
  }
  return undefined;
}

/** The project a manifest at `dir` belongs to: the nearest directory above it with a `package.json` or `.git`, else its parent. */
function projectRoot(dir: string): string {
  for (let current = dirname(dir); dirname(current) !== current; current = dirname(current)) {
    if (existsSync(join(current, 'package.json')) || existsSync(join(current, '.git'))) return current;
  }
  return dirname(dir);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
