/**
 * Keys whose life the code manages itself, without a TTL (what `set-requires-ttl-or-keepttl` and
 * `incr-needs-expire-on-create` leave out of `recommended`):
 *
 * - a key **the file deletes itself and never expires** ({@link deletedElsewhere}): another
 *   function of the same file, not on the writer's own path, deletes the whole key (DEL, UNLINK,
 *   GETDEL: the `delete` effect of `semantics/commands.ts`; a RENAME only when its destination is
 *   deleted after it, `moved-keys.ts`; such a move drains the key even when the file expires it) and nothing in the file gives that key
 *   shape a TTL, nor the code beyond it (a cache family, `cache-keys.ts`: its DEL is an
 *   invalidation). A GC, a sweeper, an invalidation on change: a crash before the DEL leaves the key
 *   forever, which only `strict` reports;
 * - an **ID sequence** ({@link idSequence}): an INCR / INCRBY whose reply becomes the identifier of
 *   other keys or records. Expiring it would reissue ids;
 * - a **work queue its consumer drains** ({@link drainedElsewhere}): a list, set or sorted set the
 *   file pushes to and pops from (LPOP, BRPOP, LMOVE, SPOP, ZPOPMIN ...) in another function:
 *   Redis deletes it with its last element, so it does not outlive its work, unless the consumer
 *   stops;
 * - a **field update of a record created with a TTL** ({@link createdWithTtlElsewhere}): a write
 *   that keeps the key's TTL (HSET, HINCRBY, SADD ...) of a key another function of the file
 *   creates with an expiry (SET ... EX, or a write and its EXPIRE): the record carries its TTL, and
 *   only an update racing the expiry recreates a partial record without one.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import {
  EFFECTS_THAT_CLEAR_TTL,
  EFFECTS_THAT_DELETE_KEY,
  EFFECTS_THAT_KEEP_TTL,
  EFFECTS_THAT_SET_TTL,
  EFFECTS_THAT_WRITE_WITHOUT_TTL,
  EXPIRY_EFFECTS,
  movedTo,
  type KeyAction,
  type KeyEffect,
  STRING_COUNTERS,
} from '../semantics/commands.js';
import { poppedQueue, pushedQueue, STREAM_WRITES, streamUse, type QueueType } from '../semantics/queues.js';
import { appendedToCachedString } from './appended-cache.js';
import { expiredInTheCode } from './cache-keys.js';
import { deletedAfterOnEveryPath, deletesAfter } from './deleted-after.js';
import { deletedOnlyWithoutError } from './error-path-deletions.js';
import { drainMatches, mayRun, patternDrains } from './pattern-drains.js';
import { destinationDeleted, drainCovers, removesWholeKey } from './moved-keys.js';
import { createdWithTtlInAnotherModule, deletedInAnotherModule, otherModuleOf } from './cross-file-lifecycle.js';
import { fileIndexOf } from './file-index.js';
import { deletesExpiringKeys } from './expiring-companions.js';
import { deletedByTimer } from './timer-deletions.js';
import { hasStaticPart, keyIdOf, sameKeyByShape } from './key-id.js';
import { ID_NAME, LIMIT_NAME, QUEUE_NAME } from './names.js';
import { namesLock } from './locks.js';
import { namedFunctionOf } from './builder-lookup.js';
import { calledName, functionsByName, keyShapeOf, perBuildKey } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import { constInitializer, encloses, enclosingFunction, findVariable, inCallbackOf, outermostFunction, referenceName, unwrap, walk, type AnyContext, type FunctionLike } from './static.js';

/** How many calls deep {@link reaches} follows a function's calls by name. */
const MAX_CALL_DEPTH = 4;

/**
 * The call that deletes the key at argument `arg` of the write `call` in another function of the
 * file, when the write's key is managed by the code and never expires; `undefined` otherwise.
 * Counted: DEL / UNLINK / GETDEL (also through a pass-through facade) of the same key shape
 * (`redis-calls/key-id.ts` {@link sameKeyByShape}) in a named function that is not the writer's
 * (nor encloses it, nor is enclosed by it) and does not call it, directly or through up to four
 * calls of the file's functions by name (`finish() { step(); del(k) }` deletes only on the
 * success path of the operation that wrote: a crash leaves it, a leak), nor shares with it an
 * enclosing function other than a module wrapper (two closures of one request handler). Never for a lock (SET NX,
 * SETNX, a key or value named lock / token / owner ...: the DEL is its release, and a crashed owner
 * holds it forever), nor for a failed-attempt or rate counter ({@link limitCounter}: the DEL
 * resets it when the same identity succeeds, and an identity that never comes back keeps it), nor
 * for a key under a per-build prefix (`${BUILD_ID}:tag:${tag}`, key-shape.ts
 * `perBuildKey`: the next deploy's deleter names its own build's keys, never the previous ones),
 * nor when the file gives the key shape a TTL anywhere (an INCR + EXPIRE next to
 * a `resetKey(key) { del(key) }`: the key is meant to expire), nor when the code does beyond the
 * file (a cache family: an expiring write in a module the file imports, or a call of a helper that
 * writes its key with a TTL, `redis-calls/cache-keys.ts`: the DEL is an invalidation), nor for a DEL run
 * from an in-process one-off timer (`redis-calls/timer-deletions.ts`: a restart before it fires leaves
 * the key), nor when the writer, or a function
 * of the file it calls, gives any key a TTL (an index set written beside a record that expires:
 * the record's expiry never runs the DEL, so the index outlives it), nor for an APPEND to a
 * read-through cache string (`redis-calls/appended-cache.ts`: the DEL is its invalidation).
 */
