/**
 * Keys whose life ANOTHER MODULE of the codebase manages: the readings of `lifecycle.ts`
 * (`deletedElsewhere`, `createdWithTtlElsewhere`) carried across the modules of one package.
 *
 * ```ts
 * // keys.ts                   export const KEY = { room: (id) => `Room:${id}`, players: (id) => `Room:${id}:Players` };
 * // room.cleanup.ts           async cleanupRoom(id) { const p = redis.pipeline(); p.del(KEY.room(id)); p.del(KEY.players(id)); await p.exec(); }
 * // game.service.ts (linted)  async join(id, player) { await redis.sadd(KEY.players(id), player); }
 * ```
 *
 * The SADD of `Room:*:Players` is not reported by `recommended`: the room cleanup of another module
 * deletes that key shape, as a sweeper of the same file would. What counts:
 *
 * - the **related modules** of the linted file, read once per lint run: the modules of its package
 *   that import it, the modules it imports (its key builders, its key constants), and the modules
 *   that import one of those (the other users of the same key builder: `room.cleanup.ts` above),
 *   in its package (or, when that cannot be listed, the folder of its nearest `tsconfig.json`),
 *   tests, their setups, mocks and fixtures left out ({@link TEST_PATH}: `jest.setup.ts`,
 *   `e2e/`, `testing/` delete no key of the running application), at most
 *   {@link MAX_MODULES_READ} parsed of {@link MAX_MODULES_SEEN} looked at (`importers.ts`
 *   importersOf, `modules.ts` loadModule; only a module whose text names a deletion or an expiry
 *   is parsed);
 * - a **deletion** there: DEL / UNLINK / GETDEL (the `delete` effect of `semantics/commands.ts`,
 *   also through a pass-through facade) of the same key shape, with a static part (`Room:*`, not
 *   `*`: two modules' bare `key` are two keys), or of each key a KEYS / SCAN pattern matching the
 *   shape lists and consumes on every turn (a periodic job draining view counters), in a function that may run
 *   (`pattern-drains.ts` mayRun), in a named function that does not call the writer's function by name (a call the module can make of it: not `players.join()` in a module that does
 *   not import the writer's, nor `KEY.seat(id)` of a key builder module). A DEL of a list (`del(a, b)`, `del([a, b])`, `unlink(...keys)` with `keys` a
 *   `const` array literal) counts for each key. Never when that module gives the key shape a TTL
 *   anywhere (the DEL is then an invalidation of an expiring key: reported as today), nor when the
 *   DEL runs from an in-process one-off timer (`timer-deletions.ts`, also when other code calls the deleter); a TTL a third
 *   module gives the shape (a sweeper expiring idle rooms) does not undo the deleting module's;
 * - a **creation with a TTL** there (for an update that keeps the TTL, HSET / SADD ...): SET ... EX,
 *   SETEX (`create-with-ttl`), or a write of the key followed in its function by its EXPIRE (its
 *   named function, or, in unnamed callbacks only such as a route handler, its outermost one).
 *
 * Every exception of the same-file reading is decided by `lifecycle.ts` before it asks this module
 * (locks and SET NX, limit counters, per-build prefixes, a shape the linted file or an imported
 * module expires, a writer that gives any key a TTL, a writer clearing the TTL). A cleanup that may
 * never run (a room nobody closes) is still left to `strict` (`allowDeletedKeys: false`).
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_DELETE_KEY, EFFECTS_THAT_SET_TTL, EFFECTS_THAT_WRITE_WITHOUT_TTL } from '../semantics/commands.js';
import { calledName, namedFunctionOf } from './builder-lookup.js';
import { deletedOnlyWithoutError } from './error-path-deletions.js';
import { deletesExpiringKeys } from './expiring-companions.js';
import { deletedByTimer } from './timer-deletions.js';
import { fileIndexOf } from './file-index.js';
import { importersOf } from './importers.js';
import { hasStaticPart, keyIdOf, listedKeys } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import { codeImports, loadModule, moduleContext, readModule, specifierOf } from './modules.js';
import type { RedisCall } from './normalize.js';
import { drainMatches, mayRun, patternDrains, type PatternDrain } from './pattern-drains.js';
import { removesWholeKey } from './moved-keys.js';
import { packageFiles, packageOf } from './project.js';
import { findVariable, inCallbackOf, outermostFunction, walk, type AnyContext, type FunctionLike } from './static.js';
import { TEST_PATH } from './test-paths.js';

/** Related modules parsed (their calls indexed) per linted file. */
export const MAX_MODULES_READ = 24;
/** Related modules looked at (their text tested) per linted file. */
export const MAX_MODULES_SEEN = 200;

