/**
 * TTL arithmetic from points in time and constants (issue 25, sixth round), as
 * expire-needs-positive-ttl and ttl-units read it:
 *
 * - a time left until a moment (`deadline - Date.now()`, `exp - now`) given to the EXPIRE family
 *   is <= 0 once the moment has passed, and EXPIRE then deletes the key, which is what its expiry
 *   means: reported with `checkParameters` (strict) only; SET ... EX / SETEX / GETEX reject it
 *   ("invalid expire time"), which stays reported; divided without rounding it is a fraction,
 *   which even EXPIRE rejects;
 * - the expiry of a token a verify call just accepted is later than now: not a risk;
 * - a current time rounded down (`Math.floor(Date.now() / 1000)`) is a Unix time, never small, and
 *   rounding a subtrahend down makes a difference larger, not smaller;
 * - constants the folding cannot read: `ms('24h')` of the `ms` package is folded (86400000), a
 *   CONSTANT_CASE name (`Threshold.JWT_LIFESPAN`, from a package) divided is its author's whole
 *   amount; `Math.floor(n + n / 2)` is at least `n`; the caller's TTL converted and rounded down
 *   (`Math.floor(ttlMs / 1000)`) is as trusted as the parameter itself (strict reports it);
 * - a literal `expire(key, 0)` without condition (or with LT) is a DEL the code means: strict
 *   only; a constant that folds to 0 stays reported, and so do NX / XX (a conditional delete) and
 *   `expire(key, 0, 'GT')`, which does nothing (its own message);
 * - ttl-units: a named second in milliseconds (`TIME_MS.second`, `MS_PER_SECOND`) converts as 1000.
 */
import positive from '../../rules/expire-needs-positive-ttl.js';
import ttlUnits from '../../rules/ttl-units.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const STRICT = [{ checkParameters: true }] as const;

const workadventure = ioredis(
  `export async function save(k: string, maxExpire?: number) {\n  await redis.hset(k, 'f', 'v');\n  if (maxExpire !== undefined) await redis.expire(k, Math.floor((maxExpire - new Date().getTime()) / 1000));\n}`,
);
const pexpireLeft = ioredis(`export async function f(k: string, deadline: Date) {\n  await redis.pexpire(k, deadline.getTime() - Date.now());\n}`);
const nodeRedisLeft = nodeRedis(`export async function f(k: string, session: { expiresAt: number }) {\n  await client.expire(k, session.expiresAt - Math.floor(Date.now() / 1000));\n}`);
const verified = ioredis(
  `export async function login(k: string, idToken: string, now: Date) {\n  const token = await verifyIDToken(idToken, now);\n  const lastSeen = Math.round(now.getTime() / 1000);\n  await redis.set(k, lastSeen, 'EX', token.exp - lastSeen, 'NX');\n}`,
);
const decoded = ioredis(
  `export async function block(k: string, raw: string) {\n  const token = jwt.decode(raw);\n  const lastSeen = Math.round(Date.now() / 1000);\n  await redis.set(k, 1, 'EX', token.exp - lastSeen);\n}`,
);
const expNow = ioredis(`export async function f(k: string, exp: number) {\n  const now = Math.floor(Date.now() / 1000);\n  await redis.set(k, 'v', 'EX', exp - now);\n}`);

