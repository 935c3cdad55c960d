/**
 * The arm of an imported optional-TTL facade (`if (ttl) setex(...) else set(...)`) chosen by an
 * instance member given one value at construction and never written again (`private readonly
 * HOLD_TTL = 600`, read as `this.HOLD_TTL`: `redis-calls/option-arms.ts`, `instance-constants.ts`),
 * as by the literal it holds. Observable through the writer's expiring write: a record SET without
 * TTL beside it, deleted only by another function, is reported (a record beside one that expires
 * outlives it); without the reading the arm is unknown and the DEL bounds the record.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const CACHE = `import Redis from 'ioredis';
export class Cache {
  private client = new Redis();
  async set(key: string, value: string, ttl?: number) {
    if (ttl) return this.client.setex(key, ttl, value);
    return this.client.set(key, value);
  }
  async del(key: string) {
    return this.client.del(key);
  }
}
`;

/** Line 6 SETs the booking through the facade without TTL, line 7 its deadline with `ttl`; `field` is one line. */
const bookings = (field: string, ttl = 'this.HOLD_TTL', constructorBody = '') => `import { Cache } from './cache';
export class Bookings {
  ${field}
  constructor(private readonly cache: Cache) {${constructorBody}}
  async hold(id: string, data: string) {
    await this.cache.set(\`booking:\${id}\`, data);
    await this.cache.set(\`booking:deadline:\${id}\`, '', ${ttl});
  }
  async cancel(id: string) {
    await this.cache.del(\`booking:\${id}\`);
  }
}
`;
const SET = 'set-requires-ttl-or-keepttl';
const lint = (code: string) => lintApplication(roots, { 'cache.ts': CACHE, 'bookings.ts': code }, 'bookings.ts', { [SET]: undefined }, []);

describe('an imported optional-TTL facade called with an instance member', () => {
  it('a readonly member initialised with a positive number takes the TTL arm: the record beside it is reported', () => {
    expect(lint(bookings('private readonly HOLD_TTL = 600;'))).toEqual([[SET, 'setWithoutTtl', 6, 22]]);
    // as the literal itself, and as a member the constructor assigns once
    expect(lint(bookings('', '600'))).toEqual([[SET, 'setWithoutTtl', 6, 22]]);
    expect(lint(bookings('private HOLD_TTL: number;', 'this.HOLD_TTL', ' this.HOLD_TTL = 600; '))).toEqual([[SET, 'setWithoutTtl', 6, 22]]);
  });
  it('near misses: a member written again, or a falsy one, gives no expiring write; the DEL bounds the record', () => {
    // written again by a method: its value at the call is unknown (the arm undecided)
    expect(lint(bookings('private HOLD_TTL = 600; configure(ttl: number) { this.HOLD_TTL = ttl; }'))).toEqual([]);
    // 0 takes the arm without TTL: the deadline itself is written without one, reported
    expect(lint(bookings('private readonly HOLD_TTL = 0;'))).toEqual([[SET, 'setWithoutTtl', 7, 22]]);
  });
});
