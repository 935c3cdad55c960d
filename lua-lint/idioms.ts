/**
 * What a guard on a command's reply proves about a key: the idioms of
 * `../shared/design/ttl-semantics.md` ("just created", "has no TTL", "exists").
 *
 * Redis facts used here (https://redis.io/docs/latest/develop/interact/programmability/lua-api/,
 * https://redis.io/docs/latest/commands/ttl/, https://redis.io/docs/latest/commands/incr/):
 * integer replies become Lua numbers, a nil bulk reply becomes `false` (never `nil`), TTL and PTTL
 * answer -2 for a missing key and -1 for a key without TTL, INCR/INCRBY answer the increment exactly
 * when they created the key, SETNX/HSETNX answer 1 when they wrote, `SET ... NX` answers a truthy
 * status when it wrote, and `0` is truthy in Lua.
 */
import type { Reply, Value } from './state.js';

/** What one edge of a guard proves about the key. */
export type KeyFact =
  | 'exists'
  | 'missing'
  | 'has-ttl'
  | 'has-ttl-or-missing'
  /** The key exists and has no TTL (TTL / PTTL answered -1). */
  | 'no-ttl'
  /** The key is missing or has no TTL (TTL / PTTL answered < 0). */
  | 'no-ttl-or-missing'
  /** The write at `site` did not create the key (it existed, so the write kept its TTL). */
  | 'not-created-by-site'
  /**
   * If the write at `site` ran on this path, it did not create the key (a size read after a
   * branch: the write may not have run, so nothing is known about existence).
   */
  | 'site-did-not-create'
  /** This edge can never be taken. */
  | 'impossible';

/**
 * The facts a condition proves on its true and false edges. Every one has every field, in the order
 * {@link newFacts} writes them (one hidden class: see `KeyState` in state.ts).
 */
export interface KeyFacts {
  keyId: string | undefined;
  /** The key's version when the reply was taken; facts are void once the key was written again. */
  version: number | undefined;
  /** The key's pending write sites when the reply was taken. */
  pending: readonly number[] | undefined;
  site: number | undefined;
  /** The condition is always true / always false. */
  always: boolean | undefined;
  /** The write at `site` surely created the key (it was missing): it cannot have found it there. */
  surelyCreated: boolean | undefined;
  /** Facts about a second key (LMOVE's reply speaks of its source and of its destination). */
  and: KeyFacts | undefined;
  /**
   * Evaluating the condition raises when the key is missing (`tonumber(GET k) > n` compares nil
   * with a number): the missing case leaves the script, and both edges know the key exists.
   */
  raisesWhenMissing: boolean | undefined;
  whenTrue: KeyFact | undefined;
  whenFalse: KeyFact | undefined;
}

/** Facts about the key `keyId` as of `version` (see {@link KeyFacts}). */
function newFacts(keyId: string | undefined, version: number | undefined, pending: readonly number[] | undefined, whenTrue?: KeyFact, whenFalse?: KeyFact): KeyFacts {
  return { keyId, version, pending, site: undefined, always: undefined, surelyCreated: undefined, and: undefined, raisesWhenMissing: undefined, whenTrue, whenFalse };
}

function alwaysFacts(always: boolean): KeyFacts {
  const facts = newFacts(undefined, undefined, undefined);
  facts.always = always;
  return facts;
}

/** A condition that is always true / always false. */
const ALWAYS_TRUE = alwaysFacts(true);
const ALWAYS_FALSE = alwaysFacts(false);

/** Commands whose reply is always an integer (a Lua number). */
const INTEGER_REPLIES = new Set([
  'INCR', 'INCRBY', 'DECR', 'DECRBY', 'HINCRBY', 'EXISTS', 'TTL', 'PTTL', 'EXPIRETIME', 'PEXPIRETIME', 'SETNX', 'MSETNX',
  'HSETNX', 'SADD', 'SREM', 'SCARD', 'VCARD', 'VADD', 'VREM', 'SISMEMBER', 'ZCARD', 'ZCOUNT', 'ZLEXCOUNT', 'ZREM', 'ZREMRANGEBYSCORE',
  'ZREMRANGEBYRANK', 'ZREMRANGEBYLEX', 'LPUSH', 'RPUSH', 'LPUSHX', 'RPUSHX', 'LLEN', 'LREM', 'LINSERT', 'HLEN', 'HSET',
  'HDEL', 'HEXISTS', 'HSTRLEN', 'DEL', 'UNLINK', 'EXPIRE', 'PEXPIRE', 'EXPIREAT', 'PEXPIREAT', 'PERSIST', 'XLEN', 'XDEL',
  'XACK', 'XTRIM', 'STRLEN', 'APPEND', 'SETRANGE', 'SETBIT', 'GETBIT', 'BITCOUNT', 'BITPOS', 'BITOP', 'PFADD', 'PFCOUNT',
  'TOUCH', 'DBSIZE', 'SUNIONSTORE', 'SINTERSTORE', 'SDIFFSTORE', 'ZUNIONSTORE', 'ZINTERSTORE', 'ZDIFFSTORE', 'RENAMENX',
  'SMOVE', 'COPY', 'ZADD', 'LPUSHX', 'RPUSHX', 'HSTRLEN', 'SINTERCARD', 'ZINTERCARD', 'LINSERT', 'GEOADD',
  'HINCRBY', 'XACK',
]);

