/**
 * Caller-chosen TTLs (`allowOptionalTtl`, redis-calls/optional-ttl.ts), from the kind's definition:
 * a write without TTL on the arm of a branch whose condition tests the TTL value that the other
 * arm passes as the expiry, taken only when that value is absent, is the caller's choice of "no
 * TTL" and is not reported in `recommended`; any key (an MSET of the entries the other arm writes
 * one by one), any client syntax, `if` / `?:` / early return. Near misses stay reported: a
 * condition unrelated to the TTL, one under which the no-TTL arm runs while a TTL was given, and
 * `strict`.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, nodeRedis, runRule, setSuggestions, typedTester, untypedTester, upstash } from './tester.js';

const STRICT = { allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false } as const;

// the store's own TTL member, tested against `void 0` (compiled `!== undefined`)
const memberTtl = ioredis(
  'export class Storage {\n  constructor(private ttl?: number) {}\n  async write(key: string, value: string) {\n    if (this.ttl !== void 0) await redis.set(key, value, "EX", this.ttl);\n    else await redis.set(key, value);\n  }\n}',
);
// an MSET in the else arm of a test of the TTL the other arm passes to each SET of a MULTI
const msetElse = ioredis(
  'export async function mset(entries: Array<[string, string]>, ttl?: number) {\n  const t = ttl === undefined ? defaults.ttl : ttl;\n  if (t !== undefined && t !== 0) {\n    const multi = redis.multi();\n    for (const [key, value] of entries) multi.set(key, value, "PX", t);\n    await multi.exec();\n  } else await redis.mset(entries.flat());\n}',
);
const nodeRedisMsetElse = nodeRedis(
  'export async function mset(entries: Array<[string, string]>, t?: number) {\n  if (t !== undefined && t !== 0) {\n    const multi = client.multi();\n    for (const [key, value] of entries) multi.set(key, value, { PX: t });\n    await multi.exec();\n  } else {\n    await client.mSet(entries);\n  }\n}',
);
// the TTL is a member of an options object the test checks first
const optionsEx = nodeRedis(
  'export async function put(key: string, value: string, options?: { EX?: number }) {\n  if (options && options.EX) await client.set(key, value, { EX: options.EX });\n  else await client.set(key, value);\n}',
);
const typeofTest = ioredis(
  'export const save = (sid: string, sess: string, maxAge?: number) =>\n  typeof maxAge === "number" ? redis.setex(sid, maxAge, sess) : redis.set(sid, sess);',
);
const earlyReturn = ioredis(
  'export async function put(k: string, v: string, ttl?: number) {\n  if (!ttl) return redis.set(k, v);\n  return redis.set(k, v, "EX", ttl);\n}',
);
const positive = ioredis(
  'export async function put(k: string, v: string, ttlSeconds: number) {\n  if (ttlSeconds > 0) {\n    await redis.set(k, v, "EX", ttlSeconds);\n  } else {\n    await redis.set(k, v);\n  }\n}',
);
const upstashOptional = upstash(
  'export const put = (k: string, v: string, opts?: { ex?: number }) => (opts?.ex ? redis.set(k, v, { ex: opts.ex }) : redis.set(k, v));',
);
// a sentinel that is no TTL: 'never' (a configured TTL), -1 (Redis's own "no expiry")
const neverSentinel = ioredis(
  'export class Cache {\n  constructor(private expiresTTL: number | "never") {}\n  async set(key: string, v: string) {\n    if (this.expiresTTL === "never") {\n      await redis.set(key, v);\n    } else {\n      await redis.set(key, v, "EX", this.expiresTTL / 1000);\n    }\n  }\n}',
);
const minusOne = ioredis('export const put = (k: string, v: string, ttl: number) => (ttl !== -1 ? redis.set(k, v, "EX", ttl) : redis.set(k, v));');
// a hash counter with an expiry only when the caller gave one
const hashOptional = ioredis(
  'export async function bump(key: string, field: string, ttl?: number) {\n  if (ttl == null) return redis.hincrby(key, field, 1);\n  await redis.multi().hincrby(key, field, 1).expire(key, ttl).exec();\n}',
);

// near misses: the no-TTL arm runs while a TTL was given, or the test is not about that TTL
const largeTtl = ioredis(
  'export async function put(k: string, v: string, ttl: number) {\n  if (ttl > 1000) await redis.set(k, v, "PX", ttl);\n  else await redis.set(k, v);\n}',
);
const wrongArm = ioredis(
  'export async function put(k: string, v: string, ttl?: number) {\n  if (ttl) await redis.set(k, v);\n  else await redis.set(k, v, "EX", ttl);\n}',
);
const otherCondition = ioredis(
  'export async function put(k: string, v: string, enabled: boolean, ttl?: number) {\n  if (enabled && ttl) await redis.set(k, v, "EX", ttl);\n  else await redis.set(k, v);\n}',
);
const positiveEqual = ioredis(
  'export async function put(k: string, v: string, ttl: number) {\n  if (ttl === 60) await redis.set(k, v);\n  else await redis.set(k, v, "EX", ttl);\n}',
);
const constantTtl = ioredis(
  'export async function put(k: string, v: string, fresh: boolean) {\n  if (fresh) await redis.set(k, v, "EX", TTL);\n  else await redis.set(k, v);\n}',
);

/** An invalid case: one SET finding at `line` with its two suggestions, `call` ending after the value. */
const setFinding = (code: string, line: number, call: string) => ({
  code,
  errors: [{ messageId: 'setWithoutTtl' as const, line, suggestions: setSuggestions(code, call) }],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [memberTtl, msetElse, nodeRedisMsetElse, optionsEx, typeofTest, earlyReturn, positive, upstashOptional, neverSentinel, minusOne],
  invalid: [
    // `ttl > 1000` false: a TTL of 500 ms was given, and the write drops it
    setFinding(largeTtl, 5, 'else await redis.set(k, v'),
    // the write without TTL runs when the caller gave one
    setFinding(wrongArm, 4, 'if (ttl) await redis.set(k, v'),
    // `enabled && ttl` false does not say that no TTL was given
    setFinding(otherCondition, 5, 'else await redis.set(k, v'),
    // equal to 60: a TTL was given, and this arm drops it
    setFinding(positiveEqual, 4, 'if (ttl === 60) await redis.set(k, v'),
    // the test is not about the TTL the other arm passes (a constant)
    setFinding(constantTtl, 5, 'else await redis.set(k, v'),
    {
      // strict reports the caller's choice too
      code: memberTtl,
      options: [STRICT],
      errors: [{ messageId: 'setWithoutTtl', line: 7, suggestions: setSuggestions(memberTtl, 'else await redis.set(key, value') }],
    },
    {
      code: earlyReturn,
      options: [STRICT],
      errors: [{ messageId: 'setWithoutTtl', line: 4, suggestions: setSuggestions(earlyReturn, 'return redis.set(k, v') }],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (optional TTL)', incrRule, {
  valid: [hashOptional],
  invalid: [
    {
      code: hashOptional,
      options: [STRICT],
      errors: [{ messageId: 'noExpiry', line: 4 }],
    },
  ],
});

runRule(typedTester, 'set-requires-ttl-or-keepttl (typed)', setRule, {
  valid: [memberTtl, msetElse, optionsEx],
  invalid: [
    setFinding(largeTtl, 5, 'else await redis.set(k, v'),
  ],
});
