/**
 * The plugin's findings for a snippet, through ESLint's `Linter` (flat config,
 * `@typescript-eslint/parser` without type information): for tests that look at several rules at
 * once, or at what RuleTester does not show (the line a message names, the rule of each finding).
 */
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import plugin from '../../rules/index.js';

/**
 * Lints `code` as the file `filename` with `rules` (`{ 'redis-ttl/<rule>': ['error', options] }`)
 * and returns ESLint's messages, in ESLint's order.
 */
export function lintSnippet(code: string, rules: Linter.RulesRecord, filename = 'app.ts'): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules }], { filename });
}
