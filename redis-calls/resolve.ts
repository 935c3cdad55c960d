/**
 * Where a package specifier of an import points when it names a module of the linted file's own
 * repository: a tsconfig / jsconfig path alias (`'~/helper/keys'`, `'@/lib/redis'`, with
 * `compilerOptions.paths` and `baseUrl`, `extends` followed; when a base it `extends` cannot be
 * found, a package's tsconfig that is not installed, the file's own `paths` still count), or a
 * workspace package of the monorepo (`'@acme/redis'`, `'@acme/redis/keys'`), found through its `node_modules` symlink when
 * installed, else through the root's `package.json` `workspaces` or `pnpm-workspace.yaml`; then
 * its `package.json` `exports` / `source` / `types` / `main` to a source file (`src/index.ts`
 * when they point at an unbuilt `dist/`).
 *
 * Never a third-party package: a path whose real path lies in a `node_modules` folder, or outside
 * the monorepo root when there is one, is never returned. Lookups are cached per directory (the
 * nearest tsconfig, the workspace root and its packages) for {@link RESOLVE_TTL_MS} milliseconds.
 *
 * Libraries: `get-tsconfig` reads tsconfig files (comments, `extends` chains, package bases) and
 * matches `paths` patterns as TypeScript does, without loading TypeScript (which an untyped
 * lint may not have, and which costs far more to load); `tinyglobby` lists the workspaces and
 * `yaml` reads `pnpm-workspace.yaml`.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { evaluate, parse as parseJson } from '@humanwhocodes/momoa';
import { createPathsMatcher, getTsconfig, type TsConfigJson, type TsConfigResult } from 'get-tsconfig';
import picomatch from 'picomatch';
import { globSync } from 'tinyglobby';
import { parse as parseYaml } from 'yaml';
import { localDependencyDir } from './local-dependencies.js';
import { manifestOf } from './project.js';

/** How long a directory's tsconfig, workspace root and workspace listing are reused, in milliseconds. */
export const RESOLVE_TTL_MS = 10_000;
/** Beyond this many workspace packages a monorepo's listing stops (bounded cost). */
const MAX_WORKSPACES = 500;

interface Cached<T> {
  at: number;
  value: T;
}

function cached<T>(cache: Map<string, Cached<T>>, key: string, make: () => T): T {
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < RESOLVE_TTL_MS) return hit.value;
  if (cache.size > 2000) cache.clear();
  const value = make();
  cache.set(key, { at: now, value });
  return value;
}

type PathsMatcher = (specifier: string) => string[];
const matchers = new Map<string, Cached<PathsMatcher | null>>();
const tsconfigCache = new Map<string, unknown>();

/** The tsconfig (or jsconfig) nearest the directory; `null` when there is none or it cannot be read. */
function nearestConfig(dir: string): TsConfigResult | null {
  try {
    // the nearer of the two: a JavaScript project's jsconfig.json governs its folder even when
    // a folder above it holds a tsconfig.json (another project's)
    const ts = getTsconfig(dir, 'tsconfig.json', tsconfigCache);
    const js = getTsconfig(dir, 'jsconfig.json', tsconfigCache);
    return ts && js ? (dirname(js.path).length > dirname(ts.path).length ? js : ts) : (ts ?? js);
  } catch {
    // a base the config `extends` that cannot be found (a package's tsconfig, `lvyjs/tsconfig.json`,
    // not installed): the file's own options still say where its aliases point
    return ownConfig(dir);
  }
}

/**
 * The nearest tsconfig (or jsconfig) read alone, its `extends` dropped: `null` when there is none
 * or its own text does not parse (JSON with comments and trailing commas, as TypeScript reads it).
 * Only what the file itself declares (`paths`, `baseUrl`) is kept; an option its missing base
 * would have given is unknown and not guessed.
 */
