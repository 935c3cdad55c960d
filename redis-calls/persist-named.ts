/**
 * Writes through a helper whose name says the key is kept (round 41): `rememberForever(key, cb)`,
 * `setPermanent(key, value)`. The helper writes the key its caller
 * passes, without TTL, and its name is the maintainer's word that this is the point:
 *
 * ```ts
 * async setPermanent(key, value) { await redisClient.set(key, JSON.stringify(value)); } // left alone in recommended
 * async rememberForever(key, callback) { ...; await this.put(key, await callback()); } // left alone in recommended
 * await cache.setPermanent(`tenant:${id}:plan`, plan); // a caller of such a facade: left alone too
 * ```
 *
 * A TTL added there would contradict the name; the choice is its callers', who ask for a key kept
 * forever by calling it, as a `// redis-ttl persistent:` annotation says at one write. So in
 * `recommended` (`allowPassThrough`) such a write is persistent by design: a write whose key is a
 * parameter of the function it is written in (as it is, given to a key builder of the code, or
 * with configuration around it: `pass-through.ts` forwardingFunction), that function named so
 * ({@link PERSIST_NAME}); or a call of a facade so named, read as its command at the caller
 * (`facades.ts`). A helper that spells its own key (`` setPermanent(id) { set(`plan:${id}`, ...) } ``)
 * chooses a family, not its callers: judged as any write. `strict` reports them all.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { RedisCall } from './normalize.js';
import { forwardingFunction } from './pass-through.js';
import { functionName, referenceName, unwrap, type AnyContext } from './static.js';

/**
 * A name that says its writes are kept: `Forever` or `Permanent` (any case) anywhere in it. Not the
 * verb `persist` (`persistSession`, `persistRecord`): in JavaScript it mostly means "save", and
 * a save helper's callers choose their keys' lifetimes (review41).
 * Not when the word is negated: `setNonPermanent`, `cacheImpermanent`, `storeNotForever`,
 * `set_non_permanent` say the key is not kept.
 */
const PERSIST_NAME =
  /(?<!(?:[Nn]on|NON|[Nn]ot|NOT|[Ii]m|IM)_?)(?:[Ff]orever|FOREVER|[Pp]ermanent|PERMANENT)/;

/**
 * The name of the helper that declares the write of the key at `keyNode` of `call` persistent
 * (see the module comment), else `undefined`.
 * @param context the rule context of the write (the caller's, for a facade's call)
 * @param call the command, maybe a facade's call read at its caller
 * @param keyNode the key argument as written
 */
export function persistNamedWriter(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): string | undefined {
  if (call.facade && call.node.type === AST_NODE_TYPES.CallExpression) {
    const name = referenceName(unwrap(call.node.callee));
    if (name !== undefined && PERSIST_NAME.test(name)) return name;
  }
  const fn = forwardingFunction(context, keyNode);
  const name = fn && functionName(fn);
  return name !== undefined && PERSIST_NAME.test(name) ? name : undefined;
}
