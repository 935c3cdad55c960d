/**
 * Work queues in Redis: which commands add elements to a list, a set or a sorted set (the
 * producer side) and which take them off without naming them (the consumer side), for
 * `redis-calls/lifecycle.ts` (a queue its consumer drains is deleted with its last element).
 */
import type { KeyAction } from './commands.js';

/** The aggregate types a work queue is kept in: a list, a set, a sorted set. */
export type QueueType = 'list' | 'set' | 'zset';

/**
 * Commands that take elements off an aggregate without naming them, the consumer side of a work
 * queue, by the type they pop: LPOP / RPOP (https://redis.io/docs/latest/commands/lpop/,
 * https://redis.io/docs/latest/commands/rpop/), BLPOP / BRPOP, LMPOP / BLMPOP
 * (https://redis.io/docs/latest/commands/lmpop/) and the source of LMOVE / BLMOVE / RPOPLPUSH /
 * BRPOPLPUSH (https://redis.io/docs/latest/commands/lmove/); SPOP
 * (https://redis.io/docs/latest/commands/spop/); ZPOPMIN / ZPOPMAX
 * (https://redis.io/docs/latest/commands/zpopmin/), BZPOPMIN / BZPOPMAX, ZMPOP / BZMPOP
 * (https://redis.io/docs/latest/commands/zmpop/). Redis deletes a list, set or sorted set when its
 * last element is removed ("Automatic creation and removal of keys",
 * https://redis.io/docs/latest/develop/data-types/#automatic-creation-and-removal-of-keys), so a
 * queue its consumer drains does not outlive its work. Not here: LRANGE / LINDEX / SMEMBERS (reads),
 * LTRIM and ZREMRANGEBY* (keep a bounded part), LREM / SREM / ZREM (remove a named member), and
 * streams, the one aggregate Redis keeps when empty (same page): XREAD / XREADGROUP / XACK / XDEL
 * never delete a stream.
 */
const POP_COMMANDS: ReadonlyMap<string, QueueType> = new Map<string, QueueType>([
  ['LPOP', 'list'],
  ['RPOP', 'list'],
  ['BLPOP', 'list'],
  ['BRPOP', 'list'],
  ['LMPOP', 'list'],
  ['BLMPOP', 'list'],
  ['LMOVE', 'list'],
  ['BLMOVE', 'list'],
  ['RPOPLPUSH', 'list'],
  ['BRPOPLPUSH', 'list'],
  ['SPOP', 'set'],
  ['ZPOPMIN', 'zset'],
  ['ZPOPMAX', 'zset'],
  ['BZPOPMIN', 'zset'],
  ['BZPOPMAX', 'zset'],
  ['ZMPOP', 'zset'],
  ['BZMPOP', 'zset'],
]);

/**
 * Commands that add elements to a list, a set or a sorted set, the producer side of a work queue:
 * LPUSH / RPUSH / LPUSHX / RPUSHX / LINSERT, the destination of LMOVE / BLMOVE / RPOPLPUSH /
 * BRPOPLPUSH, SADD and the destination of SMOVE, ZADD / ZINCRBY. Not XADD (a stream is not deleted
 * when emptied).
 */
const PUSH_COMMANDS: ReadonlyMap<string, QueueType> = new Map<string, QueueType>([
  ['LPUSH', 'list'],
  ['RPUSH', 'list'],
  ['LPUSHX', 'list'],
  ['RPUSHX', 'list'],
  ['LINSERT', 'list'],
  ['LMOVE', 'list'],
  ['BLMOVE', 'list'],
  ['RPOPLPUSH', 'list'],
  ['BRPOPLPUSH', 'list'],
  ['SADD', 'set'],
  ['SMOVE', 'set'],
  ['ZADD', 'zset'],
  ['ZINCRBY', 'zset'],
]);

/**
 * The queue type the key `action` of the command `command` pops from ({@link POP_COMMANDS}: only a
 * key the command may empty, `mayDelete`, so the source of LMOVE and not its destination), or
 * `undefined`.
 */
export function poppedQueue(command: string, action: KeyAction): QueueType | undefined {
  return action.mayDelete ? POP_COMMANDS.get(command) : undefined;
}

/**
 * The queue type the key `action` of the command `command` adds elements to ({@link PUSH_COMMANDS}:
 * a key it may create or modify, so the destination of LMOVE and not its source), or `undefined`.
 */
export function pushedQueue(command: string, action: KeyAction): QueueType | undefined {
  if (action.mayDelete || (action.effect !== 'create-in-place' && action.effect !== 'modify-if-present')) return undefined;
  return PUSH_COMMANDS.get(command);
}
