// redis-ttl-audit when things go wrong: a server that stops answering mid-scan (SIGSTOP), a TCP
// listener that never answers, TLS against a plain server, an ACL user limited to some keys, key
// names with glob characters or of 100 kB, and an install that lost its Redis client. Every case
// ends with exit code 2 (never a hang, never 1, which means "leaks found") and one line that names
// the server. Each test here uses a redis-server of its own (never a named REDIS_TEST_URL server).
import { execFile, type ChildProcess } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodeModule from 'node:module';
import { describeCrash, enableCompileCache } from '../../cli/process.js';
import { compileGlob } from '../../audit/glob.js';
import { freePort, spawnRedisServer, stopRedisServer } from '../helpers/redis-server.js';
import { runCli, runJson } from './run-cli.js';

const here = path.dirname(fileURLToPath(import.meta.url));
let server: ChildProcess;
let port: number;
let url: string;
let r: Redis;

beforeAll(async () => {
  port = await freePort();
  server = await spawnRedisServer(['--port', String(port), '--bind', '127.0.0.1']);
  url = `redis://127.0.0.1:${port}`;
  r = new Redis({ port, host: '127.0.0.1' });
});

afterAll(async () => {
  r?.disconnect();
  if (server) {
    server.kill('SIGCONT');
    await stopRedisServer(server);
  }
});

describe('no reply', () => {
  it('stops with exit 2 and the server named within --timeout when the server is paused mid-scan', async () => {
    const p = r.pipeline();
    for (let i = 0; i < 40_000; i += 1) p.set(`paused:${i}`, 'x');
    await p.exec();
    // 40,000 keys at 20,000 commands/s: about 2 s of scanning; paused once the scan has begun.
    const audit = runCli(['--url', url, '--max-ops-per-second', '20000', '--timeout', '1000']);
    const scans = async () => Number(/^cmdstat_scan:calls=(\d+)/m.exec(await r.info('commandstats'))?.[1] ?? 0);
    while ((await scans()) < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    server.kill('SIGSTOP');
    const paused = performance.now();
    let result;
    try {
      result = await audit;
    } finally {
      server.kill('SIGCONT');
      await r.flushall(); // this file's own server
    }
    const elapsed = performance.now() - paused;
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(`^redis-ttl-audit: 127\\.0\\.0\\.1:${port} did not answer (SCAN|PTTL) within 1000 ms \\(--timeout\\): the server is paused, overloaded or unreachable\\.\\n$`),
    );
    // the reply timeout is 1000 ms; the margin is for a busy machine
    expect(elapsed).toBeLessThan(1000 + 2000);
  });

  describe('a TCP listener that accepts and never answers', () => {
    let silent: Server;
    let silentPort: number;
    const sockets: Socket[] = [];
    beforeAll(async () => {
      silent = createServer((socket) => {
        sockets.push(socket);
        socket.on('data', () => undefined);
        socket.on('error', () => undefined);
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      silentPort = (silent.address() as { port: number }).port;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('fails the connection after --timeout, saying why: one deadline for the connection and its first reply', async () => {
      for (const cluster of [[], ['--cluster']]) {
        const started = performance.now();
        const result = await runCli(['--url', `redis://127.0.0.1:${silentPort}`, '--timeout', '1500', ...cluster]);
        const elapsed = performance.now() - started;
        // the TCP connect succeeds at once, the first reply never comes: --timeout in all (before:
        // a connect timeout, then a reply timeout, about twice --timeout)
        expect(elapsed, cluster.join(' ')).toBeGreaterThanOrEqual(1450);
        expect(elapsed, cluster.join(' ')).toBeLessThan(1500 + 700);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/: no answer within 1500 ms \(--timeout\): the server is paused, overloaded or not a Redis server, or a firewall drops the traffic\n$/);
      }
      const started = performance.now();
      const result = await runCli(['--url', `redis://127.0.0.1:${silentPort}`, '--timeout', '500']);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr:
          `redis-ttl-audit: cannot connect to redis://127.0.0.1:${silentPort}: no answer within 500 ms (--timeout): ` +
          'the server is paused, overloaded or not a Redis server, or a firewall drops the traffic\n',
      });
    });

    it('explains a TLS handshake that never completes: rediss:// against a plain server', async () => {
      const started = performance.now();
      const result = await runCli(['--url', `rediss://127.0.0.1:${port}`, '--timeout', '500']);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr:
          `redis-ttl-audit: cannot connect to rediss://127.0.0.1:${port}: no answer within 500 ms (--timeout). ` +
          'The TLS handshake did not complete: if the server does not use TLS, use redis:// instead of rediss://\n',
      });
    });
  });
});

