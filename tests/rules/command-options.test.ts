/**
 * node-redis 4 command options written as a command's first argument
 * (`client.get(commandOptions({ returnBuffers: true }), key)`): the client takes them off and the
 * key is the next argument (@redis/client `transformCommandArguments`). Every rule then sees the
 * argv Redis gets: the key, value and options after them. Shapes: the package export, the
 * client's `commandOptions` method, a bundler's `(0, ns.commandOptions)(...)`, a const bound to
 * one, a local function returning one, an object spreading one; node-redis 5's proxies
 * (`withAbortSignal`, `asap`) are clients. Near-misses: a local `commandOptions` that makes no
 * options, and an ioredis client (no command options there).
 */
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import positiveRule from '../../rules/expire-needs-positive-ttl.js';
import { runRule, untypedTester } from './tester.js';

const v4 = (body: string) => `import { createClient, commandOptions } from 'redis';\nconst client = createClient();\n${body}`;
const fn = (body: string) => `export async function put(k: string, v: string) {\n${body}\n}`;
const hint = (shape: string) => ` Kept forever on purpose? Add '${shape}' to settings['redis-ttl'].persistentKeys.`;
/** The two suggestions of a node-redis SET whose value ends `call`: an expiry, then KEEPTTL. */
const setSuggestions = (code: string, call: string) => [
  { messageId: 'addExpiryPlaceholder' as const, data: { name: 'TTL_SECONDS' }, output: code.replace(call, `${call}, { EX: TTL_SECONDS }`) },
  { messageId: 'addKeepTtl' as const, output: code.replace(call, `${call}, { KEEPTTL: true }`) },
];

const sessionSet = v4(fn('  await client.set(commandOptions({ isolated: true }), `session:${k}`, v);'));
const boundSet = v4(fn("  const options = commandOptions({ signal: AbortSignal.timeout(5000) });\n  await client.set(options, `page:${k}`, v);"));
const thenExpire = v4(fn("  await client.set(commandOptions({ isolated: true }), `page:${k}`, v);\n  await client.expire(commandOptions({ isolated: true }), `page:${k}`, 60);"));
const notOptions = `import { createClient } from 'redis';\nconst client = createClient();\nfunction commandOptions(o: string) { return o; }\n${fn('  await client.set(commandOptions(k), v);')}`;

runRule(untypedTester, 'node-redis command options: SET', setRule, {
  valid: [
    // the options object at its place after the key and value
    v4(fn("  await client.set(commandOptions({ isolated: true }), k, v, { EX: 60 });")),
    v4(fn("  await client.set(client.commandOptions({ returnBuffers: true }), `s:${k}`, v, { PX: 5000 });")),
    // a bundler's namespace call, a const bound to options, an object spreading them
    `const import_redis = require('redis');\nconst client = import_redis.createClient();\nasync function put(k, v) {\n  await client.set((0, import_redis.commandOptions)({ isolated: true }), k, v, { EX: 60 });\n}`,
    v4(fn("  const options = commandOptions({ signal: AbortSignal.timeout(5000) });\n  await client.set(options, k, v, { EXAT: 1700000000 });")),
    v4(fn("  await client.set({ isolated: true, ...commandOptions({}) }, k, v, { EX: 60 });")),
    // a local helper whose every return is command options
    v4(`function timeoutOptions(ms: number) {\n  if (ms === 0) return commandOptions({});\n  return commandOptions({ signal: AbortSignal.timeout(ms) });\n}\n${fn('  await client.set(timeoutOptions(5000), k, v, { EX: 60 });')}`),
  ],
  invalid: [
    {
      // the key is the argument after the options: the message names it, the suggestions add
      // the options object after the value
      code: sessionSet,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          column: 16,
          data: { command: 'SET', key: 'session:*', client: '', hint: hint('session:*') },
          suggestions: setSuggestions(sessionSet, '`session:${k}`, v'),
        },
      ],
    },
    {
      code: boundSet,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 5,
          column: 16,
          data: { command: 'SET', key: 'page:*', client: '', hint: hint('page:*') },
          suggestions: setSuggestions(boundSet, '`page:${k}`, v'),
        },
      ],
    },
    {
      // the expiry follows as its own round trip, both with options
      code: thenExpire,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 4,
          column: 16,
          data: { command: 'SET', key: 'page:*', client: '', hint: '', line: '5' },
          // the EXPIRE's own TTL, in node-redis' syntax, and the EXPIRE goes (redis-calls/write-expiry.ts)
          suggestions: [
            {
              messageId: 'moveLaterExpiry',
              data: { ttl: '60', line: '5' },
              output: thenExpire.replace('`page:${k}`, v);\n  await client.expire(commandOptions({ isolated: true }), `page:${k}`, 60);', '`page:${k}`, v, { EX: 60 });'),
            },
            setSuggestions(thenExpire, '`page:${k}`, v')[1]!,
          ],
        },
      ],
    },
    {
      // near-miss: a local `commandOptions` that returns its argument makes no options
      code: notOptions,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 5,
          column: 16,
          data: { command: 'SET', key: 'commandOptions(k)', client: '', hint: '' },
          suggestions: setSuggestions(notOptions, 'commandOptions(k), v'),
        },
      ],
    },
  ],
});

