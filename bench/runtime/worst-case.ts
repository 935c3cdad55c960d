/**
 * The longest any one call keeps Redis busy, at the documented maxima: every script run against
 * the worst state its arguments allow, timed by the server itself (SLOWLOG with a threshold of
 * 0 µs records each command's execution time, https://redis.io/docs/latest/commands/slowlog/),
 * plus the expiry of the largest key the runtime can build (its DEL), and the same calls on the
 * in-process memory store (event-loop time).
 *
 *   npm run bench:runtime-worst      (starts a redis-server of its own: it changes its slowlog settings)
 */
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { runnerFor } from '../../runtime/client.js';
import { createMemoryStore, SLIDING_LOG_MAX_CALLS_PER_WINDOW, SLIDING_LOG_MAX_LIMIT } from '../../runtime/index.js';
import { getScript, type ScriptName } from '../../runtime/scripts.js';
import { startOwnServer } from '../../tests/faults/servers.js';

const RUNS = Number(process.env.RUNS ?? 200);
const MAX = String(2 ** 53 - 1);
const T0 = 1_700_000_000_000;

interface Case {
  label: string;
  script: ScriptName;
  key: string;
  /** ARGV of each run (`i` counts runs). */
  args: (i: number) => string[];
  /** Builds the state before the runs (on Redis and on the memory store). */
  setup?: (run: (script: ScriptName, key: string, args: string[]) => Promise<unknown>) => Promise<void>;
}

/** A sliding-window log at its largest: 10,000 elements in the window (of 1,000,000 ms). */
async function fullLog(run: (script: ScriptName, key: string, args: string[]) => Promise<unknown>, key = 'swl'): Promise<void> {
  for (let i = 0; i < SLIDING_LOG_MAX_CALLS_PER_WINDOW; i += 1) await run('sliding_window_log', key, [String(SLIDING_LOG_MAX_LIMIT), '1000000', '1', String(T0 + i)]);
}
const FULL = T0 + SLIDING_LOG_MAX_CALLS_PER_WINDOW;
/** After the window: every element has left it; the first admission starts the list over. */
const LEFT = T0 + 2_000_000;
/** All but the newest element have left the window: the admission finds it by a binary search and removes 9,999. */
const ALL_BUT_ONE = T0 + 1_000_000 + SLIDING_LOG_MAX_CALLS_PER_WINDOW - 2;

const cases: Case[] = [
  { label: 'fixed_window, limit 2^53-1, cost 2^53-1', script: 'fixed_window', key: 'fw', args: () => [MAX, MAX, MAX] },
  {
    label: 'sliding_window_log, 10,000 elements in the window, admission (merged into the newest)',
    script: 'sliding_window_log',
    key: 'swl',
    setup: fullLog,
    args: (i) => [String(SLIDING_LOG_MAX_LIMIT), '1000000', '1', String(FULL + i)],
  },
  {
    label: 'sliding_window_log, 10,000 elements in the window, denial (binary search)',
    script: 'sliding_window_log',
    key: 'swl',
    args: () => [String(SLIDING_LOG_MAX_LIMIT), '1000000', String(SLIDING_LOG_MAX_LIMIT), String(FULL + RUNS)],
  },
  { label: 'sliding_window_log, cost 2^53-1 (never)', script: 'sliding_window_log', key: 'swl', args: () => [String(SLIDING_LOG_MAX_LIMIT), '1000000', MAX, String(FULL + RUNS)] },
  {
    label: 'sliding_window_log, 9,999 of 10,000 elements left the window, admission (binary search, LTRIM)',
    script: 'sliding_window_log',
    key: 'swl-trim',
    setup: (run) => fullLog(run, 'swl-trim'),
    args: (i) => [String(SLIDING_LOG_MAX_LIMIT), '1000000', '1', String(ALL_BUT_ONE + i)],
  },
  {
    label: 'sliding_window_log, 10,000 elements that left the window, admission (starts over)',
    script: 'sliding_window_log',
    key: 'swl',
    args: (i) => [String(SLIDING_LOG_MAX_LIMIT), '1000000', '1', String(LEFT + i)],
  },
  { label: 'sliding_window_counter, limit * windowMs = 2^52', script: 'sliding_window_counter', key: 'swc', args: (i) => [String(2 ** 26), String(2 ** 26), '1', String(T0 + i)] },
  { label: 'token_bucket, capacity 2^23 at 10^-6/s', script: 'token_bucket', key: 'tb', args: (i) => [String(2 ** 23), '1', '1000000000', '1', String(T0 + i)] },
  { label: 'gcra, burst * period = 2^52', script: 'gcra', key: 'gcra', args: (i) => [String(2 ** 22), String(2 ** 30), '1', '1', String(T0 + i)] },
  { label: 'leaky_bucket, capacity 2^23 at 10^9/s', script: 'leaky_bucket', key: 'lb', args: (i) => [String(2 ** 23), '1000000', '1', '1', String(T0 + i)] },
  { label: 'increment', script: 'increment', key: 'inc', args: () => ['1', '60000', 'fixed'] },
  { label: 'collect', script: 'collect', key: 'inc', args: () => [] },
  { label: 'set_keep_ttl', script: 'set_keep_ttl', key: 'inc', args: (i) => [String(i)] },
  { label: 'circuit_record (failure)', script: 'circuit_record', key: 'cb', args: (i) => ['1000000000', '1000000000000', '1000000000000', '1000000000', String(T0 + i), 'failure'] },
  { label: 'circuit_acquire', script: 'circuit_acquire', key: 'cb', args: (i) => ['1000000000', '1000000000000', '1000000000000', '1000000000', String(T0 + i)] },
  { label: 'circuit_read', script: 'circuit_read', key: 'cb', args: (i) => ['1000000000', '1000000000000', '1000000000000', '1000000000', String(T0 + i)] },
  { label: 'probe', script: 'probe', key: 'redis-ttl:probe:{0}', args: () => [] },
];

