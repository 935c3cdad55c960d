/**
 * A global client (round 13): a receiver taken for a client by its name that the file never
 * declares nor imports (the Yunzai bot framework's global `redis`, `globalThis.redis`, a
 * `/* global redis *\/` comment) gets the library its package uses it as: an assignment of a
 * client to it (`global.redis = new Redis()`), or calls on it in a syntax only one client runs
 * (`redis.lPop(k)`, `redis.set(k, v, { EX: 30 })`: node-redis 4+; `redis.getBuffer(k)`: ioredis).
 * On node-redis, `redis.set(k, v, 300)` then writes the key without TTL (the number is not an
 * options object) and is reported, also for a constant key or one the code deletes elsewhere: the
 * code meant it to expire. Unknown library (no evidence, or two libraries): nothing the client
 * would drop is reported, as before.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import validTtlArgs from '../../rules/valid-ttl-args.js';
import { libraryTextFilter, syntaxFlavor } from '../../redis-calls/global-clients.js';
import { clientDetectorOf } from '../../redis-calls/index.js';
import { nodeRedis, runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'global-clients');
/** A plugin whose other module calls the global `redis` with `{ EX: 30 }` and `lPop`: node-redis. */
const plugin = join(fixtures, 'node-redis-plugin', 'apps', 'prompts.js');
/** An application whose `lib/setup.js` assigns `global.redis = new Redis()` (ioredis). */
const ioredisApp = join(fixtures, 'ioredis-app', 'lib', 'jobs.js');
/** A plugin whose global `redis` is called as node-redis (`hSet`) in one file and ioredis (`getBuffer`) in another. */
const mixed = join(fixtures, 'mixed-plugin', 'apps', 'c.js');
/** A plugin whose global `redis` is only called with `get`, which every client has. */
const bare = join(fixtures, 'bare-plugin', 'apps', 'b.js');

/** The numberAsOptions finding at the method name of `redis.set(k, v, 300)`, with its suggestion's `output`. */
const numberAsOptions = (line: number, column: number, output: string) => ({
  messageId: 'numberAsOptions' as const,
  line,
  column,
  suggestions: [{ messageId: 'useOptionsObject' as const, data: { text: '300' }, output }],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (a global client of the package)', setRule, {
  valid: [
    // the options object node-redis reads
    { code: "await redis.set('plugin:upload', state, { EX: 300 });", filename: plugin },
    // ioredis (assigned in lib/setup.js): the number is sent as written (Redis answers a syntax error)
    { code: "await redis.set('jobs:upload', state, 300);", filename: ioredisApp },
    // two libraries in the package, or none: the library stays unknown
    { code: "await redis.set('mixed:upload', state, 300);", filename: mixed },
    { code: "await redis.set('bare:upload', state, 300);", filename: bare },
    // a local that is no client shadows the global
    { code: "const redis = new Map();\nredis.set('plugin:upload', state, 300);", filename: plugin },
    // a parameter named redis is not the global: its library is not the package's global's
    { code: "export function save(redis, state) {\n  return redis.set('plugin:upload', state, 300);\n}", filename: plugin },
    // a global whose name is no client name is no receiver
    { code: "await store.set('plugin:upload', state, 300);", filename: plugin },
    // a key declared persistent stays unreported
    { code: "await redis.set('plugin:upload', state, 300);", filename: plugin, settings: { 'redis-ttl': { persistentKeys: ['plugin:upload'] } } },
  ],
  invalid: [
    // the missed leak: a fixed key, deleted by the flow's cancel path, meant to expire in 5 minutes
    {
      code: "export async function start(state) {\n  await redis.set('plugin:upload', JSON.stringify(state), 300);\n}\nexport async function cancel() {\n  await redis.del('plugin:upload');\n}",
      filename: plugin,
      errors: [
        numberAsOptions(
          2,
          15,
          "export async function start(state) {\n  await redis.set('plugin:upload', JSON.stringify(state), { EX: 300 });\n}\nexport async function cancel() {\n  await redis.del('plugin:upload');\n}",
        ),
      ],
    },
    // a key per user
    {
      code: 'await redis.set(`plugin:draft:${userId}`, text, 300);',
      filename: plugin,
      errors: [numberAsOptions(1, 13, 'await redis.set(`plugin:draft:${userId}`, text, { EX: 300 });')],
    },
    // the global object's property, in each spelling
    ...['global', 'globalThis', 'window', 'self'].map((object) => ({
      code: `await ${object}.redis.set('plugin:upload', state, 300);`,
      filename: plugin,
      errors: [numberAsOptions(1, object.length + 14, `await ${object}.redis.set('plugin:upload', state, { EX: 300 });`)],
    })),
    // declared by a comment (ESLint's globals have no definition in the code)
    {
      code: "/* global redis */\nawait redis.set('plugin:upload', state, 300);",
      filename: plugin,
      errors: [numberAsOptions(2, 13, "/* global redis */\nawait redis.set('plugin:upload', state, { EX: 300 });")],
    },
  ],
});

