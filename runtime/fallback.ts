/**
 * Where a limiter's or breaker's call runs: Redis; or, while the call's shard is down (see
 * `health.ts`), the outage policy's fixed answer or, with `onRedisError: 'fallback'`, a memory
 * store.
 *
 * State is not copied either way: the memory store starts from nothing and Redis resumes from what
 * it held (minus what expired meanwhile).
 *
 * @internal
 */
import type { StoreClient } from './client.js';
import { healthFor, Unavailable, type ClientHealth, type Receiver } from './health.js';
import { MemoryStore, StoreFullError } from './memory.js';
import { MAX_TIMER_MS, type DeadlineQueue, type OutagePolicy } from './outage.js';
import type { RuntimeScript } from './scripts.js';
import { checkInteger, checkOneOf, describe, orDefault } from './validate.js';

/**
 * What a limiter or breaker does when Redis is unavailable: `'fail-closed'` denies,
 * `'fail-open'` allows, `'fallback'` answers from an in-process memory store.
 */
export type OnRedisError = OutagePolicy | 'fallback';

/** Options shared by limiters and breakers about outages. */
export interface OutageOptions {
  /**
   * What to answer when Redis is unreachable, times out or answers that it can not serve or take
   * writes (CLUSTERDOWN, LOADING, OOM, READONLY, ...). Required: it is a product decision.
   * `'fail-closed'` and `'fail-open'` answer with `reason: 'redis-unavailable'`; `'fallback'` runs
   * the same script on a memory store and answers with `reason: 'fallback'`.
   */
  onRedisError: OnRedisError;
  /**
   * Deadline of one call in **milliseconds**, Redis round trip included, an integer in
   * [1, 2^31 - 1]. Default `1000`. A call that misses it marks its shard down for every user of
   * the client (see `redisProbeIntervalMs`).
   */
  timeoutMs?: number;
  /** `retryAfterMs` of a denial during an outage (fail-closed, or a full memory store), **milliseconds**. Default `1000`. */
  outageRetryAfterMs?: number;
  /**
   * `'fallback'` only: the memory store to use while Redis is unavailable. Several limiters and
   * breakers may share one (their keys differ). Default: a store of this limiter or breaker,
   * created on the first fallback with the defaults of `createMemoryStore`.
   */
  fallback?: MemoryStore;
  /**
   * **Milliseconds** between two background probes of a shard that is down (a one-millisecond
   * write on a key of its slot), an integer in [1, 2^31 - 1]. Default `1000`. While the shard is
   * down its calls are answered by the policy at once, without being sent.
   */
  redisProbeIntervalMs?: number;
}

/** The answer of a memory store while Redis is unavailable (fallback mode). */
export class FromMemory {
  constructor(readonly value: unknown) {}
}

/** A memory store had no room for a new key; `fallback` says whether it was the fallback store. */
export class StoreFull {
  constructor(readonly fallback: boolean) {}
}

const FULL_DIRECT = new StoreFull(false);
const FULL_FALLBACK = new StoreFull(true);

/** The checked outage options. */
export interface CheckedOutage {
  mode: OnRedisError;
  timeoutMs: number;
  outageRetryAfterMs: number;
  probeIntervalMs: number;
}

/** Validates the outage options. @throws {TypeError | RangeError} naming the option. */
export function checkOutageOptions(options: OutageOptions): CheckedOutage {
  const mode = checkOneOf('onRedisError', options.onRedisError, ['fail-closed', 'fail-open', 'fallback'] as const);
  const timeoutMs = checkInteger('timeoutMs', orDefault(options.timeoutMs, 1000), 1, MAX_TIMER_MS);
  const outageRetryAfterMs = checkInteger('outageRetryAfterMs', orDefault(options.outageRetryAfterMs, 1000), 0);
  const probeIntervalMs = checkInteger('redisProbeIntervalMs', orDefault(options.redisProbeIntervalMs, 1000), 1, MAX_TIMER_MS);
  if (options.fallback !== undefined && !(options.fallback instanceof MemoryStore)) {
    throw new TypeError(`fallback must be a MemoryStore (createMemoryStore()), got ${describe(options.fallback)}`);
  }
  return { mode, timeoutMs, outageRetryAfterMs, probeIntervalMs };
}

