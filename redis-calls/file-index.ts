/**
 * Every Redis command of a file, found once and shared by the rules of that file: in source order,
 * grouped by atomic unit, with the key shapes that get an expiry somewhere in the file. Built
 * lazily, the first time a rule needs to look beyond the call it is judging (most files never do).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_EXPIRE_EXISTING_KEY, EFFECTS_THAT_SET_TTL, EFFECTS_THAT_WRITE_WITHOUT_TTL, EXPIRY_EFFECTS } from '../semantics/commands.js';
import { facadeCallsOf } from './facades.js';
import { redisCallsOf } from './index.js';
import { keyShapeOf, type KeyShape } from './key-shape.js';
import { keyIdOf, keyNodeId } from './key-id.js';
import { iteratedKeys } from './key-lists.js';
import { onlyWhenTtlGiven } from './optional-ttl.js';
import { staleGuard } from './stale-read.js';
import { queuedWithWrite } from './queued-with.js';
import { expiredThroughCollection } from './collected-keys.js';

export { keyIdOf } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { enclosingFunction, followsOnItsPath, unwrap, walk, type AnyContext } from './static.js';

export { followsOnItsPath } from './static.js';
import { EFFECTS_THAT_CREATE_WITH_TTL_IN_TRANSACTION } from '../semantics/transactions.js';

export { EXPIRY_EFFECTS } from '../semantics/commands.js';

/** The Redis commands of one file. */
export interface FileIndex {
  /** Every command sent through a client, in source order (the order of their method names). */
  calls: readonly RedisCall[];
  /** The commands of each atomic unit, by unit key, in source order. */
  byUnit: ReadonlyMap<TSESTree.Node, readonly RedisCall[]>;
  /**
   * Shapes of every key that gets a TTL somewhere in the file (EXPIRE, SET ... EX, ...; also
   * through a pass-through facade: `cache.expire(key, 60)`, `redis-calls/facades.ts`).
   */
  expiredShapes: ReadonlySet<string>;
  /** Shapes of the bounded keys among them ({@link KeyShape.constant}: `stream:*` of `this.stream`). */
  expiredBoundedShapes: ReadonlySet<string>;
  /**
   * Shapes among them whose TTL a command gives a key that already exists (EXPIRE, PEXPIRE ...:
   * the `set-ttl` effects; a sliding TTL refreshed on use), not only a write creating the key with
   * one (`SET ... NX PX`, a guard that times out on its own, nor `SET k v` then `EXPIRE k` in one
   * function: the key's TTL given at its creation). Includes the shapes of a key list walked to
   * such an expiry (`for (const key of sessionKeys(id)) p.pexpire(key, ms)`: key-lists.ts).
   */
  refreshedShapes: ReadonlySet<string>;
  /** The same keys by identity ({@link keyIdOf}: `text:this.sessionId`). */
  expiredKeyIds: ReadonlySet<string>;
  /**
   * The command each call of a pass-through facade forwards, read at the call with the caller's
   * key (`cache.expire(key, 60)`, `redis-calls/facades.ts`), in source order.
   */
  facadeCalls: readonly RedisCall[];
}

const indexes = new WeakMap<TSESLint.SourceCode, FileIndex>();

const callNodes = new WeakMap<FileIndex, ReadonlySet<TSESTree.Node>>();

/** The call nodes of every command the file sends through a client ({@link FileIndex.calls}), as a set (cached per file). */
export function redisCallNodes(context: AnyContext): ReadonlySet<TSESTree.Node> {
  const index = fileIndexOf(context);
  let nodes = callNodes.get(index);
  if (!nodes) {
    nodes = new Set(index.calls.map((call) => call.node));
    callNodes.set(index, nodes);
  }
  return nodes;
}

