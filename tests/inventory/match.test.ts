// Matching live keys to key shapes (inventory/match.ts): `*` is any run of characters, as in
// persistentKeys (one reading, each row asserted on both sides), the broadness threshold, the most specific shape winning, and a property test
// against a regular-expression reference, including keys built to make a backtracking matcher slow.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileShape, compareSpecificity, matchShape, MIN_LITERAL_RUN, ShapeIndex, tooBroad } from '../../inventory/match.js';
import { keyPatternMatcher } from '../../semantics/key-patterns.js';

const matches = (shape: string, key: string) => matchShape(compileShape(shape), key);

describe('compileShape', () => {
  it('splits a shape at its stars, runs of stars read as one', () => {
    expect(compileShape('user:*:profile').stars).toEqual(['any']);
    expect(compileShape('rl:{*}:count').stars).toEqual(['any']);
    expect(compileShape('*stat*failed*').stars).toEqual(['any', 'any', 'any']);
    expect(compileShape('a:**:b').shape).toBe('a:*:b');
    expect(compileShape('rl:{*}:count').literals).toEqual(['rl:{', '}:count']);
  });
});

/**
 * One reading of `*` (round 21): what a persistentKeys pattern matches in the linter
 * (semantics/key-patterns.ts keyPatternMatcher) and what a shape matches in the audit (matchShape)
 * are the same, `*` any run of characters, `:` included. Each row is asserted on both sides.
 */
const ONE_READING: ReadonlyArray<[pattern: string, text: string, matches: boolean]> = [
  ['user:*:profile', 'user:42:profile', true],
  ['user:*:profile', 'user::profile', true],
  ['user:*:profile', 'user:a:b:profile', true],
  ['session:*', 'session:abc', true],
  ['session:*', 'session:abc:meta', true],
  // the new user's case: `user:*` covers `user:42:settings` in persistentKeys, so in the audit too
  ['user:*', 'user:42:settings', true],
  ['user:*', 'users:42', false],
  ['*:jobs', 'a:q1:jobs', true],
  ['*:jobs', 'q1:jobs:x', false],
  ['rl:{*}:count', 'rl:{user:42}:count', true],
  ['rl:{*}:count', 'rl:user42:count', false],
  ['order_*', 'order_12:items', true],
  ['*stat*failed*', 'bull:mail:stat:failed', true],
  ['*stat*failed*', 'bull:mail:stat:completed', false],
  ['config:feature-flags', 'config:feature-flags', true],
  ['config:feature-flags', 'config:feature-flags2', false],
  ['ab*ba', 'aba', false],
  ['ab*ba', 'abba', true],
  ['a*b*c', 'abc', true],
  ['*x:*:z', 'x:ax:b:c:z', true],
];

describe('one reading of * (the linter\'s persistentKeys and the audit\'s shapes)', () => {
  it.each(ONE_READING)('persistentKeys %s against %s: %s', (pattern, text, expected) => {
    expect(keyPatternMatcher(pattern)(text)).toBe(expected);
  });
  it.each(ONE_READING)('audit shape %s against the live key %s: %s', (pattern, text, expected) => {
    expect(matches(pattern, text)).toBe(expected);
  });
});

describe('matchShape', () => {
  /** The reference: `*` as a regular expression's any run. */
  function reference(shape: string, key: string): boolean {
    const compiled = compileShape(shape);
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`^${compiled.literals.map(escape).join('[\\s\\S]*')}$`).test(key);
  }

  it('agrees with a regular-expression reference on random shapes and keys, and with persistentKeys', () => {
    const alphabet = fc.constantFrom('a', 'b', ':', '{', '}', '_');
    fc.assert(
      fc.property(
        fc.array(fc.oneof(alphabet, fc.constant('*')), { maxLength: 10 }).map((cs) => cs.join('')),
        fc.array(alphabet, { maxLength: 14 }).map((cs) => cs.join('')),
        (shape, key) => matchShape(compileShape(shape), key) === reference(shape, key) && (!shape.includes('*') || keyPatternMatcher(shape)(key) === reference(shape, key)),
      ),
      { numRuns: 20_000 },
    );
  });

  it('takes linear time on keys built against backtracking', () => {
    // A backtracking matcher tries every split: 20,000 characters and five stars would not end.
    expect(matches('*a*a*a*c*b', `${'a'.repeat(20_000)}b`)).toBe(false);
    expect(matches('*a*a*a*a*b', `${'a'.repeat(20_000)}b`)).toBe(true);
    expect(matches('*a:*:b*c', `${'a:'.repeat(10_000)}c`)).toBe(false);
    expect(matches('*a:*:a*c', `${'a:'.repeat(10_000)}c`)).toBe(true);
    expect(matches('x{*}*{*}y*z', `x{${'}{'.repeat(10_000)}}y`)).toBe(false);
  });
});

