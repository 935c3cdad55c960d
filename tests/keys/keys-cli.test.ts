// redis-ttl-keys on examples/app and on the fixture apps: every shape with its write sites and
// TTL status (exact table, JSON, Markdown), the JSON valid for validateInventory, the
// persistentKeys block, files that do not parse (file:line:column, skipped, exit 1), settings
// from an ESLint config, usage errors (exit 2).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateInventory } from '../../inventory/format.js';
import { brokenSources, runKeys } from './run-keys.js';

const APP = 'tests/fixtures/keys/app';

describe('redis-ttl-keys on examples/app', () => {
  it('lists every shape with its sites and TTL status (json, valid for validateInventory)', async () => {
    const { code, stdout, stderr } = await runKeys(['--no-config', '--format', 'json', 'examples/app']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const document = validateInventory(JSON.parse(stdout), 'stdout');
    const site = (file: string, line: number, column: number, command: string, ttl: string) => ({ file: `examples/app/src/${file}`, line, column, command, client: 'ioredis', ttl });
    expect(document).toEqual({
      version: 1,
      tool: expect.stringMatching(/^redis-ttl-keys \d+\.\d+\.\d+/),
      root: '.',
      shapes: [
        // buildKey() of redis-ttl-runtime: a key the linter cannot spell, too broad to attribute
        { shape: '*', writes: [site('rate-limit.ts', 13, 28, 'INCR', 'separate')] },
        { shape: 'billing:{*}:seconds', writes: [site('billing.ts', 14, 29, 'INCRBY', 'separate'), site('billing.ts', 22, 31, 'GETSET', 'none')] },
        {
          shape: 'session:*',
          writes: [site('sessions.ts', 15, 15, 'SET', 'none')],
          reads: [{ file: 'examples/app/src/sessions.ts', line: 21, column: 28, command: 'GET', client: 'ioredis' }],
        },
      ],
    });
  });

  it('prints the table', async () => {
    const { code, stdout } = await runKeys(['--no-config', 'examples/app']);
    expect(code).toBe(0);
    expect(stdout.split('\n').slice(0, 13)).toEqual([
      '*  separate 1',
      '  write examples/app/src/rate-limit.ts:13:28  INCR ioredis  separate',
      'billing:{*}:seconds  none 1, separate 1',
      '  write examples/app/src/billing.ts:14:29  INCRBY ioredis  separate',
      '  write examples/app/src/billing.ts:22:31  GETSET ioredis  none',
      'session:*  none 1',
      '  write examples/app/src/sessions.ts:15:15  SET ioredis  none',
      '  read  examples/app/src/sessions.ts:21:28  GET ioredis',
      '',
      '3 shapes, 4 write sites in 3 files; 2 shapes written without TTL.',
      'Too broad to match live keys (the audit does not attribute them): *.',
      expect.stringMatching(/^TTL: atomic = TTL set with the write .*persistent = kept without TTL on purpose \(persistentKeys, annotation\)\.$/),
      '',
    ]);
  });

  it('prints Markdown', async () => {
    const { stdout } = await runKeys(['--no-config', '-f', 'markdown', 'examples/app']);
    expect(stdout.split('\n').slice(0, 5)).toEqual([
      '| Shape | TTL | Write sites | Reads |',
      '| --- | --- | --- | --- |',
      '| `*` | separate 1 | `examples/app/src/rate-limit.ts:13:28` INCR (ioredis): separate |  |',
      '| `billing:{*}:seconds` | none 1, separate 1 | `examples/app/src/billing.ts:14:29` INCRBY (ioredis): separate<br>`examples/app/src/billing.ts:22:31` GETSET (ioredis): none |  |',
      '| `session:*` | none 1 | `examples/app/src/sessions.ts:15:15` SET (ioredis): none | `examples/app/src/sessions.ts:21:28` GET |',
    ]);
  });
});

describe('redis-ttl-keys on an app with hashes, counters and an embedded script', () => {
  it('ties KEYS to the shapes the eval passes, and lists script writes of a .lua file whose caller is elsewhere as unresolved', async () => {
    const { code, stdout, stderr } = await runKeys(['--no-config', '-f', 'json', APP]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const document = validateInventory(JSON.parse(stdout), 'stdout');
    const js = (file: string, line: number, column: number, command: string, ttl: string) => ({ file: `${APP}/src/${file}`, line, column, command, client: 'ioredis', ttl });
    const lua = (line: number, command: string, ttl: string, key: string) => ({
      file: `${APP}/src/jobs.ts`,
      line,
      column: 1,
      command,
      client: 'lua',
      ttl,
      via: { file: `${APP}/src/jobs.ts`, line: 11, column: 10, key },
    });
    expect(document.shapes).toEqual([
      { shape: 'hits:{*}', writes: [js('profiles.ts', 15, 25, 'INCR', 'separate')] },
      { shape: 'job:*:lock', writes: [lua(5, 'SET', 'atomic', "KEYS[1] .. ':lock'")] },
      { shape: 'job:*:meta', writes: [lua(6, 'HSET', 'none', "KEYS[1] .. ':meta'")] },
      { shape: 'page:*', writes: [js('profiles.ts', 11, 15, 'SET', 'atomic')] },
      { shape: 'profile:*', writes: [js('profiles.ts', 7, 15, 'HSET', 'none')] },
      { shape: 'session:*', writes: [js('sessions.ts', 5, 15, 'SET', 'none')], reads: [{ file: `${APP}/src/sessions.ts`, line: 9, column: 16, command: 'GET', client: 'ioredis' }] },
      { shape: 'touch:count', writes: [{ file: `${APP}/scripts/touch.lua`, line: 3, column: 1, command: 'INCR', client: 'lua', ttl: 'none' }] },
    ]);
    expect(document.unresolved).toEqual([{ file: `${APP}/scripts/touch.lua`, line: 2, column: 1, command: 'SET', client: 'lua', ttl: 'none', key: 'KEYS[1]' }]);
  });

  it('prints the persistentKeys block of the shapes written without TTL, and --only narrows it', async () => {
    const all = await runKeys(['--no-config', '--persistent-config', APP]);
    expect(all.code).toBe(0);
    expect(all.stdout).toBe(
      [
        "// settings['redis-ttl'].persistentKeys for 4 key shapes written without TTL (redis-ttl-keys).",
        '// Review: keep the lines of keys kept without TTL on purpose (queues, registries); delete the others and fix their writes.',
        '// Add the patterns to an existing persistentKeys list; every rule and redis-ttl-audit --source then leave these keys alone.',
        'export default [',
        '  {',
        '    settings: {',
        "      'redis-ttl': {",
        '        persistentKeys: [',
        `          'job:*:meta', // ${APP}/src/jobs.ts:6:1 HSET`,
        `          'profile:*', // ${APP}/src/profiles.ts:7:15 HSET`,
        `          'session:*', // ${APP}/src/sessions.ts:5:15 SET`,
        `          'touch:count', // ${APP}/scripts/touch.lua:3:1 INCR`,
        '        ],',
        '      },',
        '    },',
        '  },',
        '];',
        '',
      ].join('\n'),
    );
    const only = await runKeys(['--no-config', '--persistent-config', '--only', 'profile:*', '--only', 'touch:*', APP]);
    expect(only.stdout.split('\n').filter((l) => l.startsWith('          '))).toEqual([
      `          'profile:*', // ${APP}/src/profiles.ts:7:15 HSET`,
      `          'touch:count', // ${APP}/scripts/touch.lua:3:1 INCR`,
    ]);
    expect(only.stdout).toContain("// Chosen with --only 'profile:*' --only 'touch:*': these keys are kept without TTL on purpose.");
    expect((await runKeys(['--no-config', '--persistent-config', '--only', 'nothing:*', APP])).stdout).toBe("// No shape written without TTL matches 'nothing:*': nothing to declare.\n");
  });

  it('names the shapes too broad to declare, and prints module.exports for a CommonJS config', async () => {
    const dir = 'tests/fixtures/keys/cjs-app';
    const cjs = await runKeys(['--no-config', '--persistent-config', 'src'], dir);
    expect(cjs.code).toBe(0);
    expect(cjs.stdout).toBe(
      [
        "// settings['redis-ttl'].persistentKeys for 1 key shape written without TTL (redis-ttl-keys).",
        "// Left out: 1 shape too broad to declare ('*': a pattern would silence every key), written without TTL at src/store.js:6:15 SET; fix those writes or build their keys from a named family.",
        '// Review: keep the lines of keys kept without TTL on purpose (queues, registries); delete the others and fix their writes.',
        '// Add the patterns to an existing persistentKeys list; every rule and redis-ttl-audit --source then leave these keys alone.',
        'module.exports = [',
        '  {',
        '    settings: {',
        "      'redis-ttl': {",
        '        persistentKeys: [',
        "          'hits:*', // src/store.js:10:15 HSET",
        '        ],',
        '      },',
        '    },',
        '  },',
        '];',
        '',
      ].join('\n'),
    );
    // --only a broad shape: nothing to declare, and the left-out shape is still named
    const broad = await runKeys(['--no-config', '--persistent-config', '--only', '*', 'src'], dir);
    expect(broad.stdout.split('\n').slice(0, 2)).toEqual([
      "// settings['redis-ttl'].persistentKeys for 1 key shape written without TTL (redis-ttl-keys).",
      "// Left out: 1 shape too broad to declare ('*': a pattern would silence every key), written without TTL at src/store.js:6:15 SET; fix those writes or build their keys from a named family.",
    ]);
    // the same project with an ES module config (--config names it), and one without a config whose package.json has no type
    const esm = await runKeys(['--config', '../persistent.config.mjs', '--persistent-config', 'src'], dir);
    expect(esm.stdout).toContain('\nexport default [\n');
    expect(esm.stdout).not.toContain('CommonJS project');
    // no ESLint config, a package.json without "type": ES module syntax, and how to write it in CommonJS
    const bare = mkdtempSync(join(tmpdir(), 'keys-typeless-'));
    writeFileSync(join(bare, 'package.json'), '{ "name": "typeless" }\n');
    writeFileSync(join(bare, 'store.js'), readFileSync(`${dir}/src/store.js`, 'utf8'));
    const typeless = await runKeys(['--no-config', '--persistent-config', '.'], bare);
    expect(typeless.stdout.split('\n').slice(4, 6)).toEqual([
      '// ES module syntax: in a CommonJS project write it in eslint.config.mjs, or as module.exports = [...] in eslint.config.cjs.',
      'export default [',
    ]);
  });

  it("reads persistentKeys from the ESLint config (--config): those writes are 'persistent' and leave the block", async () => {
    const { code, stdout } = await runKeys(['--config', 'tests/fixtures/keys/persistent.config.mjs', '-f', 'json', `${APP}/src/sessions.ts`, `${APP}/src/profiles.ts`]);
    expect(code).toBe(0);
    const document = validateInventory(JSON.parse(stdout), 'stdout');
    expect(document.shapes.map((s) => [s.shape, s.writes.map((w) => w.ttl)])).toEqual([
      ['hits:{*}', ['separate']],
      ['page:*', ['atomic']],
      ['profile:*', ['none']],
      ['session:*', ['persistent']],
    ]);
    const block = await runKeys(['--config', 'tests/fixtures/keys/persistent.config.mjs', '--persistent-config', `${APP}/src`]);
    expect(block.stdout.split('\n').filter((l) => l.startsWith('          '))).toEqual([
      `          'job:*:meta', // ${APP}/src/jobs.ts:6:1 HSET`,
      `          'profile:*', // ${APP}/src/profiles.ts:7:15 HSET`,
    ]);
  });
});

describe('redis-ttl-keys on bad input', () => {
  it('names each file that does not parse (file:line:column), skips it, reads the others, exits 1', async () => {
    const dir = brokenSources();
    const { code, stdout, stderr } = await runKeys(['--no-config', '-f', 'json', '.'], dir);
    expect(code).toBe(1);
    expect(stderr).toBe(
      "redis-ttl-keys: broken.lua:2:1: the script does not parse: ')' expected near 'return' (skipped)\n" +
        'redis-ttl-keys: broken.ts:3:25: Parsing error: Expression expected. (skipped)\n',
    );
    expect(validateInventory(JSON.parse(stdout), 'stdout').shapes.map((s) => s.shape)).toEqual(['ok:*']);
  });

  it('exits 2 on usage errors, with one line', async () => {
    expect(await runKeys(['--only', 'a:*', APP])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'redis-ttl-keys: --only needs --persistent-config: it chooses the shapes of the persistentKeys block.\nRun "redis-ttl-keys --help" for usage.\n',
    });
    const missing = await runKeys(['--no-config', 'tests/fixtures/keys/no-such-dir']);
    expect(missing).toEqual({ code: 2, stdout: '', stderr: 'redis-ttl-keys: No such file or directory: "tests/fixtures/keys/no-such-dir".\n' });
    const format = await runKeys(['-f', 'yaml', APP]);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/^redis-ttl-keys: option '-f, --format <name>' argument 'yaml' is invalid\. Allowed choices are table, json, markdown\./);
  });

  it('prints --help with the exit codes', async () => {
    const { code, stdout } = await runKeys(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: redis-ttl-keys \[options\] \[paths\.\.\.\]/);
    expect(stdout).toContain('Exit codes: 0 written, 1 written but some files were skipped (named on standard error),\n2 usage, config or file error.');
  });
});

