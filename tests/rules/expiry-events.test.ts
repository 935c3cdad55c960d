/**
 * A DEL in an operation's completion, beside the operation's deadline key (created with a TTL),
 * does not bound a record when the package runs code on key expiries (`redis-calls/expiry-events.ts`,
 * `semantics/keyspace-events.ts`): an operation left unfinished ends by the deadline's expiry, and
 * the completion's DEL never runs for it.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A booking flow: line 4 sets the booking's deadline (EX 900), line 7 its answers; `complete` deletes both. */
const BOOKINGS = `import Redis from 'ioredis';
const redis = new Redis();
export async function hold(id: string) {
  await redis.set(\`booking:deadline:\${id}\`, '', 'EX', 900);
}
export async function saveAnswers(id: string, answers: string) {
  await redis.set(\`booking:answers:\${id}\`, answers);
}
export async function complete(id: string) {
  await redis.del(\`booking:answers:\${id}\`);
  await redis.del(\`booking:deadline:\${id}\`);
}
`;

/** The expiry handler: deletes the booking (not the answers) when the deadline expires. */
const LISTENER = (channel: string, test = '') => `import Redis from 'ioredis';
const sub = new Redis();
const redis = new Redis();
export async function listen() {
  await sub.subscribe('${channel}');
  sub.on('message', async (_channel: string, message: string) => {
    ${test}const id = message.split(':').pop();
    await redis.del(\`booking:\${id}\`);
  });
}
`;

const SET = 'set-requires-ttl-or-keepttl';
const lint = (files: Record<string, string>) => lintApplication(roots, files, 'bookings.ts', { [SET]: undefined }, []);

describe('a record deleted only by a completion beside its deadline, in a package that handles expiries', () => {
  it('key-event channel of expiries: the answers are reported (the expiry handler does not delete them)', () => {
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': LISTENER('__keyevent@0__:expired') })).toEqual([[SET, 'setWithoutTtl', 7, 15]]);
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': LISTENER('__keyevent@*__:expired').replace('subscribe', 'psubscribe') })).toEqual([[SET, 'setWithoutTtl', 7, 15]]);
  });
  it('a template channel (`__keyevent@${db}__:expired`): reported', () => {
    const template = LISTENER('__keyevent@0__:expired').replace("sub.subscribe('__keyevent@0__:expired')", 'sub.subscribe(`__keyevent@${DB}__:expired`)').replace('const sub', 'const DB = 0;\nconst sub');
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': template })).toEqual([[SET, 'setWithoutTtl', 7, 15]]);
  });
  it('key-space channel with a test of the expired event: reported', () => {
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': LISTENER('__keyspace@0__:booking:deadline:*', "if (message !== 'expired') return;\n    ") })).toEqual([[SET, 'setWithoutTtl', 7, 15]]);
  });
  it('the handler (a module importing the flow) deletes the answers too: its DEL bounds them, not reported', () => {
    const both = "import './bookings';\n" + LISTENER('__keyevent@0__:expired').replace('await redis.del(`booking:${id}`);', 'await redis.del(`booking:${id}`);\n    await redis.del(`booking:answers:${id}`);');
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': both })).toEqual([]);
  });
});

describe('the same reading in incr-needs-expire-on-create', () => {
  it('an HSET of the answers deleted only by the completion: reported when expiries are handled, not otherwise', () => {
    const INCR = 'incr-needs-expire-on-create';
    const hset = BOOKINGS.replace("redis.set(`booking:answers:${id}`, answers)", "redis.hset(`booking:answers:${id}`, 'q1', answers)");
    const run = (files: Record<string, string>) => lintApplication(roots, files, 'bookings.ts', { [INCR]: undefined }, []);
    expect(run({ 'bookings.ts': hset, 'expiry.ts': LISTENER('__keyevent@0__:expired') })).toEqual([[INCR, 'noExpiry', 7, 15]]);
    expect(run({ 'bookings.ts': hset })).toEqual([]);
  });
});

describe('near misses: the completion bounds the record (allowDeletedKeys), not reported', () => {
  it('no module handles expiries', () => {
    expect(lint({ 'bookings.ts': BOOKINGS })).toEqual([]);
    // the channel named only in a comment, or a key-space channel without the expired event
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': '// see __keyevent@0__:expired\nexport const x = 1;\n' })).toEqual([]);
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': LISTENER('__keyspace@0__:booking:*') })).toEqual([]);
  });
  it('a key-space channel of another key family, or a deadline named as a lock', () => {
    expect(lint({ 'bookings.ts': BOOKINGS, 'expiry.ts': LISTENER('__keyspace@0__:session:*', "if (message !== 'expired') return;\n    ") })).toEqual([]);
    // a lock's TTL ends a crashed owner's hold, not the operation: the completion's DEL still bounds the answers
    const locked = BOOKINGS.replaceAll('booking:deadline:', 'booking:lock:');
    expect(lint({ 'bookings.ts': locked, 'expiry.ts': LISTENER('__keyevent@0__:expired') })).toEqual([]);
  });
  it('only a test subscribes to expiries', () => {
    expect(lint({ 'bookings.ts': BOOKINGS, 'test/expiry.test.ts': LISTENER('__keyevent@0__:expired') })).toEqual([]);
  });
  it('the completion deletes no key created with a TTL', () => {
    const noDeadline = BOOKINGS.replace('  await redis.del(`booking:deadline:${id}`);\n', '');
    expect(lint({ 'bookings.ts': noDeadline, 'expiry.ts': LISTENER('__keyevent@0__:expired') })).toEqual([]);
  });
});
