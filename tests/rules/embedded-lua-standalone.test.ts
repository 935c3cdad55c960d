/**
 * `key-must-come-from-keys` (a key not passed in KEYS breaks on a Cluster) is not reported for a
 * script sent through a client the file builds for one server, which never talks to a Cluster
 * (`redis-calls/standalone-client.ts`): ioredis / iovalkey `new Redis(url)`, node-redis
 * `createClient()`, or a parameter / parameter property / class property declared with the
 * standalone client's type (ioredis `Redis`, node-redis `RedisClientType`), or a client handed back
 * by an accessor of the code's own whose declared result is that type or whose every returned value
 * is built as one (`let client = null; ... client = new Redis(url); return client`). Near misses stay
 * reported: a Cluster client (`new Redis.Cluster`, `createCluster`, a `Redis | Cluster` or
 * `RedisClusterType` parameter, an accessor declared to return `RedisClusterType` or whose
 * connection may be built as a Cluster client, one that hands back what it was given), a parameter of no declared type or of a type of the code's own
 * (nothing says which server), a `new Redis` of a name not imported from a client package; and
 * the script's TTL findings are unchanged.
 */
import rule from '../../rules/embedded-lua.js';
import { runRule, untypedTester } from './tester.js';

const argvKey = `"redis.call('SET', ARGV[1], 1, 'EX', 60)"`;
const fromArgv = (line: number, column: number) => ({
  messageId: 'luaFinding' as const,
  line,
  column,
  data: {
    ruleId: 'key-must-come-from-keys',
    message:
      'The key of SET (ARGV[1]) is taken from ARGV, not from KEYS: Redis Cluster routes a script by its KEYS, so this key may be on another node (CROSSSLOT). Pass it in KEYS, with a {hash tag} shared with the other keys.',
  },
});

