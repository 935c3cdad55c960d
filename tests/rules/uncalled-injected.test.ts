/**
 * Three edges of "a write in code that never runs" (redis-calls/uncalled.ts), for services a
 * dependency-injection container builds or another service holds:
 *
 * - a class registered by a container's decorator (TypeDI `@Service()`, tsyringe `@injectable()` /
 *   `@singleton()`, InversifyJS `@injectable()`, imported from that container) is judged like one
 *   with Nest's `@Injectable()`: the container calls its constructor, never a method by name. The
 *   same decorator name imported from any other package (a framework that may call methods by
 *   name) keeps every write.
 * - an instance stored in a field of the same name by another class of the code (`this.presence =
 *   presence`, the constructor injection of plain classes) stays in the code's hands: its uses
 *   through `this.presence` are read as any other. Stored under another name (`this.store =
 *   presence`), it may be handed on under that name: it escapes, as before.
 * - a method whose only calls are `this.name(...)` calls of its own class (every other file naming
 *   it only in an interface's signature), all of them in methods
 *   nothing calls, never runs either. A comment naming it, or a string of its own body (a log
 *   message), calls nothing. A method one of whose own callers runs, that another module calls on
 *   an instance, that a string elsewhere names, or that another class declares too, stays reported.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const INCR = 'incr-needs-expire-on-create';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A project in a fresh directory: path to text (objects are written as JSON). */
function project(files: Record<string, string | object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'uncalled-injected-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof text === 'string' ? text : JSON.stringify(text));
  }
  return dir;
}

/** [line, column, messageId] of the INCR rule's findings on `file` (its default options: `allowUncalledCode` on). */
function lint(dir: string, file: string): Array<[number, number, string]> {
  const filename = join(dir, file);
  const linter = new Linter({ configType: 'flat', cwd: dir });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: 'error' } as Linter.RulesRecord }];
  return linter.verify(readFileSync(filename, 'utf8'), config, { filename }).map((m) => [m.line, m.column, m.messageId!]);
}

const APP = { name: 'app', private: true, scripts: { start: 'node dist/main.js' } };

