// End-to-end tests of redis-ttl-audit through main() (in-process) against a real Redis: a known
// population per test, exact counts, folded patterns, formats, policy warnings, exit codes,
// --fix-ttl, the rate limit and sampling. Database 9 of the test server, flushed before each test,
// with CONFIG SET and ACL users: so the whole file runs only on a server the tests started.
import fc from 'fast-check';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../audit/format.js';
import { wilson95 } from '../../audit/stats.js';
import { needsOwnServer, useRedis } from '../helpers/redis.js';
import { redactUrl } from '../../audit/url.js';
import { runCli, runJson } from './run-cli.js';

const redis = useRedis();
const DB = 9;
const ownServerOnly = needsOwnServer('tests/audit/cli.test.ts counts every key of a database it flushes, and sets eviction policies and ACL users');
let r: Redis;
let url: string;

beforeAll(() => {
  url = `${redis.url().replace(/\/\d*$/, '')}/${DB}`;
  r = redis.client({ db: DB });
});

beforeEach(async () => {
  await r.flushdb();
});

afterEach(async () => {
  await r.config('SET', 'maxmemory-policy', 'noeviction');
});

const hex6 = (i: number) => (0xa1b2c3 + i).toString(16);
const b64 = (i: number) => `Zk3pQ9xV2mN8bL4cR7tY${String(i).padStart(2, '0')}`; // 22 base64url characters

/**
 * The standard population, 249 keys, 134 without TTL:
 * user:<n>:profile ×120 no TTL; session:{<hex>}:pending ×60 EX 1800; rl:fixed:v1:{<b64>}:login ×40
 * (30 PX 30000, 10 without TTL); cache:<uuid> ×25 (20 EX 2 days, 5 EX 30 days); big:blob:<n> ×3
 * of 100 kB without TTL; config:feature-flags without TTL.
 */
async function seed(): Promise<{ rlNoTtl: string[]; rlWithTtl: string[] }> {
  const p = r.pipeline();
  for (let i = 1; i <= 120; i += 1) p.set(`user:${i}:profile`, 'x');
  for (let i = 0; i < 60; i += 1) p.set(`session:{${hex6(i)}}:pending`, 'y', 'EX', 1800);
  const rlNoTtl: string[] = [];
  const rlWithTtl: string[] = [];
  for (let i = 0; i < 40; i += 1) {
    const key = `rl:fixed:v1:{${b64(i)}}:login`;
    if (i < 30) {
      p.set(key, '1', 'PX', 30_000);
      rlWithTtl.push(key);
    } else {
      p.set(key, '1');
      rlNoTtl.push(key);
    }
  }
  for (let i = 0; i < 25; i += 1) p.set(`cache:${randomUUID()}`, 'z', 'EX', i < 20 ? 2 * 86_400 : 30 * 86_400);
  for (let i = 1; i <= 3; i += 1) p.set(`big:blob:${i}`, randomBytes(50_000).toString('hex'));
  p.set('config:feature-flags', '{}');
  await p.exec();
  return { rlNoTtl, rlWithTtl };
}

const none = { '<1m': 0, '<1h': 0, '<1d': 0, '<7d': 0, '>=7d': 0 };

async function pttls(keys: string[]): Promise<number[]> {
  return Promise.all(keys.map((k) => r.pttl(k)));
}

