import calculateSlot from 'cluster-key-slot';
import fc from 'fast-check';
import { Cluster } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jitteredTtl, readEntry } from '../../runtime/cache.js';
import { CacheLoadError, createCache, NotFound, type Cache, type CacheOptions } from '../../runtime/index.js';
import { getScript } from '../../runtime/scripts.js';
import { scanWithPttl, uniquePrefix, useRedis } from '../helpers/redis.js';
import { connectCluster, startRedisCluster, type RedisClusterHandle } from '../helpers/redis-cluster.js';

const redis = useRedis();

/** `RT1:<expiresAtMs>:<deltaMs>:<v|a>:<payload>` parsed by the cache's own reader, or `null`. */
function parseEntry(text: unknown): { expiresAt: number; delta: number; absent: boolean; payload: string } | null {
  const header = { expiresAt: -1, delta: -1, absent: false };
  const at = readEntry(text, header);
  return at === -1 ? null : { ...header, payload: (text as string).slice(at) };
}

/** The entry as stored, parsed, or `null`. */
async function stored(r: { get(key: string): Promise<string | null> }, entry: string) {
  return parseEntry(await r.get(entry));
}

/** Namespaces created by the current test, audited after it. */
let namespaces: string[] = [];

function ns(label: string): string {
  const name = uniquePrefix(label);
  namespaces.push(name);
  return name;
}

afterEach(async () => {
  const auditor = redis.client();
  const leaks: string[] = [];
  for (const namespace of namespaces) {
    for (const [key, pttl] of await scanWithPttl(auditor, `${namespace}:*`)) {
      if (pttl === -1) leaks.push(key);
    }
  }
  namespaces = [];
  await auditor.quit();
  expect(leaks).toEqual([]);
});

/** A loader that counts its calls and answers `value` after `ms`. */
function slowLoader<T>(value: T, ms: number): { calls: () => number; load: () => Promise<T> } {
  let calls = 0;
  return {
    calls: () => calls,
    load: async () => {
      calls += 1;
      await sleep(ms);
      return value;
    },
  };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await sleep(2);
  }
}

