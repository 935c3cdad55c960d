/**
 * The `keyPrefix` option of an ioredis / iovalkey client, read where the code makes the client:
 * `new Redis({ keyPrefix: 'queue:' })`, `new Redis(url, { keyPrefix })`, `new Redis(port, host,
 * options)`, `new Cluster(nodes, { keyPrefix })` or its `redisOptions.keyPrefix` (which the cluster
 * takes when it has none of its own). The client puts the prefix before every key it sends
 * (ioredis' `Command`: `options.keyPrefix + key`, in pipelines, MULTI and defined scripts too), so
 * the key as stored is the prefix followed by the key as written
 * (https://github.com/redis/ioredis#transparent-key-prefixing). node-redis 4 / 5 and
 * @upstash/redis have no such option.
 *
 * The prefix is read as a key is ({@link keyShapeOf}): `` `${name}:` `` of a factory's parameter
 * is spelled through the factory's calls (`withPrefix('queue')` makes `queue:`), and what is known
 * only at run time is `*` (`process.env.PREFIX` is `*`). A prefix set elsewhere (`client.options.keyPrefix
 * = ...`) or an options object the code does not spell (a parameter, a spread the linter cannot
 * read) gives none.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { keyShapeOf } from './key-shape.js';
import { propertyName, resolveConstExpression, unwrap, type AnyContext } from './static.js';

/**
 * Whether a KEYS / SCAN listing and a deletion of each listed key, sent through clients with these
 * `keyPrefix` options, drain the keys the pattern names: only when neither client has a prefix.
 * ioredis / iovalkey prefix the keys of commands, but neither a KEYS / SCAN pattern nor the keys
 * they reply with (https://github.com/redis/ioredis#transparent-key-prefixing): the listing
 * misses the stored keys, or the deletion prefixes a listed (already prefixed) key again.
 * @param listing the `keyPrefix` of the listing's client (`undefined`: none)
 * @param deletion the `keyPrefix` of the deletion's client (`undefined`: none)
 */
export function listingDrainsThroughPrefix(listing: string | undefined, deletion: string | undefined): boolean {
  return listing === undefined && deletion === undefined;
}

/** A prefix option whose value a spread after it may replace: known to be set, its text unknown. */
const UNKNOWN_VALUE = 'unknown';

/**
 * The shape of the `keyPrefix` option of the client a `new` expression makes (`queue:`, `*:` for
 * one known only at run time), or `undefined` when the code spells none (or an empty one). The
 * caller has settled that the expression makes an ioredis / iovalkey client. Never throws.
 * @param context the rule context of the module the expression is in
 * @param made the `new Redis(...)` / `new Cluster(...)` expression
 */
export function constructionKeyPrefix(context: AnyContext, made: TSESTree.NewExpression): string | undefined {
  // the options object is the last argument of every constructor form: (options), (url, options),
  // (port, host, options), (nodes, options) of a cluster
  for (let index = made.arguments.length - 1; index >= 0; index--) {
    const argument = made.arguments[index]!;
    if (argument.type === AST_NODE_TYPES.SpreadElement) return undefined;
    const options = resolveConstExpression(context, argument);
    if (options.type !== AST_NODE_TYPES.ObjectExpression) continue;
    let value = optionValue(context, options, 'keyPrefix', 0);
    if (value === undefined) {
      const redisOptions = optionValue(context, options, 'redisOptions', 0);
      const inner = redisOptions && redisOptions !== UNKNOWN_VALUE ? resolveConstExpression(context, redisOptions) : undefined;
      value = inner?.type === AST_NODE_TYPES.ObjectExpression ? optionValue(context, inner, 'keyPrefix', 0) : undefined;
    }
    if (value === undefined) return undefined;
    const shape = value === UNKNOWN_VALUE ? '*' : keyShapeOf(context, value).shape;
    return shape === '' ? undefined : shape;
  }
  return undefined;
}

/**
 * The value an options object literal gives `name`: its last property of that name, or what a
 * spread of a `const` object literal gives it; {@link UNKNOWN_VALUE} when a spread the linter
 * cannot read comes after it (it may replace it); `undefined` when the object gives it none.
 */
function optionValue(context: AnyContext, object: TSESTree.ObjectExpression, name: string, depth: number): TSESTree.Node | typeof UNKNOWN_VALUE | undefined {
  let found: TSESTree.Node | typeof UNKNOWN_VALUE | undefined;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      const spread = resolveConstExpression(context, property.argument);
      if (spread.type === AST_NODE_TYPES.ObjectExpression && depth < 4) {
        const inner = optionValue(context, spread, name, depth + 1);
        if (inner !== undefined) found = inner;
      } else if (found !== undefined) {
        found = UNKNOWN_VALUE;
      }
      continue;
    }
    if (propertyName(property.key, property.computed) === name) found = unwrap(property.value);
  }
  return found;
}
