/**
 * A lock taken through the application's own helper whose key is its parameter (round 38, the
 * tuning set's missed loyalty-proxy lock; fixtures written from the kind's definition): the helper
 * creates the key without TTL (INCR of holders, SET ... NX) and a call of it in the file passes a
 * constant key named as a lock, which the file deletes, directly or through a release helper whose
 * key parameter reaches the DEL. An owner that dies between the two leaves the lock held forever,
 * so the callers' one constant key (`allowConstantKeys`, `wrapper-callers.ts` 'constant') does not
 * exempt the helper's write (`redis-calls/locks.ts` releasedHelperLock). The finding is at the
 * helper's write, where `helper-keys.ts` and `wrapper-callers.ts` leave a helper's finding that
 * its callers do not exempt (a helper read as a pass-through facade is a command at its callers,
 * and reported there once, as before). Only calls that reach the write count: a lock caller whose
 * options choose the helper's NX arm without TTL makes that arm the finding.
 *
 * Near misses, not reported: callers passing constant keys not named as a lock (deleted as well),
 * the same lock helper with PX, a lock helper whose key nothing in the file deletes (a flag set for
 * good: the ordinary constant key), a DEL of another lock than the one the helper takes, a lock
 * caller whose options choose the helper's arm with a TTL (`wrapper-callers.ts` reach: the no-TTL
 * arm is another caller's write), and a helper whose lock key comes from a caller in another
 * module (only the file's own callers are read: that caller's verdict is today's).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const MANIFEST = '{ "name": "app", "private": true, "dependencies": { "ioredis": "^5.3.2" } }';
const INCR = 'incr-needs-expire-on-create';
const SET = 'set-requires-ttl-or-keepttl';

/** `[rule, messageId, line, column]` of each finding of the two key rules on `files[target]`. */
function lint(files: Record<string, string>, target = 'src/jobs.ts') {
  return lintApplication(roots, files, target, { [INCR]: undefined, [SET]: undefined }, [], MANIFEST);
}

/** A lock class of the module, held by a `const`; its acquire INCRs holders and gives its own back when busy (two commands: no facade). */
const locks = (release: string, key = "'jobs:sync:lock'", releaseCall = `await locks.release(${key})`) => `import Redis from 'ioredis';
const redis = new Redis();
class Locks {
  async acquire(key: string) {
    const holders = await redis.incr(key);
    if (holders > 1) {
      await redis.decr(key);
      return false;
    }
    return true;
  }
${release}
}
export const locks = new Locks();
export async function sync() {
  if (!(await locks.acquire(${key}))) return;
  try {
    await work();
  } finally {
    ${releaseCall};
  }
}
async function work() {}
`;

const DEL_RELEASE = `  async release(key: string) {
    await redis.del(key);
  }`;

/** A release that deletes only its own hold: GET, compare, DEL (two commands: no facade). */
const OWNED_RELEASE = `  async release(key: string) {
    if ((await redis.get(key)) !== null) await redis.del(key);
  }`;

/** A store object whose put chooses its SET by its options (a GET first: no facade); the lock caller passes `lockOptions`. */
const store = (lockOptions: string, before = 'console.log(await redis.get(key));') => `import Redis from 'ioredis';
const redis = new Redis();
export const store = {
  async put(key: string, value: string, opts?: { nx?: boolean; ex?: number }) {
    ${before}
    if (opts?.nx && opts?.ex) return redis.set(key, value, 'EX', opts.ex, 'NX');
    if (opts?.nx) return redis.set(key, value, 'NX');
    return redis.set(key, value, 'EX', 60);
  },
};
export async function draw() {
  await store.put('lottery:total', '0', { nx: true });
  if (!(await store.put('lottery:draw:lock', 'owner', ${lockOptions}))) return;
  try {
    await work();
  } finally {
    await redis.del('lottery:draw:lock');
  }
}
async function work() {}
`;

