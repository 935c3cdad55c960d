/**
 * "A fixed key whose expiry is re-armed on every write": a write that creates a bounded key (a
 * constant, a member fixed once per instance, a value of a finite type: redis-calls/bounded.ts)
 * followed, as a round trip of its own, by an EXPIRE of that key that runs after every write, not
 * only on creation (redis-calls/rearmed.ts). A crash in between leaves at most that one key without
 * TTL, and its next write re-arms it: `recommended` (`allowRearmedBoundedKeys`, on by default)
 * leaves it alone; `strict` reports it as `separateRoundTrip`. Near misses keep their findings: a
 * per-identity key (the identity may never come back), an expiry sent only on creation
 * (`if (n === 1)`, `n === 1 && ...`), an exit between the write and the expiry.
 */
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { lintSnippet } from '../helpers/lint.js';
import { ioredis, nodeRedis } from './tester.js';

/** [messageId, line, column, the line named in the message] of each finding of the rule. */
function lint(code: string, options: Record<string, unknown> = {}): Array<[string | undefined, number, number, string | undefined]> {
  const messages = lintSnippet(code, { 'redis-ttl/incr-needs-expire-on-create': ['error', options] });
  return messages.map((m) => [m.messageId, m.line, m.column, /at line (\d+)|\(line (\d+)\)/.exec(m.message)?.slice(1).find(Boolean)]);
}

// a heartbeat hash, neither call awaited
const c1 = ioredis(`export function beat(name: string, value: string) {
  redis.hset('workers', name, value);
  redis.expire('workers', 120);
}
`);
// a const key, a statement between, PEXPIRE
const c2 = ioredis(`const DAILY = 'stats:daily';
export async function count() {
  const n = await redis.incr(DAILY);
  console.log(n);
  await redis.pexpire(DAILY, 86_400_000);
  return n;
}
`);
// a key of a finite type, EXPIREAT, inside a try block
const c3 = nodeRedis(`type Tier = 'free' | 'pro';
export async function track(tier: Tier, path: string) {
  try {
    await client.zIncrBy(\`hits:\${tier}\`, 1, path);
    await client.expireAt(\`hits:\${tier}\`, Math.floor(Date.now() / 1000) + 3600);
  } catch (e) {
    console.error(e);
  }
}
`);
// a member fixed once per instance, both sent by one Promise.all
const c4 = ioredis(`export class Board {
  constructor(private readonly key: string) {}
  async push(entry: string) {
    await Promise.all([redis.lpush(this.key, entry), redis.expire(this.key, 600)]);
  }
}
`);

// a per-identity key: the identity may never come back
const n1 = ioredis(`export async function hit(ip: string) {
  const n = await redis.incr(\`rate:\${ip}\`);
  await redis.expire(\`rate:\${ip}\`, 60);
  return n;
}
`);
// a fixed key expired only on creation
const n2 = ioredis(`export async function hit() {
  const n = await redis.incr('global:hits');
  if (n === 1) {
    await redis.expire('global:hits', 60);
  }
  return n;
}
`);
// the same, through &&
const n3 = ioredis(`export async function hit() {
  const n = await redis.incr('global:hits');
  n === 1 && (await redis.expire('global:hits', 60));
  return n;
}
`);
// an exit between the write and the expiry: over the limit the key is never re-armed
const n4 = ioredis(`export async function hit() {
  const n = await redis.incr('global:hits');
  if (n > 100) return false;
  await redis.expire('global:hits', 60);
  return true;
}
`);
// a per-identity key held by the instance: a crawler made per job (the member copied into an
// object literal too, which reads it), an ID and an id spelled other ways
const n5 = ioredis(`export class Crawler {
  private jobId: string;
  constructor(options: { jobId: string }) {
    this.jobId = options.jobId;
    log({ jobId: this.jobId });
  }
  async add(url: string) {
    await redis.sadd('sitemap:' + this.jobId + ':links', url);
    await redis.expire('sitemap:' + this.jobId + ':links', 3600, 'NX');
  }
}
`);
const n6 = ioredis(`export class Session {
  constructor(private readonly sessionID: string) {}
  async touch() {
    await redis.incr(\`visits:\${this.sessionID}\`);
    await redis.expire(\`visits:\${this.sessionID}\`, 600);
  }
}
`);
const n7 = ioredis(`export class Room {
  constructor(private readonly id: string) {}
  async join(member: string) {
    await redis.sadd(\`room:\${this.id}\`, member);
    await redis.expire(\`room:\${this.id}\`, 600);
  }
}
`);
// a member whose name merely ends in the letters "id" (`valid`) names no entity: still bounded
const c5 = ioredis(`export class Board {
  constructor(private readonly valid: string) {}
  async push(entry: string) {
    await redis.lpush(this.valid, entry);
    await redis.expire(this.valid, 600);
  }
}
`);

describe('incr-needs-expire-on-create: a bounded key whose expiry is re-armed after every write', () => {
  it('leaves it alone by default (allowRearmedBoundedKeys)', () => {
    for (const code of [c1, c2, c3, c4, c5]) expect(lint(code), code).toEqual([]);
  });

  it('reports it as a separate round trip without allowRearmedBoundedKeys', () => {
    expect(lint(c1, { allowRearmedBoundedKeys: false })).toEqual([['separateRoundTrip', 4, 9, '5']]);
    expect(lint(c2, { allowRearmedBoundedKeys: false })).toEqual([['separateRoundTrip', 5, 25, '7']]);
    expect(lint(c3, { allowRearmedBoundedKeys: false })).toEqual([['separateRoundTrip', 6, 18, '7']]);
    expect(lint(c4, { allowRearmedBoundedKeys: false })).toEqual([['separateRoundTrip', 6, 30, '6']]);
  });

  it('is off in the strict config only', () => {
    const entry = (config: Linter.Config) => config.rules?.['redis-ttl/incr-needs-expire-on-create'];
    expect(entry(plugin.configs.strict)).toEqual(['error', expect.objectContaining({ allowRearmedBoundedKeys: false })]);
    expect(entry(plugin.configs.recommended)).toBe('error');
  });

  it('keeps reporting a per-identity key, an expiry only on creation, an exit before the expiry', () => {
    expect(lint(n1)).toEqual([['separateRoundTrip', 4, 25, '5']]);
    expect(lint(n2)).toEqual([['separateRoundTrip', 4, 25, '6']]);
    expect(lint(n3)).toEqual([['separateRoundTrip', 4, 25, '5']]);
    expect(lint(n4)).toEqual([['separateRoundTrip', 4, 25, '6']]);
  });

  it('keeps reporting a key under a member that names an entity (jobId, sessionID, id)', () => {
    expect(lint(n5)).toEqual([['separateRoundTrip', 10, 17, '11']]);
    expect(lint(n6)).toEqual([['separateRoundTrip', 6, 17, '7']]);
    expect(lint(n7)).toEqual([['separateRoundTrip', 6, 17, '7']]);
  });
});