export function deletedElsewhere(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement') return undefined;
  const action = call.description.keys.find((key) => key.arg === arg);
  if (!action || action.effect === 'create-if-missing') return undefined;
  // a failed-attempt or rate counter: its DEL is a reset on success, not the end of its life
  if (limitCounter(context, call, arg)) return undefined;
  if (namesLock(context, call, arg)) return undefined;
  // deleted after the write on every path of its own function (deleted-after.ts)
  const after = deletedAfterOnEveryPath(context, call, arg);
  if (after) return after;
  // an APPEND to a read-through cache string: its DEL invalidates the cache, it does not end what
  // the append grows or recreates (appended-cache.ts)
  if (appendedToCachedString(context, call, arg)) return undefined;
  const shape = keyShapeOf(context, keyNode);
  // a key under a per-build prefix: the deleter of the next deploy names that build's keys only
  if (perBuildKey(context, keyNode)) return undefined;
  const writer = namedFunctionOf(call.node);
  // a job that moves the key away and deletes where it moved it (moved-keys.ts): a flush, which
  // ends the key even when the file also gives it a TTL (a safety net, not the key's end)
  const moved = writer ? movedAwayElsewhere(context, call, shape.shape, writer) : undefined;
  if (moved) return moved;
  const index = fileIndexOf(context);
  if (index.expiredShapes.has(shape.shape)) return undefined;
  const id = keyIdOf(context, call, arg);
  if (id !== undefined && index.expiredKeyIds.has(id)) return undefined;
  // a cache: the code gives the key family a TTL in another module (an expiring write there, or a
  // call of a helper that writes its key with one): the DEL is an invalidation (cache-keys.ts)
  if (expiredInTheCode(context, shape.shape)) return undefined;
  if (!writer) return undefined;
  // a writer that gives keys TTLs writes expiring records: a key it leaves without one beside them
  // (a record's index set) outlives the record, whose expiry never runs the DEL elsewhere
  if (givesTtl(context, writer)) return undefined;
  const deletions = keyUsesByShape(context, 'deletion').get(shape.shape) ?? [];
  for (const { call: other, arg: deletedArg } of deletions) {
    if (!sameKey(context, shape.shape, call, arg, other, deletedArg)) continue;
    const deleter = namedFunctionOf(other.node);
    if (!deleter || deleter === writer || encloses(deleter, writer) || encloses(writer, deleter)) continue;
    // a DEL on the success path of a `try` whose `catch` goes on without it (error-path-deletions.ts)
    if (deletedOnlyWithoutError(context, other.node, deleter, deletions.map((d) => d.call.node))) continue;
    // two closures of one operation (a request handler's `fail` and `step`): the same flow
    if (sharedOperation(call.node, other.node)) continue;
    if (reaches(context, deleter, writer)) continue;
    // deleted beside keys the file gives a TTL: when those expire instead (a session left to its
    // sliding TTL), the deleter never runs and this key stays
    if (deletesExpiringKeys(context, deleter, shape.shape)) continue;
    // run from an in-process one-off timer: a restart before it fires leaves the key (timer-deletions.ts)
    if (deletedByTimer(context, deleter, other.node)) continue;
    return other;
  }
  // a job that lists the keys by a pattern matching the shape and deletes each (pattern-drains.ts)
  if (hasStaticPart(shape.shape)) {
    for (const drain of patternDrains(context)) {
      if (!drainMatches(drain, shape.shape)) continue;
      const deleter = namedFunctionOf(drain.call.node);
      if (!deleter || deleter === writer || encloses(deleter, writer) || encloses(writer, deleter)) continue;
      if (sharedOperation(call.node, drain.call.node) || reaches(context, deleter, writer) || !mayRun(context, deleter)) continue;
      return drain.call;
    }
  }
  // the same key shape deleted by another module of the package (a room cleanup): cross-file-lifecycle.ts
  return deletedInAnotherModule(context, shape.shape, writer);
}

/**
 * The RENAME / RENAMENX that drains the key of shape `shape` the write `call` makes in `writer`: a
 * move of a key of a shape that covers it (moved-keys.ts drainCovers: the same shape, or its `*`
 * standing for a run without `:`) whose destination the moving function then deletes
 * (destinationDeleted), in a named function other than the writer (nor enclosing it, nor enclosed
 * by it, nor sharing an operation with it) that does not call the writer and may run
 * (pattern-drains.ts mayRun: a drain in dead code ends no key). The shape has a static part.
 */
function movedAwayElsewhere(context: AnyContext, call: RedisCall, shape: string, writer: FunctionLike): RedisCall | undefined {
  if (!hasStaticPart(shape)) return undefined;
  const index = fileIndexOf(context);
  for (const other of [...index.calls, ...index.facadeCalls]) {
    for (const action of other.description.keys) {
      const source = other.argNodes[action.arg];
      if (movedTo(other.description, action.arg) === undefined || !source || source.type === 'SpreadElement') continue;
      if (!drainCovers(keyShapeOf(context, source).shape, shape)) continue;
      if (!destinationDeleted(context, other, action.arg)) continue;
      const mover = namedFunctionOf(other.node);
      if (!mover || mover === writer || encloses(mover, writer) || encloses(writer, mover)) continue;
      if (sharedOperation(call.node, other.node) || reaches(context, mover, writer) || !mayRun(context, mover)) continue;
      return other;
    }
  }
  return undefined;
}

/** A key argument of one call, with what the call does to it (a pop: the kind of queue it drains). */
interface KeyUse {
  call: RedisCall;
  arg: number;
  effect: KeyEffect;
  queue?: QueueType;
}

/** The key uses {@link keyUsesByShape} indexes: pops, expiries, deletions. */
type KeyUseKind = 'pop' | 'expiry' | 'deletion';

/**
 * Whether a key argument is a use of `kind`, and the use: a pop ({@link poppedQueue}: LPOP, BRPOP,
 * the source of LMOVE, SPOP, ZPOPMIN ...), an expiry (`EFFECTS_THAT_SET_TTL`: SET ... EX, SETEX,
 * the EXPIRE family), a deletion of the whole key (`EFFECTS_THAT_DELETE_KEY`: DEL, UNLINK, GETDEL).
 */
function keyUseOf(kind: KeyUseKind, call: RedisCall, key: KeyAction): KeyUse | undefined {
  const use = { call, arg: key.arg, effect: key.effect };
  if (kind === 'pop') {
    const queue = poppedQueue(call.command, key);
    return queue ? { ...use, queue } : undefined;
  }
  return (kind === 'expiry' ? EFFECTS_THAT_SET_TTL : EFFECTS_THAT_DELETE_KEY).has(key.effect) ? use : undefined;
}

