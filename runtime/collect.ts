import type { StoreClient } from './client.js';
import { checkDeadlineOptions, runOnce, type DeadlineOptions } from './health.js';
import { getScript } from './scripts.js';
import { checkNonEmptyString } from './validate.js';

/**
 * Atomically reads a counter and resets it to `'0'`, keeping the key's remaining TTL.
 *
 * Runs `runtime/scripts/collect.lua`: `GET`; when the key is missing, return without writing
 * (so nothing is created); else `SET key 0 KEEPTTL`. Two concurrent collects never take the same
 * balance, and an increment can not land between the read and the reset. A key that had no TTL
 * keeps none (collect never sets one; `incrementWithTtl` in `'fixed'` mode repairs such a
 * key on its next call). Never use GETSET or
 * `SET ... GET` for this: both drop the TTL (https://redis.io/docs/latest/commands/getset/,
 * https://redis.io/docs/latest/commands/set/).
 *
 * @param redis An ioredis `Redis` or `Cluster`, a node-redis client (`createClient()`), an
 *   @upstash/redis `Redis`, or a `MemoryStore` (same semantics, in process).
 * @param key The counter key (ioredis `keyPrefix` applies).
 * @param options `timeoutMs` (default 1000) and `redisProbeIntervalMs`, see {@link DeadlineOptions}.
 * @returns The value before the reset, as Redis stored it (a string such as `'42'`, exact even
 *   beyond 2^53), or `null` when the key does not exist.
 * @throws {TypeError | RangeError} when `key` is not a non-empty string or an option is invalid
 *   (before any Redis call).
 * @throws {RedisUnavailableError} when Redis is unavailable: the key's shard is known to be down
 *   (`sent: false`, nothing happened), or the call timed out or failed (`sent: true`: after a
 *   timeout the reset may still happen later, and the balance it read is then lost to the caller).
 * @throws {RedisError} when the key holds a non-string type (WRONGTYPE) or another bug reply.
 * @example
 * const pending = await collect(redis, 'session:{42}:billableSeconds'); // '17' or null
 */
export async function collect(redis: StoreClient, key: string, options?: DeadlineOptions): Promise<string | null> {
  checkNonEmptyString('key', key);
  const deadline = checkDeadlineOptions(options, 'collect');
  const reply = await runOnce(redis, getScript('collect'), [key], [], deadline);
  return reply === null ? null : String(reply);
}
