/**
 * egg-redis' registry of named clients (`redis-calls/client-registries.ts`, `EGG_REDIS`): an
 * application configured with `redis: { clients: { cache: {...}, log: {...} } }` has on
 * `app.redis` a registry whose `get(id)` returns the ioredis client `id`, so
 * `this.app.redis.get('log').set(k, v)` is a SET on a client. Configured with one `client` (or
 * with no configuration read), `app.redis.get(key)` is a GET and its result no client: nothing is
 * read through it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { lintApplication } from '../../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const MULTI = [
  "'use strict';",
  'module.exports = appInfo => {',
  '  const config = exports = {};',
  '  config.redis = {',
  '    clients: {',
  "      cache: { host: '127.0.0.1', port: 6379, password: '', db: 0 },",
  "      log: { host: '127.0.0.1', port: 6379, password: '', db: 1 },",
  '    },',
  '  };',
  '  return config;',
  '};',
].join('\n');

const SINGLE = "module.exports = () => ({ redis: { client: { host: '127.0.0.1', port: 6379, password: '', db: 0 } } });\n";

const SERVICE = [
  "const Service = require('egg').Service;",
  'class LogService extends Service {',
  '  async timeOut(id: string) {',
  "    await this.app.redis.get('log').set(`job:${id}`, 'time out');",
  '  }',
  '  async cache(id: string, v: string) {',
  "    const redis = this.app.redis.get('cache');",
  "    await redis.set(`page:${id}`, v, 'EX', 600);",
  '  }',
  '  async read(id: string) {',
  '    return this.app.redis.get(`page:${id}`);',
  '  }',
  '}',
  'module.exports = LogService;',
].join('\n');

const lint = (config: Record<string, string>) =>
  lintApplication(roots, { 'app/service/log.ts': SERVICE, ...config }, 'app/service/log.ts', { 'set-requires-ttl-or-keepttl': undefined }, []);

describe('set-requires-ttl-or-keepttl, egg-redis clients by name', () => {
  it('reads app.redis.get(id) as the client id when several clients are configured', () => {
    // the SET without TTL on the log client; the cache client's SET has one
    expect(lint({ 'config/config.default.js': MULTI })).toEqual([['set-requires-ttl-or-keepttl', 'setWithoutTtl', 4, 37]]);
  });

  it('a single configured client: app.redis.get(key) is a GET, nothing is read through it', () => {
    expect(lint({ 'config/config.default.js': SINGLE })).toEqual([]);
  });

  it('no configuration read: app.redis.get(key) stays a GET', () => {
    expect(lint({})).toEqual([]);
  });
});
