/**
 * Breaker round 22: readings that left a finding out and hid a real leak, each with the case that
 * broke it. Projects are written to a temporary folder and linted with ESLint's Linter.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { writeProject } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Writes `files` (path -> text) into a fresh folder and returns its path. */
function project(files: Record<string, string>): string {
  return writeProject(roots, files);
}

/** [rule, line, column, messageId, the Lua rule id of an embedded-lua finding] of each finding of `rules` on `file` of the project at `root`. */
function lint(root: string, file: string, code: string, rules: string[]): Array<[string | null, number, number, string | undefined, string | undefined]> {
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [
    {
      files: ['**/*.ts', '**/*.js'],
      languageOptions: { parser: tsParser },
      plugins: { 'redis-ttl': plugin },
      rules: Object.fromEntries(rules.map((rule) => [`redis-ttl/${rule}`, 'error'])) as Linter.RulesRecord,
    },
  ];
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), code);
  return linter
    .verify(code, config, { filename: join(root, file) })
    .map((m) => [m.ruleId, m.line, m.column, m.messageId, /^\[([^\]]+)\]/.exec(m.message)?.[1]]);
}

const APPLICATION = JSON.stringify({ name: 'app', private: true });
const LIBRARY = JSON.stringify({ name: 'lib', version: '1.0.0', main: 'index.js' });
const ARGV_KEY = `"redis.call('SET', ARGV[1], 1, 'EX', 60)"`;

describe('embedded-lua: an application whose Cluster client is named inside a longer word', () => {
  // the receiver's origin is not followed (a class of the code's own), so the project decides
  const use = `import { RedisService } from './redis.service';\nexport class Store {\n  constructor(private readonly redis: RedisService) {}\n  run() {\n    return this.redis.eval(${ARGV_KEY}, 0, 'k');\n  }\n}\n`;
  const service = `import Redis from 'ioredis';\nexport class RedisService extends Redis {}\n`;

  it('node-redis createCluster: the remark stays', () => {
    const root = project({
      'package.json': APPLICATION,
      'src/redis.service.ts': service,
      'src/sessions.ts': `import { createCluster } from 'redis';\nexport const sessions = createCluster({ rootNodes: [{ url: process.env.REDIS_URL }] });\n`,
    });
    expect(lint(root, 'src/use.ts', use, ['embedded-lua'])).toEqual([['redis-ttl/embedded-lua', 5, 29, 'luaFinding', 'key-must-come-from-keys']]);
  });

  it('GLIDE GlideClusterClient: the remark stays', () => {
    const root = project({
      'package.json': APPLICATION,
      'src/redis.service.ts': service,
      'src/sessions.ts': `import { GlideClusterClient } from '@valkey/valkey-glide';\nexport const sessions = await GlideClusterClient.createClient({ addresses: [{ host: 'a' }] });\n`,
    });
    expect(lint(root, 'src/use.ts', use, ['embedded-lua'])).toEqual([['redis-ttl/embedded-lua', 5, 29, 'luaFinding', 'key-must-come-from-keys']]);
  });
});

describe('embedded-lua: an Upstash application, which routes scripts by their KEYS', () => {
  it('`redis.eval` of `@upstash/redis` in an application that never mentions a cluster keeps the KEYS remark', () => {
    const root = project({ 'package.json': APPLICATION, 'src/redis.ts': "import { Redis } from '@upstash/redis';\nexport const redis = Redis.fromEnv();\n" });
    const use = `import { redis } from './redis';\nexport const run = () => redis.eval(${ARGV_KEY}, [], ['k']);\n`;
    expect(lint(root, 'src/use.ts', use, ['embedded-lua'])).toEqual([['redis-ttl/embedded-lua', 2, 38, 'luaFinding', 'key-must-come-from-keys']]);
  });

  it('`@vercel/kv` (Upstash underneath) too', () => {
    const root = project({ 'package.json': APPLICATION });
    const use = `import { kv } from '@vercel/kv';\nexport const run = () => kv.eval(${ARGV_KEY}, [], ['k']);\n`;
    expect(lint(root, 'src/use.ts', use, ['embedded-lua'])).toEqual([['redis-ttl/embedded-lua', 2, 35, 'luaFinding', 'key-must-come-from-keys']]);
  });
});

