/**
 * Keys whose life another module of the codebase manages (redis-calls/cross-file-lifecycle.ts):
 * `recommended` leaves out a write of a key shape another module of the package deletes (a room
 * cleanup's DEL, also of a list of keys: `del(a, b)`, `del([a, b])`, `unlink(...keys)`), and an
 * update (HSET) of a record another module creates with a TTL, as it does when a function of the
 * same file does. The fixture (tests/fixtures/cross-file-lifecycle/app) shares its key builders
 * (`keys.ts`) between the linted `game.ts`, the room cleanup (`cleanup.ts`) and the session
 * creator (`sessions.ts`), none of which imports another. The limits stay reported: a key shape
 * the cleanup does not list, a lock and a SET NX the cleanup deletes, a shape the cleanup's module
 * also gives a TTL (its DEL is an invalidation), a shape only a test deletes, an update of a
 * record created without TTL; `strict` (allowDeletedKeys / allowTtlRecordUpdates false) reports
 * them all. A TTL a third module gives a shape the cleanup deletes (`sweeper.ts`) leaves the DEL
 * the key's end. A part its package cannot list (under a hidden folder, or with no package.json)
 * is read from the folder of its nearest tsconfig.json / jsconfig.json.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'cross-file-lifecycle', 'app');
const game = join(app, 'game.ts');

const INCR = 'incr-needs-expire-on-create' as const;
const SET = 'set-requires-ttl-or-keepttl' as const;

/** [rule, messageId, line, column] of each finding of the two write rules on `filename` (linted from its project's folder `cwd`). */
function lint(filename: string, options: Record<string, unknown> = {}, code = readFileSync(filename, 'utf8'), cwd = process.cwd()) {
  const rules: Record<string, unknown> = {};
  for (const name of [INCR, SET] as const) {
    const schema = (plugin.rules?.[name]?.meta?.schema as Array<{ properties?: Record<string, unknown> }> | undefined)?.[0];
    rules[`redis-ttl/${name}`] = ['error', Object.fromEntries(Object.entries(options).filter(([key]) => key in (schema?.properties ?? {})))];
  }
  const linter = new Linter({ configType: 'flat', cwd });
  const config = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: rules as Linter.RulesRecord }];
  return linter.verify(code, config, { filename }).map((m) => [m.ruleId?.replace('redis-ttl/', ''), m.messageId, m.line, m.column]);
}

// game.ts: 6-9 written by join, deleted by RoomCleanup.cleanupRoom (del(a, b), unlink(...keys),
// del([...])); 13 ScoringCount, not in the cleanup (a test's afterEach deletes it); 14 a lock and
// 15 a SET NX the cleanup deletes; 16 Stats, deleted and expired by cleanup.ts; 20 an HSET of the
// session openSession creates with HSET + EXPIRE; 21 of the draft openDraft creates without TTL;
// 25 Idle, deleted by the cleanup and expired by a third module (sweeper.ts), not by the cleanup's
const LIMITS = [
  [SET, 'setWithoutTtl', 13, 17],
  [SET, 'setWithoutTtl', 14, 17],
  [SET, 'createWithoutTtl', 15, 17],
  [SET, 'setWithoutTtl', 16, 17],
  [INCR, 'noExpiry', 21, 17],
];

describe('a key whose life another module manages', () => {
  it('leaves out the keys the cleanup of another module deletes and the update of a record created with a TTL there', () => {
    expect(lint(game)).toEqual(LIMITS);
  });

  it('strict (allowDeletedKeys, allowTtlRecordUpdates: false) reports them, naming the managed life', () => {
    expect(lint(game, { allowDeletedKeys: false, allowTtlRecordUpdates: false })).toEqual([
      [INCR, 'deletedElsewhere', 6, 17],
      [INCR, 'deletedElsewhere', 7, 17],
      [SET, 'deletedElsewhere', 8, 17],
      [SET, 'deletedElsewhere', 9, 17],
      ...LIMITS.slice(0, 4),
      [INCR, 'updatesTtlRecord', 20, 17],
      LIMITS[4],
      [SET, 'deletedElsewhere', 25, 17],
    ]);
  });

  it('a TTL a third module gives the shape (a sweeper) does not undo the DEL of the cleanup module', () => {
    // Room:*:Idle: cleanup.ts deletes it, sweeper.ts expires it; only the deleting module's own
    // TTL (Stats, line 16) makes its DEL an invalidation
    expect(lint(game).some(([, , line]) => line === 25)).toBe(false);
    expect(lint(game, { allowDeletedKeys: false }).filter(([, , line]) => line === 25)).toEqual([[SET, 'deletedElsewhere', 25, 17]]);
  });

  it('strict names the module of the deleter and of the creator, whose line it is; the same-file message is unchanged', () => {
    const code = readFileSync(game, 'utf8');
    const messages = (text: string) =>
      new Linter({ configType: 'flat' })
        .verify(text, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'redis-ttl': plugin }, rules: { [`redis-ttl/${INCR}`]: ['error', { allowDeletedKeys: false, allowTtlRecordUpdates: false }], [`redis-ttl/${SET}`]: ['error', { allowDeletedKeys: false }] } }], { filename: game })
        .map((m) => [m.line, /deleted only by the [^:]*|keeps the TTL the .*? gives the record/.exec(m.message)?.[0] ?? m.message]);
    expect(messages(code).filter(([, text]) => / the [A-Z]+ at line /.test(String(text)))).toEqual([
      [6, 'deleted only by the DEL at line 11 of `cleanup.ts`, in another module'],
      [7, 'deleted only by the DEL at line 11 of `cleanup.ts`, in another module'],
      [8, 'deleted only by the UNLINK at line 9 of `cleanup.ts`, in another module'],
      [9, 'deleted only by the DEL at line 12 of `cleanup.ts`, in another module'],
      [20, 'keeps the TTL the EXPIRE at line 6 (`sessions.ts`, another module) gives the record'],
      [25, 'deleted only by the DEL at line 12 of `cleanup.ts`, in another module'],
    ]);
    // the same file: the message of a deleter and of a creator in another function of the file
    const same = `${code}\nexport async function drop(id: string) { await redis.del(KEY.scoring(id)); }\nexport async function createDraft(id: string) { await redis.hset(KEY.draft(id), 'a', 1); await redis.expire(KEY.draft(id), 60); }\n`;
    expect(messages(same).filter(([line]) => line === 13 || line === 21)).toEqual([
      [13, 'deleted only by the DEL at line 29, in another function'],
      [21, 'keeps the TTL the HSET at line 30 (another function) gives the record'],
    ]);
  });

  it('reports the same writes in a file no module of its package manages them in', () => {
    const lone = join(app, '..', 'lone.ts');
    expect(lint(lone, {}, readFileSync(game, 'utf8'))).toEqual([
      [INCR, 'noExpiry', 6, 17],
      [INCR, 'noExpiry', 7, 17],
      [SET, 'setWithoutTtl', 8, 17],
      [SET, 'setWithoutTtl', 9, 17],
      ...LIMITS.slice(0, 4),
      [INCR, 'noExpiry', 20, 17],
      LIMITS[4],
      [SET, 'setWithoutTtl', 25, 17],
    ]);
  });
});

