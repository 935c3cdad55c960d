/**
 * What the client detector (`redis-calls/clients.ts`) knows of Redis client libraries: their
 * packages and flavors, the constructors, factories and type names that make or name a client,
 * the classes that are provably no client, and the verdict ({@link ReceiverKind}) a receiver gets.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import { clientPackageDeclaring, exportOf, hasNamedClients, type BatchExport, type ClientFlavor, type ClientPackage } from './client-packages.js';
import { bindingImportedName } from './client-syntax.js';
import { wordsOf } from './names.js';

export { flavorOfModule, type ClientFlavor } from './client-packages.js';

/**
 * The verdict on one receiver. A client verdict says `why` the receiver was taken for a client, as
 * the end of a sentence ("its type comes from ioredis", "it is made by `new Redis()`", "its name
 * matches clientNames 'redis'"), and `byName` when that rests on a name alone (a `clientNames`
 * match, a constructor, factory or type named like a client's with no import of a client package
 * behind it): then a message on a false alarm tells the user what to change. `byShape` when the
 * receiver's declared type of the code is a client only by the commands it lists (a duck-typed
 * client, `duckTypedCommands`): its other methods (`multi()`, SET's options) are unknown, so no
 * fix or suggestion rewrites its calls. `keyPrefix` is the shape (`*` for what is known only at
 * run time) of the `keyPrefix` option of the ioredis / iovalkey client the receiver was made as
 * (`new Redis({ keyPrefix: 'queue:' })`, `redis-calls/client-key-prefix.ts`), which the client puts
 * before every key it sends; absent when the code shows none (or the receiver's construction is
 * not read: a parameter, a type).
 */
export type ReceiverKind =
  /** a client (or cluster) object: commands run one by one */
  | { redis: true; flavor: ClientFlavor; batch?: undefined; why: string; byName?: true; byShape?: true; keyPrefix?: string }
  /** a `multi()` / `pipeline()` object: commands are queued until `exec()` */
  | { redis: true; flavor: ClientFlavor; batch: 'multi' | 'pipeline'; why: string; byName?: true; byShape?: true; keyPrefix?: string }
  /**
   * not a client (`proven`), or not known to be one; `foreign` when the proof is an import from a
   * package that is not a client package (with type information the checker has the last word:
   * such a package may re-export a client type)
   */
  | { redis: false; proven: boolean; foreign?: true };

export const NOT_REDIS: ReceiverKind = { redis: false, proven: true };
export const FOREIGN: ReceiverKind = { redis: false, proven: true, foreign: true };
export const UNKNOWN: ReceiverKind = { redis: false, proven: false };

/** A client verdict. */
export function clientVerdict(flavor: ClientFlavor, why: string, batch?: 'multi' | 'pipeline', byName?: boolean): ReceiverKind {
  const base = batch ? { redis: true as const, flavor, batch, why } : { redis: true as const, flavor, why };
  return byName ? { ...base, byName: true as const } : base;
}

/**
 * A client by the commands its declared type lists (`byShape`; a guess that messages explain, as
 * `byName`), `why` given the list (`get, set, setEx`); `undefined` when no commands are listed.
 */
export function duckVerdict(flavor: ClientFlavor, commands: readonly string[] | undefined, why: (list: string) => string): ReceiverKind | undefined {
  return commands ? { redis: true, flavor, why: why(commands.join(', ')), byName: true, byShape: true } : undefined;
}

/** The same verdict with another explanation (a client stays a client of the same flavor and batch). */
export function relabel(verdict: ReceiverKind, why: (inner: string) => string): ReceiverKind {
  return verdict.redis ? { ...verdict, why: why(verdict.why) } : verdict;
}

/** A client verdict with a `keyPrefix` (none when `undefined`). */
export function withKeyPrefix(verdict: ReceiverKind, keyPrefix: string | undefined): ReceiverKind {
  return verdict.redis && keyPrefix !== undefined ? { ...verdict, keyPrefix } : verdict;
}

