/**
 * The messages of the Lua rules: what is wrong, why it leaks, and the safe replacement. Every
 * place a message names (an exit, a guard, an expiry) is given as "line L, column C" of the
 * script (or of the host file, for a script embedded in JavaScript).
 */
import type * as L from 'luaparse';
import type { CommandArg, KeyEffect } from '../semantics/commands.js';
import { namesSeveralKeys } from '../semantics/commands.js';
import type { Value } from './state.js';

/** A write that can leave a key without TTL. */
export interface WriteSite {
  id: number;
  node: L.Node;
  command: string;
  keyName: string;
  effect: KeyEffect;
  rule: 'write-path-needs-ttl' | 'keepttl-needs-existing-key';
}

/** How a path left the script. */
export interface Exit {
  kind: 'return' | 'end' | 'error' | 'error-reply' | 'assert' | 'compare-error' | 'command-error';
  /** Offset of the exit in the source. */
  offset: number;
  /** For a Redis 7 function: its registered name. */
  functionName?: string;
  /** For `compare-error`: what is compared (`number with string`, `nil with number`). */
  compared?: string;
  /** For `command-error`: why Redis rejects the command. */
  reason?: string;
}

/** A 1-based line and column. */
export interface Position {
  line: number;
  /** Omitted when only the line is known (a host file that maps lines only). */
  column?: number;
  /** The file, when the place is in another file (an included one). */
  file?: string;
}

/** "line 3, column 5" */
export function at(position: Position): string {
  const where = position.column === undefined ? `line ${position.line}` : `line ${position.line}, column ${position.column}`;
  return position.file === undefined ? where : `${where} of ${position.file}`;
}

/** The exit a leaking path takes, as a phrase. */
export function describeExit(exit: Exit, position: Position): string {
  const where = at(position);
  const inFn = exit.functionName ? ` of function '${exit.functionName}'` : '';
  switch (exit.kind) {
    case 'return':
      return `the path that returns at ${where}${inFn}`;
    case 'end':
      return exit.functionName ? `the end of function '${exit.functionName}' (${where})` : `the end of the script (${where})`;
    case 'error':
      return `the error raised at ${where}${inFn} (Redis keeps the writes made before an error)`;
    case 'error-reply':
      return `the error reply returned at ${where}${inFn} (Redis keeps the writes made before it)`;
    case 'assert':
      return `the failing assert at ${where}${inFn} (Redis keeps the writes made before it)`;
    case 'command-error':
      return `the error Redis raises for the command at ${where}${exit.reason ? ` (${exit.reason})` : ''}, which aborts the script (writes made before it stay)`;
    case 'compare-error':
      return exit.compared === 'nil with number'
        ? `the comparison at ${where}, which raises "attempt to compare nil with number" when the key is missing (tonumber(false) is nil)`
        : `the comparison at ${where}, which raises "attempt to compare ${exit.compared ?? 'number with string'}" (use tonumber() on ARGV values)`;
  }
}

/**
 * An expiry the walk never reached because the guard around it can never be true, e.g. a number
 * compared with an ARGV string.
 */
export interface RejectedExpiry {
  /** Where the expiry call is. */
  expiry: Position;
  /** Where the guard is. */
  guard: Position;
  /** Why the guard is never true. */
  reason: string;
}

/**
 * The message of `write-path-needs-ttl`.
 * @param key the key that leaks on this path
 * @param others other keys the same write leaks on (a helper called with several keys)
 * @param rejected an expiry of this key under a guard that is never true
 */
export function writePathMessage(site: WriteSite, key: string, where: string, others: readonly string[] = [], rejected?: RejectedExpiry): string {
  const subject = subjectOf(site, key, others);
  const before = rejected
    ? `before any expiry that runs (the expiry at ${at(rejected.expiry)} never runs: the guard at ${at(rejected.guard)} ${rejected.reason})`
    : 'before any expiry is set on it';
  switch (site.effect) {
    case 'overwrite':
      return (
        `${site.command} on ${subject} creates the key without a TTL or removes the TTL it had, and ${where} leaves it that way: ` +
        `the key never expires. ` +
        (site.command === 'SET'
          ? `Write it with its expiry in the same command: SET key value PX <ms> (or EX <seconds>).`
          : `Follow it with PEXPIRE ${key} <ms> on every path.`)
      );
    case 'create-if-missing':
      return (
        `${site.command} on ${subject} can create the key without a TTL, and ${where} leaves it that way: a key that is never ` +
        `deleted (a lock whose owner crashed) lives forever. Create it with its expiry in one command: SET key value NX PX <ms>.`
      );
    case 'clear-ttl-if-present':
      return (
        `SET ... XX on ${subject} without KEEPTTL or an expiry removes the key's TTL, and ${where} leaves it that way. ` +
        `Keep the TTL with SET key value XX KEEPTTL, or set a new one with SET key value XX PX <ms>.`
      );
    default:
      return (
        `${site.command} on ${subject} can create the key without a TTL, and ${where} gets there ${before}: ` +
        `the key would never expire. Call PEXPIRE ${key} <ms> after the write on every path (before that exit too).`
      );
  }
}

