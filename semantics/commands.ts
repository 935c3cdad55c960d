/**
 * The one table of Redis command semantics that every part of the package reads: what a command
 * does to the TTL of each key it touches. The Lua analyzer, the ESLint rules and the docs use
 * {@link describeCommand}; none of them decides a command's behaviour on its own.
 *
 * Sources: the Redis command reference (https://redis.io/docs/latest/commands/), in particular
 * SET (https://redis.io/docs/latest/commands/set/), GETSET, EXPIRE
 * (https://redis.io/docs/latest/commands/expire/), GETEX, RESTORE, COPY, RENAME, XADD, and
 * `../shared/design/ttl-semantics.md` which summarises them.
 */

import { all, base, EXPIRY_UNITS, expiryLiteral, expiryOption, first, isSecondsTtl, keyless, numeric, removes, upper, type Spec } from './command-spec.js';
import { describeSet } from './set-command.js';
import { REDIS8_TYPE_TABLE } from './redis8-types.js';
import { versionRequirement, type VersionRequirement } from './versions.js';

export { MODULE_NAMESPACES, isRedis8TypeCommand, moduleCommandName } from './redis8-types.js';

/**
 * What a command does to one key's existence and TTL.
 *
 * - `create-in-place`: INCR, HSET, SADD, ...: a missing key is created **without** TTL; an existing
 *   key is modified and keeps its TTL.
 * - `modify-if-present`: LPUSHX, LSET, ZADD XX, ...: never creates; an existing key keeps its TTL.
 * - `create-if-missing`: SETNX, MSETNX, SET ... NX without expiry: creates without TTL; no-op when
 *   the key exists.
 * - `overwrite`: SET without expiry, GETSET, MSET, SUNIONSTORE, ...: creates without TTL, and
 *   **removes** the TTL of an existing key.
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

/**
 * EXPIRE key seconds [NX | XX | GT | LT] and its PEXPIRE / EXPIREAT / PEXPIREAT siblings
 * (https://redis.io/docs/latest/commands/expire/). NX together with XX, GT or LT, and GT together
 * with LT, are rejected ("ERR NX and XX, GT or LT options at the same time are not compatible").
 * A timeout <= 0 deletes the key, but under XX or GT a key without TTL is left alone (XX needs a
 * TTL; GT counts no TTL as infinite), so only a key that had a TTL goes away.
 */
function describeExpire(unit: NonNullable<CommandDescription['ttl']>['unit']) {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    let onlyWithTtl = false;
    let unknownOptions = false;
    const options = new Set<string>();
    for (let i = 2; i < args.length; i++) {
      const token = upper(args[i]);
      if (token === undefined) unknownOptions = true;
      else {
        options.add(token);
        if (token === 'XX' || token === 'GT') onlyWithTtl = true;
      }
    }
    const conflicting = (options.has('NX') && (options.has('XX') || options.has('GT') || options.has('LT'))) || (options.has('GT') && options.has('LT'));
    // Redis parses the timeout as an integer: '1.5', '0.0', '+5' or '60s' is an error that aborts a
    // script, and so is one out of its range (expiryLiteral)
    const literal = expiryLiteral(args[1], unit, 'expire');
    const badValue = literal?.rejected ?? false;
    const rejected = badValue || conflicting;
    // A timeout <= 0 (or a time in the past, which we can only see for literals <= 0) deletes the key.
    const deletes = !badValue && literal?.value !== undefined && literal.value <= 0n;
    const effect: KeyEffect = rejected ? 'read' : onlyWithTtl ? 'set-ttl-if-has-ttl' : deletes ? 'delete' : 'set-ttl';
    const pastExpiry = pastExpiryUnder(options);
    return {
      keys: [{ arg: 0, effect }],
      getDropsTtl: false,
      keepTtl: false,
      unknownOptions,
      ttl: { arg: 1, unit },
      ...(deletes || badValue ? { nonPositiveTtlArg: 1 } : {}),
      ...(rejected ? { rejected: true as const } : { pastExpiry }),
    };
  };
}

/** What an expiry <= 0 does under the condition tokens `options` ({@link CommandDescription.pastExpiry}). */
function pastExpiryUnder(options: ReadonlySet<string>): NonNullable<CommandDescription['pastExpiry']> {
  return options.has('GT') ? 'nothing' : options.has('XX') ? 'delete-if-ttl' : options.has('NX') ? 'delete-if-no-ttl' : 'delete';
}

/** SETEX key seconds value / PSETEX key milliseconds value. */
function describeSetex(unit: 'seconds' | 'milliseconds') {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const bad = expiryLiteral(args[1], unit, 'set')?.rejected ?? false;
    return {
      ...base([{ arg: 0, effect: bad ? 'read' : 'create-with-ttl' }]),
      ttl: { arg: 1, unit },
      ...(bad ? { nonPositiveTtlArg: 1, rejected: true as const } : {}),
    };
  };
}

/**
 * GETEX key [EX s | PX ms | EXAT t | PXAT t | PERSIST] (https://redis.io/docs/latest/commands/getex/:
 * each time "a positive integer"). A literal time that is not one is rejected when the key exists:
 * <= 0 with "ERR invalid expire time in 'getex' command", a fraction or a non-number with "ERR value
 * is not an integer or out of range" (the key keeps its TTL); a missing key answers nil first
 * (checked on redis-server 7.0). A literal that is no option of GETEX (`GETEX key 60`, the text
 * ioredis sends for an object, `GETEX key [object Object]`) is rejected whether the key exists or
 * not: the options are parsed before the key is looked up ("ERR syntax error", `t_string.c`
 * getexCommand / parseExtendedStringArgumentsOrReply); nothing is read or changed. Not judged
 * after an option that cannot be read, which may take the value after it.
 */
