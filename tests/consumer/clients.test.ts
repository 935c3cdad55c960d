/**
 * Every Redis client the plugin and the runtime name, installed as a user installs it: the packed
 * plugin, ESLint, typescript-eslint, oxlint and the packed runtime in one fresh project, and each
 * client in a fresh package folder of its own under it (`clients/<id>/`, its own package.json,
 * node_modules and tsconfig.json), so that every client file resolves its own client's code and
 * types: ioredis 5 and 6, iovalkey, node-redis 5 and 6, @upstash/redis, Valkey GLIDE and Bun's
 * types (@types/bun).
 *
 * For each client:
 * - the rules without type information (the README's JavaScript config, on `app.js`) and with it
 *   (typescript-eslint's project service, on `app.ts`, the same text) give the findings listed;
 * - oxlint with the README's `.oxlintrc.json` gives exactly ESLint's untyped findings on the same
 *   `.js` files (rule, line, column);
 * - the runtime's types accept the client (`tsc` on `app.ts`, which passes it as a `RedisClient`);
 * - where the client runs under Node (all but @upstash/redis, a REST client, and Bun), the runtime
 *   runs through it against a real Redis and leaves every key with a TTL.
 *
 * And `oxlint --fix` against `eslint --fix` (docs/configuration.md#oxlint): the runs oxlint needs
 * to reach ESLint's one-run result, measured on two files.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { startRedisServer, type RedisHandle } from '../helpers/redis-server.js';
import { CLIENTS, HIT_FUNCTION } from './clients.js';
import { packBoth, sh } from './npm.js';
import { docBlock, readmeBlock } from './readme.js';

const exec = promisify(execFile);

/** The oxlint release the fix measurement of docs/configuration.md#oxlint was made with. */
const OXLINT = 'oxlint@1.95.0';

let work: string;
let dir: string;
let redisServer: RedisHandle | undefined;

/** The two tarballs packed into `work` (tests/consumer/npm.ts). */
async function pack(): Promise<{ plugin: string; runtime: string }> {
  const packed = await packBoth(work);
  const file = (name: string) => join(work, packed.find((p) => p.name === name)!.filename);
  return { plugin: file('eslint-plugin-redis-ttl'), runtime: file('redis-ttl-runtime') };
}

/** The JSON a linter (`bin`, a Node script of the project) prints for `args`, whatever its exit code. */
async function lintJson<T>(bin: string, args: string[]): Promise<T> {
  let stdout: string;
  try {
    stdout = (await exec(process.execPath, [join(dir, bin), '--format', 'json', ...args], { cwd: dir, maxBuffer: 32 * 1024 * 1024 })).stdout;
  } catch (error) {
    ({ stdout } = error as { stdout: string });
    if (stdout === '') throw error;
  }
  return JSON.parse(stdout) as T;
}

/** ESLint's findings (`<path>:<line>:<column> <rule>`) on `args`, run in `dir`. */
async function eslint(args: string[]): Promise<string[]> {
  const results = await lintJson< { filePath: string; messages: { ruleId: string | null; line: number; column: number; message: string }[] }[]>('node_modules/eslint/bin/eslint.js', args);
  return results.flatMap((r) => r.messages.map((m) => `${relative(dir, r.filePath)}:${m.line}:${m.column} ${m.ruleId ?? m.message}`)).sort();
}

/** oxlint's findings on `paths`, in ESLint's terms (`redis-ttl(no-getset)` is `redis-ttl/no-getset`). */
async function oxlint(paths: string[]): Promise<string[]> {
  const report = await lintJson<{ diagnostics: { code: string; filename: string; labels: { span: { line: number; column: number } }[] }[] }>('node_modules/oxlint/bin/oxlint', paths);
  return report.diagnostics.map((d) => `${d.filename}:${d.labels[0]!.span.line}:${d.labels[0]!.span.column} ${d.code.replace(/^([\w-]+)\((.+)\)$/, '$1/$2')}`).sort();
}