const keyUsesCache = new WeakMap<TSESTree.Program, Map<KeyUseKind, ReadonlyMap<string, readonly KeyUse[]>>>();

/**
 * The file's key uses of `kind` ({@link keyUseOf}), also through pass-through facades, by key
 * shape, in source order: built once per file and kind, so that each write looks up its own shape
 * instead of walking every call of the file.
 */
function keyUsesByShape(context: AnyContext, kind: KeyUseKind): ReadonlyMap<string, readonly KeyUse[]> {
  const program = context.sourceCode.ast;
  let byKind = keyUsesCache.get(program);
  if (!byKind) {
    byKind = new Map();
    keyUsesCache.set(program, byKind);
  }
  let byShape = byKind.get(kind);
  if (!byShape) {
    const map = new Map<string, KeyUse[]>();
    const index = fileIndexOf(context);
    for (const other of [...index.calls, ...index.facadeCalls]) {
      for (const key of other.description.keys) {
        const use = keyUseOf(kind, other, key);
        const node = other.argNodes[key.arg];
        if (!use || !node || node.type === 'SpreadElement') continue;
        // a RENAME to a key that lives on moves the value, it does not end it (moved-keys.ts)
        if (kind === 'deletion' && !removesWholeKey(context, other, key.arg)) continue;
        const shape = keyShapeOf(context, node).shape;
        const uses = map.get(shape);
        if (uses) uses.push(use);
        else map.set(shape, [use]);
      }
    }
    byShape = map;
    byKind.set(kind, byShape);
  }
  return byShape;
}

/**
 * The pop that drains the queue the write `call` pushes to at argument `arg`, when the key is a
 * work queue its consumer empties and the file never expires; `undefined` otherwise. Counted: a
 * push to a list, set or sorted set (LPUSH, RPUSH, SADD, ZADD ..., `semantics/commands.ts`
 * `pushedQueue`) and a pop of the same type (LPOP, RPOP, BRPOP, LMOVE's source, LMPOP, SPOP,
 * ZPOPMIN, BZPOPMAX ..., `poppedQueue`; also through a pass-through facade) of the same key shape
 * ({@link sameKey}) in a named function that is not the writer's (nor encloses it, nor is
 * enclosed by it), does not share with it an operation other than a module wrapper, and that the
 * writer does not call, directly or through up to four calls of the file's functions (`add() {
 * lpush(k); trim() }`, `trim() { rpop(k) }` bounds a list its writer keeps: another kind), and
 * that may run (`pattern-drains.ts` mayRun: a consumer in code nothing calls empties nothing). Redis
 * deletes the key with its last element, so the queue does not outlive its work. Never a stream
 * (XADD / XREAD: kept when empty), a read (LRANGE, LINDEX), LTRIM, LREM / SREM / ZREM of a named
 * member, nor a key family the file gives a TTL anywhere (`work:${id}`: meant to expire, and a
 * pop of some ids ends none of the others). A bounded key (`KeyShape.constant`: one queue, or one
 * per configured mode, `type === 'a' ? A_QUEUE : B_QUEUE`) counts even when the file expires it
 * (an LPUSH then a separate EXPIRE): a crash in between leaves that one key holding at most the
 * backlog its consumer empties.
 */
export function drainedElsewhere(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement') return undefined;
  const action = call.description.keys.find((key) => key.arg === arg);
  const queue = action ? pushedQueue(call.command, action) : undefined;
  if (!queue) return undefined;
  const { shape, constant } = keyShapeOf(context, keyNode);
  const index = fileIndexOf(context);
  // a key with no static part (`queueName`) is only the key it names: the TTL of a cache record
  // `set(key, v, { PX })` elsewhere in the file says nothing of it (its own expiry: the key id)
  const id = keyIdOf(context, call, arg);
  const expired = (hasStaticPart(shape) && index.expiredShapes.has(shape)) || (id !== undefined && index.expiredKeyIds.has(id));
  // a family the file expires is meant to expire: a pop of some of its keys ends none of the
  // others. A bounded key (one queue, or one per configured mode) holds at most the backlog its
  // consumer empties, TTL or not
  if (expired && !constant) return undefined;
  const writer = namedFunctionOf(call.node);
  if (!writer) return undefined;
  for (const pop of keyUsesByShape(context, 'pop').get(shape) ?? []) {
    // a pop takes off whatever was pushed, from a key of its own type (semantics/members.ts takesOff: a pop's only condition)
    if (pop.queue !== queue || !(sameKey(context, shape, call, arg, pop.call, pop.arg) || sameQueueParameter(context, shape, call, arg, pop.call, pop.arg))) continue;
    const consumer = namedFunctionOf(pop.call.node);
    if (!consumer || consumer === writer || encloses(consumer, writer) || encloses(writer, consumer)) continue;
    if (sharedOperation(call.node, pop.call.node)) continue;
    // the writer trimming its own list through a helper: bounded, not consumed
    if (reaches(context, writer, consumer)) continue;
    // a consumer nothing runs empties nothing (pattern-drains.ts mayRun)
    if (!mayRun(context, consumer)) continue;
    return pop.call;
  }
  return undefined;
}

const streamUsesCache = new WeakMap<TSESTree.Program, readonly KeyUse[]>();

/** The file's stream commands that name a consumer group or cap a stream (`semantics/queues.ts` streamUse), with their key. */
function streamUses(context: AnyContext): readonly KeyUse[] {
  const program = context.sourceCode.ast;
  let uses = streamUsesCache.get(program);
  if (!uses) {
    const list: KeyUse[] = [];
    const index = fileIndexOf(context);
    for (const other of [...index.calls, ...index.facadeCalls]) {
      if (!streamUse(other.command, other.args)) continue;
      for (const key of other.description.keys) {
        const node = other.argNodes[key.arg];
        if (node && node.type !== 'SpreadElement') list.push({ call: other, arg: key.arg, effect: key.effect });
      }
    }
    uses = list;
    streamUsesCache.set(program, uses);
  }
  return uses;
}

