/**
 * Persistent-key patterns, one syntax for every front end (lua-lint's `persistentKeys`, the ESLint
 * rules' `settings['redis-ttl'].persistentKeys`, `embedded-lua`'s option).
 *
 * A pattern is one of:
 * - a number, or a string of digits: a 1-based `KEYS` index (`2` matches `KEYS[2]`, and inside a
 *   Redis 7 function the same entry of its keys parameter, e.g. `keys[2]`);
 * - a key spelling, matched exactly after removing white space (`job_key`, `KEYS[1] .. ':meta'`);
 * - a spelling with `*` wildcards, each matching any run of characters (`bull:*:wait`).
 *
 * A key's *shape* may itself contain `*` for the parts only known at run time
 * (`` `bull:${queue}:wait` `` has the shape `bull:*:wait`); a pattern's `*` matches those too.
 *
 * One reading of `*` for patterns: {@link matchStars} is also how `redis-ttl-audit` matches live
 * keys to the inventory's shapes (`inventory/match.ts`), and `redis-ttl-keys --only` chooses
 * shapes. A `*` matches any run of characters, `:` included (and empty): `user:*` matches
 * `user:42` and `user:42:settings`, as `KEYS user:*` would. picomatch was not used: its `*` stops
 * at `/` (not at `:`), and it reads `{a,b}` (a Redis hash tag), `[...]`, `!` and `?` as syntax.
 *
 * A second, narrower reading compares two shapes of the code, not a pattern someone wrote:
 * {@link matchSegmentStars}, where a `*` stands for a run inside one `:`-separated segment. It
 * applies when a `*` is a run-time piece of one key the code computes (a date, an id), not a
 * family of keys: whether a move of `room:*` drains the keys written as `room:*` (and as
 * `room:*0*10*`, the date a writer builds by calls the linter cannot read), never the keys below
 * it (`room:*:members`). A persistent-key pattern, the audit's live keys and `--only` keep
 * {@link matchStars}.
 */

/** A compiled persistent-key pattern: true when a key spelling or shape matches it. */
export type KeyPatternMatcher = (name: string) => boolean;

/**
 * Compiles one persistent-key pattern (see the module docs for the syntax).
 * Never throws: every string is a valid pattern.
 */
export function keyPatternMatcher(pattern: string | number): KeyPatternMatcher {
  // A number is a KEYS index; inside a Redis 7 function it names the keys parameter's entry.
  if (typeof pattern === 'number' || /^\d+$/.test(pattern)) {
    const index = new RegExp(`^[A-Za-z_][A-Za-z0-9_]*\\[${Number(pattern)}\\]$`);
    return (name) => index.test(name);
  }
  const spelling = pattern.replace(/\s+/g, '');
  if (!spelling.includes('*')) return (name) => name === spelling;
  const literals = starLiterals(spelling);
  return (name) => matchStars(literals, name);
}

/**
 * The literal texts between the `*`s of a pattern or shape (`a:*:b` -> `['a:', ':b']`), runs of
 * `*` read as one: `literals.length` is the number of stars plus one.
 */
export function starLiterals(pattern: string): string[] {
  return pattern.replace(/\*{2,}/g, '*').split('*');
}

/**
 * Whether `text` matches, whole, the pattern whose {@link starLiterals} are `literals`, each `*`
 * matching any run of characters (also empty). The first literal must start the text and the last
 * end it; the ones between are placed left to right at their first place after the previous one
 * (the leftmost place never loses a match a later one would find: the star after it takes the
 * difference). No backtracking: a few `indexOf` calls, about linear in the text per star whatever
 * the text (keys the audit matches are attacker-controlled).
 */
export function matchStars(literals: readonly string[], text: string): boolean {
  const first = literals[0]!;
  const k = literals.length - 1;
  if (k === 0) return text === first;
  const last = literals[k]!;
  const end = text.length - last.length;
  if (end < first.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let pos = first.length;
  for (let i = 1; i < k; i += 1) {
    const literal = literals[i]!;
    const at = text.indexOf(literal, pos);
    if (at === -1 || at + literal.length > end) return false;
    pos = at + literal.length;
  }
  return true;
}

/**
 * Whether the key shape `text` matches, whole, the shape `pattern` when each `*` of `pattern`
 * stands for a run of characters without `:` (also empty), inside one segment of the key: the
 * narrower reading of `*` (see the module docs for when it applies). `room:*` matches `room:42`,
 * `room:`, `room:*` and `room:*0*10*`, not `room:*:members` nor `room`. Every other character is
 * taken literally; a shape matches itself.
 */
export function matchSegmentStars(pattern: string, text: string): boolean {
  const regex = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^:]*');
  return new RegExp(`^${regex}$`).test(text);
}

/**
 * Where a command that lists the keys matching a glob pattern takes its pattern and returns the
 * keys: KEYS pattern replies with the array of matching keys
 * (https://redis.io/docs/latest/commands/keys/); SCAN cursor [MATCH pattern] [COUNT n] replies with
 * `[next cursor, keys]`, the keys being its second element, the pattern the argument after MATCH
 * (https://redis.io/docs/latest/commands/scan/). Redis' glob also reads `?`, `[...]` and `\`, which
 * {@link matchStars} takes literally: a pattern using them matches fewer shapes, never more.
 */
export const KEY_LISTINGS: Readonly<Record<string, { pattern: number | 'MATCH'; keys: 'reply' | 'second' }>> = {
  KEYS: { pattern: 0, keys: 'reply' },
  SCAN: { pattern: 'MATCH', keys: 'second' },
};

/**
 * Deletions that reply with the value they delete, so a loop over listed keys consumes each key
 * with one command: GETDEL (https://redis.io/docs/latest/commands/getdel/: "Get the value of key
 * and delete the key").
 */
export const DELETES_READING_VALUE: ReadonlySet<string> = new Set(['GETDEL']);

/**
 * The key shape every key a KEYS / SCAN ... MATCH listing returns has, from the listing's glob
 * pattern (or its shape, `*` for run-time parts): Redis' glob classes, `?` (one character) and
 * `[...]` (one character of a set), read as `*`, and runs of `*` merged
 * (https://redis.io/docs/latest/commands/keys/). `'candle:latest:*'` stays itself;
 * `'user:?:[ab]*'` gives `'user:*:*'`.
 */
export function listedKeysShape(glob: string): string {
  return glob.replace(/\[(?:\\.|[^\]])*\]|\?/g, '*').replace(/\*+/g, '*');
}
