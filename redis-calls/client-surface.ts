/**
 * A function that a client surface of the code exposes as the command it forwards:
 *
 * ```ts
 * async function safeIncr(key: string) {
 *   try { return await getRedis().incr(key); } catch (err) { log(err); return 0; }
 * }
 * export const redis: Redis = new Proxy({} as Redis, {
 *   get(_target, prop) {
 *     switch (prop) { case 'incr': return safeIncr; ... }
 *   },
 * });
 * await redis.incr(`clicks:${id}`); // a caller: read as INCR of clicks:* where it is
 * ```
 *
 * The function has a pass-through wrapper's shape under another name
 * (`redis-calls/pass-through.ts` forwardingWrapper: short, its one command, the key its
 * parameter), and a client object the rules read as a Redis client hands it out under the
 * command's own name: a `case 'incr': return safeIncr` (or `if (prop === 'incr') return safeIncr`)
 * of a `new Proxy(...)` handler, or a property `incr: safeIncr` of an object literal, that object
 * or proxy being what a variable the client detector reads as a client holds. Every caller calls
 * the client's `incr`, which the rules already judge as INCR at the caller, with the caller's key:
 * the function's own write is the same write seen a second time, and is left to its callers.
 * A name counts as the command when it sends the same write (`hmset` for HSET, `incr` for INCRBY 1:
 * pass-through.ts namesCommand). Exposed under another command's name, or by an object the rules do not read as a client (its
 * callers' calls are then read as nothing), it is judged where it is.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { clientDetectorOf } from './index.js';
import type { RedisCall } from './normalize.js';
import { namesCommand } from './pass-through.js';
import { findVariable, propertyName, staticValue, unwrap, type AnyContext, type FunctionLike } from './static.js';

/**
 * Whether `fn`, the wrapper that forwards its key parameter to `call`, is handed out by a client
 * surface of its module under the name of `call`'s command (see the module comment).
 * @param context the rule context of `fn`'s module
 * @param fn a function of a pass-through wrapper's shape
 * @param call the Redis command it forwards its key to
 */
export function exposedAsClientCommand(context: AnyContext, fn: FunctionLike, call: RedisCall): boolean {
  const id = bindingOf(fn);
  const variable = id ? findVariable(context, id) : null;
  if (!variable) return false;
  return variable.references.some((reference) => {
    const exposed = exposure(context, reference.identifier as TSESTree.Node);
    return exposed !== undefined && namesCommand(context, exposed.name, call) && clientHolder(context, exposed.surface);
  });
}

/** The identifier a function is bound to: `function safeIncr() {}`, `const safeIncr = async () => ...`. */
function bindingOf(fn: FunctionLike): TSESTree.Identifier | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id ?? undefined;
  const holder = fn.parent;
  return holder?.type === AST_NODE_TYPES.VariableDeclarator && holder.id.type === AST_NODE_TYPES.Identifier ? holder.id : undefined;
}

/**
 * The command name a reference hands the function out under, with the object or proxy that does:
 * `case 'incr': return ref` or `if (prop === 'incr') return ref` in a `new Proxy(...)`, or
 * `{ incr: ref }`.
 */
function exposure(context: AnyContext, ref: TSESTree.Node): { name: string; surface: TSESTree.Node } | undefined {
  const parent = ref.parent;
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === ref && parent.parent.type === AST_NODE_TYPES.ObjectExpression) {
    const name = propertyName(parent.key, parent.computed);
    return name === undefined ? undefined : { name, surface: parent.parent };
  }
  if (parent?.type !== AST_NODE_TYPES.ReturnStatement) return undefined;
  let name: string | undefined;
  for (let child: TSESTree.Node = parent, node: TSESTree.Node | undefined = parent.parent; node; child = node, node = node.parent) {
    if (name === undefined && node.type === AST_NODE_TYPES.SwitchCase && node.test) name = stringOf(context, node.test);
    // (the `else` of `if (prop === 'incr')` hands it out under every other name)
    if (name === undefined && node.type === AST_NODE_TYPES.IfStatement && node.alternate === child) return undefined;
    if (name === undefined && node.type === AST_NODE_TYPES.IfStatement) name = equalityName(context, node.test);
    if (node.type === AST_NODE_TYPES.NewExpression && unwrap(node.callee).type === AST_NODE_TYPES.Identifier && (unwrap(node.callee) as TSESTree.Identifier).name === 'Proxy') {
      return name === undefined ? undefined : { name, surface: node };
    }
  }
  return undefined;
}

/** The string a case test or a compared value is (`'incr'`). */
function stringOf(context: AnyContext, node: TSESTree.Node): string | undefined {
  const value = staticValue(context, node);
  return typeof value === 'string' ? value : undefined;
}

/** `prop === 'incr'` (either side): the string compared. */
function equalityName(context: AnyContext, test: TSESTree.Expression): string | undefined {
  if (test.type !== AST_NODE_TYPES.BinaryExpression || (test.operator !== '===' && test.operator !== '==')) return undefined;
  return stringOf(context, test.right) ?? stringOf(context, test.left as TSESTree.Node);
}

/**
 * Whether the object or proxy `surface` is what a variable the client detector reads as a Redis
 * client holds (`export const redis: Redis = new Proxy(...)`), so that its callers' calls are
 * read as commands.
 */
function clientHolder(context: AnyContext, surface: TSESTree.Node): boolean {
  let node: TSESTree.Node = surface;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.TSAsExpression || node.parent.type === AST_NODE_TYPES.TSSatisfiesExpression || node.parent.type === AST_NODE_TYPES.TSNonNullExpression)) node = node.parent;
  const declarator = node.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== node || declarator.id.type !== AST_NODE_TYPES.Identifier) return false;
  return clientDetectorOf(context).classify(declarator.id).redis;
}
