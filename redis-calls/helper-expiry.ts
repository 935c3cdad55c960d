/**
 * An EXPIRE queued in the write's own MULTI / pipeline by a helper the write's function calls: the
 * helper is handed the unit and the key, and queues `unit.expire(key, ttl[, mode])` on it, always
 * or whenever a lifetime is configured:
 *
 * ```ts
 * const multi = this.redis.multi();
 * multi.incrBy(key, n);
 * this.expireIn(multi, key);                       // queues EXPIRE key <lifetime> on `multi`
 * await multi.exec();
 * ...
 * private expireIn(multi: Multi, key: string, mode: 'NX' | null = this.mode) {
 *   if (this.lifetime) {                          // configured; null: the operator's "never expire"
 *     if (mode) multi.expire(key, this.lifetime, mode);
 *     else multi.expire(key, this.lifetime);
 *   }
 * }
 * ```
 *
 * The EXPIRE then goes out in the same transaction as the write, as if written beside it. What
 * counts, conservatively (a helper misread would hide a leak):
 *
 * - the helper is one function the analyzer can read: a function of the module or one imported
 *   from another module of the code (`facade-targets.ts` functionNamed), or the one method a
 *   member call resolves to (`this.expireIn(...)`, `methodTargets`: exactly one target);
 * - in its own body (not in a callback), it calls an EXPIRE-family method (EXPIRE, PEXPIRE,
 *   EXPIREAT, PEXPIREAT) on a parameter, with another parameter as the key; the command, with the
 *   options the caller passes or the parameter's default (`mode`), gives a key without TTL one
 *   (`semantics/commands.ts` describeCommand: NX does, XX and GT do not; a mode not known is read
 *   as the rules read it at a direct call);
 * - that EXPIRE runs whenever the helper does: nothing but plain statements above it, or branches
 *   whose other arm queues such an EXPIRE of the same key too (`if (mode) ... else ...`), or a test
 *   that skips it only when the TTL it passes is absent (`if (this.lifetime)`, `if (expireSeconds >
 *   0)`: `optional-ttl.ts` armRunsOnlyWithTtl, a configured "never expire", as `if (ttl)
 *   m.expire(k, ttl)` at the write); no `return` or `throw` of the helper before it;
 * - at the write's side ({@link expiryQueuedByHelper}): the call is in the write's function, after
 *   it, queued whenever the write is (`queued-with.ts` queuedWithWriteAt: no branch, loop,
 *   callback or exit between them, the key not reassigned), it passes the write's unit (a name
 *   holding the same `multi()` / `pipeline()`, not reassigned, no `exec` on it between) and a key
 *   written as the write's.
 *
 * Not counted, and reported as before: a helper that receives the key only on some paths, one
 * that queues the EXPIRE on another key or another unit, one the caller calls after `exec()`, and
 * one whose EXPIRE sits under a test unrelated to its TTL (a feature flag), one whose TTL parameter
 * the caller leaves out (or passes `undefined` / `null`), one that reassigns the unit or key
 * parameter, an async one that awaits before its EXPIRE at a call not awaited (the caller's
 * `exec()` goes first), one called after an `exec()` that ends a chain on the unit, and one whose
 * EXPIRE hangs on the configured lifetime called on the arm a test of that lifetime takes when it
 * is absent (`if (!this.lifetime) { ...; this.expireIn(multi, key) } else { ... }`; an `if`
 * without `else` is not read so yet).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { execBetween } from './caller-expiry.js';
import { helperExpiriesOf } from './helper-expiry-read.js';
import { keyAssignedBetween, keyNodeId } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { armRunsOnlyWithTtl } from './optional-ttl.js';
import { queuedWithWriteAt } from './queued-with.js';
import { enclosingFunction, findVariable, propertyName, unwrap, walkOwnNodes, type AnyContext } from './static.js';

/** The `multi()` / `pipeline()` call (or the declaration name) a unit variable holds, as `normalize.ts` keys the unit. */
function unitKeyOf(context: AnyContext, id: TSESTree.Identifier): TSESTree.Node | undefined {
  const def = findVariable(context, id)?.defs[0];
  if (def?.type !== 'Variable') return undefined;
  let init = def.node.init ? unwrap(def.node.init) : undefined;
  while (init?.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(init.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) break;
    const name = propertyName(callee.property, callee.computed);
    if (name === 'multi' || name === 'pipeline') return init;
    init = unwrap(callee.object);
  }
  if (init?.type === AST_NODE_TYPES.NewExpression) return init;
  return def.name;
}