/**
 * The call that makes the stream the write `call` creates at argument `arg` a message bus kept on
 * purpose, or `undefined`. Counted: a stream write (XADD, XGROUP CREATE ... MKSTREAM) whose key
 * is one stream, not one per identity (a bounded key, `KeyShape.constant`: `this.streamName`, a
 * constant; or a name with no static part that the caller gives whole: `stream` of
 * `publish(stream, ...)`), when the file names a consumer group of that key (XGROUP CREATE /
 * CREATECONSUMER / SETID, XREADGROUP, XACK, XCLAIM, XAUTOCLAIM, XPENDING: the call itself for
 * XGROUP CREATE ... MKSTREAM) or caps it (XADD ... MAXLEN / MINID, XTRIM), in any function.
 * Redis keeps an empty stream (`semantics/queues.ts`): the application keeps it as its bus, its
 * entries acknowledged or trimmed. Never a per-identity stream (`events:${userId}`: one stream per
 * user outlives the user, whatever reads it), a stream only written or read without a group
 * (XRANGE, XREAD), nor a key the file gives a TTL.
 */
export function keptStream(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement' || !STREAM_WRITES.has(call.command)) return undefined;
  const shape = keyShapeOf(context, keyNode);
  if (!shape.constant && hasStaticPart(shape.shape)) return undefined;
  const id = keyIdOf(context, call, arg);
  if (id !== undefined && fileIndexOf(context).expiredKeyIds.has(id)) return undefined;
  for (const use of streamUses(context)) {
    const node = use.call.argNodes[use.arg]!;
    if (keyShapeOf(context, node).shape !== shape.shape) continue;
    if (use.call === call || sameKey(context, shape.shape, call, arg, use.call, use.arg) || sameQueueParameter(context, shape.shape, call, arg, use.call, use.arg)) return use.call;
  }
  return undefined;
}

/**
 * Whether a push and a pop of a key with no static part name one queue the caller gives: both keys
 * are a bare parameter of their function with the same name, a name that says queue (`queueName`
 * of `enqueue(queueName, v)` and `dequeue(queueName)`). Not a store's generic `key`, nor `t` of
 * minified code: two functions' parameters of another name are two keys.
 */
function sameQueueParameter(context: AnyContext, shape: string, push: RedisCall, pushArg: number, pop: RedisCall, popArg: number): boolean {
  if (hasStaticPart(shape)) return false;
  const a = unwrap(push.argNodes[pushArg]!);
  const b = unwrap(pop.argNodes[popArg]!);
  if (a.type !== 'Identifier' || b.type !== 'Identifier' || a.name !== b.name || !QUEUE_NAME.test(a.name)) return false;
  return isParameter(context, a) && isParameter(context, b);
}

/**
 * The call that creates, with an expiry, the record the write `call` updates at argument `arg`,
 * in another function of the file; `undefined` otherwise. Counted: a write that keeps an existing
 * key's TTL (`EFFECTS_THAT_KEEP_TTL`: HSET, HINCRBY, SADD, ZADD, LPUSH ...; not a string counter,
 * INCR / INCRBY / DECR, which its increment creates) of a key that a named function other than the
 * writer's (nor enclosing it, nor enclosed by it, nor sharing an operation with it) creates with a
 * TTL (for code written only in unnamed callbacks, such as Express route handlers, each side's
 * outermost function stands for its named one: the writer's handler and the creator's are two
 * operations): SET ... EX / SETEX (`create-with-ttl`), or a write of the key followed in that function by
 * its EXPIRE (same key expression). The two keys are one record ({@link sameRecord}: the same key
 * family, or for a key with no static part the same key expression). Never when the writer's own
 * function gives any key a TTL, itself or through the file's functions it calls (it creates: the
 * write then EXPIRE of the same key in two round trips, a member set written beside a record it
 * expires, is its own omission), nor when it clears
 * the key's TTL (SET, GETSET, SET ... XX, PERSIST of the same key: the record loses its expiry on
 * that path).
 */
export function createdWithTtlElsewhere(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement' || STRING_COUNTERS.has(call.command)) return undefined;
  const action = call.description.keys.find((key) => key.arg === arg);
  if (!action || !EFFECTS_THAT_KEEP_TTL.has(action.effect)) return undefined;
  // code written in unnamed callbacks only (route handlers): the outermost one is the operation
  const writer = namedFunctionOf(call.node) ?? outermostFunction(call.node);
  if (!writer) return undefined;
  const shape = keyShapeOf(context, keyNode).shape;
  // a function that gives keys TTLs creates: a key it leaves without one is its omission, not an
  // update (write then EXPIRE in two round trips, an index set beside the record it expires)
  if (givesTtl(context, writer)) return undefined;
  const writerCalls = callsWithin(context, writer);
  // a SET / PERSIST of the same key on the updating path drops the TTL the record carried
  const clears = writerCalls.some(
    (other) =>
      other.description.keys.some((key) => {
        const node = other.argNodes[key.arg];
        if (!EFFECTS_THAT_CLEAR_TTL.has(key.effect) || !node || node.type === 'SpreadElement') return false;
        return keyShapeOf(context, node).shape === shape && sameRecord(context, shape, call, arg, other, key.arg);
      }),
  );
  if (clears) return undefined;
  for (const expiry of keyUsesByShape(context, 'expiry').get(shape) ?? []) {
    if (!sameRecord(context, shape, call, arg, expiry.call, expiry.arg)) continue;
    const named = namedFunctionOf(expiry.call.node);
    const creator = named ?? outermostFunction(expiry.call.node);
    if (!creator || creator === writer || encloses(creator, writer) || encloses(writer, creator)) continue;
    if (sharedOperation(call.node, expiry.call.node)) continue;
    if (expiry.effect === 'create-with-ttl') return expiry.call;
    // EXPIRE of the key the same function wrote before it (HSET + EXPIRE, in a MULTI or not)
    const expiredId = keyIdOf(context, expiry.call, expiry.arg);
    const created = callsWithin(context, creator).find(
      (other) =>
        other.nameNode.range[0] < expiry.call.nameNode.range[0] &&
        // in unnamed callbacks only: the EXPIRE's own handler, not another one a plugin function registers beside it
        (named !== undefined || inCallbackOf(other.node, expiry.call.node)) &&
        other.description.keys.some((key) => EFFECTS_THAT_WRITE_WITHOUT_TTL.has(key.effect) && keyIdOf(context, other, key.arg) === expiredId),
    );
    if (created) return created;
  }
  // the record created with a TTL by another module of the package: cross-file-lifecycle.ts
  return createdWithTtlInAnotherModule(context, shape);
}

