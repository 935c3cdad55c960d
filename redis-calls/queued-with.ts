/**
 * Whether an expiry queued in the same MULTI / pipeline after a write covers that write: it is
 * queued whenever the write is (no branch, loop, `catch`, `switch` or callback between them: `if
 * (cond) m.expire(k, 60)` may leave the key without TTL), the function cannot stop between the two
 * (`if (!ok) return m.exec()` sends the transaction before the EXPIRE is queued), and the key
 * expression is not reassigned between them (`k = other` makes the EXPIRE another key's). A branch
 * every arm of which queues an expiry of the key (`if (remember) m.expire(k, 30 * DAY); else
 * m.expire(k, DAY)`) queues one whenever the write is. Nor may an `await` between them throw into a
 * `catch` that goes on to send the transaction (`m.set(k, v); try { const ttl = await loadTtl();
 * m.expire(k, ttl) } catch {}`, then `m.exec()`: the SET goes without its TTL). Used by
 * `file-index.ts` `expiryAfterInUnit` (every rule that takes an EXPIRE later in the unit as the
 * write's TTL) and by `incr-needs-expire-on-create`'s own unit reading.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { keyAssignedBetween } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { enclosingFunction, encloses, findVariable, unwrap, walk, type AnyContext } from './static.js';

/**
 * Whether `expiry`, queued after `write` in the same unit, is queued on every run that queues the
 * write, with the key at argument `keyArg` of `write` unchanged in between (see the module doc).
 * @param write the write (a command queued in a MULTI or pipeline)
 * @param expiry a later command of the same unit that gives the key a TTL or deletes it
 * @param alternatives the other later commands of the unit that give the same key a TTL (the other
 *   arms of a branch may each queue one)
 */
export function queuedWithWrite(context: AnyContext, write: RedisCall, expiry: RedisCall, keyArg: number, alternatives: readonly RedisCall[] = []): boolean {
  const others = alternatives.filter((other) => other !== expiry).map((other) => other.node);
  return queuedWithWriteAt(context, write, expiry.node, keyArg, others);
}

/**
 * {@link queuedWithWrite} for an expiry queued by a node that is no Redis command itself: the call
 * of a helper that queues the EXPIRE on the unit it is given (`this.expireIn(multi, key)`:
 * `helper-expiry.ts`).
 * @param expiry the node that queues the expiry, after `write` in the same function
 * @param others the other nodes that queue an expiry of the same key (the arms of a branch)
 */
export function queuedWithWriteAt(context: AnyContext, write: RedisCall, expiry: TSESTree.Node, keyArg: number, others: readonly TSESTree.Node[] = []): boolean {
  if (!queuedWhenever(context, expiry, write.node, others)) return false;
  const keyNode = write.argNodes[keyArg];
  if (keyNode && keyAssignedBetween(context, keyNode, write.node.range[1], expiry.range[0])) return false;
  return !mayLeaveBetween(context, write.node, expiry) && !mayThrowIntoCatch(context, write.node, expiry);
}

/** Statements and expressions that run what they hold whenever they run themselves. */
const UNCONDITIONAL = new Set<string>([
  AST_NODE_TYPES.ExpressionStatement,
  AST_NODE_TYPES.AwaitExpression,
  AST_NODE_TYPES.BlockStatement,
  AST_NODE_TYPES.CallExpression,
  AST_NODE_TYPES.MemberExpression,
  AST_NODE_TYPES.ChainExpression,
  AST_NODE_TYPES.SequenceExpression,
  AST_NODE_TYPES.VariableDeclarator,
  AST_NODE_TYPES.VariableDeclaration,
  // `tx = tx.expire(k, 60)` (node-redis queued and reassigned), `return tx.expire(k, 60).exec()`,
  // `void tx.expire(k, 60)`, `Promise.all([tx.set(k, v), tx.expire(k, 60)])`
  AST_NODE_TYPES.AssignmentExpression,
  AST_NODE_TYPES.ReturnStatement,
  AST_NODE_TYPES.UnaryExpression,
  AST_NODE_TYPES.ArrayExpression,
  AST_NODE_TYPES.SpreadElement,
  AST_NODE_TYPES.Property,
  AST_NODE_TYPES.ObjectExpression,
  AST_NODE_TYPES.NewExpression,
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
  AST_NODE_TYPES.TSSatisfiesExpression,
]);

