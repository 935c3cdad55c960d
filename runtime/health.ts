/**
 * The outage short-circuit: one health record per client, shared by every limiter, breaker,
 * cache and helper that uses the client, with the state of each shard.
 *
 * - A **shard** is what fails together: the one server of a standalone client; the master node
 *   that serves the key's slot on an ioredis `Cluster` or a node-redis cluster; the key's slot
 *   (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#key-distribution-model)
 *   for a client whose topology the runtime can not see (@upstash/redis, a custom client).
 * - A call whose deadline passes, or that fails with a connection error or a "can not serve"
 *   reply (OOM, READONLY, MASTERDOWN, LOADING, BUSY, CLUSTERDOWN...: {@link isUnavailable}),
 *   marks its shard **down**. For a client of unknown topology, a call that got no reply while no
 *   other call got one either marks the whole client down (a standalone server behind such a
 *   client fails as a whole; a cluster keeps answering on its healthy shards).
 * - While a shard is down, calls for it are **not sent**: they are answered at once with
 *   {@link Unavailable}, which each caller turns into its policy's answer. A background **probe**
 *   (the `probe` script: a one-millisecond SET on a key of the shard's slot that starts like the
 *   failing key, see `probeKeyFor`, so a shard that refuses writes stays down) runs at most once per `redisProbeIntervalMs`, one at a time per
 *   shard, bounded by the call's `timeoutMs`; when it is answered in time the shard is up again.
 *   A probe that timed out blocks the next one until it settles, so probes never pile up.
 * - Commands abandoned at their deadline stay in the client until it answers or drops them (no
 *   supported client can take back a command once written). Every abandoned command marks its
 *   shard down, so the commands that can pile up during an outage of any length are the ones in
 *   flight when it began, plus one probe per shard (at most 16 at a time). A hard cap on abandoned
 *   commands would add nothing to that bound, and on a cluster it would stop the healthy shards
 *   too, so there is none.
 *
 * @internal
 */
import { isNoScript, notSentReason, runnerFor, type RedisClient, type ScriptKeys, type ScriptRunner, type StoreClient } from './client.js';
import { RedisUnavailableError, errorFields, safeMessage, toRedisError } from './errors.js';
import { MemoryStore } from './memory.js';
import { DeadlineHeap, Deadlines, HeapDeadlines, isProgrammingError, isReplyError, isUnavailable, MAX_TIMER_MS, type DeadlineQueue, type Expirable } from './outage.js';
import { GET_COMMAND, getScript, type RuntimeScript } from './scripts.js';
import { keySlot, probeKeyFor } from './slot.js';
import { checkInteger } from './validate.js';

/** Most probes in flight at once per client (a cluster with many shards down probes them in turn). */
const MAX_PROBES = 16;
/**
 * Most distinct `timeoutMs` values that get a deadline queue of their own per client (O(1) per
 * call); calls with any other value share the client's heap (O(log n)). No state is kept per
 * value beyond these.
 */
const MAX_DEADLINE_QUEUES = 16;

/** Why a call was not answered by Redis: the policy of the caller decides what to answer. */
export class Unavailable {
  constructor(
    /** What happened, without any command argument. */
    readonly message: string,
    /** See {@link RedisError.code}. */
    readonly code: string | undefined,
    /** `host:port` when known. */
    readonly address: string | undefined,
    /** Whether this call's command was sent (and may still run later). */
    readonly sent: boolean,
  ) {}

  /** The error a caller without a policy throws. */
  toError(): RedisUnavailableError {
    return new RedisUnavailableError(this.message, this.sent, this.code, this.address);
  }
}

type Shard = number | string;

/** A shard (or the whole client) that is down. */
class Outage {
  probing = false;
  constructor(
    /** The shard's key in {@link ClientHealth}'s map; `null` for the whole client. */
    readonly shard: Shard | null,
    /** When the next probe may start (`performance.now()` ms). */
    public nextProbeAt: number,
    /** A key of the shard, whose probe key the probe writes. */
    public key: string,
    /** The answer of the calls it short-circuits. */
    public cause: Unavailable,
  ) {}
}

const PENDING = 0;
const DONE = 1;
const EXPIRED = 2;

function noop(): void {}

const NO_ARGS: readonly string[] = [];

/**
 * Turns the answer of a call (Redis' reply, or an {@link Unavailable}) into what its promise
 * resolves with, in the same step: a limiter's result without a promise of its own. One object
 * per limiter, not per call. May throw: the call's promise then rejects. `context` is what the
 * caller passed to {@link ClientHealth.run}, as is.
 */
