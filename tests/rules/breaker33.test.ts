/**
 * Breaker round 33: odd but realistic code against the round's new readings (scheduled wipes of
 * the keyspace, rollback DECRs, embedded-lua's standalone clients, code nothing runs, expired-key
 * events). Each case is a leak a reading hid, or a finding nobody would fix, and the result it
 * must give.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintKeyRules } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const INCR = 'incr-needs-expire-on-create';
const SET = 'set-requires-ttl-or-keepttl';

/** The store: line 4 a session without TTL, line 7 a hit counter without TTL. */
const STORE = `import Redis from 'ioredis';
export const redis = new Redis();
export async function saveSession(id: string, data: string) {
  await redis.set(\`session:\${id}\`, data);
}
export async function countHit(ip: string) {
  await redis.incr(\`hits:\${ip}\`);
}
`;

/** Routes calling the store (so neither function is dead code). */
const ROUTES = `import { saveSession, countHit } from './store';
export async function login(req: { id: string; ip: string; body: string }) {
  await countHit(req.ip);
  await saveSession(req.id, req.body);
}
`;

const BOTH: Array<[string, string, number, number]> = [
  [SET, 'setWithoutTtl', 4, 15],
  [INCR, 'noExpiry', 7, 15],
];

/** Findings of both key rules on src/store.ts of an application made of the store, its routes and `files`. */
function lintStore(files: Record<string, string>): Array<[string | undefined, string | undefined, number, number]> {
  return lintApplication(roots, { 'src/store.ts': STORE, 'src/routes.ts': ROUTES, ...files }, 'src/store.ts', { [SET]: undefined, [INCR]: undefined }, []);
}

describe('allowScheduledFlush: a sweep that keeps some keys, or wipes another server, bounds nothing', () => {
  it('a forEach over the listed keys whose callback returns early for some keys: reported', () => {
    const jobs = `import { redis } from './store';
setInterval(async () => {
  const keys = await redis.keys('*');
  keys.forEach((key) => {
    if (key.startsWith('session:') || key.startsWith('hits:')) return;
    redis.del(key);
  });
}, 3600 * 1000);
`;
    expect(lintStore({ 'src/jobs.ts': jobs })).toEqual(BOTH);
  });
  it('a listing reassigned to a filtered copy before the loop deleting it: reported', () => {
    const jobs = `import { redis } from './store';
setInterval(async () => {
  let keys = await redis.keys('*');
  keys = keys.filter((key) => !key.startsWith('session:') && !key.startsWith('hits:'));
  for (const key of keys) await redis.del(key);
}, 3600 * 1000);
`;
    expect(lintStore({ 'src/jobs.ts': jobs })).toEqual(BOTH);
  });
  it('a DEL of an inner variable shadowing the listing: reported', () => {
    const jobs = `import { redis } from './store';
setInterval(async () => {
  const keys = await redis.keys('*');
  console.log('keys in redis', keys.length);
  {
    const keys = await redis.smembers('tmp:keys');
    if (keys.length) await redis.del(...keys);
  }
}, 3600 * 1000);
`;
    expect(lintStore({ 'src/jobs.ts': jobs })).toEqual(BOTH);
  });
  it('a FLUSHDB of a cache client on another server (its own URL) than the store: reported', () => {
    const jobs = `import Redis from 'ioredis';
const cache = new Redis(process.env.CACHE_REDIS_URL!);
setInterval(async () => {
  await cache.flushdb();
}, 3600 * 1000);
`;
    expect(lintStore({ 'src/jobs.ts': jobs })).toEqual(BOTH);
  });
  it('a FLUSHDB beside clients of one server made with other options (a BullMQ connection, a db): not reported', () => {
    const jobs = `import Redis from 'ioredis';
const queueConnection = new Redis({ maxRetriesPerRequest: null, enableReadyCheck: false });
export const sub = new Redis({});
setInterval(async () => {
  await queueConnection.flushdb();
}, 3600 * 1000);
`;
    expect(lintStore({ 'src/jobs.ts': jobs })).toEqual([]);
  });
});

