/**
 * Redis 8's own data types in the command table: JSON, time series, the probabilistic types
 * (Bloom, cuckoo, count-min sketch, top-k, t-digest) and vector sets, each row from its redis.io
 * page (and the modules' sources where the page is silent). None of them takes a key TTL
 * (`TS.CREATE ... RETENTION` ages samples out, the key stays); every creation makes a key without
 * TTL, and an update in place keeps the key's TTL. `commands.ts` merges {@link REDIS8_TYPE_TABLE}
 * into its table and re-exports the names below.
 */

import { base, first, keyless, numeric, removes, upper, type Spec } from './command-spec.js';
import type { CommandArg, CommandDescription, KeyAction } from './commands.js';

/** The JSON root path, in both syntaxes (https://redis.io/docs/latest/develop/data-types/json/path/). */
function isJsonRoot(path: CommandArg): boolean {
  return path === '$' || path === '.';
}

/**
 * A JSON write at `path` of key `key` (JSON.SET, JSON.MERGE, one triple of JSON.MSET): at the root
 * it creates a missing key without TTL and replaces an existing document in place (the key keeps
 * its TTL: RedisJSON's `set_root` writes into the value it holds); below the root a missing key is
 * "ERR new objects must be created at the root". A path that is not a literal may be either.
 */
function jsonWrite(key: number, path: CommandArg): KeyAction {
  if (typeof path === 'string' && !isJsonRoot(path)) return { arg: key, effect: 'modify-if-present', mustExist: true };
  return { arg: key, effect: 'create-in-place', ...(path === undefined ? { rootPathArg: key + 1 } : {}) };
}

/**
 * Whether a JSON path whose start is known is surely not the root: `prefix` is the literal text
 * it starts with (`'$.results['` of `'$.results[' .. id .. ']'`). The root is `$` or `.` alone,
 * so a path longer than one character, or one starting with anything else (a legacy path
 * `user.name` means `.user.name`), is below it.
 */
export function isBelowJsonRoot(prefix: string): boolean {
  return prefix.length >= 2 || (prefix.length === 1 && prefix !== '$' && prefix !== '.');
}

/**
 * `description` with each JSON write whose path is not a literal ({@link KeyAction.rootPathArg})
 * read as an update of a key that must exist where `belowRoot(pathArg)` says its path is surely
 * below the root: JSON.SET (and JSON.MERGE, JSON.MSET) "creates the key only at the root path"
 * and answers "ERR new objects must be created at the root" below it on a missing key
 * (https://redis.io/docs/latest/commands/json.set/, https://redis.io/docs/latest/commands/json.merge/),
 * so such a write never creates a key; it writes inside a document that exists, keeping its TTL.
 * The other actions, and the writes whose path may be the root, are left as they are.
 * @param belowRoot whether the path at this argument index (of the argv after the command name) is below the root
 */
export function jsonWritesBelowRoot(description: CommandDescription, belowRoot: (pathArg: number) => boolean): CommandDescription {
  if (!description.keys.some((action) => action.rootPathArg !== undefined)) return description;
  const keys = description.keys.map((action): KeyAction => (action.rootPathArg !== undefined && belowRoot(action.rootPathArg) ? { arg: action.arg, effect: 'modify-if-present', mustExist: true } : action));
  return keys.every((action, index) => action === description.keys[index]) ? description : { ...description, keys };
}

/**
 * JSON.SET key path value [NX | XX] (https://redis.io/docs/latest/commands/json.set/): XX writes
 * only where the path exists (never creates the key, nil on a missing one); NX at the root writes
 * only a missing key.
 */
function describeJsonSet(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  let nx = false;
  let xx = false;
  let unknownOptions = false;
  for (let i = 3; i < args.length; i++) {
    const token = upper(args[i]);
    if (token === undefined) unknownOptions = true;
    else if (token === 'NX') nx = true;
    else if (token === 'XX') xx = true;
  }
  const action: KeyAction = xx ? { arg: 0, effect: 'modify-if-present' } : nx && isJsonRoot(args[1]) ? { arg: 0, effect: 'create-if-missing' } : jsonWrite(0, args[1]);
  return { ...base([action]), unknownOptions };
}

/**
 * JSON.DEL / JSON.FORGET key [path] (https://redis.io/docs/latest/commands/json.del/): without a
 * path or at the root it deletes the key; below it, deleting the last member of the document
 * deletes the key too (RedisJSON's `json_del`).
 */
