/**
 * A write of a key the same function has just created: it cannot create the key, so it cannot
 * leave it without TTL.
 *
 * HSET, INCR, XADD, SADD, ... on an **existing** key keep its TTL; only on a **missing** key do they
 * create it, without one (semantics/commands.ts: `create-in-place`; semantics/counter-corrections.ts).
 * A write is therefore left alone when, on every path to it in its function, its key exists:
 *
 * ```ts
 * await redis.set(key, 0, 'EX', 3600);              // the creation, on every path
 * await redis.incrbyfloat(key, -qty);               // the key exists: INCRBYFLOAT keeps its TTL
 *
 * const cur = await redis.get(key);                 // the warm-up: read ...
 * if (cur === null) await redis.set(key, base);     //   ... and create when missing
 * await redis.incrbyfloat(key, -qty);               // every path: created, or seen by the read
 * ```
 *
 * What counts, all of it:
 * - the creation: an earlier write of the same key ({@link keyIdOf}: same shape, same pieces) in the
 *   same function, in another unit, after which the key exists (`EFFECTS_THAT_LEAVE_THE_KEY`: SET,
 *   SETEX, SET ... NX, INCR, HSET, XADD, ...), with no deletion or emptying of the key (DEL,
 *   GETDEL, HDEL / SREM / LPOP that may take its last member, PERSIST, RENAME, an EXPIRE whose TTL is
 *   not a known positive duration, a script, FLUSHDB) after it;
 * - either the creation runs before the write on every path (under no branch, loop, `try` or
 *   callback of its own: {@link runsBefore}), or it is the warm-up of a read: it runs, under no
 *   further branch, in the `if` taken when an earlier read of the key replied that the key is
 *   missing (`if (cur === null)`, `if (!(await redis.exists(key)))`: `stale-read.ts`), and that
 *   `if` runs before the write on every path; then the write runs either after the creation or
 *   after the read saw the key.
 *
 * The window between the round trips. A creation moments before gives the key its full, fresh
 * TTL (or no TTL at all): the key is missing at the write only when that TTL runs out within the
 * few round trips in between. So, for a key the file gives a TTL, the creation's reply must be
 * awaited before the write with only Redis commands awaited in between (the window of
 * reserved-counter.ts: an `await job()` in between can outlast the TTL; for a write in a loop that
 * does not hold the creation, the rest of the loop's body too, which runs before its next turn), the creation must
 * restart the TTL (SET ... EX, a SET without TTL, a write followed by EXPIRE in its MULTI /
 * pipeline, or one followed by an EXPIRE of a known positive duration as its own round trip that
 * runs whenever the write does, before the later write: `n = await redis.incr(k); await
 * redis.expire(k, 300);`; not SET ... NX EX, INCR or HSET alone, which keep the TTL an existing
 * key had, maybe in its last millisecond), and the key's variable must not be reassigned in between (nor later in
 * the write's loop, nor in a closure; for a warm-up, from the read on). A read that saw the key
 * does not: it can see a key in the last millisecond of its TTL, and the write then recreates it
 * without one (a rate-limit window read, then INCRed: `staleExists`). So the warm-up counts only
 * when the file gives the key no TTL anywhere (the caller says so: `keyExpiredInFile`): a key
 * without TTL cannot expire between the read and the write. When the file does expire it, the
 * read's path stays reported (`staleExists`), as before.
 *
 * A read that saw the key. A write that runs only when an earlier read of its key replied that
 * the key is there (`const raw = await redis.hget(k, f); if (!raw) return; ... await redis.hset(k,
 * f, next)`: stale-read.ts `seenGuard`, its reply awaited) writes a key that exists: it keeps the
 * key's TTL, or its lack of one, and creates nothing. The read may be an HGETALL tested for both
 * of its missing replies (`{}`, `null`), or sit in a same-file helper the function awaits (`const a
 * = await this.getActive(id); if (!a) return;`: the helper reads the same key through its
 * parameters and returns one known value whenever the key is missing; helper-read.ts). Writes of
 * the key between the read and the write (several field updates) leave it there: the search
 * goes on past them to the read. Between the read and the write, the key can
 * still go in two ways. A deletion by this code: the same search from the write back to the read
 * ends at any deletion or emptying in between, as for a creation. Its TTL running out: so the read
 * counts, as a creation does, only when awaited before the write, the key's variables unchanged,
 * and either the file gives the key no TTL anywhere (it cannot run out; a concurrent DEL elsewhere
 * is a race this rule does not judge) and only Redis commands are awaited in between, or an expiry
 * of the key with a known positive duration follows the write on its path (`await redis.hset(k,
 * ...); await redis.expire(k, TTL)`: the write recreates the key only if it went in between, and
 * the refresh then gives it a TTL again; only a crash in that same moment leaves it without). With
 * the refresh, other work may run between the read and the write (`if (await redis.exists(k)) {
 * const m = await db.find(id); await redis.rpush(k, m); await redis.expire(k, DAY); }`): whatever
 * removed the key meanwhile, its TTL running out or that work, the refresh covers it the same way. A read that saw the key of a key the file expires, with no refresh after the
 * write, stays reported (`staleExists`): a rate-limit window read, then INCRed, races its expiry on
 * every call. The refresh must run whenever the write does (not under an `if`, no exit between
 * them), and no loop around the write may delete the key after it (the next turn's write would
 * create it anew).
 *
 * Just created, then refreshed. A creation that keeps the TTL the key had (HINCRBY, HSET, INCR
 * alone) counts too, for a key the file expires, when its reply is awaited before the write with
 * only Redis commands awaited in between and an expiry of the key follows the write on every path
 * (`hincrby(k, 'a', 1); hincrby(k, 'b', 1); expire(k, DAY)`: {@link keptUntilRefresh}): the write
 * recreates the key only if its TTL ran out within those round trips, and the refresh treats that
 * key as it treats the creation's (of any TTL: one <= 0 deletes both). "On every path" includes an
 * `if` / `else` each arm of which writes the key under no further condition ({@link
 * writtenInEveryArm}). Reads, creations and deletions may be a pass-through facade's commands, read
 * at the caller (facades.ts), as found-record.ts reads them.
 *
 * A correction of a counter between the creation and the write (DECR, INCRBY by a negative amount,
 * running before the write on every path) leaves the key as it is: the search goes on past it to
 * the creation it corrects (`n = await redis.incr(k); await redis.expire(k, 300); if (n > max) {
 * await redis.decr(k); await redis.incr(k); }`: the re-increment finds the key).
 *
 * A creation without TTL is itself reported (set-requires-ttl-or-keepttl's `setWithoutTtl`, this
 * rule's `noExpiry`): the write after it adds no leak of its own, and the fix is at the creation.
 *
 * Not a creation, and still reported: a creation on one branch only (`if (x) await
 * redis.set(k, 0, 'EX', 60)` with a test that reads no reply of the key), one in another function
 * or a callback, one of another key, one followed by a DEL of the key, and a warm-up whose `if` does
 * not test the read's missing reply (`if (cur !== null)`), or of a key the file expires; a read
 * whose missing reply does not stop the write (`if (!cur) log('missing')`, a reply never tested),
 * a read of another key, a read whose reply is not awaited.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { EFFECTS_THAT_LEAVE_THE_KEY, MAY_DELETE_UNNAMED_KEYS, TTL_ONLY_EFFECTS } from '../semantics/counter-corrections.js';
import { callsInFunction, expiryAfterInUnit, expiryInLaterRoundTrip } from './file-index.js';
import { constantNumber } from './constant.js';
import { keyAssignedBetween, keyAssignedInClosure, keyIdOf } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { awaitOf, isDecrement, otherAwaitBetween, runsBefore } from './reserved-counter.js';
import { readMissingMakesTrue, seenGuard, type SeenRead } from './stale-read.js';
import { isFunctionNode } from './client-syntax.js';
import { skippedOnHandledError } from './error-path-deletions.js';
import { foundRecord } from './found-record.js';
import { enclosingFunction, isLoop, unwrap, walk, type AnyContext } from './static.js';


/**
 * The earlier write of the same function that created `write`'s key moments before on every path
 * (see the module comment), when there is one; `undefined` otherwise.
 * @param write the write that would create the key at argument `keyArg` without TTL
 * @param keyExpiredInFile tells whether the file gives the key (its shape) a TTL somewhere: a warm-up
 *   after a read counts only when it does not
 */
