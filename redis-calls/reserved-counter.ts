/**
 * A compensating decrement of a counter reserved moments before, in the same function:
 *
 * ```ts
 * const pipeline = redis.pipeline();
 * pipeline.incr(key);                          // the reservation
 * pipeline.expire(key, 90);                    //   ... with its TTL, in the same unit
 * const [[, count]] = (await pipeline.exec())!;
 * if (count > limit) {
 *   await redis.decr(key);                     // the correction: the key exists, with its TTL
 *   return false;
 * }
 * ```
 *
 * DECR creates a key without TTL only when the key is missing (semantics/counter-corrections.ts).
 * Here the reservation has just left the key there: its reply came back before the decrement is
 * sent, and nothing but other Redis commands ran in between, so the key is missing only if its own
 * TTL ran out within those few round trips (or something else deleted it), the window the TTL
 * itself grants. The decrement adds no leak of its own: when the reservation leaves the key
 * without TTL, that is reported at the reservation.
 *
 * What counts, all of it:
 * - the decrement: DECR, DECRBY, INCRBY / INCRBYFLOAT by a negative amount (`decrementsCounter`);
 * - the reservation: the last earlier write of the same key ({@link keyIdOf}) in the same function
 *   (a pass-through facade's call too), in another unit, other decrements aside (they leave the
 *   key as it is), after which the key exists
 *   (`EFFECTS_THAT_LEAVE_THE_KEY`: INCR, SET, SET ... NX EX, ...); no deletion of the key after it;
 * - its reply awaited (the `await` of the command itself, or of its MULTI / pipeline's `exec()`)
 *   in a statement that runs before the decrement on every path (not under a branch, a loop, a
 *   `try` the decrement is outside of, or another function);
 * - between that `await` and the decrement, no `await` of anything but a Redis command (or an
 *   `exec()` of a unit) that does not block (not BLPOP, XREAD BLOCK, WAIT), no `for await` nor
 *   `yield`: no work that can outlast the TTL; and no assignment to a variable of the key;
 * - and either the reservation's unit gives the key its TTL (an EXPIRE queued after it in the same
 *   MULTI / pipeline, or the write itself carries one: SET ... EX), or a condition on the
 *   decrement's path reads the reservation's reply (`if (count > limit)`, or an early exit before
 *   it: `if (count <= limit) return;`): the correction of a reservation that went over the limit.
 *
 * Released in `finally`. For a key the file never expires (nothing in it gives the key a TTL), a
 * decrement in the `finally` of a `try` whose first statement is the increment of the same key
 * (`try { await redis.incr(k); await work(); } finally { await redis.decr(k); }`) undoes that
 * increment whenever the `try` ran past it, however long the work took: a key without TTL cannot
 * run out meanwhile, and the counter's lifetime (no TTL) is the increment's finding. The
 * `finally` runs without the increment only when the increment itself failed, a failed round trip
 * of the same connection the decrement then uses. With a key the file expires, the work can
 * outlast its TTL and the decrement recreate it: still reported, as is a decrement in a `catch`
 * or after an increment that is not the `try`'s first statement (what ran before it may throw).
 *
 * Undone later in the same flow. For a key the file never expires, a decrement after an increment
 * of the same key (INCR, INCRBY, INCRBYFLOAT by an amount not known to be negative) whose reply is
 * awaited in a statement that runs before the decrement on every path undoes that increment
 * however long the work in between took (a rollback when a later step fails: `n = await
 * redis.incr(k); try { await charge(); } catch { await redis.decr(k); }`, in the `catch`, under an
 * `if`, in a `Promise.all` with the rollback of the database): a key without TTL cannot run out
 * meanwhile, DECR never deletes it, and its lifetime (no TTL) is the increment's finding. Not when
 * a deletion of the key comes between them, the decrement spells its key with a call (`` `n:${bucket()}` ``:
 * computed anew after the work, a time bucket may have rolled over), a variable of the key is
 * assigned in between (or in a closure), or the rest of a loop that holds the decrement and not the increment deletes the key
 * (the next turn's decrement recreates it); nor for a key the
 * file expires: any `await` of other work in between (a payment, a job; the rule does not weigh how
 * long it may take against the TTL) can outlast the TTL, and the decrement recreate the key at -1
 * without one; only the window above (Redis round trips alone) counts then.
 *
 * Not a compensating decrement, and still reported: a release in another function (`acquire`
 * INCRs, `release` DECRs: the two run apart, and a release after the window ended recreates the
 * key at -1 without TTL), a decrement in a callback (`socket.on('close', ...)`), after an `await`
 * of the work the reservation guards (`await job()`: the job can outlast the TTL), after a
 * reservation on another branch, or of another key; and, with no TTL in the reservation's unit, a
 * decrement after an early exit whose test does not read the reply (`if (!flag) return;`), that
 * may fall through (`if (n <= max) log(n);`) or that has an `else`.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { isBlockingCall } from '../semantics/blocking.js';
import { counterAmount, decrementsCounter, EFFECTS_THAT_LEAVE_THE_KEY, MAY_DELETE_UNNAMED_KEYS } from '../semantics/counter-corrections.js';
import { STRING_COUNTERS } from '../semantics/command-families.js';
import { callsInFunction, expiryAfterInUnit, fileIndexOf } from './file-index.js';
import { awaitsOnlyRedis, execOfUnit } from './redis-waits.js';
import { keyAssignedBetween, keyAssignedInClosure, keyIdOf } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { alwaysExits, encloses, enclosingFunction, findVariable, isLoop, unwrap, walk, type AnyContext } from './static.js';

/**
 * The reservation a decrement compensates (see the module comment), when there is one: the write
 * of the same counter moments before, in the same function, whose reply is awaited before the
 * decrement and whose unit gives the key its TTL or whose reply the decrement's condition reads.
 * `undefined` for any other write, and for a call that is no decrement.
 * @param decrement the write that would create the key at argument `keyArg` without TTL
 * @param keyExpiredInFile whether the linted file gives the key a TTL anywhere (a reservation
 *   released in `finally` counts only for a key it never expires)
 */
