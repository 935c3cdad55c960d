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