describe('createCache: the load lock', () => {
  it('200 concurrent getOrLoad calls on a cold key, over 4 clients, run the loader exactly once', async () => {
    const namespace = ns('stampede');
    const caches = [0, 1, 2, 3].map(() => createCache<{ id: number }>(redis.client(), { namespace, ttlMs: 5000, lockTtlMs: 2000 }));
    const loader = slowLoader({ id: 42 }, 50);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => caches[i % 4]!.getOrLoad('user:42', loader.load)));
    expect(loader.calls()).toBe(1);
    expect(results.every((r) => r?.id === 42)).toBe(true);
    const stats = caches.map((c) => c.stats());
    expect(stats.reduce((n, s) => n + s.loads, 0)).toBe(1);
    expect(stats.reduce((n, s) => n + s.stores, 0)).toBe(1);
    expect(stats.reduce((n, s) => n + s.waitTimeouts, 0)).toBe(0);
    const r = redis.client();
    const { entry, lock } = caches[0]!.keysFor('user:42');
    expect(await r.exists(lock)).toBe(0); // released by the store script
    const pttl = await r.pttl(entry);
    expect(pttl).toBeGreaterThan(4000);
    expect(pttl).toBeLessThanOrEqual(5500);
  });

  it('a crashed lock holder (its lock no longer renewed) frees the key after lockTtlMs; the next caller loads and stores', async () => {
    const namespace = ns('dead');
    const r = redis.client();
    // maxWaitMs well past the lock's TTL: the default (1000 ms, the lock's TTL here) raced the lock's
    // expiry on a loaded machine, and this test is about the lock expiring, not about the wait limit
    const other = createCache<string>(redis.client(), { namespace, ttlMs: 5000, lockTtlMs: 1000, maxWaitMs: 5000 });
    const { entry, lock } = other.keysFor('k');
    // the lock of a process that died while loading: nobody renews it
    await r.set(lock, 'crashed-holder-token', 'PX', 1000);
    // started before PTTL is measured: the lock can not be free before started + lockPttl
    const started = performance.now();
    const lockPttl = await r.pttl(lock);
    expect(lockPttl).toBeGreaterThan(0);
    const loader = slowLoader('fresh', 5);
    expect(await other.getOrLoad('k', loader.load)).toBe('fresh');
    const elapsed = performance.now() - started;
    // Whether it found the lock and waited (the usual case) or, on a loaded machine, came after the
    // lock had expired: it loaded no sooner than the lock's TTL allowed.
    expect(elapsed).toBeGreaterThanOrEqual(lockPttl - 2);
    expect(elapsed).toBeLessThan(5000);
    expect(loader.calls()).toBe(1);
    expect(other.stats()).toMatchObject({ misses: 1, loads: 1, stores: 1, waitTimeouts: 0 });
    expect(other.stats().waits).toBeLessThanOrEqual(1);
    expect((await stored(r, entry))?.payload).toBe('"fresh"');
  });

  it('a load slower than lockTtlMs keeps its lock (renewed) and is the only load; it stores its value', async () => {
    const namespace = ns('renew');
    const r = redis.client();
    const holder = createCache<string>(redis.client(), { namespace, ttlMs: 5000, lockTtlMs: 150, maxWaitMs: 5000 });
    const other = createCache<string>(redis.client(), { namespace, ttlMs: 5000, lockTtlMs: 150, maxWaitMs: 5000 });
    const loader = slowLoader('slow', 700);
    const first = holder.getOrLoad('k', loader.load);
    await waitFor(async () => (await r.exists(holder.keysFor('k').lock)) === 1);
    // four lock TTLs later, the lock is still held (renewed every 50 ms) and nobody else loads
    const results = await Promise.all([first, ...Array.from({ length: 20 }, () => other.getOrLoad('k', loader.load))]);
    expect(results).toEqual(Array(21).fill('slow'));
    expect(loader.calls()).toBe(1);
    expect(holder.stats()).toMatchObject({ loads: 1, stores: 1, storesRefused: 0 });
    expect(other.stats()).toMatchObject({ loads: 0, waitTimeouts: 0 });
    expect(await r.exists(holder.keysFor('k').lock)).toBe(0);
  });

  it('a waiter that reaches maxWaitMs does not load: a CacheLoadError, or the value kept by staleIfErrorMs', async () => {
    const namespace = ns('bound');
    const r = redis.client();
    const holder = createCache<string>(redis.client(), { namespace, ttlMs: 5000, lockTtlMs: 5000 });
    const waiter = createCache<string>(redis.client(), { namespace, ttlMs: 5000, lockTtlMs: 5000, maxWaitMs: 150 });
    let release: (() => void) | undefined;
    const held = holder.getOrLoad('k', () => new Promise<string>((resolve) => (release = () => resolve('held'))));
    await waitFor(async () => (await r.exists(holder.keysFor('k').lock)) === 1);
    const started = performance.now();
    let own = 0;
    const error = await waiter.getOrLoad('k', () => (own += 1, 'own')).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(CacheLoadError);
    expect(error).toMatchObject({ name: 'CacheLoadError', reason: 'timeout' });
    expect((error as CacheLoadError).retryAfterMs).toBeGreaterThan(0);
    expect((error as Error).message).toBe("createCache: another caller's load of this key did not finish within maxWaitMs (150 ms)");
    expect(own).toBe(0);
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(2000);
    expect(waiter.stats()).toMatchObject({ waits: 1, waitTimeouts: 1, loads: 0, stores: 0 });
    // with a value kept by staleIfErrorMs, that value is the answer
    const keeper = createCache<string>(redis.client(), { namespace, ttlMs: 5000, maxWaitMs: 100, staleIfErrorMs: 60_000 });
    await keeper.set('k2', 'old');
    expect(await keeper.getOrLoad('k2', () => 'unused')).toBe('old'); // read: kept
    await r.del(keeper.keysFor('k2').entry);
    await r.set(keeper.keysFor('k2').lock, 'another-process', 'PX', 5000);
    expect(await keeper.getOrLoad('k2', () => 'unused')).toBe('old');
    expect(keeper.stats()).toMatchObject({ waitTimeouts: 1, staleServed: 1, loads: 0 });
    await r.del(keeper.keysFor('k2').lock);
    release?.();
    expect(await held).toBe('held');
  });

  it('a loader that throws: its caller and the calls sharing its load get its error; the key backs off, doubling, then loads again', async () => {
    const namespace = ns('throw');
    const r = redis.client();
    const options = { namespace, ttlMs: 5000, lockTtlMs: 5000, loadErrorBackoffMs: 300 };
    const cache = createCache<string>(redis.client(), options);
    const elsewhere = createCache<string>(redis.client(), options);
    let calls = 0;
    const failing = async (): Promise<string> => {
      calls += 1;
      await sleep(20);
      throw new Error('db down');
    };
    const shared = await Promise.allSettled(Array.from({ length: 50 }, () => cache.getOrLoad('k', failing)));
    expect(calls).toBe(1);
    expect(shared.every((s) => s.status === 'rejected' && (s.reason as Error).message === 'db down')).toBe(true);
    expect(cache.stats()).toMatchObject({ loads: 1, joined: 49, stores: 0 });
    const { entry, lock } = cache.keysFor('k');
    expect(await r.exists(entry)).toBe(0);
    // the lock is now the back-off marker: no load for 300 ms, here or in another process
    const pttl = await r.pttl(lock);
    expect(pttl).toBeGreaterThan(300);
    expect(pttl).toBeLessThanOrEqual(600);
    const backedOff = await elsewhere.getOrLoad('k', failing).catch((e: unknown) => e);
    expect(backedOff).toBeInstanceOf(CacheLoadError);
    expect(backedOff).toMatchObject({ reason: 'failed' });
    expect((backedOff as CacheLoadError).retryAfterMs).toBeGreaterThan(0);
    expect((backedOff as CacheLoadError).retryAfterMs).toBeLessThanOrEqual(300);
    expect((backedOff as Error).message).toMatch(/^createCache: the last load of this key failed \(1 in a row\); no new load for \d+ ms \(loadErrorBackoffMs\)$/);
    expect(calls).toBe(1);
    expect(elsewhere.stats()).toMatchObject({ loads: 0, failedLoadAnswers: 1 });
    // after the back-off one caller loads; a second failure in a row backs off twice as long
    await sleep((backedOff as CacheLoadError).retryAfterMs + 5);
    await expect(elsewhere.getOrLoad('k', failing)).rejects.toThrow('db down');
    expect(calls).toBe(2);
    const again = await cache.getOrLoad('k', failing).catch((e: unknown) => e);
    expect(again).toMatchObject({ reason: 'failed' });
    expect((again as CacheLoadError).retryAfterMs).toBeGreaterThan(300);
    expect((again as CacheLoadError).retryAfterMs).toBeLessThanOrEqual(600);
    expect((again as Error).message).toMatch(/\(2 in a row\)/);
    // a successful load clears it
    await sleep((again as CacheLoadError).retryAfterMs + 5);
    expect(await cache.getOrLoad('k', () => 'ok')).toBe('ok');
    expect(await r.exists(lock)).toBe(0);
    expect(calls).toBe(2);
  });

  it('loadErrorBackoffMs: 0 releases the lock at once: the next caller loads again', async () => {
    const namespace = ns('nobackoff');
    const r = redis.client();
    const cache = createCache<string>(redis.client(), { namespace, ttlMs: 5000, lockTtlMs: 5000, loadErrorBackoffMs: 0 });
    await expect(
      cache.getOrLoad('k', () => {
        throw new Error('db down');
      }),
    ).rejects.toThrow('db down');
    const { entry, lock } = cache.keysFor('k');
    expect(await r.exists(entry, lock)).toBe(0);
    const started = performance.now();
    expect(await cache.getOrLoad('k', () => 'ok')).toBe('ok');
    expect(performance.now() - started).toBeLessThan(1000); // no wait for a lock
  });

  it('invalidate and set end a back-off at once', async () => {
    const namespace = ns('backoffend');
    const cache = createCache<string>(redis.client(), { namespace, ttlMs: 5000, loadErrorBackoffMs: 60_000 });
    const fail = () => Promise.reject(new Error('db down'));
    await expect(cache.getOrLoad('a', fail)).rejects.toThrow('db down');
    await expect(cache.getOrLoad('a', () => 'x')).rejects.toMatchObject({ reason: 'failed' });
    await cache.invalidate('a');
    expect(await cache.getOrLoad('a', () => 'x')).toBe('x');
    await expect(cache.getOrLoad('b', fail)).rejects.toThrow('db down');
    await cache.set('b', 'y');
    expect(await cache.getOrLoad('b', () => 'unused')).toBe('y');
  });

  it('keeps entry and lock of one key in one cluster slot and never stores the key in the clear', () => {
    const cache = createCache(redis.client(), { namespace: 'users', ttlMs: 1000 });
    for (const key of ['user:42', 'ada@example.com', '{tag}', '}', 'a{b}c']) {
      const { entry, lock } = cache.keysFor(key);
      expect(calculateSlot(entry)).toBe(calculateSlot(lock));
      expect(entry).toMatch(/^users:cache1:v1:\{[A-Za-z0-9_-]{22}\}:s$/);
      expect(lock).toBe(`${entry.slice(0, -1)}l`);
    }
  });
});

