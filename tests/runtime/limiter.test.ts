import fc from 'fast-check';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createLimiter, createMemoryStore, type Limiter, type LimiterOptions, type LimitResult } from '../../runtime/index.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();

type Step = [allowed: boolean, remaining: number, retryAfterMs: number, resetAfterMs: number];
const T0 = 1_700_000_000_250; // 250 ms into a 1000 ms window

function shape(r: LimitResult): Step {
  return [r.allowed, r.remaining, r.retryAfterMs, r.resetAfterMs];
}

interface BoundaryCase {
  options: LimiterOptions;
  /** results of 4 calls of cost 1 at T0 + offsets[i] */
  offsets: [number, number, number, number];
  expected: [Step, Step, Step, Step];
  /** the first time after the denial at which a call is admitted again, and its result */
  again: [number, Step];
}

// the algorithms with a clock (the server's, or `nowMs` here); the fixed window has none (below)
const cases: BoundaryCase[] = [
  {
    options: { algorithm: 'sliding-window-log', limit: 3, windowMs: 1000, onRedisError: 'fail-closed' },
    offsets: [0, 10, 20, 30],
    expected: [[true, 2, 0, 1000], [true, 1, 0, 1000], [true, 0, 0, 1000], [false, 0, 970, 990]],
    again: [1000, [true, 0, 0, 1000]],
  },
  {
    // the previous window's 3 weigh 3 * (1000 - e) / 1000: the 4th fits once 3 * (1000 - e) + 1000 <= 3000
    options: { algorithm: 'sliding-window-counter', limit: 3, windowMs: 1000, onRedisError: 'fail-closed' },
    offsets: [0, 0, 0, 0],
    expected: [[true, 2, 0, 1750], [true, 1, 0, 1750], [true, 0, 0, 1750], [false, 0, 1084, 1750]],
    again: [1084, [true, 0, 0, 1666]],
  },
  {
    options: { algorithm: 'token-bucket', capacity: 3, refillPerSecond: 1, onRedisError: 'fail-closed' },
    offsets: [0, 0, 0, 0],
    expected: [[true, 2, 0, 1000], [true, 1, 0, 2000], [true, 0, 0, 3000], [false, 0, 1000, 3000]],
    again: [1000, [true, 0, 0, 3000]],
  },
  {
    options: { algorithm: 'gcra', limit: 3, periodMs: 3000, onRedisError: 'fail-closed' },
    offsets: [0, 0, 0, 0],
    expected: [[true, 2, 0, 1000], [true, 1, 0, 2000], [true, 0, 0, 3000], [false, 0, 1000, 3000]],
    again: [1000, [true, 0, 0, 3000]],
  },
  {
    options: { algorithm: 'leaky-bucket', capacity: 3, leakPerSecond: 1, onRedisError: 'fail-closed' },
    offsets: [0, 0, 0, 0],
    expected: [[true, 2, 0, 1000], [true, 1, 0, 2000], [true, 0, 0, 3000], [false, 0, 1000, 3000]],
    again: [1000, [true, 0, 0, 3000]],
  },
];

async function stateOf(r: Redis, key: string): Promise<[Buffer | null, number]> {
  return [await r.dumpBuffer(key), await r.pexpiretime(key)];
}

