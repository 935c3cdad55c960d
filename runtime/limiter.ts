import type { StoreClient } from './client.js';
import { checkOutageOptions, FromMemory, Route, StoreFull, type OutageOptions } from './fallback.js';
import { Unavailable } from './health.js';
import { buildKey, checkIdentitySecret, checkScope, hashIdentity, KeyMemo } from './keys.js';
import type { OutageReason } from './outage.js';
import { decoderFor, type LimiterScript } from './decode.js';
import { getScript } from './scripts.js';
import { checkInteger, checkKnownOptions, checkNonEmptyString, checkOneOf, describe, gcd, MAX_EXACT, orDefault, perSecondToPerMs } from './validate.js';

/**
 * Largest `limit` of the sliding-window log: 10^9. Its running total of admitted cost must stay
 * below 2^53; it starts over whenever the window is empty (at 10^9 per window that is after 9
 * million windows without an empty one, and the log then forgets that window).
 */
export const SLIDING_LOG_MAX_LIMIT = 1_000_000_000;

/**
 * Admitted calls the sliding-window log tracks one by one per window: 10,000. Every call is a
 * sorted-set member until it leaves the window; beyond this many in the window, an admitted call
 * is merged into the newest member, which takes the new time, so the log may deny earlier than
 * exact but never admits more. The set then holds at most 10,000 members in the window plus up
 * to as many that left it (pruned 64 at a time by later calls): Redis frees it in about a
 * millisecond when the key expires.
 */
export const SLIDING_LOG_MAX_CALLS_PER_WINDOW = 10_000;

/** The algorithms {@link createLimiter} implements. */
export type Algorithm =
  | 'fixed-window'
  | 'sliding-window-log'
  | 'sliding-window-counter'
  | 'token-bucket'
  | 'gcra'
  | 'leaky-bucket';

const ALGORITHMS: readonly Algorithm[] = [
  'fixed-window',
  'sliding-window-log',
  'sliding-window-counter',
  'token-bucket',
  'gcra',
  'leaky-bucket',
];

/**
 * Options every limiter takes. The outage options (`onRedisError`, `timeoutMs`,
 * `outageRetryAfterMs`, `fallback`, `redisProbeIntervalMs`) are documented on {@link OutageOptions}.
 */
export interface CommonLimiterOptions extends OutageOptions {
  /**
   * `onRedisError: 'fallback'` only: the share of the limit each instance admits on its own while
   * it answers from memory, a number in (0, 1] with at most 6 decimal places. Default `1`. With N
   * instances behind a load balancer, `1 / N` keeps the fleet's total near the configured limit
   * during an outage. It scales `limit` / `capacity` / `burst` (rounded down, at least 1) and the
   * refill, leak or emission rate; windows stay the same.
   */
  fallbackShare?: number;
  /** Key namespace (first key segment). Default `'rl'`. */
  namespace?: string;
  /** Key version segment; bump it when you change the algorithm or its parameters incompatibly. Default `'v1'`. */
  version?: string;
  /** Key scope: the route pattern or action this limiter guards. Default `'default'`. */
  scope?: string;
  /** Secret for hashing identities with HMAC-SHA-256 (see `buildKey`). Default: plain SHA-256. */
  identitySecret?: string | Buffer;
}

/**
 * `limit` cost per window of `windowMs` milliseconds; a window opens at its first admission and
 * is its key's TTL (no clock of its own: `nowMs` is refused).
 */
export interface FixedWindowOptions extends CommonLimiterOptions {
  algorithm: 'fixed-window';
  /** Cost admitted per window, an integer >= 1. */
  limit: number;
  /**
   * Window length in **milliseconds**, an integer >= 1 (a window of 1 ms lasts 2: Redis keeps a
   * key through the millisecond of its expiry). A window starts at the first admission after the
   * last one ended, as rate-limiter-flexible's do.
   */
  windowMs: number;
}

/** `limit` cost in any interval of `windowMs` milliseconds, exactly (one sorted-set member per admitted call, with its cost). */
export interface SlidingWindowLogOptions extends CommonLimiterOptions {
  algorithm: 'sliding-window-log';
  /**
   * Cost admitted in any window, an integer in [1, 10^9] ({@link SLIDING_LOG_MAX_LIMIT}). Memory
   * per identity is one sorted-set member per admitted call in the window, at most 10,000
   * ({@link SLIDING_LOG_MAX_CALLS_PER_WINDOW}; exact up to that many calls per window).
   */
  limit: number;
  /** Window length in **milliseconds**, an integer >= 1. */
  windowMs: number;
}

