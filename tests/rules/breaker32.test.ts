/**
 * Breaker round 32: odd but realistic code against the round's new readings (an EXPIRE later in
 * the MULTI counted only when queued whenever the write is, keys of stored records, static helper
 * classes, redisIsDatabase, ...). Each case is a leak a reading hid, or a finding nobody would
 * fix, and the result it must give.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { lintKeyRules, lintWriteRules, writeProject } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const app = (body: string): string =>
  `declare function loadTtl(): Promise<number>;\nimport Redis from 'ioredis';\nconst redis = new Redis();\nexport async function save(id: string, v: string, fresh: boolean) {\n  const tx = redis.multi();\n${body}\n  await tx.exec();\n}\n`;
const SET = 'redis-ttl/set-requires-ttl-or-keepttl';
const INCR = 'redis-ttl/incr-needs-expire-on-create';

describe('an EXPIRE later in the MULTI: queued whenever the write is', () => {
  it('every arm of an if / else or a conditional queues an EXPIRE of the key: no finding', () => {
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  if (fresh) tx.expire(`user:${id}`, 60);\n  else tx.expire(`user:${id}`, 120);'))).toEqual([]);
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  fresh ? tx.expire(`user:${id}`, 60) : tx.expire(`user:${id}`, 120);'))).toEqual([]);
    expect(lintKeyRules(app('  tx.incr(`hits:${id}`);\n  if (fresh) {\n    tx.expire(`hits:${id}`, 60);\n  } else if (v) {\n    tx.pexpire(`hits:${id}`, 120_000);\n  } else {\n    tx.expire(`hits:${id}`, 30);\n  }'))).toEqual([]);
  });

  it('an arm without one (a missing else, an else-if without else) still leaves the key without TTL: reported', () => {
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  if (fresh) tx.expire(`user:${id}`, 60);\n  else tx.persist(`user:${id}`);'))).toEqual([[SET, 'setWithoutTtl', 6, 6]]);
    expect(lintKeyRules(app('  tx.incr(`hits:${id}`);\n  if (fresh) tx.expire(`hits:${id}`, 60);\n  else if (v) tx.expire(`hits:${id}`, 120);'))).toEqual([[INCR, 'noExpiry', 6, 6]]);
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  if (fresh) tx.expire(`user:${id}`, 60);\n  else tx.expire(`other:${id}`, 120);'))).toEqual([[SET, 'setWithoutTtl', 6, 6]]);
  });

  it('an await between the write and its EXPIRE that may throw into a catch, the MULTI sent after it: reported', () => {
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  try {\n    const ttl = await loadTtl();\n    tx.expire(`user:${id}`, ttl);\n  } catch {}'))).toEqual([[SET, 'setWithoutTtl', 6, 6]]);
    expect(lintKeyRules(app('  tx.incr(`hits:${id}`);\n  try {\n    const ttl = await loadTtl();\n    tx.expire(`hits:${id}`, ttl);\n  } catch (err) {\n    console.warn(err);\n  }'))).toEqual([[INCR, 'noExpiry', 6, 6]]);
    expect(lintKeyRules(app('  try {\n    tx.set(`user:${id}`, v);\n    const ttl = await loadTtl();\n    tx.expire(`user:${id}`, ttl);\n  } catch {}'))).toEqual([[SET, 'setWithoutTtl', 7, 8]]);
  });

  it('the throw skips the exec too (sent inside the try), or nothing between may throw: no finding', () => {
    expect(lintKeyRules(app('  try {\n    tx.set(`user:${id}`, v);\n    const ttl = await loadTtl();\n    tx.expire(`user:${id}`, ttl);\n    await tx.exec();\n  } catch {}'))).toEqual([]);
    expect(lintKeyRules(app('  const ttl = await loadTtl();\n  tx.set(`user:${id}`, v);\n  try {\n    tx.expire(`user:${id}`, ttl);\n  } catch {}'))).toEqual([]);
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  const ttl = await loadTtl();\n  tx.expire(`user:${id}`, ttl);'))).toEqual([]);
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  try {\n    const ttl = await loadTtl();\n    tx.expire(`user:${id}`, ttl);\n  } catch (err) {\n    throw new Error(`no ttl: ${err}`);\n  }'))).toEqual([]);
  });
});

const records = (body: string): string => `declare const Post: any;\nimport Redis from 'ioredis';\nconst redis = new Redis();\nexport async function mirror(v: string) {\n${body}\n}\n`;

describe('keys of stored records: only the awaited listing itself', () => {
  it('what a .then callback makes of the listing is not the records: reported', () => {
    expect(lintKeyRules(records('  const stamps = await Post.find({}).then((ps: Array<{ id: string }>) => ps.map((p) => p.id + Date.now()));\n  for (const s of stamps) await redis.set(`seen:${s}`, v);'))).toEqual([[SET, 'setWithoutTtl', 6, 39]]);
  });
  it('a property destructured in the for...of head is one per stored record, as `row.id` is: no finding', () => {
    expect(lintKeyRules(records('  for (const { id } of await Post.findMany()) await redis.set(`post:${id}`, v);'))).toEqual([]);
    expect(lintKeyRules(records('  for (const { id: postId, title = \'\' } of await Post.findMany()) await redis.set(`post:${postId}`, title);'))).toEqual([]);
  });
  it('destructured from the request, or a nested property: still reported', () => {
    expect(lintKeyRules(records('  for (const { id } of (globalThis as any).items) await redis.set(`post:${id}`, v);'))).toEqual([[SET, 'setWithoutTtl', 5, 63]]);
    expect(lintKeyRules(records('  for (const { author: { id } } of await Post.findMany()) await redis.set(`post:${id}`, v);'))).toEqual([[SET, 'setWithoutTtl', 5, 71]]);
  });
  it('the listing with its query modifiers stays bounded', () => {
    expect(lintKeyRules(records('  const posts = await Post.find({}).sort({ at: -1 }).lean().exec();\n  for (const p of posts) await redis.set(`post:${p.id}`, v);'))).toEqual([]);
  });
});

/** A static helper class (lines 3-6), its callers from line 7. */
const statics = (body: string): string =>
  `import Redis from 'ioredis';\nconst redis = new Redis();\nexport class RedisHelper {\n  static async incr(key: string) { return redis.incr(key); }\n  static async set(key: string, v: string) { return redis.set(key, v); }\n}\n${body}\n`;