/** A module of the tests (`redis-calls/test-paths.ts`), read here and by `uncalled.ts`. */
export { TEST_PATH };
/**
 * Text that may delete or expire a key: only such a module is parsed. Case-insensitive, for every
 * client's spelling (`DEL`, `del`, node-redis' `getDel`, `pExpire`, `setEx`, `hExpire`, `{ EX: 60 }`).
 */
const MAY_MANAGE = /\b(?:del|unlink|getdel)\b|expire|setex|\b(?:ex|px)\b/i;

/** A key a call of another module deletes or creates with a TTL, with that call. */
interface ManagedKey {
  call: RedisCall;
  /** The named function around the call. */
  fn: FunctionLike;
  context: AnyContext;
}

/** What the related modules of one linted file do to key shapes. */
interface RelatedFacts {
  /** Deletions by key shape. */
  deleted: Map<string, ManagedKey[]>;
  /** Creations with a TTL by key shape. */
  createdWithTtl: Map<string, ManagedKey[]>;
  /** Deletions of the keys a KEYS / SCAN pattern lists, in a function that may run (`pattern-drains.ts`). */
  drains: Array<ManagedKey & { drain: PatternDrain }>;
}

const relatedCache = new WeakMap<TSESTree.Program, RelatedFacts>();

/** The file of each call {@link addFacts} indexed in a related module. */
const moduleFiles = new WeakMap<RedisCall, string>();

/**
 * The path, relative to the folder of the linted file (`cleanup.ts`, `../rooms/cleanup.ts`), of
 * the module of `call` when it is a call of another module this module found (a deletion or a
 * creation with a TTL); `undefined` for a call of the linted file.
 */
export function otherModuleOf(context: AnyContext, call: RedisCall): string | undefined {
  const path = moduleFiles.get(call);
  const file = context.physicalFilename ?? context.filename;
  if (path === undefined || path === file) return undefined;
  return relative(dirname(file), path).split('\\').join('/');
}

/**
 * The call of another module of the package that deletes the key shape `shape` the write `call`
 * writes in the function `writer` (see the module comment), or `undefined`. The caller has applied
 * the same-file exceptions (`lifecycle.ts` deletedElsewhere).
 */
export function deletedInAnotherModule(context: AnyContext, shape: string, writer: FunctionLike): RedisCall | undefined {
  if (!hasStaticPart(shape)) return undefined;
  const facts = relatedFacts(context);
  const writerName = calledName(writer);
  const file = context.physicalFilename ?? context.filename;
  const deletions = facts.deleted.get(shape) ?? [];
  for (const deletion of deletions) {
    // the deleting module gives the shape a TTL: its DEL is an invalidation of an expiring key
    if (fileIndexOf(deletion.context).expiredShapes.has(shape)) continue;
    // a DEL on the success path of a `try` whose `catch` goes on without it: every handled failure keeps the key (error-path-deletions.ts)
    if (deletedOnlyWithoutError(deletion.context, deletion.call.node, deletion.fn, deletions.filter((d) => d.context === deletion.context).map((d) => d.call.node))) continue;
    // deleted beside keys that end by expiring (a sliding TTL, a handled deadline): expiring-companions.ts
    if (deletesExpiringKeys(deletion.context, deletion.fn, shape, context)) continue;
    // run from an in-process one-off timer: a restart before it fires leaves the key (timer-deletions.ts)
    if (deletedByTimer(deletion.context, deletion.fn, deletion.call.node)) continue;
    // the deleter runs the writer first (`finish() { service.step(id); del(k) }`): the success path of one operation
    if (writerName !== undefined && mayCallWriter(deletion.context, file, writerName) && calledNames(deletion.context, deletion.fn, file).has(writerName)) continue;
    return deletion.call;
  }
  // a job there that lists the keys by a pattern matching the shape and deletes each (pattern-drains.ts)
  for (const drain of facts.drains) {
    if (!drainMatches(drain.drain, shape) || fileIndexOf(drain.context).expiredShapes.has(shape)) continue;
    if (writerName !== undefined && mayCallWriter(drain.context, file, writerName) && calledNames(drain.context, drain.fn, file).has(writerName)) continue;
    return drain.call;
  }
  return undefined;
}

/**
 * The call of another module of the package that creates, with a TTL, the record of key shape
 * `shape` the update `call` (a write that keeps the TTL: HSET, SADD ...) writes, or `undefined`.
 * The caller has applied the same-file exceptions (`lifecycle.ts` createdWithTtlElsewhere).
 */
export function createdWithTtlInAnotherModule(context: AnyContext, shape: string): RedisCall | undefined {
  if (!hasStaticPart(shape)) return undefined;
  return relatedFacts(context).createdWithTtl.get(shape)?.[0]?.call;
}

