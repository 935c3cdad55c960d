/**
 * set-requires-ttl-or-keepttl and SET ... KEEPTTL without XX, which keeps the TTL of an existing
 * key but creates a key that expired or was deleted since it was written again without any TTL
 * (https://redis.io/docs/latest/commands/set/). In `recommended` (`allowKeepTtl`), reported when
 * an earlier round trip of the same function (or of a function enclosing it) gave the same key a
 * TTL (`keepTtlAfterExpiry`); with `allowKeepTtl: false` (`strict`), every one (`keepTtlMayCreate`).
 * Never with XX, after a write with a TTL in the same MULTI, before an expiry in the same MULTI, or
 * for a key the key policy exempts. SET ... NX KEEPTTL writes only a missing key: a create without TTL.
 */
import rule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, untypedTester, upstash } from './tester.js';

const STRICT = [{ allowKeepTtl: false }] as const;

/** The nest-admin shape: a flag set with EX when the request starts, with KEEPTTL when it succeeds. */
const idempotence = (keep: string): string =>
  ioredis(
    `export async function intercept(key: string, next: Handler) {\n  await redis.set(\`idem:\${key}\`, '0', 'EX', 60);\n  return next.handle().pipe(tap(async () => {\n    await redis.set(\`idem:\${key}\`, '1', ${keep});\n  }));\n}`,
  );

