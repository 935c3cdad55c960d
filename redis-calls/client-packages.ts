/**
 * The Redis client packages the plugin knows, and what each exports: which names are clients
 * (constructors, client classes and types), which are batches (MULTI or pipeline objects), which
 * are ready-made client values (Bun's `redis`), and where their declarations live (for type
 * information). Client detection (`redis-calls/clients.ts`) asks this table; nothing else names a
 * package.
 *
 * - ioredis and iovalkey (the Valkey project's fork of ioredis, same API): every export is a
 *   client (`Redis`, `Cluster`, the default export); `ioredis` flavor.
 * - node-redis (`redis`, `@redis/*`) and `@upstash/redis`: every export is a client.
 * - `@vercel/kv` (@upstash/redis' flavor): `VercelKV` (a subclass of @upstash/redis' `Redis`) and
 *   `createClient`, and the client values `kv` and the default export.
 * - Bun (`bun`, types in `bun-types`): only `RedisClient` and the default client value `redis`;
 *   every other export of `bun` (`CookieMap`, `Glob`, `file`, ...) is no client.
 * - Valkey GLIDE (`@valkey/valkey-glide`): `GlideClient`, `GlideClusterClient` (made by their
 *   static `createClient`), `Batch` / `ClusterBatch` (`new Batch(true)`: MULTI, `new
 *   Batch(false)`: a pipeline) and the older `Transaction` / `ClusterTransaction` (MULTI); its
 *   other exports (`Script`, `TimeUnit`, option types) are no clients.
 *
 * Framework packages that hand out those clients from a registry of named clients (Nest's Redis
 * modules: `RedisService#getClient(name?)`) are listed apart ({@link registryClient}): they are
 * no client packages, their registry's methods return one.
 */

/**
 * Which client library's syntax a call follows. `node-redis-3` is a call's flavor only (receivers
 * are `node-redis`): node-redis 3 sends positional arguments as they are, ioredis-style
 * (`redis-calls/client-version.ts` tells the version).
 */
export type ClientFlavor = 'ioredis' | 'node-redis' | 'node-redis-3' | 'upstash' | 'bun' | 'glide' | 'unknown';

/**
 * How a batch export runs its commands: `multi` (MULTI/EXEC), `pipeline`, or `by-argument` (GLIDE
 * `new Batch(isAtomic)`: MULTI unless the first argument is `false`).
 */
export type BatchExport = 'multi' | 'pipeline' | 'by-argument';

interface ClientPackage {
  /** The package name, for messages. */
  name: string;
  flavor: ClientFlavor;
  /** Whether a module specifier names this package (or one of its subpaths). */
  matches(source: string): boolean;
  /** Named exports that are clients; absent: every export is. */
  clients?: ReadonlySet<string>;
  /** Named exports that are batches (classes and types), by how they run. */
  batches?: ReadonlyMap<string, BatchExport>;
  /** Named exports that are client values (not classes): Bun's `redis`, @vercel/kv's `kv` and `default`. */
  values?: ReadonlySet<string>;
  /** Where the package's declarations are, for type information. */
  declarations: RegExp;
  /**
   * Whether only an import of a client or client value makes a file one that uses this package's
   * client (Bun: `import { serve } from 'bun'` says nothing of Redis); otherwise any import does.
   */
  clientImportsOnly?: true;
}

const PACKAGES: readonly ClientPackage[] = [
  {
    name: 'ioredis',
    flavor: 'ioredis',
    matches: (s) => s === 'ioredis' || s.startsWith('ioredis/'),
    batches: new Map([
      ['ChainableCommander', 'multi'],
      ['Pipeline', 'pipeline'],
    ]),
    declarations: /\/node_modules\/(?:@types\/)?ioredis\//,
  },
  {
    name: 'iovalkey',
    flavor: 'ioredis',
    matches: (s) => s === 'iovalkey' || s.startsWith('iovalkey/'),
    batches: new Map([
      ['ChainableCommander', 'multi'],
      ['Pipeline', 'pipeline'],
    ]),
    declarations: /\/node_modules\/iovalkey\//,
  },
  {
    name: 'redis (node-redis)',
    flavor: 'node-redis',
    matches: (s) => s === 'redis' || s.startsWith('@redis/'),
    batches: new Map([
      ['RedisClientMultiCommandType', 'multi'],
      ['RedisClusterMultiCommandType', 'multi'],
    ]),
    declarations: /\/node_modules\/(?:@redis\/client|redis|@types\/redis)\//,
  },
  {
    name: '@upstash/redis',
    flavor: 'upstash',
    matches: (s) => s.startsWith('@upstash/redis'),
    declarations: /\/node_modules\/@upstash\/redis\//,
  },
  {
    // Vercel KV's client: `VercelKV` extends @upstash/redis' `Redis`; `kv` and the default export
    // are instances, `createClient(config)` makes one (https://www.npmjs.com/package/@vercel/kv)
    name: '@vercel/kv',
    flavor: 'upstash',
    matches: (s) => s === '@vercel/kv',
    clients: new Set(['VercelKV', 'createClient']),
    values: new Set(['kv', 'default']),
    declarations: /\/node_modules\/@vercel\/kv\//,
  },
  {
    name: 'bun',
    flavor: 'bun',
    matches: (s) => s === 'bun',
    clients: new Set(['RedisClient']),
    values: new Set(['redis']),
    declarations: /\/node_modules\/(?:bun-types|@types\/bun)\//,
    clientImportsOnly: true,
  },
  {
    name: '@valkey/valkey-glide',
    flavor: 'glide',
    matches: (s) => s === '@valkey/valkey-glide' || s.startsWith('@valkey/valkey-glide/'),
    clients: new Set(['GlideClient', 'GlideClusterClient', 'BaseClient']),
    batches: new Map([
      ['Batch', 'by-argument'],
      ['ClusterBatch', 'by-argument'],
      ['BaseBatch', 'by-argument'],
      ['Transaction', 'multi'],
      ['ClusterTransaction', 'multi'],
    ]),
    declarations: /\/node_modules\/@valkey\/valkey-glide\//,
  },
];