function describeGetex(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  let effect: KeyEffect = 'read';
  let ttl: CommandDescription['ttl'];
  let ttlOption: string | undefined;
  let unknownOptions = false;
  let nonPositiveTtlArg: number | undefined;
  let unknownOption: CommandDescription['unknownOption'];
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    const token = typeof arg === 'number' ? String(arg) : upper(arg);
    if (token === undefined) unknownOptions = true;
    else if (token === 'PERSIST') effect = 'remove-ttl';
    else if (token in EXPIRY_UNITS) {
      effect = 'set-ttl';
      const option = expiryOption(args, i, token as keyof typeof EXPIRY_UNITS);
      ttl = option.ttl;
      ttlOption = token;
      if (option.bad) nonPositiveTtlArg = i + 1;
      i++;
    } else if (!unknownOptions) unknownOption ??= { arg: i, token: typeof arg === 'number' ? String(arg) : (arg as string), looksLikeTtl: isSecondsTtl(arg) };
  }
  // a syntax error: the key is neither read nor touched
  if (unknownOption) return { ...base([{ arg: 0, effect: 'read' }]), unknownOptions, unknownOption, rejected: true };
  return {
    ...base([{ arg: 0, effect }]),
    unknownOptions,
    ...(ttl ? { ttl, ttlOption } : {}),
    ...(nonPositiveTtlArg !== undefined ? { nonPositiveTtlArg, rejectedWhenExists: true as const } : {}),
  };
}

/**
 * The field names of a `FIELDS numfields field [field ...]` block starting at or after `from`
 * (`step` 2 when each field is followed by its value, HSETEX), or `'unknown'` when the block
 * cannot be read (no literal FIELDS token or count).
 */
function fieldsBlock(args: readonly CommandArg[], from: number, step: 1 | 2): { fields: number[] | 'unknown'; at: number } {
  for (let i = from; i < args.length; i++) {
    if (upper(args[i]) !== 'FIELDS') continue;
    const count = numeric(args[i + 1]);
    if (count === undefined || !Number.isInteger(count) || count < 1) return { fields: 'unknown', at: i };
    const fields: number[] = [];
    for (let k = 0; k < count && i + 2 + k * step < args.length; k++) fields.push(i + 2 + k * step);
    return { fields, at: i };
  }
  return { fields: 'unknown', at: args.length };
}

/**
 * HEXPIRE key seconds [NX | XX | GT | LT] FIELDS numfields field ... and HPEXPIRE / HEXPIREAT /
 * HPEXPIREAT (Redis 7.4, https://redis.io/docs/latest/commands/hexpire/): sets the TTL of the
 * named fields that exist; the key's own TTL is untouched. Checked on redis-server 8.0.2: 0 (or a
 * time in the past) deletes the fields (reply 2), and the hash with its last field; a negative or
 * fractional value is rejected ("invalid expire time, must be >= 0", "value is not an integer");
 * under XX or GT a field without TTL keeps having none.
 */
function describeHashExpire(unit: TtlUnit) {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const { fields, at } = fieldsBlock(args, 2, 1);
    let unknownOptions = false;
    const options = new Set<string>();
    for (let i = 2; i < Math.min(at, args.length); i++) {
      const token = upper(args[i]);
      if (token === undefined) unknownOptions = true;
      else options.add(token);
    }
    const onlyWithTtl = options.has('XX') || options.has('GT');
    const literal = expiryLiteral(args[1], unit, 'hash');
    const rejected = (literal?.rejected ?? false) || (literal?.value !== undefined && literal.value < 0n);
    const deletes = literal?.value === 0n;
    return {
      keys: [{ arg: 0, effect: 'read', ...(deletes ? { mayDelete: true as const } : {}), fields: { args: fields, ttl: deletes ? 'delete' : onlyWithTtl ? 'set-if-has-ttl' : 'set' } }],
      getDropsTtl: false,
      keepTtl: false,
      unknownOptions,
      ttl: { arg: 1, unit },
      ...(deletes || rejected ? { nonPositiveTtlArg: 1 } : {}),
      ...(rejected ? { rejected: true as const } : { pastExpiry: pastExpiryUnder(options) }),
    };
  };
}

/**
 * The options of HSETEX / HGETEX before their FIELDS block: the condition and PERSIST / KEEPTTL
 * tokens, the expiry option with its argument index, unit and literal value.
 */
function hashFieldOptions(args: readonly CommandArg[]): {
  tokens: Set<string>;
  ttl?: NonNullable<CommandDescription['ttl']>;
  ttlOption?: string;
  value?: number;
  /** The expiry argument is a literal that is not an integer Redis parses (`'60s'`, `'60.0'`, `'+5'`). */
  notNumeric: boolean;
  unknownOptions: boolean;
  /** Where the FIELDS block starts (the argument count when there is none). */
  fieldsAt: number;
} {
  const tokens = new Set<string>();
  let ttl: NonNullable<CommandDescription['ttl']> | undefined;
  let ttlOption: string | undefined;
  let value: number | undefined;
  let notNumeric = false;
  let unknownOptions = false;
  let i = 1;
  for (; i < args.length; i++) {
    const token = upper(args[i]);
    if (token === undefined) {
      unknownOptions = true;
      continue;
    }
    if (token === 'FIELDS') break;
    if (token in EXPIRY_UNITS) {
      ttl = { arg: i + 1, unit: EXPIRY_UNITS[token as keyof typeof EXPIRY_UNITS] };
      ttlOption = token;
      // Redis's integer parse (expiryLiteral): '60.0', '+5' or '60s' is not a number here
      const literal = expiryLiteral(args[i + 1], ttl.unit, 'hash');
      value = literal?.value !== undefined ? Number(literal.value) : undefined;
      notNumeric = literal?.rejected ?? false;
      i++;
    } else tokens.add(token);
  }
  return { tokens, ...(ttl ? { ttl, ttlOption: ttlOption! } : {}), ...(value !== undefined ? { value } : {}), notNumeric, unknownOptions, fieldsAt: i };
}

