/**
 * Defects a new user met in the ESLint rules (their scratch project's files, reduced): `#private`
 * client fields, node-redis factories imported under another name, wrappers forwarding spread
 * arguments, the MULTI suggestion on an INCR whose reply is read, scripts built from constant
 * pieces, KEEPTTL with an expiry as ioredis tokens, and keys quoted twice in messages.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { describeCommand } from '../../semantics/commands.js';
import embeddedLua from '../../rules/embedded-lua.js';
import expireNeedsPositiveTtl from '../../rules/expire-needs-positive-ttl.js';
import incrNeedsExpire from '../../rules/incr-needs-expire-on-create.js';
import plugin from '../../rules/index.js';
import setRequiresTtl from '../../rules/set-requires-ttl-or-keepttl.js';
import validTtlArgs from '../../rules/valid-ttl-args.js';
import { fixturesDir, ioredis, runRule, untypedTester } from './tester.js';

const set = (line: number, column: number) => ({ messageId: 'setWithoutTtl' as const, line, column });
const nodeRedisSet = (line: number, column: number, code: string, call: string) => ({
  ...set(line, column),
  suggestions: [
    { messageId: 'addExpiryPlaceholder' as const, output: code.replace(call, `${call}, { EX: TTL_SECONDS }`) },
    { messageId: 'addKeepTtl' as const, output: code.replace(call, `${call}, { KEEPTTL: true }`) },
  ],
});
const ioredisSet = (line: number, column: number, code: string, call: string) => ({
  ...set(line, column),
  suggestions: [
    { messageId: 'addExpiryPlaceholder' as const, output: code.replace(call, `${call}, 'EX', TTL_SECONDS`) },
    { messageId: 'addKeepTtl' as const, output: code.replace(call, `${call}, 'KEEPTTL'`) },
  ],
});

// 1. #private fields are classified like public ones; 2. factories by their imported name;
// 3. a spread that may carry the options counts as unknown options.
const priv = `import Redis from 'ioredis';
export class S {
  redis = new Redis();
  #redis = new Redis();
  #conn = new Redis();
  static #shared = new Redis();
  async a(id) { await this.redis.set(\`a:\${id}\`, 'v'); }
  async b(id) { await this.#redis.set(\`b:\${id}\`, 'v'); }
  async c(id) { await this.#conn.set(\`c:\${id}\`, 'v'); }
  async d(id) { await S.#shared.set(\`d:\${id}\`, 'v'); }
}`;
const privAnnotated = `import { Redis } from 'ioredis';
export class S {
  #redis: Redis;
  constructor(r: Redis) { this.#redis = r; }
  async b(id: string) { await this.#redis.set(\`b:\${id}\`, 'v'); }
}`;
const alias5 = `import { createClient as createRedisClient } from 'redis';
const cache = createRedisClient();
export async function a(id) { await cache.set(\`a:\${id}\`, 'v'); }`;
const aliasRequire = `const { createClient: mk } = require('redis');
const c1 = mk();
async function a(id) { await c1.set(\`a:\${id}\`, 'v'); }`;
const aliasCluster = `import { createCluster as mkc } from 'redis';
const c2 = mkc({ rootNodes: [] });
export async function b(id) { await c2.set(\`b:\${id}\`, 'v'); }`;
const aliasDynamic = `const { createClient: cc } = await import('redis');
const nr3 = cc();
export async function e(id) { await nr3.set(\`e:\${id}\`, 'v'); }`;

runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRequiresTtl, {
  valid: [
    // a private field that is not a client, next to a public one that is
    `import Redis from 'ioredis';\nexport class S {\n  redis = new Redis();\n  #redis = new Map();\n  a(id) { this.#redis.set(\`a:\${id}\`, 'v'); }\n}`,
    // a factory of another package under a client's name, and a client package's non-factory under a factory's name
    `import { createClient as mk } from '@supabase/supabase-js';\nconst c = mk();\nc.set(\`a:\${id}\`, 'v');`,
    `import { commandOptions as createClient } from 'redis';\nconst c = createClient();\nc.set(\`a:\${id}\`, 'v');`,
    // wrappers forwarding their arguments: the options may be in the spread
    ioredis(`export async function set(...args) { return redis.set(...args); }`),
    ioredis(`export const cacheSet = (...args) => redis.set(...args);`),
    `import Redis from 'ioredis';\nexport class Store {\n  constructor() { this.redis = new Redis(); }\n  set(...args) { return this.redis.set(...args); }\n  write(key, ...rest) { return this.redis.set(key, ...rest); }\n}`,
    ioredis(`export function put(key, value, ttl) { return redis.set(...[key, value, 'EX', ttl]); }`),
  ],
  invalid: [
    {
      code: priv,
      errors: [
        ioredisSet(7, 34, priv, "set(`a:${id}`, 'v'"),
        ioredisSet(8, 35, priv, "set(`b:${id}`, 'v'"),
        ioredisSet(9, 34, priv, "set(`c:${id}`, 'v'"),
        ioredisSet(10, 33, priv, "set(`d:${id}`, 'v'"),
      ],
    },
    { code: privAnnotated, errors: [ioredisSet(5, 43, privAnnotated, "set(`b:${id}`, 'v'")] },
    { code: alias5, errors: [nodeRedisSet(3, 43, alias5, "set(`a:${id}`, 'v'")] },
    { code: aliasRequire, errors: [nodeRedisSet(3, 33, aliasRequire, "set(`a:${id}`, 'v'")] },
    { code: aliasCluster, errors: [nodeRedisSet(3, 40, aliasCluster, "set(`b:${id}`, 'v'")] },
    { code: aliasDynamic, errors: [nodeRedisSet(3, 41, aliasDynamic, "set(`e:${id}`, 'v'")] },
    {
      // a spread of a literal array is read: still no expiry
      code: ioredis(`export const f = (id) => redis.set(...[\`f:\${id}\`, 'v']);`),
      errors: [{ ...set(3, 32), suggestions: [] }],
    },
  ],
});

// 6. KEEPTTL together with an expiry as ioredis tokens: Redis answers "ERR syntax error".
runRule(untypedTester, 'valid-ttl-args', validTtlArgs, {
  valid: [ioredis(`redis.set(k, 'v', 'EX', 10, 'EX', 20);`), ioredis(`redis.set(k, 'v', 'XX', 'KEEPTTL');`)],
  invalid: [
    {
      code: ioredis(`await redis.set(\`kt:\${id}\`, 'v', 'KEEPTTL', 'EX', 10);`),
      errors: [{ messageId: 'keepTtlWithExpiry', data: { option: 'EX' }, line: 3, column: 34, endLine: 3, endColumn: 43 }],
    },
    {
      code: ioredis(`await redis.set(\`kt:\${id}\`, 'v', 'EX', 10, 'KEEPTTL');`),
      errors: [{ messageId: 'keepTtlWithExpiry', data: { option: 'EX' }, line: 3, column: 44, endLine: 3, endColumn: 53 }],
    },
    {
      code: ioredis(`await redis.call('SET', k, 'v', 'PXAT', at, 'KEEPTTL');`),
      errors: [{ messageId: 'keepTtlWithExpiry', data: { option: 'PXAT' }, line: 3, column: 45, endLine: 3, endColumn: 54 }],
    },
  ],
});

describe('SET options that exclude each other (semantics/commands.ts)', () => {
  it('names the second token and the one it conflicts with; a repeated token is accepted', () => {
    expect(describeCommand('SET', ['k', 'v', 'KEEPTTL', 'EX', 10]).conflictingOption).toEqual({ arg: 3, option: 'EX', conflictsWith: 'KEEPTTL' });
    expect(describeCommand('SET', ['k', 'v', 'EX', 10, 'KEEPTTL']).conflictingOption).toEqual({ arg: 4, option: 'KEEPTTL', conflictsWith: 'EX' });
    expect(describeCommand('SET', ['k', 'v', 'NX', 'XX']).conflictingOption).toEqual({ arg: 3, option: 'XX', conflictsWith: 'NX' });
    expect(describeCommand('SET', ['k', 'v', 'NX', 'XX']).rejected).toBe(true);
    expect(describeCommand('SET', ['k', 'v', 'EX', 10, 'EX', 20]).conflictingOption).toBeUndefined();
    expect(describeCommand('SET', ['k', 'v', 'XX', 'KEEPTTL', 'GET']).conflictingOption).toBeUndefined();
  });
});

// 7. A template key is quoted once, as its shape, as in every other rule.
runRule(untypedTester, 'expire-needs-positive-ttl', expireNeedsPositiveTtl, {
  valid: [],
  invalid: [
    {
      code: ioredis(`await redis.expire(\`q:\${id}\`, 0);`),
      // a literal EXPIRE 0 is a delete the code means: reported in strict only
      options: [{ checkParameters: true }],
      errors: [{ messageId: 'literalDeletes', data: { command: 'EXPIRE', value: '0', key: 'q:*' }, line: 3, column: 31 }],
    },
    {
      code: ioredis(`await redis.expire(\`\${a}\${b}\`, 0);`),
      options: [{ checkParameters: true }],
      errors: [{ messageId: 'literalDeletes', data: { command: 'EXPIRE', value: '0', key: '${a}${b}' }, line: 3, column: 32 }],
    },
  ],
});

// 5. Scripts built from compile-time constant pieces are analysed, positions in the host pieces.
runRule(untypedTester, 'embedded-lua', embeddedLua, {
  valid: [
    // the expiry comes from a const string piece
    ioredis(`const EXPIRE = "redis.call('PEXPIRE', KEYS[1], ARGV[1])\\n";\nredis.eval("redis.call('SADD', KEYS[1], ARGV[2])\\n" + EXPIRE + "return 1", 1, 'k', '1000', 'm');`),
    // a template whose substitution is a module const number
    ioredis(`const TTL = 60;\nconst SCRIPT = \`\nlocal n = redis.call('INCR', KEYS[1])\nredis.call('EXPIRE', KEYS[1], \${TTL})\nreturn n\`;\nredis.eval(SCRIPT, 1, 'k');`),
  ],
  invalid: [
    {
      // a piece known only at run time: reported once as built at run time (issue 28), never dropped
      code: ioredis(`export const d = (cmd) => redis.eval("redis.call('" + cmd + "', KEYS[1], 'x') return 1", 1, 'k');`),
      errors: [{ messageId: 'luaFinding', line: 3, column: 38, endLine: 3, endColumn: 88 }],
    },
    {
      code: ioredis(`redis.eval("local x = 1\\n" + "redis.call('LPUSH', KEYS[1], 'v')\\n" + "return x", 1, k);`),
      errors: [{ messageId: 'luaFinding', line: 3, column: 31, endLine: 3, endColumn: 64 }],
    },
    {
      code: ioredis(`redis.eval(["redis.call('SADD', KEYS[1], 'x')", "return 1"].join('\\n'), 1, k);`),
      errors: [{ messageId: 'luaFinding', line: 3, column: 14, endLine: 3, endColumn: 46 }],
    },
    {
      code: ioredis(`redis.eval(String.raw\`local x = "\\n"\nredis.call("SADD", KEYS[1], x)\nreturn 1\`, 1, k);`),
      errors: [{ messageId: 'luaFinding', line: 4, column: 1, endLine: 4, endColumn: 31 }],
    },
    {
      code: ioredis(`const PART = "redis.call('SADD', KEYS[1], 'x')\\n";\nconst N = 1;\nredis.eval(\`local n = \${N}\n\${PART}return n\`, 1, k);`),
      errors: [{ messageId: 'luaFinding', line: 3, column: 15, endLine: 3, endColumn: 47 }],
    },
  ],
});

// 4. The MULTI suggestion only where it leaves working code; the guarded idiom gets incrementWithTtl.
const guarded = ioredis(`export async function hit(key: string) {\n  const n = await redis.incr(key);\n  if (n === 1) await redis.expire(key, 60);\n  return n;\n}`);
const discarded = ioredis(`export async function hit(key: string) {\n  await redis.incr(key);\n  await redis.expire(key, 60);\n}`);
const hSet = `import { createClient } from 'redis';\nconst client = createClient();\nexport async function profile(id: string, fields: Record<string, string>) {\n  await client.hSet(\`profile:\${id}\`, fields);\n  await client.expire(\`profile:\${id}\`, 600);\n}`;
const conditional = ioredis(`export async function hit(key: string, flag: boolean) {\n  await redis.incr(key);\n  if (flag) { await redis.expire(key, 60); }\n}`);
const suggested = {
  guarded: ioredis(`export async function hit(key: string) {\n  const { value: n } = await incrementWithTtl(redis, key, { ttlMs: 60000 });\n  return n;\n}`).replace(
    "import Redis from 'ioredis';\n",
    "import Redis from 'ioredis';\nimport { incrementWithTtl } from 'redis-ttl-runtime';\n",
  ),
  discardedHelper: ioredis(`export async function hit(key: string) {\n  await incrementWithTtl(redis, key, { ttlMs: 60000, mode: 'sliding' });\n}`).replace(
    "import Redis from 'ioredis';\n",
    "import Redis from 'ioredis';\nimport { incrementWithTtl } from 'redis-ttl-runtime';\n",
  ),
  discardedMulti: ioredis(`export async function hit(key: string) {\n  await redis.multi().incr(key).expire(key, 60).exec();\n}`),
  hSet: `import { createClient } from 'redis';\nconst client = createClient();\nexport async function profile(id: string, fields: Record<string, string>) {\n  await client.multi().hSet(\`profile:\${id}\`, fields).expire(\`profile:\${id}\`, 600).exec();\n}`,
};

runRule(untypedTester, 'incr-needs-expire-on-create', incrNeedsExpire, {
  valid: [],
  invalid: [
    {
      code: guarded,
      errors: [{ messageId: 'separateRoundTrip', line: 4, column: 25, suggestions: [{ messageId: 'useIncrementWithTtl', output: suggested.guarded }] }],
    },
    {
      code: discarded,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          column: 15,
          suggestions: [
            { messageId: 'useIncrementWithTtl', output: suggested.discardedHelper },
            { messageId: 'wrapInMulti', output: suggested.discardedMulti },
          ],
        },
      ],
    },
    {
      code: hSet,
      errors: [{ messageId: 'separateRoundTrip', line: 4, column: 16, suggestions: [{ messageId: 'wrapInMulti', output: suggested.hSet }] }],
    },
    {
      // the expiry runs only under a condition: moving it into the MULTI would change what the code does
      code: conditional,
      errors: [{ messageId: 'separateRoundTrip', line: 4, column: 15, suggestions: [] }],
    },
  ],
});

describe('the INCR / HSET suggestions leave working code', () => {
  const work = mkdtempSync(join(fixturesDir, '.suggested-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('lints clean with the recommended config', () => {
    const linter = new Linter({ configType: 'flat' });
    const config: Linter.Config[] = [
      { files: ['**/*.ts'], languageOptions: { parser: tsParser } },
      { ...(plugin.configs.recommended as Linter.Config), files: ['**/*.ts'] },
    ];
    for (const [name, code] of Object.entries(suggested)) {
      expect(linter.verify(code, config, { filename: `${name}.ts` }), name).toEqual([]);
    }
  });

  it('type-checks against the clients and the runtime', () => {
    const files = Object.entries(suggested).map(([name, code]) => {
      const file = join(work, `${name}.ts`);
      writeFileSync(file, code);
      return file;
    });
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
