/**
 * The analysis of one script: parse, walk, apply severities, directives and persistent keys.
 * {@link analyzeLua} is the library API (re-exported by `index.ts`).
 */
import { keyPatternMatcher, type KeyPatternMatcher } from '../semantics/key-patterns.js';
import { parseRedisVersion } from '../semantics/versions.js';
import { rangeOf } from './walk/ast.js';
import { walkScript } from './walk/walker.js';
import { nearestName, sentence } from '../text/did-you-mean.js';
import { mayHoldDirectives, readDirectives } from './directives.js';
import { libraryLoadErrors } from './library.js';
import { lineIndex } from '../text/lines.js';
import { parseLua } from './parse.js';
import { CHECKED_OPTION_NAMES, checkOptions, describeValue, isPlainObject, type CheckedOptions } from './options.js';
import { RULES } from './rules.js';
import type { AnalyzeOptions, LuaFinding, LuaRuleId, Severity } from './types.js';


const NO_MATCHERS: readonly KeyPatternMatcher[] = [];

/** Every property of {@link AnalyzeOptions}. */
const OPTION_NAMES = [...CHECKED_OPTION_NAMES, 'messageLine', 'messagePosition'] as const;

/**
 * Analyses one Redis Lua script or function library.
 *
 * @param source the script text (a `#!lua name=...` first line marks a Redis 7 function library).
 * @param options rule severities, persistent keys, whether caller-chosen TTLs are left out; see
 *   {@link AnalyzeOptions}. `undefined` and `null` mean the defaults.
 * @returns the findings sorted by position: positions are 1-based lines/columns and 0-based
 *   UTF-16 offsets into `source`. A script that does not parse as Lua 5.1 yields exactly one
 *   finding with `fatal: true` and `ruleId: null` at the error. A function library that FUNCTION
 *   LOAD would refuse (no name, no registered function, `redis.call` outside a function body)
 *   yields one such finding per refusal, besides the rules' findings. Findings of rules set to
 *   `'off'`, findings silenced by `-- lua-lint-disable...` comments and, unless
 *   `allowOptionalTtl` is `false`, leaks where the caller chose no TTL are left out.
 * @throws TypeError when `source` is not a string, or `options` is not an object or has a wrong
 *   value: an unknown property or rule id, a severity other than `'off'`/`'warn'`/`'error'`/0/1/2,
 *   a persistent key other than an integer >= 1 or a non-empty string, a `redisVersion` that is not
 *   a version (`'7.0'`), a non-boolean `strict`/`allowOptionalTtl`, a non-function `messageLine`/
 *   `messagePosition` (the checks of `lua-lint.config.json`; every problem is listed, one per
 *   line). Once the input is valid it never throws: an internal failure becomes a fatal finding.
 */
export function analyzeLua(source: string, options?: AnalyzeOptions | null): LuaFinding[] {
  const checked = checkInput(source, options);
  const text = source;
  try {
    return analyze(text, options ?? {}, checked);
  } catch (error) {
    // Never take the caller down, and never pass a script we could not analyse as clean.
    const message = `Analysis error: ${error instanceof Error ? error.message : String(error)}; nothing was proved about this script.`;
    return [fatal(message, 0, lineIndex(text))];
  }
}