export function createdBefore(context: AnyContext, write: RedisCall, keyArg: number, keyExpiredInFile: () => boolean): RedisCall | undefined {
  return createdOrSeenBefore(context, write, keyArg, keyExpiredInFile) ?? foundJustBefore(context, write, keyArg, keyExpiredInFile);
}

/**
 * The read of a record the code has found (a use of its reply that throws on a missing record
 * runs before the write: found-record.ts) when the record is still there at the write: no
 * deletion or emptying of its key (the write's, or the read's when the write's is rebuilt from a
 * field of the record) between the two, facades' commands included, and {@link seenJustBefore}.
 */
function foundJustBefore(context: AnyContext, write: RedisCall, keyArg: number, keyExpiredInFile: () => boolean): RedisCall | undefined {
  const found = foundRecord(context, write, keyArg);
  if (!found) return undefined;
  const keys = new Set([keyIdOf(context, write, keyArg), found.readKey]);
  const between = callsInFunction(context, enclosingFunction(write.node), true).filter(
    (c) => c !== write && c.node.range[0] >= found.read.node.range[1] && c.node.range[1] <= write.node.range[0],
  );
  for (const other of between) {
    if (MAY_DELETE_UNNAMED_KEYS.has(other.command)) return undefined;
    for (const a of other.description.keys) {
      if (a.effect === 'read' || !keys.has(keyIdOf(context, other, a.arg))) continue;
      if (EFFECTS_THAT_LEAVE_THE_KEY.has(a.effect) && !a.mayDelete) continue;
      if (TTL_ONLY_EFFECTS.has(a.effect) && other.unit.kind === 'single' && (a.effect === 'keep-ttl' || positiveDuration(context, other))) continue;
      return undefined;
    }
  }
  return seenJustBefore(context, found, write, keyArg, keyExpiredInFile) ? found.read : undefined;
}