/** Reads whose reply is the key's size (elements; 0 when it is missing). */
export const SIZE_READS: ReadonlySet<string> = new Set(['HLEN', 'SCARD', 'ZCARD', 'LLEN', 'XLEN', 'VCARD', 'HGETALL', 'HKEYS', 'HVALS', 'SMEMBERS']);

/**
 * The size (elements) a key has right after a command created it, and its members when they are
 * literals: HSET/HMSET 1 to n fields, SADD 1 to n members, ZADD 1 to n members, LPUSH/RPUSH
 * exactly n elements, XADD 1 entry, the destination of SMOVE / LMOVE / RPOPLPUSH 1 element.
 * @param args the command's arguments after its name, the key first
 */
export function createdShape(command: string, args: readonly Value[]): { size: [number, number]; members?: string[]; scores?: number[] } | undefined {
  if (args.some((a) => a.t === 'spread')) return undefined;
  const n = args.length - 1;
  const literals = (values: readonly (Value | undefined)[]): string[] | undefined => {
    const out: string[] = [];
    for (const v of values) {
      const id = memberId(v);
      if (id === undefined) return undefined;
      out.push(id);
    }
    return out;
  };
  const shape = (size: [number, number], members?: string[]) => (members ? { size, members } : { size });
  switch (command) {
    case 'HSET':
    case 'HMSET':
      return n >= 2 ? shape([1, Math.floor(n / 2)], literals(args.filter((_, i) => i % 2 === 1))) : undefined;
    case 'HSETNX':
    case 'HINCRBY':
    case 'HINCRBYFLOAT':
      return shape([1, 1], literals([args[1]]));
    case 'ZINCRBY': {
      const increment = literals([args[1]]);
      const score = increment ? Number(increment[0]) : NaN;
      return { ...shape([1, 1], literals([args[2]])), ...(Number.isFinite(score) ? { scores: [score] } : {}) };
    }
    case 'XADD':
      return shape([1, 1]);
    case 'VADD': {
      // VADD key [REDUCE dim] (FP32 blob | VALUES n v1 .. vn) element ... (https://redis.io/docs/latest/commands/vadd/)
      let i = 1;
      if (upperLiteral(args[i]) === 'REDUCE') i += 2;
      const form = upperLiteral(args[i]);
      const count = form === 'VALUES' ? Number(memberId(args[i + 1])) : form === 'FP32' ? 0 : NaN;
      if (!Number.isInteger(count)) return undefined;
      return shape([1, 1], literals([args[i + 2 + count]]));
    }
    case 'SADD':
      return n >= 1 ? shape([1, n], literals(args.slice(1))) : undefined;
    case 'ZADD': {
      const pairs = zaddPairs(args);
      if (pairs === undefined || pairs < 1) return undefined;
      const first = args.length - 2 * pairs;
      const scores = literals(args.filter((_, i) => i >= first && (i - first) % 2 === 0))?.map(Number);
      const out = shape([1, pairs], literals(args.filter((_, i) => i >= first && (i - first) % 2 === 1)));
      return scores && scores.every(Number.isFinite) ? { ...out, scores } : out;
    }
    case 'LPUSH':
    case 'RPUSH':
      return n >= 1 ? shape([n, n]) : undefined;
    case 'SMOVE':
      return shape([1, 1], literals([args[2]]));
    case 'LMOVE':
    case 'BLMOVE':
    case 'RPOPLPUSH':
    case 'BRPOPLPUSH':
      return shape([1, 1]);
    default:
      return undefined;
  }
}

/** A literal argument, upper-cased (an option token). */
function upperLiteral(value: Value | undefined): string | undefined {
  return value?.t === 'str' && value.v !== undefined ? value.v.toUpperCase() : undefined;
}

/** Marks a member id that stands for an ARGV element rather than a literal (no literal starts with it). */
const ARGV_MEMBER = '\u0000ARGV';

/**
 * The identity of a member, field or element argument: its literal (`'a'`, `'7'`), or the ARGV
 * element it is (`ARGV[2]`, constant for the whole script, but maybe equal to any literal);
 * undefined when the script computes it.
 */
export function memberId(value: Value | undefined): string | undefined {
  if (value?.t === 'str' && value.v !== undefined) return value.v;
  if (value?.t === 'num' && value.v !== undefined) return String(value.v);
  if ((value?.t === 'str' || value?.t === 'num') && typeof value.argv === 'number') return `${ARGV_MEMBER}[${value.argv}]`;
  return undefined;
}

/**
 * Whether a removal certainly empties a key that holds `created` (its size and literal members):
 * LPOP / RPOP / SPOP / ZPOPMIN / ZPOPMAX without a count on a one-element key, SREM / ZREM / HDEL
 * of every member it holds.
 */