/** Whether a verdict is settled without the checker: a client or a non-client proven by the code itself. */
export function settled(verdict: ReceiverKind): boolean {
  return verdict.redis ? verdict.byName !== true : verdict.proven && verdict.foreign !== true;
}

/** Constructors / factories of clients, recognised by name when nothing better is known. */
export const CLIENT_CONSTRUCTORS = new Set(['Redis', 'IORedis', 'Cluster', 'Valkey']);
/** `createClientPool()`: node-redis 5's pool, whose command methods are the client's (https://github.com/redis/node-redis/blob/master/docs/pool.md). */
export const CLIENT_FACTORIES = new Set(['createClient', 'createCluster', 'createSentinel', 'createClientPool']);
/**
 * node-redis methods that call their callback with a client of their own: 4's
 * `client.executeIsolated(async (isolated) => ...)` (https://github.com/redis/node-redis/blob/v4.7.0/docs/isolated-execution.md)
 * and 5's `pool.execute(async (client) => ...)` (https://github.com/redis/node-redis/blob/master/docs/pool.md).
 */
export const NODE_REDIS_CALLBACK_METHODS: ReadonlySet<string> = new Set(['executeIsolated', 'execute']);
/**
 * Client flavors whose `setnx` resolves to Redis' integer reply, 1 or 0
 * (https://redis.io/docs/latest/commands/setnx/): ioredis and iovalkey, @upstash/redis, Bun's
 * client. node-redis 4 resolves it to a boolean (5 to the integer), so a suggestion that turns
 * `SET ... NX`'s `OK` / nil back into 1 / 0 is offered for these only.
 */
export const SETNX_INTEGER_REPLY: ReadonlySet<string> = new Set(['ioredis', 'upstash', 'bun']);
/** Methods of a client that return the client itself (or a copy of it). */
export const SELF_RETURNING = new Set(['on', 'once', 'off', 'connect', 'duplicate', 'withTypeMapping', 'withCommandOptions', 'withAbortSignal', 'asap', 'legacy']);
/** Type names that denote a client when the annotation does not say where they come from. */
export const CLIENT_TYPE_NAMES = new Set([
  'Redis',
  'IORedis',
  'Cluster',
  'RedisClientType',
  'RedisClusterType',
  'RedisClient',
  'RedisCluster',
  'GlideClient',
  'GlideClusterClient',
]);
export const BATCH_TYPE_NAMES: ReadonlyMap<string, 'multi' | 'pipeline'> = new Map([
  ['ChainableCommander', 'multi'],
  ['Pipeline', 'pipeline'],
  ['RedisClientMultiCommandType', 'multi'],
  ['RedisClusterMultiCommandType', 'multi'],
]);
/**
 * Key-value stores that write through a Redis client of their own (or none) and expose their own
 * `set(key, value, ttl?)` / `get` / `delete`: what they return is a store, never a Redis client.
 */
const STORE_PACKAGES = /^(?:keyv|@keyv\/[^/]+|cache-manager(?:-[^/]+)?|cacheable|@cacheable\/[^/]+|node-cache|lru-cache|quick-lru)(?:\/|$)/;

/** A module specifier naming Redis or Valkey (`ioredis`, `@upstash/redis`, `@acme/redis-connection`, `coral-server/services/redis`): a client package or a module named after one. */
export const NAMES_REDIS_MODULE = /redis|valkey/i;

/**
 * Whether a value made by calling an export of `source`, a package that is no client package and
 * no module of the code, is provably no Redis client: a store package always; any other package
 * unless its name mentions Redis or Valkey (a wrapper package, `@acme/redis-connection`, may hand
 * back a client, and its value is left to the receiver's name) or the function called names a
 * client ({@link NAMES_CLIENT_FACTORY}: a framework's `getIoRedis()` of `@alemonjs/db`). A
 * function that only mentions Redis (`CacheRedis('fees')` of a framework) makes that package's
 * store, not a client.
 * @param factory the exported name called (`getIoRedis`), when known
 */
export function foreignFactoryMakesNoClient(source: string, factory?: string): boolean {
  if (source.startsWith('node:')) return true;
  if (STORE_PACKAGES.test(source)) return true;
  return !NAMES_REDIS_MODULE.test(source) && !(factory !== undefined && NAMES_CLIENT_FACTORY.test(factory));
}