/**
 * Whether a command of the function of `expiry`, before it, writes a key of `shape` without TTL
 * (`set(k, v); expire(k, 60)`, `multi().set(k, v).expire(k, 60)`): the EXPIRE gives the key it has
 * just created its TTL, as `SET k v EX 60` would, and refreshes no existing key
 * ({@link FileIndex.refreshedShapes}).
 */
function writtenBefore(context: AnyContext, calls: readonly RedisCall[], expiry: RedisCall, shape: string): boolean {
  const fn = enclosingFunction(expiry.node);
  return calls.some(
    (other) =>
      other !== expiry &&
      other.nameNode.range[0] < expiry.nameNode.range[0] &&
      enclosingFunction(other.node) === fn &&
      other.description.keys.some((a) => {
        const keyNode = a.arg < other.argNodes.length ? other.argNodes[a.arg] : undefined;
        return EFFECTS_THAT_WRITE_WITHOUT_TTL.has(a.effect) && keyNode !== undefined && keyShapeOf(context, keyNode).shape === shape;
      }),
  );
}

/** The file's index (built on first use, then cached for every rule of the file). */
export function fileIndexOf(context: AnyContext): FileIndex {
  const sourceCode = context.sourceCode;
  let index = indexes.get(sourceCode);
  if (index) return index;
  const calls: RedisCall[] = [];
  const facadeCalls: RedisCall[] = [];
  walk(context, sourceCode.ast, (node) => {
    if (node.type === 'CallExpression') {
      calls.push(...redisCallsOf(context, node));
      facadeCalls.push(...facadeCallsOf(context, node));
    }
  });
  calls.sort((a, b) => a.nameNode.range[0] - b.nameNode.range[0]);
  facadeCalls.sort((a, b) => a.nameNode.range[0] - b.nameNode.range[0]);
  const byUnit = new Map<TSESTree.Node, RedisCall[]>();
  const expiredShapes = new Set<string>();
  const expiredBoundedShapes = new Set<string>();
  const expiredKeyIds = new Set<string>();
  const refreshedShapes = new Set<string>();
  for (const call of calls) {
    const list = byUnit.get(call.unit.key);
    if (list) list.push(call);
    else byUnit.set(call.unit.key, [call]);
  }
  for (const call of [...calls, ...facadeCalls]) {
    for (const action of call.description.keys) {
      const keyNode = call.argNodes[action.arg];
      if (!EXPIRY_EFFECTS.has(action.effect) || !keyNode) continue;
      const shape = keyShapeOf(context, keyNode);
      const refresh = EFFECTS_THAT_EXPIRE_EXISTING_KEY.has(action.effect);
      expiredShapes.add(shape.shape);
      if (refresh && !writtenBefore(context, calls, call, shape.shape)) refreshedShapes.add(shape.shape);
      if (shape.constant) expiredBoundedShapes.add(shape.shape);
      // a key read from a list of keys (`for (const key of sessionKeys(id)) p.pexpire(key, ms)`):
      // the file gives each listed key family a TTL (key-lists.ts)
      const bare = unwrap(keyNode);
      for (const listed of bare.type === 'Identifier' ? iteratedKeys(context, bare) : []) {
        const listedShape = keyShapeOf(listed.context, listed.node).shape;
        expiredShapes.add(listedShape);
        if (refresh && !writtenBefore(context, calls, call, listedShape)) refreshedShapes.add(listedShape);
      }
      const id = keyIdOf(context, call, action.arg);
      if (id) expiredKeyIds.add(id);
    }
  }
  index = { calls, byUnit, expiredShapes, expiredBoundedShapes, refreshedShapes, expiredKeyIds, facadeCalls };
  indexes.set(sourceCode, index);
  return index;
}

interface ByFunction {
  calls: Map<TSESTree.Node | undefined, RedisCall[]>;
  withFacades: Map<TSESTree.Node | undefined, RedisCall[]>;
}

const byFunctionCache = new WeakMap<FileIndex, ByFunction>();

