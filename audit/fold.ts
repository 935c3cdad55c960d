/**
 * Folds key names into patterns, so a report has one line per kind of key instead of one per key:
 * `user:12345:profile` → `user:*:profile`, `session:{a1b2c3}:pending` → `session:{*}:pending`.
 *
 * The rules (documented in docs/redis-ttl-audit.md, "Folding rules"):
 *
 * 1. Hash tags: the content of every `{...}` becomes `*` (`{acct_42}` → `{*}`): it is the
 *    identity that places the key on a cluster slot, never a kind of key.
 * 2. The rest is cut into segments at `:` `/` `|` `#` `,` `;` `=` and whitespace; the separators
 *    stay. A whole segment becomes `*` when it is
 *    - a number, a date, a time or an IPv4 address: digits, optionally with `.` `-` `_` `+` between
 *      them (`12345`, `-3`, `1.5`, `2024-01-05`, `10.0.0.1`);
 *    - a UUID (`8-4-4-4-12` hex digits, any case; also 32 hex digits without dashes);
 *    - hex of 6 or more characters with at least one digit (`a1b2c3`, `5f3e9a0c`), or of 16 or
 *      more characters (a digest): words spelled in hex letters (`deadbeef`, `facade`) stay;
 *    - an opaque token (base64, base64url, ULID, nanoid...): 16 or more characters of
 *      `A-Z a-z 0-9 - _ + / =` with a digit and a letter, or with upper- and lower-case letters
 *      where upper case is at least 30% of the letters (camelCase words stay: their capitals start
 *      words, random tokens have about one in two);
 *    - an email address (`a@b.c`).
 * 3. Otherwise the segment is cut again at `.` `-` `_` `@`, and each part that is a number (digits
 *    only) or hex as above becomes `*` (`order_12345` → `order_*`, `v1` and `60s` stay).
 *
 * Ordinary words never fold: a segment folds only when it has a digit, is long and random-looking,
 * or is inside a hash tag. {@link collapseSiblings} then catches ids the rules cannot recognise
 * (user names, slugs) by their number.
 */

// Character classes of the ASCII code units; the rules' regular expressions spelled as bits, so a
// key is folded in one pass over its characters without splitting it into arrays of strings.
const SEP = 1; // a segment separator: : / | # , ; = and ASCII whitespace (other whitespace: isUnicodeSpace)
const SUB = 2; // a sub-separator of rule 3: . _ @ -
const DIGIT = 4; // 0-9
const HEX_LOWER = 8; // 0-9 a-f
const HEX_UPPER = 16; // 0-9 A-F
const LOWER = 32; // a-z
const UPPER = 64; // A-Z
const TOKEN = 128; // A-Z a-z 0-9 - _ + / =
const META = 256; // the glob metacharacters of Redis MATCH: * ? [ ] \
const AT = 512; // @, the one character an email address needs

const ASCII = new Uint16Array(128);
for (const c of ':/|#,;= \t\n\v\f\r') ASCII[c.charCodeAt(0)]! |= SEP;
for (const c of '._@-') ASCII[c.charCodeAt(0)]! |= SUB;
for (let c = 48; c <= 57; c += 1) ASCII[c]! |= DIGIT | HEX_LOWER | HEX_UPPER | TOKEN;
for (let c = 97; c <= 122; c += 1) ASCII[c]! |= LOWER | TOKEN | (c <= 102 ? HEX_LOWER : 0);
for (let c = 65; c <= 90; c += 1) ASCII[c]! |= UPPER | TOKEN | (c <= 70 ? HEX_UPPER : 0);
for (const c of '-_+/=') ASCII[c.charCodeAt(0)]! |= TOKEN;
for (const c of '*?[]\\') ASCII[c.charCodeAt(0)]! |= META;
ASCII[64]! |= AT;

/** The class bits of a code unit (0 for every non-ASCII one). */
function classOf(code: number): number {
  return code < 128 ? ASCII[code]! : 0;
}

/** Whether a non-ASCII code unit is whitespace for `\s` (U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF). */
function isUnicodeSpace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function isSeparator(code: number): boolean {
  return code < 128 ? (ASCII[code]! & SEP) !== 0 : isUnicodeSpace(code);
}

/** Whether `text[from, to)` is all digits. */
function allDigits(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) if ((classOf(text.charCodeAt(i)) & DIGIT) === 0) return false;
  return from < to;
}

