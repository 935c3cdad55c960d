import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import rule from '../../rules/embedded-lua.js';
import plugin from '../../rules/index.js';
import { cookedToRawOffsets } from '../../rules/redis-calls/lua.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester, upstash } from './tester.js';

const leakySet = `"redis.call('SET', KEYS[1], ARGV[1])"`;

runRule(untypedTester, 'embedded-lua', rule, {
  valid: [
    ioredis(`redis.eval("local n = redis.call('INCR', KEYS[1])\\nredis.call('EXPIRE', KEYS[1], 60)\\nreturn n", 1, k);`),
    ioredis(`redis.evalsha(sha, 1, k);`),
    ioredis(`redis.eval(\`redis.call('SET', KEYS[1], '\${v}')\`, 1, k);`), // substitutions: not a known script
    ioredis(`redis.eval(script, 1, k);`),
    `const sandbox = { eval(s: string) { return s; } };\nsandbox.eval(${leakySet});`,
    { code: ioredis(`redis.eval(${leakySet}, 1, k);`), options: [{ rules: { 'write-path-needs-ttl': 'off' } }] },
    { code: ioredis(`redis.eval(${leakySet}, 1, k);`), options: [{ persistentKeys: [1] }] },
    { code: ioredis(`redis.eval(${leakySet}, 1, k);`), options: [{ persistentKeys: ['KEYS[*]'] }] },
  ],
  invalid: [
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
      code: ioredis(`const SCRIPT = \`\nredis.call('SET', KEYS[1], ARGV[1])\n\`;\nredis.eval(SCRIPT, 1, 'a');\nredis.eval(SCRIPT, 1, 'b');`),
      errors: [{ messageId: 'luaFinding', line: 4, column: 1, endLine: 4, endColumn: 36 }],
    },
    {
      code: ioredis(`redis.defineCommand('take', {\n  numberOfKeys: 1,\n  lua: 'return redis.call("GETSET", KEYS[1], "0")',\n});`),
      errors: [{ messageId: 'luaFinding', line: 5, column: 16, endLine: 5, endColumn: 50 }],
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
    expect(messages[0]?.message).toContain('returns at line 6');
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