function createdOrSeenBefore(context: AnyContext, write: RedisCall, keyArg: number, keyExpiredInFile: () => boolean): RedisCall | undefined {
  const key = keyIdOf(context, write, keyArg);
  if (!key) return undefined;
  const fn = enclosingFunction(write.node);
  // a client's commands and a pass-through facade's, read at the caller (facades.ts)
  const earlier = callsInFunction(context, fn, true).filter((c) => c.node.range[1] <= write.node.range[0] && c.unit.key !== write.unit.key);
  // the read whose reply, had the key been missing, would have stopped the write (or the awaited
  // call of the helper that made it)
  const seen = seenGuard(context, write, keyArg);
  const reachedSeen = (): RedisCall | undefined => (seen && seenJustBefore(context, seen, write, keyArg, keyExpiredInFile) ? seen.read : undefined);
  // nearest first: a deletion or emptying between the creation (or the read) and the write ends the search
  for (let i = earlier.length - 1; i >= 0; i--) {
    const other = earlier[i]!;
    // back at the helper's call: its read saw the key
    if (seen && seen.node !== seen.read.node && other.node.range[1] <= seen.node.range[0]) return reachedSeen();
    // a script, or a command on the whole database, may delete the key without naming it
    if (MAY_DELETE_UNNAMED_KEYS.has(other.command)) return undefined;
    if (other === seen?.read) return reachedSeen();
    const actions = other.description.keys.filter((a) => a.effect !== 'read' && keyIdOf(context, other, a.arg) === key);
    if (actions.length === 0) continue;
    if (actions.every((a) => TTL_ONLY_EFFECTS.has(a.effect))) {
      // a new TTL that may be <= 0 or in the past (a variable, an EXPIREAT) may delete the key; the
      // EXPIRE queued with the creation in its MULTI / pipeline is the creation's own TTL
      if (other.unit.kind !== 'single' || actions.every((a) => a.effect === 'keep-ttl' || positiveDuration(context, other))) continue;
      return undefined;
    }
    if (!actions.every((a) => EFFECTS_THAT_LEAVE_THE_KEY.has(a.effect) && !a.mayDelete)) return undefined;
    if (runsBefore(other.node, write.node)) {
      if (freshEnough(context, other, write, keyArg, keyExpiredInFile) || keptUntilRefresh(context, other, write, keyArg)) return other;
      // not fresh (HSET keeps a TTL about to run out), but the key stays: the read before it saw
      // the key, and a refresh after the write covers both (`hset(k, 'a', 1); hset(k, 'b', 2);
      // expire(k, 60)` after the read)
      if (seen) continue;
      // a correction of the counter (DECR, INCRBY by a negative amount) leaves the key as it is:
      // the creation it corrects is further back (`n = await redis.incr(k); await redis.expire(k,
      // 60); if (n > max) { await redis.decr(k); ...; await redis.incr(k); }`)
      if (isDecrement(other)) continue;
      return undefined;
    }
    const read = warmUpBefore(context, other, write, keyArg);
    if (read && !keyExpiredInFile() && sameKeyUntil(context, read.node, write, keyArg)) return other;
    // written in every arm of an `if` / `else` that runs before the write (`if (buy) { hincrby(k,
    // 'bought', n); ... } else { hincrby(k, 'sold', n); ... }`)
    if (writtenInEveryArm(context, other, write, keyArg, keyExpiredInFile)) return other;
    // a creation on one branch leaves the key missing on the other: look further back
  }
  return seen && seen.node !== seen.read.node ? reachedSeen() : undefined;
}