/** Whether `text[from, to)` is hex of one case: 6+ characters with a digit, or 16+ (rule 2). */
function isHexId(text: string, from: number, to: number): boolean {
  const length = to - from;
  if (length < 6) return false;
  let both = HEX_LOWER | HEX_UPPER;
  let digits = 0;
  for (let i = from; i < to && both !== 0; i += 1) {
    const bits = classOf(text.charCodeAt(i));
    both &= bits;
    if ((bits & DIGIT) !== 0) digits += 1;
  }
  return both !== 0 && (length >= 16 || digits > 0);
}

/** `[+-]?\d+(?:[._+-]\d+)*`: a number, a date, a time or an IPv4 address (rule 2). */
function isNumeric(text: string, from: number, to: number): boolean {
  let i = from;
  const first = text.charCodeAt(i);
  if (first === 43 || first === 45) i += 1; // + -
  for (;;) {
    const start = i;
    while (i < to && (classOf(text.charCodeAt(i)) & DIGIT) !== 0) i += 1;
    if (i === start) return false;
    if (i === to) return true;
    const c = text.charCodeAt(i);
    if (c !== 46 && c !== 95 && c !== 43 && c !== 45) return false; // . _ + -
    i += 1;
  }
}

/** A UUID, `8-4-4-4-12` hex digits of one case (rule 2). */
function isUuid(text: string, from: number, to: number): boolean {
  if (to - from !== 36) return false;
  let both = HEX_LOWER | HEX_UPPER;
  for (let k = 0; k < 36; k += 1) {
    const c = text.charCodeAt(from + k);
    if (k === 8 || k === 13 || k === 18 || k === 23) {
      if (c !== 45) return false;
    } else {
      both &= classOf(c);
    }
  }
  return both !== 0;
}

/**
 * An opaque token (rule 2): 16+ characters of `A-Z a-z 0-9 - _ + / =` with a letter and a digit,
 * or with upper- and lower-case letters where upper case is at least 30% of the letters.
 */
function isOpaqueToken(text: string, from: number, to: number): boolean {
  if (to - from < 16) return false;
  let digits = 0;
  let lower = 0;
  let upper = 0;
  for (let i = from; i < to; i += 1) {
    const bits = classOf(text.charCodeAt(i));
    if ((bits & TOKEN) === 0) return false;
    if ((bits & DIGIT) !== 0) digits += 1;
    else if ((bits & LOWER) !== 0) lower += 1;
    else if ((bits & UPPER) !== 0) upper += 1;
  }
  const letters = lower + upper;
  if (letters === 0) return false;
  if (digits > 0) return true;
  return upper > 0 && upper < letters && upper / letters >= 0.3;
}

/** `[^@\s]+@[^@\s]+\.[A-Za-z]{2,}`: an email address (rule 2; a segment holds no whitespace). */
function isEmail(text: string, from: number, to: number): boolean {
  const at = text.indexOf('@', from);
  if (at <= from || at >= to) return false;
  const second = text.indexOf('@', at + 1);
  if (second !== -1 && second < to) return false;
  const dot = text.lastIndexOf('.', to - 1);
  if (dot < at + 2 || to - dot - 1 < 2) return false;
  for (let i = dot + 1; i < to; i += 1) if ((classOf(text.charCodeAt(i)) & (LOWER | UPPER)) === 0) return false;
  return true;
}

/** Whether `text[from, to)`, a whole segment, is an id (rule 2). */
function isOpaqueRange(text: string, from: number, to: number): boolean {
  return isNumeric(text, from, to) || isUuid(text, from, to) || isHexId(text, from, to) || isOpaqueToken(text, from, to) || isEmail(text, from, to);
}

/** Whether a whole segment (text between separators, no braces) is an id; see the module comment, rule 2. */
export function isOpaqueSegment(segment: string): boolean {
  return segment !== '' && isOpaqueRange(segment, 0, segment.length);
}

/** The glob metacharacters of Redis MATCH (`* ? [ ] \\`). */
const GLOB_META = /[*?[\]\\]/g;

/** `text` as a Redis glob that matches exactly `text`: each metacharacter behind a backslash. */
export function escapeGlob(text: string): string {
  return text.replace(GLOB_META, '\\$&');
}

/**
 * The replacements made by the fold in progress, in key order: `text[from[k], to[k])` becomes
 * `by[k]`. The pattern is the key's text with these applied; it is spelled out as a string only
 * when asked ({@link foldKey}, or a miss of a {@link PatternCache}), so a key whose pattern is
 * already known costs no new string.
 */
let from = new Int32Array(16);
let to = new Int32Array(16);
const by: string[] = [];
let replaced = 0;

