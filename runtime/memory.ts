/**
 * An in-process store that runs every rate-limit script of the runtime (collect, increment,
 * set_keep_ttl, the six limiters, the three circuit-breaker scripts) with the semantics of the
 * Lua in `runtime/scripts/`: same arguments, same replies, same TTLs.
 *
 * Design: the Lua can not run in Node and TypeScript can not run in Redis, so the decision logic
 * can not be one shared function. Instead each script's arithmetic is mirrored statement by
 * statement, with the same integer helpers (`idiv`, `cdiv`): Lua 5.1 numbers and JavaScript
 * numbers are both IEEE doubles, so the same operations in the same order give bit-identical
 * results. The state differs in form only: a limiter keeps its numbers as numbers (counters; the
 * sliding-window log as one array of (time, before, own) triples, read by index where the Lua reads
 * by rank), parsed and formatted never, and its parameters are checked once per limiter; the other
 * scripts (and any command that reads a limiter's key, e.g. `collect`, which then sees the hash or
 * string Redis would hold) run on a few emulated Redis commands (GET, SET, INCRBY, HMGET, HSET,
 * PEXPIRE, ...). The parity tests run the same random sequences through the Lua on a real Redis
 * and through this store, and compare every reply and TTL.
 *
 * Keys expire lazily (a read of an expired key deletes it, as in Redis) and a janitor timer
 * reclaims the rest every `janitorIntervalMs` (unref'd: it never keeps the process alive). A
 * `maxKeys` guard refuses to create a key when the store is full ({@link StoreFullError}), which
 * the limiters and breakers turn into a denial: fail closed for new keys, existing keys still served.
 */
import { cdiv, idiv } from './decode.js';
import { RedisError } from './errors.js';
import type { ScriptName } from './scripts.js';
import { checkInteger, checkKnownOptions, describe, orDefault } from './validate.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Most keys held at once, an integer >= 1. Default `10000`. A new key beyond it is refused. */
  maxKeys?: number;
  /** **Milliseconds** between two janitor sweeps of expired keys, an integer >= 1. Default `30000`. */
  janitorIntervalMs?: number;
  /**
   * **Tests only.** The clock in milliseconds since the Unix epoch. It plays the role of the Redis
   * server clock: expiry and scripts called without `nowMs` use it. Default: a monotonic clock
   * ({@link monotonicEpochMs}: the wall clock at process start plus the monotonic time elapsed
   * since), so a step of the system clock (NTP, a VM resumed, a manual change) neither refills
   * nor reopens a limit and neither expires nor prolongs a key. A clock given here may step back:
   * the limiters never reopen a window for that (see the scripts), but keys' TTLs follow it.
   */
  clock?: () => number;
}

/**
 * `performance.timeOrigin`, read once: it is fixed for the life of the process, and reading it is
 * a call into Node's C++ side as `performance.now()` is (half the cost of this clock).
 */
const TIME_ORIGIN = performance.timeOrigin;

/**
 * The default clock of a memory store, in milliseconds since the Unix epoch as the wall clock read
 * at process start (`performance.timeOrigin`), plus the monotonic time elapsed since
 * (`performance.now()`, https://nodejs.org/api/perf_hooks.html#performancenow): it never steps
 * when the system clock does, so time elapsed between two calls is real time elapsed. It drifts
 * from `Date.now()` by the steps the system clock took since the process started.
 */
export function monotonicEpochMs(): number {
  return TIME_ORIGIN + performance.now();
}

/**
 * {@link monotonicEpochMs} at an earlier or later `performance.now()` reading `at` (ms), without
 * reading the clock: milliseconds since the Unix epoch on the same clock.
 * @internal
 */
