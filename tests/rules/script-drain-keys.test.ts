/**
 * `embedded-lua` allowConsumedQueues (`redis-calls/script-consumers.ts`), the keys it compares:
 * a key both scripts build through a local (`local base = KEYS[1]; base .. ':members'`) is one
 * key only when that `KEYS[i]` is one key at their calls, as when spelled directly; and a script
 * text evaluated at several calls is drained only when every call's key is (a `const` script
 * evaluated with the queue key and with a dead-letter key nothing takes from is not).
 */
import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../helpers/lint.js';

const LUA = 'redis-ttl/embedded-lua';
const lintLua = (code: string) => lintSnippet(code, { [LUA]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);
const head = "import Redis from 'ioredis';\nconst redis = new Redis();\n";
const define = (name: string, lua: string) => `redis.defineCommand('${name}', { numberOfKeys: 1, lua: "${lua}" });\n`;

describe('a key both scripts build from their KEYS[1] through a local', () => {
  const join = define('join', "local base = KEYS[1] local m = base .. ':members' redis.call('SADD', m, ARGV[1])");
  const leave = define('leave', "local base = KEYS[1] local m = base .. ':members' redis.call('SREM', m, ARGV[1])");
  const calls = (other: string) =>
    `export const join = (room: string, id: string) => redis.join(\`room:\${room}\`, id);\nexport const leave = (id: string, member: string) => redis.leave(\`${other}:\${id}\`, member);\n`;

  it('reports the SADD when the two scripts are called with two different keys', () => {
    // join fills `room:<id>:members`; leave empties `team:<id>:members`: the room sets stay
    expect(lintLua(`${head}${join}${leave}${calls('team')}`)).toEqual([[LUA, 'luaFinding', 3, 104]]);
  });

  it('takes the set for drained when both are called with the same key', () => {
    expect(lintLua(`${head}${join}${leave}${calls('room')}`)).toEqual([]);
  });

  it('does not take two locals of one name holding different KEYS for one key', () => {
    const leaveOther = define('leave', "local base = KEYS[2] local m = base .. ':members' redis.call('SREM', m, ARGV[1])").replace('numberOfKeys: 1', 'numberOfKeys: 2');
    const code = `${head}${join}${leaveOther}export const join = (room: string, id: string) => redis.join(\`room:\${room}\`, id);\nexport const leave = (room: string, id: string) => redis.leave(\`cfg:\${room}\`, \`team:\${room}\`, id);\n`;
    expect(lintLua(code)).toEqual([[LUA, 'luaFinding', 3, 104]]);
  });
});

describe('one script text evaluated at several calls', () => {
  const scripts = `const ENQUEUE = "redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])";\nconst ACK = "redis.call('ZREM', KEYS[1], ARGV[1])";\n`;
  const keys = 'const queueKey = (q: string) => `jobs:${q}:queue`;\nconst deadKey = (q: string) => `jobs:${q}:dead`;\n';
  const add = 'export const add = (q: string, id: string) => redis.eval(ENQUEUE, 1, queueKey(q), id, Date.now());\n';
  const done = 'export const done = (q: string, id: string) => redis.eval(ACK, 1, queueKey(q), id);\n';

  it('takes the queue for drained when every call of the enqueue passes a key the ack takes from', () => {
    expect(lintLua(`${head}${scripts}${keys}${add}${done}`)).toEqual([]);
  });

  it('reports the enqueue when another call of the same text passes a dead-letter key nothing takes from', () => {
    const bury = 'export const bury = (q: string, id: string) => redis.eval(ENQUEUE, 1, deadKey(q), id, Date.now());\n';
    expect(lintLua(`${head}${scripts}${keys}${add}${done}${bury}`)).toEqual([[LUA, 'luaFinding', 3, 18]]);
  });
});

describe('every key a command names, and server.call', () => {
  const push = define('push', "redis.call('RPUSH', KEYS[1], ARGV[1])");
  const take = (lua: string) => define('take', lua).replace('numberOfKeys: 1', 'numberOfKeys: 2');
  const calls = (taken = 'q') =>
    `export const push = (q: string, v: string) => redis.push(\`q:\${q}\`, v);\nexport const take = (q: string) => redis.take(\`${taken}:\${q}\`, \`w:\${q}\`);\n`;
  // the taken element moves to a working list that expires
  const moved = "redis.call('PEXPIRE', KEYS[2], 60000) return v";

  it('takes a list for drained when LMOVE pops it as its source', () => {
    expect(lintLua(`${head}${push}${take(`local v = redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT') ${moved}`)}${calls()}`)).toEqual([]);
  });

  it('does not take a list for drained when LMOVE only pushes to it (its destination)', () => {
    // the push's list and LMOVE's destination grow; LMOVE's source is the working list
    const code = `${head}${push}${take(`local v = redis.call('LMOVE', KEYS[2], KEYS[1], 'LEFT', 'RIGHT') ${moved}`)}${calls()}`;
    expect(lintLua(code)).toEqual([
      [LUA, 'luaFinding', 3, 54],
      [LUA, 'luaFinding', 4, 64],
    ]);
  });

  it('takes a list for drained when LMPOP pops it as its second key', () => {
    expect(lintLua(`${head}${push}${take("return redis.call('LMPOP', 2, KEYS[2], KEYS[1], 'LEFT')")}${calls()}`)).toEqual([]);
  });

  it("reads Valkey's server.call as redis.call", () => {
    expect(lintLua(`${head}${push}${take("return server.call('LPOP', KEYS[1])")}${calls()}`)).toEqual([]);
  });

  it('still reports the push when the consumer pops another key', () => {
    expect(lintLua(`${head}${push}${take("return redis.call('LPOP', KEYS[1])")}${calls('dead')}`)).toEqual([[LUA, 'luaFinding', 3, 54]]);
  });
});
