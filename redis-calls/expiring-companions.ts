/**
 * Companions that end a record's life without its DEL: a DEL that also deletes keys which end by
 * expiring (a sliding TTL refreshed on use, or a deadline whose expiry the package handles) sits
 * in a deletion that may never run, since the operation it ends may end by that expiry instead.
 * Read by `lifecycle.ts` (a DEL of the same file) and `cross-file-lifecycle.ts` (a DEL of another
 * module): the DEL does not bound the record it deletes beside them.
 *
 * ```ts
 * async function hold(id) { await redis.set(`booking:deadline:${id}`, '', 'EX', 900); }
 * async function saveAnswers(id, a) { await redis.set(`booking:answers:${id}`, a); } // reported
 * async function complete(id) { await redis.del(`booking:answers:${id}`, `booking:deadline:${id}`); }
 * // elsewhere: sub.subscribe('__keyevent@0__:expired') — an abandoned booking ends by expiry
 * ```
 */
import { isAbsolute } from 'node:path';
import { EFFECTS_THAT_DELETE_KEY } from '../semantics/commands.js';
import { handlesExpiredKeys } from './expiry-events.js';
import { fileIndexOf } from './file-index.js';
import { hasStaticPart, listedKeys } from './key-id.js';
import { spreadKeys } from './key-lists.js';
import { keyShapeOf } from './key-shape.js';
import { LOCK_WORDS } from './names.js';
import { encloses, type AnyContext, type FunctionLike } from './static.js';

/**
 * Whether the function `deleter` (of the module of `context`) also deletes keys of another shape whose TTL the file refreshes
 * on existing keys (`destroySession` deleting `code:*` with `...sessionKeys(id)`, which
 * `touchSession` PEXPIREs: file-index.ts refreshedShapes): the deletion ends a record whose other
 * keys end by idling too, and when they do, nothing runs the deletion of the key of shape `shape`.
 * Not a companion created with its own TTL (a `SET ... NX PX` guard: it times out on its own,
 * whatever the record does), unless the package runs code when keys of its shape expire
 * (expiry-events.ts) and its name is no lock's (`names.ts` LOCK_WORDS): then the companion is the
 * operation's deadline (`booking:deadline:*` set with EX and deleted
 * by the completion beside the record), an operation left unfinished ends by its expiry, and the
 * completion's DEL never runs. Spread lists are read as key-lists.ts reads them; the deletions
 * may go through a pass-through facade (`this.redis.del(key)`).
 * @param shape the shape of the key whose deletion by `deleter` is in question (`booking:answers:*`)
 * @param writerContext the context of the module writing that key, when `deleter` is of another
 *   module: the TTLs that module gives count too (the deadline set beside the record it writes)
 */
export function deletesExpiringKeys(context: AnyContext, deleter: FunctionLike, shape: string, writerContext?: AnyContext): boolean {
  const index = fileIndexOf(context);
  const indexes = writerContext ? [index, fileIndexOf(writerContext)] : [index];
  const ends = (deleted: string): boolean => {
    if (indexes.some((i) => i.refreshedShapes.has(deleted))) return true;
    if (!indexes.some((i) => i.expiredShapes.has(deleted))) return false;
    // a lock's TTL ends a crashed owner's hold, not the operation: it is no deadline
    if (LOCK_WORDS.test(deleted)) return false;
    const file = context.physicalFilename ?? context.filename;
    return isAbsolute(file) && handlesExpiredKeys(file, deleted);
  };
  return [...index.calls, ...index.facadeCalls].some(
    (other) =>
      encloses(deleter, other.node) &&
      other.description.keys.some((action) => {
        if (!EFFECTS_THAT_DELETE_KEY.has(action.effect)) return false;
        const keyNode = other.argNodes[action.arg];
        if (!keyNode) return false;
        const named = keyNode.type === 'SpreadElement' ? spreadKeys(context, keyNode) : listedKeys(context, keyNode).map((node) => ({ context, node }));
        return named.some((key) => {
          const deleted = keyShapeOf(key.context, key.node).shape;
          return deleted !== shape && hasStaticPart(deleted) && ends(deleted);
        });
      }),
  );
}
