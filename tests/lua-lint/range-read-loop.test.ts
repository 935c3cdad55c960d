/**
 * A loop over the elements of a range read (`for _, id in ipairs(redis.call('ZRANGEBYSCORE', k,
 * ...))`, LRANGE, SMEMBERS, HGETALL, ...) runs a turn only when the read answered some, so its key
 * existed then (the `#reply > 0` fact, idioms.ts RANGE_READS): an in-place write to that key in
 * the body (re-scoring the members just read) never creates it. Near misses stay reported: the
 * key deleted between the read and the loop, a write to another key, a write after the loop (the
 * read may have answered nothing), and a read through `redis.pcall`.
 */
import { describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';

const ids = (source: string): string[] => analyzeLua(source).map((f) => `${f.ruleId ?? 'parse-error'}@${f.line}:${f.column}`);

describe('a loop over the elements of a range read', () => {
  it('proves the read key exists in the body', () => {
    expect(
      ids("local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 10)\nfor _, id in ipairs(ids) do\n  redis.call('ZADD', KEYS[1], ARGV[2], id)\nend\nreturn ids\n"),
    ).toEqual([]);
    expect(ids("local key = KEYS[1]\nfor i, v in ipairs(redis.call('LRANGE', key, 0, -1)) do\n  redis.call('RPUSH', key, v .. ':done')\nend\nreturn 1\n")).toEqual([]);
    expect(ids("local members = redis.call('SMEMBERS', KEYS[1])\nfor _, m in pairs(members) do\n  redis.call('SADD', KEYS[1], m .. ':v2')\nend\nreturn 1\n")).toEqual([]);
    expect(ids("local h = redis.call('HGETALL', KEYS[1])\nfor i = 1, 1 do end\nfor _, f in ipairs(h) do\n  redis.call('HSET', KEYS[1], 'seen', f)\nend\nreturn 1\n")).toEqual([]);
  });

  it('still reports the writes the read does not cover', () => {
    // deleted between the read and the loop
    expect(ids("local ids = redis.call('ZRANGE', KEYS[1], 0, -1)\nredis.call('DEL', KEYS[1])\nfor _, id in ipairs(ids) do\n  redis.call('ZADD', KEYS[1], 1, id)\nend\nreturn ids\n")).toEqual([
      'write-path-needs-ttl@4:3',
    ]);
    // another key
    expect(ids("local ids = redis.call('ZRANGE', KEYS[1], 0, -1)\nfor _, id in ipairs(ids) do\n  redis.call('ZADD', KEYS[2], 1, id)\nend\nreturn ids\n")).toEqual([
      'write-path-needs-ttl@3:3',
    ]);
    // after the loop: the read may have answered nothing
    expect(ids("local ids = redis.call('ZRANGE', KEYS[1], 0, -1)\nfor _, id in ipairs(ids) do\nend\nredis.call('ZADD', KEYS[1], 1, 'x')\nreturn ids\n")).toEqual([
      'write-path-needs-ttl@4:1',
    ]);
    // a pcall reply may be an error table
    expect(ids("local ids = redis.pcall('ZRANGE', KEYS[1], 0, -1)\nfor _, id in ipairs(ids) do\n  redis.call('ZADD', KEYS[1], 1, id)\nend\nreturn 1\n")).toEqual([
      'write-path-needs-ttl@3:3',
    ]);
  });
});
