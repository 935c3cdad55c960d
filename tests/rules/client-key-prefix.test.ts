/**
 * `persistentKeys` on a client with a `keyPrefix` (round 12, tenth validation set: chika-bot's
 * music queues, written as `guild.id` through `new Redis(url, { keyPrefix: 'queue:' })` and
 * declared `queue:*`). ioredis and iovalkey put the client's `keyPrefix` before every key they send,
 * so the key as stored is the prefix followed by the key as written; a `persistentKeys` pattern
 * matches either. The prefix is read where the client is made (constructor options, url + options,
 * a const options object, a cluster's options, a factory's parameter spelled through its calls), and
 * follows the client to its calls (a module variable, a client imported from another module, a
 * member assigned in the constructor, a MULTI or pipeline of the client). A prefix that does not
 * make the stored key match, a prefix set per call site, a client whose construction is not read
 * (a parameter), or no prefix leave the finding.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import noPersistRule from '../../rules/no-persist.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, setSuggestions, typedTester, untypedTester, persistentSettings as persistent } from './tester.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'client-key-prefix', 'app.ts');
const queue = persistent('queue:*');

/** A queue push of `guild.id` through `client` (made on line 2 by `made`): the push is on line 3. */
const push = (made: string, client = 'queue'): string =>
  `import Redis from 'ioredis';\nconst ${client} = ${made};\nexport const add = (guild: { id: string }, track: string) => ${client}.rpush(guild.id, track);`;

const constructorOptions = push("new Redis({ keyPrefix: 'queue:' })");
const urlAndOptions = push("new Redis(process.env.REDIS_URL, { keyPrefix: 'queue:' })");
const portHostOptions = push("new Redis(6379, 'cache.internal', { keyPrefix: 'queue:', db: 2 })");
const constOptions = push('new Redis(options)').replace("import Redis from 'ioredis';", "import Redis from 'ioredis';\nconst options = { keyPrefix: 'queue:' };");
// chika-bot's factory: the prefix is the factory's parameter, spelled through its call
const factory = [
  "import Redis from 'ioredis';",
  'const withPrefix = (keyPrefix: string) => new Redis(process.env.URL, { keyPrefix: `${keyPrefix}:` });',
  "export const queue = withPrefix('queue');",
  'export const add = (guild: { id: string }, track: string) => queue.rpush(guild.id, track);',
].join('\n');
const cluster = push("new Redis.Cluster([{ host: 'a', port: 6379 }], { keyPrefix: 'queue:' })");
const clusterRedisOptions = push("new Redis.Cluster([{ host: 'a', port: 6379 }], { redisOptions: { keyPrefix: 'queue:' } })");
const spreadBefore = push("new Redis({ ...base, keyPrefix: 'queue:' })");
// a client exported from another module and imported (tests/fixtures/client-key-prefix/clients.ts)
const imported = "import { redisQueue } from './clients';\nexport const add = (guild: { id: string }, track: string) => redisQueue.rpush(guild.id, track);";
const importedCache = "import { redisCache } from './clients';\nexport const add = (guild: { id: string }, track: string) => redisCache.rpush(guild.id, track);";
const importedPlain = "import { redis } from './clients';\nexport const add = (guild: { id: string }, track: string) => redis.rpush(guild.id, track);";
// a member assigned in the constructor, declared with its type (TS) or not (JS)
const member = [
  "import Redis from 'ioredis';",
  'export class Queue {',
  '  private redis: Redis;',
  "  constructor(url: string) { this.redis = new Redis(url, { keyPrefix: 'queue:' }); }",
  '  add(id: string, track: string) { return this.redis.rpush(id, track); }',
  '}',
].join('\n');
const memberJs = [
  "import Redis from 'ioredis';",
  'export class Queue {',
  "  constructor(url) { this.redis = new Redis(url, { keyPrefix: 'queue:' }); }",
  '  add(id, track) { return this.redis.rpush(id, track); }',
  '}',
].join('\n');
const memberInitializer = [
  "import Redis from 'ioredis';",
  'export class Queue {',
  "  private readonly redis: Redis = new Redis({ keyPrefix: 'queue:' });",
  '  add(id: string, track: string) { return this.redis.rpush(id, track); }',
  '}',
].join('\n');
const annotatedConst = push("new Redis({ keyPrefix: 'queue:' })").replace('const queue =', 'const queue: Redis =');
// the batches of a prefixed client send their keys through its options
const pipeline = `import Redis from 'ioredis';\nconst queue = new Redis({ keyPrefix: 'queue:' });\nexport const add = (id: string, t: string) => queue.pipeline().rpush(id, t).exec();`;
const multi = `import Redis from 'ioredis';\nconst queue = new Redis({ keyPrefix: 'queue:' });\nexport async function add(id: string, t: string) {\n  const tx = queue.multi();\n  tx.rpush(id, t);\n  await tx.exec();\n}`;
// a prefix partly known at run time: its pattern is written with `*`
const envPrefix = push('new Redis({ keyPrefix: `${process.env.APP}:queue:` })');

