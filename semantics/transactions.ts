/**
 * What a MULTI / EXEC transaction guarantees about a key written earlier in it, and what the TTL
 * commands reply.
 *
 * - "All the commands in a transaction are serialized and executed sequentially. A request sent by
 *   another client will never be served in the middle of the execution of a Redis Transaction"
 *   (https://redis.io/docs/latest/develop/interact/transactions/), and since Redis 7.0 the time is
 *   frozen while a command (EXEC included) runs, so a key "is either expired or not, and doesn't
 *   change state" during it (https://github.com/redis/redis/pull/10300). A key may still expire
 *   while the commands are queued, before EXEC (https://redis.io/kb/doc/11ed4zroc6/can-a-key-expire-within-a-multi-exec-transaction),
 *   which is why only a write queued in the transaction counts.
 * - A pipeline is not a transaction: other clients' commands, and the key's expiry, can come
 *   between its commands.
 */
import type { KeyEffect } from './commands.js';

/**
 * Effects after which the key exists with a TTL for the rest of the transaction, unless it already
 * existed without one (which only another write could have done): SET ... EX / SETEX / PSETEX
 * (`create-with-ttl`) and SET ... NX EX (`create-if-missing-with-ttl`, https://redis.io/docs/latest/commands/set/).
 * A command queued after one of them in the same MULTI (INCR, HINCRBY, ...) finds the key and so
 * never creates it without TTL.
 */
export const EFFECTS_THAT_CREATE_WITH_TTL_IN_TRANSACTION: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-with-ttl',
  'create-if-missing-with-ttl',
]);

/**
 * Effects after which the key exists with a TTL when a command queued after it in the same
 * pipeline runs: only a write that gives the key a fresh TTL every time (SET ... EX, SETEX, PSETEX:
 * `create-with-ttl`). SET ... NX EX (`create-if-missing-with-ttl`) leaves an existing key as it
 * is (https://redis.io/docs/latest/commands/set/), and a pipeline is no transaction
 * (https://redis.io/docs/latest/develop/using-commands/pipelining/): the old key can expire before
 * the next command, which then creates it without TTL.
 */
export const EFFECTS_THAT_CREATE_WITH_TTL_IN_PIPELINE: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['create-with-ttl']);

/**
 * Whether a write with effect `effect` queued before a command in the same atomic unit leaves the
 * key existing with a TTL when that command runs: {@link EFFECTS_THAT_CREATE_WITH_TTL_IN_TRANSACTION}
 * in a MULTI, {@link EFFECTS_THAT_CREATE_WITH_TTL_IN_PIPELINE} in a pipeline (or the same command).
 */
export function createsWithTtlBefore(effect: KeyEffect, unit: 'single' | 'multi' | 'pipeline'): boolean {
  return (unit === 'multi' ? EFFECTS_THAT_CREATE_WITH_TTL_IN_TRANSACTION : EFFECTS_THAT_CREATE_WITH_TTL_IN_PIPELINE).has(effect);
}

/**
 * Whether a TTL / PTTL reply `reply` compared with a number by `operator` (`reply < 0`,
 * `reply === -1`, ...: the reply on the left) holds when the key exists without a TTL: both commands
 * reply `-1` then, and `-2` when the key does not exist (https://redis.io/docs/latest/commands/ttl/,
 * https://redis.io/docs/latest/commands/pttl/). `value` is the number compared with.
 */
export function holdsForNoTtlReply(operator: string, value: number): boolean {
  const reply = -1;
  switch (operator) {
    case '<':
      return reply < value;
    case '<=':
      return reply <= value;
    case '>':
      return reply > value;
    case '>=':
      return reply >= value;
    case '===':
    case '==':
      return reply === value;
    default:
      return false;
  }
}
