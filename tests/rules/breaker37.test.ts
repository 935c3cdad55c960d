/**
 * Breaker round 37: odd but realistic code against the round's new readings (a throwing
 * disjunction guarding a TTL-arms helper, a singleton class's method judged at its callers). Each
 * case is a leak a reading hid, or a near miss that must keep its result.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const MANIFEST = '{ "name": "app", "private": true, "dependencies": { "ioredis": "^5.3.2" } }';
const SET = 'set-requires-ttl-or-keepttl';
const INCR = 'incr-needs-expire-on-create';

/** The TTL-arms helper of src/cache.ts: an argument check (`check`), then the arms. */
const helper = (check: string, params = 'ttl = 0', arms = "  if (ttl > 0) return client.set(key, value, 'EX', ttl);\n  return client.set(key, value);\n") =>
  `import Redis from 'ioredis';\nconst client = new Redis();\nexport async function set(key: string, value: string, ${params}) {\n  ${check}\n${arms}}\n`;
/** A caller: line 3 passes `ttl` (or nothing when `ttl` is empty). */
const caller = (ttl: string) => `import { set } from './cache';\nexport async function save(id: string, v: string) {\n  await set(\`profile:\${id}\`, v${ttl === '' ? '' : `, ${ttl}`});\n}\n`;
const lintCaller = (cache: string, use: string) => lintApplication(roots, { 'src/cache.ts': cache, 'src/use.ts': use }, 'src/use.ts', { [SET]: undefined }, [], MANIFEST);
const IF_TTL = "  if (ttl) return client.set(key, value, 'EX', ttl);\n  return client.set(key, value);\n";
const PLAIN_SET = [[SET, 'setWithoutTtl', 3, 9]];

describe('near misses: a throwing disjunction whose TTL test lets the caller\'s TTL through into the plain SET', () => {
  it('`ttl == null` does not hold for 0: the caller passing 0 writes without expiry', () => {
    expect(lintCaller(helper("if (!key || ttl == null) throw new Error('bad arguments');", 'ttl?: number', IF_TTL), caller('0'))).toEqual(PLAIN_SET);
  });
  it('`ttl > 1e9` (an upper bound) does not hold for a TTL left out', () => {
    expect(lintCaller(helper("if (!key || ttl > 1e9) throw new Error('bad arguments');", 'ttl?: number', IF_TTL), caller(''))).toEqual(PLAIN_SET);
  });
  it('`ttl === 0` does not hold for a TTL left out (undefined)', () => {
    expect(lintCaller(helper("if (!key || ttl === 0) throw new Error('bad arguments');", 'ttl?: number', IF_TTL), caller(''))).toEqual(PLAIN_SET);
  });
  it('`!(ttl >= 0)` does not hold for 0', () => {
    expect(lintCaller(helper("if (!key || !(ttl >= 0)) throw new Error('bad arguments');"), caller('0'))).toEqual(PLAIN_SET);
  });
  it('`(ttl ?? -1) < 0` does not hold for 0', () => {
    expect(lintCaller(helper("if (!key || (ttl ?? -1) < 0) throw new Error('bad arguments');", 'ttl?: number', IF_TTL), caller('0'))).toEqual(PLAIN_SET);
  });
  it('the check in a nested function the helper never calls guards nothing', () => {
    expect(lintCaller(helper("const check = () => { if (!key || ttl < 0) throw new Error('bad arguments'); };"), caller('-1'))).toEqual(PLAIN_SET);
  });
  it('the check after the write guards nothing', () => {
    const arms = "  if (ttl > 0) { await client.set(key, value, 'EX', ttl); return; }\n  await client.set(key, value);\n  if (!key || ttl < 0) throw new Error('bad arguments');\n";
    expect(lintCaller(helper('', 'ttl = 0', arms), caller('-1'))).toEqual(PLAIN_SET);
  });
});

/** src/redisManager.ts: a singleton class whose `createData` HSETs its key parameter (line 10, column 23); `extra` is a member added on line 12. */
const manager = (extra: string) =>
  [
    "import Redis from 'ioredis';",
    'class RedisManager {',
    '  static instance: RedisManager | null = null;',
    '  redis = new Redis();',
    '  static getInstance(): RedisManager {',
    '    if (!RedisManager.instance) RedisManager.instance = new RedisManager();',
    '    return RedisManager.instance;',
    '  }',
    '  async createData(key: string, info: Record<string, string>) {',
    '    return this.redis.hset(key, info);',
    '  }',
    extra,
    '}',
    'export default RedisManager;',
    '',
  ].join('\n');