describe.skipIf(ownServerOnly)('report', () => {
  it('counts every key by folded pattern, with TTL buckets, in the json format', async () => {
    const { rlNoTtl } = await seed();
    const { code, report, stderr } = await runJson(['--url', url]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(Object.keys(report)).toEqual(['tool', 'version', 'target', 'cluster', 'nodes', 'totals', 'sample', 'patterns', 'warnings', 'notes', 'violations', 'fix', 'findings', 'growth']);
    expect(report.target).toBe(url);
    expect(report.totals).toMatchObject({ visited: 249, keys: 249, noTtl: 134, vanished: 0, changedType: 0, memoryBytes: null });
    expect(report.patterns.map((p) => [p.pattern, p.keys, p.noTtl, p.ttl])).toEqual([
      ['user:*:profile', 120, 120, none],
      ['session:{*}:pending', 60, 0, { ...none, '<1h': 60 }],
      ['rl:fixed:v1:{*}:login', 40, 10, { ...none, '<1m': 30 }],
      ['cache:*', 25, 0, { ...none, '<7d': 20, '>=7d': 5 }],
      ['big:blob:*', 3, 3, none],
      ['config:feature-flags', 1, 1, none],
    ]);
    const rl = report.patterns[2]!;
    expect(rl).toEqual({
      pattern: 'rl:fixed:v1:{*}:login',
      shape: null,
      writtenBy: null,
      keys: 40,
      noTtl: 10,
      memoryBytes: null,
      ttl: { ...none, '<1m': 30 },
      largest: [],
      idlest: [],
      examples: rl.examples,
      noTtlExamples: rl.noTtlExamples,
      noTtlShare: 0.25,
    });
    // the first keys the scan met (SCAN's order is the hash table's): 3 of the pattern, 5 of those without TTL
    expect(rl.examples).toHaveLength(3);
    for (const key of rl.examples) expect(key).toMatch(/^rl:fixed:v1:\{Zk3pQ9xV2mN8bL4cR7tY\d\d\}:login$/);
    expect(rl.noTtlExamples).toHaveLength(5);
    expect(new Set(rl.noTtlExamples).size).toBe(5);
    for (const key of rl.noTtlExamples) expect(rlNoTtl).toContain(key);
    expect(report.findings).toBeNull();
    expect(report.growth).toBeNull();
    expect(report.nodes).toHaveLength(1);
    expect(report.nodes[0]).toMatchObject({ dbsize: 249, maxmemory: 0, maxmemoryPolicy: 'noeviction', clusterEnabled: false });
    expect(report.nodes[0]!.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(report.sample).toBeNull();
    expect(report.fix).toBeNull();
    expect(report.warnings).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.violations).toEqual([]);
    // SCAN (at least one call) + one PTTL per key + INFO server, INFO cluster, DBSIZE, CONFIG GET.
    expect(report.totals.commands).toBeGreaterThanOrEqual(249 + 1 + 4);
    expect(report.totals.commands).toBeLessThanOrEqual(249 + 10 + 4);
  });

  it('measures memory with MEMORY USAGE and names the largest keys', async () => {
    await seed();
    const { report } = await runJson(['--url', url, '--memory', '--match', 'big:*', '--match', 'config:*']);
    const sizes = new Map<string, number>();
    for (const key of ['big:blob:1', 'big:blob:2', 'big:blob:3', 'config:feature-flags']) sizes.set(key, (await r.memory('USAGE', key)) as number);
    const blobs = ['big:blob:1', 'big:blob:2', 'big:blob:3'].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
    expect(report.totals.keys).toBe(4);
    expect(report.totals.memoryBytes).toBe([...sizes.values()].reduce((a, b) => a + b, 0));
    expect(report.patterns.map((p) => [p.pattern, p.memoryBytes])).toEqual([
      ['big:blob:*', blobs.reduce((n, k) => n + sizes.get(k)!, 0)],
      ['config:feature-flags', sizes.get('config:feature-flags')],
    ]);
    expect(report.patterns[0]!.largest.map((k) => k.bytes)).toEqual(blobs.map((k) => sizes.get(k)));
    expect(sizes.get('big:blob:1')).toBeGreaterThan(100_000);
    const table = await runCli(['--url', url, '--memory', '--match', 'big:*']);
    const largest = `${(sizes.get(blobs[0]!)! / 1024).toFixed(1)} KB`; // the blobs may tie: any name
    expect(table.stdout).toMatch(new RegExp(`\\nExamples:\\n  big:blob:\\*: largest big:blob:[123] \\(${largest.replace('.', '\\.')}\\)\\n`));
  });

  it('names the idlest keys with OBJECT IDLETIME', async () => {
    for (let i = 1; i <= 5; i += 1) await r.set(`job:${i}:state`, 'x');
    await sleep(2_200);
    for (const i of [1, 2, 4]) await r.get(`job:${i}:state`); // 3 and 5 stay idle
    const { report } = await runJson(['--url', url, '--idle']);
    const idlest = report.patterns[0]!.idlest;
    expect(idlest.map((k) => k.key).slice(0, 2).sort()).toEqual(['job:3:state', 'job:5:state']);
    expect(idlest[0]!.idleSeconds).toBeGreaterThanOrEqual(2);
    expect(idlest[2]!.idleSeconds).toBeLessThan(2);
  });

  it('prints a table with one row per pattern (and only the --top largest)', async () => {
    await seed();
    const { code, stdout } = await runCli(['--url', url, '--top', '3']);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^redis-ttl-audit \d+\.\d+\.\d+ · redis:\/\/127\.0\.0\.1:\d+\/9 · 1 server · 249 keys in 6 patterns, 134 without TTL \(53\.8%\) · \d+\.\d s, [\d,]+ commands$/);
    expect(lines.slice(1, 8)).toEqual([
      '',
      'PATTERN                KEYS  NO TTL   SHARE  TTL<1m  TTL<1h  TTL<1d  TTL<7d  TTL>=7d',
      'user:*:profile          120     120  100.0%       0       0       0       0        0',
      'session:{*}:pending      60       0    0.0%       0      60       0       0        0',
      'rl:fixed:v1:{*}:login    40      10   25.0%      30       0       0       0        0',
      '... and 3 smaller patterns (--top, or --format json/csv for all).',
      '',
    ]);
    expect(lines[8]).toBe('Servers:');
    expect(lines[9]).toMatch(/^ {2}127\.0\.0\.1:\d+ {2}redis 7\.\d+\.\d+ {2}DBSIZE 249 {2}maxmemory 0 \(no limit\) {2}policy noeviction$/);
  });

  it('writes csv: a header and one row per pattern', async () => {
    await seed();
    const { code, stdout } = await runCli(['--url', url, '--format', 'csv', '--match', 'rl:*', '--match', 'user:1*', '--match', 'config:*']);
    expect(code).toBe(0);
    expect(CSV_COLUMNS.join(',')).toBe(
      'pattern,keys,no_ttl,no_ttl_share,estimated_keys,memory_bytes,ttl_lt_1m,ttl_lt_1h,ttl_lt_1d,ttl_lt_7d,ttl_ge_7d,largest_key,largest_bytes,idlest_key,idlest_seconds,shape,written_by,written_by_count,findings,no_ttl_before,no_ttl_growth',
    );
    // user:1*: 1, 10-19, 100-120 = 32 keys
    expect(stdout).toBe(
      [
        CSV_COLUMNS.join(','),
        'rl:fixed:v1:{*}:login,40,10,0.25,,,30,0,0,0,0,,,,,,,,,,',
        'user:*:profile,32,32,1,,,0,0,0,0,0,,,,,,,,,,',
        'config:feature-flags,1,1,1,,,0,0,0,0,0,,,,,,,,,,',
        '',
      ].join('\n'),
    );
  });

  it('quotes csv cells with commas and quotes', async () => {
    await r.set('tag:"a,b"', '1');
    const { stdout } = await runCli(['--url', url, '--format', 'csv']);
    expect(stdout.split('\n')[1]).toBe('"tag:""a,b""",1,1,1,,,0,0,0,0,0,,,,,,,,,,');
  });

  it('neutralises csv cells a spreadsheet would run as formulas (OWASP CSV injection)', async () => {
    await r.set("=cmd|' /C calc'!A0", '1');
    await r.set('@SUM(1+1)', '1', 'EX', 100);
    await r.set('+SUM(A1:A2)', '1', 'EX', 100);
    const { stdout } = await runCli(['--url', url, '--format', 'csv']);
    expect(stdout.split('\n').slice(1).sort()).toEqual([
      '',
      `"'+SUM(A1:A2)",1,0,0,,,0,1,0,0,0,,,,,,,,,,`,
      `"'=cmd|' /C calc'!A0",1,1,1,,,0,0,0,0,0,,,,,,,,,,`,
      `"'@SUM(1+1)",1,0,0,,,0,1,0,0,0,,,,,,,,,,`,
    ]);
  });

  it('filters by --type on the server and folds ids the rules do not know by their number', async () => {
    for (let i = 0; i < 40; i += 1) await r.hset(`account:${['alice', 'bob', 'carol', 'dave'][i % 4]}${'xyz'[i % 3]}${i}x:prefs`, 'a', '1');
    const names = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy'];
    for (const name of names) for (const suffix of ['', 'a', 'b', 'c']) await r.set(`profile:${name}${suffix}:avatar`, 'x', 'EX', 100);
    await r.set('account:zz:prefs', 'not a hash');
    const { report } = await runJson(['--url', url, '--type', 'hash']);
    expect(report.patterns.map((p) => [p.pattern, p.keys])).toEqual([['account:*:prefs', 40]]);
    const all = await runJson(['--url', url]);
    // 40 profile:<name>:avatar siblings are more than the 32 threshold: one pattern.
    expect(all.report.patterns.map((p) => [p.pattern, p.keys, p.noTtl])).toEqual([
      ['account:*:prefs', 41, 41],
      ['profile:*:avatar', 40, 0],
    ]);
  });

  it('shows binary key names with \\x escapes', async () => {
    await r.set(Buffer.from([0x62, 0x69, 0x6e, 0x3a, 0xff, 0x00]), '1');
    const { report } = await runJson(['--url', url]);
    expect(report.patterns.map((p) => p.pattern)).toEqual(['bin:\\xff\\x00']);
  });
});

