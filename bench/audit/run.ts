/**
 * redis-ttl-audit over one million keys: how long a full audit takes, and what load it puts on
 * the server.
 *
 *   node --import tsx bench/audit/run.ts                 (starts a redis-server of its own)
 *   BENCH_KEYS=200000 node --import tsx bench/audit/run.ts
 *   BENCH_ROUNDS=7 BENCH_CONFIGS=0 node --import tsx bench/audit/run.ts   (only the side-by-side part)
 *   BENCH_AUDIT_BASELINE=<dir>/audit/cli/main.ts ...   (also another version of the audit, e.g. the
 *     one before a change extracted with `git archive <commit> audit cli | tar -x -C <dir>`, <dir>
 *     inside this checkout so its imports resolve, in the same rounds; the bench fails unless
 *     both write the same json report, byte for byte but for the elapsed time)
 *
 * Seeds database 15 of that server (FLUSHDB first: it never uses a server it did not start) with
 * BENCH_KEYS keys (default 1,000,000), pipelined 10,000 at a time, over four patterns; every tenth
 * key has no TTL, the others expire in 1-24 hours (so nothing expires during the run). Then runs
 * the CLI in-process (main(), json output) in several configurations and, for each, reports the
 * wall time and the server's command rate: total_commands_processed delta / time, and the mean and
 * peak of INFO stats instantaneous_ops_per_sec sampled every 250 ms by a second connection (Redis
 * averages that over the last 1.6 s, so the first samples of a run include idle time).
 *
 * First, side by side: the audit (unlimited, json output) and a bare script of what it does at
 * its core (SCAN with the same COUNT, one pipeline of PTTL per batch, a count of the keys without
 * TTL: what one would write by hand in 20 lines), in BENCH_ROUNDS interleaved rounds (default 5);
 * the medians and their ratio.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { DEFAULT_AUDIT_OPTIONS } from '../../audit/audit.js';
import { main } from '../../audit/cli/main.js';
import { hashIdentity } from '../../runtime/keys.js';
import { startRedisServer } from '../../tests/helpers/redis-server.js';

const KEYS = Number(process.env.BENCH_KEYS ?? 1_000_000);
const DB = 15;

async function seed(r: Redis): Promise<void> {
  const started = performance.now();
  await r.flushdb();
  const BATCH = 10_000;
  for (let from = 0; from < KEYS; from += BATCH) {
    const p = r.pipeline();
    for (let i = from; i < Math.min(KEYS, from + BATCH); i += 1) {
      let key: string;
      switch (i % 4) {
        case 0:
          key = `session:{${(i * 2654435761 >>> 0).toString(16)}}:pending`;
          break;
        case 1:
          key = `user:${i}:profile`;
          break;
        case 2:
          key = `rl:fw:v2:{${hashIdentity(`id-${i}`)}}:search:60`;
          break;
        default:
          key = `cache:${randomUUID()}`;
      }
      if (i % 10 === 0) p.set(key, 'v');
      else p.set(key, 'v', 'EX', 3600 + (i % 23) * 3600);
    }
    await p.exec();
  }
  console.log(`seeded ${(await r.dbsize()).toLocaleString('en-US')} keys in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function stat(info: string, field: string): number {
  return Number(new RegExp(`^${field}:(\\d+)`, 'm').exec(info)?.[1] ?? NaN);
}

interface Row {
  name: string;
  seconds: number;
  keys: number;
  noTtl: number;
  commands: number;
  serverOps: number;
  instantMean: number;
  instantPeak: number;
  patterns: number;
}

async function measure(name: string, url: string, monitor: Redis, args: string[]): Promise<Row> {
  // instantaneous_ops_per_sec averages the last 1.6 s: let the previous run's load leave it first.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const samples: number[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (sampling) samples.push(stat(await monitor.info('stats'), 'instantaneous_ops_per_sec'));
    }
  })();
  const before = stat(await monitor.info('stats'), 'total_commands_processed');
  const started = performance.now();
  let stdout = '';
  const code = await main(['--url', url, '--format', 'json', ...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => process.stderr.write(text) },
    env: {},
  });
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  // The sampler's own INFO calls are in the delta too: at most 4 a second, subtracted.
  const after = stat(await monitor.info('stats'), 'total_commands_processed');
  if (code !== 0) throw new Error(`${name}: exit ${code}`);
  const report = JSON.parse(stdout) as {
    totals: { keys: number; noTtl: number; commands: number };
    patterns: unknown[];
    sample: null | { estimatedKeys: number; noTtlShare: { share: number; low: number; high: number }; estimatedNoTtl: { value: number; low: number; high: number } };
  };
  if (report.sample !== null) {
    const { estimatedKeys, noTtlShare: p, estimatedNoTtl: e } = report.sample;
    const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
    console.log(
      `${name}: estimated ${estimatedKeys.toLocaleString('en-US')} keys, ${pct(p.share)} without TTL (95% CI ${pct(p.low)}-${pct(p.high)}), ` +
        `about ${e.value.toLocaleString('en-US')} keys without TTL (${e.low.toLocaleString('en-US')}-${e.high.toLocaleString('en-US')}); ` +
        `true: ${KEYS.toLocaleString('en-US')} keys, ${Math.ceil(KEYS / 10).toLocaleString('en-US')} without TTL`,
    );
  }
  const row: Row = {
    name,
    seconds,
    keys: report.totals.keys,
    noTtl: report.totals.noTtl,
    commands: report.totals.commands,
    serverOps: (after - before - samples.length - 2) / seconds,
    instantMean: samples.length === 0 ? 0 : samples.reduce((a, b) => a + b, 0) / samples.length,
    instantPeak: Math.max(0, ...samples),
    patterns: report.patterns.length,
  };
  console.log(
    `${name}: ${row.seconds.toFixed(1)} s, ${row.keys.toLocaleString('en-US')} keys, ${row.patterns} patterns, ` +
      `${row.commands.toLocaleString('en-US')} commands, server ${Math.round(row.serverOps).toLocaleString('en-US')} ops/s ` +
      `(instantaneous mean ${Math.round(row.instantMean).toLocaleString('en-US')}, peak ${row.instantPeak.toLocaleString('en-US')})`,
  );
  return row;
}

/** The bare script: SCAN + one pipelined PTTL per batch, on a connection of its own. */
async function bare(url: string, count: number): Promise<{ keys: number; noTtl: number }> {
  const r = new Redis(url);
  try {
    let keys = 0;
    let noTtl = 0;
    let cursor = '0';
    do {
      const [next, batch] = (await r.callBuffer('SCAN', cursor, 'COUNT', count)) as [Buffer, Buffer[]];
      cursor = next.toString();
      const pipeline = r.pipeline();
      for (const key of batch) pipeline.pttl(key);
      for (const [, pttl] of (await pipeline.exec()) ?? []) {
        keys += 1;
        if (pttl === -1) noTtl += 1;
      }
    } while (cursor !== '0');
    return { keys, noTtl };
  } finally {
    r.disconnect();
  }
}

