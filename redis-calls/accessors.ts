/**
 * A client reached through an **accessor**: a function, method or getter that takes no argument
 * and returns a value kept somewhere else (`function client() { return api.redis.clients.client; }`
 * in actionhero's cache module, `get redis() { return this.app.redis; }`). When what it returns is
 * no client by its value (a construction, a factory call, a typed or imported client: the
 * detector's syntactic reading, which comes first), the returned value is judged by its name, as
 * the same expression would be as a receiver: `api.redis.clients.client` is a client because its
 * name is the default weak client name `client` under a path that names Redis (`member-owner.ts`),
 * and so is `client().set(...)`. The accessor may be of this module or of one it imports (the
 * detector of that module judges it, cached per module).
 *
 * Limits: a function that takes arguments is a factory or a lookup (`get(name)`), not an accessor,
 * and a value that is computed (`a + b`, a call, a literal) has no name to judge; neither counts.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from './static.js';

/**
 * The returned expressions of `fn` that are judged by their names when it is an accessor (see the
 * module comment): plain names and non-computed members (`redis`, `api.redis.clients.client`,
 * `this.#client`); none when `fn` takes a parameter or has no body.
 * @param returned the expressions `fn` returns (`returnedExpressions`)
 */
export function accessorValues(fn: { params?: readonly TSESTree.Parameter[]; body?: unknown }, returned: readonly TSESTree.Node[]): TSESTree.Node[] {
  if (!fn.body || !fn.params || fn.params.length > 0) return [];
  return returned.filter((expression) => {
    const bare = unwrap(expression);
    if (bare.type === AST_NODE_TYPES.Identifier) return true;
    return bare.type === AST_NODE_TYPES.MemberExpression && !bare.computed;
  });
}
