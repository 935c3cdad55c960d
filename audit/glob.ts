/**
 * Redis glob matching, done locally: the same syntax and byte semantics as `SCAN ... MATCH` and
 * `KEYS` (`stringmatchlen` in the Redis sources), so a pattern means the same thing whether the
 * server or the audit applies it. https://redis.io/docs/latest/commands/keys/
 *
 * - `?` one byte, `*` any run of bytes (also empty), `[abc]`, `[^abc]`, `[a-z]` one byte from a
 *   set, `\x` the byte `x` literally. Matching is case-sensitive and over bytes (a key's raw bytes,
 *   the pattern's UTF-8 bytes).
 * - As in Redis: the empty key matches only the empty pattern and a lone `*` (`**` does not), and
 *   a pattern whose `*`s nest more than 1000 deep matches nothing (Redis 7.2.6, 7.4.1, 6.2.16 and
 *   later; older servers may match such a key). A match takes time polynomial in the pattern and
 *   key lengths whatever the pattern (the CVE-2022-36021 fix of Redis 7.0.9 and 6.2.11).
 */

/** A compiled Redis glob: `test(keyBytes)` is true when the whole key matches. */
export interface RedisGlob {
  /** The pattern as given. */
  readonly source: string;
  /** Whether `key` (raw bytes, or a string taken as UTF-8) matches the whole pattern. */
  test(key: Uint8Array | string): boolean;
}

/** Compiles `pattern` (Redis MATCH syntax). Never throws: like Redis, a malformed set matches literally as far as it goes. */
export function compileGlob(pattern: string): RedisGlob {
  const p = Buffer.from(pattern, 'utf8');
  // KEYS and SCAN do not match a lone `*` at all (keys.c: `allkeys`, `use_pattern`), so it
  // matches the empty key too, which `stringmatchlen` alone would not ("**" does not).
  const matchesEverything = pattern === '*';
  return {
    source: pattern,
    test(key) {
      const s = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
      return matchesEverything || stringMatch(p, s);
    },
  };
}

const STAR = 0x2a; // *
const QUESTION = 0x3f; // ?
const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const CARET = 0x5e; // ^
const BACKSLASH = 0x5c; // \
const DASH = 0x2d; // -

/**
 * Deepest `*` recursion before a match attempt gives up and answers "no match", as Redis does
 * since CVE-2024-31228 (7.2.6, 7.4.1, 6.2.16; util.c `stringmatchlen_impl`, "Protection against
 * abusive patterns"). It also keeps this port's recursion far from the JS stack limit: a pattern
 * of 50,000 `*?` on a 50,000-byte key overflowed the stack before.
 */
const MAX_NESTING = 1000;

/**
 * Redis' `int *skipLongerMatches`, shared by the recursive calls of one match: a module variable
 * reset by {@link stringMatch} (matching is synchronous and calls nothing else), not an object
 * allocated per key.
 */
let skipLongerMatches = false;

/**
 * A port of Redis' `stringmatchlen` (util.c, case-sensitive) as of the fixes for CVE-2022-36021
 * (7.0.9, 6.2.11: once the rest of the pattern after a `*` matched nowhere in the rest of the key,
 * no earlier `*` can help by matching more, so `*a*a*a*a*a*a*a*a*a*a*a*b` no longer takes time
 * exponential in the number of stars) and CVE-2024-31228 (the {@link MAX_NESTING} limit).
 * https://github.com/redis/redis/blob/unstable/src/util.c
 */
function stringMatch(p: Uint8Array, s: Uint8Array): boolean {
  skipLongerMatches = false;
  return matchAt(p, 0, s, 0, 0);
}

function matchAt(p: Uint8Array, pi: number, s: Uint8Array, si: number, nesting: number): boolean {
  if (nesting > MAX_NESTING) return false;
  while (pi < p.length && si < s.length) {
    const c = p[pi]!;
    if (c === STAR) {
      while (pi + 1 < p.length && p[pi + 1] === STAR) pi += 1;
      if (pi + 1 === p.length) return true;
      for (let k = si; k < s.length; k += 1) {
        if (matchAt(p, pi + 1, s, k, nesting + 1)) return true;
        if (skipLongerMatches) return false;
      }
      // The rest of the pattern matches from no place in the rest of the key: a longer match of
      // an earlier `*` would only start it later still, so every caller can stop too.
      skipLongerMatches = true;
      return false;
    } else if (c === QUESTION) {
      si += 1;
    } else if (c === OPEN) {
      pi += 1;
      const not = p[pi] === CARET;
      if (not) pi += 1;
      let match = false;
      for (;;) {
        if (pi >= p.length) {
          pi -= 1; // unterminated set: like Redis, stop at the last byte
          break;
        }
        const b = p[pi]!;
        if (b === BACKSLASH && pi + 1 < p.length) {
          pi += 1;
          if (p[pi] === s[si]) match = true;
        } else if (b === CLOSE) {
          break;
        } else if (pi + 2 < p.length && p[pi + 1] === DASH) {
          let start = b;
          let end = p[pi + 2]!;
          if (start > end) [start, end] = [end, start];
          pi += 2;
          const ch = s[si]!;
          if (ch >= start && ch <= end) match = true;
        } else if (b === s[si]) {
          match = true;
        }
        pi += 1;
      }
      if (not) match = !match;
      if (!match) return false;
      si += 1;
    } else {
      if (c === BACKSLASH && pi + 1 < p.length) pi += 1;
      if (p[pi] !== s[si]) return false;
      si += 1;
    }
    pi += 1;
  }
  // The key is used up: only stars may remain. Redis skips them right after the last byte is
  // matched, so an empty key (only ever the first call: a `*` recurses on non-empty rests) does
  // not get here and matches no pattern but the empty one.
  if (si === s.length && s.length > 0) {
    while (pi < p.length && p[pi] === STAR) pi += 1;
  }
  return pi === p.length && si === s.length;
}
