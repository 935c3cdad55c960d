/**
 * `ttl-units`: seconds held in a name that says milliseconds. Where the value's own computation
 * shows its unit, it beats the name, in both directions: a division by a literal 1000 (or by a
 * named second in milliseconds) of a value in milliseconds (a difference with `Date.now()` or a
 * `const now = Date.now()`, a name or product in milliseconds) is seconds, so `const ttlMs =
 * Math.ceil((resetTime - now) / 1000); redis.setex(key, ttlMs, v)` gives SETEX seconds, as it
 * must; the same value given to PSETEX / PX is reported as seconds. The other direction
 * (`ttlSeconds = Date.now() - startedAt` to EXPIRE: milliseconds) stays reported.
 *
 * Near misses that stay reported: a division of a value nothing shows in milliseconds
 * (`Math.ceil(x / 1000)` under `ttlMs`: the name is believed), and a 1000 that is a constant of
 * another meaning.
 */
import ttlUnits from '../../rules/ttl-units.js';
import { ioredis, runRule, untypedTester } from './tester.js';

const LIMITER = (body: string) => ioredis(`export async function hit(key: string, info: { resetTime: number; count: number }) {\n  const now = Date.now();\n${body}\n}`);

runRule(untypedTester, 'ttl-units', ttlUnits, {
  valid: [
    // flash-sale-platform's rate limiter: seconds left in the window, under a name in ms
    LIMITER(`  const ttlMs = Math.ceil((info.resetTime - now) / 1000);\n  await redis.setex(key, ttlMs, JSON.stringify(info));`),
    LIMITER(`  const ttlMs = Math.ceil((info.resetTime - Date.now()) / 1000);\n  await redis.expire(key, ttlMs);`),
    // a name in milliseconds divided by a literal 1000
    ioredis(`const WINDOW_MS = 60_000;\nexport async function f(k: string) {\n  const expiryMs = Math.floor(WINDOW_MS / 1000);\n  await redis.expire(k, expiryMs);\n}`),
    // a clock difference in milliseconds under a name in seconds, converted: seconds either way
    ioredis(`export async function f(k: string, startedAt: number) {\n  const elapsedSeconds = Math.round((Date.now() - startedAt) / 1000);\n  await redis.expire(k, elapsedSeconds);\n}`),
  ],
  invalid: [
    {
      // the seconds value given where milliseconds are counted: 1000 times too short
      code: LIMITER(`  const ttlMs = Math.ceil((info.resetTime - now) / 1000);\n  await redis.psetex(key, ttlMs, JSON.stringify(info));`),
      errors: [
        {
          messageId: 'secondsAsMs',
          line: 6,
          column: 27,
          suggestions: [{ messageId: 'useInstead', output: LIMITER(`  const ttlMs = Math.ceil((info.resetTime - now) / 1000);\n  await redis.setex(key, ttlMs, JSON.stringify(info));`) }],
        },
      ],
    },
    {
      // nothing shows `x` in milliseconds: the name is believed, SETEX takes seconds
      code: ioredis(`export async function f(k: string, x: number) {\n  const ttlMs = Math.ceil(x / 1000);\n  await redis.setex(k, ttlMs, 'v');\n}`),
      errors: [
        {
          messageId: 'msAsSeconds',
          line: 5,
          column: 24,
          suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function f(k: string, x: number) {\n  const ttlMs = Math.ceil(x / 1000);\n  await redis.psetex(k, ttlMs, 'v');\n}`) }],
        },
      ],
    },
    {
      // 1000 as a count, not a second in milliseconds: the name is believed
      code: LIMITER(`  const MAX_ITEMS = 1000;\n  const ttlMs = Math.ceil((info.resetTime - now) / MAX_ITEMS);\n  await redis.expire(key, ttlMs);`),
      errors: [
        {
          messageId: 'msAsSeconds',
          line: 7,
          column: 27,
          suggestions: [{ messageId: 'useInstead', output: LIMITER(`  const MAX_ITEMS = 1000;\n  const ttlMs = Math.ceil((info.resetTime - now) / MAX_ITEMS);\n  await redis.pexpire(key, ttlMs);`) }],
        },
      ],
    },
    {
      // the other direction, read from values already: milliseconds of a clock difference under a name in seconds
      code: ioredis(`export async function f(k: string, startedAt: number) {\n  const ttlSeconds = Date.now() - startedAt;\n  await redis.expire(k, ttlSeconds);\n}`),
      errors: [
        {
          messageId: 'msAsSeconds',
          line: 5,
          column: 25,
          suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function f(k: string, startedAt: number) {\n  const ttlSeconds = Date.now() - startedAt;\n  await redis.pexpire(k, ttlSeconds);\n}`) }],
        },
      ],
    },
  ],
});
