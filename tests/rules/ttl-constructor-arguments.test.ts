/**
 * `expire-needs-positive-ttl`: a TTL division whose dividend is a member set from a constructor's
 * argument (`this.config = config`, then `this.config.timeWindow / 1000`) is judged by the values
 * every `new` of the class gives it (`redis-calls/constructor-arguments.ts`), read in the class's
 * file and, for an exported class of an application (`"private": true`), in the modules of its
 * package that import it (InterChat's AntiSpamManager: `new AntiSpamManager({ timeWindow: 3000 })`
 * in BaseClient, so `timeWindow / 1000` is 3, never a fraction).
 *
 * Limits (stay reported): a `new` giving a value that is no multiple (`1500 / 1000`, a fraction
 * Redis rejects) or under the divisor when rounded down (`Math.floor(500 / 1000)` = 0), a `new`
 * whose argument is no constant, a library (its classes are constructed outside it), a class used
 * otherwise than by `new` (passed as a value), an argument property written in the class's file,
 * and a literal dividend that is no multiple (`expire(k, 1500 / 1000)`). A build's copy of the code
 * (`build/`, `dist/`) constructs its own copy of the class: not read.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import rule from '../../rules/expire-needs-positive-ttl.js';
import { fixturesDir, ioredis, runRule, untypedTester } from './tester.js';

// under the repository (not the system's temporary folder), where the re-lint of suggestions lints too
const root = mkdtempSync(join(fixturesDir, 'ctor-args-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes an application (or a library, `private: false`) under `root/name` and returns its folder. */
function project(name: string, files: Record<string, string>, isPrivate = true): string {
  const dir = join(root, name);
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name, private: isPrivate, type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '#src/*': ['./src/*'] } } }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** InterChat's AntiSpamManager, its TTL expression `ttl`: the linted file (line 9 holds the call). */
const manager = (ttl: string): string =>
  ioredis(
    `export default class AntiSpamManager {\n  private config: SpamConfig;\n  constructor(config: SpamConfig) {\n    this.config = config;\n  }\n  async save(key: string) {\n    await redis.expire(key, ${ttl});\n  }\n}\ninterface SpamConfig {\n  timeWindow: number;\n}`,
  );
/** The module constructing it, as BaseClient does (a field of another class). */
const client = (window: string): string =>
  `import AntiSpamManager from '#src/managers/AntiSpamManager.js';\nexport class BaseClient {\n  readonly antiSpam = new AntiSpamManager({ spamThreshold: 4, timeWindow: ${window} });\n}\n`;

const whole = project('whole', { 'src/managers/AntiSpamManager.ts': manager('this.config.timeWindow / 1000'), 'src/core/BaseClient.ts': client('3000') });
const fraction = project('fraction', { 'src/managers/AntiSpamManager.ts': manager('this.config.timeWindow / 1000'), 'src/core/BaseClient.ts': client('1500') });
const small = project('small', { 'src/managers/AntiSpamManager.ts': manager('this.config.timeWindow / 1000'), 'src/core/BaseClient.ts': client('500') });
const unknown = project('unknown', {
  'src/managers/AntiSpamManager.ts': manager('this.config.timeWindow / 1000'),
  'src/core/BaseClient.ts': client('3000'),
  'src/core/Other.ts': "import AntiSpamManager from '../managers/AntiSpamManager';\nexport const make = (ms: number) => new AntiSpamManager({ timeWindow: ms });\n",
});
const library = project('library', { 'src/managers/AntiSpamManager.ts': manager('this.config.timeWindow / 1000'), 'src/core/BaseClient.ts': client('3000') }, false);
const passed = project('passed', {
  'src/managers/AntiSpamManager.ts': manager('this.config.timeWindow / 1000'),
  'src/core/BaseClient.ts': client('3000'),
  'src/core/registry.ts': "import AntiSpamManager from '#src/managers/AntiSpamManager.js';\nexport const kinds = [AntiSpamManager];\n",
});
// a build of the application beside its sources: its copy constructs its own copy of the class
const withBuild = project('with-build', {
  'src/managers/AntiSpamManager.ts': manager('this.config.timeWindow / 1000'),
  'src/core/BaseClient.ts': client('3000'),
  'build/managers/AntiSpamManager.js': 'export default class AntiSpamManager {}\n',
  'build/core/BaseClient.js': "import AntiSpamManager from '../managers/AntiSpamManager.js';\nexport const c = new AntiSpamManager({ timeWindow: 1 });\n",
});
const file = (dir: string): string => join(dir, 'src', 'managers', 'AntiSpamManager.ts');

