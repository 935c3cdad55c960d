/**
 * End to end: `eslint --fix` removes the TTL leaks of `examples/app` and the fixed app works.
 *
 * The app is copied to a temporary folder with a `package.json` (`"type": "module"`) and a
 * `node_modules` of symlinks: `redis-ttl-runtime` -> this repository's `runtime/` (so the import
 * the fixes add resolves through that package's `exports` to `runtime/dist/`), `ioredis`, `redis`,
 * `@upstash/redis` and `@types` -> this repository's. (tests/consumer/ does the same with the
 * packed tarballs installed by npm.) ESLint runs through its `ESLint` class with the
 * plugin's recommended config (the plugin loaded from the sources, as vitest transforms them) plus
 * `settings['redis-ttl'] = { autofix: true, defaultTtlSeconds: 86400 }`.
 *
 * `runtime/dist/` must be current, since the app imports the runtime from it: `beforeAll` builds
 * when it is older than the sources (tests/helpers/build.ts; CI builds before `npm test`).
 *
 * Then: a second lint reports nothing, `tsc --noEmit` passes on the fixed app, and the workload
 * (`workload.ts`, through tsx) leaves at least one key without TTL on the unfixed app and none on
 * the fixed one (SCAN over the run's key prefix, on the real Redis of tests/helpers).
 *
 * The same for node-redis and @upstash/redis code (`tests/fixtures/autofix-clients`): the fixes
 * in each client's syntax type-check, and the node-redis module, run against the real Redis, leaks
 * before the fix and not after (the upstash module is type-checked only: its REST client can not
 * reach a plain Redis).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { ensureBuilt } from '../helpers/build.js';
import { scanWithPttl, uniquePrefix, useRedis } from '../helpers/redis.js';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const redis = useRedis();

/** A copy of `source` that resolves its imports as an installed project would. */
function copyProject(source: string, into: string, name: string): string {
  const dir = join(into, name);
  cpSync(join(root, source), dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `redis-ttl-${name}`, private: true, type: 'module' }, null, 2));
  mkdirSync(join(dir, 'node_modules/@upstash'), { recursive: true });
  symlinkSync(join(root, 'runtime'), join(dir, 'node_modules/redis-ttl-runtime'), 'dir');
  for (const pkg of ['ioredis', 'redis', '@upstash/redis', '@types']) {
    symlinkSync(join(root, 'node_modules', pkg), join(dir, 'node_modules', pkg), 'dir');
  }
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

/** Runs a project's script (the app's workload) against the test Redis under `prefix`. */
async function workload(dir: string, prefix: string, script = 'workload.ts'): Promise<string> {
  const { stdout } = await run(join(root, 'node_modules/.bin/tsx'), [script], {
    cwd: dir,
    env: { ...process.env, REDIS_URL: redis.url(), KEY_PREFIX: prefix },
    timeout: 20_000,
  });
  return stdout;
}

/** Keys under `prefix` without TTL, without the prefix. */
async function persistentKeys(prefix: string): Promise<string[]> {
  const keys = await scanWithPttl(redis.client(), `${prefix}*`);
  expect(keys.size).toBeGreaterThan(0);
  return [...keys].filter(([, pttl]) => pttl === -1).map(([key]) => key.slice(prefix.length));
}

/** tsc --noEmit on a project. */
async function typecheck(dir: string): Promise<void> {
  await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir, timeout: 30_000 });
}

