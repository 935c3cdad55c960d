/**
 * What the client detector (`redis-calls/clients.ts`) knows of Redis client libraries: their
 * packages and flavors, the constructors, factories and type names that make or name a client,
 * the classes that are provably no client, and the verdict ({@link ReceiverKind}) a receiver gets.
 */
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

/** Which client library's syntax a call follows. */
export type ClientFlavor = 'ioredis' | 'node-redis' | 'upstash' | 'unknown';

/**
 * The verdict on one receiver. A client verdict says `why` the receiver was taken for a client, as
 * the end of a sentence ("its type comes from ioredis", "it is made by `new Redis()`", "its name
 * matches clientNames 'redis'"), and `byName` when that rests on a name alone (a `clientNames`
 * match, a constructor, factory or type named like a client's with no import of a client package
 * behind it): then a message on a false alarm tells the user what to change.
 */
export type ReceiverKind =
  /** a client (or cluster) object: commands run one by one */
  | { redis: true; flavor: ClientFlavor; batch?: undefined; why: string; byName?: true }
  /** a `multi()` / `pipeline()` object: commands are queued until `exec()` */
  | { redis: true; flavor: ClientFlavor; batch: 'multi' | 'pipeline'; why: string; byName?: true }
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

/** The same verdict with another explanation (a client stays a client of the same flavor and batch). */
export function relabel(verdict: ReceiverKind, why: (inner: string) => string): ReceiverKind {
  return verdict.redis ? { ...verdict, why: why(verdict.why) } : verdict;
}

/** Whether a verdict is settled without the checker: a client or a non-client proven by the code itself. */
export function settled(verdict: ReceiverKind): boolean {
  return verdict.redis ? verdict.byName !== true : verdict.proven && verdict.foreign !== true;
}

/** Packages whose declarations make a type a Redis client, by flavor. */
export const PACKAGE_PATTERNS: ReadonlyArray<[RegExp, ClientFlavor]> = [
  [/\/node_modules\/(?:@types\/)?ioredis\//, 'ioredis'],
  [/\/node_modules\/(?:@redis\/client|redis|@types\/redis)\//, 'node-redis'],
  [/\/node_modules\/@upstash\/redis\//, 'upstash'],
];

/** The flavor of a module specifier that names a Redis client package, else `undefined`. */
export function flavorOfModule(source: string): ClientFlavor | undefined {
  if (source === 'ioredis' || source.startsWith('ioredis/')) return 'ioredis';
  if (source === 'redis' || source.startsWith('@redis/')) return 'node-redis';
  if (source.startsWith('@upstash/redis')) return 'upstash';
  return undefined;
}

/** Constructors / factories of clients, recognised by name when nothing better is known. */
export const CLIENT_CONSTRUCTORS = new Set(['Redis', 'IORedis', 'Cluster', 'Valkey']);
export const CLIENT_FACTORIES = new Set(['createClient', 'createCluster', 'createSentinel']);
/** Methods of a client that return the client itself (or a copy of it). */
export const SELF_RETURNING = new Set(['on', 'once', 'off', 'connect', 'duplicate', 'withTypeMapping', 'withCommandOptions', 'legacy']);
/** Type names that denote a client when the annotation does not say where they come from. */
export const CLIENT_TYPE_NAMES = new Set([
  'Redis',
  'IORedis',
  'Cluster',
  'RedisClientType',
  'RedisClusterType',
  'RedisClient',
  'RedisCluster',
]);
export const BATCH_TYPE_NAMES: ReadonlyMap<string, 'multi' | 'pipeline'> = new Map([
  ['ChainableCommander', 'multi'],
  ['Pipeline', 'pipeline'],
  ['RedisClientMultiCommandType', 'multi'],
  ['RedisClusterMultiCommandType', 'multi'],
]);
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
export const CLIENT_MODULE_TEXT = /['"](?:ioredis|redis|@redis\/[^'"]*|@upstash\/redis[^'"]*)['"]|\bexport\s*\*|\bexport\s*\{[^}]*\}\s*from\b/;

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

export function symbolVerdict(symbol: ts.Symbol | undefined): ReceiverKind | undefined {
  for (const declaration of symbol?.getDeclarations() ?? []) {
    const fileName = declaration.getSourceFile().fileName.replace(/\\/g, '/');
    for (const [pattern, flavor] of PACKAGE_PATTERNS) {
      if (pattern.test(fileName)) {
        const batch = batchOfTypeName(symbol?.getName() ?? '');
        const why = `its type ${symbol?.getName() ?? ''} comes from ${packageOfFlavor(flavor)}`;
        return batch ? { redis: true, flavor, batch, why } : { redis: true, flavor, why };
      }
    }
  }
  return undefined;
}

/** Two possible values: a client if one is, provably not one if neither is, else unknown. */
export function either(a: ReceiverKind, b: ReceiverKind): ReceiverKind {
  if (a.redis) return a;
  if (b.redis) return b;
  return a.proven && b.proven ? NOT_REDIS : UNKNOWN;
}

/** The package name of a flavor, for messages. */
export function packageOfFlavor(flavor: ClientFlavor): string {
  if (flavor === 'node-redis') return 'redis (node-redis)';
  if (flavor === 'upstash') return '@upstash/redis';
  return flavor;
}

export function batchOfTypeName(name: string): 'multi' | 'pipeline' | undefined {
  return BATCH_TYPE_NAMES.get(name);
}