describe('createCache: TTLs', () => {
  it('spreads the TTLs of 1,000 keys written together across the jitter band', async () => {
    const namespace = ns('jitter');
    const r = redis.client();
    const cache = createCache<number>(r, { namespace, ttlMs: 60_000, jitter: 0.1 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 1000 }, (_, i) => cache.getOrLoad(`k${i}`, () => i)));
    const pipeline = r.pipeline();
    for (let i = 0; i < 1000; i += 1) pipeline.pttl(cache.keysFor(`k${i}`).entry);
    const pttls = ((await pipeline.exec()) ?? []).map(([, v]) => v as number);
    const elapsed = performance.now() - started;
    expect(pttls).toHaveLength(1000);
    expect(Math.min(...pttls)).toBeGreaterThan(0);
    expect(Math.min(...pttls)).toBeGreaterThanOrEqual(54_000 - elapsed - 5);
    expect(Math.max(...pttls)).toBeLessThanOrEqual(66_000);
    expect(Math.max(...pttls) - Math.min(...pttls)).toBeGreaterThan(10_000); // spread over the band
    const perSecond = new Map<number, number>();
    for (const p of pttls) perSecond.set(Math.floor(p / 1000), (perSecond.get(Math.floor(p / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThan(667); // no two-thirds expire in one second
    expect(perSecond.size).toBeGreaterThanOrEqual(11);
  });

  it('jitteredTtl stays in the band and never goes below 1 ms (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 12 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (ttl, jitter, random) => {
          const t = jitteredTtl(ttl, jitter, random);
          expect(Number.isSafeInteger(t)).toBe(true);
          expect(t).toBeGreaterThanOrEqual(Math.max(1, Math.floor(ttl * (1 - jitter))));
          expect(t).toBeLessThanOrEqual(Math.ceil(ttl * (1 + jitter)));
        },
      ),
    );
    expect(jitteredTtl(1, 0.99, 0)).toBe(1);
    expect(jitteredTtl(2, 0.9, 0)).toBe(1);
  });

  it('with ttlMs 1 and jitter 0.99 every write succeeds with a TTL of at least 1 ms', async () => {
    const namespace = ns('tiny');
    const r = redis.client();
    const cache = createCache<number>(r, { namespace, ttlMs: 1, jitter: 0.99, earlyRecompute: false });
    await Promise.all(Array.from({ length: 200 }, (_, i) => cache.set(`k${i}`, i)));
    expect(cache.stats().stores).toBe(0); // set() is not a load
    // nothing without TTL: the afterEach audit; nothing rejected: set() resolved for every key
  });

  it('the scripts reject a TTL <= 0 or a bad lock TTL before writing anything', async () => {
    const r = redis.client();
    const namespace = ns('script');
    const cache = createCache(r, { namespace, ttlMs: 1000 });
    const { entry, lock } = cache.keysFor('k');
    const set = getScript('cache_set').lua;
    await expect(r.eval(set, 2, entry, lock, '', 'v', '"x"', '0', '5')).rejects.toThrow('ttlMs must be an integer >= 1');
    await expect(r.eval(set, 2, entry, lock, '', 'v', '"x"', '-5', '5')).rejects.toThrow('ttlMs must be an integer >= 1');
    await expect(r.eval(set, 2, entry, lock, '', 'v', '"x"', '1.5', '5')).rejects.toThrow('ttlMs must be an integer >= 1');
    await expect(r.eval(set, 2, entry, lock, '', 'x', '"x"', '10', '5')).rejects.toThrow("kind must be 'v' or 'a'");
    await expect(r.eval(set, 2, entry, lock, '', 'v', '"x"', '10', '-1')).rejects.toThrow('deltaMs must be an integer >= 0');
    const get = getScript('cache_get').lua;
    await expect(r.eval(get, 2, entry, lock, 't', '0', '0')).rejects.toThrow('lockTtlMs must be an integer >= 1');
    await expect(r.eval(get, 2, entry, lock, '', '100', '0')).rejects.toThrow('token must be a non-empty string');
    await expect(r.eval(get, 2, entry, lock, 't', '100', '-1')).rejects.toThrow('xfetch must be a number >= 0');
    expect(await r.exists(entry, lock)).toBe(0);
  });

  it('an entry someone left without TTL counts as a miss and is replaced by one with a TTL', async () => {
    const namespace = ns('repair');
    const r = redis.client();
    const cache = createCache<string>(r, { namespace, ttlMs: 2000 });
    const { entry } = cache.keysFor('k');
    const [seconds] = await r.time();
    const past = Number(seconds) * 1000 - 1000;
    // a foreign string, and ours without TTL and past its stamp
    for (const write of [() => r.set(entry, '"old"'), () => r.set(entry, `RT1:${past}:0:v:"old"`)]) {
      await write();
      expect(await cache.getOrLoad('k', () => 'new')).toBe('new');
      const pttl = await r.pttl(entry);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(2200);
      expect(await r.get(entry)).toMatch(/^RT1:\d+:\d+:v:"new"$/);
      await r.del(entry);
    }
  });

  it('readEntry reads what cache_set writes and nothing else', () => {
    expect(parseEntry('RT1:1700000000000:12:v:{"a":1}:x')).toEqual({ expiresAt: 1700000000000, delta: 12, absent: false, payload: '{"a":1}:x' });
    expect(parseEntry('RT1:5:0:a:')).toEqual({ expiresAt: 5, delta: 0, absent: true, payload: '' });
    expect(parseEntry('RT1:5:0:v:line\nbreak')?.payload).toBe('line\nbreak');
    // each number has 1-16 digits
    expect(parseEntry(`RT1:${'1'.repeat(16)}:${'2'.repeat(16)}:v:1`)).toEqual({ expiresAt: 1111111111111111, delta: 2222222222222222, absent: false, payload: '1' });
    for (const text of [`RT1:${'1'.repeat(17)}:0:v:x`, `RT1:5:${'1'.repeat(17)}:v:x`, 'RT1:5', 'RT1:5:', 'RT1:5:0', 'RT1:5:0:', 'rt1:5:0:v:x', 'RT1;5:0:v:x', 'RT1:-5:0:v:x', 'RT1:5:0:a']) {
      expect(parseEntry(text)).toBeNull();
    }
    for (const text of [null, 42, '', 'RT1:', 'RT1::0:v:x', 'RT1:5::v:x', 'RT1:5:0:x:y', 'RT1:5:0:v', 'RT2:5:0:v:x', 'RT1:5a:0:v:x', '"old"']) {
      expect(parseEntry(text)).toBeNull();
    }
  });
});

