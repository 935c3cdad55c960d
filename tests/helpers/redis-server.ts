/**
 * A Redis for the tests and the benchmarks. {@link startRedis} picks, in this order:
 * 1. the server named by `REDIS_TEST_URL`, when set: a test server the user names on purpose
 *    (nothing is started or stopped; see `redis.ts` for what the tests may do there). `REDIS_URL`
 *    is ignored: it is often set for an application's own Redis, which tests must never touch;
 * 2. a testcontainers Redis when a Docker engine answers;
 * 3. a `redis-server` from PATH on a free loopback port (`--save '' --appendonly no`), stopped by
 *    `stop()`.
 * The local `redis-server` plumbing ({@link freePort}, {@link spawnRedisServer},
 * {@link stopRedisServer}, {@link startRedisServer}) is exported for tests that need a server of
 * their own (stopped mid-run, TLS, cluster nodes: see `redis-cluster.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import type { Redis } from 'ioredis';

export interface RedisHandle {
  /** `redis://host:port` */
  url: string;
  /** Where it came from. */
  source: 'REDIS_TEST_URL' | 'testcontainers' | 'redis-server';
  /** Whether it is a named test server (`REDIS_TEST_URL`): not ours, shared, to be left as found. */
  named: boolean;
  /** Stops what this helper started (no-op for a named server). */
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

/**
 * Starts `redis-server` from PATH (or `binary`) with `--save '' --appendonly no --daemonize no` plus
 * `args` (which must give the port) in `cwd`, with `env` (default: this process' environment), and
 * resolves once it accepts connections; stop it with {@link stopRedisServer}. Rejects when it exits
 * first (e.g. the port is taken) or is not ready in 10 s (it is then killed).
 */
export function spawnRedisServer(args: string[], cwd?: string, binary = 'redis-server', env?: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(binary, ['--save', '', '--appendonly', 'no', '--daemonize', 'no', ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd, env });
  const port = args[args.indexOf('--port') + 1] ?? '?';
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server ${port} did not start:\n${output}`));
    }, 10_000);
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

/** Stops a server started by {@link spawnRedisServer} (SIGTERM) and resolves once it has exited. */
export function stopRedisServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts a `redis-server` from PATH bound to 127.0.0.1 on a free port, or on `fixedPort` when given
 * (to restart a server that a test stopped, at the same address), with `extraArgs`, in `cwd`.
 * Retries up to five times: the free port can be taken before the server binds it.
 */
export async function startRedisServer(extraArgs: string[] = [], cwd?: string, fixedPort?: number): Promise<RedisHandle> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = fixedPort ?? (await freePort());
    let child: ChildProcess;
    try {
      child = await spawnRedisServer(['--port', String(port), '--bind', '127.0.0.1', ...extraArgs], cwd);
    } catch (error) {
      lastError = error; // most likely the port was taken between freePort() and the bind
      if (fixedPort !== undefined) await new Promise((resolve) => setTimeout(resolve, 200)); // same port: let it free up
      continue;
    }
    return { url: `redis://127.0.0.1:${port}`, source: 'redis-server', named: false, stop: () => stopRedisServer(child) };
  }
  throw new Error(`could not start redis-server: ${String(lastError)}`);
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
    named: false,
    stop: async () => {
      await container.stop();
    },
  };
}

/** The URL of the test server the user named with `REDIS_TEST_URL`, or undefined. */
export function namedTestServer(): string | undefined {
  const url = process.env.REDIS_TEST_URL;
  return url === undefined || url === '' ? undefined : url;
}

/** Starts (or finds) a Redis; see the module comment for the order. */
export async function startRedis(): Promise<RedisHandle> {
  const named = namedTestServer();
  if (named !== undefined) return { url: named, source: 'REDIS_TEST_URL', named: true, stop: async () => undefined };
  if (await dockerAnswers()) {
    try {
      return await startTestcontainer();
    } catch {
      // no image, no network: fall back to a local redis-server
    }
  }
  return startRedisServer();
}

/** Deletes (UNLINK) every key matching the glob `pattern`, walking with SCAN. */
export async function unlinkMatching(client: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await client.unlink(...keys);
  } while (cursor !== '0');
}
