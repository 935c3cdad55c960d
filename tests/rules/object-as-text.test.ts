/**
 * An options object where ioredis's SET / GETEX take tokens (`redis.set(k, v, { NX: true })`, the
 * node-redis syntax): ioredis sends it as the token `[object Object]`
 * (`redis-calls/option-checks.ts` sendsObjectAsText), and normalize gives the rules that argv, so
 * the command table says Redis rejects SET: `set-requires-ttl-or-keepttl` reads it like any other
 * rejected SET (nothing written, no finding) and `valid-ttl-args` reports the object once
 * (`objectOptions`), not a second time as an unknown option. Near misses stay: node-redis reads
 * the same object as options (its SET without TTL is reported), a client of unknown flavor is
 * read as before (not judged), and an ioredis GETEX's object is sent as text too. A generic
 * command is read in the receiver's syntax the same way: ioredis's `call('SET', k, v, { EX: 60 })`
 * sends `[object Object]` (rejected, `valid-ttl-args`' finding), node-redis 4's
 * `sendCommand(['SET', k, v, 'EX', '60'])` sends its tokens (clean).
 */
import { describe, expect, it } from 'vitest';
import { redisCallsIn } from '../helpers/redis-calls.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import rule from '../../rules/valid-ttl-args.js';
import { ioredis, nodeRedis, runRule, setSuggestions, untypedTester } from './tester.js';

/** The Redis calls the rules read from `code` (untyped), in source order. */
function callsIn(code: string): Array<{ command: string; args: unknown[]; rejected: boolean }> {
  return redisCallsIn(code).map((call) => ({ command: call.command, args: call.args, rejected: call.description.rejected === true }));
}

describe('an options object ioredis does not read is one `[object Object]` token', () => {
  it('ioredis SET and GETEX: the object is sent as its text, Redis rejects both', () => {
    expect(callsIn(ioredis("await redis.set('k', 'v', { EX: 60, NX: true });"))).toEqual([{ command: 'SET', args: ['k', 'v', '[object Object]'], rejected: true }]);
    expect(callsIn(ioredis("const OPTS = { NX: true };\nawait redis.set('k', 'v', OPTS);"))).toEqual([{ command: 'SET', args: ['k', 'v', '[object Object]'], rejected: true }]);
    expect(callsIn(ioredis("await redis.getex('k', { EX: 60 });"))).toEqual([{ command: 'GETEX', args: ['k', '[object Object]'], rejected: true }]);
  });
  it('an ioredis generic call sends the object as its text too', () => {
    expect(callsIn(ioredis("await redis.call('SET', 'k', 'v', { EX: 60 });"))).toEqual([{ command: 'SET', args: ['k', 'v', '[object Object]'], rejected: true }]);
    expect(callsIn(ioredis("const OPTS = { NX: true };\nawait redis.send_command('SET', 'k', 'v', OPTS);"))).toEqual([{ command: 'SET', args: ['k', 'v', '[object Object]'], rejected: true }]);
    expect(callsIn(ioredis("await redis.call('GETEX', 'k', { EX: 60 });"))).toEqual([{ command: 'GETEX', args: ['k', '[object Object]'], rejected: true }]);
    // its tokens as written: SET ... EX 60
    expect(callsIn(ioredis("await redis.call('SET', 'k', 'v', 'EX', 60);"))).toEqual([{ command: 'SET', args: ['k', 'v', 'EX', 60], rejected: false }]);
  });
  it("node-redis 4's sendCommand takes tokens; node-redis reads a method's object as options; a client of unknown flavor is not judged", () => {
    expect(callsIn(nodeRedis("await client.sendCommand(['SET', 'k', 'v', 'EX', '60']);"))).toEqual([{ command: 'SET', args: ['k', 'v', 'EX', '60'], rejected: false }]);
    expect(callsIn(nodeRedis("await client.set('k', 'v', { EX: 60, NX: true });"))).toEqual([{ command: 'SET', args: ['k', 'v', 'EX', 60, 'NX'], rejected: false }]);
    expect(callsIn("await redisClient.call('SET', 'k', 'v', { EX: 60 });")).toEqual([{ command: 'SET', args: ['k', 'v', 'EX', 60], rejected: false }]);
    // a client of unknown flavor (read with ioredis's syntax by default) is not judged either
    expect(callsIn("const opts = { NX: true };\nawait redisClient.set('k', 'v', opts);")).toEqual([{ command: 'SET', args: ['k', 'v', 'NX'], rejected: false }]);
  });
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [
    // SET k v [object Object]: Redis rejects it, nothing is written (valid-ttl-args' finding)
    ioredis('await redis.set(`cache:${id}`, v, { NX: true });'),
    ioredis('const OPTS = { NX: true };\nawait redis.set(`cache:${id}`, v, OPTS);'),
    ioredis('await redis.set(`cache:${id}`, v, { GET: true, XX: true });'),
    // the generic command: SET k v [object Object] is rejected too; node-redis 4's tokens carry the TTL
    ioredis("await redis.call('SET', `cache:${id}`, v, { EX: 60 });"),
    nodeRedis("await client.sendCommand(['SET', `cache:${id}`, v, 'EX', '60']);"),
  ],
  invalid: [
    // node-redis reads the same object: a SET NX without TTL
    {
      code: nodeRedis('await client.set(`cache:${id}`, v, { NX: true });'),
      errors: [
        {
          messageId: 'createWithoutTtl',
          line: 3,
          column: 14,
          suggestions: [{ messageId: 'addExpiryPlaceholder', output: nodeRedis('await client.set(`cache:${id}`, v, { EX: TTL_SECONDS, NX: true });') }],
        },
      ],
    },
    // an ioredis SET without options stays reported
    {
      code: ioredis('await redis.set(`cache:${id}`, v);'),
      errors: [{ messageId: 'setWithoutTtl', line: 3, column: 13, suggestions: setSuggestions(ioredis('await redis.set(`cache:${id}`, v);'), 'redis.set(`cache:${id}`, v') }],
    },
  ],
});

