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

async function startRedisServer(): Promise<RedisHandle> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      await waitForReady(child);
    } catch (error) {
      lastError = error; // most likely the port was taken between freePort() and the bind
      child.kill('SIGKILL');
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
