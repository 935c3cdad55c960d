/**
 * Which writes take a lock: the one reading of locks that the SET rule's suggestions
 * (`set-requires-ttl-or-keepttl`: a lock gets a lock's TTL, never a cache's default), the
 * lifecycle reading of deletes (`redis-calls/lifecycle.ts`: a lock's DEL is its release, never the
 * end of its life) and the key policy (`policy.ts`: a lock its writer releases is no bounded key)
 * share.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_DELETE_KEY, LOCK_OWNER_WRITES, STRING_COUNTERS, type KeyEffect } from '../semantics/commands.js';
import { fileIndexOf } from './file-index.js';
import type { RedisCall } from './normalize.js';
import { keyShapeOf } from './key-shape.js';
import { LOCK_KEY_WORD, LOCK_WORDS, wordsOf } from './names.js';
import { hasStaticPart } from './key-id.js';
import { unwrap, type AnyContext, type FunctionLike } from './static.js';
import { keyParameter } from './helper-keys.js';
import { callSitesOf } from './facades.js';
import { callReachesWrite } from './wrapper-callers.js';

/**
 * Whether the write of the key at argument `arg` names a lock: the key's shape (`lock:*`,
 * `mutex:*`, `leader`) or, for a command of `semantics/commands.ts` `LOCK_OWNER_WRITES`, the value written with it (an
 * `owner` / `token` / UUID: `set(k, token, 'NX')`, `msetnx(a, randomUUID(), b, randomUUID())`),
 * by the words of `names.ts` `LOCK_WORDS`.
 */
export function namesLock(context: AnyContext, call: RedisCall, arg: number): boolean {
  const keyNode = call.argNodes[arg];
  if (keyNode && LOCK_WORDS.test(keyShapeOf(context, keyNode).shape)) return true;
  return ownerTokenValue(context, call, arg);
}

/**
 * Whether `call` is a command of `semantics/commands.ts` `LOCK_OWNER_WRITES` whose value after the
 * key at argument `arg` reads as an owner token by the words of `names.ts` `LOCK_WORDS` (`owner`,
 * `token`, a UUID: `set(k, token, 'NX')`).
 */