describe('embedded-lua: a class field built as `new Redis()` that a method replaces with a Cluster', () => {
  it('JavaScript `redis = new Redis()` then `this.redis = new Redis.Cluster(nodes)`: the remark stays', () => {
    const root = project({ 'package.json': LIBRARY });
    const code = `const Redis = require('ioredis');\nclass Store {\n  redis = new Redis();\n  useCluster(nodes) {\n    this.redis = new Redis.Cluster(nodes);\n  }\n  run() {\n    return this.redis.eval(${ARGV_KEY}, 0, 'k');\n  }\n}\nmodule.exports = Store;\n`;
    expect(lint(root, 'src/store.js', code, ['embedded-lua'])).toEqual([['redis-ttl/embedded-lua', 8, 29, 'luaFinding', 'key-must-come-from-keys']]);
  });

  it('a field never reassigned stays standalone', () => {
    const root = project({ 'package.json': LIBRARY });
    const code = `const Redis = require('ioredis');\nclass Store {\n  redis = new Redis();\n  run() {\n    return this.redis.eval(${ARGV_KEY}, 0, 'k');\n  }\n}\nmodule.exports = Store;\n`;
    expect(lint(root, 'src/store.js', code, ['embedded-lua'])).toEqual([]);
  });
});

describe('uncalled: an exported function reached through its module namespace, never by name', () => {
  const jobs = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function countVisit(id: string) {\n  await redis.incr(`visits:${id}`);\n}\n";
  const INCR = 'incr-needs-expire-on-create';

  it('`import * as functions` then `Object.values(functions)` (an Inngest / cron registry): reported', () => {
    const root = project({
      'package.json': APPLICATION,
      'src/server.ts': "import * as functions from './functions';\nimport { serve } from 'inngest/express';\nexport const handler = serve({ functions: Object.values(functions) });\n",
      'src/functions/index.ts': "export * from './visits';\n",
    });
    expect(lint(root, 'src/functions/visits.ts', jobs, [INCR])).toEqual([[`redis-ttl/${INCR}`, 4, 15, 'noExpiry', undefined]]);
  });

  it('a barrel `export * as visits` whose importer loops over it: reported', () => {
    const root = project({
      'package.json': APPLICATION,
      'src/cron.ts': "import { visits } from './functions';\nfor (const job of Object.values(visits)) setInterval(() => job('all'), 60_000);\n",
      'src/functions/index.ts': "export * as visits from './visits';\n",
    });
    expect(lint(root, 'src/functions/visits.ts', jobs, [INCR])).toEqual([[`redis-ttl/${INCR}`, 4, 15, 'noExpiry', undefined]]);
  });

  it('control: called by name', () => {
    const root = project({
      'package.json': APPLICATION,
      'src/cron.ts': "import { countVisit } from './functions/visits';\ncountVisit('x');\n",
    });
    expect(lint(root, 'src/functions/visits.ts', jobs, [INCR])).toEqual([[`redis-ttl/${INCR}`, 4, 15, 'noExpiry', undefined]]);
  });

  it('CommonJS `const jobs = require(...)` handed on whole: reported', () => {
    const root = project({
      'package.json': APPLICATION,
      'src/cron.ts': "const jobs = require('./functions/visits');\nregister(jobs);\n",
    });
    expect(lint(root, 'src/functions/visits.ts', jobs, [INCR])).toEqual([[`redis-ttl/${INCR}`, 4, 15, 'noExpiry', undefined]]);
  });
});

describe('callback-parameter clients: a wrapper that hands its callback a client or, without Redis, nothing', () => {
  const INCR = 'incr-needs-expire-on-create';
  const code = (none: string) =>
    "import Redis from 'ioredis';\nconst redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL) : undefined;\n" +
    `async function withRedis<T>(fn: (r: any) => Promise<T>): Promise<T> {\n  if (!redis) return fn(${none});\n  return fn(redis);\n}\n` +
    'export const hit = (id: string) =>\n  withRedis(async (r) => {\n    if (!r) return;\n    await r.incr(`hits:${id}`);\n  });\n';

  for (const none of ['null', 'undefined', 'new Map()']) {
    it(`fn(${none}) in one branch, fn(redis) in the other: the INCR is reported`, () => {
      const root = project({ 'package.json': LIBRARY });
      expect(lint(root, 'src/hits.ts', code(none), [INCR])).toEqual([[`redis-ttl/${INCR}`, 10, 13, 'noExpiry', undefined]]);
    });
  }
});

