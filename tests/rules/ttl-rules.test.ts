/**
 * RuleTester tests of the rules added for issue 15: expire-needs-positive-ttl, ttl-units,
 * fixed-window-expire, no-persist, min-redis-version, and set-requires-ttl-or-keepttl's number as
 * node-redis SET options.
 */
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import expireNeedsPositiveTtl from '../../rules/expire-needs-positive-ttl.js';
import fixedWindowExpire from '../../rules/fixed-window-expire.js';
import minRedisVersion from '../../rules/min-redis-version.js';
import noPersist from '../../rules/no-persist.js';
import setRequiresTtl from '../../rules/set-requires-ttl-or-keepttl.js';
import ttlUnits from '../../rules/ttl-units.js';
import { ioredis, nodeRedis, runRule, untypedTester, upstash } from './tester.js';

runRule(untypedTester, 'expire-needs-positive-ttl', expireNeedsPositiveTtl, {
  valid: [
    ioredis(`redis.expire('k', 60);`),
    ioredis(`redis.set('k', 'v', 'EX', 5 * 60);`),
    ioredis(`async function f(expires: Date) { const ttl = Math.ceil((expires.getTime() - Date.now()) / 1000); if (ttl <= 0) return; await redis.set('k', 'v', 'EX', ttl); }`),
    ioredis(`async function f(expires: Date) { await redis.set('k', 'v', 'EX', Math.max(1, Math.ceil((expires.getTime() - Date.now()) / 1000))); }`),
    ioredis(`async function f(ms: number) { await redis.pexpire('k', ms); }`),
    ioredis(`async function f(ms: number) { await redis.expire('k', Math.ceil(ms / 1000)); }`),
    ioredis(`async function f(span: number) { await redis.expire('k', span + 1); }`),
    ioredis(`async function f(at: number) { await redis.expireat('k', at - 5); }`),
    // recommended: EXPIRE 0 is a DEL the code means; a remaining time the EXPIRE family deletes at
    // <= 0 (the moment has passed); the caller's TTL converted and rounded (strict reports these)
    ioredis(`redis.expire('k', 0);`),
    ioredis(`async function f(ms: number) { await redis.expire('k', Math.floor(ms / 1000)); }`),
    ioredis(`async function f(expiresAt: number) { await redis.pexpire('k', expiresAt - Date.now()); }`),
  ],
  invalid: [
    {
      code: ioredis(`redis.expire('k', 0);`),
      options: [{ checkParameters: true }],
      errors: [{ messageId: 'literalDeletes', line: 3, column: 19, endColumn: 20, data: { command: 'EXPIRE', value: '0', key: 'k' } }],
    },
    {
      code: ioredis(`redis.set('k', 'v', 'EX', 0);`),
      errors: [{ messageId: 'literalRejected', line: 3, column: 27, data: { command: 'SET ... EX', value: '0', key: 'k' } }],
    },
    {
      code: ioredis(`async function f(sid: string, expires: Date) {\n  const ttl = Math.ceil((expires.getTime() - Date.now()) / 1000);\n  await redis.set(sid, 'v', 'EX', ttl);\n}`),
      errors: [
        {
          messageId: 'computed',
          line: 5,
          column: 35,
          endColumn: 38,
          suggestions: [
            { messageId: 'clampToOne', output: ioredis(`async function f(sid: string, expires: Date) {\n  const ttl = Math.ceil((expires.getTime() - Date.now()) / 1000);\n  await redis.set(sid, 'v', 'EX', Math.max(1, ttl));\n}`) },
          ],
        },
      ],
    },
    {
      // strict: a value nothing bounds minus a margin (recommended: ttl-arithmetic.test.ts)
      code: ioredis(`async function f(windowSeconds: number) { await redis.expire('k', windowSeconds - 1); }`),
      options: [{ checkParameters: true }],
      errors: [{ messageId: 'computed', line: 3, column: 67, suggestions: [{ messageId: 'clampToOne', output: ioredis(`async function f(windowSeconds: number) { await redis.expire('k', Math.max(1, windowSeconds - 1)); }`) }] }],
    },
    {
      code: ioredis(`async function f(ms: number) { await redis.expire('k', ms / 1000); }`),
      errors: [{ messageId: 'computed', line: 3, column: 56, suggestions: [{ messageId: 'clampToOne', output: ioredis(`async function f(ms: number) { await redis.expire('k', Math.max(1, Math.ceil(ms / 1000))); }`) }] }],
    },
    {
      code: ioredis(`async function f(ms: number) { await redis.expire('k', Math.floor(ms / 1000)); }`),
      options: [{ checkParameters: true }],
      errors: [{ messageId: 'computed', line: 3, column: 56, suggestions: [{ messageId: 'clampToOne', output: ioredis(`async function f(ms: number) { await redis.expire('k', Math.max(1, Math.floor(ms / 1000))); }`) }] }],
    },
    // The check the message proposes tests the TTL the call passes, never one of its inputs: the
    // name or property that holds it, or else the computed value (a deadline `expiresAt` is
    // positive and already past when `expiresAt - Date.now()` is <= 0).
    ...[
      `Math.floor((expiresAt - Date.now()) / 1000)`,
      `expiresAt - Date.now()`,
      `Math.floor((deadline.getTime() - Date.now()) / 1000)`,
      `Math.floor(ms / 1000)`,
      `(expiresAt - Date.now()) as number`,
    ].map((ttl) => {
      const wrap = (arg: string) => ioredis(`export async function f(expiresAt: number, deadline: Date, windowSeconds: number, ms: number) { await redis.pexpire('k', ${arg}); }`);
      return {
        code: wrap(ttl),
        options: [{ checkParameters: true }] as [{ checkParameters: boolean }],
        errors: [
          {
            message: /Check it before the call \(`const ttl = \.\.\.; if \(ttl <= 0\) \.\.\.`, on the computed value\) or clamp it: Math\.max\(1, \.\.\.\)\.$/,
            suggestions: [{ messageId: 'clampToOne' as const, output: wrap(`Math.max(1, ${ttl})`) }],
          },
        ] as never, // RuleTester takes a message (here a RegExp) in place of a messageId; its types do not
      };
    }),
    ...(
      [
        [`async function f(expiresAt: number) { const remaining = expiresAt - Date.now(); await redis.pexpire('k', REF); }`, 'remaining', [{ checkParameters: true }], 'remaining'],
        [`async function f(opts: { ttlMs: number }) { await redis.pexpire('k', REF); }`, 'opts.ttlMs', [{ checkParameters: true }], 'opts.ttlMs'],
        [`async function f(ttlMs: number) { await redis.pexpire('k', REF); }`, 'ttlMs!', [{ checkParameters: true }], 'ttlMs'],
      ] as const
    ).map(([body, ref, options, checked]) => ({
      code: ioredis(body.replace('REF', ref)),
      options: options as [{ checkParameters: boolean }],
      errors: [
        {
          message: new RegExp(`Check it before the call \\(\`if \\(${checked.replace('.', '\\.')} <= 0\\) \\.\\.\\.\`\\) or clamp it`),
          suggestions: [{ messageId: 'clampToOne' as const, output: ioredis(body.replace('REF', `Math.max(1, ${ref})`)) }],
        },
      ] as never,
    })),
    {
      // strict: a caller's TTL, never compared
      code: ioredis(`async function lock(key: string, ttlMs: number) { await redis.pexpire(key, ttlMs); }`),
      options: [{ checkParameters: true }],
      errors: [{ messageId: 'computed', line: 3, column: 76, suggestions: [{ messageId: 'clampToOne', output: ioredis(`async function lock(key: string, ttlMs: number) { await redis.pexpire(key, Math.max(1, ttlMs)); }`) }] }],
    },
  ],
});