function describeJsonDel(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  if (args.length < 2 || isJsonRoot(args[1])) return base([{ arg: 0, effect: 'delete' }]);
  return base([{ arg: 0, effect: 'modify-if-present', mayDelete: true }]);
}

/** `key path value` triples from the first argument on (JSON.MSET, TS.MADD). */
function triples(action: (key: number, args: readonly CommandArg[]) => KeyAction) {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const keys: KeyAction[] = [];
    for (let i = 0; i < args.length; i += 3) keys.push(action(i, args));
    return base(keys);
  };
}

/** A module type's "create" command: a new key without TTL; Redis raises when the key exists. */
const createsNew: Spec = { kind: 'custom', describe: () => base([{ arg: 0, effect: 'create-in-place', mustBeMissing: true }]) };
/** A module type's update: Redis raises on a missing key ("key does not exist"); an existing key keeps its TTL. */
const updatesExisting: Spec = { kind: 'custom', describe: () => base([{ arg: 0, effect: 'modify-if-present', mustExist: true }]) };

/**
 * BF.INSERT / CF.INSERT / CF.INSERTNX key [options] [NOCREATE] ... ITEMS item ...
 * (https://redis.io/docs/latest/commands/bf.insert/, /cf.insert/): creates a missing filter
 * without TTL, unless NOCREATE, which raises on a missing key ("ERR not found").
 */
function describeFilterInsert(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  let noCreate = false;
  let unknownOptions = false;
  for (let i = 1; i < args.length; i++) {
    const token = upper(args[i]);
    if (token === 'ITEMS') break;
    if (token === undefined) unknownOptions = true;
    else if (token === 'NOCREATE') noCreate = true;
  }
  const action: KeyAction = noCreate ? { arg: 0, effect: 'modify-if-present', mustExist: true } : { arg: 0, effect: 'create-in-place' };
  return { ...base([action]), unknownOptions };
}

/**
 * `destination numkeys source ...` (CMS.MERGE, TDIGEST.MERGE): the sources are read, the
 * destination written with `effect`.
 */
function mergeInto(destination: KeyAction['effect'], extra: Partial<KeyAction> = {}) {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const keys: KeyAction[] = [{ arg: 0, effect: destination, ...extra }];
    const count = numeric(args[1]) ?? 0;
    for (let i = 0; i < count && 2 + i < args.length; i++) keys.push({ arg: 2 + i, effect: 'read' });
    return base(keys);
  };
}

/**
 * TDIGEST.MERGE destination numkeys source ... [COMPRESSION c] [OVERRIDE]
 * (https://redis.io/docs/latest/commands/tdigest.merge/): RedisBloom builds a new sketch and
 * stores it with `RedisModule_ModuleTypeSetValue`, which deletes the key first
 * (`RM_DeleteKey`): the destination is created without TTL, and an existing one loses its TTL.
 */
const tdigestMerge: Spec = { kind: 'custom', describe: mergeInto('overwrite') };

/** TS.CREATERULE / TS.DELETERULE source destination ...: both series must exist ("TSDB: the key does not exist"). */
const seriesRule: Spec = {
  kind: 'custom',
  describe: () =>
    base([
      { arg: 0, effect: 'read', mustExist: true },
      { arg: 1, effect: 'modify-if-present', mustExist: true },
    ]),
};