describe.skipIf(ownServerOnly)('eviction policy checks', () => {
  it('warns when keys without TTL meet a volatile-* policy', async () => {
    await seed();
    await r.config('SET', 'maxmemory-policy', 'volatile-lru');
    const { report } = await runJson(['--url', url]);
    expect(report.warnings).toEqual([
      {
        code: 'volatile-policy-no-ttl',
        node: report.nodes[0]!.address,
        message:
          'maxmemory-policy is volatile-lru, which evicts only keys with a TTL: the 134 key(s) without TTL found here can never be evicted.',
        patterns: ['user:*:profile', 'rl:fixed:v1:{*}:login', 'big:blob:*', 'config:feature-flags'],
      },
    ]);
  });

  it('warns when limiter keys live under an allkeys-* policy, and says nothing under noeviction', async () => {
    await seed();
    await r.set('throttle:42', '1', 'EX', 60);
    await r.set('api:RateLimit:7', '1', 'EX', 60);
    await r.config('SET', 'maxmemory-policy', 'allkeys-lfu');
    const { report } = await runJson(['--url', url]);
    expect(report.warnings.map((w) => [w.code, w.patterns])).toEqual([
      ['allkeys-policy-limiter-keys', ['rl:fixed:v1:{*}:login', 'api:RateLimit:*', 'throttle:*']],
    ]);
    await r.config('SET', 'maxmemory-policy', 'noeviction');
    expect((await runJson(['--url', url])).report.warnings).toEqual([]);
  });

  it('notes an LFU policy hiding idle times instead of failing', async () => {
    await r.set('a:1', '1');
    await r.config('SET', 'maxmemory-policy', 'allkeys-lfu');
    const { code, report } = await runJson(['--url', url, '--idle']);
    expect(code).toBe(0);
    expect(report.patterns[0]!.idlest).toEqual([]);
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]).toMatch(/^OBJECT IDLETIME failed \(.*LFU.*\): idle times are missing\.$/);
  });

  it('handles CONFIG GET refused by an ACL with a note, authenticating through the URL', async () => {
    await seed();
    await r.acl('SETUSER', 'auditor', 'on', '>s3cret', '~*', '&*', '+@all', '-config');
    try {
      const authUrl = url.replace('redis://', 'redis://auditor:s3cret@');
      const { code, report } = await runJson(['--url', authUrl]);
      expect(code).toBe(0);
      expect(report.target).toBe(url.replace('redis://', 'redis://auditor:***@'));
      expect(report.totals.keys).toBe(249);
      expect(report.nodes[0]).toMatchObject({ maxmemory: null, maxmemoryPolicy: null });
      expect(report.nodes[0]!.configError).toMatch(/^NOPERM/);
      expect(report.notes).toEqual([
        `CONFIG GET refused on ${report.nodes[0]!.address} (${report.nodes[0]!.configError}): maxmemory and the eviction policy were not checked.`,
      ]);
      const table = await runCli(['--url', authUrl]);
      expect(table.stdout).toContain('maxmemory ?  policy ?');

      const wrong = await runCli(['--url', url.replace('redis://', 'redis://auditor:nope@')]);
      expect(wrong.code).toBe(2);
      expect(wrong.stdout).toBe('');
      expect(wrong.stderr).toMatch(/^redis-ttl-audit: cannot connect to redis:\/\/auditor:\*\*\*@127\.0\.0\.1:\d+\/9: WRONGPASS[^\n]*\n$/);
    } finally {
      await r.acl('DELUSER', 'auditor');
    }
  });
});

