/**
 * The option syntax of a call whose receiver's client is **not decided**: a receiver that is a
 * client only by its name or its shape (`byName`: a parameter `client`, `this.client` set from a
 * constructor option, a duck-typed interface), whose library is merely the one the file imports.
 * Adapter code that takes whichever client its user hands in (`(client, key, value, seconds) =>
 * client.set(key, value, 'EX', seconds)` as the ioredis default beside an `upstashPreset` of
 * `client.set(key, value, { ex: seconds })`) writes each helper in the syntax of the client it is
 * meant for; reading it with the file's client would report a TTL that client drops, although the
 * client the helper gets sends it.
 *
 * So for such a receiver, when the options of SET / GETEX follow exactly one other client's syntax
 * (the option tables of `option-checks.ts`), the call is read in that client's dialect:
 *
 * - ioredis-style tokens (`'EX', seconds`, `'NX'`): ioredis;
 * - an options object every key of which @upstash/redis reads (`{ ex }`, `{ px, nx }`) and
 *   node-redis does not: @upstash/redis;
 * - an options object every key of which node-redis reads (`{ EX }`, `{ expiration }`) and
 *   @upstash/redis does not: node-redis.
 *
 * A receiver whose client is decided (made by a constructor or factory of a package, imported,
 * typed by a client package's type) keeps its client's syntax, and so does a global (`redis`,
 * `global.redis`: the application's own client, stored there by its own code, never one handed to
 * an adapter), a member whose library the package tells (`req.redisClient`, stored by the
 * application's own middleware: `global-clients.ts`) and a call whose options no client reads as
 * written (`{ Ex: 60 }`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { ClientFlavor, ReceiverKind } from './client-facts.js';
import { libraryToldByPackage } from './global-clients.js';
import { NODE_REDIS_SET_OPTIONS, SET_TOKENS, UPSTASH_SET_OPTIONS } from './option-checks.js';
import { propertyName, resolveConstExpression, staticValue, type AnyContext } from './static.js';

/** Clients whose options syntax {@link undecidedDialect} may read a call in. */
const DIALECTS: ReadonlySet<ClientFlavor> = new Set(['ioredis', 'node-redis', 'upstash']);

/**
 * The client whose syntax `command`'s options follow in `args` (the call's arguments), when the
 * `receiver`'s client is not decided (see the module comment) and that syntax is another client's
 * than `flavor`, the one the file suggests; else `undefined` (read the call as `flavor`).
 * `fileFlavor`: the client the file imports, which a name-only receiver is given; `object`: the
 * receiver expression (`client` of `client.set(...)`).
 */
export function undecidedDialect(
  context: AnyContext,
  object: TSESTree.Node,
  receiver: ReceiverKind,
  fileFlavor: ClientFlavor,
  flavor: ClientFlavor,
  command: string,
  args: readonly TSESTree.CallExpressionArgument[],
): ClientFlavor | undefined {
  if (!receiver.redis || !receiver.byName || receiver.flavor !== fileFlavor || !DIALECTS.has(flavor)) return undefined;
  if (libraryToldByPackage(context, object)) return undefined;
  const optionsAt = command === 'SET' ? 2 : command === 'GETEX' ? 1 : undefined;
  const options = optionsAt === undefined ? undefined : args[optionsAt];
  if (!options || options.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const dialect = dialectOf(context, options);
  return dialect !== undefined && dialect !== flavor ? dialect : undefined;
}

/** The one client that reads `options`, the first options argument, as written; else `undefined`. */
function dialectOf(context: AnyContext, options: TSESTree.Node): ClientFlavor | undefined {
  const resolved = resolveConstExpression(context, options);
  if (resolved.type !== AST_NODE_TYPES.ObjectExpression) {
    const token = staticValue(context, options);
    return typeof token === 'string' && SET_TOKENS.test(token) ? 'ioredis' : undefined;
  }
  const names: string[] = [];
  for (const property of resolved.properties) {
    const name = property.type === AST_NODE_TYPES.Property ? propertyName(property.key, property.computed) : undefined;
    if (name === undefined) return undefined;
    names.push(name);
  }
  if (names.length === 0) return undefined;
  if (names.every((n) => UPSTASH_SET_OPTIONS.has(n)) && !names.some((n) => NODE_REDIS_SET_OPTIONS.has(n))) return 'upstash';
  if (names.every((n) => NODE_REDIS_SET_OPTIONS.has(n)) && !names.some((n) => UPSTASH_SET_OPTIONS.has(n))) return 'node-redis';
  return undefined;
}