/**
 * Whether `expiry` is queued whenever `write` is: between it and the nearest node holding both,
 * no branch (`if (cond) m.expire(k, 60)`), loop, `catch`, `switch` nor callback (`setTimeout(() =>
 * m.expire(k, 60))`, queued after the transaction may have been sent). A branch taken exactly when
 * the loop queueing the write ran is no such branch: `for (const row of rows) tx.hset(k, ...); if
 * (rows.length > 0) tx.expire(k, 60)` expires the key whenever a row wrote it; nor one testing a
 * flag set beside every write (`hasData = true` next to the HSET, then `if (hasData)`).
 */
function queuedWhenever(context: AnyContext, expiry: TSESTree.Node, write: TSESTree.Node, others: readonly TSESTree.Node[] = []): boolean {
  for (let node: TSESTree.Node = expiry; node.parent && !encloses(node, write); node = node.parent) {
    const parent = node.parent;
    if (encloses(parent, write)) return true;
    if (UNCONDITIONAL.has(parent.type) || (parent.type === AST_NODE_TYPES.TryStatement && parent.block === node)) continue;
    if (parent.type === AST_NODE_TYPES.IfStatement && parent.consequent === node && (testsLoopRan(context, parent.test, write) || testsWriteFlag(context, parent.test, write))) continue;
    // `if (c) m.expire(k, a); else m.expire(k, b)`, `c ? m.expire(k, a) : m.expire(k, b)`: the other arm queues one too
    if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== node) {
      const other = parent.consequent === node ? parent.alternate : parent.consequent;
      if (other && armQueues(other, others)) continue;
    }
    return false;
  }
  return true;
}

/** Whether an arm of a branch queues one of `expiries` whenever it runs (each arm of a branch in it, too). */
function armQueues(arm: TSESTree.Node, expiries: readonly TSESTree.Node[], depth = 0): boolean {
  if (depth > 8) return false;
  const bare = arm.type === AST_NODE_TYPES.BlockStatement && arm.body.length === 1 ? arm.body[0]! : arm;
  if ((bare.type === AST_NODE_TYPES.IfStatement || bare.type === AST_NODE_TYPES.ConditionalExpression) && bare.alternate) {
    if (armQueues(bare.consequent, expiries, depth + 1) && armQueues(bare.alternate, expiries, depth + 1)) return true;
  }
  return expiries.some((expiry) => {
    if (!encloses(arm, expiry)) return false;
    for (let node: TSESTree.Node = expiry; node !== arm && node.parent; node = node.parent) {
      if (!UNCONDITIONAL.has(node.parent.type)) return false;
    }
    return true;
  });
}

/**
 * Whether an `await` between `write` and `expiry` may throw into a `catch` that goes on: a `try`
 * with a handler (one that neither throws again nor returns) holds the `await` and the expiry, and
 * sends no transaction in its block (an
 * `exec()` there is skipped by the throw as the expiry is; after the `catch` it sends the write).
 */
