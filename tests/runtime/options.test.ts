/**
 * Every option of every public function, given a value of every type: the values of the option's
 * type and range are taken; every other one throws a TypeError (wrong type) or RangeError (right
 * type, out of range) whose message names the option, before any Redis call; an unknown option
 * name is refused by name. `null` is a wrong type, never "the default".
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildKey,
  collect,
  createCache,
  createCircuitBreaker,
  createLimiter,
  createMemoryStore,
  hashIdentity,
  incrementWithTtl,
  setKeepTtl,
  type Algorithm,
} from '../../runtime/index.js';

/** One value of every type (and the usual edge values of numbers and strings). */
const SAMPLES = {
  null: null,
  true: true,
  string: 'x',
  'empty string': '',
  one: 1,
  zero: 0,
  fraction: 0.5,
  'one and a half': 1.5,
  negative: -1,
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  object: {},
  array: [],
  function: () => 1,
  symbol: Symbol('s'),
  bigint: 10n,
  Buffer: Buffer.from('x'),
  'empty Buffer': Buffer.alloc(0),
} as const;
type Sample = keyof typeof SAMPLES;

/** The samples an option of each kind takes; every other sample must be refused by name. */
const TAKES: Record<string, Sample[]> = {
  'integer >= 1': ['one'],
  'integer >= 0': ['one', 'zero'],
  rate: ['one', 'fraction', 'one and a half'],
  share: ['one', 'fraction'],
  jitter: ['zero', 'fraction'],
  beta: ['one', 'fraction', 'one and a half'],
  segment: ['string'],
  scope: ['string'],
  secret: ['string', 'Buffer'],
  policy: [],
  enum: [],
  memoryStore: [],
  function: ['function'],
  boolean: ['true'],
  'earlyRecompute': ['true', 'object'],
  by: ['one', 'zero', 'negative', 'bigint'],
  identity: ['string'],
};

const store = createMemoryStore();
// a client that is never connected: every call below must throw before sending anything
const lazy = new Redis({ lazyConnect: true, enableOfflineQueue: false });
lazy.on('error', () => undefined);
afterAll(() => {
  store.close();
  lazy.disconnect();
});

interface Case {
  what: string;
  option: string;
  kind: keyof typeof TAKES;
  /** Calls the function with the option set to `value` (throws or rejects when refused). */
  call: (value: unknown) => unknown;
}

const outage = { onRedisError: 'fail-closed' as const };
const limiterBase: Record<Algorithm, Record<string, unknown>> = {
  'fixed-window': { limit: 5, windowMs: 1000 },
  'sliding-window-log': { limit: 5, windowMs: 1000 },
  'sliding-window-counter': { limit: 5, windowMs: 1000 },
  'token-bucket': { capacity: 5, refillPerSecond: 1 },
  gcra: { limit: 5, periodMs: 1000, burst: 5 },
  'leaky-bucket': { capacity: 5, leakPerSecond: 1 },
};
const KINDS: Record<string, keyof typeof TAKES> = {
  limit: 'integer >= 1',
  windowMs: 'integer >= 1',
  capacity: 'integer >= 1',
  periodMs: 'integer >= 1',
  burst: 'integer >= 1',
  refillPerSecond: 'rate',
  leakPerSecond: 'rate',
};

const cases: Case[] = [];
for (const [algorithm, base] of Object.entries(limiterBase) as Array<[Algorithm, Record<string, unknown>]>) {
  const make = (patch: Record<string, unknown>) => createLimiter(store, { algorithm, ...base, ...outage, ...patch } as never);
  for (const option of Object.keys(base)) cases.push({ what: `createLimiter(${algorithm})`, option, kind: KINDS[option]!, call: (v) => make({ [option]: v }) });
  const common: Array<[string, keyof typeof TAKES]> = [
    ['timeoutMs', 'integer >= 1'],
    ['outageRetryAfterMs', 'integer >= 0'],
    ['redisProbeIntervalMs', 'integer >= 1'],
    ['fallbackShare', 'share'],
    ['namespace', 'segment'],
    ['version', 'segment'],
    ['scope', 'scope'],
    ['identitySecret', 'secret'],
    ['onRedisError', 'policy'],
    ['fallback', 'memoryStore'],
  ];
  for (const [option, kind] of common) cases.push({ what: `createLimiter(${algorithm})`, option, kind, call: (v) => make({ [option]: v }) });
  cases.push({ what: `createLimiter(${algorithm})`, option: 'algorithm', kind: 'enum', call: (v) => createLimiter(store, { ...base, ...outage, algorithm: v } as never) });
  const limiter = make({});
  cases.push({ what: `take(${algorithm})`, option: 'cost', kind: 'integer >= 1', call: (v) => limiter.take('id', { cost: v as number }) });
  // the fixed window takes no nowMs (it has no clock of its own: tested in limiter.test.ts)
  if (algorithm !== 'fixed-window') cases.push({ what: `take(${algorithm})`, option: 'nowMs', kind: 'integer >= 0', call: (v) => limiter.take('id', { nowMs: v as number }) });
  cases.push({ what: `take(${algorithm})`, option: 'identity', kind: 'identity', call: (v) => limiter.take(v as string) });
}

