/**
 * Keys bounded by a scheduled wipe of the whole keyspace (redis-calls/scheduled-flush.ts,
 * `allowScheduledFlush`): a package that runs, on a recurring schedule (an Egg.js schedule, a
 * `setInterval`, node-cron, node-schedule, cron, `@Cron`), a FLUSHALL, or a FLUSHDB or a DEL of
 * every key `KEYS '*'` lists on the only database it names, keeps no key longer than the period:
 * its writes without TTL are not reported by `recommended`. A wipe at start-up only, behind a flag,
 * registered behind a flag, after a one-off `setTimeout` or a `new Date` rule, of one prefix, on
 * another database, in a disabled schedule, a test or a script, or skipping keys stays reported,
 * and so does everything under `strict` (`allowScheduledFlush: false`). Each case writes a small
 * application to a temporary folder and lints its store module.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { matchesEveryKey } from '../../semantics/keyspace-wipes.js';
import { lintApplication } from '../helpers/lint.js';

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

/** An Egg.js schedule class: at start and every midnight, DEL of every key KEYS * lists. */
const EGG_CLASS = `import { redis } from '../store';
export default class Init {
  static get schedule() {
    return { cron: '0 0 0 * * *', immediate: true, type: 'worker' };
  }
  async subscribe() {
    const keys = await redis.keys('*');
    for (const key of keys) {
      await redis.del(key);
    }
  }
}
`;

/** An Egg.js schedule object: every day, DEL of the whole listing. */
const EGG_OBJECT = `import { redis } from '../store';
export default {
  schedule: { interval: '1d', type: 'worker' },
  async task() {
    const keys = await redis.keys('*');
    if (keys.length > 0) await redis.del(...keys);
  },
};
`;

const INTERVAL_FLUSHDB = `import { redis } from './store';
setInterval(async () => {
  await redis.flushdb();
}, 24 * 3600 * 1000);
`;

const INTERVAL_BY_NAME = `import { redis } from './store';
async function reset() {
  await redis.flushdb();
}
export function start() {
  setInterval(reset, 24 * 3600 * 1000);
}
`;

const INTERVAL_CALLS_METHOD = `import { redis } from './store';
export class Janitor {
  start() {
    setInterval(() => this.wipe(), 3600 * 1000);
  }
  async wipe() {
    await redis.flushdb();
  }
}
`;

const NODE_CRON_FLUSHALL = `import cron from 'node-cron';
import { redis } from './store';
cron.schedule('0 0 * * *', async () => {
  await redis.flushall();
});
`;

const CRON_JOB = `import { CronJob } from 'cron';
import { redis } from './store';
export const job = new CronJob('0 0 * * *', async () => {
  await redis.flushdb();
}, null, true);
`;

const SCHEDULE_JOB = `import schedule from 'node-schedule';
import { redis } from './store';
schedule.scheduleJob('nightly', '0 0 * * *', async () => {
  for (const key of await redis.keys('*')) await redis.unlink(key);
});
`;

const NEST_CRON = `import { Cron } from '@nestjs/schedule';
import { redis } from './store';
export class Cleanup {
  @Cron('0 0 * * *')
  async nightly() {
    await redis.flushdb();
  }
}
`;

const FOR_EACH_PIPELINE = `import { redis } from './store';
setInterval(async () => {
  const keys = await redis.keys('*');
  const pipeline = redis.pipeline();
  keys.forEach((key) => pipeline.del(key));
  await pipeline.exec();
}, 3600 * 1000);
`;

const STARTUP_ONLY = `import { redis } from './store';
async function main() {
  await redis.flushdb();
}
main();
`;

const FLAGGED_FLUSH = `import { redis } from './store';
setInterval(async () => {
  if (process.env.RESET_REDIS) await redis.flushdb();
}, 24 * 3600 * 1000);
`;

const FLAGGED_REGISTRATION = `import { redis } from './store';
if (process.env.RESET_REDIS) {
  setInterval(async () => {
    await redis.flushdb();
  }, 24 * 3600 * 1000);
}
`;

const EARLY_RETURN = `import { redis } from './store';
setInterval(async () => {
  if (!process.env.RESET_REDIS) return;
  await redis.flushdb();
}, 24 * 3600 * 1000);
`;

const ONE_OFF_TIMEOUT = `import { redis } from './store';
setTimeout(async () => {
  await redis.flushdb();
}, 24 * 3600 * 1000);
`;