/**
 * Whether two key expressions name one record: {@link sameKey} (a key family by its shape, or the
 * same expression and variable); or, for a key with no static part (`*`, `*:*`), the same
 * expression once a `const` is read through (`key` of `const key = this.key(id)` and
 * `this.key(id)`), where a bare name is a parameter of both functions named alike as a record id
 * (`id` of `set(id, ...)` and `setField(id, ...)`, `fileId`; not a store's caller-chosen `key`,
 * nor `t` of minified code).
 */
function sameRecord(context: AnyContext, shape: string, write: RedisCall, writeArg: number, other: RedisCall, otherArg: number): boolean {
  if (sameKey(context, shape, write, writeArg, other, otherArg)) return true;
  if (hasStaticPart(shape)) return false;
  const a = resolvedKey(context, write.argNodes[writeArg]!);
  const b = resolvedKey(context, other.argNodes[otherArg]!);
  const text = (node: TSESTree.Node) => context.sourceCode.getText(node).replace(/\s+/g, '');
  if (text(a) !== text(b)) return false;
  if (a.type !== 'Identifier' || b.type !== 'Identifier') return true;
  return ID_NAME.test(a.name) && isParameter(context, a) && isParameter(context, b);
}

/** The key expression, through a `const` it is read from (one step). */
function resolvedKey(context: AnyContext, node: TSESTree.Node): TSESTree.Node {
  const bare = unwrap(node);
  if (bare.type !== 'Identifier') return bare;
  const init = constInitializer(context, bare);
  return init ? unwrap(init) : bare;
}

function isParameter(context: AnyContext, node: TSESTree.Identifier): boolean {
  return findVariable(context, node)?.defs.some((def) => def.type === 'Parameter') ?? false;
}

/**
 * Whether the deleted key is the written one: a shape that spells a family (`user:*`) is enough
 * ({@link sameKeyByShape}); a key with no static part (`*`) must be the same expression, and a
 * bare variable the same variable (`t` of two functions of minified code are two keys).
 */
export function sameKey(context: AnyContext, shape: string, write: RedisCall, writeArg: number, del: RedisCall, delArg: number): boolean {
  const a = write.argNodes[writeArg]!;
  const b = del.argNodes[delArg]!;
  if (hasStaticPart(shape)) return sameKeyByShape(context, shape, a, b);
  if (keyIdOf(context, write, writeArg) !== keyIdOf(context, del, delArg)) return false;
  if (a.type !== 'Identifier' || b.type !== 'Identifier') return true;
  const variable = findVariable(context, a);
  return variable !== null && variable === findVariable(context, b);
}


/**
 * Whether two nodes are inside one function that is not a module wrapper: their innermost common
 * enclosing function exists and is not immediately invoked (`(function () { ... })()`, the IIFE
 * of a compiled class or a UMD bundle, `(function () { ... }).call(this)`).
 */
export function sharedOperation(a: TSESTree.Node, b: TSESTree.Node): boolean {
  for (let fn = enclosingFunction(a); fn; fn = enclosingFunction(fn)) {
    if (!encloses(fn, b)) continue;
    const parent = fn.parent;
    if (parent?.type === 'CallExpression' && parent.callee === fn) return false;
    if (
      parent?.type === 'MemberExpression' &&
      parent.object === fn &&
      parent.property.type === 'Identifier' &&
      ['call', 'apply'].includes(parent.property.name) &&
      parent.parent?.type === 'CallExpression' &&
      parent.parent.callee === parent
    )
      return false;
    return true;
  }
  return false;
}

/** Per file: the calls of {@link callsWithin}, by every node that encloses one. */
const withinCache = new WeakMap<object, Map<TSESTree.Node, RedisCall[]>>();

/**
 * The file's Redis calls and facade calls inside `fn` (any node: a function, its nested callbacks
 * included), in the file index's order (its calls, then its facade calls). One pass over the
 * file's calls and their ancestors builds the lists of every node, so asking for each function of
 * a file is linear in its calls, not calls times functions.
 */
function callsWithin(context: AnyContext, fn: TSESTree.Node): readonly RedisCall[] {
  const index = fileIndexOf(context);
  let byNode = withinCache.get(index);
  if (!byNode) {
    byNode = new Map();
    for (const call of [...index.calls, ...index.facadeCalls]) {
      for (let node: TSESTree.Node | undefined = call.node; node; node = node.parent) {
        const list = byNode.get(node);
        if (list) list.push(call);
        else byNode.set(node, [call]);
      }
    }
    withinCache.set(index, byNode);
  }
  return byNode.get(fn) ?? [];
}

/** The names a function calls (`f()`, `this.f()`, `obj.f()`), its nested callbacks included. */
function calledNames(context: AnyContext, fn: FunctionLike): Set<string> {
  const names = new Set<string>();
  walk(context, fn.body, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = node.callee;
    if (callee.type === 'Identifier') names.add(callee.name);
    else if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier') names.add(callee.property.name);
  });
  return names;
}

const givesTtlCache = new WeakMap<TSESTree.Program, Map<FunctionLike, boolean>>();

/**
 * Whether `fn`, or a function of the file it calls by name (a few calls deep, {@link
 * reachableFunctions}), gives a key a TTL (an `EXPIRY_EFFECTS` effect of `semantics/commands.ts`:
 * SET ... EX, SETEX, EXPIRE ..., also through a pass-through facade): a function that writes
 * expiring records. Cached per function.
 */
