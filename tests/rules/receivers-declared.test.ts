/**
 * Receivers judged from what the code declares (issue 25, item 1), whatever their names:
 *
 * - an imported or declared type or class that is not a Redis client beats the name fallback
 *   (a declared factory returning an interface of the code, a class or instance of another module
 *   of the code, a type from a package that is not a client package, a type of the application's
 *   own code whose module cannot be read: `constructor(private readonly redisService:
 *   RedisService)`, a typed field, a NestJS injection);
 * - a client reached through an annotated parameter object (`const store = params.redis`), an
 *   interface or type alias (also of another module), destructuring (`{ redis: store }`), a
 *   function or method whose declared return type is a client (same module, a `declare`d one, an
 *   annotated helper object, or a function of another module), or a value another module makes.
 *
 * no-persist is the probe (no key policy, no suggestions); every case runs without and with type
 * information where the code is all in one file.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import noPersist from '../../rules/no-persist.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, setSuggestions, typedTester, untypedTester } from './tester.js';

/** A file next to the modules of tests/fixtures/receivers (cache.ts, client.ts, deps.ts, index.ts, legacy.cjs). */
const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'receivers', 'app.ts');
const persist = (receiver: string): string => `${receiver}.persist(\`s:\${id}\`);`;

/**
 * Same-file shapes that are not clients although their names say `redis` (probed with SET: what
 * an application cache object is called with).
 */
const set = (receiver: string): string => `${receiver}.set(\`s:\${id}\`, v);`;
const notClients = [
  // handed case 24's shape: a declared factory whose return type is an interface of the code
  `interface AppCache { get(k: string): Promise<string>; set(k: string, v: string, ttl?: number): Promise<void> }\ndeclare function createRedisCache(): AppCache;\nconst redisCache = createRedisCache();\n${set('redisCache')}`,
  // ... a factory function of the module with a declared return type, an arrow too
  `class Store { set(k: string, v: string) { return k + v; } }\nfunction makeRedisStore(): Store { return new Store(); }\n${set('makeRedisStore()')}`,
  `type Cache = { set(k: string, v: string): void };\nconst getRedisCache = (): Cache => ({ set() {} });\n${set('getRedisCache()')}`,
  // ... an annotated object's member typed with an interface of the code
  `interface Cache { get(k: string): string; set(k: string, v: string): void }\nexport function f(deps: { redisCache: Cache }, id: string, v: string) {\n  ${set('deps.redisCache')}\n}`,
  // ... a type from a package that is not a Redis client package
  `import type { Cache } from 'cache-manager';\nexport function f(redisCache: Cache, id: string, v: string) { ${set('redisCache')} }`,
];

/** Same-file shapes that say nothing: an interface describing a client's commands, on a receiver named otherwise. */
const unknowns = [`interface Store { persist(k: string): Promise<number> }\nexport function f(store: Store, id: string) { ${persist('store')} }`];

