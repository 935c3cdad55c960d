/**
 * Breaker round 21: code that runs without its name being written in the application's source,
 * which `allowUncalledCode` (redis-calls/uncalled.ts) took for code that never runs, hiding a leak.
 *
 * - an instance handed to a library, which calls its methods by the names of its own interface
 *   (express-rate-limit's `store.increment`), written inline or through a variable;
 * - a member called by a computed name that is not a lone identifier (`svc[kind as keyof Svc]()`,
 *   `svc[`${kind}`]()`);
 * - an exported function named only by a deployment file (serverless.yml's `handler:`) in a
 *   module another module imports for something else.
 *
 * Each application is a `"private": true` package written to a temporary directory.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, runRule, untypedTester } from './tester.js';
import { lintKeyRules } from '../helpers/lint.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function application(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'breaker21-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), '{ "name": "app", "private": true }');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** [rule, messageId, line, column] of the INCR rule's findings on `file` of the application at `dir`, with its text on disk. */
function lint(dir: string, file: string, text: string, options: Record<string, unknown> = {}) {
  const linter = new Linter({ configType: 'flat', cwd: dir });
  const rules = { 'redis-ttl/incr-needs-expire-on-create': ['error', options] } as Linter.RulesRecord;
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules }];
  return linter.verify(text, config, { filename: join(dir, file) }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);
}

const INCR = 'redis-ttl/incr-needs-expire-on-create';

const STORE = [
  "import Redis from 'ioredis';",
  'const redis = new Redis();',
  'export class RedisStore {',
  '  async increment(key: string) {',
  '    const totalHits = await redis.incr(`rl:${key}`);',
  '    return { totalHits, resetTime: undefined };',
  '  }',
  '}',
  '',
].join('\n');

const COUNTERS = [
  "import Redis from 'ioredis';",
  'const redis = new Redis();',
  'export class Counters {',
  '  async views(id: string) {',
  '    await redis.incr(`views:${id}`);',
  '  }',
  '  async likes(id: string) {',
  '    await redis.incr(`likes:${id}`);',
  '  }',
  '}',
  '',
].join('\n');

describe('breaker21: code that runs though its name is written nowhere in the application', () => {
  it('a store handed to express-rate-limit inline: the library calls increment', () => {
    const dir = application({
      'src/store.ts': STORE,
      'src/main.ts': "import express from 'express';\nimport rateLimit from 'express-rate-limit';\nimport { RedisStore } from './store';\nconst app = express();\napp.use(rateLimit({ windowMs: 60000, limit: 100, store: new RedisStore() }));\n",
    });
    expect(lint(dir, 'src/store.ts', STORE)).toEqual([[INCR, 'noExpiry', 5, 35]]);
  });

  it('a store held by a variable and handed over by shorthand', () => {
    const dir = application({
      'src/store.ts': STORE,
      'src/main.ts': "import rateLimit from 'express-rate-limit';\nimport { RedisStore } from './store';\nconst store = new RedisStore();\nexport const limiter = rateLimit({ windowMs: 60000, store });\n",
    });
    expect(lint(dir, 'src/store.ts', STORE)).toEqual([[INCR, 'noExpiry', 5, 35]]);
  });

  it('a store handed to a class of the application stays in code whose words are searched: increment is named nowhere', () => {
    const dir = application({
      'src/store.ts': STORE,
      'src/limiter.ts': "export class Limiter {\n  constructor(readonly store: object) {}\n}\n",
      'src/main.ts': "import { Limiter } from './limiter';\nimport { RedisStore } from './store';\n// the store is handed over below\nconst store = new RedisStore();\nexport const limiter = new Limiter(store);\n",
    });
    expect(lint(dir, 'src/store.ts', STORE)).toEqual([]);
    expect(lint(dir, 'src/store.ts', STORE, { allowUncalledCode: false })).toEqual([[INCR, 'noExpiry', 5, 35]]);
  });

  it('an instance the application only calls members of keeps the exemption for a method nothing names', () => {
    const dir = application({
      'src/counters.ts': COUNTERS,
      'src/main.ts': "import { Counters } from './counters';\nconst counters = new Counters();\nexport async function like(id: string) {\n  await counters.likes(id);\n}\n",
    });
    // views is named nowhere: left out; likes is called
    expect(lint(dir, 'src/counters.ts', COUNTERS)).toEqual([[INCR, 'noExpiry', 8, 17]]);
  });

  it('a computed call whose index is an expression (as keyof, a template) may call any method', () => {
    for (const call of ['counters[kind as keyof Counters](id)', '(counters as any)[`${kind}`](id)', 'counters[KINDS[kind]](id)']) {
      const dir = application({
        'src/counters.ts': COUNTERS,
        'src/main.ts': `import { Counters } from './counters';\nconst counters = new Counters();\nconst KINDS: Record<string, 'likes'> = {};\nexport async function bump(kind: string, id: string) {\n  await ${call};\n}\n`,
      });
      expect(lint(dir, 'src/counters.ts', COUNTERS)).toEqual([
        [INCR, 'noExpiry', 5, 17],
        [INCR, 'noExpiry', 8, 17],
      ]);
    }
  });

  it('a Nest guard without implements CanActivate: Nest calls canActivate by name (useClass names only the class)', () => {
    const guard = "import { Injectable } from '@nestjs/common';\nimport Redis from 'ioredis';\nconst redis = new Redis();\n@Injectable()\nexport class ThrottleGuard {\n  async canActivate(ctx: { ip: string }) {\n    const n = await redis.incr(`throttle:${ctx.ip}`);\n    return n < 100;\n  }\n}\n";
    const dir = application({
      'src/throttle.guard.ts': guard,
      'src/app.module.ts': "import { Module } from '@nestjs/common';\nimport { APP_GUARD } from '@nestjs/core';\nimport { ThrottleGuard } from './throttle.guard';\n@Module({ providers: [{ provide: APP_GUARD, useClass: ThrottleGuard }] })\nexport class AppModule {}\n",
    });
    expect(lint(dir, 'src/throttle.guard.ts', guard)).toEqual([[INCR, 'noExpiry', 7, 27]]);
  });

  it('a handler named only by serverless.yml, in a module imported for something else', () => {
    const handlers = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function sweep(day: string) {\n  await redis.incr(`sweeps:${day}`);\n}\nexport const LIMIT = 3;\n";
    const dir = application({
      'src/handlers.ts': handlers,
      'src/main.ts': "import { LIMIT } from './handlers';\nconsole.log(LIMIT);\n",
      'serverless.yml': 'functions:\n  sweep:\n    handler: src/handlers.sweep\n',
    });
    expect(lint(dir, 'src/handlers.ts', handlers)).toEqual([[INCR, 'noExpiry', 4, 15]]);
  });
});

