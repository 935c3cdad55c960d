/**
 * Keys whose life the code manages without a TTL (redis-calls/lifecycle.ts):
 *
 * - "keys the code deletes itself and never expires": a write creating a key without TTL (a
 *   collection write, a counter, a plain SET) whose key shape the same file deletes as a whole
 *   (DEL, UNLINK, GETDEL) in another function, off the writer's path, and never expires: a GC, a
 *   sweeper, an invalidation on change. `recommended` (`allowDeletedKeys`) leaves it alone;
 *   `strict` reports it saying a crash before the DEL leaves the key forever. Near misses keep
 *   their findings: a lock released by DEL, a key the file also expires, a DEL of another shape,
 *   a DEL in the writer's own function before it, a DEL on the path of the operation
 *   that wrote (a caller of the writer: scratch keys deleted only on success), HDEL / SREM, a key
 *   written by a function that gives a key a TTL (an index set beside an expiring record).
 * - "ID sequences": an INCR / INCRBY whose reply names another key or is stored or returned as an
 *   id (`allowIdSequences`); a counter compared with a limit or returned as a count is reported.
 */
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { lintSnippet, lintWriteRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const lint = lintWriteRules;

const INCR = 'incr-needs-expire-on-create';
const SET = 'set-requires-ttl-or-keepttl';

// a client GC removes a client's subscription set (faye-redis)
const a1 = ioredis(`export async function subscribe(clientId: string, channel: string) {
  await redis.sadd(\`clients:\${clientId}:channels\`, channel);
}
export async function destroyClient(clientId: string) {
  await redis.del(\`clients:\${clientId}:channels\`);
}
`);
// a sweeper method of a class, UNLINK, callbacks (vrite's session index)
const a2 = ioredis(`export class Sessions {
  add(role: string, id: string) {
    return redis.sadd(\`role:\${role}:sessions\`, id).then(() => id);
  }
  sweep(roles: string[]) {
    for (const role of roles) redis.unlink(\`role:\${role}:sessions\`, () => undefined);
  }
}
`);
// a cache written without TTL, invalidated on change; a counter reset by a job; GETDEL consuming
const a3 = ioredis(`export async function cacheUser(id: string, user: object) {
  await redis.set(\`user:\${id}\`, JSON.stringify(user));
  await redis.hincrby(\`user:\${id}:stats\`, 'writes', 1);
}
export const onUserChanged = async (id: string) => {
  await redis.del(\`user:\${id}\`, \`user:\${id}:stats\`);
};
export async function take(id: string) {
  return redis.getdel(\`pending:\${id}\`);
}
export async function put(id: string, v: string) {
  await redis.set(\`pending:\${id}\`, v);
}
`);
// a key with no static part: the same member in two methods is one key (bounded: allowConstantKeys off)
const a4 = ioredis(`export class Queue {
  constructor(private readonly pending: string) {}
  push(job: string) {
    return redis.rpush(this.pending, job);
  }
  purge() {
    return redis.del(this.pending);
  }
}
`);

// a lock released by DEL: a crashed owner holds it forever
const n1 = ioredis(`export async function acquire(name: string, token: string) {
  return redis.set(\`lock:\${name}\`, token, 'NX');
}
export async function claim(job: string, token: string) {
  await redis.setnx(\`job:\${job}:owner\`, token);
  await redis.set(\`job:\${job}:claim\`, token);
}
export async function release(name: string, job: string) {
  await redis.del(\`lock:\${name}\`, \`job:\${job}:owner\`, \`job:\${job}:claim\`);
}
`);
// INCR + EXPIRE in two round trips beside a resetKey(): the key is meant to expire
const n2 = ioredis(`export async function hit(ip: string) {
  const n = await redis.incr(\`rl:\${ip}\`);
  if (n === 1) await redis.expire(\`rl:\${ip}\`, 60);
  return n;
}
export async function resetKey(ip: string) {
  await redis.del(\`rl:\${ip}\`);
}
`);
// a DEL of another shape; HDEL / SREM remove members only; a DEL before the write in the writer's
// own function (one after it on every path is deleted-after.ts' reading: buffer())
const n3 = ioredis(`export async function add(id: string, m: string) {
  await redis.sadd(\`a:\${id}\`, m);
  await redis.hset(\`h:\${id}\`, 'f', m);
}
export async function remove(id: string, m: string) {
  await redis.del(\`b:\${id}\`);
  await redis.srem(\`a:\${id}\`, m);
  await redis.hdel(\`h:\${id}\`, 'f');
}
export async function rebuild(id: string, items: string[]) {
  await redis.del(\`list:\${id}\`);
  await redis.rpush(\`list:\${id}\`, ...items);
}
export async function buffer(id: string, m: string) {
  await redis.rpush(\`buf:\${id}\`, m);
  await new Promise((r) => setTimeout(r, 1000));
  await redis.del(\`buf:\${id}\`);
}
`);
// the DEL on the path of the operation that wrote: scratch keys deleted only on success (dub)
const n4 = ioredis(`const step = async (id: string, n: number) => {
  await redis.incrby(\`import:\${id}:created\`, n);
};
async function batch(id: string) {
  await step(id, 10);
}
export async function run(id: string) {
  await batch(id);
  await redis.del(\`import:\${id}:created\`);
}
`);
// two variables of one name in two functions (minified code) are two keys
const n5 = ioredis(`export function put(t: string, v: string) {
  return redis.rpush(t, v);
}
export function clear(t: string) {
  return redis.del(t);
}
`);
// two closures of one operation: the failure handler deletes what the step wrote (dub's upload)
const n6 = ioredis(`export const POST = handler(async (id: string, rows: string[][]) => {
  const fail = async () => {
    await redis.del(\`upload:\${id}:rows\`);
  };
  const parser = {
    step: (row: string[]) => redis.lpush(\`upload:\${id}:rows\`, ...row).catch(fail),
  };
  rows.forEach(parser.step);
});
`);
// a compiled class in its IIFE: the methods are still two functions
const a5 = ioredis(`export var Store = (function () {
  function Store() {}
  Store.prototype.add = function (id: string, v: string) { return redis.sadd('members:' + id, v); };
  Store.prototype.drop = function (id: string) { return redis.del('members:' + id); };
  return Store;
})();
`);

// near misses: an index set written beside a record that expires (by the writer itself, or by a
// function of the file it calls), deleted only when the record is removed: the record's expiry
// never runs that DEL, so the index outlives it
const n7 = ioredis(`export async function put(ns: string, key: string, val: string, ttl: number) {
  await redis.multi().set(\`\${ns}:\${key}\`, val).expire(\`\${ns}:\${key}\`, ttl).exec();
  await redis.sadd(\`_index:\${ns}:\${key}\`, 'by-owner');
}
export async function save(ns: string, key: string, val: string) {
  await putRecord(ns, key, val);
  await redis.sadd(\`_refs:\${ns}:\${key}\`, 'owner');
}
async function putRecord(ns: string, key: string, val: string) {
  await redis.set(\`rec:\${ns}:\${key}\`, val, 'EX', 60);
}
export async function remove(ns: string, key: string) {
  await redis.del(\`_index:\${ns}:\${key}\`, \`_refs:\${ns}:\${key}\`);
}
`);

describe('keys the code deletes itself and never expires', () => {
  it('leaves them alone by default (allowDeletedKeys)', () => {
    for (const code of [a1, a2, a3, a5]) expect(lint(code), code).toEqual([]);
    expect(lint(a4, { allowConstantKeys: false })).toEqual([]);
  });

  it('reports them without allowDeletedKeys, naming the DEL', () => {
    expect(lint(a1, { allowDeletedKeys: false })).toEqual([[INCR, 'deletedElsewhere', 4, 15, '7']]);
    expect(lint(a2, { allowDeletedKeys: false })).toEqual([[INCR, 'deletedElsewhere', 5, 18, '8']]);
    expect(lint(a3, { allowDeletedKeys: false })).toEqual([
      [SET, 'deletedElsewhere', 4, 15, '8'],
      [INCR, 'deletedElsewhere', 5, 15, '8'],
      [SET, 'deletedElsewhere', 14, 15, '11'],
    ]);
    expect(lint(a4, { allowDeletedKeys: false, allowConstantKeys: false })).toEqual([[INCR, 'deletedElsewhere', 6, 18, '9']]);
  });

  it('is off in the strict config only', () => {
    for (const rule of [INCR, SET]) {
      expect(plugin.configs.strict.rules?.[`redis-ttl/${rule}`]).toEqual(['error', expect.objectContaining({ allowDeletedKeys: false })]);
      expect(plugin.configs.recommended.rules?.[`redis-ttl/${rule}`]).toBe('error');
    }
  });

  it('keeps reporting locks, keys meant to expire, other shapes, members, the writer\'s own DEL', () => {
    expect(lint(n1)).toEqual([
      [SET, 'createWithoutTtl', 4, 16, undefined],
      [SET, 'createWithoutTtl', 7, 15, undefined],
      [SET, 'setWithoutTtl', 8, 15, undefined],
    ]);
    expect(lint(n2)).toEqual([[INCR, 'separateRoundTrip', 4, 25, '5']]);
    expect(lint(n3)).toEqual([
      [INCR, 'noExpiry', 4, 15, undefined],
      [INCR, 'noExpiry', 5, 15, undefined],
      [INCR, 'noExpiry', 14, 15, undefined],
    ]);
    // buffer(): the DEL follows the write on every path of its own function (deleted-after.ts), so
    // recommended leaves it; strict reports it
    expect(lint(n3, { allowDeletedKeys: false })).toContainEqual([INCR, 'deletedElsewhere', 17, 15, '19']);
    expect(lint(n4)).toEqual([[INCR, 'noExpiry', 4, 15, undefined]]);
    expect(lint(n5)).toEqual([[INCR, 'noExpiry', 4, 16, undefined]]);
    expect(lint(n6)).toEqual([[INCR, 'noExpiry', 8, 36, undefined]]);
    expect(lint(n7)).toEqual([
      [INCR, 'noExpiry', 5, 15, undefined],
      [INCR, 'noExpiry', 9, 15, undefined],
    ]);
  });
});

// the reply names the key of another call; .then(id => ...)
const b1 = ioredis(`export async function createUser(tenant: string, name: string) {
  const id = await redis.incr(\`users:\${tenant}:next\`);
  await redis.hset(\`user:\${id}\`, 'name', name);
  return id;
}
export function createJob(shard: string, data: string) {
  return redis.incr(\`q:\${shard}:counter\`).then((n) => redis.hset(\`q:\${shard}:job:\${n}\`, 'data', data));
}
`);
// stored as an id; returned from an id key or by a function named like an id
const b2 = ioredis(`export async function add(prefix: string, data: string) {
  return { id: await redis.incr(\`\${prefix}:id\`), data };
}
export async function nextOrderId(shop: string) {
  return redis.incrby(\`shop:\${shop}:orders\`, 1);
}
export async function enqueue(tenant: string) {
  const jobId = await redis.incr(\`queue:\${tenant}:seq\`);
  return jobId;
}
`);
// near misses: a rate limiter (compared with a limit, even named id), a count returned
const m1 = ioredis(`export async function limit(ip: string) {
  const n = await redis.incr(\`rl:\${ip}\`);
  if (n > 10) throw new Error('slow down');
}
export async function countVisit(page: string) {
  return redis.incr(\`visits:\${page}\`);
}
export async function attempt(user: string) {
  const id = await redis.incr(\`attempts:\${user}:id\`);
  return id >= 5;
}
`);

describe('ID sequences', () => {
  it('leaves them alone by default (allowIdSequences), not the records they name', () => {
    expect(lint(b1)).toEqual([
      [INCR, 'noExpiry', 5, 15, undefined],
      [INCR, 'noExpiry', 9, 61, undefined],
    ]);
    expect(lint(b2)).toEqual([]);
  });

  it('reports them without allowIdSequences, as a possible sequence', () => {
    expect(lint(b2, { allowIdSequences: false }).map((f) => f.slice(0, 4))).toEqual([
      [INCR, 'idSequence', 4, 28],
      [INCR, 'idSequence', 7, 16],
      [INCR, 'idSequence', 10, 29],
    ]);
    const why = lintSnippet(b1, { 'redis-ttl/incr-needs-expire-on-create': ['error', { allowIdSequences: false }] }).map((m) => /and (its reply [^:]+):/.exec(m.message)?.[1]);
    expect(why).toEqual(['its reply names the key of HSET', undefined, 'its reply names the key of HSET', undefined]);
    expect(plugin.configs.strict.rules?.[`redis-ttl/${INCR}`]).toEqual(['error', expect.objectContaining({ allowIdSequences: false })]);
  });

  it('keeps reporting a counter compared with a limit or returned as a count', () => {
    expect(lint(m1)).toEqual([
      [INCR, 'noExpiry', 4, 25, undefined],
      [INCR, 'noExpiry', 8, 16, undefined],
      [INCR, 'noExpiry', 11, 26, undefined],
    ]);
  });
});


// failed-attempt and rate counters: an INCR / INCRBY per identity whose reply is compared with a
// limit; the DEL elsewhere resets it when the identity succeeds, and one that never comes back
// keeps its key forever
const f1 = ioredis(`const MAX_LOGIN_FAILURES = 5;
export async function loginFailed(email: string) {
  const failures = await redis.incr(\`login:failed:\${email}\`);
  if (failures >= MAX_LOGIN_FAILURES) throw new Error('locked out');
}
export async function loginSucceeded(email: string) {
  await redis.del(\`login:failed:\${email}\`);
}
`);
// a named limit of an options object, a number, a const holding one; INCRBY, .then, a Node
// callback, the limit on the left; UNLINK and GETDEL reset them
const f2 = ioredis(`const THREE = 3;
export function hit(ip: string, opts: { max: number }) {
  return redis.incrby(\`hits:\${ip}\`, 2).then((n) => opts.max < n);
}
export async function wrongCode(user: string) {
  return (await redis.incr(\`otp:wrong:\${user}\`)) > 3;
}
export function retry(job: string, done: (over: boolean) => void) {
  redis.incr(\`job:\${job}:retries\`, (err, tries) => done(tries > THREE));
}
export async function reset(ip: string, user: string, job: string) {
  await redis.unlink(\`hits:\${ip}\`, \`otp:wrong:\${user}\`);
  await redis.getdel(\`job:\${job}:retries\`);
}
`);
// near misses: a counter whose reply is not compared (an allocator), or compared with what is no
// limit (another reply); a bounded counter (one key)
const g1 = ioredis(`export async function ticket(queue: string) {
  const n = await redis.incr(\`tickets:\${queue}\`);
  return \`\${queue}-\${n}\`;
}
export async function bump(doc: string, seen: number) {
  const version = await redis.incr(\`doc:\${doc}:version\`);
  return version > seen;
}
export async function globalFailure() {
  const n = await redis.incr('failures:global');
  if (n > 100) throw new Error('circuit open');
}
export async function reset(queue: string, doc: string) {
  await redis.del(\`tickets:\${queue}\`, \`doc:\${doc}:version\`, 'failures:global');
}
`);

describe('failed-attempt and rate counters reset by a DEL elsewhere', () => {
  it('reports them: the DEL is a reset on success, not the end of their life', () => {
    expect(lint(f1)).toEqual([[INCR, 'noExpiry', 5, 32, undefined]]);
    expect(lint(f2)).toEqual([
      [INCR, 'noExpiry', 5, 16, undefined],
      [INCR, 'noExpiry', 8, 23, undefined],
      [INCR, 'noExpiry', 11, 9, undefined],
    ]);
  });

  it('says the key can live forever in the strict config too, not that a crash skips the DEL', () => {
    expect(lint(f1, { allowDeletedKeys: false })).toEqual([[INCR, 'noExpiry', 5, 32, undefined]]);
  });

  it('keeps leaving alone a counter not compared with a limit, and a bounded one', () => {
    expect(lint(g1, { allowConstantKeys: false })).toEqual([]);
    expect(lint(g1, { allowDeletedKeys: false, allowConstantKeys: false })).toEqual([
      [INCR, 'deletedElsewhere', 4, 25, '16'],
      [INCR, 'deletedElsewhere', 8, 31, '16'],
      [INCR, 'deletedElsewhere', 12, 25, '16'],
    ]);
  });
});
