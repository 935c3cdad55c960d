/**
 * The one check of the analysis options, shared by {@link analyzeLua} (the library API, which
 * throws a TypeError) and the CLI's config file (`lua-lint.config.json`, which reports the file).
 */
import { parseRedisVersion } from '../semantics/versions.js';
import { RULE_IDS, isLuaRuleId, nearestRuleId, parseSeverity } from './rules.js';
import type { LuaRuleId, Severity } from './types.js';

/** The analysis options, checked and normalised (severities as numbers). */
export interface CheckedOptions {
  rules: Partial<Record<LuaRuleId, Severity>>;
  persistentKeys: Array<string | number>;
  allowOptionalTtl?: boolean;
  strict?: boolean;
  /** Trimmed, e.g. `'7.0.15'`. */
  redisVersion?: string;
}

/** One wrong value of the options: where it is, and what is wrong. */
export interface OptionProblem {
  /** The property's path from the options object: `['rules', 'no-getst']`, `['persistentKeys', 2]`. */
  path: ReadonlyArray<string | number>;
  /** The problem is the property's name (an unknown rule id), not its value. */
  inName: boolean;
  /** `<property>: <what is wrong>` (`rules.no-getst: unknown rule id; did you mean "no-getset"?`). */
  text: string;
}

/** The option names {@link checkOptions} reads. */
export const CHECKED_OPTION_NAMES = ['rules', 'persistentKeys', 'allowOptionalTtl', 'strict', 'redisVersion'] as const;

/**
 * Checks the analysis options of an object (`undefined` properties are absent): `rules` (known
 * rule ids -> `'off'`/`'warn'`/`'error'`/0/1/2), `persistentKeys` (integers >= 1 or non-empty
 * strings), `allowOptionalTtl` and `strict` (booleans), `redisVersion` (`'6.2'`, `'7.0.15'`).
 * Other properties are left to the caller.
 * @returns the normalised options and one problem per wrong value, in the order of the checks,
 *   each with its text `<property>: <what is wrong>` (`rules.no-getst: unknown rule id; did you
 *   mean "no-getset"?`, `rules.bogus: unknown rule id (known: ...)`); never throws.
 */
export function checkOptions(value: Readonly<Record<string, unknown>>): { options: CheckedOptions; problems: OptionProblem[] } {
  const problems: OptionProblem[] = [];
  const problem = (path: ReadonlyArray<string | number>, text: string, inName = false): void => {
    problems.push({ path, inName, text });
  };
  const options: CheckedOptions = { rules: {}, persistentKeys: [] };
  const { rules, persistentKeys, allowOptionalTtl, strict, redisVersion } = value;
  if (allowOptionalTtl !== undefined) {
    if (typeof allowOptionalTtl !== 'boolean') problem(['allowOptionalTtl'], `allowOptionalTtl: expected true or false, got ${describeValue(allowOptionalTtl)}`);
    else options.allowOptionalTtl = allowOptionalTtl;
  }
  if (strict !== undefined) {
    if (typeof strict !== 'boolean') problem(['strict'], `strict: expected true or false, got ${describeValue(strict)}`);
    else options.strict = strict;
  }
  if (redisVersion !== undefined) {
    if (!parseRedisVersion(redisVersion)) problem(['redisVersion'], `redisVersion: expected a Redis version such as "6.2" or "7.0.15" (a string), got ${describeValue(redisVersion)}`);
    else options.redisVersion = String(redisVersion).trim();
  }
  if (rules !== undefined) {
    if (!isPlainObject(rules)) problem(['rules'], `rules: expected an object of rule id -> severity, got ${describeValue(rules)}`);
    else {
      for (const [id, severity] of Object.entries(rules)) {
        if (!isLuaRuleId(id)) {
          const nearest = nearestRuleId(id);
          problem(['rules', id], `rules.${id}: unknown rule id${nearest ? `; did you mean "${nearest}"?` : ` (known: ${RULE_IDS.join(', ')})`}`, true);
          continue;
        }
        const parsed = parseSeverity(severity);
        if (parsed === undefined) problem(['rules', id], `rules.${id}: expected "off", "warn", "error", 0, 1 or 2, got ${describeValue(severity)}`);
        else options.rules[id] = parsed;
      }
    }
  }
  if (persistentKeys !== undefined) {
    if (!Array.isArray(persistentKeys)) problem(['persistentKeys'], `persistentKeys: expected an array, got ${describeValue(persistentKeys)}`);
    else {
      persistentKeys.forEach((key: unknown, index) => {
        if ((typeof key === 'number' && Number.isInteger(key) && key >= 1) || (typeof key === 'string' && key !== '')) {
          options.persistentKeys.push(key);
        } else {
          problem(['persistentKeys', index], `persistentKeys[${index}]: expected a KEYS index (an integer >= 1) or a non-empty key pattern, got ${describeValue(key)}`);
        }
      });
    }
  }
  return { options, problems };
}

/** Whether `value` is an object that is neither null nor an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as a message quotes it: `"abc"`, `0`, `null`, `an array`, `an object`, `undefined`. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
