/**
 * Bun's built-in client (issue 26, item 1): `new RedisClient(url)` and the default `redis` export
 * of `bun` (imported, through `import * as bun`, or the global `Bun.redis` / `new
 * Bun.RedisClient()`), typed (with `@types/bun`) and untyped. Its command methods take ioredis-style
 * tokens (`set(key, value, 'EX', 60)`); `send('SETEX', [...])` is read as the command it names.
 * Suggestions are in Bun's own form: `send` takes strings only (`String(TTL_SECONDS)`), and so does
 * `set`'s variadic overload past `'EX', seconds`; Bun's client has no `multi()`, so an INCR and its
 * EXPIRE get no MULTI suggestion. Bun's other exports (`CookieMap`) are no clients.
 */
import incrRule from '../../../rules/incr-needs-expire-on-create.js';
import setRule from '../../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, setSuggestions, typedTester, untypedTester } from '../tester.js';

const client = (body: string): string => `import { RedisClient } from 'bun';\nconst cache = new RedisClient('redis://localhost:6379');\n${body}`;
const defaultClient = (body: string): string => `import { redis } from 'bun';\n${body}`;
const namespace = (body: string): string => `import * as bun from 'bun';\nconst cache = new bun.RedisClient();\n${body}`;
const global = (body: string): string => `const cache = new Bun.RedisClient();\n${body}`;

/** The two suggestions with the expiry as a string (Bun's `send` args and variadic `set` options). */
function stringSuggestions(code: string, call: string) {
  return [
    { messageId: 'addExpiryPlaceholder' as const, output: code.replace(call, `${call}, 'EX', String(TTL_SECONDS)`) },
    { messageId: 'addKeepTtl' as const, output: code.replace(call, `${call}, 'KEEPTTL'`) },
  ];
}

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl', setRule, {
    valid: [
      client("await cache.set(`s:${id}`, 'v', 'EX', 60);"),
      client("await cache.set(`s:${id}`, 'v', 'PX', 500);"),
      client("await cache.send('SETEX', [`s:${id}`, '60', 'v']);"),
      client("await cache.send('SET', [`s:${id}`, 'v', 'EX', '60']);"),
      defaultClient("await redis.set(`s:${id}`, 'v', 'KEEPTTL');"),
      defaultClient("await redis.setex(`s:${id}`, 60, 'v');"),
      // Bun's CookieMap has set(name, value): no Redis client, whatever its name
      "import { CookieMap } from 'bun';\nconst redis = new CookieMap();\nredis.set(`s:${id}`, 'v');",
    ],
    invalid: [
      {
        code: client("await cache.set(`s:${id}`, 'v');"),
        errors: [{ messageId: 'setWithoutTtl', line: 3, column: 13, suggestions: setSuggestions(client("await cache.set(`s:${id}`, 'v');"), "cache.set(`s:${id}`, 'v'") }],
      },
      {
        code: defaultClient("export const save = (id: string) => redis.set(`s:${id}`, 'v');"),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 2,
            column: 43,
            suggestions: setSuggestions(defaultClient("export const save = (id: string) => redis.set(`s:${id}`, 'v');"), "redis.set(`s:${id}`, 'v'"),
          },
        ],
      },
      {
        code: namespace("cache.set(`s:${id}`, 'v');\nbun.redis.set(`r:${id}`, 'v');"),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 7,
            suggestions: setSuggestions(namespace("cache.set(`s:${id}`, 'v');\nbun.redis.set(`r:${id}`, 'v');"), "cache.set(`s:${id}`, 'v'"),
          },
          {
            messageId: 'setWithoutTtl',
            line: 4,
            column: 11,
            suggestions: setSuggestions(namespace("cache.set(`s:${id}`, 'v');\nbun.redis.set(`r:${id}`, 'v');"), "bun.redis.set(`r:${id}`, 'v'"),
          },
        ],
      },
      {
        code: global("cache.set(`s:${id}`, 'v');\nBun.redis.set(`r:${id}`, 'v');"),
        errors: [
          {
            messageId: 'setWithoutTtl',
            line: 2,
            column: 7,
            suggestions: setSuggestions(global("cache.set(`s:${id}`, 'v');\nBun.redis.set(`r:${id}`, 'v');"), "cache.set(`s:${id}`, 'v'"),
          },
          {
            messageId: 'setWithoutTtl',
            line: 3,
            column: 11,
            suggestions: setSuggestions(global("cache.set(`s:${id}`, 'v');\nBun.redis.set(`r:${id}`, 'v');"), "Bun.redis.set(`r:${id}`, 'v'"),
          },
        ],
      },
      {
        // send(cmd, args: string[]): the expiry goes in as a string
        code: client("await cache.send('SET', [`s:${id}`, 'v']);"),
        errors: [{ messageId: 'setWithoutTtl', line: 3, column: 18, suggestions: stringSuggestions(client("await cache.send('SET', [`s:${id}`, 'v']);"), "cache.send('SET', [`s:${id}`, 'v'") }],
      },
      {
        // set(key, value, ...options: string[]) once there is more than 'EX', seconds
        code: defaultClient("await redis.set(`lock:${id}`, '1', 'NX');"),
        errors: [
          {
            messageId: 'createWithoutTtl',
            line: 2,
            column: 13,
            suggestions: [
              { messageId: 'addExpiryPlaceholder', output: defaultClient("await redis.set(`lock:${id}`, '1', 'EX', String(LOCK_TTL_SECONDS), 'NX');") },
            ],
          },
        ],
      },
    ],
  });

  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: [defaultClient("await redis.send('EVAL', [\"local n = redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], 60) return n\", '1', `c:${id}`]);")],
    invalid: [
      {
        // no multi() on Bun's client: no suggestion to move the INCR into one
        code: defaultClient('export async function hit(id: string) {\n  const n = await redis.incr(`hits:${id}`);\n  if (n === 1) await redis.expire(`hits:${id}`, 60);\n  return n;\n}'),
        errors: [{ messageId: 'separateRoundTrip', line: 3, column: 25 }],
      },
      {
        code: client('await cache.hset(`h:${id}`, { a: \'1\' });\nawait cache.expire(`h:${id}`, 60);'),
        errors: [{ messageId: 'separateRoundTrip', line: 3, column: 13 }],
      },
    ],
  });
}

// With type information, a client the checker alone can tell (a declared return type of bun's)
runRule(typedTester, 'set-requires-ttl-or-keepttl (typed only)', setRule, {
  valid: ["import type { CookieMap } from 'bun';\ndeclare function cookies(): CookieMap;\nconst redis = cookies();\nredis.set(`s:${id}`, 'v');"],
  invalid: [
    {
      code: "declare function getCache(): import('bun').RedisClient;\nconst c = getCache();\nc.set(`s:${id}`, 'v');",
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 3,
          suggestions: setSuggestions("declare function getCache(): import('bun').RedisClient;\nconst c = getCache();\nc.set(`s:${id}`, 'v');", "c.set(`s:${id}`, 'v'"),
        },
      ],
    },
  ],
});
