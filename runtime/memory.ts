/**
 * An in-process store that runs every rate-limit script of the runtime (collect, increment,
 * set_keep_ttl, the six limiters, the three circuit-breaker scripts) with the semantics of the
 * Lua in `runtime/scripts/`: same arguments, same replies, same TTLs.
 *
 * Design: the Lua can not run in Node and TypeScript can not run in Redis, so the decision logic
 * can not be one shared function. Instead each script is mirrored statement by statement on top
 * of a few emulated Redis commands (HMGET, HSET, PEXPIRE, ZCOUNT, ...), with the same integer
 * helpers (`idiv`, `cdiv`). Lua 5.1 numbers and JavaScript numbers are both IEEE doubles, so the
 * same operations in the same order give bit-identical results; the parity tests run the same
 * random sequences through both and compare replies and TTLs.
 *
 * Keys expire lazily (a read of an expired key deletes it, as in Redis) and a janitor timer
 * reclaims the rest every `janitorIntervalMs` (unref'd: it never keeps the process alive). A
 * `maxKeys` guard refuses to create a key when the store is full ({@link StoreFullError}), which
 * the limiters and breakers turn into a denial: fail closed for new keys, existing keys still served.
 */
import { RedisError } from './errors.js';
import type { ScriptName } from './scripts.js';
import { checkInteger, describe } from './validate.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Most keys held at once, an integer >= 1. Default `10000`. A new key beyond it is refused. */
  maxKeys?: number;
  /** **Milliseconds** between two janitor sweeps of expired keys, an integer >= 1. Default `30000`. */
  janitorIntervalMs?: number;
  /**
   * **Tests only.** The clock in milliseconds since the Unix epoch (default `Date.now`). It plays
   * the role of the Redis server clock: expiry and scripts called without `nowMs` use it.
   */
  clock?: () => number;
}

/**
 * Thrown when a write would create a key in a full store (see `maxKeys`). Nothing was written.
 * Limiters answer it with a denial (`reason: 'store-full'`).
 */
export class StoreFullError extends Error {
  constructor(maxKeys: number) {
    super(`memory store is full (maxKeys ${maxKeys})`);
    this.name = 'StoreFullError';
  }
}

/**
 * An error reply of an emulated command or script, with the text Redis would send (e.g.
 * `WRONGTYPE ...`, `ERR redis-ttl fixed_window: cost must be ...`) and its first word as `code`.
 * A {@link RedisError}, like the errors the runtime throws for Redis' own replies; the outage
 * classification treats it as a bug, never as an outage.
 */
export class MemoryReplyError extends RedisError {
  constructor(message: string) {
    super(message, /^[A-Z]+/.exec(message)?.[0]);
    this.name = 'MemoryReplyError';
  }
}

/**
 * A sorted set: members ordered by score, then by member (byte order, as Redis does for ASCII
 * members), from index `head` on (the members before it were removed from the front: removing
 * from the front moves an index, not the arrays, which are compacted once half of them is dead);
 * `index` holds the live members, so that adding one needs no search for an older copy.
 */
interface SortedSet {
  type: 'zset';
  scores: number[];
  members: string[];
  head: number;
  index: Set<string>;
}

type Value = { type: 'string'; value: string } | { type: 'hash'; fields: Map<string, string> } | SortedSet;

type Entry = Value & { /** absolute ms, `Infinity` for no TTL */ expiresAt: number };

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
const MAX = 9007199254740991;
const MAX_MS = 1_000_000_000_000;
const MAX_NOW = 4503599627370496;

/** floor(a / b) for integers below 2^53, corrected for rounding of the float division (as in the Lua). */
function idiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  if (q * b > a) q -= 1;
  else if ((q + 1) * b <= a) q += 1;
  return q;
}
function cdiv(a: number, b: number): number {
  return 0 - idiv(-a, b);
}

/** Lua 5.1 `tonumber` on a string (decimal or hex, surrounding spaces allowed); `undefined` for nil. */
function toNumber(s: string | null | undefined): number | undefined {
  if (s === null || s === undefined) return undefined;
  // fast path: what the runtime writes and sends, 1-15 decimal digits (exact as a double)
  const length = s.length;
  if (length > 0 && length <= 15) {
    let value = 0;
    let i = 0;
    for (; i < length; i += 1) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      value = value * 10 + c;
    }
    if (i === length) return value;
  }
  const t = s.trim();
  if (t === '' || !/^[-+]?(0[xX][0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)$/.test(t)) return undefined;
  const n = Number(t.replace(/^\+/, ''));
  return Number.isNaN(n) ? undefined : n;
}

/** Lua `string.format('%d', x)` for the integers the scripts format. */
function d(x: number): string {
  return String(Math.trunc(x) + 0);
}

/** A Lua number as Redis replies it: truncated to an integer. */
function int(x: number): number {
  return Math.trunc(x) + 0;
}

function isInt(x: number | undefined, min: number, max: number): x is number {
  return x !== undefined && x === Math.floor(x) && x >= min && x <= max;
}

