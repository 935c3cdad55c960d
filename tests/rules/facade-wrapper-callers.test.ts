/**
 * Callers of an application's own Redis wrapper (round 12, t33; nostrcheck-server's relay worker
 * cached chunk headers through `RedisService.set` without the options it passes elsewhere): a
 * pass-through write wrapper (`redis-calls/pass-through.ts`) whose write carries no TTL unless its
 * caller passes one (an optional TTL parameter, or an options object with an expiry field) is left
 * alone where it is, and each call of it is read as the command, with the caller's arguments
 * (`redis-calls/facades.ts`). This file covers what made such callers go unread: the instance held
 * in a binding annotated `RedisService | null` (assigned later), or taken from a function of the
 * code that returns it (`await initRedis()`, declared `Promise<RedisService>` or returning `new
 * RedisService()`), and node-redis options objects passed through the wrapper (`{ EX: 60 }` at the
 * caller, `{}` or nothing at all: the wrapper's default `{}`). Near-misses stay clean: a caller
 * that passes an expiry (options object, a SETEX wrapper), an options variable the rules cannot
 * read, a bounded key, a `persistentKeys` key, a wrapper that always sets its own TTL.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { nodeRedis, runRule, typedTester, untypedTester } from './tester.js';

/** A file next to tests/fixtures/facades/service.ts. */
const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'facades', 'app.ts');

/**
 * The wrapper in the caller's module: `set` (lines 6-13) forwards an options object, `setCached`
 * (line 14) always expires its key; `init` returns the instance; `body` starts on line 20.
 */
const service = (body: string): string =>
  nodeRedis(
    [
      'class RedisService {',
      '  private prefix = "ns";',
      '  private withPrefix(key: string) { return `${this.prefix}:${key}`; }',
      '  async set(key: string, value: string, options: { EX?: number } = {}) {',
      '    try {',
      '      await client.set(this.withPrefix(key), value, options);',
      '      return true;',
      '    } catch {',
      '      return false;',
      '    }',
      '  }',
      '  setCached(key: string, value: string) { return client.set(this.withPrefix(key), value, { EX: 60 }); }',
      '}',
      'let worker: RedisService | null = null;',
      'function init(): RedisService { return new RedisService(); }',
      'const made = () => new RedisService();',
      'type Plan = "free" | "pro";',
      body,
    ].join('\n'),
  );

const SET_MESSAGE_CLIENT = (callee: string, line: number): string => ` (\`${callee}\` forwards the key to SET, line ${line}.)`;

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'set-requires-ttl-or-keepttl (an application wrapper, same module)', setRule, {
    valid: [
      // the caller passes an expiry in the options object
      service('export async function put(id: string, v: string) {\n  worker = init();\n  await worker.set(`chunk:${id}`, v, { EX: 300 });\n}'),
      // an options object the rules cannot read may carry one
      service('export async function put(id: string, v: string, opts: { EX?: number }) {\n  await init().set(`chunk:${id}`, v, opts);\n}'),
      // a bounded key: one constant, a union of literals
      service('export async function put(v: string) {\n  await init().set("chunk:latest", v);\n}'),
      service('export async function put(plan: Plan, v: string) {\n  await made().set(`chunk:${plan}`, v);\n}'),
      // a persistentKeys key
      {
        code: service('export async function put(id: string, v: string) {\n  worker = init();\n  await worker.set(`chunk:${id}`, v);\n}'),
        settings: { 'redis-ttl': { persistentKeys: ['chunk:*'] } },
      },
      // a wrapper that always sets its own TTL
      service('export async function put(id: string, v: string) {\n  await init().setCached(`chunk:${id}`, v);\n}'),
    ],
    invalid: [
      // the instance in a binding annotated `RedisService | null`, assigned later (nostrcheck's worker)
      {
        code: service(
          'export async function headers(id: string, active: boolean, v: string) {\n  worker = init();\n  if (active) {\n    await worker.set(`chunk:${id}`, v, { EX: 300 });\n  } else {\n    await worker.set(`chunk:${id}`, v);\n  }\n}',
        ),
        errors: [{ messageId: 'setWithoutTtl', data: { command: 'SET', key: 'chunk:*', client: SET_MESSAGE_CLIENT('worker.set', 8), hint: '' }, line: 25, column: 18 }],
      },
      // the instance from a function of the module (declared return type; returned `new`)
      { code: service('export async function put(id: string, v: string) {\n  const s = init();\n  await s.set(`chunk:${id}`, v);\n}'), errors: [{ messageId: 'setWithoutTtl', line: 22, column: 11 }] },
      { code: service('export async function put(id: string, v: string) {\n  await made().set(`chunk:${id}`, v);\n}'), errors: [{ messageId: 'setWithoutTtl', line: 21, column: 16 }] },
      // an empty options object is no expiry
      { code: service('export async function put(id: string, v: string) {\n  await init().set(`chunk:${id}`, v, {});\n}'), errors: [{ messageId: 'setWithoutTtl', line: 21, column: 16 }] },
    ],
  });
}

runRule(untypedTester, 'set-requires-ttl-or-keepttl (an application wrapper, imported)', setRule, {
  valid: [
    { code: "import { initService } from './service';\nconst redis = await initService();\nexport const put = (id: string, v: string) => redis.set(`chunk:${id}`, v, { EX: 60 });", filename: app },
    { code: "import { initService } from './service';\nconst redis = await initService();\nexport const put = (id: string, v: string) => redis.setex(`chunk:${id}`, 60, v);", filename: app },
  ],
  invalid: [
    // `await initService()`, declared `Promise<RedisService>` in another module
    {
      code: "import { initService } from './service';\nconst redis = await initService();\nexport const put = (id: string, v: string) => redis.set(`chunk:${id}`, v);",
      filename: app,
      errors: [{ messageId: 'setWithoutTtl', data: { command: 'SET', key: 'chunk:*', client: ' (`redis.set` forwards the key to SET, ./service.ts:17.)', hint: '' }, line: 3, column: 53 }],
    },
    // a binding annotated with the imported class or null
    {
      code: "import { RedisService, initService } from './service';\nlet redis: RedisService | undefined;\nexport async function put(id: string, v: string) {\n  redis ??= await initService();\n  await redis.set(`chunk:${id}`, v);\n}",
      filename: app,
      errors: [{ messageId: 'setWithoutTtl', line: 5, column: 15 }],
    },
  ],
});
