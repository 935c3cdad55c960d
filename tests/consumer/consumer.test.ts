/**
 * The packages as a user meets them. Both are packed with `npm pack` and installed, with the
 * README's own install commands (the package names replaced by the tarballs) and npm's cache
 * (`--prefer-offline`: what `npm ci` just fetched), into fresh projects in a temporary folder:
 *
 * - the tarballs: no source maps, only the files each package needs, every relative link of the
 *   READMEs and docs pointing at a file the tarball holds; `npm publish --dry-run` without a warning;
 * - a TypeScript project: the README's TypeScript config pasted verbatim lints a file with a known
 *   leak; `npx lua-lint` and `npx redis-ttl-audit` work with no Redis client of the project's own;
 *   the plugin's entry points type-check under moduleResolution node16, bundler and node10, every
 *   module their declarations import resolves (traced), and a mistyped subpath does not;
 * - a node-redis project with the runtime only: the runtime's types check without ioredis installed;
 * - a JavaScript app: the README's JavaScript config finds its leaks, the autofix settings of
 *   docs/configuration.md fix them, and a production install of it (`npm ci --omit=dev`) holds no ESLint,
 *   TypeScript or typescript-eslint package, weighs at most 3 MB besides the Redis client, and the
 *   fixed app runs against a real Redis leaving every key with a TTL.
 *
 * The measured sizes are printed (they are quoted in docs/packaging.md).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { startRedisServer, type RedisHandle } from '../helpers/redis-server.js';
import { HIT_FUNCTION } from './clients.js';
import { NPM_ENV, packBoth, sh, type Packed } from './npm.js';
import { commands, docBlock, readmeBlock } from './readme.js';

const exec = promisify(execFile);

let work: string;
let plugin: Packed;
let runtime: Packed;
let redisServer: RedisHandle | undefined;

/** A README install command for this test: our package names replaced by the tarballs, plus `extra`. */
function withTarballs(command: string, extra = ''): string {
  const tarballs: Record<string, string> = { 'eslint-plugin-redis-ttl': join(work, plugin.filename), 'redis-ttl-runtime': join(work, runtime.filename) };
  return `${command
    .split(' ')
    .map((word) => tarballs[word] ?? word)
    .join(' ')}${extra === '' ? '' : ` ${extra}`}`;
}

/** A fresh project folder with a package.json. */
function project(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: `consumer-${name}`, version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  return dir;
}

/** Bytes of the files under `dir` (symlinks count 0). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    total += entry.isDirectory() ? sizeOf(path) : lstatSync(path).size;
  }
  return total;
}

/** The installed folder of `name` as Node resolves it from `from` (a package folder). */
function installed(name: string, from: string, nodeModules: string): string {
  for (let dir = from; dir.startsWith(nodeModules); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(candidate)) return candidate;
  }
  const top = join(nodeModules, name);
  if (!existsSync(top)) throw new Error(`${name} is not installed`);
  return top;
}

/** The folders of `name` and of its production dependencies, recursively. */
function closure(name: string, nodeModules: string, from = nodeModules, seen = new Set<string>()): Set<string> {
  const dir = installed(name, from, nodeModules);
  if (seen.has(dir)) return seen;
  seen.add(dir);
  const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const dependency of Object.keys(json.dependencies ?? {})) closure(dependency, nodeModules, dir, seen);
  return seen;
}

const MB = 1024 * 1024;
/** Bytes in decimal megabytes (10^6 bytes, as npm and docs/packaging.md count). */
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const PACKAGING = join(ROOT, 'docs/packaging.md');

/**
 * A figure in MB that docs/packaging.md states (the first capture of `pattern`), in bytes.
 * @throws {Error} when the page no longer says it (the page changed: the test must follow).
 */
function documentedBytes(pattern: RegExp): number {
  const match = pattern.exec(readFileSync(PACKAGING, 'utf8').replace(/\s+/g, ' '));
  if (match === null) throw new Error(`docs/packaging.md no longer matches ${pattern}`);
  return Number(match[1]) * 1e6;
}

/** Whether a measured size is within 15% of the documented one. */
const near = (actual: number, documented: number) => Math.abs(actual / documented - 1) <= 0.15;