/** A function name that names a Redis client: ioredis / iovalkey (`getIoRedis`), or a Redis / Valkey client (`createRedisClient`). */
export const NAMES_CLIENT_FACTORY = /io-?redis|io-?valkey|(?:redis|valkey)[-_]?client/i;

/**
 * The last word of a member name that names a client or a connection (`redis`, `ioredis`, `valkey`,
 * `client`, `conn`, `connection`, `cluster`, `pub` / `sub`, `primary` / `replica`, ...): a member
 * so named (`redis.client`, `this.redis.redisClient`, `clients.cacheRedis`, `redis.publisher`)
 * holds a client. A client object itself has no data member that holds another client: ioredis'
 * are `options`, `status`, `condition`, `connector`, and its clients come from methods
 * (`duplicate()`, `nodes()`, `multi()`: https://redis.github.io/ioredis/classes/Redis.html);
 * node-redis' are `options`, `isOpen`, `isReady`
 * (https://github.com/redis/node-redis/blob/master/docs/client-configuration.md), so a
 * member below a client-named one is the application's object unless its name says client.
 */
export const CLIENT_NOUN = /^(?:io)?(?:redis|valkey)$|^(?:client|conn|connection|cluster|instance|pub|sub|publisher|subscriber|primary|replica|master|slave|writer|reader)$/i;

/**
 * Whether a member name names a client by its last word ({@link CLIENT_NOUN}): `redisClient`,
 * `cacheRedis`, `redis_conn` do; `redisMainUsers`, `redisCache`, `redisService` (an application's
 * helper named after the store it uses) do not.
 */
export function namesClientByItself(name: string): boolean {
  const last = wordsOf(name).at(-1);
  return last !== undefined && CLIENT_NOUN.test(last);
}

/** Well-known non-Redis classes with `set` / `get` / `append` methods. */
export const KNOWN_NOT_REDIS = new Set([
  'Map',
  'WeakMap',
  'Set',
  'WeakSet',
  'Headers',
  'URLSearchParams',
  'FormData',
  'URL',
  'Request',
  'Response',
  'Array',
  'Object',
  'Date',
  'Promise',
  'Record',
  'ReadonlyMap',
]);

/**
 * The text of a module that may make a client or pass one on: it names a client package, or it
 * re-exports another module (`export * from './client'`, `export { redis } from './client'`).
 */
