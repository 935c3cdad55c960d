import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createCircuitBreaker, type CircuitBreaker, type CircuitBreakerOptions } from '../../runtime/index.js';
import { scanWithPttl, uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();

const T0 = 1_700_000_000_000;
const base = { failureThreshold: 3, windowMs: 10_000, openMs: 5_000, halfOpenProbes: 2, onRedisError: 'fail-closed' } as const;

/** Real time (ms) just before and just after the last call of a breaker made by `breaker()`. */
let lastCall: [number, number] = [0, 0];

/** A breaker whose calls remember when they ran, so TTLs can be checked to the millisecond. */
function breaker(r: Redis, options: Partial<CircuitBreakerOptions> = {}): CircuitBreaker {
  const b = createCircuitBreaker(r, { ...base, namespace: uniquePrefix('cb'), ...options });
  const timed =
    <A extends unknown[], T>(fn: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      const before = Date.now();
      try {
        return await fn(...args);
      } finally {
        lastCall = [before, Date.now()];
      }
    };
  return { ...b, acquire: timed(b.acquire), record: timed(b.record), read: timed(b.read) };
}

/**
 * The last call set `key`'s TTL to exactly `expected` ms: Redis counts it from the moment the
 * script ran (on its own clock, the same host clock), so PEXPIRETIME - expected lies within the
 * call's real-time span.
 */
async function expectPttl(r: Redis, key: string, expected: number): Promise<void> {
  const expiresAt = await r.pexpiretime(key);
  expect(expiresAt - expected).toBeGreaterThanOrEqual(lastCall[0]);
  expect(expiresAt - expected).toBeLessThanOrEqual(lastCall[1]);
}

const closed = { state: 'closed', failures: 0, probesInFlight: 0, retryAfterMs: 0 };

describe('circuit breaker', () => {
  it('closed -> open after failureThreshold failures within windowMs; acquire on closed writes nothing', async () => {
    const r = redis.client();
    const b = breaker(r);
    const key = b.keyFor('svc');
    expect(await b.acquire('svc', { nowMs: T0 })).toEqual({ allowed: true, ...closed });
    expect(await r.exists(key)).toBe(0);
    expect(await b.record('svc', 'failure', { nowMs: T0 })).toEqual({ ...closed, failures: 1 });
    await expectPttl(r, key, 10_000);
    expect(await b.record('svc', 'success', { nowMs: T0 + 100 })).toEqual({ ...closed, failures: 1 });
    expect(await b.record('svc', 'failure', { nowMs: T0 + 4000 })).toEqual({ ...closed, failures: 2 });
    // the window began at the first failure: its TTL still ends at T0 + windowMs
    await expectPttl(r, key, 6000);
    expect(await b.acquire('svc', { nowMs: T0 + 4000 })).toEqual({ allowed: true, ...closed, failures: 2 });
    expect(await b.record('svc', 'failure', { nowMs: T0 + 9999 })).toEqual({
      state: 'open',
      failures: 0,
      probesInFlight: 0,
      retryAfterMs: 5000,
    });
    await expectPttl(r, key, 10_000); // open period + one openMs in which a probe may start
  });

  it('failures further apart than windowMs start a new count', async () => {
    const r = redis.client();
    const b = breaker(r);
    await b.record('svc', 'failure', { nowMs: T0 });
    await b.record('svc', 'failure', { nowMs: T0 + 5000 });
    expect(await b.record('svc', 'failure', { nowMs: T0 + 10_000 })).toEqual({ ...closed, failures: 1 });
    await expectPttl(r, b.keyFor('svc'), 10_000);
    expect(await b.read('svc', { nowMs: T0 + 19_999 })).toEqual({ ...closed, failures: 1 });
    expect(await b.read('svc', { nowMs: T0 + 20_000 })).toEqual(closed);
  });

  it('open denies with the exact retryAfterMs; half-open admits halfOpenProbes probes; success closes', async () => {
    const r = redis.client();
    const b = breaker(r, { failureThreshold: 1 });
    const key = b.keyFor('svc');
    await b.record('svc', 'failure', { nowMs: T0 });
    const open = { allowed: false, state: 'open', failures: 0, probesInFlight: 0 };
    expect(await b.acquire('svc', { nowMs: T0 })).toEqual({ ...open, retryAfterMs: 5000 });
    expect(await b.acquire('svc', { nowMs: T0 + 1234 })).toEqual({ ...open, retryAfterMs: 3766 });
    expect(await b.acquire('svc', { nowMs: T0 + 4999 })).toEqual({ ...open, retryAfterMs: 1 });
    const half = { state: 'half-open', failures: 0 };
    expect(await b.read('svc', { nowMs: T0 + 5000 })).toEqual({ ...half, probesInFlight: 0, retryAfterMs: 0 });
    expect(await b.acquire('svc', { nowMs: T0 + 5000 })).toEqual({ allowed: true, ...half, probesInFlight: 1, retryAfterMs: 0 });
    await expectPttl(r, key, 5000); // the round lasts openMs
    expect(await b.acquire('svc', { nowMs: T0 + 5100 })).toEqual({ allowed: true, ...half, probesInFlight: 2, retryAfterMs: 0 });
    // every probe taken: denied until the round lapses (T0 + 5000 + openMs)
    expect(await b.acquire('svc', { nowMs: T0 + 5200 })).toEqual({ allowed: false, ...half, probesInFlight: 2, retryAfterMs: 4800 });
    expect(await b.read('svc', { nowMs: T0 + 5200 })).toEqual({ ...half, probesInFlight: 2, retryAfterMs: 4800 });
    expect(await b.record('svc', 'success', { nowMs: T0 + 5300 })).toEqual(closed);
    expect(await r.exists(key)).toBe(0); // closed without failures is what a missing key means
    expect(await b.acquire('svc', { nowMs: T0 + 5301 })).toEqual({ allowed: true, ...closed });
  });

  it('a failing probe reopens the breaker for openMs', async () => {
    const r = redis.client();
    const b = breaker(r, { failureThreshold: 1, halfOpenProbes: 1 });
    await b.record('svc', 'failure', { nowMs: T0 });
    expect((await b.acquire('svc', { nowMs: T0 + 5000 })).allowed).toBe(true);
    expect(await b.record('svc', 'failure', { nowMs: T0 + 5500 })).toEqual({
      state: 'open',
      failures: 0,
      probesInFlight: 0,
      retryAfterMs: 5000,
    });
    await expectPttl(r, b.keyFor('svc'), 10_000);
    expect(await b.acquire('svc', { nowMs: T0 + 10_499 })).toMatchObject({ allowed: false, state: 'open', retryAfterMs: 1 });
    expect(await b.acquire('svc', { nowMs: T0 + 10_500 })).toMatchObject({ allowed: true, state: 'half-open', probesInFlight: 1 });
  });

  it('probes that never report let the round lapse: the breaker closes when its key would expire', async () => {
    const r = redis.client();
    const b = breaker(r, { failureThreshold: 1, halfOpenProbes: 1 });
    await b.record('svc', 'failure', { nowMs: T0 });
    await b.acquire('svc', { nowMs: T0 + 5000 });
    expect(await b.acquire('svc', { nowMs: T0 + 9999 })).toMatchObject({ allowed: false, retryAfterMs: 1 });
    expect(await b.acquire('svc', { nowMs: T0 + 10_000 })).toEqual({ allowed: true, ...closed });
    // an open breaker nobody asks about forgets itself openMs after its open period
    await b.record('other', 'failure', { nowMs: T0 });
    expect(await b.read('other', { nowMs: T0 + 9999 })).toMatchObject({ state: 'half-open' });
    expect(await b.read('other', { nowMs: T0 + 10_000 })).toEqual(closed);
  });

  it('an outcome reported while open (a call admitted before the trip) changes nothing but the TTL', async () => {
    const r = redis.client();
    const b = breaker(r, { failureThreshold: 1 });
    await b.record('svc', 'failure', { nowMs: T0 });
    const before = await r.hgetall(b.keyFor('svc'));
    expect(await b.record('svc', 'success', { nowMs: T0 + 10 })).toMatchObject({ state: 'open', retryAfterMs: 4990 });
    expect(await b.record('svc', 'failure', { nowMs: T0 + 20 })).toMatchObject({ state: 'open', retryAfterMs: 4980 });
    expect(await r.hgetall(b.keyFor('svc'))).toEqual(before);
  });

  it('read never creates a key and never starts a half-open round', async () => {
    const r = redis.client();
    const b = breaker(r, { failureThreshold: 1 });
    for (let i = 0; i < 5; i += 1) expect(await b.read(`fresh${i}`, { nowMs: T0 + i })).toEqual(closed);
    expect(await b.read('fresh-clock')).toEqual(closed); // server clock
    const prefix = b.keyFor('x').slice(0, b.keyFor('x').indexOf('{'));
    expect((await scanWithPttl(r, `${prefix}*`)).size).toBe(0);
    await b.record('svc', 'failure', { nowMs: T0 });
    const dump = await r.dumpBuffer(b.keyFor('svc'));
    for (let i = 0; i < 3; i += 1) await b.read('svc', { nowMs: T0 + 6000 + i });
    expect(await r.dumpBuffer(b.keyFor('svc'))).toEqual(dump);
    expect((await b.acquire('svc', { nowMs: T0 + 6000 })).probesInFlight).toBe(1);
  });

  it('uses the Redis server clock (TIME) without nowMs', async () => {
    const r = redis.client();
    const b = breaker(r, { failureThreshold: 1, openMs: 60_000 });
    await b.record('svc', 'failure');
    const d = await b.acquire('svc');
    expect(d.allowed).toBe(false);
    expect(d.retryAfterMs).toBeGreaterThan(55_000);
    expect(d.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('every key has a TTL within maxTtlMs after every operation (SCAN + PTTL)', async () => {
    const r = redis.client();
    type Op = { kind: 'acquire' | 'read' | 'success' | 'failure'; name: number; dt: number };
    const op = fc.record({
      kind: fc.constantFrom('acquire' as const, 'read' as const, 'success' as const, 'failure' as const),
      name: fc.integer({ min: 0, max: 2 }),
      dt: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 500, max: 3000 })),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          failureThreshold: fc.integer({ min: 1, max: 3 }),
          windowMs: fc.integer({ min: 1, max: 4000 }),
          openMs: fc.integer({ min: 1, max: 2000 }),
          halfOpenProbes: fc.integer({ min: 1, max: 3 }),
        }),
        fc.array(op, { minLength: 1, maxLength: 25 }),
        async (options, ops: Op[]) => {
          const namespace = uniquePrefix('cbttl');
          const b = createCircuitBreaker(r, { ...options, onRedisError: 'fail-closed', namespace });
          let now = T0;
          for (const o of ops) {
            now += o.dt;
            const name = `n${o.name}`;
            if (o.kind === 'acquire') await b.acquire(name, { nowMs: now });
            else if (o.kind === 'read') await b.read(name, { nowMs: now });
            else await b.record(name, o.kind, { nowMs: now });
            for (const [key, pttl] of await scanWithPttl(r, `${namespace}:*`)) {
              // -2: expired between SCAN and PTTL (short windows expire in real time); -1 would be a leak
              expect(pttl === -1 ? 'no TTL' : 'ok', key).toBe('ok');
              expect(pttl, key).toBeLessThanOrEqual(b.maxTtlMs);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('without Redis the outage policy answers: fail-closed reads as open, fail-open as closed', async () => {
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { Redis } = await import('ioredis');
    const gone = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, lazyConnect: true });
    gone.on('error', () => undefined);
    try {
      const options = { ...base, timeoutMs: 200, outageRetryAfterMs: 750 };
      const closedBreaker = createCircuitBreaker(gone, { ...options, onRedisError: 'fail-closed' });
      const down = { state: 'open', failures: 0, probesInFlight: 0, retryAfterMs: 750, reason: 'redis-unavailable' };
      expect(await closedBreaker.acquire('svc')).toEqual({ allowed: false, ...down });
      expect(await closedBreaker.record('svc', 'failure')).toEqual(down);
      expect(await closedBreaker.read('svc')).toEqual(down);
      const openBreaker = createCircuitBreaker(gone, { ...options, onRedisError: 'fail-open' });
      const up = { state: 'closed', failures: 0, probesInFlight: 0, retryAfterMs: 0, reason: 'redis-unavailable' };
      expect(await openBreaker.acquire('svc')).toEqual({ allowed: true, ...up });
      expect(await openBreaker.record('svc', 'success')).toEqual(up);
    } finally {
      gone.disconnect();
    }
  });

  it('validates its options and arguments before any Redis call', () => {
    const r = redis.client();
    expect(() => createCircuitBreaker(r, { ...base, failureThreshold: 0 })).toThrow(
      new RangeError('failureThreshold must be an integer >= 1 and <= 1000000000, got 0'),
    );
    expect(() => createCircuitBreaker(r, { ...base, openMs: 1.5 })).toThrow(RangeError);
    expect(() => createCircuitBreaker(r, { ...base, resetTimeoutMs: 1000 } as never)).toThrow(
      new TypeError(
        'createCircuitBreaker: unknown option "resetTimeoutMs"; the options are failureThreshold, windowMs, openMs, halfOpenProbes, namespace, version, scope, identitySecret, onRedisError, timeoutMs, outageRetryAfterMs, fallback, redisProbeIntervalMs',
      ),
    );
    expect(() => createCircuitBreaker(r, { ...base, onRedisError: 'maybe' as never })).toThrow(
      new TypeError(`onRedisError must be one of 'fail-closed', 'fail-open', 'fallback', got "maybe"`),
    );
    const b = breaker(r);
    return Promise.all([
      expect(b.acquire('')).rejects.toThrow(new RangeError('name must not be empty')),
      expect(b.record('x', 'maybe' as never)).rejects.toThrow(TypeError),
      expect(b.read('x', { nowMs: -1 })).rejects.toThrow(RangeError),
    ]);
  });
});