/** Two fixed-window counters; the previous one weighted by its overlap with the sliding window. */
export interface SlidingWindowCounterOptions extends CommonLimiterOptions {
  algorithm: 'sliding-window-counter';
  /** Weighted cost admitted per window, an integer >= 1 (`limit * windowMs` must stay below 2^53). */
  limit: number;
  /** Window length in **milliseconds**, an integer >= 1. */
  windowMs: number;
}

/** A bucket of `capacity` tokens refilled continuously at `refillPerSecond`. */
export interface TokenBucketOptions extends CommonLimiterOptions {
  algorithm: 'token-bucket';
  /** Bucket size in tokens (the largest burst), an integer >= 1. */
  capacity: number;
  /** Refill rate in tokens **per second**, in [10^-6, 10^9], at most 6 decimal places (e.g. `0.5`, `10`). */
  refillPerSecond: number;
}

/** The generic cell rate algorithm: `limit` units per `periodMs`, bursts of up to `burst`. */
export interface GcraOptions extends CommonLimiterOptions {
  algorithm: 'gcra';
  /** Units per period, an integer >= 1 (the emission interval is `periodMs / limit` ms). */
  limit: number;
  /** Period in **milliseconds**, an integer >= 1. */
  periodMs: number;
  /** Units admitted back to back after a quiet period, an integer >= 1. Default `limit`. */
  burst?: number;
}

/** A bucket of `capacity` units leaking at `leakPerSecond`; a call is admitted if it does not overflow. */
export interface LeakyBucketOptions extends CommonLimiterOptions {
  algorithm: 'leaky-bucket';
  /** Bucket size in units, an integer >= 1. */
  capacity: number;
  /** Leak rate in units **per second**, in [10^-6, 10^9], at most 6 decimal places. */
  leakPerSecond: number;
}

/** Options of {@link createLimiter}, discriminated by `algorithm`. */
/** The options every algorithm takes (CommonLimiterOptions and OutageOptions). */
const OPTION_NAMES = [
  'algorithm',
  'onRedisError',
  'timeoutMs',
  'outageRetryAfterMs',
  'fallback',
  'redisProbeIntervalMs',
  'fallbackShare',
  'namespace',
  'version',
  'scope',
  'identitySecret',
] as const satisfies ReadonlyArray<keyof FixedWindowOptions>;

/** The options of each algorithm besides {@link OPTION_NAMES}. */
const ALGORITHM_OPTION_NAMES = {
  'fixed-window': ['limit', 'windowMs'],
  'sliding-window-log': ['limit', 'windowMs'],
  'sliding-window-counter': ['limit', 'windowMs'],
  'token-bucket': ['capacity', 'refillPerSecond'],
  gcra: ['limit', 'periodMs', 'burst'],
  'leaky-bucket': ['capacity', 'leakPerSecond'],
} as const satisfies { [A in LimiterOptions['algorithm']]: ReadonlyArray<Exclude<keyof Extract<LimiterOptions, { algorithm: A }>, keyof CommonLimiterOptions | 'algorithm'>> };

/** An option of some algorithm missing from the lists above: `never` when they are complete. */
type UnlistedOption = {
  [A in LimiterOptions['algorithm']]: Exclude<keyof Extract<LimiterOptions, { algorithm: A }>, (typeof OPTION_NAMES)[number] | (typeof ALGORITHM_OPTION_NAMES)[A][number]>;
}[LimiterOptions['algorithm']];
// a compile error here names an option the lists above do not hold
const optionListsComplete: [UnlistedOption] extends [never] ? true : UnlistedOption = true;
void optionListsComplete;

export type LimiterOptions =
  | FixedWindowOptions
  | SlidingWindowLogOptions
  | SlidingWindowCounterOptions
  | TokenBucketOptions
  | GcraOptions
  | LeakyBucketOptions;

