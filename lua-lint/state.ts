/**
 * The value lattice and the per-path state of the lua-lint walk (`walk/`), in a module of
 * their own so that the walk and the guard idioms (`idioms.ts`) both read them without importing
 * each other.
 *
 * - {@link Value}: what the analysis knows about a Lua value (a literal, an ARGV element, a key, a
 *   Redis reply remembered with the key it speaks of, ...). Joins keep what both sides agree on.
 * - {@link State}: one path's state: per key what the script has done to it ({@link KeyState}),
 *   and per variable its value. Forks share their maps until one side writes (copy on write);
 *   {@link join} keeps the worst case per key.
 *
 * The key and variable maps are persistent maps of layers ({@link LayeredMap}) behind
 * {@link setKey}/{@link setVar}/{@link getKey}: a fork costs O(1) and a join the keys and variables
 * the two paths changed, so a script of n sequential branches is walked in about linear time.
 * Nothing outside this module writes them.
 */
import type * as L from 'luaparse';
import { LayeredMap, joinLayered } from './layered-map.js';
// ---------------------------------------------------------------------------------------------
// Values

/** What the analysis knows about a Lua value. */
export type Value =
  /** `origin`: the value came from a Redis reply or was decoded from ARGV (`cjson.decode`). */
  | { t: 'unknown'; node?: L.Node; origin?: 'reply' | 'decoded' }
  | { t: 'nil' }
  | { t: 'bool'; v?: boolean }
  | NumValue
  /** `alts`: the string is one of these literals (`cond and 'RPUSH' or 'LPUSH'`). */
  | {
      t: 'str';
      v?: string;
      argv?: number | '*';
      node?: L.Node;
      alts?: readonly string[];
      /** `cond and 'A'`: 'A' or a falsy value. */
      falsy?: true;
      origin?: 'reply' | 'decoded';
      zeroWhenMissing?: NumValue['zeroWhenMissing'];
    }
  | { t: 'keys'; name: string }
  | { t: 'argv'; name: string }
  | { t: 'key'; id: string }
  /**
   * A table; `fields` when the script builds it with named fields (`local M = {}; function M.f() end`),
   * `items` its positional values in order (`{KEYS[1], 'NX'}`, then `table.insert`), `unlisted`
   * when they cannot be listed (`{unpack(ARGV)}`).
   */
  | { t: 'table'; fields?: Map<string, Value>; items?: Value[]; unlisted?: true }
  /** The values of a table's fields taken one at a time (`for name, fn in pairs(M)`). */
  | { t: 'each'; values: Value[] }
  | { t: 'builtin'; name: string }
  | { t: 'fn'; node: L.FunctionDeclaration; scope: Scope; name: string }
  | { t: 'errorReply' }
  /** What this path knows of one ARGV element (or its tonumber()): equal to a literal, or not equal to some. */
  | { t: 'argvFacts'; equals?: string; not: readonly string[] }
  /** What this path's guards proved about the value a variable holds (see {@link VarFacts}). */
  | VarFacts
  /** This path tested an ARGV element as "no TTL" (0, empty, nil): see {@link ttlAbsentId}. */
  | { t: 'ttlAbsent' }
  | { t: 'spread'; of?: Value; items?: Value[] }
  | Reply;

/**
 * A number. Besides its literal value (`v`), what is known about where it came from: an ARGV
 * element (assumed a valid positive integer, see docs/ttl-semantics.md), a loop index over KEYS,
 * or an arithmetic that may give a TTL Redis treats specially: `mayBeNonPositive` (a subtraction,
 * `math.floor`, a TTL reply: an expiry <= 0 deletes the key), `mayBeFractional` (a division:
 * EXPIRE rejects it). `zeroWhenMissing`: the number is 0 when the key of that reply was missing
 * (`tonumber(GET k) or 0`, a sum over an empty HGETALL), so any other value proves it existed.
 */
