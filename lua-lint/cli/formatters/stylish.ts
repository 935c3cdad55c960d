/**
 * ESLint's default `stylish` format, reproduced without its dependencies: the file path, then one
 * aligned row per problem (`line:column  severity  message  rule`), then a summary line.
 */
import { createStyles } from '../color.js';
import type { LintMessage } from '../results.js';
import type { Formatter } from './types.js';

function pluralize(word: string, count: number): string {
  return count === 1 ? word : `${word}s`;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[\d+m/g;

/** Aligns rows in columns two spaces apart, like the `text-table` package ESLint uses. */
function table(rows: string[][], rightAligned: ReadonlySet<number>): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.replace(ANSI, '').length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, index) => {
          const padding = ' '.repeat((widths[index] ?? 0) - cell.replace(ANSI, '').length);
          return rightAligned.has(index) ? padding + cell : cell + padding;
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The stylish formatter. */
export const stylish: Formatter = (results, context) => {
  const style = createStyles(context.color);
  let output = '\n';
  let errorCount = 0;
  let warningCount = 0;
  for (const result of results) {
    if (result.messages.length === 0) continue;
    errorCount += result.errorCount;
    warningCount += result.warningCount;
    output += `${style.underline(result.filePath)}\n`;
    const rows = result.messages.map((message: LintMessage) => [
      '',
      String(message.line),
      String(message.column),
      message.fatal || message.severity === 2 ? style.red('error') : style.yellow('warning'),
      message.message.replace(/([^ ])\.$/u, '$1'),
      style.dim(message.ruleId ?? ''),
    ]);
    output += table(rows, new Set([1]))
      .split('\n')
      .map((row) => row.replace(/(\d+)\s+(\d+)/u, (_match, line: string, column: string) => style.dim(`${line}:${column}`)))
      .join('\n');
    output += '\n\n';
  }
  const total = errorCount + warningCount;
  if (total === 0) return '';
  const summary =
    `\u2716 ${total} ${pluralize('problem', total)} ` +
    `(${errorCount} ${pluralize('error', errorCount)}, ${warningCount} ${pluralize('warning', warningCount)})\n`;
  return output + style.bold(errorCount > 0 ? style.red(summary) : style.yellow(summary));
};