runRule(untypedTester, 'expire-needs-positive-ttl (time left, constants)', positive, {
  valid: [
    workadventure,
    pexpireLeft,
    nodeRedisLeft,
    verified,
    ioredis(`export async function f(k: string, t: string) {\n  const { payload } = await jwtVerify(t, key);\n  await redis.setex(k, payload.exp - Math.floor(Date.now() / 1000), '1');\n}`),
    // constants the folding does not read, and constants of the ms package
    ioredis(
      `import { Threshold } from 'client/consts';\nexport async function f(k: string, iat: number) {\n  const expiresIn = iat - toEpochSeconds(new Date()) + Math.floor(Threshold.JWT_LIFESPAN / 1000);\n  await redis.set(k, iat, 'EX', expiresIn);\n}`,
    ),
    ioredis(`import { SESSION_TTL_MS } from '@acme/config';\nredis.expire(k, SESSION_TTL_MS / 1000);`),
    ioredis(`import ms from 'ms';\nconst FRESH = Math.floor(ms('24h') / 1000);\nredis.set(k, v, 'EX', FRESH);`),
    ioredis(`const ms = require('ms');\nredis.expire(k, ms('2 days') / 1000);`),
    ioredis(`const PING = parseInt(process.env.PING) || 25;\nconst pingInterval = Math.floor(PING + PING / 2);\nredis.expire(k, pingInterval);`),
    ioredis(`export async function set(k: string, v: string, { ttlMs }: { ttlMs: number }) {\n  await redis.set(k, v, 'EX', Math.floor(ttlMs / TIME_MS.second));\n}`),
    // EXPIRE 0: a DEL the code means
    ioredis(`export async function expireNow(k: string) {\n  await redis.expire(k, 0);\n}`),
    ioredis(`redis.pexpire(k, -1);`),
  ],
  invalid: [
    {
      // SET ... EX of a time left: Redis rejects it once the moment has passed
      code: expNow,
      errors: [
        {
          messageId: 'computed',
          data: { text: 'exp - now', why: 'is the time left until a moment, <= 0 once it has passed', effect: 'SET ... EX then fails ("invalid expire time"), so the write throws.', guard: '`const ttl = ...; if (ttl <= 0) ...`, on the computed value' },
          line: 5,
          column: 33,
          suggestions: [{ messageId: 'clampToOne', output: expNow.replace("'EX', exp - now", "'EX', Math.max(1, exp - now)") }],
        },
      ],
    },
    {
      // decoded, not verified: nothing says the token has not expired
      code: decoded,
      errors: [{ messageId: 'computed', line: 6, column: 31, suggestions: [{ messageId: 'clampToOne', output: decoded.replace("'EX', token.exp - lastSeen", "'EX', Math.max(1, token.exp - lastSeen)") }] }],
    },
    {
      // a time left divided without rounding: a fraction, which EXPIRE rejects too
      code: ioredis(`export async function f(k: string, expiresAt: number) {\n  await redis.expire(k, (expiresAt - Date.now()) / 1000);\n}`),
      errors: [
        {
          messageId: 'computed',
          data: { text: '(expiresAt - Date.now()) / 1000', why: 'is a division, usually a fraction', effect: 'Redis rejects a fraction ("value is not an integer"), so the write throws.', guard: '`const ttl = ...; if (ttl <= 0) ...`, on the computed value' },
          line: 4,
          column: 25,
          suggestions: [{ messageId: 'clampToOne', output: ioredis(`export async function f(k: string, expiresAt: number) {\n  await redis.expire(k, Math.max(1, Math.ceil((expiresAt - Date.now()) / 1000)));\n}`) }],
        },
      ],
    },
    {
      // strict: the EXPIRE family's time left, and the caller's TTL rounded down
      code: workadventure,
      options: STRICT,
      errors: [{ messageId: 'computed', line: 5, column: 54, suggestions: [{ messageId: 'clampToOne', output: workadventure.replace('expire(k, Math.floor', 'expire(k, Math.max(1, Math.floor').replace('/ 1000));\n}', '/ 1000)));\n}') }] }],
    },
    {
      code: pexpireLeft,
      options: STRICT,
      errors: [{ messageId: 'computed', line: 4, column: 26, suggestions: [{ messageId: 'clampToOne', output: pexpireLeft.replace('deadline.getTime() - Date.now())', 'Math.max(1, deadline.getTime() - Date.now()))') }] }],
    },
    {
      code: ioredis(`export async function f(k: string, ttlMs: number) {\n  await redis.set(k, 'v', 'EX', Math.floor(ttlMs / 1000));\n}`),
      options: STRICT,
      errors: [{ messageId: 'computed', line: 4, column: 33, suggestions: [{ messageId: 'clampToOne', output: ioredis(`export async function f(k: string, ttlMs: number) {\n  await redis.set(k, 'v', 'EX', Math.max(1, Math.floor(ttlMs / 1000)));\n}`) }] }],
    },
    {
      // a member rounded down: the poll interval a class was given can be under a second
      code: ioredis(`export class Queue {\n  constructor(private pollMs: number) {}\n  async lock(k: string) {\n    await redis.set(k, '1', 'EX', Math.floor(this.pollMs * 2 / 1000), 'NX');\n  }\n}`),
      errors: [
        {
          messageId: 'computed',
          line: 6,
          column: 35,
          suggestions: [{ messageId: 'clampToOne', output: ioredis(`export class Queue {\n  constructor(private pollMs: number) {}\n  async lock(k: string) {\n    await redis.set(k, '1', 'EX', Math.max(1, Math.floor(this.pollMs * 2 / 1000)), 'NX');\n  }\n}`) }],
        },
      ],
    },
    {
      // a sum of two divisions rounds down to 0 as well
      code: ioredis(`export async function f(k: string, a: number, b: number) {\n  await redis.expire(k, Math.floor(a / 1000 + b / 1000));\n}`),
      errors: [{ messageId: 'computed', line: 4, column: 25, suggestions: [{ messageId: 'clampToOne', output: ioredis(`export async function f(k: string, a: number, b: number) {\n  await redis.expire(k, Math.max(1, Math.floor(a / 1000 + b / 1000)));\n}`) }] }],
    },
    {
      // a constant of the ms package that folds to 0
      code: ioredis(`import ms from 'ms';\nredis.set(k, v, 'EX', Math.floor(ms('300ms') / 1000));`),
      errors: [{ messageId: 'literalRejected', line: 4, column: 23, data: { command: 'SET ... EX', value: "`Math.floor(ms('300ms') / 1000)` (= 0)", key: 'k' } }],
    },
    {
      // EXPIRE 0 with a condition is no plain delete (GT: it never applies); a constant folding to 0
      code: ioredis(`redis.expire(k, 0, 'GT');\nconst GRACE_MS = 500;\nredis.expire(k, Math.floor(GRACE_MS / 1000));`),
      errors: [
        { messageId: 'literalNeverApplies', line: 3, column: 17, data: { command: 'EXPIRE', value: '0', key: 'k' } },
        { messageId: 'literalDeletes', line: 5, column: 17, data: { command: 'EXPIRE', value: '`Math.floor(GRACE_MS / 1000)` (= 0)', key: 'k' } },
      ],
    },
    {
      // what the condition makes of a TTL <= 0 (semantics' pastExpiry, checked on redis-server 7.0
      // and 8.0): XX / NX delete only a key with / without TTL, GT never applies, on keys and on
      // hash fields alike; LT always deletes, like no condition (recommended leaves it, below)
      code: ioredis(
        `redis.expire(k, 0, 'XX');\nredis.pexpire(k, -1, 'NX');\nredis.expire(k, 0, 'LT');\nredis.call('HEXPIRE', k, 0, 'GT', 'FIELDS', 1, 'f');\nredis.call('HEXPIRE', k, 0, 'XX', 'FIELDS', 1, 'f');\nredis.call('HEXPIRE', k, -1, 'FIELDS', 1, 'f');`,
      ),
      errors: [
        { messageId: 'literalDeletes', line: 3, column: 17, data: { command: 'EXPIRE', value: '0', key: 'k' } },
        { messageId: 'literalDeletes', line: 4, column: 18, data: { command: 'PEXPIRE', value: '-1', key: 'k' } },
        { messageId: 'literalNeverApplies', line: 6, column: 26, data: { command: 'HEXPIRE', value: '0', key: 'k' } },
        { messageId: 'literalDeletes', line: 7, column: 26, data: { command: 'HEXPIRE', value: '0', key: 'k' } },
        { messageId: 'literalRejected', line: 8, column: 26, data: { command: 'HEXPIRE', value: '-1', key: 'k' } },
      ],
    },
    {
      // HSETEX ... EX 0 is accepted (the fields it writes expire at once: not reported as rejected),
      // a negative one is rejected (checked on redis-server 8.0.2); GETEX ... EX 0 is rejected on an
      // existing key
      code: ioredis(
        `redis.call('HSETEX', k, 'EX', 0, 'FIELDS', 1, 'f', 'v');\nredis.call('HSETEX', k, 'EX', -1, 'FIELDS', 1, 'f', 'v');\nredis.getex(k, 'EX', 0);`,
      ),
      errors: [
        { messageId: 'literalRejected', line: 4, column: 31, data: { command: 'HSETEX ... EX', value: '-1', key: 'k' } },
        { messageId: 'literalRejected', line: 5, column: 22, data: { command: 'GETEX ... EX', value: '0', key: 'k' } },
      ],
    },
    {
      code: ioredis(`export async function expireNow(k: string) {\n  await redis.expire(k, 0);\n}`),
      options: STRICT,
      errors: [{ messageId: 'literalDeletes', line: 4, column: 25, data: { command: 'EXPIRE', value: '0', key: 'k' } }],
    },
  ],
});

