import rule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester, upstash } from './tester.js';

/** `code` with the import the incrementWithTtl suggestion adds, after the file's last import line. */
function withIncrementImport(code: string): string {
  const lines = code.split('\n');
  let i = 0;
  while (lines[i]?.startsWith('import ')) i++;
  lines.splice(i, 0, `import { incrementWithTtl } from 'redis-ttl-runtime';`);
  return lines.join('\n');
}

runRule(untypedTester, 'incr-needs-expire-on-create', rule, {
  valid: [
    ioredis(`redis.multi().incr(key).expire(key, 60).exec();`),
    ioredis(`redis.multi().hincrby(key, 'f', 1).pexpire(key, 60_000).exec();`),
    ioredis(`redis.multi([['incr', key], ['pexpire', key, 60_000]]).exec();`),
    ioredis(`redis.multi().lpush(key, v).ltrim(key, 0, 99).expire(key, 60, 'NX').exec();`),
    ioredis(`redis.pipeline().incr(key).expire(key, 60).exec();`),
    ioredis(`const m = redis.multi();\nm.incr(key);\nm.expire(key, 60);\nawait m.exec();`),
    ioredis(`const K = 'hits';\nredis.multi().incr(K).expire('hits', 60).exec();`),
    ioredis(`redis.multi().sadd(\`seen:\${u}\`, item).expire(\`seen:\${u}\`, 60).exec();`),
    ioredis(`redis.multi().incr(key).set(key, '0', 'EX', 10).exec();`),
    ioredis(`redis.multi().incr(key).get(key).del(key).exec();`),
    ioredis(`redis.get(key); redis.lpushx(key, v); redis.zadd(key, 'XX', 1, 'm'); redis.xadd(key, 'NOMKSTREAM', '*', 'f', 'v');`),
    ioredis(`redis.set(key, v); redis.setnx(key, v); redis.getset(key, v);`), // other rules' findings
    ioredis(`redis.incr(...args);`),
    nodeRedis(`client.multi().incr(key).expire(key, 60).exec();`),
    nodeRedis(`client.multi().hIncrBy(key, 'f', 1).pExpire(key, 60000).exec();`),
    nodeRedis(`client.multi().xAdd(key, '*', { a: '1' }).expire(key, 60).exec();`),
    upstash(`redis.multi().sadd(key, 'm').expire(key, 60).exec();`),
    ioredis(`const tx = redis.multi().incr(key);\ntx.expire(key, 60);\nawait tx.exec();`),
    upstash(`const tx = redis.multi();\ntx.hincrby(key, 'f', 1);\ntx.expire(key, 60);\nawait tx.exec();`),
    {
      code: ioredis(`redis.multi().incr(key).expire(key, 60).exec();`),
      options: [{ allowPipeline: false }],
    },
    // not Redis
    `const counts = new Map<string, number>();\ncounts.set('a', 1);`,
    // the generic name \`client\` counts only in a file that imports a Redis client (memcached has incr too)
    `client.incr('hits', 1, () => {});`,
    `const stats = { incr(k: string) { return k; } };\nstats.incr('a');`,
  ],
  invalid: [
    {
      code: `const { createClient } = require('redis');\nclient.incr('hits');`,
      options: [{ allowConstantKeys: false }],
      errors: [{ messageId: 'noExpiry', line: 2, column: 8, suggestions: [{ messageId: 'wrapInMulti', output: `const { createClient } = require('redis');\nclient.multi().incr('hits').expire('hits', TTL_SECONDS).exec();` }] }],
    },
    {
      code: `redisClient.incr('hits');`,
      options: [{ allowConstantKeys: false }],
      errors: [{ messageId: 'noExpiry', line: 1, column: 13, suggestions: [{ messageId: 'wrapInMulti', output: `redisClient.multi().incr('hits').expire('hits', TTL_SECONDS).exec();` }] }],
    },
    {
      code: `this.cache.incr('hits');`,
      options: [{ allowConstantKeys: false }],
      settings: { 'redis-ttl': { clientNames: ['^cache$'] } },
      errors: [{ messageId: 'noExpiry', line: 1, column: 12, suggestions: [{ messageId: 'wrapInMulti', output: `this.cache.multi().incr('hits').expire('hits', TTL_SECONDS).exec();` }] }],
    },
    {
      code: ioredis(`const n = await redis.incr(key);\nawait redis.expire(key, 60);`),
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 3,
          column: 23,
          endLine: 3,
          endColumn: 32,
          suggestions: [
            // the reply is read: no MULTI (EXEC replies an array)
            { messageId: 'useIncrementWithTtl', output: withIncrementImport(ioredis(`const { value: n } = await incrementWithTtl(redis, key, { ttlMs: 60000, mode: 'sliding' });`)) },
          ],
        },
      ],
    },
    {
      code: ioredis(`async function hit(key: string) {\n  const n = await redis.incr(key);\n  if (n === 1) await redis.expire(key, 60);\n}`),
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          column: 25,
          suggestions: [
            // no MULTI: the reply is read (EXEC would reply an array) and the expiry is guarded
            { messageId: 'useIncrementWithTtl', output: withIncrementImport(ioredis(`async function hit(key: string) {\n  const { value: n } = await incrementWithTtl(redis, key, { ttlMs: 60000 });\n}`)) },
          ],
        },
      ],
    },
    {
      code: ioredis(`await Promise.all([redis.incr(key), redis.expire(key, 60)]);`),
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 3,
          column: 26,
          // the reply goes into Promise.all's result and the expiry cannot be removed alone: no MULTI
          suggestions: [],
        },
      ],
    },
    {
      code: ioredis(`redis.sadd(\`seen:\${u}\`, item);`),
      errors: [
        {
          messageId: 'noExpiry',
          line: 3,
          column: 7,
          suggestions: [
            {
              messageId: 'wrapInMulti',
              data: { command: 'SADD', expire: 'expire(`seen:${u}`, TTL_SECONDS)', declare: '; declare TTL_SECONDS with the TTL this key needs' },
              output: ioredis(`redis.multi().sadd(\`seen:\${u}\`, item).expire(\`seen:\${u}\`, TTL_SECONDS).exec();`),
            },
          ],
        },
      ],
    },
    {
      code: ioredis(`redis.multi().incr(key).expire(\`\${key}:meta\`, 60).exec();`),
      errors: [
        {
          messageId: 'noExpiry',
          line: 3,
          column: 15,
          suggestions: [
            {
              messageId: 'appendExpire',
              data: { expire: 'expire(key, TTL_SECONDS)', declare: '; declare TTL_SECONDS with the TTL this key needs' },
              output: ioredis(`redis.multi().incr(key).expire(key, TTL_SECONDS).expire(\`\${key}:meta\`, 60).exec();`),
            },
          ],
        },
      ],
    },
    {
      code: ioredis(`redis.multi().expire(key, 60).incr(key).exec();`),
      errors: [
        {
          // an EXPIRE queued before the write is a no-op on a missing key: its own message
          messageId: 'expiryBeforeCreate',
          line: 3,
          column: 31,
          suggestions: [{ messageId: 'appendExpire', output: ioredis(`redis.multi().expire(key, 60).incr(key).expire(key, 60).exec();`) }],
        },
      ],
    },
    {
      code: ioredis(`redis.multi().incr(key).expire(key, 60, 'XX').exec();`),
      errors: [
        {
          messageId: 'noExpiry',
          line: 3,
          column: 15,
          suggestions: [{ messageId: 'appendExpire', output: ioredis(`redis.multi().incr(key).expire(key, TTL_SECONDS).expire(key, 60, 'XX').exec();`) }],
        },
      ],
    },
    {
      code: ioredis(`redis.multi([['incr', key]]).exec();`),
      errors: [
        {
          messageId: 'noExpiry',
          line: 3,
          column: 15,
          suggestions: [{ messageId: 'appendExpire', output: ioredis(`redis.multi([['incr', key], ['expire', key, TTL_SECONDS]]).exec();`) }],
        },
      ],
    },
    {
      code: ioredis(`redis.pipeline().incr(key).expire(key, 60).exec();`),
      options: [{ allowPipeline: false }],
      errors: [
        {
          messageId: 'pipelineNotAtomic',
          line: 3,
          column: 18,
          suggestions: [{ messageId: 'useMulti', output: ioredis(`redis.multi().incr(key).expire(key, 60).exec();`) }],
        },
      ],
    },
    {
      code: ioredis(`redis.sunionstore('dest', 'a', 'b');`),
      options: [{ allowConstantKeys: false }],
      errors: [
        {
          messageId: 'noExpiry',
          line: 3,
          column: 7,
          suggestions: [{ messageId: 'wrapInMulti', output: ioredis(`redis.multi().sunionstore('dest', 'a', 'b').expire('dest', TTL_SECONDS).exec();`) }],
        },
      ],
    },
    {
      code: ioredis(`await redis.zadd(key, now, id);\nawait redis.pexpire(key, windowMs);`),
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 3,
          column: 13,
          suggestions: [
            {
              messageId: 'wrapInMulti',
              data: { command: 'ZADD', expire: 'pexpire(key, windowMs)', declare: '' },
              // the separate expiry moves into the MULTI
              output: ioredis(`await redis.multi().zadd(key, now, id).pexpire(key, windowMs).exec();`),
            },
          ],
        },
      ],
    },
    {
      code: nodeRedis(`await client.hIncrBy(key, 'count', 1);`),
      errors: [
        {
          messageId: 'noExpiry',
          line: 3,
          column: 14,
          suggestions: [
            { messageId: 'wrapInMulti', output: nodeRedis(`await client.multi().hIncrBy(key, 'count', 1).expire(key, TTL_SECONDS).exec();`) },
          ],
        },
      ],
    },
    {
      code: nodeRedis(`client.multi().incr(k).expire(k, 60).execAsPipeline();`),
      options: [{ allowPipeline: false }],
      errors: [
        {
          messageId: 'pipelineNotAtomic',
          line: 3,
          column: 16,
          suggestions: [{ messageId: 'useMulti', output: nodeRedis(`client.multi().incr(k).expire(k, 60).exec();`) }],
        },
      ],
    },
    {
      code: nodeRedis(`const TTL_MS = 5000;\nclient.multi().lPush(k, v).exec();`),
      errors: [
        {
          messageId: 'noExpiry',
          line: 4,
          column: 16,
          suggestions: [
            {
              messageId: 'appendExpire',
              data: { expire: 'pexpire(k, TTL_MS)', declare: '' },
              output: nodeRedis(`const TTL_MS = 5000;\nclient.multi().lPush(k, v).pExpire(k, TTL_MS).exec();`),
            },
          ],
        },
      ],
    },
    {
      code: upstash(`const TTL_MS = 5000;\nawait redis.lpush(key, v);`),
      errors: [
        {
          messageId: 'noExpiry',
          line: 4,
          column: 13,
          suggestions: [
            { messageId: 'wrapInMulti', output: upstash(`const TTL_MS = 5000;\nawait redis.multi().lpush(key, v).pexpire(key, TTL_MS).exec();`) },
          ],
        },
      ],
    },
    {
      code: upstash(`const p = redis.pipeline();\np.incr(key);\np.expire(key, 60);\nawait p.exec();`),
      options: [{ allowPipeline: false }],
      errors: [
        {
          messageId: 'pipelineNotAtomic',
          line: 4,
          column: 3,
          suggestions: [{ messageId: 'useMulti', output: upstash(`const p = redis.multi();\np.incr(key);\np.expire(key, 60);\nawait p.exec();`) }],
        },
      ],
    },
  ],
});

runRule(typedTester, 'incr-needs-expire-on-create (typed)', rule, {
  valid: [
    `import Redis from 'ioredis';\nconst r = new Redis();\nexport const hit = (k: string) => r.multi().incr(k).expire(k, 60).exec();`,
    `const redis = { incr: (k: string) => k };\nredis.incr('a');`,
  ],
  invalid: [
    {
      code: `import type { ChainableCommander } from 'ioredis';\nexport function queue(batch: ChainableCommander, k: string) {\n  batch.incr(k);\n}`,
      errors: [
        {
          messageId: 'noExpiry',
          line: 3,
          column: 9,
          suggestions: [
            {
              messageId: 'appendExpire',
              output: `import type { ChainableCommander } from 'ioredis';\nexport function queue(batch: ChainableCommander, k: string) {\n  batch.incr(k).expire(k, TTL_SECONDS);\n}`,
            },
          ],
        },
      ],
    },
  ],
});
