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

const SEPARATORS = /([:/|#,;=\s]+)/;
const SUB_SEPARATORS = /([._@-]+)/;

const NUMERIC = /^[+-]?\d+(?:[._+-]\d+)*$/;
const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})$/;
const HEX_LOWER = /^[0-9a-f]+$/;
const HEX_UPPER = /^[0-9A-F]+$/;
const TOKEN_CHARS = /^[A-Za-z0-9_+/=-]+$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/;

function isHexId(s: string): boolean {
  if (!HEX_LOWER.test(s) && !HEX_UPPER.test(s)) return false;
  return s.length >= 16 || (s.length >= 6 && /\d/.test(s));
}

function isOpaqueToken(s: string): boolean {
  if (s.length < 16 || !TOKEN_CHARS.test(s)) return false;
  const letters = s.replace(/[^A-Za-z]/g, '');
  if (letters.length === 0) return false;
  if (/\d/.test(s)) return true;
  const upper = letters.replace(/[^A-Z]/g, '').length;
  return upper > 0 && upper < letters.length && upper / letters.length >= 0.3;
}

/** Whether a whole segment (text between separators, no braces) is an id; see the module comment, rule 2. */
export function isOpaqueSegment(segment: string): boolean {
  return (
    NUMERIC.test(segment) ||
    UUID.test(segment) ||
    isHexId(segment) ||
    isOpaqueToken(segment) ||
    EMAIL.test(segment)
  );
}

/** The glob metacharacters of Redis MATCH (`* ? [ ] \\`). */
const GLOB_META = /[*?[\]\\]/g;

/** `text` as a Redis glob that matches exactly `text`: each metacharacter behind a backslash. */
export function escapeGlob(text: string): string {
  return text.replace(GLOB_META, '\\$&');
}

type Escape = (text: string) => string;

function foldSegment(segment: string, escape: Escape): string {
  if (segment === '') return segment;
  if (isOpaqueSegment(segment)) return '*';
  const parts = segment.split(SUB_SEPARATORS);
  if (parts.length === 1) return escape(segment);
  return parts.map((part, i) => (i % 2 === 0 && part !== '' && (/^\d+$/.test(part) || isHexId(part)) ? '*' : escape(part))).join('');
}

function foldPlain(text: string, escape: Escape): string {
  return text
    .split(SEPARATORS)
    .map((piece, i) => (i % 2 === 0 ? foldSegment(piece, escape) : piece))
    .join('');
}

/**
 * The pattern of one key name (rules in the module comment). The result is a Redis glob that
 * matches the key: the glob metacharacters of the key's own text (`* ? [ ] \\`) are escaped
 * with a backslash (`a*b:12` → `a\\*b:*`), so the pattern can be pasted into `--match`.
 *
 * @param options.escape false for a name that is not the key's text (a binary key shown with
 *   `\\xNN` escapes, which would otherwise be doubled): its literal parts are then kept as they are.
 * @example foldKey('rl:fixed:v1:{Zk3pQ9xV2mN8bL4cR7tY1w}:login') // 'rl:fixed:v1:{*}:login'
 */
export function foldKey(key: string, options: { escape?: boolean } = {}): string {
  const escape: Escape = options.escape === false ? (text) => text : escapeGlob;
  let out = '';
  let rest = key;
  for (;;) {
    const open = rest.indexOf('{');
    const close = open === -1 ? -1 : rest.indexOf('}', open + 1);
    if (open === -1 || close === -1) return out + foldPlain(rest, escape);
    out += foldPlain(rest.slice(0, open), escape) + (close === open + 1 ? '{}' : '{*}');
    rest = rest.slice(close + 1);
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