function ownConfig(dir: string): TsConfigResult | null {
  for (let current = dir; ; current = dirname(current)) {
    const ts = join(current, 'tsconfig.json');
    const js = join(current, 'jsconfig.json');
    const path = existsSync(ts) ? ts : existsSync(js) ? js : undefined;
    if (path) {
      try {
        const config = evaluate(parseJson(readFileSync(path, 'utf8'), { mode: 'jsonc', allowTrailingCommas: true }).body);
        if (typeof config !== 'object' || config === null || Array.isArray(config)) return null;
        const { extends: _base, ...own } = config as TsConfigJson;
        return { path, config: own };
      } catch {
        return null;
      }
    }
    if (dirname(current) === current) return null;
  }
}

/** The `paths` matcher of the tsconfig (or jsconfig) nearest the directory, `null` when it has none. */
function pathsMatcher(dir: string): PathsMatcher | null {
  return cached(matchers, dir, () => {
    const config = nearestConfig(dir);
    if (!config) return null;
    try {
      return createPathsMatcher(config);
    } catch {
      return null;
    }
  });
}

const patternLists = new Map<string, Cached<string[]>>();

/**
 * Whether a `paths` pattern of the tsconfig nearest the importing file names the specifier
 * itself (`'@redis/*'` for `'@redis/redis.service.js'`, `'~/*'`, an exact key): an alias the
 * project declared. The catch-all `'*'` and a bare `baseUrl` do not count: they make every bare
 * specifier a candidate path (`'redis'` -> `src/redis`), which says nothing of which one the
 * project means.
 * @param from the importing file's absolute path
 */
export function declaredPathAlias(from: string, specifier: string): boolean {
  const patterns = cached(patternLists, dirname(from), () => {
    const paths = nearestConfig(dirname(from))?.config.compilerOptions?.paths;
    return paths ? Object.keys(paths) : [];
  });
  return patterns.some((pattern) => {
    const star = pattern.indexOf('*');
    if (star < 0) return pattern === specifier;
    if (pattern === '*') return false;
    const head = pattern.slice(0, star);
    const tail = pattern.slice(star + 1);
    return specifier.length >= head.length + tail.length && specifier.startsWith(head) && specifier.endsWith(tail);
  });
}

/** A monorepo root: its directory and the globs of its workspace packages. */
interface WorkspaceRoot {
  dir: string;
  patterns: string[];
}

const roots = new Map<string, Cached<WorkspaceRoot | null>>();

/** The workspace globs a directory declares (`package.json` `workspaces`, `pnpm-workspace.yaml`), or `undefined`. */
function workspacePatterns(dir: string): string[] | undefined {
  const yamlPath = join(dir, 'pnpm-workspace.yaml');
  if (existsSync(yamlPath)) {
    try {
      const parsed = parseYaml(readFileSync(yamlPath, 'utf8')) as { packages?: unknown } | null;
      if (Array.isArray(parsed?.packages)) return parsed.packages.filter((p): p is string => typeof p === 'string');
    } catch {
      // not YAML: not a workspace root to us
    }
  }
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { workspaces?: unknown };
    const workspaces = manifest.workspaces as { packages?: unknown } | unknown[] | undefined;
    const list = Array.isArray(workspaces) ? workspaces : Array.isArray(workspaces?.packages) ? workspaces.packages : undefined;
    return list?.filter((p): p is string => typeof p === 'string');
  } catch {
    return undefined;
  }
}

/** The nearest directory at or above `dir` that declares workspaces (cached per directory). */
function workspaceRoot(dir: string): WorkspaceRoot | null {
  return cached(roots, dir, () => {
    const patterns = workspacePatterns(dir);
    if (patterns) return { dir, patterns };
    const parent = dirname(dir);
    return parent === dir || dir.endsWith(`${sep}node_modules`) ? null : workspaceRoot(parent);
  });
}

/**
 * Whether the nearest workspace root above the package directory `dir` lists it among its
 * packages: a glob of its `workspaces` / `pnpm-workspace.yaml` (negated globs left out) matches
 * `dir`'s path from that root.
 */