beforeAll(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'redis-ttl-clients-'));
  const { plugin, runtime } = await pack();
  dir = join(work, 'project');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'consumer-clients', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  await sh(`npm install --save-dev eslint ${plugin} typescript-eslint typescript @types/node@20 ${OXLINT} && npm install ${runtime}`, dir);
  writeFileSync(
    join(dir, 'eslint.config.mjs'),
    [
      "import redisTtl from 'eslint-plugin-redis-ttl';",
      "import tseslint from 'typescript-eslint';",
      '',
      'export default [',
      "  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true } } },",
      '  redisTtl.configs.recommended,',
      '];',
      '',
    ].join('\n'),
  );
  const oxlintrc = readmeBlock('An **oxlint** project', 'json');
  expect(oxlintrc).toContain('"jsPlugins": ["eslint-plugin-redis-ttl"]');
  writeFileSync(join(dir, '.oxlintrc.json'), oxlintrc);
  // one folder per client, each a package of its own; the installs side by side (npm's cache is shared)
  await Promise.all(
    CLIENTS.map(async (client) => {
      const folder = join(dir, 'clients', client.id);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: `client-${client.id}`, version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
      await sh(`npm install ${client.install}`, folder);
      const compilerOptions = { strict: true, noImplicitAny: false, noEmit: true, skipLibCheck: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', types: ['node', ...(client.types ?? [])] };
      writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }, null, 2));
      writeFileSync(join(folder, 'app.js'), client.code.join('\n'));
      writeFileSync(join(folder, 'app.ts'), client.code.join('\n'));
      // the runtime's types take the client: app.ts's `redis` passed as a RedisClient; and the
      // application calls `remember` (a function nothing calls is left out: allowUncalledCode)
      writeFileSync(
        join(folder, 'types.ts'),
        [
          "import type { RedisClient } from 'redis-ttl-runtime';",
          "import { redis, remember } from './app.js';",
          '',
          'export const asClient: RedisClient = redis;',
          "export const warm = (): Promise<void> => remember('1', 'v');",
          '',
        ].join('\n'),
      );
    }),
  );
}, 600_000);

