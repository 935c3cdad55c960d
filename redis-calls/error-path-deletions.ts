/**
 * A deletion that ends a key only when nothing failed before it: the DEL is in a `try` block,
 * after a statement of that block (which may throw), and the `try`'s `catch` handles the error
 * and goes on (no rethrow) without deleting the key, in it or in a `finally`. The key's cleanup is
 * then the operation's success path only, and every handled failure (a bad row, a provider's
 * error answered with a 500) leaves the key for good: not a crash, an ordinary outcome the code
 * chose to survive. `lifecycle.ts` deletedElsewhere and `cross-file-lifecycle.ts` do not count
 * such a deletion as the key's end. (`deleted-after.ts`, for a DEL after the write in the same
 * function, is stricter: any `try` block whose `catch` goes on without the deletion, whatever
 * comes before the DEL.)
 *
 * ```ts
 * // cron/import.ts   try { const rows = await redis.lpop(k, 100); await process(rows); await redis.del(k); }
 * //                  catch (e) { log(e); return errorResponse(e); }        // the key stays
 * // upload.ts        await redis.lpush(k, ...rows);                         // reported
 * ```
 *
 * Still a deletion that ends the key: one in a `finally`, one whose `catch` deletes the key too
 * (or rethrows: the exception then leaves the function, a crash, which `strict` reports), one
 * that is the first statement of its `try` block or follows only statements that do no work that
 * can fail ({@link mayFail}: `const key = \`import:${id}\`;`, `console.log('clearing', id);`,
 * `await redis.del(sibling)`: only Redis itself can then fail, as outside a `try`), one outside
 * any `try`.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { rethrows } from './deleted-after.js';
import { fileIndexOf, redisCallNodes } from './file-index.js';
import { awaitsOnlyRedis } from './redis-waits.js';
import { encloses, walkOwnNodes, type AnyContext, type FunctionLike } from './static.js';

/**
 * Whether the statement `statement` before a deletion (or a refresh) in its `try` block may fail
 * in a way the `catch` survives: it throws or yields, or awaits work that is not Redis
 * (`redis-waits.ts` awaitsOnlyRedis over the commands `redisCalls`: a query, a provider's call,
 * a file read; a command with `.catch()` or a transaction's `exec()` is Redis). Synchronous code (`const key =
 * keyOf(id)`, `console.log(...)`) computes and does not count; nor does a Redis command (the DEL of
 * a sibling key, the LRANGE that read the rows): when Redis fails, the DEL or the EXPIRE after it
 * fails with it, a fault, not an outcome the code chose. Nested functions are left out: they do
 * not run here.
 */
export function mayFail(context: AnyContext, statement: TSESTree.Node, redisCalls: ReadonlySet<TSESTree.Node>): boolean {
  let fails = false;
  walkOwnNodes(statement, (node) => {
    if (node.type === 'ThrowStatement' || node.type === 'YieldExpression') fails = true;
    else if (node.type === 'AwaitExpression' && !awaitsOnlyRedis(context, node.argument, redisCalls, fileIndexOf(context).calls)) fails = true;
  });
  return fails;
}

/**
 * The `try` blocks around `node` (up to `stop`, exclusive) whose `catch` handles an error and goes
 * on (no rethrow), each with the statements of its block that run before the one holding `node`:
 * where a failure before `node` is survived and `node` is skipped. Innermost first.
 */
function* survivingTries(node: TSESTree.Node, stop: TSESTree.Node | undefined): Generator<{ attempt: TSESTree.TryStatement; before: TSESTree.Statement[] }> {
  for (let current: TSESTree.Node = node; current.parent && current !== stop; current = current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type !== 'BlockStatement' || parent.parent?.type !== 'TryStatement' || parent.parent.block !== parent) continue;
    const handler = parent.parent.handler;
    if (!handler || rethrows(handler)) continue;
    yield { attempt: parent.parent, before: parent.body.slice(0, parent.body.indexOf(current as TSESTree.Statement)) };
  }
}

/**
 * Whether the deletion `node` in its function `fn` runs only when no statement before it in an
 * enclosing `try` block threw, that `try`'s `catch` handling the error without any of the
 * deletions `others` of the same key in it or in the `try`'s `finally` (see the module comment).
 * @param context the module's rule context (its Redis commands: `file-index.ts` redisCallNodes)
 * @param others the nodes of the deletions of the same key shape in the same module (`node` among them or not)
 */
export function deletedOnlyWithoutError(context: AnyContext, node: TSESTree.Node, fn: FunctionLike, others: readonly TSESTree.Node[]): boolean {
  const redisCalls = redisCallNodes(context);
  const covered = (part: TSESTree.Node | null | undefined) => part !== null && part !== undefined && others.some((other) => encloses(part, other));
  for (const { attempt, before } of survivingTries(node, fn)) {
    if (before.some((statement) => mayFail(context, statement, redisCalls)) && !covered(attempt.handler) && !covered(attempt.finalizer)) return true;
  }
  return false;
}

/**
 * Whether `later` (a refresh after a write) is skipped when work between `earlier` and it fails
 * and a `catch` goes on: in a `try` block holding `later`, a statement before the one holding it,
 * wholly after `earlier`, may fail ({@link mayFail}), and the `try`'s `catch` does not rethrow
 * (`try { await redis.rpush(k, m); await notify(id); await redis.expire(k, DAY); } catch (e) {
 * log(e); }`: a failed notify leaves the pushed key without its TTL, an outcome the code chose to
 * survive, not a crash). `context`: the module's rule context.
 */
export function skippedOnHandledError(context: AnyContext, earlier: TSESTree.Node, later: TSESTree.Node, fn: TSESTree.Node | undefined): boolean {
  const redisCalls = redisCallNodes(context);
  for (const { before } of survivingTries(later, fn)) {
    if (before.some((statement) => statement.range[0] >= earlier.range[1] && mayFail(context, statement, redisCalls))) return true;
  }
  return false;
}