export interface Receiver {
  receive(answer: unknown, script: RuntimeScript, key: string, context: unknown): unknown;
}

/** One Redis call (or probe) in flight: its deadline entry, what it sent and its settlement. */
class Call implements Expirable {
  readonly startedAt: number;
  readonly deadline: number;
  state = PENDING;
  /** Whether it was sent again as EVAL after a NOSCRIPT reply. */
  retried = false;

  constructor(
    readonly health: ClientHealth,
    readonly script: RuntimeScript,
    readonly keys: ScriptKeys,
    readonly args: readonly string[],
    readonly deadlines: DeadlineQueue,
    readonly probeIntervalMs: number,
    readonly resolve: (value: unknown) => void,
    readonly reject: (error: unknown) => void,
    /** The outage this call probes, or `null` for a caller's call. */
    readonly probe: Outage | null,
    readonly receiver: Receiver | null,
    readonly context: unknown,
  ) {
    this.startedAt = performance.now();
    this.deadline = this.startedAt + deadlines.timeoutMs;
  }

  /** The first key (the one that decides the shard). */
  get key(): string {
    const keys = this.keys;
    return typeof keys === 'string' ? keys : keys[0]!;
  }

  get settled(): boolean {
    return this.state !== PENDING;
  }

  expire(): void {
    this.state = EXPIRED;
    this.health.expired(this);
  }

  /** Resolves with `answer`, through the receiver when there is one (rejects if it throws). */
  finish(answer: unknown): void {
    const receiver = this.receiver;
    if (receiver === null) {
      this.resolve(answer);
      return;
    }
    let value: unknown;
    try {
      value = receiver.receive(answer, this.script, this.key, this.context);
    } catch (error) {
      this.reject(error);
      return;
    }
    this.resolve(value);
  }
}

type Topology =
  | { kind: 'single' }
  | { kind: 'cluster'; masterOf: (slot: number) => string | undefined }
  | { kind: 'slots' };

function hasFunction(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[name] === 'function';
}

/**
 * How keys map to shards, from the client's shape: ioredis `Cluster` (`isCluster`, its slot
 * table `slots[slot] = ['host:port' of the master, ...replicas]`), node-redis cluster
 * (`getSlotMaster(slot).address`), a standalone ioredis or node-redis client (one shard), or
 * anything else (one shard per slot).
 */
function topologyOf(client: RedisClient): Topology {
  const c = client as { isCluster?: unknown; slots?: unknown; getSlotMaster?: unknown; defineCommand?: unknown };
  if (c.isCluster === true && Array.isArray(c.slots)) {
    const slots = c.slots as Array<string[] | undefined>;
    return { kind: 'cluster', masterOf: (slot) => slots[slot]?.[0] };
  }
  if (typeof c.getSlotMaster === 'function') {
    const getSlotMaster = c.getSlotMaster as (slot: number) => { address?: unknown } | undefined;
    return {
      kind: 'cluster',
      masterOf: (slot) => {
        try {
          const address = getSlotMaster.call(client, slot)?.address;
          return typeof address === 'string' ? address : undefined;
        } catch {
          return undefined; // no slot table yet
        }
      },
    };
  }
  if (typeof c.defineCommand === 'function' || hasFunction(client, 'evalSha') || hasFunction(client, 'sendCommand')) return { kind: 'single' };
  return { kind: 'slots' };
}

/** `host:port` of a standalone ioredis or node-redis client, from its options (never a URL). */
function addressOf(client: RedisClient): string | undefined {
  const options = (client as { options?: { host?: unknown; port?: unknown; path?: unknown; socket?: { host?: unknown; port?: unknown } } }).options;
  if (typeof options !== 'object' || options === null) return undefined;
  if (typeof options.path === 'string' && options.path !== '') return options.path;
  const host = typeof options.host === 'string' ? options.host : options.socket?.host;
  const port = typeof options.port === 'number' ? options.port : options.socket?.port;
  return typeof host === 'string' && typeof port === 'number' ? `${host}:${port}` : undefined;
}