export function reservationCompensated(context: AnyContext, decrement: RedisCall, keyArg: number, keyExpiredInFile: () => boolean): RedisCall | undefined {
  if (!isDecrement(decrement)) return undefined;
  const key = keyIdOf(context, decrement, keyArg);
  if (!key) return undefined;
  const fn = enclosingFunction(decrement.node);
  const earlier = callsInFunction(context, fn, true).filter(
    (c) => c.nameNode.range[1] <= decrement.nameNode.range[0] && c.unit.key !== decrement.unit.key,
  );
  // the last earlier write or deletion of the key decides (EXPIRE and reads of it aside)
  for (let i = earlier.length - 1; i >= 0; i--) {
    const other = earlier[i]!;
    const action = other.description.keys.find((a) => keyIdOf(context, other, a.arg) === key && (a.effect === 'delete' || EFFECTS_THAT_LEAVE_THE_KEY.has(a.effect)));
    if (!action) continue;
    if (action.effect === 'delete') return undefined;
    // an earlier decrement (another rollback on the path) leaves the key as it is: the increment
    // both undo is further back
    if (isDecrement(other)) continue;
    return compensates(context, decrement, other, action.arg, action.effect, fn) ||
      releasedInFinally(context, decrement, other, keyExpiredInFile) ||
      undoneLater(context, decrement, other, fn, keyExpiredInFile)
      ? other
      : undefined;
  }
  return undefined;
}

/**
 * Whether `decrement` releases, in a `finally`, the reservation its `try` opens with, for a key
 * the file never expires (see "Released in `finally`" in the module comment): the reservation, an
 * increment sent alone and awaited, is the first statement of the `try` block, the decrement sits
 * under no branch, loop or callback in that `try`'s `finally`, and no variable of the key is
 * assigned in between.
 */
function releasedInFinally(context: AnyContext, decrement: RedisCall, reservation: RedisCall, keyExpiredInFile: () => boolean): boolean {
  if (reservation.unit.kind !== 'single' || !STRING_COUNTERS.has(reservation.command) || isDecrement(reservation)) return false;
  let statement: TSESTree.Node = reservation.node;
  while (statement.parent && (statement.parent.type === AST_NODE_TYPES.AwaitExpression || statement.parent.type === AST_NODE_TYPES.ExpressionStatement || isWrapper(statement.parent))) {
    statement = statement.parent;
  }
  const block = statement.parent;
  const attempt = block?.parent;
  if (statement.type !== AST_NODE_TYPES.ExpressionStatement || block?.type !== AST_NODE_TYPES.BlockStatement || block.body[0] !== statement) return false;
  if (attempt?.type !== AST_NODE_TYPES.TryStatement || attempt.block !== block || !attempt.finalizer) return false;
  const finalizer = attempt.finalizer;
  for (let node: TSESTree.Node = decrement.node; node !== finalizer; node = node.parent!) {
    const parent = node.parent;
    if (!parent || !encloses(finalizer, parent)) return false;
    if (parent !== finalizer && parent.type !== AST_NODE_TYPES.AwaitExpression && parent.type !== AST_NODE_TYPES.ExpressionStatement && !isWrapper(parent)) return false;
  }
  const keyNode = decrement.argNodes[0];
  if (keyNode && keyAssignedBetween(context, keyNode, reservation.node.range[1], decrement.node.range[0])) return false;
  return !keyExpiredInFile();
}

