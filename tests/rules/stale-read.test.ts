/**
 * An expiry queued with its write only on a branch decided by a reply read in an earlier round
 * trip (issue 25, item 6) is not an atomic expiry: the key can expire between the read and the
 * write, which then recreates it without TTL. Reported for every client and batch kind, through an
 * `if`, a ternary or `&&`, a `const` derived from the reply, or the read in the test itself; not
 * for a test of something else, a read of another key, or a condition that decides the write too.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, setSuggestions, typedTester, untypedTester, upstash } from './tester.js';
import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../helpers/lint.js';

const fn = (body: string): string => `export async function hit(key: string, ttl: number) {\n${body}\n}`;

const stale = [
  // handed case 30's shape: an ioredis pipeline, `if (!current)` after a GET
  { code: ioredis(fn("  const current = await redis.get(key);\n  const p = redis.pipeline();\n  p.incr(key);\n  if (!current) p.expire(key, 60);\n  await p.exec();")), line: 6, read: 'GET', readLine: 4 },
  // node-redis MULTI, `&&` on a const derived from the reply
  {
    code: nodeRedis(fn("  const raw = await client.get(key);\n  const count = raw ? Number(raw) : 0;\n  const m = client.multi();\n  m.incr(key);\n  count === 0 && m.expire(key, 60);\n  await m.exec();")),
    line: 7,
    read: 'GET',
    readLine: 4,
  },
  // @upstash/redis pipeline, a ternary, an EXISTS read in the test itself
  { code: upstash(fn('  const p = redis.pipeline();\n  p.hincrby(key, "n", 1);\n  (await redis.exists(key)) ? null : p.expire(key, 60);\n  await p.exec();')), line: 5, read: 'EXISTS', readLine: 6 },
  // latitude-llm's export rate limit: the client in an annotated input object
  {
    code: `import type { Redis } from 'ioredis';\nexport async function limit(input: { readonly redis: Redis }, key: string) {\n  const current = await input.redis.get(key);\n  const pipeline = input.redis.pipeline();\n  pipeline.incr(key);\n  if (!current) {\n    pipeline.expire(key, 3600);\n  }\n  await pipeline.exec();\n}`,
    line: 5,
    read: 'GET',
    readLine: 3,
  },
  // a reply destructured from the read's promise, mapped to an [error, value] pair (round 38: an
  // ioredis rate limiter's `const [err, current] = await redis.get(key).then(...)`)
  {
    code: ioredis(fn("  const [err, current] = await redis.get(key).then((v) => [null, v], (e) => [e, null]);\n  if (err) throw err;\n  const p = redis.pipeline();\n  p.incr(key);\n  if (!current) p.expire(key, 60);\n  await p.exec();")),
    line: 7,
    read: 'GET',
    readLine: 4,
  },
  // an object pattern over a derived object
  {
    code: nodeRedis(fn("  const { value } = { value: await client.get(key) };\n  const m = client.multi();\n  m.incr(key);\n  if (value === null) m.expire(key, 60);\n  await m.exec();")),
    line: 6,
    read: 'GET',
    readLine: 4,
  },
];

// a chained MULTI whose expiry a TTL read of the key decides (`TTL < 0`): a key that expired
// between the read and the write is recreated without TTL, and re-armed by the next call's read,
// the TTL repair `allowTtlRepair` leaves out of `recommended`; strict reports it
const repaired = ioredis(fn('  const seen = await redis.ttl(key);\n  const m = redis.multi().sadd(key, "x");\n  if (seen < 0) m.expire(key, ttl);\n  await m.exec();'));

const pausedExpiry = ioredis(fn('  const paused = await redis.get("limits:paused");\n  const p = redis.pipeline();\n  p.incr(key);\n  if (!paused) p.expire(key, 60);\n  await p.exec();'));

const fine = [
  // the test reads no reply: the caller's TTL
  ioredis(fn('  const p = redis.pipeline();\n  p.incr(key);\n  if (ttl) p.expire(key, ttl);\n  await p.exec();')),
  // the condition decides the write too
  ioredis(fn('  const current = await redis.get(key);\n  if (!current) {\n    await redis.multi().incr(key).expire(key, 60).exec();\n  }')),
  // the expiry runs every time
  ioredis(fn('  const current = await redis.get(key);\n  await redis.multi().incr(key).expire(key, 60, "NX").exec();\n  return current;')),
];

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: fine,
    invalid: [
      ...stale.map(({ code, line }) => ({ code, errors: [{ messageId: 'staleGuard' as const, line }] })),
    ],
  });
  runRule(tester, 'incr-needs-expire-on-create', incrRule, {
    valid: [repaired],
    invalid: [{ code: repaired, options: [{ allowTtlRepair: false }], errors: [{ messageId: 'staleGuard' as const, line: 5 }] }],
  });
}

// a SET whose expiry an earlier read decides clears the TTL whenever the branch is not taken
const setCode = ioredis(fn("  const existing = await redis.get(key);\n  const m = redis.multi();\n  m.set(key, 'v');\n  if (!existing) m.expire(key, 60);\n  await m.exec();"));
runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [ioredis(fn("  const m = redis.multi();\n  m.set(key, 'v');\n  m.expire(key, 60);\n  await m.exec();"))],
  invalid: [
    {
      code: setCode,
      errors: [
        {
          messageId: 'setWithoutTtl',
          line: 6,
          suggestions: setSuggestions(setCode, "m.set(key, 'v'"),
        },
      ],
    },
  ],
});

// a reply of another key decides the EXPIRE: no stale read, but the EXPIRE is not queued every time
// the INCR is (redis-calls/queued-with.ts, round 32), so a paused limiter's counter keeps no TTL
describe('an EXPIRE decided by a reply of another key', () => {
  it('is no staleGuard, and no expiry of the INCR either: noExpiry', () => {
    const messages = lintSnippet(pausedExpiry, { 'redis-ttl/incr-needs-expire-on-create': 'error' });
    expect(messages.map((m) => [m.ruleId, m.messageId, m.line, m.column])).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 6, 5]]);
  });
  it("is no staleGuard when the other key's reply is destructured either", () => {
    const code = ioredis(fn('  const [paused] = await redis.mget("limits:paused");\n  const p = redis.pipeline();\n  p.incr(key);\n  if (!paused) p.expire(key, 60);\n  await p.exec();'));
    const messages = lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': 'error' });
    expect(messages.map((m) => [m.ruleId, m.messageId, m.line, m.column])).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 6, 5]]);
  });
});
