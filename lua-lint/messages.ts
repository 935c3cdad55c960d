/**
 * The messages of the Lua rules, each at most 300 characters as the user sees it, and the ESLint
 * rule embedded-lua relays them behind their rule id (`[keepttl-needs-existing-key] ...`), so at
 * most 300 minus the longest such prefix here (271): what is wrong, why it leaks, and the fix, in
 * one or two sentences; the rule's page (docs/rules/<rule>.md) explains the rest. Every
 * place a message names (an exit, a guard, an expiry) is given as "line L, column C" of the script
 * (or of the host file, for a script embedded in another language). The walk hands facts (an
 * exit's kind, the types a guard compares, why Redis rejects a command); the words are here.
 */
import type * as L from 'luaparse';
import type { CommandArg, CommandDescription, KeyEffect } from '../semantics/commands.js';
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
  /** For `command-error`: why Redis rejects the command (absent: the command as written). */
  reason?: RejectReason;
}

/** Why Redis rejects a command on some path (see {@link describeExit}). */
export type RejectReason =
  /** A TTL computed in the script may be a fraction or <= 0 ("value is not an integer", "invalid expire time"). */
  | { kind: 'computed-ttl' }
  /** RENAME / RENAMENX of a missing source: "no such key". */
  | { kind: 'missing'; key: string; error?: string }
  /** GETEX with a bad literal expiry, on a key that exists. */
  | { kind: 'exists'; key: string }
  /** COPY k k: "source and destination objects are the same". */
  | { kind: 'copy-onto-itself' };

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

/**
 * The exit a leaking path takes, as a phrase (`the return at line 4, column 1`). An
 * exit by an error does not say that Redis keeps the writes made before it: {@link keepsWrites}.
 */
export function describeExit(exit: Exit, position: Position): string {
  const where = at(position);
  const inFn = exit.functionName ? ` of function '${exit.functionName}'` : '';
  switch (exit.kind) {
    case 'return':
      return `the return at ${where}${inFn}`;
    case 'end':
      return exit.functionName ? `the end of function '${exit.functionName}' (${where})` : `the script's end (${where})`;
    case 'error':
      return `the error raised at ${where}${inFn}`;
    case 'error-reply':
      return `the error reply at ${where}${inFn}`;
    case 'assert':
      return `the failing assert at ${where}${inFn}`;
    case 'command-error':
      return `the Redis error at ${where}${rejectReason(exit.reason)}`;
    case 'compare-error':
      return exit.compared === 'nil with number'
        ? `the error "attempt to compare nil with number" at ${where} when the key is missing`
        : `the error "attempt to compare ${exit.compared ?? 'number with string'}" at ${where}`;
  }
}

/** Whether the exit is an error (raised, replied, a failing assert), after which the writes made before it stay. */
function keepsWrites(exit: Exit): boolean {
  return exit.kind !== 'return' && exit.kind !== 'end';
}

