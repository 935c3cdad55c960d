/**
 * Writes in code that never runs (redis-calls/uncalled.ts): `recommended` (allowUncalledCode)
 * leaves out a write in a method or function of an application that nothing else in the
 * application names; `strict` reports it and names the function. The fixture
 * (tests/fixtures/uncalled) holds one service module in four packages: `app` (`"private": true`,
 * with callers in main.ts), `server` (`main` run by its `start` script, no `private`: an
 * application too), `lib` (a published library: its methods are its API) and `mono` (a private
 * workspace member: a sibling package may import it).
 *
 * The limits stay reported: a method called from another module, through `this.`, through
 * destructuring, named by a string, called only by a computed name (`svc[name](id)`), a
 * framework's hook (`onModuleInit`), a decorated method (`@Cron`), a method of a class that
 * extends another, an exported function of a module nobody imports (an entry point), a write at
 * a module's top level, and everything in a library or a workspace member.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { applicationRoot } from '../../redis-calls/uncalled.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'uncalled');

const INCR = 'incr-needs-expire-on-create' as const;
const SET = 'set-requires-ttl-or-keepttl' as const;

/** [rule, messageId, line, column] of each finding of the two write rules on the fixture file `file`. */
function lint(file: string, options: Record<string, unknown> = {}) {
  return findings(file, options).map((m) => [m.ruleId?.replace('redis-ttl/', ''), m.messageId, m.line, m.column]);
}

function findings(file: string, options: Record<string, unknown> = {}) {
  const filename = join(fixtures, file);
  const rules: Record<string, unknown> = {};
  for (const name of [INCR, SET]) rules[`redis-ttl/${name}`] = ['error', options];
  const linter = new Linter({ configType: 'flat' });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: rules as Linter.RulesRecord }];
  return linter.verify(readFileSync(filename, 'utf8'), config, { filename });
}

// store.service.ts: 7 bump (named nowhere else), 10 mark (main.ts calls store.mark), 13 viaThis
// (run() calls this.viaThis), 16 destructured (main.ts: const { destructured } = store), 19
// byString (jobs.ts names it in a string), 22 onlyTests (only a test calls it), 25 onModuleInit (a
// framework hook), 29 sweep (decorated: @Cron), 39 countVisit (exported, named nowhere else), 43
// usedFn (main.ts calls it), 47 orphan (not exported, unnamed), 51 arrowHelper (an exported const)
const EVERY_WRITE = [
  [INCR, 'noExpiry', 7, 17],
  [SET, 'setWithoutTtl', 10, 17],
  [INCR, 'noExpiry', 13, 17],
  [INCR, 'noExpiry', 16, 17],
  [INCR, 'noExpiry', 19, 17],
  [INCR, 'noExpiry', 22, 17],
  [SET, 'setWithoutTtl', 25, 17],
  [INCR, 'noExpiry', 29, 17],
  [INCR, 'noExpiry', 39, 15],
  [INCR, 'noExpiry', 43, 15],
  [INCR, 'noExpiry', 47, 15],
  [INCR, 'noExpiry', 51, 15],
];
const UNCALLED_LINES = [7, 22, 39, 47, 51];