export function removalEmpties(command: string, args: readonly Value[], created: { size: [number, number]; members?: readonly string[]; scores?: readonly number[] }): boolean {
  if (command === 'ZREMRANGEBYSCORE' && created.scores) {
    // ZREMRANGEBYSCORE key min max: '-inf', '+inf', '(x' exclusive, 'x' inclusive.
    const bound = (value: Value | undefined, low: boolean): ((score: number) => boolean) | undefined => {
      const text = value?.t === 'str' && value.v !== undefined ? value.v : value?.t === 'num' && value.v !== undefined ? String(value.v) : undefined;
      if (text === undefined) return undefined;
      const exclusive = text.startsWith('(');
      const n = Number(text.replace(/^\(/, '').replace(/^\+?inf$/i, 'Infinity').replace(/^-inf$/i, '-Infinity'));
      if (Number.isNaN(n)) return undefined;
      return low ? (x) => (exclusive ? x > n : x >= n) : (x) => (exclusive ? x < n : x <= n);
    };
    const min = bound(args[1], true);
    const max = bound(args[2], false);
    return min !== undefined && max !== undefined && created.scores.every((x) => min(x) && max(x));
  }
  if (['LPOP', 'RPOP', 'SPOP', 'ZPOPMIN', 'ZPOPMAX'].includes(command)) return args.length === 1 && created.size[1] <= 1;
  // The source of a move loses one element.
  if (['LMOVE', 'BLMOVE', 'RPOPLPUSH', 'BRPOPLPUSH'].includes(command)) return created.size[1] <= 1;
  if (command === 'SMOVE') return created.members !== undefined && created.members.length === 1 && created.members[0] === memberId(args[2]);
  if (!['SREM', 'ZREM', 'HDEL', 'VREM'].includes(command) || !created.members) return false;
  // every member the write gave the key is removed (the same literal, or the same ARGV element)
  const removed = new Set(args.slice(1).map(memberId));
  return created.members.every((m) => removed.has(m));
}

/**
 * Whether a removal certainly leaves elements in a key that holds at least `created`'s literal
 * members (SADD a b; SREM a leaves b): the key still exists.
 */
export function removalKeeps(command: string, args: readonly Value[], created: { members?: readonly string[] }): boolean {
  if (!['SREM', 'ZREM', 'HDEL', 'VREM'].includes(command) || !created.members) return false;
  // an ARGV element may equal any literal: only literals both sides can be told apart
  const removed: string[] = [];
  for (const a of args.slice(1)) {
    const id = memberId(a);
    if (id === undefined || id.startsWith(ARGV_MEMBER)) return false;
    removed.push(id);
  }
  return created.members.some((m) => !m.startsWith(ARGV_MEMBER) && !removed.includes(m));
}

/**
 * Whether a removal certainly removes nothing from a key that holds exactly `created`'s literal
 * members (ZADD k 1 '7', then ZREM k 'a'): the key holds what it held.
 */
export function removalRemovesNothing(command: string, args: readonly Value[], created: { members?: readonly string[] }): boolean {
  if (!['SREM', 'ZREM', 'HDEL', 'VREM'].includes(command) || !created.members || created.members.some((m) => m.startsWith(ARGV_MEMBER))) return false;
  for (const a of args.slice(1)) {
    const id = memberId(a);
    if (id === undefined || id.startsWith(ARGV_MEMBER) || created.members.includes(id)) return false;
  }
  return args.length > 1;
}

/** ZADD's option tokens (https://redis.io/docs/latest/commands/zadd/). */
const ZADD_OPTIONS = new Set(['NX', 'XX', 'GT', 'LT', 'CH']);

/**
 * How many score-member pairs a ZADD adds: the arguments after the key and its leading options.
 * Undefined with INCR (the reply is the new score) or when an option is not a literal.
 */
function zaddPairs(args: readonly Value[]): number | undefined {
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.t !== 'str' || a.v === undefined) break;
    const token = a.v.toUpperCase();
    if (token === 'INCR') return undefined;
    if (!ZADD_OPTIONS.has(token)) break;
  }
  const rest = args.length - i;
  return rest >= 2 && rest % 2 === 0 ? rest / 2 : undefined;
}

const MAX = Number.MAX_SAFE_INTEGER;

/** Integer replies that are 0 or 1 whatever the key holds (https://redis.io/docs/latest/commands/). */
const ZERO_OR_ONE_REPLIES = new Set(['HSETNX', 'SISMEMBER', 'HEXISTS', 'SMOVE', 'RENAMENX', 'COPY', 'PERSIST', 'EXPIRE', 'PEXPIRE', 'EXPIREAT', 'PEXPIREAT', 'PFADD', 'MSETNX']);

/**
 * The integers a command's reply can be, from its documented reply and what is known of its first
 * key before it ran (`before`: whether it exists, and its size when a write of this script has
 * just created it); undefined when nothing narrower than "an integer" is known.
 *
 * - SADD / SREM / ZREM / HDEL of n members, HSET / ZADD of n pairs: 0 to n (the members added or
 *   removed; https://redis.io/docs/latest/commands/sadd/, /zadd/, /hset/).
 * - LPUSH / RPUSH of n elements: the list's new length, n on a missing key, at least n + 1 on an
 *   existing one (lists are never empty); LPUSHX / RPUSHX: 0 on a missing key.
 * - SETNX: 0 on an existing key, 1 on a missing one; MSETNX: 0 when its first key exists.
 * - APPEND of a literal: the new length, at least the literal's.
 * - EXISTS / DEL / UNLINK / TOUCH of n keys: 0 to n; HSETNX, SISMEMBER, EXPIRE, ...: 0 or 1.
 *
 * @param args the command's arguments after its name, the key first
 */
