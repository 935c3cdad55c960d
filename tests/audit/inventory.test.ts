// redis-ttl-audit --inventory against a real Redis: keys grouped by the inventory's shapes first
// (folding for the rest), writtenBy on every pattern in every format, the three sections, the
// library seam (an inventory object straight to runAudit), bad inventory files (exit 2), and
// growth against a --baseline with --fail-on-growth. Database 8 of the test server, flushed
// before each test: the file runs only on a server the tests started.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_AUDIT_OPTIONS, runAudit } from '../../audit/audit.js';
import type { WrittenBy } from '../../audit/attribution.js';
import { type InventoryDocument, serializeInventory } from '../../inventory/format.js';
import { needsOwnServer, useRedis } from '../helpers/redis.js';
import { runCli, runJson } from './run-cli.js';

const redis = useRedis();
const DB = 8;
const ownServerOnly = needsOwnServer('tests/audit/inventory.test.ts counts every key of a database it flushes');
let r: Redis;
let url: string;

/** An application's sources and its inventory: <dir>/src/..., <dir>/build/keys.json with root "..". */
const app = mkdtempSync(path.join(tmpdir(), 'audit-inventory-'));
const inventoryFile = path.join(app, 'build', 'keys.json');
/** A file of the application as the report names it: relative to the working directory. */
const shown = (file: string) => path.relative(process.cwd(), path.join(app, file)).split(path.sep).join('/');

const site = (file: string, line: number, column: number, command: string, ttl: WrittenBy['ttl']) => ({ file, line, column, command, client: 'ioredis', ttl });
const inventory: InventoryDocument = {
  version: 1,
  tool: 'test',
  root: '..',
  shapes: [
    { shape: 'session:*', writes: [site('src/store.ts', 7, 9, 'SET', 'none')], reads: [{ file: 'src/store.ts', line: 12, column: 9, command: 'GET', client: 'ioredis' }] },
    { shape: 'cache:page:*', writes: [site('src/cache.ts', 3, 5, 'SET', 'atomic'), site('src/cache.ts', 9, 5, 'SET', 'atomic')] },
    { shape: 'rl:{*}:count', writes: [site('src/limiter.ts', 10, 3, 'INCR', 'separate')] },
    {
      shape: 'job:*:meta',
      writes: [{ file: 'scripts/claim.lua', line: 3, column: 1, command: 'HSET', client: 'lua', ttl: 'none', via: { file: 'src/jobs.ts', line: 20, column: 5, key: "KEYS[1] .. ':meta'" } }],
    },
    { shape: 'config:flags', persistent: true, writes: [site('src/config.ts', 2, 1, 'SET', 'persistent')] },
    { shape: 'user:*', writes: [], reads: [{ file: 'src/users.ts', line: 4, column: 10, command: 'GET', client: 'ioredis' }] },
    { shape: 'profile:*', keyPrefix: 'app:', writes: [site('src/profile.ts', 5, 3, 'SET', 'atomic')] },
    { shape: '*', writes: [site('src/generic.ts', 1, 1, 'SET', 'none')] },
  ],
  unresolved: [{ file: 'scripts/other.lua', line: 2, column: 1, command: 'SET', client: 'lua', ttl: 'none', key: 'KEYS[2]' }],
};
mkdirSync(path.dirname(inventoryFile), { recursive: true });
writeFileSync(inventoryFile, serializeInventory(inventory));

beforeAll(() => {
  url = `${redis.url().replace(/\/\d*$/, '')}/${DB}`;
  r = redis.client({ db: DB });
});

beforeEach(async () => {
  await r.flushdb();
});