/**
 * HSETEX key [FNX | FXX] [EX s | PX ms | EXAT t | PXAT t | KEEPTTL] FIELDS numfields field value ...
 * (Redis 8.0, https://redis.io/docs/latest/commands/hsetex/): writes the fields, with that TTL,
 * keeping their TTL (KEEPTTL), or clearing it (no option). A missing key is created without a key
 * TTL (FXX: never created). Checked on redis-server 8.0.2: EX 0 or a past EXAT writes nothing that
 * stays; a negative or fractional TTL is rejected.
 */
function describeHsetex(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  const { tokens, ttl, ttlOption, value, notNumeric, unknownOptions, fieldsAt } = hashFieldOptions(args);
  const bad = notNumeric || (value !== undefined && (value < 0 || !Number.isInteger(value)));
  const zero = value === 0;
  const { fields } = fieldsBlock(args, fieldsAt, 2);
  const fieldTtl: FieldTtlEffect = ttl ? (zero ? 'delete' : 'set') : tokens.has('KEEPTTL') ? 'keep' : 'clear';
  const effect: KeyEffect = bad ? 'read' : tokens.has('FXX') ? 'modify-if-present' : ttl || unknownOptions ? 'create-with-field-ttl' : 'create-in-place';
  return {
    keys: [{ arg: 0, effect, fields: { args: fields, ttl: fieldTtl, ...(tokens.has('FNX') || tokens.has('FXX') ? { allOrNone: true as const } : {}) } }],
    getDropsTtl: false,
    keepTtl: false,
    unknownOptions,
    ...(ttl ? { ttl, ttlOption } : {}),
    ...((bad || zero) && ttl ? { nonPositiveTtlArg: ttl.arg } : {}),
    ...(bad ? { rejected: true as const } : {}),
  };
}

/**
 * HGETEX key [EX s | PX ms | EXAT t | PXAT t | PERSIST] FIELDS numfields field ... (Redis 8.0,
 * https://redis.io/docs/latest/commands/hgetex/): returns the fields and sets or removes their
 * TTLs; never creates the key. A negative or fractional TTL is rejected; 0 deletes the fields.
 */
function describeHgetex(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  const { tokens, ttl, ttlOption, value, unknownOptions, fieldsAt } = hashFieldOptions(args);
  const fieldTtl: FieldTtlEffect | undefined = ttl ? (value === 0 ? 'delete' : 'set') : tokens.has('PERSIST') ? 'remove' : undefined;
  const rejected = value !== undefined && (value < 0 || !Number.isInteger(value));
  const { fields } = fieldsBlock(args, fieldsAt, 1);
  return {
    keys: [{ arg: 0, effect: 'read', ...(fieldTtl === 'delete' ? { mayDelete: true as const } : {}), ...(fieldTtl ? { fields: { args: fields, ttl: fieldTtl } } : {}) }],
    getDropsTtl: false,
    keepTtl: false,
    unknownOptions,
    ...(ttl ? { ttl, ttlOption } : {}),
    ...(ttl && value !== undefined && value <= 0 ? { nonPositiveTtlArg: ttl.arg } : {}),
    // no condition: 0 or a time already past deletes the named fields (checked on redis-server 8.0.2)
    ...(rejected ? { rejected: true as const } : ttl ? { pastExpiry: 'delete' as const } : {}),
  };
}

/** HPERSIST key FIELDS numfields field ... (Redis 7.4): the named fields lose their TTL. */
function describeHpersist(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  return base([{ arg: 0, effect: 'read', fields: { args: fieldsBlock(args, 1, 1).fields, ttl: 'remove' } }]);
}

/**
 * A hash write whose field names sit at `first`, `first + step`, ... (HSET key f v f v: 1, 3; HDEL
 * key f f: 1, 2). An argument that stands for several (a spread) is the front end's to notice.
 */
function hashWrite(effect: KeyEffect, fieldTtl: FieldTtlEffect, first: number, step: number, single = false, mayDelete = false) {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const fields: number[] = [];
    for (let i = first; i < args.length && !(single && fields.length === 1); i += step) fields.push(i);
    return base([{ arg: 0, effect, ...(mayDelete ? { mayDelete: true as const } : {}), fields: { args: fields, ttl: fieldTtl } }]);
  };
}

/** Commands whose options decide whether they may create the key (ZADD XX, GEOADD XX, XADD NOMKSTREAM). */
function createUnless(...tokens: string[]) {
  const set = new Set(tokens);
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const present = args.slice(1).some((arg) => set.has(upper(arg) ?? ''));
    return base([{ arg: 0, effect: present ? 'modify-if-present' : 'create-in-place' }]);
  };
}

/** A destination key at `dest` that is overwritten, the others read (SUNIONSTORE dest key ...). */
function storeAt(dest: number, effect: KeyEffect = 'overwrite', sources: 'rest' | 'numkeys' = 'rest', storeOf?: KeyAction['storeOf']) {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const keys: KeyAction[] = [{ arg: dest, effect, ...(storeOf ? { storeOf } : {}) }];
    if (sources === 'rest') {
      for (let i = dest + 1; i < args.length; i++) keys.push({ arg: i, effect: 'read' });
    } else {
      const count = numeric(args[dest + 1]) ?? 0;
      for (let i = 0; i < count && dest + 2 + i < args.length; i++) keys.push({ arg: dest + 2 + i, effect: 'read' });
    }
    return base(keys);
  };
}

/** SRC DST: the source read or modified, the destination created in place (LMOVE, RPOPLPUSH). */
function moveTo(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  void args;
  return base([
    { arg: 0, effect: 'modify-if-present', mayDelete: true },
    { arg: 1, effect: 'create-in-place', onlyWithSource: 0 },
  ]);
}