export interface NumValue {
  t: 'num';
  v?: number;
  argv?: number;
  nilable?: boolean;
  keyIndex?: { table: string; from: number };
  /** `tonumber(ARGV[n]) or 0`: the caller's ARGV[n], with a default when it is missing. */
  fromArgv?: number;
  mayBeNonPositive?: true;
  mayBeFractional?: true;
  /**
   * A time read from the server clock (`TIME`): `now-s` = TIME[1] (whole seconds, up to 1 s in the
   * past), `now-ms-floor` = TIME[1] * 1000, `now-ms` = with TIME[2]'s milliseconds added, `us` =
   * TIME[2]; `future` = one of them plus a positive span that makes it later than now for sure.
   */
  clock?: 'now-s' | 'now-ms-floor' | 'now-ms' | 'us' | 'future';
  zeroWhenMissing?: { keyId: string; version: number; pending: readonly number[] };
}

/**
 * The reply of a Redis command, remembered so that guards on it can be understood. Every reply has
 * every field, in the order {@link newReply} writes them (see {@link KeyState} for why).
 */
export interface Reply {
  t: 'reply';
  command: string;
  /** The key the command worked on (its first key). */
  keyId: string | undefined;
  /** The key's version when the reply was produced (a later write invalidates guards on it). */
  version: number;
  /** The key's pending write sites when the reply was produced. */
  pending: readonly number[] | undefined;
  /** The write site the command created, when it was a write. */
  site: number | undefined;
  /** What the command answers when it has just created the key (see `replyWhenCreated`). */
  whenCreated: { exact: Value } | { range: [number, number] } | undefined;
  /** SET ... NX, LMOVE/RPOPLPUSH: the reply is falsy when the command wrote nothing. */
  createsOnTruthy: boolean | undefined;
  /** LMOVE/RPOPLPUSH: the source key and its version (the reply is falsy exactly when it was missing). */
  sourceKeyId: string | undefined;
  sourceVersion: number | undefined;
  /** The reply went through tonumber(): a non-numeric string reads as nil too. */
  numeric: boolean | undefined;
  /** `#reply` of a whole hash or set: the key's size, 0 when it is missing. */
  sizeOfReply: boolean | undefined;
  /** The Lua type of the reply, when the command always answers with one type. */
  luaType: 'number' | 'string' | 'table' | undefined;
  /** The write surely created the key (it was missing before). */
  surelyCreated: boolean | undefined;
  /** MGET: for each key, its id, version and pending sites when the reply was produced. */
  elements: ReadonlyArray<{ keyId: string; version: number; pending: readonly number[] }> | undefined;
  /** A status reply (`OK`, a Lua table): always truthy. */
  status: boolean | undefined;
  /** A size read right after a creating write: the size the key has when that write created it. */
  sizeWhenCreated: [number, number] | undefined;
  /**
   * The integers an integer reply can be (SADD of one member: [0, 1]; LPUSH of one element onto a
   * list that exists: [2, MAX]), from the command's documented reply and the key's state, or from
   * what the path's guards proved about the variable holding it.
   */
  range: readonly [number, number] | undefined;
  /**
   * Truth tests of the reply prove these facts about its key on their two edges, beyond what the
   * command's class says (`SET ... NX PX`: truthy = created with that TTL, falsy = it existed;
   * `SET ... XX`: truthy = it existed, falsy = it was missing).
   */
  whenTruthy: 'has-ttl' | 'exists' | undefined;
  whenFalsy: 'exists' | 'missing' | undefined;
  /** `#reply` of a range read (ZRANGE, LRANGE, ...): a positive count proves the key exists, 0 proves nothing. */
  nonEmptyExists: boolean | undefined;
  pcall: boolean;
}

/**
 * `reply` with the fields `changes` names: `{ ...reply, ...changes }` as one literal (see
 * {@link KeyState} for why).
 */
