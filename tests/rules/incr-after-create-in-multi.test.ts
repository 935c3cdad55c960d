/**
 * A write that creates its key with a TTL (SET ... NX EX / PX, or SET ... EX without NX) queued
 * before an INCR / INCRBY / HINCRBY ... of the same key in the same MULTI / EXEC: the key exists,
 * with its TTL, when the increment runs (no other command and, since Redis 7.0, no expiry comes
 * between the two: semantics/transactions.ts), so the increment never creates it without TTL.
 * Every client's transaction form: ioredis `multi()` (chained, on a variable, as an array),
 * node-redis `multi()`, upstash `multi()`, GLIDE `new Batch(true)` / `new Transaction()`.
 * Near misses stay reported: a pipeline (the key can expire between SET and INCR), separate round
 * trips, the SET NX EX queued after the INCR, on another key, or without an expiry.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, nodeRedis, runRule, untypedTester, upstash } from './tester.js';

const fn = (body: string) => `export async function hit(id: string) {\n${body}\n}`;
const glide = (body: string): string =>
  `import { Batch, GlideClient, TimeUnit, Transaction } from '@valkey/valkey-glide';\nconst client = await GlideClient.createClient({ addresses: [] });\n${body}`;
const noExpiry = (line: number, column: number) => ({
  messageId: 'noExpiry' as const,
  line,
  column,
  data: { command: 'INCR', key: 'rl:*', client: '', hint: " Kept forever on purpose? Add 'rl:*' to settings['redis-ttl'].persistentKeys." },
});

const pipelined = ioredis(fn("  await redis.pipeline().set(`rl:${id}`, '0', 'EX', 60, 'NX').incr(`rl:${id}`).exec();"));
const afterIncr = ioredis(fn("  await redis.multi().incr(`rl:${id}`).set(`rl:${id}`, '0', 'EX', 60, 'NX').exec();"));
const otherKey = nodeRedis(fn("  await client.multi().set(`rl:${id}:start`, '0', { NX: true, EX: 60 }).incr(`rl:${id}`).exec();"));
const noTtl = upstash(fn('  await redis.multi().set(`rl:${id}`, 0, { nx: true }).incr(`rl:${id}`).exec();'));
const separate = ioredis(fn("  await redis.set(`rl:${id}`, '0', 'EX', 60, 'NX');\n  return redis.incr(`rl:${id}`);"));
const glidePipeline = glide(
  "await client.exec(new Batch(false).set(`rl:${id}`, '0', { conditionalSet: 'onlyIfDoesNotExist', expiry: { type: TimeUnit.Seconds, count: 60 } }).incr(`rl:${id}`), true);",
);

runRule(untypedTester, 'incr-needs-expire-on-create (a key created with its TTL earlier in the MULTI)', incrRule, {
  valid: [
    // ioredis, chained: SET NX EX, SET NX PX, SET EX without NX (always sets the TTL)
    ioredis(fn("  const [, [, n]] = await redis.multi().set(`rl:${id}`, '0', 'EX', 60, 'NX').incr(`rl:${id}`).exec();\n  return n;")),
    ioredis(fn("  await redis.multi().set(`rl:${id}`, 0, 'NX', 'PX', 60_000).incrby(`rl:${id}`, 5).exec();")),
    ioredis(fn("  await redis.multi().set(`rl:${id}`, 0, 'EX', 60).decr(`rl:${id}`).exec();")),
    // on a variable, with other commands between
    ioredis(fn("  const tx = redis.multi();\n  tx.set(`rl:${id}`, '0', 'EX', 60, 'NX');\n  tx.get(`other:${id}`);\n  tx.incrby(`rl:${id}`, 2);\n  await tx.exec();")),
    // ioredis' array form
    ioredis(fn("  await redis.multi([['set', `rl:${id}`, '0', 'EX', 60, 'NX'], ['incr', `rl:${id}`]]).exec();")),
    // node-redis and upstash option objects
    nodeRedis(fn("  const [, n] = await client.multi().set(`rl:${id}`, '0', { NX: true, EX: 60 }).incr(`rl:${id}`).exec();\n  return n;")),
    nodeRedis(fn("  await client.multi().set(`rl:${id}`, '0', { NX: true, PX: 60_000 }).incrBy(`rl:${id}`, 3).exec();")),
    upstash(fn('  await redis.multi().set(`rl:${id}`, 0, { nx: true, ex: 60 }).incr(`rl:${id}`).exec();')),
    // SETEX before the increment
    ioredis(fn("  await redis.multi().setex(`rl:${id}`, 60, '0').incr(`rl:${id}`).exec();")),
    // GLIDE transactions
    glide(
      "await client.exec(new Batch(true).set(`rl:${id}`, '0', { conditionalSet: 'onlyIfDoesNotExist', expiry: { type: TimeUnit.Seconds, count: 60 } }).incr(`rl:${id}`), true);",
    ),
    glide(
      "const tx = new Transaction();\ntx.set(`rl:${id}`, '0', { conditionalSet: 'onlyIfDoesNotExist', expiry: { type: TimeUnit.Milliseconds, count: 60_000 } });\ntx.incrBy(`rl:${id}`, 2);\nawait client.exec(tx);",
    ),
  ],
  invalid: [
    {
      // a pipeline is not a transaction: the key can expire between SET NX (a no-op) and INCR
      code: pipelined,
      errors: [{ ...noExpiry(4, 63), suggestions: [{ messageId: 'appendExpire', data: { expire: 'expire(`rl:${id}`, TTL_SECONDS)', declare: '; declare TTL_SECONDS with the TTL this key needs' }, output: pipelined.replace('incr(`rl:${id}`)', 'incr(`rl:${id}`).expire(`rl:${id}`, TTL_SECONDS)') }] }],
    },
    {
      // queued after the INCR, SET NX does nothing: the INCR created the key without TTL
      code: afterIncr,
      errors: [{ ...noExpiry(4, 23), suggestions: [{ messageId: 'appendExpire', data: { expire: 'expire(`rl:${id}`, TTL_SECONDS)', declare: '; declare TTL_SECONDS with the TTL this key needs' }, output: afterIncr.replace('incr(`rl:${id}`)', 'incr(`rl:${id}`).expire(`rl:${id}`, TTL_SECONDS)') }] }],
    },
    {
      code: otherKey,
      errors: [{ ...noExpiry(4, 73), suggestions: [{ messageId: 'appendExpire', data: { expire: 'expire(`rl:${id}`, TTL_SECONDS)', declare: '; declare TTL_SECONDS with the TTL this key needs' }, output: otherKey.replace('incr(`rl:${id}`)', 'incr(`rl:${id}`).expire(`rl:${id}`, TTL_SECONDS)') }] }],
    },
    {
      // SET NX without an expiry creates the key without TTL itself (set-requires-ttl-or-keepttl's)
      code: noTtl,
      errors: [{ ...noExpiry(4, 56), suggestions: [{ messageId: 'appendExpire', data: { expire: 'expire(`rl:${id}`, TTL_SECONDS)', declare: '; declare TTL_SECONDS with the TTL this key needs' }, output: noTtl.replace('incr(`rl:${id}`)', 'incr(`rl:${id}`).expire(`rl:${id}`, TTL_SECONDS)') }] }],
    },
    {
      // two round trips: the key can expire between them
      code: separate,
      errors: [noExpiry(5, 16)],
    },
    {
      code: glidePipeline,
      errors: [{ ...noExpiry(3, 146), suggestions: [{ messageId: 'appendExpire', data: { expire: 'expire(`rl:${id}`, TTL_SECONDS)', declare: '; declare TTL_SECONDS with the TTL this key needs' }, output: glidePipeline.replace('incr(`rl:${id}`)', 'incr(`rl:${id}`).expire(`rl:${id}`, TTL_SECONDS)') }] }],
    },
  ],
});