/** ` when KEYS[1] is missing ("no such key")`: a {@link RejectReason} as the end of a phrase. */
function rejectReason(reason: RejectReason | undefined): string {
  switch (reason?.kind) {
    case 'computed-ttl':
      return ' if the computed TTL is not a positive integer';
    case 'missing':
      return ` when ${reason.key} is missing ("${reason.error ?? 'no such key'}")`;
    case 'exists':
      return ` when ${reason.key} exists`;
    case 'copy-onto-itself':
      return ' (COPY onto its own source)';
    default:
      return '';
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
  /** The Lua types the guard compares with `==`, which Lua 5.1 never finds equal (`number`, `string`). */
  compared: readonly [string, string];
}

/**
 * The message of `write-path-needs-ttl`.
 * @param key the key that leaks on this path
 * @param exit the exit the leaking path takes, and its place
 * @param others other keys the same write leaks on (a helper called with several keys)
 * @param rejected an expiry of this key under a guard that is never true
 * @param optionalTtlArgv the ARGV the caller left out when the leak is the caller's choice (the
 *   only expiry the path misses is the one skipped when ARGV[n] is 0, empty or missing)
 * @param unit the unit the fix's expiry is written in: `'seconds'` (EXPIRE, SET ... EX) when every
 *   expiry of the script counts seconds, else `'milliseconds'` (PEXPIRE, SET ... PX), the default
 */
export function writePathMessage(
  site: WriteSite,
  key: string,
  exit: { exit: Exit; position: Position },
  others: readonly string[] = [],
  rejected?: RejectedExpiry,
  optionalTtlArgv?: number,
  unit: SpanUnit = 'milliseconds',
): string {
  const subject = subjectOf(site, key, others);
  const { expire, option, span } = FIX_SPELLING[unit];
  const where = describeExit(exit.exit, exit.position);
  const keeps = keepsWrites(exit.exit) ? ' (no rollback)' : '';
  if (optionalTtlArgv !== undefined) {
    const does = site.effect === 'overwrite' ? 'creates it without a TTL or removes its TTL' : 'can create it without a TTL';
    return (
      `${site.command} on ${subject} ${does}, and ${where} is reached when the caller passes no TTL ` +
      `(ARGV[${optionalTtlArgv}] 0, empty or missing). If the key must always expire, reject that value before the first write.`
    );
  }
  switch (site.effect) {
    case 'overwrite':
      return (
        `${site.command} on ${subject} creates it without a TTL or removes its TTL, and ${where} leaves it so${keeps}: ` +
        `the key never expires. ` +
        (site.command === 'SET' ? `Set the expiry in the same command: SET key value ${option} ${span}.` : `Follow it with ${expire} ${key} ${span} on every path.`)
      );
    case 'create-if-missing':
      return (
        `${site.command} on ${subject} can create it without a TTL, and ${where} leaves it so${keeps}: a key nothing deletes ` +
        `(a crashed owner's lock) lives forever. Create it with its expiry: SET key value NX ${option} ${span}.`
      );
    case 'clear-ttl-if-present':
      return (
        `SET ... XX on ${subject} without KEEPTTL or an expiry removes its TTL, and ${where} leaves it so${keeps}. ` +
        `Keep the TTL with SET key value XX KEEPTTL, or set one with SET key value XX ${option} ${span}.`
      );
    default:
      if (rejected) {
        return (
          `${site.command} on ${subject} can create it without a TTL, and ${where} leaves it so${keeps}: the expiry at ` +
          `${at(rejected.expiry)} never runs, as its guard at ${at(rejected.guard)} compares a ${rejected.compared[0]} ` +
          `with a ${rejected.compared[1]}, never equal in Lua. ` +
          (rejected.compared.includes('string') ? 'Use tonumber(ARGV[n]).' : 'Compare values of one type.')
        );
      }
      return (
        `${site.command} on ${subject} can create it without a TTL, and ${where} precedes any expiry${keeps}, ` +
        `so it never expires. Call ${expire} ${key} ${span} after the write on every path.`
      );
  }
}

/** The unit of a relative expiry (a span), as {@link writePathMessage} writes its fix. */
export type SpanUnit = 'seconds' | 'milliseconds';

/** How a fix spells an expiry in each unit: the command, SET's option and the placeholder. */
const FIX_SPELLING: Readonly<Record<SpanUnit, { expire: string; option: string; span: string }>> = {
  seconds: { expire: 'EXPIRE', option: 'EX', span: '<seconds>' },
  milliseconds: { expire: 'PEXPIRE', option: 'PX', span: '<ms>' },
};

/** Appended to a leak of a key given an EXPIRE ... XX or GT somewhere (which leaves a key without TTL as it is). */
export const CONDITIONAL_EXPIRY_NOTE = ' EXPIRE ... XX or GT skips a key without TTL: use NX.';

/**
 * The keys a message names: `KEYS[1]`, or `KEYS[1] (and KEYS[2], in the same command)` for a
 * command that writes several keys (MSET), `... through other calls` for a write in a helper
 * function called with several keys.
 */
function subjectOf(site: Pick<WriteSite, 'command'>, key: string, others: readonly string[]): string {
  if (others.length === 0) return key;
  return `${key} (and ${others.join(', ')}, ${namesSeveralKeys(site.command) ? 'in the same command' : 'through other calls'})`;
}

/** The message of `keepttl-needs-existing-key`: `exit` as for {@link writePathMessage}. */
export function keepTtlMessage(key: string, exit: { exit: Exit; position: Position }, others: readonly string[] = []): string {
  const subject = subjectOf({ command: 'SET' }, key, others);
  return (
    `SET ... KEEPTTL on ${subject} creates a missing key without a TTL, and nothing on the path to ${describeExit(exit.exit, exit.position)} ` +
    `proves the key exists. Return early when EXISTS says it is missing, or write SET key value XX KEEPTTL.`
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
      `${what} on ${key} removes the TTL of hash fields: a field without TTL keeps the hash alive forever. Remove the call ` +
      `(HPEXPIRE changes a field's TTL), or declare the key persistent on purpose (-- redis-ttl persistent: ${key}).`
    );
  }
  const what = command === 'PERSIST' ? 'PERSIST' : 'GETEX ... PERSIST';
  return (
    `${what} on ${key} removes the key's TTL: it then lives until something deletes it. Remove the call ` +
    `(PEXPIRE changes the TTL), or declare the key persistent on purpose (-- redis-ttl persistent: ${key}).`
  );
}

