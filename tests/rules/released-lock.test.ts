/**
 * A lock its writer releases without a TTL (round 38): a constant key named as a lock, created by
 * SET ... NX, SETNX or an INCR of holders, and deleted elsewhere in the file (the writer's `finally`, a `release()`
 * beside the `acquire()`). One key, but
 * an owner that dies before the DEL leaves it held forever, so the constant-key exemption of
 * `recommended` (`allowConstantKeys`) does not apply (redis-calls/locks.ts releasedUnexpiringLock).
 * Near misses keep it: a lock with PX, a constant key not named as a lock, a lock no code of the
 * writer deletes (a flag set once), a per-entity lock (reported anyway).
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';

const ioredis = (body: string): string => `import Redis from 'ioredis';\nconst redis = new Redis();\n${body}\nasync function work() {}`;

describe('a constant lock its writer releases without a TTL', () => {
  it('INCR of holders, released in finally: reported (the loyalty-proxy shape)', () => {
    const code = ioredis("export async function switchEndpoint() {\n  const holders = await redis.incr('rpc:current-index:lock');\n  try {\n    if (holders > 1) return;\n    await work();\n  } finally {\n    await redis.del('rpc:current-index:lock');\n  }\n}");
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 31]]);
  });
  it('SET ... NX, released after an early return: reported', () => {
    const code = ioredis("const LOCK_KEY = 'jobs:sync:lock';\nexport async function sync() {\n  const ok = await redis.set(LOCK_KEY, '1', 'NX');\n  if (!ok) return;\n  try { await work(); } finally { await redis.del(LOCK_KEY); }\n}");
    expect(lintKeyRules(code)).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'createWithoutTtl', 5, 26]]);
  });
  it('SETNX of a mutex, released at the end: reported', () => {
    const code = ioredis("export async function rebuild() {\n  if (!(await redis.setnx('mutex:rebuild', process.pid))) return;\n  await work();\n  await redis.del('mutex:rebuild');\n}");
    expect(lintKeyRules(code).map(([rule, id, line]) => [rule, id, line])).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'createWithoutTtl', 4]]);
  });
  it('the same lock with PX: not reported', () => {
    const code = ioredis("export async function sync() {\n  const ok = await redis.set('jobs:sync:lock', '1', 'PX', 30000, 'NX');\n  if (!ok) return;\n  try { await work(); } finally { await redis.del('jobs:sync:lock'); }\n}");
    expect(lintKeyRules(code)).toEqual([]);
  });
  it('a constant counter not named as a lock, deleted after: still one bounded key', () => {
    const code = ioredis("export async function batch() {\n  await redis.incr('jobs:processed');\n  await work();\n  await redis.del('jobs:processed');\n}");
    expect(lintKeyRules(code)).toEqual([]);
  });
  it('a constant lock no code of the file deletes (a flag set once): still exempt', () => {
    const code = ioredis("export async function migrate() {\n  if (!(await redis.setnx('migrations:lock', '1'))) return;\n  await work();\n}");
    expect(lintKeyRules(code)).toEqual([]);
  });
  it('acquire and release in two methods of a class, a constant member key: reported', () => {
    const code = ioredis("export class Sync {\n  private readonly lockKey = 'sync:lock';\n  async acquire() {\n    return (await redis.set(this.lockKey, 'owner', 'NX')) === 'OK';\n  }\n  async release() {\n    await redis.del(this.lockKey);\n  }\n}");
    expect(lintKeyRules(code).map(([rule, id, line]) => [rule, id, line])).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'createWithoutTtl', 6]]);
  });
  it('a key whose words name no lock (leaderboard, blocked, clock), deleted elsewhere: still one bounded key', () => {
    const code = ioredis("export async function score(id: string, n: number) {\n  await redis.zincrby('leaderboard', n, id);\n  await redis.sadd('blocked', id);\n  await redis.incr('clock');\n}\nexport async function reset() {\n  await redis.del('leaderboard', 'blocked', 'clock');\n}");
    expect(lintKeyRules(code)).toEqual([]);
  });
  it('camelCase and plural lock words count: syncLock, leases', () => {
    const code = ioredis("export async function a() {\n  await redis.setnx('syncLock', '1');\n  await work();\n  await redis.del('syncLock');\n}\nexport async function b() {\n  await redis.incr('worker:leases');\n  await redis.del('worker:leases');\n}");
    expect(lintKeyRules(code).map(([rule, id, line]) => [rule, id, line])).toEqual([
      ['redis-ttl/set-requires-ttl-or-keepttl', 'createWithoutTtl', 4],
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 9],
    ]);
  });
  it('a DEL of another key after the lock: still exempt', () => {
    const code = ioredis("export async function sync() {\n  if (!(await redis.set('jobs:sync:lock', '1', 'NX'))) return;\n  await work();\n  await redis.del('jobs:sync:queue');\n}");
    expect(lintKeyRules(code)).toEqual([]);
  });
});