export function withReply(reply: Reply, changes: Partial<Reply>): Reply {
  return {
    t: 'reply',
    command: 'command' in changes ? changes.command! : reply.command,
    keyId: 'keyId' in changes ? changes.keyId : reply.keyId,
    version: 'version' in changes ? changes.version! : reply.version,
    pending: 'pending' in changes ? changes.pending : reply.pending,
    site: 'site' in changes ? changes.site : reply.site,
    whenCreated: 'whenCreated' in changes ? changes.whenCreated : reply.whenCreated,
    createsOnTruthy: 'createsOnTruthy' in changes ? changes.createsOnTruthy : reply.createsOnTruthy,
    sourceKeyId: 'sourceKeyId' in changes ? changes.sourceKeyId : reply.sourceKeyId,
    sourceVersion: 'sourceVersion' in changes ? changes.sourceVersion : reply.sourceVersion,
    numeric: 'numeric' in changes ? changes.numeric : reply.numeric,
    sizeOfReply: 'sizeOfReply' in changes ? changes.sizeOfReply : reply.sizeOfReply,
    luaType: 'luaType' in changes ? changes.luaType : reply.luaType,
    surelyCreated: 'surelyCreated' in changes ? changes.surelyCreated : reply.surelyCreated,
    elements: 'elements' in changes ? changes.elements : reply.elements,
    status: 'status' in changes ? changes.status : reply.status,
    sizeWhenCreated: 'sizeWhenCreated' in changes ? changes.sizeWhenCreated : reply.sizeWhenCreated,
    range: 'range' in changes ? changes.range : reply.range,
    whenTruthy: 'whenTruthy' in changes ? changes.whenTruthy : reply.whenTruthy,
    whenFalsy: 'whenFalsy' in changes ? changes.whenFalsy : reply.whenFalsy,
    nonEmptyExists: 'nonEmptyExists' in changes ? changes.nonEmptyExists : reply.nonEmptyExists,
    pcall: 'pcall' in changes ? changes.pcall! : reply.pcall,
  };
}

/** A reply with nothing known besides its command, version and `pcall` (see {@link Reply}). */
export function newReply(command: string, version: number, pcall: boolean): Reply {
  return {
    t: 'reply',
    command,
    keyId: undefined,
    version,
    pending: undefined,
    site: undefined,
    whenCreated: undefined,
    createsOnTruthy: undefined,
    sourceKeyId: undefined,
    sourceVersion: undefined,
    numeric: undefined,
    sizeOfReply: undefined,
    luaType: undefined,
    surelyCreated: undefined,
    elements: undefined,
    status: undefined,
    sizeWhenCreated: undefined,
    range: undefined,
    whenTruthy: undefined,
    whenFalsy: undefined,
    nonEmptyExists: undefined,
    pcall,
  };
}

/**
 * What the guards of a path proved about the value one variable holds since it was last assigned
 * (`if got == 0`, `if idx < 0 then ... end`): equal to a literal, unequal to some, and numeric
 * bounds (`lo` / `hi`, exclusive when `loOpen` / `hiOpen`). Kept under the id {@link varFactsId}
 * of the variable; an assignment of the variable forgets them.
 */
export interface VarFacts {
  t: 'varFacts';
  equals: string | undefined;
  not: readonly string[];
  lo: number | undefined;
  loOpen: boolean;
  hi: number | undefined;
  hiOpen: boolean;
}

const VAR_FACTS_BASE = -4_000_000;

/** The variable id under which a path keeps the {@link VarFacts} of variable `id` (ids are positive). */
export function varFactsId(id: number): number {
  return VAR_FACTS_BASE - id;
}

/** No fact yet. */
export const NO_VAR_FACTS: VarFacts = { t: 'varFacts', equals: undefined, not: [], lo: undefined, loOpen: false, hi: undefined, hiOpen: false };

export const UNKNOWN: Value = { t: 'unknown' };
/** The fact that a path tested an ARGV element as "no TTL". */
const TTL_ABSENT: Value = { t: 'ttlAbsent' };

const TTL_ABSENT_BASE = -3_000_000;

/**
 * The variable id under which a path remembers that it tested ARGV[n] (or its tonumber()) as "no
 * TTL" (`ttl > 0` false, `ttl == 0`, `not ttl`, `ARGV[n] == ''`). A join keeps the fact only when
 * both paths have it.
 */
function ttlAbsentId(argv: number): number {
  return TTL_ABSENT_BASE - argv;
}

/** The ARGV indices this path tested as "no TTL" (see {@link ttlAbsentId}). */
function ttlAbsentArgs(st: State): readonly number[] {
  let out: number[] | undefined;
  for (const [id, value] of st.vars) {
    if (value.t === 'ttlAbsent' && id < TTL_ABSENT_BASE && id > TTL_ABSENT_BASE - 1_000_000) (out ??= []).push(TTL_ABSENT_BASE - id);
  }
  return out ?? NONE;
}

