/**
 * "Field TTL set with HEXPIRE": HSET / HINCRBY of a field followed, in the same MULTI, by
 * HEXPIRE / HPEXPIRE / HEXPIREAT of that field gives it a TTL, and Redis deletes a hash whose last
 * field expires (https://redis.io/docs/latest/develop/data-types/hashes/#field-expiration): not a
 * leak when every field written is one expired. node-redis and @upstash/redis spell the family
 * `(key, fields, time, condition?)`. The same round-trip rules as EXPIRE: in a later round trip
 * it is `separateRoundTrip` (naming its line, also behind a guard). Near misses stay `noExpiry`:
 * another field, a field left without TTL, another key, the expiry before the write, XX (a field
 * without TTL keeps none). In a MULTI, an HSETEX ... EX (Redis 8.0) that creates the field before an
 * HINCRBY of it counts too (HINCRBY keeps a field's TTL); not in a pipeline, not before an HSET
 * (which clears it), not HGETEX ... EX (which gives no TTL to a field that does not exist yet).
 * The fields may be written as an object (`hset(key, { [field]: value })`, the only form
 * @upstash/redis has; ioredis and node-redis take it too): its property names are the fields, so a
 * property left without TTL, or a spread whose fields cannot be told, keeps the hash reported.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, nodeRedis, runRule, untypedTester, upstash } from './tester.js';

const fn = (body: string) => `export async function track(u: number, t: string, ttl: number) {\n${body}\n}`;
const data = (command: string, key: string) => ({ command, key, client: '', hint: ` Kept forever on purpose? Add '${key}' to settings['redis-ttl'].persistentKeys.` });
/** The suggestion that queues an EXPIRE of the key right after the write, in its MULTI. */
const append = (code: string, write: string, key: string) => ({
  messageId: 'appendExpire' as const,
  output: code.replace(write, `${write}.expire(${key}, TTL_SECONDS)`),
});

const guarded = nodeRedis(fn('  await client.hSet(`tokens:${u}`, t, 1);\n  if (client.hExpire) await client.hExpire(`tokens:${u}`, t, ttl);'));
const otherField = nodeRedis(fn("  await client.multi().hSet(`tokens:${u}`, t, 1).hExpire(`tokens:${u}`, 'other', ttl).exec();"));
const fieldLeft = nodeRedis(fn("  await client.multi().hSet(`tokens:${u}`, [t, 1, 'extra', 2]).hExpire(`tokens:${u}`, t, ttl).exec();"));
const otherKey = nodeRedis(fn('  await client.multi().hSet(`a:${u}`, t, 1).hExpire(`b:${u}`, t, ttl).exec();'));
const before = nodeRedis(fn('  await client.multi().hExpire(`c:${u}`, t, ttl).hSet(`c:${u}`, t, 1).exec();'));
const hsetexPipeline = ioredis(fn("  await redis.pipeline().hsetex(`p:${u}`, 'EX', 60, 'FIELDS', 1, t, 0).hincrby(`p:${u}`, t, 1).exec();"));
const hsetexThenHset = ioredis(fn("  await redis.multi().hsetex(`s:${u}`, 'EX', 60, 'FIELDS', 1, t, 0).hset(`s:${u}`, t, 1).exec();"));
const hgetexFirst = ioredis(fn("  await redis.multi().hgetex(`g:${u}`, 'EX', 60, 'FIELDS', 1, t).hincrby(`g:${u}`, t, 1).exec();"));
const objectFieldLeft = upstash(fn("  await redis.multi().hset(`o:${u}`, { [t]: 1, extra: 2 }).hexpire(`o:${u}`, t, ttl).exec();"));
const objectSpread = nodeRedis(fn('  await client.multi().hSet(`q:${u}`, { ...rest, [t]: 1 }).hExpire(`q:${u}`, t, ttl).exec();'));
const onlyIfTtl = nodeRedis(fn("  await client.multi().hSet(`d:${u}`, t, 1).hExpire(`d:${u}`, t, ttl, 'XX').exec();"));

