/**
 * Deadlines of the helpers and the cache (handed repro rt12: getOrLoad, collect,
 * incrementWithTtl and setKeepTtl used to wait for as long as a blackhole lasted, and a cache read
 * never fell back to the loader). The Redis of this file sits behind a proxy the tests freeze.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, createCache, incrementWithTtl, RedisUnavailableError, setKeepTtl } from '../../runtime/index.js';
import { FaultProxy } from '../faults/proxy.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();
const TIMEOUT_MS = 100;
let proxy: FaultProxy;
const clients: Redis[] = [];

beforeAll(async () => {
  proxy = await FaultProxy.start(redis.url());
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await proxy?.close();
});

/** A client through the proxy, connected, on ioredis' defaults (offline queue, 20 retries). */
async function viaProxy(): Promise<Redis> {
  const url = new URL(redis.url());
  const c = new Redis(proxy.url, { username: url.username || undefined, password: url.password || undefined });
  c.on('error', () => undefined);
  clients.push(c);
  await c.ping();
  return c;
}

async function timed<T>(call: () => Promise<T>): Promise<[T | unknown, number]> {
  const started = performance.now();
  const value = await call().catch((error: unknown) => error);
  return [value, performance.now() - started];
}

describe('helpers and the cache answer within timeoutMs while Redis does not answer', () => {
  it('collect, incrementWithTtl and setKeepTtl reject with RedisUnavailableError: sent and timed out first, then not sent at all', async () => {
    const r = await viaProxy();
    const key = `${uniquePrefix('rt12')}:{c}`;
    expect(await incrementWithTtl(r, key, { ttlMs: 60_000, timeoutMs: TIMEOUT_MS })).toMatchObject({ value: 1 });
    proxy.freeze();
    try {
      const [first, firstMs] = await timed(() => collect(r, key, { timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: 60_000 }));
      expect(first).toBeInstanceOf(RedisUnavailableError);
      expect(first).toMatchObject({ sent: true, code: 'TIMEOUT', message: `Redis did not answer within ${TIMEOUT_MS} ms` });
      expect(firstMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 1);
      expect(firstMs).toBeLessThan(TIMEOUT_MS + 100);
      const calls: Array<() => Promise<unknown>> = [
        () => collect(r, key, { timeoutMs: TIMEOUT_MS }),
        () => incrementWithTtl(r, key, { ttlMs: 60_000, timeoutMs: TIMEOUT_MS }),
        () => setKeepTtl(r, key, 'x', { timeoutMs: TIMEOUT_MS }),
      ];
      for (const call of calls) {
        const [error, ms] = await timed(call);
        expect(error).toMatchObject({ name: 'RedisUnavailableError', sent: false, code: 'TIMEOUT' });
        expect(ms).toBeLessThan(TIMEOUT_MS);
      }
    } finally {
      proxy.thaw();
    }
    // the timed-out collect was in flight: it runs once the network heals (the value it read is lost)
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await r.get(key)).toBe('0');
  });

  it("getOrLoad serves the loader within timeoutMs ('load'), rejects ('throw'), or serves a stale value (staleIfErrorMs)", async () => {
    const r = await viaProxy();
    const namespace = uniquePrefix('rt12c');
    const load = createCache<string>(r, { namespace, ttlMs: 60_000, timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: 60_000 });
    const throwing = createCache<string>(r, { namespace, ttlMs: 60_000, timeoutMs: TIMEOUT_MS, onRedisError: 'throw' });
    const stale = createCache<string>(r, { namespace, ttlMs: 60_000, timeoutMs: TIMEOUT_MS, staleIfErrorMs: 60_000, onRedisError: 'throw' });
    expect(await stale.getOrLoad('k', () => 'stored')).toBe('stored');
    expect(await stale.getOrLoad('k', () => 'not called')).toBe('stored');
    proxy.freeze();
    try {
      let loads = 0;
      const loader = async () => {
        loads += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return 'fresh';
      };
      const [value, ms] = await timed(() => load.getOrLoad('k', loader));
      expect(value).toBe('fresh');
      expect(ms).toBeLessThan(TIMEOUT_MS + 100);
      // the shard is down now: concurrent calls share one loader run, at once
      const [values, msAll] = await timed(() => Promise.all(Array.from({ length: 20 }, () => load.getOrLoad('k', loader))));
      expect(values).toEqual(Array.from({ length: 20 }, () => 'fresh'));
      expect(loads).toBe(2);
      expect(msAll).toBeLessThan(TIMEOUT_MS);
      expect(await throwing.getOrLoad('k', loader).catch((e: unknown) => e)).toMatchObject({ name: 'RedisUnavailableError', sent: false });
      expect(await stale.getOrLoad('k', loader)).toBe('stored');
      expect(await stale.getOrLoad('other', loader).catch((e: unknown) => e)).toBeInstanceOf(RedisUnavailableError);
      expect(await load.invalidate('k').catch((e: unknown) => e)).toMatchObject({ name: 'RedisUnavailableError', sent: false });
      expect(await load.set('k', 'v').catch((e: unknown) => e)).toMatchObject({ name: 'RedisUnavailableError', sent: false });
      expect(load.stats()).toMatchObject({ unavailable: 21, loads: 2, stores: 0 });
      expect(stale.stats()).toMatchObject({ hits: 1, misses: 1, stores: 1, unavailable: 2, staleServed: 1 });
    } finally {
      proxy.thaw();
    }
  });
});
