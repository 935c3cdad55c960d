/**
 * Breaker round 26: odd but realistic code against the round's new readings (a streak counter its
 * function resets, a decrement deleted on its creating reply, a helper's read, a move-drain, a
 * parameter's destructured property, re-exported client packages, declared batches). Each case is
 * a leak a reading hid, or a finding nobody would fix, and the result it must give.
 */
import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const FIXED = 'redis-ttl/fixed-window-expire';
const lintFixed = (code: string) => lintSnippet(code, { [FIXED]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);

describe('fixed-window-expire: a streak counter its function resets', () => {
  it('does not take a DEL of a key spelled alike through a shadowing loop variable for the reset', () => {
    // `for (const id of users)` deletes other users' counters; this user's window re-arms on every hit
    const code = ioredis(`export async function limit(id: string, ok: boolean, users: string[]) {
  if (ok) {
    for (const id of users) await redis.del(\`rl:\${id}\`);
    return true;
  }
  const n = await redis.incr(\`rl:\${id}\`);
  await redis.expire(\`rl:\${id}\`, 60);
  return n <= 10;
}`);
    expect(lintFixed(code)).toEqual([[FIXED, 'rearmedOnEveryIncrement', 9, 15]]);
  });
});

const INCR = 'redis-ttl/incr-needs-expire-on-create';
const lintIncr = (code: string) => lintSnippet(code, { [INCR]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);

describe('incr-needs-expire-on-create: a decrement deleted on its creating reply', () => {
  it('does not take a DEL of a shadowing `key` declared in the `if` for the deletion of the decremented key', () => {
    // the DECR creates `sem:<id>` at -1 without TTL; the `if` deletes the archive key, not it
    const code = ioredis(`export async function release(id: string) {
  const key = \`sem:\${id}\`;
  const n = await redis.decr(key);
  if (n <= 0) {
    const key = \`sem:archive:\${id}\`;
    await redis.del(key);
  }
}`);
    expect(lintIncr(code)).toEqual([[INCR, 'noExpiry', 5, 25]]);
  });
});
