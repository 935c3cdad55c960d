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
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import noPersist from '../../rules/no-persist.js';
import { ioredis, runRule, untypedTester } from './tester.js';

const pgNotify = ioredis("pool.on('connect', (client) => {\n  client.on('notification', (msg) => redis.sadd(msg.channel, msg.payload));\n});");
const pgPersist = ioredis("pool.on('connect', (client) => {\n  client.on('notification', (msg) => redis.persist(msg.payload));\n});");

runRule(untypedTester, 'incr-needs-expire-on-create (breaker 18)', incrRule, {
  valid: [],
  invalid: [
    // a pg client's NOTIFY payload is the database's message, not a user's key
    { code: pgNotify, errors: [{ messageId: 'noExpiry', line: 4, column: 44 }] },
  ],
});

runRule(untypedTester, 'no-persist (breaker 18)', noPersist, {
  valid: [],
  invalid: [{ code: pgPersist, errors: [{ messageId: 'persist', line: 4, column: 44 }] }],
});
