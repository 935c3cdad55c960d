/**
 * A command that creates its key without TTL (INCR, HINCRBY, SADD, ...) whose expiry follows as a
 * round trip of its own on the same path: incr-needs-expire-on-create says so (`separateRoundTrip`,
 * naming the expiry's line), with the definition set-requires-ttl-or-keepttl uses
 * (`expiryInLaterRoundTrip`, redis-calls/file-index.ts): an EXPIRE-family command of the same key,
 * in the same function, in a statement after the write's in an enclosing block (also behind a
 * guard such as `n === 1`) or in a later element of one expression (`Promise.all([...])`).
 * Near-misses get the plain finding: the expiry on another branch, of another key, in a callback;
 * one sent before the write gets its own message.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import parser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const fn = (body: string) => `export async function hit(k: string, cond: boolean) {\n${body}\n}`;
const multi = (code: string, from: string, to: string) => ({ messageId: 'wrapInMulti' as const, output: code.replace(from, to) });
/** The runtime helper's suggestion: its import, and `from` (the INCR and its expiry) replaced by `to`. */
const helper = (code: string, from: string, to: string) => ({
  messageId: 'useIncrementWithTtl' as const,
  output: code.replace('const redis', "import { incrementWithTtl } from 'redis-ttl-runtime';\nconst redis").replace(from, to),
});

const first = ioredis(fn('  await redis.incr(k);\n  await redis.expire(k, 60);'));
const guarded = ioredis(fn('  const n = await redis.incr(`hits:${k}`);\n  if (n === 1) await redis.expire(`hits:${k}`, 60);'));
const together = ioredis(fn("  await Promise.all([redis.hincrby(`h:${k}`, 'f', 1), redis.expire(`h:${k}`, 60)]);"));
const node = nodeRedis(fn('  await client.sAdd(`seen:${k}`, k);\n  await client.pExpire(`seen:${k}`, 60000);'));
const otherBranch = ioredis(fn('  if (cond) await redis.incr(k);\n  else await redis.expire(k, 60);'));
const otherKey = ioredis(fn('  await redis.incr(k);\n  await redis.expire(`other:${k}`, 60);'));
const before = ioredis(fn('  await redis.expire(k, 60);\n  await redis.incr(k);'));
const inCallback = ioredis(fn('  return redis.incr(k).then(() => redis.expire(k, 60));'));
// milliseconds given to EXPIRE (ttl-units' finding): no helper suggestion carrying `* 1000` more;
// a constant named in seconds, or milliseconds given to PEXPIRE, keeps it
const msToExpire = ioredis(fn('  await redis.incr(k);\n  await redis.expire(k, 24 * 60 * 60 * 1000);'));
const secondsConstant = ioredis(`const DAY_SECONDS = 86400;\n${fn('  await redis.incr(k);\n  await redis.expire(k, DAY_SECONDS);')}`);
const msToPexpire = ioredis(fn('  await redis.incr(k);\n  await redis.pexpire(k, 24 * 60 * 60 * 1000);'));

