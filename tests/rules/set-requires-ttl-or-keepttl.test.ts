import rule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester, upstash } from './tester.js';

runRule(untypedTester, 'set-requires-ttl-or-keepttl', rule, {
  valid: [
    ioredis(`redis.set('k', 'v', 'EX', 60);`),
    ioredis(`redis.set('k', 'v', 'px', ms, 'NX');`),
    ioredis(`redis.set('k', 'v', 'KeepTtl');`),
    ioredis(`redis.set('k', 'v', 'EXAT', at);`),
    ioredis(`redis.setex('k', 60, 'v');`),
    ioredis(`redis.psetex('k', 60000, 'v');`),
    ioredis(`redis.call('SET', 'k', 'v', 'PXAT', at);`),
    ioredis(`redis.set('k', 'v', ...mode);`),
    ioredis(`const unit = 'EX';\nredis.set('k', 'v', unit, ttl);`),
    ioredis(`redis.set('k', 'v', mode, ttl);`),
    ioredis(`redis.getset('k', 'v');`), // no-getset's finding, not this rule's
    ioredis(`redis.set('k', 'v', 'GET');`), // idem
    nodeRedis(`client.set('k', 'v', { EX: 60 });`),
    nodeRedis(`client.set('k', 'v', { PX: 1500, NX: true });`),
    nodeRedis(`client.set('k', 'v', { KEEPTTL: true });`),
    nodeRedis(`client.set('k', 'v', { expiration: { type: 'EX', value: 60 } });`),
    nodeRedis(`client.set('k', 'v', { expiration: 'KEEPTTL' });`),
    nodeRedis(`client.set('k', 'v', { expiration: { type: 'KEEPTTL' } });`),
    nodeRedis(`client.set('k', 'v', { ...opts });`),
    nodeRedis(`client.set('k', 'v', opts);`),
    nodeRedis(`client.setEx('k', 60, 'v');`),
    nodeRedis(`client.sendCommand(['SET', 'k', 'v', 'EX', '60']);`),
    upstash(`redis.set('k', 'v', { ex: 60 });`),
    upstash(`redis.set('k', 'v', { px: 250, nx: true });`),
    upstash(`redis.set('k', 'v', { exat: at });`),
    upstash(`redis.set('k', 'v', { keepTtl: true });`),
    upstash(`const OPTIONS = { ex: 60 };\nredis.set('k', 'v', OPTIONS);`),
    // not Redis
    `const cache = new Map<string, number>(); cache.set('k', 1);`,
    `const params = new URLSearchParams(); params.set('q', 'x');`,
    `function f(res: { set(n: string, v: string): void }) { res.set('a', 'b'); }`,
    `const client = { set(k: string, v: string) { return k + v; } };\nclient.set('k', 'v');`,
    `url.searchParams.set('page', '2');`,
  ],
  invalid: [
    {
      code: ioredis(`await redis.set(\`profile:\${id}\`, json);`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 13,
          endLine: 3,
          endColumn: 39,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', data: { name: 'TTL_SECONDS' }, output: ioredis(`await redis.set(\`profile:\${id}\`, json, 'EX', TTL_SECONDS);`) },
            { messageId: 'addKeepTtl', output: ioredis(`await redis.set(\`profile:\${id}\`, json, 'KEEPTTL');`) },
          ],
        },
      ],
    },
    {
      code: ioredis(`const LOCK_TTL_MS = 30000;\nredis.set(\`lock:\${name}\`, token, 'NX');`),
      errors: [
        {
          messageId: 'createWithoutTtl',
          line: 4,
          column: 7,
          suggestions: [
            {
              messageId: 'addExpiry',
              data: { name: 'LOCK_TTL_MS' },
              output: ioredis(`const LOCK_TTL_MS = 30000;\nredis.set(\`lock:\${name}\`, token, 'PX', LOCK_TTL_MS, 'NX');`),
            },
          ],
        },
      ],
    },
    {
      code: ioredis(`const TTL = 300;\nredis.set(key, v, 'xx');`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          column: 7,
          suggestions: [
            { messageId: 'addExpiry', data: { name: 'TTL' }, output: ioredis(`const TTL = 300;\nredis.set(key, v, 'EX', TTL, 'xx');`) },
            { messageId: 'addKeepTtl', output: ioredis(`const TTL = 300;\nredis.set(key, v, 'KEEPTTL', 'xx');`) },
          ],
        },
      ],
    },
    {
      // a client required inside a function, under a name no setting matches
      code: `export function save() {\n  const IO = require('ioredis');\n  const store = new IO();\n  return store.set('k', 'v');\n}`,
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          column: 16,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: `export function save() {\n  const IO = require('ioredis');\n  const store = new IO();\n  return store.set('k', 'v', 'EX', TTL_SECONDS);\n}` },
            { messageId: 'addKeepTtl', output: `export function save() {\n  const IO = require('ioredis');\n  const store = new IO();\n  return store.set('k', 'v', 'KEEPTTL');\n}` },
          ],
        },
      ],
    },
    {
      // a trailing callback is not an option
      code: ioredis(`redis.set(key, v, (err) => {});`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 7,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: ioredis(`redis.set(key, v, 'EX', TTL_SECONDS, (err) => {});`) },
            { messageId: 'addKeepTtl', output: ioredis(`redis.set(key, v, 'KEEPTTL', (err) => {});`) },
          ],
        },
      ],
    },
    {
      code: ioredis(`redis.setnx(key, v);`),
      errors: [
        {
          messageId: 'createWithoutTtl',
          line: 3,
          column: 7,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', data: { name: 'TTL_SECONDS' }, output: ioredis(`redis.set(key, v, 'EX', TTL_SECONDS, 'NX');`) },
          ],
        },
      ],
    },
    {
      code: ioredis(`redis.mset('a', 1, 'b', 2);\nredis.msetnx({ a: 1 });`),
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'msetWithoutTtl',
          line: 3,
          column: 7,
          suggestions: [
            {
              messageId: 'expireEachKey',
              data: { name: 'TTL_SECONDS', placeholder: ' (declare TTL_SECONDS)' },
              output: ioredis(`redis.multi().mset('a', 1, 'b', 2).expire('a', TTL_SECONDS).expire('b', TTL_SECONDS).exec();\nredis.msetnx({ a: 1 });`),
            },
          ],
        },
        {
          messageId: 'msetWithoutTtl',
          line: 4,
          column: 7,
          suggestions: [
            {
              messageId: 'expireEachKey',
              output: ioredis(`redis.mset('a', 1, 'b', 2);\nredis.multi().msetnx({ a: 1 }).expire("a", TTL_SECONDS).exec();`),
            },
          ],
        },
      ],
    },
    {
      code: nodeRedis(`const TTL_MS = 500;\nclient.multi().mSet([['a', '1']]).exec();\nclient.multi().mSet({ a: '1' }).exec();`),
      errors: [
        { messageId: 'msetWithoutTtl', line: 4, column: 16, suggestions: [] },
        {
          messageId: 'msetWithoutTtl',
          line: 5,
          column: 16,
          suggestions: [
            {
              messageId: 'expireEachKey',
              output: nodeRedis(`const TTL_MS = 500;\nclient.multi().mSet([['a', '1']]).exec();\nclient.multi().mSet({ a: '1' }).pExpire("a", TTL_MS).exec();`),
            },
          ],
        },
      ],
    },
    {
      code: ioredis(`redis.call('set', key, v);`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 12,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: ioredis(`redis.call('set', key, v, 'EX', TTL_SECONDS);`) },
            { messageId: 'addKeepTtl', output: ioredis(`redis.call('set', key, v, 'KEEPTTL');`) },
          ],
        },
      ],
    },
    {
      code: ioredis(`redis.pipeline().set(key, v).exec();`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 18,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: ioredis(`redis.pipeline().set(key, v, 'EX', TTL_SECONDS).exec();`) },
            { messageId: 'addKeepTtl', output: ioredis(`redis.pipeline().set(key, v, 'KEEPTTL').exec();`) },
          ],
        },
      ],
    },
    {
      code: ioredis(`redis.multi([['set', key, v], ['incr', 'n']]).exec();`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 15,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: ioredis(`redis.multi([['set', key, v, 'EX', TTL_SECONDS], ['incr', 'n']]).exec();`) },
            { messageId: 'addKeepTtl', output: ioredis(`redis.multi([['set', key, v, 'KEEPTTL'], ['incr', 'n']]).exec();`) },
          ],
        },
      ],
    },
    {
      code: nodeRedis(`await client.set(key, value);`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 14,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: nodeRedis(`await client.set(key, value, { EX: TTL_SECONDS });`) },
            { messageId: 'addKeepTtl', output: nodeRedis(`await client.set(key, value, { KEEPTTL: true });`) },
          ],
        },
      ],
    },
    {
      code: nodeRedis(`await client.set(key, value, { NX: true });`),
      errors: [
        {
          messageId: 'createWithoutTtl',
          line: 3,
          column: 14,
          suggestions: [{ messageId: 'addExpiryPlaceholder', output: nodeRedis(`await client.set(key, value, { EX: TTL_SECONDS, NX: true });`) }],
        },
      ],
    },
    {
      code: nodeRedis(`await client.set(key, value, { condition: 'XX' });`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 14,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: nodeRedis(`await client.set(key, value, { EX: TTL_SECONDS, condition: 'XX' });`) },
            { messageId: 'addKeepTtl', output: nodeRedis(`await client.set(key, value, { KEEPTTL: true, condition: 'XX' });`) },
          ],
        },
      ],
    },
    {
      code: nodeRedis(`client.setNX(key, value);`),
      errors: [
        {
          messageId: 'createWithoutTtl',
          line: 3,
          column: 8,
          suggestions: [{ messageId: 'addExpiryPlaceholder', output: nodeRedis(`client.set(key, value, { EX: TTL_SECONDS, NX: true });`) }],
        },
      ],
    },
    {
      code: upstash(`const SESSION_TTL = 900;\nawait redis.set(key, 'v');`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          column: 13,
          suggestions: [
            { messageId: 'addExpiry', data: { name: 'SESSION_TTL' }, output: upstash(`const SESSION_TTL = 900;\nawait redis.set(key, 'v', { ex: SESSION_TTL });`) },
            { messageId: 'addKeepTtl', output: upstash(`const SESSION_TTL = 900;\nawait redis.set(key, 'v', { keepTtl: true });`) },
          ],
        },
      ],
    },
    {
      code: upstash(`redis.set(key, 'v', { nx: true });`),
      errors: [
        {
          messageId: 'createWithoutTtl',
          line: 3,
          column: 7,
          suggestions: [{ messageId: 'addExpiryPlaceholder', output: upstash(`redis.set(key, 'v', { ex: TTL_SECONDS, nx: true });`) }],
        },
      ],
    },
    {
      // a class member annotated with the client type
      code: `import { Redis } from 'ioredis';\nclass Sessions {\n  constructor(private readonly store: Redis) {}\n  save(id: string) { return this.store.set(id, '1'); }\n}`,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          column: 40,
          suggestions: [
            {
              messageId: 'addExpiryPlaceholder',
              output: `import { Redis } from 'ioredis';\nclass Sessions {\n  constructor(private readonly store: Redis) {}\n  save(id: string) { return this.store.set(id, '1', 'EX', TTL_SECONDS); }\n}`,
            },
            {
              messageId: 'addKeepTtl',
              output: `import { Redis } from 'ioredis';\nclass Sessions {\n  constructor(private readonly store: Redis) {}\n  save(id: string) { return this.store.set(id, '1', 'KEEPTTL'); }\n}`,
            },
          ],
        },
      ],
    },
  ],
});