/** The checked options; throws the TypeError {@link analyzeLua} documents. */
function checkInput(source: unknown, options: unknown): CheckedOptions {
  if (typeof source !== 'string') throw new TypeError(`analyzeLua: source must be a string (the script text), got ${describeValue(source)}.`);
  if (options === undefined || options === null) return checkOptions({}).options;
  if (!isPlainObject(options)) throw new TypeError(`analyzeLua: options must be an object, got ${describeValue(options)}.`);
  const problems: string[] = [];
  for (const key of Object.keys(options)) {
    if ((OPTION_NAMES as readonly string[]).includes(key)) continue;
    const nearest = nearestName(key, OPTION_NAMES);
    problems.push(`unknown option "${key}"${nearest ? `; did you mean "${nearest}"?` : ` (known: ${OPTION_NAMES.join(', ')})`}`);
  }
  const checked = checkOptions(options);
  for (const problem of checked.problems) problems.push(problem.text);
  for (const name of ['messageLine', 'messagePosition'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') problems.push(`${name}: expected a function, got ${describeValue(options[name])}`);
  }
  if (problems.length === 1) throw new TypeError(`analyzeLua: invalid options: ${sentence(problems[0]!)}`);
  if (problems.length > 1) throw new TypeError(`analyzeLua: invalid options:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return checked.options;
}

function analyze(text: string, options: AnalyzeOptions, checked: CheckedOptions): LuaFinding[] {
  const { persistentKeys } = checked;
  const redisVersion = parseRedisVersion(checked.redisVersion);
  // One parse, with ranges: line and column are computed from offsets, and only for what is
  // reported (the line index is built on its first use).
  const lines = lineIndex(text);
  // the comments are read only when the text can hold a directive
  const withDirectives = mayHoldDirectives(text);
  const parsed = parseLua(text, { comments: withDirectives });
  if (!parsed.ok) return [fatal(`Parsing error: ${parsed.message}`, parsed.offset, lines)];

  const severities = resolveSeverities(checked);
  const directives = withDirectives
    ? readDirectives(parsed.comments, lines, parsed.ast.body[0] ? rangeOf(parsed.ast.body[0])[0] : text.length, text)
    : undefined;
  const patterns = [...persistentKeys, ...(directives?.globalPersistent ?? [])].map(keyPatternMatcher);
  const byLine = new Map([...(directives?.persistentByLine ?? [])].map(([line, keys]) => [line, keys.map(keyPatternMatcher)]));
  const matchesAny = (matchers: readonly KeyPatternMatcher[], names: readonly string[]): boolean => {
    for (const match of matchers) for (const name of names) if (match(name)) return true;
    return false;
  };
  const isPersistent =
    patterns.length === 0 && byLine.size === 0
      ? undefined
      : (names: readonly string[], line: number): boolean => matchesAny(patterns, names) || matchesAny(byLine.get(line) ?? NO_MATCHERS, names);

  const { messageLine, messagePosition } = options;
  // one shape of input whatever the options (the walk reads it at every command)
  const walked = walkScript({
    ast: parsed.ast,
    index: parsed.index,
    source: text,
    isPersistent,
    lineOf: lines.lineOf,
    positionOf: messagePosition
      ? (offset: number) => messagePosition(offset)
      : messageLine
        ? (offset: number) => ({ line: messageLine(offset) })
        : (offset: number) => lines.position(offset),
    strict: checked.strict === true ? true : undefined,
    redisVersion,
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
  for (const refused of libraryLoadErrors(text, parsed.index)) {
    const end = lines.position(refused.endOffset);
    findings.push({ ...fatal(refused.message, refused.offset, lines), endLine: end.line, endColumn: end.column, endOffset: refused.endOffset });
  }
  const unknownRuleSeverity = severities['unknown-rule-in-directive'];
  for (const problem of unknownRuleSeverity === 0 || directives === undefined ? [] : directives.problems) {
    const start = lines.position(problem.offset);
    if (directives?.isDisabled('unknown-rule-in-directive', start.line)) continue;
    const end = lines.position(problem.endOffset);
    findings.push({
      ruleId: 'unknown-rule-in-directive',
      severity: unknownRuleSeverity as 1 | 2,
      message: problem.message,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
      offset: problem.offset,
      endOffset: problem.endOffset,
    });
  }
  const allowOptionalTtl = checked.allowOptionalTtl ?? checked.strict !== true;
  for (const finding of raw) {
    const severity = severities[finding.ruleId];
    if (severity === 0) continue;
    if (finding.optionalTtl && allowOptionalTtl) continue;
    const [offset, endOffset] = rangeOf(finding.node);
    const start = lines.position(offset);
    if (directives?.isDisabled(finding.ruleId, start.line)) continue;
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
  return findings.sort((a, b) => a.offset - b.offset || compareIds(a.ruleId ?? '', b.ruleId ?? ''));
}

/**
 * Rule ids in code-unit order: for lua-lint's ids (lower-case words and hyphens) the order
 * `localeCompare` gives, without a call into ICU's collation for every tie.
 */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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

/** Every rule's default severity (read-only: {@link resolveSeverities} copies it when options change one). */
const DEFAULT_SEVERITIES: Readonly<Record<LuaRuleId, Severity>> = (() => {
  const out = {} as Record<LuaRuleId, Severity>;
  for (const meta of Object.values(RULES)) out[meta.id] = meta.defaultSeverity;
  return out;
})();

function resolveSeverities(checked: CheckedOptions): Readonly<Record<LuaRuleId, Severity>> {
  return Object.keys(checked.rules).length > 0 ? { ...DEFAULT_SEVERITIES, ...checked.rules } : DEFAULT_SEVERITIES;
}