/**
 * Whether `write` is the same step of the key's life as `creation` and the key is still there: the
 * key's variable keeps naming the same key, and the creation's reply is awaited before the write
 * with only Redis round trips in between (reserved-counter.ts's window). A key the file gives a
 * TTL could run out during other work; a key it never expires cannot, but a write after the
 * application's own work (a job's handler, a reply sent) is a new step of its life, such as a
 * status going from active to completed, where its retention TTL belongs: it is judged on its own.
 */
function freshEnough(
  context: AnyContext,
  creation: RedisCall,
  write: RedisCall,
  keyArg: number,
  keyExpiredInFile: () => boolean,
  before: (done: TSESTree.Node) => boolean = (done) => runsBefore(done, write.node),
): boolean {
  const fn = enclosingFunction(write.node);
  if (!sameKeyUntil(context, creation.node, write, keyArg)) return false;
  if (!keyExpiredInFile()) {
    const done = awaitOf(context, creation, write, fn);
    return done !== undefined && before(done) && !otherAwaitBetween(context, done, write, fn);
  }
  // the creation must restart the key's TTL: SET ... NX EX, INCR or HSET on a key already there
  // keep the TTL it had, which may be about to run out (the stale window)
  const restarts = creation.description.keys.some(
    (a) =>
      (a.effect === 'create-with-ttl' || a.effect === 'overwrite') && keyIdOf(context, creation, a.arg) === keyIdOf(context, write, keyArg),
  );
  if (
    !restarts &&
    expiryAfterInUnit(context, creation, creation.description.keys[0]?.arg ?? 0)?.description.keys.some((a) => a.effect === 'set-ttl') !== true &&
    !expiredRightAfter(context, creation, write, keyArg)
  ) {
    return false;
  }
  const done = awaitOf(context, creation, write, fn);
  // a write in a loop that does not hold the creation runs again after the rest of the loop's
  // body: an `await sleep()` after it can outlast the TTL before the next turn's write
  return done !== undefined && before(done) && !otherAwaitBetween(context, done, write, fn, Math.max(write.node.range[0], reachOf(creation.node, write.node)));
}

/**
 * Whether `creation` (sent alone: INCR, HSET, ... which keep the TTL a key already had) is followed,
 * before `write`, by an expiry of the same key with a known positive duration sent as its own
 * round trip that runs whenever the creation does, without NX / LT (`n = await redis.incr(k); await
 * redis.expire(k, 300);` then `await redis.decr(k)`): that expiry gives the key a fresh TTL, as SET ... EX does. A
 * crash between the creation and its expiry leaves the key without TTL, the creation's own finding
 * (`separateRoundTrip`); the write after both then finds the key there and creates nothing.
 */
