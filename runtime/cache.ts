/**
 * `createCache`: cache-aside helpers that can not leak a key and do not stampede.
 *
 * Storage (one cache key = two Redis keys with one hash tag, hence one cluster slot):
 * - the **entry**, `namespace:cache1:version:{hash(key)}:s`, a string
 *   `RT1:<expiresAtMs>:<deltaMs>:<v|a>:<serialized value>` (`a`: a cached "absent"; deltaMs: the
 *   last load time; expiresAtMs: the server clock at the write plus the TTL). A string with a
 *   header, so that a hit is one `GET`: the reader parses the header and decides early
 *   recomputation (XFetch) with its own clock, and only a read that may recompute, or finds
 *   nothing usable, runs the `cache_get` script (which decides with the entry's real PTTL).
 *   (Before 0.2 the entry was a hash under `...:e`; those expire by themselves.)
 * - the **lock**, `namespace:cache1:version:{hash(key)}:l`, a string holding its owner's random
 *   token, written only with `SET ... NX PX lockTtlMs`.
 *
 * Every write is one of the `runtime/scripts/cache_*.lua` scripts (checked by lua-lint in the
 * tests): the entry always gets its TTL in the script that writes it, the lock always carries one.
 * `cache1` is the key format's version (see `CACHE_KEY_SEGMENT`).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient, ScriptKeys } from './client.js';
import { healthFor, Unavailable, type Receiver } from './health.js';
import { buildKey, hashIdentity, KeyMemo } from './keys.js';
import { monotonicEpochMs, monotonicEpochMsAt } from './memory.js';
import { MAX_TIMER_MS } from './outage.js';
import { GET_COMMAND, getScript, type RuntimeScript } from './scripts.js';
import { checkInteger, checkKnownOptions, checkNonEmptyString, checkOneOf, checkPositive, describe, isPlainObject, MAX_EXACT, orDefault } from './validate.js';

/**
 * The algorithm segment of the cache's keys: `cache`, then the version of the format of its
 * entries and locks. A runtime that stores entries differently writes them under a new version,
 * so two runtimes never read (or overwrite) each other's entries during a rolling deploy.
 */
const CACHE_KEY_SEGMENT = 'cache1';

/**
 * What a loader returns when the record does not exist. `undefined` means the same. Either is
 * cached for `negativeTtlMs` only, and `getOrLoad` resolves with `undefined` for it.
 */
export const NotFound: unique symbol = Symbol.for('eslint-plugin-redis-ttl.cache.NotFound');

/** The type of {@link NotFound}. */
export type NotFoundMarker = typeof NotFound;

/**
 * Why `getOrLoad` answered without a value: another caller's load of the key did not finish
 * within `maxWaitMs` (`'timeout'`; it is still running, and this caller did not start another),
 * or failed less than its back-off ago (`'failed'`; see `loadErrorBackoffMs`). Either way no
 * value was kept by `staleIfErrorMs` to answer with. The loader's own error is never copied
 * across processes: the caller whose loader failed, and the calls of its process that shared the
 * load, get that error itself.
 */
export class CacheLoadError extends Error {
  /** `'timeout'`: waited `maxWaitMs` for another caller's load. `'failed'`: another caller's load failed. */
  readonly reason: 'timeout' | 'failed';
  /** **Milliseconds** until a new load may start (`'failed'`), or the lock's remaining TTL (`'timeout'`). */
  readonly retryAfterMs: number;

