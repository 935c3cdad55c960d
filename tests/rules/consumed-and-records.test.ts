/**
 * Two more kinds of keys whose life is not a leak (redis-calls/lifecycle.ts), each left alone by
 * `recommended` and reported by `strict` with its own message:
 *
 * - "work queues their consumer drains" (`allowConsumedQueues`): a list, set or sorted set pushed
 *   to (LPUSH, RPUSH, SADD, ZADD ...) that another function of the file pops from (LPOP, BRPOP,
 *   BLMOVE, SPOP, BZPOPMIN ...): Redis deletes it with its last element. Near misses keep their
 *   findings: a family only written, a pop of another family or type, a read (LRANGE, LINDEX),
 *   LTRIM, a stream (XADD / XREADGROUP), a pop in the writer's own function or in a helper it
 *   calls, a key the file also expires.
 * - "field updates of records created with a TTL" (`allowTtlRecordUpdates`): a write that keeps the
 *   TTL (HSET, HINCRBY, ZINCRBY, APPEND ...) of a key another function creates with an expiry (SET
 *   ... EX, or a write and its EXPIRE). Near misses: a family never expired, an expiry of another
 *   key, a SET / PERSIST of the key in the updating function, an updating function that gives
 *   keys TTLs itself (it creates), a string counter (INCR), bare parameters not named as an id
 *   (a store's `key`, `t` of minified code).
 */
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { lintWriteRules, type WriteFinding as Finding } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

const lint = lintWriteRules;

const INCR = 'incr-needs-expire-on-create';
const SET = 'set-requires-ttl-or-keepttl';

// an outbox list in a member, pushed at either end, drained in batches by a job
const q1 = ioredis(`export class Outbox {
  key = 'outbox';
  constructor(region: string) {
    this.key += ':' + region;
  }
  add(events: string[], urgent = false) {
    return urgent ? redis.lpush(this.key, ...events) : redis.rpush(this.key, ...events);
  }
  async take(count = 100) {
    return (await redis.lpop(this.key, count)) ?? [];
  }
}
`);
// a crawl frontier set drained by SPOP, a delayed-job sorted set drained by BZPOPMIN
const q2 = ioredis(`export async function enqueue(site: string, url: string, at: number) {
  await redis.sadd(\`crawl:\${site}:todo\`, url);
  await redis.zadd(\`delayed:\${site}\`, at, url);
}
export async function work(site: string) {
  const url = await redis.spop(\`crawl:\${site}:todo\`);
  const next = await redis.bzpopmin(\`delayed:\${site}\`, 5);
  return [url, next];
}
`);
// a reliable queue (node-redis): the worker moves each job to its processing list, one pair of
// lists per tenant (a family: a parameter named `queue` would be one key per configured queue,
// bounded: tests/rules/queue-name-keys.test.ts)
const q3 = nodeRedis(`export async function submit(tenant: string, job: string) {
  await client.lPush(\`jobs:\${tenant}\`, job);
}
export async function worker(tenant: string) {
  return client.blMove(\`jobs:\${tenant}\`, \`busy:\${tenant}\`, 'RIGHT', 'LEFT', 0);
}
`);
// node-redis pops with a count: lPopCount, zPopMinCount
const q4 = nodeRedis(`export async function queueMail(id: string, msg: string) {
  await client.rPush(\`mail:\${id}\`, msg);
  await client.zAdd(\`retry:\${id}\`, { score: Date.now(), value: msg });
}
export async function sendMail(id: string) {
  const batch = await client.lPopCount(\`mail:\${id}\`, 50);
  const retries = await client.zPopMinCount(\`retry:\${id}\`, 10);
  return [batch, retries];
}
`);

