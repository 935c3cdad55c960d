/**
 * Breaker round 36: odd but realistic code against the round's new readings (a key builder's
 * object held in a const, the Map of clients, another module's creation run, uninformative
 * receiver types). Each case is a leak a reading hid, or a near miss that must keep its result.
 */
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { applicationRoot } from '../../redis-calls/uncalled.js';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { lintApplication } from '../helpers/lint.js';
import { nodeRedis, runRule, typedTester } from './tester.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const SET = 'set-requires-ttl-or-keepttl';
const INCR = 'incr-needs-expire-on-create';
const MANIFEST = '{ "name": "app", "private": true, "dependencies": { "ioredis": "^5.3.2" } }';
/** `[rule, messageId, line, column]` of the two write rules' findings on `target`. */
const lint = (files: Record<string, string>, target: string) => lintApplication(roots, files, target, { [SET]: undefined, [INCR]: undefined }, [], MANIFEST);

const BUILD = [
  'export function buildKeys(institutionId: number) {',
  '  const prefix = `lb:v2:institution:${institutionId}`;',
  '  return { weeklyZSet: `${prefix}:weekly:z`, userHash: `${prefix}:user:h` };',
  '}',
  '',
].join('\n');

/** incr-needs-expire-on-create's findings with `persistentKeys: ['lb:v2:institution:*']`: [messageId, line, column]. */
function persistentBuilder(body: string): Array<[string | undefined, number, number]> {
  const code = nodeRedis(`${BUILD}export async function project(scope: number, user: string, sp: number) {\n  const keys = buildKeys(scope);\n${body}}\n`);
  return new Linter({ configType: 'flat' })
    .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, settings: { 'redis-ttl': { persistentKeys: ['lb:v2:institution:*'] } }, rules: { 'redis-ttl/incr-needs-expire-on-create': 'error' } }], { filename: 'app.ts' })
    .map((m) => [m.messageId, m.line, m.column]);
}

describe("a key builder's object in a const whose member the code changes after: the builder no longer spells it", () => {
  // lines 1-2 the client, 3-6 the builder, 7-8 the function's head and its const; the body starts on line 9
  it('the member reassigned to a per-user key: the HSET to it reported', () => {
    expect(persistentBuilder('  keys.userHash = `sessions:${user}`;\n  await client.hSet(keys.userHash, user, String(sp));\n')).toEqual([['noExpiry', 10, 16]]);
  });
  it('the member reassigned by a computed name: reported', () => {
    expect(persistentBuilder("  keys['userHash'] = `sessions:${user}`;\n  await client.hSet(keys.userHash, user, String(sp));\n")).toEqual([['noExpiry', 10, 16]]);
  });
  it('the object merged into with Object.assign: reported', () => {
    expect(persistentBuilder('  Object.assign(keys, { userHash: `sessions:${user}` });\n  await client.hSet(keys.userHash, user, String(sp));\n')).toEqual([['noExpiry', 10, 16]]);
  });
  it('the member appended to: reported', () => {
    expect(persistentBuilder('  keys.userHash += `:${user}`;\n  await client.hSet(keys.userHash, user, String(sp));\n')).toEqual([['noExpiry', 10, 16]]);
  });
  it('near miss: another member changed, the one written untouched: still left alone', () => {
    expect(persistentBuilder('  keys.weeklyZSet = `sessions:${user}`;\n  await client.hSet(keys.userHash, user, String(sp));\n')).toEqual([]);
  });
  it('near miss: the object only read: still left alone', () => {
    expect(persistentBuilder('  const copy = { ...keys };\n  await client.hSet(keys.userHash, user, String(copy.weeklyZSet));\n')).toEqual([]);
  });
});