describe('a lock taken through a helper whose key is its parameter, released in the file', () => {
  it('INCR helper of a lock class, released through its release helper: reported at the INCR', () => {
    expect(lint({ 'src/jobs.ts': locks(DEL_RELEASE) })).toEqual([[INCR, 'noExpiry', 5, 33]]);
  });
  it('released through a helper that GETs before its DEL: reported at the INCR', () => {
    expect(lint({ 'src/jobs.ts': locks(OWNED_RELEASE) })).toEqual([[INCR, 'noExpiry', 5, 33]]);
  });
  it('released by a DEL of the constant in the caller itself: reported at the INCR', () => {
    const code = locks('', "'jobs:sync:lock'", "await redis.del('jobs:sync:lock')");
    expect(lint({ 'src/jobs.ts': code })).toEqual([[INCR, 'noExpiry', 5, 33]]);
  });
  it('a const lock name the callers share, UNLINKed: reported at the INCR', () => {
    const code = `const SYNC_LOCK = 'jobs:sync:mutex';\n${locks('', 'SYNC_LOCK', 'await redis.unlink(SYNC_LOCK)')}`;
    expect(lint({ 'src/jobs.ts': code })).toEqual([[INCR, 'noExpiry', 6, 33]]);
  });
  it('SET ... NX helper of a const object, its value an owner token, the key a lease: reported at the SET', () => {
    const code = `import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export const leases = {
  async take(key: string, owner: string) {
    const ok = await redis.set(key, owner, 'NX');
    if (!ok) console.log('held by', await redis.get(key));
    return ok === 'OK';
  },
  async drop(key: string) {
    await redis.del(key);
  },
};
export async function rebuild() {
  if (!(await leases.take('search:rebuild:lease', randomUUID()))) return;
  try {
    await work();
  } finally {
    await leases.drop('search:rebuild:lease');
  }
}
async function work() {}
`;
    expect(lint({ 'src/jobs.ts': code })).toEqual([[SET, 'createWithoutTtl', 6, 28]]);
  });
  it('a lock caller of a helper with option arms reaching its NX arm without TTL: reported at that arm', () => {
    expect(lint({ 'src/jobs.ts': store('{ nx: true }') })).toEqual([[SET, 'createWithoutTtl', 7, 32]]);
  });
});

describe('near misses: still one bounded key, or no lock the file releases', () => {
  it('callers pass constant keys not named as a lock (a counter, a leaderboard), deleted too', () => {
    const code = locks(DEL_RELEASE, "'jobs:processed'").replace("await locks.release('jobs:processed');", "await locks.release('jobs:processed');\n    await locks.acquire('leaderboard');\n    await locks.release('leaderboard');");
    expect(lint({ 'src/jobs.ts': code })).toEqual([]);
  });
  it('a set whose name says lock (members of locked accounts), added through a helper and deleted: no lock, one bounded key', () => {
    const code = `import Redis from 'ioredis';
const redis = new Redis();
class Accounts {
  async add(key: string, id: string) {
    console.log(await redis.scard(key));
    await redis.sadd(key, id);
  }
}
export const accounts = new Accounts();
export async function lockOut(id: string) {
  await accounts.add('auth:locked_accounts', id);
}
export async function unlockAll() {
  await redis.del('auth:locked_accounts');
}
`;
    expect(lint({ 'src/jobs.ts': code })).toEqual([]);
  });
  it('the same lock helper with PX', () => {
    const code = locks(DEL_RELEASE).replace('const holders = await redis.incr(key);', "const holders = (await redis.set(key, '1', 'PX', 30000, 'NX')) ? 1 : 2;");
    expect(lint({ 'src/jobs.ts': code })).toEqual([]);
  });
  it('a lock helper whose key nothing in the file deletes (a flag set for good)', () => {
    const code = locks('', "'jobs:sync:lock'", 'console.log("done")');
    expect(lint({ 'src/jobs.ts': code })).toEqual([]);
  });
  it('a DEL of another lock than the one the helper takes', () => {
    const code = locks('', "'jobs:sync:lock'", "await redis.del('jobs:import:lock')");
    expect(lint({ 'src/jobs.ts': code })).toEqual([]);
  });
  it('a lock caller whose options choose the helper\'s arm with EX: the no-TTL NX arm is not its write', () => {
    expect(lint({ 'src/jobs.ts': store('{ nx: true, ex: 30 }') })).toEqual([]);
  });
  it('a pass-through facade of the lock: its caller is the command, reported there once, as before', () => {
    expect(lint({ 'src/jobs.ts': store('{ nx: true }', '') })).toEqual([[SET, 'createWithoutTtl', 13, 21]]);
  });
  it('the lock key comes from a caller in another module, released there: the helper module keeps its verdict', () => {
    const lib = `import Redis from 'ioredis';
export const redis = new Redis();
class Locks {
  async acquire(key: string) {
    const holders = await redis.incr(key);
    if (holders > 1) {
      await redis.decr(key);
      return false;
    }
    return true;
  }
}
export const locks = new Locks();
`;
    const caller = `import { locks, redis } from './locks';
export async function sync() {
  if (!(await locks.acquire('jobs:sync:lock'))) return;
  try {
    await work();
  } finally {
    await redis.del('jobs:sync:lock');
  }
}
async function work() {}
`;
    const files = { 'src/locks.ts': lib, 'src/jobs.ts': caller };
    expect(lint(files, 'src/locks.ts')).toEqual([]);
    expect(lint(files, 'src/jobs.ts')).toEqual([]);
  });
});