function relatedFacts(context: AnyContext): RelatedFacts {
  const program = context.sourceCode.ast;
  let facts = relatedCache.get(program);
  if (facts) return facts;
  facts = { deleted: new Map(), createdWithTtl: new Map(), drains: [] };
  relatedCache.set(program, facts);
  for (const at of relatedModules(context)) addFacts(at, facts);
  return facts;
}

/**
 * The folder whose modules are the linted file's project: its package (the nearest `package.json`)
 * when its listing holds the file (not one too large to list, nor one whose listing leaves out the
 * hidden folder the file is in); else, below it, the nearest folder with a `tsconfig.json` or
 * `jsconfig.json` (a part of a monorepo whose own `package.json` is not there, under a root too
 * large to list). `undefined` when neither can be listed.
 */
function projectRoot(file: string): string | undefined {
  const info = packageOf(file);
  const lists = (root: string) => packageFiles(root)?.includes(file) === true;
  if (info && lists(info.root)) return info.root;
  for (let dir = dirname(file); dirname(dir) !== dir && (!info || dir.startsWith(info.root)); dir = dirname(dir)) {
    if (existsSync(join(dir, 'tsconfig.json')) || existsSync(join(dir, 'jsconfig.json'))) return lists(dir) ? dir : undefined;
  }
  return undefined;
}

/**
 * The contexts of the related modules of the linted file (see the module comment): its importers,
 * its imports, the importers of its imports, in that order, bounded; only those whose text
 * `mayMatter` matches are parsed (by default, text that may delete or expire a key).
 */
export function relatedModules(context: AnyContext, mayMatter: RegExp = MAY_MANAGE): AnyContext[] {
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return [];
  const root = projectRoot(file);
  if (root === undefined) return [];
  const ownIsTest = TEST_PATH.test(relative(root, file));
  const imports: string[] = [];
  for (const specifier of codeImports(context)) {
    const path = readModule(file, specifier, true)?.path;
    if (path) imports.push(path);
  }
  const candidates = new Set<string>();
  const add = (path: string) => {
    if (path !== file && candidates.size < MAX_MODULES_SEEN) candidates.add(path);
  };
  importersOf(file, root).forEach(add);
  imports.forEach(add);
  for (const path of imports) importersOf(path, root).forEach(add);
  const out: AnyContext[] = [];
  for (const path of candidates) {
    if (out.length >= MAX_MODULES_READ) break;
    // only a module of the same project, not a test's
    const rel = relative(root, path);
    if (rel.startsWith('..') || isAbsolute(rel) || (!ownIsTest && TEST_PATH.test(rel))) continue;
    const specifier = specifierOf(file, path);
    const text = readModule(file, specifier)?.entry.text;
    if (text === undefined || !mayMatter.test(text)) continue;
    const module = loadModule(context, specifier);
    if (module) out.push(moduleContext(context, module));
  }
  return out;
}

/** Adds what the module of `at` deletes and creates with a TTL, by key shape. */
function addFacts(at: AnyContext, facts: RelatedFacts): void {
  const index = fileIndexOf(at);
  const file = at.physicalFilename ?? at.filename;
  const push = (map: Map<string, ManagedKey[]>, shape: string, entry: ManagedKey) => {
    moduleFiles.set(entry.call, file);
    const list = map.get(shape);
    if (list) list.push(entry);
    else map.set(shape, [entry]);
  };
  for (const call of [...index.calls, ...index.facadeCalls]) {
    const named = namedFunctionOf(call.node);
    // a creation with a TTL in unnamed callbacks only (a route handler): its outermost function
    const fn = named ?? outermostFunction(call.node);
    if (!fn) continue;
    for (const key of call.description.keys) {
      const node = call.argNodes[key.arg];
      if (!node) continue;
      if (EFFECTS_THAT_DELETE_KEY.has(key.effect)) {
        if (!named) continue;
        // a RENAME to a key that lives on moves the value, it does not end it (moved-keys.ts)
        if (!removesWholeKey(at, call, key.arg)) continue;
        for (const each of listedKeys(at, node)) push(facts.deleted, keyShapeOf(at, each).shape, { call, fn, context: at });
        // DEL a b c: the command's further arguments are keys too
        if (key.arg === 0 && call.description.keys.length === 1) {
          for (const extra of call.argNodes.slice(1)) {
            if (extra) for (const each of listedKeys(at, extra)) push(facts.deleted, keyShapeOf(at, each).shape, { call, fn, context: at });
          }
        }
      } else if (node.type !== 'SpreadElement' && EFFECTS_THAT_SET_TTL.has(key.effect)) {
        if (key.effect === 'create-with-ttl' || writtenBefore(at, call, key.arg, fn)) push(facts.createdWithTtl, keyShapeOf(at, node).shape, { call, fn, context: at });
      }
    }
  }
  for (const drain of patternDrains(at)) {
    const fn = namedFunctionOf(drain.call.node);
    if (!fn || !mayRun(at, fn)) continue;
    moduleFiles.set(drain.call, file);
    facts.drains.push({ call: drain.call, fn, context: at, drain });
  }
}

