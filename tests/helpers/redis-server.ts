/**
 * A Redis for the runtime tests and the benchmark, in this order of preference:
 * 1. `REDIS_URL` when set (nothing is started or stopped);
 * 2. a testcontainers Redis when a Docker engine answers;
 * 3. a `redis-server` from PATH on a free loopback port (`--save '' --appendonly no`), stopped by
 *    `stop()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, Socket } from 'node:net';

export interface RedisHandle {
  /** `redis://host:port` */
  url: string;
  /** Where it came from. */
  source: 'REDIS_URL' | 'testcontainers' | 'redis-server';
  /** Stops what this helper started (no-op for REDIS_URL). */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
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

async function dockerAnswers(): Promise<boolean> {
  const host = process.env.DOCKER_HOST;
  const socketPath = host?.startsWith('unix://') ? host.slice('unix://'.length) : '/var/run/docker.sock';
  if (host !== undefined && !host.startsWith('unix://')) return true; // tcp engine: let testcontainers try
  if (!existsSync(socketPath)) return false;
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(socketPath, () => {
      socket.write('GET /_ping HTTP/1.0\r\n\r\n');
    });
    socket.once('data', (data) => done(data.toString().includes('200')));
  });
}

async function startTestcontainer(): Promise<RedisHandle> {
  const { RedisContainer } = await import('@testcontainers/redis');
  const container = await new RedisContainer('redis:7').start();
  return {
    url: container.getConnectionUrl(),
    source: 'testcontainers',
    stop: async () => {
      await container.stop();
    },
  };
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Starts a `redis-server` from PATH on a free loopback port, or on `fixedPort` when given (to restart
 * a server that a test stopped, at the same address).
 */
export async function startRedisServer(extraArgs: string[] = [], cwd?: string, fixedPort?: number): Promise<RedisHandle> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = fixedPort ?? (await freePort());
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', ...extraArgs],
      { stdio: ['ignore', 'pipe', 'pipe'], cwd },
    );
    try {
      await waitForReady(child);
    } catch (error) {
      lastError = error; // most likely the port was taken between freePort() and the bind
      child.kill('SIGKILL');
      if (fixedPort !== undefined) await new Promise((resolve) => setTimeout(resolve, 200)); // same port: let it free up
      continue;
    }
    child.removeAllListeners('exit');
    return {
      url: `redis://127.0.0.1:${port}`,
      source: 'redis-server',
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    };
  }
  throw new Error(`could not start redis-server: ${String(lastError)}`);
}

/** Starts (or finds) a Redis; see the module comment for the order. */
export async function startRedis(): Promise<RedisHandle> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv !== undefined && fromEnv !== '') {
    return { url: fromEnv, source: 'REDIS_URL', stop: async () => undefined };
  }
  if (await dockerAnswers()) {
    try {
      return await startTestcontainer();
    } catch {
      // no image, no network: fall back to a local redis-server
    }
  }
  return startRedisServer();
}

export interface RedisClusterHandle {
  /** host/port of every master */
  nodes: Array<{ host: string; port: number }>;
  stop(): Promise<void>;
}

/**
 * A Redis Cluster: the nodes of `REDIS_CLUSTER_NODES` (`host:port,host:port,...`) when set, else
 * three local `redis-server --cluster-enabled yes` masters joined with `redis-cli --cluster create`
 * (https://redis.io/docs/latest/operate/oss_and_stack/management/scaling/), stopped by `stop()`.
 */
export async function startRedisCluster(): Promise<RedisClusterHandle> {
  const fromEnv = process.env.REDIS_CLUSTER_NODES;
  if (fromEnv !== undefined && fromEnv !== '') {
    const nodes = fromEnv.split(',').map((hp) => {
      const [host = '127.0.0.1', port = '6379'] = hp.trim().split(':');
      return { host, port: Number(port) };
    });
    return { nodes, stop: async () => undefined };
  }
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { execFile } = await import('node:child_process');
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const servers: RedisHandle[] = [];
  try {
    for (let i = 0; i < 3; i += 1) {
      servers.push(await startRedisServer(['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${i}.conf`], dir));
    }
    const addresses = servers.map((s) => s.url.replace('redis://', ''));
    await new Promise<void>((resolve, reject) =>
      execFile('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], (error, _out, stderr) =>
        error ? reject(new Error(`redis-cli --cluster create failed: ${stderr}`)) : resolve(),
      ),
    );
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    nodes: servers.map((s) => {
      const url = new URL(s.url);
      return { host: url.hostname, port: Number(url.port) };
    }),
    stop: async () => {
      await Promise.all(servers.map((s) => s.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
