/**
 * What counts as an outage, and the deadline queue every Redis call of the runtime goes through.
 *
 * Every call races the Redis round trip against a deadline of `timeoutMs`. Racing (rather than
 * reconfiguring the client) is deliberate: the client belongs to the application, and with
 * ioredis' defaults (`enableOfflineQueue: true`, `maxRetriesPerRequest: 20`) a command issued
 * while disconnected waits in the offline queue for as long as reconnection takes. The command a
 * deadline abandons can not be taken back (no supported client cancels a command once written);
 * `health.ts` stops sending once a shard is found down, so that only the commands already in
 * flight at that moment can still run later.
 *
 * @internal
 */
import { RedisError, RedisUnavailableError } from './errors.js';

/**
 * Where an answer came from when it is not Redis': `'redis-unavailable'` (the fail-closed or
 * fail-open policy), `'fallback'` (the in-process memory store, `onRedisError: 'fallback'`),
 * `'store-full'` (a memory store had no room for a new key, so the call was denied).
 */
export type OutageReason = 'redis-unavailable' | 'fallback' | 'store-full';

/** `'fail-closed'`: deny while Redis is unavailable. `'fail-open'`: allow. */
export type OutagePolicy = 'fail-closed' | 'fail-open';

/** Longest timer Node.js runs as asked: 2^31 - 1 ms (a longer `setTimeout` fires at once). */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Server error replies that mean "this node can not serve right now" (or can not take writes
 * right now), not "your call is wrong": CLUSTERDOWN, LOADING, MASTERDOWN, BUSY (a script runs),
 * READONLY (a replica), NOREPLICAS, OOM (maxmemory reached with `noeviction`), MISCONF (writes
 * refused after a failed RDB save). See
 * https://redis.io/docs/latest/develop/reference/protocol-spec/#simple-errors and the pages of
 * `maxmemory-policy` and `stop-writes-on-bgsave-error`.
 */
const UNAVAILABLE_REPLY = /^(CLUSTERDOWN|LOADING|MASTERDOWN|BUSY|READONLY|NOREPLICAS|OOM|MISCONF)\b/;

/**
 * Replies of a Redis Cluster about where a key is, not about a node's health
 * (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#redirection-and-resharding):
 * TRYAGAIN (a multi-key command on a slot being migrated, routine during resharding), ASK and
 * MOVED (a client that did not follow them). ioredis' Cluster retries them itself and reports
 * "Too many Cluster redirections. Last error: ..." when it gives up.
 */
const REDIRECT_REPLY = /^(TRYAGAIN|ASK|MOVED)\b/;
const REDIRECTIONS_EXHAUSTED = /^Too many Cluster redirections\b/;

/** `CLUSTERDOWN Hash slot not served`: this slot has no node; the others may be fine. */
const SLOT_NOT_SERVED = /^CLUSTERDOWN Hash slot not served\b/;

/**
 * What an error says about where to send the next call:
 * - `'redirect'`: the key's slot is moving or was asked elsewhere (TRYAGAIN, ASK, MOVED): retry
 *   it, never a node outage;
 * - `'slot'`: the key's slot is not served (CLUSTERDOWN Hash slot not served): that slot is down;
 * - `'node'`: the node can not serve (a connection error, LOADING, OOM, READONLY, ...): its shard is down;
 * - `'bug'`: a reply that reports a bug (WRONGTYPE, NOAUTH, a script's error) or a programming error.
 */
export type ErrorKind = 'redirect' | 'slot' | 'node' | 'bug';

/** The {@link ErrorKind} of `error`. */
export function errorKind(error: unknown): ErrorKind {
  if (!(error instanceof Error)) return 'bug';
  // an error the runtime made itself (a denial it explained, a hint added to a reply)
  if (error instanceof RedisError && !(error instanceof RedisUnavailableError)) return isReplyError(error) ? replyKind(error) : 'bug';
  if (REDIRECTIONS_EXHAUSTED.test(error.message)) return 'redirect';
  if (isReplyError(error)) return replyKind(error);
  return isUnavailable(error) ? 'node' : 'bug';
}

/** The {@link ErrorKind} of a server's error reply. */
function replyKind(error: Error): ErrorKind {
  if (REDIRECT_REPLY.test(error.message)) return 'redirect';
  if (SLOT_NOT_SERVED.test(error.message)) return 'slot';
  return UNAVAILABLE_REPLY.test(error.message) ? 'node' : 'bug';
}

/**
 * Classes of the errors that carry a server's error reply: ioredis `ReplyError`, node-redis
 * `ErrorReply` (and its `SimpleError` / `BlobError` subclasses, whose `name` is plain `'Error'`),
 * @upstash/redis `UpstashError`, the memory store's `MemoryReplyError`.
 */
const REPLY_ERRORS = new Set(['ReplyError', 'ErrorReply', 'SimpleError', 'BlobError', 'UpstashError', 'MemoryReplyError']);