describe('createCache: early recomputation (XFetch)', () => {
  it('a steady stream of reads across many expiries sees no miss after warm-up; one load per TTL period or so', async () => {
    const namespace = ns('xfetch');
    const ttlMs = 400;
    const cache = createCache<number>(redis.client(), { namespace, ttlMs, jitter: 0, earlyRecompute: { beta: 4 } });
    let version = 0;
    const loader = async () => {
      await sleep(10);
      version += 1;
      return version;
    };
    expect(await cache.getOrLoad('hot', loader)).toBe(1); // warm-up: the one miss
    const durationMs = 2000;
    const until = performance.now() + durationMs;
    const seen: number[] = [];
    let backwards = 0;
    // A read draws a recomputation t ms before the expiry with probability exp(-t / (delta * beta)):
    // with delta ~10 ms and beta 4, at ~2 reads per ms the first draw comes ~175 ms before the
    // expiry, and still ~80 ms before it when load slows the readers tenfold (beta 2 left ~30 ms
    // there, less than a loaded machine's load and SET took: a miss with no stall to excuse it). A
    // machine under load can stall the process or the server that long: such stalls (gaps of more
    // than STALL_MS between two completed reads, of any reader) are counted, and each may excuse
    // one miss. On a machine that does not stall, exactly the warm-up miss is allowed.
    const STALL_MS = 50;
    let stalls = 0;
    let lastDone = performance.now();
    // 8 readers, each reading every 2-5 ms: about 2 reads per ms in total
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        let last = 0;
        while (performance.now() < until) {
          const v = (await cache.getOrLoad('hot', loader)) ?? -1;
          const now = performance.now();
          if (now - lastDone > STALL_MS) stalls += 1;
          lastDone = now;
          if (v < last) backwards += 1; // each reader's reads are sequential: versions only move forward
          last = v;
          seen.push(v);
          await sleep(2 + Math.random() * 3);
        }
      }),
    );
    if (process.env.CACHE_TEST_VERBOSE) console.log({ reads: seen.length, stalls, ...cache.stats() });
    const stats = cache.stats();
    expect(stats.misses).toBeLessThanOrEqual(1 + stalls);
    expect(stats.waits).toBeLessThanOrEqual(stalls);
    // every read after the warm-up is a hit, an excused miss, or joined one of those in flight
    expect(stats.hits + stats.misses + stats.joined - 1).toBe(seen.length);
    expect(seen.length).toBeGreaterThan(200);
    // the loader runs about once per period: 2000 / 400 = 5 expiries would have happened
    const periods = durationMs / ttlMs;
    expect(stats.refreshes + (stats.misses - 1)).toBeGreaterThanOrEqual(periods - 1);
    expect(stats.refreshes).toBeLessThanOrEqual(periods * 2.5);
    expect(stats.storesRefused).toBe(0);
    expect(backwards).toBe(0);
  });

  it('one caller at a time recomputes early, in the background; the others get the cached value at once', async () => {
    const namespace = ns('onerefresh');
    // a huge beta makes every hit want to recompute: only the lock stops them
    const cache = createCache<number>(redis.client(), { namespace, ttlMs: 60_000, earlyRecompute: { beta: 1e300 } });
    let loads = 0;
    let finish: (() => void) | undefined;
    const first = async () => {
      loads += 1;
      await sleep(5); // a measurable load time (delta > 0)
      return 1;
    };
    expect(await cache.getOrLoad('k', first)).toBe(1);
    const slow = () => {
      loads += 1;
      return new Promise<number>((resolve) => (finish = () => resolve(2)));
    };
    const results = await Promise.all(Array.from({ length: 50 }, () => cache.getOrLoad('k', slow)));
    expect(results).toEqual(Array(50).fill(1));
    expect(loads).toBe(2);
    // every hit wants to recompute: the first runs the script, the others join its read
    expect(cache.stats()).toMatchObject({ hits: 1, joined: 49, misses: 1, refreshes: 1 });
    finish?.();
    const r = redis.client();
    await waitFor(async () => (await stored(r, cache.keysFor('k').entry))?.payload === '2');
    expect(cache.stats().stores).toBe(2);
    expect(await r.exists(cache.keysFor('k').lock)).toBe(0);
  });

  it.each([
    ['an hour ahead of', 3_600_000],
    ['a minute behind', -60_000],
  ])('with the client clock %s Redis, hits stay one GET and entries are still recomputed before they expire', async (_label, skew) => {
    const namespace = ns('skew');
    const r = redis.client();
    const realNow = Date.now;
    Date.now = () => realNow() + skew;
    try {
      const cache = createCache<number>(r, { namespace, ttlMs: 1_000, jitter: 0, earlyRecompute: { beta: 5 } });
      let version = 0;
      const loader = async () => {
        await sleep(10);
        version += 1;
        return version;
      };
      expect(await cache.getOrLoad('hot', loader)).toBe(1); // the miss: its script reply carries Redis' clock
      const scripts = async (): Promise<number> => {
        const info = await r.info('commandstats');
        return [...info.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
      };
      const before = await scripts();
      for (let i = 0; i < 100; i += 1) await cache.getOrLoad('hot', loader);
      // far from the expiry no hit runs the script (an hour ahead, every hit did)
      expect((await scripts()) - before).toBeLessThanOrEqual(2);
      // near it, a read recomputes in the background (a minute behind, none ever did)
      const until = performance.now() + 3_000;
      while (performance.now() < until && cache.stats().refreshes === 0) {
        await cache.getOrLoad('hot', loader);
        await sleep(2);
      }
      expect(cache.stats().refreshes).toBe(1);
    } finally {
      Date.now = realNow;
    }
  });

  it('with earlyRecompute off the entry expires and the next read is a miss', async () => {
    const namespace = ns('noxfetch');
    const ttlMs = 400;
    const cache = createCache<number>(redis.client(), { namespace, ttlMs, jitter: 0, earlyRecompute: false });
    let loads = 0;
    const loader = () => ++loads;
    // The entry is stored after `started`, so it cannot expire before started + ttlMs: a read that
    // has returned by then must be a hit on version 1. Reads go on through most of the TTL, where
    // XFetch would recompute early; a loaded machine may stretch the loop past the expiry, and a
    // later read may then be a plain miss, but never a refresh.
    const started = performance.now();
    expect(await cache.getOrLoad('k', loader)).toBe(1);
    let certainHits = 0;
    while (performance.now() - started < ttlMs * 0.8) {
      const v = await cache.getOrLoad('k', loader);
      if (performance.now() - started < ttlMs) {
        expect(v).toBe(1);
        certainHits += 1;
      }
      await sleep(5);
    }
    if (process.env.CACHE_TEST_VERBOSE) console.log({ certainHits, ...cache.stats() });
    expect(cache.stats().refreshes).toBe(0);
    expect(cache.stats().misses).toBe(loads); // every load came from a miss, none ran in the background
    await sleep(ttlMs + 50);
    const before = loads;
    expect(await cache.getOrLoad('k', loader)).toBe(before + 1);
    expect(cache.stats()).toMatchObject({ misses: before + 1, refreshes: 0 });
  });

  it('stores the measured load time beside the value and the expiry on the server clock', async () => {
    const namespace = ns('meta');
    const r = redis.client();
    const cache = createCache<string>(r, { namespace, ttlMs: 5000, jitter: 0 });
    const [before] = await r.time();
    await cache.getOrLoad('k', async () => {
      await sleep(40);
      return 'v';
    });
    const [after] = await r.time();
    const entry = await stored(r, cache.keysFor('k').entry);
    expect(entry?.delta).toBeGreaterThanOrEqual(35);
    expect(entry?.delta).toBeLessThan(2000);
    // written between `before` and `after` (whole seconds of the server clock) with a TTL of 5000 ms
    expect(entry?.expiresAt).toBeGreaterThanOrEqual(Number(before) * 1000 + 5000);
    expect(entry?.expiresAt).toBeLessThan((Number(after) + 1) * 1000 + 5000);
    expect(entry?.payload).toBe('"v"');
    expect(entry?.absent).toBe(false);
  });
});

