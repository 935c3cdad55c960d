/**
 * What the command table says about one call of a Redis command: the types of
 * {@link describeCommand}'s answer (`commands.ts`): what the call does to each key it touches
 * ({@link KeyEffect}, {@link KeyAction}), to the TTLs of a hash's fields ({@link FieldAction}), the
 * unit of its TTL argument and what its options say ({@link CommandDescription}). Each fact cites
 * the redis.io page it comes from; the rest of the package imports these types through `commands.ts`.
 */

import type { VersionRequirement } from './versions.js';

/**
 * What a command does to one key's existence and TTL.
 *
 * - `create-in-place`: INCR, HSET, SADD, ...: a missing key is created **without** TTL; an existing
 *   key is modified and keeps its TTL.
 * - `modify-if-present`: LPUSHX, LSET, ZADD XX, ...: never creates; an existing key keeps its TTL.
 * - `create-if-missing`: SETNX, MSETNX, SET ... NX without expiry: creates without TTL; no-op when
 *   the key exists.
 * - `overwrite`: SET without expiry, GETSET, MSET, SUNIONSTORE, ...: creates without TTL, and
 *   **removes** the TTL of an existing key (https://redis.io/docs/latest/commands/set/: "Any
 *   previous time to live associated with the key is discarded on successful SET operation").
 * - `clear-ttl-if-present`: SET ... XX without expiry: never creates, removes an existing key's TTL.
 * - `transfer-ttl`: RENAME / COPY destination, RESTORE with ABSTTL or a TTL argument: the key gets
 *   the TTL (or lack of it) of its source; see {@link KeyAction.sourceArg}.
 * - `create-with-ttl`: SET ... EX/PX/EXAT/PXAT, SETEX, PSETEX: the key exists with a TTL afterwards.
 * - `create-if-missing-with-ttl`: SET ... NX EX: creates with a TTL; no-op when the key exists.
 * - `set-ttl`: EXPIRE family without XX/GT (NX and LT included), GETEX EX/PX/EXAT/PXAT: an existing
 *   key gets a TTL; a missing key stays missing.
 * - `set-ttl-if-has-ttl`: EXPIRE family with XX or GT: a key without TTL keeps having none (also
 *   with a timeout <= 0, which then deletes only a key that has a TTL).
 * - `keep-ttl`: SET ... KEEPTTL without XX (nor NX): keeps an existing TTL but creates a missing
 *   key **without** TTL. SET ... NX KEEPTTL writes only a missing key, so it is `create-if-missing`.
 * - `remove-ttl`: PERSIST, GETEX ... PERSIST.
 * - `create-with-field-ttl`: HSETEX ... EX/PX/EXAT/PXAT (Redis 8.0): a missing key is created
 *   **without** a key TTL, but every field the call writes expires, and Redis deletes a hash when
 *   its last field expires (https://redis.io/docs/latest/develop/data-types/hashes/#field-expiration):
 *   a key whose every field this unit wrote with a TTL empties itself. An existing key keeps its TTL.
 * - `delete`: DEL, UNLINK, GETDEL, an EXPIRE family call (without XX/GT) with a literal timeout <= 0:
 *   the whole key goes, whatever its type (https://redis.io/docs/latest/commands/del/,
 *   https://redis.io/docs/latest/commands/unlink/, https://redis.io/docs/latest/commands/getdel/);
 *   HDEL / SREM / ZREM ... remove members and delete the key only with its last one.
 * - `read`: the key is read (or modified in a way that cannot create it or change its TTL).
 */
export type KeyEffect =
  | 'create-in-place'
  | 'modify-if-present'
  | 'create-if-missing'
  | 'overwrite'
  | 'clear-ttl-if-present'
  | 'transfer-ttl'
  | 'create-with-ttl'
  | 'create-if-missing-with-ttl'
  | 'set-ttl'
  | 'set-ttl-if-has-ttl'
  | 'keep-ttl'
  | 'remove-ttl'
  | 'create-with-field-ttl'
  | 'delete'
  | 'read';

/**
 * What a hash command does to the TTLs of the fields it names (Redis 7.4 hash-field expiration,
 * https://redis.io/docs/latest/develop/data-types/hashes/#field-expiration), checked on
 * redis-server 8.0.2:
 *
 * - `set`: HEXPIRE / HPEXPIRE / HEXPIREAT / HPEXPIREAT (without XX / GT), HSETEX and HGETEX with
 *   EX / PX / EXAT / PXAT: each named field that exists gets that TTL (0 or a time in the past
 *   deletes the field, and a hash whose last field goes is deleted).
 * - `set-if-has-ttl`: the HEXPIRE family with XX or GT: a field without TTL keeps having none.
 * - `clear`: HSET, HMSET, HSETNX, HSETEX without an expiry option: the field is written and loses
 *   any TTL it had (a new field has none).
 * - `keep`: HINCRBY, HINCRBYFLOAT, HSETEX ... KEEPTTL: an existing field keeps its TTL, a new
 *   field has none.
 * - `remove`: HPERSIST, HGETEX ... PERSIST: the fields lose their TTL.
 * - `delete`: HDEL, HGETDEL.
 */
