/**
 * The runtime's client adapters (runtime/client.ts) against a real Redis: ioredis 5, ioredis 6
 * (RESP3, its default, and RESP2), iovalkey, a node-redis client (`createClient()`, evalSha / eval
 * with `{ keys, arguments }`), a node-redis client seen only through `sendCommand`, the
 * @upstash/redis shape (`evalsha` / `eval` with key and argument arrays), and a Valkey GLIDE
 * `GlideClient` (its native core talks to Redis as to Valkey).
 *
 * Upstash's REST client can not talk to a plain Redis, so its adapter is tested with a stub that
 * implements `evalsha` / `eval` by forwarding to an ioredis client: a real Redis behind a fake
 * transport. The stub reproduces what the REST client adds on top: errors carry the reply text
 * followed by `, command was: ...`, and replies go through automatic deserialization (JSON-looking
 * strings are parsed, numbers only when that keeps their text).
 */
import { Redis as UpstashRedis } from '@upstash/redis';
import { GlideClient, GlideClusterClient } from '@valkey/valkey-glide';
import type { Redis } from 'ioredis';
import { Redis as RedisV6 } from 'ioredis-v6';
import { Redis as Valkey } from 'iovalkey';
import { createClient } from 'redis';
import { createClient as createClientV6 } from 'redis-v6';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, createCache, createLimiter, incrementWithTtl, RedisUnavailableError, setKeepTtl, type RedisClient } from '../../runtime/index.js';
import { glideReplyError, runnerFor } from '../../runtime/client.js';
import { glideConfig } from '../helpers/glide.js';
import { needsOwnServer, scanWithPttl, uniquePrefix, useRedis } from '../helpers/redis.js';
import { freePort, spawnRedisServer, stopRedisServer } from '../helpers/redis-server.js';

const redis = useRedis();

/** What @upstash/redis does to a reply with automaticDeserialization on (its parseResponse). */
function upstashDeserialize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(upstashDeserialize);
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'number' && parsed.toString() !== value ? value : parsed;
  } catch {
    return value;
  }
}

/** An @upstash/redis look-alike: the real Redis behind `r`, Upstash's method shapes and error text. */
function upstashStub(r: Redis, calls: string[]) {
  const wrap = async (command: string, run: () => Promise<unknown>): Promise<unknown> => {
    calls.push(command);
    try {
      return upstashDeserialize(await run());
    } catch (error) {
      throw new Error(`${(error as Error).message}, command was: [${JSON.stringify(command)}]`, { cause: error });
    }
  };
  return {
    evalsha: (sha1: string, keys: string[], args: string[]) =>
      wrap('evalsha', () => r.evalsha(sha1, keys.length, ...keys, ...args)),
    eval: (script: string, keys: string[], args: string[]) => wrap('eval', () => r.eval(script, keys.length, ...keys, ...args)),
  };
}

/**
 * A Bun `RedisClient` look-alike (Bun does not run under Node): the real Redis behind `r`, Bun's
 * method shapes (positional `evalsha` / `eval`, `send`, a boolean `connected`) and its documented
 * errors: an error reply rejects with `code: 'ERR_REDIS_SERVER_ERROR'` and the reply's text
 * (https://bun.com/docs/runtime/redis, `send` in bun-types' redis.d.ts).
 */
function bunStub(r: Redis, calls: string[]) {
  const wrap = async (command: string, run: () => Promise<unknown>): Promise<unknown> => {
    calls.push(command);
    try {
      return await run();
    } catch (error) {
      throw Object.assign(new Error((error as Error).message), { code: 'ERR_REDIS_SERVER_ERROR' });
    }
  };
  return {
    connected: true,
    send: (command: string, args: string[]) => wrap(command, () => r.call(command, ...args)),
    evalsha: (sha1: string, numkeys: number, ...rest: string[]) => wrap('evalsha', () => r.evalsha(sha1, numkeys, ...rest)),
    eval: (script: string, numkeys: number, ...rest: string[]) => wrap('eval', () => r.eval(script, numkeys, ...rest)),
    get: (key: string) => wrap('get', () => r.get(key)),
  };
}

