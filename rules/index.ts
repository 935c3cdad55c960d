/**
 * The plugin object (package export "."): `meta`, the rules, and flat configs
 * `recommended` and `strict` derived from each rule's `meta.docs`.
 */
import { readFileSync } from 'node:fs';
import type { ESLint, Linter } from 'eslint';
import embeddedLua from './embedded-lua.js';
import expireNeedsPositiveTtl from './expire-needs-positive-ttl.js';
import fixedWindowExpire from './fixed-window-expire.js';
import incrNeedsExpireOnCreate from './incr-needs-expire-on-create.js';
import minRedisVersion from './min-redis-version.js';
import noGetset from './no-getset.js';
import noPersist from './no-persist.js';
import setRequiresTtlOrKeepttl from './set-requires-ttl-or-keepttl.js';
import ttlUnits from './ttl-units.js';
import validTtlArgs from './valid-ttl-args.js';

/** The plugin's namespace in configurations: rules are `redis-ttl/<name>`. */
export const NAMESPACE = 'redis-ttl';

/** package.json sits at the package root: one level up from `rules/`, two from `dist/rules/`. */
function packageJsonUrl(): URL {
  const here = new URL('.', import.meta.url).pathname;
  return here.includes('/dist/rules/') ? new URL('../../package.json', import.meta.url) : new URL('../package.json', import.meta.url);
}

const packageJson = JSON.parse(readFileSync(packageJsonUrl(), 'utf8')) as { name: string; version: string };

/** Every rule of the plugin, by name. */
export const rules = {
  'no-getset': noGetset,
  'set-requires-ttl-or-keepttl': setRequiresTtlOrKeepttl,
  'incr-needs-expire-on-create': incrNeedsExpireOnCreate,
  'embedded-lua': embeddedLua,
  'valid-ttl-args': validTtlArgs,
  'expire-needs-positive-ttl': expireNeedsPositiveTtl,
  'ttl-units': ttlUnits,
  'fixed-window-expire': fixedWindowExpire,
  'no-persist': noPersist,
  'min-redis-version': minRedisVersion,
} as const;

/** Rule options the `strict` config sets where a rule has a stricter mode. */
const STRICT_OPTIONS: Partial<Record<keyof typeof rules, unknown[]>> = {
  'no-getset': [{ allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false, allowOpaqueKeys: false, allowScriptFallbacks: false, allowUncalledCode: false, allowStorageBackends: false, allowScheduledFlush: false, allowSpawnedServer: false }],
  'set-requires-ttl-or-keepttl': [{ allowPipeline: false, allowKeepTtl: false, allowDeletedKeys: false, allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false, allowOpaqueKeys: false, allowScriptFallbacks: false, allowUncalledCode: false, allowStorageBackends: false, allowScheduledFlush: false, allowSpawnedServer: false }],
  'incr-needs-expire-on-create': [{ allowPipeline: false, allowTtlRepair: false, allowRearmedBoundedKeys: false, allowDeletedKeys: false, allowIdSequences: false, allowConsumedQueues: false, allowTtlRecordUpdates: false, allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false, allowOpaqueKeys: false, allowScriptFallbacks: false, allowUncalledCode: false, allowStorageBackends: false, allowScheduledFlush: false, allowSpawnedServer: false }],
  'expire-needs-positive-ttl': [{ checkParameters: true }],
  'no-persist': [{ allowPassThrough: false }],
  'embedded-lua': [{ strict: true, allowOptionalTtl: false, allowOpaqueKeys: false, allowConsumedQueues: false, allowConstantKeys: false }],
};

function configRules(kind: 'recommended' | 'strict'): Linter.RulesRecord {
  const out: Linter.RulesRecord = {};
  for (const [name, rule] of Object.entries(rules) as Array<[keyof typeof rules, (typeof rules)[keyof typeof rules]]>) {
    const docs = rule.meta.docs;
    if (!docs?.[kind]) continue;
    const options = kind === 'strict' ? STRICT_OPTIONS[name] : undefined;
    out[`${NAMESPACE}/${name}`] = options ? ['error', ...options] : 'error';
  }
  return out;
}

/**
 * The plugin object, typed with ESLint's own `Plugin` / `Config` types so that it can be used in
 * `eslint.config.*` as is (the rules are built with typescript-eslint's `RuleCreator`, whose types
 * ESLint's do not name; at runtime they are ordinary ESLint rules).
 */
export interface RedisTtlPlugin extends ESLint.Plugin {
  meta: { name: string; version: string; namespace: string };
  rules: Record<keyof typeof rules, NonNullable<ESLint.Plugin['rules']>[string]>;
  configs: { recommended: Linter.Config; strict: Linter.Config };
}

const plugin: RedisTtlPlugin = {
  meta: { name: packageJson.name, version: packageJson.version, namespace: NAMESPACE },
  rules: rules as unknown as RedisTtlPlugin['rules'],
  configs: {} as RedisTtlPlugin['configs'],
};

plugin.configs.recommended = { name: `${NAMESPACE}/recommended`, plugins: { [NAMESPACE]: plugin }, rules: configRules('recommended') };
plugin.configs.strict = { name: `${NAMESPACE}/strict`, plugins: { [NAMESPACE]: plugin }, rules: configRules('strict') };

export default plugin;

export type {
  EmbeddedLuaOptions,
  ExpireNeedsPositiveTtlOptions,
  FixOption,
  IncrNeedsExpireOnCreateOptions,
  KeyPolicyOptions,
  LuaSeverityOption,
  NoGetsetOptions,
  NoPersistOptions,
  RedisTtlRuleOptions,
  RedisTtlRulesConfig,
  RedisTtlSettings,
  SetRequiresTtlOrKeepttlOptions,
} from './options.js';

/**
 * The plugin's parts as named exports too, so that `require('eslint-plugin-redis-ttl')` in a
 * CommonJS config (Node's require of an ES module returns its namespace) has `.configs`.
 */
export const { meta, configs } = plugin;
