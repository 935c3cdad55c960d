/**
 * Keys written with a format string (`util.format('lock:%s', id)`, a `String.prototype.format`
 * added by the application: `'judge:{0}'.format(id)`, `REDIS_KEY.format(id)`): which parts of the
 * key the format string spells, and which are the arguments. Read by the key-shape reader
 * (`redis-calls/key-shape.ts`), which spells the arguments.
 *
 * - Node's `util.format` (https://nodejs.org/api/util.html#utilformatformat-args) is read as Node
 *   documents it: `%s %d %i %f %j %o %O %c` take the next argument (`%c` is dropped: CSS), `%%` is
 *   `%`, a specifier without an argument stays as written, and arguments left over are appended,
 *   each after a space.
 * - A `format` method of the application's own (its spelling is not visible) keeps the text of its
 *   format string and replaces its placeholders: every `%` specifier (`%%` too) and every `{...}`
 *   (`{0}`, `{}`, `{name}`) is a part known only at run time, and arguments beyond the
 *   placeholders may be appended: a `*` then ends the key.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { importedName, originOf } from './client-syntax.js';
import { propertyName, unwrap, type AnyContext } from './static.js';

/** One segment of a formatted key: text of the format string, an argument, or a part not known. */
export type FormatSegment = { text: string } | { argument: number } | { unknown: true };

/** `util.format`'s specifiers, each taking an argument; `%%` is a literal `%`. */
const NODE_SPECIFIER = /%[sdifjoOc%]/g;

/**
 * The segments of `util.format(format, ...args)` with `argumentCount` arguments after the format
 * (`undefined`: a spread, the count is not known).
 */
export function nodeFormatSegments(format: string, argumentCount: number | undefined): FormatSegment[] {
  const segments: FormatSegment[] = [];
  let next = 0;
  let last = 0;
  for (const match of format.matchAll(NODE_SPECIFIER)) {
    segments.push({ text: format.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[0] === '%%') segments.push({ text: '%' });
    else if (argumentCount === undefined) segments.push({ unknown: true });
    else if (next >= argumentCount) segments.push({ text: match[0] });
    else if (match[0] === '%c') next++;
    else segments.push({ argument: next++ });
  }
  segments.push({ text: format.slice(last) });
  if (argumentCount === undefined) segments.push({ unknown: true });
  else for (; next < argumentCount; next++) segments.push({ text: ' ' }, { argument: next });
  return segments;
}

/** Placeholders of an application's own `format` method: `%` specifiers and `{...}`. */
const OWN_PLACEHOLDER = /%[a-zA-Z%]|\{[^{}]*\}/g;

/**
 * The segments of `format.format(...args)`, a method the application adds to strings: the format
 * string's text with each placeholder unknown, and an unknown end when there are more arguments
 * than placeholders (or their count is not known). `undefined` for a string without placeholders:
 * a `format` method on it is no format call we know of.
 */
export function ownFormatSegments(format: string, argumentCount: number | undefined): FormatSegment[] | undefined {
  const segments: FormatSegment[] = [];
  let last = 0;
  let placeholders = 0;
  for (const match of format.matchAll(OWN_PLACEHOLDER)) {
    segments.push({ text: format.slice(last, match.index) }, { unknown: true });
    last = match.index + match[0].length;
    placeholders++;
  }
  if (placeholders === 0) return undefined;
  segments.push({ text: format.slice(last) });
  if (argumentCount === undefined || argumentCount > placeholders) segments.push({ unknown: true });
  return segments;
}

/** `util.format` / `format` of Node's `util` module (`import util from 'node:util'`, `const { format } = require('util')`). */
export function isNodeUtilFormat(context: AnyContext, callee: TSESTree.Node): boolean {
  const fromUtil = (origin: ReturnType<typeof originOf>): boolean => origin.kind === 'import' && (origin.source === 'util' || origin.source === 'node:util');
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const origin = originOf(context, callee);
    return fromUtil(origin) && importedName(origin) === 'format';
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || propertyName(callee.property) !== 'format') return false;
  const object = unwrap(callee.object);
  if (object.type !== AST_NODE_TYPES.Identifier) return false;
  const origin = originOf(context, object);
  return fromUtil(origin) && (origin.kind !== 'import' || origin.imported === undefined || origin.imported === 'default' || origin.namespace === true);
}

/** The operands of a chain of `+` (`a + b + c` -> `a`, `b`, `c`), left to right. */
export function concatenatedOperands(node: TSESTree.BinaryExpression): TSESTree.Node[] {
  const operands: TSESTree.Node[] = [];
  const visit = (operand: TSESTree.Node): void => {
    const bare = unwrap(operand);
    if (bare.type === AST_NODE_TYPES.BinaryExpression && bare.operator === '+') {
      visit(bare.left);
      visit(bare.right);
    } else operands.push(operand);
  };
  visit(node);
  return operands;
}
