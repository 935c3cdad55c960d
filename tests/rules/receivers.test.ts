/**
 * Receivers without type information: values provably not a client (whatever their name, also
 * when assigned in a constructor), and clients reached through functions, getters, static members
 * and type aliases / interfaces of the same module. Messages say why a receiver was taken for a
 * client when that rests on its name alone.
 */
import rule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const set = (receiver: string) => `${receiver}.set(\`s:\${id}\`, v)`;
/** The suggestions of the finding for `set(\`s:${id}\`, v)` in `code`. */
function suggestions(code: string) {
  const call = 'set(`s:${id}`, v';
  const nodeRedis = code.includes("from 'redis'");
  return [
    { messageId: 'addExpiryPlaceholder' as const, output: code.replace(call, nodeRedis ? `${call}, { EX: TTL_SECONDS }` : `${call}, 'EX', TTL_SECONDS`) },
    { messageId: 'addKeepTtl' as const, output: code.replace(call, nodeRedis ? `${call}, { KEEPTTL: true }` : `${call}, 'KEEPTTL'`) },
  ];
}

const cases: Array<{ code: string; line: number; client: string }> = [
  {
    code: `import Redis from 'ioredis';\nclass Store {\n  redis() { return new Redis(); }\n  save() { return ${set('this.redis()')}; }\n}`,
    line: 4,
    client: '',
  },
  {
    code: `import { createClient } from 'redis';\nconst shared = createClient();\nfunction getStore() { return shared; }\nexport const save = () => ${set('getStore()')};`,
    line: 4,
    client: '',
  },
  {
    code: `import Redis from 'ioredis';\nclass Pool {\n  static get defaultClient() { return new Redis(); }\n}\nexport const save = () => ${set('Pool.defaultClient')};`,
    line: 5,
    client: '',
  },
  {
    code: `import type { Redis, Cluster } from 'ioredis';\ntype Conn = Redis | Cluster;\nexport const save = (c: Conn) => ${set('c')};`,
    line: 3,
    client: '',
  },
  {
    code: `import type { Redis } from 'ioredis';\ninterface Store extends Redis { tenant: string }\nexport const save = (c: Store) => ${set('c')};`,
    line: 3,
    client: '',
  },
  {
    code: `export class Repo {\n  constructor(private readonly redisStore: unknown) {}\n  save() { return ${set('this.redisStore')}; }\n}`,
    line: 3,
    client: " (`this.redisStore` is taken for a Redis client because its name matches clientNames 'redis'.)",
  },
  // a value a framework context keeps under a client's name (Hono's c.get('redis'), Express's
  // app.get('redis')), directly and through a variable whose name says nothing
  {
    code: `import type { Context } from 'hono';\nexport const save = (c: Context) => ${set("c.get('redis')")};`,
    line: 2,
    client: " (`c.get('redis')` is taken for a Redis client because it is kept under `redis`, which matches clientNames 'redis'.)",
  },
  {
    code: `export function save(app: any) {\n  const store = app.get(\`valkey\`);\n  return ${set('store')};\n}`,
    line: 3,
    client: " (`store` is taken for a Redis client because it is kept under `valkey`, which matches clientNames 'valkey'.)",
  },
];

runRule(untypedTester, 'set-requires-ttl-or-keepttl', rule, {
  valid: [
    // handed case 17's three shapes, and a TypeScript private field compiled to a WeakMap
    `export class Adapter {\n  private redisListeners;\n  constructor() { this.redisListeners = new Map(); }\n  on() { this.redisListeners.set(\`s:\${id}\`, 1); }\n}`,
    `export class Adapter {\n  constructor(private readonly redisRequests = new Map<string, number>()) {}\n  on() { this.redisRequests.set(\`s:\${id}\`, 1); }\n}`,
    `const state = { redisTimers: new Map<string, number>() };\nstate.redisTimers.set(\`s:\${id}\`, 1);`,
    `var _RedisStorage_mode;\n_RedisStorage_mode = new WeakMap();\n_RedisStorage_mode.set(this, false);`,
    // kept under a name that says nothing, or under a computed name
    `import type { Redis } from 'ioredis';\nimport type { Context } from 'hono';\nexport const save = (c: Context) => ${set("c.get('user')")};`,
    `import type { Redis } from 'ioredis';\nexport const save = (c: any, name: string) => ${set('c.get(name)')};`,
    // a getter of the module returning something else
    `class Pool {\n  static get redisCache() { return new Map(); }\n}\nPool.redisCache.set(\`s:\${id}\`, 1);`,
  ],
  invalid: cases.map(({ code, line, client }) => ({
    code,
    // a receiver taken for a client by its name says so; the persistent-key hint then no longer fits in 300 characters
    errors: [{ messageId: 'setWithoutTtl' as const, line, data: { command: 'SET', key: 's:*', hint: client ? '' : hintFor('s:*'), client }, suggestions: suggestions(code) }],
  })),
});

function hintFor(shape: string): string {
  return ` Kept forever on purpose? Add '${shape}' to settings['redis-ttl'].persistentKeys.`;
}