/** Options of {@link Limiter.take}. */
export interface TakeOptions {
  /**
   * Cost of this call, an integer in [1, 2^53 - 1]. Default `1`. Validated before any Redis call.
   * A cost above the limit is denied with `retryAfterMs: -1` (it can never be admitted). Every
   * script does a fixed amount of work whatever the cost.
   */
  cost?: number;
  /**
   * **Tests only.** The current time in milliseconds since the Unix epoch, an integer >= 0, used
   * instead of the Redis server clock (TIME). Production code must leave it out: the server clock
   * is the one clock every instance shares. A time before the key's latest one is handled as a
   * clock that stepped back (it admits nothing more; see docs/runtime-resilience.md). The fixed
   * window refuses it (a `TypeError`): it has no clock of its own, its window is its key's TTL
   * (in tests, a `MemoryStore` with a `clock` drives it).
   */
  nowMs?: number;
}

/** The answer of {@link Limiter.take}. */
export interface LimitResult {
  /** Whether the cost was admitted (and recorded). A denied call changes no state. */
  allowed: boolean;
  /** The limiter's maximum cost at once: `limit`, `capacity` or `burst`. */
  limit: number;
  /** Cost still admissible right now after this call (`0` on an allow still means allowed). */
  remaining: number;
  /**
   * `0` when allowed. When denied: **milliseconds** until the same call would be admitted if
   * nothing else is admitted meanwhile, exact (retrying 1 ms earlier is still denied);
   * `-1` when the cost exceeds the limit and can never be admitted.
   */
  retryAfterMs: number;
  /** **Milliseconds** until the limiter is back to its full limit if nothing else is admitted (`0`: already full). */
  resetAfterMs: number;
  /**
   * Present only when Redis did not decide: `'redis-unavailable'` (the fail-closed / fail-open
   * policy answered), `'fallback'` (the memory store decided, with the local share of the limit:
   * `limit` is then the local limit), `'store-full'` (the memory store had no room for a new key:
   * denied, `retryAfterMs` is `outageRetryAfterMs`).
   */
  reason?: OutageReason;
}

/** The names of {@link TakeOptions}. */
const TAKE_OPTION_NAMES = ['cost', 'nowMs'] as const satisfies ReadonlyArray<keyof TakeOptions>;

/** A rate limiter made by {@link createLimiter}. */
export interface Limiter {
  /** The algorithm. */
  readonly algorithm: Algorithm;
  /** The maximum cost at once: `limit`, `capacity` or `burst`. */
  readonly limit: number;
  /** Upper bound of any key's TTL in **milliseconds** (derived from the algorithm, see README). */
  readonly maxTtlMs: number;
  /**
   * Takes `cost` for `identity`.
   * @param identity Who is limited (user id, API key, IP...), any length. Hashed into the key,
   *   never stored; identities with a lone surrogate get keys of their own (see `hashIdentity`).
   * @throws {TypeError | RangeError} when `identity`, `cost` or `nowMs` is invalid (or `nowMs` is
   *   given to a fixed window), before any Redis call.
   * @throws {RedisError} for replies that are bugs, not outages (e.g. WRONGTYPE when another
   *   program wrote the key, WRONGPASS): message, `code` and `address`, never the command.
   */
  take(identity: string, options?: TakeOptions): Promise<LimitResult>;
  /** The Redis key holding `identity`'s state (for audits and tests). */
  keyFor(identity: string): string;
}

/**
 * The algorithm segment of each algorithm's keys: its code, then the version of the format its
 * state is kept in (the fixed window's key format 2 is `fw2`). A runtime that keeps an
 * algorithm's state differently writes it under a new version: two runtimes never read each
 * other's keys, so they can run side by side during a rolling deploy (each then counts on its
 * own: docs/runtime-resilience.md#key-format-and-rolling-deploys).
 */
const KEY_SEGMENTS = {
  'fixed-window': 'fw2',
  // format 3: a list of calls (format 2 was a sorted set, 'swl2'; format 1 one member per unit of cost, 'swl')
  'sliding-window-log': 'swl3',
  'sliding-window-counter': 'swc2',
  // format 3: the state packed as three doubles (struct.pack; format 2 was the text "<x>:<y>:<z>", 'tb2', 'gcra2', 'lb2')
  'token-bucket': 'tb3',
  gcra: 'gcra3',
  'leaky-bucket': 'lb3',
} as const satisfies Record<Algorithm, string>;

