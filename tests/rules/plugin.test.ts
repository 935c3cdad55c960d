/**
 * The plugin object, its configs (derived from each rule's meta), the docs page of each rule,
 * schemas, messages of at most 300 characters, and an end-to-end run through ESLint's `ESLint`
 * class with the default parser.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { fitMessageData, interpolate, MAX_MESSAGE_LENGTH } from '../../rules/create-rule.js';
import plugin, { rules } from '../../rules/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
const ruleNames = Object.keys(rules) as Array<keyof typeof rules>;

describe('plugin object', () => {
  it('has meta from package.json and the redis-ttl namespace', () => {
    expect(plugin.meta).toEqual({ name: packageJson.name, version: packageJson.version, namespace: 'redis-ttl' });
  });

  it('exports the ten rules', () => {
    expect(ruleNames.sort()).toEqual([
      'embedded-lua',
      'expire-needs-positive-ttl',
      'fixed-window-expire',
      'incr-needs-expire-on-create',
      'min-redis-version',
      'no-getset',
      'no-persist',
      'set-requires-ttl-or-keepttl',
      'ttl-units',
      'valid-ttl-args',
    ]);
    expect(plugin.rules).toBe(rules);
  });

  it('configs are flat configs that register the plugin under its namespace', () => {
    for (const config of [plugin.configs.recommended, plugin.configs.strict]) {
      expect(config.plugins).toEqual({ 'redis-ttl': plugin });
      expect(Object.keys(config).sort()).toEqual(['name', 'plugins', 'rules']);
    }
    expect(plugin.configs.recommended.name).toBe('redis-ttl/recommended');
    expect(plugin.configs.strict.name).toBe('redis-ttl/strict');
  });

  it('recommended lists exactly the rules whose meta.docs.recommended is set', () => {
    const expected = ruleNames.filter((name) => rules[name].meta.docs?.recommended).map((name) => `redis-ttl/${name}`);
    expect(Object.keys(plugin.configs.recommended.rules ?? {}).sort()).toEqual(expected.sort());
    expect(Object.values(plugin.configs.recommended.rules ?? {}).every((entry) => entry === 'error')).toBe(true);
  });

  it('strict lists exactly the rules whose meta.docs.strict is set, pipelines not allowed', () => {
    const expected = ruleNames.filter((name) => rules[name].meta.docs?.strict).map((name) => `redis-ttl/${name}`);
    expect(Object.keys(plugin.configs.strict.rules ?? {}).sort()).toEqual(expected.sort());
    const strictPolicy = { allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false, allowOpaqueKeys: false, allowScriptFallbacks: false, allowUncalledCode: false, allowStorageBackends: false, allowScheduledFlush: false, allowSpawnedServer: false };
    expect(plugin.configs.strict.rules?.['redis-ttl/incr-needs-expire-on-create']).toEqual(['error', { allowPipeline: false, allowTtlRepair: false, allowRearmedBoundedKeys: false, allowDeletedKeys: false, allowIdSequences: false, allowConsumedQueues: false, allowTtlRecordUpdates: false, ...strictPolicy }]);
    expect(plugin.configs.strict.rules?.['redis-ttl/set-requires-ttl-or-keepttl']).toEqual(['error', { allowPipeline: false, allowKeepTtl: false, allowDeletedKeys: false, ...strictPolicy }]);
    expect(plugin.configs.strict.rules?.['redis-ttl/no-getset']).toEqual(['error', strictPolicy]);
    expect(plugin.configs.strict.rules?.['redis-ttl/embedded-lua']).toEqual(['error', { strict: true, allowOptionalTtl: false, allowOpaqueKeys: false, allowConsumedQueues: false, allowConstantKeys: false }]);
    expect(plugin.configs.strict.rules?.['redis-ttl/expire-needs-positive-ttl']).toEqual(['error', { checkParameters: true }]);
    // min-redis-version needs settings['redis-ttl'].redisVersion: in no shipped config
    expect(plugin.configs.strict.rules?.['redis-ttl/min-redis-version']).toBeUndefined();
    expect(plugin.configs.recommended.rules?.['redis-ttl/min-redis-version']).toBeUndefined();
  });
});

describe.each(ruleNames)('rule %s', (name) => {
  const rule = rules[name];

  it('links its docs page, which exists with every section', () => {
    expect(rule.meta.docs?.url).toBe(`https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl/blob/v${packageJson.version}/docs/rules/${name}.md`);
    const page = join(root, 'docs', 'rules', `${name}.md`);
    expect(existsSync(page)).toBe(true);
    const text = readFileSync(page, 'utf8');
    expect(text.startsWith(`# \`${name}\``)).toBe(true);
    const sections = ['## What it reports', '## Why it leaks', '### Incorrect', '### Correct', '## Options', '## When not to use it', '## Further reading'];
    for (const section of sections) expect(text, `${name}.md: ${section}`).toContain(`\n${section}\n`);
    expect(text).toMatch(/https:\/\/redis\.io\/docs\/latest\//);
  });

  it('describes every option in its schema', () => {
    const schema = rule.meta.schema;
    const items = Array.isArray(schema) ? schema : [schema];
    const visit = (node: unknown, path: string): void => {
      if (!node || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      if (record.properties && typeof record.properties === 'object') {
        for (const [key, child] of Object.entries(record.properties as Record<string, unknown>)) {
          expect((child as { description?: string }).description, `${path}.${key}`).toBeTruthy();
          visit(child, `${path}.${key}`);
        }
      }
    };
    items.forEach((item, index) => visit(item, `${name}[${index}]`));
  });

  it('declares suggestions exactly when it has suggestion messages', () => {
    const messages = Object.keys(rule.meta.messages);
    const reportOnly = name === 'embedded-lua' || name === 'no-persist' || name === 'min-redis-version';
    expect(Boolean(rule.meta.hasSuggestions)).toBe(!reportOnly);
    expect(messages.length).toBeGreaterThan(reportOnly ? 0 : 2);
  });

  it('reports every message in at most 300 characters, whatever its data (a key, an expression, a reason)', () => {
    for (const [messageId, template] of Object.entries(rule.meta.messages as Record<string, string>)) {
      const names = [...template.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)].map((m) => m[1]!);
      if (names.includes('message')) continue; // lua-lint's finding, reported as lua-lint words it
      const long = Object.fromEntries(names.map((n) => [n, `${n}:${'x'.repeat(200)}`]));
      const fitted = interpolate(template, fitMessageData(template, long));
      expect(fitted.length, `${name}/${messageId}: ${fitted}`).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
      // data that fits is left as it is
      const short = Object.fromEntries(names.map((n) => [n, 'k']));
      expect(interpolate(template, fitMessageData(template, short))).toBe(interpolate(template, short));
    }
  });
});

describe('messages that would pass 300 characters', () => {
  const template = '{{command}} of `{{key}}` has no expiry.{{client}}{{hint}}';
  it('drop the persistent-key hint first, then the receiver reason, then shorten the longest value', () => {
    const key = 'k'.repeat(150);
    const hint = ` Kept forever on purpose? Add '${'h'.repeat(60)}' to settings['redis-ttl'].persistentKeys.`;
    const client = ` (\`redisCache\` is taken for a Redis client because its name matches clientNames 'redis'.)`;
    expect(fitMessageData(template, { command: 'SET', key, client, hint })).toEqual({ command: 'SET', key, client, hint: '' });
    const longKey = 'k'.repeat(320);
    const fitted = fitMessageData(template, { command: 'SET', key: longKey, client, hint });
    expect(fitted.hint).toBe('');
    expect(fitted.client).toBe('');
    expect(fitted.key).toMatch(/^k+\.\.\.$/);
    expect(interpolate(template, fitted).length).toBe(MAX_MESSAGE_LENGTH);
  });
  it('leave another tool\'s message (lua-lint\'s, in embedded-lua) as it is', () => {
    const data = { ruleId: 'write-path-needs-ttl', message: 'm'.repeat(400) };
    expect(fitMessageData('[{{ruleId}}] {{message}}', data)).toEqual(data);
  });
});

describe('no-getset docs page covers both the ESLint and the Lua rule', () => {
  it('has the two sections', () => {
    const text = readFileSync(join(root, 'docs', 'rules', 'no-getset.md'), 'utf8');
    expect(text).toContain('\n## In application code\n');
    expect(text).toContain('\n## In Lua scripts\n');
  });
});

describe('ESLint class, default parser, plain JavaScript', () => {
  it('reports with the strict config', async () => {
    const eslint = new ESLint({ overrideConfigFile: true, overrideConfig: [plugin.configs.strict] });
    const code = [
      "const Redis = require('ioredis');",
      'const redis = new Redis();',
      "redis.getset('k', '0');",
      "redis.set('k', 'v');",
      "redis.pipeline().incr('n').expire('n', 60).exec();",
      "redis.eval(\"return redis.call('PERSIST', KEYS[1])\", 1, 'k');",
      "new Map().set('a', 1);",
    ].join('\n');
    const [result] = await eslint.lintText(code, { filePath: join(root, 'example.js') });
    expect(result?.messages.map((m) => [m.ruleId, m.line, m.column])).toEqual([
      ['redis-ttl/no-getset', 3, 7],
      ['redis-ttl/set-requires-ttl-or-keepttl', 4, 7],
      ['redis-ttl/incr-needs-expire-on-create', 5, 18],
      ['redis-ttl/embedded-lua', 6, 20],
    ]);
  });
});
