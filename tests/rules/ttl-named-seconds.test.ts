/**
 * `ttl-units`: milliseconds held in a name that says seconds. The name is the author's intent, the
 * value is what Redis receives: where the value's own shape shows milliseconds (a product by a
 * literal 1000 or by a named second in milliseconds, `ms('10m')`, `Time.Minute`, a difference of
 * clock readings in milliseconds), it beats a name that says seconds
 * (`const expirationSeconds = 10 * 60 * 1000; redis.expire(key, expirationSeconds)` keeps a
 * 10-minute cache about a week).
 *
 * Limits: durations in seconds (`ttlSeconds = 60 * 60 * 24`), a conversion to seconds (`ms / 1000`),
 * a name saying milliseconds given to PEXPIRE, a bare literal (`ttlSeconds = 86400000`: no
 * arithmetic shows a conversion, the name is believed), a 1000 that is a constant of another
 * meaning (`MAX_ITEMS * 60`), and a name saying ms that holds a seconds-shaped value (not this kind).
 */
import ttlUnits from '../../rules/ttl-units.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

runRule(untypedTester, 'ttl-units', ttlUnits, {
  valid: [
    // durations in seconds under a name in seconds
    ioredis(`const ttlSeconds = 60 * 60 * 24;\nexport async function f(k: string) {\n  await redis.expire(k, ttlSeconds);\n}`),
    ioredis(`const YEAR_SECONDS = 60 * 60 * 24 * 365;\nexport async function f(k: string, v: string) {\n  await redis.set(k, v, 'EX', YEAR_SECONDS);\n}`),
    // milliseconds converted to seconds
    ioredis(`export async function f(k: string, ms: number) {\n  const ttlSeconds = ms / 1000;\n  await redis.expire(k, ttlSeconds);\n  const windowSecs = Math.ceil((10 * 60 * 1000) / 1000);\n  await redis.expire(k, windowSecs);\n}`),
    // a name saying milliseconds given to PEXPIRE / PX
    ioredis(`const ttlMs = 10 * 60 * 1000;\nexport async function f(k: string, v: string) {\n  await redis.pexpire(k, ttlMs);\n  await redis.set(k, v, 'PX', ttlMs);\n}`),
    // a bare literal: no arithmetic shows a conversion, the name is believed
    ioredis(`const ttlSeconds = 86400000;\nexport async function f(k: string) {\n  await redis.expire(k, ttlSeconds);\n}`),
    // a constant that is 1000 by another meaning is no conversion
    ioredis(`const MAX_ITEMS = 1000;\nconst windowSeconds = MAX_ITEMS * 60;\nexport async function f(k: string) {\n  await redis.expire(k, windowSeconds);\n}`),
    // milliseconds under a name in seconds given where milliseconds are counted: the value is right
    ioredis(`const expirationSeconds = 10 * 60 * 1000;\nexport async function f(k: string) {\n  await redis.pexpire(k, expirationSeconds);\n}`),
  ],
  invalid: [
    {
      // InterChat's HubModeratorManager: `// 10 minutes`, a field in milliseconds named seconds
      code: ioredis(
        `export class Mods {\n  private readonly key = 'mods';\n  // 10 minutes\n  private readonly expirationSeconds = 10 * 60 * 1000;\n  async store() {\n    await redis.hset(this.key, 'a', '1');\n    await redis.expire(this.key, this.expirationSeconds);\n  }\n}`,
      ),
      errors: [
        {
          messageId: 'msAsSeconds',
          data: {
            where: 'EXPIRE',
            text: 'this.expirationSeconds',
            why: 'it is `10 * 60 * 1000`, milliseconds by its value, whatever its name says',
            fixText: 'Use PEXPIRE, or convert the value.',
          },
          line: 9,
          column: 34,
          suggestions: [
            {
              messageId: 'useInstead',
              data: { replacement: 'PEXPIRE' },
              output: ioredis(
                `export class Mods {\n  private readonly key = 'mods';\n  // 10 minutes\n  private readonly expirationSeconds = 10 * 60 * 1000;\n  async store() {\n    await redis.hset(this.key, 'a', '1');\n    await redis.pexpire(this.key, this.expirationSeconds);\n  }\n}`,
              ),
            },
          ],
        },
      ],
    },
    {
      // a `const` local given as EX, and the same through a `const` object's property
      code: ioredis(`const CACHE = { ttlSecs: 1000 * 60 * 5 };\nexport async function f(k: string, v: string) {\n  const ttlSecs = 5 * 60 * 1000;\n  await redis.set(k, v, 'EX', ttlSecs);\n  await redis.set(k, v, 'EX', CACHE.ttlSecs);\n}`),
      errors: [
        {
          messageId: 'msAsSeconds',
          data: { where: 'EX (of SET)', text: 'ttlSecs', why: 'it is `5 * 60 * 1000`, milliseconds by its value, whatever its name says', fixText: 'Use PX, or convert the value.' },
          line: 6,
          column: 31,
          suggestions: [{ messageId: 'useInstead', output: ioredis(`const CACHE = { ttlSecs: 1000 * 60 * 5 };\nexport async function f(k: string, v: string) {\n  const ttlSecs = 5 * 60 * 1000;\n  await redis.set(k, v, 'PX', ttlSecs);\n  await redis.set(k, v, 'EX', CACHE.ttlSecs);\n}`) }],
        },
        {
          messageId: 'msAsSeconds',
          line: 7,
          column: 31,
          suggestions: [{ messageId: 'useInstead', output: ioredis(`const CACHE = { ttlSecs: 1000 * 60 * 5 };\nexport async function f(k: string, v: string) {\n  const ttlSecs = 5 * 60 * 1000;\n  await redis.set(k, v, 'EX', ttlSecs);\n  await redis.set(k, v, 'PX', CACHE.ttlSecs);\n}`) }],
        },
      ],
    },
    {
      // a duration parser, a named second in milliseconds, a difference of clock readings
      code: ioredis(
        `import ms from 'ms';\nconst MS_PER_SECOND = 1000;\nconst LOCK_SECONDS = ms('10m');\nconst WINDOW_SECONDS = 30 * MS_PER_SECOND;\nexport async function f(k: string, end: Date) {\n  await redis.expire(k, LOCK_SECONDS);\n  await redis.expire(k, WINDOW_SECONDS);\n  const remainingSeconds = end.getTime() - Date.now();\n  await redis.setex(k, remainingSeconds, 'v');\n}`,
      ),
      errors: [
        { messageId: 'msAsSeconds', data: { where: 'EXPIRE', text: 'LOCK_SECONDS', why: "it is `ms('10m')`, milliseconds by its value, whatever its name says", fixText: 'Use PEXPIRE, or convert the value.' }, line: 8, column: 25, suggestions: [{ messageId: 'useInstead', output: ioredis(`import ms from 'ms';\nconst MS_PER_SECOND = 1000;\nconst LOCK_SECONDS = ms('10m');\nconst WINDOW_SECONDS = 30 * MS_PER_SECOND;\nexport async function f(k: string, end: Date) {\n  await redis.pexpire(k, LOCK_SECONDS);\n  await redis.expire(k, WINDOW_SECONDS);\n  const remainingSeconds = end.getTime() - Date.now();\n  await redis.setex(k, remainingSeconds, 'v');\n}`) }] },
        { messageId: 'msAsSeconds', line: 9, column: 25, suggestions: [{ messageId: 'useInstead', output: ioredis(`import ms from 'ms';\nconst MS_PER_SECOND = 1000;\nconst LOCK_SECONDS = ms('10m');\nconst WINDOW_SECONDS = 30 * MS_PER_SECOND;\nexport async function f(k: string, end: Date) {\n  await redis.expire(k, LOCK_SECONDS);\n  await redis.pexpire(k, WINDOW_SECONDS);\n  const remainingSeconds = end.getTime() - Date.now();\n  await redis.setex(k, remainingSeconds, 'v');\n}`) }] },
        { messageId: 'msAsSeconds', data: { where: 'SETEX', text: 'remainingSeconds', why: 'it is `end.getTime() - Date.now()`, milliseconds by its value, whatever its name says', fixText: 'Use PSETEX, or convert the value.' }, line: 11, column: 24, suggestions: [{ messageId: 'useInstead', output: ioredis(`import ms from 'ms';\nconst MS_PER_SECOND = 1000;\nconst LOCK_SECONDS = ms('10m');\nconst WINDOW_SECONDS = 30 * MS_PER_SECOND;\nexport async function f(k: string, end: Date) {\n  await redis.expire(k, LOCK_SECONDS);\n  await redis.expire(k, WINDOW_SECONDS);\n  const remainingSeconds = end.getTime() - Date.now();\n  await redis.psetex(k, remainingSeconds, 'v');\n}`) }] },
      ],
    },
    {
      // a member set once by the constructor, node-redis's option object
      code: nodeRedis(`class Cache {\n  private readonly expirySecs: number;\n  constructor() {\n    this.expirySecs = 60 * 60 * 1000;\n  }\n  async put(k: string, v: string) {\n    await client.set(k, v, { EX: this.expirySecs });\n  }\n}`),
      errors: [{ messageId: 'msAsSeconds', line: 9, column: 34, suggestions: [{ messageId: 'useInstead', output: nodeRedis(`class Cache {\n  private readonly expirySecs: number;\n  constructor() {\n    this.expirySecs = 60 * 60 * 1000;\n  }\n  async put(k: string, v: string) {\n    await client.set(k, v, { PX: this.expirySecs });\n  }\n}`) }] }],
    },
  ],
});