/** A service whose `track` (line 7) nothing calls and whose `touch` (line 10) main.ts calls; `head` is its import line, `decorator` its class decorator. */
function service(head: string, decorator: string): string {
  return [
    head,
    "import Redis from 'ioredis';",
    decorator,
    'export class Presence {',
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

describe('a class a dependency-injection container registers', () => {
  it('is judged like an @Injectable(): its method nothing calls is left out', () => {
    for (const [head, decorator] of [
      ["import { Service } from 'typedi';", '@Service()'],
      ["import { Service as Registered } from 'typedi';", '@Registered()'],
      ["import { injectable } from 'tsyringe';", '@injectable()'],
      ["import { singleton } from 'tsyringe';", '@singleton()'],
      ["import { injectable } from 'inversify';", '@injectable()'],
    ]) {
      const dir = project({ 'package.json': APP, 'src/presence.ts': service(head!, decorator!), 'src/main.ts': MAIN });
      expect(lint(dir, 'src/presence.ts'), decorator).toEqual([[10, 22, 'noExpiry']]);
    }
  });

  it('stays reported under the same decorator name from another package, or one the module declares', () => {
    for (const [head, decorator] of [
      ["import { Service } from 'moleculer-decorators';", '@Service()'],
      ["import { Service } from './registry';", '@Service()'],
      ['', '@Service()'],
      ["import { Controller } from 'typedi';", '@Controller()'],
    ]) {
      const dir = project({ 'package.json': APP, 'src/presence.ts': service(head!, decorator!), 'src/main.ts': MAIN, 'src/registry.ts': 'export const Service = () => (c: unknown) => c;\n' });
      expect(lint(dir, 'src/presence.ts'), `${head} ${decorator}`).toEqual([[7, 22, 'noExpiry'], [10, 22, 'noExpiry']]);
    }
  });
});

describe('an instance another class of the code stores in a field of its own name', () => {
  const PLAIN = service('', '');
  const consumer = (store: string, use: string) =>
    [
      "import { Presence } from './presence';",
      'export class Consumer {',
      '  presence: Presence;',
      '  constructor(presence: Presence) {',
      `    ${store}`,
      '  }',
      `  run() { ${use} }`,
      '}',
      '',
    ].join('\n');
  const MAIN_INJECTS = "import { Presence } from './presence';\nimport { Consumer } from './consumer';\nexport const presence = new Presence();\nexport const consumer = new Consumer(presence);\npresence.touch('lobby');\n";

  it('stays in the code: the method nothing calls is left out', () => {
    const dir = project({ 'package.json': APP, 'src/presence.ts': PLAIN, 'src/consumer.ts': consumer('this.presence = presence', "return this.presence.touch('x');"), 'src/main.ts': MAIN_INJECTS });
    expect(lint(dir, 'src/presence.ts')).toEqual([[10, 22, 'noExpiry']]);
  });

  it('stays reported when stored under another name, or handed on from its field to a library', () => {
    const renamed = project({ 'package.json': APP, 'src/presence.ts': PLAIN, 'src/consumer.ts': consumer('this.store = presence', 'return 1;'), 'src/main.ts': MAIN_INJECTS });
    expect(lint(renamed, 'src/presence.ts')).toEqual([[7, 22, 'noExpiry'], [10, 22, 'noExpiry']]);
    const handed = project({
      'package.json': APP,
      'src/presence.ts': PLAIN,
      'src/consumer.ts': "import rateLimit from 'express-rate-limit';\n" + consumer('this.presence = presence', 'return rateLimit({ store: this.presence });'),
      'src/main.ts': MAIN_INJECTS,
    });
    expect(lint(handed, 'src/presence.ts')).toEqual([[7, 22, 'noExpiry'], [10, 22, 'noExpiry']]);
  });
});

describe('a method only methods of its own class nothing calls call', () => {
  /** `bump` (line 8) is called by `warm` (line 10) through `this`; `touch` (line 14) by main.ts; `extra` is written after `touch`. */
  const cache = (extra = '') =>
    [
      "import Redis from 'ioredis';",
      'export class Stats {',
      '  private redis = new Redis();',
      '  /**',
      '   * Raises a counter (see bump).',
      '   */',
      '  private async bump(user: string) {',
      '    await this.redis.hincrby(`stats:${user}`, "n", 1).catch(() => console.error("bump failed"));',
      '  }',
      '  async warm(users: string[]) {',
      '    for (const user of users) await this.bump(user);',
      '  }',
      '  async touch(room: string) {',
      '    await this.redis.incr(`touch:${room}`);',
      '  }',
      extra,
      '}',
      '',
    ].join('\n');
  const STATS_MAIN = "import { Stats } from './stats';\nexport const stats = new Stats();\nstats.touch('lobby');\n";

  it("is left out, whatever a comment or an interface's signature of the same name says", () => {
    const dir = project({
      'package.json': APP,
      'src/stats.ts': cache(),
      'src/main.ts': STATS_MAIN,
      'src/contract.ts': 'export interface Counter {\n  bump(user: string): Promise<void>;\n}\n',
    });
    expect(lint(dir, 'src/stats.ts')).toEqual([[14, 22, 'noExpiry']]);
  });

  it('stays reported when its caller runs, another module or a string names it, or its callers call each other', () => {
    const called = project({ 'package.json': APP, 'src/stats.ts': cache(), 'src/main.ts': STATS_MAIN + "stats.warm(['a']);\n" });
    expect(lint(called, 'src/stats.ts')).toEqual([[8, 22, 'noExpiry'], [14, 22, 'noExpiry']]);
    const outside = project({ 'package.json': APP, 'src/stats.ts': cache(), 'src/main.ts': STATS_MAIN, 'src/job.ts': "import { stats } from './main';\nexport const run = (s: any) => s.bump('a');\n" });
    expect(lint(outside, 'src/stats.ts')).toEqual([[8, 22, 'noExpiry'], [14, 22, 'noExpiry']]);
    // another class with a method of the same name (Dinhpham04's two cacheRecentMessages: the
    // tuning set's maintainers judged such a write by what it does)
    const namesake = project({ 'package.json': APP, 'src/stats.ts': cache(), 'src/main.ts': STATS_MAIN, 'src/legacy.ts': "export class LegacyStats {\n  bump(u: string) { return u; }\n  warm(us: string[]) { return us.map((u) => this.bump(u)); }\n}\n" });
    expect(lint(namesake, 'src/stats.ts')).toEqual([[8, 22, 'noExpiry'], [14, 22, 'noExpiry']]);
    // a string outside its own body may name it for a call by a computed name
    const named = project({ 'package.json': APP, 'src/stats.ts': cache(), 'src/main.ts': STATS_MAIN, 'src/job.ts': "export const method = 'bump';\n" });
    expect(lint(named, 'src/stats.ts')).toEqual([[8, 22, 'noExpiry'], [14, 22, 'noExpiry']]);
    // two methods calling each other and nothing else: read conservatively, both kept
    const mutual = project({
      'package.json': APP,
      'src/stats.ts': "import Redis from 'ioredis';\nexport class Stats {\n  private redis = new Redis();\n  async ping(n: number): Promise<void> {\n    await this.redis.incr(`ping:${n}`);\n    if (n > 0) await this.pong(n - 1);\n  }\n  async pong(n: number): Promise<void> {\n    if (n > 0) await this.ping(n - 1);\n  }\n}\n",
      'src/main.ts': "import { Stats } from './stats';\nexport const stats = new Stats();\n",
    });
    expect(lint(mutual, 'src/stats.ts')).toEqual([[5, 22, 'noExpiry']]);
    // a constructor runs whenever the class is built
    const built = project({ 'package.json': APP, 'src/stats.ts': cache("  constructor() { void this.bump('boot'); }"), 'src/main.ts': STATS_MAIN });
    expect(lint(built, 'src/stats.ts')).toEqual([[8, 22, 'noExpiry'], [14, 22, 'noExpiry']]);
  });
});
