/**
 * An MSET / MSETNX of an object whose keys a later loop over that same object's keys expires in
 * the same MULTI (or pipeline, with `allowPipeline`) before EXEC (redis-calls/collected-keys.ts):
 * `multi.mset(entries); Object.keys(entries).forEach((k) => multi.expire(k, ttl)); multi.exec()`.
 * Every key the MSET writes is queued with its expiry in one atomic unit, as if each were SET ...
 * EX (@last-rev/contentful-redis-loader's primers). The loop may be `Object.keys(o).forEach` /
 * `.map`, `for (const k of Object.keys(o))`, `for (const k in o)`, or `Object.entries(o)` with
 * the key destructured first. Near misses stay reported: the expiries in later round trips (no
 * unit), a loop over another object's keys or over its values, an EXEC between, an expiry on a
 * branch of the loop's body, the object replaced between the MSET and the loop, a loop before the
 * MSET.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const lint = lintKeyRules;

const SET = 'redis-ttl/set-requires-ttl-or-keepttl';

// @last-rev/contentful-redis-loader primeRedisEntriesByContentType: one MULTI per batch
const primer = ioredis(`export const prime = async (batches: Record<string, string>[], ttlSeconds: number) => {
  await Promise.allSettled(
    batches.map(async (msetKeys) => {
      const multi = redis.multi();
      multi.mset(msetKeys);
      Object.keys(msetKeys).forEach((key) => multi.expire(key, ttlSeconds));
      await multi.exec();
    }),
  );
};
`);

// the other loops over the keys of the same object, MSETNX, a pipeline
const loops = ioredis(`export async function forOfKeys(entries: Record<string, string>) {
  const multi = redis.multi();
  multi.mset(entries);
  for (const key of Object.keys(entries)) multi.expire(key, 60);
  await multi.exec();
}
export async function forIn(entries: Record<string, string>) {
  const tx = redis.multi();
  tx.msetnx(entries);
  for (const key in entries) {
    tx.pexpire(key, 5000);
  }
  await tx.exec();
}
export async function entriesCallback(entries: Record<string, string>) {
  const pipeline = redis.pipeline();
  pipeline.mset(entries);
  Object.entries(entries).forEach(([key]) => pipeline.expire(key, 60));
  await pipeline.exec();
}
export async function forOfEntries(entries: Record<string, string>) {
  const multi = redis.multi();
  multi.mset(entries);
  for (const [key, value] of Object.entries(entries)) multi.expire(key, value.length > 0 ? 60 : 1);
  await multi.exec();
}
`);

describe('MSET of an object whose keys a later loop expires in the same MULTI', () => {
  it('is not reported (the primer)', () => {
    expect(lint(primer)).toEqual([]);
  });

  it('is not reported through Object.keys, for...in, Object.entries, with MSETNX and a pipeline', () => {
    expect(lint(loops)).toEqual([]);
  });

  it('is reported with allowPipeline off when the unit is a pipeline', () => {
    expect(lint(loops, { allowPipeline: false })).toEqual([[SET, 'msetWithoutTtl', 19, 12]]);
  });
});

describe('near misses stay reported', () => {
  it('the expiries in later round trips, not in a unit (the sibling primer)', () => {
    const code = ioredis(`export async function prime(toSet: Record<string, string>, ttlSeconds: number) {
  await redis.mset(toSet);
  await Promise.all(Object.keys(toSet).map(async (key) => redis.expire(key, ttlSeconds)));
}
`);
    expect(lint(code)).toEqual([[SET, 'msetWithoutTtl', 4, 15]]);
  });

  it('a loop over another object, over the values, before the MSET', () => {
    const code = ioredis(`export async function other(a: Record<string, string>, b: Record<string, string>) {
  const multi = redis.multi();
  multi.mset(a);
  Object.keys(b).forEach((key) => multi.expire(key, 60));
  await multi.exec();
}
export async function values(a: Record<string, string>) {
  const multi = redis.multi();
  multi.mset(a);
  Object.values(a).forEach((key) => multi.expire(key, 60));
  await multi.exec();
}
export async function before(a: Record<string, string>) {
  const multi = redis.multi();
  for (const key of Object.keys(a)) multi.expire(key, 60);
  multi.mset(a);
  await multi.exec();
}
`);
    expect(lint(code)).toEqual([
      [SET, 'msetWithoutTtl', 5, 9],
      [SET, 'msetWithoutTtl', 11, 9],
      [SET, 'msetWithoutTtl', 18, 9],
    ]);
  });

  it('an EXEC between, an expiry on a branch, the object replaced in between', () => {
    const code = ioredis(`export async function execBetween(a: Record<string, string>) {
  const multi = redis.multi();
  multi.mset(a);
  await multi.exec();
  Object.keys(a).forEach((key) => multi.expire(key, 60));
  await multi.exec();
}
export async function branch(a: Record<string, string>) {
  const multi = redis.multi();
  multi.mset(a);
  Object.keys(a).forEach((key) => {
    if (key.startsWith('tmp:')) multi.expire(key, 60);
  });
  await multi.exec();
}
export async function replaced(a: Record<string, string>, b: Record<string, string>) {
  const multi = redis.multi();
  multi.mset(a);
  a = b;
  for (const key in a) multi.expire(key, 60);
  await multi.exec();
}
`);
    expect(lint(code)).toEqual([
      [SET, 'msetWithoutTtl', 5, 9],
      [SET, 'msetWithoutTtl', 12, 9],
      [SET, 'msetWithoutTtl', 20, 9],
    ]);
  });
});
