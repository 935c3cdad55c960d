/**
 * Runtime benchmark: our limiters next to rate-limiter-flexible's RateLimiterRedis on the same
 * ioredis client and the same local Redis, plus a bare EVALSHA of `return 1` as the floor.
 *
 *   node --import tsx bench/runtime/run.ts            (starts a redis-server, or uses REDIS_TEST_URL)
 *   BENCH_MS=500 node --import tsx bench/runtime/run.ts   (shorter cells)
 *   BENCH_BASELINE=/path/to/runtime/dist/index.js node --import tsx bench/runtime/run.ts
 *     (also another build of the runtime, e.g. the one before a change, in the same cells: its
 *     rows are labelled "baseline", and "/ baseline" is ours as a ratio of it;
 *     BENCH_CLIENT_ONLY=1 stops after the client-side cost)
 *
 * Workloads: one hot key mostly allowed, one hot key mostly denied, 10,000 rotating keys; each at
 * 1 and 64 calls in flight. Each implementation is warmed up for 200 ms, then all of them are
 * measured in turn, BENCH_ROUNDS times (default 3) for BENCH_MS each (default 400 ms), and the
 * median is reported: interleaving keeps a noisy machine from favouring whoever ran first.
 * At the end: keys left without TTL per library, including a sub-second window.
 *
 * First, the client-side cost of one `take()` without Redis: a stand-in ioredis client whose
 * scripts resolve at once, CPU time per call (process.cpuUsage, so a busy machine that
 * deschedules the process does not count), ours and the baseline interleaved over 7 rounds.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { pathToFileURL } from 'node:url';
import { createLimiter, type Limiter, type LimiterOptions } from '../../runtime/index.js';
import { startRedis, unlinkMatching } from '../../tests/helpers/redis-server.js';

const CELL_MS = Number(process.env.BENCH_MS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_MS = 200;
const HOUR = 3_600_000;
const tag = randomBytes(4).toString('hex');
const OURS = `benchours${tag}`;
const THEIRS = `benchrlf${tag}`;
const FLOOR = `benchfloor${tag}`;
const BASELINE = `benchbase${tag}`;
const baseline = process.env.BENCH_BASELINE
  ? ((await import(pathToFileURL(process.env.BENCH_BASELINE).href)) as { createLimiter: typeof createLimiter })
  : undefined;

type Call = (i: number) => Promise<unknown>;

async function measure(call: Call, inFlight: number, ms: number): Promise<number> {
  let i = 0;
  const run = async (until: number): Promise<number> => {
    let done = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (performance.now() < until) {
          await call(i++);
          done += 1;
        }
      }),
    );
    return done;
  };
  const started = performance.now();
  const done = await run(started + ms);
  return done / ((performance.now() - started) / 1000);
}

interface Workload {
  name: string;
  identity: (i: number) => string;
  ours: LimiterOptions[];
  theirs: { points: number; duration: number };
}

const big = 1_000_000_000;
const fc = { onRedisError: 'fail-closed' as const };
const workloads: Workload[] = [
  {
    name: 'hot key, mostly allowed',
    identity: () => 'hot-allowed',
    ours: [
      { ...fc, algorithm: 'fixed-window', limit: big, windowMs: 60_000 },
      { ...fc, algorithm: 'sliding-window-log', limit: big, windowMs: 60_000 },
      { ...fc, algorithm: 'sliding-window-counter', limit: big, windowMs: 60_000 },
      { ...fc, algorithm: 'token-bucket', capacity: big, refillPerSecond: 1_000_000 },
      { ...fc, algorithm: 'gcra', limit: 1_000_000, periodMs: 1000, burst: big },
      { ...fc, algorithm: 'leaky-bucket', capacity: big, leakPerSecond: 1_000_000 },
    ],
    theirs: { points: big, duration: 60 },
  },
  {
    name: 'hot key, mostly denied',
    identity: () => 'hot-denied',
    ours: [
      { ...fc, algorithm: 'fixed-window', limit: 10, windowMs: HOUR },
      { ...fc, algorithm: 'sliding-window-log', limit: 10, windowMs: HOUR },
      { ...fc, algorithm: 'sliding-window-counter', limit: 10, windowMs: HOUR },
      { ...fc, algorithm: 'token-bucket', capacity: 10, refillPerSecond: 0.001 },
      { ...fc, algorithm: 'gcra', limit: 10, periodMs: HOUR },
      { ...fc, algorithm: 'leaky-bucket', capacity: 10, leakPerSecond: 0.001 },
    ],
    theirs: { points: 10, duration: 3600 },
  },
  {
    name: '10,000 rotating keys',
    identity: (i) => `user-${i % 10_000}`,
    ours: [
      { ...fc, algorithm: 'fixed-window', limit: 100, windowMs: 60_000 },
      { ...fc, algorithm: 'sliding-window-log', limit: 100, windowMs: 60_000 },
      { ...fc, algorithm: 'sliding-window-counter', limit: 100, windowMs: 60_000 },
      { ...fc, algorithm: 'token-bucket', capacity: 100, refillPerSecond: 2 },
      { ...fc, algorithm: 'gcra', limit: 100, periodMs: 60_000 },
      { ...fc, algorithm: 'leaky-bucket', capacity: 100, leakPerSecond: 2 },
    ],
    theirs: { points: 100, duration: 60 },
  },
];

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A stand-in for an ioredis client: `defineCommand` defines scripts that resolve at once. */
function instantClient(): object {
  const client: Record<string, unknown> = {
    defineCommand(name: string) {
      client[name] = () => Promise.resolve([1, 5, 0, 100]);
    },
    eval: () => Promise.resolve([1, 5, 0, 100]),
  };
  return client;
}

