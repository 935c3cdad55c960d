/**
 * What an `await` waits on: only Redis (a command of the file, such a command with a rejection
 * handler, a MULTI / pipeline unit's `exec()`) or other work (a query, a provider's call, a timer).
 * The analyses that ask "can the key change, expire or the work fail between these two Redis
 * calls?" (`reserved-counter.ts` otherAwaitBetween, `stale-read.ts`, `error-path-deletions.ts`
 * mayFail) share this one reading: when Redis fails, the Redis calls around fail with it.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { AtomicUnit, RedisCall } from './normalize.js';
import { encloses, findVariable, unwrap, type AnyContext } from './static.js';

/**
 * Whether awaiting `argument` waits on Redis only: one of the Redis command calls `redisNodes`
 * (`redis-calls/file-index.ts` redisCallNodes, or a narrower set), such a call with a rejection
 * handler (`redis.del(k).catch(() => {})`), or the `exec()` of one of the MULTI / pipeline units
 * of `calls` ({@link execOfUnit}; the file's calls, `file-index.ts` FileIndex.calls).
 */
export function awaitsOnlyRedis(context: AnyContext, argument: TSESTree.Node, redisNodes: ReadonlySet<TSESTree.Node>, calls: readonly RedisCall[]): boolean {
  const node = unwrap(argument);
  return redisNodes.has(node) || redisCallWithCatch(node, redisNodes) || execOfAnyUnit(context, node, calls);
}

/**
 * Whether an expression is an `exec()` of the unit: `unit.exec()` / the chain's `.exec()` /
 * `execAsPipeline()`, or `client.exec(batch)` (Valkey GLIDE), the unit named by its variable or
 * written in the chain.
 */
export function execOfUnit(context: AnyContext, expression: TSESTree.Node, unit: AtomicUnit): boolean {
  const exec = execCall(expression);
  return exec !== undefined && [exec.callee.object, ...exec.call.arguments].some((operand) => namesUnit(context, operand, unit));
}

/** `x.exec(...)` / `x.execAsPipeline(...)`: the call and its callee, or `undefined`. */
function execCall(expression: TSESTree.Node): { call: TSESTree.CallExpression; callee: TSESTree.MemberExpression } | undefined {
  const call = unwrap(expression);
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.property.type !== AST_NODE_TYPES.Identifier || !/^exec(?:AsPipeline)?$/.test(callee.property.name)) return undefined;
  return { call, callee };
}

/** Whether a node is the unit, holds it (a chain), or is a variable declared with it. */
function namesUnit(context: AnyContext, operand: TSESTree.Node, unit: AtomicUnit): boolean {
  const node = unwrap(operand);
  if (encloses(node, unit.key)) return true;
  if (node.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(context, node)?.defs[0];
  return def !== undefined && (def.name === unit.key || encloses(def.node, unit.key));
}

/** Any `exec()` of one of the units of `calls` (an `await` of it is a Redis round trip). */
function execOfAnyUnit(context: AnyContext, expression: TSESTree.Node, calls: readonly RedisCall[]): boolean {
  const exec = execCall(expression);
  if (!exec) return false;
  const call = exec.call;
  const seen = new Set<AtomicUnit>();
  for (const { unit } of calls) {
    if (unit.kind === 'single' || seen.has(unit)) continue;
    seen.add(unit);
    if (execOfUnit(context, call, unit)) return true;
  }
  return false;
}

/** `redis.decr(k).catch(() => {})`: a Redis command with a rejection handler. */
function redisCallWithCatch(node: TSESTree.Node, redisNodes: ReadonlySet<TSESTree.Node>): boolean {
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.property.type !== AST_NODE_TYPES.Identifier || callee.property.name !== 'catch') return false;
  return redisNodes.has(unwrap(callee.object));
}
