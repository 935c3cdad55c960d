/**
 * The exported TypeScript types of the configuration match what the plugin validates: for each
 * rule, an options object with every property of its exported type set (`Required<...>`, so the
 * compiler refuses a property the type lacks) has exactly the properties of the rule's JSON schema,
 * and ESLint accepts it; an extra property is refused. The settings type has exactly the names
 * `settings['redis-ttl']` accepts, and a full settings object passes the validation. The same for
 * lua-lint's config file. `expectTypeOf` ties each exported type to the rule's own `Options`
 * (checked by `npm run typecheck`).
 */
import type { JSONSchema4, JSONSchema4ObjectSchema } from '@typescript-eslint/utils/json-schema';
import type { RuleModule } from '@typescript-eslint/utils/ts-eslint';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Linter } from 'eslint';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CONFIG_PROPERTIES, validateConfig } from '../../lua-lint/cli/config.js';
import type { LuaLintConfigFile as ExportedLuaLintConfigFile } from '../../lua-lint/index.js';
import type { LuaLintConfigFile } from '../../lua-lint/cli/config.js';
import { SETTING_NAMES } from '../../redis-calls/settings.js';
import { ROOT } from '../helpers/build.js';
import plugin, {
  configs,
  rules,
  type EmbeddedLuaOptions,
  type ExpireNeedsPositiveTtlOptions,
  type IncrNeedsExpireOnCreateOptions,
  type NoGetsetOptions,
  type NoPersistOptions,
  type RedisTtlRuleOptions,
  type RedisTtlRulesConfig,
  type RedisTtlSettings,
  type SetRequiresTtlOrKeepttlOptions,
} from '../../rules/index.js';

/** The options tuple a rule module was built with. */
type OptionsOf<R> = R extends RuleModule<string, infer Options> ? Options : never;

/** Every property of each rule's options type set, to a value the rule's schema accepts. */
const FULL: { [Name in keyof RedisTtlRuleOptions]: RedisTtlRuleOptions[Name] extends undefined ? undefined : Required<NonNullable<RedisTtlRuleOptions[Name]>> } = {
  'no-getset': { fix: true, allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false, allowOpaqueKeys: false, allowScriptFallbacks: false, allowUncalledCode: false, allowStorageBackends: false, allowScheduledFlush: false, allowSpawnedServer: false },
  'set-requires-ttl-or-keepttl': { fix: true, allowPipeline: false, allowKeepTtl: false, allowDeletedKeys: false, allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false, allowOpaqueKeys: false, allowScriptFallbacks: false, allowUncalledCode: false, allowStorageBackends: false, allowScheduledFlush: false, allowSpawnedServer: false },
  'incr-needs-expire-on-create': { allowPipeline: false, allowTtlRepair: false, allowRearmedBoundedKeys: false, allowDeletedKeys: false, allowIdSequences: false, allowConsumedQueues: false, allowTtlRecordUpdates: false, fix: true, allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false, allowOpaqueKeys: false, allowScriptFallbacks: false, allowUncalledCode: false, allowStorageBackends: false, allowScheduledFlush: false, allowSpawnedServer: false },
  'embedded-lua': { rules: { 'key-must-come-from-keys': 'off', 'write-path-needs-ttl': 2, 'ttl-units': 'warn' }, persistentKeys: [2, 'audit:*'], allowOptionalTtl: false, allowOpaqueKeys: false, allowConsumedQueues: false, allowConstantKeys: false, strict: true },
  'valid-ttl-args': undefined,
  'expire-needs-positive-ttl': { checkParameters: true },
  'ttl-units': undefined,
  'fixed-window-expire': undefined,
  'no-persist': { allowPassThrough: false },
  'min-redis-version': undefined,
};

/** ESLint's error for rule options its schema refuses. */
const INVALID = /Key "rules": Key "redis-ttl\/[\w-]+":/;

/** Lints a line with the plugin, `settings` and one rule configured as `entry`; throws on an invalid configuration. */
function verify(entry: Linter.RuleEntry, name: string, settings: RedisTtlSettings = { redisVersion: '7.0' }): void {
  new Linter({ configType: 'flat' }).verify("redis.set('k', 'v');\n", [
    { plugins: { 'redis-ttl': plugin }, settings: { 'redis-ttl': settings }, rules: { [`redis-ttl/${name}`]: entry } },
  ]);
}

