// Keys whose life the code manages itself (redis-calls/lifecycle.ts): `recommended` leaves their
// writes without TTL alone (deleted by another function or module, a queue its consumer drains, a
// stream kept as a bus, an ID sequence, an update of a record created with a TTL), and the
// inventory lists them as what they are, written without TTL (`none`; `keepttl` for the update),
// with the reading and the call it found (`lifecycle`), never `atomic`. Then `redis-ttl-audit --source` against a real
// redis-server (started by the tests) puts their live keys without TTL under the leaking patterns
// with that reason, not under "TTL missing though every write sets one". Database 12.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatInventory, persistentCandidates } from '../../keys/format.js';
import { buildInventory } from '../../keys/inventory.js';
import { validateInventory } from '../../inventory/format.js';
import { needsOwnServer, useRedis } from '../helpers/redis.js';
import { runCli, runJson } from '../audit/run-cli.js';

const IOREDIS = "import Redis from 'ioredis';\nconst redis = new Redis();\n";

/** The sources, as a package (cross-module readings look for the modules of the linted file's package). */
const SOURCES: Record<string, string> = {
  'package.json': '{ "name": "rooms-app", "type": "module" }\n',
  'src/keys.ts': 'export const roomKey = (id: string) => `app:room:${id}`;\nexport const playersKey = (id: string) => `app:room:${id}:players`;\n',
  // rooms.ts writes the room without TTL, cleanup.ts deletes it (two modules)
  'src/rooms.ts': [
    "import Redis from 'ioredis';",
    "import { playersKey, roomKey } from './keys';",
    'const redis = new Redis();',
    'export async function createRoom(id: string, name: string) {',
    "  await redis.hset(roomKey(id), 'name', name);",
    "  await redis.sadd(playersKey(id), 'host');",
    '}',
    '',
  ].join('\n'),
  'src/cleanup.ts': [
    "import Redis from 'ioredis';",
    "import { playersKey, roomKey } from './keys';",
    'const redis = new Redis();',
    'export async function cleanupRoom(id: string) {',
    '  await redis.del(roomKey(id), playersKey(id));',
    '}',
    '',
  ].join('\n'),
  'src/store.ts':
    IOREDIS +
    [
      // 3: a hash another function of the file deletes
      'export async function saveDraft(id: string, body: string) {',
      "  await redis.hset(`draft:${id}`, 'body', body);",
      '}',
      'export async function publishDraft(id: string) {',
      '  await redis.del(`draft:${id}`);',
      '}',
      // 9: a queue another function drains
      'export async function enqueue(tenant: string, job: string) {',
      '  await redis.lpush(`jobs:${tenant}`, job);',
      '}',
      'export async function work(tenant: string) {',
      '  return redis.rpop(`jobs:${tenant}`);',
      '}',
      // 15: a record created with a TTL (HSET + EXPIRE in one MULTI), updated elsewhere with HSET
      'export async function openSession(id: string, user: string) {',
      "  await redis.multi().hset(`session:${id}`, 'user', user).expire(`session:${id}`, 3600).exec();",
      '}',
      'export async function touchSession(id: string) {',
      "  await redis.hset(`session:${id}`, 'seen', String(Date.now()));",
      '}',
      // 21: a record created with SET ... EX, updated elsewhere with a write that keeps its TTL
      'export async function openCart(id: string) {',
      "  await redis.set(`cart:${id}`, '', 'EX', 600);",
      '}',
      'export async function addToCart(id: string, item: string) {',
      '  await redis.sadd(`cart:${id}`, item);',
      '}',
      // 27: an ID sequence; the record it names, written without TTL and never deleted
      'export async function createUser(tenant: string, name: string) {',
      '  const id = await redis.incr(`seq:${tenant}`);',
      "  await redis.hset(`user:${id}`, 'name', name);",
      '  return id;',
      '}',
      '',
    ].join('\n'),
};

function sources(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'keys-lifecycle-'));
  for (const [name, text] of Object.entries(SOURCES)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return dir;
}

const del = { file: 'src/cleanup.ts', line: 5, column: 15, command: 'DEL' };

