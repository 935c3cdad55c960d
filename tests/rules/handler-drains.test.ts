/**
 * A buffer one handler fills and drains (redis-calls/deleted-after.ts): the handler RPUSHes into
 * a list, later reads it and DELs it, every path from the write reaching the DEL. Three shapes of
 * such handlers count (kuckoo-server's chat handler has all three): the writes sent by an array's
 * `forEach` / `map` callback before its first `await` (they go out before the iteration returns),
 * an early exit taken only when an EXISTS of that key, sent after the write, said it is missing
 * (nothing is left to delete), and a `try` whose `catch` always rethrows (an exception is a crash,
 * which `strict` reports). Near misses stay reported: a callback that awaits before its write (the
 * write may go out after the DEL), an exit on an EXISTS sent before the write or of another key, a
 * `catch` that swallows the error, a callback of another method (`then`).
 */
import { describe, expect, it } from 'vitest';
import { lintWriteRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const lint = lintWriteRules;
const INCR = 'incr-needs-expire-on-create';

// moves the seen marks to the chat's list in a forEach, then reads and DELs that list (kuckoo-server)
const drained = ioredis(`export class Chats {
  async handle(tempId: string, marks: string[]) {
    let chatId = tempId;
    try {
      chatId = await create(tempId);
      marks.forEach(async (x) => await redis.rpush(\`seen:\${chatId}\`, x));
      const exists = await redis.exists(\`seen:\${chatId}\`);
      if (!exists) return;
      const seen = await redis.lrange(\`seen:\${chatId}\`, 0, -1);
      await store(seen);
      await redis.del(\`seen:\${chatId}\`);
    } catch (err) {
      if (err instanceof TypeError) throw err;
      throw new Error(String(err));
    }
  }
}
declare function create(id: string): Promise<string>;
declare function store(v: string[]): Promise<void>;
`);

// near misses: the callback awaits before its write; the EXISTS comes before the write; a catch that swallows
const awaitsFirst = ioredis(`export async function handle(chatId: string, marks: string[]) {
  marks.forEach(async (x) => {
    await check(x);
    await redis.rpush(\`seen:\${chatId}\`, x);
  });
  await redis.del(\`seen:\${chatId}\`);
}
declare function check(x: string): Promise<void>;
`);
const existsBefore = ioredis(`export async function handle(chatId: string, mark: string) {
  const exists = await redis.exists(\`seen:\${chatId}\`);
  await redis.rpush(\`seen:\${chatId}\`, mark);
  if (!exists) return;
  await redis.del(\`seen:\${chatId}\`);
}
`);
const otherKey = ioredis(`export async function handle(chatId: string, mark: string) {
  await redis.rpush(\`seen:\${chatId}\`, mark);
  const exists = await redis.exists(\`chat:\${chatId}\`);
  if (!exists) return;
  await redis.del(\`seen:\${chatId}\`);
}
`);
const swallowed = ioredis(`export async function handle(chatId: string, mark: string) {
  try {
    await redis.rpush(\`seen:\${chatId}\`, mark);
    await store(mark);
    await redis.del(\`seen:\${chatId}\`);
  } catch (err) {
    console.error(err);
    throw err;
    return;
  }
}
declare function store(v: string): Promise<void>;
`);
const then = ioredis(`export async function handle(chatId: string, mark: Promise<string>) {
  mark.then(async (x) => await redis.rpush(\`seen:\${chatId}\`, x));
  await redis.del(\`seen:\${chatId}\`);
}
`);

describe('a buffer filled and drained by the same handler', () => {
  it('is not reported by recommended', () => {
    expect(lint(drained)).toEqual([]);
  });

  it('is reported by strict as deleted after the write', () => {
    expect(lint(drained, { allowDeletedKeys: false })).toEqual([[INCR, 'deletedElsewhere', 8, 46, '13']]);
  });

  it('stays reported when the callback awaits first, the EXISTS precedes the write or names another key, the catch swallows, or the callback is not an iteration', () => {
    expect(lint(awaitsFirst)).toEqual([[INCR, 'noExpiry', 6, 17, undefined]]);
    expect(lint(existsBefore)).toEqual([[INCR, 'noExpiry', 5, 15, undefined]]);
    expect(lint(otherKey)).toEqual([[INCR, 'noExpiry', 4, 15, undefined]]);
    expect(lint(swallowed)).toEqual([[INCR, 'noExpiry', 5, 17, undefined]]);
    expect(lint(then)).toEqual([[INCR, 'noExpiry', 4, 38, undefined]]);
  });
});
