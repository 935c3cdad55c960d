/**
 * A constant arithmetic expression inside a script built at load time: `${DEFAULT_LEASE_SECONDS *
 * 1000}`, `"... " + (TTL_HOURS * 3600) + " ..."`, `${Math.floor(LEASE_MS / 1000)}` where every
 * name is a `const` number of the file. JavaScript folds it to one number when the module loads,
 * so the script Redis receives is the same on every call: its digits are a piece of the script
 * (`redis-calls/lua.ts`), as a `const` number is, instead of a part "built at run time".
 *
 * Folded with `redis-calls/static.ts`'s `foldNumber` (the key rules' TTL arithmetic): anything it
 * cannot fold (a parameter, `Date.now()`, `process.env.X`, a `let` reassigned) leaves the script
 * built at run time.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { foldNumber, sameFileConstants, unwrap, type AnyContext } from './static.js';

/** Expressions that can fold to a number (a literal and a name are read by the string pieces). */
const ARITHMETIC: ReadonlySet<AST_NODE_TYPES> = new Set([
  AST_NODE_TYPES.BinaryExpression,
  AST_NODE_TYPES.UnaryExpression,
  AST_NODE_TYPES.CallExpression,
  AST_NODE_TYPES.MemberExpression,
]);

/**
 * The number a constant arithmetic expression of this file folds to, as one piece of a script
 * whose place in the file is the expression's start (a `${...}` substitution points at it);
 * `undefined` when the expression is not arithmetic or does not fold.
 */
export function foldedNumberPiece(context: AnyContext, input: TSESTree.Node): [{ text: string; at: () => number; number: true }] | undefined {
  const node = unwrap(input);
  if (!ARITHMETIC.has(node.type)) return undefined;
  const value = foldNumber(node, sameFileConstants(context));
  // a template and `+` write a number as String() does (`${3e21}` is "3e+21")
  return value === undefined ? undefined : [{ text: String(value), at: () => node.range[0], number: true }];
}
