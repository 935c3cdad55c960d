// Merging inventories into live shapes (audit/attribution.ts), without a server: live spelling
// (keyPrefix + shape) and its glob, file paths relative to the working directory, sites merged
// without duplicates, persistent only when every inventory says so, and the notes.
import { describe, expect, it } from 'vitest';
import { buildAttribution, computeFindings } from '../../audit/attribution.js';
import type { InventoryDocument, WriteSite } from '../../inventory/format.js';

const write = (file: string, line: number, ttl: WriteSite['ttl'] = 'none'): WriteSite => ({ file, line, column: 1, command: 'SET', client: 'ioredis', ttl });
const doc = (shapes: InventoryDocument['shapes'], root = '.'): InventoryDocument => ({ version: 1, root, shapes });

describe('buildAttribution', () => {
  it('spells live shapes with the keyPrefix, escapes glob characters in the pattern, and resolves files', () => {
    const { shapes, index, notes } = buildAttribution(
      [
        { document: doc([{ shape: 'jobs:[urgent]:**', writes: [write('src/a.ts', 3)] }, { shape: 'session:*', keyPrefix: 'app:', writes: [write('b.ts', 1)] }], 'pkg'), base: '/repo/build' },
      ],
      '/repo',
    );
    expect(shapes.map((s) => [s.shape, s.pattern, s.writtenBy.map((w) => w.file)])).toEqual([
      ['jobs:[urgent]:*', 'jobs:\\[urgent\\]:*', ['build/pkg/src/a.ts']],
      ['app:session:*', 'app:session:*', ['build/pkg/b.ts']],
    ]);
    expect(index.match('jobs:[urgent]:7')?.shape).toBe('jobs:[urgent]:*');
    expect(index.match('session:1')).toBeUndefined();
    expect(index.match('app:session:1')?.shape).toBe('app:session:*');
    expect(notes).toEqual([]);
  });

  it('merges one live shape of several inventories: sites sorted, no duplicates, persistent only when all say so', () => {
    const { shapes } = buildAttribution(
      [
        { document: doc([{ shape: 'cfg:*', persistent: true, writes: [write('z.ts', 9, 'persistent'), write('a.ts', 2, 'persistent')] }]), base: '/r' },
        { document: doc([{ shape: 'cfg:*', writes: [write('a.ts', 2, 'persistent'), write('m.ts', 1, 'persistent')] }]), base: '/r' },
        { document: doc([{ shape: 'x:*', keyPrefix: 'cfg:', writes: [] }]), base: '/r' },
      ],
      '/r',
    );
    expect(shapes.map((s) => [s.shape, s.persistent, s.writtenBy.map((w) => `${w.file}:${w.line}`)])).toEqual([
      ['cfg:*', true, ['a.ts:2', 'm.ts:1', 'z.ts:9']],
      ['cfg:x:*', false, []],
    ]);
    const mixed = buildAttribution(
      [
        { document: doc([{ shape: 'cfg:*', persistent: true, writes: [write('a.ts', 2, 'persistent')] }]), base: '/r' },
        { document: doc([{ shape: 'cfg:*', writes: [write('b.ts', 2, 'none')] }]), base: '/r' },
      ],
      '/r',
    );
    expect(mixed.shapes[0]!.persistent).toBe(false);
  });

  it('notes the shapes too broad to use (five named, the rest counted) and the unresolved writes', () => {
    const broad = ['*', '*:*', 'q:*', '{*}:*', '*:*:*', 'a*', 'b:*'];
    const { notes, index } = buildAttribution(
      [
        {
          document: { ...doc(broad.map((shape, i) => ({ shape, writes: [write('g.ts', i + 1)] }))), unresolved: [{ ...write('s.lua', 4), key: 'KEYS[1]' }] },
          base: '/r',
        },
      ],
      '/r',
    );
    expect(index.size).toBe(0);
    expect(notes).toEqual([
      "7 inventory shapes are too broad to attribute keys (no literal part of 3 or more characters): '*' (g.ts:1:1), '*:*' (g.ts:2:1), 'q:*' (g.ts:3:1), '{*}:*' (g.ts:4:1), '*:*:*' (g.ts:5:1) and 2 more; their keys are grouped by folding.",
      '1 inventory write site writes a key the analysis could not spell (KEYS[1] at s.lua:4:1): the keys they make, if any, show up as written by no code.',
    ]);
  });
});

describe('computeFindings', () => {
  it('puts the sites that may leave a key without TTL first, and tells the three causes apart', () => {
    const attribution = buildAttribution([{ document: doc([{ shape: 'a:*', writes: [write('x.ts', 1, 'atomic'), write('x.ts', 2, 'keepttl')] }, { shape: 'b:*', writes: [write('y.ts', 1, 'atomic')] }]), base: '/r' }], '/r');
    const [a, b] = attribution.shapes;
    const row = (pattern: string, keys: number, noTtl: number, shape: typeof a) => ({ pattern, shape: shape?.shape ?? null, keys, noTtl, writtenBy: shape?.writtenBy ?? [], examples: [`${pattern}e`], noTtlExamples: [`${pattern}n`] });
    const rows = [row('a:*', 5, 1, a), row('b:*', 5, 2, b), row('c:*', 3, 3, undefined), row('d:*', 1, 0, undefined)];
    const findings = computeFindings(rows, (p) => attribution.shapes.find((s) => s.shape === p.shape));
    expect(findings.leaking.map((f) => [f.pattern, f.cause, f.writtenBy.map((w) => w.line), f.examples])).toEqual([
      ['c:*', 'unwritten', [], ['c:*n']],
      ['b:*', 'unexplained', [1], ['b:*n']],
      ['a:*', 'site', [2, 1], ['a:*n']],
    ]);
    expect(findings.unwritten.map((f) => [f.pattern, f.examples])).toEqual([
      ['c:*', ['c:*e']],
      ['d:*', ['d:*e']],
    ]);
    expect(findings.unexplained.map((f) => f.pattern)).toEqual(['b:*']);
  });
});
