/**
 * A TTL / PTTL reply compared with the TTL the caller passes (`if tonumber(ARGV[3]) > ttl then
 * PEXPIRE k ARGV[3] end`): the caller's number is taken to be at least 0 (docs/ttl-semantics.md),
 * so the edge where the reply is at least it proves the key had a TTL, and a missing key (-2) or a
 * key without TTL (-1) always takes the other edge: a guard that re-arms a missing TTL, resolved
 * whether the reply is read before the write (the key's TTL only ever moves out) or after it.
 * Near misses stay reported: the expiry on the edge a missing key never takes (`ARGV < ttl`: only
 * shortening), a threshold against a literal (`ttl > 0`), a number computed from ARGV that may be
 * negative, and an early return before the expiry.
 */
import { describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';

const ids = (source: string): string[] => analyzeLua(source).map((f) => `${f.ruleId ?? 'parse-error'}@${f.line}:${f.column}`);
const take = (guard: string, read = "local ttl = redis.call('PTTL', KEYS[1])\n"): string =>
  `${read}redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])\nif ${guard} then\n  redis.call('PEXPIRE', KEYS[1], ARGV[3])\nend\nreturn 1\n`;

describe('a TTL reply compared with the caller\'s TTL', () => {
  it('resolves a guard that holds for a missing key or a key without TTL', () => {
    // read before the write: the TTL only ever moves out
    expect(ids(take('tonumber(ARGV[3]) > ttl'))).toEqual([]);
    expect(ids(take('ttl < tonumber(ARGV[3])'))).toEqual([]);
    expect(ids(take('tonumber(ARGV[3]) >= ttl'))).toEqual([]);
    // TTL in seconds, the caller's number with a default
    expect(ids(take('(tonumber(ARGV[3]) or 0) > ttl', "local ttl = redis.call('TTL', KEYS[1])\n"))).toEqual([]);
    // read after the write, in the condition itself
    expect(
      ids("redis.call('SADD', KEYS[1], ARGV[1])\nif redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then\n  redis.call('PEXPIRE', KEYS[1], ARGV[2])\nend\nreturn 1\n"),
    ).toEqual([]);
  });

  it('still reports the guards a missing key does not pass', () => {
    // only ever shortens a TTL: a missing key (-2) is never below the caller's TTL
    expect(ids(take('tonumber(ARGV[3]) < ttl'))).toEqual(['write-path-needs-ttl@2:1']);
    // a threshold: -1 and -2 are not above 0
    expect(ids(take('ttl > 0'))).toEqual(['write-path-needs-ttl@2:1']);
    // a number computed from ARGV may be negative: nothing bounds it
    expect(ids(take('tonumber(ARGV[3]) - 1000 > ttl'))).toEqual(['write-path-needs-ttl@2:1']);
    // a return before the expiry
    expect(
      ids(
        "local ttl = redis.call('PTTL', KEYS[1])\nredis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])\nif ARGV[4] == 'dry' then return 0 end\nif tonumber(ARGV[3]) > ttl then\n  redis.call('PEXPIRE', KEYS[1], ARGV[3])\nend\nreturn 1\n",
      ),
    ).toEqual(['write-path-needs-ttl@2:1']);
  });
});
