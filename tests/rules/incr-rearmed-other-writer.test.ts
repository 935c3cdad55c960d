/**
 * A bounded key is left alone when its expiry is re-armed after every write
 * (`allowRearmedBoundedKeys`) only when every write of that key in the file re-arms it
 * (`everyWriteRearms` of redis-calls/rearmed.ts): a write of the same key in another function
 * that never expires it can be the next write, and the key stays without TTL after a crash
 * between the first write's two round trips.
 */
import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../helpers/lint.js';
import { upstash } from './tester.js';

/** [messageId, line, column] of each finding of the rule. */
function lint(code: string): Array<[string | undefined, number, number]> {
  const messages = lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': 'error' });
  return messages.map((m) => [m.messageId, m.line, m.column]);
}

// the shared index: save ZADDs and EXPIREs it, rename only ZADDs it
const shared = upstash(`export async function save(id: string, at: number) {
  await redis.zadd('chats:global', { score: at, member: id });
  await redis.expire('chats:global', 2592000);
}
export async function rename(id: string, at: number) {
  await redis.zadd('chats:global', { score: at, member: id });
}
`);
// every writer re-arms it: left alone
const everyWriter = upstash(`export async function save(id: string, at: number) {
  await redis.zadd('chats:global', { score: at, member: id });
  await redis.expire('chats:global', 2592000);
}
export async function touch(id: string, at: number) {
  await redis.zadd('chats:global', { score: at, member: id });
  await redis.expire('chats:global', 2592000);
}
`);
// another key written elsewhere without expiry does not matter
const otherKey = upstash(`export async function save(id: string, at: number) {
  await redis.zadd('chats:global', { score: at, member: id });
  await redis.expire('chats:global', 2592000);
}
export async function log(id: string) {
  await redis.zadd('chats:archive', { score: 0, member: id });
}
`);

describe('incr-needs-expire-on-create: a re-armed bounded key another function writes without expiry', () => {
  it('reports the write whose expiry follows in a later round trip', () => {
    // rename's ZADD itself updates a key save gives a TTL (allowTtlRecordUpdates)
    expect(lint(shared)).toEqual([['separateRoundTrip', 4, 15]]);
  });

  it('leaves it alone when every writer re-arms it', () => {
    expect(lint(everyWriter)).toEqual([]);
  });

  it('looks only at writes of the same key', () => {
    // (the archive, a constant key the file never expires, is the key policy's)
    expect(lint(otherKey)).toEqual([]);
  });
});