/**
 * The keys and the emulated Redis commands the scripts are written against. Each command reads
 * with lazy expiry, as Redis does, and a command that would create a key asks for room first.
 */
class Keyspace {
  readonly entries = new Map<string, Entry>();
  lastSweep = -Infinity;
  /** The time of the script running now, `null` between scripts (Redis fixes time at script start). */
  frozenAt: number | null = null;

  constructor(
    readonly maxKeys: number,
    readonly janitorIntervalMs: number,
    readonly clock: () => number,
  ) {}

  /** The time expiry is judged by: frozen for the duration of one script, else the clock. */
  time(): number {
    return this.frozenAt ?? this.clock();
  }

  /** The script clock when ARGV now is '' (Redis: TIME, in whole milliseconds). */
  now(): number {
    return Math.floor(this.time());
  }

  sweep(): number {
    const now = this.time();
    this.lastSweep = now;
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt < now) {
        this.entries.delete(key);
        removed += 1;
      }
    }
    return removed;
  }

  /** The live entry of `key`; an expired one is deleted (Redis: a key expires when now > its expiry). */
  lookup(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.expiresAt < this.time()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private typed<T extends Value['type']>(key: string, type: T): (Entry & { type: T }) | undefined {
    const entry = this.lookup(key);
    if (entry !== undefined && entry.type !== type) throw new MemoryReplyError(WRONGTYPE);
    return entry as (Entry & { type: T }) | undefined;
  }

  /** Adds a new key without TTL, or throws {@link StoreFullError} when there is no room. */
  private create<V extends Value>(key: string, value: V): Entry & V {
    if (this.entries.size >= this.maxKeys) {
      if (this.time() - this.lastSweep >= Math.min(1000, this.janitorIntervalMs)) this.sweep();
      if (this.entries.size >= this.maxKeys) throw new StoreFullError(this.maxKeys);
    }
    const entry = { ...value, expiresAt: Infinity } as Entry & V;
    this.entries.set(key, entry);
    return entry;
  }

  /** PTTL */
  pttl(key: string): number {
    const entry = this.lookup(key);
    if (entry === undefined) return -2;
    if (entry.expiresAt === Infinity) return -1;
    return Math.max(0, entry.expiresAt - this.time());
  }
  /** GET */
  get(key: string): string | null {
    return this.typed(key, 'string')?.value ?? null;
  }
  /** EXISTS */
  exists(key: string): number {
    return this.lookup(key) === undefined ? 0 : 1;
  }
  /** DEL */
  del(key: string): number {
    return this.lookup(key) !== undefined && this.entries.delete(key) ? 1 : 0;
  }
  /** SET key value [PX ms | KEEPTTL] (any type is overwritten; without an option the TTL is cleared) */
  set(key: string, value: string, px: number | 'KEEPTTL' | undefined): void {
    const entry = this.lookup(key);
    if (entry === undefined) {
      const created = this.create(key, { type: 'string', value });
      if (typeof px === 'number') created.expiresAt = this.time() + px;
      return;
    }
    const expiresAt = px === 'KEEPTTL' ? entry.expiresAt : px === undefined ? Infinity : this.time() + px;
    this.entries.set(key, { type: 'string', value, expiresAt });
  }
  /** INCRBY, on 64-bit signed integers like Redis */
  incrby(key: string, by: number): number {
    const entry = this.typed(key, 'string');
    const current = entry === undefined ? 0n : /^(0|-?[1-9]\d{0,19})$/.test(entry.value) ? BigInt(entry.value) : null;
    if (current === null || current > 9223372036854775807n || current < -9223372036854775808n) {
      throw new MemoryReplyError('ERR value is not an integer or out of range');
    }
    const next = current + BigInt(by);
    if (next > 9223372036854775807n || next < -9223372036854775808n) {
      throw new MemoryReplyError('ERR increment or decrement would overflow');
    }
    if (entry === undefined) this.create(key, { type: 'string', value: next.toString() });
    else entry.value = next.toString();
    return Number(next);
  }
  /** PEXPIRE (a TTL <= 0 deletes the key) */
  pexpire(key: string, ms: number): number {
    const entry = this.lookup(key);
    if (entry === undefined) return 0;
    if (ms <= 0) this.entries.delete(key);
    else entry.expiresAt = this.time() + ms;
    return 1;
  }
  /** HMGET */
  hmget(key: string, fields: readonly string[]): Array<string | null> {
    const entry = this.typed(key, 'hash');
    return fields.map((f) => entry?.fields.get(f) ?? null);
  }
  /** HSET key f1 v1 f2 v2 [f3 v3], without an array per call */
  hset3(key: string, f1: string, v1: string, f2: string, v2: string, f3?: string, v3?: string): void {
    const entry = this.typed(key, 'hash') ?? this.create(key, { type: 'hash', fields: new Map<string, string>() });
    entry.fields.set(f1, v1);
    entry.fields.set(f2, v2);
    if (f3 !== undefined) entry.fields.set(f3, v3!);
  }
  /** HSET */
  hset(key: string, pairs: ReadonlyArray<readonly [string, string]>): void {
    const entry = this.typed(key, 'hash') ?? this.create(key, { type: 'hash', fields: new Map<string, string>() });
    for (const [f, v] of pairs) entry.fields.set(f, v);
  }
  /** ZCOUNT key -inf max: members scored at most `max` (a binary search) */
  zcountUpTo(key: string, max: number): number {
    const entry = this.typed(key, 'zset');
    if (entry === undefined) return 0;
    const scores = entry.scores;
    let lo = entry.head;
    let hi = scores.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (scores[mid]! <= max) lo = mid + 1;
      else hi = mid;
    }
    return lo - entry.head;
  }
  /** ZCARD */
  zcard(key: string): number {
    const entry = this.typed(key, 'zset');
    return entry === undefined ? 0 : entry.members.length - entry.head;
  }
  /** ZRANGE key rank rank: the member at `rank` (negative: from the end), or undefined */
  zmember(key: string, rank: number): string | undefined {
    const entry = this.typed(key, 'zset');
    if (entry === undefined) return undefined;
    return entry.members[rank < 0 ? entry.members.length + rank : entry.head + rank];
  }
  /** ZRANGE key rank rank WITHSCORES: the score at `rank` (negative: from the end), or undefined */
  zscoreAt(key: string, rank: number): number | undefined {
    const entry = this.typed(key, 'zset');
    if (entry === undefined) return undefined;
    return entry.scores[rank < 0 ? entry.scores.length + rank : entry.head + rank];
  }
  /** ZREMRANGEBYRANK key 0 count-1 (an emptied set is deleted, as in Redis) */
  zremFirst(key: string, count: number): void {
    const entry = this.typed(key, 'zset');
    if (entry === undefined) return;
    const end = Math.min(entry.members.length, entry.head + count);
    for (let i = entry.head; i < end; i += 1) entry.index.delete(entry.members[i]!);
    entry.head = end;
    if (entry.head === entry.members.length) {
      this.entries.delete(key);
    } else if (entry.head * 2 > entry.members.length) {
      entry.members.splice(0, entry.head);
      entry.scores.splice(0, entry.head);
      entry.head = 0;
    }
  }
  /** ZREM key member (an emptied set is deleted, as in Redis) */
  zrem(key: string, member: string): void {
    const entry = this.typed(key, 'zset');
    if (entry === undefined || !entry.index.delete(member)) return;
    // the sliding-window log removes its newest member: search from the end
    const i = entry.members.lastIndexOf(member);
    entry.members.splice(i, 1);
    entry.scores.splice(i, 1);
    if (entry.members.length === entry.head) this.entries.delete(key);
  }
  /** ZADD key score member (a member that exists gets the new score) */
  zadd(key: string, score: number, member: string): void {
    const entry =
      this.typed(key, 'zset') ?? this.create(key, { type: 'zset', scores: [], members: [], head: 0, index: new Set<string>() } as SortedSet);
    if (entry.index.has(member)) {
      const old = entry.members.lastIndexOf(member);
      entry.members.splice(old, 1);
      entry.scores.splice(old, 1);
    }
    entry.index.add(member);
    const { scores, members } = entry;
    const n = members.length;
    // appending is the common case (a log grows at its end)
    if (n === entry.head || scores[n - 1]! < score || (scores[n - 1] === score && members[n - 1]! < member)) {
      scores.push(score);
      members.push(member);
      return;
    }
    // the position after every (score, member) pair that sorts before this one
    let lo = entry.head;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (scores[mid]! < score || (scores[mid] === score && members[mid]! < member)) lo = mid + 1;
      else hi = mid;
    }
    scores.splice(lo, 0, score);
    members.splice(lo, 0, member);
  }
}