/** The health of one client's shards; see the module comment. One per client ({@link healthFor}). */
export class ClientHealth {
  /** Commands abandoned at their deadline that have not settled yet. */
  abandoned = 0;
  /** Whether any shard (or the whole client) is down: the slow path must look. */
  degraded = false;
  private readonly shards = new Map<Shard, Outage>();
  private whole: Outage | null = null;
  private lastReplyAt = -Infinity;
  /** A shard of a client of unknown topology that failed with no reply since its call started. */
  private silentShard: Shard | null = null;
  private silentSince = 0;
  private probes = 0;
  /** Short-circuited answers waiting for the next turn of the event loop, by answer (see {@link defer}). */
  private deferred = new Map<Unavailable, { promise: Promise<unknown>; resolve: () => void }>();
  private readonly deadlineQueues = new Map<number, Deadlines>();
  private deadlineHeap: DeadlineHeap | null = null;
  private readonly topology: Topology;
  private readonly address: string | undefined;
  private readonly probeScript: RuntimeScript;

  constructor(
    client: RedisClient,
    /** Runs the scripts (EVALSHA with the NOSCRIPT fallback). */
    readonly runner: ScriptRunner = runnerFor(client),
  ) {
    this.topology = topologyOf(client);
    this.address = this.topology.kind === 'single' ? addressOf(client) : undefined;
    this.probeScript = getScript('probe');
  }

  /**
   * Where the deadlines of calls with `timeoutMs` are kept: a queue of their own for the first
   * {@link MAX_DEADLINE_QUEUES} distinct values (shared by every caller with that value), else
   * the client's heap, shared by every other value. Bounded whatever the callers pass.
   */
  deadlines(timeoutMs: number): DeadlineQueue {
    const queue = this.deadlineQueues.get(timeoutMs);
    if (queue !== undefined) return queue;
    if (this.deadlineQueues.size < MAX_DEADLINE_QUEUES) {
      const created = new Deadlines(timeoutMs);
      this.deadlineQueues.set(timeoutMs, created);
      return created;
    }
    return new HeapDeadlines(timeoutMs, (this.deadlineHeap ??= new DeadlineHeap()));
  }

  /**
   * Runs `script` unless the shard of its first key is down. Resolves with the reply, or with an
   * {@link Unavailable} (down, timed out, connection error, a "can not serve" reply); rejects with
   * a `RedisError` for replies that are bugs (WRONGTYPE, NOAUTH, a script's error). With a
   * `receiver`, resolves with `receiver.receive(answer, script, key, context)` instead.
   * One promise per call besides the client's (and one per turn for the short-circuited calls).
   */
  run(
    script: RuntimeScript,
    keys: ScriptKeys,
    args: readonly string[],
    deadlines: DeadlineQueue,
    probeIntervalMs: number,
    receiver: Receiver | null = null,
    context?: unknown,
  ): Promise<unknown> {
    if (this.degraded) {
      const key = typeof keys === 'string' ? keys : keys[0]!;
      const blocked = this.blocked(key, deadlines, probeIntervalMs);
      if (blocked !== null) {
        const deferred = this.defer(blocked);
        return receiver === null ? deferred : deferred.then((answer) => receiver.receive(answer, script, key, context));
      }
    }
    return new Promise((resolve, reject) => {
      const call = new Call(this, script, keys, args, deadlines, probeIntervalMs, resolve, reject, null, receiver, context);
      deadlines.add(call);
      this.send(call);
    });
  }

