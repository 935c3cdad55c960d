/**
 * Key prefixes fixed in the code (issue 25, third validation set's main false alarm): a key whose
 * prefix is a class member, a constructor option with a default (`keyPrefix = 'workflows'`,
 * `opts.prefix ?? 'pikku'`, `{ prefix = 'bull' }`), a static member, a module const or a const
 * imported from a relative module is spelled with that prefix, so the `persistentKeys` pattern a
 * maintainer writes from the code's key naming (`workflows:*`) matches it, and messages offer that
 * spelling. Where the prefix is not fixed or not visible (an option without default, a member
 * reassigned outside the constructor, a package import) the part stays `*`, and a pattern naming
 * the default does not match.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, setSuggestions, typedTester, untypedTester, persistentSettings as persistent } from './tester.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'key-prefixes', 'app.ts');

// a durable workflow store: the prefix is a constructor option with a default (TS)
const workflowStore = ioredis(
  [
    'export class WorkflowStore {',
    '  private keyPrefix: string;',
    "  constructor(keyPrefix = 'workflows') { this.keyPrefix = keyPrefix; }",
    '  private runKey(id: string) { return `${this.keyPrefix}:run:${id}`; }',
    "  save(id: string, status: string) { return redis.hset(this.runKey(id), 'status', status); }",
    '}',
  ].join('\n'),
);
// a secret store: an option of an options object, with `??` (TS)
const secretStore = ioredis(
  [
    'export class SecretStore {',
    '  private keyPrefix: string;',
    "  constructor(config: { keyPrefix?: string } = {}) { this.keyPrefix = config.keyPrefix ?? 'pikku'; }",
    "  put(name: string, value: string) { return redis.hset(`${this.keyPrefix}:secret:${name}`, 'v', value); }",
    '}',
  ].join('\n'),
);
// a TS parameter property with a default
const agentStore = ioredis(
  "export class Agents {\n  constructor(private keyPrefix = 'ai') {}\n  add(thread: string, m: string) { return redis.rpush(`${this.keyPrefix}:messages:${thread}`, m); }\n}",
);
// a queue: options with `||` defaults, written as bundlers emit it (JS, private fields)
const messageQueue = ioredis(
  [
    'export var Queue = class {',
    '  #queueKey; #lockKey;',
    "  constructor(options = {}) { this.#queueKey = options.queueKey || 'app_queue'; this.#lockKey = options.lockKey || 'app_lock'; }",
    "  enqueue(m, ts) { return redis.zadd(this.#queueKey, ts, m); }",
    "  lock(id) { return redis.set(this.#lockKey, id, 'EX', 10, 'NX'); }",
    '};',
  ].join('\n'),
);
// destructured options with defaults (JS), a static member, a module const built from another
const destructured = nodeRedis(
  "export class Jobs {\n  constructor({ prefix = 'bull', client } = {}) { this.prefix = prefix; this.client = client; }\n  add(q, job) { return client.rPush(`${this.prefix}:${q}:wait`, job); }\n}",
);
// an object of defaults merged with the options, as bundled JS writes it
const defaultsObject = ioredis(
  "export class QueueBase {\n  constructor(name, opts) { this.name = name; this.opts = Object.assign({ prefix: 'bull' }, opts); }\n  add(id, job) { return redis.hset(`${this.opts.prefix}:${this.name}:${id}`, 'data', job); }\n}",
);
const staticMember = ioredis("export class Sessions {\n  static readonly PREFIX = 'sess';\n  touch(id: string) { return redis.sadd(`${Sessions.PREFIX}:all`, id); }\n  keep(id: string) { return redis.hset(`${Sessions.PREFIX}:${id}`, 'a', 1); }\n}");
const moduleConst = ioredis("const APP = 'shop';\nconst ORDERS = `${APP}:orders:`;\nexport const save = (id: string, o: string) => redis.hset(ORDERS + id, 'o', o);");
// a const imported from a relative module (tests/fixtures/key-prefixes/constants.ts)
const imported = ioredis(
  "import { WRITE_KEYS_ZSET_PREFIX } from './constants';\nexport const record = (t: string, id: string, k: string) => redis.zadd(`${WRITE_KEYS_ZSET_PREFIX}:${t}:${id}`, 1, k);",
);

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create (key prefixes)', incrRule, {
    valid: [
      { code: workflowStore, settings: persistent('workflows:*') },
      { code: secretStore, settings: persistent('pikku:secret*') },
      { code: agentStore, settings: persistent('ai:*') },
      { code: destructured, settings: persistent('bull:*:wait') },
      { code: staticMember, settings: persistent('sess:*') },
      { code: defaultsObject, settings: persistent('bull:*') },
      { code: moduleConst, settings: persistent('shop:orders:*') },
      // two members with two defaults are two keys: the queue's key is not the lock's, which
      // the file expires; a constant key is left alone in recommended
      messageQueue,
      // a pattern written with `*` for the prefix matches a prefix that is not visible
      { code: ioredis('export class S {\n  constructor(opts: { prefix: string }) { this.prefix = opts.prefix; }\n  prefix: string;\n  save(id: string) { return redis.hset(`${this.prefix}:run:${id}`, "a", 1); }\n}'), settings: persistent('*:run:*') },
    ],
    invalid: [
      // no pattern: the message offers the spelling with the default
      { code: workflowStore, errors: [{ messageId: 'noExpiry', line: 7, column: 51, data: { command: 'HSET', key: 'workflows:run:*', hint: " Kept forever on purpose? Add 'workflows:run:*' to settings['redis-ttl'].persistentKeys.", client: '' } }] },
      // an option without default: the prefix is `*`, and a pattern naming a default does not match
      {
        code: ioredis('export class S {\n  constructor(opts: { prefix: string }) { this.prefix = opts.prefix; }\n  prefix: string;\n  save(id: string) { return redis.hset(`${this.prefix}:run:${id}`, "a", 1); }\n}'),
        settings: persistent('workflows:*'),
        errors: [{ messageId: 'noExpiry', line: 6, column: 35, data: { command: 'HSET', key: '*:run:*', hint: " Kept forever on purpose? Add '*:run:*' to settings['redis-ttl'].persistentKeys.", client: '' } }],
      },
      // a member reassigned outside the constructor is not fixed: its default says nothing
      {
        code: ioredis("export class S {\n  prefix: string;\n  constructor(prefix = 'workflows') { this.prefix = prefix; }\n  use(p: string) { this.prefix = p; }\n  save(id: string) { return redis.hset(`${this.prefix}:run:${id}`, 'a', 1); }\n}"),
        settings: persistent('workflows:*'),
        errors: [{ messageId: 'noExpiry', line: 7, column: 35, data: { command: 'HSET', key: '*:run:*', hint: " Kept forever on purpose? Add '*:run:*' to settings['redis-ttl'].persistentKeys.", client: '' } }],
      },
      // a static member a function may change
      {
        code: ioredis("export class S {\n  static PREFIX = 'sess';\n  keep(id: string) { return redis.hset(`${S.PREFIX}:${id}`, 'a', 1); }\n}\nexport function configure(p: string) { S.PREFIX = p; }"),
        settings: persistent('sess:*'),
        errors: [{ messageId: 'noExpiry', line: 5, column: 35, data: { command: 'HSET', key: '*:*', hint: " Kept forever on purpose? Add '*:*' to settings['redis-ttl'].persistentKeys.", client: '' } }],
      },
      { code: defaultsObject, settings: persistent('queue:*'), errors: [{ messageId: 'noExpiry', line: 5, column: 31, data: { command: 'HSET', key: 'bull:*:*', hint: " Kept forever on purpose? Add 'bull:*:*' to settings['redis-ttl'].persistentKeys.", client: '' } }] },
      // the default's pattern names the default only: another spelling stays reported
      { code: workflowStore, settings: persistent('workflow:*'), errors: [{ messageId: 'noExpiry', line: 7, column: 51 }] },
    ],
  });
}

// a store whose keys come from static members of its class, read through `this` in static arrows
// (thirdweb-dev/engine's TransactionDB), and a factory's key-builder object (a workflow storage)
const staticStore = ioredis(
  [
    'export class TransactionDB {',
    '  private static detailsKey = (queueId: string) => `transaction:${queueId}`;',
    "  private static queuedKey = 'transaction:queued';",
    '  static set = async (t: { queueId: string; at: number }) => {',
    '    const pipeline = redis.pipeline().set(this.detailsKey(t.queueId), JSON.stringify(t));',
    '    pipeline.zadd(this.queuedKey, t.at, t.queueId);',
    '    await pipeline.exec();',
    '  };',
    '}',
  ].join('\n'),
);
const builderObject = ioredis(
  [
    'export function createStorage(config: { keyPrefix?: string }) {',
    "  const prefix = config.keyPrefix ?? 'workflow';",
    '  const keys = { run: (runId: string) => `${prefix}:runs:${runId}`, runsAll: () => `${prefix}:runs:idx:all` };',
    "  return { create: (id: string) => redis.hset(keys.run(id), 'status', 'new'), index: (id: string, at: number) => redis.zadd(keys.runsAll(), at, id) };",
    '}',
  ].join('\n'),
);
// the same class, but a static method may change the member: the pattern does not match
const reassignedStatic = staticStore.replace('  static set =', '  static use(key: string) { this.queuedKey = key; }\n  static set =');
// the same object, but a caller may replace its builders: the pattern does not match
const mergedBuilderObject = builderObject.replace('  return {', '  Object.assign(keys, config);\n  return {');

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create (key builders: objects and static members)', incrRule, {
    valid: [
      { code: staticStore, settings: persistent('transaction:*') },
      { code: builderObject, settings: persistent('*:runs:*') },
    ],
    invalid: [
      // no pattern: the message spells the key with the default; the index (one key per prefix) is left alone
      {
        code: reassignedStatic,
        settings: persistent('transaction:*'),
        errors: [
          {
            messageId: 'noExpiry',
            line: 9,
            column: 14,
            data: { command: 'ZADD', key: 'this.queuedKey', hint: '', client: '' },
            suggestions: [
              {
                messageId: 'appendExpire',
                data: { expire: 'expire(this.queuedKey, TTL_SECONDS)', declare: '; declare TTL_SECONDS with the TTL this key needs' },
                output: reassignedStatic.replace('zadd(this.queuedKey, t.at, t.queueId)', 'zadd(this.queuedKey, t.at, t.queueId).expire(this.queuedKey, TTL_SECONDS)'),
              },
            ],
          },
        ],
      },
      { code: builderObject, errors: [{ messageId: 'noExpiry', line: 6, column: 42, data: { command: 'HSET', key: 'workflow:runs:*', hint: " Kept forever on purpose? Add 'workflow:runs:*' to settings['redis-ttl'].persistentKeys.", client: '' } }] },
      {
        code: mergedBuilderObject,
        settings: persistent('*:runs:*'),
        errors: [
          { messageId: 'noExpiry', line: 7, column: 42, data: { command: 'HSET', key: 'keys.run(id)', hint: '', client: '' } },
          { messageId: 'noExpiry', line: 7, column: 120, data: { command: 'ZADD', key: 'keys.runsAll()', hint: '', client: '' } },
        ],
      },
    ],
  });
}

// imported modules are read from disk beside the linted file (the typed tester's project holds no such file)
runRule(untypedTester, 'incr-needs-expire-on-create (imported key prefixes)', incrRule, {
  valid: [{ code: imported, settings: persistent('write_keys_zset:*'), filename: app }],
  invalid: [
    { code: imported, filename: app, errors: [{ messageId: 'noExpiry', line: 4, column: 67, data: { command: 'ZADD', key: 'write_keys_zset:*:*', hint: " Kept forever on purpose? Add 'write_keys_zset:*:*' to settings['redis-ttl'].persistentKeys.", client: '' } }] },
    // a pattern naming the module's prefix without its separator does not match
    { code: imported, filename: app, settings: persistent('write_keys_zset_*'), errors: [{ messageId: 'noExpiry', line: 4, column: 67 }] },
  ],
});

const runPrefixSet = ioredis("import { RUN_PREFIX } from './constants';\nexport const save = (id: string, v: string) => redis.set(`${RUN_PREFIX}:${id}`, v);");
runRule(untypedTester, 'set-requires-ttl-or-keepttl (key prefixes)', setRule, {
  valid: [
    { code: ioredis("import { RUN_PREFIX } from './constants';\nexport const save = (id: string, v: string) => redis.set(`${RUN_PREFIX}:${id}`, v);"), filename: app, settings: persistent('myapp:run:*') },
    { code: ioredis("const { LOCK_PREFIX } = require('./keys.cjs');\nexport const save = (id: string, v: string) => redis.set(LOCK_PREFIX + id, v);"), filename: app, settings: persistent('lock:*') },
  ],
  invalid: [
    {
      code: runPrefixSet,
      filename: app,
      settings: persistent('run:*'),
      errors: [{ messageId: 'setWithoutTtl', line: 4, column: 54, suggestions: setSuggestions(runPrefixSet, 'redis.set(`${RUN_PREFIX}:${id}`, v') }],
    },
  ],
});
