/**
 * "A decrement whose reply says it created the key, deleted on that reply"
 * (redis-calls/deleted-when-created.ts): DECR of a missing key creates it at -1 without TTL, and
 * `if (n <= 0) await redis.del(key)` right after deletes exactly that key. Counted: a reply known on
 * a missing key (DECR -1, DECRBY 2 -2, INCRBY / HINCRBY by -1) and a test that holds with it (`<=
 * 0`, `< 0`, `=== -1` for DECR, `< 1`). Near misses keep their findings: a test the reply fails
 * (`=== -1` after DECRBY 2), DECRBY by a run-time amount, a DEL of another key, a DEL under a
 * further `if`, other work awaited before the `if`, an INCR deleted only over a limit.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

const lint = (code: string) => lintKeyRules(code);
const INCR = 'redis-ttl/incr-needs-expire-on-create';

const deleted = ioredis(`export async function release(id: string) {
  const key = \`session:\${id}:count\`;
  const n = await redis.decr(key);
  if (n <= 0) {
    await redis.del(key);
  }
}
export async function releaseTwo(id: string) {
  const left = await redis.decrby(\`slots:\${id}\`, 2);
  if (left < 0) await redis.del(\`slots:\${id}\`);
}
export async function leave(id: string) {
  if ((await redis.decr(\`room:\${id}\`)) === -1) await redis.unlink(\`room:\${id}\`);
}
export async function field(id: string, log: (m: string) => void) {
  const v = await redis.hincrby(\`h:\${id}\`, 'open', -1);
  log('decremented');
  if (v < 1) {
    log('empty');
    await redis.del(\`h:\${id}\`);
  }
}
`);
const nodeRedisDeleted = nodeRedis(`export async function release(id: string) {
  const n = await client.decrBy(\`c:\${id}\`, 1);
  if (n <= 0) await client.del(\`c:\${id}\`);
}
`);

const nearMisses = ioredis(`export async function a(id: string, by: number) {
  const n = await redis.decrby(\`a:\${id}\`, 2);
  if (n === -1) await redis.del(\`a:\${id}\`);
  const m = await redis.decrby(\`b:\${id}\`, by);
  if (m <= 0) await redis.del(\`b:\${id}\`);
  const o = await redis.decr(\`c:\${id}\`);
  if (o <= 0) await redis.del(\`other:\${id}\`);
}
export async function b(id: string, force: boolean, job: () => Promise<void>) {
  const n = await redis.decr(\`d:\${id}\`);
  if (n <= 0) {
    if (force) await redis.del(\`d:\${id}\`);
  }
  const m = await redis.decr(\`e:\${id}\`);
  await job();
  if (m <= 0) await redis.del(\`e:\${id}\`);
  const hits = await redis.incr(\`f:\${id}\`);
  if (hits > 10) await redis.del(\`f:\${id}\`);
}
`);

describe('incr-needs-expire-on-create: a decrement deleted when its reply says it created the key', () => {
  it('leaves the decrement alone', () => {
    expect(lint(deleted)).toEqual([]);
    expect(lint(nodeRedisDeleted)).toEqual([]);
  });

  it('keeps reporting a test the reply fails, another key, a further branch, work in between, an INCR', () => {
    expect(lint(nearMisses)).toEqual([
      [INCR, 'noExpiry', 4, 25],
      [INCR, 'noExpiry', 6, 25],
      [INCR, 'noExpiry', 8, 25],
      [INCR, 'noExpiry', 12, 25],
      [INCR, 'noExpiry', 16, 25],
      [INCR, 'noExpiry', 19, 28],
    ]);
  });
});
