/**
 * "A write of a key the code has just seen exist", through a helper (redis-calls/created-before.ts,
 * "A read that saw the key"; redis-calls/helper-read.ts): the read that proves the key there may sit
 * in a same-file function or method the write's function awaits (`const a = await
 * this.getActive(id); if (!a) return; await redis.hset(key(id), ...)`), when that helper reads the
 * same key (its parameters standing for the call's arguments) and returns one known value whenever
 * the key is missing, a value the caller's test stops on. HGETALL's missing reply (`{}`, or `null`
 * with @upstash/redis) counts when the test stops on both (`!data || Object.keys(data).length ===
 * 0`). Near misses keep their findings: the helper reads another key (another shape, or another
 * argument), the caller does not test the helper's result, the write runs on the branch where the
 * helper found nothing, the helper returns something other than its known value on the missing
 * path, the helper's read and the write are in unrelated functions, a helper's HGETALL tested only
 * by `!data` (an empty `{}` passes), a helper that deletes the key after reading it.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

const lint = (code: string) => lintKeyRules(code);
const INCR = 'redis-ttl/incr-needs-expire-on-create';

// node-redis: a class whose start creates the hash with its TTL (two round trips: reported), and
// whose complete / interrupt update fields of the hash a method has just read, then shorten its TTL
const actions = nodeRedis(`export class Actions {
  private readonly prefix = 'action:';
  async start(chatId: string, data: Record<string, string>) {
    const key = \`\${this.prefix}\${chatId}\`;
    await client.hSet(key, data);
    await client.expire(key, 3600);
  }
  async getActive(chatId: string) {
    try {
      const key = \`\${this.prefix}\${chatId}\`;
      const data = await client.hGetAll(key);
      if (!data || Object.keys(data).length === 0) {
        return null;
      }
      return { status: data.status };
    } catch {
      return null;
    }
  }
  async complete(chatId: string, result: string) {
    const action = await this.getActive(chatId);
    if (!action) return false;
    const key = \`\${this.prefix}\${chatId}\`;
    await client.hSet(key, 'status', 'completed');
    await client.hSet(key, 'result', result);
    await client.expire(key, 60);
    return true;
  }
}
`);

// ioredis: a module function helper, HGET, and a counter field the caller increments
const moduleHelper = ioredis(`const TTL = 600;
const roomKey = (id: string) => \`room:\${id}\`;
export async function open(id: string) {
  await redis.multi().hset(roomKey(id), 'seats', 4).expire(roomKey(id), TTL).exec();
}
async function seats(id: string) {
  const raw = await redis.hget(roomKey(id), 'seats');
  if (raw === null) return undefined;
  return Number(raw);
}
export async function take(id: string) {
  const left = await seats(id);
  if (left === undefined) throw new Error('no room');
  await redis.hincrby(roomKey(id), 'seats', -1);
  await redis.expire(roomKey(id), TTL);
}
`);

// a helper of another key; another argument; a result not tested; the write on the missing branch
const nearMisses = ioredis(`const TTL = 600;
export async function open(id: string, other: string) {
  await redis.multi().hset(\`room:\${id}\`, 'a', 1).expire(\`room:\${id}\`, TTL).exec();
  await redis.multi().hset(\`seat:\${id}\`, 'a', 1).expire(\`seat:\${id}\`, TTL).exec();
}
async function room(id: string) {
  const raw = await redis.hget(\`room:\${id}\`, 'a');
  if (raw === null) return null;
  return raw;
}
export async function otherShape(id: string) {
  const r = await room(id);
  if (!r) return;
  await redis.hincrby(\`seat:\${id}\`, 'a', 1);
  await redis.expire(\`seat:\${id}\`, TTL);
}
export async function otherArgument(id: string, other: string) {
  const r = await room(other);
  if (!r) return;
  await redis.hincrby(\`room:\${id}\`, 'a', 1);
  await redis.expire(\`room:\${id}\`, TTL);
}
export async function untested(id: string, log: (m: unknown) => void) {
  const r = await room(id);
  log(r);
  await redis.hincrby(\`room:\${id}\`, 'a', 1);
  await redis.expire(\`room:\${id}\`, TTL);
}
export async function missingBranch(id: string) {
  const r = await room(id);
  if (r) return;
  await redis.hincrby(\`room:\${id}\`, 'a', 1);
  await redis.expire(\`room:\${id}\`, TTL);
}
`);

// the helper's missing path returns a default the caller cannot tell from a found value; an
// HGETALL tested only by \`!data\` (node-redis's {} passes it); a helper that waits on other work
const unknownHelpers = nodeRedis(`const TTL = 600;
export async function open(id: string) {
  await client.multi().hSet(\`g:\${id}\`, 'a', '1').expire(\`g:\${id}\`, TTL).exec();
}
async function withDefault(id: string) {
  const raw = await client.hGet(\`g:\${id}\`, 'a');
  if (raw === null) return '0';
  return raw;
}
async function all(id: string) {
  const data = await client.hGetAll(\`g:\${id}\`);
  if (!data) return null;
  return data;
}
async function slow(id: string, job: () => Promise<void>) {
  const raw = await client.hGet(\`g:\${id}\`, 'a');
  if (raw === null) return null;
  await job();
  return raw;
}
export async function a(id: string) {
  const v = await withDefault(id);
  if (!v) return;
  await client.hIncrBy(\`g:\${id}\`, 'a', 1);
  await client.expire(\`g:\${id}\`, TTL);
}
export async function b(id: string) {
  const v = await all(id);
  if (!v) return;
  await client.hIncrBy(\`g:\${id}\`, 'a', 1);
  await client.expire(\`g:\${id}\`, TTL);
}
export async function c(id: string, job: () => Promise<void>) {
  const v = await slow(id, job);
  if (!v) return;
  await client.hIncrBy(\`g:\${id}\`, 'a', 1);
  await client.expire(\`g:\${id}\`, TTL);
}
`);

// a helper that deletes the key after reading it: the caller's write recreates it
const clearing = ioredis(`const TTL = 600;
export async function open(id: string) {
  await redis.multi().hset(\`t:\${id}\`, 'a', 1).expire(\`t:\${id}\`, TTL).exec();
}
async function take(id: string) {
  const raw = await redis.hget(\`t:\${id}\`, 'a');
  await redis.del(\`t:\${id}\`);
  if (raw === null) return null;
  return raw;
}
export async function again(id: string) {
  const v = await take(id);
  if (v === null) return;
  await redis.hincrby(\`t:\${id}\`, 'a', 1);
  await redis.expire(\`t:\${id}\`, TTL);
}
`);

describe('incr-needs-expire-on-create: a write of a key a helper has just seen', () => {
  it('leaves the writes alone after the helper proved the key there', () => {
    // start's HSET then EXPIRE in two round trips stays; complete's two HSETs are field updates
    expect(lint(actions)).toEqual([[INCR, 'separateRoundTrip', 7, 18]]);
    expect(lint(moduleHelper)).toEqual([]);
  });

  it('keeps reporting a helper of another key, an untested result, the missing branch', () => {
    expect(lint(nearMisses)).toEqual([
      [INCR, 'separateRoundTrip', 16, 15],
      [INCR, 'separateRoundTrip', 22, 15],
      [INCR, 'separateRoundTrip', 28, 15],
      [INCR, 'separateRoundTrip', 34, 15],
    ]);
  });

  it('keeps reporting a helper whose missing path returns no telling value, or waits on other work, or deletes', () => {
    expect(lint(unknownHelpers)).toEqual([
      [INCR, 'separateRoundTrip', 26, 16],
      [INCR, 'separateRoundTrip', 32, 16],
      [INCR, 'separateRoundTrip', 38, 16],
    ]);
    expect(lint(clearing)).toEqual([[INCR, 'separateRoundTrip', 16, 15]]);
  });
});