// set-requires-ttl-or-keepttl's move of a SET's own later EXPIRE (redis-calls/write-expiry.ts):
// the autofix removed an EXPIRE that (a) named another key by then (`key = other` in between), or
// (b) ran after a write of the same client in between that clears the TTL (GETSET, a second SET):
// the key then kept no TTL, or the other key lost its expiry.
const AUTOFIX = { 'redis-ttl': { defaultTtlSeconds: 86400, autofix: true } };
const put = (body: string) => ioredis(`export async function put(k: string, token: string, other: string) {\n${body}\n}`);
const reassigned = put('  let key = k;\n  await redis.set(key, token);\n  key = other;\n  await redis.expire(key, 900);');
const getsetBetween = put('  await redis.set(k, token);\n  await redis.getset(k, "x");\n  await redis.expire(k, 900);');

runRule(untypedTester, 'breaker21: set-requires-ttl-or-keepttl never removes an EXPIRE the move does not replace', setRule, {
  valid: [],
  invalid: [
    {
      // the EXPIRE names `other` when it runs: nothing moves, nothing is removed
      code: reassigned,
      settings: AUTOFIX,
      output: null,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 5,
          column: 15,
          suggestions: [{ messageId: 'addKeepTtl', output: reassigned.replace('redis.set(key, token)', "redis.set(key, token, 'KEEPTTL')") }],
        },
      ],
    },
    {
      // GETSET clears the TTL the moved EXPIRE would give: the TTL moves as a suggestion, the EXPIRE stays
      code: getsetBetween,
      settings: AUTOFIX,
      output: null,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 4,
          column: 15,
          suggestions: [
            { messageId: 'addLaterExpiry', data: { ttl: '900', line: '6' }, output: getsetBetween.replace('redis.set(k, token)', "redis.set(k, token, 'EX', 900)") },
            { messageId: 'addKeepTtl', output: getsetBetween.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
  ],
});

// member-registry.ts: a reaper nothing starts (a function of the module's own, or a private
// method, that nothing names) never removes a crashed connection's member: the registry stays.
const registry = (reaper: string, tail = '') =>
  ioredis(
    [
      'export class Rooms {',
      '  async join(room: string, conn: string) {',
      '    await redis.sadd(`room:${room}:conns`, conn);',
      '  }',
      `  ${reaper}(room: string) {`,
      '    for (const conn of await redis.smembers(`room:${room}:conns`)) await redis.srem(`room:${room}:conns`, conn);',
      '  }',
      tail,
      '}',
    ].join('\n'),
  );

describe('breaker21: a reaper nobody starts empties no registry', () => {
  it('a private method and a module function nothing names: the SADD is reported', () => {
    expect(lintKeyRules(registry('private async reap'))).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 5, 17]]);
    expect(lintKeyRules(registry('async #reap'))).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 5, 17]]);
  });
  it('a reaper started by a timer, or a public method another module may call, still empties it', () => {
    expect(lintKeyRules(registry('private async reap', '  start() { setInterval(() => this.reap("a"), 60_000); }'))).toEqual([]);
    expect(lintKeyRules(registry('async reap'))).toEqual([]);
  });
  it('a function of the module: reported when nothing names it, not when a timer starts it', () => {
    const code = (start: string) =>
      ioredis(
        [
          'export async function join(room: string, conn: string) {',
          '  await redis.sadd(`room:${room}:conns`, conn);',
          '}',
          'async function reap(room: string) {',
          '  for (const conn of await redis.smembers(`room:${room}:conns`)) await redis.srem(`room:${room}:conns`, conn);',
          '}',
          start,
        ].join('\n'),
      );
    expect(lintKeyRules(code(''))).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 4, 15]]);
    expect(lintKeyRules(code("export function start(room: string) {\n  setInterval(() => reap(room), 60_000);\n}"))).toEqual([]);
  });
});
