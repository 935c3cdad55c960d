/**
 * Keys named by the application's configuration object (issue 25, round 30: the twenty-ninth
 * validation set's "declared persistent registry named from config"): a name destructured from a
 * `config` member (`const { ctx: { app: { redis, config: { appsKey } } } } = this`) or read as
 * `this.app.config.logsKey` is spelled by the one string literal the package's configuration
 * modules (`config/*.js`, `src/config/*.ts`: Egg.js' `config.default.js`) give it
 * (`redis-calls/configured-values.ts`), so a declared `persistentKeys` pattern names the key and a
 * prefix built into a key (`${clientsPrefix}${appId}`). Near misses stay reported: a key the
 * declared pattern does not name, a name an environment's file gives another literal, a name no
 * configuration module gives a literal, and a name destructured from something else than `config`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const CONFIG = [
  "'use strict';",
  'module.exports = appInfo => {',
  '  const config = exports = {};',
  "  config.keys = appInfo.name + '_1';",
  "  config.appsKey = 'XTRANSIT_APP';",
  "  config.clientsPrefix = 'XTRANSIT_CLIENT::';",
  "  config.logsKey = 'XTRANSIT_LOG';",
  "  config.queueKey = process.env.QUEUE || 'q';",
  '  return { ...config };',
  '};',
].join('\n');

const SERVICE = [
  "const Service = require('egg').Service;",
  'class RedisService extends Service {',
  '  composeClientsKey(appId) {',
  '    const { ctx: { app: { config: { clientsPrefix } } } } = this;',
  '    const key = `${clientsPrefix}${appId}`;',
  '    return key;',
  '  }',
  '  async updateLivingApp(appId) {',
  '    const { ctx: { app: { redis, config: { appsKey } } } } = this;',
  '    await redis.sadd(appsKey, appId);',
  '  }',
  '  async updateClient(appId, agentId, value) {',
  '    const { ctx: { app: { redis } } } = this;',
  '    const key = this.composeClientsKey(appId);',
  '    await redis.hset(key, agentId, value);',
  '  }',
  '  async updateLogs(key) {',
  '    await this.app.redis.sadd(this.app.config.logsKey, key);',
  '  }',
  '  async enqueue(job) {',
  '    const { app: { redis, config: { queueKey } } } = this;',
  '    await redis.rpush(`${queueKey}:${job.id}`, job.body);',
  '  }',
  '  async other(id, v) {',
  '    const { app: { redis, settings: { clientsPrefix } } } = this;',
  '    await redis.hset(`${clientsPrefix}${id}`, "a", v);',
  '  }',
  // the file gives keys a TTL: its unread keys are no opaque records (`redis-calls/opaque-key.ts`)
  "  async mark(id) { await this.app.redis.set(`mark:${id}`, 1, 'EX', 60); }",
  '}',
  'module.exports = RedisService;',
].join('\n');

const PERSISTENT = ['XTRANSIT_APP', 'XTRANSIT_CLIENT::*', 'XTRANSIT_LOG'];
const lint = (files: Record<string, string>, persistent = PERSISTENT) =>
  lintApplication(roots, { 'app/service/redis.ts': SERVICE, ...files }, 'app/service/redis.ts', { 'incr-needs-expire-on-create': undefined }, persistent);

describe('incr-needs-expire-on-create, keys named by the configuration object', () => {
  it('spells a configured name by its literal: the declared registries are kept', () => {
    // left: the queue (no literal in the configuration) and a name read from `settings`, not `config`
    expect(lint({ 'config/config.default.js': CONFIG })).toEqual([
      ['incr-needs-expire-on-create', 'noExpiry', 22, 17],
      ['incr-needs-expire-on-create', 'noExpiry', 26, 17],
    ]);
  });

  it('a key the declared patterns do not name stays reported', () => {
    expect(lint({ 'config/config.default.js': CONFIG }, ['XTRANSIT_APP', 'XTRANSIT_LOG'])).toEqual([
      ['incr-needs-expire-on-create', 'noExpiry', 15, 17],
      ['incr-needs-expire-on-create', 'noExpiry', 22, 17],
      ['incr-needs-expire-on-create', 'noExpiry', 26, 17],
    ]);
  });

  it('a name an environment file gives another literal has no spelling', () => {
    const prod = "module.exports = () => ({ clientsPrefix: 'PROD_CLIENT::' });\n";
    expect(lint({ 'config/config.default.js': CONFIG, 'config/config.prod.js': prod })).toEqual([
      ['incr-needs-expire-on-create', 'noExpiry', 15, 17],
      ['incr-needs-expire-on-create', 'noExpiry', 22, 17],
      ['incr-needs-expire-on-create', 'noExpiry', 26, 17],
    ]);
  });
});
