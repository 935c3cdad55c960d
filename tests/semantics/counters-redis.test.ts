/**
 * The counter facts of semantics/commands.ts checked on a real redis-server: every command of
 * INCREMENT_COMMANDS creates the key it adds to, with no TTL, when it is missing, and keeps the TTL
 * of a key that has one; STRING_COUNTERS are the ones of them that work on a string key.
 */
import { describe, expect, it } from 'vitest';
import { INCREMENT_COMMANDS, STRING_COUNTERS, describeCommand } from '../../semantics/commands.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();
const prefix = uniquePrefix('counters');

/** The arguments after the key of each increment, adding 2 (a field or member first where it takes one). */
const ARGS: Record<string, Array<string | number>> = {
  INCR: [],
  INCRBY: [2],
  INCRBYFLOAT: ['2.5'],
  DECR: [],
  DECRBY: [2],
  HINCRBY: ['f', 2],
  HINCRBYFLOAT: ['f', '2.5'],
  ZINCRBY: [2, 'm'],
};

describe('counter commands on a real server', () => {
  it('lists each increment once, the string counters among them', () => {
    expect([...INCREMENT_COMMANDS].sort()).toEqual(Object.keys(ARGS).sort());
    expect([...STRING_COUNTERS].sort()).toEqual(['DECR', 'DECRBY', 'INCR', 'INCRBY', 'INCRBYFLOAT']);
    for (const command of INCREMENT_COMMANDS) expect(describeCommand(command, [`${prefix}:k`, ...ARGS[command]!]).keys).toHaveLength(1);
  });

  it.each([...INCREMENT_COMMANDS])('%s creates a missing key without TTL and keeps an existing TTL', async (command) => {
    const client = redis.client();
    const key = `${prefix}:${command}`;
    await client.call(command, key, ...ARGS[command]!);
    expect(await client.pttl(key)).toBe(-1);
    expect(await client.type(key)).toBe(STRING_COUNTERS.has(command) ? 'string' : command.startsWith('H') ? 'hash' : 'zset');
    await client.pexpire(key, 60_000);
    await client.call(command, key, ...ARGS[command]!);
    const pttl = await client.pttl(key);
    expect(pttl).toBeGreaterThan(55_000);
    expect(pttl).toBeLessThanOrEqual(60_000);
  });
});
