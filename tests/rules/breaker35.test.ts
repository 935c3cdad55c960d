/**
 * Breaker round 35: odd but realistic code against the round's new readings (records created in
 * unnamed route handlers or another module, caller-chosen TTLs, key-builder instances). Each case
 * is a leak a reading hid, or a near miss that must keep its result.
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
const lint = (files: Record<string, string>, target: string) => lintApplication(roots, files, target, { [SET]: {}, [INCR]: {} }, []);

/** A score update of the room record (line 4), called from the routes module. */
const SCORES = `import Redis from 'ioredis';
const redis = new Redis();
export async function addPoint(id: string, user: string) {
  await redis.hincrby(\`room:\${id}\`, user, 1);
}
`;
const SCORE_FINDING = [[INCR, 'noExpiry', 4, 15]];
const MAIN = `import { addPoint } from './scores';\nimport routes from './routes';\nvoid addPoint('a', 'b');\nvoid (routes as any)?.(null);\n`;
const HEAD = `import Redis from 'ioredis';\nimport { addPoint } from './scores';\nconst redis = new Redis();\nexport const point = (id: string, u: string) => addPoint(id, u);\n`;
/** A handler creating the room record without TTL. */
const CREATE = `async (req: any) => {\n    await redis.hset(\`room:\${req.params.id}\`, { owner: req.body.owner, at: Date.now() });\n  }`;
/** Another handler giving the room a TTL when it closes (which may never happen). */
const CLOSE = `async (req: any) => {\n    await redis.expire(\`room:\${req.params.id}\`, 60);\n  }`;
/** A handler creating the room and giving it its TTL. */
const CREATE_WITH_TTL = `async (req: any) => {\n    await redis.hset(\`room:\${req.params.id}\`, { owner: req.body.owner, at: Date.now() });\n    await redis.expire(\`room:\${req.params.id}\`, 3600);\n  }`;
const plugin = (head: string, ...handlers: string[]) => `${HEAD}${head} {\n${handlers.map((h, i) => `  app.post('/rooms/${i}', ${h});\n`).join('')}}\n`;
const scores = (routes: string) => lint({ 'src/scores.ts': SCORES, 'src/routes.ts': routes, 'src/main.ts': MAIN }, 'src/scores.ts');

describe('records created in unnamed handlers: two handlers of one plugin function are two operations', () => {
  it('an anonymous plugin function registering a creation and, in another handler, an EXPIRE: reported', () => {
    expect(scores(plugin('export default async function (app: any)', CREATE, CLOSE))).toEqual(SCORE_FINDING);
  });
  it('an arrow plugin function, the same: reported', () => {
    expect(scores(plugin('export default async (app: any) =>', CREATE, CLOSE))).toEqual(SCORE_FINDING);
  });
  it('near miss: the plugin function creating the room with its EXPIRE in one handler: not reported', () => {
    expect(scores(plugin('export default async function (app: any)', CREATE_WITH_TTL, CLOSE))).toEqual([]);
  });
  it('near miss: one handler writing the fields in a map callback, then its EXPIRE: not reported', () => {
    const fields = `async (req: any) => {\n    await Promise.all(['owner', 'at'].map((f) => redis.hset(\`room:\${req.params.id}\`, f, req.body[f])));\n    await redis.expire(\`room:\${req.params.id}\`, 3600);\n  }`;
    expect(scores(plugin('export default async function (app: any)', fields, CLOSE))).toEqual([]);
  });
  it('near miss: top-level handlers, creation with EXPIRE in one: not reported', () => {
    const routes = `${HEAD}export const app: any = {};\napp.post('/rooms/:id', ${CREATE_WITH_TTL});\nexport default app;\n`;
    expect(scores(routes)).toEqual([]);
  });
  it('near miss: top-level handlers, EXPIRE in another handler than the creation: reported', () => {
    const routes = `${HEAD}export const app: any = {};\napp.post('/rooms/:id', ${CREATE});\napp.post('/rooms/:id/close', ${CLOSE});\nexport default app;\n`;
    expect(scores(routes)).toEqual(SCORE_FINDING);
  });
});

const HEADER = "import Redis from 'ioredis';\nconst redis = new Redis();\n";