describe('docs/keys.md', () => {
  it('documents every option of --help in its options table, and the three exit codes', async () => {
    const page = readFileSync('docs/keys.md', 'utf8');
    const help = (await runKeys(['--help'])).stdout;
    const fromHelp = [...help.matchAll(/^ {2}((?:-\w, )?--[\w-]+(?: <\w+>)?)/gm)].map((m) => m[1]!);
    const table = page.slice(page.indexOf('## Options'), page.indexOf('## Exit codes'));
    const fromDocs = [...table.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    expect(fromHelp.filter((option) => !fromDocs.includes(option) && !fromDocs.some((d) => d.split(', ').includes(option)))).toEqual([]);
    expect(fromHelp).toHaveLength(8);
    const exits = page.slice(page.indexOf('## Exit codes'));
    for (const code of [0, 1, 2]) expect(exits).toMatch(new RegExp(`^\\| ${code} \\| `, 'm'));
  });
});

describe('redis-ttl-keys: a SET whose expiry follows in its own round trip', () => {
  it("is 'separate', not 'none' (set-requires-ttl-or-keepttl's setThenExpire)", async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'keys-set-then-expire-'));
    writeFileSync(
      join(dir, 'store.ts'),
      "import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function put(id: string, v: string) {\n  await redis.set(`doc:${id}`, v);\n  await redis.expire(`doc:${id}`, 60);\n}\n",
    );
    const { code, stdout, stderr } = await runKeys(['--no-config', '-f', 'json', dir]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const document = validateInventory(JSON.parse(stdout), 'stdout');
    expect(document.shapes.map((s) => [s.shape, s.writes.map((w) => [w.line, w.column, w.command, w.ttl])])).toEqual([['doc:*', [[4, 15, 'SET', 'separate']]]]);
  });
  it('exits 2 on an empty path argument (an unset shell variable) instead of reading the working directory', async () => {
    expect(await runKeys(['--no-config', ''])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'redis-ttl-keys: An empty argument where a file, directory or glob belongs (an unset shell variable?).\nRun "redis-ttl-keys --help" for usage.\n',
    });
  });
});
