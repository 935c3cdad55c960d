/**
 * Which writes take a lock: the one reading of locks that the SET rule's suggestions
 * (`set-requires-ttl-or-keepttl`: a lock gets a lock's TTL, never a cache's default) and the
 * lifecycle reading of deletes (`redis-calls/lifecycle.ts`: a lock's DEL is its release, never the
 * end of its life) share.
 */
import { LOCK_OWNER_WRITES } from '../semantics/commands.js';
import type { RedisCall } from './normalize.js';
import { keyShapeOf } from './key-shape.js';
import { LOCK_WORDS } from './names.js';
import type { AnyContext } from './static.js';

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