function expiredRightAfter(context: AnyContext, creation: RedisCall, write: RedisCall, keyArg: number): boolean {
  if (creation.unit.kind !== 'single') return false;
  const key = keyIdOf(context, write, keyArg);
  const arg = creation.description.keys.find((a) => a.effect !== 'read' && keyIdOf(context, creation, a.arg) === key)?.arg;
  if (arg === undefined) return false;
  const expiry = expiryInLaterRoundTrip(context, creation, arg);
  // a conditional EXPIRE (NX, LT, ...) may leave the TTL the key had: no restart (semantics/expiry-commands.ts)
  const plain = expiry !== undefined && expiry.description.conditionalExpiry !== true;
  return plain && expiry.node.range[1] <= write.node.range[0] && positiveDuration(context, expiry) && alwaysAfter(context, creation.node, expiry.node);
}

/**
 * Whether the key an earlier write of the same flow left there (`creation`, which may keep a TTL
 * about to run out: HINCRBY, HSET on a hash that exists) is there when `write` runs, or given a
 * TTL again right after it: the creation's reply is awaited before the write with only Redis round
 * trips in between (reserved-counter.ts's window: an `await job()` could outlast the TTL), the
 * key's variables unchanged and no later turn of the write's loop deleting it, and an expiry of the
 * key follows the write on every path ({@link refreshedAfter}; of any duration: it treats the
 * key the creation left as it treats the one the write may recreate).
 * The write then recreates the key only if its TTL ran out within those few round trips, and the
 * refresh gives it one again; only a crash in that same moment leaves it without, the crash that
 * leaves the creation's own key without TTL, which is reported at the creation.
 * @param before whether the creation's `await` runs before the write on every path
 */
function keptUntilRefresh(
  context: AnyContext,
  creation: RedisCall,
  write: RedisCall,
  keyArg: number,
  before: (done: TSESTree.Node) => boolean = (done) => runsBefore(done, write.node),
): boolean {
  const fn = enclosingFunction(write.node);
  if (!sameKeyUntil(context, creation.node, write, keyArg) || deletedOnLaterTurn(context, creation.node, write, keyArg)) return false;
  const done = awaitOf(context, creation, write, fn);
  return done !== undefined && before(done) && !otherAwaitBetween(context, done, write, fn) && refreshedAfter(context, write, keyArg, true);
}

/**
 * Whether `write`'s key is written in every arm of an `if` / `else` that holds `creation` and runs
 * before the write on every path: each arm writes the key, leaving it there, in a statement under
 * no further branch, loop, `try` or callback of the arm (its `await` too), that write fresh enough
 * ({@link freshEnough}) or kept until a refresh ({@link keptUntilRefresh}); and no command of the
 * `if` deletes or empties the key. An `else if` arm, or an arm that writes the key only under a
 * condition of its own, does not count.
 */
function writtenInEveryArm(context: AnyContext, creation: RedisCall, write: RedisCall, keyArg: number, keyExpiredInFile: () => boolean): boolean {
  const key = keyIdOf(context, write, keyArg);
  if (!key) return false;
  let child: TSESTree.Node = creation.node;
  for (let parent: TSESTree.Node | undefined = child.parent; parent; child = parent, parent = parent.parent) {
    if (isFunctionNode(parent)) return false;
    if (parent.type !== AST_NODE_TYPES.IfStatement || !parent.alternate || parent.test === child || !runsBefore(parent, write.node)) continue;
    const branching = parent;
    const calls = callsInFunction(context, enclosingFunction(write.node), true).filter((c) => c.node.range[0] >= branching.range[0] && c.node.range[1] <= branching.range[1]);
    if (calls.some((c) => removesKey(context, c, key))) return false;
    return [branching.consequent, branching.alternate!].every((arm) => {
      const before = (done: TSESTree.Node): boolean => unconditionalIn(done, arm);
      return calls.some(
        (c) =>
          c.node.range[0] >= arm.range[0] &&
          c.node.range[1] <= arm.range[1] &&
          c.unit.key !== write.unit.key &&
          leavesKey(context, c, key) &&
          unconditionalIn(c.node, arm) &&
          (freshEnough(context, c, write, keyArg, keyExpiredInFile, before) || keptUntilRefresh(context, c, write, keyArg, before)),
      );
    });
  }
  return false;
}