/**
 * A bare number as node-redis SET options: the code meant the key to expire, so the exemptions
 * that read a write without TTL as kept on purpose do not apply; a key declared persistent, or
 * expired right after in the same MULTI, is still left alone.
 */
runRule(untypedTester, 'set-requires-ttl-or-keepttl (a dropped TTL is no key kept on purpose)', setRule, {
  valid: [
    { code: nodeRedis("await client.set('config:flag', v, 60);"), settings: { 'redis-ttl': { persistentKeys: ['config:*'] } } },
    { code: nodeRedis("// redis-ttl persistent: the flag lives as long as the deployment\nawait client.set('config:flag', v, 60);") },
    { code: nodeRedis("await client.multi().set('config:flag', v, 60).expire('config:flag', 60).exec();") },
  ],
  invalid: [
    // a constant key
    {
      code: nodeRedis("await client.set('config:flag', v, 60);"),
      errors: [{ messageId: 'numberAsOptions', line: 3, column: 14, suggestions: [{ messageId: 'useOptionsObject', output: nodeRedis("await client.set('config:flag', v, { EX: 60 });") }] }],
    },
    // a key the file deletes elsewhere
    {
      code: nodeRedis("await client.set(`draft:${id}`, v, 60);\nawait client.del(`draft:${id}`);"),
      errors: [
        {
          messageId: 'numberAsOptions',
          line: 3,
          column: 14,
          suggestions: [{ messageId: 'useOptionsObject', output: nodeRedis("await client.set(`draft:${id}`, v, { EX: 60 });\nawait client.del(`draft:${id}`);") }],
        },
      ],
    },
  ],
});

runRule(untypedTester, 'valid-ttl-args (a global client of the package)', validTtlArgs, {
  valid: [
    // ioredis takes the tokens
    { code: "await redis.set(`jobs:${id}`, state, 'EX', 60);", filename: ioredisApp },
    // unknown library: nothing is called dropped
    { code: "await redis.set(`bare:${id}`, state, 'EX', 60);", filename: bare },
  ],
  invalid: [
    {
      code: "await redis.set(`plugin:${id}`, state, 'EX', 60);",
      filename: plugin,
      errors: [
        {
          messageId: 'positionalTokens',
          line: 1,
          column: 40,
          suggestions: [{ messageId: 'useOptionsObject', output: 'await redis.set(`plugin:${id}`, state, { EX: 60 });' }],
        },
      ],
    },
  ],
});

describe('the library a call on a global is written for', () => {
  const linter = new Linter({ configType: 'flat' });
  /** The flavor syntaxFlavor gives the first member call of `code`. */
  const flavorOf = (code: string): string | undefined => {
    let found: string | undefined = 'none';
    const rule = {
      create: () => ({
        CallExpression(node: { callee: { type: string; property: { name: string } } }) {
          if (found === 'none' && node.callee.type === 'MemberExpression') found = syntaxFlavor(node.callee.property.name, node as never);
        },
      }),
    };
    linter.verify(code, [{ languageOptions: { parser: tsParser as never }, plugins: { t: { rules: { r: rule as never } } }, rules: { 't/r': 'error' } }]);
    return found;
  };

  it('reads camelCase commands and sendCommand as node-redis', () => {
    expect(flavorOf("redis.hSet(k, 'f', v)")).toBe('node-redis');
    expect(flavorOf('redis.lPop(k)')).toBe('node-redis');
    expect(flavorOf("redis.sendCommand(['GET', k])")).toBe('node-redis');
  });

  it('reads SET options objects by their casing', () => {
    expect(flavorOf('redis.set(k, v, { EX: 30 })')).toBe('node-redis');
    expect(flavorOf('redis.set(k, v, { NX: true, PX: 500 })')).toBe('node-redis');
    expect(flavorOf('redis.set(k, v, { ex: 30 })')).toBe('upstash');
    expect(flavorOf('redis.set(k, v, { EX: 30, ex: 30 })')).toBeUndefined();
  });

  it('reads ioredis-only methods as ioredis', () => {
    expect(flavorOf('redis.getBuffer(k)')).toBe('ioredis');
    expect(flavorOf("redis.defineCommand('x', {})")).toBe('ioredis');
    expect(flavorOf('redis.scanStream()')).toBe('ioredis');
  });

  it('reads syntax every client runs, and ioredis-style tokens, as no evidence', () => {
    expect(flavorOf('redis.get(k)')).toBeUndefined();
    expect(flavorOf('redis.set(k, v, 300)')).toBeUndefined();
    expect(flavorOf("redis.set(k, v, 'EX', 60)")).toBeUndefined();
    expect(flavorOf('redis.onReady()')).toBeUndefined();
    // ioredis and @upstash/redis both have pipeline()
    expect(flavorOf('redis.pipeline()')).toBeUndefined();
  });
});

