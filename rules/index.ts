/**
 * The plugin object (package export "."): `meta`, the four rules, and flat configs
 * `recommended` and `strict` derived from each rule's `meta.docs`.
 */
import { readFileSync } from 'node:fs';
import type { TSESLint } from '@typescript-eslint/utils';
import embeddedLua from './embedded-lua.js';
import incrNeedsExpireOnCreate from './incr-needs-expire-on-create.js';
import noGetset from './no-getset.js';
import setRequiresTtlOrKeepttl from './set-requires-ttl-or-keepttl.js';

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
} as const;

/** Rule options the `strict` config sets where a rule has a stricter mode. */
const STRICT_OPTIONS: Partial<Record<keyof typeof rules, unknown[]>> = {
  'incr-needs-expire-on-create': [{ allowPipeline: false }],
};

type RuleEntry = TSESLint.SharedConfig.RuleEntry;

function configRules(kind: 'recommended' | 'strict'): Record<string, RuleEntry> {
  const out: Record<string, RuleEntry> = {};
  for (const [name, rule] of Object.entries(rules) as Array<[keyof typeof rules, (typeof rules)[keyof typeof rules]]>) {
    const docs = rule.meta.docs;
    if (!docs?.[kind]) continue;
    const options = kind === 'strict' ? STRICT_OPTIONS[name] : undefined;
    out[`${NAMESPACE}/${name}`] = options ? (['error', ...options] as RuleEntry) : 'error';
  }
  return out;
}

/** A flat config object of this plugin. */
export interface RedisTtlFlatConfig {
  name: string;
  plugins: Record<string, RedisTtlPlugin>;
  rules: Record<string, RuleEntry>;
}

/** The shape of the plugin object. */
export interface RedisTtlPlugin {
  meta: { name: string; version: string; namespace: string };
  rules: typeof rules;
  configs: { recommended: RedisTtlFlatConfig; strict: RedisTtlFlatConfig };
}

const plugin: RedisTtlPlugin = {
  meta: { name: packageJson.name, version: packageJson.version, namespace: NAMESPACE },
  rules,
  configs: {} as RedisTtlPlugin['configs'],
};

plugin.configs.recommended = { name: `${NAMESPACE}/recommended`, plugins: { [NAMESPACE]: plugin }, rules: configRules('recommended') };
plugin.configs.strict = { name: `${NAMESPACE}/strict`, plugins: { [NAMESPACE]: plugin }, rules: configRules('strict') };

export default plugin;
