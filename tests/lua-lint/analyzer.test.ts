import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeLua, describeCommand, RULES, RULE_IDS } from '../../lua-lint/index.js';
import type { AnalyzeOptions } from '../../lua-lint/index.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

function ids(source: string, options?: Parameters<typeof analyzeLua>[1]): string[] {
  return analyzeLua(source, options).map((f) => `${f.ruleId ?? 'parse-error'}@${f.line}`);
}

describe('positions', () => {
  it('reports a write at its call, with ESLint-style 1-based columns and UTF-16 offsets', () => {
    const source = "local n = 1\n  redis.call('INCR', KEYS[1])\nreturn n\n";
    const [finding] = analyzeLua(source);
    expect(finding).toMatchObject({
      ruleId: 'write-path-needs-ttl',
      severity: 2,
      line: 2,
      column: 3,
      endLine: 2,
      endColumn: 30,
      offset: 14,
      endOffset: 41,
    });
    expect(source.slice(finding!.offset, finding!.endOffset)).toBe("redis.call('INCR', KEYS[1])");
  });

  it('keeps UTF-16 offsets right after non-ASCII text', () => {
    const source = "-- compteur de sessions (clé → valeur) 🚀\nredis.call('SET', KEYS[1], 'café')\n";
    const [finding] = analyzeLua(source);
    expect(finding).toMatchObject({ ruleId: 'write-path-needs-ttl', line: 2, column: 1, endColumn: 35 });
    expect(source.slice(finding!.offset, finding!.endOffset)).toBe("redis.call('SET', KEYS[1], 'café')");
  });

  it('counts CRLF and CR line breaks like ESLint', () => {
    expect(ids("local a = 1\r\nlocal b = 2\rredis.call('SADD', KEYS[1], a)\r\nreturn b")).toEqual(['write-path-needs-ttl@3']);
  });

  it('reports a parse error once, fatal, at the line and column of the error', () => {
    const findings = analyzeLua('local x = 1\nif x then\n  return 0\nredis.call("EXPIRE", KEYS[1], 60)\n');
    expect(findings).toEqual([
      {
        ruleId: null,
        severity: 2,
        fatal: true,
        message: "Parsing error: 'end' expected near 'redis'",
        line: 4,
        column: 1,
        endLine: 4,
        endColumn: 1,
        offset: 33,
        endOffset: 33,
      },
    ]);
  });

  it('places a parse error after non-ASCII text at its UTF-16 column', () => {
    const [finding] = analyzeLua("local s = 'é'\nlocal = 1");
    expect(finding).toMatchObject({ fatal: true, line: 2, column: 7 });
  });
});

describe('messages', () => {
  it('names the key, the command, the exit line and the fix', () => {
    const [finding] = analyzeLua("local n = redis.call('INCR', KEYS[1])\nif n > tonumber(ARGV[1]) then\n  return 0\nend\nredis.call('EXPIRE', KEYS[1], 60)\nreturn 1\n");
    expect(finding!.message).toBe(
      'INCR on KEYS[1] can create it without a TTL, and the return at line 3, column 3 precedes any ' +
        'expiry, so it never expires. Call EXPIRE KEYS[1] <seconds> after the write on every path.',
    );
  });

  it('suggests SET ... PX for a plain SET and SET ... NX PX for SETNX', () => {
    expect(analyzeLua("redis.call('SET', KEYS[1], 'v')")[0]!.message).toContain('SET key value PX <ms>');
    expect(analyzeLua("redis.call('SETNX', KEYS[1], 'v')")[0]!.message).toContain('SET key value NX PX <ms>');
  });

  describe("writes the fix in the script's own unit", () => {
    const fixOf = (source: string): string => /(Call|Follow it with|Create it with its expiry:|Set the expiry in the same command:|set one with) ([^.]*)\./.exec(analyzeLua(source)[0]!.message)![2]!;
    it.each([
      ['only EXPIRE', "redis.call('EXPIRE', KEYS[2], 60)", 'EXPIRE KEYS[1] <seconds> after the write on every path'],
      ['only SETEX', "redis.call('SETEX', KEYS[2], 60, 'v')", 'EXPIRE KEYS[1] <seconds> after the write on every path'],
      ['only SET ... EX', "redis.call('SET', KEYS[2], 'v', 'EX', 60)", 'EXPIRE KEYS[1] <seconds> after the write on every path'],
      ['only EXPIREAT', "redis.call('EXPIREAT', KEYS[2], 1700000000)", 'EXPIRE KEYS[1] <seconds> after the write on every path'],
      ['only PEXPIRE', "redis.call('PEXPIRE', KEYS[2], 60000)", 'PEXPIRE KEYS[1] <ms> after the write on every path'],
      ['EXPIRE and PEXPIRE', "redis.call('EXPIRE', KEYS[2], 60)\nredis.call('PEXPIRE', KEYS[3], 60000)", 'PEXPIRE KEYS[1] <ms> after the write on every path'],
      ['EXPIRE and SET ... PX', "redis.call('EXPIRE', KEYS[2], 60)\nredis.call('SET', KEYS[3], 'v', 'PX', 60000)", 'PEXPIRE KEYS[1] <ms> after the write on every path'],
      ['no expiry', "redis.call('GET', KEYS[2])", 'PEXPIRE KEYS[1] <ms> after the write on every path'],
    ])('%s elsewhere in the script', (_name, other, fix) => {
      expect(fixOf(`redis.call('HSET', KEYS[1], 'f', 1)\n${other}\nreturn 1`)).toBe(fix);
    });
    it('for SET, SETNX and SET ... XX too', () => {
      const seconds = "\nredis.call('EXPIRE', KEYS[2], 60)";
      expect(fixOf(`redis.call('SET', KEYS[1], 'v')${seconds}`)).toBe('SET key value EX <seconds>');
      expect(fixOf(`redis.call('SETNX', KEYS[1], 'v')${seconds}`)).toBe('SET key value NX EX <seconds>');
      expect(fixOf(`redis.call('SET', KEYS[1], 'v', 'XX')${seconds}`)).toBe('SET key value XX EX <seconds>');
    });
  });

  it('suggests SET ... XX KEEPTTL GET instead of GETSET', () => {
    expect(analyzeLua("return redis.call('GETSET', KEYS[1], '0')")[0]!.message).toContain('SET key value XX KEEPTTL GET');
  });

  it('names the error line when a script raises after a write', () => {
    const [finding] = analyzeLua("redis.call('HSET', KEYS[1], 'a', 1)\nif not tonumber(ARGV[1]) then\n  error('bad ttl')\nend\nredis.call('PEXPIRE', KEYS[1], ARGV[1])\n");
    expect(finding!.message).toContain('the error raised at line 3, column 3 precedes any expiry (no rollback)');
  });

  it('names the function of a Redis 7 library', () => {
    const [finding] = analyzeLua("#!lua name=lib\nredis.register_function('mark', function(keys, args)\n  redis.call('SADD', keys[1], args[1])\nend)\n");
    expect(finding!.message).toContain("SADD on keys[1] can create it without a TTL, and the end of function 'mark' (line 4, column 1)");
  });
});

