/**
 * ioredis sends `undefined` and `null` as an empty argument (`utils.toArg`): `set(k, v, 'EX', 60,
 * nx ? 'NX' : undefined)` goes out as `SET k v EX 60 ""` when `nx` is false, and Redis answers
 * "ERR syntax error" (`'EX', undefined`: "value is not an integer"), so the key is never written
 * on that branch (checked with ioredis 5 on redis-server 7.0.15). valid-ttl-args reports an argument
 * that is `undefined` / `null` on some branch as written (the literal, `void 0`, an arm of a
 * conditional) where the command table says an empty argument makes Redis reject the command; a
 * conditional argument of the call gets a suggestion to spread it (`...(nx ? ['NX'] : [])`). Not
 * reported: a name that may hold undefined, a local named `undefined`, slots where `""` is data
 * (the value of SET), node-redis (which reads an options object), an unknown client.
 */
import rule from '../../rules/valid-ttl-args.js';
import { ioredis, nodeRedis, runRule, untypedTester } from './tester.js';

const error = (column: number, text: string, command = 'SET', line = 3) => ({ messageId: 'emptyToken' as const, line, column, data: { text, command } });

runRule(untypedTester, 'valid-ttl-args (ioredis empty token)', rule, {
  valid: [
    // spread away on the nullish branch: nothing is sent
    ioredis("await redis.set(k, v, 'EX', 60, ...(nx ? ['NX'] : []));"),
    // a name that may be undefined is not certainly so
    ioredis("await redis.set(k, v, 'EX', 60, mode);"),
    ioredis("await redis.set(k, v, 'EX', 60, nx ? 'NX' : mode);"),
    // a local named undefined is a value
    ioredis("function f(undefined) { return redis.set(k, v, 'EX', 60, undefined); }"),
    // SET's value: an empty string is data
    ioredis('await redis.set(k, undefined);'),
    ioredis("await redis.set(k, null, 'EX', 60);"),
    // node-redis reads an options object; an unknown client is not judged
    nodeRedis("await client.set(k, v, { EX: 60, NX: nx ? true : undefined });"),
    "await redis.set(k, v, 'EX', 60, nx ? 'NX' : undefined);",
  ],
  invalid: [
    {
      code: ioredis("await redis.set(k, v, 'EX', 60, nx ? 'NX' : undefined);"),
      errors: [
        {
          ...error(33, "nx ? 'NX' : undefined"),
          suggestions: [{ messageId: 'leaveOut', data: { replacement: "...(nx ? ['NX'] : [])" }, output: ioredis("await redis.set(k, v, 'EX', 60, ...(nx ? ['NX'] : []));") }],
        },
      ],
    },
    {
      code: ioredis("await redis.set(k, v, 'EX', 60, onlyIfMissing ? null : 'XX');"),
      errors: [
        {
          ...error(33, "onlyIfMissing ? null : 'XX'"),
          suggestions: [{ messageId: 'leaveOut', data: { replacement: "...(onlyIfMissing ? [] : ['XX'])" }, output: ioredis("await redis.set(k, v, 'EX', 60, ...(onlyIfMissing ? [] : ['XX']));") }],
        },
      ],
    },
    { code: ioredis("await redis.set(k, v, 'EX', 60, undefined);"), errors: [{ ...error(33, 'undefined'), suggestions: [] }] },
    { code: ioredis("await redis.set(k, v, 'EX', 60, void 0);"), errors: [{ ...error(33, 'void 0'), suggestions: [] }] },
    { code: ioredis('await redis.set(k, v, null);'), errors: [{ ...error(23, 'null'), suggestions: [] }] },
    // the TTL itself: `EX ""` is "value is not an integer"; leaving it out would send `SET k v EX`,
    // a syntax error too, so no suggestion
    { code: ioredis("await redis.set(k, v, 'EX', ttl > 0 ? ttl : undefined);"), errors: [{ ...error(29, 'ttl > 0 ? ttl : undefined'), suggestions: [] }] },
    // the generic form, and SETEX / EXPIRE / GETEX whose TTL would be ""
    {
      code: ioredis("await redis.call('SET', k, v, 'EX', 60, nx ? 'NX' : undefined);"),
      errors: [
        {
          ...error(41, "nx ? 'NX' : undefined"),
          suggestions: [{ messageId: 'leaveOut', data: { replacement: "...(nx ? ['NX'] : [])" }, output: ioredis("await redis.call('SET', k, v, 'EX', 60, ...(nx ? ['NX'] : []));") }],
        },
      ],
    },
    { code: ioredis('await redis.setex(k, ttl ? ttl : null, v);'), errors: [{ ...error(22, 'ttl ? ttl : null', 'SETEX'), suggestions: [] }] },
    { code: ioredis('await redis.expire(k, undefined);'), errors: [{ ...error(23, 'undefined', 'EXPIRE'), suggestions: [] }] },
    { code: ioredis("await redis.getex(k, 'EX', undefined);"), errors: [{ ...error(28, 'undefined', 'GETEX'), suggestions: [] }] },
  ],
});
