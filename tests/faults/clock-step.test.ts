/**
 * Clock steps on a real redis-server (its wall clock stepped through `clock-shim.c`: what an NTP
 * step of the server does, or a failover to a replica whose clock lags) and on the memory store
 * (`Date.now()` stepped in this process), for every algorithm: a step back admits nothing more,
 * retry times stay true, no key is left without a TTL; a step forward on Redis is time that passed
 * as far as the server can tell (its keys expire too), and once the clock is back nothing is
 * admitted twice; the memory store does not step at all.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiter, createMemoryStore, type LimiterOptions, type LimitResult } from '../../runtime/index.js';
import { needsOwnServer } from '../helpers/redis.js';
import { startSteppedServer, type SteppedServer } from './clock.js';
import { keysWithoutTtl } from './measure.js';

const W = 60_000;
/** Limit 5 per minute in every algorithm (the buckets and GCRA give one unit back every 12 s). */
const ALGORITHMS: LimiterOptions[] = [
  { algorithm: 'fixed-window', limit: 5, windowMs: W, onRedisError: 'fail-closed' },
  { algorithm: 'sliding-window-log', limit: 5, windowMs: W, onRedisError: 'fail-closed' },
  { algorithm: 'sliding-window-counter', limit: 5, windowMs: W, onRedisError: 'fail-closed' },
  { algorithm: 'token-bucket', capacity: 5, refillPerSecond: 0.083333, onRedisError: 'fail-closed' },
  { algorithm: 'gcra', limit: 5, periodMs: W, onRedisError: 'fail-closed' },
  { algorithm: 'leaky-bucket', capacity: 5, leakPerSecond: 0.083333, onRedisError: 'fail-closed' },
];

/** Calls `take` `n` times; the answers. */
async function takes(take: () => Promise<LimitResult>, n: number): Promise<LimitResult[]> {
  const answers: LimitResult[] = [];
  for (let i = 0; i < n; i += 1) answers.push(await take());
  return answers;
}

const admitted = (answers: LimitResult[]): number => answers.filter((a) => a.allowed).length;

describe.skipIf(needsOwnServer('the clock-step tests run a redis-server of their own on a stepped clock'))('the server clock steps (a real redis-server)', () => {
  let server: SteppedServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startSteppedServer();
    redis = new Redis(server.url);
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  it.each(ALGORITHMS.map((o) => [o.algorithm, o] as const))('%s: a step back admits nothing more and keeps retry times true', async (_name, options) => {
    server.setOffset(0);
    const limiter = createLimiter(redis, { ...options, namespace: `clk${options.algorithm.replace(/-/g, '')}` });
    const take = () => limiter.take('alice');
    expect(admitted(await takes(take, 5))).toBe(5);
    const before = await take();
    expect(before.allowed).toBe(false);
    for (const back of [1_000, W, 90_000, 10 * W]) {
      server.setOffset(-back);
      const during = await takes(take, 7);
      expect(admitted(during), `${back} ms back`).toBe(0);
      for (const answer of during) {
        // the real time to wait: what it was before the step, less the real time since (at most
        // a few seconds on a loaded machine), plus the time the clock must catch up
        expect(answer.retryAfterMs, `${back} ms back`).toBeGreaterThan(before.retryAfterMs + back - 5_000);
        expect(answer.retryAfterMs, `${back} ms back`).toBeLessThanOrEqual(before.retryAfterMs + back);
      }
    }
    server.setOffset(0);
    expect(admitted(await takes(take, 7)), 'the clock back where it was').toBe(0);
    expect(await keysWithoutTtl(redis)).toEqual([]);
  });

  it.each(ALGORITHMS.map((o) => [o.algorithm, o] as const))('%s: a step forward, then back: nothing admitted twice', async (_name, options) => {
    server.setOffset(0);
    const limiter = createLimiter(redis, { ...options, namespace: `clf${options.algorithm.replace(/-/g, '')}` });
    const take = () => limiter.take('bob');
    expect(admitted(await takes(take, 7))).toBe(5);
    // an hour ahead: as far as the server can tell, an hour passed (its keys expire too)
    server.setOffset(3_600_000);
    expect(admitted(await takes(take, 7))).toBe(5);
    // and back: the units taken while ahead stay taken
    server.setOffset(0);
    expect(admitted(await takes(take, 7))).toBe(0);
    server.setOffset(-W);
    expect(admitted(await takes(take, 7))).toBe(0);
    server.setOffset(0);
    expect(await keysWithoutTtl(redis)).toEqual([]);
  });
});

describe('the memory store while Date.now() steps', () => {
  it.each(ALGORITHMS.map((o) => [o.algorithm, o] as const))('%s: as a store and as the fallback of an outage', async (_name, options) => {
    const realNow = Date.now;
    let skew = 0;
    Date.now = () => realNow() + skew;
    const direct = createMemoryStore();
    const fallback = createMemoryStore();
    // a client whose every call fails at once: the fallback store answers
    const down = { evalsha: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })), eval: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')) };
    try {
      for (const limiter of [
        createLimiter(direct, options),
        createLimiter(down, { ...options, onRedisError: 'fallback', fallback, redisProbeIntervalMs: 3_600_000 }),
      ]) {
        let n = 0;
        for (const step of [0, -1_000, -W, -90_000, -10 * W, 3_600_000, 0]) {
          skew = step;
          n += admitted(await takes(() => limiter.take('carol'), 7));
        }
        expect(n).toBe(5);
      }
    } finally {
      Date.now = realNow;
      direct.close();
      fallback.close();
    }
  });
});
