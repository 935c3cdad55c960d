/**
 * Clock steps: no algorithm admits more because the clock stepped back (an NTP step of the
 * server, a failover to a replica whose clock lags, `Date.now()` set back in the process of a
 * memory store), and the memory store's own clock does not step with the system clock at all.
 *
 * The property, for every algorithm and every store (Redis through the scripts, the memory store
 * with `nowMs`, the memory store on its own clock): a limiter whose clock steps back and then comes
 * back admits exactly what the same limiter admits with the clock standing still (the step is
 * time that never passed), and over a run in which real time moves by `d` ms whatever the steps,
 * it admits at most what `d` ms allow (the limit or burst, plus what the rate gives in `d`).
 * `tests/faults/clock-step.test.ts` steps a real redis-server's clock. The fixed window has no clock
 * of its own (its window is its key's TTL, judged by the store's clock): it steps with the memory
 * store's clock here, and with the redis-server's there.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createLimiter, createMemoryStore, type LimiterOptions, type LimitResult, type MemoryStore } from '../../runtime/index.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();

/** A window start of every window length below (a multiple of 60 s), plus 1 s. */
const T0 = 1_700_000_040_000 + 1_000;
const W = 60_000;

interface Algorithm {
  options: LimiterOptions;
  /**
   * Most cost admitted by calls whose clock readings were `first` at the first call and at most
   * `last` (ms since the epoch): the clock moved forward by `last - first` at most, whatever steps
   * back it took in between.
   */
  bound: (first: number, last: number) => number;
  /**
   * Whether a clock behind the state gives the very answers of a clock standing still. GCRA keeps
   * only its theoretical arrival time (no "latest time seen"): a clock behind it finds more
   * outstanding, so it denies earlier than a clock standing still, never later.
   */
  sameAsStill: boolean;
  /**
   * The fixed window has no clock of its own (its window is its key's TTL): no `nowMs`, so it
   * steps only with the store's clock (a memory store's here; a redis-server's in
   * tests/faults/clock-step.test.ts). Redis keeps an expiry as an absolute time, as the memory
   * store does: a clock stepped back finds the window longer.
   */
  clockless?: true;
}

/** Whole units a rate of 0.083333 per second (83,333 per 10^9 ms) refills or leaks in `d` ms. */
const perTwelveSeconds = (d: number): number => Math.floor((d * 83_333) / 1e9);
/** Windows of `W` ms (epoch-aligned) from the one holding `first` to the one holding `last`. */
const windows = (first: number, last: number): number => Math.floor(last / W) - Math.floor(first / W) + 1;

/** Limit 5 per minute in every algorithm; the buckets and GCRA give one unit back about every 12 s. */
const ALGORITHMS: Algorithm[] = [
  // windows open at an admission and last W: at most 1 + (l - f) / W of them from the first call on
  { options: { algorithm: 'fixed-window', limit: 5, windowMs: W, onRedisError: 'fail-closed' }, bound: (f, l) => 5 * (1 + Math.floor((l - f) / W)), sameAsStill: true, clockless: true },
  { options: { algorithm: 'sliding-window-log', limit: 5, windowMs: W, onRedisError: 'fail-closed' }, bound: (f, l) => 5 * (1 + Math.floor((l - f) / W)), sameAsStill: true },
  { options: { algorithm: 'sliding-window-counter', limit: 5, windowMs: W, onRedisError: 'fail-closed' }, bound: (f, l) => 5 * windows(f, l), sameAsStill: true },
  { options: { algorithm: 'token-bucket', capacity: 5, refillPerSecond: 0.083333, onRedisError: 'fail-closed' }, bound: (f, l) => 5 + perTwelveSeconds(l - f), sameAsStill: true },
  { options: { algorithm: 'gcra', limit: 5, periodMs: W, onRedisError: 'fail-closed' }, bound: (f, l) => 5 + Math.floor((l - f) / 12_000), sameAsStill: false },
  { options: { algorithm: 'leaky-bucket', capacity: 5, leakPerSecond: 0.083333, onRedisError: 'fail-closed' }, bound: (f, l) => 5 + perTwelveSeconds(l - f), sameAsStill: true },
];