/** SMOVE source destination member: as {@link moveTo}, but the source may lack the member. */
function smoveTo(): Omit<CommandDescription, 'name' | 'known'> {
  return base([
    { arg: 0, effect: 'modify-if-present', mayDelete: true },
    { arg: 1, effect: 'create-in-place', onlyWithSource: 0, onlyWithMember: true },
  ]);
}

/** The key after a STORE / STOREDIST token (GEORADIUS, SORT). */
function storeOption(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  const keys: KeyAction[] = [{ arg: 0, effect: 'read' }];
  let unknownOptions = false;
  for (let i = 1; i < args.length; i++) {
    const token = upper(args[i]);
    if (token === undefined) unknownOptions = true;
    if ((token === 'STORE' || token === 'STOREDIST') && i + 1 < args.length) {
      keys.push({ arg: i + 1, effect: 'overwrite' });
      i++;
    }
  }
  return { ...base(keys), unknownOptions };
}

/** RENAME / RENAMENX src dst: raises when src is missing; the destination takes the source's TTL. */
const transfer =
  (onlyIfMissing: boolean) =>
  (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    void args;
    return base([
      { arg: 0, effect: 'delete', mustExist: true },
      { arg: 1, effect: 'transfer-ttl', sourceArg: 0, ...(onlyIfMissing ? { onlyIfMissing: true as const } : {}) },
    ]);
  };


/** `numkeys key ...` from argument `at` (ZDIFF, ZINTER, ZUNION, SINTERCARD, ZINTERCARD, LMPOP, ZMPOP). */
function numkeysAt(at: number, effect: KeyEffect, extra: Partial<KeyAction> = {}) {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const count = numeric(args[at]) ?? 0;
    const keys: KeyAction[] = [];
    for (let i = 0; i < count && at + 1 + i < args.length; i++) keys.push({ arg: at + 1 + i, effect, ...extra });
    return base(keys);
  };
}

/** XREAD / XREADGROUP ... STREAMS key ... id ...: the keys are the first half after STREAMS. */
function streamsKeys(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  const at = args.findIndex((a) => upper(a) === 'STREAMS');
  if (at < 0) return base([]);
  const rest = args.length - at - 1;
  const keys: KeyAction[] = [];
  for (let i = 0; i < Math.floor(rest / 2); i++) keys.push({ arg: at + 1 + i, effect: 'read' });
  return base(keys);
}

/** Removals over several keys (BLPOP k1 k2 timeout): each key may lose its last element. */
const removesFromEach = (last: 'timeout' | 'none'): Spec => ({
  kind: 'custom',
  describe: (args) => base(args.slice(0, last === 'timeout' ? Math.max(0, args.length - 1) : args.length).map((_, arg) => ({ arg, effect: 'modify-if-present' as const, mayDelete: true as const }))),
});