type NodeRedis = ReturnType<typeof createClient>;
let nodeRedis: NodeRedis;
/** node-redis v6 (the `redis-v6` alias of `redis@6`): the runtime names v4, v5 and v6 as supported. */
let nodeRedisV6: ReturnType<typeof createClientV6>;
let admin: Redis;
/** ioredis 6 (the `ioredis-v6` alias of `ioredis@6`), RESP3 (its default) and RESP2; iovalkey. */
let ioredisV6: RedisV6;
let ioredisV6Resp2: RedisV6;
let iovalkey: Valkey;
/** A Valkey GLIDE client whose commands' names are recorded (customCommand's first word). */
let glide: GlideClient;
const glideCalls: string[] = [];

beforeAll(async () => {
  admin = redis.client();
  ioredisV6 = new RedisV6(redis.url(), { maxRetriesPerRequest: 2 });
  ioredisV6Resp2 = new RedisV6(redis.url(), { maxRetriesPerRequest: 2, protocol: 2 });
  iovalkey = new Valkey(redis.url(), { maxRetriesPerRequest: 2 });
  glide = await GlideClient.createClient(glideConfig(redis.url()));
  const custom = glide.customCommand.bind(glide);
  glide.customCommand = ((args: string[], options?: Parameters<GlideClient['customCommand']>[1]) => {
    glideCalls.push(String(args[0]));
    return custom(args, options);
  }) as GlideClient['customCommand'];
  nodeRedis = createClient({ url: redis.url() });
  nodeRedis.on('error', () => undefined);
  await nodeRedis.connect();
  nodeRedisV6 = createClientV6({ url: redis.url() });
  nodeRedisV6.on('error', () => undefined);
  await nodeRedisV6.connect();
});

afterAll(async () => {
  await nodeRedis?.quit().catch(() => undefined);
  await nodeRedisV6?.close().catch(() => undefined);
  for (const client of [ioredisV6, ioredisV6Resp2, iovalkey]) await client?.quit().catch(() => client.disconnect());
  glide?.close();
});

interface Subject {
  name: string;
  client: () => RedisClient;
  /** The commands the adapter sent, when the subject records them. */
  calls?: string[];
}

const upstashCalls: string[] = [];
const bunCalls: string[] = [];
const sendCommandCalls: string[] = [];
const ioredisCalls: string[] = [];
/** An ioredis client whose commands' names are recorded (lowercase, as ioredis spells them). */
function recordedIoredis(): Redis {
  const client = redis.client();
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((command: Parameters<Redis['sendCommand']>[0]) => {
    ioredisCalls.push(command.name);
    return send(command);
  }) as Redis['sendCommand'];
  return client;
}
const subjects: Subject[] = [
  { name: 'ioredis', client: recordedIoredis, calls: ioredisCalls },
  { name: 'node-redis (evalSha / eval)', client: () => nodeRedis },
  { name: 'node-redis v6 (evalSha / eval)', client: () => nodeRedisV6 },
  {
    name: 'node-redis (sendCommand only)',
    client: () => ({
      sendCommand: (args: string[]) => {
        sendCommandCalls.push(args[0]!);
        return nodeRedis.sendCommand(args);
      },
    }),
    calls: sendCommandCalls,
  },
  { name: '@upstash/redis shape (stub forwarding to ioredis)', client: () => upstashStub(admin, upstashCalls), calls: upstashCalls },
  { name: "Bun's RedisClient shape (stub forwarding to ioredis)", client: () => bunStub(admin, bunCalls), calls: bunCalls },
  { name: 'ioredis 6 (RESP3)', client: () => ioredisV6 },
  { name: 'ioredis 6 (protocol: 2)', client: () => ioredisV6Resp2 },
  { name: 'iovalkey', client: () => iovalkey },
  { name: 'Valkey GLIDE (GlideClient)', client: () => glide, calls: glideCalls },
];