export type FieldTtlEffect = 'set' | 'set-if-has-ttl' | 'clear' | 'keep' | 'remove' | 'delete';

/** The fields a hash command names, and what it does to their TTLs. */
export interface FieldAction {
  /** 0-based argument indices of the field names; `'unknown'` when they cannot be told (a spread). */
  args: readonly number[] | 'unknown';
  ttl: FieldTtlEffect;
  /**
   * HSETEX ... FNX / FXX: the command writes all the fields or none (FNX: none may exist yet; FXX:
   * all must exist), so it cannot be counted on to give a field that is already there a TTL.
   */
  allOrNone?: true;
}

/**
 * One argument of a command as a front end sees it: the literal value when it is known
 * (a string or a number), else `undefined`.
 */
export type CommandArg = string | number | undefined;

/** What a command does to the key passed at one argument position. */
export interface KeyAction {
  /** 0-based index into the command's arguments (the command name is not an argument). */
  arg: number;
  effect: KeyEffect;
  /** For `transfer-ttl`: the argument index of the key whose TTL is copied, when there is one. */
  sourceArg?: number;
  /**
   * The command removes elements and deletes the key when it removes the last one (LPOP, SREM,
   * ZREMRANGEBYSCORE, ...; https://redis.io/docs/latest/develop/data-types/#automatic-creation-and-removal-of-keys).
   */
  mayDelete?: true;
  /**
   * The command writes this key only when the key at this argument index has elements to move
   * (LMOVE, RPOPLPUSH, SMOVE): when both are the same key, nothing is created.
   */
  onlyWithSource?: number;
  /**
   * With `onlyWithSource`: what moves is one named member (SMOVE), so a source that exists may
   * still move nothing ("If the source set does not exist or does not contain the specified
   * element, no operation is performed", https://redis.io/docs/latest/commands/smove/).
   */
  onlyWithMember?: true;
  /**
   * Redis raises an error when this key is missing (RENAME / RENAMENX: "ERR no such key",
   * https://redis.io/docs/latest/commands/rename/); inside a script the error aborts it.
   */
  mustExist?: true;
  /**
   * A JSON write whose path is not a literal (JSON.SET / JSON.MERGE / JSON.MSET): the argument
   * index of that path. The action is described as creating a missing key (as at the root, `$` or
   * `.`), but below the root Redis cannot create one: "ERR new objects must be created at the
   * root" (https://redis.io/docs/latest/commands/json.set/), and the key must exist. A front end
   * that can tell the path is not the root (`'$.results[' .. id .. ']'`) reads the action as
   * {@link mustExist} `modify-if-present`.
   */
  rootPathArg?: number;
  /**
   * Redis raises an error when this key already exists (TS.CREATE "TSDB: key already exists",
   * BF.RESERVE / CF.RESERVE "ERR item exists", CMS.INITBYDIM, TOPK.RESERVE, TDIGEST.CREATE):
   * inside a script the error aborts it, so past the command the key was missing.
   */
  mustBeMissing?: true;
  /**
   * For `transfer-ttl`: the command writes this key only when it does not exist yet (RENAMENX, COPY
   * without REPLACE); it also writes nothing when the source is missing (COPY answers 0,
   * https://redis.io/docs/latest/commands/copy/).
   */
  onlyIfMissing?: true;
  /**
   * For the destination of a STORE command (SUNIONSTORE, SINTERSTORE, SDIFFSTORE and the sorted-set
   * ones): when the result is empty, which the sources decide, Redis deletes the destination
   * instead of storing an empty key (https://redis.io/docs/latest/commands/sunionstore/).
   * `union`: empty when every source is missing; `intersection`: when any is; `difference`: when
   * the first is.
   */
  storeOf?: 'union' | 'intersection' | 'difference';
  /** Hash commands: the fields the command names in this key and what it does to their TTLs. */
  fields?: FieldAction;
}

/**
 * The unit of a TTL argument: a duration in seconds or milliseconds (EX, PX, EXPIRE, PEXPIRE,
 * SETEX, PSETEX, HEXPIRE, HPEXPIRE), or an absolute Unix time in seconds or milliseconds (EXAT,
 * PXAT, EXPIREAT, PEXPIREAT, HEXPIREAT, HPEXPIREAT, RESTORE ... ABSTTL).
 */
export type TtlUnit = 'seconds' | 'milliseconds' | 'unix-seconds' | 'unix-milliseconds';

