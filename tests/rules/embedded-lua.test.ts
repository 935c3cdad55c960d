import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import rule from '../../rules/embedded-lua.js';
import plugin from '../../rules/index.js';
import { cookedToRawOffsets } from '../../redis-calls/lua.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester, upstash } from './tester.js';

const leakySet = `"redis.call('SET', KEYS[1], ARGV[1])"`;
/** ARGV[1] = TTL in seconds, 0 = no TTL: the caller's choice. */
const optionalTtl = `"redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])\\nlocal ttl = tonumber(ARGV[1])\\nif ttl and ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) end\\nreturn 1"`;

runRule(untypedTester, 'embedded-lua', rule, {
  valid: [
    ioredis(`redis.eval("local n = redis.call('INCR', KEYS[1])\\nredis.call('EXPIRE', KEYS[1], 60)\\nreturn n", 1, k);`),
    ioredis(`redis.evalsha(sha, 1, k);`),
    ioredis(`redis.eval(script, 1, k);`),
    `const sandbox = { eval(s: string) { return s; } };\nsandbox.eval(${leakySet});`,
    { code: ioredis(`redis.eval(${leakySet}, 1, k);`), options: [{ rules: { 'write-path-needs-ttl': 'off' } }] },
    { code: ioredis(`redis.eval(${leakySet}, 1, k);`), options: [{ persistentKeys: [1] }] },
    { code: ioredis(`redis.eval(${leakySet}, 1, k);`), options: [{ persistentKeys: ['KEYS[*]'] }] },
    // a TTL the caller may leave out (0 = none): not reported by default (recommended)
    ioredis(`redis.eval(${optionalTtl}, 1, k, 0, f, v);`),
  ],
  invalid: [
    {
      // a disable comment with a rule id lua-lint does not have: reported at the comment, as the CLI does
      code: ioredis(`const SWAP = \`\n-- lua-lint-disable-next-line no-getst\nredis.call('GETSET', KEYS[1], ARGV[1])\n\`;\nredis.eval(SWAP, 1, k, v);`),
      errors: [
        {
          messageId: 'luaFinding',
          data: {
            ruleId: 'unknown-rule-in-directive',
            message:
              "Unknown rule 'no-getst' in lua-lint-disable-next-line; did you mean 'no-getset'? The comment disables nothing under that name, so the finding it was written for stays reported.",
          },
          line: 4,
          column: 1,
          endLine: 4,
          endColumn: 39,
        },
        { messageId: 'luaFinding', line: 5, column: 1, endLine: 5, endColumn: 39 },
      ],
    },
    {
      code: ioredis(`redis.eval("local n = redis.call('INCR', KEYS[1])\\nreturn n", 1, key);`),
      errors: [{ messageId: 'luaFinding', line: 3, column: 23, endLine: 3, endColumn: 50 }],
    },
    {
      // escapes before the finding: \\' and \\n are two characters in the file, one in the script
      code: ioredis(`redis.eval('local a = \\'x\\'\\nredis.call("INCR", KEYS[1])', 1, k);`),
      errors: [{ messageId: 'luaFinding', line: 3, column: 30, endLine: 3, endColumn: 57 }],
    },
    {
      // a const script used twice is reported once, inside the template literal
      code: ioredis(`const SCRIPT = \`\nredis.call('SET', KEYS[1], ARGV[1])\n\`;\nredis.eval(SCRIPT, 1, a);\nredis.eval(SCRIPT, 1, b);`),
      errors: [{ messageId: 'luaFinding', line: 4, column: 1, endLine: 4, endColumn: 36 }],
    },
    {
      code: ioredis(`redis.defineCommand('take', {\n  numberOfKeys: 1,\n  lua: 'return redis.call("GETSET", KEYS[1], "0")',\n});`),
      errors: [{ messageId: 'luaFinding', line: 5, column: 16, endLine: 5, endColumn: 50 }],
    },
    {
      // strict: the caller-chosen TTL is reported too
      code: ioredis(`redis.eval(${optionalTtl}, 1, k, 0, f, v);`),
      options: [{ allowOptionalTtl: false }],
      errors: [{ messageId: 'luaFinding', line: 3, column: 13, endLine: 3, endColumn: 58 }],
    },
    {
      code: ioredis(`redis.eval('local = 1', 0);`),
      errors: [{ messageId: 'luaParseError', line: 3, column: 19, endLine: 3, endColumn: 19 }],
    },
    {
      code: nodeRedis(`client.eval("return redis.call('PERSIST', KEYS[1])", { keys: [k] });`),
      errors: [{ messageId: 'luaFinding', line: 3, column: 21, endLine: 3, endColumn: 51 }],
    },
    {
      code: `import { defineScript } from 'redis';\nexport const take = defineScript({\n  NUMBER_OF_KEYS: 1,\n  SCRIPT: "return redis.call('GETSET', KEYS[1], '0')",\n  transformArguments: (key: string) => [key],\n});`,
      errors: [{ messageId: 'luaFinding', line: 4, column: 19, endLine: 4, endColumn: 53 }],
    },
    {
      code: upstash(`redis.eval(${leakySet}, [k], ['v']);`),
      errors: [{ messageId: 'luaFinding', line: 3, column: 13, endLine: 3, endColumn: 48 }],
    },
    {
      code: upstash(`redis.createScript("return redis.call('PERSIST', KEYS[1])");`),
      errors: [{ messageId: 'luaFinding', line: 3, column: 28, endLine: 3, endColumn: 58 }],
    },
  ],
});