const stores: MemoryStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

/** Takes `cost` at time `at` (ms since the epoch) from one identity of a fresh limiter. */
type Take = (at: number, cost?: number) => Promise<LimitResult>;

/** A fresh limiter on each kind of store, driven at explicit times. */
const STORES: Record<string, (options: LimiterOptions) => Take> = {
  'Redis (the scripts)': (options) => {
    const limiter = createLimiter(redis.client(), { ...options, namespace: uniquePrefix('clk') });
    return (at, cost = 1) => limiter.take('alice', { nowMs: at, cost });
  },
  'memory store (nowMs)': (options) => {
    const store = createMemoryStore();
    stores.push(store);
    const limiter = createLimiter(store, options);
    return (at, cost = 1) => limiter.take('alice', { nowMs: at, cost });
  },
  'memory store (its clock)': (options) => {
    let now = 0;
    const store = createMemoryStore({ clock: () => now });
    stores.push(store);
    const limiter = createLimiter(store, options);
    return (at, cost = 1) => {
      now = at;
      return limiter.take('alice', cost === 1 ? undefined : { cost });
    };
  },
};

/** Takes cost 1 until denied (at most 20 times) at `at`; the costs admitted. */
async function drain(take: Take, at: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < 20; i += 1) {
    if (!(await take(at)).allowed) return admitted;
    admitted += 1;
  }
  return admitted;
}

const STEPS_BACK = [1, 999, 1_000, 30_000, W - 1, W, W + 1, 90_000, 10 * W, 400 * 24 * 3_600_000];

/** The stores an algorithm steps on: every one, or only the memory store on its clock for the fixed window. */
const storesOf = (a: Algorithm): Array<[string, (options: LimiterOptions) => Take]> =>
  Object.entries(STORES).filter(([name]) => !a.clockless || name === 'memory store (its clock)');

describe.each(Object.entries(STORES))('%s', (store, make) => {
  const algorithms = ALGORITHMS.filter((a) => storesOf(a).some(([name]) => name === store));
  describe.each(algorithms.map((a) => [a.options.algorithm, a] as const))('%s', (_name, { options, sameAsStill }) => {
    it('a clock that steps back admits nothing more, and retry times count the time it must catch up', async () => {
      const take = make(options);
      expect(await drain(take, T0)).toBe(5);
      const atT0 = await take(T0);
      expect(atT0.allowed).toBe(false);
      for (const back of STEPS_BACK) {
        const r = await take(T0 - back);
        expect(r.allowed, `${back} ms back`).toBe(false);
        // the same call is admitted at the same moment of real time as without the step
        expect(r.retryAfterMs, `${back} ms back`).toBe(atT0.retryAfterMs + back);
        expect(r.resetAfterMs, `${back} ms back`).toBe(atT0.resetAfterMs + back);
        expect(await drain(take, T0 - back), `${back} ms back`).toBe(0);
      }
      expect((await take(T0 + atT0.retryAfterMs - 1)).allowed).toBe(false);
      expect((await take(T0 + atT0.retryAfterMs)).allowed).toBe(true);
    });

    it('back, then forward to where it was: the answers of a clock that stood still (GCRA: never more admitted)', async () => {
      for (const back of [500, W, 90_000]) {
        const stepped = make(options);
        const still = make(options);
        // [stepped, still, how far the stepped clock is behind, label]
        const answers: Array<[LimitResult, LimitResult, number, string]> = [];
        // 3 admitted at T0, then 4 calls with the clock `back` ms behind, then the clock is back
        for (let i = 0; i < 3; i += 1) answers.push([await stepped(T0), await still(T0), 0, `T0, call ${i}`]);
        for (let i = 0; i < 4; i += 1) answers.push([await stepped(T0 - back), await still(T0), back, `${back} ms back, call ${i}`]);
        for (const later of [0, 1, 12_001, W, W + 1_000, 3 * W]) answers.push([await stepped(T0 + later), await still(T0 + later), 0, `${back} ms back, then T0 + ${later}`]);
        let admittedStepped = 0;
        let admittedStill = 0;
        // a time to wait on the clock that is behind: the wait on the clock standing still, plus the lag
        const onStepped = (ms: number, lag: number): number => (ms > 0 ? ms + lag : ms);
        for (const [a, b, lag, label] of answers) {
          if (a.allowed) admittedStepped += 1;
          if (b.allowed) admittedStill += 1;
          if (sameAsStill) {
            expect([a.allowed, a.remaining, a.retryAfterMs, a.resetAfterMs], label).toEqual([
              b.allowed,
              b.remaining,
              onStepped(b.retryAfterMs, lag),
              onStepped(b.resetAfterMs, lag),
            ]);
          }
          expect(admittedStepped, label).toBeLessThanOrEqual(admittedStill);
        }
        expect(answers[2]![0].allowed).toBe(true);
      }
    });
  });
});

