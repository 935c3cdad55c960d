/**
 * Pass-through wrappers: a function or method that re-exposes one Redis command under the
 * command's own name and forwards its own key parameter to it,
 *
 * ```ts
 * async incr(key: string) { await this.connect(); return this.client.incr(key); }
 * const adapter = { sadd: (key, ...members) => redis.sadd(key, members) };
 * sadd(key, value) { return new Promise((resolve) => { this.pub.sadd(key, value, resolve); }); }
 * get(key) { return this.client.get(this.buildKey(key)); }
 * ```
 *
 * is part of a client facade, not a place where a key is chosen: whether the key should expire is
 * decided where the wrapper is called. The wrapper's name must be the command's name (any case:
 * `hSet`, `hset`), its body short (at most {@link MAX_STATEMENTS} statements, and so is each
 * promise executor or callback the call sits in), and the key its parameter: as it is, given to a
 * key builder of the module (`this.buildKey(key)`, `prefixed(key)`), or with configuration around
 * it (`` `${this.prefix}:${key}` ``, `NAMESPACE + key` with an imported `NAMESPACE`; a literal
 * family such as `` `hits:${id}` `` is the wrapper's own choice). A function named after the data it stores
 * (`saveSummary(text, summary)`) is not a pass-through: it decides which keys exist, and stays
 * reported.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { redisCallsIn } from './index.js';
import { keyBuilder, keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import { enclosingFunction, findVariable, propertyName, unwrap, type AnyContext } from './static.js';

/** A facade method does little besides forwarding (a connection check, the call, a return). */
const MAX_STATEMENTS = 3;

export type FunctionLike = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

/**
 * Whether the key at `keyNode` of `call` is the key parameter of a wrapper that re-exposes the
 * call's command under its own name (see the module comment).
 * @param context the rule context (scope analysis resolves the parameter)
 * @param call the Redis command
 * @param keyNode the key argument as written at the call
 */
export function isPassThrough(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  return passThroughFunction(context, call, keyNode) !== undefined;
}

/**
 * The wrapper and the position of its parameter that the key at `keyNode` of `call` forwards,
 * when {@link isPassThrough} holds: what its callers pass there is the key
 * (`redis-calls/facades.ts` reads those calls as the command). `index` counts the wrapper's
 * parameters from 0; `rest` says the parameter is `...keys` (the key is then the argument at
 * `index`, the first of the rest).
 */
export function passThroughParameter(
  context: AnyContext,
  call: RedisCall,
  keyNode: TSESTree.Node,
): { fn: FunctionLike; index: number; rest: boolean } | undefined {
  const param = passThroughFunction(context, call, keyNode);
  if (!param) return undefined;
  const index = param.fn.params.findIndex((p) => parameterBinding(p) === param.id);
  return index < 0 ? undefined : { fn: param.fn, index, rest: param.fn.params[index]!.type === AST_NODE_TYPES.RestElement };
}

/** The wrapper whose parameter `id` the key forwards, when {@link isPassThrough} holds. */
function passThroughFunction(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): { fn: FunctionLike; id: TSESTree.Node } | undefined {
  const param = forwardedParameter(context, unwrap(keyNode), 0);
  if (!param) return undefined;
  const fn = param.fn;
  if (!short(fn)) return undefined;
  // the call is the wrapper's own, or sits in a promise executor or callback written in it
  for (let inner = enclosingFunction(call.node); inner !== fn; inner = enclosingFunction(inner)) {
    if (!inner || !isFunction(inner) || !short(inner)) return undefined;
    const holder = inner.parent;
    const passed = (holder?.type === AST_NODE_TYPES.CallExpression || holder?.type === AST_NODE_TYPES.NewExpression) && holder.arguments.includes(inner as TSESTree.CallExpressionArgument);
    if (!passed) return undefined;
  }
  const name = functionName(fn);
  if (name === undefined || name.toUpperCase() !== call.command) return undefined;
  // a wrapper that sends another command too (its own EXPIRE, a read first) decides about the
  // key itself: it is judged where it is, not at its callers
  return redisCallsIn(context, fn.body).every((other) => other === call) ? param : undefined;
}

/** The identifier a parameter binds: `key`, `key = ''`, `private readonly key`, `...keys`. */
function parameterBinding(param: TSESTree.Parameter): TSESTree.Node | undefined {
  const inner = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
  if (inner.type === AST_NODE_TYPES.AssignmentPattern) return inner.left;
  if (inner.type === AST_NODE_TYPES.RestElement) return inner.argument;
  return inner;
}

/**
 * The parameter a key expression forwards, with its function: the bare parameter, a key builder of
 * the module given it (`this.buildKey(key)`, `prefixed(key)`), or fixed parts around it
 * (`` `${this.prefix}:${key}` ``, `PREFIX + key`).
 */
function forwardedParameter(context: AnyContext, key: TSESTree.Node, depth: number): { fn: FunctionLike; id: TSESTree.Node } | undefined {
  if (depth > 3) return undefined;
  if (key.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context, key);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    return def?.type === 'Parameter' && isFunction(def.node) ? { fn: def.node, id: def.name } : undefined;
  }
  let parts: TSESTree.Node[] | undefined;
  // a key builder of the module given the parameter, its other arguments fixed
  let fixedPart = (part: TSESTree.Node): boolean => keyShapeOf(context, part).constant;
  if (key.type === AST_NODE_TYPES.CallExpression && keyBuilder(context, unwrap(key.callee))) {
    parts = key.arguments;
  } else if (key.type === AST_NODE_TYPES.TemplateLiteral || key.type === AST_NODE_TYPES.BinaryExpression) {
    // configuration around the parameter (`${this.prefix}:${key}`), not a family the wrapper names
    // (`hits:${id}` chooses which keys exist, as `saveSummary` does)
    if (key.type === AST_NODE_TYPES.BinaryExpression && key.operator !== '+') return undefined;
    if (key.type === AST_NODE_TYPES.TemplateLiteral && !key.quasis.every((quasi) => SEPARATORS.test(quasi.value.cooked ?? 'x'))) return undefined;
    parts = key.type === AST_NODE_TYPES.TemplateLiteral ? key.expressions : [key.left, key.right];
    fixedPart = (part) => {
      const shape = keyShapeOf(context, part);
      return shape.constant && SEPARATORS.test(shape.shape.replace(/\*/g, ''));
    };
  }
  if (!parts) return undefined;
  // exactly one part forwards the parameter; every other part is fixed
  let found: { fn: FunctionLike; id: TSESTree.Node } | undefined;
  for (const part of parts) {
    if (part.type === AST_NODE_TYPES.SpreadElement || part.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
    const forwarded = forwardedParameter(context, unwrap(part), depth + 1);
    if (forwarded) {
      if (found) return undefined;
      found = forwarded;
    } else if (!fixedPart(part)) {
      return undefined;
    }
  }
  return found;
}

/** Text that only separates key parts (`:`, `/`, `.`, `-`, `_`, `|`, `#`), or none. */
const SEPARATORS = /^[:/.\-_|#{}]*$/;

/** At most {@link MAX_STATEMENTS} statements (an expression body is one). */
function short(fn: FunctionLike): boolean {
  return fn.body.type !== AST_NODE_TYPES.BlockStatement || fn.body.body.length <= MAX_STATEMENTS;
}

function isFunction(node: TSESTree.Node): node is FunctionLike {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
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
