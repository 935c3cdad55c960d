/**
 * Which call `incr-needs-expire-on-create` takes for "the expiry" of a write: only an EXPIRE-family
 * call after the write, copied with all its arguments; never a SET ... EX / SETEX (which also write
 * a value), and never one before the write. Found by a user trial.
 */
import type { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../helpers/lint.js';

function lint(code: string): Linter.LintMessage[] {
  return lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': 'error' });
}

function suggestions(code: string): string[] {
  const [message, ...rest] = lint(code);
  expect(rest).toEqual([]);
  return (message?.suggestions ?? []).map((s) => applyFix(code, s.fix));
}

function applyFix(code: string, fix: { range: [number, number]; text: string }): string {
  return code.slice(0, fix.range[0]) + fix.text + code.slice(fix.range[1]);
}

const header = "import Redis from 'ioredis';\nconst redis = new Redis();\n";

describe('incr-needs-expire-on-create: pairing a write with its expiry', () => {
  it('does not take an earlier SET ... EX for the expiry, and suggests no value-overwriting write', () => {
    // the SET ... EX on a branch, so the INCR can create the key (on every path it would have just
    // created it: redis-calls/created-before.ts)
    const code = `${header}export async function f(k: string, reset: boolean) {\n  if (reset) await redis.set(k, '0', 'EX', 60);\n  await redis.incr(k);\n}\n`;
    const messages = lint(code);
    expect(messages.map((m) => [m.messageId, m.line])).toEqual([['noExpiry', 5]]);
    for (const output of suggestions(code)) expect(output).not.toMatch(/\.set\(k, '0'\)\.exec|incr\(k\)\.set\(/);
  });

  it('does not take a SETEX for the expiry', () => {
    const code = `${header}export async function f(k: string, v: string) {\n  await redis.setex(k, 60, v);\n  await redis.lpush(k, v);\n}\n`;
    for (const output of suggestions(code)) expect(output).not.toMatch(/setex\(k, 60\)/);
  });

  it('keeps every argument of the expiry it moves (NX stays NX)', () => {
    // the reply is not read: the MULTI takes the expiry's place (a read reply gets no MULTI suggestion)
    const code = `${header}export async function f(k: string) {\n  await redis.incrby(k, 5);\n  await redis.pexpire(k, 60_000, 'NX');\n}\n`;
    expect(suggestions(code)).toEqual([`${header}export async function f(k: string) {\n  await redis.multi().incrby(k, 5).pexpire(k, 60_000, 'NX').exec();\n}\n`]);
  });

  it('accepts a SET ... EX before the write in the same MULTI', () => {
    expect(lint(`${header}export const f = (k: string) => redis.multi().set(k, 0, 'EX', 60).incr(k).exec();\n`)).toEqual([]);
  });
});
