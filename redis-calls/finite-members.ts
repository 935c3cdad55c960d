/**
 * The text of a fixed value: `NATIVE_MINT.toString()` ({@link isToStringCall}) is the text of
 * `NATIVE_MINT`, fixed when that value is (an imported binding, a `const` of constants), as
 * `String(NATIVE_MINT)` is (`redis-calls/key-shape.ts`): `` `${NATIVE_MINT.toString()}_price` `` is
 * one key (Fenguoz/trading-bot). `toString()` of data (a parameter, `v4()`, `Date.now()`) stays
 * data.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { propertyName } from './static.js';

/** `x.toString()` with no argument (not `x.toString(16)`, a radix), `x` any expression. */
export function isToStringCall(callee: TSESTree.Node, call: TSESTree.CallExpression): callee is TSESTree.MemberExpression {
  return callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && propertyName(callee.property, false) === 'toString' && call.arguments.length === 0;
}