/** The nodes a statement holds its call in (`await`, a declaration, a cast): no branch, loop, callback or `try`. */
const STATEMENT_WRAPPERS: ReadonlySet<AST_NODE_TYPES> = new Set([
  AST_NODE_TYPES.AwaitExpression,
  AST_NODE_TYPES.ExpressionStatement,
  AST_NODE_TYPES.VariableDeclarator,
  AST_NODE_TYPES.VariableDeclaration,
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
]);

/** Whether `node` runs whenever `arm` (a branch of an `if`) does: between them only blocks and the wrappers a statement holds its call in. */
function unconditionalIn(node: TSESTree.Node, arm: TSESTree.Node): boolean {
  for (let child: TSESTree.Node = node; child !== arm; child = child.parent!) {
    const parent = child.parent;
    if (!parent || !(parent.range[0] >= arm.range[0] && parent.range[1] <= arm.range[1])) return false;
    if (parent.type !== AST_NODE_TYPES.BlockStatement && !STATEMENT_WRAPPERS.has(parent.type)) return false;
  }
  return true;
}

/** The actions of `call` that write the key identified by `key` (reads aside). */
function writesOf(context: AnyContext, call: RedisCall, key: string) {
  return call.description.keys.filter((a) => a.effect !== 'read' && keyIdOf(context, call, a.arg) === key);
}

/** Whether `call` writes the key `key` and leaves it there (`EFFECTS_THAT_LEAVE_THE_KEY`, never emptying it). */
function leavesKey(context: AnyContext, call: RedisCall, key: string): boolean {
  const actions = writesOf(context, call, key);
  return actions.length > 0 && actions.every((a) => EFFECTS_THAT_LEAVE_THE_KEY.has(a.effect) && !a.mayDelete);
}

/**
 * Whether `call` may delete or empty the key `key`: a script or a command on the whole database,
 * DEL, an HDEL that may take the last field, an expiry whose TTL is no known positive duration
 * sent as its own round trip (the backward search of {@link createdBefore} ends at those too).
 */
function removesKey(context: AnyContext, call: RedisCall, key: string): boolean {
  if (MAY_DELETE_UNNAMED_KEYS.has(call.command)) return true;
  const actions = writesOf(context, call, key);
  if (actions.length === 0) return false;
  if (actions.every((a) => TTL_ONLY_EFFECTS.has(a.effect))) return call.unit.kind === 'single' && !actions.every((a) => a.effect === 'keep-ttl' || positiveDuration(context, call));
  return !actions.every((a) => EFFECTS_THAT_LEAVE_THE_KEY.has(a.effect) && !a.mayDelete);
}

/**
 * Whether an expiry of `write`'s key follows the write as its own round trip and runs whenever the
 * write does (`await redis.hset(k, ...); await redis.expire(k, TTL)`, not under an `if`, no exit or
 * handled failure between them), with a known positive duration unless `anyDuration`.
 * @param anyDuration whether any TTL counts: after an earlier write of the key the refresh treats
 *   the key either write left alike (a TTL <= 0 deletes both, a rejected one leaves both), so the
 *   later write adds nothing to the earlier one's finding
 */
function refreshedAfter(context: AnyContext, write: RedisCall, keyArg: number, anyDuration = false): boolean {
  const refresh = expiryInLaterRoundTrip(context, write, keyArg);
  return refresh !== undefined && (anyDuration || positiveDuration(context, refresh)) && alwaysAfter(context, write.node, refresh.node);
}

/**
 * Whether the key `read` saw is still there when `write` runs (see "A read that saw the key" in the
 * module comment): the read's reply is awaited before the write, the key's variables keep naming
 * the same key, and either the file never expires the key and only Redis round trips run in
 * between, or an expiry of it with a known positive duration follows the write on its path.
 */
