/**
 * Pass-through facades of a class instance a CommonJS module exports whole (round 21,
 * slots_server's `RedisUtil`: `module.exports = new RedisUtil()`, whose `set(key, value)` forwards
 * to a promisified node_redis `set`): `const RedisUtil = require('./redis_util')` names that
 * instance, so `RedisUtil.set(key, 0)` is read as the SET its method forwards, at the caller, with
 * the caller's key, as `new RedisUtil().set(...)` or an ES default import of it was. Limits: a
 * module that exports an instance of a class whose method sends no Redis command (an in-memory
 * `Map`) gives nothing; a method the instance does not have (`get`, a read) is no write.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'required-instance-facade', 'util');
/** The caller module: SET then EXPIRE in a `.then`, SETNX then a guarded EXPIRE, a Map's `set`, an object literal's facade, a read. */
const cacheFile = join(fixturesDir, 'cache_util.js');
const code = readFileSync(cacheFile, 'utf8');
/** The in-memory store's `set` and a read through the Redis instance: nothing to report. */
const quiet = `const RedisUtil = require('./redis_util');
const MemoryUtil = require('./memory_util');
exports.remember = function (userId) {
  MemoryUtil.set('seen' + userId, 1);
};
exports.read = function (userId) {
  return RedisUtil.get('bankPwdErrorTimes' + userId);
};`;

runRule(untypedTester, 'set-requires-ttl-or-keepttl (facades of an instance a module exports whole)', setRule, {
  valid: [{ code: quiet, filename: cacheFile }],
  invalid: [
    {
      code,
      filename: cacheFile,
      errors: [
        // RedisUtil.set(key, 0).then(() => RedisUtil.expire(key, 300)): SET of bankPwdErrorTimes*
        { messageId: 'setWithoutTtl', line: 7, column: 13 },
        // await RedisUtil.setNxAsync(key, Date.now()): SETNX, its EXPIRE only on a later round trip
        // (setThenExpire, as at a client, since round 28: a facade's later EXPIRE is read too)
        { messageId: 'setThenExpire', line: 11, column: 33 },
        // ObjectUtil.set(...): a facade of an object literal the module exports (read before too)
        { messageId: 'setWithoutTtl', line: 18, column: 20 },
      ],
    },
  ],
});