/**
 * The in-process store. Create it with {@link createMemoryStore}; pass it wherever the runtime
 * takes a Redis client (`collect(store, key)`, `createLimiter(store, ...)`), or as the `fallback`
 * of a limiter or breaker.
 */
export class MemoryStore {
  /** Most keys held at once. */
  readonly maxKeys: number;
  private readonly keyspace: Keyspace;
  private janitor: NodeJS.Timeout | null;

  /** @throws {TypeError | RangeError} naming the option when one is invalid. */
  constructor(options: MemoryStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
    this.maxKeys = checkInteger('maxKeys', options.maxKeys ?? 10_000, 1);
    const janitorIntervalMs = checkInteger('janitorIntervalMs', options.janitorIntervalMs ?? 30_000, 1, 2_147_483_647);
    if (options.clock !== undefined && typeof options.clock !== 'function') {
      throw new TypeError(`clock must be a function, got ${describe(options.clock)}`);
    }
    this.keyspace = new Keyspace(this.maxKeys, janitorIntervalMs, options.clock ?? Date.now);
    this.janitor = setInterval(() => this.keyspace.sweep(), janitorIntervalMs);
    this.janitor.unref();
  }

  /** Keys held, including expired ones the janitor has not reclaimed yet (no lazy expiry). */
  get size(): number {
    return this.keyspace.entries.size;
  }