/** A class of the file that writes its argument's property (`this.opts.windowMs += 500`), its TTL `ttl` on line 9. */
const widened = (ttl: string): string =>
  ioredis(
    `class Limiter {\n  constructor(private readonly opts: { windowMs: number }) {}\n  widen() {\n    this.opts.windowMs += 500;\n  }\n  hit(key: string) {\n    return redis.expire(key, ${ttl});\n  }\n}\nexport const limiter = new Limiter({ windowMs: 60_000 });`,
  );

/** The finding on `text` (line 9 of {@link manager}), with its clamp suggestion. */
function reported(dir: string, ttl: string, clamp: string) {
  const code = manager(ttl);
  return {
    code,
    filename: file(dir),
    errors: [{ messageId: 'computed' as const, line: 9, column: 29, suggestions: [{ messageId: 'clampToOne' as const, output: manager(clamp) }] }],
  };
}

runRule(untypedTester, 'expire-needs-positive-ttl (a constructor argument)', rule, {
  valid: [
    // InterChat: the one `new` in another module of the application passes 3000
    { code: manager('this.config.timeWindow / 1000'), filename: file(whole) },
    { code: manager('Math.floor(this.config.timeWindow / 1000)'), filename: file(whole) },
    { code: manager('this.config.timeWindow / 1000'), filename: file(withBuild) },
    // rounded down, 1500 gives 1: never 0
    { code: manager('Math.floor(this.config.timeWindow / 1000)'), filename: file(fraction) },
    // a class of the file alone, its `new` in the file; a parameter property; a parameter's property
    ioredis(
      'class Limiter {\n  constructor(private readonly opts: { windowMs: number }) {}\n  hit(key: string) {\n    return redis.expire(key, this.opts.windowMs / 1000);\n  }\n}\nexport const limiter = new Limiter({ windowMs: 60_000 });',
    ),
    ioredis(
      'const WINDOW_MS = 2 * 60 * 1000;\nclass Limiter {\n  private readonly windowMs: number;\n  constructor(options: { windowMs: number }) {\n    this.windowMs = options.windowMs;\n  }\n  hit(key: string) {\n    return redis.expire(key, this.windowMs / 1000);\n  }\n}\nexport const a = new Limiter({ windowMs: WINDOW_MS });\nexport const b = new Limiter({ windowMs: 5000 });',
    ),
  ],
  invalid: [
    // a `new` giving 1500: 1.5, which EXPIRE rejects
    reported(fraction, 'this.config.timeWindow / 1000', 'Math.max(1, Math.ceil(this.config.timeWindow / 1000))'),
    // rounded down from 500: 0, the expiry deletes the key
    reported(small, 'Math.floor(this.config.timeWindow / 1000)', 'Math.max(1, Math.floor(this.config.timeWindow / 1000))'),
    // another `new` passes a value nobody fixes
    reported(unknown, 'this.config.timeWindow / 1000', 'Math.max(1, Math.ceil(this.config.timeWindow / 1000))'),
    // a library: its classes are constructed by code outside it
    reported(library, 'this.config.timeWindow / 1000', 'Math.max(1, Math.ceil(this.config.timeWindow / 1000))'),
    // the class is passed as a value: a `new` the analysis does not see
    reported(passed, 'this.config.timeWindow / 1000', 'Math.max(1, Math.ceil(this.config.timeWindow / 1000))'),
    {
      // the argument's property is written in the class's file
      code: widened('this.opts.windowMs / 1000'),
      errors: [{ messageId: 'computed', line: 9, column: 30, suggestions: [{ messageId: 'clampToOne', output: widened('Math.max(1, Math.ceil(this.opts.windowMs / 1000))') }] }],
    },
    {
      // a literal dividend that is no multiple: folded, 1.5
      code: ioredis('export const keep = (key: string) => redis.expire(key, 1500 / 1000);'),
      errors: [{ messageId: 'literalRejected', line: 3, column: 56 }],
    },
  ],
});
