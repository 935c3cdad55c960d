/**
 * GitHub Actions workflow commands: one `::error` / `::warning` annotation per problem, shown on
 * the pull request's diff (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands).
 */
import { displayPath } from '../paths.js';
import type { Formatter } from './types.js';

/** Escapes a workflow command's message, as `@actions/core` does. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value (also `:` and `,`), as `@actions/core` does. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The github formatter. Paths are relative to the working directory (the checkout in a workflow).
 * GitHub ignores `col`/`endColumn` on a range of several lines, so they are given only for a
 * problem on one line. Parse errors carry the title `lua-lint (parse-error)`; the warning for an
 * ignored file named on the command line is a file annotation (no line) titled `lua-lint`.
 */
export const github: Formatter = (results, context) => {
  const lines: string[] = [];
  for (const result of results) {
    const file = displayPath(result.filePath, context.cwd).split('\\').join('/');
    for (const message of result.messages) {
      const command = message.fatal || message.severity === 2 ? 'error' : 'warning';
      const properties: Array<[string, string | number]> = [['file', file]];
      if (message.line > 0) {
        properties.push(['line', message.line]);
        if (message.endLine === message.line) properties.push(['col', message.column]);
        properties.push(['endLine', message.endLine]);
        if (message.endLine === message.line) properties.push(['endColumn', message.endColumn]);
      }
      // a message about the whole file (an ignored file) has no rule and no line: a file annotation
      const rule = message.ruleId ?? (message.fatal ? 'parse-error' : undefined);
      properties.push(['title', rule === undefined ? 'lua-lint' : `lua-lint (${rule})`]);
      const list = properties.map(([name, value]) => `${name}=${escapeProperty(String(value))}`).join(',');
      lines.push(`::${command} ${list}::${escapeData(message.message)}`);
    }
  }
  return lines.join('\n');
};
