/**
 * "An update dropped for a creation in another module that is reported nowhere"
 * (redis-calls/record-creation.ts recordCreatedInAnotherModule, redis-calls/foreign-findings.ts):
 * a field update of a record family is dropped for the creation of that family in another module
 * only when that module REPORTS the creation, as the rule would with the same options. Reported
 * again: the other module's creating function is code nothing runs (`allowUncalledCode`), or a
 * persistent annotation exempts the creation there only. Still dropped: the creation reported
 * there, also under any `eslint-disable` of that module (the user's decision on the family, as a
 * disabled creation in the same file), and a persistent pattern both follow.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
const RULE = 'incr-needs-expire-on-create';
const rules = { [RULE]: undefined };
const H = "import Redis from 'ioredis';\nconst redis = new Redis();\n";
// game.ts: start's HSET (line 4) is the file's creation of socket:*, score's HINCRBY (line 7) an update
const game = `${H}export async function start(socketId: string) {\n  await redis.hset(\`socket:\${socketId}\`, 'score', '0');\n}\nexport async function score(socketId: string) {\n  await redis.hincrby(\`socket:\${socketId}\`, 'score', 10);\n}\n`;
/** pool.ts: `before` (lines above the function), then join: the creation at line 5 + lines of `before`, then start. */
const pool = (before = '', creation = "  await redis.hset(`socket:${socketId}`, 'user', userId);\n") =>
  `${H}import { start } from './game';\n${before}export async function join(socketId: string, userId: string) {\n${creation}  await start(socketId);\n}\n`;
const REPORTED_IN_GAME: Array<[string, string, number, number]> = [[RULE, 'noExpiry', 4, 15]];

describe('incr-needs-expire-on-create: an update dropped for another module\'s creation only when that module reports it', () => {
  it('drops the update when the other module reports its creation', () => {
    const files = { 'src/pool.ts': pool(), 'src/game.ts': game };
    expect(lintApplication(roots, files, 'src/game.ts', rules, [])).toEqual([]);
    expect(lintApplication(roots, files, 'src/pool.ts', rules, [])).toEqual([[RULE, 'noExpiry', 5, 15]]);
  });

  it('reports the update again when the other module\'s creating function is code nothing runs', () => {
    // main.ts imports pool.ts but never names join: join is uncalled (allowUncalledCode, on by default)
    const files = {
      'src/pool.ts': `${pool()}export function size() { return 1; }\n`,
      'src/game.ts': game,
      'src/main.ts': "import { size } from './pool';\nconsole.log(size());\n",
    };
    expect(lintApplication(roots, files, 'src/pool.ts', rules, [])).toEqual([]);
    expect(lintApplication(roots, files, 'src/game.ts', rules, [])).toEqual(REPORTED_IN_GAME);
    // near miss: main.ts calls join, which then runs and is reported there
    const called = { ...files, 'src/main.ts': "import { size, join } from './pool';\nconsole.log(size());\nvoid join('a', 'b');\n" };
    expect(lintApplication(roots, called, 'src/pool.ts', rules, [])).toEqual([[RULE, 'noExpiry', 5, 15]]);
    expect(lintApplication(roots, called, 'src/game.ts', rules, [])).toEqual([]);
    // the same options as the linted file's: with allowUncalledCode off (strict) join is reported there
    const strict = { [RULE]: { allowUncalledCode: false } };
    expect(lintApplication(roots, files, 'src/pool.ts', strict, [])).toEqual([[RULE, 'noExpiry', 5, 15]]);
    expect(lintApplication(roots, files, 'src/game.ts', strict, [])).toEqual([]);
  });

  it('keeps dropping the update whatever disable directive of the other module covers its creation (the user decided on the family there)', () => {
    const create = "  await redis.hset(`socket:${socketId}`, 'user', userId);\n";
    for (const files of [
      { 'src/pool.ts': pool('', `  // eslint-disable-next-line redis-ttl/${RULE} -- created on join\n${create}`) },
      { 'src/pool.ts': pool('', `  /* eslint-disable-next-line redis-ttl/set-requires-ttl-or-keepttl, redis-ttl/${RULE} */\n${create}`) },
      { 'src/pool.ts': pool('', create.replace(';\n', `; // eslint-disable-line redis-ttl/${RULE}\n`)) },
      { 'src/pool.ts': pool(`/* eslint-disable redis-ttl/${RULE} */\n`) },
      { 'src/pool.ts': `/* eslint-disable */\n${pool()}` },
      { 'src/pool.ts': pool('', `  // eslint-disable-next-line redis-ttl/set-requires-ttl-or-keepttl\n${create}`) },
    ]) {
      expect(lintApplication(roots, { ...files, 'src/game.ts': game }, 'src/game.ts', rules, [])).toEqual([]);
    }
  });

  it('reports the update again when a persistent annotation exempts the creation in the other module only', () => {
    const create = "  // redis-ttl persistent: a socket lives as long as the server\n  await redis.hset(`socket:${socketId}`, 'user', userId);\n";
    const files = { 'src/pool.ts': pool('', create), 'src/game.ts': game };
    expect(lintApplication(roots, files, 'src/pool.ts', rules, [])).toEqual([]);
    expect(lintApplication(roots, files, 'src/game.ts', rules, [])).toEqual(REPORTED_IN_GAME);
  });

  it('leaves both alone when both follow a persistent pattern', () => {
    const files = { 'src/pool.ts': pool(), 'src/game.ts': game };
    expect(lintApplication(roots, files, 'src/pool.ts', rules, ['socket:*'])).toEqual([]);
    expect(lintApplication(roots, files, 'src/game.ts', rules, ['socket:*'])).toEqual([]);
  });
});
