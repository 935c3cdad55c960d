/**
 * Offsets <-> 1-based lines and columns, with ESLint's line breaks (`\r\n`, `\r`, `\n`,
 * U+2028, U+2029) so that positions agree with ESLint's when a script is embedded in JS.
 */

/** Maps 0-based UTF-16 offsets of one text to 1-based lines and columns. */
export interface LineIndex {
  /** 1-based line of an offset. */
  lineOf(offset: number): number;
  /** 1-based line and 1-based column of an offset. */
  position(offset: number): { line: number; column: number };
  /** Whether only whitespace precedes `offset` on its line. */
  isFirstOnLine(offset: number): boolean;
}

const BREAK = /\r\n|[\r\n\u2028\u2029]/g;

/**
 * Whether `text` breaks a line with anything but `\n` (`\r`, U+2028, U+2029): without one, the line
 * starts are found with indexOf. Three indexOf calls (a text of one-byte characters holds neither
 * U+2028 nor U+2029, which V8 answers at once) take a twentieth of /[\r\u2028\u2029]/.test(text).
 */
function hasOtherBreak(text: string): boolean {
  return text.includes('\r') || text.includes('\u2028') || text.includes('\u2029');
}

/**
 * The line index of `text`. The table of line starts is built on the first question (one pass over
 * the text), so that a script nothing is reported on never pays for it; each answer is then a
 * binary search.
 */
export function lineIndex(text: string): LineIndex {
  let table: number[] | undefined;
  const starts = (): number[] => {
    if (table) return table;
    table = [0];
    if (!hasOtherBreak(text)) {
      // only \n: no match object per line
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) table.push(at + 1);
      return table;
    }
    BREAK.lastIndex = 0;
    for (let m = BREAK.exec(text); m; m = BREAK.exec(text)) table.push(m.index + m[0].length);
    return table;
  };
  const lineOf = (offset: number): number => {
    const lineStarts = starts();
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return {
    lineOf,
    position(offset) {
      const line = lineOf(offset);
      return { line, column: offset - starts()[line - 1]! + 1 };
    },
    isFirstOnLine(offset) {
      const start = starts()[lineOf(offset) - 1]!;
      return text.slice(start, offset).trim() === '';
    },
  };
}
