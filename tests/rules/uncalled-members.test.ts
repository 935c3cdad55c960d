/**
 * Two edges of "a write in code that never runs" (redis-calls/uncalled.ts):
 *
 * - a method of a class whose base is Node's `EventEmitter` (`events`, `node:events`,
 *   `eventemitter3`) is judged like one of a class that extends nothing: the emitter calls the
 *   listeners it is given, never a method of its subclass. Any other base class (one of the code,
 *   or a package's) may call a method by name: its methods stay reported.
 * - a monorepo's process, a workspace member with its own `start` script that no package of the
 *   workspace (nor its root) depends on, is an application: its helpers nobody calls are left out.
 *   A member some package depends on, or one without `start` (a library its siblings may reach by
 *   a path alias), keeps every write. A pnpm root that is `pnpm-workspace.yaml` alone (no
 *   package.json) depends on nothing; one whose package.json does not parse leaves it unknown.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { applicationRoot } from '../../redis-calls/uncalled.js';

const INCR = 'incr-needs-expire-on-create';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A project in a fresh directory: path to text (objects are written as JSON). */
function project(files: Record<string, string | object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'uncalled-members-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof text === 'string' ? text : JSON.stringify(text));
  }
  return dir;
}

/** [line, column, messageId] of the INCR rule's findings on `file`. */
function lint(dir: string, file: string): Array<[number, number, string]> {
  const filename = join(dir, file);
  const linter = new Linter({ configType: 'flat', cwd: dir });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: 'error' } as Linter.RulesRecord }];
  return linter.verify(readFileSync(filename, 'utf8'), config, { filename }).map((m) => [m.line, m.column, m.messageId!]);
}

/** A service whose `track` (line 6) nothing calls and whose `touch` (line 9) main.ts calls; `base` is its `extends` clause and `head` its import lines. */
function service(head: string, base: string): string {
  return [
    head,
    "import Redis from 'ioredis';",
    `export class Presence ${base}{`,
    '  private redis = new Redis();',
    '  async track(room: string) {',
    '    await this.redis.incr(`presence:${room}`);',
    '  }',
    '  async touch(room: string) {',
    '    await this.redis.incr(`touch:${room}`);',
    '  }',
    '}',
    '',
  ].join('\n');
}
const MAIN = "import { Presence } from './presence';\nexport const presence = new Presence();\npresence.touch('lobby');\n";
const APP = { name: 'app', private: true, scripts: { start: 'node dist/main.js' } };

describe('a method of an EventEmitter subclass', () => {
  it('is left out when nothing names it, for every way of importing EventEmitter', () => {
    for (const [head, base] of [
      ["import { EventEmitter } from 'node:events';", 'extends EventEmitter '],
      ["import EventEmitter from 'events';", 'extends EventEmitter '],
      ["import * as events from 'events';", 'extends events.EventEmitter '],
      ["import EE from 'eventemitter3';", 'extends EE '],
      ["const { EventEmitter } = require('events');", 'extends EventEmitter '],
      ["const Emitter = require('events').EventEmitter;", 'extends Emitter '],
    ]) {
      const dir = project({ 'package.json': APP, 'src/presence.ts': service(head!, base!), 'src/main.ts': MAIN });
      expect(lint(dir, 'src/presence.ts'), head).toEqual([[9, 22, 'noExpiry']]);
    }
  });

  it('stays reported under any other base class: the code\'s own, or an EventEmitter the module declares itself', () => {
    const own = project({ 'package.json': APP, 'src/presence.ts': service("import { EventEmitter } from './emitter';", 'extends EventEmitter '), 'src/emitter.ts': 'export class EventEmitter {}\n', 'src/main.ts': MAIN });
    expect(lint(own, 'src/presence.ts')).toEqual([[6, 22, 'noExpiry'], [9, 22, 'noExpiry']]);
    const worker = project({ 'package.json': APP, 'src/presence.ts': service("import { WorkerHost } from '@nestjs/bullmq';", 'extends WorkerHost '), 'src/main.ts': MAIN });
    expect(lint(worker, 'src/presence.ts')).toEqual([[6, 22, 'noExpiry'], [9, 22, 'noExpiry']]);
    // namespace import, but a member other than EventEmitter
    const other = project({ 'package.json': APP, 'src/presence.ts': service("import * as events from 'events';", 'extends events.Other '), 'src/main.ts': MAIN });
    expect(lint(other, 'src/presence.ts')).toEqual([[6, 22, 'noExpiry'], [9, 22, 'noExpiry']]);
  });
});

