/**
 * A method no file of the application calls by any name it can be reached through
 * (redis-calls/uncalled.ts): its name written elsewhere only in comments, called by a computed
 * name only on objects imported from modules that cannot hold its instances, or its class's one
 * instance a singleton of its own module that no importer names. `recommended` leaves its writes
 * out.
 *
 * Stays reported: the method called from another file (or named there by a string); a computed
 * call on the instance itself, or on a binding a barrel of its module hands on; the singleton
 * imported and handed to a library.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const INCR = 'incr-needs-expire-on-create';

const SERVICE = [
  "import Redis from 'ioredis';",
  'const redis = new Redis();',
  'export class CacheService {',
  '  async get(key: string) {',
  '    return redis.get(key);',
  '  }',
  '  async increment(key: string) {',
  '    return redis.incr(`views:${key}:${Date.now()}`);',
  '  }',
  '}',
  'export const cacheService = new CacheService();',
  'export function ping() {',
  '  return redis.ping();',
  '}',
  '',
].join('\n');

const INCREMENT = [[8, 18, 'noExpiry']];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An application (`"private": true`, started by `node dist/server.js`) in a fresh directory: `src/cache.ts` is {@link SERVICE} unless said, `server.ts` its entry point. */
function app(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'uncalled-instances-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, scripts: { start: 'node dist/server.js' } }));
  for (const [path, text] of Object.entries({ 'src/cache.ts': SERVICE, 'src/logger.ts': 'export const logger = { info: (m: string) => m, warn: (m: string) => m };\n', ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function lines(dir: string, file = 'src/cache.ts') {
  const filename = join(dir, file);
  const linter = new Linter({ configType: 'flat', cwd: dir });
  const config = [{ files: ['**/*.ts', '**/*.js'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: ['error', {}] } as Linter.RulesRecord }];
  return linter.verify(readFileSync(filename, 'utf8'), config, { filename }).map((m) => [m.line, m.column, m.messageId]);
}

const SERVER = "import { cacheService } from './src/cache';\nimport { logger } from './src/logger';\n";

describe('a method nothing calls by a name it can be reached through', () => {
  it('a name written elsewhere only in a comment calls nothing', () => {
    expect(lines(app({ 'server.ts': `${SERVER}// increment the view count (not cached)\nexport const view = () => cacheService.get('v');\nlogger.info('up');\n` }))).toEqual([]);
    // near misses: called, or named by a string, in another file
    expect(lines(app({ 'server.ts': `${SERVER}export const view = () => cacheService.increment('v');\nlogger.info('up');\n` }))).toEqual(INCREMENT);
    expect(lines(app({ 'server.ts': `${SERVER}export const view = () => (cacheService as any)['increment']('v');\nlogger.info('up');\n` }))).toEqual(INCREMENT);
  });

  it('a computed call on a binding imported from a module that cannot hold the instance calls nothing of it', () => {
    expect(lines(app({ 'server.ts': `${SERVER}export const view = (level: 'info' | 'warn') => { logger[level]('v'); return cacheService.get('v'); };\n` }))).toEqual([]);
    // near misses: a computed call on the instance, or on a binding a module importing the class's module hands on
    expect(lines(app({ 'server.ts': `${SERVER}export const run = (op: 'get') => cacheService[op]('v');\nlogger.info('up');\n` }))).toEqual(INCREMENT);
    const barrel = "export { cacheService as store } from './cache';\nexport const x = 1;\n";
    expect(lines(app({ 'src/index.ts': barrel, 'server.ts': `${SERVER}import { store } from './src/index';\nexport const run = (op: 'get') => store[op]('v');\nlogger.info('up');\n` }))).toEqual(INCREMENT);
  });

  it("a singleton of the class's own module that no importer names leaves the module nowhere", () => {
    const limiter = SERVICE.replace('export class CacheService', 'export class Limiter').replace('cacheService = new CacheService()', 'limiter = new Limiter()').replace('increment', 'check');
    // another file's own `limiter`, handed to a library, is not this one
    const routes = "import { rateLimit } from 'express-rate-limit';\nconst limiter = rateLimit({});\nexport const mount = (use: (m: unknown) => void) => use(limiter);\n";
    const server = "import { ping } from './src/cache';\nimport { mount } from './src/routes';\nping();\nmount(() => undefined);\n";
    expect(lines(app({ 'src/cache.ts': limiter, 'src/routes.ts': routes, 'server.ts': server }))).toEqual([]);
    // near miss: the singleton imported and handed to a library, which calls its methods by its own names
    const handed = "import { limiter } from './src/cache';\nimport { rateLimit } from 'express-rate-limit';\nrateLimit({ store: limiter });\n";
    expect(lines(app({ 'src/cache.ts': limiter, 'server.ts': handed }))).toEqual(INCREMENT);
  });

  it('a CommonJS singleton exported and destructured by an importer that never uses it leaves the module nowhere', () => {
    const utils = [
      "const redis = require('redis').createClient();",
      'class Limiter {',
      '  async check(user) {',
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
      '  Limiter,',
      '  limiter,',
      '  ping,',
      '};',
      '',
    ].join('\n');
    const CHECK = [[4, 27, 'separateRoundTrip']];
    const server = (use: string) => `const { auth } = require('./src/middleware/limiter');\nconst {\n  ping,\n  limiter,\n} = require('./src/utils');\nping();\nauth();\n${use}`;
    const middleware = "exports.auth = () => 'ok';\n";
    const run = (use: string, exportsText = utils) => lines(app({ 'src/utils.js': exportsText, 'src/middleware/limiter.js': middleware, 'server.js': server(use) }), 'src/utils.js');
    // the word in `require('./src/middleware/limiter')` names a file; the destructured binding is never used
    expect(run('')).toEqual([]);
    expect(run('', utils.replace('module.exports = {\n  Limiter,\n  limiter,\n  ping,\n};', 'module.exports.limiter = limiter;\nexports.ping = ping;\nexports.Limiter = Limiter;'))).toEqual([]);
    // near misses: the importer hands the binding to a library, or calls the method; the module
    // exports the instance under another name; a renamed destructured binding handed on
    expect(run("require('express-rate-limit')({ store: limiter });\n")).toEqual(CHECK);
    expect(run("limiter.check('u');\n")).toEqual(CHECK);
    expect(run('', utils.replace('  limiter,\n  ping,', '  store: limiter,\n  ping,'))).toEqual(CHECK);
    const renamed = "const { ping, limiter: rl } = require('./src/utils');\nping();\nrequire('express-rate-limit')({ store: rl });\n";
    expect(lines(app({ 'src/utils.js': utils, 'server.js': renamed }), 'src/utils.js')).toEqual(CHECK);
  });
});
