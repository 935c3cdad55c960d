/**
 * Which expiry set-requires-ttl-or-keepttl's fix adds (redis-calls/write-expiry.ts), from a new
 * user's trial:
 * - a SET whose own EXPIRE follows as a round trip of its own gets that EXPIRE's TTL, in its unit
 *   (EX / PX / EXAT / PXAT), and the separate EXPIRE is removed when it is a statement of its own
 *   in the SET's block (a fix with autofix); never another key's TTL constant of the file, nor the
 *   cache default. Limits: an EXPIRE that cannot go (the SET's reply used, the EXPIRE under an
 *   `if`, a SET NX, a TTL whose value is not known to be above 0, which SET would refuse where
 *   EXPIRE deletes the key) stays: a suggestion only; a TTL whose text means something else at the SET
 *   (declared or assigned in between) is not moved; an EXPIRE of another key gives nothing.
 * - a lock (SET NX / SETNX named lock, token, ...) never gets `defaultTtlSeconds`.
 */
import rule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const AUTOFIX = { 'redis-ttl': { defaultTtlSeconds: 86400, autofix: true } };
const fn = (body: string) => `const FEED_TTL = 7 * 24 * 3600;\nexport async function put(k: string, token: string, cond: boolean, minutes: number) {\n${body}\n}`;

// the trial: a 15-minute token, its EXPIRE 900 next; the file's FEED_TTL is another key's
const trial = ioredis(fn('  await redis.set(`reset:${k}`, token);\n  await redis.expire(`reset:${k}`, 900);\n  await redis.set(`feed:${k}`, token, \'EX\', FEED_TTL);'));
const trialFixed = ioredis(fn("  await redis.set(`reset:${k}`, token, 'EX', 900);\n  await redis.set(`feed:${k}`, token, 'EX', FEED_TTL);"));
const pexpire = ioredis(fn('  await redis.set(k, token);\n  await redis.pexpire(k, 15 * 60 * 1000);'));
const expireat = ioredis(fn('  await redis.set(k, token);\n  await redis.expireat(k, Math.floor(Date.now() / 1000) + 900);'));
const node = nodeRedis(fn('  await client.set(k, token);\n  await client.pExpire(k, 900_000);'));
const declaredBefore = ioredis(fn('  const ttl = minutes * 60;\n  await redis.set(k, token);\n  await redis.expire(k, ttl);'));
const declaredBetween = ioredis(fn('  await redis.set(k, token);\n  const ttl = minutes * 60;\n  await redis.expire(k, ttl);'));
const assignedBetween = ioredis(fn('  let ttl = 60;\n  await redis.set(k, token);\n  ttl = minutes * 60;\n  await redis.expire(k, ttl);'));
const replyUsed = ioredis(fn('  const ok = await redis.set(k, token);\n  await redis.expire(k, 900);\n  return ok;'));
const conditional = ioredis(fn('  await redis.set(k, token);\n  if (cond) await redis.expire(k, 900);'));
const stringTtl = ioredis(fn("  await redis.call('SET', k, token);\n  await redis.call('EXPIRE', k, '900');"));
const otherKey = ioredis(fn('  await redis.set(k, token);\n  await redis.expire(`other:${k}`, 900);'));