describe('createCache: negative caching', () => {
  it.each([
    ['NotFound', NotFound],
    ['undefined', undefined],
  ] as const)('caches an absent (%s) for negativeTtlMs only', async (_label, absent) => {
    const namespace = ns('negative');
    const r = redis.client();
    const cache = createCache<string>(r, { namespace, ttlMs: 60_000, negativeTtlMs: 1000, jitter: 0.1 });
    let calls = 0;
    let exists = false;
    const loader = () => {
      calls += 1;
      return exists ? 'created' : absent;
    };
    const { entry } = cache.keysFor('k');
    // The absent is stored after `started` with a TTL of at least 900 ms: what returns before
    // started + 900 ms sees it for sure. (A loaded machine may take longer; then only the rest holds.)
    const started = performance.now();
    expect(await cache.getOrLoad('k', loader)).toBeUndefined();
    expect(await cache.getOrLoad('k', loader)).toBeUndefined();
    const pttl = await r.pttl(entry);
    const absentField = (await stored(r, entry))?.absent;
    if (performance.now() - started < 900) {
      expect(calls).toBe(1);
      expect(pttl).toBeGreaterThan(0);
      expect(absentField).toBe(true);
    }
    expect(pttl).toBeLessThanOrEqual(1100);
    exists = true;
    await waitFor(async () => (await r.exists(entry)) === 0, 3000);
    const before = calls;
    expect(await cache.getOrLoad('k', loader)).toBe('created');
    expect(calls).toBe(before + 1);
    expect(await r.pttl(entry)).toBeGreaterThan(50_000); // the value gets the full TTL
    expect((await stored(r, entry))?.absent).toBe(false); // nothing of the old entry survives
  });
});

