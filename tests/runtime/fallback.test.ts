/**
 * onRedisError: 'fallback' against a real outage: this file starts its own redis-server, stops it
 * mid-run and restarts it on the same port.
 */
import { performance } from 'node:perf_hooks';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCircuitBreaker, createLimiter, createMemoryStore, type LimitResult } from '../../runtime/index.js';
import { startRedisServer, type RedisHandle } from '../helpers/redis-server.js';
import { uniquePrefix } from '../helpers/redis.js';

const TIMEOUT_MS = 300;
let server: RedisHandle | undefined;
let port = 0;
const clients: Redis[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  server = await startRedisServer();
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await server?.stop();
  process.off('unhandledRejection', onUnhandled);
});

function client(options: RedisOptions = {}): Redis {
  // reconnect every 50 ms, so the test does not wait for ioredis' growing back-off
  const c = new Redis({ host: '127.0.0.1', port, retryStrategy: () => 50, ...options });
  c.on('error', () => undefined); // connection errors are expected here
  clients.push(c);
  return c;
}

async function timed<T>(call: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await call();
  return [value, performance.now() - started];
}

const shape = (r: LimitResult) => [r.allowed, r.limit, r.remaining, r.reason ?? 'redis'];

describe("onRedisError: 'fallback'", () => {
  it('a script error is never a reason to fall back: it is thrown', async () => {
    const r = client();
    const limiter = createLimiter(r, {
      algorithm: 'gcra',
      limit: 5,
      periodMs: 1000,
      onRedisError: 'fallback',
      namespace: uniquePrefix('fbwt'),
    });
    await r.set(limiter.keyFor('x'), 'a', 'PX', 10_000);
    await r.hset(`${limiter.keyFor('y')}`, 'f', 'v');
    await r.pexpire(limiter.keyFor('y'), 10_000);
    await expect(limiter.take('y')).rejects.toThrow(/^WRONGTYPE/);
    // a stored value it did not write is no outage either: an error, and the value is left as it was
    await expect(limiter.take('x')).rejects.toThrow(/^ERR redis-ttl gcra: the key holds a value this script did not write/);
    expect(await r.get(limiter.keyFor('x'))).toBe('a');
  });

  it('switches to the memory store within the call timeout when Redis stops, and back when it answers again', async () => {
    const withQueue = client(); // ioredis defaults: commands wait in the offline queue while disconnected
    const noQueue = client({ enableOfflineQueue: false }); // commands fail at once while disconnected
    const store = createMemoryStore();
    const namespace = uniquePrefix('fb');
    const common = { windowMs: 3_600_000, onRedisError: 'fallback', timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: 50, namespace } as const;
    const limiter = createLimiter(withQueue, { algorithm: 'fixed-window', limit: 4, fallbackShare: 0.5, fallback: store, ...common });
    const breaker = createCircuitBreaker(noQueue, { failureThreshold: 2, openMs: 60_000, fallback: store, ...common });
    await Promise.all([withQueue, noQueue].map((c) => (c.status === 'ready' ? undefined : new Promise((resolve) => c.once('ready', resolve)))));

    // Redis up: Redis decides, with the full limit
    expect(shape(await limiter.take('ada'))).toEqual([true, 4, 3, 'redis']);
    expect(await breaker.record('svc', 'failure')).toMatchObject({ state: 'closed', failures: 1 });
    expect(await withQueue.exists(limiter.keyFor('ada'))).toBe(1);

    await server!.stop();

    // the first call after the outage waits at most timeoutMs, then the memory store answers with
    // the local share (limit 4 * 0.5 = 2); the calls after it do not wait for Redis
    const [first, firstMs] = await timed(() => limiter.take('ada'));
    expect(shape(first)).toEqual([true, 2, 1, 'fallback']);
    expect(firstMs).toBeLessThan(TIMEOUT_MS + 200);
    const [second, secondMs] = await timed(() => limiter.take('ada'));
    expect(shape(second)).toEqual([true, 2, 0, 'fallback']);
    expect(secondMs).toBeLessThan(TIMEOUT_MS);
    expect(shape(await limiter.take('ada'))).toEqual([false, 2, 0, 'fallback']);

    // the breaker's state lives on in memory from nothing: two failures open it there
    const [snap, snapMs] = await timed(() => breaker.record('svc', 'failure'));
    expect(snap).toEqual({ state: 'closed', failures: 1, probesInFlight: 0, retryAfterMs: 0, reason: 'fallback' });
    expect(snapMs).toBeLessThan(TIMEOUT_MS + 200);
    expect(await breaker.record('svc', 'failure')).toMatchObject({ state: 'open', retryAfterMs: 60_000, reason: 'fallback' });
    expect(await breaker.acquire('svc')).toMatchObject({ allowed: false, state: 'open', reason: 'fallback' });
    expect(store.pttl(breaker.keyFor('svc'))).toBeGreaterThan(119_000);
    expect(store.pttl(breaker.keyFor('svc'))).toBeLessThanOrEqual(120_000);

    // many calls during the outage: all answered, none waits for the timeout
    const [burst, burstMs] = await timed(() => Promise.all(Array.from({ length: 50 }, (_, i) => limiter.take(`u${i}`))));
    expect(burst.every((r) => r.reason === 'fallback' && r.allowed)).toBe(true);
    expect(burstMs).toBeLessThan(TIMEOUT_MS);

    server = await startRedisServer([], undefined, port);

    // back to Redis once a background probe answers (each route probes on its own); Redis lost its
    // data (no persistence), so the state starts over there
    let attempt = 0;
    await vi.waitFor(async () => expect((await limiter.take(`probe${attempt++}`)).reason).toBeUndefined(), { timeout: 15_000, interval: 50 });
    await vi.waitFor(async () => expect((await breaker.read('svc')).reason).toBeUndefined(), { timeout: 15_000, interval: 50 });
    expect(shape(await limiter.take('bob'))).toEqual([true, 4, 3, 'redis']);
    expect(await breaker.read('svc')).toEqual({ state: 'closed', failures: 0, probesInFlight: 0, retryAfterMs: 0 });
    expect(await withQueue.exists(limiter.keyFor('bob'))).toBe(1);
    expect(await withQueue.exists('redis-ttl:probe')).toBe(0); // the probe only reads
    expect(unhandled).toEqual([]);
  });

  it('a node-redis error reply (SimpleError, name "Error") is a bug too, under every policy', async () => {
    const { createClient } = await import('redis');
    const c = createClient({ url: `redis://127.0.0.1:${port}` });
    c.on('error', () => undefined);
    await c.connect();
    try {
      for (const onRedisError of ['fallback', 'fail-open'] as const) {
        const limiter = createLimiter(c, { algorithm: 'gcra', limit: 5, periodMs: 1000, onRedisError, namespace: uniquePrefix('fbnr') });
        await c.hSet(limiter.keyFor('y'), 'f', 'v');
        await c.pExpire(limiter.keyFor('y'), 10_000);
        await expect(limiter.take('y')).rejects.toThrow(/^WRONGTYPE/);
      }
    } finally {
      await c.quit();
    }
  });

  it('fallbackShare scales the limit and the rate, exactly (a client whose Redis is gone from the start)', async () => {
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const gone = new Redis({ host: '127.0.0.1', port: closedPort, enableOfflineQueue: false, lazyConnect: true });
    gone.on('error', () => undefined);
    clients.push(gone);
    const store = createMemoryStore();
    const nowMs = 1_700_000_000_000;
    const tb = createLimiter(gone, {
      algorithm: 'token-bucket',
      capacity: 10,
      refillPerSecond: 5,
      onRedisError: 'fallback',
      fallbackShare: 0.25,
      fallback: store,
    });
    // capacity 10 * 0.25 = 2 (rounded down), refill 5/s * 0.25 = 1.25/s: one token in 800 ms
    expect(await tb.take('a', { nowMs })).toEqual({ allowed: true, limit: 2, remaining: 1, retryAfterMs: 0, resetAfterMs: 800, reason: 'fallback' });
    expect(await tb.take('a', { nowMs, cost: 2 })).toEqual({ allowed: false, limit: 2, remaining: 1, retryAfterMs: 800, resetAfterMs: 800, reason: 'fallback' });
    const gcra = createLimiter(gone, { algorithm: 'gcra', limit: 10, periodMs: 1000, onRedisError: 'fallback', fallbackShare: 0.3, fallback: store });
    // burst 10 * 0.3 = 3, emission interval 1000 / (10 * 0.3) = 333.3 ms
    expect(await gcra.take('a', { nowMs })).toEqual({ allowed: true, limit: 3, remaining: 2, retryAfterMs: 0, resetAfterMs: 334, reason: 'fallback' });
    const small = createLimiter(gone, { algorithm: 'sliding-window-log', limit: 3, windowMs: 1000, onRedisError: 'fallback', fallbackShare: 0.1, fallback: store });
    // 3 * 0.1 rounds down to 0: at least 1
    expect(await small.take('a', { nowMs })).toMatchObject({ allowed: true, limit: 1, remaining: 0, reason: 'fallback' });
  });

  it("validates fallback options: fallbackShare in (0, 1], fallback a MemoryStore", () => {
    const r = client();
    const base = { algorithm: 'fixed-window', limit: 10, windowMs: 1000, onRedisError: 'fallback' } as const;
    expect(() => createLimiter(r, { ...base, fallbackShare: 0 })).toThrow(new RangeError('fallbackShare must be in (0, 1], got 0'));
    expect(() => createLimiter(r, { ...base, fallbackShare: 1.5 })).toThrow(RangeError);
    expect(() => createLimiter(r, { ...base, fallback: {} as never })).toThrow(
      new TypeError('fallback must be a MemoryStore (createMemoryStore()), got object'),
    );
  });
});