runRule(untypedTester, 'set-requires-ttl-or-keepttl (the expiry its fix adds)', rule, {
  valid: [],
  invalid: [
    {
      code: trial,
      settings: AUTOFIX,
      output: trialFixed,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 5,
          column: 15,
          suggestions: [
            { messageId: 'moveLaterExpiry', data: { ttl: '900', line: '6' }, output: trialFixed },
            { messageId: 'addKeepTtl', output: trial.replace('redis.set(`reset:${k}`, token)', "redis.set(`reset:${k}`, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
    {
      code: pexpire,
      settings: AUTOFIX,
      output: ioredis(fn("  await redis.set(k, token, 'PX', 15 * 60 * 1000);")),
      errors: [
        {
          messageId: 'setThenExpire',
          line: 5,
          column: 15,
          suggestions: [
            { messageId: 'moveLaterExpiry', data: { ttl: '15 * 60 * 1000', line: '6' }, output: ioredis(fn("  await redis.set(k, token, 'PX', 15 * 60 * 1000);")) },
            { messageId: 'addKeepTtl', output: pexpire.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
    {
      // a computed TTL may be 0 or past, which EXPIRE takes (it deletes the key) and SET refuses:
      // offered, the EXPIRE kept, no fix
      code: expireat,
      settings: AUTOFIX,
      output: null,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 5,
          column: 15,
          suggestions: [
            { messageId: 'addLaterExpiry', data: { ttl: 'Math.floor(Date.now() / 1000) + 900', line: '6' }, output: expireat.replace('redis.set(k, token)', "redis.set(k, token, 'EXAT', Math.floor(Date.now() / 1000) + 900)") },
            { messageId: 'addKeepTtl', output: expireat.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
    {
      code: node,
      settings: AUTOFIX,
      output: nodeRedis(fn('  await client.set(k, token, { PX: 900_000 });')),
      errors: [
        {
          messageId: 'setThenExpire',
          line: 5,
          column: 16,
          suggestions: [
            { messageId: 'moveLaterExpiry', data: { ttl: '900_000', line: '6' }, output: nodeRedis(fn('  await client.set(k, token, { PX: 900_000 });')) },
            { messageId: 'addKeepTtl', output: node.replace('client.set(k, token)', 'client.set(k, token, { KEEPTTL: true })') },
          ],
        },
      ],
    },
    {
      code: declaredBefore,
      settings: AUTOFIX,
      output: null,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 6,
          column: 15,
          suggestions: [
            { messageId: 'addLaterExpiry', data: { ttl: 'ttl', line: '7' }, output: declaredBefore.replace('redis.set(k, token)', "redis.set(k, token, 'EX', ttl)") },
            { messageId: 'addKeepTtl', output: declaredBefore.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
    // the TTL's name is not bound yet at the SET, or holds another value there: nothing moved, no
    // fix, and no other TTL offered instead (neither FEED_TTL nor the default)
    {
      code: declaredBetween,
      settings: AUTOFIX,
      output: null,
      errors: [{ messageId: 'setThenExpire', line: 5, column: 15, suggestions: [{ messageId: 'addKeepTtl', output: declaredBetween.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") }] }],
    },
    {
      code: assignedBetween,
      settings: AUTOFIX,
      output: null,
      errors: [{ messageId: 'setThenExpire', line: 6, column: 15, suggestions: [{ messageId: 'addKeepTtl', output: assignedBetween.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") }] }],
    },
    // the EXPIRE cannot go safely: a suggestion that keeps it, no fix
    {
      code: replyUsed,
      settings: AUTOFIX,
      output: null,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 5,
          column: 26,
          suggestions: [
            { messageId: 'addLaterExpiry', data: { ttl: '900', line: '6' }, output: replyUsed.replace('redis.set(k, token)', "redis.set(k, token, 'EX', 900)") },
            { messageId: 'addKeepTtl', output: replyUsed.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
    {
      code: conditional,
      settings: AUTOFIX,
      output: null,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 5,
          column: 15,
          suggestions: [
            { messageId: 'addLaterExpiry', data: { ttl: '900', line: '6' }, output: conditional.replace('redis.set(k, token)', "redis.set(k, token, 'EX', 900)") },
            { messageId: 'addKeepTtl', output: conditional.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
    {
      // a generic call's string TTL: its number
      code: stringTtl,
      settings: AUTOFIX,
      output: ioredis(fn("  await redis.call('SET', k, token, 'EX', 900);")),
      errors: [
        {
          messageId: 'setThenExpire',
          line: 5,
          column: 20,
          suggestions: [
            { messageId: 'moveLaterExpiry', data: { ttl: '900', line: '6' }, output: ioredis(fn("  await redis.call('SET', k, token, 'EX', 900);")) },
            { messageId: 'addKeepTtl', output: stringTtl.replace("redis.call('SET', k, token)", "redis.call('SET', k, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
    // limit: an EXPIRE of another key is not this key's TTL: the plain finding, the default fix
    // and the file's constant as before
    {
      code: otherKey,
      settings: AUTOFIX,
      output: otherKey.replace('redis.set(k, token)', "redis.set(k, token, 'EX', 86400)"),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 5,
          column: 15,
          suggestions: [
            { messageId: 'addDefaultExpiry', output: otherKey.replace('redis.set(k, token)', "redis.set(k, token, 'EX', 86400)") },
            { messageId: 'addExpiry', data: { name: 'FEED_TTL' }, output: otherKey.replace('redis.set(k, token)', "redis.set(k, token, 'EX', FEED_TTL)") },
            { messageId: 'addKeepTtl', output: otherKey.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
  ],
});
