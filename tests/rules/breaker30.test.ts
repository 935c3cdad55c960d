/**
 * Breaker round 30: odd but realistic code against the round's new readings (records found before
 * their update, drained queues, code nothing calls, key lists, clamped refunds). Each case is a
 * leak a reading hid, or a finding nobody would fix, and the result it must give.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';

const INCR = 'redis-ttl/incr-needs-expire-on-create';
const H = "import Redis from 'ioredis';\nconst redis = new Redis();\n";

describe('a record found: the write rebuilt from a field that names another record', () => {
  it('a referral credited to the referrer the user names may recreate a deleted account: reported', () => {
    const code = `${H}export async function onFirstOrder(id: string) {
  const user = await redis.hgetall(\`user:\${id}\`);
  const prefs = JSON.parse(user.prefs);
  await redis.hincrby(\`user:\${user.referredBy}\`, 'referrals', 1);
  return prefs;
}
`;
    expect(lintKeyRules(code)).toEqual([[INCR, 'noExpiry', 6, 15]]);
  });
  it('a record rebuilt from its own id, or its `<shape>Id`, is still found: not reported', () => {
    const write = (field: string) => `${H}export async function play(userId: string) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  const room = await redis.hgetall(\`room:\${user.joinRoom}\`);
  room.users = JSON.parse(room.users);
  await redis.hset(\`room:\${room.${field}}\`, 'users', JSON.stringify(room.users));
}
`;
    expect(lintKeyRules(write('id'))).toEqual([]);
    expect(lintKeyRules(write('roomId'))).toEqual([]);
  });
});

describe('a record handed in: the caller changes the field the callee keys it by', () => {
  it('a room forked under a new id before it is saved creates that room: reported', () => {
    const code = `${H}async function save(room: Record<string, string>) {
  await redis.hset(\`room:\${room.id}\`, room);
}
export async function fork(id: string) {
  const room = await redis.hgetall(\`room:\${id}\`);
  room.users = JSON.parse(room.users);
  room.id = crypto.randomUUID();
  await save(room);
}
`;
    expect(lintKeyRules(code)).toEqual([[INCR, 'noExpiry', 4, 15]]);
  });
  it('a callee keying by a field other than the record\'s own name: reported', () => {
    const code = `${H}async function credit(user: Record<string, string>) {
  await redis.hincrby(\`user:\${user.referredBy}\`, 'referrals', 1);
}
export async function onFirstOrder(id: string) {
  const user = await redis.hgetall(\`user:\${id}\`);
  const prefs = JSON.parse(user.prefs);
  await credit(user);
  return prefs;
}
`;
    expect(lintKeyRules(code)).toEqual([[INCR, 'noExpiry', 4, 15]]);
  });
});
