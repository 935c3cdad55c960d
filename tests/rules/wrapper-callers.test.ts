/**
 * A wrapper's write judged at its callers (redis-calls/wrapper-callers.ts): the key (and the arm,
 * chosen by an optional `{ nx, ex }`) is a parameter of a method of an exported `const` object or
 * of a class instance an exported `const` holds; every call found in the modules importing the
 * wrapper's module decides. Each case writes a small `"private": true` application to a temporary
 * folder and lints the wrapper's module.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** An application linted by `lintApplication` (tests/helpers/lint.ts), its folder removed after the tests. */
function lintApp(files: Record<string, string>, target: string, rules: Record<string, unknown>, persistentKeys: string[], manifest?: string) {
  return lintApplication(roots, files, target, rules, persistentKeys, manifest);
}

const SET = 'set-requires-ttl-or-keepttl';
const INCR = 'incr-needs-expire-on-create';
const LUA = 'embedded-lua';

/** A kv wrapper whose `set` has an NX arm without EX (line 8, column 14) and an `eval` of a DEL + RPUSH script (its literal at line 15, column 68). */
const KV = `import Redis from 'ioredis';
const r = new Redis();
export const kv = {
  async set(key: string, value: string, opts?: { nx?: boolean; ex?: number }) {
    const serialized = String(value);
    if (opts?.nx && opts?.ex) return r.set(key, serialized, 'EX', opts.ex, 'NX');
    if (opts?.nx) {
      return r.set(key, serialized, 'NX');
    }
    if (opts?.ex) return r.set(key, serialized, 'EX', opts.ex);
    return r.set(key, serialized);
  },
  async replaceList(key: string, items: string[]) {
    if (items.length === 0) return;
    const script = "redis.call('DEL', KEYS[1]) for i = 1, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end return #ARGV";
    await r.eval(script, 1, key, ...items);
  },
};
`;

const NX_ARM = [SET, 'createWithoutTtl', 8, 16];

/** Callers that reach the NX arm only with a persistent key; the others pass EX or no NX. */
const LOTTERY = `import { kv } from './lib/redis';
const LOCK_TTL = 5;
function secondsLeft(): number { return 3600; }
export async function seed(n: number) {
  await kv.set('lottery:records:total', String(n), { nx: true });
}
export async function lock(id: string, token: string) {
  return kv.set(\`lock:\${id}\`, token, { nx: true, ex: LOCK_TTL });
}
export async function daily(id: string) {
  const ttl = secondsLeft();
  return kv.set(\`daily:\${id}\`, '1', { nx: true, ex: ttl });
}
export async function remember(id: string, v: string) {
  return kv.set(\`cache:\${id}\`, v, { ex: 60 });
}
`;