interface Plan {
  script: LimiterScript;
  code: string;
  limit: number;
  maxTtlMs: number;
  /** The script's parameters (its ARGV before the cost), as numbers. */
  params: number[];
}

function ceilDiv(a: number, b: number): number {
  return Math.ceil(a / b);
}

function plan(options: LimiterOptions): Plan {
  switch (options.algorithm) {
    case 'fixed-window':
    case 'sliding-window-log':
    case 'sliding-window-counter': {
      const limit = checkInteger('limit', options.limit, 1);
      const windowMs = checkInteger('windowMs', options.windowMs, 1);
      if (options.algorithm === 'fixed-window') {
        // a key lives through the millisecond of its expiry: a window of 1 ms lasts 2 (see the script)
        return { script: 'fixed_window', code: KEY_SEGMENTS['fixed-window'], limit, maxTtlMs: Math.max(2, windowMs), params: [limit, windowMs] };
      }
      if (options.algorithm === 'sliding-window-log') {
        checkInteger('limit', limit, 1, SLIDING_LOG_MAX_LIMIT);
        return { script: 'sliding_window_log', code: KEY_SEGMENTS['sliding-window-log'], limit, maxTtlMs: windowMs, params: [limit, windowMs] };
      }
      if (limit * windowMs > MAX_EXACT) throw new RangeError('limit * windowMs must be below 2^53');
      return { script: 'sliding_window_counter', code: KEY_SEGMENTS['sliding-window-counter'], limit, maxTtlMs: 2 * windowMs, params: [limit, windowMs] };
    }
    case 'token-bucket':
    case 'leaky-bucket': {
      const capacity = checkInteger('capacity', options.capacity, 1);
      const rateName = options.algorithm === 'token-bucket' ? 'refillPerSecond' : 'leakPerSecond';
      const { num, den } = perSecondToPerMs(rateName, options.algorithm === 'token-bucket' ? options.refillPerSecond : options.leakPerSecond);
      if (capacity * den > MAX_EXACT) throw new RangeError(`capacity * (1000 / ${rateName}) is too large (must be below 2^53)`);
      return {
        script: options.algorithm === 'token-bucket' ? 'token_bucket' : 'leaky_bucket',
        code: KEY_SEGMENTS[options.algorithm],
        limit: capacity,
        maxTtlMs: ceilDiv(capacity * den, num),
        params: [capacity, num, den],
      };
    }
    case 'gcra': {
      const limit = checkInteger('limit', options.limit, 1);
      const periodMs = checkInteger('periodMs', options.periodMs, 1);
      const burst = checkInteger('burst', orDefault(options.burst, limit), 1);
      const g = gcd(periodMs, limit);
      const per = periodMs / g;
      const units = limit / g;
      if (burst * per > MAX_EXACT) throw new RangeError('burst * periodMs / gcd(periodMs, limit) must be below 2^53');
      return { script: 'gcra', code: KEY_SEGMENTS.gcra, limit: burst, maxTtlMs: ceilDiv(burst * per, units), params: [burst, per, units] };
    }
    default:
      checkOneOf('algorithm', (options as { algorithm?: unknown }).algorithm, ALGORITHMS);
      throw new TypeError('unreachable');
  }
}

/** `share` as an exact reduced fraction `num / den` (at most 6 decimal places). */
function shareFraction(share: number): { num: number; den: number } {
  if (typeof share !== 'number') throw new TypeError(`fallbackShare must be a number, got ${describe(share)}`);
  if (!Number.isFinite(share) || share <= 0 || share > 1) throw new RangeError(`fallbackShare must be in (0, 1], got ${share}`);
  for (let digits = 0; digits <= 6; digits += 1) {
    const den = 10 ** digits;
    const num = Math.round(share * den);
    if (Math.abs(share * den - num) <= 1e-9 * Math.max(1, num) && num >= 1) {
      const g = gcd(num, den);
      return { num: num / g, den: den / g };
    }
  }
  throw new RangeError(`fallbackShare must have at most 6 decimal places, got ${share}`);
}

/** floor(a * num / den), exact for any integers below 2^53, at least 1. */
function scaleCount(a: number, num: number, den: number): number {
  return Math.max(1, Number((BigInt(a) * BigInt(num)) / BigInt(den)));
}

