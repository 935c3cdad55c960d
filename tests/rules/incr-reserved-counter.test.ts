/**
 * "Compensating decrement of a counter reserved moments before" (redis-calls/reserved-counter.ts):
 * a DECR / DECRBY / INCRBY by a negative amount of the key the same function has just written
 * (INCR, SET ... EX), whose reply came back before the decrement with only Redis round trips in
 * between, and either the reservation's unit gives the key its TTL or the decrement's condition
 * (or an early exit before it: `if (n <= max) return;`) reads the reservation's reply. The key exists as the decrement runs (unless its own TTL ran out
 * in those few round trips), so the decrement creates nothing. Near misses keep their findings:
 * a release in another function or a callback, after an `await` of other work, after a reservation
 * on a branch, in a `try` the decrement is outside of, not awaited, of another key, after a
 * deletion of the key, or with neither a TTL in the reservation's unit nor a reply read.
 */
import { describe, expect, it } from 'vitest';
import { decrementsCounter } from '../../semantics/counter-corrections.js';
import { lintSnippet } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

/** [messageId, line, column] of each finding of the rule. */
function lint(code: string): Array<[string | undefined, number, number]> {
  return lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': 'error' }).map((m) => [m.messageId, m.line, m.column]);
}

// INCR and EXPIRE in one pipeline, the reply read, DECR back when over the limit (Garfix key-pool.ts)
const v1 = ioredis(`export async function consume(id: string, limit: number) {
  const key = \`used:\${id}:\${Math.floor(Date.now() / 60000)}\`;
  try {
    const pipeline = redis.pipeline();
    pipeline.incr(key);
    pipeline.expire(key, 90);
    const results = await pipeline.exec();
    if (!results) return true;
    const countTuple = results[0] as [Error | null, number];
    const currentCount = countTuple[1] || 0;
    if (currentCount > limit) {
      await redis.decr(key).catch(() => {});
      return false;
    }
    return true;
  } catch {
    return true;
  }
}
`);
// INCR, EXPIRE only on the first hit (its own finding), DECR when over the limit (Kite-COnnect api-key.service.ts)
const v2 = ioredis(`export async function track(id: string, max: number) {
  const connKey = \`ws:connections:\${id}\`;
  const current = await redis.incr(connKey);
  if (current === 1) {
    await redis.expire(connKey, 3600);
  }
  if (current > max) {
    await redis.decr(connKey);
    throw new Error('limit');
  }
}
`);
// a MULTI chain destructured, DECRBY by the amount; the test holds the await itself
const v3 = ioredis(`export async function spend(id: string, cost: number, cap: number) {
  const [[, total]] = (await redis.multi().incrby(\`cap:\${id}\`, cost).expire(\`cap:\${id}\`, 86400).exec()) as [[null, number]];
  if (total > cap) await redis.decrby(\`cap:\${id}\`, cost);
  if ((await redis.multi().incr(\`n:\${id}\`).expire(\`n:\${id}\`, 60).exec()) === null) await redis.decr(\`n:\${id}\`);
}
`);
// SET ... EX writes the key with its TTL; INCRBY by -cost refunds it after another Redis round trip
const v4 = nodeRedis(`export async function refund(id: string, cost: number) {
  await client.set(\`budget:\${id}\`, '100', { EX: 60 });
  await client.get(\`budget:\${id}\`);
  await client.incrBy(\`budget:\${id}\`, -cost);
}
`);

// the release in another function: it can run after the window ended (Garfix releaseKeySlot)
const i1 = ioredis(`export async function acquire(id: string) {
  const pipeline = redis.pipeline();
  pipeline.incr(\`slot:\${id}\`);
  pipeline.expire(\`slot:\${id}\`, 90);
  await pipeline.exec();
}
export async function release(id: string) {
  await redis.decr(\`slot:\${id}\`);
}
`);
// after the work the slot guards, in a finally; in a callback; after another key's reservation
const i2 = ioredis(`export async function run(id: string, job: () => Promise<void>, socket: { on(e: string, f: () => void): void }) {
  const n = await redis.multi().incr(\`active:\${id}\`).expire(\`active:\${id}\`, 600).exec();
  try {
    await job();
  } finally {
    if (n) await redis.decr(\`active:\${id}\`);
  }
  await redis.multi().incr(\`conn:\${id}\`).expire(\`conn:\${id}\`, 60).exec();
  socket.on('close', () => void redis.decr(\`conn:\${id}\`));
  await redis.multi().incr(\`a:\${id}\`).expire(\`a:\${id}\`, 60).exec();
  await redis.decr(\`b:\${id}\`);
}
`);
// the reservation on a branch; in a try the decrement is outside of; not awaited
const i3 = ioredis(`export async function branch(id: string, flag: boolean) {
  if (flag) await redis.multi().incr(\`x:\${id}\`).expire(\`x:\${id}\`, 60).exec();
  await redis.decr(\`x:\${id}\`);
  try {
    await redis.multi().incr(\`y:\${id}\`).expire(\`y:\${id}\`, 60).exec();
  } catch {}
  await redis.decr(\`y:\${id}\`);
  void redis.multi().incr(\`z:\${id}\`).expire(\`z:\${id}\`, 60).exec();
  await redis.decr(\`z:\${id}\`);
}
`);
// a deletion in between; neither a TTL in the reservation's unit nor its reply read; an INCRBY by a positive amount
const i4 = ioredis(`export async function other(id: string, max: number) {
  const n = await redis.multi().incr(\`d:\${id}\`).expire(\`d:\${id}\`, 60).exec();
  await redis.del(\`d:\${id}\`);
  if (n) await redis.decr(\`d:\${id}\`);
  await redis.incr(\`e:\${id}\`);
  await redis.decr(\`e:\${id}\`);
  const m = await redis.multi().incr(\`f:\${id}\`).expire(\`f:\${id}\`, 60).exec();
  if (m) await redis.incrby(\`f:\${id}\`, 2);
}
`);

