/**
 * An expiry queued with its write, but only on a branch decided by a reply read in an earlier,
 * separate round trip:
 *
 * ```ts
 * const current = await redis.get(key);        // round trip 1
 * const pipeline = redis.pipeline();
 * pipeline.incr(key);                          // round trip 2
 * if (!current) pipeline.expire(key, WINDOW);  //   ... only when round trip 1 saw no key
 * await pipeline.exec();
 * ```
 *
 * is not an atomic expiry: the key can expire between the read and the write, and the write then
 * recreates it with no expiry queued (the counter lives forever). The read counts when it reads
 * the same key (by its expression) in another atomic unit (sent before the unit is), and the branch's test
 * reads its reply, directly or through a `const` derived from it (`const count = current ?
 * parseInt(current, 10) : 0`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { keyIdOf } from './key-id.js';
import { redisCallsOf } from './index.js';
import type { RedisCall } from './normalize.js';
import { encloses, findVariable, walk, type AnyContext } from './static.js';

/**
 * The earlier read whose reply decides whether `expiry` runs, when there is one (see the module
 * comment); `undefined` when the expiry runs whenever the write does, or its test reads no reply
 * of the key from another round trip.
 * @param expiry the expiry, queued in the write's unit after it
 * @param write the write that creates the key
 * @param keyArg the key's argument index in `write`
 */
export function staleGuard(context: AnyContext, expiry: RedisCall, write: RedisCall, keyArg: number): RedisCall | undefined {
  const key = keyIdOf(context, write, keyArg);
  if (!key) return undefined;
  const isRead = (call: RedisCall): boolean =>
    call.unit.key !== write.unit.key &&
    call.node.range[1] <= expiry.node.range[0] &&
    call.description.keys.some((action) => keyIdOf(context, call, action.arg) === key);
  for (const test of branchTests(expiry.node, write.node)) {
    const read = replyRead(context, test, isRead, 0);
    if (read) return read;
  }
  return undefined;
}

/**
 * The tests of the conditionals an expiry sits in a branch of, below the nearest node that holds
 * the write too (conditions above it decide both alike).
 */
function branchTests(expiry: TSESTree.Node, write: TSESTree.Node): TSESTree.Node[] {
  const tests: TSESTree.Node[] = [];
  for (let node: TSESTree.Node = expiry; node.parent; node = node.parent) {
    const parent: TSESTree.Node = node.parent;
    if (encloses(parent, write)) break;
    if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== node) tests.push(parent.test);
    else if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === node) tests.push(parent.left);
  }
  return tests;
}

/**
 * A Redis read `isRead` accepts whose reply an expression uses: a call in it, or a variable it
 * reads whose initializer holds one (through a few derived `const`s).
 */
function replyRead(context: AnyContext, root: TSESTree.Node, isRead: (call: RedisCall) => boolean, depth: number): RedisCall | undefined {
  if (depth > 3) return undefined;
  let found: RedisCall | undefined;
  walk(context, root, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression) found = redisCallsOf(context, node).find(isRead);
    if (node.type === AST_NODE_TYPES.Identifier) {
      const def = findVariable(context, node)?.defs[0];
      if (def?.type === 'Variable' && def.node.init && def.node.id.type === AST_NODE_TYPES.Identifier) found = replyRead(context, def.node.init, isRead, depth + 1);
    }
    if (found) return 'stop';
    // a callback's reads are not the reply the expression uses (the root itself too: `const f = () => ...`)
    return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression ? 'skip' : undefined;
  });
  return found;
}
