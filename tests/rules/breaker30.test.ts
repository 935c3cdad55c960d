/**
 * Breaker round 30: odd but realistic code against the round's new readings (records found before
 * their update, drained queues, code nothing calls, key lists, clamped refunds). Each case is a
 * leak a reading hid, or a finding nobody would fix, and the result it must give.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintKeyRules } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

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

/** A queue module (push at line 4) and the entry point that uses it; the consumer is started by `starter`. */
const queueModule = (starter: string) => `${H}const Q = 'jobs';
export async function enqueue(j: string) { await redis.lpush(Q, j); }
async function work() { const j = await redis.rpop(Q); return j; }
${starter}
`;
const ENTRY = "import { enqueue } from './queue';\nexport async function main() { await enqueue('x'); }\nmain();\n";
const SERVER = '{ "name": "app", "private": true, "scripts": { "start": "node src/index.js" } }';
const lintQueue = (starter: string) =>
  lintApplication(roots, { 'src/queue.ts': queueModule(starter), 'src/index.ts': ENTRY }, 'src/queue.ts', { 'incr-needs-expire-on-create': { allowConstantKeys: false } }, [], SERVER);

describe('a queue drained by a consumer only a starter nothing calls names', () => {
  it('never runs: the queue grows for good, reported', () => {
    expect(lintQueue('function startWorker() { setInterval(work, 1000); }')).toEqual([['incr-needs-expire-on-create', 'noExpiry', 4, 56]]);
  });
  it('a starter the module runs, or the entry point imports and runs, runs the consumer: not reported', () => {
    expect(lintQueue('function startWorker() { setInterval(work, 1000); }\nstartWorker();')).toEqual([]);
    const started = "import { enqueue, startWorker } from './queue';\nstartWorker();\nexport async function main() { await enqueue('x'); }\nmain();\n";
    const files = { 'src/queue.ts': queueModule('export function startWorker() { setInterval(work, 1000); }'), 'src/index.ts': started };
    expect(lintApplication(roots, files, 'src/queue.ts', { 'incr-needs-expire-on-create': { allowConstantKeys: false } }, [], SERVER)).toEqual([]);
  });
});

describe('a record found: the use that throws inside a labeled block a `break` may leave', () => {
  it('does not run on every path to the write: reported', () => {
    const code = `${H}export async function reset(id: string, fresh: boolean) {
  const room = await redis.hgetall(\`room:\${id}\`);
  check: { if (fresh) break check; room.users = JSON.parse(room.users); }
  await redis.hset(\`room:\${id}\`, 'users', '[]');
}
`;
    expect(lintKeyRules(code)).toEqual([[INCR, 'noExpiry', 6, 15]]);
  });
});

describe('deleted beside keys the file expires: a cache given its TTL where it is written', () => {
  const SETRULE = 'redis-ttl/set-requires-ttl-or-keepttl';
  /** An account deletion removing the profile (written at line 3) and a feed cache written at line 4. */
  const account = (cache: string) => `${H}export async function saveProfile(id: string, p: string) { await redis.set(\`user:\${id}\`, p); }
export async function cacheFeed(id: string, f: string) { ${cache} }
export async function deleteAccount(id: string) { await redis.del(\`user:\${id}\`, \`feed:\${id}\`); }
`;
  it('SET then EXPIRE in one function is the TTL of its creation, no sliding refresh: the profile stays bounded by the delete', () => {
    expect(lintKeyRules(account('await redis.multi().set(`feed:${id}`, f).expire(`feed:${id}`, 60).exec();'))).toEqual([]);
    expect(lintKeyRules(account('await redis.set(`feed:${id}`, f, \'EX\', 60);'))).toEqual([]);
  });
  it('an EXPIRE refreshing existing keys (a sliding TTL) still makes the delete beside them no bound', () => {
    const code = `${H}export async function saveCode(id: string, c: string) { await redis.set(\`code:\${id}\`, c); }
export async function touch(id: string) { await redis.expire(\`sess:\${id}\`, 60); }
export async function leave(id: string) { await redis.del(\`code:\${id}\`, \`sess:\${id}\`); }
`;
    expect(lintKeyRules(code)).toEqual([[SETRULE, 'setWithoutTtl', 3, 69]]);
  });
});