export function replyRange(command: string, args: readonly Value[], before: { exists: 'yes' | 'no' | 'maybe'; size: readonly [number, number] | undefined }): readonly [number, number] | undefined {
  if (args.some((a) => a.t === 'spread')) return undefined;
  const n = args.length - 1;
  switch (command) {
    case 'SADD':
    case 'SREM':
    case 'ZREM':
    case 'HDEL':
      return n >= 1 ? [0, n] : undefined;
    case 'HSET':
      return n >= 2 ? [0, Math.floor(n / 2)] : undefined;
    case 'ZADD': {
      const pairs = zaddPairs(args);
      return pairs === undefined ? undefined : [0, pairs];
    }
    case 'LPUSH':
    case 'RPUSH':
    case 'LPUSHX':
    case 'RPUSHX': {
      if (n < 1) return undefined;
      const onlyIfPresent = command.endsWith('X');
      if (before.exists === 'no') return onlyIfPresent ? [0, 0] : [n, n];
      if (before.exists === 'yes') return [n + Math.max(1, before.size?.[0] ?? 1), MAX];
      return onlyIfPresent ? [0, MAX] : [n, MAX];
    }
    case 'SETNX':
      return before.exists === 'yes' ? [0, 0] : before.exists === 'no' ? [1, 1] : [0, 1];
    case 'APPEND': {
      const value = args[1];
      const length = value?.t === 'str' && value.v !== undefined ? Buffer.byteLength(value.v) : value?.t === 'num' && value.v !== undefined ? String(value.v).length : undefined;
      if (length === undefined) return undefined;
      return before.exists === 'no' ? [length, length] : [length, MAX];
    }
    case 'EXISTS':
    case 'DEL':
    case 'UNLINK':
    case 'TOUCH':
      return [0, args.length];
    default:
      if (command === 'MSETNX' && before.exists === 'yes') return [0, 0];
      return ZERO_OR_ONE_REPLIES.has(command) ? [0, 1] : undefined;
  }
}

/** Commands {@link replyRange} may know a range of (else it answers undefined whatever the arguments). */
const RANGED_REPLIES: ReadonlySet<string> = new Set(['SADD', 'SREM', 'ZREM', 'HDEL', 'HSET', 'ZADD', 'LPUSH', 'RPUSH', 'LPUSHX', 'RPUSHX', 'SETNX', 'APPEND', 'EXISTS', 'DEL', 'UNLINK', 'TOUCH', ...ZERO_OR_ONE_REPLIES]);

/** Whether {@link replyRange} can know anything of `command`'s reply. */
export function mayKnowReplyRange(command: string): boolean {
  return RANGED_REPLIES.has(command);
}

/**
 * Which edges of `reply op c` an integer reply of known `range` can take: `undefined` when both.
 */
export function rangeDecides(range: readonly [number, number], op: Op, c: number): boolean | undefined {
  const [lo, hi] = range;
  const samples = [lo, hi, Math.floor(c) - 1, Math.floor(c), Math.ceil(c), Math.ceil(c) + 1].filter((x) => x >= lo && x <= hi);
  const outcomes = new Set(samples.map((x) => test(op, x, c)));
  return outcomes.size === 1 ? outcomes.has(true) : undefined;
}

/** Commands that always answer a status reply (`OK`: a table, truthy in Lua) when they do not raise. */
const STATUS_REPLIES = new Set(['MSET', 'SETEX', 'PSETEX', 'RENAME', 'LSET', 'LTRIM', 'HMSET', 'PFMERGE', 'RESTORE', 'XGROUP', 'FLUSHDB', 'FLUSHALL', 'SELECT', 'PING']);

/**
 * Whether a command always answers a status reply: MSET, SETEX, ..., and SET without NX, XX or GET
 * (https://redis.io/docs/latest/commands/set/: those can answer nil).
 */
export function alwaysStatusReply(command: string, args: readonly (string | number | undefined)[]): boolean {
  if (command !== 'SET') return STATUS_REPLIES.has(command);
  for (let i = 2; i < args.length; i++) {
    const a = args[i];
    if (a === undefined) return false;
    if (typeof a === 'string') {
      const token = a.toUpperCase();
      if (token === 'NX' || token === 'XX' || token === 'GET') return false;
    }
  }
  return true;
}

/** Replies that are a string, or `false` exactly when the key is missing. */
const KEY_VALUE_REPLIES = new Set(['GET', 'GETEX']);
/** Replies that are a string, or `false` when the key or the element is missing. */
const ELEMENT_REPLIES = new Set(['HGET', 'LINDEX', 'ZSCORE', 'LPOS', 'ZRANK', 'ZREVRANK']);
/** Integer replies that are 0 exactly when the key is missing (empty aggregates do not exist). */
const SIZE_REPLIES = new Set([
  'EXISTS', 'SCARD', 'ZCARD', 'LLEN', 'HLEN', 'VCARD',
  // a STORE whose result is empty deletes its destination instead of storing an empty key
  'SUNIONSTORE', 'SINTERSTORE', 'SDIFFSTORE', 'ZUNIONSTORE', 'ZINTERSTORE', 'ZDIFFSTORE', 'ZRANGESTORE', 'GEOSEARCHSTORE',
]);
/**
 * Integer replies that count what a key holds but can be 0 for a key that exists: an empty string
 * (STRLEN, https://redis.io/docs/latest/commands/strlen/), an empty stream (XLEN), an empty
 * HyperLogLog (PFCOUNT of one key), a count over a range (ZCOUNT, ZLEXCOUNT, BITCOUNT), a field's
 * length (HSTRLEN). Any positive count proves the key exists.
 */
const POSITIVE_COUNT_REPLIES = new Set(['XLEN', 'STRLEN', 'PFCOUNT', 'ZCOUNT', 'ZLEXCOUNT', 'BITCOUNT', 'HSTRLEN', 'SINTERCARD', 'ZINTERCARD', 'GETRANGE']);
const TTL_REPLIES = new Set(['TTL', 'PTTL']);
/** Reads that return a whole hash or set: an empty reply means the key is missing. */
export const WHOLE_AGGREGATE_READS: ReadonlySet<string> = new Set(['HGETALL', 'HKEYS', 'HVALS', 'SMEMBERS']);
/**
 * Reads that answer elements of the key, none when it is missing, and never empty a key: a
 * non-empty reply (`#r > 0`, `r[1]` truthy) proves the key exists; an empty one proves nothing
 * (the range may be empty). SDIFF's and SINTER's first key must exist for any element; SUNION left out.
 */