describe('allowScheduledFlush: a schedule that never starts, or not in production, bounds nothing', () => {
  const cronJob = (tail: string) => `import { CronJob } from 'cron';
import { redis } from './store';
export const resetJob = new CronJob('0 0 * * *', async () => {
  await redis.flushdb();
}${tail});
`;
  it("cron's CronJob built without start (its default: stopped) and never started: reported", () => {
    expect(lintStore({ 'src/jobs.ts': cronJob('') })).toEqual(BOTH);
    expect(lintStore({ 'src/jobs.ts': cronJob(', null, false') })).toEqual(BOTH);
    const from = "import { CronJob } from 'cron';\nimport { redis } from './store';\nCronJob.from({ cronTime: '0 0 * * *', onTick: async () => { await redis.flushdb(); } });\n";
    expect(lintStore({ 'src/jobs.ts': from })).toEqual(BOTH);
  });
  it('the same job started (start true, or job.start() in another module): not reported', () => {
    expect(lintStore({ 'src/jobs.ts': cronJob(', null, true') })).toEqual([]);
    expect(lintStore({ 'src/jobs.ts': cronJob(''), 'src/main.ts': "import { resetJob } from './jobs';\nresetJob.start();\n" })).toEqual([]);
    const from = "import { CronJob } from 'cron';\nimport { redis } from './store';\nCronJob.from({ cronTime: '0 0 * * *', onTick: async () => { await redis.flushdb(); }, start: true });\n";
    expect(lintStore({ 'src/jobs.ts': from })).toEqual([]);
  });
  it("node-cron's task built with scheduled: false and never started: reported", () => {
    const task = "import cron from 'node-cron';\nimport { redis } from './store';\nexport const task = cron.schedule('0 0 * * *', async () => { await redis.flushall(); }, { scheduled: false });\n";
    expect(lintStore({ 'src/jobs.ts': task })).toEqual(BOTH);
    expect(lintStore({ 'src/jobs.ts': task + 'task.start();\n' })).toEqual([]);
  });
  it('a @Cron method whose options may disable it (disabled in production): reported', () => {
    const nest = `import { Cron } from '@nestjs/schedule';
import { redis } from './store';
export class Cleanup {
  @Cron('0 * * * *', { disabled: process.env.NODE_ENV === 'production' })
  async hourly() {
    await redis.flushdb();
  }
}
`;
    expect(lintStore({ 'src/jobs.ts': nest })).toEqual(BOTH);
    expect(lintStore({ 'src/jobs.ts': nest.replace("process.env.NODE_ENV === 'production'", 'false') })).toEqual([]);
  });
  it("an Egg.js schedule limited to other environments than prod (env: ['local']): reported", () => {
    const egg = (env: string) => `import { redis } from '../store';
export default class Reset {
  static get schedule() {
    return { interval: '1h', type: 'worker', env: ${env} };
  }
  async subscribe() {
    await redis.flushdb();
  }
}
`;
    expect(lintStore({ 'src/schedule/reset.ts': egg("['local', 'unittest']") })).toEqual(BOTH);
    expect(lintStore({ 'src/schedule/reset.ts': egg("['prod']") })).toEqual([]);
  });
});

describe('allowScheduledFlush: a scheduled call of another object\'s method of the same name', () => {
  const cache = (tick: string) => `import { redis } from './store';
export class TwoLevelCache {
  private local = new Map<string, string>();
  constructor() {
    setInterval(() => ${tick}, 60 * 1000);
  }
  async clear() {
    this.local.clear();
    await redis.flushdb();
  }
}
export const cache = new TwoLevelCache();
`;
  it('the interval clears the in-memory Map (this.local.clear()), not the method that flushes: reported', () => {
    expect(lintStore({ 'src/cache.ts': cache('this.local.clear()'), 'src/admin.ts': "import { cache } from './cache';\nexport async function wipe() { await cache.clear(); }\n" })).toEqual(BOTH);
  });
  it('the interval calls the method itself (this.clear()): not reported', () => {
    expect(lintStore({ 'src/cache.ts': cache('this.clear()'), 'src/admin.ts': "import { cache } from './cache';\nexport async function wipe() { await cache.clear(); }\n" })).toEqual([]);
  });
});

describe('allowScheduledFlush: a schedule registered by a function nothing calls bounds nothing', () => {
  const jobs = `import { redis } from './store';
async function flush() {
  await redis.flushdb();
}
export function startResetLoop() {
  setInterval(flush, 24 * 3600 * 1000);
}
`;
  it('the setInterval sits in an exported function no module calls: reported', () => {
    expect(lintStore({ 'src/jobs.ts': jobs, 'src/main.ts': "import './routes';\nimport './jobs';\n" })).toEqual(BOTH);
  });
  it('the same function called by the entry point: not reported', () => {
    expect(lintStore({ 'src/jobs.ts': jobs, 'src/main.ts': "import './routes';\nimport { startResetLoop } from './jobs';\nstartResetLoop();\n" })).toEqual([]);
  });
});