describe('uncalled: a production folder named like a test folder', () => {
  const INCR = 'incr-needs-expire-on-create';
  const scores = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function bumpGoals(matchId: string) {\n  await redis.incr(`goals:${matchId}`);\n}\n";
  it('a sports application whose src/fixtures/ (its matches) calls the helper, imported by its routes: reported', () => {
    const root = project({
      'package.json': APPLICATION,
      'src/fixtures/live.ts': "import { bumpGoals } from '../scores';\nexport const onGoal = (matchId: string) => bumpGoals(matchId);\n",
      'src/routes.ts': "import { onGoal } from './fixtures/live';\nexport const routes = { goal: onGoal };\n",
      'src/main.ts': "import './scores';\nimport { routes } from './routes';\nexport default routes;\n",
    });
    expect(lint(root, 'src/scores.ts', scores, [INCR])).toEqual([[`redis-ttl/${INCR}`, 4, 15, 'noExpiry', undefined]]);
  });

  it('a test fixture only the tests import still calls nothing', () => {
    const root = project({
      'package.json': APPLICATION,
      'src/fixtures/live.ts': "import { bumpGoals } from '../scores';\nexport const onGoal = (matchId: string) => bumpGoals(matchId);\n",
      'src/scores.test.ts': "import { onGoal } from './fixtures/live';\nonGoal('m1');\n",
      'src/main.ts': "import './scores';\n",
    });
    expect(lint(root, 'src/scores.ts', scores, [INCR])).toEqual([]);
  });
});

describe('untrimmed streams: a DEL of a key the code names only at run time is no trim', () => {
  const INCR = 'incr-needs-expire-on-create';
  it('a generic cache helper `del(key)` in the client module does not trim `clicks_stream`', () => {
    const root = project({
      'package.json': APPLICATION,
      'src/redis.ts': "import Redis from 'ioredis';\nexport const redis = new Redis();\nexport async function invalidate(key: string) {\n  await redis.del(key);\n}\n",
    });
    const api = "import { redis } from './redis';\nexport async function click(userId: string) {\n  await redis.xadd('clicks_stream', '*', 'userId', userId);\n}\n";
    expect(lint(root, 'src/api.ts', api, [INCR])).toEqual([[`redis-ttl/${INCR}`, 3, 15, 'untrimmedStream', undefined]]);
  });

  it('the same helper written in the file: reported', () => {
    const root = project({ 'package.json': APPLICATION });
    const api =
      "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function invalidate(key: string) {\n  await redis.unlink(key);\n}\nexport async function click(userId: string) {\n  await redis.xadd('clicks_stream', '*', 'userId', userId);\n}\n";
    expect(lint(root, 'src/api.ts', api, [INCR])).toEqual([[`redis-ttl/${INCR}`, 7, 15, 'untrimmedStream', undefined]]);
  });
});

describe('uncalled: a module imported through a package.json subpath import', () => {
  it('`#cache` of `"imports"` calls the helper while another module imports it by path and does not: reported', () => {
    const INCR = 'incr-needs-expire-on-create';
    const root = project({
      'package.json': JSON.stringify({ name: 'app', private: true, type: 'module', imports: { '#cache': './src/lib/redis-cache.ts' } }),
      'src/routes.ts': "import { bump } from '#cache';\nexport const hit = (id: string) => bump(id);\n",
      'src/seed.ts': "import { warm } from './lib/redis-cache';\nexport const seed = () => warm();\n",
    });
    const code = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function bump(id: string) {\n  await redis.incr(`hits:${id}`);\n}\nexport async function warm() {\n  return redis.ping();\n}\n";
    expect(lint(root, 'src/lib/redis-cache.ts', code, [INCR])).toEqual([[`redis-ttl/${INCR}`, 4, 15, 'noExpiry', undefined]]);
  });
});
