/**
 * Server cost of each limiter script, next to rate-limiter-flexible's script and the
 * INCR + PEXPIRE floor: what decides whether a change "pays" in the server's work per call, which
 * matters once Redis (not Node) saturates.
 *
 *   npm run bench:runtime-server                              (commandstats µs; a redis-server of its own)
 *   BENCH_METRIC=instructions npm run bench:runtime-server    (instructions per call, under callgrind)
 *   BENCH_CALLS=100000 BENCH_ROUNDS=7 npm run bench:runtime-server
 *   BENCH_BASELINE_REF=2b6fdc6 npm run bench:runtime-server   (adds the scripts of that commit)
 *   BENCH_EXTRA=/tmp/a.lua:gcra npm run bench:runtime-server  (also a candidate file, with gcra's arguments)
 *   BENCH_SCRIPTS=token_bucket,gcra BENCH_WORKLOADS=hot,identities npm run bench:runtime-server
 *     (only those shipped scripts, after the floor and rlf, and the workloads whose label contains one of the words)
 *
 * `npm run bench:runtime` runs the instruction count too (the targets against rate-limiter-flexible
 * are judged there, next to the throughput figures).
 *
 * Five workloads, each BENCH_CALLS calls in pipelines of 100, in BENCH_ROUNDS interleaved rounds,
 * `CONFIG RESETSTAT` before each measurement: one hot key, a new key per call, "warm keys"
 * (BENCH_CALLS / 10 keys that each got one call before, ten calls each) and "10,000 identities"
 * (10,000 keys that each got one call before, the calls spread over them), every call admitted (a
 * limit of 10^9, the buckets refilled one unit per hour); and "at the limit": BENCH_CALLS / 200 keys at a limit of 100 (per hour for the windows, per minute for the rest), 200
 * calls each (half of them denied: the denial path, and the sliding-window log's retry time). Each
 * script gets the arguments the limiter sends for a call of cost 1 on the server clock.
 * `BENCH_METRIC=time` (default) reads `INFO commandstats` (µs per EVALSHA, the script's commands
 * included; default 5 rounds of 20,000 calls); `BENCH_METRIC=instructions` counts the CPU
 * instructions the server executes per call instead (`valgrind --tool=callgrind` around a
 * redis-server of its own, counters zeroed before and dumped after each measurement; the client's
 * pipelines, the server's protocol handling and the script together, kernel time not included):
 * the same count on every run (within ~1%), so a variant that saves 2% shows as 2% on a machine
 * other work shares, where commandstats' timings move by 10-20% from run to run. One round is
 * enough (default BENCH_ROUNDS=1, BENCH_CALLS=2000); about 3 s per script and workload, since
 * valgrind runs the server ~50x slower. The scripts are read from `runtime/scripts/*.lua` (no
 * build needed); `BENCH_BASELINE_REF` reads the same files at another commit (`git show`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { freePort, startRedisServer, stopRedisServer, type RedisHandle } from '../../tests/helpers/redis-server.js';

const root = new URL('../../', import.meta.url);

/** The INCR + PEXPIRE floor: the smallest TTL-safe counter. */
export const FLOOR_LUA = "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n";

/** rate-limiter-flexible's RateLimiterRedis script (v11, `consume` with the default options), as it sends it. */
export const RLF_LUA = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX') \
local consumed = redis.call('incrby', KEYS[1], ARGV[1]) \
local ttl = redis.call('pttl', KEYS[1]) \
if ttl == -1 then \
  redis.call('expire', KEYS[1], ARGV[2]) \
  ttl = 1000 * ARGV[2] \
end \
return {consumed, ttl} `;

/** The limit of a workload: every call admitted, or 100 (per window, or per minute). */
type Limit = 'big' | 'small';

/** A script measured: its label, its source and the ARGV of one call. */
export interface Variant {
  name: string;
  lua: string;
  args: (limit: Limit) => string[];
}

/** The limiter scripts, in the order of the tables. */
export const LIMITER_SCRIPTS = ['fixed_window', 'sliding_window_log', 'sliding_window_counter', 'token_bucket', 'gcra', 'leaky_bucket'] as const;
export type LimiterScriptName = (typeof LIMITER_SCRIPTS)[number];

