/**
 * Server cost of each limiter script and of candidate variants, from Redis' own accounting
 * (`INFO commandstats`: microseconds per EVALSHA, the script's commands included), next to
 * rate-limiter-flexible's script and the INCR + PEXPIRE floor. What decides whether a variant
 * "pays": only the server's time per call, which matters once Redis (not Node) saturates.
 *
 *   npm run bench:runtime-server                  (starts a redis-server of its own)
 *   BENCH_CALLS=100000 BENCH_ROUNDS=7 npm run bench:runtime-server
 *   BENCH_BASELINE_REF=8be68f9 npm run bench:runtime-server   (adds the scripts of that commit)
 *   BENCH_METRIC=instructions npm run bench:runtime-server    (instructions per call, under callgrind)
 *   BENCH_EXTRA=/tmp/a.lua:gcra npm run bench:runtime-server  (also a candidate file, with gcra's arguments)
 *
 * Four workloads, each BENCH_CALLS calls (default 20,000) in pipelines of 100, in BENCH_ROUNDS
 * interleaved rounds (default 5), `CONFIG RESETSTAT` before each measurement: one hot key, a new
 * key per call, and "warm keys" (BENCH_CALLS / 10 keys that each got one call before, ten calls
 * each), every call admitted (a limit of 10^9); and "at the limit": BENCH_CALLS / 200 keys
 * at a limit of 100 per minute, 200 calls each (half of them denied: the denial path, and the
 * sliding-window log's retry time).
 * With `BENCH_METRIC=instructions`, the same calls are counted in CPU instructions executed by the
 * server per call instead (`valgrind --tool=callgrind` around a redis-server of its own, counters
 * zeroed before and dumped after each measurement; the client's pipelines, the server's protocol
 * handling and the script together, kernel time not included): the same count on every run, so
 * a variant that saves 2% shows as 2% on a machine other work shares, where commandstats' timings
 * move by 10-20% from run to run. One round is enough (default BENCH_ROUNDS=1, BENCH_CALLS=2000);
 * about 3 s per script and workload, since valgrind runs the server ~50x slower.
 * The scripts are read from `runtime/scripts/*.lua` (no build needed); `BENCH_BASELINE_REF`
 * reads the same files at another commit (`git show`), measured in the same rounds. The variants
 * (made here from the shipped scripts) are candidates measured and not shipped, with their numbers
 * in runtime/README.md: the token and leaky buckets with their state in one string written by
 * `SET ... PX` instead of a hash and `PEXPIRE`, and GCRA without its argument checks.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, startRedisServer, stopRedisServer, type RedisHandle } from '../../tests/helpers/redis-server.js';

const INSTRUCTIONS = process.env.BENCH_METRIC === 'instructions';
if (process.env.BENCH_METRIC !== undefined && !INSTRUCTIONS && process.env.BENCH_METRIC !== 'time') {
  throw new Error(`BENCH_METRIC must be 'time' (commandstats, the default) or 'instructions' (callgrind), got '${process.env.BENCH_METRIC}'`);
}
const CALLS = Number(process.env.BENCH_CALLS ?? (INSTRUCTIONS ? 2_000 : 20_000));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (INSTRUCTIONS ? 1 : 5));
const REF = process.env.BENCH_BASELINE_REF;
const root = new URL('../../', import.meta.url);

const FLOOR = "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n";

/** rate-limiter-flexible's RateLimiterRedis script (v11, `consume` with the default options), as it sends it. */
const RLF = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX') \
local consumed = redis.call('incrby', KEYS[1], ARGV[1]) \
local ttl = redis.call('pttl', KEYS[1]) \
if ttl == -1 then \
  redis.call('expire', KEYS[1], ARGV[2]) \
  ttl = 1000 * ARGV[2] \
end \
return {consumed, ttl} `;

/** The limit of a workload: every call admitted, or 100 per minute. */
type Limit = 'big' | 'small';

interface Variant {
  name: string;
  lua: string;
  args: (limit: Limit, now: number) => string[];
}

const shipped = (name: string) => readFileSync(new URL(`runtime/scripts/${name}.lua`, root), 'utf8');
const atRef = (name: string) => execFileSync('git', ['show', `${REF}:runtime/scripts/${name}.lua`], { cwd: root, encoding: 'utf8' });