describe('a write in code that never runs', () => {
  it('recommended leaves out the writes of functions and methods nothing else in the application names', () => {
    expect(lint('app/store.service.ts')).toEqual(EVERY_WRITE.filter(([, , line]) => !UNCALLED_LINES.includes(line as number)));
  });

  it('keeps a method called from another module, through this., through destructuring, or named by a string', () => {
    const lines = lint('app/store.service.ts').map(([, , line]) => line);
    expect(lines).toEqual(expect.arrayContaining([10, 13, 16, 19, 43]));
  });

  it('keeps a framework hook, a decorated method, a class extending another, a computed-name call', () => {
    expect(lint('app/store.service.ts').filter(([, , line]) => line === 25 || line === 29)).toEqual([
      [SET, 'setWithoutTtl', 25, 17],
      [INCR, 'noExpiry', 29, 17],
    ]);
    // Worker extends Base: tick is called, idle is not, both stay (the base class may call idle)
    expect(lint('app/worker.ts')).toEqual([
      [INCR, 'noExpiry', 8, 17],
      [INCR, 'noExpiry', 11, 17],
    ]);
    // dispatcher.ts calls new Dispatch()[name](id): fire is named nowhere, but may be called
    expect(lint('app/dispatch.service.ts')).toEqual([[INCR, 'noExpiry', 7, 17]]);
  });

  it('a handler map the importer declares itself, called by a computed name, calls no method of the service', () => {
    // main.ts: const steps = { ... }; steps[name]?.() beside its import of store.service
    expect(readFileSync(join(fixtures, 'app/main.ts'), 'utf8')).toContain('steps[name]?.()');
    expect(lint('app/store.service.ts').some(([, , line]) => line === 7)).toBe(false);
  });

  it('keeps an exported function of a module nobody imports (an entry point) and a top-level write', () => {
    expect(lint('app/entry.ts')).toEqual([
      [INCR, 'noExpiry', 6, 15],
      [INCR, 'noExpiry', 9, 7],
    ]);
  });

  it('strict (allowUncalledCode: false) reports them all, naming the uncalled function', () => {
    expect(lint('app/store.service.ts', { allowUncalledCode: false })).toEqual(EVERY_WRITE);
    const messages = findings('app/store.service.ts', { allowUncalledCode: false });
    expect(messages.filter((m) => m.message.includes('Nothing else in the application names')).map((m) => [m.line, /`([^`]+)`: if it is dead code/.exec(m.message)?.[1]])).toEqual([
      [7, 'StoreService.bump'],
      [22, 'StoreService.onlyTests'],
      [39, 'countVisit'],
      [47, 'orphan'],
      [51, 'arrowHelper'],
    ]);
  });

  it('reads JavaScript parsed by espree (no decorators or implements on its class nodes)', () => {
    const filename = join(fixtures, 'app/cache.js');
    const linter = new Linter({ configType: 'flat' });
    const config = [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' as const }, plugins: { 'redis-ttl': plugin }, rules: { 'redis-ttl/incr-needs-expire-on-create': 'error' as const } }];
    const code = "const Redis = require('ioredis');\nconst redis = new Redis();\nclass Cache {\n  async tick(id) {\n    await redis.incr(`ticks:${id}`);\n  }\n}\nmodule.exports = { Cache };\n";
    // `tick` is named nowhere else, but nothing imports cache.js (a file of this test only): reported
    expect(linter.verify(code, config, { filename }).map((m) => [m.line, m.column, m.messageId])).toEqual([[5, 17, 'noExpiry']]);
  });

  it('the strict config turns allowUncalledCode off', () => {
    const strict = plugin.configs?.strict as { rules?: Record<string, unknown> } | undefined;
    for (const name of [INCR, SET, 'no-getset']) expect((strict?.rules?.[`redis-ttl/${name}`] as unknown[])[1]).toMatchObject({ allowUncalledCode: false });
  });

  it('a server whose own start script runs one of its files (no private, no publishing field) is an application', () => {
    // server/package.json: "start": "node dist/index.js"; index.ts imports store and passes it on:
    // only the hook and the decorated method are reached (viaThis's one caller, run, is called by
    // nothing here: code nothing runs too)
    expect(lint('server/store.service.ts')).toEqual(EVERY_WRITE.filter(([, , line]) => [25, 29].includes(line as number)));
    expect(lint('server/store.service.ts', { allowUncalledCode: false })).toEqual(EVERY_WRITE);
  });

  it('a start script that names no file of the package, or a package with a publishing field, stays a library', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uncalled-start-'));
    try {
      const make = (sub: string, manifest: Record<string, unknown>) => {
        mkdirSync(join(dir, sub), { recursive: true });
        writeFileSync(join(dir, sub, 'package.json'), JSON.stringify({ name: sub, version: '1.0.0', ...manifest }));
        return join(dir, sub, 'service.js');
      };
      expect(applicationRoot(make('server', { main: 'dist/server.js', scripts: { start: 'NODE_ENV=production node dist/server.js' } }))).toBe(join(dir, 'server'));
      expect(applicationRoot(make('tsx', { scripts: { start: "tsx './src/main.ts'" } }))).toBe(join(dir, 'tsx'));
      expect(applicationRoot(make('next', { scripts: { start: 'next start' } }))).toBeUndefined();
      expect(applicationRoot(make('flags', { scripts: { start: 'node --max-old-space-size=2000 -r dotenv/config' } }))).toBeUndefined();
      expect(applicationRoot(make('outside', { scripts: { start: 'node ../other/index.js' } }))).toBeUndefined();
      expect(applicationRoot(make('dependency', { scripts: { start: 'node node_modules/serve/bin/serve.js' } }))).toBeUndefined();
      expect(applicationRoot(make('typed', { main: 'dist/index.js', types: 'dist/index.d.ts', scripts: { start: 'node dist/index.js' } }))).toBeUndefined();
      expect(applicationRoot(make('files', { main: 'dist/index.js', files: ['dist'], scripts: { start: 'node dist/index.js' } }))).toBeUndefined();
      expect(applicationRoot(make('cli', { bin: { cli: 'bin/cli.js' }, scripts: { start: 'node server.js' } }))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a library (its methods are its API) and a workspace member (a sibling may import it) keep every write', () => {
    expect(lint('lib/store.service.ts')).toEqual(EVERY_WRITE);
    expect(lint('mono/packages/svc/store.service.ts')).toEqual(EVERY_WRITE);
  });

  it('applicationRoot tells applications from libraries and workspace members', () => {
    expect(applicationRoot(join(fixtures, 'app/main.ts'))).toBe(join(fixtures, 'app'));
    expect(applicationRoot(join(fixtures, 'server/index.ts'))).toBe(join(fixtures, 'server'));
    expect(applicationRoot(join(fixtures, 'lib/index.ts'))).toBeUndefined();
    expect(applicationRoot(join(fixtures, 'mono/packages/svc/index.ts'))).toBeUndefined();
  });

  it('a package with no entry field and no private is a library; a private one under node_modules is an installed dependency', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uncalled-'));
    try {
      const make = (sub: string, index: boolean) => {
        mkdirSync(join(dir, sub), { recursive: true });
        writeFileSync(join(dir, sub, 'package.json'), index ? '{ "name": "x", "version": "1.0.0" }' : '{ "name": "x", "private": true }');
        if (index) writeFileSync(join(dir, sub, 'index.js'), 'module.exports = {};');
        return join(dir, sub, 'service.js');
      };
      expect(applicationRoot(make('app', false))).toBe(join(dir, 'app'));
      expect(applicationRoot(make('published', true))).toBeUndefined();
      expect(applicationRoot(make('host/node_modules/dep', false))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
