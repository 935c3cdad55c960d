import calculateSlot from 'cluster-key-slot';
import { describe, expect, it } from 'vitest';
import { buildKey, createCircuitBreaker, createLimiter, hashIdentity, IDENTITY_HASH_LENGTH, type LimiterOptions } from '../../runtime/index.js';
import { Redis } from 'ioredis';
import { KeyMemo, MEMO_MAX_IDENTITY_LENGTH } from '../../runtime/keys.js';

describe('buildKey', () => {
  it('builds namespace:algorithm:version:{hash}:scope with a 22-character base64url hash', () => {
    const key = buildKey({ namespace: 'rl', algorithm: 'tb', version: 'v2', identity: 'ada@example.com', scope: 'POST /login' });
    expect(key).toBe(`rl:tb:v2:{${hashIdentity('ada@example.com')}}:POST /login`);
    expect(key).toMatch(/^rl:tb:v2:\{[A-Za-z0-9_-]{22}\}:POST \/login$/);
    expect(IDENTITY_HASH_LENGTH).toBe(22);
  });

  it('hashes with SHA-256 (a known vector) and never stores the identity in the clear', () => {
    // sha256('abc') = ba7816bf 8f01cfea ..., base64url: ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0
    expect(hashIdentity('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7');
    const key = buildKey({ namespace: 'rl', algorithm: 'fw', version: 'v1', identity: 'secret-token-123' });
    expect(key).not.toContain('secret-token-123');
    expect(key.endsWith(':default')).toBe(true);
  });

  it('mixes a secret in with HMAC-SHA-256 when identitySecret is given', () => {
    const plain = hashIdentity('ada@example.com');
    const keyed = hashIdentity('ada@example.com', 'pepper');
    expect(keyed).not.toBe(plain);
    expect(keyed).toBe(hashIdentity('ada@example.com', Buffer.from('pepper')));
    expect(keyed).toHaveLength(22);
  });

  it('puts every key of one identity in one cluster slot, whatever the algorithm, version or scope', () => {
    for (const identity of ['ada@example.com', '10.0.0.1', 'key_ÄÖÜ_{}:', 'x']) {
      const slots = new Set<number>();
      const keys: string[] = [];
      for (const algorithm of ['fw', 'swl', 'swc', 'tb', 'gcra', 'lb']) {
        for (const scope of ['default', 'GET /v1/users/:id', 'POST /login']) {
          for (const version of ['v1', 'v2']) {
            const key = buildKey({ namespace: 'rl', algorithm, version, identity, scope });
            keys.push(key);
            slots.add(calculateSlot(key));
          }
        }
      }
      expect(keys).toHaveLength(36);
      expect(slots.size).toBe(1);
      expect([...slots][0]).toBe(calculateSlot(hashIdentity(identity)));
    }
  });

  it('the keys of every limiter algorithm for one identity share that slot', () => {
    const redis = new Redis({ lazyConnect: true });
    const common = { onRedisError: 'fail-closed' as const, scope: 'api' };
    const all: LimiterOptions[] = [
      { ...common, algorithm: 'fixed-window', limit: 1, windowMs: 1000 },
      { ...common, algorithm: 'sliding-window-log', limit: 1, windowMs: 1000 },
      { ...common, algorithm: 'sliding-window-counter', limit: 1, windowMs: 1000 },
      { ...common, algorithm: 'token-bucket', capacity: 1, refillPerSecond: 1 },
      { ...common, algorithm: 'gcra', limit: 1, periodMs: 1000 },
      { ...common, algorithm: 'leaky-bucket', capacity: 1, leakPerSecond: 1 },
    ];
    const keys = all.map((o) => createLimiter(redis, o).keyFor('user-7'));
    expect(new Set(keys).size).toBe(6);
    expect(new Set(keys.map((k) => calculateSlot(k)))).toEqual(new Set([calculateSlot(hashIdentity('user-7'))]));
    redis.disconnect();
  });

  it('every runtime key carries the version of its format in its algorithm segment', () => {
    const redis = new Redis({ lazyConnect: true });
    const common = { onRedisError: 'fail-closed' as const };
    const segments = ([
      [{ ...common, algorithm: 'fixed-window', limit: 1, windowMs: 1000 }, 'fw2'],
      [{ ...common, algorithm: 'sliding-window-log', limit: 1, windowMs: 1000 }, 'swl3'],
      [{ ...common, algorithm: 'sliding-window-counter', limit: 1, windowMs: 1000 }, 'swc2'],
      [{ ...common, algorithm: 'token-bucket', capacity: 1, refillPerSecond: 1 }, 'tb3'],
      [{ ...common, algorithm: 'gcra', limit: 1, periodMs: 1000 }, 'gcra3'],
      [{ ...common, algorithm: 'leaky-bucket', capacity: 1, leakPerSecond: 1 }, 'lb3'],
    ] as Array<[LimiterOptions, string]>).map(([options, segment]) => [createLimiter(redis, options).keyFor('ada'), segment]);
    for (const [key, segment] of segments) expect(key).toBe(`rl:${segment}:v1:{${hashIdentity('ada')}}:default`);
    const breaker = createCircuitBreaker(redis, { failureThreshold: 1, windowMs: 1000, openMs: 1000, onRedisError: 'fail-open' });
    expect(breaker.keyFor('payments')).toBe(`rl:cb1:v1:{${hashIdentity('payments')}}:default`);
    redis.disconnect();
  });

  it('limiter.keyFor equals buildKey, also past its cache of recent identities', () => {
    const redis = new Redis({ lazyConnect: true });
    const limiter = createLimiter(redis, {
      algorithm: 'gcra', limit: 1, periodMs: 1000, onRedisError: 'fail-open', namespace: 'app', version: 'v3', scope: 'GET /x', identitySecret: 's',
    });
    const expected = (id: string) => buildKey({ namespace: 'app', algorithm: 'gcra3', version: 'v3', identity: id, scope: 'GET /x', identitySecret: 's' });
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 10_000; i += 1) {
        if (limiter.keyFor(`id-${i}`) !== expected(`id-${i}`)) throw new Error(`keyFor(id-${i}) differs`);
      }
    }
    expect(limiter.keyFor('id-1')).toBe(expected('id-1'));
    redis.disconnect();
  });

  it('rejects parts that would break the layout, naming the part', () => {
    const base = { namespace: 'rl', algorithm: 'tb', version: 'v1', identity: 'a' };
    expect(() => buildKey({ ...base, namespace: 'r:l' })).toThrow(new RangeError("namespace must be 1-64 characters of A-Z a-z 0-9 _ . - (no ':', '{', '}'), got 'r:l'"));
    expect(() => buildKey({ ...base, version: '' })).toThrow(RangeError);
    expect(() => buildKey({ ...base, algorithm: 5 as unknown as string })).toThrow(new TypeError('algorithm must be a string, got 5'));
    expect(() => buildKey({ ...base, scope: 'a{b}' })).toThrow(/^scope must be 1-200 characters/);
    expect(() => buildKey({ ...base, scope: 'x'.repeat(201) })).toThrow(RangeError);
    expect(() => buildKey({ ...base, identity: '' })).toThrow(new RangeError('identity must not be empty'));
    expect(() => buildKey({ ...base, identity: undefined as unknown as string })).toThrow(new TypeError('identity must be a string, got undefined'));
  });
});

