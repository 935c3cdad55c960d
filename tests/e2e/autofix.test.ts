/**
 * End to end: `eslint --fix` removes the TTL leaks of `examples/app` and the fixed app works.
 *
 * The app is copied to a temporary folder with a `package.json` (`"type": "module"`) and a
 * `node_modules` of symlinks: `eslint-plugin-redis-ttl` -> this repository (so
 * `eslint-plugin-redis-ttl/runtime` resolves through the package's `exports` to `dist/`),
 * `ioredis` and `@types` -> this repository's. ESLint runs through its `ESLint` class with the
 * plugin's recommended config (the plugin loaded from the sources, as vitest transforms them) plus
 * `settings['redis-ttl'] = { autofix: true, defaultTtlSeconds: 86400 }`.
 *
 * `dist/` must be current, since the app imports the runtime from it: `beforeAll` runs
 * `npm run build` when `dist/runtime/index.js` is missing or older than a file of `runtime/`
 * (CI builds before `npm test`, so there it is a check that costs nothing).
 *
 * Then: a second lint reports nothing, `tsc --noEmit` passes on the fixed app, and the workload
 * (`workload.ts`, through tsx) leaves at least one key without TTL on the unfixed app and none on
 * the fixed one (SCAN over the run's key prefix, on the real Redis of tests/helpers).
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { scanWithPttl, uniquePrefix, useRedis } from '../helpers/redis.js';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const redis = useRedis();

/** Newest modification time of the files under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function ensureDist(): void {
  const built = join(root, 'dist/runtime/index.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(join(root, 'runtime'))) return;
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe' });
}

/** A copy of examples/app that resolves its imports as an installed project would. */
function copyApp(into: string): string {
  const dir = join(into, 'app');
  cpSync(join(root, 'examples/app'), dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'redis-ttl-example-app', private: true, type: 'module' }, null, 2));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules/eslint-plugin-redis-ttl'), 'dir');
  symlinkSync(join(root, 'node_modules/ioredis'), join(dir, 'node_modules/ioredis'), 'dir');
  symlinkSync(join(root, 'node_modules/@types'), join(dir, 'node_modules/@types'), 'dir');
  return dir;
}

const SETTINGS = { 'redis-ttl': { autofix: true, defaultTtlSeconds: 86400 } };

function eslint(cwd: string, fix: boolean): ESLint {
  const config: Linter.Config[] = [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } },
    plugin.configs.recommended,
    { settings: SETTINGS },
  ];
  return new ESLint({ cwd, overrideConfigFile: true, overrideConfig: config, fix });
}

/** Runs the app's workload against the test Redis under `prefix`. */
async function workload(dir: string, prefix: string): Promise<string> {
  const { stdout } = await run(join(root, 'node_modules/.bin/tsx'), ['workload.ts'], {
    cwd: dir,
    env: { ...process.env, REDIS_URL: redis.url(), KEY_PREFIX: prefix },
    timeout: 20_000,
  });
  return stdout;
}

let work: string;
let app: string;

beforeAll(() => {
  ensureDist();
  work = mkdtempSync(join(tmpdir(), 'redis-ttl-autofix-'));
  app = copyApp(work);
}, 60_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('eslint --fix on examples/app', () => {
  it('the unfixed app leaves keys without TTL', async () => {
    const prefix = `${uniquePrefix('unfixed')}:`;
    expect(await workload(app, prefix)).toContain('"allowed":60');
    const keys = await scanWithPttl(redis.client(), `${prefix}*`);
    const persistent = [...keys].filter(([, pttl]) => pttl === -1).map(([key]) => key.slice(prefix.length));
    expect(persistent.length).toBeGreaterThan(0);
    expect(persistent).toEqual(expect.arrayContaining(['billing:{hooli}:seconds', expect.stringMatching(/^session:/)]));
  });

  it('fixes every finding, and a second run reports nothing', async () => {
    const before = await eslint(app, false).lintFiles(['**/*.ts']);
    const found = before.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(app.length + 1)}:${m.line} ${m.ruleId}`));
    expect(found).toEqual([
      'src/billing.ts:14 redis-ttl/incr-needs-expire-on-create',
      'src/billing.ts:22 redis-ttl/no-getset',
      'src/rate-limit.ts:13 redis-ttl/incr-needs-expire-on-create',
      'src/sessions.ts:15 redis-ttl/set-requires-ttl-or-keepttl',
    ]);

    const results = await eslint(app, true).lintFiles(['**/*.ts']);
    await ESLint.outputFixes(results);
    const after = await eslint(app, false).lintFiles(['**/*.ts']);
    expect(after.flatMap((r) => r.messages)).toEqual([]);

    expect(readFileSync(join(app, 'src/rate-limit.ts'), 'utf8')).toContain(
      [
        `import { buildKey, incrementWithTtl } from 'eslint-plugin-redis-ttl/runtime';`,
        ``,
        `const WINDOW_SECONDS = 60;`,
        `export const LIMIT = 20;`,
        ``,
        `/** Whether \`apiKey\` may make one more call in the current window. */`,
        `export async function allow(redis: Redis, apiKey: string): Promise<boolean> {`,
        `  const key = buildKey({ namespace: 'app', algorithm: 'fw', version: 'v1', identity: apiKey, scope: 'api' });`,
        `  // LEAK: INCR and EXPIRE are two round trips; a crash (or a lost reply) between them leaves the`,
        `  // counter without TTL, and the \`=== 1\` guard never runs again for that key`,
        `  const { value: hits } = await incrementWithTtl(redis, key, { ttlMs: WINDOW_SECONDS * 1000 });`,
        `  return hits <= LIMIT;`,
        `}`,
      ].join('\n'),
    );
    const billing = readFileSync(join(app, 'src/billing.ts'), 'utf8');
    expect(billing).toContain(`import type { Redis } from 'ioredis';\nimport { incrementWithTtl, collect } from 'eslint-plugin-redis-ttl/runtime';\n`);
    expect(billing).toContain(
      `  const { value: total } = await incrementWithTtl(redis, key, { by: seconds, ttlMs: USAGE_TTL_SECONDS * 1000, mode: 'sliding' });\n  return total;`,
    );
    expect(billing).toContain(`  const pending = await collect(redis, usageKey(account));`);
    expect(readFileSync(join(app, 'src/sessions.ts'), 'utf8')).toContain(
      "  await redis.set(`session:${id}`, JSON.stringify(session), 'EX', 86400);",
    );
  });

  it('the fixed app type-checks', async () => {
    await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(app, 'tsconfig.json')], {
      cwd: app,
      timeout: 30_000,
    });
  });

  it('the fixed app leaves no key without TTL', async () => {
    const prefix = `${uniquePrefix('fixed')}:`;
    expect(await workload(app, prefix)).toContain('"allowed":60');
    const keys = await scanWithPttl(redis.client(), `${prefix}*`);
    expect(keys.size).toBeGreaterThan(0);
    const persistent = [...keys].filter(([, pttl]) => pttl === -1).map(([key]) => key);
    expect(persistent).toEqual([]);
  });
});