  /** Stops the janitor. The store stays usable; expired keys are then reclaimed only when read. */
  close(): void {
    if (this.janitor !== null) clearInterval(this.janitor);
    this.janitor = null;
  }

  /** Deletes every expired key now (what the janitor does); returns how many. */
  sweep(): number {
    return this.keyspace.sweep();
  }

  /** Live keys (expired ones are dropped on the way, as a read would). */
  keys(): string[] {
    return [...this.keyspace.entries.keys()].filter((key) => this.keyspace.lookup(key) !== undefined);
  }

  /** Like Redis PTTL: remaining **milliseconds**, `-1` for a key without TTL, `-2` for a missing key. */
  pttl(key: string): number {
    return this.keyspace.pttl(key);
  }

  /** Like Redis PEXPIRETIME: absolute expiry in ms since the Unix epoch, `-1` without TTL, `-2` when missing. */
  pexpiretime(key: string): number {
    const entry = this.keyspace.lookup(key);
    if (entry === undefined) return -2;
    return entry.expiresAt === Infinity ? -1 : entry.expiresAt;
  }

  /** Deletes `key`; `true` when it existed. */
  delete(key: string): boolean {
    return this.keyspace.del(key) === 1;
  }

  /**
   * Runs the runtime script `name` with `keys` as KEYS and `args` as ARGV, synchronously, and
   * returns what Redis would reply (integers as numbers, bulk strings as strings, nil as `null`).
   * @throws {StoreFullError} when the script would create a key and the store is full.
   * @throws {MemoryReplyError} where the script or Redis would answer an error.
   * @throws {TypeError} for a script the store does not emulate (the cache scripts).
   */
  runScript(name: ScriptName | (string & {}), keys: readonly string[], args: readonly string[]): unknown {
    const key = keys[0];
    if (key === undefined) throw new TypeError('runScript needs one key');
    const script = Object.hasOwn(SCRIPTS, name) ? SCRIPTS[name as keyof typeof SCRIPTS] : undefined;
    if (script === undefined) throw new TypeError(`the memory store does not emulate the script ${name}`);
    // Redis fixes the time at the start of a script: no key expires while it runs
    const keyspace = this.keyspace;
    if (keyspace.frozenAt !== null) return script(keyspace, key, args);
    keyspace.frozenAt = keyspace.clock();
    try {
      return script(keyspace, key, args);
    } finally {
      keyspace.frozenAt = null;
    }
  }
}

/**
 * Creates an in-process store; see {@link MemoryStore}.
 * @example
 * const store = createMemoryStore({ maxKeys: 50_000, janitorIntervalMs: 10_000 });
 * const limiter = createLimiter(redis, { algorithm: 'gcra', limit: 100, periodMs: 60_000, onRedisError: 'fallback', fallback: store });
 * // at shutdown (optional: the janitor is unref'd):
 * store.close();
 * @throws {TypeError | RangeError} naming the option when one is invalid.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  return new MemoryStore(options);
}

// ---- the scripts, mirrored from runtime/scripts/*.lua ----

/** Field lists of HMGET, shared by every call. */
const F_WN = ['w', 'n'] as const;
const F_WCP = ['w', 'c', 'p'] as const;
const F_SDT = ['s', 'd', 't'] as const;
const F_LDT = ['l', 'd', 't'] as const;
const F_SNWUPH = ['s', 'n', 'w', 'u', 'p', 'h'] as const;

type Script = (r: Keyspace, key: string, argv: readonly string[]) => unknown;

function fail(message: string): never {
  throw new MemoryReplyError(message);
}

/** The `now` prelude of the limiter scripts: '' means the server clock. */
function clockArg(r: Keyspace, arg: string | undefined, script: string, max = MAX, text = 'now must be an integer >= 0'): number {
  if (arg === '') return r.now();
  const now = toNumber(arg);
  if (!isInt(now, 0, max)) fail(`ERR redis-ttl ${script}: ${text}`);
  return now;
}

function intArg(arg: string | undefined, min: number, max: number, message: string): number {
  const n = toNumber(arg);
  if (!isInt(n, min, max)) fail(message);
  return n;
}

const collect: Script = (r, key) => {
  const prev = r.get(key);
  if (prev === null) return null;
  r.set(key, '0', 'KEEPTTL');
  return prev;
};

const setKeepTtl: Script = (r, key, argv) => {
  if (r.exists(key) === 0) return 0;
  r.get(key); // TYPE ~= 'string': WRONGTYPE, as the script raises
  r.set(key, argv[0] ?? '', 'KEEPTTL');
  return 1;
};

