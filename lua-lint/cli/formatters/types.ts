import type { LintResult } from '../results.js';

/** What a formatter knows besides the results. */
export interface FormatterContext {
  /** The working directory: SARIF and GitHub annotations report paths relative to it. */
  cwd: string;
  /** Whether to use terminal colors (stylish only). */
  color: boolean;
  /** lua-lint's version (SARIF's `tool.driver.version`). */
  version: string;
}

/** Renders results as text; an empty string means "print nothing". */
export type Formatter = (results: readonly LintResult[], context: FormatterContext) => string;
