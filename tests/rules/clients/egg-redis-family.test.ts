/**
 * The client family of a framework plugin's member (`redis-calls/application-members.ts`,
 * `APPLICATION_MEMBER_CLIENTS`): in a package that depends on egg-redis, `app.redis` /
 * `this.app.redis` / `const { redis } = this.app` is an ioredis client, so `set(k, v, 'EX', n)`
 * sends EX, whatever the package's other code calls on members named `redis`; and
 * `ctx.service.<name>` of an Egg.js application with `app/service/<name>` is its own service, no
 * client. A node-redis client made by `createClient()` of `redis` stays node-redis.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { lintApplication } from '../../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

// node-redis 4 is a dependency too: what the package's other code uses does not decide app.redis
const EGG_REDIS = '{ "name": "app", "private": true, "dependencies": { "egg": "^2.15.1", "egg-redis": "^2.4.0", "redis": "^4.6.0" } }';
const EGG_ONLY = '{ "name": "app", "private": true, "dependencies": { "egg": "^2.15.1", "redis": "^4.6.0" } }';

// app/service/redis.ts: the application's Redis service; its camelCase method names are its own
const SERVICE = [
  "const Service = require('egg').Service;",
  'class RedisService extends Service {',
  '  async set(key: string, value: string, seconds?: number) {',
  '    const { redis } = this.app;',
  "    if (!seconds) await redis.set(key, value, 'EX', 2592000);",
  "    else await redis.set(key, value, 'EX', seconds);",
  '  }',
  '  async touch(key: string) {',
  "    await this.app.redis.set(`touch:${key}`, '1', 'EX', 60);",
  '  }',
  '  async forever(key: string) {',
  "    await this.ctx.app.redis.set(`page:${key}`, '1');",
  '  }',
  '  async hSet(key: string, field: string, value: string) {',
  '    await this.app.redis.hset(key, field, value);',
  '    await this.app.redis.expire(key, 60);',
  '  }',
  '}',
  'module.exports = RedisService;',
].join('\n');

// app/controller/login.ts: calls of the service, one in node-redis' camelCase spelling
const CONTROLLER = [
  "const Controller = require('egg').Controller;",
  'class LoginController extends Controller {',
  '  async login(token: string, id: string) {',
  '    const { ctx } = this;',
  '    await ctx.service.redis.hSet(`roles:${id}`, "menu", "[]");',
  '    await ctx.service.redis.set(`token:${token}`, id, 7200);',
  '  }',
  '}',
  'module.exports = LoginController;',
].join('\n');

const RULES = { 'valid-ttl-args': undefined, 'set-requires-ttl-or-keepttl': undefined };

describe('egg-redis: app.redis is an ioredis client', () => {
  it("sends 'EX', n on app.redis, this.app.redis and const { redis } = this.app; a SET without TTL is still reported", () => {
    const files = { 'app/service/redis.ts': SERVICE, 'app/controller/login.ts': CONTROLLER };
    expect(lintApplication(roots, files, 'app/service/redis.ts', RULES, [], EGG_REDIS)).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 12, 30]]);
  });

  it("ctx.service.redis with app/service/redis.ts is the application's service: its set(k, v, 7200) is no SET", () => {
    const files = { 'app/service/redis.ts': SERVICE, 'app/controller/login.ts': CONTROLLER };
    expect(lintApplication(roots, files, 'app/controller/login.ts', RULES, [], EGG_REDIS)).toEqual([]);
  });

  it('near miss: without egg-redis in package.json, members named redis called in camelCase stay node-redis', () => {
    // no app/service/redis.ts: ctx.service.redis is read by its name, and its hSet says node-redis
    const files = { 'app/service/cache.ts': SERVICE, 'app/controller/login.ts': CONTROLLER };
    const found = lintApplication(roots, files, 'app/service/cache.ts', RULES, [], EGG_ONLY);
    expect(found.filter(([rule]) => rule === 'valid-ttl-args').map(([, , line]) => line)).toEqual([5, 6, 9]);
  });

  it('near miss: a node-redis client of the same package stays node-redis', () => {
    const code = [
      "import { createClient } from 'redis';",
      'const client = createClient();',
      'export async function put(app: any, key: string, v: string) {',
      "  await app.redis.set(key, v, 'EX', 60);",
      "  await client.set(key, v, 'EX', 60);",
      '}',
    ].join('\n');
    expect(lintApplication(roots, { 'app/lib/put.ts': code }, 'app/lib/put.ts', RULES, [], EGG_REDIS).map(([rule, , line, column]) => [rule, line, column])).toEqual([['valid-ttl-args', 5, 28]]);
  });
});