describe.each(subjects)('$name', (subject) => {
  it('collect, incrementWithTtl and setKeepTtl behave as on ioredis and leave every key with a TTL', async () => {
    const client = subject.client();
    const prefix = uniquePrefix('adapter');
    const key = `${prefix}:{1}:billable`;
    const first = await incrementWithTtl(client, key, { by: 5, ttlMs: 60_000 });
    expect(first.value).toBe(5);
    expect(first.pttlMs).toBeGreaterThan(59_000);
    expect((await incrementWithTtl(client, key, { by: 2, ttlMs: 60_000 })).value).toBe(7);
    expect(await collect(client, key)).toBe('7');
    expect(await collect(client, key)).toBe('0');
    expect(await collect(client, `${prefix}:missing`)).toBeNull();
    expect(await setKeepTtl(client, key, '12')).toBe(true);
    expect(await admin.get(key)).toBe('12');
    expect(await setKeepTtl(client, `${prefix}:absent`, 'x')).toBe(false);
    // a counter beyond 2^53 comes back exact (upstash keeps such numbers as strings)
    await admin.set(`${prefix}:big`, '12345678901234567890', 'PX', 60_000);
    expect(await collect(client, `${prefix}:big`)).toBe('12345678901234567890');
    const keys = await scanWithPttl(admin, `${prefix}:*`);
    expect([...keys.keys()].sort()).toEqual([`${prefix}:big`, key].sort());
    for (const [k, pttl] of keys) expect(pttl, k).toBeGreaterThan(0);
  });

  it.skipIf(needsOwnServer('the NOSCRIPT fallback tests run SCRIPT FLUSH'))('falls back to EVAL after SCRIPT FLUSH, so the caller never sees NOSCRIPT', async () => {
    const client = subject.client();
    const key = `${uniquePrefix('adapter')}:flush`;
    await incrementWithTtl(client, key, { ttlMs: 60_000 }); // the script is loaded now
    await admin.script('FLUSH');
    subject.calls?.splice(0);
    expect((await incrementWithTtl(client, key, { ttlMs: 60_000 })).value).toBe(2);
    const lowercase = subject.name.includes('upstash') || subject.name.includes('Bun') || subject.name === 'ioredis';
    if (subject.calls) expect(subject.calls).toEqual(lowercase ? ['evalsha', 'eval'] : ['EVALSHA', 'EVAL']);
    // EVAL loaded it again: the next call is one EVALSHA
    subject.calls?.splice(0);
    await incrementWithTtl(client, key, { ttlMs: 60_000 });
    if (subject.calls) expect(subject.calls).toHaveLength(1);
  });

  it("passes script errors through as the client's error", async () => {
    const client = subject.client();
    const key = `${uniquePrefix('adapter')}:hash`;
    await admin.hset(key, 'f', '1');
    await admin.pexpire(key, 60_000);
    await expect(incrementWithTtl(client, key, { ttlMs: 1000 })).rejects.toThrow(/WRONGTYPE/);
  });

  it('runs a limiter', async () => {
    const client = subject.client();
    const limiter = createLimiter(client, {
      algorithm: 'fixed-window',
      limit: 2,
      windowMs: 60_000,
      onRedisError: 'fail-closed',
      namespace: uniquePrefix('adapter'),
    });
    const results = [await limiter.take('ada'), await limiter.take('ada'), await limiter.take('ada')];
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(await admin.pttl(limiter.keyFor('ada'))).toBeGreaterThan(0);
  });

  // not on the upstash stand-in: its automatic deserialization is on (createCache needs it off)
  if (!subject.name.includes('upstash')) it('runs the cache: a load, a hit, a negative entry, an invalidation, every key with a TTL', async () => {
    const client = subject.client();
    const namespace = uniquePrefix('adaptercache');
    const cache = createCache<{ n: number }>(client, { namespace, ttlMs: 60_000, negativeTtlMs: 5_000 });
    let loads = 0;
    const loader = async () => ({ n: ++loads });
    expect(await cache.getOrLoad('k', loader)).toEqual({ n: 1 });
    expect(await cache.getOrLoad('k', loader)).toEqual({ n: 1 }); // a hit
    expect(await cache.getOrLoad('absent', async () => undefined)).toBeUndefined();
    expect(await cache.getOrLoad('absent', loader)).toBeUndefined(); // the negative entry answers
    expect(loads).toBe(1);
    await cache.invalidate('k');
    expect(await cache.getOrLoad('k', loader)).toEqual({ n: 2 });
    const keys = await scanWithPttl(admin, `${namespace}*`);
    expect(keys.size).toBeGreaterThan(0);
    for (const [k, pttl] of keys) expect(pttl, k).toBeGreaterThan(0);
  });
});