describe.skipIf(ownServerOnly)('database selection', () => {
  it('stops with exit 2 before any scan or write when the server refuses SELECT (ACL without +select)', async () => {
    // The same key in database 0 and in the URL's database: neither may be touched.
    const db0 = redis.client({ db: 0 });
    await r.set('rl-hash', 'x');
    await db0.set('rl-hash', 'y');
    await r.acl('SETUSER', 'noselect', 'on', '>s3cret', '~*', '+@read', '+scan', '+ttl', '+pttl', '+dbsize', '+info', '+expire', '-select');
    try {
      const authUrl = url.replace('redis://', 'redis://noselect:s3cret@');
      const fix = await runCli(['--url', authUrl, '--match', 'rl-hash', '--fix-ttl', '600', '--yes']);
      expect(fix.stdout).toBe('');
      expect(fix.stderr).toMatch(
        new RegExp(`^redis-ttl-audit: cannot select database ${DB} on redis://noselect:\\*\\*\\*@127\\.0\\.0\\.1:\\d+/${DB}: NOPERM [^\\n]*'select'[^\\n]*\\n$`),
      );
      expect(fix.code).toBe(2);
      expect(await r.pttl('rl-hash')).toBe(-1);
      expect(await db0.pttl('rl-hash')).toBe(-1);

      const audit = await runCli(['--url', authUrl]);
      expect({ code: audit.code, stdout: audit.stdout }).toEqual({ code: 2, stdout: '' });
      expect(audit.stderr).toContain('NOPERM');
    } finally {
      await r.acl('DELUSER', 'noselect');
      await db0.del('rl-hash');
    }
  });

  it('stops with exit 2 on a database the server does not have', async () => {
    await r.set('k', 'v');
    const { code, stdout, stderr } = await runCli(['--url', url.replace(/\/\d+$/, '/100000'), '--match', 'k', '--fix-ttl', '600', '--yes']);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toMatch(/^redis-ttl-audit: cannot select database 100000 on redis:\/\/127\.0\.0\.1:\d+\/100000: ERR [^\n]*\n$/);
  });
});

describe.skipIf(ownServerOnly)('--fail-on-persistent', () => {
  it('exits 1 when keys matching a must-expire glob have no TTL, 0 when they all have one', async () => {
    const { rlNoTtl } = await seed();
    const failing = await runJson(['--url', url, '--fail-on-persistent', 'rl:*', '--fail-on-persistent', 'session:*']);
    expect(failing.code).toBe(1);
    expect(failing.report.violations.map((v) => [v.pattern, v.keys])).toEqual([
      ['rl:*', 10],
      ['session:*', 0],
    ]);
    expect(failing.report.violations[0]!.examples).toHaveLength(5);
    for (const key of failing.report.violations[0]!.examples) expect(rlNoTtl).toContain(key);

    const passing = await runCli(['--url', url, '--fail-on-persistent', 'session:*', '--fail-on-persistent', 'cache:*']);
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain('\nMust expire (--fail-on-persistent):\n  ok   session:*: every matching key has a TTL\n  ok   cache:*: every matching key has a TTL\n');

    const table = await runCli(['--url', url, '--fail-on-persistent', 'big:blob:[13]']);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/\n {2}FAIL big:blob:\[13\]: 2 keys without TTL, e\.g\. big:blob:[13], big:blob:[13]\n/);
  });

  it('says on standard error why it exits 1, in every format', async () => {
    await seed();
    for (const format of ['table', 'json', 'csv']) {
      const run = await runCli(['--url', url, '--format', format, '--fail-on-persistent', 'config:*', '--fail-on-persistent', 'session:*']);
      expect({ format, code: run.code, stderr: run.stderr }).toEqual({
        format,
        code: 1,
        stderr:
          "redis-ttl-audit: --fail-on-persistent 'config:*': 1 key without TTL (e.g. config:feature-flags): " +
          "give them an expiry (or --fix-ttl <seconds> with --match 'config:*').\n",
      });
    }
    expect((await runCli(['--url', url, '--format', 'csv', '--fail-on-persistent', 'session:*'])).stderr).toBe('');
  });

  it('notes that --match limits what it checks', async () => {
    await seed();
    const { code, report } = await runJson(['--url', url, '--match', 'session:*', '--fail-on-persistent', 'rl:*']);
    expect(code).toBe(0);
    expect(report.violations).toEqual([{ pattern: 'rl:*', keys: 0, examples: [] }]);
    expect(report.notes).toEqual(['--fail-on-persistent saw only the keys selected by --match.']);
  });

  it('lists up to 100 examples with --verbose', async () => {
    await seed();
    const { report } = await runJson(['--url', url, '--fail-on-persistent', 'user:*', '--verbose']);
    expect(report.violations[0]!.keys).toBe(120);
    expect(report.violations[0]!.examples).toHaveLength(100);
  });
});