export const RANGE_READS: ReadonlySet<string> = new Set([
  'LRANGE', 'ZRANGE', 'ZREVRANGE', 'ZRANGEBYSCORE', 'ZREVRANGEBYSCORE', 'ZRANGEBYLEX', 'ZREVRANGEBYLEX', 'SRANDMEMBER',
  'ZRANDMEMBER', 'HRANDFIELD', 'XRANGE', 'XREVRANGE', 'SINTER', 'SDIFF', 'SSCAN', 'HSCAN', 'ZSCAN',
]);
/** Moves that reply the element moved, or nil (false in Lua) when the source was empty and nothing was written. */
export const MOVES_REPLYING_THE_ELEMENT: ReadonlySet<string> = new Set(['LMOVE', 'BLMOVE', 'RPOPLPUSH', 'BRPOPLPUSH']);
/** Replies that are a string, or false: `x or default` loses what the reply said. */
export const REPLY_TO_STRING_COMMANDS: ReadonlySet<string> = new Set(['GET', 'HGET', 'LINDEX', 'ZSCORE', 'GETEX', 'GETDEL', 'LPOP', 'RPOP', 'SPOP', 'HGETDEL']);

/** Integer replies that are 1 only when the key exists (and 0 says nothing about it). */
const MEMBER_REPLIES = new Set(['HEXISTS', 'SISMEMBER']);
/** Replies that count the elements a command added: at least 1 when it created the key. */
const ADDED_COUNT_REPLIES: Record<string, (args: readonly Value[]) => number | undefined> = {
  SADD: (args) => args.length - 1,
  HSET: (args) => Math.floor((args.length - 1) / 2),
  ZADD: (args) => {
    const pairs = zaddPairs(args);
    return pairs === undefined ? undefined : pairs;
  },
  PFADD: () => 1,
};

const exactly = (v: number): Reply['whenCreated'] => ({ exact: { t: 'num', v } });
const hasSpread = (args: readonly Value[]): boolean => args.some((a) => a.t === 'spread');
const increment = (at: number) => (args: readonly Value[]): Reply['whenCreated'] => (args[at] ? { exact: args[at] } : undefined);
const pushed = (args: readonly Value[]): Reply['whenCreated'] => (hasSpread(args) ? undefined : exactly(args.length - 1));
const added = (count: (args: readonly Value[]) => number | undefined) => (args: readonly Value[]): Reply['whenCreated'] => {
  if (hasSpread(args)) return undefined;
  const most = count(args);
  return most !== undefined && most >= 1 ? { range: [1, most] } : undefined;
};

/** See {@link replyWhenCreated}: one entry per command whose reply can tell, from the key-first arguments after its name. */
const WHEN_CREATED: Readonly<Record<string, (args: readonly Value[]) => Reply['whenCreated']>> = {
  INCR: () => exactly(1),
  DECR: () => exactly(-1),
  INCRBY: increment(1),
  HINCRBY: increment(2),
  DECRBY: (args) => {
    const decrement = args[1];
    return decrement?.t === 'num' && decrement.v !== undefined ? exactly(-decrement.v) : undefined;
  },
  SETNX: () => exactly(1),
  MSETNX: () => exactly(1),
  HSETNX: () => exactly(1),
  SMOVE: () => exactly(1), // 1 when it moved the member (and so may have created the destination)
  LPUSH: pushed,
  RPUSH: pushed,
  ...Object.fromEntries(Object.entries(ADDED_COUNT_REPLIES).map(([command, count]) => [command, added(count)])),
};

/**
 * What a command answers when it has just created its key: INCR 1, INCRBY its increment, DECR -1,
 * HINCRBY its increment, SETNX/MSETNX/HSETNX 1, LPUSH/RPUSH the number of elements pushed, SADD /
 * HSET / ZADD between 1 and the number of members given, PFADD 1
 * (https://redis.io/docs/latest/commands/incr/, /lpush/, /sadd/, /pfadd/). Any other reply proves
 * that the command found the key already there (so it kept the key's TTL).
 * @param args the command's arguments after its name, the key first
 */
export function replyWhenCreated(command: string, args: readonly Value[]): Reply['whenCreated'] {
  return Object.hasOwn(WHEN_CREATED, command) ? WHEN_CREATED[command]!(args) : undefined;
}

/** Whether {@link replyWhenCreated} can know anything of `command`'s reply (else it answers undefined whatever the arguments). */
export function mayReplyWhenCreated(command: string): boolean {
  return Object.hasOwn(WHEN_CREATED, command);
}

/** The Lua type of a command's reply when it is always the same, for the number-vs-string checks. */
export function replyLuaType(command: string): 'number' | undefined {
  return INTEGER_REPLIES.has(command) ? 'number' : undefined;
}

export type Op = '==' | '~=' | '<' | '>' | '<=' | '>=';

const FLIP: Record<Op, Op> = { '==': '==', '~=': '~=', '<': '>', '>': '<', '<=': '>=', '>=': '<=' };