describe('a time left the code computes, clamped at 0 (Math.max(0, ...)): still the code\'s own running out', () => {
  it('if / else on a clamped time left: the SET without TTL reported', () => {
    const code = `${HEADER}export async function save(k: string, v: string, deadline: number) {
  const ttl = Math.max(0, deadline - Date.now());
  if (ttl > 0) await redis.set(k, v, 'PX', ttl);
  else await redis.set(k, v);
}
`;
    expect(lintKeyRules(code)).toEqual([[`redis-ttl/${SET}`, 'setWithoutTtl', 6, 20]]);
  });
  it('?: on the whole seconds left, clamped: reported', () => {
    const code = `${HEADER}export async function save(k: string, v: string, deadline: number) {
  const ttl = Math.max(Math.floor((deadline - Date.now()) / 1000), 0);
  return ttl ? redis.set(k, v, 'EX', ttl) : redis.set(k, v);
}
`;
    expect(lintKeyRules(code)).toEqual([[`redis-ttl/${SET}`, 'setWithoutTtl', 5, 51]]);
  });
  it('an EXPIRE queued only while the clamped time left is positive: the HSET reported', () => {
    const code = `${HEADER}export async function save(k: string, v: string, deadline: number) {
  const left = Math.max(0, deadline - Date.now());
  const m = redis.multi();
  m.hset(k, 'f', v);
  if (left > 0) m.pexpire(k, left);
  await m.exec();
}
`;
    expect(lintKeyRules(code)).toEqual([[`redis-ttl/${INCR}`, 'noExpiry', 6, 5]]);
  });
  it('near miss: a caller\'s TTL clamped at 0 stays the caller\'s choice', () => {
    const code = `${HEADER}export async function set(k: string, v: string, ttl?: number) {
  const seconds = Math.max(0, ttl ?? 0);
  if (seconds > 0) await redis.set(k, v, 'EX', seconds);
  else await redis.set(k, v);
}
`;
    expect(lintKeyRules(code)).toEqual([]);
  });
});

/** A helper of the file returning the seconds left until midnight. */
const MIDNIGHT = `function secondsUntilMidnight() {
  const midnight = new Date();
  midnight.setHours(24, 0, 0, 0);
  return Math.floor((midnight.getTime() - Date.now()) / 1000);
}
`;

describe('a time left a function of the file computes: the code\'s own running out', () => {
  it('the seconds to midnight of a helper function, if / else: the SET without TTL reported', () => {
    const code = `${HEADER}${MIDNIGHT}export async function save(k: string, v: string) {
  const ttl = secondsUntilMidnight();
  if (ttl > 0) await redis.set(k, v, 'EX', ttl);
  else await redis.set(k, v);
}
`;
    expect(lintKeyRules(code)).toEqual([[`redis-ttl/${SET}`, 'setWithoutTtl', 11, 20]]);
  });
  it('an arrow helper taking the deadline, ?:: reported', () => {
    const code = `${HEADER}const secondsLeft = (deadline: number) => Math.ceil((deadline - Date.now()) / 1000);
export async function save(k: string, v: string, deadline: number) {
  const ttl = secondsLeft(deadline);
  return ttl > 0 ? redis.set(k, v, 'EX', ttl) : redis.set(k, v);
}
`;
    expect(lintKeyRules(code)).toEqual([[`redis-ttl/${SET}`, 'setWithoutTtl', 6, 55]]);
  });
  it('a daily counter whose EXPIRE is queued only while the helper\'s time left is positive: reported', () => {
    const code = `${HEADER}${MIDNIGHT}export async function hit(k: string) {
  const left = secondsUntilMidnight();
  const m = redis.multi();
  m.hincrby(k, 'n', 1);
  if (left > 0) m.expire(k, left);
  await m.exec();
}
`;
    expect(lintKeyRules(code)).toEqual([[`redis-ttl/${INCR}`, 'noExpiry', 11, 5]]);
  });
  it('near miss: a helper handing back the caller\'s TTL stays the caller\'s choice', () => {
    const code = `${HEADER}function ttlOf(opts: { ttl?: number }) {
  return opts.ttl;
}
export async function save(k: string, v: string, opts: { ttl?: number }) {
  const ttl = ttlOf(opts);
  if (ttl) await redis.set(k, v, 'EX', ttl);
  else await redis.set(k, v);
}
`;
    expect(lintKeyRules(code)).toEqual([]);
  });
});

