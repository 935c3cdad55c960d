/**
 * A refund of a quota counter that never goes below zero, in a module that charges the counter
 * with a TTL:
 *
 * ```ts
 * export async function checkQuota(id: string) {
 *   const n = await redis.incr(`gen:${id}`);      // the charge: creates the counter ...
 *   if (n === 1) await redis.expire(`gen:${id}`, DAY);   // ... and gives it its TTL
 *   return n <= MAX;
 * }
 * export async function refundQuota(id: string) {
 *   const val = await redis.decr(`gen:${id}`);    // the refund
 *   if (val < 0) await redis.set(`gen:${id}`, 0); // never below zero
 * }
 * ```
 *
 * A decrement keeps an existing counter's TTL and creates a missing one without TTL, replying -1
 * (or minus its amount) then (`semantics/counter-corrections.ts`). The refund follows a charge, so
 * the counter is there with the TTL its charge gave it; when the window ran out in between, the
 * decrement recreates it below zero, and the reset puts it back at 0: the next charge's INCR
 * replies 1, exactly what the charge tests to give the counter its TTL again. The refund and its
 * reset add no leak of their own: whatever the charge leaves without TTL is reported at the charge.
 *
 * What counts, all of it:
 * - the refund: DECR, DECRBY or INCRBY by a negative amount, whose reply is bound to a `const`
 *   (`const val = await redis.decr(key)`);
 * - its reset: in the same function, under a test that the reply went below zero (`val < 0`,
 *   `val <= -1`, `0 > val`) and nothing else, a SET of the same key to `0` or a DEL of it;
 * - the charge: a command of the same file that increments the same key (INCR, INCRBY by an
 *   amount not known to be negative; the key spelled the same, with a static part: `gen:*`), with
 *   a command after it in its function that gives that key a TTL.
 *
 * Still reported: a decrement with no reset (a counter recreated at -1 skips the charge's `n === 1`
 * on its next INCR), a reset to another value than 0, a reset under another test, and a decrement
 * of a key no command of the file charges with a TTL.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { callsInFunction, fileIndexOf } from './file-index.js';
import { keyShapeOf } from './key-shape.js';
import { hasStaticPart, keyIdOf } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { awaitedReplyVariable, encloses, enclosingFunction, findVariable, numberLiteral, unwrap, type AnyContext } from './static.js';
import { isDecrement } from './reserved-counter.js';

/** Whether `test` holds exactly when the reply `reply` is below zero (`val < 0`, `val <= -1`, `0 > val`). */
function testsBelowZero(context: AnyContext, test: TSESTree.Node, reply: TSESTree.Identifier): boolean {
  const bare = unwrap(test);
  if (bare.type !== AST_NODE_TYPES.BinaryExpression) return false;
  const isReply = (node: TSESTree.Node) => {
    const id = unwrap(node);
    return id.type === AST_NODE_TYPES.Identifier && findVariable(context, id)?.defs[0]?.name === reply;
  };
  const { operator, left, right } = bare;
  if (isReply(left)) return (operator === '<' && numberLiteral(right) === 0) || (operator === '<=' && numberLiteral(right) === -1);
  if (isReply(right)) return (operator === '>' && numberLiteral(left) === 0) || (operator === '>=' && numberLiteral(left) === -1);
  return false;
}

/** Whether `call` puts the key `key` back at zero: SET key 0 (no option), DEL key. */
function resetsToZero(context: AnyContext, call: RedisCall, key: string): boolean {
  if (call.command === 'DEL') return call.description.keys.some((a) => keyIdOf(context, call, a.arg) === key);
  if (call.command !== 'SET' || call.args.length !== 2 || keyIdOf(context, call, 0) !== key) return false;
  const value = call.args[1];
  return value === 0 || value === '0';
}

/** The `if` whose consequent holds `node` (not its test, not its `else`), the nearest. */
function guardingIf(node: TSESTree.Node, within: TSESTree.Node | undefined): TSESTree.IfStatement | undefined {
  for (let child = node, parent = node.parent; parent && parent !== within; child = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.IfStatement) return parent.consequent === child ? parent : undefined;
    if (parent.type === AST_NODE_TYPES.FunctionDeclaration || parent.type === AST_NODE_TYPES.FunctionExpression || parent.type === AST_NODE_TYPES.ArrowFunctionExpression) return undefined;
  }
  return undefined;
}

/** Whether a command of the file increments the key spelled `shape` and a later command of its function gives that key a TTL. */
function chargedWithTtl(context: AnyContext, shape: string): boolean {
  for (const charge of fileIndexOf(context).calls) {
    if (charge.command !== 'INCR' && charge.command !== 'INCRBY') continue;
    if (charge.command === 'INCRBY' && isDecrement(charge)) continue;
    const keyNode = charge.argNodes[0];
    if (!keyNode || keyShapeOf(context, keyNode).shape !== shape) continue;
    const id = keyIdOf(context, charge, 0);
    if (!id) continue;
    const expired = callsInFunction(context, enclosingFunction(charge.node), true).some(
      (other) => other.nameNode.range[0] > charge.nameNode.range[0] && other.description.keys.some((a) => a.effect === 'set-ttl' && keyIdOf(context, other, a.arg) === id),
    );
    if (expired) return true;
  }
  return false;
}

/** The reset of a clamped refund (see the module comment) that `decrement` is, when it is one. */
function resetOf(context: AnyContext, decrement: RedisCall): RedisCall | undefined {
  if (!isDecrement(decrement)) return undefined;
  const reply = awaitedReplyVariable(context, decrement.node, true);
  const key = keyIdOf(context, decrement, 0);
  const keyNode = decrement.argNodes[0];
  if (!reply || !key || !keyNode) return undefined;
  const shape = keyShapeOf(context, keyNode).shape;
  if (!hasStaticPart(shape)) return undefined;
  const fn = enclosingFunction(decrement.node);
  const reset = callsInFunction(context, fn).find((other) => {
    if (other.nameNode.range[0] <= decrement.nameNode.range[0] || !resetsToZero(context, other, key)) return false;
    const guard = guardingIf(other.node, fn);
    return guard !== undefined && encloses(guard.consequent, other.node) && testsBelowZero(context, guard.test, reply);
  });
  return reset && chargedWithTtl(context, shape) ? reset : undefined;
}

/**
 * Whether `decrement` is the refund of a clamped refund: its reply below zero resets the key to 0
 * in the same function, and the file charges the same key with INCR and a TTL (see the module
 * comment). `false` for any other call; never throws.
 * @param context the rule context of the decrement's module
 * @param decrement a DECR / DECRBY / INCRBY by a negative amount the rules read
 */
export function clampedRefund(context: AnyContext, decrement: RedisCall): boolean {
  return resetOf(context, decrement) !== undefined;
}

/**
 * Whether `set` (SET key 0) is the reset of a clamped refund: it runs when a decrement of the same
 * key earlier in its function replied below zero, and that decrement is a clamped refund. Never
 * throws.
 * @param context the rule context of the SET's module
 * @param set a SET the rules read (its key and value 0 are checked here)
 */
export function clampedRefundReset(context: AnyContext, set: RedisCall): boolean {
  const key = keyIdOf(context, set, 0);
  if (set.command !== 'SET' || !key) return false;
  return callsInFunction(context, enclosingFunction(set.node)).some(
    (other) => other.nameNode.range[0] < set.nameNode.range[0] && keyIdOf(context, other, 0) === key && resetOf(context, other) === set,
  );
}
