/**
 * Breaker round 26: odd but realistic code against the round's new readings (a streak counter its
 * function resets, a decrement deleted on its creating reply, a helper's read, a move-drain, a
 * parameter's destructured property, re-exported client packages, declared batches). Each case is
 * a leak a reading hid, or a finding nobody would fix, and the result it must give.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintSnippet } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const FIXED = 'redis-ttl/fixed-window-expire';
const lintFixed = (code: string) => lintSnippet(code, { [FIXED]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);

describe('fixed-window-expire: a streak counter its function resets', () => {
  it('does not take a DEL of a key spelled alike through a shadowing loop variable for the reset', () => {
    // `for (const id of users)` deletes other users' counters; this user's window re-arms on every hit
    const code = ioredis(`export async function limit(id: string, ok: boolean, users: string[]) {
  if (ok) {
    for (const id of users) await redis.del(\`rl:\${id}\`);
    return true;
  }
  const n = await redis.incr(\`rl:\${id}\`);
  await redis.expire(\`rl:\${id}\`, 60);
  return n <= 10;
}`);
    expect(lintFixed(code)).toEqual([[FIXED, 'rearmedOnEveryIncrement', 9, 15]]);
  });
});

const INCR = 'redis-ttl/incr-needs-expire-on-create';
const lintIncr = (code: string) => lintSnippet(code, { [INCR]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);

describe('incr-needs-expire-on-create: a decrement deleted on its creating reply', () => {
  it('does not take a DEL of a shadowing `key` declared in the `if` for the deletion of the decremented key', () => {
    // the DECR creates `sem:<id>` at -1 without TTL; the `if` deletes the archive key, not it
    const code = ioredis(`export async function release(id: string) {
  const key = \`sem:\${id}\`;
  const n = await redis.decr(key);
  if (n <= 0) {
    const key = \`sem:archive:\${id}\`;
    await redis.del(key);
  }
}`);
    expect(lintIncr(code)).toEqual([[INCR, 'noExpiry', 5, 25]]);
  });
});

describe('a client package binding a module of the code passes on', () => {
  it('follows an import the module exports again without `from` (import { createClient } from redis; export { createClient })', () => {
    const files = {
      'src/lib/kv.ts': `import { createClient } from 'redis';\nexport { createClient };\n`,
      'src/app.ts': `import { createClient } from './lib/kv';\nconst store = createClient();\nexport async function hit(id: string) {\n  await store.incr(\`hits:\${id}\`);\n}\n`,
    };
    expect(lintApplication(roots, files, 'src/app.ts', { [INCR.replace('redis-ttl/', '')]: undefined }, [])).toEqual([['incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
    const renamed = { ...files, 'src/lib/kv.ts': `import { createClient as make } from 'redis';\nexport { make as createClient };\n` };
    expect(lintApplication(roots, renamed, 'src/app.ts', { [INCR.replace('redis-ttl/', '')]: undefined }, [])).toEqual([['incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
  });
});

describe('incr-needs-expire-on-create: a buffer one handler fills and drains', () => {
  it('does not lift a forEach callback write whose key reads the callback\'s own parameter (each chat\'s list, one DEL)', () => {
    // the callback's `chatId` shadows the handler's: it fills `seen:<each chat>`, the DEL drains one
    const code = ioredis(`export async function handle(chatId: string, marks: string[], chats: string[]) {
  chats.forEach(async (chatId) => await redis.rpush(\`seen:\${chatId}\`, marks[0]));
  await redis.del(\`seen:\${chatId}\`);
}`);
    expect(lintIncr(code)).toEqual([[INCR, 'noExpiry', 4, 47]]);
  });
});

describe('set-requires-ttl-or-keepttl: a key drained by a move', () => {
  it('does not take a DEL spelled like the destination through a shadowing loop variable for its deletion', () => {
    // `work:<id>` lives on without TTL; the loop deletes the stale ids' work keys
    const SET = 'redis-ttl/set-requires-ttl-or-keepttl';
    const code = ioredis(`export async function mark(id: string) {
  await redis.set(\`pending:\${id}\`, '1');
}
export async function drain(id: string, stale: string[]) {
  await redis.rename(\`pending:\${id}\`, \`work:\${id}\`);
  console.log(await redis.get(\`work:\${id}\`));
  for (const id of stale) await redis.del(\`work:\${id}\`);
}`);
    expect(lintSnippet(code, { [SET]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column])).toEqual([[SET, 'setWithoutTtl', 4, 15]]);
  });
});

describe('incr-needs-expire-on-create: a read in a helper the function awaits', () => {
  it('does not take `this.getActive(id)` for a read when a subclass of the file overrides getActive', () => {
    // on a Memory instance, complete() runs the override, which reads nothing: HSET creates the hash
    const code = ioredis(`export class Base {
  async getActive(id: string): Promise<string | null> {
    const raw = await redis.hget(\`action:\${id}\`, 'status');
    if (raw === null) return null;
    return raw;
  }
  async complete(id: string) {
    if (!(await this.getActive(id))) return false;
    await redis.hset(\`action:\${id}\`, 'status', 'done');
    return true;
  }
}
export class Memory extends Base {
  private readonly known = new Set<string>();
  override async getActive(id: string): Promise<string | null> {
    return this.known.has(id) ? 'active' : null;
  }
}`);
    expect(lintIncr(code)).toEqual([[INCR, 'noExpiry', 11, 17]]);
  });
});

describe('expire-needs-positive-ttl: a property destructured from a parameter', () => {
  it('reads the default of the object it is destructured from (const { cache = { ttlMs: 500 } } = opts; const { ttlMs } = cache)', () => {
    // a caller that passes no cache gets ttlMs 500: EX 0, an error reply, and nothing written
    const POSITIVE = 'redis-ttl/expire-needs-positive-ttl';
    const code = ioredis(`export async function put(key: string, v: string, opts: { cache?: { ttlMs?: number } }) {
  const { cache = { ttlMs: 500 } } = opts;
  const { ttlMs } = cache;
  await redis.set(key, v, 'EX', Math.floor(ttlMs / 1000));
}`);
    expect(lintSnippet(code, { [POSITIVE]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column])).toEqual([[POSITIVE, 'computed', 6, 33]]);
  });
});
