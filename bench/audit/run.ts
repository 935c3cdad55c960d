/**
 * redis-ttl-audit over one million keys: how long a full audit takes, and what load it puts on
 * the server.
 *
 *   node --import tsx bench/audit/run.ts                 (starts a redis-server of its own)
 *   BENCH_KEYS=200000 node --import tsx bench/audit/run.ts
 *
 * Seeds database 15 of that server (FLUSHDB first: it never uses a server it did not start) with
 * BENCH_KEYS keys (default 1,000,000), pipelined 10,000 at a time, over four patterns; every tenth
 * key has no TTL, the others expire in 1-24 hours (so nothing expires during the run). Then runs
 * the CLI in-process (main(), json output) in several configurations and, for each, reports the
 * wall time and the server's command rate: total_commands_processed delta / time, and the mean and
 * peak of INFO stats instantaneous_ops_per_sec sampled every 250 ms by a second connection (Redis
 * averages that over the last 1.6 s, so the first samples of a run include idle time).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
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

const handle = await startRedisServer();
const url = `${handle.url.replace(/\/\d*$/, '')}/${DB}`;
const r = new Redis(url);
const monitor = new Redis(handle.url);
try {
  console.log(`redis ${/redis_version:(\S+)/.exec(await r.info('server'))?.[1]} (${handle.source}), node ${process.version}`);
  await seed(r);
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
} finally {
  await r.flushdb().catch(() => undefined);
  r.disconnect();
  monitor.disconnect();
  await handle.stop();
}