/** Whether `error` carries a server's error reply (as opposed to a socket or client error). */
export function isReplyError(error: Error): boolean {
  if (REPLY_ERRORS.has(error.name)) return true;
  for (let proto: unknown = Object.getPrototypeOf(error); proto !== null && proto !== Error.prototype; proto = Object.getPrototypeOf(proto)) {
    if (REPLY_ERRORS.has((proto as { constructor?: { name?: string } }).constructor?.name ?? '')) return true;
  }
  return false;
}

/**
 * Decides whether `error` means Redis is unavailable (connection refused or closed, offline
 * queue disabled, retries exhausted, cluster down, loading, writes refused) as opposed to a reply
 * that reports a bug (WRONGTYPE, NOAUTH, a script's validation error), which must surface to the
 * caller.
 */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // fetch() (the @upstash/redis REST client) reports a network failure as TypeError('fetch failed')
  // with the socket error as its cause: an outage, not a bug.
  if (error instanceof TypeError && error.message === 'fetch failed' && error.cause instanceof Error) return true;
  if (isProgrammingError(error)) return false;
  if (isReplyError(error)) return UNAVAILABLE_REPLY.test(error.message);
  return true;
}

/**
 * Programming errors are bugs to fix, not outages to paper over. (A function of its own: compiled
 * without the test files' types, `Error` and `TypeError` are the same shape, and chained
 * `instanceof` checks would narrow `error` down to `never`.)
 */
export function isProgrammingError(error: unknown): boolean {
  return error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError;
}

/**
 * What an ACL denial (NOPERM, https://redis.io/docs/latest/operate/oss_and_stack/management/security/acl/)
 * refused, or `null` when `error` is not one:
 * - `{ command }`: the command itself (`'eval'`, `'evalsha'`, `'get'`), from "NOPERM this user has
 *   no permissions to run the 'eval' command" (Redis 6-7.0) / "NOPERM User u has no permissions
 *   to run the 'eval' command" (7.2+);
 * - `{ key: true }`: a key ("... to access one of the keys used as arguments", "No permissions to
 *   access a key");
 * - `{ inScript: command }`: a command a script ran ("ERR The user executing the script can't run
 *   this command ..." (7.0, no name: `''`), "ERR ACL failure in script: User u has no permissions
 *   to run the 'hset' command ..." (7.2+)).
 */
