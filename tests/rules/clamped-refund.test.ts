/**
 * A refund of a quota counter kept at zero or above, in a module that charges the counter with a
 * TTL (issue 25, round 30: the twenty-ninth validation set's "refund DECR on a quota counter that
 * exists with its TTL" and "reset of a negative refund to 0, re-armed by the next INCR";
 * `redis-calls/clamped-refund.ts`): `const val = await redis.decr(key); if (val < 0) await
 * redis.set(key, 0);` of a key the file INCRs and then EXPIREs. The refund keeps the counter's TTL;
 * a refund after the window recreates it below zero, the reset puts it back at 0, and the charge's
 * next INCR replies 1 and gives it its TTL again. Both the DECR and the SET are left out; the
 * charge keeps its own finding. Near misses stay reported: a refund with no reset, a reset to
 * another value or under another test, and a refund of a key no command of the file charges with
 * a TTL.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const CHARGE = [
  "const PREFIX = 'gen:wallet:';",
  'export async function checkQuota(address: string) {',
  '  const key = `${PREFIX}${address.toLowerCase()}`;',
  '  const n = await redis.incr(key);',
  '  if (n === 1) await redis.expire(key, 86400);',
  '  return n <= 6;',
  '}',
].join('\n');
/** A refund of the charged key (lines 10-14 of the file); `reset` is the line under the DECR. */
const refund = (reset: string, key = '`${PREFIX}${address.toLowerCase()}`') =>
  ioredis(`${CHARGE}\nexport async function refundQuota(address: string) {\n  const key = ${key};\n  const val = await redis.decr(key);\n  ${reset}\n}`);

const CHARGE_FINDING = ['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 6, 25];

describe('a clamped refund of a counter the file charges with a TTL', () => {
  it('leaves the refund and its reset out, and keeps the charge reported', () => {
    expect(lintKeyRules(refund('if (val < 0) await redis.set(key, 0);'))).toEqual([CHARGE_FINDING]);
    expect(lintKeyRules(refund('if (0 > val) { await redis.del(key); }'))).toEqual([CHARGE_FINDING]);
    // a fixed key: the global daily cap
    const cap = ioredis(
      "const CAP = 'gen:daily:global';\nexport async function checkCap() {\n  const n = await redis.incr(CAP);\n  if (n === 1) await redis.expire(CAP, 86400);\n  return n <= 6666;\n}\nexport async function refundCap() {\n  const val = await redis.decr(CAP);\n  if (val < 0) await redis.set(CAP, 0);\n}",
    );
    expect(lintKeyRules(cap, { allowConstantKeys: false })).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 5, 25]]);
  });

  it('near misses stay reported', () => {
    // no reset: a counter recreated at -1 skips the charge's n === 1 on its next INCR
    expect(lintKeyRules(refund('return val;'))).toEqual([CHARGE_FINDING, ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 12, 27]]);
    // a reset to another value, under another test
    expect(lintKeyRules(refund('if (val < 0) await redis.set(key, 1);'))).toEqual([
      CHARGE_FINDING,
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 12, 27],
      ['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 13, 28],
    ]);
    expect(lintKeyRules(refund('if (val < 5) await redis.set(key, 0);'))).toEqual([
      CHARGE_FINDING,
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 12, 27],
      ['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 13, 28],
    ]);
    // a key no command of the file charges with a TTL
    expect(lintKeyRules(refund('if (val < 0) await redis.set(key, 0);', '`credits:${address}`'))).toEqual([
      CHARGE_FINDING,
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 12, 27],
      ['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 13, 28],
    ]);
  });
});
