/**
 * Callers of pass-through facades (issue 25, item 3; `redis-calls/facades.ts`): a method or
 * function named after the command it forwards its key parameter to is left alone where it is
 * (`allowPassThrough`), and each call of it is read as that command, at the caller's line and
 * column, with the caller's key and arguments. The facade may be a class method (also forwarding
 * from a `new Promise` executor with a node-style callback), a method of a `const` object literal,
 * a function of the module, or any of those imported from another module of the code (named,
 * renamed, default, namespace, `require`); one facade may forward to another. A bounded or
 * constant key at the caller is clean (each paired with the same facade given an unbounded key,
 * reported); a facade that expires its key itself is judged where it is, not at its callers; a
 * TTL the caller passes through the facade (or a default the facade gives it) counts.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import type { RunTests } from '@typescript-eslint/rule-tester';
import type { KeyPolicyOptions } from '../../redis-calls/policy.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester } from './tester.js';

/** A file next to the facade modules of tests/fixtures/facades (presence.ts, store.ts, rooms.ts, legacy.cjs). */
const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'facades', 'app.ts');

// ---- same module -------------------------------------------------------------------------

/** A class facade: `incr` forwards its key; line 6 is the caller. */
const counter = (call: string): string =>
  ioredis(`class Counter {\n  incr(key: string) { return redis.incr(key); }\n}\nconst counter = new Counter();\nexport const hit = (id: string, plan: 'free' | 'pro') =>\n  ${call};`);

/** Handed case 27's shape: forwarding from a `new Promise` executor with a node-style callback. */
const presence = (call: string): string =>
  ioredis(
    `export class Presence {\n  hincrby(key: string, field: string, by: number) {\n    return new Promise<number>((resolve, reject) => {\n      redis.hincrby(key, field, by, (err, n) => (err ? reject(err) : resolve(n as number)));\n    });\n  }\n}\nexport async function vote(p: Presence, id: string) {\n  await ${call};\n}`,
  );

/** A method of a `const` object literal, a module function, and a facade forwarding to the function. */
const functions = (call: string): string =>
  nodeRedis(
    `function zAdd(key: string, score: number, value: string) {\n  return client.zAdd(key, { score, value });\n}\nconst store = {\n  hSet: (key: string, field: string, value: string) => client.hSet(key, field, value),\n  zAdd(key: string, score: number, value: string) { return zAdd(key, score, value); },\n};\nexport const track = (id: string) => ${call};`,
  );

/** A TTL through the facade: the caller's rest arguments, a SETEX, a default mode. */
const cache = (call: string): string =>
  ioredis(
    `class Cache {\n  set(key: string, value: string, ...args: Array<string | number>) { return redis.set(key, value, ...args); }\n  setex(key: string, seconds: number, value: string) { return redis.setex(key, seconds, value); }\n  incr(key: string) { return redis.incr(key); }\n  expire(key: string, seconds: number) { return redis.expire(key, seconds); }\n}\nconst cache = new Cache();\nexport async function put(id: string, v: string) {\n  ${call};\n}`,
  );

/** A facade that expires its key itself, in a second round trip (line 5), and its caller (line 9). */
const expiresItself = ioredis(
  'class Counter {\n  async incr(key: string) {\n    await redis.incr(key);\n    await redis.expire(key, 60);\n  }\n}\nexport const hit = (id: string) => new Counter().incr(`hits:${id}`);',
);

/** A default mode the facade gives its caller. */
const keepTtl = (call: string): string =>
  ioredis(`class Store {\n  set(key: string, value: string, mode = 'KEEPTTL') { return redis.set(key, value, mode); }\n}\nconst store = new Store();\nexport const put = (id: string, v: string) => ${call};`);

