import type { StoreClient } from './client.js';
import { checkOutageOptions, FromMemory, Route, StoreFull, type OutageOptions } from './fallback.js';
import { Unavailable } from './health.js';
import { buildKey, checkIdentitySecret, checkScope, hashIdentity } from './keys.js';
import type { OutageReason } from './outage.js';
import { getScript } from './scripts.js';
import { checkInteger, checkKnownOptions, checkNonEmptyString, checkOneOf, orDefault } from './validate.js';

/** Longest `windowMs` / `openMs` accepted: 10^12 ms (about 31 years). */
const MAX_MS = 1_000_000_000_000;
/** Largest `nowMs` accepted: 2^52 (so `now + 2 * openMs` stays exact). */
const MAX_NOW = 2 ** 52;

/** Options of {@link createCircuitBreaker}. */
export interface CircuitBreakerOptions extends OutageOptions {
  /** Failures within `windowMs` that open the breaker, an integer >= 1. */
  failureThreshold: number;
  /**
   * **Milliseconds**, an integer in [1, 10^12]. Failures are counted in a window that starts at the
   * first failure and lasts `windowMs`; the count starts over after it.
   */
  windowMs: number;
  /** **Milliseconds** the breaker stays open before it lets probes through, an integer in [1, 10^12]. */
  openMs: number;
  /** Calls admitted as probes in the half-open state, an integer >= 1. Default `1`. */
  halfOpenProbes?: number;
  /** Key namespace (first key segment). Default `'rl'`. */
  namespace?: string;
  /** Key version segment. Default `'v1'`. */
  version?: string;
  /** Key scope (last segment). Default `'default'`. */
  scope?: string;
  /** Secret for hashing names with HMAC-SHA-256 (see `buildKey`). Default: plain SHA-256. */
  identitySecret?: string | Buffer;
}

/** `'closed'`: calls go through. `'open'`: calls are refused. `'half-open'`: a few probes go through. */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** The outcome of a call made through the breaker. */
export type CallOutcome = 'success' | 'failure';

/** The state of one breaker, as {@link CircuitBreaker.read} and {@link CircuitBreaker.record} report it. */
export interface BreakerSnapshot {
  /** The state now (an open breaker whose open period is over reads `'half-open'`). */
  state: BreakerState;
  /** Failures counted in the current window (closed state; `0` otherwise). */
  failures: number;
  /** Probes admitted and not yet recorded in the current half-open round (`0` otherwise). */
  probesInFlight: number;
  /**
   * `0` when an `acquire` now would be admitted; else exact **milliseconds** until it would be
   * (the end of the open period, or of a half-open round whose probes are all taken).
   */
  retryAfterMs: number;
  /** Present only when Redis did not answer: see {@link OutageReason}. */
  reason?: OutageReason;
}

/** The answer of {@link CircuitBreaker.acquire}: the snapshot after the call, and the decision. */
export interface BreakerDecision extends BreakerSnapshot {
  /** Whether the call may go through. When it went through, `record` its outcome. */
  allowed: boolean;
}

/** Options of the breaker's methods. */
export interface BreakerCallOptions {
  /**
   * **Tests only.** The current time in milliseconds since the Unix epoch, an integer in
   * [0, 2^52], used instead of the Redis server clock (TIME). Must not go backwards for a name.
   */
  nowMs?: number;
}

/** A circuit breaker made by {@link createCircuitBreaker}. */
export interface CircuitBreaker {
  /** Upper bound of any key's TTL in **milliseconds**: `max(windowMs, 2 * openMs)`. */
  readonly maxTtlMs: number;
  /**
   * May a call to `name` go through now? Closed: yes, nothing written. Open: no, with the exact
   * `retryAfterMs`, nothing written. Half-open: yes while fewer than `halfOpenProbes` probes are
   * reserved (the reservation is written with a TTL), else no until the round lapses.
   * @throws {TypeError | RangeError} when `name` or `nowMs` is invalid, before any Redis call.
   * @throws {RedisError} for replies that are bugs, not outages (e.g. WRONGTYPE): message, `code`
   *   and `address`, never the command.
   */
  acquire(name: string, options?: BreakerCallOptions): Promise<BreakerDecision>;
  /**
   * Records the outcome of a call that `acquire` admitted. Record every admitted call, a timeout
   * as a `'failure'`. Closed: a failure is counted, the `failureThreshold`-th within `windowMs`
   * opens the breaker for `openMs`. Half-open: a success closes it, a failure reopens it. Open: no
   * change. Every outcome rewrites the key's TTL (or deletes the key when the breaker is closed
   * without failures, which is what a missing key means).
   * @throws {TypeError | RangeError} when an argument is invalid, before any Redis call.
   */
  record(name: string, outcome: CallOutcome, options?: BreakerCallOptions): Promise<BreakerSnapshot>;
  /**
   * The state of `name`, read-only: never creates a key, never starts a half-open round.
   * @throws {TypeError | RangeError} when `name` or `nowMs` is invalid, before any Redis call.
   */
  read(name: string, options?: BreakerCallOptions): Promise<BreakerSnapshot>;
  /** The Redis key holding `name`'s state (for audits and tests). */
  keyFor(name: string): string;
}

