/**
 * TTL arithmetic, as expire-needs-positive-ttl and ttl-units read it:
 *
 * - a lifetime nothing bounds minus a positive constant margin (`expires_in - 60`, a provider's
 *   token lifetime) is positive in practice: not reported by `recommended`, reported with
 *   `checkParameters` (`strict`); a difference of two points in time (`expiresAt - Date.now()`) is
 *   <= 0 once the deadline passed and stays reported, also with a margin taken off it;
 * - a difference of two points in time is a duration in the points' unit (`hardExpiresAt - now`,
 *   both seconds, is a TTL in seconds); a point minus a value nothing names is not known to be
 *   either; `x / 1000` is seconds, whether a span or a point (EXPIREAT of `end / 1000`, with `end`
 *   the milliseconds Date's setters return, is a Unix time in seconds).
 */
import positive from '../../rules/expire-needs-positive-ttl.js';
import ttlUnits from '../../rules/ttl-units.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const STRICT = [{ checkParameters: true }] as const;

runRule(untypedTester, 'expire-needs-positive-ttl', positive, {
  valid: [
    // a provider's token lifetime minus a margin
    ioredis(`export async function save(token: { access_token: string; expires_in: number }) {\n  await redis.set('paypal:token', token.access_token, 'EX', token.expires_in - 60);\n}`),
    ioredis(`export async function save(data: any) {\n  const { access_token, expires_in } = data;\n  await redis.setex(\`tok:\${data.id}\`, expires_in - 300, access_token);\n}`),
    nodeRedis(`export async function save(id: string, res: any) {\n  await client.set(\`tok:\${id}\`, res.token, { EX: Number(res.expiresIn) - 30 });\n}`),
    // a bounded lifetime minus a margin
    ioredis(`export async function f(k: string, ttl: number) {\n  await redis.expire(k, Math.max(120, ttl) - 60);\n}`),
  ],
  invalid: [
    {
      code: ioredis(`export async function save(token: { expires_in: number }) {\n  await redis.expire('paypal:token', token.expires_in - 60);\n}`),
      options: STRICT,
      errors: [
        {
          messageId: 'computed',
          line: 4,
          column: 38,
          suggestions: [{ messageId: 'clampToOne', output: ioredis(`export async function save(token: { expires_in: number }) {\n  await redis.expire('paypal:token', Math.max(1, token.expires_in - 60));\n}`) }],
        },
      ],
    },
    {
      // a remaining time, with or without a margin taken off: <= 0 once the deadline passed; the
      // EXPIRE family then deletes the key, which is its expiry (strict only; SET ... EX: below)
      code: ioredis(`export async function f(k: string, expiresAt: number) {\n  await redis.pexpire(k, expiresAt - Date.now() - 1000);\n}`),
      options: STRICT,
      errors: [
        {
          messageId: 'computed',
          data: { text: 'expiresAt - Date.now() - 1000', why: 'is the time left until a moment, <= 0 once it has passed', effect: 'PEXPIRE then deletes `k`, and a later write recreates it without TTL.', guard: '`const ttl = ...; if (ttl <= 0) ...`, on the computed value' },
          line: 4,
          column: 26,
          suggestions: [{ messageId: 'clampToOne', output: ioredis(`export async function f(k: string, expiresAt: number) {\n  await redis.pexpire(k, Math.max(1, expiresAt - Date.now() - 1000));\n}`) }],
        },
      ],
    },
    {
      code: ioredis(`export async function f(k: string, session: { expiresAt: Date }) {\n  const ttl = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000) - 5;\n  await redis.expire(k, ttl);\n}`),
      options: STRICT,
      errors: [{ messageId: 'computed', line: 5, column: 25, suggestions: [{ messageId: 'clampToOne', output: ioredis(`export async function f(k: string, session: { expiresAt: Date }) {\n  const ttl = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000) - 5;\n  await redis.expire(k, Math.max(1, ttl));\n}`) }] }],
    },
  ],
});

runRule(untypedTester, 'ttl-units', ttlUnits, {
  valid: [
    // a difference of two points in time: a duration in their unit
    ioredis(`export async function touch(k: string, session: { hardExpiresAt: number }) {\n  const now = nowSec();\n  const remaining = session.hardExpiresAt - now;\n  if (remaining <= 0) return;\n  await redis.set(k, 'v', 'EX', remaining);\n}`),
    ioredis(`export async function f(k: string, expiresAtSec: number) {\n  await redis.expire(k, expiresAtSec - nowSeconds());\n}`),
    ioredis(`export async function f(k: string, expiresAtMs: number, nowMs: number) {\n  await redis.pexpire(k, expiresAtMs - nowMs);\n}`),
    // a point minus a value nothing names: a span or an earlier point, nobody can tell
    ioredis(`export async function f(k: string, expiresAt: number, started: number) {\n  await redis.expire(k, expiresAt - started);\n}`),
    // ms / 1000 is seconds: a Unix time in seconds for EXPIREAT
    ioredis(`export async function f(k: string) {\n  const end = new Date().setUTCHours(23, 59, 59, 999);\n  await redis.expireat(k, Math.floor(end / 1000));\n}`),
    ioredis(`export async function f(k: string, d: Date) {\n  await redis.expireat(k, Math.floor(d.setHours(24, 0, 0, 0) / 1000));\n}`),
    nodeRedis(`export async function f(k: string, at: number) {\n  await client.expireAt(k, Math.ceil(at / 1000));\n}`),
    ioredis(`export async function f(k: string, t: number) {\n  await redis.pexpireat(k, t * 1000);\n}`),
  ],
  invalid: [
    {
      // a Unix time minus a span stays a point in time
      code: ioredis(`export async function f(k: string, expiresAt: number) {\n  await redis.expire(k, expiresAt - 60);\n}`),
      // (no suggestion: the name does not say in which unit)
      errors: [{ messageId: 'absoluteAsDuration', line: 4, column: 25, suggestions: [] }],
    },
    {
      // the end of today in ms, as EXPIREAT seconds: still the wrong unit
      code: ioredis(`export async function f(k: string) {\n  const end = new Date().setUTCHours(23, 59, 59, 999);\n  await redis.expireat(k, end);\n}`),
      errors: [{ messageId: 'absoluteUnit', line: 5, column: 27, suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function f(k: string) {\n  const end = new Date().setUTCHours(23, 59, 59, 999);\n  await redis.pexpireat(k, end);\n}`) }] }],
    },
    {
      // x / 1000 is seconds, whatever x is: PEXPIRE takes milliseconds
      code: ioredis(`export async function f(k: string, x: number) {\n  await redis.pexpire(k, Math.ceil(x / 1000));\n}`),
      errors: [{ messageId: 'secondsAsMs', line: 4, column: 26, suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function f(k: string, x: number) {\n  await redis.expire(k, Math.ceil(x / 1000));\n}`) }] }],
    },
    {
      // a named span divided is still a span: EXPIREAT of it is a time in 1970
      code: ioredis(`export async function f(k: string, ttlMs: number) {\n  await redis.expireat(k, ttlMs / 1000);\n}`),
      errors: [{ messageId: 'durationAsAbsolute', line: 4, column: 27, suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function f(k: string, ttlMs: number) {\n  await redis.expire(k, ttlMs / 1000);\n}`) }] }],
    },
  ],
});
