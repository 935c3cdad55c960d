import { runnerFor, type StoreClient } from './client.js';
import { getScript } from './scripts.js';
import { checkNonEmptyString, describe } from './validate.js';

/**
 * Overwrites a string key's value and keeps its remaining TTL; never creates a missing key.
 *
 * Runs `runtime/scripts/set_keep_ttl.lua`: `EXISTS`, then `SET key value KEEPTTL` only when the
 * key exists. A bare `SET` would clear the TTL, and `SET ... KEEPTTL` on a missing key would
 * create it without any TTL (https://redis.io/docs/latest/commands/set/).
 *
 * @param redis An ioredis `Redis` or `Cluster`, a node-redis client (`createClient()`), an
 *   @upstash/redis `Redis`, or a `MemoryStore` (same semantics, in process).
 * @param key The key (ioredis `keyPrefix` applies).
 * @param value The new value; a number is written in JavaScript's decimal form.
 * @returns `true` when the key existed and was overwritten, `false` when it was missing (nothing
 *   was written).
 * @throws {TypeError | RangeError} when `key` is not a non-empty string or `value` is neither a
 *   string nor a finite number (before any Redis call).
 * @throws The client's error when Redis fails.
 * @example
 * await setKeepTtl(redis, 'cache:user:42', JSON.stringify(user)); // true, TTL untouched
 */
export async function setKeepTtl(redis: StoreClient, key: string, value: string | number): Promise<boolean> {
  checkNonEmptyString('key', key);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`value must be a finite number, got ${value}`);
  } else if (typeof value !== 'string') {
    throw new TypeError(`value must be a string or a number, got ${describe(value)}`);
  }
  const reply = await runnerFor(redis).run(getScript('set_keep_ttl'), [key], [String(value)]);
  return reply === 1;
}