runRule(typedTester, 'embedded-lua (typed)', rule, {
  valid: [`const vm = { eval: (s: string) => s };\nvm.eval(${leakySet});`],
  invalid: [
    {
      code: `import Redis from 'ioredis';\nexport const run = (r: Redis, k: string) => r.eval(${leakySet}, 1, k);`,
      errors: [{ messageId: 'luaFinding', line: 2, column: 53, endLine: 2, endColumn: 88 }],
    },
  ],
});

describe('embedded-lua messages', () => {
  it('name the Lua rule id, and the parse error', () => {
    const linter = new Linter({ configType: 'flat' });
    const messages = linter.verify(
      ioredis(`redis.eval(${leakySet}, 1, k);\nredis.eval('return redis.call("PERSIST", KEYS[1])', 1, k);\nredis.eval('local = 1', 0);`),
      [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/embedded-lua': 'error' } }],
      { filename: 'file.ts' },
    );
    expect(messages.map((m) => [m.line, m.message.slice(0, m.message.indexOf(']') + 1)])).toEqual([
      [3, '[write-path-needs-ttl]'],
      [4, '[no-persist]'],
      [5, '[parse-error]'],
    ]);
  });
});

describe('embedded-lua options', () => {
  it('refuse an empty persistent key in the config, before analyzeLua would throw on it', () => {
    const linter = new Linter({ configType: 'flat' });
    const verify = (persistentKeys: unknown[]) =>
      linter.verify(
        ioredis(`redis.eval(${leakySet}, 1, k);`),
        [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/embedded-lua': ['error', { persistentKeys }] } }],
        { filename: 'file.ts' },
      );
    expect(() => verify([''])).toThrow(/Key "redis-ttl\/embedded-lua":\s+Value "" should NOT be shorter than 1 characters\./);
    expect(verify([1])).toEqual([]);
  });
});

describe('embedded-lua message lines', () => {
  it('names file lines, not script lines', () => {
    const linter = new Linter({ configType: 'flat' });
    const code = ioredis(`const BUMP = \`\nlocal n = redis.call('INCR', KEYS[1])\nif n > tonumber(ARGV[1]) then\n  return 0\nend\nredis.call('EXPIRE', KEYS[1], 60)\nreturn n\n\`;\nredis.eval(BUMP, 1, 'k', 10);`);
    const messages = linter.verify(
      code,
      [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/embedded-lua': 'error' } }],
      { filename: 'file.ts' },
    );
    expect(messages.map((m) => [m.line, m.column])).toEqual([[4, 11]]);
    // the early return is on line 4 of the script, line 6 of the file
    expect(messages[0]?.message).toContain('the return at line 6, column 3 precedes');
  });

  it('names the column of this file inside a one-line literal', () => {
    const linter = new Linter({ configType: 'flat' });
    const code = ioredis(`redis.eval("local n = redis.call('INCR', KEYS[1]) if ARGV[1] == 'x' then return 0 end redis.call('EXPIRE', KEYS[1], 60) return n", 1, k, 'x');`);
    const messages = linter.verify(
      code,
      [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/embedded-lua': 'error' } }],
      { filename: 'file.ts' },
    );
    expect(messages.map((m) => [m.line, m.column])).toEqual([[3, 23]]);
    // 'return 0' starts at column 74 of line 3 of the file
    expect(code.split('\n')[2]!.indexOf('return 0') + 1).toBe(74);
    expect(messages[0]?.message).toContain('the return at line 3, column 74 precedes');
  });
});

describe('cookedToRawOffsets', () => {
  it('maps escapes, code points and line continuations', () => {
    // raw: a\nb\x41\u{1F600}\<newline>c  cooked: a, LF, b, A, two surrogates, c
    expect(cookedToRawOffsets('a\\nb\\x41\\u{1F600}\\\nc', false)).toEqual([0, 1, 3, 4, 8, 8, 19, 20]);
  });
  it('maps template CRLF to one LF', () => {
    expect(cookedToRawOffsets('a\r\nb', true)).toEqual([0, 1, 3, 4]);
  });
  it('maps legacy octal escapes in strings', () => {
    expect(cookedToRawOffsets('\\101x', false)).toEqual([0, 4, 5]);
  });
});

describe('scripts reached through objects, arrays, wrappers and imports', () => {
  const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'embedded-lua');
  function lint(code: string, settings?: Record<string, unknown>): Array<[number, number, string]> {
    const linter = new Linter({ configType: 'flat' });
    return linter
      .verify(
        code,
        [
          {
            files: ['**/*.ts'],
            languageOptions: { parser: tsParser },
            plugins: { 'redis-ttl': plugin },
            rules: { 'redis-ttl/embedded-lua': 'error' },
            ...(settings ? { settings } : {}),
          },
        ],
        { filename: join(fixtures, 'limiter.ts') },
      )
      .map((m) => [m.line, m.column, m.message.slice(0, 80)]);
  }
  const script = "`\nredis.call('SET', KEYS[1], ARGV[1])\n`";

  it('reads an element of an array literal', () => {
    expect(lint(ioredis(`const SCRIPTS = [\`return 1\`, ${script}];\nredis.eval(SCRIPTS[1], 1, k, v);`)).map((m) => m.slice(0, 2))).toEqual([[4, 1]]);
  });

  it('follows a wrapper function of the module to the scripts passed at its calls', () => {
    const code = ioredis(
      `const SCRIPTS = { set: { script: ${script}, hash: 'x' } };\nconst safeEval = (r: Redis, s: { script: string }, keys: string[]) => r.eval(s.script, keys.length, ...keys);\nsafeEval(redis, SCRIPTS.set, [k]);`,
    );
    expect(lint(code).map((m) => m.slice(0, 2))).toEqual([[4, 1]]);
  });

  it('reads a const of a relatively imported module and names its place', () => {
    const named = `import Redis from 'ioredis';\nimport { SCRIPTS, SAFE } from './scripts';\nconst redis = new Redis();\nredis.eval(SCRIPTS.hit.script, 1, k, 1000, 1);\nredis.eval(SAFE, 1, k);`;
    expect(lint(named)).toEqual([[4, 12, '[write-path-needs-ttl] In the script at ./scripts.ts:7: INCR on KEYS[1] can crea']]);
    // the message names the exit's place in the module the script is written in
    const linter = new Linter({ configType: 'flat' });
    const [message] = linter.verify(named, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/embedded-lua': 'error' } }], {
      filename: join(fixtures, 'limiter.ts'),
    });
    expect(message?.message).toContain('the return at line 8, column 31 of ./scripts.ts precedes');
    const namespace = `import Redis from 'ioredis';\nimport * as lua from './scripts.js';\nconst redis = new Redis();\nredis.eval(lua.SCRIPTS.hit.script, 1, k, 1000, 1);`;
    expect(lint(namespace).map((m) => m.slice(0, 2))).toEqual([[4, 12]]);
    const required = `const Redis = require('ioredis');\nconst scripts_1 = require('./scripts');\nconst redis = new Redis();\nredis.eval(scripts_1.SCRIPTS.hit.script, 1, k, 1000, 1);`;
    expect(lint(required).map((m) => m.slice(0, 2))).toEqual([[4, 12]]);
  });

  it("treats KEYS whose argument is a persistent key of the code as persistent (settings['redis-ttl'].persistentKeys)", () => {
    const code = ioredis(`const S = ${script};\nredis.eval(S, 1, \`audit:\${day}\`, v);`);
    expect(lint(code)).toHaveLength(1);
    expect(lint(code, { 'redis-ttl': { persistentKeys: ['audit:*'] } })).toEqual([]);
    const annotated = ioredis(`const S = ${script};\n// redis-ttl persistent: the audit log is kept\nredis.eval(S, 1, \`audit:\${day}\`, v);`);
    expect(lint(annotated)).toEqual([]);
  });
});