/** Same-file shapes that are clients although their names do not say so. */
const clients: Array<{ code: string; line: number }> = [
  // an annotated parameter object (latitude-llm's `const store = params.redis`)
  { code: `import type { Redis } from 'ioredis';\nexport function f(params: { redis: Redis }, id: string) {\n  const store = params.redis;\n  ${persist('store')}\n}`, line: 4 },
  // ... through an interface and a type alias of the module, and a nested member
  { code: `import type { RedisClientType } from 'redis';\ninterface Deps { cache: RedisClientType }\nexport function f(deps: Deps, id: string) { ${persist('deps.cache')} }`, line: 3 },
  { code: `import { Redis } from '@upstash/redis';\ntype Ctx = { services: { kv: Redis } };\nexport function f(ctx: Ctx, id: string) { ${persist('ctx.services.kv')} }`, line: 3 },
  { code: `import type Redis from 'ioredis';\ninterface Base { store: Redis }\ninterface Deps extends Base { log: unknown }\nexport function f(deps: Readonly<Deps>, id: string) { ${persist('deps.store')} }`, line: 4 },
  // destructuring: a parameter, a variable from an annotated object, `this`
  { code: `import type { Redis } from 'ioredis';\nexport function f({ redis: store }: { redis: Redis }, id: string) { ${persist('store')} }`, line: 2 },
  { code: `import type { Redis } from 'ioredis';\nexport function f(params: { deps: { redis: Redis } }, id: string) {\n  const { deps: { redis: kv } } = params;\n  ${persist('kv')}\n}`, line: 4 },
  { code: `import type { Redis } from 'ioredis';\nexport class Job {\n  constructor(private readonly conn: Redis) {}\n  run(id: string) {\n    const { conn } = this;\n    ${persist('conn')}\n  }\n}`, line: 6 },
  // a function or method whose declared return type is a client
  { code: `import type { RedisClientType } from 'redis';\ndeclare function pool(): RedisClientType;\nconst conn = pool();\n${persist('conn')}`, line: 4 },
  { code: `import { createClient, type RedisClientType } from 'redis';\nexport async function connection(): Promise<RedisClientType> { return createClient() as RedisClientType; }\nexport async function f(id: string) {\n  const conn = await connection();\n  ${persist('conn')}\n}`, line: 5 },
  { code: `import type Redis from 'ioredis';\nexport abstract class Repo {\n  protected abstract conn(): Redis;\n  save(id: string) { ${persist('this.conn()')} }\n}`, line: 4 },
  // handed case 29's shape: a member filled from a helper object whose method is declared to return a client
  {
    code: `import type { RedisClientType } from 'redis';\ndeclare const pool: { getClient(url: string): RedisClientType };\nexport class History {\n  private conn;\n  constructor(url: string) { this.conn = pool.getClient(url); }\n  add(id: string) { ${persist('this.conn')} }\n}`,
    line: 6,
  },
  // an interface or type literal of the code describing the commands it takes from a client
  // (latitude-llm's rate limiters): not proven anything else, so a name like `redis` still counts
  { code: `interface RateLimitRedis { pipeline(): unknown; persist(k: string): Promise<number> }\nexport function f(input: { redis: RateLimitRedis }, id: string) { ${persist('input.redis')} }`, line: 2 },
  { code: `export function f(redis: { persist(k: string): Promise<number>; expire(k: string, s: number): Promise<number> }, id: string) { ${persist('redis')} }`, line: 1 },
  { code: `import type Redis from 'ioredis';\ndeclare const pool: { acquire: () => Promise<Redis> };\nexport async function f(id: string) {\n  const c = await pool.acquire();\n  ${persist('c')}\n}`, line: 5 },
  // a JavaScript option the checker types from its default (`false`): no method can be called on a
  // boolean, so the type says nothing and the name decides, as without types
  { code: `const defaults = { redisClient: false };\nexport function f(options = defaults, id: string) {\n  const redis = options.redisClient;\n  ${persist('redis')}\n}`, line: 4 },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl', setRule, { valid: notClients, invalid: [] });
  runRule(tester, 'no-persist', noPersist, {
    valid: unknowns,
    invalid: clients.map(({ code, line }) => ({ code, errors: [{ messageId: 'persist' as const, line }] })),
  });
}