runRule(untypedTester, 'incr-needs-expire-on-create (its expiry in a later round trip)', incrRule, {
  valid: [],
  invalid: [
    {
      code: msToExpire,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          column: 15,
          data: { command: 'INCR', key: 'k', line: '5', client: '', hint: '' },
          suggestions: [multi(msToExpire, 'redis.incr(k);\n  await redis.expire(k, 24 * 60 * 60 * 1000);', 'redis.multi().incr(k).expire(k, 24 * 60 * 60 * 1000).exec();')],
        },
      ],
    },
    {
      code: secondsConstant,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 5,
          column: 15,
          data: { command: 'INCR', key: 'k', line: '6', client: '', hint: '' },
          suggestions: [
            helper(secondsConstant, 'await redis.incr(k);\n  await redis.expire(k, DAY_SECONDS);', "await incrementWithTtl(redis, k, { ttlMs: DAY_SECONDS * 1000, mode: 'sliding' });"),
            multi(secondsConstant, 'redis.incr(k);\n  await redis.expire(k, DAY_SECONDS);', 'redis.multi().incr(k).expire(k, DAY_SECONDS).exec();'),
          ],
        },
      ],
    },
    {
      code: msToPexpire,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          column: 15,
          data: { command: 'INCR', key: 'k', line: '5', client: '', hint: '' },
          suggestions: [
            helper(msToPexpire, 'await redis.incr(k);\n  await redis.pexpire(k, 24 * 60 * 60 * 1000);', "await incrementWithTtl(redis, k, { ttlMs: 24 * 60 * 60 * 1000, mode: 'sliding' });"),
            multi(msToPexpire, 'redis.incr(k);\n  await redis.pexpire(k, 24 * 60 * 60 * 1000);', 'redis.multi().incr(k).pexpire(k, 24 * 60 * 60 * 1000).exec();'),
          ],
        },
      ],
    },
    {
      code: first,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          column: 15,
          data: { command: 'INCR', key: 'k', line: '5', client: '', hint: '' },
          suggestions: [
            helper(first, 'await redis.incr(k);\n  await redis.expire(k, 60);', "await incrementWithTtl(redis, k, { ttlMs: 60000, mode: 'sliding' });"),
            multi(first, 'redis.incr(k);\n  await redis.expire(k, 60);', 'redis.multi().incr(k).expire(k, 60).exec();'),
          ],
        },
      ],
    },
    {
      // behind a guard: still the expiry of this write's path
      code: guarded,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          column: 25,
          data: { command: 'INCR', key: 'hits:*', line: '5', client: '', hint: '' },
          suggestions: [
            helper(guarded, 'const n = await redis.incr(`hits:${k}`);\n  if (n === 1) await redis.expire(`hits:${k}`, 60);', 'const { value: n } = await incrementWithTtl(redis, `hits:${k}`, { ttlMs: 60000 });'),
          ],
        },
      ],
    },
    // one expression, sent in order: a later element
    { code: together, errors: [{ messageId: 'separateRoundTrip', line: 4, column: 28, data: { command: 'HINCRBY', key: 'h:*', line: '4', client: '', hint: '' }, suggestions: [] }] },
    {
      code: node,
      errors: [
        {
          messageId: 'separateRoundTrip',
          line: 4,
          column: 16,
          data: { command: 'SADD', key: 'seen:*', line: '5', client: '', hint: '' },
          suggestions: [multi(node, 'client.sAdd(`seen:${k}`, k);\n  await client.pExpire(`seen:${k}`, 60000);', 'client.multi().sAdd(`seen:${k}`, k).pExpire(`seen:${k}`, 60000).exec();')],
        },
      ],
    },
    // near-misses: another branch, another key (no expiry of the key follows), before, a callback
    {
      code: otherBranch,
      errors: [{ messageId: 'noExpiry', line: 4, column: 25, suggestions: [multi(otherBranch, 'redis.incr(k);', 'redis.multi().incr(k).expire(k, TTL_SECONDS).exec();')] }],
    },
    {
      code: otherKey,
      errors: [{ messageId: 'noExpiry', line: 4, column: 15, suggestions: [multi(otherKey, 'redis.incr(k);', 'redis.multi().incr(k).expire(k, TTL_SECONDS).exec();')] }],
    },
    {
      code: before,
      errors: [{ messageId: 'expiryBeforeCreate', line: 5, column: 15, suggestions: [multi(before, 'redis.expire(k, 60);\n  await redis.incr(k);', 'redis.multi().incr(k).expire(k, 60).exec();')] }],
    },
    { code: inCallback, errors: [{ messageId: 'noExpiry', line: 4, column: 16, suggestions: [] }] },
  ],
});

it('both key rules name the expiry of a later round trip the same way', () => {
  const linter = new Linter({ configType: 'flat' });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser },
      plugins: { 'redis-ttl': plugin as never },
      rules: { 'redis-ttl/incr-needs-expire-on-create': 'error' as const, 'redis-ttl/set-requires-ttl-or-keepttl': 'error' as const },
    },
  ];
  const code = ioredis(fn('  await redis.set(`s:${k}`, k);\n  await redis.incr(`hits:${k}`);\n  if (cond) return;\n  await redis.expire(`s:${k}`, 60);\n  await redis.expire(`hits:${k}`, 60);'));
  expect(linter.verify(code, config, 'hit.ts').map((m) => `${m.line}:${m.column} ${m.message}`)).toEqual([
    '4:15 SET of `s:*` writes it without TTL and its expiry follows as a separate round trip (line 7): a crash or lost connection between them leaves the key without TTL forever. Set it in the same command: SET key value EX <seconds> (with NX for a SETNX).',
    '5:15 INCR of `hits:*` creates it without TTL and its expiry follows as a separate round trip (line 8): a crash or lost connection between them (or a guard such as `n === 1` that misses) leaves the key without TTL forever. Send both in one MULTI or Lua script.',
  ]);
});

// the same definition in set-requires-ttl-or-keepttl: a later element of one expression
runRule(untypedTester, 'set-requires-ttl-or-keepttl (its expiry in a later element)', setRule, {
  valid: [],
  invalid: [
    {
      code: ioredis(fn('  await Promise.all([redis.set(`s:${k}`, k), redis.expire(`s:${k}`, 60)]);')),
      errors: [
        {
          messageId: 'setThenExpire',
          line: 4,
          column: 28,
          suggestions: [
            // the EXPIRE's own TTL; the EXPIRE is no statement of its own (an element of the array): it stays
            { messageId: 'addLaterExpiry', output: ioredis(fn("  await Promise.all([redis.set(`s:${k}`, k, 'EX', 60), redis.expire(`s:${k}`, 60)]);")) },
            { messageId: 'addKeepTtl', output: ioredis(fn("  await Promise.all([redis.set(`s:${k}`, k, 'KEEPTTL'), redis.expire(`s:${k}`, 60)]);")) },
          ],
        },
      ],
    },
  ],
});