const n = (limit: Limit) => (limit === 'big' ? '1000000000' : '100');
/**
 * The parameters each limiter sends (windows of an hour, buckets refilled or leaking at one unit
 * per hour, or 100 per minute at the limit: see bucketMs); cost 1 and the server clock are left out, as the limiter leaves them out. Windows of an
 * hour, not a minute: a run under valgrind takes tens of seconds, and a window that ends between
 * a key's first call and its measured ones sends some calls down the new-window path (the
 * sliding-window counter's count moved by 8% from run to run with windows of a minute).
 */
const WINDOW_MS = '3600000';
/**
 * The ms per unit of refill, leak or emission of the buckets and GCRA: an hour with a limit of
 * 10^9 (every call admitted), a minute at the limit of 100. After one call a bucket's key lives
 * until that unit is back: with a minute per unit (600 ms, as before round 41) the keys of
 * "10,000 identities" expired while valgrind ran the warm-up calls (seconds), so the measured calls
 * found no state (the new-key path, ~7,000 instructions cheaper than a warm key) and the server's
 * expiry cycle deleted keys while it was counted.
 */
const bucketMs = (limit: Limit) => (limit === 'big' ? '3600000' : '600');
const PARAMS: Record<LimiterScriptName, (limit: Limit) => string[]> = {
  fixed_window: (l) => [n(l), WINDOW_MS],
  sliding_window_log: (l) => [n(l), WINDOW_MS],
  sliding_window_counter: (l) => [n(l), WINDOW_MS],
  token_bucket: (l) => [n(l), '1', bucketMs(l)],
  gcra: (l) => [n(l), bucketMs(l), '1'],
  leaky_bucket: (l) => [n(l), '1', bucketMs(l)],
};

const shipped = (name: string) => readFileSync(new URL(`runtime/scripts/${name}.lua`, root), 'utf8');
const atRef = (ref: string, name: string) => execFileSync('git', ['show', `${ref}:runtime/scripts/${name}.lua`], { cwd: root, encoding: 'utf8' });

/**
 * The ARGV of `lua` for a call of cost 1 on the server clock: a script of key format 1 (before
 * issue 30) takes the cost and '' for the server clock after its parameters; format 2 leaves both out.
 */
function argsFor(script: LimiterScriptName, lua: string): (limit: Limit) => string[] {
  if (/ARGV\[\d\] == ''/.test(lua)) return (l) => [...PARAMS[script](l), '1', ''];
  return PARAMS[script];
}

/**
 * The variants of a run: the floor, rate-limiter-flexible, each shipped script (after the
 * scripts of `ref` when given), and the candidate files of `extra` (`<file.lua>:<script>,...`).
 */
export function variantsOf(ref?: string, extra = ''): Variant[] {
  const variants: Variant[] = [
    { name: 'floor: INCR + PEXPIRE', lua: FLOOR_LUA, args: () => [WINDOW_MS] },
    // rate-limiter-flexible's duration is in seconds
    { name: 'rate-limiter-flexible', lua: RLF_LUA, args: (l) => ['1', String(Number(WINDOW_MS) / 1000), n(l)] },
  ];
  const only = (process.env.BENCH_SCRIPTS ?? '').split(',').filter(Boolean);
  for (const script of LIMITER_SCRIPTS) {
    if (only.length > 0 && !only.includes(script)) continue;
    if (ref !== undefined) {
      const lua = atRef(ref, script);
      variants.push({ name: `${script} @${ref}`, lua, args: argsFor(script, lua) });
    }
    const lua = shipped(script);
    variants.push({ name: script, lua, args: argsFor(script, lua) });
  }
  for (const entry of extra.split(',').filter(Boolean)) {
    const at = entry.lastIndexOf(':');
    const script = entry.slice(at + 1) as LimiterScriptName;
    if (at < 0 || !LIMITER_SCRIPTS.includes(script)) throw new Error(`BENCH_EXTRA entries are <file.lua>:<one of ${LIMITER_SCRIPTS.join(', ')}>, got '${entry}'`);
    const lua = readFileSync(entry.slice(0, at), 'utf8');
    variants.push({ name: `${entry.slice(0, at)} (candidate)`, lua, args: argsFor(script, lua) });
  }
  return variants;
}