describe('tooBroad', () => {
  it(`needs a literal run of ${MIN_LITERAL_RUN} characters with a letter or digit`, () => {
    for (const shape of ['*', '*:*', '*:*:*', '{*}:*', 'q:*', '*:::*', '*-_-*']) expect([shape, tooBroad(compileShape(shape))]).toEqual([shape, expect.stringContaining('no literal part of 3')]);
    for (const shape of ['rl:*', '*:meta', 'job_*', 'config', '*stat*failed*', 'ab:*']) expect([shape, tooBroad(compileShape(shape))]).toEqual([shape, undefined]);
  });
});

describe('ShapeIndex', () => {
  it('returns the most specific matching shape', () => {
    const index = new ShapeIndex(['user:*', 'user:admin', 'user:*:profile', '*:profile', 'session:*', 'app:session:*', '*session:*', '*', 'q:*'].map((shape) => ({ shape, value: shape })));
    expect(index.size).toBe(7);
    expect(index.skipped.map((s) => s.shape)).toEqual(['*', 'q:*']);
    expect(index.match('user:42')).toBe('user:*');
    expect(index.match('user:admin')).toBe('user:admin');
    expect(index.match('user:42:profile')).toBe('user:*:profile');
    expect(index.match('team:profile')).toBe('*:profile');
    expect(index.match('team:7:profile')).toBe('*:profile');
    expect(index.match('session:abc')).toBe('session:*');
    expect(index.match('app:session:abc')).toBe('app:session:*');
    expect(index.match('v2:session:abc')).toBe('*session:*');
    // `user:*` claims it, as persistentKeys' `user:*` does (a more specific shape would win)
    expect(index.match('user:42:settings')).toBe('user:*');
    expect(index.match('q:1')).toBeUndefined();
    expect(index.match('')).toBeUndefined();
  });

  it('agrees with trying every shape in order of specificity', () => {
    const shapes = ['a:*', 'a:b:*', 'a:*:c', 'ab*', 'abc:*', '*:c', 'a:{*}:c', 'b:*', 'abc', '*bc*', 'a:b:c'];
    const compiled = shapes.map(compileShape).sort(compareSpecificity);
    const index = new ShapeIndex(shapes.map((shape) => ({ shape, value: shape })));
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', ':', '{', '}'), { maxLength: 9 }).map((cs) => cs.join('')), (key) => {
        const expected = compiled.find((c) => !tooBroad(c) && matchShape(c, key))?.shape;
        return index.match(key) === expected;
      }),
      { numRuns: 20_000 },
    );
  });

  it('orders by literal characters, then stars, then the prefix, then the spelling', () => {
    const order = (...shapes: string[]) => shapes.map(compileShape).sort(compareSpecificity).map((c) => c.shape);
    expect(order('a:*', 'a:b:*')).toEqual(['a:b:*', 'a:*']);
    expect(order('ab_*', 'ab:*')).toEqual(['ab:*', 'ab_*']); // the spelling: ':' < '_'
    expect(order('a*b*c:', 'ab*c:')).toEqual(['ab*c:', 'a*b*c:']);
    expect(order('*:abc', 'abc:*')).toEqual(['abc:*', '*:abc']);
  });
});
