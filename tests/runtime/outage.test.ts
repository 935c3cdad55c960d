import { createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiter, type OutagePolicy } from '../../runtime/index.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

// A server that accepts connections and never answers: a hung Redis.
let blackHole: Server;
const sockets: Socket[] = [];
beforeAll(async () => {
  blackHole = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', () => undefined);
  });
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => blackHole.close(() => resolve()));
});

const clients: Redis[] = [];
afterAll(() => {
  for (const c of clients) c.disconnect();
});

function client(port: number, options: RedisOptions): Redis {
  const c = new Redis({ host: '127.0.0.1', port, ...options });
  c.on('error', () => undefined); // connection errors are expected here
  clients.push(c);
  return c;
}

const TIMEOUT_MS = 150;
const expected: Record<OutagePolicy, object> = {
  'fail-closed': { allowed: false, limit: 10, remaining: 0, retryAfterMs: 250, resetAfterMs: 0, reason: 'redis-unavailable' },
  'fail-open': { allowed: true, limit: 10, remaining: 0, retryAfterMs: 0, resetAfterMs: 0, reason: 'redis-unavailable' },
};

const setups: Array<[string, () => Promise<Redis>]> = [
  ['closed port, ioredis defaults (offline queue on, 20 retries)', async () => client(await closedPort(), {})],
  ['closed port, enableOfflineQueue: false', async () => client(await closedPort(), { enableOfflineQueue: false })],
  ['a server that accepts and never answers', async () => client((blackHole.address() as { port: number }).port, {})],
];

describe.each(['fail-closed', 'fail-open'] as const)('onRedisError: %s', (policy) => {
  it.each(setups)('%s: answers within timeoutMs with reason redis-unavailable', async (_, make) => {
    const r = await make();
    const limiter = createLimiter(r, {
      algorithm: 'token-bucket',
      capacity: 10,
      refillPerSecond: 1,
      onRedisError: policy,
      timeoutMs: TIMEOUT_MS,
      outageRetryAfterMs: 250,
    });
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      const res = await limiter.take('someone');
      const elapsed = performance.now() - started;
      expect(res).toEqual(expected[policy]);
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 100);
    }
  });

  it('a reply that reports a bug (WRONGTYPE) is thrown, not hidden by the policy', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, {
      algorithm: 'fixed-window',
      limit: 10,
      windowMs: 1000,
      onRedisError: policy,
      namespace: uniquePrefix('wrongtype'),
    });
    await r.rpush(limiter.keyFor('x'), 'a');
    await r.pexpire(limiter.keyFor('x'), 10_000);
    await expect(limiter.take('x')).rejects.toThrow(/^WRONGTYPE/);
  });

  it('a live Redis answers normally, without reason', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, {
      algorithm: 'gcra',
      limit: 10,
      periodMs: 1000,
      onRedisError: policy,
      timeoutMs: TIMEOUT_MS,
      namespace: uniquePrefix('live'),
    });
    const res = await limiter.take('y', { nowMs: 5_000_000 });
    expect(res).toEqual({ allowed: true, limit: 10, remaining: 9, retryAfterMs: 0, resetAfterMs: 100 });
  });
});

describe('the deadline', () => {
  it('waits the full timeoutMs for a hung server before deciding', async () => {
    const r = client((blackHole.address() as { port: number }).port, {});
    const limiter = createLimiter(r, { algorithm: 'fixed-window', limit: 1, windowMs: 1000, onRedisError: 'fail-closed', timeoutMs: 200 });
    const started = performance.now();
    const res = await limiter.take('z');
    const elapsed = performance.now() - started;
    expect(res.reason).toBe('redis-unavailable');
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(elapsed).toBeLessThan(300);
  });
});

describe('many calls in flight share one deadline queue', () => {
  it('64 concurrent calls against a hung server all answer within timeoutMs', async () => {
    const r = client((blackHole.address() as { port: number }).port, {});
    const limiter = createLimiter(r, { algorithm: 'gcra', limit: 5, periodMs: 1000, onRedisError: 'fail-open', timeoutMs: 120 });
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 64 }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, i % 8)); // staggered starts
        return limiter.take(`u${i}`);
      }),
    );
    const elapsed = performance.now() - started;
    expect(results.filter((res) => res.allowed && res.reason === 'redis-unavailable')).toHaveLength(64);
    expect(elapsed).toBeGreaterThanOrEqual(120);
    expect(elapsed).toBeLessThan(120 + 8 + 100);
  });

  it('a live Redis under 2,000 concurrent calls produces no false timeout', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, {
      algorithm: 'token-bucket',
      capacity: 1000,
      refillPerSecond: 0.001,
      onRedisError: 'fail-open',
      timeoutMs: 5000,
      namespace: uniquePrefix('load'),
    });
    const results = await Promise.all(Array.from({ length: 2000 }, () => limiter.take('same')));
    expect(results.filter((res) => res.reason !== undefined)).toHaveLength(0);
    expect(results.filter((res) => res.allowed)).toHaveLength(1000);
  });
});

describe('isUnavailable: which errors the policy decides', () => {
  it('connection problems and "can not serve" replies yes; bug replies and programming errors no', async () => {
    const { isUnavailable } = await import('../../runtime/outage.js');
    const { ReplyError } = await import('ioredis');
    const r = redis.client();
    const key = `${uniquePrefix('err')}:list`;
    await r.rpush(key, 'a');
    const wrongType = await r.get(key).catch((error: unknown) => error);
    await r.del(key);
    expect(wrongType).toBeInstanceOf(Error);
    expect([
      isUnavailable(wrongType),
      isUnavailable(new ReplyError('LOADING Redis is loading the dataset in memory')),
      isUnavailable(new ReplyError('CLUSTERDOWN The cluster is down')),
      isUnavailable(new ReplyError('ERR redis-ttl fixed_window: cost must be an integer >= 1')),
      isUnavailable(new Error('Connection is closed.')),
      isUnavailable(new TypeError('x is not a function')),
      isUnavailable('a string'),
      // fetch() (the @upstash/redis REST client) on a refused connection
      await fetch('http://127.0.0.1:1/').catch((error: unknown) => isUnavailable(error)),
      isUnavailable(new TypeError('fetch failed')),
    ]).toEqual([false, true, true, false, true, false, false, true, false]);
  });
});
