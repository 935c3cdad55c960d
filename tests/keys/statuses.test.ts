// The TTL status of each kind of write, as the inventory gives it from the rules' reports and
// lua-lint's findings: atomic, separate, none, keepttl, persistent, in several spellings each;
// KEYS of a script tied to the call site's shapes (through locals too); scripts in .lua files and
// in other host languages.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { persistentCandidates } from '../../keys/format.js';
import { buildInventory } from '../../keys/inventory.js';
import { luaKeyUses } from '../../keys/lua-writes.js';

/** The inventory of files written to a fresh folder: `[shape, line, command, client, ttl]` per write, and the unresolved. */
async function inventoryOf(files: Record<string, string>, settings?: Record<string, unknown>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'keys-status-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const { document, problems } = await buildInventory(['.'], { cwd: dir, ...(settings ? { settings } : { useConfig: false }) });
  expect(problems).toEqual([]);
  return {
    writes: document.shapes.flatMap((s) => s.writes.map((w) => [s.shape, w.line, w.command, w.client, w.ttl])),
    unresolved: (document.unresolved ?? []).map((w) => [w.key, w.line, w.command, w.ttl]),
  };
}

const IOREDIS = "import Redis from 'ioredis';\nconst redis = new Redis();\n";

describe('TTL status of JS/TS writes', () => {
  it('atomic: the expiry is part of the write or of the same MULTI', async () => {
    const { writes } = await inventoryOf({
      'a.ts':
        IOREDIS +
        [
          "await redis.set(`a:${id}`, v, 'EX', 60);",
          'await redis.setex(`b:${id}`, 60, v);',
          'await redis.multi().incr(`c:${id}`).expire(`c:${id}`, 60).exec();',
          "await redis.set(`d:${id}`, v, 'PX', 500, 'NX');",
        ].join('\n'),
    });
    expect(writes).toEqual([
      ['a:*', 3, 'SET', 'ioredis', 'atomic'],
      ['b:*', 4, 'SETEX', 'ioredis', 'atomic'],
      ['c:*', 5, 'INCR', 'ioredis', 'atomic'],
      ['d:*', 6, 'SET', 'ioredis', 'atomic'],
    ]);
  });

  it('separate: the expiry is another round trip, or shares a pipeline (not atomic)', async () => {
    const { writes } = await inventoryOf({
      'a.ts':
        IOREDIS +
        [
          'const n = await redis.incr(`a:${id}`);',
          'if (n === 1) await redis.expire(`a:${id}`, 60);',
          'await redis.pipeline().hincrby(`b:${id}`, f, 1).expire(`b:${id}`, 60).exec();',
          'await redis.sadd(`c:${id}`, m);',
          'await redis.pexpire(`c:${id}`, 500);',
        ].join('\n'),
    });
    expect(writes).toEqual([
      ['a:*', 3, 'INCR', 'ioredis', 'separate'],
      ['b:*', 5, 'HINCRBY', 'ioredis', 'separate'],
      ['c:*', 6, 'SADD', 'ioredis', 'separate'],
    ]);
  });

  it('none: no expiry, one a later write wipes, one the client drops; keepttl: SET ... KEEPTTL', async () => {
    const { writes } = await inventoryOf({
      'a.ts':
        IOREDIS +
        [
          'await redis.set(`a:${id}`, v);',
          "await redis.getset(`b:${id}`, '0');",
          'await redis.hset(`c:${id}`, f, v);',
          "await redis.set(`d:${id}`, v, 'KEEPTTL');",
          'await redis.persist(`e:${id}`);',
          "await redis.set('config:flags', v);",
        ].join('\n'),
      'b.ts': "import { createClient } from 'redis';\nconst client = createClient();\nawait client.set(`f:${id}`, v, 60);\nawait client.set(`g:${id}`, v, { EX: 60 });\n",
    });
    expect(writes).toEqual([
      ['a:*', 3, 'SET', 'ioredis', 'none'],
      ['b:*', 4, 'GETSET', 'ioredis', 'none'],
      ['c:*', 5, 'HSET', 'ioredis', 'none'],
      // one constant key: the rules leave it alone, but it is written without TTL
      ['config:flags', 8, 'SET', 'ioredis', 'none'],
      ['d:*', 6, 'SET', 'ioredis', 'keepttl'],
      ['e:*', 7, 'PERSIST', 'ioredis', 'none'],
      // node-redis never sends a bare number: no TTL
      ['f:*', 3, 'SET', 'node-redis', 'none'],
      ['g:*', 4, 'SET', 'node-redis', 'atomic'],
    ]);
  });

  it("persistent: a persistentKeys pattern of the settings, in JS and in scripts; an annotation", async () => {
    const { writes } = await inventoryOf(
      {
        'a.ts':
          IOREDIS +
          [
            'await redis.rpush(`queue:${name}`, job);',
            "await redis.eval(\"redis.call('HSET', KEYS[1], 'a', 1)\", 1, `registry:${name}`);",
            'await redis.set(`session:${id}`, v);',
            '// redis-ttl persistent: the user table',
            'await redis.set(`user:${id}`, v);',
          ].join('\n'),
      },
      { persistentKeys: ['queue:*', 'registry:*'] },
    );
    expect(writes).toEqual([
      ['queue:*', 3, 'RPUSH', 'ioredis', 'persistent'],
      ['registry:*', 4, 'HSET', 'lua', 'persistent'],
      ['session:*', 5, 'SET', 'ioredis', 'none'],
      ['user:*', 7, 'SET', 'ioredis', 'persistent'],
    ]);
  });

  it('persistent: a prefix held in a constructor option with a default, or in a const of a relative module, is spelled', async () => {
    const { writes } = await inventoryOf(
      {
        'constants.ts': "export const WRITE_KEYS_PREFIX = 'write_keys';\n",
        'a.ts':
          IOREDIS +
          [
            "import { WRITE_KEYS_PREFIX } from './constants';",
            'export class Workflows {',
            "  constructor(private keyPrefix = 'workflows') {}",
            '  save(id: string) { return redis.hset(`${this.keyPrefix}:run:${id}`, "s", 1); }',
            '  record(id: string, k: string) { return redis.zadd(`${WRITE_KEYS_PREFIX}:${id}`, 1, k); }',
            '}',
            'export class Unknown {',
            '  constructor(private opts: { prefix: string }) {}',
            '  save(id: string) { return redis.hset(`${this.opts.prefix}:run:${id}`, "s", 1); }',
            '}',
          ].join('\n'),
      },
      { persistentKeys: ['workflows:*', 'write_keys:*'] },
    );
    expect(writes).toEqual([
      ['*:run:*', 11, 'HSET', 'ioredis', 'none'],
      ['workflows:run:*', 6, 'HSET', 'ioredis', 'persistent'],
      ['write_keys:*', 7, 'ZADD', 'ioredis', 'persistent'],
    ]);
  });
});