const NONE: readonly number[] = [];

/**
 * This path tested ARGV[argv] as "no TTL": remembered for the writes to come (a variable fact) and
 * for every write already pending on the path ({@link KeyState.noTtl}).
 */
export function markNoTtl(st: State, argv: number): void {
  setVar(st, ttlAbsentId(argv), TTL_ABSENT);
  for (const [id, key] of st.keys) {
    if (key.pending.every((site) => site < 0 || key.noTtl?.get(site)?.includes(argv))) continue;
    const noTtl = new Map(key.noTtl);
    for (const site of key.pending) if (site >= 0) noTtl.set(site, union(noTtl.get(site) ?? NONE, [argv]));
    setKey(st, id, withKey(key, { noTtl }));
  }
}

/** A write site that became pending on this path: what the path tested as "no TTL" so far. */
export function noteNoTtl(st: State, key: KeyState, site: number): KeyState {
  const absent = ttlAbsentArgs(st);
  if (absent.length === 0) return key;
  return withKey(key, { noTtl: new Map(key.noTtl).set(site, union(key.noTtl?.get(site) ?? NONE, absent)) });
}
export const NIL: Value = { t: 'nil' };

/** A lexical scope: names to variable ids. */
export interface Scope {
  parent?: Scope;
  /** Made by the first declaration (most blocks declare nothing). */
  names: Map<string, number> | undefined;
}

// ---------------------------------------------------------------------------------------------
// State

export type Existence = 'yes' | 'no' | 'maybe';

/**
 * What this path did to one key. Every key state has every field (`undefined` for "none"), written
 * by one object literal ({@link newKeyState}, {@link withKey}): all key states share one hidden
 * class, so that the walk's reads stay monomorphic. They are never copied with `{ ...key }`: V8
 * gives the copy of a copy a hidden class of its own, so a chain of copies turns the copy site
 * megamorphic, and a megamorphic spread runs in the runtime (1.2-1.6 us against 20-35 ns for the
 * literal in a micro-benchmark; a third of the walk's time on a script of SET ... EX calls).
 */
export interface KeyState {
  /** Write sites that may have left this key without TTL on the current path. */
  pending: readonly number[];
  exists: Existence;
  /** Changes on every write that changes this state; guards on older replies are re-checked. */
  version: number;
  /** The version of the last delete (or rename onto this key): older existence facts are void. */
  lastDelete: number;
  /** If the key exists, it has a TTL (set by this script on every path). */
  ttl: true | undefined;
  /** The last write created the key on some path: its site and the key's size (elements) then. */
  created: Created | undefined;
  /**
   * Per pending write site, the ARGV indices that every path on which the site is pending tested
   * as "no TTL" (ARGV is constant, so a test anywhere on a path holds for all of it).
   */
  noTtl: ReadonlyMap<number, readonly number[]> | undefined;
  /**
   * Hash writes among `pending`: the fields each wrote without a field TTL (`null`: fields the
   * analysis cannot name). A field TTL given later to every one of them (HEXPIRE, HSETEX ... EX)
   * takes the site out of `pending`: a hash whose every field expires is deleted with its last
   * field (docs/ttl-semantics.md, "Hash-field expiration").
   */
  fieldSites: ReadonlyArray<{ site: number; fields: readonly string[] | null }> | undefined;
  /**
   * The key may exist only through this script's field writes that all expire (HSETEX ... EX on a
   * missing key, or every field of a created hash given a TTL): it empties itself, but a field
   * written later without TTL makes it a key that never goes away.
   */
  fieldsExpire: true | undefined;
  /**
   * If the key exists, it has no TTL, on every path: a write of this script left it so (SET, a
   * creation, PERSIST), or a guard proved it (TTL answered -1). A later write that neither creates
   * it nor clears a TTL it does not have leaves it as it was; an EXPIRE ... XX cannot delete it.
   */
  withoutTtl: true | undefined;
}

/** A key state with nothing but these four facts (see {@link KeyState} for why every field is written). */
export function newKeyState(pending: readonly number[], exists: Existence, version: number, lastDelete: number): KeyState {
  return { pending, exists, version, lastDelete, ttl: undefined, created: undefined, noTtl: undefined, fieldSites: undefined, fieldsExpire: undefined, withoutTtl: undefined };
}

