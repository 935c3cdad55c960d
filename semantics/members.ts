/**
 * Collections written member by member: a set (SADD / SREM), a sorted set (ZADD / ZREM), a hash
 * (HSET / HDEL, its fields). Redis deletes such a key when its last member (field) is removed, so
 * a key whose every member is removed lives only while it has members
 * (https://redis.io/docs/latest/develop/data-types/lists/#automatic-creation-and-removal-of-keys;
 * https://redis.io/docs/latest/commands/sadd/, /zadd/, /hset/, /srem/, /zrem/, /hdel/).
 */
import type { CommandArg } from './commands.js';

/** The collection types whose empty key Redis deletes. */
export type MemberCollection = 'set' | 'zset' | 'hash';

/** Options ZADD may take before its first score. */
const ZADD_OPTIONS = new Set(['NX', 'XX', 'GT', 'LT', 'CH', 'INCR']);

/**
 * The collection a command adds members (fields) to and the argv positions of those members (the
 * key is position 0), or `undefined` for any other command: SADD key member..., ZADD key [NX|XX]
 * [GT|LT] [CH] [INCR] score member..., ZINCRBY key increment member, HSET / HMSET key field value
 * ..., HSETNX key field value, HINCRBY / HINCRBYFLOAT key field increment. Each names one key, its
 * first argument: for the key at any other argv position `keyArg`, `undefined`.
 */
export function addedMembers(command: string, args: readonly CommandArg[], keyArg = 0): { collection: MemberCollection; positions: number[] } | undefined {
  if (keyArg !== 0) return undefined;
  const range = (from: number, step: number) => {
    const out: number[] = [];
    for (let i = from; i < args.length; i += step) out.push(i);
    return out;
  };
  switch (command) {
    case 'SADD':
      return { collection: 'set', positions: range(1, 1) };
    case 'ZADD': {
      let i = 1;
      while (i < args.length && typeof args[i] === 'string' && ZADD_OPTIONS.has(String(args[i]).toUpperCase())) i++;
      return { collection: 'zset', positions: range(i + 1, 2) };
    }
    case 'ZINCRBY':
      return { collection: 'zset', positions: args.length === 3 ? [2] : [] };
    case 'HSET':
    case 'HMSET':
      return { collection: 'hash', positions: args.length % 2 === 1 ? range(1, 2) : [] };
    case 'HSETNX':
    case 'HINCRBY':
    case 'HINCRBYFLOAT':
      return { collection: 'hash', positions: args.length === 3 ? [1] : [] };
    default:
      return undefined;
  }
}

/**
 * The collection a command removes named members (fields) from, their argv positions following
 * the key: SREM key member..., ZREM key member..., HDEL key field...; `undefined` otherwise, and for
 * the key at any argv position `keyArg` but the first (each names one key).
 */
export function removedMembers(command: string, args: readonly CommandArg[], keyArg = 0): { collection: MemberCollection; positions: number[] } | undefined {
  if (keyArg !== 0) return undefined;
  const collection = command === 'SREM' ? 'set' : command === 'ZREM' ? 'zset' : command === 'HDEL' ? 'hash' : undefined;
  if (!collection) return undefined;
  return { collection, positions: args.map((_, i) => i).slice(1) };
}

/**
 * What a command takes off a collection: the members it names (SREM / ZREM / HDEL,
 * {@link removedMembers}), by their identities, or any member, by position (a pop: LPOP, SPOP,
 * ZPOPMIN ..., `semantics/queues.ts` poppedQueue).
 */
export type MemberTaking = { collection: MemberCollection; named: (member: string) => boolean } | { collection: MemberCollection | 'list'; popped: true };

/**
 * Whether a command that takes members off (`taking`) takes off the member `member` an add put
 * in a collection of type `collection`: one notion of "the code removes what it adds", read by the
 * key rules (`redis-calls/member-registry.ts`; `redis-calls/lifecycle.ts` drainedElsewhere, for pops
 * only, compares the two types, which is all a pop asks) and by
 * the scripts' reading (`redis-calls/script-consumers.ts`). A removal by name takes off only the
 * members it names, from a collection of its own type (ZREM names sorted-set members, not hash
 * fields); a pop takes off any member of its type, so a queue its consumer pops empties whatever
 * was pushed. Redis deletes the emptied collection ("Automatic creation and removal of keys",
 * https://redis.io/docs/latest/develop/data-types/#automatic-creation-and-removal-of-keys).
 */
export function takesOff(collection: MemberCollection | 'list', member: string, taking: MemberTaking): boolean {
  if (taking.collection !== collection) return false;
  return 'popped' in taking || taking.named(member);
}
