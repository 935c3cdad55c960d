/**
 * An exported function is called only where a call can reach it (redis-calls/import-callers.ts):
 * in a module importing its module, directly or through a barrel, outside import declarations and
 * export lists. The fixture (tests/fixtures/uncalled/barrel, a `"private": true` application)
 * declares six counter helpers in lib/redis/cache.ts, re-exported by lib/redis/index.ts:
 *
 * - 6 cacheIncr: re-exported by the barrel and again by feed.ts, called only by a test: uncalled;
 * - 10 cacheDecr: feed.ts imports it from the barrel and calls it: reported;
 * - 14 cacheBump: re-exported renamed (`bump`), which feed.ts calls: reported;
 * - 18 cacheTouch: other/counter.ts writes `metrics.cacheTouch(id)` without importing cache.ts or
 *   the barrel (another object's member), and a test calls it: uncalled;
 * - 22 cacheLoad: jobs.ts imports cache.ts dynamically and destructures it: reported;
 * - 26 cacheDeep: deep.ts imports the barrel as a namespace and calls `cache.cacheDeep`: reported.
 *
 * A re-export under a new name (`export { mset as redisMset } from './redis'`) is followed as the
 * new name through the re-exporting module's importers: uncalled when none writes it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { namedByImporters } from '../../redis-calls/import-callers.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'uncalled', 'barrel');
const CACHE = join(app, 'lib/redis/cache.ts');
const INCR = 'incr-needs-expire-on-create';
/** The words of a file's text, as uncalled.ts reads them. */
const words = (path: string): ReadonlySet<string> => new Set(readFileSync(path, 'utf8').match(/[A-Za-z_$][\w$]*/g) ?? []);

function lint(options: Record<string, unknown> = {}) {
  const linter = new Linter({ configType: 'flat' });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: ['error', options] } as Linter.RulesRecord }];
  return linter.verify(readFileSync(CACHE, 'utf8'), config, { filename: CACHE });
}

const EVERY_WRITE = [6, 10, 14, 18, 22, 26].map((line) => [`redis-ttl/${INCR}`, 'noExpiry', line, 22]);

