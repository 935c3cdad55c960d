/**
 * An APPEND (or SETRANGE) to a read-through cache string: a key family the file reads whole (GET,
 * GETEX, GETDEL, MGET) and fills whole with a SET. Its DEL in another function is the cache's
 * invalidation, after which the next read fills the key again; it does not manage the life of a
 * string that something appends to:
 *
 * ```ts
 * async function list(userId) {                       // the cache: GET, on a miss fetch and SET
 *   const cached = await redis.get(`ga:properties:userId:${userId}`);
 *   if (cached) return JSON.parse(cached);
 *   const all = await fetchAll();
 *   await redis.set(`ga:properties:userId:${userId}`, JSON.stringify(all));
 *   return all;
 * }
 * async function create(userId, form) { ...; await redis.del(`ga:properties:userId:${userId}`); }
 * async function update(userId, form) {               // reported
 *   const response = await api.update(form);
 *   await redis.append(`ga:properties:userId:${userId}`, response);
 * }
 * ```
 *
 * APPEND creates a missing key without TTL and keeps an existing one's
 * (`semantics/command-families.ts` STRING_IN_PLACE_WRITES): between two invalidations the cached
 * string grows with every append, and an append after the DEL recreates the key without TTL,
 * holding only the appended piece, which the next read serves as the cached value instead of
 * filling it. So `allowDeletedKeys` (`lifecycle.ts` deletedElsewhere) does not leave such an
 * append alone. Not this kind, and still left to the other readings: an append-only string the
 * code never writes whole (a log a job deletes: its DEL manages its life), a family no code of the
 * file reads whole, a key the file gives a TTL (`SET ... EX` then APPEND keeps it), a fixed key
 * (bounded: `allowConstantKeys`), and a key with no static part (`*`: no family to match).
 */
import { STRING_IN_PLACE_WRITES, STRING_WHOLE_READS } from '../semantics/commands.js';
import { fileIndexOf } from './file-index.js';
import { hasStaticPart, sameKeyByShape } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import type { AnyContext } from './static.js';

/**
 * Whether `call` appends to (APPEND, SETRANGE) the key at argument `arg` of a read-through cache
 * string: the file reads that key family whole and writes it whole with SET (see the module
 * comment), so a DEL of the family elsewhere is an invalidation that does not end the appended
 * string's life.
 */
export function appendedToCachedString(context: AnyContext, call: RedisCall, arg: number): boolean {
  if (!STRING_IN_PLACE_WRITES.has(call.command)) return false;
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement') return false;
  const shape = keyShapeOf(context, keyNode).shape;
  if (!hasStaticPart(shape)) return false;
  let filled = false;
  let read = false;
  const index = fileIndexOf(context);
  for (const other of [...index.calls, ...index.facadeCalls]) {
    const whole = other.command === 'SET' ? 'fill' : STRING_WHOLE_READS.has(other.command) ? 'read' : undefined;
    if (!whole) continue;
    for (const key of other.description.keys) {
      const node = other.argNodes[key.arg];
      if (!node || node.type === 'SpreadElement' || keyShapeOf(context, node).shape !== shape || !sameKeyByShape(context, shape, keyNode, node)) continue;
      if (whole === 'fill') filled = true;
      else read = true;
    }
    if (filled && read) return true;
  }
  return false;
}
