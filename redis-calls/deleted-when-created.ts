/**
 * A decrement whose reply tells it created the key, followed by a DEL of the key on that reply:
 *
 * ```ts
 * const n = await redis.decr(key);   // on a missing key: creates it at -1, without TTL
 * if (n <= 0) {                      //   ... and -1 takes this branch
 *   await redis.del(key);            //   ... which deletes it in the next round trip
 * }
 * ```
 *
 * A decrement keeps an existing key's TTL; on a missing key it creates the key without one, at a
 * value the code fixes (`semantics/counter-corrections.ts` decrementReplyOnMissingKey: DECR -1,
 * DECRBY n -n, INCRBY / HINCRBY by -n -n). When the code then deletes the key whenever the reply
 * is that value, the key it created is gone a round trip later: only a crash in between leaves it
 * (the residue `deleted-after.ts` accepts too).
 *
 * What counts, all of it:
 * - the write: a decrement with a known reply on a missing key (a fixed amount; not INCR, whose
 *   reply 1 an existing key gives too, nor DECRBY by a run-time amount), sent alone (not in a
 *   MULTI or pipeline) and awaited, its reply written to a `const` (or read in the test itself);
 * - the guard: an `if` after it in the same block (or whose test holds the write), with only
 *   statements in between that await nothing and never leave (no `return`, `throw`, `break`,
 *   `continue`), whose test holds with that reply (`n <= 0`, `n < 1`, `n === -1` for DECR;
 *   `stale-read.ts` holdsWithReply);
 * - the deletion: a DEL / UNLINK (`delete` effect) of the same key expression, its variables not
 *   assigned in between, as a statement of the `if`'s consequent under no further branch, with no
 *   exit before it there.
 *
 * Not counted: a test that fails with the reply (`n === -1` after DECRBY 2, `n < -5`), a DEL of
 * another key, a DEL under a further `if`, other work awaited between the write and the `if`, an
 * INCR followed by a DEL only when the reply is over a limit.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_DELETE_KEY } from '../semantics/commands.js';
import { counterAmount, decrementReplyOnMissingKey } from '../semantics/counter-corrections.js';
import { redisCallsOf } from './index.js';
import { keyAssignedBetween, keyIdOf } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { holdsWithReply, replyAwaited } from './stale-read.js';
import { unwrap, walk, type AnyContext } from './static.js';

/**
 * The DEL that removes the key `write` creates when the key was missing (see the module comment),
 * when there is one; `undefined` otherwise.
 * @param keyArg the key's argument index in `write`
 */
export function deletedWhenCreated(context: AnyContext, write: RedisCall, keyArg: number): RedisCall | undefined {
  if (write.unit.kind !== 'single' || !replyAwaited(write.node)) return undefined;
  const reply = decrementReplyOnMissingKey(write.command, counterAmount(write.command, write.args));
  const key = keyIdOf(context, write, keyArg);
  if (reply === undefined || !key) return undefined;
  const guard = guardAfter(context, write);
  if (!guard || holdsWithReply(context, guard.test, write.node, reply) !== true) return undefined;
  const statements = guard.consequent.type === AST_NODE_TYPES.BlockStatement ? guard.consequent.body : [guard.consequent];
  for (const statement of statements) {
    const deletion = deletionIn(context, statement, key);
    if (deletion) return keyAssignedBetween(context, write.argNodes[keyArg]!, write.node.range[1], deletion.node.range[0]) || shadowedBetween(context, deletion, key, write.node.range[1]) ? undefined : deletion;
    if (leavesOrWaits(context, statement)) return undefined;
  }
  return undefined;
}

/**
 * The `if` that tests the write's reply: the one whose test holds the write, or the first `if`
 * after the `const` the reply is written to, in the same block, with only statements between that
 * await nothing and never leave.
 */
function guardAfter(context: AnyContext, write: RedisCall): TSESTree.IfStatement | undefined {
  let node: TSESTree.Node = write.node;
  while (node.parent && node.parent.type !== AST_NODE_TYPES.BlockStatement && node.parent.type !== AST_NODE_TYPES.Program) {
    if (node.parent.type === AST_NODE_TYPES.IfStatement && node.parent.test === node) return node.parent;
    node = node.parent;
  }
  // `const n = await redis.decr(key);`
  if (node.type !== AST_NODE_TYPES.VariableDeclaration || node.kind !== 'const' || node.declarations.length !== 1) return undefined;
  const declarator = node.declarations[0]!;
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init || unwrap(declarator.init).type !== AST_NODE_TYPES.AwaitExpression) return undefined;
  const block = node.parent as TSESTree.BlockStatement | TSESTree.Program;
  const body = block.body as readonly TSESTree.Node[];
  for (const statement of body.slice(body.indexOf(node) + 1)) {
    if (statement.type === AST_NODE_TYPES.IfStatement) return statement;
    if (leavesOrWaits(context, statement)) return undefined;
  }
  return undefined;
}

/** A DEL / UNLINK of the key `key` as the statement itself (`await redis.del(key);`), under no branch. */
function deletionIn(context: AnyContext, statement: TSESTree.Node, key: string): RedisCall | undefined {
  if (statement.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
  let expression = unwrap(statement.expression);
  if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = unwrap(expression.argument);
  if (expression.type !== AST_NODE_TYPES.CallExpression) return undefined;
  return redisCallsOf(context, expression).find((call) =>
    call.description.keys.some((action) => EFFECTS_THAT_DELETE_KEY.has(action.effect) && keyIdOf(context, call, action.arg) === key),
  );
}

/**
 * Whether the deletion's key reads a variable declared or assigned after the write (`const key =
 * other` in the `if`, shadowing the written key's name): spelled alike, it names another key.
 */
function shadowedBetween(context: AnyContext, deletion: RedisCall, key: string, from: number): boolean {
  return deletion.description.keys.some((action) => {
    const node = deletion.argNodes[action.arg];
    return node !== undefined && node.type !== AST_NODE_TYPES.SpreadElement && keyIdOf(context, deletion, action.arg) === key && keyAssignedBetween(context, node, from, deletion.node.range[0]);
  });
}

/** Whether a statement awaits anything, leaves its block (`return`, `throw`, `break`, `continue`) or yields. */
function leavesOrWaits(context: AnyContext, statement: TSESTree.Node): boolean {
  return walk(
    context,
    statement,
    (node) =>
      node.type === AST_NODE_TYPES.AwaitExpression ||
      node.type === AST_NODE_TYPES.YieldExpression ||
      node.type === AST_NODE_TYPES.ReturnStatement ||
      node.type === AST_NODE_TYPES.ThrowStatement ||
      node.type === AST_NODE_TYPES.BreakStatement ||
      node.type === AST_NODE_TYPES.ContinueStatement
        ? 'stop'
        : undefined,
    { skipFunctions: true },
  );
}

