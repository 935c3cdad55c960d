/**
 * `expire-needs-positive-ttl` takes a duration divided into seconds from a member of the code's
 * configuration object as whole when that member is a named setting
 * (`appConfig.dialogueTimeoutMs / 1000` with `dialogueTimeoutMs: envVars.DIALOGUE_TIMEOUT_MS`,
 * documented in milliseconds with a default of 30000, ringaroo), as it already takes a named
 * constant (`JWT_LIFESPAN / 1000`): the operator configures it in whole units. Near misses stay
 * reported: a configuration literal that is no whole number of seconds (`timeoutMs: 1500`), a
 * member computed there, and a rounded-down division that can fold to 0.
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
const config = (value: string): string =>
  `const envVars = { DIALOGUE_TIMEOUT_MS: Number(process.env.DIALOGUE_TIMEOUT_MS ?? '30000') };\nexport const appConfig = {\n  redisUrl: 'redis://localhost:6379',\n  dialogueTimeoutMs: ${value},\n};\n`;
const service = (ttl: string): string =>
  `import { createClient } from 'redis';\nimport { appConfig } from './config';\nconst client = createClient();\nexport async function save(key: string, value: string) {\n  await client.setEx(key, ${ttl}, value);\n}\n`;

/** [rule id, messageId, line, column] of each expire-needs-positive-ttl finding on service.ts. */
function lint(configValue: string, ttl: string): Array<[string | null, string | undefined, number, number]> {
  const code = service(ttl);
  const root = writeProject(roots, { 'package.json': APPLICATION, 'config.ts': config(configValue), 'service.ts': code });
  const linter = new Linter({ configType: 'flat', cwd: root });
  const rules = { 'redis-ttl/expire-needs-positive-ttl': 'error' } as Linter.RulesRecord;
  writeFileSync(join(root, 'service.ts'), code);
  return linter
    .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules }], { filename: join(root, 'service.ts') })
    .map((m) => [m.ruleId, m.messageId, m.line, m.column]);
}

describe('a configured duration divided into seconds', () => {
  it('a named setting: whole seconds', () => {
    expect(lint('envVars.DIALOGUE_TIMEOUT_MS', 'appConfig.dialogueTimeoutMs / 1000')).toEqual([]);
  });

  it('a configuration literal that is no whole number of seconds stays reported', () => {
    expect(lint('1500', 'appConfig.dialogueTimeoutMs / 1000')).toEqual([['redis-ttl/expire-needs-positive-ttl', 'literalRejected', 5, 27]]);
  });

  it('a member computed in the configuration stays reported', () => {
    expect(lint('Number(process.env.TIMEOUT)', 'appConfig.dialogueTimeoutMs / 1000')).toEqual([['redis-ttl/expire-needs-positive-ttl', 'computed', 5, 27]]);
  });
});
