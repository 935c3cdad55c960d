/**
 * Pass-through wrappers (issue 25, item 3): a facade method named after the command forwards its
 * own key parameter also from inside a promise executor or a callback written in it, and through a
 * key builder of the module or fixed parts around the parameter. Anything else stays reported: a
 * wrapper named after its data, a key mixing two parameters, a builder of another module, a
 * function that is not passed to a call, a long executor.
 */
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