describe('a static helper class: the wrapper no longer reported, so every caller must be read', () => {
  it('called through a const holding the class (as `const h = helper` holds an instance): reported at the caller', () => {
    expect(lintWriteRules(statics('const H = RedisHelper;\nexport const hit = (id: string) => H.incr(`hits:${id}`);'))).toEqual([['incr-needs-expire-on-create', 'noExpiry', 8, 38, '4']]);
    expect(lintWriteRules(statics('const H = RedisHelper;\nconst J = H;\nexport const save = (id: string, v: string) => J.set(`user:${id}`, v);'))).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 9, 50, '5']]);
  });
});

/** A CommonJS module exporting a singleton whose class a library calls by its interface (`increment`, line 4), linted as `src/utils.js`. */
const UTILS = [
  "const redis = require('redis').createClient();",
  'class Limiter {',
  '  async increment(user) {',
  '    const n = await redis.incr(`rate:${user}`);',
  '    if (n === 1) await redis.expire(`rate:${user}`, 60);',
  '    return n;',
  '  }',
  '}',
  'function ping() {',
  '  return redis.ping();',
  '}',
  'const limiter = new Limiter();',
  'module.exports = {',
  '  limiter,',
  '  ping,',
  '};',
  '',
].join('\n');

function lintUtils(server: string, utils = UTILS): Array<[number, number, string | undefined]> {
  const root = writeProject(roots, { 'package.json': JSON.stringify({ name: 'app', private: true, scripts: { start: 'node server.js' } }), 'src/utils.js': utils, 'server.js': server });
  const filename = join(root, 'src/utils.js');
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [{ files: ['**/*.ts', '**/*.js'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [INCR]: ['error', {}] } as Linter.RulesRecord }];
  return linter.verify(readFileSync(filename, 'utf8'), config, { filename }).map((m) => [m.line, m.column, m.messageId]);
}

describe('a CommonJS singleton: its export is no use, so a use through the module object must count', () => {
  it('handed to a library as a member of the module object (`{ store: utils.limiter }`): reported', () => {
    expect(lintUtils("const utils = require('./src/utils');\nutils.ping();\nrequire('express-rate-limit')({ store: utils.limiter });\n")).toEqual([[4, 27, 'separateRoundTrip']]);
    expect(lintUtils("const utils = require('./src/utils');\nutils.ping();\nrequire('express-rate-limit')({ store: utils.limiter });\n", UTILS.replace('module.exports = {\n  limiter,\n  ping,\n};', 'exports.limiter = limiter;\nexports.ping = ping;'))).toEqual([[4, 27, 'separateRoundTrip']]);
  });
  it('the module object used only for another export: the singleton still leaves the module nowhere', () => {
    expect(lintUtils("const utils = require('./src/utils');\nutils.ping();\n")).toEqual([]);
  });
});

/** [line, column, messageId] of `expire-needs-positive-ttl` on a SET of `session:<id>` with the TTL `Math.floor(ttlMs / 1000)`, `ttlMs` declared as `init`. */
function sessionTtl(init: string): Array<[number, number, string | undefined]> {
  const code = [
    "import Redis from 'ioredis';",
    'const redis = new Redis();',
    `const ttlMs = ${init};`,
    "export const open = (id: string) => redis.set(`session:${id}`, '1', 'EX', Math.floor(ttlMs / 1000));",
    '',
  ].join('\n');
  const linter = new Linter({ configType: 'flat' });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/expire-needs-positive-ttl': 'error' } as Linter.RulesRecord }];
  return linter.verify(code, config, { filename: 'app.ts' }).map((m) => [m.line, m.column, m.messageId]);
}

describe('a duration from the environment with a fallback', () => {
  it('`?? fallback` after Number / parseInt never applies (NaN when unset): reported as with no fallback', () => {
    expect(sessionTtl('Number(process.env.SESSION_TTL_MS) ?? 60_000')).toEqual([[4, 75, 'computed']]);
    expect(sessionTtl('parseInt(process.env.SESSION_TTL_MS, 10) ?? 60_000')).toEqual([[4, 75, 'computed']]);
    expect(sessionTtl('Number(process.env.SESSION_TTL_MS)')).toEqual([[4, 75, 'computed']]);
  });
  it('the fallback inside the conversion, or after it with ||: an amount its operator chose', () => {
    expect(sessionTtl("Number(process.env.SESSION_TTL_MS ?? '60000')")).toEqual([]);
    expect(sessionTtl('Number(process.env.SESSION_TTL_MS) || 60_000')).toEqual([]);
  });
});
