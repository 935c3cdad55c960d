/**
 * `expire-needs-positive-ttl` takes a duration read from the environment with the code's own
 * fallback (`const sessionTtlMs = Number(process.env.SESSION_TTL) || 7 * 24 * 60 * 60 * 1000`,
 * then `Math.floor(sessionTtlMs / 1000)`, Lunawar) as a configured setting: the operator sets it
 * in whole units, and the fallback the code writes is a positive whole number of the divisor's
 * unit, so the TTL is at least one whole second, as a named setting of a configuration module
 * already is (`configured-duration-ttl.test.ts`).
 *
 * Stays reported: a fallback under the divisor (`|| 500`: 0 once rounded down) or not whole in it
 * (`|| 1500`: 1.5 s), a variable with no fallback, and a value of the request with a fallback.
 */
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const RULE = 'redis-ttl/expire-needs-positive-ttl';

/** [line, column, messageId] of each finding on a module setting `session:<id>` with the TTL `ttl`, `setting` declared before. */
function lint(setting: string, ttl: string): Array<[number, number, string | undefined]> {
  const code = [
    "import Redis from 'ioredis';",
    'const redis = new Redis();',
    'export function createApp(req: { query: { ttl: string } }) {',
    `  ${setting}`,
    '  return async (id: string) => {',
    `    await redis.set(\`session:\${id}\`, '1', 'EX', ${ttl});`,
    '  };',
    '}',
    '',
  ].join('\n');
  const linter = new Linter({ configType: 'flat' });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [RULE]: 'error' } as Linter.RulesRecord }];
  return linter.verify(code, config, { filename: 'app.ts' }).map((m) => [m.line, m.column, m.messageId]);
}

describe('a duration read from the environment with a whole fallback', () => {
  it('rounded down into seconds: at least one second', () => {
    expect(lint('const sessionTtlMs = Number(process.env.SESSION_TTL) || 7 * 24 * 60 * 60 * 1000;\n  const sessionTtlSec = Math.floor(sessionTtlMs / 1000);', 'sessionTtlSec')).toEqual([]);
    expect(lint("const ttlMs = parseInt(process.env.TTL_MS ?? '60000', 10);", 'Math.floor(ttlMs / 1000)')).toEqual([]);
    expect(lint('const unused = 0;', '(Number(process.env.TTL_MS) || 60_000) / 1000')).toEqual([]);
  });

  it('a fallback under the divisor or not whole in it, no fallback, or a value of the request stays reported', () => {
    const setting = (init: string) => `const sessionTtlMs = ${init};\n  const sessionTtlSec = Math.floor(sessionTtlMs / 1000);`;
    expect(lint(setting('Number(process.env.SESSION_TTL) || 500'), 'sessionTtlSec')).toEqual([[7, 49, 'computed']]);
    expect(lint('const unused = 0;', '(Number(process.env.TTL_MS) || 1500) / 1000')).toEqual([[6, 49, 'computed']]);
    expect(lint(setting('Number(process.env.SESSION_TTL)'), 'sessionTtlSec')).toEqual([[7, 49, 'computed']]);
    expect(lint(setting('Number(req.query.ttl) || 60_000'), 'sessionTtlSec')).toEqual([[7, 49, 'computed']]);
  });
});

/**
 * The same setting written for the `ms` package and held in a static member (rvchan's
 * `static readonly accessTtl = (process.env.JWT_EXPIRES_IN as StringValue) || '15m'`, then `EX
 * ms(SessionsService.accessTtl) / 1000`): the fallback is read by `ms` (900000 ms, 900 whole
 * seconds) and the variable is the operator's duration. Stays reported: a fallback `ms` reads as
 * under a second or not whole in it, no fallback, a number given to `ms` (it returns text), a
 * value of the request, and a static member the code assigns elsewhere at run time.
 */
describe('an ms() duration read from the environment', () => {
  /** [line, column, messageId] of each finding on a class writing `auth:revoked:<id>` with `EX <ttl>`, `member` its static member. */
  const lintClass = (member: string, ttl: string, after = ''): Array<[number, number, string | undefined]> => {
    const code = [
      "import ms, { StringValue } from 'ms';",
      "import Redis from 'ioredis';",
      'const redis = new Redis();',
      'export class SessionsService {',
      `  ${member}`,
      '  async revoke(id: string, req: { query: { ttl: string } }) {',
      `    await redis.set(\`auth:revoked:\${id}\`, '1', 'EX', ${ttl});`,
      '  }',
      '}',
      after,
    ].join('\n');
    const linter = new Linter({ configType: 'flat' });
    const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [RULE]: 'error' } as Linter.RulesRecord }];
    return linter.verify(code, config, { filename: 'app.ts' }).map((m) => [m.line, m.column, m.messageId]);
  };

  it('a whole fallback, in place or held in a static member or a const: not reported', () => {
    expect(lintClass("public static readonly accessTtl = (process.env.JWT_EXPIRES_IN as StringValue) || '15m';", 'ms(SessionsService.accessTtl) / 1000')).toEqual([]);
    expect(lintClass('static x = 0;', "ms((process.env.JWT_EXPIRES_IN as StringValue) || '1d') / 1000")).toEqual([]);
    expect(lintClass('static x = 0;', 'ms(ACCESS) / 1000', "const ACCESS = (process.env.JWT_EXPIRES_IN as StringValue) ?? '2h';")).toEqual([]);
  });

  it('a fallback under a second or not whole, no fallback, a number, a request value or a member written elsewhere: reported', () => {
    expect(lintClass("static readonly accessTtl = (process.env.JWT_EXPIRES_IN as StringValue) || '500ms';", 'ms(SessionsService.accessTtl) / 1000')).toEqual([[7, 54, 'computed']]);
    expect(lintClass("static readonly accessTtl = (process.env.JWT_EXPIRES_IN as StringValue) || '1500ms';", 'ms(SessionsService.accessTtl) / 1000')).toEqual([[7, 54, 'computed']]);
    expect(lintClass('static readonly accessTtl = process.env.JWT_EXPIRES_IN as StringValue;', 'ms(SessionsService.accessTtl) / 1000')).toEqual([[7, 54, 'computed']]);
    expect(lintClass('static x = 0;', 'ms((process.env.JWT_EXPIRES_IN as any) || 900000) / 1000')).toEqual([[7, 54, 'computed']]);
    expect(lintClass('static x = 0;', "ms((req.query.ttl as StringValue) || '15m') / 1000")).toEqual([[7, 54, 'computed']]);
    expect(lintClass("static accessTtl = (process.env.JWT_EXPIRES_IN as StringValue) || '15m';", 'ms(SessionsService.accessTtl) / 1000', "export function shorten() { SessionsService.accessTtl = '10ms' as StringValue; }")).toEqual([[7, 54, 'computed']]);
  });
});