const TABLE: Record<string, Spec> = {
  // create-or-modify in place
  INCR: first('create-in-place'),
  INCRBY: first('create-in-place'),
  INCRBYFLOAT: first('create-in-place'),
  DECR: first('create-in-place'),
  DECRBY: first('create-in-place'),
  APPEND: first('create-in-place'),
  SETRANGE: first('create-in-place'),
  SETBIT: first('create-in-place'),
  BITFIELD: {
    kind: 'custom',
    describe: (args) => {
      const writes = args.slice(1).some((a) => ['SET', 'INCRBY'].includes(upper(a) ?? ''));
      const unknown = args.slice(1).some((a) => a === undefined);
      return { ...base([{ arg: 0, effect: writes || unknown ? 'create-in-place' : 'read' }]), unknownOptions: unknown };
    },
  },
  HSET: { kind: 'custom', describe: hashWrite('create-in-place', 'clear', 1, 2) },
  HMSET: { kind: 'custom', describe: hashWrite('create-in-place', 'clear', 1, 2) },
  HSETNX: { kind: 'custom', describe: hashWrite('create-in-place', 'clear', 1, 2, true) },
  HINCRBY: { kind: 'custom', describe: hashWrite('create-in-place', 'keep', 1, 2, true) },
  HINCRBYFLOAT: { kind: 'custom', describe: hashWrite('create-in-place', 'keep', 1, 2, true) },
  LPUSH: first('create-in-place'),
  RPUSH: first('create-in-place'),
  SADD: first('create-in-place'),
  ZADD: { kind: 'custom', describe: createUnless('XX') },
  ZINCRBY: first('create-in-place'),
  PFADD: first('create-in-place'),
  GEOADD: { kind: 'custom', describe: createUnless('XX') },
  XADD: { kind: 'custom', describe: createUnless('NOMKSTREAM') },
  XGROUP: {
    kind: 'custom',
    // XGROUP CREATE key group id [MKSTREAM]: the key is the second argument.
    describe: (args) => {
      const sub = upper(args[0]);
      if (sub === 'HELP' || args.length < 2) return base([]);
      const mk = sub === 'CREATE' && args.slice(2).some((a) => upper(a) === 'MKSTREAM');
      return base([{ arg: 1, effect: mk ? 'create-in-place' : 'read' }]);
    },
  },
  SMOVE: { kind: 'custom', describe: smoveTo },
  LMOVE: { kind: 'custom', describe: moveTo },
  BLMOVE: { kind: 'custom', describe: moveTo },
  RPOPLPUSH: { kind: 'custom', describe: moveTo },
  BRPOPLPUSH: { kind: 'custom', describe: moveTo },
  PFMERGE: { kind: 'custom', describe: storeAt(0, 'create-in-place') },

  // modify only if present
  LPUSHX: first('modify-if-present'),
  RPUSHX: first('modify-if-present'),
  LINSERT: first('modify-if-present'),
  LSET: first('modify-if-present'),
  LREM: removes,
  LTRIM: removes,
  LPOP: removes,
  RPOP: removes,
  SREM: removes,
  SPOP: removes,
  ZREM: removes,
  ZREMRANGEBYSCORE: removes,
  ZREMRANGEBYRANK: removes,
  ZREMRANGEBYLEX: removes,
  ZPOPMIN: removes,
  ZPOPMAX: removes,
  HDEL: { kind: 'custom', describe: hashWrite('modify-if-present', 'delete', 1, 1, false, true) },
  XDEL: first('modify-if-present'),
  XTRIM: first('modify-if-present'),
  XACK: first('modify-if-present'),
  XCLAIM: first('modify-if-present'),
  XAUTOCLAIM: first('modify-if-present'),
  XSETID: first('modify-if-present'),
  // hash-field expiration (Redis 7.4 / 8.0): field TTLs, the key's own TTL untouched
  HEXPIRE: { kind: 'custom', describe: describeHashExpire('seconds') },
  HPEXPIRE: { kind: 'custom', describe: describeHashExpire('milliseconds') },
  HEXPIREAT: { kind: 'custom', describe: describeHashExpire('unix-seconds') },
  HPEXPIREAT: { kind: 'custom', describe: describeHashExpire('unix-milliseconds') },
  HPERSIST: { kind: 'custom', describe: describeHpersist },
  HGETEX: { kind: 'custom', describe: describeHgetex },
  HSETEX: { kind: 'custom', describe: describeHsetex },
  HGETDEL: {
    kind: 'custom',
    describe: (args) => base([{ arg: 0, effect: 'modify-if-present', mayDelete: true, fields: { args: fieldsBlock(args, 1, 1).fields, ttl: 'delete' } }]),
  },

  // create only if missing
  SETNX: first('create-if-missing'),
  MSETNX: { kind: 'pairs', effect: 'create-if-missing' },

  // overwrite, TTL cleared
  SET: { kind: 'custom', describe: describeSet },
  GETSET: {
    kind: 'custom',
    describe: () => ({ ...base([{ arg: 0, effect: 'overwrite' }]), getDropsTtl: true }),
  },
  MSET: { kind: 'pairs', effect: 'overwrite' },
  SUNIONSTORE: { kind: 'custom', describe: storeAt(0, 'overwrite', 'rest', 'union') },
  SINTERSTORE: { kind: 'custom', describe: storeAt(0, 'overwrite', 'rest', 'intersection') },
  SDIFFSTORE: { kind: 'custom', describe: storeAt(0, 'overwrite', 'rest', 'difference') },
  ZUNIONSTORE: { kind: 'custom', describe: storeAt(0, 'overwrite', 'numkeys', 'union') },
  ZINTERSTORE: { kind: 'custom', describe: storeAt(0, 'overwrite', 'numkeys', 'intersection') },
  ZDIFFSTORE: { kind: 'custom', describe: storeAt(0, 'overwrite', 'numkeys', 'difference') },
  ZRANGESTORE: {
    kind: 'custom',
    describe: () =>
      base([
        { arg: 0, effect: 'overwrite' },
        { arg: 1, effect: 'read' },
      ]),
  },
  GEOSEARCHSTORE: {
    kind: 'custom',
    describe: () =>
      base([
        { arg: 0, effect: 'overwrite' },
        { arg: 1, effect: 'read' },
      ]),
  },
  GEORADIUS: { kind: 'custom', describe: storeOption },
  GEORADIUSBYMEMBER: { kind: 'custom', describe: storeOption },
  SORT: { kind: 'custom', describe: storeOption },
  BITOP: { kind: 'custom', describe: storeAt(1) },
  RESTORE: {
    kind: 'custom',
    // RESTORE key ttl payload [REPLACE] [ABSTTL] ...: ttl 0 = no TTL, a negative one is rejected ("Invalid
    // TTL value, must be >= 0", redis-server 7.0) (https://redis.io/docs/latest/commands/restore/)
    describe: (args) => {
      const ttl = numeric(args[1]);
      const absTtl = args.slice(3).some((a) => upper(a) === 'ABSTTL');
      const rejected = ttl !== undefined && (ttl < 0 || !Number.isInteger(ttl));
      const effect: KeyEffect = rejected ? 'read' : ttl === 0 ? 'overwrite' : 'create-with-ttl';
      return {
        ...base([{ arg: 0, effect }]),
        unknownOptions: ttl === undefined,
        ttl: { arg: 1, unit: absTtl ? 'unix-milliseconds' : 'milliseconds' },
        ...(rejected ? { nonPositiveTtlArg: 1, rejected: true as const } : {}),
      };
    },
  },

  // TTL taken from elsewhere
  RENAME: { kind: 'custom', describe: transfer(false) },
  RENAMENX: { kind: 'custom', describe: transfer(true) },
  COPY: {
    kind: 'custom',
    // COPY src dst [DB n] [REPLACE]: nothing happens when src is missing, or dst exists without REPLACE.
    describe: (args) => {
      const replace = args.slice(2).some((a) => upper(a) === 'REPLACE');
      const unknown = args.slice(2).some((a) => a === undefined);
      return {
        ...base([
          { arg: 0, effect: 'read' },
          { arg: 1, effect: 'transfer-ttl', sourceArg: 0, ...(replace || unknown ? {} : { onlyIfMissing: true as const }) },
        ]),
        unknownOptions: unknown,
      };
    },
  },

  // sets a TTL
  SETEX: { kind: 'custom', describe: describeSetex('seconds') },
  PSETEX: { kind: 'custom', describe: describeSetex('milliseconds') },
  EXPIRE: { kind: 'custom', describe: describeExpire('seconds') },
  PEXPIRE: { kind: 'custom', describe: describeExpire('milliseconds') },
  EXPIREAT: { kind: 'custom', describe: describeExpire('unix-seconds') },
  PEXPIREAT: { kind: 'custom', describe: describeExpire('unix-milliseconds') },
  GETEX: { kind: 'custom', describe: describeGetex },

  // removes TTL
  PERSIST: first('remove-ttl'),

  // deletes
  DEL: all('delete'),
  UNLINK: all('delete'),
  GETDEL: first('delete'),

  // reads (keys listed so that key-must-come-from-keys can check them)
  GET: first('read'),
  MGET: all('read'),
  STRLEN: first('read'),
  GETRANGE: first('read'),
  GETBIT: first('read'),
  BITCOUNT: first('read'),
  BITPOS: first('read'),
  BITFIELD_RO: first('read'),
  EXISTS: all('read'),
  TYPE: first('read'),
  TTL: first('read'),
  PTTL: first('read'),
  EXPIRETIME: first('read'),
  PEXPIRETIME: first('read'),
  TOUCH: all('read'),
  OBJECT: {
    kind: 'custom',
    describe: (args) => base(args.length > 1 ? [{ arg: 1, effect: 'read' }] : []),
  },
  DUMP: first('read'),
  HGET: first('read'),
  HMGET: first('read'),
  HGETALL: first('read'),
  HKEYS: first('read'),
  HVALS: first('read'),
  HLEN: first('read'),
  HEXISTS: first('read'),
  HSTRLEN: first('read'),
  HRANDFIELD: first('read'),
  HSCAN: first('read'),
  HTTL: first('read'),
  HPTTL: first('read'),
  HEXPIRETIME: first('read'),
  HPEXPIRETIME: first('read'),
  LLEN: first('read'),
  LRANGE: first('read'),
  LINDEX: first('read'),
  LPOS: first('read'),
  SCARD: first('read'),
  SMEMBERS: first('read'),
  SISMEMBER: first('read'),
  SMISMEMBER: first('read'),
  SRANDMEMBER: first('read'),
  SSCAN: first('read'),
  SINTER: all('read'),
  SUNION: all('read'),
  SDIFF: all('read'),
  ZCARD: first('read'),
  ZCOUNT: first('read'),
  ZLEXCOUNT: first('read'),
  ZSCORE: first('read'),
  ZMSCORE: first('read'),
  ZRANK: first('read'),
  ZREVRANK: first('read'),
  ZRANGE: first('read'),
  ZREVRANGE: first('read'),
  ZRANGEBYSCORE: first('read'),
  ZREVRANGEBYSCORE: first('read'),
  ZRANGEBYLEX: first('read'),
  ZREVRANGEBYLEX: first('read'),
  ZRANDMEMBER: first('read'),
  ZSCAN: first('read'),
  PFCOUNT: all('read'),
  GEOPOS: first('read'),
  GEODIST: first('read'),
  GEOHASH: first('read'),
  GEOSEARCH: first('read'),
  GEORADIUS_RO: first('read'),
  GEORADIUSBYMEMBER_RO: first('read'),
  SORT_RO: first('read'),
  XLEN: first('read'),
  XRANGE: first('read'),
  XREVRANGE: first('read'),
  XPENDING: first('read'),
  XINFO: { kind: 'custom', describe: (args) => base(args.length > 1 ? [{ arg: 1, effect: 'read' }] : []) },
  // core commands besides (https://redis.io/docs/latest/commands/)
  SUBSTR: first('read'),
  LCS: { kind: 'custom', describe: () => base([{ arg: 0, effect: 'read' }, { arg: 1, effect: 'read' }]) },
  SINTERCARD: { kind: 'custom', describe: numkeysAt(0, 'read') },
  ZINTERCARD: { kind: 'custom', describe: numkeysAt(0, 'read') },
  ZDIFF: { kind: 'custom', describe: numkeysAt(0, 'read') },
  ZINTER: { kind: 'custom', describe: numkeysAt(0, 'read') },
  ZUNION: { kind: 'custom', describe: numkeysAt(0, 'read') },
  XREAD: { kind: 'custom', describe: streamsKeys },
  XREADGROUP: { kind: 'custom', describe: streamsKeys },
  // pops over several keys: each may lose its last element (in a script they never block)
  LMPOP: { kind: 'custom', describe: numkeysAt(0, 'modify-if-present', { mayDelete: true }) },
  ZMPOP: { kind: 'custom', describe: numkeysAt(0, 'modify-if-present', { mayDelete: true }) },
  BLMPOP: { kind: 'custom', describe: numkeysAt(1, 'modify-if-present', { mayDelete: true }) },
  BZMPOP: { kind: 'custom', describe: numkeysAt(1, 'modify-if-present', { mayDelete: true }) },
  BLPOP: removesFromEach('timeout'),
  BRPOP: removesFromEach('timeout'),
  BZPOPMIN: removesFromEach('timeout'),
  BZPOPMAX: removesFromEach('timeout'),
  // MOVE key db: the key leaves this database (with its TTL) when the other has none of that name
  MOVE: { kind: 'custom', describe: () => base([{ arg: 0, effect: 'modify-if-present', mayDelete: true }]) },
  'MEMORY': { kind: 'custom', describe: (args) => base(args.length > 1 && upper(args[0]) === 'USAGE' ? [{ arg: 1, effect: 'read' }] : []) },

  // commands without keys
  TIME: { kind: 'custom', describe: () => base([]) },
  PING: { kind: 'custom', describe: () => base([]) },
  ECHO: { kind: 'custom', describe: () => base([]) },
  PUBLISH: { kind: 'custom', describe: () => base([]) },
  SPUBLISH: { kind: 'custom', describe: () => base([]) },
  DBSIZE: { kind: 'custom', describe: () => base([]) },
  RANDOMKEY: { kind: 'custom', describe: () => base([]) },
  INFO: { kind: 'custom', describe: () => base([]) },
  SCAN: { kind: 'custom', describe: () => base([]) },
  SELECT: { kind: 'custom', describe: () => base([]) },
  CONFIG: { kind: 'custom', describe: () => base([]) },
  CLUSTER: { kind: 'custom', describe: () => base([]) },
  COMMAND: keyless,
  KEYS: keyless,
  LASTSAVE: keyless,
  LATENCY: keyless,
  LOLWUT: keyless,
  PUBSUB: keyless,
  ROLE: keyless,
  SLOWLOG: keyless,
  WAIT: keyless,
  WAITAOF: keyless,
  READONLY: keyless,
  READWRITE: keyless,
  ASKING: keyless,
  SCRIPT: keyless,
  FUNCTION: keyless,
  ACL: keyless,
  CLIENT: keyless,
  DEBUG: keyless,
  MULTI: keyless,
  EXEC: keyless,
  DISCARD: keyless,
  WATCH: keyless,
  UNWATCH: keyless,
  MONITOR: keyless,
  SAVE: keyless,
  BGSAVE: keyless,
  BGREWRITEAOF: keyless,
  FLUSHDB: keyless,
  FLUSHALL: keyless,
  SWAPDB: keyless,
  HELLO: keyless,
  AUTH: keyless,
  RESET: keyless,
  QUIT: keyless,
  SHUTDOWN: keyless,
  FAILOVER: keyless,
  REPLICAOF: keyless,
  SLAVEOF: keyless,
  MODULE: keyless,
  SUBSCRIBE: keyless,
  UNSUBSCRIBE: keyless,
  PSUBSCRIBE: keyless,
  PUNSUBSCRIBE: keyless,
  SSUBSCRIBE: keyless,
  SUNSUBSCRIBE: keyless,
  EVAL: keyless,
  EVALSHA: keyless,
  EVAL_RO: keyless,
  EVALSHA_RO: keyless,
  FCALL: keyless,
  FCALL_RO: keyless,
  MIGRATE: keyless,
  PFDEBUG: keyless,
  PFSELFTEST: keyless,
  PSYNC: keyless,
  SYNC: keyless,
  REPLCONF: keyless,
  'RESTORE-ASKING': keyless,
  // Redis 8's own data types (JSON, time series, the probabilistic types, vector sets)
  ...REDIS8_TYPE_TABLE,
};

