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
import { walkScript, rangeOf } from './analyze.js';
import { readDirectives } from './directives.js';
import { lineIndex } from './lines.js';
import { parseLua } from './parse.js';
import { RULES, isLuaRuleId, parseSeverity } from './rules.js';
import type { AnalyzeOptions, LuaFinding, LuaRuleId, Severity } from './types.js';

export type { AnalyzeOptions, LuaFinding, LuaRuleId, Severity, SeverityName } from './types.js';
export { RULES, RULE_IDS, DOCS_BASE_URL, isLuaRuleId, parseSeverity, severityName, type LuaRuleMeta } from './rules.js';
export { describeCommand, isKnownCommand, type CommandDescription, type CommandArg, type KeyAction, type KeyEffect } from './commands.js';

/**
 * Analyses one Redis Lua script or function library.
 *
 * @param source the script text (a `#!lua name=...` first line marks a Redis 7 function library).
 * @param options rule severities and persistent keys; see {@link AnalyzeOptions}.
 * @returns the findings sorted by position: positions are 1-based lines/columns and 0-based
 *   UTF-16 offsets into `source`. A script that does not parse as Lua 5.1 yields exactly one
 *   finding with `fatal: true` and `ruleId: null` at the error. Findings of rules set to `'off'`
 *   and findings silenced by `-- lua-lint-disable...` comments are left out.
 * Never throws, whatever the input.
 */
export function analyzeLua(source: string, options: AnalyzeOptions = {}): LuaFinding[] {
  const text = typeof source === 'string' ? source : source == null ? '' : String(source);
  // Pass 1, without positions: most scripts have nothing to report, and then that is all the work.
  // Disable comments and persistent keys only ever remove findings, so they are not needed here.
  const mayBeSilenced = (options.persistentKeys?.length ?? 0) > 0 || text.includes('redis-ttl') || text.includes('lua-lint-');
  const quick = mayBeSilenced ? undefined : parseLua(text, { positions: false });
  if (quick?.ok && !hasRawFindings(quick.ast, text)) return [];
  const lines = lineIndex(text);
  const parsed = !quick || quick.ok ? parseLua(text) : quick;
  if (!parsed.ok) {
    const start = lines.position(parsed.offset);
    return [
      {
        ruleId: null,
        severity: 2,
        message: `Parsing error: ${parsed.message}`,
        line: start.line,
        column: start.column,
        endLine: start.line,
        endColumn: start.column,
        offset: parsed.offset,
        endOffset: parsed.offset,
        fatal: true,
      },
    ];
  }

  const severities = resolveSeverities(options);
  const firstStatement = parsed.ast.body[0];
  const directives = readDirectives(parsed.comments, lines, firstStatement ? rangeOf(firstStatement)[0] : text.length);
  const patterns = [...(options.persistentKeys ?? []), ...directives.globalPersistent].map(toMatcher);
  const byLine = new Map([...directives.persistentByLine].map(([line, keys]) => [line, keys.map(toMatcher)]));
  const isPersistent = (names: readonly string[], line: number): boolean =>
    [patterns, byLine.get(line) ?? []].some((matchers) => matchers.some((match) => names.some(match)));

  let raw;
  try {
    raw = walkScript({ ast: parsed.ast, source: text, isPersistent, lineOf: lines.lineOf }).findings;
  } catch {
    // The analysis must never take the caller down; an internal error yields no findings.
    return [];
  }
  const findings: LuaFinding[] = [];
  for (const finding of raw) {
    const severity = severities[finding.ruleId];
    if (severity === 0) continue;
    const [offset, endOffset] = rangeOf(finding.node);
    const start = lines.position(offset);
    if (directives.isDisabled(finding.ruleId, start.line)) continue;
    const end = lines.position(endOffset);
    findings.push({
      ruleId: finding.ruleId,
      severity,
      message: finding.message,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
      offset,
      endOffset,
    });
  }
  return findings.sort((a, b) => a.offset - b.offset || (a.ruleId ?? '').localeCompare(b.ruleId ?? ''));
}

function hasRawFindings(ast: Parameters<typeof walkScript>[0]['ast'], source: string): boolean {
  try {
    return walkScript({ ast, source, isPersistent: () => false, lineOf: () => 0 }).findings.length > 0;
  } catch {
    return false;
  }
}

function resolveSeverities(options: AnalyzeOptions): Record<LuaRuleId, Severity> {
  const out = {} as Record<LuaRuleId, Severity>;
  for (const meta of Object.values(RULES)) out[meta.id] = meta.defaultSeverity;
  for (const [id, value] of Object.entries(options.rules ?? {})) {
    const severity = parseSeverity(value);
    if (isLuaRuleId(id) && severity !== undefined) out[id] = severity;
  }
  return out;
}

/** A persistent-key pattern: a KEYS index, an exact spelling, or a spelling with `*` wildcards. */
function toMatcher(pattern: string | number): (name: string) => boolean {
  if (typeof pattern === 'number') return (name) => name === `KEYS[${pattern}]`;
  if (/^\d+$/.test(pattern)) return (name) => name === `KEYS[${pattern}]`;
  if (!pattern.includes('*')) return (name) => name === pattern;
  const regex = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
  return (name) => regex.test(name);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
