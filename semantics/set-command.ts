/**
 * SET's arguments (https://redis.io/docs/latest/commands/set/): its conditions, expiry options
 * and what each combination does to the key and its TTL. A row of the command table
 * (`commands.ts`, which re-exports the reply of a SET that wrote its key, for the SETNX rewrite).
 */

import { EXPIRY_UNITS, expiryOption, unknownOptionAt, upper } from './command-spec.js';
import type { CommandArg, CommandDescription, KeyEffect } from './commands.js';

/**
 * The reply of a SET that wrote its key: the simple string `OK` (a SET stopped by NX / XX
 * replies nil; https://redis.io/docs/latest/commands/set/#return-information). SETNX replies
 * 1 / 0 instead, which is what a rewrite of SETNX as SET ... NX must give back to code that
 * reads the reply.
 */
export const SET_WRITTEN_REPLY = 'OK';

/**
 * SET options that exclude each other: one condition, one of the expiry options or KEEPTTL.
 * Redis accepts a repeated token (`EX 10 EX 20`, the last wins) but answers "ERR syntax error" to
 * two different tokens of one group (https://redis.io/docs/latest/commands/set/; `t_string.c`
 * `parseExtendedStringArgumentsOrReply`).
 */
const SET_EXCLUSIVE_OPTIONS: ReadonlyArray<readonly string[]> = [
  ['NX', 'XX', 'IFEQ', 'IFNE', 'IFDEQ', 'IFDNE'],
  ['EX', 'PX', 'EXAT', 'PXAT', 'KEEPTTL'],
];

/**
 * SET's compare-and-set conditions (Redis 8.4), each followed by the value or digest it compares:
 * IFEQ / IFDEQ write only a key whose value (digest) is equal, so never create it, as XX; IFNE /
 * IFDNE write a key whose value differs, and a missing key too
 * (https://redis.io/docs/latest/commands/set/).
 */
const SET_COMPARE_CONDITIONS: Readonly<Record<string, 'exists' | 'may-create'>> = { IFEQ: 'exists', IFDEQ: 'exists', IFNE: 'may-create', IFDNE: 'may-create' };

/** SET key value [NX | XX | IFEQ v | IFNE v | IFDEQ d | IFDNE d] [GET] [EX s | PX ms | EXAT t | PXAT t | KEEPTTL] (https://redis.io/docs/latest/commands/set/) */
export function describeSet(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  let nx = false;
  let xx = false;
  let get = false;
  let keepTtl = false;
  let unknownOptions = false;
  let ttl: CommandDescription['ttl'];
  let nonPositiveTtlArg: number | undefined;
  let ttlOption: string | undefined;
  let conflictingOption: CommandDescription['conflictingOption'];
  let unknownOption: CommandDescription['unknownOption'];
  const chosen = new Map<readonly string[], string>();
  for (let i = 2; i < args.length; i++) {
    const arg = args[i];
    const token = typeof arg === 'number' ? String(arg) : upper(arg);
    if (token === undefined) {
      // an option we cannot read may take the value after it (`set(k, v, mode, 60)`): from here on
      // no token is judged unknown
      unknownOptions = true;
      continue;
    }
    const group = SET_EXCLUSIVE_OPTIONS.find((options) => options.includes(token));
    if (group) {
      const earlier = chosen.get(group);
      if (earlier !== undefined && earlier !== token) conflictingOption ??= { arg: i, option: token, conflictsWith: earlier };
      chosen.set(group, token);
    }
    if (token === 'NX') nx = true;
    else if (token === 'XX') xx = true;
    else if (token in SET_COMPARE_CONDITIONS) {
      if (SET_COMPARE_CONDITIONS[token] === 'exists') xx = true;
      i++; // the value or digest compared
    } else if (token === 'GET') get = true;
    else if (token === 'KEEPTTL') keepTtl = true;
    else if (token in EXPIRY_UNITS) {
      const option = expiryOption(args, i, token as keyof typeof EXPIRY_UNITS);
      ttl = option.ttl;
      ttlOption = token;
      if (option.bad) nonPositiveTtlArg = i + 1;
      i++;
    } else if (!unknownOptions) unknownOption ??= unknownOptionAt(args, i);
  }
  let effect: KeyEffect;
  if (ttl) effect = nx ? 'create-if-missing-with-ttl' : xx ? 'set-ttl' : 'create-with-ttl';
  // KEEPTTL keeps the TTL of an existing key; NX writes only a missing one, which has no TTL to keep
  else if (keepTtl) effect = xx ? 'modify-if-present' : nx ? 'create-if-missing' : 'keep-ttl';
  else if (unknownOptions) effect = 'create-with-ttl'; // an option we cannot read may be the expiry
  else if (nx) effect = 'create-if-missing';
  else if (xx) effect = 'clear-ttl-if-present';
  else effect = 'overwrite';
  // SET ... XX EX: never creates, sets the TTL of an existing key -> 'set-ttl'.
  return {
    keys: [{ arg: 0, effect }],
    getDropsTtl: get && !nx && !ttl && !keepTtl && !unknownOptions,
    keepTtl,
    unknownOptions,
    ...(ttl ? { ttl, ttlOption } : {}),
    ...(nonPositiveTtlArg !== undefined ? { nonPositiveTtlArg, rejected: true as const } : {}),
    ...(conflictingOption ? { conflictingOption, rejected: true as const } : {}),
    ...(unknownOption ? { unknownOption, rejected: true as const } : {}),
  };
}