/**
 * Whether `decrement` undoes, later in the same flow, the increment `reservation` made of a key
 * the file never expires (see "Undone later in the same flow" in the module comment): the
 * increment (INCR, INCRBY, INCRBYFLOAT by an amount not known to be negative), sent alone or in a
 * MULTI / pipeline, has its reply awaited in a statement that runs before the decrement on every
 * path; the decrement's key has no call in it (`bucket()`, `Date.now()`: computed anew after the
 * work, it may name another key); no variable of the key is assigned in between, nor in a closure; and no command in between
 * deletes or may empty the key (DEL, GETDEL, a script, FLUSHDB, ...), counting, when the decrement
 * sits in a loop that does not hold the increment, the rest of that loop (its next turn).
 */
function undoneLater(context: AnyContext, decrement: RedisCall, reservation: RedisCall, fn: TSESTree.Node | undefined, keyExpiredInFile: () => boolean): boolean {
  if (!STRING_COUNTERS.has(reservation.command) || isDecrement(reservation)) return false;
  const done = awaitOf(context, reservation, decrement, fn);
  if (!done || !runsBefore(done, decrement.node)) return false;
  // a loop around the decrement, not around the increment, runs the rest of its body before the
  // decrement's next turn
  let end = decrement.node.range[0];
  for (let node: TSESTree.Node | undefined = decrement.node.parent; node && node !== fn; node = node.parent) {
    if (isLoop(node) && !encloses(node, reservation.node)) end = Math.max(end, node.range[1]);
  }
  const keyNode = decrement.argNodes[0];
  if (!keyNode || keyAssignedBetween(context, keyNode, reservation.node.range[1], end) || keyAssignedInClosure(context, keyNode, fn)) return false;
  // a key spelled with a call (`bucket()`, `Date.now()`) is computed anew at the decrement: after
  // the work it may name another key (a time bucket that rolled over), which the decrement creates
  if (walk(context, keyNode, (node) => (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression ? 'stop' : undefined), { skipFunctions: true })) return false;
  const key = keyIdOf(context, decrement, 0);
  const removes = (other: RedisCall): boolean =>
    MAY_DELETE_UNNAMED_KEYS.has(other.command) ||
    other.description.keys.some((a) => a.effect !== 'read' && keyIdOf(context, other, a.arg) === key && (!EFFECTS_THAT_LEAVE_THE_KEY.has(a.effect) || a.mayDelete === true));
  const between = callsInFunction(context, fn, true).filter((c) => c !== decrement && c.node.range[0] >= reservation.node.range[1] && c.node.range[1] <= end);
  return !between.some(removes) && !keyExpiredInFile();
}

/** Whether `decrement` is a compensating decrement of `reservation` (the conditions of the module comment). */
function compensates(
  context: AnyContext,
  decrement: RedisCall,
  reservation: RedisCall,
  arg: number,
  effect: string,
  fn: TSESTree.Node | undefined,
): boolean {
  const done = awaitOf(context, reservation, decrement, fn);
  if (!done || !runsBefore(done, decrement.node)) return false;
  // the decrement's key variable names another key by then (`key = other` in between)
  const keyNode = decrement.argNodes[0];
  if (keyNode && keyAssignedBetween(context, keyNode, reservation.node.range[1], decrement.node.range[0])) return false;
  if (otherAwaitBetween(context, done, decrement, fn)) return false;
  const ttlInUnit =
    effect === 'create-with-ttl' ||
    effect === 'create-if-missing-with-ttl' ||
    (reservation.unit.kind !== 'single' && expiryAfterInUnit(context, reservation, arg)?.description.keys.some((a) => a.effect !== 'delete') === true);
  return ttlInUnit || pathReads(context, decrement.node, done, fn);
}

