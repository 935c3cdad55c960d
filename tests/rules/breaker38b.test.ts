/**
 * Breaker round 38b: odd but realistic code against the round's new readings (a deadline set
 * just before from the clock; Egg.js services as no client and wrappers judged at their callers;
 * a constant lock released without TTL). Each case is a leak a reading hid, or a false finding it
 * invented, with the near misses that keep their result.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintKeyRules, lintSnippet } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const ioredis = (body: string): string => `import Redis from 'ioredis';\nconst redis = new Redis();\n${body}\nasync function work() {}`;
const positive = (code: string) => lintSnippet(code, { 'redis-ttl/expire-needs-positive-ttl': 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);
const POSITIVE = 'redis-ttl/expire-needs-positive-ttl';
const SET_RULE = 'set-requires-ttl-or-keepttl';

describe('a deadline the function may outlast: an await between the deadline and the subtraction', () => {
  it('`const deadline = Date.now() + 5000; await work(); ... deadline - Date.now()`: the time left may have run out, reported', () => {
    const code = ioredis("export async function f(key: string) {\n  const deadline = Date.now() + 5000;\n  const v = await work();\n  await redis.set(key, String(v), 'PX', deadline - Date.now());\n}");
    expect(positive(code)).toEqual([[POSITIVE, 'computed', 6, 41]]);
  });
  it('a write in a loop after the deadline: a later turn reads the clock after the await of the earlier one, reported', () => {
    const code = ioredis("export async function f(keys: string[]) {\n  const deadline = Date.now() + 5000;\n  for (const key of keys) {\n    await redis.set(key, 'v', 'PX', deadline - Date.now());\n  }\n}");
    expect(positive(code)).toEqual([[POSITIVE, 'computed', 6, 37]]);
  });
  it('a generator yielding between: reported', () => {
    const code = ioredis("export async function* f(key: string) {\n  const deadline = Date.now() + 5000;\n  yield 1;\n  await redis.set(key, 'v', 'PX', deadline - Date.now());\n}");
    expect(positive(code)).toEqual([[POSITIVE, 'computed', 6, 35]]);
  });
  it('near miss: the await of the write itself, and an await before the deadline, leave it the span: not reported', () => {
    expect(positive(ioredis("export async function f(key: string) {\n  await work();\n  const deadline = Date.now() + 5000;\n  await redis.set(key, 'v', 'PX', deadline - Date.now());\n}"))).toEqual([]);
  });
  it('near miss: a loop holding the deadline too (a fresh deadline each turn): not reported', () => {
    expect(positive(ioredis("export async function f(keys: string[]) {\n  for (const key of keys) {\n    const deadline = Date.now() + 5000;\n    await redis.set(key, 'v', 'PX', deadline - Date.now());\n  }\n}"))).toEqual([]);
  });
  it('near miss: an await in a callback between them is not the function\'s: not reported', () => {
    expect(positive(ioredis("export async function f(key: string) {\n  const deadline = Date.now() + 5000;\n  const later = async () => { await work(); };\n  await redis.set(key, 'v', 'PX', deadline - Date.now());\n  return later;\n}"))).toEqual([]);
  });
});

// an Egg.js application with egg-redis (ioredis) and node-redis 4 both declared
const EGG = '{ "name": "app", "private": true, "dependencies": { "egg": "^2.15.1", "egg-redis": "^2.4.0", "redis": "^4.6.0" } }';
const EGG_RULES = { 'valid-ttl-args': undefined, 'set-requires-ttl-or-keepttl': undefined };
/** The application's Redis service: `set(key, value, seconds?)` always sends EX. */
const SERVICE = [
  "const Service = require('egg').Service;",
  'class RedisService extends Service {',
  '  async set(key: string, value: string, seconds?: number) {',
  "    if (!seconds) await this.app.redis.set(key, value, 'EX', 2592000);",
  "    else await this.app.redis.set(key, value, 'EX', seconds);",
  '  }',
  '}',
  'module.exports = RedisService;',
].join('\n');
/** A controller calling the service `receiver` on line 4 (`set(k, v, 7200)`) and line 5 (`hSet`). */
const controller = (receiver: string) =>
  [
    "const Controller = require('egg').Controller;",
    'class LoginController extends Controller {',
    '  async login(token: string, id: string) {',
    `    await ${receiver}.set(\`token:\${token}\`, id, 7200);`,
    `    await ${receiver}.hSet(\`roles:\${id}\`, 'menu', '[]');`,
    '  }',
    '}',
    'module.exports = LoginController;',
  ].join('\n');