/**
 * `key` with the fields `changes` names (a field named with `undefined` is cleared): what
 * `{ ...key, ...changes }` means, written as one literal (see {@link KeyState}).
 */
export function withKey(key: KeyState, changes: Partial<KeyState>): KeyState {
  return {
    pending: 'pending' in changes ? changes.pending! : key.pending,
    exists: 'exists' in changes ? changes.exists! : key.exists,
    version: 'version' in changes ? changes.version! : key.version,
    lastDelete: 'lastDelete' in changes ? changes.lastDelete! : key.lastDelete,
    ttl: 'ttl' in changes ? changes.ttl : key.ttl,
    created: 'created' in changes ? changes.created : key.created,
    noTtl: 'noTtl' in changes ? changes.noTtl : key.noTtl,
    fieldSites: 'fieldSites' in changes ? changes.fieldSites : key.fieldSites,
    fieldsExpire: 'fieldsExpire' in changes ? changes.fieldsExpire : key.fieldsExpire,
    withoutTtl: 'withoutTtl' in changes ? changes.withoutTtl : key.withoutTtl,
  };
}

/** What the write that may have created a key left in it: its site, the key's size (elements) and literal members then. */
export interface Created {
  site: number;
  size: [number, number];
  members: readonly string[] | undefined;
  scores: readonly number[] | undefined;
  version: number;
}

/** {@link Created} for a write at `site` that left `shape`, as of the key's `version`. */
export function createdAt(site: number, shape: { size: [number, number]; members?: readonly string[] | undefined; scores?: readonly number[] | undefined }, version: number): Created {
  return { site, size: shape.size, members: shape.members, scores: shape.scores, version };
}

const FRESH_KEY: KeyState = newKeyState([], 'maybe', 0, 0);

/**
 * One path's state. Mutable; forks share their maps until one of them writes (copy on write:
 * `ownKeys`/`ownVars` say whether this state may write its map in place).
 */
export interface State {
  keys: LayeredMap<string, KeyState>;
  vars: LayeredMap<number, Value>;
  dead: boolean;
  ownKeys: boolean;
  ownVars: boolean;
}

/** A path's variables are integer ids: their map keeps its layers in arrays (see `ArrayLayer`). */
export function newState(vars: LayeredMap<number, Value> = LayeredMap.empty(true), ownVars = true): State {
  return { keys: LayeredMap.empty(), vars, dead: false, ownKeys: true, ownVars };
}

export function clone(st: State): State {
  st.ownKeys = false;
  st.ownVars = false;
  return { keys: st.keys, vars: st.vars, dead: st.dead, ownKeys: false, ownVars: false };
}

/**
 * A fork of `st` that leaves `st` the owner of its maps: only for a path that nothing keeps once it
 * ends (read by an exit, refined, then dropped), while `st` goes on writing in place, and only when
 * a write to the snapshot copies the maps (`copiesOnFork`) rather than building a layer over them.
 */
export function snapshot(st: State): State {
  return { keys: st.keys, vars: st.vars, dead: st.dead, ownKeys: false, ownVars: false };
}

function deadState(): State {
  return { keys: LayeredMap.empty(), vars: LayeredMap.empty(true), dead: true, ownKeys: true, ownVars: true };
}

export function setKey(st: State, id: string, key: KeyState): void {
  if (!st.ownKeys) {
    st.keys = st.keys.fork();
    st.ownKeys = true;
  }
  st.keys.set(id, key);
}

/**
 * The state of key `id` on this path. A key of a KEYS-like table without a state of its own takes
 * the table's universal state (`KEYS[#]`: what a completed loop over every key, or
 * `DEL unpack(KEYS)`, established for each of them).
 */
export function getKey(st: State, id: string): KeyState {
  const own = st.keys.get(id);
  if (own) return own;
  let universal = UNIVERSAL_IDS.get(id);
  if (universal === undefined) {
    const bracket = id.indexOf('[');
    universal = bracket > 0 && id.endsWith(']') ? `${id.slice(0, bracket)}[#]` : '';
    if (UNIVERSAL_IDS.size > 10_000) UNIVERSAL_IDS.clear();
    UNIVERSAL_IDS.set(id, universal);
  }
  return (universal !== '' && st.keys.get(universal)) || FRESH_KEY;
}