function mayThrowIntoCatch(context: AnyContext, write: TSESTree.Node, expiry: TSESTree.Node): boolean {
  const fn = enclosingFunction(expiry);
  for (let node: TSESTree.Node | undefined = expiry.parent; node && node !== fn; node = node.parent) {
    if (node.type !== AST_NODE_TYPES.TryStatement || !node.handler || !encloses(node.block, expiry)) continue;
    // a catch that throws again or returns does not go on to the exec
    if (walk(context, node.handler.body, (inner) => ((inner.type === AST_NODE_TYPES.ThrowStatement || inner.type === AST_NODE_TYPES.ReturnStatement) && enclosingFunction(inner) === fn ? 'stop' : undefined))) continue;
    const block = node.block;
    const from = Math.max(write.range[1], block.range[0]);
    const awaits = walk(context, block, (inner) => (inner.type === AST_NODE_TYPES.AwaitExpression && inner.range[0] >= from && inner.range[1] <= expiry.range[0] && enclosingFunction(inner) === fn ? 'stop' : undefined));
    const sends = walk(context, block, (inner) =>
      inner.type === AST_NODE_TYPES.CallExpression && inner.range[0] > expiry.range[1] && inner.callee.type === AST_NODE_TYPES.MemberExpression && !inner.callee.computed && inner.callee.property.type === AST_NODE_TYPES.Identifier && /^exec/.test(inner.callee.property.name) ? 'stop' : undefined,
    );
    if (awaits && !sends) return true;
  }
  return false;
}

/**
 * Whether `test` holds exactly when a loop holding `write` over a collection runs at least once:
 * `xs.length`, `xs.length > 0`, `xs.length !== 0`, `xs.length >= 1` (`size` too) of the `xs` of a
 * `for (const x of xs)` or `xs.forEach(...)` / `xs.map(...)` around the write.
 */
function testsLoopRan(context: AnyContext, test: TSESTree.Expression, write: TSESTree.Node): boolean {
  let counted: TSESTree.Node = unwrap(test);
  if (counted.type === AST_NODE_TYPES.BinaryExpression) {
    const zero = unwrap(counted.right);
    const bound = zero.type === AST_NODE_TYPES.Literal && typeof zero.value === 'number' ? zero.value : undefined;
    const nonEmpty = (['>', '!=', '!=='].includes(counted.operator) && bound === 0) || (counted.operator === '>=' && bound === 1);
    if (!nonEmpty || counted.left.type === AST_NODE_TYPES.PrivateIdentifier) return false;
    counted = unwrap(counted.left);
  }
  if (counted.type !== AST_NODE_TYPES.MemberExpression || counted.computed || counted.property.type !== AST_NODE_TYPES.Identifier || !['length', 'size'].includes(counted.property.name)) return false;
  const collection = context.sourceCode.getText(counted.object);
  for (let node: TSESTree.Node | undefined = write.parent; node; node = node.parent) {
    if (node.type === AST_NODE_TYPES.ForOfStatement && context.sourceCode.getText(node.right) === collection) return true;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(node.callee);
      if (callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier && ['forEach', 'map'].includes(callee.property.name) && context.sourceCode.getText(callee.object) === collection) return true;
    }
  }
  return false;
}

/**
 * Whether `test` holds whenever `write` ran: it reads a `let` flag or count (`hasData`, `hasData
 * === true`, `n`, `n > 0`, `n !== 0`, `n >= 1`) that the statement right before or right after
 * the write's own, in the same block, makes truthy (`hasData = true`, `n++`, `++n`, `n += 1`, or
 * any positive number literal added), and that nothing else in its function writes but its
 * declaration (`let hasData = false`, `let n = 0`): `for (...) { tx.hincrby(k, f, 1); hasData =
 * true; } if (hasData) tx.expire(k, 60)` expires the key whenever a field was written.
 */