/** Replaces `text[start, end)` with `with_` in the pattern being built. */
function replace(_text: string, start: number, end: number, with_: string): void {
  if (replaced === from.length) {
    const grownFrom = new Int32Array(2 * replaced);
    const grownTo = new Int32Array(2 * replaced);
    grownFrom.set(from);
    grownTo.set(to);
    from = grownFrom;
    to = grownTo;
  }
  from[replaced] = start;
  to[replaced] = end;
  by[replaced] = with_;
  replaced += 1;
}

/** The pattern of `key` after {@link foldInto}: its text with the recorded replacements. */
function spell(key: string): string {
  if (replaced === 0) return key;
  let pattern = '';
  let copied = 0;
  for (let k = 0; k < replaced; k += 1) {
    pattern += key.slice(copied, from[k]) + by[k]!;
    copied = to[k]!;
  }
  return pattern + key.slice(copied);
}

/** Escapes the glob metacharacters of `text[from, to)`, a part that stays. */
function escapeRange(text: string, from: number, to: number): void {
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    if ((classOf(c) & META) !== 0) replace(text, i, i + 1, `\\${text[i]!}`);
  }
}

/**
 * Folds one segment `text[from, to)` (rules 2 and 3); `seen` is the union of its characters'
 * class bits. A segment shorter than 16 characters without a digit, an `@` or a glob
 * metacharacter is a word no rule changes (every rule but the token's and the long hex's needs
 * a digit or an `@`, and those need 16 characters): most segments, settled without a second look.
 */
function foldSegment(text: string, from: number, to: number, escape: boolean, seen: number): void {
  if (from === to || (to - from < 16 && (seen & (DIGIT | AT | META)) === 0)) return;
  if (isOpaqueRange(text, from, to)) {
    replace(text, from, to, '*');
    return;
  }
  // rule 3: the parts between runs of . _ @ -
  let i = from;
  while (i < to) {
    const start = i;
    while (i < to && (classOf(text.charCodeAt(i)) & SUB) === 0) i += 1;
    if (start < i) {
      if (allDigits(text, start, i) || isHexId(text, start, i)) replace(text, start, i, '*');
      else if (escape) escapeRange(text, start, i);
    }
    while (i < to && (classOf(text.charCodeAt(i)) & SUB) !== 0) i += 1;
  }
}

/** Folds `text[from, to)`, text outside hash tags: its segments between separators (rule 2). */
function foldPlain(text: string, from: number, to: number, escape: boolean): void {
  let i = from;
  while (i < to) {
    const start = i;
    let seen = 0;
    for (; i < to; i += 1) {
      const code = text.charCodeAt(i);
      const bits = classOf(code);
      if ((bits & SEP) !== 0 || (code >= 128 && isUnicodeSpace(code))) break;
      seen |= bits;
    }
    foldSegment(text, start, i, escape, seen);
    while (i < to && isSeparator(text.charCodeAt(i))) i += 1;
  }
}

/** Folds `key` (rules in the module comment), recording the replacements (see {@link replace}). */
function foldInto(key: string, escape: boolean): void {
  replaced = 0;
  const n = key.length;
  let i = 0;
  while (i < n) {
    const open = key.indexOf('{', i);
    const close = open === -1 ? -1 : key.indexOf('}', open + 1);
    if (close === -1) {
      foldPlain(key, i, n, escape);
      break;
    }
    foldPlain(key, i, open, escape);
    if (close > open + 1) replace(key, open + 1, close, '*'); // rule 1: a hash tag's content
    i = close + 1;
  }
}

/**
 * The pattern of one key name (rules in the module comment). The result is a Redis glob that
 * matches the key: the glob metacharacters of the key's own text (`* ? [ ] \\`) are escaped
 * with a backslash (`a*b:12` → `a\\*b:*`), so the pattern can be pasted into `--match`.
 * One pass over the characters; a key that folds to itself is returned as is.
 *
 * @param options.escape false for a name that is not the key's text (a binary key shown with
 *   `\\xNN` escapes, which would otherwise be doubled): its literal parts are then kept as they are.
 * @example foldKey('rl:fixed:v1:{Zk3pQ9xV2mN8bL4cR7tY1w}:login') // 'rl:fixed:v1:{*}:login'
 */
export function foldKey(key: string, options?: { escape?: boolean }): string {
  foldInto(key, options?.escape !== false);
  return spell(key);
}

