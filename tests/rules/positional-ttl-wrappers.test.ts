/**
 * Round 25 (t46): an application's own cache wrapper whose TTL is a positional parameter,
 * `set(key, value, ttl?)`, sending SETEX when the TTL is given and a plain SET when it is not.
 * Its callers (`redisService.set(key, json, CACHE_TTL)`, rideway-api's category caches) were read
 * as plain SETs: the wrapper's module was imported through the project's tsconfig alias
 * `@redis/*`, which the rules took for node-redis' `@redis/*` scope, so the injected
 * `RedisService` was a node-redis client; and once read as the project's class, the wrapper was
 * no facade (two arms, two commands), so its callers were not read at all.
 *
 * What a caller's call means: the arm its argument chooses (`option-arms.ts`, positional). The TTL
 * given, or the wrapper's default applied when it is left out, is an expiring write; left out with
 * no default, the wrapper's plain SET, reported at the caller. A wrapper that ignores its TTL
 * parameter stays reported whatever its callers pass.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const SET = 'set-requires-ttl-or-keepttl';
const RULES = { [SET]: undefined, 'incr-needs-expire-on-create': undefined };

/** The project's tsconfig, with the alias that shadows node-redis' package scope. */
const TSCONFIG = JSON.stringify({ compilerOptions: { baseUrl: './', paths: { '@redis/*': ['src/redis/*'] } } });

/** A Nest-style `RedisService` (src/redis/redis.service.ts) whose `set` has the given parameter list and body. */
const service = (params: string, body: string): string => `import { Injectable } from '@nestjs/common';
import Redis from 'ioredis';

@Injectable()
export class RedisService {
  private client!: Redis;

  getClient(): Redis {
    return this.client;
  }

  async set(${params}): Promise<void> {
${body}
  }
}
`;

/** The two arms: SETEX when the TTL is given, SET when it is not. */
const TWO_ARMS = `    if (ttl) {
      await this.client.setex(key, ttl, value);
    } else {
      await this.client.set(key, value);
    }`;

/** A caller class injected with the service (src/categories.service.ts); `call` is line 10. */
const caller = (call: string, specifier = '@redis/redis.service.js'): string => `import { Injectable } from '@nestjs/common';
import { RedisService } from '${specifier}';

@Injectable()
export class CategoriesService {
  private readonly CACHE_TTL = 3600;
  constructor(private readonly redisService: RedisService) {}

  async cache(id: string, json: string, expiresIn: number): Promise<void> {
    ${call};
  }
}
`;

/** Lints the caller of an application holding the service, the caller and the tsconfig. */
function lintCaller(serviceText: string, callerText: string): Array<[string | undefined, string | undefined, number, number]> {
  return lintApplication(roots, { 'tsconfig.json': TSCONFIG, 'src/redis/redis.service.ts': serviceText, 'src/categories.service.ts': callerText }, 'src/categories.service.ts', RULES, []);
}

