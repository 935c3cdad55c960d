/**
 * A client handed to a callback's parameter (round 22, item 1: jevahapp-backend's
 * `engagementRedisSafe(label, async (r) => { await r.incr(k); ... })`). Untyped, the callback's
 * parameter is a client when the function it is passed to (of the module, a method of its class, or
 * imported: ES or CommonJS) calls that parameter with a client at that position, declares it as
 * taking one (`fn: (client: Redis) => Promise<T>`), or hands it on to a wrapper that does. A
 * wrapper that hands it only non-clients (declared or called), the wrong position, or a function
 * that cannot be read says nothing (or proves it no client, beating a name like `redis`); one that
 * hands a client in one branch and a Map or `null` in another hands a client.
 *
 * no-persist is the probe (no key policy, no suggestions); incr-needs-expire-on-create on the
 * application's own shape. Same-module cases run without and with type information, with the same
 * findings.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import noPersist from '../../rules/no-persist.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { positionOf, runRule, typedTester, untypedTester } from './tester.js';

/** A file next to the modules of tests/fixtures/callback-clients (wrap.ts, declared.ts, wrap.cjs). */
const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'callback-clients', 'app.ts');

/** A `persist` finding on the first `<receiver>.persist(` of `code` (reported at the method). */
const persistAt = (code: string, receiver: string) => {
  const { line, column } = positionOf(code, `${receiver}.persist(`);
  return { messageId: 'persist' as const, line, column: column + receiver.length + 1 };
};

const IO = `import Redis from 'ioredis';\nconst redis = new Redis();\n`;

/** Same module: wrappers whose callback's parameter is a client. */
const sameModuleClients = [
  // a declared callback type
  `${IO}function withRedis<T>(label: string, fn: (c: Redis) => Promise<T>) { return fn(redis); }\nexport const f = (id: string) => withRedis('x', async (r) => r.persist(\`s:\${id}\`));`,
  // an untyped arrow wrapper that calls its callback with the client
  `${IO}const withRedis = (fn) => fn(redis);\nexport const f = (id: string) => withRedis((r) => r.persist(\`s:\${id}\`));`,
  // a function expression as the callback, the client at the second position
  `${IO}function labelled(label, fn) { return fn(label, redis); }\nexport const f = (id: string) => labelled('x', function (label, r) { return r.persist(\`s:\${id}\`); });`,
  // a method of the class
  `${IO}export class Repo {\n  private run(fn) { return fn(redis); }\n  drop(id: string) { return this.run((r) => r.persist(\`s:\${id}\`)); }\n}`,
  // a client in one branch, a Map in the other: the client wherever that branch runs (breaker 22)
  `${IO}function either(flag: boolean, fn) { return flag ? fn(redis) : fn(new Map()); }\nexport const f = (id: string) => either(true, (r) => r.persist(\`s:\${id}\`));`,
  // a wrapper handing the callback on to another that calls it with the client
  `${IO}function inner(fn) { return fn(redis); }\nfunction outer(label, fn) { return inner(fn); }\nexport const f = (id: string) => outer('x', (r) => r.persist(\`s:\${id}\`));`,
];

/** Same module: wrappers whose callback's parameter is not a client, or not known to be one. */
const sameModuleOthers = [
  // declared a Map: proven no client, whatever the callback calls its parameter
  `${IO}function withStore(fn: (s: Map<string, string>) => void) { fn(new Map()); }\nexport const f = (id: string) => withStore((redis) => redis.persist(\`s:\${id}\`));`,
  // called with a Map, untyped
  `${IO}function withStore(fn) { return fn(new Map()); }\nexport const f = (id: string) => withStore((redis) => redis.persist(\`s:\${id}\`));`,
  // the client at another position than the callback's parameter
  `${IO}function withRedis(fn) { return fn(redis); }\nexport const f = (id: string) => withRedis((label, r) => r.persist(\`s:\${id}\`));`,
  // a callback of a method of something else (an array), and of a package's function
  `${IO}export const f = (ids: string[]) => ids.forEach((r) => r.persist(\`s:\${r}\`));`,
  `${IO}import pRetry from 'p-retry';\nexport const f = (id: string) => pRetry((r) => r.persist(\`s:\${id}\`));`,
  // a function declared apart and passed by name: only a callback written at the call is read
  `${IO}function withRedis(fn) { return fn(redis); }\nasync function work(r) { return r.persist('s:1'); }\nexport const f = () => withRedis(work);`,
  // the client passed as an argument after the callback, not to it
  `${IO}function after(fn, c) { return fn(c); }\nexport const f = (id: string) => after((r) => r.persist(\`s:\${id}\`), 'x');`,
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'no-persist', noPersist, {
    valid: sameModuleOthers,
    invalid: sameModuleClients.map((code) => ({ code, errors: [persistAt(code, 'r')] })),
  });
}

