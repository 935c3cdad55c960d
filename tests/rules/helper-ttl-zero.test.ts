/**
 * A TTL-arms helper of a CommonJS service module called with a TTL that takes its arm without
 * expiry (round 38, `redis-calls/exported-arms-helpers.ts`, `redis-calls/option-arms.ts`). The
 * kind: `setJson(key, value, ttl = 60)` writes `SET key v EX ttl` when `ttl` is truthy and a plain
 * `SET` otherwise; its module exports it in `module.exports = { setJson }` and guards its client
 * with early returns (`if (!c) return false;`, `if (c.status !== 'ready') return false;`), and
 * loads ioredis as an optional dependency (`let Redis = null; try { Redis = require('ioredis') }
 * catch { Redis = null }`: `redis-calls/optional-require.ts`). A caller passing `0`, `null` or a
 * `const` holding 0 takes the plain arm: SET of the caller's key without expiry, reported at the
 * caller. Near-misses: a TTL of 60 or an hour (expiring arm), `undefined` or no argument (the
 * default, 60), a TTL the caller does not know (`ttl`: not read, as before), a fixed key
 * (`'replay:config'`: bounded), a key the same code deletes, and a helper whose early return sits
 * between its arms (`setGated`: it chooses an arm, not read). A helper without a default
 * (`setText(key, v, ttl)`, `ttl > 0`) takes its plain arm when the TTL is left out.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'helper-ttl-zero');

function lint(path: string, parser?: typeof tsParser): Array<[number, number, string, string]> {
  const filename = join(fixtures, path);
  const linter = new Linter({ configType: 'flat', cwd: fixtures });
  const messages = linter.verify(
    readFileSync(filename, 'utf8'),
    [
      {
        files: ['**/*.js'],
        languageOptions: { sourceType: 'commonjs', ...(parser ? { parser } : {}) },
        plugins: { t: { rules: { set: setRule as never, incr: incrRule as never } } },
        rules: { 't/set': 'error', 't/incr': 'error' },
      },
    ],
    { filename },
  );
  return messages.map((m) => [m.line, m.column, m.messageId ?? '', m.message.split(' ').slice(0, 3).join(' ')]);
}

const atCallers: Array<[number, number, string, string]> = [
  [9, 22, 'setWithoutTtl', 'SET of `replay:session:*`'],
  [10, 22, 'setWithoutTtl', 'SET of `replay:summary:*`'],
  [12, 22, 'setWithoutTtl', 'SET of `replay:meta:*`'],
  [13, 22, 'setWithoutTtl', 'SET of `replay:note:*`'],
  [14, 22, 'setWithoutTtl', 'SET of `replay:label:*`'],
];

describe('TTL-arms helpers of a CommonJS service module, called with a TTL that takes the arm without expiry', () => {
  it('reports the callers passing 0, null, a const of 0, or leaving out a TTL with no default (espree)', () => {
    expect(lint('src/services/replay.js')).toEqual(atCallers);
  });
  it('reads the same with @typescript-eslint/parser', () => {
    expect(lint('src/services/replay.js', tsParser)).toEqual(atCallers);
  });
  it('names the TTL the caller passed and the arm it takes', () => {
    const filename = join(fixtures, 'src/services/replay.js');
    const linter = new Linter({ configType: 'flat', cwd: fixtures });
    const [first] = linter.verify(readFileSync(filename, 'utf8'), [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' }, plugins: { t: { rules: { set: setRule as never } } }, rules: { 't/set': 'error' } }], { filename });
    expect(first?.message).toContain("(TTL `0` takes `redisService.setJson`'s SET without expiry, ./redisService.js:33.)");
  });
  it('an early return whose own branch is the plain arm still chooses it: the caller leaving out the TTL is reported, the caller passing 60 is not', () => {
    expect(lint('src/services/maybe.js')).toEqual([[6, 22, 'setWithoutTtl', 'SET of `maybe:session:*`']]);
    expect(lint('src/services/maybeService.js')).toEqual([]);
  });
  it('leaves the helpers themselves alone: their callers choose the key and the arm', () => {
    expect(lint('src/services/redisService.js')).toEqual([]);
  });
});