/**
 * 8 session:<hex> without TTL; 20 cache:page:<n> EX 3600 and 2 without; rl:{user<n>}:count ×6, the
 * first without TTL, and rl:{user:7}:count (a colon in the tag) with one; 3 job:<n>:meta hashes
 * without TTL; config:flags without TTL; 4 legacy:<n> without TTL (no shape); user:42 and
 * user:43 (a read-only shape), 2 user:<n>:settings without TTL (the shape `user:*` claims them:
 * its `*` is any run, as in persistentKeys);
 * app:profile:<n> ×3 EX 600. 52 keys.
 */
async function seed(): Promise<void> {
  const p = r.pipeline();
  for (let i = 0; i < 8; i += 1) p.set(`session:${(0xabc000 + i).toString(16)}`, 'x');
  for (let i = 0; i < 22; i += 1) {
    if (i < 20) p.set(`cache:page:${i}`, 'x', 'EX', 3600);
    else p.set(`cache:page:${i}`, 'x');
  }
  for (let i = 0; i < 6; i += 1) {
    if (i === 0) p.incr(`rl:{user${i}}:count`);
    else p.set(`rl:{user${i}}:count`, '1', 'EX', 50);
  }
  p.set('rl:{user:7}:count', '1', 'EX', 50);
  for (let i = 0; i < 3; i += 1) p.hset(`job:${i}:meta`, 'state', 'claimed');
  p.set('config:flags', '{}');
  for (let i = 0; i < 4; i += 1) p.set(`legacy:${i}`, 'x');
  p.set('user:42', 'x', 'EX', 100);
  p.set('user:43', 'x', 'EX', 100);
  p.set('user:42:settings', 'x');
  p.set('user:43:settings', 'x');
  for (let i = 0; i < 3; i += 1) p.set(`app:profile:${i}`, 'x', 'EX', 600);
  await p.exec();
}

const none = { '<1m': 0, '<1h': 0, '<1d': 0, '<7d': 0, '>=7d': 0 };
const sorted = (keys: string[]) => [...keys].sort();

const store = () => ({ file: shown('src/store.ts'), line: 7, column: 9, command: 'SET', ttl: 'none' });
const cache = () => [
  { file: shown('src/cache.ts'), line: 3, column: 5, command: 'SET', ttl: 'atomic' },
  { file: shown('src/cache.ts'), line: 9, column: 5, command: 'SET', ttl: 'atomic' },
];
const limiter = () => ({ file: shown('src/limiter.ts'), line: 10, column: 3, command: 'INCR', ttl: 'separate' });
const claim = () => ({ file: shown('scripts/claim.lua'), line: 3, column: 1, command: 'HSET', ttl: 'none', via: { file: shown('src/jobs.ts'), line: 20, column: 5, key: "KEYS[1] .. ':meta'" } });