runRule(untypedTester, 'set-requires-ttl-or-keepttl', rule, {
  valid: [
    // recommended: nothing in view gave the key a TTL before
    ioredis(`await redis.set(\`sess:\${sid}\`, json, 'KEEPTTL');`),
    nodeRedis(`await client.set(\`sess:\${sid}\`, json, { KEEPTTL: true });`),
    // an earlier write of the key with a TTL in another function: not the same flow
    ioredis(`export async function start(id: string) { await redis.set(\`job:\${id}\`, '0', 'EX', 60); }\nexport async function finish(id: string) { await redis.set(\`job:\${id}\`, '1', 'KEEPTTL'); }`),
    // writes in a row: no time passes between the TTL and the KEEPTTL
    ioredis(`export async function f(key: string, v: string, ttlMs: number) {\n  await redis.set(key, v, 'EX', 60);\n  await redis.set(key, v, 'PX', ttlMs, 'NX');\n  await redis.set(key, v, 'KEEPTTL');\n}`),
    // another key was given the TTL
    ioredis(`export async function f(id: string) {\n  await redis.set(\`a:\${id}\`, '0', 'EX', 60);\n  await redis.set(\`b:\${id}\`, '1', 'KEEPTTL');\n}`),
    // XX: never creates the key (in strict too)
    idempotence(`'KEEPTTL', 'XX'`),
    { code: ioredis(`await redis.set(\`idem:\${id}\`, '1', 'xx', 'keepttl');`), options: STRICT },
    { code: nodeRedis(`await client.set(\`idem:\${id}\`, '1', { KEEPTTL: true, XX: true });`), options: STRICT },
    { code: nodeRedis(`await client.set(\`idem:\${id}\`, '1', { expiration: 'KEEPTTL', condition: 'XX' });`), options: STRICT },
    { code: upstash(`await redis.set(\`idem:\${id}\`, '1', { keepTtl: true, xx: true });`), options: STRICT },
    { code: ioredis(`await redis.call('SET', \`idem:\${id}\`, '1', 'XX', 'KEEPTTL');`), options: STRICT },
    // written with a TTL just before in the same MULTI: the key exists
    { code: ioredis(`await redis.multi().set(\`idem:\${id}\`, '0', 'EX', 60).set(\`idem:\${id}\`, '1', 'KEEPTTL').exec();`), options: STRICT },
    { code: ioredis(`const tx = redis.multi();\ntx.setex(\`idem:\${id}\`, 60, '0');\ntx.incr('n');\ntx.set(\`idem:\${id}\`, '1', 'KEEPTTL');\nawait tx.exec();`), options: STRICT },
    { code: ioredis(`await redis.multi().set(\`lock:\${id}\`, '0', 'EX', 60, 'NX').set(\`lock:\${id}\`, '1', 'KEEPTTL').exec();`), options: STRICT },
    // an expiry follows in the same MULTI
    { code: ioredis(`await redis.multi().set(\`idem:\${id}\`, '1', 'KEEPTTL').expire(\`idem:\${id}\`, 60).exec();`), options: STRICT },
    // the key policy: a declared persistent key
    {
      code: ioredis(`await redis.set(\`config:\${name}\`, v, 'KEEPTTL');`),
      options: STRICT,
      settings: { 'redis-ttl': { persistentKeys: ['config:*'] } },
    },
  ],
  invalid: [
    {
      code: idempotence(`'KEEPTTL'`),
      errors: [
        {
          messageId: 'keepTtlAfterExpiry',
          data: { key: 'idem:*', line: '4', client: '', hint: '' },
          line: 6,
          column: 17,
          suggestions: [{ messageId: 'addXx', output: idempotence(`'KEEPTTL', 'XX'`) }],
        },
      ],
    },
    {
      // the TTL from an EXPIRE; the same function; the token in any letter case, XX added in that case
      code: ioredis(`export async function f(id: string) {\n  await redis.expire(\`s:\${id}\`, 60);\n  await work();\n  await redis.set(\`s:\${id}\`, v, "keepttl");\n}`),
      errors: [
        {
          messageId: 'keepTtlAfterExpiry',
          data: { key: 's:*', line: '4', client: '', hint: '' },
          line: 6,
          column: 15,
          suggestions: [{ messageId: 'addXx', output: ioredis(`export async function f(id: string) {\n  await redis.expire(\`s:\${id}\`, 60);\n  await work();\n  await redis.set(\`s:\${id}\`, v, "keepttl", "xx");\n}`) }],
        },
      ],
    },
    {
      code: nodeRedis(`export async function f(sid: string) {\n  await client.setEx(\`sess:\${sid}\`, 900, json);\n  await render();\n  await client.set(\`sess:\${sid}\`, json2, { KEEPTTL: true });\n}`),
      errors: [
        {
          messageId: 'keepTtlAfterExpiry',
          line: 6,
          column: 16,
          suggestions: [{ messageId: 'addXx', output: nodeRedis(`export async function f(sid: string) {\n  await client.setEx(\`sess:\${sid}\`, 900, json);\n  await render();\n  await client.set(\`sess:\${sid}\`, json2, { XX: true, KEEPTTL: true });\n}`) }],
        },
      ],
    },
    {
      code: upstash(`export async function f(sid: string) {\n  await redis.set(\`sess:\${sid}\`, json, { ex: 900 });\n  await render();\n  await redis.set(\`sess:\${sid}\`, json2, { keepTtl: true });\n}`),
      errors: [
        {
          messageId: 'keepTtlAfterExpiry',
          line: 6,
          column: 15,
          suggestions: [{ messageId: 'addXx', output: upstash(`export async function f(sid: string) {\n  await redis.set(\`sess:\${sid}\`, json, { ex: 900 });\n  await render();\n  await redis.set(\`sess:\${sid}\`, json2, { xx: true, keepTtl: true });\n}`) }],
        },
      ],
    },
    {
      // a constant key the file writes with a TTL is meant to expire
      code: ioredis(`await redis.set('flag', '0', 'EX', 60);\nawait work();\nawait redis.set('flag', '1', 'KEEPTTL');`),
      errors: [{ messageId: 'keepTtlAfterExpiry', line: 5, column: 13, suggestions: [{ messageId: 'addXx', output: ioredis(`await redis.set('flag', '0', 'EX', 60);\nawait work();\nawait redis.set('flag', '1', 'KEEPTTL', 'XX');`) }] }],
    },
    // strict: every KEEPTTL without XX
    {
      code: nodeRedis(`await client.set(\`sess:\${sid}\`, json, { expiration: 'KEEPTTL' });`),
      options: STRICT,
      errors: [
        {
          messageId: 'keepTtlMayCreate',
          data: { key: 'sess:*', client: '', hint: " Kept forever on purpose? Add 'sess:*' to settings['redis-ttl'].persistentKeys." },
          line: 3,
          column: 14,
          suggestions: [{ messageId: 'addXx', output: nodeRedis(`await client.set(\`sess:\${sid}\`, json, { XX: true, expiration: 'KEEPTTL' });`) }],
        },
      ],
    },
    {
      code: ioredis(`await redis.call('SET', \`sess:\${sid}\`, json, 'KEEPTTL');`),
      options: STRICT,
      errors: [{ messageId: 'keepTtlMayCreate', line: 3, column: 18, suggestions: [{ messageId: 'addXx', output: ioredis(`await redis.call('SET', \`sess:\${sid}\`, json, 'KEEPTTL', 'XX');`) }] }],
    },
    {
      // a MULTI that wrote another key with a TTL, or deleted this one after its TTL, proves nothing
      code: ioredis(`await redis.multi().set(\`a:\${id}\`, '0', 'EX', 60).set(\`b:\${id}\`, '1', 'KEEPTTL').exec();`),
      options: STRICT,
      errors: [{ messageId: 'keepTtlMayCreate', line: 3, column: 51, suggestions: [{ messageId: 'addXx', output: ioredis(`await redis.multi().set(\`a:\${id}\`, '0', 'EX', 60).set(\`b:\${id}\`, '1', 'KEEPTTL', 'XX').exec();`) }] }],
    },
    {
      code: ioredis(`await redis.multi().set(\`a:\${id}\`, '0', 'EX', 60).del(\`a:\${id}\`).set(\`a:\${id}\`, '1', 'KEEPTTL').exec();`),
      options: STRICT,
      errors: [{ messageId: 'keepTtlMayCreate', line: 3, column: 66, suggestions: [{ messageId: 'addXx', output: ioredis(`await redis.multi().set(\`a:\${id}\`, '0', 'EX', 60).del(\`a:\${id}\`).set(\`a:\${id}\`, '1', 'KEEPTTL', 'XX').exec();`) }] }],
    },
    {
      // SET ... NX KEEPTTL writes only a missing key, which has no TTL to keep: a create without
      // TTL (no suggestion: an expiry beside KEEPTTL is a syntax error)
      code: ioredis(`await redis.set(\`lock:\${id}\`, '1', 'NX', 'KEEPTTL');`),
      errors: [{ messageId: 'createWithoutTtl', line: 3, column: 13, suggestions: [] }],
    },
  ],
});