describe('options', () => {
  const leaky = "redis.call('INCR', KEYS[1])\nredis.call('HSET', KEYS[2], 'f', 1)\nredis.call('SADD', KEYS[3] .. ':x', 1)\nreturn 1\n";

  it('turns rules off and downgrades them', () => {
    expect(ids(leaky, { rules: { 'key-must-come-from-keys': 'off' } })).toEqual([
      'write-path-needs-ttl@1',
      'write-path-needs-ttl@2',
      'write-path-needs-ttl@3',
    ]);
    const findings = analyzeLua(leaky, { rules: { 'write-path-needs-ttl': 'warn', 'key-must-come-from-keys': 0 } });
    expect(findings.map((f) => f.severity)).toEqual([1, 1, 1]);
  });

  it('throws a TypeError naming every unknown rule id and bad severity, as the config file does', () => {
    expect(() => ids(leaky, { rules: { nope: 'off', 'write-path-needs-ttl': 'loud' } as never })).toThrow(
      new TypeError(
        'analyzeLua: invalid options:\n' +
          `  - rules.nope: unknown rule id (known: ${RULE_IDS.join(', ')})\n` +
          '  - rules.write-path-needs-ttl: expected "off", "warn", "error", 0, 1 or 2, got "loud"',
      ),
    );
    expect(() => ids(leaky, { rules: { 'no-persist': 'bogus' } as never })).toThrow(
      new TypeError('analyzeLua: invalid options: rules.no-persist: expected "off", "warn", "error", 0, 1 or 2, got "bogus".'),
    );
  });

  it('names the rule id a misspelt one most likely means', () => {
    expect(() => ids(leaky, { rules: { 'no-getst': 'off' } as never })).toThrow(
      new TypeError('analyzeLua: invalid options: rules.no-getst: unknown rule id; did you mean "no-getset"?'),
    );
    expect(() => ids(leaky, { rules: { 'Write-Path-Needs-TTL': 'off', 'key-must-come-from-key': 1 } as never })).toThrow(
      new TypeError(
        'analyzeLua: invalid options:\n' +
          '  - rules.Write-Path-Needs-TTL: unknown rule id; did you mean "write-path-needs-ttl"?\n' +
          '  - rules.key-must-come-from-key: unknown rule id; did you mean "key-must-come-from-keys"?',
      ),
    );
  });

  it('accepts persistent keys as KEYS indices, spellings and wildcards', () => {
    expect(ids(leaky, { persistentKeys: [1, 'KEYS[2]'] })).toEqual(['key-must-come-from-keys@3', 'write-path-needs-ttl@3']);
    expect(ids(leaky, { persistentKeys: ['KEYS[*]', "KEYS[3]..':x'"] })).toEqual(['key-must-come-from-keys@3']);
    expect(ids(leaky, { persistentKeys: ['2'] })).toHaveLength(3);
  });

  it('matches a persistent local alias by its name', () => {
    const source = "local jobs = KEYS[1]\nredis.call('HSET', jobs, 'state', 'queued')\n";
    expect(ids(source, { persistentKeys: ['jobs'] })).toEqual([]);
    expect(ids(source)).toEqual(['write-path-needs-ttl@2']);
  });
});

describe('comment directives', () => {
  it('disables the next line, this line, and ranges, per rule or for all', () => {
    const source = [
      "-- lua-lint-disable-next-line write-path-needs-ttl -- the audit log is kept forever",
      "redis.call('RPUSH', KEYS[1], ARGV[1])",
      "redis.call('RPUSH', KEYS[2], ARGV[1]) -- lua-lint-disable-line",
      '-- lua-lint-disable key-must-come-from-keys, write-path-needs-ttl',
      "redis.call('RPUSH', 'literal', ARGV[1])",
      '-- lua-lint-enable write-path-needs-ttl',
      "redis.call('RPUSH', 'other', ARGV[1])",
      '-- lua-lint-enable',
      "redis.call('RPUSH', KEYS[3], ARGV[1])",
      "redis.call('RPUSH', KEYS[4], ARGV[1]) -- lua-lint-disable-line no-persist",
    ].join('\n');
    expect(ids(source)).toEqual(['write-path-needs-ttl@7', 'write-path-needs-ttl@9', 'write-path-needs-ttl@10']);
  });

  it('never disables a parse error', () => {
    expect(ids('-- lua-lint-disable\nlocal = 1')).toEqual(['parse-error@2']);
  });

  it('applies a persistent annotation to the next line only, or to the script when it comes first', () => {
    const source = [
      "redis.call('INCR', KEYS[1])",
      '-- redis-ttl persistent: KEYS[2]',
      "redis.call('HSET', KEYS[2], 'a', 1)",
      "redis.call('HSET', KEYS[3], 'b', 1)",
      "redis.call('EXPIRE', KEYS[1], 5)",
    ].join('\n');
    expect(ids(source)).toEqual(['write-path-needs-ttl@4']);
    expect(ids(`-- redis-ttl persistent: KEYS[2], KEYS[3]\n${source}`)).toEqual([]);
  });
});