describe('an exported function is called only by modules importing its module', () => {
  it('recommended leaves out a helper only re-exported (barrel, re-export of an import) or named by a module that does not import it', () => {
    expect(lint().map((m) => [m.ruleId, m.messageId, m.line, m.column])).toEqual(EVERY_WRITE.filter(([, , line]) => line !== 6 && line !== 18));
  });

  it('keeps a call through the barrel, a renamed re-export, a dynamic import and a namespace import', () => {
    const lines = lint().map((m) => m.line);
    expect(lines).toEqual([10, 14, 22, 26]);
  });

  it('strict reports every write and names the two uncalled helpers', () => {
    const messages = lint({ allowUncalledCode: false });
    expect(messages.map((m) => [m.ruleId, m.messageId, m.line, m.column])).toEqual(EVERY_WRITE);
    expect(messages.filter((m) => m.message.includes('Nothing else in the application names')).map((m) => [m.line, /`([^`]+)`: if it is dead code/.exec(m.message)?.[1]])).toEqual([
      [6, 'cacheIncr'],
      [18, 'cacheTouch'],
    ]);
  });

  it('namedByImporters: the barrel and its importers, not a module that imports neither', () => {
    expect(namedByImporters(CACHE, app, 'cacheIncr', words)).toBe(false);
    expect(namedByImporters(CACHE, app, 'cacheTouch', words)).toBe(false);
    expect(namedByImporters(CACHE, app, 'cacheDecr', words)).toBe(true);
    expect(namedByImporters(CACHE, app, 'cacheBump', words)).toBe(true);
    expect(namedByImporters(CACHE, app, 'cacheLoad', words)).toBe(true);
    expect(namedByImporters(CACHE, app, 'cacheDeep', words)).toBe(true);
    // other/counter.ts writes the word, but imports neither cache.ts nor the barrel
    expect(readFileSync(join(app, 'other/counter.ts'), 'utf8')).toContain('metrics.cacheTouch(id)');
    // a name no module writes is named nowhere, whatever the walk
    expect(namedByImporters(CACHE, app, 'cacheNowhere', words)).toBe(false);
  });

  it('a module importing the helper by name and not passing it on names it, even with no use written; a type-only import does not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uncalled-import-'));
    try {
      const middleware = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport const apiKeyAuth = async (key: string) => {\n  await redis.incr(`rate_limit:${key}`);\n};\n";
      const make = (sub: string, server: string) => {
        mkdirSync(join(dir, sub), { recursive: true });
        writeFileSync(join(dir, sub, 'package.json'), '{ "name": "s", "private": true }');
        writeFileSync(join(dir, sub, 'auth.ts'), middleware);
        writeFileSync(join(dir, sub, 'server.ts'), server);
        return join(dir, sub, 'auth.ts');
      };
      const run = (file: string) => {
        const linter = new Linter({ configType: 'flat', cwd: dir });
        const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: 'error' } as Linter.RulesRecord }];
        return linter.verify(readFileSync(file, 'utf8'), config, { filename: file }).map((m) => [m.line, m.column, m.messageId]);
      };
      // server.ts imports apiKeyAuth and never writes it again: the import wires it in, reported
      expect(run(make('unused', "import { apiKeyAuth } from './auth';\nexport const app = 1;\n"))).toEqual([[4, 15, 'noExpiry']]);
      // a type-only import binds no value: nothing can call it
      expect(run(make('typed', "import type { apiKeyAuth } from './auth';\nexport const app = 1;\n"))).toEqual([]);
      // a barrel's import passed on in its own export list stays a re-export, no call
      expect(run(make('barrel', "import { apiKeyAuth } from './auth';\nexport { apiKeyAuth };\n"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a re-export under a new name is followed as the new name: called only where the re-exporting module\'s importers write it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uncalled-renamed-'));
    try {
      const redis = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function mset(key: string) {\n  await redis.incr(`mset:${key}`);\n}\nexport async function set(key: string) {\n  await redis.get(key);\n}\n";
      const make = (sub: string, files: Record<string, string>) => {
        mkdirSync(join(dir, sub), { recursive: true });
        writeFileSync(join(dir, sub, 'package.json'), '{ "name": "s", "private": true }');
        writeFileSync(join(dir, sub, 'redis.ts'), redis);
        for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, sub, path), text);
        return join(dir, sub, 'redis.ts');
      };
      const run = (file: string) => {
        const linter = new Linter({ configType: 'flat', cwd: dir });
        const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: 'error' } as Linter.RulesRecord }];
        return linter.verify(readFileSync(file, 'utf8'), config, { filename: file }).map((m) => [m.line, m.column, m.messageId]);
      };
      const barrel = "export { mset as redisMset, set as redisSet } from './redis';\n";
      // smart-hospital's utils/index.ts: re-exported as redisMset, which no importer writes: uncalled
      expect(run(make('unused', { 'index.ts': barrel, 'server.ts': "import { redisSet } from './index';\nexport const run = () => redisSet('a');\n" }))).toEqual([]);
      // the new name written only by a module that imports neither the barrel nor redis.ts: no caller
      expect(run(make('elsewhere', { 'index.ts': barrel, 'server.ts': "import { redisSet } from './index';\nexport const run = () => redisSet('a');\n", 'other.ts': "const redisMset = (k: string) => k;\nexport const o = redisMset('b');\n" }))).toEqual([]);
      // near misses, reported: the new name called by an importer, through a namespace, or as a default export
      expect(run(make('called', { 'index.ts': barrel, 'server.ts': "import { redisMset } from './index';\nexport const run = () => redisMset('a');\n" }))).toEqual([[4, 15, 'noExpiry']]);
      expect(run(make('namespace', { 'index.ts': barrel, 'server.ts': "import * as r from './index';\nexport const run = () => r.redisMset('a');\n" }))).toEqual([[4, 15, 'noExpiry']]);
      expect(run(make('default', { 'index.ts': "export { mset as default } from './redis';\n", 'server.ts': "import write from './index';\nexport const run = () => write('a');\n" }))).toEqual([[4, 15, 'noExpiry']]);
      // renamed twice: followed through the second barrel to its importer's call
      expect(run(make('twice', { 'index.ts': barrel, 'api.ts': "export { redisMset as cacheMset } from './index';\n", 'server.ts': "import { cacheMset } from './api';\nexport const run = () => cacheMset('a');\n" }))).toEqual([[4, 15, 'noExpiry']]);
      // the original name still called through an importer of the barrel (`export *` passes it on as mset)
      expect(run(make('star', { 'index.ts': `${barrel}export * from './redis';\n`, 'server.ts': "import { mset } from './index';\nexport const run = () => mset('a');\n" }))).toEqual([[4, 15, 'noExpiry']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a workspace root keeps the package-wide word search: a sibling package may import the barrel', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uncalled-ws-'));
    try {
      const cache = "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function bump(key: string) {\n  await redis.incr(`bump:${key}`);\n}\n";
      const make = (sub: string, manifest: string) => {
        mkdirSync(join(dir, sub, 'lib'), { recursive: true });
        writeFileSync(join(dir, sub, 'package.json'), manifest);
        writeFileSync(join(dir, sub, 'lib/cache.ts'), cache);
        writeFileSync(join(dir, sub, 'lib/index.ts'), "export { bump } from './cache';\n");
        writeFileSync(join(dir, sub, 'main.ts'), "import './lib';\n");
        return join(dir, sub, 'lib/cache.ts');
      };
      const run = (file: string) => {
        const linter = new Linter({ configType: 'flat', cwd: dir });
        const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: 'error' } as Linter.RulesRecord }];
        return linter.verify(readFileSync(file, 'utf8'), config, { filename: file }).map((m) => [m.line, m.column, m.messageId]);
      };
      // an application: the barrel's re-export is no call
      expect(run(make('app', '{ "name": "a", "private": true }'))).toEqual([]);
      // a workspace root: packages/* (listed apart) may import the barrel and call bump
      expect(run(make('root', '{ "name": "r", "private": true, "workspaces": ["packages/*"] }'))).toEqual([[4, 15, 'noExpiry']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