/** The analysis of one command call, see {@link describeCommand}. */
export interface CommandDescription {
  /** The command name, upper-cased (`'SET'`, `'XGROUP CREATE'` is `'XGROUP'`). */
  name: string;
  /** `false` when the command is not in the table: nothing is known about its keys. */
  known: boolean;
  /** The keys the command touches, with what it does to each. */
  keys: KeyAction[];
  /**
   * The command returns the old value while dropping the key's TTL: GETSET, or SET ... GET without
   * KEEPTTL or a new expiry (https://redis.io/docs/latest/commands/getset/). Not SET ... NX GET:
   * NX writes only a missing key, which has no TTL to drop (its effect says it creates one without
   * TTL; https://redis.io/docs/latest/commands/set/).
   */
  getDropsTtl: boolean;
  /** The command is SET ... KEEPTTL (with or without XX). */
  keepTtl: boolean;
  /**
   * Index of an expiry argument whose literal value is <= 0 (or not an integer, for SET/SETEX):
   * EXPIRE deletes the key, SET and SETEX abort with an error.
   */
  nonPositiveTtlArg?: number;
  /**
   * The command sets a TTL: the unit of its TTL argument and the argument's index (for rules that
   * convert TTLs, e.g. EXPIRE = seconds, PEXPIRE = milliseconds, EXPIREAT = unix seconds).
   */
  ttl?: { arg: number; unit: TtlUnit };
  /**
   * The option token that carries the TTL (`'EX'`, `'PXAT'`), for SET / GETEX / HSETEX / HGETEX;
   * absent for commands whose TTL is positional (EXPIRE, SETEX).
   */
  ttlOption?: string;
  /**
   * What the server must support for this call (the command, or a newer option of it), from the
   * Redis command docs' "Available since" lines (`semantics/versions.ts`); absent for features
   * older than Redis 3.0.
   */
  requires?: VersionRequirement;
  /** Some option token could not be read (not a literal), so the effects are a best guess. */
  unknownOptions: boolean;
  /**
   * EXPIRE family: the call carries a condition (NX, XX, GT, LT) or an option not read, so it may
   * leave the TTL the key had instead of setting a new one (NX: only a key without TTL; LT: only a
   * shorter one; https://redis.io/docs/latest/commands/expire/). Absent on a plain EXPIRE, which
   * always sets the TTL it names (a restart of the key's TTL).
   */
  conditionalExpiry?: true;
  /**
   * Two options that exclude each other (SET ... KEEPTTL EX 10, SET ... NX XX): Redis answers
   * "ERR syntax error" (https://redis.io/docs/latest/commands/set/). `arg` is the index of the
   * second token, `option` its name and `conflictsWith` the earlier one, upper-cased.
   */
  conflictingOption?: { arg: number; option: string; conflictsWith: string };
  /**
   * A literal argument in an option slot that is no option of the command (`SET key value 300`,
   * the TTL without its `EX`; `SET key value EXPIRE 60`): Redis answers "ERR syntax error" and
   * writes nothing (https://redis.io/docs/latest/commands/set/). `arg` is its index, `token` it
   * as written; `looksLikeTtl` says the token is a value Redis would take after `EX` (a positive
   * integer it parses), most likely a TTL in seconds written without its option. Not set after an
   * option that cannot be read, which may take the value after it. SET and GETEX.
   */
  unknownOption?: { arg: number; token: string; looksLikeTtl: boolean };
  /**
   * A literal argument makes Redis reject the command (a TTL that is not a positive integer for
   * SET/SETEX/PSETEX, a non-integer timeout for the EXPIRE family): inside a script the error
   * aborts the script, keeping the writes made before it.
   */
  rejected?: true;
  /**
   * Like `rejected`, but only when the first key exists: GETEX looks the key up before it checks
   * its expiry, so on a missing key it answers nil and writes nothing (redis-server 7.0:
   * `GETEX missing EX 0` is nil, `GETEX existing EX 0` is "ERR invalid expire time").
   */
  rejectedWhenExists?: true;
  /**
   * EXPIRE / PEXPIRE / EXPIREAT / PEXPIREAT: what a timeout <= 0 (or a time already past) does to
   * the key when it exists (https://redis.io/docs/latest/commands/expire/, checked on redis-server
   * 7.0 and 8.0); the HEXPIRE family and HGETEX: what 0 (or a time already past) does to each
   * named field (https://redis.io/docs/latest/commands/hexpire/, checked on redis-server 8.0.2). `delete`
   * without a condition or with LT (no TTL counts as an infinite TTL, which any time is less than);
   * `delete-if-ttl` with XX; `delete-if-no-ttl` with NX; `nothing` with GT (a time in the past is
   * never greater than a TTL, and no TTL counts as infinite). Absent when the call is rejected.
   */
  pastExpiry?: 'delete' | 'delete-if-ttl' | 'delete-if-no-ttl' | 'nothing';
}