const STATES: readonly BreakerState[] = ['closed', 'open', 'half-open'];

function snapshotOf(reply: readonly number[], offset: number): BreakerSnapshot {
  return {
    state: STATES[reply[offset]!]!,
    failures: reply[offset + 1]!,
    probesInFlight: reply[offset + 2]!,
    retryAfterMs: reply[offset + 3]!,
  };
}

/** The names of {@link CircuitBreakerOptions} (with those of OutageOptions). */
const BREAKER_OPTION_NAMES = [
  'failureThreshold',
  'windowMs',
  'openMs',
  'halfOpenProbes',
  'namespace',
  'version',
  'scope',
  'identitySecret',
  'onRedisError',
  'timeoutMs',
  'outageRetryAfterMs',
  'fallback',
  'redisProbeIntervalMs',
] as const satisfies ReadonlyArray<keyof CircuitBreakerOptions>;
// a compile error here names an option of CircuitBreakerOptions the list does not hold
const breakerOptionsListed: [Exclude<keyof CircuitBreakerOptions, (typeof BREAKER_OPTION_NAMES)[number]>] extends [never] ? true : Exclude<keyof CircuitBreakerOptions, (typeof BREAKER_OPTION_NAMES)[number]> = true;
void breakerOptionsListed;

/**
 * Creates a distributed circuit breaker: one Redis hash per breaker name, changed only by the
 * Lua scripts `circuit_acquire`, `circuit_record` and `circuit_read` (atomic, clocked by the
 * Redis server's TIME, https://redis.io/docs/latest/commands/time/). Every write renews the key's
 * TTL (PEXPIRE, https://redis.io/docs/latest/commands/pexpire/) to the moment its state stops
 * mattering, so an abandoned breaker reclaims itself and a missing key means "closed, no failures".
 *
 * @param redis An ioredis `Redis` or `Cluster`, or a `MemoryStore`.
 * @param options See {@link CircuitBreakerOptions}; units are in the option names.
 * @throws {TypeError | RangeError} naming the option when an option is missing, invalid or unknown
 *   (a misspelt option is refused, not dropped).
 * @example
 * const breaker = createCircuitBreaker(redis, { failureThreshold: 5, windowMs: 10_000, openMs: 30_000, halfOpenProbes: 2, onRedisError: 'fallback' });
 * const gate = await breaker.acquire('payments-api');
 * if (!gate.allowed) throw new ServiceUnavailable(gate.retryAfterMs);
 * try {
 *   const result = await callPayments();
 *   await breaker.record('payments-api', 'success');
 *   return result;
 * } catch (error) {
 *   await breaker.record('payments-api', 'failure');
 *   throw error;
 * }
 */
