import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  collect,
  createCircuitBreaker,
  createLimiter,
  createMemoryStore,
  incrementWithTtl,
  setKeepTtl,
  StoreFullError,
  type MemoryStore,
} from '../../runtime/index.js';

const T0 = 1_700_000_000_250;
const stores: MemoryStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

/** A store on a clock the test moves by hand. */
function storeAt(start: number, options: { maxKeys?: number; janitorIntervalMs?: number } = {}) {
  const clock = { now: start };
  const store = createMemoryStore({ ...options, clock: () => clock.now });
  stores.push(store);
  return { store, clock };
}

describe('MemoryStore', () => {
  it('runs the helpers with their Redis semantics (values and TTLs)', async () => {
    const { store, clock } = storeAt(T0);
    expect(await collect(store, 'c')).toBeNull();
    expect(store.size).toBe(0); // collect never creates
    expect(await setKeepTtl(store, 'c', 'x')).toBe(false);
    expect(store.size).toBe(0);
    expect(await incrementWithTtl(store, 'c', { by: 5, ttlMs: 1000 })).toEqual({ value: 5, pttlMs: 1000 });
    clock.now += 300;
    expect(await incrementWithTtl(store, 'c', { by: 2, ttlMs: 1000 })).toEqual({ value: 7, pttlMs: 700 });
    expect(await incrementWithTtl(store, 'c', { by: 1, ttlMs: 1000, mode: 'sliding' })).toEqual({ value: 8, pttlMs: 1000 });
    expect(await collect(store, 'c')).toBe('8');
    expect(store.pttl('c')).toBe(1000); // KEEPTTL
    expect(await setKeepTtl(store, 'c', 41)).toBe(true);
    expect(await incrementWithTtl(store, 'c', { ttlMs: 5 })).toEqual({ value: 42, pttlMs: 1000 });
    await setKeepTtl(store, 'c', 'text');
    await expect(incrementWithTtl(store, 'c', { ttlMs: 5 })).rejects.toThrow('ERR value is not an integer or out of range');
  });

  it('limiters and breakers run on it; without nowMs its clock is the server clock', async () => {
    const { store, clock } = storeAt(T0);
    const limiter = createLimiter(store, { algorithm: 'fixed-window', limit: 2, windowMs: 1000, onRedisError: 'fail-closed' });
    // the window opens at the first admission and is the key's TTL, on the store's clock
    expect(await limiter.take('a')).toEqual({ allowed: true, limit: 2, remaining: 1, retryAfterMs: 0, resetAfterMs: 1000 });
    expect(await limiter.take('a')).toEqual({ allowed: true, limit: 2, remaining: 0, retryAfterMs: 0, resetAfterMs: 1000 });
    clock.now += 100;
    expect(await limiter.take('a')).toEqual({ allowed: false, limit: 2, remaining: 0, retryAfterMs: 900, resetAfterMs: 900 });
    expect(store.pttl(limiter.keyFor('a'))).toBe(899);
    // its state is the count, a string, as on Redis: collect reads it (and resets it, keeping the TTL)
    expect(await collect(store, limiter.keyFor('a'))).toBe('2');
    expect(await limiter.take('a')).toEqual({ allowed: true, limit: 2, remaining: 1, retryAfterMs: 0, resetAfterMs: 900 });
    // a hash is not overwritten with a string: WRONGTYPE, as the script raises on Redis
    const counter = createLimiter(store, { algorithm: 'sliding-window-counter', limit: 2, windowMs: 1000, onRedisError: 'fail-closed' });
    await counter.take('a');
    await expect(setKeepTtl(store, counter.keyFor('a'), 'x')).rejects.toThrow('WRONGTYPE Operation against a key holding the wrong kind of value');
    expect(await counter.take('a')).toMatchObject({ allowed: true, remaining: 0 });
    const breaker = createCircuitBreaker(store, { failureThreshold: 1, windowMs: 1000, openMs: 500, onRedisError: 'fail-closed' });
    await breaker.record('svc', 'failure');
    expect(await breaker.acquire('svc')).toEqual({ allowed: false, state: 'open', failures: 0, probesInFlight: 0, retryAfterMs: 500 });
    expect(store.pttl(breaker.keyFor('svc'))).toBe(1000);
  });

  it('expires keys lazily on access, like Redis (a key lives through the millisecond its TTL ends)', async () => {
    const { store, clock } = storeAt(T0);
    await incrementWithTtl(store, 'k', { ttlMs: 100 });
    clock.now += 100;
    expect(store.pttl('k')).toBe(0);
    expect(store.size).toBe(1);
    clock.now += 1;
    expect(store.size).toBe(1); // not reclaimed until something looks at it
    expect(await collect(store, 'k')).toBeNull();
    expect(store.size).toBe(0);
  });

  it('the janitor reclaims expired keys nobody reads', async () => {
    const { store, clock } = storeAt(T0, { janitorIntervalMs: 20 });
    for (let i = 0; i < 5; i += 1) await incrementWithTtl(store, `k${i}`, { ttlMs: 50 });
    await incrementWithTtl(store, 'long', { ttlMs: 60_000 });
    expect(store.size).toBe(6);
    clock.now += 51;
    await vi.waitFor(() => expect(store.size).toBe(1), { timeout: 5000, interval: 10 });
    expect(store.keys()).toEqual(['long']);
  });

  it('close() stops the janitor; expired keys are then reclaimed only when read', async () => {
    const { store, clock } = storeAt(T0, { janitorIntervalMs: 10 });
    await incrementWithTtl(store, 'k', { ttlMs: 5 });
    store.close();
    clock.now += 10;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(store.size).toBe(1);
    expect(store.pttl('k')).toBe(-2);
    expect(store.size).toBe(0);
  });

  it('maxKeys: a new key is refused when full (fail closed), existing keys are still served', async () => {
    const { store, clock } = storeAt(T0, { maxKeys: 3 });
    const limiter = createLimiter(store, {
      algorithm: 'token-bucket',
      capacity: 2,
      refillPerSecond: 1,
      onRedisError: 'fail-open', // the store being full is not an outage: still denied
      outageRetryAfterMs: 321,
    });
    for (const who of ['a', 'b', 'c']) expect((await limiter.take(who)).allowed).toBe(true);
    expect(store.size).toBe(3);
    expect(await limiter.take('d')).toEqual({ allowed: false, limit: 2, remaining: 0, retryAfterMs: 321, resetAfterMs: 0, reason: 'store-full' });
    expect(await limiter.take('a')).toEqual({ allowed: true, limit: 2, remaining: 0, retryAfterMs: 0, resetAfterMs: 2000 });
    expect(store.size).toBe(3);
    await expect(incrementWithTtl(store, 'new', { ttlMs: 10 })).rejects.toThrow(StoreFullError);
    expect(await collect(store, 'new')).toBeNull(); // reads and in-place writes need no room
    // once keys have expired, a new key finds room (the guard sweeps before refusing)
    clock.now += 2001;
    expect((await limiter.take('d')).allowed).toBe(true);
    expect(store.size).toBe(1);
  });

  it('freezes its clock for the duration of one script, as Redis fixes time at script start', async () => {
    // a clock that reads T0 + 100 first and T0 + 1000 afterwards, as if the script took 900 ms
    let reads = 0;
    let base = T0;
    const store = createMemoryStore({ clock: () => base + (reads++ === 0 ? 100 : 1000) });
    stores.push(store);
    expect(await incrementWithTtl(store, 'c', { ttlMs: 500 })).toEqual({ value: 1, pttlMs: 500 });
    // the key expires at T0 + 100 + 500; the next script starts at T0 + 100 + 100: INCRBY, PTTL and
    // the reply must all see the key alive (unfrozen, PTTL would read at T0 + 1100 and find it gone)
    base = T0 + 100;
    reads = 0;
    expect(await incrementWithTtl(store, 'c', { ttlMs: 500 })).toEqual({ value: 2, pttlMs: 400 });
    expect(reads).toBe(1);
  });

  it('does not emulate scripts it does not know (the cache scripts)', () => {
    const { store } = storeAt(T0);
    expect(() => store.runScript('cache_get', ['a', 'b'], [])).toThrow(new TypeError('the memory store does not emulate the script cache_get'));
  });

  it('validates its options', () => {
    expect(() => createMemoryStore({ maxKeys: 0 })).toThrow(new RangeError('maxKeys must be an integer >= 1, got 0'));
    expect(() => createMemoryStore({ janitorIntervalMs: 0.5 })).toThrow(RangeError);
    expect(() => createMemoryStore({ clock: 5 as never })).toThrow(new TypeError('clock must be a function, got 5'));
  });

  it('no timer keeps the process alive: a child that uses a store and never closes it exits by itself', async () => {
    const runtime = fileURLToPath(new URL('../../runtime/index.ts', import.meta.url));
    const program = `
      import { createCircuitBreaker, createLimiter, createMemoryStore, incrementWithTtl } from ${JSON.stringify(runtime)};
      const store = createMemoryStore({ janitorIntervalMs: 5 });
      const limiter = createLimiter(store, { algorithm: 'gcra', limit: 5, periodMs: 1000, onRedisError: 'fail-closed', timeoutMs: 60000 });
      const breaker = createCircuitBreaker(store, { failureThreshold: 2, windowMs: 60000, openMs: 60000, onRedisError: 'fail-closed' });
      await limiter.take('x');
      await breaker.record('svc', 'failure');
      await incrementWithTtl(store, 'k', { ttlMs: 3600000 });
      process.stdout.write('done ' + store.size + '\\n');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let doneAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (doneAt === 0 && out.includes('done')) doneAt = performance.now();
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.on('exit', (exitCode) => {
        clearTimeout(killer);
        resolve(exitCode);
      });
    });
    const exitedAfterMs = performance.now() - doneAt;
    expect(err).toBe('');
    expect(out).toBe('done 3\n');
    expect(code).toBe(0);
    expect(exitedAfterMs).toBeLessThan(1000);
  });
});