  constructor(reason: 'timeout' | 'failed', retryAfterMs: number, message: string) {
    super(message);
    this.name = 'CacheLoadError';
    this.reason = reason;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Loads the value of a key from the source of truth (a database, an API...). */
export type Loader<T> = () => Promise<T | NotFoundMarker | undefined> | T | NotFoundMarker | undefined;

/** Turns values into the strings stored in Redis and back. */
export interface Serializer<T> {
  /** Must return a string; throwing rejects the `getOrLoad` or `set` call (nothing is stored). */
  serialize(value: T): string;
  /** Inverse of `serialize`. Throwing rejects the `getOrLoad` call that read the entry. */
  deserialize(text: string): T;
}

/** Early recomputation settings, see {@link CacheOptions.earlyRecompute}. */
export interface EarlyRecomputeOptions {
  /**
   * XFetch's `beta`, a finite number > 0. Default `1`. Above 1 recomputes earlier (fewer
   * expiries reached on keys with few reads, more loads), below 1 later.
   */
  beta?: number;
}

/** Options of {@link createCache}. Durations are integers in **milliseconds**. */
export interface CacheOptions<T> {
  /**
   * First key segment, naming this cache: 1-64 characters of `A-Z a-z 0-9 _ . -`. Required: two
   * caches with different value shapes must not share entries.
   */
  namespace: string;
  /** Key version segment; bump it when the stored shape or the serializer changes. Default `'v1'`. */
  version?: string;
  /** TTL of a cached value, **ms**, an integer >= 1, before jitter. */
  ttlMs: number;
  /**
   * Relative TTL spread, a number in `[0, 1)`. Default `0.1`: each write's TTL is drawn uniformly
   * from `[ttlMs * (1 - jitter), ttlMs * (1 + jitter)]`, rounded to whole ms and never below 1,
   * so keys written together do not expire together (avalanche).
   */
  jitter?: number;
  /**
   * TTL of the load lock, **ms**, an integer >= 1. Default `5000`. While a loader runs, its process
   * renews the lock every `lockTtlMs / 3` (at least every 10 ms), so a slow load keeps the key to
   * itself however long it takes; a crashed process's lock expires after at most this long, and a
   * caller then loads again. A loader that never settles holds the lock as long as its process
   * lives: bound your loader's own time (a query timeout, `AbortSignal.timeout`).
   */
  lockTtlMs?: number;
  /**
   * How long a caller that finds the lock taken waits for the value, **ms**, an integer >= 0.
   * Default `lockTtlMs` (by then a crashed holder's lock has expired and the waiter takes it).
   * When the bound is reached and the lock is still held (a load slower than `maxWaitMs`, whose
   * lock its process keeps renewing), the caller does **not** run the loader: it answers with the
   * value kept by `staleIfErrorMs` when there is one, else rejects with a {@link CacheLoadError}
   * (`reason: 'timeout'`). Callers in one process share one wait.
   */
  maxWaitMs?: number;
  /**
   * Back-off after a failed load, **ms**, an integer in [0, 2^31 - 1]. Default `1000`. When a
   * loader throws, its caller gets the error; the callers waiting for that load (in this process:
   * the same error; in others: a {@link CacheLoadError}, `reason: 'failed'`, or the value kept by
   * `staleIfErrorMs`) answer at once instead of each running the loader again, and no load of the
   * key starts for this long; each further failure in a row doubles it (up to 32 times).
   * `0`: no back-off (the next caller loads again at once).
   */
  loadErrorBackoffMs?: number;
  /**
   * Probabilistic early recomputation (XFetch). Default `true` (`beta = 1`). A hit whose entry
   * expires in `pttl` ms is recomputed in the background, by the one caller that gets the lock,
   * when `delta * beta * -ln(random()) >= pttl`, where `delta` is the last measured load time.
   * `false` disables it (entries then expire and the next caller loads under the lock).
   * The background load runs the triggering call's `loader` after that call returned: loaders
   * must not depend on request-scoped resources that are closed by then.
   */
  earlyRecompute?: boolean | EarlyRecomputeOptions;
  /**
   * TTL of a cached "absent" (the loader returned `undefined` or {@link NotFound}), **ms**, an
   * integer >= 1, jittered like `ttlMs`. Default `min(ttlMs, 30000)`. Short, so a record created
   * later shows up soon; long enough to keep lookups of missing records off the database.
   */
  negativeTtlMs?: number;
  /** Default JSON (`JSON.stringify` / `JSON.parse`): a hit returns a copy, `Date`s come back as strings. */
  serializer?: Serializer<T>;
  /**
   * Called with errors of work the caller does not await: a background recomputation whose loader
   * or store failed, a delayed second delete that failed. Default: ignored (counted in `stats()`).
   */
  onBackgroundError?: (error: unknown, key: string) => void;
  /**
   * Deadline of each Redis call of the cache, **ms**, an integer in [1, 2^31 - 1]. Default `1000`.
   * A call that misses it marks the key's shard down for every user of the client until a probe
   * (every `redisProbeIntervalMs`) answers; meanwhile nothing is sent for that shard.
   */
  timeoutMs?: number;
  /** **Milliseconds** between two probes of a shard that is down, an integer in [1, 2^31 - 1]. Default `1000`. */
  redisProbeIntervalMs?: number;
  /**
   * What `getOrLoad` does when Redis is unavailable (no answer within `timeoutMs`, a connection
   * error, OOM / READONLY / LOADING / ..., or the shard already known to be down):
   * - `'load'` (default): serve the value kept by `staleIfErrorMs` when there is one, else run
   *   the loader and return its value without storing it. Concurrent calls for one key in this
   *   process share one loader run while Redis is unavailable.
   * - `'throw'`: serve the stale value when there is one, else reject with `RedisUnavailableError`.
   * `set` and `invalidate` always reject with `RedisUnavailableError` then: the caller must know
   * that the cache was not changed.
   */
  onRedisError?: 'load' | 'throw';
  /**
   * Stale-if-error (the idea of RFC 5861), **ms**, an integer in [0, 2^53 - 1]. Default `0` (off).
   * When > 0, values read from or stored to Redis by `getOrLoad` are also kept in this process
   * (bounded by `staleMaxBytes`) and, while Redis is unavailable, `getOrLoad` answers with one
   * kept at most this long ago before it considers `onRedisError`.
   */
  staleIfErrorMs?: number;
  /**
   * Most bytes of serialized values (2 bytes per character, plus the key) kept for
   * `staleIfErrorMs`, an integer >= 1. Default `1048576` (1 MiB). The least recently read go first.
   */
  staleMaxBytes?: number;
}

/** Options of {@link Cache.invalidate}. */
export interface InvalidateOptions {
  /**
   * When set, deletes the entry (and lock) a second time this many **ms** later, an integer >= 1
   * ("delayed double delete"): it removes a value loaded from a lagging replica or a cache written
   * by code that does not use this helper. Runs in the background; `invalidate` does not wait.
   */
  secondDeleteAfterMs?: number;
}

/** Counters since the cache was created (this process only). */
export interface CacheStats {
  /** `getOrLoad` calls answered from an entry on their first read (values and cached absents). */
  hits: number;
  /** `getOrLoad` calls that found no entry on their first read. */
  misses: number;
  /** Loader runs, for any reason (miss, early recomputation, wait bound reached). */
  loads: number;
  /** Background early recomputations started. */
  refreshes: number;
  /** Entries stored by a loader (negative ones included). */
  stores: number;
  /** Loads whose value was not stored because their lock had expired or was taken over. */
  storesRefused: number;
  /** Callers that waited for another caller's load. */
  waits: number;
  /** Waiting callers that reached `maxWaitMs` (answered with a stale value or a `CacheLoadError`). */
  waitTimeouts: number;
  /** `getOrLoad` calls that joined a read or load of the same key already in flight in this process. */
  joined: number;
  /** Calls answered from a failed load's back-off (another caller's load failed: a stale value or a `CacheLoadError`). */
  failedLoadAnswers: number;
  /** Errors passed to `onBackgroundError`. */
  backgroundErrors: number;
  /** `getOrLoad` calls that found Redis unavailable (and answered stale, loaded, or threw). */
  unavailable: number;
  /** Of those, the ones answered with a value kept by `staleIfErrorMs`. */
  staleServed: number;
}

/** A cache made by {@link createCache}. */
export interface Cache<T> {
  /**
   * Returns the cached value of `key`, or loads it once across every caller sharing the Redis.
   *
   * A hit returns the deserialized entry (and may start a background recomputation, see
   * `earlyRecompute`). A miss takes the lock (`SET lock token NX PX lockTtlMs`) and runs `loader`;
   * its result is stored with the jittered TTL (`negativeTtlMs` for an absent result) and the lock
   * released in the same script, only if the lock still holds this caller's token. Concurrent
   * calls for one key in this process share that one read and load (the first caller's loader).
   * Callers that find the lock taken by another process poll with exponential backoff (5 ms
   * doubling to 100 ms, jittered) for at most `maxWaitMs`, and take the lock themselves as soon as
   * it is free (a crashed holder's lock expires after `lockTtlMs`); past `maxWaitMs` they answer
   * without loading (see `maxWaitMs`). A load that fails is shared and backed off (see
   * `loadErrorBackoffMs`).
   *
   * @param key Any non-empty string; hashed into the Redis key, never stored in the clear.
   * @param loader Called at most once per call; its result is returned to this caller as is
   *   (not round-tripped through the serializer).
   * @returns The value, or `undefined` when the record is absent (cached or just loaded).
   * @throws {TypeError | RangeError} when `key` or `loader` is invalid, before any Redis call.
   * @throws whatever `loader` throws (nothing is stored; the key backs off, see
   *   `loadErrorBackoffMs`), to this caller and to the calls that shared its load.
   * @throws {CacheLoadError} when another caller's load of the key is still running after
   *   `maxWaitMs` (`reason: 'timeout'`) or failed less than its back-off ago (`reason: 'failed'`),
   *   and no value is kept by `staleIfErrorMs`.
   * @throws {TypeError} when the serializer does not return a string; the deserializer's error.
   * @throws {RedisUnavailableError} only with `onRedisError: 'throw'`, when Redis is unavailable
   *   and no stale value is kept (see `onRedisError`).
   * @throws {RedisError} for a reply that is a bug (WRONGTYPE when another program wrote the key).
   */
  getOrLoad(key: string, loader: Loader<T>): Promise<T | undefined>;
  /**
   * Deletes the entry of `key` and its lock. Call it **after** writing the source of truth
   * (cache-aside). Deleting the lock makes any load in flight unable to store the value it read
   * before your write.
   * @returns `true` when an entry existed.
   * @throws {TypeError | RangeError} when `key` or `secondDeleteAfterMs` is invalid.
   * @throws {RedisUnavailableError} when Redis is unavailable (`sent: false`: nothing was deleted).
   * @throws {RedisError} for a reply that is a bug.
   */
  invalidate(key: string, options?: InvalidateOptions): Promise<boolean>;
  /**
   * Writes `value` for `key` with the jittered TTL (write-through), keeping the last measured load
   * time for early recomputation, and drops the lock so an older load in flight can not overwrite
   * it. `undefined` or {@link NotFound} writes a cached absent with `negativeTtlMs`.
   * @throws {TypeError | RangeError} when `key` is invalid; {TypeError} when the serializer does
   *   not return a string.
   * @throws {RedisUnavailableError} when Redis is unavailable (`sent: false`: nothing was written).
   * @throws {RedisError} for a reply that is a bug.
   */
  set(key: string, value: T | NotFoundMarker | undefined): Promise<void>;
  /** The Redis keys of `key`'s entry and lock (for audits and tests). */
  keysFor(key: string): { entry: string; lock: string };
  /** A snapshot of the counters. */
  stats(): CacheStats;
}

const JSON_SERIALIZER: Serializer<never> = {
  serialize: (value) => JSON.stringify(value),
  deserialize: (text) => JSON.parse(text) as never,
};

const BACKOFF_START_MS = 5;
const BACKOFF_MAX_MS = 100;
const NO_ARGS: readonly string[] = [];

/** The header of an entry (see the module comment), filled in place by {@link readEntry}. */
export interface EntryHeader {
  /** The server clock at the write plus the TTL, **ms** since the epoch. */
  expiresAt: number;
  /** The last measured load time, **ms**. */
  delta: number;
  /** Whether the entry is a cached "absent" (`a`) rather than a value (`v`). */
  absent: boolean;
}

/**
 * Reads the header of an entry `RT1:<expiresAtMs>:<deltaMs>:<v|a>:<payload>` as `cache_set.lua`
 * writes it (each number 1-16 digits) into `into`, by character codes, without allocating.
 * @returns the index where the payload starts in `text` (`text.slice(index)` is the payload), or
 *   `-1` when `text` is not an entry (then `into` is left in an unspecified state).
 * @internal
 */
export function readEntry(text: unknown, into: EntryHeader): number {
  // 'R' 'T' '1' ':' by code, not startsWith (a builtin call: this function is most of a hit's header cost)
  if (typeof text !== 'string' || text.charCodeAt(0) !== 82 || text.charCodeAt(1) !== 84 || text.charCodeAt(2) !== 49 || text.charCodeAt(3) !== 58) return -1;
  let i = 4;
  for (let n = 0; n < 2; n += 1) {
    // 1-16 digits (c is a digit's value, NaN past the end), then ':' (58, 48 + 10)
    const end = i + 16;
    let c = text.charCodeAt(i) - 48;
    if (!(c >= 0 && c <= 9)) return -1;
    let value = 0;
    do {
      value = value * 10 + c;
      i += 1;
      c = text.charCodeAt(i) - 48;
    } while (c >= 0 && c <= 9 && i < end);
    if (c !== 10) return -1;
    if (n === 0) into.expiresAt = value;
    else into.delta = value;
    i += 1;
  }
  const kind = text.charCodeAt(i);
  if ((kind !== 118 && kind !== 97) || text.charCodeAt(i + 1) !== 58) return -1; // 'v' | 'a', then ':'
  into.absent = kind === 97;
  return i + 2;
}

/**
 * An upper bound of `-ln(1 - Math.random())`: `Math.random()` has at most 53 random bits, so
 * `1 - Math.random() >= 2^-53` and the logarithm is at most 53 ln 2 = 36.7. An entry whose expiry
 * is further away than `delta * beta * DRAW_BOUND` can not be recomputed early by any draw.
 */
const DRAW_BOUND = 40;

/**
 * A TTL drawn uniformly from `[ttlMs * (1 - jitter), ttlMs * (1 + jitter)]`, rounded to an integer,
 * never below 1. `random` is a number in `[0, 1)`.
 * @internal
 */
export function jitteredTtl(ttlMs: number, jitter: number, random: number): number {
  const ttl = Math.round(ttlMs * (1 + jitter * (2 * random - 1)));
  return ttl < 1 ? 1 : ttl;
}

/** Checks that `value` is a number in `[0, 1)`. */
function checkJitter(value: unknown): number {
  if (typeof value !== 'number') throw new TypeError(`jitter must be a number, got ${describe(value)}`);
  if (!Number.isFinite(value) || value < 0 || value >= 1) {
    throw new RangeError(`jitter must be a number >= 0 and < 1, got ${value}`);
  }
  return value;
}

function checkBeta(earlyRecompute: unknown): number {
  if (earlyRecompute === false) return 0;
  if (earlyRecompute === true || earlyRecompute === undefined) return 1;
  if (typeof earlyRecompute !== 'object' || earlyRecompute === null || !isPlainObject(earlyRecompute)) {
    throw new TypeError(`earlyRecompute must be a boolean or an object { beta }, got ${Array.isArray(earlyRecompute) ? 'an array' : describe(earlyRecompute)}`);
  }
  checkKnownOptions('earlyRecompute', earlyRecompute, ['beta']);
  return checkPositive('earlyRecompute.beta', orDefault((earlyRecompute as EarlyRecomputeOptions).beta, 1));
}

function checkSerializer<T>(serializer: unknown): Serializer<T> {
  if (serializer === undefined) return JSON_SERIALIZER as Serializer<T>;
  const s = serializer as Partial<Serializer<T>> | null;
  if (typeof s !== 'object' || s === null || typeof s.serialize !== 'function' || typeof s.deserialize !== 'function') {
    throw new TypeError('serializer must be an object with serialize and deserialize functions');
  }
  return s as Serializer<T>;
}

/** The names of {@link CacheOptions}. */
const CACHE_OPTION_NAMES = [
  'namespace',
  'version',
  'ttlMs',
  'jitter',
  'lockTtlMs',
  'maxWaitMs',
  'earlyRecompute',
  'negativeTtlMs',
  'serializer',
  'onBackgroundError',
  'timeoutMs',
  'redisProbeIntervalMs',
  'onRedisError',
  'staleIfErrorMs',
  'staleMaxBytes',
  'loadErrorBackoffMs',
] as const satisfies ReadonlyArray<keyof CacheOptions<unknown>>;
// a compile error here names an option of CacheOptions the list does not hold
const cacheOptionsListed: [Exclude<keyof CacheOptions<unknown>, (typeof CACHE_OPTION_NAMES)[number]>] extends [never] ? true : Exclude<keyof CacheOptions<unknown>, (typeof CACHE_OPTION_NAMES)[number]> = true;
void cacheOptionsListed;

/**
 * Creates a cache-aside helper on Redis that can not leave a key without TTL and does not
 * stampede: one loader per key at a time (a lock with an expiry), TTL jitter, probabilistic early
 * recomputation (XFetch), short negative caching, and invalidation that beats loads in flight.
 *
 * Redis docs: SET NX PX https://redis.io/docs/latest/commands/set/, PTTL
 * https://redis.io/docs/latest/commands/pttl/, distributed locks
 * https://redis.io/docs/latest/develop/use/patterns/distributed-locks/, hash tags
 * https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#hash-tags.
 *
 * @param redis A Redis client of runtime/README.md's Clients (ioredis, iovalkey, node-redis,
 *   @upstash/redis with `automaticDeserialization: false`, Valkey GLIDE, Bun).
 * @param options See {@link CacheOptions}; durations are integers in milliseconds.
 * @throws {TypeError | RangeError} naming the option when an option is missing, invalid or unknown,
 *   e.g. `ttlMs must be an integer >= 1, got 0`, `jitter must be a number >= 0 and < 1, got 1`,
 *   `createCache: unknown option "ttl"; ...` (a misspelt option is refused, not dropped).
 * @example
 * const users = createCache<User>(redis, { namespace: 'users', ttlMs: 60_000, lockTtlMs: 2_000, negativeTtlMs: 5_000 });
 * const user = await users.getOrLoad(`user:${id}`, async () => (await db.findUser(id)) ?? NotFound); // User | undefined
 * await db.updateUser(id, patch);
 * await users.invalidate(`user:${id}`, { secondDeleteAfterMs: 500 });
 */
export function createCache<T = unknown>(redis: RedisClient, options: CacheOptions<T>): Cache<T> {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  checkKnownOptions('createCache', options, CACHE_OPTION_NAMES);
  const ttlMs = checkInteger('ttlMs', options.ttlMs, 1);
  const jitter = checkJitter(orDefault(options.jitter, 0.1));
  if (Math.ceil(ttlMs * (1 + jitter)) > MAX_EXACT) throw new RangeError('ttlMs * (1 + jitter) must be below 2^53');
  const lockTtlMs = checkInteger('lockTtlMs', orDefault(options.lockTtlMs, 5000), 1);
  const maxWaitMs = checkInteger('maxWaitMs', orDefault(options.maxWaitMs, lockTtlMs), 0);
  const negativeTtlMs = checkInteger('negativeTtlMs', orDefault(options.negativeTtlMs, Math.min(ttlMs, 30_000)), 1);
  if (Math.ceil(negativeTtlMs * (1 + jitter)) > MAX_EXACT) {
    throw new RangeError('negativeTtlMs * (1 + jitter) must be below 2^53');
  }
  const beta = checkBeta(options.earlyRecompute);
  const serializer = checkSerializer<T>(options.serializer);
  const onBackgroundError = options.onBackgroundError;
  if (onBackgroundError !== undefined && typeof onBackgroundError !== 'function') {
    throw new TypeError(`onBackgroundError must be a function, got ${describe(onBackgroundError)}`);
  }
  const namespace = checkNonEmptyString('namespace', options.namespace);
  const version = orDefault(options.version, 'v1');
  // validates namespace and version now, not on the first call
  buildKey({ namespace, algorithm: CACHE_KEY_SEGMENT, version, identity: '-' });

  const timeoutMs = checkInteger('timeoutMs', orDefault(options.timeoutMs, 1000), 1, MAX_TIMER_MS);
  const probeIntervalMs = checkInteger('redisProbeIntervalMs', orDefault(options.redisProbeIntervalMs, 1000), 1, MAX_TIMER_MS);
  const onRedisError = checkOneOf('onRedisError', orDefault(options.onRedisError, 'load'), ['load', 'throw'] as const);
  const staleIfErrorMs = checkInteger('staleIfErrorMs', orDefault(options.staleIfErrorMs, 0), 0);
  const staleMaxBytes = checkInteger('staleMaxBytes', orDefault(options.staleMaxBytes, 1024 * 1024), 1);
  const loadErrorBackoffMs = checkInteger('loadErrorBackoffMs', orDefault(options.loadErrorBackoffMs, 1000), 0, MAX_TIMER_MS);

  const health = healthFor(redis);
  const deadlines = health.deadlines(timeoutMs);
  /** Runs a script: the reply, or an `Unavailable`; rejects with a `RedisError` for bug replies. */
  const run = (script: RuntimeScript, keys: ScriptKeys, args: readonly string[]): Promise<unknown> =>
    health.run(script, keys, args, deadlines, probeIntervalMs);
  /** Runs a script whose caller must know it did not happen: rejects with `RedisUnavailableError` then. */
  const runOrThrow = async (script: RuntimeScript, keys: readonly string[], args: readonly string[]): Promise<unknown> => {
    const reply = await run(script, keys, args);
    if (reply instanceof Unavailable) throw reply.toError();
    return reply;
  };
  const getLua = getScript('cache_get');
  const setLua = getScript('cache_set');
  const releaseLua = getScript('cache_release');
  const delLua = getScript('cache_del');
  const failLua = getScript('cache_fail');
  const renewLua = getScript('cache_renew');
  const lockTtlArg = String(lockTtlMs);
  /** How often a running load renews its lock. */
  const renewEveryMs = Math.min(MAX_TIMER_MS, Math.max(10, Math.floor(lockTtlMs / 3)));
  /** XFetch's draw, `beta * -ln(random())`: 1 - random() is in (0, 1], so the logarithm is finite; capped to what the script takes. */
  const draw = (): number => (beta === 0 ? 0 : Math.min(MAX_EXACT, beta * -Math.log(1 - Math.random())));
  const counters: CacheStats = {
    hits: 0,
    misses: 0,
    loads: 0,
    refreshes: 0,
    stores: 0,
    storesRefused: 0,
    waits: 0,
    waitTimeouts: 0,
    joined: 0,
    failedLoadAnswers: 0,
    backgroundErrors: 0,
    unavailable: 0,
    staleServed: 0,
  };

  // the entry key of recent cache keys, remembered (by fingerprint, not by key) instead of hashed per call
  const template = buildKey({ namespace, algorithm: CACHE_KEY_SEGMENT, version, identity: '-', scope: 's' });
  const head = template.slice(0, template.indexOf('{') + 1);
  const tail = template.slice(template.indexOf('}'));
  const entries = new KeyMemo((key) => head + hashIdentity(key) + tail);
  /** The entry key of `key`; the lock differs from it only in its last character. */
  const entryFor = (key: string): string => {
    checkNonEmptyString('key', key);
    return entries.keyFor(key);
  };
  const keysFor = (key: string): { entry: string; lock: string } => {
    const entry = entryFor(key);
    return { entry, lock: `${entry.slice(0, -1)}l` };
  };
  // lock tokens: 96 random bits per cache object plus a counter, unique across processes and calls
  const tokenPrefix = randomBytes(12).toString('base64url');
  let tokenCounter = 0;

  const reportBackground = (error: unknown, key: string): void => {
    counters.backgroundErrors += 1;
    try {
      onBackgroundError?.(error, key);
    } catch {
      // a throwing handler must not become an unhandled rejection
    }
  };

  // stale-if-error: the serialized values last read from Redis, least recently read first
  const stale = new Map<string, { text: string | null; at: number; bytes: number }>();
  let staleBytes = 0;
  const dropStale = (key: string): void => {
    const old = stale.get(key);
    if (old !== undefined) {
      stale.delete(key);
      staleBytes -= old.bytes;
    }
  };
  const keepStale = (key: string, text: string | null): void => {
    dropStale(key);
    const bytes = 2 * (key.length + (text?.length ?? 0)) + 64;
    if (bytes > staleMaxBytes) return;
    stale.set(key, { text, at: performance.now(), bytes });
    staleBytes += bytes;
    for (const [oldest, kept] of stale) {
      if (staleBytes <= staleMaxBytes) break;
      stale.delete(oldest);
      staleBytes -= kept.bytes;
    }
  };
  // loads in flight while Redis is unavailable, one per key in this process
  const outageLoads = new Map<string, Promise<T | NotFoundMarker | undefined>>();

  /** The answer of `getOrLoad` while Redis is unavailable; see `onRedisError` and `staleIfErrorMs`. */
  const whileUnavailable = async (key: string, loader: Loader<T>, reply: Unavailable): Promise<T | undefined> => {
    counters.unavailable += 1;
    const kept = staleIfErrorMs > 0 ? stale.get(key) : undefined;
    if (kept !== undefined && performance.now() - kept.at <= staleIfErrorMs) {
      counters.staleServed += 1;
      return kept.text === null ? undefined : serializer.deserialize(kept.text);
    }
    if (onRedisError === 'throw') throw reply.toError();
    let loading = outageLoads.get(key);
    if (loading === undefined) {
      counters.loads += 1;
      loading = (async () => loader())();
      outageLoads.set(key, loading);
      const forget = () => outageLoads.delete(key);
      loading.then(forget, forget);
    }
    const value = await loading;
    return value === NotFound ? undefined : (value as T | undefined);
  };

  /** [kind, payload, ttl] for the store script; validates the serializer's output. */
  const encode = (value: T | NotFoundMarker | undefined): [string, string, string] => {
    if (value === undefined || value === NotFound) return ['a', '', String(jitteredTtl(negativeTtlMs, jitter, Math.random()))];
    const text: unknown = serializer.serialize(value);
    if (typeof text !== 'string') throw new TypeError(`serializer.serialize must return a string, got ${describe(text)}`);
    return ['v', text, String(jitteredTtl(ttlMs, jitter, Math.random()))];
  };

  /**
   * Runs the loader under the lock `token` and stores its result (if the lock is still ours and
   * Redis answers; the value is returned either way).
   */
  const loadAndStore = async (key: string, keys: string[], token: string, loader: Loader<T>, failures: number): Promise<T | undefined> => {
    counters.loads += 1;
    const started = performance.now();
    let value: T | NotFoundMarker | undefined;
    let encoded: [string, string, string];
    // renew the lock while the loader runs; stop once it is no longer ours
    const renewal = setInterval(() => {
      run(renewLua, [keys[1]!], [token, lockTtlArg]).then(
        (renewed) => {
          if (renewed === 0) clearInterval(renewal);
        },
        () => undefined,
      );
    }, renewEveryMs);
    renewal.unref();
    try {
      value = await loader();
    } catch (error) {
      clearInterval(renewal);
      // the waiters answer with the failure instead of each loading again (cache_fail.lua)
      if (loadErrorBackoffMs > 0) {
        const backoff = loadErrorBackoffMs * 2 ** Math.min(failures, 5);
        await run(failLua, [keys[1]!], [token, String(failures + 1), String(backoff)]).catch(() => undefined);
      } else {
        await run(releaseLua, [keys[1]!], [token]).catch(() => undefined);
      }
      throw error;
    }
    clearInterval(renewal);
    try {
      encoded = encode(value);
    } catch (error) {
      // a value the serializer can not store: a bug to fix, not a load to back off from
      await run(releaseLua, [keys[1]!], [token]).catch(() => undefined);
      throw error;
    }
    const delta = Math.max(0, Math.round(performance.now() - started));
    const [kind, payload, ttl] = encoded;
    const stored = await run(setLua, keys, [token, kind, payload, ttl, String(delta)]);
    if (stored === 1) {
      counters.stores += 1;
      if (staleIfErrorMs > 0) keepStale(key, kind === 'a' ? null : payload);
    } else {
      counters.storesRefused += 1; // the lock expired or was taken over, or Redis is unavailable
    }
    return value === NotFound ? undefined : value;
  };

  /** The value kept by `staleIfErrorMs` for `key` when there is one, else rejects with `error`. */
  const staleOr = (key: string, error: CacheLoadError): T | undefined => {
    const kept = staleIfErrorMs > 0 ? stale.get(key) : undefined;
    if (kept === undefined || performance.now() - kept.at > staleIfErrorMs) throw error;
    counters.staleServed += 1;
    return kept.text === null ? undefined : serializer.deserialize(kept.text);
  };

  // The server clock as this process estimates it, for XFetch on a GET: this process' monotonic
  // clock plus the offset to the server's TIME in the last script reply (taken at the middle of its
  // round trip). A clock ahead of Redis' would otherwise send every hit to the script, one behind
  // it would never recompute early. Until a script reply teaches it, the wall clock.
  let clockOffset = Date.now() - monotonicEpochMs();
  const serverNow = (): number => monotonicEpochMs() + clockOffset;
  /** `serverMs`: the server clock in a reply to a script sent at `sentAt` (this process' monotonic clock). */
  const learnClock = (serverMs: number, sentAt: number): void => {
    if (typeof serverMs === 'number' && Number.isFinite(serverMs)) clockOffset = serverMs - (sentAt + monotonicEpochMs()) / 2;
  };

  // reads that run the script, one per key in this process: concurrent calls share it
  const flights = new Map<string, Promise<T | undefined>>();
  /** {@link readByScript}, shared by the calls for one key in this process. */
  const sharedRead = (key: string, loader: Loader<T>, entry: string, xfetch: number): Promise<T | undefined> => {
    const flying = flights.get(entry);
    if (flying !== undefined) {
      counters.joined += 1;
      return flying;
    }
    const flight = readByScript(key, loader, entry, xfetch);
    flights.set(entry, flight);
    const land = (): void => {
      if (flights.get(entry) === flight) flights.delete(entry);
    };
    flight.then(land, land);
    return flight;
  };

  /**
   * The read of a miss, or of a hit that may recompute early (`xfetch` > 0, the draw that called
   * for it): the `cache_get` script decides on the entry's real PTTL, takes the lock or waits.
   */
  const readByScript = async (key: string, loader: Loader<T>, entry: string, xfetch: number): Promise<T | undefined> => {
    const lock = `${entry.slice(0, -1)}l`;
    const keys = [entry, lock];
    tokenCounter += 1;
    const token = `${tokenPrefix}.${tokenCounter.toString(36)}`;
    const deadline = performance.now() + maxWaitMs;
    for (let attempt = 0; ; attempt += 1) {
      if (attempt > 0) xfetch = draw();
      const sentAt = monotonicEpochMs();
      const reply = await run(getLua, keys, [token, lockTtlArg, String(xfetch)]);
      if (reply instanceof Unavailable) return whileUnavailable(key, loader, reply);
      const [status, absent, text, pttl, nowMs] = reply as [string, number, string | null, number, number];
      learnClock(nowMs, sentAt);
      if (status === 'hit' || status === 'refresh') {
        if (attempt === 0) counters.hits += 1;
        let value: T | undefined;
        try {
          value = absent === 1 || text === null ? undefined : serializer.deserialize(text);
        } catch (error) {
          if (status === 'refresh') await run(releaseLua, [lock], [token]).catch(() => undefined);
          throw error;
        }
        if (staleIfErrorMs > 0) keepStale(key, absent === 1 ? null : text);
        if (status === 'refresh') {
          counters.refreshes += 1;
          loadAndStore(key, keys, token, loader, 0).catch((error: unknown) => reportBackground(error, key));
        }
        return value;
      }
      if (attempt === 0) counters.misses += 1;
      if (status === 'load') return loadAndStore(key, keys, token, loader, absent);
      if (status === 'failed') {
        // another caller's load failed: answer now, without loading (its back-off)
        counters.failedLoadAnswers += 1;
        return staleOr(
          key,
          new CacheLoadError(
            'failed',
            pttl,
            `createCache: the last load of this key failed (${absent} in a row); no new load for ${pttl} ms (loadErrorBackoffMs)`,
          ),
        );
      }
      // 'busy': another caller is loading
      if (attempt === 0) counters.waits += 1;
      const left = deadline - performance.now();
      if (left <= 0) {
        // the load is slower than maxWaitMs: answer without starting another one
        counters.waitTimeouts += 1;
        return staleOr(
          key,
          new CacheLoadError('timeout', pttl, `createCache: another caller's load of this key did not finish within maxWaitMs (${maxWaitMs} ms)`),
        );
      }
      const step = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** attempt);
      await sleep(Math.min(left, step / 2 + Math.random() * (step / 2)));
    }
  };

  /**
   * XFetch on an entry read by `GET`, decided with this process' clock: the draw that calls for an
   * early recomputation (> 0; the script then decides again on the real PTTL with the same draw),
   * or 0. No draw is made when no draw could reach the entry's expiry (the usual hit), and then no
   * clock is read either when the entry outlives `by` (the reply's latest time, its call's
   * deadline, `performance.now()` ms) by that margin: a clock read is ~45 ns of a hit.
   */
  const earlyDraw = (delta: number, expiresAt: number, by: number): number => {
    if (beta === 0) return 0;
    const bound = delta * beta * DRAW_BOUND;
    if (bound < expiresAt - (monotonicEpochMsAt(by) + clockOffset)) return 0;
    const left = expiresAt - serverNow();
    if (bound < left) return 0;
    const xfetch = draw();
    return xfetch > 0 && delta * xfetch >= left ? xfetch : 0;
  };

  // The hit path: `getOrLoad` is the promise of one GET, whose reply becomes the value where the
  // call settles (no async frame, no promise of its own); the header is read into one object per
  // cache. What a hit allocates besides the client's GET: the call's record, the pair below, the
  // payload's substring and what the deserializer makes. It reads the clock once (its call's
  // deadline): XFetch's test of a usual hit takes the deadline for the time of the reply.
  const header: EntryHeader = { expiresAt: 0, delta: 0, absent: false };
  /** The `context` of a read: the cache key and the caller's loader. */
  type Read = readonly [key: string, loader: Loader<T>];
  const reader: Receiver = {
    receive(answer: unknown, _script: RuntimeScript, entry: string, context: unknown, by: number): unknown {
      const read = context as Read;
      if (answer instanceof Unavailable) return whileUnavailable(read[0], read[1], answer);
      const at = readEntry(answer, header);
      if (at === -1) return sharedRead(read[0], read[1], entry, draw());
      const xfetch = earlyDraw(header.delta, header.expiresAt, by);
      if (xfetch > 0) return sharedRead(read[0], read[1], entry, xfetch);
      counters.hits += 1;
      if (header.absent) {
        if (staleIfErrorMs > 0) keepStale(read[0], null);
        return undefined;
      }
      const payload = (answer as string).slice(at);
      const value = serializer.deserialize(payload);
      if (staleIfErrorMs > 0) keepStale(read[0], payload);
      return value;
    },
  };

  return {
    keysFor,
    stats: () => ({ ...counters }),

    getOrLoad(key: string, loader: Loader<T>): Promise<T | undefined> {
      let entry: string;
      try {
        entry = entryFor(key);
        if (typeof loader !== 'function') throw new TypeError(`loader must be a function, got ${describe(loader)}`);
      } catch (error) {
        return Promise.reject(error);
      }
      const read: Read = [key, loader];
      return health.run(GET_COMMAND, entry, NO_ARGS, deadlines, probeIntervalMs, reader, read) as Promise<T | undefined>;
    },

    async invalidate(key: string, invalidateOptions: InvalidateOptions = {}): Promise<boolean> {
      const keys = keysFor(key);
      if (typeof invalidateOptions !== 'object' || invalidateOptions === null) {
        throw new TypeError('invalidate options must be an object');
      }
      checkKnownOptions('cache.invalidate', invalidateOptions, ['secondDeleteAfterMs']);
      const again = invalidateOptions.secondDeleteAfterMs;
      if (again !== undefined) checkInteger('secondDeleteAfterMs', again, 1, MAX_TIMER_MS);
      dropStale(key);
      const deleted = await runOrThrow(delLua, [keys.entry, keys.lock], []);
      if (again !== undefined) {
        setTimeout(() => {
          runOrThrow(delLua, [keys.entry, keys.lock], []).catch((error: unknown) => reportBackground(error, key));
        }, again);
      }
      return deleted === 1;
    },

    async set(key: string, value: T | NotFoundMarker | undefined): Promise<void> {
      const { entry, lock } = keysFor(key);
      const [kind, payload, ttl] = encode(value);
      dropStale(key);
      await runOrThrow(setLua, [entry, lock], ['', kind, payload, ttl, '']);
    },
  };
}