const increment: Script = (r, key, argv) => {
  const by = toNumber(argv[0]);
  if (by === undefined || by !== Math.floor(by) || by > MAX || by < -MAX) fail('ERR redis-ttl increment: by must be an integer');
  const ttlMs = intArg(argv[1], 1, MAX, 'ERR redis-ttl increment: ttlMs must be an integer >= 1');
  const mode = argv[2];
  if (mode !== 'fixed' && mode !== 'sliding') fail("ERR redis-ttl increment: mode must be 'fixed' or 'sliding'");
  const value = r.incrby(key, by);
  if (mode === 'sliding') r.pexpire(key, ttlMs);
  else if (r.pttl(key) === -1) r.pexpire(key, ttlMs);
  return [value, r.pttl(key)];
};

const fixedWindow: Script = (r, key, argv) => {
  const s = 'fixed_window';
  const limit = intArg(argv[0], 1, MAX, `ERR redis-ttl ${s}: limit must be an integer >= 1`);
  const window = intArg(argv[1], 1, MAX, `ERR redis-ttl ${s}: windowMs must be an integer >= 1`);
  const cost = intArg(argv[2], 1, MAX, `ERR redis-ttl ${s}: cost must be an integer >= 1`);
  const now = clockArg(r, argv[3], s);
  const start = idiv(now, window) * window;
  const resetMs = start + window - now;
  const state = r.hmget(key, F_WN);
  let used = 0;
  if (toNumber(state[0]) === start) used = toNumber(state[1]) ?? 0;
  let remaining = limit - used;
  if (remaining < 0) remaining = 0;
  const idleReset = used > 0 ? resetMs : 0;
  if (cost > limit) return [0, int(remaining), -1, int(idleReset)];
  if (used + cost > limit) return [0, int(remaining), int(resetMs), int(idleReset)];
  used += cost;
  r.hset3(key, 'w', d(start), 'n', d(used));
  r.pexpire(key, resetMs);
  return [1, int(limit - used), 0, int(resetMs)];
};

/** Most members pruned from the front of a sliding-window log by one admission (as in the Lua). */
const LOG_PRUNE_PER_CALL = 64;
/** Largest limit of a sliding-window log (as in the Lua). */
const LOG_MAX_LIMIT = 1_000_000_000;
/** Most members in the window of a sliding-window log; beyond, calls merge into the newest (as in the Lua). */
const LOG_MAX_MEMBERS = 10_000;

/** A run of ASCII digits as the Lua's `%d+` matches it, or -1 when `text[from, to)` is not one. */
function digits(text: string, from: number, to: number): number {
  if (from >= to) return -1;
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return Number(text.slice(from, to));
}

const slidingWindowLog: Script = (r, key, argv) => {
  const s = 'sliding_window_log';
  const limit = intArg(argv[0], 1, LOG_MAX_LIMIT, `ERR redis-ttl ${s}: limit must be an integer >= 1 and <= 10^9`);
  const window = intArg(argv[1], 1, MAX, `ERR redis-ttl ${s}: windowMs must be an integer >= 1`);
  const cost = intArg(argv[2], 1, MAX, `ERR redis-ttl ${s}: cost must be an integer >= 1`);
  const now = clockArg(r, argv[3], s);
  const foreign = (): never => fail(`ERR redis-ttl ${s}: the key holds a member this script did not write`);
  /** <before> of a member "<before>:<cost>" (as the Lua parses it) */
  const beforeOf = (member: string): number => {
    const colon = member.indexOf(':');
    const before = colon < 0 ? -1 : digits(member, 0, colon);
    if (before < 0 || digits(member, colon + 1, member.length) < 0) foreign();
    return before;
  };
  const costOf = (member: string): number => digits(member, member.indexOf(':') + 1, member.length);
  const cutoff = now - window;
  const stale = r.zcountUpTo(key, cutoff);
  const size = r.zcard(key);
  let used = 0;
  let base = 0;
  let total = 0;
  let newest = '';
  let newestBefore = 0;
  let newestOwn = 0;
  let newestAt: number | undefined;
  if (size > 0) {
    newest = r.zmember(key, -1)!;
    newestBefore = beforeOf(newest);
    newestOwn = costOf(newest);
    total = newestBefore + newestOwn;
    newestAt = r.zscoreAt(key, -1)!;
    if (stale < size) {
      base = beforeOf(r.zmember(key, stale)!);
      used = total - base;
    }
  }
  let remaining = limit - used;
  if (remaining < 0) remaining = 0;
  let idleReset = 0;
  if (used > 0) idleReset = newestAt! + window - now;
  if (cost > limit) return [0, int(remaining), -1, int(idleReset)];
  if (used + cost > limit) {
    const target = base + used + cost - limit;
    let lo = stale;
    let hi = size - 1;
    while (lo < hi) {
      const mid = lo + Math.floor((hi - lo + 1) / 2);
      if (beforeOf(r.zmember(key, mid)!) < target) lo = mid;
      else hi = mid - 1;
    }
    return [0, int(remaining), int(r.zscoreAt(key, lo)! + window - now), int(idleReset)];
  }
  if (stale > 0) r.zremFirst(key, Math.min(stale, LOG_PRUNE_PER_CALL));
  const at = newestAt !== undefined && newestAt > now ? newestAt : now;
  const member = (before: number, own: number): string => `${d(before).padStart(16, '0')}:${d(own)}`;
  let added: string;
  if (used === 0) added = member(0, cost);
  else if (size - stale >= LOG_MAX_MEMBERS) {
    r.zrem(key, newest);
    added = member(newestBefore, newestOwn + cost);
  } else if (total + cost > MAX) {
    r.del(key);
    added = member(0, cost);
  } else added = member(total, cost);
  r.zadd(key, at, added);
  r.pexpire(key, at + window - now);
  return [1, int(limit - used - cost), 0, int(at + window - now)];
};

