/**
 * "Undone later in the same flow" (redis-calls/reserved-counter.ts): for a key the file never
 * expires, a DECR after an INCR of the same key that runs before it on every path undoes that
 * INCR, however long the work in between (sportsbuzz-api-server's join: INCR the league's joined
 * counter, then DECR it back when the payment fails, in the `catch`, in a `Promise.all` with the
 * database rollback); the INCR keeps its finding. Near misses stay reported: a key the file
 * expires (the work can outlast the TTL), an INCR on one branch only or inside the `try` whose
 * `catch` decrements, a DEL in between, the key's variable reassigned, a decrement in a loop that
 * does not hold the increment and deletes the key later in its body, a key spelled with a call
 * (a time bucket computed anew after the work), a decrement with no increment before it.
 */
import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

function lint(code: string): Array<[string | undefined, number, number]> {
  return lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': 'error' }).map((m) => [m.messageId, m.line, m.column]);
}

const join = ioredis(`export async function join(league: { _id: string; nJoined?: number; nMax: number }, pay: () => Promise<{ ok: boolean }>, db: { deleteOne(): Promise<void> }) {
  league.nJoined = await redis.incr(\`\${league._id}\`);
  if (league.nJoined > league.nMax) {
    await Promise.all([redis.decr(\`\${league._id}\`)]);
    return false;
  }
  try {
    const paid = await pay();
    if (!paid.ok) {
      await Promise.all([redis.decr(\`\${league._id}\`), db.deleteOne()]);
      return false;
    }
  } catch (error) {
    await Promise.all([redis.decr(\`\${league._id}\`), db.deleteOne()]);
    return false;
  }
  return true;
}
`);

const joinV4 = nodeRedis(`export async function join(id: string, pay: () => Promise<boolean>) {
  const n = await client.incrBy(\`joined:\${id}\`, 1);
  if (!(await pay())) await client.decr(\`joined:\${id}\`);
  return n;
}
export async function joinAll(id: string, teams: string[], pay: (team: string) => Promise<boolean>) {
  await client.incrBy(\`all:\${id}\`, teams.length);
  for (const team of teams) {
    if (!(await pay(team))) {
      await client.decr(\`all:\${id}\`);
      continue;
    }
  }
}
`);

const near = ioredis(`export async function a(id: string, pay: () => Promise<boolean>) {
  await redis.incr(\`a:\${id}\`);
  if (!(await pay())) await redis.decr(\`a:\${id}\`);
}
export async function b(id: string, pay: () => Promise<boolean>, flag: boolean) {
  if (flag) await redis.incr(\`b:\${id}\`);
  if (!(await pay())) await redis.decr(\`b:\${id}\`);
}
export async function c(id: string, pay: () => Promise<boolean>) {
  try {
    await redis.incr(\`c:\${id}\`);
    await pay();
  } catch {
    await redis.decr(\`c:\${id}\`);
  }
}
export async function d(id: string, pay: () => Promise<boolean>) {
  await redis.incr(\`d:\${id}\`);
  await pay();
  await redis.del(\`d:\${id}\`);
  await redis.decr(\`d:\${id}\`);
}
export async function e(id: string, other: string, pay: () => Promise<boolean>) {
  let key = \`e:\${id}\`;
  await redis.incr(key);
  await pay();
  key = \`e:\${other}\`;
  await redis.decr(key);
}
export async function f(id: string, items: string[], pay: () => Promise<boolean>) {
  await redis.incr(\`f:\${id}\`);
  for (const item of items) {
    if (!(await pay())) await redis.decr(\`f:\${id}\`);
    if (item === 'last') await redis.del(\`f:\${id}\`);
  }
}
export async function g(id: string, pay: () => Promise<boolean>) {
  if (!(await pay())) await redis.decr(\`g:\${id}\`);
}
export async function i(pay: () => Promise<boolean>, bucket: () => number) {
  await redis.incr(\`i:\${bucket()}\`);
  if (!(await pay())) await redis.decr(\`i:\${bucket()}\`);
}
export async function h(id: string) {
  await redis.expire(\`a:\${id}\`, 60);
}
`);

describe('incr-needs-expire-on-create: a counter the same flow increments, then undoes after other work', () => {
  it('leaves the rollback alone; the increment keeps its finding', () => {
    expect(lint(join)).toEqual([['noExpiry', 4, 32]]);
    expect(lint(joinV4)).toEqual([
      ['noExpiry', 4, 26],
      ['noExpiry', 9, 16],
    ]);
  });

  it('keeps reporting a decrement that may create the key', () => {
    // the ioredis helper's two lines of setup come first; the INCR of d, deleted before the
    // function ends, is deleted-after's to judge, not this reading's
    expect(lint(near)).toEqual([
      ['noExpiry', 4, 15],
      ['noExpiry', 5, 35],
      ['noExpiry', 8, 25],
      ['noExpiry', 9, 35],
      ['noExpiry', 13, 17],
      ['noExpiry', 16, 17],
      ['noExpiry', 23, 15],
      ['noExpiry', 27, 15],
      ['noExpiry', 30, 15],
      ['noExpiry', 33, 15],
      ['noExpiry', 35, 37],
      ['noExpiry', 40, 35],
      ['noExpiry', 43, 15],
      ['noExpiry', 44, 35],
    ]);
  });
});
