/**
 * Redis 8's own data types in the command table, checked on a real Redis 8 server: what creates a
 * key (without TTL), what keeps an existing key's TTL, what deletes it, and lua-lint's verdict on
 * scripts next to the PTTL the server leaves.
 *
 * The server is Debian trixie's redis-server 8.0.2 (`scripts/fetch-redis-8.sh`, which `.ci/run`
 * calls, or the one `REDIS_8_SERVER` names). That build loads the vector sets (`vectorset`), which
 * Redis compiles into the server, but not JSON, time series or the probabilistic types: Redis 8
 * fetches those modules at build time and Debian ships no package of them. Their facts are checked
 * here where the server has them (`COMMAND INFO` knows the command); on Debian's build they come
 * from the redis.io pages and the modules' sources (see semantics/redis8-types.ts).
 */
import type { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';
import { describeCommand } from '../../semantics/commands.js';
import { useRedis8 } from '../helpers/redis-8.js';

const server = useRedis8('redis8-types-redis.test.ts');
const available = server.available;
let redis: Redis;
beforeEach(() => {
  if (available) redis = server.client();
});

/** The effect the table gives the first key of a call. */
const effect = (...call: Array<string | number>) => describeCommand(String(call[0]), call.slice(1)).keys[0];

/** Whether the server has a command (a module it did not load has none). */
async function has(command: string): Promise<boolean> {
  const [info] = (await redis.call('COMMAND', 'INFO', command)) as unknown[];
  return info !== null && info !== undefined;
}

/** lua-lint's verdict on a script, and what the server leaves: does the key end without TTL? */
async function verdictAndServer(source: string, keys: string[], argv: string[] = []): Promise<{ reported: boolean; pttl: number }> {
  await redis.flushdb();
  await redis.eval(source, keys.length, ...keys, ...argv);
  const reported = analyzeLua(source).some((f) => f.ruleId === 'write-path-needs-ttl');
  return { reported, pttl: await redis.pttl(keys[0]!) };
}

describe.skipIf(!available)('vector sets on redis-server 8', () => {
  it('runs on Redis 8 with the vectorset module', async () => {
    const info = (await redis.info('server')) as string;
    expect(Number(/redis_version:(\d+)\./.exec(info)?.[1])).toBeGreaterThanOrEqual(8);
    expect(await has('VADD')).toBe(true);
  });

  it('matches the command table, fact by fact', async () => {
    await redis.flushdb();
    // VADD creates a missing key without TTL ...
    expect(effect('VADD', 'v', 'VALUES', 2, 1, 2, 'm1')).toEqual({ arg: 0, effect: 'create-in-place' });
    await redis.call('VADD', 'v', 'VALUES', 2, 1, 2, 'm1');
    expect(await redis.pttl('v')).toBe(-1);
    // ... and adds to an existing one in place, which keeps its TTL
    await redis.pexpire('v', 100_000);
    await redis.call('VADD', 'v', 'VALUES', 2, 3, 4, 'm2');
    expect(await redis.pttl('v')).toBeGreaterThan(90_000);
    // VREM of the last element deletes the key
    expect(effect('VREM', 'v', 'm1')).toEqual({ arg: 0, effect: 'modify-if-present', mayDelete: true });
    await redis.call('VREM', 'v', 'm1');
    expect(await redis.exists('v')).toBe(1);
    await redis.call('VREM', 'v', 'm2');
    expect(await redis.exists('v')).toBe(0);
    // VSETATTR never creates the key; VCARD of a missing key is 0
    expect(effect('VSETATTR', 'v', 'm1', '{}')).toEqual({ arg: 0, effect: 'modify-if-present' });
    expect(await redis.call('VSETATTR', 'v', 'm1', '{"a":1}')).toBe(0);
    expect(await redis.exists('v')).toBe(0);
    expect(await redis.call('VCARD', 'v')).toBe(0);
  });

  it('lua-lint reports the scripts that leave a vector set without TTL, and only those', async () => {
    const add = "redis.call('VADD', KEYS[1], 'VALUES', 2, 1, 2, ARGV[1])";
    // created without TTL: reported, and the server shows it
    expect(await verdictAndServer(add, ['v'], ['m'])).toEqual({ reported: true, pttl: -1 });
    // created, then given a TTL
    const withTtl = await verdictAndServer(`${add}\nredis.call('PEXPIRE', KEYS[1], 60000)`, ['v'], ['m']);
    expect(withTtl.reported).toBe(false);
    expect(withTtl.pttl).toBeGreaterThan(50_000);
    // added to only when the set exists (a vector set is deleted with its last element: VCARD 0 is missing)
    const guarded = `if redis.call('VCARD', KEYS[1]) == 0 then return 0 end\n${add}`;
    expect(await verdictAndServer(guarded, ['v'], ['m'])).toEqual({ reported: false, pttl: -2 });
    // the only element removed again: the key is gone, nothing left without TTL
    const removed = `${add}\nredis.call('VREM', KEYS[1], ARGV[1])`;
    expect(await verdictAndServer(removed, ['v'], ['m'])).toEqual({ reported: false, pttl: -2 });
  });
});

describe.skipIf(!available)("Redis 8's other types, where the server has them", () => {
  it('checks JSON, time series and the probabilistic types against the table on a server that loads them', async () => {
    const checked: string[] = [];
    if (await has('JSON.SET')) {
      await redis.flushdb();
      expect(effect('JSON.SET', 'j', '$', '{}')).toEqual({ arg: 0, effect: 'create-in-place' });
      await redis.call('JSON.SET', 'j', '$', '{"a":1}');
      expect(await redis.pttl('j')).toBe(-1);
      await redis.pexpire('j', 100_000);
      await redis.call('JSON.SET', 'j', '$', '{"a":2}');
      await redis.call('JSON.MERGE', 'j', '$', '{"b":3}');
      expect(await redis.pttl('j')).toBeGreaterThan(90_000);
      await expect(redis.call('JSON.NUMINCRBY', 'missing', '$.a', 1)).rejects.toThrow();
      checked.push('JSON');
    }
    if (await has('TS.ADD')) {
      await redis.flushdb();
      expect(effect('TS.CREATE', 't', 'RETENTION', 1000)).toEqual({ arg: 0, effect: 'create-in-place', mustBeMissing: true });
      await redis.call('TS.CREATE', 't', 'RETENTION', 1000);
      expect(await redis.pttl('t')).toBe(-1); // RETENTION is not a key TTL
      await expect(redis.call('TS.CREATE', 't')).rejects.toThrow(/already exists/);
      await redis.call('TS.ADD', 't2', '*', 1);
      expect(await redis.pttl('t2')).toBe(-1);
      checked.push('TS');
    }
    if (await has('BF.ADD')) {
      await redis.flushdb();
      await redis.call('BF.ADD', 'b', 'x');
      expect(await redis.pttl('b')).toBe(-1);
      await expect(redis.call('BF.RESERVE', 'b', 0.01, 100)).rejects.toThrow();
      await redis.call('TDIGEST.CREATE', 'd1');
      await redis.call('TDIGEST.CREATE', 'd2');
      await redis.pexpire('d2', 100_000);
      expect(effect('TDIGEST.MERGE', 'd2', 1, 'd1')).toEqual({ arg: 0, effect: 'overwrite' });
      await redis.call('TDIGEST.MERGE', 'd2', 1, 'd1');
      expect(await redis.pttl('d2')).toBe(-1);
      checked.push('probabilistic');
    }
    // Debian's redis-server 8.0.2 loads none of these modules; another build may load all
    expect(checked.length === 0 || checked.length === 3).toBe(true);
  });
});
