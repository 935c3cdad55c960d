/**
 * A key its own function deletes after the write on every path (redis-calls/deleted-after.ts): a
 * status written just before the handler's cleanup, a scratch key dropped at the end of its step.
 * `recommended` (`allowDeletedKeys`) leaves it alone; `strict` reports it (a crash between the two
 * leaves the key). Limits that stay reported: a deletion on one branch only, after an early
 * return, in a callback, in a cleanup function that deletes only on one branch; and a lock (SET
 * NX) released at the end of its function.
 */
import { describe, expect, it } from 'vitest';
import { lintSnippet, lintWriteRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const lint = lintWriteRules;
const INCR = 'incr-needs-expire-on-create';
const SET = 'set-requires-ttl-or-keepttl';

// the handler ends with the session cleanup, which DELs the status it has just written (desafiaa's
// abort); a direct DEL at the end; a DEL in a `finally` after an early return
const accepted = ioredis(`async function clearSession(pin: string) {
  const pipeline = redis.pipeline();
  pipeline.del(\`pin:\${pin}:status\`, \`pin:\${pin}:config\`);
  await pipeline.exec();
}
export function register(io: any) {
  io.on('abort', async (pin: string) => {
    await redis.set(\`pin:\${pin}:status\`, 'finished');
    await redis.hset(\`pin:\${pin}:config\`, 'ended', '1');
    await notify(pin);
    await clearSession(pin);
  });
}
export async function scratch(id: string, ids: string[]) {
  await redis.sadd(\`tmp:\${id}\`, ...ids);
  const common = await redis.sinter(\`tmp:\${id}\`, 'all');
  await redis.del(\`tmp:\${id}\`);
  return common;
}
export async function guarded(id: string, ok: boolean) {
  try {
    await redis.set(\`probe:\${id}\`, '1');
    if (!ok) return false;
    return true;
  } finally {
    await redis.unlink(\`probe:\${id}\`);
  }
}
declare function notify(pin: string): Promise<void>;
`);

// the limits, each alone in its file (a DEL in another function of the file is deletedElsewhere's
// reading): a DEL on one branch only; an early return between the write and the DEL; a DEL in a
// callback; a DEL in a `try` whose `catch` goes on without it; a lock released at the end of its function
const oneBranch = ioredis(`export function register(io: any) {
  io.on('next', async (pin: string, done: boolean) => {
    await redis.set(\`pin:\${pin}:status\`, 'playing');
    if (done) await redis.del(\`pin:\${pin}:status\`);
  });
}
`);
const earlyReturn = ioredis(`export function register(io: any) {
  io.on('end', async (pin: string) => {
    await redis.set(\`pin:\${pin}:status\`, 'finished');
    const id = await redis.get(\`pin:\${pin}:id\`);
    if (!id) return;
    await redis.del(\`pin:\${pin}:status\`);
  });
}
`);
const callback = ioredis(`export function register(io: any) {
  io.on('later', async (pin: string) => {
    await redis.sadd(\`pin:\${pin}:seen\`, 'x');
    setTimeout(() => redis.del(\`pin:\${pin}:seen\`), 1000);
  });
}
`);
const caught = ioredis(`export function register(io: any) {
  io.on('step', async (pin: string) => {
    try {
      await redis.set(\`pin:\${pin}:status\`, 'running');
      await work(pin);
      await redis.del(\`pin:\${pin}:status\`);
    } catch (error) {
      console.error(error);
    }
  });
}
declare function work(pin: string): Promise<void>;
`);
const lock = ioredis(`export async function scoring(id: string) {
  await redis.set(\`room:\${id}:scoring\`, '1', 'NX');
  await redis.del(\`room:\${id}:scoring\`);
}
`);

describe('a key deleted after the write on every path of its own function', () => {
  it('is not reported by recommended', () => {
    expect(lint(accepted)).toEqual([]);
  });
  it('is reported by strict, saying the deletion follows in the same function', () => {
    expect(lint(accepted, { allowDeletedKeys: false })).toEqual([
      [SET, 'deletedElsewhere', 10, 17, '5'],
      [INCR, 'deletedElsewhere', 11, 17, '5'],
      [INCR, 'deletedElsewhere', 17, 15, '19'],
      [SET, 'deletedElsewhere', 24, 17, '28'],
    ]);
    const messages = lintSnippet(accepted, { 'redis-ttl/set-requires-ttl-or-keepttl': ['error', { allowDeletedKeys: false }] });
    expect(messages.map((m) => /after the write in its own function/.test(m.message))).toEqual([true, true]);
  });
  it('stays reported on one branch, after an early return, in a callback, past a catch, and for a lock', () => {
    expect(lint(oneBranch)).toEqual([[SET, 'setWithoutTtl', 5, 17, undefined]]);
    expect(lint(earlyReturn)).toEqual([[SET, 'setWithoutTtl', 5, 17, undefined]]);
    expect(lint(callback)).toEqual([[INCR, 'noExpiry', 5, 17, undefined]]);
    expect(lint(caught)).toEqual([[SET, 'setWithoutTtl', 6, 19, undefined]]);
    expect(lint(lock)).toEqual([[SET, 'createWithoutTtl', 4, 15, undefined]]);
  });
});
