/**
 * The outage scenario every fault test runs: limiters under the three policies, a breaker, a
 * helper and a cache on one client, warmed up on a healthy Redis; then the fault, `callers` loops
 * per kind of call for `durationMs`; then the heal and the recovery. It checks what the issue asks
 * of every fault: latency <= timeoutMs + slack, the policy's answer and reason, flat memory, the
 * commands left in the client, recovery within a probe interval, and no key without TTL.
 */
import type { Redis } from 'ioredis';
import { expect } from 'vitest';
import {
  createCache,
  createCircuitBreaker,
  createLimiter,
  incrementWithTtl,
  RedisUnavailableError,
  type LimitResult,
} from '../../runtime/index.js';
import { hammer, keysWithoutTtl, liveHeap, until, withLoopDelay, type Hammered } from './measure.js';

export const TIMEOUT_MS = 100;
export const PROBE_MS = 200;
/**
 * What an answer may take beyond timeoutMs, plus the largest event-loop delay measured meanwhile
 * (the time the machine did not run this process: other test files share its 2 cores).
 */
export const SLACK_MS = 50;

/** Commands waiting in an ioredis client: sent and unanswered, and queued while disconnected. */
export function pendingIn(redis: Redis): number {
  return redis.commandQueue.length + (redis as unknown as { offlineQueue: { length: number } }).offlineQueue.length;
}

export interface ScenarioOptions {
  /** The client under test (its server is `admin`'s, possibly through a proxy). */
  redis: Redis;
  /** A direct client of the server, for the checks. */
  admin: () => Redis;
  /** Starts the fault. */
  inject: () => Promise<void> | void;
  /** Ends it; resolves once the server is back (or the network healed). */
  heal: () => Promise<void> | void;
  /** Loops per kind of call. Default 16. */
  callers?: number;
  /** Length of the fault in ms. Default 1500. */
  durationMs?: number;
  /** The most the recovery may take after `heal` resolves, ms (reconnection included). */
  recoveryMs: number;
  /** Whether each helper call must have been refused without being sent after the first ones (false when the fault fails calls at once). */
  sentBound?: boolean;
  /** Whether Redis still answers reads (OOM refuses writes only): a closed breaker's `acquire`, which writes nothing, may then be answered. */
  readsAnswer?: boolean;
}

export interface ScenarioResult {
  closed: Hammered;
  helper: Hammered;
  /** The fail-closed limiter's key of the identity every caller used. */
  closedKey: string;
  heapGrowth: number;
  queued: number;
  recoveredMs: number;
}

const limitKind = (r: LimitResult | Error) => (r instanceof Error ? `${r.name}: ${r.message}` : `${r.allowed} ${r.reason}`);
const errorKind = (e: unknown) => (e instanceof RedisUnavailableError ? `unavailable sent=${e.sent}` : String(e));

