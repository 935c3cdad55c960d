/**
 * The no-TTL arm of a caller-chosen TTL (`redis-calls/optional-ttl.ts`), round 35's limits, from the
 * kind's definition: the path without TTL is taken by a test of the very value the other path
 * applies as the TTL, and that value is one the code does not decide itself. Counted now: an
 * infinite lifetime as the caller's "never expires" (`ttl === Infinity`, `Number.POSITIVE_INFINITY`),
 * and bounds that leave only values below 1 to the no-TTL arm (`ttl >= 0`, `ttl > -1`). Reported
 * now: a TTL the code computes as a time left (`deadline - Date.now()`, the seconds to the end of
 * the day), whose running out to 0 sends the key to the no-TTL arm, also as an EXPIRE queued only
 * while it is positive. Still reported: a test of another value, a bound that sends positive TTLs
 * to the no-TTL arm.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, positionOf as at, runRule, setWithoutTtlAt, untypedTester } from './tester.js';

// ---- the kind
const infinite = ioredis(
  'export async function set(k: string, v: string, ttl = DEFAULT_TTL) {\n  if (ttl === Number.POSITIVE_INFINITY) {\n    return redis.set(k, v);\n  } else if (ttl > 0) {\n    return redis.set(k, v, \'EX\', ttl);\n  }\n}',
);
const infinity = ioredis("export async function set(k: string, v: string, ttl = 60) {\n  if (ttl === Infinity) return redis.set(k, v);\n  return redis.set(k, v, 'EX', ttl);\n}");
const nonNegative = ioredis("export async function set(k: string, v: string, ttl: number) {\n  if (ttl >= 0) await redis.set(k, v, 'EX', ttl);\n  else await redis.set(k, v);\n}");
const aboveMinusOne = ioredis("export async function set(k: string, v: string, ttl: number) {\n  if (ttl > -1) await redis.set(k, v, 'EX', ttl);\n  else await redis.set(k, v);\n}");
const parameter = ioredis("export async function set(k: string, v: string, ttl?: number) {\n  if (ttl) await redis.set(k, v, 'EX', ttl);\n  else await redis.set(k, v);\n}");
// ---- near-misses
const remaining = ioredis("export async function save(k: string, v: string, deadline: number) {\n  const ttl = deadline - Date.now();\n  if (ttl > 0) await redis.set(k, v, 'PX', ttl);\n  else await redis.set(k, v);\n}");
const endOfDay = ioredis("export async function save(k: string, v: string) {\n  const ttl = Math.floor((endOfDayMs() - Date.now()) / 1000);\n  return ttl ? redis.set(k, v, 'EX', ttl) : redis.set(k, v);\n}");
const otherValue = ioredis("export async function set(k: string, v: string, ttl = 60, limit = 1) {\n  if (limit === Infinity) return redis.set(k, v);\n  return redis.set(k, v, 'EX', ttl);\n}");
const aboveFive = ioredis("export async function set(k: string, v: string, ttl: number) {\n  if (ttl > 5) await redis.set(k, v, 'EX', ttl);\n  else await redis.set(k, v);\n}");
const queuedRemaining = ioredis(
  "export async function save(k: string, v: string, deadline: number) {\n  const left = deadline - Date.now();\n  const m = redis.multi();\n  m.hset(k, 'f', v);\n  if (left > 0) m.pexpire(k, left);\n  await m.exec();\n}",
);
const queuedParameter = ioredis("export async function save(k: string, v: string, ttl?: number) {\n  const m = redis.multi();\n  m.hset(k, 'f', v);\n  if (ttl) m.expire(k, ttl);\n  await m.exec();\n}");

runRule(untypedTester, 'set-requires-ttl-or-keepttl (caller-chosen TTL arms)', setRule, {
  valid: [{ code: infinite }, { code: infinity }, { code: nonNegative }, { code: aboveMinusOne }, { code: parameter }],
  invalid: [
    { code: remaining, errors: [setWithoutTtlAt(remaining, 6, 20)] },
    { code: endOfDay, errors: [setWithoutTtlAt(endOfDay, 5, 51)] },
    { code: otherValue, errors: [setWithoutTtlAt(otherValue, at(otherValue, 'set(k, v);').line, at(otherValue, 'set(k, v);').column)] },
    { code: aboveFive, errors: [setWithoutTtlAt(aboveFive, 5, 20)] },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (caller-chosen TTL arms)', incrRule, {
  valid: [{ code: queuedParameter }],
  invalid: [
    {
      code: queuedRemaining,
      errors: [
        {
          messageId: 'noExpiry',
          ...at(queuedRemaining, 'hset(k'),
          suggestions: [{ messageId: 'appendExpire', output: queuedRemaining.replace("m.hset(k, 'f', v);", "m.hset(k, 'f', v).expire(k, TTL_SECONDS);") }],
        },
      ],
    },
  ],
});
