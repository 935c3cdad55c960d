/**
 * ACL denials, on a redis-server of the test's own, with ioredis and node-redis clients logged in
 * as users that lack one permission or another. The runtime goes around what it can (EVALSHA
 * denied: EVAL; EVAL denied: EVALSHA of the scripts an administrator loaded; GET denied: a
 * script that reads), and what it can not is one `RedisError` (`code: 'NOPERM'`) that names what
 * to grant, thrown under every `onRedisError` policy (a configuration error, not an outage), with
 * the shard never marked down.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collect,
  createCache,
  createCircuitBreaker,
  createLimiter,
  incrementWithTtl,
  RedisError,
  runtimeScripts,
  setKeepTtl,
  type RedisClient,
} from '../../runtime/index.js';
import { healthFor, SCRIPT_COMMANDS } from '../../runtime/health.js';
import { needsOwnServer } from '../helpers/redis.js';
import { startOwnServer, type OwnServer } from './servers.js';

describe.skipIf(needsOwnServer('the ACL tests create users on a redis-server of their own'))('ACL denials', () => {
  let server: OwnServer;
  let admin: Redis;
  const closers: Array<() => Promise<unknown> | unknown> = [];
  beforeAll(async () => {
    server = await startOwnServer();
    admin = new Redis(server.url);
    const users: Array<[string, string[]]> = [
      ['no_eval', ['-eval']],
      ['no_evalsha', ['-evalsha']],
      ['no_scripts', ['-eval', '-evalsha']],
      ['no_get', ['-get']],
      ['no_hset', ['-hset']],
    ];
    for (const [user, rules] of users) await admin.acl('SETUSER', user, 'on', '>pw', '~*', '&*', '+@all', ...rules);
    await admin.acl('SETUSER', 'few_keys', 'on', '>pw', '~app:*', '&*', '+@all');
  }, 60_000);
  afterAll(async () => {
    for (const close of closers) await close();
    admin?.disconnect();
    await server?.stop();
  });

  const clients: Record<string, (user: string) => Promise<RedisClient>> = {
    ioredis: async (user) => {
      const c = new Redis(server.url, { username: user, password: 'pw' });
      closers.push(() => c.disconnect());
      return c;
    },
    'node-redis': async (user) => {
      const c = createClient({ url: server.url, username: user, password: 'pw' });
      c.on('error', () => undefined);
      await c.connect();
      closers.push(() => c.destroy());
      return c as unknown as RedisClient;
    },
  };

  /** One call of every kind of the runtime; what each answered. */
  async function everything(client: RedisClient, label: string): Promise<Record<string, unknown>> {
    const limiter = createLimiter(client, { algorithm: 'token-bucket', capacity: 10, refillPerSecond: 1, onRedisError: 'fail-open', namespace: `acl${label}` });
    const breaker = createCircuitBreaker(client, { failureThreshold: 3, windowMs: 1000, openMs: 1000, onRedisError: 'fail-closed', namespace: `acl${label}` });
    const cache = createCache<string>(client, { namespace: `acl${label}`, ttlMs: 60_000 });
    const key = `acl${label}:{counter}`;
    const answer = async (call: () => Promise<unknown>) => call().catch((error: unknown) => error);
    return {
      take1: await answer(() => limiter.take('u')),
      take2: await answer(() => limiter.take('u')),
      acquire: await answer(() => breaker.acquire('svc')),
      increment: await answer(() => incrementWithTtl(client, key, { ttlMs: 60_000 })),
      setKeepTtl: await answer(() => setKeepTtl(client, key, 5)),
      collect: await answer(() => collect(client, key)),
      miss: await answer(() => cache.getOrLoad('k', () => 'loaded')),
      hit: await answer(() => cache.getOrLoad('k', () => 'not this')),
    };
  }

  const working = {
    take1: { allowed: true, remaining: 9 },
    take2: { allowed: true, remaining: 8 },
    acquire: { allowed: true, state: 'closed' },
    increment: { value: 1 },
    setKeepTtl: true,
    collect: '5',
    miss: 'loaded',
    hit: 'loaded',
  };

  describe.each(Object.keys(clients))('%s', (name) => {
    const tag = name === 'ioredis' ? 'io' : 'nr';

    it('EVAL denied (an administrator loaded the scripts): every call goes out as EVALSHA', async () => {
      for (const s of runtimeScripts()) await admin.script('LOAD', s.lua);
      const client = await clients[name]!('no_eval');
      expect(await everything(client, `${tag}noeval`)).toMatchObject(working);
      expect(healthFor(client as never).degraded).toBe(false);
    });

    it('EVALSHA denied: every call goes out as EVAL', async () => {
      const client = await clients[name]!('no_evalsha');
      expect(await everything(client, `${tag}nosha`)).toMatchObject(working);
    });

    it('GET denied (the cache reads with it, in scripts too): an error naming +get, the rest works', async () => {
      const client = await clients[name]!('no_get');
      const answers = await everything(client, `${tag}noget`);
      expect(answers).toMatchObject({ acquire: working.acquire, increment: working.increment, setKeepTtl: true });
      // the token bucket reads its state with GET (format 2): what to grant, never an outage
      expect(answers.take1).toMatchObject({ name: 'RedisError', code: 'NOPERM' });
      expect((answers.take1 as Error).message).toMatch(/inside the runtime's scripts: grant the commands they run/);
      expect(answers.miss).toMatchObject({ name: 'RedisError', code: 'NOPERM' });
      expect((answers.miss as Error).message).toMatch(/; grant the Redis user \+get$/);
      expect((answers.collect as Error).message).toMatch(/inside the runtime's scripts: grant the commands they run/);
    });

    it('EVAL denied and the scripts not loaded: an error naming +eval and SCRIPT LOAD, until they are loaded', async () => {
      await admin.script('FLUSH');
      const client = await clients[name]!('no_eval');
      const limiter = createLimiter(client, { algorithm: 'gcra', limit: 5, periodMs: 1000, onRedisError: 'fail-open', namespace: `acl${tag}unloaded` });
      const error = await limiter.take('u').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisError);
      expect(error).toMatchObject({ name: 'RedisError', code: 'NOPERM' });
      expect((error as Error).message).toMatch(/EVAL is denied to the Redis user and the script 'gcra' \(SHA1 [0-9a-f]{40}\) is not loaded on the server \(NOSCRIPT\): grant \+eval, or load the runtime's scripts with SCRIPT LOAD/);
      for (const s of runtimeScripts()) await admin.script('LOAD', s.lua);
      expect(await limiter.take('u')).toMatchObject({ allowed: true, remaining: 4 });
    });

    it.each(['fail-closed', 'fail-open', 'fallback'] as const)('EVAL and EVALSHA denied (%s): one error naming both, never the policy, nothing marked down', async (policy) => {
      const client = await clients[name]!('no_scripts');
      const limiter = createLimiter(client, { algorithm: 'fixed-window', limit: 5, windowMs: 1000, onRedisError: policy, namespace: `acl${tag}none` });
      for (let i = 0; i < 3; i += 1) {
        const error = await limiter.take('u').catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'RedisError', code: 'NOPERM' });
        expect((error as Error).message).toMatch(
          /; the Redis user may run neither EVALSHA nor EVAL: redis-ttl-runtime runs every operation as a Lua script, so grant \+evalsha \(with the scripts loaded by SCRIPT LOAD\) or \+eval \(e\.g\. ACL SETUSER <user> \+evalsha \+eval\)$/,
        );
      }
      await expect(incrementWithTtl(client, 'acl:n', { ttlMs: 1000 })).rejects.toMatchObject({ code: 'NOPERM' });
      expect(healthFor(client as never).degraded).toBe(false);
    });

    it('the commands a denial inside a script names are the commands the scripts run', () => {
      const called = new Set<string>();
      for (const s of runtimeScripts()) for (const [, command] of s.lua.matchAll(/redis\.call\('([A-Z]+)'/g)) called.add(command!);
      expect(new Set(SCRIPT_COMMANDS.split(', '))).toEqual(called);
    });

    it('keys outside the user\'s patterns, and a command denied inside a script: errors that say what to grant', async () => {
      const few = await clients[name]!('few_keys');
      const limiter = createLimiter(few, { algorithm: 'fixed-window', limit: 5, windowMs: 1000, onRedisError: 'fail-open' });
      const keyError = await limiter.take('u').catch((e: unknown) => e);
      expect(keyError).toMatchObject({ name: 'RedisError', code: 'NOPERM' });
      expect((keyError as Error).message).toMatch(/; the Redis user's key patterns do not cover the runtime's keys: grant one that does \(ACL ~<pattern>: limiters and breakers ~<namespace>:\*, default ~rl:\*/);
      expect(await createLimiter(few, { algorithm: 'fixed-window', limit: 5, windowMs: 1000, onRedisError: 'fail-open', namespace: 'app' }).take('u')).toMatchObject({ allowed: true });
      const noHset = await clients[name]!('no_hset');
      // the sliding-window counter keeps its state in a hash
      const inScript = await createLimiter(noHset, { algorithm: 'sliding-window-counter', limit: 5, windowMs: 1000, onRedisError: 'fail-open', namespace: `acl${tag}hset` })
        .take('u')
        .catch((e: unknown) => e);
      expect(inScript).toMatchObject({ name: 'RedisError' });
      expect((inScript as Error).message).toMatch(/; the Redis user may not run (?:'hset'|a command it runs) inside the runtime's scripts: grant the commands they run \(TIME, GET, SET/);
      expect(healthFor(noHset as never).degraded).toBe(false);
    });
  });
});
