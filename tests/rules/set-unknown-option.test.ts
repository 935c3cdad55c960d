/**
 * A literal in SET's option slots that is no SET option, sent as written: `redis.set(k, v, 300)`
 * on ioredis (the TTL without its `EX`), `call('SET', k, v, 'EXPIRE', 60)`, a stray token after a
 * complete expiry. Redis answers "ERR syntax error" to the whole command (checked on a real server
 * in tests/semantics/set-options-redis.test.ts), so the key is never written: `valid-ttl-args`
 * reports the token (with a suggestion to name a bare number's option as `'EX'`), and
 * `set-requires-ttl-or-keepttl` says nothing of a write that never happens. Near misses stay as
 * they were: node-redis 4+ drops a bare number instead (`numberAsOptions`, the set rule's); an
 * unknown client's `set(k, v, 300)` is not judged; a TTL in a variable may be anything; Redis
 * 8.4's IFEQ / IFNE carry a value of their own; after an option that cannot be read nothing is
 * judged (it may take the number after it). A suggestion to name a bare number `'EX'` is offered
 * only for a number Redis takes after EX. Two options of one group (`'EX', 60, 'PX', 500`, `'NX',
 * 'XX'`) are `conflictingOptions`.
 */
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import rule from '../../rules/valid-ttl-args.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const BARE_NUMBER_FIX = "A TTL needs its option before it: `'EX', seconds` or `'PX', milliseconds`.";
const OTHER_FIX = 'Remove it, or spell one of the options SET has.';

