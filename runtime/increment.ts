import type { StoreClient } from './client.js';
import { checkDeadlineOptions, runOnce, type DeadlineOptions } from './health.js';
import { getScript } from './scripts.js';
import { checkBoolean, checkInteger, checkKnownOptions, checkNonEmptyString, checkOneOf, describe, MAX_EXACT } from './validate.js';

/** How {@link incrementWithTtl} treats the TTL. */
export type TtlMode = 'fixed' | 'sliding';

/** Options of {@link incrementWithTtl}; `timeoutMs` and `redisProbeIntervalMs` as in {@link DeadlineOptions}. */
export interface IncrementOptions extends DeadlineOptions {
  /**
   * Integer to add (may be negative or 0): a number in [-(2^53 - 1), 2^53 - 1], or a bigint in
   * [-2^63, 2^63 - 1] (Redis' 64-bit range). Default `1`.
   */
  by?: number | bigint;
  /** TTL in **milliseconds**, an integer >= 1. Applied as is, never rounded to seconds. */
  ttlMs: number;
  /**
   * `'fixed'` (default): the TTL is set only when the key has none, that is when the increment
   * created it or when it was left without TTL by other code (repair); a running window is never
   * extended. `'sliding'`: the TTL is renewed to `ttlMs` on every call.
   */
  mode?: TtlMode;
  /**
   * `true`: `value` is a bigint, exact over Redis' whole 64-bit range. Default `false`: `value`
   * is a number, and a counter outside +-(2^53 - 1), where a number is no longer exact, rejects
   * with a `RangeError` (after the increment was applied) instead of a rounded value.
   */
  bigint?: boolean;
}

/** Result of {@link incrementWithTtl}; `V` is `bigint` with `{ bigint: true }`, else `number`. */
export interface IncrementResult<V extends number | bigint = number> {
  /** The counter after the increment, exact: a number (within +-(2^53 - 1)) or, with `bigint: true`, a bigint. */
  value: V;
  /** The key's remaining TTL in **milliseconds** after the call (PTTL), always >= 0. */
  pttlMs: number;
}

/** The names of {@link IncrementOptions}. */
const INCREMENT_OPTION_NAMES = ['by', 'ttlMs', 'mode', 'bigint', 'timeoutMs', 'redisProbeIntervalMs'] as const satisfies ReadonlyArray<keyof IncrementOptions>;
// a compile error here names an option of IncrementOptions the list does not hold
const incrementOptionsListed: [Exclude<keyof IncrementOptions, (typeof INCREMENT_OPTION_NAMES)[number]>] extends [never] ? true : Exclude<keyof IncrementOptions, (typeof INCREMENT_OPTION_NAMES)[number]> = true;
void incrementOptionsListed;

const INT64_MIN = -9223372036854775808n;
const INT64_MAX = 9223372036854775807n;

/** `by` as the decimal string the script takes. @throws {TypeError | RangeError} naming `by`. */
function checkBy(by: unknown): string {
  if (typeof by === 'bigint') {
    if (by < INT64_MIN || by > INT64_MAX) throw new RangeError(`by must be a bigint in [-2^63, 2^63 - 1], got ${by}`);
    return by.toString();
  }
  if (typeof by !== 'number') throw new TypeError(`by must be a number or a bigint, got ${describe(by)}`);
  return String(checkInteger('by', by, -MAX_EXACT));
}

/**
 * Increments an integer counter and makes sure it carries a TTL, atomically.
 *
 * Runs `runtime/scripts/increment.lua`: `INCRBY`, then in `'sliding'` mode `PEXPIRE key ttlMs`,
 * in `'fixed'` mode `PEXPIRE` only when `PTTL` answers `-1` (no TTL,
 * https://redis.io/docs/latest/commands/pttl/). INCRBY and the expiry run in one script, so a
 * crash between them can not leave the key without TTL. The value is exact: the script returns
 * the key's string when the counter leaves the range where a Lua number (a double) is exact.
 *
 * @param redis An ioredis `Redis` or `Cluster`, a node-redis client (`createClient()`), an
 *   @upstash/redis `Redis`, or a `MemoryStore` (same semantics, in process).
 * @param key The counter key (ioredis `keyPrefix` applies).
 * @returns `{ value, pttlMs }`; `value` a bigint with `bigint: true`.
 * @throws {TypeError | RangeError} naming the option (`key`, `by`, `ttlMs`, `mode`, `bigint`,
 *   `timeoutMs`, `redisProbeIntervalMs`, or an unknown one) when invalid, before any Redis call.
 * @throws {RangeError} without `bigint: true`, when the counter is now outside +-(2^53 - 1): the
 *   increment **was applied**; the message holds the exact value.
 * @throws {RedisUnavailableError} when Redis is unavailable: the key's shard is known to be down
 *   (`sent: false`, nothing happened), or the call timed out or failed (`sent: true`: after a
 *   timeout the increment may still be applied later; retrying may count it twice).
 * @throws {RedisError} when the key is not an integer string or the result overflows 64 bits
 *   (then nothing was written).
 * @example
 * const { value, pttlMs } = await incrementWithTtl(redis, 'session:{42}:billableSeconds', { by: 5, ttlMs: 900_000 });
 * const { value: big } = await incrementWithTtl(redis, 'bytes:{42}', { by: 10n ** 15n, ttlMs: 900_000, bigint: true });
 */
export function incrementWithTtl(redis: StoreClient, key: string, options: IncrementOptions & { bigint: true }): Promise<IncrementResult<bigint>>;
export function incrementWithTtl(redis: StoreClient, key: string, options: IncrementOptions & { bigint?: false }): Promise<IncrementResult<number>>;
export function incrementWithTtl(redis: StoreClient, key: string, options: IncrementOptions): Promise<IncrementResult<number | bigint>>;
export async function incrementWithTtl(redis: StoreClient, key: string, options: IncrementOptions): Promise<IncrementResult<number | bigint>> {
  checkNonEmptyString('key', key);
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('options must be an object with at least ttlMs');
  }
  checkKnownOptions('incrementWithTtl', options, INCREMENT_OPTION_NAMES);
  const by = options.by === undefined ? '1' : checkBy(options.by);
  const ttlMs = checkInteger('ttlMs', options.ttlMs, 1);
  const mode = checkOneOf('mode', options.mode === undefined ? 'fixed' : options.mode, ['fixed', 'sliding'] as const);
  const bigint = options.bigint === undefined ? false : checkBoolean('bigint', options.bigint);
  const deadline = checkDeadlineOptions(options);
  const reply = (await runOnce(redis, getScript('increment'), [key], [by, String(ttlMs), mode], deadline)) as [number | string, number | string];
  const raw = reply[0];
  const pttlMs = Number(reply[1]);
  if (bigint) return { value: BigInt(raw), pttlMs };
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || String(raw) !== String(value)) {
    throw new RangeError(
      `incrementWithTtl: the counter is now ${String(raw)}, outside +-(2^53 - 1) where a number is not exact (the increment was applied); pass { bigint: true } to read it as a bigint`,
    );
  }
  return { value, pttlMs };
}
