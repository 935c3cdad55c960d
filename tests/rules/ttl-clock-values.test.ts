/**
 * `ttl-units`: what a local is computed from tells more than its name.
 *
 * - a value made by adding a span to the wall clock (`Date.now()`, `getTime()`, `Date.parse()`,
 *   `new Date(s).valueOf()`, `now`, `Math.floor(Date.now() / 1000) + d`) is a point in time
 *   whatever its name: `const expiresInSeconds = Date.now() + weeksInSeconds` given as SETEX
 *   seconds keeps the key for tens of thousands of years;
 * - near misses: a time left (`expiresAt - Date.now()`) is a span; such a point given to PXAT /
 *   EXPIREAT / PEXPIREAT in its unit is what they take; a local named as a point in time
 *   (`refreshAt`) but computed from durations only is a span, whatever its name.
 */
import ttlUnits from '../../rules/ttl-units.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

runRule(untypedTester, 'ttl-units', ttlUnits, {
  valid: [
    // a time left until a point in time: a span in the points' unit
    ioredis(`export async function f(k: string, expiresAt: number) {\n  const ttlSeconds = Math.floor((expiresAt - Date.now()) / 1000);\n  await redis.setex(k, ttlSeconds, 'v');\n}`),
    ioredis(`export async function f(k: string, session: { expiresAt: Date }) {\n  const remainingMs = session.expiresAt.getTime() - Date.now();\n  await redis.pexpire(k, remainingMs);\n}`),
    // the clock plus a span given to the command that takes a point in time in that unit
    ioredis(`export async function f(k: string, d: number) {\n  const expiresInSeconds = Math.floor(Date.now() / 1000) + d;\n  await redis.expireat(k, expiresInSeconds);\n}`),
    ioredis(`export async function f(k: string, d: number) {\n  const untilMs = Date.now() + d;\n  await redis.pexpireat(k, untilMs);\n  await redis.set(k, 'v', 'PXAT', untilMs);\n}`),
    nodeRedis(`export async function f(k: string, ttlMs: number) {\n  const lifetimeMs = new Date().getTime() + ttlMs;\n  await client.set(k, 'v', { PXAT: lifetimeMs });\n}`),
    // named as a point in time, computed from durations only: a span
    ioredis(`const MINUTE_SECONDS = 60;\nexport async function f(k: string, ttlSeconds: number) {\n  const refreshAt = ttlSeconds * 2;\n  await redis.expire(k, refreshAt);\n  const resetAt = 15 * MINUTE_SECONDS;\n  await redis.set(k, 'v', 'EX', resetAt);\n}`),
    // a value nothing names plus a constant: neither a point nor a span the code tells
    ioredis(`export async function f(k: string, started: number) {\n  const windowSeconds = started + 60;\n  await redis.expire(k, windowSeconds);\n}`),
  ],
  invalid: [
    {
      // a Unix time in milliseconds stored under a name that says seconds, given as SETEX seconds
      code: ioredis(
        `export async function f(k: string, weeks: number) {\n  const weeksInSeconds = weeks * 7 * 24 * 3600;\n  const expiresDateInSeconds = Date.now() + weeksInSeconds;\n  await redis.setex(k, expiresDateInSeconds, 'v');\n}`,
      ),
      errors: [
        {
          messageId: 'absoluteAsDuration',
          data: {
            where: 'SETEX',
            text: 'expiresDateInSeconds',
            why: 'it is `Date.now() + weeksInSeconds`, read from the clock, whatever its name says',
            fixText: 'Convert the value to what the command expects.',
            expected: 'seconds',
            actual: 'milliseconds',
          },
          line: 6,
          column: 24,
          suggestions: [],
        },
      ],
    },
    {
      // the clock in seconds plus a span, as EX: a point in time; EXAT takes it as it is
      code: ioredis(`export async function f(k: string, ttlSeconds: number) {\n  const expirySeconds = Math.floor(Date.now() / 1000) + ttlSeconds;\n  await redis.set(k, 'v', 'EX', expirySeconds);\n}`),
      errors: [
        {
          messageId: 'absoluteAsDuration',
          line: 5,
          column: 33,
          suggestions: [{ messageId: 'useInstead', data: { replacement: 'EXAT' }, output: ioredis(`export async function f(k: string, ttlSeconds: number) {\n  const expirySeconds = Math.floor(Date.now() / 1000) + ttlSeconds;\n  await redis.set(k, 'v', 'EXAT', expirySeconds);\n}`) }],
        },
      ],
    },
    {
      // a parsed date and a date's valueOf() are Unix milliseconds too, through two locals
      code: ioredis(`export async function f(k: string, s: string, ttlMs: number) {\n  const startMs = new Date(s).valueOf();\n  const lifetimeMs = startMs + ttlMs;\n  await redis.pexpire(k, lifetimeMs);\n  const windowMs = Date.parse(s) + ttlMs;\n  await redis.psetex(k, windowMs, 'v');\n}`),
      errors: [
        {
          messageId: 'absoluteAsDuration',
          line: 6,
          column: 26,
          suggestions: [{ messageId: 'useInstead', data: { replacement: 'PEXPIREAT' }, output: ioredis(`export async function f(k: string, s: string, ttlMs: number) {\n  const startMs = new Date(s).valueOf();\n  const lifetimeMs = startMs + ttlMs;\n  await redis.pexpireat(k, lifetimeMs);\n  const windowMs = Date.parse(s) + ttlMs;\n  await redis.psetex(k, windowMs, 'v');\n}`) }],
        },
        { messageId: 'absoluteAsDuration', line: 8, column: 25, suggestions: [] },
      ],
    },
    {
      // `now` plus a span under a name that says seconds, as EXPIRE seconds
      code: ioredis(`export async function f(k: string) {\n  const now = Date.now();\n  const expirySec = now + 60_000;\n  await redis.expire(k, expirySec);\n}`),
      errors: [
        {
          messageId: 'absoluteAsDuration',
          line: 6,
          column: 25,
          suggestions: [{ messageId: 'useInstead', data: { replacement: 'PEXPIREAT' }, output: ioredis(`export async function f(k: string) {\n  const now = Date.now();\n  const expirySec = now + 60_000;\n  await redis.pexpireat(k, expirySec);\n}`) }],
        },
      ],
    },
    {
      // the clock in milliseconds under a name that says seconds, as EXAT: milliseconds, not seconds
      code: ioredis(`export async function f(k: string, d: number) {\n  const deadlineSeconds = Date.now() + d;\n  await redis.set(k, 'v', 'EXAT', deadlineSeconds);\n}`),
      errors: [
        {
          messageId: 'absoluteUnit',
          line: 5,
          column: 35,
          suggestions: [{ messageId: 'useInstead', data: { replacement: 'PXAT' }, output: ioredis(`export async function f(k: string, d: number) {\n  const deadlineSeconds = Date.now() + d;\n  await redis.set(k, 'v', 'PXAT', deadlineSeconds);\n}`) }],
        },
      ],
    },
    {
      // named as a point in time, computed from durations only: a span, and EXPIREAT of it is 1970
      code: ioredis(`export async function f(k: string) {\n  const resetAt = 15 * 60;\n  await redis.expireat(k, resetAt);\n}`),
      errors: [{ messageId: 'durationAsAbsolute', line: 5, column: 27, suggestions: [] }],
    },
    {
      // a name that says a point in time and nothing the code computes: still a point in time
      code: ioredis(`export async function f(k: string, expiresAt: number) {\n  await redis.expire(k, expiresAt);\n}`),
      errors: [{ messageId: 'absoluteAsDuration', line: 4, column: 25, suggestions: [] }],
    },
  ],
});