/** `lua` with each `[from, to]` replaced; throws when one is missing (the shipped script changed). */
function rewrite(name: string, lua: string, edits: Array<[string | RegExp, string]>): string {
  for (const [from, to] of edits) {
    const next = lua.replace(from, () => to); // a function: no '$' patterns in `to`
    if (next === lua) throw new Error(`variant of ${name}: ${String(from)} not found in the shipped script`);
    lua = next;
  }
  return lua;
}

/** A bucket with its state in one string "<amount>:<den>:<time>" written by SET ... PX instead of HSET + PEXPIRE. */
function stringState(name: 'token_bucket' | 'leaky_bucket'): string {
  const [field, amount] = name === 'token_bucket' ? ['s', 'tokens'] : ['l', 'level'];
  return rewrite(name, shipped(name), [
    [
      `local state = redis.call('HMGET', KEYS[1], '${field}', 'd', 't')\nlocal stored = tonumber(state[1])\nlocal stored_den = tonumber(state[2])\nlocal stored_at = tonumber(state[3])\n`,
      "local stored, stored_den, stored_at\nlocal state = redis.call('GET', KEYS[1])\nif state then\n  stored, stored_den, stored_at = string.match(state, '^(%d+):(%d+):(%d+)$')\n  stored = tonumber(stored)\n  stored_den = tonumber(stored_den)\n  stored_at = tonumber(stored_at)\nend\n",
    ],
    [
      `redis.call('HSET', KEYS[1], '${field}', string.format('%d', ${amount}), 'd', string.format('%d', den), 't', string.format('%d', now))\nredis.call('PEXPIRE', KEYS[1], string.format('%d', ttl_ms))\n`,
      `redis.call('SET', KEYS[1], string.format('%d:%d:%d', ${amount}, den, now), 'PX', string.format('%d', ttl_ms))\n`,
    ],
  ]);
}

/** GCRA without its argument checks (the limiter made them before the call): `tonumber` only. */
function unchecked(): string {
  return rewrite('gcra', shipped('gcra'), [
    [/\nif burst == nil or [^\n]*\n[^\n]*\nend/, ''],
    [/\nif per == nil or [^\n]*\n[^\n]*\nend/, ''],
    [/\nif units == nil or [^\n]*\n[^\n]*\nend/, ''],
    [/\nif cost == nil or [^\n]*\n[^\n]*\nend/, ''],
    [/\n {2}if now == nil or [^\n]*\n[^\n]*\n {2}end/, ''],
  ]);
}

const n = (limit: Limit) => (limit === 'big' ? '1000000000' : '100');
/** ARGV of each script: windows of a minute, buckets refilled (leaking) at 100 per minute. */
const ARGS: Record<string, (limit: Limit) => string[]> = {
  fixed_window: (l) => [n(l), '60000', '1', ''],
  sliding_window_log: (l) => [n(l), '60000', '1', ''],
  sliding_window_counter: (l) => [n(l), '60000', '1', ''],
  token_bucket: (l) => [n(l), '1', '600', '1', ''],
  gcra: (l) => [n(l), '600', '1', '1', ''],
  leaky_bucket: (l) => [n(l), '1', '600', '1', ''],
};

const variants: Variant[] = [
  { name: 'floor: INCR + PEXPIRE', lua: FLOOR, args: () => ['60000'] },
  { name: 'rate-limiter-flexible', lua: RLF, args: (l) => ['1', '60', n(l)] },
];
for (const [script, args] of Object.entries(ARGS)) {
  if (REF !== undefined) variants.push({ name: `${script} @${REF}`, lua: atRef(script), args });
  variants.push({ name: script, lua: shipped(script), args });
  if (script === 'token_bucket' || script === 'leaky_bucket') {
    variants.push({ name: `${script}, string + SET PX (candidate)`, lua: stringState(script), args });
  }
  if (script === 'gcra') variants.push({ name: 'gcra, no argument checks (candidate)', lua: unchecked(), args });
}
// BENCH_EXTRA=<file.lua>:<script>,...: candidate files, measured with the arguments of <script>
for (const entry of (process.env.BENCH_EXTRA ?? '').split(',').filter(Boolean)) {
  const at = entry.lastIndexOf(':');
  const args = ARGS[entry.slice(at + 1)];
  if (at < 0 || args === undefined) throw new Error(`BENCH_EXTRA entries are <file.lua>:<one of ${Object.keys(ARGS).join(', ')}>, got '${entry}'`);
  variants.push({ name: `${entry.slice(0, at)} (candidate)`, lua: readFileSync(entry.slice(0, at), 'utf8'), args });
}

