/**
 * A Redis Cluster for tests: the nodes of `REDIS_TEST_CLUSTER_NODES` (`host:port,host:port,...`), a
 * test cluster the user names on purpose, when set (`REDIS_CLUSTER_NODES`, often an application's
 * own setting, is ignored),
 * else three local `redis-server --cluster-enabled yes` masters on free loopback ports, joined with
 * `redis-cli --cluster create`
 * (https://redis.io/docs/latest/operate/oss_and_stack/management/scaling/) and ready once every node
 * reports `cluster_state:ok`. `stop()` stops what was started and removes its temp dir.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { uniquePrefix } from './redis.js';
import { startRedisServer, type RedisHandle } from './redis-server.js';

const run = promisify(execFile);

export interface RedisClusterHandle {
  /** host/port of every master */
  nodes: Array<{ host: string; port: number }>;
  /** The masters' ports. */
  ports: number[];
  /** `redis://<host>:<port>` of the first master: any node is a starting point. */
  url: string;
  stop(): Promise<void>;
}

export interface RedisClusterOptions {
  /**
   * Always start a local cluster of three empty masters, even when `REDIS_TEST_CLUSTER_NODES` is set
   * (for tests that count every key of the cluster).
   */
  fresh?: boolean;
}

async function clusterOk(port: number): Promise<boolean> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
  try {
    await client.connect();
    return (await client.cluster('INFO')).includes('cluster_state:ok');
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

function handle(nodes: Array<{ host: string; port: number }>, stop: () => Promise<void>): RedisClusterHandle {
  return { nodes, ports: nodes.map((n) => n.port), url: `redis://${nodes[0]?.host ?? '127.0.0.1'}:${nodes[0]?.port ?? 6379}`, stop };
}

/**
 * Finds or starts the cluster (see the module comment); a local one that does not reach
 * `cluster_state:ok` in 20 s is stopped and the call throws.
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisClusterHandle> {
  const fromEnv = process.env.REDIS_TEST_CLUSTER_NODES;
  if (fromEnv !== undefined && fromEnv !== '' && options.fresh !== true) {
    const nodes = fromEnv.split(',').map((hp) => {
      const [host = '127.0.0.1', port = '6379'] = hp.trim().split(':');
      return { host, port: Number(port) };
    });
    return handle(nodes, async () => undefined);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'redis-cluster-'));
  const servers: RedisHandle[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i += 1) {
      servers.push(await startRedisServer(['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${i}.conf`], dir));
    }
    const ports = servers.map((s) => Number(new URL(s.url).port));
    try {
      await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], {
        timeout: 20_000,
      });
    } catch (error) {
      throw new Error(`redis-cli --cluster create failed: ${(error as { stderr?: string }).stderr ?? String(error)}`, { cause: error });
    }
    const deadline = Date.now() + 20_000;
    for (;;) {
      const states = await Promise.all(ports.map(clusterOk));
      if (states.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error('the cluster did not reach cluster_state:ok in 20 s');
      await sleep(100);
    }
    return handle(
      ports.map((port) => ({ host: '127.0.0.1', port })),
      stop,
    );
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * An ioredis `Cluster` on the handle's nodes, returned once a write goes through: right after
 * creation the nodes take a moment to agree on the slots, so writes are retried for up to ~5 s.
 * The probe key lives 1 s.
 */
export async function connectCluster(handle: RedisClusterHandle): Promise<Cluster> {
  const cluster = new Cluster(handle.nodes, { redisOptions: { maxRetriesPerRequest: 2 } });
  for (let attempt = 0; ; attempt += 1) {
    try {
      await cluster.set(`${uniquePrefix('ready')}:${attempt}`, '1', 'PX', 1000);
      return cluster;
    } catch (error) {
      if (attempt > 50) {
        await cluster.quit().catch(() => undefined);
        throw error;
      }
      await sleep(100);
    }
  }
}
