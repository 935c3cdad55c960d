/**
 * A helper's write whose expiry is its callers' job: the helper queues a write on a pipeline or
 * MULTI it is given, of a key it is given, and every caller queues the EXPIRE of that same key on
 * that same pipeline right after the call, before `exec`:
 *
 * ```ts
 * function incrementAgg(pipeline: ChainableCommander, aggKey: string) {
 *   pipeline.hincrby(aggKey, 'events', 1);            // judged at its callers
 * }
 * export function recordEvent(pipeline: ChainableCommander, scope: Scope) {
 *   const aggSec = key.aggSecond(scope);
 *   incrementAgg(pipeline, aggSec);
 *   pipeline.expire(aggSec, TTL.second);                // every caller: same pipeline, same key
 * }
 * ```
 *
 * The write and its expiry are then queued in one unit, as if written side by side. What counts,
 * conservatively (a caller missed would hide a leak):
 *
 * - the write's receiver and its key are both parameters of the function it is in, never
 *   reassigned (`helper-keys.ts` keyParameter);
 * - that function is a top-level function declaration, or a top-level `const` holding an arrow
 *   function or function expression, of the linted module, and it is NOT exported: its every
 *   caller is in the module. An exported helper, or one whose name is used other than as the
 *   callee of a call (handed on as a value, `fn.call(...)`, re-exported), has callers this module
 *   cannot list: the finding stays;
 * - at least one call, and at every call the pipeline argument is a plain name `q`, and a later
 *   statement of the caller, on the call's path (`static.ts` followsOnItsPath) and under no
 *   `if`, `?:`, loop or callback of its own, queues on that same binding `q` a command that gives its first key a TTL (EXPIRE,
 *   PEXPIRE, EXPIREAT, PEXPIREAT: `semantics/commands.ts` describeCommand's `set-ttl`) of a key
 *   written with the same source text as the call's key argument, with no `exec` on `q` between,
 *   no assignment of `q` or of a variable of the key's text in between (`k = next`: the same text
 *   names another key), and `q` read as a pipeline or MULTI there (a client sends the write and
 *   the EXPIRE in two round trips).
 *
 * The caller decides whether the unit is atomic (a MULTI or a pipeline): the rules apply this
 * only where a pipeline counts as one unit (`allowPipeline`, on by default). Cached per function
 * for the lint run.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describeCommand, EFFECTS_THAT_SET_TTL } from '../semantics/commands.js';
import { keyParameter } from './helper-keys.js';
import { redisCallsOf } from './index.js';
import { keyAssignedBetween } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { enclosingFunction, findVariable, followsOnItsPath, propertyName, unwrap, walkOwnNodes, type AnyContext } from './static.js';

/** The text of a node with its white space removed (two spellings of one expression compare equal). */
function textOf(context: AnyContext, node: TSESTree.Node): string {
  return context.sourceCode.getText(unwrap(node)).replace(/\s+/g, '');
}

/** The name binding of a top-level, non-exported helper function `fn`, or `undefined`. */
function helperName(fn: TSESTree.Node): TSESTree.Identifier | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.parent?.type === AST_NODE_TYPES.Program && fn.id ? fn.id : undefined;
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression) return undefined;
  const declarator = fn.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== fn || declarator.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  const declaration = declarator.parent;
  if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const' || declaration.parent?.type !== AST_NODE_TYPES.Program) return undefined;
  return declarator.id;
}

/** Whether `node` is a call on the binding of `receiver` that gives its first argument, written as `keyText`, a TTL. */
function expiresOn(context: AnyContext, node: TSESTree.Node, receiver: TSESTree.Identifier, keyText: string): boolean {
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = unwrap(callee.object);
  if (object.type !== AST_NODE_TYPES.Identifier || object.name !== receiver.name) return false;
  const method = propertyName(callee.property, callee.computed);
  const key = node.arguments[0];
  if (!method || !key || key.type === AST_NODE_TYPES.SpreadElement || textOf(context, key) !== keyText) return false;
  const description = describeCommand(method, node.arguments.map(() => undefined));
  if (!description.keys.some((action) => action.arg === 0 && EFFECTS_THAT_SET_TTL.has(action.effect))) return false;
  return findVariable(context, object) === findVariable(context, receiver);
}

/**
 * Whether `exec` (or `exec*`) is called on the binding `receiver` between the offsets `from` and `to` inside `scope`, a callback's included.
 * @param chains also an `exec` ending a chain on `receiver` begun before `from` (`await unit.incr(k).exec()`: helper-expiry.ts)
 */