/** ESLint's JSON report of `args`, run in `cwd`, with its exit code. */
async function eslintJson(cwd: string, args: string[]): Promise<{ code: number; findings: string[] }> {
  const bin = join(cwd, 'node_modules/eslint/bin/eslint.js');
  let stdout: string;
  let code = 0;
  try {
    stdout = (await exec(process.execPath, [bin, '--format', 'json', ...args], { cwd, maxBuffer: 32 * 1024 * 1024 })).stdout;
  } catch (error) {
    ({ stdout } = error as { stdout: string });
    code = (error as { code: number }).code;
  }
  const results = JSON.parse(stdout) as { filePath: string; messages: { ruleId: string | null; line: number; column: number; messageId?: string; message: string }[] }[];
  return {
    code,
    findings: results.flatMap((r) => r.messages.map((m) => `${relative(cwd, r.filePath)}:${m.line}:${m.column} ${m.ruleId} ${m.messageId ?? m.message}`)),
  };
}

beforeAll(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'redis-ttl-consumer-'));
  const packed = await packBoth(work);
  plugin = packed.find((p) => p.name === 'eslint-plugin-redis-ttl')!;
  runtime = packed.find((p) => p.name === 'redis-ttl-runtime')!;
  expect(plugin).toBeDefined();
  expect(runtime).toBeDefined();
});

