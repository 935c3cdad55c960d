/**
 * iovalkey (the Valkey project's fork of ioredis, same API) is an ioredis-family client (issue 26,
 * item 1): default and named imports, `require`, `new Redis()`, `new Cluster()` and
 * `Redis.Cluster`, MULTI and pipelines, `defineCommand` / `eval` (in embedded-lua.test.ts), typed
 * and untyped. Its findings, messages and suggestions are ioredis' (positional tokens, `multi()`,
 * the runtime's `incrementWithTtl`); every suggestion is applied and re-linted by `runRule`.
 */
import incrRule from '../../../rules/incr-needs-expire-on-create.js';
import noGetset from '../../../rules/no-getset.js';
import setRule from '../../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, setSuggestions, typedTester, untypedTester } from '../tester.js';

const defaultImport = (body: string): string => `import Redis from 'iovalkey';\nconst redis = new Redis();\n${body}`;
const namedValkey = (body: string): string => `import Valkey from 'iovalkey';\nconst valkey = new Valkey(process.env.VALKEY_URL);\n${body}`;
const cluster = (body: string): string => `import { Cluster } from 'iovalkey';\nconst redis = new Cluster([{ host: 'localhost', port: 7000 }]);\n${body}`;
const redisCluster = (body: string): string => `import Redis from 'iovalkey';\nconst redis = new Redis.Cluster([{ host: 'localhost', port: 7000 }]);\n${body}`;
const required = (body: string): string => `const Redis = require('iovalkey');\nconst redis = new Redis();\n${body}`;

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl', setRule, {
    valid: [
      defaultImport("redis.set(`s:${id}`, v, 'EX', 60);"),
      cluster("redis.set(`s:${id}`, v, 'PX', 500, 'NX');"),
      redisCluster("redis.set(`s:${id}`, v, 'KEEPTTL');"),
      namedValkey('valkey.setex(`s:${id}`, 60, v);'),
      required("redis.multi().set(`s:${id}`, v).expire(`s:${id}`, 60).exec();"),
      // a Map named like a client is no client
      "import Redis from 'iovalkey';\nconst redis = new Map();\nredis.set(`s:${id}`, v);",
    ],
    invalid: [
      ...[defaultImport, cluster, redisCluster, required].map((wrap) => ({
        code: wrap('redis.set(`s:${id}`, v);'),
        errors: [{ messageId: 'setWithoutTtl' as const, line: 3, column: 7, suggestions: setSuggestions(wrap('redis.set(`s:${id}`, v);'), 'redis.set(`s:${id}`, v') }],
      })),
      {
        code: namedValkey('export const f = (id) => valkey.set(`session:${id}`, v);'),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 33,
            suggestions: setSuggestions(namedValkey('export const f = (id) => valkey.set(`session:${id}`, v);'), 'valkey.set(`session:${id}`, v'),
          },
        ],
      },
      {
        // a pipeline of iovalkey: the SET in it
        code: defaultImport('redis.pipeline().set(`p:${id}`, v).exec();'),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 18,
            suggestions: setSuggestions(defaultImport('redis.pipeline().set(`p:${id}`, v).exec();'), 'redis.pipeline().set(`p:${id}`, v'),
          },
        ],
      },
      {
        // a parameter typed with iovalkey's client type
        code: "import type { Redis } from 'iovalkey';\nexport function save(client: Redis, id: string) {\n  return client.set(`s:${id}`, 'v');\n}",
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 17,
            suggestions: setSuggestions("import type { Redis } from 'iovalkey';\nexport function save(client: Redis, id: string) {\n  return client.set(`s:${id}`, 'v');\n}", "client.set(`s:${id}`, 'v'"),
          },
        ],
      },
    ],
  });

  runRule(tester, 'no-getset', noGetset, {
    valid: [cluster("redis.set(`g:${id}`, v, 'KEEPTTL', 'XX', 'GET');")],
    invalid: [
      {
        code: cluster('redis.getset(`g:${id}`, v);'),
        errors: [
          {
            messageId: 'getset',
            line: 3,
            column: 7,
            suggestions: [{ messageId: 'useSetKeepTtl', output: cluster("redis.set(`g:${id}`, v, 'KEEPTTL', 'XX', 'GET');") }],
          },
        ],
      },
    ],
  });

  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: [
      defaultImport('redis.multi().incr(`c:${id}`).expire(`c:${id}`, 60).exec();'),
      redisCluster('const m = redis.multi();\nm.incr(`c:${id}`);\nm.expire(`c:${id}`, 60);\nawait m.exec();'),
    ],
    invalid: [
      {
        code: redisCluster('async function f() {\n  await redis.incr(`c:${id}`);\n  await redis.expire(`c:${id}`, 60);\n}'),
        errors: [
          {
            messageId: 'separateRoundTrip',
            line: 4,
            column: 15,
            suggestions: [
              {
                messageId: 'useIncrementWithTtl',
                output:
                  "import Redis from 'iovalkey';\nimport { incrementWithTtl } from 'redis-ttl-runtime';\nconst redis = new Redis.Cluster([{ host: 'localhost', port: 7000 }]);\nasync function f() {\n  await incrementWithTtl(redis, `c:${id}`, { ttlMs: 60000, mode: 'sliding' });\n}",
              },
              {
                messageId: 'wrapInMulti',
                output: redisCluster('async function f() {\n  await redis.multi().incr(`c:${id}`).expire(`c:${id}`, 60).exec();\n}'),
              },
            ],
          },
        ],
      },
    ],
  });
}