describe('a Map holding a client under one name and something else under another (map-clients.ts)', () => {
  /** A registry of services: the Redis client under 'redis', an in-memory Map under 'memo'. */
  const registry = (memoName: string, redisName = "'redis'") => `import Redis from 'ioredis';
export class Services {
  constructor(name: string) {
    this.items = new Map();
    this.items.set(${redisName}, new Redis());
    this.items.set(${memoName}, new Map());
  }
  remember(k: string, v: string) {
    this.items.get('memo').set(\`memo:\${k}\`, v);
  }
  save(k: string, v: string) {
    this.items.get('redis').set(\`user:\${k}\`, v);
  }
}
`;
  it("get('memo') reads the Map stored under 'memo', not the client: only the client's SET reported", () => {
    expect(lint({ 'src/services.ts': registry("'memo'") }, 'src/services.ts')).toEqual([[SET, 'setWithoutTtl', 12, 29]]);
  });
  it('the same with a module variable Map and a const name', () => {
    const code = `import Redis from 'ioredis';
const MEMO = 'memo';
const items = new Map();
items.set('redis', new Redis());
items.set(MEMO, new Map());
export function remember(k: string, v: string) {
  items.get('memo').set(\`memo:\${k}\`, v);
}
`;
    expect(lint({ 'src/services.ts': code }, 'src/services.ts')).toEqual([]);
  });
  it('a client stored into another Map, under a name read from this one: no client stored here', () => {
    const code = `import Redis from 'ioredis';
const items = new Map();
const conns = new Map();
conns.set(items.size, new Redis());
items.set('memo', new Map());
export function remember(k: string, v: string) {
  items.get('memo').set(\`memo:\${k}\`, v);
}
`;
    expect(lint({ 'src/services.ts': code }, 'src/services.ts')).toEqual([]);
  });
  it('near miss: the memo Map stored under a name chosen at run time may be the client: both reported', () => {
    expect(lint({ 'src/services.ts': registry("'memo'", 'name') }, 'src/services.ts')).toEqual([
      [SET, 'setWithoutTtl', 9, 28],
      [SET, 'setWithoutTtl', 12, 29],
    ]);
  });
  it('near miss: a name read at run time may be the client\'s: reported', () => {
    const code = `import Redis from 'ioredis';
const items = new Map();
items.set('redis', new Redis());
items.set('memo', new Map());
export function save(name: string, k: string, v: string) {
  items.get(name).set(\`user:\${k}\`, v);
}
`;
    expect(lint({ 'src/services.ts': code }, 'src/services.ts')).toEqual([[SET, 'setWithoutTtl', 6, 19]]);
  });
});

describe("an update dropped for another module's creation: that module judged as it reports (foreign-findings.ts)", () => {
  const rules = { [INCR]: undefined };
  const lintIncr = (files: Record<string, string>, target: string) => lintApplication(roots, files, target, rules, []);
  const H = "import Redis from 'ioredis';\nconst redis = new Redis();\n";
  // pool.ts: join creates the socket record (line 5), then calls game's start
  const pool = `${H}import { start } from './game';\nexport async function join(socketId: string, userId: string) {\n  await redis.hset(\`socket:\${socketId}\`, 'user', userId);\n  await start(socketId, false);\n}\n`;
  // game.ts: start creates the socket record too (line 5), and for a bot calls pool's join after it
  const game = `${H}import { join } from './pool';\nexport async function start(socketId: string, bot: boolean) {\n  await redis.hset(\`socket:\${socketId}\`, 'score', '0');\n  if (bot) await join(socketId, 'bot');\n}\nexport async function score(socketId: string) {\n  await redis.hincrby(\`socket:\${socketId}\`, 'score', 10);\n}\n`;
  const main = "import { join } from './pool';\nimport { start, score } from './game';\nvoid join('a', 'b');\nvoid start('c', true);\nvoid score('a');\n";
  it('two modules each creating the family and then calling the other: neither reports it elsewhere, both keep their finding', () => {
    const files = { 'src/pool.ts': pool, 'src/game.ts': game, 'src/main.ts': main };
    expect(lintIncr(files, 'src/game.ts')).toEqual([[INCR, 'noExpiry', 5, 15]]);
    expect(lintIncr(files, 'src/pool.ts')).toEqual([[INCR, 'noExpiry', 5, 15]]);
  });
  it('a chain: lobby creates and calls pool, pool creates and calls game: lobby reports, pool drops, and game, whose caller pool reports nothing, keeps its finding', () => {
    const lobby = `${H}import { join } from './pool';\nexport async function open(socketId: string) {\n  await redis.hset(\`socket:\${socketId}\`, 'open', '1');\n  await join(socketId, 'host');\n}\n`;
    const gameAlone = game.replace("import { join } from './pool';\n", '').replace("  if (bot) await join(socketId, 'bot');\n", '');
    const files = { 'src/lobby.ts': lobby, 'src/pool.ts': pool, 'src/game.ts': gameAlone, 'src/main.ts': "import { open } from './lobby';\nimport { start, score } from './game';\nvoid open('a');\nvoid start('c', true);\nvoid score('a');\n" };
    expect(lintIncr(files, 'src/lobby.ts')).toEqual([[INCR, 'noExpiry', 5, 15]]);
    expect(lintIncr(files, 'src/pool.ts')).toEqual([]);
    expect(lintIncr(files, 'src/game.ts')).toEqual([[INCR, 'noExpiry', 4, 15]]);
  });
  it('near miss: one module creating and calling the other, which does not call back: the update dropped there', () => {
    const gameAlone = game.replace("import { join } from './pool';\n", '').replace("  if (bot) await join(socketId, 'bot');\n", '');
    const files = { 'src/pool.ts': pool, 'src/game.ts': gameAlone, 'src/main.ts': main };
    expect(lintIncr(files, 'src/pool.ts')).toEqual([[INCR, 'noExpiry', 5, 15]]);
    expect(lintIncr(files, 'src/game.ts')).toEqual([]);
  });
});

