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
 * - a call of the deleter (`endGame(id)`, `this.endGame(id)`, `setTimeout(endGame, ms, id)`)
 *   inside such a callback, in the deleter's module or in a module importing it (`importers.ts`
 *   walkImporters, also through re-exports; tests, mocks and fixtures left out, `test-paths.ts`),
 *   one call deep, named by its binding: for a function, the identifier bound to its declaration or
 *   to its import from its module (under any local name, through re-exports; not a function of
 *   another module bearing its name), or a member of a namespace import of that module (a local
 *   `cleanup` or a parameter of the same name is not it); for a method, `this.name(...)` in its own
 *   class, or a member call of its name that no built-in collection, socket or stream method has
 *   (`pending.delete(id)` in a timer is no call of a repository's `delete`). Other code calling the deleter too does not restore the credit: an entity nobody
 *   ends explicitly waits for the timer.
 *
 * Not a `setInterval`, nor a `setTimeout` that re-arms itself (a recurring sweep, registered again
 * when the process starts), nor a `setTimeout` of the code (a local function, a parameter) or one
 * imported from another module than `timers` (`timers/promises`). A DEL on the request path
 * that created the key (a `finally`, the same handler) is decided before this is asked
 * (`deleted-after.ts`, the writer's own function): this reading only takes away the credit of a DEL
 * of another function.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { calledName } from './builder-lookup.js';
import { walkImporters } from './importers.js';
import { importedBinding, loadModule, moduleContext, namespaceModule, readModule, specifierOf } from './modules.js';
import { packageOf } from './project.js';
import { enclosingFunction, encloses, findVariable, referenceName, unwrap, walk, type AnyContext, type FunctionLike } from './static.js';
import { TEST_PATH } from './test-paths.js';

/** The timers whose callback runs once, later, in the same process. */
const ONE_OFF_TIMERS: ReadonlySet<string> = new Set(['setTimeout']);

/**
 * The callback of `call` when it is a one-off timer with a delay other than a literal 0 (see the
 * module comment); `undefined` otherwise. A timer that re-arms itself (its callback calls, or is,
 * the named function that sets it: `function tick() { setTimeout(() => { sweep(); tick(); }, ms) }`)
 * is a recurring sweep, as `setInterval` is: not one-off.
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
  return rearms(context, call, callback) ? undefined : callback;
}

/** Whether the identifier `callee` is the runtime's timer: the global, or one imported from `timers` / `node:timers`. */
function runtimeTimer(context: AnyContext, callee: TSESTree.Identifier): boolean {
  const defs = findVariable(context, callee)?.defs ?? [];
  if (defs.length === 0) return true;
  return defs.every((def) => def.type === 'ImportBinding' && def.parent?.type === AST_NODE_TYPES.ImportDeclaration && /^(?:node:)?timers$/.test(def.parent.source.value));
}

/** Whether the timer `call`'s `callback` calls (or is) the named function the timer is set in. */
function rearms(context: AnyContext, call: TSESTree.CallExpression, callback: TSESTree.Node): boolean {
  const setter = enclosingFunction(call);
  const name = setter ? calledName(setter as FunctionLike) : undefined;
  if (name === undefined) return false;
  if (referenceName(callback) === name) return true;
  let found = false;
  walk(context, callback, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression && referenceName(node.callee) === name) found = true;
    return found ? 'stop' : undefined;
  });
  return found;
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
 * Whether `node` (a callee, or a callback handed to a timer) names the deleter `deleter`, called
 * `name`, of the module at `deleterPath`, by its binding:
 * - a function of the module (declared, or a `const` holding it): the identifier bound to it (in
 *   its module) or to its import from that module (`import { endGame } from './cleanup'`), or a
 *   member of a namespace import of that module (`games.endGame(id)` with `import * as games`);
 *   a local or a parameter of the same name (`cleanup`, `endGame`) is not it;
 * - a method (a class member or an object literal's property): a member call of its name
 *   (`this.endGame(id)`, `this.games.endGame(id)`: the receiver's class is not read), unless the
 *   name is a built-in method's ({@link GENERIC_METHODS}: `pending.delete(id)`).
 */
function namesDeleter(context: AnyContext, node: TSESTree.Node, name: string, deleter: FunctionLike, deleterPath: string | undefined, own: boolean): boolean {
  const parent = deleter.parent;
  const method = parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.PropertyDefinition || parent?.type === AST_NODE_TYPES.Property;
  if (node.type === AST_NODE_TYPES.MemberExpression) {
    if (referenceName(node) !== name) return false;
    // `this.remove(id)` in the class whose method `remove` is the deleter, whatever built-in bears the name
    if (method && own && node.object.type === AST_NODE_TYPES.ThisExpression && parent?.type !== AST_NODE_TYPES.Property && classBodyOfThis(node) === parent?.parent) return true;
    if (method) return !GENERIC_METHODS.has(name);
    if (own || deleterPath === undefined || node.object.type !== AST_NODE_TYPES.Identifier) return false;
    const namespace = namespaceModule(context, node.object);
    return namespace !== undefined && samePath(namespace.path, deleterPath);
  }
  if (method || node.type !== AST_NODE_TYPES.Identifier) return false;
  if (own) {
    if (node.name !== name) return false;
    const defs = findVariable(context, node)?.defs ?? [];
    return defs.some((def) => (def.type === 'FunctionName' && def.node === deleter) || (def.type === 'Variable' && def.node.init !== null && unwrap(def.node.init) === deleter));
  }
  const imported = importedBinding(context, node);
  return imported !== undefined && deleterPath !== undefined && imported.name === name && samePath(imported.module.path, deleterPath);
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

/** Whether two absolute paths name the same file (a symlinked temporary folder spelled both ways). */
function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * Whether the program of `context` calls the deleter from the callback of a one-off timer:
 * `name(...)` or `x.name(...)` inside it, or the deleter itself handed to the timer as its
 * callback, named by its binding ({@link namesDeleter}; `own`: the program is the deleter's module).
 */
function schedulesCall(context: AnyContext, name: string, deleter: FunctionLike, deleterPath: string | undefined, own: boolean): boolean {
  const program = context.sourceCode.ast;
  let found = false;
  walk(context, program, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return;
    const callback = timerCallback(context, node);
    if (callback) {
      if (namesDeleter(context, callback, name, deleter, deleterPath, own)) found = true;
    } else if (namesDeleter(context, node.callee, name, deleter, deleterPath, own) && inTimerCallback(context, node, program)) {
      found = true;
    }
    return found ? 'stop' : undefined;
  });
  return found;
}

/** Per deleter: whether a one-off timer calls it (its module and its importers are walked once). */
const scheduledDeleters = new WeakMap<TSESTree.Node, boolean>();

/**
 * Whether the deletion `deletion`, in the named function `deleter` of the module of `context`,
 * runs from an in-process one-off timer as the module comment defines it: the DEL in a timer's
 * callback, or `deleter` called from one in its module or a module importing it (also when other
 * code calls it too: an entity nobody ends explicitly waits for the timer). Such a DEL does not
 * bound a key created without TTL: a restart before the timer fires leaves the key forever.
 * @param context the context of the module of `deleter` (the linted file's, or a `moduleContext`)
 * @param deleter the named function around the deletion (`builder-lookup.ts` namedFunctionOf)
 * @param deletion the DEL / UNLINK / GETDEL call node
 */
export function deletedByTimer(context: AnyContext, deleter: FunctionLike, deletion: TSESTree.Node): boolean {
  if (inTimerCallback(context, deletion, deleter)) return true;
  let scheduled = scheduledDeleters.get(deleter);
  if (scheduled === undefined) {
    scheduled = scheduledByName(context, deleter);
    scheduledDeleters.set(deleter, scheduled);
  }
  return scheduled;
}

/** {@link deletedByTimer}'s question for the deleter's callers: a timer of its module or of an importer calls it. */
function scheduledByName(context: AnyContext, deleter: FunctionLike): boolean {
  const name = calledName(deleter);
  if (name === undefined) return false;
  const file = context.physicalFilename ?? context.filename;
  const path = file && isAbsolute(file) ? file : undefined;
  if (schedulesCall(context, name, deleter, path, true)) return true;
  if (path === undefined) return false;
  const root = packageOf(path)?.root;
  // the modules importing the deleter's, and those importing it through their re-exports
  return walkImporters(
    [path],
    (importer, depth) => {
      if (depth === 0) return 'passed';
      const specifier = specifierOf(path, importer);
      const text = readModule(path, specifier)?.entry.text;
      // only a module whose text writes a timer and the deleter's name is parsed
      if (text === undefined || !text.includes(name) || !/\bsetTimeout\b/.test(text)) return 'passed';
      const module = loadModule(context, specifier);
      if (!module) return 'passed';
      return schedulesCall(moduleContext(context, module), name, deleter, path, false) ? 'found' : 'read';
    },
    (importer) => TEST_PATH.test(root !== undefined ? relative(root, importer) : importer),
  );
}
