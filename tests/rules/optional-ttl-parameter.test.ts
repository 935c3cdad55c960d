/**
 * "Explicit no-TTL branch" (`allowOptionalTtl`, redis-calls/optional-ttl.ts): a write without TTL
 * in the arm of a test that takes it only when a TTL the caller chose is absent (a TTL-named
 * parameter of an enclosing function: `if (ttl === 0)`, `ttl <= 0`, `!ttl`, `ttl !== 0` else,
 * `!opts.ttl ?`, an early return), while the function passes that TTL on to a call outside the arm
 * (a helper that writes with it, which the analyzer cannot read), is the caller's choice and is
 * not reported in `recommended`. Near misses stay reported: the TTL a local value rather than a
 * parameter, the write in the arm where the TTL is given, a TTL never passed on, a parameter that
 * is no TTL, and `strict`.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules, STRICT_KEY_POLICY } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

const lint = lintKeyRules;
const STRICT = STRICT_KEY_POLICY;

// the TTL a destructured parameter with a default of an outer function (civitai's createCounter)
const outerParameter = nodeRedis(`export function createCounter({ key, ttl = DAY }: { key: string; ttl?: number }) {
  async function setCacheValue(id: string, value: number) {
    if (ttl !== 0) {
      await zAddWithTtl(client, key, value, id, ttl * 1000);
    } else {
      await client.zAdd(key, { score: value, value: id });
    }
  }
  return { setCacheValue };
}
`);
const equalsZero = ioredis(`export async function bump(key: string, field: string, ttl: number) {
  if (ttl === 0) await redis.hincrby(key, field, 1);
  else await hincrbyWithTtl(redis, key, field, ttl);
}
`);
const earlyReturn = ioredis(`export async function add(key: string, member: string, ttlSeconds: number) {
  if (ttlSeconds <= 0) {
    await redis.sadd(key, member);
    return;
  }
  await addWithTtl(key, member, ttlSeconds);
}
`);
// the TTL arm returns early, the write without TTL follows it
const ttlArmReturns = ioredis(`export async function push(key: string, item: string, ttl?: number) {
  if (ttl) {
    await pushWithTtl(key, item, ttl);
    return;
  }
  await redis.rpush(key, item);
}
`);
const optionsMember = ioredis(`export const put = (key: string, v: string, opts: { ttlMs?: number }) =>
  !opts.ttlMs ? redis.set(key, v) : setWithExpiry(key, v, opts.ttlMs);
`);

// near misses
const localTtl = ioredis(`export async function bump(key: string) {
  const ttl = computeTtl(key);
  if (ttl === 0) await redis.incr(key);
  else await incrWithTtl(key, ttl);
}
`);
const ttlGiven = ioredis(`export async function bump(key: string, ttl: number) {
  if (ttl !== 0) await redis.incr(key);
  else await incrWithTtl(key, ttl);
}
`);
const neverPassedOn = ioredis(`export async function bump(key: string, ttl?: number) {
  if (!ttl) await redis.incr(key);
}
`);
const notTtl = ioredis(`export async function bump(key: string, count: number) {
  if (count === 0) await redis.incr(key);
  else await addMany(key, count);
}
`);

describe('a write in the no-TTL arm of a test of a TTL parameter', () => {
  it('is the caller\'s choice in recommended', () => {
    for (const code of [outerParameter, equalsZero, earlyReturn, ttlArmReturns, optionsMember]) expect(lint(code), code).toEqual([]);
  });

  it('is reported in strict', () => {
    expect(lint(outerParameter, STRICT)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 8, 20]]);
    expect(lint(equalsZero, STRICT)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 30]]);
    expect(lint(earlyReturn, STRICT)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 5, 17]]);
    expect(lint(ttlArmReturns, STRICT)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 8, 15]]);
    expect(lint(optionsMember, STRICT)).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 4, 23]]);
  });

  it('stays reported when the test is not a caller\'s TTL that is absent', () => {
    expect(lint(localTtl)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 5, 30]]);
    expect(lint(ttlGiven)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 30]]);
    expect(lint(neverPassedOn)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 25]]);
    expect(lint(notTtl)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 32]]);
  });
});
