/**
 * A lifetime the operator chose (`redis-calls/user-named-key.ts` userTtlAppliedAfter), from the
 * kind's definition: an admin key editor that deletes the key the operator named (a request field,
 * verbatim), writes it again and then, only when the operator typed a TTL, EXPIREs it with that
 * TTL (as typed or through `parseInt` / `Number`), applies the key and the lifetime somebody
 * outside the code chose: not reported in `recommended`. The near-misses stay reported: a TTL the
 * code computes or fixes itself, an expiry of another key, an expiry before the write or on
 * another branch, an expiry behind a test of something else than the TTL, a key the code builds
 * from the request, no expiry at all, and `strict`.
 */
import rule from '../../rules/incr-needs-expire-on-create.js';
import { STRICT_KEY_POLICY } from '../helpers/lint.js';
import { ioredis, nodeRedis, noExpiryWithMulti as noExpiry, positionOf as at, runRule, untypedTester } from './tester.js';

/** An Express handler of a key editor: `{ key, values, ttl }` from the request body, then `body`. */
const editor = (body: string): string =>
  ioredis(`export async function update(req, res) {\n  const { key, values, ttl } = req.body;\n${body}\n  res.send('ok');\n}`);

// ---- the kind
const replaced = editor('  await redis.del(key);\n  await redis.rpush(key, ...values);\n  if (ttl) await redis.expire(key, ttl);');
// the TTL parsed from the form first, tested twice (Luykin/luykin-chaineye-service's Redis editor)
const parsed = editor(
  '  await redis.del(key);\n  await redis.sadd(key, ...values);\n  if (ttl !== undefined && ttl !== null) {\n    const ttlNum = parseInt(ttl, 10);\n    if (ttlNum > 0) {\n      await redis.expire(key, ttlNum);\n    }\n  }',
);
// a DEL only when the type changes, node-redis, the TTL as Number(...)
const retyped = nodeRedis(
  "export async function update(req, res) {\n  const { key, fields, ttl, type } = req.body;\n  if (type !== 'hash') await client.del(key);\n  await client.hSet(key, fields);\n  const seconds = Number(ttl);\n  if (seconds > 0) await client.expire(key, seconds);\n  res.send('ok');\n}",
);
// ---- near-misses
// a TTL the code computes (it can be <= 0), or fixes itself
const computed = editor('  await redis.del(key);\n  await redis.rpush(key, ...values);\n  const left = req.body.deadline - Date.now();\n  if (left > 0) await redis.pexpire(key, left);');
const fixed = editor('  await redis.del(key);\n  await redis.rpush(key, ...values);\n  const t = 3600;\n  if (t > 0) await redis.expire(key, t);');
// the operator's TTL given to another key
const otherKey = editor('  await redis.del(key);\n  await redis.rpush(key, ...values);\n  if (ttl) await redis.expire(req.body.other, ttl);');
// on the other branch: the write never gets it
const otherBranch = editor('  if (values.length) {\n    await redis.del(key);\n    await redis.rpush(key, ...values);\n  } else if (ttl) {\n    await redis.expire(key, ttl);\n  }');
// a test of something else than the TTL: no TTL sent although one was typed
const otherTest = editor('  await redis.del(key);\n  await redis.rpush(key, ...values);\n  if (req.body.flag) await redis.expire(key, ttl);');
// the code's key family, built from the request
const built = editor('  await redis.del(`list:${key}`);\n  await redis.rpush(`list:${key}`, ...values);\n  if (ttl) await redis.expire(`list:${key}`, ttl);');
// no expiry at all after the delete
const none = editor('  await redis.del(key);\n  await redis.rpush(key, ...values);');

runRule(untypedTester, 'incr-needs-expire-on-create (operator-chosen TTL)', rule, {
  valid: [{ code: replaced }, { code: parsed }, { code: retyped }],
  invalid: [
    { code: computed, errors: [{ messageId: 'separateRoundTrip', ...at(computed, 'rpush(key') }] },
    { code: fixed, errors: [{ messageId: 'separateRoundTrip', ...at(fixed, 'rpush(key') }] },
    { code: otherKey, errors: [noExpiry(otherKey, 'rpush(key, ...values)', 'key')] },
    { code: otherBranch, errors: [noExpiry(otherBranch, 'rpush(key, ...values)', 'key')] },
    { code: otherTest, errors: [{ messageId: 'separateRoundTrip', ...at(otherTest, 'rpush(key') }] },
    { code: built, errors: [{ messageId: 'separateRoundTrip', ...at(built, 'rpush(`list') }] },
    { code: none, errors: [noExpiry(none, 'rpush(key, ...values)', 'key')] },
    // strict reports the operator's keys too
    { code: replaced, options: [STRICT_KEY_POLICY], errors: [{ messageId: 'separateRoundTrip', ...at(replaced, 'rpush(key') }] },
  ],
});
