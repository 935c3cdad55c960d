/**
 * Redis facts behind a compensating decrement (`redis-calls/reserved-counter.ts`):
 *
 * - DECR / DECRBY, and INCRBY / INCRBYFLOAT by a negative amount, treat a missing key as 0: on a
 *   missing key they create it (at -1, or minus the amount) **without TTL**; on an existing key
 *   they keep its TTL (https://redis.io/docs/latest/commands/decr/,
 *   https://redis.io/docs/latest/commands/decrby/, https://redis.io/docs/latest/commands/incrby/;
 *   "counters keep their TTL" is checked on redis-server in tests/semantics/counters-redis.test.ts).
 *   So such a decrement can leave a key without TTL only when the key is missing as it runs.
 * - After a successful command with one of {@link EFFECTS_THAT_LEAVE_THE_KEY}, its key exists:
 *   INCR / INCRBY / HINCRBY / SADD / ... (`create-in-place`), SET / SETEX / ... (`overwrite`,
 *   `create-with-ttl`), and SET ... NX with or without EX (`create-if-missing(-with-ttl)`: it
 *   either wrote the key or found it there). Until that key expires or is deleted, a decrement of
 *   it finds it.
 */
import { counterStep, type CommandArg, type KeyEffect } from './commands.js';

/**
 * Effects that change a key's TTL but leave the key, and its existence, as it is: EXPIRE and its
 * kin with a positive duration (https://redis.io/docs/latest/commands/expire/; a TTL <= 0 or a past
 * time deletes the key, which callers check apart), and KEEPTTL.
 */
export const TTL_ONLY_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['set-ttl', 'set-ttl-if-has-ttl', 'keep-ttl']);

/**
 * Commands that may delete a key without naming it among their keys: a script (its keys' effects
 * are its code's: https://redis.io/docs/latest/commands/eval/, https://redis.io/docs/latest/commands/fcall/)
 * and the whole-database ones (https://redis.io/docs/latest/commands/flushdb/,
 * https://redis.io/docs/latest/commands/flushall/, https://redis.io/docs/latest/commands/swapdb/,
 * SELECT to another database: https://redis.io/docs/latest/commands/select/).
 */
export const MAY_DELETE_UNNAMED_KEYS: ReadonlySet<string> = new Set(['EVAL', 'EVALSHA', 'FCALL', 'FLUSHDB', 'FLUSHALL', 'SWAPDB', 'SELECT']);

/** Effects after which the key exists (written, or found there by an `NX` write). */
export const EFFECTS_THAT_LEAVE_THE_KEY: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-in-place',
  'overwrite',
  'create-with-ttl',
  'create-if-missing',
  'create-if-missing-with-ttl',
]);

/**
 * Whether a string-counter command takes from its key: DECR; DECRBY (by an amount not known to be
 * negative: `DECRBY k n` with a run-time `n` is how code writes a decrement); INCRBY / INCRBYFLOAT
 * by an amount known to be negative, or written negated (`incrby(k, -cost)`).
 * @param command the upper-case command
 * @param amount the increment argument's value when the code fixes it
 * @param negated whether the increment argument is written as `-expression`
 */
export function decrementsCounter(command: string, amount: number | undefined, negated: boolean): boolean {
  if (command === 'DECR') return true;
  if (command === 'DECRBY') return amount === undefined || amount > 0;
  if (command === 'INCRBY' || command === 'INCRBYFLOAT') {
    const step = command === 'INCRBY' ? counterStep(command, amount) : amount;
    return step !== undefined ? step < 0 : negated;
  }
  return false;
}

/**
 * The reply of a decrement that ran on a missing key, when the code fixes it: a counter command
 * treats a missing key (or hash field) as 0 and replies the new value, so DECR replies -1, DECRBY n
 * replies -n, INCRBY / INCRBYFLOAT by a negative amount reply that amount, and HINCRBY /
 * HINCRBYFLOAT by a negative amount (which create the hash with that one field) reply it too
 * (https://redis.io/docs/latest/commands/decr/: "If the key does not exist, it is set to 0 before
 * performing the operation"; .../decrby/, .../incrby/, .../hincrby/). `undefined` for an amount
 * the code does not fix, and for an increment (INCR's reply 1 is also an existing key's).
 * @param command the upper-case command
 * @param amount the step argument's value (DECRBY's, INCRBY's; HINCRBY's third argument)
 */
export function decrementReplyOnMissingKey(command: string, amount: number | undefined): number | undefined {
  if (command === 'DECR') return -1;
  if (amount === undefined || !Number.isFinite(amount)) return undefined;
  if (command === 'DECRBY') return amount > 0 ? -amount : undefined;
  if (command === 'INCRBY' || command === 'INCRBYFLOAT' || command === 'HINCRBY' || command === 'HINCRBYFLOAT') return amount < 0 ? amount : undefined;
  return undefined;
}

/**
 * Where a counter command takes its amount: INCRBY / DECRBY / INCRBYFLOAT key amount, HINCRBY /
 * HINCRBYFLOAT key field amount (https://redis.io/docs/latest/commands/incrby/,
 * https://redis.io/docs/latest/commands/hincrby/).
 */
const AMOUNT_ARG: ReadonlyMap<string, number> = new Map([
  ['INCRBY', 1],
  ['DECRBY', 1],
  ['INCRBYFLOAT', 1],
  ['HINCRBY', 2],
  ['HINCRBYFLOAT', 2],
]);

/**
 * The amount a counter command's arguments fix (`decrby(k, 2)`, `hincrby(k, f, '-1')`), a finite
 * number; `undefined` for a command without an amount (INCR, DECR), or an amount not known.
 * @param command the upper-case command
 * @param args the command's arguments as the code fixes them
 */
export function counterAmount(command: string, args: readonly CommandArg[]): number | undefined {
  const index = AMOUNT_ARG.get(command);
  const value = index === undefined ? undefined : args[index];
  const amount = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : undefined;
  return amount !== undefined && Number.isFinite(amount) ? amount : undefined;
}