describe('a wrapper arm judged at the callers that reach it', () => {
  it('the SET NX arm reached only with a declared-persistent key is left alone; the other callers pass EX or no NX', () => {
    expect(lintApp({ 'lib/redis.ts': KV, 'lottery.ts': LOTTERY }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'])).toEqual([]);
    // a library: its callers are other people's code
    const library = '{ "name": "kv-lib", "version": "1.0.0", "main": "index.js" }';
    expect(lintApp({ 'lib/redis.ts': KV, 'lottery.ts': LOTTERY }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'], library)).toEqual([NX_ARM]);
  });

  it('stays reported when a caller reaches the arm with a run-time key', () => {
    const claim = "import { kv } from './lib/redis';\nexport async function claim(id: string) {\n  return kv.set(`claim:${id}`, '1', { nx: true });\n}\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'lottery.ts': LOTTERY, 'claim.ts': claim }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'])).toEqual([NX_ARM]);
  });

  it('stays reported when a caller passes an optional TTL variable (it may be left out, so the NX arm runs)', () => {
    const optional = "import { kv } from './lib/redis';\nexport async function lock(id: string, ttl?: number) {\n  return kv.set(`lock:${id}`, '1', { nx: true, ex: ttl });\n}\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'lottery.ts': LOTTERY, 'opt.ts': optional }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'])).toEqual([NX_ARM]);
  });

  it('a module that does not import the wrapper is no caller, whatever it writes', () => {
    const other = "const kv = new Map<string, string>();\nexport function claim(id: string) {\n  return kv.set(`claim:${id}`, '1', { nx: true } as never);\n}\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'lottery.ts': LOTTERY, 'other.ts': other }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'])).toEqual([]);
  });

  it('a test calling it with a run-time key is no caller', () => {
    const spec = "import { kv } from '../lib/redis';\nexport async function t(id: string) {\n  await kv.set(`claim:${id}`, '1', { nx: true });\n}\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'lottery.ts': LOTTERY, 'test/kv.test.ts': spec }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'])).toEqual([]);
  });

  it('callers through a barrel count; a namespace import of the module leaves the callers unknown', () => {
    const barrel = "export { kv } from './redis';\n";
    const viaBarrel = "import { kv } from './lib';\nexport async function claim(id: string) {\n  return kv.set(`claim:${id}`, '1', { nx: true });\n}\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'lib/index.ts': barrel, 'lottery.ts': LOTTERY, 'claim.ts': viaBarrel }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'])).toEqual([NX_ARM]);
    const persistentViaBarrel = "import { kv } from './lib';\nexport async function seed() {\n  return kv.set('lottery:records:day', '0', { nx: true });\n}\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'lib/index.ts': barrel, 'lottery.ts': LOTTERY, 'seed.ts': persistentViaBarrel }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'])).toEqual([]);
    const namespace = "import * as redis from './lib/redis';\nexport const store = redis;\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'lottery.ts': LOTTERY, 'ns.ts': namespace }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'])).toEqual([NX_ARM]);
  });

  it('the object handed on as a value leaves the callers unknown', () => {
    const handed = "import { kv } from './lib/redis';\nexport function register(r: (s: unknown) => void) { r(kv); }\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'lottery.ts': LOTTERY, 'reg.ts': handed }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'])).toEqual([NX_ARM]);
  });

  it('no caller found: today\'s behaviour (an object-literal method is never taken for uncalled code)', () => {
    const unrelated = "import { kv } from './lib/redis';\nexport async function remember(id: string, v: string) {\n  return kv.replaceList(`list:${id}`, [v]);\n}\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'list.ts': unrelated }, 'lib/redis.ts', { [SET]: {} }, ['lottery:records*'])).toEqual([NX_ARM]);
  });

  it('callers found, none reaching the arm: code no caller runs, left out by allowUncalledCode and reported by strict', () => {
    const noNx = "import { kv } from './lib/redis';\nexport async function remember(id: string, v: string) {\n  return kv.set(`cache:${id}`, v, { ex: 60 });\n}\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'cache.ts': noNx }, 'lib/redis.ts', { [SET]: {} }, [])).toEqual([]);
    expect(lintApp({ 'lib/redis.ts': KV, 'cache.ts': noNx }, 'lib/redis.ts', { [SET]: { allowUncalledCode: false } }, [])).toEqual([NX_ARM]);
  });

  it('a bounded (constant) key at every reaching caller is left alone by allowConstantKeys, reported without it', () => {
    const constant = "import { kv } from './lib/redis';\nexport async function once() {\n  return kv.set('migrations:done', '1', { nx: true });\n}\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'once.ts': constant }, 'lib/redis.ts', { [SET]: {} }, [])).toEqual([]);
    expect(lintApp({ 'lib/redis.ts': KV, 'once.ts': constant }, 'lib/redis.ts', { [SET]: { allowConstantKeys: false } }, [])).toEqual([NX_ARM]);
  });
});

/** A wrapper class whose zadd (line 9, column 24) is no pass-through (more than a forward); an exported const holds one of two implementations. */
const STORE = `import Redis from 'ioredis';
type Entry = { score: number; member: string };
export type Store = { zadd: (key: string, ...items: Entry[]) => Promise<number> };
class RedisStore {
  constructor(private client: Redis) {}
  async zadd(key: string, ...items: Entry[]) {
    if (items.length === 0) return 0;
    const [first] = items;
    return this.client.zadd(key, first!.score, first!.member);
  }
}
class MemoryStore {
  async zadd(_key: string, ...items: Entry[]) { return items.length; }
}
export const store: Store = process.env.MEMORY ? (new MemoryStore() as Store) : (new RedisStore(new Redis()) as Store);
`;

describe('a wrapper class held by an exported const', () => {
  const queue = (key: string) => `import { store } from './store';\nconst NS = process.env.NS ?? 'dev';\nconst KEY = { scheduled: (q: string) => \`\${NS}:q:\${q}:scheduled\`, tmp: (q: string) => \`\${NS}:tmp:\${q}\` };\nexport async function schedule(q: string, m: string) {\n  await store.zadd(${key}, { score: Date.now(), member: m });\n}\n`;

  it('every caller passes a key under a declared-persistent pattern: left alone', () => {
    expect(lintApp({ 'store.ts': STORE, 'queue.ts': queue('KEY.scheduled(q)') }, 'store.ts', { [INCR]: {} }, ['*:q:*:scheduled'])).toEqual([]);
  });

  it('a caller passing a key outside the pattern keeps the finding', () => {
    expect(lintApp({ 'store.ts': STORE, 'queue.ts': queue('KEY.tmp(q)') }, 'store.ts', { [INCR]: {} }, ['*:q:*:scheduled'])).toEqual([[INCR, 'noExpiry', 9, 24]]);
  });

  it('an exported class (another module may make its own instance) keeps the finding', () => {
    const exported = STORE.replace('class RedisStore', 'export class RedisStore');
    expect(lintApp({ 'store.ts': exported, 'queue.ts': queue('KEY.scheduled(q)') }, 'store.ts', { [INCR]: {} }, ['*:q:*:scheduled'])).toEqual([[INCR, 'noExpiry', 9, 24]]);
  });
});

describe('embedded Lua: KEYS given by a wrapper method\'s callers', () => {
  it('every caller passes a persistent key: the script\'s RPUSH is left alone (helper-keys.ts reads these callers too); a run-time key keeps it', () => {
    const persistent = "import { kv } from './lib/redis';\nexport async function rewrite(items: string[]) {\n  await kv.replaceList('queue:pending', items);\n}\n";
    expect(lintApp({ 'lib/redis.ts': KV, 'rec.ts': persistent }, 'lib/redis.ts', { [LUA]: {} }, ['queue:*'])).toEqual([]);
    const runtime = "import { kv } from './lib/redis';\nexport async function rewrite(id: string, items: string[]) {\n  await kv.replaceList(`list:${id}`, items);\n}\n";
    const found = lintApp({ 'lib/redis.ts': KV, 'rec.ts': persistent, 'run.ts': runtime }, 'lib/redis.ts', { [LUA]: {} }, ['queue:*']);
    expect(found).toEqual([[LUA, 'luaFinding', 15, 68]]);
  });
});

/** A client exported with a command defined from a script (its LPUSH reported at line 5, column 69); the calls are in other modules. */
const CLIENT = `import Redis from 'ioredis';
export const redis = new Redis();
redis.defineCommand('idempotentEnqueue', {
  numberOfKeys: 2,
  lua: "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', 60) then redis.call('LPUSH', KEYS[2], ARGV[1]) end return 1",
});
`;

describe('embedded Lua: a command defined on an exported client, called from other modules', () => {
  const enqueue = (key: string) => `import { redis } from './client';\nexport async function add(q: string, id: string) {\n  const waitList = ${key};\n  return (redis as any).idempotentEnqueue(\`idem:\${id}\`, waitList, id);\n}\n`;

  it('every call elsewhere passes a persistent KEYS[2]: left alone', () => {
    expect(lintApp({ 'client.ts': CLIENT, 'queue.ts': enqueue('`queue:${q}:waiting`') }, 'client.ts', { [LUA]: {} }, ['queue:*'])).toEqual([]);
  });

  it('a call passing a run-time key keeps the finding; so does a library (its callers are unknown)', () => {
    expect(lintApp({ 'client.ts': CLIENT, 'queue.ts': enqueue('`tmp:${q}`') }, 'client.ts', { [LUA]: {} }, ['queue:*'])).toEqual([[LUA, 'luaFinding', 5, 69]]);
    const library = '{ "name": "queue-lib", "version": "1.0.0", "main": "index.js" }';
    expect(lintApp({ 'client.ts': CLIENT, 'queue.ts': enqueue('`queue:${q}:waiting`') }, 'client.ts', { [LUA]: {} }, ['queue:*'], library)).toEqual([[LUA, 'luaFinding', 5, 69]]);
  });

  it('a test calling it is no caller; no call at all keeps the finding', () => {
    const spec = "import { redis } from '../client';\nexport async function t(id: string) {\n  return (redis as any).idempotentEnqueue(`idem:${id}`, `tmp:${id}`, id);\n}\n";
    expect(lintApp({ 'client.ts': CLIENT, 'queue.ts': enqueue('`queue:${q}:waiting`'), 'test/q.test.ts': spec }, 'client.ts', { [LUA]: {} }, ['queue:*'])).toEqual([]);
    expect(lintApp({ 'client.ts': CLIENT }, 'client.ts', { [LUA]: {} }, ['queue:*'])).toEqual([[LUA, 'luaFinding', 5, 69]]);
  });
});