const breakerBase = { failureThreshold: 3, windowMs: 1000, openMs: 1000, ...outage };
const breakerOptions: Array<[string, keyof typeof TAKES]> = [
  ['failureThreshold', 'integer >= 1'],
  ['windowMs', 'integer >= 1'],
  ['openMs', 'integer >= 1'],
  ['halfOpenProbes', 'integer >= 1'],
  ['namespace', 'segment'],
  ['version', 'segment'],
  ['scope', 'scope'],
  ['identitySecret', 'secret'],
  ['onRedisError', 'policy'],
  ['timeoutMs', 'integer >= 1'],
  ['outageRetryAfterMs', 'integer >= 0'],
  ['fallback', 'memoryStore'],
  ['redisProbeIntervalMs', 'integer >= 1'],
];
for (const [option, kind] of breakerOptions) {
  cases.push({ what: 'createCircuitBreaker', option, kind, call: (v) => createCircuitBreaker(store, { ...breakerBase, [option]: v } as never) });
}
const breaker = createCircuitBreaker(store, breakerBase);
cases.push({ what: 'breaker.acquire', option: 'nowMs', kind: 'integer >= 0', call: (v) => breaker.acquire('svc', { nowMs: v as number }) });
cases.push({ what: 'breaker.acquire', option: 'name', kind: 'identity', call: (v) => breaker.acquire(v as string) });

const cacheBase = { namespace: 'c', ttlMs: 1000 };
const cacheOptions: Array<[string, keyof typeof TAKES]> = [
  ['namespace', 'segment'],
  ['version', 'segment'],
  ['ttlMs', 'integer >= 1'],
  ['jitter', 'jitter'],
  ['lockTtlMs', 'integer >= 1'],
  ['maxWaitMs', 'integer >= 0'],
  ['earlyRecompute', 'earlyRecompute'],
  ['negativeTtlMs', 'integer >= 1'],
  ['onBackgroundError', 'function'],
  ['timeoutMs', 'integer >= 1'],
  ['redisProbeIntervalMs', 'integer >= 1'],
  ['onRedisError', 'enum'],
  ['staleIfErrorMs', 'integer >= 0'],
  ['staleMaxBytes', 'integer >= 1'],
  ['loadErrorBackoffMs', 'integer >= 0'],
];
for (const [option, kind] of cacheOptions) cases.push({ what: 'createCache', option, kind, call: (v) => createCache(lazy, { ...cacheBase, [option]: v } as never) });
cases.push({ what: 'createCache', option: 'earlyRecompute.beta', kind: 'beta', call: (v) => createCache(lazy, { ...cacheBase, earlyRecompute: { beta: v as number } }) });
const cache = createCache(lazy, cacheBase);
cases.push({ what: 'cache.invalidate', option: 'secondDeleteAfterMs', kind: 'integer >= 1', call: (v) => cache.invalidate('k', { secondDeleteAfterMs: v as number }).catch((e: unknown) => { if ((e as Error).name === 'RedisUnavailableError') return; throw e; }) });
cases.push({ what: 'cache.getOrLoad', option: 'key', kind: 'identity', call: (v) => cache.getOrLoad(v as string, () => 1).catch((e: unknown) => { if ((e as Error).name === 'RedisUnavailableError') return; throw e; }) });

for (const [option, kind] of [['maxKeys', 'integer >= 1'], ['janitorIntervalMs', 'integer >= 1'], ['clock', 'function']] as const) {
  cases.push({ what: 'createMemoryStore', option, kind, call: (v) => createMemoryStore({ [option]: v } as never).close() });
}