export function listedAsWorkspace(dir: string): boolean {
  const parent = dirname(dir);
  const root = parent === dir ? null : workspaceRoot(parent);
  if (!root) return false;
  const globs = root.patterns.filter((p) => !p.startsWith('!')).map((p) => p.replace(/^\.\//, '').replace(/\/+$/, ''));
  return globs.length > 0 && picomatch(globs, { dot: true })(relative(root.dir, dir).split(sep).join('/'));
}

/** The `package.json` fields that name a package's dependencies (also how one package of a workspace depends on another). */
export const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/**
 * The workspace root directory above the package directory `dir` when that root lists `dir`
 * ({@link listedAsWorkspace}) and neither the root's manifest nor any package of the workspace
 * names `dir`'s package in its dependencies (`dependencies`, `devDependencies`,
 * `peerDependencies`, `optionalDependencies`): a monorepo's application (`apps/api`) that no
 * other package installs, so none imports it by name. A root without a package.json (a pnpm
 * workspace that is `pnpm-workspace.yaml` alone: post-ranking-js's `apps/backend`, started by `tsx
 * src/index.ts`) depends on nothing. `undefined` otherwise (not listed, depended on, or a manifest
 * that exists and cannot be read).
 */
export function workspaceRootOfStandaloneMember(dir: string): string | undefined {
  return cached(standaloneMembers, dir, () => standaloneMemberRoot(dir)) ?? undefined;
}

const standaloneMembers = new Map<string, Cached<string | null>>();

function standaloneMemberRoot(dir: string): string | null {
  if (!listedAsWorkspace(dir)) return null;
  const root = workspaceRoot(dirname(dir));
  if (!root) return null;
  const own = manifestOf(dir);
  if (!own) return null;
  const name = own.name;
  if (typeof name !== 'string') return root.dir;
  for (const manifestDir of [root.dir, ...workspacePackages(root).values()]) {
    if (manifestDir === dir) continue;
    const manifest = manifestOf(manifestDir);
    // a pnpm workspace's root may be `pnpm-workspace.yaml` alone: with no package.json it depends on nothing
    if (!manifest && manifestDir === root.dir && !existsSync(join(root.dir, 'package.json'))) continue;
    if (!manifest) return null;
    for (const field of DEPENDENCY_FIELDS) {
      const dependencies = manifest[field];
      if (dependencies && typeof dependencies === 'object' && (name in dependencies || aliasesPackage(dependencies as Record<string, unknown>, name))) return null;
    }
  }
  return root.dir;
}

/**
 * Whether a dependency map installs the package `name` under another name, an alias
 * (`"api": "workspace:backend@*"` of pnpm, `"api": "npm:backend@^1.0.0"`): the package is depended
 * on as much as by its own name.
 */
function aliasesPackage(dependencies: Record<string, unknown>, name: string): boolean {
  return Object.values(dependencies).some((spec) => typeof spec === 'string' && /^(?:workspace|npm):(@?[^@]+)(?:@|$)/.exec(spec)?.[1] === name);
}

const workspaceListings = new Map<string, Cached<Map<string, string>>>();

/** The workspace packages of a monorepo root: package name -> directory. */
function workspacePackages(root: WorkspaceRoot): Map<string, string> {
  return cached(workspaceListings, root.dir, () => {
    const packages = new Map<string, string>();
    const positive = root.patterns.filter((p) => !p.startsWith('!')).map((p) => `${p.replace(/\/+$/, '')}/package.json`);
    const negative = root.patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
    let manifests: string[];
    try {
      manifests = globSync(positive, { cwd: root.dir, ignore: ['**/node_modules/**', ...negative], absolute: true, deep: 6 });
    } catch {
      return packages;
    }
    for (const manifest of manifests.slice(0, MAX_WORKSPACES)) {
      try {
        const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
        if (typeof name === 'string' && !packages.has(name)) packages.set(name, dirname(manifest));
      } catch {
        // an unreadable manifest names no package
      }
    }
    return packages;
  });
}

/** `'@acme/redis/keys'` -> `@acme/redis` and `keys`; `undefined` for a relative, absolute or `node:` specifier. */
function splitPackageSpecifier(specifier: string): { name: string; subpath: string } | undefined {
  if (specifier.startsWith('.') || isAbsolute(specifier) || specifier.includes(':')) return undefined;
  const parts = specifier.split('/');
  const count = specifier.startsWith('@') ? 2 : 1;
  if (parts.length < count || parts.slice(0, count).some((p) => p === '')) return undefined;
  return { name: parts.slice(0, count).join('/'), subpath: parts.slice(count).join('/') };
}

/** Whether a real path is repository code: inside `root` (when known) and in no `node_modules` folder. */
function ownCode(path: string, root: string | undefined): boolean {
  if (path.split(sep).includes('node_modules')) return false;
  if (!root) return true;
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** The directory of a workspace package named `name`, seen from `dir`. */
function workspacePackageDir(dir: string, name: string): string | undefined {
  const root = workspaceRoot(dir);
  if (!root) return undefined;
  const realRoot = realPath(root.dir) ?? root.dir;
  // installed: node_modules/@acme/redis links to packages/redis
  for (let current = dir; ; current = dirname(current)) {
    const linked = join(current, 'node_modules', name);
    if (existsSync(linked)) {
      const target = realPath(linked);
      return target && ownCode(target, realRoot) ? target : undefined;
    }
    if (current === root.dir || dirname(current) === current) break;
  }
  const listed = workspacePackages(root).get(name);
  const target = listed ? realPath(listed) : undefined;
  return target && ownCode(target, realRoot) ? target : undefined;
}

/** Conditions of `exports` read for a source file, in order. */
const CONDITIONS = ['source', 'types', 'typings', 'import', 'module', 'node', 'require', 'default'];

/** The targets of an `exports` value (a string, conditions, or an array of either). */
function exportTargets(value: unknown, depth = 0): string[] {
  if (depth > 4 || value === null || value === undefined) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((v) => exportTargets(v, depth + 1));
  if (typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  return CONDITIONS.filter((c) => c in record).flatMap((c) => exportTargets(record[c], depth + 1));
}

/** The `exports` targets of a subpath (`'.'`, `'./keys'`), `*` patterns included; `undefined` when there is no `exports`. */
function exportsOf(exportsField: unknown, subpath: string): string[] | undefined {
  if (exportsField === undefined) return undefined;
  const key = subpath === '' ? '.' : `./${subpath}`;
  const isMap = typeof exportsField === 'object' && exportsField !== null && !Array.isArray(exportsField) && Object.keys(exportsField).some((k) => k.startsWith('.'));
  if (!isMap) return key === '.' ? exportTargets(exportsField) : [];
  const map = exportsField as Record<string, unknown>;
  if (key in map) return exportTargets(map[key]);
  for (const [pattern, value] of Object.entries(map)) {
    const star = pattern.indexOf('*');
    if (star < 0) continue;
    const head = pattern.slice(0, star);
    const tail = pattern.slice(star + 1);
    if (key.startsWith(head) && key.endsWith(tail) && key.length >= head.length + tail.length) {
      const matched = key.slice(head.length, key.length - tail.length);
      return exportTargets(value).map((target) => target.replace(/\*/g, matched));
    }
  }
  return [];
}

/** Built output folders whose sources are in `src/` when the build has not run. */
const BUILD_DIRS = /^(?:\.\/)?(?:dist|build|lib|out|esm|cjs)\//;

/**
 * The paths (without extension where one is to be probed) a target of a package's manifest may
 * be read from: its source file rather than a declaration file or a build output.
 */
function sourceCandidates(pkgDir: string, target: string): string[] {
  const bare = target.replace(/\.d\.[cm]?ts$/, '').replace(/\.[cm]?js$/, '');
  const out = [join(pkgDir, target.replace(/\.d\.([cm]?)ts$/, '.$1ts')), join(pkgDir, bare)];
  // the package's tsconfig compiles `rootDir` into `outDir` (`lib/` into `dist/`)
  const dirs = buildDirs(pkgDir);
  const inOut = dirs ? relative(dirs.outDir, join(pkgDir, bare)) : undefined;
  if (dirs && inOut !== undefined && !inOut.startsWith('..') && !isAbsolute(inOut)) out.push(join(dirs.rootDir, inOut));
  if (BUILD_DIRS.test(target)) out.push(join(pkgDir, 'src', bare.replace(BUILD_DIRS, '')));
  return out;
}

/** The `rootDir` and `outDir` (absolute) of the tsconfig.json in a package's own folder, when it sets both. */
function buildDirs(pkgDir: string): { rootDir: string; outDir: string } | undefined {
  let config: TsConfigResult | null;
  try {
    config = getTsconfig(pkgDir, 'tsconfig.json', tsconfigCache);
  } catch {
    return undefined;
  }
  if (!config || dirname(config.path) !== pkgDir) return undefined;
  const { rootDir, outDir } = config.config.compilerOptions ?? {};
  return rootDir && outDir ? { rootDir: resolve(pkgDir, rootDir), outDir: resolve(pkgDir, outDir) } : undefined;
}

/** The candidate source paths of a workspace package's entry (subpath `''`) or subpath module. */
function packageEntryCandidates(pkgDir: string, subpath: string): string[] {
  let manifest: Record<string, unknown> = {};
  try {
    manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    // no manifest: the folder's own files
  }
  const targets = exportsOf(manifest.exports, subpath) ?? [];
  if (subpath === '') {
    for (const field of ['source', 'types', 'typings', 'module', 'main']) {
      if (typeof manifest[field] === 'string') targets.push(manifest[field]);
    }
  }
  const candidates = targets.flatMap((target) => sourceCandidates(pkgDir, target));
  candidates.push(subpath === '' ? join(pkgDir, 'src', 'index') : join(pkgDir, 'src', subpath), subpath === '' ? join(pkgDir, 'index') : join(pkgDir, subpath));
  return [...new Set(candidates)];
}

const resolutions = new Map<string, Cached<string[]>>();

/**
 * The paths a package specifier may point to in the linted file's repository, most likely first,
 * each to be probed with the usual extensions (`.ts`, `/index.ts`, ...): the tsconfig `paths`
 * alias's targets, else the source entry of the workspace package, or of a package a manifest
 * installs from a path of the repository (`"common": "file:../common"`,
 * `redis-calls/local-dependencies.ts`). `[]` for a third-party package, a relative specifier or
 * anything not found. Cached per directory, specifier and `localDependencies`.
 * @param from the importing file's absolute path
 * @param specifier the import's specifier as written (`'~/helper/keys'`, `'@acme/redis'`)
 * @param localDependencies whether a package installed from a path of the repository counts
 *   (`false` for the client detector's code specifiers, `modules.ts` isCodeSpecifier)
 */
export function packageSpecifierCandidates(from: string, specifier: string, localDependencies = true): string[] {
  const parsed = splitPackageSpecifier(specifier);
  if (!parsed) return [];
  const dir = dirname(from);
  return cached(resolutions, `${dir}\0${specifier}\0${localDependencies}`, () => {
    // a `baseUrl` makes every bare specifier a candidate path too (`'ioredis'` -> `<baseUrl>/ioredis`),
    // which probing then does not find: the workspace packages are looked at as well
    const aliased = (pathsMatcher(dir)?.(specifier) ?? []).filter((path) => !path.split(sep).includes('node_modules'));
    // or a package a manifest installs from a path of the repository (`"common": "file:../common"`)
    const pkgDir = workspacePackageDir(dir, parsed.name) ?? (localDependencies ? localDependencyDir(dir, parsed.name) : undefined);
    // a manifest naming a file outside the monorepo (`"main": "../../../elsewhere.ts"`) leads nowhere
    const root = pkgDir ? workspaceRoot(dir) : null;
    const realRoot = root ? (realPath(root.dir) ?? root.dir) : undefined;
    const entries = pkgDir ? packageEntryCandidates(pkgDir, parsed.subpath).filter((path) => ownCode(path, realRoot)) : [];
    return [...aliased, ...entries];
  });
}

/** Whether a resolved file is repository code (not in `node_modules`): what {@link packageSpecifierCandidates} may lead to. */
export function isOwnFile(path: string): boolean {
  const real = realPath(path);
  if (!real) return false;
  try {
    return statSync(real).isFile() && ownCode(real, undefined);
  } catch {
    return false;
  }
}