/** Key id -> the id of its table's universal state ('' when it has none); ids recur, the strings are built once. */
const UNIVERSAL_IDS = new Map<string, string>();

/** The id of the universal state of a KEYS-like table (see {@link getKey}). */
export function universalId(table: string): string {
  return `${table}[#]`;
}

export function setVar(st: State, id: number, value: Value): void {
  if (!st.ownVars) {
    st.vars = st.vars.fork();
    st.ownVars = true;
  }
  st.vars.set(id, value);
}

/** Forgets variable `id` on this path (a local out of scope). */
export function deleteVar(st: State, id: number): void {
  if (!st.vars.has(id)) return;
  if (!st.ownVars) {
    st.vars = st.vars.fork();
    st.ownVars = true;
  }
  st.vars.delete(id);
}

/**
 * Makes `st` continue as `from` (after a join or a call); `from` is not used any more. The maps
 * `from` owned (a join's fresh maps) are `st`'s to write in place now.
 */
export function adopt(st: State, from: State): void {
  const ownKeys = from.ownKeys;
  const ownVars = from.ownVars;
  from.ownKeys = false;
  from.ownVars = false;
  st.keys = from.keys;
  st.vars = from.vars;
  st.dead = from.dead;
  st.ownKeys = ownKeys;
  st.ownVars = ownVars;
}


// ---------------------------------------------------------------------------------------------
// Joins


export function joinNullable(a: State | null, b: State | null): State | null {
  if (!a || a.dead) return b;
  if (!b || b.dead) return a;
  return join(a, b);
}

export function joinAll(states: State[]): State {
  const alive = states.filter((s) => !s.dead);
  if (alive.length === 0) return deadState();
  return alive.reduce((a, b) => join(a, b));
}

/**
 * The worst case of two paths, per key and variable. The result owns the maps the join made (a
 * new top layer over what the paths shared), so that the path after it writes them in place; a map
 * both paths still had is shared.
 */
export function join(a: State, b: State): State {
  if (a.dead) return b;
  if (b.dead) return a;
  a.ownKeys = a.ownVars = b.ownKeys = b.ownVars = false;
  const keys = joinLayered(a.keys, b.keys, FRESH_KEY, joinKeys);
  const vars = joinLayered(a.vars, b.vars, NIL, (x, y) => joinZeroDefault(x, a, y, b) ?? joinValues(x, y));
  return { keys, vars, dead: false, ownKeys: isFresh(keys, a.keys, b.keys), ownVars: isFresh(vars, a.vars, b.vars) };
}

/** Whether a join made `joined` (and no path holds it): not one of the two inputs nor the merged layers they settled on. */
function isFresh<K, V>(joined: LayeredMap<K, V>, a: LayeredMap<K, V>, b: LayeredMap<K, V>): boolean {
  return joined !== a && joined !== b && joined !== a.settled() && joined !== b.settled();
}

/**
 * `local n = tonumber(GET k); if n == nil then n = 0 end` (or `if not n then n = 0 end`): where the
 * path kept the reply, the key is known to exist; where it set 0, it may not. After the join the
 * number is 0 when the key was missing, and any other value proves it existed.
 */
function joinZeroDefault(x: Value, a: State, y: Value, b: State): Value | undefined {
  const pick = (reply: Value, withReply: State, zero: Value): Value | undefined => {
    if (reply.t !== 'reply' || !reply.numeric || reply.keyId === undefined || zero.t !== 'num' || zero.v !== 0) return undefined;
    const key = withReply.keys.get(reply.keyId);
    if (!key || key.exists !== 'yes' || key.version !== reply.version) return undefined;
    return { t: 'num', zeroWhenMissing: { keyId: reply.keyId, version: reply.version, pending: reply.pending ?? [] } };
  };
  return pick(x, a, y) ?? pick(y, b, x);
}