function givesTtl(context: AnyContext, fn: FunctionLike): boolean {
  const program = context.sourceCode.ast;
  let cache = givesTtlCache.get(program);
  if (!cache) {
    cache = new Map();
    givesTtlCache.set(program, cache);
  }
  let known = cache.get(fn);
  if (known === undefined) {
    const expires = (other: RedisCall) => other.description.keys.some((key) => EXPIRY_EFFECTS.has(key.effect));
    known = [...reachableFunctions(context, fn)].some((f) => callsWithin(context, f).some(expires));
    cache.set(fn, known);
  }
  return known;
}

/**
 * Walks the names `from` calls, then those its callees of the file call (by name, up to
 * MAX_CALL_DEPTH calls deep), breadth first, and stops as soon as `stop(name)` is true. Returns the
 * functions reached (`from` included) and whether it stopped.
 */
function walkCalls(context: AnyContext, from: FunctionLike, stop: (name: string) => boolean = () => false): { reached: Set<FunctionLike>; stopped: boolean } {
  const byName = functionsByName(context);
  const reached = new Set<FunctionLike>([from]);
  let frontier: FunctionLike[] = [from];
  for (let depth = 0; depth < MAX_CALL_DEPTH && frontier.length > 0; depth++) {
    const next: FunctionLike[] = [];
    for (const fn of frontier) {
      for (const name of calledNames(context, fn)) {
        if (stop(name)) return { reached, stopped: true };
        for (const callee of byName.get(name) ?? []) {
          if (!reached.has(callee)) {
            reached.add(callee);
            next.push(callee);
          }
        }
      }
    }
    frontier = next;
  }
  return { reached, stopped: false };
}

/** `from` and the file's functions it calls by name, directly or a few calls deep. */
function reachableFunctions(context: AnyContext, from: FunctionLike): Set<FunctionLike> {
  return walkCalls(context, from).reached;
}

/** Whether `from` calls `to` by name, directly or through the file's functions (a few calls deep). */
export function reaches(context: AnyContext, from: FunctionLike, to: FunctionLike): boolean {
  const target = calledName(to);
  return target !== undefined && walkCalls(context, from, (name) => name === target).stopped;
}

/** The counters an ID sequence counts up with, by whole numbers (of semantics' STRING_COUNTERS, whose reply is the new value). */
const SEQUENCE_COMMANDS: ReadonlySet<string> = new Set(['INCR', 'INCRBY']);

/**
 * Why the INCR / INCRBY `call` is an ID sequence, or `undefined`: its reply (awaited, in a
 * `.then(id => ...)` or a Node callback `(err, id) => ...`) flows into the key of another Redis
 * call of the file (`hset(\`job:${id}\`, ...)`), is stored under an id-like name (`{ id: n }`,
 * `job.id = n`, `const jobId = ...` returned or stored), or is returned by a function named like
 * an id (`nextId()`) or from a key named like one (`…:id`, `…:seq`). Never when the reply is
 * compared with a limit (`n > max`: a rate limiter), nor when the file expires the key shape.
 */
export function idSequence(context: AnyContext, call: RedisCall, arg: number): string | undefined {
  if (!SEQUENCE_COMMANDS.has(call.command)) return undefined;
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement') return undefined;
  const shape = keyShapeOf(context, keyNode).shape;
  if (fileIndexOf(context).expiredShapes.has(shape)) return undefined;
  const keyNamed = ID_NAME.test(shape);
  const replies = replyNodes(context, call);
  let reason: string | undefined;
  for (const reply of replies) {
    for (const use of usesOf(context, reply.node)) {
      if (comparedWithLimit(use)) return undefined;
      reason ??= idUse(context, call, use, reply.name, keyNamed);
    }
  }
  return reason;
}

interface Reply {
  /** A node whose value is the reply. */
  node: TSESTree.Node;
  /** The name it is bound to, when it is a variable or a parameter. */
  name?: string;
}

/** The nodes that hold the reply: the call (through `await`), a `.then` / Node-callback parameter. */
function replyNodes(context: AnyContext, call: RedisCall): Reply[] {
  const replies: Reply[] = [{ node: outerValue(call.node) }];
  const last = call.node.type === 'CallExpression' ? call.node.arguments.at(-1) : undefined;
  if (last && (last.type === 'ArrowFunctionExpression' || last.type === 'FunctionExpression') && last.params[1]?.type === 'Identifier') {
    replies.push({ node: last.params[1], name: last.params[1].name });
  }
  const parent = call.node.parent;
  if (parent?.type === 'MemberExpression' && parent.object === call.node && parent.property.type === 'Identifier' && parent.property.name === 'then') {
    const then = parent.parent;
    const fn = then?.type === 'CallExpression' ? then.arguments[0] : undefined;
    if (fn && (fn.type === 'ArrowFunctionExpression' || fn.type === 'FunctionExpression') && fn.params[0]?.type === 'Identifier') {
      replies.push({ node: fn.params[0], name: fn.params[0].name });
    }
  }
  void context;
  return replies;
}

/** The node whose value is `node`'s, through `await`, parentheses, casts and number conversions. */
function outerValue(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    const parent = current.parent;
    if (!parent) return current;
    if (parent.type === 'AwaitExpression' || parent.type === 'TSAsExpression' || parent.type === 'TSNonNullExpression') current = parent;
    else if (
      parent.type === 'CallExpression' &&
      parent.arguments[0] === current &&
      parent.callee.type === 'Identifier' &&
      ['Number', 'String', 'parseInt', 'BigInt'].includes(parent.callee.name)
    )
      current = parent;
    else return current;
  }
}

/**
 * The places the reply's value goes: the reply node itself, and every read of the variable or
 * parameter it is bound to (`const id = await incr(k)`, `(err, id) => ...`).
 */