function test(op: Op, x: number, c: number): boolean {
  switch (op) {
    case '==':
      return x === c;
    case '~=':
      return x !== c;
    case '<':
      return x < c;
    case '>':
      return x > c;
    case '<=':
      return x <= c;
    case '>=':
      return x >= c;
  }
}

/**
 * Which of a reply's outcome classes (each an integer range `[lo, hi]`) a comparison with `c`
 * admits on each edge. The range's ends and the integers next to `c` inside it decide every
 * comparison operator.
 */
function partition<T extends string>(classes: Record<T, [number, number]>, op: Op, c: number): { yes: Set<T>; no: Set<T> } {
  const yes = new Set<T>();
  const no = new Set<T>();
  for (const name of Object.keys(classes) as T[]) {
    const [lo, hi] = classes[name];
    const samples = [lo, hi, Math.floor(c) - 1, Math.floor(c), Math.ceil(c), Math.ceil(c) + 1].filter((x) => x >= lo && x <= hi);
    for (const sample of samples) (test(op, sample, c) ? yes : no).add(name);
  }
  return { yes, no };
}

function ttlFact(outcomes: Set<'missing' | 'no-ttl' | 'ttl'>): KeyFact | undefined {
  if (outcomes.size === 0) return 'impossible';
  if (outcomes.has('no-ttl')) return outcomes.has('missing') ? (outcomes.has('ttl') ? undefined : 'no-ttl-or-missing') : outcomes.has('ttl') ? 'exists' : 'no-ttl';
  if (!outcomes.has('ttl')) return 'missing';
  return outcomes.has('missing') ? 'has-ttl-or-missing' : 'has-ttl';
}

function sizeFact(outcomes: Set<'missing' | 'present'>): KeyFact | undefined {
  if (outcomes.size === 0) return 'impossible';
  if (outcomes.size === 2) return undefined;
  return outcomes.has('missing') ? 'missing' : 'exists';
}

function literalNumber(value: Value): number | undefined {
  return value.t === 'num' ? value.v : undefined;
}

/** Whether `value` is the same number as a command's increment (`1`, or `tonumber(ARGV[1])` for ARGV[1]). */
function isIncrement(value: Value, increment: Value | undefined): boolean {
  if (!increment) return false;
  const a = literalNumber(value);
  if (a !== undefined) {
    const b = increment.t === 'num' ? increment.v : increment.t === 'str' && increment.v !== undefined ? Number(increment.v) : undefined;
    return b === a;
  }
  const argv = value.t === 'num' || value.t === 'str' ? value.argv : undefined;
  const incArgv = increment.t === 'num' || increment.t === 'str' ? increment.argv : undefined;
  return argv !== undefined && argv !== '*' && argv === incArgv;
}

/** The facts a reply's key can take, with what each edge proves (a new object: callers may fill it in). */
function base(reply: Reply, whenTrue?: KeyFact, whenFalse?: KeyFact): KeyFacts {
  const facts = newFacts(reply.keyId, reply.version, reply.pending, whenTrue, whenFalse);
  if (reply.surelyCreated) facts.surelyCreated = true;
  facts.site = reply.site;
  return facts;
}

/**
 * The facts proved by comparing two values with a relational operator.
 * @returns `undefined` when the comparison proves nothing about any key.
 */