const slidingWindowCounter: Script = (r, key, argv) => {
  const s = 'sliding_window_counter';
  const limit = intArg(argv[0], 1, MAX, `ERR redis-ttl ${s}: limit must be an integer >= 1`);
  const window = toNumber(argv[1]);
  if (window === undefined || window !== Math.floor(window) || window < 1 || limit * window > MAX) {
    fail(`ERR redis-ttl ${s}: windowMs must be an integer >= 1 and limit * windowMs < 2^53`);
  }
  const cost = intArg(argv[2], 1, MAX, `ERR redis-ttl ${s}: cost must be an integer >= 1`);
  const now = clockArg(r, argv[3], s);
  const start = idiv(now, window) * window;
  const elapsed = now - start;
  const state = r.hmget(key, F_WCP);
  const storedStart = toNumber(state[0]);
  let curr = 0;
  let prev = 0;
  if (storedStart === start) {
    curr = toNumber(state[1]) ?? 0;
    prev = toNumber(state[2]) ?? 0;
  } else if (storedStart === start - window) {
    prev = toNumber(state[1]) ?? 0;
  }
  const room = (p: number, c: number, e: number): number => idiv(limit * window - p * (window - e) - c * window, window);
  const firstFit = (p: number, c: number, e: number): number | undefined => {
    const spare = (limit - c - cost) * window;
    if (spare < 0) return undefined;
    if (p === 0) return e;
    let need = window - idiv(spare, p);
    if (need < e) need = e;
    return need;
  };
  const idleResetOf = (p: number, c: number): number => (c > 0 ? start + 2 * window - now : p > 0 ? start + window - now : 0);
  let remaining = room(prev, curr, elapsed);
  if (remaining < 0) remaining = 0;
  if (cost > limit) return [0, int(remaining), -1, int(idleResetOf(prev, curr))];
  if (remaining < cost) {
    const here = firstFit(prev, curr, elapsed);
    // as in the Lua: first_fit(curr, 0, 0) is never nil here (cost <= limit)
    const retry = here !== undefined && here < window ? here - elapsed : window - elapsed + firstFit(curr, 0, 0)!;
    return [0, int(remaining), int(retry), int(idleResetOf(prev, curr))];
  }
  curr += cost;
  r.hset3(key, 'w', d(start), 'c', d(curr), 'p', d(prev));
  r.pexpire(key, start + 2 * window - now);
  return [1, int(room(prev, curr, elapsed)), 0, int(start + 2 * window - now)];
};

/** token_bucket and leaky_bucket share their argument checks. */
function bucketArgs(r: Keyspace, s: string, argv: readonly string[]): [number, number, number, number, number] {
  const capacity = intArg(argv[0], 1, MAX, `ERR redis-ttl ${s}: capacity must be an integer >= 1`);
  const num = intArg(argv[1], 1, MAX, `ERR redis-ttl ${s}: rate numerator must be an integer >= 1`);
  const den = toNumber(argv[2]);
  if (den === undefined || den !== Math.floor(den) || den < 1 || capacity * den > MAX) {
    fail(`ERR redis-ttl ${s}: rate denominator must be an integer >= 1 and capacity * den < 2^53`);
  }
  const cost = intArg(argv[3], 1, MAX, `ERR redis-ttl ${s}: cost must be an integer >= 1`);
  return [capacity, num, den, cost, clockArg(r, argv[4], s)];
}

const tokenBucket: Script = (r, key, argv) => {
  const [capacity, num, den, cost, now] = bucketArgs(r, 'token_bucket', argv);
  const full = capacity * den;
  let tokens = full;
  const state = r.hmget(key, F_SDT);
  const stored = toNumber(state[0]);
  const storedDen = toNumber(state[1]);
  const storedAt = toNumber(state[2]);
  if (stored !== undefined && storedDen !== undefined && storedDen >= 1 && storedAt !== undefined) {
    tokens = stored;
    if (storedDen !== den) tokens = Math.floor((stored / storedDen) * den);
    if (tokens < 0) tokens = 0;
    if (tokens < full) {
      let elapsed = now - storedAt;
      if (elapsed > 0) {
        const toFull = cdiv(full - tokens, num);
        if (elapsed > toFull) elapsed = toFull;
        tokens += elapsed * num;
      }
    }
    if (tokens > full) tokens = full;
  }
  const need = cost * den;
  if (cost > capacity) return [0, int(idiv(tokens, den)), -1, int(cdiv(full - tokens, num))];
  if (tokens < need) return [0, int(idiv(tokens, den)), int(cdiv(need - tokens, num)), int(cdiv(full - tokens, num))];
  tokens -= need;
  const ttlMs = cdiv(full - tokens, num);
  r.hset3(key, 's', d(tokens), 'd', d(den), 't', d(now));
  r.pexpire(key, ttlMs);
  return [1, int(idiv(tokens, den)), 0, int(ttlMs)];
};

