/**
 * The rows of the command table (`commands.ts`) whose keys sit at positions the arguments decide:
 * a STORE destination and its sources, `numkeys key ...`, `STREAMS key ... id ...`, the keys
 * before a timeout, a move's source and destination (RENAME, LMOVE, SMOVE), and options that decide
 * whether a key may be created (ZADD XX, XADD NOMKSTREAM). Each cites the command it reads
 * (https://redis.io/docs/latest/commands/). Internal to semantics/: the rest of the package reads
 * them through `describeCommand` in `commands.ts`.
 */

import { base, numeric, upper, type Spec } from './command-spec.js';
import type { CommandArg, CommandDescription, KeyAction, KeyEffect } from './command-description.js';

/** Commands whose options decide whether they may create the key (ZADD XX, GEOADD XX, XADD NOMKSTREAM). */
export function createUnless(...tokens: string[]) {
  const set = new Set(tokens);
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const present = args.slice(1).some((arg) => set.has(upper(arg) ?? ''));
    return base([{ arg: 0, effect: present ? 'modify-if-present' : 'create-in-place' }]);
  };
}

/** A destination key at `dest` that is overwritten, the others read (SUNIONSTORE dest key ...). */
export function storeAt(dest: number, effect: KeyEffect = 'overwrite', sources: 'rest' | 'numkeys' = 'rest', storeOf?: KeyAction['storeOf']) {
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
export function moveTo(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  void args;
  return base([
    { arg: 0, effect: 'modify-if-present', mayDelete: true },
    { arg: 1, effect: 'create-in-place', onlyWithSource: 0 },
  ]);
}

/** SMOVE source destination member: as {@link moveTo}, but the source may lack the member. */
export function smoveTo(): Omit<CommandDescription, 'name' | 'known'> {
  return base([
    { arg: 0, effect: 'modify-if-present', mayDelete: true },
    { arg: 1, effect: 'create-in-place', onlyWithSource: 0, onlyWithMember: true },
  ]);
}

/** The key after a STORE / STOREDIST token (GEORADIUS, SORT). */
export function storeOption(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
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
export const transfer =
  (onlyIfMissing: boolean) =>
  (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    void args;
    return base([
      { arg: 0, effect: 'delete', mustExist: true },
      { arg: 1, effect: 'transfer-ttl', sourceArg: 0, ...(onlyIfMissing ? { onlyIfMissing: true as const } : {}) },
    ]);
  };


/** `numkeys key ...` from argument `at` (ZDIFF, ZINTER, ZUNION, SINTERCARD, ZINTERCARD, LMPOP, ZMPOP). */
export function numkeysAt(at: number, effect: KeyEffect, extra: Partial<KeyAction> = {}) {
  return (args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> => {
    const count = numeric(args[at]) ?? 0;
    const keys: KeyAction[] = [];
    for (let i = 0; i < count && at + 1 + i < args.length; i++) keys.push({ arg: at + 1 + i, effect, ...extra });
    return base(keys);
  };
}

/** XREAD / XREADGROUP ... STREAMS key ... id ...: the keys are the first half after STREAMS. */
export function streamsKeys(args: readonly CommandArg[]): Omit<CommandDescription, 'name' | 'known'> {
  const at = args.findIndex((a) => upper(a) === 'STREAMS');
  if (at < 0) return base([]);
  const rest = args.length - at - 1;
  const keys: KeyAction[] = [];
  for (let i = 0; i < Math.floor(rest / 2); i++) keys.push({ arg: at + 1 + i, effect: 'read' });
  return base(keys);
}

/** Removals over several keys (BLPOP k1 k2 timeout): each key may lose its last element. */
export const removesFromEach = (last: 'timeout' | 'none'): Spec => ({
  kind: 'custom',
  describe: (args) => base(args.slice(0, last === 'timeout' ? Math.max(0, args.length - 1) : args.length).map((_, arg) => ({ arg, effect: 'modify-if-present' as const, mayDelete: true as const }))),
});