/** Another module's caller, through the accessor, of a key under a declared persistent pattern. */
const NICKNAME = "import RedisManager from '../redisManager';\nexport const nicknameEvent = async (name: string, info: Record<string, string>) => {\n  await RedisManager.getInstance().createData('user:' + name, info);\n};\n";
const lintManager = (extra: string) =>
  lintApplication(roots, { 'src/redisManager.ts': manager(extra), 'src/handlers/nickname.ts': NICKNAME }, 'src/redisManager.ts', { [INCR]: undefined }, ['user:*', 'item:*'], MANIFEST);
const HSET = [[INCR, 'noExpiry', 10, 23]];
/** A static (or instance) member `touch` whose body is `call`, writing a `session:*` key no pattern names. */
const touch = (call: string, modifier = 'static ') => `  ${modifier}async touch() {\n    await ${call}.createData('session:' + Date.now(), { at: '1' });\n  }`;

describe("a singleton class's method called in the class's own body, through its accessor or its slot: that call is one of its callers", () => {
  it('`RedisManager.getInstance().createData(session:*)` in a static method: the HSET reported', () => {
    expect(lintManager(touch('RedisManager.getInstance()'))).toEqual(HSET);
  });
  it('`this.getInstance().createData(...)` in a static method: reported', () => {
    expect(lintManager(touch('this.getInstance()'))).toEqual(HSET);
  });
  it('`RedisManager.instance!.createData(...)` in an instance method: reported', () => {
    expect(lintManager(touch('RedisManager.instance!', ''))).toEqual(HSET);
  });
  it('`this.instance?.createData(...)` in a static method: reported', () => {
    expect(lintManager(touch('this.instance?'))).toEqual(HSET);
  });
  it('the instance held in a `const` of a static method: reported', () => {
    expect(lintManager("  static async touch() {\n    const self = RedisManager.getInstance();\n    await self.createData('session:' + Date.now(), { at: '1' });\n  }")).toEqual(HSET);
  });
  it('the instance handed on by a static method: the callers unknown, the HSET judged where it is', () => {
    expect(lintManager('  static shared() {\n    return [RedisManager.getInstance()];\n  }')).toEqual(HSET);
  });
  it('near miss: the only callers pass user:* keys (the other module\'s and a static method\'s): persistent, not reported', () => {
    expect(lintManager('')).toEqual([]);
    expect(lintManager("  static async rename(name: string) {\n    await RedisManager.getInstance().createData('user:' + name, { renamed: '1' });\n  }")).toEqual([]);
  });
  it('near miss: the slot only tested and assigned in the body (`if (!RedisManager.instance)`): not reported', () => {
    expect(lintManager('  static reset() {\n    if (RedisManager.instance) RedisManager.instance = null;\n  }')).toEqual([]);
  });
});

const BUILD = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport function buildKeys(id: string) {\n  return { profile: `user:${id}:profile`, session: `session:${id}` };\n}\n";
/** set-requires-ttl-or-keepttl's findings on a module whose `save` (body from line 7) runs `body`. */
const annotated = (body: string) => lintApplication(roots, { 'src/a.ts': `${BUILD}export async function save(id: string, v: string) {\n${body}}\n` }, 'src/a.ts', { [SET]: undefined }, [], MANIFEST);
/** The annotated declaration of the built keys object (lines 7-8), a change of `keys.session` (line 9), its SET (line 10). */
const changed = (change: string) => annotated(`  // redis-ttl persistent: the user's profile\n  const keys = buildKeys(id);\n  ${change}\n  await redis.set(keys.session, v);\n`);