export function execBetween(context: AnyContext, scope: TSESTree.Node, receiver: TSESTree.Identifier, from: number, to: number, chains = false): boolean {
  let found = false;
  walkOwnNodes(
    scope,
    (node) => {
      if (found || node.type !== AST_NODE_TYPES.CallExpression || node.range[1] > to) return;
      const callee = unwrap(node.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression || !/^exec/.test(propertyName(callee.property, callee.computed) ?? '')) return;
      // with `chains`, the `exec` itself after `from`, also at the end of a chain begun before it (`await unit.incr(k).exec()`)
      if ((chains ? callee.property.range[0] : node.range[0]) < from) return;
      let object = unwrap(callee.object);
      while (chains && object.type === AST_NODE_TYPES.CallExpression && object.callee.type === AST_NODE_TYPES.MemberExpression) object = unwrap(object.callee.object);
      if (object.type === AST_NODE_TYPES.Identifier && findVariable(context, object) === findVariable(context, receiver)) found = true;
    },
    true,
  );
  return found;
}

/** Nodes between an expiry and the block it shares with the helper's call that run it whenever that block goes on. */
const UNCONDITIONAL = new Set<string>([
  AST_NODE_TYPES.ExpressionStatement,
  AST_NODE_TYPES.BlockStatement,
  AST_NODE_TYPES.AwaitExpression,
  AST_NODE_TYPES.ChainExpression,
  AST_NODE_TYPES.CallExpression,
  AST_NODE_TYPES.MemberExpression,
  AST_NODE_TYPES.TSNonNullExpression,
  AST_NODE_TYPES.TSAsExpression,
]);

/** Whether nothing conditional (`if`, `?:`, `&&`, a loop, a callback) sits between `expiry` and the nearest node enclosing `site`. */
function unconditionalAfter(site: TSESTree.Node, expiry: TSESTree.Node): boolean {
  for (let current = expiry.parent; current; current = current.parent) {
    if (current.range[0] <= site.range[0] && site.range[1] <= current.range[1]) return true;
    if (!UNCONDITIONAL.has(current.type)) return false;
  }
  return false;
}

/** Whether the call `site` of the helper, given the pipeline at argument `unitArg` and the key at `keyArg`, is followed by an expiry of that key on that pipeline. */
function callerExpires(context: AnyContext, site: TSESTree.CallExpression, unitArg: number, keyArg: number): boolean {
  const unit = site.arguments[unitArg];
  const key = site.arguments[keyArg];
  if (!unit || !key || key.type === AST_NODE_TYPES.SpreadElement) return false;
  const receiver = unwrap(unit);
  if (receiver.type !== AST_NODE_TYPES.Identifier) return false;
  const keyText = textOf(context, key);
  const scope = enclosingFunction(site) ?? context.sourceCode.ast;
  let found = false;
  walkOwnNodes(
    scope,
    (node) => {
      if (found || node.range[0] < site.range[1] || !expiresOn(context, node, receiver, keyText)) return;
      if (!followsOnItsPath(site, node) || !unconditionalAfter(site, node) || execBetween(context, scope, receiver, site.range[1], node.range[0])) return;
      // the same key and the same unit when the expiry runs: neither binding reassigned in between
      // (`k = next`, `p = redis.pipeline()`), and a unit that batches (a client sends each command
      // in its own round trip: the write and its EXPIRE are then two)
      if (keyAssignedBetween(context, key, site.range[1], node.range[0]) || keyAssignedBetween(context, receiver, site.range[1], node.range[0])) return;
      if (node.type === AST_NODE_TYPES.CallExpression && redisCallsOf(context, node).some((call) => call.unit.kind !== 'single')) found = true;
    },
    true,
  );
  return found;
}

const verdicts = new WeakMap<TSESTree.Node, Map<string, boolean>>();

/**
 * Whether the write `call` of the key at `keyNode` sits in a helper whose every caller queues an
 * expiry of the key it passes on the pipeline or MULTI it passes, right after the call (see the
 * module comment). Cached per helper and parameter pair for the lint run.
 */
export function expiredByEveryCaller(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  const node = call.node;
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const unitParam = keyParameter(context, callee.object);
  const keyParam = keyParameter(context, keyNode);
  if (!unitParam || !keyParam || unitParam.fn !== keyParam.fn || unitParam.index === keyParam.index) return false;
  if (enclosingFunction(node) !== unitParam.fn) return false;
  const name = helperName(unitParam.fn);
  if (!name) return false;
  let perFn = verdicts.get(unitParam.fn);
  const pair = `${unitParam.index}:${keyParam.index}`;
  const cached = perFn?.get(pair);
  if (cached !== undefined) return cached;
  const variable = findVariable(context, name);
  const sites: TSESTree.CallExpression[] = [];
  let known = variable !== null;
  for (const reference of variable?.references ?? []) {
    const parent = reference.identifier.parent;
    if (reference.identifier === name) continue;
    if (parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === reference.identifier) sites.push(parent);
    else known = false;
  }
  const verdict = known && sites.length > 0 && sites.every((site) => callerExpires(context, site, unitParam.index, keyParam.index));
  if (!perFn) verdicts.set(unitParam.fn, (perFn = new Map()));
  perFn.set(pair, verdict);
  return verdict;
}