runRule(untypedTester, 'ttl-units', ttlUnits, {
  valid: [
    ioredis(`const TTL_MS = 300_000;\nredis.set('k', 'v', 'PX', TTL_MS);`),
    ioredis(`const TTL_SECONDS = 300;\nredis.set('k', 'v', 'EX', TTL_SECONDS);`),
    ioredis(`async function f(ttlMs: number) { await redis.expire('k', Math.ceil(ttlMs / 1000)); }`),
    ioredis(`async function f(expiresAt: number) { await redis.pexpireat('k', expiresAt); }`),
    ioredis(`redis.pexpireat('k', Date.now() + 60_000);`),
    ioredis(`async function f(expires: Date) { await redis.set('k', 'v', 'EX', Math.ceil((expires.getTime() - Date.now()) / 1000)); }`),
    ioredis(`async function f(ttl: number) { await redis.expire('k', ttl); }`),
    nodeRedis(`async function f(ttlSeconds: number) { await client.set('k', 'v', { EX: ttlSeconds }); }`),
  ],
  invalid: [
    {
      code: ioredis(`const ROLES_TTL_MS = 5 * 60 * 1000;\nredis.set('k', 'v', 'EX', ROLES_TTL_MS);`),
      errors: [{ messageId: 'msAsSeconds', line: 4, column: 27, endColumn: 39, suggestions: [{ messageId: 'useInstead', data: { replacement: 'PX' }, output: ioredis(`const ROLES_TTL_MS = 5 * 60 * 1000;\nredis.set('k', 'v', 'PX', ROLES_TTL_MS);`) }] }],
    },
    {
      code: ioredis(`async function f(ttlSeconds: number) { await redis.pexpire('k', ttlSeconds); }`),
      errors: [{ messageId: 'secondsAsMs', line: 3, column: 65, suggestions: [{ messageId: 'useInstead', output: ioredis(`async function f(ttlSeconds: number) { await redis.expire('k', ttlSeconds); }`) }] }],
    },
    {
      code: ioredis(`async function f(ttl: number) { await redis.expire('k', ttl * 1000); }`),
      errors: [{ messageId: 'msAsSeconds', line: 3, column: 57, suggestions: [{ messageId: 'useInstead', output: ioredis(`async function f(ttl: number) { await redis.pexpire('k', ttl * 1000); }`) }] }],
    },
    {
      code: ioredis(`async function f(v: string) { await redis.setex('k', Math.floor(Date.now() / 1000) + 3600, v); }`),
      errors: [{ messageId: 'absoluteAsDuration', line: 3, column: 54, suggestions: [] }],
    },
    {
      code: ioredis(`redis.set('k', 'v', 'PX', Date.now() + 60_000);`),
      errors: [{ messageId: 'absoluteAsDuration', line: 3, column: 27, suggestions: [{ messageId: 'useInstead', data: { replacement: 'PXAT' }, output: ioredis(`redis.set('k', 'v', 'PXAT', Date.now() + 60_000);`) }] }],
    },
    {
      code: ioredis(`redis.expireat('k', 3600);`),
      errors: [{ messageId: 'durationAsAbsolute', line: 3, column: 21, suggestions: [] }],
    },
    {
      code: nodeRedis(`async function f(lockTtlMs: number) { await client.set('lock', 'me', { NX: true, EX: lockTtlMs }); }`),
      errors: [{ messageId: 'msAsSeconds', line: 3, column: 86, suggestions: [{ messageId: 'useInstead', output: nodeRedis(`async function f(lockTtlMs: number) { await client.set('lock', 'me', { NX: true, PX: lockTtlMs }); }`) }] }],
    },
    {
      code: upstash(`async function f(ttlMs: number) { await redis.set('k', 'v', { ex: ttlMs }); }`),
      errors: [{ messageId: 'msAsSeconds', line: 3, column: 67, suggestions: [{ messageId: 'useInstead', output: upstash(`async function f(ttlMs: number) { await redis.set('k', 'v', { px: ttlMs }); }`) }] }],
    },
    {
      code: nodeRedis(`async function f(ms: number) { await client.pExpire('k', ms / 1000); }`),
      errors: [{ messageId: 'secondsAsMs', line: 3, column: 58, suggestions: [{ messageId: 'useInstead', output: nodeRedis(`async function f(ms: number) { await client.expire('k', ms / 1000); }`) }] }],
    },
    // node-redis 4+ names a one-word command in lower case and the rest in camelCase: the
    // suggestion writes the method node-redis has (`pExpire`, `pExpireAt`, `pSetEx`), never `pexpire`
    {
      code: nodeRedis(`async function f(ttlMs: number) { await client.expire('k', ttlMs); }`),
      errors: [{ messageId: 'msAsSeconds', line: 3, column: 60, suggestions: [{ messageId: 'useInstead', data: { replacement: 'PEXPIRE' }, output: nodeRedis(`async function f(ttlMs: number) { await client.pExpire('k', ttlMs); }`) }] }],
    },
    {
      code: nodeRedis(`async function f(ttlMs: number) { await client.setEx('k', ttlMs, 'v'); }`),
      errors: [{ messageId: 'msAsSeconds', line: 3, column: 59, suggestions: [{ messageId: 'useInstead', data: { replacement: 'PSETEX' }, output: nodeRedis(`async function f(ttlMs: number) { await client.pSetEx('k', ttlMs, 'v'); }`) }] }],
    },
    {
      code: nodeRedis(`async function f() { await client.expireAt('k', Date.now() + 60_000); }`),
      errors: [{ messageId: 'absoluteUnit', line: 3, column: 49, suggestions: [{ messageId: 'useInstead', data: { replacement: 'PEXPIREAT' }, output: nodeRedis(`async function f() { await client.pExpireAt('k', Date.now() + 60_000); }`) }] }],
    },
    // the same one-word name on ioredis stays lower case
    {
      code: ioredis(`async function f(ttlMs: number) { await redis.setex('k', ttlMs, 'v'); }`),
      errors: [{ messageId: 'msAsSeconds', line: 3, column: 58, suggestions: [{ messageId: 'useInstead', data: { replacement: 'PSETEX' }, output: ioredis(`async function f(ttlMs: number) { await redis.psetex('k', ttlMs, 'v'); }`) }] }],
    },
  ],
});

