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
  return readingsOfCalls(code, (_context, call) => [call]);
}

/**
 * What `read` makes of each Redis call of `code`, given the rule context the call was read in
 * (for readings that take it: `namesLock`, `ttlRemovalExemption`), in source order; the snippet is
 * linted untyped as `filename` (default `calls.ts`) with `settings`, and must lint without error.
 */
export function readingsOfCalls<T>(code: string, read: (context: AnyContext, call: RedisCall) => T[], options: { filename?: string; settings?: Record<string, unknown> } = {}): T[] {
  const found: T[] = [];
  const collector: TSESLint.RuleModule<string, []> = {
    defaultOptions: [],
    meta: { type: 'problem', schema: [], messages: {} },
    create: (context) => ({
      CallExpression(node: TSESTree.CallExpression) {
        for (const call of redisCallsOf(context as unknown as AnyContext, node)) found.push(...read(context as unknown as AnyContext, call));
      },
    }),
  };
  const messages = new Linter({ configType: 'flat' }).verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, ...(options.settings ? { settings: options.settings } : {}), plugins: { t: { rules: { calls: collector as never } } }, rules: { 't/calls': 'error' } }],
    { filename: options.filename ?? 'calls.ts' },
  );
  expect(messages).toEqual([]);
  return found;
}