const ONE_OFF_DATE = `import schedule from 'node-schedule';
import { redis } from './store';
schedule.scheduleJob(new Date(Date.now() + 86400000), async () => {
  await redis.flushdb();
});
`;

/** A client on database 2. */
const OTHER_DATABASE = `import Redis from 'ioredis';
export const queue = new Redis({ db: 2 });
`;

/** A connection switched to database 3. */
const SELECTS_DATABASE = `import { redis } from './store';
export async function useArchive() {
  await redis.select(3);
}
`;

const PREFIX_WIPE = `import { redis } from './store';
setInterval(async () => {
  const keys = await redis.keys('session:*');
  if (keys.length) await redis.del(...keys);
}, 3600 * 1000);
`;

const SKIPPING_SWEEP = `import { redis } from './store';
setInterval(async () => {
  const keys = await redis.keys('*');
  for (const key of keys) {
    if (key.startsWith('hits:')) continue;
    await redis.del(key);
  }
}, 3600 * 1000);
`;

const LISTED_NOT_DELETED = `import { redis } from './store';
setInterval(async () => {
  const keys = await redis.keys('*');
  console.log(keys.length);
  await redis.del('stats');
}, 3600 * 1000);
`;

const BOTH: Array<[string, string, number, number]> = [
  [SET, 'setWithoutTtl', 4, 15],
  [INCR, 'noExpiry', 7, 15],
];

/** Findings of both key rules on src/store.ts of an application made of the store, its routes and `files`. */
function lint(files: Record<string, string>, options: Record<string, unknown> = {}): Array<[string | undefined, string | undefined, number, number]> {
  return lintApplication(roots, { 'src/store.ts': STORE, 'src/routes.ts': ROUTES, ...files }, 'src/store.ts', { [SET]: options, [INCR]: options }, []);
}