/**
 * The script parameters of the local share: counts scaled by `share` (rounded down, at least 1)
 * and, for the buckets and GCRA, the rate scaled by `share` too, as exact fractions.
 * @throws {RangeError} when the scaled parameters leave the exact integer range.
 */
function sharePlan(p: Plan, share: number): { limit: number; params: number[] } {
  if (share === 1) return { limit: p.limit, params: p.params };
  const { num: sn, den: sd } = shareFraction(share);
  const [a = 0, b = 0, c = 0] = p.params;
  const limit = scaleCount(a, sn, sd);
  if (p.script === 'fixed_window' || p.script === 'sliding_window_log' || p.script === 'sliding_window_counter') {
    return { limit, params: [limit, b] };
  }
  // buckets: [capacity, num, den] with rate num/den per ms; gcra: [burst, per, units] with rate units/per per ms
  let rateNum = p.script === 'gcra' ? c * sn : b * sn;
  let rateDen = p.script === 'gcra' ? b * sd : c * sd;
  const g = gcd(rateNum, rateDen);
  rateNum /= g;
  rateDen /= g;
  if (!Number.isSafeInteger(rateNum) || !Number.isSafeInteger(rateDen) || limit * rateDen > MAX_EXACT) {
    throw new RangeError('fallbackShare makes the local rate too fine (its parameters must stay below 2^53)');
  }
  return { limit, params: p.script === 'gcra' ? [limit, rateDen, rateNum] : [limit, rateNum, rateDen] };
}

/**
 * Creates a rate limiter backed by one Lua script per algorithm (`runtime/scripts/*.lua`).
 *
 * Every decision is made in Redis, atomically, with the Redis server clock (TIME,
 * https://redis.io/docs/latest/commands/time/; the fixed window has its key's TTL, which Redis
 * runs on that clock too): application instances with skewed clocks agree. A denied call writes
 * nothing, so denied requests never count against the limit. Every write sets the key's TTL in
 * the same script, derived from the algorithm (see `maxTtlMs`). One key per identity,
 * `namespace:<algorithm><key format>:version:{hash}:scope` (e.g. `rl:gcra3:v1:{...}:default`), so
 * calls never fail with CROSSSLOT on Redis Cluster.
 *
 * @param redis A Redis client of runtime/README.md's Clients (ioredis, iovalkey, node-redis,
 *   @upstash/redis, Valkey GLIDE, Bun).
 *   Every call is bounded by `timeoutMs` whatever the client's settings; once a call finds the
 *   key's shard unavailable, calls for that shard are answered by the policy without being sent
 *   until a background probe answers (docs/runtime-resilience.md). A `MemoryStore` also works:
 *   the same scripts, in process (a full store denies new keys, `reason: 'store-full'`).
 * @param options See {@link LimiterOptions}; units are in the option names. With
 *   `onRedisError: 'fallback'`, calls are answered by a memory store while Redis is unavailable
 *   (see `docs/runtime-resilience.md`).
 * @throws {TypeError | RangeError} naming the option when an option is missing, invalid, or not one
 *   of the algorithm's (a misspelt `prefix` for `namespace` is refused, not dropped).
 * @example
 * const limiter = createLimiter(redis, { algorithm: 'token-bucket', capacity: 20, refillPerSecond: 5, onRedisError: 'fail-closed' });
 * const r = await limiter.take(apiKey);
 * if (!r.allowed) res.set('Retry-After', String(Math.ceil(r.retryAfterMs / 1000)));
 */
