/**
 * A module no entry point reaches (redis-calls/unreached-modules.ts, through uncalled.ts): in an
 * application that says how it starts (`main` or a `start` script), a module no module off test paths imports, whose file no text of the package names,
 * not at the package root nor under a directory whose files run by their place, whose top level
 * only declares, in a package that loads no module by a computed path. `recommended` leaves out
 * every write in its functions (even those its own module calls); `strict` names the module.
 *
 * Stays reported: the same module imported by one other module (even through an alias the
 * resolver does not follow: its file name is written), imported only for its side effects (its
 * functions are then judged one by one), named
 * by a package.json script or a Dockerfile, under `app/` or `scripts/`, at the package root, with a
 * top-level call (a program), a top-level write, and every module of a package that loads modules
 * by a computed path. Only a test importing it does not count (tests are no callers), nor a module
 * specifier resolving to another file with the same last segment (`'./other/account-lockout'`):
 * a specifier names the module it resolves to. `'.'` and `'..'` import their directory's index.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const INCR = 'incr-needs-expire-on-create';

const LOCKOUT = [
  "import { redis } from './redis';",
  'export async function recordFailedAttempt(email: string) {',
  '  await redis.incr(`lockout:${email}`);',
  '}',
  'export async function bump(email: string) {',
  '  await redis.incr(`bump:${email}`);',
  '  return recordFailedAttempt(email);',
  '}',
  '',
].join('\n');
const REDIS = "import Redis from 'ioredis';\nexport const redis = new Redis();\n";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An application in a fresh directory: its package.json and files (path to text); the linted file is `lib/account-lockout.ts` unless said. */
function app(files: Record<string, string>, manifest: Record<string, unknown> = { name: 'app', private: true, scripts: { start: 'next start' } }): string {
  const dir = mkdtempSync(join(tmpdir(), 'unreached-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [path, text] of Object.entries({ 'lib/redis.ts': REDIS, 'lib/account-lockout.ts': LOCKOUT, ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function lint(dir: string, file = 'lib/account-lockout.ts', options: Record<string, unknown> = {}) {
  const filename = join(dir, file);
  const linter = new Linter({ configType: 'flat', cwd: dir });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: ['error', options] } as Linter.RulesRecord }];
  return linter.verify(readFileSync(filename, 'utf8'), config, { filename });
}

const lines = (dir: string, file?: string) => lint(dir, file).map((m) => [m.line, m.column, m.messageId]);
const BOTH = [
  [3, 15, 'noExpiry'],
  [6, 15, 'noExpiry'],
];

