/**
 * The rows of the command table (`commands.ts`) that read a TTL argument and the options beside it
 * for the key's own TTL: the EXPIRE family (https://redis.io/docs/latest/commands/expire/), SETEX /
 * PSETEX (https://redis.io/docs/latest/commands/setex/) and GETEX
 * (https://redis.io/docs/latest/commands/getex/). SET's own options are `set-command.ts`'s; the
 * TTLs of hash fields are `hash-field-commands.ts`'s. Internal to semantics/: the rest of the
 * package reads them through `describeCommand` in `commands.ts`.
 */

import { base, EXPIRY_UNITS, expiryLiteral, expiryOption, unknownOptionAt, upper } from './command-spec.js';
import type { CommandArg, CommandDescription, KeyEffect } from './command-description.js';

/**
 * EXPIRE key seconds [NX | XX | GT | LT] and its PEXPIRE / EXPIREAT / PEXPIREAT siblings
 * (https://redis.io/docs/latest/commands/expire/). NX together with XX, GT or LT, and GT together
 * with LT, are rejected ("ERR NX and XX, GT or LT options at the same time are not compatible").
 * A timeout <= 0 deletes the key, but under XX or GT a key without TTL is left alone (XX needs a
 * TTL; GT counts no TTL as infinite), so only a key that had a TTL goes away.
 */
export function describeExpire(unit: NonNullable<CommandDescription['ttl']>['unit']) {
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
      ...(args.length > 2 ? { conditionalExpiry: true as const } : {}),
      ttl: { arg: 1, unit },
      ...(deletes || badValue ? { nonPositiveTtlArg: 1 } : {}),
      ...(rejected ? { rejected: true as const } : { pastExpiry }),
    };
  };
}

/** What an expiry <= 0 does under the condition tokens `options` ({@link CommandDescription.pastExpiry}). */
export function pastExpiryUnder(options: ReadonlySet<string>): NonNullable<CommandDescription['pastExpiry']> {
  return options.has('GT') ? 'nothing' : options.has('XX') ? 'delete-if-ttl' : options.has('NX') ? 'delete-if-no-ttl' : 'delete';
}

/** SETEX key seconds value / PSETEX key milliseconds value. */
export function describeSetex(unit: 'seconds' | 'milliseconds') {
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
export function describeGetex(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
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
    } else if (!unknownOptions) unknownOption ??= unknownOptionAt(args, i);
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
 * Whether removing a key's TTL (PERSIST, GETEX ... PERSIST) changes nothing on a key in this state:
 * PERSIST returns 0 "if key does not exist or does not have an associated timeout"
 * (https://redis.io/docs/latest/commands/persist/), and GETEX's PERSIST removes "the time to live
 * associated with the key" (https://redis.io/docs/latest/commands/getex/): a key known to have no
 * TTL (`withoutTtl`: a TTL read just answered -1, or a write of the script left it without one) or
 * known to be missing keeps what it had. A key that may have a TTL on some path loses it.
 */
export function removingTtlChangesNothing(key: { exists: 'yes' | 'no' | 'maybe'; withoutTtl: true | undefined; ttl: true | undefined }): boolean {
  return key.exists === 'no' || (key.withoutTtl === true && key.ttl === undefined);
}