/** CPU microseconds per call of `call`, `count` calls `inFlight` at a time. */
async function cpuPerCall(call: (i: number) => Promise<unknown>, count: number, inFlight: number): Promise<number> {
  let i = 0;
  const started = process.cpuUsage();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (i < count) await call(i++);
    }),
  );
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

async function clientSideCost(): Promise<void> {
  if (baseline === undefined) return;
  const options: LimiterOptions = { algorithm: 'gcra', limit: 100, periodMs: 1000, onRedisError: 'fail-closed' };
  console.log('Client-side CPU per take() without Redis (a stand-in client that answers at once), median of 7 interleaved rounds of 200,000 calls:\n');
  console.log('| identities | in flight | ours µs | baseline µs | ours / baseline |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [label, identity] of [
    ['one', () => 'hot'],
    ['10,000 rotating', (i: number) => `user-${i % 10_000}`],
  ] as const) {
    for (const inFlight of [1, 64]) {
      const ours = createLimiter(instantClient() as never, options);
      const base = baseline.createLimiter(instantClient() as never, options);
      const o: number[] = [];
      const b: number[] = [];
      for (let round = 0; round < 8; round += 1) {
        const a = await cpuPerCall((i) => ours.take(identity(i)), 200_000, inFlight);
        const c = await cpuPerCall((i) => base.take(identity(i)), 200_000, inFlight);
        if (round > 0) {
          o.push(a); // round 0 warms up both
          b.push(c);
        }
      }
      const median = (list: number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
      console.log(`| ${label} | ${inFlight} | ${median(o).toFixed(2)} | ${median(b).toFixed(2)} | ${(median(o) / median(b)).toFixed(2)} |`);
    }
  }
  console.log('');
}

