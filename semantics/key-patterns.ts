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
  const regex = new RegExp(`^${spelling.split('*').map(escapeRegExp).join('.*')}$`, 's');
  return (name) => regex.test(name);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