export function aclDenial(error: unknown): { command?: string; key?: true; inScript?: string } | null {
  if (!(error instanceof Error)) return null;
  const message = error.message;
  if (message.startsWith('NOPERM')) {
    const command = /'([A-Za-z|_-]+)' command/.exec(message)?.[1];
    if (command !== undefined) return { command: command.toLowerCase() };
    if (/\bkeys?\b/.test(message)) return { key: true };
    return null;
  }
  if (/^ERR (?:ACL failure in script|The user executing the script can't run)/.test(message)) {
    return { inScript: /'([A-Za-z|_-]+)' command/.exec(message)?.[1]?.toLowerCase() ?? '' };
  }
  return null;
}

/** What a {@link Deadlines} queue holds: something with a deadline that can be expired once. */
export interface Expirable {
  /** `performance.now()` value at which the entry expires. */
  readonly deadline: number;
  /** Whether it has settled already (it is then skipped). */
  readonly settled: boolean;
  /** Called once when the deadline passes before the entry settled. */
  expire(): void;
}

/**
 * Where a call's deadline is kept: a {@link Deadlines} queue of its own length, or the
 * {@link DeadlineHeap} of its client (through a {@link HeapDeadlines} view) for lengths that have
 * no queue. `timeoutMs` is the length of every deadline added through it.
 */
export interface DeadlineQueue {
  /** Deadline of each call in **milliseconds**, an integer in [1, 2^31 - 1]. */
  readonly timeoutMs: number;
  /** Adds an entry whose `deadline` is `performance.now() + timeoutMs` (taken when it was made). */
  add(entry: Expirable): void;
  /** Call when an entry settles. */
  dropSettled(): void;
}

/**
 * Deadlines of one fixed length for many concurrent calls, with a single timer. Calls that share a
 * timeout expire in the order they started, so a FIFO queue holds them and one timer is armed for
 * the oldest; a call that settles is dropped from the front as soon as it reaches it. This costs
 * far less per call than a `setTimeout` and a `Promise.race` each. The timer is `unref`'d
 * whenever nothing is in flight, so it never keeps a process alive on its own.
 */
export class Deadlines implements DeadlineQueue {
  private readonly entries: Expirable[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Between the timer's firing and the expiry of the due entries (one turn of the event loop). */
  private firing = false;

  /** @param timeoutMs Deadline of each call in **milliseconds**, an integer in [1, 2^31 - 1]. */
  constructor(readonly timeoutMs: number) {}

  /** Adds an entry whose `deadline` is `performance.now() + timeoutMs` (taken when it was made). */
  add(entry: Expirable): void {
    this.entries.push(entry);
    if (this.timer === null) {
      if (!this.firing) this.arm();
    } else if (this.entries.length - this.head === 1) {
      this.timer.ref();
    }
  }

  /** Drops settled entries from the front; call when an entry settles. */
  dropSettled(): void {
    const entries = this.entries;
    while (this.head < entries.length && entries[this.head]!.settled) this.head += 1;
    if (this.head === entries.length) {
      // Nothing in flight: the timer must not keep the process alive, but it stays armed. Clearing
      // it and arming a new one per call measured ~6 us per call with one call in flight; this
      // way the timer fires at most once per timeoutMs and re-arms only if calls are pending.
      entries.length = 0;
      this.head = 0;
      this.timer?.unref();
    } else if (this.head > 1024 && this.head * 2 > entries.length) {
      entries.splice(0, this.head);
      this.head = 0;
    }
  }

  private arm(): void {
    this.timer = null;
    this.dropSettled();
    const first = this.entries[this.head];
    if (first === undefined) return;
    this.timer = setTimeout(this.fire, Math.max(0, Math.ceil(first.deadline - performance.now())));
  }

  /**
   * The timer fired. The due entries expire on the check phase of this turn of the event loop,
   * after its poll phase: after a stall (a long GC, CPU-bound work) the replies that arrived
   * meanwhile settle their calls first, instead of those calls being reported as timed out.
   */
  private readonly fire = (): void => {
    this.timer = null;
    this.firing = true;
    setImmediate(this.expireDue);
  };

  private readonly expireDue = (): void => {
    this.firing = false;
    const now = performance.now();
    const entries = this.entries;
    for (let entry = entries[this.head]; entry !== undefined && (entry.settled || entry.deadline <= now); entry = entries[this.head]) {
      this.head += 1;
      if (!entry.settled) entry.expire();
    }
    this.arm();
  };
}

/**
 * Deadlines of any lengths in one binary min-heap with one timer: where a client's callers pass
 * many distinct `timeoutMs` values (a per-request budget), so that no state is kept per value.
 * O(log n) per call where a {@link Deadlines} queue costs O(1). Settled entries leave the heap
 * when they reach its top, or all at once when they are more than half of it, so it holds about
 * the calls in flight. The timer is `unref`'d whenever nothing is in flight.
 */
export class DeadlineHeap {
  private readonly heap: Expirable[] = [];
  /** Settled entries still in the heap. */
  private settled = 0;
  private timer: NodeJS.Timeout | null = null;
  /** The deadline the timer is armed for. */
  private armedFor = Infinity;
  private firing = false;

  /** Entries held (settled ones not dropped yet included). */
  get size(): number {
    return this.heap.length;
  }

  add(entry: Expirable): void {
    const heap = this.heap;
    heap.push(entry);
    this.up(heap.length - 1);
    if (!this.firing && entry.deadline < this.armedFor) this.arm();
    else this.timer?.ref();
  }

  /** An entry settled: drops the settled ones from the top, or from everywhere when they are most of the heap. */
  dropSettled(): void {
    this.settled += 1;
    const heap = this.heap;
    while (heap.length > 0 && heap[0]!.settled) {
      this.pop();
      this.settled -= 1;
    }
    if (this.settled > 32 && 2 * this.settled > heap.length) {
      const live = heap.filter((e) => !e.settled);
      heap.length = 0;
      for (const e of live) {
        heap.push(e);
        this.up(heap.length - 1);
      }
      this.settled = 0;
    }
    if (heap.length === 0) this.timer?.unref();
  }

  private arm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Infinity;
    const first = this.heap[0];
    if (first === undefined) return;
    this.armedFor = first.deadline;
    this.timer = setTimeout(this.fire, Math.max(0, Math.ceil(first.deadline - performance.now())));
  }

  /** As {@link Deadlines}: the due entries expire on the check phase, after the replies that arrived meanwhile. */
  private readonly fire = (): void => {
    this.timer = null;
    this.armedFor = Infinity;
    this.firing = true;
    setImmediate(this.expireDue);
  };

  private readonly expireDue = (): void => {
    this.firing = false;
    const now = performance.now();
    const heap = this.heap;
    while (heap.length > 0 && (heap[0]!.settled || heap[0]!.deadline <= now)) {
      const entry = this.pop();
      if (entry.settled) this.settled -= 1;
      else entry.expire();
    }
    if (this.settled < 0) this.settled = 0;
    this.arm();
  };

  private pop(): Expirable {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      this.down(0);
    }
    return top;
  }

  private up(i: number): void {
    const heap = this.heap;
    const entry = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.deadline <= entry.deadline) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  private down(i: number): void {
    const heap = this.heap;
    const n = heap.length;
    const entry = heap[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && heap[child + 1]!.deadline < heap[child]!.deadline) child += 1;
      if (heap[child]!.deadline >= entry.deadline) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = entry;
  }
}

/** A {@link DeadlineQueue} of one length on a client's {@link DeadlineHeap}: a view, made per call, holding nothing. */
export class HeapDeadlines implements DeadlineQueue {
  constructor(
    readonly timeoutMs: number,
    private readonly heap: DeadlineHeap,
  ) {}

  add(entry: Expirable): void {
    this.heap.add(entry);
  }

  dropSettled(): void {
    this.heap.dropSettled();
  }
}