/** Whether the EXPIRE `expiry` of argument `arg` follows, in its function `fn`, a write of the same key without TTL. */
function writtenBefore(context: AnyContext, expiry: RedisCall, arg: number, fn: FunctionLike): boolean {
  const id = keyIdOf(context, expiry, arg);
  if (id === undefined) return false;
  // in unnamed callbacks only: the write in the EXPIRE's own handler, not in another one the same plugin function registers
  const named = namedFunctionOf(expiry.node) !== undefined;
  return fileIndexOf(context).calls.some(
    (other) =>
      other.nameNode.range[0] < expiry.nameNode.range[0] &&
      (namedFunctionOf(other.node) ?? outermostFunction(other.node)) === fn &&
      (named || inCallbackOf(other.node, expiry.node)) &&
      other.description.keys.some((key) => EFFECTS_THAT_WRITE_WITHOUT_TTL.has(key.effect) && keyIdOf(context, other, key.arg) === id),
  );
}

/** A module that re-exports others (a barrel: `export * from './game'`, `export { GameService } from './game'`). */
const RE_EXPORT = /\bexport\s*(?:type\s*)?(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\b/;

/**
 * Whether the module of `at` can call the writer `name` of the linted file `writerFile`: it
 * imports (a value, a type, a `require`) that file, a barrel ({@link RE_EXPORT}), or a module whose
 * text declares a method or property `name` (an interface or base class the writer's class is
 * injected as). A module that imports none of them calls another function of that name
 * (`players.join(', ')` in a cleanup beside a writer `join`), never the writer.
 */
function mayCallWriter(at: AnyContext, writerFile: string, name: string): boolean {
  const from = at.physicalFilename ?? at.filename;
  const declares = new RegExp(`(?:^|[{,;])[\\t ]*(?:(?:public|private|protected|static|async|override|readonly|abstract)\\s+)*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*[?!]?\\s*(?:<[^>\\n]*>\\s*)?[(=:]`, 'm');
  for (const specifier of codeImports(at, { types: true, requires: true })) {
    const module = readModule(from, specifier, true);
    if (module && (module.path === writerFile || RE_EXPORT.test(module.entry.text) || declares.test(module.entry.text))) return true;
  }
  return false;
}

/**
 * Whether the call `node` of another module is a call of a function a module other than the
 * linted file `writerFile` holds, so never the writer: a function the module declares itself, or a
 * name it imports, whose member it calls (`KEY.seat(id)` of `import { KEY } from './keys'`, a key
 * builder named like the writer `seat`), from a module that is neither the linted file nor a
 * barrel ({@link RE_EXPORT}).
 */
function callOfAnotherModule(at: AnyContext, node: TSESTree.CallExpression, writerFile: string): boolean {
  let base: TSESTree.Node = node.callee;
  while (base.type === 'MemberExpression') base = base.object;
  if (base.type !== 'Identifier') return false;
  const def = findVariable(at, base)?.defs[0];
  if (!def) return false;
  if (def.type === 'FunctionName') return node.callee === base;
  if (def.type !== 'ImportBinding' || def.parent?.type !== 'ImportDeclaration') return false;
  const module = readModule(at.physicalFilename ?? at.filename, def.parent.source.value, true);
  return module !== undefined && module.path !== writerFile && !RE_EXPORT.test(module.entry.text);
}

const calledNamesCache = new WeakMap<FunctionLike, Map<string, Set<string>>>();

/**
 * The names a function calls (`f()`, `this.f()`, `obj.f()`), its nested callbacks included, but
 * for the calls of another module's functions ({@link callOfAnotherModule}); cached per linted
 * file.
 */
function calledNames(context: AnyContext, fn: FunctionLike, writerFile: string): Set<string> {
  let byFile = calledNamesCache.get(fn);
  if (!byFile) {
    byFile = new Map();
    calledNamesCache.set(fn, byFile);
  }
  let names = byFile.get(writerFile);
  if (names) return names;
  const found = new Set<string>();
  walk(context, fn.body, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = node.callee;
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name : undefined;
    if (name !== undefined && !callOfAnotherModule(context, node, writerFile)) found.add(name);
  });
  names = found;
  byFile.set(writerFile, names);
  return names;
}