/**
 * Runs scripts for one limiter or breaker. {@link Route.run} resolves with Redis' reply, or with
 * an {@link Unavailable} (fail-closed / fail-open: the caller answers its policy), a
 * {@link FromMemory} (fallback), a {@link StoreFull}; it rejects with a `RedisError` for replies
 * that are bugs.
 */
export class Route implements Receiver {
  private readonly health: ClientHealth | null;
  private readonly deadlines: DeadlineQueue | null;
  private readonly direct: MemoryStore | null;
  private readonly probeIntervalMs: number;
  private store: MemoryStore | undefined;

  constructor(
    client: StoreClient,
    private readonly mode: OnRedisError,
    options: CheckedOutage,
    fallback: MemoryStore | undefined,
    /**
     * What {@link Route.runTo} resolves with: the answer of {@link Route.run} mapped (a limiter's
     * result), given the arguments it was run with (the memory store's when it answered).
     */
    private readonly map: (answer: unknown, args: readonly string[]) => unknown = (answer) => answer,
  ) {
    this.probeIntervalMs = options.probeIntervalMs;
    this.direct = client instanceof MemoryStore ? client : null;
    this.health = client instanceof MemoryStore ? null : healthFor(client);
    this.deadlines = this.health === null ? null : this.health.deadlines(options.timeoutMs);
    this.store = fallback;
  }

  /**
   * Runs `script` on Redis (or on the memory store given as the client), or on the fallback
   * store with `memoryArgs` (default `args`) while the key's shard is unavailable.
   */
  run(script: RuntimeScript, key: string, args: readonly string[], memoryArgs: readonly string[] = args): Promise<unknown> {
    if (this.direct !== null) {
      try {
        return Promise.resolve(this.local(this.direct, script.name, key, args, FULL_DIRECT));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const pending = this.health!.run(script, key, args, this.deadlines!, this.probeIntervalMs);
    if (this.mode !== 'fallback') return pending;
    return pending.then((answer) => {
      if (!(answer instanceof Unavailable)) return answer;
      const value = this.local((this.store ??= new MemoryStore()), script.name, key, memoryArgs, FULL_FALLBACK);
      return value instanceof StoreFull ? value : new FromMemory(value);
    });
  }

  /**
   * {@link Route.run}, resolving with `map(answer)` (the constructor's `map`) in the same step:
   * one promise per call besides the client's, no closure per call.
   */
  runTo(script: RuntimeScript, key: string, args: readonly string[], memoryArgs: readonly string[]): Promise<unknown> {
    if (this.direct !== null) {
      try {
        return Promise.resolve(this.map(this.local(this.direct, script.name, key, args, FULL_DIRECT), args));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.health!.run(script, key, args, this.deadlines!, this.probeIntervalMs, this, memoryArgs);
  }

  /** @internal {@link Receiver}: the fallback store answers for an unavailable shard, then `map`. */
  receive(answer: unknown, script: RuntimeScript, key: string, memoryArgs: readonly string[] | undefined): unknown {
    if (this.mode === 'fallback' && answer instanceof Unavailable) {
      const value = this.local((this.store ??= new MemoryStore()), script.name, key, memoryArgs!, FULL_FALLBACK);
      return this.map(value instanceof StoreFull ? value : new FromMemory(value), memoryArgs!);
    }
    return this.map(answer, memoryArgs!);
  }

  private local(store: MemoryStore, name: string, key: string, args: readonly string[], full: StoreFull): unknown {
    try {
      return store.runScript(name, [key], args);
    } catch (error) {
      if (error instanceof StoreFullError) return full;
      throw error;
    }
  }
}
