/**
 * The analysis of one script: parse, walk, apply severities, directives and persistent keys.
 * {@link analyzeLua} is the library API (re-exported by `index.ts`).
 */
import { keyPatternMatcher } from '../semantics/key-patterns.js';
import { parseRedisVersion } from '../semantics/versions.js';
import { walkScript, rangeOf } from './analyze.js';
import { readDirectives } from './directives.js';
import { lineIndex } from './lines.js';
import { parseLua } from './parse.js';
import { RULES, isLuaRuleId, parseSeverity } from './rules.js';
import type { AnalyzeOptions, LuaFinding, LuaRuleId, Severity } from './types.js';


/**
 * Analyses one Redis Lua script or function library.
 *
 * @param source the script text (a `#!lua name=...` first line marks a Redis 7 function library).
 * @param options rule severities, persistent keys, whether caller-chosen TTLs are left out; see
 *   {@link AnalyzeOptions}.
 * @returns the findings sorted by position: positions are 1-based lines/columns and 0-based
 *   UTF-16 offsets into `source`. A script that does not parse as Lua 5.1 yields exactly one
 *   finding with `fatal: true` and `ruleId: null` at the error. Findings of rules set to `'off'`,
 *   findings silenced by `-- lua-lint-disable...` comments and, unless `allowOptionalTtl` is
 *   `false`, leaks where the caller chose no TTL are left out.
 * Never throws, whatever the input.
 */
export function analyzeLua(source: string, options?: AnalyzeOptions | null): LuaFinding[] {
  const text = typeof source === 'string' ? source : source == null ? '' : String(source);
  try {
    return analyze(text, options);
  } catch (error) {
    // Never take the caller down, and never pass a script we could not analyse as clean.
    const message = `Analysis error: ${error instanceof Error ? error.message : String(error)}; nothing was proved about this script.`;
    return [fatal(message, 0, lineIndex(text))];
  }
}

function analyze(text: string, options: AnalyzeOptions | null | undefined): LuaFinding[] {
  options = options && typeof options === 'object' ? options : {};
  const persistentKeys = Array.isArray(options.persistentKeys)
    ? options.persistentKeys.filter((k): k is string | number => typeof k === 'string' || (typeof k === 'number' && Number.isFinite(k)))
    : [];
  // Pass 1, without positions: most scripts have nothing to report, and then that is all the work.
  // Disable comments and persistent keys only ever remove findings, so they are not needed here.
  const mayBeSilenced = persistentKeys.length > 0 || text.includes('redis-ttl') || text.includes('lua-lint-');
  const redisVersion = parseRedisVersion(options.redisVersion);
  const modes = { ...(options.strict === true ? { strict: true } : {}), ...(redisVersion ? { redisVersion } : {}) };
  const quick = mayBeSilenced ? undefined : parseLua(text, { positions: false });
  if (quick?.ok && !hasRawFindings(quick.ast, text, modes)) return [];
  const lines = lineIndex(text);
  // A failed quick pass is parsed again with positions, for the error's place.
  const parsed = parseLua(text, { depthChecked: quick?.ok === true });
  if (!parsed.ok) return [fatal(`Parsing error: ${parsed.message}`, parsed.offset, lines)];

  const severities = resolveSeverities(options);
  const firstStatement = parsed.ast.body[0];
  const directives = readDirectives(parsed.comments, lines, firstStatement ? rangeOf(firstStatement)[0] : text.length, text);
  const patterns = [...persistentKeys, ...directives.globalPersistent].map(keyPatternMatcher);
  const byLine = new Map([...directives.persistentByLine].map(([line, keys]) => [line, keys.map(keyPatternMatcher)]));
  const isPersistent = (names: readonly string[], line: number): boolean =>
    [patterns, byLine.get(line) ?? []].some((matchers) => matchers.some((match) => names.some(match)));

  const messageLine = typeof options.messageLine === 'function' ? options.messageLine : undefined;
  const messagePosition = typeof options.messagePosition === 'function' ? options.messagePosition : undefined;
  const walked = walkScript({
    ...modes,
    ast: parsed.ast,
    source: text,
    isPersistent,
    lineOf: lines.lineOf,
    positionOf: messagePosition
      ? (offset: number) => messagePosition(offset)
      : messageLine
        ? (offset: number) => ({ line: messageLine(offset) })
        : (offset: number) => lines.position(offset),
  });
  const raw = walked.findings;
  const findings: LuaFinding[] = [];
  if (walked.incomplete !== undefined) {
    findings.push(
      fatal(
        `Analysis incomplete: ${walked.incomplete}; leaks there may go unreported.`,
        0,
        lines,
      ),
    );
  }
  const allowOptionalTtl = options.allowOptionalTtl ?? options.strict !== true;
  for (const finding of raw) {
    const severity = severities[finding.ruleId];
    if (severity === 0) continue;
    if (finding.optionalTtl && allowOptionalTtl) continue;
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
      ...(finding.optionalTtl ? { optionalTtl: true as const } : {}),
    });
  }
  return findings.sort((a, b) => a.offset - b.offset || (a.ruleId ?? '').localeCompare(b.ruleId ?? ''));
}

function hasRawFindings(ast: Parameters<typeof walkScript>[0]['ast'], source: string, modes: Pick<Parameters<typeof walkScript>[0], 'strict' | 'redisVersion'>): boolean {
  try {
    const walked = walkScript({ ...modes, ast, source, isPersistent: () => false, lineOf: () => 0 });
    return walked.findings.length > 0 || walked.incomplete !== undefined;
  } catch {
    return true; // let the full pass report it
  }
}

function fatal(message: string, offset: number, lines: ReturnType<typeof lineIndex>): LuaFinding {
  const start = lines.position(offset);
  return {
    ruleId: null,
    severity: 2,
    message,
    line: start.line,
    column: start.column,
    endLine: start.line,
    endColumn: start.column,
    offset,
    endOffset: offset,
    fatal: true,
  };
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
