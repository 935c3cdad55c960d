/**
 * A TTL forwarded as an option (`setString(key, value, ttl?) { return client.set(k, value, { EX:
 * ttl }); }`, node-redis, which sends no EX when `ttl` is `undefined`): the wrapper's callers
 * decide. A caller that passes the TTL (`setString(`user:${id}`, data, 60 * 5)`) sends SET ... EX
 * 300 and is not reported by `set-requires-ttl-or-keepttl`; `valid-ttl-args` leaves the wrapper's
 * `{ EX: ttl }` alone when every caller of the wrapper passes it (`redis-calls/facades.ts`
 * passedByEveryCaller). Near misses stay reported: a caller that leaves the TTL out (SET without
 * expiry, at the caller), and then the wrapper's may-be-undefined option too; a caller passing a
 * literal `undefined`. Each project is an application written to a temporary folder.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { writeProject } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const APPLICATION = JSON.stringify({ name: 'app', private: true });
const METHODS = `import { createClient } from 'redis';\nexport default class RedisMethods {\n  constructor(private client: ReturnType<typeof createClient>, private nsp: string) {}\n  async setString(key: string, value: string, ttl?: number) {\n    return Boolean(await this.client.set(\`\${this.nsp}:\${key}\`, value, { EX: ttl }));\n  }\n}\n`;
const cache = (call: string): string =>
  `import { createClient } from 'redis';\nimport RedisMethods from './methods';\nconst methods = new RedisMethods(createClient(), 'common');\nexport async function store(id: string, data: string) {\n  return ${call};\n}\n`;

/** [rule id, messageId, line, column] of each finding of `rules` on `file` of a project of `files`. */
function lint(files: Record<string, string>, file: string): Array<[string | null, string | undefined, number, number]> {
  const root = writeProject(roots, { 'package.json': APPLICATION, ...files });
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser },
      plugins: { 'redis-ttl': plugin },
      rules: { 'redis-ttl/set-requires-ttl-or-keepttl': 'error', 'redis-ttl/valid-ttl-args': 'error' } as Linter.RulesRecord,
    },
  ];
  const code = files[file]!;
  writeFileSync(join(root, file), code);
  return linter.verify(code, config, { filename: join(root, file) }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);
}

describe('a TTL the caller passes through an optional parameter sent as { EX: ttl }', () => {
  it('the caller passes 300: no SET without expiry at the caller, nothing at the wrapper', () => {
    const files = { 'methods.ts': METHODS, 'cache.ts': cache('methods.setString(`user:${id}`, data, 60 * 5)') };
    expect(lint(files, 'cache.ts')).toEqual([]);
    expect(lint(files, 'methods.ts')).toEqual([]);
  });

  it('a caller leaves the TTL out: SET without expiry there, and the wrapper keeps its remark', () => {
    const files = { 'methods.ts': METHODS, 'cache.ts': cache('methods.setString(`user:${id}`, data)') };
    expect(lint(files, 'cache.ts')).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 18]]);
    expect(lint(files, 'methods.ts')).toEqual([['redis-ttl/valid-ttl-args', 'mayBeUndefined', 5, 77]]);
  });

  it('a caller passes a literal undefined: the same', () => {
    const files = { 'methods.ts': METHODS, 'cache.ts': cache('methods.setString(`user:${id}`, data, undefined)') };
    expect(lint(files, 'cache.ts')).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 18]]);
    expect(lint(files, 'methods.ts')).toEqual([['redis-ttl/valid-ttl-args', 'mayBeUndefined', 5, 77]]);
  });
});

describe('callers that may not pass the TTL after all (review of round 31)', () => {
  const FUNCTIONS = `import { createClient } from 'redis';\nconst client = createClient();\nexport async function setString(key: string, value: string, ttl?: number) {\n  return client.set(key, value, { EX: ttl });\n}\n`;

  it("a caller forwards its own optional parameter: the wrapper keeps its remark, the caller's SET may go out without expiry", () => {
    const files = {
      'methods.ts': METHODS,
      'cache.ts': `import { createClient } from 'redis';\nimport RedisMethods from './methods';\nconst methods = new RedisMethods(createClient(), 'common');\nexport async function store(id: string, data: string, ttl?: number) {\n  return methods.setString(\`user:\${id}\`, data, ttl);\n}\n`,
    };
    expect(lint(files, 'methods.ts')).toEqual([['redis-ttl/valid-ttl-args', 'mayBeUndefined', 5, 77]]);
    expect(lint(files, 'cache.ts')).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 18]]);
  });

  it('every call passes the TTL, but the wrapper is also handed on as a value: its remark stays', () => {
    const files = {
      'fns.ts': FUNCTIONS,
      'cache.ts': "import { setString } from './fns';\nexport async function store(id: string, data: string) {\n  return setString(`user:${id}`, data, 300);\n}\n",
      'routes.ts': "import { setString } from './fns';\nexport const writers = [setString];\n",
    };
    expect(lint(files, 'fns.ts')).toEqual([['redis-ttl/valid-ttl-args', 'mayBeUndefined', 4, 39]]);
  });

  it('every call passes the TTL and the wrapper is only called: no remark (the near miss of the two above)', () => {
    const files = {
      'fns.ts': FUNCTIONS,
      'cache.ts': "import { setString } from './fns';\nexport async function store(id: string, data: string) {\n  return setString(`user:${id}`, data, 300);\n}\n",
    };
    expect(lint(files, 'fns.ts')).toEqual([]);
  });
});
