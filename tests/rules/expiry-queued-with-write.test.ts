/**
 * An EXPIRE queued after a write in the same MULTI counts as the write's TTL only when it is
 * queued whenever the write is (`redis-calls/queued-with.ts`, used by `file-index.ts`
 * `expiryAfterInUnit` and by `incr-needs-expire-on-create`'s unit reading), as `no-getset` already
 * required: not under an `if`, a loop, a `catch`, a `switch` or a callback the write is not under,
 * not after a `return` / `throw` that may send the transaction without it, and not after the key
 * variable is reassigned. The near misses that stay unreported: the EXPIRE in the same block, in
 * the same chain, in the same branch as the write, inside the `try` block holding both, a loop
 * over the keys collected with the write (`collected-keys.ts`), and an EXPIRE under the test of
 * the TTL it sends (`if (ttl) tx.expire(k, ttl)`: a caller that gives no TTL keeps the key on
 * purpose, the optional-TTL reading).
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules } from '../helpers/lint.js';

const app = (body: string): string =>
  `import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function save(id: string, v: string, fresh: boolean) {\n  const tx = redis.multi();\n${body}\n  await tx.exec();\n}\n`;

describe('set-requires-ttl-or-keepttl: an EXPIRE later in the MULTI', () => {
  it('queued whenever the SET is: no finding', () => {
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  tx.expire(`user:${id}`, 60);'))).toEqual([]);
    expect(lintKeyRules(app('  if (fresh) {\n    tx.set(`user:${id}`, v);\n    tx.expire(`user:${id}`, 60);\n  }'))).toEqual([]);
    expect(lintKeyRules(app('  try {\n    tx.set(`user:${id}`, v);\n    tx.expire(`user:${id}`, 60);\n  } catch {}'))).toEqual([]);
  });

  it('queued only under a branch the SET is not under: reported', () => {
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  if (fresh) tx.expire(`user:${id}`, 60);'))).toEqual([
      ['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 6],
    ]);
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  fresh && tx.expire(`user:${id}`, 60);'))).toEqual([
      ['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 6],
    ]);
  });

  it('queued in a callback, after a possible return, or of a reassigned key: reported', () => {
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  setImmediate(() => tx.expire(`user:${id}`, 60));'))).toEqual([
      ['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 6],
    ]);
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  if (!fresh) return tx.exec();\n  tx.expire(`user:${id}`, 60);'))).toEqual([
      ['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 6],
    ]);
    expect(lintKeyRules(app('  let key = `user:${id}`;\n  tx.set(key, v);\n  key = `other:${id}`;\n  tx.expire(key, 60);'))).toEqual([
      ['redis-ttl/set-requires-ttl-or-keepttl', 'setWithoutTtl', 6, 6],
    ]);
  });

  it('an EXPIRE only when the TTL it sends is given: the optional-TTL reading, no finding', () => {
    const optional = (body: string): string =>
      `import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function save(id: string, v: string, ttl?: number) {\n  const tx = redis.multi();\n${body}\n  await tx.exec();\n}\n`;
    expect(lintKeyRules(optional('  tx.set(`user:${id}`, v);\n  if (ttl) tx.expire(`user:${id}`, ttl);'))).toEqual([]);
    expect(lintKeyRules(optional('  tx.hincrby(`hits:${id}`, "n", 1);\n  if (ttl) tx.pexpire(`hits:${id}`, ttl);'))).toEqual([]);
  });

  it('an EXPIRE under a test that the loop queueing the write ran: no finding (letletme_data, round 32)', () => {
    const rows = (loop: string, test: string): string =>
      `import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function save(rows: Array<{ id: string }>, k: string) {\n  const tx = redis.multi();\n  ${loop}\n  if (${test}) tx.expire(k, 60);\n  await tx.exec();\n}\n`;
    expect(lintKeyRules(rows('for (const row of rows) tx.hset(k, row.id, "1");', 'rows.length > 0'))).toEqual([]);
    expect(lintKeyRules(rows('rows.forEach((row) => tx.hset(k, row.id, "1"));', 'rows.length'))).toEqual([]);
    // another collection's length, or a test that does not say the loop ran: reported
    expect(lintKeyRules(rows('for (const row of rows) tx.hset(k, row.id, "1");', 'k.length > 0'))).toEqual([
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 5, 30],
    ]);
    expect(lintKeyRules(rows('for (const row of rows) tx.hset(k, row.id, "1");', 'rows.length > 1'))).toEqual([
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 5, 30],
    ]);
  });

  it('an EXPIRE under a flag or count set beside every write: no finding (round 33)', () => {
    // line 6 holds the loop; the write is on line 8, in a block of its own
    const flagged = (declare: string, beside: string, test: string, extra = ''): string =>
      `import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function flush(counts: Record<string, number>, k: string) {\n  const tx = redis.multi();\n  ${declare}\n  for (const [field, n] of Object.entries(counts)) {\n    if (n > 0) {\n      tx.hincrby(k, field, n);\n      ${beside}\n    }\n  }\n  ${extra}if (${test}) tx.expire(k, 60);\n  await tx.exec();\n}\n`;
    const FOUND = [['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 8, 10]];
    expect(lintKeyRules(flagged('let hasData = false;', 'hasData = true;', 'hasData'))).toEqual([]);
    expect(lintKeyRules(flagged('let hasData = false;', 'hasData = true;', 'hasData === true'))).toEqual([]);
    expect(lintKeyRules(flagged('let items = 0;', 'items++;', 'items > 0'))).toEqual([]);
    expect(lintKeyRules(flagged('let items = 0;', 'items += 1;', 'items'))).toEqual([]);
    // reset elsewhere, set by other code than the write's block, a const, or a test that does not say it was set: reported
    expect(lintKeyRules(flagged('let hasData = false;', 'hasData = true;', 'hasData', 'hasData = false;\n  '))).toEqual(FOUND);
    expect(lintKeyRules(flagged('let hasData = false;', '', 'hasData', 'if (k) hasData = true;\n  '))).toEqual(FOUND);
    expect(lintKeyRules(flagged('let items = 0;', 'items--;', 'items !== 0'))).toEqual(FOUND);
    expect(lintKeyRules(flagged('let items = 0;', 'items++;', 'items > 1'))).toEqual(FOUND);
  });

  it('an EXPIRE under a const flag computed from the TTL it sends: the optional-TTL reading, no finding', () => {
    const blocked = (flag: string): string =>
      `import Redis from 'ioredis';\nconst redis = new Redis();\nexport async function block(ip: string, ttlMs: number) {\n  const permanent = ${flag};\n  const p = redis.pipeline();\n  p.hset(\`reason:\${ip}\`, { at: Date.now() });\n  if (!permanent) p.pexpire(\`reason:\${ip}\`, ttlMs);\n  await p.exec();\n}\n`;
    expect(lintKeyRules(blocked('ttlMs === 0'))).toEqual([]);
    expect(lintKeyRules(blocked('ttlMs <= 0'))).toEqual([]);
    // a flag that says nothing of the TTL: reported
    expect(lintKeyRules(blocked('ip.startsWith("10.")'))).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 6, 5]]);
    // a flag read in its own initializer (a TDZ error, but it parses): no reading, no endless walk
    expect(lintKeyRules(blocked('!permanent'))).toEqual([['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 6, 5]]);
  });

  it('a conditional EXPIRE followed by an unconditional one: the unconditional one covers it', () => {
    expect(lintKeyRules(app('  tx.set(`user:${id}`, v);\n  if (fresh) tx.expire(`user:${id}`, 30);\n  tx.expire(`user:${id}`, 60);'))).toEqual([]);
  });
});

describe('incr-needs-expire-on-create: an EXPIRE later in the MULTI', () => {
  it('in the same chain or block: no finding', () => {
    expect(lintKeyRules(app('  tx.incr(`hits:${id}`).expire(`hits:${id}`, 60);'))).toEqual([]);
    expect(lintKeyRules(app('  tx.incr(`hits:${id}`);\n  tx.expire(`hits:${id}`, 60);'))).toEqual([]);
  });

  it('only under a branch, or in a loop the INCR is not in: reported', () => {
    expect(lintKeyRules(app('  tx.incr(`hits:${id}`);\n  if (fresh) tx.expire(`hits:${id}`, 60);'))).toEqual([
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 5, 6],
    ]);
    expect(lintKeyRules(app('  tx.incr(`hits:${id}`);\n  for (const s of [60]) tx.expire(`hits:${id}`, s);'))).toEqual([
      ['redis-ttl/incr-needs-expire-on-create', 'noExpiry', 5, 6],
    ]);
  });
});