export function createLimiter(redis: StoreClient, options: LimiterOptions): Limiter {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  checkOneOf('algorithm', options.algorithm, ALGORITHMS);
  checkKnownOptions(`createLimiter({ algorithm: '${options.algorithm}' })`, options, [...OPTION_NAMES, ...ALGORITHM_OPTION_NAMES[options.algorithm]]);
  const { script, code, limit, maxTtlMs, params } = plan(options);
  const outage = checkOutageOptions(options);
  const { mode, outageRetryAfterMs } = outage;
  const local = sharePlan({ script, code, limit, maxTtlMs, params }, orDefault(options.fallbackShare, 1));
  const scope = checkScope(orDefault(options.scope, 'default'));
  const namespace = orDefault(options.namespace, 'rl');
  const version = orDefault(options.version, 'v1');
  const identitySecret = checkIdentitySecret(options.identitySecret);
  // validates namespace and version now, not on the first take; the identity part is a placeholder
  const template = buildKey({ namespace, algorithm: code, version, identity: '-', scope, identitySecret });
  const head = template.slice(0, template.indexOf('{') + 1);
  const tail = template.slice(template.indexOf('}'));
  // hashing is most of the client-side cost of a call: remember the keys of recent identities
  // (thousands, bounded in bytes, without the identities themselves; see KeyMemo)
  const memo = new KeyMemo((identity) => head + hashIdentity(identity, identitySecret) + tail);
  const keyFor = (identity: string): string => {
    checkNonEmptyString('identity', identity);
    return memo.keyFor(identity);
  };
  const lua = getScript(script);
  const denied: LimitResult = { allowed: false, limit, remaining: 0, retryAfterMs: outageRetryAfterMs, resetAfterMs: 0, reason: 'redis-unavailable' };
  const allowed: LimitResult = { allowed: true, limit, remaining: 0, retryAfterMs: 0, resetAfterMs: 0, reason: 'redis-unavailable' };
  // the scripts reply with what only Redis knows, mostly one integer: the result is computed here
  const decode = decoderFor(script, params, limit);
  const decodeLocal = decoderFor(script, local.params, local.limit, 'fallback');
  // a call's cost is its ARGV after the parameters; absent: 1
  const costAt = params.length;
  const toResult = (answer: unknown, args: readonly string[]): LimitResult => {
    // Redis' answer, the common case: an integer (key format 2)
    if (typeof answer === 'number') return decode(answer, args.length > costAt ? Number(args[costAt]) : 1);
    if (answer instanceof Unavailable) return { ...(mode === 'fail-open' ? allowed : denied) };
    if (answer instanceof StoreFull) {
      return { allowed: false, limit: answer.fallback ? local.limit : limit, remaining: 0, retryAfterMs: outageRetryAfterMs, resetAfterMs: 0, reason: 'store-full' };
    }
    const cost = args.length > costAt ? Number(args[costAt]) : 1;
    if (answer instanceof FromMemory) return decodeLocal(answer.value, cost);
    return decode(answer, cost);
  };
  // the answer becomes the result where the call settles: one promise per call besides the client's
  const route = new Route(redis, mode, outage, options.fallback, toResult);
  // the arguments of a call of cost 1 on the server clock, the common case (cost and now left
  // out): no array per call
  const defaultArgs = params.map(String);
  const defaultLocalArgs = local.params === params ? defaultArgs : local.params.map(String);
  const clockless = options.algorithm === 'fixed-window';

  return {
    algorithm: options.algorithm,
    limit,
    maxTtlMs,
    keyFor,
    take(identity: string, takeOptions?: TakeOptions): Promise<LimitResult> {
      let key: string;
      let args = defaultArgs;
      let localArgs = defaultLocalArgs;
      try {
        key = keyFor(identity);
        if (takeOptions !== undefined) {
          if (typeof takeOptions !== 'object' || takeOptions === null) throw new TypeError('take options must be an object');
          checkKnownOptions('limiter.take', takeOptions, TAKE_OPTION_NAMES);
          const cost = checkInteger('cost', takeOptions.cost === undefined ? 1 : takeOptions.cost, 1);
          let now: string | undefined;
          if (takeOptions.nowMs !== undefined) {
            if (clockless) {
              throw new TypeError(
                "nowMs: the fixed window has no clock of its own (its window is its key's TTL, which the Redis server's clock runs); leave nowMs out (a MemoryStore's clock option drives it in tests)",
              );
            }
            now = String(checkInteger('nowMs', takeOptions.nowMs, 0));
          }
          if (now !== undefined) {
            args = [...defaultArgs, String(cost), now];
            localArgs = local.params === params ? args : [...defaultLocalArgs, String(cost), now];
          } else if (cost !== 1) {
            args = [...defaultArgs, String(cost)];
            localArgs = local.params === params ? args : [...defaultLocalArgs, String(cost)];
          }
        }
      } catch (error) {
        return Promise.reject(error);
      }
      return route.runTo(lua, key, args, localArgs) as Promise<LimitResult>;
    },
  };
}