/**
 * A framework package that hands out clients of a client package from a registry of named
 * clients: a class its module exports (a Nest provider the code has injected) whose methods return
 * the client registered under a name (`this.redisService.getClient('log')`), the default one when
 * no name is given. The result is that client package's client, whatever the registry object is
 * called; the registry itself is no client (its `get` of another package is no GET).
 */
interface ClientRegistryPackage {
  /** The package name, for messages. */
  name: string;
  /** Whether a module specifier names this package (or one of its subpaths). */
  matches(source: string): boolean;
  /** The client package whose client the methods return. */
  client: string;
  /** Registry exports (classes) and the methods of each that return a client. */
  registries: ReadonlyMap<string, ReadonlySet<string>>;
  /** Decorator exports that inject a client into a parameter or property (`@InjectRedis(name?)`). */
  injectors: ReadonlySet<string>;
}

/** `getClient(namespace?)` (v9 and before, and the forks), `getOrThrow(namespace?)` / `getOrNil(namespace?)` (v10 on). */
const NEST_REDIS_GETTERS: ReadonlySet<string> = new Set(['getClient', 'getOrThrow', 'getOrNil']);

const REGISTRIES: readonly ClientRegistryPackage[] = [
  {
    // nestjs-redis 1.x (skunight): `RedisService#getClient(name?): Redis` (dist/redis.service.d.ts)
    name: 'nestjs-redis',
    matches: (s) => s === 'nestjs-redis',
    client: 'ioredis',
    registries: new Map([['RedisService', new Set(['getClient'])]]),
    injectors: new Set(),
  },
  {
    // @liaoliaots/nestjs-redis 8-9: `RedisManager` (exported also as `RedisService`) and
    // `ClusterManager` / `ClusterService`, `getClient(namespace?)`; 10: `RedisService` /
    // `ClusterService`, `getOrThrow(namespace?)` and `getOrNil(namespace?)` (a client or `null`);
    // @songkeys/nestjs-redis is a fork of 9, @nestjs-labs/nestjs-ioredis one of 10, same API
    name: '@liaoliaots/nestjs-redis',
    matches: (s) => s === '@liaoliaots/nestjs-redis' || s === '@songkeys/nestjs-redis' || s === '@nestjs-labs/nestjs-ioredis',
    client: 'ioredis',
    registries: new Map(['RedisService', 'RedisManager', 'ClusterService', 'ClusterManager'].map((name) => [name, NEST_REDIS_GETTERS])),
    // 8-9 and @songkeys: `InjectRedis(namespace?)` / `InjectCluster(namespace?)` (ParameterDecorator)
    injectors: new Set(['InjectRedis', 'InjectCluster']),
  },
  {
    // @nestjs-modules/ioredis 2: `InjectRedis(connection?)` (PropertyDecorator & ParameterDecorator)
    // injects the ioredis `Redis` (or `Cluster`) of that connection; no registry class
    name: '@nestjs-modules/ioredis',
    matches: (s) => s === '@nestjs-modules/ioredis',
    client: 'ioredis',
    registries: new Map(),
    injectors: new Set(['InjectRedis']),
  },
];

/**
 * egg-redis (https://github.com/eggjs/egg-redis): the application's `redis` member is the ioredis
 * client configured as `redis: { client: {...} }`; configured as `redis: { clients: { foo: {...},
 * bar: {...} } }` it is egg's registry of named clients, whose `get(id)` returns the client `id`
 * (`app.redis.get('foo').set(k, v)`). Which one an application has is read from its
 * configuration modules (`config/config.*.js`).
 */
export const EGG_REDIS = { member: 'redis', config: 'redis', clients: 'clients', method: 'get', client: 'ioredis' } as const;