describe.skipIf(ownServerOnly)('--fix-ttl', () => {
  it('adds the TTL to exactly the matching keys without one (EXPIRE NX), listing them with --verbose', async () => {
    const { rlNoTtl, rlWithTtl } = await seed();
    const before = await pttls(rlWithTtl);
    const { code, report } = await runJson(['--url', url, '--match', 'rl:*', '--fix-ttl', '600', '--yes', '--verbose']);
    expect(code).toBe(0);
    expect(report.fix).toMatchObject({ seconds: 600, candidates: 10, changed: 10, skipped: 0 });
    expect([...report.fix!.keys!].sort()).toEqual([...rlNoTtl].sort());
    for (const pttl of await pttls(rlNoTtl)) {
      expect(pttl).toBeGreaterThan(590_000);
      expect(pttl).toBeLessThanOrEqual(600_000);
    }
    const after = await pttls(rlWithTtl);
    after.forEach((pttl, i) => {
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(before[i]!); // the existing, shorter TTL was not touched
    });
    expect(await r.pttl('user:1:profile')).toBe(-1); // outside --match
    expect(await r.pttl('config:feature-flags')).toBe(-1);

    const again = await runCli(['--url', url, '--match', 'rl:*', '--fix-ttl', '600', '--yes']);
    expect(again.stdout).toContain('\nFix: EXPIRE <key> 600 NX added a TTL of 600 s to 0 keys.\n');
  });

  it('leaves alone a key that gained a TTL between PTTL and EXPIRE (NX)', async () => {
    for (let i = 0; i < 5; i += 1) await r.set(`race:${i}`, '1');
    // MONITOR sees each PTTL of the audit; another client then gives that key a TTL. At 20 ops/s
    // the audit sends one command per 50 ms, so its EXPIRE ... NX comes after ours.
    const monitor = await redis.client().monitor();
    const other = redis.client({ db: DB });
    const raced: Promise<unknown>[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === 'pttl' && args[1]?.startsWith('race:')) raced.push(other.pexpire(args[1], 5_000));
    });
    try {
      const { report } = await runJson(['--url', url, '--match', 'race:*', '--fix-ttl', '600', '--yes', '--max-ops-per-second', '20']);
      await Promise.all(raced);
      expect(raced).toHaveLength(5);
      expect(report.totals.noTtl).toBe(5);
      expect(report.fix).toEqual({ seconds: 600, candidates: 5, changed: 0, skipped: 5 });
      for (const pttl of await pttls([...Array(5).keys()].map((i) => `race:${i}`))) expect(pttl).toBeLessThanOrEqual(5_000);
    } finally {
      monitor.disconnect();
    }
  });

  it('prints the count in the table', async () => {
    await seed();
    const { stdout } = await runCli(['--url', url, '--match', 'big:*', '--fix-ttl', '86400', '--yes', '--verbose']);
    expect(stdout).toMatch(/\nFix: EXPIRE <key> 86400 NX added a TTL of 86,400 s to 3 keys\.\n( {2}big:blob:[123]\n){3}$/);
    await r.set('one:key', '1');
    const one = await runCli(['--url', url, '--match', 'one:*', '--fix-ttl', '60', '--yes']);
    expect(one.stdout).toContain('\nFix: EXPIRE <key> 60 NX added a TTL of 60 s to 1 key.\n');
  });

  it('refuses without --yes when not on a terminal, and asks on one', async () => {
    const { rlNoTtl } = await seed();
    const refused = await runCli(['--url', url, '--match', 'rl:*', '--fix-ttl', '600']);
    expect(refused).toEqual({ code: 2, stdout: '', stderr: 'redis-ttl-audit: --fix-ttl changes keys: pass --yes, or run it on a terminal to confirm.\n' });
    expect(await pttls(rlNoTtl)).toEqual(rlNoTtl.map(() => -1));

    const declined = await runCli(['--url', url, '--match', 'rl:*', '--fix-ttl', '600', '--no-progress'], { tty: true, stdin: 'n\n' });
    // its own exit code: neither a clean audit (0), leaks (1) nor an error (2)
    expect(declined.code).toBe(3);
    expect(declined.stderr).toBe(
      `This runs EXPIRE <key> 600 NX on every key without TTL matching 'rl:*' on ${url}. Continue? [y/N] redis-ttl-audit: nothing changed.\n`,
    );
    expect(await pttls(rlNoTtl)).toEqual(rlNoTtl.map(() => -1));

    const accepted = await runJson(['--url', url, '--match', 'rl:*', '--fix-ttl', '600', '--no-progress'], { tty: true, stdin: 'yes\n' });
    expect(accepted.code).toBe(0);
    expect(accepted.report.fix!.changed).toBe(10);
    expect((await pttls(rlNoTtl)).every((t) => t > 590_000)).toBe(true);
  });

  it('needs --match and refuses --sample', async () => {
    const noMatch = await runCli(['--url', url, '--fix-ttl', '60', '--yes']);
    expect(noMatch).toEqual({ code: 2, stdout: '', stderr: 'redis-ttl-audit: --fix-ttl needs --match: say which keys may get an expiry.\n' });
    const sampled = await runCli(['--url', url, '--match', 'a*', '--fix-ttl', '60', '--yes', '--sample', '10']);
    expect(sampled.code).toBe(2);
    expect(sampled.stderr).toBe('redis-ttl-audit: --fix-ttl cannot be combined with --sample: it must see every matching key.\n');
  });
});

