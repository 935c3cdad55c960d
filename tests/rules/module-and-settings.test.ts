import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import * as namespace from '../../rules/index.js';
import plugin from '../../rules/index.js';

describe('the package root as a module namespace', () => {
  it('has meta, configs and rules as named exports, for require() from a CommonJS config', () => {
    expect(namespace.configs).toBe(plugin.configs);
    expect(namespace.meta).toBe(plugin.meta);
    expect(Object.keys(namespace.rules)).toEqual(Object.keys(plugin.rules));
    expect(namespace.configs.recommended.plugins?.['redis-ttl']).toBe(plugin);
  });
});

describe("settings['redis-ttl'].clientNames", () => {
  it('names the setting when an entry is not a valid regular expression', () => {
    const linter = new Linter({ configType: 'flat' });
    expect(() =>
      linter.verify("redis.getset('k', '0')", [
        {
          plugins: { 'redis-ttl': plugin },
          settings: { 'redis-ttl': { clientNames: ['('] } },
          rules: { 'redis-ttl/no-getset': 'error' },
        },
      ]),
    ).toThrow(`settings['redis-ttl'].clientNames: "(" is not a valid regular expression`);
  });
});

describe("settings['redis-ttl'] are validated, never silently ignored", () => {
  function verify(settings: unknown): void {
    new Linter({ configType: 'flat' }).verify("redis.set(`s:${id}`, 'v')", [
      {
        plugins: { 'redis-ttl': plugin },
        settings: { 'redis-ttl': settings },
        rules: { 'redis-ttl/set-requires-ttl-or-keepttl': 'error' },
      },
    ]);
  }
  it.each([
    [{ persistentKey: ['a:*'] }, "settings['redis-ttl'].persistentKey is not a setting of eslint-plugin-redis-ttl; did you mean \"persistentKeys\"?"],
    [{ RedisVersion: '7.2' }, "settings['redis-ttl'].RedisVersion is not a setting of eslint-plugin-redis-ttl; did you mean \"redisVersion\"?"],
    [{ defaultTTL: 60 }, "settings['redis-ttl'].defaultTTL is not a setting of eslint-plugin-redis-ttl (its settings: autofix, clientNames, defaultTtlSeconds, nodeRedisVersion, persistentKeys, redisIsDatabase, redisVersion, runtimeModule)."],
    [{ persistentKeys: 'bull:*' }, "settings['redis-ttl'].persistentKeys must be an array of key patterns such as 'bull:*:wait', got \"bull:*\"."],
    [{ persistentKeys: [2] }, "settings['redis-ttl'].persistentKeys: 2 is not a key pattern"],
    [{ persistentKeys: [''] }, "settings['redis-ttl'].persistentKeys: \"\" is not a key pattern"],
    [{ defaultTtlSeconds: '60' }, "settings['redis-ttl'].defaultTtlSeconds must be an integer >= 1 (seconds), got \"60\"."],
    [{ defaultTtlSeconds: 0.5 }, "settings['redis-ttl'].defaultTtlSeconds must be an integer >= 1 (seconds), got 0.5."],
    [{ autofix: 'yes' }, "settings['redis-ttl'].autofix must be true or false, got \"yes\"."],
    [{ runtimeModule: '' }, "settings['redis-ttl'].runtimeModule must be a non-empty module specifier, got \"\"."],
    [{ clientNames: [1] }, "settings['redis-ttl'].clientNames must be a string or an array of strings (regular expressions), got [1]."],
    [{ redisVersion: 7 }, "settings['redis-ttl'].redisVersion must be a Redis version such as '6.2' or '7.0.15' (a string), got 7."],
    [{ redisVersion: '7.x' }, "settings['redis-ttl'].redisVersion must be a Redis version such as '6.2' or '7.0.15' (a string), got \"7.x\"."],
    [{ nodeRedisVersion: 3 }, "settings['redis-ttl'].nodeRedisVersion must be a node-redis version or range of one major version such as '3', '3.1.2' or '^4.6.0' (a string), got 3."],
    [{ nodeRedisVersion: '>=3' }, "settings['redis-ttl'].nodeRedisVersion must be a node-redis version or range of one major version such as '3', '3.1.2' or '^4.6.0' (a string), got \">=3\"."],
    [['redis'], "settings['redis-ttl'] must be an object of settings, got [\"redis\"]."],
  ])('%j', (settings, message) => {
    expect(() => verify(settings)).toThrow(message);
  });
  it('accepts every valid setting', () => {
    expect(() =>
      verify({ persistentKeys: ['bull:*'], defaultTtlSeconds: 60, autofix: false, runtimeModule: 'x', clientNames: 'redis', redisVersion: 'v7.2.4', nodeRedisVersion: '3.1.2' }),
    ).not.toThrow();
  });
});
