import { describe, expect, it } from 'vitest';
import { collect, createMemoryStore, incrementWithTtl, setKeepTtl } from '../../runtime/index.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();

describe('collect', () => {
  it('returns the value, resets it to 0 and leaves the absolute expiry unchanged', async () => {
    const r = redis.client();
    const key = `${uniquePrefix('collect')}:pending`;
    await r.set(key, '42', 'PX', 60_000);
    const expiresAt = await r.pexpiretime(key);
    expect(await collect(r, key)).toBe('42');
    expect(await r.get(key)).toBe('0');
    expect(await r.pexpiretime(key)).toBe(expiresAt);
    expect(await collect(r, key)).toBe('0');
    expect(await r.pexpiretime(key)).toBe(expiresAt);
  });

  it('on a missing key returns null and creates nothing', async () => {
    const r = redis.client();
    const key = `${uniquePrefix('collect')}:missing`;
    expect(await collect(r, key)).toBeNull();
    expect(await r.exists(key)).toBe(0);
  });

  it('loses and double-counts nothing under concurrent increments and collects', async () => {
    const clients = [redis.client(), redis.client(), redis.client(), redis.client()];
    const key = `${uniquePrefix('collect')}:race`;
    const increments = 400;
    let collected = 0;
    const incrementers = Array.from({ length: increments }, (_, i) =>
      incrementWithTtl(clients[i % 4]!, key, { by: (i % 5) + 1, ttlMs: 60_000 }),
    );
    const collectors = Array.from({ length: 100 }, async (_, i) => {
      const v = await collect(clients[(i + 1) % 4]!, key);
      if (v !== null) collected += Number(v);
    });
    await Promise.all([...incrementers, ...collectors]);
    const rest = await collect(clients[0]!, key);
    collected += Number(rest);
    // sum of (i % 5) + 1 for i in 0..399 = 80 * (1+2+3+4+5)
    expect(collected).toBe(1200);
    expect(await clients[0]!.get(key)).toBe('0');
    const pttl = await clients[0]!.pttl(key);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(60_000);
  });

  it('validates the key before any Redis call', async () => {
    const r = redis.client();
    await expect(collect(r, '')).rejects.toThrow(new RangeError('key must not be empty'));
    await expect(collect(r, 7 as unknown as string)).rejects.toThrow(new TypeError('key must be a string, got 7'));
  });
});