/**
 * The keys a message names: `KEYS[1]`, or `KEYS[1] (and KEYS[2], in the same command)` for a
 * command that writes several keys (MSET), `... through other calls` for a write in a helper
 * function called with several keys.
 */
function subjectOf(site: Pick<WriteSite, 'command'>, key: string, others: readonly string[]): string {
  if (others.length === 0) return key;
  return `${key} (and ${others.join(', ')}, ${namesSeveralKeys(site.command) ? 'in the same command' : 'through other calls'})`;
}

/** The message of `keepttl-needs-existing-key`. */
export function keepTtlMessage(key: string, where: string, others: readonly string[] = []): string {
  const subject = subjectOf({ command: 'SET' }, key, others);
  return (
    `SET ... KEEPTTL on ${subject} keeps an existing TTL but creates a missing key without one, and nothing on this ` +
    `path proves the key exists (${where} leaves it persistent). Return early when GET/EXISTS says the key is missing, ` +
    `or write SET key value XX KEEPTTL, which never creates the key.`
  );
}

export function noGetsetMessage(command: string, key: string): string {
  const what = command === 'GETSET' ? 'GETSET' : 'SET ... GET without KEEPTTL or an expiry';
  return (
    `${what} on ${key} replaces the value and drops the key's TTL, so a key meant to expire becomes persistent. ` +
    `Use SET key value XX KEEPTTL GET: it returns the old value, keeps the TTL and never creates a missing key.`
  );
}

export function noPersistMessage(command: string, key: string): string {
  if (command === 'HPERSIST' || command === 'HGETEX') {
    const what = command === 'HPERSIST' ? 'HPERSIST' : 'HGETEX ... PERSIST';
    return (
      `${what} on ${key} removes the TTL of hash fields: a hash is deleted when its last field expires, and a field ` +
      `without TTL keeps it alive forever. Remove the call; to change a field's TTL use HPEXPIRE, or declare the key ` +
      `persistent on purpose (-- redis-ttl persistent: ${key}).`
    );
  }
  const what = command === 'PERSIST' ? 'PERSIST' : 'GETEX ... PERSIST';
  return (
    `${what} on ${key} removes the key's TTL: it then lives until something deletes it. Remove the call; ` +
    `to change the TTL use PEXPIRE, or declare the key persistent on purpose (-- redis-ttl persistent: ${key}).`
  );
}

/**
 * The `expire-needs-positive-ttl` message for `command` with the literal expiry `value`: a
 * non-integer is rejected by every command ("value is not an integer or out of range"); an integer
 * <= 0 is rejected by SET / SETEX / PSETEX ("invalid expire time") and by GETEX on an existing key,
 * and deletes the key for the EXPIRE family (only a key with a TTL when `onlyWithTtl`: XX / GT).
 * (https://redis.io/docs/latest/commands/expire/, https://redis.io/docs/latest/commands/getex/)
 */
export function nonPositiveMessage(command: string, value: CommandArg, onlyWithTtl = false): string {
  const integer = typeof value === 'number' ? Number.isInteger(value) : typeof value === 'string' && /^[+-]?\d+$/.test(value.trim());
  if (command === 'GETEX') {
    return (
      `GETEX with the expiry ${String(value)} is rejected by Redis ("${integer ? 'invalid expire time' : 'value is not an integer'}") when the key exists, ` +
      `which aborts the script and keeps every write made before it (on a missing key it answers nil). Use a positive integer TTL.`
    );
  }
  if (integer && (command === 'SET' || command === 'SETEX' || command === 'PSETEX')) {
    return (
      `${command} with the expiry ${String(value)} is rejected by Redis ("invalid expire time"), which aborts the script ` +
      `and keeps every write made before it. Use a positive integer TTL.`
    );
  }
  if (!integer) {
    return (
      `${command} with the timeout ${String(value)} is rejected by Redis ("value is not an integer"), which aborts the ` +
      `script and keeps every write made before it. Use a positive integer TTL.`
    );
  }
  if (onlyWithTtl) {
    return (
      `${command} with a timeout of ${String(value)} and XX or GT deletes the key only when it has a TTL; a key without ` +
      `TTL is left as it is, without TTL. Use DEL if deleting is the intent, or a positive TTL without XX/GT.`
    );
  }
  return (
    `${command} with a timeout of ${String(value)} does not set a TTL: it deletes the key at once. ` +
    `Use DEL if that is the intent, or a positive TTL.`
  );
}

export function keyMustComeFromKeysMessage(command: string, key: string, value: Value): string {
  const origin =
    value.t === 'str' && value.argv !== undefined
      ? 'is taken from ARGV'
      : value.t === 'str' && value.v !== undefined
        ? 'is a literal'
        : (value.t === 'unknown' || value.t === 'str') && value.origin === 'reply'
          ? 'comes from a Redis reply (SCAN, GET, a list or set read)'
          : (value.t === 'unknown' || value.t === 'str') && value.origin === 'decoded'
            ? 'is decoded from an argument (cjson.decode / cmsgpack.unpack)'
            : 'is built inside the script';
  return (
    `The key of ${command} (${key}) ${origin} instead of coming from KEYS: Redis Cluster routes a script by its ` +
    `declared keys, so this key may live on another node (CROSSSLOT / misrouted writes), and expiries set on KEYS do not ` +
    `cover it. Pass the key in KEYS (with a {hash tag} shared with the other keys).`
  );
}