const lintController = (service: string, receiver: string, files: Record<string, string> = {}) =>
  lintApplication(roots, { [service]: SERVICE, 'app/controller/login.ts': controller(receiver), ...files }, 'app/controller/login.ts', EGG_RULES, [], EGG);

describe("Egg.js services named as Egg's loader names them: a capitalised file, a subdirectory", () => {
  it('app/service/Redis.ts is ctx.service.redis (the loader lower-cases the first letter): its set(k, v, 7200) is no SET', () => {
    expect(lintController('app/service/Redis.ts', 'this.ctx.service.redis')).toEqual([]);
  });
  it('app/service/RedisCache.ts is ctx.service.redisCache: not reported', () => {
    expect(lintController('app/service/RedisCache.ts', 'this.ctx.service.redisCache')).toEqual([]);
  });
  it('app/service/cache/redis.ts is ctx.service.cache.redis: not reported', () => {
    expect(lintController('app/service/cache/redis.ts', 'this.ctx.service.cache.redis')).toEqual([]);
  });
  it('the same through `const { redis } = this.ctx.service.cache`: not reported', () => {
    const code = controller('redis').replace('  async login(token: string, id: string) {', '  async login(token: string, id: string) {\n    const { redis } = this.ctx.service.cache;');
    expect(lintApplication(roots, { 'app/service/cache/redis.ts': SERVICE, 'app/controller/login.ts': code }, 'app/controller/login.ts', EGG_RULES, [], EGG)).toEqual([]);
  });
  it('kept: a pass-through wrapper in a subdirectory, ctx.service.cache.redis.set(k, v) reaching its plain SET, is still reported at the caller', () => {
    const wrapper = "const Service = require('egg').Service;\nclass RedisService extends Service {\n  async set(key: string, value: string, seconds?: number) {\n    if (seconds) return this.app.redis.set(key, value, 'EX', seconds);\n    return this.app.redis.set(key, value);\n  }\n}\nmodule.exports = RedisService;";
    const caller = "const Controller = require('egg').Controller;\nclass LoginController extends Controller {\n  async login(token: string, id: string) {\n    await this.ctx.service.cache.redis.set(`token:${token}`, id);\n  }\n}\nmodule.exports = LoginController;";
    expect(lintApplication(roots, { 'app/service/cache/redis.ts': wrapper, 'app/controller/login.ts': caller }, 'app/controller/login.ts', EGG_RULES, [], EGG)).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 4, 40]]);
  });
  it('near miss: no such service file (app/service/cache/other.ts): ctx.service.cache.redis is read by its name as before', () => {
    expect(lintController('app/service/cache/other.ts', 'this.ctx.service.cache.redis')).toEqual([['set-requires-ttl-or-keepttl', 'numberAsOptions', 4, 40]]);
  });
});

