/**
 * Fixed-name queues a consumer of the file drains, also when the file gives them a TTL
 * (redis-calls/lifecycle.ts drainedElsewhere): a bounded key (one constant, or one per configured
 * mode: `type === 'a' ? A_QUEUE : B_QUEUE`) pushed to, and popped (LPOP, RPOPLPUSH's source,
 * ZPOPMIN ...) by another function of the file that may run. A write whose EXPIRE follows in a
 * separate round trip leaves at most that one key without TTL, holding the backlog the consumer
 * empties: Redis deletes the list with its last element. `recommended` leaves it alone
 * (`allowConsumedQueues`); `strict` keeps reporting it.
 *
 * Near misses keep their findings: a per-id family the file expires (its keys leak when the id
 * leaves, whatever pops some of them), a consumer that only reads (LRANGE), a pop of another key, a
 * consumer in code nothing runs, a per-user list capped by LTRIM.
 */
import { describe, expect, it } from 'vitest';
import { lintWriteRules as lint } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const INCR = 'incr-needs-expire-on-create';

// two fixed batch queues, one per message type, each with its processing list: the batch consumer
// moves a message at a time (RPOPLPUSH) and re-arms the processing list's TTL after the guard that
// stops on an empty queue; recovery moves the processing list back
const d1 = ioredis(`const CHANNEL_QUEUE = 'batch:channel';
const DIRECT_QUEUE = 'batch:direct';
const CHANNEL_BUSY = 'batch:channel:processing';
const DIRECT_BUSY = 'batch:direct:processing';
const TTL = 86400;
export async function add(type: 'C' | 'D', message: string) {
  const queueKey = type === 'C' ? CHANNEL_QUEUE : DIRECT_QUEUE;
  await redis.lpush(queueKey, message);
  await redis.expire(queueKey, TTL);
}
export async function take(type: 'C' | 'D', count = 100) {
  const queueKey = type === 'C' ? CHANNEL_QUEUE : DIRECT_QUEUE;
  const busyKey = type === 'C' ? CHANNEL_BUSY : DIRECT_BUSY;
  const taken: string[] = [];
  for (let i = 0; i < count; i++) {
    const message = await redis.rpoplpush(queueKey, busyKey);
    if (!message) break;
    taken.push(message);
    await redis.expire(busyKey, TTL);
  }
  return taken;
}
export async function recover(type: 'C' | 'D') {
  const queueKey = type === 'C' ? CHANNEL_QUEUE : DIRECT_QUEUE;
  const busyKey = type === 'C' ? CHANNEL_BUSY : DIRECT_BUSY;
  while (true) {
    const message = await redis.rpoplpush(busyKey, queueKey);
    if (!message) break;
    await redis.expire(queueKey, TTL);
  }
}
`);
// one constant sorted set of timers, its EXPIRE behind a guard, drained by a sweep
const d2 = ioredis(`const TIMERS = 'timers';
export async function schedule(id: string, at: number) {
  await redis.zadd(TIMERS, at, id);
  if (id) await redis.expire(TIMERS, 3600);
}
export async function sweep() {
  return redis.zpopmin(TIMERS, 100);
}
`);

// the same shapes, missed: a per-id family; a consumer that only reads; a pop of another key; a
// consumer nothing calls; a per-user list capped by LTRIM
const m1 = ioredis(`export async function add(id: string, message: string) {
  await redis.lpush(\`inbox:\${id}\`, message);
  if (message) await redis.expire(\`inbox:\${id}\`, 60);
}
export async function take(id: string) {
  return redis.lpop(\`inbox:\${id}\`);
}
`);
const m2 = ioredis(`const QUEUE = 'jobs';
const OTHER = 'jobs:other';
export async function add(job: string) {
  await redis.rpush(QUEUE, job);
  if (job) await redis.expire(QUEUE, 60);
  await redis.rpush(OTHER, job);
  if (job) await redis.expire(OTHER, 60);
}
export async function peek() {
  return redis.lrange(QUEUE, 0, 9);
}
export async function trimOther() {
  await redis.ltrim('jobs:elsewhere', 0, 9);
}
`);
const m3 = ioredis(`const QUEUE = 'jobs';
export class Jobs {
  async add(job: string) {
    await redis.rpush(QUEUE, job);
    if (job) await redis.expire(QUEUE, 60);
  }
  private async drain() {
    return redis.lpop(QUEUE, 100);
  }
}
`);
const m4 = ioredis(`export async function remember(userId: string, item: string) {
  await redis.lpush(\`recent:\${userId}\`, item);
  await redis.ltrim(\`recent:\${userId}\`, 0, 49);
  if (item) await redis.expire(\`recent:\${userId}\`, 86400);
}
`);

describe('fixed queues their consumer drains, also when the file expires them', () => {
  it('leaves them alone in recommended', () => {
    expect(lint(d1)).toEqual([]);
    expect(lint(d2)).toEqual([]);
  });

  it('reports them without allowConsumedQueues', () => {
    const strict = { allowConsumedQueues: false, allowRearmedBoundedKeys: false };
    expect(lint(d1, strict)).toEqual([
      [INCR, 'separateRoundTrip', 10, 15, '11'],
      [INCR, 'separateRoundTrip', 18, 33, '21'],
      [INCR, 'separateRoundTrip', 29, 33, '31'],
    ]);
    expect(lint(d2, strict)).toEqual([[INCR, 'separateRoundTrip', 5, 15, '6']]);
  });

  it('keeps reporting a per-id family, a read, a pop of another key, a consumer nothing runs, a capped per-user list', () => {
    expect(lint(m1)).toEqual([[INCR, 'separateRoundTrip', 4, 15, '5']]);
    expect(lint(m2)).toEqual([
      [INCR, 'separateRoundTrip', 6, 15, '7'],
      [INCR, 'separateRoundTrip', 8, 15, '9'],
    ]);
    expect(lint(m3)).toEqual([[INCR, 'separateRoundTrip', 6, 17, '7']]);
    // the same class with a drain its users can call
    expect(lint(m3.replace('private async drain', 'async drain'))).toEqual([]);
    expect(lint(m4)).toEqual([[INCR, 'separateRoundTrip', 4, 15, '6']]);
  });
});
