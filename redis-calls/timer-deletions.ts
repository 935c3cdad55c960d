/**
 * Deletions an in-process timer schedules: a DEL that ends a key's life only when a one-off
 * `setTimeout` of the running process fires. A restart, a deploy or a crash between the key's
 * creation and the timer drops the timer with the process, and nothing deletes the key then:
 * such a DEL does not bound a key created without TTL (the timer is an expiry kept in memory;
 * the key's own TTL is the one that survives). Read by `lifecycle.ts` (a DEL of the same file)
 * and `cross-file-lifecycle.ts` (a DEL of another module).
 *
 * ```ts
 * // game.cleanup.ts
 * export async function endGame(id) { await redis.del(`game:chat:${id}`); }
 * // moves.ts: an abandoned game ends when this timer fires, if the process is still there
 * function onMove(id) { setTimeout(() => endGame(id), ABORT_MS); }
 * // chat.ts (linted): reported, the DEL of endGame is reached from a timer
 * async function say(id, text) { await redis.rPush(`game:chat:${id}`, text); }
 * ```
 *
 * What counts as scheduled by a timer:
 *
 * - the DEL itself inside the callback of a `setTimeout` (or `x.setTimeout`) call with a delay that
 *   is not a literal `0` (a deferral to the next turn of the event loop is the same run):
 *   `setTimeout(() => redis.del(k), 60_000)`;
 * - a call of the deleter by the name it is called by (`endGame(id)`, `this.endGame(id)`,
 *   `setTimeout(endGame, ms, id)`) inside such a callback, in the deleter's module or in a module
 *   importing it, directly or through re-exports (`importers.ts` walkImporters; tests, mocks and
 *   fixtures left out, `test-paths.ts`), one call deep: an identifier bound to the deleter (its
 *   declaration, or an import that resolves to it, under any local name; not a function of another
 *   module that bears its name), or, in its module or a module importing that one, a member
 *   call under a name no built-in collection, socket or stream method has (`pending.delete(id)` in a
 *   timer is no call of a repository's `delete`), or `this.name(...)` in the class whose method is
 *   the deleter (`this.remove(id)` of a repository's own `remove`, from a method or a field arrow).
 *
 * Not a `setTimeout` of the code (a local function, a parameter) or one imported from another
 * module than `timers` (`timers/promises`). Not a `setInterval` (a recurring sweep, registered again when the process starts). A DEL on the request path
 * that created the key (a `finally`, the same handler) is decided before this is asked
 * (`deleted-after.ts`, the writer's own function): this reading only takes away the credit of a DEL
 * of another function.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { calledName } from './builder-lookup.js';
import { walkImporters } from './importers.js';
import { importedBinding, loadModule, moduleContext, readModule, specifierOf } from './modules.js';
import { packageOf } from './project.js';
import { encloses, findVariable, referenceName, walk, type AnyContext, type FunctionLike } from './static.js';
import { TEST_PATH } from './test-paths.js';

/** The timers whose callback runs once, later, in the same process. */
const ONE_OFF_TIMERS: ReadonlySet<string> = new Set(['setTimeout']);

/**
 * The callback of `call` when it is a one-off timer with a delay other than a literal 0 (see the
 * module comment); `undefined` otherwise.
 */
function timerCallback(context: AnyContext, call: TSESTree.CallExpression): TSESTree.Node | undefined {
  const name = referenceName(call.callee);
  if (name === undefined || !ONE_OFF_TIMERS.has(name)) return undefined;
  // a `setTimeout` of the code (a function, a parameter, a variable) or one imported from a module
  // other than `timers` (`timers/promises`' setTimeout takes no callback) is no timer of the runtime
  if (call.callee.type === AST_NODE_TYPES.Identifier && !runtimeTimer(context, call.callee)) return undefined;
  const [callback, delay] = call.arguments;
  if (!callback || !delay || callback.type === AST_NODE_TYPES.SpreadElement) return undefined;
  if (delay.type === AST_NODE_TYPES.Literal && delay.value === 0) return undefined;
  return callback;
}

/** Whether the identifier `callee` is the runtime's timer: the global, or one imported from `timers` / `node:timers`. */
function runtimeTimer(context: AnyContext, callee: TSESTree.Identifier): boolean {
  const defs = findVariable(context, callee)?.defs ?? [];
  if (defs.length === 0) return true;
  return defs.every((def) => def.type === 'ImportBinding' && def.parent?.type === AST_NODE_TYPES.ImportDeclaration && /^(?:node:)?timers$/.test(def.parent.source.value));
}

/** Whether `node` lies in the callback of a one-off timer ({@link timerCallback}) within `within`. */
function inTimerCallback(context: AnyContext, node: TSESTree.Node, within: TSESTree.Node): boolean {
  for (let current = node.parent; current && current !== within; current = current.parent) {
    if (current.type !== AST_NODE_TYPES.CallExpression) continue;
    const callback = timerCallback(context, current);
    if (callback && callback !== node && encloses(callback, node)) return true;
  }
  return false;
}

/**
 * Methods of the built-in collections, sockets, streams and timers (`pending.delete(id)`,
 * `socket.destroy()`, `controller.abort()`): a member call of one in a timer's callback is no call
 * of a deleter that happens to bear the name.
 */
const GENERIC_METHODS: ReadonlySet<string> = new Set([
  'delete', 'clear', 'close', 'end', 'destroy', 'remove', 'abort', 'cancel', 'stop', 'disconnect', 'quit', 'kill', 'terminate', 'reset', 'del', 'unlink',
]);

