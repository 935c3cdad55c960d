/**
 * Bounds that keep one call cheap whatever its arguments, and options checked at construction:
 * the sliding-window log stores one member per call with its cost and at most 10,000 per window
 * (handed repro rt02: a cost of 300,000 used to run 300,000 ZADDs in one script), rates and
 * timers are range-checked, identities with lone surrogates get keys of their own, and the
 * identity memo is bounded in bytes. The worst-case script times at the maxima are measured by
 * `npm run bench:runtime-worst` (speed is never asserted here).
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import {
  createCache,
  createCircuitBreaker,
  createLimiter,
  createMemoryStore,
  hashIdentity,
  incrementWithTtl,
  SLIDING_LOG_MAX_CALLS_PER_WINDOW,
  SLIDING_LOG_MAX_LIMIT,
  type LimiterOptions,
  type LimitResult,
  type UpstashLike,
} from '../../runtime/index.js';
import { liveHeap } from '../faults/measure.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();
const T0 = 1_700_000_000_000;

describe('the sliding-window log: one element per call, whatever its cost', () => {
  it('a call of cost 300,000 under a limit of 10^7 writes one element (rt02), and the counts stay exact', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, { algorithm: 'sliding-window-log', limit: 10_000_000, windowMs: 60_000, onRedisError: 'fail-closed', namespace: uniquePrefix('rt02') });
    expect(await limiter.take('big', { cost: 300_000, nowMs: T0 })).toEqual({ allowed: true, limit: 10_000_000, remaining: 9_700_000, retryAfterMs: 0, resetAfterMs: 60_000 });
    expect(await r.llen(limiter.keyFor('big'))).toBe(1);
    expect(await limiter.take('big', { cost: 9_700_000, nowMs: T0 + 10 })).toMatchObject({ allowed: true, remaining: 0 });
    expect(await r.llen(limiter.keyFor('big'))).toBe(2);
    // one more unit fits once the first call (300,000) has left the window, exactly
    expect(await limiter.take('big', { cost: 1, nowMs: T0 + 20 })).toMatchObject({ allowed: false, retryAfterMs: 60_000 - 20 });
    expect(await limiter.take('big', { cost: 300_001, nowMs: T0 + 60_000 })).toMatchObject({ allowed: false, retryAfterMs: 10 });
    expect(await limiter.take('big', { cost: 300_000, nowMs: T0 + 60_000 })).toMatchObject({ allowed: true, remaining: 0 });
    expect(await r.pttl(limiter.keyFor('big'))).toBeGreaterThan(59_000);
  });

  it(`holds at most ${SLIDING_LOG_MAX_CALLS_PER_WINDOW} elements in a window: later calls merge into the newest, never admitting more (Redis and the memory store alike)`, async () => {
    const r = redis.client();
    const store = createMemoryStore({ maxKeys: 10 });
    try {
      const options: LimiterOptions = { algorithm: 'sliding-window-log', limit: 20_000, windowMs: 1_000_000, onRedisError: 'fail-closed', namespace: uniquePrefix('cap') };
      const onRedis = createLimiter(r, options);
      const inMemory = createLimiter(store, options);
      const key = onRedis.keyFor('many');
      const calls = SLIDING_LOG_MAX_CALLS_PER_WINDOW + 10;
      for (let batch = 0; batch * 100 < calls; batch += 1) {
        const n = Math.min(100, calls - batch * 100);
        const nowMs = T0 + batch; // calls of one batch share a millisecond, batches follow each other
        const answers = await Promise.all(Array.from({ length: n }, () => onRedis.take('many', { nowMs })));
        for (let i = 0; i < n; i += 1) {
          expect((await inMemory.take('many', { nowMs })).allowed).toBe(true);
          expect(answers[i]!.allowed).toBe(true);
        }
      }
      expect(await r.llen(key)).toBe(SLIDING_LOG_MAX_CALLS_PER_WINDOW);
      const nowMs = T0 + 200;
      // the merged calls still count: exactly the rest of the limit is admissible
      const expected = { allowed: false, limit: 20_000, remaining: 20_000 - calls, retryAfterMs: 1_000_000 - 200, resetAfterMs: 1_000_000 - 200 + 100 };
      expect(await onRedis.take('many', { nowMs, cost: 20_000 - calls + 1 })).toEqual(expected);
      expect(await inMemory.take('many', { nowMs, cost: 20_000 - calls + 1 })).toEqual(expected);
      // the newest element took the merged calls' cost and the time of the last of them; it still
      // holds the first element's <at>:<before>:<cost>, copied when it was added
      expect(await r.lindex(key, -1)).toBe(`${T0 + 100}:${SLIDING_LOG_MAX_CALLS_PER_WINDOW - 1}:11:${T0}:0:1`);
      expect(await r.lindex(key, 0)).toBe(`${T0}:0:1:${T0}:0:1`);
    } finally {
      store.close();
    }
  });

  it(`limit is at most ${SLIDING_LOG_MAX_LIMIT.toExponential()}; cost up to 2^53 - 1 is answered by every algorithm at constant cost`, async () => {
    const r = redis.client();
    const base = { onRedisError: 'fail-closed' as const, namespace: uniquePrefix('max') };
    expect(() => createLimiter(r, { ...base, algorithm: 'sliding-window-log', limit: SLIDING_LOG_MAX_LIMIT + 1, windowMs: 1000 })).toThrow(
      new RangeError('limit must be an integer >= 1 and <= 1000000000, got 1000000001'),
    );
    const all: LimiterOptions[] = [
      { ...base, algorithm: 'fixed-window', limit: 2 ** 53 - 1, windowMs: 1 },
      { ...base, algorithm: 'sliding-window-log', limit: SLIDING_LOG_MAX_LIMIT, windowMs: 2 ** 53 - 1 },
      { ...base, algorithm: 'sliding-window-counter', limit: 2 ** 26, windowMs: 2 ** 26 },
      { ...base, algorithm: 'token-bucket', capacity: 2 ** 23, refillPerSecond: 0.000001 },
      { ...base, algorithm: 'gcra', limit: 1, periodMs: 2 ** 30, burst: 2 ** 22 },
      { ...base, algorithm: 'leaky-bucket', capacity: 2 ** 23, leakPerSecond: 1_000_000_000 },
    ];
    for (const options of all) {
      const limiter = createLimiter(r, options);
      // the fixed window has no clock to inject (its window is its key's TTL)
      const max: LimitResult = await limiter.take('x', { cost: 2 ** 53 - 1, ...(options.algorithm === 'fixed-window' ? {} : { nowMs: T0 }) });
      expect(max.allowed, options.algorithm).toBe(options.algorithm === 'fixed-window');
      if (!max.allowed) expect(max.retryAfterMs).toBe(-1);
      await expect(limiter.take('x', { cost: 2 ** 53 })).rejects.toThrow(new RangeError(`cost must be an integer >= 1, got ${2 ** 53}`));
    }
  });
});

describe('options are range-checked at construction', () => {
  const r = new Redis({ lazyConnect: true });

  it('rates between 10^-6 and 10^9 per second (1e300 used to pass and fail every call)', () => {
    const base = { onRedisError: 'fail-closed' as const, capacity: 10 };
    expect(() => createLimiter(r, { ...base, algorithm: 'token-bucket', refillPerSecond: 1e300 })).toThrow(
      new RangeError('refillPerSecond must be between 0.000001 and 1000000000 per second, got 1e+300'),
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'leaky-bucket', leakPerSecond: 1e-7 })).toThrow(
      new RangeError('leakPerSecond must be between 0.000001 and 1000000000 per second, got 1e-7'),
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'token-bucket', refillPerSecond: 1e9 })).not.toThrow();
  });

  it('timers at most 2^31 - 1 ms (a longer setTimeout fires at once)', async () => {
    const base = { onRedisError: 'fail-closed' as const, algorithm: 'fixed-window' as const, limit: 1, windowMs: 1 };
    const tooLong = 2 ** 31;
    const message = (name: string) => new RangeError(`${name} must be an integer >= 1 and <= 2147483647, got ${tooLong}`);
    expect(() => createLimiter(r, { ...base, timeoutMs: tooLong })).toThrow(message('timeoutMs'));
    expect(() => createLimiter(r, { ...base, redisProbeIntervalMs: tooLong })).toThrow(message('redisProbeIntervalMs'));
    expect(() => createCircuitBreaker(r, { failureThreshold: 1, windowMs: 1, openMs: 1, onRedisError: 'fail-open', timeoutMs: tooLong })).toThrow(message('timeoutMs'));
    expect(() => createCache(r, { namespace: 'c', ttlMs: 1, timeoutMs: tooLong })).toThrow(message('timeoutMs'));
    expect(() => createMemoryStore({ janitorIntervalMs: tooLong })).toThrow(message('janitorIntervalMs'));
    await expect(incrementWithTtl(r, 'k', { ttlMs: 1, timeoutMs: tooLong })).rejects.toThrow(message('timeoutMs'));
    await expect(createCache(r, { namespace: 'c', ttlMs: 1 }).invalidate('k', { secondDeleteAfterMs: tooLong })).rejects.toThrow(message('secondDeleteAfterMs'));
    expect(r.status).toBe('wait'); // nothing was sent
  });
});

describe('identities', () => {
  it('lone surrogates are hashed from their UTF-16 code units: distinct strings, distinct keys; well-formed ones keep theirs', () => {
    const ill = ['a\ud800', 'a\udbff', 'a\udc00', '\ud800a'];
    const hashes = new Set([...ill, 'a\ufffd', 'a'].map((identity) => hashIdentity(identity)));
    expect(hashes.size).toBe(6);
    expect(hashIdentity('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7'); // SHA-256 of the UTF-8 bytes, as before
    expect(hashIdentity('😀 ok')).toBe(hashIdentity('\ud83d\ude00 ok')); // a surrogate pair is well-formed
    expect(hashIdentity('a\ud800', 'pepper')).not.toBe(hashIdentity('a\udbff', 'pepper'));
  });

  it('a limiter counts identities that differ only in a lone surrogate separately', async () => {
    const store = createMemoryStore();
    const limiter = createLimiter(store, { algorithm: 'fixed-window', limit: 1, windowMs: 60_000, onRedisError: 'fail-closed' });
    expect((await limiter.take('user\ud800')).allowed).toBe(true);
    expect((await limiter.take('user\udbff')).allowed).toBe(true);
    expect((await limiter.take('user\ufffd')).allowed).toBe(true);
    expect((await limiter.take('user\ud800')).allowed).toBe(false);
    store.close();
  });

  it('the identity memo is bounded in bytes: 2,000 identities of 16 KB are not retained, nor 200,000 short ones beyond ~4 MiB', async () => {
    // a client that answers every script at once and keeps nothing: what stays is the limiter's
    const instant: UpstashLike = { evalsha: async () => 1, eval: async () => 1 };
    const limiter = createLimiter(instant, { algorithm: 'gcra', limit: 1, periodMs: 1000, onRedisError: 'fail-closed' });
    await limiter.take('warm-up');
    const before = liveHeap();
    for (let i = 0; i < 2000; i += 1) await limiter.take(`${i}:${'x'.repeat(16 * 1024)}`);
    expect(liveHeap() - before).toBeLessThan(2 * 1024 * 1024); // 2,000 x 16 KB would be 32 MB (64 MB as UTF-16)
    for (let i = 0; i < 200_000; i += 1) await limiter.take(`user-${i}@example.com`);
    expect(liveHeap() - before).toBeLessThan(6 * 1024 * 1024); // two generations of 2 MiB (MEMO_GENERATION_BYTES)
  });
});
