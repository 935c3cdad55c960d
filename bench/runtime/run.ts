/**
 * The runtime benchmark of issue 30, every target in one run, every peer side by side
 * (interleaved rounds, medians, ratios), each target printed with its ratio and PASS / FAIL at the
 * end:
 *
 * - **server instructions per call** (callgrind, see server-cost.ts): each limiter script next to
 *   rate-limiter-flexible's script and the INCR + PEXPIRE floor, in five workloads (hot key, new
 *   keys, warm keys, 10,000 identities, at the limit). Targets: the fixed window <= 1.1x rate-limiter-flexible's, the
 *   other algorithms <= 1.6x. Deterministic (the same count on a loaded machine);
 * - **limiters** on one ioredis connection at 16, 64 and 256 calls in flight, on one hot key and
 *   on 10,000 identities: each algorithm next to rate-limiter-flexible's `RateLimiterRedis`
 *   ("rlf") and the floor, an EVALSHA of the smallest TTL-safe counter (`INCR`, and `PEXPIRE`
 *   when it created the key; printed, not judged). Targets: >= 1.0x rlf in every cell, the
 *   sliding-window log >= 0.8x;
 * - **cache hit** (`createCache().getOrLoad` on a stored entry) next to a plain `GET` of the same
 *   value and to `GET` + `JSON.parse` (what a user writes for a JSON cache), on one hot key and
 *   on 10,000 keys. Target: >= 0.95x `GET` + `JSON.parse`;
 * - **memory store** (every algorithm on `createMemoryStore()`) next to rlf's `RateLimiterMemory`.
 *   Target: >= 0.5x for every algorithm but the sliding-window log, which is reported against the
 *   memory store's own fixed window;
 * - **autopipelining**: the limiters, rlf and the floor on an ioredis connection with
 *   `enableAutoPipelining` next to the same on a plain one (reported);
 * - **client CPU per call** (`client-cpu`): this process' CPU per `take()` of each algorithm next
 *   to rlf's `consume()`, and per cache hit next to `GET` and `GET` + `JSON.parse`, on the same
 *   connection in interleaved rounds (reported: where Node is the busier side, one connection at
 *   16 in flight, this is what sets the throughput, and it hardly moves with the machine's load);
 * - then the keys left without TTL by each library, including a sub-second window.
 *
 *   npm run bench:runtime                              (builds, starts a redis-server or uses REDIS_TEST_URL)
 *   node --import tsx bench/runtime/run.ts             (the runtime as last built: runtime/dist, or BENCH_OURS=<index.js>)
 *   BENCH_MS=500 BENCH_ROUNDS=7 npm run bench:runtime  (longer cells, more rounds: a quiet run)
 *   BENCH_BASELINE=/path/to/runtime/dist/index.js node --import tsx bench/runtime/run.ts
 *     (also another build of the runtime, e.g. the one before a change, in the same cells: its
 *     rows are labelled "baseline", and "/ baseline" is ours as a ratio of it;
 *     BENCH_CLIENT_ONLY=1 stops after the client-side cost)
 *   BENCH_ONLY=instructions,client-cpu,limiters,cache,memory,autopipelining   (a subset of the sections)
 *   BENCH_ONLY=client-cpu BENCH_BASELINE=<a built runtime>   (the client CPU per call alone, with a build before a change)
 *   BENCH_AUTOPIPELINING=1             (every section's shared ioredis connection with enableAutoPipelining)
 *
 * Each implementation of a cell is warmed up for 200 ms, then all of them are measured in turn,
 * BENCH_ROUNDS times (default 5) for BENCH_MS each (default 300 ms), and the median is reported:
 * interleaving keeps a noisy machine from favouring whoever ran first. The load average is printed
 * with each section: the throughput targets are judged on a quiet machine only.
 *
 * Also, the client-side cost of one `take()` without Redis (with BENCH_BASELINE): a stand-in
 * ioredis client whose scripts resolve at once, CPU time per call (process.cpuUsage, so a busy
 * machine that deschedules the process does not count), ours and the baseline interleaved over 7
 * rounds; and the same for a cache hit, next to a stand-in GET and GET + JSON.parse.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type * as Runtime from '../../runtime/index.js';
import type { Limiter, LimiterOptions } from '../../runtime/index.js';
import { scanWithPttl } from '../../tests/helpers/redis.js';
import { startRedis, unlinkMatching } from '../../tests/helpers/redis-server.js';
import { FLOOR_LUA, LIMITER_SCRIPTS, measureServerCost, printServerCost, variantsOf } from './server-cost.js';
import { judge, loadNow, noteLoad, printVerdicts, report } from './verdicts.js';

const CELL_MS = Number(process.env.BENCH_MS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_MS = 200;
const IN_FLIGHT = (process.env.BENCH_IN_FLIGHT ?? '16,64,256').split(',').map(Number);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'instructions,client-cpu,limiters,cache,memory,autopipelining').split(','));
const tag = randomBytes(4).toString('hex');
const OURS = `benchours${tag}`;
const THEIRS = `benchrlf${tag}`;
const FLOOR = `benchfloor${tag}`;
const BASELINE = `benchbase${tag}`;
const PLAIN = `benchget${tag}`;
type Runtime = typeof Runtime;
// the built runtime (what users run: tsx's transform of the sources adds a helper call per closure)
const runtime = (await import(pathToFileURL(process.env.BENCH_OURS ?? new URL('../../runtime/dist/index.js', import.meta.url).pathname).href)) as Runtime;
const baseline = process.env.BENCH_BASELINE ? ((await import(pathToFileURL(process.env.BENCH_BASELINE).href)) as Runtime) : undefined;


type Call = (i: number) => Promise<unknown>;
interface Impl {
  label: string;
  call: Call;
}

/** CPU seconds the redis-server has used (main thread and background threads), from INFO cpu. */
async function serverCpu(server: Redis | undefined): Promise<number> {
  if (server === undefined) return 0;
  const info = await server.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

interface Sample {
  /** calls per second */
  ops: number;
  /** CPU µs per call, this process and the redis-server together */
  cpu: number;
  /** CPU µs per call of this process alone */
  client: number;
}

/** Calls per second of `call`, `inFlight` at a time, for `ms`, and the CPU it took per call. */
async function measure(call: Call, inFlight: number, ms: number, server?: Redis): Promise<Sample> {
  let i = 0;
  let done = 0;
  const serverBefore = await serverCpu(server);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const until = started + ms;
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      await call(i++);
      done += 1;
    }
  };
  const workers: Promise<void>[] = [];
  for (let w = 0; w < inFlight; w += 1) workers.push(worker());
  await Promise.all(workers);
  const elapsed = (performance.now() - started) / 1000;
  const client = process.cpuUsage(cpuBefore);
  const serverUs = ((await serverCpu(server)) - serverBefore) * 1e6;
  const clientUs = client.user + client.system;
  return { ops: done / elapsed, cpu: (clientUs + serverUs) / done, client: clientUs / done };
}