afterAll(async () => {
  await redisServer?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('each client in a fresh package', () => {
  let untyped: string[];
  let typed: string[];
  let oxlinted: string[];
  /** tsc's output for each client's folder ('' when it type-checks). */
  const compiled = new Map<string, string>();

  beforeAll(async () => {
    const jsFiles = CLIENTS.map((c) => `clients/${c.id}/app.js`);
    [untyped, typed, oxlinted] = await Promise.all([eslint(jsFiles), eslint(CLIENTS.map((c) => `clients/${c.id}/app.ts`)), oxlint(jsFiles)]);
    // the fixes: a copy of app.js fixed with the autofix settings of docs/configuration.md
    const autofix = docBlock('docs/configuration.md', 'for the whole plugin:', 'js');
    writeFileSync(join(dir, 'autofix.config.mjs'), `import redisTtl from 'eslint-plugin-redis-ttl';\n\n${autofix}`);
    for (const client of CLIENTS) writeFileSync(join(dir, 'clients', client.id, 'fixed.js'), client.code.join('\n'));
    await eslint(['--fix', '--config', 'autofix.config.mjs', ...CLIENTS.map((c) => `clients/${c.id}/fixed.js`)]);
    // two at a time: each tsc is one core's work
    const queue = [...CLIENTS];
    const worker = async () => {
      for (let client = queue.shift(); client !== undefined; client = queue.shift()) {
        const tsc = exec(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', `clients/${client.id}`], { cwd: dir });
        compiled.set(client.id, await tsc.then(({ stdout }) => stdout, (error: { stdout?: string }) => error.stdout ?? String(error)));
      }
    };
    await Promise.all([worker(), worker()]);
  }, 600_000);

  describe.each(CLIENTS)('$name', (client) => {
    const findings = (all: string[], file: string, lua: boolean) =>
      all
        .filter((f) => f.startsWith(`clients/${client.id}/${file}:`) && f.endsWith(' redis-ttl/embedded-lua') === lua)
        .map((f) => f.slice(`clients/${client.id}/${file}:`.length));

    it('rules untyped: the findings of app.js', () => {
      expect(findings(untyped, 'app.js', false)).toEqual(client.untyped);
    });

    it('rules typed: the findings of app.ts', () => {
      expect(findings(typed, 'app.ts', false)).toEqual(client.typed);
    });

    it('embedded Lua: the leaking script is reported at its place, typed and untyped', () => {
      expect(findings(untyped, 'app.js', true)).toEqual(client.lua);
      expect(findings(typed, 'app.ts', true)).toEqual(client.lua);
    });

    it('fixes: eslint --fix gives the SET an expiry in the form of the client', () => {
      const lines = readFileSync(join(dir, 'clients', client.id, 'fixed.js'), 'utf8').split('\n');
      expect(lines[5]).toBe(client.fixed);
      expect(lines[0]).toBe(client.fixedImport ?? client.code[0]);
      expect(lines.length).toBe(client.code.length);
    });

    it("oxlint: exactly ESLint's findings on app.js (rule, line, column)", () => {
      expect(oxlinted.filter((f) => f.startsWith(`clients/${client.id}/`))).toEqual(untyped.filter((f) => f.startsWith(`clients/${client.id}/app.js:`)));
    });

    it("the runtime's types accept the client (tsc)", () => {
      expect(compiled.get(client.id)).toBe('');
    });

    // @upstash/redis (REST) and Bun do not run here: their runtime tests are the stand-ins of tests/runtime/adapters.test.ts
    if (client.run !== undefined) it('runtime: incrementWithTtl, a limiter, collect and the cache through the client on a real Redis, every key with a TTL', async () => {
      redisServer ??= await startRedisServer();
      const prefix = `clients${process.pid}${client.id}`;
      writeFileSync(
        join(dir, 'clients', client.id, 'run.mjs'),
        [
          ...client.run!.connect,
          "import { collect, createCache, createLimiter, incrementWithTtl } from 'redis-ttl-runtime';",
      '',
          'const prefix = process.env.KEY_PREFIX;',
          'const { value } = await incrementWithTtl(redis, `${prefix}:n`, { by: 2, ttlMs: 60000 });',
          "const limiter = createLimiter(redis, { algorithm: 'gcra', limit: 1, periodMs: 60000, onRedisError: 'fail-closed', namespace: prefix });",
          "const taken = [(await limiter.take('ada')).allowed, (await limiter.take('ada')).allowed];",
          'const collected = await collect(redis, `${prefix}:n`);',
          'const cache = createCache(redis, { namespace: `${prefix}c`, ttlMs: 60000 });',
          "const cached = [await cache.getOrLoad('k', async () => 'v'), await cache.getOrLoad('k', async () => 'never')];",
          'console.log(JSON.stringify({ value, taken, collected, cached }));',
          client.run!.close,
      '',
        ].join('\n'),
      );
      const { stdout } = await exec(process.execPath, ['run.mjs'], {
        cwd: join(dir, 'clients', client.id),
        env: { PATH: process.env.PATH, APP_REDIS_URL: redisServer.url, KEY_PREFIX: prefix },
        timeout: 60_000,
      });
      expect(JSON.parse(stdout)).toEqual({ value: 2, taken: [true, false], collected: '2', cached: ['v', 'v'] });
      const r = new Redis(redisServer.url);
      try {
        const keys = await r.keys(`${prefix}*`);
        expect(keys.length).toBeGreaterThanOrEqual(3);
        for (const key of keys) expect(await r.pttl(key), key).toBeGreaterThan(0);
      } finally {
        r.disconnect();
      }
    });
  });
});

describe('oxlint --fix against eslint --fix (docs/configuration.md#oxlint)', () => {
  /** The app of the consumer test: an INCR + EXPIRE pair and a GETSET (two helper imports) and a SET without expiry. */
  const APP = [
    "import { Redis } from 'ioredis';",
    '',
    'const redis = new Redis(process.env.APP_REDIS_URL);',
    '',
    ...HIT_FUNCTION,
    '',
    'export const usage = (id) => redis.getset(`usage:${id}`, \'0\');',
    'export const remember = (id) => redis.set(`session:${id}`, \'x\');',
    '',
  ].join('\n');
  const SETS = [
    "import { Redis } from 'ioredis';",
    '',
    'const redis = new Redis();',
    "export const a = (id) => redis.set(`session:${id}`, 'x');",
    "export const b = (id) => redis.set(`token:${id}`, 'y');",
    "export const c = (id) => redis.setex(`cart:${id}`, 60, 'z');",
    '',
  ].join('\n');

  /** The text of `source` after `eslint --fix` once, and after `oxlint --fix` run once, twice and three times. */
  async function fixRuns(name: string, source: string): Promise<{ eslint: string; oxlint: string[] }> {
    const folder = join(dir, 'fix', name);
    mkdirSync(join(folder, 'eslint'), { recursive: true });
    mkdirSync(join(folder, 'oxlint'), { recursive: true });
    writeFileSync(join(folder, 'eslint/app.js'), source);
    writeFileSync(join(folder, 'oxlint/app.js'), source);
    const autofix = docBlock('docs/configuration.md', 'for the whole plugin:', 'js');
    writeFileSync(join(folder, 'eslint.config.mjs'), `import redisTtl from 'eslint-plugin-redis-ttl';\n\n${autofix}`);
    writeFileSync(join(folder, '.oxlintrc.json'), docBlock('docs/configuration.md', '## oxlint', 'json'));
    await exec(process.execPath, [join(dir, 'node_modules/eslint/bin/eslint.js'), '--fix', '--config', join(folder, 'eslint.config.mjs'), 'eslint/app.js'], { cwd: folder });
    const runs: string[] = [];
    for (let run = 0; run < 3; run += 1) {
      await exec(process.execPath, [join(dir, 'node_modules/oxlint/bin/oxlint'), '--fix', '-c', '.oxlintrc.json', 'oxlint/app.js'], { cwd: folder }).catch(() => undefined);
      runs.push(readFileSync(join(folder, 'oxlint/app.js'), 'utf8'));
    }
    return { eslint: readFileSync(join(folder, 'eslint/app.js'), 'utf8'), oxlint: runs };
  }

  it('two fixes that import a runtime helper: ESLint fixes all in one run, oxlint in two (one pass of fixes per run)', async () => {
    const { eslint: fixed, oxlint: runs } = await fixRuns('app', APP);
    expect(fixed).toContain("import { incrementWithTtl, collect } from 'redis-ttl-runtime';");
    expect(fixed).toContain('export const usage = (id) => collect(redis, `usage:${id}`);');
    expect(fixed).toContain("export const remember = (id) => redis.set(`session:${id}`, 'x', 'EX', 86400);");
    // run 1: the INCR and the SET fixed, the GETSET's fix overlapped the INCR's import and waits
    expect(runs[0]).not.toBe(fixed);
    expect(runs[0]).toContain("import { incrementWithTtl } from 'redis-ttl-runtime';");
    expect(runs[0]).toContain("export const usage = (id) => redis.getset(`usage:${id}`, '0');");
    expect(runs.slice(1)).toEqual([fixed, fixed]);
  });

  it('fixes that do not overlap (expiries added to SETs): one oxlint run equals ESLint', async () => {
    const { eslint: fixed, oxlint: runs } = await fixRuns('sets', SETS);
    expect(fixed).toContain("export const b = (id) => redis.set(`token:${id}`, 'y', 'EX', 86400);");
    expect(runs).toEqual([fixed, fixed, fixed]);
  });
});
