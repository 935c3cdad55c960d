// redis-ttl-audit --cluster against a local three-master Redis Cluster started by this file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type RedisClusterHandle } from '../helpers/redis-cluster.js';
import { runCli, runJson } from './run-cli.js';

let cluster: RedisClusterHandle;
let client: Cluster;

beforeAll(async () => {
  cluster = await startRedisCluster({ fresh: true }); // exact key counts: never a named REDIS_TEST_CLUSTER_NODES
  client = new Cluster([{ host: '127.0.0.1', port: cluster.ports[0]! }]);
  // 90 user:<n>:profile without TTL, 60 rl:tb:v2:{<id>}:search with a 30 s TTL (the first 6 without),
  // spread over the three masters' slots.
  for (let i = 0; i < 90; i += 1) await client.set(`user:${i}:profile`, 'x');
  for (let i = 0; i < 60; i += 1) {
    const key = `rl:tb:v2:{acct_${i}}:search`;
    await client.hset(key, 'tokens', '5');
    if (i >= 6) await client.pexpire(key, 30_000);
  }
}, 60_000);

afterAll(async () => {
  await client?.quit().catch(() => client.disconnect());
  await cluster?.stop();
});

async function dbsizes(): Promise<number[]> {
  return Promise.all(
    cluster.ports.map(async (port) => {
      const node = new Redis({ port, host: '127.0.0.1' });
      try {
        return await node.dbsize();
      } finally {
        node.disconnect();
      }
    }),
  );
}

describe('--cluster', () => {
  it('scans every master on its own and reports the whole keyspace', async () => {
    const sizes = await dbsizes();
    expect(sizes.every((n) => n > 0)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(150);
    const { code, report } = await runJson(['--cluster', '--url', cluster.url, '--fail-on-persistent', 'rl:*']);
    expect(code).toBe(1);
    expect(report.cluster).toBe(true);
    expect(report.nodes.map((n) => Number(n.address.split(':')[1])).sort()).toEqual([...cluster.ports].sort());
    expect(report.nodes.map((n) => n.dbsize).sort()).toEqual([...sizes].sort());
    expect(report.nodes.every((n) => n.clusterEnabled)).toBe(true);
    expect(report.totals).toMatchObject({ visited: 150, keys: 150, noTtl: 96, vanished: 0 });
    expect(report.patterns.map((p) => [p.pattern, p.keys, p.noTtl, p.ttl['<1m']])).toEqual([
      ['user:*:profile', 90, 90, 0],
      ['rl:tb:v2:{*}:search', 60, 6, 54],
    ]);
    expect(report.violations).toEqual([{ pattern: 'rl:*', keys: 6, examples: expect.any(Array) as unknown }]);
    expect(report.notes).toEqual([]);
  });

  it('adds up a shape of the inventory over the masters, and folds the rest', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cluster-inventory-'));
    const file = path.join(dir, 'keys.json');
    const write = { file: 'src/limiter.ts', line: 4, column: 7, command: 'HSET', client: 'ioredis', ttl: 'separate' };
    writeFileSync(file, JSON.stringify({ version: 1, root: '.', shapes: [{ shape: 'rl:tb:v2:{*}:search', writes: [write] }] }));
    const { report } = await runJson(['--cluster', '--url', cluster.url, '--inventory', file]);
    const shown = path.relative(process.cwd(), path.join(dir, 'src/limiter.ts'));
    expect(report.patterns.map((p) => [p.pattern, p.shape, p.keys, p.noTtl, p.writtenBy])).toEqual([
      ['user:*:profile', null, 90, 90, []],
      ['rl:tb:v2:{*}:search', 'rl:tb:v2:{*}:search', 60, 6, [{ file: shown, line: 4, column: 7, command: 'HSET', ttl: 'separate' }]],
    ]);
    expect(report.findings!.leaking.map((f) => [f.pattern, f.cause])).toEqual([
      ['user:*:profile', 'unwritten'],
      ['rl:tb:v2:{*}:search', 'site'],
    ]);
  });

  it('samples each master in proportion to its DBSIZE', async () => {
    const { report } = await runJson(['--cluster', '--url', cluster.url, '--sample', '30']);
    expect(report.sample).toMatchObject({ requested: 30, stoppedEarly: true, population: 150 });
    expect(report.totals.keys).toBeGreaterThanOrEqual(30);
    expect(report.totals.keys).toBeLessThanOrEqual(32); // each master rounds its share up
  });

  it('notes a cluster node scanned without --cluster', async () => {
    const { report } = await runJson(['--url', cluster.url]);
    expect(report.nodes).toHaveLength(1);
    expect(report.totals.keys).toBe(report.nodes[0]!.dbsize);
    expect(report.notes).toEqual([`${report.nodes[0]!.address} is a Redis Cluster node: only its own keys were scanned; use --cluster to walk every master.`]);
  });

  it('adds the TTL on every master with --fix-ttl', async () => {
    const before = await Promise.all([...Array(6).keys()].map((i) => client.pttl(`rl:tb:v2:{acct_${i}}:search`)));
    expect(before).toEqual([-1, -1, -1, -1, -1, -1]);
    const { code, stdout } = await runCli(['--cluster', '--url', cluster.url, '--match', 'rl:*', '--fix-ttl', '120', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toContain('\nFix: EXPIRE <key> 120 NX added a TTL of 120 s to 6 keys.\n');
    const after = await Promise.all([...Array(6).keys()].map((i) => client.pttl(`rl:tb:v2:{acct_${i}}:search`)));
    for (const pttl of after) expect(pttl).toBeGreaterThan(110_000);
    expect(await client.pttl('user:1:profile')).toBe(-1);
  });
});
