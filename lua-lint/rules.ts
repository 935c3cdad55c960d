/**
 * The Lua rule ids, their default severities, one-line descriptions and docs pages. Shared by the
 * analyzer, the CLI (SARIF rule metadata, `--rule` validation) and the embedded-Lua ESLint rule.
 */
import { docsUrl } from '../cli/package-info.js';
import { nearestName } from '../text/did-you-mean.js';
import type { LuaRuleId, Severity, SeverityName } from './types.js';

/**
 * Where the rule pages live, at the git tag of the installed version
 * (`https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl/blob/v0.1.0/docs/rules/`);
 * a rule's `docsUrl` appends `<id>.md`. The ESLint rules' `meta.docs.url` use it too.
 */
export const DOCS_BASE_URL = docsUrl('docs/rules/');

/** Metadata of one Lua rule. */
export interface LuaRuleMeta {
  id: LuaRuleId;
  /** 1 = warning, 2 = error. */
  defaultSeverity: 1 | 2;
  /** One sentence: what the rule reports. */
  description: string;
  /** The rule's docs page. */
  docsUrl: string;
}

function rule(id: LuaRuleId, defaultSeverity: 1 | 2, description: string): LuaRuleMeta {
  return { id, defaultSeverity, description, docsUrl: `${DOCS_BASE_URL}${id}.md` };
}

/** Every Lua rule, by id. */
export const RULES: Readonly<Record<LuaRuleId, LuaRuleMeta>> = {
  'write-path-needs-ttl': rule(
    'write-path-needs-ttl',
    2,
    'A write that can create a key or clear its TTL reaches an exit of the script with the key still without TTL.',
  ),
  'no-getset': rule('no-getset', 2, 'GETSET, or SET ... GET without KEEPTTL or a new expiry, drops the key\'s TTL.'),
  'keepttl-needs-existing-key': rule(
    'keepttl-needs-existing-key',
    2,
    'SET ... KEEPTTL on a path where the key may be missing creates it without TTL.',
  ),
  'no-persist': rule('no-persist', 2, 'PERSIST and GETEX ... PERSIST remove a key\'s TTL.'),
  'expire-needs-positive-ttl': rule(
    'expire-needs-positive-ttl',
    1,
    'An expiry that is, or can be, <= 0 or fractional (a literal, a remaining time computed from TIME, `- 1`, math.floor, a division; in strict mode an ARGV TTL never checked) deletes the key or aborts the script.',
  ),
  'ttl-units': rule(
    'ttl-units',
    2,
    'A TTL in the wrong unit: a server time (TIME) or a Unix time as a duration, a duration as a Unix time, milliseconds as seconds and the reverse (by name).',
  ),
  'fixed-window-expire': rule(
    'fixed-window-expire',
    2,
    "An expiry that re-arms a counter's window on every call: EXPIRE without NX after every INCR whose count is compared with a limit, or after a TTL check a plain SET makes true.",
  ),
  'min-redis-version': rule(
    'min-redis-version',
    2,
    'A command or option newer than the configured redisVersion (Redis command docs, "Available since").',
  ),
  'key-must-come-from-keys': rule(
    'key-must-come-from-keys',
    1,
    'A key that does not come from KEYS (or a function\'s keys parameter) breaks on Redis Cluster.',
  ),
  'unanalyzable-command': rule(
    'unanalyzable-command',
    1,
    'A redis.call whose command name is not a literal or known constant: nothing can be proved about it.',
  ),
  'unknown-rule-in-directive': rule(
    'unknown-rule-in-directive',
    2,
    'A lua-lint-disable / -enable comment names a rule lua-lint does not have (a typo): it silences nothing (ESLint: "Definition for rule ... was not found").',
  ),
};

/** All rule ids, in documentation order. */
export const RULE_IDS = Object.keys(RULES) as LuaRuleId[];

/** Whether a string is a Lua rule id. */
export function isLuaRuleId(id: string): id is LuaRuleId {
  return Object.prototype.hasOwnProperty.call(RULES, id);
}

/**
 * The rule id a misspelt `id` most likely means (`no-getst` -> `no-getset`; see `nearestName`),
 * or `undefined` when no rule id is close.
 */
export function nearestRuleId(id: string): LuaRuleId | undefined {
  return nearestName(id, RULE_IDS) as LuaRuleId | undefined;
}

/**
 * Normalises a user-written severity (`'off'`, `'warn'`, `'error'`, 0, 1, 2).
 * @returns the numeric severity, or `undefined` when the value is not a severity.
 */
export function parseSeverity(value: unknown): Severity | undefined {
  switch (value) {
    case 0:
    case 'off':
      return 0;
    case 1:
    case 'warn':
    case 'warning':
      return 1;
    case 2:
    case 'error':
      return 2;
    default:
      return undefined;
  }
}

/** The severity name for a numeric severity. */
export function severityName(severity: Severity): SeverityName {
  return severity === 0 ? 'off' : severity === 1 ? 'warn' : 'error';
}
