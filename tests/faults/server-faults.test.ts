/**
 * The faults of a server and its connection, each on a redis-server of this file's own, with an
 * ioredis client on its default options: the connection cut (RST) and refused, the server stopped
 * (SIGSTOP), busy (`DEBUG SLEEP`), out of memory (maxmemory with `noeviction`), restarted.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLimiter, incrementWithTtl, RedisUnavailableError } from '../../runtime/index.js';
import { needsOwnServer } from '../helpers/redis.js';
import { until } from './measure.js';
import { FaultProxy } from './proxy.js';
import { PROBE_MS, runOutage, TIMEOUT_MS } from './scenario.js';
import { startOwnServer, type OwnServer } from './servers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function ownServer(args: string[] = []): Promise<OwnServer> {
  const server = await startOwnServer(args);
  cleanups.push(() => server.stop());
  return server;
}

function client(url: string): Redis {
  // reconnect every 50 ms, so that the recovery does not wait for ioredis' growing back-off
  const c = new Redis(url, { retryStrategy: () => 50 });
  c.on('error', () => undefined);
  cleanups.push(() => c.disconnect());
  return c;
}

describe.skipIf(needsOwnServer('the fault tests stop, freeze and reconfigure a redis-server of their own'))('server faults', () => {
  it('a cut connection that is then refused for a while (RST, then ECONNREFUSED)', async () => {
    const server = await ownServer();
    const proxy = await FaultProxy.start(server.url);
    cleanups.push(() => proxy.close());
    const admin = client(server.url);
    await runOutage({
      redis: client(proxy.url),
      admin: () => admin,
      inject: () => proxy.refuse(),
      heal: () => proxy.accept(),
      // connection errors fail the calls at once: more of them are sent before the shard is down
      sentBound: false,
      recoveryMs: PROBE_MS + TIMEOUT_MS + 1000,
    });
  }, 30_000);

  it('the server process stopped (SIGSTOP), then continued', async () => {
    const server = await ownServer();
    const admin = client(server.url);
    await runOutage({
      redis: client(server.url),
      admin: () => admin,
      inject: () => server.pause(),
      heal: () => server.resume(),
      recoveryMs: PROBE_MS + TIMEOUT_MS + 1000,
    });
  }, 30_000);

  it('the server busy for 2.5 s (DEBUG SLEEP)', async () => {
    const server = await ownServer();
    const admin = client(server.url);
    const sleeper = client(server.url);
    let slept: Promise<unknown> = Promise.resolve();
    await runOutage({
      redis: client(server.url),
      admin: () => admin,
      inject: async () => {
        slept = sleeper.debug('SLEEP', '2.5').catch(() => undefined); // no unhandled rejection if the test fails first
        await sleep(20); // the sleep has begun
      },
      heal: async () => {
        await slept;
      },
      recoveryMs: PROBE_MS + TIMEOUT_MS + 1000,
    });
  }, 30_000);

  it('the server restarted (SIGTERM, 1.5 s down, started again on the same port)', async () => {
    const server = await ownServer();
    let admin: Redis | null = null;
    await runOutage({
      redis: client(server.url),
      admin: () => (admin ??= client(server.url)),
      inject: () => server.stop(),
      heal: () => server.start(),
      sentBound: false,
      recoveryMs: PROBE_MS + TIMEOUT_MS + 1000,
    });
  }, 30_000);

  it('after an outage, a route with no traffic is probed on a timer: its first call afterwards is answered by Redis', async () => {
    const server = await ownServer();
    const redis = client(server.url);
    const limiter = createLimiter(redis, { algorithm: 'fixed-window', limit: 100, windowMs: 60_000, onRedisError: 'fail-closed', timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: PROBE_MS });
    expect((await limiter.take('quiet')).reason).toBeUndefined();
    server.pause();
    expect(await limiter.take('quiet')).toMatchObject({ allowed: false, reason: 'redis-unavailable' });
    expect(await limiter.take('quiet')).toMatchObject({ allowed: false, reason: 'redis-unavailable' });
    server.resume();
    // no call at all for a few probe intervals: the probes run on their timer
    await sleep(3 * PROBE_MS + TIMEOUT_MS);
    expect(await limiter.take('quiet')).toMatchObject({ allowed: true });
    expect((await limiter.take('quiet')).reason).toBeUndefined();
    // the same through a helper, which rejects while the shard is down
    server.pause();
    await expect(incrementWithTtl(redis, 'quiet-counter', { ttlMs: 1000, timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: PROBE_MS })).rejects.toBeInstanceOf(RedisUnavailableError);
    server.resume();
    await sleep(3 * PROBE_MS + TIMEOUT_MS);
    // answered by Redis at once (2: the increment abandoned at its deadline ran once the server resumed)
    expect(await incrementWithTtl(redis, 'quiet-counter', { ttlMs: 1000, timeoutMs: TIMEOUT_MS })).toMatchObject({ value: 2 });
  }, 30_000);

  it('maxmemory reached with noeviction: OOM replies are an outage for every policy, and a shard that refuses writes stays down', async () => {
    const server = await ownServer(['--maxmemory-policy', 'noeviction']);
    const admin = client(server.url);
    const redis = client(server.url);
    await runOutage({
      redis,
      admin: () => admin,
      inject: () => admin.config('SET', 'maxmemory', '1').then(() => undefined),
      heal: () => admin.config('SET', 'maxmemory', '0').then(() => undefined),
      // OOM replies come at once: each shard's first writes fail before it is marked down
      sentBound: false,
      readsAnswer: true,
      recoveryMs: PROBE_MS + TIMEOUT_MS + 1000,
    });

    // the probe writes: while writes are refused the shard stays down, whatever reads still answer
    await admin.config('SET', 'maxmemory', '1');
    const limiter = createLimiter(redis, { algorithm: 'gcra', limit: 10, periodMs: 1000, onRedisError: 'fail-open', timeoutMs: TIMEOUT_MS, redisProbeIntervalMs: 50 });
    expect(await limiter.take('oom')).toMatchObject({ allowed: true, reason: 'redis-unavailable' });
    const error = await incrementWithTtl(redis, 'oom-counter', { ttlMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect(error).toMatchObject({ code: 'OOM', sent: false, address: `127.0.0.1:${server.port}` });
    for (let i = 0; i < 5; i += 1) {
      await sleep(60); // more than a probe interval: a probe ran and was refused
      expect((await limiter.take('oom')).reason).toBe('redis-unavailable');
    }
    await admin.config('SET', 'maxmemory', '0');
    await until(async () => (await limiter.take('oom')).reason === undefined, 1000);
    expect(await redis.exists('oom-counter')).toBe(0);
  }, 30_000);
});
