/**
 * Breaker round 27: odd but realistic code against the round's new readings (queue structures
 * another script of the file drains, clients handed on or named by a type argument, a DEL only on
 * a try's success path, an over-limit give-back after an early exit, a write after a read that
 * saw the key with other work between). Each case is a leak a reading hid, or a finding nobody
 * would fix, and the result it must give.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintSnippet } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const LUA = 'redis-ttl/embedded-lua';
const lintLua = (code: string) => lintSnippet(code, { [LUA]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);
const head = "import Redis from 'ioredis';\nconst redis = new Redis();\n";
const define = (name: string, keys: number, lua: string) => `redis.defineCommand('${name}', { numberOfKeys: ${keys}, lua: "${lua}" });\n`;

describe('embedded-lua allowConsumedQueues: the drain must be able to run', () => {
  const push = define('push', 1, "redis.call('RPUSH', KEYS[1], ARGV[1])");
  const take = define('take', 1, "return redis.call('LPOP', KEYS[1])");
  const writer = 'const key = (q: string) => `work:${q}`;\nexport const push = (q: string, v: string) => redis.push(key(q), v);\n';

  it('does not take the defined command\'s name for a call of a wrapper named like it that nothing calls', () => {
    // `take` wraps `redis.take`; nothing calls it, so nothing pops `work:<q>`: the list only grows
    expect(lintLua(`${head}${push}${take}${writer}function take(q: string) { return redis.take(key(q)); }\n`)).toEqual([[LUA, 'luaFinding', 3, 54]]);
    expect(lintLua(`${head}${push}${take}${writer}const take = (q: string) => redis.take(key(q));\n`)).toEqual([[LUA, 'luaFinding', 3, 54]]);
    // exported, or called in the file, the wrapper drains the list
    expect(lintLua(`${head}${push}${take}${writer}export function take(q: string) { return redis.take(key(q)); }\n`)).toEqual([]);
    expect(lintLua(`${head}${push}${take}${writer}function take(q: string) { return redis.take(key(q)); }\nexport const worker = (q: string) => setInterval(() => take(q), 1000);\n`)).toEqual([]);
  });
});

describe('embedded-lua allowConsumedQueues: a key both scripts build from their KEYS[1]', () => {
  const join = define('join', 1, "local m = KEYS[1] .. ':members' redis.call('SADD', m, ARGV[1])");
  const leave = define('leave', 1, "local m = KEYS[1] .. ':members' redis.call('SREM', m, ARGV[1])");

  it('does not take `KEYS[1] .. suffix` of two scripts for one key when their KEYS[1] are two keys', () => {
    // join fills `room:<id>:members`; leave empties `team:<id>:members`: the room sets stay
    const code = `${head}${join}${leave}export const join = (room: string, id: string) => redis.join(\`room:\${room}\`, id);\nexport const leave = (team: string, id: string) => redis.leave(\`team:\${team}\`, id);\n`;
    expect(lintLua(code)).toEqual([[LUA, 'luaFinding', 3, 86]]);
    // the same KEYS[1] at both calls: one key, drained
    expect(lintLua(code.replace('redis.leave(`team:${team}`', 'redis.leave(`room:${team}`'))).toEqual([]);
  });
});

describe('embedded-lua allowConsumedQueues: a script called with a key the other script never drains', () => {
  const def = (name: string, lua: string) => `redis.defineCommand('${name}', { numberOfKeys: 1, lua: "${lua}" });\n`;
  const base =
    head +
    def('enqueue', "redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])") +
    def('ack', "redis.call('ZREM', KEYS[1], ARGV[1])") +
    'const queueKey = (q: string) => `jobs:${q}:queue`;\nconst deadKey = (q: string) => `jobs:${q}:dead`;\n' +
    'export const add = (q: string, id: string) => redis.enqueue(queueKey(q), id, Date.now());\nexport const done = (q: string, id: string) => redis.ack(queueKey(q), id);\n';

  it('reports the enqueue when it is also called with a dead-letter key the ack never takes from', () => {
    expect(lintLua(base)).toEqual([]);
    // `jobs:<q>:dead` is filled by the same script and never acked: it grows for good
    expect(lintLua(`${base}export const bury = (q: string, id: string) => redis.enqueue(deadKey(q), id, Date.now());\n`)).toEqual([[LUA, 'luaFinding', 3, 57]]);
  });
});

describe('a DEL on the success path of a try: only work that can fail before it', () => {
  const upload = "import { redis } from './store';\nexport async function upload(id: string, rows: string[]) {\n  await redis.lPush(`import:${id}:rows`, rows);\n}\n";
  const files = (before: string) => ({
    'store.ts': "import { createClient } from 'redis';\nexport const redis = createClient();\n",
    'upload.ts': upload,
    'cron.ts': `import { redis } from './store';\nimport { work } from './work';\nexport async function run(id: string) {\n  try {\n${before}    await redis.del(\`import:\${id}:rows\`);\n  } catch (error) {\n    console.error(error);\n  }\n}\n`,
  });
  const manifest = '{ "name": "app", "private": true, "dependencies": { "redis": "5.0.0" } }';
  const lint = (before: string) => lintApplication(roots, files(before), 'upload.ts', { 'incr-needs-expire-on-create': undefined }, [], manifest);

  it('keeps the DEL the key\'s end when only a key\'s name or a log line comes before it in the try', () => {
    // nothing before the DEL can fail: it runs whenever run() does, as outside a try
    expect(lint('    const key = `import:${id}:rows`;\n')).toEqual([]);
    expect(lint("    console.log('clearing import', id);\n")).toEqual([]);
  });

  it('still reports the rows when awaited work before the DEL may fail and the catch goes on', () => {
    expect(lint('    await work(await redis.lRange(`import:${id}:rows`, 0, -1));\n')).toEqual([['incr-needs-expire-on-create', 'noExpiry', 3, 15]]);
  });
});

const INCR = 'redis-ttl/incr-needs-expire-on-create';
const lintIncr = (code: string) => lintSnippet(code, { [INCR]: 'error' }).map((m) => [m.ruleId, m.messageId, m.line, m.column]);

describe('incr-needs-expire-on-create: a write after a read that saw the key, refreshed after other work', () => {
  // the read saw the list; load() ran; the list may be gone by the RPUSH, which then recreates it
  const append = (between: string) => `${head}export async function append(id: string, load: (id: string) => Promise<string>, notify: (id: string) => Promise<void>) {
  const key = \`messages:\${id}\`;
  if (await redis.exists(key)) {
    const message = await load(id);
    try {
      await redis.rpush(key, message);
${between}      await redis.expire(key, 86400);
    } catch (error) {
      console.error(error);
    }
  }
}
`;

  it('does not take a refresh a handled failure in between can skip for one that always follows', () => {
    // a failed notify() is logged and the recreated list keeps no TTL
    expect(lintIncr(append('      await notify(id);\n'))).toEqual([[INCR, 'separateRoundTrip', 8, 19]]);
    // nothing that can fail between the write and the refresh
    expect(lintIncr(append(''))).toEqual([]);
    expect(lintIncr(append("      console.log('appended', id);\n"))).toEqual([]);
  });

  it('does not take an EXPIRE ... GT, which leaves a key without TTL alone, for the refresh', () => {
    const code = append('').replace('redis.expire(key, 86400)', "redis.expire(key, 86400, 'GT')");
    expect(lintIncr(code)).toEqual([[INCR, 'noExpiry', 8, 19]]);
  });
});
