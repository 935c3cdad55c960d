/**
 * The modules of a package that import a given module, and those importing them, a few levels
 * up: where a method's callers can be, when its instance travels by import (`cache.ts` declares
 * `RedisStore`, `container.ts` imports it and exports `store = new RedisStore()`, `stats.ts`
 * imports `store` and calls `store.increase(key)`).
 *
 * `redis-calls/facades.ts` reads the callers of a method of a pass-through wrapper's shape under
 * any name (`increase(key, n) { return this.redis.incrby(key, n); }`) and the classes implementing
 * an interface. Reading every module of the package that names the method (`set`, `get`, `incr`,
 * which nearly every module names) cost minutes on a 355-file application; so the walk is
 * bounded:
 *
 * - only importers: a module is a candidate when one of its import specifiers (`from '...'`,
 *   `import('...')`, `require('...')`, as its text writes them) ends with the imported module's
 *   name (`'./cache'`, `'@/cache/index.js'`, `'..'` for an `index`), and that specifier resolves
 *   to the module (`modules.ts` readModule, tsconfig aliases and workspace packages included); the
 *   text is only a filter: the modules found are read with their AST by the caller;
 * - {@link MAX_IMPORT_DEPTH} levels of importers above the roots, breadth first (the nearest
 *   first), at most {@link MAX_MODULES_SEEN} modules looked at and {@link MAX_MODULES_READ} read
 *   per walk;
 * - the specifiers of each file are kept per process by path and modification time, where each
 *   leads for `RESOLVE_TTL_MS`, and the per-name index of a package and each module's importers
 *   per listing (`project.ts` packageFiles).
 *
 * An import the text filter cannot see (a specifier built at run time) is missed: the walk then
 * finds fewer callers, and a method none of whose callers is found stays judged where it is.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute } from 'node:path';
import { fileMemo } from './file-memo.js';
import { readModule } from './modules.js';
import { packageFiles, packageOf } from './project.js';
import { RESOLVE_TTL_MS } from './resolve.js';
import type { AnyContext } from './static.js';

/**
 * Levels of importers followed above the roots: five, since barrels count as levels (AFFiNE's
 * `workspace.ts` holds the cache through `fundamentals/index.ts`, `cache/index.ts`, `instances.ts`
 * and `local.ts` above the interface's `def.ts`).
 */
export const MAX_IMPORT_DEPTH = 5;
/** Modules read (parsed, their calls walked) per walk, roots included. */
export const MAX_MODULES_READ = 40;
/** Modules looked at (their text tested) per walk, roots included. */
export const MAX_MODULES_SEEN = 400;

/** A string literal given to `from`, `import(` or `require(`: an import specifier as written. */
// a template without substitutions (`import(\`./kv\`)`) is a specifier as plain as a quoted one;
// a `$` is a character of the path unless it opens a substitution (`$lib/db`, a tsconfig alias
// SvelteKit and Bun projects write, is a specifier; `\`./${name}\`` is not)
const SPECIFIER = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"`]((?:[^'"`\n$]|\$(?!\{))+)['"`]/g;

/**
 * The import specifiers a module's text writes (`from '…'`, `import '…'`, `import('…')`,
 * `require('…')`, a template without substitutions too), each once, in order of appearance. Text
 * only: a specifier in a comment or a string counts as well.
 */
export function importSpecifiers(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(SPECIFIER), (m) => m[1]!))];
}

/**
 * Text that names a Redis client (`ioredis`, `Redis`, `this.redis`, `redisClient`, `valkey`; not
 * the `redistribute` of a licence header): a module without it holds no wrapper the rules can read.
 */
const NAMES_REDIS = /redis(?![a-z])|Redis|REDIS|valkey|Valkey/;

