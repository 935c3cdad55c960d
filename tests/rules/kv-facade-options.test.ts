/**
 * An application's own KV facade read as a Redis client (round 24): `kv()` returns the code's
 * interface `KV`, which `class RedisKV implements KV`; its `set(key, value, { ex, nx })` translates
 * the options object into `'EX', seconds` / `'NX'` before calling ioredis. The interface is no
 * duck-typed client (`redis-calls/implemented-interfaces.ts`), so ioredis' argument grammar does
 * not apply to `kv().set(...)`; the call is read through the facade's arm its options choose
 * (`redis-calls/option-arms.ts`). Limits kept: the facade's own body is judged as ioredis code,
 * a receiver typed as a real client stays one whatever its name, and an interface no class of the
 * code implements (or only a test's mock) stays a duck-typed client.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** The TTL rules of `recommended` these tests lint with, with their default options. */
const TTL_RULES: Record<string, undefined> = { 'valid-ttl-args': undefined, 'set-requires-ttl-or-keepttl': undefined, 'incr-needs-expire-on-create': undefined, 'ttl-units': undefined };

/** Lints `target` of an application made of `files` with {@link TTL_RULES}; [rule, messageId, line, column] per finding. */
function lint(files: Record<string, string>, target: string): Array<[string | undefined, string | undefined, number, number]> {
  return lintApplication(roots, files, target, TTL_RULES, []);
}

const KV_INTERFACE = `export interface KV {
  set(key: string, value: string, opts?: { ex?: number; nx?: boolean }): Promise<boolean>;
  incr(key: string): Promise<number>;
  expire(key: string, seconds: number): Promise<void>;
  hset(key: string, values: Record<string, string>): Promise<void>;
  del(...keys: string[]): Promise<number>;
}
`;

const REDIS_KV = `import Redis from 'ioredis';
import type { KV } from './kv';
export class RedisKV implements KV {
  constructor(private readonly client: Redis) {}
  async set(key: string, value: string, opts?: { ex?: number; nx?: boolean }) {
    let res: string | null;
    if (opts?.ex !== undefined && opts.nx) {
      res = await this.client.set(key, value, 'EX', opts.ex, 'NX');
    } else if (opts?.ex !== undefined) {
      res = await this.client.set(key, value, 'EX', opts.ex);
    } else if (opts?.nx) {
      res = await this.client.set(key, value, 'NX');
    } else {
      res = await this.client.set(key, value);
    }
    return res === 'OK';
  }
  incr(key: string) { return this.client.incr(key); }
  async expire(key: string, seconds: number) { await this.client.expire(key, seconds); }
  async hset(key: string, values: Record<string, string>) { await this.client.hset(key, values); }
  del(...keys: string[]) { return keys.length ? this.client.del(...keys) : Promise.resolve(0); }
}
`;

const MEMORY_KV = `import type { KV } from './kv';
export class MemoryKV implements KV {
  private store = new Map<string, string>();
  async set(key: string, value: string, opts?: { ex?: number; nx?: boolean }) { if (opts?.nx && this.store.has(key)) return false; this.store.set(key, value); return true; }
  async incr(key: string) { const n = Number(this.store.get(key) ?? 0) + 1; this.store.set(key, String(n)); return n; }
  async expire(_key: string, _seconds: number) {}
  async hset(key: string, values: Record<string, string>) { this.store.set(key, JSON.stringify(values)); }
  async del(...keys: string[]) { let n = 0; for (const k of keys) if (this.store.delete(k)) n++; return n; }
}
`;

const CLIENT = `import Redis from 'ioredis';
import type { KV } from './kv';
import { RedisKV } from './redis-kv';
import { MemoryKV } from './memory-kv';
let instance: KV | null = null;
export function kv(): KV {
  if (instance) return instance;
  instance = process.env.REDIS_URL ? new RedisKV(new Redis(process.env.REDIS_URL)) : new MemoryKV();
  return instance;
}
`;

const APP = { 'lib/redis/kv.ts': KV_INTERFACE, 'lib/redis/redis-kv.ts': REDIS_KV, 'lib/redis/memory-kv.ts': MEMORY_KV, 'lib/redis/client.ts': CLIENT };

