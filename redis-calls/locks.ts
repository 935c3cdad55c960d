/**
 * Which writes take a lock: the one reading of locks that the SET rule's suggestions
 * (`set-requires-ttl-or-keepttl`: a lock gets a lock's TTL, never a cache's default), the
 * lifecycle reading of deletes (`redis-calls/lifecycle.ts`: a lock's DEL is its release, never the
 * end of its life) and the key policy (`policy.ts`: a lock its writer releases is no bounded key)
 * share.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_DELETE_KEY, LOCK_OWNER_WRITES, type KeyEffect } from '../semantics/commands.js';
import { fileIndexOf } from './file-index.js';
import type { RedisCall } from './normalize.js';
import { keyShapeOf } from './key-shape.js';
import { LOCK_WORDS } from './names.js';
import { enclosingFunction, unwrap, type AnyContext } from './static.js';

/**
 * Whether the write of the key at argument `arg` names a lock: the key's shape (`lock:*`,
 * `mutex:*`, `leader`) or, for a command of `semantics/commands.ts` `LOCK_OWNER_WRITES`, the value written with it (an
 * `owner` / `token` / UUID: `set(k, token, 'NX')`, `msetnx(a, randomUUID(), b, randomUUID())`),
 * by the words of `names.ts` `LOCK_WORDS`.
 */
export function namesLock(context: AnyContext, call: RedisCall, arg: number): boolean {
  const keyNode = call.argNodes[arg];
  if (keyNode && LOCK_WORDS.test(keyShapeOf(context, keyNode).shape)) return true;
  const value = call.argNodes[arg + 1];
  return value !== undefined && LOCK_OWNER_WRITES.has(call.command) && LOCK_WORDS.test(context.sourceCode.getText(value));
}

/**
 * Whether a create-if-missing write (SET ... NX, SETNX, MSETNX) of the key at argument `arg` is a
 * lock ({@link namesLock}). A lock held by a crashed owner blocks everyone until its TTL ends: it
 * needs a TTL the size of the work it guards, never a cache's default of a day.
 */
export function isLockWrite(context: AnyContext, call: RedisCall, arg: number): boolean {
  return call.description.keys.find((k) => k.arg === arg)?.effect === 'create-if-missing' && namesLock(context, call, arg);
}

/**
 * The release of a lock taken without TTL: a write of a key the code names a lock
 * ({@link namesLock}: `rpc:lock`, `mutex:sync`, a value that is an owner token) that creates it
 * (SET ... NX, SETNX, INCR used as a counter of holders) and a deletion of the same key (DEL,
 * UNLINK, GETDEL, by the same expression) later in the writer's own function, on any path (a
 * `finally`, the end of the work):
 *
 * ```ts
 * const holders = await redis.incr('rpc:current-index:lock'); // the release below runs only if
 * try { if (holders > 1) return; await work(); }              // the process lives until then: a
 * finally { await redis.del('rpc:current-index:lock'); }      // crash in work() keeps the lock forever
 * ```
 *
 * Such a key is one key, but no bounded one in its effect: an owner that dies between the two
 * leaves it held, and every later acquirer waits or skips the work forever. A constant key is
 * exempt from the key rules as bounded (`policy.ts` `unexpiredBoundedKey`) unless this returns the
 * deletion. `undefined` for a key not named as a lock, a write that creates nothing, or a lock
 * never deleted by its writer (a flag set for good).
 * @param arg the key's argument index in `call`
 */
export function releasedUnexpiringLock(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const action = call.description.keys.find((k) => k.arg === arg);
  if (!action || !LOCK_CREATING_EFFECTS.has(action.effect) || !namesLock(context, call, arg)) return undefined;
  const keyNode = call.argNodes[arg];
  const writer = enclosingFunction(call.node);
  if (!keyNode || !writer) return undefined;
  const text = context.sourceCode.getText(unwrap(keyNode));
  return fileIndexOf(context).calls.find(
    (other) =>
      other.node.range[0] > call.node.range[1] &&
      enclosingFunction(other.node) === writer &&
      other.description.keys.some((k) => EFFECTS_THAT_DELETE_KEY.has(k.effect) && other.argNodes[k.arg] !== undefined && context.sourceCode.getText(unwrap(other.argNodes[k.arg] as TSESTree.Node)) === text),
  );
}

/** The key effects of a write that takes a lock by creating its key (`semantics/commands.ts`). */
const LOCK_CREATING_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['create-if-missing', 'create-in-place']);