/** One workload: its label, how many keys the calls rotate over, the limit, and whether each key got a call first. */
export interface ServerWorkload {
  label: string;
  keys: number;
  limit: Limit;
  warm?: true;
  /** the measured calls go to keys spread over all `keys` (fewer calls than keys), not to the first ones */
  spread?: true;
}

/** The five workloads of `calls` calls each (see the header). */
export function serverWorkloads(calls: number): ServerWorkload[] {
  return [
    { label: 'hot key', keys: 1, limit: 'big' },
    // every call creates its key (a first call per identity)
    { label: 'new keys', keys: calls, limit: 'big' },
    // ten calls per key on keys that hold state already (many identities in steady state)
    { label: 'warm keys', keys: Math.max(1, Math.floor(calls / 10)), limit: 'big', warm: true },
    // 10,000 identities that each hold state (one call each first), the calls spread over them: the
    // throughput bench's second workload
    { label: '10,000 identities', keys: 10_000, limit: 'big', warm: true, spread: true },
    // 200 calls per key at a limit of 100: half of them denied
    { label: 'at the limit', keys: Math.max(1, Math.floor(calls / 200)), limit: 'small' },
  ];
}

function usecPerCall(info: string): number {
  return Number(/cmdstat_evalsha:calls=\d+,usec=\d+,usec_per_call=([\d.]+)/.exec(info)?.[1] ?? NaN);
}

/** A redis-server under `valgrind --tool=callgrind`, instrumentation off until {@link Counter.zero}. */
interface Counter {
  handle: RedisHandle;
  /** Zeroes the server's instruction counters (the server must be idle). */
  zero(): void;
  /** Instructions the server executed since the last {@link Counter.zero}. */
  read(): number;
}