const leakyBucket: Script = (r, key, argv) => {
  const [capacity, num, den, cost, now] = bucketArgs(r, 'leaky_bucket', argv);
  const full = capacity * den;
  let level = 0;
  const state = r.hmget(key, F_LDT);
  const stored = toNumber(state[0]);
  const storedDen = toNumber(state[1]);
  const storedAt = toNumber(state[2]);
  if (stored !== undefined && storedDen !== undefined && storedDen >= 1 && storedAt !== undefined) {
    level = stored;
    if (storedDen !== den) level = Math.ceil((stored / storedDen) * den);
    if (level > full) level = full;
    if (level > 0) {
      let elapsed = now - storedAt;
      if (elapsed > 0) {
        const toEmpty = cdiv(level, num);
        if (elapsed > toEmpty) elapsed = toEmpty;
        level -= elapsed * num;
      }
    }
    if (level < 0) level = 0;
  }
  const need = cost * den;
  if (cost > capacity) return [0, int(idiv(full - level, den)), -1, int(cdiv(level, num))];
  if (level + need > full) {
    return [0, int(idiv(full - level, den)), int(cdiv(level + need - full, num)), int(cdiv(level, num))];
  }
  level += need;
  const ttlMs = cdiv(level, num);
  r.hset3(key, 'l', d(level), 'd', d(den), 't', d(now));
  r.pexpire(key, ttlMs);
  return [1, int(idiv(full - level, den)), 0, int(ttlMs)];
};

const gcra: Script = (r, key, argv) => {
  const s = 'gcra';
  const burst = intArg(argv[0], 1, MAX, `ERR redis-ttl ${s}: burst must be an integer >= 1`);
  const per = toNumber(argv[1]);
  if (per === undefined || per !== Math.floor(per) || per < 1 || burst * per > MAX) {
    fail(`ERR redis-ttl ${s}: interval numerator must be an integer >= 1 and burst * P < 2^53`);
  }
  const units = intArg(argv[2], 1, MAX, `ERR redis-ttl ${s}: interval denominator must be an integer >= 1`);
  const cost = intArg(argv[3], 1, MAX, `ERR redis-ttl ${s}: cost must be an integer >= 1`);
  const now = clockArg(r, argv[4], s);
  const tau = burst * per;
  const inc = cost * per;
  let outstanding = 0;
  const stored = r.get(key);
  if (stored !== null) {
    const m = /^(-?\d+):(\d+):(\d+)$/.exec(stored);
    const a = toNumber(m?.[1]);
    const rest = toNumber(m?.[2]);
    const l = toNumber(m?.[3]);
    if (a !== undefined && rest !== undefined && l !== undefined && l >= 1 && a >= now) {
      if (a - now > tau) outstanding = tau;
      else if (l === units) outstanding = (a - now) * units + rest;
      else outstanding = (a - now) * units + cdiv(rest * units, l);
      if (outstanding > tau) outstanding = tau;
    }
  }
  const remainingAfter = (o: number): number => Math.max(0, idiv(tau - o, per));
  if (cost > burst) return [0, int(remainingAfter(outstanding)), -1, int(cdiv(outstanding, units))];
  if (outstanding + inc > tau) {
    return [0, int(remainingAfter(outstanding)), int(cdiv(outstanding + inc - tau, units)), int(cdiv(outstanding, units))];
  }
  outstanding += inc;
  const ttlMs = cdiv(outstanding, units);
  const tatMs = now + idiv(outstanding, units);
  const tatRest = outstanding - idiv(outstanding, units) * units;
  r.set(key, `${d(tatMs)}:${d(tatRest)}:${d(units)}`, ttlMs);
  return [1, int(remainingAfter(outstanding)), 0, int(ttlMs)];
};

/** The breaker's state as of `now`, decoded as the prelude of the three circuit scripts does. */
interface BreakerState {
  st: number;
  n: number;
  w: number;
  u: number;
  p: number;
  h: number;
}

