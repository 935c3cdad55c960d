/**
 * Every message the plugin's rules report on the repository's fixtures (the handed cases and
 * every JavaScript / TypeScript fixture module) is at most 300 characters, with the `recommended`
 * and the `strict` config: what is wrong, why it leaks, the fix, the rest on the rule page. The
 * templates are checked with any data in tests/rules/plugin.test.ts; this runs the real data (keys,
 * receiver reasons, facade notes, lua-lint findings relayed by `embedded-lua`), each measured
 * exactly as ESLint reports it: a relayed finding with its `[rule-id] ` prefix.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { MAX_MESSAGE_LENGTH } from '../../rules/create-rule.js';

const fixturesRoot = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const files = (readdirSync(fixturesRoot, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => /\.(?:[cm]?[jt]s)$/.test(file) && !file.includes('node_modules') && !file.endsWith('.d.ts'))
  .sort();

describe('messages on the fixtures', () => {
  it('lints the handed cases and the fixture modules', () => {
    expect(files).toEqual(expect.arrayContaining(['cases/ts/27-passthrough-in-promise-callback.ts', 'facades/presence.ts', 'receivers/legacy.cjs']));
  });

  for (const config of ['recommended', 'strict'] as const) {
    it(`are at most ${MAX_MESSAGE_LENGTH} characters with ${config}`, () => {
      const linter = new Linter({ configType: 'flat' });
      const tooLong: string[] = [];
      let reported = 0;
      for (const file of files) {
        const filename = join(fixturesRoot, file);
        const messages = linter.verify(
          readFileSync(filename, 'utf8'),
          [{ files: ['**/*.{ts,js,cjs,mjs,cts,mts}'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: plugin.configs[config].rules ?? {} }],
          { filename },
        );
        for (const m of messages) {
          expect(m.fatal, `${file}: ${m.message}`).toBeFalsy();
          reported++;
          if (m.message.length > MAX_MESSAGE_LENGTH) tooLong.push(`${file}:${m.line} ${m.ruleId} (${m.message.length}): ${m.message}`);
        }
      }
      // the fixtures do report: the check is not vacuous
      expect(reported).toBeGreaterThan(30);
      expect(tooLong).toEqual([]);
    });
  }
});
