/**
 * Opaque keys nothing says are meant to expire (`allowOpaqueKeys`, redis-calls/opaque-key.ts), from
 * the kind's definition: a key whose shape has no letter or digit (no `persistentKeys` pattern can
 * name it), built by a key helper (a key builder of the module named as one, or a binding / member
 * named as a key taken from a call's result), in a file that gives no key a TTL, with no temporary
 * name and no TTL value around it, is a storage layer's record: not reported in `recommended`.
 * Near misses stay reported: a TTL anywhere in the file, a temporary name (class, function, file,
 * helper), a TTL value in the class, a key passed in or made of data, a key with a nameable part,
 * a script that names an expiry, and `strict`.
 */
import embeddedLua from '../../rules/embedded-lua.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { STRICT_KEY_POLICY } from '../helpers/lint.js';
import { ioredis, nodeRedis, runRule, setSuggestions, typedTester, untypedTester } from './tester.js';

const STRICT = STRICT_KEY_POLICY;

// a storage adapter: records keyed by a table name and an id, through a key builder of the module
const getKey = 'function getKey(table: string, keys: Record<string, string>) {\n  return `${table}:${Object.entries(keys).map(([k, v]) => `${k}:${v}`).join(":")}`;\n}\n';
const storage = (body: string): string => ioredis(`${getKey}export class UpstashDB {\n${body}\n}`);
const insert = storage('  async insert(table: string, record: { id: string }) {\n    await redis.set(getKey(table, { id: record.id }), JSON.stringify(record));\n  }');
// a key destructured from a helper's result (`{ key } = processRecord(...)`), node-redis
const processRecord = nodeRedis(
  `${getKey}function processRecord(table: string, record: { id: string }) {\n  return { key: getKey(table, { id: record.id }), value: JSON.stringify(record) };\n}\nexport async function insert(table: string, record: { id: string }) {\n  const { key, value } = processRecord(table, record);\n  await client.set(key, value);\n}`,
);
// a queue's structures: keys destructured from an imported key table, also through members
const queueKeys = (body: string): string => `import { redisKeys } from './redis-keys.js';\n${ioredis(body)}`;
const consumerGroup = queueKeys(
  'export function saveGroup(queue: string, groupId: string) {\n  const { keyQueueConsumerGroups } = redisKeys.getQueueKeys(queue, groupId);\n  return redis.sadd(keyQueueConsumerGroups, groupId);\n}',
);
const dequeue = queueKeys(
  'export class Dequeue {\n  keyPending: string;\n  keyProcessing: string;\n  constructor(queue: string, consumerId: string) {\n    const { keyPending } = redisKeys.getQueueKeys(queue);\n    const { keyProcessing } = redisKeys.getConsumerKeys(queue, consumerId);\n    this.keyPending = keyPending;\n    this.keyProcessing = keyProcessing;\n  }\n  next = () => redis.rpoplpush(this.keyPending, this.keyProcessing);\n}',
);
// a record updated by a script: the eval's key comes from the key builder
const script = ioredis(`${getKey}export async function update(table: string, id: string, data: string) {\n  const key = getKey(table, { id });\n  return redis.eval("redis.call('SET', KEYS[1], ARGV[1])", 1, key, data);\n}`);

// near misses
const fileExpires = storage(
  '  async insert(table: string, record: { id: string }) {\n    await redis.set(getKey(table, { id: record.id }), JSON.stringify(record));\n  }\n  async touch(key: string) {\n    await redis.expire(key, 60);\n  }',
);
const cacheClass = ioredis(
  `${getKey}export class ResultCache {\n  async put(table: string, id: string, v: string) {\n    await redis.set(getKey(table, { id }), v);\n  }\n}`,
);
const ttlInClass = storage(
  '  ttlSeconds = 3600;\n  async insert(table: string, record: { id: string }) {\n    await redis.set(getKey(table, { id: record.id }), JSON.stringify(record));\n  }',
);
const dataKey = ioredis('import { hash } from "./hash.js";\nexport async function save(text: string, summary: string) {\n  await redis.set(hash(text), summary);\n}');
const parameterKey = ioredis('export async function saveRecord(key: string, value: string) {\n  await redis.set(key, value);\n}');
const nameable = ioredis('export class Records {\n  async insert(id: string, v: string) {\n    await redis.set(`record:${id}`, v);\n  }\n}');
const scriptWithExpiry = ioredis(
  `${getKey}export async function update(table: string, id: string, data: string) {\n  const key = getKey(table, { id });\n  return redis.eval("redis.call('SET', KEYS[1], ARGV[1])\\nredis.call('PEXPIRE', KEYS[2], 100)", 2, key, 'other', data);\n}`,
);

/** An invalid case: one SET finding at `line` with its two suggestions, `call` ending after the value. */
const setFinding = (code: string, line: number, call: string) => ({
  code,
  errors: [{ messageId: 'setWithoutTtl' as const, line, suggestions: setSuggestions(code, call) }],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [insert, processRecord],
  invalid: [
    // the file gives a key a TTL: its keys are meant to expire
    setFinding(fileExpires, 8, 'redis.set(getKey(table, { id: record.id }), JSON.stringify(record)'),
    // the class is named as a cache
    setFinding(cacheClass, 8, 'redis.set(getKey(table, { id }), v'),
    // a TTL value in the class
    setFinding(ttlInClass, 9, 'redis.set(getKey(table, { id: record.id }), JSON.stringify(record)'),
    // a key made of data, by a helper not named as a key builder
    setFinding(dataKey, 5, 'redis.set(hash(text), summary'),
    // a key the caller passes in: not built by a helper here
    setFinding(parameterKey, 4, 'redis.set(key, value'),
    // a key with a nameable part: the message offers the pattern
    setFinding(nameable, 5, 'redis.set(`record:${id}`, v'),
    {
      // strict reports it
      code: insert,
      options: [STRICT],
      errors: [{ messageId: 'setWithoutTtl', line: 8, suggestions: setSuggestions(insert, 'redis.set(getKey(table, { id: record.id }), JSON.stringify(record)') }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (opaque keys)', incrRule, {
  valid: [consumerGroup, dequeue],
  invalid: [
    { code: consumerGroup, options: [STRICT], errors: [{ messageId: 'noExpiry', line: 6 }] },
    { code: dequeue, options: [STRICT], errors: [{ messageId: 'noExpiry', line: 13 }] },
  ],
});

runRule(untypedTester, 'embedded-lua (opaque keys)', embeddedLua, {
  valid: [script],
  invalid: [
    // the script names an expiry: its keys are meant to expire
    { code: scriptWithExpiry, errors: [{ messageId: 'luaFinding', line: 8 }] },
    { code: script, options: [{ strict: true, allowOpaqueKeys: false }], errors: [{ messageId: 'luaFinding', line: 8 }] },
  ],
});

runRule(typedTester, 'set-requires-ttl-or-keepttl (typed)', setRule, {
  valid: [insert, processRecord],
  invalid: [
    setFinding(cacheClass, 8, 'redis.set(getKey(table, { id }), v'),
  ],
});
