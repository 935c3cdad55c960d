/**
 * The one table of Redis command semantics that every part of the package reads: what a command
 * does to the TTL of each key it touches. The Lua analyzer, the ESLint rules and the docs use
 * {@link describeCommand}; none of them decides a command's behaviour on its own.
 *
 * Sources: the Redis command reference (https://redis.io/docs/latest/commands/), in particular
 * SET (https://redis.io/docs/latest/commands/set/), GETSET, EXPIRE
 * (https://redis.io/docs/latest/commands/expire/), GETEX, RESTORE, COPY, RENAME, XADD, and
 * `../shared/design/ttl-semantics.md` which summarises them.
 *
 * This module holds the table and its lookups; the rest of the package imports everything below
 * from here. What a description says (its types) is `command-description.ts`; the rows that read
 * a TTL argument (EXPIRE, SETEX, GETEX) are `expiry-commands.ts`, SET's `set-command.ts`, the hash
 * field commands' `hash-field-commands.ts`, the rows whose key positions the arguments decide
 * (STORE, numkeys, STREAMS, moves) `key-arguments.ts`, Redis 8's data types `redis8-types.ts`;
 * the groups of key effects (which effects write, clear or set a TTL, delete) are
 * `effect-sets.ts`, and facts about families of commands (locks, counters, writes without TTL
 * syntax, commands that make the same write) `command-families.ts`.
 */

import { all, base, first, keyless, numeric, removes, upper, type Spec } from './command-spec.js';
import type { CommandArg, CommandDescription, KeyAction, KeyEffect } from './command-description.js';
import { describeExpire, describeGetex, describeSetex } from './expiry-commands.js';
import { describeHashExpire, describeHgetex, describeHpersist, describeHsetex, fieldsBlock, hashWrite } from './hash-field-commands.js';
import { createUnless, moveTo, numkeysAt, removesFromEach, smoveTo, storeAt, storeOption, streamsKeys, transfer } from './key-arguments.js';
import { describeSet } from './set-command.js';
import { REDIS8_TYPE_TABLE } from './redis8-types.js';
import { versionRequirement } from './versions.js';

export { MODULE_NAMESPACES, isRedis8TypeCommand, moduleCommandName } from './redis8-types.js';
export type { CommandArg, CommandDescription, FieldAction, FieldTtlEffect, KeyAction, KeyEffect, TtlUnit } from './command-description.js';
export {
  EFFECTS_THAT_CAN_LEAVE_NO_TTL,
  EFFECTS_THAT_CLEAR_TTL,
  EFFECTS_THAT_DELETE_KEY,
  EFFECTS_THAT_EXPIRE_EXISTING_KEY,
  EFFECTS_THAT_KEEP_TTL,
  EFFECTS_THAT_SET_TTL,
  EFFECTS_THAT_WRITE_WITHOUT_TTL,
  EXPIRY_EFFECTS,
  movedTo,
  WRITE_EFFECTS,
} from './effect-sets.js';
export { removingTtlChangesNothing } from './expiry-commands.js';
export { SET_WRITTEN_REPLY } from './set-command.js';
export { COMMANDS_WITHOUT_TTL_SYNTAX, counterStep, INCREMENT_COMMANDS, LOCK_OWNER_WRITES, RECORD_WRITES, sameWriteCommands, STRING_COUNTERS, STRING_IN_PLACE_WRITES, STRING_WHOLE_READS } from './command-families.js';

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