let work: string;
let app: string;
let clients: string;

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'redis-ttl-autofix-'));
  app = copyProject('examples/app', work, 'app');
  clients = copyProject('tests/fixtures/autofix-clients', work, 'clients');
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
        `import { buildKey, incrementWithTtl } from 'redis-ttl-runtime';`,
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
    expect(billing).toContain(`import type { Redis } from 'ioredis';\nimport { incrementWithTtl, collect } from 'redis-ttl-runtime';\n`);
    expect(billing).toContain(
      `  const { value: total } = await incrementWithTtl(redis, key, { by: seconds, ttlMs: USAGE_TTL_SECONDS * 1000, mode: 'sliding' });\n  return total;`,
    );
    expect(billing).toContain(`  const pending = await collect(redis, usageKey(account));`);
    expect(readFileSync(join(app, 'src/sessions.ts'), 'utf8')).toContain(
      "  await redis.set(`session:${id}`, JSON.stringify(session), 'EX', 86400);",
    );
  });

  it('the fixed app type-checks', async () => {
    await typecheck(app);
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

describe('eslint --fix on node-redis and @upstash/redis code', () => {
  it('the unfixed node-redis code leaves keys without TTL', async () => {
    const prefix = `${uniquePrefix('clientsunfixed')}:`;
    expect(await workload(clients, prefix, 'run.ts')).toContain('"previous":"a"');
    expect((await persistentKeys(prefix)).sort()).toEqual(['idle', 'profile', 'profile:lock', 'token', 'usage']);
  });

  it('fixes every finding in both clients\' syntax, and the result type-checks', async () => {
    const results = await eslint(clients, true).lintFiles(['src/**/*.ts']);
    // what --fix leaves: the two GETSETs of a new value (see below) and the two locks, which get
    // no cache default (a lock's TTL is the length of the work it guards: a person's choice)
    expect(results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(clients.length + 1)} ${m.ruleId} ${m.messageId}`))).toEqual([
      'src/node-redis.ts redis-ttl/no-getset getset',
      'src/node-redis.ts redis-ttl/set-requires-ttl-or-keepttl createWithoutTtl',
      'src/upstash.ts redis-ttl/no-getset getset',
      'src/upstash.ts redis-ttl/set-requires-ttl-or-keepttl createWithoutTtl',
    ]);
    expect(results.every((r) => r.output !== undefined)).toBe(true);
    await ESLint.outputFixes(results);
    const after = await eslint(clients, false).lintFiles(['src/**/*.ts']);
    // GETSET of a new value: its only rewrite (SET ... XX KEEPTTL GET) leaves a missing key missing
    // where GETSET wrote it, so it stays a suggestion and the finding stays for a person to decide
    expect(after.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(clients.length + 1)}:${m.line}:${m.column} ${m.ruleId} ${m.messageId}`))).toEqual([
      'src/node-redis.ts:22:17 redis-ttl/no-getset getset',
      'src/node-redis.ts:27:16 redis-ttl/set-requires-ttl-or-keepttl createWithoutTtl',
      'src/upstash.ts:15:16 redis-ttl/no-getset getset',
      'src/upstash.ts:20:15 redis-ttl/set-requires-ttl-or-keepttl createWithoutTtl',
    ]);
    const nodeRedis = readFileSync(join(clients, 'src/node-redis.ts'), 'utf8');
    expect(nodeRedis).toContain(`import { incrementWithTtl, collect } from 'redis-ttl-runtime';`);
    expect(nodeRedis).toContain(`  return client.getSet(key, token);`);
    expect(nodeRedis).toContain(`  await client.setNX(\`\${key}:lock\`, '1');`);
    const upstash = readFileSync(join(clients, 'src/upstash.ts'), 'utf8');
    expect(upstash).toContain(`  const { value: hits } = await incrementWithTtl(redis, key, { ttlMs: 60000 });`);
    expect(upstash).toContain(`  const pending = await collect(redis, key);`);
    expect(upstash).toContain(`  return redis.getset(key, token);`);
    expect(upstash).toContain(`  await redis.set(key, json, { ex: 86400 });`);
    await typecheck(clients);
  });

  it('the fixed node-redis code leaves no key without TTL but the GETSET and the lock left to a person', async () => {
    const prefix = `${uniquePrefix('clientsfixed')}:`;
    expect(await workload(clients, prefix, 'run.ts')).toContain('"previous":"a"');
    expect((await persistentKeys(prefix)).sort()).toEqual(['profile:lock', 'token']);
  });
});
