/**
 * `key-must-come-from-keys` (a key not passed in KEYS breaks on a Cluster) is left out when the
 * script's client never talks to a Cluster (`redis-calls/standalone-client.ts`,
 * `redis-calls/cluster-free.ts`), known from the receiver's origin in another module (ESM
 * `export const redis = new Redis(url)`, `export default`, CommonJS `module.exports =` /
 * `exports.redis =`, an accessor `getRedisClient(): RedisClientType | null` it exports, the method
 * of an accessor object or of a factory-made one declared to return the standalone type, a
 * parameter of that type defaulted with `?? (await redisSingleton.getClient())`, a `let` only
 * assigned such clients), or from the project: an application (`"private": true`) that is no
 * workspace member and whose files never mention a cluster. The limits stay reported: a client
 * imported from a module that builds `new Redis.Cluster(...)`, a receiver of unknown origin in a
 * library (its users may hand it a Cluster client), in an application that builds a Cluster client
 * elsewhere (a mixed project: only the receivers traced to the standalone client are left out),
 * and in an application that is a workspace member. Each project is written to a temporary folder
 * and linted with ESLint's Linter.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintEmbeddedLuaFile, writeProject } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Writes `files` (path -> text) into a fresh folder and returns its path. */
function project(files: Record<string, string>): string {
  return writeProject(roots, files);
}

/** [Lua rule id, line, column] of each embedded-lua finding on `file` of the project at `root`. */
const lint = lintEmbeddedLuaFile;

const LIBRARY = JSON.stringify({ name: 'lib', version: '1.0.0', main: 'index.js' });
const APPLICATION = JSON.stringify({ name: 'app', private: true });
const ARGV_KEY = `"redis.call('SET', ARGV[1], 1, 'EX', 60)"`;
/** The finding on ARGV_KEY when it is the first argument of a call starting at `column` - 1 (line `line`). */
const cluster = (line: number, column: number): [string, number, number] => ['key-must-come-from-keys', line, column];

describe('a standalone client built in another module', () => {
  it('ESM: `export const redis = new Redis(url)` imported by name, and `export default`', () => {
    const root = project({
      'package.json': LIBRARY,
      'client.ts': `import Redis from 'ioredis';\nexport const redis = new Redis(process.env.REDIS_URL!);\n`,
      'default.ts': `import { createClient } from 'redis';\nconst client = createClient();\nexport default client;\n`,
    });
    expect(lint(root, 'use.ts', `import { redis } from './client';\nexport const run = () => redis.eval(${ARGV_KEY}, 0, 'k');\n`)).toEqual([]);
    expect(lint(root, 'use2.ts', `import client from './default';\nexport const run = () => client.eval(${ARGV_KEY}, { keys: [], arguments: ['k'] });\n`)).toEqual([]);
  });

  it('CommonJS: `module.exports = new Redis()` and `exports.redis = new Redis()`', () => {
    const root = project({
      'package.json': LIBRARY,
      'client.js': `const Redis = require('ioredis');\nmodule.exports = new Redis();\n`,
      'named.js': `const Redis = require('ioredis');\nexports.redis = new Redis();\n`,
    });
    expect(lint(root, 'use.js', `const redis = require('./client');\nexports.run = () => redis.eval(${ARGV_KEY}, 0, 'k');\n`)).toEqual([]);
    expect(lint(root, 'use2.js', `const { redis } = require('./named');\nexports.run = () => redis.eval(${ARGV_KEY}, 0, 'k');\n`)).toEqual([]);
  });

  it('an accessor another module exports: `getRedisClient(): RedisClientType | null` of a module `let`, in an application that mentions a cluster', () => {
    const root = project({
      'package.json': APPLICATION,
      'redis.ts': `import { createClient, type RedisClientType } from 'redis';\nlet commandClient: RedisClientType | null = null;\nexport async function init(url: string) {\n  commandClient = createClient({ url });\n}\nexport function getRedisClient(): RedisClientType | null {\n  return commandClient;\n}\n`,
      'notes.ts': `// players cluster around the same rating band\nexport const x = 1;\n`,
      'cluster.ts': `import { createCluster, type RedisClusterType } from 'redis';\nlet cluster: RedisClusterType | null = null;\nexport function getCluster() {\n  cluster ??= createCluster({ rootNodes: [] });\n  return cluster;\n}\n`,
    });
    const use = (name: string) => `import { ${name} } from './${name === 'getRedisClient' ? 'redis' : 'cluster'}';\nexport async function run() {\n  const redis = ${name}();\n  await redis!.eval(${ARGV_KEY}, { keys: [], arguments: ['k'] });\n}\n`;
    expect(lint(root, 'use.ts', use('getRedisClient'))).toEqual([]);
    // the accessor of the Cluster client, undeclared: its connection is built with createCluster
    expect(lint(root, 'use2.ts', use('getCluster'))).toEqual([cluster(4, 22)]);
  });

  it('a Cluster client built in another module stays reported', () => {
    const root = project({
      'package.json': APPLICATION,
      'client.ts': `import Redis from 'ioredis';\nexport const redis = new Redis.Cluster([{ host: 'a', port: 6379 }]);\n`,
    });
    expect(lint(root, 'use.ts', `import { redis } from './client';\nexport const run = () => redis.eval(${ARGV_KEY}, 0, 'k');\n`)).toEqual([cluster(2, 38)]);
  });
});

