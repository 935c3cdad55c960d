/**
 * Thin client wrappers written as CommonJS exports (round 18): `exports.hset = function (table,
 * key, val) { return new Promise(... client.hset(table, key, val, cb) ...) }` forwards its
 * caller's key, and its callers (`const redis = require('./redis.js'); redis.hset(...)`) are
 * judged instead (`redis-calls/pass-through.ts`, `redis-calls/facades.ts`); a wrapper named
 * otherwise than its command (`exports.incr` sending ZINCRBY) is read at its callers as what it
 * sends, not as a client's INCR by the receiver's name (`redis-calls/module-methods.ts`); an
 * export its module writes again later is dead code. Limits: a wrapper that builds its key
 * (`score:${id}`) is judged where it is, and a module that exports a client stays a client. The
 * fixtures are in tests/fixtures/commonjs-wrappers.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { commonJsExportName } from '../../redis-calls/static.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'commonjs-wrappers');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });

runRule(untypedTester, 'incr-needs-expire-on-create (CommonJS client wrappers)', incrRule, {
  valid: [],
  invalid: [
    // the wrappers forwarding their caller's key are left alone (HSET at 15, the live ZINCRBY
    // `incr` at 24, the overwritten INCRBY `incr` at 6); the one that names its family is judged
    { ...file('src/utils/redis.js'), errors: [{ messageId: 'noExpiry', line: 33, column: 10, suggestions: [] }] },
    // at the caller: `redis.incr` is the module's ZINCRBY with the caller's key, the constant
    // `settings` hash is bounded, and a module exporting a client stays a client (INCR)
    {
      ...file('src/commands/xp.js'),
      errors: [
        { messageId: 'noExpiry', line: 5, column: 14, suggestions: [] },
        {
          messageId: 'noExpiry',
          line: 7,
          column: 13,
          suggestions: [{ messageId: 'wrapInMulti', output: file('src/commands/xp.js').code.replace("conn.incr('hits:' + id)", "conn.multi().incr('hits:' + id).expire('hits:' + id, TTL_SECONDS).exec()") }],
        },
      ],
    },
    // strict: every wrapper judged where it is
    {
      ...file('src/utils/redis.js'),
      options: [{ allowPassThrough: false }],
      errors: [
        { messageId: 'noExpiry', line: 6, column: 10, suggestions: [] },
        { messageId: 'noExpiry', line: 15, column: 10, suggestions: [] },
        { messageId: 'noExpiry', line: 24, column: 10, suggestions: [] },
        { messageId: 'noExpiry', line: 33, column: 10, suggestions: [] },
      ],
    },
  ],
});

describe('CommonJS client wrappers, JavaScript parsed by espree', () => {
  it('reads `redis.incr` at the caller as the ZINCRBY the module sends', () => {
    const linter = new Linter({ configType: 'flat', cwd: fixtures });
    const { code, filename } = file('src/commands/xp.js');
    const messages = linter.verify(
      code,
      [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' }, plugins: { t: { rules: { incr: incrRule as never } } }, rules: { 't/incr': 'error' } }],
      { filename },
    );
    expect(messages.map((m) => [m.line, m.column, m.messageId, m.message.split(' ')[0]])).toEqual([
      [5, 14, 'noExpiry', 'ZINCRBY'],
      [7, 13, 'noExpiry', 'INCR'],
    ]);
  });
});

describe('commonJsExportName', () => {
  const program = new Linter({ configType: 'flat' });
  it('names `exports.x` and `module.exports.x`, nothing else', () => {
    const names: Array<string | undefined> = [];
    program.verify('exports.a = 1; module.exports.b = 2; other.c = 3; module.d = 4;', [
      {
        plugins: {
          t: {
            rules: {
              r: {
                create: () => ({
                  AssignmentExpression: (node: { left: Parameters<typeof commonJsExportName>[0] }) => void names.push(commonJsExportName(node.left)),
                }),
              },
            },
          },
        },
        rules: { 't/r': 'error' },
      },
    ]);
    expect(names).toEqual(['a', 'b', undefined, undefined]);
  });
});