describe.skipIf(ownServerOnly)('--inventory', () => {
  it('groups keys by the shapes first, folds the rest, and gives every pattern its writtenBy (json)', async () => {
    await seed();
    const { code, report, stderr } = await runJson(['--url', url, '--inventory', inventoryFile]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(report.totals).toMatchObject({ keys: 52, noTtl: 21 });
    expect(report.patterns.map((p) => [p.pattern, p.shape, p.keys, p.noTtl, p.writtenBy])).toEqual([
      ['cache:page:*', 'cache:page:*', 22, 2, cache()],
      ['session:*', 'session:*', 8, 8, [store()]],
      ['rl:{*}:count', 'rl:{*}:count', 7, 1, [limiter()]],
      ['legacy:*', null, 4, 4, []],
      ['user:*', 'user:*', 4, 2, []],
      ['job:*:meta', 'job:*:meta', 3, 3, [claim()]],
      ['app:profile:*', 'app:profile:*', 3, 0, [{ file: shown('src/profile.ts'), line: 5, column: 3, command: 'SET', ttl: 'atomic' }]],
      ['config:flags', 'config:flags', 1, 1, [{ file: shown('src/config.ts'), line: 2, column: 1, command: 'SET', ttl: 'persistent' }]],
    ]);
    expect(report.patterns.find((p) => p.pattern === 'rl:{*}:count')!.ttl).toEqual({ ...none, '<1m': 6 });
    const session = report.patterns.find((p) => p.pattern === 'session:*')!;
    expect(sorted(session.noTtlExamples)).toEqual(sorted(session.noTtlExamples.filter((k) => /^session:abc00[0-7]$/.test(k))));
    expect(session.noTtlExamples).toHaveLength(5);

    const findings = report.findings!;
    expect(findings.leaking.map((f) => [f.pattern, f.shape, f.keys, f.noTtl, f.cause, f.writtenBy, sorted(f.examples)])).toEqual([
      ['session:*', 'session:*', 8, 8, 'site', [store()], sorted(findings.leaking[0]!.examples)],
      ['legacy:*', null, 4, 4, 'unwritten', [], ['legacy:0', 'legacy:1', 'legacy:2', 'legacy:3']],
      ['job:*:meta', 'job:*:meta', 3, 3, 'site', [claim()], ['job:0:meta', 'job:1:meta', 'job:2:meta']],
      ['cache:page:*', 'cache:page:*', 22, 2, 'unexplained', cache(), ['cache:page:20', 'cache:page:21']],
      ['user:*', 'user:*', 4, 2, 'unwritten', [], ['user:42:settings', 'user:43:settings']],
      ['rl:{*}:count', 'rl:{*}:count', 7, 1, 'site', [limiter()], ['rl:{user0}:count']],
    ]);
    expect(findings.unwritten.map((f) => [f.pattern, f.keys, f.noTtl, f.readBy, sorted(f.examples)])).toEqual([
      ['legacy:*', 4, 4, [], sorted(findings.unwritten[0]!.examples)],
      ['user:*', 4, 2, [{ file: shown('src/users.ts'), line: 4, column: 10, command: 'GET' }], sorted(findings.unwritten[1]!.examples)],
    ]);
    expect(findings.unwritten[1]!.examples).toHaveLength(3);
    expect(findings.unwritten[1]!.examples.every((k) => ['user:42', 'user:43', 'user:42:settings', 'user:43:settings'].includes(k))).toBe(true);
    expect(findings.unwritten[0]!.examples).toHaveLength(3);
    expect(findings.unexplained).toEqual([
      { pattern: 'cache:page:*', shape: 'cache:page:*', keys: 22, noTtl: 2, writtenBy: cache(), examples: findings.unexplained[0]!.examples },
    ]);
    expect(sorted(findings.unexplained[0]!.examples)).toEqual(['cache:page:20', 'cache:page:21']);
    expect(findings.persistent).toEqual([{ pattern: 'config:flags', keys: 1, noTtl: 1 }]);
    expect(report.notes).toEqual([
      `1 inventory shape is too broad to attribute keys (no literal part of 3 or more characters): '*' (${shown('src/generic.ts')}:1:1); their keys are grouped by folding.`,
      `1 inventory write site writes a key the analysis could not spell (KEYS[2] at ${shown('scripts/other.lua')}:2:1): the keys they make, if any, show up as written by no code.`,
    ]);
  });

  it('shows the first site and a count in the table, and the three sections', async () => {
    await seed();
    const { code, stdout } = await runCli(['--url', url, '--inventory', inventoryFile]);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const header = lines.find((l) => l.startsWith('PATTERN'))!;
    expect(header).toMatch(/^PATTERN +KEYS +NO TTL +SHARE +TTL<1m +TTL<1h +TTL<1d +TTL<7d +TTL>=7d +WRITTEN BY$/);
    expect(lines.find((l) => l.startsWith('cache:page:*'))).toMatch(new RegExp(`^cache:page:\\* +22 +2 +9\\.1% +0 +20 +0 +0 +0 +${shown('src/cache.ts')}:3:5 \\(\\+1\\)$`));
    expect(lines.find((l) => l.startsWith('legacy:*'))).toMatch(/^legacy:\* +4 +4 +100\.0% +0 +0 +0 +0 +0 +-$/);
    const from = lines.indexOf('Leaking (keys without TTL): 6 patterns');
    expect(from).toBeGreaterThan(0);
    const section = lines.slice(from, lines.indexOf('Servers:') - 1).map((l) => l.replace(/, e\.g\. .*$/, ''));
    expect(section).toEqual([
      'Leaking (keys without TTL): 6 patterns',
      '  session:*: 8 of 8 keys without TTL',
      `    ${shown('src/store.ts')}:7:9 SET: no TTL`,
      '  legacy:*: 4 of 4 keys without TTL, written by no code',
      '  job:*:meta: 3 of 3 keys without TTL',
      `    ${shown('scripts/claim.lua')}:3:1 HSET: no TTL, run by ${shown('src/jobs.ts')}:20:5 (KEYS[1] .. ':meta')`,
      '  cache:page:*: 2 of 22 keys without TTL, though every write sets a TTL',
      `    ${shown('src/cache.ts')}:3:5 SET: sets the TTL`,
      `    ${shown('src/cache.ts')}:9:5 SET: sets the TTL`,
      '  user:*: 2 of 4 keys without TTL, written by no code',
      '  rl:{*}:count: 1 of 7 keys without TTL',
      `    ${shown('src/limiter.ts')}:10:3 INCR: EXPIRE in another round trip`,
      '',
      'Written by no code (another service, or code removed since): 2 patterns',
      '  legacy:*: 4 keys, 4 without TTL',
      '  user:*: 4 keys, 2 without TTL',
      `    read at ${shown('src/users.ts')}:4:10 GET`,
      '',
      'TTL missing though every write sets one (a path the analysis does not see: worth a bug report): 1 pattern',
      '  cache:page:*: 2 of 22 keys without TTL',
      `    ${shown('src/cache.ts')}:3:5 SET: sets the TTL`,
      `    ${shown('src/cache.ts')}:9:5 SET: sets the TTL`,
      '',
      'Kept without TTL on purpose (persistent shapes): config:flags (1)',
    ]);
    expect(lines.find((l) => l.startsWith('  rl:{*}:count: 1 of 7'))).toBe('  rl:{*}:count: 1 of 7 keys without TTL, e.g. rl:{user0}:count');
    // --top cuts the sections too
    const top = (await runCli(['--url', url, '--inventory', inventoryFile, '--top', '2'])).stdout.split('\n');
    const leaking = top.slice(top.indexOf('Leaking (keys without TTL): 6 patterns'), top.indexOf('Written by no code (another service, or code removed since): 2 patterns'));
    expect(leaking.filter((l) => /^ {2}\S/.test(l))).toEqual([
      expect.stringMatching(/^ {2}session:\*: 8 of 8 keys/),
      expect.stringMatching(/^ {2}legacy:\*: 4 of 4 keys/),
      '  ... and 4 more (--top, or --format json, csv or html for all).',
    ]);
  });

  it('puts the first site, the count and the sections of a pattern in csv', async () => {
    await seed();
    const { stdout } = await runCli(['--url', url, '--inventory', inventoryFile, '--format', 'csv', '--match', 'cache:*', '--match', 'legacy:*', '--match', 'app:*']);
    expect(stdout.split('\n').slice(1)).toEqual([
      `cache:page:*,22,2,0.090909,,,0,20,0,0,0,,,,,cache:page:*,${shown('src/cache.ts')}:3:5,2,leaking;unexplained,,`,
      'legacy:*,4,4,1,,,0,0,0,0,0,,,,,,,0,leaking;unwritten,,',
      `app:profile:*,3,0,0,,,0,3,0,0,0,,,,,app:profile:*,${shown('src/profile.ts')}:5:3,1,,,`,
      '',
    ]);
  });

  it('takes an inventory object in the library, files relative to the given directory (the seam of --source)', async () => {
    await seed();
    const report = await runAudit([r], {
      ...DEFAULT_AUDIT_OPTIONS,
      maxOpsPerSecond: 0,
      match: ['session:*', 'legacy:*'],
      inventory: [{ document: { version: 1, root: '.', shapes: [{ shape: 'session:*', writes: [{ file: 'src/a.ts', line: 1, column: 2, command: 'SET', client: 'ioredis', ttl: 'none' }] }] }, base: '/srv/app' }],
      cwd: '/srv',
    });
    expect(report.patterns.map((p) => [p.pattern, p.writtenBy])).toEqual([
      ['session:*', [{ file: 'app/src/a.ts', line: 1, column: 2, command: 'SET', ttl: 'none' }]],
      ['legacy:*', []],
    ]);
    expect(report.findings!.leaking.map((f) => [f.pattern, f.cause])).toEqual([
      ['session:*', 'site'],
      ['legacy:*', 'unwritten'],
    ]);
  });

  it('merges several inventories: the sites of one shape add up, persistent only when all say so', async () => {
    await seed();
    const other = path.join(app, 'other.json');
    writeFileSync(
      other,
      serializeInventory({
        version: 1,
        root: 'svc',
        shapes: [
          { shape: 'session:*', writes: [site('src/store.ts', 7, 9, 'SET', 'atomic')] },
          { shape: 'config:flags', writes: [site('cfg.ts', 1, 1, 'SET', 'none')] },
          { shape: 'legacy:*', writes: [site('old.ts', 5, 5, 'SET', 'none')] },
        ],
      }),
    );
    const { report } = await runJson(['--url', url, '--inventory', inventoryFile, '--inventory', other, '--match', 'session:*', '--match', 'config:*', '--match', 'legacy:*']);
    expect(report.patterns.map((p) => [p.pattern, p.writtenBy!.map((s) => `${s.file}:${s.line}:${s.ttl}`)])).toEqual([
      ['session:*', [`${shown('src/store.ts')}:7:none`, `${shown('svc/src/store.ts')}:7:atomic`]],
      ['legacy:*', [`${shown('svc/old.ts')}:5:none`]],
      ['config:flags', [`${shown('src/config.ts')}:2:persistent`, `${shown('svc/cfg.ts')}:1:none`]],
    ]);
    expect(report.findings!.persistent).toEqual([]);
    expect(report.findings!.leaking.map((f) => f.pattern)).toEqual(['session:*', 'legacy:*', 'config:flags']);
  });

  it('exits 2 with one line naming the file and the place for an inventory that is not JSON or not the format', async () => {
    const bad = path.join(app, 'bad.json');
    writeFileSync(bad, '{\n  "version": 1,\n  "root": ".",\n  "shapes": [\n');
    expect(await runCli(['--url', url, '--inventory', bad])).toEqual({ code: 2, stdout: '', stderr: `redis-ttl-audit: --inventory ${bad}: not valid JSON (Unexpected end of JSON input)\n` });
    writeFileSync(bad, JSON.stringify({ version: 1, root: '.', shapes: [{ shape: 'a:*', writes: [{ file: 'a.ts', line: 1, column: 1, command: 'SET', client: 'ioredis', ttl: 'never' }] }] }));
    expect(await runCli(['--url', url, '--inventory', bad])).toEqual({
      code: 2,
      stdout: '',
      stderr: `redis-ttl-audit: --inventory ${bad}: $.shapes[0].writes[0].ttl: expected one of "atomic", "separate", "none", "keepttl", "persistent", got the string "never"\n`,
    });
    const missing = path.join(app, 'missing.json');
    expect(await runCli(['--url', url, '--inventory', missing])).toEqual({ code: 2, stdout: '', stderr: `redis-ttl-audit: --inventory ${missing}: cannot read the inventory (file not found)\n` });
    // the files are read before the server is touched: a bad file and no server is still exit 2 about the file
    expect((await runCli(['--url', 'redis://:secret@127.0.0.1:1', '--inventory', missing])).stderr).toBe(`redis-ttl-audit: --inventory ${missing}: cannot read the inventory (file not found)\n`);
  });

  it('writes the report to --output', async () => {
    await seed();
    const out = path.join(app, 'reports', 'audit.json');
    const result = await runCli(['--url', url, '--inventory', inventoryFile, '--match', 'legacy:*', '--format', 'json', '--output', out]);
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((JSON.parse(readFileSync(out, 'utf8')) as { patterns: { pattern: string }[] }).patterns.map((p) => p.pattern)).toEqual(['legacy:*']);
    const unwritable = await runCli(['--url', url, '--output', path.join(inventoryFile, 'x.json')]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(/^redis-ttl-audit: cannot write the report to .*keys\.json\/x\.json: /);
  });
});

describe.skipIf(ownServerOnly)('--baseline and --fail-on-growth', () => {
  async function baseline(args: string[] = []): Promise<string> {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-baseline-')), 'before.json');
    const { stdout, code } = await runCli(['--url', url, '--inventory', inventoryFile, '--format', 'json', '--output', file, ...args]);
    expect([code, stdout]).toEqual([0, '']);
    return file;
  }

  it('compares keys, keys without TTL and memory per pattern, and marks what grew', async () => {
    await seed();
    const before = await baseline(['--memory']);
    // 5 more sessions without TTL, 2 legacy keys gone, a new pattern, 5 more cache pages with a TTL
    for (let i = 0; i < 5; i += 1) await r.set(`session:new${i}`, 'x');
    await r.del('legacy:0', 'legacy:1');
    await r.set('tmp:upload:1', 'x');
    for (let i = 100; i < 105; i += 1) await r.set(`cache:page:${i}`, 'x', 'EX', 3600);
    const { code, report } = await runJson(['--url', url, '--inventory', inventoryFile, '--baseline', before, '--memory']);
    expect(code).toBe(0);
    const growth = report.growth!;
    expect(growth.baseline).toEqual({ file: before, target: url });
    expect(growth.estimated).toBe(false);
    expect(growth.failOnGrowth).toBeNull();
    expect(growth.patterns.map((g) => [g.pattern, g.keysBefore, g.keys, g.noTtlBefore, g.noTtl, g.noTtlGrowth, g.grew, g.exceeded])).toEqual([
      ['session:*', 8, 13, 8, 13, 5, true, false],
      ['tmp:upload:*', 0, 1, 0, 1, 1, true, false],
      ['cache:page:*', 22, 27, 2, 2, 0, false, false],
      ['app:profile:*', 3, 3, 0, 0, 0, false, false],
      ['config:flags', 1, 1, 1, 1, 0, false, false],
      ['job:*:meta', 3, 3, 3, 3, 0, false, false],
      ['rl:{*}:count', 7, 7, 1, 1, 0, false, false],
      ['user:*', 4, 4, 2, 2, 0, false, false],
      ['legacy:*', 4, 2, 4, 2, -2, false, false],
    ]);
    const session = growth.patterns[0]!;
    expect(session.memoryBytes! - session.memoryBytesBefore!).toBeGreaterThan(0);
    const table = await runCli(['--url', url, '--inventory', inventoryFile, '--baseline', before]);
    const lines = table.stdout.split('\n');
    expect(lines.find((l) => l.startsWith('session:*'))).toMatch(/^session:\* +13 +13 +100\.0% +\+5 /);
    expect(lines.find((l) => l.startsWith('tmp:upload:*'))).toMatch(/^tmp:upload:\* +1 +1 +100\.0% +new /);
    expect(lines.find((l) => l.startsWith(`Growth since ${before}`))).toBe(`Growth since ${before} (${url}):`);
    const since = lines.slice(lines.indexOf(`Growth since ${before} (${url}):`));
    expect(since.find((l) => l.startsWith('  session:*'))).toMatch(/^ {2}session:\* +8 -> 13 +8 -> 13 +\+5 +grew$/);
    expect(since.find((l) => l.startsWith('  legacy:*'))).toMatch(/^ {2}legacy:\* +4 -> 2 +4 -> 2 +-2$/);
    expect(since.find((l) => l.startsWith('  user:*'))).toBeUndefined(); // unchanged patterns are left out
  });

  it('exits 1 when a pattern has more than n keys without TTL beyond the baseline, naming it on standard error', async () => {
    await seed();
    const before = await baseline();
    for (let i = 0; i < 5; i += 1) await r.set(`session:new${i}`, 'x');
    await r.set('config:more', 'x');
    await r.set('config:flags', 'y'); // persistent shape: never a failure
    const at = (n: number) => runCli(['--url', url, '--inventory', inventoryFile, '--baseline', before, '--fail-on-growth', String(n), '--format', 'json']);
    const five = await at(5);
    expect([five.code, five.stderr]).toEqual([0, '']);
    const four = await at(4);
    expect(four.code).toBe(1);
    expect(four.stderr).toBe(
      `redis-ttl-audit: --fail-on-growth 4: 'session:*' has 5 more keys without TTL than ${before} (8 -> 13): they pile up; find the write that leaves them without TTL.\n`,
    );
    const zero = await at(0);
    expect(zero.code).toBe(1);
    const grown = (JSON.parse(zero.stdout) as { growth: { patterns: { pattern: string; exceeded: boolean; persistent: boolean }[] } }).growth.patterns.filter((g) => g.exceeded);
    expect(grown.map((g) => g.pattern)).toEqual(['session:*', 'config:more']);
    const table = await runCli(['--url', url, '--inventory', inventoryFile, '--baseline', before, '--fail-on-growth', '4']);
    expect(table.stdout.split('\n').find((l) => l.includes('--fail-on-growth'))).toBe('  FAIL --fail-on-growth 4: session:* (+5)');
  });

  it('refuses --fail-on-growth without --baseline or with --sample, and a baseline that is not a report (exit 2)', async () => {
    expect(await runCli(['--url', url, '--fail-on-growth', '10'])).toEqual({ code: 2, stdout: '', stderr: 'redis-ttl-audit: --fail-on-growth needs --baseline: the report of an earlier run to compare with.\n' });
    const before = await baseline();
    expect((await runCli(['--url', url, '--baseline', before, '--fail-on-growth', '10', '--sample', '5'])).stderr).toBe(
      "redis-ttl-audit: --fail-on-growth cannot be combined with --sample: a sample's counts are estimates, and a CI verdict needs exact ones.\n",
    );
    expect((await runCli(['--url', url, '--fail-on-growth', '-1', '--baseline', before])).code).toBe(2);
    const bad = path.join(app, 'not-a-report.json');
    writeFileSync(bad, serializeInventory(inventory));
    expect(await runCli(['--url', url, '--baseline', bad])).toEqual({
      code: 2,
      stdout: '',
      stderr: `redis-ttl-audit: --baseline ${bad}: $.tool: not a report of redis-ttl-audit --format json (no "tool": "redis-ttl-audit")\n`,
    });
    writeFileSync(bad, JSON.stringify({ tool: 'redis-ttl-audit', patterns: [{ pattern: 'a:*', keys: -1, noTtl: 0 }] }));
    expect((await runCli(['--url', url, '--baseline', bad])).stderr).toBe(`redis-ttl-audit: --baseline ${bad}: $.patterns[0].keys: expected a whole number >= 0, got -1\n`);
    writeFileSync(bad, '{"tool":');
    expect((await runCli(['--url', url, '--baseline', bad])).stderr).toBe(
      `redis-ttl-audit: --baseline ${bad}: not valid JSON (Unexpected end of JSON input): --baseline takes a report of redis-ttl-audit --format json\n`,
    );
  });
});
