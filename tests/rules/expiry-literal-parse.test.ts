/**
 * A literal TTL is judged by Redis's own integer parse and range (semantics/command-spec.ts
 * `expiryLiteral`, checked on redis-server in tests/semantics/expiry-literals-redis.test.ts):
 * a string `Number()` takes but Redis does not (`'01'`, `'+5'`, `' 60'`, `'5e2'`, `'60.0'`,
 * `'0x10'`) and a number beyond Redis's range (`1e21`, sent as `1e+21`; an EX whose milliseconds
 * overflow with the clock added) make the write fail: expire-needs-positive-ttl reports it as
 * rejected, and ttl-units says nothing of its unit (the key is never written, whatever the unit).
 */
import expireNeedsPositiveTtl from '../../rules/expire-needs-positive-ttl.js';
import ttlUnits from '../../rules/ttl-units.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const rejected = (command: string, value: string, column: number, key = 'k') => ({ messageId: 'literalRejected' as const, line: 3, column, data: { command, value, key } });

runRule(untypedTester, 'expire-needs-positive-ttl (Redis integer parse)', expireNeedsPositiveTtl, {
  valid: [
    // what Redis takes: digits without a leading zero, within its range
    ioredis("redis.set(k, v, 'EX', '60');"),
    ioredis("redis.set(k, v, 'PX', '1500');"),
    ioredis("redis.setex(k, '60', v);"),
    ioredis("redis.expire(k, '3600');"),
    ioredis("redis.getex(k, 'EX', '60');"),
    ioredis("redis.set(k, v, 'EX', 9223339533174775);"),
    // a Unix time has no clock added: the largest EXAT / PXAT Redis takes
    ioredis("redis.set(k, v, 'EXAT', '9223372036854775');"),
    ioredis("redis.set(k, v, 'PXAT', '9223372036854775807');"),
    nodeRedis("client.set(k, v, { EX: '60' });"),
  ],
  invalid: [
    { code: ioredis("redis.set(k, v, 'EX', '01');"), errors: [rejected('SET ... EX', '01', 23)] },
    { code: ioredis("redis.set(k, v, 'EX', '+5');"), errors: [rejected('SET ... EX', '+5', 23)] },
    { code: ioredis("redis.set(k, v, 'EX', '5e2');"), errors: [rejected('SET ... EX', '5e2', 23)] },
    { code: ioredis("redis.set(k, v, 'PX', '60.0');"), errors: [rejected('SET ... PX', '60.0', 23)] },
    { code: ioredis("redis.set(k, v, 'EX', ' 60');"), errors: [rejected('SET ... EX', ' 60', 23)] },
    { code: ioredis("redis.set(k, v, 'EX', '0x10');"), errors: [rejected('SET ... EX', '0x10', 23)] },
    { code: ioredis("redis.setex(k, '60.0', v);"), errors: [rejected('SETEX', '60.0', 16)] },
    { code: ioredis("redis.expire(k, '+5');"), errors: [rejected('EXPIRE', '+5', 17)] },
    { code: ioredis("redis.pexpire(k, '5e2');"), errors: [rejected('PEXPIRE', '5e2', 18)] },
    { code: ioredis("redis.getex(k, 'EX', '01');"), errors: [rejected('GETEX ... EX', '01', 22)] },
    // beyond Redis's range: 1e21 goes out as `1e+21`; EX 9223372036854775 (a double: 9223372036854776)
    // and '9223372036854774' overflow with the clock added
    { code: ioredis("redis.set(k, v, 'EX', 1e21);"), errors: [rejected('SET ... EX', '`1e21` (= 1e+21)', 23)] },
    { code: ioredis("redis.set(k, v, 'EX', 9223372036854775);"), errors: [rejected('SET ... EX', '`9223372036854775` (= 9223372036854776)', 23)] },
    { code: ioredis("redis.set(k, v, 'EX', '9223372036854774');"), errors: [rejected('SET ... EX', '9223372036854774', 23)] },
    { code: ioredis("redis.set(k, v, 'EXAT', '9223372036854776');"), errors: [rejected('SET ... EXAT', '9223372036854776', 25)] },
    { code: ioredis("redis.expire(k, '9223372036854775807');"), errors: [rejected('EXPIRE', '9223372036854775807', 17)] },
    { code: nodeRedis("client.set(k, v, { EX: '60.0' });"), errors: [rejected('SET ... EX', '60.0', 24)] },
  ],
});

runRule(untypedTester, 'ttl-units (a TTL Redis rejects has no unit to fix)', ttlUnits, {
  valid: [
    // Redis rejects these whatever their unit: the write fails, expire-needs-positive-ttl says so
    ioredis("redis.set(k, v, 'EX', 1e21);"),
    ioredis("redis.set(k, v, 'EX', 9223372036854775);"),
    ioredis('redis.expire(k, 1e21);'),
  ],
  invalid: [
    // the limit: a point in time Redis takes as a TTL is still reported
    {
      code: ioredis("redis.set(k, v, 'EX', 1700000000000);"),
      errors: [{ messageId: 'absoluteAsDuration', line: 3, column: 23, suggestions: [{ messageId: 'useInstead', data: { replacement: 'PXAT' }, output: ioredis("redis.set(k, v, 'PXAT', 1700000000000);") }] }],
    },
    {
      code: ioredis('redis.expire(k, 1700000000);'),
      errors: [{ messageId: 'absoluteAsDuration', line: 3, column: 17, suggestions: [{ messageId: 'useInstead', data: { replacement: 'EXPIREAT' }, output: ioredis('redis.expireat(k, 1700000000);') }] }],
    },
  ],
});
