/**
 * The shared key policy (redis-calls/policy.ts) through each rule: persistent keys (setting
 * and annotations), bounded keys, caller-chosen TTLs, pass-through wrappers, and what `strict` still reports; the key shape
 * and the client reason in messages.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import getsetRule from '../../rules/no-getset.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, setSuggestions, untypedTester, persistentSettings as persistent } from './tester.js';

const STRICT = { allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false } as const;

const bullMeta = ioredis('await redis.set(`bull:${q}:meta`, json);');
const lockElsewhere = ioredis("const LOCK = 'jobs:lock';\nawait redis.set(LOCK, '1');\nexport const refresh = () => redis.expire(LOCK, 30);");
const strictCode = ioredis(
  "await redis.set('jobs:last-run', '1');\nexport async function put(k: string, v: string, ttl?: number) {\n  if (ttl) await redis.set(k, v, 'EX', ttl);\n  else await redis.set(k, v);\n}",
);
const notTtlTest = ioredis("export async function put(k: string, v: string, cached: boolean) {\n  if (cached) await redis.set(k, v);\n  else await redis.set(k, v, 'EX', 60);\n}");
const otherKey = ioredis('await redis.multi().set(k, v).expire(`${k}:x`, 60).exec();');
const pipelined = ioredis('await redis.pipeline().set(k, v).expire(k, 60).exec();');

const passThrough = ioredis('export class Store {\n  async incr(key: string) {\n    return redis.incr(key);\n  }\n}');
const notPassThrough = ioredis(
  'export class Store {\n  async incr(id: string) {\n    return redis.incr(`hits:${id}`);\n  }\n  async sadd(key: string, m: string) {\n    const a = 1;\n    const b = 2;\n    await log(a, b);\n    return redis.sadd(key, m);\n  }\n}',
);
const statsThroughIteration = ioredis(
  'function bump(key: string, field: string) { return redis.hincrby(key, field, 1); }\nexport async function count(site: string, page: string) {\n  const keys = [`stats:${site}:day`, `stats:${site}:${page}`];\n  await Promise.all(keys.flatMap((key) => [bump(key, "hits")]));\n}',
);
const saveSummary = ioredis('export async function saveSummary(text: string, summary: string) {\n  return redis.set(text, summary);\n}');

runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [
    // a pass-through wrapper named after the command
    ioredis('export class Store {\n  async set(key: string, value: string) {\n    this.validate();\n    await redis.set(key, value);\n  }\n}'),
    // persistent by design: the setting matches the key's shape
    { code: ioredis('await redis.set(`bull:${q}:meta`, json);'), settings: persistent('bull:*') },
    { code: ioredis("const PREFIX = 'bull';\nawait redis.set(`${PREFIX}:${q}:meta`, json);"), settings: persistent('bull:*:meta') },
    // ... or an annotation on the write, or on the key's const / builder
    ioredis('// redis-ttl persistent: queue metadata lives as long as the queue\nawait redis.set(`q:${q}:meta`, json);'),
    ioredis('await redis.set(`q:${q}:meta`, json); // redis-ttl persistent: queue metadata'),
    ioredis('/** redis-ttl persistent: one registry per tenant */\nconst registryKey = (t: string) => `registry:${t}`;\nawait redis.set(registryKey(t), json);'),
    ioredis('export async function save(t: string) {\n  // redis-ttl persistent: the tenant registry\n  const key = `registry:${t}`;\n  await redis.set(key, json);\n}'),
    // bounded: one constant key the file never expires
    ioredis("const LAST_RUN = 'jobs:last-run';\nawait redis.set(LAST_RUN, String(Date.now()));"),
    // the no-TTL arm of an explicit TTL test
    ioredis("export async function put(k: string, v: string, ttl?: number) {\n  if (ttl) await redis.set(k, v, 'EX', ttl);\n  else await redis.set(k, v);\n}"),
    ioredis("export const put = (k: string, v: string, ttlMs?: number) => (ttlMs ? redis.set(k, v, 'PX', ttlMs) : redis.set(k, v));"),
    ioredis("export async function put(k: string, v: string, ttl?: number) {\n  if (ttl === undefined) { await redis.set(k, v); } else { await redis.set(k, v, 'EX', ttl); }\n}"),
    ioredis("export async function put(k: string, v: string, o: { disableTTL?: boolean }, t: number) {\n  if (o.disableTTL) return redis.set(k, v);\n  return redis.setex(k, t, v);\n}"),
    ioredis("export async function put(k: string, v: string, t?: number) {\n  if (t) {\n    await redis.setex(k, t, v);\n    return;\n  }\n  await redis.set(k, v);\n}"),
    // SET / MSET followed by an expiry of every key in the same MULTI (chained or queued)
    ioredis("await redis.multi().set(k, v).expire(k, 60).exec();"),
    ioredis("const tx = redis.multi();\ntx.set(k, v);\ntx.expire(k, 60);\nawait tx.exec();"),
    ioredis("await redis.multi().mset(a, '1', b, '2').expire(a, 60).expire(b, 60).exec();"),
  ],
  invalid: [
    {
      // a function named after the data it stores decides which keys exist: reported
      code: saveSummary,
      errors: [{ messageId: 'setWithoutTtl', line: 4, suggestions: setSuggestions(saveSummary, 'text, summary') }],
    },
    {
      // the message names the key's shape and why the receiver is a client
      code: ioredis('await redis.set(`profile:${id}`, json);'),
      errors: [
        {
          messageId: 'setWithoutTtl',
          data: {
            command: 'SET',
            key: 'profile:*',
            hint: " Kept forever on purpose? Add 'profile:*' to settings['redis-ttl'].persistentKeys.",
            client: '',
          },
          line: 3,
          column: 13,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: ioredis("await redis.set(`profile:${id}`, json, 'EX', TTL_SECONDS);") },
            { messageId: 'addKeepTtl', output: ioredis("await redis.set(`profile:${id}`, json, 'KEEPTTL');") },
          ],
        },
      ],
    },
    {
      // a pattern that does not match the shape leaves the finding
      code: bullMeta,
      settings: persistent('bee:*'),
      errors: [{ messageId: 'setWithoutTtl', line: 3, suggestions: setSuggestions(bullMeta, 'json') }],
    },
    {
      // a constant key the file also expires elsewhere is meant to expire: reported
      code: lockElsewhere,
      errors: [{ messageId: 'setWithoutTtl', line: 4, suggestions: setSuggestions(lockElsewhere, "LOCK, '1'") }],
    },
    {
      // strict reports a constant key and the no-TTL arm
      code: strictCode,
      options: [STRICT],
      errors: [
        { messageId: 'setWithoutTtl', line: 3, suggestions: setSuggestions(strictCode, "'jobs:last-run', '1'") },
        { messageId: 'setWithoutTtl', line: 6, suggestions: setSuggestions(strictCode, 'else await redis.set(k, v') },
      ],
    },
    {
      // an if whose test is not about the TTL is not a caller's choice
      code: notTtlTest,
      errors: [{ messageId: 'setWithoutTtl', line: 4, suggestions: setSuggestions(notTtlTest, 'if (cached) await redis.set(k, v') }],
    },
    {
      // the expiry in the same MULTI is for another key
      code: otherKey,
      errors: [{ messageId: 'setWithoutTtl', line: 3, suggestions: setSuggestions(otherKey, 'set(k, v') }],
    },
    {
      // strict does not take a pipeline for one unit
      code: pipelined,
      options: [{ allowPipeline: false }],
      errors: [{ messageId: 'setWithoutTtl', line: 3, suggestions: setSuggestions(pipelined, 'set(k, v') }],
    },
    {
      // node-redis, its own message data
      code: nodeRedis('await client.set(`s:${id}`, v);'),
      errors: [{ messageId: 'setWithoutTtl', line: 3, suggestions: [
        { messageId: 'addExpiryPlaceholder', output: nodeRedis('await client.set(`s:${id}`, v, { EX: TTL_SECONDS });') },
        { messageId: 'addKeepTtl', output: nodeRedis('await client.set(`s:${id}`, v, { KEEPTTL: true });') },
      ] }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create', incrRule, {
  valid: [
    { code: ioredis('await redis.rpush(`bull:${q}:wait`, id);'), settings: persistent('bull:*') },
    ioredis("await redis.sadd('integrations:installed', ws);"),
    ioredis('await redis.incr(this.key("stat", "processed"));'),
    ioredis('// redis-ttl persistent: stats kept forever\nawait redis.hincrby(`stats:${day}`, "hits", 1);'),
    // the no-TTL arm of a store's hash write, queued on a MULTI
    ioredis(
      "export async function put(k: string, f: string, v: string, ttl?: number) {\n  const m = redis.multi();\n  if (ttl) m.hset(k, f, v).expire(k, ttl);\n  else m.hset(k, f, v);\n  await m.exec();\n}",
    ),
    // pass-through wrappers named after the command: their callers choose the key
    ioredis('export class Store {\n  async incr(key: string) {\n    await this.connect();\n    return redis.incr(key);\n  }\n}'),
    ioredis('export const adapter = { sadd: (key: string, ...m: string[]) => redis.sadd(key, m), hSet: (key: string, o: object) => redis.hset(key, o) };'),
    ioredis('export function XADD(streamName: string, payload: string) {\n  return redis.xadd(streamName, "*", "p", payload);\n}'),
    // a conditional key whose arms share a persistent shape
    { code: ioredis('await redis.zadd(c ? `q:${o}:ck:${k}` : `q:${o}`, now, id);'), settings: persistent('q:*') },
    // keys reached through an iteration and a function only this module calls
    { code: statsThroughIteration, settings: persistent('stats:*') },
  ],
  invalid: [
    {
      // strict: a pass-through is reported too
      code: passThrough,
      options: [STRICT],
      errors: [
        {
          messageId: 'noExpiry',
          line: 5,
          // the reply is returned: a MULTI would return EXEC's array instead of the count
          suggestions: [],
        },
      ],
    },
    {
      // named after the command but the key is not its parameter, or the wrapper does more
      code: notPassThrough,
      errors: [
        {
          messageId: 'noExpiry',
          line: 5,
          suggestions: [],
        },
        {
          messageId: 'noExpiry',
          line: 11,
          suggestions: [],
        },
      ],
    },
    {
      // without the pattern, the message names the shape the iterated keys share
      code: statsThroughIteration,
      errors: [
        {
          messageId: 'noExpiry',
          data: {
            command: 'HINCRBY',
            key: 'stats:*:*',
            hint: " Kept forever on purpose? Add 'stats:*:*' to settings['redis-ttl'].persistentKeys.",
            client: '',
          },
          line: 3,
          column: 58,
          suggestions: [],
        },
      ],
    },
    {
      // EXPIRE sent before the RPUSH that creates the key: a no-op on a missing key
      code: ioredis('export async function push(k: string, v: string) {\n  await redis.expire(k, 60);\n  await redis.rpush(k, v);\n}'),
      errors: [
        {
          messageId: 'expiryBeforeCreate',
          line: 5,
          column: 15,
          // the no-op expiry moves into the MULTI, after the write
          suggestions: [{ messageId: 'wrapInMulti', output: ioredis('export async function push(k: string, v: string) {\n  await redis.multi().rpush(k, v).expire(k, 60).exec();\n}') }],
        },
      ],
    },
    {
      // uuid-keyed scratch data is not bounded
      code: ioredis('const id = randomUUID();\nawait redis.hset(`import:${id}`, row);'),
      errors: [
        {
          messageId: 'noExpiry',
          line: 4,
          suggestions: [
            { messageId: 'wrapInMulti', output: ioredis('const id = randomUUID();\nawait redis.multi().hset(`import:${id}`, row).expire(`import:${id}`, TTL_SECONDS).exec();') },
          ],
        },
      ],
    },
    {
      // a blocking command is never moved into a MULTI, nor a callback-style call
      code: ioredis('await redis.blmove(src, `dst:${u}`, "LEFT", "RIGHT", 0);\nredis.sadd(`s:${u}`, m, (err) => {});'),
      errors: [
        { messageId: 'noExpiry', line: 3, suggestions: [] },
        { messageId: 'noExpiry', line: 4, suggestions: [] },
      ],
    },
    {
      code: ioredis("await redis.sadd('integrations:installed', ws);"),
      options: [STRICT],
      errors: [
        {
          messageId: 'noExpiry',
          line: 3,
          suggestions: [
            { messageId: 'wrapInMulti', output: ioredis("await redis.multi().sadd('integrations:installed', ws).expire('integrations:installed', TTL_SECONDS).exec();") },
          ],
        },
      ],
    },
  ],
});

runRule(untypedTester, 'no-getset', getsetRule, {
  valid: [
    ioredis("await redis.getset('stats:pending', '0');"),
    { code: ioredis('await redis.getset(`q:${q}:counter`, "0");'), settings: persistent('q:*') },
  ],
  invalid: [
    {
      code: ioredis("await redis.getset('stats:pending', '0');"),
      options: [STRICT],
      errors: [
        {
          messageId: 'getset',
          line: 3,
          suggestions: [
            {
              messageId: 'useCollect',
              output: "import Redis from 'ioredis';\nimport { collect } from 'redis-ttl-runtime';\nconst redis = new Redis();\nawait collect(redis, 'stats:pending');",
            },
            { messageId: 'useSetKeepTtl', output: ioredis("await redis.set('stats:pending', '0', 'KEEPTTL', 'XX', 'GET');") },
          ],
        },
      ],
    },
  ],
});