describe('a tsconfig alias spelled like a client package names the project\'s module', () => {
  it('`@redis/redis.service.js` through `"@redis/*": ["src/redis/*"]` is the RedisService class, not node-redis', () => {
    // read as the wrapper: the TTL given chooses SETEX
    expect(lintCaller(service('key: string, value: string, ttl?: number', TWO_ARMS), caller('await this.redisService.set(`categories:${id}`, json, this.CACHE_TTL)'))).toEqual([]);
  });
  it('a specifier the alias does not map is still the package (`@redis/client`)', () => {
    const text = `import { createClient } from '@redis/client';
const client = createClient();
export async function put(id: string) {
  await client.set(\`categories:\${id}\`, 'x');
}
`;
    expect(lintApplication(roots, { 'tsconfig.json': TSCONFIG, 'src/put.ts': text }, 'src/put.ts', RULES, [])).toEqual([[SET, 'setWithoutTtl', 4, 16]]);
  });
  it('nor does a bare `baseUrl` make `redis` the project\'s `src/redis/` folder', () => {
    const text = `import { createClient } from 'redis';
const client = createClient();
export async function put(id: string) {
  await client.set(\`categories:\${id}\`, 'x');
}
`;
    const files = { 'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: 'src' } }), 'src/redis/index.ts': 'export const createClient = () => ({});\n', 'src/put.ts': text };
    expect(lintApplication(roots, files, 'src/put.ts', RULES, [])).toEqual([[SET, 'setWithoutTtl', 4, 16]]);
  });
});

describe('callers of a wrapper whose TTL is a positional parameter', () => {
  const optional = service('key: string, value: string, ttl?: number', TWO_ARMS);
  it('the TTL given (a literal, a constant member, a variable) chooses the expiring arm', () => {
    expect(lintCaller(optional, caller('await this.redisService.set(`categories:${id}`, json, 3600)'))).toEqual([]);
    expect(lintCaller(optional, caller('await this.redisService.set(`categories:${id}`, json, this.CACHE_TTL)'))).toEqual([]);
    expect(lintCaller(optional, caller('await this.redisService.set(`token:blacklist:${id}`, "1", expiresIn)'))).toEqual([]);
  });
  it('left out with no default: the plain SET, reported at the caller', () => {
    expect(lintCaller(optional, caller('await this.redisService.set(`categories:${id}`, json)'))).toEqual([[SET, 'setWithoutTtl', 10, 29]]);
    // a relative import reads the same class
    expect(lintCaller(optional, caller('await this.redisService.set(`categories:${id}`, json)', './redis/redis.service'))).toEqual([[SET, 'setWithoutTtl', 10, 29]]);
  });
  it('a known absent TTL (`0`) is the plain SET too', () => {
    expect(lintCaller(optional, caller('await this.redisService.set(`categories:${id}`, json, 0)'))).toEqual([[SET, 'setWithoutTtl', 10, 29]]);
  });
  it('left out with a default: the default applies', () => {
    const withDefault = service('key: string, value: string, ttl = 300', TWO_ARMS);
    expect(lintCaller(withDefault, caller('await this.redisService.set(`categories:${id}`, json)'))).toEqual([]);
  });
  it('an early return and a `ttl > 0` test choose the arms the same way', () => {
    const early = service(
      'key: string, value: string, ttl?: number',
      `    if (ttl !== undefined && ttl > 0) {
      await this.client.set(key, value, 'EX', ttl);
      return;
    }
    await this.client.set(key, value);`,
    );
    expect(lintCaller(early, caller('await this.redisService.set(`categories:${id}`, json, 60)'))).toEqual([]);
    expect(lintCaller(early, caller('await this.redisService.set(`categories:${id}`, json)'))).toEqual([[SET, 'setWithoutTtl', 10, 29]]);
  });
  it('a wrapper that ignores its TTL parameter stays reported at a caller that passes one', () => {
    const ignoring = service('key: string, value: string, ttl?: number', '    await this.client.set(key, value);');
    expect(lintCaller(ignoring, caller('await this.redisService.set(`categories:${id}`, json, this.CACHE_TTL)'))).toEqual([[SET, 'setWithoutTtl', 10, 29]]);
  });
  it('a wrapper whose arms both skip the TTL stays reported too', () => {
    const both = service(
      'key: string, value: string, ttl?: number',
      `    if (ttl) {
      await this.client.set(key, value);
    } else {
      await this.client.set(key, value);
    }`,
    );
    expect(lintCaller(both, caller('await this.redisService.set(`categories:${id}`, json, 3600)'))).toEqual([[SET, 'setWithoutTtl', 10, 29]]);
  });
  it('a positional flag that chooses between two writes without TTL keeps reading every caller', () => {
    const push = `import Redis from 'ioredis';
export class RedisService {
  private client!: Redis;
  async push(key: string, value: string, front?: boolean): Promise<void> {
    if (front) await this.client.lpush(key, value);
    else await this.client.rpush(key, value);
  }
}
`;
    const flagCaller = caller('await this.redisService.push(`queue:${id}`, json, expiresIn > 0)');
    expect(lintApplication(roots, { 'tsconfig.json': TSCONFIG, 'src/redis/redis.service.ts': push, 'src/categories.service.ts': flagCaller }, 'src/categories.service.ts', RULES, [])).toEqual([
      ['incr-needs-expire-on-create', 'noExpiry', 10, 29],
    ]);
  });
  it('a wrapper forwarding its TTL to such a wrapper is not read as the plain SET it forwards without one', () => {
    // OpenQuester: RedisService.set -> RedisRepository.set, each `if (expire) ... else ...`
    const repository = service(
      'key: string, value: string, expire?: number',
      `    if (expire) {
      await this.client.set(key, value, 'PX', expire);
    } else {
      await this.client.set(key, value);
    }`,
    ).replace('class RedisService', 'class RedisRepository');
    const outer = `import { RedisRepository } from './redis.repository';
export class RedisService {
  constructor(private readonly redisRepository: RedisRepository) {}
  async set(key: string, value: string, expire?: number): Promise<void> {
    if (expire) {
      await this.redisRepository.set(key, value, expire);
    } else {
      await this.redisRepository.set(key, value);
    }
  }
}
`;
    const files = { 'tsconfig.json': TSCONFIG, 'src/redis/redis.repository.ts': repository, 'src/redis/redis.service.ts': outer, 'src/categories.service.ts': caller('await this.redisService.set(`timer:${id}`, json, expiresIn ? expiresIn : 30000)') };
    expect(lintApplication(roots, files, 'src/categories.service.ts', RULES, [])).toEqual([]);
  });
  it('a write every call makes, expired only when a TTL is given, is judged in the wrapper', () => {
    const trailing = service(
      'key: string, value: string, ttl?: number',
      `    await this.client.set(key, value);
    if (ttl) await this.client.expire(key, ttl);`,
    );
    expect(lintCaller(trailing, caller('await this.redisService.set(`categories:${id}`, json)'))).toEqual([]);
    const wrapper = lintApplication(roots, { 'tsconfig.json': TSCONFIG, 'src/redis/redis.service.ts': trailing, 'src/categories.service.ts': caller('await this.redisService.set(`categories:${id}`, json)') }, 'src/redis/redis.service.ts', RULES, []);
    expect(wrapper).toEqual([[SET, 'setThenExpire', 13, 23]]);
  });
});
