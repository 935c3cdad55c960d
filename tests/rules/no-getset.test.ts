import rule from '../../rules/no-getset.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester, upstash } from './tester.js';

/** `code` with the import the collect suggestion adds, after the file's last import line. */
function withCollectImport(code: string): string {
  const lines = code.split('\n');
  let i = 0;
  while (lines[i]?.startsWith('import ')) i++;
  lines.splice(i, 0, `import { collect } from 'redis-ttl-runtime';`);
  return lines.join('\n');
}

runRule(untypedTester, 'no-getset', rule, {
  valid: [
    ioredis(`redis.set('k', 'v', 'KEEPTTL', 'GET');`),
    ioredis(`redis.set('k', 'v', 'EX', 60, 'GET');`),
    ioredis(`redis.set('k', 'v', 'get', 'pxat', 1700000000000);`),
    ioredis(`redis.set('k', 'v', ...opts, 'GET');`),
    ioredis(`redis.get('k');`),
    nodeRedis(`client.set('k', 'v', { KEEPTTL: true, GET: true });`),
    nodeRedis(`client.set('k', 'v', { expiration: { type: 'EX', value: 60 }, GET: true });`),
    nodeRedis(`client.set('k', 'v', { expiration: 'KEEPTTL', GET: true });`),
    nodeRedis(`client.set('k', 'v', { GET: false });`),
    upstash(`redis.set('k', 'v', { keepTtl: true, get: true });`),
    upstash(`redis.set('k', 'v', { ex: 60, get: true });`),
    // SET ... NX GET writes only a missing key: no TTL to clear (its create without TTL is
    // set-requires-ttl-or-keepttl's; KEEPTTL would not help it)
    ioredis(`redis.set(key, v, 'NX', 'get');`),
    nodeRedis(`client.set(key, v, { condition: 'NX', GET: true });`),
    upstash(`redis.set(key, v, { nx: true, get: true });`),
    // not Redis clients
    `const cache = new Map(); cache.set('k', 1);`,
    `function f(h: Headers) { h.set('GET', 'x'); }`,
    `store.getset('k', 'v');`,
    `class Store { getset(k: string, v: string) { return [k, v]; } }\nconst redis = new Store();\nredis.getset('k', 'v');`,
  ],
  invalid: [
    {
      code: ioredis(`await redis.getset('session:1', '0');`),
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 13,
          endLine: 3,
          endColumn: 37,
          suggestions: [
            { messageId: 'useCollect', output: withCollectImport(ioredis(`await collect(redis, 'session:1');`)) },{ messageId: 'useSetKeepTtl', output: ioredis(`await redis.set('session:1', '0', 'KEEPTTL', 'XX', 'GET');`) }],
        },
      ],
    },
    {
      code: ioredis(`redis.getsetBuffer(key, "0");`),
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 7,
          suggestions: [{ messageId: 'useSetKeepTtl', output: ioredis(`redis.set(key, "0", 'KEEPTTL', 'XX', 'GET');`) }],
        },
      ],
    },
    {
      code: ioredis(`redis.call("GETSET", key, "0");`),
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 12,
          suggestions: [{ messageId: 'useSetKeepTtl', output: ioredis(`redis.call("SET", key, "0", "KEEPTTL", "XX", "GET");`) }],
        },
      ],
    },
    {
      code: ioredis(`redis.set(key, v, 'GET');`),
      errors: [
        {
          messageId: 'setGet',
          line: 3,
          column: 7,
          suggestions: [
            { messageId: 'addKeepTtl', data: { options: 'KEEPTTL XX' }, output: ioredis(`redis.set(key, v, 'KEEPTTL', 'XX', 'GET');`) },
          ],
        },
      ],
    },
    {
      code: ioredis(`redis.multi().getset(key, '0').exec();`),
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 15,
          suggestions: [{ messageId: 'useSetKeepTtl', output: ioredis(`redis.multi().set(key, '0', 'KEEPTTL', 'XX', 'GET').exec();`) }],
        },
      ],
    },
    {
      code: nodeRedis(`await client.getSet(key, '0');`),
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 14,
          suggestions: [
            { messageId: 'useCollect', output: withCollectImport(nodeRedis(`await collect(client, key);`)) },
            { messageId: 'useSetKeepTtl', output: nodeRedis(`await client.set(key, '0', { KEEPTTL: true, XX: true, GET: true });`) },
          ],
        },
      ],
    },
    {
      code: nodeRedis(`client.GETSET(key, '0');`),
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 8,
          suggestions: [
            { messageId: 'useCollect', output: withCollectImport(nodeRedis(`collect(client, key);`)) },{ messageId: 'useSetKeepTtl', output: nodeRedis(`client.set(key, '0', { KEEPTTL: true, XX: true, GET: true });`) }],
        },
      ],
    },
    {
      code: nodeRedis(`client.sendCommand(['GETSET', key, '0']);`),
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 21,
          suggestions: [{ messageId: 'useSetKeepTtl', output: nodeRedis(`client.sendCommand(['SET', key, '0', 'KEEPTTL', 'XX', 'GET']);`) }],
        },
      ],
    },
    {
      code: nodeRedis(`client.set(key, v, { GET: true });`),
      errors: [
        {
          messageId: 'setGet',
          line: 3,
          column: 8,
          suggestions: [
            { messageId: 'addKeepTtl', data: { options: 'KEEPTTL XX' }, output: nodeRedis(`client.set(key, v, { KEEPTTL: true, XX: true, GET: true });`) },
          ],
        },
      ],
    },
    {
      code: upstash(`await redis.getset(key, 0);`),
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 13,
          suggestions: [{ messageId: 'useSetKeepTtl', output: upstash(`await redis.set(key, 0, { keepTtl: true, xx: true, get: true });`) }],
        },
      ],
    },
    {
      code: upstash(`redis.exec(['GETSET', key, '0']);`),
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 13,
          suggestions: [{ messageId: 'useSetKeepTtl', output: upstash(`redis.exec(['SET', key, '0', 'KEEPTTL', 'XX', 'GET']);`) }],
        },
      ],
    },
    {
      code: upstash(`redis.set(key, v, { get: true });`),
      errors: [
        {
          messageId: 'setGet',
          line: 3,
          column: 7,
          suggestions: [
            { messageId: 'addKeepTtl', data: { options: 'KEEPTTL XX' }, output: upstash(`redis.set(key, v, { keepTtl: true, xx: true, get: true });`) },
          ],
        },
      ],
    },
    {
      // a const option object in the same file is read
      code: upstash(`const OPTS = { get: true } as const;\nredis.set(key, v, OPTS);`),
      errors: [
        {
          messageId: 'setGet',
          line: 4,
          column: 7,
          suggestions: [
            {
              messageId: 'addKeepTtl',
              data: { options: 'KEEPTTL XX' },
              output: upstash(`const OPTS = { get: true } as const;\nredis.set(key, v, { ...OPTS, keepTtl: true, xx: true });`),
            },
          ],
        },
      ],
    },
    {
      // a class of the file that extends the client is a client
      code: `import Redis from 'ioredis';\nclass Sessions extends Redis {}\nconst store = new Sessions();\nstore.getset('k', '0');`,
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'getset',
          line: 4,
          column: 7,
          suggestions: [
            { messageId: 'useCollect', output: withCollectImport(`import Redis from 'ioredis';\nclass Sessions extends Redis {}\nconst store = new Sessions();\ncollect(store, 'k');`) },
            {
              messageId: 'useSetKeepTtl',
              output: `import Redis from 'ioredis';\nclass Sessions extends Redis {}\nconst store = new Sessions();\nstore.set('k', '0', 'KEEPTTL', 'XX', 'GET');`,
            },
          ],
        },
      ],
    },
    {
      code: `import Redis from 'ioredis';\nclass Sessions extends Redis {}\nexport const take = (s: Sessions) => s.getset('k', '0');`,
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 40,
          suggestions: [
            { messageId: 'useCollect', output: withCollectImport(`import Redis from 'ioredis';\nclass Sessions extends Redis {}\nexport const take = (s: Sessions) => collect(s, 'k');`) },
            {
              messageId: 'useSetKeepTtl',
              output: `import Redis from 'ioredis';\nclass Sessions extends Redis {}\nexport const take = (s: Sessions) => s.set('k', '0', 'KEEPTTL', 'XX', 'GET');`,
            },
          ],
        },
      ],
    },
    {
      // a class field annotated with the client type
      code: `import type { Cluster } from 'ioredis';\nclass Jobs {\n  private kv!: Cluster;\n  take() { return this.kv.getset('k', '0'); }\n}`,
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'getset',
          line: 4,
          column: 27,
          suggestions: [
            { messageId: 'useCollect', output: withCollectImport(`import type { Cluster } from 'ioredis';\nclass Jobs {\n  private kv!: Cluster;\n  take() { return collect(this.kv, 'k'); }\n}`) },
            {
              messageId: 'useSetKeepTtl',
              output: `import type { Cluster } from 'ioredis';\nclass Jobs {\n  private kv!: Cluster;\n  take() { return this.kv.set('k', '0', 'KEEPTTL', 'XX', 'GET'); }\n}`,
            },
          ],
        },
      ],
    },
    {
      // settings: clientNames
      code: `kv.getset('k', '0');`,
      options: [{ allowConstantKeys: false }],
      settings: { 'redis-ttl': { clientNames: ['^kv$'] } },
      errors: [
        {
          messageId: 'getset',
          line: 1,
          column: 4,
          suggestions: [
            { messageId: 'useCollect', output: withCollectImport(`collect(kv, 'k');`) },{ messageId: 'useSetKeepTtl', output: `kv.set('k', '0', 'KEEPTTL', 'XX', 'GET');` }],
        },
      ],
    },
    {
      // a parameter annotated with the client type, whatever its name
      code: `import type { Redis } from 'ioredis';\nexport function take(store: Redis, key: string) {\n  return store.getset(key, '0');\n}`,
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 16,
          suggestions: [
            { messageId: 'useCollect', output: withCollectImport(`import type { Redis } from 'ioredis';\nexport function take(store: Redis, key: string) {\n  return collect(store, key);\n}`) },
            {
              messageId: 'useSetKeepTtl',
              output: `import type { Redis } from 'ioredis';\nexport function take(store: Redis, key: string) {\n  return store.set(key, '0', 'KEEPTTL', 'XX', 'GET');\n}`,
            },
          ],
        },
      ],
    },
  ],
});

