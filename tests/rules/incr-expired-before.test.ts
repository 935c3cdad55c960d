/**
 * "Just given its TTL by a separate EXPIRE" (redis-calls/created-before.ts `expiredRightAfter`): a
 * write that creates its key only when the key is missing (DECR, INCR, HINCRBY, HSET ...) runs, on
 * every path of the same function, after an earlier write of the same key (INCR, HSET) followed by
 * an EXPIRE of it with a known positive duration, sent as its own round trip, and with only Redis
 * round trips in between: the EXPIRE gave the key a fresh TTL, so the write finds the key and
 * creates nothing (the crash between the creation and its EXPIRE is the creation's own
 * `separateRoundTrip`). A correction in between (DECR, INCRBY by a negative amount) leaves the key
 * as it is: the re-increment after it looks further back. Near misses keep their findings: the
 * write in a deferred callback (`res.on('finish')`, a timer) or in another function, the expiry
 * only on the first hit, of a TTL that may be <= 0 or under NX / LT, other work awaited in between, a DEL in
 * between, and the creation in a `try` the write is outside of.
 */
import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

/** [messageId, line, column] of each finding of the rule. */
function lint(code: string): Array<[string | undefined, number, number]> {
  return lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': 'error' }).map((m) => [m.messageId, m.line, m.column]);
}

// INCR, then its EXPIRE as a second round trip, then a DECR that does not read the reply
const v1 = ioredis(`export async function open(userId: string, allowed: boolean) {
  const key = \`conn:\${userId}\`;
  await redis.incr(key);
  await redis.expire(key, 300);
  if (!allowed) await redis.incrby(key, -1);
}
`);
// node-redis: the same counter decremented unconditionally, a read of another key in between
const v2 = nodeRedis(`export async function visit(page: string) {
  await client.incr(\`hits:\${page}\`);
  await client.expire(\`hits:\${page}\`, 60);
  await client.get('flags');
  await client.decr(\`hits:\${page}\`);
}
`);
// over the limit: the correction, then the re-increment of the same request (weelobackend socket.service.ts)
const v3 = ioredis(`export async function connect(userId: string, max: number) {
  const connKey = \`socket:conncount:\${userId}\`;
  const count = await redis.incr(connKey);
  await redis.expire(connKey, 300);
  if (count > max) {
    await redis.incrby(connKey, -1);
    await redis.incr(connKey);
  }
}
`);
// a hash written, given a TTL from a constant, then another field incremented
const v4 = ioredis(`const TTL = 3600;
export async function track(id: string, transporter: string) {
  await redis.hset(\`delivery:\${id}\`, transporter, 'sent');
  await redis.expire(\`delivery:\${id}\`, TTL);
  await redis.hincrby(\`delivery:\${id}\`, 'count', 1);
}
`);

// the DECR in a deferred callback: it can run after the TTL lapsed (FuseIQ rateLimit.middleware.ts)
const i1 = ioredis(`export async function limit(userId: string, res: { on(e: string, f: () => void): void }) {
  const key = \`concurrent:\${userId}\`;
  await redis.incr(key);
  await redis.expire(key, 300);
  res.on('finish', async () => {
    await redis.decr(key);
  });
  setTimeout(() => void redis.decr(key), 1000);
}
`);
// the expiry only on the first hit; a TTL that may be <= 0; EXPIRE ... NX (keeps a TTL the key had); in another function
const i2 = ioredis(`export async function first(id: string, ttl: number) {
  const n = await redis.incr(\`a:\${id}\`);
  if (n === 1) await redis.expire(\`a:\${id}\`, 60);
  await redis.incr(\`a:\${id}\`);
  await redis.incr(\`b:\${id}\`);
  await redis.expire(\`b:\${id}\`, ttl);
  await redis.decr(\`b:\${id}\`);
  await redis.incr(\`g:\${id}\`);
  await redis.expire(\`g:\${id}\`, 60, 'NX');
  await redis.decr(\`g:\${id}\`);
}
export async function release(id: string) {
  await redis.decr(\`a:\${id}\`);
}
`);
// other work awaited in between; a DEL in between; the creation in a try the write is outside of
const i3 = ioredis(`export async function work(id: string, job: () => Promise<void>) {
  await redis.incr(\`c:\${id}\`);
  await redis.expire(\`c:\${id}\`, 60);
  await job();
  await redis.decr(\`c:\${id}\`);
  await redis.incr(\`d:\${id}\`);
  await redis.expire(\`d:\${id}\`, 60);
  await redis.del(\`d:\${id}\`);
  await redis.decr(\`d:\${id}\`);
  try {
    await redis.incr(\`e:\${id}\`);
    await redis.expire(\`e:\${id}\`, 60);
  } catch {}
  await redis.decr(\`e:\${id}\`);
}
`);
// the re-increment after a correction, the EXPIRE only on the first hit: the INCR it looks back to
// keeps the TTL the key had
const i4 = ioredis(`export async function again(id: string, max: number) {
  const n = await redis.incr(\`f:\${id}\`);
  if (n === 1) await redis.expire(\`f:\${id}\`, 60);
  if (n > max) {
    await redis.decr(\`f:\${id}\`);
    await redis.incr(\`f:\${id}\`);
  }
}
`);

