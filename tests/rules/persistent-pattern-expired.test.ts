/**
 * A `persistentKeys` pattern names a family by its spelling (`gen:*`); when the function writing a
 * key of that family also gives that very key a TTL (EXPIRE of the same key expression, before or
 * after, on any branch), the code says the key is meant to expire, and the write is judged as any
 * other (issue 25: keys spelled through a workspace package matched a broad pattern of the sys
 * instance while their writers expire them). An expiry in another function, of another key, or
 * given only when a TTL is (`if (ttlMinutes) expire(key, ...)`: the key is kept otherwise on
 * purpose) does not override the pattern, and an annotation on the write always counts.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, runRule, setSuggestions, untypedTester } from './tester.js';

const settings = { 'redis-ttl': { persistentKeys: ['gen:*'] } };

const setThenExpire = ioredis("export async function mark(id: string) {\n  const key = `gen:checked:${id}`;\n  await redis.set(key, '1');\n  await redis.expire(key, 60);\n}");
const seededList = ioredis(
  'export async function seed(id: string, items: string[]) {\n  const key = `gen:blocked:${id}`;\n  for (const item of items) await redis.rpush(key, item);\n  await redis.expire(key, 60);\n}',
);
// the expiry is in another function (of a parameter that may be any key): the pattern holds
const expiredElsewhere = ioredis(
  'export async function seed(id: string, item: string) {\n  const key = `gen:blocked:${id}`;\n  await redis.rpush(key, item);\n}\nexport async function trim(key: string) {\n  await redis.expire(key, 60);\n}',
);
// another key of the family is expired beside it: the pattern holds for this one
const otherKeyExpired = ioredis(
  "export async function seed(id: string, item: string) {\n  await redis.rpush(`gen:blocked:${id}`, item);\n  await redis.set(`gen:seen:${id}`, '1', 'EX', 60);\n}",
);
// the TTL is optional: expired only when the caller configured one
const optionalTtl = ioredis(
  'export async function put(id: string, doc: string, ttlMinutes?: number) {\n  const key = `gen:doc:${id}`;\n  await redis.set(key, doc);\n  if (ttlMinutes) {\n    const ttlSeconds = Math.floor(ttlMinutes * 60);\n    await redis.expire(key, ttlSeconds);\n  }\n}',
);
// expired on the first write only: a condition on the count, not on a TTL; the pattern is overridden
const firstWrite = ioredis(
  'export async function spend(id: string, cost: number) {\n  const key = `gen:spend:${id}`;\n  const total = await redis.incrby(key, cost);\n  if (total <= cost) await redis.expire(key, 3600);\n  return total;\n}',
);
const annotated = ioredis(
  'export async function seed(id: string, item: string) {\n  const key = `gen:blocked:${id}`;\n  // redis-ttl persistent: rebuilt by the nightly job\n  await redis.rpush(key, item);\n  await redis.expire(key, 60);\n}',
);

runRule(untypedTester, 'incr-needs-expire-on-create (persistent pattern, key expired by its writer)', incrRule, {
  valid: [
    { code: expiredElsewhere, settings },
    { code: otherKeyExpired, settings },
    { code: annotated, settings },
  ],
  invalid: [
    { code: seededList, settings, errors: [{ messageId: 'separateRoundTrip', line: 5, column: 41 }] },
    { code: firstWrite, settings, errors: [{ messageId: 'separateRoundTrip', line: 5, column: 29 }] },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (persistent pattern, key expired by its writer)', setRule, {
  valid: [
    { code: ioredis("export async function mark(id: string) {\n  await redis.set(`gen:checked:${id}`, '1');\n}\nexport const forget = (key: string) => redis.expire(key, 60);"), settings },
    { code: optionalTtl, settings },
  ],
  invalid: [
    {
      code: setThenExpire,
      settings,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 5,
          column: 15,
          // the SET's own EXPIRE gives the TTL and goes (redis-calls/write-expiry.ts)
          suggestions: [
            { messageId: 'moveLaterExpiry', output: setThenExpire.replace("redis.set(key, '1');\n  await redis.expire(key, 60);", "redis.set(key, '1', 'EX', 60);") },
            setSuggestions(setThenExpire, "redis.set(key, '1'")[1]!,
          ],
        },
      ],
    },
  ],
});