const proxies = v4(fn('  await client.withAbortSignal(AbortSignal.timeout(50)).incr(`hits:${k}`);\n  await client.asap().sAdd(`seen:${k}`, v);'));
/** A command on a node-redis 5 proxy client without expiry, and its MULTI suggestion. */
const proxyFinding = (line: number, column: number, command: string, prefix: string, call: string) => ({
  messageId: 'noExpiry' as const,
  line,
  column,
  data: { command, key: `${prefix}:*`, client: '', hint: hint(`${prefix}:*`) },
  suggestions: [
    {
      messageId: 'wrapInMulti' as const,
      data: { command, expire: `expire(\`${prefix}:\${k}\`, TTL_SECONDS)`, declare: '; declare TTL_SECONDS with the TTL this key needs' },
      output: proxies.replace(call, `.multi()${call}.expire(\`${prefix}:\${k}\`, TTL_SECONDS).exec()`),
    },
  ],
});
const incrThenExpire = v4(fn("  await client.incr(commandOptions({ isolated: true }), `hits:${k}`);\n  await client.expire(commandOptions({ isolated: true }), `hits:${k}`, 60);"));

runRule(untypedTester, 'node-redis command options: INCR, HSET and the expiry', incrRule, {
  valid: [
    // the expiry in the same MULTI (node-redis 4 queues no command options in a MULTI)
    v4(fn('  await client.multi().incr(`hits:${k}`).expire(`hits:${k}`, 60).exec();')),
  ],
  invalid: [
    {
      // no MULTI suggestion and no incrementWithTtl: neither takes the options
      code: incrThenExpire,
      errors: [{ messageId: 'separateRoundTrip', line: 4, column: 16, data: { command: 'INCR', key: 'hits:*', line: '5', client: '', hint: '' }, suggestions: [] }],
    },
    {
      code: v4(fn("  await client.hSet(commandOptions({ isolated: true }), `tags:${k}`, 'a', v);")),
      errors: [{ messageId: 'noExpiry', line: 4, column: 16, data: { command: 'HSET', key: 'tags:*', client: '', hint: hint('tags:*') }, suggestions: [] }],
    },
    {
      // node-redis 5 has no options argument: its proxies (withAbortSignal, asap) are the client
      code: proxies,
      errors: [
        proxyFinding(4, 57, 'INCR', 'hits', '.incr(`hits:${k}`)'),
        proxyFinding(5, 23, 'SADD', 'seen', '.sAdd(`seen:${k}`, v)'),
      ],
    },
  ],
});

runRule(untypedTester, 'node-redis command options: the TTL argument', positiveRule, {
  valid: [v4(fn('  await client.expire(commandOptions({ isolated: true }), k, 60);'))],
  invalid: [
    {
      // the TTL is the argument after the key
      code: v4(fn('  await client.expire(commandOptions({ isolated: true }), k, 0);')),
      // a literal EXPIRE 0 is a delete the code means: reported in strict only
      options: [{ checkParameters: true }],
      errors: [{ messageId: 'literalDeletes', line: 4, column: 62, data: { command: 'EXPIRE', value: '0', key: 'k' } }],
    },
  ],
});
