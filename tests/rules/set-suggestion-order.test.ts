/**
 * The order of `set-requires-ttl-or-keepttl`'s suggestions. Editors show the first suggestion as
 * the default quick fix, and KEEPTTL keeps the TTL of an existing key but creates a missing key
 * with none (under `recommended`'s `allowKeepTtl` it silences the finding while the leak stays):
 * every expiry suggestion (moveLaterExpiry, addLaterExpiry, addDefaultExpiry, addExpiry,
 * addExpiryPlaceholder) comes first, KEEPTTL last. Forms that cannot take KEEPTTL (SETNX, SET ... NX
 * and SET ... NX GET, which write only a missing key) get the expiry alone; SET ... GET is
 * no-getset's finding, whose one suggestion pairs KEEPTTL with XX. The autofix is unchanged.
 */
import rule from '../../rules/set-requires-ttl-or-keepttl.js';
import getsetRule from '../../rules/no-getset.js';
import { ioredis, nodeRedis, runRule, untypedTester, upstash } from './tester.js';

/** `body` inside an async function `f(k, token)`: line 3 opens it, `body` starts on line 4. */
const fn = (body: string) => `export async function f(k: string, token: string) {\n${body}\n}`;

const laterExpire = ioredis(fn('  await redis.set(k, token);\n  await redis.expire(k, 900);'));
const laterExpireInIf = ioredis(fn('  await redis.set(k, token);\n  if (token) await redis.expire(k, 900);'));

runRule(untypedTester, 'set-requires-ttl-or-keepttl', rule, {
  valid: [],
  invalid: [
    {
      // a plain SET: the expiry first, KEEPTTL last (ioredis, node-redis, upstash)
      code: ioredis(`redis.set(key, v);`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 7,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', data: { name: 'TTL_SECONDS' }, output: ioredis(`redis.set(key, v, 'EX', TTL_SECONDS);`) },
            { messageId: 'addKeepTtl', output: ioredis(`redis.set(key, v, 'KEEPTTL');`) },
          ],
        },
      ],
    },
    {
      code: nodeRedis(`const SESSION_TTL = 3600;\nawait client.set(key, value);`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          column: 14,
          suggestions: [
            { messageId: 'addExpiry', data: { name: 'SESSION_TTL' }, output: nodeRedis(`const SESSION_TTL = 3600;\nawait client.set(key, value, { EX: SESSION_TTL });`) },
            { messageId: 'addKeepTtl', output: nodeRedis(`const SESSION_TTL = 3600;\nawait client.set(key, value, { KEEPTTL: true });`) },
          ],
        },
      ],
    },
    {
      code: upstash(`await redis.set(key, value);`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 13,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', data: { name: 'TTL_SECONDS' }, output: upstash(`await redis.set(key, value, { ex: TTL_SECONDS });`) },
            { messageId: 'addKeepTtl', output: upstash(`await redis.set(key, value, { keepTtl: true });`) },
          ],
        },
      ],
    },
    {
      // SET ... XX clears an existing key's TTL: the expiry first, KEEPTTL (safe with XX) last
      code: ioredis(`redis.set(key, v, 'XX');`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 3,
          column: 7,
          suggestions: [
            { messageId: 'addExpiryPlaceholder', data: { name: 'TTL_SECONDS' }, output: ioredis(`redis.set(key, v, 'EX', TTL_SECONDS, 'XX');`) },
            { messageId: 'addKeepTtl', output: ioredis(`redis.set(key, v, 'KEEPTTL', 'XX');`) },
          ],
        },
      ],
    },
    {
      // defaultTtlSeconds: its expiry first (and the fix, unchanged), the file's constant next, KEEPTTL last
      code: ioredis(`const TTL = 300;\nredis.set(key, v);`),
      settings: { 'redis-ttl': { defaultTtlSeconds: 86400 } },
      options: [{ fix: true }],
      output: ioredis(`const TTL = 300;\nredis.set(key, v, 'EX', 86400);`),
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 4,
          column: 7,
          suggestions: [
            { messageId: 'addDefaultExpiry', data: { seconds: '86400' }, output: ioredis(`const TTL = 300;\nredis.set(key, v, 'EX', 86400);`) },
            { messageId: 'addExpiry', data: { name: 'TTL' }, output: ioredis(`const TTL = 300;\nredis.set(key, v, 'EX', TTL);`) },
            { messageId: 'addKeepTtl', output: ioredis(`const TTL = 300;\nredis.set(key, v, 'KEEPTTL');`) },
          ],
        },
      ],
    },
    {
      // SETNX has no KEEPTTL form: the expiry alone (SET ... EX ... NX)
      code: ioredis(`redis.setnx(key, v);`),
      errors: [
        {
          messageId: 'createWithoutTtl',
          line: 3,
          column: 7,
          suggestions: [{ messageId: 'addExpiryPlaceholder', data: { name: 'TTL_SECONDS' }, output: ioredis(`redis.set(key, v, 'EX', TTL_SECONDS, 'NX');`) }],
        },
      ],
    },
    {
      // SET ... NX GET writes only a missing key (create-if-missing): no KEEPTTL, the expiry alone
      code: ioredis(`redis.set(key, v, 'NX', 'GET');`),
      errors: [
        {
          messageId: 'createWithoutTtl',
          line: 3,
          column: 7,
          suggestions: [{ messageId: 'addExpiryPlaceholder', data: { name: 'TTL_SECONDS' }, output: ioredis(`redis.set(key, v, 'EX', TTL_SECONDS, 'NX', 'GET');`) }],
        },
      ],
    },
    {
      // a later EXPIRE of its own: moving its TTL into the SET first (and the fix), KEEPTTL last
      code: laterExpire,
      options: [{ fix: true }],
      output: ioredis(fn("  await redis.set(k, token, 'EX', 900);")),
      errors: [
        {
          messageId: 'setThenExpire',
          line: 4,
          column: 15,
          suggestions: [
            { messageId: 'moveLaterExpiry', data: { ttl: '900', line: '5' }, output: ioredis(fn("  await redis.set(k, token, 'EX', 900);")) },
            { messageId: 'addKeepTtl', output: laterExpire.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
    {
      // a later EXPIRE under an if: its TTL is added (the EXPIRE stays, no fix), KEEPTTL last
      code: laterExpireInIf,
      options: [{ fix: true }],
      output: null,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 4,
          column: 15,
          suggestions: [
            { messageId: 'addLaterExpiry', data: { ttl: '900', line: '5' }, output: laterExpireInIf.replace('redis.set(k, token)', "redis.set(k, token, 'EX', 900)") },
            { messageId: 'addKeepTtl', output: laterExpireInIf.replace('redis.set(k, token)', "redis.set(k, token, 'KEEPTTL')") },
          ],
        },
      ],
    },
  ],
});

// SET ... GET: no-getset's finding (set-requires-ttl-or-keepttl leaves it), one suggestion, KEEPTTL with XX
runRule(untypedTester, 'no-getset', getsetRule, {
  valid: [],
  invalid: [
    {
      code: ioredis(`redis.set(key, v, 'GET');`),
      errors: [
        {
          messageId: 'setGet',
          line: 3,
          column: 7,
          suggestions: [{ messageId: 'addKeepTtl', data: { options: 'KEEPTTL XX' }, output: ioredis(`redis.set(key, v, 'KEEPTTL', 'XX', 'GET');`) }],
        },
      ],
    },
  ],
});
