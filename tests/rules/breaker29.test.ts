/**
 * Breaker round 29: odd but realistic code against the round's new readings (storage backends,
 * script keys fixed to one key, declared keys through sprintf / join builders and listings,
 * adapters and proxies, code nothing calls). Each case is a leak a reading hid, or a finding
 * nobody would fix, and the result it must give.
 */
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintSnippet } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const SET = 'set-requires-ttl-or-keepttl';
const MANIFEST = '{ "name": "store" }';

const REPO_TYPES = `export interface UserRepository {
  findById(id: string): Promise<string | null>;
  save(id: string, user: string): Promise<void>;
  delete(id: string): Promise<void>;
}
`;
const REPO_PG = `import { Pool } from 'pg';
import type { UserRepository } from './types';
const pool = new Pool();
export class PgUserRepository implements UserRepository {
  async findById(id: string) { return (await pool.query('SELECT u FROM users WHERE id = $1', [id])).rows[0]?.u ?? null; }
  async save(id: string, user: string) { await pool.query('INSERT INTO users VALUES ($1, $2)', [id, user]); }
  async delete(id: string) { await pool.query('DELETE FROM users WHERE id = $1', [id]); }
}
`;
/** A cache in front of the Postgres repository (a decorator of the same interface): lines 8 and 13 write. */
const REPO_CACHED = `import { createClient } from 'redis';
import type { UserRepository } from './types';
const client = createClient();
export class CachedUserRepository implements UserRepository {
  constructor(private readonly inner: UserRepository) {}
  async findById(id: string) {
    const hit = await client.get(\`user:\${id}\`);
    if (hit) return hit;
    const user = await this.inner.findById(id);
    if (user) await client.set(\`user:\${id}\`, user);
    return user;
  }
  async save(id: string, user: string) {
    await this.inner.save(id, user);
    await client.set(\`user:\${id}\`, user);
  }
  async delete(id: string) {
    await this.inner.delete(id);
    await client.del(\`user:\${id}\`);
  }
}
`;

const COPIES = [[SET, 'deletedElsewhere', 10, 28], [SET, 'deletedElsewhere', 15, 18]];

describe('storage backends: a cache in front of the database implementing its interface', () => {
  it('is no backend the application runs on in place of the database: its copies stay reported', () => {
    const found = lintApplication(roots, { 'src/types.ts': REPO_TYPES, 'src/pg.ts': REPO_PG, 'src/cached.ts': REPO_CACHED }, 'src/cached.ts', { [SET]: { allowDeletedKeys: false } }, [], MANIFEST);
    expect(found).toEqual(COPIES);
    const off = lintApplication(roots, { 'src/types.ts': REPO_TYPES, 'src/pg.ts': REPO_PG, 'src/cached.ts': REPO_CACHED }, 'src/cached.ts', { [SET]: { allowDeletedKeys: false, allowStorageBackends: false } }, [], MANIFEST);
    expect(off).toEqual(COPIES);
  });
});