describe('KeyMemo (the identity -> key memo of a limiter)', () => {
  const counting = () => {
    const made: string[] = [];
    const memo = new KeyMemo((identity) => {
      made.push(identity);
      return `rl:gcra:v1:{${hashIdentity(identity)}}:default`;
    });
    return { memo, made };
  };

  it('holds 10,000 identities: a second pass over them hashes none again', () => {
    const { memo, made } = counting();
    for (let i = 0; i < 10_000; i += 1) memo.keyFor(`user-${i}@example.com`);
    expect(made).toHaveLength(10_000);
    for (let i = 0; i < 10_000; i += 1) {
      expect(memo.keyFor(`user-${i}@example.com`)).toBe(`rl:gcra:v1:{${hashIdentity(`user-${i}@example.com`)}}:default`);
    }
    expect(made).toHaveLength(10_000);
  });

  it('retains no identity: its tables hold numbers (fingerprints) and keys only', () => {
    const { memo } = counting();
    const identities = ['ada@example.com', 'x'.repeat(256), 'user\ud800', 'user\udbff', 'user\ufffd', 'a', 'aa', '\u0000'];
    for (const identity of identities) memo.keyFor(identity);
    type Table = { fingerprints: Float64Array; keys: Array<string | undefined> };
    const tables = [(memo as unknown as { young: Table }).young, (memo as unknown as { old: Table }).old];
    const entries = tables.flatMap((t) => t.keys.flatMap((key, slot) => (key === undefined ? [] : [[t.fingerprints[slot]!, key] as const])));
    expect(Object.keys(tables[0]!).sort()).toEqual(['bytes', 'fingerprints', 'keys', 'size']);
    expect(entries).toHaveLength(identities.length);
    for (const [fingerprint, key] of entries) {
      expect(Number.isSafeInteger(fingerprint)).toBe(true);
      expect(key).toMatch(/^rl:gcra:v1:\{[A-Za-z0-9_-]{22}\}:default$/);
    }
    // every distinct string (lone surrogates, lengths) has its own entry and key
    expect(new Set(entries.map(([, key]) => key)).size).toBe(identities.length);
  });

  it('is bounded in bytes: a full young generation becomes the old one; long identities are not remembered', () => {
    const made: string[] = [];
    const memo = new KeyMemo((identity) => {
      made.push(identity);
      return `k:${hashIdentity(identity)}`; // 24 characters: 2 * 24 + 64 = 112 bytes an entry
    }, 112 * 100);
    for (let i = 0; i < 1000; i += 1) memo.keyFor(`id-${i}`);
    expect(memo.size).toBeLessThanOrEqual(200);
    expect(memo.size).toBeGreaterThanOrEqual(100);
    memo.keyFor('x'.repeat(MEMO_MAX_IDENTITY_LENGTH + 1));
    memo.keyFor('x'.repeat(MEMO_MAX_IDENTITY_LENGTH + 1));
    expect(made.filter((identity) => identity.length > MEMO_MAX_IDENTITY_LENGTH)).toHaveLength(2);
    // a recent identity is found in the old generation and promoted, not hashed again
    const before = made.length;
    memo.keyFor('id-999');
    expect(made).toHaveLength(before);
    // after ten turnovers (a generation's slots emptied and reused each time) every key is still its identity's
    for (let i = 0; i < 1000; i += 1) expect(memo.keyFor(`id-${i}`)).toBe(`k:${hashIdentity(`id-${i}`)}`);
  });
});
