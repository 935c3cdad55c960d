/**
 * Round 28 (t49-recall): node-redis 2 / 3 promisified by bluebird (`promisifyAll(redis.RedisClient
 * .prototype)`: `setAsync`, `expireAsync`, read as SET and EXPIRE, `redis-calls/promisified.ts`)
 * behind an application's setter module whose functions take one options object,
 *
 * ```js
 * const set = async ({ key, value, client = dataClient }) => client.setAsync(key, value);
 * module.exports = { set, expire };                 // setter.js, passed on by index.js:
 * module.exports = { redisSetter: require('./setter') };
 * const { redisSetter } = require('../redis');      // a caller
 * await redisSetter.set({ key, value: '' });        // SET, then EXPIRE in the next round trip
 * await redisSetter.expire({ key, ttl });
 * ```
 *
 * Each such function is a facade of the command it names (`redis-calls/facades.ts`): its key is a
 * name it destructures from its object parameter, so a caller's call is read with the property of
 * that name of the object literal the caller passes (the pattern's default when the caller leaves
 * it out); the receiver `client = dataClient` is the client its default is; the module passed on
 * as a value of another (`redisSetter: require('./setter')`) is the setter module, not a client
 * named `redisSetter`. Near misses: an object the caller does not spell (a variable, a spread
 * that may set the key) is not read; a same-shaped function over a `Map` sends nothing; `get` is a
 * read; a SET with EX through `setEx` has its TTL. The fixtures are in
 * tests/fixtures/promisified-wrappers (Waiviogit/object-import-service's shape, round 27's missed
 * leaks).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'promisified-wrappers');

/** The findings of both rules in one fixture file: [rule, line, column, messageId, first word]. */
function lint(path: string): Array<[string | null, number, number, string | undefined, string]> {
  const filename = join(fixtures, path);
  const linter = new Linter({ configType: 'flat', cwd: fixtures });
  const messages = linter.verify(
    readFileSync(filename, 'utf8'),
    [
      {
        files: ['**/*.js'],
        languageOptions: { sourceType: 'commonjs', ecmaVersion: 2022 },
        plugins: { t: { rules: { set: setRule as never, incr: incrRule as never } } },
        rules: { 't/set': 'error', 't/incr': 'error' },
      },
    ],
    { filename },
  );
  return messages.map((m) => [m.ruleId, m.line, m.column, m.messageId, m.message.split(' ')[0]!]);
}

describe('a promisified node-redis setter module of destructured-parameter facades', () => {
  it('reads its callers: SET then EXPIRE in the next round trip, a SET without TTL, an INCR without expiry', () => {
    expect(lint('src/jobs/resume.js')).toEqual([
      // redisSetter.set({ key, value: '' }) then redisSetter.expire({ key, ttl })
      ['t/set', 5, 21, 'setThenExpire', 'SET'],
      // redisSetter.set({ key: `started:${importId}`, value }) and nothing else
      ['t/set', 14, 21, 'setWithoutTtl', 'SET'],
      // redisSetter.incr({ key: `runs:${user}` }): the key is the property, not the object
      ['t/incr', 18, 34, 'noExpiry', 'INCR'],
      // not read: setEx's EX, get (a read), set(options), set({ ...extra }), the Map-backed memory.set
    ]);
  });
  it('leaves the facades themselves to their callers', () => {
    expect(lint('src/redis/setter.js')).toEqual([]);
    expect(lint('src/redis/memory.js')).toEqual([]);
  });
  it('names the key the caller passes in the message', () => {
    const filename = join(fixtures, 'src/jobs/resume.js');
    const linter = new Linter({ configType: 'flat', cwd: fixtures });
    const [first] = linter.verify(
      readFileSync(filename, 'utf8'),
      [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs', ecmaVersion: 2022 }, plugins: { t: { rules: { set: setRule as never } } }, rules: { 't/set': 'error' } }],
      { filename },
    );
    expect(first?.message).toContain('SET of `continue:*:*` writes it without TTL and its expiry follows as a separate round trip (line 6)');
  });
});