describe.each(cases)('$options.algorithm', ({ options, offsets, expected, again }) => {
  it('remaining 0 is still an allow, the next call is denied, and admits again exactly on time', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, { ...options, namespace: uniquePrefix('b') });
    const got: Step[] = [];
    for (const offset of offsets) got.push(shape(await limiter.take('alice', { nowMs: T0 + offset })));
    expect(got).toEqual(expected);
    const deniedAt = T0 + offsets[3];
    const retry = expected[3][2];
    expect(shape(await limiter.take('alice', { nowMs: deniedAt + retry - 1 }))[0]).toBe(false);
    expect(shape(await limiter.take('alice', { nowMs: T0 + again[0] }))).toEqual(again[1]);
  });

  it('a denied call changes no state (value and expiry byte for byte)', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, { ...options, namespace: uniquePrefix('d') });
    for (let i = 0; i < 3; i += 1) await limiter.take('bob', { nowMs: T0 + offsets[i]! });
    const key = limiter.keyFor('bob');
    const before = await stateOf(r, key);
    expect(before[0]).not.toBeNull();
    for (let i = 0; i < 5; i += 1) {
      expect((await limiter.take('bob', { nowMs: T0 + offsets[3] })).allowed).toBe(false);
      expect((await limiter.take('bob', { nowMs: T0 + offsets[3], cost: 3 })).allowed).toBe(false);
    }
    expect(await stateOf(r, key)).toEqual(before);
  });

  it('a cost above the limit is denied with retryAfterMs -1 and writes nothing', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, { ...options, namespace: uniquePrefix('c') });
    const res = await limiter.take('carol', { cost: 4, nowMs: T0 });
    expect(res).toEqual({ allowed: false, limit: 3, remaining: 3, retryAfterMs: -1, resetAfterMs: 0 });
    expect(await r.exists(limiter.keyFor('carol'))).toBe(0);
  });

  it('with the server clock, the key gets a TTL within the algorithm bound', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, { ...options, namespace: uniquePrefix('s') });
    // The server clock cannot be stopped: the window (the fixed one is aligned to the epoch) may
    // end between the take and PTTL, and then the key is rightly gone. That is accepted only when
    // the time measured around both calls proves resetAfterMs had passed, and then the take is
    // repeated with a new identity (early in a window now): one attempt must see the TTL.
    let seen = 0;
    for (let attempt = 0; attempt < 5 && seen === 0; attempt += 1) {
      const identity = `dave${attempt}`;
      const started = performance.now();
      const res = await limiter.take(identity, { cost: 2 });
      const pttl = await r.pttl(limiter.keyFor(identity));
      const elapsedMs = performance.now() - started;
      expect(res.allowed).toBe(true);
      expect(res.remaining).toBe(1);
      expect(res.resetAfterMs).toBeLessThanOrEqual(limiter.maxTtlMs);
      if (pttl === -2) {
        expect(elapsedMs, 'the key is gone while its window was still open').toBeGreaterThanOrEqual(res.resetAfterMs - 2);
        continue;
      }
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(res.resetAfterMs);
      seen += 1;
    }
    expect(seen).toBe(1);
  });
});

describe('fixed-window: its window is its key\'s TTL', () => {
  const options: LimiterOptions = { algorithm: 'fixed-window', limit: 3, windowMs: 1000, onRedisError: 'fail-closed' };

  it('on a clock of the test\'s (a memory store): remaining 0 is still an allow, and the next window opens exactly on time', async () => {
    let now = T0;
    const store = createMemoryStore({ clock: () => now });
    const limiter = createLimiter(store, options);
    const got: Step[] = [];
    for (let i = 0; i < 4; i += 1) got.push(shape(await limiter.take('alice')));
    // the window opened at the first admission, T0: it ends at T0 + 1000, whatever the epoch
    expect(got).toEqual([[true, 2, 0, 1000], [true, 1, 0, 1000], [true, 0, 0, 1000], [false, 0, 1000, 1000]]);
    now = T0 + 999;
    expect(shape(await limiter.take('alice'))).toEqual([false, 0, 1, 1]);
    now = T0 + 1000;
    expect(shape(await limiter.take('alice'))).toEqual([true, 2, 0, 1000]);
    expect(store.pttl(limiter.keyFor('alice'))).toBe(999);
    store.close();
  });

  it('on Redis: the key holds the count, its TTL ends the window, and a denial retries after PTTL + 1', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, { ...options, windowMs: 300, namespace: uniquePrefix('fw') });
    const key = limiter.keyFor('bob');
    const admitted = [await limiter.take('bob'), await limiter.take('bob', { cost: 2 })];
    expect(admitted.map((a) => [a.allowed, a.remaining, a.retryAfterMs])).toEqual([[true, 2, 0], [true, 0, 0]]);
    expect(await r.get(key)).toBe('3');
    const pttlBefore = await r.pttl(key);
    const denied = await limiter.take('bob');
    const pttlAfter = await r.pttl(key);
    expect([denied.allowed, denied.remaining]).toEqual([false, 0]);
    // PTTL + 1, read inside the script: between the two reads around it
    expect(denied.retryAfterMs).toBeGreaterThanOrEqual(pttlAfter + 1);
    expect(denied.retryAfterMs).toBeLessThanOrEqual(pttlBefore + 1);
    expect(denied.resetAfterMs).toBe(denied.retryAfterMs);
    expect(pttlBefore).toBeLessThanOrEqual(299);
    await new Promise((resolve) => setTimeout(resolve, denied.retryAfterMs));
    expect(shape(await limiter.take('bob'))).toEqual([true, 2, 0, 300]);
  });

  it('a denied call changes no state; a cost above the limit is denied with retryAfterMs -1 and writes nothing', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, { ...options, windowMs: 600_000, namespace: uniquePrefix('fwd') });
    for (let i = 0; i < 3; i += 1) await limiter.take('carol');
    const key = limiter.keyFor('carol');
    const before = await stateOf(r, key);
    for (let i = 0; i < 5; i += 1) {
      expect((await limiter.take('carol')).allowed).toBe(false);
      expect((await limiter.take('carol', { cost: 3 })).allowed).toBe(false);
      expect(await limiter.take('carol', { cost: 4 })).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: -1 });
    }
    expect(await stateOf(r, key)).toEqual(before);
    expect(await limiter.take('dave', { cost: 4 })).toEqual({ allowed: false, limit: 3, remaining: 3, retryAfterMs: -1, resetAfterMs: 0 });
    expect(await r.exists(limiter.keyFor('dave'))).toBe(0);
  });

  it('a key left without TTL by other code gets its window back at the next call, even a denied one', async () => {
    const r = redis.client();
    const limiter = createLimiter(r, { ...options, windowMs: 600_000, namespace: uniquePrefix('fwp') });
    for (let i = 0; i < 3; i += 1) await limiter.take('erin');
    await r.persist(limiter.keyFor('erin'));
    const denied = await limiter.take('erin');
    expect([denied.allowed, denied.retryAfterMs]).toEqual([false, 600_000]);
    expect(await r.pttl(limiter.keyFor('erin'))).toBeGreaterThan(598_000);
  });

  it('takes no nowMs: it has no clock of its own', async () => {
    const limiter = createLimiter(createMemoryStore(), options);
    await expect(limiter.take('a', { nowMs: T0 })).rejects.toThrow(
      new TypeError(
        "nowMs: the fixed window has no clock of its own (its window is its key's TTL, which the Redis server's clock runs); leave nowMs out (a MemoryStore's clock option drives it in tests)",
      ),
    );
  });
});

