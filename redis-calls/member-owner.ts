/**
 * Whose member a receiver is, by name: the weak default client name (`client`) counts as a Redis
 * client for a member of something whose own name says Redis (`this.client` in `class
 * RedisStore`, `RedisStore.client` of `const RedisStore = { client: null, ... }`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { enclosingClass } from './client-syntax.js';
import { unwrap } from './static.js';

/**
 * The name of the owner of a member receiver: for `this.x`, the enclosing class's name (its
 * own, or the variable a class expression is assigned to: `let RedisStore = class { ... }`); for
 * `Obj.x`, `Obj`; `undefined` for anything else (a computed member, a call, a deeper path).
 */
export function ownerName(receiver: TSESTree.Node): string | undefined {
  if (receiver.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = unwrap(receiver.object);
  if (object.type === AST_NODE_TYPES.Identifier) return object.name;
  if (object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const cls = enclosingClass(receiver);
  if (!cls) return undefined;
  if (cls.id) return cls.id.name;
  const parent = cls.parent;
  return parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier ? parent.id.name : undefined;
}