async function startCounted(): Promise<Counter> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-ttl-callgrind-'));
  const port = await freePort();
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(dir, 'cg.out')}`, 'redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server under valgrind did not start in 60 s:\n${output}`)), 60_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`the instruction count needs valgrind (Debian package valgrind): ${error.message}`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`valgrind redis-server exited with ${code}:\n${output}`)));
  });
  const control = (...args: string[]) => execFileSync('callgrind_control', [...args, String(child.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  control('--instr=on');
  let dumps = 0;
  return {
    handle: {
      url: `redis://127.0.0.1:${port}`,
      source: 'redis-server',
      named: false,
      stop: async () => {
        await stopRedisServer(child);
        rmSync(dir, { recursive: true, force: true });
      },
    },
    zero: () => void control('--zero'),
    read: () => {
      control('--dump');
      dumps += 1;
      // each dump is a file of its own (cg.out.1, cg.out.2, ...); its "summary:" line is the total
      const file = readdirSync(dir).find((name) => name.endsWith(`.${dumps}`));
      if (file === undefined) throw new Error(`callgrind wrote no dump ${dumps} in ${dir}`);
      const summary = /^summary: (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
      if (summary === null) throw new Error(`no summary line in ${file}`);
      return Number(summary[1]);
    },
  };
}

/** What {@link measureServerCost} measured: the median cost per call of each variant in each workload. */
export interface ServerCost {
  /** The redis-server's version. */
  version: string;
  metric: 'time' | 'instructions';
  calls: number;
  rounds: number;
  variants: Variant[];
  workloads: ServerWorkload[];
  /** Median µs (time) or instructions per call of `variant` in `workload`. */
  cost(variant: string, workload: string): number;
}

/**
 * Measures every variant in every workload, `rounds` interleaved rounds of `calls` calls, on a
 * redis-server of its own (under callgrind for `instructions`).
 * @throws when valgrind is missing (instructions) or a script answers an error.
 */
export async function measureServerCost(options: { metric: 'time' | 'instructions'; calls: number; rounds: number; variants: Variant[] }): Promise<ServerCost> {
  const { metric, calls, rounds, variants } = options;
  const words = (process.env.BENCH_WORKLOADS ?? '').split(',').filter(Boolean);
  const workloads = serverWorkloads(calls).filter((w) => words.length === 0 || words.some((word) => w.label.includes(word)));
  const counter = metric === 'instructions' ? await startCounted() : undefined;
  const handle = counter?.handle ?? (await startRedisServer());
  const r = new Redis(handle.url);
  try {
    const shas = await Promise.all(variants.map((v) => r.script('LOAD', v.lua) as Promise<string>));
    const results = new Map<string, number[]>();
    for (const w of workloads) {
      for (let round = 0; round < rounds; round += 1) {
        for (let k = 0; k < variants.length; k += 1) {
          // a different first variant each round
          const index = (k + round) % variants.length;
          const v = variants[index]!;
          await r.flushdb();
          const run = async (count: number): Promise<void> => {
            for (let from = 0; from < count; from += 100) {
              const pipeline = r.pipeline();
              for (let i = from; i < Math.min(count, from + 100); i += 1) {
                const key = w.spread ? Math.floor((i * w.keys) / count) % w.keys : i % w.keys;
                pipeline.evalsha(shas[index]!, 1, `k:${key}`, ...v.args(w.limit));
              }
              for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
            }
          };
          if (w.warm) await run(w.keys);
          await r.config('RESETSTAT');
          counter?.zero();
          await run(calls);
          const label = `${w.label}|${v.name}`;
          const cost = counter === undefined ? usecPerCall(await r.info('commandstats')) : counter.read() / calls;
          results.set(label, [...(results.get(label) ?? []), cost]);
        }
      }
    }
    const version = /redis_version:(\S+)/.exec(await r.info('server'))?.[1] ?? '?';
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    return {
      version,
      metric,
      calls,
      rounds,
      variants,
      workloads,
      cost: (variant, workload) => median(results.get(`${workload}|${variant}`) ?? [NaN]),
    };
  } finally {
    r.disconnect();
    await handle.stop();
  }
}

/** Prints the table of a measurement: each variant's cost per call in each workload, and as a ratio of the floor and of rate-limiter-flexible. */
export function printServerCost(m: ServerCost): void {
  const unit = m.metric === 'instructions' ? 'instructions' : 'µs';
  const what = m.metric === 'instructions' ? 'server instructions per EVALSHA (callgrind, pipelines of 100)' : 'server µs per EVALSHA (INFO commandstats)';
  console.log(`Redis ${m.version}: ${what}, median of ${m.rounds} interleaved rounds of ${m.calls.toLocaleString('en-US')} calls; in parentheses, / rate-limiter-flexible.\n`);
  console.log(`| script | ${m.workloads.map((w) => `${w.label} ${unit} | / floor`).join(' | ')} |`);
  console.log(`| --- | ${m.workloads.map(() => '---: | ---:').join(' | ')} |`);
  for (const v of m.variants) {
    const cells = m.workloads.map((w) => {
      const cost = m.cost(v.name, w.label);
      const floor = m.cost(m.variants[0]!.name, w.label);
      const rlf = m.cost(m.variants[1]!.name, w.label);
      const shown = m.metric === 'instructions' ? Math.round(cost).toLocaleString('en-US') : cost.toFixed(2);
      return `${shown} (${(cost / rlf).toFixed(2)}) | ${(cost / floor).toFixed(2)}`;
    });
    console.log(`| ${v.name} | ${cells.join(' | ')} |`);
  }
  console.log('');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const instructions = process.env.BENCH_METRIC === 'instructions';
  if (process.env.BENCH_METRIC !== undefined && !instructions && process.env.BENCH_METRIC !== 'time') {
    throw new Error(`BENCH_METRIC must be 'time' (commandstats, the default) or 'instructions' (callgrind), got '${process.env.BENCH_METRIC}'`);
  }
  const m = await measureServerCost({
    metric: instructions ? 'instructions' : 'time',
    calls: Number(process.env.BENCH_CALLS ?? (instructions ? 2_000 : 20_000)),
    rounds: Number(process.env.BENCH_ROUNDS ?? (instructions ? 1 : 5)),
    variants: variantsOf(process.env.BENCH_BASELINE_REF, process.env.BENCH_EXTRA),
  });
  printServerCost(m);
}
