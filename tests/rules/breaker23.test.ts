/**
 * Breaker round 23: readings that left a finding out and hid a real leak, each with the case that
 * broke it.
 */
import { describe, expect, it } from 'vitest';
import { lintSnippet, lintWriteRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const SET = 'set-requires-ttl-or-keepttl';

describe('a key deleted after the write in its own function (deleted-after.ts)', () => {
  it('a DEL of another key of the same shape (a rename) does not end the written key', () => {
    const code = ioredis(`export async function rename(oldId: string, newId: string) {
  const data = await redis.get(\`room:\${oldId}\`);
  await redis.set(\`room:\${newId}\`, data ?? '');
  await redis.del(\`room:\${oldId}\`);
}
`);
    expect(lintWriteRules(code)).toEqual([[SET, 'setWithoutTtl', 5, 15, undefined]]);
  });
  it('nor a DEL of the key variable once it names another key', () => {
    const code = ioredis(`export async function move(id: string, other: string) {
  let key = \`job:\${id}:status\`;
  await redis.set(key, 'running');
  key = \`job:\${other}:status\`;
  await redis.del(key);
}
`);
    expect(lintWriteRules(code)).toEqual([[SET, 'setWithoutTtl', 5, 15, undefined]]);
  });
  it('nor a DEL after a yield: the consumer may stop asking for values', () => {
    const code = ioredis(`export async function* stream(id: string) {
  await redis.set(\`job:\${id}:status\`, 'running');
  yield 1;
  await redis.del(\`job:\${id}:status\`);
}
`);
    expect(lintWriteRules(code)).toEqual([[SET, 'setWithoutTtl', 4, 15, undefined]]);
  });
  it('nor a cleanup function called with another key, or a parameter that shadows its name', () => {
    const cleanup = `async function clearSession(pin: string) {
  await redis.del(\`pin:\${pin}:status\`);
}
`;
    const otherArgument = ioredis(`${cleanup}export function register(io: any) {
  io.on('abort', async (pin: string, previous: string) => {
    await redis.set(\`pin:\${pin}:status\`, 'finished');
    await redis.expire(\`pin:\${pin}:log\`, 60);
    await clearSession(previous);
  });
}
`);
    const shadowed = ioredis(`${cleanup}export function register(io: any, clearSession: (pin: string) => Promise<void>) {
  io.on('abort', async (pin: string) => {
    await redis.set(\`pin:\${pin}:status\`, 'finished');
    await redis.expire(\`pin:\${pin}:log\`, 60);
    await clearSession(pin);
  });
}
`);
    expect(lintWriteRules(otherArgument)).toEqual([[SET, 'setWithoutTtl', 8, 17, undefined]]);
    expect(lintWriteRules(shadowed)).toEqual([[SET, 'setWithoutTtl', 8, 17, undefined]]);
    // the same cleanup called with the written key's own piece still ends it
    expect(lintWriteRules(otherArgument.replace('clearSession(previous)', 'clearSession(pin)'))).toEqual([]);
  });
});

describe('a compensating decrement (reserved-counter.ts)', () => {
  const INCR_ONLY = { 'redis-ttl/incr-needs-expire-on-create': 'error' } as const;
  const findings = (code: string) => lintSnippet(code, INCR_ONLY).map((m) => [m.messageId, m.line, m.column]);
  const reserve = (between: string, header = 'export async function enter(id: string, limit: number)') =>
    ioredis(`${header} {
  const key = \`active:\${id}\`;
  const [[, count]] = (await redis.multi().incr(key).expire(key, 10).exec()) as [[null, number]];
  if (count > limit) {
    ${between}
    await redis.decr(key);
  }
}
`);
  it('the bare correction stays left alone', () => {
    expect(findings(reserve('await redis.get(`wake:${id}`);'))).toEqual([]);
  });
  it('is not one after a blocking command: BLPOP waits as long as any work', () => {
    expect(findings(reserve('await redis.blpop(`wake:${id}`, 30);'))).toEqual([['noExpiry', 8, 17]]);
  });
  it('nor after a for await, nor a yield', () => {
    expect(findings(reserve('for await (const job of jobs) console.log(job);', 'export async function enter(id: string, limit: number, jobs: AsyncIterable<string>)'))).toEqual([
      ['noExpiry', 8, 17],
    ]);
    expect(findings(reserve("yield 'waiting';", 'export async function* enter(id: string, limit: number)'))).toEqual([['noExpiry', 8, 17]]);
  });
  it('nor of a key variable assigned another key in between', () => {
    const code = ioredis(`export async function enter(id: string, other: string, limit: number) {
  let key = \`active:\${id}\`;
  const [[, count]] = (await redis.multi().incr(key).expire(key, 10).exec()) as [[null, number]];
  key = \`active:\${other}\`;
  if (count > limit) await redis.decr(key);
}
`);
    expect(findings(code)).toEqual([['noExpiry', 7, 34]]);
  });
});
