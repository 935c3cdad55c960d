/**
 * A literal expiry as Redis reads it (semantics/command-spec.ts `expiryLiteral`), checked token by
 * token on a real redis-server for SET EX / PX / EXAT / PXAT, SETEX, PSETEX, GETEX, EXPIRE,
 * PEXPIRE, EXPIREAT and PEXPIREAT: Redis parses an integer strictly (`'01'`, `'+5'`, `' 60'`,
 * `'5e2'`, `'60.0'`, `'0x10'`, `1e21` sent as `1e+21` are "value is not an integer or out of
 * range") and rejects a value out of its range ("invalid expire time": an EX whose milliseconds
 * plus the clock overflow 64 bits, an EXPIRE in seconds beyond LLONG_MAX / 1000). The description
 * says `rejected` (GETEX: `rejectedWhenExists`) exactly when the server answers an error.
 */
import { describe, expect, it } from 'vitest';
import { expiryLiteral } from '../../semantics/command-spec.js';
import { describeCommand } from '../../semantics/commands.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();
const prefix = uniquePrefix('expiry-literals');

/** Every token, as ioredis sends it (a number as `String(n)`). */
const TOKENS: Array<string | number> = [
  60,
  '60',
  1,
  '01',
  '007',
  ' 60',
  '60 ',
  '+5',
  '5e2',
  '60.0',
  '0x10',
  '',
  '-0',
  '0',
  0,
  -5,
  '-5',
  1.5,
  1e21,
  '9223339533174775',
  '9223372036854774',
  '9223372036854775',
  '9223372036854776',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775',
  '-9223372036854776',
  '-9223372036854775808',
  '99999999999999999999',
];

/** A command around the token: its arguments, and whether the description says Redis rejects it. */
const FORMS: Record<string, { args: (key: string, token: string | number) => Array<string | number>; rejected: (args: Array<string | number>) => boolean }> = {
  'SET EX': { args: (k, t) => ['SET', k, 'v', 'EX', t], rejected: (a) => describeCommand('SET', a.slice(1)).rejected === true },
  'SET PX': { args: (k, t) => ['SET', k, 'v', 'PX', t], rejected: (a) => describeCommand('SET', a.slice(1)).rejected === true },
  'SET EXAT': { args: (k, t) => ['SET', k, 'v', 'EXAT', t], rejected: (a) => describeCommand('SET', a.slice(1)).rejected === true },
  'SET PXAT': { args: (k, t) => ['SET', k, 'v', 'PXAT', t], rejected: (a) => describeCommand('SET', a.slice(1)).rejected === true },
  SETEX: { args: (k, t) => ['SETEX', k, t, 'v'], rejected: (a) => describeCommand('SETEX', a.slice(1)).rejected === true },
  PSETEX: { args: (k, t) => ['PSETEX', k, t, 'v'], rejected: (a) => describeCommand('PSETEX', a.slice(1)).rejected === true },
  'GETEX EX': { args: (k, t) => ['GETEX', k, 'EX', t], rejected: (a) => describeCommand('GETEX', a.slice(1)).rejectedWhenExists === true },
  'GETEX PX': { args: (k, t) => ['GETEX', k, 'PX', t], rejected: (a) => describeCommand('GETEX', a.slice(1)).rejectedWhenExists === true },
  EXPIRE: { args: (k, t) => ['EXPIRE', k, t], rejected: (a) => describeCommand('EXPIRE', a.slice(1)).rejected === true },
  PEXPIRE: { args: (k, t) => ['PEXPIRE', k, t], rejected: (a) => describeCommand('PEXPIRE', a.slice(1)).rejected === true },
  EXPIREAT: { args: (k, t) => ['EXPIREAT', k, t], rejected: (a) => describeCommand('EXPIREAT', a.slice(1)).rejected === true },
  PEXPIREAT: { args: (k, t) => ['PEXPIREAT', k, t], rejected: (a) => describeCommand('PEXPIREAT', a.slice(1)).rejected === true },
};

/** Whether the server answers `args` (on an existing key) with an error. */
async function serverRejects(args: Array<string | number>): Promise<boolean> {
  await redis.client().set(String(args[1]), 'v');
  try {
    await redis.client().call(String(args[0]), ...args.slice(1));
    return false;
  } catch {
    return true;
  }
}

describe('a literal expiry: the description and redis-server agree, token by token', () => {
  const cases = Object.keys(FORMS).flatMap((form) => TOKENS.map((token) => [form, JSON.stringify(token), token] as const));
  it.each(cases)('%s %s', async (form, name, token) => {
    const { args, rejected } = FORMS[form]!;
    const call = args(`${prefix}:${form.replace(/\W+/g, '-')}:${name.replace(/\W+/g, '-')}`, token);
    expect(rejected(call)).toBe(await serverRejects(call));
  });
});

describe('expiryLiteral', () => {
  it('parses as Redis does: the tokens Number() takes and Redis does not are rejected', () => {
    for (const token of ['01', '+5', '5e2', '60.0', ' 60', '60 ', '0x10', '-0', '', 1e21, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(expiryLiteral(token, 'seconds', 'set'), JSON.stringify(token)).toEqual({ value: undefined, rejected: true });
      expect(expiryLiteral(token, 'seconds', 'expire'), JSON.stringify(token)).toEqual({ value: undefined, rejected: true });
      expect(expiryLiteral(token, 'seconds', 'hash'), JSON.stringify(token)).toEqual({ value: undefined, rejected: true });
    }
    expect(expiryLiteral(undefined, 'seconds', 'set')).toBeUndefined();
    expect(expiryLiteral('60', 'seconds', 'set')).toEqual({ value: 60n, rejected: false });
  });
  it('<= 0: rejected after EX / SETEX, taken (it deletes) by EXPIRE, left to the hash commands', () => {
    expect(expiryLiteral(0, 'seconds', 'set')).toEqual({ value: 0n, rejected: true });
    expect(expiryLiteral(-5, 'milliseconds', 'set')).toEqual({ value: -5n, rejected: true });
    expect(expiryLiteral(-5, 'seconds', 'expire')).toEqual({ value: -5n, rejected: false });
    expect(expiryLiteral(-5, 'seconds', 'hash')).toEqual({ value: -5n, rejected: false });
  });
  it('the range: milliseconds that overflow 64 bits with the clock added are rejected, a Unix time has no clock added', () => {
    expect(expiryLiteral('9223372036854775', 'seconds', 'set')?.rejected).toBe(true);
    expect(expiryLiteral('9223372036854775', 'unix-seconds', 'set')?.rejected).toBe(false);
    expect(expiryLiteral('9223372036854776', 'unix-seconds', 'set')?.rejected).toBe(true);
    expect(expiryLiteral('9223372036854775807', 'unix-milliseconds', 'set')?.rejected).toBe(false);
    expect(expiryLiteral('9223372036854775807', 'milliseconds', 'expire')?.rejected).toBe(true);
    expect(expiryLiteral('-9223372036854775', 'seconds', 'expire')?.rejected).toBe(false);
    expect(expiryLiteral('-9223372036854776', 'seconds', 'expire')?.rejected).toBe(true);
  });
  it('the limit: an EX rejected only because the clock is past 2020 plus a few years is not called rejected', async () => {
    // the largest EX taken today is LLONG_MAX / 1000 minus the clock in seconds; between it and the
    // bound with the clock at 2020 the description gives the benefit of the doubt
    const token = '9223370300000000';
    expect(expiryLiteral(token, 'seconds', 'set')?.rejected).toBe(false);
    expect(await serverRejects(['SET', `${prefix}:band`, 'v', 'EX', token])).toBe(true);
  });
});