describe('the files of a package read for a global (libraryTextFilter)', () => {
  const mayShow = libraryTextFilter('redis');

  it('keeps every file whose parse may show the library, in every spelling the parse reads', () => {
    for (const text of [
      'global.redis = createClient();',
      "globalThis['redis'] = new Redis();",
      '(global as any).redis = await connect();',
      'await redis.lPop(k);',
      'await redis?.hSet(k, f, v);',
      "await (redis as RedisClientType).sendCommand(['GET', k]);",
      "await redis['zAdd'](k, m);",
      'const b = await redis.getBuffer(k);',
      "redis.defineCommand('x', { numberOfKeys: 1, lua });",
      'await redis.set(k, v, { EX: 30 });',
      "await redis.set(k, v, { 'PX': 500 });",
      'await redis.set(k, v, { ex: 30 });',
    ]) {
      expect([text, mayShow(text)]).toEqual([text, true]);
    }
  });

  it('drops files that do not name the global, or only call what every client has', () => {
    for (const text of [
      'await client.lPop(k);',
      'await redis.get(k); await redis.set(k, v); await redis.set(k, v, 300);',
      "await redis.set(k, v, 'EX', 60);",
      'if (redis.status === "ready") await redis.incr(k);',
      'redis.get(k).then((v) => v);',
      'const redisUrl = process.env.REDIS_URL; cache.lPop(k);',
    ]) {
      expect([text, mayShow(text)]).toEqual([text, false]);
    }
  });
});

describe('the verdict on a global receiver', () => {
  const linter = new Linter({ configType: 'flat' });
  /** The flavor and reason the detector gives the receiver of the first member call of `code`, linted as `filename`. */
  const verdictOf = (code: string, filename: string): { flavor?: string; why?: string } => {
    let found: { flavor?: string; why?: string } = {};
    const rule = {
      create: (context: never) => ({
        'CallExpression > MemberExpression.callee'(node: { object: never }) {
          const verdict = clientDetectorOf(context).classify(node.object);
          if (verdict.redis && found.flavor === undefined) found = { flavor: verdict.flavor, why: verdict.why };
        },
      }),
    };
    linter.verify(code, [{ files: ['**/*.js'], languageOptions: { parser: tsParser as never }, plugins: { t: { rules: { r: rule as never } } }, rules: { 't/r': 'error' } }], filename);
    return found;
  };

  it('takes the library of the client the package assigns to it', () => {
    expect(verdictOf('redis.get(k);', ioredisApp)).toEqual({ flavor: 'ioredis', why: "its name matches clientNames 'redis', a global the package uses as an ioredis client (`global.redis = ...` in lib/setup.js)" });
  });

  it('takes the library of the calls the package makes on it', () => {
    expect(verdictOf('globalThis.redis.get(k);', plugin)).toEqual({
      flavor: 'node-redis',
      why: "its name matches clientNames 'redis', a global the package uses as a node-redis client (`redis.set(...)` in apps/cooldown.js)",
    });
  });

  it('leaves it unknown when the package shows two libraries, or none', () => {
    expect(verdictOf('redis.get(k);', mixed).flavor).toBe('unknown');
    expect(verdictOf('redis.get(k);', bare).flavor).toBe('unknown');
  });

  it('does not read a declared binding of the same name as the global', () => {
    expect(verdictOf('export function f(redis) { return redis.get(k); }', plugin).flavor).toBe('unknown');
  });
});