describe("a persistent annotation on a built keys object's declaration: a member the code changes through a cast is no longer the builder's", () => {
  it('`(keys as Record<string, string>).session = ...`: the SET of it reported', () => {
    expect(changed('(keys as Record<string, string>).session = `s:${v}`;')).toEqual([[SET, 'setWithoutTtl', 10, 15]]);
  });
  it('`keys!.session = ...`: reported', () => {
    expect(changed('keys!.session = `s:${v}`;')).toEqual([[SET, 'setWithoutTtl', 10, 15]]);
  });
  it('`Object.assign(keys as object, {...})`: reported', () => {
    expect(changed('Object.assign(keys as object, { session: `s:${v}` });')).toEqual([[SET, 'setWithoutTtl', 10, 15]]);
  });
  it('`(keys.session as string) = ...`: reported', () => {
    expect(changed('(keys.session as string) = `s:${v}`;')).toEqual([[SET, 'setWithoutTtl', 10, 15]]);
  });
  it('near miss: the member only read through a cast: the annotation still names it', () => {
    expect(changed('console.log((keys as Record<string, string>).session);')).toEqual([]);
  });
  it('near miss: another member changed through a cast: still left alone', () => {
    expect(changed('(keys as Record<string, string>).profile = `p:${v}`;')).toEqual([]);
  });
  it('near miss (held): the annotation on a `let` reassigned later, or a destructured declaration, is not read through', () => {
    expect(annotated("  // redis-ttl persistent: the profile\n  let keys = buildKeys('admin');\n  keys = buildKeys(id);\n  await redis.set(keys.session, v);\n")).toEqual([[SET, 'setWithoutTtl', 10, 15]]);
    expect(annotated('  // redis-ttl persistent: the profile\n  const [keys] = [buildKeys(id)];\n  await redis.set(keys.session, v);\n')).toEqual([[SET, 'setWithoutTtl', 9, 15]]);
  });
});

/** set-requires-ttl-or-keepttl's [messageId, line, column] on a counter function whose body starts on line 4. */
const counter = (body: string) =>
  lintApplication(roots, { 'src/rate.ts': `import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function hit(ip: string, n: number) {\n${body}}\n` }, 'src/rate.ts', { [SET]: undefined }, [], MANIFEST).map(([, messageId, line, column]) => [messageId, line, column]);

describe('a plain SET after its key was deleted: it discards no TTL (the key is gone), the general message', () => {
  it('SET EX, DEL, then a plain SET: setWithoutTtl, not setClearsTtl', () => {
    expect(counter("  await redis.set(`rate:${ip}`, '1', 'EX', 60);\n  await redis.del(`rate:${ip}`);\n  await redis.set(`rate:${ip}`, String(n));\n")).toEqual([['setWithoutTtl', 6, 15]]);
  });
  it('UNLINK between: the same', () => {
    expect(counter("  await redis.set(`rate:${ip}`, '1', 'EX', 60);\n  await redis.unlink(`rate:${ip}`);\n  await redis.set(`rate:${ip}`, String(n));\n")).toEqual([['setWithoutTtl', 6, 15]]);
  });
  it('near miss: another key deleted between: setClearsTtl', () => {
    expect(counter("  await redis.set(`rate:${ip}`, '1', 'EX', 60);\n  await redis.del(`ban:${ip}`);\n  await redis.set(`rate:${ip}`, String(n));\n")).toEqual([['setClearsTtl', 6, 15]]);
  });
  it('near miss: the key deleted before the expiring write: setClearsTtl', () => {
    expect(counter("  await redis.del(`rate:${ip}`);\n  await redis.set(`rate:${ip}`, '1', 'EX', 60);\n  await redis.set(`rate:${ip}`, String(n));\n")).toEqual([['setClearsTtl', 6, 15]]);
  });
});

describe("a singleton's instance held in an exported `const`: the modules importing that `const` call the method too", () => {
  const session = "import { manager } from '../managerInstance';\nexport const openSession = async (id: string) => {\n  await manager.createData('session:' + id, { at: '1' });\n};\n";
  const lintHeld = (holder: string, handler = session) =>
    lintApplication(
      roots,
      { 'src/redisManager.ts': manager(''), 'src/handlers/nickname.ts': NICKNAME, 'src/managerInstance.ts': holder, 'src/handlers/session.ts': handler },
      'src/redisManager.ts',
      { [INCR]: undefined },
      ['user:*', 'item:*'],
      MANIFEST,
    );
  it('`export const manager = RedisManager.getInstance()` and another module calling `manager.createData(session:*)`: the HSET reported', () => {
    expect(lintHeld("import RedisManager from './redisManager';\nexport const manager = RedisManager.getInstance();\n")).toEqual(HSET);
  });
  it('near miss: the `const` not exported, its own calls passing user:* keys: not reported', () => {
    expect(lintHeld("import RedisManager from './redisManager';\nconst manager = RedisManager.getInstance();\nexport const rename = (name: string) => manager.createData('user:' + name, { renamed: '1' });\n", 'export {};\n')).toEqual([]);
  });
});
