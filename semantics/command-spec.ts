/**
 * How a row of the command table (`commands.ts`, `redis8-types.ts`) describes a command, and the
 * small helpers the rows share. Internal to semantics/: the rest of the package reads the table
 * through `describeCommand` in `commands.ts`.
 */

import type { CommandArg, CommandDescription, KeyAction, KeyEffect, TtlUnit } from './commands.js';

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

/** The largest signed 64-bit integer, Redis's `LLONG_MAX`. */
const LLONG_MAX = 2n ** 63n - 1n;

/**
 * The integer Redis parses from an argument as the client sends it (a JS number goes out as
 * `String(n)`), or `undefined` when Redis would answer "value is not an integer or out of range":
 * Redis's `string2ll` takes an optional `-` and digits without a leading zero, within 64 bits; no
 * space, `+`, fraction, exponent or hex (https://redis.io/docs/latest/commands/expire/, `util.c`).
 * An expression (`undefined` here) gives `undefined`.
 */
export function redisInteger(arg: CommandArg): bigint | undefined {
  const text = typeof arg === 'number' ? String(arg) : arg;
  if (typeof text !== 'string' || !/^(?:0|-?[1-9]\d*)$/.test(text)) return undefined;
  const value = BigInt(text);
  return value > LLONG_MAX || value < -LLONG_MAX - 1n ? undefined : value;
}

/** Unix time of the year 3000 in milliseconds: a bound on the server's clock. */
const YEAR_3000_MS = 32_503_680_000_000n;

/**
 * Whether a literal is a TTL in seconds Redis takes after `EX`: a positive integer it parses, not
 * so large that its milliseconds plus the server's clock overflow 64 bits (Redis answers "invalid
 * expire time"; https://redis.io/docs/latest/commands/set/, `t_string.c`; the clock is bounded
 * by the year 3000, so the largest TTL taken is 9,223,339,533,174,775 s).
 */
export function isSecondsTtl(arg: CommandArg): boolean {
  const value = redisInteger(arg);
  return value !== undefined && value > 0n && value <= (LLONG_MAX - YEAR_3000_MS) / 1000n;
}

/** Unix time of 2020-01-01 in milliseconds: a server's clock is surely past it. */
const YEAR_2020_MS = 1_577_836_800_000n;

/** How Redis checks an expiry argument once it has parsed it as an integer ({@link expiryLiteral}). */
export type ExpiryFamily = 'set' | 'expire' | 'hash';

/**
 * A literal expiry argument as Redis reads it: `undefined` for an expression (not a literal);
 * otherwise the integer Redis parses ({@link redisInteger}: no leading zero, sign `+`, space,
 * fraction, exponent or hex: `'01'`, `'+5'`, `' 60'`, `'5e2'`, `'60.0'`, `'0x10'` and `1e21`,
 * sent as `1e+21`, are "value is not an integer or out of range") and whether Redis rejects the
 * command for it. Checked token by token on redis-server 7.0.15
 * (`tests/semantics/expiry-literals-redis.test.ts`; `t_string.c` `getExpireMillisecondsOrReply`,
 * `expire.c` `expireGenericCommand`):
 * - `set` (SET EX / PX / EXAT / PXAT, SETEX, PSETEX, GETEX): rejected ("invalid expire time") when
 *   <= 0, when in seconds above `LLONG_MAX / 1000`, or when its milliseconds, plus the clock for EX
 *   and PX, overflow 64 bits (with the clock at 2026: SET EX above 9,223,370,240,406,236);
 * - `expire` (EXPIRE / PEXPIRE / EXPIREAT / PEXPIREAT): any integer is taken (<= 0 deletes), except
 *   seconds outside `±LLONG_MAX / 1000` and milliseconds that overflow with the clock added (EXPIRE,
 *   PEXPIRE); `value` says whether it deletes;
 * - `hash` (the HEXPIRE family, HSETEX, HGETEX): only the integer parse here (the same
 *   `getLongLongFromObjectOrReply` in `t_hash.c`); each command judges the value's sign.
 * The clock is taken to be past 2020: a value rejected only with a later clock is not rejected
 * here (the band is 2 s in 10^16).
 */
export function expiryLiteral(arg: CommandArg, unit: TtlUnit, family: ExpiryFamily): { value: bigint | undefined; rejected: boolean } | undefined {
  if (arg === undefined) return undefined;
  const value = redisInteger(arg);
  if (value === undefined) return { value: undefined, rejected: true };
  if (family === 'hash') return { value, rejected: false };
  const seconds = unit === 'seconds' || unit === 'unix-seconds';
  const relative = unit === 'seconds' || unit === 'milliseconds';
  if (family === 'set' && value <= 0n) return { value, rejected: true };
  if (seconds && (value > LLONG_MAX / 1000n || value < -(LLONG_MAX / 1000n))) return { value, rejected: true };
  const ms = seconds ? value * 1000n : value;
  return { value, rejected: relative && ms > LLONG_MAX - YEAR_2020_MS };
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
 * fraction, not an integer as Redis parses one: `'60s'`, `'60.0'`, `'+5'`, or out of its range:
 * {@link expiryLiteral}). An expression's value is never bad here.
 */
export function expiryOption(args: readonly CommandArg[], at: number, option: keyof typeof EXPIRY_UNITS): { ttl: { arg: number; unit: (typeof EXPIRY_UNITS)[keyof typeof EXPIRY_UNITS] }; bad: boolean } {
  const unit = EXPIRY_UNITS[option];
  return { ttl: { arg: at + 1, unit }, bad: expiryLiteral(args[at + 1], unit, 'set')?.rejected ?? false };
}

/**
 * The option token at `args[at]` that the command does not know (SET's and GETEX's
 * `unknownOption`): its index, its text (a number written as one), and whether it reads like a
 * TTL in seconds (`set(key, value, 3600)`: a wrapper's argument order taken for SET's).
 */
export function unknownOptionAt(args: readonly CommandArg[], at: number): NonNullable<CommandDescription['unknownOption']> {
  const arg = args[at];
  return { arg: at, token: typeof arg === 'number' ? String(arg) : (arg as string), looksLikeTtl: isSecondsTtl(arg) };
}
