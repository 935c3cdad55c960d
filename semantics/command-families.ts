/**
 * Facts about families of commands rather than one call: the writes that can take a lock
 * (SET NX, SETNX, GETSET, MSETNX), the writes whose syntax has no expiry option, the counters and
 * the amount each adds, and the commands that make the same write to their keys (LPUSH / RPUSH,
 * LMOVE / RPOPLPUSH). Each cites the redis.io pages it comes from. Imported through `commands.ts`.
 */

/**
 * Writes that can take a lock and carry its owner's value right after each key: SET (with NX),
 * SETNX, GETSET (the old GETSET lock) and MSETNX (several keys at once, all or none, each key's
 * value after it). MSET is not one: it cannot fail on a held key, so it takes no lock
 * (https://redis.io/docs/latest/commands/setnx/, https://redis.io/docs/latest/commands/msetnx/).
 */
export const LOCK_OWNER_WRITES: ReadonlySet<string> = new Set(['SET', 'SETNX', 'GETSET', 'MSETNX']);

/**
 * Commands that create or write a key and take no expiry option: their syntax has no EX / PX /
 * EXAT / PXAT (https://redis.io/docs/latest/commands/hset/, .../lpush/, .../sadd/, .../zadd/,
 * .../mset/, .../incr/, .../hincrby/, .../append/, .../pfadd/, .../setnx/ and their siblings), so
 * TTL tokens a call appends are data (a field and its value, a member) or a syntax error.
 */
export const COMMANDS_WITHOUT_TTL_SYNTAX: ReadonlySet<string> = new Set(['HSET', 'HMSET', 'HSETNX', 'LPUSH', 'RPUSH', 'SADD', 'ZADD', 'MSET', 'INCR', 'INCRBY', 'DECR', 'DECRBY', 'HINCRBY', 'APPEND', 'PFADD', 'INCRBYFLOAT', 'SETNX']);

/**
 * The writes that change part of a string value in place: APPEND adds to its end, SETRANGE
 * overwrites bytes at an offset (https://redis.io/docs/latest/commands/append/,
 * https://redis.io/docs/latest/commands/setrange/). What each does to a missing key and to a TTL
 * is their `create-in-place` effect in `commands.ts` (a SETRANGE with an empty value creates
 * nothing). Upper-case command names.
 */
export const STRING_IN_PLACE_WRITES: ReadonlySet<string> = new Set(['APPEND', 'SETRANGE']);

/**
 * The reads that return a string value whole: GET, GETEX, GETDEL and MGET (each of its keys)
 * (https://redis.io/docs/latest/commands/get/, https://redis.io/docs/latest/commands/getex/,
 * https://redis.io/docs/latest/commands/getdel/, https://redis.io/docs/latest/commands/mget/).
 */
export const STRING_WHOLE_READS: ReadonlySet<string> = new Set(['GET', 'GETEX', 'GETDEL', 'MGET']);

/**
 * The string counters: INCR, INCRBY, INCRBYFLOAT, DECR and DECRBY. Each treats a missing key as 0
 * and writes the result, so the increment is the write that creates the key, with no TTL, and each
 * keeps the TTL of a key that exists (https://redis.io/docs/latest/commands/incr/,
 * https://redis.io/docs/latest/commands/incrbyfloat/, https://redis.io/docs/latest/commands/decrby/).
 * Upper-case command names.
 */
export const STRING_COUNTERS: ReadonlySet<string> = new Set(['INCR', 'INCRBY', 'INCRBYFLOAT', 'DECR', 'DECRBY']);

/**
 * Every command that adds to a number stored in Redis: the string counters
 * ({@link STRING_COUNTERS}), a hash field's (HINCRBY, HINCRBYFLOAT) and a sorted set member's score
 * (ZINCRBY). Each creates what it adds to when it is missing, key included, and keeps an existing
 * key's TTL (https://redis.io/docs/latest/commands/hincrby/,
 * https://redis.io/docs/latest/commands/hincrbyfloat/, https://redis.io/docs/latest/commands/zincrby/):
 * the increments a fixed window counts with. Upper-case command names.
 */
