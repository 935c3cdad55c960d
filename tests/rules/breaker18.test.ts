/**
 * Breaker round 18: inputs where the round's new exemptions hid real leaks.
 *
 * - message keys (`redis-calls/message-key.ts`): a Postgres pool's `connect` event hands a pg
 *   client, whose `notification` event carries what a database trigger sent (`NOTIFY`), not a
 *   key a connected user typed;
 * - undecided dialects (`redis-calls/dialect.ts`): a global the file itself stores a node-redis
 *   client in is decided, so ioredis-style tokens on it are still node-redis 4's dropped TTL;
 * - module methods (`redis-calls/module-methods.ts`): an export re-assigned to a wrapper of itself
 *   (`exports.bump = util.deprecate(exports.bump, ...)`) still runs, and `exports.incr` of a
 *   module that then replaces `module.exports` with its client is no export at all.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import noPersist from '../../rules/no-persist.js';
import validTtlArgs from '../../rules/valid-ttl-args.js';
import { ioredis, runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'breaker18');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });

const pgNotify = ioredis("pool.on('connect', (client) => {\n  client.on('notification', (msg) => redis.sadd(msg.channel, msg.payload));\n});");
const pgPersist = ioredis("pool.on('connect', (client) => {\n  client.on('notification', (msg) => redis.persist(msg.payload));\n});");

runRule(untypedTester, 'incr-needs-expire-on-create (breaker 18)', incrRule, {
  valid: [],
  invalid: [
    // a pg client's NOTIFY payload is the database's message, not a user's key
    { code: pgNotify, errors: [{ messageId: 'noExpiry', line: 4, column: 44 }] },
    // `exports.bump` wrapped by util.deprecate still runs: its INCR of the caller's key is live
    { ...file('src/deprecated.js'), errors: [{ messageId: 'noExpiry', line: 5, column: 16, suggestions: [] }] },
    // `module.exports = client` drops `exports.incr`: `redis.incr` is the client's INCR (read
    // as the dropped function's ZINCRBY before; the command is asserted below)
    { ...file('src/hits.js'), errors: [{ messageId: 'noExpiry', line: 4, column: 14, suggestions: [{ messageId: 'wrapInMulti', output: file('src/hits.js').code.replace("redis.incr('hits:' + id)", "redis.multi().incr('hits:' + id).expire('hits:' + id, TTL_SECONDS).exec()") }] }] },
  ],
});

runRule(untypedTester, 'no-persist (breaker 18)', noPersist, {
  valid: [],
  invalid: [{ code: pgPersist, errors: [{ messageId: 'persist', line: 4, column: 44 }] }],
});

runRule(untypedTester, 'valid-ttl-args (breaker 18)', validTtlArgs, {
  valid: [],
  invalid: [
    {
      code: "import { createClient } from 'redis';\nglobalThis.redisClient = createClient();\nexport const f = (k, v) => globalThis.redisClient.set(k, v, 'EX', 60);",
      settings: { 'redis-ttl': { nodeRedisVersion: '4' } },
      errors: [
        {
          messageId: 'positionalTokens',
          line: 3,
          column: 61,
          suggestions: [{ messageId: 'useOptionsObject', output: "import { createClient } from 'redis';\nglobalThis.redisClient = createClient();\nexport const f = (k, v) => globalThis.redisClient.set(k, v, { EX: 60 });" }],
        },
      ],
    },
  ],
});

describe('a module that replaces module.exports with its client (breaker 18)', () => {
  it('reads `redis.incr` as the client\'s INCR, not the dropped `exports.incr`', () => {
    const linter = new Linter({ configType: 'flat', cwd: fixtures });
    const { code, filename } = file('src/hits.js');
    const messages = linter.verify(
      code,
      [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' }, plugins: { t: { rules: { incr: incrRule as never } } }, rules: { 't/incr': 'error' } }],
      { filename },
    );
    expect(messages.map((m) => [m.line, m.column, m.messageId, m.message.split(' ')[0]])).toEqual([[4, 14, 'noExpiry', 'INCR']]);
  });
});