/**
 * Describes what one call of a Redis command does to the keys it touches.
 *
 * @param name the command name in any letter case (`'set'`, `'SET'`); module commands keep their
 *   dot (`'JSON.SET'`).
 * @param args the command's arguments after the name, literal where known, `undefined` where not.
 * @returns the description; for a command that is not in the table, `known` is `false` and
 *   `keys` is empty. Never throws.
 */
export function describeCommand(name: string, args: readonly CommandArg[]): CommandDescription {
  const upperName = name.toUpperCase();
  const spec = Object.prototype.hasOwnProperty.call(TABLE, upperName) ? TABLE[upperName] : undefined;
  if (!spec) return { name: upperName, known: false, keys: [], getDropsTtl: false, keepTtl: false, unknownOptions: false };
  let described: Omit<CommandDescription, 'name' | 'known'>;
  switch (spec.kind) {
    case 'first':
      described = base(args.length > 0 ? [{ arg: 0, effect: spec.effect }] : []);
      break;
    case 'all':
      described = base(args.map((_, arg) => ({ arg, effect: spec.effect })));
      break;
    case 'pairs': {
      const keys: KeyAction[] = [];
      for (let arg = 0; arg < args.length; arg += 2) keys.push({ arg, effect: spec.effect });
      described = base(keys);
      break;
    }
    case 'custom':
      described = spec.describe(args);
      break;
  }
  const out = described as CommandDescription;
  out.name = upperName;
  out.known = true;
  const requires = versionRequirement(upperName, args);
  if (requires) out.requires = requires;
  return out;
}