describe.skipIf(ownServerOnly)('keys that change during the scan', () => {
  /**
   * Runs `change` once, when MONITOR sees the audit's first PTTL, that is once SCAN has returned
   * the keys: tied to the audit's progress rather than to a timer, which a loaded machine can make
   * fire before the audit has even connected.
   */
  async function afterFirstPttl(change: () => Promise<unknown>): Promise<{ done: () => Promise<void>; stop: () => void }> {
    let fired: Promise<unknown> | undefined;
    const monitor = await redis.client().monitor();
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (fired === undefined && args[0]?.toLowerCase() === 'pttl') fired = change();
    });
    return {
      done: async () => {
        expect(fired, 'the audit sent no PTTL').toBeDefined();
        await fired;
      },
      stop: () => monitor.disconnect(),
    };
  }

  it('skips keys that expire between SCAN and PTTL and counts them as vanished', async () => {
    const p = r.pipeline();
    for (let i = 0; i < 50; i += 1) p.set(`stay:${i}`, '1');
    for (let i = 0; i < 100; i += 1) p.set(`short:${i}`, '1', 'PX', 60_000);
    await p.exec();
    // Once SCAN has returned them, the short keys get 300 ms to live. 150 ops/s: PTTLs go out 7 at
    // a time every ~50 ms for 1 s, so the later ones come after the expiry.
    const expiry = await afterFirstPttl(() => {
      const q = r.pipeline();
      for (let i = 0; i < 100; i += 1) q.pexpire(`short:${i}`, 300);
      return q.exec();
    });
    let report;
    try {
      ({ report } = await runJson(['--url', url, '--max-ops-per-second', '150']));
      await expiry.done();
    } finally {
      expiry.stop();
    }
    const short = report.patterns.find((x) => x.pattern === 'short:*')?.keys ?? 0;
    expect(report.totals.vanished).toBeGreaterThan(0);
    expect(short + report.totals.vanished).toBe(100);
    expect(report.patterns.find((x) => x.pattern === 'stay:*')?.keys).toBe(50);
    expect(report.totals.keys).toBe(50 + short);
  });

  it('skips keys that changed type since SCAN (with --type)', async () => {
    const p = r.pipeline();
    for (let i = 0; i < 50; i += 1) p.set(`mut:${i}`, '1').set(`keep:${i}`, '1');
    await p.exec();
    // Once SCAN has returned them, the mut keys become hashes. 2 commands per key (PTTL, TYPE) at
    // 150 ops/s: about 1.3 s for 100 keys, so most are inspected after the change.
    const mutate = await afterFirstPttl(() => {
      const q = r.multi(); // atomic: the audit never sees a key between DEL and HSET
      for (let i = 0; i < 50; i += 1) q.del(`mut:${i}`).hset(`mut:${i}`, 'f', '1');
      return q.exec();
    });
    let report;
    try {
      ({ report } = await runJson(['--url', url, '--type', 'string', '--max-ops-per-second', '150']));
      await mutate.done();
    } finally {
      mutate.stop();
    }
    const mut = report.patterns.find((x) => x.pattern === 'mut:*')?.keys ?? 0;
    expect(report.totals.changedType).toBeGreaterThan(0);
    expect(mut + report.totals.changedType).toBe(50);
    expect(report.patterns.find((x) => x.pattern === 'keep:*')?.keys).toBe(50);
    expect(report.totals.vanished).toBe(0);
  });
});

