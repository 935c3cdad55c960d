/**
 * A client package required as an optional dependency (round 38, `redis-calls/optional-require.ts`):
 * `let Redis = null; try { Redis = require('ioredis'); } catch { Redis = null; }` stands for
 * ioredis where it is used, so `new Redis(url)` is a client and its writes are read. Near-misses:
 * a variable that may hold two modules, or any other value, stays unknown (its writes unread).
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const optional = [
  'let Redis = null;',
  'try {',
  "  Redis = require('ioredis');",
  '} catch (_) {',
  '  Redis = null;',
  '}',
  'const client = Redis ? new Redis(process.env.REDIS_URL) : null;',
  'async function save(id, v) {',
  '  await client.set(`user:${id}`, v);',
  '}',
  'module.exports = { save };',
].join('\n');
const declaredBare = optional.replace('let Redis = null;', 'let Redis;').replace('  Redis = null;', '  Redis = undefined;');
const twoModules = optional.replace('  Redis = null;', "  Redis = require('./memory-redis');");
const otherValue = optional.replace('  Redis = null;', '  Redis = makeStub();');
const counter = [
  'let Redis = null;',
  "try { Redis = require('ioredis'); } catch (_) { Redis = null; }",
  'const redisClient = new Redis();',
  'async function hit(ip) {',
  '  return redisClient.incr(`hits:${ip}`);',
  '}',
].join('\n');

runRule(untypedTester, 'set-requires-ttl-or-keepttl (optional client dependency)', setRule, {
  valid: [{ code: twoModules }, { code: otherValue }],
  invalid: [
    { code: optional, errors: [{ messageId: 'setWithoutTtl', line: 9, column: 16, suggestions: [{ messageId: 'addExpiryPlaceholder', output: optional.replace('v);', "v, 'EX', TTL_SECONDS);") }, { messageId: 'addKeepTtl', output: optional.replace('v);', "v, 'KEEPTTL');") }] }] },
    { code: declaredBare, errors: [{ messageId: 'setWithoutTtl', line: 9, column: 16, suggestions: [{ messageId: 'addExpiryPlaceholder', output: declaredBare.replace('v);', "v, 'EX', TTL_SECONDS);") }, { messageId: 'addKeepTtl', output: declaredBare.replace('v);', "v, 'KEEPTTL');") }] }] },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create (optional client dependency)', incrRule, {
  valid: [],
  invalid: [{ code: counter, errors: [{ messageId: 'noExpiry', line: 5, column: 22, suggestions: [] }] }],
});
