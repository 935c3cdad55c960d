/**
 * Breaker round 38: odd but realistic code against the round's new readings (egg-redis' app.redis
 * as ioredis and Egg services as no client; seconds from a division of milliseconds; a deadline
 * set just before from the clock; a constant lock released without TTL). Each case is a leak a
 * reading hid, or a near miss that must keep its result.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

// egg-redis and node-redis 4 both declared
const EGG_BOTH = '{ "name": "app", "private": true, "dependencies": { "egg": "^2.15.1", "egg-redis": "^2.4.0", "redis": "^4.6.0" } }';
const RULES = { 'valid-ttl-args': undefined, 'set-requires-ttl-or-keepttl': undefined, 'incr-needs-expire-on-create': undefined };

// app/service/redis.ts: a thin wrapper whose set(key, value) sends a plain SET when no seconds are given
const WRAPPER = [
  "const Service = require('egg').Service;",
  'class RedisService extends Service {',
  '  async set(key: string, value: string, seconds?: number) {',
  "    if (seconds) return this.app.redis.set(key, value, 'EX', seconds);",
  '    return this.app.redis.set(key, value);',
  '  }',
  '}',
  'module.exports = RedisService;',
].join('\n');
/** app/controller/login.ts calling the service on line 4 with `args`. */
const controller = (args: string) =>
  [
    "const Controller = require('egg').Controller;",
    'class LoginController extends Controller {',
    '  async login(token: string, id: string) {',
    `    await this.ctx.service.redis.set(${args});`,
    '  }',
    '}',
    'module.exports = LoginController;',
  ].join('\n');

describe("an Egg service that is a pass-through wrapper: its callers are judged (the service is no client, but its set is a SET)", () => {
  it('ctx.service.redis.set(`token:${token}`, id) reaches the plain SET: reported at the caller', () => {
    const files = { 'app/service/redis.ts': WRAPPER, 'app/controller/login.ts': controller('`token:${token}`, id') };
    expect(lintApplication(roots, files, 'app/controller/login.ts', RULES, [], EGG_BOTH)).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 4, 34]]);
    // the wrapper itself stays a pass-through (its callers decide)
    expect(lintApplication(roots, files, 'app/service/redis.ts', RULES, [], EGG_BOTH)).toEqual([]);
  });
  it('the service compiled in place (redis.ts beside redis.js, one module): still reported at the caller', () => {
    const compiled = WRAPPER.replace(/: string|\?: number/g, '');
    const files = { 'app/service/redis.ts': WRAPPER, 'app/service/redis.js': compiled, 'app/controller/login.ts': controller('`token:${token}`, id') };
    expect(lintApplication(roots, files, 'app/controller/login.ts', RULES, [], EGG_BOTH)).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 4, 34]]);
  });
  it('near miss: the caller passes the seconds: the EX arm, not reported', () => {
    const files = { 'app/service/redis.ts': WRAPPER, 'app/controller/login.ts': controller('`token:${token}`, id, 7200') };
    expect(lintApplication(roots, files, 'app/controller/login.ts', RULES, [], EGG_BOTH)).toEqual([]);
  });
  it('near miss: a service method named after no command and sending nothing is no write', () => {
    const svc = "const Service = require('egg').Service;\nclass RedisService extends Service {\n  async set(key: string, value: string) {\n    this.ctx.logger.info(key, value);\n  }\n}\nmodule.exports = RedisService;";
    const files = { 'app/service/redis.ts': svc, 'app/controller/login.ts': controller('`token:${token}`, id') };
    expect(lintApplication(roots, files, 'app/controller/login.ts', RULES, [], EGG_BOTH)).toEqual([]);
  });
});

// app.ts storing the application's own node-redis client at app.redis (egg-redis declared, not used)
const OWN_CLIENT = "import { createClient } from 'redis';\nexport default (app: any) => {\n  app.redis = createClient();\n};\n";
const USE = "export async function put(app: any, key: string, v: string) {\n  await app.redis.set(key, v, 'EX', 60);\n}\n";

describe('app.redis the code stores itself beats the egg-redis dependency (client detection reads the assignment)', () => {
  it("app.redis = createClient() of node-redis: set(k, v, 'EX', 60) sends no EX", () => {
    expect(lintApplication(roots, { 'app.ts': OWN_CLIENT, 'app/lib/use.ts': USE }, 'app/lib/use.ts', RULES, [], EGG_BOTH)).toEqual([['valid-ttl-args', 'positionalTokens', 2, 31]]);
  });
  it('near miss: no store of its own: the plugin\'s ioredis client, EX is sent', () => {
    expect(lintApplication(roots, { 'app/lib/use.ts': USE }, 'app/lib/use.ts', RULES, [], EGG_BOTH)).toEqual([]);
  });
  it('near miss: an ioredis client stored at app.redis: EX is sent', () => {
    const own = "import Redis from 'ioredis';\nexport default (app: any) => {\n  app.redis = new Redis();\n};\n";
    expect(lintApplication(roots, { 'app.ts': own, 'app/lib/use.ts': USE }, 'app/lib/use.ts', RULES, [], EGG_BOTH)).toEqual([]);
  });
});