export function keyFactsOfComparison(left: Value, op: Op, right: Value): KeyFacts | undefined {
  const zero = zeroWhenMissingFacts(left, op, right) ?? zeroWhenMissingFacts(right, FLIP[op], left);
  if (zero) return zero;
  let reply: Reply;
  let other: Value;
  let operator = op;
  if (left.t === 'reply') {
    reply = left;
    other = right;
  } else if (right.t === 'reply') {
    reply = right;
    other = left;
    operator = FLIP[op];
  } else return undefined;
  if (reply.pcall) return undefined;

  // A reply whose range one side of the comparison excludes: that edge is never taken.
  const literal = literalNumber(other);
  if (reply.range && literal !== undefined) {
    const decided = rangeDecides(reply.range, operator, literal);
    if (decided !== undefined) return decided ? ALWAYS_TRUE : ALWAYS_FALSE;
  }

  // A reply is never nil: redis.call turns a nil bulk reply into false (tonumber() of it is nil, though).
  if (other.t === 'nil' && (operator === '==' || operator === '~=')) {
    if (!reply.numeric) return operator === '~=' ? ALWAYS_TRUE : ALWAYS_FALSE;
    const truth = keyFactsOfTruth(reply);
    if (!truth) return undefined;
    return operator === '~=' ? truth : swap(truth);
  }
  if (other.t === 'bool' && other.v === false && (operator === '==' || operator === '~=')) {
    const truth = keyFactsOfTruth(reply);
    if (!truth) return undefined;
    return operator === '=='
      ? swap(truth)
      : truth;
  }
  if (reply.keyId === undefined) return undefined;

  // A string compared with a GET-like reply: `false` never equals a string.
  if ((KEY_VALUE_REPLIES.has(reply.command) || ELEMENT_REPLIES.has(reply.command)) && (other.t === 'str' || other.t === 'key')) {
    if (operator === '==') return base(reply, 'exists');
    if (operator === '~=') return base(reply, undefined, 'exists');
  }

  // `tonumber(GET k) > n`: tonumber(false) is nil, and ordering nil raises.
  if (reply.numeric && operator !== '==' && operator !== '~=' && (KEY_VALUE_REPLIES.has(reply.command) || ELEMENT_REPLIES.has(reply.command))) {
    const facts = base(reply, 'exists', 'exists');
    facts.raisesWhenMissing = true;
    return facts;
  }

  // A size read right after the write that may have created the key: an edge that excludes the
  // size the key has when that write created it proves the write found the key there.
  if (reply.sizeWhenCreated && reply.site !== undefined) {
    const c = literalNumber(other);
    if (c === undefined) return undefined;
    const scale = reply.command === 'HGETALL' && reply.sizeOfReply ? 2 : 1;
    const [lo, hi] = [reply.sizeWhenCreated[0] * scale, reply.sizeWhenCreated[1] * scale];
    const samples = [lo, hi, c - 1, c, c + 1].filter((x) => x >= lo && x <= hi);
    const outcomes = new Set(samples.map((x) => test(operator, x, c)));
    // The plain size facts first (an edge only a missing key takes), then "not created by it".
    const { yes, no } = partition({ missing: [0, 0], present: [1, Number.MAX_SAFE_INTEGER] }, operator, c);
    const edge = (sizeSide: Set<'missing' | 'present'>, creationPasses: boolean): KeyFact | undefined => {
      const plain = sizeFact(sizeSide);
      if (plain === 'impossible' || plain === 'missing') return plain;
      return outcomes.size === 1 && !creationPasses ? 'site-did-not-create' : plain;
    };
    return withFacts(base(reply), edge(yes, outcomes.has(true)), edge(no, outcomes.has(false)));
  }

  const created = reply.whenCreated;
  if (created && reply.site !== undefined) {
    // On an edge that no "just created" reply can take, the write found the key already there.
    const c = literalNumber(other);
    if ('exact' in created) {
      // the reply equals the increment when the write created the key: the edge that value does
      // not take proves the key was there (`n > tonumber(ARGV[1])` true: INCRBY found it)
      if (isIncrement(other, created.exact)) return test(operator, 0, 0) ? base(reply, undefined, 'not-created-by-site') : base(reply, 'not-created-by-site');
      const e = created.exact.t === 'num' ? created.exact.v : undefined;
      if (c === undefined || e === undefined) return undefined;
      return test(operator, e, c) ? base(reply, undefined, 'not-created-by-site') : base(reply, 'not-created-by-site');
    }
    if (c === undefined) return undefined;
    const [lo, hi] = created.range;
    const samples = [lo, hi, c - 1, c, c + 1].filter((x) => x >= lo && x <= hi);
    const outcomes = new Set(samples.map((x) => test(operator, x, c)));
    if (outcomes.size !== 1) return undefined;
    return outcomes.has(true) ? base(reply, undefined, 'not-created-by-site') : base(reply, 'not-created-by-site');
  }

  const c = literalNumber(other);
  // `tonumber(ARGV[n]) > ttl`: a TTL the caller passes, never negative (docs/ttl-semantics.md), read
  // as its bound: the edge where the reply is at least it proves the key had a TTL (a missing key's
  // -2, a TTL-less key's -1 always take the other edge)
  if (c === undefined && TTL_REPLIES.has(reply.command) && isCallerNumber(other)) return keyFactsAgainstBounds(reply, operator, CALLER_NUMBER_BOUNDS);
  if (c === undefined) return undefined;
  if (TTL_REPLIES.has(reply.command)) {
    const { yes, no } = partition({ missing: [-2, -2], 'no-ttl': [-1, -1], ttl: [0, Number.MAX_SAFE_INTEGER] }, operator, c);
    // A class can fall on both sides only for positive TTLs (e.g. PTTL > 5000): then it proves nothing there.
    return withFacts(base(reply), ttlFact(yes), ttlFact(no));
  }
  if (MEMBER_REPLIES.has(reply.command)) {
    const { yes, no } = partition({ absent: [0, 0], present: [1, 1] }, operator, c);
    const fact = (side: Set<'absent' | 'present'>): KeyFact | undefined =>
      side.size === 0 ? 'impossible' : side.has('absent') ? undefined : 'exists';
    return withFacts(base(reply), fact(yes), fact(no));
  }
  if (SIZE_REPLIES.has(reply.command) || reply.sizeOfReply) {
    const { yes, no } = partition({ missing: [0, 0], present: reply.command === 'EXISTS' ? [1, 1] : [1, Number.MAX_SAFE_INTEGER] }, operator, c);
    return withFacts(base(reply), sizeFact(yes), sizeFact(no));
  }
  if (POSITIVE_COUNT_REPLIES.has(reply.command) || reply.nonEmptyExists) {
    // 0 may be an existing key (an empty string, stream or HyperLogLog); a positive count is not a missing one
    const { yes, no } = partition({ zero: [0, 0], positive: [1, Number.MAX_SAFE_INTEGER] }, operator, c);
    const fact = (side: Set<'zero' | 'positive'>): KeyFact | undefined => (side.size === 0 ? 'impossible' : side.has('zero') ? undefined : 'exists');
    return withFacts(base(reply), fact(yes), fact(no));
  }
  return undefined;
}

/** What a number the caller passes is taken to be: at least 0 (a TTL, a count; docs/ttl-semantics.md). */
const CALLER_NUMBER_BOUNDS = { lo: 0, hi: undefined };

/** `tonumber(ARGV[n])` (or `... or 0`) as it is, nothing computed from it. */
function isCallerNumber(value: Value): boolean {
  return value.t === 'num' && value.v === undefined && (value.argv !== undefined || value.fromArgv !== undefined) && !value.mayBeNonPositive && value.clock === undefined;
}

const NEGATED: Record<Op, Op> = { '==': '~=', '~=': '==', '<': '>=', '>': '<=', '<=': '>', '>=': '<' };