describe.skipIf(ownServerOnly)('rate limit and progress', () => {
  async function commandsProcessed(): Promise<number> {
    return Number(/total_commands_processed:(\d+)/.exec(await r.info('stats'))![1]);
  }

  it('keeps the command rate under --max-ops-per-second (measured loosely)', async () => {
    const p = r.pipeline();
    for (let i = 0; i < 1500; i += 1) p.set(`fill:${i}`, '1');
    await p.exec();
    const before = await commandsProcessed();
    const started = performance.now();
    const { report } = await runJson(['--url', url, '--max-ops-per-second', '2000']);
    const seconds = (performance.now() - started) / 1000;
    const sent = (await commandsProcessed()) - before;
    expect(report.totals.keys).toBe(1500);
    // What the server counted: the audit's commands plus the connection's own (INFO, SELECT, QUIT) and ours.
    expect(sent).toBeGreaterThanOrEqual(report.totals.commands);
    expect(sent).toBeLessThanOrEqual(report.totals.commands + 10);
    // ~1500 commands at 2000/s take ~0.75 s: well over 0.5 s, and the rate stays well under 2x.
    expect(seconds).toBeGreaterThan(0.5);
    expect(sent / seconds).toBeLessThan(4000);
    const unlimited = performance.now();
    await runJson(['--url', url, '--max-ops-per-second', '0']);
    expect(performance.now() - unlimited).toBeLessThan((seconds * 1000) / 2);
  });

  it('draws a progress bar on standard error only when it is a terminal', async () => {
    await seed();
    const tty = await runCli(['--url', url], { tty: true });
    expect(tty.code).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(tty.stderr).toMatch(/^\r\[#+-*\] +\d+% [\d,]+\/249 keys · [\d,]+ ops\/s · eta \d+ s\u001b\[K/);
    expect(tty.stderr.endsWith('\r\u001b[K')).toBe(true);
    expect((await runCli(['--url', url], { tty: false })).stderr).toBe('');
    expect((await runCli(['--url', url, '--no-progress'], { tty: true })).stderr).toBe('');
  });
});

describe.skipIf(ownServerOnly)('--sample', () => {
  it('stops after n keys and extrapolates to DBSIZE with a 95% interval', async () => {
    const p = r.pipeline();
    for (let i = 0; i < 4000; i += 1) {
      if (i % 10 === 0) p.set(`leak:${i}`, '1');
      else p.set(`ok:${i}`, '1', 'EX', 3600);
    }
    await p.exec();
    const { report } = await runJson(['--url', url, '--sample', '800']);
    const s = report.sample!;
    expect(report.totals.keys).toBe(800);
    expect(s).toMatchObject({ requested: 800, stoppedEarly: true, visited: 800, population: 4000, estimatedKeys: 4000 });
    expect(s.noTtlShare).toEqual(wilson95(report.totals.noTtl, 800, 4000));
    expect(s.estimatedNoTtl).toEqual({
      value: Math.round(s.noTtlShare.share * 4000),
      low: Math.round(s.noTtlShare.low * 4000),
      high: Math.round(s.noTtlShare.high * 4000),
    });
    // The true share is 10%; the 95% interval is about ±2 points wide. Loosely: within 5 points.
    expect(s.noTtlShare.low).toBeLessThan(0.15);
    expect(s.noTtlShare.high).toBeGreaterThan(0.05);
    expect(report.patterns.map((x) => [x.pattern, x.estimatedKeys])).toEqual(
      report.patterns.map((x) => [x.pattern, Math.round(x.keys * 5)]),
    );
    const table = await runCli(['--url', url, '--sample', '800']);
    expect(table.stdout).toMatch(/\nSample: 800 keys inspected of 800 visited, DBSIZE 4,000: about 4,000 matching keys, \d+\.\d% without TTL \(95% CI \d+\.\d%–\d+\.\d%, about [\d,]+ keys, [\d,]+–[\d,]+\)\.\n/);
    expect(table.stdout).toContain('EST. KEYS');
  });

  it('counts every visited key to extrapolate a --match sample', async () => {
    const p = r.pipeline();
    for (let i = 0; i < 3000; i += 1) p.set(i % 3 === 0 ? `want:${i}` : `other:${i}`, '1');
    await p.exec();
    const { report } = await runJson(['--url', url, '--match', 'want:*', '--sample', '300']);
    const s = report.sample!;
    expect(report.totals.keys).toBe(300);
    expect(s.visited).toBeGreaterThan(300);
    expect(s.estimatedKeys).toBe(Math.round((300 * 3000) / s.visited));
    expect(s.noTtlShare).toEqual(wilson95(300, 300, s.estimatedKeys));
    expect(s.estimatedKeys).toBeGreaterThan(600);
    expect(s.estimatedKeys).toBeLessThan(1500);
  });

  it('says the numbers are exact when the scan ends before the sample is full', async () => {
    await seed();
    const { report } = await runJson(['--url', url, '--sample', '1000']);
    expect(report.sample).toMatchObject({ requested: 1000, stoppedEarly: false, visited: 249, population: 249, estimatedKeys: 249 });
    expect(report.sample!.noTtlShare).toEqual({ share: 134 / 249, low: 134 / 249, high: 134 / 249 });
    expect(report.patterns.every((x) => x.estimatedKeys === undefined)).toBe(true);
  });
});

describe.skipIf(ownServerOnly)('usage and connection errors', () => {
  it('prints help with examples, and the version', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: redis-ttl-audit [options]');
    expect(help.stdout).toContain("$ redis-ttl-audit --fail-on-persistent 'session:*'");
    expect(help.stdout).toContain(
      'Exit codes: 0 audited, 1 --fail-on-persistent found keys without TTL or --fail-on-growth was\nexceeded, 2 usage, file, connection, timeout or permission error, 3 the --fix-ttl confirmation\nwas declined (nothing changed).',
    );
    const version = await runCli(['--version']);
    const packageJson = JSON.parse(readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json'), 'utf8')) as { version: string };
    expect(version).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
    // -v and -V both work, as in lua-lint
    expect(await runCli(['-v'])).toEqual(version);
    expect(await runCli(['-V'])).toEqual(version);
    expect(help.stdout).toMatch(/\n {2}-V, --version +print the version \(also -v\)\n/);
  });

  it('exits 2 with one line (and a pointer to --help) on bad arguments', async () => {
    expect(await runCli(['--count', 'ten'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "redis-ttl-audit: option '--count <n>' argument 'ten' is invalid. expected a whole number >= 1, got \"ten\".\nRun \"redis-ttl-audit --help\" for usage.\n",
    });
    expect(await runCli(['--type', 'foo'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'redis-ttl-audit: option \'--type <type>\' argument \'foo\' is invalid. Allowed choices are string, list, set, zset, hash, stream.\n' +
        'Run "redis-ttl-audit --help" for usage.\n',
    });
    expect(await runCli(['--match', 'x:*', '--fix-ttl', '86400000', '--yes'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "redis-ttl-audit: option '--fix-ttl <seconds>' argument '86400000' is invalid. expected a whole number from 1 to 31,536,000, got \"86400000\". " +
        'A TTL above 365 days is almost always milliseconds given as seconds, and a key meant to expire that lives for years still leaks.\n' +
        'Run "redis-ttl-audit --help" for usage.\n',
    });
    // only a TTL above the limit gets the sentence about milliseconds
    expect(await runCli(['--match', 'x:*', '--fix-ttl', '0', '--yes'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "redis-ttl-audit: option '--fix-ttl <seconds>' argument '0' is invalid. expected a whole number from 1 to 31,536,000, got \"0\".\n" +
        'Run "redis-ttl-audit --help" for usage.\n',
    });
    for (const bad of [['--fix-ttl', '0'], ['--fix-ttl', '1.5'], ['--fix-ttl', '-5'], ['--timeout', '0'], ['--timeout', '5s'], ['--top', '1e3']]) {
      const result = await runCli(['--match', 'x:*', ...bad]);
      expect(result.code, bad.join(' ')).toBe(2);
      expect(result.stderr, bad.join(' ')).toMatch(/is invalid\. expected a whole number/);
    }
    expect((await runCli(['--format', 'xml'])).code).toBe(2);
    expect((await runCli(['--bogus'])).stderr).toBe("redis-ttl-audit: unknown option '--bogus'\nRun \"redis-ttl-audit --help\" for usage.\n");
    expect((await runCli(['localhost'])).code).toBe(2);
    expect(await runCli(['--url', 'http://localhost'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'redis-ttl-audit: invalid URL "http://localhost": the scheme must be redis:// or rediss:// (TLS)\n',
    });
  });

  it('never prints a password, whatever the URL holds unencoded, through --url or REDIS_URL', async () => {
    // passwords with every character a URL ends or splits its user info at, at any place
    const special = ['/', '#', '?', '@', ':', '%', '[', ']', ' ', '%zz', '%4', '\\', '"'];
    const passwords = [
      ...special.flatMap((c) => [`SECRET${c}x`, `${c}SECRET`, `SE${c}CR${c}ET`]),
      'SECRET/a@s#s%w:rd',
      'SECRET?password=SECRET',
    ];
    for (const password of passwords) {
      for (const url of [
        `redis://:${password}@127.0.0.1:1`,
        `redis://user:${password}@127.0.0.1:1/0`,
        `rediss://admin:${password}@localhost:1`,
        // a user info without ':' is read as a password by some clients (with a ':', its first part is the user name)
        ...(password.includes(':') ? [] : [`redis://${password}@127.0.0.1:1`]),
        `redis://127.0.0.1:1/?password=${password}`,
      ]) {
        for (const result of [await runCli(['--url', url, '--timeout', '200']), await runCli(['--timeout', '200'], { env: { REDIS_URL: url } })]) {
          expect(result.code, url).toBe(2);
          expect(result.stderr, url).not.toContain('SECRET');
          expect(result.stderr.trim().split('\n'), url).toHaveLength(1);
        }
      }
    }
  });

  it('redactUrl: a `://` inside a password of a URL without a scheme is not taken for the scheme', () => {
    // the counterexample fast-check found (seed -531413806): the user info ran from the first `://`
    expect(redactUrl(':Qq://Zz@host')).toBe(':***@host');
    expect(redactUrl('user:a://b@host:6379')).toBe('user:***@host:6379');
    expect(redactUrl('redis://:Qq://Zz@host')).toBe('redis://:***@host');
  });

  it('redactUrl: no part of a password survives, for passwords of any characters in any URL shape (fast-check)', () => {
    const chars = fc.constantFrom(...'/#?@:%[] \\"&;=+abcXYZ019'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 12 }), fc.constantFrom('', 'user', 'a:b'), (middle, user) => {
        const password = `Qq${middle}Zz`;
        for (const url of [
          `redis://${user}:${password}@host:6379/0`,
          `rediss://${user}:${password}@[::1]:6380`,
          `redis://:${password}@host`,
          `redis://host:6379/0?password=${password}`,
          `redis://host?db=1&pass=${password}&x=1`,
          `${user}:${password}@host`,
        ]) {
          const shown = redactUrl(url);
          expect(shown, url).not.toMatch(/Qq|Zz/);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a URL whose user info holds an unencoded character or a bad percent-encoding is a one-line usage error that says which', async () => {
    expect(await runCli(['--url', 'redis://:ab%zz@127.0.0.1:6509'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'redis-ttl-audit: invalid URL "redis://:***@127.0.0.1:6509": the password holds a \'%\' that is not followed by two hexadecimal digits: write a literal \'%\' as %25\n',
    });
    expect(await runCli(['--url', 'redis://us%g1er:pw@127.0.0.1:6509'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'redis-ttl-audit: invalid URL "redis://us%g1er:***@127.0.0.1:6509": the user name holds a \'%\' that is not followed by two hexadecimal digits: write a literal \'%\' as %25\n',
    });
    expect(await runCli(['--url', 'redis://user:TOP/x@127.0.0.1:6509/0'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'redis-ttl-audit: invalid URL "redis://user:***@127.0.0.1:6509/0": expected redis://[user:password@]host[:port][/db] or rediss://... ' +
        "(the user name or password holds '/', which a URL must percent-encode: write '/' as %2F)\n",
    });
    // a URL that parses, with the user info ended early: the '@' lands in the path
    expect(await runCli(['--url', 'redis://user:1234/x@127.0.0.1:6509'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'redis-ttl-audit: invalid URL "redis://user:***@127.0.0.1:6509": expected redis://[user:password@]host[:port][/db] ' +
        "(the user name or password holds '/', which a URL must percent-encode: write '/' as %2F)\n",
    });
  });

  it('exits 2 with one line when the server cannot be reached (REDIS_URL is read too)', async () => {
    const closed = 'redis://127.0.0.1:1';
    const viaEnv = await runCli([], { env: { REDIS_URL: closed } });
    expect(viaEnv).toEqual({ code: 2, stdout: '', stderr: 'redis-ttl-audit: cannot connect to redis://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1\n' });
    expect(await runCli(['--url', closed, '--cluster'])).toEqual(viaEnv);
  });

  it('exits 2 when --cluster meets a server that is not in cluster mode', async () => {
    const result = await runCli(['--url', url.replace(/\/9$/, ''), '--cluster']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^redis-ttl-audit: cannot connect to the cluster at redis:\/\/127\.0\.0\.1:\d+: ERR This instance has cluster support disabled\n$/);
  });
});

describe.skipIf(ownServerOnly)('the executable', () => {
  const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../audit/cli/bin.ts');
  const exec = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', import.meta.resolve('tsx'), bin, ...args], { env: { ...process.env, REDIS_URL: '' } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  it('runs bin.ts as a subprocess: json on stdout, exit 1 on a violation, exit 2 without a stack trace', async () => {
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    await seed();
    const failing = await exec(['--url', url, '--fail-on-persistent', 'big:*', '--format', 'json']);
    expect(failing.code).toBe(1);
    expect((JSON.parse(failing.stdout) as { violations: unknown }).violations).toEqual([
      { pattern: 'big:*', keys: 3, examples: expect.any(Array) as unknown },
    ]);
    const refused = await exec(['--url', 'redis://127.0.0.1:1']);
    expect(refused).toEqual({ code: 2, stdout: '', stderr: 'redis-ttl-audit: cannot connect to redis://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1\n' });
  });
});
