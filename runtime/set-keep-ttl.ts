import type { StoreClient } from './client.js';
import { checkDeadlineOptions, runOnce, type DeadlineOptions } from './health.js';
import { getScript } from './scripts.js';
import { checkNonEmptyString, describe } from './validate.js';

/**
 * Overwrites a string key's value and keeps its remaining TTL; never creates a missing key.
 *
 * Runs `runtime/scripts/set_keep_ttl.lua`: `EXISTS`, then `SET key value KEEPTTL` only when the
 * key exists and holds a string (`TYPE`). A bare `SET` would clear the TTL, `SET ... KEEPTTL` on
 * a missing key would create it without any TTL, and `SET` on a hash, list or set would replace it
 * with a string (https://redis.io/docs/latest/commands/set/).
 *
 * @param redis An ioredis `Redis` or `Cluster`, a node-redis client (`createClient()`), an
 *   @upstash/redis `Redis`, or a `MemoryStore` (same semantics, in process).
 * @param key The key (ioredis `keyPrefix` applies).
 * @param value The new value; a number or bigint is written in JavaScript's decimal form (a bigint
 *   exactly, whatever its size).
 * @param options `timeoutMs` (default 1000) and `redisProbeIntervalMs`, see {@link DeadlineOptions}.
 * @returns `true` when the key existed and was overwritten, `false` when it was missing (nothing
 *   was written).
 * @throws {TypeError | RangeError} when `key` is not a non-empty string, `value` is neither a
 *   string nor a finite number, or an option is invalid (before any Redis call).
 * @throws {RedisUnavailableError} when Redis is unavailable: the key's shard is known to be down
 *   (`sent: false`, nothing written), or the call timed out or failed (`sent: true`: after a
 *   timeout the write may still happen later).
 * @throws {RedisError} with `code` `'WRONGTYPE'` when the key holds another type than a string
 *   (nothing is written, as with `incrementWithTtl` and `collect`), or for another reply that is a
 *   bug.
 * @example
 * await setKeepTtl(redis, 'cache:user:42', JSON.stringify(user)); // true, TTL untouched
 */
export async function setKeepTtl(redis: StoreClient, key: string, value: string | number | bigint, options?: DeadlineOptions): Promise<boolean> {
  checkNonEmptyString('key', key);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`value must be a finite number, got ${value}`);
  } else if (typeof value !== 'string' && typeof value !== 'bigint') {
    throw new TypeError(`value must be a string, a number or a bigint, got ${describe(value)}`);
  }
  const deadline = checkDeadlineOptions(options, 'setKeepTtl');
  const reply = await runOnce(redis, getScript('set_keep_ttl'), [key], [String(value)], deadline);
  return reply === 1;
}