/**
 * Whether one call of the command names several keys of the same effect: key value pairs (MSET,
 * MSETNX) or keys only (DEL, EXISTS, ...). https://redis.io/docs/latest/commands/mset/
 * @param name the command name in any letter case
 */
export function namesSeveralKeys(name: string): boolean {
  const upperName = name.toUpperCase();
  const spec = Object.prototype.hasOwnProperty.call(TABLE, upperName) ? TABLE[upperName] : undefined;
  return spec?.kind === 'pairs' || spec?.kind === 'all';
}


/**
 * Whether the command's arguments are `key value` pairs, a key at every even position (MSET,
 * MSETNX). https://redis.io/docs/latest/commands/mset/
 * @param name the command name in any letter case
 */
export function namesKeyValuePairs(name: string): boolean {
  const upperName = name.toUpperCase();
  return Object.prototype.hasOwnProperty.call(TABLE, upperName) && TABLE[upperName]?.kind === 'pairs';
}

/**
 * Whether the command's arguments after the key are `field value` pairs (HSET key field value
 * [field value ...], https://redis.io/docs/latest/commands/hset/; HMSET likewise,
 * https://redis.io/docs/latest/commands/hmset/). Clients take them as an object too
 * (`hset(key, { field: value })`: ioredis, node-redis, @upstash/redis).
 * @param name the command name in any letter case
 */
export function namesFieldValuePairs(name: string): boolean {
  return FIELD_VALUE_PAIRS.has(name.toUpperCase());
}

const FIELD_VALUE_PAIRS: ReadonlySet<string> = new Set(['HSET', 'HMSET']);

/** Whether a command name is in the table (any letter case). */
export function isKnownCommand(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(TABLE, name.toUpperCase());
}