runRule(typedTester, 'set-requires-ttl-or-keepttl (typed)', rule, {
  valid: [
    `export function f<T extends Map<string, string>>(store: T) { store.set('k', 'v'); }`,
    `const client = new Map<string, string>();\nclient.set('k', 'v');`,
    `import { Redis } from '@upstash/redis';\nexport async function f(r: Redis) { await r.set('k', 'v', { ex: 5 }); }`,
  ],
  invalid: [
    {
      // a type parameter is judged by its constraint; a class member by its declared type
      code: `import Redis from 'ioredis';\nexport class Repo<C extends Redis> {\n  private store!: C;\n  save() { return this.store.set('k', 'v', 'XX'); }\n}`,
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          column: 30,
          suggestions: [
            {
              messageId: 'addExpiryPlaceholder',
              output: `import Redis from 'ioredis';\nexport class Repo<C extends Redis> {\n  private store!: C;\n  save() { return this.store.set('k', 'v', 'EX', TTL_SECONDS, 'XX'); }\n}`,
            },
            {
              messageId: 'addKeepTtl',
              output: `import Redis from 'ioredis';\nexport class Repo<C extends Redis> {\n  private store!: C;\n  save() { return this.store.set('k', 'v', 'KEEPTTL', 'XX'); }\n}`,
            },
          ],
        },
      ],
    },
    {
      code: `import { Redis } from '@upstash/redis';\nexport async function f(r: Redis) { await r.set('k', 'v'); }`,
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 2,
          column: 45,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: `import { Redis } from '@upstash/redis';\nexport async function f(r: Redis) { await r.set('k', 'v', { ex: TTL_SECONDS }); }` },
            { messageId: 'addKeepTtl', output: `import { Redis } from '@upstash/redis';\nexport async function f(r: Redis) { await r.set('k', 'v', { keepTtl: true }); }` },
          ],
        },
      ],
    },
  ],
});