// only written; popped under another family; read with LRANGE / LINDEX; trimmed with LTRIM
const n1 = ioredis(`export async function log(id: string, line: string) {
  await redis.rpush(\`log:\${id}\`, line);
  await redis.rpush(\`feed:\${id}\`, line);
  await redis.rpush(\`recent:\${id}\`, line);
  await redis.sadd(\`tags:\${id}\`, line);
}
export async function read(id: string) {
  await redis.lpop(\`other:\${id}\`);
  await redis.lrange(\`feed:\${id}\`, 0, -1);
  await redis.lindex(\`feed:\${id}\`, 0);
  await redis.ltrim(\`recent:\${id}\`, 0, 99);
  await redis.rpop(\`tags:\${id}\`);
}
`);
// a stream is not deleted when empty; a pop in the writer's own function or in a helper it calls
// bounds the list; a family the file also expires is meant to expire
const n2 = ioredis(`export async function publish(id: string, e: string) {
  await redis.xadd(\`events:\${id}\`, '*', 'e', e);
}
export async function consume(id: string) {
  return redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', \`events:\${id}\`, '>');
}
export async function remember(id: string, v: string) {
  await redis.lpush(\`last:\${id}\`, v);
  if ((await redis.llen(\`last:\${id}\`)) > 10) await redis.rpop(\`last:\${id}\`);
  await redis.lpush(\`seen:\${id}\`, v);
  await trim(id);
}
async function trim(id: string) {
  await redis.rpop(\`seen:\${id}\`);
}
export async function push(id: string, v: string) {
  await redis.rpush(\`work:\${id}\`, v);
}
export async function touch(id: string) {
  await redis.expire(\`work:\${id}\`, 60);
}
export async function pop(id: string) {
  return redis.lpop(\`work:\${id}\`);
}
`);

describe('work queues their consumer drains', () => {
  it('leaves them alone by default (allowConsumedQueues)', () => {
    for (const code of [q1, q2, q4]) expect(lint(code), code).toEqual([]);
    // the processing list BLMOVE fills is no queue drained by a pop (its jobs leave by LREM on ack)
    expect(lint(q3)).toEqual([[INCR, 'noExpiry', 7, 17, undefined]]);
  });

  it('reports them without allowConsumedQueues, naming the pop', () => {
    const strict = { allowConsumedQueues: false };
    expect(lint(q1, strict)).toEqual([
      [INCR, 'consumedElsewhere', 9, 27, '12'],
      [INCR, 'consumedElsewhere', 9, 62, '12'],
    ]);
    expect(lint(q2, strict)).toEqual([
      [INCR, 'consumedElsewhere', 4, 15, '8'],
      [INCR, 'consumedElsewhere', 5, 15, '9'],
    ]);
    expect(lint(q3, strict)).toEqual([
      [INCR, 'consumedElsewhere', 4, 16, '7'],
      [INCR, 'noExpiry', 7, 17, undefined],
    ]);
    expect(lint(q4, strict)).toEqual([
      [INCR, 'consumedElsewhere', 4, 16, '8'],
      [INCR, 'consumedElsewhere', 5, 16, '9'],
    ]);
  });

  it('is off in the strict config only', () => {
    expect(plugin.configs.strict.rules?.[`redis-ttl/${INCR}`]).toEqual(['error', expect.objectContaining({ allowConsumedQueues: false })]);
    expect(plugin.configs.recommended.rules?.[`redis-ttl/${INCR}`]).toBe('error');
  });

  it('keeps reporting keys only written, other families, reads, LTRIM, streams, the writer\'s own pops', () => {
    expect(lint(n1)).toEqual([
      [INCR, 'noExpiry', 4, 15, undefined],
      [INCR, 'noExpiry', 5, 15, undefined],
      [INCR, 'noExpiry', 6, 15, undefined],
      [INCR, 'noExpiry', 7, 15, undefined],
    ]);
    expect(lint(n2)).toEqual([
      [INCR, 'noExpiry', 4, 15, undefined],
      [INCR, 'noExpiry', 10, 15, undefined],
      [INCR, 'noExpiry', 12, 15, undefined],
      [INCR, 'noExpiry', 19, 15, undefined],
    ]);
  });
});

