/**
 * "A write of a key the same function has just proved exists" (redis-calls/created-before.ts, "A
 * read that saw the key"): HSET, SADD, INCR ... that run only when an earlier, awaited read of the
 * same key replied that it is there (`if (!raw) return`) create nothing and keep the key's TTL,
 * when the file never expires the key (it cannot run out in between), or when an expiry of the key
 * with a known positive duration follows the write (the refresh gives it a TTL again should it have
 * run out). Near misses keep their findings: a read whose missing reply does not stop the write (it
 * only logs, or is never tested), a read of another key, an INCR after a read that is only logged,
 * a key the file expires with no refresh (`staleExists`) or a refresh of unknown duration, a DEL
 * between the read and the write, other work between them with no refresh that always follows the
 * write (a refresh after other work counts: whatever removed the key meanwhile, it re-arms it), a
 * read whose reply is not awaited, a variable that may hold something other than the reply.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

const lint = (code: string) => lintKeyRules(code);
const INCR = 'redis-ttl/incr-needs-expire-on-create';

// a field read, and written back only when found, in a hash nothing in the file expires
const fieldUpdate = ioredis(`export async function disable(sport: string, ids: string[]) {
  const key = \`events:\${sport}\`;
  for (const id of ids) {
    try {
      const raw = await redis.hget(key, id);
      if (!raw) {
        continue;
      }
      const parsed = JSON.parse(raw);
      parsed.disabled = true;
      await redis.hset(key, id, JSON.stringify(parsed));
    } catch {
      // reported to the caller
    }
  }
}
`);
// a let both of whose values are reads of the key, tested before the write
const eitherField = ioredis(`export async function act(room: string, me: string, action: string) {
  let opponent = await redis.hget(room, 'player1');
  let player = 'player2';
  if (me === opponent) {
    player = 'player1';
    opponent = await redis.hget(room, 'player2');
  }
  if (!opponent) {
    return;
  }
  await redis.hset(room, \`\${player}Action\`, action);
}
`);
// node-redis: EXISTS, a set nothing in the file expires
const exists = nodeRedis(`export async function join(id: string, member: string) {
  if (!(await client.exists(\`members:\${id}\`))) return;
  return client.sAdd(\`members:\${id}\`, member);
}
`);
// a key the file expires: read, updated only when waiting, then its expiry refreshed
const refreshed = ioredis(`const TTL = 24 * 60 * 60;
export async function create(id: string) {
  await redis.multi().hset(\`game:\${id}\`, 'status', 'waiting').expire(\`game:\${id}\`, TTL).exec();
}
export async function join(id: string, player: string) {
  const status = await redis.hget(\`game:\${id}\`, 'status');
  if (status !== 'waiting') return null;
  await redis.hset(\`game:\${id}\`, { black: player, status: 'active' });
  await redis.expire(\`game:\${id}\`, TTL);
  return player;
}
`);

// the read's missing reply does not stop the write: it only logs, or it is never tested (HMGET)
const notStopped = ioredis(`export async function mark(room: string, me: string, log: (m: string) => void) {
  const raw = await redis.hget(room, 'player1');
  if (!raw) log('no room');
  await redis.hset(room, 'seen', '1');
}
export async function ready(room: string, me: string) {
  const [first] = await redis.hmget(room, 'player1', 'player2');
  const player = me !== first ? 'player2' : 'player1';
  await redis.hset(room, { [\`\${player}Ready\`]: 'true' });
}
`);
// a read of another key; an INCR after a read that is only logged
const otherKey = ioredis(`export async function copy(id: string, log: (m: unknown) => void) {
  const raw = await redis.hget(\`a:\${id}\`, 'f');
  if (!raw) return;
  await redis.hset(\`b:\${id}\`, 'f', raw);
  const n = await redis.get(\`c:\${id}\`);
  log(n);
  await redis.incr(\`c:\${id}\`);
}
`);
// a DEL between the read and the write; other work between them; a reply not awaited; a let that
// may hold a default instead of the reply
const between = ioredis(`export async function f(id: string, job: () => Promise<void>, fallback: boolean) {
  const d = await redis.get(\`d:\${id}\`);
  if (d === null) return;
  await redis.del(\`d:\${id}\`);
  await redis.incr(\`d:\${id}\`);
  const e = await redis.get(\`e:\${id}\`);
  if (e === null) return;
  await job();
  await redis.incr(\`e:\${id}\`);
}
export async function g(id: string, fallback: boolean) {
  const p = redis.get(\`p:\${id}\`);
  if (!p) return;
  await redis.incr(\`p:\${id}\`);
  let v = await redis.get(\`v:\${id}\`);
  if (fallback) v = '1';
  if (!v) return;
  await redis.incr(\`v:\${id}\`);
}
`);
// a key the file expires: without a refresh after the write, the read races the expiry
// (staleExists); a refresh whose TTL may be <= 0 is no refresh (separateRoundTrip)
const expiring = ioredis(`export async function open(id: string) {
  await redis.set(\`w:\${id}\`, 0, 'EX', 60);
  await redis.set(\`x:\${id}\`, 0, 'EX', 60);
}
export async function hit(id: string, ttl: number) {
  const w = await redis.get(\`w:\${id}\`);
  if (w === null) return;
  await redis.incr(\`w:\${id}\`);
  const x = await redis.get(\`x:\${id}\`);
  if (x === null) return;
  await redis.incr(\`x:\${id}\`);
  await redis.expire(\`x:\${id}\`, ttl);
}
`);
// other work between the read and the write, the expiry refreshed right after the write
// (LiveCahat-Backend chat-message.service.js saveMessage)
const workThenRefresh = ioredis(`export async function append(id: string, load: (id: string) => Promise<string>) {
  const key = \`messages:\${id}\`;
  const exists = await redis.exists(key);
  if (exists) {
    const message = await load(id);
    await redis.rpush(key, message);
    await redis.expire(key, 86400);
  }
}
`);
// other work, and then: no refresh; a refresh on a branch; a refresh of unknown duration; a
// refresh after an exit; a DEL between the read and the write
const workNoRefresh = ioredis(`export async function open(id: string) {
  await redis.set(\`q:\${id}\`, 0, 'EX', 60);
}
export async function a(id: string, load: () => Promise<string>, flag: boolean, ttl: number) {
  if (!(await redis.exists(\`q:\${id}\`))) return;
  const m = await load();
  await redis.rpush(\`q:\${id}\`, m);
  if (flag) await redis.expire(\`q:\${id}\`, 60);
  if (!(await redis.exists(\`r:\${id}\`))) return;
  await load();
  await redis.rpush(\`r:\${id}\`, 'x');
  await redis.expire(\`r:\${id}\`, ttl);
  if (!(await redis.exists(\`s:\${id}\`))) return;
  await load();
  await redis.rpush(\`s:\${id}\`, 'x');
  if (flag) return;
  await redis.expire(\`s:\${id}\`, 60);
}
export async function b(id: string, load: () => Promise<string>) {
  if (!(await redis.exists(\`t:\${id}\`))) return;
  await load();
  await redis.del(\`t:\${id}\`);
  await redis.rpush(\`t:\${id}\`, 'x');
  await redis.expire(\`t:\${id}\`, 60);
  if (!(await redis.exists(\`u:\${id}\`))) return;
  await load();
  await redis.rpush(\`u:\${id}\`, 'x');
}
`);

describe('incr-needs-expire-on-create: a write of a key the same function has just seen', () => {
  it('leaves the write alone when the read proved the key there', () => {
    expect(lint(fieldUpdate)).toEqual([]);
    expect(lint(eitherField)).toEqual([]);
    expect(lint(exists)).toEqual([]);
    // the creation's HSET + EXPIRE in one MULTI; the update after the read, refreshed after
    expect(lint(refreshed)).toEqual([]);
  });

  it('keeps reporting a write the read does not stop, or of another key', () => {
    expect(lint(notStopped)).toEqual([
      [INCR, 'noExpiry', 6, 15],
      [INCR, 'noExpiry', 11, 15],
    ]);
    expect(lint(otherKey)).toEqual([
      [INCR, 'noExpiry', 6, 15],
      [INCR, 'noExpiry', 9, 15],
    ]);
  });

  it('keeps reporting a write after a DEL, other work, an unawaited read or another value', () => {
    expect(lint(between)).toEqual([
      [INCR, 'noExpiry', 7, 15],
      [INCR, 'noExpiry', 11, 15],
      [INCR, 'noExpiry', 16, 15],
      [INCR, 'noExpiry', 20, 15],
    ]);
  });

  it('leaves a write after other work alone when a known refresh always follows it', () => {
    expect(lint(workThenRefresh)).toEqual([]);
  });

  it('keeps reporting a write after other work without a refresh that always follows', () => {
    expect(lint(workNoRefresh)).toEqual([
      [INCR, 'separateRoundTrip', 9, 15],
      [INCR, 'separateRoundTrip', 13, 15],
      [INCR, 'separateRoundTrip', 17, 15],
      [INCR, 'separateRoundTrip', 25, 15],
      [INCR, 'noExpiry', 29, 15],
    ]);
  });

  it('keeps reporting a key the file expires, unless a known refresh follows', () => {
    expect(lint(expiring)).toEqual([
      [INCR, 'staleExists', 10, 15],
      [INCR, 'separateRoundTrip', 13, 15],
    ]);
  });
});
