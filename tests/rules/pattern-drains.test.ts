/**
 * Counters and buffers a periodic job drains through a key pattern (redis-calls/pattern-drains.ts):
 * an INCR / HINCRBY / RPUSH of a key whose shape another function of the file (or a related
 * module) lists by a constant KEYS or SCAN pattern that matches the written shape, and, on every
 * turn of its loop, consumes and deletes whole each listed key (GETDEL, or a read then DEL /
 * UNLINK): the key lives only until the next drain (a view counter flushed to the database every
 * minute). `recommended` (`allowDeletedKeys`) leaves it out, as it does a DEL of the key's shape
 * named directly; `strict` reports it as deleted elsewhere. Near misses stay reported: a pattern of
 * another shape, a drain that pops one element (LPOP) or reads without deleting, a DEL of a key
 * derived from the listed one, a pattern without a static part or with a run-time part (one
 * room's teardown), a wipe without reading (`del(...keys)`), a deletion on some turns only, a
 * drain nothing calls (a private method or unexported function named nowhere else: dead code), a
 * shape the file also expires.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintWriteRules } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

const lint = lintWriteRules;
const INCR = 'incr-needs-expire-on-create';

// a view counter buffered in Redis, synced every minute by KEYS + GETDEL (rideway-api's forum threads)
const d1 = ioredis(`const VIEWS = 'forum:thread:views:';
export class Threads {
  constructor() {
    setInterval(() => void this.syncViewCounts(), 60_000);
  }
  async incrementViews(id: string) {
    await redis.incr(\`\${VIEWS}\${id}\`);
  }
  private async syncViewCounts() {
    const keys = await redis.keys(\`\${VIEWS}*\`);
    for (const key of keys) {
      const views = await redis.getdel(key);
      if (views) await save(key.replace(VIEWS, ''), Number(views));
    }
  }
}
declare function save(id: string, n: number): Promise<void>;
`);
// SCAN ... MATCH with its cursor, an RPUSH buffer read (LRANGE) then UNLINKed through forEach
const d2 = ioredis(`export async function record(id: string, event: string) {
  await redis.rpush(\`events:\${id}\`, event);
}
export async function flushEvents() {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', 'events:*', 'COUNT', 100);
    cursor = next;
    keys.forEach(async (key) => {
      await save(await redis.lrange(key, 0, -1));
      await redis.unlink(key);
    });
  } while (cursor !== '0');
}
declare function save(events: string[]): Promise<void>;
`);
// node-redis: SCAN's { cursor, keys } reply with { MATCH }; KEYS iterated in place, GETDEL in a map
const d3 = nodeRedis(`export async function bump(id: string) {
  await client.incr(\`clicks:\${id}\`);
  await client.rPush(\`log:\${id}\`, 'x');
}
export async function drainClicks() {
  const { keys } = await client.scan(0, { MATCH: 'clicks:*' });
  await Promise.all(keys.map((key) => client.getDel(key)));
}
export async function drainLogs() {
  for (const key of await client.keys('log:*')) {
    console.log(await client.lRange(key, 0, -1));
    await client.del(key);
  }
}
`);
// a public method of a class whose instance the module hands out: another module may call it
const d4 = ioredis(`class Jobs {
  async flush() {
    for (const key of await redis.keys('seen:*')) {
      console.log(await redis.smembers(key));
      await redis.unlink(key);
    }
  }
}
export const jobs = new Jobs();
export async function seen(id: string) {
  await redis.sadd(\`seen:\${id}\`, 'x');
}
`);
// near misses: a pattern of another shape; LPOP of one element; a read without deletion; a DEL of
// a key derived from the listed one; a pattern without a static part
const n1 = ioredis(`export async function hit(id: string) {
  await redis.incr(\`hits:\${id}\`);
  await redis.rpush(\`buf:\${id}\`, 'x');
  await redis.incr(\`reads:\${id}\`);
  await redis.incr(\`meta:\${id}\`);
}
export async function other() {
  for (const key of await redis.keys('hits:*:daily')) await redis.getdel(key);
}
export async function popOne() {
  const keys = await redis.keys('buf:*');
  for (const key of keys) await redis.lpop(key);
}
export async function readOnly() {
  const keys = await redis.keys('reads:*');
  for (const key of keys) await redis.get(key);
}
export async function derived() {
  const keys = await redis.keys('meta:*');
  for (const key of keys) await redis.del(\`\${key}:lock\`);
}
`);
const n2 = ioredis(`export async function hit(prefix: string, id: string) {
  await redis.incr(\`\${prefix}\${id}\`);
}
export async function flushAll() {
  const keys = await redis.keys('*');
  for (const key of keys) await redis.getdel(key);
}
`);
// near misses: a wipe of the listed keys without reading them (a reset), a deletion on some turns
// only (a sweep), a pattern with a run-time part (one room's teardown)
const n5 = ioredis(`export async function hit(id: string, room: string) {
  await redis.incr(\`stats:\${id}\`);
  await redis.hset(\`room:\${id}\`, 'player1', room);
  await redis.incr(\`bets:\${room}:\${id}\`);
}
export async function reset() {
  const keys = await redis.keys('stats:*');
  if (keys.length > 0) await redis.del(...keys);
  for (const key of keys) await redis.del(key);
}
export async function leave(socket: string) {
  for (const room of await redis.keys('room:*')) {
    if ((await redis.hget(room, 'player1')) === socket) await redis.del(room);
  }
}
export async function closeRoom(room: string) {
  for (const key of await redis.keys(\`bets:\${room}:*\`)) await redis.getdel(key);
}
`);
// a drain in dead code: a private method and an unexported function that nothing names (a
// protected one, `#name` alike)
const n3 = ioredis(`export class Views {
  async incrementViews(id: string) {
    await redis.incr(\`views:\${id}\`);
  }
  private async syncViewCounts() {
    const keys = await redis.keys('views:*');
    for (const key of keys) await redis.getdel(key);
  }
}
export async function like(id: string) {
  await redis.incr(\`likes:\${id}\`);
}
async function flushLikes() {
  for (const key of await redis.keys('likes:*')) await redis.del(key);
}
`);
// a shape the file gives a TTL: the drain is an invalidation of an expiring key, which is reported for its own write
const n4 = ioredis(`export async function hit(id: string) {
  await redis.incr(\`hits:\${id}\`);
}
export async function touch(id: string) {
  await redis.set(\`hits:\${id}\`, '0', 'EX', 60);
}
export async function flush() {
  const keys = await redis.keys('hits:*');
  for (const key of keys) await redis.getdel(key);
}
`);

describe('counters and buffers drained through a key pattern', () => {
  it('leaves them alone by default (allowDeletedKeys)', () => {
    expect(lint(d1)).toEqual([]);
    expect(lint(d2)).toEqual([]);
    expect(lint(d3)).toEqual([]);
    expect(lint(d4)).toEqual([]);
  });

  it('reports them without allowDeletedKeys, naming the drain', () => {
    expect(lint(d1, { allowDeletedKeys: false })).toEqual([[INCR, 'deletedElsewhere', 9, 17, '14']]);
    expect(lint(d2, { allowDeletedKeys: false })).toEqual([[INCR, 'deletedElsewhere', 4, 15, '13']]);
  });

  it('keeps reporting another shape, a pop of one element, a read, a derived key, a pattern without static part', () => {
    expect(lint(n1)).toEqual([
      [INCR, 'noExpiry', 4, 15, undefined],
      [INCR, 'noExpiry', 5, 15, undefined],
      [INCR, 'noExpiry', 6, 15, undefined],
      [INCR, 'noExpiry', 7, 15, undefined],
    ]);
    expect(lint(n2)).toEqual([[INCR, 'noExpiry', 4, 15, undefined]]);
  });

  it('keeps reporting a wipe without reading, a deletion on some turns only, one entity\'s pattern', () => {
    expect(lint(n5)).toEqual([
      [INCR, 'noExpiry', 4, 15, undefined],
      [INCR, 'noExpiry', 5, 15, undefined],
      [INCR, 'noExpiry', 6, 15, undefined],
    ]);
  });

  it('keeps reporting a drain nothing calls (dead code)', () => {
    expect(lint(n3)).toEqual([
      [INCR, 'noExpiry', 5, 17, undefined],
      [INCR, 'noExpiry', 13, 15, undefined],
    ]);
  });

  it('keeps reporting a shape the file also expires', () => {
    expect(lint(n4)).toEqual([[INCR, 'noExpiry', 4, 15, undefined]]);
  });
});

// another module of the application: a job draining by pattern, a GETDEL naming the shape
const files = {
  'src/redis.ts': `import Redis from 'ioredis';\nexport const redis = new Redis();\n`,
  'src/keys.ts': `export const VIEWS = 'views:';\nexport const LIKES = 'likes:';\nexport const SHARES = 'shares:';\n`,
  'src/counters.ts': `import { redis } from './redis';
import { LIKES, SHARES, VIEWS } from './keys';
export async function view(id: string) {
  await redis.incr(\`\${VIEWS}\${id}\`);
}
export async function like(id: string) {
  await redis.incr(\`\${LIKES}\${id}\`);
}
export async function share(id: string) {
  await redis.incr(\`\${SHARES}\${id}\`);
}
`,
  'src/jobs/sync.ts': `import { redis } from '../redis';
import { LIKES, SHARES, VIEWS } from '../keys';
export async function syncViews() {
  const keys = await redis.keys(\`\${VIEWS}*\`);
  for (const key of keys) await redis.getdel(key);
}
export async function takeLikes(id: string) {
  return redis.getdel(\`\${LIKES}\${id}\`);
}
async function syncShares() {
  for (const key of await redis.keys(\`\${SHARES}*\`)) await redis.getdel(key);
}
`,
};

describe('a drain in another module of the application', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it('leaves out a counter another module drains by pattern or by GETDEL of its shape, not one drained by dead code', () => {
    expect(lintApplication(roots, files, 'src/counters.ts', { [INCR]: undefined }, [])).toEqual([[INCR, 'noExpiry', 10, 15]]);
  });

  it('strict reports them, naming the other module', () => {
    expect(lintApplication(roots, files, 'src/counters.ts', { [INCR]: { allowDeletedKeys: false } }, [])).toEqual([
      [INCR, 'deletedElsewhere', 4, 15],
      [INCR, 'deletedElsewhere', 7, 15],
      [INCR, 'noExpiry', 10, 15],
    ]);
  });
});
