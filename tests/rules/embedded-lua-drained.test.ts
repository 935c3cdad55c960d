/**
 * A job engine's queue structures kept in its own Lua scripts (`redis-calls/script-consumers.ts`):
 * one script adds a member to a sorted set, set, hash or list (enqueue), another script of the
 * file, called from code that may run, takes it off again by name (ZREM / SREM / HDEL: ack) or
 * pops it (LPOP, ZPOPMIN: dequeue), the same key at their calls. Redis deletes the emptied
 * collection, so `recommended` does not report the write, as it does not a TypeScript push its
 * consumer pops. Near misses stay reported: no script removes from the key, a removal from
 * another key, a removal in a function nothing calls, a stream (kept when empty), a hash field
 * removed only by a literal nobody adds, and everything in `strict`.
 */
import rule from '../../rules/embedded-lua.js';
import { runRule, untypedTester } from './tester.js';

const head = "import Redis from 'ioredis';\nconst redis = new Redis();\n";
const define = (name: string, keys: number, lua: string) => `redis.defineCommand('${name}', { numberOfKeys: ${keys}, lua: "${lua}" });\n`;
const enqueue = define('enqueue', 2, "redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1]) redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])");
const ack = define('ack', 2, "redis.call('ZREM', KEYS[1], ARGV[1]) redis.call('HDEL', KEYS[2], ARGV[1])");
const queueKey = 'const queueKey = (q: string) => `jobs:${q}:queue`;\nconst itemsKey = (q: string) => `jobs:${q}:items`;\n';
const calls =
  'export class Queue {\n' +
  '  add(q: string, id: string, v: string) { return redis.enqueue(queueKey(q), itemsKey(q), id, Date.now(), v); }\n' +
  '  done(q: string, id: string) { return redis.ack(queueKey(q), itemsKey(q), id); }\n' +
  '}\n';
const error = (line: number, column: number) => ({ messageId: 'luaFinding' as const, line, column });
/** The 1-based column of the `redis.call` at `offset` in the script of a `define(name, ...)` line. */
const at = (name: string, offset = 0) => `redis.defineCommand('${name}', { numberOfKeys: 1, lua: "`.length + offset + 1;
/** The offset of the HSET in the `enqueue` script. */
const HSET = "redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1]) ".length;

runRule(untypedTester, 'embedded-lua (queue structures another script of the file drains)', rule, {
  valid: [
    // enqueue adds the id to the queue and the items hash, ack removes both by name
    { code: `${head}${queueKey}${enqueue}${ack}${calls}` },
    // a list pushed by one script and popped by another (the dequeue)
    {
      code:
        `${head}${define('push', 1, "redis.call('RPUSH', KEYS[1], ARGV[1])")}${define('take', 1, "return redis.call('LPOP', KEYS[1])")}` +
        'const key = (q: string) => `work:${q}`;\nexport const push = (q: string, v: string) => redis.push(key(q), v);\nexport const take = (q: string) => redis.take(key(q));\n',
    },
    // eval calls: an in-flight set a member joins on dequeue and leaves on release
    {
      code:
        `${head}const JOIN = "redis.call('SADD', KEYS[1], ARGV[1])";\nconst LEAVE = "redis.call('SREM', KEYS[1], ARGV[1])";\n` +
        'export const join = (q: string, id: string) => redis.eval(JOIN, 1, `inflight:${q}`, id);\nexport const leave = (q: string, id: string) => redis.eval(LEAVE, 1, `inflight:${q}`, id);\n',
    },
    // a key built in both scripts the same way, passed nothing but its parts
    {
      code:
        `${head}${define('join', 1, "local members = ARGV[1] .. ':members' redis.call('SADD', members, ARGV[2]) return redis.call('GET', KEYS[1])")}` +
        `${define('leave', 1, "local members = ARGV[1] .. ':members' redis.call('SREM', members, ARGV[2]) return redis.call('GET', KEYS[1])")}` +
        'export const join = (room: string, id: string) => redis.join(`cfg:${room}`, `room:${room}`, id);\nexport const leave = (room: string, id: string) => redis.leave(`cfg:${room}`, `room:${room}`, id);\n',
    },
  ],
  invalid: [
    {
      // no other script removes from the queue: the second one only reads it
      code: `${head}${queueKey}${enqueue}${define('ack', 2, "return redis.call('ZRANGE', KEYS[1], 0, -1)")}${calls}`,
      errors: [error(5, at('enqueue')), error(5, at('enqueue', HSET))],
    },
    {
      // the ack removes from another key (a done set), not from the queue
      code: `${head}${queueKey}const doneKey = (q: string) => \`jobs:\${q}:done\`;\n${enqueue}${ack}` + calls.replace('redis.ack(queueKey(q), itemsKey(q), id)', 'redis.ack(doneKey(q), itemsKey(q), id)'),
      errors: [error(6, at('enqueue'))],
    },
    {
      // the ack is called only from a function nothing calls
      code: `${head}${queueKey}${enqueue}${ack}${calls.replace('  done(', '  private done(')}`,
      errors: [error(5, at('enqueue')), error(5, at('enqueue', HSET))],
    },
    {
      // a stream: Redis keeps it when its last entry is deleted
      code:
        `${head}${define('publish', 1, "redis.call('XADD', KEYS[1], '*', 'v', ARGV[1])")}${define('consume', 1, "redis.call('XDEL', KEYS[1], ARGV[1])")}` +
        'const key = (q: string) => `events:${q}`;\nexport const publish = (q: string, v: string) => redis.publish(key(q), v);\nexport const consume = (q: string, id: string) => redis.consume(key(q), id);\n',
      errors: [error(3, at('publish'))],
    },
    {
      // fields added per id, removed only by a field nobody adds
      code:
        `${head}${define('put', 1, "redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])")}${define('reset', 1, "redis.call('HDEL', KEYS[1], 'config')")}` +
        'const key = (q: string) => `state:${q}`;\nexport const put = (q: string, id: string, v: string) => redis.put(key(q), id, v);\nexport const reset = (q: string) => redis.reset(key(q));\n',
      errors: [error(3, at('put'))],
    },
    {
      // strict reports it: the queue stays if the consumer stops
      code: `${head}${queueKey}${enqueue}${ack}${calls}`,
      options: [{ allowConsumedQueues: false }],
      errors: [error(5, at('enqueue')), error(5, at('enqueue', HSET))],
    },
  ],
});
