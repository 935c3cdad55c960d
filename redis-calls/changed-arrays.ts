/**
 * Whether the code of a file changes an array a key reads through a path of members
 * (`SCOPES.jobs.index.push(id)`): key-shape.ts reads a spread of a const array as its elements
 * only while nothing calls a method on it that is not read-only.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, propertyName, unwrap, type AnyContext } from './static.js';

/** Array methods that leave the array as it is. */
const READ_ONLY_ARRAY_METHODS: ReadonlySet<string> = new Set([
  'at', 'concat', 'entries', 'every', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'flat', 'flatMap', 'forEach', 'includes', 'indexOf',
  'join', 'keys', 'lastIndexOf', 'map', 'reduce', 'reduceRight', 'slice', 'some', 'toLocaleString', 'toReversed', 'toSorted', 'toSpliced', 'toString', 'values', 'with',
]);

/**
 * Whether the code of this file changes the array `spread` reads (`SCOPES.jobs.index` of a
 * binding): a call on it other than a read-only one (`SCOPES.jobs.index.push(id)`, which the
 * container's member writes do not see), through any reference of the same binding and path.
 */
export function arrayCalledOn(context: AnyContext, spread: TSESTree.MemberExpression): boolean {
  const path: string[] = [];
  let root: TSESTree.Node = spread;
  while (root.type === AST_NODE_TYPES.MemberExpression) {
    const name = propertyName(root.property, root.computed);
    if (name === undefined) return true;
    path.unshift(name);
    root = unwrap(root.object);
  }
  if (root.type !== AST_NODE_TYPES.Identifier) return true;
  const variable = findVariable(context, root);
  if (!variable) return true;
  // the outermost wrapper (a cast, `!`) around a node
  const outer = (node: TSESTree.Node): TSESTree.Node => (node.parent && unwrap(node.parent) !== node.parent ? outer(node.parent) : node);
  return variable.references.some((reference) => {
    let top = outer(reference.identifier);
    for (const name of path) {
      const member = top.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== top || propertyName(member.property, member.computed) !== name) return false;
      top = outer(member);
    }
    const method = top.parent;
    if (method?.type !== AST_NODE_TYPES.MemberExpression || method.object !== top || method.parent?.type !== AST_NODE_TYPES.CallExpression || method.parent.callee !== method) return false;
    const name = propertyName(method.property, method.computed);
    return name === undefined || !READ_ONLY_ARRAY_METHODS.has(name);
  });
}