describe('the exported options types', () => {
  it('name every rule, and each is the options object of the rule itself', () => {
    expectTypeOf<keyof RedisTtlRuleOptions>().toEqualTypeOf<keyof typeof rules>();
    expectTypeOf<OptionsOf<(typeof rules)['no-getset']>>().toEqualTypeOf<[NoGetsetOptions]>();
    expectTypeOf<OptionsOf<(typeof rules)['set-requires-ttl-or-keepttl']>>().toEqualTypeOf<[SetRequiresTtlOrKeepttlOptions]>();
    expectTypeOf<OptionsOf<(typeof rules)['incr-needs-expire-on-create']>>().toEqualTypeOf<[IncrNeedsExpireOnCreateOptions]>();
    expectTypeOf<OptionsOf<(typeof rules)['embedded-lua']>>().toEqualTypeOf<[EmbeddedLuaOptions]>();
    expectTypeOf<OptionsOf<(typeof rules)['expire-needs-positive-ttl']>>().toEqualTypeOf<[ExpireNeedsPositiveTtlOptions]>();
    expectTypeOf<OptionsOf<(typeof rules)['no-persist']>>().toEqualTypeOf<[NoPersistOptions]>();
    expectTypeOf<OptionsOf<(typeof rules)['valid-ttl-args' | 'ttl-units' | 'fixed-window-expire' | 'min-redis-version']>>().toEqualTypeOf<[]>();
    expect(Object.keys(FULL)).toEqual(Object.keys(rules));
  });

  it.each(Object.keys(rules) as Array<keyof typeof rules>)('%s: the type has exactly the schema properties, and ESLint accepts a full object and refuses an extra one', (name) => {
    const schema = rules[name].meta.schema as JSONSchema4[];
    const full = FULL[name];
    if (full === undefined) {
      expect(schema).toEqual([]);
      expect(() => verify('error', name)).not.toThrow();
      expect(() => verify(['error', {}], name)).toThrow(INVALID);
      return;
    }
    expect(schema).toHaveLength(1);
    const object = schema[0] as JSONSchema4ObjectSchema;
    expect(object.type).toBe('object');
    expect(Object.keys(full).sort()).toEqual(Object.keys(object.properties ?? {}).sort());
    expect(object.additionalProperties).toBe(false);
    expect(() => verify(['error', full], name)).not.toThrow();
    expect(() => verify(['error', { ...full, bogus: true }], name)).toThrow(INVALID);
  });

  it("type the strict config's options, which ESLint accepts", () => {
    const strict = configs.strict.rules as RedisTtlRulesConfig;
    const withOptions = Object.entries(strict).filter(([, entry]) => Array.isArray(entry) && entry.length === 2);
    expect(withOptions.map(([name]) => name).sort()).toEqual([
      'redis-ttl/embedded-lua',
      'redis-ttl/expire-needs-positive-ttl',
      'redis-ttl/incr-needs-expire-on-create',
      'redis-ttl/no-getset',
      'redis-ttl/no-persist',
      'redis-ttl/set-requires-ttl-or-keepttl',
    ]);
    for (const [name, entry] of withOptions) expect(() => verify(entry as Linter.RuleEntry, name.slice('redis-ttl/'.length))).not.toThrow();
  });

  it('RedisTtlRulesConfig takes a severity, or a severity and the options of a rule that has them', () => {
    const config: RedisTtlRulesConfig = {
      'redis-ttl/no-getset': ['error', { fix: true }],
      'redis-ttl/embedded-lua': ['warn', { rules: { 'key-must-come-from-keys': 'off' } }],
      'redis-ttl/no-persist': 'error',
      'redis-ttl/ttl-units': ['warn'],
    };
    // @ts-expect-error -- ttl-units takes no options
    const noOptions: RedisTtlRulesConfig = { 'redis-ttl/ttl-units': ['error', {}] };
    // @ts-expect-error -- a misspelt option
    const typo: RedisTtlRulesConfig = { 'redis-ttl/no-getset': ['error', { fixes: true }] };
    expect([config, noOptions, typo]).toHaveLength(3);
  });
});

describe('RedisTtlSettings', () => {
  it("has exactly the names settings['redis-ttl'] accepts, and a full object passes the validation", () => {
    expectTypeOf<(typeof SETTING_NAMES)[number]>().toEqualTypeOf<keyof RedisTtlSettings>();
    const full: Required<RedisTtlSettings> = {
      persistentKeys: ['bull:*', 'stats:*'],
      clientNames: ['redis', '^cache$'],
      redisVersion: '7.0.15',
      nodeRedisVersion: '^4.6.0',
      autofix: true,
      defaultTtlSeconds: 86_400,
      runtimeModule: '#redis-helpers',
      redisIsDatabase: true,
    };
    expect(Object.keys(full).sort()).toEqual([...SETTING_NAMES].sort());
    expect(() => verify('error', 'set-requires-ttl-or-keepttl', full)).not.toThrow();
    expect(() => verify('error', 'set-requires-ttl-or-keepttl', { ...full, clientNames: 'redis' })).not.toThrow();
    // @ts-expect-error -- a misspelt setting, which the validation refuses too
    const typo: RedisTtlSettings = { persistentKey: ['bull:*'] };
    expect(() => verify('error', 'set-requires-ttl-or-keepttl', typo)).toThrow("settings['redis-ttl'].persistentKey is not a setting");
  });

  it("are each a row of docs/configuration.md's settings table", () => {
    const page = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    const table = page.slice(page.indexOf('## Settings'), page.indexOf('## Options'));
    expect([...table.matchAll(/^\| `settings\['redis-ttl'\]\.(\w+)` \|/gm)].map((m) => m[1]).sort()).toEqual([...SETTING_NAMES].sort());
  });
});

describe("lua-lint's LuaLintConfigFile", () => {
  it('has exactly the properties lua-lint.config.json accepts, and a full object is a valid config', () => {
    expectTypeOf<ExportedLuaLintConfigFile>().toEqualTypeOf<LuaLintConfigFile>();
    expectTypeOf<(typeof CONFIG_PROPERTIES)[number] | '$schema'>().toEqualTypeOf<keyof LuaLintConfigFile>();
    const full: Required<LuaLintConfigFile> = {
      $schema: './lua-lint.schema.json',
      rules: { 'key-must-come-from-keys': 'off', 'no-persist': 1 },
      persistentKeys: [2, 'job_key'],
      ignores: ['vendor/**'],
      includeRoot: 'src/commands',
      allowOptionalTtl: false,
      strict: true,
      redisVersion: '6.2',
    };
    expect(Object.keys(full).filter((key) => key !== '$schema').sort()).toEqual([...CONFIG_PROPERTIES].sort());
    expect(validateConfig(full, '/repo/lua-lint.config.json')).toEqual({
      filePath: '/repo/lua-lint.config.json',
      baseDir: '/repo',
      rules: { 'key-must-come-from-keys': 0, 'no-persist': 1 },
      persistentKeys: [2, 'job_key'],
      ignores: ['vendor/**'],
      includeRoot: '/repo/src/commands',
      allowOptionalTtl: false,
      strict: true,
      redisVersion: '6.2',
    });
  });
});
