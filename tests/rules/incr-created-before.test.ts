/**
 * "A write of a key the same function has just created" (redis-calls/created-before.ts): HSET,
 * INCR, XADD, ... on an existing key keep its TTL and create nothing, so a write whose key an
 * earlier write of the same function created on every path (SET ... EX, INCR, HSET + EXPIRE, or a
 * warm-up SET on the branch where an earlier GET saw no key, for a key the file never expires) is
 * left alone; the creation keeps its own findings. Near misses keep theirs: a creation on one
 * branch, of another key, followed by a DEL, in another function; a warm-up whose `if` does not
 * test the read's missing reply, or of a key the file expires (the read's stale window); a
 * creation with TTL followed by other work before the write.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

/** [rule, messageId, line, column] of each finding of the two key rules. */
const lint = (code: string) => lintKeyRules(code);
const INCR = 'redis-ttl/incr-needs-expire-on-create';
const SET = 'redis-ttl/set-requires-ttl-or-keepttl';

// the warm-up of Hadiyanto/rpn-backend order.service.ts: GET, SET when missing (no TTL), INCRBYFLOAT
const warmUp = ioredis(`export async function reserve(date: string, hour: string, qty: number, base: number) {
  const current = await redis.get(\`hourly:\${date}:\${hour}\`);
  if (current === null) {
    const used = await db.used(date, hour);
    await redis.set(\`hourly:\${date}:\${hour}\`, Math.max(0, base - used));
  }
  if (qty > 0) {
    const left = await redis.incrbyfloat(\`hourly:\${date}:\${hour}\`, -qty);
    if (Number(left) < 0) {
      await redis.incrbyfloat(\`hourly:\${date}:\${hour}\`, qty);
      throw new Error('full');
    }
  }
}
`);
// created with its TTL on every path, then updated: SET ... EX, HSET + EXPIRE in one MULTI, XADD + EXPIRE
const withTtl = ioredis(`export async function open(id: string, entry: string) {
  await redis.set(\`quota:\${id}\`, 10, 'EX', 3600);
  await redis.get(\`quota:\${id}\`);
  await redis.decrby(\`quota:\${id}\`, 2);
  await redis.multi().hset(\`msg:\${id}\`, 'status', 'queued').expire(\`msg:\${id}\`, 3600).exec();
  await redis.hset(\`msg:\${id}\`, 'status', 'running');
  await redis.pipeline().xadd(\`stream:\${id}\`, '*', 'data', entry).expire(\`stream:\${id}\`, 600).exec();
  await redis.xadd(\`stream:\${id}\`, '*', 'data', 'done');
}
`);
// node-redis: EXISTS read, the warm-up behind its missing reply, HINCRBY after it
const exists = nodeRedis(`export async function count(id: string, field: string) {
  if (!(await client.exists(\`stats:\${id}\`))) {
    await client.hSet(\`stats:\${id}\`, 'created', Date.now());
  }
  await client.hIncrBy(\`stats:\${id}\`, field, 1);
}
`);

// a creation on one branch (a test that reads no reply of the key); of another key; a DEL between; another function
const near1 = ioredis(`export async function a(id: string, flag: boolean) {
  if (flag) await redis.set(\`a:\${id}\`, 0, 'EX', 60);
  await redis.incr(\`a:\${id}\`);
  await redis.set(\`b:\${id}\`, 0, 'EX', 60);
  await redis.incr(\`c:\${id}\`);
  await redis.set(\`d:\${id}\`, 0, 'EX', 60);
  await redis.del(\`d:\${id}\`);
  await redis.incr(\`d:\${id}\`);
}
export async function b(id: string) {
  await redis.incr(\`b:\${id}\`);
}
`);
// a warm-up whose if tests the other reply; a warm-up of a key the file expires (the read's stale window);
// a creation with TTL, then other work before the write (the TTL can run out)
const near2 = ioredis(`export async function c(id: string, job: () => Promise<void>) {
  const e = await redis.get(\`e:\${id}\`);
  if (e !== null) {
    await redis.set(\`e:\${id}\`, 0);
  }
  await redis.incr(\`e:\${id}\`);
  const f = await redis.get(\`f:\${id}\`);
  if (!f) {
    await redis.set(\`f:\${id}\`, 0, 'EX', 60);
  }
  await redis.incr(\`f:\${id}\`);
  await redis.set(\`g:\${id}\`, 0, 'EX', 60);
  await job();
  await redis.incr(\`g:\${id}\`);
}
`);
// a creation without TTL stays reported where it is; the write after it adds no finding
const noTtl = ioredis(`export async function d(id: string) {
  await redis.hset(\`h:\${id}\`, 'a', 1);
  await redis.hset(\`h:\${id}\`, 'b', 2);
}
`);

// a read whose reply is not awaited guards nothing: `!redis.exists(k)` tests a promise, so the
// warm-up never runs and the INCRBY creates the key (and a `.then` reply is no guard either)
const unawaited = ioredis(`export function score(id: string, n: number) {
  if (!redis.exists(\`s:\${id}\`)) {
    redis.set(\`s:\${id}\`, 0);
  }
  redis.incrby(\`s:\${id}\`, n);
}
`);

// a key the file never expires, written again after the application's own work (a job's handler):
// a new step of its life (active, then completed), where its retention TTL belongs, judged on its own
const afterWork = ioredis(`export async function run(id: string, handler: () => Promise<void>) {
  await redis.hset(\`job:\${id}\`, 'status', 'active');
  await handler();
  await redis.hset(\`job:\${id}\`, 'status', 'completed');
}
`);

describe('incr-needs-expire-on-create: a write of a key the same function has just created', () => {
  it('leaves the write alone; the creation keeps its own finding', () => {
    expect(lint(warmUp)).toEqual([[SET, 'setWithoutTtl', 7, 17]]);
    expect(lint(withTtl)).toEqual([]);
    expect(lint(exists)).toEqual([[INCR, 'noExpiry', 5, 18]]);
    expect(lint(noTtl)).toEqual([[INCR, 'noExpiry', 4, 15]]);
  });

  it('keeps reporting a write that can create its key', () => {
    expect(lint(near1)).toEqual([
      [INCR, 'noExpiry', 5, 15],
      [INCR, 'noExpiry', 7, 15],
      [INCR, 'noExpiry', 10, 15],
      [INCR, 'noExpiry', 13, 15],
    ]);
    // the GET-then-SET-with-PX-when-missing warm-up of a key the file expires stays reported (line 13)
    expect(lint(near2)).toEqual([
      [SET, 'setWithoutTtl', 6, 17],
      [INCR, 'noExpiry', 8, 15],
      [INCR, 'noExpiry', 13, 15],
      [INCR, 'noExpiry', 16, 15],
    ]);
  });

  it('judges a write after the application\'s own work on its own, for a key the file never expires', () => {
    expect(lint(afterWork)).toEqual([
      [INCR, 'noExpiry', 4, 15],
      [INCR, 'noExpiry', 6, 15],
    ]);
  });

  it('keeps reporting a write behind a read whose reply is not awaited', () => {
    expect(lint(unawaited)).toEqual([
      [SET, 'setWithoutTtl', 5, 11],
      [INCR, 'noExpiry', 7, 9],
    ]);
  });
});