describe('a set, hash or list whose name says lock is no lock: its members are not a held lock', () => {
  it('SADD of auth:locked_accounts, DELeted by an admin reset: one bounded key, not reported', () => {
    const code = ioredis("export async function lockOut(id: string) {\n  await redis.sadd('auth:locked_accounts', id);\n}\nexport async function unlockAll() {\n  await redis.del('auth:locked_accounts');\n}");
    expect(lintKeyRules(code)).toEqual([]);
  });
  it('HSET of dhcp:leases, DELeted on clear: not reported', () => {
    const code = ioredis("export async function lease(mac: string, ip: string) {\n  await redis.hset('dhcp:leases', mac, ip);\n}\nexport async function clear() {\n  await redis.del('dhcp:leases');\n}");
    expect(lintKeyRules(code)).toEqual([]);
  });
  it('near miss: INCR of a lock counter and SETNX of a lock, each DELeted: still reported', () => {
    const code = ioredis("export async function a() {\n  await redis.incr('sync:lock');\n  await work();\n  await redis.del('sync:lock');\n}\nexport async function b() {\n  await redis.setnx('sync:mutex', '1');\n  await work();\n  await redis.del('sync:mutex');\n}");
    expect(lintKeyRules(code)).toEqual([
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 15],
      ['redis-ttl/set-requires-ttl-or-keepttl', 'createWithoutTtl', 9, 15],
    ]);
  });
});

const MANIFEST = '{ "name": "app", "private": true, "dependencies": { "ioredis": "^5.3.2" } }';
const KEY_RULES = { 'set-requires-ttl-or-keepttl': undefined, 'incr-needs-expire-on-create': undefined };
/** `setJson(key, value, ttl = 60)`'s parameters and body: a plain SET when `ttl` is falsy, after early returns when `guarded`. */
const setJsonBody = (guarded: boolean) =>
  `(key, value, ttl = 60) {\n${guarded ? "  if (!client) return false;\n  if (client.status !== 'ready') return false;\n" : ''}  if (ttl) await client.set(key, JSON.stringify(value), 'EX', ttl);\n  else await client.set(key, JSON.stringify(value));\n  return true;\n}`;
const SERVICE_HEAD = "const Redis = require('ioredis');\nconst client = new Redis();\n";
/** The caller: line 3 passes `ttl`. */
const setJsonCaller = (ttl: string) => `const svc = require('./svc');\nasync function save(id, v) {\n  await svc.setJson(\`session:\${id}\`, v, ${ttl});\n}\nmodule.exports = { save };\n`;
const lintSetJson = (svc: string, ttl: string) => lintApplication(roots, { 'src/svc.ts': svc, 'src/use.ts': setJsonCaller(ttl) }, 'src/use.ts', KEY_RULES, [], MANIFEST);

describe('a TTL-arms helper assigned to a member of the CommonJS exports (`exports.setJson = async function (...)`)', () => {
  it('with early returns, called with a TTL of 0: the plain SET of the caller\'s key, reported at the caller', () => {
    expect(lintSetJson(`${SERVICE_HEAD}exports.setJson = async function${setJsonBody(true)};\n`, '0')).toEqual([[SET_RULE, 'setWithoutTtl', 3, 13]]);
  });
  it('without early returns, and as `module.exports.setJson = async (...) => {}`: reported', () => {
    expect(lintSetJson(`${SERVICE_HEAD}exports.setJson = async function${setJsonBody(false)};\n`, '0')).toEqual([[SET_RULE, 'setWithoutTtl', 3, 13]]);
    const arrow = `${SERVICE_HEAD}module.exports.setJson = async ${setJsonBody(false).replace(') {', ') => {')};\n`;
    expect(lintSetJson(arrow, 'null')).toEqual([[SET_RULE, 'setWithoutTtl', 3, 13]]);
  });
  it('near miss: the caller passes 60: the EX arm, not reported', () => {
    expect(lintSetJson(`${SERVICE_HEAD}exports.setJson = async function${setJsonBody(true)};\n`, '60')).toEqual([]);
  });
  it('kept: the function declared and exported as `exports.setJson = setJson`: reported as before', () => {
    expect(lintSetJson(`${SERVICE_HEAD}async function setJson${setJsonBody(true)}\nexports.setJson = setJson;\n`, '0')).toEqual([[SET_RULE, 'setWithoutTtl', 3, 13]]);
  });
});