/**
 * The file's calls whose nearest enclosing function ({@link enclosingFunction}) is `fn`
 * (`undefined`: the module's top level), in source order; with `withFacades`, the calls of
 * pass-through facades too ({@link FileIndex.facadeCalls}), merged in source order. Built once per
 * file, so that a rule asking for each call's neighbours does not scan the whole file per call.
 */
export function callsInFunction(context: AnyContext, fn: TSESTree.Node | undefined, withFacades = false): readonly RedisCall[] {
  const index = fileIndexOf(context);
  let byFunction = byFunctionCache.get(index);
  if (!byFunction) {
    const group = (list: readonly RedisCall[]) => {
      const map = new Map<TSESTree.Node | undefined, RedisCall[]>();
      for (const call of list) {
        const owner = enclosingFunction(call.node);
        const calls = map.get(owner);
        if (calls) calls.push(call);
        else map.set(owner, [call]);
      }
      return map;
    };
    const merged = [...index.calls, ...index.facadeCalls].sort((a, b) => a.nameNode.range[0] - b.nameNode.range[0]);
    byFunction = { calls: group(index.calls), withFacades: group(merged) };
    byFunctionCache.set(index, byFunction);
  }
  return (withFacades ? byFunction.withFacades : byFunction.calls).get(fn) ?? [];
}

/**
 * Whether the file gives the bounded key at argument `arg` of `call` a TTL somewhere: a constant
 * key by its spelling (`'jobs:last-run'`); a bounded key with run-time parts (`this.stream`,
 * `` `digest:${frequency}` ``) by its expression, or by the shape of another bounded key.
 */
export function boundedKeyExpired(context: AnyContext, call: RedisCall, arg: number, shape: KeyShape): boolean {
  return boundedKeyIdExpired(context, keyIdOf(context, call, arg), shape);
}

/**
 * {@link boundedKeyExpired} for a key expression no client command of the file sends (a `KEYS`
 * argument of a script call: `redis.eval(SCRIPT, 1, STATE_KEY)`), its identity read from the
 * expression itself ({@link keyNodeId}).
 */
export function boundedKeyNodeExpired(context: AnyContext, keyNode: TSESTree.Node, shape: KeyShape): boolean {
  return boundedKeyIdExpired(context, keyNodeId(context, keyNode), shape);
}

function boundedKeyIdExpired(context: AnyContext, id: string | undefined, shape: KeyShape): boolean {
  const index = fileIndexOf(context);
  if (!shape.shape.includes('*')) return index.expiredShapes.has(shape.shape);
  return (id !== undefined && index.expiredKeyIds.has(id)) || index.expiredBoundedShapes.has(shape.shape);
}

/**
 * Whether the function that writes the key at argument `arg` of `call` also gives that key a TTL
 * (EXPIRE, SET ... EX, ...; also through a pass-through facade), before or after the write, on any
 * branch: the same key expression ({@link keyIdOf}) in the same function. What a `persistentKeys`
 * pattern is overridden by: the code says this key is meant to expire.
 */
export function keyExpiredBeside(context: AnyContext, call: RedisCall, arg: number): boolean {
  const id = arg < 0 ? undefined : keyIdOf(context, call, arg);
  if (id === undefined) return false;
  const index = fileIndexOf(context);
  if (!index.expiredKeyIds.has(id)) return false;
  return callsInFunction(context, enclosingFunction(call.node), true).some(
    (other) =>
      other !== call &&
      other.description.keys.some(
        (action) => EXPIRY_EFFECTS.has(action.effect) && keyIdOf(context, other, action.arg) === id && !optionalExpiry(context, other, action.arg),
      ),
  );
}

/**
 * Whether an expiry is given only when a TTL is: under a test of the TTL value its other arguments
 * read (`if (ttlMinutes) { const ttlSeconds = ttlMinutes * 60; expire(k, ttlSeconds); }`:
 * optional-ttl.ts {@link onlyWhenTtlGiven}). A store that expires a key only when its caller
 * configured a TTL keeps the key otherwise on purpose.
 */
