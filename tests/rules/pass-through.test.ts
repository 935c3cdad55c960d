/**
 * Pass-through wrappers (issue 25, item 3): a facade method named after the command forwards its
 * own key parameter also from inside a promise executor or a callback written in it, and through a
 * key builder or fixed parts around the parameter. A builder is a function or method of the module
 * (also a class-field arrow) or a function another module of the code exports; its arguments that
 * are no part of the key it returns (a flag it only tests) do not count. Anything else stays
 * reported: a wrapper named after its data, a key mixing two parameters (also through a builder),
 * a function of a package, a function that is not passed to a call, a long executor.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, setSuggestions, typedTester, untypedTester, upstash } from './tester.js';

const passThrough = [
  // handed case 27's shapes: a promise executor with a node-style callback
  ioredis('export class Presence {\n  sadd(key: string, value: string) {\n    return new Promise((resolve) => {\n      redis.sadd(key, value, resolve);\n    });\n  }\n}'),
  ioredis(
    'export class Presence {\n  hincrby(key: string, field: string, by: number) {\n    return new Promise<number>((resolve, reject) => {\n      redis.hincrby(key, field, by, (err, n) => {\n        if (err) return reject(err);\n        resolve(n as number);\n      });\n    });\n  }\n}',
  ),
  // a callback of the wrapper's own promise chain (node-redis)
  nodeRedis('export class Cache {\n  constructor(private readonly ready: Promise<void>) {}\n  lPush(key: string, v: string) { return this.ready.then(() => client.lPush(key, v)); }\n}'),
  // a key builder of the module: a method, a function
  upstash('export class Store {\n  private buildKey(key: string) { return `app:${key}`; }\n  sadd(key: string, m: string) { return redis.sadd(this.buildKey(key), m); }\n}'),
  ioredis('const prefixed = (key: string) => `cache:${key}`;\nexport const incr = (key: string) => redis.incr(prefixed(key));'),
  // fixed parts around the parameter: a member fixed once per instance, a constant
  ioredis('export class Store {\n  constructor(private readonly prefix: string) {}\n  hset(key: string, f: string, v: string) { return redis.hset(`${this.prefix}:${key}`, f, v); }\n}'),
  nodeRedis("import { NAMESPACE } from './config';\nexport const sAdd = (key: string, m: string) => client.sAdd(NAMESPACE + key, m);"),
  // a builder with arguments that are no part of the key (a flag it only tests), JS and TS
  nodeRedis(
    'export class Connection {\n  constructor(urlOrClient, keyPrefix) { this.keyPrefix = keyPrefix; }\n  async set(baseKey, value, addKeyPrefix = true) { await client.set(this.buildKey(baseKey, addKeyPrefix), value); }\n  full(name) { return `${this.keyPrefix}_${name}`; }\n  buildKey(baseKey, addKeyPrefix) { return addKeyPrefix ? this.full(baseKey) : baseKey; }\n}',
  ),
  ioredis(
    'export class Cache {\n  constructor(private readonly prefix: string) {}\n  private key(k: string, raw: boolean) { return raw ? k : `${this.prefix}:${k}`; }\n  incr(k: string, raw = false) { return redis.incr(this.key(k, raw)); }\n}',
  ),
  // a builder written as a class field (an arrow reading a prefix member)
  ioredis(
    'export class Store {\n  namespace?: string;\n  constructor(namespace?: string) { this.namespace = namespace; }\n  ns = (key: string) => (this.namespace ? `${this.namespace}:${key}` : key);\n  zadd(key: string, score: number, m: string) { return redis.zadd(this.ns(key), score, m); }\n}',
  ),
  // a builder returning a template with a prefix member, as a method and as a function property
  upstash('export class Limits {\n  prefix = "rl";\n  private k(key: string) { return `${this.prefix}:${key}`; }\n  incr(key: string) { return redis.incr(this.k(key)); }\n}'),
];

/** A file next to tests/fixtures/facades/keys.ts, whose builders wrappers forward their key through. */
const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'facades', 'app.ts');