/**
 * A framework plugin that hands out one client package's client as a member of the application
 * object, with no import of the client in the application's code: a package that declares
 * `dependency` in its `package.json` gets that package's client (`client`) in `<owner>.<member>`.
 * Which client family a call follows is this table's fact, not the receiver's name nor the call
 * syntax other code happens to use.
 */
export interface ApplicationMemberClient {
  /** The plugin's package names (and the names it was published under), as `package.json` lists them. */
  dependencies: readonly string[];
  /** The objects the plugin sets the member on, by the names applications give them (`app`, `this.app`, `ctx.app`). */
  owners: readonly string[];
  /** The member of the owner that holds the client (`redis` of `app.redis`). */
  member: string;
  /** The client package whose client the member is. */
  client: string;
}

/** The framework plugins whose application member is a client (`redis-calls/application-members.ts` reads them). */
export const APPLICATION_MEMBER_CLIENTS: readonly ApplicationMemberClient[] = [
  {
    // egg-redis 2.x (`app.addSingleton('redis', ...)` making `new (config.Redis || require('ioredis'))(...)`;
    // depends on ioredis 4) and 3.x, published for Egg 4 as @eggjs/redis (ioredis 5):
    // https://github.com/eggjs/redis, lib/redis.js
    dependencies: ['egg-redis', '@eggjs/redis'],
    owners: ['app', 'agent'],
    member: EGG_REDIS.member,
    client: EGG_REDIS.client,
  },
];

/**
 * The client package whose client `method` of the registry export `name` of the package `source`
 * returns ({@link ClientRegistryPackage}), with the registry package's name; `undefined` when
 * that export is no registry or the method hands out no client.
 */
export function registryClient(source: string, name: string, method: string): { registry: string; client: ClientPackage } | undefined {
  const registry = REGISTRIES.find((r) => r.matches(source));
  if (!registry?.registries.get(name)?.has(method)) return undefined;
  const client = clientPackageOf(registry.client);
  return client ? { registry: registry.name, client } : undefined;
}

/** The client package whose client the decorator export `name` of the package `source` injects, with the registry package's name. */
export function injectedClient(source: string, name: string): { registry: string; client: ClientPackage } | undefined {
  const registry = REGISTRIES.find((r) => r.matches(source));
  if (!registry?.injectors.has(name)) return undefined;
  const client = clientPackageOf(registry.client);
  return client ? { registry: registry.name, client } : undefined;
}

/** Whether a module specifier names a registry package (its import is evidence that a file may use a client). */
export function isRegistryPackage(source: string): boolean {
  return REGISTRIES.some((r) => r.matches(source));
}

/** Whether `source` is a registry package and `name` one of its registry exports. */
export function isRegistryExport(source: string, name: string): boolean {
  return REGISTRIES.some((r) => r.matches(source) && r.registries.has(name));
}

/** The client package a module specifier names, else `undefined`. */
export function clientPackageOf(source: string): ClientPackage | undefined {
  return PACKAGES.find((p) => p.matches(source));
}

/** The client package whose declarations a (forward-slashed) file name is in, else `undefined`. */
export function clientPackageDeclaring(fileName: string): ClientPackage | undefined {
  return PACKAGES.find((p) => p.declarations.test(fileName));
}

/** The flavor of a module specifier that names a Redis client package, else `undefined`. */
export function flavorOfModule(source: string): ClientFlavor | undefined {
  return clientPackageOf(source)?.flavor;
}

/**
 * What an export of a client package is: `client` (a client class, type or factory owner),
 * `batch` (with how it runs), `value` (a client object: Bun's `redis`) or `other` (the package's
 * other exports, no clients). `name` is the export's name; `undefined` stands for the module as a
 * whole (a default, namespace or CommonJS import), which is a client for packages whose every
 * export is one (ioredis' default export is its client class).
 */
export function exportOf(pkg: ClientPackage, name: string | undefined): { kind: 'client' | 'value' | 'other' } | { kind: 'batch'; batch: BatchExport } {
  if (name !== undefined) {
    const batch = name === 'default' ? undefined : pkg.batches?.get(name);
    if (batch) return { kind: 'batch', batch };
    // a package whose default export is a client value lists `default` (@vercel/kv)
    if (pkg.values?.has(name)) return { kind: 'value' };
  }
  if (!pkg.clients) return { kind: 'client' };
  return name !== undefined && pkg.clients.has(name) ? { kind: 'client' } : { kind: 'other' };
}

/**
 * Whether a package's export is a whole-module binding that stands for a namespace of exports
 * (`import * as glide from '@valkey/valkey-glide'`, `import Bun from 'bun'`): its members are
 * judged as named exports. Packages whose every export is a client (ioredis: `Redis.Cluster`) have
 * no such namespaces.
 */
export function hasNamedClients(pkg: ClientPackage): boolean {
  return pkg.clients !== undefined;
}

/** The package name of a flavor, for messages. */
export function packageOfFlavor(flavor: ClientFlavor): string {
  return PACKAGES.find((p) => p.flavor === flavor)?.name ?? flavor;
}

export type { ClientPackage };