const incrementOptions: Array<[string, keyof typeof TAKES]> = [
  ['by', 'by'],
  ['ttlMs', 'integer >= 1'],
  ['mode', 'enum'],
  ['bigint', 'boolean'],
  ['timeoutMs', 'integer >= 1'],
  ['redisProbeIntervalMs', 'integer >= 1'],
];
for (const [option, kind] of incrementOptions) {
  cases.push({ what: 'incrementWithTtl', option, kind, call: (v) => incrementWithTtl(store, `n:${String(option)}`, { ttlMs: 1000, [option]: v } as never) });
}
for (const [option, kind] of [['timeoutMs', 'integer >= 1'], ['redisProbeIntervalMs', 'integer >= 1']] as const) {
  cases.push({ what: 'collect', option, kind, call: (v) => collect(store, 'c', { [option]: v }) });
  cases.push({ what: 'setKeepTtl', option, kind, call: (v) => setKeepTtl(store, 'c', 'x', { [option]: v }) });
}
cases.push({ what: 'incrementWithTtl', option: 'key', kind: 'identity', call: (v) => incrementWithTtl(store, v as string, { ttlMs: 1000 }) });

const keyBase = { namespace: 'rl', algorithm: 'tb', version: 'v1', identity: 'ada' };
for (const [option, kind] of [['namespace', 'segment'], ['algorithm', 'segment'], ['version', 'segment'], ['identity', 'identity'], ['scope', 'scope'], ['identitySecret', 'secret']] as const) {
  cases.push({ what: 'buildKey', option, kind, call: (v) => buildKey({ ...keyBase, [option]: v } as never) });
}
cases.push({ what: 'hashIdentity', option: 'identitySecret', kind: 'secret', call: (v) => hashIdentity('ada', v as string) });

/** What calling with `value` did: `'ok'`, or the error. */
async function outcome(call: () => unknown): Promise<'ok' | Error> {
  try {
    await call();
    return 'ok';
  } catch (error) {
    return error as Error;
  }
}

describe('every option, every type', () => {
  it.each(cases.map((c) => [`${c.what}: ${c.option}`, c] as const))('%s', async (_label, c) => {
    for (const sample of Object.keys(SAMPLES) as Sample[]) {
      const result = await outcome(() => c.call(SAMPLES[sample]));
      if (TAKES[c.kind]!.includes(sample)) {
        expect(result, `${c.option} = ${sample}`).toBe('ok');
        continue;
      }
      expect(result, `${c.option} = ${sample} was taken`).toBeInstanceOf(Error);
      const error = result as Error;
      expect(['TypeError', 'RangeError'], `${c.option} = ${sample}: ${error.message}`).toContain(error.name);
      expect(error.message, `${c.option} = ${sample}`).toContain(c.option);
    }
  });
});

describe('unknown option names are refused by name, not dropped', () => {
  const unknown = { tiemoutMs: 5 };
  it.each([
    ['createLimiter', () => createLimiter(store, { algorithm: 'gcra', limit: 5, periodMs: 1000, ...outage, ...unknown } as never)],
    ['limiter.take', () => createLimiter(store, { algorithm: 'gcra', limit: 5, periodMs: 1000, ...outage }).take('id', unknown as never)],
    ['createCircuitBreaker', () => createCircuitBreaker(store, { ...breakerBase, ...unknown } as never)],
    ['breaker.acquire', () => breaker.acquire('svc', unknown as never)],
    ['createCache', () => createCache(lazy, { ...cacheBase, ...unknown } as never)],
    ['earlyRecompute', () => createCache(lazy, { ...cacheBase, earlyRecompute: unknown } as never)],
    ['cache.invalidate', () => cache.invalidate('k', unknown as never)],
    ['createMemoryStore', () => createMemoryStore(unknown as never)],
    ['incrementWithTtl', () => incrementWithTtl(store, 'n', { ttlMs: 1000, ...unknown } as never)],
    ['collect', () => collect(store, 'n', unknown as never)],
    ['setKeepTtl', () => setKeepTtl(store, 'n', 'x', unknown as never)],
    ['buildKey', () => buildKey({ ...keyBase, ...unknown } as never)],
  ])('%s', async (what, call) => {
    const result = await outcome(call);
    expect(result).toBeInstanceOf(TypeError);
    expect((result as Error).message).toMatch(new RegExp(`^${what.replace('.', '\\.')}.*: unknown option "tiemoutMs"; the options are `));
  });
});
