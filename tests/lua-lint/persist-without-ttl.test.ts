/**
 * `no-persist`: a PERSIST of a key the script just found without a TTL (`TTL` answered -1, on the
 * `ttl == -1` branch) or found missing changes nothing (PERSIST returns 0 "if key does not exist
 * or does not have an associated timeout", https://redis.io/docs/latest/commands/persist/): the
 * incrWithVersion script of lanmei-backend restores the TTL it read around an INCRBY, keeping a key
 * that had none as it was.
 *
 * Stays reported: PERSIST on the other branch (`ttl ~= -1`: the key may have a TTL), after an
 * EXPIRE the script itself gave it, and with no TTL read at all; also through the CLI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';
import { runLuaLint } from './run-cli.js';

const found = (source: string): string[] => analyzeLua(source).map((f) => `${f.ruleId ?? 'parse-error'}@${f.line}:${f.column}`);

const RESTORE_TTL = [
  'if redis.call("EXISTS", KEYS[1]) == 0 then',
  '  return false',
  'end',
  'local ttl = redis.call("TTL", KEYS[1])',
  'local value = redis.call("INCRBY", KEYS[1], ARGV[1])',
  'if ttl > 0 then',
  '  redis.call("EXPIRE", KEYS[1], ttl)',
  'elseif ttl == -1 then',
  '  redis.call("PERSIST", KEYS[1])',
  'end',
  'return value',
].join('\n');

describe('PERSIST of a key without a TTL', () => {
  it.each([
    ['the ttl == -1 branch of a TTL read, INCRBY of the existing key between', RESTORE_TTL, []],
    ['a TTL read tested in the condition', `if redis.call('TTL', KEYS[1]) == -1 then redis.call('PERSIST', KEYS[1]) end\nreturn 1`, []],
    ['a missing key', `if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('PERSIST', KEYS[1]) end\nreturn 1`, []],
  ])('%s: no no-persist', (_name, source, expected) => {
    expect(found(source)).toEqual(expected);
  });

  it.each([
    ['the other branch', `local t = redis.call('TTL', KEYS[1])\nif t ~= -1 then redis.call('PERSIST', KEYS[1]) end\nreturn 1`, ['no-persist@2:17']],
    ['after an EXPIRE of its own', `local t = redis.call('TTL', KEYS[1])\nredis.call('EXPIRE', KEYS[1], 60)\nif t == -1 then redis.call('PERSIST', KEYS[1]) end\nreturn 1`, ['no-persist@3:17']],
    ['no TTL read', `redis.call('PERSIST', KEYS[1])\nreturn 1`, ['no-persist@1:1']],
  ])('%s: reported', (_name, source, expected) => {
    expect(found(source)).toEqual(expected);
  });

  it("the CLI says the same", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'persist-without-ttl-'));
    try {
      writeFileSync(join(dir, 'restore.lua'), `${RESTORE_TTL}\n`);
      writeFileSync(join(dir, 'persist.lua'), `redis.call('PERSIST', KEYS[1])\nreturn 1\n`);
      const restore = await runLuaLint(['restore.lua'], dir);
      expect(restore.stdout).not.toContain('no-persist');
      const persist = await runLuaLint(['persist.lua'], dir);
      expect(persist.stdout).toContain('no-persist');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