/** What the walk keeps of a file's text, per modification time. */
interface FileFacts {
  specifiers: readonly string[];
  namesRedis: boolean;
  /** The names its text declares methods of, when it names Redis ({@link mayBeWrapperName}). */
  declared: ReadonlySet<string>;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * Where a method is declared in a module's text (see {@link mayBeWrapperName}): a name at the
 * start of a line or after `{`, `,` or `;`, after modifiers, before `(`, `<`, `=` or `:`.
 */
const DECLARATION = /(?:^|[{,;])[\t ]*(?:(?:public|private|protected|static|async|override|readonly)\s+)*([A-Za-z_$][\w$]*)\s*(?:<[^>\n]*>\s*)?[(=:]/gm;

/**
 * A function declaration (`async function setJson(`), counted in a CommonJS module (its text
 * writes `module.exports` or `exports.`): it may be a method of its exports object
 * (`exported-arms-helpers.ts`).
 */
const FUNCTION_DECLARATION = /(?:^|[;{}])[\t ]*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/gm;
const EXPORTS = /\bmodule\.exports\b|\bexports\.[A-Za-z_$]/;
/**
 * A member of a CommonJS module's exports assigned a value (`exports.setJson = async function (`,
 * `module.exports.setJson = (`): a method of the object its importers `require`.
 */
const EXPORTS_MEMBER = /\b(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=(?!=)/g;

const factsOf = fileMemo((path): FileFacts | undefined => {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // unreadable: no specifiers
  }
  const namesRedis = NAMES_REDIS.test(text);
  const declared: ReadonlySet<string> = namesRedis
    ? new Set([
        ...Array.from(text.matchAll(DECLARATION), (m) => m[1]!),
        ...(EXPORTS.test(text) ? Array.from(text.matchAll(FUNCTION_DECLARATION), (m) => m[1]!) : []),
        ...Array.from(text.matchAll(EXPORTS_MEMBER), (m) => m[1]!),
      ])
    : NO_NAMES;
  return { specifiers: importSpecifiers(text), namesRedis, declared };
}, undefined);

/** The import specifiers the text of `path` writes, kept per modification time. */
function specifiersOf(path: string): readonly string[] {
  return factsOf(path)?.specifiers ?? [];
}

/** Per package root: the listing it was read from, and the names its modules naming Redis declare methods of. */
const methodNames = new Map<string, { files: readonly string[]; names: ReadonlySet<string> }>();

/**
 * Whether `name` may be the name of a wrapper under another name in the package of the linted
 * file: one of its modules whose text names a Redis client (`ioredis`, `Redis`, `this.redis`,
 * `redisClient`, `valkey`: an import, a type, a member) writes `name` where a method is declared
 * (at the start of a line or after `{`, `,` or `;`, after modifiers, before `(`, `<`, `=` or `:`:
 * `increase(key, n) {`, `async increase<T>(`, `increase = (key) =>`, `{ put(k, v) {`). A text
 * filter only, read without parsing: what the name reaches is decided by the AST where it is
 * called (`facades.ts` facadeCallsOf); a call of a method under another name
 * (`store.increase(key)`) is resolved only when this holds, so that the receivers of every other
 * call are left alone. `false` when the package cannot be listed (its callers could not be read
 * either). The names are kept per listing, each module's per modification time.
 */
export function mayBeWrapperName(context: AnyContext, name: string): boolean {
  const file = context.physicalFilename ?? context.filename;
  const info = file && isAbsolute(file) ? packageOf(file) : undefined;
  const files = info && packageFiles(info.root);
  if (!files) return false;
  let index = methodNames.get(info!.root);
  if (!index || index.files !== files) {
    const names = new Set<string>();
    for (const path of files) factsOf(path)?.declared.forEach((declared) => names.add(declared));
    index = { files, names };
    methodNames.set(info!.root, index);
  }
  return index.names.has(name);
}

/** The name a specifier imports by: its last segment without extension (`'../cache/index.js'`: `cache`; `'..'`: `*`). */
function specifierStem(specifier: string): string {
  const segments = specifier.split('/').filter((s) => s !== '');
  let last = segments.pop() ?? '';
  last = last.replace(/\.(?:[cm]?[jt]s|[jt]sx)$/, '');
  if (last === 'index') last = segments.pop() ?? '*';
  return last === '.' || last === '..' || last === '' || last.startsWith('@') ? '*' : last;
}

/** The names a module is imported by: its file name, and its directory's for an `index`. */
function moduleStems(path: string): string[] {
  const stem = basename(path, extname(path));
  return stem === 'index' ? [stem, basename(dirname(path)), '*'] : [stem, '*'];
}

/** Per package root: the listing it was built from, and the files by the stems of their specifiers. */
const indexes = new Map<string, { files: readonly string[]; byStem: Map<string, string[]> }>();

function stemIndex(root: string, files: readonly string[]): Map<string, string[]> {
  const cached = indexes.get(root);
  if (cached && cached.files === files) return cached.byStem;
  const byStem = new Map<string, string[]>();
  for (const file of files) {
    for (const stem of new Set(specifiersOf(file).map(specifierStem))) {
      const list = byStem.get(stem);
      if (list) list.push(file);
      else byStem.set(stem, [file]);
    }
  }
  indexes.set(root, { files, byStem });
  return byStem;
}

/**
 * The modules of the package of `path` (its listing) whose import specifiers resolve to `path`.
 * Empty when the package cannot be listed.
 * @param root the folder whose listing is searched instead of the package's (a project folder)
 */
export function importersOf(path: string, root: string | undefined = packageOf(path)?.root): string[] {
  const files = root !== undefined ? packageFiles(root) : undefined;
  if (!files) return [];
  const cached = importers.get(path);
  if (cached && cached.files === files) return cached.importers;
  const byStem = stemIndex(root!, files);
  const stems = moduleStems(path);
  const out: string[] = [];
  for (const candidate of new Set(stems.flatMap((stem) => byStem.get(stem) ?? []))) {
    if (candidate === path) continue;
    const imports = specifiersOf(candidate).some((specifier) => stems.includes(specifierStem(specifier)) && resolved(candidate, specifier) === path);
    if (imports) out.push(candidate);
  }
  if (importers.size > 20_000) importers.clear();
  importers.set(path, { files, importers: out });
  return out;
}

/** The importers of each module, per listing. */
const importers = new Map<string, { files: readonly string[]; importers: string[] }>();
/** Where a specifier of a directory leads, kept `RESOLVE_TTL_MS` (as `modules.ts` isCodeSpecifier keeps its answers). */
const resolutions = new Map<string, { at: number; path: string | undefined }>();

/** The file `specifier`, written in `from`, resolves to (`modules.ts` readModule, aliases included; `'.'` is `'./'`, the directory's index). */
export function resolved(from: string, specifier: string): string | undefined {
  // `'.'` and `'..'` name a directory (its index), as `'./'` and `'../'` do
  if (specifier === '.' || specifier === '..') specifier += '/index';
  const key = `${dirname(from)}\0${specifier}`;
  const now = Date.now();
  const hit = resolutions.get(key);
  if (hit && now - hit.at < RESOLVE_TTL_MS) return hit.path;
  const path = readModule(from, specifier, true)?.path;
  if (resolutions.size > 50_000) resolutions.clear();
  resolutions.set(key, { at: now, path });
  return path;
}

/** What a visit of {@link walkImporters} did: found the verdict, read the module (parsed, its calls walked), or only looked at its text. */
export type Visit = 'found' | 'read' | 'passed';

/**
 * Visits `roots`, then the modules importing them, then those importing these, breadth first, up
 * to {@link MAX_IMPORT_DEPTH} levels, each module once, until `visit` says `'found'` (a verdict is
 * known) or {@link MAX_MODULES_READ} modules have been read or {@link MAX_MODULES_SEEN} looked at.
 * `skip` leaves a module out of the visits (a test) while its importers are still followed.
 * Returns whether `visit` found the verdict.
 * @param roots absolute paths of the modules to start from (the defining module first)
 * @param visit called with each module's path and its level (0 for a root)
 * @param skip modules not handed to `visit`
 */
export function walkImporters(roots: readonly string[], visit: (path: string, depth: number) => Visit, skip: (path: string) => boolean = () => false): boolean {
  const seen = new Set<string>(roots);
  let level = [...seen];
  let read = 0;
  for (let depth = 0; level.length > 0; depth++) {
    for (const path of level) {
      if (skip(path)) continue;
      const done = visit(path, depth);
      if (done === 'found') return true;
      if (done === 'read' && ++read >= MAX_MODULES_READ) return false;
    }
    if (depth === MAX_IMPORT_DEPTH) break;
    const next: string[] = [];
    for (const path of level) {
      for (const importer of importersOf(path)) {
        if (seen.has(importer)) continue;
        if (seen.size >= MAX_MODULES_SEEN) return false;
        seen.add(importer);
        next.push(importer);
      }
    }
    level = next;
  }
  return false;
}