runRule(untypedTester, 'fixed-window-expire', fixedWindowExpire, {
  valid: [
    // a session activity counter: not compared with a limit
    ioredis(`async function hit(key: string) { const n = await redis.incr(key); await redis.expire(key, 60); return n; }`),
    ioredis(`async function allow(key: string, limit: number) { const n = await redis.incr(key); await redis.expire(key, 60, 'NX'); return n <= limit; }`),
    ioredis(`async function allow(key: string, limit: number) { const n = await redis.incr(key); if (n === 1) await redis.expire(key, 60); return n <= limit; }`),
    ioredis(`async function allow(key: string, limit: number) { const n = await redis.incr(key); if (n > limit) return false; await redis.expire(key, 60); return true; }`),
    ioredis(`async function f(key: string) { await redis.set(key, '1', 'KEEPTTL'); if ((await redis.ttl(key)) < 0) await redis.expire(key, 60); }`),
    ioredis(`async function f(key: string) { await redis.hincrby(key, 'n', 1); if ((await redis.ttl(key)) < 0) await redis.expire(key, 60); }`),
  ],
  invalid: [
    {
      code: ioredis(`async function allow(ip: string, limit: number) {\n  const count = await redis.incr(\`rl:\${ip}\`);\n  await redis.expire(\`rl:\${ip}\`, 60);\n  return count <= limit;\n}`),
      errors: [
        {
          messageId: 'rearmedOnEveryIncrement',
          line: 5,
          column: 15,
          endColumn: 37,
          data: { command: 'EXPIRE', key: 'rl:*', increment: 'INCR', line: '4' },
          suggestions: [{ messageId: 'addNx', output: ioredis(`async function allow(ip: string, limit: number) {\n  const count = await redis.incr(\`rl:\${ip}\`);\n  await redis.expire(\`rl:\${ip}\`, 60, 'NX');\n  return count <= limit;\n}`) }],
        },
      ],
    },
    {
      code: ioredis(`async function allow(key: string, max: number) {\n  const [[, n]] = (await redis.multi().incr(key).pexpire(key, 1000).exec()) as any;\n  return n > max ? 'deny' : 'allow';\n}`),
      errors: [{ messageId: 'rearmedOnEveryIncrement', line: 4, column: 50, suggestions: [{ messageId: 'addNx', output: ioredis(`async function allow(key: string, max: number) {\n  const [[, n]] = (await redis.multi().incr(key).pexpire(key, 1000, 'NX').exec()) as any;\n  return n > max ? 'deny' : 'allow';\n}`) }] }],
    },
    {
      code: ioredis(`async function touch(key: string, value: string) {\n  await redis.set(key, value);\n  const ttl = await redis.ttl(key);\n  if (ttl < 0) await redis.expire(key, 60);\n}`),
      errors: [{ messageId: 'rearmedAfterSet', line: 6, column: 28, data: { command: 'EXPIRE', key: 'key', line: '4' }, suggestions: [] }],
    },
  ],
});