async function main(): Promise<void> {
  await clientSideCost();
  if (process.env.BENCH_CLIENT_ONLY === '1') return;
  const handle = await startRedis();
  const redis = new Redis(handle.url);
  const rows: string[] = [];
  try {
    const floorSha = (await redis.script('LOAD', 'return 1')) as string;
    for (const w of workloads) {
      for (const inFlight of [1, 64]) {
        const rlf = new RateLimiterRedis({ storeClient: redis, keyPrefix: THEIRS, ...w.theirs });
        const impls: Array<{ label: string; call: Call }> = [
          { label: 'floor', call: () => redis.evalsha(floorSha, 1, `${FLOOR}:k`) },
          // a rejection is rate-limiter-flexible's way of answering "denied"
          { label: 'theirs', call: (i) => rlf.consume(w.identity(i)).catch((rejection: unknown) => rejection) },
          ...w.ours.map((options) => {
            const limiter: Limiter = createLimiter(redis, { ...options, namespace: OURS });
            return { label: options.algorithm, call: (i: number) => limiter.take(w.identity(i)) };
          }),
          ...(baseline === undefined
            ? []
            : w.ours.map((options) => {
                const limiter: Limiter = baseline.createLimiter(redis, { ...options, namespace: BASELINE });
                return { label: `baseline ${options.algorithm}`, call: (i: number) => limiter.take(w.identity(i)) };
              })),
        ];
        const samples = new Map<string, number[]>();
        for (const impl of impls) await measure(impl.call, inFlight, WARMUP_MS);
        for (let round = 0; round < ROUNDS; round += 1) {
          for (const impl of impls) {
            const list = samples.get(impl.label) ?? [];
            list.push(await measure(impl.call, inFlight, CELL_MS));
            samples.set(impl.label, list);
          }
        }
        const median = (label: string) => {
          const list = [...(samples.get(label) ?? [])].sort((a, b) => a - b);
          return list[Math.floor(list.length / 2)] ?? 0;
        };
        const floor = median('floor');
        const theirs = median('theirs');
        rows.push(`| ${w.name} | ${inFlight} | rate-limiter-flexible (fixed window) | ${fmt(theirs)} | 1.00 | ${(theirs / floor).toFixed(2)} |`);
        for (const options of w.ours) {
          const ours = median(options.algorithm);
          const base = median(`baseline ${options.algorithm}`);
          const vsBase = baseline === undefined ? '' : ` ${(ours / base).toFixed(2)} |`;
          rows.push(
            `| ${w.name} | ${inFlight} | ours: ${options.algorithm} | ${fmt(ours)} | ${(ours / theirs).toFixed(2)} | ${(ours / floor).toFixed(2)} |${vsBase}`,
          );
          if (baseline !== undefined) {
            rows.push(`| ${w.name} | ${inFlight} | baseline: ${options.algorithm} | ${fmt(base)} | ${(base / theirs).toFixed(2)} | ${(base / floor).toFixed(2)} | 1.00 |`);
          }
        }
        rows.push(`| ${w.name} | ${inFlight} | floor: EVALSHA \`return 1\` | ${fmt(floor)} | | 1.00 |`);
        process.stderr.write(`done: ${w.name}, ${inFlight} in flight\n`);
      }
    }

    // Sub-second windows: 500 ms. rate-limiter-flexible takes seconds (duration: 0.5).
    const subSecondOurs = createLimiter(redis, {
      algorithm: 'fixed-window',
      limit: 2,
      windowMs: 500,
      onRedisError: 'fail-closed',
      namespace: OURS,
      scope: 'subsecond',
    });
    const subSecondTheirs = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${THEIRS}:subsecond`, points: 2, duration: 0.5 });
    for (let i = 0; i < 50; i += 1) {
      await subSecondOurs.take(`sub-${i % 5}`);
      await subSecondTheirs.consume(`sub-${i % 5}`).catch(() => undefined);
    }

    const audit = async (prefix: string) => {
      let total = 0;
      let noTtl = 0;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) {
          total += 1;
          if ((await redis.pttl(key)) === -1) noTtl += 1;
        }
      } while (cursor !== '0');
      return { total, noTtl };
    };
    const ours = await audit(OURS);
    const theirs = await audit(THEIRS);
    const theirsSub = await audit(`${THEIRS}:subsecond`);
    const oursSub = await audit(`${OURS}:fw:v1:`); // fixed-window keys only; sub-second ones among them

    console.log(`Redis: ${handle.source} ${handle.url}; median of ${ROUNDS} interleaved ${CELL_MS} ms cells after a ${WARMUP_MS} ms warm-up; one ioredis client.\n`);
    console.log(`| workload | in flight | implementation | ops/s | ours / theirs | / floor |${baseline === undefined ? '' : ' / baseline |'}`);
    console.log(`| --- | ---: | --- | ---: | ---: | ---: |${baseline === undefined ? '' : ' ---: |'}`);
    for (const row of rows) console.log(row);
    console.log('\n| library | keys left | keys without TTL |');
    console.log('| --- | ---: | ---: |');
    console.log(`| ours (all algorithms, incl. a 500 ms fixed window) | ${fmt(ours.total)} | ${ours.noTtl} |`);
    console.log(`| rate-limiter-flexible (all workloads) | ${fmt(theirs.total)} | ${theirs.noTtl} |`);
    console.log(`| of which rate-limiter-flexible, duration: 0.5 s | ${theirsSub.total} | ${theirsSub.noTtl} |`);
    console.log(`| (ours, fixed-window keys incl. the 500 ms ones) | ${fmt(oursSub.total)} | ${oursSub.noTtl} |`);

    // leave nothing behind on a named REDIS_TEST_URL
    for (const prefix of [OURS, THEIRS, FLOOR, BASELINE]) await unlinkMatching(redis, `${prefix}*`);
  } finally {
    await redis.quit();
    await handle.stop();
  }
}

await main();
