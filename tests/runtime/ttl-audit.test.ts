import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { collect, createLimiter, incrementWithTtl, setKeepTtl, type Limiter, type LimiterOptions } from '../../runtime/index.js';
import { scanWithPttl, uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();

/** Keys under `prefix` without TTL, or with a PTTL above their bound (`bounds`, default 0). */
async function audit(r: Redis, prefix: string, bounds: Map<string, number>): Promise<string[]> {
  const problems: string[] = [];
  for (const [key, pttl] of await scanWithPttl(r, `${prefix}*`)) {
    if (pttl === -1) problems.push(`${key} has no TTL`);
    else if (pttl > (bounds.get(key) ?? 0)) problems.push(`${key} PTTL ${pttl} > ${bounds.get(key) ?? 0}`);
  }
  return problems.sort();
}

const limiterOptions: fc.Arbitrary<LimiterOptions> = fc.oneof(
  fc.record({
    algorithm: fc.constantFrom('fixed-window' as const, 'sliding-window-log' as const, 'sliding-window-counter' as const),
    limit: fc.integer({ min: 1, max: 5 }),
    windowMs: fc.integer({ min: 1, max: 3000 }),
    onRedisError: fc.constant('fail-closed' as const),
  }),
  fc.record({
    algorithm: fc.constantFrom('token-bucket' as const),
    capacity: fc.integer({ min: 1, max: 5 }),
    refillPerSecond: fc.constantFrom(0.5, 1, 3, 20, 1000),
    onRedisError: fc.constant('fail-closed' as const),
  }),
  fc.record({
    algorithm: fc.constantFrom('leaky-bucket' as const),
    capacity: fc.integer({ min: 1, max: 5 }),
    leakPerSecond: fc.constantFrom(0.5, 1, 3, 20, 1000),
    onRedisError: fc.constant('fail-closed' as const),
  }),
  fc.record({
    algorithm: fc.constant('gcra' as const),
    limit: fc.integer({ min: 1, max: 5 }),
    periodMs: fc.integer({ min: 1, max: 3000 }),
    burst: fc.integer({ min: 1, max: 5 }),
    onRedisError: fc.constant('fail-closed' as const),
  }),
);

type Op =
  | { kind: 'increment'; key: number; by: number; ttlMs: number; mode: 'fixed' | 'sliding' }
  | { kind: 'collect'; key: number }
  | { kind: 'set'; key: number; value: string }
  | { kind: 'take'; limiter: number; identity: number; cost: number }
  | { kind: 'sleep'; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('increment' as const),
    key: fc.integer({ min: 0, max: 2 }),
    by: fc.integer({ min: -3, max: 5 }),
    ttlMs: fc.integer({ min: 1, max: 2500 }),
    mode: fc.constantFrom('fixed' as const, 'sliding' as const),
  }),
  fc.record({ kind: fc.constant('collect' as const), key: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 3 }), value: fc.integer({ min: -99, max: 99 }).map(String) }),
  fc.record({
    kind: fc.constant('take' as const),
    limiter: fc.integer({ min: 0, max: 2 }),
    identity: fc.integer({ min: 0, max: 2 }),
    cost: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ kind: fc.constant('sleep' as const), ms: fc.integer({ min: 0, max: 4 }) }),
);

describe('TTL audit after random sequences of every operation (fast-check, server clock)', () => {
  it('SCAN finds no key without TTL and no PTTL above its bound', async () => {
    const clients = [redis.client(), redis.client()];
    const auditor = redis.client();
    await fc.assert(
      fc.asyncProperty(
        fc.array(limiterOptions, { minLength: 3, maxLength: 3 }),
        fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
        async (optionsList, batches) => {
          const prefix = uniquePrefix('audit');
          const bounds = new Map<string, number>();
          const limiters: Limiter[] = optionsList.map((o, i) =>
            createLimiter(clients[i % 2]!, { ...o, namespace: prefix, scope: `s${i}` }),
          );
          const rawKey = (i: number) => `${prefix}:raw:${i}`;
          const run = async (o: Op, i: number) => {
            const r = clients[i % 2]!;
            switch (o.kind) {
              case 'increment':
                bounds.set(rawKey(o.key), Math.max(bounds.get(rawKey(o.key)) ?? 0, o.ttlMs));
                return incrementWithTtl(r, rawKey(o.key), { by: o.by, ttlMs: o.ttlMs, mode: o.mode });
              case 'collect':
                return collect(r, rawKey(o.key));
              case 'set':
                return setKeepTtl(r, rawKey(o.key), o.value);
              case 'take': {
                const limiter = limiters[o.limiter]!;
                bounds.set(limiter.keyFor(`id${o.identity}`), limiter.maxTtlMs);
                return limiter.take(`id${o.identity}`, { cost: o.cost });
              }
              case 'sleep':
                return new Promise((resolve) => setTimeout(resolve, o.ms));
            }
          };
          for (const batch of batches) await Promise.all(batch.map(run));
          expect(await audit(auditor, prefix, bounds)).toEqual([]);
          // key 3 is never incremented: collect and setKeepTtl must not have created it
          expect(await auditor.exists(rawKey(3))).toBe(0);
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);

  it('the audit reports a key without TTL and a TTL above its bound (control)', async () => {
    const r = redis.client();
    const prefix = uniquePrefix('ctl');
    await r.set(`${prefix}:a`, '1');
    await r.set(`${prefix}:b`, '1', 'PX', 60_000);
    const problems = await audit(r, prefix, new Map([[`${prefix}:b`, 1000]]));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toBe(`${prefix}:a has no TTL`);
    expect(problems[1]).toMatch(new RegExp(`^${prefix}:b PTTL \\d+ > 1000$`));
    await r.del(`${prefix}:a`, `${prefix}:b`);
  });
});