runRule(untypedTester, 'no-persist', noPersist, {
  valid: [
    ioredis(`redis.expire('k', 60);`),
    ioredis(`redis.getex('k', 'EX', 60);`),
    ioredis(`// redis-ttl persistent: promoted drafts live forever\nredis.persist('doc:1');`),
  ],
  invalid: [
    { code: ioredis(`redis.persist('cart:1');`), errors: [{ messageId: 'persist', line: 3, column: 7, endColumn: 24 }] },
    { code: ioredis(`redis.getex('cart:1', 'PERSIST');`), errors: [{ messageId: 'persist', line: 3, column: 7 }] },
    { code: nodeRedis(`client.getEx('cart:1', { PERSIST: true });`), errors: [{ messageId: 'persist', line: 3, column: 8 }] },
    { code: nodeRedis(`client.getEx('cart:1', { type: 'PERSIST' });`), errors: [{ messageId: 'persist', line: 3, column: 8 }] },
    { code: upstash(`redis.getex('cart:1', { persist: true });`), errors: [{ messageId: 'persist', line: 3, column: 7 }] },
    { code: ioredis(`redis.call('HPERSIST', 'h', 'FIELDS', 1, 'f');`), errors: [{ messageId: 'persistFields', line: 3, column: 12 }] },
  ],
});

