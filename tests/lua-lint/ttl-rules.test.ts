/**
 * lua-lint's parts of issue 15: hash-field expiration (a hash whose every field expires empties
 * itself), ttl-units, fixed-window-expire, computed TTLs under expire-needs-positive-ttl and its
 * strict mode, min-redis-version with a configured server, and the CLI flags and config keys.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../lua-lint/cli/main.js';
import { validateConfig } from '../../lua-lint/cli/config.js';
import { analyzeLua, type AnalyzeOptions } from '../../lua-lint/index.js';

const found = (source: string, options?: AnalyzeOptions): string[] =>
  analyzeLua(source, options).map((f) => `${f.ruleId ?? 'parse-error'}@${f.line}:${f.column}`);

describe('hash-field expiration', () => {
  it.each([
    ['HSETEX with an expiry: every field expires, the hash empties itself', `redis.call('HSETEX', KEYS[1], 'EX', 60, 'FIELDS', 1, 'f', ARGV[1])\nreturn 1`, []],
    ['HSET, then HEXPIRE of every field it wrote', `redis.call('HSET', KEYS[1], 'f', ARGV[1], 'g', ARGV[2])\nredis.call('HEXPIRE', KEYS[1], 60, 'FIELDS', 2, 'g', 'f')\nreturn 1`, []],
    ['fields named by ARGV on both sides', `redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])\nredis.call('HPEXPIRE', KEYS[1], ARGV[3], 'FIELDS', 1, ARGV[1])\nreturn 1`, []],
    ['HSET then HDEL of its field', `redis.call('HSET', KEYS[1], 'f', 1)\nredis.call('HDEL', KEYS[1], 'f')\nreturn 1`, []],
    ['an expiry of the key itself', `redis.call('HSETEX', KEYS[1], 'EX', 60, 'FIELDS', 1, 'f', 1)\nredis.call('EXPIRE', KEYS[1], 100)\nredis.call('HSET', KEYS[1], 'g', 2)\nreturn 1`, []],
    ['HINCRBY on an existing key with expiring fields only... of a key that existed before', `if redis.call('EXISTS', KEYS[1]) == 1 then\n  redis.call('HINCRBY', KEYS[1], 'n', 1)\nend\nreturn 1`, []],
  ])('%s: clean', (_name, source, expected) => {
    expect(found(source)).toEqual(expected);
  });

  it.each([
    ['one field of two gets a TTL', `redis.call('HSET', KEYS[1], 'f', 1, 'g', 2)\nredis.call('HEXPIRE', KEYS[1], 60, 'FIELDS', 1, 'f')\nreturn 1`, ['write-path-needs-ttl@1:1']],
    ['a field without TTL added to a hash HSETEX created', `redis.call('HSETEX', KEYS[1], 'EX', 60, 'FIELDS', 1, 'f', 1)\nredis.call('HSET', KEYS[1], 'g', 2)\nreturn 1`, ['write-path-needs-ttl@2:1']],
    ['HEXPIRE ... XX leaves a new field without TTL', `redis.call('HSET', KEYS[1], 'f', 1)\nredis.call('HEXPIRE', KEYS[1], 60, 'XX', 'FIELDS', 1, 'f')\nreturn 1`, ['write-path-needs-ttl@1:1']],
    ['HSETEX without an expiry option clears field TTLs', `redis.call('HSETEX', KEYS[1], 'FIELDS', 1, 'f', 1)\nreturn 1`, ['write-path-needs-ttl@1:1']],
    ['HSETEX ... KEEPTTL creates a new field without TTL', `redis.call('HSETEX', KEYS[1], 'KEEPTTL', 'FIELDS', 1, 'f', 1)\nreturn 1`, ['write-path-needs-ttl@1:1']],
    ['a field the analysis cannot name', `local f = cjson.decode(ARGV[1]).field\nredis.call('HSET', KEYS[1], f, 1)\nredis.call('HEXPIRE', KEYS[1], 60, 'FIELDS', 1, f)\nreturn 1`, ['write-path-needs-ttl@2:1']],
    ['HSETEX ... FNX may write nothing: a field already there keeps no TTL', `redis.call('HINCRBY', KEYS[1], 'f', 1)\nredis.call('HSETEX', KEYS[1], 'FNX', 'EX', 60, 'FIELDS', 2, 'f', '1', 'g', '2')\nreturn 1`, ['write-path-needs-ttl@1:1']],
    ['HPERSIST', `redis.call('HPERSIST', KEYS[1], 'FIELDS', 1, 'f')\nreturn 1`, ['no-persist@1:1']],
    ['HGETEX ... PERSIST', `return redis.call('HGETEX', KEYS[1], 'PERSIST', 'FIELDS', 1, 'f')`, ['no-persist@1:8']],
    ['HEXPIRE 0 deletes the field', `redis.call('HSET', KEYS[1], 'f', 1)\nredis.call('HEXPIRE', KEYS[1], 0, 'FIELDS', 1, 'f')\nreturn 1`, ['expire-needs-positive-ttl@2:32']],
  ])('%s', (_name, source, expected) => {
    expect(found(source)).toEqual(expected);
  });
});

describe('ttl-units', () => {
  it('reports a server time as a duration, a literal duration as a Unix time, a millisecond name under EXPIRE', () => {
    expect(found(`local now = redis.call('TIME')\nredis.call('SET', KEYS[1], ARGV[1])\nredis.call('EXPIRE', KEYS[1], now[1] + 60)\nreturn 1`)).toEqual(['ttl-units@3:31']);
    expect(found(`redis.call('SET', KEYS[1], ARGV[1])\nredis.call('EXPIREAT', KEYS[1], 3600)\nreturn 1`)).toEqual(['ttl-units@2:33']);
    expect(found(`local ttl_ms = ARGV[2]\nredis.call('SET', KEYS[1], ARGV[1], 'EX', ttl_ms)\nreturn 1`)).toEqual(['ttl-units@2:43']);
    expect(analyzeLua(`local ttl_ms = ARGV[2]\nredis.call('SET', KEYS[1], ARGV[1], 'EX', ttl_ms)\nreturn 1`)[0]?.message).toBe(
      'SET ... EX counts seconds, but ttl_ms is in milliseconds (its name `ttl_ms` says milliseconds): the key lives 1000 times longer than meant. Use the millisecond form (PX, PEXPIRE, PSETEX) or divide by 1000.',
    );
  });
  it('leaves alone matching units, and spans the script computes whatever their name', () => {
    expect(found(`local now = redis.call('TIME')\nredis.call('SET', KEYS[1], ARGV[1])\nredis.call('EXPIREAT', KEYS[1], now[1] + 60)\nreturn 1`)).toEqual([]);
    expect(found(`local ttl_ms = ARGV[2]\nredis.call('SET', KEYS[1], ARGV[1], 'PX', ttl_ms)\nreturn 1`)).toEqual([]);
    expect(found(`local expireAt = tonumber(ARGV[2]) * 1000\nredis.call('SET', KEYS[1], ARGV[1])\nredis.call('PEXPIRE', KEYS[1], expireAt)\nreturn 1`)).toEqual([]);
  });
});

describe('fixed-window-expire', () => {
  it('reports an expiry on every increment whose count is checked after it, and a TTL check a SET makes true', () => {
    expect(found(`local n = redis.call('INCR', KEYS[1])\nredis.call('EXPIRE', KEYS[1], 60)\nif n > tonumber(ARGV[1]) then\n  return 0\nend\nreturn 1`)).toEqual(['fixed-window-expire@2:1']);
    expect(found(`redis.call('SET', KEYS[1], ARGV[1])\nlocal t = redis.call('TTL', KEYS[1])\nif t == -1 then\n  redis.call('EXPIRE', KEYS[1], 60)\nend\nreturn 1`)).toEqual(['fixed-window-expire@4:3']);
  });
  it('leaves alone NX, an n == 1 guard, a check before the expiry and a counter never compared', () => {
    expect(found(`local n = redis.call('INCR', KEYS[1])\nredis.call('EXPIRE', KEYS[1], 60, 'NX')\nif n > tonumber(ARGV[1]) then\n  return 0\nend\nreturn 1`)).toEqual([]);
    expect(found(`local n = redis.call('INCR', KEYS[1])\nif n == 1 then\n  redis.call('EXPIRE', KEYS[1], 60)\nend\nif n > tonumber(ARGV[1]) then\n  return 0\nend\nreturn 1`)).toEqual([]);
    expect(found(`local n = redis.call('INCRBY', KEYS[1], ARGV[1])\nredis.call('EXPIRE', KEYS[1], 900)\nreturn n`)).toEqual([]);
    expect(found(`redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')\nif redis.call('TTL', KEYS[1]) < 0 then\n  redis.call('EXPIRE', KEYS[1], 60)\nend\nreturn 1`)).toEqual([]);
  });
});

describe('expire-needs-positive-ttl on computed TTLs', () => {
  const remaining = `local now = redis.call('TIME')\nlocal left = tonumber(ARGV[2]) - now[1]\nredis.call('SET', KEYS[1], ARGV[1])\nredis.call('EXPIRE', KEYS[1], left)\nreturn 1`;
  it('reports a remaining time nothing checks, once', () => {
    expect(found(remaining)).toEqual(['expire-needs-positive-ttl@4:31']);
    expect(analyzeLua(remaining)[0]?.message).toBe(
      'The TTL left of EXPIRE is computed and can be 0 or less: the expiry then deletes the key, and a later write creates it again without TTL. Check it first or clamp it: math.max(1, left).',
    );
  });
  it('leaves it to write-path-needs-ttl when its effect is a leak, and alone when the script checks it', () => {
    expect(found(`redis.call('SADD', KEYS[1], 'm')\nredis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) - 1)\nredis.call('SADD', KEYS[1], ARGV[3])\nreturn 1`)).toEqual(['write-path-needs-ttl@3:1']);
    // checked: no finding about the TTL; the SET on the path where left <= 0 keeps no TTL, and that is the leak
    expect(found(remaining.replace("redis.call('EXPIRE', KEYS[1], left)", "if left > 0 then redis.call('EXPIRE', KEYS[1], left) end"))).toEqual(['write-path-needs-ttl@3:1']);
  });
  it('strict mode reports an ARGV TTL never checked', () => {
    const lock = `redis.call('SET', KEYS[1], ARGV[1], 'NX')\nredis.call('PEXPIRE', KEYS[1], ARGV[2])\nreturn 1`;
    expect(found(lock)).toEqual([]);
    expect(found(lock, { strict: true })).toEqual(['expire-needs-positive-ttl@2:32']);
    expect(found(`local ttl = tonumber(ARGV[2])\nif ttl <= 0 then return redis.error_reply('bad ttl') end\nredis.call('SET', KEYS[1], ARGV[1], 'NX')\nredis.call('PEXPIRE', KEYS[1], ttl)\nreturn 1`, { strict: true })).toEqual([]);
  });
});

describe('min-redis-version', () => {
  const script = `redis.call('INCR', KEYS[1])\nredis.call('EXPIRE', KEYS[1], 60, 'NX')\nreturn redis.call('GETEX', KEYS[2], 'EX', 60)`;
  it('reports nothing without redisVersion, and what a configured server lacks', () => {
    expect(found(script)).toEqual([]);
    expect(found(script, { redisVersion: '6.2' })).toEqual(['min-redis-version@2:1']);
    expect(found(script, { redisVersion: '6.0.20' })).toEqual(['min-redis-version@2:1', 'min-redis-version@3:8']);
    expect(found(script, { redisVersion: '7.0' })).toEqual([]);
    expect(() => found(script, { redisVersion: 'not a version' })).toThrow(
      new TypeError('analyzeLua: invalid options: redisVersion: expected a Redis version such as "6.2" or "7.0.15" (a string), got "not a version".'),
    );
    expect(analyzeLua(script, { redisVersion: '6.2' })[0]?.message).toBe(
      'EXPIRE ... NX needs Redis 7.0.0 or later, newer than the configured redisVersion: the server rejects it and the script stops there, keeping the writes made before it. Use what the server has, or raise redisVersion once every server runs 7.0.0.',
    );
  });
});

describe('CLI: --strict, --redis-version, and the config keys', () => {
  async function run(args: string[], stdin: string): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await main([...args, '--no-config-lookup', '--format', 'compact', '-'], {
      stdout: { write: (t: string) => ((stdout += t), true) },
      stderr: { write: (t: string) => ((stderr += t), true) },
      stdin: Readable.from([stdin]),
      cwd: process.cwd(),
      env: {},
    });
    return { code, stdout, stderr };
  }
  it('turns strict mode and the server version on', async () => {
    const lock = `redis.call('SET', KEYS[1], ARGV[1], 'NX')\nredis.call('PEXPIRE', KEYS[1], ARGV[2])\nreturn redis.call('GETEX', KEYS[1])`;
    expect((await run([], lock)).code).toBe(0);
    const strict = await run(['--strict'], lock);
    expect(strict.stdout).toContain('<stdin>: line 2, col 32, Warning - The TTL ARGV[2] of PEXPIRE comes from the caller');
    const old = await run(['--redis-version', '6.0'], lock);
    expect(old.code).toBe(1);
    expect(old.stdout).toContain('<stdin>: line 3, col 8, Error - GETEX needs Redis 6.2.0 or later');
  });
  it('rejects a --redis-version that is not a version (exit 2)', async () => {
    const result = await run(['--redis-version', 'latest'], 'return 1');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('lua-lint: Invalid --redis-version "latest": expected a Redis version such as 6.2 or 7.0.15.\n');
  });
  it('validates strict and redisVersion in lua-lint.config.json', () => {
    expect(validateConfig({ strict: true, redisVersion: '7.2' }, '/p/lua-lint.config.json')).toMatchObject({ strict: true, redisVersion: '7.2' });
    expect(() => validateConfig({ strict: 'yes', redisVersion: 7 }, '/p/lua-lint.config.json')).toThrow(
      'Invalid config /p/lua-lint.config.json:\n  - strict: expected true or false, got "yes"\n  - redisVersion: expected a Redis version such as "6.2" or "7.0.15" (a string), got 7',
    );
  });
});
