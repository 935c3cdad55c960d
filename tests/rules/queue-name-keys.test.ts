/**
 * Queue structures, one key per queue (round 41, kind "queue structure, one key per queue" /
 * "signal list drained by a live consumer"): a key whose only variable part is the name of a
 * queue or lane (a parameter named `queueName`, `lane`, `targetQueueName` ..., bare,
 * destructured or read off an options parameter as `params.queueName`) is one key per queue, one
 * of the few the configuration sets up: bounded like a constant key (redis-calls/bounded.ts
 * namesQueue), so `recommended` leaves its control set, wake-up list or cursor alone. Still
 * reported: a key of an entity id on a queue-like command (`queue:${userId}`, `queueId`), a queue
 * name beside an id (`${queueName}:group:${groupId}:jobs`), a queue name read from request input
 * (`input.queueName`, `{ input: { queueName } }`), one the module's own call passes data
 * (`enqueue(req.params.q, job)`, `pause({ queueName: req.body.q })`), and a generic `name`.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { ioredis, positionOf, runRule, setSuggestions, untypedTester } from './tester.js';

/** Where a finding on the first `redis.<method>(...)` call of `code` is reported: its method name. */
function methodAt(code: string): { line: number; column: number } {
  const { line, column } = positionOf(code, 'redis.');
  return { line, column: column + 'redis.'.length };
}

const bounded = [
  // an operator's pause set, one per queue: the queue name read off the method's options
  ioredis('export class QueueRepository {\n  async pause(params: { queueName: string; key: string }) {\n    await redis.sadd(`${params.queueName}:gq:paused`, params.key);\n  }\n}'),
  // a wake-up list per queue, the name destructured from the options
  ioredis("export async function wake({ queueName }: { queueName: string }) {\n  await redis.lpush(`${queueName}:gq:signal`, '1');\n}"),
  // a resume cursor per queue, through a key builder of the module called with a method's parameter
  ioredis(
    'function cursorKey(queueName: string) {\n  return `${queueName}:gq:cursor`;\n}\nexport class Sweeper {\n  async save(queueName: string, at: Record<string, string>) {\n    await redis.hset(cursorKey(queueName), at);\n  }\n}',
  ),
  // a lane of a job transport
  ioredis('export const push = (lane: string, job: string) => redis.rpush(`jobs:${lane}`, job);'),
  // a queue's name destructured under another local name
  ioredis('export const push = ({ queue: lane }: { queue: string }, job: string) => redis.rpush(`jobs:${lane}`, job);'),
];

const reported = [
  // an entity's id on a queue-like command
  ioredis('export const push = (userId: string, job: string) => redis.rpush(`queue:${userId}`, job);'),
  ioredis('export const push = (queueId: string, job: string) => redis.rpush(`queue:${queueId}`, job);'),
  // a queue name beside a group id: one key per group
  ioredis('export const add = (queueName: string, groupId: string, job: string) => redis.rpush(`${queueName}:group:${groupId}:jobs`, job);'),
  // a queue name from request input: a tRPC handler's input, read off it or destructured from it
  ioredis("export const pause = async ({ input }: { input: { queueName: string } }) => redis.sadd(`${input.queueName}:paused`, 'x');"),
  ioredis("export const pause = async ({ input: { queueName } }: { input: { queueName: string } }) => redis.sadd(`${queueName}:paused`, 'x');"),
  // a route's path parameters: Next.js' `POST(request, { params })`, a handler destructuring them
  ioredis("export const POST = async (request: Request, { params }: { params: { queueName: string } }) => redis.sadd(`${params.queueName}:paused`, 'x');"),
  ioredis("export const pause = async ({ params: { queueName } }: { params: { queueName: string } }) => redis.sadd(`${queueName}:paused`, 'x');"),
  // the module's own call passes the request's data
  ioredis("function enqueue(queueName: string, job: string) {\n  return redis.rpush(`q:${queueName}`, job);\n}\nexport const handle = (req: { params: { q: string } }) => enqueue(req.params.q, 'x');"),
  ioredis("function pause(params: { queueName: string }) {\n  return redis.sadd(`${params.queueName}:paused`, 'x');\n}\nexport const handle = (req: { body: { q: string } }) => pause({ queueName: req.body.q });"),
  // a user id destructured under a queue's name: the property says what it is
  ioredis('export const push = ({ userId: queueName }: { userId: string }, job: string) => redis.rpush(`q:${queueName}`, job);'),
  // a generic name says no queue
  ioredis('export const push = (name: string, job: string) => redis.rpush(`q:${name}`, job);'),
  // a topic or a stream is the client's (MQTT, Socket.IO) or one per record (event sourcing), and
  // a queue made per client or per call is no configured queue (review41)
  ioredis('export const subscribe = (topicName: string, who: string) => redis.sadd(`topic:${topicName}:subscribers`, who);'),
  ioredis('export const count = (topic: string) => redis.incr(`count:${topic}`);'),
  ioredis("export const append = (streamName: string, e: string) => redis.rpush(`events:${streamName}`, e);"),
  ioredis("export const reply = (replyQueueName: string, m: string) => redis.rpush(`rpc:${replyQueueName}`, m);"),
  ioredis("export const push = (userQueueName: string, m: string) => redis.rpush(`inbox:${userQueueName}`, m);"),
];

runRule(untypedTester, 'incr-needs-expire-on-create', incrRule, {
  valid: bounded,
  invalid: reported.map((code) => ({ code, errors: [{ messageId: 'noExpiry' as const, ...methodAt(code) }] })),
});

const RECONCILE_BY_INPUT = ioredis("export const due = async ({ input }: { input: { queueName: string } }) => redis.set(`${input.queueName}:sweep-due`, String(Date.now()));");

// a per-queue deadline SET without TTL: one key per queue, left alone; one per request stays reported
runRule(untypedTester, 'set-requires-ttl-or-keepttl', setRule, {
  valid: [ioredis('export class Reconciler {\n  async due(params: { queueName: string }) {\n    await redis.set(`${params.queueName}:sweep-due`, String(Date.now()));\n  }\n}')],
  invalid: [
    {
      code: RECONCILE_BY_INPUT,
      errors: [{ messageId: 'setWithoutTtl' as const, ...methodAt(RECONCILE_BY_INPUT), suggestions: setSuggestions(RECONCILE_BY_INPUT, 'redis.set(`${input.queueName}:sweep-due`, String(Date.now())') }],
    },
  ],
});
