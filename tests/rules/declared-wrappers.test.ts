/**
 * A receiver the code itself declares, taken for a client by a guess (round 28, issue 25 item 1):
 * `redisService: IRedisService`, an interface of the code that lists Redis commands (a duck-typed
 * client) but gives `set` a parameter list of its own, `set(key, value, ttl?: number)`. A number
 * where SET reads an option token is no client's SET: the call is the code's wrapper, read through
 * the class implementing it (`set` sending SETEX with a TTL, plain SET without), or not at all
 * (`redis-calls/declared-wrappers.ts`). Kept: the methods that fit their command (LPUSH then a
 * separate EXPIRE), a receiver typed with the client package's own type or an interface extending
 * it, a declaration forwarding the client's grammar (a rest parameter), a name-only receiver, and
 * the wrapper's own SET without TTL where it drops the TTL.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** The TTL rules of `recommended` these tests lint with, with their default options. */
const TTL_RULES: Record<string, undefined> = { 'valid-ttl-args': undefined, 'set-requires-ttl-or-keepttl': undefined, 'incr-needs-expire-on-create': undefined, 'ttl-units': undefined };

/** Lints `target` of an application made of `files`; [rule, messageId, line, column] per finding. */
function lint(files: Record<string, string>, target: string): Array<[string | undefined, string | undefined, number, number]> {
  return lintApplication(roots, files, target, TTL_RULES, []);
}

const INTERFACE = `import type Redis from 'ioredis';
export interface IRedisService {
  getClient(): Redis;
  set(key: string, value: string | number | Buffer, ttl?: number): Promise<'OK'>;
  get(key: string): Promise<string | null>;
  expire(key: string, seconds: number): Promise<number>;
  lpush(key: string, value: string): Promise<number>;
  incr(key: string): Promise<number>;
}
`;

const SERVICE = `import Redis from 'ioredis';
import { IRedisService } from './redis.interface';
export class RedisServiceImpl implements IRedisService {
  private redisClient: Redis;
  constructor() { this.redisClient = new Redis(); }
  getClient(): Redis { return this.redisClient; }
  public async set(key: string, value: string | number | Buffer, ttl?: number): Promise<'OK'> {
    if (ttl) {
      return await this.redisClient.setex(key, ttl, value);
    }
    return await this.redisClient.set(key, value);
  }
  public async get(key: string) { return await this.redisClient.get(key); }
  public async expire(key: string, seconds: number) { return await this.redisClient.expire(key, seconds); }
  public async lpush(key: string, value: string) { return await this.redisClient.lpush(key, value); }
  public async incr(key: string) { return await this.redisClient.incr(key); }
}
`;

const LOGIN = `import type { IRedisService } from './redis.interface';
export class LoginService {
  constructor(protected readonly redisService: IRedisService) {}
  async login(userId: string) {
    await this.redisService.set(\`session:\${userId}\`, 'x', 24 * 60 * 60);
    await this.redisService.set(\`plain:\${userId}\`, 'x');
    await this.redisService.lpush(\`history:\${userId}\`, 'x');
    await this.redisService.expire(\`history:\${userId}\`, 3600);
  }
}
`;

