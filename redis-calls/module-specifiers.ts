/**
 * Module specifiers as names: the string of an import, a re-export, a `require('...')` or an
 * `import('...')` names a MODULE (the file it resolves to), not a function nor any other file that
 * happens to share its last segment.
 *
 * ```ts
 * // db/seed/follows.ts
 * import { updateAllFollowCounts } from '../controllers/users/follow/count';
 * // names users/follow/count.ts only: posts/engagement/clicks/count.ts is not named by it
 * ```
 *
 * `unreached-modules.ts` (a module's file named by text) and `uncalled.ts` (a function's name
 * written in code) read specifiers through this module, so both leave out the same strings.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { resolved } from './importers.js';

/**
 * The string literal a node names a module by: an import's or re-export's source
 * (`import x from '…'`, `export { a } from '…'`, `export * from '…'`), or the argument of
 * `require('…')` or `import('…')` when it is a string literal; `undefined` for any other node
 * (a template literal or a computed path names no one module).
 */
export function moduleSpecifier(node: TSESTree.Node): TSESTree.Literal | undefined {
  if (node.type === AST_NODE_TYPES.ImportDeclaration || node.type === AST_NODE_TYPES.ExportAllDeclaration) return node.source;
  if (node.type === AST_NODE_TYPES.ExportNamedDeclaration) return node.source ?? undefined;
  if (node.type === AST_NODE_TYPES.ImportExpression) return node.source.type === AST_NODE_TYPES.Literal && typeof node.source.value === 'string' ? node.source : undefined;
  if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.Identifier || node.callee.name !== 'require') return undefined;
  const first = node.arguments[0];
  return first?.type === AST_NODE_TYPES.Literal && typeof first.value === 'string' ? first : undefined;
}

/**
 * Whether `specifier`, written in the module at `from` (an absolute path), may name the module at
 * `file` (an absolute path): it resolves to `file`, or it resolves to nothing the resolver can
 * find (an alias or `#subpath` it misses, a package outside the repository: conservatively, it
 * may be `file`). A specifier resolving to ANOTHER file names that file only.
 */
export function specifierMayName(from: string, specifier: string, file: string): boolean {
  const to = resolved(from, specifier);
  return to === undefined || to === file;
}
