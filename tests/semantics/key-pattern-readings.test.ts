/**
 * The two readings of `*` in semantics/key-patterns.ts: matchStars (a persistent-key pattern, the
 * audit's live keys, `--only`: `*` crosses `:`) and matchSegmentStars (two shapes of the code, a
 * move's source and a written key: `*` stays inside one `:` segment). And that moved-keys.ts
 * drainCovers, which now calls matchSegmentStars, answers as its own regex did before the move.
 */
import { describe, expect, it } from 'vitest';
import { drainCovers } from '../../redis-calls/moved-keys.js';
import { matchSegmentStars, matchStars, starLiterals } from '../../semantics/key-patterns.js';

/** drainCovers as moved-keys.ts wrote it before matchSegmentStars existed (the reference). */
function drainCoversBefore(source: string, written: string): boolean {
  if (source === written) return true;
  const pattern = source
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^:]*');
  return new RegExp(`^${pattern}$`).test(written);
}

const SHAPES = [
  '',
  '*',
  '**',
  ':',
  'room',
  'room:',
  'room:*',
  'room:**',
  'room:*:members',
  'room:42',
  'room:42:members',
  'room:*0*10*',
  'views:buffer',
  'views:buffer:*',
  'views:buffer:*:processing',
  'a.b:*',
  'a+b:(x)',
  'a[1]:*',
  'q:{tag}:*',
  'x\\y:*',
  '*:tail',
  'head:*:tail',
  'head:1:tail',
  'head::tail',
];

describe('the two readings of * (semantics/key-patterns.ts)', () => {
  it('matchSegmentStars: a * stays inside one segment', () => {
    expect(matchSegmentStars('room:*', 'room:42')).toBe(true);
    expect(matchSegmentStars('room:*', 'room:')).toBe(true);
    expect(matchSegmentStars('room:*', 'room:*')).toBe(true);
    expect(matchSegmentStars('room:*', 'room:*0*10*')).toBe(true);
    expect(matchSegmentStars('room:*', 'room:*:members')).toBe(false);
    expect(matchSegmentStars('room:*', 'room')).toBe(false);
    // other characters are literal, regex syntax included
    expect(matchSegmentStars('a.b:*', 'axb:1')).toBe(false);
    expect(matchSegmentStars('a[1]:*', 'a[1]:1')).toBe(true);
  });

  it('matchStars: a * crosses segments (the reading of a persistent-key pattern)', () => {
    expect(matchStars(starLiterals('room:*'), 'room:*:members')).toBe(true);
    expect(matchStars(starLiterals('room:*'), 'room:42')).toBe(true);
  });

  it('drainCovers answers as before the move, on every pair of shapes', () => {
    for (const source of SHAPES) {
      for (const written of SHAPES) expect([source, written, drainCovers(source, written)]).toEqual([source, written, drainCoversBefore(source, written)]);
    }
  });
});
