/**
 * A literal that is no GETEX option, sent as written: `redis.getex(k, 60)` on ioredis (the TTL
 * without its `EX`), `call('GETEX', k, 'EXPIRE', 60)`. Redis answers "ERR syntax error" whether the
 * key exists or not, and the key keeps its TTL (checked on a real server in
 * tests/semantics/getex-options-redis.test.ts): `valid-ttl-args` reports the token, as it does
 * for SET's (`unknownOption`, with a suggestion to name a bare number `'EX'`). Near misses stay
 * clean: GETEX's own options, a TTL in a variable (it may be a token), node-redis 4's options object.
 */
import rule from '../../rules/valid-ttl-args.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const BARE_NUMBER_FIX = "A TTL needs its option before it: `'EX', seconds` or `'PX', milliseconds`.";

runRule(untypedTester, 'valid-ttl-args', rule, {
  valid: [
    ioredis("await redis.getex(`cache:${id}`, 'EX', 60);"),
    ioredis("await redis.getex(`cache:${id}`, 'pxat', at);"),
    ioredis('await redis.getex(`cache:${id}`);'),
    ioredis('await redis.getex(`cache:${id}`, mode, 60);'),
    nodeRedis('await client.getEx(`cache:${id}`, { EX: 60 });'),
  ],
  invalid: [
    {
      code: ioredis('await redis.getex(`cache:${id}`, 60);'),
      errors: [
        {
          messageId: 'unknownOption',
          line: 3,
          column: 34,
          data: { command: 'GETEX', token: '60', fix: BARE_NUMBER_FIX },
          suggestions: [{ messageId: 'nameExpiry', data: { replacement: "'EX', 60" }, output: ioredis("await redis.getex(`cache:${id}`, 'EX', 60);") }],
        },
      ],
    },
    {
      code: ioredis("await redis.call('GETEX', `cache:${id}`, 'EXPIRE', 60);"),
      errors: [{ messageId: 'unknownOption', line: 3, column: 42, data: { command: 'GETEX', token: 'EXPIRE', fix: 'Remove it, or spell one of the options GETEX has.' }, suggestions: [] }],
    },
  ],
});