export function createCircuitBreaker(redis: StoreClient, options: CircuitBreakerOptions): CircuitBreaker {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  checkKnownOptions('createCircuitBreaker', options, BREAKER_OPTION_NAMES);
  const threshold = checkInteger('failureThreshold', options.failureThreshold, 1, 1_000_000_000);
  const windowMs = checkInteger('windowMs', options.windowMs, 1, MAX_MS);
  const openMs = checkInteger('openMs', options.openMs, 1, MAX_MS);
  const probes = checkInteger('halfOpenProbes', orDefault(options.halfOpenProbes, 1), 1, 1_000_000_000);
  const outageOptions = checkOutageOptions(options);
  const { mode, outageRetryAfterMs } = outageOptions;
  const scope = checkScope(orDefault(options.scope, 'default'));
  const identitySecret = checkIdentitySecret(options.identitySecret);
  const template = buildKey({
    namespace: orDefault(options.namespace, 'rl'),
    // `cb`, then the version of the format of its state (see docs/runtime-resilience.md#key-format-and-rolling-deploys)
    algorithm: 'cb1',
    version: orDefault(options.version, 'v1'),
    identity: '-',
    scope,
    identitySecret,
  });
  const head = template.slice(0, template.indexOf('{') + 1);
  const tail = template.slice(template.indexOf('}'));
  const keyFor = (name: string): string => head + hashIdentity(name, identitySecret) + tail;
  const params = [String(threshold), String(windowMs), String(openMs), String(probes)];
  const route = new Route(redis, mode, outageOptions, options.fallback);
  const scripts = {
    acquire: getScript('circuit_acquire'),
    record: getScript('circuit_record'),
    read: getScript('circuit_read'),
  };

  const prepare = (method: string, name: string, callOptions: BreakerCallOptions): [string, string[]] => {
    checkNonEmptyString('name', name);
    if (typeof callOptions !== 'object' || callOptions === null) throw new TypeError('options must be an object');
    checkKnownOptions(`breaker.${method}`, callOptions, ['nowMs']);
    const now = callOptions.nowMs === undefined ? '' : String(checkInteger('nowMs', callOptions.nowMs, 0, MAX_NOW));
    return [keyFor(name), [...params, now]];
  };
  /** The policy's answer while Redis is unavailable (fail-closed: open; fail-open: closed). */
  const outage = (): BreakerSnapshot =>
    mode === 'fail-open'
      ? { state: 'closed', failures: 0, probesInFlight: 0, retryAfterMs: 0, reason: 'redis-unavailable' }
      : { state: 'open', failures: 0, probesInFlight: 0, retryAfterMs: outageRetryAfterMs, reason: 'redis-unavailable' };
  /** The reply of a script and whether the memory fallback gave it. */
  const replyOf = (answer: unknown): [number[], boolean] =>
    answer instanceof FromMemory ? [answer.value as number[], true] : [answer as number[], false];
  const withReason = <T extends BreakerSnapshot>(snapshot: T, memory: boolean): T => (memory ? { ...snapshot, reason: 'fallback' } : snapshot);

  return {
    maxTtlMs: Math.max(windowMs, 2 * openMs),
    keyFor,
    async acquire(name, callOptions = {}) {
      const [key, args] = prepare('acquire', name, callOptions);
      const answer = await route.run(scripts.acquire, key, args);
      if (answer instanceof Unavailable) {
        const snapshot = outage();
        return { allowed: snapshot.state === 'closed', ...snapshot };
      }
      if (answer instanceof StoreFull) {
        // acquire writes only to a key that exists, so this can not happen; fail closed anyway
        return { allowed: false, state: 'open', failures: 0, probesInFlight: 0, retryAfterMs: outageRetryAfterMs, reason: 'store-full' };
      }
      const [reply, memory] = replyOf(answer);
      return withReason({ allowed: reply[0] === 1, ...snapshotOf(reply, 1) }, memory);
    },
    async record(name, outcome, callOptions = {}) {
      const [key, args] = prepare('record', name, callOptions);
      checkOneOf('outcome', outcome, ['success', 'failure'] as const);
      const answer = await route.run(scripts.record, key, [...args, outcome]);
      if (answer instanceof Unavailable) return outage();
      if (answer instanceof StoreFull) {
        // a failure for a name the full memory store does not hold: not counted; report the state as it is
        const read = await route.run(scripts.read, key, args);
        const reply = read instanceof Unavailable || read instanceof StoreFull ? [0, 0, 0, 0] : replyOf(read)[0];
        return { ...snapshotOf(reply, 0), reason: 'store-full' };
      }
      const [reply, memory] = replyOf(answer);
      return withReason(snapshotOf(reply, 0), memory);
    },
    async read(name, callOptions = {}) {
      const [key, args] = prepare('read', name, callOptions);
      const answer = await route.run(scripts.read, key, args);
      if (answer instanceof Unavailable) return outage();
      if (answer instanceof StoreFull) throw new Error('unreachable: circuit_read never writes');
      const [reply, memory] = replyOf(answer);
      return withReason(snapshotOf(reply, 0), memory);
    },
  };
}
