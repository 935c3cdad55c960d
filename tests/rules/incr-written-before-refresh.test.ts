/**
 * "A write to a key the same flow has just created" (redis-calls/created-before.ts), for a key the
 * file gives a TTL: the earlier write need not restart the TTL (HINCRBY, HSET on a hash that
 * exists keep it) when only Redis round trips separate the two and an expiry of the key with a
 * known positive duration follows the later write on every path. The later write then recreates
 * the key only if its TTL ran out within those round trips, and the refresh gives it one again;
 * the earlier write, the one that creates the key, keeps its own finding. An `if` / `else` whose
 * every arm writes the key counts as a write on every path (Solsight-Experience/solsight-api's
 * holder swap, ShniCorp/amayo's music stats). Near misses stay reported: the earlier write on one
 * branch (no `else`, an arm that writes only under its own condition, an `else if`), other work
 * awaited in between, no refresh or one under a condition, another key, a DEL in between. The
 * refresh may have any TTL: it treats the key the earlier write left as it treats the one the later
 * write may recreate.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

const lint = (code: string) => lintKeyRules(code);
const INCR = 'redis-ttl/incr-needs-expire-on-create';

// Solsight's onSwapEvent: each arm's first HINCRBYFLOAT creates the hash, the later field writes
// (in the arm, after the if / else, behind an HGET of a field) follow it, the EXPIRE comes last
const swap = ioredis(`const TTL = 86400;
export async function swap(k: string, buy: boolean, n: number) {
  if (buy) {
    await redis.hincrbyfloat(k, 'balance', n);
    await redis.hincrbyfloat(k, 'bought', n);
  } else {
    await redis.hincrbyfloat(k, 'balance', -n);
    await redis.hincrby(k, 'sells', 1);
    const left = await redis.hget(k, 'balance');
    if (Number(left) > 0) {
      await redis.hincrbyfloat(k, 'cost', -n);
    }
  }
  await redis.hincrby(k, 'tx', 1);
  const first = await redis.hget(k, 'first');
  if (!first) await redis.hset(k, 'first', n);
  await redis.hset(k, 'last', n);
  await redis.expire(k, TTL);
}
`);
// amayo's trackEnd (node-redis): HINCRBY, a second HINCRBY of the same hash under a condition, EXPIRE
const stats = nodeRedis(`export async function trackEnd(user: string, skipped: boolean) {
  const statsKey = \`music:stats:\${user}\`;
  await client.hIncrBy(statsKey, 'totalPlays', 1);
  if (skipped) {
    await client.hIncrBy(statsKey, 'totalSkips', 1);
  }
  await client.expire(statsKey, 30 * 24 * 60 * 60);
}
`);

// Converge's updateUser: the read, the write and the refresh through the application's helper
// object (a pass-through facade per command): the HGET found the entry, the EXPIRE follows the HSET
const facade = ioredis(`const store = {
  async hget(key: string, field: string) {
    return await redis.hget(key, field);
  },
  async hset(key: string, field: string, value: string) {
    return await redis.hset(key, field, value);
  },
  async expire(key: string, seconds: number) {
    return await redis.expire(key, seconds);
  },
};
export async function updateUser(doc: string, user: string, block: string) {
  const existing = await store.hget(\`awareness:\${doc}\`, user);
  if (!existing) return;
  await store.hset(\`awareness:\${doc}\`, user, JSON.stringify({ ...JSON.parse(existing), block }));
  await store.expire(\`awareness:\${doc}\`, 3600);
}
export async function updateOther(doc: string, user: string, block: string) {
  const existing = await store.hget(\`awareness:\${doc}\`, user);
  if (!existing) console.log('missing');
  await store.hset(\`awareness:\${doc}\`, user, block);
  await store.expire(\`awareness:\${doc}\`, 3600);
}
`);

// an earlier write on one branch only; an arm that writes the key only under its own condition;
// an else-if chain
const branches = ioredis(`export async function a(k: string, x: boolean, y: boolean) {
  if (x) await redis.hincrby(k, 'a', 1);
  await redis.hincrby(k, 'b', 1);
  await redis.expire(k, 60);
}
export async function b(k: string, x: boolean, y: boolean) {
  if (x) {
    await redis.hincrby(k, 'a', 1);
  } else {
    if (y) await redis.hincrby(k, 'b', 1);
  }
  await redis.hincrby(k, 'c', 1);
  await redis.expire(k, 60);
}
export async function c(k: string, x: boolean, y: boolean) {
  if (x) {
    await redis.hincrby(k, 'a', 1);
  } else if (y) {
    await redis.hincrby(k, 'b', 1);
  } else {
    await redis.hincrby(k, 'c', 1);
  }
  await redis.hincrby(k, 'd', 1);
  await redis.expire(k, 60);
}
`);
// other work awaited between the two writes (the TTL can run out meanwhile); no refresh, or one
// under a condition (and one of unknown duration, which still counts); another key; a DEL between
const near = ioredis(`export async function d(k: string, job: () => Promise<void>) {
  await redis.hincrby(k, 'a', 1);
  await job();
  await redis.hincrby(k, 'b', 1);
  await redis.expire(k, 60);
}
export async function e(k: string, x: boolean, ttl: number) {
  await redis.hincrby(\`e:\${k}\`, 'a', 1);
  await redis.hincrby(\`e:\${k}\`, 'b', 1);
  await redis.hincrby(\`f:\${k}\`, 'a', 1);
  await redis.hincrby(\`f:\${k}\`, 'b', 1);
  if (x) await redis.expire(\`f:\${k}\`, 60);
  await redis.hincrby(\`g:\${k}\`, 'a', 1);
  await redis.hincrby(\`g:\${k}\`, 'b', 1);
  await redis.expire(\`g:\${k}\`, ttl);
}
export async function f(k: string) {
  await redis.hincrby(\`h:\${k}\`, 'a', 1);
  await redis.hincrby(\`i:\${k}\`, 'b', 1);
  await redis.expire(\`i:\${k}\`, 60);
  await redis.hincrby(\`j:\${k}\`, 'a', 1);
  await redis.del(\`j:\${k}\`);
  await redis.hincrby(\`j:\${k}\`, 'b', 1);
  await redis.expire(\`j:\${k}\`, 60);
}
export async function g(k: string) {
  await redis.expire(\`e:\${k}\`, 60);
  await redis.expire(\`h:\${k}\`, 60);
}
`);

describe('incr-needs-expire-on-create: a write after an earlier write of the same key, refreshed after it', () => {
  it('leaves the later writes alone; the writes that create the key keep their findings', () => {
    expect(lint(swap)).toEqual([
      [INCR, 'separateRoundTrip', 6, 17],
      [INCR, 'separateRoundTrip', 9, 17],
    ]);
    expect(lint(stats)).toEqual([[INCR, 'separateRoundTrip', 5, 16]]);
  });

  it('reads a found entry through a pass-through facade; a read whose missing reply does not stop the write stays', () => {
    expect(lint(facade)).toEqual([[INCR, 'separateRoundTrip', 23, 15]]);
  });

  it('keeps reporting a write the earlier write may not have preceded', () => {
    // a: one branch; b: the else arm writes only under its own condition; c: an else-if chain
    expect(lint(branches)).toEqual([
      [INCR, 'separateRoundTrip', 4, 22],
      [INCR, 'separateRoundTrip', 5, 15],
      [INCR, 'separateRoundTrip', 10, 17],
      [INCR, 'separateRoundTrip', 12, 24],
      [INCR, 'separateRoundTrip', 14, 15],
      [INCR, 'separateRoundTrip', 19, 17],
      [INCR, 'separateRoundTrip', 21, 17],
      [INCR, 'separateRoundTrip', 23, 17],
      [INCR, 'separateRoundTrip', 25, 15],
    ]);
  });

  it('keeps reporting a write after other work, without a refresh on every path, or of another key', () => {
    // d: other work between (line 6); e:*: no refresh in the function, so its creation (line 10)
    // carries the family's finding and its second field (line 11) adds none (record-creation.ts,
    // since round 35 also where the file expires other keys); f:*: the refresh under a condition
    // (line 13); i:* after h:* (line 21); j:* after a DEL (line 25). g:*'s refresh of unknown TTL
    // treats both writes' key alike (a TTL <= 0 deletes it): only line 15 is reported
    expect(lint(near)).toEqual([
      [INCR, 'separateRoundTrip', 4, 15],
      [INCR, 'separateRoundTrip', 6, 15],
      [INCR, 'noExpiry', 10, 15],
      [INCR, 'separateRoundTrip', 12, 15],
      [INCR, 'separateRoundTrip', 13, 15],
      [INCR, 'separateRoundTrip', 15, 15],
      [INCR, 'noExpiry', 20, 15],
      [INCR, 'separateRoundTrip', 21, 15],
      [INCR, 'separateRoundTrip', 25, 15],
    ]);
  });
});
