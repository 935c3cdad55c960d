/**
 * Static helper classes (round 32, recall): a class whose static methods forward a key to a
 * client (`class RedisHelper { static async increment(key) { return redis.incr(key); } }`,
 * called as `RedisHelper.increment(k)`) is read as the pass-through facades of an instance are
 * (`redis-calls/facade-targets.ts` methodTargets): the call on the class names its static method,
 * in the same module or imported from another module of the code, also `this.incr(k)` in another
 * static method of the class and a static method a class inherits. A class holding the client in
 * a static member (`static client = new Redis()`, `RedisHelper.client.incr(k)`) is a client
 * already. What stays unreported: a static class whose methods touch a Map, a class with a static
 * `incr` counting on its own, a bounded key through the static facade.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication, lintWriteRules } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const INCR = 'incr-needs-expire-on-create';

/** The static helper class of mini-tweets' shape (lines 3-8), its callers from line 9. */
const helper = (body: string): string =>
  ioredis(`export class RedisHelper {
  static async increment(key: string): Promise<number> { return await redis.incr(key); }
  static async expire(key: string, seconds: number): Promise<void> { await redis.expire(key, seconds); }
  static async incr(key: string) { return redis.incr(key); }
  static async hset(key: string, field: string, value: string) { return redis.hset(key, field, value); }
}
${body}`);

describe('a static method forwarding to a client, called on its class', () => {
  it('an INCR whose EXPIRE is sent only on the first hit, in a second round trip', () => {
    const code = helper(`export async function hit(id: string) {
  const n = await RedisHelper.increment(\`attempts:\${id}\`);
  if (n === 1) await RedisHelper.expire(\`attempts:\${id}\`, 60);
}`);
    expect(lintWriteRules(code)).toEqual([[INCR, 'separateRoundTrip', 10, 31, '11']]);
  });
  it('a facade named after its command, with no expiry at all', () => {
    const code = helper("export const seen = (id: string) => RedisHelper.hset(`seen:${id}`, 'at', '1');");
    expect(lintWriteRules(code)).toEqual([[INCR, 'noExpiry', 9, 49, '7']]);
  });
  it('`this.incr(key)` in another static method of the class', () => {
    const code = ioredis(`export class Counter {
  static incr(key: string) { return redis.incr(key); }
  static hit(id: string) { return this.incr(\`hits:\${id}\`); }
}`);
    expect(lintWriteRules(code)).toEqual([[INCR, 'noExpiry', 5, 40, '4']]);
  });
  it('a static arrow-function member, and a static method a subclass inherits', () => {
    const code = ioredis(`class Base {
  static incr = (key: string) => redis.incr(key);
}
export class Counter extends Base {}
export const hit = (id: string) => Counter.incr(\`hits:\${id}\`);`);
    expect(lintWriteRules(code)).toEqual([[INCR, 'noExpiry', 7, 44, '4']]);
  });
  it('stays clean: a bounded key, and the INCR and EXPIRE sent together in one MULTI by the helper', () => {
    const bounded = helper("export const total = () => RedisHelper.incr('hits:total');");
    expect(lintWriteRules(bounded)).toEqual([]);
    const atomic = ioredis(`export class RedisHelper {
  static hit(key: string) { return redis.multi().incr(key).expire(key, 60).exec(); }
}
export const hit = (id: string) => RedisHelper.hit(\`hits:\${id}\`);`);
    expect(lintWriteRules(atomic)).toEqual([]);
  });
});

describe('near misses that are no client', () => {
  it('a static class whose methods touch a Map', () => {
    const code = ioredis(`const counts = new Map<string, number>();
export class MemoryHelper {
  static incr(key: string) { const n = (counts.get(key) ?? 0) + 1; counts.set(key, n); return n; }
  static sadd(key: string, member: string) { return counts.set(key + member, 1); }
}
export const hit = (id: string) => { MemoryHelper.incr(\`hits:\${id}\`); MemoryHelper.sadd(\`set:\${id}\`, 'm'); };`);
    expect(lintWriteRules(code)).toEqual([]);
  });
  it('a class with a static `incr` that counts on its own', () => {
    const code = ioredis(`export class Stats {
  static count = 0;
  static incr(key: string) { this.count++; return key; }
}
export const hit = (id: string) => Stats.incr(\`hits:\${id}\`);`);
    expect(lintWriteRules(code)).toEqual([]);
  });
  it('an instance method of the same name is not what a call on the class runs', () => {
    const code = ioredis(`export class Helper {
  incr(key: string) { return redis.incr(key); }
  static incr(key: string) { return key.length; }
}
export const hit = (id: string) => Helper.incr(\`hits:\${id}\`);`);
    // the instance method's own write is judged where it is (no call of it resolves to it)
    expect(lintWriteRules(code).filter(([, , line]) => line === 7)).toEqual([]);
  });
});

describe('across modules of an application', () => {
  const files = {
    'src/config/redis.ts': "import Redis from 'ioredis';\nexport default new Redis();\n",
    'src/utils/redis.helpers.ts': `import redis from '../config/redis';
export class RedisHelper {
  static async setHash(key: string, data: Record<string, string>): Promise<void> { await redis.hset(key, data); }
  static async expire(key: string, seconds: number): Promise<void> { await redis.expire(key, seconds); }
  static async addToSet(key: string, value: string): Promise<void> { await redis.sadd(key, value); }
  static async increment(key: string): Promise<number> { return await redis.incr(key); }
}
`,
    'src/services/session.service.ts': `import { RedisHelper } from '../utils/redis.helpers';
export class SessionService {
  static async createSession(userId: string, sessionId: string) {
    await RedisHelper.setHash(\`session:\${sessionId}\`, { userId });
    await RedisHelper.expire(\`session:\${sessionId}\`, 3600);
    await RedisHelper.addToSet(\`user:\${userId}:sessions\`, sessionId);
  }
  static async countAttempt(userId: string) {
    const n = await RedisHelper.increment(\`otp:attempts:\${userId}\`);
    if (n === 1) await RedisHelper.expire(\`otp:attempts:\${userId}\`, 300);
  }
}
`,
  };
  it('the callers of an imported static helper are read as the commands it forwards', () => {
    expect(lintApplication(roots, files, 'src/services/session.service.ts', { [INCR]: undefined }, [])).toEqual([
      [INCR, 'separateRoundTrip', 4, 23],
      [INCR, 'noExpiry', 6, 23],
      [INCR, 'separateRoundTrip', 9, 33],
    ]);
  });
  it('the helper itself is left to its callers', () => {
    expect(lintApplication(roots, files, 'src/utils/redis.helpers.ts', { [INCR]: undefined }, [])).toEqual([]);
  });
  it('a class holding the client in a static member, imported', () => {
    const held = {
      'src/store.ts': "import Redis from 'ioredis';\nexport class Store {\n  static client = new Redis();\n}\n",
      'src/hits.ts': "import { Store } from './store';\nexport const hit = (id: string) => Store.client.incr(`hits:${id}`);\n",
    };
    expect(lintApplication(roots, held, 'src/hits.ts', { [INCR]: undefined }, [])).toEqual([[INCR, 'noExpiry', 2, 49]]);
  });
});
