/**
 * ttl-units: a duration whose unit is known from where it comes, and a span added to a value
 * nothing names.
 *
 * - a constant of a time library (`Time.Day` of @sapphire/time-utilities, in milliseconds), a
 *   duration parser's result (`ms('1d')`, `milliseconds({ days: 1 })` of date-fns), a constant
 *   named as one unit of time whose value is that unit in milliseconds or seconds (`ONE_DAY =
 *   86_400_000`, a file's `enum Time { Second = 1000, ... }`, `TIME.DAY`), and the unit a date
 *   library's method names (`d.toMillis()`, `d.as('seconds')`): milliseconds to EX / EXPIRE /
 *   SETEX keep the key 1000 times longer than meant, seconds to PX 1000 times shorter;
 * - converted (`Time.Day / 1000`, `/ Time.Second`) or given to the command of its unit, it is
 *   clean; `Time` of an unknown module or a table in seconds says nothing against EX;
 * - a value nothing names plus (or minus) a span is a span or a point in time moved by it
 *   (`windowStart + windowSizeMs` for PEXPIREAT is the window's end): only the span's unit is
 *   compared with what the command takes.
 */
import ttlUnits from '../../rules/ttl-units.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const SAPPHIRE = `import { Time } from '@sapphire/time-utilities';\n`;

