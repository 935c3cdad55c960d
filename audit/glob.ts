/**
 * Redis glob matching, done locally: the same syntax and byte semantics as `SCAN ... MATCH` and
 * `KEYS` (`stringmatchlen` in the Redis sources), so a pattern means the same thing whether the
 * server or the audit applies it. https://redis.io/docs/latest/commands/keys/
 *
 * - `?` one byte, `*` any run of bytes (also empty), `[abc]`, `[^abc]`, `[a-z]` one byte from a
 *   set, `\x` the byte `x` literally. Matching is case-sensitive and over bytes (a key's raw bytes,
 *   the pattern's UTF-8 bytes).
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
  return {
    source: pattern,
    test(key) {
      const s = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
      return matchAt(p, 0, s, 0);
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

/** A port of Redis' `stringmatchlen` (util.c), case-sensitive. */
function matchAt(p: Uint8Array, pi: number, s: Uint8Array, si: number): boolean {
  while (pi < p.length && si < s.length) {
    const c = p[pi]!;
    if (c === STAR) {
      while (pi + 1 < p.length && p[pi + 1] === STAR) pi += 1;
      if (pi + 1 === p.length) return true;
      for (let k = si; k < s.length; k += 1) {
        if (matchAt(p, pi + 1, s, k)) return true;
      }
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
  if (si === s.length) {
    while (pi < p.length && p[pi] === STAR) pi += 1;
  }
  return pi === p.length && si === s.length;
}
