/**
 * The limiter scripts reply with one integer the caller decodes (runtime/decode.ts), and with a
 * table only when that integer would pass 2^53 (or the clock is behind the state: see
 * clock-steps.test.ts). These cases reach the tables on purpose, on Redis and on the memory store,
 * and check the results against values worked out by hand.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runnerFor } from '../../runtime/client.js';
import { createLimiter, createMemoryStore, type Limiter, type LimiterOptions, type MemoryStore, type UpstashLike } from '../../runtime/index.js';
import { getScript } from '../../runtime/scripts.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();
const stores: MemoryStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

/** A limiter of `options` on Redis and one on a memory store whose clock is `clock.now`. */
function both(options: LimiterOptions, clock: { now: number }): Array<[string, Limiter]> {
  const store = createMemoryStore({ clock: () => clock.now });
  stores.push(store);
  return [
    ['Redis', createLimiter(redis.client(), { ...options, namespace: uniquePrefix('rep') })],
    ['memory store', createLimiter(store, options)],
  ];
}

describe('replies past 2^53 come as tables, with the same results', () => {
  it('fixed window: a count times the window past 2^53', async () => {
    const windowMs = 2 ** 40;
    const options: LimiterOptions = { algorithm: 'fixed-window', limit: 2 ** 53 - 1, windowMs, onRedisError: 'fail-closed' };
    for (const [where, limiter] of both(options, { now: 1_700_000_000_000 })) {
      // 2^52 * (2^40 + 1) is far past 2^53: the script answers { 1, 2^52, 2^40 }
      expect(await limiter.take('a', { cost: 2 ** 52 }), where).toEqual({ allowed: true, limit: 2 ** 53 - 1, remaining: 2 ** 52 - 1, retryAfterMs: 0, resetAfterMs: windowMs });
      const denied = await limiter.take('a', { cost: 2 ** 52 });
      expect(denied, where).toMatchObject({ allowed: false, remaining: 2 ** 52 - 1, resetAfterMs: denied.retryAfterMs });
      // the window's time left: all of it on the memory store's clock, less what passed on Redis'
      expect(denied.retryAfterMs, where).toBeLessThanOrEqual(windowMs);
      expect(denied.retryAfterMs, where).toBeGreaterThan(windowMs - 60_000);
    }
  });

  it('sliding-window counter: a denial whose counts times the window pass 2^53', async () => {
    const L = 2 ** 26; // limit * windowMs = 2^52, the largest the counter takes
    const options: LimiterOptions = { algorithm: 'sliding-window-counter', limit: L, windowMs: L, onRedisError: 'fail-closed' };
    const start = 25_000 * L; // a window start (a multiple of windowMs)
    const clock = { now: start };
    for (const [where, limiter] of both(options, clock)) {
      const take = (cost: number, at: number) => {
        clock.now = at;
        return limiter.take('a', { cost, nowMs: at });
      };
      expect(await take(L, start), where).toMatchObject({ allowed: true, remaining: 0, resetAfterMs: 2 * L });
      // the next window: the previous L weighs L * (L - 0) / L = L at its start, so 1 more fits
      // once 1 ms of it has passed; (L * (L + 1) + 0) * L is past 2^53
      expect(await take(1, start + L), where).toEqual({ allowed: false, limit: L, remaining: 0, retryAfterMs: 1, resetAfterMs: L });
      expect(await take(1, start + L + 1), where).toMatchObject({ allowed: true, remaining: 0 });
    }
  });

  it('the raw replies are the same on Redis and on the memory store', async () => {
    const store = createMemoryStore({ clock: () => 0 });
    stores.push(store);
    const runner = runnerFor(redis.client());
    const key = `${uniquePrefix('raw')}:k`;
    const args = [String(2 ** 53 - 1), String(2 ** 40), String(2 ** 52)];
    const fromRedis = await runner.run(getScript('fixed_window'), [key], args);
    expect(fromRedis).toEqual([1, 2 ** 52, 2 ** 40]);
    expect(store.runScript('fixed_window', [key], args)).toEqual(fromRedis);
  });
});

describe('a reply of neither shape', () => {
  it('is a TypeError naming the script (a stand-in client that answers something else)', async () => {
    const odd: UpstashLike = { evalsha: async () => 'OK', eval: async () => 'OK' };
    const limiter = createLimiter(odd, { algorithm: 'token-bucket', capacity: 5, refillPerSecond: 1, onRedisError: 'fail-closed' });
    await expect(limiter.take('a')).rejects.toThrow(new TypeError('unexpected reply of token_bucket: string'));
  });
});