export const CLIENT_MODULE_TEXT = /['"](?:ioredis|iovalkey|redis|bun|@redis\/[^'"]*|@upstash\/redis[^'"]*|@valkey\/valkey-glide[^'"]*)['"]|\bexport\s*\*|\bexport\s*\{[^}]*\}\s*from\b/;

/** Expressions whose value is never a client: literals, objects, arrays, functions and classes. */
export const VALUE_EXPRESSIONS: ReadonlySet<AST_NODE_TYPES> = new Set([
  AST_NODE_TYPES.ObjectExpression,
  AST_NODE_TYPES.ArrayExpression,
  AST_NODE_TYPES.Literal,
  AST_NODE_TYPES.TemplateLiteral,
  AST_NODE_TYPES.ArrowFunctionExpression,
  AST_NODE_TYPES.FunctionExpression,
  AST_NODE_TYPES.ClassExpression,
]);

/** Identifiers whose presence means a file may create or receive a Redis client. */
export const EVIDENCE_NAMES: ReadonlySet<string> = new Set([
  ...CLIENT_CONSTRUCTORS,
  ...CLIENT_FACTORIES,
  ...CLIENT_TYPE_NAMES,
  ...BATCH_TYPE_NAMES.keys(),
  'fromEnv',
  'defineScript',
]);

/**
 * The verdict a type's symbol gives, with type information: a client (or batch) when it is
 * declared by a client package and is one of its clients (Bun's `CookieMap`, GLIDE's `Script`
 * are not), else `undefined`.
 */
export function symbolVerdict(symbol: ts.Symbol | undefined): ReceiverKind | undefined {
  for (const declaration of symbol?.getDeclarations() ?? []) {
    const pkg = clientPackageDeclaring(declaration.getSourceFile().fileName.replace(/\\/g, '/'));
    if (!pkg) continue;
    const name = symbol?.getName() ?? '';
    const exported = exportOf(pkg, name);
    if (exported.kind === 'other' || exported.kind === 'value') return undefined;
    const batch = exported.kind === 'batch' ? batchOfExport(exported.batch) : batchOfTypeName(name);
    return clientVerdict(pkg.flavor, `its type ${name} comes from ${pkg.name}`, batch);
  }
  return undefined;
}

/**
 * The verdict on an export of a client package used as a constructor or a type: a client, a
 * batch (GLIDE's `new Batch(false)` is a pipeline: `made` is the `new` expression), or provably no
 * client (Bun's `CookieMap`, GLIDE's `Script`). `name` is the export, `undefined` for the whole
 * module.
 */
export function packageExport(pkg: ClientPackage, name: string | undefined, why: string, made?: TSESTree.Node): ReceiverKind {
  const exported = exportOf(pkg, name);
  if (exported.kind === 'batch') return clientVerdict(pkg.flavor, why, batchOfExport(exported.batch, made));
  return exported.kind === 'client' ? clientVerdict(pkg.flavor, why) : FOREIGN;
}

/**
 * A type exported by a client package: for packages whose every export is a client, a client (or
 * the batch its name says); otherwise what the package table says of the export.
 */
export function packageType(pkg: ClientPackage, name: string | undefined, why: string, byName: 'multi' | 'pipeline' | undefined): ReceiverKind {
  if (hasNamedClients(pkg)) return packageExport(pkg, name, why);
  const exported = name !== undefined && name !== 'default' ? exportOf(pkg, name) : undefined;
  return clientVerdict(pkg.flavor, why, exported?.kind === 'batch' ? batchOfExport(exported.batch) : byName);
}

/**
 * How a batch export runs: GLIDE's `new Batch(isAtomic)` / `new ClusterBatch(isAtomic)` is a
 * pipeline when `isAtomic` is the literal `false`, else (a literal `true`, a value the code
 * decides, a type) MULTI, which reports no pairing a pipeline would.
 */
function batchOfExport(batch: BatchExport, made?: TSESTree.Node): 'multi' | 'pipeline' {
  if (batch !== 'by-argument') return batch;
  const first = made?.type === AST_NODE_TYPES.NewExpression ? made.arguments[0] : undefined;
  return first?.type === AST_NODE_TYPES.Literal && first.value === false ? 'pipeline' : 'multi';
}

/** Whether an import declaration of a client package brings the file a client (see `clientImportsOnly`). */
export function importBringsClient(pkg: ClientPackage, statement: TSESTree.ImportDeclaration): boolean {
  if (!pkg.clientImportsOnly) return true;
  return statement.specifiers.some(
    (specifier) => specifier.type !== AST_NODE_TYPES.ImportSpecifier || exportOf(pkg, bindingImportedName(specifier).imported).kind !== 'other',
  );
}

/**
 * A client value a package exports, reached through an import of it (`import { redis } from
 * 'bun'`, `bun.redis`, the global `Bun.redis`): a client verdict, or `undefined`.
 */
export function packageValue(pkg: ClientPackage | undefined, name: string | undefined): ReceiverKind | undefined {
  if (!pkg || !hasNamedClients(pkg) || name === undefined || exportOf(pkg, name).kind !== 'value') return undefined;
  return clientVerdict(pkg.flavor, `it is the client \`${name}\` of ${pkg.name}`);
}

/** Two possible values: a client if one is, provably not one if neither is, else unknown. */
export function either(a: ReceiverKind, b: ReceiverKind): ReceiverKind {
  if (a.redis) return a;
  if (b.redis) return b;
  return a.proven && b.proven ? NOT_REDIS : UNKNOWN;
}


export function batchOfTypeName(name: string): 'multi' | 'pipeline' | undefined {
  return BATCH_TYPE_NAMES.get(name);
}