/** Effects that can leave a key without TTL: the key may be created without one or lose it. */
export const EFFECTS_THAT_CAN_LEAVE_NO_TTL: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-in-place',
  'create-if-missing',
  'overwrite',
  'clear-ttl-if-present',
  'keep-ttl',
  'remove-ttl',
]);

/**
 * Effects that write the key: every effect but reads, deletions and expiries of an existing key
 * (what a key inventory lists as a write site with a TTL status).
 */
export const WRITE_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-in-place',
  'create-if-missing',
  'overwrite',
  'clear-ttl-if-present',
  'transfer-ttl',
  'create-with-ttl',
  'create-if-missing-with-ttl',
  'keep-ttl',
  'remove-ttl',
  'create-with-field-ttl',
]);

/**
 * Effects that write the key without a TTL of the command's own (a new key, or an overwrite that
 * clears the old TTL): the key lives forever unless something expires it. `keep-ttl` and
 * `remove-ttl` are not here: the first keeps whatever TTL there was, the second removes it on purpose.
 */
export const EFFECTS_THAT_WRITE_WITHOUT_TTL: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-in-place',
  'create-if-missing',
  'overwrite',
  'clear-ttl-if-present',
]);

/**
 * Writes that can take a lock and carry its owner's value right after each key: SET (with NX),
 * SETNX, GETSET (the old GETSET lock) and MSETNX (several keys at once, all or none, each key's
 * value after it). MSET is not one: it cannot fail on a held key, so it takes no lock
 * (https://redis.io/docs/latest/commands/setnx/, https://redis.io/docs/latest/commands/msetnx/).
 */
export const LOCK_OWNER_WRITES: ReadonlySet<string> = new Set(['SET', 'SETNX', 'GETSET', 'MSETNX']);

/**
 * Effects that delete the whole key, whatever its type: DEL, UNLINK, GETDEL
 * (https://redis.io/docs/latest/commands/del/), an EXPIRE with a literal timeout <= 0. Not HDEL,
 * SREM, ZREM, LREM ..., which remove members (`mayDelete`: the key goes only with its last one).
 */
export const EFFECTS_THAT_DELETE_KEY: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['delete']);

/**
 * The argument index of the key the source key at `arg` is moved to, when the command moves the
 * whole key: RENAME / RENAMENX key newkey ("Renames key to newkey", https://redis.io/docs/latest/commands/rename/,
 * https://redis.io/docs/latest/commands/renamenx/): the source key is gone afterwards, but its
 * value, and its TTL or lack of one, live on under the destination. `undefined` for any other
 * action: a DEL, which ends the value; COPY, whose source stays.
 */
export function movedTo(description: Pick<CommandDescription, 'keys'>, arg: number): number | undefined {
  const source = description.keys.find((key) => key.arg === arg);
  if (!source || !EFFECTS_THAT_DELETE_KEY.has(source.effect)) return undefined;
  return description.keys.find((key) => key.effect === 'transfer-ttl' && key.sourceArg === arg)?.arg;
}

/**
 * Effects after which an existing key still has the TTL it had: `create-in-place` (HSET, HINCRBY,
 * SADD, LPUSH ... on an existing key) and `modify-if-present` (LPUSHX, ZADD XX ...): only the
 * value changes (https://redis.io/docs/latest/commands/expire/: "The timeout will only be cleared
 * by commands that delete or overwrite the contents of the key, including DEL, SET, GETSET and all
 * the *STORE commands ... all the operations that conceptually alter the value stored at the key
 * without replacing it with a new one will leave the timeout untouched"). Not `overwrite` (SET,
 * GETSET, the STORE commands), `clear-ttl-if-present` (SET ... XX) nor `remove-ttl` (PERSIST).
 */
export const EFFECTS_THAT_KEEP_TTL: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['create-in-place', 'modify-if-present']);

/**
 * Commands that create or write a key and take no expiry option: their syntax has no EX / PX /
 * EXAT / PXAT (https://redis.io/docs/latest/commands/hset/, .../lpush/, .../sadd/, .../zadd/,
 * .../mset/, .../incr/, .../hincrby/, .../append/, .../pfadd/, .../setnx/ and their siblings), so
 * TTL tokens a call appends are data (a field and its value, a member) or a syntax error.
 */
export const COMMANDS_WITHOUT_TTL_SYNTAX: ReadonlySet<string> = new Set(['HSET', 'HMSET', 'HSETNX', 'LPUSH', 'RPUSH', 'SADD', 'ZADD', 'MSET', 'INCR', 'INCRBY', 'DECR', 'DECRBY', 'HINCRBY', 'APPEND', 'PFADD', 'INCRBYFLOAT', 'SETNX']);

/** Effects that leave an existing key without the TTL it had: SET, GETSET, the STOREs, SET ... XX, PERSIST. */
export const EFFECTS_THAT_CLEAR_TTL: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['overwrite', 'clear-ttl-if-present', 'remove-ttl']);

/** Effects after which the key certainly has a TTL if it exists. */
export const EFFECTS_THAT_SET_TTL: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-with-ttl',
  'set-ttl',
]);

/**
 * Effects that give a key a TTL (also when only an existing TTL is changed): {@link EFFECTS_THAT_SET_TTL},
 * SET ... NX EX (`create-if-missing-with-ttl`) and EXPIRE ... XX / GT (`set-ttl-if-has-ttl`).
 */
export const EXPIRY_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>([...EFFECTS_THAT_SET_TTL, 'create-if-missing-with-ttl', 'set-ttl-if-has-ttl']);

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
 * for LMOVE since 6.2), also blocking (BRPOPLPUSH and BLMOVE). Each creates or keeps its keys'
 * TTLs exactly as the other does.
 */
const SAME_WRITE_GROUPS: readonly (readonly string[])[] = [
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
