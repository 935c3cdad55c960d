import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FLAT_LIMIT, LayeredMap, joinLayered } from '../../lua-lint/layered-map.js';

/** The plain-Map join the walk used before layered maps: the reference. */
function joinPlain(a: Map<number, number>, b: Map<number, number>, missing: number, joinOne: (x: number, y: number) => number): Map<number, number> {
  const out = new Map<number, number>();
  for (const [id, x] of a) {
    const y = b.get(id) ?? missing;
    out.set(id, x === y ? x : joinOne(x, y));
  }
  for (const [id, y] of b) if (!a.has(id)) out.set(id, y === missing ? y : joinOne(missing, y));
  return out;
}

const join = (x: number, y: number): number => Math.max(x, y) * 10 + Math.min(x, y);

type Op = { kind: 'set'; key: number; value: number } | { kind: 'delete'; key: number };

const ops = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 200 }), value: fc.integer({ min: 1, max: 5 }) }),
    fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 200 }) }),
  ),
  { maxLength: 60 },
);

function applyLayered(map: LayeredMap<number, number>, list: readonly Op[]): LayeredMap<number, number> {
  const out = map.fork();
  for (const op of list) {
    if (op.kind === 'set') out.set(op.key, op.value);
    else out.delete(op.key);
  }
  return out;
}

function applyPlain(map: Map<number, number>, list: readonly Op[]): Map<number, number> {
  const out = new Map(map);
  for (const op of list) {
    if (op.kind === 'set') out.set(op.key, op.value);
    else out.delete(op.key);
  }
  return out;
}

describe('LayeredMap', () => {
  it('forks without changing the map it forked from, and reads through its layers', () => {
    const base = LayeredMap.empty<string, number>();
    for (let i = 0; i < FLAT_LIMIT + 10; i++) base.set(`k${i}`, i);
    const a = base.fork();
    const b = base.fork();
    a.set('k1', 100);
    a.delete('k2');
    b.set('new', 7);
    expect([base.get('k1'), base.get('k2'), base.get('new')]).toEqual([1, 2, undefined]);
    expect([a.get('k1'), a.get('k2'), a.has('k2'), a.get('k3')]).toEqual([100, undefined, false, 3]);
    expect([b.get('k1'), b.get('new'), b.size]).toEqual([1, 7, FLAT_LIMIT + 11]);
    expect(a.size).toBe(FLAT_LIMIT + 9);
  });

  describe.each([
    ['Map layers', false],
    ['array layers (a path\'s variables)', true],
  ] as const)('with %s', (_kind, arrays) => {
    it('joins only what changed: the result equals the plain join, in the same order', () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(ops, ops), { minLength: 1, maxLength: 12 }), (rounds) => {
          // a chain of fork / join rounds, as a script of sequential if/else blocks makes
          let layered = LayeredMap.empty<number, number>(arrays);
          let plain = new Map<number, number>();
          for (const [left, right] of rounds) {
            const joined = joinLayered(applyLayered(layered, left), applyLayered(layered, right), 0, join);
            plain = joinPlain(applyPlain(plain, left), applyPlain(plain, right), 0, join);
            layered = joined;
            expect([...layered]).toEqual([...plain]);
            expect(layered.size).toBe(plain.size);
          }
        }),
        { numRuns: 300, seed: 17 },
      );
    });

    it('keeps a long chain of forks and joins equal to plain maps', () => {
      let layered = LayeredMap.empty<number, number>(arrays);
      let plain = new Map<number, number>();
      for (let block = 0; block < 2_000; block++) {
        const thenOps: Op[] = [{ kind: 'set', key: block, value: 1 }];
        const elseOps: Op[] = [{ kind: 'set', key: block, value: 2 }, { kind: 'set', key: -1, value: block }];
        layered = joinLayered(applyLayered(layered, thenOps), applyLayered(layered, elseOps), 0, join);
        plain = joinPlain(applyPlain(plain, thenOps), applyPlain(plain, elseOps), 0, join);
      }
      expect(layered.get(1_999)).toBe(21);
      expect([...layered]).toEqual([...plain]);
    });

    it('keeps deletes, re-adds and the order of a plain map past the indexed size', () => {
      fc.assert(
        fc.property(fc.array(ops, { minLength: 1, maxLength: 8 }), (lists) => {
          let layered = LayeredMap.empty<number, number>(arrays);
          let plain = new Map<number, number>();
          for (const list of lists) {
            // in place on the owned map, as a path writes its own variables
            for (const op of list) {
              if (op.kind === 'set') layered.set(op.key, op.value);
              else layered.delete(op.key);
            }
            plain = applyPlain(plain, list);
            expect([...layered]).toEqual([...plain]);
            expect(layered.size).toBe(plain.size);
            for (const key of [0, 1, 50, 100, 199]) expect(layered.get(key)).toBe(plain.get(key));
            layered = layered.fork();
          }
        }),
        { numRuns: 300, seed: 23 },
      );
    });
  });
});