// Other modules of the code, read through the relative import (without type information: the
// module is read as written)
runRule(untypedTester, 'no-persist (imported)', noPersist, {
  valid: [
    // a class, an instance and a default instance of another module that is no client
    { code: `import { RedisCache } from './cache';\nconst redisCache = new RedisCache();\n${persist('redisCache')}`, filename: app },
    { code: `import { redisCache } from './cache';\n${persist('redisCache')}`, filename: app },
    { code: `import redisCache from './cache.js';\n${persist('redisCache')}`, filename: app },
    // a type of another module that is no client, also as a member of an imported interface
    { code: `import type { RedisCache } from './cache';\nexport class Tenants {\n  constructor(private readonly redisCache: RedisCache) {}\n  put(id: string) { ${persist('this.redisCache')} }\n}`, filename: app },
    { code: `import type { Services } from './deps';\nexport function f(services: Services, id: string) { ${persist('services.cache')} }`, filename: app },
    // an application wrapper whose module cannot be read (not in the linted tree, a path alias):
    // its declared type beats its name, as a parameter property, a typed field, a NestJS
    // injection, a parameter
    { code: `import { RedisService } from './redis/redis.service';\nexport class Auth {\n  constructor(private readonly redisService: RedisService) {}\n  drop(id: string) { ${persist('this.redisService')} }\n}`, filename: app },
    { code: `import { RedisService } from './redis/redis.service';\nexport class Auth {\n  private readonly redisService: RedisService;\n  constructor(s: RedisService) { this.redisService = s; }\n  drop(id: string) { ${persist('this.redisService')} }\n}`, filename: app },
    {
      code: `import { Injectable } from '@nestjs/common';\nimport { RedisService } from '@/redis/redis.service';\n@Injectable()\nexport class Auth {\n  constructor(private redis: RedisService) {}\n  drop(id: string) { ${persist('this.redis')} }\n}`,
      filename: app,
    },
    { code: `import type { RedisService } from '../services/redis';\nexport function drop(redis: RedisService, id: string) { ${persist('redis')} }`, filename: app },
  ],
  invalid: [
    // a client another module makes, whatever its name here (also renamed, through a barrel, CommonJS)
    { code: `import { store } from './client';\n${persist('store')}`, filename: app, errors: [{ messageId: 'persist', line: 2 }] },
    { code: `import { shared as kv } from './client';\n${persist('kv')}`, filename: app, errors: [{ messageId: 'persist', line: 2 }] },
    { code: `import { store } from './index';\n${persist('store')}`, filename: app, errors: [{ messageId: 'persist', line: 2 }] },
    { code: `const { queue } = require('./legacy.cjs');\n${persist('queue')}`, filename: app, errors: [{ messageId: 'persist', line: 2 }] },
    // a class of another module that extends a client, a function declared to return one
    { code: `import { SessionRedis } from './client';\nconst sessions = new SessionRedis();\n${persist('sessions')}`, filename: app, errors: [{ messageId: 'persist', line: 3 }] },
    { code: `import { getClient } from './client';\nconst conn = getClient();\n${persist('conn')}`, filename: app, errors: [{ messageId: 'persist', line: 3 }] },
    // a type of another module that is a client, and one reached through an imported interface
    { code: `import type { AppClient } from './client';\nexport function f(conn: AppClient, id: string) { ${persist('conn')} }`, filename: app, errors: [{ messageId: 'persist', line: 2 }] },
    { code: `import type { Context } from './deps';\nexport function f(ctx: Context, id: string) {\n  const kv = ctx.services.redis;\n  ${persist('kv')}\n}`, filename: app, errors: [{ messageId: 'persist', line: 4 }] },
    // the near-misses of an application wrapper: a NestJS injection typed with a client
    // package's type, and a JS member without a declared type (its name is all there is)
    {
      code: `import { InjectRedis } from '@nestjs-modules/ioredis';\nimport type Redis from 'ioredis';\nexport class Auth {\n  constructor(@InjectRedis() private readonly redisService: Redis) {}\n  drop(id: string) { ${persist('this.redisService')} }\n}`,
      filename: app,
      errors: [{ messageId: 'persist', line: 5 }],
    },
    { code: `export class Auth {\n  constructor(redisService) { this.redisService = redisService; }\n  drop(id) { ${persist('this.redisService')} }\n}`, filename: app, errors: [{ messageId: 'persist', line: 3 }] },
  ],
});

// The SET rule on handed case 24's shape and on a client reached through a parameter object
runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [`interface AppCache { set(k: string, v: string, ttl?: number): Promise<void> }\ndeclare function createRedisCache(): AppCache;\nconst redisCache = createRedisCache();\nexport const put = (k: string, v: string) => redisCache.set(k, v);`],
  invalid: [
    {
      code: `import type { Redis } from 'ioredis';\nexport async function f(params: { redis: Redis }, id: string) {\n  const store = params.redis;\n  await store.set(\`s:\${id}\`, 'v');\n}`,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          suggestions: setSuggestions(
            `import type { Redis } from 'ioredis';\nexport async function f(params: { redis: Redis }, id: string) {\n  const store = params.redis;\n  await store.set(\`s:\${id}\`, 'v');\n}`,
            "store.set(`s:${id}`, 'v'",
          ),
        },
      ],
    },
  ],
});
