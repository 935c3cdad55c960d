/**
 * "A field update of a record the flow has read and found" (redis-calls/found-record.ts, through
 * created-before.ts): a write whose key names a record the same function has read, when a use of
 * the read's reply that throws on a missing record (`JSON.parse(room.users)` on `{}` or `null`,
 * `room.users.find(...)`) runs before the write on every path, cannot create the key: the write
 * keeps the record's TTL, or its lack of one, and the finding belongs where the record is created,
 * which stays reported. The key may be the read's, or the read's shape rebuilt from a field of the
 * record (`room:${room.id}` after reading `room:${user.joinRoom}`). Near misses keep their
 * findings: the reply never used (HGETALL's `{}` passes everything), a use under a branch or
 * through `?.`, a field overwritten before it is parsed, a key of another shape, a key field the
 * function changes, a DEL between the read and the write, an `await` of other work in between,
 * and the creation itself. The record may be handed in: a function whose every caller (here, a
 * function of the module the module does not export) passes a record it has read and found
 * updates a record that exists; one caller passing an unchecked record, other work awaited
 * before the call, or a record of another shape keeps the finding.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const INCR = 'redis-ttl/incr-needs-expire-on-create';

// a game server: rooms and players are hashes without TTL, created once (reported there) and
// rewritten on every move after the handler has read and parsed them
const game = ioredis(`export async function createRoom(id: string, owner: string) {
  await redis.hset(\`room:\${id}\`, { id, owner, users: '[]' });
}
export async function play(userId: string, card: number) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  const room = await redis.hgetall(\`room:\${user.joinRoom}\`);
  room.users = await JSON.parse(room.users);
  user.hand = JSON.parse(user.hand);
  user.hand.push(card);
  await redis.hset(\`room:\${room.id}\`, { ...room, users: JSON.stringify(room.users) });
  await redis.hset(\`user:\${userId}\`, { ...user, hand: JSON.stringify(user.hand) });
}
export async function rename(userId: string, name: string) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  if (user.hand.length > 7) throw new Error('too many cards');
  await redis.hset(\`user:\${user.id}\`, 'name', name);
}
`);

// the same shapes through the application's own helper object (a pass-through facade per command)
const facade = ioredis(`const store = {
  async hgetall(key: string) {
    const data = await redis.hgetall(key);
    if (!data) return null;
    return data;
  },
  async hset(key: string, value: Record<string, string>) {
    return await redis.hset(key, value);
  },
};
export async function move(userId: string) {
  try {
    const user = await store.hgetall(\`user:\${userId}\`);
    const cards = JSON.parse(user.hand);
    cards.pop();
    await store.hset(\`user:\${user.id}\`, { ...user, hand: JSON.stringify(cards) });
  } catch (err) {
    console.error(err);
  }
}
`);

// near misses: the reply never used; a use under a branch; through ?.; the field overwritten
// before it is parsed; another shape; the key field changed; other work awaited
const nearMisses = ioredis(`export async function unused(userId: string) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  await redis.hset(\`user:\${userId}\`, { ...user, seen: '1' });
}
export async function branch(userId: string, strict: boolean) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  if (strict) JSON.parse(user.hand);
  await redis.hset(\`user:\${userId}\`, 'seen', '1');
}
export async function optional(userId: string) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  const n = user.hand?.length;
  await redis.hset(\`user:\${userId}\`, 'n', n);
}
export async function overwritten(userId: string) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  user.hand = '[]';
  const cards = JSON.parse(user.hand);
  await redis.hset(\`user:\${userId}\`, 'hand', JSON.stringify(cards));
}
export async function otherShape(userId: string) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  JSON.parse(user.hand);
  await redis.hset(\`profile:\${user.id}\`, 'seen', '1');
}
export async function keyFieldChanged(userId: string, next: string) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  JSON.parse(user.hand);
  user.id = next;
  await redis.hset(\`user:\${user.id}\`, 'seen', '1');
}
export async function slow(userId: string, job: () => Promise<void>) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  JSON.parse(user.hand);
  await job();
  await redis.hset(\`user:\${userId}\`, 'seen', '1');
}
`);

// a DEL between the read and the write (alone: a shape the code deletes is another exemption's)
const deleted = ioredis(`export async function reset(userId: string) {
  const user = await redis.hgetall(\`user:\${userId}\`);
  JSON.parse(user.hand);
  await redis.del(\`user:\${userId}\`);
  await redis.hset(\`user:\${userId}\`, 'seen', '1');
}
`);

// a record handed in: a function of the module (not exported: its every caller is here) updates
// the room its callers have read and parsed; \`settle\` is also called with an unparsed record
const handedIn = ioredis(`async function applyMove(room: any, card: number) {
  await redis.hset(\`room:\${room.id}\`, { ...room, last: card });
}
async function settle(room: any) {
  await redis.hset(\`room:\${room.id}\`, 'state', 'done');
}
export async function move(roomId: string, card: number) {
  const room = await redis.hgetall(\`room:\${roomId}\`);
  room.users = JSON.parse(room.users);
  await applyMove(room, card);
  await settle(room);
}
export async function close(roomId: string) {
  const room = await redis.hgetall(\`room:\${roomId}\`);
  await settle(room);
}
`);

// handed in after other work awaited in the caller, or of another shape
const handedLate = ioredis(`async function bump(room: any) {
  await redis.hset(\`room:\${room.id}\`, 'n', 1);
}
async function mark(profile: any) {
  await redis.hset(\`room:\${profile.id}\`, 'seen', 1);
}
export async function later(roomId: string, job: () => Promise<void>) {
  const room = await redis.hgetall(\`room:\${roomId}\`);
  JSON.parse(room.users);
  await job();
  await bump(room);
}
export async function other(userId: string) {
  const profile = await redis.hgetall(\`profile:\${userId}\`);
  JSON.parse(profile.users);
  await mark(profile);
}
`);

describe('incr-needs-expire-on-create: a field update of a record the flow has read and found', () => {
  it('leaves the updates alone after a use that throws on a missing record, and keeps the creation', () => {
    expect(lint(game)).toEqual([[INCR, 'noExpiry', 4, 15]]);
    expect(lint(facade)).toEqual([]);
  });

  it('keeps reporting an unused reply, a use that may not run, another key, a DEL or other work in between', () => {
    expect(lint(nearMisses)).toEqual([
      [INCR, 'noExpiry', 5, 15],
      [INCR, 'noExpiry', 10, 15],
      [INCR, 'noExpiry', 15, 15],
      [INCR, 'noExpiry', 21, 15],
      [INCR, 'noExpiry', 26, 15],
      [INCR, 'noExpiry', 32, 15],
      [INCR, 'noExpiry', 38, 15],
    ]);
    expect(lint(deleted)).toEqual([[INCR, 'noExpiry', 7, 15]]);
  });

  it('leaves alone the update of a record every caller hands in found, not one a caller hands in unchecked', () => {
    expect(lint(handedIn)).toEqual([[INCR, 'noExpiry', 7, 15]]);
    expect(lint(handedLate)).toEqual([
      [INCR, 'noExpiry', 4, 15],
      [INCR, 'noExpiry', 7, 15],
    ]);
  });
});

function lint(code: string) {
  return lintKeyRules(code).filter(([rule]) => rule === INCR);
}
