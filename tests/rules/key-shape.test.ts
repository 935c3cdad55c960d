/**
 * Key shapes (redis-calls/key-shape.ts): each `probe(<key>)` call of a snippet reports the
 * shape of its argument and whether it is one key (bounded).
 */
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
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

function shapes(code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  return linter
    .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { t: { rules: { probe: probeRule as never } } }, rules: { 't/probe': 'error' } }], { filename: 'a.ts' })
    .map((m) => m.message);
}

describe('keyShapeOf', () => {
  it('reads literals, templates and concatenations', () => {
    expect(shapes("probe('jobs:last-run'); probe(`bull:${q}:wait`); probe('user:' + id + ':profile'); probe(42);")).toEqual([
      'jobs:last-run one',
      'bull:*:wait many',
      'user:*:profile many',
      '42 one',
    ]);
  });

  it('reads consts, and let / var assigned once, of the module', () => {
    expect(shapes("const P = 'rl'; var S = ':h'; let x = 1; x = 2;\nprobe(`${P}:${ip}${S}`); probe(`${P}:${x}`);")).toEqual(['rl:*:h many', 'rl:* many']);
  });

  it('evaluates key builders of the module with their arguments', () => {
    const code = [
      'const jobKey = (id: string) => `job:${id}`;',
      "function queueKey(name: string, kind = 'wait') { return `bull:${name}:${kind}`; }",
      "const KEYS = { stats: 'q:stats', meta: `q:${'meta'}` };",
      'class Q { toKey(t: string) { return `bull:${this.name}:${t}`; } run() { probe(this.toKey("active")); } }',
      "probe(jobKey(id)); probe(jobKey('7')); probe(queueKey(n)); probe(KEYS.stats); probe([p, 'x', 1].join(':'));",
    ].join('\n');
    expect(shapes(code)).toEqual(['bull:*:active many', 'job:* many', 'job:7 one', 'bull:*:wait many', 'q:stats one', '*:x:1 many']);
  });

  it('keeps the literal arguments of a builder it cannot read; with literal arguments only it is one key', () => {
    expect(shapes("probe(this.connection.key('stat', 'failed')); probe(this.connection.key('stat', name)); probe(uuid()); probe(id.toString(16));")).toEqual([
      '*stat*failed* one',
      '*stat* many',
      '* many',
      '*16* many',
    ]);
  });

  it('gives a conditional key the spelling its arms share, leaving out an arm that is no key', () => {
    expect(shapes("probe(c ? `q:${a}:wait` : `q:${a}:active`); probe(c ? `u:${id}` : null); probe(a ?? `x:${b}`); probe(c ? 'a' : 'b');")).toEqual([
      'q:*:* many',
      'u:* many',
      '* many',
      '* one',
    ]);
  });

  it('reads a parameter through the calls of a function only this module calls', () => {
    const code = [
      'function bump(key: string, n: number) { probe(key); }',
      'const touch = (key: string) => probe(key);',
      'export function shared(key: string) { probe(key); }',
      'function passed(key: string) { probe(key); }',
      'function uncalled(key: string) { probe(key); }',
      "bump(`usage:${a}`, 1); bump(c ? `usage:${b}:x` : null, 2); touch('t:1'); touch('t:2'); shared('s:1'); [k].forEach(passed); passed('p:1');",
    ].join('\n');
    expect(shapes(code)).toEqual(['usage:* many', 't:* one', '* many', '* many', '* many']);
  });

  it('gives the element of an iteration the spelling the elements share', () => {
    const code = [
      'function keyOf(kind: string, id: string) { return `usage:${kind}:${id}`; }',
      'async function save(a: string, b?: string) {',
      "  const keys = [keyOf('account', a), ...(b ? [keyOf('user', b)] : [])];",
      '  keys.forEach((key) => probe(key));',
      '  await Promise.all(keys.map(async (k) => probe(k)));',
      '  keys.filter(Boolean).flatMap((key) => [probe(key)]);',
      '  keys.reduce((acc, key) => probe(key), 0);',
      '  for (const key of keys) probe(key);',
      '  for (const key of new Set(keys.map((k) => `${k}:day`))) probe(key);',
      '  keys.forEach((key, i) => probe(i));',
      '}',
    ].join('\n');
    expect(shapes(code)).toEqual(['usage:*:* many', 'usage:*:* many', 'usage:*:* many', 'usage:*:* many', 'usage:*:* many', 'usage:*:*:day many', '* many']);
  });

  it('reads a key through an iteration and a function only this module calls', () => {
    const code = [
      'const STREAMS = [`events:${region}:in`, `events:${region}:out`] as const;',
      'function bump(key: string) { probe(key); }',
      'function touch(key: string, n: number) { probe(key); }',
      'function each(keys: string[]) { for (const key of keys) probe(key); }',
      'STREAMS.forEach(bump);',
      'STREAMS.flatMap((stream) => touch(stream, 1));',
      "each(['jobs:a', 'jobs:b']); each([]);",
      "['jobs:a', 'jobs:b'].forEach((k) => probe(k));",
    ].join('\n');
    expect(shapes(code)).toEqual(['events:*:* many', 'events:*:* many', 'jobs:* one', 'jobs:* one']);
  });

  it('does not read an array filled in place, or an element it cannot name', () => {
    const code = [
      "const keys = ['a:1']; keys.push(other);",
      'keys.forEach((key) => probe(key));',
      'const fixed = [`q:${a}`];',
      'for (let key of fixed) { key = next(key); probe(key); }',
      'for (const [key] of fixed.entries()) probe(key);',
      'rows.forEach((row) => probe(row));',
      'fixed.forEach((key) => probe(key));',
    ].join('\n');
    expect(shapes(code)).toEqual(['* many', '* many', '* many', '* many', 'q:* many']);
  });

  it('takes an imported binding for one fixed value', () => {
    expect(shapes("import { BASE } from './keys';\nprobe(`${BASE}:tmp`); probe(`${BASE}:${id}`); probe(BASE);")).toEqual(['*:tmp one', '*:* many', '* one']);
  });
});