describe('keys bounded by a scheduled wipe of the keyspace (allowScheduledFlush)', () => {
  it('reports both writes when nothing wipes the keyspace', () => {
    expect(lint({})).toEqual(BOTH);
  });

  describe('a recurring wipe bounds every key (recommended)', () => {
    it('an Egg.js schedule class with a cron, deleting every key KEYS * lists, one by one', () => {
      expect(lint({ 'src/schedule/init.ts': EGG_CLASS })).toEqual([]);
    });
    it('an Egg.js schedule object with an interval, deleting the listed keys at once behind a length test', () => {
      expect(lint({ 'src/schedule/reset.ts': EGG_OBJECT })).toEqual([]);
    });
    it('a setInterval of a FLUSHDB', () => {
      expect(lint({ 'src/jobs.ts': INTERVAL_FLUSHDB })).toEqual([]);
    });
    it('a setInterval handed a function of the module by name, which flushes', () => {
      expect(lint({ 'src/jobs.ts': INTERVAL_BY_NAME })).toEqual([]);
    });
    it('a setInterval whose callback calls a method that flushes', () => {
      expect(lint({ 'src/jobs.ts': INTERVAL_CALLS_METHOD })).toEqual([]);
    });
    it("node-cron's schedule of a FLUSHALL, even beside a client on another database (FLUSHALL empties them all)", () => {
      expect(lint({ 'src/jobs.ts': NODE_CRON_FLUSHALL, 'src/other.ts': OTHER_DATABASE })).toEqual([]);
    });
    it("cron's CronJob, node-schedule's scheduleJob with a cron string, and a @Cron method", () => {
      expect(lint({ 'src/jobs.ts': CRON_JOB })).toEqual([]);
      expect(lint({ 'src/jobs.ts': SCHEDULE_JOB })).toEqual([]);
      expect(lint({ 'src/jobs.ts': NEST_CRON })).toEqual([]);
    });
    it('a forEach over the listed keys queuing each DEL in a pipeline, and a GETDEL of each', () => {
      expect(lint({ 'src/jobs.ts': FOR_EACH_PIPELINE })).toEqual([]);
      expect(lint({ 'src/jobs.ts': FOR_EACH_PIPELINE.replace('pipeline.del(key)', 'pipeline.getdel(key)') })).toEqual([]);
    });
  });

  describe('near misses stay reported', () => {
    it('a flush at start-up only', () => {
      expect(lint({ 'src/main.ts': STARTUP_ONLY })).toEqual(BOTH);
    });
    it('a flush behind a flag, in the scheduled callback or around its registration, or after a return', () => {
      expect(lint({ 'src/jobs.ts': FLAGGED_FLUSH })).toEqual(BOTH);
      expect(lint({ 'src/jobs.ts': FLAGGED_REGISTRATION })).toEqual(BOTH);
      expect(lint({ 'src/jobs.ts': EARLY_RETURN })).toEqual(BOTH);
    });
    it('a one-off setTimeout, and node-schedule given a Date', () => {
      expect(lint({ 'src/jobs.ts': ONE_OFF_TIMEOUT })).toEqual(BOTH);
      expect(lint({ 'src/jobs.ts': ONE_OFF_DATE })).toEqual(BOTH);
    });
    it('a FLUSHDB or KEYS * wipe in a package that names another database', () => {
      expect(lint({ 'src/jobs.ts': INTERVAL_FLUSHDB, 'src/other.ts': OTHER_DATABASE })).toEqual(BOTH);
      expect(lint({ 'src/schedule/init.ts': EGG_CLASS, 'src/other.ts': SELECTS_DATABASE })).toEqual(BOTH);
    });
    it('a scheduled wipe of one prefix', () => {
      expect(lint({ 'src/jobs.ts': PREFIX_WIPE })).toEqual(BOTH);
    });
    it('a disabled Egg.js schedule, and a schedule without cron or interval', () => {
      expect(lint({ 'src/schedule/init.ts': EGG_CLASS.replace("cron: '0 0 0 * * *'", "cron: '0 0 0 * * *', disable: true") })).toEqual(BOTH);
      expect(lint({ 'src/schedule/init.ts': EGG_CLASS.replace("cron: '0 0 0 * * *'", "immediate: true") })).toEqual(BOTH);
    });
    it('a wipe in a test or an operator script', () => {
      expect(lint({ 'src/__tests__/jobs.test.ts': INTERVAL_FLUSHDB })).toEqual(BOTH);
      expect(lint({ 'scripts/reset.ts': INTERVAL_FLUSHDB })).toEqual(BOTH);
    });
    it('a loop over the listed keys that skips some', () => {
      expect(lint({ 'src/jobs.ts': SKIPPING_SWEEP })).toEqual(BOTH);
    });
    it('a flushAll given another argument than ASYNC / SYNC (a queue rejecting its pending commands)', () => {
      expect(lint({ 'src/jobs.ts': INTERVAL_FLUSHDB.replace('redis.flushdb()', 'redis.flushall(new Error("closing"))') })).toEqual(BOTH);
      expect(lint({ 'src/jobs.ts': INTERVAL_FLUSHDB.replace('redis.flushdb()', "redis.flushdb('ASYNC')") })).toEqual([]);
    });
    it('a KEYS * whose reply is not what the DEL deletes', () => {
      expect(lint({ 'src/jobs.ts': LISTED_NOT_DELETED })).toEqual(BOTH);
    });
    it('a wipe under a test that does not say the listing found keys (review, round 33)', () => {
      const sweep = (test: string, wipe = 'await redis.del(...keys);') =>
        `import { redis } from './store';\nconst jobs: string[] = [];\nsetInterval(async () => {\n  const keys = await redis.keys('*');\n  if (${test}) ${wipe}\n}, 3600 * 1000);\n`;
      // the listing's own length, tested non-empty: a wipe of every key
      expect(lint({ 'src/jobs.ts': sweep('keys.length !== 0') })).toEqual([]);
      // empty, another list's length, a FLUSHALL under a length test, the wipe in the else arm: reported
      expect(lint({ 'src/jobs.ts': sweep('keys.length === 0') })).toEqual(BOTH);
      expect(lint({ 'src/jobs.ts': sweep('jobs.length > 0') })).toEqual(BOTH);
      expect(lint({ 'src/jobs.ts': sweep('jobs.length === 0', 'await redis.flushall();') })).toEqual(BOTH);
      expect(lint({ 'src/jobs.ts': sweep('keys.length', "console.log('swept'); else await redis.del(...keys);") })).toEqual(BOTH);
    });
  });

  it('a KEYS pattern of stars only matches every key', () => {
    expect(['*', '**'].map(matchesEveryKey)).toEqual([true, true]);
    expect(['session:*', '*:lock', '', '?*'].map(matchesEveryKey)).toEqual([false, false, false, false]);
  });

  it('strict (allowScheduledFlush: false) reports the bounded keys', () => {
    expect(lint({ 'src/jobs.ts': INTERVAL_FLUSHDB }, { allowScheduledFlush: false })).toEqual(BOTH);
  });
});