describe('incrementWithTtl', () => {
  it('fixed: sets the TTL on creation, in milliseconds, and never extends a running window', async () => {
    const r = redis.client();
    const key = `${uniquePrefix('inc')}:fixed`;
    const first = await incrementWithTtl(r, key, { ttlMs: 1500 });
    expect(first.value).toBe(1);
    expect(first.pttlMs).toBeGreaterThan(1400);
    expect(first.pttlMs).toBeLessThanOrEqual(1500);
    const expiresAt = await r.pexpiretime(key);
    const second = await incrementWithTtl(r, key, { by: 4, ttlMs: 100_000 });
    expect(second.value).toBe(5);
    expect(second.pttlMs).toBeLessThanOrEqual(1500);
    expect(await r.pexpiretime(key)).toBe(expiresAt);
  });

  it('fixed: repairs a key that was left without TTL', async () => {
    const r = redis.client();
    const key = `${uniquePrefix('inc')}:repair`;
    await r.set(key, '10');
    expect(await r.pttl(key)).toBe(-1);
    const res = await incrementWithTtl(r, key, { by: -3, ttlMs: 2000, mode: 'fixed' });
    expect(res.value).toBe(7);
    expect(res.pttlMs).toBeGreaterThan(1900);
    expect(res.pttlMs).toBeLessThanOrEqual(2000);
  });

  it('sliding: renews the TTL on every call', async () => {
    const r = redis.client();
    const key = `${uniquePrefix('inc')}:sliding`;
    await incrementWithTtl(r, key, { ttlMs: 1000, mode: 'sliding' });
    // as if most of the window had run out (1 s left: a loaded machine never lets it expire first)
    await r.pexpire(key, 1000);
    const res = await incrementWithTtl(r, key, { ttlMs: 5000, mode: 'sliding' });
    expect(res.value).toBe(2);
    expect(res.pttlMs).toBeGreaterThan(4900);
    expect(res.pttlMs).toBeLessThanOrEqual(5000);
  });

  it('validates every option before any Redis call and writes nothing', async () => {
    const r = redis.client();
    const key = `${uniquePrefix('inc')}:invalid`;
    await expect(incrementWithTtl(r, key, { ttlMs: 0 })).rejects.toThrow(new RangeError('ttlMs must be an integer >= 1, got 0'));
    await expect(incrementWithTtl(r, key, { ttlMs: 1.5 })).rejects.toThrow(new RangeError('ttlMs must be an integer >= 1, got 1.5'));
    await expect(incrementWithTtl(r, key, { ttlMs: '100' as unknown as number })).rejects.toThrow(
      new TypeError('ttlMs must be a number, got a string'),
    );
    await expect(incrementWithTtl(r, key, { ttlMs: 100, by: 0.5 })).rejects.toThrow(RangeError);
    await expect(incrementWithTtl(r, key, { ttlMs: 100, mode: 'forever' as 'fixed' })).rejects.toThrow(
      new TypeError(`mode must be one of 'fixed', 'sliding', got "forever"`),
    );
    expect(await r.exists(key)).toBe(0);
  });

  it('past 2^53 the value is exact: a bigint with { bigint: true }, else a RangeError with the exact value (the increment applied)', async () => {
    const r = redis.client();
    const key = `${uniquePrefix('inc')}:big`;
    // 2^53 - 1, then + 2: a double would read 2^53 + 1 as 2^53
    expect(await incrementWithTtl(r, key, { by: Number.MAX_SAFE_INTEGER, ttlMs: 60_000 })).toMatchObject({ value: Number.MAX_SAFE_INTEGER });
    expect(await incrementWithTtl(r, key, { by: 2, ttlMs: 60_000, bigint: true })).toMatchObject({ value: 9007199254740993n });
    const error = await incrementWithTtl(r, key, { by: 2, ttlMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toEqual(
      new RangeError(
        'incrementWithTtl: the counter is now 9007199254740995, outside +-(2^53 - 1) where a number is not exact (the increment was applied); pass { bigint: true } to read it as a bigint',
      ),
    );
    expect(await r.get(key)).toBe('9007199254740995');
    // bigint increments up to Redis' 64-bit range; the edges exact both ways
    expect(await incrementWithTtl(r, key, { by: 9223372036854775807n - 9007199254740995n, ttlMs: 60_000, bigint: true })).toMatchObject({ value: 9223372036854775807n });
    await expect(incrementWithTtl(r, key, { by: 1n, ttlMs: 60_000, bigint: true })).rejects.toMatchObject({ name: 'RedisError', message: expect.stringMatching(/^ERR increment or decrement would overflow/) });
    expect(await incrementWithTtl(r, key, { by: -9223372036854775807n, ttlMs: 60_000, bigint: true })).toMatchObject({ value: 0n });
    expect(await incrementWithTtl(r, key, { by: -9223372036854775808n, ttlMs: 60_000, bigint: true })).toMatchObject({ value: -9223372036854775808n });
    expect(await incrementWithTtl(r, key, { by: 9223372036854775807n, ttlMs: 60_000, bigint: true })).toMatchObject({ value: -1n });
    expect(await incrementWithTtl(r, key, { by: -(2n ** 53n), ttlMs: 60_000, bigint: true })).toMatchObject({ value: -9007199254740993n });
    await expect(incrementWithTtl(r, key, { by: 1, ttlMs: 60_000 })).rejects.toThrow('the counter is now -9007199254740992, outside');
    await expect(incrementWithTtl(r, key, { by: 2n ** 63n, ttlMs: 60_000 })).rejects.toThrow(
      new RangeError('by must be a bigint in [-2^63, 2^63 - 1], got 9223372036854775808'),
    );
    await expect(incrementWithTtl(r, key, { by: '5' as unknown as number, ttlMs: 60_000 })).rejects.toThrow(new TypeError('by must be a number or a bigint, got a string'));
    await expect(incrementWithTtl(r, key, { ttlMs: 60_000, bigint: 1 as unknown as boolean })).rejects.toThrow(new TypeError('bigint must be a boolean, got 1'));
    // the same on the memory store
    const store = createMemoryStore();
    expect(await incrementWithTtl(store, key, { by: Number.MAX_SAFE_INTEGER, ttlMs: 60_000 })).toMatchObject({ value: Number.MAX_SAFE_INTEGER });
    expect(await incrementWithTtl(store, key, { by: 2, ttlMs: 60_000, bigint: true })).toMatchObject({ value: 9007199254740993n });
    await expect(incrementWithTtl(store, key, { by: 2, ttlMs: 60_000 })).rejects.toThrow('the counter is now 9007199254740995, outside');
    store.close();
    // setKeepTtl writes a bigint exactly
    expect(await setKeepTtl(r, key, 123456789012345678901234567890n)).toBe(true);
    expect(await r.get(key)).toBe('123456789012345678901234567890');
  });

  it('the script itself rejects a bad argument before INCRBY (no key is created)', async () => {
    const r = redis.client();
    const key = `${uniquePrefix('inc')}:script`;
    const { getScript } = await import('../../runtime/scripts.js');
    const lua = getScript('increment').lua;
    await expect(r.eval(lua, 1, key, '1', '0', 'fixed')).rejects.toThrow('ttlMs must be an integer >= 1');
    await expect(r.eval(lua, 1, key, '1', '1.5', 'fixed')).rejects.toThrow('ttlMs must be an integer >= 1');
    for (const by of ['x', '1.5', '+1', '01', '-0', ' 1', '0x10', '1e3', '123456789012345678901']) {
      await expect(r.eval(lua, 1, key, by, '100', 'fixed'), by).rejects.toThrow('by must be an integer');
    }
    await expect(r.eval(lua, 1, key, '9223372036854775808', '100', 'fixed')).rejects.toThrow('ERR value is not an integer or out of range');
    await expect(r.eval(lua, 1, key, '1', '100', 'other')).rejects.toThrow("mode must be 'fixed' or 'sliding'");
    expect(await r.exists(key)).toBe(0);
  });
});

describe('setKeepTtl', () => {
  it('overwrites an existing key and keeps its absolute expiry', async () => {
    const r = redis.client();
    const key = `${uniquePrefix('set')}:present`;
    await r.set(key, 'old', 'PX', 30_000);
    const expiresAt = await r.pexpiretime(key);
    expect(await setKeepTtl(r, key, 'new')).toBe(true);
    expect(await r.get(key)).toBe('new');
    expect(await r.pexpiretime(key)).toBe(expiresAt);
    expect(await setKeepTtl(r, key, 12.5)).toBe(true);
    expect(await r.get(key)).toBe('12.5');
    expect(await r.pexpiretime(key)).toBe(expiresAt);
  });

  it('does not create a missing key', async () => {
    const r = redis.client();
    const key = `${uniquePrefix('set')}:missing`;
    expect(await setKeepTtl(r, key, 'v')).toBe(false);
    expect(await r.exists(key)).toBe(0);
  });

  it('validates key and value', async () => {
    const r = redis.client();
    await expect(setKeepTtl(r, 'k', Number.NaN)).rejects.toThrow(new RangeError('value must be a finite number, got NaN'));
    await expect(setKeepTtl(r, 'k', {} as unknown as string)).rejects.toThrow(
      new TypeError('value must be a string, a number or a bigint, got object'),
    );
  });
});