function seenJustBefore(context: AnyContext, seen: SeenRead, write: RedisCall, keyArg: number, keyExpiredInFile: () => boolean): boolean {
  const fn = enclosingFunction(write.node);
  const read = seen.node;
  const helper = seen.node !== seen.read.node;
  if (!sameKeyUntil(context, read, write, keyArg, !helper)) return false;
  // the read itself, or the `await` of the helper's call (stale-read.ts seenGuard: its read is awaited)
  const done = helper ? awaitedAt(read) : awaitOf(context, seen.read, write, fn);
  if (done === undefined || !runsBefore(done, write.node)) return false;
  if (deletedOnLaterTurn(context, read, write, keyArg)) return false;
  const refreshed = (): boolean => refreshedAfter(context, write, keyArg);
  // other work in between (a database query, a job): the key may be gone by the write, expired or
  // deleted by that work; only a refresh right after the write gives a key recreated then its TTL again
  if (otherAwaitBetween(context, done, write, fn)) return keyExpiredInFile() && refreshed();
  return !keyExpiredInFile() || refreshed();
}

/**
 * Whether the key may be gone when `write` runs again: a deletion or emptying of it after the
 * write in a loop that holds the write and not the read (`for (const move of moves) { await
 * redis.hset(k, 'last', move); if (move === 'resign') await redis.del(k); }`: the next turn's HSET
 * creates the key anew, without TTL).
 */
function deletedOnLaterTurn(context: AnyContext, read: TSESTree.Node, write: RedisCall, keyArg: number): boolean {
  const end = reachOf(read, write.node);
  if (end <= write.node.range[1]) return false;
  const key = keyIdOf(context, write, keyArg);
  return callsInFunction(context, enclosingFunction(write.node), true).some(
    (other) =>
      other !== write &&
      other.node.range[0] >= write.node.range[1] &&
      other.node.range[1] <= end &&
      (MAY_DELETE_UNNAMED_KEYS.has(other.command) ||
        other.description.keys.some((a) => a.effect !== 'read' && keyIdOf(context, other, a.arg) === key && !TTL_ONLY_EFFECTS.has(a.effect) && !(EFFECTS_THAT_LEAVE_THE_KEY.has(a.effect) && !a.mayDelete))),
  );
}

/** The `await` a call's value is handed to (`await this.get(id)`, through casts and `?.`), if any. */
function awaitedAt(call: TSESTree.Node): TSESTree.AwaitExpression | undefined {
  let node: TSESTree.Node = call;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.ChainExpression || unwrap(node.parent) !== node.parent)) node = node.parent;
  return node.parent?.type === AST_NODE_TYPES.AwaitExpression ? node.parent : undefined;
}

/** Expressions and statements that evaluate their operand each time they run. */
const PLAIN_PARENTS = new Set(['ExpressionStatement', 'AwaitExpression', 'CallExpression', 'MemberExpression', 'ChainExpression', 'VariableDeclarator', 'VariableDeclaration', 'ReturnStatement', 'TSAsExpression', 'TSNonNullExpression', 'ArrayExpression']);

/**
 * Whether `later` (an expiry refreshing the key) runs whenever `write` does: it sits, outside any
 * branch, in a statement of a block that holds the write, and no `return`, `throw`, `break` or
 * `continue` between them leaves first (`if (x) await redis.expire(k, 60)` refreshes only some
 * writes), nor a failure of work between them that a `catch` handles and goes on.
 */
