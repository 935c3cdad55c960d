/**
 * A SET (or SETNX) without TTL whose expiry follows as a round trip of its own, on the same path:
 * the key is meant to expire, and is left without TTL forever only when the process dies or the
 * connection drops between the two. The finding says so (`setThenExpire`, naming the expiry's
 * line) instead of "never expires". Near-misses keep the plain message: the expiry on another
 * branch, of another key, before the write, or in another function.
 */
import rule from '../../rules/set-requires-ttl-or-keepttl.js';
import parser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const fn = (body: string) => `export async function put(k: string, v: string, cond: boolean) {\n${body}\n}`;

/** The two suggestions of an ioredis `set(k, v)` (or node-redis `set(k, v)`): an expiry, then KEEPTTL. */
function setSuggestions(code: string, call: string, keep: string, expiry: string) {
  const at = code.indexOf(call) + call.length - 1;
  const insert = (text: string) => code.slice(0, at) + text + code.slice(at);
  return [
    { messageId: 'addExpiryPlaceholder' as const, data: { name: 'TTL_SECONDS' }, output: insert(expiry) },
    { messageId: 'addKeepTtl' as const, output: insert(keep) },
  ];
}
const ioSet = (code: string) => setSuggestions(code, 'redis.set(k, v)', ", 'KEEPTTL'", ", 'EX', TTL_SECONDS");

const first = ioredis(fn('  await redis.set(k, v);\n  await redis.expire(k, 60);'));
const setnx = ioredis(fn('  await redis.setnx(`lock:${k}`, v);\n  if (cond) log();\n  await redis.pexpire(`lock:${k}`, 5000);'));
const nested = ioredis(fn('  if (cond) {\n    await redis.set(k, v);\n  }\n  await redis.expire(k, 60);'));
const node = nodeRedis(fn('  await client.set(k, v);\n  await client.expire(k, 60);'));
const otherBranch = ioredis(fn('  if (cond) await redis.set(k, v);\n  else await redis.expire(k, 60);'));
const otherKey = ioredis(fn('  await redis.set(k, v);\n  await redis.expire(`other:${k}`, 60);'));
const before = ioredis(fn('  await redis.expire(k, 60);\n  await redis.set(k, v);'));
const otherFunction = ioredis(fn('  await redis.set(k, v);\n  setTimeout(async () => { await redis.expire(k, 60); }, 10);'));

runRule(untypedTester, 'set-requires-ttl-or-keepttl (its expiry in a later round trip)', rule, {
  valid: [],
  invalid: [
    {
      code: first,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 4,
          column: 15,
          // the key's own TTL moves into the SET and its EXPIRE goes (redis-calls/write-expiry.ts)
          suggestions: [
            { messageId: 'moveLaterExpiry', data: { ttl: '60', line: '5' }, output: first.replace("redis.set(k, v);\n  await redis.expire(k, 60);", "redis.set(k, v, 'EX', 60);") },
            ioSet(first)[1]!,
          ],
        },
      ],
    },
    {
      // SETNX: its PEXPIRE's milliseconds (PX); the PEXPIRE also runs when the key existed, so it stays
      code: setnx,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 4,
          column: 15,
          suggestions: [{ messageId: 'addLaterExpiry', data: { ttl: '5000', line: '6' }, output: setnx.replace('setnx(`lock:${k}`, v', "set(`lock:${k}`, v, 'PX', 5000, 'NX'") }],
        },
      ],
    },
    // the write inside an `if`, the expiry after it in the enclosing block: it still follows; the
    // EXPIRE also runs when the SET did not, so it stays
    {
      code: nested,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 5,
          column: 17,
          suggestions: [{ messageId: 'addLaterExpiry', data: { ttl: '60', line: '7' }, output: nested.replace('redis.set(k, v)', "redis.set(k, v, 'EX', 60)") }, ioSet(nested)[1]!],
        },
      ],
    },
    {
      code: node,
      errors: [
        {
          messageId: 'setThenExpire',
          line: 4,
          column: 16,
          suggestions: [
            { messageId: 'moveLaterExpiry', data: { ttl: '60', line: '5' }, output: node.replace('client.set(k, v);\n  await client.expire(k, 60);', 'client.set(k, v, { EX: 60 });') },
            setSuggestions(node, 'client.set(k, v)', ', { KEEPTTL: true }', ', { EX: TTL_SECONDS }')[1]!,
          ],
        },
      ],
    },
    // near-misses: the plain finding (another branch, another key, before the write, another function)
    { code: otherBranch, errors: [{ messageId: 'setWithoutTtl', line: 4, column: 25, suggestions: ioSet(otherBranch) }] },
    { code: otherKey, errors: [{ messageId: 'setWithoutTtl', line: 4, column: 15, suggestions: ioSet(otherKey) }] },
    // the EXPIRE before the SET on its path: the SET discards the TTL it gave (setClearsTtl), and
    // the last suggestion keeps that TTL with KEEPTTL XX
    {
      code: before,
      errors: [
        {
          messageId: 'setClearsTtl',
          line: 5,
          column: 15,
          suggestions: [ioSet(before)[0]!, { messageId: 'addKeepTtlXx', output: before.replace('redis.set(k, v)', "redis.set(k, v, 'KEEPTTL', 'XX')") }],
        },
      ],
    },
    { code: otherFunction, errors: [{ messageId: 'setWithoutTtl', line: 4, column: 15, suggestions: ioSet(otherFunction) }] },
  ],
});

it('the message names the expiry\'s line and the fix', () => {
  const linter = new Linter({ configType: 'flat' });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser }, plugins: { 'redis-ttl': plugin as never }, rules: { 'redis-ttl/set-requires-ttl-or-keepttl': 'error' as const } }];
  expect(linter.verify(first, config, 'put.ts').map((m) => m.message)).toEqual([
    'SET of `k` writes it without TTL and its expiry follows as a separate round trip (line 5): a crash or lost connection between them leaves the key without TTL forever. Set it in the same command: SET key value EX <seconds> (with NX for a SETNX).',
  ]);
});
