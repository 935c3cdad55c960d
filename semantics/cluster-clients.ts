/**
 * Which clients can talk to a Redis Cluster. A Cluster client must follow the slot map and the
 * MOVED / ASK redirections
 * (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#moved-redirection),
 * and only the cluster clients of each library do:
 *
 * - ioredis: `new Redis.Cluster(nodes)` / `new Cluster(nodes)`
 *   (https://github.com/redis/ioredis#cluster); `new Redis(url)` talks to one server (or to the
 *   master a Sentinel names), never to a Cluster;
 * - iovalkey (ioredis's fork): `new Valkey.Cluster(...)` / `new Cluster(...)`;
 * - node-redis: `createCluster({ rootNodes })` (https://redis.io/docs/latest/develop/clients/nodejs/connect/#connect-to-a-redis-cluster);
 *   `createClient()` talks to one server;
 * - Valkey GLIDE: `GlideClusterClient.createClient(...)`; `GlideClient` is the standalone client.
 *
 * `@upstash/redis` is left out on purpose: Upstash documents that the KEYS of EVAL are used "for
 * routing and access checks" and that a script with `allow-key-locking` may touch only its KEYS
 * (https://upstash.com/docs/redis/commands/scripting/eval), so the KEYS rule still says something
 * there. Bun's `RedisClient` has no Cluster mode, but nothing here depends on it.
 */

/** Client packages whose standalone client is built with `new` (`new Redis(url)`). */
export const STANDALONE_CONSTRUCTOR_PACKAGES: ReadonlySet<string> = new Set(['ioredis', 'iovalkey']);
/** Exports of those packages that build (with `new`) or type a client of one server. */
export const STANDALONE_CONSTRUCTORS: ReadonlySet<string> = new Set(['Redis', 'default', 'Valkey']);
/** node-redis packages whose `createClient` builds a client of one server (`createCluster` a Cluster one). */
export const STANDALONE_FACTORY_PACKAGES: ReadonlySet<string> = new Set(['redis', '@redis/client']);
/** Type names node-redis and GLIDE give a client of one server (`client: RedisClientType`). */
export const STANDALONE_TYPE_NAMES: ReadonlySet<string> = new Set(['RedisClientType', 'GlideClient']);
/** Packages those standalone type names are read from. */
export const STANDALONE_TYPE_PACKAGES: ReadonlySet<string> = new Set(['redis', '@redis/client', '@valkey/valkey-glide']);

/**
 * Words that build or name a Cluster client in the libraries above (`new Redis.Cluster`,
 * `createCluster`, `GlideClusterClient`, node-redis `RedisClusterType`), or configure one through a
 * framework wrapper (`@nestjs-modules/ioredis` / `nestjs-redis` `type: 'cluster'`, `{ cluster: true }`,
 * `clusterNodes`, `REDIS_CLUSTER_NODES`). A source text holding none of them (in any letter case,
 * anywhere in a word: `createCluster` and `GlideClusterClient` name the Cluster inside a longer
 * word) builds no Cluster client.
 */
export const CLUSTER_CLIENT_TEXT = /cluster/i;
/**
 * The client packages that route a script by its KEYS though no Cluster client is built (Upstash,
 * and `@vercel/kv`, which wraps it: see above). A source text naming one keeps the KEYS remark
 * like a cluster's mention does.
 */
export const KEYS_ROUTED_CLIENT_TEXT = /@upstash\/redis|@vercel\/kv/;
