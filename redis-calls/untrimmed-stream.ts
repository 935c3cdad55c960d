/**
 * Streams nothing trims: an XADD without MAXLEN / MINID appends one entry per call, and a stream
 * is not bounded by having one key. A constant stream key (`'clicks_stream'`, `this.streamName`,
 * `process.env.STREAM`) is one key, but its entries pile up for ever unless something removes
 * entries of THAT stream: an XTRIM, an XADD ... MAXLEN / MINID, or the XDEL of a consumer that
 * deletes what it processed (`semantics/queues.ts` removesStreamEntries), or a DEL / UNLINK of the
 * whole stream, of a key shape that can be that stream's (the same shape, or one whose run-time
 * parts can spell it: `xdel(this.streamKey, ...)` of a consumer class given the key; not a DEL of a
 * key named only at run time, a cache helper's `del(key)`, which may delete any key), in the file
 * or in a related module of the package
 * (`cross-file-lifecycle.ts` relatedModules: its importers, its imports and their importers,
 * bounded, read once per lint run).
 *
 * Not a bound: XACK, XREADGROUP (a consumer group's reads leave the entries in the stream; a stream
 * a consumer group reads is `lifecycle.ts` keptStream's, left as it is), a trim or XDEL of a stream
 * of another name (`clicks:stream` does not trim `clicks_stream`). A key the file gives a TTL, or
 * deletes, is judged by those readings instead.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { matchStars, starLiterals } from '../semantics/key-patterns.js';
import { appendsUncappedEntry, removesStreamEntries } from '../semantics/queues.js';
import { relatedModules } from './cross-file-lifecycle.js';
import { fileIndexOf } from './file-index.js';
import { keyIdOf } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import type { AnyContext } from './static.js';

/** Text that may remove stream entries (`XTRIM`, `xTrim`, `MAXLEN`, `MINID`, node-redis' `TRIM: {...}`, `XDEL`, `DEL`, `UNLINK`): only such a related module is parsed. */
const MAY_TRIM = /xtrim|maxlen|minid|xdel|\bdel\b|unlink/i;

const cappedCache = new WeakMap<TSESTree.Program, ReadonlyArray<readonly string[]>>();
const relatedCache = new WeakMap<TSESTree.Program, AnyContext[]>();

/**
 * Whether the XADD `call` appends to the bounded stream key `keyNode` (a constant, a member fixed
 * once per instance, configuration) with no MAXLEN / MINID, and nothing of the file or of its
 * related modules trims that key shape, nor does the file expire it: the stream grows by one entry
 * per call for ever.
 * @param context the rule context of the file of `call`
 */
export function untrimmedStreamAppend(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  if (!appendsUncappedEntry(call.command, call.args)) return false;
  const arg = call.argNodes.indexOf(keyNode);
  if (arg < 0 || keyNode.type === 'SpreadElement') return false;
  const shape = keyShapeOf(context, keyNode);
  // a stream per identity is judged as any key family (it needs a TTL)
  if (!shape.constant) return false;
  const index = fileIndexOf(context);
  const id = keyIdOf(context, call, arg);
  if (index.expiredShapes.has(shape.shape) || (id !== undefined && index.expiredKeyIds.has(id))) return false;
  const trims = (shapes: ReadonlyArray<readonly string[]>) => shapes.some((literals) => matchStars(literals, shape.shape));
  return !trims(cappedShapes(context)) && !cappedInRelatedModule(context, trims);
}

/**
 * The key shapes whose entries the module of `at` removes (XTRIM, XADD ... MAXLEN / MINID, XDEL,
 * or the whole stream: DEL / UNLINK),
 * each as its {@link starLiterals} (a `*` for a part known only at run time), cached per module.
 */
function cappedShapes(at: AnyContext): ReadonlyArray<readonly string[]> {
  const program = at.sourceCode.ast;
  const cached = cappedCache.get(program);
  if (cached) return cached;
  const shapes: string[][] = [];
  cappedCache.set(program, shapes);
  const index = fileIndexOf(at);
  for (const call of [...index.calls, ...index.facadeCalls]) {
    const removes = removesStreamEntries(call.command, call.args);
    for (const key of call.description.keys) {
      // entries removed, or the whole stream deleted (DEL / UNLINK: `semantics/commands.ts` 'delete')
      if (!removes && key.effect !== 'delete') continue;
      const node = call.argNodes[key.arg];
      if (!node || node.type === 'SpreadElement') continue;
      const literals = starLiterals(keyShapeOf(at, node).shape);
      // a DEL / UNLINK of a key named only at run time (a cache helper's `del(key)`) may delete
      // any key: no sign that it is the stream's (an XDEL / XTRIM of one is: only streams take them)
      if (!removes && literals.every((literal) => literal === '')) continue;
      shapes.push(literals);
    }
  }
  return shapes;
}

/** Whether a related module of the linted file removes entries of a shape `trims` accepts (read once per file). */
function cappedInRelatedModule(context: AnyContext, trims: (shapes: ReadonlyArray<readonly string[]>) => boolean): boolean {
  const program = context.sourceCode.ast;
  let related = relatedCache.get(program);
  if (!related) {
    related = relatedModules(context, MAY_TRIM);
    relatedCache.set(program, related);
  }
  return related.some((at) => trims(cappedShapes(at)));
}
