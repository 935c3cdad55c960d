/**
 * RedisJSON writes whose path is not a literal (`client.json.set(key, jsonPath, value)`,
 * `redis.call('JSON.SET', key, `$.${field}`, v)`, `sendCommand(['JSON.SET', key, path, v])`):
 * the command table describes them as creating a missing key, as at the root (`$` or `.`), with
 * the index of their path (`KeyAction.rootPathArg`); below the root Redis cannot create one
 * (`semantics/redis8-types.ts` jsonWritesBelowRoot). The path is spelled by the one key speller
 * (`key-shape.ts`): when every value it can take starts below the root (`$.items`, `` `$.${f}` ``,
 * `` `${base}[${i}]` `` with `base` one of `$` and `$.items`, `cond ? '$.a' : '$.b'`), the write
 * updates a document that exists and creates no key. A path that may be the root (one arm `'$'`)
 * or that the speller cannot read stays a possible creation.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { isBelowJsonRoot, jsonWritesBelowRoot } from '../semantics/redis8-types.js';
import { keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import type { AnyContext } from './static.js';

/**
 * `call` with its JSON writes below the root read as updates of an existing key (the same call
 * when it has none, or when no path of it is surely below the root).
 * @param context the rule context (the speller resolves the path's variables there)
 * @param call a normalized Redis call
 */
export function withJsonPathsRead(context: AnyContext, call: RedisCall): RedisCall {
  const description = jsonWritesBelowRoot(call.description, (pathArg) => {
    const node = call.argNodes[pathArg];
    return node !== undefined && pathBelowRoot(context, node);
  });
  return description === call.description ? call : { ...call, description };
}

/**
 * Whether every value a JSON path expression can take is below the root: each spelling the
 * speller lists for it (or its one shape) starts with literal text that is not the root alone.
 */
function pathBelowRoot(context: AnyContext, node: TSESTree.Node): boolean {
  const shape = keyShapeOf(context, node);
  return (shape.alternatives ?? [shape.shape]).every((spelling) => isBelowJsonRoot(spelling.split('*')[0]!));
}
