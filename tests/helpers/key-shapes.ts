/**
 * Key shapes of snippets (redis-calls/key-shape.ts): each `probe(<key>)` call reports the shape of
 * its argument and whether it is one key (bounded), as `'<shape> one'` / `'<shape> many'`.
 */
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { keyShapeOf } from '../../redis-calls/key-shape.js';
import type { AnyContext } from '../../redis-calls/static.js';

const probeRule = {
  meta: { messages: { shape: '{{shape}} {{constant}}' } },
  create(context: AnyContext) {
    return {
      CallExpression(node: { callee: { type: string; name?: string }; arguments: unknown[] }) {
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'probe') return;
        const shape = keyShapeOf(context, node.arguments[0] as never);
        context.report({ node: node as never, messageId: 'shape', data: { shape: shape.shape, constant: shape.constant ? 'one' : 'many' } });
      },
    };
  },
};

/**
 * The shape of each `probe(...)` argument of `code`, linted as the file `filename` (its folder is
 * where imported modules and tsconfig files are looked up) with ESLint's working directory `cwd`.
 */
export function keyShapes(code: string, filename = 'a.ts', cwd?: string): string[] {
  const linter = new Linter({ configType: 'flat', ...(cwd ? { cwd } : {}) });
  return linter
    .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { t: { rules: { probe: probeRule as never } } }, rules: { 't/probe': 'error' } }], { filename })
    .map((m) => m.message);
}