export function unknownOptionsMessage(command: string): string {
  return (
    `The options of this ${command} are not literals, so nothing can prove whether it keeps or sets a TTL ` +
    `(an option such as KEEPTTL or EX may or may not be there). Spell the options out: ${command} key value PX <ms>.`
  );
}

export function unanalyzableMessage(text: string | undefined): string {
  return (
    `The command name of this redis.call${text ? ` (${text})` : ''} is not a literal or a known constant, so nothing can ` +
    `be proved about the TTL of the keys it writes. Call each command with a literal name.`
  );
}

/** A call of a function that the script neither defines nor receives (an `@include` not resolved). */
export function undefinedFunctionMessage(name: string): string {
  return (
    `${name}() is defined nowhere in this script, so the Redis commands it runs cannot be checked (a function from an ` +
    `--- @include file that was not resolved, or a global that Redis does not provide). Define it in the script, or ` +
    `let lua-lint resolve the include (lua-lint --include-root <dir>).`
  );
}

/**
 * Appended to a leak that happens only where the caller passed no TTL: ARGV[n] tested as 0, empty
 * or missing skips the only expiry of the key.
 */
export function optionalTtlNote(argv: number): string {
  return (
    ` This path is the one where the caller passes no TTL (ARGV[${argv}] is 0, empty or missing, and the script then skips the expiry): ` +
    `if a key without TTL is never wanted, reject that value before the first write (return redis.error_reply('ERR TTL required')) instead of skipping the expiry.`
  );
}

/** `min-redis-version`: the feature and the version it needs (semantics/versions.ts). */
export function minRedisVersionMessage(feature: string, version: string): string {
  return (
    `${feature} needs Redis ${version} or later (its "Available since" on redis.io), newer than the configured redisVersion: ` +
    `the server rejects it and the script stops there, keeping every write made before it. Use commands the server has, ` +
    `or raise redisVersion once every server runs ${version}.`
  );
}

/** `ttl-units`: a TTL in the wrong unit or kind (semantics/ttl-units.ts). */
export function ttlUnitsMessage(where: string, text: string, why: string, mismatch: string): string {
  switch (mismatch) {
    case 'ms-as-seconds':
      return `${where} counts seconds, but ${text} is in milliseconds (${why}): the key lives 1000 times longer than meant. Use the millisecond form (PX, PEXPIRE, PSETEX) or divide by 1000.`;
    case 'seconds-as-ms':
      return `${where} counts milliseconds, but ${text} is in seconds (${why}): the key expires 1000 times sooner than meant. Use the second form (EX, EXPIRE, SETEX) or multiply by 1000.`;
    case 'absolute-as-duration':
      return `${where} takes a duration, but ${text} is a point in time (${why}): as a TTL it keeps the key for decades. Use EXPIREAT / PEXPIREAT (or SET ... EXAT / PXAT), or subtract the current time.`;
    case 'duration-as-absolute':
      return `${where} takes a Unix time, but ${text} is a duration (${why}): as a time it lies in 1970, so the expiry deletes the key at once. Use EXPIRE / PEXPIRE (or SET ... EX / PX), or add the current time.`;
    default:
      return `${where} takes a Unix time in the other unit than ${text} has (${why}). Use EXPIREAT for seconds and PEXPIREAT for milliseconds.`;
  }
}

/** `expire-needs-positive-ttl` on a TTL the script computes (a subtraction, math.floor, a division, a TTL reply). */
export function computedTtlMessage(where: string, text: string, fractional: boolean, rejects: boolean): string {
  const effect = fractional || rejects
    ? `Redis rejects it ("${fractional ? 'value is not an integer' : 'invalid expire time'}"), which aborts the script and keeps every write made before it`
    : 'the expiry deletes the key instead of setting a TTL, and a later write creates it again without one';
  return (
    `The TTL ${text} of ${where} is computed and can be ${fractional ? 'a fraction' : '0 or less'} (a remaining time, a subtraction, math.floor, a division or a TTL reply): ` +
    `${effect}. Check it first (if ttl <= 0 then ... end) or clamp it: math.max(1, ${fractional ? `math.ceil(${text})` : text}).`
  );
}

/** `expire-needs-positive-ttl`, strict mode: a TTL from ARGV never compared with a number. */
export function uncheckedArgvTtlMessage(where: string, text: string, rejects: boolean): string {
  return (
    `The TTL ${text} of ${where} comes from the caller and is never checked: a caller passing "0" (a lock "without timeout") ` +
    `${rejects ? 'makes Redis reject the command, which aborts the script' : 'makes the expiry delete the key while the script still answers success'}. ` +
    `Check it first: if tonumber(${text}) <= 0 then return redis.error_reply('ttl must be positive') end.`
  );
}