/**
 * The `expire-needs-positive-ttl` message for `command` with the literal expiry `value`, from the
 * command table's `description` of that call: a non-integer is rejected by every command ("value
 * is not an integer or out of range"); `rejectedWhenExists` (GETEX) is an error on an existing key;
 * `rejected` (SET / SETEX / PSETEX <= 0: "invalid expire time"; a negative HEXPIRE or RESTORE TTL;
 * conflicting NX / XX / GT / LT) aborts the script; otherwise the expiry deletes as `pastExpiry`
 * says (XX / NX: only with / without a TTL; GT: never), the key, or the named fields of a hash
 * field command (HEXPIRE family, HGETEX, HSETEX).
 * (https://redis.io/docs/latest/commands/expire/, https://redis.io/docs/latest/commands/getex/,
 * https://redis.io/docs/latest/commands/hexpire/)
 */
export function nonPositiveMessage(command: string, value: CommandArg, description: Pick<CommandDescription, 'keys' | 'pastExpiry' | 'rejected' | 'rejectedWhenExists'>): string {
  const integer = typeof value === 'number' ? Number.isInteger(value) : typeof value === 'string' && /^[+-]?\d+$/.test(value.trim());
  if (description.rejectedWhenExists) {
    return (
      `${command} with the expiry ${String(value)} is rejected by Redis ("${integer ? 'invalid expire time' : 'value is not an integer'}") when the key exists, ` +
      `which aborts the script and keeps every write made before it (on a missing key it answers nil). Use a positive integer TTL.`
    );
  }
  if (!integer) {
    return (
      `${command} with the timeout ${String(value)} is rejected by Redis ("value is not an integer"), which aborts the ` +
      `script and keeps every write made before it. Use a positive integer TTL.`
    );
  }
  if (description.rejected) {
    const reply = command === 'SET' || command === 'SETEX' || command === 'PSETEX' ? ' ("invalid expire time")' : '';
    return (
      `${command} with the ${reply ? 'expiry' : 'timeout'} ${String(value)} is rejected by Redis${reply}, which aborts the script ` +
      `and keeps every write made before it. Use a positive integer TTL.`
    );
  }
  // HEXPIRE / HGETEX / HSETEX act on the named fields, the EXPIRE family on the key
  const fields = description.keys[0]?.fields !== undefined;
  const target = fields ? 'each named field' : 'the key';
  const one = fields ? 'a field' : 'a key';
  const del = fields ? 'HDEL' : 'DEL';
  switch (description.pastExpiry) {
    case 'delete-if-ttl':
      return (
        `${command} with a timeout of ${String(value)} and XX deletes ${target} only when it has a TTL; ${one} without ` +
        `TTL is left as it is, without TTL. Use ${del} if deleting is the intent, or a positive TTL without XX.`
      );
    case 'delete-if-no-ttl':
      return (
        `${command} with a timeout of ${String(value)} and NX deletes ${target} only when it has no TTL; ${one} with a TTL ` +
        `keeps it. Use ${del} if deleting is the intent, or a positive TTL.`
      );
    case 'nothing':
      return (
        `${command} with a timeout of ${String(value)} and GT never applies (a time in the past is never later than a TTL, ` +
        `and no TTL counts as infinite): ${fields ? 'each named field' : 'the key'} is left as it is. Use a positive TTL, or ${del} to delete.`
      );
    default:
      return (
        `${command} with a timeout of ${String(value)} does not set a TTL: it deletes ${fields ? 'the named fields' : 'the key'} at once. ` +
        `Use ${del} if that is the intent, or a positive TTL.`
      );
  }
}

export function keyMustComeFromKeysMessage(command: string, key: string, value: Value): string {
  const origin =
    value.t === 'str' && value.argv !== undefined
      ? 'is taken from ARGV'
      : value.t === 'str' && value.v !== undefined
        ? 'is a literal'
        : (value.t === 'unknown' || value.t === 'str') && value.origin === 'reply'
          ? 'comes from a Redis reply'
          : (value.t === 'unknown' || value.t === 'str') && value.origin === 'decoded'
            ? 'is decoded from an argument'
            : 'is built inside the script';
  return (
    `The key of ${command} (${clip(key, 40)}) ${origin}, not from KEYS: Redis Cluster routes a script by its KEYS, ` +
    `so this key may be on another node (CROSSSLOT). Pass it in KEYS, with a {hash tag} shared with the other keys.`
  );
}

/** A spelling from the script, cut to `max` characters (`...` at the end) so that a message stays short. */
function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

export function unknownOptionsMessage(command: string): string {
  return (
    `The options of this ${command} are not literals, so nothing can prove whether it keeps or sets a TTL ` +
    `(an option such as KEEPTTL or EX may or may not be there). Spell the options out: ${command} key value PX <ms>.`
  );
}

