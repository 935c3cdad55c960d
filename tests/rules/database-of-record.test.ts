/**
 * Redis as the application's database of record (redis-calls/database-of-record.ts): a per-entity
 * record (hash, set, sorted set, string keyed by an id) whose key shape no code of the package
 * gives a TTL is kept on purpose when `settings['redis-ttl'].redisIsDatabase` is true, or, with
 * `'infer'`, when the package's package.json names a Redis client and no other database
 * (`recommended` only: `allowStorageBackends`). Unset, nothing is inferred. Keys named temporary, families the code expires on another path,
 * counters, streams and SET NX stay reported. Each case writes a small package to a temporary
 * folder and lints one module of it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { mayNameSameKey } from '../../redis-calls/database-of-record.js';
import { writeProject } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const INCR = 'incr-needs-expire-on-create';
const SET = 'set-requires-ttl-or-keepttl';
const STRICT = { allowStorageBackends: false };
const INFER = { redisIsDatabase: 'infer' };

const REDIS_ONLY = '{ "name": "relay", "private": true, "dependencies": { "ioredis": "^5.4.0", "express": "^4.19.0" } }';
const WITH_PG = '{ "name": "relay", "private": true, "dependencies": { "ioredis": "^5.4.0", "pg": "^8.11.0" } }';
const WITH_SUPABASE = '{ "name": "relay", "private": true, "dependencies": { "ioredis": "^5.4.0" }, "devDependencies": { "@supabase/supabase-js": "^2.0.0" } }';

/** The store: lines 4 and 7 write records, 10 a session, 13 a family oauth.ts expires, 16 a counter, 19 a stream, 22 a lock. */
const STORE = `import Redis from 'ioredis';
const redis = new Redis();
export async function saveUser(id: string, data: Record<string, string>) {
  await redis.hset(\`user:\${id}\`, data);
}
export async function addUsage(id: string, n: number) {
  await redis.hincrby(\`usage:\${id}\`, 'totalTokens', n);
}
export async function saveSession(id: string, data: Record<string, string>) {
  await redis.hset(\`session:\${id}\`, data);
}
export async function saveFlow(state: string, data: Record<string, string>) {
  await redis.hset(\`oauth:\${state}\`, data);
}
export async function countHit(ip: string) {
  await redis.incr(\`hits:\${ip}\`);
}
export async function audit(id: string, line: string) {
  await redis.xadd(\`audit:\${id}\`, '*', 'line', line);
}
export async function claim(id: string, owner: string) {
  await redis.set(\`claim:\${id}\`, owner, 'NX');
}
`;

/** Another module gives `oauth:*` a TTL on its own path: the family is meant to expire. */
const OAUTH = `import Redis from 'ioredis';
const redis = new Redis();
export async function touchFlow(state: string) {
  await redis.expire(\`oauth:\${state}\`, 600);
}
`;

/** Findings `[rule, messageId, line, column]` of both write rules on `target`, with `settings` and each rule's `options`. */
function lint(manifest: string, files: Record<string, string>, target: string, settings: Record<string, unknown> = INFER, options: Record<string, unknown> = {}): Finding[] {
  const root = writeProject(roots, { 'package.json': manifest, ...files });
  const file = join(root, target);
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser },
      plugins: { 'redis-ttl': plugin },
      settings: { 'redis-ttl': settings },
      rules: { [`redis-ttl/${INCR}`]: ['error', options], [`redis-ttl/${SET}`]: ['error', options] } as Linter.RulesRecord,
    },
  ];
  return linter.verify(readFileSync(file, 'utf8'), config, { filename: file }).map((m) => [m.ruleId?.replace('redis-ttl/', ''), m.messageId, m.line, m.column]);
}

/** A finding: rule (without `redis-ttl/`), messageId, line, column. */
type Finding = [string | undefined, string | undefined, number, number];

const FILES = { 'src/store.ts': STORE, 'src/oauth.ts': OAUTH };
/** What stays reported in a Redis-only package: the session, the family expired elsewhere, the counter, the stream, the SET NX. */
const KEPT: Finding[] = [
  [INCR, 'noExpiry', 10, 15],
  [INCR, 'noExpiry', 13, 15],
  [INCR, 'noExpiry', 16, 15],
  [INCR, 'noExpiry', 19, 15],
  [SET, 'createWithoutTtl', 22, 15],
];
const ALL: Finding[] = [[INCR, 'noExpiry', 4, 15], [INCR, 'noExpiry', 7, 15], ...KEPT];

const sorted = (findings: Finding[]) => [...findings].sort((a, b) => a[2] - b[2]);

