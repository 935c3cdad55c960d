/**
 * Every Redis command of a file, found once and shared by the rules of that file: in source order,
 * grouped by atomic unit, with the key shapes that get an expiry somewhere in the file. Built
 * lazily, the first time a rule needs to look beyond the call it is judging (most files never do).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_SET_TTL, type KeyEffect } from '../semantics/commands.js';
import { facadeCallsOf } from './facades.js';
import { redisCallsOf } from './index.js';
import { keyShapeOf, type KeyShape } from './key-shape.js';
import { keyIdOf } from './key-id.js';
import { staleGuard } from './stale-read.js';

export { keyIdOf } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { enclosingFunction, type AnyContext } from './static.js';

/** Effects that give a key a TTL (also when only an existing TTL is changed). */
export const EXPIRY_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  ...EFFECTS_THAT_SET_TTL,
  'create-if-missing-with-ttl',
  'set-ttl-if-has-ttl',
]);

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
  /** The same keys by identity ({@link keyIdOf}: `text:this.sessionId`). */
  expiredKeyIds: ReadonlySet<string>;
  /**
   * The command each call of a pass-through facade forwards, read at the call with the caller's
   * key (`cache.expire(key, 60)`, `redis-calls/facades.ts`), in source order.
   */
  facadeCalls: readonly RedisCall[];
}

const indexes = new WeakMap<TSESLint.SourceCode, FileIndex>();

/** The file's index (built on first use, then cached for every rule of the file). */
export function fileIndexOf(context: AnyContext): FileIndex {
  const sourceCode = context.sourceCode;
  let index = indexes.get(sourceCode);
  if (index) return index;
  const calls: RedisCall[] = [];
  const facadeCalls: RedisCall[] = [];
  const stack: TSESTree.Node[] = [sourceCode.ast];
  const keys = sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'CallExpression') {
      calls.push(...redisCallsOf(context, node));
      facadeCalls.push(...facadeCallsOf(context, node));
    }
    const childKeys = keys[node.type] ?? [];
    for (let k = childKeys.length - 1; k >= 0; k--) {
      const value = (node as unknown as Record<string, unknown>)[childKeys[k]!];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) if (value[i]) stack.push(value[i] as TSESTree.Node);
      } else if (value && typeof value === 'object') {
        stack.push(value as TSESTree.Node);
      }
    }
  }
  calls.sort((a, b) => a.nameNode.range[0] - b.nameNode.range[0]);
  facadeCalls.sort((a, b) => a.nameNode.range[0] - b.nameNode.range[0]);
  const byUnit = new Map<TSESTree.Node, RedisCall[]>();
  const expiredShapes = new Set<string>();
  const expiredBoundedShapes = new Set<string>();
  const expiredKeyIds = new Set<string>();
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
      expiredShapes.add(shape.shape);
      if (shape.constant) expiredBoundedShapes.add(shape.shape);
      const id = keyIdOf(context, call, action.arg);
      if (id) expiredKeyIds.add(id);
    }
  }
  index = { calls, byUnit, expiredShapes, expiredBoundedShapes, expiredKeyIds, facadeCalls };
  indexes.set(sourceCode, index);
  return index;
}

/**
 * Whether the file gives the bounded key at argument `arg` of `call` a TTL somewhere: a constant
 * key by its spelling (`'jobs:last-run'`); a bounded key with run-time parts (`this.stream`,
 * `` `digest:${frequency}` ``) by its expression, or by the shape of another bounded key.
 */
export function boundedKeyExpired(context: AnyContext, call: RedisCall, arg: number, shape: KeyShape): boolean {
  const index = fileIndexOf(context);
  if (!shape.shape.includes('*')) return index.expiredShapes.has(shape.shape);
  const id = keyIdOf(context, call, arg);
  return (id !== undefined && index.expiredKeyIds.has(id)) || index.expiredBoundedShapes.has(shape.shape);
}


/**
 * The first command after `call` in the same atomic unit that gives the key at argument `arg` a
 * TTL when it has none (EXPIRE / PEXPIRE / ... without XX or GT, SET ... EX, SETEX, GETEX ... EX),
 * or deletes it, and is not queued only on a branch an earlier read decides
 * (`redis-calls/stale-read.ts`); `undefined` when there is none.
 */
export function expiryAfterInUnit(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  if (call.unit.kind === 'single') return undefined;
  const id = keyIdOf(context, call, arg);
  if (!id) return undefined;
  const unit = fileIndexOf(context).byUnit.get(call.unit.key) ?? [];
  return unit.find(
    (other) =>
      other.nameNode.range[0] > call.nameNode.range[0] &&
      other.description.keys.some(
        (action) => (EFFECTS_THAT_SET_TTL.has(action.effect) || action.effect === 'delete') && keyIdOf(context, other, action.arg) === id,
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
  const fn = enclosingFunction(call.node);
  const index = fileIndexOf(context);
  const candidates = passThrough ? [...index.calls, ...index.facadeCalls].sort((a, b) => a.nameNode.range[0] - b.nameNode.range[0]) : index.calls;
  return candidates.find(
    (other) =>
      other !== call &&
      other.unit.kind === 'single' &&
      other.nameNode.range[0] > call.nameNode.range[0] &&
      enclosingFunction(other.node) === fn &&
      followsOnItsPath(call.node, other.node) &&
      other.description.keys.some((action) => action.effect === 'set-ttl' && keyIdOf(context, other, action.arg) === id),
  );
}

/**
 * Whether `later` sits in a statement that follows one enclosing `node` in the same block (so it
 * runs after `node` whenever that block goes on), or in a later element, argument or operand of an
 * expression that evaluates them all in order (`Promise.all([redis.incr(k), redis.expire(k, 60)])`),
 * not on another branch of an `if` or `?:`.
 */
export function followsOnItsPath(node: TSESTree.Node, later: TSESTree.Node): boolean {
  const laterIn = (siblings: readonly (TSESTree.Node | null)[], child: TSESTree.Node): boolean =>
    siblings.slice(siblings.indexOf(child) + 1).some((sibling) => sibling !== null && sibling.range[0] <= later.range[0] && later.range[1] <= sibling.range[1]);
  for (let child: TSESTree.Node = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'BlockStatement' || parent.type === 'Program' || parent.type === 'StaticBlock') {
      if (laterIn(parent.body as readonly TSESTree.Node[], child)) return true;
    }
    if (parent.type === 'ArrayExpression' && laterIn(parent.elements, child)) return true;
    if (parent.type === 'SequenceExpression' && laterIn(parent.expressions, child)) return true;
    if ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && parent.callee !== child && laterIn(parent.arguments, child)) return true;
    if (parent.type.startsWith('Function') || parent.type === 'ArrowFunctionExpression') return false;
  }
  return false;
}