  /**
   * Resolves with `answer` on the next turn of the event loop (one `setImmediate` for all the
   * answers of a turn, one promise for all the calls of a turn that get the same answer), not as
   * a microtask: a caller that loops on `await limiter.take()` while Redis is down must not
   * starve the timers (the deadlines of calls in flight among them) and the I/O of the process.
   */
  private defer(answer: Unavailable): Promise<unknown> {
    if (this.deferred.size === 0) setImmediate(this.flush);
    let turn = this.deferred.get(answer);
    if (turn === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r)).then(() => answer);
      turn = { promise, resolve };
      this.deferred.set(answer, turn);
    }
    return turn.promise;
  }

  private readonly flush = (): void => {
    const turns = this.deferred;
    this.deferred = new Map();
    for (const turn of turns.values()) turn.resolve();
  };

  private send(call: Call): void {
    let pending: Promise<unknown>;
    try {
      const script = call.script;
      if (script === GET_COMMAND) pending = this.runner.get(call.key);
      else pending = call.retried ? this.runner.evalSource(script, call.keys, call.args) : this.runner.send(script, call.keys, call.args);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => this.replied(call, value),
      (error: unknown) => this.failed(call, error),
    );
  }

  private shardOf(slot: number): Shard {
    const topology = this.topology;
    if (topology.kind === 'single') return 0;
    if (topology.kind === 'cluster') return topology.masterOf(slot) ?? slot;
    return slot;
  }

  private outageOf(key: string): Outage | null {
    if (this.shards.size === 0) return null;
    return this.shards.get(this.shardOf(this.topology.kind === 'single' ? 0 : keySlot(key))) ?? null;
  }

  /** The answer for a call while degraded, or `null` to send it; starts a probe when one is due. */
  private blocked(key: string, deadlines: DeadlineQueue, probeIntervalMs: number): Unavailable | null {
    const outage = this.outageOf(key);
    if (outage !== null) {
      this.probe(outage, outage.key, deadlines, probeIntervalMs);
      return outage.cause;
    }
    if (this.whole !== null) {
      // probe the whole client where the traffic is: this key's slot is not known to be down
      this.probe(this.whole, key, deadlines, probeIntervalMs);
      return this.whole.cause;
    }
    return null;
  }

  private probe(outage: Outage, key: string, deadlines: DeadlineQueue, probeIntervalMs: number): void {
    if (outage.probing || this.probes >= MAX_PROBES) return;
    const now = performance.now();
    if (now < outage.nextProbeAt) return;
    outage.probing = true;
    this.probes += 1;
    const call = new Call(this, this.probeScript, probeKeyFor(key), NO_ARGS, deadlines, probeIntervalMs, noop, noop, outage, null, undefined);
    deadlines.add(call);
    this.send(call);
  }

  private replied(call: Call, value: unknown): void {
    if (this.topology.kind === 'slots') this.lastReplyAt = performance.now();
    if (call.state === PENDING) {
      call.state = DONE;
      call.deadlines.dropSettled();
      if (call.probe !== null) this.up(call.probe);
      else call.finish(value);
    } else if (call.state === EXPIRED) {
      this.settledLate(call);
    }
  }

  private failed(call: Call, error: unknown): void {
    if (!call.retried && call.state === PENDING && isNoScript(error)) {
      // after a restart, a failover or SCRIPT FLUSH: EVAL carries the source (same deadline)
      call.retried = true;
      this.send(call);
      return;
    }
    const unavailable = isUnavailable(error);
    if (!unavailable && this.topology.kind === 'slots' && error instanceof Error && isReplyError(error)) this.lastReplyAt = performance.now();
    if (call.state === EXPIRED) {
      this.settledLate(call);
      return;
    }
    if (call.state !== PENDING) return;
    call.state = DONE;
    call.deadlines.dropSettled();
    const probe = call.probe;
    if (probe !== null) {
      // any answer but "can not serve" (NOPERM on the probe key, say) means the shard serves
      if (!unavailable) this.up(probe);
      else this.stillDown(probe, call, this.unavailableOf(error, false));
      return;
    }
    if (unavailable) {
      const answer = this.unavailableOf(error, true);
      this.markDown(call, answer);
      call.finish(answer);
    } else if (isProgrammingError(error)) {
      call.reject(error); // a bug in a program (a TypeError...) keeps its type and stack
    } else {
      call.reject(toRedisError(error, this.address));
    }
  }

  /** A call's deadline passed: the shard is down; the command stays counted until it settles. */
  expired(call: Call): void {
    this.abandoned += 1;
    const message = `Redis did not answer within ${call.deadlines.timeoutMs} ms`;
    if (call.probe !== null) {
      // stays `probing` until the command settles: no second probe piles up behind it
      call.probe.nextProbeAt = performance.now() + call.probeIntervalMs;
      return;
    }
    const answer = new Unavailable(message, 'TIMEOUT', this.address, true);
    this.markDown(call, answer);
    call.finish(answer);
  }

  private settledLate(call: Call): void {
    call.state = DONE;
    this.abandoned -= 1;
    if (call.probe !== null) {
      call.probe.probing = false;
      this.probes -= 1;
    }
    this.refresh();
  }

  /** `sent: false` whatever `sent` says when the client wrote nothing (a node-redis client not connected). */
  private unavailableOf(error: unknown, sent: boolean): Unavailable {
    const unsent = notSentReason(error);
    if (unsent !== null) return new Unavailable(unsent, undefined, this.address, false);
    const { code, address } = errorFields(error);
    return new Unavailable(safeMessage(error), code, address ?? this.address, sent);
  }

  private markDown(call: Call, answer: Unavailable): void {
    const slot = this.topology.kind === 'single' ? 0 : keySlot(call.key);
    const shard = this.shardOf(slot);
    const next = performance.now() + call.probeIntervalMs;
    const cause = new Unavailable(
      `Redis is unavailable (${answer.message}); this call was not sent`,
      answer.code,
      typeof shard === 'string' ? shard : answer.address,
      false,
    );
    if (!this.shards.has(shard)) this.shards.set(shard, new Outage(shard, next, call.key, cause));
    if (this.topology.kind === 'slots' && this.whole === null && this.lastReplyAt < call.startedAt) {
      // two slots failed with no reply from anywhere since the first of them was sent: the whole
      // client is down (one slot alone may be one dead shard of a cluster)
      if (this.silentShard !== null && this.silentShard !== shard && this.lastReplyAt < this.silentSince) {
        this.whole = new Outage(null, next, call.key, cause);
      } else {
        this.silentShard = shard;
        this.silentSince = call.startedAt;
      }
    }
    this.degraded = true;
  }

  private up(outage: Outage): void {
    outage.probing = false;
    this.probes -= 1;
    if (outage.shard === null) this.whole = null;
    else this.shards.delete(outage.shard);
    this.refresh();
  }

  private stillDown(outage: Outage, call: Call, answer: Unavailable): void {
    outage.probing = false;
    this.probes -= 1;
    outage.nextProbeAt = performance.now() + call.probeIntervalMs;
    outage.cause = new Unavailable(`Redis is unavailable (${answer.message}); this call was not sent`, answer.code, outage.cause.address, false);
  }

  private refresh(): void {
    this.degraded = this.shards.size > 0 || this.whole !== null;
  }
}

