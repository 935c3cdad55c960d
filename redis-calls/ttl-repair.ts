/**
 * A key whose missing TTL is repaired on every hit: in the function that writes it, an EXPIRE /
 * PEXPIRE (any `set-ttl` command) of the same key runs on a branch guarded by that key's TTL or
 * PTTL reply being the one of a key without TTL (`ttl < 0`, `ttl === -1`, `pttl <= 0`: -1 is "no
 * TTL", semantics/transactions.ts), before or after the write, the TTL read in the same round trip
 * or another:
 *
 *     const n = await redis.incr(key);
 *     if (n === 1) await redis.expire(key, 60);
 *     else if ((await redis.ttl(key)) < 0) await redis.expire(key, 60);
 *
 * A crash between the write and its expiry leaves the key without TTL only until the next call
 * that writes it; a key never written again keeps no TTL. The guard is an `if`'s test (the expiry
 * in its consequent), a `?:` test or the left side of `&&`, and the comparison may be one operand
 * of a `&&` / `||` chain. The TTL reply is the TTL / PTTL call itself (behind `await`, `Number()`,
 * `.catch(...)`, `??`), or a variable (or an element of one: `res[1]`) every write of which may
 * hold it: a declaration or assignment whose value contains the call, or the `exec()` of the
 * batch that queues it.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { holdsForNoTtlReply } from '../semantics/transactions.js';
import { callsInFunction } from './file-index.js';
import { forEachCallIn } from './index.js';
import { keyIdOf } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { encloses, enclosingFunction, findVariable, numberLiteral, swappedComparison, unwrap, type AnyContext } from './static.js';

/** What re-arms the key: the guarded expiry and the TTL read that guards it. */
export interface TtlRepair {
  expiry: RedisCall;
  ttlRead: RedisCall;
}

/**
 * The expiry that re-arms the key written by `call` at argument `keyArg` whenever its TTL is
 * missing, in the same function (see the module comment); `undefined` when there is none.
 */
export function ttlRepairOf(context: AnyContext, call: RedisCall, keyArg: number): TtlRepair | undefined {
  const key = keyIdOf(context, call, keyArg);
  if (key === undefined) return undefined;
  const fn = enclosingFunction(call.node);
  const inFunction = callsInFunction(context, fn);
  const reads = inFunction.filter(
    (c) => (c.command === 'TTL' || c.command === 'PTTL') && c.description.keys.some((k) => keyIdOf(context, c, k.arg) === key),
  );
  if (reads.length === 0) return undefined;
  for (const expiry of inFunction) {
    if (!expiry.description.keys.some((k) => k.effect === 'set-ttl' && keyIdOf(context, expiry, k.arg) === key)) continue;
    for (const test of guardsOf(expiry.node, fn)) {
      const ttlRead = noTtlComparison(context, test, reads);
      if (ttlRead) return { expiry, ttlRead };
    }
  }
  return undefined;
}

/** The tests that must hold for `node` to run, up to the function `fn`. */
function guardsOf(node: TSESTree.Node, fn: TSESTree.Node | undefined): TSESTree.Expression[] {
  const tests: TSESTree.Expression[] = [];
  let child: TSESTree.Node = node;
  for (let current = node.parent; current && current !== fn; child = current, current = current.parent) {
    if (current.type === 'IfStatement' && current.consequent === child) tests.push(current.test);
    else if (current.type === 'ConditionalExpression' && current.consequent === child) tests.push(current.test);
    else if (current.type === 'LogicalExpression' && current.operator === '&&' && current.right === child) tests.push(current.left);
  }
  return tests;
}

/** The TTL read of `reads` that a comparison in `test` finds to be the reply of a key without TTL. */
function noTtlComparison(context: AnyContext, test: TSESTree.Node, reads: readonly RedisCall[]): RedisCall | undefined {
  const bare = unwrap(test);
  if (bare.type === 'LogicalExpression') {
    return noTtlComparison(context, bare.left, reads) ?? noTtlComparison(context, bare.right, reads);
  }
  if (bare.type !== 'BinaryExpression' || bare.left.type === 'PrivateIdentifier') return undefined;
  const right = numberLiteral(bare.right);
  const left = numberLiteral(bare.left);
  const [reply, operator, value] =
    right !== undefined ? [bare.left, bare.operator, right] : left !== undefined ? [bare.right, swappedComparison(bare.operator) ?? '', left] : [];
  if (!reply || operator === undefined || value === undefined || !holdsForNoTtlReply(operator, value)) return undefined;
  return replyOf(context, reply, reads);
}

/** The TTL read whose reply `node` is, directly or through a variable. */
function replyOf(context: AnyContext, node: TSESTree.Node, reads: readonly RedisCall[]): RedisCall | undefined {
  let root = peel(node);
  while (root.type === 'MemberExpression') root = peel(root.object);
  if (root.type !== 'Identifier') return reads.find((read) => encloses(node, read.node));
  const variable = findVariable(context, root);
  if (!variable) return undefined;
  const writes: TSESTree.Node[] = [];
  for (const def of variable.defs) if (def.node.type === 'VariableDeclarator' && def.node.init) writes.push(def.node.init);
  for (const reference of variable.references) if (reference.writeExpr) writes.push(reference.writeExpr);
  return reads.find((read) => writes.some((write) => encloses(write, read.node) || execsBatchOf(context, write, read)));
}

/** Whether `write` runs the batch that queues `read` (`await tx.exec()`, `client.exec(tx)`). */
function execsBatchOf(context: AnyContext, write: TSESTree.Node, read: RedisCall): boolean {
  if (read.unit.kind === 'single') return false;
  const unitKey = read.unit.key;
  const held = unitKey.type === 'Identifier' ? unitKey : unitKey.parent?.type === 'VariableDeclarator' && unitKey.parent.id.type === 'Identifier' ? unitKey.parent.id : undefined;
  if (!held) return encloses(write, unitKey);
  const isHeld = (node: TSESTree.Node): boolean => {
    const bare = unwrap(node);
    return bare.type === 'Identifier' && bare.name === held.name;
  };
  let found = false;
  forEachCallIn(context, write, (node) => {
    const callee = unwrap(node.callee);
    // tx.exec() / tx.execAsPipeline(), or GLIDE's client.exec(tx)
    if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && callee.property.name.startsWith('exec')) {
      if (isHeld(callee.object) || node.arguments.some(isHeld)) found = true;
    }
  });
  return found;
}

/** `node` without `await`, a number conversion (`Number(x)`, `parseInt(x, 10)`) or a `?? -1` / `|| -1` default. */
function peel(node: TSESTree.Node): TSESTree.Node {
  const bare = unwrap(node);
  if (bare.type === 'AwaitExpression') return peel(bare.argument);
  if (bare.type === 'LogicalExpression' && (bare.operator === '??' || bare.operator === '||') && numberLiteral(bare.right) !== undefined) return peel(bare.left);
  if (bare.type === 'CallExpression' && bare.arguments[0] && bare.arguments[0].type !== 'SpreadElement') {
    const callee = unwrap(bare.callee);
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name : '';
    if (name === 'Number' || name === 'parseInt' || name === 'parseFloat') return peel(bare.arguments[0]);
  }
  return bare;
}