describe('semantics beyond the handed cases', () => {
  it('follows local helper functions and aliases of redis.call', () => {
    expect(ids("local call = redis.call\nlocal function bump(k)\n  return call('INCR', k)\nend\nbump(KEYS[1])\nreturn 1")).toEqual([
      'write-path-needs-ttl@3',
    ]);
    expect(ids("local call = server.call\nlocal function bump(k)\n  call('INCR', k)\n  call('PEXPIRE', k, 100)\nend\nbump(KEYS[1])")).toEqual([]);
  });

  it('understands wrappers with varargs', () => {
    expect(ids("local function c(...) return redis.call(...) end\nc('SET', KEYS[1], 'v')")).toEqual(['write-path-needs-ttl@1']);
    expect(ids("local function c(...) return redis.call(...) end\nc('SET', KEYS[1], 'v', 'PX', 10)")).toEqual([]);
  });

  it('treats unpack(KEYS) as every key', () => {
    expect(ids("redis.call('DEL', unpack(KEYS))\nreturn 1")).toEqual([]);
    expect(ids("for i = 1, #KEYS do redis.call('SADD', KEYS[i], 1) end\nredis.call('PEXPIRE', KEYS[1], 5)")).toEqual([
      'write-path-needs-ttl@1',
    ]);
  });

  it('takes repeat/until loops as running at least once and while loops as possibly never', () => {
    expect(ids("local i = 0\nrepeat\n  i = i + 1\n  redis.call('PEXPIRE', KEYS[1], 5)\nuntil i > 3\nreturn 1")).toEqual([]);
    expect(ids("redis.call('LPUSH', KEYS[1], 1)\nlocal i = tonumber(ARGV[1])\nwhile i > 0 do\n  redis.call('PEXPIRE', KEYS[1], 5)\n  i = i - 1\nend")).toEqual([
      'write-path-needs-ttl@1',
    ]);
  });

  it('follows RENAME and COPY: the destination carries the source\'s state', () => {
    expect(ids("redis.call('SADD', KEYS[1], 1)\nredis.call('RENAME', KEYS[1], KEYS[2])\nredis.call('PEXPIRE', KEYS[2], 5)")).toEqual([]);
    expect(ids("redis.call('SADD', KEYS[1], 1)\nredis.call('RENAME', KEYS[1], KEYS[2])\nredis.call('PEXPIRE', KEYS[1], 5)")).toEqual([
      'write-path-needs-ttl@1',
    ]);
  });

  it('trusts SET ... XX KEEPTTL and an existence guard, not KEEPTTL alone', () => {
    expect(ids("redis.call('SET', KEYS[1], 'v', 'XX', 'KEEPTTL')")).toEqual([]);
    expect(ids("if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('SET', KEYS[1], 'v', 'KEEPTTL') end")).toEqual([]);
    expect(ids("if redis.call('TTL', KEYS[1]) >= 0 then redis.call('SET', KEYS[1], 'v', 'KEEPTTL') end")).toEqual([]);
    expect(ids("if redis.call('TTL', KEYS[1]) ~= -2 then redis.call('SET', KEYS[1], 'v', 'KEEPTTL') end")).toEqual([]);
    expect(ids("if redis.call('HGET', KEYS[1], 'f') then redis.call('SET', KEYS[1], 'v', 'KEEPTTL') end")).toEqual([]);
    expect(ids("redis.call('SET', KEYS[1], 'v', 'KEEPTTL')")).toEqual(['keepttl-needs-existing-key@1']);
  });

  it('sees that an expiry guarded by a PTTL check repairs the key, and that a GT expiry does not', () => {
    expect(ids("redis.call('SADD', KEYS[1], 1)\nif redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], 9) end")).toEqual([]);
    expect(ids("redis.call('SADD', KEYS[1], 1)\nredis.call('PEXPIRE', KEYS[1], 9, 'GT')")).toEqual(['write-path-needs-ttl@1']);
    expect(ids("redis.call('SADD', KEYS[1], 1)\nredis.call('PEXPIRE', KEYS[1], 9, 'LT')")).toEqual([]);
  });

  it('does not let a guard on a reply taken before a deletion prove anything', () => {
    const source = "local e = redis.call('EXISTS', KEYS[1])\nredis.call('DEL', KEYS[1])\nif e == 1 then redis.call('SET', KEYS[1], 'v', 'KEEPTTL') end";
    expect(ids(source)).toEqual(['keepttl-needs-existing-key@3']);
  });

  it('reports PERSIST, GETEX PERSIST and non-positive expiries', () => {
    expect(ids("redis.call('PERSIST', KEYS[1])\nredis.call('GETEX', KEYS[2], 'persist')\nredis.call('PEXPIRE', KEYS[3], -1)\nredis.call('SETEX', KEYS[4], 0, 'v')")).toEqual([
      'no-persist@1',
      'no-persist@2',
      'expire-needs-positive-ttl@3',
      'expire-needs-positive-ttl@4',
    ]);
  });

  it('leaves reads, pruning and module reads alone', () => {
    expect(ids("redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])\nreturn { redis.call('ZCARD', KEYS[1]), redis.call('JSON.GET', KEYS[2]) }")).toEqual([]);
  });

  it('knows module writes that create keys', () => {
    expect(ids("redis.call('JSON.SET', KEYS[1], '$', ARGV[1])")).toEqual(['write-path-needs-ttl@1']);
  });

  it('treats an unknown command name as unanalyzable but not as a write', () => {
    // a name that is not a literal, and a literal no table knows: both said, neither taken as a write
    expect(ids("local c = ARGV[1]\nredis.call(c, KEYS[1])\nredis.call('FROBNICATE', KEYS[1])")).toEqual(['unanalyzable-command@2', 'unanalyzable-command@3']);
  });
});