const LUA = 'redis-ttl/embedded-lua';
const lintLua = (code: string) => lintSnippet(code, { [LUA]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);
const head = "import Redis from 'ioredis';\nconst redis = new Redis();\n";
const script = (lua: string, call: string) => `${head}const S = \`\nredis.call('SET', KEYS[1], ARGV[2])\n${lua}\n\`;\nexport const w = (id: string, v: string) => ${call};\n`;

describe('embedded-lua allowConstantKeys: a fixed key the script renames or copies to another key', () => {
  it('hands its value, without TTL, to one key per call: reported', () => {
    // `state` is one key, but RENAME moves it to `state:<id>` at every call
    expect(lintLua(script("redis.call('RENAME', KEYS[1], KEYS[1] .. ':' .. ARGV[1])", "redis.eval(S, 1, 'state', id, v)"))).toEqual([[LUA, 'luaFinding', 4, 1]]);
    expect(lintLua(script("redis.call('RENAME', KEYS[1], KEYS[2])", "redis.eval(S, 2, 'state', `state:${id}`, id, v)"))).toEqual([[LUA, 'luaFinding', 4, 1]]);
    expect(lintLua(script("redis.call('COPY', KEYS[1], KEYS[2])", "redis.eval(S, 2, 'state', `state:${id}`, id, v)"))).toEqual([[LUA, 'luaFinding', 4, 1]]);
    expect(lintLua(script("redis.call('RENAME', KEYS[1], ARGV[1])", "redis.eval(S, 1, 'state', id, v)"))).toEqual([[LUA, 'luaFinding', 4, 1]]);
  });
  it('to a literal key or another fixed KEYS[i]: still one key each, not reported', () => {
    expect(lintLua(script("redis.call('RENAME', KEYS[1], 'state:old')", "redis.eval(S, 1, 'state', id, v)"))).toEqual([]);
    expect(lintLua(script("redis.call('COPY', KEYS[1], KEYS[2])", "redis.eval(S, 2, 'state', 'state:backup', id, v)"))).toEqual([]);
  });
});

const STORE_TYPES = `export interface Store { save(id: string, v: string): Promise<void>; remove(id: string): Promise<void> }\n`;
const STORE_PG = `import { Pool } from 'pg';\nimport type { Store } from './types';\nconst pool = new Pool();\nexport class PgStore implements Store {\n  async save(id: string, v: string) { await pool.query('x', [id, v]); }\n  async remove(id: string) { await pool.query('y', [id]); }\n}\n`;
/** The Redis store (its class body from line 5). */
const redisStore = (body: string) => `import { createClient } from 'redis';\nimport type { Store } from './types';\nconst client = createClient();\nexport class RedisStore implements Store {\n${body}\n}\n`;
const lintStore = (body: string) =>
  lintApplication(roots, { 'src/types.ts': STORE_TYPES, 'src/pg.ts': STORE_PG, 'src/redis.ts': redisStore(body) }, 'src/redis.ts', { [SET]: { allowDeletedKeys: false } }, [], MANIFEST);
const RECORD = '  async save(id: string, v: string) { await client.set(`rec:${id}`, v); }\n  async remove(id: string) { await client.del(`rec:${id}`); }';

describe('storage backends: a shim that drops the TTL its callers give', () => {
  it('is no forward of the client: its SET stays reported', () => {
    // callers of `compat.setEx(key, 60, v)` mean the key to expire; the shim writes it for good
    expect(lintStore(`  compat = {\n    setEx: (key: string, seconds: number, v: string) => client.set(key, v),\n  };\n${RECORD}`)).toEqual([[SET, 'setWithoutTtl', 6, 64]]);
    // forwarding every parameter, it is the backend's shim
    expect(lintStore(`  compat = {\n    setEx: (key: string, seconds: number, v: string) => client.set(key, v, { EX: seconds }),\n    set: (key: string, v: string) => client.set(key, v),\n  };\n${RECORD}`)).toEqual([]);
  });
});

describe("storage backends: a delete in a helper of the store's methods", () => {
  const purge = '  private async purge(id: string) { await client.del(`rec:${id}`); }';
  it('counts when a delete method of the store calls it', () => {
    expect(lintStore(`  async save(id: string, v: string) { await client.set(\`rec:\${id}\`, v); }\n  async remove(id: string) { await this.purge(id); }\n${purge}`)).toEqual([]);
    expect(lintStore(`  async save(id: string, v: string) { await this.purge(id); await client.set(\`rec:\${id}\`, v); }\n  async remove(id: string) { await this.purge(id); }\n${purge}`)).toEqual([]);
  });
  it('not when only the writing method calls it (clearing the record before writing it again)', () => {
    expect(lintStore(`  async save(id: string, v: string) { await this.purge(id); await client.set(\`rec:\${id}\`, v); }\n  async remove(id: string) { await client.hDel('x', id); }\n${purge}`)).toEqual([[SET, 'deletedElsewhere', 5, 74]]);
  });
});

/** An error-safe INCR (line 5) and a limited one, handed out by a client Proxy. */
const proxied = (handler: string) => `import { Redis } from '@upstash/redis';
const client = new Redis({ url: 'https://example.upstash.io', token: 't' });
async function safeIncr(key: string): Promise<number> {
  try {
    return await client.incr(key);
  } catch {
    return 0;
  }
}
async function limitedIncr(key: string): Promise<number> {
  const n = await client.incr(key);
  if (n === 1) await client.expire(key, 60);
  return n;
}
export const redis: Redis = new Proxy({} as Redis, {
  get(_target, prop) {
${handler}
  },
});
`;
const INCR = 'incr-needs-expire-on-create';
const lintProxy = (handler: string) =>
  lintApplication(roots, { 'src/safe.ts': proxied(handler), 'src/use.ts': "import { redis } from './safe';\nexport const hit = (id: string) => redis.incr(`hits:${id}`);\n" }, 'src/safe.ts', { [INCR]: {} }, [])
    .filter(([, , line]) => line === 5);

describe('a function a client Proxy hands out in the else of a command name test', () => {
  it('is handed out under every other name, not the command\'s: judged where it is', () => {
    expect(lintProxy("    if (prop === 'incr') return safeIncr;\n    return undefined;")).toEqual([]);
    expect(lintProxy("    if (prop === 'incr') return limitedIncr;\n    else return safeIncr;")).toEqual([[INCR, 'noExpiry', 5, 25]]);
    expect(lintProxy("    if (prop === 'incr') {\n      return limitedIncr;\n    } else {\n      return safeIncr;\n    }")).toEqual([[INCR, 'noExpiry', 5, 25]]);
  });
});

describe('a queued bare SET in the no-TTL arm of a caller-chosen TTL', () => {
  const shim = readFileSync('tests/fixtures/adapter-apps/app/src/shim.ts', 'utf8');
  const lintShim = (caller: string) => lintApplication(roots, { 'src/shim.ts': shim + caller }, 'src/shim.ts', { [SET]: {} }, []).filter(([, , line]) => line === 17);
  const caller = (args: string) => `export async function lock(shim: Shim, id: string, mode: string, ttl: number) {\n  await shim.set(\`lock:\${id}\`, '1', ${args}).exec();\n}\n`;
  it("runs for a caller whose options are not the 'EX' the shim looks for", () => {
    // `args.indexOf('EX')` is -1 for 'NX' or 'PX': the bare SET is written, for good
    expect(lintShim(caller("'NX'"))).toEqual([[SET, 'setWithoutTtl', 17, 39]]);
    expect(lintShim(caller("'PX', 5000"))).toEqual([[SET, 'setWithoutTtl', 17, 39]]);
    // 'EX', or options the rules cannot read, are the caller's choice
    expect(lintShim(caller("'EX', 300"))).toEqual([]);
    expect(lintShim(caller('mode, ttl'))).toEqual([]);
  });
});

describe('storage backends: an index written beside a record a helper gives a TTL', () => {
  const types = `export interface Store { saveOtp(user: string, code: string): Promise<void>; deleteUser(user: string): Promise<void> }\n`;
  const pg = `import { Pool } from 'pg';\nimport type { Store } from './types';\nconst pool = new Pool();\nexport class PgStore implements Store {\n  async saveOtp(user: string, code: string) { await pool.query('x', [user, code]); }\n  async deleteUser(user: string) { await pool.query('y', [user]); }\n}\n`;
  const lintOtp = (body: string) =>
    lintApplication(roots, { 'src/types.ts': types, 'src/pg.ts': pg, 'src/redis.ts': redisStore(body) }, 'src/redis.ts', { [INCR]: { allowDeletedKeys: false } }, [], MANIFEST);
  it('stays reported: the code expires, the store\'s delete never runs for it', () => {
    // the one-time code expires after 5 minutes; its entry in `otps:<user>` stays until the user is deleted
    const save = '  async saveOtp(user: string, code: string) {\n    await this.putOtp(code, user);\n    await client.sAdd(`otps:${user}`, code);\n  }\n';
    const put = '  private async putOtp(code: string, user: string) { await client.set(`otp:${code}`, user, { EX: 300 }); }\n';
    expect(lintOtp(`${save}${put}  async deleteUser(user: string) { await client.del(\`otps:\${user}\`); }`)).toEqual([[INCR, 'noExpiry', 7, 18]]);
    // the helper gives no TTL: a record of the store
    expect(lintOtp(`${save}${put.replace(', { EX: 300 }', '')}  async deleteUser(user: string) { await client.del(\`otps:\${user}\`); await client.del('otp:x'); }`).filter(([, , line]) => line === 7)).toEqual([]);
  });
});