describe('validation happens before any Redis call', () => {
  it('rejects bad costs, times and identities while the client has never connected', async () => {
    const r = new Redis(redis.url(), { lazyConnect: true });
    const limiter = createLimiter(r, { algorithm: 'token-bucket', capacity: 5, refillPerSecond: 1, onRedisError: 'fail-open' });
    await expect(limiter.take('a', { cost: 0 })).rejects.toThrow(new RangeError('cost must be an integer >= 1, got 0'));
    await expect(limiter.take('a', { cost: 1.5 })).rejects.toThrow(new RangeError('cost must be an integer >= 1, got 1.5'));
    await expect(limiter.take('a', { cost: Number.NaN })).rejects.toThrow(RangeError);
    await expect(limiter.take('a', { cost: '2' as unknown as number })).rejects.toThrow(new TypeError('cost must be a number, got a string'));
    await expect(limiter.take('a', { cost: null as unknown as number })).rejects.toThrow(new TypeError('cost must be a number, got null'));
    await expect(limiter.take('a', { nowMs: -1 })).rejects.toThrow(new RangeError('nowMs must be an integer >= 0, got -1'));
    await expect(limiter.take('')).rejects.toThrow(new RangeError('identity must not be empty'));
    expect(r.status).toBe('wait');
    r.disconnect();
  });

  it('rejects bad limiter options naming the option', () => {
    const r = new Redis(redis.url(), { lazyConnect: true });
    const base = { onRedisError: 'fail-closed' as const };
    expect(() => createLimiter(r, { ...base, algorithm: 'fixed-window', limit: 0, windowMs: 1000 })).toThrow(
      new RangeError('limit must be an integer >= 1, got 0'),
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'fixed-window', limit: 1, windowMs: 0.5 })).toThrow(
      new RangeError('windowMs must be an integer >= 1, got 0.5'),
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'token-bucket', capacity: 1, refillPerSecond: 0 })).toThrow(
      new RangeError('refillPerSecond must be a finite number > 0, got 0'),
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'token-bucket', capacity: 1, refillPerSecond: 1 / 3 })).toThrow(
      /^refillPerSecond must have at most 6 decimal places/,
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'leaky-bucket', capacity: 1, leakPerSecond: Infinity })).toThrow(
      new RangeError('leakPerSecond must be a finite number > 0, got Infinity'),
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'gcra', limit: 10, periodMs: 1000, burst: 0 })).toThrow(
      new RangeError('burst must be an integer >= 1, got 0'),
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'nope' } as unknown as LimiterOptions)).toThrow(
      /^algorithm must be one of 'fixed-window', 'sliding-window-log'/,
    );
    expect(() => createLimiter(r, { algorithm: 'fixed-window', limit: 1, windowMs: 1 } as LimiterOptions)).toThrow(
      new TypeError("onRedisError must be one of 'fail-closed', 'fail-open', 'fallback', got undefined"),
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'fixed-window', limit: 1, windowMs: 1, timeoutMs: 0 })).toThrow(
      new RangeError('timeoutMs must be an integer >= 1 and <= 2147483647, got 0'),
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'fixed-window', limit: 1, windowMs: 1, namespace: 'a:b' })).toThrow(
      /^namespace must be/,
    );
    // a misspelt or misplaced option is refused, not dropped (keys would go under the default namespace)
    expect(() => createLimiter(r, { ...base, algorithm: 'gcra', limit: 3, periodMs: 2000, prefix: 'nu2' } as LimiterOptions)).toThrow(
      new TypeError(
        'createLimiter({ algorithm: \'gcra\' }): unknown option "prefix"; the options are algorithm, onRedisError, timeoutMs, outageRetryAfterMs, fallback, redisProbeIntervalMs, fallbackShare, namespace, version, scope, identitySecret, limit, periodMs, burst',
      ),
    );
    expect(() => createLimiter(r, { ...base, algorithm: 'token-bucket', capacity: 1, refillPerSecond: 1, windowMs: 10 } as LimiterOptions)).toThrow(
      /^createLimiter\(\{ algorithm: 'token-bucket' \}\): unknown option "windowMs"; the options are .*, capacity, refillPerSecond$/,
    );
    expect(() =>
      createLimiter(r, { ...base, algorithm: 'sliding-window-counter', limit: 2 ** 30, windowMs: 2 ** 30 }),
    ).toThrow(new RangeError('limit * windowMs must be below 2^53'));
    expect(r.status).toBe('wait');
    r.disconnect();
  });

  it('reports the effective limit and the TTL bound of each algorithm', () => {
    const r = new Redis(redis.url(), { lazyConnect: true });
    const base = { onRedisError: 'fail-closed' as const };
    const bounds = [
      createLimiter(r, { ...base, algorithm: 'fixed-window', limit: 5, windowMs: 1500 }),
      createLimiter(r, { ...base, algorithm: 'sliding-window-log', limit: 5, windowMs: 1500 }),
      createLimiter(r, { ...base, algorithm: 'sliding-window-counter', limit: 5, windowMs: 1500 }),
      createLimiter(r, { ...base, algorithm: 'token-bucket', capacity: 5, refillPerSecond: 3 }),
      createLimiter(r, { ...base, algorithm: 'gcra', limit: 3, periodMs: 1000, burst: 5 }),
      createLimiter(r, { ...base, algorithm: 'leaky-bucket', capacity: 5, leakPerSecond: 0.5 }),
    ].map((l) => [l.limit, l.maxTtlMs]);
    expect(bounds).toEqual([[5, 1500], [5, 1500], [5, 3000], [5, 1667], [5, 1667], [5, 10_000]]);
    r.disconnect();
  });
});