describe('Lua writes', () => {
  it("ties KEYS[n] to the shapes the call passes, through `..`, locals and literal keys", () => {
    const script = [
      "local meta = KEYS[2] .. ':meta'",
      "redis.call('HSET', meta, 'a', 1)",
      "redis.call('SET', KEYS[1], ARGV[1], 'EX', 60)",
      "redis.call('INCR', 'stats:' .. ARGV[1] .. ':count')",
      "redis.call('SADD', KEYS[3], 1)",
      "local x = redis.call('GET', KEYS[1])",
      'return 1',
    ].join('\n');
    const uses = luaKeyUses(script, ['lock:{*}', 'job:*']);
    expect(uses).toEqual({
      ok: true,
      writes: [
        { offset: 32, command: 'HSET', keyText: 'meta', shape: 'job:*:meta', ttl: 'none' },
        { offset: 65, command: 'SET', keyText: 'KEYS[1]', shape: 'lock:{*}', ttl: 'atomic' },
        { offset: 111, command: 'INCR', keyText: "'stats:' .. ARGV[1] .. ':count'", shape: 'stats:*:count', ttl: 'none' },
        // KEYS[3] is not passed: no shape
        { offset: 163, command: 'SADD', keyText: 'KEYS[3]', shape: undefined, ttl: 'none' },
      ],
      reads: [{ offset: 204, command: 'GET', keyText: 'KEYS[1]', shape: 'lock:{*}' }],
      expiries: [],
    });
  });

  it('gives the status lua-lint proves: an expiry on every path (atomic), an early return before it (none), KEEPTTL that may create the key (keepttl)', () => {
    const statuses = (script: string) => (luaKeyUses(script, ['k:*']) as { writes: Array<{ ttl: string }> }).writes.map((w) => w.ttl);
    expect(statuses("redis.call('INCR', KEYS[1])\nredis.call('EXPIRE', KEYS[1], 60)\nreturn 1")).toEqual(['atomic']);
    expect(statuses("local n = redis.call('INCR', KEYS[1])\nif n == 1 then redis.call('EXPIRE', KEYS[1], 60) end\nreturn n")).toEqual(['atomic']);
    expect(statuses("redis.call('INCR', KEYS[1])\nif ARGV[1] == 'x' then return 0 end\nredis.call('EXPIRE', KEYS[1], 60)\nreturn 1")).toEqual(['none']);
    expect(statuses("redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')\nreturn 1")).toEqual(['keepttl']);
    // XX: never creates the key, so it is no write of a key without TTL
    expect(statuses("redis.call('SET', KEYS[1], ARGV[1], 'XX', 'KEEPTTL')\nreturn 1")).toEqual([]);
    // a TTL the caller may leave out: keys without TTL when it does
    expect(statuses("redis.call('SET', KEYS[1], ARGV[1])\nif tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end\nreturn 1")).toEqual(['none']);
  });

  it('marks the no-TTL arm of a TTL the caller chooses (optionalTtl), in JS and in scripts, and --persistent-config offers no such shape', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keys-optional-'));
    writeFileSync(
      path.join(dir, 'a.ts'),
      IOREDIS +
        [
          'export async function cacheUser(id: string, v: string, ttl?: number) {',
          "  if (ttl) await redis.set(`user:${id}`, v, 'EX', ttl);",
          '  else await redis.set(`user:${id}`, v);',
          '}',
          'export async function lock(id: string) {',
          `  return redis.eval("redis.call('SET', KEYS[1], ARGV[1])\\nif ARGV[2] == '' then return 1 end\\nredis.call('PEXPIRE', KEYS[1], ARGV[2])\\nreturn 1", 1, \`lock:\${id}\`, 'me', '30000');`,
          '}',
          'export async function plain(id: string) {',
          "  await redis.set(`plain:${id}`, 'v');",
          '}',
        ].join('\n'),
    );
    const { document, problems } = await buildInventory(['.'], { cwd: dir, useConfig: false });
    expect(problems).toEqual([]);
    expect(document.shapes.map((s) => [s.shape, s.writes.map((w) => [w.line, w.command, w.ttl, w.optionalTtl ?? false])])).toEqual([
      ['lock:*', [[8, 'SET', 'none', true]]],
      ['plain:*', [[11, 'SET', 'none', false]]],
      ['user:*', [[4, 'SET', 'atomic', false], [5, 'SET', 'none', true]]],
    ]);
    // declaring lock:* or user:* persistent would silence them when a caller passes no TTL by mistake
    expect(persistentCandidates(document).map((s) => s.shape)).toEqual(['plain:*']);
    // an early return the caller's TTL does not decide is a plain leak
    const optional = (script: string) => (luaKeyUses(script, ['k:*']) as { writes: Array<{ ttl: string; optionalTtl?: true }> }).writes.map((w) => [w.ttl, w.optionalTtl ?? false]);
    expect(optional("redis.call('INCR', KEYS[1])\nif ARGV[1] == 'x' then return 0 end\nredis.call('EXPIRE', KEYS[1], 60)\nreturn 1")).toEqual([['none', false]]);
    expect(optional("redis.call('SET', KEYS[1], ARGV[1])\nif tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end\nreturn 1")).toEqual([['none', true]]);
  });

  it('ties the KEYS of an ioredis defineCommand script to the keys of each call of the command in the file', async () => {
    const { writes, unresolved } = await inventoryOf({
      'a.ts':
        IOREDIS +
        [
          "const CLAIM = { numberOfKeys: 2, lua: \"redis.call('HSET', KEYS[1], 'w', ARGV[1])\\nredis.call('SET', KEYS[2], ARGV[1], 'EX', 30)\\nreturn 1\" };",
          "redis.defineCommand('claim', CLAIM);",
          'await redis.claim(`job:${id}:meta`, `job:${id}:lock`, worker);',
          "await redis.multi().claim(`task:${id}`, `task:${id}:lock`, worker).exec();",
          "const TOUCH = 'touch';",
          "redis.defineCommand(TOUCH, { numberOfKeys: 1, lua: \"redis.call('SADD', KEYS[1], ARGV[1])\\nreturn 1\" });",
        ].join('\n'),
    });
    expect(writes).toEqual([
      ['job:*:lock', 3, 'SET', 'lua', 'atomic'],
      ['job:*:meta', 3, 'HSET', 'lua', 'none'],
      ['task:*', 3, 'HSET', 'lua', 'none'],
      ['task:*:lock', 3, 'SET', 'lua', 'atomic'],
    ]);
    // a command defined here but called elsewhere: its key stays unresolved, at the script
    expect(unresolved).toEqual([['KEYS[1]', 8, 'SADD', 'none']]);
  });

  it('reads .lua files (KEYS unresolved) and scripts embedded in other host languages', async () => {
    const { writes, unresolved } = await inventoryOf({
      'claim.lua': "redis.call('HSET', KEYS[1], 'w', ARGV[1])\nredis.call('SET', 'last:claim', ARGV[1], 'EX', 5)\nreturn 1\n",
      'app.py': "import redis\nr = redis.Redis()\nbump = r.register_script(\"\"\"\nredis.call('INCR', 'py:' .. ARGV[1])\nreturn 1\n\"\"\")\n",
    });
    expect(writes).toEqual([
      ['last:claim', 2, 'SET', 'lua', 'atomic'],
      ['py:*', 4, 'INCR', 'lua', 'none'],
    ]);
    expect(unresolved).toEqual([['KEYS[1]', 1, 'HSET', 'none']]);
  });

  it('reports a script that does not parse with its place in the host file, and goes on', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keys-status-'));
    writeFileSync(path.join(dir, 'a.ts'), IOREDIS + "await redis.eval(\"redis.call('SET', KEYS[1]\", 1, `a:${id}`);\nawait redis.set(`b:${id}`, v);\n");
    const { document, problems } = await buildInventory(['.'], { cwd: dir, useConfig: false });
    expect(problems).toEqual([{ file: 'a.ts', line: 3, column: 44, message: "the script does not parse: ')' expected near '<eof>'" }]);
    expect(document.shapes.map((s) => s.shape)).toEqual(['b:*']);
  });
});