/** Wrappers forwarding through a builder another module of the code exports: pass-through. */
const importedBuilder = [
  ioredis("import { prefixed } from './keys';\nexport class Cache {\n  sadd(key: string, m: string) { return redis.sadd(prefixed(key), m); }\n}"),
  nodeRedis("import * as keys from './keys';\nimport { prefixed as p } from './keys.js';\nexport const incr = (key: string) => client.incr(p(key));"),
];

const reported = [
  // named after its data, not the command
  { code: ioredis('export class Presence {\n  join(key: string, value: string) {\n    return new Promise((resolve) => {\n      redis.sadd(key, value, resolve);\n    });\n  }\n}'), line: 6 },
  // a key family the wrapper spells itself, literally or through a constant of the file
  { code: ioredis('export const incr = (id: string) => redis.incr(`hits:${id}`);'), line: 3 },
  { code: nodeRedis("const PREFIX = 'sess:';\nexport const sAdd = (key: string, m: string) => client.sAdd(PREFIX + key, m);"), line: 4 },
  // a key mixing the parameter with another parameter
  { code: ioredis('export const incr = (ns: string, key: string) => redis.incr(`${ns}:${key}`);'), line: 3 },
  // a function that is not passed to a call
  { code: ioredis('export function sadd(key: string, m: string) {\n  const run = () => redis.sadd(key, m);\n  return run();\n}'), line: 4 },
  // a builder given two of the wrapper's parameters, both parts of the key (here, another module's)
  {
    code: ioredis('export class Cache {\n  private key(ns: string, k: string) { return `${ns}:${k}`; }\n  incr(ns: string, k: string) { return redis.incr(this.key(ns, k)); }\n}'),
    line: 5,
  },
  {
    code: ioredis('export class Cache {\n  private key(k: string, tenant: string) { return tenant ? `${tenant}:${k}` : k; }\n  incr(k: string, tenant: string) { return redis.incr(this.key(k, tenant)); }\n}'),
    line: 5,
  },
  // a builder method named after the data, a class-field builder in one too
  { code: ioredis('export class Cache {\n  ns = (k: string) => `c:${k}`;\n  countVisit(k: string) { return redis.incr(this.ns(k)); }\n}'), line: 5 },
  // a function of a package is no builder of the code: the wrapper does not forward its parameter
  { code: ioredis("import { prefixed } from 'key-prefixes';\nexport const incr = (key: string) => redis.incr(prefixed(key));"), line: 4 },
  // an executor doing more than forwarding
  {
    code: ioredis(
      'export function sadd(key: string, m: string) {\n  return new Promise((resolve) => {\n    log(key);\n    audit(m);\n    count();\n    redis.sadd(key, m, resolve);\n  });\n}',
    ),
    line: 8,
  },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: passThrough,
    invalid: [
      // (a call whose callback is the executor's `resolve` is not moved into a MULTI: no suggestion)
      ...reported.map(({ code, line }) => ({ code, errors: [{ messageId: 'noExpiry' as const, line, suggestions: [] }] })),
      // strict turns the allowance off
      { code: passThrough[0]!, options: [{ allowPassThrough: false }], errors: [{ messageId: 'noExpiry' as const, line: 6 }] },
    ],
  });
}

runRule(untypedTester, 'incr-needs-expire-on-create (builders of other modules)', incrRule, {
  valid: importedBuilder.map((code) => ({ code, filename: app })),
  invalid: [
    // two parameters, both in the key the imported builder makes
    { code: ioredis("import { tenantKey } from './keys';\nexport const incr = (t: string, key: string) => redis.incr(tenantKey(t, key));"), filename: app, errors: [{ messageId: 'noExpiry', line: 4, suggestions: [] }] },
    // strict judges the wrapper itself
    { code: importedBuilder[0]!, filename: app, options: [{ allowPassThrough: false }], errors: [{ messageId: 'noExpiry', line: 5 }] },
  ],
});

// the SET rule through a builder method of the class
const setThroughBuilder = ioredis('export class Cache {\n  private key(k: string) { return `c:${k}`; }\n  set(k: string, v: string) { return redis.set(this.key(k), v); }\n}');
runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [setThroughBuilder],
  invalid: [
    {
      code: setThroughBuilder,
      options: [{ allowPassThrough: false }],
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 5,
          suggestions: setSuggestions(setThroughBuilder, 'redis.set(this.key(k), v'),
        },
      ],
    },
  ],
});