/** Runs the scenario (see the module comment) and returns what the caller may check further. */
export async function runOutage(options: ScenarioOptions): Promise<ScenarioResult> {
  const { redis, callers = 16, durationMs = 1500 } = options;
  const common = { timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: PROBE_MS, algorithm: 'fixed-window', limit: 1_000_000, windowMs: 3_600_000 } as const;
  const closed = createLimiter(redis, { ...common, onRedisError: 'fail-closed', namespace: 'closed' });
  const open = createLimiter(redis, { ...common, onRedisError: 'fail-open', namespace: 'open' });
  const fallback = createLimiter(redis, { ...common, onRedisError: 'fallback', namespace: 'fallback' });
  const breaker = createCircuitBreaker(redis, {
    failureThreshold: 5,
    windowMs: 10_000,
    openMs: 10_000,
    onRedisError: 'fail-open',
    timeoutMs: TIMEOUT_MS,
    redisProbeIntervalMs: PROBE_MS,
  });
  const cache = createCache<number>(redis, { namespace: 'cache', ttlMs: 60_000, timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: PROBE_MS });
  // Before the fault, Redis answers. The first call connects and loads the script within
  // TIMEOUT_MS (100 ms), which a machine under heavy load can miss: then the shard is down until a
  // probe answers, so ask again for a while (the outage checks below are not affected).
  for (const limiter of [closed, open, fallback]) await until(async () => (await limiter.take('x')).reason === undefined, 3000, PROBE_MS);
  expect(await cache.getOrLoad('k', () => 1)).toBe(1);

  const heapBefore = liveHeap();
  await options.inject();
  const [[c, o, f, b, inc, ca], loopDelayMs] = await withLoopDelay(() =>
    Promise.all([
      hammer(callers, durationMs, () => closed.take('x'), limitKind),
      hammer(callers, durationMs, () => open.take('x'), limitKind),
      hammer(callers, durationMs, () => fallback.take('x'), limitKind),
      hammer(callers, durationMs, () => breaker.acquire('svc'), (r) => (r instanceof Error ? r.message : `${r.allowed} ${r.state} ${r.reason}`)),
      hammer(callers, durationMs, (i) => incrementWithTtl(redis, `counter:{${i % 100}}`, { ttlMs: 60_000, timeoutMs: TIMEOUT_MS }), errorKind),
      hammer(callers, durationMs, (i) => cache.getOrLoad(`k${i % 100}`, () => i % 100), (v) => (v instanceof Error ? v.message : typeof v)),
    ]),
  );
  const queued = pendingIn(redis);
  const heapGrowth = liveHeap() - heapBefore;
  if (process.env.FAULTS_VERBOSE) {
    console.log({ heapGrowth, queued, loopDelayMs, answers: [c, o, f, b, inc, ca].map((h) => [h.count, Math.round(h.maxMs), Object.fromEntries(h.kinds)]) });
  }

  // every answer is the policy's, with its reason
  expect([...c.kinds.keys()]).toEqual(['false redis-unavailable']);
  expect([...o.kinds.keys()]).toEqual(['true redis-unavailable']);
  expect([...f.kinds.keys()]).toEqual(['true fallback']);
  const breakerKinds = options.readsAnswer ? ['true closed redis-unavailable', 'true closed undefined'] : ['true closed redis-unavailable'];
  expect([...b.kinds.keys()].filter((k) => !breakerKinds.includes(k))).toEqual([]);
  expect([...inc.kinds.keys()].every((k) => k.startsWith('unavailable sent='))).toBe(true);
  // the cache serves its loader while Redis is unavailable
  expect([...ca.kinds.keys()]).toEqual(['number']);
  for (const h of [c, o, f, b, inc, ca]) {
    expect(h.count).toBeGreaterThan(callers * 5);
    expect(h.maxMs, `slowest answer, with the event loop ${loopDelayMs.toFixed(0)} ms late at worst`).toBeLessThan(TIMEOUT_MS + SLACK_MS + loopDelayMs);
  }
  if (options.sentBound !== false) {
    // the calls in flight when the shard was found down were sent; every later one was not
    expect(inc.kinds.get('unavailable sent=true') ?? 0).toBeLessThanOrEqual(callers);
  }
  // what waits in the client: at most the calls in flight when the fault began, and probes
  expect(queued).toBeLessThanOrEqual(6 * callers + 16);
  expect(heapGrowth).toBeLessThan(8 * 1024 * 1024);

  await options.heal();
  const recoveredMs = await until(async () => (await closed.take('y')).reason === undefined, options.recoveryMs + 2000, 10);
  expect(recoveredMs).toBeLessThan(options.recoveryMs);
  // every policy is back on Redis
  for (const limiter of [open, fallback]) await until(async () => (await limiter.take('y')).reason === undefined, 1000, 10);
  await until(() => pendingIn(redis) === 0, 5000);
  const admin = options.admin();
  expect(await keysWithoutTtl(admin)).toEqual([]);
  return { closed: c, helper: inc, closedKey: closed.keyFor('x'), heapGrowth, queued, recoveredMs };
}
