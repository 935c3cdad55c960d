/**
 * Lint results in ESLint's shape (`ESLint.LintResult` / `Linter.LintMessage`), so that the JSON
 * output can be read by tools written for ESLint's `--format json`.
 */
import type { LuaFinding } from '../types.js';

/**
 * One problem, as ESLint's `LintMessage`: a finding without its character offsets (`fatal` is also
 * set for files that cannot be Lua, such as binary files). `ruleId: null` without `fatal` is a
 * message about the file, not its code, at line 0: a file that `ignores` match
 * ({@link ignoredFileMessage}).
 */
export type LintMessage = Omit<LuaFinding, 'offset' | 'endOffset'>;

/** The problems of one file, as ESLint's `LintResult` (nothing is ever fixable or suppressed). */
export interface LintResult {
  /** Absolute path, or `<stdin>` for standard input without `--stdin-filename`. */
  filePath: string;
  messages: LintMessage[];
  suppressedMessages: [];
  errorCount: number;
  fatalErrorCount: number;
  warningCount: number;
  fixableErrorCount: 0;
  fixableWarningCount: 0;
  usedDeprecatedRules: [];
}

/** The file name reported for standard input read without `--stdin-filename`. */
export const STDIN_FILE_PATH = '<stdin>';

/**
 * The warning for a file named on the command line that the config file's `ignores` match: ESLint's
 * (`createIgnoreResult` in eslint/lib/eslint/eslint-helpers.js, ESLint 9 and 10) with the config
 * file named. `ruleId: null`, not fatal, severity 1, and no place in the file (line and column 0,
 * which ESLint's stylish and compact formats print for it too).
 */
export function ignoredFileMessage(): LintMessage {
  return {
    ruleId: null,
    severity: 1,
    message:
      'File ignored because of a matching ignore pattern ("ignores" in the config file). Use "--no-ignore" to disable file ignore settings or use "--no-warn-ignored" to suppress this warning.',
    line: 0,
    column: 0,
    endLine: 0,
    endColumn: 0,
  };
}

/**
 * Whether a message is about the file rather than its code ({@link ignoredFileMessage}): no rule
 * and not a parse error. Formats without a line-less message (JSON as ESLint writes it, SARIF's
 * tool notifications, GitHub's file annotations) tell these apart with it.
 */
export function isFileMessage(message: Pick<LintMessage, 'ruleId' | 'fatal'>): boolean {
  return message.ruleId === null && message.fatal !== true;
}

/** Turns analyzer findings into a result, sorted by position as ESLint sorts its messages. */
export function createResult(filePath: string, findings: readonly LuaFinding[]): LintResult {
  const messages = findings
    .map((finding): LintMessage => {
      const message: LintMessage = {
        ruleId: finding.ruleId,
        severity: finding.severity,
        message: finding.message,
        line: finding.line,
        column: finding.column,
        endLine: finding.endLine,
        endColumn: finding.endColumn,
      };
      if (finding.fatal) message.fatal = true;
      if (finding.optionalTtl) message.optionalTtl = true;
      return message;
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);
  return withCounts(filePath, messages);
}

/** A result for `messages`, with the counts computed from them. */
export function withCounts(filePath: string, messages: LintMessage[]): LintResult {
  let errorCount = 0;
  let fatalErrorCount = 0;
  let warningCount = 0;
  for (const message of messages) {
    if (message.severity === 2) errorCount++;
    else warningCount++;
    if (message.fatal) fatalErrorCount++;
  }
  return {
    filePath,
    messages,
    suppressedMessages: [],
    errorCount,
    fatalErrorCount,
    warningCount,
    fixableErrorCount: 0,
    fixableWarningCount: 0,
    usedDeprecatedRules: [],
  };
}

/** The results with warnings removed (`--quiet`). */
export function errorsOnly(results: readonly LintResult[]): LintResult[] {
  return results.map((result) => withCounts(result.filePath, result.messages.filter((message) => message.severity === 2)));
}

/** Sums of the counts over all results. */
export function totals(results: readonly LintResult[]): { errorCount: number; warningCount: number; fatalErrorCount: number } {
  let errorCount = 0;
  let warningCount = 0;
  let fatalErrorCount = 0;
  for (const result of results) {
    errorCount += result.errorCount;
    warningCount += result.warningCount;
    fatalErrorCount += result.fatalErrorCount;
  }
  return { errorCount, warningCount, fatalErrorCount };
}
