/**
 * Keys **moved away whole and then deleted**: a job RENAMEs the key its writers fill to a
 * processing key, reads that, and deletes it (a view buffer flushed to the database):
 *
 * ```ts
 * static async recordView(id) { await redis.hIncrBy('views:buffer', id, 1); await redis.expire(...); }
 * static async flushViews() {                                      // run by a scheduled job
 *   const processing = 'views:buffer:processing';
 *   await redis.rename('views:buffer', processing);
 *   await save(await redis.hGetAll(processing));
 *   await redis.del(processing);
 * }
 * ```
 *
 * RENAME / RENAMENX remove their source key (`semantics/commands.ts` movedTo), but its value, and
 * its TTL or lack of one, live on under the destination: a move ends the key only when the moving
 * function deletes the destination after it ({@link destinationDeleted}: DEL / UNLINK / GETDEL of
 * the same destination expression, through its `const`, none of its variables assigned in
 * between; on any path, as a later run of the job retries a flush that failed). A RENAME to a key
 * nothing deletes, or that another function deletes, is no removal ({@link removesWholeKey}).
 *
 * `lifecycle.ts` deletedElsewhere then takes such a drain in another function that may run for
 * the end of every key its source's shape names ({@link drainCovers}), even when the file also
 * gives that shape a TTL: the expiry is a safety net, and a lost one leaves nothing once the job
 * runs (a DEL alone of an expiring shape stays an invalidation, reported).
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_DELETE_KEY, movedTo } from '../semantics/commands.js';
import { matchSegmentStars } from '../semantics/key-patterns.js';
import { fileIndexOf } from './file-index.js';
import { keyAssignedBetween, listedKeys } from './key-id.js';
import type { RedisCall } from './normalize.js';
import { constInitializer, enclosingFunction, unwrap, type AnyContext } from './static.js';

/** A key expression's text without spaces, read through the `const` it names. */
function spelled(context: AnyContext, node: TSESTree.Node): string {
  let value: TSESTree.Node = unwrap(node);
  if (value.type === 'Identifier') {
    const init = constInitializer(context, value);
    if (init) value = unwrap(init);
  }
  return context.sourceCode.getText(value).replace(/\s+/g, '');
}

/**
 * The deletion that ends the key a RENAME / RENAMENX `call` moves its key at `arg` to: a DEL /
 * UNLINK / GETDEL (not itself a move) of the same destination expression (its text through its
 * `const`; each key of `del(a, b)` and `del([a, b])`), after the move in the same function, none of
 * the destination's variables assigned in between. `undefined` when `arg` is not a move's source
 * or nothing in the function deletes its destination.
 */
export function destinationDeleted(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const to = movedTo(call.description, arg);
  const destination = to === undefined ? undefined : call.argNodes[to];
  if (!destination || destination.type === 'SpreadElement') return undefined;
  const fn = enclosingFunction(call.node);
  const text = spelled(context, destination);
  const index = fileIndexOf(context);
  for (const other of [...index.calls, ...index.facadeCalls]) {
    if (other === call || other.node.range[0] <= call.node.range[1] || enclosingFunction(other.node) !== fn) continue;
    for (const action of other.description.keys) {
      if (!EFFECTS_THAT_DELETE_KEY.has(action.effect) || movedTo(other.description, action.arg) !== undefined) continue;
      // DEL a b c: the command's further arguments are keys too
      const nodes = other.argNodes.slice(action.arg, action.arg === 0 && other.description.keys.length === 1 ? undefined : action.arg + 1);
      for (const node of nodes) {
        if (!node) continue;
        // spelled alike, and reading no variable declared or assigned since the move (a shadowing
        // `for (const id of stale) del(\`work:${id}\`)` deletes other keys)
        const named = listedKeys(context, node).some((key) => spelled(context, key) === text && !keyAssignedBetween(context, key, call.node.range[1], other.node.range[0]));
        if (named && !keyAssignedBetween(context, destination, call.node.range[1], other.node.range[0])) return other;
      }
    }
  }
  return undefined;
}

/**
 * Whether the call removes its key at `arg` whole: a DEL / UNLINK / GETDEL (the `delete` effect of
 * `semantics/commands.ts`), or a move whose destination the moving function then deletes
 * ({@link destinationDeleted}); not a RENAME to a key that lives on.
 */
export function removesWholeKey(context: AnyContext, call: RedisCall, arg: number): boolean {
  const action = call.description.keys.find((key) => key.arg === arg);
  if (!action || !EFFECTS_THAT_DELETE_KEY.has(action.effect)) return false;
  return movedTo(call.description, arg) === undefined || destinationDeleted(context, call, arg) !== undefined;
}

/**
 * Whether a move of keys of the shape `source` (a RENAME's source, `views:buffer:*`) drains the
 * written shape `written`: the same shape, or each `*` of the source standing for a run of the
 * written shape without `:` (the date of `views:buffer:${day}` that the writer computes by calls
 * the linter cannot read, `views:buffer:*0*10*`). A fixed key (`views:buffer`) never drains a
 * per-id family (`views:buffer:*`), nor `room:*` the keys below it (`room:*:members`): the
 * narrower reading of `*`, `semantics/key-patterns.ts` {@link matchSegmentStars}.
 */
export function drainCovers(source: string, written: string): boolean {
  return source === written || matchSegmentStars(source, written);
}