const healths = new WeakMap<object, ClientHealth>();

/** The health record of `client` (one per client object). @throws {TypeError} for an unsupported client. */
export function healthFor(client: RedisClient): ClientHealth {
  let health = healths.get(client);
  if (health === undefined) {
    health = new ClientHealth(client);
    healths.set(client, health);
  }
  return health;
}

/** The deadline options of `collect`, `incrementWithTtl` and `setKeepTtl`. */
export interface DeadlineOptions {
  /**
   * Deadline of the call in **milliseconds**, Redis round trip included, an integer in
   * [1, 2^31 - 1]. Default `1000`. When it passes, the call rejects with a
   * `RedisUnavailableError` (`sent: true`: the command may still run later) and the key's shard
   * is considered down for every user of the client until a probe answers.
   */
  timeoutMs?: number;
  /** **Milliseconds** between two probes of a shard that is down, an integer in [1, 2^31 - 1]. Default `1000`. */
  redisProbeIntervalMs?: number;
}

/**
 * Runs one helper script with a deadline and resolves with its reply.
 * @throws {RedisUnavailableError} when the key's shard is down (nothing sent), the deadline passed
 *   or Redis is unreachable or refuses (OOM, READONLY...).
 * @throws {RedisError} for a reply that is a bug (WRONGTYPE, a script's argument error, NOAUTH).
 */
export async function runOnce(
  client: StoreClient,
  script: RuntimeScript,
  keys: readonly string[],
  args: readonly string[],
  deadline: CheckedDeadline,
): Promise<unknown> {
  if (client instanceof MemoryStore) return runnerFor(client).run(script, keys, args);
  const health = healthFor(client);
  const reply = await health.run(script, keys, args, health.deadlines(deadline.timeoutMs), deadline.probeIntervalMs);
  if (reply instanceof Unavailable) throw reply.toError();
  return reply;
}

/** Checked {@link DeadlineOptions}. */
export interface CheckedDeadline {
  timeoutMs: number;
  probeIntervalMs: number;
}

/** Validates {@link DeadlineOptions} (`undefined`: the defaults). @throws {TypeError | RangeError} naming the option. */
export function checkDeadlineOptions(options: DeadlineOptions | undefined): CheckedDeadline {
  if (options === undefined) return { timeoutMs: 1000, probeIntervalMs: 1000 };
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  return {
    timeoutMs: checkInteger('timeoutMs', options.timeoutMs ?? 1000, 1, MAX_TIMER_MS),
    probeIntervalMs: checkInteger('redisProbeIntervalMs', options.redisProbeIntervalMs ?? 1000, 1, MAX_TIMER_MS),
  };
}
