/**
 * Work queues in Redis: which commands add elements to a list, a set or a sorted set (the
 * producer side) and which take them off without naming them (the consumer side), for
 * `redis-calls/lifecycle.ts` (a queue its consumer drains is deleted with its last element); and
 * which commands say a stream is a message bus read by consumer groups or capped in length
 * ({@link streamUse}).
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
 * streams, the one aggregate Redis keeps when empty (same page, and {@link streamUse}): XREAD /
 * XREADGROUP / XACK / XDEL never delete a stream.
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

/**
 * Streams are not deleted when emptied: XDEL / XTRIM / XACK of the last entries leave an empty
 * stream (https://redis.io/docs/latest/develop/data-types/streams/, "Zero length streams": a
 * stream may have consumer groups whose state must survive, so Redis keeps it, unlike a list, a set
 * or a sorted set). A stream lives until it is deleted or expires.
 *
 * Commands that name a consumer group of a stream, by the stream key they take: XREADGROUP
 * (https://redis.io/docs/latest/commands/xreadgroup/), XACK
 * (https://redis.io/docs/latest/commands/xack/), XCLAIM / XAUTOCLAIM
 * (https://redis.io/docs/latest/commands/xautoclaim/), XPENDING
 * (https://redis.io/docs/latest/commands/xpending/), and the XGROUP subcommands that create or
 * move a group or its consumers: XGROUP CREATE [MKSTREAM]
 * (https://redis.io/docs/latest/commands/xgroup-create/), XGROUP CREATECONSUMER, XGROUP SETID.
 */
const GROUP_COMMANDS: ReadonlySet<string> = new Set(['XREADGROUP', 'XACK', 'XCLAIM', 'XAUTOCLAIM', 'XPENDING']);
const GROUP_SUBCOMMANDS: ReadonlySet<string> = new Set(['CREATE', 'CREATECONSUMER', 'SETID']);

/**
 * Trimming strategies that cap a stream's length: XADD ... MAXLEN / MINID
 * (https://redis.io/docs/latest/commands/xadd/) and XTRIM
 * (https://redis.io/docs/latest/commands/xtrim/) evict the oldest entries past a count or an id.
 */
const TRIM_STRATEGIES: ReadonlySet<string> = new Set(['MAXLEN', 'MINID']);

/**
 * What a command says of the stream it names: `'group'` when it reads or manages a consumer group
 * of it ({@link GROUP_COMMANDS}), `'cap'` when it caps the stream's length (XTRIM, XADD with
 * MAXLEN / MINID), `undefined` otherwise (XADD alone, XRANGE / XREAD / XLEN reads, XDEL of named
 * entries). `args` are the argv after the command name, literal values where known (client option
 * objects already read as the tokens they send: `redis-calls/normalize.ts`).
 */
export function streamUse(command: string, args: readonly unknown[]): 'group' | 'cap' | undefined {
  if (GROUP_COMMANDS.has(command)) return 'group';
  if (command === 'XGROUP') return typeof args[0] === 'string' && GROUP_SUBCOMMANDS.has(args[0].toUpperCase()) ? 'group' : undefined;
  if (command === 'XTRIM') return 'cap';
  if (command === 'XADD') return args.some((a) => typeof a === 'string' && TRIM_STRATEGIES.has(a.toUpperCase())) ? 'cap' : undefined;
  return undefined;
}

/**
 * Whether `command` appends an entry to the stream it names without capping it: an XADD with no
 * MAXLEN / MINID (https://redis.io/docs/latest/commands/xadd/), one more entry per call that only
 * a trim or an XDEL removes. `args` as for {@link streamUse}.
 */
export function appendsUncappedEntry(command: string, args: readonly unknown[]): boolean {
  return command === 'XADD' && streamUse(command, args) !== 'cap';
}

/** Commands that create a stream: XADD (without NOMKSTREAM), XGROUP CREATE ... MKSTREAM. */
export const STREAM_WRITES: ReadonlySet<string> = new Set(['XADD', 'XGROUP']);

/**
 * Whether `command` removes entries of the stream it names, so that stream does not keep every
 * entry ever added to it: XTRIM and XADD ... MAXLEN / MINID evict the oldest ({@link streamUse}
 * `'cap'`), XDEL removes the entries it names (https://redis.io/docs/latest/commands/xdel/): a
 * consumer that deletes each entry it has processed drains the stream as LPOP drains a list (the
 * emptied stream key stays, one key). XACK does not: an acknowledged entry stays in the stream.
 * `args` as for {@link streamUse}.
 */
export function removesStreamEntries(command: string, args: readonly unknown[]): boolean {
  return command === 'XDEL' || streamUse(command, args) === 'cap';
}
