/**
 * Thin client wrappers of a library that forward their caller's key and TTL (round 18,
 * think-redis): `increase(key) { return this.redis.incr(key); }` names INCR in English as
 * `increment` does (`redis-calls/pass-through.ts` COUNTER_WORDS: `increase`, `increaseBy`,
 * `decrease`, `decreaseBy`), and `set(key, value, type, expire)` sends a plain SET only after an
 * `if (type) { if (...) { ...; return set(k, v, type, expire); } else { ...; return set(k, v,
 * 'PX', type); } }` that leaves with the caller's TTL whenever one is given
 * (`redis-calls/optional-ttl.ts` alwaysExits: an `if` / `else` both of whose arms leave). Still
 * reported: a counter wrapper that builds its own key family, one whose name names another
 * command or the data it counts, an `if` without `else` that may fall through to the plain SET
 * with a TTL given, and every wrapper under `allowPassThrough: false`.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, runRule, untypedTester } from './tester.js';

/** think-redis 1.1.4's class, its `client` a member; `methods` start on line 5. */
const adapter = (methods: string): string => ioredis(`export class ThinkRedis {\n  client = redis;\n${methods}\n}`);

const counters = adapter(
  '  increase(key: string) {\n    return this.client.incr(key);\n  }\n  decrease(key: string) {\n    return this.client.decr(key);\n  }\n  increaseBy(key: string, n: number) {\n    return this.client.incrby(key, n);\n  }',
);

/** think-redis's set: a TTL the caller gives (EX / PX and a number, or a number of ms) or none. */
const setWith = (inner: string): string =>
  adapter(`  set(key: string, value: string, type?: string | number, expire?: number) {\n    if (type) {\n${inner}\n    }\n    return this.client.set(key, value);\n  }`);
const bothArmsLeave = setWith(
  "      if (typeof type === 'string') {\n        assertExpire(expire);\n        return this.client.set(key, value, type as 'EX', expire as number);\n      } else {\n        assertExpire(type);\n        return this.client.set(key, value, 'PX', type);\n      }",
);
// the `else` is missing: a string `type` falls through to the plain SET with a TTL given
const mayFallThrough = setWith("      if (typeof type === 'number') {\n        return this.client.set(key, value, 'PX', type);\n      }");

runRule(untypedTester, 'incr-needs-expire-on-create (thin wrappers named in English)', incrRule, {
  valid: [counters],
  invalid: [
    // the wrapper's own key family
    { code: adapter('  increase(id: string) {\n    return this.client.incr(`hits:${id}`);\n  }'), errors: [{ messageId: 'noExpiry', line: 6, column: 24, suggestions: [] }] },
    // a name that says what it counts, not the command
    { code: adapter('  increaseVisits(key: string) {\n    return this.client.incr(key);\n  }'), errors: [{ messageId: 'noExpiry', line: 6, column: 24, suggestions: [] }] },
    // DECREASE named, INCR sent
    { code: adapter('  decrease(key: string) {\n    return this.client.incr(key);\n  }'), errors: [{ messageId: 'noExpiry', line: 6, column: 24, suggestions: [] }] },
    // strict judges every wrapper where it is
    {
      code: counters,
      options: [{ allowPassThrough: false }],
      errors: [
        { messageId: 'noExpiry', line: 6, column: 24, suggestions: [] },
        { messageId: 'noExpiry', line: 9, column: 24, suggestions: [] },
        { messageId: 'noExpiry', line: 12, column: 24, suggestions: [] },
      ],
    },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (a plain SET after arms that leave with the TTL)', setRule, {
  valid: [bothArmsLeave],
  invalid: [
    {
      code: mayFallThrough,
      errors: [
        { messageId: 'setWithoutTtl', line: 11, column: 24, suggestions: [
            { messageId: 'addExpiryPlaceholder', output: mayFallThrough.replace('set(key, value);', "set(key, value, 'EX', TTL_SECONDS);") },
            { messageId: 'addKeepTtl', output: mayFallThrough.replace('set(key, value);', "set(key, value, 'KEEPTTL');") },
          ] }] }],
});
