import type { StoreClient } from './client.js';
import { checkDeadlineOptions, runOnce, type DeadlineOptions } from './health.js';
import { getScript } from './scripts.js';
import { checkInteger, checkNonEmptyString, checkOneOf, MAX_EXACT } from './validate.js';

/** How {@link incrementWithTtl} treats the TTL. */
export type TtlMode = 'fixed' | 'sliding';

/** Options of {@link incrementWithTtl}; `timeoutMs` and `redisProbeIntervalMs` as in {@link DeadlineOptions}. */
export interface IncrementOptions extends DeadlineOptions {
  /** Integer to add (may be negative or 0). Default `1`. */
  by?: number;
  /** TTL in **milliseconds**, an integer >= 1. Applied as is, never rounded to seconds. */
  ttlMs: number;
  /**
   * `'fixed'` (default): the TTL is set only when the key has none, that is when the increment
   * created it or when it was left without TTL by other code (repair); a running window is never
   * extended. `'sliding'`: the TTL is renewed to `ttlMs` on every call.
   */
  mode?: TtlMode;
}

/** Result of {@link incrementWithTtl}. */
export interface IncrementResult {
  /** The counter after the increment (a JavaScript number: exact up to 2^53 - 1). */
  value: number;
  /** The key's remaining TTL in **milliseconds** after the call (PTTL), always >= 0. */
  pttlMs: number;
}

/**
 * Increments an integer counter and makes sure it carries a TTL, atomically.
 *
 * Runs `runtime/scripts/increment.lua`: `INCRBY`, then in `'sliding'` mode `PEXPIRE key ttlMs`,
 * in `'fixed'` mode `PEXPIRE` only when `PTTL` answers `-1` (no TTL,
 * https://redis.io/docs/latest/commands/pttl/). INCRBY and the expiry run in one script, so a
 * crash between them can not leave the key without TTL.
 *
 * @param redis An ioredis `Redis` or `Cluster`, a node-redis client (`createClient()`), an
 *   @upstash/redis `Redis`, or a `MemoryStore` (same semantics, in process).
 * @param key The counter key (ioredis `keyPrefix` applies).
 * @returns `{ value, pttlMs }`.
 * @throws {TypeError | RangeError} naming the option (`key`, `by`, `ttlMs`, `mode`, `timeoutMs`)
 *   when invalid, before any Redis call.
 * @throws {RedisUnavailableError} when Redis is unavailable: the key's shard is known to be down
 *   (`sent: false`, nothing happened), or the call timed out or failed (`sent: true`: after a
 *   timeout the increment may still be applied later; retrying may count it twice).
 * @throws {RedisError} when the key is not an integer string or the result overflows 64 bits
 *   (then nothing was written).
 * @example
 * const { value, pttlMs } = await incrementWithTtl(redis, 'session:{42}:billableSeconds', { by: 5, ttlMs: 900_000 });
 */
export async function incrementWithTtl(
  redis: StoreClient,
  key: string,
  options: IncrementOptions,
): Promise<IncrementResult> {
  checkNonEmptyString('key', key);
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('options must be an object with at least ttlMs');
  }
  const by = checkInteger('by', options.by ?? 1, -MAX_EXACT);
  const ttlMs = checkInteger('ttlMs', options.ttlMs, 1);
  const mode = checkOneOf('mode', options.mode ?? 'fixed', ['fixed', 'sliding'] as const);
  const deadline = checkDeadlineOptions(options);
  const reply = (await runOnce(redis, getScript('increment'), [key], [String(by), String(ttlMs), mode], deadline)) as [number, number];
  return { value: Number(reply[0]), pttlMs: Number(reply[1]) };
}