runRule(untypedTester, 'valid-ttl-args', rule, {
  valid: [],
  invalid: [
    // one finding on the object, not a second `unknownOption` for its `[object Object]` token
    {
      code: ioredis('const OPTS = { NX: true };\nawait redis.set(`cache:${id}`, v, OPTS);'),
      errors: [{ messageId: 'objectOptions', line: 4, column: 35, data: { client: 'ioredis', command: 'SET', text: 'OPTS' }, suggestions: [] }],
    },
    // the generic command: the same finding on the object, its tokens as the suggestion
    {
      code: ioredis("await redis.call('SET', `cache:${id}`, v, { EX: 60 });"),
      errors: [{ messageId: 'objectOptions', line: 3, column: 43, data: { client: 'ioredis', command: 'SET', text: '{ EX: 60 }' }, suggestions: [{ messageId: 'useTokens', data: { replacement: "'EX', 60" }, output: ioredis("await redis.call('SET', `cache:${id}`, v, 'EX', 60);") }] }],
    },
    // GETEX through the generic command: one finding on the object (not a second `unknownOption`)
    {
      code: ioredis("await redis.call('GETEX', `cache:${id}`, { PX: 500 });"),
      errors: [{ messageId: 'objectOptions', line: 3, column: 42, data: { client: 'ioredis', command: 'GETEX', text: '{ PX: 500 }' }, suggestions: [{ messageId: 'useTokens', data: { replacement: "'PX', 500" }, output: ioredis("await redis.call('GETEX', `cache:${id}`, 'PX', 500);") }] }],
    },
    {
      code: ioredis('await redis.getex(`cache:${id}`, { PX: 500 });'),
      errors: [{ messageId: 'objectOptions', line: 3, column: 34, data: { client: 'ioredis', command: 'GETEX', text: '{ PX: 500 }' }, suggestions: [{ messageId: 'useTokens', data: { replacement: "'PX', 500" }, output: ioredis("await redis.getex(`cache:${id}`, 'PX', 500);") }] }],
    },
  ],
});