// Other modules of the code, read through the import (without type information: as written)
const imported = {
  esm: `import { withRedis } from './wrap';\nexport const f = (id: string) => withRedis('x', async (r) => r.persist(\`s:\${id}\`));`,
  forwarded: `import { safeRedis } from './wrap';\nexport const f = (id: string) => safeRedis('x', async (r) => r.persist(\`s:\${id}\`), 0);`,
  position: `import { labelled } from './wrap';\nexport const f = (id: string) => labelled('x', (label, conn) => conn.persist(\`s:\${id}\`));`,
  declared: `import { engagementSafe } from './declared';\nexport const f = (id: string) => engagementSafe('x', async (r) => r.persist(\`s:\${id}\`), 0);`,
  commonjs: `const { withRedis } = require('./wrap.cjs');\nexport const f = (id: string) => withRedis((r) => r.persist(\`s:\${id}\`));`,
  commonjsExpression: `const { withKv } = require('./wrap.cjs');\nexport const f = (id: string) => withKv((r) => r.persist(\`s:\${id}\`));`,
};
runRule(untypedTester, 'no-persist (imported wrappers)', noPersist, {
  valid: [
    // a wrapper of another module handing a Map (called or declared): no client, though named `redis`
    { code: `import { withStore } from './wrap';\nexport const f = (id: string) => withStore((redis) => redis.persist(\`s:\${id}\`));`, filename: app },
    { code: `import { withCache } from './declared';\nexport const f = (id: string) => withCache((redis) => redis.persist(\`s:\${id}\`));`, filename: app },
    // the client is the second argument, the callback's parameter the first
    { code: `import { labelled } from './wrap';\nexport const f = (id: string) => labelled('x', (r) => r.persist(\`s:\${id}\`));`, filename: app },
    // a wrapper of a module that cannot be read
    { code: `import { withRedis } from './missing';\nexport const f = (id: string) => withRedis('x', (r) => r.persist(\`s:\${id}\`));`, filename: app },
  ],
  invalid: [
    { code: imported.esm, filename: app, errors: [persistAt(imported.esm, 'r')] },
    { code: imported.forwarded, filename: app, errors: [persistAt(imported.forwarded, 'r')] },
    { code: imported.position, filename: app, errors: [persistAt(imported.position, 'conn')] },
    { code: imported.declared, filename: app, errors: [persistAt(imported.declared, 'r')] },
    { code: imported.commonjs, filename: app, errors: [persistAt(imported.commonjs, 'r')] },
    { code: imported.commonjsExpression, filename: app, errors: [persistAt(imported.commonjsExpression, 'r')] },
  ],
});

// jevahapp-backend's comment.version.ts: INCR then EXPIRE on the callback's client, in two round trips
const bump = `import { engagementSafe } from './declared';\nexport function bump(contentId: string) {\n  void engagementSafe(\n    'commentsVersionBump',\n    async (r) => {\n      const key = \`comments:ver:\${contentId}\`;\n      await r.incr(key);\n      await r.expire(key, 604800);\n      return true;\n    },\n    false,\n  );\n}`;
runRule(untypedTester, 'incr-needs-expire-on-create (imported wrapper)', incrRule, {
  valid: [{ code: bump.replace("from './declared'", "from './missing'"), filename: app }],
  invalid: [
    {
      code: bump,
      filename: app,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 7,
          column: 15,
          data: { command: 'INCR', key: 'comments:ver:*', line: '8', client: '', hint: '' },
          suggestions: [
            {
              messageId: 'useIncrementWithTtl',
              output: bump
                .replace("from './declared';\n", "from './declared';\nimport { incrementWithTtl } from 'redis-ttl-runtime';\n")
                .replace("await r.incr(key);\n      await r.expire(key, 604800);", "await incrementWithTtl(r, key, { ttlMs: 604800000, mode: 'sliding' });"),
            },
            { messageId: 'wrapInMulti', output: bump.replace("await r.incr(key);\n      await r.expire(key, 604800);", 'await r.multi().incr(key).expire(key, 604800).exec();') },
          ],
        },
      ],
    },
  ],
});
