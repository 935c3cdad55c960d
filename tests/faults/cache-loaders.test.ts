/**
 * A slow database, then a failing one, behind `createCache`: four caches (four processes, each
 * with its own client) and 40 callers each read five keys in loops. Whatever the database does,
 * at most one load per key runs at a time across all of them; a load slower than `lockTtlMs` and
 * `maxWaitMs` is still the only one (its lock is renewed; waiters past `maxWaitMs` answer without
 * loading); a failing load is shared and backed off (its failures come at most once per back-off
 * per key, doubling); every answer comes within `maxWaitMs` plus a slack (or the load's own time
 * for the caller sharing it); no key is left without a TTL.
 */
import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheLoadError, createCache, type Cache } from '../../runtime/index.js';
import { needsOwnServer } from '../helpers/redis.js';
import { keysWithoutTtl } from './measure.js';
import { startOwnServer, type OwnServer } from './servers.js';

const KEYS = ['a', 'b', 'c', 'd', 'e'];
const CACHES = 4;
const CALLERS = 40;

/** The database: every load of a key, and how many ran at once at most. */
class Database {
  mode: 'slow' | 'failing' | 'healthy' = 'healthy';
  slowMs = 1_200;
  readonly loads = new Map<string, number>();
  readonly running = new Map<string, number>();
  maxRunning = 0;

  loader(key: string): () => Promise<string> {
    return async () => {
      this.loads.set(key, (this.loads.get(key) ?? 0) + 1);
      const running = (this.running.get(key) ?? 0) + 1;
      this.running.set(key, running);
      this.maxRunning = Math.max(this.maxRunning, running);
      try {
        await sleep(this.mode === 'slow' ? this.slowMs : 20);
        if (this.mode === 'failing') throw new Error('database unavailable');
        return `${key}@${Date.now()}`;
      } finally {
        this.running.set(key, (this.running.get(key) ?? 1) - 1);
      }
    };
  }

  resetCounts(): void {
    this.loads.clear();
    this.maxRunning = 0;
  }
}

/** Answers of every kind, and the slowest one in ms. */
interface Answers {
  kinds: Map<string, number>;
  slowestMs: number;
}

async function readLoops(caches: Array<Cache<string>>, db: Database, durationMs: number): Promise<Answers> {
  const kinds = new Map<string, number>();
  let slowestMs = 0;
  const until = performance.now() + durationMs;
  await Promise.all(
    caches.flatMap((cache, c) =>
      Array.from({ length: CALLERS }, async (_, i) => {
        for (let n = i; performance.now() < until; n += 1) {
          const key = KEYS[(n + c) % KEYS.length]!;
          const started = performance.now();
          let kind: string;
          try {
            kind = (await cache.getOrLoad(key, db.loader(key))) === undefined ? 'undefined' : 'value';
          } catch (error) {
            kind = error instanceof CacheLoadError ? `CacheLoadError ${error.reason}` : (error as Error).message;
          }
          slowestMs = Math.max(slowestMs, performance.now() - started);
          kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
          await sleep(5 + Math.random() * 10);
        }
      }),
    ),
  );
  return { kinds, slowestMs };
}

describe.skipIf(needsOwnServer('the fault tests run a redis-server of their own'))('createCache under a slow, then failing database', () => {
  let server: OwnServer;
  const clients: Redis[] = [];
  beforeAll(async () => {
    server = await startOwnServer();
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await server?.stop();
  });

  function caches(namespace: string, options: { ttlMs: number; lockTtlMs: number; maxWaitMs: number; loadErrorBackoffMs: number }): Array<Cache<string>> {
    return Array.from({ length: CACHES }, () => {
      const client = new Redis(server.url);
      clients.push(client);
      return createCache<string>(client, { namespace, ...options, jitter: 0, earlyRecompute: false });
    });
  }

  it('slow loads (longer than lockTtlMs and maxWaitMs): one at a time per key; waiters answer at maxWaitMs without loading', async () => {
    const db = new Database();
    db.mode = 'slow';
    const all = caches('slowdb', { ttlMs: 60_000, lockTtlMs: 300, maxWaitMs: 500, loadErrorBackoffMs: 200 });
    const answers = await readLoops(all, db, 3_000);
    expect(db.maxRunning).toBe(1);
    // each key loaded once (its entry then lives 60 s): the lock, renewed, outlived every wait
    for (const key of KEYS) expect(db.loads.get(key), key).toBe(1);
    expect([...answers.kinds.keys()].sort()).toEqual(['CacheLoadError timeout', 'value']);
    // a caller of the process that loads shares the load (1.2 s); every other answer came by maxWaitMs
    expect(answers.slowestMs).toBeLessThan(db.slowMs + 1_000);
    const stats = all.map((c) => c.stats());
    expect(stats.reduce((n, s) => n + s.loads, 0)).toBe(KEYS.length);
    expect(stats.reduce((n, s) => n + s.storesRefused, 0)).toBe(0);
    expect(await keysWithoutTtl(clients[0]!)).toEqual([]);
  }, 30_000);

  it('failing loads: shared and backed off (doubling) across processes, then a healthy database is read again', async () => {
    const db = new Database();
    db.mode = 'failing';
    const all = caches('faildb', { ttlMs: 60_000, lockTtlMs: 5_000, maxWaitMs: 1_000, loadErrorBackoffMs: 200 });
    const answers = await readLoops(all, db, 3_000);
    expect(db.maxRunning).toBe(1);
    // back-offs of 200, 400, 800, 1600 ms: at most 5 loads per key in 3 s (before: one per caller and retry)
    for (const key of KEYS) {
      expect(db.loads.get(key), key).toBeGreaterThanOrEqual(2);
      expect(db.loads.get(key), key).toBeLessThanOrEqual(5);
    }
    expect([...answers.kinds.keys()].sort()).toEqual(['CacheLoadError failed', 'database unavailable']);
    expect(answers.slowestMs).toBeLessThan(1_000);
    const failed = answers.kinds.get('CacheLoadError failed')!;
    const errors = answers.kinds.get('database unavailable')!;
    expect(failed).toBeGreaterThan(10 * errors);
    // the database is back: once each key's back-off ends (at most 3.2 s), one load per key, then hits
    db.mode = 'healthy';
    db.resetCounts();
    for (const key of KEYS) {
      const until = performance.now() + 10_000;
      while ((await all[0]!.getOrLoad(key, db.loader(key)).catch(() => undefined)) === undefined) {
        expect(performance.now()).toBeLessThan(until);
        await sleep(50);
      }
    }
    const healthy = await readLoops(all, db, 1_000);
    expect([...healthy.kinds.keys()]).toEqual(['value']);
    for (const key of KEYS) expect(db.loads.get(key), key).toBe(1);
    expect(await keysWithoutTtl(clients[0]!)).toEqual([]);
  }, 30_000);
});
