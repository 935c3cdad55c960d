/**
 * "Field updates of a live record whose lifetime is decided at its creation"
 * (redis-calls/record-creation.ts): when a file creates a record (a hash or member set of one key
 * family) at one place and updates its fields elsewhere, the creation carries the finding when it
 * leaves no TTL, and the later HSET / HINCRBY / HSETNX / SADD of the record add none. Near misses
 * keep theirs: another key family, a creation on one branch of the update's function, a write after
 * the application's own work, a creation in another module, a creation with a TTL (the existing
 * readings decide), and a creation that is the only write.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintKeyRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const lint = (code: string) => lintKeyRules(code);
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
const INCR = 'redis-ttl/incr-needs-expire-on-create';

// the shape of Div9851/quizapp-backend controller.ts: a per-match hash created field by field in
// one Promise.all, then updated by the game's handlers
const match = ioredis(`export async function startGame(roomId: string, p1: string) {
  await Promise.all([
    redis.hset(\`room:\${roomId}\`, 'status', 'matched'),
    redis.hset(\`room:\${roomId}\`, 'player1', p1),
  ]);
}
export async function nextQuestion(roomId: string) {
  const p1 = await redis.hget(\`room:\${roomId}\`, 'player1');
  if (!p1) return;
  await Promise.all([
    redis.hset(\`room:\${roomId}\`, 'status', 'next'),
    redis.hincrby(\`room:\${roomId}\`, 'question', 1),
  ]);
}
export async function ready(roomId: string) {
  const n = await redis.hincrby(\`room:\${roomId}\`, 'ready', 1);
  if (n >= 2) await redis.hsetnx(\`room:\${roomId}\`, 'started', '1');
}
`);

// a whole-record creation (HSET of an object) found after an update in source order; a member set
const whole = ioredis(`export async function touch(id: string) {
  await redis.hincrby(\`user:\${id}\`, 'visits', 1);
}
export async function register(id: string, name: string) {
  await redis.hset(\`user:\${id}\`, { name, visits: 0 });
}
export async function join(id: string, room: string) {
  await redis.sadd(\`members:\${room}\`, id);
}
export async function create(room: string, owner: string) {
  await redis.sadd(\`members:\${room}\`, owner);
}
`);

// near misses: another family; a creation on one branch in the update's own function; a write
// after the application's own work; a creation with a TTL in another function (updatesTtlRecord's
// reading, recommended: not reported) beside a family never expired written only once
const near = ioredis(`export async function open(id: string, flag: boolean, job: () => Promise<void>) {
  await redis.hset(\`a:\${id}\`, 'x', 1);
  await redis.hset(\`b:\${id}\`, 'x', 1);
  if (flag) await redis.hset(\`c:\${id}\`, 'x', 1);
  await redis.hset(\`c:\${id}\`, 'y', 2);
  await redis.hset(\`d:\${id}\`, 'status', 'active');
  await job();
  await redis.hset(\`d:\${id}\`, 'status', 'done');
}
export async function only(id: string) {
  await redis.hset(\`e:\${id}\`, 'x', 1);
}
`);

// a family the file creates with a TTL: an update that may recreate it is judged as before
// (it runs only after a separate read that saw the key: staleExists)
const withTtl = ioredis(`export async function create(id: string) {
  await redis.multi().hset(\`f:\${id}\`, 'x', 1).expire(\`f:\${id}\`, 60).exec();
}
export async function update(id: string) {
  if (!(await redis.exists(\`f:\${id}\`))) return;
  await redis.hset(\`f:\${id}\`, 'y', 2);
}
`);

// the shape of Karnav018/controlla liveStore.ts: a session hash created without TTL (reported),
// given its sliding TTL by another function, updated by the session's handlers; near misses: a
// write of the creation's function after the application's own work, a creation with a short TTL
// then an update after other work (a recreation risk), an update behind a read that saw the key
const sliding = ioredis(`export async function init(id: string, job: () => Promise<void>) {
  await redis.multi().hset(\`state:\${id}\`, { status: 'lobby', seq: '0' }).exec();
  await job();
  await redis.hset(\`state:\${id}\`, 'status', 'ready');
}
export async function touch(id: string, ms: number) {
  await redis.pexpire(\`state:\${id}\`, ms);
}
export async function setStatus(id: string, status: string) {
  await redis.hset(\`state:\${id}\`, 'status', status);
}
export async function nextSeq(id: string) {
  return redis.hincrby(\`state:\${id}\`, 'seq', 1);
}
export async function lock(id: string, job: () => Promise<void>) {
  await redis.multi().hset(\`lock:\${id}\`, { owner: id }).expire(\`lock:\${id}\`, 5).exec();
  await job();
  await redis.hset(\`lock:\${id}\`, 'done', '1');
}
export async function rename(id: string, name: string) {
  if (!(await redis.exists(\`state:\${id}\`))) return;
  await redis.hset(\`state:\${id}\`, 'name', name);
}
`);

describe('incr-needs-expire-on-create: field updates of a live record are its creation\'s finding', () => {
  it('reports the creation only, not each later field update', () => {
    // (the snippet helper adds two lines of set-up before the code)
    expect(lint(match)).toEqual([[INCR, 'noExpiry', 5, 11]]);
    // the whole-record HSET, not the earlier HINCRBY; of two single SADDs, the first in the file
    expect(lint(whole)).toEqual([
      [INCR, 'noExpiry', 7, 15],
      [INCR, 'noExpiry', 10, 15],
    ]);
  });

  it('keeps reporting other families, a creation on one branch, a write after other work, the only write', () => {
    expect(lint(near)).toEqual([
      [INCR, 'noExpiry', 4, 15],
      [INCR, 'noExpiry', 5, 15],
      [INCR, 'noExpiry', 6, 25],
      [INCR, 'noExpiry', 7, 15],
      [INCR, 'noExpiry', 8, 15],
      [INCR, 'noExpiry', 10, 15],
      [INCR, 'noExpiry', 13, 15],
    ]);
  });

  it('drops the updates of a family another function of the file expires, when its creation is reported', () => {
    // the creation (line 4), the write after job() (6), the short-TTL lock's update after job() (20),
    // the update behind an EXISTS of a key the file expires (24: staleExists); not setStatus's and
    // nextSeq's updates (12, 15)
    expect(lint(sliding)).toEqual([
      [INCR, 'noExpiry', 4, 23],
      [INCR, 'noExpiry', 6, 15],
      [INCR, 'noExpiry', 20, 15],
      [INCR, 'staleExists', 24, 15],
    ]);
  });

  it('keeps the updates of a family whose creation is reported for its order, not for leaving no TTL', () => {
    // the creation's EXPIRE goes out before the HSET that creates the room (expiryBeforeCreate): once
    // mended, the record has its TTL and the update's own reading decides; it is not dropped for it
    const expiredFirst = ioredis(`export async function init(id: string) {
  await redis.expire(\`room:\${id}\`, 60);
  await redis.hset(\`room:\${id}\`, { status: 'open', seq: '0' });
}
export async function setStatus(id: string, status: string) {
  await redis.hset(\`room:\${id}\`, 'status', status);
}
`);
    expect(lint(expiredFirst)).toEqual([
      [INCR, 'expiryBeforeCreate', 5, 15],
      [INCR, 'noExpiry', 8, 15],
    ]);
  });

  it('leaves a family the file gives a TTL to the existing readings', () => {
    expect(lint(withTtl)).toEqual([[INCR, 'staleExists', 8, 15]]);
  });

  it('drops the updates of a family whose creation is in a module that then calls this file\'s creation', () => {
    const H = "import Redis from 'ioredis';\nconst redis = new Redis();\n";
    const game = `${H}export async function start(socketId: string) {\n  await redis.hset(\`socket:\${socketId}\`, 'score', '0');\n  await redis.hset(\`room:\${socketId}\`, 'status', 'on');\n}\nexport async function score(socketId: string) {\n  await redis.hincrby(\`socket:\${socketId}\`, 'score', 10);\n}\n`;
    const rules = { 'incr-needs-expire-on-create': undefined };
    // the shape of Div9851/quizapp-backend pool.ts: join creates socket:<id> (reported there), then
    // calls the game module's start, whose HSET of the family updates the record join created
    const files = {
      'src/pool.ts': `${H}import { start } from './game';\nexport async function join(socketId: string, userId: string) {\n  await redis.hset(\`socket:\${socketId}\`, 'user', userId);\n  await start(socketId);\n}\n`,
      'src/game.ts': game,
    };
    // game.ts: start's and score's writes of socket:* are updates; room:* (another family) stays
    expect(lintApplication(roots, files, 'src/game.ts', rules, [])).toEqual([['incr-needs-expire-on-create', 'noExpiry', 5, 15]]);
    expect(lintApplication(roots, files, 'src/pool.ts', rules, [])).toEqual([['incr-needs-expire-on-create', 'noExpiry', 5, 15]]);
    // an aliased import counts the same
    const aliased = { ...files, 'src/pool.ts': files['src/pool.ts'].replace('{ start }', '{ start as begin }').replace('await start(', 'await begin(') };
    expect(lintApplication(roots, aliased, 'src/game.ts', rules, [])).toEqual([['incr-needs-expire-on-create', 'noExpiry', 5, 15]]);
  });

  it('keeps reporting a family whose other module calls this file before its creation, never calls it, calls it in a callback or calls another module\'s function', () => {
    const H = "import Redis from 'ioredis';\nconst redis = new Redis();\n";
    const game = `${H}export async function start(socketId: string) {\n  await redis.hset(\`socket:\${socketId}\`, 'score', '0');\n}\nexport async function score(socketId: string) {\n  await redis.hincrby(\`socket:\${socketId}\`, 'score', 10);\n}\n`;
    const rules = { 'incr-needs-expire-on-create': undefined };
    const pool = (body: string) => `${H}import { start } from './game';\nexport async function join(socketId: string, userId: string) {\n${body}}\n`;
    const create = "  await redis.hset(`socket:${socketId}`, 'user', userId);\n";
    for (const body of [
      // the file's creation runs first: it creates the record
      `  await start(socketId);\n${create}`,
      // no call of the file: two modules each creating the family
      create,
      // a call in a callback, not on the creation's path
      `${create}  setTimeout(() => start(socketId), 10);\n`,
    ]) {
      const files = { 'src/pool.ts': pool(body), 'src/game.ts': game };
      expect(lintApplication(roots, files, 'src/game.ts', rules, [])).toEqual([['incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
    }
    // another module of the same name, not the linted file
    const other = {
      'src/pool.ts': `${H}import { start } from './other';\nexport async function join(socketId: string, userId: string) {\n${create}  await start(socketId);\n}\n`,
      'src/other.ts': 'export async function start(id: string) { return id; }\n',
      'src/game.ts': game,
    };
    expect(lintApplication(roots, other, 'src/game.ts', rules, [])).toEqual([['incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
  });
});

describe('incr-needs-expire-on-create: a record created with its TTL by another module\'s route handler', () => {
  it('leaves the updates of another module\'s handler alone, and keeps them when that handler sets no TTL', () => {
    const H = "import Redis from 'ioredis';\nimport { router } from './router';\nexport const redis = new Redis();\n";
    const rules = { 'incr-needs-expire-on-create': undefined };
    // the shape of ounstoppableo/chat-platform-nodets: userApi.ts's login handler creates
    // groupsForUser:<user> and expires it; chatApi.ts's handlers add fields to it
    const login = (expire: string) =>
      `${H}router.post('/login', async (req: any) => {\n  await redis.hset(\`groups:\${req.body.user}\`, 'g1', '{}');\n${expire}});\n`;
    const chat = `import { redis } from './user';\nimport { router } from './router';\nrouter.post('/show', async (req: any) => {\n  await redis.hset(\`groups:\${req.body.user}\`, req.body.room, '{}');\n});\n`;
    const files = (expire: string) => ({ 'src/router.ts': 'export const router: any = {};\n', 'src/user.ts': login(expire), 'src/chat.ts': chat });
    expect(lintApplication(roots, files("  await redis.expire(`groups:${req.body.user}`, 604800);\n"), 'src/chat.ts', rules, [])).toEqual([]);
    expect(lintApplication(roots, files(''), 'src/chat.ts', rules, [])).toEqual([['incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
  });
});

// the shape of sarisssa/test-api match-repository.ts: a match hash created without TTL, and a
// read-through getter that, on a cache miss, reads the database and writes the whole hash back:
// after an eviction or an invalidating DEL the key is absent there, and that HSET creates it
const readThrough = ioredis(`export async function create(id: string) {
  await redis.hset(\`match:\${id}\`, { status: 'open', players: '[]' });
}
export async function get(id: string, db: { find(id: string): Promise<{ status: string; players: string }> }) {
  const cached = await redis.hgetall(\`match:\${id}\`);
  if (cached && cached.status && cached.players) return cached;
  const row = await db.find(id);
  await redis.hset(\`match:\${id}\`, { status: row.status, players: row.players });
  return row;
}
export async function getStatus(id: string, db: { status(id: string): Promise<string> }) {
  const status = await redis.hget(\`match:\${id}\`, 'status');
  if (status !== null) return status;
  const fresh = await db.status(id);
  await redis.hset(\`match:\${id}\`, 'status', fresh);
  return fresh;
}
export async function warm(id: string) {
  const all = await redis.hgetall(\`match:\${id}\`);
  if (Object.keys(all).length === 0) await redis.hset(\`match:\${id}\`, { status: 'open', players: '[]' });
}
export async function ensure(id: string) {
  if (!(await redis.exists(\`match:\${id}\`))) {
    await redis.hset(\`match:\${id}\`, 'status', 'open');
  }
}
`);

// near misses that stay updates of the reported creation: a field update behind a read that found
// the record (the found branch, a guard that returns on a miss), an update with no read, a guard
// that tests a field's value (`if (status === 'open') return`: a miss passes it only by the way),
// the miss of another key
const foundUpdates = ioredis(`export async function create(id: string) {
  await redis.hset(\`match:\${id}\`, { status: 'open', players: '[]' });
}
export async function view(id: string) {
  const cached = await redis.hgetall(\`match:\${id}\`);
  if (cached.status) await redis.hincrby(\`match:\${id}\`, 'views', 1);
}
export async function close(id: string) {
  const status = await redis.hget(\`match:\${id}\`, 'status');
  if (!status) return;
  await redis.hset(\`match:\${id}\`, 'status', 'closed');
}
export async function touch(id: string) {
  await redis.hset(\`match:\${id}\`, 'seen', Date.now());
}
export async function done(id: string) {
  const status = await redis.hget(\`match:\${id}\`, 'status');
  if (status === 'open') return;
  await redis.hset(\`match:\${id}\`, 'status', 'done');
}
export async function fromOther(id: string) {
  const other = await redis.get(\`other:\${id}\`);
  if (other === null) await redis.hset(\`match:\${id}\`, 'status', 'open');
}
`);

describe('incr-needs-expire-on-create: a re-creation on a cache miss is not an update of the live record', () => {
  it('reports a write on the branch where a read of its key found nothing, beside the creation', () => {
    // the creation (4), the read-through HSET after `if (cached && cached.status ...) return` (10),
    // after `if (status !== null) return` (17), under `Object.keys(all).length === 0` (22), under
    // `!(await redis.exists(k))` (26)
    expect(lint(readThrough)).toEqual([
      [INCR, 'noExpiry', 4, 15],
      [INCR, 'noExpiry', 10, 15],
      [INCR, 'noExpiry', 17, 15],
      [INCR, 'noExpiry', 22, 50],
      [INCR, 'noExpiry', 26, 17],
    ]);
  });

  it('keeps dropping updates behind a read that found the record, with no read, or after another key\'s miss', () => {
    expect(lint(foundUpdates)).toEqual([[INCR, 'noExpiry', 4, 15]]);
  });
});
