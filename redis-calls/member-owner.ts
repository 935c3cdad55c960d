/**
 * Whose member a receiver is, by name: the weak default client name (`client`) counts as a Redis
 * client for a member of something whose own name says Redis (`this.client` in `class
 * RedisStore`, `RedisStore.client` of `const RedisStore = { client: null, ... }`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { enclosingClass } from './client-syntax.js';
import { unwrap } from './static.js';

/** How many names a deeper owner path may have (`index_1.api.redis.clients`). */
const MAX_PATH = 4;

/**
 * The name of the owner of a member receiver: for `this.x`, the enclosing class's name (its
 * own, or the variable a class expression is assigned to: `let RedisStore = class { ... }`); for
 * `Obj.x`, `Obj`; for a deeper path of plain names, the path (`api.redis.clients` for
 * `api.redis.clients.client`, `redis.clients` for `this.redis.clients.client`; at most
 * {@link MAX_PATH} names), each of whose names is an owner's name; `undefined` for anything else
 * (a computed member, a call).
 */
export function ownerName(receiver: TSESTree.Node): string | undefined {
  if (receiver.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = unwrap(receiver.object);
  if (object.type === AST_NODE_TYPES.Identifier) return object.name;
  if (object.type === AST_NODE_TYPES.MemberExpression) return ownerPath(object);
  if (object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const cls = enclosingClass(receiver);
  if (!cls) return undefined;
  if (cls.id) return cls.id.name;
  const parent = cls.parent;
  return parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier ? parent.id.name : undefined;
}

/** `a.b.c` as written, when it is a path of at most {@link MAX_PATH} plain names (after a leading `this.`). */
function ownerPath(node: TSESTree.MemberExpression): string | undefined {
  const names: string[] = [];
  let current: TSESTree.Node = node;
  while (current.type === AST_NODE_TYPES.MemberExpression) {
    if (current.computed || current.property.type !== AST_NODE_TYPES.Identifier || names.length >= MAX_PATH) return undefined;
    names.unshift(current.property.name);
    current = unwrap(current.object);
  }
  if (current.type === AST_NODE_TYPES.Identifier && names.length < MAX_PATH) names.unshift(current.name);
  else if (current.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  return names.join('.');
}
