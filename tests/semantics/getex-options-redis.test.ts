/**
 * GETEX's option grammar of semantics/commands.ts (describeGetex) checked on a real redis-server:
 * a literal that is no GETEX option (the text ioredis sends for an options object, `[object
 * Object]`; the TTL without its `EX`: `GETEX k 60`) makes Redis answer "ERR syntax error" whether
 * the key exists or not (the options are parsed before the key is looked up), and the key keeps
 * its TTL: the description says `rejected` with the token (`unknownOption`) and reads the key
 * only. The options Redis accepts are not rejected, and an option that cannot be read (an
 * expression) is not judged.
 */
import { describe, expect, it } from 'vitest';
import { describeCommand } from '../../semantics/commands.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();
const prefix = uniquePrefix('getex-options');

/** The server's answer to GETEX key ...options: 'value', 'nil' or its error message. */
async function reply(key: string, options: Array<string | number>): Promise<string> {
  try {
    const answer = await redis.client().call('GETEX', key, ...options);
    return answer === null ? 'nil' : 'value';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('GETEX options a real server rejects', () => {
  const cases: Array<[string, Array<string | number>, { arg: number; token: string; looksLikeTtl: boolean } | undefined]> = [
    ['an options object sent as text', ['[object Object]'], { arg: 1, token: '[object Object]', looksLikeTtl: false }],
    ['a bare TTL', [60], { arg: 1, token: '60', looksLikeTtl: true }],
    ['a token after a complete expiry', ['EX', 60, '[object Object]'], { arg: 3, token: '[object Object]', looksLikeTtl: false }],
    ['EX with its value', ['EX', 60], undefined],
    ['PERSIST', ['PERSIST'], undefined],
    ['lower-case px', ['px', 500], undefined],
    ['no option', [], undefined],
  ];
  it.each(cases)('%s: the description and redis-server agree, on a missing and an existing key', async (name, options, unknownOption) => {
    const key = `${prefix}:${name.replace(/\W+/g, '-')}`;
    const description = describeCommand('GETEX', [key, ...options]);
    const missing = await reply(key, options);
    await redis.client().set(key, 'v', 'EX', 1000);
    const existing = await reply(key, options);
    if (unknownOption) {
      expect([missing, existing]).toEqual(['ERR syntax error', 'ERR syntax error']);
      expect(description.rejected).toBe(true);
      expect(description.unknownOption).toEqual(unknownOption);
      expect(description.keys).toEqual([{ arg: 0, effect: 'read' }]);
      expect(await redis.client().ttl(key)).toBeGreaterThan(900);
    } else {
      expect([missing, existing]).toEqual(['nil', 'value']);
      expect(description.rejected).toBeUndefined();
      expect(description.unknownOption).toBeUndefined();
    }
  });

  it('an option that cannot be read may take the value after it: not judged', () => {
    const description = describeCommand('GETEX', ['k', undefined, 60]);
    expect(description.unknownOptions).toBe(true);
    expect(description.rejected).toBeUndefined();
    expect(description.unknownOption).toBeUndefined();
  });
});