function breakerPrelude(
  r: Keyspace,
  key: string,
  argv: readonly string[],
  s: string,
  extra?: () => void,
): { threshold: number; window: number; openMs: number; probes: number; now: number; state: BreakerState } {
  const threshold = intArg(argv[0], 1, 1_000_000_000, `ERR redis-ttl ${s}: failureThreshold must be an integer >= 1`);
  const window = intArg(argv[1], 1, MAX_MS, `ERR redis-ttl ${s}: windowMs must be an integer >= 1 and <= 10^12`);
  const openMs = intArg(argv[2], 1, MAX_MS, `ERR redis-ttl ${s}: openMs must be an integer >= 1 and <= 10^12`);
  const probes = intArg(argv[3], 1, 1_000_000_000, `ERR redis-ttl ${s}: halfOpenProbes must be an integer >= 1`);
  const now = clockArg(r, argv[4], s, MAX_NOW, 'now must be an integer >= 0 and <= 2^52');
  extra?.();
  const state: BreakerState = { st: 0, n: 0, w: 0, u: 0, p: 0, h: 0 };
  const raw = r.hmget(key, F_SNWUPH);
  const stored = toNumber(raw[0]);
  if (stored === 0) {
    state.w = toNumber(raw[2]) ?? 0;
    if (now < state.w + window) state.n = toNumber(raw[1]) ?? 0;
  } else if (stored === 1) {
    state.u = toNumber(raw[3]) ?? 0;
    if (now < state.u + openMs) state.st = 1;
  } else if (stored === 2) {
    state.h = toNumber(raw[5]) ?? 0;
    if (now < state.h + openMs) {
      state.st = 2;
      state.p = toNumber(raw[4]) ?? 0;
    }
  }
  if (state.n === 0) state.w = 0;
  return { threshold, window, openMs, probes, now, state };
}

function breakerSnapshot(x: BreakerState, now: number, openMs: number, probes: number): number[] {
  if (x.st === 1 && now < x.u) return [1, 0, 0, int(x.u - now)];
  if (x.st === 1) return [2, 0, 0, 0];
  if (x.st === 2) return x.p >= probes ? [2, 0, int(x.p), int(x.h + openMs - now)] : [2, 0, int(x.p), 0];
  return [0, int(x.n), 0, 0];
}

const circuitAcquire: Script = (r, key, argv) => {
  const { openMs, probes, now, state: x } = breakerPrelude(r, key, argv, 'circuit_acquire');
  if (x.st === 0) return [1, 0, int(x.n), 0, 0];
  if (x.st === 1 && now < x.u) return [0, 1, 0, 0, int(x.u - now)];
  if (x.st === 1) {
    x.h = now;
    x.p = 0;
  }
  if (x.p >= probes) return [0, 2, 0, int(x.p), int(x.h + openMs - now)];
  x.p += 1;
  r.hset(key, [['s', '2'], ['n', '0'], ['w', '0'], ['u', d(x.u)], ['p', d(x.p)], ['h', d(x.h)]]);
  r.pexpire(key, x.h + openMs - now);
  return [1, 2, 0, int(x.p), 0];
};

const circuitRecord: Script = (r, key, argv) => {
  const outcome = argv[5];
  const { threshold, window, openMs, probes, now, state: x } = breakerPrelude(r, key, argv, 'circuit_record', () => {
    if (outcome !== 'success' && outcome !== 'failure') fail("ERR redis-ttl circuit_record: outcome must be 'success' or 'failure'");
  });
  if (x.st === 0) {
    if (outcome === 'failure') {
      if (x.n === 0) x.w = now;
      x.n += 1;
      if (x.n >= threshold) {
        x.st = 1;
        x.u = now + openMs;
        x.n = 0;
        x.w = 0;
      }
    }
  } else if (x.st === 2) {
    x.p = 0;
    x.h = 0;
    if (outcome === 'success') x.st = 0;
    else {
      x.st = 1;
      x.u = now + openMs;
    }
  }
  if (x.st === 0 && x.n === 0) {
    r.del(key);
    return breakerSnapshot(x, now, openMs, probes);
  }
  const ttl = x.st === 0 ? x.w + window - now : x.st === 1 ? x.u + openMs - now : x.h + openMs - now;
  r.hset(key, [['s', d(x.st)], ['n', d(x.n)], ['w', d(x.w)], ['u', d(x.u)], ['p', d(x.p)], ['h', d(x.h)]]);
  r.pexpire(key, ttl);
  return breakerSnapshot(x, now, openMs, probes);
};

const circuitRead: Script = (r, key, argv) => {
  const { openMs, probes, now, state } = breakerPrelude(r, key, argv, 'circuit_read');
  return breakerSnapshot(state, now, openMs, probes);
};

const SCRIPTS = {
  collect,
  increment,
  set_keep_ttl: setKeepTtl,
  fixed_window: fixedWindow,
  sliding_window_log: slidingWindowLog,
  sliding_window_counter: slidingWindowCounter,
  token_bucket: tokenBucket,
  gcra,
  leaky_bucket: leakyBucket,
  circuit_acquire: circuitAcquire,
  circuit_record: circuitRecord,
  circuit_read: circuitRead,
} satisfies Partial<Record<ScriptName, Script>>;
