/**
 * The fixes of no-getset, incr-needs-expire-on-create and set-requires-ttl-or-keepttl: exact output
 * for each client (ioredis, node-redis, upstash) and module style (a new ESM import, a merge into
 * an existing one, CommonJS `require`), no fix without the option, several fixes in one file (ESLint
 * applies one import-touching fix per pass, the next pass merges into the import the first added).
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import noGetset from '../../rules/no-getset.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, typedTester, untypedTester } from './tester.js';

const RT = `'redis-ttl-runtime'`;
const FIX = [{ fix: true }] as const;
const AUTOFIX = { 'redis-ttl': { autofix: true } };

const IO = `import Redis from 'ioredis';\nconst redis = new Redis();\n`;
const IO_COLLECT = `import Redis from 'ioredis';\nimport { collect } from ${RT};\nconst redis = new Redis();\n`;
const IO_INCR = `import Redis from 'ioredis';\nimport { incrementWithTtl } from ${RT};\nconst redis = new Redis();\n`;
const NODE = `import { createClient } from 'redis';\nconst client = createClient();\n`;
const UP = `import { Redis } from '@upstash/redis';\nconst redis = Redis.fromEnv();\n`;

const useCollect = (output: string) => ({ messageId: 'useCollect' as const, output });
const useSet = (output: string) => ({ messageId: 'useSetKeepTtl' as const, output });

runRule(untypedTester, 'no-getset (fixes)', noGetset, {
  valid: [],
  invalid: [
    // ---- no fix without the option: suggestions only
    {
      code: `${IO}const v = await redis.getset(key, '0');`,
      output: null,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`${IO_COLLECT}const v = await collect(redis, key);`),
            useSet(`${IO}const v = await redis.set(key, '0', 'KEEPTTL', 'XX', 'GET');`),
          ],
        },
      ],
    },
    {
      // the rule option overrides the setting
      code: `${IO}const v = await redis.getset(key, '0');`,
      options: [{ fix: false }],
      settings: AUTOFIX,
      output: null,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`${IO_COLLECT}const v = await collect(redis, key);`),
            useSet(`${IO}const v = await redis.set(key, '0', 'KEEPTTL', 'XX', 'GET');`),
          ],
        },
      ],
    },
    // ---- ioredis, new import after the last import; comments and layout around the call stay
    {
      code: `${IO}// billing\nexport async function take(key: string) {\n  const v = await redis.getset(key, '0'); // read and reset\n  return Number(v ?? 0);\n}`,
      options: FIX,
      output: `${IO_COLLECT}// billing\nexport async function take(key: string) {\n  const v = await collect(redis, key); // read and reset\n  return Number(v ?? 0);\n}`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`${IO_COLLECT}// billing\nexport async function take(key: string) {\n  const v = await collect(redis, key); // read and reset\n  return Number(v ?? 0);\n}`),
            useSet(`${IO}// billing\nexport async function take(key: string) {\n  const v = await redis.set(key, '0', 'KEEPTTL', 'XX', 'GET'); // read and reset\n  return Number(v ?? 0);\n}`),
          ],
        },
      ],
    },
    {
      // settings autofix turns it on for the plugin; 0 (a number) is the same reset for ioredis
      code: `${IO}await redis.getset(\`pending:\${id}\`, 0);`,
      settings: AUTOFIX,
      output: `${IO_COLLECT}await collect(redis, \`pending:\${id}\`);`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`${IO_COLLECT}await collect(redis, \`pending:\${id}\`);`),
            useSet(`${IO}await redis.set(\`pending:\${id}\`, 0, 'KEEPTTL', 'XX', 'GET');`),
          ],
        },
      ],
    },
    // ---- merge into an existing import of the runtime
    {
      code: `import Redis from 'ioredis';\nimport { buildKey } from ${RT};\nconst redis = new Redis();\nawait redis.getset(buildKey(parts), '0');`,
      options: FIX,
      output: `import Redis from 'ioredis';\nimport { buildKey, collect } from ${RT};\nconst redis = new Redis();\nawait collect(redis, buildKey(parts));`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`import Redis from 'ioredis';\nimport { buildKey, collect } from ${RT};\nconst redis = new Redis();\nawait collect(redis, buildKey(parts));`),
            useSet(`import Redis from 'ioredis';\nimport { buildKey } from ${RT};\nconst redis = new Redis();\nawait redis.set(buildKey(parts), '0', 'KEEPTTL', 'XX', 'GET');`),
          ],
        },
      ],
    },
    {
      // already imported (under an alias): no import edit
      code: `import Redis from 'ioredis';\nimport { collect as take } from ${RT};\nconst redis = new Redis();\nawait redis.getset(k, '0');`,
      options: FIX,
      output: `import Redis from 'ioredis';\nimport { collect as take } from ${RT};\nconst redis = new Redis();\nawait take(redis, k);`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`import Redis from 'ioredis';\nimport { collect as take } from ${RT};\nconst redis = new Redis();\nawait take(redis, k);`),
            useSet(`import Redis from 'ioredis';\nimport { collect as take } from ${RT};\nconst redis = new Redis();\nawait redis.set(k, '0', 'KEEPTTL', 'XX', 'GET');`),
          ],
        },
      ],
    },
    {
      // a namespace import: runtime.collect
      code: `import Redis from 'ioredis';\nimport * as runtime from ${RT};\nconst redis = new Redis();\nawait redis.getset(k, '0');`,
      options: FIX,
      output: `import Redis from 'ioredis';\nimport * as runtime from ${RT};\nconst redis = new Redis();\nawait runtime.collect(redis, k);`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`import Redis from 'ioredis';\nimport * as runtime from ${RT};\nconst redis = new Redis();\nawait runtime.collect(redis, k);`),
            useSet(`import Redis from 'ioredis';\nimport * as runtime from ${RT};\nconst redis = new Redis();\nawait redis.set(k, '0', 'KEEPTTL', 'XX', 'GET');`),
          ],
        },
      ],
    },
    {
      // settings runtimeModule: the helpers come from the application's own wrapper module
      code: `import Redis from "ioredis";\nconst redis = new Redis();\nawait redis.getset(k, "0");`,
      options: FIX,
      settings: { 'redis-ttl': { runtimeModule: '#lib/redis-ttl' } },
      output: `import Redis from "ioredis";\nimport { collect } from "#lib/redis-ttl";\nconst redis = new Redis();\nawait collect(redis, k);`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`import Redis from "ioredis";\nimport { collect } from "#lib/redis-ttl";\nconst redis = new Redis();\nawait collect(redis, k);`),
            useSet(`import Redis from "ioredis";\nconst redis = new Redis();\nawait redis.set(k, "0", 'KEEPTTL', 'XX', 'GET');`),
          ],
        },
      ],
    },
    {
      // a local `collect` already means something else: no collect, the SET form as a suggestion only
      code: `${IO}function collect() {}\nawait redis.getset(k, '0');`,
      options: FIX,
      output: null,
      errors: [{ messageId: 'getset', suggestions: [useSet(`${IO}function collect() {}\nawait redis.set(k, '0', 'KEEPTTL', 'XX', 'GET');`)] }],
    },
    {
      // an ES module without imports: the import goes after the directive prologue, which stays first
      code: `'use server';\nexport async function take(k: string) {\n  return redis.getset(k, '0');\n}`,
      options: FIX,
      output: `'use server';\nimport { collect } from ${RT};\nexport async function take(k: string) {\n  return collect(redis, k);\n}`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`'use server';\nimport { collect } from ${RT};\nexport async function take(k: string) {\n  return collect(redis, k);\n}`),
            useSet(`'use server';\nexport async function take(k: string) {\n  return redis.set(k, '0', 'KEEPTTL', 'XX', 'GET');\n}`),
          ],
        },
      ],
    },
    {
      // a file without semicolons gets an import without one
      code: `import Redis from 'ioredis'\nconst redis = new Redis()\nawait redis.getset(k, '0')`,
      options: FIX,
      output: `import Redis from 'ioredis'\nimport { collect } from ${RT}\nconst redis = new Redis()\nawait collect(redis, k)`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`import Redis from 'ioredis'\nimport { collect } from ${RT}\nconst redis = new Redis()\nawait collect(redis, k)`),
            useSet(`import Redis from 'ioredis'\nconst redis = new Redis()\nawait redis.set(k, '0', 'KEEPTTL', 'XX', 'GET')`),
          ],
        },
      ],
    },
    // ---- CommonJS
    {
      code: `const Redis = require('ioredis');\nconst redis = new Redis();\nasync function take(k) {\n  return redis.getset(k, '0');\n}`,
      options: FIX,
      languageOptions: { parserOptions: { sourceType: 'script' } },
      output: `const Redis = require('ioredis');\nconst { collect } = require(${RT});\nconst redis = new Redis();\nasync function take(k) {\n  return collect(redis, k);\n}`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`const Redis = require('ioredis');\nconst { collect } = require(${RT});\nconst redis = new Redis();\nasync function take(k) {\n  return collect(redis, k);\n}`),
            useSet(`const Redis = require('ioredis');\nconst redis = new Redis();\nasync function take(k) {\n  return redis.set(k, '0', 'KEEPTTL', 'XX', 'GET');\n}`),
          ],
        },
      ],
    },
    {
      // CommonJS merge into `const { ... } = require(runtime)`
      code: `'use strict';\nconst Redis = require('ioredis');\nconst { incrementWithTtl } = require(${RT});\nconst redis = new Redis();\nredis.getset(k, '0');`,
      options: FIX,
      languageOptions: { parserOptions: { sourceType: 'script' } },
      output: `'use strict';\nconst Redis = require('ioredis');\nconst { incrementWithTtl, collect } = require(${RT});\nconst redis = new Redis();\ncollect(redis, k);`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`'use strict';\nconst Redis = require('ioredis');\nconst { incrementWithTtl, collect } = require(${RT});\nconst redis = new Redis();\ncollect(redis, k);`),
            useSet(`'use strict';\nconst Redis = require('ioredis');\nconst { incrementWithTtl } = require(${RT});\nconst redis = new Redis();\nredis.set(k, '0', 'KEEPTTL', 'XX', 'GET');`),
          ],
        },
      ],
    },
    // ---- node-redis and upstash
    {
      code: `${NODE}const pending = await client.getSet(key, '0');`,
      options: FIX,
      output: `import { createClient } from 'redis';\nimport { collect } from ${RT};\nconst client = createClient();\nconst pending = await collect(client, key);`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`import { createClient } from 'redis';\nimport { collect } from ${RT};\nconst client = createClient();\nconst pending = await collect(client, key);`),
            useSet(`${NODE}const pending = await client.set(key, '0', { KEEPTTL: true, XX: true, GET: true });`),
          ],
        },
      ],
    },
    {
      code: `${UP}const pending = await redis.getset(key, '0');`,
      options: FIX,
      output: `import { Redis } from '@upstash/redis';\nimport { collect } from ${RT};\nconst redis = Redis.fromEnv();\nconst pending = await collect(redis, key);`,
      errors: [
        {
          messageId: 'getset',
          suggestions: [
            useCollect(`import { Redis } from '@upstash/redis';\nimport { collect } from ${RT};\nconst redis = Redis.fromEnv();\nconst pending = await collect(redis, key);`),
            useSet(`${UP}const pending = await redis.set(key, '0', { keepTtl: true, xx: true, get: true });`),
          ],
        },
      ],
    },
    {
      // upstash replies getset(k, 0) as a number, collect as a string: the SET form keeps the reply
      code: `${UP}await redis.getset(key, 0);`,
      options: FIX,
      output: null,
      errors: [{ messageId: 'getset', suggestions: [useSet(`${UP}await redis.set(key, 0, { keepTtl: true, xx: true, get: true });`)] }],
    },
    // ---- other GETSET and SET ... GET: the client's SET ... XX KEEPTTL GET, a suggestion only even with
    // the fix on (XX leaves a missing key missing where the call wrote it)
    {
      code: `${IO}await redis.getset(key, token);`,
      options: FIX,
      output: null,
      errors: [{ messageId: 'getset', suggestions: [useSet(`${IO}await redis.set(key, token, 'KEEPTTL', 'XX', 'GET');`)] }],
    },
    {
      // inside a MULTI the helper can not run: the SET form
      code: `${IO}await redis.multi().getset(key, '0').exec();`,
      options: FIX,
      output: null,
      errors: [{ messageId: 'getset', suggestions: [useSet(`${IO}await redis.multi().set(key, '0', 'KEEPTTL', 'XX', 'GET').exec();`)] }],
    },
    {
      code: `${NODE}await client.set(key, v, { GET: true });`,
      options: FIX,
      output: null,
      errors: [
        {
          messageId: 'setGet',
          suggestions: [
            { messageId: 'addKeepTtl', data: { options: 'KEEPTTL XX' }, output: `${NODE}await client.set(key, v, { KEEPTTL: true, XX: true, GET: true });` },
          ],
        },
      ],
    },
    {
      code: `${UP}await redis.set(key, v, { get: true });`,
      settings: AUTOFIX,
      output: null,
      errors: [
        {
          messageId: 'setGet',
          suggestions: [
            { messageId: 'addKeepTtl', data: { options: 'KEEPTTL XX' }, output: `${UP}await redis.set(key, v, { keepTtl: true, xx: true, get: true });` },
          ],
        },
      ],
    },
    {
      code: `${IO}await redis.set(key, v, 'GET');`,
      options: FIX,
      output: null,
      errors: [
        {
          messageId: 'setGet',
          suggestions: [{ messageId: 'addKeepTtl', data: { options: 'KEEPTTL XX' }, output: `${IO}await redis.set(key, v, 'KEEPTTL', 'XX', 'GET');` }],
        },
      ],
    },
  ],
});

const useIncrement = (output: string) => ({ messageId: 'useIncrementWithTtl' as const, output });

runRule(untypedTester, 'incr-needs-expire-on-create (fixes)', incrRule, {
  valid: [],
  invalid: [
    {
      // no fix without the option
      code: `${IO}const n = await redis.incr(key);\nif (n === 1) await redis.expire(key, 60);`,
      output: null,
      errors: [
        {
          messageId: 'separateRoundTrip',
          suggestions: [
            useIncrement(`${IO_INCR}const { value: n } = await incrementWithTtl(redis, key, { ttlMs: 60000 });`),
          ],
        },
      ],
    },
    {
      // the `=== 1` guard with a block: 'fixed' mode (the default), guard removed, TTL in ms
      code: `${IO}const WINDOW_SECONDS = 60;\nexport async function allow(key: string) {\n  // one window per key\n  const hits = await redis.incr(key);\n  if (hits === 1) {\n    await redis.expire(key, WINDOW_SECONDS);\n  }\n  return hits <= 20;\n}`,
      options: FIX,
      output: `${IO_INCR}const WINDOW_SECONDS = 60;\nexport async function allow(key: string) {\n  // one window per key\n  const { value: hits } = await incrementWithTtl(redis, key, { ttlMs: WINDOW_SECONDS * 1000 });\n  return hits <= 20;\n}`,
      errors: [
        {
          messageId: 'separateRoundTrip',
          suggestions: [
            useIncrement(`${IO_INCR}const WINDOW_SECONDS = 60;\nexport async function allow(key: string) {\n  // one window per key\n  const { value: hits } = await incrementWithTtl(redis, key, { ttlMs: WINDOW_SECONDS * 1000 });\n  return hits <= 20;\n}`),
          ],
        },
      ],
    },
    {
      // a guard holding more than the expiry keeps the rest
      code: `${IO}const n = await redis.incr(key);\nif (n === 1) {\n  log('new window');\n  await redis.expire(key, 60);\n}`,
      options: FIX,
      output: `${IO_INCR}const { value: n } = await incrementWithTtl(redis, key, { ttlMs: 60000 });\nif (n === 1) {\n  log('new window');\n}`,
      errors: [
        {
          messageId: 'separateRoundTrip',
          suggestions: [
            useIncrement(`${IO_INCR}const { value: n } = await incrementWithTtl(redis, key, { ttlMs: 60000 });\nif (n === 1) {\n  log('new window');\n}`),
          ],
        },
      ],
    },
    {
      // an expiry on every call: 'sliding' mode; INCRBY's amount becomes `by`; an annotated result keeps its annotation
      code: `${IO}async function record(key: string, seconds: number) {\n  const total: number = await redis.incrby(key, seconds);\n  await redis.expire(key, 3600);\n  return total;\n}`,
      options: FIX,
      output: `${IO_INCR}async function record(key: string, seconds: number) {\n  const total: number = (await incrementWithTtl(redis, key, { by: seconds, ttlMs: 3600000, mode: 'sliding' })).value;\n  return total;\n}`,
      errors: [
        {
          messageId: 'separateRoundTrip',
          suggestions: [
            useIncrement(`${IO_INCR}async function record(key: string, seconds: number) {\n  const total: number = (await incrementWithTtl(redis, key, { by: seconds, ttlMs: 3600000, mode: 'sliding' })).value;\n  return total;\n}`),
          ],
        },
      ],
    },
    {
      // node-redis: incrBy guarded by `=== by`, pExpire in milliseconds as is
      code: `${NODE}const n = await client.incrBy(key, 5);\nif (n === 5) await client.pExpire(key, 1500);`,
      options: FIX,
      output: `import { createClient } from 'redis';\nimport { incrementWithTtl } from ${RT};\nconst client = createClient();\nconst { value: n } = await incrementWithTtl(client, key, { by: 5, ttlMs: 1500 });`,
      errors: [
        {
          messageId: 'separateRoundTrip',
          suggestions: [
            useIncrement(`import { createClient } from 'redis';\nimport { incrementWithTtl } from ${RT};\nconst client = createClient();\nconst { value: n } = await incrementWithTtl(client, key, { by: 5, ttlMs: 1500 });`),
          ],
        },
      ],
    },
    {
      // upstash, result unused
      code: `${UP}await redis.incr(key);\nawait redis.expire(key, 10);`,
      settings: AUTOFIX,
      output: `import { Redis } from '@upstash/redis';\nimport { incrementWithTtl } from ${RT};\nconst redis = Redis.fromEnv();\nawait incrementWithTtl(redis, key, { ttlMs: 10000, mode: 'sliding' });`,
      errors: [
        {
          messageId: 'separateRoundTrip',
          suggestions: [
            useIncrement(`import { Redis } from '@upstash/redis';\nimport { incrementWithTtl } from ${RT};\nconst redis = Redis.fromEnv();\nawait incrementWithTtl(redis, key, { ttlMs: 10000, mode: 'sliding' });`),
            { messageId: 'wrapInMulti', output: `${UP}await redis.multi().incr(key).expire(key, 10).exec();` },
          ],
        },
      ],
    },
    {
      // CommonJS
      code: `const Redis = require('ioredis');\nconst redis = new Redis();\nasync function hit(key) {\n  const n = await redis.incr(key);\n  if (n === 1) await redis.expire(key, 60);\n  return n;\n}`,
      options: FIX,
      languageOptions: { parserOptions: { sourceType: 'script' } },
      output: `const Redis = require('ioredis');\nconst { incrementWithTtl } = require(${RT});\nconst redis = new Redis();\nasync function hit(key) {\n  const { value: n } = await incrementWithTtl(redis, key, { ttlMs: 60000 });\n  return n;\n}`,
      errors: [
        {
          messageId: 'separateRoundTrip',
          suggestions: [
            useIncrement(`const Redis = require('ioredis');\nconst { incrementWithTtl } = require(${RT});\nconst redis = new Redis();\nasync function hit(key) {\n  const { value: n } = await incrementWithTtl(redis, key, { ttlMs: 60000 });\n  return n;\n}`),
          ],
        },
      ],
    },
    {
      // a TTL the fix can not prove to be a number: suggestions only, never `'60' * 1000`
      code: `${IO}async function hit(key: string, ttl: string) {\n  const n = await redis.incr(key);\n  if (n === 1) await redis.expire(key, ttl);\n}`,
      options: FIX,
      output: null,
      errors: [
        {
          messageId: 'separateRoundTrip',
          suggestions: [
          ],
        },
      ],
    },
    {
      // the expiry is not the next statement: suggestions only
      code: `${IO}const n = await redis.incr(key);\nawait audit(n);\nawait redis.expire(key, 60);`,
      options: FIX,
      output: null,
      errors: [
        {
          messageId: 'separateRoundTrip',
          // and no MULTI: the reply is read
          suggestions: [],
        },
      ],
    },
    {
      // two fixes in one file: the first pass adds the import with one of them (their ranges
      // overlap on the import line, so ESLint defers the other), the second pass merges into it
      code: `${IO}export async function a(k: string) {\n  const n = await redis.incr(k);\n  if (n === 1) await redis.expire(k, 60);\n  return n;\n}\nexport async function b(k: string) {\n  await redis.incrby(k, 2);\n  await redis.pexpire(k, 500);\n}`,
      options: FIX,
      output: [
        `${IO_INCR}export async function a(k: string) {\n  const { value: n } = await incrementWithTtl(redis, k, { ttlMs: 60000 });\n  return n;\n}\nexport async function b(k: string) {\n  await redis.incrby(k, 2);\n  await redis.pexpire(k, 500);\n}`,
        `${IO_INCR}export async function a(k: string) {\n  const { value: n } = await incrementWithTtl(redis, k, { ttlMs: 60000 });\n  return n;\n}\nexport async function b(k: string) {\n  await incrementWithTtl(redis, k, { by: 2, ttlMs: 500, mode: 'sliding' });\n}`,
      ],
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          suggestions: [
            useIncrement(`${IO_INCR}export async function a(k: string) {\n  const { value: n } = await incrementWithTtl(redis, k, { ttlMs: 60000 });\n  return n;\n}\nexport async function b(k: string) {\n  await redis.incrby(k, 2);\n  await redis.pexpire(k, 500);\n}`),
          ],
        },
        {
          messageId: 'separateRoundTrip',
          line: 9,
          suggestions: [
            useIncrement(`${IO_INCR}export async function a(k: string) {\n  const n = await redis.incr(k);\n  if (n === 1) await redis.expire(k, 60);\n  return n;\n}\nexport async function b(k: string) {\n  await incrementWithTtl(redis, k, { by: 2, ttlMs: 500, mode: 'sliding' });\n}`),
            {
              messageId: 'wrapInMulti',
              output: `${IO}export async function a(k: string) {\n  const n = await redis.incr(k);\n  if (n === 1) await redis.expire(k, 60);\n  return n;\n}\nexport async function b(k: string) {\n  await redis.multi().incrby(k, 2).pexpire(k, 500).exec();\n}`,
            },
          ],
        },
      ],
    },
  ],
});

runRule(typedTester, 'incr-needs-expire-on-create (fixes, typed)', incrRule, {
  valid: [],
  invalid: [
    {
      // with type information a TTL typed `number` anywhere (here a property) is converted
      code: `import Redis from 'ioredis';\nconst redis = new Redis();\nconst config = { ttl: 30 };\nexport async function hit(key: string) {\n  const n = await redis.incr(key);\n  if (n === 1) await redis.expire(key, config.ttl);\n  return n;\n}`,
      options: FIX,
      output: `import Redis from 'ioredis';\nimport { incrementWithTtl } from ${RT};\nconst redis = new Redis();\nconst config = { ttl: 30 };\nexport async function hit(key: string) {\n  const { value: n } = await incrementWithTtl(redis, key, { ttlMs: config.ttl * 1000 });\n  return n;\n}`,
      errors: [
        {
          messageId: 'separateRoundTrip',
          suggestions: [
            useIncrement(`import Redis from 'ioredis';\nimport { incrementWithTtl } from ${RT};\nconst redis = new Redis();\nconst config = { ttl: 30 };\nexport async function hit(key: string) {\n  const { value: n } = await incrementWithTtl(redis, key, { ttlMs: config.ttl * 1000 });\n  return n;\n}`),
          ],
        },
      ],
    },
  ],
});

const DEFAULT_TTL = { 'redis-ttl': { defaultTtlSeconds: 86400 } };
const DEFAULT_TTL_AUTOFIX = { 'redis-ttl': { defaultTtlSeconds: 86400, autofix: true } };

runRule(untypedTester, 'set-requires-ttl-or-keepttl (fixes)', setRule, {
  valid: [],
  invalid: [
    {
      // defaultTtlSeconds without the option: a suggestion, no fix
      code: `${IO}await redis.set(key, json);`,
      settings: DEFAULT_TTL,
      output: null,
      errors: [
        {
          messageId: 'setWithoutTtl',
          suggestions: [
            { messageId: 'addDefaultExpiry', data: { seconds: '86400' }, output: `${IO}await redis.set(key, json, 'EX', 86400);` },
            { messageId: 'addExpiryPlaceholder', output: `${IO}await redis.set(key, json, 'EX', TTL_SECONDS);` },
            { messageId: 'addKeepTtl', output: `${IO}await redis.set(key, json, 'KEEPTTL');` },
          ],
        },
      ],
    },
    {
      // the option without defaultTtlSeconds: nothing to fix with
      code: `${IO}await redis.set(key, json);`,
      options: FIX,
      output: null,
      errors: [
        {
          messageId: 'setWithoutTtl',
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: `${IO}await redis.set(key, json, 'EX', TTL_SECONDS);` },
            { messageId: 'addKeepTtl', output: `${IO}await redis.set(key, json, 'KEEPTTL');` },
          ],
        },
      ],
    },
    {
      code: `${IO}await redis.set(key, json); // profile`,
      settings: DEFAULT_TTL_AUTOFIX,
      output: `${IO}await redis.set(key, json, 'EX', 86400); // profile`,
      errors: [
        {
          messageId: 'setWithoutTtl',
          suggestions: [
            { messageId: 'addDefaultExpiry', output: `${IO}await redis.set(key, json, 'EX', 86400); // profile` },
            { messageId: 'addExpiryPlaceholder', output: `${IO}await redis.set(key, json, 'EX', TTL_SECONDS); // profile` },
            { messageId: 'addKeepTtl', output: `${IO}await redis.set(key, json, 'KEEPTTL'); // profile` },
          ],
        },
      ],
    },
    {
      // a lock (SET NX of a key or value named lock / token): never the cache default, and no
      // fix; the suggestion names a lock-sized TTL to declare (redis-calls/write-expiry.ts)
      code: `${IO}await redis.set(lock, token, 'NX');`,
      options: FIX,
      settings: DEFAULT_TTL,
      output: null,
      errors: [
        {
          messageId: 'createWithoutTtl',
          suggestions: [{ messageId: 'addExpiryPlaceholder', data: { name: 'LOCK_TTL_SECONDS' }, output: `${IO}await redis.set(lock, token, 'EX', LOCK_TTL_SECONDS, 'NX');` }],
        },
      ],
    },
    {
      // the same with the file's TTL constants: the lock's own (in ms: PX), never the feed's
      code: `${IO}const FEED_TTL = 7 * 86400;\nconst LOCK_TIMEOUT_MS = 5000;\nawait redis.set(\`lock:\${id}\`, '1', 'NX');`,
      options: FIX,
      settings: DEFAULT_TTL,
      output: null,
      errors: [
        {
          messageId: 'createWithoutTtl',
          line: 5,
          column: 13,
          suggestions: [
            { messageId: 'addExpiry', data: { name: 'LOCK_TIMEOUT_MS' }, output: `${IO}const FEED_TTL = 7 * 86400;\nconst LOCK_TIMEOUT_MS = 5000;\nawait redis.set(\`lock:\${id}\`, '1', 'PX', LOCK_TIMEOUT_MS, 'NX');` },
          ],
        },
      ],
    },
    {
      // a SET NX that is no lock (a first-seen flag): the cache default, as a fix
      code: `${IO}await redis.set(seen, '1', 'NX');`,
      options: FIX,
      settings: DEFAULT_TTL,
      output: `${IO}await redis.set(seen, '1', 'EX', 86400, 'NX');`,
      errors: [
        {
          messageId: 'createWithoutTtl',
          suggestions: [
            { messageId: 'addDefaultExpiry', output: `${IO}await redis.set(seen, '1', 'EX', 86400, 'NX');` },
            { messageId: 'addExpiryPlaceholder', output: `${IO}await redis.set(seen, '1', 'EX', TTL_SECONDS, 'NX');` },
          ],
        },
      ],
    },
    {
      // node-redis' sendCommand takes strings only (RedisArgument[]): a number in the argv throws
      // at run time, so the default TTL is quoted
      code: `${NODE}await client.sendCommand(['SET', key, json]);`,
      settings: DEFAULT_TTL_AUTOFIX,
      output: `${NODE}await client.sendCommand(['SET', key, json, 'EX', '86400']);`,
      errors: [
        {
          messageId: 'setWithoutTtl',
          suggestions: [
            { messageId: 'addDefaultExpiry', output: `${NODE}await client.sendCommand(['SET', key, json, 'EX', '86400']);` },
            { messageId: 'addExpiryPlaceholder', output: `${NODE}await client.sendCommand(['SET', key, json, 'EX', String(TTL_SECONDS)]);` },
            { messageId: 'addKeepTtl', output: `${NODE}await client.sendCommand(['SET', key, json, 'KEEPTTL']);` },
          ],
        },
      ],
    },
    {
      code: `${NODE}await client.set(key, json);`,
      options: FIX,
      settings: DEFAULT_TTL,
      output: `${NODE}await client.set(key, json, { EX: 86400 });`,
      errors: [
        {
          messageId: 'setWithoutTtl',
          suggestions: [
            { messageId: 'addDefaultExpiry', output: `${NODE}await client.set(key, json, { EX: 86400 });` },
            { messageId: 'addExpiryPlaceholder', output: `${NODE}await client.set(key, json, { EX: TTL_SECONDS });` },
            { messageId: 'addKeepTtl', output: `${NODE}await client.set(key, json, { KEEPTTL: true });` },
          ],
        },
      ],
    },
    {
      code: `${NODE}await client.set(key, json, { NX: true });`,
      options: FIX,
      settings: DEFAULT_TTL,
      output: `${NODE}await client.set(key, json, { EX: 86400, NX: true });`,
      errors: [
        {
          messageId: 'createWithoutTtl',
          suggestions: [
            { messageId: 'addDefaultExpiry', output: `${NODE}await client.set(key, json, { EX: 86400, NX: true });` },
            { messageId: 'addExpiryPlaceholder', output: `${NODE}await client.set(key, json, { EX: TTL_SECONDS, NX: true });` },
          ],
        },
      ],
    },
    {
      code: `${UP}await redis.set(key, json);`,
      options: FIX,
      settings: DEFAULT_TTL,
      output: `${UP}await redis.set(key, json, { ex: 86400 });`,
      errors: [
        {
          messageId: 'setWithoutTtl',
          suggestions: [
            { messageId: 'addDefaultExpiry', output: `${UP}await redis.set(key, json, { ex: 86400 });` },
            { messageId: 'addExpiryPlaceholder', output: `${UP}await redis.set(key, json, { ex: TTL_SECONDS });` },
            { messageId: 'addKeepTtl', output: `${UP}await redis.set(key, json, { keepTtl: true });` },
          ],
        },
      ],
    },
    {
      // SETNX whose reply is not used becomes SET ... EX ... NX
      code: `${IO}await redis.setnx(seen, '1');`,
      options: FIX,
      settings: DEFAULT_TTL,
      output: `${IO}await redis.set(seen, '1', 'EX', 86400, 'NX');`,
      errors: [
        {
          messageId: 'createWithoutTtl',
          suggestions: [
            { messageId: 'addDefaultExpiry', output: `${IO}await redis.set(seen, '1', 'EX', 86400, 'NX');` },
            { messageId: 'addExpiryPlaceholder', output: `${IO}await redis.set(seen, '1', 'EX', TTL_SECONDS, 'NX');` },
          ],
        },
      ],
    },
    {
      // a lock by SETNX: no fix, a lock-sized placeholder
      code: `${IO}await redis.setnx(lock, token);`,
      options: FIX,
      settings: DEFAULT_TTL,
      output: null,
      errors: [
        {
          messageId: 'createWithoutTtl',
          suggestions: [{ messageId: 'addExpiryPlaceholder', data: { name: 'LOCK_TTL_SECONDS' }, output: `${IO}await redis.set(lock, token, 'EX', LOCK_TTL_SECONDS, 'NX');` }],
        },
      ],
    },
    {
      // SETNX whose reply is used (1 / 0, where SET NX replies 'OK' / null): suggestions only, each
      // turning SET NX's reply back into SETNX's (round 40)
      code: `${IO}const got = await redis.setnx(seen, '1');`,
      options: FIX,
      settings: DEFAULT_TTL,
      output: null,
      errors: [
        {
          messageId: 'createWithoutTtl',
          suggestions: [
            { messageId: 'addDefaultExpiry', output: `${IO}const got = await redis.set(seen, '1', 'EX', 86400, 'NX').then((reply) => (reply === 'OK' ? 1 : 0));` },
            { messageId: 'addExpiryPlaceholder', output: `${IO}const got = await redis.set(seen, '1', 'EX', TTL_SECONDS, 'NX').then((reply) => (reply === 'OK' ? 1 : 0));` },
          ],
        },
      ],
    },
    {
      // MSET: the MULTI rewrite changes the reply, so never a fix
      code: `${IO}await redis.mset({ a: '1' });`,
      options: FIX,
      settings: DEFAULT_TTL,
      output: null,
      errors: [
        {
          messageId: 'msetWithoutTtl',
          suggestions: [{ messageId: 'expireEachKey', output: `${IO}await redis.multi().mset({ a: '1' }).expire("a", TTL_SECONDS).exec();` }],
        },
      ],
    },
  ],
});