// a hash record created with its TTL in one MULTI, whose fields other methods update
const r1 = ioredis(`export class Exports {
  async create(id: string, data: Record<string, string>) {
    const key = \`export:\${id}\`;
    await redis.multi().hset(key, data).expire(key, 86400).exec();
  }
  async progress(id: string, n: number) {
    await redis.hincrby(\`export:\${id}\`, 'done', n);
  }
  async cancel(id: string) {
    await redis.hset(\`export:\${id}\`, 'status', 'cancelled');
  }
}
`);
// a record keyed by its id alone, created by a write then EXPIRE; a builder method reached through a const
const r2 = ioredis(`export class Files {
  async save(id: string, meta: Record<string, string>, seconds: number) {
    await redis.hset(id, meta);
    await redis.expire(id, seconds);
  }
  flag(id: string) {
    return redis.hset(id, 'flagged', 1);
  }
}
export class Grants {
  constructor(private name: string) {}
  async upsert(id: string, payload: string, ttl: number) {
    const key = this.key(id);
    await redis.multi().hset(key, 'payload', payload).expire(key, ttl).exec();
  }
  async consume(id: string) {
    await redis.hset(this.key(id), 'consumed', Date.now());
  }
  key(id: string) {
    return this.name + ':' + id;
  }
}
`);
// a string record created with SET ... EX, appended to; a sorted set created with its TTL
const r3 = ioredis(`export async function open(id: string, text: string) {
  await redis.set(\`note:\${id}\`, text, 'EX', 3600);
  await redis.multi().zadd(\`board:\${id}\`, 0, 'init').expire(\`board:\${id}\`, 3600).exec();
}
export async function extend(id: string, text: string, who: string) {
  await redis.append(\`note:\${id}\`, text);
  await redis.zincrby(\`board:\${id}\`, 1, who);
}
`);

// never expired; expiry of another key; a PERSIST or SET on the updating path; a string counter;
// one-letter names of minified code
const m1 = ioredis(`export async function create(id: string) {
  await redis.hset(\`plain:\${id}\`, 'a', 1);
  await redis.hset(\`rec:\${id}\`, 'a', 1);
  await redis.expire(\`index:\${id}\`, 60);
  await redis.set(\`hits:\${id}\`, 0, 'EX', 60);
  await redis.set(\`doc:\${id}\`, 'x', 'EX', 60);
}
export async function update(id: string) {
  await redis.hset(\`plain:\${id}\`, 'b', 2);
  await redis.hset(\`rec:\${id}\`, 'b', 2);
  await redis.incr(\`hits:\${id}\`);
}
export async function pin(id: string) {
  await redis.append(\`doc:\${id}\`, 'y');
  await redis.persist(\`doc:\${id}\`);
}
export function s(t: string) {
  redis.hset(t, 'a', 1);
  redis.expire(t, 60);
}
export function u(t: string) {
  redis.hset(t, 'b', 2);
}
`);

// a SET of the record on the updating path clears the TTL it carried
const m2 = ioredis(`export async function start(id: string) {
  await redis.set(\`draft:\${id}\`, '', 'EX', 600);
}
export async function write(id: string, text: string) {
  await redis.append(\`draft:\${id}\`, text);
  if (text.length > 1000) await redis.set(\`draft:\${id}\`, text.slice(-1000));
}
`);

// a function that gives keys TTLs creates: a member set it leaves without one beside a record it
// expires, or its own write then EXPIRE in two round trips, is its omission
const m3 = ioredis(`export async function populate(story: string, ids: string[]) {
  await redis.multi().sadd(\`members:\${story}\`, ...ids).expire(\`members:\${story}\`, 60).exec();
}
export async function add(story: string, id: string, data: string) {
  await redis.multi().set(\`action:\${id}\`, data).expire(\`action:\${id}\`, 60).sadd(\`members:\${story}\`, id).exec();
}
export async function reseed(story: string, id: string) {
  await redis.sadd(\`members:\${story}\`, id);
  await redis.expire(\`members:\${story}\`, 60);
}
`);
// the updating function expires through a helper it calls: it creates (here the helper's key misses)
const m4 = ioredis(`export class DailyCache {
  tableKey(table: string) {
    return 'cache:' + table;
  }
  async save(table: string, value: string) {
    await redis.set(this.tableKey(table), value, 'EX', 86400);
  }
  async touch(key: string) {
    await redis.expire(this.tableKey(key), 86400);
  }
  async put(table: string, field: string, value: string) {
    await redis.hset(this.tableKey(table), field, value);
    await this.touch(this.tableKey(table));
  }
}
`);
// a store's caller-chosen `key`: any key, not one record
const m5 = ioredis(`export class Usage {
  incr(key: string, ttl: number) {
    return redis.multi().hincrby(key, 'count', 1).expire(key, ttl).exec();
  }
  replace(key: string, count: number) {
    return redis.hset(key, 'count', count);
  }
}
`);