/** src/svc.ts: ioredis made on demand, and `setJson` (from line 5) running `body`, exported in `module.exports`. */
const guardedService = (body: string) =>
  `const Redis = require('ioredis');\nlet client = null;\nfunction ensureClient() { if (!client) client = new Redis(); return client; }\nfunction memorySet(k, v, t) {}\nasync function setJson(key, value, ttl = 60) {\n${body}}\nmodule.exports = { setJson };\n`;
const ARMS = "    if (ttl) await c.set(key, JSON.stringify(value), 'EX', ttl);\n    else await c.set(key, JSON.stringify(value));\n";
/** The Aktie shape with its client guard logging before it returns. */
const LOGGING_GUARD = `  memorySet(key, value, ttl);\n  const c = ensureClient();\n  if (!c) {\n    console.warn('redis unavailable, memory only');\n    return false;\n  }\n  try {\n${ARMS}    return true;\n  } catch (err) {\n    return false;\n  }\n`;

describe('an early return that logs before it returns is an early return too', () => {
  it('`if (!c) { console.warn(...); return false; }` before the arms, called with 0: reported at the caller', () => {
    expect(lintSetJson(guardedService(LOGGING_GUARD), '0')).toEqual([[SET_RULE, 'setWithoutTtl', 3, 13]]);
  });
  it('near miss: the same helper called with 60: the EX arm, not reported', () => {
    expect(lintSetJson(guardedService(LOGGING_GUARD), '60')).toEqual([]);
  });
  it('near miss: an early return on `ttl === 0` writes nothing for a caller passing 0: not reported (null passes it: reported)', () => {
    const body = `  const c = ensureClient();\n  if (!c) return false;\n  if (ttl === 0) return false;\n${ARMS}  return true;\n`;
    expect(lintSetJson(guardedService(body), '0')).toEqual([]);
    expect(lintSetJson(guardedService(body), 'null')).toEqual([[SET_RULE, 'setWithoutTtl', 3, 13]]);
  });
});

/** app/service/redis.ts in Egg 1.x's form: a function of the application returning the wrapper class (plain SET without seconds). */
const FACTORY_BLOCK =
  "module.exports = (app: any) => {\n  class RedisService extends app.Service {\n    async set(key: string, value: string, seconds?: number) {\n      if (seconds) return this.app.redis.set(key, value, 'EX', seconds);\n      return this.app.redis.set(key, value);\n    }\n  }\n  return RedisService;\n};";
const FACTORY_ARROW =
  "module.exports = (app: any) => class extends app.Service {\n  async set(key: string, value: string, seconds?: number) {\n    if (seconds) return this.app.redis.set(key, value, 'EX', seconds);\n    return this.app.redis.set(key, value);\n  }\n};";
/** The controller: line 4 calls `ctx.service.redis.set` with `args`. */
const loginWith = (args: string) =>
  `const Controller = require('egg').Controller;\nclass LoginController extends Controller {\n  async login(token: string, id: string) {\n    await this.ctx.service.redis.set(${args});\n  }\n}\nmodule.exports = LoginController;`;
const lintFactory = (service: string, args: string) =>
  lintApplication(roots, { 'app/service/redis.ts': service, 'app/controller/login.ts': loginWith(args) }, 'app/controller/login.ts', EGG_RULES, [], EGG);

describe('an Egg service module exporting a function of the application that returns the class (`module.exports = app => class extends app.Service`)', () => {
  it('the wrapper returned from a block: ctx.service.redis.set(k, v) reaches the plain SET, reported at the caller', () => {
    expect(lintFactory(FACTORY_BLOCK, '`token:${token}`, id')).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 4, 34]]);
  });
  it('the class as the arrow\'s body: reported', () => {
    expect(lintFactory(FACTORY_ARROW, '`token:${token}`, id')).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 4, 34]]);
  });
  it('near miss: the caller passes the seconds: the EX arm, not reported', () => {
    expect(lintFactory(FACTORY_BLOCK, '`token:${token}`, id, 7200')).toEqual([]);
    expect(lintFactory(FACTORY_ARROW, '`token:${token}`, id, 7200')).toEqual([]);
  });
});