/** The rows of Redis 8's types, by upper-case command name. */
export const REDIS8_TYPE_TABLE: Readonly<Record<string, Spec>> = {
  // Redis 8's own data types (JSON, time series, the probabilistic types, vector sets): none of them
  // takes a key TTL (TS.CREATE ... RETENTION ages samples out, the key stays); every creation makes a
  // key without TTL, and an update in place keeps the key's TTL.
  // JSON (https://redis.io/docs/latest/develop/data-types/json/, RedisJSON's redis_json/src/commands.rs)
  'JSON.SET': { kind: 'custom', describe: describeJsonSet },
  'JSON.MERGE': { kind: 'custom', describe: (args) => base([jsonWrite(0, args[1])]) },
  'JSON.MSET': { kind: 'custom', describe: triples((key, args) => jsonWrite(key, args[key + 1])) },
  'JSON.DEL': { kind: 'custom', describe: describeJsonDel },
  'JSON.FORGET': { kind: 'custom', describe: describeJsonDel },
  'JSON.CLEAR': updatesExisting,
  'JSON.ARRAPPEND': updatesExisting,
  'JSON.ARRINSERT': updatesExisting,
  'JSON.ARRPOP': updatesExisting,
  'JSON.ARRTRIM': updatesExisting,
  'JSON.NUMINCRBY': updatesExisting,
  'JSON.NUMMULTBY': updatesExisting,
  'JSON.NUMPOWBY': updatesExisting,
  'JSON.STRAPPEND': updatesExisting,
  'JSON.TOGGLE': updatesExisting,
  // time series (https://redis.io/docs/latest/develop/data-types/timeseries/): TS.ADD / TS.INCRBY /
  // TS.DECRBY create a missing series; TS.MADD does not (an error per sample, in its reply)
  'TS.CREATE': createsNew,
  'TS.ADD': first('create-in-place'),
  'TS.INCRBY': first('create-in-place'),
  'TS.DECRBY': first('create-in-place'),
  'TS.MADD': { kind: 'custom', describe: triples((key) => ({ arg: key, effect: 'modify-if-present' })) },
  'TS.ALTER': updatesExisting,
  'TS.DEL': updatesExisting,
  'TS.CREATERULE': seriesRule,
  'TS.DELETERULE': seriesRule,
  // Bloom and cuckoo filters (https://redis.io/docs/latest/develop/data-types/probabilistic/)
  'BF.RESERVE': createsNew,
  'BF.ADD': first('create-in-place'),
  'BF.MADD': first('create-in-place'),
  'BF.INSERT': { kind: 'custom', describe: describeFilterInsert },
  'BF.LOADCHUNK': first('create-in-place'),
  'CF.RESERVE': createsNew,
  'CF.ADD': first('create-in-place'),
  'CF.ADDNX': first('create-in-place'),
  'CF.INSERT': { kind: 'custom', describe: describeFilterInsert },
  'CF.INSERTNX': { kind: 'custom', describe: describeFilterInsert },
  'CF.LOADCHUNK': first('create-in-place'),
  'CF.DEL': updatesExisting,
  // count-min sketch, top-k, t-digest: created by their own command only, which raises on an existing key
  'CMS.INITBYDIM': createsNew,
  'CMS.INITBYPROB': createsNew,
  'CMS.INCRBY': updatesExisting,
  'CMS.MERGE': { kind: 'custom', describe: mergeInto('modify-if-present', { mustExist: true }) },
  'TOPK.RESERVE': createsNew,
  'TOPK.ADD': updatesExisting,
  'TOPK.INCRBY': updatesExisting,
  'TDIGEST.CREATE': createsNew,
  'TDIGEST.ADD': updatesExisting,
  'TDIGEST.RESET': updatesExisting,
  'TDIGEST.MERGE': tdigestMerge,
  // vector sets (Redis 8.0, https://redis.io/docs/latest/develop/data-types/vector-sets/; checked on
  // redis-server 8.0.2: VADD creates without TTL and keeps an existing key's, VREM of the last
  // element deletes the key, VSETATTR on a missing key answers 0)
  VADD: first('create-in-place'),
  VREM: removes,
  VSETATTR: first('modify-if-present'),
  // reads
  'JSON.GET': first('read'),
  'JSON.MGET': { kind: 'custom', describe: (args) => base(args.slice(0, Math.max(0, args.length - 1)).map((_, arg) => ({ arg, effect: 'read' as const }))) },
  'JSON.TYPE': first('read'),
  'JSON.STRLEN': first('read'),
  'JSON.ARRLEN': first('read'),
  'JSON.ARRINDEX': first('read'),
  'JSON.OBJKEYS': first('read'),
  'JSON.OBJLEN': first('read'),
  'JSON.RESP': first('read'),
  'JSON.DEBUG': { kind: 'custom', describe: (args) => base(args.length > 1 && upper(args[0]) === 'MEMORY' ? [{ arg: 1, effect: 'read' }] : []) },
  'TS.GET': first('read'),
  'TS.RANGE': first('read'),
  'TS.REVRANGE': first('read'),
  'TS.INFO': first('read'),
  'TS.MGET': keyless,
  'TS.MRANGE': keyless,
  'TS.MREVRANGE': keyless,
  'TS.QUERYINDEX': keyless,
  'BF.EXISTS': first('read'),
  'BF.MEXISTS': first('read'),
  'BF.INFO': first('read'),
  'BF.CARD': first('read'),
  'BF.SCANDUMP': first('read'),
  'CF.EXISTS': first('read'),
  'CF.MEXISTS': first('read'),
  'CF.COUNT': first('read'),
  'CF.INFO': first('read'),
  'CF.SCANDUMP': first('read'),
  'CMS.QUERY': first('read'),
  'CMS.INFO': first('read'),
  'TOPK.QUERY': first('read'),
  'TOPK.COUNT': first('read'),
  'TOPK.LIST': first('read'),
  'TOPK.INFO': first('read'),
  'TDIGEST.QUANTILE': first('read'),
  'TDIGEST.CDF': first('read'),
  'TDIGEST.MIN': first('read'),
  'TDIGEST.MAX': first('read'),
  'TDIGEST.INFO': first('read'),
  'TDIGEST.RANK': first('read'),
  'TDIGEST.REVRANK': first('read'),
  'TDIGEST.BYRANK': first('read'),
  'TDIGEST.BYREVRANK': first('read'),
  'TDIGEST.TRIMMED_MEAN': first('read'),
  VCARD: first('read'),
  VDIM: first('read'),
  VEMB: first('read'),
  VGETATTR: first('read'),
  VINFO: first('read'),
  VISMEMBER: first('read'),
  VLINKS: first('read'),
  VRANDMEMBER: first('read'),
  VSIM: first('read'),
};

