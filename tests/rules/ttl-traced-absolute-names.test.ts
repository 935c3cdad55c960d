/**
 * `ttl-units`: a name such as `expiresAt` says "a point in time" only when nothing says otherwise
 * (round 24). When every value the parameter or variable is given in the file (a default, an
 * initializer, its assignments; a function of the code called there is what it returns) is a
 * duration, the name alone does not report: kashba1/service-users' `setCache(key, value, expiresAt
 * = 0)` with `expiresAt = getEndOfTheDayTimeIST()` (seconds left in the day, `moment(eod).diff(now,
 * 'seconds')`) passed to SETEX.
 *
 * Limits kept (still reported): a value traced to the clock (`Math.floor(Date.now() / 1000) + 60`,
 * `Date.now() + ttl`, `getTime()`), a parameter given no value in the file (only its callers'), and
 * a value nothing tells (an unknown call mixed with a duration).
 */
import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../helpers/lint.js';
import { ioredis } from './tester.js';

/** [messageId, line, column] of each ttl-units finding. */
function units(code: string, filename = 'app.ts'): Array<[string | undefined, number, number]> {
  return lintSnippet(code, { 'redis-ttl/ttl-units': 'error' }, filename).map((m) => [m.messageId, m.line, m.column]);
}

const SECONDS_LEFT = `const secondsLeftToday = () => {
  const now = new Date();
  const end = new Date(now);
  end.setHours(23, 59, 59, 999);
  return moment(end).diff(moment(now), 'seconds');
};
`;

describe('a name saying "point in time" given durations only', () => {
  it('does not report a parameter whose default and assignment are durations (a function returning seconds)', () => {
    const code = ioredis(`import moment from 'moment';
${SECONDS_LEFT}export async function setCache(key: string, value: string, expiresAt: number = 0) {
  if (!expiresAt) {
    expiresAt = secondsLeftToday();
  }
  await redis.setex(key, expiresAt, value);
}
export async function touch(key: string) {
  let expireAt = secondsLeftToday();
  await redis.expire(key, expireAt);
  const expiresAt = 15 * 60;
  await redis.expire(key, expiresAt);
}
`);
    expect(units(code)).toEqual([]);
  });

  it('keeps reporting a value traced to the clock, a parameter given nothing here, and an unknown value beside a duration', () => {
    const code = ioredis(`export async function a(key: string) {
  let expireAt = Math.floor(Date.now() / 1000) + 60;
  await redis.expire(key, expireAt);
}
export async function b(key: string, expiresAt: number) {
  await redis.expire(key, expiresAt);
}
export async function c(key: string, expiresAt: number = 60) {
  if (expiresAt < 0) expiresAt = Date.now() + 60_000;
  await redis.pexpire(key, expiresAt);
}
export async function d(key: string, expiresAt: number = 60) {
  if (!expiresAt) expiresAt = lookup(key);
  await redis.expire(key, expiresAt);
}
declare function lookup(key: string): number;
`);
    expect(units(code)).toEqual([
      ['absoluteAsDuration', 5, 27],
      ['absoluteAsDuration', 8, 27],
      ['absoluteAsDuration', 12, 28],
      ['absoluteAsDuration', 16, 27],
    ]);
  });

  it('reads the span of a diff in the unit it names', () => {
    const code = ioredis(`import moment from 'moment';
export async function f(key: string, end: Date) {
  await redis.pexpire(key, moment(end).diff(moment(), 'seconds'));
}
`);
    expect(units(code)).toEqual([['secondsAsMs', 5, 28]]);
  });
});