function alwaysAfter(context: AnyContext, write: TSESTree.Node, later: TSESTree.Node): boolean {
  let statement: TSESTree.Node = later;
  while (statement.parent && statement.parent.type !== 'BlockStatement' && statement.parent.type !== 'Program') {
    if (!PLAIN_PARENTS.has(statement.parent.type)) return false;
    statement = statement.parent;
  }
  const block = statement.parent;
  if (!block || !(block.range[0] <= write.range[0] && write.range[1] <= block.range[1])) return false;
  const from = write.range[1];
  const exits = walk(
    context,
    block,
    (node) => {
      if (node.range[1] <= from || node.range[0] >= later.range[0]) return 'skip';
      if (node.type === 'ReturnStatement' || node.type === 'ThrowStatement') return node.range[0] >= from ? 'stop' : undefined;
      if ((node.type === 'BreakStatement' || node.type === 'ContinueStatement') && node.range[0] >= from) {
        // a loop or switch wholly between the two keeps its own break / continue
        for (let up: TSESTree.Node | undefined = node.parent; up && up !== block; up = up.parent) {
          if (node.label === null && (isLoop(up) || (node.type === 'BreakStatement' && up.type === 'SwitchStatement')) && up.range[0] >= from) return undefined;
        }
        return 'stop';
      }
      return undefined;
    },
    { skipFunctions: true },
  );
  // a failure handled in between (a `catch` that goes on) skips the refresh (error-path-deletions.ts)
  return !exits && !skippedOnHandledError(context, write, later, enclosingFunction(write));
}

/**
 * Whether the TTL `call` sets is a known positive duration (EXPIRE k 60): a variable may be <= 0
 * and an absolute time may be past, and Redis then deletes the key
 * (https://redis.io/docs/latest/commands/expire/).
 */
function positiveDuration(context: AnyContext, call: RedisCall): boolean {
  const ttl = call.description.ttl;
  if (!ttl || (ttl.unit !== 'seconds' && ttl.unit !== 'milliseconds')) return false;
  const literal = call.args[ttl.arg];
  const node = call.argNodes[ttl.arg];
  const value = typeof literal === 'number' ? literal : typeof literal === 'string' ? Number(literal) : node ? constantNumber(context, node) : undefined;
  return value !== undefined && value > 0;
}

/**
 * Whether the variables of `write`'s key keep naming the same key from `from` (the creation, or
 * the read a warm-up follows) to the write: not assigned in between (`key = other`, a shadowing
 * `for (const key of others)`), nor later in the write's loop, nor in a closure.
 * @param declarations whether a `const key = ...` between the two counts: not after a helper's
 *   read, whose key was matched through the initializer (helper-read.ts), not by the name
 */
function sameKeyUntil(context: AnyContext, from: TSESTree.Node, write: RedisCall, keyArg: number, declarations = true): boolean {
  const keyNode = write.argNodes[keyArg];
  if (!keyNode) return true;
  return (
    !keyAssignedBetween(context, keyNode, from.range[1], reachOf(from, write.node), declarations) && !keyAssignedInClosure(context, keyNode, enclosingFunction(write.node))
  );
}

/**
 * Where the code that runs between `creation` and `write` ends: at `write`, or, when `write` sits
 * in a loop that does not hold `creation`, at the end of that loop (its next turn runs the rest
 * of the body first).
 */
function reachOf(creation: TSESTree.Node, write: TSESTree.Node): number {
  let end = write.range[0];
  for (let node = write.parent; node && !(node.range[0] <= creation.range[0] && creation.range[1] <= node.range[1]); node = node.parent) {
    if (isFunctionNode(node)) break;
    if (isLoop(node)) end = node.range[1];
  }
  return end;
}

/**
 * The earlier read of the key when `creation` runs, under no further branch, in the consequent of
 * an `if` whose test holds when that read replied that the key is missing, and that `if` runs
 * before `write` on every path; `undefined` otherwise.
 */
function warmUpBefore(context: AnyContext, creation: RedisCall, write: RedisCall, keyArg: number): RedisCall | undefined {
  let child: TSESTree.Node = creation.node;
  for (let parent: TSESTree.Node | undefined = child.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.IfStatement) {
      return parent.consequent === child && runsBefore(parent, write.node) ? readMissingMakesTrue(context, parent.test, write, keyArg) : undefined;
    }
    if (parent.type === AST_NODE_TYPES.BlockStatement) {
      // the creation's statement in the block, and the block is the `if`'s consequent
      if (parent.parent?.type !== AST_NODE_TYPES.IfStatement || parent.parent.consequent !== parent) return undefined;
      continue;
    }
    // wrappers a statement holds its call in; anything else is a branch, loop, callback or `try`
    if (!STATEMENT_WRAPPERS.has(parent.type)) return undefined;
  }
  return undefined;
}