/**
 * The facts proved by `value op x`, where `x` is not a literal but the path's guards bound it
 * (`bounds`: `x >= lo`, `x <= hi`): `x >= arr_len` false with `x >= 0` proves `arr_len > 0`.
 * Each edge is read as a comparison of `value` with the bound that edge implies.
 * @returns `undefined` when neither edge proves anything.
 */
export function keyFactsAgainstBounds(value: Value, op: Op, bounds: { lo: number | undefined; hi: number | undefined }): KeyFacts | undefined {
  if (value.t !== 'reply' || value.pcall || value.keyId === undefined) return undefined;
  const edge = (o: Op): KeyFact | undefined => {
    // value o x, with lo <= x <= hi
    const derived: [Op, number | undefined] =
      o === '<' || o === '<=' ? [o, bounds.hi] : o === '>' || o === '>=' ? [o, bounds.lo] : o === '==' ? (bounds.lo !== undefined ? ['>=', bounds.lo] : ['<=', bounds.hi]) : ['~=', undefined];
    if (derived[1] === undefined) return undefined;
    const facts = keyFactsOfComparison(value, derived[0], { t: 'num', v: derived[1] });
    if (!facts || facts.always === true) return undefined;
    if (facts.always === false) return 'impossible';
    return facts.whenTrue;
  };
  const whenTrue = edge(op);
  const whenFalse = edge(NEGATED[op]);
  if (whenTrue === undefined && whenFalse === undefined) return undefined;
  return withFacts(base(value), whenTrue, whenFalse);
}

/** A number that is 0 when a key was missing, compared with a literal: an edge without 0 proves it existed. */
function zeroWhenMissingFacts(value: Value, op: Op, other: Value): KeyFacts | undefined {
  if (value.t !== 'num' || !value.zeroWhenMissing) return undefined;
  const c = literalNumber(other);
  if (c === undefined) return undefined;
  const { keyId, version, pending } = value.zeroWhenMissing;
  const zeroPasses = test(op, 0, c);
  return zeroPasses ? newFacts(keyId, version, pending, undefined, 'exists') : newFacts(keyId, version, pending, 'exists');
}

/** Fills in the edges of facts just made by {@link base}. */
function withFacts(facts: KeyFacts, whenTrue: KeyFact | undefined, whenFalse: KeyFact | undefined): KeyFacts {
  if (whenTrue) facts.whenTrue = whenTrue;
  if (whenFalse) facts.whenFalse = whenFalse;
  return facts;
}

/** The facts of the negated condition: the edges swapped. */
function swap(facts: KeyFacts): KeyFacts {
  const swapped = newFacts(facts.keyId, facts.version, facts.pending, facts.whenFalse, facts.whenTrue);
  swapped.site = facts.site;
  swapped.always = facts.always !== undefined ? !facts.always : undefined;
  swapped.surelyCreated = facts.surelyCreated;
  swapped.and = facts.and;
  swapped.raisesWhenMissing = facts.raisesWhenMissing;
  return swapped;
}

/**
 * The facts proved by testing a value for truthiness (`if v then`).
 * @returns `undefined` when nothing is known.
 */
export function keyFactsOfTruth(value: Value): KeyFacts | undefined {
  switch (value.t) {
    case 'nil':
      return ALWAYS_FALSE;
    case 'bool':
      return value.v === undefined ? undefined : value.v ? ALWAYS_TRUE : ALWAYS_FALSE;
    case 'num':
      return value.nilable ? undefined : ALWAYS_TRUE;
    case 'str':
      // An ARGV element is nil when the caller passed fewer arguments.
      return value.argv !== undefined || value.falsy || value.zeroWhenMissing ? undefined : ALWAYS_TRUE;
    case 'table':
    case 'key':
    case 'keys':
    case 'argv':
    case 'fn':
    case 'errorReply':
      return ALWAYS_TRUE;
    case 'reply': {
      if (value.pcall) return undefined;
      if (value.status) return ALWAYS_TRUE; // a status reply is a table
      if (value.luaType === 'number' && !value.numeric) return ALWAYS_TRUE; // 0 is truthy in Lua
      if (value.keyId === undefined) return undefined;
      // tonumber(GET ...): nil also for a value that is not a number, so only "truthy => exists" holds.
      if (value.numeric) return KEY_VALUE_REPLIES.has(value.command) || ELEMENT_REPLIES.has(value.command) ? base(value, 'exists') : undefined;
      if (KEY_VALUE_REPLIES.has(value.command)) return base(value, 'exists', 'missing');
      if (ELEMENT_REPLIES.has(value.command)) return base(value, 'exists');
      // SET ... NX PX: truthy = written with its TTL, falsy = the key existed; SET ... XX: truthy = it existed, falsy = missing
      if (value.whenTruthy !== undefined || value.whenFalsy !== undefined) return base(value, value.whenTruthy, value.whenFalsy);
      // LMOVE / RPOPLPUSH answer the element moved, or nil when the source was empty (missing).
      const source: KeyFacts | undefined =
        value.sourceKeyId !== undefined && value.sourceVersion !== undefined ? newFacts(value.sourceKeyId, value.sourceVersion, undefined, 'exists', 'missing') : undefined;
      if (value.createsOnTruthy && value.site !== undefined) {
        const facts = base(value, undefined, 'not-created-by-site');
        facts.and = source;
        return facts;
      }
      if (source) return source;
      return undefined;
    }
    default:
      return undefined;
  }
}