const baselineMain = process.env.BENCH_AUDIT_BASELINE
  ? ((await import(pathToFileURL(process.env.BENCH_AUDIT_BASELINE).href)) as { main: typeof main }).main
  : undefined;

/** The audit, in process, unlimited, json output: its totals, and its report without the elapsed time. */
async function audit(url: string, run = main): Promise<{ keys: number; noTtl: number; report: string }> {
  let stdout = '';
  const code = await run(['--url', url, '--format', 'json', '--max-ops-per-second', '0'], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => process.stderr.write(text) },
    env: {},
  });
  if (code !== 0) throw new Error(`audit: exit ${code}`);
  const parsed = JSON.parse(stdout) as { totals: { keys: number; noTtl: number; elapsedMs: number } };
  const { totals } = parsed;
  const keys = totals.keys;
  const noTtl = totals.noTtl;
  totals.elapsedMs = 0;
  return { keys, noTtl, report: JSON.stringify(parsed, null, 2) };
}

async function sideBySide(url: string): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const runs = {
    audit: () => audit(url),
    bare: () => bare(url, DEFAULT_AUDIT_OPTIONS.count),
    ...(baselineMain === undefined ? {} : { baseline: () => audit(url, baselineMain) }),
  };
  const names = Object.keys(runs) as (keyof typeof runs)[];
  const times = new Map<string, number[]>(names.map((name) => [name, []]));
  const cpu = new Map<string, number[]>(names.map((name) => [name, []]));
  const reports = new Map<string, string>();
  for (let round = 0; round < rounds; round += 1) {
    // a different one goes first each round
    for (let k = 0; k < names.length; k += 1) {
      const which = names[(k + round) % names.length]!;
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      const totals = await runs[which]!();
      times.get(which)!.push((performance.now() - started) / 1000);
      const used = process.cpuUsage(cpuStarted);
      cpu.get(which)!.push((used.user + used.system) / 1e6);
      if (totals.keys !== KEYS || totals.noTtl !== Math.ceil(KEYS / 10)) throw new Error(`${which}: ${JSON.stringify({ keys: totals.keys, noTtl: totals.noTtl })}`);
      if ('report' in totals && typeof totals.report === 'string') reports.set(which, totals.report);
    }
  }
  // The audit and the baseline must report the same thing on the same keys (byte for byte, but
  // for the elapsed time): a faster audit that reports otherwise is not the same audit.
  if (reports.has('baseline')) {
    if (reports.get('audit') !== reports.get('baseline')) {
      await mkdir('.bench-tmp', { recursive: true });
      await writeFile('.bench-tmp/audit-report.json', reports.get('audit')!);
      await writeFile('.bench-tmp/audit-report-baseline.json', reports.get('baseline')!);
      throw new Error('the audit and the baseline reports differ: see .bench-tmp/audit-report*.json');
    }
    console.log(`\nThe audit's json report and the baseline's are identical but for totals.elapsedMs (${reports.get('audit')!.length.toLocaleString('en-US')} bytes, ${KEYS.toLocaleString('en-US')} keys).`);
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const b = median(times.get('bare')!);
  const label = { audit: 'redis-ttl-audit --max-ops-per-second 0', bare: 'bare SCAN + pipelined PTTL', baseline: 'baseline redis-ttl-audit (BENCH_AUDIT_BASELINE)' };
  console.log(`\nSide by side, ${rounds} interleaved rounds over ${KEYS.toLocaleString('en-US')} keys (every key found, every key without TTL counted, by each):\n`);
  // CPU time of this process (the client's work) is steadier than wall time on a shared machine
  const bc = median(cpu.get('bare')!);
  // and the ratio within a round (the runs of a round ran back to back) steadier than the ratio of medians
  const perRound = (name: string) => median(times.get(name)!.map((t, round) => t / times.get('bare')![round]!));
  console.log('| run | median time | rounds (s) | / bare | / bare, median of the rounds | median client CPU | / bare |');
  console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: |');
  for (const name of names) {
    const list = times.get(name)!;
    const c = median(cpu.get(name)!);
    console.log(
      `| ${label[name]} | ${median(list).toFixed(2)} s | ${list.map((t) => t.toFixed(2)).join(', ')} | ${(median(list) / b).toFixed(2)} | ${perRound(name).toFixed(2)} | ${c.toFixed(2)} s | ${(c / bc).toFixed(2)} |`,
    );
  }
  console.log('');
}