describe('Redis as the database of record', () => {
  it("'infer': a package naming a Redis client and no other database keeps its per-entity records", () => {
    expect(sorted(lint(REDIS_ONLY, FILES, 'src/store.ts'))).toEqual(KEPT);
  });

  it('not inferred when the package names another database, a dev dependency or a scope included', () => {
    expect(sorted(lint(WITH_PG, FILES, 'src/store.ts'))).toEqual(ALL);
    expect(sorted(lint(WITH_SUPABASE, FILES, 'src/store.ts'))).toEqual(ALL);
  });

  it('not inferred when the workspace root above the package names another database', () => {
    const files = { 'apps/relay/package.json': REDIS_ONLY, 'apps/relay/src/store.ts': STORE, 'apps/relay/src/oauth.ts': OAUTH };
    const root = '{ "name": "mono", "private": true, "workspaces": ["apps/*"], "dependencies": { "drizzle-orm": "^0.30.0" } }';
    expect(sorted(lint(root, files, 'apps/relay/src/store.ts'))).toEqual(ALL);
  });

  it('not inferred in a published library (exports, types, files): its keys are its users\' data', () => {
    const library = '{ "name": "store-lib", "main": "dist/index.js", "types": "dist/index.d.ts", "dependencies": { "ioredis": "^5.4.0" } }';
    expect(sorted(lint(library, FILES, 'src/store.ts'))).toEqual(ALL);
  });

  it('not inferred in a package that names no Redis client', () => {
    expect(sorted(lint('{ "name": "relay", "private": true }', FILES, 'src/store.ts'))).toEqual(ALL);
  });

  it('declared: redisIsDatabase true applies beside another database, and in strict', () => {
    expect(sorted(lint(WITH_PG, FILES, 'src/store.ts', { redisIsDatabase: true }))).toEqual(KEPT);
    expect(sorted(lint(REDIS_ONLY, FILES, 'src/store.ts', { redisIsDatabase: true }, STRICT))).toEqual(KEPT);
  });

  it('unset or false: nothing is inferred; strict does not infer', () => {
    expect(sorted(lint(REDIS_ONLY, FILES, 'src/store.ts', {}))).toEqual(ALL);
    expect(sorted(lint(REDIS_ONLY, FILES, 'src/store.ts', { redisIsDatabase: false }))).toEqual(ALL);
    expect(sorted(lint(REDIS_ONLY, FILES, 'src/store.ts', INFER, STRICT))).toEqual(ALL);
  });

  it('rejects a redisIsDatabase that is not a boolean', () => {
    expect(() => lint(REDIS_ONLY, FILES, 'src/store.ts', { redisIsDatabase: 'yes' })).toThrow("settings['redis-ttl'].redisIsDatabase must be true, false or 'infer'");
  });

  it('a key spelled by its id alone is a record only in a package that gives no key a TTL', () => {
    const ledger = `import Redis from 'ioredis';
const redis = new Redis();
export async function credit(uid: string, txHash: string, amount: number) {
  await redis.hincrby(uid, 'balance', amount);
  await redis.hset(txHash, 'amount', String(amount));
}
`;
    expect(lint(REDIS_ONLY, { 'src/ledger.ts': ledger }, 'src/ledger.ts')).toEqual([]);
    // another module expires some key: nothing says which family the bare ids are
    expect(sorted(lint(REDIS_ONLY, { 'src/ledger.ts': ledger, 'src/oauth.ts': OAUTH }, 'src/ledger.ts'))).toEqual([
      [INCR, 'noExpiry', 4, 15],
      [INCR, 'noExpiry', 5, 15],
    ]);
  });

  it('a record family the code expires on another path of the same file stays reported', () => {
    const api = `import Redis from 'ioredis';
const redis = new Redis();
export async function setApiKey(id: string, data: Record<string, string>, ttl = 0) {
  await redis.hset(\`apikey:\${id}\`, data);
  if (ttl > 0) await redis.expire(\`apikey:\${id}\`, ttl);
}
export async function restoreApiKey(id: string, data: Record<string, string>) {
  await redis.hset(\`apikey:\${id}\`, data);
}
`;
    // judged as without the reading: the HSET whose EXPIRE follows in another round trip (line 4)
    // is reported; the restore (line 8) is the existing rules' update of a key created with a TTL
    const off = sorted(lint(REDIS_ONLY, { 'src/api.ts': api }, 'src/api.ts', { redisIsDatabase: false }));
    expect(off).toEqual([[INCR, 'separateRoundTrip', 4, 15]]);
    expect(sorted(lint(REDIS_ONLY, { 'src/api.ts': api }, 'src/api.ts'))).toEqual(off);
    expect(sorted(lint(REDIS_ONLY, { 'src/api.ts': api }, 'src/api.ts', { redisIsDatabase: true }))).toEqual(off);
  });

  it('a cache key in a Redis-only package stays reported', () => {
    const cache = `import Redis from 'ioredis';
const redis = new Redis();
export async function remember(id: string, body: string) {
  await redis.set(\`cache:page:\${id}\`, body);
}
`;
    expect(lint(REDIS_ONLY, { 'src/cache.ts': cache }, 'src/cache.ts')).toEqual([[SET, 'setWithoutTtl', 4, 15]]);
  });
});

describe('mayNameSameKey', () => {
  it('matches a family by its static words, a run-time part standing for a formatted date', () => {
    expect(mayNameSameKey('usage:daily:*:*', 'usage:daily:*:*-*-*')).toBe(true);
    expect(mayNameSameKey('usage:hourly:*:*', 'usage:hourly:*:*-*-*:*')).toBe(true);
    expect(mayNameSameKey('session:*', 'session:*')).toBe(true);
  });

  it('tells apart families with other static words, one constant key, and an opaque shape', () => {
    expect(mayNameSameKey('usage:*', 'usage:daily:*:*')).toBe(false);
    expect(mayNameSameKey('apikey:*', 'apikey:hash_map')).toBe(false);
    expect(mayNameSameKey('apikey:*', '*:*')).toBe(false);
  });
});
