/**
 * A client package required as an optional dependency (round 38): the module is loaded in a
 * `try`, its variable left `null` when it is not installed.
 *
 * ```js
 * let Redis = null;
 * try {
 *   Redis = require('ioredis');
 * } catch (_) {
 *   Redis = null;                       // no client: the service falls back to memory
 * }
 * client = new Redis(url);              // an ioredis client where Redis is loaded
 * ```
 *
 * A `let` / `var` whose every value is `require('<m>')` of one module, `null` or `undefined`
 * (declared without a value too) stands for that module where it is used: with `null` no call on
 * it runs. Two modules, or any other value, leave it as it was (a local variable).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { requiredModule, unwrap } from './static.js';

/**
 * The module a `let` / `var` holds as an optional dependency (see the module comment): its
 * specifier, `undefined` for any other variable.
 */
export function optionalRequireSource(variable: TSESLint.Scope.Variable): string | undefined {
  const def = variable.defs[0];
  if (variable.defs.length !== 1 || def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || def.parent?.kind === 'const') return undefined;
  let source: string | undefined;
  const values: TSESTree.Node[] = def.node.init ? [def.node.init] : [];
  for (const reference of variable.references) {
    if (!reference.isWrite() || reference.init) continue;
    const assignment = reference.identifier.parent;
    if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.operator !== '=' || assignment.left !== reference.identifier) return undefined;
    values.push(assignment.right);
  }
  for (const value of values) {
    const bare = unwrap(value);
    if ((bare.type === AST_NODE_TYPES.Literal && bare.value === null && !('regex' in bare)) || (bare.type === AST_NODE_TYPES.Identifier && bare.name === 'undefined')) continue;
    const required = requiredModule(bare);
    if (required === undefined || (source !== undefined && source !== required)) return undefined;
    source = required;
  }
  return source;
}