describe('a project that builds no Cluster client', () => {
  // the receiver is a parameter property of a class of the code's own that extends the client
  // (a NestJS RedisService): its origin is not followed, so the project decides
  const callback = `import { RedisService } from './redis.service';\nexport class Store {\n  constructor(private readonly redis: RedisService) {}\n  run() {\n    return this.redis.eval(${ARGV_KEY}, 0, 'k');\n  }\n}\n`;
  const helper = `import Redis from 'ioredis';\nexport class RedisService extends Redis {}\n`;
  const helperPath = 'src/redis.service.ts';

  it('an application whose files never mention a cluster: left out', () => {
    const root = project({ 'package.json': APPLICATION, [helperPath]: helper });
    expect(lint(root, 'src/use.ts', callback)).toEqual([]);
  });

  it('a library: its users may hand it a Cluster client, reported', () => {
    const root = project({ 'package.json': LIBRARY, [helperPath]: helper });
    expect(lint(root, 'src/use.ts', callback)).toEqual([cluster(5, 29)]);
  });

  it('a mixed application: the receiver that may be the Cluster client is reported, the standalone one is not', () => {
    const root = project({
      'package.json': APPLICATION,
      [helperPath]: helper,
      'src/cluster.ts': `import { Cluster } from 'ioredis';\nexport const cache = new Cluster([{ host: 'a', port: 6379 }]);\n`,
      'src/client.ts': `import Redis from 'ioredis';\nexport const redis = new Redis();\n`,
    });
    expect(lint(root, 'src/use.ts', callback)).toEqual([cluster(5, 29)]);
    expect(lint(root, 'src/use2.ts', `import { redis } from './client';\nexport const run = () => redis.eval(${ARGV_KEY}, 0, 'k');\n`)).toEqual([]);
    expect(lint(root, 'src/use3.ts', `import { cache } from './cluster';\nexport const run = () => cache.eval(${ARGV_KEY}, 0, 'k');\n`)).toEqual([cluster(2, 38)]);
  });

  it('an application that is a workspace member: a sibling package may build the Cluster client, reported', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'repo', private: true, workspaces: ['apps/*', 'packages/*'] }),
      'apps/web/package.json': APPLICATION,
      ['apps/web/' + helperPath]: helper,
      'packages/redis/package.json': LIBRARY,
      'packages/redis/index.ts': `import { Cluster } from 'ioredis';\nexport const make = () => new Cluster([]);\n`,
    });
    expect(lint(root, 'apps/web/src/use.ts', callback)).toEqual([cluster(5, 29)]);
  });

  it('the script TTL findings are the same on a cluster-free application', () => {
    const root = project({ 'package.json': APPLICATION, [helperPath]: helper });
    const code = callback.replace(ARGV_KEY, `"redis.call('SET', KEYS[1], 1)"`);
    expect(lint(root, 'src/use.ts', code)).toEqual([['write-path-needs-ttl', 5, 29]]);
  });
});