describe("an explicit no-TTL argument held in a const: undefined held in the file, null / false exported by an imported module (option-arms.ts)", () => {
  const lintSet = (files: Record<string, string>, target: string) => lintApplication(roots, files, target, { [SET]: undefined }, [], MANIFEST);
  const cache = (param: string) => `import Redis from 'ioredis';
const client = new Redis();
export async function set(key: string, value: string, ${param}) {
  if (ttl) return client.set(key, value, 'EX', ttl);
  return client.set(key, value);
}
`;
  const consts = 'export const NO_NULL = null;\nexport const NO_UNDEF = undefined;\nexport const NO_FALSE = false;\nexport const HOUR = 3600;\n';
  const use = `import { set } from './cache';
import { NO_NULL, NO_UNDEF, NO_FALSE, HOUR } from './consts';
const NONE = undefined;
const VOID = void 0;
export async function save(id: string, v: string) {
  await set(\`p:\${id}\`, v, NONE);
  await set(\`p:\${id}\`, v, VOID);
  await set(\`p:\${id}\`, v, NO_NULL);
  await set(\`p:\${id}\`, v, NO_UNDEF);
  await set(\`p:\${id}\`, v, NO_FALSE);
  await set(\`p:\${id}\`, v, HOUR);
}
`;
  it('a helper with no default: each const of undefined, null or false reported, the imported TTL not', () => {
    const files = { 'src/cache.ts': cache('ttl?: number | null | false'), 'src/consts.ts': consts, 'src/use.ts': use };
    expect(lintSet(files, 'src/use.ts')).toEqual([6, 7, 8, 9, 10].map((line) => [SET, 'setWithoutTtl', line, 9]));
  });
  it('near miss: a helper whose default is an hour: undefined takes the default (not reported), null and false do not (reported)', () => {
    const files = { 'src/cache.ts': cache('ttl: number | null | false = 3600'), 'src/consts.ts': consts, 'src/use.ts': use };
    // the key was given the hour at line 6 on the same path: since round 37 the message says the
    // plain SET discards it (setClearsTtl, redis-calls/cleared-ttl.ts)
    expect(lintSet(files, 'src/use.ts')).toEqual([8, 10].map((line) => [SET, 'setClearsTtl', line, 9]));
  });
});

/**
 * With type information, a receiver typed as a mapped type made from a client (`Pick<Redis, 'incr'
 * | 'expire'>`, `Omit<Redis, 'quit'>`: the code's own narrowing of the client it takes) is the
 * client (client-checker.ts); a mapped type of a class of the code is not.
 */
const typedAs = (type: string, before: string) =>
  `${before}declare function lazy<T>(): T;\nconst store = lazy<${type}>();\nexport const hit = (id: string) => store.incr(\`c:\${id}\`);`;
const IOREDIS = "import Redis from 'ioredis';\n";
runRule(typedTester, 'incr-needs-expire-on-create (breaker36: a mapped type of a client, typed)', incrRule, {
  valid: [typedAs('Pick<Meter, "incr">', 'declare class Meter { incr(n: string): number }\n')],
  invalid: [
    { code: typedAs('Pick<Redis, "incr" | "expire">', IOREDIS), errors: [{ messageId: 'noExpiry', line: 4, column: 42 }] },
    { code: typedAs('Omit<Redis, "quit">', IOREDIS), errors: [{ messageId: 'noExpiry', line: 4, column: 42 }] },
  ],
});

/**
 * A workspace member a sibling installs under an alias (`"api": "workspace:backend@*"` of pnpm,
 * `"api": "npm:backend@^1.0.0"`) is depended on: not an application whose uncalled helpers are
 * left out (resolve.ts workspaceRootOfStandaloneMember), also under a pnpm root with no package.json.
 */
describe('a workspace member installed by a sibling under an alias', () => {
  const workspace = (web: Record<string, unknown>): string => {
    const dir = mkdtempSync(join(tmpdir(), 'breaker36-ws-'));
    roots.push(dir);
    const files: Record<string, string | object> = {
      'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n",
      'apps/api/package.json': { name: 'backend', scripts: { start: 'tsx src/main.ts' } },
      'apps/api/src/presence.ts': 'export const a = 1;\n',
      'apps/web/package.json': web,
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), typeof text === 'string' ? text : JSON.stringify(text));
    }
    return dir;
  };
  it('a workspace: or npm: alias of the member: depended on, no application', () => {
    for (const spec of ['workspace:backend@*', 'workspace:backend@^1.0.0', 'npm:backend@^1.0.0']) {
      const dir = workspace({ name: 'frontend', dependencies: { api: spec } });
      expect(applicationRoot(join(dir, 'apps/api/src/presence.ts'))).toBeUndefined();
    }
  });
  it('near miss: an alias of another package, or none: the member is an application', () => {
    for (const dependencies of [{ api: 'npm:backend-client@^1.0.0' }, { api: 'workspace:*' }, {}]) {
      const dir = workspace({ name: 'frontend', dependencies });
      expect(applicationRoot(join(dir, 'apps/api/src/presence.ts'))).toBe(join(dir, 'apps/api'));
    }
  });
});
