/**
 * SET's option grammar of semantics/set-command.ts checked on a real redis-server: a literal in an
 * option slot that is no SET option (the TTL without its `EX`: `SET k v 300`; `EXPIRE 60`) makes
 * Redis answer "ERR syntax error" and write nothing, and the description says `rejected` with the
 * token (`unknownOption`); the options Redis accepts are not rejected. Redis 8.4's compare-and-set
 * conditions (IFEQ / IFNE / IFDEQ / IFDNE, each followed by its value) are known, with their
 * effect and the version they need; a server older than 8.4 rejects them, as `requires` says.
 */
import { describe, expect, it } from 'vitest';
import { isSecondsTtl } from '../../semantics/command-spec.js';
import { describeCommand } from '../../semantics/commands.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();
const prefix = uniquePrefix('set-options');

/** The server's answer to SET key value ...options: 'ok', 'nil' or its error message. */
async function reply(key: string, options: Array<string | number>): Promise<string> {
  try {
    const answer = await redis.client().call('SET', key, 'v', ...options);
    return answer === null ? 'nil' : 'ok';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('SET options a real server rejects', () => {
  const cases: Array<[string, Array<string | number>, { arg: number; token: string; looksLikeTtl: boolean } | undefined]> = [
    ['a bare TTL', [300], { arg: 2, token: '300', looksLikeTtl: true }],
    ['a bare TTL as a string', ['300'], { arg: 2, token: '300', looksLikeTtl: true }],
    ['a TTL after NX', ['NX', 60], { arg: 3, token: '60', looksLikeTtl: true }],
    ['a command name for an option', ['EXPIRE', 60], { arg: 2, token: 'EXPIRE', looksLikeTtl: false }],
    ['a token after a complete expiry', ['EX', 60, 'NOW'], { arg: 4, token: 'NOW', looksLikeTtl: false }],
    ['a fractional number', [1.5], { arg: 2, token: '1.5', looksLikeTtl: false }],
    ['a negative number', [-60], { arg: 2, token: '-60', looksLikeTtl: false }],
    ['EX with its value', ['EX', 60], undefined],
    ['PX, NX and GET', ['PX', 500, 'NX', 'GET'], undefined],
    ['lower-case options', ['ex', 60, 'xx'], undefined],
    ['KEEPTTL', ['KEEPTTL'], undefined],
  ];
  it.each(cases)('%s: the description and redis-server agree', async (name, options, unknownOption) => {
    const key = `${prefix}:${name.replace(/\W+/g, '-')}`;
    const description = describeCommand('SET', [key, 'v', ...options]);
    const answer = await reply(key, options);
    if (unknownOption) {
      expect(answer).toBe('ERR syntax error');
      expect(description.rejected).toBe(true);
      expect(description.unknownOption).toEqual(unknownOption);
      expect(await redis.client().exists(key)).toBe(0);
    } else {
      expect(answer === 'ok' || answer === 'nil').toBe(true);
      expect(description.rejected).toBeUndefined();
      expect(description.unknownOption).toBeUndefined();
    }
  });
});

describe('what Redis takes as a TTL in seconds after EX', () => {
  // Redis parses integers strictly (no leading zero, sign, space, fraction, exponent or hex) and
  // rejects an EX whose milliseconds plus its clock overflow 64 bits
  const tokens: Array<string | number> = [1, 60, '60', 9223372036854, '9223339533174775', '9223372036854775', '007', '0', 0, '-5', '+5', ' 5', '5 ', '5e2', '60.0', 1.5, '0x10', '', '9223372036854776', '99999999999999999999', 1e21];
  it.each(tokens.map((token) => [JSON.stringify(token), token] as const))('%s: isSecondsTtl and redis-server agree', async (name, token) => {
    const key = `${prefix}:ex-${name.replace(/\W+/g, '-')}`;
    const answer = await reply(key, ['EX', token]);
    expect(answer === 'ok').toBe(isSecondsTtl(token));
    expect(isSecondsTtl(token)).toBe(typeof token === 'number' ? [1, 60, 9223372036854].includes(token) : ['60', '9223339533174775'].includes(token));
  });
  it('a stray token after an option it cannot read is not judged: the option may take it as its value', () => {
    expect(describeCommand('SET', ['k', 'v', undefined, 60]).unknownOption).toBeUndefined();
    expect(describeCommand('SET', ['k', 'v', undefined, 60]).unknownOptions).toBe(true);
    // before it, still judged
    expect(describeCommand('SET', ['k', 'v', 60, undefined]).unknownOption).toEqual({ arg: 2, token: '60', looksLikeTtl: true });
  });
});

describe("SET's compare-and-set conditions (Redis 8.4)", () => {
  it('reads each condition with its value, and what it does to the key', () => {
    const effectOf = (options: Array<string | number>) => describeCommand('SET', ['k', 'v', ...options]).keys[0]!.effect;
    // IFEQ / IFDEQ write only an existing key (as XX); IFNE / IFDNE also create a missing one
    expect(effectOf(['IFEQ', 'old'])).toBe('clear-ttl-if-present');
    expect(effectOf(['IFDEQ', 'abc123', 'EX', 60])).toBe('set-ttl');
    expect(effectOf(['IFNE', 'old'])).toBe('overwrite');
    expect(effectOf(['IFDNE', 'abc123', 'PX', 500])).toBe('create-with-ttl');
    // the compared value is data, whatever it spells
    expect(describeCommand('SET', ['k', 'v', 'IFEQ', 'KEEPTTL']).keepTtl).toBe(false);
    expect(describeCommand('SET', ['k', 'v', 'IFEQ', 300]).rejected).toBeUndefined();
    // one condition only
    expect(describeCommand('SET', ['k', 'v', 'NX', 'IFNE', 'x']).conflictingOption).toEqual({ arg: 3, option: 'IFNE', conflictsWith: 'NX' });
  });

  it('needs Redis 8.4, which an older server shows by rejecting it', async () => {
    expect(describeCommand('SET', ['k', 'v', 'IFNE', 'old']).requires).toEqual({ version: '8.4.0', feature: 'SET ... IFNE' });
    const info = String(await redis.client().call('INFO', 'server'));
    const [major, minor] = (/redis_version:(\d+)\.(\d+)/.exec(info) ?? []).slice(1).map(Number);
    const older = major! < 8 || (major === 8 && minor! < 4);
    const answer = await reply(`${prefix}:ifne`, ['IFNE', 'old']);
    expect(answer).toBe(older ? 'ERR syntax error' : 'ok');
  });
});
