/**
 * A write in code nothing runs, round 31 (redis-calls/uncalled.ts, import-callers.ts,
 * unreached-modules.ts, process-spawns.ts): a helper whose every call is commented out, reached
 * only through a barrel that passes its module's namespace on under a name (`import * as utils
 * from './utils'; export { utils }`), with its write inside a promise callback whose parameter is
 * named `res` (`.then((res) => ...)`: no request handler).
 *
 * Stays reported: the same helper with one live call in another file, or whose namespace an
 * importer of the barrel hands on as a value (`register(redisUtils)`: called under names no text
 * writes), and a helper of the same module that the barrel's importers call.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const INCR = 'incr-needs-expire-on-create';

const UTILS = [
  "import Redis from 'ioredis';",
  'const redis = new Redis();',
  'export const createKey = async (key: string) => {',
  '  await redis.exists(key).then((res) => {',
  "    if (res === 0) return redis.sadd(key, '');",
  '  });',
  '};',
  'export async function setOnline(id: string) {',
  "  await redis.sadd(`online:${id}`, '1');",
  '}',
  '',
].join('\n');

const BARREL = "import * as redisUtils from './utils';\n\nexport { redisUtils };\n";
const CONNECTION = "import { createKey } from './utils';\nexport function connect() {\n  // await createKey('users:online');\n  return 1;\n}\n";
const SERVER = "import { redisUtils } from './src/redis';\nimport { connect } from './src/redis/connection';\nconnect();\nexport const online = (id: string) => redisUtils.setOnline(id);\n";

const CREATE_KEY = [5, 33, 'noExpiry'];
const SET_ONLINE = [9, 15, 'noExpiry'];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An application (`"private": true`, started by `node dist/server.js`) in a fresh directory: files (path to text) over the defaults above. */
function app(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'uncalled-off-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, scripts: { start: 'node dist/server.js' } }));
  const all = { 'src/redis/utils.ts': UTILS, 'src/redis/index.ts': BARREL, 'src/redis/connection.ts': CONNECTION, 'server.ts': SERVER, ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function lines(dir: string, file = 'src/redis/utils.ts') {
  const filename = join(dir, file);
  const linter = new Linter({ configType: 'flat', cwd: dir });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: ['error', {}] } as Linter.RulesRecord }];
  return linter.verify(readFileSync(filename, 'utf8'), config, { filename }).map((m) => [m.line, m.column, m.messageId]);
}

describe('a helper whose calls are switched off', () => {
  it('every call commented out, reached through a namespace barrel, its write in a .then((res) => ...) callback: left out', () => {
    expect(lines(app({}))).toEqual([SET_ONLINE]);
  });

  it('keeps the helper with one live call in another file', () => {
    expect(lines(app({ 'src/redis/connection.ts': CONNECTION.replace("// await createKey('users:online');", "void createKey('users:online');") }))).toEqual([CREATE_KEY, SET_ONLINE]);
  });

  it('keeps it when an importer of the barrel hands the namespace on as a value, or calls it through the namespace', () => {
    const handed = "import { redisUtils } from './src/redis';\nimport { register } from 'job-registry';\nregister(redisUtils);\n";
    expect(lines(app({ 'server.ts': handed }))).toEqual([CREATE_KEY, SET_ONLINE]);
    const called = SERVER.replace('redisUtils.setOnline(id)', 'redisUtils.createKey(id)');
    expect(lines(app({ 'server.ts': called }))).toEqual([CREATE_KEY]);
  });

  it('keeps an import with no use written at all (the import wires it in) and the namespace used in the barrel itself', () => {
    expect(lines(app({ 'src/redis/connection.ts': "import { createKey } from './utils';\nexport function connect() {\n  return 1;\n}\n" }))).toEqual([CREATE_KEY, SET_ONLINE]);
    expect(lines(app({ 'src/redis/index.ts': `${BARREL}export const all = Object.keys(redisUtils);\n` }))).toEqual([CREATE_KEY, SET_ONLINE]);
  });
});

const CACHE = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function getVersion(key: string) {\n  return redis.get(key);\n}\nexport async function bumpVersion(key: string) {\n  return redis.incr(key);\n}\n";
const BUMP = [7, 16, 'noExpiry'];

