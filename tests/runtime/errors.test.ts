/**
 * Errors carry no secrets (handed repro rt09): what the runtime throws for a client error is a
 * RedisError with the message, the reply's code and the server's address, never the command or
 * its arguments, and no `cause` that would lead to them.
 */
import { inspect } from 'node:util';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { collect, createCache, createCircuitBreaker, createLimiter, incrementWithTtl, RedisError, type UpstashLike } from '../../runtime/index.js';
import { needsOwnServer, uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();

/** Every way a logger may write `error` down. */
function renderings(error: unknown): string[] {
  return [inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error), String(error), (error as Error).stack ?? ''];
}

describe.skipIf(needsOwnServer('creates an ACL user (ACL SETUSER)'))('a failed AUTH (rt09)', () => {
  it('is thrown as a RedisError without the password, under every policy and by every helper', async () => {
    const admin = redis.client();
    const user = uniquePrefix('rt09');
    const attempted = 'old-rotated-password-4d1f';
    await admin.acl('SETUSER', user, 'on', '>the-current-password-9c2e', '~*', '+@all');
    const url = new URL(redis.url());
    // a client per call: each connects, sends AUTH with the wrong password and gets WRONGPASS
    const clients: Redis[] = [];
    const connect = () => {
      const c = new Redis({ host: url.hostname, port: Number(url.port), username: user, password: attempted, maxRetriesPerRequest: 1 });
      c.on('error', () => undefined);
      clients.push(c);
      return c;
    };
    try {
      const thrown: unknown[] = [];
      for (const onRedisError of ['fail-closed', 'fail-open', 'fallback'] as const) {
        const limiter = createLimiter(connect(), { algorithm: 'gcra', limit: 1, periodMs: 1000, onRedisError, timeoutMs: 2000 });
        thrown.push(await limiter.take('u').catch((e: unknown) => e));
      }
      thrown.push(await incrementWithTtl(connect(), 'k', { ttlMs: 1000, timeoutMs: 2000 }).catch((e: unknown) => e));
      thrown.push(await createCircuitBreaker(connect(), { failureThreshold: 1, windowMs: 1, openMs: 1, onRedisError: 'fail-open' }).read('b').catch((e: unknown) => e));
      for (const error of thrown) {
        expect(error).toBeInstanceOf(RedisError);
        expect(error).toMatchObject({ name: 'RedisError', code: 'WRONGPASS', address: `${url.hostname}:${url.port}` });
        expect((error as Error).cause).toBeUndefined();
        for (const text of renderings(error)) {
          expect(text).not.toContain(attempted);
          expect(text).not.toContain('auth');
        }
      }
    } finally {
      for (const c of clients) c.disconnect();
      await admin.acl('DELUSER', user);
    }
  });
});

describe('client errors are copied without their command', () => {
  it("an @upstash/redis error's ', command was: [...]' tail is cut off; the reply code stays", async () => {
    class UpstashError extends Error {
      constructor(message: string) {
        super(message);
        this.name = 'UpstashError';
      }
    }
    const secret = 'session-token-5f2a';
    const client: UpstashLike = {
      evalsha: async (sha, keys, args) => {
        throw new UpstashError(`WRONGTYPE Operation against a key holding the wrong kind of value, command was: ${JSON.stringify(['evalsha', sha, keys, args, secret])}`);
      },
      eval: async () => undefined,
    };
    const error = await collect(client, 'k').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisError);
    expect(error).toMatchObject({ message: 'WRONGTYPE Operation against a key holding the wrong kind of value', code: 'WRONGTYPE' });
    for (const text of renderings(error)) expect(text).not.toContain(secret);
  });

  it('bug replies from ioredis (WRONGTYPE) are RedisErrors with the code, from limiters, breakers, helpers and the cache', async () => {
    const r = redis.client();
    const namespace = uniquePrefix('bug');
    const limiter = createLimiter(r, { algorithm: 'fixed-window', limit: 1, windowMs: 1000, onRedisError: 'fallback', namespace });
    const breaker = createCircuitBreaker(r, { failureThreshold: 1, windowMs: 1000, openMs: 1000, onRedisError: 'fail-open', namespace });
    const cache = createCache(r, { namespace, ttlMs: 1000 });
    const keys = [limiter.keyFor('x'), breaker.keyFor('x'), `${namespace}:list`, cache.keysFor('x').entry];
    for (const key of keys) {
      await r.rpush(key, 'a');
      await r.pexpire(key, 10_000);
    }
    const errors = [
      await limiter.take('x').catch((e: unknown) => e),
      await breaker.acquire('x').catch((e: unknown) => e),
      await collect(r, keys[2]!).catch((e: unknown) => e),
      await cache.getOrLoad('x', () => 1).catch((e: unknown) => e),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(RedisError);
      expect(error).toMatchObject({ code: 'WRONGTYPE', message: expect.stringMatching(/^WRONGTYPE/) });
      expect(inspect(error, { showHidden: true })).not.toContain('args');
    }
  });
});
