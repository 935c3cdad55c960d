/**
 * A Redis 8 server of a test file's own, for the tests of Redis 8 features (hash-field expiration,
 * vector sets, ...). Debian bookworm's redis-server is 7.0: the server is Redis 8.0 from Debian
 * trixie's packages, brought by `scripts/fetch-redis-8.sh` (which `.ci/run` calls), or the one
 * `REDIS_8_SERVER` names. Without one, {@link useRedis8} says so and the file's tests are skipped
 * with that reason printed, except in CI (`CI` set), where the file fails.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { freePort, spawnRedisServer, stopRedisServer } from './redis-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The Redis 8 server of a test file: whether there is one, and its client once started. */
export interface Redis8 {
  readonly available: boolean;
  /** The client of the started server (only inside tests, and only when `available`). */
  client(): Redis;
}

/**
 * Starts a Redis 8 server before the file's tests and stops it after them.
 * @param file the test file's name, for the message printed when there is no server.
 * @throws Error in CI when there is no Redis 8 server.
 */
export function useRedis8(file: string): Redis8 {
  const binary = process.env.REDIS_8_SERVER ?? path.join(root, '.cache/redis-8/redis-server');
  const available = existsSync(binary);
  if (!available && process.env.CI) throw new Error(`no Redis 8 server at ${binary}: run scripts/fetch-redis-8.sh (.ci/run does)`);
  if (!available) console.warn(`${file} skipped: no Redis 8 server at ${binary} (run scripts/fetch-redis-8.sh, or set REDIS_8_SERVER)`);
  let child: ChildProcess | undefined;
  let redis: Redis | undefined;
  beforeAll(async () => {
    if (!available) return;
    const port = await freePort();
    child = await spawnRedisServer(['--port', String(port), '--bind', '127.0.0.1'], undefined, binary);
    redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 2 });
  }, 20_000);
  afterAll(async () => {
    redis?.disconnect();
    if (child) await stopRedisServer(child);
  });
  return {
    available,
    client() {
      if (!redis) throw new Error('the Redis 8 server is not started (call client() inside a test)');
      return redis;
    },
  };
}