describe('brackets that call nothing', () => {
  it('a regular expression, a string or a comment of an importer writes no call by a computed name', () => {
    const server = "import { getVersion } from './src/cache';\nconst STAMP = /^(\\d{4})-(\\d{2})[T ](\\d{2})$/;\n// cache[kind](key) was the old way\nexport const parse = (s: string) => STAMP.exec(s) && '[x](y)' && getVersion(s);\n";
    expect(lines(app({ 'src/cache.ts': CACHE, 'server.ts': server }), 'src/cache.ts')).toEqual([]);
  });

  it('keeps the helper when an importer calls a member by a computed name, even through a chain or a non-null assertion', () => {
    const computed = (call: string) => `import { getVersion } from './src/cache';\nimport { pick } from 'ops';\nexport const run = (name: string, s: string) => { const ops = pick(); ${call}; return getVersion(s); };\n`;
    for (const call of ['ops[name](s)', 'ops[name]?.(s)', 'ops[name]!(s)', 'ops[name].call(null, s)', 'ops.inner[name](s)']) {
      expect(lines(app({ 'src/cache.ts': CACHE, 'server.ts': computed(call) }), 'src/cache.ts')).toEqual([BUMP]);
    }
  });
});

const POKER = "import Redis from 'ioredis';\nconst redis = new Redis();\nclass PokerService {\n  async createRoom(id: string) {\n    await redis.incr(`poker:room:${id}`);\n  }\n}\nexport default PokerService;\n";

describe('a module whose file name only a longer name or an identifier writes', () => {
  const enhanced = POKER.replace('poker:room', 'poker:table');
  const server = "import PokerService from './src/services/EnhancedPokerService';\nnew PokerService().createRoom('a');\n";

  it('an older copy nothing imports, whose name is part of another file name and of a class name, is unreached', () => {
    const dir = app({ 'src/services/PokerService.ts': POKER, 'src/services/EnhancedPokerService.ts': enhanced, 'server.ts': server });
    expect(lines(dir, 'src/services/PokerService.ts')).toEqual([]);
    // near miss: the copy imported (and called) stays reported
    expect(lines(dir, 'src/services/EnhancedPokerService.ts')).toEqual([[5, 17, 'noExpiry']]);
  });

  it('keeps it when a string of the code or a deployment file writes its name whole', () => {
    const loaded = `${server}export const legacy = 'services/PokerService';\n`;
    expect(lines(app({ 'src/services/PokerService.ts': POKER, 'src/services/EnhancedPokerService.ts': enhanced, 'server.ts': loaded }), 'src/services/PokerService.ts')).toEqual([[5, 17, 'noExpiry']]);
    const procfile = { 'src/services/PokerService.ts': POKER, 'src/services/EnhancedPokerService.ts': enhanced, 'server.ts': server, Procfile: 'poker: node dist/services/PokerService.js\n' };
    expect(lines(app(procfile), 'src/services/PokerService.ts')).toEqual([[5, 17, 'noExpiry']]);
  });
});

describe('the importer walk goes up only through modules that can pass the helper on', () => {
  it('keeps a helper called through a CommonJS barrel that passes its module on whole', () => {
    const files = {
      'src/redis/index.ts': "module.exports = require('./utils');\n",
      'server.ts': "const utils = require('./src/redis');\nconst { connect } = require('./src/redis/connection');\nconnect();\nexports.online = (id) => utils.createKey(id);\n",
    };
    // (setOnline, called by nothing here, is left out)
    expect(lines(app(files))).toEqual([CREATE_KEY]);
  });
});

describe('a CommonJS module that exports only names it writes passes nothing else on (review of round 31)', () => {
  const server = "const { run } = require('./src/service');\nfunction bumpVersion(k: string) {\n  return k;\n}\nexports.check = (s: string) => run(bumpVersion(s));\n";

  it("an importer's own function of the same name, reached only through `module.exports = { run }`, is no call of the helper", () => {
    const service = "const { getVersion } = require('./cache');\nmodule.exports = { run: (s: string) => getVersion(s) };\n";
    expect(lines(app({ 'src/cache.ts': CACHE, 'src/service.ts': service, 'server.ts': server }), 'src/cache.ts')).toEqual([]);
  });

  it('keeps the helper when the module in between passes the required module on whole (a spread, or the module itself)', () => {
    for (const service of ["module.exports = { ...require('./cache'), run: (s: string) => s };\n", "const cache = require('./cache');\nmodule.exports = cache;\nmodule.exports.run = (s: string) => s;\n"]) {
      expect(lines(app({ 'src/cache.ts': CACHE, 'src/service.ts': service, 'server.ts': server }), 'src/cache.ts')).toEqual([BUMP]);
    }
  });
});