describe('the inventory of keys the code manages', () => {
  it('lists them written without TTL, with the reading and the call it found, never atomic', async () => {
    const dir = sources();
    const { document, problems } = await buildInventory(['src'], { cwd: dir, useConfig: false });
    expect(problems).toEqual([]);
    expect(validateInventory(JSON.parse(JSON.stringify(document)), 'x')).toEqual(document);
    expect(document.shapes.flatMap((s) => s.writes.map((w) => [s.shape, `${w.file}:${w.line}:${w.column}`, w.command, w.ttl, w.lifecycle]))).toEqual([
      ['app:room:*', 'src/rooms.ts:5:15', 'HSET', 'none', { reading: 'deleted', by: del }],
      ['app:room:*:players', 'src/rooms.ts:6:15', 'SADD', 'none', { reading: 'deleted', by: del }],
      // SET ... EX then SADD would fail (WRONGTYPE) at run time, but the reading is the rules': the
      // update keeps the TTL of a record another function creates with one
      ['cart:*', 'src/store.ts:22:15', 'SET', 'atomic', undefined],
      ['cart:*', 'src/store.ts:25:15', 'SADD', 'keepttl', { reading: 'ttl-record', by: { file: 'src/store.ts', line: 22, column: 15, command: 'SET' } }],
      ['draft:*', 'src/store.ts:4:15', 'HSET', 'none', { reading: 'deleted', by: { file: 'src/store.ts', line: 7, column: 15, command: 'DEL' } }],
      ['jobs:*', 'src/store.ts:10:15', 'LPUSH', 'none', { reading: 'drained', by: { file: 'src/store.ts', line: 13, column: 16, command: 'RPOP' } }],
      ['seq:*', 'src/store.ts:28:26', 'INCR', 'none', { reading: 'id-sequence' }],
      ['session:*', 'src/store.ts:16:23', 'HSET', 'atomic', undefined],
      ['session:*', 'src/store.ts:19:15', 'HSET', 'keepttl', { reading: 'ttl-record', by: { file: 'src/store.ts', line: 16, column: 23, command: 'HSET' } }],
      // a plain leak: nothing manages it
      ['user:*', 'src/store.ts:29:15', 'HSET', 'none', undefined],
    ]);
    const table = formatInventory('table', document).split('\n');
    expect(table.slice(0, 4)).toEqual([
      'app:room:*  none 1',
      '  write src/rooms.ts:5:15  HSET ioredis  none (deleted by the DEL at src/cleanup.ts:5:15)',
      'app:room:*:players  none 1',
      '  write src/rooms.ts:6:15  SADD ioredis  none (deleted by the DEL at src/cleanup.ts:5:15)',
    ]);
    expect(table.filter((l) => /\((?:a queue|an ID|update of)/.test(l))).toEqual([
      '  write src/store.ts:25:15  SADD ioredis  keepttl (update of a record the SET at src/store.ts:22:15 creates with a TTL)',
      '  write src/store.ts:10:15  LPUSH ioredis  none (a queue drained by the RPOP at src/store.ts:13:16)',
      '  write src/store.ts:28:26  INCR ioredis  none (an ID sequence)',
      '  write src/store.ts:19:15  HSET ioredis  keepttl (update of a record the HSET at src/store.ts:16:23 creates with a TTL)',
    ]);
    expect(formatInventory('markdown', document)).toContain('`src/store.ts:10:15` LPUSH (ioredis): none (a queue drained by the RPOP at src/store.ts:13:16)');
    // written without TTL: candidates of --persistent-config like any other such shape; not the
    // records another write creates with a TTL (cart:*, session:*): the code means them to expire
    expect(persistentCandidates(document).map((s) => s.shape)).toEqual(['app:room:*', 'app:room:*:players', 'draft:*', 'jobs:*', 'seq:*', 'user:*']);
  });

  it('a stream its caller names whole, capped and read with a consumer group: none, kept as a bus', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keys-stream-'));
    writeFileSync(
      path.join(dir, 'bus.ts'),
      IOREDIS +
        [
          'export async function publish(stream: string, body: string) {',
          "  await redis.xadd(stream, 'MAXLEN', '~', 1000, '*', 'body', body);",
          '}',
          'export async function consume(stream: string) {',
          "  return redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', stream, '>');",
          '}',
          '',
        ].join('\n'),
    );
    const { document } = await buildInventory(['.'], { cwd: dir, useConfig: false });
    expect(document.shapes.flatMap((s) => s.writes)).toEqual([
      { file: 'bus.ts', line: 4, column: 15, command: 'XADD', client: 'ioredis', ttl: 'none', lifecycle: { reading: 'stream', by: { file: 'bus.ts', line: 4, column: 15, command: 'XADD' } } },
    ]);
  });

  it('a persistentKeys pattern makes a managed key persistent, without the reading', async () => {
    const dir = sources();
    const { document } = await buildInventory(['src/store.ts'], { cwd: dir, settings: { persistentKeys: ['jobs:*'] } });
    expect(document.shapes.find((s) => s.shape === 'jobs:*')!.writes).toEqual([{ file: 'src/store.ts', line: 10, column: 15, command: 'LPUSH', client: 'ioredis', ttl: 'persistent' }]);
  });

  it('a script write without TTL when the caller passes none: the note on the line of a key no call spells too', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keys-optional-'));
    writeFileSync(path.join(dir, 'lock.lua'), "redis.call('SET', KEYS[1], ARGV[1])\nif ARGV[2] == '' then return 1 end\nredis.call('PEXPIRE', KEYS[1], ARGV[2])\nreturn 1\n");
    const { document } = await buildInventory(['.'], { cwd: dir, useConfig: false });
    expect(document.unresolved).toEqual([{ file: 'lock.lua', line: 1, column: 1, command: 'SET', client: 'lua', ttl: 'none', optionalTtl: true, key: 'KEYS[1]' }]);
    expect(formatInventory('table', document).split('\n')).toContain('  lock.lua:1:1  SET KEYS[1]  none (when the caller passes no TTL)');
  });
});

