// rediss:// URLs: the audit over TLS against a local redis-server with a test certificate
// (tests/audit/tls/), trusted through NODE_EXTRA_CA_CERTS, which Node reads at start-up only; so
// the runs that need it are subprocesses of the real executable.
import { execFile, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnRedisServer, stopRedisServer } from '../helpers/redis-server.js';
import { runCli } from './run-cli.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const tls = (file: string) => path.join(here, 'tls', file);
const bin = path.resolve(here, '../../audit/cli/bin.ts');
let server: ChildProcess;
let port: number;

beforeAll(async () => {
  port = await freePort();
  server = await spawnRedisServer([
    '--port', '0', '--bind', '127.0.0.1', '--tls-port', String(port),
    '--tls-cert-file', tls('server.crt'), '--tls-key-file', tls('server.key'), '--tls-ca-cert-file', tls('ca.crt'),
    '--tls-auth-clients', 'no', '--requirepass', 'tls-secret',
  ]);
  const client = new Redis({ port, host: '127.0.0.1', password: 'tls-secret', tls: { ca: readFileSync(tls('ca.crt')) } });
  await client.set('user:1:profile', 'x');
  await client.set('session:{a1b2c3}:pending', 'y', 'EX', 600);
  client.disconnect();
});

afterAll(async () => {
  if (server) await stopRedisServer(server);
});

function exec(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', import.meta.resolve('tsx'), bin, ...args], { env: { ...process.env, REDIS_URL: '', ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('rediss://', () => {
  it('audits over TLS with the password from the URL, for a host name and an address', async () => {
    for (const host of ['localhost', '127.0.0.1']) {
      const { code, stdout, stderr } = await exec(['--url', `rediss://:tls-secret@${host}:${port}`, '--format', 'json'], { NODE_EXTRA_CA_CERTS: tls('ca.crt') });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const report = JSON.parse(stdout) as { target: string; totals: { keys: number; noTtl: number }; patterns: { pattern: string }[] };
      expect(report.target).toBe(`rediss://:***@${host}:${port}`);
      expect(report.totals).toMatchObject({ keys: 2, noTtl: 1 });
      expect(report.patterns.map((p) => p.pattern)).toEqual(['user:*:profile', 'session:{*}:pending']);
    }
  });

  it('refuses a certificate it cannot verify, in one line', async () => {
    const { code, stdout, stderr } = await exec(['--url', `rediss://:tls-secret@localhost:${port}`], { NODE_EXTRA_CA_CERTS: '' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`^redis-ttl-audit: cannot connect to rediss://:\\*\\*\\*@localhost:${port}: [^\\n]*certificate[^\\n]*\\n$`));
  });

  it('hints at rediss:// when a plain connection meets the TLS port', async () => {
    const { code, stderr } = await runCli(['--url', `redis://127.0.0.1:${port}`]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^redis-ttl-audit: cannot connect to redis:\/\/127\.0\.0\.1:\d+: [^\n]*\(if the server expects TLS, use rediss:\/\/\)\n$/);
  });
});