describe('a project its package cannot list: read from the nearest tsconfig/jsconfig folder', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'cross-file-lifecycle-'));
  const bare = mkdtempSync(join(tmpdir(), 'cross-file-lifecycle-'));
  afterAll(() => [tmp, bare].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** Copies the fixture's modules (not its package.json, nor its test) into `dir`, with `config`. */
  function part(dir: string, config: string): string {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(app)) if (name.endsWith('.ts') && !name.includes('.spec.')) copyFileSync(join(app, name), join(dir, name));
    writeFileSync(join(dir, config), '{ "compilerOptions": { "strict": true } }\n');
    return join(dir, 'game.ts');
  }

  it('a part under a hidden folder its package listing leaves out (QuizGround .apps/BE with tsconfig.json)', () => {
    writeFileSync(join(tmp, 'package.json'), '{ "name": "monorepo-root", "private": true }\n');
    const linted = part(join(tmp, '.apps', 'BE'), 'tsconfig.json');
    expect(lint(linted, {}, undefined, tmp)).toEqual(LIMITS);
    expect(lint(linted, { allowDeletedKeys: false }, undefined, tmp).filter(([, id]) => id === 'deletedElsewhere')).toEqual([
      [INCR, 'deletedElsewhere', 6, 17],
      [INCR, 'deletedElsewhere', 7, 17],
      [SET, 'deletedElsewhere', 8, 17],
      [SET, 'deletedElsewhere', 9, 17],
      [SET, 'deletedElsewhere', 25, 17],
    ]);
  });

  it('a part with a jsconfig.json and no package.json above it', () => {
    const linted = part(join(bare, 'BE'), 'jsconfig.json');
    // (a package.json above the temporary folder would list the part itself: the same findings)
    expect(lint(linted, {}, undefined, bare)).toEqual(LIMITS);
  });

  it('no tsconfig/jsconfig and no listing package: the writes are reported', () => {
    const linted = part(join(tmp, '.apps', 'bare'), 'other.json');
    expect(lint(linted, {}, undefined, tmp)).toEqual([
      [INCR, 'noExpiry', 6, 17],
      [INCR, 'noExpiry', 7, 17],
      [SET, 'setWithoutTtl', 8, 17],
      [SET, 'setWithoutTtl', 9, 17],
      ...LIMITS.slice(0, 4),
      [INCR, 'noExpiry', 20, 17],
      LIMITS[4],
      [SET, 'setWithoutTtl', 25, 17],
    ]);
  });
});

describe("a creator module that names its TTL in node-redis' camelCase (pExpire, setEx, hExpire)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'cross-file-lifecycle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read: an update of the record it creates with a TTL is left out', () => {
    const files: Record<string, string> = {
      'package.json': '{ "name": "camel-app", "private": true }\n',
      'keys.ts': 'export const KEY = { session: (id: string) => `session:${id}` };\n',
      'redis.ts': "import { createClient } from 'redis';\nexport const client = createClient();\n",
      'sessions.ts':
        "import { client } from './redis';\nimport { KEY } from './keys';\nexport async function open(id: string) {\n  await client.hSet(KEY.session(id), 'seen', '1');\n  await client.pExpire(KEY.session(id), 600000);\n}\n",
      'touch.ts': "import { client } from './redis';\nimport { KEY } from './keys';\nexport async function touch(id: string) {\n  await client.hSet(KEY.session(id), 'last', '2');\n}\n",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const touch = join(dir, 'touch.ts');
    expect(lint(touch, {}, undefined, dir)).toEqual([]);
    expect(lint(touch, { allowTtlRecordUpdates: false }, undefined, dir)).toEqual([[INCR, 'updatesTtlRecord', 4, 16]]);
  });
});
