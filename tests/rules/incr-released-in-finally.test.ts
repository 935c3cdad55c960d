/**
 * "Released in `finally`" (redis-calls/reserved-counter.ts): a decrement in the `finally` of a
 * `try` whose first statement is the increment of the same key, for a key the file never expires
 * (MeghajMB/academia-backend's bid consumer: INCR pendingBids, the bid's work, DECR in `finally`),
 * undoes that increment and creates nothing of its own; the increment keeps its finding. Near
 * misses stay reported: a key the file expires (the work can outlast its TTL), a decrement in the
 * `catch`, an increment that is not the `try`'s first statement, a decrement under a condition in
 * the `finally`, an increment of another key.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const lint = (code: string) => lintKeyRules(code);
const INCR = 'redis-ttl/incr-needs-expire-on-create';

const consumer = ioredis(`export async function onBid(gig: string, work: () => Promise<void>) {
  try {
    await redis.incr(\`pending:\${gig}\`);
    await work();
  } catch (error) {
    console.log(error);
  } finally {
    await redis.decr(\`pending:\${gig}\`);
  }
}
`);

const near = ioredis(`export async function a(id: string, work: () => Promise<void>) {
  try {
    await redis.incr(\`a:\${id}\`);
    await work();
  } finally {
    await redis.decr(\`a:\${id}\`);
  }
}
export async function b(id: string, work: () => Promise<void>) {
  try {
    await redis.incr(\`b:\${id}\`);
    await work();
  } catch {
    await redis.decr(\`b:\${id}\`);
  }
}
export async function c(id: string, work: () => Promise<void>) {
  try {
    await work();
    await redis.incr(\`c:\${id}\`);
  } finally {
    await redis.decr(\`c:\${id}\`);
  }
}
export async function d(id: string, work: () => Promise<boolean>, other: string) {
  try {
    await redis.incr(\`d:\${id}\`);
    await work();
  } finally {
    if (other) await redis.decr(\`d:\${id}\`);
    await redis.decr(\`d:\${other}\`);
  }
}
export async function e(id: string) {
  await redis.expire(\`a:\${id}\`, 60);
}
`);

describe('incr-needs-expire-on-create: a counter released in `finally` after its reservation', () => {
  it('leaves the release alone; the increment keeps its finding', () => {
    expect(lint(consumer)).toEqual([[INCR, 'noExpiry', 5, 17]]);
  });

  it('keeps reporting a release that may create the key', () => {
    expect(lint(near)).toEqual([
      [INCR, 'noExpiry', 5, 17],
      [INCR, 'noExpiry', 8, 17],
      [INCR, 'noExpiry', 13, 17],
      [INCR, 'noExpiry', 16, 17],
      [INCR, 'noExpiry', 22, 17],
      [INCR, 'noExpiry', 24, 17],
      [INCR, 'noExpiry', 29, 17],
      [INCR, 'noExpiry', 32, 28],
      [INCR, 'noExpiry', 33, 17],
    ]);
  });
});