describe('an accessor object of the code own, and a client defaulted with ??', () => {
  // a library (its users could hand it a Cluster client): only the receiver's origin decides
  const singleton = `import Redis from 'ioredis';\nconst createSingleton = (options?: { host: string }) => {\n  let client: Redis | null = null;\n  return {\n    getClient: async (): Promise<Redis> => {\n      client ??= new Redis(options ?? {});\n      return client;\n    },\n  };\n};\nexport const redisSingleton = createSingleton();\nexport const queueRedis = {\n  getClient: async (): Promise<Redis> => new Redis(),\n};\n`;

  it('`redisClient ?? (await redisSingleton.getClient())`: a parameter of the standalone type, or the method of a factory-made object declared to return one', () => {
    const root = project({ 'package.json': LIBRARY, 'singleton.ts': singleton });
    const code = `import type Redis from 'ioredis';\nimport { redisSingleton } from './singleton';\nexport async function run(redisClient?: Redis) {\n  const redis = redisClient ?? (await redisSingleton.getClient());\n  await redis.eval(${ARGV_KEY}, 0, 'k');\n}\n`;
    expect(lint(root, 'use.ts', code)).toEqual([]);
  });

  it('a `let` of an opaque declared type every assignment of which is such a client', () => {
    const root = project({ 'package.json': LIBRARY, 'singleton.ts': singleton });
    const code = `import { queueRedis } from './singleton';\nexport async function run() {\n  let redis: Awaited<ReturnType<typeof queueRedis.getClient>>;\n  try {\n    redis = await queueRedis.getClient();\n  } catch (e) {\n    throw e;\n  }\n  await redis.eval(${ARGV_KEY}, 0, 'k');\n}\n`;
    expect(lint(root, 'use.ts', code)).toEqual([]);
  });

  it('stays reported: an operand of unknown origin, a method that may hand back a Cluster client, a `let` one assignment of which may be one', () => {
    const root = project({
      'package.json': LIBRARY,
      'singleton.ts': singleton,
      'mixed.ts': `import Redis, { Cluster } from 'ioredis';\nexport const holder = {\n  getClient: async () => (process.env.CLUSTER ? new Cluster([]) : new Redis()),\n};\n`,
    });
    // a parameter of no declared type on the left of ??
    const untyped = `import { redisSingleton } from './singleton';\nexport async function run(redisClient) {\n  const redis = redisClient ?? (await redisSingleton.getClient());\n  await redis.eval(${ARGV_KEY}, 0, 'k');\n}\n`;
    expect(lint(root, 'use.ts', untyped)).toEqual([cluster(4, 21)]);
    // an accessor whose result may be built as a Cluster client
    const mixed = `import { holder } from './mixed';\nexport async function run() {\n  const redis = await holder.getClient();\n  await redis.eval(${ARGV_KEY}, 0, 'k');\n}\n`;
    expect(lint(root, 'use2.ts', mixed)).toEqual([cluster(4, 21)]);
    // a \`let\` one assignment of which may be a Cluster client
    const reassigned = `import Redis, { Cluster } from 'ioredis';\nimport { queueRedis } from './singleton';\nexport async function run() {\n  let redis: Awaited<ReturnType<typeof queueRedis.getClient>> | Cluster = await queueRedis.getClient();\n  if (process.env.CLUSTER) redis = new Cluster([]);\n  await redis.eval(${ARGV_KEY}, 0, 'k');\n}\n`;
    expect(lint(root, 'use4.ts', reassigned)).toEqual([cluster(6, 21)]);
  });
});