runRule(untypedTester, 'ttl-units', ttlUnits, {
  valid: [
    // converted to seconds, or given to the command that counts milliseconds
    ioredis(`${SAPPHIRE}export async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', Time.Day / 1000);\n}`),
    ioredis(`${SAPPHIRE}export async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', Math.floor(Time.Hour / Time.Second));\n}`),
    ioredis(`${SAPPHIRE}export async function f(k: string, v: string) {\n  await redis.set(k, v, 'PX', Time.Day);\n}`),
    ioredis(`${SAPPHIRE}export async function f(k: string) {\n  await redis.pexpire(k, Time.Second * 30);\n}`),
    nodeRedis(`${SAPPHIRE}export async function f(k: string, v: string) {\n  await client.set(k, v, { PX: 30 * Time.Minute });\n}`),
    // a Time of a module nobody knows, or a table in seconds: nothing against EX
    ioredis(`import { Time } from './time';\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', Time.Day);\n}`),
    ioredis(`enum Time { Second = 1, Minute = 60 * Second, Day = 24 * 60 * Minute }\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', Time.Day);\n}`),
    ioredis(`const ONE_DAY = 24 * 60 * 60;\nexport async function f(k: string, v: string) {\n  await redis.setex(k, ONE_DAY, v);\n}`),
    ioredis(`import ms from 'ms';\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', ms('1d') / 1000);\n}`),
    ioredis(`export async function f(k: string, d: { as(unit: string): number }) {\n  await redis.expire(k, d.as('seconds'));\n}`),
    // a value nothing names plus a span: the window's end, in the span's unit
    ioredis(`export class Limiter {\n  opts = { windowSizeMs: 60_000 };\n  async hit(key: string) {\n    const start = this.windowStart(Date.now());\n    await redis.pexpireat(key, start + this.opts.windowSizeMs);\n  }\n  windowStart(ts: number) { return ts - (ts % this.opts.windowSizeMs); }\n}`),
    ioredis(`export async function f(k: string, windowStart: number, windowSeconds: number) {\n  await redis.expireat(k, windowStart + windowSeconds);\n}`),
    ioredis(`export async function f(k: string, base: number) {\n  await redis.expireat(k, base + 60);\n}`),
  ],
  invalid: [
    {
      // cobaltia: a cache meant to live a day, given 86,400,000 seconds
      code: ioredis(`${SAPPHIRE}export async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', Time.Day);\n}`),
      errors: [
        {
          messageId: 'msAsSeconds',
          data: { where: 'EX (of SET)', text: 'Time.Day', why: '`Time.Day` of @sapphire/time-utilities is in milliseconds (86400000)', fixText: 'Use PX, or convert the value.' },
          line: 5,
          column: 31,
          suggestions: [{ messageId: 'useInstead', output: ioredis(`${SAPPHIRE}export async function f(k: string, v: string) {\n  await redis.set(k, v, 'PX', Time.Day);\n}`) }],
        },
      ],
    },
    {
      code: ioredis(`import { Time } from '@sapphire/duration';\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', Time.Second * 30);\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 5, column: 31, suggestions: [{ messageId: 'useInstead', output: ioredis(`import { Time } from '@sapphire/duration';\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'PX', Time.Second * 30);\n}`) }] }],
    },
    {
      code: ioredis(`const { Time: T } = require('@sapphire/time-utilities');\nexport async function f(k: string) {\n  await redis.expire(k, 30 * T.Minute);\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 5, column: 25, suggestions: [{ messageId: 'useInstead', output: ioredis(`const { Time: T } = require('@sapphire/time-utilities');\nexport async function f(k: string) {\n  await redis.pexpire(k, 30 * T.Minute);\n}`) }] }],
    },
    {
      code: nodeRedis(`${SAPPHIRE}export async function f(k: string, v: string) {\n  await client.set(k, v, { EX: Time.Hour });\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 5, column: 32, suggestions: [{ messageId: 'useInstead', output: nodeRedis(`${SAPPHIRE}export async function f(k: string, v: string) {\n  await client.set(k, v, { PX: Time.Hour });\n}`) }] }],
    },
    {
      // a file's own enum of durations in milliseconds
      code: ioredis(`enum Time { Second = 1000, Minute = Second * 60, Hour = Minute * 60 }\nexport async function f(k: string, v: string) {\n  await redis.setex(k, Time.Hour, v);\n}`),
      errors: [
        {
          messageId: 'msAsSeconds',
          data: { where: 'SETEX', text: 'Time.Hour', why: '`Time.Hour` is one hour counted in milliseconds (3600000)', fixText: 'Use PSETEX, or convert the value.' },
          line: 5,
          column: 24,
          suggestions: [{ messageId: 'useInstead', output: ioredis(`enum Time { Second = 1000, Minute = Second * 60, Hour = Minute * 60 }\nexport async function f(k: string, v: string) {\n  await redis.psetex(k, Time.Hour, v);\n}`) }],
        },
      ],
    },
    {
      code: ioredis(`const TIME = { SECOND: 1000, DAY: 24 * 60 * 60 * 1000 };\nexport async function f(k: string) {\n  await redis.expire(k, TIME.DAY * 7);\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 5, column: 25, suggestions: [{ messageId: 'useInstead', output: ioredis(`const TIME = { SECOND: 1000, DAY: 24 * 60 * 60 * 1000 };\nexport async function f(k: string) {\n  await redis.pexpire(k, TIME.DAY * 7);\n}`) }] }],
    },
    {
      code: ioredis(`const ONE_DAY = 24 * 60 * 60 * 1000;\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', ONE_DAY);\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 5, column: 31, suggestions: [{ messageId: 'useInstead', output: ioredis(`const ONE_DAY = 24 * 60 * 60 * 1000;\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'PX', ONE_DAY);\n}`) }] }],
    },
    {
      // a duration parser's milliseconds
      code: ioredis(`import ms from 'ms';\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', ms('1d'));\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 5, column: 31, suggestions: [{ messageId: 'useInstead', output: ioredis(`import ms from 'ms';\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'PX', ms('1d'));\n}`) }] }],
    },
    {
      code: ioredis(`import { milliseconds } from 'date-fns';\nexport async function f(k: string) {\n  await redis.expire(k, milliseconds({ days: 1 }));\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 5, column: 25, suggestions: [{ messageId: 'useInstead', output: ioredis(`import { milliseconds } from 'date-fns';\nexport async function f(k: string) {\n  await redis.pexpire(k, milliseconds({ days: 1 }));\n}`) }] }],
    },
    {
      // a date library's method names its unit
      code: ioredis(`export async function f(k: string, v: string, d: { toMillis(): number }) {\n  await redis.set(k, v, 'EX', d.toMillis());\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 4, column: 31, suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function f(k: string, v: string, d: { toMillis(): number }) {\n  await redis.set(k, v, 'PX', d.toMillis());\n}`) }] }],
    },
    {
      // seconds where milliseconds are counted
      code: ioredis(`const ONE_HOUR = 3600;\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'PX', ONE_HOUR);\n}`),
      errors: [{ messageId: 'secondsAsMs', line: 5, column: 31, suggestions: [{ messageId: 'useInstead', output: ioredis(`const ONE_HOUR = 3600;\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', ONE_HOUR);\n}`) }] }],
    },
    {
      code: ioredis(`export async function f(k: string, d: { total(o: object): number }) {\n  await redis.pexpire(k, d.total({ unit: 'second' }));\n}`),
      errors: [{ messageId: 'secondsAsMs', line: 4, column: 26, suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function f(k: string, d: { total(o: object): number }) {\n  await redis.expire(k, d.total({ unit: 'second' }));\n}`) }] }],
    },
    {
      // a value nothing names plus a span in milliseconds: a time in milliseconds, EXPIREAT counts seconds
      code: ioredis(`export async function f(k: string, windowStart: number, windowSizeMs: number) {\n  await redis.expireat(k, windowStart + windowSizeMs);\n}`),
      errors: [{ messageId: 'absoluteUnit', line: 4, column: 27, suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function f(k: string, windowStart: number, windowSizeMs: number) {\n  await redis.pexpireat(k, windowStart + windowSizeMs);\n}`) }] }],
    },
    {
      // and one in seconds: PEXPIREAT counts milliseconds
      code: ioredis(`export async function f(k: string, windowStart: number, windowSeconds: number) {\n  await redis.pexpireat(k, windowStart + windowSeconds);\n}`),
      errors: [{ messageId: 'absoluteUnit', line: 4, column: 28, suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function f(k: string, windowStart: number, windowSeconds: number) {\n  await redis.expireat(k, windowStart + windowSeconds);\n}`) }] }],
    },
    {
      // still a span for EX: a value plus a span in milliseconds
      code: ioredis(`export async function f(k: string, v: string, base: number, extraMs: number) {\n  await redis.set(k, v, 'EX', base + extraMs);\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 4, column: 31, suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function f(k: string, v: string, base: number, extraMs: number) {\n  await redis.set(k, v, 'PX', base + extraMs);\n}`) }] }],
    },
  ],
});