function usesOf(context: AnyContext, node: TSESTree.Node): TSESTree.Node[] {
  let binding: TSESTree.Identifier | undefined;
  if (node.type === 'Identifier' && node.parent && (node.parent.type === 'ArrowFunctionExpression' || node.parent.type === 'FunctionExpression')) {
    binding = node;
  } else if (node.parent?.type === 'VariableDeclarator' && node.parent.init === node && node.parent.id.type === 'Identifier') {
    binding = node.parent.id;
  } else if (node.parent?.type === 'AssignmentExpression' && node.parent.right === node && node.parent.left.type === 'Identifier') {
    binding = node.parent.left;
  }
  if (!binding) return [node];
  const name = binding.name;
  const scope = context.sourceCode.getScope(binding);
  const variable = scope.set.get(name) ?? scope.references.find((r) => r.identifier.name === name)?.resolved ?? undefined;
  const reads = variable ? variable.references.filter((r) => r.isRead()).map((r) => outerValue(r.identifier)) : [];
  return [node, ...reads];
}

/**
 * Whether the INCR / INCRBY `call` is a failed-attempt or rate counter: its key is one per identity
 * (not bounded, `KeyShape.constant`), and its reply (awaited, in a `.then(n => ...)` or a Node
 * callback) is compared with a limit ({@link comparedWithNamedLimit}: a number, or a name that says
 * limit / max / threshold / allowed / attempts). Such a counter counts the failures or hits of one
 * identity (an email, an IP): a DEL of it elsewhere resets it when that identity succeeds or is
 * locked out, and every identity that never comes back keeps its key forever. Never a counter
 * whose reply is not compared (a sequence, an id allocator), nor a bounded key; a key the file
 * expires anywhere is left to the callers' own checks.
 */
export function limitCounter(context: AnyContext, call: RedisCall, arg: number): boolean {
  if (!SEQUENCE_COMMANDS.has(call.command)) return false;
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement') return false;
  if (keyShapeOf(context, keyNode).constant) return false;
  return replyNodes(context, call).some((reply) => usesOf(context, reply.node).some((use) => comparedWithNamedLimit(context, use)));
}

/**
 * A relational comparison of `use` with a limit: a number (`n > 5`, `n >= -1`), a `const` holding
 * one, or a name that says limit ({@link LIMIT_NAME}: `n >= MAX_ATTEMPTS`, `count > this.limit`,
 * `hits > opts.max`).
 */
function comparedWithNamedLimit(context: AnyContext, use: TSESTree.Node): boolean {
  const parent = use.parent;
  if (!comparedWithLimit(use) || parent?.type !== 'BinaryExpression') return false;
  let other: TSESTree.Node = unwrap(parent.left === use ? parent.right : parent.left);
  if (other.type === 'UnaryExpression' && other.operator === '-') other = unwrap(other.argument);
  if (other.type === 'Literal' && typeof other.value === 'number') return true;
  if (other.type === 'Identifier') {
    const init = constInitializer(context, other);
    if (init && init.type === 'Literal' && typeof init.value === 'number') return true;
  }
  const name = referenceName(other);
  return name !== undefined && LIMIT_NAME.test(name);
}

/** A relational comparison (`n > limit`, `count >= max`): a rate limiter's counter. */
function comparedWithLimit(use: TSESTree.Node): boolean {
  const parent = use.parent;
  return parent?.type === 'BinaryExpression' && ['<', '>', '<=', '>='].includes(parent.operator);
}

/** Why one use of the reply makes it an id, or `undefined`. */
function idUse(context: AnyContext, call: RedisCall, use: TSESTree.Node, name: string | undefined, keyNamed: boolean): string | undefined {
  // in the key of another Redis call of the file (the first in source order whose key holds it)
  const keyOwners = keyArgumentOwners(context);
  let named: RedisCall | undefined;
  for (let node: TSESTree.Node | undefined = use; node; node = node.parent) {
    if (node === use && name === undefined) continue;
    for (const other of keyOwners.get(node) ?? []) {
      if (other !== call && (!named || other.nameNode.range[0] < named.nameNode.range[0])) named = other;
    }
  }
  if (named) return `its reply names the key of ${named.command}`;
  const parent = use.parent;
  if (!parent) return undefined;
  // stored under an id-like name: { id: n }, job.id = n
  if (parent.type === 'Property' && parent.value === use && parent.key.type === 'Identifier' && ID_NAME.test(parent.key.name)) return 'its reply is stored as an id';
  if (
    parent.type === 'AssignmentExpression' &&
    parent.right === use &&
    parent.left.type === 'MemberExpression' &&
    parent.left.property.type === 'Identifier' &&
    ID_NAME.test(parent.left.property.name)
  )
    return 'its reply is stored as an id';
  const returned = parent.type === 'ReturnStatement' || (parent.type === 'ArrowFunctionExpression' && parent.body === use);
  if (returned || parent.type === 'Property' || parent.type === 'AssignmentExpression' || (parent.type === 'CallExpression' && parent.callee !== use)) {
    if (name !== undefined && ID_NAME.test(name)) return 'its reply is kept as an id';
  }
  if (returned) {
    if (keyNamed) return 'its reply is returned from an id key';
    const fn = namedFunctionOf(use);
    const fnName = fn ? calledName(fn) : undefined;
    if (fnName && (ID_NAME.test(fnName) || /^(?:generate|new|next|create|allocate)(?:Id|ID|Seq|Sequence)/.test(fnName))) return 'its reply is returned as an id';
  }
  return undefined;
}

const keyOwnersCache = new WeakMap<TSESTree.Program, ReadonlyMap<TSESTree.Node, readonly RedisCall[]>>();

/** The file's key argument nodes, each with the calls that take it as a key (built once per file). */
function keyArgumentOwners(context: AnyContext): ReadonlyMap<TSESTree.Node, readonly RedisCall[]> {
  const program = context.sourceCode.ast;
  let owners = keyOwnersCache.get(program);
  if (!owners) {
    const map = new Map<TSESTree.Node, RedisCall[]>();
    for (const other of fileIndexOf(context).calls) {
      for (const key of other.description.keys) {
        const node = other.argNodes[key.arg];
        if (node) map.set(node, [...(map.get(node) ?? []), other]);
      }
    }
    owners = map;
    keyOwnersCache.set(program, owners);
  }
  return owners;
}

