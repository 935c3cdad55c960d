/**
 * Streams nothing trims: an XADD without MAXLEN / MINID appends one entry per call, and a stream
 * is not bounded by having one key. A constant stream key (`'clicks_stream'`, `this.streamName`,
 * `process.env.STREAM`) is one key, but its entries pile up for ever unless something trims THAT
 * stream: an XTRIM, or an XADD ... MAXLEN / MINID, of the same key shape (`semantics/queues.ts`
 * streamUse), in the file or in a related module of the package (`cross-file-lifecycle.ts`
 * relatedModules: its importers, its imports and their importers, bounded, read once per lint run).
 *
 * Not a bound: XDEL of the entries a consumer read, XACK, XREADGROUP (a consumer group's reads
 * leave the entries in the stream; a stream a consumer group reads is `lifecycle.ts` keptStream's,
 * left as it is), a trim of a stream of another name (`clicks:stream` does not trim
 * `clicks_stream`). A key the file gives a TTL, or deletes, is judged by those readings instead.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { streamUse } from '../semantics/queues.js';
import { relatedModules } from './cross-file-lifecycle.js';
import { fileIndexOf } from './file-index.js';
import { keyIdOf } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import type { AnyContext } from './static.js';

/** Text that may trim a stream (`XTRIM`, `xTrim`, `MAXLEN`, `MINID`, node-redis' `TRIM: {...}`): only such a related module is parsed. */
const MAY_TRIM = /xtrim|maxlen|minid/i;

const cappedCache = new WeakMap<TSESTree.Program, ReadonlySet<string>>();
const relatedCache = new WeakMap<TSESTree.Program, AnyContext[]>();

/**
 * Whether the XADD `call` appends to the bounded stream key `keyNode` (a constant, a member fixed
 * once per instance, configuration) with no MAXLEN / MINID, and nothing of the file or of its
 * related modules trims that key shape, nor does the file expire it: the stream grows by one entry
 * per call for ever.
 * @param context the rule context of the file of `call`
 */
export function untrimmedStreamAppend(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  if (call.command !== 'XADD' || streamUse(call.command, call.args) === 'cap') return false;
  const arg = call.argNodes.indexOf(keyNode);
  if (arg < 0 || keyNode.type === 'SpreadElement') return false;
  const shape = keyShapeOf(context, keyNode);
  // a stream per identity is judged as any key family (it needs a TTL)
  if (!shape.constant) return false;
  const index = fileIndexOf(context);
  const id = keyIdOf(context, call, arg);
  if (index.expiredShapes.has(shape.shape) || (id !== undefined && index.expiredKeyIds.has(id))) return false;
  return !cappedShapes(context).has(shape.shape) && !cappedInRelatedModule(context, shape.shape);
}

/** The key shapes the module of `at` caps (XTRIM, XADD ... MAXLEN / MINID), cached per module. */
function cappedShapes(at: AnyContext): ReadonlySet<string> {
  const program = at.sourceCode.ast;
  const cached = cappedCache.get(program);
  if (cached) return cached;
  const shapes = new Set<string>();
  cappedCache.set(program, shapes);
  const index = fileIndexOf(at);
  for (const call of [...index.calls, ...index.facadeCalls]) {
    if (streamUse(call.command, call.args) !== 'cap') continue;
    for (const key of call.description.keys) {
      const node = call.argNodes[key.arg];
      if (node && node.type !== 'SpreadElement') shapes.add(keyShapeOf(at, node).shape);
    }
  }
  return shapes;
}

/** Whether a related module of the linted file caps the key shape `shape` (read once per file). */
function cappedInRelatedModule(context: AnyContext, shape: string): boolean {
  const program = context.sourceCode.ast;
  let related = relatedCache.get(program);
  if (!related) {
    related = relatedModules(context, MAY_TRIM);
    relatedCache.set(program, related);
  }
  return related.some((at) => cappedShapes(at).has(shape));
}
