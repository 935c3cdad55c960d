/**
 * Node-style callbacks passed by name. ioredis and node-redis 3 and earlier (node_redis 0.x to 2.x
 * alike) take a function as a command's last argument and call it with the reply; it is never sent
 * to Redis. A function written at the call (`(err) => ...`) is plainly one; so is a name whose
 * value is a function: `client.set(key, value, cb)` in `function save(sid, data, cb)`. Read as an
 * argument it would be an unknown token, which may be an expiry, and hide a SET that has none.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, unwrap, type AnyContext } from './static.js';

/** A name that says a callback: `cb`, `callback`, `saveCallback`, `doneCb`. */
const CALLBACK_NAME = /^(?:cb|callback)$|[a-z0-9_](?:Callback|Cb)$/;

/**
 * Whether `node`, the last argument of a client call, is a function passed as the reply's
 * callback: a function expression or arrow written at the call, or an identifier bound to a
 * function (a function declaration, a `const` initialized with one), called as a function
 * somewhere in its scope (`cb(err)`, `cb && cb(null, v)`, `cb?.()`), or named as a callback
 * (`cb`, `callback`, `...Callback`, `...Cb`). A member (`this.cb`) or any other expression is
 * not one. Never throws.
 */
export function isCallbackArgument(context: AnyContext, node: TSESTree.Node): boolean {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.ArrowFunctionExpression || bare.type === AST_NODE_TYPES.FunctionExpression) return true;
  if (bare.type !== AST_NODE_TYPES.Identifier) return false;
  if (CALLBACK_NAME.test(bare.name)) return true;
  const variable = findVariable(context, bare);
  if (!variable) return false;
  for (const def of variable.defs) {
    if (def.type === 'FunctionName') return true;
    if (def.type === 'Variable' && def.parent?.kind === 'const' && def.node.init) {
      const init = unwrap(def.node.init);
      if (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression) return true;
    }
  }
  return variable.references.some((reference) => {
    const parent = reference.identifier.parent;
    return parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === reference.identifier;
  });
}