// Times are injected, but Redis expires keys on its own clock: the properties below pin each key's
// TTL far out after every call so that real time passing between two calls at the same injected
// time cannot expire state the algorithm still needs. The scripts never read a TTL, so this does
// not change any decision; TTLs themselves are checked in ttl-audit.test.ts. When a TTL of a
// millisecond or two ran out between the script and the pin (the key an admitted call just wrote
// is gone), the generated case is discarded with fc.pre rather than judged on lost state.
function pinner(r: Redis, key: string): (res: LimitResult) => Promise<void> {
  return async (res) => {
    const pinned = await r.pexpire(key, 600_000);
    if (res.allowed) fc.pre(pinned === 1);
  };
}

/** Takes `cost` at time `now` (ms since the epoch) for one identity. */
type TakeAt = (cost: number, now: number) => Promise<LimitResult>;

/**
 * A fresh limiter driven at explicit times: the clocked algorithms on Redis with `nowMs` (their
 * keys pinned, see above); the fixed window, which has no clock of its own (its window is its
 * key's TTL), on a memory store whose clock the test sets (the parity tests hold the memory store
 * and the script to the same decisions).
 */
function driven(r: Redis, options: LimiterOptions, prefix: string): { limiter: Limiter; take: TakeAt } {
  if (options.algorithm === 'fixed-window') {
    let clock = 0;
    const limiter = createLimiter(createMemoryStore({ clock: () => clock }), options);
    return {
      limiter,
      take: (cost, now) => {
        clock = now;
        return limiter.take('prop', { cost });
      },
    };
  }
  const limiter = createLimiter(r, { ...options, namespace: uniquePrefix(prefix) });
  const pin = pinner(r, limiter.keyFor('prop'));
  return {
    limiter,
    take: async (cost, now) => {
      const res = await limiter.take('prop', { cost, nowMs: now });
      await pin(res);
      return res;
    },
  };
}
const algorithmOptions: fc.Arbitrary<LimiterOptions> = fc.oneof(
  fc.record({
    algorithm: fc.constantFrom('fixed-window' as const, 'sliding-window-log' as const, 'sliding-window-counter' as const),
    limit: fc.integer({ min: 1, max: 12 }),
    windowMs: fc.integer({ min: 1, max: 5000 }),
    onRedisError: fc.constant('fail-closed' as const),
  }),
  fc.record({
    algorithm: fc.constant('token-bucket' as const),
    capacity: fc.integer({ min: 1, max: 12 }),
    refillPerSecond: fc.constantFrom(0.25, 0.5, 1, 3, 7, 10, 33.3, 250),
    onRedisError: fc.constant('fail-closed' as const),
  }),
  fc.record({
    algorithm: fc.constant('leaky-bucket' as const),
    capacity: fc.integer({ min: 1, max: 12 }),
    leakPerSecond: fc.constantFrom(0.25, 0.5, 1, 3, 7, 10, 33.3, 250),
    onRedisError: fc.constant('fail-closed' as const),
  }),
  fc.record({
    algorithm: fc.constant('gcra' as const),
    limit: fc.integer({ min: 1, max: 12 }),
    periodMs: fc.integer({ min: 1, max: 5000 }),
    burst: fc.integer({ min: 1, max: 12 }),
    onRedisError: fc.constant('fail-closed' as const),
  }),
);