describe('createCache: invalidate and set', () => {
  it('invalidate deletes the entry; the next read loads again', async () => {
    const namespace = ns('inval');
    const cache = createCache<number>(redis.client(), { namespace, ttlMs: 60_000 });
    let n = 0;
    expect(await cache.getOrLoad('k', () => ++n)).toBe(1);
    expect(await cache.invalidate('k')).toBe(true);
    expect(await cache.invalidate('k')).toBe(false);
    expect(await cache.getOrLoad('k', () => ++n)).toBe(2);
  });

  it('a load in flight when invalidate runs returns its value but does not store it', async () => {
    const namespace = ns('race');
    const r = redis.client();
    const cache = createCache<string>(r, { namespace, ttlMs: 60_000 });
    const pending = cache.getOrLoad('k', async () => {
      await sleep(100);
      return 'read before the write';
    });
    await waitFor(async () => (await r.exists(cache.keysFor('k').lock)) === 1);
    await cache.invalidate('k'); // after the database write
    expect(await pending).toBe('read before the write');
    expect(cache.stats()).toMatchObject({ stores: 0, storesRefused: 1 });
    expect(await r.exists(cache.keysFor('k').entry)).toBe(0);
  });

  it('secondDeleteAfterMs deletes again later (a late stale write does not survive)', async () => {
    const namespace = ns('double');
    const r = redis.client();
    const cache = createCache<string>(r, { namespace, ttlMs: 60_000 });
    await cache.set('k', 'v1');
    await cache.invalidate('k', { secondDeleteAfterMs: 100 });
    await cache.set('k', 'stale, from a lagging replica');
    expect(await r.exists(cache.keysFor('k').entry)).toBe(1);
    await waitFor(async () => (await r.exists(cache.keysFor('k').entry)) === 0, 2000);
  });

  it('set writes with the jittered TTL, keeps the measured load time and beats a load in flight', async () => {
    const namespace = ns('set');
    const r = redis.client();
    const cache = createCache<{ n: number }>(r, { namespace, ttlMs: 10_000, jitter: 0.2 });
    const { entry } = cache.keysFor('k');
    await cache.getOrLoad('k', async () => {
      await sleep(30);
      return { n: 1 };
    });
    const delta = (await stored(r, entry))?.delta;
    expect(delta).toBeGreaterThanOrEqual(25);
    await cache.set('k', { n: 2 });
    expect((await stored(r, entry))?.delta).toBe(delta);
    const pttl = await r.pttl(entry);
    expect(pttl).toBeGreaterThan(7000);
    expect(pttl).toBeLessThanOrEqual(12_000);
    expect(await cache.getOrLoad('k', () => ({ n: 0 }))).toEqual({ n: 2 });

    await cache.invalidate('k');
    const pending = cache.getOrLoad('k', async () => {
      await sleep(100);
      return { n: 3 };
    });
    await waitFor(async () => (await r.exists(cache.keysFor('k').lock)) === 1);
    await cache.set('k', { n: 4 });
    expect(await pending).toEqual({ n: 3 });
    expect(await cache.getOrLoad('k', () => ({ n: 0 }))).toEqual({ n: 4 });
    await cache.set('k', NotFound);
    expect((await stored(r, entry))?.absent).toBe(true);
    expect(await r.pttl(entry)).toBeLessThanOrEqual(12_000);
  });

  it('uses a pluggable serializer', async () => {
    const namespace = ns('serial');
    const r = redis.client();
    const cache = createCache<Date>(r, {
      namespace,
      ttlMs: 10_000,
      serializer: { serialize: (d) => String(d.getTime()), deserialize: (s) => new Date(Number(s)) },
    });
    const when = new Date(1_700_000_000_000);
    expect(await cache.getOrLoad('k', () => when)).toBe(when);
    const hit = await cache.getOrLoad('k', () => new Date(0));
    expect(hit).toBeInstanceOf(Date);
    expect(hit?.getTime()).toBe(when.getTime());
    expect((await stored(r, cache.keysFor('k').entry))?.payload).toBe('1700000000000');
  });
});

