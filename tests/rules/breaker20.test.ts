/**
 * Round 20's breaker: inputs where the round's new readings were wrong, each with the module that
 * owns the reading and the fix.
 *
 * Cross-file lifecycle (redis-calls/cross-file-lifecycle.ts), on tests/fixtures/breaker20/app,
 * whose linted `game.ts` writes per-room keys built by `keys.ts`:
 *
 * - a DEL in a test runner's setup (`jest.setup.ts`), an end-to-end test (`e2e/rooms.e2e.ts`) or a
 *   test helpers folder (`src/testing/`) is no cleanup of the running application: it left
 *   `Room:*:Chat`, `Room:*:Votes`, `Room:*:Hand` (written without TTL, deleted by nothing else)
 *   unreported, where only `.test.` / `.spec.` files and `test/` folders were left out;
 * - a deleter "calls the writer" (the success path of one operation, not a cleanup) when it calls
 *   any function of the writer's name: `players.join(', ')` in the cleanup beside the writer
 *   `join`, the key builder `KEY.seat(id)` beside the writer `seat` made the room cleanup's DEL of
 *   `Room:*:Players` and `Room:*:Seat` not count (false findings in recommended). A module that
 *   cannot reach the writer (imports neither its file, nor a barrel, nor a module declaring the
 *   name) and a call of an imported module's member are no calls of it; a deleter importing the
 *   writer's class (`finish.ts`) or a barrel re-exporting it (`turns.ts`) that calls it still is.
 *
 * `redis-ttl-keys --persistent-config` (keys/config-format.ts): run in a package of a monorepo
 * whose one ESLint config is at the root (`eslint.config.cjs`), the block followed the package's
 * `"type": "module"` and printed `export default [`, which the CommonJS config ESLint loads there
 * cannot take: ESLint finds its config from the working directory up, past package.json files.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { configModuleFormat } from '../../keys/config-format.js';
import plugin from '../../rules/index.js';
import { lintSnippet } from '../helpers/lint.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'breaker20');
const INCR = 'incr-needs-expire-on-create' as const;
const SET = 'set-requires-ttl-or-keepttl' as const;

/** [rule, messageId, line, column] of each finding of the two write rules on `filename`. */
function lint(filename: string, options: Record<string, unknown> = {}, code = readFileSync(filename, 'utf8')) {
  const rules: Record<string, unknown> = {};
  for (const name of [INCR, SET] as const) {
    const schema = (plugin.rules?.[name]?.meta?.schema as Array<{ properties?: Record<string, unknown> }> | undefined)?.[0];
    rules[`redis-ttl/${name}`] = ['error', Object.fromEntries(Object.entries(options).filter(([key]) => key in (schema?.properties ?? {})))];
  }
  return lintSnippet(code, rules as never, filename).map((m) => [m.ruleId?.replace('redis-ttl/', ''), m.messageId, m.line, m.column]);
}

describe('cross-file lifecycle', () => {
  const game = join(fixtures, 'app', 'game.ts');

  it('a DEL only in a test setup, an end-to-end test or a test helpers folder does not manage the key', () => {
    // 14 Chat (jest.setup.ts), 15 Votes (e2e/rooms.e2e.ts), 16 Hand (src/testing/redis-helpers.ts);
    // nothing in the fixture calls `say` (code that never runs, left out by recommended:
    // redis-calls/uncalled.ts), so the key's life is judged with allowUncalledCode off
    const found = lint(game, { allowUncalledCode: false }).filter(([, , line]) => (line as number) >= 14 && (line as number) <= 16);
    expect(found).toEqual([
      [INCR, 'noExpiry', 14, 17],
      [SET, 'setWithoutTtl', 15, 17],
      [SET, 'setWithoutTtl', 16, 17],
    ]);
  });

  it('a deleter calling a function of the same name as the writer, not the writer, still deletes its key', () => {
    // 6 join (the cleanup calls players.join), 10 seat (the cleanup calls KEY.seat); 20 startRound
    // and 24 nextTurn: finish.ts and turns.ts (through a barrel) call the writer, then DEL
    expect(lint(game).filter(([, , line]) => ![14, 15, 16].includes(line as number))).toEqual([
      [SET, 'setWithoutTtl', 20, 17],
      [SET, 'setWithoutTtl', 24, 17],
    ]);
    expect(lint(game, { allowDeletedKeys: false }).filter(([, , line]) => (line as number) <= 10)).toEqual([
      [INCR, 'deletedElsewhere', 6, 17],
      [SET, 'deletedElsewhere', 10, 17],
    ]);
  });
});

describe('cross-file lifecycle: a writer named by any property key', () => {
  it("a writer under the key '*' (an event router's catch-all) is read, not a crash", () => {
    // the cleanup's DEL of Room:*:Players manages the SADD: the writer's name is text, not a pattern
    expect(lint(join(fixtures, 'app', 'events.ts'))).toEqual([]);
    expect(lint(join(fixtures, 'app', 'events.ts'), { allowDeletedKeys: false })).toEqual([[INCR, 'deletedElsewhere', 6, 17]]);
  });
});

describe('cross-file lifecycle: what holds', () => {
  it('an import cycle (a.ts imports b.ts, b.ts imports a.ts) is read once each way: the DEL of b.ts manages the SET of a.ts, named in strict', () => {
    const cycle = join(fixtures, 'cycle');
    expect(lint(join(cycle, 'a.ts'))).toEqual([]);
    expect(lint(join(cycle, 'b.ts'))).toEqual([]);
    const strict = lintSnippet(readFileSync(join(cycle, 'a.ts'), 'utf8'), { [`redis-ttl/${SET}`]: ['error', { allowDeletedKeys: false, allowUncalledCode: false }] } as never, join(cycle, 'a.ts'));
    expect(strict.map((m) => [m.line, m.column, m.messageId, /deleted only by the [^:]*/.exec(m.message)?.[0]])).toEqual([
      [5, 15, 'deletedElsewhere', 'deleted only by the DEL at line 4 of `b.ts`, in another module'],
    ]);
  });
});

describe('redis-ttl-keys --persistent-config: the module syntax of the config ESLint finds', () => {
  const root = mkdtempSync(join(tmpdir(), 'breaker20-config-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  it("a package of a monorepo uses the root's config, not its own package.json type", () => {
    write('mono/package.json', '{ "name": "mono", "private": true }\n');
    write('mono/eslint.config.cjs', 'module.exports = [];\n');
    write('mono/packages/api/package.json', '{ "name": "api", "type": "module" }\n');
    expect(configModuleFormat(join(root, 'mono', 'packages', 'api'))).toBe('commonjs');
  });

  it('without a config, the nearest package.json says', () => {
    write('plain/package.json', '{ "name": "plain", "type": "module" }\n');
    write('plain/packages/web/package.json', '{ "name": "web" }\n');
    write('plain/packages/esm/package.json', '{ "name": "esm", "type": "module" }\n');
    expect(configModuleFormat(join(root, 'plain', 'packages', 'web'))).toBe('unknown');
    expect(configModuleFormat(join(root, 'plain', 'packages', 'esm'))).toBe('esm');
  });
});
