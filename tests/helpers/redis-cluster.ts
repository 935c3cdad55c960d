/**
 * A local three-master Redis Cluster for tests: three `redis-server --cluster-enabled yes` on free
 * loopback ports, each in its own temp dir, joined with `redis-cli --cluster create`, ready when
 * every node reports `cluster_state:ok`. `stop()` stops the servers and removes the dirs.
 * Also exports the plain `redis-server` starter it uses (for servers with other options, e.g. TLS).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

const run = promisify(execFile);

export interface RedisClusterHandle {
  /** The three master ports. */
  ports: number[];
  /** `redis://127.0.0.1:<first port>`: any node is a starting point. */
  url: string;
  stop(): Promise<void>;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function startNode(port: number, dir: string): Promise<ChildProcess> {
  return spawnRedisServer([
    '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes',
    '--cluster-config-file', path.join(dir, 'nodes.conf'), '--dir', dir,
  ]);
}

/**
 * Starts `redis-server` with `args` (plus `--save '' --appendonly no --daemonize no`) and resolves
 * once it accepts connections; stop it with {@link stopRedisServer}.
 */
export function spawnRedisServer(args: string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', [...args, '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = args[args.indexOf('--port') + 1] ?? '?';
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server ${port} did not start:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.removeAllListeners('exit');
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server ${port} exited with ${code}:\n${output}`));
    });
  });
}

/** Stops a server started by {@link spawnRedisServer}. */
export function stopRedisServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
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

/** Starts the cluster; throws (after stopping what it started) when it does not come up in 20 s. */
export async function startRedisCluster(): Promise<RedisClusterHandle> {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopRedisServer));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    while (ports.length < 3) {
      const port = await freePort();
      if (ports.includes(port)) continue;
      const dir = mkdtempSync(path.join(tmpdir(), `redis-cluster-${port}-`));
      dirs.push(dir);
      children.push(await startNode(port, dir));
      ports.push(port);
    }
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], {
      timeout: 20_000,
    });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const states = await Promise.all(ports.map(clusterOk));
      if (states.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error('the cluster did not reach cluster_state:ok in 20 s');
      await sleep(100);
    }
    return { ports, url: `redis://127.0.0.1:${ports[0]}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