describe('createCache: argument validation (before any Redis call)', () => {
  const base: CacheOptions<unknown> = { namespace: 'valid', ttlMs: 1000 };
  const make = (patch: Record<string, unknown>) => () =>
    createCache(redis.client(), { ...base, ...patch } as CacheOptions<unknown>);

  it.each([
    [{ ttlMs: 0 }, new RangeError('ttlMs must be an integer >= 1, got 0')],
    [{ ttlMs: 1.5 }, new RangeError('ttlMs must be an integer >= 1, got 1.5')],
    [{ ttlMs: '100' }, new TypeError('ttlMs must be a number, got a string')],
    [{ ttlMs: undefined }, new TypeError('ttlMs must be a number, got undefined')],
    [{ jitter: 1 }, new RangeError('jitter must be a number >= 0 and < 1, got 1')],
    [{ jitter: -0.1 }, new RangeError('jitter must be a number >= 0 and < 1, got -0.1')],
    [{ jitter: Number.NaN }, new RangeError('jitter must be a number >= 0 and < 1, got NaN')],
    [{ jitter: '0.1' }, new TypeError('jitter must be a number, got a string')],
    [{ lockTtlMs: 0 }, new RangeError('lockTtlMs must be an integer >= 1, got 0')],
    [{ lockTtlMs: 2.5 }, new RangeError('lockTtlMs must be an integer >= 1, got 2.5')],
    [{ maxWaitMs: -1 }, new RangeError('maxWaitMs must be an integer >= 0, got -1')],
    [{ negativeTtlMs: 0 }, new RangeError('negativeTtlMs must be an integer >= 1, got 0')],
    [{ earlyRecompute: { beta: 0 } }, new RangeError('earlyRecompute.beta must be a finite number > 0, got 0')],
    [{ earlyRecompute: 'yes' }, new TypeError('earlyRecompute must be a boolean or an object { beta }, got a string')],
    [{ serializer: { serialize: JSON.stringify } }, new TypeError('serializer must be an object with serialize and deserialize functions')],
    [{ onBackgroundError: 1 }, new TypeError('onBackgroundError must be a function, got 1')],
    [{ namespace: '' }, new RangeError('namespace must not be empty')],
    [{ namespace: 3 }, new TypeError('namespace must be a string, got 3')],
    [
      { namespace: 'a:b' },
      new RangeError("namespace must be 1-64 characters of A-Z a-z 0-9 _ . - (no ':', '{', '}'), got 'a:b'"),
    ],
    [{ version: 'v{1}' }, new RangeError("version must be 1-64 characters of A-Z a-z 0-9 _ . - (no ':', '{', '}'), got 'v{1}'")],
    [{ ttlMs: Number.MAX_SAFE_INTEGER, jitter: 0.5 }, new RangeError('ttlMs * (1 + jitter) must be below 2^53')],
    [
      { ttl: 1000 },
      new TypeError(
        'createCache: unknown option "ttl"; the options are namespace, version, ttlMs, jitter, lockTtlMs, maxWaitMs, earlyRecompute, negativeTtlMs, serializer, onBackgroundError, timeoutMs, redisProbeIntervalMs, onRedisError, staleIfErrorMs, staleMaxBytes, loadErrorBackoffMs',
      ),
    ],
  ])('%o', (patch, error) => {
    expect(make(patch)).toThrow(error);
  });

  it('rejects a missing options object', () => {
    expect(() => createCache(redis.client(), undefined as unknown as CacheOptions<unknown>)).toThrow(
      new TypeError('options must be an object'),
    );
  });

  it('checks call arguments and serializer output, and writes nothing', async () => {
    const namespace = ns('args');
    const r = redis.client();
    const cache: Cache<unknown> = createCache(r, { namespace, ttlMs: 1000 });
    await expect(cache.getOrLoad('', () => 1)).rejects.toThrow(new RangeError('key must not be empty'));
    await expect(cache.getOrLoad(5 as unknown as string, () => 1)).rejects.toThrow(new TypeError('key must be a string, got 5'));
    await expect(cache.getOrLoad('k', 'nope' as unknown as () => number)).rejects.toThrow(
      new TypeError('loader must be a function, got a string'),
    );
    await expect(cache.invalidate('k', { secondDeleteAfterMs: 0 })).rejects.toThrow(
      new RangeError('secondDeleteAfterMs must be an integer >= 1 and <= 2147483647, got 0'),
    );
    await expect(cache.set('', 1)).rejects.toThrow(new RangeError('key must not be empty'));
    // JSON.stringify(() => 1) is undefined: not storable
    await expect(cache.getOrLoad('k', () => () => 1)).rejects.toThrow(
      new TypeError('serializer.serialize must return a string, got undefined'),
    );
    await expect(cache.set('k', () => 1)).rejects.toThrow(new TypeError('serializer.serialize must return a string, got undefined'));
    const { entry, lock } = cache.keysFor('k');
    expect(await r.exists(entry, lock)).toBe(0); // the lock was released too
    expect(() => cache.keysFor('')).toThrow(new RangeError('key must not be empty'));
  });
});