describe('code nothing calls: a worker started by a computed path', () => {
  const WORKER = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function handle(id: string) { await redis.incr(`sent:${id}`); }\n";
  const STARTED = '{ "name": "app", "private": true, "scripts": { "start": "node dist/index.js" } }';
  const lintWorker = (index: string) =>
    lintApplication(roots, { 'src/index.ts': index, 'src/workers/mailer.ts': WORKER }, 'src/workers/mailer.ts', { 'incr-needs-expire-on-create': {} }, [], STARTED);
  it('every file of a directory started as a thread, a forked process or a pool runs: reported', () => {
    const threads = "import { Worker } from 'node:worker_threads';\nimport { readdirSync } from 'node:fs';\nimport path from 'node:path';\nconst dir = path.join(__dirname, 'workers');\nfor (const f of readdirSync(dir)) new Worker(path.join(dir, f));\n";
    const forked = "import { fork } from 'node:child_process';\nimport path from 'node:path';\nfor (const k of process.argv.slice(2)) fork(path.join(__dirname, 'workers', k));\n";
    const pool = "import Piscina from 'piscina';\nimport path from 'node:path';\nexport const pool = new Piscina({ filename: path.resolve(__dirname, 'workers', process.env.WORKER_FILE!) });\n";
    for (const index of [threads, forked, pool]) expect(lintWorker(index)).toEqual([['incr-needs-expire-on-create', 'noExpiry', 3, 56]]);
  });
  it('a worker started by a path written out starts that file only: the mailer nobody starts stays unreached', () => {
    const other = "import { Worker } from 'node:worker_threads';\nnew Worker(new URL('./workers/resize.js', import.meta.url));\nnew Worker(require('node:path').join(__dirname, 'workers', 'resize.js'));\n";
    expect(lintWorker(other)).toEqual([]);
  });
});

describe('a record handed in: the function also handed on as a value', () => {
  const ROOMS = "import Redis from 'ioredis';\nexport const redis = new Redis();\nexport async function save(room: Record<string, string>) {\n  await redis.hset(`room:${room.id}`, room);\n}\n";
  const PLAY = "import { redis, save } from './rooms';\nexport async function play(id: string) { const room = await redis.hgetall(`room:${id}`); room.users = JSON.parse(room.users); await save(room); }\nplay('x');\n";
  const APP = '{ "name": "app", "private": true, "scripts": { "start": "node src/index.js" } }';
  const lintRooms = (files: Record<string, string>) => lintApplication(roots, { 'src/index.ts': PLAY, ...files }, 'src/rooms.ts', { 'incr-needs-expire-on-create': {} }, [], APP);
  it('every call passing a room it found: not reported', () => {
    expect(lintRooms({ 'src/rooms.ts': ROOMS })).toEqual([]);
  });
  it('a restore mapping unchecked records through it, in its module or another: reported', () => {
    const restoreHere = `${ROOMS}export async function restore(rs: Record<string, string>[]) { await Promise.all(rs.map(save)); }\n`;
    expect(lintRooms({ 'src/rooms.ts': restoreHere })).toEqual([[INCR.replace('redis-ttl/', ''), 'noExpiry', 4, 15]]);
    const restoreThere = "import { save } from './rooms';\nexport async function restore(rs: Record<string, string>[]) { await Promise.all(rs.map(save)); }\n";
    expect(lintRooms({ 'src/rooms.ts': ROOMS, 'src/admin.ts': restoreThere })).toEqual([[INCR.replace('redis-ttl/', ''), 'noExpiry', 4, 15]]);
  });
});
