/**
 * How a row of the command table (`commands.ts`, `redis8-types.ts`) describes a command, and the
 * small helpers the rows share. Internal to semantics/: the rest of the package reads the table
 * through `describeCommand` in `commands.ts`.
 */

import type { CommandArg, CommandDescription, KeyAction, KeyEffect } from './commands.js';

/** One row of the command table: which arguments are keys, and what the call does to each. */
export type Spec =
  | { kind: 'first'; effect: KeyEffect } // the first argument is the only key
  | { kind: 'all'; effect: KeyEffect } // every argument is a key
  | { kind: 'pairs'; effect: KeyEffect } // key value key value ... (MSET)
  | { kind: 'custom'; describe: (args: readonly CommandArg[]) => Omit<CommandDescription, 'name' | 'known'> };

/** The first argument is the only key, and the call has `effect` on it. */
export const first = (effect: KeyEffect): Spec => ({ kind: 'first', effect });
/** Removes elements: never creates the key, deletes it with its last element. */
export const removes: Spec = { kind: 'custom', describe: () => base([{ arg: 0, effect: 'modify-if-present', mayDelete: true }]) };
/** Every argument is a key, each with `effect` (DEL, EXISTS, ...). */
export const all = (effect: KeyEffect): Spec => ({ kind: 'all', effect });

/** A literal argument in upper case (option tokens); `undefined` when the argument is not a literal string. */
export function upper(arg: CommandArg): string | undefined {
  return typeof arg === 'string' ? arg.toUpperCase() : undefined;
}

/** A literal argument as a number (a count, a TTL, in the unit its command says); `undefined` when it is not a literal number. */
export function numeric(arg: CommandArg): number | undefined {
  if (typeof arg === 'number') return arg;
  if (typeof arg === 'string' && arg.trim() !== '' && Number.isFinite(Number(arg))) return Number(arg);
  return undefined;
}

/** A description with `keys` and no option that drops or keeps a TTL. */
export function base(keys: KeyAction[]): Omit<CommandDescription, 'name' | 'known'> {
  return { keys, getDropsTtl: false, keepTtl: false, unknownOptions: false };
}

/** A command without keys (or whose keys the table does not follow). */
export const keyless: Spec = { kind: 'custom', describe: () => base([]) };

/** The expiry options of SET, GETEX and the hash field commands, and the unit of the value each takes. */
export const EXPIRY_UNITS = {
  EX: 'seconds',
  PX: 'milliseconds',
  EXAT: 'unix-seconds',
  PXAT: 'unix-milliseconds',
} as const;

/**
 * The expiry option `args[at]` (one of {@link EXPIRY_UNITS}, upper case) and the value after it:
 * the TTL argument's index and unit, and `bad` when that value is a literal Redis rejects (<= 0, a
 * fraction, or not a number: `'60s'`). An expression's value is never bad here.
 */
export function expiryOption(args: readonly CommandArg[], at: number, option: keyof typeof EXPIRY_UNITS): { ttl: { arg: number; unit: (typeof EXPIRY_UNITS)[keyof typeof EXPIRY_UNITS] }; bad: boolean } {
  const value = numeric(args[at + 1]);
  const bad = value !== undefined ? value <= 0 || !Number.isInteger(value) : args[at + 1] !== undefined;
  return { ttl: { arg: at + 1, unit: EXPIRY_UNITS[option] }, bad };
}