afterAll(async () => {
  await redisServer?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarballs', () => {
  it('hold only what each package needs, and no source map', () => {
    const pluginFiles = plugin.files.map((f) => f.path);
    const runtimeFiles = runtime.files.map((f) => f.path);
    expect(pluginFiles.filter((f) => !/^(dist\/(rules|lua-lint|audit|cli|semantics|redis-calls|text|inventory|keys)\/.*\.(js|d\.ts)|docs\/.*\.md|CHANGELOG\.md|LICENSE|README\.md|package\.json)$/.test(f))).toEqual([]);
    expect(runtimeFiles.filter((f) => !/^(dist\/[\w.-]+\.(js|d\.ts)|scripts\/\w+\.lua|CHANGELOG\.md|LICENSE|README\.md|package\.json)$/.test(f))).toEqual([]);
    for (const bin of ['dist/rules/index.js', 'dist/lua-lint/cli/bin.js', 'dist/audit/cli/bin.js', 'dist/keys/cli/bin.js', 'dist/keys/index.d.ts', 'dist/lua-lint/index.d.ts', 'dist/audit/index.d.ts', 'CHANGELOG.md']) expect(pluginFiles).toContain(bin);
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/lua.generated.js', 'scripts/collect.lua', 'README.md', 'CHANGELOG.md', 'LICENSE']) expect(runtimeFiles).toContain(file);
  });

  it('every relative link of the READMEs and docs points at a file of the same tarball', () => {
    const broken: string[] = [];
    for (const [pack, dir] of [[plugin, ROOT], [runtime, join(ROOT, 'runtime')]] as const) {
      const files = new Set(pack.files.map((f) => f.path));
      for (const page of [...files].filter((f) => f.endsWith('.md'))) {
        const text = readFileSync(join(dir, page), 'utf8').replace(/```[\s\S]*?```/g, '');
        for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^(https?:|mailto:|#)/.test(target!)) continue;
          const path = normalize(join(dirname(page), target!.replace(/#.*$/, ''))).replace(/\/$/, '');
          if (!files.has(path) && ![...files].some((f) => f.startsWith(`${path}/`))) broken.push(`${pack.name}: ${page} -> ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('carry no install-time script, while the repository keeps `prepare` for npm ci', async () => {
    const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];
    for (const pack of [plugin, runtime]) {
      const { stdout } = await exec('tar', ['-xOzf', join(work, pack.filename), 'package/package.json']);
      const scripts = (JSON.parse(stdout) as { scripts?: Record<string, string> }).scripts ?? {};
      expect(Object.keys(scripts).filter((name) => INSTALL_SCRIPTS.includes(name)), pack.name).toEqual([]);
    }
    const repository = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(repository.scripts.prepare).toBe('npm run build');
    expect(repository.scripts.prepack).toBe('npm run build && node scripts/pack-manifest.mjs strip');
    expect(repository.scripts.postpack).toBe('node scripts/pack-manifest.mjs restore');
    expect(existsSync(join(ROOT, 'package.json.orig'))).toBe(false);
  });

  it("weigh what docs/packaging.md's table says, within 15%", () => {
    const row = /^\| tarball \(`npm pack --dry-run`\) \| (\d+) kB, ([\d.]+) MB unpacked \| (\d+) kB, ([\d.]+) MB unpacked \|$/m.exec(readFileSync(PACKAGING, 'utf8'));
    expect(row).not.toBeNull();
    const [pluginKb, pluginMb, runtimeKb, runtimeMb] = row!.slice(1).map(Number) as [number, number, number, number];
    expect({ size: plugin.size, unpacked: plugin.unpackedSize, ok: near(plugin.size, pluginKb * 1000) && near(plugin.unpackedSize, pluginMb * 1e6) }).toMatchObject({ ok: true });
    expect({ size: runtime.size, unpacked: runtime.unpackedSize, ok: near(runtime.size, runtimeKb * 1000) && near(runtime.unpackedSize, runtimeMb * 1e6) }).toMatchObject({ ok: true });
  });

  it('npm publish --dry-run passes for both packages without a warning', async () => {
    for (const workspace of [[], ['--workspace=redis-ttl-runtime']]) {
      const { stderr } = await exec('npm', ['publish', '--dry-run', '--ignore-scripts', ...workspace], { cwd: ROOT, env: { ...NPM_ENV, npm_config_loglevel: 'warn' } });
      const warnings = stderr.split('\n').filter((line) => /^npm (warn|error)/i.test(line) && !/requires you to be logged in/.test(line));
      expect(warnings, workspace.join(' ')).toEqual([]);
    }
  });
});

describe('a TypeScript project', () => {
  let dir: string;

  beforeAll(async () => {
    dir = project('ts');
    const [eslintLine, typescriptLine] = commands(readmeBlock('## Install', 'sh'));
    expect(eslintLine).toBe('npm install --save-dev eslint eslint-plugin-redis-ttl');
    expect(typescriptLine).toBe('npm install --save-dev typescript-eslint typescript');
    const installed = await sh(withTarballs(eslintLine!), dir);
    // npm 11 warns about packages with install scripts ("not yet covered by allowScripts"): not ours
    expect(installed.stderr.split('\n').filter((line) => /install-scripts|allowScripts/.test(line) && /redis-ttl/.test(line))).toEqual([]);
    await sh(withTarballs(typescriptLine!, '@types/node@20'), dir);
  });

  it("the README's TypeScript config, pasted as is, finds the leak of a .ts file", async () => {
    const config = readmeBlock('A **TypeScript** project', 'js');
    expect(config).toContain('// eslint.config.mjs');
    writeFileSync(join(dir, 'eslint.config.mjs'), config);
    mkdirSync(join(dir, 'src'));
    writeFileSync(
      join(dir, 'src/rotate.ts'),
      [
        "import type { Redis } from 'ioredis';",
        '',
        'export async function rotate(redis: Redis, key: string): Promise<string | null> {',
        "  const previous: string | null = await redis.getset(key, '0');",
        '  return previous;',
        '}',
        '',
      ].join('\n'),
    );
    expect(await eslintJson(dir, ['.'])).toEqual({ code: 1, findings: ['src/rotate.ts:4:47 redis-ttl/no-getset getset'] });
  });

  it('the commands run through npx with no Redis client installed by the project: lua-lint, redis-ttl-audit (its own ioredis)', async () => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: object; devDependencies: Record<string, string> };
    expect(Object.keys(pkg.devDependencies).filter((name) => /redis/.test(name))).toEqual(['eslint-plugin-redis-ttl']);
    expect(pkg.dependencies).toBeUndefined();
    const help = await sh('npx --no-install redis-ttl-audit --help', dir);
    expect(help.stdout).toContain('Usage: redis-ttl-audit [options]');
    // the installed copy finds its own package.json: its docs link names its version's tag
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(help.stdout).toContain(`Docs: https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl/blob/v${version}/docs/redis-ttl-audit.md\n`);
    await expect(sh('npx --no-install redis-ttl-audit --url redis://127.0.0.1:1 --timeout 2000', dir)).rejects.toMatchObject({
      code: 2,
      stderr: 'redis-ttl-audit: cannot connect to redis://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1\n',
    });
    writeFileSync(join(dir, 'leak.lua'), "redis.call('INCR', KEYS[1])\nreturn 1\n");
    await expect(sh('npx --no-install lua-lint leak.lua --format compact', dir)).rejects.toMatchObject({
      code: 1,
      stdout: expect.stringContaining('leak.lua: line 1, col 1, Error - INCR on KEYS[1] can create it without a TTL') as unknown,
    });
    // Scripts embedded in Go (the tree-sitter grammars ship with the plugin) and in TypeScript
    // (the ESLint rule's extraction, with the project's typescript-eslint), in one directory walk.
    mkdirSync(join(dir, 'embedded'));
    writeFileSync(join(dir, 'embedded/hit.go'), 'package hit\n\nimport "github.com/redis/go-redis/v9"\n\nvar hit = redis.NewScript(`\nlocal n = redis.call("INCR", KEYS[1])\nreturn n\n`)\n');
    writeFileSync(
      join(dir, 'embedded/hit.ts'),
      "import type { Redis } from 'ioredis';\n\nexport const hit = (redis: Redis, key: string) => redis.eval(\"redis.call('INCR', KEYS[1])\", 1, key);\n",
    );
    const embedded = await sh('npx --no-install lua-lint embedded --format compact', dir).catch((error: { code: number; stdout: string }) => error);
    expect('code' in embedded ? embedded.code : 0).toBe(1);
    expect(embedded.stdout.split('\n').filter((line) => line.includes(', col ')).map((line) => line.replace(/ - .*\((.*)\)$/, ' $1').replace(dir + '/', ''))).toEqual([
      'embedded/hit.go: line 6, col 11, Error write-path-needs-ttl',
      'embedded/hit.ts: line 3, col 63, Error write-path-needs-ttl',
    ]);
  });

  it('the entry points type-check under moduleResolution node16, bundler and node10, every module their declarations import resolves, a wrong subpath does not', async () => {
    mkdirSync(join(dir, 'types'));
    // docs/configuration.md's typed config, pasted as is: the exported types of settings and options
    const typedConfig = docBlock('docs/configuration.md', '## TypeScript types', 'ts');
    expect(typedConfig).toContain("type RedisTtlSettings } from 'eslint-plugin-redis-ttl'");
    writeFileSync(join(dir, 'types/config.ts'), typedConfig);
    writeFileSync(
      join(dir, 'types/index.ts'),
      [
        "import redisTtl, { configs, type RedisTtlPlugin } from 'eslint-plugin-redis-ttl';",
        "import { analyzeLua, type LuaFinding } from 'eslint-plugin-redis-ttl/lua-lint';",
        "import { compileGlob, runAudit, type AuditReport } from 'eslint-plugin-redis-ttl/audit';",
        "import type { EmbeddedLuaOptions, NoGetsetOptions, RedisTtlRuleOptions, RedisTtlSettings } from 'eslint-plugin-redis-ttl';",
        "import type { AnalyzeOptions, LuaLintConfigFile } from 'eslint-plugin-redis-ttl/lua-lint';",
        "export { default as config } from './config.js';",
        "// @ts-expect-error -- the runtime is the package redis-ttl-runtime now",
        "import { collect } from 'eslint-plugin-redis-ttl/runtime';",
        "// @ts-expect-error -- no such entry point",
        "import { nothing } from 'eslint-plugin-redis-ttl/nope';",
        '',
        'export const plugin: RedisTtlPlugin = redisTtl;',
        "export const recommended: string[] = Object.keys(configs.recommended.rules ?? {});",
        "export const findings: LuaFinding[] = analyzeLua(\"redis.call('SET', KEYS[1], ARGV[1])\");",
        "export const matches: boolean = compileGlob('a:*').test('a:1');",
        'export type Audit = typeof runAudit;',
        'export type Report = AuditReport;',
        "export const noGetset: NoGetsetOptions = { fix: true, allowConstantKeys: false };",
        "export const embedded: RedisTtlRuleOptions['embedded-lua'] = { rules: { 'no-persist': 'warn' }, persistentKeys: [2] } satisfies EmbeddedLuaOptions;",
        "export const analyze: AnalyzeOptions = { strict: true, redisVersion: '7.0' };",
        "export const luaLintConfig: LuaLintConfigFile = { rules: { 'key-must-come-from-keys': 'off' }, ignores: ['vendor/**'] };",
        "// @ts-expect-error -- a misspelt setting is a type error",
        "export const typo: RedisTtlSettings = { persistentKey: ['bull:*'] };",
        'export { collect, nothing };',
        '// an import that failed to resolve would make these `any`: refuse that',
        'type IsAny<T> = 0 extends 1 & T ? true : false;',
        'export const notAny: [IsAny<typeof redisTtl>, IsAny<typeof analyzeLua>, IsAny<typeof runAudit>, IsAny<RedisTtlSettings>, IsAny<LuaLintConfigFile>] = [false, false, false, false, false];',
        '',
      ].join('\n'),
    );
    const versions = await typeCheckEveryResolution(dir, 'types', false, ['eslint-plugin-redis-ttl/runtime', 'eslint-plugin-redis-ttl/nope']);
    console.log(`plugin types: ${versions.join(', ')}`);
  });
});

const BUILTINS = new Set(builtinModules);

/**
 * Type-checks `<folder>/index.ts` of the project `dir` (strict) with moduleResolution node16,
 * bundler and node10: node16 and bundler with the project's own TypeScript (the newest the
 * project's dependencies accept), node10 with this repository's TypeScript 5 (TypeScript 7
 * removed node10; the projects still on it run 5 or 6).
 *
 * `fullLibCheck`: `skipLibCheck: false`, every declaration file checked. Without it (for the
 * plugin, whose types reach typescript-eslint's and TypeScript's own, 25 s a run),
 * `skipLibCheck: true` with `--traceResolution`: then every module name a file imports must
 * resolve, except Node's built-ins (declared by @types/node), TypeScript's look-ups of replacement
 * lib packages (`@typescript/lib-*`) and `expectedMissing`.
 */
async function typeCheckEveryResolution(dir: string, folder: string, fullLibCheck: boolean, expectedMissing: string[]): Promise<string[]> {
  const versions: string[] = [];
  for (const [moduleResolution, module] of [['node16', 'node16'], ['bundler', 'esnext'], ['node10', 'commonjs']] as const) {
    const typescript = moduleResolution === 'node10' || !existsSync(join(dir, 'node_modules/typescript')) ? join(ROOT, 'node_modules/typescript') : join(dir, 'node_modules/typescript');
    versions.push(`${moduleResolution}: TypeScript ${(JSON.parse(readFileSync(join(typescript, 'package.json'), 'utf8')) as { version: string }).version}`);
    const compilerOptions = { strict: true, noEmit: true, skipLibCheck: !fullLibCheck, esModuleInterop: true, target: 'es2022', module, moduleResolution, types: ['node'] };
    const tsconfig = join(dir, folder, `tsconfig.${moduleResolution}.json`);
    writeFileSync(tsconfig, JSON.stringify({ compilerOptions, files: ['index.ts'] }, null, 2));
    let stdout: string;
    try {
      ({ stdout } = await exec(process.execPath, [join(typescript, 'bin/tsc'), '-p', tsconfig, ...(fullLibCheck ? [] : ['--traceResolution'])], {
        cwd: dir,
        maxBuffer: 256 * 1024 * 1024,
      }));
    } catch (error) {
      const out = (error as { stdout: string }).stdout.split('\n').filter((line) => !line.startsWith('======') && !/^(File|Module|Loading|Resolving|Found|Directory|Explicitly|Searching|Using|Resolution|'package|Exiting|Looking|Entering|Matched|Trying|Saw|Type reference|Root directory|Scoped|Reusing|Auto|Resolved|Skipping|Failed|Package|Original)/.test(line));
      throw new Error(`tsc with moduleResolution ${moduleResolution}:\n${out.join('\n')}`, { cause: error });
    }
    if (!fullLibCheck) {
      const missing = [...stdout.matchAll(/^======== Module name '([^']+)' was not resolved\. ========$/gm)]
        .map((m) => m[1]!)
        .filter((name) => !name.startsWith('node:') && !name.startsWith('@typescript/lib-') && !BUILTINS.has(name));
      expect([...new Set(missing)].sort(), moduleResolution).toEqual([...expectedMissing].sort());
    }
  }
  return versions;
}

describe('a node-redis project with the runtime only', () => {
  it("type-checks the runtime's helpers under node16, bundler and node10 without ioredis installed", async () => {
    const dir = project('node-redis');
    const runtimeLine = commands(readmeBlock('## Install', 'sh'))[2]!;
    expect(runtimeLine).toBe('npm install redis-ttl-runtime');
    await sh(withTarballs(runtimeLine, 'redis typescript @types/node@20'), dir);
    expect(existsSync(join(dir, 'node_modules/ioredis'))).toBe(false);
    mkdirSync(join(dir, 'types'));
    writeFileSync(
      join(dir, 'types/index.ts'),
      [
        "import { createClient } from 'redis';",
        "import { collect, createLimiter, type LimitResult, type RedisClient } from 'redis-ttl-runtime';",
        "// @ts-expect-error -- no such entry point",
        "import { nothing } from 'redis-ttl-runtime/scripts';",
        '',
        'const client = createClient();',
        'export const asClient: RedisClient = client;',
        "export const limiter = createLimiter(client, { algorithm: 'gcra', limit: 10, periodMs: 1000, onRedisError: 'fail-open' });",
        "export const result: Promise<LimitResult> = limiter.take('ada');",
        "export const pending: Promise<string | null> = collect(client, 'k');",
        'export { nothing };',
        'type IsAny<T> = 0 extends 1 & T ? true : false;',
        'export const notAny: [IsAny<typeof limiter>, IsAny<typeof asClient>] = [false, false];',
        '',
      ].join('\n'),
    );
    const versions = await typeCheckEveryResolution(dir, 'types', true, []);
    console.log(`runtime types (skipLibCheck: false): ${versions.join(', ')}`);
  });
});

describe('a JavaScript app, fixed by eslint --fix, installed for production', () => {
  let dir: string;
  const prefix = `consumer${process.pid}`;

  beforeAll(async () => {
    dir = project('app');
    const [eslintLine, , runtimeLine] = commands(readmeBlock('## Install', 'sh'));
    await sh(withTarballs(eslintLine!), dir);
    await sh(withTarballs(runtimeLine!, 'ioredis'), dir);
    mkdirSync(join(dir, 'src'));
    writeFileSync(
      join(dir, 'src/app.js'),
      [
        "import { Redis } from 'ioredis';",
        '',
        'const redis = new Redis(process.env.APP_REDIS_URL);',
        'const prefix = process.env.KEY_PREFIX;',
        '',
        ...HIT_FUNCTION,
        '',
        'const hits = await hit(`${prefix}:hits`);',
        "await redis.set(`${prefix}:usage`, '5', 'EX', 600);",
        "const usage = await redis.getset(`${prefix}:usage`, '0');",
        'console.log(JSON.stringify({ hits, usage }));',
        'await redis.quit();',
        '',
      ].join('\n'),
    );
  });

  it("the README's JavaScript config, pasted as is, finds the leaks", async () => {
    const config = readmeBlock('A **JavaScript** project', 'js');
    writeFileSync(join(dir, 'eslint.config.mjs'), config);
    expect(await eslintJson(dir, ['.'])).toEqual({
      code: 1,
      findings: ['src/app.js:7:28 redis-ttl/incr-needs-expire-on-create separateRoundTrip', 'src/app.js:16:27 redis-ttl/no-getset getset'],
    });
  });

  it("docs/configuration.md's autofix settings fix them: the app imports redis-ttl-runtime", async () => {
    const config = docBlock('docs/configuration.md', 'for the whole plugin:', 'js');
    writeFileSync(join(dir, 'eslint.config.mjs'), `import redisTtl from 'eslint-plugin-redis-ttl';\n\n${config}`);
    expect(await eslintJson(dir, ['--fix', '.'])).toEqual({ code: 0, findings: [] });
    const fixed = readFileSync(join(dir, 'src/app.js'), 'utf8');
    expect(fixed).toContain("import { incrementWithTtl, collect } from 'redis-ttl-runtime';");
    expect(fixed).toContain('  const { value: hits } = await incrementWithTtl(redis, key, { ttlMs: 60000 });\n  return hits;');
    expect(fixed).toContain('const usage = await collect(redis, `${prefix}:usage`);');
  });

  it('a production install (npm ci --omit=dev) has no ESLint or TypeScript, weighs <= 3 MB besides the Redis client, and the fixed app runs', async () => {
    const prod = join(work, 'prod');
    mkdirSync(prod);
    for (const file of ['package.json', 'package-lock.json']) cpSync(join(dir, file), join(prod, file));
    cpSync(join(dir, 'src'), join(prod, 'src'), { recursive: true });
    await sh('npm ci --omit=dev', prod);

    const nodeModules = join(prod, 'node_modules');
    const names = readdirSync(nodeModules).flatMap((n) => (n.startsWith('@') ? readdirSync(join(nodeModules, n)).map((m) => `${n}/${m}`) : [n]));
    expect(names.filter((n) => /^(eslint|typescript|typescript-eslint|@typescript-eslint\/.*|@eslint\/.*|eslint-plugin-redis-ttl)$/.test(n))).toEqual([]);
    const total = sizeOf(nodeModules);
    const client = [...closure('ioredis', nodeModules)].reduce((n, d) => n + sizeOf(d), 0);
    const runtimeOnly = sizeOf(join(nodeModules, 'redis-ttl-runtime'));
    console.log(
      `production install: ${names.length} packages, ${mb(total)}; the Redis client (ioredis and its dependencies) ${mb(client)}; ` +
        `the rest ${mb(total - client)} (redis-ttl-runtime ${mb(runtimeOnly)})`,
    );
    expect(total - client).toBeLessThanOrEqual(3 * MB);
    const documented = documentedBytes(/redis-ttl-runtime itself ([\d.]+) MB/);
    expect({ runtimeOnly, documented, near: near(runtimeOnly, documented) }).toMatchObject({ near: true });

    redisServer = await startRedisServer();
    const { stdout } = await exec(process.execPath, ['src/app.js'], { cwd: prod, env: { PATH: process.env.PATH, APP_REDIS_URL: redisServer.url, KEY_PREFIX: prefix }, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({ hits: 1, usage: '5' });
    const r = new Redis(redisServer.url);
    try {
      expect(await r.pttl(`${prefix}:hits`)).toBeGreaterThan(55_000);
      expect(await r.pttl(`${prefix}:usage`)).toBeGreaterThan(590_000);
      expect(await r.get(`${prefix}:usage`)).toBe('0');
    } finally {
      r.disconnect();
    }
  });

  it("the plugin install, measured: its own share is what docs/packaging.md says, within 15%", () => {
    const nodeModules = join(dir, 'node_modules');
    const pluginOnly = closure('eslint-plugin-redis-ttl', nodeModules);
    const eslint = closure('eslint', nodeModules);
    const own = [...pluginOnly].filter((d) => !eslint.has(d));
    const ownBytes = own.reduce((n, d) => n + sizeOf(d), 0);
    const treeSitter = sizeOf(installed('@vscode/tree-sitter-wasm', installed('eslint-plugin-redis-ttl', nodeModules, nodeModules), nodeModules));
    const typescript = existsSync(join(nodeModules, 'typescript')) ? sizeOf(join(nodeModules, 'typescript')) : 0;
    console.log(
      `plugin install (eslint + the plugin + the runtime + ioredis): ${mb(sizeOf(nodeModules))}; the plugin and the dependencies ESLint does not bring: ` +
        `${own.length} packages, ${mb(ownBytes)} (eslint-plugin-redis-ttl itself ${mb(sizeOf(join(nodeModules, 'eslint-plugin-redis-ttl')))}, ` +
        `@vscode/tree-sitter-wasm ${mb(treeSitter)}); TypeScript, a peer npm installs: ${mb(typescript)}`,
    );
    expect(own.length).toBeGreaterThan(0);
    const documented = { own: documentedBytes(/What the plugin brings besides ESLint's own: \d+ packages, ([\d.]+) MB/), treeSitter: documentedBytes(/`@vscode\/tree-sitter-wasm` is ([\d.]+) MB/) };
    expect({ ownBytes, treeSitter, documented, near: near(ownBytes, documented.own) && near(treeSitter, documented.treeSitter) }).toMatchObject({ near: true });
  });
});