runRule(untypedTester, 'min-redis-version', minRedisVersion, {
  valid: [
    { code: ioredis(`redis.expire('k', 60);`), settings: { 'redis-ttl': { redisVersion: '6.2' } } },
    { code: ioredis(`redis.getex('k', 'EX', 60);`), settings: { 'redis-ttl': { redisVersion: '6.2' } } },
    { code: ioredis(`redis.expire('k', 60, 'NX');`), settings: { 'redis-ttl': { redisVersion: '7.0.15' } } },
  ],
  invalid: [
    {
      code: ioredis(`redis.pipeline().incr(k).expire(k, 60, 'NX').exec();`),
      settings: { 'redis-ttl': { redisVersion: '6.2' } },
      errors: [{ messageId: 'tooNew', line: 3, column: 26, data: { feature: 'EXPIRE ... NX', version: '7.0.0', configured: '6.2', alternative: 'Do without NX (a Lua script can test the condition)' } }],
    },
    {
      code: ioredis(`redis.set(k, v, 'KEEPTTL');\nredis.getex(k, 'EX', 60);`),
      settings: { 'redis-ttl': { redisVersion: '5' } },
      errors: [
        { messageId: 'tooNew', line: 3, column: 7, data: { feature: 'SET ... KEEPTTL', version: '6.0.0', configured: '5', alternative: 'Use a Lua script that reads the PTTL and writes with SET ... PX' } },
        { messageId: 'tooNew', line: 4, column: 7, data: { feature: 'GETEX', version: '6.2.0', configured: '5', alternative: 'Use GET and EXPIRE in one MULTI' } },
      ],
    },
    {
      code: nodeRedis(`client.hExpire('h', ['f'], 60);\nclient.sendCommand(['HSETEX', 'h', 'EX', '60', 'FIELDS', '1', 'f', 'v']);`),
      settings: { 'redis-ttl': { redisVersion: '7.2' } },
      errors: [
        { messageId: 'tooNew', line: 3, column: 8, data: { feature: 'HEXPIRE', version: '7.4.0', configured: '7.2', alternative: 'Use a command the server has' } },
        { messageId: 'tooNew', line: 4, column: 21, data: { feature: 'HSETEX', version: '8.0.0', configured: '7.2', alternative: 'Use HSET and EXPIRE of the key in one MULTI' } },
      ],
    },
  ],
});