function usecPerCall(info: string): number {
  return Number(/cmdstat_evalsha:calls=\d+,usec=\d+,usec_per_call=([\d.]+)/.exec(info)?.[1] ?? NaN);
}

/** `warm`: each key gets one call before the measurement (keys that already hold state). */
const workloads: Array<{ label: string; keys: number; limit: Limit; warm?: true }> = [
  { label: 'hot key', keys: 1, limit: 'big' },
  // every call creates its key (a first call per identity)
  { label: 'new keys', keys: CALLS, limit: 'big' },
  // ten calls per key on keys that hold state already (many identities in steady state)
  { label: 'warm keys', keys: Math.max(1, Math.floor(CALLS / 10)), limit: 'big', warm: true },
  // 200 calls per key at a limit of 100 per minute: half of them denied
  { label: 'at the limit', keys: Math.max(1, Math.floor(CALLS / 200)), limit: 'small' },
];

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
  child.on('error', (error) => {
    throw new Error(`BENCH_METRIC=instructions needs valgrind (Debian package valgrind): ${error.message}`);
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server under valgrind did not start in 60 s:\n${output}`)), 60_000);
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

const counter = INSTRUCTIONS ? await startCounted() : undefined;
const handle = counter?.handle ?? (await startRedisServer());
const r = new Redis(handle.url);
try {
  const shas = await Promise.all(variants.map((v) => r.script('LOAD', v.lua) as Promise<string>));
  const results = new Map<string, number[]>();
  for (const w of workloads) {
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let k = 0; k < variants.length; k += 1) {
        // a different first variant each round
        const index = (k + round) % variants.length;
        const v = variants[index]!;
        await r.flushdb();
        const calls = async (count: number): Promise<void> => {
          for (let from = 0; from < count; from += 100) {
            const pipeline = r.pipeline();
            const now = Date.now();
            for (let i = from; i < Math.min(count, from + 100); i += 1) pipeline.evalsha(shas[index]!, 1, `k:${i % w.keys}`, ...v.args(w.limit, now));
            for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
          }
        };
        if (w.warm) await calls(w.keys);
        await r.config('RESETSTAT');
        counter?.zero();
        await calls(CALLS);
        const label = `${w.label}|${v.name}`;
        const cost = counter === undefined ? usecPerCall(await r.info('commandstats')) : counter.read() / CALLS;
        results.set(label, [...(results.get(label) ?? []), cost]);
      }
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const unit = INSTRUCTIONS ? 'instructions' : 'µs';
  const what = INSTRUCTIONS ? 'server instructions per EVALSHA (callgrind, pipelines of 100)' : 'server µs per EVALSHA (INFO commandstats)';
  console.log(
    `Redis ${/redis_version:(\S+)/.exec(await r.info('server'))?.[1]}: ${what}, median of ${ROUNDS} interleaved rounds of ${CALLS.toLocaleString('en-US')} calls.\n`,
  );
  console.log(`| script | ${workloads.map((w) => `${w.label} ${unit} | / floor`).join(' | ')} |`);
  console.log(`| --- | ${workloads.map(() => '---: | ---:').join(' | ')} |`);
  for (const v of variants) {
    const cells = workloads.map((w) => {
      const us = median(results.get(`${w.label}|${v.name}`)!);
      const floor = median(results.get(`${w.label}|${variants[0]!.name}`)!);
      return `${INSTRUCTIONS ? Math.round(us).toLocaleString('en-US') : us.toFixed(2)} | ${(us / floor).toFixed(2)}`;
    });
    console.log(`| ${v.name} | ${cells.join(' | ')} |`);
  }
} finally {
  r.disconnect();
  await handle.stop();
}