runRule(untypedTester, 'valid-ttl-args', rule, {
  valid: [
    ioredis("await redis.set(`cache:${id}`, v, 'EX', 300);"),
    ioredis("await redis.set(`cache:${id}`, v, 'PX', 500, 'NX', 'GET');"),
    ioredis("await redis.set(`cache:${id}`, v, 'IFEQ', old, 'EX', 60);"),
    ioredis("await redis.set(`cache:${id}`, v, 'IFNE', 300);"),
    // a value the analyzer cannot read may be a token
    ioredis('await redis.set(`cache:${id}`, v, ttl);'),
    ioredis('await redis.set(`cache:${id}`, v, ...options);'),
    // node-redis 4+ drops a bare number (set-requires-ttl-or-keepttl reports it)
    nodeRedis('await client.set(`cache:${id}`, v, 300);'),
    // no client known: the number may be node-redis options
    'await cache.set(`cache:${id}`, v, 300);',
    // an option the analyzer cannot read takes the number after it as its value
    ioredis('async function save(key, value, unit) { await redis.set(key, value, unit, 60); }'),
    ioredis("const MODE = process.env.REDIS_EXPIRY_MODE || 'EX';\nawait redis.set(`cache:${id}`, v, MODE, 3600);"),
    ioredis("await redis.set(`cache:${id}`, v, Buffer.from('EX'), 3600);"),
    // the same option twice: the last wins, Redis accepts it
    ioredis("await redis.set(`cache:${id}`, v, 'EX', 10, 'EX', 20);"),
  ],
  invalid: [
    {
      code: ioredis('await redis.set(`cache:${id}`, v, 300);'),
      errors: [
        {
          messageId: 'unknownOption',
          line: 3,
          column: 35,
          data: { command: 'SET', token: '300', fix: BARE_NUMBER_FIX },
          suggestions: [{ messageId: 'nameExpiry', data: { replacement: "'EX', 300" }, output: ioredis("await redis.set(`cache:${id}`, v, 'EX', 300);") }],
        },
      ],
    },
    {
      code: ioredis("await redis.set(`cache:${id}`, v, 'NX', TTL);\nconst TTL = 60;"),
      errors: [
        {
          messageId: 'unknownOption',
          line: 3,
          column: 41,
          data: { command: 'SET', token: '60', fix: BARE_NUMBER_FIX },
          suggestions: [{ messageId: 'nameExpiry', data: { replacement: "'EX', TTL" }, output: ioredis("await redis.set(`cache:${id}`, v, 'NX', 'EX', TTL);\nconst TTL = 60;") }],
        },
      ],
    },
    {
      code: ioredis("await redis.set(`cache:${id}`, v, 'EX', 60, 'NOW');"),
      errors: [{ messageId: 'unknownOption', line: 3, column: 45, data: { command: 'SET', token: 'NOW', fix: OTHER_FIX }, suggestions: [] }],
    },
    // a number that cannot be a TTL: no suggestion to name it
    {
      code: ioredis('await redis.set(`cache:${id}`, v, 1.5);'),
      errors: [{ messageId: 'unknownOption', line: 3, column: 35, data: { command: 'SET', token: '1.5', fix: OTHER_FIX }, suggestions: [] }],
    },
    {
      code: ioredis('await redis.set(`cache:${id}`, v, -60);'),
      errors: [{ messageId: 'unknownOption', line: 3, column: 35, data: { command: 'SET', token: '-60', fix: OTHER_FIX }, suggestions: [] }],
    },
    // a number Redis would not take after EX either (not a positive integer it parses): no suggestion
    {
      code: ioredis("await redis.set(`cache:${id}`, v, '007');"),
      errors: [{ messageId: 'unknownOption', line: 3, column: 35, data: { command: 'SET', token: '007', fix: OTHER_FIX }, suggestions: [] }],
    },
    {
      code: ioredis('await redis.set(`cache:${id}`, v, 0);'),
      errors: [{ messageId: 'unknownOption', line: 3, column: 35, data: { command: 'SET', token: '0', fix: OTHER_FIX }, suggestions: [] }],
    },
    // two options of one group: Redis rejects the command
    {
      code: ioredis("await redis.set(`cache:${id}`, v, 'EX', 60, 'PX', 60000);"),
      errors: [{ messageId: 'conflictingOptions', line: 3, column: 45, data: { option: 'PX', other: 'EX', command: 'SET' } }],
    },
    {
      code: ioredis("await redis.set(`cache:${id}`, v, 'NX', 'XX');"),
      errors: [{ messageId: 'conflictingOptions', line: 3, column: 41, data: { option: 'XX', other: 'NX', command: 'SET' } }],
    },
    {
      code: ioredis("await redis.call('SET', `cache:${id}`, v, 'EXAT', 1893456000, 'EX', 60);"),
      errors: [{ messageId: 'conflictingOptions', line: 3, column: 63, data: { option: 'EX', other: 'EXAT', command: 'SET' } }],
    },
    // node-redis's options object on ioredis: sent as `[object Object]`
    {
      code: ioredis('await redis.set(`cache:${id}`, v, { EX: 60, NX: true });'),
      errors: [
        {
          messageId: 'objectOptions',
          line: 3,
          column: 35,
          data: { client: 'ioredis', command: 'SET', text: '{ EX: 60, NX: true }' },
          suggestions: [{ messageId: 'useTokens', data: { replacement: "'EX', 60, 'NX'" }, output: ioredis("await redis.set(`cache:${id}`, v, 'EX', 60, 'NX');") }],
        },
      ],
    },
    // the suggestion reads the object as normalize.ts's optionObjectArgv does: node-redis 5's
    // expiration / condition, a flag set to false sends nothing
    {
      code: ioredis('await redis.set(`cache:${id}`, v, { expiration: { type: "EX", value: 60 } });'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 35, data: { client: 'ioredis', command: 'SET', text: '{ expiration: { type: "EX", value: 60 } }' }, suggestions: [{ messageId: 'useTokens', data: { replacement: "'EX', 60" }, output: ioredis("await redis.set(`cache:${id}`, v, 'EX', 60);") }] }],
    },
    {
      code: ioredis("await redis.set(`cache:${id}`, v, { expiration: { type: 'KEEPTTL' } });"),
      errors: [{ messageId: 'objectOptions', line: 3, column: 35, data: { client: 'ioredis', command: 'SET', text: "{ expiration: { type: 'KEEPTTL' } }" }, suggestions: [{ messageId: 'useTokens', data: { replacement: "'KEEPTTL'" }, output: ioredis("await redis.set(`cache:${id}`, v, 'KEEPTTL');") }] }],
    },
    {
      code: ioredis("await redis.set(`cache:${id}`, v, { condition: 'NX', PX: ttlMs });"),
      errors: [{ messageId: 'objectOptions', line: 3, column: 35, data: { client: 'ioredis', command: 'SET', text: "{ condition: 'NX', PX: ttlMs }" }, suggestions: [{ messageId: 'useTokens', data: { replacement: "'NX', 'PX', ttlMs" }, output: ioredis("await redis.set(`cache:${id}`, v, 'NX', 'PX', ttlMs);") }] }],
    },
    {
      code: ioredis('await redis.set(`cache:${id}`, v, { EX: 60, NX: false });'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 35, data: { client: 'ioredis', command: 'SET', text: '{ EX: 60, NX: false }' }, suggestions: [{ messageId: 'useTokens', data: { replacement: "'EX', 60" }, output: ioredis("await redis.set(`cache:${id}`, v, 'EX', 60);") }] }],
    },
    {
      code: ioredis('await redis.getex(`cache:${id}`, { type: "PX", value: 500 });'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 34, data: { client: 'ioredis', command: 'GETEX', text: '{ type: "PX", value: 500 }' }, suggestions: [{ messageId: 'useTokens', data: { replacement: "'PX', 500" }, output: ioredis("await redis.getex(`cache:${id}`, 'PX', 500);") }] }],
    },
    {
      code: ioredis('await redis.getex(`cache:${id}`, { ex: 60 });'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 34, data: { client: 'ioredis', command: 'GETEX', text: '{ ex: 60 }' }, suggestions: [{ messageId: 'useTokens', data: { replacement: "'EX', 60" }, output: ioredis("await redis.getex(`cache:${id}`, 'EX', 60);") }] }],
    },
    // no suggestion: an inner value that is not a literal, nothing sent, a spread, two expiries
    {
      code: ioredis('await redis.set(`cache:${id}`, v, { expiration: { type: "EX", value: ttl } });'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 35, data: { client: 'ioredis', command: 'SET', text: '{ expiration: { type: "EX", value: ttl } }' }, suggestions: [] }],
    },
    {
      code: ioredis('await redis.set(`cache:${id}`, v, { NX: false });'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 35, data: { client: 'ioredis', command: 'SET', text: '{ NX: false }' }, suggestions: [] }],
    },
    {
      code: ioredis('await redis.set(`cache:${id}`, v, { ...defaults, EX: 60 });'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 35, data: { client: 'ioredis', command: 'SET', text: '{ ...defaults, EX: 60 }' }, suggestions: [] }],
    },
    {
      code: ioredis('await redis.set(`cache:${id}`, v, { EX: 60, PX: 500 });'),
      // one finding: ioredis sends the object as `[object Object]`, never EX and PX
      errors: [{ messageId: 'objectOptions', line: 3, column: 35, data: { client: 'ioredis', command: 'SET', text: '{ EX: 60, PX: 500 }' }, suggestions: [] }],
    },
    {
      code: ioredis("await redis.set(`cache:${id}`, v, { EX: 60, expiration: { type: 'PX', value: 500 } });"),
      errors: [{ messageId: 'objectOptions', line: 3, column: 35, data: { client: 'ioredis', command: 'SET', text: "{ EX: 60, expiration: { type: 'PX', value: 500 } }" }, suggestions: [] }],
    },
    {
      code: ioredis("await redis.call('SET', `cache:${id}`, v, 'EXPIRE', 60);"),
      errors: [{ messageId: 'unknownOption', line: 3, column: 43, data: { command: 'SET', token: 'EXPIRE', fix: OTHER_FIX }, suggestions: [] }],
    },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [
    ioredis('await redis.set(`cache:${id}`, v, { NX: true });'),
    // rejected by Redis: nothing is written, valid-ttl-args' finding
    ioredis('await redis.set(`cache:${id}`, v, 300);'),
    ioredis("await redis.call('SET', `cache:${id}`, v, 'EXPIRE', 60);"),
    ioredis("await redis.set(`cache:${id}`, v, 'NX', 'XX');"),
  ],
  invalid: [],
});