describe('field updates of records created with a TTL', () => {
  it('leaves them alone by default (allowTtlRecordUpdates)', () => {
    expect(lint(r1)).toEqual([]);
    expect(lint(r2)).toEqual([[INCR, 'separateRoundTrip', 5, 17, '6']]);
    expect(lint(r3)).toEqual([]);
  });

  it('reports them without allowTtlRecordUpdates, naming the creating write', () => {
    const strict = { allowTtlRecordUpdates: false };
    expect(lint(r1, strict)).toEqual([
      [INCR, 'updatesTtlRecord', 9, 17, '6'],
      [INCR, 'updatesTtlRecord', 12, 17, '6'],
    ]);
    expect(lint(r2, strict)).toEqual([
      [INCR, 'separateRoundTrip', 5, 17, '6'],
      [INCR, 'updatesTtlRecord', 9, 18, '5'],
      [INCR, 'updatesTtlRecord', 19, 17, '16'],
    ]);
    expect(lint(r3, strict)).toEqual([
      [INCR, 'updatesTtlRecord', 8, 15, '4'],
      [INCR, 'updatesTtlRecord', 9, 15, '5'],
    ]);
  });

  it('is off in the strict config only', () => {
    expect(plugin.configs.strict.rules?.[`redis-ttl/${INCR}`]).toEqual(['error', expect.objectContaining({ allowTtlRecordUpdates: false })]);
  });

  it('keeps reporting records never expired, other keys\' expiries, a cleared TTL, counters, minified names', () => {
    // never read as records created with a TTL: the creations of plain:* and rec:* (lines 4, 5)
    // stay reported; their field updates in update() (lines 11, 12) are the creations' findings
    // since round 34 (redis-calls/record-creation.ts: one finding per family, at its creation)
    const findings: Finding[] = [
      [INCR, 'noExpiry', 4, 15, undefined],
      [INCR, 'noExpiry', 5, 15, undefined],
      [INCR, 'noExpiry', 13, 15, undefined],
      [INCR, 'noExpiry', 16, 15, undefined],
      [INCR, 'separateRoundTrip', 20, 9, '21'],
      [INCR, 'noExpiry', 24, 9, undefined],
    ];
    expect(lint(m1)).toEqual(findings);
    expect(lint(m1, { allowTtlRecordUpdates: false })).toEqual(findings);
    expect(lint(m2)).toEqual([
      [INCR, 'noExpiry', 7, 15, undefined],
      [SET, 'setWithoutTtl', 8, 39, undefined],
    ]);
    expect(lint(m3)).toEqual([
      [INCR, 'noExpiry', 7, 76, undefined],
      [INCR, 'separateRoundTrip', 10, 15, '11'],
    ]);
    expect(lint(m4)).toEqual([[INCR, 'noExpiry', 14, 17, undefined]]);
    expect(lint(m5)).toEqual([[INCR, 'noExpiry', 8, 18, undefined]]);
  });
});

