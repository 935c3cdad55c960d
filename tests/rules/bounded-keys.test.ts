/**
 * Bounded keys (issue 25, item 2): a key fixed once per instance (a `readonly` member, a
 * constructor parameter property, a member the constructor alone assigns from its parameters,
 * `this.options.key` below one) and a key whose run-time parts range over a union of literals,
 * `boolean`, an enum or a type alias of those (of the file or of an imported module; with type
 * information also an inferred union), a member set once by its initializer and only read
 * afterwards, and a factory's configuration (a parameter of a function returning an object with
 * methods, or a function, read by what it returns) is bounded like a constant key: `recommended` reports it
 * only when the file gives that key a TTL somewhere (a separate or missing expiry is then a bug),
 * `strict` always. A member written outside the constructor, a part typed `string`, a factory
 * parameter it reassigns or beside the call's data, and a parameter of a function that returns
 * data are not bounded.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester, upstash } from './tester.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'bounded', 'app.ts');

const bounded = [
  // handed case 26's shape: a readonly constructor parameter property
  ioredis("export class Broker {\n  constructor(private readonly channel: string) {}\n  publish(m: string) { return redis.xadd(this.channel, 'MAXLEN', '~', 1000, '*', 'm', m); }\n}"),
  // a readonly member the constructor builds from its options, and a property of a fixed member
  ioredis('export class Jobs {\n  private readonly key: string;\n  constructor(opts: { name: string }) { this.key = `jobs:${opts.name}`; }\n  bump() { return redis.incr(this.key); }\n}'),
  ioredis("export class Jobs {\n  constructor(private readonly opts: { key: string }) {}\n  bump() { return redis.incr(this.opts.key); }\n}"),
  // a member assigned only in the constructor, from a parameter (node-redis, a private field too)
  nodeRedis("export class Stream {\n  private stream: string;\n  constructor(name: string) { this.stream = `events:${name}`; }\n  add(e: string) { return client.xAdd(this.stream, '*', { e }, { TRIM: { strategy: 'MAXLEN', threshold: 1000 } }); }\n}"),
  nodeRedis("export class Stream {\n  #stream;\n  constructor(name: string) { this.#stream = name; }\n  add(e: string) { return client.xAdd(this.#stream, '*', { e }, { TRIM: { strategy: 'MAXLEN', threshold: 1000 } }); }\n}"),
  // a union of literals, through a key builder of the module (handed case 28's shape), boolean
  upstash("type Frequency = 'daily' | 'weekly';\nconst viewerSetKey = (f: Frequency) => `digest_viewers:${f}`;\nexport const enqueue = (f: Frequency, v: string) => redis.sadd(viewerSetKey(f), v);"),
  upstash("export const enqueue = (frequency: 'daily' | 'weekly', v: string) => redis.sadd(`digest:${frequency}`, v);"),
  ioredis('export const flag = (enabled: boolean) => redis.incr(`flags:${enabled}`);'),
  // an enum: as a type, and a member read directly
  ioredis("enum Period { Day = 'day', Week = 'week' }\nexport const hit = (p: Period) => redis.incr(`hits:${p}`);"),
  ioredis("enum Period { Day = 'day', Week = 'week' }\nexport const hit = () => redis.incr(`hits:${Period.Day}`);"),
  ioredis("const LIMITS = { free: 10, pro: 100 };\nexport const hit = (tier: keyof typeof LIMITS) => redis.incr(`limit:${tier}`);"),
  ioredis("const TIERS = ['free', 'pro'] as const;\nexport const hit = (tier: (typeof TIERS)[number]) => redis.incr(`tier:${tier}`);"),
  // one key per instance: a member set once by its initializer and only read afterwards (a
  // buffer's queue key), a configured prefix plus a constant (TS member, JS constructor write)
  ioredis("export class EventBuffer {\n  private queueKey = 'event_buffer:queue';\n  add(e: string) { return redis.rpush(this.queueKey, e); }\n  key() { return this.queueKey; }\n}"),
  ioredis("export class Tags {\n  constructor(private keyPrefix: string) {}\n  share(k: string, t: string) { return redis.hset(this.keyPrefix + 'sharedTags', k, t); }\n}"),
  nodeRedis('export class Tags {\n  constructor(options) { this.prefix = options.prefix; }\n  revalidate(tag) { return client.hSet(`${this.prefix}:revalidated`, tag, Date.now()); }\n}'),
  // a factory's configuration, read by the methods it returns: destructured with defaults, a
  // `const` of its body built from it, an options object, a handler returned through a `const`
  nodeRedis(
    "export function createHandler({ keyPrefix = '', sharedTagsKey = '__sharedTags__' }) {\n  const revalidatedKey = keyPrefix + '__revalidated__';\n  return {\n    async set(key: string, tags: string) { await client.hSet(keyPrefix + sharedTagsKey, key, tags); },\n    async revalidateTag(tag: string) { await client.hSet(revalidatedKey, tag, Date.now()); },\n  };\n}",
  ),
  ioredis('export const createStore = (options: { prefix: string }) => ({\n  mark: (id: string) => redis.sadd(`${options.prefix}:marked`, id),\n});'),
  ioredis("export function createQueue(name: string) {\n  const queue = { push(job: string) { return redis.rpush(`queue:${name}`, job); } };\n  return queue;\n}"),
  ioredis('export const limiter = (prefix: string) => () => redis.incr(`${prefix}:count`);'),
];

const reported = [
  // a member the class writes outside its constructor
  { code: ioredis('export class Jobs {\n  private key = "";\n  use(id: string) { this.key = `jobs:${id}`; }\n  bump() { return redis.incr(this.key); }\n}'), line: 6 },
  // initialized, then written again
  { code: ioredis("export class Buffer {\n  private queueKey = 'q';\n  rotate(id: string) { this.queueKey = `q:${id}`; }\n  add(e: string) { return redis.rpush(this.queueKey, e); }\n}"), line: 6 },
  // a factory's configuration beside the data of the call, and a parameter of a function that
  // makes no instance (it returns data)
  { code: ioredis('export const createStore = (options: { prefix: string }) => ({\n  mark: (id: string) => redis.sadd(`${options.prefix}:${id}`, id),\n});'), line: 4 },
  { code: ioredis('export function handle(userId: string) {\n  const added = redis.sadd(`u:${userId}`, 1);\n  return { ok: true, added };\n}'), line: 4 },
  // a factory parameter the factory reassigns
  { code: ioredis("export function createQueue(name: string) {\n  name = name + ':' + Date.now();\n  return { push: (job: string) => redis.rpush(name, job) };\n}"), line: 5 },
  // assigned only in the constructor, but not from its parameters
  { code: ioredis('export class Run {\n  private key: string;\n  constructor() { this.key = `run:${Date.now()}`; }\n  bump() { return redis.incr(this.key); }\n}'), line: 6 },
  // a part typed string, or a union with string
  { code: upstash('export const enqueue = (frequency: string, v: string) => redis.sadd(`digest:${frequency}`, v);'), line: 3 },
  { code: upstash("export const enqueue = (frequency: 'daily' | string, v: string) => redis.sadd(`digest:${frequency}`, v);"), line: 3 },
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: bounded,
    invalid: [
      ...reported.map(({ code, line }) => ({ code, errors: [{ messageId: 'noExpiry' as const, line }] })),
      // bounded, and the file expires that key in a separate round trip after every write: left
      // alone by allowRearmedBoundedKeys (tests/rules/incr-rearmed-bounded.test.ts), reported without it
      {
        code: ioredis("export class Limiter {\n  constructor(private readonly key: string) {}\n  async hit() {\n    await redis.incr(this.key);\n    await redis.expire(this.key, 60);\n  }\n}"),
        options: [{ allowRearmedBoundedKeys: false }],
        errors: [
          {
            messageId: 'separateRoundTrip' as const,
            line: 6,
            suggestions: [
              {
                messageId: 'useIncrementWithTtl' as const,
                output: "import Redis from 'ioredis';\nimport { incrementWithTtl } from 'redis-ttl-runtime';\nconst redis = new Redis();\nexport class Limiter {\n  constructor(private readonly key: string) {}\n  async hit() {\n    await incrementWithTtl(redis, this.key, { ttlMs: 60000, mode: 'sliding' });\n  }\n}",
              },
              { messageId: 'wrapInMulti' as const, output: ioredis('export class Limiter {\n  constructor(private readonly key: string) {}\n  async hit() {\n    await redis.multi().incr(this.key).expire(this.key, 60).exec();\n  }\n}') },
            ],
          },
        ],
      },
      // strict turns the allowance off
      ...bounded.slice(1, 3).map((code) => ({ code, options: [{ allowConstantKeys: false }] as [{ allowConstantKeys: boolean }], errors: [{ messageId: 'noExpiry' as const }] })),
      // a bounded stream nothing trims grows by an entry per XADD: reported in both configs
      // (tests/rules/untrimmed-stream.test.ts); its capped form above is a bounded key
      {
        code: ioredis("export class Broker {\n  constructor(private readonly channel: string) {}\n  publish(m: string) { return redis.xadd(this.channel, '*', 'm', m); }\n}"),
        errors: [{ messageId: 'untrimmedStream' as const, line: 5, column: 37 }],
      },
      {
        code: ioredis("export class Broker {\n  constructor(private readonly channel: string) {}\n  publish(m: string) { return redis.xadd(this.channel, '*', 'm', m); }\n}"),
        options: [{ allowConstantKeys: false }] as [{ allowConstantKeys: boolean }],
        errors: [{ messageId: 'untrimmedStream' as const, line: 5, column: 37 }],
      },
    ],
  });
}

// with type information, a part whose type the checker finds finite needs no annotation
runRule(typedTester, 'incr-needs-expire-on-create (inferred finite types)', incrRule, {
  valid: [ioredis("declare function period(): 'day' | 'week';\nconst p = period();\nexport const hit = () => redis.incr(`hits:${p}`);")],
  invalid: [],
});

// finite types of another module
runRule(untypedTester, 'incr-needs-expire-on-create (imported types)', incrRule, {
  valid: [
    { code: upstash("import type { Frequency } from './types';\nexport const enqueue = (f: Frequency, v: string) => redis.sadd(`digest:${f}`, v);"), filename: app },
    { code: ioredis("import { type Plan } from './types';\nexport const hit = (plan: Plan) => redis.incr(`plan:${plan}`);"), filename: app },
  ],
  invalid: [],
});
