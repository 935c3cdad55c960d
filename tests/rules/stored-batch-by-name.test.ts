/**
 * A batch stored from a `multi()` / `pipeline()` call is that batch, whatever the untyped run makes
 * of the call's receiver: in a class extending the client (`class RedisAdapter extends Redis`,
 * compiled CommonJS `extends ioredis_1.Redis`), `this` is not read as a client without types, and
 * `const multiRedis = this.multi()` was a client by its name alone, its queued commands each a
 * round trip of its own. Now a write and its expiry queued on it share the MULTI (one EXEC), as
 * the typed run reads them. Near misses: a pipeline is not atomic (reported with `allowPipeline:
 * false`, as a typed pipeline is), an expiry sent after the EXEC is outside the MULTI, and a
 * variable written again holds more than the batch.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, setSuggestions, untypedTester } from './tester.js';

/** A CommonJS class extending ioredis's client; `body` holds its methods, from line 4. */
const adapter = (body: string): string => `"use strict";\nconst ioredis_1 = require("ioredis");\nclass RedisAdapter extends ioredis_1.Redis {\n${body}\n}\nexports.RedisAdapter = RedisAdapter;`;

const setValue = adapter(
  '  async setValue(key, value, expiresIn) {\n    const multiRedis = this.multi();\n    multiRedis.set(key, value);\n    if (expiresIn) {\n      multiRedis.pexpire(key, expiresIn);\n    }\n    await multiRedis.exec();\n  }',
);
const setHash = adapter('  async setHash(key, fields, ttl) {\n    const redisTx = this.multi().hmset(key, fields);\n    redisTx.pexpire(key, ttl);\n    await redisTx.exec();\n  }');
const viaPipeline = adapter('  async viaPipeline(key, value, ttl) {\n    const pipelineRedis = this.pipeline();\n    pipelineRedis.hset(key, value);\n    pipelineRedis.pexpire(key, ttl);\n    await pipelineRedis.exec();\n  }');
const expireAfterExec = adapter('  async expireAfterExec(key, value, ttl, redis) {\n    const multiRedis = this.multi();\n    multiRedis.hset(key, value);\n    await multiRedis.exec();\n    await redis.pexpire(key, ttl);\n  }');
const reassigned = adapter('  async reassigned(key, value, ttl, other) {\n    let multiRedis = this.multi();\n    multiRedis = other;\n    multiRedis.set(key, value);\n    multiRedis.pexpire(key, ttl);\n    await multiRedis.exec();\n  }');

runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [setValue, adapter('  async setValue(key, value) {\n    const redisMulti = this.multi();\n    redisMulti.set(key, value, "PX", 1000);\n    await redisMulti.exec();\n  }')],
  invalid: [
    {
      // another value written to the variable: not known to be the batch
      code: reassigned,
      // the SET's own PEXPIRE gives the TTL (PX) and goes (redis-calls/write-expiry.ts)
      errors: [
        {
          messageId: 'setThenExpire',
          line: 7,
          column: 16,
          suggestions: [
            // the TTL is a parameter, maybe 0: offered with the PEXPIRE kept, SET would refuse 0
            { messageId: 'addLaterExpiry', output: reassigned.replace('multiRedis.set(key, value);', "multiRedis.set(key, value, 'PX', ttl);") },
            setSuggestions(reassigned, 'multiRedis.set(key, value')[1]!,
          ],
        },
      ],
    },
  ],
});

runRule(untypedTester, 'incr-needs-expire-on-create', incrRule, {
  valid: [setHash, viaPipeline],
  invalid: [
    {
      // a pipeline is not atomic
      code: viaPipeline,
      options: [{ allowPipeline: false }],
      errors: [{ messageId: 'pipelineNotAtomic', line: 6, column: 19, suggestions: [{ messageId: 'useMulti', output: viaPipeline.replace('this.pipeline()', 'this.multi()') }] }],
    },
    {
      // the expiry is sent after the EXEC: outside the MULTI
      code: expireAfterExec,
      errors: [{ messageId: 'noExpiry', line: 6, column: 16, suggestions: [{ messageId: 'appendExpire', output: expireAfterExec.replace('multiRedis.hset(key, value);', 'multiRedis.hset(key, value).expire(key, TTL_SECONDS);') }] }],
    },
  ],
});