runRule(typedTester, 'no-getset (typed)', rule, {
  valid: [
    // typed: the receiver is a Map, whatever its name says
    `function getStore(): Map<string, string> { return new Map(); }\nconst redis = getStore();\nredis.set('k', 'GET');`,
    `import Redis from 'ioredis';\nconst redis = new Redis();\nredis.set('k', 'v', 'KEEPTTL', 'GET');`,
  ],
  invalid: [
    {
      // typed: a subclass of the client
      code: `import Redis from 'ioredis';\nclass Sessions extends Redis {}\nexport const take = (s: Sessions) => s.getset('k', '0');`,
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 40,
          suggestions: [
            { messageId: 'useCollect', output: withCollectImport(`import Redis from 'ioredis';\nclass Sessions extends Redis {}\nexport const take = (s: Sessions) => collect(s, 'k');`) },
            {
              messageId: 'useSetKeepTtl',
              output: `import Redis from 'ioredis';\nclass Sessions extends Redis {}\nexport const take = (s: Sessions) => s.set('k', '0', 'KEEPTTL', 'XX', 'GET');`,
            },
          ],
        },
      ],
    },
    {
      // typed: a client returned by a factory function, under a name no setting matches
      code: `import Redis from 'ioredis';\nfunction make() { return new Redis(); }\nconst store = make();\nstore.getset('k', '0');`,
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'getset',
          line: 4,
          column: 7,
          suggestions: [
            { messageId: 'useCollect', output: withCollectImport(`import Redis from 'ioredis';\nfunction make() { return new Redis(); }\nconst store = make();\ncollect(store, 'k');`) },
            {
              messageId: 'useSetKeepTtl',
              output: `import Redis from 'ioredis';\nfunction make() { return new Redis(); }\nconst store = make();\nstore.set('k', '0', 'KEEPTTL', 'XX', 'GET');`,
            },
          ],
        },
      ],
    },
    {
      code: `import { createClient } from 'redis';\nconst c = createClient();\nexport const f = (k: string) => c.multi().getSet(k, '0').exec();`,
      errors: [
        {
          messageId: 'getset',
          line: 3,
          column: 43,
          suggestions: [
            {
              messageId: 'useSetKeepTtl',
              output: `import { createClient } from 'redis';\nconst c = createClient();\nexport const f = (k: string) => c.multi().set(k, '0', { KEEPTTL: true, XX: true, GET: true }).exec();`,
            },
          ],
        },
      ],
    },
  ],
});

// the SET ... NX GET no-getset leaves alone is still a create without TTL for the key rule
runRule(untypedTester, 'set-requires-ttl-or-keepttl (SET ... NX GET)', setRule, {
  valid: [],
  invalid: [
    {
      code: ioredis('export const claim = (id: string, v: string) => redis.set(`claim:${id}`, v, "NX", "get");'),
      errors: [
        {
          messageId: 'createWithoutTtl',
          line: 3,
          column: 55,
          suggestions: [
            {
              messageId: 'addExpiryPlaceholder',
              data: { name: 'TTL_SECONDS' },
              output: ioredis('export const claim = (id: string, v: string) => redis.set(`claim:${id}`, v, \'EX\', TTL_SECONDS, "NX", "get");'),
            },
          ],
        },
      ],
    },
  ],
});
