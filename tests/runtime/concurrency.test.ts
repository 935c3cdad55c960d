import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLimiter, type Limiter, type LimiterOptions } from '../../runtime/index.js';
import { needsOwnServer, scanWithPttl, uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();
const namespaces: string[] = [];

// The server clock is used (no injected time). Windows and rates are chosen so that no window
// boundary and no refill can fall inside the run: a 100-year window (the current window ends in
// 2069), a refill of one token per 10^6 seconds. What is left to test is atomicity.
const HUNDRED_YEARS_MS = 100 * 365 * 86_400_000;
const LIMIT = 100;
const all: LimiterOptions[] = [
  { algorithm: 'fixed-window', limit: LIMIT, windowMs: HUNDRED_YEARS_MS, onRedisError: 'fail-closed' },
  { algorithm: 'sliding-window-log', limit: LIMIT, windowMs: HUNDRED_YEARS_MS, onRedisError: 'fail-closed' },
  { algorithm: 'sliding-window-counter', limit: LIMIT, windowMs: HUNDRED_YEARS_MS, onRedisError: 'fail-closed' },
  { algorithm: 'token-bucket', capacity: LIMIT, refillPerSecond: 0.000001, onRedisError: 'fail-closed' },
  { algorithm: 'gcra', limit: LIMIT, periodMs: HUNDRED_YEARS_MS, onRedisError: 'fail-closed' },
  { algorithm: 'leaky-bucket', capacity: LIMIT, leakPerSecond: 0.000001, onRedisError: 'fail-closed' },
];

afterAll(async () => {
  // on a named test server (REDIS_TEST_URL) these keys would otherwise live for decades
  const r = new Redis(redis.url());
  for (const ns of namespaces) {
    const keys = [...(await scanWithPttl(r, `${ns}:*`)).keys()];
    if (keys.length > 0) await r.del(...keys);
  }
  await r.quit();
});

/** 64 workers over `clients`, each calling `take` `perWorker` times; returns admitted cost. */
async function hammer(
  limiters: Limiter[],
  identity: string,
  perWorker: number,
  costOf: (worker: number, call: number) => number,
): Promise<{ admitted: number; calls: number }> {
  let admitted = 0;
  let calls = 0;
  await Promise.all(
    Array.from({ length: 64 }, async (_, worker) => {
      const limiter = limiters[worker % limiters.length]!;
      for (let call = 0; call < perWorker; call += 1) {
        const cost = costOf(worker, call);
        const res = await limiter.take(identity, { cost });
        calls += 1;
        if (res.allowed) admitted += cost;
      }
    }),
  );
  return { admitted, calls };
}

describe.each(all)('$algorithm under 64 concurrent callers on 4 connections', (options) => {
  it('admits exactly the limit, never more', async () => {
    const namespace = uniquePrefix('conc');
    namespaces.push(namespace);
    const clients = [redis.client(), redis.client(), redis.client(), redis.client()];
    const limiters = clients.map((c) => createLimiter(c, { ...options, namespace }));
    const { admitted, calls } = await hammer(limiters, 'hot', 4, () => 1);
    expect(calls).toBe(256);
    expect(admitted).toBe(LIMIT);
    const probe = await limiters[0]!.take('hot');
    expect(probe.allowed).toBe(false);
    expect(probe.remaining).toBe(0);
  });

  it('with mixed costs, admitted cost plus what remains is exactly the limit', async () => {
    const namespace = uniquePrefix('mix');
    namespaces.push(namespace);
    const clients = [redis.client(), redis.client(), redis.client()];
    const limiters = clients.map((c) => createLimiter(c, { ...options, namespace }));
    const { admitted } = await hammer(limiters, 'mixed', 3, (w, c) => ((w * 7 + c * 3) % 5) + 1);
    expect(admitted).toBeLessThanOrEqual(LIMIT);
    expect(admitted).toBeGreaterThan(LIMIT - 5);
    // a denied call reports what remains and changes nothing
    const probe = await limiters[0]!.take('mixed', { cost: LIMIT });
    expect(probe.allowed).toBe(false);
    expect(admitted + probe.remaining).toBe(LIMIT);
  });
});

describe.skipIf(needsOwnServer('the NOSCRIPT fallback tests run SCRIPT FLUSH'))('SCRIPT FLUSH during a concurrent run', () => {
  it('surfaces no NOSCRIPT error to callers', async () => {
    const namespace = uniquePrefix('flush');
    const clients = [redis.client(), redis.client(), redis.client(), redis.client()];
    const admin = redis.client();
    const limiters = clients.map((c, i) =>
      createLimiter(c, { ...all[i % all.length]!, namespace }),
    );
    const errors: unknown[] = [];
    let calls = 0;
    let flushes = 0;
    let running = true;
    const flusher = (async () => {
      while (running) {
        await admin.script('FLUSH');
        flushes += 1;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await Promise.all(
      Array.from({ length: 64 }, async (_, worker) => {
        for (let i = 0; i < 30; i += 1) {
          try {
            await limiters[worker % 4]!.take(`user-${worker % 8}`);
            calls += 1;
          } catch (error) {
            errors.push(error);
          }
        }
      }),
    );
    running = false;
    await flusher;
    expect(errors).toEqual([]);
    expect(calls).toBe(64 * 30);
    expect(flushes).toBeGreaterThan(3);
  });
});
