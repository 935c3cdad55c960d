/** Shared test plumbing: one Redis per test file, clients, unique prefixes, SCAN audits. */
import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startRedis, type RedisHandle } from './redis-server.js';

export interface TestRedis {
  /** URL of the Redis of this file. */
  url(): string;
  /** A new client (closed after the file). */
  client(options?: RedisOptions): Redis;
}

/** Starts a Redis before the file's tests and stops it (and every client) afterwards. */
export function useRedis(): TestRedis {
  let handle: RedisHandle | undefined;
  const clients: Redis[] = [];
  beforeAll(async () => {
    handle = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
    await handle?.stop();
  });
  return {
    url() {
      if (handle === undefined) throw new Error('Redis not started yet');
      return handle.url;
    },
    client(options: RedisOptions = {}) {
      if (handle === undefined) throw new Error('Redis not started yet');
      const c = new Redis(handle.url, { maxRetriesPerRequest: 2, ...options });
      clients.push(c);
      return c;
    },
  };
}

/** A prefix no other test uses: letters and digits only, so it is also a valid key namespace. */
export function uniquePrefix(label: string): string {
  return `t${label.replace(/[^A-Za-z0-9]/g, '')}${randomBytes(6).toString('hex')}`;
}

/** Every key matching `pattern` with its PTTL (SCAN, https://redis.io/docs/latest/commands/scan/). */
export async function scanWithPttl(redis: Redis, pattern: string): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) result.set(key, await redis.pttl(key));
  } while (cursor !== '0');
  return result;
}