describe('a module no entry point reaches', () => {
  it('recommended leaves out every write of its functions, even one its own module calls', () => {
    expect(lines(app({ 'lib/other.ts': "import { redis } from './redis';\nexport const ping = () => redis.ping();\n" }))).toEqual([]);
  });

  it('strict reports them and names the module', () => {
    const dir = app({});
    const messages = lint(dir, 'lib/account-lockout.ts', { allowUncalledCode: false });
    expect(messages.map((m) => [m.line, m.column, m.messageId])).toEqual(BOTH);
    expect(messages.map((m) => /`([^`]+)`: if it is dead code/.exec(m.message)?.[1])).toEqual(['lib/account-lockout.ts', 'lib/account-lockout.ts']);
  });

  it('a module imported by a test only is still unreached (tests are no callers)', () => {
    expect(lines(app({ 'lib/__tests__/account-lockout.test.ts': "import { bump } from '../account-lockout';\nbump('a');\n" }))).toEqual([]);
  });

  it('keeps a module imported by another module, by an alias, or for its side effects', () => {
    // login.ts imports recordFailedAttempt: bump (named nowhere else) is uncalled, recordFailedAttempt is called
    // (login.ts, at the package root, is an entry point: a module only unreached modules import is unreached, below)
    expect(lines(app({ 'login.ts': "import { recordFailedAttempt } from './lib/account-lockout';\nexport const login = (e: string) => recordFailedAttempt(e);\n" }))).toEqual([[3, 15, 'noExpiry']]);
    // an alias the resolver is not told about: the file name is written
    expect(lines(app({ 'lib/login.ts': "import * as lockout from '~lockout/account-lockout';\nexport const login = (e: string) => lockout;\n" }))).toEqual(BOTH);
    // imported for its side effects: reached (its top level runs); bump itself is still named nowhere
    expect(lines(app({ 'boot.ts': "import './lib/account-lockout';\nexport const booted = true;\n" }))).toEqual([[3, 15, 'noExpiry']]);
  });

  it('a module specifier names the module it resolves to, not another file of the same name', () => {
    // post-ranking-js: seed/follows.ts imports '../controllers/users/follow/count'; clicks/count.ts is not named by it
    const other = { 'lib/other/account-lockout.ts': "export const unlock = (e: string) => e;\n" };
    expect(lines(app({ ...other, 'login.ts': "import { unlock } from './lib/other/account-lockout';\nexport const login = (e: string) => unlock(e);\n" }))).toEqual([]);
    expect(lines(app({ ...other, 'login.ts': "const { unlock } = require('./lib/other/account-lockout');\nexport const login = (e: string) => unlock(e);\n" }))).toEqual([]);
    expect(lines(app({ ...other, 'lib/api.ts': "export { unlock } from './other/account-lockout';\n" }))).toEqual([]);
    // near misses, reached: a specifier resolving to the module itself (a dynamic import() too), a
    // specifier the resolver misses (above: an alias), and the name in any other string (a path, a computed member)
    expect(lines(app({ ...other, 'login.ts': "export const load = () => import('./lib/account-lockout');\n" }))).not.toEqual([]);
    expect(lines(app({ ...other, 'login.ts': "const handlers: Record<string, () => void> = {};\nexport const run = () => handlers['account-lockout']();\n" }))).toEqual(BOTH);
    expect(lines(app({ ...other, 'login.ts': "import { join } from 'node:path';\nexport const file = join(__dirname, 'lib', 'account-lockout.js');\n" }))).toEqual(BOTH);
  });

  it("an import of '.' or '..' reaches the directory's index", () => {
    // post-ranking-js: personalEngagements/instances.ts imports cachedPersonalEngagements from "."
    const index = LOCKOUT.replace('./redis', '../redis');
    const files = { 'lib/lockout/index.ts': index, 'lib/lockout/use.ts': "import { bump } from '.';\nexport const use = (e: string) => bump(e);\n", 'login.ts': "import { use } from './lib/lockout/use';\nexport const login = (e: string) => use(e);\n" };
    expect(lines(app(files), 'lib/lockout/index.ts')).toEqual(BOTH);
    expect(lines(app({ ...files, 'lib/lockout/use.ts': "import { bump } from '..';\nexport const use = (e: string) => bump(e);\n", 'lib/index.ts': index }), 'lib/index.ts')).toEqual(BOTH);
  });

  it('keeps a module a script, a Dockerfile or a process file names', () => {
    expect(lines(app({}, { name: 'app', private: true, scripts: { start: 'next start', lockout: 'tsx lib/account-lockout.ts' } }))).toEqual(BOTH);
    expect(lines(app({ 'deploy/Dockerfile': 'CMD ["node", "dist/lib/account-lockout.js"]\n' }))).toEqual(BOTH);
    expect(lines(app({ 'ecosystem.config.js': "module.exports = { apps: [{ script: 'dist/lib/account-lockout.js' }] };\n" }))).toEqual(BOTH);
  });

  it('keeps an entry point: a file at the package root, under app/ or scripts/, or a program', () => {
    expect(lines(app({ 'account-lockout.ts': LOCKOUT.replace('./redis', './lib/redis') }), 'account-lockout.ts')).toEqual(BOTH);
    expect(lines(app({ 'app/api/lockout/route.ts': LOCKOUT.replace('./redis', '../../../lib/redis') }), 'app/api/lockout/route.ts')).toEqual(BOTH);
    expect(lines(app({ 'scripts/unlock.ts': LOCKOUT.replace('./redis', '../lib/redis') }), 'scripts/unlock.ts')).toEqual(BOTH);
    expect(lines(app({ 'lib/account-lockout.ts': `${LOCKOUT}bump(process.argv[2]!);\n` }))).toEqual(BOTH);
  });

  it('keeps a top-level write of such a module (it runs when the file is started), not its functions', () => {
    expect(lines(app({ 'lib/account-lockout.ts': `${LOCKOUT}export const boot = redis.incr(\`boots:\${Date.now()}\`);\n` }))).toEqual([[9, 27, 'noExpiry']]);
  });

  it('keeps every module of a package that loads modules by a computed path; data loads and bare package names do not count', () => {
    // (the loaders are at the package root: entry points, so their loads run)
    expect(lines(app({ 'plugins.ts': 'export const load = (name: string) => import(`./${name}`);\n' }))).toEqual(BOTH);
    expect(lines(app({ 'plugins.ts': "import { readdirSync } from 'node:fs';\nexport const all = () => readdirSync(__dirname).map((f) => require(f));\n" }))).toEqual(BOTH);
    expect(lines(app({ 'lib/orm.ts': "export const config = { entities: ['dist/**/*.js'] };\n" }))).toEqual(BOTH);
    expect(lines(app({ 'lib/i18n.ts': 'export const messages = (locale: string) => import(`./messages/${locale}.json`);\n' }))).toEqual([]);
    expect(lines(app({ 'lib/optional.ts': 'export const optional = (name: string) => import(name);\n' }))).toEqual([]);
    // where the load's own function or the module's top-level code finds files, it may load the package's modules
    expect(lines(app({ 'jobs.ts': "import { join } from 'node:path';\nconst dir = join(__dirname, 'jobs');\nexport function load(name: string) {\n  return require(join(dir, name));\n}\n" }))).toEqual(BOTH);
    expect(lines(app({ 'jobs.ts': "import { join } from 'node:path';\nexport async function load(name: string) {\n  return import(join(process.cwd(), 'jobs', name));\n}\n" }))).toEqual(BOTH);
    // a file-finding call in another function says nothing of this load: a Worker's URL beside a lazy component's import
    const lazy = [
      'export function startWorker() {',
      "  return new Worker(new URL('./optimize.worker.ts', import.meta.url));",
      '}',
      'export async function lazyComponent(componentPath: string) {',
      '  const module = await import(componentPath);',
      '  return module.default;',
      '}',
      '',
    ].join('\n');
    expect(lines(app({ 'performance.ts': lazy }))).toEqual([]);
    // ...unless the module does not parse
    expect(lines(app({ 'performance.ts': `${lazy}export const broken = (;\n` }))).toEqual(BOTH);
    // a tool's configuration globs files it never runs
    expect(lines(app({ 'vitest.config.ts': "export default { test: { include: ['**/*.ts'] }, entities: ['**/*.ts'] };\n" }))).toEqual([]);
  });

  it('a loader no entry point reaches loads nothing; a path ending in a file name loads only modules of that name', () => {
    // the loader itself is imported by nothing: its loads never run
    expect(lines(app({ 'lib/plugins.ts': 'export const load = (name: string) => import(`./${name}`);\n' }))).toEqual([]);
    // ...but imported by an entry point, it may load any module
    expect(lines(app({ 'lib/plugins.ts': 'export const load = (name: string) => import(`./${name}`);\n', 'server.ts': "import { load } from './lib/plugins';\nload('x');\n" }))).toEqual(BOTH);
    // join(dir, id, 'index.js') loads an `index` module only; account-lockout.js is another file
    const registry = (file: string) => `import { join } from 'node:path';\nexport function activate(id: string) {\n  const pluginPath = join(__dirname, 'plugins', id, '${file}');\n  return require(pluginPath);\n}\nexport function inspect(id: string) {\n  const pluginPath = join(__dirname, id);\n  return pluginPath;\n}\n`;
    expect(lines(app({ 'registry.ts': registry('index.js') }))).toEqual([]);
    expect(lines(app({ 'registry.ts': registry('account-lockout.js') }))).toEqual(BOTH);
    // a parameter of the load's function may be any path
    expect(lines(app({ 'registry.ts': "import { join } from 'node:path';\nconst p = join(__dirname, 'index.js');\nexport const load = (p: string) => require(p);\n" }))).toEqual(BOTH);
    // a codemod's replacement text names a load, it makes none
    expect(lines(app({ 'scripts/codemod.js': "const { readdirSync } = require('fs');\nfor (const f of readdirSync('.')) console.log(f.replace(/x/g, \"= await import('$1')\"));\n" }))).toEqual([]);
    // a mutation-testing tool's configuration globs files it never runs
    expect(lines(app({ 'stryker.config.mjs': "export default { mutate: ['src/**/*.ts'], plugins: ['**/*.ts'] };\n" }))).toEqual([]);
  });

  it('a module only unreached modules import is unreached; one an entry point reaches through them is not', () => {
    const login = "import { recordFailedAttempt } from './account-lockout';\nexport const login = (e: string) => recordFailedAttempt(e);\n";
    expect(lines(app({ 'lib/login.ts': login }))).toEqual([]);
    expect(lines(app({ 'lib/login.ts': login, 'lib/auth.ts': "import { login } from './login';\nexport const auth = login;\n" }))).toEqual([]);
    // reached: through a module an entry point imports
    expect(lines(app({ 'lib/login.ts': login, 'server.ts': "import { login } from './lib/login';\nlogin('a');\n" }))).toEqual([[3, 15, 'noExpiry']]);
    // reached: one importer of two is reached (recordFailedAttempt stays named by the unreached one)
    expect(lines(app({ 'lib/login.ts': login, 'lib/admin.ts': "import { bump } from './account-lockout';\nexport const a = bump;\n", 'server.ts': "import { a } from './lib/admin';\na('x');\n" }))).toEqual(BOTH);
    // a cycle nothing outside imports
    expect(lines(app({ 'lib/login.ts': `${login}import { bump } from './account-lockout';\nexport const b = bump;\n`, 'lib/account-lockout.ts': `${LOCKOUT}import { login } from './login';\nexport const l = login;\n` }))).toEqual([]);
  });

  it('app/ of a Remix or Next.js application runs only its route and special files; api/ runs at its place only', () => {
    const remix = { name: 'app', private: true, scripts: { start: 'remix-serve ./build/index.js' }, dependencies: { '@remix-run/node': '^2.0.0' } };
    const next = { name: 'app', private: true, scripts: { start: 'next start' }, dependencies: { next: '^15.0.0' } };
    const at = (path: string, manifest: Record<string, unknown>) => lines(app({ [path]: LOCKOUT.replace("'./redis'", `'${'../'.repeat(path.split('/').length - 1)}lib/redis'`) }, manifest), path);
    expect(at('app/lib/chat.server.ts', remix)).toEqual([]);
    expect(at('app/routes/lockout.ts', remix)).toEqual(BOTH);
    expect(at('app/root.ts', remix)).toEqual(BOTH);
    expect(at('app/lib/chat.ts', next)).toEqual([]);
    expect(at('app/lockout/route.ts', next)).toEqual(BOTH);
    expect(at('app/api/lockout/helpers.ts', next)).toEqual(BOTH);
    expect(at('src/app/lockout/page.ts', next)).toEqual(BOTH);
    // no framework told: every file of app/ may run by its place
    expect(at('app/lib/chat.ts', { name: 'app', private: true, scripts: { start: 'node app/server.js' } })).toEqual(BOTH);
    // a folder named api below src/backend is no Vercel or Next.js route folder
    expect(at('src/backend/api/server.ts', next)).toEqual([]);
    expect(at('api/lockout.ts', next)).toEqual(BOTH);
    expect(at('pages/api/lockout.ts', next)).toEqual(BOTH);
  });

  it('keeps a request handler or middleware (a router mounts it), in an unreached module or named nowhere', () => {
    const limiter = [
      "import { redis } from './redis';",
      'export const loginRateLimit = async (req: { ip: string }, res: unknown, next: () => void) => {',
      '  await redis.incr(`login:${req.ip}`);',
      '  next();',
      '};',
      'export const userRateLimiter = (max: number) => async (req: { ip: string }) => {',
      '  await redis.incr(`user:${req.ip}:${max}`);',
      '};',
      '',
    ].join('\n');
    expect(lines(app({ 'lib/limits.ts': limiter }), 'lib/limits.ts')).toEqual([
      [3, 15, 'noExpiry'],
      [7, 15, 'noExpiry'],
    ]);
    // imported, and neither middleware named by the importer
    expect(lines(app({ 'lib/limits.ts': limiter, 'lib/server.ts': "import './limits';\nexport const up = 1;\n" }), 'lib/limits.ts')).toEqual([
      [3, 15, 'noExpiry'],
      [7, 15, 'noExpiry'],
    ]);
  });

  it('a package that does not say how it starts (no main, no start script), a library and a workspace root keep the module', () => {
    expect(lines(app({}, { name: 'app', private: true }))).toEqual(BOTH);
    expect(lines(app({}, { name: 'lib', version: '1.0.0', main: 'index.js' }))).toEqual(BOTH);
    expect(lines(app({}, { name: 'root', private: true, scripts: { start: 'next start' }, workspaces: ['packages/*'] }))).toEqual(BOTH);
  });
});