/** Whether `site` sits, below `scope`, in the arm of an `if` / `?:` whose other arm runs only when `ttl` is given. */
function inArmWithoutTtl(context: AnyContext, site: TSESTree.Node, scope: TSESTree.Node, ttl: TSESTree.Node): boolean {
  for (let node: TSESTree.Node = site; node !== scope && node.parent; node = node.parent) {
    const parent = node.parent;
    if ((parent.type !== AST_NODE_TYPES.IfStatement && parent.type !== AST_NODE_TYPES.ConditionalExpression) || parent.test === node) continue;
    const other = parent.consequent === node ? parent.alternate : parent.consequent;
    if (other && armRunsOnlyWithTtl(context, parent, other, [ttl])) return true;
  }
  return false;
}

/**
 * Whether `arg` is the key `keyNode` as `file-index.ts` expiryAfterInUnit pairs keys (`key-id.ts`
 * keyNodeId: its value, else its text), a name spelled alike being the same binding: a like-named `key` of
 * another block is another key.
 */
function sameKey(context: AnyContext, keyNode: TSESTree.Node, id: string, arg: TSESTree.Node): boolean {
  if (arg.type === AST_NODE_TYPES.SpreadElement || keyNodeId(context, unwrap(arg)) !== id) return false;
  // the same text (no known value): a name must be the same binding
  const a = unwrap(keyNode);
  const b = unwrap(arg);
  if (a.type !== AST_NODE_TYPES.Identifier || b.type !== AST_NODE_TYPES.Identifier) return true;
  return findVariable(context, a) === findVariable(context, b);
}

/**
 * The call of a helper that queues an EXPIRE of the key at argument `keyArg` of `write` in the
 * write's own MULTI / pipeline, whenever the write is queued (see the module comment);
 * `undefined` when there is none. Whether the unit is atomic (a pipeline) is the rule's to decide.
 */
export function expiryQueuedByHelper(context: AnyContext, write: RedisCall, keyArg: number): TSESTree.CallExpression | undefined {
  if (write.unit.kind === 'single' || write.node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  // once per write and key for the lint run: the rules ask more than once (a SET key twice)
  let byKey = found.get(write.node);
  if (!byKey) found.set(write.node, (byKey = new Map()));
  const cached = byKey.get(keyArg);
  if (cached !== undefined) return cached ?? undefined;
  const site = helperSiteOf(context, write, keyArg);
  byKey.set(keyArg, site ?? null);
  return site;
}

/** The answers of {@link expiryQueuedByHelper} per write node and key argument (`null`: none). */
const found = new WeakMap<TSESTree.Node, Map<number, TSESTree.CallExpression | null>>();

function helperSiteOf(context: AnyContext, write: RedisCall, keyArg: number): TSESTree.CallExpression | undefined {
  const keyNode = write.argNodes[keyArg];
  if (!keyNode) return undefined;
  const keyId = keyNode.type === AST_NODE_TYPES.SpreadElement ? undefined : keyNodeId(context, unwrap(keyNode));
  if (keyId === undefined) return undefined;
  const scope = enclosingFunction(write.node) ?? context.sourceCode.ast;
  const sites: TSESTree.CallExpression[] = [];
  walkOwnNodes(scope, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression || node.range[0] < write.node.range[1] || node.arguments.length < 2) return;
    // cheap first: the key written the same way, and a name that may hold the unit
    if (!node.arguments.some((arg) => sameKey(context, keyNode, keyId, arg))) return;
    if (!node.arguments.some((arg) => unwrap(arg).type === AST_NODE_TYPES.Identifier)) return;
    sites.push(node);
  });
  for (const site of sites) {
    for (const expiry of helperExpiriesOf(context, site, armRunsOnlyWithTtl)) {
      const unitArg = site.arguments[expiry.unitArg];
      const key = site.arguments[expiry.keyArg];
      if (!unitArg || !key || !sameKey(context, keyNode, keyId, key)) continue;
      const unit = unwrap(unitArg);
      if (unit.type !== AST_NODE_TYPES.Identifier || unitKeyOf(context, unit) !== write.unit.key) continue;
      if (execBetween(context, scope, unit, write.node.range[1], site.range[0], true)) continue;
      if (keyAssignedBetween(context, unit, write.node.range[1], site.range[0])) continue;
      // called on the arm a test of the helper's own TTL takes when it is absent (`if
      // (!this.lifetime) { ...; this.expireIn(multi, key) }`): its EXPIRE never runs there
      if (expiry.ttl && inArmWithoutTtl(context, site, scope, expiry.ttl)) continue;
      if (queuedWithWriteAt(context, write, site, keyArg)) return site;
    }
  }
  return undefined;
}