describe('ioredis runner', () => {
  it('sends the source with EVAL on the first call of a script, then EVALSHA', async () => {
    const client = recordedIoredis(); // a client of its own: its runner has sent nothing yet
    const key = `${uniquePrefix('adapter')}:first`;
    await client.ping(); // connected: ioredis' handshake and offline queue are behind us
    ioredisCalls.splice(0);
    await incrementWithTtl(client, key, { ttlMs: 60_000 });
    await incrementWithTtl(client, key, { ttlMs: 60_000 });
    expect(await collect(client, key)).toBe('2');
    expect(ioredisCalls).toEqual(['eval', 'evalsha', 'eval']);
  });

  it("applies the client's keyPrefix to every script's keys and to the cache's GET, as to any command", async () => {
    const prefix = `${uniquePrefix('kp')}:`;
    const client = redis.client({ keyPrefix: prefix });
    const namespace = uniquePrefix('kpns');
    const limiter = createLimiter(client, { algorithm: 'fixed-window', limit: 2, windowMs: 60_000, onRedisError: 'fail-closed', namespace });
    // EVAL on the first call, EVALSHA on the next ones: the same key either way
    const allowed = [await limiter.take('ada'), await limiter.take('ada'), await limiter.take('ada')].map((r) => r.allowed);
    expect(allowed).toEqual([true, true, false]);
    const pttl = await admin.pttl(`${prefix}${limiter.keyFor('ada')}`);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(60_000);
    expect(await admin.exists(limiter.keyFor('ada'))).toBe(0);
    const cache = createCache<string>(client, { namespace, ttlMs: 60_000 });
    let loads = 0;
    const loader = async () => {
      loads += 1;
      return 'value';
    };
    expect(await cache.getOrLoad('k', loader)).toBe('value');
    expect(await cache.getOrLoad('k', loader)).toBe('value'); // a hit: the GET found the prefixed entry
    expect(loads).toBe(1);
    expect(await admin.pttl(`${prefix}${cache.keysFor('k').entry}`)).toBeGreaterThan(0);
  });
});

describe('outage policy with node-redis', () => {
  it('a closed node-redis client is an outage (fail-closed denies), not a thrown bug', async () => {
    const closed = createClient({ url: redis.url() });
    closed.on('error', () => undefined);
    await closed.connect();
    await closed.quit();
    const limiter = createLimiter(closed, {
      algorithm: 'token-bucket',
      capacity: 2,
      refillPerSecond: 1,
      onRedisError: 'fail-closed',
      timeoutMs: 500,
      scope: uniquePrefix('adapter'),
    });
    const result = await limiter.take('ada');
    expect(result.allowed).toBe(false);
    expect(result.reason).toBe('redis-unavailable');
  });
});