/** The worst case of one key's state on two paths (see {@link join}). */
export function joinKeys(x: KeyState, y: KeyState): KeyState {
  const out = newKeyState(
    union(x.pending, y.pending),
    x.exists === y.exists ? x.exists : 'maybe',
    x.version === y.version ? x.version : Math.max(x.version, y.version),
    Math.max(x.lastDelete, y.lastDelete),
  );
  if (x.ttl && y.ttl) out.ttl = true;
  // "if it exists, it has no TTL" holds after the join when it holds on each path (a missing key included)
  if ((x.withoutTtl || x.exists === 'no') && (y.withoutTtl || y.exists === 'no') && (x.withoutTtl || y.withoutTtl)) out.withoutTtl = true;
  if (x.fieldsExpire || y.fieldsExpire) out.fieldsExpire = true;
  const fieldSites = joinFieldSites(x.fieldSites, y.fieldSites);
  if (fieldSites) out.fieldSites = fieldSites;
  // The size a write gives the key it creates stays known where the other path did not run it.
  const created = x.created === y.created ? x.created : !y.created && x.created && !y.pending.includes(x.created.site) ? x.created : !x.created && y.created && !x.pending.includes(y.created.site) ? y.created : undefined;
  if (created) out.created = created;
  if (x.noTtl || y.noTtl) {
    // a site pending on both paths: what both tested; on one path: what that one tested
    const noTtl = new Map<number, readonly number[]>();
    for (const site of out.pending) {
      const inX = x.pending.includes(site);
      const inY = y.pending.includes(site);
      const a = x.noTtl?.get(site) ?? NONE;
      const b = y.noTtl?.get(site) ?? NONE;
      const both = inX && inY ? a.filter((n) => b.includes(n)) : inX ? a : b;
      if (both.length > 0) noTtl.set(site, both);
    }
    if (noTtl.size > 0) out.noTtl = noTtl;
  }
  return out;
}

/** Per site, the fields either path left without TTL (`null` wins: unknown fields). */
function joinFieldSites(a: KeyState['fieldSites'], b: KeyState['fieldSites']): KeyState['fieldSites'] {
  if (!a || a.length === 0) return b && b.length > 0 ? b : undefined;
  if (!b || b.length === 0 || a === b) return a;
  const out = new Map<number, readonly string[] | null>();
  for (const { site, fields } of [...a, ...b]) {
    const seen = out.get(site);
    if (seen === undefined) out.set(site, fields);
    else out.set(site, seen === null || fields === null ? null : [...new Set([...seen, ...fields])]);
  }
  return [...out].map(([site, fields]) => ({ site, fields }));
}

function joinValues(x: Value, y: Value): Value {
  if (sameValue(x, y)) return x;
  if (x.t === 'varFacts' && y.t === 'varFacts') return joinVarFacts(x, y);
  if (x.t === 'num' && y.t === 'num') {
    const out: NumValue = { t: 'num' };
    if (x.mayBeNonPositive || y.mayBeNonPositive || (x.v !== undefined && x.v <= 0) || (y.v !== undefined && y.v <= 0)) out.mayBeNonPositive = true;
    if (x.mayBeFractional || y.mayBeFractional) out.mayBeFractional = true;
    // 0 on one side and "0 when the key was missing" on the other: still 0 only when it was missing... unless
    // the literal 0 side is itself the missing case, which only the walk knows; keep it when both agree.
    const zx = x.zeroWhenMissing;
    const zy = y.zeroWhenMissing;
    if (zx && zy && zx.keyId === zy.keyId && zx.version === zy.version) out.zeroWhenMissing = zx;
    return out.mayBeNonPositive || out.mayBeFractional || out.zeroWhenMissing ? out : NUMBER;
  }
  // A key built in the script on both branches is still a key built in the script.
  if (x.t === 'str' && y.t === 'str' && x.v === undefined && y.v === undefined && x.argv === undefined && y.argv === undefined) return { t: 'str' };
  if (x.t === 'str' && y.t === 'str') {
    const alts = [...(x.alts ?? (x.v !== undefined ? [x.v] : [])), ...(y.alts ?? (y.v !== undefined ? [y.v] : []))];
    if (alts.length > 0 && (x.v !== undefined || x.alts) && (y.v !== undefined || y.alts)) return { t: 'str', alts: [...new Set(alts)] };
    return { t: 'str' };
  }
  if (x.t === 'unknown' && y.t === 'unknown' && x.origin && x.origin === y.origin) return { t: 'unknown', origin: x.origin };
  return UNKNOWN;
}

