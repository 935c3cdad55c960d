/**
 * lua-lint: proves that every write path of a Redis Lua script (or Redis 7 function library)
 * leaves a TTL on the keys it creates. This module is the library API; the CLI (`lua-lint`) and the
 * ESLint rule `redis-ttl/embedded-lua` are thin layers over {@link analyzeLua}.
 *
 * @example
 * ```ts
 * import { analyzeLua } from 'eslint-plugin-redis-ttl/lua-lint';
 * const findings = analyzeLua("redis.call('INCR', KEYS[1])\nreturn 1\n");
 * // [{ ruleId: 'write-path-needs-ttl', severity: 2, line: 1, column: 1, ... }]
 * ```
 */
export { analyzeLua } from './lint.js';
export { analyzeLuaWithIncludes, hasIncludes, type FileFindings, type IncludeResolver } from './includes.js';
export {
  extractHostScripts,
  hostLanguageOf,
  lintHostSource,
  HOST_EXTENSIONS,
  type HostDynamicScript,
  type HostExtraction,
  type HostLanguageId,
  type HostScript,
  type NamedParameter,
} from './hosts/index.js';
export type { AnalyzeOptions, LuaFinding, LuaRuleId, Severity, SeverityName, SourceRange } from './types.js';
export type { LuaLintConfigFile } from './cli/config.js';
export { RULES, RULE_IDS, DOCS_BASE_URL, isLuaRuleId, parseSeverity, severityName, type LuaRuleMeta } from './rules.js';
export { describeCommand, isKnownCommand, type CommandDescription, type CommandArg, type KeyAction, type KeyEffect } from '../semantics/commands.js';
