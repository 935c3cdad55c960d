// Matching live keys to key shapes (inventory/match.ts): what each kind of `*` matches, hash tags,
// ids, keyPrefix, the broadness threshold, the most specific shape winning, and a property test
// against a regular-expression reference, including keys built to make a backtracking matcher slow.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileShape, compareSpecificity, matchShape, MIN_LITERAL_RUN, ShapeIndex, tooBroad } from '../../inventory/match.js';

const matches = (shape: string, key: string) => matchShape(compileShape(shape), key);

describe('compileShape', () => {
  it('gives each star its kind from where it stands', () => {
    expect(compileShape('user:*:profile').stars).toEqual(['segment']);
    expect(compileShape('session:*').stars).toEqual(['segment']);
    expect(compileShape('*:jobs').stars).toEqual(['segment']);
    expect(compileShape('rl:{*}:count').stars).toEqual(['tag']);
    expect(compileShape('rl:{user:*}:count').stars).toEqual(['tag']);
    expect(compileShape('order_*').stars).toEqual(['any']);
    expect(compileShape('*stat*failed*').stars).toEqual(['any', 'any', 'any']);
    expect(compileShape('*session:*').stars).toEqual(['any', 'segment']);
    expect(compileShape('a:**:b').shape).toBe('a:*:b');
    expect(compileShape('rl:{*}:count').literals).toEqual(['rl:{', '}:count']);
  });
});

describe('matchShape', () => {
  it('matches a whole-segment star to one segment: ids, numbers, UUIDs, empty', () => {
    expect(matches('user:*:profile', 'user:42:profile')).toBe(true);
    expect(matches('user:*:profile', 'user:550e8400-e29b-41d4-a716-446655440000:profile')).toBe(true);
    expect(matches('user:*:profile', 'user:alice@example.com:profile')).toBe(true);
    expect(matches('user:*:profile', 'user::profile')).toBe(true);
    expect(matches('user:*:profile', 'user:a:b:profile')).toBe(false);
    expect(matches('session:*', 'session:abc')).toBe(true);
    expect(matches('session:*', 'session:abc:meta')).toBe(false);
    expect(matches('user:*', 'user:42:settings')).toBe(false);
    expect(matches('*:jobs', 'q1:jobs')).toBe(true);
    expect(matches('*:jobs', 'a:q1:jobs')).toBe(false);
  });

  it('matches a hash-tag star to the tag content, colons included, up to the first }', () => {
    expect(matches('rl:{*}:count', 'rl:{user42}:count')).toBe(true);
    expect(matches('rl:{*}:count', 'rl:{user:42}:count')).toBe(true);
    expect(matches('rl:{*}:count', 'rl:{}:count')).toBe(true);
    expect(matches('rl:{*}:count', 'rl:{a}b}:count')).toBe(false);
    expect(matches('rl:{*}:count', 'rl:user42:count')).toBe(false);
    expect(matches('rl:{user:*}:count', 'rl:{user:42}:count')).toBe(true);
    expect(matches('rl:{user:*}:count', 'rl:{user:4:2}:count')).toBe(true);
  });

  it('matches a star glued to literal text to any run of characters', () => {
    expect(matches('order_*', 'order_12345')).toBe(true);
    expect(matches('order_*', 'order_12:items')).toBe(true);
    expect(matches('*stat*failed*', 'bull:mail:stat:failed')).toBe(true);
    expect(matches('*stat*failed*', 'bull:mail:stat:completed')).toBe(false);
    expect(matches('*session:*', 'app:v2:session:abc')).toBe(true);
    expect(matches('*session:*', 'session:abc')).toBe(true);
    expect(matches('*session:*', 'app:session:abc:x')).toBe(false);
  });

  it('matches a shape without star only to itself, and anchors both ends', () => {
    expect(matches('config:feature-flags', 'config:feature-flags')).toBe(true);
    expect(matches('config:feature-flags', 'config:feature-flags2')).toBe(false);
    expect(matches('ab*ba', 'aba')).toBe(false);
    expect(matches('ab*ba', 'abba')).toBe(true);
    expect(matches('a*b*c', 'abc')).toBe(true);
  });

  it('finds a later place for a literal when the first one leaves a segment star no room', () => {
    // `x:` at 0 leaves `a:y` (with a colon) to the last segment star; the `x:` at 3 leaves `y`
    expect(matches('*x:*', 'x:a:y')).toBe(false);
    expect(matches('*x:*', 'ax:x:y')).toBe(true);
    expect(matches('*x:*:z', 'x:ax:b:z')).toBe(true);
    expect(matches('*x:*:z', 'x:ax:b:c:z')).toBe(false);
  });

  /** The reference: the same semantics as a regular expression. */
  function reference(shape: string, key: string): boolean {
    const compiled = compileShape(shape);
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const star = { any: '[\\s\\S]*', segment: '[^:]*', tag: '[^}]*' };
    const source = compiled.literals.map((l, i) => escape(l) + (i < compiled.stars.length ? star[compiled.stars[i]!] : '')).join('');
    return new RegExp(`^${source}$`).test(key);
  }

  it('agrees with a regular-expression reference on random shapes and keys', () => {
    const alphabet = fc.constantFrom('a', 'b', ':', '{', '}', '_');
    fc.assert(
      fc.property(
        fc.array(fc.oneof(alphabet, fc.constant('*')), { maxLength: 10 }).map((cs) => cs.join('')),
        fc.array(alphabet, { maxLength: 14 }).map((cs) => cs.join('')),
        (shape, key) => matchShape(compileShape(shape), key) === reference(shape, key),
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
    expect(index.match('team:7:profile')).toBeUndefined();
    expect(index.match('session:abc')).toBe('session:*');
    expect(index.match('app:session:abc')).toBe('app:session:*');
    expect(index.match('v2:session:abc')).toBe('*session:*');
    expect(index.match('user:42:settings')).toBeUndefined();
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

  it('orders by literal characters, then stars that cross separators, then stars, then the prefix', () => {
    const order = (...shapes: string[]) => shapes.map(compileShape).sort(compareSpecificity).map((c) => c.shape);
    expect(order('a:*', 'a:b:*')).toEqual(['a:b:*', 'a:*']);
    expect(order('ab_*', 'ab:*')).toEqual(['ab:*', 'ab_*']);
    expect(order('a*b*c:', 'ab*c:')).toEqual(['ab*c:', 'a*b*c:']);
    expect(order('*:abc', 'abc:*')).toEqual(['abc:*', '*:abc']);
  });
});
