/**
 * The outage short-circuit per shard (runtime/health.ts), with clients whose failures the test
 * controls: an @upstash/redis-shaped client (topology unknown to the runtime: one shard per slot)
 * forwarding to a real Redis except for the keys it blackholes.
 */
import calculateSlot from 'cluster-key-slot';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createLimiter, RedisUnavailableError, setKeepTtl, type UpstashLike } from '../../runtime/index.js';
import { healthFor } from '../../runtime/health.js';
import { keySlot, probeKeyFor, tagForSlot } from '../../runtime/slot.js';
import { uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();

/** An upstash-shaped client over `r` that never answers for the keys `dead` accepts, and records every key it was sent. */
function blackholing(r: Redis | null, dead: (key: string) => boolean): UpstashLike & { sent: string[] } {
  const sent: string[] = [];
  const forward = (call: () => Promise<unknown>, keys: string[]) => {
    sent.push(keys[0]!);
    return dead(keys[0]!) || r === null ? new Promise(() => undefined) : call();
  };
  return {
    sent,
    evalsha: (sha, keys, args) => forward(() => r!.evalsha(sha, keys.length, ...keys, ...args), keys),
    eval: (script, keys, args) => forward(() => r!.eval(script, keys.length, ...keys, ...args), keys),
  };
}

describe('keySlot and tagForSlot', () => {
  it('keySlot is the Redis Cluster slot (CRC16 of the hash tag or the key, UTF-8), as cluster-key-slot computes it', () => {
    // cluster-key-slot hashes 'a{}b{c}' as 'c'; Redis hashes the whole key when the first '{' is
    // followed by '}' (CLUSTER KEYSLOT on redis-server 7.0: 7353), and so does keySlot
    const emptyFirstTag = (key: string) => key.indexOf('{') !== -1 && key[key.indexOf('{') + 1] === '}';
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('{}', '{a}{b}', '{', '}{x}', 'foo{bar}zap', '{{a}}')), (key) => {
        fc.pre(!emptyFirstTag(key));
        expect(keySlot(key)).toBe(calculateSlot(key));
      }),
      { numRuns: 2000 },
    );
    expect(['a{}b{c}', '{}', '}{x}', '{a}{b}', 'c'].map(keySlot)).toEqual([7353, 15257, 16287, 15495, 7365]);
  });

  it('tagForSlot gives a tag of that very slot', () => {
    for (const slot of [0, 1, 5461, 5462, 10922, 10923, 16383]) expect(calculateSlot(`redis-ttl:probe:{${tagForSlot(slot)}}`)).toBe(slot);
  });

  it('probeKeyFor: a key of the same slot that starts like the key and is no key of the runtime', () => {
    const cases: Array<[string, string]> = [
      ['rl:tb:v1:{ungWv48Bz-pBQUDeXa4iI7}:POST /login', 'rl:tb:v1:{ungWv48Bz-pBQUDeXa4iI7}:{redis-ttl-probe}'],
      ['session:{42}:billable', 'session:{42}:{redis-ttl-probe}'],
      ['counter:42', 'counter:42:redis-ttl-probe{counter:42}'],
      ['a{}b', `redis-ttl:probe:{${tagForSlot(keySlot('a{}b'))}}`],
      ['a}b', `redis-ttl:probe:{${tagForSlot(keySlot('a}b'))}}`],
    ];
    for (const [key, probe] of cases) {
      expect(probeKeyFor(key)).toBe(probe);
      expect(keySlot(probeKeyFor(key))).toBe(keySlot(key));
    }
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (key) => keySlot(probeKeyFor(key)) === keySlot(key)), { numRuns: 2000 });
  });
});