describe.each(ALGORITHMS.map((a) => [a.options.algorithm, a] as const))('%s, random steps back and forth on every store', (_name, algorithm) => {
  const { options, bound } = algorithm;
  it('never admits more than the forward movement of its clock allows, whatever steps back it takes', async () => {
    // real time moves forward by small amounts; the clock the limiter reads is real time plus an
    // offset that steps back and forth
    const step = fc.record({
      advance: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1_000, max: 20_000 })),
      offset: fc.oneof(fc.constant(0), fc.integer({ min: -3 * W, max: 0 }), fc.constantFrom(-1, -W, -W - 1, -90_000, -10 * W)),
      cost: fc.oneof({ weight: 4, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 3 }) }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40 }), async (steps) => {
        for (const [store, make] of storesOf(algorithm)) {
          const take = make(options);
          let real = T0;
          let admitted = 0;
          let first: number | undefined;
          let last = 0;
          for (const s of steps) {
            real += s.advance;
            const reading = real + s.offset;
            first ??= reading;
            last = Math.max(last, reading);
            if ((await take(reading, s.cost)).allowed) admitted += s.cost;
          }
          expect(admitted, store).toBeLessThanOrEqual(bound(first!, last));
        }
      }),
      { numRuns: 15 },
    );
  });
});

describe('the memory store on its default clock', () => {
  it.each(ALGORITHMS.map((a) => [a.options.algorithm, a] as const))(
    '%s: Date.now() stepping back or forward neither reopens nor refills the limit',
    async (_name, { options }) => {
      const realNow = Date.now;
      let skew = 0;
      Date.now = () => realNow() + skew;
      try {
        const store = createMemoryStore();
        stores.push(store);
        const limiter = createLimiter(store, options);
        let admitted = 0;
        for (const s of [0, -90_000, -W, 3_600_000, 400 * 24 * 3_600_000, -400 * 24 * 3_600_000]) {
          skew = s;
          for (let i = 0; i < 7; i += 1) if ((await limiter.take('alice')).allowed) admitted += 1;
        }
        expect(admitted).toBe(5);
      } finally {
        Date.now = realNow;
      }
    },
  );

  it('keeps TTLs in real time whatever Date.now() does', async () => {
    const realNow = Date.now;
    try {
      const store = createMemoryStore();
      stores.push(store);
      const limiter = createLimiter(store, { algorithm: 'fixed-window', limit: 5, windowMs: 3_600_000, onRedisError: 'fail-closed' });
      await limiter.take('alice');
      const pttl = store.pttl(limiter.keyFor('alice'));
      Date.now = () => realNow() + 7_200_000;
      expect(store.pttl(limiter.keyFor('alice'))).toBeGreaterThan(pttl - 1_000);
      expect(store.keys()).toEqual([limiter.keyFor('alice')]);
    } finally {
      Date.now = realNow;
    }
  });
});
