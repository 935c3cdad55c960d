/**
 * No state per distinct option value: callers that pass a different value of every numeric option
 * on every call (a per-request `timeoutMs` budget, limiters, breakers and caches made per request
 * with their own sizes and times, a different cost and time per call) leave the heap flat. Before,
 * every distinct `timeoutMs` kept a deadline queue for good (+56.8 MB per 100,000 values), and
 * every limiter made per request kept its default fallback store alive through the store's timer.
 */
import { describe, expect, it } from 'vitest';
import {
  collect,
  createCache,
  createCircuitBreaker,
  createLimiter,
  incrementWithTtl,
  setKeepTtl,
  type Algorithm,
  type LimiterOptions,
  type TakeOptions,
} from '../../runtime/index.js';
import { healthFor } from '../../runtime/health.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';
import { liveHeap } from './measure.js';

const redis = useRedis();
const T0 = 1_700_000_000_000;

const ALGORITHMS: Algorithm[] = ['fixed-window', 'sliding-window-log', 'sliding-window-counter', 'token-bucket', 'gcra', 'leaky-bucket'];

/** Limiter options of `algorithm` in which every number depends on `i`. */
function limiterOptions(algorithm: Algorithm, i: number, namespace: string): LimiterOptions {
  const common = {
    namespace,
    onRedisError: 'fallback' as const,
    timeoutMs: 2_000 + i,
    outageRetryAfterMs: 1 + i,
    redisProbeIntervalMs: 1_000 + i,
    fallbackShare: [1, 0.5, 0.25, 0.125][i % 4]!,
  };
  switch (algorithm) {
    case 'token-bucket':
      return { ...common, algorithm, capacity: 10 + i, refillPerSecond: 1 + (i % 1000) / 1000 };
    case 'leaky-bucket':
      return { ...common, algorithm, capacity: 10 + i, leakPerSecond: 1 + (i % 1000) / 1000 };
    case 'gcra':
      return { ...common, algorithm, limit: 10 + i, periodMs: 60_000 + i, burst: 5 + i };
    default:
      return { ...common, algorithm, limit: 10 + i, windowMs: 60_000 + i };
  }
}

/** The options of a take: a cost and a time that depend on `i` (the fixed window has no clock to set). */
function takeOptions(algorithm: Algorithm, i: number): TakeOptions {
  return algorithm === 'fixed-window' ? { cost: 1 + (i % 3) } : { cost: 1 + (i % 3), nowMs: T0 + i };
}

/** One call of every kind, with option values that depend on `i`. */
async function callsWith(i: number, namespace: string): Promise<void> {
  const key = `${namespace}:n${i % 50}`;
  await Promise.all([
    incrementWithTtl(client, key, { by: (i % 7) - 3, ttlMs: 60_000 + i, timeoutMs: 2_000 + i, redisProbeIntervalMs: 1_000 + i, mode: i % 2 === 0 ? 'fixed' : 'sliding' }),
    collect(client, `${key}:c`, { timeoutMs: 3_000 + i, redisProbeIntervalMs: 2_000 + i }),
    setKeepTtl(client, `${key}:c`, i, { timeoutMs: 4_000 + i, redisProbeIntervalMs: 3_000 + i }),
    createLimiter(client, limiterOptions(ALGORITHMS[i % ALGORITHMS.length]!, i, namespace)).take(`id${i % 50}`, takeOptions(ALGORITHMS[i % ALGORITHMS.length]!, i)),
    createCircuitBreaker(client, {
      namespace,
      failureThreshold: 1 + i,
      windowMs: 10_000 + i,
      openMs: 1_000 + i,
      halfOpenProbes: 1 + (i % 5),
      onRedisError: 'fail-closed',
      timeoutMs: 5_000 + i,
      outageRetryAfterMs: i,
      redisProbeIntervalMs: 4_000 + i,
    }).acquire(`svc${i % 50}`, { nowMs: T0 + i }),
    createCache<number>(client, {
      namespace,
      ttlMs: 60_000 + i,
      jitter: (i % 100) / 1_000,
      lockTtlMs: 5_000 + i,
      maxWaitMs: 1_000 + i,
      negativeTtlMs: 1_000 + i,
      earlyRecompute: { beta: 1 + (i % 10) / 10 },
      timeoutMs: 6_000 + i,
      redisProbeIntervalMs: 5_000 + i,
      staleIfErrorMs: i,
      staleMaxBytes: 1_000 + i,
    }).getOrLoad(`k${i % 50}`, () => i),
  ]);
}

let client: ReturnType<typeof redis.client>;

describe('distinct option values on every call', () => {
  it('leave the heap flat and the deadline queues bounded', async () => {
    client = redis.client();
    const namespace = uniquePrefix('opts');
    const batch = async (from: number, to: number): Promise<void> => {
      for (let i = from; i < to; i += 250) {
        const calls: Array<Promise<void>> = [];
        for (let j = i; j < Math.min(to, i + 250); j += 1) calls.push(callsWith(j, namespace));
        await Promise.all(calls);
      }
    };
    await batch(0, 2_000); // warm-up: compiled code, the client's buffers, the runtime's memos
    const before = liveHeap();
    await batch(2_000, 22_000);
    const grown = (liveHeap() - before) / 1e6;
    // 20,000 rounds of 6 calls, each with values no call used before (before: +11 MB for the
    // deadline queues alone, more for the fallback stores)
    expect(grown).toBeLessThan(3);
    const health = healthFor(client) as unknown as { deadlineQueues: Map<number, unknown> };
    expect(health.deadlineQueues.size).toBeLessThanOrEqual(16);
  }, 120_000);
});

describe('limiters made per request during an outage', () => {
  it('each default fallback store goes with its limiter (its janitor timer does not keep it)', async () => {
    // a client whose every call fails at once: each limiter falls back to a store of its own
    const refused = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }));
    const down = { evalsha: refused, eval: refused };
    const round = async (from: number, to: number): Promise<void> => {
      for (let i = from; i < to; i += 1) {
        const limiter = createLimiter(down, limiterOptions(ALGORITHMS[i % ALGORITHMS.length]!, i, 'rl'));
        expect((await limiter.take(`id${i % 10}`, takeOptions(ALGORITHMS[i % ALGORITHMS.length]!, i))).reason).toBe('fallback');
      }
    };
    await round(0, 1_000);
    liveHeap();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = liveHeap();
    await round(1_000, 21_000);
    // the stores' finalizers (which clear their janitor timers) run after the collection
    liveHeap();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((liveHeap() - before) / 1e6).toBeLessThan(3);
  }, 120_000);
});