// round 10: a queue the caller names, pushed and popped by methods taking the same parameter, in a
// file that also caches records with a TTL (the record's expiry says nothing of the queue)
const q5 = nodeRedis(`export class Store {
  async put(key: string, v: string, ttl: number) {
    await client.set(key, v, { PX: ttl });
  }
  async enqueue(queueName: string, v: string) {
    await client.lPush(queueName, v);
  }
  async enqueueMany(queueName: string, vs: string[]) {
    const m = client.multi();
    for (const v of vs) m.lPush(queueName, v);
    await m.exec();
  }
  async dequeue(queueName: string) {
    return client.rPop(queueName);
  }
}
`);
// near misses: parameters of another name (a store's generic key, minified t), a name that says
// queue but is never popped, a queue popped only by name under another parameter
const n3 = ioredis(`export async function add(key: string, v: string) {
  await redis.sadd(key, v);
}
export async function take(key: string) {
  return redis.spop(key);
}
export function a(t: string, v: string) {
  return redis.rpush(t, v);
}
export function b(t: string) {
  return redis.lpop(t);
}
export async function log(listName: string, v: string) {
  await redis.rpush(listName, v);
}
export async function enqueue(queue: string, v: string) {
  await redis.rpush(queue, v);
}
export async function dequeue(name: string) {
  return redis.lpop(name);
}
`);

describe('caller-named queues drained by their own dequeue', () => {
  it('leaves them alone by default, reports them without allowConsumedQueues', () => {
    expect(lint(q5)).toEqual([]);
    expect(lint(q5, { allowConsumedQueues: false })).toEqual([
      [INCR, 'consumedElsewhere', 8, 18, '16'],
      [INCR, 'consumedElsewhere', 12, 27, '16'],
    ]);
  });

  it('keeps reporting other parameter names, a list only written, a pop under another name', () => {
    expect(lint(n3)).toEqual([
      [INCR, 'noExpiry', 4, 15, undefined],
      [INCR, 'noExpiry', 10, 16, undefined],
      [INCR, 'noExpiry', 16, 15, undefined],
      [INCR, 'noExpiry', 19, 15, undefined],
    ]);
  });
});

// a stream the caller names, read by a consumer group elsewhere in the file; one capped by MAXLEN;
// XGROUP CREATE ... MKSTREAM (the group's own stream); node-redis' TRIM option
const s1 = ioredis(`export async function publish(stream: string, data: string) {
  await redis.xadd(stream, '*', 'd', data);
}
export async function consume(stream: string) {
  return redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', stream, '>');
}
export async function log(topic: string, e: string) {
  await redis.xadd(topic, 'MAXLEN', '~', 1000, '*', 'e', e);
}
export async function join(streamKey: string, group: string) {
  await redis.xgroup('CREATE', streamKey, group, '$', 'MKSTREAM');
}
`);
const s2 = nodeRedis(`export class Channel {
  name: string;
  constructor(o: { name: string }) {
    this.name = o.name;
  }
  setName(n: string) {
    this.name = n;
  }
  send(e: string) {
    return client.xAdd(this.name, '*', { e });
  }
  ack(id: string) {
    return client.xAck(this.name, 'g', id);
  }
  emit(stream: string, e: string) {
    return client.xAdd(stream, '*', { e }, { TRIM: { strategy: 'MAXLEN', threshold: 1000 } });
  }
}
`);
// node-redis' TRIM option, however its strategy is spelled or held, is the cap it sends (MAXLEN /
// MINID); NOMKSTREAM alone caps nothing
const s3 = nodeRedis(`export function log(stream: string, e: string, minId: string) {
  return client.xAdd(stream, '*', { e }, { TRIM: { strategy: 'MINID', strategyModifier: '~', threshold: minId } });
}
export function audit(stream: string, e: string, trim: { strategy: 'MAXLEN'; threshold: number }) {
  return client.xAdd(stream, '*', { e }, { TRIM: trim });
}
export function raw(name: string, e: string) {
  return client.xAdd(name, '*', { e }, { NOMKSTREAM: false });
}
`);
// near misses: a stream only written; a per-identity stream read only by XRANGE; a per-identity
// stream read by a group or capped (one stream per user outlives the user); a group of another key
const n4 = ioredis(`export async function write(name: string, e: string) {
  await redis.xadd(name, '*', 'e', e);
}
export async function audit(userId: string, e: string) {
  await redis.xadd(\`audit:\${userId}\`, '*', 'e', e);
  await redis.xadd(\`inbox:\${userId}\`, '*', 'e', e);
  await redis.xadd(\`feed:\${userId}\`, 'MAXLEN', '~', 100, '*', 'e', e);
}
export async function history(userId: string) {
  await redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', \`inbox:\${userId}\`, '>');
  return redis.xrange(\`audit:\${userId}\`, '-', '+');
}
export async function other(events: string, e: string) {
  await redis.xadd(events, '*', 'e', e);
  await redis.xack('events', 'g', e);
}
`);

