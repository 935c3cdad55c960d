/**
 * A redis-server whose wall clock the test steps: `clock-shim.c` preloaded (LD_PRELOAD), built
 * with the system's C compiler (`cc`; `.ci/run` installs one where there is none). The server's
 * TIME, its key expiry and everything else that reads the real-time clock see the real time plus
 * the offset the test sets; its monotonic clock (timers) is left alone.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, spawnRedisServer, stopRedisServer } from '../helpers/redis-server.js';

/** A redis-server on a clock of the test's. */
export interface SteppedServer {
  url: string;
  /** Sets the server's wall clock to the real time plus `offsetMs` (negative: behind), at once. */
  setOffset(offsetMs: number): void;
  stop(): Promise<void>;
}

/** Builds the shim into `dir` and returns its path. @throws when there is no C compiler. */
function buildShim(dir: string): string {
  const source = fileURLToPath(new URL('./clock-shim.c', import.meta.url));
  const output = path.join(dir, 'clock-shim.so');
  try {
    execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', output, source], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    throw new Error(`the clock-step tests need a C compiler (cc) to build ${source}: ${(error as Error).message}`, { cause: error });
  }
  return output;
}

/** Starts a redis-server on a free loopback port with a clock the test steps (offset 0 at first). */
export async function startSteppedServer(extraArgs: string[] = []): Promise<SteppedServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'redis-clock-'));
  const shim = buildShim(dir);
  const offsetFile = path.join(dir, 'offset');
  const fd = openSync(offsetFile, 'w+');
  const setOffset = (offsetMs: number): void => {
    const bytes = Buffer.alloc(8);
    // the shim reads it in host byte order
    if (endianness() === 'LE') bytes.writeBigInt64LE(BigInt(Math.trunc(offsetMs)));
    else bytes.writeBigInt64BE(BigInt(Math.trunc(offsetMs)));
    writeSync(fd, bytes, 0, 8, 0);
  };
  setOffset(0);
  const env = { ...process.env, LD_PRELOAD: shim, REDIS_TTL_CLOCK_FILE: offsetFile };
  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 0; child === undefined; attempt += 1) {
    port = await freePort();
    try {
      child = await spawnRedisServer(['--port', String(port), '--bind', '127.0.0.1', ...extraArgs], dir, 'redis-server', env);
    } catch (error) {
      if (attempt >= 4) throw error; // the free port was taken before the server bound it
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    setOffset,
    async stop() {
      await stopRedisServer(child!);
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