function median(list: readonly number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The samples of each implementation over the rounds of one cell. */
type Cell = Map<string, Sample[]>;

/** `ROUNDS` interleaved rounds of every implementation (each warmed up first). */
async function cell(impls: readonly Impl[], inFlight: number, server?: Redis): Promise<Cell> {
  const samples: Cell = new Map(impls.map((impl) => [impl.label, []]));
  for (const impl of impls) await measure(impl.call, inFlight, WARMUP_MS);
  for (let round = 0; round < ROUNDS; round += 1) {
    // a different first implementation each round: none is always measured right after the warm-up
    for (let k = 0; k < impls.length; k += 1) {
      const impl = impls[(k + round) % impls.length]!;
      samples.get(impl.label)!.push(await measure(impl.call, inFlight, CELL_MS, server));
    }
  }
  return samples;
}

/** Median calls per second of `label`. */
function opsOf(c: Cell, label: string): number {
  return median(c.get(label)!.map((s) => s.ops));
}

/** Throughput of `a` over `b`: the median over the rounds of their ratio within a round. */
function speedRatio(c: Cell, a: string, b: string): number {
  const as = c.get(a)!;
  const bs = c.get(b)!;
  return median(as.map((s, round) => s.ops / bs[round]!.ops));
}

/** CPU per call of `b` over `a` (client and server together): above 1, `a` costs less. */
function costRatio(c: Cell, a: string, b: string): number {
  return median(c.get(b)!.map((s) => s.cpu)) / median(c.get(a)!.map((s) => s.cpu));
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function ratio(a: number, b: number): string {
  return b > 0 ? (a / b).toFixed(2) : '-';
}

/**
 * A stand-in for an ioredis client: `evalsha`, `eval` and the scripts `defineCommand` defines
 * resolve at once with `reply` (default: a GCRA admission as this runtime's script answers it).
 */
function instantClient(reply: unknown = 1): object {
  const client: Record<string, unknown> = {
    defineCommand(name: string) {
      client[name] = () => Promise.resolve(reply);
    },
    evalsha: () => Promise.resolve(reply),
    eval: () => Promise.resolve(reply),
  };
  return client;
}

/**
 * Whether `rt` keeps key format 2 or later (`gcra2` or `gcra3` in its keys), whose limiter scripts answer an admission
 * with an integer: the stand-in clients answer 1, which a runtime before it can not read.
 */
function answersIntegers(rt: Runtime): boolean {
  const probe = rt.createLimiter(instantClient() as never, { algorithm: 'gcra', limit: 1, periodMs: 1000, onRedisError: 'fail-closed' });
  return /:gcra[23]:/.test(probe.keyFor('x'));
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

/**
 * The client-side CPU of one `take()` of each algorithm without Redis: stand-in clients whose
 * scripts resolve at once (an admission as each runtime's script answers it; rlf's
 * `RateLimiterRedis` gets its script's `[consumed, pttl]`), so that what is left is the
 * limiter's own work (keys, arguments, deadline, promises, decoding), not the client library's
 * nor the kernel's. Ours next to rlf (and the baseline), interleaved over 7 rounds of 100,000 calls.
 */
async function clientSideCost(): Promise<void> {
  const algorithms = workloads[0]!.ours.map((o) => o.algorithm);
  const CALLS = 100_000;
  if (baseline !== undefined && !answersIntegers(baseline)) throw new Error('BENCH_BASELINE: the client-side cost needs a runtime of key format 2 (its scripts answer integers)');
  console.log(
    `Client-side CPU per call without Redis (stand-in clients that answer at once), median of 7 interleaved rounds of ${fmt(CALLS)} calls: rlf µs, and each algorithm as µs / ours over rlf${baseline === undefined ? '' : ' (ours / baseline)'}, the median of the per-round ratios:\n`,
  );
  console.log(`| identities | in flight | rlf µs | ${algorithms.join(' | ')} |`);
  console.log(`| --- | ---: | ---: | ${algorithms.map(() => '---:').join(' | ')} |`);
  for (const w of workloads) {
    for (const inFlight of [1, 16]) {
      const rlf = new RateLimiterRedis({ storeClient: instantClient([1, 60_000]) as never, keyPrefix: THEIRS, ...w.theirs });
      const impls: Impl[] = [{ label: 'rlf', call: (i) => rlf.consume(w.identity(i)).catch((rejection: unknown) => rejection) }];
      for (const options of w.ours) {
        const ours = runtime.createLimiter(instantClient(1) as never, options);
        impls.push({ label: options.algorithm, call: (i) => ours.take(w.identity(i)) });
        if (baseline !== undefined) {
          const base = baseline.createLimiter(instantClient(1) as never, options);
          impls.push({ label: `baseline ${options.algorithm}`, call: (i) => base.take(w.identity(i)) });
        }
      }
      const times = new Map<string, number[]>(impls.map((impl) => [impl.label, []]));
      for (let round = 0; round < 8; round += 1) {
        for (let k = 0; k < impls.length; k += 1) {
          const impl = impls[(k + round) % impls.length]!;
          const us = await cpuPerCall(impl.call, CALLS, inFlight);
          if (round > 0) times.get(impl.label)!.push(us); // round 0 warms up
        }
      }
      const cells = algorithms.map((a) => {
        const base = baseline === undefined ? '' : ` (${cpuRatio(times, a, `baseline ${a}`).toFixed(2)})`;
        return `${median(times.get(a)!).toFixed(2)} / ${cpuRatio(times, a, 'rlf').toFixed(2)}${base}`;
      });
      console.log(`| ${w.name} | ${inFlight} | ${median(times.get('rlf')!).toFixed(2)} | ${cells.join(' | ')} |`);
    }
  }
  console.log('');
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
    name: 'hot key',
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
    name: '10,000 identities',
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

/** The throughput target of `algorithm` against rate-limiter-flexible: 1.0x, the sliding-window log (a list element per call) 0.8x. */
function rlfTarget(algorithm: string): number {
  return algorithm === 'sliding-window-log' ? 0.8 : 1.0;
}

async function limiters(redis: Redis): Promise<void> {
  const started = loadNow();
  const floorSha = (await redis.script('LOAD', FLOOR_LUA)) as string;
  const rows: string[] = [];
  const costRows: string[] = [];
  const splitRows: string[] = [];
  const worst = { rlf: Infinity, floor: Infinity };
  for (const w of workloads) {
    for (const inFlight of IN_FLIGHT) {
      const rlf = new RateLimiterRedis({ storeClient: redis, keyPrefix: THEIRS, ...w.theirs });
      const impls: Impl[] = [
        { label: 'floor', call: (i) => redis.evalsha(floorSha, 1, `${FLOOR}:${w.identity(i)}`, '60000') },
        // a rejection is rate-limiter-flexible's way of answering "denied"
        { label: 'rlf', call: (i) => rlf.consume(w.identity(i)).catch((rejection: unknown) => rejection) },
      ];
      for (const options of w.ours) {
        const limiter: Limiter = runtime.createLimiter(redis, { ...options, namespace: OURS });
        impls.push({ label: options.algorithm, call: (i) => limiter.take(w.identity(i)) });
        if (baseline !== undefined) {
          const base = baseline.createLimiter(redis, { ...options, namespace: BASELINE });
          impls.push({ label: `baseline ${options.algorithm}`, call: (i) => base.take(w.identity(i)) });
        }
      }
      const m = await cell(impls, inFlight, redis);
      const cells = w.ours.map((options) => {
        const a = options.algorithm;
        const vsRlf = speedRatio(m, a, 'rlf');
        const vsFloor = speedRatio(m, a, 'floor');
        judge(`limiters, ${w.name}, ${inFlight} in flight`, `${a} / rlf`, vsRlf, '>=', rlfTarget(a));
        worst.rlf = Math.min(worst.rlf, vsRlf);
        worst.floor = Math.min(worst.floor, vsFloor);
        const base = baseline === undefined ? '' : ` (${speedRatio(m, a, `baseline ${a}`).toFixed(2)})`;
        return `${vsRlf.toFixed(2)} / ${vsFloor.toFixed(2)}${base}`;
      });
      const costs = w.ours.map((options) => `${costRatio(m, options.algorithm, 'rlf').toFixed(2)} / ${costRatio(m, options.algorithm, 'floor').toFixed(2)}`);
      report(`limiters, ${w.name}, ${inFlight} in flight`, 'rlf / floor (not judged)', speedRatio(m, 'rlf', 'floor'));
      rows.push(`| ${w.name} | ${inFlight} | ${fmt(opsOf(m, 'floor'))} | ${fmt(opsOf(m, 'rlf'))} | ${cells.join(' | ')} |`);
      costRows.push(`| ${w.name} | ${inFlight} | ${costs.join(' | ')} |`);
      const split = (label: string) => {
        const client = median(m.get(label)!.map((s) => s.client));
        return `${client.toFixed(1)} / ${(median(m.get(label)!.map((s) => s.cpu)) - client).toFixed(1)}`;
      };
      splitRows.push(`| ${w.name} | ${inFlight} | ${['floor', 'rlf', ...w.ours.map((o) => o.algorithm)].map(split).join(' | ')} |`);
      process.stderr.write(`done: limiters, ${w.name}, ${inFlight} in flight\n`);
    }
  }
  const algorithms = workloads[0]!.ours.map((o) => o.algorithm);
  console.log(
    `Limiters, one ioredis connection: median ops/s of the floor and of rlf; each algorithm's throughput as ours / rlf and ours / floor${baseline === undefined ? '' : ' (ours / baseline)'}, each the median of the per-round ratios.\n`,
  );
  console.log(`| workload | in flight | floor ops/s | rlf ops/s | ${algorithms.join(' | ')} |`);
  console.log(`| --- | ---: | ---: | ---: | ${algorithms.map(() => '---:').join(' | ')} |`);
  for (const row of rows) console.log(row);
  console.log('\nCPU per call, this process and the redis-server together: rlf / ours and floor / ours (above 1: ours costs less).\n');
  console.log(`| workload | in flight | ${algorithms.join(' | ')} |`);
  console.log(`| --- | ---: | ${algorithms.map(() => '---:').join(' | ')} |`);
  for (const row of costRows) console.log(row);
  console.log(
    '\nCPU µs per call, this process / the redis-server (user + system time, medians): the side near 1,000,000 / ops/s µs is the one that sets the throughput.\n',
  );
  console.log(`| workload | in flight | floor | rlf | ${algorithms.join(' | ')} |`);
  console.log(`| --- | ---: | ---: | ---: | ${algorithms.map(() => '---:').join(' | ')} |`);
  for (const row of splitRows) console.log(row);
  console.log(`\nLowest ratio over every cell: ${worst.rlf.toFixed(2)}× rlf, ${worst.floor.toFixed(2)}× the floor (load average at the start ${started}, at the end ${loadNow()}).\n`);
  noteLoad('limiters', started);
}

/** The 123-byte JSON value the cache cells read. */
const CACHED = { id: 42, name: 'Ada Lovelace', email: 'ada@example.com', roles: ['admin', 'editor'], createdAt: '2026-01-01T00:00:00.000Z' };

/**
 * What a user writes for a JSON cache without this runtime: `GET`, then `JSON.parse` of the text
 * (`undefined` for a missing key), in an async function.
 */
async function getJson(client: { get(key: string): Promise<string | null> }, key: string): Promise<unknown> {
  const text = await client.get(key);
  return text === null ? undefined : JSON.parse(text);
}

/**
 * The client-side CPU of a cache hit without Redis: a stand-in ioredis client whose `GET`
 * resolves at once with a stored entry (ours and the baseline) or with the bare JSON text (a
 * plain GET, and GET + JSON.parse), 7 interleaved rounds of 100,000 calls after one of warm-up.
 */
async function cacheClientSideCost(): Promise<void> {
  const text = JSON.stringify(CACHED);
  const entry = `RT1:${Date.now() + 3_600_000}:3:v:${text}`;
  const standIn = (reply: string): object => ({ ...instantClient(), get: () => Promise.resolve(reply) });
  const options = { namespace: OURS, ttlMs: 3_600_000 };
  const loader = async () => CACHED;
  const plain = standIn(text) as { get(key: string): Promise<string> };
  console.log('Client-side CPU per cache hit without Redis (a stand-in client whose GET answers at once), median of 7 interleaved rounds of 100,000 calls:\n');
  console.log(`| keys | in flight | GET µs | GET + JSON.parse µs | getOrLoad hit µs |${baseline === undefined ? '' : ' baseline µs |'} hit / GET + JSON.parse |`);
  console.log(`| --- | ---: | ---: | ---: | ---: |${baseline === undefined ? '' : ' ---: |'} ---: |`);
  for (const [label, keyOf] of [
    ['hot key', () => 'k0'],
    ['10,000 keys', (i: number) => `k${i % 10_000}`],
  ] as const) {
    for (const inFlight of [1, 64]) {
      const ours = runtime.createCache<typeof CACHED>(standIn(entry) as never, options);
      const base = baseline?.createCache<typeof CACHED>(standIn(entry) as never, options);
      const calls: [string, (i: number) => Promise<unknown>][] = [
        ['get', (i) => plain.get(keyOf(i))],
        ['json', (i) => getJson(plain, keyOf(i))],
        ['ours', (i) => ours.getOrLoad(keyOf(i), loader)],
      ];
      if (base !== undefined) calls.push(['baseline', (i) => base.getOrLoad(keyOf(i), loader)]);
      const times = new Map<string, number[]>(calls.map(([name]) => [name, []]));
      for (let round = 0; round < 8; round += 1) {
        for (let k = 0; k < calls.length; k += 1) {
          const [name, call] = calls[(k + round) % calls.length]!;
          const us = await cpuPerCall(call, 100_000, inFlight);
          if (round > 0) times.get(name)!.push(us); // round 0 warms up
        }
      }
      const m = (name: string) => median(times.get(name)!);
      const baseCell = base === undefined ? '' : ` ${m('baseline').toFixed(2)} |`;
      console.log(`| ${label} | ${inFlight} | ${m('get').toFixed(2)} | ${m('json').toFixed(2)} | ${m('ours').toFixed(2)} |${baseCell} ${ratio(m('ours'), m('json'))} |`);
    }
  }
  console.log('');
}

/** Calls per round of each implementation in the client-cpu section. */
const CPU_CALLS = Number(process.env.BENCH_CPU_CALLS ?? 20_000);

/**
 * `rounds` interleaved rounds of `CPU_CALLS` calls of every implementation, `inFlight` at a time
 * (one warm-up round first): this process' CPU µs per call (process.cpuUsage: user + system, so
 * a busy machine that deschedules the process does not count), per round.
 */
async function cpuRounds(impls: readonly Impl[], inFlight: number, rounds: number): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(impls.map((impl) => [impl.label, []]));
  for (let round = 0; round <= rounds; round += 1) {
    for (let k = 0; k < impls.length; k += 1) {
      const impl = impls[(k + round) % impls.length]!;
      const us = await cpuPerCall(impl.call, CPU_CALLS, inFlight);
      if (round > 0) times.get(impl.label)!.push(us); // round 0 warms up
    }
  }
  return times;
}

/** The median over the rounds of `a`'s CPU per call over `b`'s in the same round (below 1: `a` costs less). */
function cpuRatio(times: Map<string, number[]>, a: string, b: string): number {
  const bs = times.get(b)!;
  return median(times.get(a)!.map((us, round) => us / bs[round]!));
}

/** Keys of the cache cells ("10,000 keys"; "hot key" reads the first). */
const CACHE_KEYS = 10_000;
/** The cache cells: a name, and the number of the key call `i` reads. */
const CACHE_WORKLOADS = [
  ['hot key', () => 0],
  ['10,000 keys', (i: number) => i % CACHE_KEYS],
] as const;

/**
 * The caches the cache cells read on `redis` (ours, and the baseline's), each holding `k0`,
 * `k1`... (`CACHE_KEYS` entries of {@link CACHED}, early recomputation on), and the same JSON text
 * under `PLAIN:0`, `PLAIN:1`... for a plain `GET`. `cells(keyOf)`: the implementations of a cell
 * whose call `i` reads key number `keyOf(i)` (get, json, ours, baseline).
 */
async function cacheCells(redis: Redis): Promise<{ text: string; ours: Runtime.Cache<typeof CACHED>; cells: (keyOf: (i: number) => number) => Impl[] }> {
  const text = JSON.stringify(CACHED);
  const options = { ttlMs: 3_600_000, earlyRecompute: true };
  const ours = runtime.createCache<typeof CACHED>(redis, { ...options, namespace: OURS });
  const base = baseline?.createCache<typeof CACHED>(redis, { ...options, namespace: BASELINE });
  const loader = async () => CACHED;
  const pipeline = redis.pipeline();
  for (let k = 0; k < CACHE_KEYS; k += 1) pipeline.set(`${PLAIN}:${k}`, text, 'PX', 3_600_000);
  await pipeline.exec();
  for (let k = 0; k < CACHE_KEYS; k += 1) {
    await ours.getOrLoad(`k${k}`, loader);
    await base?.getOrLoad(`k${k}`, loader);
  }
  const cells = (keyOf: (i: number) => number): Impl[] => {
    const impls: Impl[] = [
      { label: 'get', call: (i) => redis.get(`${PLAIN}:${keyOf(i)}`) },
      { label: 'json', call: (i) => getJson(redis, `${PLAIN}:${keyOf(i)}`) },
      { label: 'ours', call: (i) => ours.getOrLoad(`k${keyOf(i)}`, loader) },
    ];
    if (base !== undefined) impls.push({ label: 'baseline', call: (i) => base.getOrLoad(`k${keyOf(i)}`, loader) });
    return impls;
  };
  return { text, ours, cells };
}

/**
 * Client CPU per call (`BENCH_ONLY=client-cpu`): what this process spends per `take()` of each
 * algorithm next to rate-limiter-flexible's `consume()`, and per cache hit next to `GET` and
 * `GET + JSON.parse`, on one ioredis connection to a real redis-server, in the same process,
 * interleaved rounds. Where Node is the busier side (one connection, 16 in flight) this is what
 * sets the throughput, and unlike ops/s it hardly moves with the load of a shared machine.
 */
async function clientCpu(redis: Redis): Promise<void> {
  const started = loadNow();
  const rounds = ROUNDS;
  const algorithms = workloads[0]!.ours.map((o) => o.algorithm);
  const rows: string[] = [];
  for (const w of workloads) {
    for (const inFlight of IN_FLIGHT) {
      const rlf = new RateLimiterRedis({ storeClient: redis, keyPrefix: THEIRS, ...w.theirs });
      const impls: Impl[] = [{ label: 'rlf', call: (i) => rlf.consume(w.identity(i)).catch((rejection: unknown) => rejection) }];
      for (const options of w.ours) {
        const limiter = runtime.createLimiter(redis, { ...options, namespace: OURS });
        impls.push({ label: options.algorithm, call: (i) => limiter.take(w.identity(i)) });
        if (baseline !== undefined) {
          const base = baseline.createLimiter(redis, { ...options, namespace: BASELINE });
          impls.push({ label: `baseline ${options.algorithm}`, call: (i) => base.take(w.identity(i)) });
        }
      }
      const times = await cpuRounds(impls, inFlight, rounds);
      const cells = algorithms.map((a) => {
        const vsRlf = cpuRatio(times, a, 'rlf');
        report(`client CPU per call, ${w.name}, ${inFlight} in flight`, `${a} / rlf (below 1: ours costs less)`, vsRlf);
        const base = baseline === undefined ? '' : ` (${cpuRatio(times, a, `baseline ${a}`).toFixed(2)})`;
        return `${median(times.get(a)!).toFixed(2)} / ${vsRlf.toFixed(2)}${base}`;
      });
      rows.push(`| ${w.name} | ${inFlight} | ${median(times.get('rlf')!).toFixed(2)} | ${cells.join(' | ')} |`);
      process.stderr.write(`done: client CPU, ${w.name}, ${inFlight} in flight\n`);
    }
  }
  console.log(
    `Client CPU per call (this process, one ioredis connection to the redis-server; median of ${rounds} interleaved rounds of ${fmt(CPU_CALLS)} calls): rlf µs, and each algorithm as µs / ours over rlf${baseline === undefined ? '' : ' (ours / baseline)'}, the median of the per-round ratios (below 1: ours costs less).\n`,
  );
  console.log(`| workload | in flight | rlf µs | ${algorithms.join(' | ')} |`);
  console.log(`| --- | ---: | ---: | ${algorithms.map(() => '---:').join(' | ')} |`);
  for (const row of rows) console.log(row);

  // cache hits on the same connection
  const { text, cells: cacheImpls } = await cacheCells(redis);
  const cacheRows: string[] = [];
  for (const [name, keyOf] of CACHE_WORKLOADS) {
    for (const inFlight of IN_FLIGHT) {
      const times = await cpuRounds(cacheImpls(keyOf), inFlight, rounds);
      const vsJson = cpuRatio(times, 'ours', 'json');
      report(`client CPU per call, cache hit, ${name}, ${inFlight} in flight`, 'getOrLoad / GET + JSON.parse (below 1: ours costs less)', vsJson);
      const m = (label: string) => median(times.get(label)!).toFixed(2);
      const vsBase = baseline === undefined ? '' : ` ${m('baseline')} | ${cpuRatio(times, 'ours', 'baseline').toFixed(2)} |`;
      cacheRows.push(`| ${name} | ${inFlight} | ${m('get')} | ${m('json')} | ${m('ours')} | ${cpuRatio(times, 'ours', 'get').toFixed(2)} | ${vsJson.toFixed(2)} |${vsBase}`);
      process.stderr.write(`done: client CPU, cache, ${name}, ${inFlight} in flight\n`);
    }
  }
  console.log(`\nClient CPU per cache hit (a ${text.length}-byte JSON value, same connection and rounds), µs, and ours as a ratio of each:\n`);
  console.log(`| keys | in flight | GET | GET + JSON.parse | getOrLoad hit | ours / GET | ours / GET + JSON.parse |${baseline === undefined ? '' : ' baseline | ours / baseline |'}`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: |${baseline === undefined ? '' : ' ---: | ---: |'}`);
  for (const row of cacheRows) console.log(row);
  console.log(`\n(load average at the start ${started}, at the end ${loadNow()})\n`);
  noteLoad('client CPU per call', started);
}

async function cacheHits(redis: Redis): Promise<void> {
  const started = loadNow();
  const { text, ours, cells } = await cacheCells(redis);
  const rows: string[] = [];
  let worst = { get: Infinity, json: Infinity };
  let best = { get: 0, json: 0 };
  for (const [name, keyOf] of CACHE_WORKLOADS) {
    for (const inFlight of IN_FLIGHT) {
      const m = await cell(cells(keyOf), inFlight, redis);
      const vsGet = speedRatio(m, 'ours', 'get');
      const vsJson = speedRatio(m, 'ours', 'json');
      judge(`cache hit, ${name}, ${inFlight} in flight`, 'getOrLoad / GET + JSON.parse', vsJson, '>=', 0.95);
      worst = { get: Math.min(worst.get, vsGet), json: Math.min(worst.json, vsJson) };
      best = { get: Math.max(best.get, vsGet), json: Math.max(best.json, vsJson) };
      const vsBase = baseline === undefined ? '' : ` ${speedRatio(m, 'baseline', 'get').toFixed(2)} | ${speedRatio(m, 'ours', 'baseline').toFixed(2)} |`;
      rows.push(
        `| ${name} | ${inFlight} | ${fmt(opsOf(m, 'get'))} | ${fmt(opsOf(m, 'json'))} | ${fmt(opsOf(m, 'ours'))} | ${vsGet.toFixed(2)} | ${vsJson.toFixed(2)} | ${costRatio(m, 'ours', 'get').toFixed(2)} |${vsBase}`,
      );
      process.stderr.write(`done: cache, ${name}, ${inFlight} in flight\n`);
    }
  }
  const loads = ours.stats().loads;
  console.log(
    `Cache hits (a ${text.length}-byte JSON value), one ioredis connection; ours loaded ${loads} times storing the 10,000 entries (0 when the client-cpu section stored them first; early recomputation on). ` +
      'GET: the bare command; GET + JSON.parse: what a user writes for a JSON cache (an async function, `JSON.parse` of the text):\n',
  );
  console.log(
    `| keys | in flight | GET ops/s | GET + JSON.parse ops/s | getOrLoad hit ops/s | ours / GET | ours / GET + JSON.parse | CPU per call: GET / ours |${baseline === undefined ? '' : ' baseline / GET | ours / baseline |'}`,
  );
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |${baseline === undefined ? '' : ' ---: | ---: |'}`);
  for (const row of rows) console.log(row);
  console.log(
    `\nCache hit: ${worst.get.toFixed(2)}-${best.get.toFixed(2)}x a plain GET, ${worst.json.toFixed(2)}-${best.json.toFixed(2)}x GET + JSON.parse (load average at the start ${started}, at the end ${loadNow()}).\n`,
  );
  noteLoad('cache', started);
}

async function memoryStores(): Promise<void> {
  const started = loadNow();
  const rows: string[] = [];
  for (const w of workloads) {
    const store = runtime.createMemoryStore({ maxKeys: 100_000 });
    const baseStore = baseline?.createMemoryStore({ maxKeys: 100_000 });
    const rlf = new RateLimiterMemory({ keyPrefix: THEIRS, ...w.theirs });
    const impls: Impl[] = [{ label: 'rlf', call: (i) => rlf.consume(w.identity(i)).catch((rejection: unknown) => rejection) }];
    for (const options of w.ours) {
      const limiter = runtime.createLimiter(store, { ...options, namespace: OURS });
      impls.push({ label: options.algorithm, call: (i) => limiter.take(w.identity(i)) });
      if (baseline !== undefined && baseStore !== undefined) {
        const b = baseline.createLimiter(baseStore, { ...options, namespace: BASELINE });
        impls.push({ label: `baseline ${options.algorithm}`, call: (i) => b.take(w.identity(i)) });
      }
    }
    const m = await cell(impls, 16);
    const theirs = opsOf(m, 'rlf');
    const cells = w.ours.map((options) => {
      const a = options.algorithm;
      const vsRlf = speedRatio(m, a, 'rlf');
      if (a === 'sliding-window-log') {
        // a list element per call against a counter: reported against the store's own fixed window
        report(`memory store, ${w.name}`, 'sliding-window-log / memory store fixed-window', speedRatio(m, a, 'fixed-window'));
        report(`memory store, ${w.name}`, 'sliding-window-log / RateLimiterMemory (not judged)', vsRlf);
      } else {
        judge(`memory store, ${w.name}`, `${a} / RateLimiterMemory`, vsRlf, '>=', 0.5);
      }
      return `${vsRlf.toFixed(2)}${baseline === undefined ? '' : ` (${speedRatio(m, a, `baseline ${a}`).toFixed(2)})`}`;
    });
    rows.push(`| ${w.name} | ${fmt(theirs)} | ${cells.join(' | ')} | ${speedRatio(m, 'sliding-window-log', 'fixed-window').toFixed(2)} |`);
    store.close();
    baseStore?.close();
    process.stderr.write(`done: memory store, ${w.name}\n`);
  }
  console.log(
    `Memory store, 16 calls in flight: ops/s of rlf's RateLimiterMemory, each algorithm as ours / rlf${baseline === undefined ? '' : ' (ours / baseline)'}, and the log as a ratio of the store's fixed window.\n`,
  );
  console.log(`| workload | RateLimiterMemory ops/s | ${workloads[0]!.ours.map((o) => o.algorithm).join(' | ')} | log / fixed window |`);
  console.log(`| --- | ---: | ${workloads[0]!.ours.map(() => '---:').join(' | ')} | ---: |`);
  for (const row of rows) console.log(row);
  console.log(`\n(load average at the start ${started}, at the end ${loadNow()})\n`);
  noteLoad('memory store', started);
}

/**
 * Server instructions per call (callgrind, a redis-server of its own): each limiter script next to
 * rate-limiter-flexible's, judged (the fixed window <= 1.1x, the others <= 1.6x) in every workload.
 */
async function instructions(): Promise<void> {
  const started = loadNow();
  const m = await measureServerCost({
    metric: 'instructions',
    calls: Number(process.env.BENCH_CALLS ?? 2_000),
    rounds: 1,
    variants: variantsOf(process.env.BENCH_BASELINE_REF),
  });
  printServerCost(m);
  for (const w of m.workloads) {
    const rlf = m.cost('rate-limiter-flexible', w.label);
    report(`server instructions per call, ${w.label}`, 'floor / rlf (not judged)', m.cost('floor: INCR + PEXPIRE', w.label) / rlf);
    for (const script of LIMITER_SCRIPTS) {
      judge(`server instructions per call, ${w.label}`, `${script} / rlf`, m.cost(script, w.label) / rlf, '<=', script === 'fixed_window' ? 1.1 : 1.6);
    }
  }
  noteLoad('server instructions (deterministic: the load does not matter)', started);
}

/**
 * ioredis' `enableAutoPipelining` (https://github.com/redis/ioredis#autopipelining) both ways: each
 * limiter, rlf and the floor on a connection with it, next to the same on a plain connection, in
 * the same interleaved rounds; reported as with / without.
 */
async function autopipelining(url: string): Promise<void> {
  const started = loadNow();
  const plain = new Redis(url);
  const batched = new Redis(url, { enableAutoPipelining: true });
  try {
    const floorSha = (await plain.script('LOAD', FLOOR_LUA)) as string;
    const rows: string[] = [];
    const labels = ['floor', 'rlf', ...workloads[0]!.ours.map((o) => o.algorithm)];
    for (const w of workloads) {
      for (const inFlight of IN_FLIGHT) {
        const impls: Impl[] = [];
        for (const [connection, suffix] of [
          [plain, ''],
          [batched, ' (autopipelining)'],
        ] as const) {
          const rlf = new RateLimiterRedis({ storeClient: connection, keyPrefix: THEIRS, ...w.theirs });
          impls.push({ label: `floor${suffix}`, call: (i) => connection.evalsha(floorSha, 1, `${FLOOR}:${w.identity(i)}`, '60000') });
          impls.push({ label: `rlf${suffix}`, call: (i) => rlf.consume(w.identity(i)).catch((rejection: unknown) => rejection) });
          for (const options of w.ours) {
            const limiter = runtime.createLimiter(connection, { ...options, namespace: OURS });
            impls.push({ label: `${options.algorithm}${suffix}`, call: (i) => limiter.take(w.identity(i)) });
          }
        }
        const m = await cell(impls, inFlight, plain);
        const cells = labels.map((label) => {
          const gain = speedRatio(m, `${label} (autopipelining)`, label);
          // CPU per call, this process and the redis-server together: less load-sensitive than ops/s
          const saving = costRatio(m, `${label} (autopipelining)`, label);
          report(`autopipelining, ${w.name}, ${inFlight} in flight`, `${label}: ops/s with / without`, gain);
          report(`autopipelining, ${w.name}, ${inFlight} in flight`, `${label}: CPU per call without / with`, saving);
          return `${gain.toFixed(2)} / ${saving.toFixed(2)}`;
        });
        rows.push(`| ${w.name} | ${inFlight} | ${fmt(opsOf(m, 'rlf'))} | ${fmt(opsOf(m, 'rlf (autopipelining)'))} | ${cells.join(' | ')} |`);
        process.stderr.write(`done: autopipelining, ${w.name}, ${inFlight} in flight\n`);
      }
    }
    console.log(
      'ioredis `enableAutoPipelining`, each peer on a connection with it and on one without, interleaved: ops/s with / without (median of the per-round ratios) / CPU per call (this process and the redis-server) without / with; above 1, autopipelining pays.\n',
    );
    console.log(`| workload | in flight | rlf ops/s | rlf ops/s, autopipelining | ${labels.join(' | ')} |`);
    console.log(`| --- | ---: | ---: | ---: | ${labels.map(() => '---:').join(' | ')} |`);
    for (const row of rows) console.log(row);
    console.log(`\n(load average at the start ${started}, at the end ${loadNow()})\n`);
    noteLoad('autopipelining', started);
  } finally {
    plain.disconnect();
    batched.disconnect();
  }
}

async function keysWithoutTtl(redis: Redis): Promise<void> {
  // Sub-second windows: 500 ms. rate-limiter-flexible takes seconds (duration: 0.5).
  const subSecondOurs = runtime.createLimiter(redis, {
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
    const pttls = [...(await scanWithPttl(redis, `${prefix}*`)).values()];
    return { total: pttls.length, noTtl: pttls.filter((pttl) => pttl === -1).length };
  };
  const ours = await audit(OURS);
  const theirs = await audit(THEIRS);
  const theirsSub = await audit(`${THEIRS}:subsecond`);
  console.log('| library | keys left | keys without TTL |');
  console.log('| --- | ---: | ---: |');
  console.log(`| ours (limiters, incl. a 500 ms fixed window, and cache) | ${fmt(ours.total)} | ${ours.noTtl} |`);
  console.log(`| rate-limiter-flexible (all workloads) | ${fmt(theirs.total)} | ${theirs.noTtl} |`);
  console.log(`| of which rate-limiter-flexible, duration: 0.5 s | ${theirsSub.total} | ${theirsSub.noTtl} |`);
}

async function main(): Promise<void> {
  const begun = performance.now();
  console.log(`# Runtime benchmark (issue 30 targets)\n\nnode ${process.version}; load average (1, 5, 15 min) at the start: ${loadNow()}.\n`);
  if (ONLY.has('instructions')) await instructions();
  if (ONLY.has('limiters') || ONLY.has('client-cpu')) await clientSideCost();
  if (ONLY.has('cache') || ONLY.has('client-cpu')) await cacheClientSideCost();
  if (process.env.BENCH_CLIENT_ONLY === '1') return;
  const handle = await startRedis();
  // every peer shares the one connection; BENCH_AUTOPIPELINING=1 turns on ioredis' batching of the
  // commands of one tick (https://github.com/redis/ioredis#autopipelining) for all of them
  const redis = new Redis(handle.url, { enableAutoPipelining: process.env.BENCH_AUTOPIPELINING === '1' });
  try {
    const version = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1];
    console.log(
      `Redis ${version} (${handle.source} ${handle.url}); median of ${ROUNDS} interleaved ${CELL_MS} ms cells after a ${WARMUP_MS} ms warm-up` +
        `${redis.options.enableAutoPipelining ? '; ioredis enableAutoPipelining on' : ''}.\n`,
    );
    if (ONLY.has('client-cpu')) await clientCpu(redis);
    if (ONLY.has('limiters')) await limiters(redis);
    if (ONLY.has('cache')) await cacheHits(redis);
    if (ONLY.has('memory')) await memoryStores();
    if (ONLY.has('autopipelining')) await autopipelining(handle.url);
    await keysWithoutTtl(redis);
    // leave nothing behind on a named REDIS_TEST_URL
    for (const prefix of [OURS, THEIRS, FLOOR, BASELINE, PLAIN]) await unlinkMatching(redis, `${prefix}*`);
  } finally {
    await redis.quit();
    await handle.stop();
  }
  console.log('');
  printVerdicts();
  console.log(`The whole run took ${Math.round((performance.now() - begun) / 1000)} s.`);
}

await main();
