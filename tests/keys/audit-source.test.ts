// End to end: a real redis-server (started by the tests) filled by running the fixture app's code
// paths (a bare SET, a hash write, INCR + EXPIRE in two round trips, an atomic SET ... EX, and an
// eval'd script whose HSET leaves no TTL), plus one live family no code of the app writes; then
// `redis-ttl-audit --source` names the file:line of every leaking shape and lists the foreign
// pattern with an empty writtenBy. `--source` and `--inventory` together join both. Database 11
// of a server the tests started.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { serializeInventory } from '../../inventory/format.js';
import { needsOwnServer, useRedis } from '../helpers/redis.js';
import { runCli, runJson } from '../audit/run-cli.js';
import { brokenSources } from './run-keys.js';
import { workload } from '../fixtures/keys/app/workload.js';

const redis = useRedis();
const DB = 11;
const ownServerOnly = needsOwnServer('tests/keys/audit-source.test.ts counts every key of a database it flushes');
const APP = 'tests/fixtures/keys/app';
let r: Redis;
let url: string;

beforeAll(async () => {
  if (ownServerOnly) return;
  url = `${redis.url().replace(/\/\d*$/, '')}/${DB}`;
  r = redis.client({ db: DB });
  await r.flushdb();
  await workload(r);
  // another service's keys: no code of the app writes them
  for (let i = 0; i < 4; i += 1) await r.set(`legacy:export:${i}`, 'x');
});

const site = (file: string, line: number, column: number, command: string, ttl: string) => ({ file: `${APP}/${file}`, line, column, command, ttl });

describe.skipIf(ownServerOnly)('redis-ttl-audit --source', () => {
  it('names the write site of every leaking shape, and an empty writtenBy for the live pattern no code writes', async () => {
    const { code, report, stderr } = await runJson(['--url', url, '--source', APP]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(report.totals).toMatchObject({ keys: 34, noTtl: 19 });
    expect(report.patterns.map((p) => [p.pattern, p.keys, p.noTtl, p.writtenBy])).toEqual([
      ['job:*:meta', 5, 5, [{ ...site('src/jobs.ts', 6, 1, 'HSET', 'none'), via: { file: `${APP}/src/jobs.ts`, line: 11, column: 10, key: "KEYS[1] .. ':meta'" } }]],
      ['profile:*', 5, 5, [site('src/profiles.ts', 7, 15, 'HSET', 'none')]],
      ['session:*', 5, 5, [site('src/sessions.ts', 5, 15, 'SET', 'none')]],
      ['hits:{*}', 5, 0, [site('src/profiles.ts', 15, 25, 'INCR', 'separate')]],
      ['job:*:lock', 5, 0, [{ ...site('src/jobs.ts', 5, 1, 'SET', 'atomic'), via: { file: `${APP}/src/jobs.ts`, line: 11, column: 10, key: "KEYS[1] .. ':lock'" } }]],
      ['page:*', 5, 0, [site('src/profiles.ts', 11, 15, 'SET', 'atomic')]],
      ['legacy:export:*', 4, 4, []],
    ]);
    const findings = report.findings!;
    expect(findings.leaking.map((f) => [f.pattern, f.cause, f.writtenBy.map((w) => `${w.file}:${w.line}`)])).toEqual([
      ['job:*:meta', 'site', [`${APP}/src/jobs.ts:6`]],
      ['profile:*', 'site', [`${APP}/src/profiles.ts:7`]],
      ['session:*', 'site', [`${APP}/src/sessions.ts:5`]],
      ['legacy:export:*', 'unwritten', []],
    ]);
    expect(findings.unwritten.map((f) => [f.pattern, f.keys, f.noTtl])).toEqual([['legacy:export:*', 4, 4]]);
  });

  it('joins --source and --inventory together, and shows the first site in the table', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keys-source-'));
    const file = path.join(dir, 'legacy.json');
    writeFileSync(
      file,
      serializeInventory({ version: 1, root: '.', shapes: [{ shape: 'legacy:export:*', writes: [{ file: 'export.py', line: 3, column: 5, command: 'SET', client: 'unknown', ttl: 'none' }] }] }),
    );
    const { code, report } = await runJson(['--url', url, '--source', APP, '--inventory', file]);
    expect(code).toBe(0);
    const legacy = report.patterns.find((p) => p.pattern === 'legacy:export:*')!;
    expect(legacy.writtenBy).toEqual([{ file: path.relative(process.cwd(), path.join(dir, 'export.py')), line: 3, column: 5, command: 'SET', ttl: 'none' }]);
    expect(report.findings!.unwritten).toEqual([]);
    const table = await runCli(['--url', url, '--source', APP]);
    expect(table.stdout.split('\n').find((l) => l.startsWith('session:*'))).toMatch(new RegExp(`^session:\\* +5 +5 .* ${APP}/src/sessions\\.ts:5:15$`));
  });

  it('names a source file that does not parse on standard error and audits with the rest', async () => {
    const dir = path.relative(process.cwd(), brokenSources());
    const { code, report, stderr } = await runJson(['--url', url, '--source', dir]);
    expect(code).toBe(0);
    expect(stderr).toBe(
      `redis-ttl-audit: --source ${dir}: ${dir}/broken.lua:2:1: the script does not parse: ')' expected near 'return' (skipped)\n` +
        `redis-ttl-audit: --source ${dir}: ${dir}/broken.ts:3:25: Parsing error: Expression expected. (skipped)\n`,
    );
    expect(report.patterns.length).toBeGreaterThan(0);
  });

  it('refuses a --source that matches no file before any command is sent (exit 2)', async () => {
    const { code, stderr } = await runCli(['--url', 'redis://127.0.0.1:1', '--source', 'tests/fixtures/keys/no-such-dir']);
    expect(code).toBe(2);
    expect(stderr).toBe('redis-ttl-audit: --source tests/fixtures/keys/no-such-dir: No such file or directory: "tests/fixtures/keys/no-such-dir".\n');
  });
});
