/**
 * Lua embedded through the new clients (issue 26, items 1 and 5): Valkey GLIDE's `new
 * Script(code)` (named, aliased and namespace imports; KEYS from the `keys` of the
 * `invokeScript(script, { keys, args })` call it goes to) and iovalkey's `eval` /
 * `defineCommand`, and an EVAL sent by name (Bun's `send('EVAL', [...])`, GLIDE's
 * `customCommand(['EVAL', ...])`, iovalkey's `call('EVAL', ...)`), for the `redis-ttl/embedded-lua` rule (typed and untyped) and for `lua-lint`
 * on a JS/TS host file (the CLI, through `lua-lint/hosts/javascript.ts`), each finding at its line
 * and column in the host file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../lua-lint/cli/main.js';
import { lintHostSource } from '../../../lua-lint/hosts/index.js';
import rule from '../../../rules/embedded-lua.js';
import { runRule, typedTester, untypedTester } from '../tester.js';

const GLIDE_CONST = `import { GlideClient, Script } from '@valkey/valkey-glide';
const client = await GlideClient.createClient({ addresses: [] });
const hit = new Script("local n = redis.call('INCR', KEYS[1])\\nreturn n");
export const count = (id: string) => client.invokeScript(hit, { keys: [\`hits:\${id}\`], args: [] });
`;
const GLIDE_INLINE = `import * as glide from '@valkey/valkey-glide';
const client = await glide.GlideClusterClient.createClient({ addresses: [] });
await client.invokeScript(new glide.Script("redis.call('SET', KEYS[1], ARGV[1])"), { keys: [\`s:\${id}\`], args: [v] });
`;
const GLIDE_ALIAS = `import { Script as LuaScript } from '@valkey/valkey-glide';
const take = new LuaScript(\`
return redis.call('GETSET', KEYS[1], '0')
\`);
`;
const IOVALKEY = `import Redis from 'iovalkey';
const redis = new Redis();
redis.eval("redis.call('SET', KEYS[1], ARGV[1])", 1, \`k:\${id}\`, v);
redis.defineCommand('take', {
  numberOfKeys: 1,
  lua: 'return redis.call("GETSET", KEYS[1], "0")',
});
`;

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'embedded-lua', rule, {
    valid: [
      `import { Script } from '@valkey/valkey-glide';\nconst s = new Script("local n = redis.call('INCR', KEYS[1])\\nredis.call('EXPIRE', KEYS[1], 60)\\nreturn n");`,
      // a Script class of the code is not GLIDE's
      `class Script { constructor(readonly code: string) {} }\nconst s = new Script("redis.call('SET', KEYS[1], ARGV[1])");`,
      // KEYS[1] is a persistent key of the code: settings['redis-ttl'].persistentKeys, read through invokeScript's keys
      {
        code: `import { GlideClient, Script } from '@valkey/valkey-glide';\nconst client = await GlideClient.createClient({ addresses: [] });\nconst log = new Script("redis.call('SET', KEYS[1], ARGV[1])");\nawait client.invokeScript(log, { keys: [\`audit:\${day}\`], args: [v] });`,
        settings: { 'redis-ttl': { persistentKeys: ['audit:*'] } },
      },
      `import Redis from 'iovalkey';\nconst redis = new Redis();\nredis.evalsha(sha, 1, \`k:\${id}\`);`,
      // a send() of something that is no client
      `const sandbox = { send(a: string, b: string[]) { return [a, b]; } };\nsandbox.send('EVAL', ["redis.call('SET', KEYS[1], ARGV[1])", '1', k]);`,
      // Bun: KEYS[1] is a persistent key of the code, read through the literal numkeys
      {
        code: `import { redis } from 'bun';\nawait redis.send('EVAL', ["redis.call('SET', KEYS[1], ARGV[1])", '1', \`audit:\${day}\`, v]);`,
        settings: { 'redis-ttl': { persistentKeys: ['audit:*'] } },
      },
    ],
    invalid: [
      { code: GLIDE_CONST, errors: [{ messageId: 'luaFinding', data: {
            ruleId: 'write-path-needs-ttl',
            message:
              'INCR on KEYS[1] can create it without a TTL, and the return at line 3, column 64 precedes any expiry, so it never expires. Call PEXPIRE KEYS[1] <ms> after the write on every path.',
          },
          line: 3, column: 35, endLine: 3, endColumn: 62 }] },
      { code: GLIDE_INLINE, errors: [{ messageId: 'luaFinding', line: 3, column: 45, endLine: 3, endColumn: 80 }] },
      { code: GLIDE_ALIAS, errors: [{ messageId: 'luaFinding', line: 3, column: 8, endLine: 3, endColumn: 42 }] },
      {
        // the same key without the persistentKeys setting
        code: `import { GlideClient, Script } from '@valkey/valkey-glide';\nconst client = await GlideClient.createClient({ addresses: [] });\nconst log = new Script("redis.call('SET', KEYS[1], ARGV[1])");\nawait client.invokeScript(log, { keys: [\`audit:\${day}\`], args: [v] });`,
        errors: [{ messageId: 'luaFinding', line: 3, column: 25, endLine: 3, endColumn: 60 }],
      },
      {
        code: `import { redis } from 'bun';\nawait redis.send('EVAL', ["redis.call('SET', KEYS[1], ARGV[1])", '1', \`k:\${id}\`, v]);`,
        errors: [{ messageId: 'luaFinding', line: 2, column: 28, endLine: 2, endColumn: 63 }],
      },
      {
        code: `import { GlideClient } from '@valkey/valkey-glide';\nconst client = await GlideClient.createClient({ addresses: [] });\nawait client.customCommand(['EVAL', "redis.call('INCR', KEYS[1])", '1', \`k:\${id}\`]);`,
        errors: [{ messageId: 'luaFinding', line: 3, column: 38, endLine: 3, endColumn: 65 }],
      },
      {
        code: `import Redis from 'iovalkey';\nconst redis = new Redis();\nawait redis.call('EVAL', "redis.call('SET', KEYS[1], ARGV[1])", 1, \`k:\${id}\`, v);`,
        errors: [{ messageId: 'luaFinding', line: 3, column: 27, endLine: 3, endColumn: 62 }],
      },
      {
        code: IOVALKEY,
        errors: [
          { messageId: 'luaFinding', line: 3, column: 13, endLine: 3, endColumn: 48 },
          { messageId: 'luaFinding', line: 6, column: 16, endLine: 6, endColumn: 50 },
        ],
      },
    ],
  });
}

describe('lua-lint reads scripts embedded through GLIDE and iovalkey in JS/TS host files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lua-lint-clients-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const files: Record<string, string> = { 'glide-const.ts': GLIDE_CONST, 'glide-inline.ts': GLIDE_INLINE, 'glide-alias.mjs': GLIDE_ALIAS, 'iovalkey.ts': IOVALKEY };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);

  it.each([
    ['glide-const.ts', [[3, 35, 3, 62, 'write-path-needs-ttl']]],
    ['glide-inline.ts', [[3, 45, 3, 80, 'write-path-needs-ttl']]],
    ['glide-alias.mjs', [[3, 8, 3, 42, 'no-getset']]],
    [
      'iovalkey.ts',
      [
        [3, 13, 3, 48, 'write-path-needs-ttl'],
        [6, 16, 6, 50, 'no-getset'],
      ],
    ],
  ])('%s: every finding at its host line and column', async (name, expected) => {
    const findings = await lintHostSource(path.join(dir, name), files[name]!);
    expect(findings.map((f) => [f.line, f.column, f.endLine, f.endColumn, f.ruleId])).toEqual(expected);
  });

  it('the CLI reports the leaking GLIDE Script and iovalkey eval with exit code 1', async () => {
    let stdout = '';
    const code = await main(['glide-const.ts', 'iovalkey.ts'], {
      stdout: { write: (text: string) => (stdout += text), isTTY: false },
      stderr: { write: () => undefined },
      stdin: Readable.from([]),
      cwd: dir,
      env: {},
    });
    expect(code).toBe(1);
    // the stylish format: the file, then `line:column  error  message  rule` under it
    const places: string[] = [];
    let file = '';
    for (const line of stdout.split('\n')) {
      if (line.startsWith(dir)) file = path.basename(line);
      const place = /^\s+(\d+:\d+)\s+error\s.*\s(\S+)$/.exec(line);
      if (place) places.push(`${file}:${place[1]} ${place[2]}`);
    }
    expect(places).toEqual(['glide-const.ts:3:35 write-path-needs-ttl', 'iovalkey.ts:3:13 write-path-needs-ttl', 'iovalkey.ts:6:16 no-getset']);
  });
});