export function unanalyzableMessage(text: string | undefined): string {
  return (
    `The command name of this redis.call${text ? ` (${clip(text.replace(/\s+/g, ' '))})` : ''} is not a literal or a known constant, so nothing can ` +
    `be proved about the TTL of the keys it writes. Call each command with a literal name.`
  );
}

/** `unanalyzable-command`: a literal command name that no command table knows (a module's, or a newer Redis'). */
export function unknownCommandMessage(command: string): string {
  return (
    `${clip(command)} is a command lua-lint does not know (not in Redis 8 nor its JSON, time series, probabilistic and ` +
    `vector set types), so nothing is proved about the keys it writes or their TTL. Check it by hand, or disable this line.`
  );
}

/** A call of a function that the script neither defines nor receives (an `@include` not resolved). */
export function undefinedFunctionMessage(name: string): string {
  return (
    `${clip(name)}() is defined nowhere in this script, so the Redis commands it runs cannot be checked (an @include not ` +
    `resolved, or a global Redis lacks). Define it, or let lua-lint resolve the include (--include-root <dir>).`
  );
}

/** `min-redis-version`: the feature and the version it needs (semantics/versions.ts). */
export function minRedisVersionMessage(feature: string, version: string): string {
  return (
    `${feature} needs Redis ${version} or later, newer than the configured redisVersion: the server rejects it and the ` +
    `script stops there, keeping the writes made before it. Use what the server has, or raise redisVersion once every server runs ${version}.`
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
  const shown = clip(text);
  const effect =
    fractional || rejects
      ? `Redis rejects it ("${fractional ? 'value is not an integer' : 'invalid expire time'}") and the script stops, keeping the writes made before it`
      : 'the expiry then deletes the key, and a later write creates it again without TTL';
  return (
    `The TTL ${shown} of ${where} is computed and can be ${fractional ? 'a fraction' : '0 or less'}: ${effect}. ` +
    `Check it first or clamp it: math.max(1, ${fractional ? `math.ceil(${shown})` : shown}).`
  );
}

/** `expire-needs-positive-ttl`, strict mode: a TTL from ARGV never compared with a number. */
export function uncheckedArgvTtlMessage(where: string, text: string, rejects: boolean): string {
  const shown = clip(text, 40);
  // the check compares a number: `tonumber(ARGV[1])` as it is, `ARGV[1]` converted
  const number = /^tonumber\([^()]*\)$/.test(shown) ? shown : `tonumber(${shown})`;
  return (
    `The TTL ${shown} of ${where} comes from the caller unchecked: "0" ` +
    `${rejects ? 'makes Redis reject the command and stop the script' : 'makes the expiry delete the key while the script answers success'}. ` +
    `Check it first: if ${number} <= 0 then return redis.error_reply('ttl must be positive') end.`
  );
}

/**
 * `fixed-window-expire`, an expiry after every increment: `expiry` of `key` runs after each
 * `increment` whose count is compared with a limit (only after the expiry).
 */
export function rearmedWindowMessage(expiry: string, key: string, increment: string): string {
  return (
    `${expiry} of ${clip(key)} runs on every ${increment} whose count is compared with a limit, so each call pushes the window's end back: ` +
    `under steady traffic the key never expires. Set the TTL when the window starts: ${expiry} key ttl NX (Redis 7).`
  );
}

/** `fixed-window-expire`, a TTL check a plain SET makes true: `SET key` without KEEPTTL, then `if TTL(key) < 0 then <expiry> end`. */
export function ttlCheckAfterSetMessage(key: string, expiry: string): string {
  return (
    `The TTL check of ${clip(key)} is true on every call: the SET before it has no KEEPTTL, so it clears the TTL and this ${expiry} ` +
    `re-arms the window, which never closes under steady traffic. Write with SET ... KEEPTTL (or INCR).`
  );
}

/** `unanalyzable-command`, a script a host program builds at run time: the call (`via`) and how it builds it. */
export function builtAtRunTimeMessage(via: string, how: string): string {
  return (
    `The script passed to ${clip(via)} is built at run time (${clip(how)}), so lua-lint checks none of its TTLs. ` +
    `Keep the script a constant string and pass values in KEYS and ARGV: then it is checked, and Redis caches one script.`
  );
}

/** `unanalyzable-command`, an `--- @include` whose file was not found. */
export function includeNotFoundMessage(reference: string): string {
  return (
    `The included file "${clip(reference)}" was not found next to this file or under the include root, so the commands of ` +
    `its functions cannot be checked. Set the include root (--include-root <dir>, or "includeRoot" in lua-lint.config.json).`
  );
}
