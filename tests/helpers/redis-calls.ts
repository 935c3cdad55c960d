/**
 * The Redis calls the rules read from a snippet (redis-calls/index.ts redisCallsOf), linted
 * untyped with the TypeScript parser as `calls.ts`.
 */
import tsParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { expect } from 'vitest';
import { redisCallsOf } from '../../redis-calls/index.js';
import type { RedisCall } from '../../redis-calls/normalize.js';
import type { AnyContext } from '../../redis-calls/static.js';

/** Every Redis call of `code` as the rules read it, in source order; the snippet must lint without error. */
export function redisCallsIn(code: string): RedisCall[] {
  const found: RedisCall[] = [];
  const collector: TSESLint.RuleModule<string, []> = {
    defaultOptions: [],
    meta: { type: 'problem', schema: [], messages: {} },
    create: (context) => ({
      CallExpression(node: TSESTree.CallExpression) {
        found.push(...redisCallsOf(context as unknown as AnyContext, node));
      },
    }),
  };
  const messages = new Linter({ configType: 'flat' }).verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { t: { rules: { calls: collector as never } } }, rules: { 't/calls': 'error' } }],
    { filename: 'calls.ts' },
  );
  expect(messages).toEqual([]);
  return found;
}