/**
 * Whether `node` (a callee, or a callback handed to a timer) names the deleter `name` of the module
 * `file`: in the deleter's own module (`depth` 0), a member `x.name` whose name is no built-in
 * method ({@link GENERIC_METHODS}) or the identifier `name` bound to a function or variable
 * declaration (the deleter itself, not a parameter); in a module importing it, an identifier
 * whose import resolves to that export of `file`, under any local name and through re-exports
 * (`import { endGame as finish } from './cleanup'`, `import { endGame } from './index'`; not an
 * `endGame` imported from another module), or, in a module importing `file` itself (`depth` 1), such
 * a member.
 */
function namesDeleter(context: AnyContext, node: TSESTree.Node, name: string, file: string, depth: number, owner?: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.MemberExpression) {
    if (depth > 1 || referenceName(node) !== name) return false;
    // `this.remove(id)` in the class whose method `remove` is the deleter: no built-in's method
    if (owner !== undefined && node.object.type === AST_NODE_TYPES.ThisExpression && classBodyOfThis(node) === owner) return true;
    return !GENERIC_METHODS.has(name);
  }
  if (node.type !== AST_NODE_TYPES.Identifier) return false;
  if (depth === 0) {
    if (node.name !== name) return false;
    const defs = findVariable(context, node)?.defs ?? [];
    return defs.some((def) => def.type === 'FunctionName' || def.type === 'Variable');
  }
  const imported = importedBinding(context, node);
  return imported !== undefined && imported.name === name && samePath(imported.module.path, file);
}

/** The class body `this` at `node` is an instance of: through arrows, up to a method or a field of a class. */
function classBodyOfThis(node: TSESTree.Node): TSESTree.Node | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
    if (current.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
    if (current.type === AST_NODE_TYPES.FunctionExpression && current.parent?.type !== AST_NODE_TYPES.MethodDefinition) return undefined;
  }
  return undefined;
}

/** The class body the deleter is a method (or a field's function) of, if any. */
function ownerClassBody(deleter: FunctionLike): TSESTree.Node | undefined {
  const member = deleter.parent;
  return member?.type === AST_NODE_TYPES.MethodDefinition || member?.type === AST_NODE_TYPES.PropertyDefinition ? member.parent : undefined;
}

/** Whether two absolute paths name the same file (a symlinked temporary folder spelled both ways). */
function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** Timer-scheduled calls found per program, name and module role. */
const scheduledCache = new WeakMap<TSESTree.Program, Map<string, boolean>>();

/**
 * Whether the program of `context` calls the deleter named `name` (of the module `file`) from the
 * callback of a one-off timer: `name(...)` or `x.name(...)` inside it, or `name` itself handed to
 * the timer as its callback ({@link namesDeleter}; `depth`: 0 the deleter's module, 1 a module
 * importing it, more a module importing it through re-exports).
 */
function schedulesCall(context: AnyContext, name: string, file: string, depth: number, owner?: TSESTree.Node): boolean {
  const program = context.sourceCode.ast;
  let byName = scheduledCache.get(program);
  if (!byName) scheduledCache.set(program, (byName = new Map()));
  const cacheKey = `${Math.min(depth, 2)}\0${file}\0${name}\0${owner ? owner.range[0] : ''}`;
  const cached = byName.get(cacheKey);
  if (cached !== undefined) return cached;
  let found = false;
  walk(context, program, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return;
    const callback = timerCallback(context, node);
    if (callback) {
      if (namesDeleter(context, callback, name, file, depth, owner)) found = true;
    } else if (namesDeleter(context, node.callee, name, file, depth, owner) && inTimerCallback(context, node, program)) {
      found = true;
    }
    return found ? 'stop' : undefined;
  });
  byName.set(cacheKey, found);
  return found;
}

/**
 * Whether the deletion `deletion`, in the named function `deleter` of the module of `context`,
 * runs only from an in-process one-off timer as the module comment defines it: the DEL in a timer's
 * callback, or `deleter` called by name from one in its module or a module importing it. Such a
 * DEL does not bound a key created without TTL: a restart before the timer fires leaves the key
 * forever.
 * @param context the context of the module of `deleter` (the linted file's, or a `moduleContext`)
 * @param deleter the named function around the deletion (`builder-lookup.ts` namedFunctionOf)
 * @param deletion the DEL / UNLINK / GETDEL call node
 */
export function deletedByTimer(context: AnyContext, deleter: FunctionLike, deletion: TSESTree.Node): boolean {
  if (inTimerCallback(context, deletion, deleter)) return true;
  const name = calledName(deleter);
  if (name === undefined) return false;
  const file = context.physicalFilename ?? context.filename;
  if (schedulesCall(context, name, file, 0, ownerClassBody(deleter))) return true;
  if (!file || !isAbsolute(file)) return false;
  const root = packageOf(file)?.root;
  // the modules importing the deleter's, and those importing it through their re-exports
  return walkImporters(
    [file],
    (importer, depth) => {
      if (depth === 0) return 'passed';
      const specifier = specifierOf(file, importer);
      const text = readModule(file, specifier)?.entry.text;
      // only a module whose text writes a timer and the deleter's name is parsed
      if (text === undefined || !text.includes(name) || !/\bsetTimeout\b/.test(text)) return 'passed';
      const module = loadModule(context, specifier);
      if (!module) return 'passed';
      return schedulesCall(moduleContext(context, module), name, file, depth) ? 'found' : 'read';
    },
    (path) => TEST_PATH.test(root !== undefined ? relative(root, path) : path),
  );
}
