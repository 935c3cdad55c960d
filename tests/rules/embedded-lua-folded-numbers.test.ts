/**
 * A script assembled once, at load time, from a template or a concatenation whose only non-string
 * parts are constant arithmetic of the file's `const` numbers (`${DEFAULT_LEASE_SECONDS * 1000}`,
 * `+ (HOURS * 3600) +`, `${Math.floor(LEASE_MS / 1000)}`) is the same script on every call:
 * `embedded-lua` reads it (`redis-calls/constant-number-piece.ts`) instead of reporting it as built
 * at run time, and its findings point into it. The limits stay reported as built at run time
 * (`unanalyzable-command`): arithmetic of a parameter, of `Date.now()`, of a `let` that is
 * reassigned.
 */
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

/** [Lua rule id, line, column] of each embedded-lua finding on `code`. */
function lint(code: string): Array<[string | undefined, number, number]> {
  const linter = new Linter({ configType: 'flat' });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser },
      plugins: { 'redis-ttl': plugin },
      rules: { 'redis-ttl/embedded-lua': 'error' } as Linter.RulesRecord,
    },
  ];
  return linter.verify(code, config, { filename: 'script.ts' }).map((m) => [/^\[([^\]]+)\]/.exec(m.message)?.[1], m.line, m.column]);
}

const client = `import Redis from 'ioredis';\nconst redis = new Redis();\n`;

describe('a script built from constant arithmetic at load time', () => {
  it('reads `${CONST * 1000}` in a template: the script is checked, nothing is built at run time', () => {
    const code = `${client}const LEASE_SECONDS = 300;\nconst S = \`redis.call('SET', KEYS[1], 1, 'PX', \${LEASE_SECONDS * 1000})\`;\nawait redis.eval(S, 1, 'k');\n`;
    expect(lint(code)).toEqual([]);
  });

  it('reports a leak inside such a script where it is written', () => {
    // line 5: the SET without expiry; the folded number is its value
    const code = `${client}const BASE = 2;\nconst S = \`redis.call('SET', KEYS[1], \${BASE * 21})\`;\nawait redis.eval(S, 1, k);\n`;
    expect(lint(code)).toEqual([['write-path-needs-ttl', 4, 12]]);
  });

  it('reads a parenthesised product in a concatenation and Math.floor of constants', () => {
    const code = `${client}const HOURS = 2;\nconst MS = 90_500;\nconst S = "redis.call('SET', KEYS[1], 1, 'EX', " + (HOURS * 3600) + ") redis.call('PEXPIRE', KEYS[1], " + \`\${Math.floor(MS / 1000) * 1000})\`;\nawait redis.eval(S, 1, 'k');\n`;
    expect(lint(code)).toEqual([]);
  });

  it('a number a parameter, Date.now() or a reassigned let makes is still built at run time', () => {
    const fromParameter = `${client}export const run = (ttl: number) => redis.eval(\`redis.call('SET', KEYS[1], 1, 'EX', \${ttl * 60})\`, 1, 'k');\n`;
    expect(lint(fromParameter)).toEqual([['unanalyzable-command', 3, 48]]);
    const fromClock = `${client}const S = \`redis.call('SET', KEYS[1], \${Date.now() * 2}, 'EX', 60)\`;\nawait redis.eval(S, 1, 'k');\n`;
    expect(lint(fromClock)).toEqual([['unanalyzable-command', 3, 11]]);
    const fromLet = `${client}let TTL = 60;\nTTL = Number(process.env.TTL);\nconst S = \`redis.call('SET', KEYS[1], 1, 'EX', \${TTL * 2})\`;\nawait redis.eval(S, 1, 'k');\n`;
    expect(lint(fromLet)).toEqual([['unanalyzable-command', 5, 11]]);
  });
});
