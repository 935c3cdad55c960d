/**
 * expire-needs-positive-ttl: a remaining time whose deadline was set just before, in the same
 * function, as the clock plus a span (`redis-calls/fresh-deadlines.ts`). `expires.getTime() -
 * Date.now()` with `const expires = new Date(now + SESSION_MAX_AGE)` is the span (less the few
 * milliseconds in between), positive when the span is: judged as the span, not as a deadline that
 * may have passed.
 *
 * Near misses that stay reported: a deadline from a parameter or a member (`opts.expires -
 * Date.now()`), an object literal's deadline a later spread may replace, a deadline set in another
 * function, a deadline built in the function from a clock reading made at module load or before an
 * `await`, a deadline assigned on several paths, a span <= 0, and a difference of two times
 * neither of which is the clock.
 */
import positive from '../../rules/expire-needs-positive-ttl.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const clamp = (code: string, ttl: string) => code.replace(ttl, `Math.max(1, ${ttl})`);
const computed = (code: string, ttl: string, line: number, column: number) => ({
  code,
  errors: [{ messageId: 'computed' as const, line, column, suggestions: [{ messageId: 'clampToOne' as const, output: clamp(code, ttl) }] }],
});

const SESSION = (deadline: string, ttl: string) =>
  ioredis(`const SESSION_MAX_AGE = 7 * 24 * 60 * 60 * 1000;\nexport async function refresh(key: string, data: string) {\n  const now = Date.now();\n  const expires = ${deadline};\n  await redis.set(key, data, 'PX', ${ttl});\n}`);

runRule(untypedTester, 'expire-needs-positive-ttl', positive, {
  valid: [
    // ich-backend's refreshSessionByKey: a Date at now plus the session's age
    SESSION('new Date(now + SESSION_MAX_AGE)', 'expires.getTime() - Date.now()'),
    // a number deadline, minus the same reading of the clock or a later one
    SESSION('now + SESSION_MAX_AGE', 'expires - now'),
    SESSION('SESSION_MAX_AGE + now', 'expires - Date.now()'),
    // the clock read as a Date
    ioredis(`export async function f(key: string, v: string) {\n  const now = new Date();\n  const expires = new Date(now.getTime() + 30 * 60 * 1000);\n  await redis.set(key, v, 'PX', expires.getTime() - Date.now());\n}`),
    // a span from the configuration: judged as the span is (not reported by recommended)
    ioredis(`export async function f(key: string, v: string) {\n  const now = Date.now();\n  const expires = new Date(now + parseInt(process.env.SESSION_MAX_AGE!));\n  await redis.set(key, v, 'PX', expires.getTime() - Date.now());\n}`),
    // node-redis' options object, and SETEX in seconds
    nodeRedis(`export async function f(key: string, v: string) {\n  const deadline = Date.now() + 60_000;\n  await client.set(key, v, { PX: deadline - Date.now() });\n}`),
  ],
  invalid: [
    // a deadline from the caller
    computed(ioredis(`export async function f(key: string, v: string, opts: { expires: number }) {\n  await redis.set(key, v, 'PX', opts.expires - Date.now());\n}`), 'opts.expires - Date.now()', 4, 33),
    // an object literal's deadline that the caller's spread may replace
    computed(
      ioredis(`export async function f(key: string, v: string, cookie?: { expires?: Date }) {\n  const now = new Date();\n  const opt = { expires: new Date(now.getTime() + 60_000), ...cookie };\n  await redis.set(key, v, 'PX', opt.expires.getTime() - Date.now());\n}`),
      'opt.expires.getTime() - Date.now()',
      6,
      33,
    ),
    // set in another function (a module-level deadline computed at start-up)
    computed(ioredis(`const expires = Date.now() + 60_000;\nexport async function f(key: string, v: string) {\n  await redis.set(key, v, 'PX', expires - Date.now());\n}`), 'expires - Date.now()', 5, 33),
    // N read at module load (a start-up time), the deadline built in the function: any time may have passed since
    computed(ioredis(`const START = Date.now();\nexport async function f(key: string, v: string) {\n  const expires = START + 60_000;\n  await redis.set(key, v, 'PX', expires - Date.now());\n}`), 'expires - Date.now()', 6, 33),
    // N read before an await, the deadline built after it: the work may outlast the span
    computed(
      ioredis(`export async function f(key: string, v: string) {\n  const now = Date.now();\n  await work();\n  const expires = now + 60_000;\n  await redis.set(key, v, 'PX', expires - Date.now());\n}\nasync function work() {}`),
      'expires - Date.now()',
      7,
      33,
    ),
    // assigned on several paths
    computed(
      ioredis(`export async function f(key: string, v: string, long: boolean, at: number) {\n  let expires = Date.now() + 60_000;\n  if (long) expires = at;\n  await redis.set(key, v, 'PX', expires - Date.now());\n}`),
      'expires - Date.now()',
      6,
      33,
    ),
    // a span that is not positive
    computed(SESSION('now + 0', 'expires - now'), 'expires - now', 7, 36),
    // two times, neither the clock
    computed(ioredis(`export async function f(key: string, v: string, startedAt: number) {\n  const endsAt = startedAt + 60_000;\n  const lastSeenAt = await redis.get('seen');\n  await redis.set(key, v, 'PX', endsAt - Number(lastSeenAt));\n}`), 'endsAt - Number(lastSeenAt)', 6, 33),
  ],
});