describe('incr-needs-expire-on-create / set-requires-ttl-or-keepttl: a loop of expiries over the collected keys under a branch', () => {
  const flush = (write: string, guard: string, name: string) => `import Redis from 'ioredis';
const redis = new Redis();
export async function flush(items: { id: string }[], mode: string) {
  const tx = redis.multi();
  const touched: string[] = [];
  for (const item of items) {
    const key = \`views:\${item.id}\`;
    ${write};
    touched.push(key);
  }
  ${guard}for (const ${name} of touched) tx.expire(${name}, 3600);
  await tx.exec();
}
`;
  it('runs only when a flag says so: the keys of the other runs never expire, reported', () => {
    for (const name of ['key', 'k']) {
      expect(lintKeyRules(flush('tx.incr(key)', "if (mode === 'hourly') ", name))).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 8, 8]]);
      expect(lintKeyRules(flush("tx.set(key, '1')", "if (mode === 'hourly') ", name))).toEqual([['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 8, 8]]);
    }
  });
  it('run unconditionally, or under a test that the collection is not empty: not reported', () => {
    for (const guard of ['', 'if (touched.length > 0) ', 'if (touched.length) ']) {
      expect(lintKeyRules(flush('tx.incr(key)', guard, 'key'))).toEqual([]);
      expect(lintKeyRules(flush("tx.set(key, '1')", guard, 'k'))).toEqual([]);
    }
  });
});

describe('expiry events: a channel spelled with the database number in a template', () => {
  /** A booking flow: line 4 sets the booking's deadline (EX 900), line 7 its answers; `complete` deletes both. */
  const BOOKINGS = `import Redis from 'ioredis';
const redis = new Redis();
export async function hold(id: string) {
  await redis.set(\`booking:deadline:\${id}\`, '', 'EX', 900);
}
export async function saveAnswers(id: string, answers: string) {
  await redis.set(\`booking:answers:\${id}\`, answers);
}
export async function complete(id: string) {
  await redis.del(\`booking:answers:\${id}\`);
  await redis.del(\`booking:deadline:\${id}\`);
}
`;
  const listener = (channel: string) => `import Redis from 'ioredis';
const sub = new Redis();
const redis = new Redis();
const DB = Number(process.env.REDIS_DB ?? 0);
export async function listen() {
  await sub.subscribe(${channel});
  sub.on('message', async (_channel: string, message: string) => {
    const id = message.split(':').pop();
    await redis.del(\`booking:\${id}\`);
  });
}
`;
  const lint = (files: Record<string, string>) => lintApplication(roots, files, 'bookings.ts', { [SET]: undefined }, []);
  it('__keyevent@${DB}__:expired handles expiries as __keyevent@0__:expired does: the answers are reported', () => {
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': listener("'__keyevent@0__:expired'") })).toEqual([[SET, 'setWithoutTtl', 7, 15]]);
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': listener('`__keyevent@${DB}__:expired`') })).toEqual([[SET, 'setWithoutTtl', 7, 15]]);
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': listener("'__keyevent@' + DB + '__:expired'") })).toEqual([[SET, 'setWithoutTtl', 7, 15]]);
  });
});

describe('allowUncalledCode: a container-registered class reached by a token and a computed method name', () => {
  const files = {
    'src/jobs.ts': `import Redis from 'ioredis';
import { injectable } from 'tsyringe';
const redis = new Redis();
@injectable()
export class Jobs {
  async cleanup(id: string) {
    await redis.set(\`cleaned:\${id}\`, '1');
  }
}
`,
    'src/container.ts': "import { container } from 'tsyringe';\nimport { Jobs } from './jobs';\ncontainer.register('Jobs', { useClass: Jobs });\n",
    'src/runner.ts':
      "import { container } from 'tsyringe';\nexport async function run(name: string, id: string) {\n  const jobs = container.resolve<Record<string, (id: string) => Promise<void>>>('Jobs');\n  await jobs[name](id);\n}\n",
    'src/main.ts': "import './container';\nimport { run } from './runner';\nexport async function handler(req: { params: { job: string; id: string } }) {\n  await run(req.params.job, req.params.id);\n}\n",
  };
  it("container.resolve('Jobs')[name]() in a module importing nothing of the class's may call cleanup: reported", () => {
    expect(lintApplication(roots, files, 'src/jobs.ts', { [SET]: undefined }, [])).toEqual([[SET, 'setWithoutTtl', 7, 17]]);
  });
  it('without the computed call, nothing names cleanup: code that never runs, not reported', () => {
    const plain = { ...files, 'src/runner.ts': "import { container } from 'tsyringe';\nexport async function run(name: string, id: string) {\n  return [container, name, id];\n}\n" };
    expect(lintApplication(roots, plain, 'src/jobs.ts', { [SET]: undefined }, [])).toEqual([]);
  });
});