/** DECR / DECRBY / INCRBY by a negative amount ({@link decrementsCounter}). */
export function isDecrement(call: RedisCall): boolean {
  const amountNode = call.argNodes[1];
  const amount = counterAmount(call.command, call.args);
  const negated = amountNode !== undefined && unwrap(amountNode).type === AST_NODE_TYPES.UnaryExpression && (unwrap(amountNode) as TSESTree.UnaryExpression).operator === '-';
  return decrementsCounter(call.command, amount, negated);
}

/**
 * The `await` that hands back the reservation's reply, between it and the decrement in the same
 * function: of the command itself, or of an `exec()` of its MULTI / pipeline.
 */
export function awaitOf(context: AnyContext, reservation: RedisCall, decrement: RedisCall, fn: TSESTree.Node | undefined): TSESTree.AwaitExpression | undefined {
  if (reservation.unit.kind === 'single') {
    let node: TSESTree.Node = reservation.node;
    while (node.parent && isWrapper(node.parent)) node = node.parent;
    return node.parent?.type === AST_NODE_TYPES.AwaitExpression ? node.parent : undefined;
  }
  let found: TSESTree.AwaitExpression | undefined;
  walk(
    context,
    fn ?? context.sourceCode.ast,
    (node) => {
      if (found) return 'stop';
      if (node.type === AST_NODE_TYPES.AwaitExpression && execOfUnit(context, node.argument, reservation.unit)) {
        found = node;
        return 'stop';
      }
      return undefined;
    },
    { range: [reservation.node.range[1], decrement.node.range[0]], skipFunctions: true },
  );
  return found;
}

/** Nodes that hand their operand's value through (`(x)`, `x!`, `x as T`). */
function isWrapper(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.TSNonNullExpression || node.type === AST_NODE_TYPES.TSAsExpression || node.type === AST_NODE_TYPES.ChainExpression;
}

/**
 * Whether `node` runs before `later` on every path: it sits, under no branch, loop, label, `try`
 * or function of its own, in a statement that precedes one holding `later` in a block.
 */
export function runsBefore(node: TSESTree.Node, later: TSESTree.Node): boolean {
  for (let child: TSESTree.Node = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.Program) {
      const body = parent.body as readonly TSESTree.Node[];
      if (body.slice(body.indexOf(child) + 1).some((sibling) => encloses(sibling, later))) return true;
      if (parent.parent?.type === AST_NODE_TYPES.TryStatement || parent.parent?.type === AST_NODE_TYPES.CatchClause) return false;
      continue;
    }
    switch (parent.type) {
      case AST_NODE_TYPES.IfStatement:
      case AST_NODE_TYPES.ConditionalExpression:
        if (parent.test !== child) return false;
        // `if ((await redis.incr(k)) > limit) await redis.decr(k)`: the test runs first
        if (encloses(parent, later)) return true;
        break;
      case AST_NODE_TYPES.LogicalExpression:
        if (parent.right === child) return false;
        if (encloses(parent.right, later)) return true;
        break;
      case AST_NODE_TYPES.ForStatement:
      case AST_NODE_TYPES.ForInStatement:
      case AST_NODE_TYPES.ForOfStatement:
      case AST_NODE_TYPES.WhileStatement:
      case AST_NODE_TYPES.DoWhileStatement:
      case AST_NODE_TYPES.SwitchCase:
      case AST_NODE_TYPES.SwitchStatement:
      case AST_NODE_TYPES.LabeledStatement: // `block: { if (x) break block; ... }` may leave before `node`
      case AST_NODE_TYPES.FunctionDeclaration:
      case AST_NODE_TYPES.FunctionExpression:
      case AST_NODE_TYPES.ArrowFunctionExpression:
      case AST_NODE_TYPES.ClassBody:
        return false;
      default:
        break;
    }
  }
  return false;
}

/**
 * Whether an `await` of something other than a Redis command (or a unit's `exec()`) sits between
 * the reservation's reply and the decrement, in their function (callbacks written there aside:
 * they do not run in between).
 * @param end where the code run in between ends: the decrement, by default; the end of a loop
 *   around the decrement that does not hold the reservation (its next turn runs the rest of the body first)
 */