describe('createCache on Redis Cluster (entry and lock in one slot, no CROSSSLOT)', () => {
  let handle: RedisClusterHandle | undefined;
  let cluster: Cluster | undefined;

  beforeAll(async () => {
    handle = await startRedisCluster();
    cluster = await connectCluster(handle);
  });

  afterAll(async () => {
    await cluster?.quit();
    await handle?.stop();
  });

  it('loads once per key, stores, invalidates, and leaves only keys with a TTL on every master', async () => {
    const c = cluster!;
    const namespace = uniquePrefix('cluster');
    const cache = createCache<string>(c, { namespace, ttlMs: 5000, lockTtlMs: 1000, negativeTtlMs: 1000 });
    const keys = Array.from({ length: 12 }, (_, i) => `item:${i}`);
    expect(new Set(keys.map((k) => calculateSlot(cache.keysFor(k).entry))).size).toBeGreaterThan(3);
    const calls = new Map<string, number>();
    const load = (key: string) => async () => {
      calls.set(key, (calls.get(key) ?? 0) + 1);
      await sleep(20);
      return key.endsWith('7') ? NotFound : `value of ${key}`;
    };
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => cache.getOrLoad(keys[i % 12]!, load(keys[i % 12]!))),
    );
    expect([...calls.values()]).toEqual(Array(12).fill(1));
    expect(results[7]).toBeUndefined();
    expect(results[3]).toBe('value of item:3');
    await cache.set('item:3', 'written through');
    expect(await cache.getOrLoad('item:3', load('item:3'))).toBe('written through');
    expect(await cache.invalidate('item:3', { secondDeleteAfterMs: 10 })).toBe(true);
    await sleep(50);
    const leaks: string[] = [];
    for (const node of c.nodes('master')) {
      let cursor = '0';
      do {
        const [next, found] = await node.scan(cursor, 'MATCH', `${namespace}:*`, 'COUNT', 1000);
        cursor = next;
        for (const key of found) if ((await node.pttl(key)) === -1) leaks.push(key);
      } while (cursor !== '0');
    }
    expect(leaks).toEqual([]);
  });
});