export function monotonicEpochMsAt(at: number): number {
  return TIME_ORIGIN + at;
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
 * The state a limiter script keeps in one key, held as numbers: what the Lua keeps in a string
 * (`fw`: the count; `tb`, `lb`, `gcra`: 24 bytes, the three numbers packed as little-endian doubles,
 * `struct.pack('<ddd', ...)`: the bucket's amount, time and denominator, GCRA's a, r and L) or in a
 * hash (`swc`: w, c, p), in the fields `a`, `b`, `c` in that order. Read by its own script it
 * costs no parsing and no formatting; any other command sees the string or hash Redis would hold
 * (it is converted in place on the first such access, see `Keyspace.typed`).
 */
interface Counters {
  type: 'fw' | 'swc' | 'tb' | 'lb' | 'gcra';
  a: number;
  b: number;
  c: number;
}

/**
 * The list of a sliding-window log, as numbers: element i is "<at>:<before>:<cost>" (followed, in
 * Redis, by a copy of the list's first element when it was added, which only the Lua reads, to
 * spare a lookup), stored as the triple (at, before, cost) at `data[3 * i]`, in Redis' order (the
 * script only appends, replaces the last one and removes from the front). Elements `head` to
 * `end - 1` are live (those before `head` were removed from the front: that moves an index; the
 * array is compacted once half of it is dead). One array of doubles per log: a call touches the
 * entry and two places of one array.
 */
interface Log {
  type: 'list';
  data: number[];
  head: number;
  end: number;
}

/**
 * A string; `packed` holds the three numbers of the 24 bytes Redis would hold when the string
 * stands for the counters of a bucket or GCRA (key format 3): `value` is then those bytes as a
 * client shows them (decoded as UTF-8, where bytes that are not UTF-8 become U+FFFD), which can
 * not be read back into the bytes.
 */
type Value = { type: 'string'; value: string; packed?: readonly [number, number, number] } | { type: 'hash'; fields: Map<string, string> } | Counters | Log;

type Entry = Value & { /** absolute ms, `Infinity` for no TTL */ expiresAt: number };

/** The Redis type each kind of entry stands for. */
const REDIS_TYPE = { string: 'string', hash: 'hash', list: 'list', fw: 'string', swc: 'hash', tb: 'string', lb: 'string', gcra: 'string' } as const;

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
const MAX = 9007199254740991;
const MAX_MS = 1_000_000_000_000;
const MAX_NOW = 4503599627370496;

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

  /**
   * The time expiry is judged by, in whole milliseconds as Redis keeps expiries: frozen for the
   * duration of one script, else the clock.
   */
  time(): number {
    return this.frozenAt ?? Math.floor(this.clock());
  }

  /** The script clock when a script is called without `now` (Redis: TIME, in whole milliseconds). */
  now(): number {
    return this.time();
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

  /**
   * The live entry of `key` as the Redis type `type` (counters become the hash or string they
   * stand for); WRONGTYPE when it holds another type.
   */
  private typed<T extends 'string' | 'hash' | 'list'>(key: string, type: T): (Entry & { type: T }) | undefined {
    let entry = this.lookup(key);
    if (entry === undefined || entry.type === type) return entry as (Entry & { type: T }) | undefined;
    if (REDIS_TYPE[entry.type] !== type) throw new MemoryReplyError(WRONGTYPE);
    entry = generic(entry as Entry & Counters);
    this.entries.set(key, entry);
    return entry as Entry & { type: T };
  }

  /** Makes room for a new key, or throws {@link StoreFullError}. */
  private room(): void {
    if (this.entries.size >= this.maxKeys) {
      if (this.time() - this.lastSweep >= Math.min(1000, this.janitorIntervalMs)) this.sweep();
      if (this.entries.size >= this.maxKeys) throw new StoreFullError(this.maxKeys);
    }
  }

  /** Adds a new key without TTL, or throws {@link StoreFullError} when there is no room. */
  private create<V extends Value>(key: string, value: V): Entry & V {
    this.room();
    const entry = { ...value, expiresAt: Infinity } as Entry & V;
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * Writes counters to `key`, as the script's HSET (or SET) would, with the TTL `ttlMs` (PEXPIRE,
   * SET ... PX), or keeping the key's TTL when `ttlMs` is undefined. `entry` is the key's live
   * entry (its own counters) or undefined for a missing key, which is created (or
   * {@link StoreFullError} when there is no room: nothing is written).
   */
  writeCounters(key: string, entry: (Entry & Counters) | undefined, type: Counters['type'], a: number, b: number, c: number, ttlMs?: number): void {
    if (entry === undefined) {
      this.room();
      entry = { type, a, b, c, expiresAt: Infinity };
      this.entries.set(key, entry);
    } else {
      entry.a = a;
      entry.b = b;
      entry.c = c;
    }
    if (ttlMs !== undefined) {
      if (ttlMs <= 0) this.entries.delete(key);
      else entry.expiresAt = this.time() + ttlMs;
    }
  }

  /** A new, empty sliding-window log at `key` (after room was made), or {@link StoreFullError}. */
  createLog(key: string): Entry & Log {
    return this.create(key, { type: 'list', data: [], head: 0, end: 0 } as Log);
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
  incrby(key: string, by: bigint): bigint {
    const entry = this.typed(key, 'string');
    const current = entry === undefined ? 0n : /^(0|-?[1-9]\d{0,19})$/.test(entry.value) ? BigInt(entry.value) : null;
    if (current === null || current > 9223372036854775807n || current < -9223372036854775808n) {
      throw new MemoryReplyError('ERR value is not an integer or out of range');
    }
    const next = current + by;
    if (next > 9223372036854775807n || next < -9223372036854775808n) {
      throw new MemoryReplyError('ERR increment or decrement would overflow');
    }
    if (entry === undefined) this.create(key, { type: 'string', value: next.toString() });
    else entry.value = next.toString();
    return next;
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
  /** HSET key f1 v1 [f2 v2 [f3 v3]], without an array per call */
  hset3(key: string, f1: string, v1: string, f2?: string, v2?: string, f3?: string, v3?: string): void {
    const entry = this.typed(key, 'hash') ?? this.create(key, { type: 'hash', fields: new Map<string, string>() });
    entry.fields.set(f1, v1);
    if (f2 !== undefined) entry.fields.set(f2, v2!);
    if (f3 !== undefined) entry.fields.set(f3, v3!);
  }
  /** HINCRBY key field by (a missing key or field counts from 0; 64-bit integers, as Redis) */
  hincrby(key: string, field: string, by: number): void {
    const entry = this.typed(key, 'hash') ?? this.create(key, { type: 'hash', fields: new Map<string, string>() });
    const value = entry.fields.get(field) ?? '0';
    if (!/^(0|-?[1-9]\d{0,19})$/.test(value) || BigInt(value) > 9223372036854775807n || BigInt(value) < -9223372036854775808n) {
      throw new MemoryReplyError('ERR hash value is not an integer');
    }
    const next = BigInt(value) + BigInt(by);
    if (next > 9223372036854775807n || next < -9223372036854775808n) throw new MemoryReplyError('ERR increment or decrement would overflow');
    entry.fields.set(field, next.toString());
  }
  /** HSET */
  hset(key: string, pairs: ReadonlyArray<readonly [string, string]>): void {
    const entry = this.typed(key, 'hash') ?? this.create(key, { type: 'hash', fields: new Map<string, string>() });
    for (const [f, v] of pairs) entry.fields.set(f, v);
  }
}

/** The string or hash Redis would hold for `entry`'s counters (its TTL kept). */
function generic(entry: Entry & Counters): Entry {
  const { expiresAt } = entry;
  if (entry.type === 'fw') return { type: 'string', value: d(entry.a), expiresAt };
  if (entry.type === 'swc') return { type: 'hash', fields: new Map([['w', d(entry.a)], ['c', d(entry.b)], ['p', d(entry.c)]]), expiresAt };
  const bytes = Buffer.allocUnsafe(24);
  bytes.writeDoubleLE(entry.a, 0);
  bytes.writeDoubleLE(entry.b, 8);
  bytes.writeDoubleLE(entry.c, 16);
  return { type: 'string', value: bytes.toString('utf8'), packed: [entry.a, entry.b, entry.c], expiresAt };
}

/** Clears the janitor timer of a store's keyspace once the keyspace is collected. */
const janitors = new FinalizationRegistry<NodeJS.Timeout>((timer) => clearInterval(timer));

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
    checkKnownOptions('createMemoryStore', options, ['maxKeys', 'janitorIntervalMs', 'clock']);
    this.maxKeys = checkInteger('maxKeys', orDefault(options.maxKeys, 10_000), 1);
    const janitorIntervalMs = checkInteger('janitorIntervalMs', orDefault(options.janitorIntervalMs, 30_000), 1, 2_147_483_647);
    if (options.clock !== undefined && typeof options.clock !== 'function') {
      throw new TypeError(`clock must be a function, got ${describe(options.clock)}`);
    }
    this.keyspace = new Keyspace(this.maxKeys, janitorIntervalMs, options.clock ?? monotonicEpochMs);
    // the janitor holds the keyspace weakly: a store dropped without close() (a limiter's default
    // fallback store, made per limiter) is collected, and its timer is cleared then
    const keyspace = new WeakRef(this.keyspace);
    const janitor: NodeJS.Timeout = setInterval(() => keyspace.deref()?.sweep(), janitorIntervalMs);
    janitor.unref();
    janitors.register(this.keyspace, janitor);
    this.janitor = janitor;
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
    keyspace.frozenAt = Math.floor(keyspace.clock());
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
const F_WCP = ['w', 'c', 'p'] as const;
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
  const by = argv[0];
  if (by === undefined || by.length > 20 || !/^(0|-?[1-9]\d*)$/.test(by)) fail('ERR redis-ttl increment: by must be an integer');
  const ttlMs = intArg(argv[1], 1, MAX, 'ERR redis-ttl increment: ttlMs must be an integer >= 1');
  const mode = argv[2];
  if (mode !== 'fixed' && mode !== 'sliding') fail("ERR redis-ttl increment: mode must be 'fixed' or 'sliding'");
  const delta = BigInt(by);
  // as INCRBY: an increment outside 64 bits is refused before anything is written
  if (delta > 9223372036854775807n || delta < -9223372036854775808n) fail('ERR value is not an integer or out of range');
  const next = r.incrby(key, delta);
  if (mode === 'sliding') r.pexpire(key, ttlMs);
  else if (r.pttl(key) === -1) r.pexpire(key, ttlMs);
  // as the Lua: an integer within +-(2^53 - 1), else the key's string
  const value = next > 9007199254740991n || next < -9007199254740991n ? next.toString() : Number(next);
  return [value, r.pttl(key)];
};

/**
 * The parameters of a limiter script (every ARGV but the last two, `cost` and `now`), checked as
 * the Lua checks them and remembered for the last values seen: a limiter sends the same ones on
 * every call. Returns the checked numbers (the same array while the values do not change).
 */
function paramCache(count: number, check: (argv: readonly string[]) => number[]): (argv: readonly string[]) => number[] {
  const seen: Array<string | undefined> = [];
  let values: number[] = [];
  return (argv) => {
    let same = seen.length === count;
    for (let i = 0; same && i < count; i += 1) same = seen[i] === argv[i];
    if (same) return values;
    values = check(argv); // throws the script's error reply: nothing remembered
    seen.length = 0;
    for (let i = 0; i < count; i += 1) seen.push(argv[i]);
    return values;
  };
}

/** `cost`, checked as the Lua checks it: absent is 1 ('1' without parsing: the common case). */
function costArg(arg: string | undefined, s: string): number {
  return arg === undefined || arg === '1' ? 1 : intArg(arg, 1, MAX, `ERR redis-ttl ${s}: cost must be an integer >= 1`);
}

/** The `now` of a limiter script: absent means the server clock (TIME; here the store's clock). */
function limiterClock(r: Keyspace, arg: string | undefined, s: string): number {
  return arg === undefined ? r.now() : intArg(arg, 0, MAX, `ERR redis-ttl ${s}: now must be an integer >= 0`);
}

/** The error reply of a limiter script on a value of the right type that it did not write. */
function foreign(s: string): never {
  fail(`ERR redis-ttl ${s}: the key holds a value this script did not write`);
}

/**
 * The live entry of `key` for a limiter whose state is a string: undefined when missing, its
 * counters when they are of `type`, else the three numbers of the 24 bytes another limiter or
 * program wrote (as counters of no entry; `null` when the string is not 24 bytes of three integers
 * in [0, 2^53), the third >= 1, GCRA's first up to 2 * (2^53 - 1), as the script's struct.unpack and checks). WRONGTYPE when the key
 * holds another Redis type, as the script's GET.
 */
function stringState(r: Keyspace, key: string, type: 'tb' | 'lb' | 'gcra'): (Entry & Counters) | Counters | undefined | null {
  const entry = r.lookup(key);
  if (entry === undefined || entry.type === type) return entry as (Entry & Counters) | undefined;
  let numbers: readonly [number, number, number];
  if (entry.type === 'tb' || entry.type === 'lb' || entry.type === 'gcra') numbers = [entry.a, entry.b, entry.c];
  else {
    if (r.get(key) === null) return undefined;
    const string = r.lookup(key) as Entry & { type: 'string'; value: string; packed?: readonly [number, number, number] };
    if (string.packed !== undefined) numbers = string.packed;
    else {
      const bytes = Buffer.from(string.value, 'utf8');
      if (bytes.length !== 24) return null;
      numbers = [bytes.readDoubleLE(0), bytes.readDoubleLE(8), bytes.readDoubleLE(16)];
    }
  }
  const [a, b, c] = numbers;
  const inRange = (x: number, max = MAX) => x === Math.floor(x) && x >= 0 && x <= max;
  // GCRA's a is now + whole ms, each below 2^53: up to 2 * MAX (as the Lua)
  if (!(inRange(a, type === 'gcra' ? 2 * MAX : MAX) && inRange(b) && inRange(c) && c >= 1)) return null;
  return { type, a, b, c };
}

/** Writes counters of `type` to `key` with `SET ... PX ttlMs`, whatever the key held. */
function setCounters(r: Keyspace, key: string, state: (Entry & Counters) | Counters | undefined | null, type: Counters['type'], a: number, b: number, c: number, ttlMs: number): void {
  if (state !== undefined && state !== null && 'expiresAt' in state) return r.writeCounters(key, state, type, a, b, c, ttlMs);
  if (state !== undefined) r.del(key); // a string another program wrote: SET replaces it
  r.writeCounters(key, undefined, type, a, b, c, ttlMs);
}

/** The live entry of `key` when it is missing (undefined) or holds counters of `type`; null for any other value. */
function ownCounters(r: Keyspace, key: string, type: Counters['type']): (Entry & Counters) | undefined | null {
  const entry = r.lookup(key);
  if (entry === undefined) return undefined;
  return entry.type === type ? entry : null;
}

const fixedWindowParams = paramCache(2, (argv) => [
  intArg(argv[0], 1, MAX, 'ERR redis-ttl fixed_window: limit must be an integer >= 1'),
  intArg(argv[1], 1, MAX, 'ERR redis-ttl fixed_window: windowMs must be an integer >= 1'),
]);

/** The fixed window's reply (as the Lua's `reply`): u and p packed in one integer, or a table past 2^53. */
function fixedWindowReply(window: number, allowed: number, u: number, p: number): unknown {
  const packed = u * (window + 1) + p;
  if (p < 0 || p > window || packed > MAX) return [allowed, int(u), int(p)];
  return allowed === 1 ? packed : -packed - 1;
}

/**
 * PTTL + 1 of a fixed window's live `entry`: the time until the next window; a key left without
 * TTL by other code gets `ttl` (PEXPIRE).
 */
function fixedWindowLeft(r: Keyspace, entry: Entry, ttl: number): number {
  const now = r.time();
  if (entry.expiresAt !== Infinity) return Math.max(0, entry.expiresAt - now) + 1;
  entry.expiresAt = now + ttl;
  return ttl + 1;
}

/** The fixed window on its key's TTL: a count, created with SET ... PX, then INCRBY (see the Lua). */
const fixedWindow: Script = (r, key, argv) => {
  const s = 'fixed_window';
  const [limit, window] = fixedWindowParams(argv) as [number, number];
  const cost = costArg(argv[2], s);
  // the TTL of a new window: a key lives through the millisecond of its expiry (at least 1 ms)
  const ttl = window > 1 ? window - 1 : 1;
  const entry = r.lookup(key);
  if (entry === undefined) {
    if (cost > limit) return fixedWindowReply(window, 0, 0, 0);
    r.writeCounters(key, undefined, 'fw', cost, 0, 0, ttl);
    return fixedWindowReply(window, 1, cost, ttl + 1);
  }
  let used: number;
  if (entry.type === 'fw') used = entry.a;
  else {
    const value = toNumber(r.get(key)); // WRONGTYPE for another type, as GET
    if (value === undefined || value !== Math.floor(value) || value < 0) foreign(s);
    used = value;
  }
  if (cost > limit || used + cost > limit) return fixedWindowReply(window, 0, used, fixedWindowLeft(r, entry, ttl));
  if (entry.type === 'fw') {
    entry.a = used + cost;
    return fixedWindowReply(window, 1, used + cost, fixedWindowLeft(r, entry, ttl));
  }
  r.incrby(key, BigInt(cost)); // INCRBY refuses what is not an integer string, as Redis
  return fixedWindowReply(window, 1, used + cost, fixedWindowLeft(r, r.lookup(key)!, ttl));
};

/** Largest limit of a sliding-window log (as in the Lua). */
const LOG_MAX_LIMIT = 1_000_000_000;
/** Most elements in the window of a sliding-window log; beyond, calls merge into the newest (as in the Lua). */
const LOG_MAX_MEMBERS = 10_000;

const slidingWindowLogParams = paramCache(2, (argv) => [
  intArg(argv[0], 1, LOG_MAX_LIMIT, 'ERR redis-ttl sliding_window_log: limit must be an integer >= 1 and <= 10^9'),
  intArg(argv[1], 1, MAX, 'ERR redis-ttl sliding_window_log: windowMs must be an integer >= 1'),
]);

/** Appends (at, before, own) to `log`, compacting its array first when more than half of it is dead. */
function logPush(log: Log, at: number, before: number, own: number): void {
  const data = log.data;
  if (log.head >= 16 && 2 * log.head > log.end) {
    data.copyWithin(0, 3 * log.head, 3 * log.end);
    log.end -= log.head;
    data.length = 3 * log.end;
    log.head = 0;
  }
  data.push(at, before, own);
  log.end += 1;
}

/**
 * The sliding-window log on its list, kept as numbers ({@link Log}): the same elements, the same
 * decisions as the Lua, which reads the list by index (LINDEX); here indexes are array positions
 * (a binary search where the Lua searches, finding the same index).
 */
const slidingWindowLog: Script = (r, key, argv) => {
  const s = 'sliding_window_log';
  const [limit, window] = slidingWindowLogParams(argv) as [number, number];
  const cost = costArg(argv[2], s);
  const now = limiterClock(r, argv[3], s);
  const entry = r.lookup(key);
  if (entry !== undefined && entry.type !== 'list') fail(WRONGTYPE);
  const log = entry as (Entry & Log) | undefined;
  const cutoff = now - window;
  // the index of the oldest element in the window (elements before it left the window)
  let first = 0;
  let used = 0;
  let base = 0;
  let total = 0;
  let newestAt: number | undefined;
  if (log !== undefined) {
    const { data, head, end } = log;
    const last = 3 * (end - 1);
    newestAt = data[last]!;
    total = data[last + 1]! + data[last + 2]!;
    if (newestAt > cutoff) {
      // the first element timed after the cutoff
      let lo = head;
      let hi = data[3 * head]! > cutoff ? head : end - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (data[3 * mid]! <= cutoff) lo = mid + 1;
        else hi = mid;
      }
      first = lo;
      base = data[3 * first + 1]!;
      used = total - base;
    }
  }
  const idleReset = used > 0 ? newestAt! + window - now : 0;
  if (cost > limit) return [int(-used - 1), -1, int(idleReset)];
  if (used + cost > limit) {
    // the last element that must leave is the newest one whose <before> is below `target`
    const { data, end } = log!;
    const target = base + used + cost - limit;
    let lo = first;
    // the oldest element in the window alone covers what is missing (a call of cost 1 at the limit)
    let hi = base + data[3 * lo + 2]! >= target ? lo : end - 1;
    while (lo < hi) {
      const mid = lo + Math.floor((hi - lo + 1) / 2);
      if (data[3 * mid + 1]! < target) lo = mid;
      else hi = mid - 1;
    }
    return [int(-used - 1), int(data[3 * lo]! + window - now), int(idleReset)];
  }
  // a clock that went back never files a call before the newest one (the order <before> relies on)
  const at = newestAt !== undefined && newestAt > now ? newestAt : now;
  if (used === 0 || total + cost > MAX) {
    // UNLINK, RPUSH, PEXPIRE: the running total starts over
    if (log !== undefined) r.entries.delete(key);
    const fresh = r.createLog(key);
    logPush(fresh, at, 0, cost);
    fresh.expiresAt = r.time() + (at + window - now);
  } else {
    // LTRIM the elements that left the window (never the newest: it is in the window)
    log!.head = first;
    if (used >= LOG_MAX_MEMBERS && log!.end - log!.head >= LOG_MAX_MEMBERS) {
      // LSET the newest: it takes the new time and this call's cost
      const last = 3 * (log!.end - 1);
      log!.data[last] = at;
      log!.data[last + 2]! += cost;
    } else {
      logPush(log!, at, total, cost);
    }
    // PEXPIRE only when the deadline moved, as in the Lua
    if (newestAt !== at) log!.expiresAt = r.time() + (at + window - now);
  }
  return at === now ? used : [used, 0, int(at + window - now)];
};

const slidingWindowCounterParams = paramCache(2, (argv) => {
  const limit = intArg(argv[0], 1, MAX, 'ERR redis-ttl sliding_window_counter: limit must be an integer >= 1');
  const window = toNumber(argv[1]);
  if (window === undefined || window !== Math.floor(window) || window < 1 || limit * window > MAX) {
    fail('ERR redis-ttl sliding_window_counter: windowMs must be an integer >= 1 and limit * windowMs < 2^53');
  }
  return [limit, window];
});

const slidingWindowCounter: Script = (r, key, argv) => {
  const s = 'sliding_window_counter';
  const [limit, window] = slidingWindowCounterParams(argv) as [number, number];
  const cost = costArg(argv[2], s);
  const now = limiterClock(r, argv[3], s);
  let start = idiv(now, window) * window;
  const own = ownCounters(r, key, 'swc');
  let state: Array<string | null> | undefined;
  let storedStart: number | undefined;
  if (own === null) {
    state = r.hmget(key, F_WCP);
    storedStart = toNumber(state[0]);
  } else if (own !== undefined) {
    storedStart = own.a;
  }
  // as the Lua: a clock that went back keeps the stored window, as at its start at the earliest
  let lag = 0;
  let curr = 0;
  let prev = 0;
  if (storedStart !== undefined) {
    if (storedStart > start) {
      start = storedStart;
      if (now < start) lag = start - now;
    }
    if (storedStart === start) {
      curr = state !== undefined ? (toNumber(state[1]) ?? 0) : own!.b;
      prev = state !== undefined ? (toNumber(state[2]) ?? 0) : own!.c;
    } else if (storedStart === start - window) {
      prev = state !== undefined ? (toNumber(state[1]) ?? 0) : own!.b;
    }
  }
  const elapsed = now + lag - start;
  let allowed = 0;
  if (cost <= limit && prev * (window - elapsed) + (curr + cost) * window <= limit * window) {
    allowed = 1;
    if (storedStart === start) {
      // HINCRBY c: the TTL (the next window's end) is kept
      if (own !== null) own!.b = curr + cost;
      else r.hincrby(key, 'c', cost);
      curr += cost;
    } else {
      curr += cost;
      if (own !== null) r.writeCounters(key, own, 'swc', start, curr, prev, start + 2 * window - now);
      else {
        r.hset3(key, 'w', d(start), 'c', d(curr), 'p', d(prev));
        r.pexpire(key, start + 2 * window - now);
      }
    }
  }
  if (lag === 0) {
    // as the Lua: an admission replies the cost still admissible and e; a denial the counts and e
    if (allowed === 1) return idiv(limit * window - prev * (window - elapsed) - curr * window, window) * window + elapsed;
    const packed = (prev * (limit + 1) + curr) * window + elapsed;
    if (curr <= limit && packed <= MAX) return -packed - 1;
  }
  return [allowed, int(prev), int(curr), int(elapsed), int(lag)];
};

/** token_bucket and leaky_bucket share their parameter checks: [capacity, num, den]. */
function bucketParams(s: string): (argv: readonly string[]) => number[] {
  return paramCache(3, (argv) => {
    const capacity = intArg(argv[0], 1, MAX, `ERR redis-ttl ${s}: capacity must be an integer >= 1`);
    const num = intArg(argv[1], 1, MAX, `ERR redis-ttl ${s}: rate numerator must be an integer >= 1`);
    const den = toNumber(argv[2]);
    if (den === undefined || den !== Math.floor(den) || den < 1 || capacity * den > MAX) {
      fail(`ERR redis-ttl ${s}: rate denominator must be an integer >= 1 and capacity * den < 2^53`);
    }
    return [capacity, num, den];
  });
}

const tokenBucketParams = bucketParams('token_bucket');

const tokenBucket: Script = (r, key, argv) => {
  const s = 'token_bucket';
  const [capacity, num, den] = tokenBucketParams(argv) as [number, number, number];
  const cost = costArg(argv[3], s);
  let now = limiterClock(r, argv[4], s);
  const full = capacity * den;
  let tokens = full;
  let lag = 0;
  const state = stringState(r, key, 'tb');
  if (state === null) foreign(s);
  if (state !== undefined) {
    const at = state.b;
    tokens = state.a;
    // as the Lua: a clock that went back is decided as at the bucket's time
    if (at > now) {
      lag = at - now;
      now = at;
    }
    if (state.c !== den) tokens = Math.floor((tokens / state.c) * den);
    if (tokens < full) {
      const refill = (now - at) * num;
      tokens = refill >= full - tokens ? full : tokens + refill;
    } else if (tokens > full) tokens = full;
  }
  const need = cost * den;
  if (cost > capacity || tokens < need) return lag > 0 ? [int(-tokens - 1), int(lag)] : -tokens - 1;
  tokens -= need;
  setCounters(r, key, state, 'tb', tokens, now, den, cdiv(full - tokens, num) + lag);
  return lag > 0 ? [int(tokens), int(lag)] : tokens;
};

const leakyBucketParams = bucketParams('leaky_bucket');

const leakyBucket: Script = (r, key, argv) => {
  const s = 'leaky_bucket';
  const [capacity, num, den] = leakyBucketParams(argv) as [number, number, number];
  const cost = costArg(argv[3], s);
  let now = limiterClock(r, argv[4], s);
  const full = capacity * den;
  let level = 0;
  let lag = 0;
  const state = stringState(r, key, 'lb');
  if (state === null) foreign(s);
  if (state !== undefined) {
    const at = state.b;
    level = state.a;
    // as the Lua: a clock that went back is decided as at the bucket's time
    if (at > now) {
      lag = at - now;
      now = at;
    }
    if (state.c !== den) level = Math.ceil((level / state.c) * den);
    if (level > full) level = full;
    if (level > 0) {
      const leaked = (now - at) * num;
      level = leaked >= level ? 0 : level - leaked;
    }
  }
  const need = cost * den;
  if (cost > capacity || level + need > full) return lag > 0 ? [int(-level - 1), int(lag)] : -level - 1;
  level += need;
  setCounters(r, key, state, 'lb', level, now, den, cdiv(level, num) + lag);
  return lag > 0 ? [int(level), int(lag)] : level;
};

const gcraParams = paramCache(3, (argv) => {
  const s = 'gcra';
  const burst = intArg(argv[0], 1, MAX, `ERR redis-ttl ${s}: burst must be an integer >= 1`);
  const per = toNumber(argv[1]);
  if (per === undefined || per !== Math.floor(per) || per < 1 || burst * per > MAX) {
    fail(`ERR redis-ttl ${s}: interval numerator must be an integer >= 1 and burst * P < 2^53`);
  }
  const units = intArg(argv[2], 1, MAX, `ERR redis-ttl ${s}: interval denominator must be an integer >= 1`);
  return [burst, per, units];
});

const gcra: Script = (r, key, argv) => {
  const s = 'gcra';
  const [burst, per, units] = gcraParams(argv) as [number, number, number];
  const cost = costArg(argv[3], s);
  const now = limiterClock(r, argv[4], s);
  const tau = burst * per;
  let outstanding = 0;
  // as the Lua: whole ms by which the TAT is further ahead than a full burst (a clock that went back)
  let over = 0;
  const state = stringState(r, key, 'gcra');
  if (state === null) foreign(s);
  if (state !== undefined && state.a >= now) {
    const { a, b: rest, c: l } = state;
    let ahead = a - now;
    const cap = idiv(tau, units) + 1;
    if (ahead > cap) {
      over = ahead - cap;
      ahead = cap;
    }
    // l >= 1 (stringState)
    outstanding = ahead * units + (l === units ? rest : cdiv(rest * units, l));
  }
  if (cost > burst || over > 0 || outstanding + cost * per > tau) return over > 0 ? [int(-outstanding - 1), int(over)] : -outstanding - 1;
  outstanding += cost * per;
  const whole = idiv(outstanding, units);
  // SET ... PX replaces whatever the key held
  setCounters(r, key, state, 'gcra', now + whole, outstanding - whole * units, units, cdiv(outstanding, units));
  return outstanding;
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