const redis = useRedis();
const DB = 12;
const ownServerOnly = needsOwnServer('tests/keys/lifecycle.test.ts counts every key of a database it flushes');

describe.skipIf(ownServerOnly)('redis-ttl-audit --source on keys the code manages', () => {
  let url: string;
  let src: string;
  beforeAll(async () => {
    url = `${redis.url().replace(/\/\d*$/, '')}/${DB}`;
    const r = redis.client({ db: DB });
    await r.flushdb();
    // what the code leaves when the cleanup has not run (yet): rooms and their players without TTL
    for (let i = 0; i < 3; i += 1) {
      await r.hset(`app:room:${i}`, 'name', `room ${i}`);
      await r.sadd(`app:room:${i}:players`, 'host');
    }
    for (let i = 0; i < 2; i += 1) await r.lpush(`jobs:tenant${i}`, 'job');
    src = path.relative(process.cwd(), path.join(sources(), 'src'));
  });

  it('lists their keys without TTL as leaking, with the reading: not as a path the analysis does not see', async () => {
    const { code, report, stderr } = await runJson(['--url', url, '--source', src]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const findings = report.findings!;
    expect(findings.unexplained).toEqual([]);
    expect(findings.leaking.map((f) => [f.pattern, f.noTtl, f.cause, f.writtenBy.map((w) => [w.command, w.ttl, w.lifecycle])])).toEqual([
      ['app:room:*', 3, 'site', [['HSET', 'none', { reading: 'deleted', by: { ...del, file: `${src}/cleanup.ts` } }]]],
      ['app:room:*:players', 3, 'site', [['SADD', 'none', { reading: 'deleted', by: { ...del, file: `${src}/cleanup.ts` } }]]],
      ['jobs:*', 2, 'site', [['LPUSH', 'none', { reading: 'drained', by: { file: `${src}/store.ts`, line: 13, column: 16, command: 'RPOP' } }]]],
    ]);
    const text = (await runCli(['--url', url, '--source', src])).stdout.split('\n');
    expect(text).toContain(`    ${src}/rooms.ts:5:15 HSET: no TTL (deleted by the DEL at ${src}/cleanup.ts:5:15)`);
    expect(text).toContain('TTL missing though every write sets one (a path the analysis does not see: worth a bug report): none');
  });
});