/** FNV-1a step over one UTF-16 code unit. */
function mix(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/**
 * Patterns already folded, found again from a key without spelling its pattern out: the fold of a
 * key is hashed as it stands (the key's text with the replacements applied, code unit by code
 * unit), looked up, and checked against the stored pattern character by character. A hit returns
 * the very string stored before, so the caller's `Map` lookup by it reuses the hash V8 keeps in
 * the string instead of building and hashing a new one: with millions of keys and a few hundred
 * patterns, that string was most of the per-key cost of the audit.
 *
 * Holds at most `capacity` patterns (default 4,096); when full it starts over (every pattern is
 * spelled once more, nothing else changes). Results are always equal to {@link foldKey}'s.
 */
export class PatternCache {
  private readonly byHash = new Map<number, string>();

  /** @param capacity the most patterns kept (a count of strings). */
  constructor(private readonly capacity = 4096) {}

  /** `foldKey(key)`, as the string returned for an earlier key of the same pattern when there was one. */
  fold(key: string): string {
    foldInto(key, true);
    if (replaced === 0) return key;
    let hash = 0x811c9dc5;
    let length = 0;
    let copied = 0;
    for (let k = 0; k <= replaced; k += 1) {
      const end = k < replaced ? from[k]! : key.length;
      for (let i = copied; i < end; i += 1) hash = mix(hash, key.charCodeAt(i));
      length += end - copied;
      if (k === replaced) break;
      const with_ = by[k]!;
      for (let i = 0; i < with_.length; i += 1) hash = mix(hash, with_.charCodeAt(i));
      length += with_.length;
      copied = to[k]!;
    }
    const known = this.byHash.get(hash);
    if (known !== undefined && known.length === length && this.matches(key, known)) return known;
    const pattern = spell(key);
    if (this.byHash.size >= this.capacity) this.byHash.clear();
    this.byHash.set(hash, pattern);
    return pattern;
  }

  /** Whether `pattern` is the fold just recorded for `key`, character by character. */
  private matches(key: string, pattern: string): boolean {
    let at = 0;
    let copied = 0;
    for (let k = 0; k <= replaced; k += 1) {
      const end = k < replaced ? from[k]! : key.length;
      for (let i = copied; i < end; i += 1) if (key.charCodeAt(i) !== pattern.charCodeAt(at++)) return false;
      if (k === replaced) break;
      const with_ = by[k]!;
      for (let i = 0; i < with_.length; i += 1) if (with_.charCodeAt(i) !== pattern.charCodeAt(at++)) return false;
      copied = to[k]!;
    }
    return true;
  }
}

/** What {@link collapseSiblings} needs to know about a pattern's statistics. */
export interface Mergeable<T> {
  /** Combines two patterns' statistics into a new object (neither argument is changed). */
  merge(a: T, b: T): T;
}

/**
 * Catches the ids that the folding rules do not recognise (user names, slugs, words used as ids):
 * when more than `threshold` patterns have the same number of `:`-separated segments and differ
 * only in one segment, that segment becomes `*` and their statistics are merged.
 * `user:alice:profile`, `user:bob:profile`, ... (over the threshold) → `user:*:profile`.
 *
 * Segments are compared left to right and the process repeats until nothing changes. Patterns of
 * one segment (no `:`) never collapse. Returns a new map; `patterns` is left unchanged.
 */
export function collapseSiblings<T>(patterns: ReadonlyMap<string, T>, threshold: number, ops: Mergeable<T>): Map<string, T> {
  let current = new Map(patterns);
  for (let changed = true; changed; ) {
    changed = false;
    const maxSegments = Math.max(0, ...[...current.keys()].map((p) => p.split(':').length));
    for (let position = 0; position < maxSegments; position += 1) {
      const groups = new Map<string, string[]>();
      for (const pattern of current.keys()) {
        const segments = pattern.split(':');
        const segment = segments[position];
        // A key of one segment has no fixed part to group by: `config`, `stats`, ... stay apart.
        if (segments.length < 2 || segment === undefined || segment === '*' || segment.includes('{')) continue;
        segments[position] = '\u0000';
        const group = `${segments.length}\u0001${segments.join(':')}`;
        const members = groups.get(group);
        if (members === undefined) groups.set(group, [pattern]);
        else members.push(pattern);
      }
      for (const members of groups.values()) {
        if (members.length <= threshold) continue;
        const segments = members[0]!.split(':');
        segments[position] = '*';
        const target = segments.join(':');
        let merged = current.get(target);
        for (const member of members) {
          const stats = current.get(member)!;
          merged = merged === undefined ? stats : ops.merge(merged, stats);
          current.delete(member);
        }
        current.set(target, merged!);
        changed = true;
      }
    }
    if (changed) current = new Map(current);
  }
  return current;
}