export function otherAwaitBetween(
  context: AnyContext,
  done: TSESTree.AwaitExpression,
  decrement: RedisCall,
  fn: TSESTree.Node | undefined,
  end: number = decrement.node.range[0],
): boolean {
  // a blocking command (BLPOP k 30, XREAD BLOCK, WAIT) waits as long as any other work
  const redisNodes = new Set<TSESTree.Node>(
    callsInFunction(context, fn, true)
      .filter((c) => !isBlockingCall(c.command, c.args))
      .map((c) => c.node),
  );
  return walk(
    context,
    fn ?? context.sourceCode.ast,
    (node) => {
      if (node.range[0] <= done.range[0] || node.range[0] >= end || node === decrement.node) return undefined;
      // a `for await` waits on its iterable, a `yield` on the generator's consumer
      if ((node.type === AST_NODE_TYPES.ForOfStatement && node.await) || node.type === AST_NODE_TYPES.YieldExpression) return 'stop';
      if (node.type !== AST_NODE_TYPES.AwaitExpression) return undefined;
      if (awaitsNoWork(context, node.argument)) return undefined;
      return awaitsOnlyRedis(context, node.argument, redisNodes, fileIndexOf(context).calls) ? undefined : 'stop';
    },
    { range: [done.range[1], end], skipFunctions: true },
  );
}

/**
 * Whether awaiting `argument` waits on no work at all: a call of `JSON.parse` / `JSON.stringify`
 * (the global `JSON`, not a variable of the code) returns a plain value, and `await` of a value
 * that is no promise only yields to the promises already settled (`room.users = await
 * JSON.parse(room.users)`). Its arguments are read on their own (an `await` in them is one more).
 */
export function awaitsNoWork(context: AnyContext, argument: TSESTree.Node): boolean {
  const call = unwrap(argument);
  if (call.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.property.type !== AST_NODE_TYPES.Identifier) return false;
  const object = unwrap(callee.object);
  return (
    object.type === AST_NODE_TYPES.Identifier &&
    object.name === 'JSON' &&
    (findVariable(context, object)?.defs.length ?? 0) === 0 &&
    (callee.property.name === 'parse' || callee.property.name === 'stringify')
  );
}

/**
 * Whether a condition on the decrement's path, up to its function, reads the reservation's reply:
 * the test of an `if` / `? :` / `&&` / `||` it is a branch of, whose value comes from the awaited
 * reply directly or through a few variables written once (`const [[, n]] = await p.exec()`,
 * `const count = results[0][1] || 0`); or the test of an early exit written before it, after the
 * reply, in a block that holds it (`if (next <= max) return; await redis.decrby(key, n)`: the
 * decrement runs only when the test failed, the same correction written as a guard).
 */
function pathReads(context: AnyContext, node: TSESTree.Node, done: TSESTree.AwaitExpression, fn: TSESTree.Node | undefined): boolean {
  for (let child: TSESTree.Node = node, parent = node.parent; parent && parent !== fn; child = parent, parent = parent.parent) {
    let test: TSESTree.Node | undefined;
    if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== child) test = parent.test;
    else if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === child) test = parent.left;
    if (test && readsReply(context, test, done, 0)) return true;
    if (parent.type === AST_NODE_TYPES.BlockStatement && guardedBefore(context, parent.body, child, done)) return true;
  }
  return false;
}

/**
 * Whether a statement before `child` in `body`, after the reply's `await`, is an `if` with no
 * `else` whose test reads the reply and whose consequent always leaves the block (`return`,
 * `throw`): the statements after it run only when that test failed.
 */
function guardedBefore(context: AnyContext, body: readonly TSESTree.Node[], child: TSESTree.Node, done: TSESTree.AwaitExpression): boolean {
  for (const statement of body) {
    if (statement === child) return false;
    if (statement.range[0] < done.range[1]) continue;
    if (statement.type === AST_NODE_TYPES.IfStatement && statement.alternate === null && alwaysExits(statement.consequent) && readsReply(context, statement.test, done, 0)) return true;
  }
  return false;
}

/** Whether an expression's value comes from the awaited reply (through at most four variables). */
function readsReply(context: AnyContext, root: TSESTree.Node, done: TSESTree.AwaitExpression, depth: number): boolean {
  if (depth > 4) return false;
  if (encloses(root, done)) return true;
  let found = false;
  walk(context, root, (node) => {
    if (found) return 'stop';
    if (node.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariable(context, node);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      const writes = variable?.references.filter((r) => r.isWrite()).length ?? 0;
      if (def?.type === 'Variable' && def.node.init && writes <= 1 && readsReply(context, def.node.init, done, depth + 1)) found = true;
    }
    return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression ? 'skip' : undefined;
  });
  return found;
}