/** JSON schema of the `allowDeletedKeys` option ({@link deletedElsewhere}). */
export const DELETED_KEYS_SCHEMA = {
  allowDeletedKeys: {
    type: 'boolean',
    description:
      'Do not report a key the same file deletes as a whole (DEL, UNLINK, GETDEL) in another function, off the path of the write (a GC, a sweeper, an invalidation on change), and never gives a TTL: its life is managed by the code. A key family the code gives a TTL beyond the file (a module the file imports writes it with an expiry, or it is passed to a helper that writes its key with one) is a cache, whose DEL is an invalidation: reported. A job that moves the key away (RENAME / RENAMENX) to a key it then deletes drains it, even when the file also gives it a TTL; a RENAME to a key that lives on ends nothing. Locks (SET NX, SETNX, a key or value named lock / token) are always reported. Default true; false in the strict config.',
  },
} as const;

/** JSON schema of the `allowIdSequences` option ({@link idSequence}). */
export const ID_SEQUENCES_SCHEMA = {
  allowIdSequences: {
    type: 'boolean',
    description:
      'Do not report an ID sequence: an INCR / INCRBY whose reply names the key of another Redis call or is stored or returned as an id (expiring it would reissue ids). A counter compared with a limit is always reported. Default true; false in the strict config.',
  },
} as const;

/** The message tail of a write whose key is deleted elsewhere ({@link deletedElsewhere}; its data: {@link deletedElsewhereData}). */
export const DELETED_ELSEWHERE_TEXT =
  'is deleted only by the {{deleter}} at line {{line}}{{where}}: a crash or lost connection before it runs leaves the key forever. Give it an expiry as a safety net, or declare it persistent';

/** JSON schema of the `allowConsumedQueues` option ({@link drainedElsewhere}). */
export const CONSUMED_QUEUES_SCHEMA = {
  allowConsumedQueues: {
    type: 'boolean',
    description:
      'Do not report a push to a work queue (a list, set or sorted set written with LPUSH, RPUSH, SADD, ZADD ...) that another function of the same file pops from (LPOP, RPOP, BRPOP, LMOVE, LMPOP, SPOP, ZPOPMIN, BZPOPMIN ...) and never gives a TTL: Redis deletes the key with its last element, so the queue does not outlive its work. Reads (LRANGE), LTRIM and LREM / SREM of a named member do not count, save a registry: a member added to a set, sorted set or hash (SADD, ZADD, HSET) that another function of the file removes, the same member from the same key (SREM, ZREM, HDEL), as a leave or a reaper does; Redis deletes the collection with its last member. Nor a write (XADD, XGROUP CREATE MKSTREAM) of one stream, not one per identity, that the file reads with a consumer group (XREADGROUP, XACK, XGROUP CREATE ...) or caps (MAXLEN / MINID, XTRIM): a message bus kept on purpose. Default true; false in the strict config.',
  },
} as const;

/** JSON schema of the `allowTtlRecordUpdates` option ({@link createdWithTtlElsewhere}). */
export const TTL_RECORD_UPDATES_SCHEMA = {
  allowTtlRecordUpdates: {
    type: 'boolean',
    description:
      'Do not report a write that keeps the key\'s TTL (HSET, HINCRBY, SADD ...; not a string counter) of a record another function of the same file creates with an expiry (SET ... EX, or a write and its EXPIRE of the same key): the record carries its TTL, and only an update racing the expiry recreates it without one. Reported when the updating function clears the TTL (SET, PERSIST of the key) or gives a key a TTL itself. Default true; false in the strict config.',
  },
} as const;

/** The message tail of a push to a queue popped elsewhere ({@link drainedElsewhere}). */
export const CONSUMED_ELSEWHERE_TEXT =
  'is a queue only the {{consumer}} at line {{line}} (another function) empties: Redis deletes it when empty, but if the consumer stops it stays forever. Give it an expiry, or declare it persistent';

/** The message tail of a stream kept as a message bus ({@link keptStream}). */
export const KEPT_STREAM_TEXT =
  'is a stream read by a consumer group or capped (the {{user}} at line {{line}}): Redis keeps a stream when empty, so it lives until deleted. Give it an expiry, or declare it persistent';

/** The message tail of an update of a record created with a TTL elsewhere ({@link createdWithTtlElsewhere}; its data: {@link createdWithTtlData}). */
export const UPDATES_TTL_RECORD_TEXT =
  'keeps the TTL the {{creator}} at line {{line}} ({{where}}) gives the record, but if the record expired just before, it recreates it without TTL. Update it in a MULTI with EXPIRE, or a script checking EXISTS';

/**
 * The data of {@link DELETED_ELSEWHERE_TEXT} for the deletion `deleter`: its command and line, and
 * where it is: `, in another function` of the linted file, or `` of `cleanup.ts`, in another
 * module`` (a path relative to the linted file's folder) when another module deletes the key
 * (cross-file-lifecycle.ts): its line is a line of that module.
 */
export function deletedElsewhereData(context: AnyContext, deleter: RedisCall): { deleter: string; line: string; where: string } {
  const module = otherModuleOf(context, deleter);
  return {
    deleter: deleter.command,
    line: String(deleter.nameNode.loc.start.line),
    where: module === undefined ? (deletesAfter(deleter) ? ', after the write in its own function' : ', in another function') : ` of \`${module}\`, in another module`,
  };
}

/**
 * The data of {@link UPDATES_TTL_RECORD_TEXT} for the creation `creator`: its command and line,
 * and where it is: `another function` of the linted file, or `` `sessions.ts`, another module``
 * (a path relative to the linted file's folder, whose line it is).
 */
export function createdWithTtlData(context: AnyContext, creator: RedisCall): { creator: string; line: string; where: string } {
  const module = otherModuleOf(context, creator);
  return {
    creator: creator.command,
    line: String(creator.nameNode.loc.start.line),
    where: module === undefined ? 'another function' : `\`${module}\`, another module`,
  };
}
