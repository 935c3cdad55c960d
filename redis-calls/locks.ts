/**
 * Which writes take a lock: the one reading of locks that the SET rule's suggestions
 * (`set-requires-ttl-or-keepttl`: a lock gets a lock's TTL, never a cache's default), the
 * lifecycle reading of deletes (`redis-calls/lifecycle.ts`: a lock's DEL is its release, never the
 * end of its life) and the key policy (`policy.ts`: a lock its writer releases is no bounded key)
 * share.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_DELETE_KEY, LOCK_OWNER_WRITES, STRING_COUNTERS, type KeyEffect } from '../semantics/commands.js';
import { fileIndexOf } from './file-index.js';
import type { RedisCall } from './normalize.js';
import { keyShapeOf } from './key-shape.js';
import { LOCK_KEY_WORD, LOCK_WORDS, wordsOf } from './names.js';
import { hasStaticPart } from './key-id.js';
import { unwrap, type AnyContext } from './static.js';

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
 * (a word of its key, `names.ts` LOCK_KEY_WORD: `rpc:lock`, `mutex:sync`, not `leaderboard`; or an
 * owner token as the value of SET ... NX / SETNX) that creates it
 * (SET ... NX, SETNX, INCR used as a counter of holders; not SADD / HSET / LPUSH of a set, hash
 * or list named so, which holds members), and a deletion of the same key (DEL,
 * UNLINK, GETDEL) elsewhere in the file: later in the writer's own function on any path (a
 * `finally`, the end of the work), or in another function (a `release()` beside the `acquire()`):
 *
 * ```ts
 * const holders = await redis.incr('rpc:current-index:lock'); // the release below runs only if
 * try { if (holders > 1) return; await work(); }              // the process lives until then: a
 * finally { await redis.del('rpc:current-index:lock'); }      // crash in work() keeps the lock forever
 * ```
 *
 * Such a key is one key, but no bounded one in its effect: an owner that dies before the release
 * leaves it held, and every later acquirer waits or skips the work forever. A constant key is
 * exempt from the key rules as bounded (`policy.ts` `unexpiredBoundedKey`) unless this returns the
 * deletion. Same key: the same expression, or the same key shape with a constant part
 * (`key-id.ts` `hasStaticPart`). `undefined` for a key not named as a lock, a write that creates
 * nothing, or a lock no code of the file deletes (a flag set for good). A lock whose key reaches
 * the write as a parameter of an `acquire(key)` helper is judged where its callers are, and not read
 * here.
 * @param arg the key's argument index in `call`
 */
export function releasedUnexpiringLock(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const action = call.description.keys.find((k) => k.arg === arg);
  // a lock is one string: taken by SET ... NX / SETNX, or counted by INCR; a set, hash or list
  // whose name says lock (`auth:locked_accounts`, `dhcp:leases`) holds members, not a lock
  if (!action || !LOCK_CREATING_EFFECTS.has(action.effect) || (action.effect === 'create-in-place' && !STRING_COUNTERS.has(call.command))) return undefined;
  const keyNode = call.argNodes[arg];
  if (!keyNode) return undefined;
  // the key's words (not `leaderboard`), or an owner token as the value of SET ... NX / SETNX
  const value = call.argNodes[arg + 1];
  const named =
    wordsOf(keyShapeOf(context, keyNode).shape).some((word) => LOCK_KEY_WORD.test(word)) ||
    (value !== undefined && LOCK_OWNER_WRITES.has(call.command) && LOCK_WORDS.test(context.sourceCode.getText(value)));
  if (!named) return undefined;
  const text = context.sourceCode.getText(unwrap(keyNode));
  const shape = keyShapeOf(context, keyNode).shape;
  const same = (node: TSESTree.Node): boolean =>
    context.sourceCode.getText(unwrap(node)) === text || (hasStaticPart(shape) && keyShapeOf(context, node).shape === shape);
  const index = fileIndexOf(context);
  return [...index.calls, ...index.facadeCalls].find(
    (other) =>
      other !== call &&
      other.description.keys.some((k) => EFFECTS_THAT_DELETE_KEY.has(k.effect) && other.argNodes[k.arg] !== undefined && same(other.argNodes[k.arg] as TSESTree.Node)),
  );
}

/** The key effects of a write that takes a lock by creating its key (`semantics/commands.ts`). */
const LOCK_CREATING_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['create-if-missing', 'create-in-place']);