function ownerTokenValue(context: AnyContext, call: RedisCall, arg: number): boolean {
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
 * UNLINK, GETDEL) anywhere else in the file, before or after the write: in the writer's own
 * function on any path (a `finally`, the end of the work), or in another function (a `release()`
 * beside the `acquire()`):
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
 * (`key-id.ts` `hasStaticPart`). The deletion may go through a helper of the file whose key is
 * its parameter (`releaseLock(key) { await redis.del(key); }`): a call of it in the file passing
 * the same key deletes it. `undefined` for a key not named as a lock, a write that creates
 * nothing, or a lock no code of the file deletes (a flag set for good).
 *
 * A lock whose key reaches the write as a parameter of an `acquire(key)` helper (a function or
 * method of the file, whose key the helper's callers choose: `helper-keys.ts`,
 * `wrapper-callers.ts`) is a lock when a call of the helper in the file passes a constant key
 * named as a lock (or the write's value is an owner token) that the file deletes
 * ({@link releasedHelperLock}); callers in other modules are not read here.
 * @param arg the key's argument index in `call`
 */
export function releasedUnexpiringLock(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const action = call.description.keys.find((k) => k.arg === arg);
  // a lock is one string: taken by SET ... NX / SETNX, or counted by INCR; a set, hash or list
  // whose name says lock (`auth:locked_accounts`, `dhcp:leases`) holds members, not a lock
  if (!action || !takesLock(call, action.effect)) return undefined;
  const keyNode = call.argNodes[arg];
  if (!keyNode) return undefined;
  if (namedLockKey(context, call, arg, keyNode)) {
    const direct = deletionOf(context, call, keyNode);
    if (direct) return direct;
  }
  return releasedHelperLock(context, call, arg);
}

/**
 * The lock of a helper whose key is its parameter (see {@link releasedUnexpiringLock}): the write
 * creates the key at argument `arg` without TTL, the key is a parameter of the function or method
 * it is in (`helper-keys.ts` keyParameter), and a call of that helper in the linted file passes a
 * constant key named as a lock (or the write's value is an owner token) that the file deletes:
 *
 * ```ts
 * private async acquireLock(key: string) { return (await redis.incr(key)) === 1; } // no expiry
 * private async releaseLock(key: string) { await redis.del(key); }
 * if (await this.acquireLock(LOCK)) try { await work(); } finally { await this.releaseLock(LOCK); }
 * ```
 *
 * Returns the deletion. Callers are those `facades.ts` callSitesOf finds; those in other modules
 * are neither read nor in the way (a caller there keeps today's verdict for the write).
 */
export function releasedHelperLock(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const action = call.description.keys.find((k) => k.arg === arg);
  if (!action || !takesLock(call, action.effect)) return undefined;
  const keyNode = call.argNodes[arg];
  const parameter = keyNode ? keyParameter(context, keyNode) : undefined;
  if (!parameter) return undefined;
  const ownerToken = ownerTokenValue(context, call, arg);
  // the calls that reach the write (an options argument may choose another arm: `{ nx: true, ex: 30 }`)
  for (const argument of ownArguments(context, parameter.fn, parameter.index, call.node)) {
    const shape = keyShapeOf(context, argument);
    if (!shape.constant || keyParameter(context, argument) !== undefined) continue;
    if (!ownerToken && !wordsOf(shape.shape).some((word) => LOCK_KEY_WORD.test(word))) continue;
    const deletion = deletionOf(context, call, argument);
    if (deletion) return deletion;
  }
  return undefined;
}

/**
 * Whether `call`, creating its key with `effect`, takes a lock: a lock is one string, taken by
 * SET ... NX / SETNX or counted by INCR; a set, hash or list whose name says lock
 * (`auth:locked_accounts`, `dhcp:leases`) holds members, not a lock.
 */
function takesLock(call: RedisCall, effect: KeyEffect): boolean {
  return LOCK_CREATING_EFFECTS.has(effect) && (effect !== 'create-in-place' || STRING_COUNTERS.has(call.command));
}

/** Whether the key at `keyNode` of `call` is named a lock: a word of its key, or an owner token as SET ... NX's value. */
function namedLockKey(context: AnyContext, call: RedisCall, arg: number, keyNode: TSESTree.Node): boolean {
  return wordsOf(keyShapeOf(context, keyNode).shape).some((word) => LOCK_KEY_WORD.test(word)) || ownerTokenValue(context, call, arg);
}

/**
 * A deletion (DEL, UNLINK, GETDEL) in the file, other than `call`, of the key `keyNode` spells: the
 * same expression or the same key shape with a constant part, written at the deletion or passed
 * (in this file) to a helper whose key parameter the deletion deletes.
 */
function deletionOf(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): RedisCall | undefined {
  const text = context.sourceCode.getText(unwrap(keyNode));
  const shape = keyShapeOf(context, keyNode).shape;
  const same = (node: TSESTree.Node): boolean =>
    context.sourceCode.getText(unwrap(node)) === text || (hasStaticPart(shape) && keyShapeOf(context, node).shape === shape);
  const index = fileIndexOf(context);
  return [...index.calls, ...index.facadeCalls].find(
    (other) =>
      other !== call &&
      other.description.keys.some((k) => {
        const deleted = other.argNodes[k.arg];
        if (!EFFECTS_THAT_DELETE_KEY.has(k.effect) || deleted === undefined) return false;
        if (same(deleted)) return true;
        // releaseLock(key) { await redis.del(key); } called with the key in this file
        const parameter = keyParameter(context, deleted);
        return parameter !== undefined && ownArguments(context, parameter.fn, parameter.index).some(same);
      }),
  );
}

/**
 * The arguments at `index` of the calls of `fn` written in the linted file (`facades.ts`
 * callSitesOf: `this.m(...)`, a method of an instance of its class, a function of the module);
 * none when its callers cannot be known. With `write`, only the calls that may reach that write
 * of `fn` (`wrapper-callers.ts` callReachesWrite) and that the rules do not read as a command
 * themselves (a facade's callers are judged where they are).
 */
function ownArguments(context: AnyContext, fn: FunctionLike, index: number, write?: TSESTree.Node): TSESTree.Node[] {
  const found = callSitesOf(context, fn);
  if (!found) return [];
  const program = context.sourceCode.ast;
  const facadeCalls = write ? fileIndexOf(context).facadeCalls : [];
  const args: TSESTree.Node[] = [];
  for (const { call } of found.sites) {
    if (programOf(call) !== program) continue;
    if (write && !callReachesWrite(context, fn, write, call, context)) continue;
    // a call the rules read as the command itself (a facade's caller, `facades.ts`) is judged
    // where it is: its lock is reported there, not again at the helper's write
    if (write && facadeCalls.some((command) => command.node === call)) continue;
    if (call.arguments.slice(0, index + 1).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) continue;
    const argument = call.arguments[index];
    if (argument) args.push(argument);
  }
  return args;
}

function programOf(node: TSESTree.Node): TSESTree.Node {
  let top = node;
  while (top.parent) top = top.parent;
  return top;
}

/** The key effects of a write that takes a lock by creating its key (`semantics/commands.ts`). */
const LOCK_CREATING_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['create-if-missing', 'create-in-place']);