/** The finding on the push of {@link push} (line 3), with `lines` more above it. */
const pushError = (lines = 0) => ({ messageId: 'noExpiry' as const, line: 3 + lines, column: 68 });
const storedForm = push("new Redis({ keyPrefix: 'app:' })").replace('rpush(guild.id', 'rpush(`queue:${guild.id}`');
const twoPrefixes = member.replace('  add(', "  useCache() { this.redis = new Redis({ keyPrefix: 'cache:' }); }\n  add(");

// code in one file: with and without type information
for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create (persistentKeys through a client keyPrefix)', incrRule, {
    valid: [
      { code: constructorOptions, settings: queue },
      { code: urlAndOptions, settings: queue },
      { code: portHostOptions, settings: queue },
      { code: constOptions, settings: queue },
      { code: factory, settings: queue },
      { code: cluster, settings: queue },
      { code: clusterRedisOptions, settings: queue },
      { code: spreadBefore, settings: queue },
      { code: member, settings: queue },
      { code: memberInitializer, settings: queue },
      { code: annotatedConst, settings: queue },
      { code: pipeline, settings: queue },
      { code: multi, settings: queue },
      { code: envPrefix, settings: persistent('*:queue:*') },
      // the pattern on the key as written still matches through a prefixed client, and so does
      // one naming prefix and key together
      { code: storedForm, settings: queue },
      { code: storedForm, settings: persistent('app:queue:*') },
    ],
    invalid: [
      // near-miss: the prefix does not make the stored key match the pattern
      { code: push("new Redis({ keyPrefix: 'cache:' })"), settings: queue, errors: [pushError()] },
      { code: storedForm, settings: persistent('x:*'), errors: [pushError()] },
      // no keyPrefix: unchanged
      { code: push('new Redis()'), settings: queue, errors: [pushError()] },
      { code: push('new Redis(process.env.REDIS_URL)'), settings: queue, errors: [pushError()] },
      // an empty prefix is none
      { code: push("new Redis({ keyPrefix: '' })"), settings: queue, errors: [pushError()] },
      // a prefix known only at run time is `*`: `queue:*` cannot name `*`
      { code: push('new Redis({ keyPrefix: process.env.PREFIX })'), settings: queue, errors: [pushError()] },
      // a spread the linter cannot read may replace the prefix
      { code: push("new Redis({ keyPrefix: 'queue:', ...overrides })"), settings: queue, errors: [pushError()] },
      // a prefix set on the client after it is made is not read
      {
        code: "import Redis from 'ioredis';\nconst queue = new Redis();\nqueue.options.keyPrefix = 'queue:';\nexport const add = (guild: { id: string }, track: string) => queue.rpush(guild.id, track);",
        settings: queue,
        errors: [pushError(1)],
      },
      // a client passed in: its construction is not read
      {
        code: "import Redis from 'ioredis';\nexport const add = (queue: Redis, guild: { id: string }, track: string) => queue.rpush(guild.id, track);",
        settings: queue,
        errors: [{ messageId: 'noExpiry', line: 2, column: 82 }],
      },
      // a member made with two prefixes: which one is not known
      { code: twoPrefixes, settings: queue, errors: [{ messageId: 'noExpiry', line: 6, column: 54 }] },
    ],
  });
}

// a client imported from another module, and a JavaScript class (untyped: the typed tester's
// project holds only its own files)
runRule(untypedTester, 'incr-needs-expire-on-create (persistentKeys through an imported client keyPrefix)', incrRule, {
  valid: [
    { code: imported, filename: app, settings: queue },
    { code: memberJs, filename: 'queue.js', settings: queue },
  ],
  invalid: [
    // near-miss: the imported client's prefix is `cache:`
    { code: importedCache, filename: app, settings: queue, errors: [{ messageId: 'noExpiry', line: 2, column: 73 }] },
    // no keyPrefix on the imported client
    { code: importedPlain, filename: app, settings: queue, errors: [{ messageId: 'noExpiry', line: 2, column: 68 }] },
  ],
});

const sessionSet = (prefix: string) => `import Redis from 'ioredis';\nconst sessions = new Redis({ keyPrefix: '${prefix}' });\nexport const keep = (id: string, v: string) => sessions.set(id, v);`;
runRule(untypedTester, 'set-requires-ttl-or-keepttl (persistentKeys through a client keyPrefix)', setRule, {
  valid: [{ code: sessionSet('sess:'), settings: persistent('sess:*') }],
  invalid: [
    {
      code: sessionSet('cache:'),
      settings: persistent('sess:*'),
      errors: [{ messageId: 'setWithoutTtl', line: 3, column: 57, suggestions: setSuggestions(sessionSet('cache:'), 'sessions.set(id, v') }],
    },
  ],
});

const sessionPersist = (prefix: string) => `import Redis from 'ioredis';\nconst sessions = new Redis({ keyPrefix: '${prefix}' });\nexport const keep = (id: string) => sessions.persist(id);`;
runRule(untypedTester, 'no-persist (persistentKeys through a client keyPrefix)', noPersistRule, {
  valid: [{ code: sessionPersist('sess:'), settings: persistent('sess:*') }],
  invalid: [{ code: sessionPersist('cache:'), settings: persistent('sess:*'), errors: [{ messageId: 'persist', line: 3, column: 46 }] }],
});