const sameModule: RunTests<'noExpiry' | 'separateRoundTrip' | 'wrapInMulti' | 'useIncrementWithTtl', [KeyPolicyOptions]> = {
  valid: [
    // a constant key, a key over a union of literals: bounded, like at a client call
    counter("counter.incr('hits:total')"),
    counter('counter.incr(`hits:${plan}`)'),
    // a facade that expires its key itself, atomically: nothing to report, here or at the caller
    ioredis("class Counter {\n  incr(key: string) { return redis.multi().incr(key).expire(key, 60).exec(); }\n}\nexport const hit = (id: string) => new Counter().incr(`hits:${id}`);"),
    // the caller's TTL: an expiry through the rest parameter, a SETEX
    cache("await cache.set(`s:${id}`, v, 'EX', 60)"),
    cache('await cache.setex(`s:${id}`, 60, v)'),
  ],
  invalid: [
    { code: counter('counter.incr(`hits:${id}`)'), errors: [{ messageId: 'noExpiry' as const, line: 8, column: 11 }] },
    { code: presence("p.hincrby(`votes:${id}`, 'up', 1)"), errors: [{ messageId: 'noExpiry' as const, line: 11, column: 11 }] },
    // the facade called on `this` in its own class
    {
      code: ioredis('export class Counter {\n  incr(key: string) { return redis.incr(key); }\n  hit(id: string) { return this.incr(`hits:${id}`); }\n}'),
      errors: [{ messageId: 'noExpiry' as const, line: 5, column: 33 }],
    },
    { code: functions("store.hSet(`seen:${id}`, 'at', '1')"), errors: [{ messageId: 'noExpiry' as const, line: 10, column: 44 }] },
    { code: functions("zAdd(`rank:${id}`, 1, 'a')"), errors: [{ messageId: 'noExpiry' as const, line: 10, column: 38 }] },
    // two levels: store.zAdd -> zAdd -> client.zAdd
    { code: functions("store.zAdd(`rank:${id}`, 1, 'a')"), errors: [{ messageId: 'noExpiry' as const, line: 10, column: 44 }] },
    // a facade that expires its key in a second round trip: judged where it is, its caller is not
    {
      code: expiresItself,
      errors: [
        {
          messageId: 'separateRoundTrip' as const,
          line: 5,
          column: 17,
          suggestions: [
            {
              messageId: 'useIncrementWithTtl' as const,
              output: expiresItself
                .replace("'ioredis';\n", "'ioredis';\nimport { incrementWithTtl } from 'redis-ttl-runtime';\n")
                .replace('await redis.incr(key);\n    await redis.expire(key, 60);', "await incrementWithTtl(redis, key, { ttlMs: 60000, mode: 'sliding' });"),
            },
            {
              messageId: 'wrapInMulti' as const,
              output: expiresItself.replace('redis.incr(key);\n    await redis.expire(key, 60);', 'redis.multi().incr(key).expire(key, 60).exec();'),
            },
          ],
        },
      ],
    },
    // the caller's expiry through another facade, in a second round trip
    {
      code: cache('await cache.incr(`n:${id}`);\n  await cache.expire(`n:${id}`, 60)'),
      errors: [{ messageId: 'separateRoundTrip' as const, line: 11, column: 15 }],
    },
    // strict (`allowPassThrough: false`) judges the facade itself, not its callers
    { code: counter('counter.incr(`hits:${id}`)'), options: [{ allowPassThrough: false }], errors: [{ messageId: 'noExpiry' as const, line: 4, column: 36 }] },
  ],
};

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', incrRule, sameModule);
  runRule(tester, 'set-requires-ttl-or-keepttl', setRule, {
    valid: [
      cache("await cache.set(`s:${id}`, v, 'EX', 60)"),
      cache("await cache.set(`s:${id}`, v, 'KEEPTTL')"),
      // the facade's default mode when the caller leaves it out
      keepTtl('store.set(`s:${id}`, v)'),
    ],
    invalid: [
      // no suggestion: the caller's syntax is the facade's, the fix belongs in the facade
      { code: cache('await cache.set(`s:${id}`, v)'), errors: [{ messageId: 'setWithoutTtl', line: 11, column: 15, suggestions: [] }] },
      { code: keepTtl("store.set(`s:${id}`, v, 'NX')"), errors: [{ messageId: 'createWithoutTtl', line: 7, column: 53, suggestions: [] }] },
    ],
  });
}

// ---- facades of other modules (read as written: without type information) -----------------