function testsWriteFlag(context: AnyContext, test: TSESTree.Expression, write: TSESTree.Node): boolean {
  let flag: TSESTree.Node = unwrap(test);
  if (flag.type === AST_NODE_TYPES.BinaryExpression) {
    const right = unwrap(flag.right);
    const bound = right.type === AST_NODE_TYPES.Literal ? right.value : undefined;
    const truthy = (['>', '!=', '!=='].includes(flag.operator) && bound === 0) || (flag.operator === '>=' && bound === 1) || (['===', '=='].includes(flag.operator) && bound === true);
    if (!truthy || flag.left.type === AST_NODE_TYPES.PrivateIdentifier) return false;
    flag = unwrap(flag.left);
  }
  if (flag.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context, flag);
  const declaration = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (declaration?.type !== 'Variable' || declaration.parent.kind !== 'let') return false;
  // the statement holding the write, and its neighbours in the same block
  let statement: TSESTree.Node = write;
  while (statement.parent && statement.parent.type !== AST_NODE_TYPES.BlockStatement) {
    if (!UNCONDITIONAL.has(statement.parent.type)) return false;
    statement = statement.parent;
  }
  const block = statement.parent;
  if (block?.type !== AST_NODE_TYPES.BlockStatement) return false;
  const at = block.body.indexOf(statement as TSESTree.Statement);
  const neighbours = [block.body[at - 1], block.body[at + 1]];
  const writes = variable!.references.filter((reference) => reference.isWrite() && reference.identifier !== declaration.name);
  if (writes.length === 0) return false;
  return (
    writes.every((reference) => reference.identifier.type === AST_NODE_TYPES.Identifier && raises(reference.identifier)) &&
    writes.some((reference) => neighbours.some((neighbour) => neighbour?.type === AST_NODE_TYPES.ExpressionStatement && unwrap(neighbour.expression) === reference.identifier.parent))
  );
}

/** Whether the write of `id` makes it truthy: `id = true`, `id++`, `++id`, `id += <positive number>`. */
function raises(id: TSESTree.Identifier): boolean {
  const parent = id.parent;
  if (parent?.type === AST_NODE_TYPES.UpdateExpression) return parent.operator === '++';
  if (parent?.type !== AST_NODE_TYPES.AssignmentExpression || parent.left !== id) return false;
  const value = unwrap(parent.right);
  if (value.type !== AST_NODE_TYPES.Literal) return false;
  if (parent.operator === '=') return value.value === true;
  return parent.operator === '+=' && typeof value.value === 'number' && value.value > 0;
}

/**
 * Whether the function may stop between `write` and `expiry` (a `return`, a `throw`, or a `break`
 * / `continue` that leaves a loop or `switch` holding the write) of the function they are in.
 */
function mayLeaveBetween(context: AnyContext, write: TSESTree.Node, expiry: TSESTree.Node): boolean {
  const fn = enclosingFunction(write);
  return walk(
    context,
    fn ?? context.sourceCode.ast,
    (node) => {
      if (node.range[0] < write.range[1] || node.range[1] > expiry.range[0] || enclosingFunction(node) !== fn) return undefined;
      if (node.type === AST_NODE_TYPES.ReturnStatement || node.type === AST_NODE_TYPES.ThrowStatement) return 'stop';
      if (node.type !== AST_NODE_TYPES.BreakStatement && node.type !== AST_NODE_TYPES.ContinueStatement) return undefined;
      if (node.label) return 'stop';
      for (let parent: TSESTree.Node | undefined = node.parent; parent && parent !== fn; parent = parent.parent) {
        if (LEFT_BY_BREAK.has(parent.type) && (node.type === AST_NODE_TYPES.BreakStatement || parent.type !== AST_NODE_TYPES.SwitchStatement)) return encloses(parent, write) ? 'stop' : undefined;
      }
      return undefined;
    },
    { range: [write.range[1], expiry.range[0]] },
  );
}

/** Statements a `break` leaves (a `continue`: the loops). */
const LEFT_BY_BREAK = new Set<string>([
  AST_NODE_TYPES.ForStatement,
  AST_NODE_TYPES.ForInStatement,
  AST_NODE_TYPES.ForOfStatement,
  AST_NODE_TYPES.WhileStatement,
  AST_NODE_TYPES.DoWhileStatement,
  AST_NODE_TYPES.SwitchStatement,
]);