async function main(): Promise<void> {
  const server = await startOwnServer();
  const redis = new Redis(server.url);
  const runner = runnerFor(redis);
  const store = createMemoryStore({ maxKeys: 100 });
  const onRedis = (script: ScriptName, key: string, args: string[]) => runner.run(getScript(script), [key], args);
  const inMemory = async (script: ScriptName, key: string, args: string[]) => store.runScript(script, [key], args);
  try {
    await redis.config('SET', 'slowlog-max-len', String(RUNS + 10));
    console.log(`redis-server ${(await redis.info('server')).match(/redis_version:(\S+)/)?.[1]}; ${RUNS} runs per case; server time from SLOWLOG, memory store time from performance.now()\n`);
    console.log('| case | Redis: max µs | Redis: median µs | memory store: max µs | memory store: median µs |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const c of cases) {
      if (c.setup !== undefined) {
        await c.setup(onRedis);
        await c.setup(inMemory);
      }
      await redis.config('SET', 'slowlog-log-slower-than', '0');
      await redis.slowlog('RESET');
      const memory: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        await onRedis(c.script, c.key, c.args(i));
        const started = performance.now();
        if (c.script !== 'probe') store.runScript(c.script, [c.key], c.args(i));
        memory.push((performance.now() - started) * 1000);
      }
      memory.sort((a, b) => a - b);
      await redis.config('SET', 'slowlog-log-slower-than', '10000');
      const entries = (await redis.slowlog('GET', RUNS + 10)) as Array<[number, number, number, string[]]>;
      const times = entries.filter((e) => /^eval/i.test(String(e[3][0]))).map((e) => e[2]).sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)] ?? NaN;
      const inProcess = c.script === 'probe' ? ' | ' : `${memory.at(-1)!.toFixed(0)} | ${memory[Math.floor(memory.length / 2)]!.toFixed(1)}`;
      console.log(`| ${c.label} | ${times.at(-1) ?? NaN} | ${median} | ${inProcess} |`);
    }
    // the largest key the runtime builds: a full sliding-window log; Redis frees it on expiry
    await fullLog(onRedis, 'swl-full');
    await redis.config('SET', 'slowlog-log-slower-than', '0');
    await redis.slowlog('RESET');
    const elements = await redis.llen('swl-full');
    await redis.del('swl-full');
    const del = ((await redis.slowlog('GET', 10)) as Array<[number, number, number, string[]]>).find((e) => String(e[3][0]).toLowerCase() === 'del');
    console.log(`\nDEL of a full sliding-window log (${elements.toLocaleString('en-US')} elements; what its expiry costs): ${del?.[2]} µs`);
  } finally {
    store.close();
    redis.disconnect();
    await server.stop();
  }
}

await main();
