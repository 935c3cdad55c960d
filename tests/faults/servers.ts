/**
 * Redis servers the fault tests own: a standalone `redis-server` they can SIGSTOP, restart on the
 * same port or put under `DEBUG SLEEP` (started with `--enable-debug-command local`), and a local
 * cluster of three masters with one replica each, whose masters they can kill to force a
 * failover. Nothing here ever touches a server named with `REDIS_TEST_URL`.
 */
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort, spawnRedisServer, stopRedisServer } from '../helpers/redis-server.js';

const run = promisify(execFile);

/**
 * `--enable-debug-command local` where the server has the option (Redis >= 7.0, which disables
 * DEBUG by default); older servers allow DEBUG and would refuse to start with it.
 */
function debugArgs(): string[] {
  const version = /v=(\d+)\./.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1];
  return Number(version) >= 7 ? ['--enable-debug-command', 'local'] : [];
}

/** A standalone redis-server of the test's own. */
export interface OwnServer {
  port: number;
  url: string;
  /** SIGSTOP: the process stops; the kernel still accepts connections and data for it. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** SIGTERM, and resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after {@link stop}). */
  start(): Promise<void>;
}

/** Starts `redis-server` on a free loopback port with DEBUG enabled (see `debugArgs`) plus `extraArgs`. */
export async function startOwnServer(extraArgs: string[] = []): Promise<OwnServer> {
  const args = [...debugArgs(), ...extraArgs];
  let child: ChildProcess | null = null;
  let port = 0;
  for (let attempt = 0; child === null; attempt += 1) {
    port = await freePort();
    try {
      child = await spawnRedisServer(['--port', String(port), '--bind', '127.0.0.1', ...args]);
    } catch (error) {
      if (attempt >= 4) throw error; // the free port was taken before the server bound it
    }
  }
  const server: OwnServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    stop: async () => {
      if (child === null) return;
      child.kill('SIGCONT'); // a stopped process does not act on SIGTERM
      await stopRedisServer(child);
      child = null;
    },
    start: async () => {
      for (let attempt = 0; ; attempt += 1) {
        try {
          child = await spawnRedisServer(['--port', String(port), '--bind', '127.0.0.1', ...args]);
          return;
        } catch (error) {
          if (attempt >= 10) throw error;
          await sleep(100); // the port is still in TIME_WAIT or being released
        }
      }
    },
  };
  return server;
}

/** One node of {@link ReplicatedCluster}. */
export interface ClusterNode {
  port: number;
  child: ChildProcess;
}

/** Three masters with one replica each, on loopback. */
export interface ReplicatedCluster {
  nodes: ClusterNode[];
  /** Port of the master that serves `slot` right now (CLUSTER SLOTS of a live node). */
  masterOf(slot: number): Promise<number>;
  /** Ports of the replicas of the master that serves `slot` right now. */
  replicasOf(slot: number): Promise<number[]>;
  /** Runs `CONFIG SET name value` on every live node. */
  configSet(name: string, value: string): Promise<void>;
  /** SIGKILL of the node on `port`: its replica takes over after cluster-node-timeout. */
  kill(port: number): void;
  stop(): Promise<void>;
}

async function clusterSlots(ports: number[]): Promise<Array<[number, number, number, number[]]>> {
  for (const port of ports) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const slots = (await client.cluster('SLOTS')) as unknown as Array<[number, number, ...Array<[string, number]>]>;
      return slots.map(([from, to, ...nodes]) => [from, to, nodes[0]![1], nodes.slice(1).map((n) => n[1])]);
    } catch {
      // a dead node: ask the next one
    } finally {
      client.disconnect();
    }
  }
  throw new Error('no cluster node answers CLUSTER SLOTS');
}

async function clusterState(port: number): Promise<string> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return /cluster_state:(\w+)/.exec(await client.cluster('INFO'))?.[1] ?? 'unknown';
  } catch {
    return 'unreachable';
  } finally {
    client.disconnect();
  }
}

/**
 * Starts six `redis-server --cluster-enabled yes` nodes and joins them with
 * `redis-cli --cluster create ... --cluster-replicas 1`
 * (https://redis.io/docs/latest/operate/oss_and_stack/management/scaling/), with
 * `cluster-node-timeout` `nodeTimeoutMs`; resolves once every node reports `cluster_state:ok` and
 * every master has its replica.
 */
export async function startReplicatedCluster(nodeTimeoutMs = 1000, extraArgs: string[] = []): Promise<ReplicatedCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'redis-faults-cluster-'));
  const nodes: ClusterNode[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => (n.child.kill('SIGCONT'), stopRedisServer(n.child))));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 6; i += 1) {
      for (let attempt = 0; ; attempt += 1) {
        const port = await freePort();
        try {
          const child = await spawnRedisServer(
            ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', String(nodeTimeoutMs), ...extraArgs],
            dir,
          );
          nodes.push({ port, child });
          break;
        } catch (error) {
          if (attempt >= 4) throw error;
        }
      }
    }
    const ports = nodes.map((n) => n.port);
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes'], { timeout: 30_000 });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const states = await Promise.all(ports.map(clusterState));
      const replicated = await Promise.all(
        ports.map(async (port) => {
          const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
          client.on('error', () => undefined);
          try {
            await client.connect();
            const info = await client.info('replication');
            return /role:slave/.test(info) ? /master_link_status:up/.test(info) : true;
          } catch {
            return false;
          } finally {
            client.disconnect();
          }
        }),
      );
      if (states.every((s) => s === 'ok') && replicated.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error(`the cluster did not become ready in 30 s: ${states.join(', ')}`);
      await sleep(100);
    }
    const live = () => nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
    const rangeOf = async (slot: number) => {
      const range = (await clusterSlots(live().map((n) => n.port))).find(([from, to]) => slot >= from && slot <= to);
      if (range === undefined) throw new Error(`slot ${slot} is not served`);
      return range;
    };
    return {
      nodes,
      masterOf: async (slot) => (await rangeOf(slot))[2],
      replicasOf: async (slot) => (await rangeOf(slot))[3],
      async configSet(name, value) {
        for (const node of live()) {
          const c = new Redis({ port: node.port, host: '127.0.0.1' });
          await c.config('SET', name, value);
          c.disconnect();
        }
      },
      kill(port) {
        nodes.find((n) => n.port === port)?.child.kill('SIGKILL');
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