runRule(untypedTester, 'embedded-lua (Cluster routing on a standalone client)', rule, {
  valid: [
    `import Redis from 'ioredis';\nexport async function up(url: string) {\n  const redis = new Redis(url, { connectionName: 'm' });\n  await redis.eval(${argvKey}, 0, 'presence:1');\n}`,
    `import { Redis } from 'ioredis';\nconst redis = new Redis();\nawait redis.eval(${argvKey}, 0, 'k');`,
    `import Valkey from 'iovalkey';\nconst valkey = new Valkey();\nvalkey.defineCommand('touch', { numberOfKeys: 0, lua: ${argvKey} });`,
    `import { createClient } from 'redis';\nconst client = createClient({ url: 'redis://x' });\nawait client.eval(${argvKey}, { keys: [], arguments: ['k'] });`,
    // a parameter declared with the standalone client's type: a Cluster client is not one
    `import type Redis from 'ioredis';\nexport async function run(redis: Redis) {\n  await redis.eval(${argvKey}, 0, 'k');\n}`,
    `import type * as IORedis from 'ioredis';\nexport async function run(redis: IORedis.Redis | null = null) {\n  await redis!.eval(${argvKey}, 0, 'k');\n}`,
    `import type { RedisClientType } from 'redis';\nexport async function run(client: RedisClientType) {\n  await client.eval(${argvKey}, { keys: [], arguments: ['k'] });\n}`,
    // a constructor parameter property of the standalone type, used as the parameter and as this.redis
    `import { Redis } from 'ioredis';\nexport class Tasks {\n  constructor(private readonly redis: Redis) {\n    redis.defineCommand('touch', { numberOfKeys: 0, lua: ${argvKey} });\n  }\n  run() {\n    return this.redis.eval("redis.call('DEL', ARGV[1])", 0, 'k');\n  }\n}`,
    // a class property declared or built as a standalone client
    `import Redis from 'ioredis';\nexport class Store {\n  private redis: Redis;\n  constructor(url: string) { this.redis = new Redis(url); }\n  run = async () => this.redis.eval(${argvKey}, 0, 'k');\n}`,
    `import Redis from 'ioredis';\nexport class Store {\n  private redis = new Redis();\n  run() {\n    return this.redis.eval(${argvKey}, 0, 'k');\n  }\n}`,
    // a client handed back by an accessor of the code's own: its declared result is the standalone type
    `import { createClient, type RedisClientType } from 'redis';\nlet client: RedisClientType | null = null;\nexport function getClient(): RedisClientType | null {\n  return client;\n}\nexport async function run() {\n  const redis = getClient();\n  if (!redis) return;\n  await redis.eval(${argvKey}, { keys: [], arguments: ['k'] });\n}`,
    `import Redis from 'ioredis';\nconst getClient = async (): Promise<Redis> => new Redis();\nexport async function run() {\n  const redis = await getClient();\n  await redis.eval(${argvKey}, 0, 'k');\n}`,
    // undeclared: every value it returns is the module's connection, built only as a standalone client
    `const Redis = require('ioredis');\nlet client = null;\nfunction getClient() {\n  if (!client) client = new Redis(process.env.REDIS_URL);\n  return client;\n}\nexports.run = async () => {\n  const redis = getClient();\n  await redis.eval(${argvKey}, 0, 'k');\n};`,
  ],
  invalid: [
    {
      // a Cluster client
      code: `import Redis from 'ioredis';\nconst redis = new Redis.Cluster([{ host: 'a', port: 6379 }]);\nawait redis.eval(${argvKey}, 0, 'k');`,
      errors: [fromArgv(3, 19)],
    },
    {
      code: `import { createCluster } from 'redis';\nconst client = createCluster({ rootNodes: [] });\nawait client.eval(${argvKey}, { keys: [], arguments: ['k'] });`,
      errors: [fromArgv(3, 20)],
    },
    {
      // a client received as a parameter of no declared type: nothing says which server it talks to
      code: `export async function run(redis) {\n  await redis.eval(${argvKey}, 0, 'k');\n}`,
      errors: [fromArgv(2, 21)],
    },
    {
      // a parameter that may be a Cluster client (one member of the union is)
      code: `import type { Redis, Cluster } from 'ioredis';\nexport async function run(redis: Redis | Cluster) {\n  await redis.eval(${argvKey}, 0, 'k');\n}`,
      errors: [fromArgv(3, 21)],
    },
    {
      code: `import Redis from 'ioredis';\nexport async function run(redis: Redis.Cluster) {\n  await redis.eval(${argvKey}, 0, 'k');\n}`,
      errors: [fromArgv(3, 21)],
    },
    {
      code: `import type { RedisClusterType } from 'redis';\nexport async function run(client: RedisClusterType) {\n  await client.eval(${argvKey}, { keys: [], arguments: ['k'] });\n}`,
      errors: [fromArgv(3, 22)],
    },
    {
      // a parameter property typed with an alias of the code's own that admits a Cluster client
      code: `import type { Redis, Cluster } from 'ioredis';\ntype Client = Redis | Cluster;\nexport class Store {\n  constructor(private readonly redis: Client) {}\n  run() {\n    return this.redis.eval(${argvKey}, 0, 'k');\n  }\n}`,
      errors: [fromArgv(6, 29)],
    },
    {
      // a class property built as a Cluster client
      code: `import { Cluster } from 'ioredis';\nexport class Store {\n  private redis = new Cluster([]);\n  run() {\n    return this.redis.eval(${argvKey}, 0, 'k');\n  }\n}`,
      errors: [fromArgv(5, 29)],
    },
    {
      // an accessor whose declared result is the Cluster client
      code: `import { createCluster, type RedisClusterType } from 'redis';\nlet cluster: RedisClusterType | null = null;\nexport function getClient(): RedisClusterType | null {\n  return cluster;\n}\nexport async function run() {\n  const redis = getClient()!;\n  await redis.eval(${argvKey}, { keys: [], arguments: ['k'] });\n}`,
      errors: [fromArgv(8, 21)],
    },
    {
      // undeclared, and the connection it hands back may be built as a Cluster client
      code: `const Redis = require('ioredis');\nlet client = null;\nfunction getClient() {\n  if (!client) client = process.env.CLUSTER ? new Redis.Cluster([]) : new Redis();\n  return client;\n}\nexports.run = async () => {\n  const redis = getClient();\n  await redis.eval(${argvKey}, 0, 'k');\n};`,
      errors: [fromArgv(9, 21)],
    },
    {
      // an accessor that hands back what it was given: nothing says which server
      code: `let shared;\nexport function setClient(c) { shared = c; }\nfunction getClient() {\n  return shared;\n}\nexport async function run() {\n  const redis = getClient();\n  await redis.eval(${argvKey}, 0, 'k');\n}`,
      errors: [fromArgv(8, 21)],
    },
    {
      // a Redis class of the code's own, not the client package's
      code: `import { Redis } from './my-redis';\nconst redis = new Redis();\nawait redis.eval(${argvKey}, 0, 'k');`,
      errors: [fromArgv(3, 19)],
    },
    {
      // the script's TTL leaks are still reported on a standalone client
      code: `import Redis from 'ioredis';\nconst redis = new Redis();\nawait redis.eval("redis.call('SET', KEYS[1], 1)", 1, k);`,
      errors: [
        {
          messageId: 'luaFinding',
          line: 3,
          column: 19,
          data: {
            ruleId: 'write-path-needs-ttl',
            message:
              "SET on KEYS[1] creates it without a TTL or removes its TTL, and the script's end (line 3, column 47) leaves it so: the key never expires. Set the expiry in the same command: SET key value PX <ms>.",
          }, }],
    },
  ],
});