describe('ACL', () => {
  it('names the refused key and suggests --match with the user\'s own key patterns', async () => {
    await r.set('app:1:profile', 'x');
    await r.set('other:1', 'y');
    await r.acl('SETUSER', 'app-only', 'on', '>pw', '~app:*', '+@all');
    try {
      const limited = url.replace('redis://', 'redis://app-only:pw@');
      const result = await runCli(['--url', limited]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(
          `^redis-ttl-audit: 127\\.0\\.0\\.1:${port} refused PTTL on key "other:1" \\(NOPERM [^)]*\\): this ACL user may read only some keys\\. ` +
            "Audit the keys it may read with --match 'app:\\*' \\(its key patterns\\)\\.\\n$",
        ),
      );
      const matched = await runJson(['--url', limited, '--match', 'app:*']);
      expect(matched.code).toBe(0);
      expect(matched.report.totals).toMatchObject({ keys: 1, noTtl: 1 });

      // a user that may not even run ACL GETUSER gets the generic hint
      await r.acl('SETUSER', 'app-only', '-acl');
      expect((await runCli(['--url', limited])).stderr).toContain("Audit the keys it may read with --match '<prefix>*' (ACL GETUSER lists the key patterns of a user).");

      // a user without SCAN is told which permissions the audit needs
      await r.acl('SETUSER', 'app-only', '-scan');
      expect((await runCli(['--url', limited, '--memory'])).stderr).toMatch(
        new RegExp(`^redis-ttl-audit: 127\\.0\\.0\\.1:${port} refused SCAN \\(NOPERM [^)]*\\): the audit needs the ACL permissions \\+info \\+dbsize \\+scan \\+pttl \\+memory\\.\\n$`),
      );
    } finally {
      await r.acl('DELUSER', 'app-only');
      await r.del('app:1:profile', 'other:1');
    }
  });
});

describe('ACL, binary key', () => {
  it('names a refused binary key as redis-cli shows it, escaped once', async () => {
    const binary = Buffer.from([0xff, 0xfe, 0x3a, 0x62]); // "\xff\xfe:b"
    await r.set(binary, 'x');
    await r.acl('SETUSER', 'app-only', 'on', '>pw', '~app:*', '+@all');
    try {
      const result = await runCli(['--url', url.replace('redis://', 'redis://app-only:pw@')]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^redis-ttl-audit: 127\\.0\\.0\\.1:${port} refused PTTL on key "\\\\xff\\\\xfe:b" \\(NOPERM `));
    } finally {
      await r.acl('DELUSER', 'app-only');
      await r.del(binary);
    }
  });
});

describe('key names in reports', () => {
  it('escapes glob characters, so a reported pattern pasted into --match finds its keys', async () => {
    const keys = ['jobs:[urgent]:1', 'jobs:[urgent]:2', 'what?:3', 'star*:4', 'back\\slash:5'];
    for (const key of keys) await r.set(key, 'x');
    try {
      const { report } = await runJson(['--url', url]);
      const patterns = report.patterns.map((p) => p.pattern).sort();
      expect(patterns).toEqual(['back\\\\slash:*', 'jobs:\\[urgent\\]:*', 'star\\*:*', 'what\\?:*']);
      for (const pattern of patterns) {
        expect(keys.filter((k) => compileGlob(pattern).test(k)).length, pattern).toBeGreaterThan(0);
        const again = await runJson(['--url', url, '--match', pattern]);
        expect(again.report.patterns.map((p) => p.pattern), pattern).toEqual([pattern]);
      }
      // `[urgent]` unescaped would be a set of letters and match none of these keys
      expect((await runJson(['--url', url, '--match', 'jobs:[urgent]:*'])).report.totals.keys).toBe(0);
    } finally {
      await r.del(...keys);
    }
  });

  it('cuts a 100 kB key name to 200 characters with its length, and its pattern to a 200-character glob', async () => {
    const key = `blob:${'z'.repeat(102_395)}`;
    await r.set(key, 'x');
    try {
      const { report } = await runJson(['--url', url, '--memory', '--fail-on-persistent', 'blob:*']);
      const pattern = report.patterns[0]!.pattern;
      expect(pattern).toBe(`blob:${'z'.repeat(195)}*`);
      expect(compileGlob(pattern).test(key)).toBe(true);
      expect(report.patterns[0]!.largest[0]!.key).toBe(`blob:${'z'.repeat(195)}… (102,400 bytes)`);
      expect(report.violations[0]!.examples).toEqual([`blob:${'z'.repeat(195)}… (102,400 bytes)`]);
      const table = await runCli(['--url', url, '--memory']);
      expect(Math.max(...table.stdout.split('\n').map((line) => line.length))).toBeLessThan(600);
    } finally {
      await r.del(key);
    }
  });
});

describe('a broken install', () => {
  const bin = path.resolve(here, '../../audit/cli/bin.ts');
  const hook = path.resolve(here, '../fixtures/hooks/no-ioredis.mjs');
  const exec = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', import.meta.resolve('tsx'), '--import', hook, bin, ...args], { env: { ...process.env, REDIS_URL: '' } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  it('--help and usage errors need no Redis client; a missing client is exit 2 and one line, never 1', async () => {
    const help = await exec(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: redis-ttl-audit [options]');
    expect((await exec(['--type', 'foo'])).code).toBe(2);
    const run = await exec(['--url', url]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^redis-ttl-audit: Cannot find package 'ioredis' imported from [^\n]+\nredis-ttl-audit: the installation of eslint-plugin-redis-ttl is incomplete; reinstall it \(npm install --save-dev eslint-plugin-redis-ttl\)\.\n$/);
  });

  it('reports any other escaped exception as a bug, with its stack', () => {
    expect(describeCrash('x', new TypeError('boom'))).toMatch(/^x: internal error, please report it at https:\/\/github\.com\/[^\n]+\nTypeError: boom\n/);
  });
});

describe("Node's compile cache", () => {
  it('is turned on once where node:module has enableCompileCache (Node >= 22.1), and skipped where it has not (Node 20)', () => {
    let calls = 0;
    expect(enableCompileCache({ enableCompileCache: () => (calls += 1) })).toBe(true);
    expect(calls).toBe(1);
    expect(enableCompileCache({})).toBe(false);
    expect(enableCompileCache()).toBe(typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function');
  });
});