describe('streams read by a consumer group or capped', () => {
  it('leaves them alone by default (allowConsumedQueues)', () => {
    expect(lint(s1)).toEqual([]);
    expect(lint(s2)).toEqual([]);
  });

  it('reports them without allowConsumedQueues, naming the group command or the cap', () => {
    const strict = { allowConsumedQueues: false };
    expect(lint(s1, strict)).toEqual([
      [INCR, 'keptStream', 4, 15, '7'],
      [INCR, 'keptStream', 10, 15, '10'],
      [INCR, 'keptStream', 13, 15, '13'],
    ]);
    expect(lint(s2, strict)).toEqual([
      [INCR, 'keptStream', 12, 19, '15'],
      [INCR, 'keptStream', 18, 19, '18'],
    ]);
  });

  it("reads node-redis' TRIM option as the cap it sends, whatever its strategy", () => {
    expect(lint(s3)).toEqual([[INCR, 'noExpiry', 10, 17, undefined]]);
    expect(lint(s3, { allowConsumedQueues: false })).toEqual([
      [INCR, 'keptStream', 4, 17, '4'],
      [INCR, 'keptStream', 7, 17, '4'],
      [INCR, 'noExpiry', 10, 17, undefined],
    ]);
  });

  it('keeps reporting streams only written, per-identity streams, a group of another key', () => {
    expect(lint(n4)).toEqual([
      [INCR, 'noExpiry', 4, 15, undefined],
      [INCR, 'noExpiry', 7, 15, undefined],
      [INCR, 'noExpiry', 8, 15, undefined],
      [INCR, 'noExpiry', 9, 15, undefined],
      [INCR, 'noExpiry', 16, 15, undefined],
    ]);
  });
});

// code written in unnamed callbacks only (ounstoppableo/chat-platform-nodets routes): the login
// handler creates groups:<user> with its EXPIRE, another handler updates it; near misses: a
// handler that writes and expires in two round trips (its own creation), the update inside the
// creating handler's own callback (one operation), a family no handler expires
const handlers = ioredis(`router.post('/login', async (req: any, res: any) => {
  await redis.hset(\`groups:\${req.body.user}\`, 'g1', '{}');
  await redis.expire(\`groups:\${req.body.user}\`, 604800);
  redis.get('x').then(() => redis.hset(\`groups:\${req.body.user}\`, 'g2', '{}'));
});
router.post('/show', (req: any, res: any) => {
  db.find(req.body.room).then((data: any) => {
    if (data) redis.hset(\`groups:\${req.body.user}\`, req.body.room, data);
  });
  redis.hset(\`plain:\${req.body.user}\`, 'a', '1');
});
router.post('/other', async (req: any, res: any) => {
  await redis.hset(\`plain:\${req.body.user}\`, 'b', '1');
});
`);

describe('field updates of records created with a TTL, in route handlers', () => {
  it('reads each unnamed handler as one operation', () => {
    expect(lint(handlers)).toEqual([
      [INCR, 'separateRoundTrip', 4, 15, '5'],
      [INCR, 'noExpiry', 6, 35, undefined],
      [INCR, 'noExpiry', 12, 9, undefined],
      [INCR, 'noExpiry', 15, 15, undefined],
    ]);
    expect(lint(handlers, { allowTtlRecordUpdates: false })).toEqual([
      [INCR, 'separateRoundTrip', 4, 15, '5'],
      [INCR, 'noExpiry', 6, 35, undefined],
      [INCR, 'updatesTtlRecord', 10, 21, '4'],
      [INCR, 'noExpiry', 12, 9, undefined],
      [INCR, 'noExpiry', 15, 15, undefined],
    ]);
  });
});