runRule(untypedTester, 'incr-needs-expire-on-create (imported facades)', incrRule, {
  valid: [
    // bounded keys through imported facades
    { code: "import { presence } from './presence';\nexport const join = (id: string) => presence.sadd('online', id);", filename: app },
    { code: "import { incr } from './store';\nexport const hit = (plan: 'free' | 'pro') => incr(`plan:${plan}`);", filename: app },
    // a facade that expires its key itself (store.ts lPush, reported there) and one named after its data
    { code: "import { lPush } from './store';\nexport const log = (id: string) => lPush(`log:${id}`, 'x');", filename: app },
    { code: "import { rememberVisit } from './store';\nexport const visit = (id: string) => rememberVisit(`v:${id}`);", filename: app },
  ],
  invalid: [
    // named: an instance, the class (`new`, an annotated parameter, a member fixed in the class)
    { code: "import { presence } from './presence';\nexport const join = (id: string) => presence.sadd(`online:${id}`, id);", filename: app, errors: [{ messageId: 'noExpiry', line: 2, column: 46 }] },
    { code: "import { Presence } from './presence';\nexport const join = (id: string) => new Presence().sadd(`online:${id}`, id);", filename: app, errors: [{ messageId: 'noExpiry', line: 2, column: 52 }] },
    { code: "import { Presence } from './presence';\nexport const vote = (p: Presence, id: string) => p.hincrby(`votes:${id}`, 'up', 1);", filename: app, errors: [{ messageId: 'noExpiry', line: 2, column: 52 }] },
    {
      code: "import { Presence } from './presence';\nexport class Rooms {\n  private readonly presence = new Presence();\n  join(room: string, id: string) { return this.presence.sadd(`room:${room}`, id); }\n}",
      filename: app,
      errors: [{ messageId: 'noExpiry', line: 4, column: 57 }],
    },
    { code: "import { incr } from './store';\nexport const hit = (id: string) => incr(`hits:${id}`);", filename: app, errors: [{ messageId: 'noExpiry', line: 2, column: 36 }] },
    // renamed: the facade is named after its command where it is written
    { code: "import { incr as bump } from './store.js';\nexport const hit = (id: string) => bump(`hits:${id}`);", filename: app, errors: [{ messageId: 'noExpiry', line: 2, column: 36 }] },
    // default, namespace, require (whole module, destructured and renamed)
    { code: "import presence from './presence';\nexport const join = (id: string) => presence.sadd(`online:${id}`, id);", filename: app, errors: [{ messageId: 'noExpiry', line: 2, column: 46 }] },
    { code: "import * as store from './store';\nexport const save = (id: string) => store.hSet(`h:${id}`, 'f', 'v');", filename: app, errors: [{ messageId: 'noExpiry', line: 2, column: 43 }] },
    { code: "const legacy = require('./legacy.cjs');\nexport const join = (id: string) => legacy.sAdd(`online:${id}`, id);", filename: app, errors: [{ messageId: 'noExpiry', line: 2, column: 44 }] },
    { code: "const { sAdd: add } = require('./legacy.cjs');\nexport const join = (id: string) => add(`online:${id}`, id);", filename: app, errors: [{ messageId: 'noExpiry', line: 2, column: 37 }] },
    // two levels across modules: rooms.sadd -> presence.sadd -> this.pub.sadd
    { code: "import { rooms } from './rooms';\nexport const join = (id: string) => rooms.sadd(`room:${id}`, id);", filename: app, errors: [{ messageId: 'noExpiry', line: 2, column: 43 }] },
  ],
});

// The message names the facade and where it forwards the key
runRule(untypedTester, 'set-requires-ttl-or-keepttl (imported facades)', setRule, {
  valid: [],
  invalid: [
    {
      code: "import { presence } from './presence';\nexport const mark = (id: string) => presence.set(`p:${id}`, '1');",
      filename: app,
      errors: [
        {
          messageId: 'setWithoutTtl',
          // (the persistent-key hint is dropped: the message would pass 300 characters)
          data: { command: 'SET', key: 'p:*', client: ' (`presence.set` forwards the key to SET, ./presence.ts:22.)', hint: '' },
          line: 2,
          column: 46,
        },
      ],
    },
  ],
});