runRule(untypedTester, 'incr-needs-expire-on-create (hash fields given a TTL)', incrRule, {
  valid: [
    nodeRedis(fn('  await client.multi().hSet(`tokens:${u}`, t, 1).hExpire(`tokens:${u}`, t, ttl).exec();')),
    nodeRedis(fn("  await client.multi().hIncrBy(`hits:${u}`, t, 1).hPExpire(`hits:${u}`, [t], 60_000, 'NX').exec();")),
    nodeRedis(fn('  await client.multi().hSet(`s:${u}`, t, 1).hExpireAt(`s:${u}`, t, Math.floor(Date.now() / 1000) + 60).exec();')),
    nodeRedis(fn("  const tx = client.multi();\n  tx.hSet(`m:${u}`, [t, 1, 'seen', 1]);\n  tx.hExpire(`m:${u}`, [t, 'seen'], ttl);\n  await tx.exec();")),
    upstash(fn('  await redis.multi().hincrby(`h:${u}`, t, 1).hpexpire(`h:${u}`, [t], 60_000).exec();')),
    ioredis(fn("  await redis.multi().hsetex(`h:${u}`, 'EX', 60, 'FIELDS', 1, t, 0).hincrby(`h:${u}`, t, 1).exec();")),
    // the fields as an object: each property is a field
    upstash(fn('  const p = redis.pipeline();\n  p.hset(`c:${u}`, { [t]: 1 });\n  p.hexpire(`c:${u}`, t, ttl);\n  await p.exec();')),
    upstash(fn("  await redis.multi().hset(`o:${u}`, { a: 1, 'b': 2 }).hexpire(`o:${u}`, ['a', 'b'], ttl).exec();")),
    ioredis(fn('  await redis.multi().hset(`o:${u}`, { [t]: 1 }).hexpire(`o:${u}`, ttl, \'FIELDS\', 1, t).exec();')),
    nodeRedis(fn('  await client.multi().hSet(`o:${u}`, { [t]: 1 }).hExpire(`o:${u}`, t, ttl).exec();')),
  ],
  invalid: [
    {
      // a later round trip, behind a guard: the expiry of that field, but not atomic
      code: guarded,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          column: 16,
          // the message is too long for the hint
          data: { command: 'HSET', key: 'tokens:*', line: '5', client: '', hint: '' },
          suggestions: [
            {
              messageId: 'wrapInMulti',
              output: guarded.replace('client.hSet(`tokens:${u}`, t, 1)', 'client.multi().hSet(`tokens:${u}`, t, 1).expire(`tokens:${u}`, TTL_SECONDS).exec()'),
            },
          ],
        },
      ],
    },
    {
      code: otherField,
      errors: [{ messageId: 'noExpiry', line: 4, column: 24, data: data('HSET', 'tokens:*'), suggestions: [append(otherField, 'hSet(`tokens:${u}`, t, 1)', '`tokens:${u}`')] }],
    },
    {
      // `extra` keeps the hash alive
      code: fieldLeft,
      errors: [{ messageId: 'noExpiry', line: 4, column: 24, data: data('HSET', 'tokens:*'), suggestions: [append(fieldLeft, "hSet(`tokens:${u}`, [t, 1, 'extra', 2])", '`tokens:${u}`')] }],
    },
    {
      code: otherKey,
      errors: [{ messageId: 'noExpiry', line: 4, column: 24, data: data('HSET', 'a:*'), suggestions: [append(otherKey, 'hSet(`a:${u}`, t, 1)', '`a:${u}`')] }],
    },
    {
      // a field that does not exist yet gets no TTL
      code: before,
      errors: [{ messageId: 'noExpiry', line: 4, column: 50, data: data('HSET', 'c:*'), suggestions: [append(before, 'hSet(`c:${u}`, t, 1)', '`c:${u}`')] }],
    },
    {
      code: hsetexPipeline,
      errors: [{ messageId: 'noExpiry', line: 4, column: 72, data: data('HINCRBY', 'p:*'), suggestions: [append(hsetexPipeline, 'hincrby(`p:${u}`, t, 1)', '`p:${u}`')] }],
    },
    {
      code: hsetexThenHset,
      errors: [{ messageId: 'noExpiry', line: 4, column: 69, data: data('HSET', 's:*'), suggestions: [append(hsetexThenHset, 'hset(`s:${u}`, t, 1)', '`s:${u}`')] }],
    },
    {
      code: hgetexFirst,
      errors: [{ messageId: 'noExpiry', line: 4, column: 66, data: data('HINCRBY', 'g:*'), suggestions: [append(hgetexFirst, 'hincrby(`g:${u}`, t, 1)', '`g:${u}`')] }],
    },
    {
      // the object's `extra` property keeps the hash alive
      code: objectFieldLeft,
      errors: [{ messageId: 'noExpiry', line: 4, column: 23, data: data('HSET', 'o:*'), suggestions: [append(objectFieldLeft, 'hset(`o:${u}`, { [t]: 1, extra: 2 })', '`o:${u}`')] }],
    },
    {
      // a spread property may hold any field
      code: objectSpread,
      errors: [{ messageId: 'noExpiry', line: 4, column: 24, data: data('HSET', 'q:*'), suggestions: [append(objectSpread, 'hSet(`q:${u}`, { ...rest, [t]: 1 })', '`q:${u}`')] }],
    },
    {
      code: onlyIfTtl,
      errors: [{ messageId: 'noExpiry', line: 4, column: 24, data: data('HSET', 'd:*'), suggestions: [append(onlyIfTtl, 'hSet(`d:${u}`, t, 1)', '`d:${u}`')] }],
    },
  ],
});
