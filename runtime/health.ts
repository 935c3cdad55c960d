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
import { RedisError, RedisUnavailableError, errorFields, safeMessage, toRedisError } from './errors.js';
import { MemoryStore } from './memory.js';
import { aclDenial, DeadlineHeap, Deadlines, errorKind, HeapDeadlines, isProgrammingError, isReplyError, MAX_TIMER_MS, type DeadlineQueue, type Expirable } from './outage.js';
import { GET_COMMAND, getScript, type RuntimeScript } from './scripts.js';
import { keySlot, probeKeyFor } from './slot.js';
import { checkInteger, checkKnownOptions, orDefault } from './validate.js';

/** Most probes in flight at once per client (a cluster with many shards down probes them in turn). */
const MAX_PROBES = 16;
/**
 * Most distinct `timeoutMs` values that get a deadline queue of their own per client (O(1) per
 * call); calls with any other value share the client's heap (O(log n)). No state is kept per
 * value beyond these.
 */
const MAX_DEADLINE_QUEUES = 16;
/** Longest pause, ms, before a call answered TRYAGAIN / ASK / MOVED is sent again (2, 4, 8, ... ms up to this). */
const REDIRECT_RETRY_MAX_MS = 100;
/** How long, ms, a command an ACL denied (EVAL, EVALSHA) is not tried again: a grant is picked up after at most this. */
const ACL_RECHECK_MS = 10_000;
/**
 * The commands the runtime's scripts run (runtime/scripts/*.lua), for the message of a denial
 * inside a script (tests/faults/acl.test.ts holds it equal to what the scripts call).
 * @internal
 */
export const SCRIPT_COMMANDS = 'TIME, GET, SET, DEL, UNLINK, EXISTS, TYPE, INCRBY, PTTL, PEXPIRE, HMGET, HSET, HINCRBY, LINDEX, LLEN, LSET, LTRIM, RPUSH';

/**
 * How a call goes out: `'first'`, the runner's first choice (EVALSHA; EVAL for a script's first
 * call on ioredis); `'sha'` EVALSHA; `'eval'` EVAL with the source; `'get'` the client's GET.
 */
type Via = 'first' | 'sha' | 'eval' | 'get';

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
  /** The timer of the next probe (probes run on a timer, not only when a call comes). */
  timer: NodeJS.Timeout | null = null;
  constructor(
    /** The shard's key in {@link ClientHealth}'s map; `null` for the whole client. */
    readonly shard: Shard | null,
    /** When the next probe may start (`performance.now()` ms). */
    public nextProbeAt: number,
    /** A key of the shard, whose probe key the probe writes. */
    public key: string,
    /** The answer of the calls it short-circuits. */
    public cause: Unavailable,
    /** The deadline and interval of the probes (those of the call that found the shard down). */
    public deadlines: DeadlineQueue,
    public probeIntervalMs: number,
  ) {}
}

const PENDING = 0;
const DONE = 1;
const EXPIRED = 2;

function noop(): void {}

/**
 * The resolving functions of the last promise made with {@link capture} as its executor: one
 * executor for every call instead of a closure per call (the executor runs synchronously, inside
 * `new Promise`, so they are read right after it).
 */
const captured: { resolve: (value: unknown) => void; reject: (error: unknown) => void } = { resolve: noop, reject: noop };

function capture(resolve: (value: unknown) => void, reject: (error: unknown) => void): void {
  captured.resolve = resolve;
  captured.reject = reject;
}

const NO_ARGS: readonly string[] = [];

/**
 * Turns the answer of a call (Redis' reply, or an {@link Unavailable}) into what its promise
 * resolves with, in the same step: a limiter's result without a promise of its own. One object
 * per limiter, not per call. May throw: the call's promise then rejects. `context` is what the
 * caller passed to {@link ClientHealth.run}, as is. `by` (`performance.now()` ms): when `answer`
 * was read at the latest, read from no clock: the call's deadline for a reply (a reply read after
 * its deadline, before the deadline queue expired it, at most one turn of the event loop later,
 * is the one exception), the time of the answer for a short-circuited call.
 */
export interface Receiver {
  receive(answer: unknown, script: RuntimeScript, key: string, context: unknown, by: number): unknown;
}