describe('an application KV facade is no client: its options object is read through the arm it chooses', () => {
  it('reads { ex } and { ex, nx } as SET EX, and no options or { nx } alone as a SET without TTL', () => {
    const store = `import { kv } from './redis/client';
export async function save(id: string, opts: { ex?: number }) {
  await kv().set(\`user:\${id}\`, 'x', { ex: 60 });
  await kv().set(\`lock:\${id}\`, 'x', { ex: 60, nx: true });
  await kv().set(\`perm:\${id}\`, 'x');
  await kv().set(\`flag:\${id}\`, 'x', { nx: true });
  await kv().set(\`opaque:\${id}\`, 'x', opts);
}
`;
    expect(lint({ ...APP, 'lib/store.ts': store }, 'lib/store.ts')).toEqual([
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 14],
      // SET NX without expiry: the NX arm
      ['set-requires-ttl-or-keepttl', 'createWithoutTtl', 6, 14],
    ]);
  });

  it('reads the facade of another shape: a default options object, early returns, a typeof test, a property named ttl', () => {
    const client = `import Redis from 'ioredis';
export interface Store {
  put(key: string, value: string, options?: { ttl?: number }): Promise<unknown>;
  incr(key: string): Promise<number>;
  expire(key: string, seconds: number): Promise<unknown>;
}
class RedisStore implements Store {
  constructor(private readonly redis: Redis) {}
  put(key: string, value: string, options: { ttl?: number } = {}) {
    if (typeof options.ttl === 'number') return this.redis.set(key, value, 'EX', options.ttl);
    return this.redis.set(key, value);
  }
  incr(key: string) { return this.redis.incr(key); }
  expire(key: string, seconds: number) { return this.redis.expire(key, seconds); }
}
export const store: Store = new RedisStore(new Redis());
`;
    const caller = `import { store } from './store';
export async function f(id: string) {
  await store.put(\`a:\${id}\`, 'x', { ttl: 30 });
  await store.put(\`b:\${id}\`, 'x');
  await store.put(\`c:\${id}\`, 'x', {});
}
`;
    expect(lint({ 'src/store.ts': client, 'src/caller.ts': caller }, 'src/caller.ts')).toEqual([
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 4, 15],
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 15],
    ]);
  });

  it('reads a DEL facade of a rest parameter as a deletion of the caller keys (an HSET deleted elsewhere)', () => {
    const store = `import { kv } from './redis/client';
export async function join(id: string) {
  await kv().hset(\`meta:\${id}\`, { a: 'b' });
  await kv().hset(\`kept:\${id}\`, { a: 'b' });
}
export async function leave(id: string) {
  await kv().del(\`meta:\${id}\`);
}
`;
    expect(lint({ ...APP, 'lib/store.ts': store }, 'lib/store.ts')).toEqual([['incr-needs-expire-on-create', 'noExpiry', 4, 14]]);
  });

  it('leaves the facade body alone when its callers are read', () => {
    const store = `import { kv } from './client';
export async function f(id: string) {
  await kv().set(\`user:\${id}\`, 'x', { ex: 60 });
}
`;
    expect(lint({ ...APP, 'lib/redis/store.ts': store }, 'lib/redis/redis-kv.ts')).toEqual([]);
  });

  it('still judges the facade body itself as ioredis code (an options object passed to ioredis), and in place when it is no options facade', () => {
    const redisKv = REDIS_KV.replace("res = await this.client.set(key, value, 'EX', opts.ex);", 'res = await this.client.set(key, value, { EX: opts.ex });');
    const store = `import { kv } from './client';
export async function f(id: string) {
  await kv().set(\`user:\${id}\`, 'x', { ex: 60 });
}
`;
    expect(lint({ ...APP, 'lib/redis/redis-kv.ts': redisKv, 'lib/redis/store.ts': store }, 'lib/redis/redis-kv.ts')).toEqual([
      ['valid-ttl-args', 'objectOptions', 10, 47],
      // an arm ioredis reads no expiry in: no options facade, its SETs are judged where they are
      ['set-requires-ttl-or-keepttl', 'createWithoutTtl', 12, 31],
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 14, 31],
    ]);
  });

  it('keeps a receiver typed as a real client a client, whatever its name', () => {
    const client = `import Redis from 'ioredis';
const redis = new Redis();
export function kv(): Redis {
  return redis;
}
`;
    const store = `import { kv } from './client';
export async function f(id: string) {
  await kv().set(\`user:\${id}\`, 'x', { ex: 60 });
}
`;
    expect(lint({ 'lib/client.ts': client, 'lib/store.ts': store }, 'lib/store.ts')).toEqual([['valid-ttl-args', 'objectOptions', 3, 37]]);
  });

  it('keeps an interface only a test mock implements a duck-typed client', () => {
    const limiter = `export interface RedisLike {
  incr(key: string): Promise<number>;
  expire(key: string, seconds: number): Promise<number>;
}
export async function hit(redis: RedisLike, ip: string) {
  return redis.incr(\`hits:\${ip}\`);
}
`;
    const mock = `import type { RedisLike } from '../src/limiter';
export class FakeRedis implements RedisLike {
  async incr(_key: string) { return 1; }
  async expire(_key: string, _seconds: number) { return 1; }
}
`;
    expect(lint({ 'src/limiter.ts': limiter, 'test/fake-redis.ts': mock }, 'src/limiter.ts')).toEqual([['incr-needs-expire-on-create', 'noExpiry', 6, 16]]);
  });

  it('keeps an implemented interface of keys, values and numbers only (no options object) a duck-typed client: its calls forward a client grammar', () => {
    const port = `export interface CachePort {
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  incr(key: string): Promise<number>;
  expire(key: string, seconds: number): Promise<number>;
}
`;
    const adapter = `import Redis from 'ioredis';
import type { CachePort } from './cache.port';
const redis = new Redis();
export class RedisCacheAdapter implements CachePort {
  async set(key: string, value: string, ttlSeconds?: number) { if (ttlSeconds) await redis.set(key, value, 'EX', ttlSeconds); else await redis.set(key, value); }
  incr(key: string) { return redis.incr(key); }
  expire(key: string, seconds: number) { return redis.expire(key, seconds); }
}
`;
    const lock = `import type { CachePort } from './cache.port';
export class QueryCache {
  constructor(private cache: CachePort) {}
  async lock(name: string) {
    const n = await this.cache.incr(\`lock:\${name}\`);
    if (n === 1) await this.cache.expire(\`lock:\${name}\`, 30);
    return n === 1;
  }
}
`;
    expect(lint({ 'src/cache.port.ts': port, 'src/cache.redis.ts': adapter, 'src/query-cache.ts': lock }, 'src/query-cache.ts')).toEqual([['incr-needs-expire-on-create', 'separateRoundTrip', 5, 32]]);
  });
});
