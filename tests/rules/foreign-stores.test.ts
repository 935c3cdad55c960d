/**
 * Stores that are not Redis clients, taken for one by their name: a value made by a package that is
 * neither a client package nor a module of the code (`new Keyv()`, `createCache()` of
 * cache-manager, a cache factory of a framework package) is that package's value, whatever the
 * variable or member holding it is named (`redis`, `cache`, `cacheRedisFees`), with or without
 * type information. Near misses stay clients: a client package's value held in a variable named
 * `cache`, ioredis' `Redis` imported under another name, a factory of a package whose name
 * mentions Redis (a wrapper that may hand back a client), and a factory whose own name names a
 * client (`getIoRedis()` of `@alemonjs/db`), which are left to the name; a framework factory that
 * only mentions Redis (`CacheRedis`) or names none (`getCache`) stays that package's value.
 */
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { runRule, setSuggestions, typedTester, untypedTester } from './tester.js';

const stores = [
  // a framework's cache factory (CommonJS, destructured require) held in a name that says Redis
  `const { CacheRedis } = require('lisk-like-framework');\nconst cacheRedisFees = CacheRedis('fees', 'redis://localhost');\nasync function save(id, v) { await cacheRedisFees.set(\`fee:\${id}\`, v); }\nmodule.exports = { save };`,
  // cache-manager's factory, imported
  `import { createCache } from 'cache-manager';\nconst redisCache = createCache();\nexport async function save(id: string, v: string) { await redisCache.set(\`fee:\${id}\`, v); }`,
  // @keyv/redis names Redis but is a store package: its factory makes a Keyv store
  `import { createKeyv } from '@keyv/redis';\nconst redis = createKeyv('redis://localhost');\nexport async function save(id: string, v: string) { await redis.set(\`fee:\${id}\`, v); }`,
  // new Keyv() in a member named redis, required
  `const Keyv = require('keyv');\nclass Fees {\n  constructor() { this.redis = new Keyv('redis://localhost'); }\n  async save(id, v) { await this.redis.set(\`fee:\${id}\`, v); }\n}\nmodule.exports = Fees;`,
  // a framework's factory whose name does not name a client: its value, not a client
  `import { getCache } from '@alemonjs/db';\nconst redis = getCache();\nexport async function save(id: string, v: string) { await redis.set(\`fee:\${id}\`, v); }`,
  // a counter of a store package: its incr is not Redis' INCR
  `import { createCache } from 'cache-manager';\nconst client = createCache();\nexport async function hit(id: string) { await client.incr(\`hits:\${id}\`); }`,
];

// ioredis imported under another name, held in `cache`: a client by its import
const renamed = `import Store from 'ioredis';\nconst cache = new Store();\nexport async function save(id: string, v: string) { await cache.set(\`s:\${id}\`, v); }`;
// node-redis' factory, held in `cache`
const nodeRedisCache = `import { createClient } from 'redis';\nconst cache = createClient();\nexport async function save(id: string, v: string) { await cache.set(\`s:\${id}\`, v); }`;
// a framework's factory that names an ioredis client (`getIoRedis()` of @alemonjs/db): left to the name `redis`
const namedFactory = `import { getIoRedis } from '@alemonjs/db';\nconst redis = getIoRedis();\nexport async function save(id: string, v: string) { await redis.set(\`s:\${id}\`, v); }`;
// a wrapper package whose name mentions Redis: its value is left to the name `redis`
const wrapper = `import { connect } from '@acme/redis-kit';\nconst redis = connect();\nexport async function save(id: string, v: string) { await redis.set(\`s:\${id}\`, v); }`;

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl (stores that are not clients)', setRule, {
    valid: stores.slice(0, 5),
    invalid: [
      { code: renamed, errors: [{ messageId: 'setWithoutTtl', line: 3, column: 65, suggestions: setSuggestions(renamed, 'set(`s:${id}`, v') }] },
      {
        code: nodeRedisCache,
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 65,
            suggestions: [
              { messageId: 'addExpiryPlaceholder', output: nodeRedisCache.replace('set(`s:${id}`, v', 'set(`s:${id}`, v, { EX: TTL_SECONDS }') },
              { messageId: 'addKeepTtl', output: nodeRedisCache.replace('set(`s:${id}`, v', 'set(`s:${id}`, v, { KEEPTTL: true }') },
            ],
          },
        ],
      },
      { code: wrapper, errors: [{ messageId: 'setWithoutTtl', line: 3, column: 65, suggestions: setSuggestions(wrapper, 'set(`s:${id}`, v') }] },
      { code: namedFactory, errors: [{ messageId: 'setWithoutTtl', line: 3, column: 65, suggestions: setSuggestions(namedFactory, 'set(`s:${id}`, v') }] },
    ],
  });
  runRule(tester, 'incr-needs-expire-on-create (stores that are not clients)', incrRule, {
    valid: stores.slice(5),
    invalid: [],
  });
}