describe('incr-needs-expire-on-create: a write after the key was just given its TTL by a separate EXPIRE', () => {
  it('leaves the write alone: the key is there, with a fresh TTL', () => {
    expect(lint(v1)).toEqual([['separateRoundTrip', 5, 15]]);
    expect(lint(v2)).toEqual([['separateRoundTrip', 4, 16]]);
    expect(lint(v3)).toEqual([['separateRoundTrip', 5, 29]]);
    expect(lint(v4)).toEqual([['separateRoundTrip', 5, 15]]);
  });
  it('keeps the near misses reported', () => {
    expect(lint(i1)).toEqual([
      ['separateRoundTrip', 5, 15],
      ['noExpiry', 8, 17],
      ['noExpiry', 10, 31],
    ]);
    expect(lint(i2)).toEqual([
      ['separateRoundTrip', 4, 25],
      ['expiryBeforeCreate', 6, 15],
      ['separateRoundTrip', 7, 15],
      ['expiryBeforeCreate', 9, 15],
      ['separateRoundTrip', 10, 15],
      ['expiryBeforeCreate', 12, 15],
      ['noExpiry', 15, 15],
    ]);
    expect(lint(i3)).toEqual([
      ['separateRoundTrip', 4, 15],
      ['expiryBeforeCreate', 7, 15],
      ['expiryBeforeCreate', 11, 15],
      ['separateRoundTrip', 13, 17],
      ['expiryBeforeCreate', 16, 15],
    ]);
    expect(lint(i4)).toEqual([
      ['separateRoundTrip', 4, 25],
      ['expiryBeforeCreate', 8, 17],
    ]);
  });
});

describe('a write in a loop after the creation and its EXPIRE', () => {
  // the next turn's write runs after the rest of the body: a sleep longer than the TTL in between
  const loop = (rest: string) =>
    ioredis(`export async function tally(key: string, fields: string[]) {
  await redis.incr(key);
  await redis.expire(key, 60);
  for (const field of fields) {
    await redis.hincrby(key, field, 1);${rest}
  }
}
declare function sleep(ms: number): Promise<void>;
`);

  it('may recreate the key without TTL when other work is awaited after it in the loop', () => {
    expect(lint(loop(`\n    await sleep(120_000);`))).toEqual([
      ['separateRoundTrip', 4, 15],
      ['expiryBeforeCreate', 7, 17],
    ]);
    // the same for a creation with its TTL (SET ... EX)
    expect(
      lint(
        ioredis(`export async function tally(key: string, fields: string[]) {
  await redis.set(key, '0', 'EX', 60);
  for (const field of fields) {
    await redis.incr(key);
    await sleep(120_000);
  }
}
declare function sleep(ms: number): Promise<void>;
`),
      ),
    ).toEqual([['noExpiry', 6, 17]]);
  });

  it('finds the key when only Redis round trips follow it in the loop', () => {
    expect(lint(loop(`\n    await redis.get('flags');`))).toEqual([['separateRoundTrip', 4, 15]]);
    expect(lint(loop(''))).toEqual([['separateRoundTrip', 4, 15]]);
  });
});