export const INCREMENT_COMMANDS: ReadonlySet<string> = new Set([...STRING_COUNTERS, 'HINCRBY', 'HINCRBYFLOAT', 'ZINCRBY']);

/**
 * The amount a counter command adds to its key's integer: INCR is INCRBY 1, DECR is DECRBY 1, that
 * is INCRBY -1 (https://redis.io/docs/latest/commands/incr/, https://redis.io/docs/latest/commands/decr/,
 * https://redis.io/docs/latest/commands/decrby/): the same write, creating a missing key as 0 first.
 * @param command the upper-case command
 * @param amount the INCRBY / DECRBY increment, when the code fixes it
 * @returns `undefined` for another command, or an INCRBY / DECRBY whose amount is not known.
 */
export function counterStep(command: string, amount?: number): number | undefined {
  switch (command) {
    case 'INCR':
      return 1;
    case 'DECR':
      return -1;
    case 'INCRBY':
      return amount;
    case 'DECRBY':
      return amount === undefined ? undefined : -amount;
    default:
      return undefined;
  }
}

/**
 * Commands that make the same write to the keys they name, told apart only by the end of a list
 * they use or the server version they need: LPUSH and RPUSH (either end,
 * https://redis.io/docs/latest/commands/lpush/), LPUSHX and RPUSHX, and RPOPLPUSH, which is `LMOVE
 * source destination RIGHT LEFT` (https://redis.io/docs/latest/commands/rpoplpush/: deprecated
 * for LMOVE since 6.2), also blocking (BRPOPLPUSH and BLMOVE), and HMSET, which is HSET with
 * field-value pairs (https://redis.io/docs/latest/commands/hmset/: deprecated since 4.0.0, "can be
 * replaced by HSET with multiple field-value pairs"). Each creates or keeps its keys' TTLs exactly
 * as the other does.
 */
const SAME_WRITE_GROUPS: readonly (readonly string[])[] = [
  ['HSET', 'HMSET'],
  ['LPUSH', 'RPUSH'],
  ['LPUSHX', 'RPUSHX'],
  ['LMOVE', 'RPOPLPUSH'],
  ['BLMOVE', 'BRPOPLPUSH'],
];

/**
 * Whether two upper-case commands make the same write to their keys (the same command, or two of
 * one group of {@link SAME_WRITE_GROUPS}): a wrapper that sends one or the other by a condition
 * (`version >= 6.2 ? LMOVE : RPOPLPUSH`) sends one command as far as TTLs go.
 */
export function sameWriteCommands(a: string, b: string): boolean {
  return a === b || SAME_WRITE_GROUPS.some((group) => group.includes(a) && group.includes(b));
}

/**
 * Commands that write a record's value, the data a database keeps: a hash's fields (HSET, HMSET,
 * HSETNX, HINCRBY, HINCRBYFLOAT: https://redis.io/docs/latest/commands/hset/,
 * .../hincrby/), a set's members (SADD: .../sadd/), a sorted set's members and scores (ZADD,
 * ZINCRBY: .../zadd/, .../zincrby/), a string value (SET, MSET: .../set/, .../mset/) and a JSON
 * document (JSON.SET: https://redis.io/docs/latest/commands/json.set/). Not the string counters
 * ({@link STRING_COUNTERS}), lists, streams, HyperLogLogs nor APPEND: a queue, a log or a count
 * of hits is not a record. Upper-case command names.
 */
export const RECORD_WRITES: ReadonlySet<string> = new Set(['HSET', 'HMSET', 'HSETNX', 'HINCRBY', 'HINCRBYFLOAT', 'SADD', 'ZADD', 'ZINCRBY', 'SET', 'MSET', 'JSON.SET']);