describe('retryAfterMs and remaining are exact (fast-check, injected time)', () => {
  it('retrying retryAfterMs later succeeds, 1 ms earlier does not; remaining + 1 is denied, remaining is admitted', async () => {
    const r = redis.client();
    await fc.assert(
      fc.asyncProperty(
        algorithmOptions,
        fc.array(fc.record({ advanceMs: fc.integer({ min: 0, max: 3000 }), costPick: fc.nat() }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        async (options, steps, start) => {
          const { limiter, take } = driven(r, options, 'p');
          let now = 1_700_000_000_000 + start;
          for (const { advanceMs, costPick } of steps) {
            now += advanceMs;
            const cost = (costPick % limiter.limit) + 1;
            const res = await take(cost, now);
            expect(res.limit).toBe(limiter.limit);
            expect(res.remaining).toBeGreaterThanOrEqual(0);
            expect(res.remaining).toBeLessThanOrEqual(limiter.limit);
            expect(res.resetAfterMs).toBeLessThanOrEqual(limiter.maxTtlMs);
            let remaining = res.remaining;
            if (res.allowed) {
              expect(res.retryAfterMs).toBe(0);
            } else {
              expect(res.retryAfterMs).toBeGreaterThanOrEqual(1);
              const early = await take(cost, now + res.retryAfterMs - 1);
              expect(early.allowed).toBe(false);
              expect(early.retryAfterMs).toBe(1);
              now += res.retryAfterMs;
              const onTime = await take(cost, now);
              expect(onTime.allowed).toBe(true);
              remaining = onTime.remaining;
            }
            // `remaining` is exact: one more is denied (and writes nothing), exactly that much is admitted
            if (remaining + 1 <= limiter.limit) {
              const over = await take(remaining + 1, now);
              expect(over.allowed).toBe(false);
              expect(over.remaining).toBe(remaining);
            }
            if (remaining >= 1) {
              const all = await take(remaining, now);
              expect(all.allowed).toBe(true);
              expect(all.remaining).toBe(0);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});

/**
 * The fixed window an admission belongs to, by the definition: a window opens with an admission
 * at time s when none is open, and holds the admissions before s + windowMs. Returns its start.
 */
function windowOf(admitted: ReadonlyArray<[number, number]>, windowMs: number, index: number): number {
  let start = -Infinity;
  for (let k = 0; k <= index; k += 1) {
    const [t] = admitted[k]!;
    if (t >= start + windowMs) start = t;
  }
  return start;
}

/** The most cost `options` may admit at times `t1 <= t2` (inclusive), or at the same window. */
function violations(options: LimiterOptions, admitted: Array<[number, number]>): string[] {
  const found: string[] = [];
  const sum = (from: number, to: number) => admitted.slice(from, to + 1).reduce((a, [, c]) => a + c, 0);
  for (let j = 0; j < admitted.length; j += 1) {
    const [tj] = admitted[j]!;
    for (let i = 0; i <= j; i += 1) {
      const [ti] = admitted[i]!;
      const total = sum(i, j);
      let bound: number;
      switch (options.algorithm) {
        case 'fixed-window':
          // windows of windowMs, each opened by the first admission after the last one ended
          if (windowOf(admitted, options.windowMs, i) !== windowOf(admitted, options.windowMs, j)) continue;
          bound = options.limit;
          break;
        case 'sliding-window-counter':
          // same aligned window: at most limit; the counter also weighs the previous window
          if (Math.floor(ti / options.windowMs) !== Math.floor(tj / options.windowMs)) continue;
          bound = options.limit;
          break;
        case 'sliding-window-log':
          if (tj - ti >= options.windowMs) continue;
          bound = options.limit;
          break;
        case 'token-bucket':
          bound = options.capacity + ((tj - ti) * options.refillPerSecond) / 1000;
          break;
        case 'leaky-bucket':
          bound = options.capacity + ((tj - ti) * options.leakPerSecond) / 1000;
          break;
        case 'gcra':
          bound = (options.burst ?? options.limit) + ((tj - ti) * options.limit) / options.periodMs;
          break;
      }
      if (total > bound + 1e-9) found.push(`${total} admitted in [${ti}, ${tj}] > ${bound}`);
    }
  }
  return found;
}

describe('no over-admission in any window (fast-check, injected time)', () => {
  it('the admitted cost never exceeds the algorithm bound over any interval', async () => {
    const r = redis.client();
    await fc.assert(
      fc.asyncProperty(
        algorithmOptions,
        fc.array(fc.record({ advanceMs: fc.integer({ min: 0, max: 1500 }), costPick: fc.nat() }), { minLength: 1, maxLength: 40 }),
        async (options, steps) => {
          const { limiter, take } = driven(r, options, 'w');
          let now = 1_700_000_000_000;
          const admitted: Array<[number, number]> = [];
          for (const { advanceMs, costPick } of steps) {
            now += advanceMs;
            const cost = (costPick % limiter.limit) + 1;
            const res = await take(cost, now);
            if (res.allowed) admitted.push([now, cost]);
          }
          expect(violations(options, admitted)).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it('the bound check itself catches an over-admission (control)', () => {
    const options: LimiterOptions = { algorithm: 'sliding-window-log', limit: 2, windowMs: 1000, onRedisError: 'fail-open' };
    expect(violations(options, [[0, 1], [500, 1], [999, 1]])).toEqual(['3 admitted in [0, 999] > 2']);
    expect(violations(options, [[0, 1], [500, 1], [1000, 1]])).toEqual([]);
    const fixed: LimiterOptions = { algorithm: 'fixed-window', limit: 2, windowMs: 1000, onRedisError: 'fail-open' };
    // the window opened at 300 holds 300, 900 and 1299; 1300 opens the next one
    expect(violations(fixed, [[300, 1], [900, 1], [1299, 1]])).toEqual(['3 admitted in [300, 1299] > 2']);
    expect(violations(fixed, [[300, 1], [900, 1], [1300, 1], [1301, 1]])).toEqual([]);
  });
});