describe('health per shard (a client of unknown topology: one shard per slot)', () => {
  it('one dead slot never sends a healthy identity to the fallback: it is never admitted over its limit (rt03)', async () => {
    const r = redis.client();
    let deadKey = '';
    const client = blackholing(r, (key) => key === deadKey);
    const LIMIT = 30;
    const W = 500;
    const limiter = createLimiter(client, {
      algorithm: 'fixed-window',
      limit: LIMIT,
      windowMs: W,
      onRedisError: 'fallback',
      // long enough for a busy 2-core machine: a healthy call that times out marks its shard down
      timeoutMs: 250,
      redisProbeIntervalMs: 100,
      namespace: uniquePrefix('rt03'),
    });
    deadKey = limiter.keyFor('dead');
    expect(keySlot(deadKey)).not.toBe(keySlot(limiter.keyFor('healthy')));
    await new Promise((resolve) => setTimeout(resolve, W - (Date.now() % W) + 5));
    const perWindow = new Map<number, { redis: number; fallback: number }>();
    const end = Date.now() + 3 * W - 20;
    const loop = (identity: string) => async () => {
      while (Date.now() < end) {
        const res = await limiter.take(identity);
        if (identity === 'healthy' && res.allowed) {
          const w = perWindow.get(Math.floor(Date.now() / W)) ?? { redis: 0, fallback: 0 };
          w[res.reason === 'fallback' ? 'fallback' : 'redis'] += 1;
          perWindow.set(Math.floor(Date.now() / W), w);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all([...Array.from({ length: 8 }, loop('healthy')), ...Array.from({ length: 8 }, loop('dead'))]);
    expect([...perWindow.values()]).toEqual([...perWindow.keys()].map(() => ({ redis: LIMIT, fallback: 0 })));
    expect(perWindow.size).toBeGreaterThanOrEqual(2);
  });

  it('probes the dead shard with a key of its slot, one at a time, never piling up behind a probe that has not answered', async () => {
    const client = blackholing(null, () => true);
    const limiter = createLimiter(client, { algorithm: 'gcra', limit: 5, periodMs: 1000, onRedisError: 'fail-closed', timeoutMs: 20, redisProbeIntervalMs: 20 });
    const key = limiter.keyFor('a');
    expect(await limiter.take('a')).toMatchObject({ allowed: false, reason: 'redis-unavailable' });
    expect(client.sent).toEqual([key]);
    const until = Date.now() + 300;
    while (Date.now() < until) {
      expect(await limiter.take('a')).toMatchObject({ allowed: false, reason: 'redis-unavailable' });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // one probe, of the dead key's slot; it never answered, so no second probe was sent: two
    // commands abandoned at their deadline are all this outage left in the client
    expect(client.sent).toHaveLength(2);
    expect(healthFor(client).abandoned).toBe(2);
    expect(client.sent[1]).toBe(`${key.slice(0, key.indexOf('}') + 1)}:{redis-ttl-probe}`);
    expect(calculateSlot(client.sent[1]!)).toBe(calculateSlot(key));
  });

  it('two slots failing with no reply from anywhere mark the whole client down: a third identity is not sent at all', async () => {
    const client = blackholing(null, () => true);
    const limiter = createLimiter(client, { algorithm: 'gcra', limit: 5, periodMs: 1000, onRedisError: 'fail-open', timeoutMs: 20, redisProbeIntervalMs: 60_000 });
    await Promise.all([limiter.take('a'), limiter.take('b')]);
    expect(client.sent).toHaveLength(2);
    expect(await limiter.take('c')).toMatchObject({ allowed: true, reason: 'redis-unavailable' });
    expect(await setKeepTtl(client, 'some:key', 'v').catch((e: unknown) => e)).toMatchObject({ name: 'RedisUnavailableError', sent: false });
    expect(client.sent).toHaveLength(2);
  });

  it('while one slot is down, others keep being sent (no whole-client outage when they answer)', async () => {
    const r = redis.client();
    const namespace = uniquePrefix('slots');
    let deadKey = '';
    const client = blackholing(r, (key) => key === deadKey);
    // timeoutMs long enough for a live call on a loaded machine (30 ms timed out the first live call
    // in CI): the dead slot's calls cost that long, the live ones answer at once
    const limiter = createLimiter(client, { algorithm: 'fixed-window', limit: 100, windowMs: 60_000, onRedisError: 'fail-closed', timeoutMs: 500, namespace });
    deadKey = limiter.keyFor('dead');
    expect((await limiter.take('live')).reason).toBeUndefined();
    const [dead] = await Promise.all([limiter.take('dead'), limiter.take('live')]);
    expect(dead.reason).toBe('redis-unavailable');
    for (let i = 0; i < 5; i += 1) expect((await limiter.take(`live-${i}`)).reason).toBeUndefined();
    const error = await setKeepTtl(client, deadKey, 'x', { timeoutMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect(error).toMatchObject({ sent: false, code: 'TIMEOUT' });
  });
});

describe('answers of a shard that is down come on the next turn of the event loop', () => {
  it('a loop that awaits take() back to back during an outage does not starve timers', async () => {
    const client = blackholing(null, () => true);
    const limiter = createLimiter(client, { algorithm: 'gcra', limit: 5, periodMs: 1000, onRedisError: 'fail-closed', timeoutMs: 10, redisProbeIntervalMs: 60_000 });
    await limiter.take('a'); // the shard is down from here on
    let fired = false;
    setTimeout(() => (fired = true), 20);
    let calls = 0;
    // with answers as microtasks this loop would never let the timer run (it stops at the cap)
    while (!fired && calls < 2_000_000) {
      await limiter.take('a');
      calls += 1;
    }
    expect(fired).toBe(true);
    expect(calls).toBeLessThan(2_000_000);
  });
});
