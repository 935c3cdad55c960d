/**
 * Pass-through wrappers: a function or method that re-exposes one Redis command under the
 * command's own name and forwards its own key parameter to it,
 *
 * ```ts
 * async incr(key: string) { await this.connect(); return this.client.incr(key); }
 * const adapter = { sadd: (key, ...members) => redis.sadd(key, members) };
 * ```
 *
 * is part of a client facade, not a place where a key is chosen: whether the key should expire is
 * decided where the wrapper is called. The wrapper's name must be the command's name (any case:
 * `hSet`, `hset`), its body short (at most {@link MAX_STATEMENTS} statements), and the key the bare
 * parameter. A function named after the data it stores (`saveSummary(text, summary)`) is not a
 * pass-through: it decides which keys exist, and stays reported.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { RedisCall } from './normalize.js';
import { enclosingFunction, findVariable, propertyName, unwrap, type AnyContext } from './static.js';

/** A facade method does little besides forwarding (a connection check, the call, a return). */
const MAX_STATEMENTS = 3;

type FunctionLike = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

/**
 * Whether the key at `keyNode` of `call` is the key parameter of a wrapper that re-exposes the
 * call's command under its own name (see the module comment).
 * @param context the rule context (scope analysis resolves the parameter)
 * @param call the Redis command
 * @param keyNode the key argument as written at the call
 */
export function isPassThrough(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  const key = unwrap(keyNode);
  if (key.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context, key);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Parameter') return false;
  const fn = def.node as TSESTree.Node;
  if (
    fn.type !== AST_NODE_TYPES.FunctionDeclaration &&
    fn.type !== AST_NODE_TYPES.FunctionExpression &&
    fn.type !== AST_NODE_TYPES.ArrowFunctionExpression
  ) {
    return false;
  }
  // the call is the wrapper's own (not in a callback nested inside it)
  if (enclosingFunction(call.node) !== fn) return false;
  const name = functionName(fn);
  if (name === undefined || name.toUpperCase() !== call.command) return false;
  return fn.body.type !== AST_NODE_TYPES.BlockStatement || fn.body.body.length <= MAX_STATEMENTS;
}

/** The name a function is called by: its declaration, method, property or `const`. */
function functionName(fn: FunctionLike): string | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id?.name;
  const parent = fn.parent;
  if (!parent) return undefined;
  if (parent.type === AST_NODE_TYPES.MethodDefinition || parent.type === AST_NODE_TYPES.Property) {
    return propertyName(parent.key, parent.computed);
  }
  if (parent.type === AST_NODE_TYPES.PropertyDefinition) return propertyName(parent.key, parent.computed);
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  return undefined;
}
