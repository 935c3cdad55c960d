/**
 * The guard of tests/helpers/redis.ts on a named test server: this file starts a redis-server,
 * names it with `REDIS_TEST_URL` as a user would, and checks that the helpers' clients refuse the
 * commands that change what is not the tests' (also inside a pipeline or MULTI), that a database of
 * its own is refused, that needsOwnServer() says to skip, and that the file's keys are gone after
 * the file while the server's own keys stay.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../helpers/redis-server.js';

const server = await startRedisServer();
process.env.REDIS_TEST_URL = server.url;
const outside = new Redis(server.url);
await outside.set('app:config', 'persistent on purpose');

// Registered before useRedis(): afterAll hooks run last-registered first, so this one runs after
// useRedis() has cleaned up.
let prefixUsed = '';
afterAll(async () => {
  try {
    expect(await outside.keys('*')).toEqual(['app:config']);
    expect(prefixUsed).not.toBe('');
  } finally {
    outside.disconnect();
    delete process.env.REDIS_TEST_URL;
    await server.stop();
  }
});

const { needsOwnServer, uniquePrefix, useRedis } = await import('../helpers/redis.js');
const redis = useRedis();

describe('on a named test server', () => {
  it('is named, and needsOwnServer() says to skip', () => {
    expect(redis.named).toBe(true);
    expect(redis.url()).toBe(server.url);
    expect(needsOwnServer('this check')).toBe(true);
  });

  it.each([
    ['FLUSHALL', (c: Redis) => c.flushall()],
    ['FLUSHDB', (c: Redis) => c.flushdb()],
    ['CONFIG SET', (c: Redis) => c.config('SET', 'maxmemory-policy', 'allkeys-lru')],
    ['SCRIPT FLUSH', (c: Redis) => c.script('FLUSH')],
    ['ACL SETUSER', (c: Redis) => c.acl('SETUSER', 'x', 'on')],
    ['CLIENT PAUSE', (c: Redis) => c.client('PAUSE', 10)],
    ['FLUSHALL', (c: Redis) => c.pipeline().flushall().exec().then((replies) => { if (replies?.[0]?.[0]) throw replies[0][0]; })],
  ])('refuses %s', async (name, send) => {
    await expect(send(redis.client())).rejects.toThrow(`${name} is not sent to a named test server (REDIS_TEST_URL)`);
  });

  it('refuses a database other than the URL\'s', () => {
    expect(() => redis.client({ db: 9 })).toThrow('a test on a named server (REDIS_TEST_URL) uses the database of the URL only');
  });

  it('lets ordinary commands through, and the keys under the file prefix are deleted after the file', async () => {
    const c = redis.client();
    prefixUsed = uniquePrefix('guard');
    await c.set(`${prefixUsed}:persistent`, '1');
    await c.set(`${prefixUsed}:expiring`, '1', 'EX', 600);
    expect(await c.get(`${prefixUsed}:persistent`)).toBe('1');
    expect(await c.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
  });
});
