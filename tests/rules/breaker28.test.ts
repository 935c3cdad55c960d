/**
 * Breaker round 28: odd but realistic code against the round's new readings (modules no entry
 * point reaches, servers started by their own start script, declared wrappers, destructured
 * facades). Each case is a leak a reading hid, or a finding nobody would fix, and the result it
 * must give.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const INCR = 'incr-needs-expire-on-create';
const REDIS = "import Redis from 'ioredis';\nexport const redis = new Redis();\n";
const NEXT = '{ "name": "web", "private": true, "scripts": { "dev": "next dev", "build": "next build", "start": "next start" }, "dependencies": { "next": "14.2.0", "ioredis": "5.4.1" } }';

describe('a module no entry point reaches: Next.js runs src/middleware.ts by its place', () => {
  const limiter = [
    "import { NextResponse, type NextRequest } from 'next/server';",
    "import { redis } from './lib/redis';",
    'async function tooMany(ip: string) {',
    '  const hits = await redis.incr(`rl:${ip}`);',
    '  return hits > 100;',
    '}',
    'export async function middleware(request: NextRequest) {',
    "  if (await tooMany(request.ip ?? 'anon')) return new NextResponse('slow down', { status: 429 });",
    '  return NextResponse.next();',
    '}',
    "export const config = { matcher: '/api/:path*' };",
    '',
  ].join('\n');

  it('reports the INCR of a helper of src/middleware.ts, which nothing imports', () => {
    const files = { 'src/lib/redis.ts': REDIS, 'src/middleware.ts': limiter, 'src/app/page.tsx': 'export default function Page() { return null; }\n' };
    expect(lintApplication(roots, files, 'src/middleware.ts', { [INCR]: undefined }, [], NEXT)).toEqual([[INCR, 'noExpiry', 4, 28]]);
    // the same file nothing runs (under lib/, not a name Next.js looks for) stays unreached
    const moved = { 'src/lib/redis.ts': REDIS, 'src/lib/limits.ts': limiter.replace("'./lib/redis'", "'./redis'") };
    expect(lintApplication(roots, moved, 'src/lib/limits.ts', { [INCR]: undefined }, [], NEXT)).toEqual([]);
  });

  it('reports the INCR of a Nitro server middleware, which Nitro runs from server/middleware/', () => {
    const nitro = '{ "name": "api", "private": true, "scripts": { "start": "node .output/server/index.mjs" }, "dependencies": { "nitropack": "2.9.0", "ioredis": "5.4.1" } }';
    const hit = "import { redis } from '../utils/redis';\nexport default defineEventHandler(async (event) => {\n  await redis.incr(`hits:${getRequestIP(event)}`);\n});\n";
    const files = { 'server/utils/redis.ts': REDIS, 'server/middleware/hits.ts': hit };
    expect(lintApplication(roots, files, 'server/middleware/hits.ts', { [INCR]: undefined }, [], nitro)).toEqual([[INCR, 'noExpiry', 3, 15]]);
  });
});

describe('a module no entry point reaches: a package nested in the application imports it', () => {
  const SERVER = '{ "name": "api", "private": true, "scripts": { "start": "node dist/server.js" }, "dependencies": { "ioredis": "5.4.1" } }';
  const quota = "import { redis } from './redis';\nexport async function spend(user: string) {\n  return redis.incr(`quota:${user}`);\n}\n";
  const worker = "import { spend } from '../lib/quota';\nsetInterval(() => spend(process.argv[2]!), 1000);\n";

  it('reports the INCR of a module only the nested worker package imports by a relative path', () => {
    const files = { 'lib/redis.ts': REDIS, 'lib/quota.ts': quota, 'server.ts': "console.log('api');\n", 'worker/package.json': '{ "name": "worker", "private": true }', 'worker/index.ts': worker };
    expect(lintApplication(roots, files, 'lib/quota.ts', { [INCR]: undefined }, [], SERVER)).toEqual([[INCR, 'noExpiry', 3, 16]]);
    // a nested package that does not name it leaves it unreached
    const other = { ...files, 'worker/index.ts': "console.log('worker');\n" };
    expect(lintApplication(roots, other, 'lib/quota.ts', { [INCR]: undefined }, [], SERVER)).toEqual([]);
  });
});

describe("a declared wrapper whose contract is an abstract class (a dependency-injection token)", () => {
  const TTL_RULES: Record<string, undefined> = { 'valid-ttl-args': undefined, 'set-requires-ttl-or-keepttl': undefined, 'incr-needs-expire-on-create': undefined, 'ttl-units': undefined };
  const TOKEN = "export abstract class CacheService {\n  abstract set(key: string, value: string, ttl?: number): Promise<unknown>;\n  abstract get(key: string): Promise<string | null>;\n}\n";
  const IMPL = [
    "import Redis from 'ioredis';",
    "import { CacheService } from './cache.service';",
    'export class RedisCache extends CacheService {',
    '  private client = new Redis();',
    '  async set(key: string, value: string, ttl?: number) {',
    "    if (ttl) return this.client.set(key, value, 'EX', ttl);",
    '    return this.client.set(key, value);',
    '  }',
    '  async get(key: string) { return this.client.get(key); }',
    '}',
    '',
  ].join('\n');
  const USER = "import { CacheService } from './cache.service';\nexport class Sessions {\n  constructor(private readonly cache: CacheService) {}\n  async save(id: string, data: string) {\n    await this.cache.set(`session:${id}`, data);\n    await this.cache.set(`token:${id}`, data, 3600);\n  }\n}\n";

  it('reads set(key, value) through the subclass: its plain arm is a SET without TTL', () => {
    const files = { 'src/cache.service.ts': TOKEN, 'src/redis.cache.ts': IMPL, 'src/sessions.ts': USER };
    expect(lintApplication(roots, files, 'src/sessions.ts', TTL_RULES, [])).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 22]]);
    // as through an interface the class implements
    const iface = { 'src/cache.service.ts': TOKEN.replace('abstract class', 'interface').replace(/abstract /g, ''), 'src/redis.cache.ts': IMPL.replace('extends', 'implements'), 'src/sessions.ts': USER };
    expect(lintApplication(roots, iface, 'src/sessions.ts', TTL_RULES, [])).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 5, 22]]);
  });
});

describe('a module no entry point reaches: a package loads a directory of modules', () => {
  const JS_REDIS = "const Redis = require('ioredis');\nexports.redis = new Redis();\n";
  const job = "const { redis } = require('../../lib/redis');\nasync function count(ip: string) {\n  await redis.incr(`jobs:${ip}`);\n}\nmodule.exports = async function run(ip: string) { await count(ip); };\n";
  const SERVER = '{ "name": "api", "private": true, "main": "server.js", "scripts": { "start": "node server.js" }, "dependencies": { "ioredis": "5.4.1" } }';
  const lint = (server: string) => lintApplication(roots, { 'lib/redis.js': JS_REDIS, 'server.js': server, 'src/tasks/count.ts': job }, 'src/tasks/count.ts', { [INCR]: undefined }, [], SERVER);

  it('reports the INCR of a module fastify-autoload registers from its plugins directory', () => {
    const FASTIFY = '{ "name": "api", "private": true, "main": "app.js", "scripts": { "start": "fastify start -l info app.js" }, "dependencies": { "ioredis": "5.4.1", "@fastify/autoload": "5.0.0", "fastify-plugin": "4.0.0" } }';
    const app = "import path from 'node:path';\nimport AutoLoad from '@fastify/autoload';\nexport default async function app(fastify: any, opts: any) {\n  fastify.register(AutoLoad, { dir: path.join(__dirname, 'plugins'), options: { ...opts } });\n}\n";
    const hits = "import fp from 'fastify-plugin';\nimport { redis } from '../lib/redis';\nasync function count(ip: string) {\n  await redis.incr(`hits:${ip}`);\n}\nexport default fp(async (fastify: any) => {\n  fastify.addHook('onRequest', async (request: any) => count(request.ip));\n});\n";
    expect(lintApplication(roots, { 'lib/redis.ts': REDIS, 'app.ts': app, 'plugins/hits.ts': hits }, 'plugins/hits.ts', { [INCR]: undefined }, [], FASTIFY)).toEqual([[INCR, 'noExpiry', 4, 15]]);
  });

  it('reports the INCR of a module loaded by files.forEach(require) or require-all', () => {
    expect(lint("const glob = require('glob');\nconst path = require('path');\nglob.sync(path.join(__dirname, 'src/tasks/*.js')).forEach(require);\n")).toEqual([[INCR, 'noExpiry', 3, 15]]);
    expect(lint("const requireAll = require('require-all');\nconst tasks = requireAll({ dirname: __dirname + '/src/tasks' });\nObject.values(tasks).forEach((t) => t('x'));\n")).toEqual([[INCR, 'noExpiry', 3, 15]]);
    // a server that loads nothing so leaves the task unreached
    expect(lint("console.log('api');\n")).toEqual([]);
  });
});

describe('a module no entry point reaches: a server framework loads its config and extension folders', () => {
  const STRAPI = '{ "name": "cms", "private": true, "scripts": { "develop": "strapi develop", "start": "strapi start" }, "dependencies": { "@strapi/strapi": "4.25.0", "ioredis": "5.4.1" } }';
  const cron = "import { redis } from '../../src/lib/redis';\nexport default {\n  '*/5 * * * *': async () => {\n    await redis.incr(`cron:runs:${new Date().getHours()}`);\n  },\n};\n";
  const extension = "import { redis } from '../../../lib/redis';\nexport default (plugin: any) => {\n  const login = plugin.controllers.auth.callback;\n  plugin.controllers.auth.callback = async (ctx: any) => {\n    await login(ctx);\n  };\n  plugin.services.count = async (id: string) => redis.incr(`logins:${id}`);\n  return plugin;\n};\n";

  it('reports the INCR of a Strapi cron task and of a plugin extension, which Strapi loads by their place', () => {
    expect(lintApplication(roots, { 'src/lib/redis.ts': REDIS, 'config/functions/cron.ts': cron }, 'config/functions/cron.ts', { [INCR]: undefined }, [], STRAPI)).toEqual([[INCR, 'noExpiry', 4, 17]]);
    const files = { 'src/lib/redis.ts': REDIS, 'src/extensions/users-permissions/strapi-server.ts': extension };
    expect(lintApplication(roots, files, 'src/extensions/users-permissions/strapi-server.ts', { [INCR]: undefined }, [], STRAPI)).toEqual([[INCR, 'noExpiry', 7, 55]]);
  });
});