describe('a workspace member that is a process nobody installs', () => {
  const SERVICE = service('', '');
  const workspace = (member: Record<string, unknown>, web: Record<string, unknown>) =>
    project({
      'package.json': { name: 'mono', private: true, workspaces: ['apps/*'] },
      'apps/api/package.json': member,
      'apps/api/src/presence.ts': SERVICE,
      'apps/api/src/main.ts': MAIN,
      'apps/web/package.json': web,
      'apps/web/src/page.ts': 'export const page = 1;\n',
    });

  it('is an application: its method nobody calls is left out', () => {
    const dir = workspace({ name: '@mono/api', private: true, scripts: { start: 'node dist/main.js' } }, { name: '@mono/web', private: true });
    expect(applicationRoot(join(dir, 'apps/api/src/presence.ts'))).toBe(join(dir, 'apps/api'));
    expect(lint(dir, 'apps/api/src/presence.ts')).toEqual([[9, 22, 'noExpiry']]);
  });

  it('a member a sibling depends on, or one without start, keeps every write', () => {
    const depended = workspace({ name: '@mono/api', private: true, scripts: { start: 'node dist/main.js' } }, { name: '@mono/web', private: true, dependencies: { '@mono/api': 'workspace:*' } });
    expect(applicationRoot(join(depended, 'apps/api/src/presence.ts'))).toBeUndefined();
    expect(lint(depended, 'apps/api/src/presence.ts')).toEqual([[6, 22, 'noExpiry'], [9, 22, 'noExpiry']]);
    const library = workspace({ name: '@mono/api', private: true }, { name: '@mono/web', private: true });
    expect(applicationRoot(join(library, 'apps/api/src/presence.ts'))).toBeUndefined();
  });

  /** The same workspace under a pnpm root that is `pnpm-workspace.yaml` alone (no package.json: post-ranking-js), or with `rootManifest` written as given. */
  const pnpmWorkspace = (member: Record<string, unknown>, web: Record<string, unknown>, rootManifest?: string) =>
    project({
      'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n",
      ...(rootManifest === undefined ? {} : { 'package.json': rootManifest }),
      'apps/api/package.json': member,
      'apps/api/src/presence.ts': SERVICE,
      'apps/api/src/main.ts': MAIN,
      'apps/web/package.json': web,
      'apps/web/src/page.ts': 'export const page = 1;\n',
    });

  it('under a pnpm root with no package.json, which depends on nothing, is an application too', () => {
    const dir = pnpmWorkspace({ name: 'backend', scripts: { start: 'tsx src/main.ts' } }, { name: 'frontend', private: true });
    expect(applicationRoot(join(dir, 'apps/api/src/presence.ts'))).toBe(join(dir, 'apps/api'));
    expect(lint(dir, 'apps/api/src/presence.ts')).toEqual([[9, 22, 'noExpiry']]);
  });

  it('under a pnpm root with no package.json, a member a sibling depends on, one without start, or a root manifest that does not parse keep every write', () => {
    const depended = pnpmWorkspace({ name: 'backend', scripts: { start: 'tsx src/main.ts' } }, { name: 'frontend', private: true, dependencies: { backend: 'workspace:*' } });
    expect(applicationRoot(join(depended, 'apps/api/src/presence.ts'))).toBeUndefined();
    expect(lint(depended, 'apps/api/src/presence.ts')).toEqual([[6, 22, 'noExpiry'], [9, 22, 'noExpiry']]);
    const library = pnpmWorkspace({ name: 'backend', private: true }, { name: 'frontend', private: true });
    expect(lint(library, 'apps/api/src/presence.ts')).toEqual([[6, 22, 'noExpiry'], [9, 22, 'noExpiry']]);
    const unreadable = pnpmWorkspace({ name: 'backend', scripts: { start: 'tsx src/main.ts' } }, { name: 'frontend', private: true }, '{ "name": "mono", ');
    expect(applicationRoot(join(unreadable, 'apps/api/src/presence.ts'))).toBeUndefined();
    expect(lint(unreadable, 'apps/api/src/presence.ts')).toEqual([[6, 22, 'noExpiry'], [9, 22, 'noExpiry']]);
  });

  it('reads the workspace root\'s deployment files for the names they start', () => {
    const dir = workspace({ name: '@mono/api', private: true, scripts: { start: 'node dist/main.js' } }, { name: '@mono/web', private: true });
    writeFileSync(join(dir, 'serverless.yml'), 'functions:\n  sweep:\n    handler: apps/api/dist/presence.track\n');
    expect(lint(dir, 'apps/api/src/presence.ts')).toEqual([[6, 22, 'noExpiry'], [9, 22, 'noExpiry']]);
  });
});

describe('a method named only by a module specifier', () => {
  // a specifier names a module (`'./track'` is src/track.ts), never a method: the words of
  // `from '…'`, `require('…')` and `import('…')` strings are no use of `track`
  const TRACK = { 'src/track.ts': 'export const t = 1;\n' };
  it('is left out: the specifier\'s last segment is the method\'s name', () => {
    for (const other of ["import { t } from './track';\nexport const u = t;\n", "const { t } = require('./track');\nexport const u = t;\n", "export const load = () => import('./track');\n", "export { t } from './track';\n"]) {
      const dir = project({ 'package.json': APP, 'src/presence.ts': service('', ''), 'src/main.ts': MAIN, ...TRACK, 'src/other.ts': other });
      expect(lint(dir, 'src/presence.ts'), other).toEqual([[9, 22, 'noExpiry']]);
    }
  });

  it('stays reported when any other string names it (a computed member) or an identifier calls it', () => {
    for (const other of ["import { presence } from './main';\nexport const go = () => (presence as any)['track']('x');\n", "import { presence } from './main';\nimport { t } from './track';\nexport const go = () => presence.track(String(t));\n"]) {
      const dir = project({ 'package.json': APP, 'src/presence.ts': service('', ''), 'src/main.ts': MAIN, ...TRACK, 'src/other.ts': other });
      expect(lint(dir, 'src/presence.ts'), other).toEqual([
        [6, 22, 'noExpiry'],
        [9, 22, 'noExpiry'],
      ]);
    }
  });
});