describe("a code-declared receiver whose method has its own parameter list is the code's wrapper, not the client", () => {
  it('reads set(key, value, ttl) through the implementing class (SETEX), its plain arm stays SET without TTL, and the fitting methods stay commands', () => {
    const files = { 'src/redis.interface.ts': INTERFACE, 'src/redis.service.ts': SERVICE, 'src/login.ts': LOGIN };
    expect(lint(files, 'src/login.ts')).toEqual([
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 6, 29],
      ['incr-needs-expire-on-create', 'separateRoundTrip', 7, 29],
    ]);
    // the wrapper's own body: its callers are read, so it is left alone
    expect(lint(files, 'src/redis.service.ts')).toEqual([]);
  });

  it('follows a member a superclass of the code declares (a constructor parameter handed to super)', () => {
    const sub = `import type { IRedisService } from './redis.interface';
import { LoginService } from './login';
export class UserService extends LoginService {
  constructor(redisService: IRedisService) { super(redisService); }
  async logout(token: string) {
    await this.redisService.set(\`blacklist:\${token}\`, '1', 60 * 60);
  }
}
`;
    expect(lint({ 'src/redis.interface.ts': INTERFACE, 'src/redis.service.ts': SERVICE, 'src/login.ts': LOGIN, 'src/user.ts': sub }, 'src/user.ts')).toEqual([]);
  });

  it('reads nothing on the wrapper call when no class of the code implements the declaration', () => {
    expect(lint({ 'src/redis.interface.ts': INTERFACE, 'src/login.ts': LOGIN }, 'src/login.ts')).toEqual([['incr-needs-expire-on-create', 'separateRoundTrip', 7, 29]]);
  });

  it('judges a type literal annotation the same way', () => {
    const code = `import type Redis from 'ioredis';
export type Client = Redis;
export async function remember(kv: { set(key: string, value: string, ttl?: number): Promise<void>; incr(key: string): Promise<number>; expire(key: string, s: number): Promise<number> }, id: string) {
  await kv.set(\`seen:\${id}\`, '1', 3600);
  await kv.incr(\`count:\${id}\`);
}
`;
    expect(lint({ 'src/remember.ts': code }, 'src/remember.ts')).toEqual([['incr-needs-expire-on-create', 'noExpiry', 5, 12]]);
  });

  it('judges a receiver taken for a client by its name by its declaration too', () => {
    const code = `import Redis from 'ioredis';
export const client = new Redis();
export interface Cache {
  set(key: string, value: string, ttl?: number): Promise<void>;
  get(key: string): Promise<string | null>;
  publish(channel: string, message: string): Promise<number>;
}
export async function remember(redis: Cache, id: string) {
  await redis.set(\`seen:\${id}\`, '1', 3600);
}
`;
    expect(lint({ 'src/remember.ts': code }, 'src/remember.ts')).toEqual([]);
    // the same receiver without the declaration: its name makes it the client, and SET rejects 3600
    expect(lint({ 'src/remember.ts': code.replace('redis: Cache', 'redis') }, 'src/remember.ts')).toEqual([['valid-ttl-args', 'unknownOption', 9, 38]]);
  });

  it('keeps the wrapper that drops its TTL reported where it sends SET without one', () => {
    const dropping = SERVICE.replace('return await this.redisClient.setex(key, ttl, value);', 'return await this.redisClient.set(key, value);');
    const files = { 'src/redis.interface.ts': INTERFACE, 'src/redis.service.ts': dropping, 'src/login.ts': LOGIN };
    expect(lint(files, 'src/redis.service.ts')).toEqual([
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 9, 37],
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 11, 35],
    ]);
  });
});

describe('near misses stay the client', () => {
  it("a receiver typed with the client package's own type", () => {
    const code = `import Redis from 'ioredis';
export class Store {
  constructor(private readonly redisService: Redis) {}
  async put(id: string) { await this.redisService.set(\`k:\${id}\`, '1', 3600); }
}
`;
    expect(lint({ 'src/store.ts': code }, 'src/store.ts')).toEqual([['valid-ttl-args', 'unknownOption', 4, 71]]);
  });

  it('an interface of the code that extends the client type', () => {
    const code = `import Redis from 'ioredis';
export interface AppRedis extends Redis { ready(): boolean }
export async function put(redisService: AppRedis, id: string) {
  await redisService.set(\`k:\${id}\`, '1', 3600);
}
`;
    expect(lint({ 'src/store.ts': code }, 'src/store.ts')).toEqual([['valid-ttl-args', 'unknownOption', 4, 42]]);
  });

  it("a declaration whose set forwards the client's grammar (a rest parameter)", () => {
    const code = `import type Redis from 'ioredis';
export type Client = Redis;
export interface RedisLike {
  set(key: string, value: string, ...args: unknown[]): Promise<unknown>;
  incr(key: string): Promise<number>;
  expire(key: string, seconds: number): Promise<number>;
}
export async function put(store: RedisLike, id: string) {
  await store.set(\`k:\${id}\`, '1', 3600);
}
`;
    expect(lint({ 'src/store.ts': code }, 'src/store.ts')).toEqual([['valid-ttl-args', 'unknownOption', 9, 35]]);
  });

  it('a receiver known by its name only', () => {
    const code = `import Redis from 'ioredis';
export async function put(redis, id: string) {
  await redis.set(\`k:\${id}\`, '1', 3600);
}
`;
    expect(lint({ 'src/store.ts': code }, 'src/store.ts')).toEqual([['valid-ttl-args', 'unknownOption', 3, 35]]);
  });
});