/** One Redis call (or probe) in flight: its deadline entry, what it sent and its settlement. */
class Call implements Expirable {
  readonly startedAt: number;
  readonly deadline: number;
  state = PENDING;
  /** Whether it was sent again as EVAL after a NOSCRIPT reply. */
  retried = false;
  /** How it goes out next; `null` until a reply decided (see {@link ClientHealth.send}). */
  via: Via | null = null;
  /** Whether its command is written and unanswered (not while it waits to be sent again after a redirection). */
  inFlight = false;
  /** Times it was sent again after a redirection reply (TRYAGAIN, ASK, MOVED): its slot is moving, its node is not down. */
  redirects = 0;
  /** The last redirection reply, the answer when the deadline passes before a retry succeeds. */
  redirect: Unavailable | null = null;

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
      value = receiver.receive(answer, this.script, this.key, this.context, this.deadline);
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
 * (`getSlotMaster(slot).address`), a standalone ioredis, node-redis or Valkey GLIDE client (one
 * shard), or anything else, a `GlideClusterClient` among them (one shard per slot).
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
  // Valkey GLIDE: a GlideClient is one server; a GlideClusterClient (`invokeScriptWithRoute`) hides its slot table
  if (hasFunction(client, 'invokeScript') && !hasFunction(client, 'invokeScriptWithRoute')) return { kind: 'single' };
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
  /**
   * Cluster clients: when each master last answered a call within its deadline (`performance.now()`
   * ms). A deadline missed while the master answered other calls in time since that call started
   * (ioredis retrying a TRYAGAIN for one migrating slot, one slow command) is not the master's outage.
   */
  private readonly answeredAt = new Map<Shard, number>();
  /** Cluster clients: the master whose one slot missed a deadline, which slot and when that call started. */
  private readonly suspects = new Map<Shard, { slot: number; since: number }>();
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
  /** Whether an ACL denial was ever seen (only then do the `...DeniedUntil` need a look). */
  private acl = false;
  /** Until when (`performance.now()` ms) EVAL and EVALSHA are taken as denied by an ACL. */
  private evalDeniedUntil = 0;
  private evalshaDeniedUntil = 0;
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
   * `receiver`, resolves with `receiver.receive(answer, script, key, context, by)` instead.
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
        return receiver === null ? deferred : deferred.then((answer) => receiver.receive(answer, script, key, context, performance.now()));
      }
    }
    const promise = new Promise(capture);
    const reject = captured.reject;
    try {
      const call = new Call(this, script, keys, args, deadlines, probeIntervalMs, captured.resolve, reject, null, receiver, context);
      deadlines.add(call);
      this.send(call);
    } catch (error) {
      reject(error); // as a throw inside an executor would
    }
    return promise;
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
    call.inFlight = true;
    try {
      const script = call.script;
      const runner = this.runner;
      let via = call.via ?? (call.retried ? 'eval' : script === GET_COMMAND ? 'get' : 'first');
      if (this.acl) via = this.allowed(via);
      if (via === 'get') pending = runner.get(call.key);
      else if (via === 'first') pending = runner.send(script, call.keys, call.args);
      else if (via === 'sha') pending = runner.evalSha(script, call.keys, call.args);
      else pending = runner.evalSource(script, call.keys, call.args);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => this.replied(call, value),
      (error: unknown) => this.failed(call, error),
    );
  }

  /** `via`, or the way around a command an ACL denied lately (EVAL <-> EVALSHA). */
  private allowed(via: Via): Via {
    const now = performance.now();
    if (via === 'first' && this.evalshaDeniedUntil > now) return 'eval';
    if (via === 'first' && this.evalDeniedUntil > now) return 'sha';
    return via;
  }

  /**
   * A call answered NOPERM: sends it again the other way when there is one (EVALSHA denied: EVAL;
   * EVAL denied: EVALSHA) and returns `true`, or returns the error to reject it with, which names
   * what the user must be granted.
   */
  private afterDenial(call: Call, denial: NonNullable<ReturnType<typeof aclDenial>>, error: unknown): true | RedisError {
    const now = performance.now();
    this.acl = true;
    const message = safeMessage(error);
    const fail = (text: string) => new RedisError(text, 'NOPERM', errorFields(error).address ?? this.address);
    const both = () =>
      fail(
        `${message}; the Redis user may run neither EVALSHA nor EVAL: redis-ttl-runtime runs every operation as a Lua script, so grant +evalsha (with the scripts loaded by SCRIPT LOAD) or +eval (e.g. ACL SETUSER <user> +evalsha +eval)`,
      );
    if (denial.command === 'evalsha') {
      this.evalshaDeniedUntil = now + ACL_RECHECK_MS;
      if (this.evalDeniedUntil > now) return both();
      call.via = 'eval';
      this.send(call);
      return true;
    }
    if (denial.command === 'eval') {
      this.evalDeniedUntil = now + ACL_RECHECK_MS;
      if (call.retried) return this.notLoaded(call, message);
      if (this.evalshaDeniedUntil > now) return both();
      call.via = 'sha';
      this.send(call);
      return true;
    }
    if (denial.key === true) {
      return fail(
        `${message}; the Redis user's key patterns do not cover the runtime's keys: grant one that does (ACL ~<pattern>: limiters and breakers ~<namespace>:*, default ~rl:*; a cache ~<namespace>:*; a helper's own keys)`,
      );
    }
    if (denial.inScript !== undefined) {
      const what = denial.inScript === '' ? 'a command it runs' : `'${denial.inScript}'`;
      return fail(`${message}; the Redis user may not run ${what} inside the runtime's scripts: grant the commands they run (${SCRIPT_COMMANDS})`);
    }
    return fail(`${message}; grant the Redis user +${denial.command ?? 'the command'}`);
  }

  /** EVAL is denied and the script is not loaded: the error that says what to grant or load. */
  private notLoaded(call: Call, message: string): RedisError {
    const script = call.script;
    return new RedisError(
      `${message}; EVAL is denied to the Redis user and the script '${script.name}' (SHA1 ${script.sha1}) is not loaded on the server (NOSCRIPT): grant +eval, or load the runtime's scripts with SCRIPT LOAD (runtimeScripts() lists them) after every restart, failover or SCRIPT FLUSH`,
      'NOPERM',
      this.address,
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
    if (this.topology.kind === 'single') return this.shards.get(0) ?? null;
    const slot = keySlot(key);
    // the master's outage, or (a cluster) the slot's own (CLUSTERDOWN Hash slot not served)
    return this.shards.get(this.shardOf(slot)) ?? this.shards.get(slot) ?? null;
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
    if (outage.probing) return;
    const now = performance.now();
    if (now < outage.nextProbeAt) return;
    if (this.probes >= MAX_PROBES) {
      // too many probes in flight: this one goes on the timer
      outage.nextProbeAt = now + probeIntervalMs;
      this.scheduleProbe(outage);
      return;
    }
    if (outage.timer !== null) {
      clearTimeout(outage.timer);
      outage.timer = null;
    }
    outage.probing = true;
    this.probes += 1;
    const call = new Call(this, this.probeScript, probeKeyFor(key), NO_ARGS, deadlines, probeIntervalMs, noop, noop, outage, null, undefined);
    deadlines.add(call);
    this.send(call);
  }

  /**
   * Arms the timer of `outage`'s next probe at `nextProbeAt`: a shard with no traffic is probed
   * too, and is up again before its next call. `unref`'d: it never keeps the process alive.
   */
  private scheduleProbe(outage: Outage): void {
    if (outage.timer !== null) clearTimeout(outage.timer);
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil(outage.nextProbeAt - performance.now())));
    outage.timer = setTimeout(() => {
      outage.timer = null;
      if (outage.shard === null ? this.whole !== outage : this.shards.get(outage.shard) !== outage) return; // up meanwhile
      // due now (a timer may fire a fraction of a millisecond before performance.now() says it is due)
      outage.nextProbeAt = Math.min(outage.nextProbeAt, performance.now());
      this.probe(outage, outage.key, outage.deadlines, outage.probeIntervalMs);
    }, delay);
    outage.timer.unref();
  }

  /** Notes that the master of `call`'s key answered it within its deadline (cluster clients only). */
  private answered(call: Call): void {
    if (this.topology.kind === 'cluster') this.answeredAt.set(this.shardOf(keySlot(call.key)), performance.now());
  }

  private replied(call: Call, value: unknown): void {
    call.inFlight = false;
    if (this.topology.kind === 'slots') this.lastReplyAt = performance.now();
    if (call.state === PENDING) {
      call.state = DONE;
      call.deadlines.dropSettled();
      this.answered(call);
      if (call.probe !== null) this.up(call.probe);
      else call.finish(value);
    } else if (call.state === EXPIRED) {
      this.settledLate(call);
    }
  }

  private failed(call: Call, error: unknown): void {
    call.inFlight = false;
    if (!call.retried && call.state === PENDING && isNoScript(error)) {
      // after a restart, a failover or SCRIPT FLUSH: EVAL carries the source (same deadline)
      call.retried = true;
      if (!(this.acl && this.evalDeniedUntil > performance.now())) {
        call.via = 'eval';
        this.send(call);
        return;
      }
      error = this.notLoaded(call, safeMessage(error));
    }
    if (call.state === PENDING && call.probe === null) {
      const denial = aclDenial(error);
      if (denial !== null) {
        const next = this.afterDenial(call, denial, error);
        if (next === true) return;
        error = next;
      }
    }
    let kind = errorKind(error);
    const replied = error instanceof Error && isReplyError(error);
    if (kind !== 'node' && this.topology.kind === 'slots' && replied) this.lastReplyAt = performance.now();
    if (call.state === EXPIRED) {
      this.settledLate(call);
      return;
    }
    if (call.state !== PENDING) return;
    if (kind === 'redirect' && this.topology.kind === 'single') {
      // MOVED / ASK to a client of one server: it is connected to one node of a cluster
      kind = 'bug';
      error = toRedisError(
        error,
        this.address,
        '; this client talks to one node of a Redis Cluster: use a cluster client (ioredis `Cluster`, node-redis `createCluster()`)',
      );
    }
    if (kind === 'redirect' && call.probe === null) {
      // the slot is moving (resharding): send it again shortly, within the same deadline; the
      // master is not down (its other slots answer)
      if (replied) this.answered(call);
      call.redirect = this.unavailableOf(error, true);
      call.redirects += 1;
      const delay = Math.min(REDIRECT_RETRY_MAX_MS, 2 ** call.redirects);
      if (performance.now() + delay < call.deadline) {
        setTimeout(() => {
          if (call.state === PENDING) this.send(call);
        }, delay);
        return;
      }
      call.state = DONE;
      call.deadlines.dropSettled();
      call.finish(call.redirect);
      return;
    }
    call.state = DONE;
    call.deadlines.dropSettled();
    const probe = call.probe;
    if (probe !== null) {
      // any answer but "can not serve" (NOPERM on the probe key, a redirection) means the shard serves
      if (kind !== 'node' && kind !== 'slot') this.up(probe);
      else this.stillDown(probe, call, this.unavailableOf(error, false));
      return;
    }
    if (kind === 'node' || kind === 'slot') {
      const answer = this.unavailableOf(error, true);
      this.markDown(call, answer, kind === 'slot' ? 'slot' : 'node');
      call.finish(answer);
    } else if (isProgrammingError(error)) {
      call.reject(error); // a bug in a program (a TypeError...) keeps its type and stack
    } else {
      call.reject(toRedisError(error, this.address));
    }
  }

  /**
   * A call's deadline passed: the shard is down, unless the call was being redirected (its slot
   * is moving) or, on a cluster, the master answered other calls in time since it started. The
   * command stays counted until it settles.
   */
  expired(call: Call): void {
    // a call waiting to be sent again (a redirection) has nothing in the client to abandon
    if (call.inFlight) this.abandoned += 1;
    const message = `Redis did not answer within ${call.deadlines.timeoutMs} ms`;
    if (call.probe !== null) {
      // stays `probing` until the command settles: no second probe piles up behind it
      call.probe.nextProbeAt = performance.now() + call.probeIntervalMs;
      return;
    }
    if (call.redirect !== null) {
      call.finish(call.redirect);
      return;
    }
    const answer = new Unavailable(message, 'TIMEOUT', this.address, true);
    if (this.topology.kind !== 'cluster') this.markDown(call, answer);
    else if (!((this.answeredAt.get(this.shardOf(keySlot(call.key))) ?? -Infinity) > call.startedAt)) this.markDown(call, answer, 'timeout');
    call.finish(answer);
  }

  private settledLate(call: Call): void {
    call.state = DONE;
    this.abandoned -= 1;
    const probe = call.probe;
    if (probe !== null) {
      probe.probing = false;
      this.probes -= 1;
      if (probe.shard === null ? this.whole === probe : this.shards.get(probe.shard) === probe) this.scheduleProbe(probe);
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

  /**
   * Marks the shard of `call`'s key down. `scope` (cluster clients): `'node'`, its master;
   * `'slot'`, its slot only; `'timeout'`, its slot, and its master once a second slot of that
   * master missed a deadline with no answer from it in time since the first (a deadline missed on
   * one slot alone may be that slot's trouble: a client retrying a redirection past the deadline).
   */
  private markDown(call: Call, answer: Unavailable, scope: 'node' | 'slot' | 'timeout' = 'node'): void {
    const slot = this.topology.kind === 'single' ? 0 : keySlot(call.key);
    let shard = scope === 'slot' ? slot : this.shardOf(slot);
    if (scope === 'timeout' && typeof shard === 'string') {
      const suspect = this.suspects.get(shard);
      if (suspect === undefined || suspect.slot === slot || (this.answeredAt.get(shard) ?? -Infinity) > suspect.since) {
        this.suspects.set(shard, { slot, since: call.startedAt });
        shard = slot;
      } else {
        this.suspects.delete(shard);
      }
    }
    const next = performance.now() + call.probeIntervalMs;
    const cause = new Unavailable(
      `Redis is unavailable (${answer.message}); this call was not sent`,
      answer.code,
      typeof shard === 'string' ? shard : answer.address,
      false,
    );
    if (!this.shards.has(shard)) {
      const outage = new Outage(shard, next, call.key, cause, call.deadlines, call.probeIntervalMs);
      this.shards.set(shard, outage);
      this.scheduleProbe(outage);
    }
    if (this.topology.kind === 'slots' && this.whole === null && this.lastReplyAt < call.startedAt) {
      // two slots failed with no reply from anywhere since the first of them was sent: the whole
      // client is down (one slot alone may be one dead shard of a cluster)
      if (this.silentShard !== null && this.silentShard !== shard && this.lastReplyAt < this.silentSince) {
        this.whole = new Outage(null, next, call.key, cause, call.deadlines, call.probeIntervalMs);
        this.scheduleProbe(this.whole);
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
    if (outage.timer !== null) {
      clearTimeout(outage.timer);
      outage.timer = null;
    }
    if (outage.shard === null) this.whole = null;
    else this.shards.delete(outage.shard);
    this.refresh();
  }

  private stillDown(outage: Outage, call: Call, answer: Unavailable): void {
    outage.probing = false;
    this.probes -= 1;
    outage.nextProbeAt = performance.now() + call.probeIntervalMs;
    outage.cause = new Unavailable(`Redis is unavailable (${answer.message}); this call was not sent`, answer.code, outage.cause.address, false);
    this.scheduleProbe(outage);
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

/** The names of {@link DeadlineOptions}. */
const DEADLINE_OPTION_NAMES = ['timeoutMs', 'redisProbeIntervalMs'] as const;

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

/**
 * Validates {@link DeadlineOptions} (`undefined`: the defaults) of the helper `what`; `known`: every
 * option name it takes (an unknown one is refused, not dropped).
 * @throws {TypeError | RangeError} naming the option.
 */
export function checkDeadlineOptions(options: DeadlineOptions | undefined, what?: string, known: readonly string[] = DEADLINE_OPTION_NAMES): CheckedDeadline {
  if (options === undefined) return { timeoutMs: 1000, probeIntervalMs: 1000 };
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  if (what !== undefined) checkKnownOptions(what, options, known);
  return {
    timeoutMs: checkInteger('timeoutMs', orDefault(options.timeoutMs, 1000), 1, MAX_TIMER_MS),
    probeIntervalMs: checkInteger('redisProbeIntervalMs', orDefault(options.redisProbeIntervalMs, 1000), 1, MAX_TIMER_MS),
  };
}
