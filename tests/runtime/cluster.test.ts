import calculateSlot from 'cluster-key-slot';
import { GlideClusterClient } from '@valkey/valkey-glide';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, createCache, createLimiter, incrementWithTtl, setKeepTtl, type Limiter, type LimiterOptions } from '../../runtime/index.js';
import '../helpers/glide.js';
import { connectCluster, startRedisCluster, type RedisClusterHandle } from '../helpers/redis-cluster.js';
import { uniquePrefix } from '../helpers/redis.js';

let handle: RedisClusterHandle;
let cluster: Cluster;

beforeAll(async () => {
  handle = await startRedisCluster();
  cluster = await connectCluster(handle);
});

afterAll(async () => {
  await cluster?.quit();
  await handle?.stop();
});

/**
 * Takes three times for each of 12 identities from a limiter of limit 2: allowed, allowed, denied,
 * and each key with a TTL within `maxTtlMs`; adds the keys' slots to `slots`.
 */
async function takeTwelve(limiter: Limiter, slots: Set<number>): Promise<void> {
  for (let id = 0; id < 12; id += 1) {
    slots.add(calculateSlot(limiter.keyFor(`user-${id}`)));
    const results = [];
    for (let i = 0; i < 3; i += 1) results.push((await limiter.take(`user-${id}`)).allowed);
    expect(results).toEqual([true, true, false]);
    const pttl = await cluster.pttl(limiter.keyFor(`user-${id}`));
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(limiter.maxTtlMs);
  }
}

describe('on Redis Cluster (ioredis Cluster)', () => {
  const common = { onRedisError: 'fail-closed' as const };
  const all: LimiterOptions[] = [
    { ...common, algorithm: 'fixed-window', limit: 2, windowMs: 60_000 },
    { ...common, algorithm: 'sliding-window-log', limit: 2, windowMs: 60_000 },
    { ...common, algorithm: 'sliding-window-counter', limit: 2, windowMs: 60_000 },
    { ...common, algorithm: 'token-bucket', capacity: 2, refillPerSecond: 0.01 },
    { ...common, algorithm: 'gcra', limit: 2, periodMs: 60_000 },
    { ...common, algorithm: 'leaky-bucket', capacity: 2, leakPerSecond: 0.01 },
  ];

  it('every limiter works for identities spread over all three masters, with no CROSSSLOT', async () => {
    const namespace = uniquePrefix('cl');
    const slots = new Set<number>();
    for (const options of all) await takeTwelve(createLimiter(cluster, { ...options, namespace }), slots);
    // 12 identities land on more than one slot range, i.e. the calls went to several masters
    const masters = new Set([...slots].map((slot) => Math.floor(slot / (16384 / 3))));
    expect(masters.size).toBeGreaterThan(1);
  });

  it('collect, incrementWithTtl and setKeepTtl work through the cluster client', async () => {
    const key = `${uniquePrefix('cl')}:{session-9}:pending`;
    expect(await incrementWithTtl(cluster, key, { by: 5, ttlMs: 30_000 })).toMatchObject({ value: 5 });
    const expiresAt = await cluster.pexpiretime(key);
    expect(await collect(cluster, key)).toBe('5');
    expect(await setKeepTtl(cluster, key, '7')).toBe(true);
    expect(await cluster.get(key)).toBe('7');
    expect(await cluster.pexpiretime(key)).toBe(expiresAt);
    expect(await collect(cluster, `${key}:missing`)).toBeNull();
    expect(await cluster.exists(`${key}:missing`)).toBe(0);
  });
});

describe('on Redis Cluster (Valkey GLIDE GlideClusterClient)', () => {
  let glide: GlideClusterClient;

  beforeAll(async () => {
    glide = await GlideClusterClient.createClient({ addresses: handle.nodes, requestTimeout: 5000 });
  });

  afterAll(() => {
    glide?.close();
  });

  it('EVALSHA / EVAL go to the master of their first key: limiters over all three masters, with no MOVED or CROSSSLOT', async () => {
    const namespace = uniquePrefix('clglide');
    const limiter = createLimiter(glide, { algorithm: 'sliding-window-counter', limit: 2, windowMs: 60_000, onRedisError: 'fail-closed', namespace });
    const slots = new Set<number>();
    await takeTwelve(limiter, slots);
    expect(new Set([...slots].map((slot) => Math.floor(slot / (16384 / 3)))).size).toBeGreaterThan(1);
  });

  it('collect, incrementWithTtl, setKeepTtl and the cache work through GlideClusterClient', async () => {
    const key = `${uniquePrefix('clglide')}:{session-9}:pending`;
    expect(await incrementWithTtl(glide, key, { by: 5, ttlMs: 30_000 })).toMatchObject({ value: 5 });
    const expiresAt = await cluster.pexpiretime(key);
    expect(await collect(glide, key)).toBe('5');
    expect(await setKeepTtl(glide, key, '7')).toBe(true);
    expect(await cluster.pexpiretime(key)).toBe(expiresAt);
    expect(await collect(glide, `${key}:missing`)).toBeNull();
    const cache = createCache<string>(glide, { namespace: uniquePrefix('clglide'), ttlMs: 60_000 });
    let loads = 0;
    for (const id of ['a', 'b', 'c', 'd']) {
      expect(await cache.getOrLoad(id, async () => `v${++loads}`)).toBe(`v${loads}`);
      expect(await cache.getOrLoad(id, async () => 'never')).toBe(`v${loads}`);
      expect(await cluster.pttl(cache.keysFor(id).entry)).toBeGreaterThan(0);
    }
  });
});
