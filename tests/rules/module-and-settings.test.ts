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