export function optionalExpiry(context: AnyContext, expiry: RedisCall, keyArg: number): boolean {
  const sources = expiry.argNodes.filter((arg, index): arg is TSESTree.Node => index !== keyArg && arg !== undefined);
  return onlyWhenTtlGiven(context, expiry.node, sources);
}

/**
 * The first command after `call` in the same atomic unit that gives the key at argument `arg` a
 * TTL when it has none (EXPIRE / PEXPIRE / ... without XX or GT, SET ... EX, SETEX, GETEX ... EX),
 * or deletes it (by the same key expression, or by a later loop over the keys collected with it:
 * `collected-keys.ts`), and is queued whenever the write is: not only on a branch an earlier read
 * decides (`redis-calls/stale-read.ts`), nor under another branch, loop or callback, after a
 * possible exit, or after the key variable is reassigned (`redis-calls/queued-with.ts`);
 * `undefined` when there is none.
 */
export function expiryAfterInUnit(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  if (call.unit.kind === 'single') return undefined;
  const id = keyIdOf(context, call, arg);
  if (!id) return undefined;
  const unit = fileIndexOf(context).byUnit.get(call.unit.key) ?? [];
  const keyNode = call.argNodes[arg];
  // the later expiries of the same key: the arms of a branch may each queue one (queued-with.ts)
  const sameKey = unit.filter(
    (other) =>
      other.nameNode.range[0] > call.nameNode.range[0] &&
      other.description.keys.some((action) => EFFECTS_THAT_SET_TTL.has(action.effect) && keyIdOf(context, other, action.arg) === id),
  );
  return unit.find(
    (other) =>
      other.nameNode.range[0] > call.nameNode.range[0] &&
      other.description.keys.some(
        (action) =>
          (EFFECTS_THAT_SET_TTL.has(action.effect) || action.effect === 'delete') &&
          // under a branch, loop or callback, after a possible exit, or of a reassigned key: not every time the write runs;
          // unless the branch is the test of the TTL it sends (`if (ttl) m.expire(k, ttl)`: no TTL given, kept on purpose)
          ((keyIdOf(context, other, action.arg) === id && (queuedWithWrite(context, call, other, arg, sameKey) || optionalExpiry(context, other, action.arg))) ||
            // a later loop over the keys collected with it (its variable may be spelled as the write's: `for (const cacheKey of touched)`)
            (keyNode !== undefined && expiredThroughCollection(context, call, keyNode, other, action.arg))),
      ) &&
      // queued only when an earlier round trip's reply says so: not every time the write runs
      !staleGuard(context, other, call, arg),
  );
}

/**
 * The expiry of the key `call` writes at argument `arg`, sent as a round trip of its own after it
 * in the same function (`await redis.set(k, v); await redis.expire(k, 60);`): an EXPIRE-family
 * command (EXPIRE, PEXPIRE, ...) on the same key identity ({@link keyIdOf}), in a statement that
 * follows the write's in the same block, not queued in a MULTI / pipeline. With `passThrough`
 * (the key rules' `allowPassThrough`, on unless turned off) the EXPIRE a pass-through facade
 * forwards counts too (`await cache.expire(key, 60)`). `undefined` when `call` is itself queued in
 * a unit, or there is none: an expiry on another branch, of another key, before the write, or in
 * a callback is none. The write then leaves the key without TTL only until the expiry arrives, or
 * forever when the process dies or the connection drops in between. Both key rules use it
 * (set-requires-ttl-or-keepttl's `setThenExpire`, incr-needs-expire-on-create's `separateRoundTrip`).
 */
export function expiryInLaterRoundTrip(context: AnyContext, call: RedisCall, arg: number, passThrough = true): RedisCall | undefined {
  if (call.unit.kind !== 'single') return undefined;
  const id = keyIdOf(context, call, arg);
  if (!id) return undefined;
  return callsInFunction(context, enclosingFunction(call.node), passThrough).find(
    (other) =>
      other !== call &&
      other.unit.kind === 'single' &&
      other.nameNode.range[0] > call.nameNode.range[0] &&
      followsOnItsPath(call.node, other.node) &&
      other.description.keys.some((action) => action.effect === 'set-ttl' && keyIdOf(context, other, action.arg) === id),
  );
}

