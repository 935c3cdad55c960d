/**
 * Cooked strings with a source map: the value a host-language string literal has at run time
 * (escapes decoded, raw strings, heredocs, text blocks, concatenations), with, for each UTF-16 code
 * unit of the value, the host file's offset it came from.
 */

/** A string value and where each of its characters is in the host file. */
export interface Cooked {
  /** The value (what the host program passes to Redis). */
  text: string;
  /** `map[i]`: 0-based UTF-16 offset in the host text of the character `text[i]` comes from. */
  map: number[];
  /** Host offset just past the end of the literal (or of the last literal of a concatenation). */
  end: number;
}

/** The empty value at host offset `at`. */
export function emptyCooked(at: number): Cooked {
  return { text: '', map: [], end: at };
}

/** A run of host text taken as it is, from host offset `start`. */
export function verbatim(text: string, start: number): Cooked {
  return { text, map: Array.from({ length: text.length }, (_, i) => start + i), end: start + text.length };
}

/** An escape sequence (host text from `start` to `end`) that stands for `value`. */
export function escaped(value: string, start: number, end: number): Cooked {
  return { text: value, map: Array.from({ length: value.length }, () => start), end };
}

/** The values one after the other (`"a" + "b"`, or the pieces of one literal). */
export function concat(parts: readonly Cooked[], at: number): Cooked {
  if (parts.length === 1) return parts[0]!;
  const out = emptyCooked(at);
  for (const part of parts) {
    out.text += part.text;
    for (const offset of part.map) out.map.push(offset);
    out.end = part.end;
  }
  return out;
}

/**
 * Removes up to `width` leading spaces or tabs from every line of the value (heredoc and text
 * block indentation), keeping the map of what stays.
 */
export function removeIndent(value: Cooked, width: number): Cooked {
  if (width <= 0) return value;
  let text = '';
  const map: number[] = [];
  let atLineStart = true;
  let removed = 0;
  for (let i = 0; i < value.text.length; i++) {
    const ch = value.text[i]!;
    if (atLineStart && removed < width && (ch === ' ' || ch === '\t')) {
      removed++;
      continue;
    }
    atLineStart = ch === '\n';
    removed = 0;
    text += ch;
    map.push(value.map[i]!);
  }
  return { text, map, end: value.end };
}

/**
 * The common indentation (spaces and tabs) of the value's lines that hold something other than
 * whitespace; `includeLast` also counts the last line when it is blank (a closing delimiter's
 * indentation, as in Java text blocks).
 */
export function commonIndent(text: string, includeLast = false): number {
  const lines = text.split('\n');
  let min = Infinity;
  lines.forEach((line, index) => {
    const isLast = index === lines.length - 1;
    if (line.trim() === '' && !(isLast && includeLast)) return;
    const width = line.length - line.replace(/^[ \t]+/, '').length;
    min = Math.min(min, width);
  });
  return Number.isFinite(min) ? min : 0;
}

/**
 * The value of a C-family backslash escape (`\n`, `\t`, `\x41`, `\u00e9`, `\U0001F600`, `\u{1F600}`,
 * octal `\101`, `\0`); a backslash before a line break is a line continuation (no character). An
 * unknown escape stands for the character after the backslash (`unknown: 'char'`, Ruby), or for
 * itself, backslash included (`'keep'`, Python and PHP).
 */
export function decodeEscape(sequence: string, unknown: 'char' | 'keep' = 'char'): string {
  const body = sequence.slice(1);
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', e: '\x1b', '\\': '\\', '"': '"', "'": "'", '`': '`', $: '$', '{': '{' };
  if (body.length === 0) return '';
  if (/^\r?\n/.test(body)) return '';
  const braced = /^u\{([0-9a-fA-F]+)\}$/.exec(body);
  const hex = /^(?:x([0-9a-fA-F]{1,2})|u+([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))$/.exec(body);
  const code = braced?.[1] ?? hex?.[1] ?? hex?.[2] ?? hex?.[3];
  if (code !== undefined) {
    const point = Number.parseInt(code, 16);
    return point <= 0x10ffff ? String.fromCodePoint(point) : sequence; // not a character: kept as written
  }
  if (/^[0-7]{1,3}$/.test(body)) return String.fromCharCode(Number.parseInt(body, 8));
  if (body.length === 1 && body in simple) return simple[body]!;
  return unknown === 'keep' ? sequence : body;
}

/** The value without carriage returns (Go raw strings). */
export function removeCarriageReturns(value: Cooked): Cooked {
  if (!value.text.includes('\r')) return value;
  let text = '';
  const map: number[] = [];
  for (let i = 0; i < value.text.length; i++) {
    if (value.text[i] === '\r') continue;
    text += value.text[i];
    map.push(value.map[i]!);
  }
  return { text, map, end: value.end };
}

/** The value without leading and/or trailing whitespace (`strip()`, `trim()`, `TrimSpace`), keeping the map of what stays. */
export function trimCooked(value: Cooked, sides: 'both' | 'start' | 'end' = 'both'): Cooked {
  let from = 0;
  let to = value.text.length;
  if (sides !== 'end') while (from < to && /\s/.test(value.text[from]!)) from++;
  if (sides !== 'start') while (to > from && /\s/.test(value.text[to - 1]!)) to--;
  if (from === 0 && to === value.text.length) return value;
  return { text: value.text.slice(from, to), map: value.map.slice(from, to), end: value.end };
}

/** The value with the indentation its lines share removed (`textwrap.dedent`, `stripIndent()`). */
export function dedentCooked(value: Cooked): Cooked {
  return removeIndent(value, commonIndent(value.text));
}