describe('a client that refuses a command without sending it (never connected, offline queue off)', () => {
  const NOT_CONNECTED =
    'the node-redis client is not connected ("The client is closed"): call `await client.connect()` once before using it (and again after `quit()`)';

  it.each([
    ['node-redis 5', (url: string): RedisClient => createClient({ url })],
    ['node-redis 6', (url: string): RedisClient => createClientV6({ url })],
  ])('%s: RedisUnavailableError with sent: false, saying to connect, for the first call and the short-circuited ones', async (_, create) => {
    const never = create(redis.url());
    const key = `${uniquePrefix('adapter')}:hits`;
    const first: unknown = await incrementWithTtl(never, key, { ttlMs: 1000 }).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(RedisUnavailableError);
    expect(first).toMatchObject({ name: 'RedisUnavailableError', sent: false, message: NOT_CONNECTED, code: undefined });
    // the client is now known to be down: the next call is answered without being sent
    const second: unknown = await incrementWithTtl(never, key, { ttlMs: 1000 }).catch((error: unknown) => error);
    expect(second).toMatchObject({ sent: false, message: `Redis is unavailable (${NOT_CONNECTED}); this call was not sent` });
    expect(await admin.exists(key)).toBe(0);
  });

  it('ioredis with enableOfflineQueue: false before its connection is ready: sent: false too', async () => {
    const offline = redis.client({ lazyConnect: true, enableOfflineQueue: false });
    const error: unknown = await incrementWithTtl(offline, `${uniquePrefix('adapter')}:hits`, { ttlMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect(error).toMatchObject({ sent: false, message: "Stream isn't writeable and enableOfflineQueue options is false" });
  });
});

describe('the protocols the clients speak', () => {
  it('ioredis 6 speaks RESP3 by default (HELLO 3), and RESP2 with protocol: 2; GLIDE speaks RESP3', async () => {
    const resp = async (info: Promise<unknown>) => /\bresp=(\d)\b/.exec(String(await info))?.[1];
    expect(await resp(ioredisV6.call('CLIENT', 'INFO'))).toBe('3');
    expect(await resp(ioredisV6Resp2.call('CLIENT', 'INFO'))).toBe('2');
    expect(await resp(iovalkey.call('CLIENT', 'INFO'))).toBe('2');
    expect(await resp(glide.customCommand(['CLIENT', 'INFO']))).toBe('3');
  });
});

describe("Bun's RedisClient shape", () => {
  it('an error reply (ERR_REDIS_SERVER_ERROR) is a bug the caller sees; a closed connection (ERR_REDIS_CONNECTION_CLOSED) is an outage', async () => {
    const key = `${uniquePrefix('bun')}:hash`;
    await admin.hset(key, 'f', '1');
    await admin.pexpire(key, 60_000);
    const wrongType: unknown = await incrementWithTtl(bunStub(admin, []), key, { ttlMs: 1000 }).catch((e: unknown) => e);
    expect(wrongType).toMatchObject({ name: 'RedisError', code: 'WRONGTYPE' });
    const closed = {
      ...bunStub(admin, []),
      connected: false,
      evalsha: () => Promise.reject(Object.assign(new Error('Connection closed'), { code: 'ERR_REDIS_CONNECTION_CLOSED' })),
      eval: () => Promise.reject(Object.assign(new Error('Connection closed'), { code: 'ERR_REDIS_CONNECTION_CLOSED' })),
    };
    const limiter = createLimiter(closed, { algorithm: 'gcra', limit: 2, periodMs: 1000, onRedisError: 'fail-closed', namespace: uniquePrefix('bun') });
    const result = await limiter.take('ada');
    expect({ allowed: result.allowed, reason: result.reason }).toEqual({ allowed: false, reason: 'redis-unavailable' });
  });
});

describe('Valkey GLIDE', () => {
  it("turns GLIDE's error replies back into the reply's text: a WRONGTYPE is a RedisError with its code", async () => {
    const key = `${uniquePrefix('glide')}:hash`;
    await admin.hset(key, 'f', '1');
    await admin.pexpire(key, 60_000);
    const error: unknown = await incrementWithTtl(glide, key, { ttlMs: 1000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RedisError', code: 'WRONGTYPE' });
    expect((error as Error).message).toMatch(/^WRONGTYPE Operation against a key holding the wrong kind of value script: [0-9a-f]{40}, on @user_script:\d+\.$/);
  });

  it.each([
    ['An error was signalled by the server: - ResponseError: redis-ttl increment: by must be an integer', 'ERR redis-ttl increment: by must be an integer'],
    ['An error was signalled by the server: - NoScriptError: No matching script. Please use EVAL.', 'NOSCRIPT No matching script. Please use EVAL.'],
    ['An error was signalled by the server: - BusyLoadingError: Redis is loading the dataset in memory', 'LOADING Redis is loading the dataset in memory'],
    ['An error was signalled by the server: - ReadOnly: You can\'t write against a read only replica.', "READONLY You can't write against a read only replica."],
    ['An error was signalled by the server: - ClusterDown: Hash slot not served', 'CLUSTERDOWN Hash slot not served'],
    ['An error was signalled by the server: - PermissionDenied: this user has no permissions to run the \'eval\' command', "NOPERM this user has no permissions to run the 'eval' command"],
    ['OOM: command not allowed when used memory > \'maxmemory\'.', "OOM command not allowed when used memory > 'maxmemory'."],
    ['BUSY: Redis is busy running a script.', 'BUSY Redis is busy running a script.'],
  ])('glideReplyError(%j) is a ReplyError %j', (message, reply) => {
    const error = Object.assign(new Error(message), { name: 'RequestError' });
    expect(glideReplyError(error)).toMatchObject({ name: 'ReplyError', message: reply });
  });

  it("leaves GLIDE's errors that are no reply as they are (a TimeoutError, a ClosingError, an unknown kind)", () => {
    for (const [name, message] of [
      ['TimeoutError', 'timed out'],
      ['ClosingError', 'Unable to execute requests; the client is closed. Please create a new client.'],
      ['RequestError', 'An error was signalled by the server: - IoError: broken pipe'],
    ] as const) {
      const error = Object.assign(new Error(message), { name });
      expect(glideReplyError(error)).toBe(error);
    }
  });

  it('a closed GlideClient: RedisUnavailableError with sent: false, saying to create a new client', async () => {
    const closed = await GlideClient.createClient(glideConfig(redis.url()));
    closed.close();
    const key = `${uniquePrefix('glide')}:hits`;
    const error: unknown = await incrementWithTtl(closed, key, { ttlMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect(error).toMatchObject({
      sent: false,
      message: 'the Valkey GLIDE client is closed ("the client is closed"): create a new client (`GlideClient.createClient()`)',
    });
    expect(await admin.exists(key)).toBe(0);
  });

  it('a fail-closed limiter on a GlideClient whose server is gone denies with redis-unavailable', async () => {
    const port = await freePort();
    const server = await spawnRedisServer(['--port', String(port), '--bind', '127.0.0.1']);
    const client = await GlideClient.createClient(glideConfig(`redis://127.0.0.1:${port}`, 300));
    try {
      const limiter = createLimiter(client, { algorithm: 'fixed-window', limit: 5, windowMs: 60_000, onRedisError: 'fail-closed', timeoutMs: 500, namespace: uniquePrefix('glide') });
      expect((await limiter.take('ada')).allowed).toBe(true);
      await stopRedisServer(server);
      const result = await limiter.take('ada');
      expect({ allowed: result.allowed, reason: result.reason }).toEqual({ allowed: false, reason: 'redis-unavailable' });
    } finally {
      client.close();
      await stopRedisServer(server);
    }
  });
});

describe('runnerFor', () => {
  it('picks one runner per client object and rejects objects of no known shape', () => {
    expect(runnerFor(nodeRedis)).toBe(runnerFor(nodeRedis));
    expect(() => runnerFor({ get: () => undefined } as unknown as RedisClient)).toThrow(
      "redis must be an ioredis or iovalkey Redis or Cluster, a node-redis client (createClient()), an @upstash/redis Redis, a Valkey GLIDE GlideClient or GlideClusterClient, Bun's RedisClient, or a MemoryStore",
    );
    // ioredis-like but without the evalsha the runner calls: refused here, not at the first call
    const noEvalsha = { defineCommand: () => undefined, eval: () => Promise.resolve(1) };
    expect(() => runnerFor(noEvalsha as unknown as RedisClient)).toThrow(/^redis must be an ioredis or iovalkey Redis or Cluster, a node-redis client/);
  });

  it('types: the clients of every supported library are RedisClient values', () => {
    // compile-time check: the real @upstash/redis class fits RedisClient (nothing is sent)
    const upstash: RedisClient = new UpstashRedis({ url: 'https://example.invalid', token: 'unused' });
    const node: RedisClient = nodeRedis;
    const clients: RedisClient[] = [ioredisV6, iovalkey, glide];
    const cluster = (c: GlideClusterClient): RedisClient => c;
    expect(typeof upstash).toBe('object');
    expect(node).toBe(nodeRedis);
    expect(clients).toHaveLength(3);
    expect(typeof cluster).toBe('function');
  });
});