// the over-limit correction written as a guard: return while under the limit, give the amount
// back after it (cohub public-file-storage.ts consumeQuota)
const guard = ioredis(`export async function consume(key: string, count: number, max: number) {
  const next = await redis.incrby(key, count);
  if (next === count) await redis.expire(key, 3600);
  if (next <= max) return;
  await redis.decrby(key, count).catch(() => undefined);
  throw new Error('over');
}
export async function take(id: string, max: number) {
  const n = await redis.incr(\`t:\${id}\`);
  if (n === 1) await redis.expire(\`t:\${id}\`, 60);
  if (n > max) {
    await redis.decr(\`t:\${id}\`);
    throw new Error('over');
  }
}
`);
// the guard's test does not read the reply; it may fall through; it has an else; it sits before the reservation
const noGuard = ioredis(`export async function a(key: string, count: number, max: number, flag: boolean, log: (n: number) => void) {
  const next = await redis.incrby(key, count);
  if (next === count) await redis.expire(key, 3600);
  if (!flag) return;
  await redis.decrby(key, count);
}
export async function b(key: string, count: number, max: number, log: (n: number) => void) {
  const next = await redis.incrby(key, count);
  if (next === count) await redis.expire(key, 3600);
  if (next <= max) log(next);
  await redis.decrby(key, count);
}
export async function c(key: string, count: number, max: number, log: (n: number) => void) {
  const next = await redis.incrby(key, count);
  if (next === count) await redis.expire(key, 3600);
  if (next <= max) return;
  else log(next);
  await redis.decrby(key, count);
}
export async function d(key: string, count: number, max: number) {
  const seen = await redis.get(key);
  if (seen === null) return;
  const next = await redis.incrby(key, count);
  if (next === count) await redis.expire(key, 3600);
  await redis.decrby(key, count);
}
`);

describe('incr-needs-expire-on-create: a compensating decrement of a counter reserved moments before', () => {
  it('leaves the decrement alone (the reservation keeps its own findings)', () => {
    expect([v1, v2, v3, v4].map(lint)).toEqual([[], [['separateRoundTrip', 5, 31]], [], []]);
  });

  it('leaves a decrement after an early exit that reads the reply alone', () => {
    expect(lint(guard)).toEqual([
      ['separateRoundTrip', 4, 28],
      ['separateRoundTrip', 11, 25],
    ]);
  });

  it('keeps reporting a decrement after an exit that does not read the reply, or may fall through', () => {
    expect(lint(noGuard)).toEqual([
      ['separateRoundTrip', 4, 28],
      ['expiryBeforeCreate', 7, 15],
      ['separateRoundTrip', 10, 28],
      ['expiryBeforeCreate', 13, 15],
      ['separateRoundTrip', 16, 28],
      ['expiryBeforeCreate', 20, 15],
      ['separateRoundTrip', 25, 28],
      ['expiryBeforeCreate', 27, 15],
    ]);
  });

  it('keeps reporting a release that can recreate the key', () => {
    expect(lint(i1)).toEqual([['noExpiry', 10, 15]]);
    expect(lint(i2)).toEqual([
      ['noExpiry', 8, 24],
      ['noExpiry', 11, 39],
      ['noExpiry', 13, 15],
    ]);
    expect(lint(i3)).toEqual([
      ['noExpiry', 5, 15],
      ['noExpiry', 9, 15],
      ['noExpiry', 11, 15],
    ]);
    // the DECR of e (line 8) follows the INCR that created e, a key this file never expires, and
    // the INCRBY of f (line 10) the MULTI that created f with its TTL moments before: neither can
    // create its key, and both are left alone as writes of a key just created
    // (redis-calls/created-before.ts); the INCR of e keeps its finding
    expect(lint(i4)).toEqual([
      ['noExpiry', 6, 22],
      ['noExpiry', 7, 15],
    ]);
  });

  it('tells a decrement by its command and amount', () => {
    expect(decrementsCounter('DECR', undefined, false)).toBe(true);
    expect(decrementsCounter('DECRBY', undefined, false)).toBe(true);
    expect(decrementsCounter('DECRBY', 3, false)).toBe(true);
    expect(decrementsCounter('DECRBY', -3, false)).toBe(false);
    expect(decrementsCounter('INCRBY', -3, false)).toBe(true);
    expect(decrementsCounter('INCRBY', 3, false)).toBe(false);
    expect(decrementsCounter('INCRBY', undefined, true)).toBe(true);
    expect(decrementsCounter('INCRBY', undefined, false)).toBe(false);
    expect(decrementsCounter('INCRBYFLOAT', -0.5, false)).toBe(true);
    expect(decrementsCounter('INCR', undefined, false)).toBe(false);
    expect(decrementsCounter('HINCRBY', -1, false)).toBe(false);
  });
});
