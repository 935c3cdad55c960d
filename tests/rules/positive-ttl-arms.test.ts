/**
 * The no-TTL arm of a TTL that is never falsy (round 41): `e || c` with `c` a positive number
 * constant (a literal, a `const` of the file, an instance member given only such a value) is a
 * positive TTL, so a branch testing it for absence never takes the arm where it is absent and the
 * SET without expiry there is never sent (icanbwell/fhir-server's RedisClient.set: `ttlSeconds =
 * ttlSeconds || this.defaultTtlSeconds` with `this.defaultTtlSeconds = parseInt(env.X) || 600`).
 * Not positive, and still reported: `e || 0`, `e ?? c` (0, '' and NaN pass `??`), `Number(x)`,
 * `parseInt(x)`, and a TTL written again between the positive value and the test.
 */
import rule from '../../rules/set-requires-ttl-or-keepttl.js';
import { nodeRedis, runRule, untypedTester } from './tester.js';

/** A cache class whose default TTL is `defaultTtl` and whose `put` falls back to it with `fallback` (`ttl || this.defaultTtl`). */
const store = (defaultTtl: string, fallback = 'ttl || this.defaultTtl') =>
  nodeRedis(`class Store {
  constructor() {
    this.defaultTtl = ${defaultTtl};
  }
  async put(key, value, ttl = null) {
    ttl = ${fallback};
    if (ttl && !isNaN(parseInt(ttl))) {
      await client.set(key, value, { EX: parseInt(ttl) });
    } else {
      await client.set(key, value);
    }
  }
}
module.exports = { Store };`);

const strict = [{ allowOptionalTtl: false }] as const;

/** The `setWithoutTtl` finding at `line`:`column` of `code` on `client.set(key, value)`, with its suggestions (an expiry of `ttl`: `TTL_SECONDS` to declare, or the file's `DEFAULT_TTL`; then KEEPTTL). */
const noTtl = (code: string, line: number, column: number, ttl: 'TTL_SECONDS' | 'DEFAULT_TTL') => ({
  messageId: 'setWithoutTtl' as const,
  line,
  column,
  suggestions: [
    { messageId: ttl === 'TTL_SECONDS' ? ('addExpiryPlaceholder' as const) : ('addExpiry' as const), output: code.replace('client.set(key, value);', `client.set(key, value, { EX: ${ttl} });`) },
    { messageId: 'addKeepTtl' as const, output: code.replace('client.set(key, value);', 'client.set(key, value, { KEEPTTL: true });') },
  ],
});

/** A function of the file, `DEFAULT_TTL` a `const` of 300, whose TTL is `ttl` after `line`. */
const fn = (line: string, test = '!ttl') =>
  nodeRedis(`const DEFAULT_TTL = 300;
export async function put(key, value, ttl) {
  ${line}
  if (${test}) {
    await client.set(key, value);
    return;
  }
  await client.set(key, value, { EX: ttl });
}`);

/** The positive value, then `ttl = 0` in a `switch` case above the case's own test for absence. */
const SWITCHED = nodeRedis(`const DEFAULT_TTL = 300;
export async function put(key, value, ttl, mode) {
  ttl = ttl || DEFAULT_TTL;
  switch (mode) {
    case 'keep':
      ttl = 0;
      if (!ttl) {
        await client.set(key, value);
        return;
      }
  }
  await client.set(key, value, { EX: ttl });
}`);

runRule(untypedTester, 'set-requires-ttl-or-keepttl (the no-TTL arm of a TTL never falsy)', rule, {
  valid: [
    store('parseInt(process.env.CACHE_TTL) || 600'),
    store('600'),
    // the fallback a `const` of the file, the test an early return; and with allowOptionalTtl off
    { code: fn('ttl = ttl || DEFAULT_TTL;'), options: strict },
    { code: fn('const seconds = ttl || 60;\n  ttl = seconds;', 'ttl === 0'), options: strict },
    // a positive number, not only truthy: compared with a number or typeof-tested, it decides too
    { code: fn('ttl = DEFAULT_TTL;', 'ttl <= 0'), options: strict },
    { code: fn('ttl = DEFAULT_TTL;', "typeof ttl !== 'number'"), options: strict },
    { code: fn('ttl = Number(ttl) || DEFAULT_TTL;', 'ttl === undefined || ttl === null'), options: strict },
  ],
  invalid: [
    // `|| 0`, `Number(x)`, `parseInt(x)`: may be 0 or NaN
    { code: store('parseInt(process.env.CACHE_TTL) || 0'), errors: [noTtl(store('parseInt(process.env.CACHE_TTL) || 0'), 12, 20, 'TTL_SECONDS')] },
    { code: store('Number(process.env.CACHE_TTL)'), errors: [noTtl(store('Number(process.env.CACHE_TTL)'), 12, 20, 'TTL_SECONDS')] },
    // `??` keeps 0, '' and NaN
    { code: store('parseInt(process.env.CACHE_TTL) || 600', 'ttl ?? this.defaultTtl'), errors: [noTtl(store('parseInt(process.env.CACHE_TTL) || 600', 'ttl ?? this.defaultTtl'), 12, 20, 'TTL_SECONDS')] },
    { code: fn('ttl = ttl ?? DEFAULT_TTL;'), options: strict, errors: [noTtl(fn('ttl = ttl ?? DEFAULT_TTL;'), 7, 18, 'DEFAULT_TTL')] },
    // written again after the positive value
    { code: fn('ttl = ttl || DEFAULT_TTL;\n  ttl = parseInt(process.env.OVERRIDE);'), options: strict, errors: [noTtl(fn('ttl = ttl || DEFAULT_TTL;\n  ttl = parseInt(process.env.OVERRIDE);'), 8, 18, 'DEFAULT_TTL')] },
    // written again inside a statement that holds the test (a switch case), after the positive value (review41)
    { code: SWITCHED, options: strict, errors: [noTtl(SWITCHED, 10, 22, 'DEFAULT_TTL')] },
    // a test the positive TTL does not decide
    { code: fn('ttl = ttl || DEFAULT_TTL;', 'ttl === limit'), options: strict, errors: [noTtl(fn('ttl = ttl || DEFAULT_TTL;', 'ttl === limit'), 7, 18, 'DEFAULT_TTL')] },
    { code: fn('ttl = ttl || DEFAULT_TTL;', 'ttl > 3600'), options: strict, errors: [noTtl(fn('ttl = ttl || DEFAULT_TTL;', 'ttl > 3600'), 7, 18, 'DEFAULT_TTL')] },
    // `e || c` is truthy, not positive: e itself when e is -1 (a caller's "no expiry") or a string
    // ('60'), so a test for a number below 1 or for a number's type may take the no-TTL arm
    { code: fn('ttl = ttl || DEFAULT_TTL;', 'ttl <= 0'), options: strict, errors: [noTtl(fn('ttl = ttl || DEFAULT_TTL;', 'ttl <= 0'), 7, 18, 'DEFAULT_TTL')] },
    { code: fn('const seconds = ttl || 60;\n  ttl = seconds;', 'ttl < 0'), options: strict, errors: [noTtl(fn('const seconds = ttl || 60;\n  ttl = seconds;', 'ttl < 0'), 8, 18, 'DEFAULT_TTL')] },
    { code: fn('ttl = ttl || DEFAULT_TTL;', "typeof ttl !== 'number'"), options: strict, errors: [noTtl(fn('ttl = ttl || DEFAULT_TTL;', "typeof ttl !== 'number'"), 7, 18, 'DEFAULT_TTL')] },
  ],
});
