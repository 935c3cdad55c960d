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
 * - `sprintf` of the `sprintf-js` package (and of `sprintf`, the same implementation under its
 *   older name) is read as its README documents it (https://github.com/alexei/sprintf.js):
 *   `%[argnum$][flags][width][.precision]type`, `%%` is `%`; a placeholder takes the next
 *   argument, or the argument its `n$` names (which does not move on to the next); a plain `%s`
 *   is the argument's text, any other type or a width, padding or precision turns the argument
 *   into text of its own (`%d`, `%05d`: known only at run time, fixed when the argument is); a
 *   named placeholder (`%(name)s`) reads a member of an object (not known), and an argument left
 *   over is ignored.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { importedName, originOf } from './client-syntax.js';
import { assignedOnce } from './containers.js';
import { findVariable, propertyName, requiredModule, unwrap, type AnyContext } from './static.js';

/**
 * One segment of a formatted key: text of the format string, an argument, an argument turned
 * into other text (`%d`, `%05s` of `sprintf`: known only at run time, fixed when the argument is),
 * or a part not known.
 */
export type FormatSegment = { text: string } | { argument: number } | { converted: number } | { unknown: true };

/** `util.format`'s specifiers, each taking an argument; `%%` is a literal `%`. */
const NODE_SPECIFIER = /%[sdifjoOc%]/g;

/**
 * The segments of `util.format(format, ...args)` with `argumentCount` arguments after the format
 * (`undefined`: a spread, the count is not known).
 */
export function nodeFormatSegments(format: string, argumentCount: number | undefined): FormatSegment[] {
  let next = 0;
  const segments = segmentsOf(format, NODE_SPECIFIER, (match) => {
    if (argumentCount === undefined) return { unknown: true };
    if (next >= argumentCount) return { text: match[0] };
    if (match[0] === '%c') {
      next++;
      return undefined;
    }
    return { argument: next++ };
  });
  if (argumentCount === undefined) segments.push({ unknown: true });
  else for (; next < argumentCount; next++) segments.push({ text: ' ' }, { argument: next });
  return segments;
}

/**
 * The segments of a format string: its text between placeholders, `%%` as a literal `%`, and
 * what `placeholder` makes of each other match of `pattern` (a global regular expression; nothing
 * when it returns `undefined`), in order.
 */
function segmentsOf(format: string, pattern: RegExp, placeholder: (match: RegExpExecArray) => FormatSegment | undefined): FormatSegment[] {
  const segments: FormatSegment[] = [];
  let last = 0;
  for (const match of format.matchAll(pattern)) {
    segments.push({ text: format.slice(last, match.index) });
    last = match.index + match[0].length;
    const segment = match[0] === '%%' ? { text: '%' } : placeholder(match);
    if (segment) segments.push(segment);
  }
  segments.push({ text: format.slice(last) });
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

/**
 * `sprintf`'s placeholders (https://github.com/alexei/sprintf.js): `%%`, or `%` with an optional
 * argument number (`2$`) or name (`(name)`), sign, padding (`0` or `'c`), alignment, width and
 * precision, then the type.
 */
const SPRINTF_PLACEHOLDER = /%%|%(?:(\d+)\$|(\([^)]*\)))?(\+?(?:0|'.)?-?\d*(?:\.\d+)?)([bcdieufgGostTvxXj])/g;

/**
 * The segments of `sprintf(format, ...args)` with `argumentCount` arguments after the format
 * (`undefined`: a spread, the count is not known).
 */
export function sprintfSegments(format: string, argumentCount: number | undefined): FormatSegment[] {
  let next = 0;
  return segmentsOf(format, SPRINTF_PLACEHOLDER, (match) => {
    const [, position, name, modifiers, type] = match;
    const index = position !== undefined ? Number(position) - 1 : name !== undefined ? undefined : next++;
    if (index === undefined || argumentCount === undefined || index < 0 || index >= argumentCount) return { unknown: true };
    return type === 's' && modifiers === '' ? { argument: index } : { converted: index };
  });
}

/** The packages whose `sprintf` {@link sprintfSegments} reads. */
const SPRINTF_PACKAGES: ReadonlySet<string> = new Set(['sprintf-js', 'sprintf']);

/**
 * What a binding holds of a package: the whole module (`import * as sf from 'sprintf-js'`,
 * `import sf = require('sprintf')`, `const sf = require('sprintf-js')`: `name` undefined) or one
 * of its exports (`import { sprintf } from 'sprintf-js'`, `const { sprintf } = require(...)`,
 * `var sprintf = sf.sprintf`, `require('sprintf-js').sprintf`); `undefined` for any other binding.
 */
function packageBinding(context: AnyContext, id: TSESTree.Identifier, depth = 0): { source: string; name?: string } | undefined {
  const variable = findVariable(context, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def || depth > 2) return undefined;
  if (def.type === 'ImportBinding') {
    // the import forms as client-syntax's originOf reads them; a default import holds no module here
    const origin = originOf(context, id);
    if (origin.kind !== 'import' || origin.imported === 'default') return undefined;
    return origin.imported === undefined ? { source: origin.source } : { source: origin.source, name: origin.imported };
  }
  if (def.type !== 'Variable' || !def.node.init || !assignedOnce(variable, def.name as TSESTree.Identifier)) return undefined;
  const init = unwrap(def.node.init);
  const required = requiredModule(init);
  if (required !== undefined) {
    if (def.node.id.type === AST_NODE_TYPES.Identifier) return { source: required };
    const name = importedName(originOf(context, id));
    return name === undefined ? undefined : { source: required, name };
  }
  if (def.node.id.type !== AST_NODE_TYPES.Identifier || init.type !== AST_NODE_TYPES.MemberExpression || init.computed) return undefined;
  const name = propertyName(init.property);
  const object = unwrap(init.object);
  const module = requiredModule(object);
  if (module !== undefined) return name === undefined ? undefined : { source: module, name };
  const held = object.type === AST_NODE_TYPES.Identifier ? packageBinding(context, object, depth + 1) : undefined;
  return held && held.name === undefined && name !== undefined ? { source: held.source, name } : undefined;
}

/**
 * `sprintf` of the `sprintf-js` / `sprintf` package, as a name (`sprintf(...)` of `import {
 * sprintf } from 'sprintf-js'`, or of `var sprintf = sf.sprintf` with `import sf =
 * require('sprintf')`) or as a member of the module (`sf.sprintf(...)`).
 */
export function isSprintf(context: AnyContext, callee: TSESTree.Node): boolean {
  const bare = unwrap(callee);
  if (bare.type === AST_NODE_TYPES.Identifier) {
    const held = packageBinding(context, bare);
    return held !== undefined && SPRINTF_PACKAGES.has(held.source) && held.name === 'sprintf';
  }
  if (bare.type !== AST_NODE_TYPES.MemberExpression || bare.computed || propertyName(bare.property) !== 'sprintf') return false;
  const object = unwrap(bare.object);
  const module = object.type === AST_NODE_TYPES.Identifier ? packageBinding(context, object) : undefined;
  return module !== undefined && SPRINTF_PACKAGES.has(module.source) && module.name === undefined;
}
