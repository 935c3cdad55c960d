// Issue 28's kinds, each from its definition in several shapes (commands, comparisons, orders),
// not only the handed case that showed it (tests/fixtures/cases/lua/48-61): the three misses
// (a size read before a removal, an expiry <= 0 followed into its deletion, per-key facts of a loop
// over KEYS after a key was deleted) and the false alarms (what a reply documents: counts, TTL -1,
// ranges, SET NX / XX, members read or named by ARGV; what guards prove about a variable).
import { describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';

/** `rule@line` of every finding, sorted. */
function ids(...lines: string[]): string[] {
  return analyzeLua(lines.join('\n'))
    .map((f) => `${f.ruleId ?? 'parse-error'}@${f.line}`)
    .sort();
}

describe('miss: a size or existence read before a removal no longer proves the key exists', () => {
  it.each([
    ['SCARD then SPOP', "local n = redis.call('SCARD', KEYS[1])", "redis.call('SPOP', KEYS[1])", 'if n == 1 then', "  redis.call('SADD', KEYS[1], ARGV[1])"],
    ['LLEN then LPOP', "local n = redis.call('LLEN', KEYS[1])", "redis.call('LPOP', KEYS[1])", 'if n > 0 then', "  redis.call('RPUSH', KEYS[1], 'x')"],
    ['ZCARD then ZPOPMIN', "local n = redis.call('ZCARD', KEYS[1])", "redis.call('ZPOPMIN', KEYS[1])", 'if n >= 1 then', "  redis.call('ZADD', KEYS[1], 1, 'x')"],
    ['HLEN then HDEL', "local n = redis.call('HLEN', KEYS[1])", "redis.call('HDEL', KEYS[1], 'f')", 'if n ~= 0 then', "  redis.call('HSET', KEYS[1], 'g', 1)"],
    ['EXISTS then SREM', "local e = redis.call('EXISTS', KEYS[1])", "redis.call('SREM', KEYS[1], 'a')", 'if e == 1 then', "  redis.call('SADD', KEYS[1], 'b')"],
    ['EXISTS then ZREMRANGEBYSCORE', "local e = redis.call('EXISTS', KEYS[1])", "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])", 'if e == 1 then', "  redis.call('ZINCRBY', KEYS[1], 1, 'x')"],
  ])('%s: the write after the removal may create the key again', (_, read, removal, guard, write) => {
    expect(ids(read, removal, guard, write, 'end')).toEqual(['write-path-needs-ttl@4']);
  });

  it('a size read after the removal still proves it', () => {
    expect(ids("redis.call('SPOP', KEYS[1])", "if redis.call('SCARD', KEYS[1]) > 0 then", "  redis.call('SADD', KEYS[1], 'x')", 'end')).toEqual([]);
  });
});

describe('miss: an expiry <= 0 is followed into the deletion it causes', () => {
  it('EXPIRE ... XX with a computed TTL deletes a key that may have a TTL (and the warning gives way to the leak)', () => {
    expect(
      ids(
        "if redis.call('HSETNX', KEYS[1], 'f', 'v') == 1 then",
        "  redis.call('PEXPIRE', KEYS[1], 60000)",
        'end',
        "redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]) - 1, 'XX')",
        "redis.call('HSET', KEYS[1], 'f', 'w')",
      ),
    ).toEqual(['write-path-needs-ttl@5']);
    expect(ids("redis.call('SET', KEYS[1], 'v', 'EX', 100)", "redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) - 1000, 'XX')", "redis.call('INCR', KEYS[1])")).toEqual([
      'write-path-needs-ttl@3',
    ]);
  });

  it('a literal 0 under XX deletes a key with a TTL, under NX one without, under GT none', () => {
    expect(ids("redis.call('SET', KEYS[1], 'v', 'EX', 100)", "redis.call('EXPIRE', KEYS[1], 0, 'XX')", "redis.call('INCR', KEYS[1])", "redis.call('EXPIRE', KEYS[1], 60)")).toEqual([
      'expire-needs-positive-ttl@2',
    ]);
    expect(ids("redis.call('SET', KEYS[1], 'v', 'EX', 100)", "redis.call('EXPIRE', KEYS[1], 0, 'XX')", "redis.call('INCR', KEYS[1])")).toEqual([
      'expire-needs-positive-ttl@2',
      'write-path-needs-ttl@3',
    ]);
    // NX 0 leaves a key that has a TTL: the KEEPTTL write finds it
    expect(ids("redis.call('SET', KEYS[1], 'v', 'EX', 100)", "redis.call('EXPIRE', KEYS[1], 0, 'NX')", "redis.call('SET', KEYS[1], 'w', 'KEEPTTL')")).toEqual([
      'expire-needs-positive-ttl@2',
    ]);
    // GT never applies a time in the past: the key keeps its TTL
    expect(ids("redis.call('SET', KEYS[1], 'v', 'EX', 100)", "redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]) - 1, 'GT')", "redis.call('SET', KEYS[1], 'w', 'KEEPTTL')")).toEqual([
      'expire-needs-positive-ttl@2',
    ]);
  });

  it('says what XX, NX and GT do with a timeout of 0', () => {
    const message = (option: string) => analyzeLua(`redis.call('EXPIRE', KEYS[1], 0, '${option}')`)[0]!.message;
    expect(message('XX')).toMatch(/and XX deletes the key only when it has a TTL/);
    expect(message('NX')).toMatch(/and NX deletes the key only when it has no TTL/);
    expect(message('GT')).toMatch(/and GT never applies/);
  });

  it('says the hash field commands delete the named fields, not the key, and that a negative one is rejected', () => {
    const message = (call: string) => analyzeLua(call)[0]!.message;
    expect(message("redis.call('HEXPIRE', KEYS[1], 0, 'FIELDS', 1, 'f')")).toBe(
      'HEXPIRE with a timeout of 0 does not set a TTL: it deletes the named fields at once. Use HDEL if that is the intent, or a positive TTL.',
    );
    expect(message("redis.call('HEXPIRE', KEYS[1], 0, 'XX', 'FIELDS', 1, 'f')")).toMatch(/^HEXPIRE with a timeout of 0 and XX deletes each named field only when it has a TTL; a field without TTL/);
    expect(message("redis.call('HSETEX', KEYS[1], 'EX', 0, 'FIELDS', 1, 'f', 'v')")).toMatch(/^HSETEX with a timeout of 0 does not set a TTL: it deletes the named fields at once\./);
    expect(message("redis.call('HEXPIRE', KEYS[1], -1, 'FIELDS', 1, 'f')")).toBe(
      'HEXPIRE with the timeout -1 is rejected by Redis, which aborts the script and keeps every write made before it. Use a positive integer TTL.',
    );
  });
});

describe('miss: what a loop over KEYS proved for every key does not survive a later delete of one key', () => {
  it.each([
    ['DEL', "redis.call('DEL', KEYS[1])"],
    ['UNLINK', "redis.call('UNLINK', KEYS[2])"],
    ['GETDEL', "redis.call('GETDEL', KEYS[1])"],
    ['PEXPIREAT in the past', "redis.call('PEXPIREAT', KEYS[1], tonumber(ARGV[1]))"],
  ])('%s between two loops', (_, removal) => {
    expect(
      ids(
        'for _, k in ipairs(KEYS) do',
        "  redis.call('RPUSH', k, 'a')",
        "  redis.call('EXPIRE', k, 60)",
        'end',
        removal,
        'for i = 1, #KEYS do',
        "  redis.call('LPUSH', KEYS[i], 'b')",
        'end',
      ),
    ).toEqual(['write-path-needs-ttl@7']);
  });

  it('without the removal the second loop finds every key with its TTL', () => {
    expect(ids('for _, k in ipairs(KEYS) do', "  redis.call('RPUSH', k, 'a')", "  redis.call('EXPIRE', k, 60)", 'end', 'for i = 1, #KEYS do', "  redis.call('LPUSH', KEYS[i], 'b')", 'end')).toEqual([]);
  });
});

describe('false alarm: a positive count proves the key exists; 0 proves nothing for a type that can be empty', () => {
  it.each([
    ['PFCOUNT', "if redis.call('PFCOUNT', KEYS[1]) == 0 then return 0 end", "redis.call('PFADD', KEYS[1], 'm')"],
    ['XLEN', "if redis.call('XLEN', KEYS[1]) > 0 then", "  redis.call('XADD', KEYS[1], '*', 'f', 'v')", 'end'],
    ['STRLEN', "if redis.call('STRLEN', KEYS[1]) >= 1 then", "  redis.call('APPEND', KEYS[1], 'x')", 'end'],
    ['ZCOUNT', "if redis.call('ZCOUNT', KEYS[1], 0, 10) ~= 0 then", "  redis.call('ZADD', KEYS[1], 1, 'a')", 'end'],
    ['LRANGE', "local r = redis.call('LRANGE', KEYS[1], 0, 0)", 'if #r > 0 then', "  redis.call('RPUSH', KEYS[1], 'x')", 'end'],
  ])('%s', (_, ...lines) => {
    expect(ids(...lines)).toEqual([]);
  });

  it('an empty stream or string exists: XLEN or STRLEN 0 does not prove it missing', () => {
    expect(ids("redis.call('XADD', KEYS[1], '*', 'f', 'v')", "redis.call('XTRIM', KEYS[1], 'MAXLEN', 0)", "if redis.call('XLEN', KEYS[1]) == 0 then return 0 end", "redis.call('EXPIRE', KEYS[1], 60)")).toEqual([
      'write-path-needs-ttl@1',
    ]);
    expect(ids("redis.call('SET', KEYS[1], '')", "if redis.call('STRLEN', KEYS[1]) == 0 then return 0 end", "redis.call('EXPIRE', KEYS[1], 60)")).toEqual(['write-path-needs-ttl@1']);
  });
});

describe('false alarm: TTL / PTTL = -1 proves the key exists without TTL', () => {
  it.each([
    ['MSET', "  redis.call('MSET', KEYS[1], ARGV[1])"],
    ['SET', "  redis.call('SET', KEYS[1], ARGV[1])"],
    ['SET ... XX', "  redis.call('SET', KEYS[1], ARGV[1], 'XX')"],
    ['INCR', "  redis.call('INCR', KEYS[1])"],
  ])('%s neither creates it nor strips a TTL', (_, write) => {
    expect(ids("if redis.call('TTL', KEYS[1]) == -1 then", write, 'end')).toEqual([]);
    expect(ids("if redis.call('PTTL', KEYS[1]) == -1 then", write, 'end')).toEqual([]);
  });

  it('TTL < 0 may be a missing key', () => {
    expect(ids("if redis.call('TTL', KEYS[1]) < 0 then", "  redis.call('MSET', KEYS[1], ARGV[1])", 'end')).toEqual(['write-path-needs-ttl@2']);
  });
});

describe('false alarm: tests of one variable decide each other', () => {
  it.each([
    ['SETNX 0 then 1', "local got = redis.call('SETNX', KEYS[1], 'v') redis.call('PEXPIRE', KEYS[1], 1000)", 'if got == 0 then', '  if got == 1 then'],
    ['GET equal to two strings', "local v = redis.call('GET', KEYS[1])", "if v == 'a' then", "  if v == 'b' then"],
    ['above 5 then below 3', "local n = tonumber(redis.call('GET', KEYS[1]) or '0')", 'if n > 5 then', '  if n < 3 then'],
    ['not 1 then 1', "local n = redis.call('SCARD', KEYS[1])", 'if n ~= 1 then', '  if n == 1 then'],
  ])('%s: the inner branch never runs', (_, read, outer, inner) => {
    expect(ids(read, outer, inner, "    redis.call('INCR', KEYS[2])", '  end', 'end')).toEqual([]);
  });

  it('an assignment in between forgets what was proved', () => {
    expect(ids("local got = redis.call('SETNX', KEYS[1], 'v')", "redis.call('PEXPIRE', KEYS[1], 1000)", 'if got == 0 then', '  got = 1', '  if got == 1 then', "    redis.call('INCR', KEYS[2])", '  end', 'end')).toEqual([
      'write-path-needs-ttl@6',
    ]);
  });

  it('bounds proved on an index make a size compared with it positive', () => {
    const shape = (size: string, write: string) =>
      ids('local i = tonumber(ARGV[1])', `local n = redis.call('${size}', KEYS[1])`, 'if i < 0 or i >= n then return nil end', write);
    expect(shape('HLEN', "redis.call('HSET', KEYS[1], i, ARGV[2])")).toEqual([]);
    expect(shape('SCARD', "redis.call('SADD', KEYS[1], ARGV[2])")).toEqual([]);
    expect(shape('ZCARD', "redis.call('ZADD', KEYS[1], 1, ARGV[2])")).toEqual([]);
    // without the lower bound, n may be 0
    expect(ids('local i = tonumber(ARGV[1])', "local n = redis.call('HLEN', KEYS[1])", 'if i >= n then return nil end', "redis.call('HSET', KEYS[1], i, ARGV[2])")).toEqual([
      'write-path-needs-ttl@4',
    ]);
  });

  it('a TTL the guards prove positive is not "computed and can be 0 or less"', () => {
    expect(ids("local t = redis.call('PTTL', KEYS[2])", 'if t > 0 then', "  redis.call('SET', KEYS[1], 'v', 'PX', t + tonumber(ARGV[1]))", 'end')).toEqual([]);
    expect(ids("local t = redis.call('TTL', KEYS[2])", 'if t >= 1 then', "  redis.call('SET', KEYS[1], 'v', 'EX', t)", 'end')).toEqual([]);
    // -1 is above -2: still "can be 0 or less"
    expect(ids("local t = redis.call('PTTL', KEYS[2])", 'if t > -2 then', "  redis.call('SET', KEYS[1], 'v', 'PX', t + tonumber(ARGV[1]))", 'end')).toEqual(['expire-needs-positive-ttl@3']);
  });
});

describe('false alarm: reply ranges', () => {
  it('LPUSH / RPUSH onto a list that exists answer more than the elements pushed', () => {
    expect(ids("redis.call('RPUSH', KEYS[1], ARGV[1])", "local n = redis.call('LPUSH', KEYS[1], ARGV[1])", 'if n > 1 then', "  redis.call('EXPIRE', KEYS[1], 60)", 'end')).toEqual([]);
    expect(ids("redis.call('SADD', KEYS[2], 'x')", "redis.call('RPUSH', KEYS[1], 'a', 'b')", "if redis.call('RPUSH', KEYS[1], 'c') >= 3 then", "  redis.call('EXPIRE', KEYS[1], 60)", "  redis.call('EXPIRE', KEYS[2], 60)", 'end')).toEqual([]);
    // onto a list that may be missing, 1 is possible
    expect(ids("local n = redis.call('LPUSH', KEYS[1], ARGV[1])", 'if n > 1 then', "  redis.call('EXPIRE', KEYS[1], 60)", 'end')).toEqual(['write-path-needs-ttl@1']);
  });

  it('SADD / ZADD / HSET of one member answer 0 or 1', () => {
    for (const write of ["redis.call('SADD', KEYS[1], 'a')", "redis.call('ZADD', KEYS[1], 1, 'a')", "redis.call('HSET', KEYS[1], 'f', 'v')"]) {
      expect(ids(`local r = ${write}`, "redis.call('EXPIRE', KEYS[1], 60)", 'if r == 2 then', "  redis.call('INCR', KEYS[2])", 'end')).toEqual([]);
    }
  });

  it.each([
    ['>', 'if n > tonumber(ARGV[1]) then return 0 end'],
    ['<', 'if n < tonumber(ARGV[1]) then return 0 end'],
    ['~=', 'if n ~= tonumber(ARGV[1]) then return 0 end'],
    ['>= (not)', 'if not (n >= tonumber(ARGV[1])) then return 0 end'],
  ])('INCRBY compared with its increment by %s: the edge that excludes equality found the key', (_, guard) => {
    expect(ids("local n = redis.call('INCRBY', KEYS[1], ARGV[1])", guard, "redis.call('GETDEL', KEYS[1])")).toEqual([]);
  });
});

describe('false alarm: SET ... NX / XX answer whether they wrote', () => {
  it('SET ... NX after a write of the same key never writes', () => {
    for (const write of ["redis.call('APPEND', KEYS[1], ARGV[1])", "redis.call('INCR', KEYS[1])", "redis.call('SET', KEYS[1], 'v')"]) {
      expect(ids(write, "local ok = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 60000)", 'if not ok then', "  redis.call('PEXPIRE', KEYS[1], 1000)", 'end')).toEqual([]);
      expect(ids(write, "if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then", "  redis.call('PEXPIRE', KEYS[1], 1000)", 'end')).toEqual([]);
    }
  });

  it('SET ... NX PX answering OK made the key with that TTL', () => {
    // OK: the key was missing, so the INCR did not run; nil: it exists and gets its EXPIRE
    expect(ids("if ARGV[1] == 'a' then redis.call('INCR', KEYS[1]) end", "if redis.call('SET', KEYS[1], 'v', 'NX', 'PX', 1000) then return 1 end", "redis.call('EXPIRE', KEYS[1], 60)")).toEqual([]);
    expect(ids("if ARGV[1] == 'a' then redis.call('INCR', KEYS[1]) end", "if redis.call('SET', KEYS[1], 'v', 'NX', 'PX', 1000) then return 1 end")).toEqual(['write-path-needs-ttl@1']);
  });

  it('SET ... XX answering nil means the key was missing', () => {
    expect(ids("local ok = redis.call('SET', KEYS[1], ARGV[1], 'XX')", 'if not ok then', "  redis.call('RENAME', KEYS[1], KEYS[2])", 'end', "redis.call('EXPIRE', KEYS[1], 60)")).toEqual([]);
    expect(ids("redis.call('DEL', KEYS[1])", "if redis.call('SET', KEYS[1], 'v', 'XX') then", "  redis.call('INCR', KEYS[2])", 'end')).toEqual([]);
  });
});

describe('false alarm: members read from the key, or named by ARGV', () => {
  it('an element read from a sorted set or list is in it', () => {
    expect(ids("local top = redis.call('ZRANGE', KEYS[1], 0, 0)", 'if #top > 0 then', "  redis.call('ZINCRBY', KEYS[1], 1, top[1])", 'end')).toEqual([]);
    expect(ids("local m = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '+inf', 'LIMIT', 0, 1)", 'if m[1] then', "  redis.call('ZADD', KEYS[1], 5, m[1])", 'end')).toEqual([]);
    expect(ids("local top = redis.call('ZRANGE', KEYS[1], 0, 0)", 'if #top == 0 then', "  redis.call('ZADD', KEYS[1], 1, 'a')", 'end')).toEqual(['write-path-needs-ttl@3']);
  });

  it.each([
    ['ZADD / ZREM', "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])", "redis.call('ZREM', KEYS[1], ARGV[2])"],
    ['SADD / SREM', "redis.call('SADD', KEYS[1], ARGV[1])", "redis.call('SREM', KEYS[1], ARGV[1])"],
    ['HSET / HDEL', "redis.call('HSET', KEYS[1], ARGV[1], 'v')", "redis.call('HDEL', KEYS[1], ARGV[1])"],
  ])('%s of the one member named by ARGV empties the key it made', (_, write, removal) => {
    expect(ids(write, removal)).toEqual([]);
    expect(ids(`local added = ${write}`, 'if added == 1 then', `  ${removal}`, 'end', 'return added')).toEqual([]);
  });

  it('an ARGV member may equal a literal one: removing the literal does not prove the ARGV one stays', () => {
    expect(ids("redis.call('SADD', KEYS[1], ARGV[1], 'a')", "redis.call('SREM', KEYS[1], ARGV[1])")).toEqual(['write-path-needs-ttl@1']);
    expect(ids("redis.call('SADD', KEYS[1], ARGV[1], 'a')", "redis.call('SREM', KEYS[1], 'a')", "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end")).toEqual([
      'write-path-needs-ttl@1',
    ]);
  });
});

describe('false alarm: a number read from ARGV tested twice by an ordering', () => {
  it.each([
    ['> 5, then > 5', 'if tonumber(ARGV[1]) > 5 then return 1 end', 'if tonumber(ARGV[1]) > 5 then'],
    ['>= 10, then > 20', 'if tonumber(ARGV[2]) >= 10 then return 1 end', 'if tonumber(ARGV[2]) > 20 then'],
    ['< 0, then <= -1', 'if tonumber(ARGV[1]) < 0 then return 1 end', 'if tonumber(ARGV[1]) <= -1 then'],
  ])('%s: the second branch never runs', (_, first, second) => {
    expect(ids(first, second, "  redis.call('HSET', KEYS[1], 'f', '1')", 'end')).toEqual([]);
  });

  it('a test the first one does not decide still runs', () => {
    expect(ids('if tonumber(ARGV[1]) > 5 then return 1 end', 'if tonumber(ARGV[1]) > 2 then', "  redis.call('HSET', KEYS[1], 'f', '1')", 'end')).toEqual(['write-path-needs-ttl@3']);
  });
});

describe('loops over KEYS after loops over KEYS', () => {
  it("a later loop's expiry covers the keys an earlier loop ran by name and the rest", () => {
    expect(ids('for _, k in ipairs(KEYS) do', "  redis.call('SETNX', k, ARGV[3])", "  if redis.call('EXISTS', k) == 0 then return 0 end", 'end', 'for i = 1, #KEYS do', "  redis.call('EXPIRE', KEYS[i], 60)", 'end')).toEqual([]);
  });

  it('a loop that only gives every key a TTL does not bring back a key deleted before it', () => {
    expect(
      ids("redis.call('UNLINK', KEYS[2])", 'for _, k in ipairs(KEYS) do', "  redis.call('EXPIRE', k, 60)", 'end', "if redis.call('PTTL', KEYS[2]) >= 0 then", "  redis.call('HINCRBY', KEYS[1], 'f', 1)", 'end'),
    ).toEqual([]);
    // a loop that writes may create it again
    expect(
      ids("redis.call('UNLINK', KEYS[2])", 'for i = 2, #KEYS do', "  redis.call('SET', KEYS[i], 1, 'EX', 60)", 'end', "if redis.call('PTTL', KEYS[2]) >= 0 then", "  redis.call('HINCRBY', KEYS[1], 'f', 1)", 'end'),
    ).toEqual(['write-path-needs-ttl@6']);
  });
});

describe('false alarm: a removal of members a key just created does not hold removes nothing', () => {
  it.each([
    ['ZREM, then ZREMRANGEBYSCORE', "redis.call('ZADD', KEYS[1], 1, '7')", "redis.call('ZREM', KEYS[1], 'a')", "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', 1)"],
    ['SREM, then SREM of both', "redis.call('SADD', KEYS[1], 'b', 'c')", "redis.call('SREM', KEYS[1], 'a')", "redis.call('SREM', KEYS[1], 'b', 'c')"],
    ['HDEL, then HDEL', "redis.call('HSET', KEYS[1], 'f', 1)", "redis.call('HDEL', KEYS[1], 'g', 'h')", "redis.call('HDEL', KEYS[1], 'f')"],
  ])('%s: the key the write made is emptied', (_, write, nothing, emptying) => {
    expect(ids(write, nothing, emptying)).toEqual([]);
  });

  it('an ARGV member may be the one removed', () => {
    expect(ids("redis.call('SADD', KEYS[1], ARGV[1])", "redis.call('SREM', KEYS[1], 'a')", "redis.call('SADD', KEYS[1], 'b')", "redis.call('SREM', KEYS[1], 'b')")).toEqual(['write-path-needs-ttl@1']);
  });
});