describe('min-redis-version without settings', () => {
  it('is a configuration error naming the setting', () => {
    const linter = new Linter({ configType: 'flat' });
    expect(() =>
      linter.verify("redis.getex('k');", [{ plugins: { t: { rules: { r: minRedisVersion as never } } }, rules: { 't/r': 'error' } }]),
    ).toThrow("redis-ttl/min-redis-version needs settings['redis-ttl'].redisVersion");
  });
  it('rejects a redisVersion that is not a version', () => {
    const linter = new Linter({ configType: 'flat' });
    expect(() =>
      linter.verify("redis.getex('k');", [{ settings: { 'redis-ttl': { redisVersion: 'seven' } }, plugins: { t: { rules: { r: minRedisVersion as never } } }, rules: { 't/r': 'error' } }]),
    ).toThrow(`settings['redis-ttl'].redisVersion must be a Redis version such as '6.2' or '7.0.15' (a string), got "seven".`);
  });
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (number as node-redis options)', setRequiresTtl, {
  valid: [nodeRedis(`client.set('k', 'v', { EX: 60 });`), ioredis(`redis.set('k', 'v', 'EX', 60);`)],
  invalid: [
    {
      code: nodeRedis(`export async function remember(key: string, data: string, ttlSeconds: number) {\n  await client.set(key, data, ttlSeconds as any);\n}`),
      errors: [
        {
          messageId: 'numberAsOptions',
          line: 4,
          column: 16,
          suggestions: [{ messageId: 'useOptionsObject', output: nodeRedis(`export async function remember(key: string, data: string, ttlSeconds: number) {\n  await client.set(key, data, { EX: ttlSeconds as any });\n}`) }],
        },
      ],
    },
    {
      code: nodeRedis(`client.set(key, data, 3600);`),
      errors: [{ messageId: 'numberAsOptions', line: 3, column: 8, suggestions: [{ messageId: 'useOptionsObject', output: nodeRedis(`client.set(key, data, { EX: 3600 });`) }] }],
    },
  ],
});

import incrNeedsExpire from '../../rules/incr-needs-expire-on-create.js';

runRule(untypedTester, 'incr-needs-expire-on-create (hash-field expiration)', incrNeedsExpire, {
  valid: [
    ioredis(`redis.multi().hset(k, 'f', v).hexpire(k, 60, 'FIELDS', 1, 'f').exec();`),
    ioredis(`redis.multi().hset(k, 'f', v, 'g', w).hpexpire(k, 5000, 'FIELDS', 2, 'g', 'f').exec();`),
    ioredis(`redis.call('HSETEX', k, 'EX', 60, 'FIELDS', 1, 'f', v);`),
  ],
  invalid: [
    {
      // g keeps the hash alive
      code: ioredis(`redis.multi().hset(k, 'f', v, 'g', w).hexpire(k, 60, 'FIELDS', 1, 'f').exec();`),
      errors: [{ messageId: 'noExpiry', line: 3, column: 15, suggestions: [{ messageId: 'appendExpire', output: ioredis(`redis.multi().hset(k, 'f', v, 'g', w).expire(k, TTL_SECONDS).hexpire(k, 60, 'FIELDS', 1, 'f').exec();`) }] }],
    },
    {
      // two round trips: a crash between them leaves the field without TTL
      code: ioredis(`async function f() { await redis.hset(k, 'f', v); await redis.hexpire(k, 60, 'FIELDS', 1, 'f'); }`),
      errors: [
        {
          messageId: 'separateRoundTrip',
          data: { command: 'HSET', key: 'k', line: '3', client: '', hint: '' },
          line: 3,
          column: 34,
          suggestions: [
            { messageId: 'wrapInMulti', output: ioredis(`async function f() { await redis.multi().hset(k, 'f', v).expire(k, TTL_SECONDS).exec(); await redis.hexpire(k, 60, 'FIELDS', 1, 'f'); }`) },
          ],
        },
      ],
    },
  ],
});

import embeddedLua from '../../rules/embedded-lua.js';

runRule(untypedTester, 'embedded-lua (redisVersion and strict)', embeddedLua, {
  valid: [
    ioredis(`redis.eval("return redis.call('GETEX', KEYS[1])", 1, k);`),
    ioredis(`redis.eval("redis.call('SET', KEYS[1], ARGV[1], 'NX') redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1", 1, k, v, 30000);`),
  ],
  invalid: [
    {
      code: ioredis(`redis.eval("return redis.call('GETEX', KEYS[1])", 1, k);`),
      settings: { 'redis-ttl': { redisVersion: '6.0' } },
      errors: [{ messageId: 'luaFinding', line: 3, column: 20, endColumn: 48 }],
    },
    {
      code: ioredis(`redis.eval("redis.call('SET', KEYS[1], ARGV[1], 'NX') redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1", 1, k, v, 30000);`),
      options: [{ strict: true }],
      errors: [{ messageId: 'luaFinding', line: 3, column: 86, endColumn: 93 }],
    },
  ],
});