/** What two paths both proved of a variable: the hull of their bounds, the literals both exclude. */
function joinVarFacts(x: VarFacts, y: VarFacts): VarFacts {
  const lo = x.lo === undefined || y.lo === undefined ? undefined : Math.min(x.lo, y.lo);
  const hi = x.hi === undefined || y.hi === undefined ? undefined : Math.max(x.hi, y.hi);
  return {
    t: 'varFacts',
    equals: x.equals === y.equals ? x.equals : undefined,
    not: x.not.filter((n) => y.not.includes(n)),
    lo,
    loOpen: lo !== undefined && (x.lo !== lo || x.loOpen) && (y.lo !== lo || y.loOpen),
    hi,
    hiOpen: hi !== undefined && (x.hi !== hi || x.hiOpen) && (y.hi !== hi || y.hiOpen),
  };
}

export const NUMBER: Value = { t: 'num' };

export function union(a: readonly number[], b: readonly number[]): readonly number[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = [...a];
  for (const x of b) if (!out.includes(x)) out.push(x);
  return out;
}

export function sameValue(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'unknown':
      return a.node === (b as typeof a).node && a.origin === (b as typeof a).origin;
    case 'nil':
    case 'table':
    case 'errorReply':
    case 'ttlAbsent':
      return true;
    case 'argvFacts': {
      const y = b as typeof a;
      return a.equals === y.equals && a.not.join('\0') === y.not.join('\0');
    }
    case 'varFacts': {
      const y = b as VarFacts;
      return a.equals === y.equals && a.lo === y.lo && a.loOpen === y.loOpen && a.hi === y.hi && a.hiOpen === y.hiOpen && a.not.join('\0') === y.not.join('\0');
    }
    case 'bool':
      return a.v === (b as typeof a).v;
    case 'num': {
      const y = b as typeof a;
      return (
        a.v === y.v &&
        a.argv === y.argv &&
        a.fromArgv === y.fromArgv &&
        a.mayBeNonPositive === y.mayBeNonPositive &&
        a.mayBeFractional === y.mayBeFractional &&
        a.clock === y.clock &&
        a.zeroWhenMissing === y.zeroWhenMissing
      );
    }
    case 'str': {
      const y = b as typeof a;
      return a.v === y.v && a.argv === y.argv && a.node === y.node && a.origin === y.origin && (a.alts ?? []).join('\0') === (y.alts ?? []).join('\0');
    }
    case 'keys':
    case 'argv':
      return a.name === (b as typeof a).name;
    case 'key':
      return a.id === (b as typeof a).id;
    case 'builtin':
      return a.name === (b as typeof a).name;
    case 'fn':
      return a.node === (b as typeof a).node;
    case 'reply': {
      const r = b as Reply;
      return a.command === r.command && a.keyId === r.keyId && a.site === r.site && a.version === r.version;
    }
    default:
      return false;
  }
}

function fieldSitesText(k: KeyState): string {
  return (k.fieldSites ?? []).map((f) => `${f.site}:${f.fields === null ? '?' : [...f.fields].sort().join(',')}`).sort().join(';');
}

export function equalStates(a: State, b: State): boolean {
  if (a.dead !== b.dead) return false;
  if (a.keys === b.keys && a.vars === b.vars) return true;
  if (a.keys.size !== b.keys.size || a.vars.size !== b.vars.size) return false;
  for (const [id, x] of a.keys) {
    const y = b.keys.get(id);
    if (!y || x.exists !== y.exists || x.ttl !== y.ttl || x.withoutTtl !== y.withoutTtl || x.pending.length !== y.pending.length || x.pending.some((s) => !y.pending.includes(s))) return false;
    if (x.fieldsExpire !== y.fieldsExpire || (x.fieldSites !== y.fieldSites && fieldSitesText(x) !== fieldSitesText(y))) return false;
  }
  for (const [id, x] of a.vars) {
    const y = b.vars.get(id);
    if (!y || !sameValue(x, y)) return false;
  }
  return true;
}