describe('a module no entry point reaches: the source of the compiled main', () => {
  const index = "import express from 'express';\nimport { redis } from './redis';\nasync function count(ip: string) {\n  await redis.incr(`hits:${ip}`);\n}\nexport const server = express().get('/', async (_q: any, s: any) => { await count(s.ip); s.end(); }).listen(3000);\n";
  const manifest = (main: string) => `{ "name": "api", "private": true, "main": "${main}", "scripts": { "build": "tsc", "start": "node ." }, "dependencies": { "ioredis": "5.4.1", "express": "4.0.0" } }`;
  const files = { 'src/redis.ts': REDIS, 'src/index.ts': index, 'tsconfig.json': '{ "compilerOptions": { "outDir": "dist" } }' };

  it('reports the INCR of src/index.ts, which "main": "dist/index.js" starts compiled', () => {
    expect(lintApplication(roots, files, 'src/index.ts', { [INCR]: undefined }, [], manifest('dist/index.js'))).toEqual([[INCR, 'noExpiry', 4, 15]]);
    // started from another file, the index nothing imports stays unreached
    expect(lintApplication(roots, files, 'src/index.ts', { [INCR]: undefined }, [], manifest('dist/server.js'))).toEqual([]);
  });
});

describe("a code-declared receiver whose method's overloads give it a parameter list of its own", () => {
  const TTL_RULES: Record<string, undefined> = { 'valid-ttl-args': undefined, 'set-requires-ttl-or-keepttl': undefined, 'incr-needs-expire-on-create': undefined, 'ttl-units': undefined };
  const code = (set: string) =>
    `import Redis from 'ioredis';\nexport const client = new Redis();\nexport interface Cache {\n  get(key: string): Promise<string | null>;\n  publish(channel: string, message: string): Promise<number>;\n${set}}\nexport async function remember(redis: Cache, id: string) {\n  await redis.set(\`seen:\${id}\`, '1', 3600);\n}\n`;

  it('is the code\'s wrapper when any overload has the TTL parameter SET rejects', () => {
    // as with one signature set(key, value, ttl?: number)
    expect(lintApplication(roots, { 'src/remember.ts': code('  set(key: string, value: string, ttl?: number): Promise<void>;\n') }, 'src/remember.ts', TTL_RULES, [])).toEqual([]);
    const overloads = '  set(key: string, value: string): Promise<void>;\n  set(key: string, value: string, ttl: number): Promise<void>;\n';
    expect(lintApplication(roots, { 'src/remember.ts': code(overloads) }, 'src/remember.ts', TTL_RULES, [])).toEqual([]);
  });
});