/**
 * Whether the key at argument `arg` of `call` is written with a TTL by the command before it in the
 * same unit that last writes or deletes it (`multi().set(k, v, 'EX', 60).set(k, v2, 'KEEPTTL')`,
 * SETEX, SET ... NX EX): the key then exists when `call` runs.
 */
export function createdWithTtlBeforeInUnit(context: AnyContext, call: RedisCall, arg: number): boolean {
  const id = keyIdOf(context, call, arg);
  if (!id) return false;
  const earlier = (fileIndexOf(context).byUnit.get(call.unit.key) ?? []).filter((other) => other.nameNode.range[0] < call.nameNode.range[0]);
  for (let i = earlier.length - 1; i >= 0; i--) {
    const action = earlier[i]!.description.keys.find((a) => a.effect !== 'read' && keyIdOf(context, earlier[i]!, a.arg) === id);
    if (action) return EFFECTS_THAT_CREATE_WITH_TTL_IN_TRANSACTION.has(action.effect);
  }
  return false;
}

/**
 * The command of an earlier round trip that gave the key at argument `arg` of `call` a TTL (SET ...
 * EX, SETEX, EXPIRE, ...), when time passes between the two: the last write of the same key
 * identity before `call` on its path (in another unit, in a statement that runs before the
 * write's, not on another branch, in the same function or one enclosing it), and `call` runs later
 * than the next statement: in a callback written inside that function (`tap(async () =>
 * redis.set(k, '1', 'KEEPTTL'))`, run when the request's handler is done), or after an `await` of
 * something other than a Redis command between them (`await handler()`). The key may have expired
 * in between. `undefined` when there is none (a later write without TTL, or writes in a row).
 */
export function ttlInEarlierRoundTrip(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const id = keyIdOf(context, call, arg);
  if (!id) return undefined;
  // only a call of the caller's function or of a function around it can precede it on its path
  // (followsOnItsPath stops at its own function): those, nearest first, not the whole file
  const calls: RedisCall[] = [];
  for (let fn = enclosingFunction(call.node); ; fn = enclosingFunction(fn)) {
    for (const other of callsInFunction(context, fn)) if (other.nameNode.range[0] < call.nameNode.range[0]) calls.push(other);
    if (!fn) break;
  }
  calls.sort((a, b) => b.nameNode.range[0] - a.nameNode.range[0]);
  for (const other of calls) {
    if (other.unit.key === call.unit.key) continue;
    if (!followsOnItsPath(other.node, call.node)) continue;
    const write = other.description.keys.find((a) => a.effect !== 'read' && keyIdOf(context, other, a.arg) === id);
    if (!write) continue;
    // after an effect that gives the key a TTL, KEEPTTL may find the key expired
    if (!EXPIRY_EFFECTS.has(write.effect)) return undefined;
    return enclosingFunction(other.node) !== enclosingFunction(call.node) || otherAwaitBetween(context, other, call) ? other : undefined;
  }
  return undefined;
}

/** Whether an `await` of something other than a Redis command sits between two calls in the source. */
function otherAwaitBetween(context: AnyContext, earlier: RedisCall, later: RedisCall): boolean {
  const from = earlier.node.range[1];
  const to = later.node.range[0];
  const redisNodes = redisCallNodes(context);
  const fn = enclosingFunction(later.node);
  return walk(
    context,
    fn ?? context.sourceCode.ast,
    (node) => (node.type === 'AwaitExpression' && node.range[0] >= from && !redisNodes.has(unwrap(node.argument)) ? 'stop' : undefined),
    { range: [from, to] },
  );
}
