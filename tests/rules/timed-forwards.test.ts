/**
 * A pass-through wrapper stays one when it times the call it forwards or converts the caller's
 * arguments on the way (`redis-calls/pass-through.ts`): statements that only read the clock
 * (`const start = Date.now()`, `const elapsed = Date.now() - start`, `performance.now()`,
 * `process.hrtime.bigint()`) are not counted against its short body, as log lines are not; and a
 * function assigned as a method of an object (`redis.xAdd = (stream, id, data) => { ...
 * redis.xadd(...args) }`) is named by that property. The wrapper is left alone where it is and its
 * callers are judged (a caller that leaks is reported at the caller's line; one that expires the key
 * through the timed EXPIRE wrapper is not). Near misses stay reported where they are: a timed
 * wrapper that writes a literal key family of its own (it chose the key), one that sends a second
 * command (its own EXPIRE), one whose extra statements do more than time the call.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { ioredis, runRule, untypedTester } from './tester.js';

/** RedisService with a zadd and an expire timed as gengui-core's are (lines 3-26); `caller` from line 27. */
const timed = (zaddBody: string, caller: string): string =>
  ioredis(
    `const logger = { warn(..._a: unknown[]) {} };\nclass RedisService {\n  async zadd(key: string, score: number, member: string): Promise<number> {\n${zaddBody}\n  }\n  async expire(key: string, seconds: number): Promise<number> {\n    const start = Date.now();\n    const result = await redis.expire(key, seconds);\n    const elapsed = Date.now() - start;\n    if (elapsed > 100) {\n      logger.warn({ key, seconds, elapsed }, '[REDIS SLOW] expire');\n    }\n    return result;\n  }\n}\nconst service = new RedisService();\n${caller}`,
  );
const TIMED_ZADD =
  "    const start = Date.now();\n    const result = await redis.zadd(key, score, member);\n    const elapsed = Date.now() - start;\n    if (elapsed > 100) {\n      logger.warn({ key, elapsed }, '[REDIS SLOW] zadd');\n    }\n    return result;";

runRule(untypedTester, 'incr-needs-expire-on-create (timed and converting forwards)', incrRule, {
  valid: [
    // one bounded key at the caller: nothing to report anywhere
    timed(TIMED_ZADD, "export async function track(id: string) {\n  await service.zadd('generations:all', Date.now(), id);\n}"),
    // performance.now() / process.hrtime.bigint() time it as well; nothing calls it
    timed(
      '    const t0 = performance.now();\n    const t1 = process.hrtime.bigint();\n    const result = await redis.zadd(key, score, member);\n    logger.warn(performance.now() - t0, process.hrtime.bigint() - t1);\n    return result;',
      '',
    ),
    // a helper assigned as a method of the client, converting an object to field / value arguments
    "const Redis = require('ioredis');\nconst redis = new Redis();\nredis.xAdd = (stream, id, data) => {\n  const args = [stream, id];\n  for (const [key, value] of Object.entries(data)) {\n    args.push(key, value.toString());\n  }\n  return redis.xadd(...args);\n};\nmodule.exports = redis;",
  ],
  invalid: [
    {
      // the caller's key is never expired: reported at the caller, not in the wrapper
      code: timed(TIMED_ZADD, 'export async function track(id: string) {\n  await service.zadd(`gen:${id}`, Date.now(), id);\n}'),
      errors: [{ messageId: 'noExpiry', line: 26, column: 17 }],
    },
    {
      // the caller expires the key through the timed EXPIRE wrapper, in a second round trip: judged
      // there as the same two client calls would be
      code: timed(TIMED_ZADD, 'export async function track(id: string) {\n  await service.zadd(`gen:${id}`, Date.now(), id);\n  await service.expire(`gen:${id}`, 172800);\n}'),
      errors: [{ messageId: 'separateRoundTrip', line: 26, column: 17 }],
    },
    {
      // the timed wrapper writes a literal family of its own: it chose the key
      code: timed(TIMED_ZADD.replace('redis.zadd(key,', 'redis.zadd(`rank:${key}`,'), ''),
      errors: [{ messageId: 'noExpiry', line: 7, column: 32 }],
    },
    {
      // more than timing: it reads the key first and decides
      code: timed(
        '    const start = Date.now();\n    const seen = await redis.zscore(key, member);\n    const bonus = seen ? 1 : 0;\n    const result = await redis.zadd(key, score + bonus, member);\n    logger.warn(Date.now() - start);\n    return result;',
        '',
      ),
      errors: [{ messageId: 'noExpiry', line: 9, column: 32 }],
    },
  ],
});