describe('robustness', () => {
  const fixtureSources = ['cases/lua', 'lua'].flatMap((folder) =>
    readdirSync(join(FIXTURES, folder))
      .filter((f) => f.endsWith('.lua'))
      .map((f) => readFileSync(join(FIXTURES, folder, f), 'utf8')),
  );

  it('never throws on any prefix of any fixture, cut at every line and every 7th character', () => {
    let runs = 0;
    for (const source of fixtureSources) {
      const lines = source.split('\n');
      for (let i = 0; i <= lines.length; i++) {
        const findings = analyzeLua(lines.slice(0, i).join('\n'));
        expect(Array.isArray(findings)).toBe(true);
        runs++;
      }
      for (let i = 0; i < source.length; i += 7) {
        for (const finding of analyzeLua(source.slice(0, i))) {
          expect(finding.line).toBeGreaterThanOrEqual(1);
          expect(finding.offset).toBeLessThanOrEqual(i);
        }
        runs++;
      }
    }
    expect(runs).toBeGreaterThan(500);
  });

  it('never throws on random strings and random bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 })), (text) => {
        const findings = analyzeLua(text);
        for (const f of findings) {
          expect(f.offset).toBeGreaterThanOrEqual(0);
          expect(f.endOffset).toBeLessThanOrEqual(text.length);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on random mixtures of Lua tokens', () => {
    const token = fc.constantFrom(
      'redis.call(', "'INCR'", "'SET'", "'EXPIRE'", 'KEYS[1]', 'ARGV[1]', ',', ')', 'if', 'then', 'else', 'end', 'return',
      'local', 'x', '=', '==', '<', 'for', 'i', 'in', 'ipairs(KEYS)', 'do', 'while', 'repeat', 'until', 'function', 'break',
      '(', '{', '}', '..', 'nil', 'true', '1', '-1', 'not', 'and', 'or', '\n', 'error("x")', 'assert(x)',
      'redis.register_function(', 'unpack(KEYS)', '...', 'pcall(',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => {
        expect(Array.isArray(analyzeLua(tokens.join(' ')))).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('throws a TypeError for a source that is not a string, instead of calling it clean', () => {
    expect(() => analyzeLua(undefined as unknown as string)).toThrow(new TypeError('analyzeLua: source must be a string (the script text), got undefined.'));
    expect(() => analyzeLua(null as unknown as string)).toThrow(new TypeError('analyzeLua: source must be a string (the script text), got null.'));
    expect(() => analyzeLua(Buffer.from('return 1') as unknown as string)).toThrow(new TypeError('analyzeLua: source must be a string (the script text), got an object.'));
    expect(analyzeLua('')).toEqual([]);
  });

  it('survives deep nesting and long scripts', () => {
    const deep = `${'if x then\n'.repeat(150)}redis.call('INCR', KEYS[1])\n${'end\n'.repeat(150)}`;
    expect(ids(deep)).toEqual(['write-path-needs-ttl@151']);
    const long = Array.from({ length: 3000 }, (_, i) => `redis.call('SET', KEYS[${(i % 9) + 1}], ${i}, 'PX', 100)`).join('\n');
    expect(ids(long)).toEqual([]);
  });

  it('stops on helper recursion', () => {
    expect(ids("local function f(k) redis.call('INCR', k) f(k) end\nf(KEYS[1])")).toEqual(['write-path-needs-ttl@1']);
  });
});

describe('rule metadata and the command table', () => {
  it('has metadata and a docs URL for every rule id', () => {
    expect(RULE_IDS).toEqual([
      'write-path-needs-ttl',
      'no-getset',
      'keepttl-needs-existing-key',
      'no-persist',
      'expire-needs-positive-ttl',
      'ttl-units',
      'fixed-window-expire',
      'min-redis-version',
      'key-must-come-from-keys',
      'unanalyzable-command',
      'unknown-rule-in-directive',
    ]);
    for (const id of RULE_IDS) expect(RULES[id].docsUrl).toMatch(new RegExp(`/docs/rules/${id}\\.md$`));
  });

  it('describes SET options in any case', () => {
    expect(describeCommand('set', ['k', 'v', 'px', 100]).keys).toEqual([{ arg: 0, effect: 'create-with-ttl' }]);
    expect(describeCommand('SET', ['k', 'v', 'NX']).keys).toEqual([{ arg: 0, effect: 'create-if-missing' }]);
    expect(describeCommand('SET', ['k', 'v', 'xx']).keys).toEqual([{ arg: 0, effect: 'clear-ttl-if-present' }]);
    expect(describeCommand('SET', ['k', 'v', 'XX', 'KeepTtl']).keys).toEqual([{ arg: 0, effect: 'modify-if-present' }]);
    expect(describeCommand('SET', ['k', 'v', 'GET']).getDropsTtl).toBe(true);
    expect(describeCommand('SET', ['k', 'v', 'GET', 'KEEPTTL']).getDropsTtl).toBe(false);
    expect(describeCommand('SET', ['k', 'v', undefined, 10])).toMatchObject({ unknownOptions: true, getDropsTtl: false });
    expect(describeCommand('SET', ['k', 'v', 'EX', 0]).nonPositiveTtlArg).toBe(3);
    expect(describeCommand('SET', ['k', 'v', 'EX', 1.5]).nonPositiveTtlArg).toBe(3);
  });

  it('describes the EXPIRE family, RESTORE and store commands', () => {
    expect(describeCommand('EXPIRE', ['k', 10, 'NX']).keys[0]!.effect).toBe('set-ttl');
    expect(describeCommand('PEXPIRE', ['k', 10, 'gt']).keys[0]!.effect).toBe('set-ttl-if-has-ttl');
    expect(describeCommand('EXPIRE', ['k', '0']).keys[0]!.effect).toBe('delete');
    // 0 under XX / GT deletes only a key that has a TTL; NX with XX/GT/LT, GT with LT are rejected.
    expect(describeCommand('EXPIRE', ['k', 0, 'XX', 'GT'])).toMatchObject({ keys: [{ arg: 0, effect: 'set-ttl-if-has-ttl' }], nonPositiveTtlArg: 1 });
    expect(describeCommand('EXPIRE', ['k', 0, 'XX', 'GT']).rejected).toBeUndefined();
    expect(describeCommand('EXPIRE', ['k', 10, 'NX', 'GT'])).toMatchObject({ keys: [{ arg: 0, effect: 'read' }], rejected: true });
    expect(describeCommand('PEXPIRE', ['k', 10, 'GT', 'LT']).rejected).toBe(true);
    expect(describeCommand('EXPIRE', ['k', 10, 'NX', 'GT']).nonPositiveTtlArg).toBeUndefined();
    expect(describeCommand('RENAME', ['a', 'b']).keys).toEqual([
      { arg: 0, effect: 'delete', mustExist: true },
      { arg: 1, effect: 'transfer-ttl', sourceArg: 0 },
    ]);
    expect(describeCommand('RENAMENX', ['a', 'b']).keys[1]).toEqual({ arg: 1, effect: 'transfer-ttl', sourceArg: 0, onlyIfMissing: true });
    expect(describeCommand('COPY', ['a', 'b']).keys[1]).toEqual({ arg: 1, effect: 'transfer-ttl', sourceArg: 0, onlyIfMissing: true });
    expect(describeCommand('COPY', ['a', 'b', 'REPLACE']).keys[1]).toEqual({ arg: 1, effect: 'transfer-ttl', sourceArg: 0 });
    expect(describeCommand('RESTORE', ['k', 0, 'payload']).keys[0]!.effect).toBe('overwrite');
    expect(describeCommand('RESTORE', ['k', 5000, 'payload']).keys[0]!.effect).toBe('create-with-ttl');
    expect(describeCommand('ZUNIONSTORE', ['d', 2, 'a', 'b', 'WEIGHTS', 1, 2]).keys).toEqual([
      { arg: 0, effect: 'overwrite', storeOf: 'union' },
      { arg: 2, effect: 'read' },
      { arg: 3, effect: 'read' },
    ]);
    expect(describeCommand('SORT', ['src', 'BY', 'x', 'STORE', 'dst']).keys).toEqual([
      { arg: 0, effect: 'read' },
      { arg: 4, effect: 'overwrite' },
    ]);
    expect(describeCommand('XGROUP', ['CREATE', 's', 'g', '$', 'MKSTREAM']).keys).toEqual([{ arg: 1, effect: 'create-in-place' }]);
    expect(describeCommand('MSET', ['a', 1, 'b', 2]).keys).toEqual([
      { arg: 0, effect: 'overwrite' },
      { arg: 2, effect: 'overwrite' },
    ]);
    expect(describeCommand('nope', ['k'])).toMatchObject({ known: false, keys: [] });
  });
});

describe('creation idioms with literal bounds', () => {
  it('knows that INCR answers 1 when it creates the key, so `n > 5` is never the creation path', () => {
    expect(ids("local n = redis.call('INCR', KEYS[1])\nif n > 5 then return 0 end\nredis.call('EXPIRE', KEYS[1], 60)\nreturn 1")).toEqual([]);
    expect(ids("local n = redis.call('INCR', KEYS[1])\nif n >= 1 then return 0 end\nredis.call('EXPIRE', KEYS[1], 60)\nreturn 1")).toEqual([
      'write-path-needs-ttl@1',
    ]);
  });
});

describe('findings found by breaking the analyzer', () => {
  it('names the key that leaks on the path, not the first key the write ever saw', () => {
    const source = "local function bump(k)\n  redis.call('INCR', k)\nend\nbump(KEYS[1])\nredis.call('PEXPIRE', KEYS[1], 5)\nbump(KEYS[2])\n";
    const [finding] = analyzeLua(source);
    expect(finding).toMatchObject({ ruleId: 'write-path-needs-ttl', line: 2 });
    expect(finding!.message).toBe(
      "INCR on KEYS[2] can create it without a TTL, and the script's end (line 6, column 13) precedes any expiry, so it never expires. " +
        'Call PEXPIRE KEYS[2] <ms> after the write on every path.',
    );
    expect(analyzeLua("redis.call('MSET', KEYS[1], 1, KEYS[2], 2)\nredis.call('EXPIRE', KEYS[1], 5)")[0]!.message).toMatch(/^MSET on KEYS\[2\]/);
  });

  it('reports an analysis it had to give up as fatal instead of passing the script', () => {
    const body = Array.from({ length: 2000 }, () => 'if x then y() end').join('\n');
    const calls = Array.from({ length: 120 }, () => 'h(KEYS[1])').join('\n');
    const findings = analyzeLua(`local function h(k)\n${body}\nend\n${calls}\nredis.call('SADD', KEYS[1], 1)\n`);
    expect(findings[0]).toMatchObject({ ruleId: null, fatal: true, severity: 2, line: 1 });
    expect(findings[0]!.message).toMatch(/^Analysis incomplete: the script needs more than 200000 analysis steps/);
  });

  it('applies numeric persistent keys to a Redis 7 function\'s keys parameter', () => {
    const source = "#!lua name=q\nredis.register_function('push', function(keys, args)\n  redis.call('RPUSH', keys[2], args[1])\nend)\n";
    expect(ids(source)).toEqual(['write-path-needs-ttl@3']);
    expect(ids(source, { persistentKeys: [2] })).toEqual([]);
  });

  it('accepts null options, and throws a TypeError for every option the config file would reject', () => {
    const write = "redis.call('SADD', KEYS[1], 1)";
    expect(ids(write, null)).toEqual(['write-path-needs-ttl@1']);
    expect(ids(write, {})).toEqual(['write-path-needs-ttl@1']);
    const invalid = (options: unknown) => {
      try {
        analyzeLua(write, options as AnalyzeOptions);
      } catch (error) {
        return [(error as Error).constructor.name, (error as Error).message];
      }
      return 'no throw';
    };
    const keyProblem = 'expected a KEYS index (an integer >= 1) or a non-empty key pattern, got';
    expect(invalid({ persistentKeys: [0] })).toEqual(['TypeError', `analyzeLua: invalid options: persistentKeys[0]: ${keyProblem} 0.`]);
    expect(invalid({ persistentKeys: [null, {}, 1] })).toEqual([
      'TypeError',
      `analyzeLua: invalid options:\n  - persistentKeys[0]: ${keyProblem} null\n  - persistentKeys[1]: ${keyProblem} an object`,
    ]);
    expect(invalid({ redisVersion: 'abc' })).toEqual([
      'TypeError',
      'analyzeLua: invalid options: redisVersion: expected a Redis version such as "6.2" or "7.0.15" (a string), got "abc".',
    ]);
    expect(invalid({ strict: 'yes' })).toEqual(['TypeError', 'analyzeLua: invalid options: strict: expected true or false, got "yes".']);
    expect(invalid({ messageLine: 3 })).toEqual(['TypeError', 'analyzeLua: invalid options: messageLine: expected a function, got 3.']);
    expect(invalid({ persistentKey: [1] })).toEqual([
      'TypeError',
      'analyzeLua: invalid options: unknown option "persistentKey"; did you mean "persistentKeys"?',
    ]);
    expect(invalid({ severity: {} })).toEqual([
      'TypeError',
      'analyzeLua: invalid options: unknown option "severity" (known: rules, persistentKeys, allowOptionalTtl, strict, redisVersion, messageLine, messagePosition).',
    ]);
    expect(invalid('strict')).toEqual(['TypeError', 'analyzeLua: options must be an object, got "strict".']);
    expect(invalid({ persistentKeys: [1], redisVersion: ' 7.0 ' })).toBe('no throw');
  });

  it('reports a byte order mark, which Redis refuses, and decodes non-ASCII text in parse errors', () => {
    const [bom, ...rest] = analyzeLua("\uFEFFredis.call('SADD', KEYS[1], 1)");
    expect(rest).toEqual([]);
    expect(bom).toMatchObject({ ruleId: null, fatal: true, line: 1, column: 1, offset: 0 });
    expect(bom!.message).toBe(
      'Parsing error: the script starts with a UTF-8 byte order mark, which Redis refuses ("unexpected symbol near \'<\\239>\'"): save the file without BOM.',
    );
    expect(analyzeLua('local é = 1')[0]!.message).toBe("Parsing error: unexpected symbol 'é' near 'local'");
    expect(analyzeLua("local s = 'ü'\nlocal = 1")[0]!.message).toBe("Parsing error: <name> expected near '='");
  });

  it('reports a first line Redis refuses as a shebang (another engine, no line end), and takes #!lua with flags', () => {
    const [env, ...rest] = analyzeLua("#!/usr/bin/env lua\nredis.call('SADD', KEYS[1], 1)\nreturn 1");
    expect(rest).toEqual([]);
    expect(env).toMatchObject({ ruleId: null, fatal: true, severity: 2, line: 1, column: 1, offset: 0 });
    expect(env!.message).toBe(
      'Parsing error: the first line "#!/usr/bin/env lua" is not a Redis shebang: Redis 7 takes only "#!lua" (with flags=... for EVAL, name=... for FUNCTION LOAD) and refuses this one ("Unexpected engine in script shebang: #!/usr/bin/env"), Redis 6 refuses any "#!" line. Remove the line, or write #!lua.',
    );
    expect(analyzeLua('#!lua5.1\nreturn 1')[0]!.message).toMatch(/\("Unexpected engine in script shebang: #!lua5\.1"\)/);
    expect(analyzeLua('#!lua')[0]!.message).toBe(
      'Parsing error: the script is only a "#!lua" line: Redis refuses a shebang without a line end after it ("Invalid script shebang"). Add the script\'s body on the next lines.',
    );
    expect(ids("#!lua flags=no-writes\r\nreturn redis.call('GET', KEYS[1])")).toEqual([]);
    expect(ids("#!lua\nredis.call('SADD', KEYS[1], 1)\nreturn 1")).toEqual(['write-path-needs-ttl@2']);
  });

  it('stays linear on long runs of blank lines', () => {
    const source = `${'\n'.repeat(200_000)}redis.call('SADD', KEYS[1], 1)\n${'\n'.repeat(200_000)}`;
    expect(ids(source)).toEqual(['write-path-needs-ttl@200001']);
  });
});

describe('findings of a user trial', () => {
  it('keeps the creation idiom through tonumber()', () => {
    expect(ids("local c = redis.call('INCR', KEYS[1])\nif tonumber(c) == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end\nreturn 1")).toEqual([]);
  });

  it('takes SET options unpacked from a table as unknown, not as missing', () => {
    // a table literal lists its values: the options are read
    expect(ids("redis.call('SET', KEYS[1], ARGV[1], unpack({'PX', ARGV[2]}))")).toEqual([]);
    expect(ids("redis.call('SET', KEYS[1], ARGV[1], unpack({unpack(ARGV)}))")).toEqual(['unanalyzable-command@1']);
    expect(ids("redis.call('SET', KEYS[1], unpack(ARGV))")).toEqual(['unanalyzable-command@1']);
    expect(ids("redis.call('DEL', unpack(KEYS))\nredis.call('SADD', KEYS[1], 1)")).toEqual(['write-path-needs-ttl@2']);
  });
});

describe('tables built with positional values', () => {
  it('keeps the values of the constructor before the ones table.insert appends', () => {
    // the lock of a commerce platform: SET unpack({key, owner, 'NX'}) with EX appended
    const lock = "local key = KEYS[1]\nlocal args = {key, ARGV[1], 'NX'}\ntable.insert(args, 'EX')\ntable.insert(args, tonumber(ARGV[2]))\nreturn redis.call('SET', unpack(args))";
    expect(ids(lock)).toEqual([]);
    expect(ids("local args = {KEYS[1], ARGV[1], 'NX'}\nreturn redis.call('SET', unpack(args))")).toEqual(['write-path-needs-ttl@2']);
    expect(ids("local args = {KEYS[1], ARGV[1]}\nargs[#args + 1] = 'PX'\nargs[#args + 1] = ARGV[2]\nredis.call('SET', unpack(args))")).toEqual([]);
  });

  it('does not list a table whose values it cannot list, even after an append', () => {
    expect(ids("local args = {unpack(ARGV)}\ntable.insert(args, 'x')\nredis.call('MSET', unpack(args))")).toEqual([]);
    expect(ids("local args = {KEYS[1], unpack({ARGV[1]})}\nredis.call('SET', unpack(args))")).toEqual(['write-path-needs-ttl@2']);
  });
});

describe('findings of a second breaker round', () => {
  it('keeps "exists" through tonumber() of a GET/HGET reply, on the truthy side only', () => {
    expect(ids("local v = tonumber(redis.call('GET', KEYS[1]))\nif not v then return 0 end\nredis.call('INCR', KEYS[1])\nreturn v")).toEqual([]);
    expect(ids("local v = tonumber(redis.call('GET', KEYS[1]))\nif v == nil then return 0 end\nredis.call('INCR', KEYS[1])")).toEqual([]);
    expect(ids("local p = tonumber(redis.call('HGET', KEYS[1], 'permits'))\nif p and p > 0 then redis.call('HINCRBY', KEYS[1], 'permits', -1) end")).toEqual([]);
    // nil also for a value that is not a number: the falsy side proves nothing
    expect(ids("local v = tonumber(redis.call('GET', KEYS[1]))\nif v then return 0 end\nredis.call('SET', KEYS[1], 'x', 'KEEPTTL')")).toEqual(['keepttl-needs-existing-key@3']);
  });

  it('knows that a move that moved nothing created nothing, and that rotating a list creates nothing', () => {
    expect(ids("local job = redis.call('LMOVE', KEYS[1], KEYS[2], 'RIGHT', 'LEFT')\nif not job then return nil end\nredis.call('EXPIRE', KEYS[2], 3600)\nreturn job")).toEqual([]);
    expect(ids("if redis.call('SMOVE', KEYS[1], KEYS[2], ARGV[1]) == 1 then redis.call('EXPIRE', KEYS[2], 60) end")).toEqual([]);
    expect(ids("return redis.call('RPOPLPUSH', KEYS[1], KEYS[1])")).toEqual([]);
    expect(ids("return redis.call('RPOPLPUSH', KEYS[1], KEYS[2])")).toEqual(['write-path-needs-ttl@1']);
  });

  it('knows that SMOVE moves nothing from a source that lacks the member (differential seed 777, script 2938)', () => {
    // KEYS[3] holds a and b, not x: SMOVE moves nothing, KEYS[1] stays missing, RENAME raises
    // "no such key" and the script ends with KEYS[3] created without TTL.
    const script = "redis.call('SADD', KEYS[3], 'a', 'b')\nredis.call('SMOVE', KEYS[3], KEYS[1], 'x')\nredis.call('RENAME', KEYS[1], KEYS[1])\nredis.call('EXPIRE', KEYS[3], 60)";
    expect(ids(script)).toEqual(['write-path-needs-ttl@1', 'write-path-needs-ttl@2']);
    // LMOVE from a list that exists moves an element: KEYS[1] exists and RENAME does not raise.
    expect(ids("redis.call('RPUSH', KEYS[3], 'a', 'b')\nredis.call('LMOVE', KEYS[3], KEYS[1], 'LEFT', 'RIGHT')\nredis.call('RENAME', KEYS[1], KEYS[1])\nredis.call('EXPIRE', KEYS[3], 60)\nredis.call('EXPIRE', KEYS[1], 60)")).toEqual([]);
  });

  it('asks whether a move had an element of the source as it was before the move, whatever ran before', () => {
    // RPUSH leaves one element in KEYS[1] and LMOVE moves it: KEYS[2] exists, so the branch never runs.
    const move = "redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')\nredis.call('PEXPIRE', KEYS[2], 1000)\nif redis.call('EXISTS', KEYS[2]) == 0 then\n  redis.call('SET', KEYS[3], 'x')\nend\nreturn 1";
    expect(ids(`redis.call('RPUSH', KEYS[1], 'a')\nredis.call('PEXPIRE', KEYS[1], 1000)\n${move}`)).toEqual([]);
    expect(ids(`redis.call('RPUSH', KEYS[1], 'a')\nredis.call('PEXPIRE', KEYS[1], 1000)\nif ARGV[1] then redis.call('PEXPIRE', KEYS[1], 2000) end\n${move}`)).toEqual([]);
    expect(ids("redis.call('RPUSH', KEYS[1], 'a')\nredis.call('PEXPIRE', KEYS[1], 1000)\nredis.call('RPOPLPUSH', KEYS[1], KEYS[2])\nif redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SET', KEYS[3], 'x') end\nredis.call('PEXPIRE', KEYS[2], 1000)")).toEqual([]);
  });

  it('knows that an empty STORE result deletes the destination', () => {
    expect(ids("local n = redis.call('SUNIONSTORE', KEYS[3], KEYS[1], KEYS[2])\nif n > 0 then redis.call('EXPIRE', KEYS[3], 60) end\nreturn n")).toEqual([]);
  });

  it('follows functions stored in table fields, and says so when a registered callback cannot be followed', () => {
    expect(ids("#!lua name=lib\nlocal M = {}\nfunction M.add(keys, args) redis.call('SADD', keys[1], args[1]) return 1 end\nredis.register_function('add', M.add)")).toEqual([
      'write-path-needs-ttl@3',
    ]);
    expect(ids("local M = {}\nM.push = function(k, v) redis.call('RPUSH', k, v) end\nM.push(KEYS[1], ARGV[1])")).toEqual(['write-path-needs-ttl@2']);
    expect(ids("local h = { push = function(k) redis.call('RPUSH', k, 1) end }\nh.push(KEYS[1])\nredis.call('PEXPIRE', KEYS[1], 9)")).toEqual([]);
    const loop = "#!lua name=lib\nlocal fns = {}\nfns.a = function(keys) redis.call('SADD', keys[1], 1) end\nfns.b = function(keys) redis.call('SADD', keys[1], 1) redis.call('PEXPIRE', keys[1], 9) end\nfor name, fn in pairs(fns) do redis.register_function(name, fn) end";
    expect(ids(loop)).toEqual(['write-path-needs-ttl@3']);
    const [fatal] = analyzeLua("#!lua name=lib\nredis.register_function('x', require_something())");
    expect(fatal).toMatchObject({ ruleId: null, fatal: true });
    expect(fatal!.message).toBe("Analysis incomplete: a function registered at line 2 is not one the analyzer can follow; leaks there may go unreported.");
  });

  it('treats an ARGV element as possibly absent', () => {
    // a missing ARGV[3] skips the expiry: the caller chose no TTL, reported when such leaks are asked for
    const source = "redis.call('HSET', KEYS[1], 'a', ARGV[1])\nif ARGV[3] then redis.call('EXPIRE', KEYS[1], ARGV[3]) end\nreturn 1";
    expect(ids(source)).toEqual([]);
    expect(analyzeLua(source, { allowOptionalTtl: false }).map((f) => [f.ruleId, f.line, f.optionalTtl])).toEqual([['write-path-needs-ttl', 1, true]]);
  });

  it('names the keys of one MSET as written by the same command, not through other calls', () => {
    const [finding, ...rest] = analyzeLua("redis.call('MSET', KEYS[1], 'a', KEYS[2], 'b')\nreturn 1");
    expect(rest).toEqual([]);
    expect(finding!.message).toBe(
      'MSET on KEYS[1] (and KEYS[2], in the same command) creates it without a TTL or removes its TTL, and the return at line 2, column 1 ' +
        'leaves it so: the key never expires. Follow it with PEXPIRE KEYS[1] <ms> on every path.',
    );
  });

  it('names every key a helper leaks', () => {
    const [finding] = analyzeLua("local function add(k, v) redis.call('SADD', k, v) end\nadd(KEYS[1], ARGV[1])\nadd(KEYS[2], ARGV[1])\nreturn 1");
    expect(finding!.message).toBe(
      'SADD on KEYS[1] (and KEYS[2], through other calls) can create it without a TTL, and the return at line 4, column 1 precedes any expiry, ' +
        'so it never expires. Call PEXPIRE KEYS[1] <ms> after the write on every path.',
    );
  });
});

describe('persistent annotations above a write', () => {
  it('skip blank lines and comment lines between the annotation and the write', () => {
    const source = "redis.call('INCR', KEYS[1])\nredis.call('PEXPIRE', KEYS[1], 9)\n-- redis-ttl persistent: KEYS[2]\n-- (job hashes are deleted by the worker)\n\nredis.call('HSET', KEYS[2], 'a', 1)\nredis.call('HSET', KEYS[3], 'a', 1)\n";
    expect(ids(source)).toEqual(['write-path-needs-ttl@7']);
  });
});

describe('messages about EXPIRE ... XX / GT', () => {
  it('say why an XX or GT expiry did not count', () => {
    const [finding] = analyzeLua("redis.call('INCR', KEYS[1])\nredis.call('EXPIRE', KEYS[1], 60, 'XX')\nreturn 1");
    expect(finding!.message).toBe(
      'INCR on KEYS[1] can create it without a TTL, and the return at line 3, column 1 precedes any expiry, so it never expires. ' +
        'Call EXPIRE KEYS[1] <seconds> after the write on every path. EXPIRE ... XX or GT skips a key without TTL: use NX.',
    );
    expect(analyzeLua("redis.call('INCR', KEYS[1])\nreturn 1")[0]!.message).not.toMatch(/XX or GT/);
  });
});

describe('the size of a whole hash or set as read', () => {
  it('proves the key exists when it is not 0', () => {
    expect(ids("local h = redis.call('HGETALL', KEYS[1])\nif #h == 0 then return nil end\nredis.call('HINCRBY', KEYS[1], 'hits', 1)\nreturn h")).toEqual([]);
    expect(ids("local m = redis.call('SMEMBERS', KEYS[1])\nif #m > 0 then redis.call('SADD', KEYS[1], 'x') end")).toEqual([]);
    // a range of a list may be empty while the list exists: an empty one proves nothing, a
    // non-empty one that the list exists
    expect(ids("local r = redis.call('LRANGE', KEYS[1], 5, 10)\nif #r > 0 then return nil end\nredis.call('RPUSH', KEYS[1], 'x')")).toEqual([
      'write-path-needs-ttl@3',
    ]);
    expect(ids("local r = redis.call('LRANGE', KEYS[1], 5, 10)\nif #r == 0 then return nil end\nredis.call('RPUSH', KEYS[1], 'x')")).toEqual([]);
  });
});

describe('what Redis itself refuses or accepts (issue 12)', () => {
  it('parses `break;`, valid Lua 5.1 that Redis loads', () => {
    expect(ids("for i = 1, #KEYS do\n  if ARGV[i] == '' then break; end\n  redis.call('SET', KEYS[i], ARGV[i], 'EX', 5)\nend")).toEqual([]);
  });

  it('says that Redis runs Lua 5.1 when the syntax is from a later Lua', () => {
    const [finding] = analyzeLua('local x = 7 // 2\nreturn x');
    expect(finding!.message).toBe(
      "Parsing error: <expression> expected near '/' (Redis runs Lua 5.1: goto and labels, bitwise operators, integer division `//`, `<const>` and `<close>` locals and other Lua 5.2+ syntax are errors there)",
    );
    expect(analyzeLua('local x = = 1')[0]!.message).toBe("Parsing error: <expression> expected near '='");
  });

  it('refuses nesting deeper than Lua 5.1\'s 200 syntax levels, as redis-server 7.0 does', () => {
    const nested = (n: number) => `${'if ARGV[1] then '.repeat(n)}return 1${' end'.repeat(n)}`;
    expect(analyzeLua(nested(198))).toEqual([]);
    const [finding, ...rest] = analyzeLua(nested(199));
    expect(rest).toEqual([]);
    // The index of the 199th `if`'s ARGV[1] is the first sub-expression past the limit.
    expect(finding).toMatchObject({ fatal: true, ruleId: null, line: 1, column: 198 * 16 + 9 });
    expect(finding!.message).toBe(
      'Parsing error: the script nests blocks, expressions and parentheses deeper than Redis\' Lua 5.1 parser allows (200 levels): Redis refuses it with "chunk has too many syntax levels".',
    );
    expect(analyzeLua(`return ${'{'.repeat(199)}${'}'.repeat(199)}`)).toEqual([]);
    expect(analyzeLua(`return ${'{'.repeat(200)}${'}'.repeat(200)}`)[0]).toMatchObject({ fatal: true, column: 8 + 199 });
  });
});

describe('missed leaks of the differential seed 777', () => {
  it('keeps a key deleted after a guard over every key through a later loop over KEYS that does nothing to it', () => {
    // The guard loop leaves "every key exists"; UNLINK deletes KEYS[2]; the empty loop's element
    // (the universal key) still says "exists", which must not overwrite KEYS[2]'s own state.
    const guard = "for i = 1, #KEYS do\n  if redis.call('EXISTS', KEYS[i]) == 0 then return 0 end\nend\n";
    expect(ids(`${guard}redis.call('UNLINK', KEYS[2])\nfor i = 1, #KEYS do\nend\nredis.call('ZADD', KEYS[2], 1, '1')`)).toEqual(['write-path-needs-ttl@7']);
    expect(ids(`${guard}redis.call('LPOP', KEYS[3])\nfor _, k in ipairs(KEYS) do\n  redis.call('GET', k)\nend\nredis.call('RPUSH', KEYS[3], 'a')`)).toEqual(['write-path-needs-ttl@8']);
    // A loop that gives every key a TTL still does so for each key.
    expect(ids(`${guard}redis.call('UNLINK', KEYS[2])\nredis.call('ZADD', KEYS[2], 1, '1')\nfor i = 1, #KEYS do\n  redis.call('PEXPIRE', KEYS[i], 1000)\nend`)).toEqual([]);
  });

  it('knows that GETEX refuses a literal expiry that is not a positive integer on an existing key only, as redis-server 7.0 does', () => {
    // DECR creates KEYS[1] without TTL, then GETEX raises: the script ends there.
    expect(ids("redis.call('DECR', KEYS[1])\nredis.call('GETEX', KEYS[1], 'EX', 1.5)")).toEqual(['write-path-needs-ttl@1', 'expire-needs-positive-ttl@2']);
    const [, zero] = analyzeLua("redis.call('DECR', KEYS[1])\nredis.call('GETEX', KEYS[1], 'PX', 0)");
    expect(zero!.message).toBe(
      'GETEX with the expiry 0 is rejected by Redis ("invalid expire time") when the key exists, which aborts the script and keeps every write made before it (on a missing key it answers nil). Use a positive integer TTL.',
    );
    const [, fraction] = analyzeLua("redis.call('DECR', KEYS[1])\nredis.call('GETEX', KEYS[1], 'EX', '1.5')");
    expect(fraction!.message).toBe(
      'GETEX with the expiry 1.5 is rejected by Redis ("value is not an integer") when the key exists, which aborts the script and keeps every write made before it (on a missing key it answers nil). Use a positive integer TTL.',
    );
    // A missing key: GETEX answers nil and APPEND creates the key without TTL (seed 777, script 423).
    expect(ids("redis.call('GETEX', KEYS[2], 'EX', 0)\nredis.call('APPEND', KEYS[2], '1')")).toEqual(['expire-needs-positive-ttl@1', 'write-path-needs-ttl@2']);
    // An existing key: the script ends at GETEX, APPEND never runs.
    expect(ids("if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end\nredis.call('GETEX', KEYS[2], 'EX', 0)\nredis.call('APPEND', KEYS[2], '1')")).toEqual(['expire-needs-positive-ttl@2']);
    expect(ids("redis.call('SET', KEYS[1], 'v', 'EX', 60)\nreturn redis.call('GETEX', KEYS[1], 'EX', 30)")).toEqual([]);
  });
});

describe('messages name every place by line and column (issue 12)', () => {
  it('names the rejected guard when an expiry sits under a comparison that is never true', () => {
    const [finding] = analyzeLua("local n = redis.call('INCR', KEYS[1])\nif n == ARGV[1] then\n  redis.call('EXPIRE', KEYS[1], 60)\nend\nreturn n");
    expect(finding!.message).toBe(
      'INCR on KEYS[1] can create it without a TTL, and the return at line 5, column 1 leaves it so: ' +
        'the expiry at line 3, column 3 never runs, as its guard at line 2, column 4 compares a number with a string, never equal in Lua. ' +
        'Use tonumber(ARGV[n]).',
    );
  });

  it('keeps "(and ..., through other calls)" out of the suggested command', () => {
    const [finding] = analyzeLua("local function f(k) redis.call('INCR', k) end\nf(KEYS[1])\nf(KEYS[2])\nreturn 1");
    expect(finding!.message).toBe(
      'INCR on KEYS[1] (and KEYS[2], through other calls) can create it without a TTL, and the return at line 4, column 1 ' +
        'precedes any expiry, so it never expires. Call PEXPIRE KEYS[1] <ms> after the write on every path.',
    );
  });

  it('places exits of a one-line script by column, and takes the host position from messagePosition', () => {
    const source = "redis.call('INCR', KEYS[1]) if ARGV[1] then return 0 end redis.call('EXPIRE', KEYS[1], 5)";
    expect(analyzeLua(source)[0]!.message).toContain('the return at line 1, column 45 precedes');
    const hosted = analyzeLua(source, { messagePosition: (offset) => ({ line: 10, column: offset + 21 }) });
    expect(hosted[0]!.message).toContain('the return at line 10, column 65 precedes');
    expect(hosted[0]).toMatchObject({ line: 1, column: 1 });
    expect(analyzeLua(source, { messageLine: () => 7 })[0]!.message).toContain('the return at line 7 precedes');
  });

  it('reports a call of a function defined nowhere as unanalyzable, not as clean', () => {
    expect(analyzeLua("addJob(KEYS[1], ARGV[1])\nreturn 1").map((f) => [f.ruleId, f.line, f.column, f.message])).toEqual([
      [
        'unanalyzable-command',
        1,
        1,
        'addJob() is defined nowhere in this script, so the Redis commands it runs cannot be checked (an @include not resolved, ' +
          'or a global Redis lacks). Define it, or let lua-lint resolve the include (--include-root <dir>).',
      ],
    ]);
    expect(ids("local function helper() return 1 end\nreturn helper() + tonumber(ARGV[1]) + math.max(1, 2)")).toEqual([]);
  });
});

describe('caller-chosen TTLs (optionalTtl)', () => {
  /** Findings as `rule@line`, `+optional` when marked, with caller-chosen TTLs reported. */
  const strict = (source: string): string[] =>
    analyzeLua(source, { allowOptionalTtl: false }).map((f) => `${f.ruleId}@${f.line}${f.optionalTtl ? '+optional' : ''}`);

  it('marks a leak whose only missed expiry is skipped by a test of the TTL the caller passed', () => {
    const cases = [
      // ARGV[1] = ttl seconds, 0 = no TTL
      "redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])\nlocal ttl = tonumber(ARGV[1])\nif ttl and ttl > 0 then\n  redis.call('EXPIRE', KEYS[1], ttl)\nend\nreturn 1",
      "redis.call('HSET', KEYS[1], 'f', 1)\nlocal ttl = tonumber(ARGV[1]) or 0\nif ttl <= 0 then return 1 end\nredis.call('PEXPIRE', KEYS[1], ttl)\nreturn 1",
      "redis.call('RPUSH', KEYS[1], 'x')\nif ARGV[1] ~= '' then\n  redis.call('PEXPIRE', KEYS[1], ARGV[1])\nend",
      "redis.call('SADD', KEYS[1], 'x')\nif tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end",
      "redis.call('SADD', KEYS[1], 'x')\nif 0 < tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end",
    ];
    for (const source of cases) {
      expect(ids(source), source).toEqual([]);
      expect(strict(source), source).toEqual([`write-path-needs-ttl@1+optional`]);
    }
  });

  it('marks the no-TTL arm of an explicit TTL test, as in TypeScript', () => {
    const source = "local ttl = tonumber(ARGV[2])\nif ttl > 0 then\n  redis.call('SET', KEYS[1], ARGV[1], 'EX', ttl)\nelse\n  redis.call('SET', KEYS[1], ARGV[1])\nend";
    expect(ids(source)).toEqual([]);
    expect(strict(source)).toEqual(['write-path-needs-ttl@5+optional']);
    const [finding] = analyzeLua(source, { allowOptionalTtl: false });
    expect(finding?.message).toBe(
      "SET on KEYS[1] creates it without a TTL or removes its TTL, and the script's end (line 6, column 3) is reached when " +
        'the caller passes no TTL (ARGV[2] 0, empty or missing). If the key must always expire, reject that value before the first write.',
    );
  });

  it('reports as usual when the test is not of the value passed as the TTL, or another path leaks', () => {
    // the expiry's TTL is a literal: the test does not turn off what the caller passed
    expect(ids("redis.call('SADD', KEYS[1], 'x')\nif tonumber(ARGV[1]) > 0 then redis.call('EXPIRE', KEYS[1], 60) end")).toEqual(['write-path-needs-ttl@1']);
    // a threshold, not a presence test
    expect(ids("redis.call('SADD', KEYS[1], 'x')\nlocal t = tonumber(ARGV[1])\nif t > 5 then redis.call('EXPIRE', KEYS[1], t) end")).toEqual(['write-path-needs-ttl@1']);
    // the script rejects a missing TTL, but after the write: Redis keeps the write, a bug
    const rejected = "redis.call('HSET', KEYS[1], 'a', 1)\nlocal t = tonumber(ARGV[1])\nif not t then return redis.error_reply('ERR ttl') end\nredis.call('PEXPIRE', KEYS[1], t)";
    expect(ids(rejected)).toEqual(['write-path-needs-ttl@1']);
    expect(strict(rejected)).toEqual(['write-path-needs-ttl@1']);
    // a TTL computed from the caller's value, or from replies (a refund that fills the bucket)
    expect(ids("redis.call('SADD', KEYS[1], 'x')\nlocal t = tonumber(ARGV[1]) * 2\nif t > 0 then redis.call('PEXPIRE', KEYS[1], t) end")).toEqual(['write-path-needs-ttl@1']);
    // another way out that skips the expiry whatever the TTL
    const early = "redis.call('SADD', KEYS[1], 'x')\nif ARGV[2] == 'dry' then return 0 end\nlocal t = tonumber(ARGV[1])\nif t > 0 then redis.call('EXPIRE', KEYS[1], t) end";
    expect(ids(early)).toEqual(['write-path-needs-ttl@1']);
    expect(strict(early)).toEqual(['write-path-needs-ttl@1']);
    // the key has another expiry, with a TTL of its own, that this path misses too
    const other = "redis.call('SADD', KEYS[1], 'x')\nlocal t = tonumber(ARGV[1])\nif t > 0 then redis.call('EXPIRE', KEYS[1], t)\nelseif ARGV[2] == 'day' then redis.call('EXPIRE', KEYS[1], 86400) end";
    expect(ids(other)).toEqual(['write-path-needs-ttl@1']);
    // the key with the caller-chosen TTL is fine; the other key has no expiry at all
    expect(ids("redis.call('SADD', KEYS[1], 'x')\nredis.call('SADD', KEYS[2], 'x')\nlocal t = tonumber(ARGV[1])\nif t > 0 then redis.call('EXPIRE', KEYS[1], t) end")).toEqual(['write-path-needs-ttl@2']);
  });
});