describe('the same file: a list appended in a named function, created in one handler of a plugin function and expired in another', () => {
  const code = (close: string) => `${HEADER}export async function log(id: string, line: string) {
  await redis.rpush(\`room:\${id}:log\`, line);
}
export default async (app: any) => {
  app.post('/rooms/:id', async (req: any) => {
    await redis.rpush(\`room:\${req.params.id}:log\`, 'created');${close}
  });
  app.post('/rooms/:id/close', async (req: any) => {
    await redis.expire(\`room:\${req.params.id}:log\`, 60);
  });
};
`;
  it('the named append stays reported (nothing creates the list with its TTL)', () => {
    expect(lintKeyRules(code('')).filter(([, , line]) => line === 4)).toEqual([[`redis-ttl/${INCR}`, 'noExpiry', 4, 15]]);
  });
  it('near miss: the creating handler expires the list itself: the named append is an update', () => {
    const withTtl = code('\n    await redis.expire(`room:${req.params.id}:log`, 3600);');
    expect(lintKeyRules(withTtl).filter(([, , line]) => line === 4)).toEqual([]);
  });
});

describe('a time left held in a let assigned once, or returned by a helper another module exports', () => {
  it('let ttl; ttl = deadline - Date.now(): the SET without TTL reported', () => {
    const code = `${HEADER}export async function save(k: string, v: string, deadline: number) {
  let ttl;
  ttl = deadline - Date.now();
  if (ttl > 0) await redis.set(k, v, 'PX', ttl);
  else await redis.set(k, v);
}
`;
    expect(lintKeyRules(code)).toEqual([[`redis-ttl/${SET}`, 'setWithoutTtl', 7, 20]]);
  });
  it('near miss: let ttl; ttl = opts.ttl stays the caller\'s choice', () => {
    const code = `${HEADER}export async function save(k: string, v: string, opts: { ttl?: number }) {
  let ttl;
  ttl = opts.ttl;
  if (ttl) await redis.set(k, v, 'EX', ttl);
  else await redis.set(k, v);
}
`;
    expect(lintKeyRules(code)).toEqual([]);
  });
  const STORE = `import Redis from 'ioredis';
import { secondsUntilMidnight } from './time';
const redis = new Redis();
export async function save(k: string, v: string) {
  const ttl = secondsUntilMidnight();
  if (ttl > 0) await redis.set(k, v, 'EX', ttl);
  else await redis.set(k, v);
}
`;
  const store = (time: string) =>
    lintApplication(roots, { 'src/time.ts': time, 'src/store.ts': STORE, 'src/main.ts': "import { save } from './store';\nvoid save('a', 'b');\n" }, 'src/store.ts', { [SET]: {} }, []);
  it('the seconds to midnight of an exported helper function: reported', () => {
    expect(store(`export ${MIDNIGHT}`)).toEqual([[SET, 'setWithoutTtl', 7, 20]]);
  });
  it('an exported arrow helper: reported', () => {
    expect(store('export const secondsUntilMidnight = () => Math.floor((new Date().setHours(24, 0, 0, 0) - Date.now()) / 1000);\n')).toEqual([[SET, 'setWithoutTtl', 7, 20]]);
  });
  it('near miss: an exported helper returning a configured TTL stays the caller\'s choice', () => {
    expect(store('export function secondsUntilMidnight() {\n  return Number(process.env.CACHE_TTL);\n}\n')).toEqual([]);
  });
});

describe('a time left a method of the class returns (this.secondsLeft(d))', () => {
  it('reported', () => {
    const code = `${HEADER}export class Store {
  secondsLeft(deadline: number) {
    return Math.floor((deadline - Date.now()) / 1000);
  }
  async save(k: string, v: string, deadline: number) {
    const ttl = this.secondsLeft(deadline);
    if (ttl > 0) await redis.set(k, v, 'EX', ttl);
    else await redis.set(k, v);
  }
}
`;
    expect(lintKeyRules(code)).toEqual([[`redis-ttl/${SET}`, 'setWithoutTtl', 10, 22]]);
  });
  it('near miss: a method handing back the instance\'s configured TTL stays the configuration\'s choice', () => {
    const code = `${HEADER}export class Store {
  constructor(private readonly options: { ttl?: number }) {}
  ttl() {
    return this.options.ttl;
  }
  async save(k: string, v: string) {
    const ttl = this.ttl();
    if (ttl) await redis.set(k, v, 'EX', ttl);
    else await redis.set(k, v);
  }
}
`;
    expect(lintKeyRules(code)).toEqual([]);
  });
});
