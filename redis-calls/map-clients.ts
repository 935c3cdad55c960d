/**
 * Clients kept in a `Map` of the code's own and read back by name: an application that talks to
 * several Redis servers (a cache, a session store) often makes one client per configured
 * connection and hands them out by name.
 *
 * ```js
 * class RedisService {
 *   constructor(names) {
 *     this.clients = new Map();
 *     names.forEach((name) => this.clients.set(name, createRedisClient(configs.get(name))));
 *   }
 *   getClient(name = this.defaultClient) { return this.clients.get(name); }
 *   async set(key, value, ttl = 0, name) {
 *     const client = this.getClient(name);  // a client: what `this.clients.set` put in
 *     ...
 *   }
 * }
 * ```
 *
 * A `Map`'s `get(k)` returns a value its `set(k, v)` stored (or `undefined`): the value is a client
 * when a value the code stores into that very Map is one, whatever the name it is stored under
 * (a connection name chosen at run time cannot be matched with the name read), except that a name
 * read and a name stored that are both known and differ (`items.get('memo')` of a Map holding a
 * client under `'redis'` and a `new Map()` under `'memo'`) never meet. The Map is a member
 * of `this` (`this.clients`, stored into anywhere in the same class) or a variable (`clients`,
 * stored into through that variable). A `Map` the code fills with anything else stays what it is
 * (provably no client, `new Map()`), and so does a `get` with a name the code keeps a client under
 * by name alone (`app.get('redis')`: `clients.ts` keptUnder).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { enclosingClass, memberKeyName } from './client-syntax.js';
import { findVariable, staticValue, unwrap, walk, type AnyContext } from './static.js';

/**
 * The values the code stores into the Map `map` is (`this.clients` or a variable `clients`) with
 * `map.set(name, value)`: each `value` expression, in source order; empty when `map` is neither
 * shape or nothing stores into it. With `name` (the name `get` reads), a value stored under another
 * name, both names known (`staticValue`), is left out.
 * @param context the context of the module `map` is written in
 */
export function storedMapValues(context: AnyContext, map: TSESTree.Node, name?: TSESTree.Node): TSESTree.Node[] {
  const read = name ? staticValue(context, name) : undefined;
  const values: TSESTree.Node[] = [];
  for (const entry of storedMapEntries(context, map)) {
    const stored = read === undefined ? undefined : staticValue(context, entry.name);
    if (stored === undefined || stored === read) values.push(entry.value);
  }
  return values;
}

/** Each `map.set(name, value)` into the Map `map` is, in source order (see {@link storedMapValues}). */
function storedMapEntries(context: AnyContext, map: TSESTree.Node): Array<{ name: TSESTree.Node; value: TSESTree.Node }> {
  const bare = unwrap(map);
  const values: Array<{ name: TSESTree.Node; value: TSESTree.Node }> = [];
  if (bare.type === AST_NODE_TYPES.MemberExpression && unwrap(bare.object).type === AST_NODE_TYPES.ThisExpression) {
    const name = memberKeyName(bare.property, bare.computed);
    const cls = enclosingClass(bare);
    if (name === undefined || !cls) return values;
    // one walk of the class body per member, whatever the number of `this.<member>.get(...)` sites
    let byMember = memberEntries.get(cls);
    if (!byMember) {
      byMember = new Map();
      memberEntries.set(cls, byMember);
    }
    const known = byMember.get(name);
    if (known) return known;
    byMember.set(name, values);
    walk(context, cls.body, (node) => {
      const stored = storedValue(node);
      const target = stored && unwrap(stored.map);
      if (target?.type === AST_NODE_TYPES.MemberExpression && unwrap(target.object).type === AST_NODE_TYPES.ThisExpression && memberKeyName(target.property, target.computed) === name) values.push(stored!);
    });
    return values;
  }
  if (bare.type !== AST_NODE_TYPES.Identifier) return values;
  const variable = findVariable(context, bare);
  for (const reference of variable?.references ?? []) {
    const member = reference.identifier.parent;
    const call = member?.parent;
    // clients.set(...) itself, not a call that only reads the Map (`conns.set(clients.size, c)`)
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier || call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) continue;
    const stored = storedValue(call);
    if (stored) values.push(stored);
  }
  return values;
}

/** Per class node (dropped with its syntax tree): the `set` calls into each `this.<member>` Map, by member name. */
const memberEntries = new WeakMap<TSESTree.Node, Map<string, Array<{ name: TSESTree.Node; value: TSESTree.Node }>>>();

/** `m.set(name, value)` as a call: its map expression, the name and the stored value. */
function storedValue(node: TSESTree.Node): { map: TSESTree.Node; name: TSESTree.Node; value: TSESTree.Node } | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression || node.arguments.length !== 2) return undefined;
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || memberKeyName(callee.property, callee.computed) !== 'set') return undefined;
  const [name, value] = node.arguments as [TSESTree.CallExpressionArgument, TSESTree.CallExpressionArgument];
  return value.type === AST_NODE_TYPES.SpreadElement || name.type === AST_NODE_TYPES.SpreadElement ? undefined : { map: callee.object, name, value };
}
