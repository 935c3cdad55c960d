/**
 * Where a limiter's or breaker's call runs: Redis, or a memory store while Redis is unavailable
 * (`onRedisError: 'fallback'`), or the outage policy's fixed answer.
 *
 * In fallback mode a call goes to Redis while Redis answers. The first call that finds Redis
 * unavailable (a connection error, a timeout, a "can not serve" reply: {@link isUnavailable},
 * never a script's error reply) is answered from the memory store, and so is every call after
 * it, without waiting for Redis, until a background probe (a read-only script, at most one
 * every `redisProbeIntervalMs`, bounded by the call timeout) answers: from then on calls go to Redis
 * again. State is not copied either way: the memory store starts from nothing and Redis resumes
 * from what it held (minus what expired meanwhile).
 *
 * @internal
 */
import { runnerFor, type ScriptRunner, type StoreClient } from './client.js';
import { MemoryStore, StoreFullError } from './memory.js';
import { Deadlines, type OutagePolicy } from './outage.js';
import { getScript, type RuntimeScript } from './scripts.js';
import { checkInteger, checkOneOf, describe } from './validate.js';

/**
 * What a limiter or breaker does when Redis is unavailable: `'fail-closed'` denies,
 * `'fail-open'` allows, `'fallback'` answers from an in-process memory store.
 */
export type OnRedisError = OutagePolicy | 'fallback';

/** Options shared by limiters and breakers about outages. */
export interface OutageOptions {
  /**
   * What to answer when Redis is unreachable, times out or answers that it can not serve
   * (CLUSTERDOWN, LOADING, ...). Required: it is a product decision. `'fail-closed'` and
   * `'fail-open'` answer with `reason: 'redis-unavailable'`; `'fallback'` runs the same script on
   * a memory store and answers with `reason: 'fallback'`.
   */
  onRedisError: OnRedisError;
  /** Deadline of one call in **milliseconds**, Redis round trip included, an integer >= 1. Default `1000`. */
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
   * `'fallback'` only: **milliseconds** between two background probes (a read-only script on a
   * key nobody writes) that check whether Redis is back, an integer >= 1. Default `1000`.
   */
  redisProbeIntervalMs?: number;
}

/** The answer of {@link Route.run}. */
export type Routed =
  | { via: 'redis'; value: unknown }
  | { via: 'memory'; value: unknown }
  | { via: 'outage' }
  | { via: 'full' };

/** The checked outage options. */
export interface CheckedOutage {
  mode: OnRedisError;
  timeoutMs: number;
  outageRetryAfterMs: number;
}

/** Validates the outage options. @throws {TypeError | RangeError} naming the option. */
export function checkOutageOptions(options: OutageOptions): CheckedOutage {
  const mode = checkOneOf('onRedisError', options.onRedisError, ['fail-closed', 'fail-open', 'fallback'] as const);
  const timeoutMs = checkInteger('timeoutMs', options.timeoutMs ?? 1000, 1);
  const outageRetryAfterMs = checkInteger('outageRetryAfterMs', options.outageRetryAfterMs ?? 1000, 0);
  if (options.fallback !== undefined && !(options.fallback instanceof MemoryStore)) {
    throw new TypeError(`fallback must be a MemoryStore (createMemoryStore()), got ${describe(options.fallback)}`);
  }
  return { mode, timeoutMs, outageRetryAfterMs };
}

/**
 * The probe: `circuit_read` on a key nobody writes. It only reads (HMGET), so it can never create
 * a key, and it runs through the same runner as every call (any supported client, EVALSHA with
 * the NOSCRIPT fallback): when it answers, scripts run again.
 */
const PROBE_KEY = 'redis-ttl:probe';
const PROBE_ARGS = ['1', '1', '1', '1', '0'];

/** Runs scripts for one limiter or breaker; see the module comment. */
export class Route {
  private readonly runner: ScriptRunner;
  private readonly deadlines: Deadlines;
  private readonly direct: MemoryStore | null;
  private readonly probeIntervalMs: number;
  private store: MemoryStore | undefined;
  private down = false;
  private probing = false;
  private nextProbeAt = 0;

  constructor(
    client: StoreClient,
    private readonly mode: OnRedisError,
    timeoutMs: number,
    options: OutageOptions,
  ) {
    this.runner = runnerFor(client);
    this.deadlines = new Deadlines(timeoutMs);
    this.direct = client instanceof MemoryStore ? client : null;
    this.store = options.fallback;
    this.probeIntervalMs = checkInteger('redisProbeIntervalMs', options.redisProbeIntervalMs ?? 1000, 1);
  }

  /** Whether calls are currently answered by the memory store because Redis is unavailable. */
  get fallingBack(): boolean {
    return this.down;
  }

  /**
   * Runs `script` on Redis (or on the memory store given as the client), or on the fallback
   * store with `memoryArgs` (default `args`) while Redis is unavailable.
   * @throws what the script or Redis answers when it is a bug, not an outage.
   */
  async run(script: RuntimeScript, key: string, args: readonly string[], memoryArgs: readonly string[] = args): Promise<Routed> {
    if (this.direct !== null) {
      const answer = this.local(this.direct, script.name, key, args);
      return answer.via === 'memory' ? { via: 'redis', value: answer.value } : answer;
    }
    if (this.mode === 'fallback' && this.down) {
      this.probe();
      return this.local(this.memory(), script.name, key, memoryArgs);
    }
    const outcome = await this.deadlines.run(() => this.runner.run(script, [key], args));
    if (outcome.ok) return { via: 'redis', value: outcome.value };
    if (this.mode !== 'fallback') return { via: 'outage' };
    if (!this.down) {
      this.down = true;
      this.nextProbeAt = performance.now() + this.probeIntervalMs;
    }
    return this.local(this.memory(), script.name, key, memoryArgs);
  }

  private memory(): MemoryStore {
    this.store ??= new MemoryStore();
    return this.store;
  }

  private local(store: MemoryStore, name: string, key: string, args: readonly string[]): Routed {
    try {
      return { via: 'memory', value: store.runScript(name, [key], args) };
    } catch (error) {
      if (error instanceof StoreFullError) return { via: 'full' };
      throw error;
    }
  }

  /** At most one background probe in flight, at most one per probe interval. */
  private probe(): void {
    if (this.probing || performance.now() < this.nextProbeAt) return;
    this.probing = true;
    this.deadlines
      .run(() => this.runner.run(getScript('circuit_read'), [PROBE_KEY], PROBE_ARGS))
      .then(
        (outcome) => outcome.ok,
        () => false, // an error reply (NOAUTH, NOPERM...): not serving our scripts either
      )
      .then((up) => {
        this.probing = false;
        if (up) this.down = false;
        else this.nextProbeAt = performance.now() + this.probeIntervalMs;
      });
  }
}