/**
 * The command prefix of each of Redis 8's own data types, by the namespace node-redis gives it on a
 * client (`client.json.set(...)`, `client.ts.add(...)`, `client.tDigest.create(...)`; @redis/json,
 * @redis/time-series and @redis/bloom, bundled in `redis` 4 and 5). Vector sets are core commands
 * there (`client.vAdd(...)`), named like the others.
 */
export const MODULE_NAMESPACES: Readonly<Record<string, string>> = {
  json: 'JSON',
  ts: 'TS',
  bf: 'BF',
  cf: 'CF',
  cms: 'CMS',
  topK: 'TOPK',
  tDigest: 'TDIGEST',
};

/** `JSON.ARRAPPEND` by `json` + `arrappend`: module commands by namespace and method name without case or underscores. */
let moduleMethods: Map<string, string> | undefined;

/**
 * The command a node-redis module method sends: `moduleCommandName('json', 'set')` is
 * `'JSON.SET'`, `('ts', 'mAdd')` `'TS.MADD'`, `('tDigest', 'trimmedMean')`
 * `'TDIGEST.TRIMMED_MEAN'`, `('json', 'SET')` too (node-redis has both spellings).
 *
 * @param namespace the client property (`json`, `ts`, `bf`, `cf`, `cms`, `topK`, `tDigest`).
 * @param method the method called on it, in any letter case.
 * @returns the upper-case command name, for `describeCommand` (commands.ts); `undefined` when the
 *   namespace is not one of {@link MODULE_NAMESPACES} or the table has no such command.
 */
export function moduleCommandName(namespace: string, method: string): string | undefined {
  const prefix = Object.hasOwn(MODULE_NAMESPACES, namespace) ? MODULE_NAMESPACES[namespace] : undefined;
  if (prefix === undefined) return undefined;
  if (!moduleMethods) {
    moduleMethods = new Map();
    for (const name of Object.keys(REDIS8_TYPE_TABLE)) {
      const dot = name.indexOf('.');
      if (dot > 0) moduleMethods.set(`${name.slice(0, dot)}.${name.slice(dot + 1).replace(/_/g, '')}`, name);
    }
  }
  return moduleMethods.get(`${prefix}.${method.toUpperCase().replace(/_/g, '')}`);
}

/** Whether a command belongs to one of Redis 8's own data types (JSON, TS, BF, CF, CMS, TOPK, TDIGEST, vector sets). */
export function isRedis8TypeCommand(name: string): boolean {
  const upperName = name.toUpperCase();
  const dot = upperName.indexOf('.');
  if (dot > 0) return Object.values(MODULE_NAMESPACES).includes(upperName.slice(0, dot)) && Object.hasOwn(REDIS8_TYPE_TABLE, upperName);
  return VECTOR_SET_COMMANDS.has(upperName);
}

const VECTOR_SET_COMMANDS: ReadonlySet<string> = new Set(['VADD', 'VREM', 'VSETATTR', 'VCARD', 'VDIM', 'VEMB', 'VGETATTR', 'VINFO', 'VISMEMBER', 'VLINKS', 'VRANDMEMBER', 'VSIM']);