const handle = await startRedisServer();
const url = `${handle.url.replace(/\/\d*$/, '')}/${DB}`;
const r = new Redis(url);
const monitor = new Redis(handle.url);
try {
  console.log(`redis ${/redis_version:(\S+)/.exec(await r.info('server'))?.[1]} (${handle.source}), node ${process.version}`);
  await seed(r);
  await sideBySide(url);
  if (process.env.BENCH_CONFIGS !== '0') {
    const rows: Row[] = [];
    rows.push(await measure('unlimited (--max-ops-per-second 0)', url, monitor, ['--max-ops-per-second', '0']));
    rows.push(await measure('unlimited, --memory', url, monitor, ['--max-ops-per-second', '0', '--memory']));
    rows.push(await measure('--max-ops-per-second 50000', url, monitor, ['--max-ops-per-second', '50000']));
    rows.push(await measure('--sample 10000 (default limit, 10000/s)', url, monitor, ['--sample', '10000']));
    if (process.env.BENCH_DEFAULT !== '0') rows.push(await measure('default limit (10000/s)', url, monitor, []));
    console.log('\n| run | time | keys | commands | server ops/s (delta) | instantaneous_ops_per_sec mean / peak |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const row of rows) {
      console.log(
        `| ${row.name} | ${row.seconds.toFixed(1)} s | ${row.keys.toLocaleString('en-US')} | ${row.commands.toLocaleString('en-US')} | ` +
          `${Math.round(row.serverOps).toLocaleString('en-US')} | ${Math.round(row.instantMean).toLocaleString('en-US')} / ${row.instantPeak.toLocaleString('en-US')} |`,
      );
    }
  }
} finally {
  await r.flushdb().catch(() => undefined);
  r.disconnect();
  monitor.disconnect();
  await handle.stop();
}