runRule(untypedTester, 'ttl-units (a named second)', ttlUnits, {
  valid: [
    ioredis(`export async function set(k: string, v: string, { ttlMs }: { ttlMs: number }) {\n  await redis.set(k, v, 'EX', Math.floor(ttlMs / TIME_MS.second));\n}`),
    ioredis(`export async function set(k: string, ttlMs: number) {\n  await redis.expire(k, Math.ceil(ttlMs / MS_PER_SECOND));\n}`),
    ioredis(`export async function set(k: string, ttlSeconds: number) {\n  await redis.pexpire(k, ttlSeconds * ONE_SECOND_MS);\n}`),
  ],
  invalid: [
    {
      code: ioredis(`export async function set(k: string, ttlSeconds: number) {\n  await redis.expire(k, ttlSeconds * MS_PER_SECOND);\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 4, column: 25, suggestions: [{ messageId: 'useInstead', output: ioredis(`export async function set(k: string, ttlSeconds: number) {\n  await redis.pexpire(k, ttlSeconds * MS_PER_SECOND);\n}`) }] }],
    },
    {
      // milliseconds to EXPIRE (grist-core's webhook statistics)
      code: ioredis(`const STATS_CACHE_TTL = 1000 * 60 * 24;\nredis.expire(k, STATS_CACHE_TTL);`),
      errors: [{ messageId: 'msAsSeconds', line: 4, column: 17, suggestions: [{ messageId: 'useInstead', output: ioredis(`const STATS_CACHE_TTL = 1000 * 60 * 24;\nredis.pexpire(k, STATS_CACHE_TTL);`) }] }],
    },
  ],
});
