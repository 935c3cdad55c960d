/**
 * ESLint's `compact` format, one line per problem that editors and CI problem matchers already
 * understand: `<path>: line <l>, col <c>, Error - <message> (<rule>)`.
 */
import type { Formatter } from './types.js';

/** The compact formatter. */
export const compact: Formatter = (results) => {
  let output = '';
  let total = 0;
  for (const result of results) {
    for (const message of result.messages) {
      total++;
      const type = message.fatal || message.severity === 2 ? 'Error' : 'Warning';
      output += `${result.filePath}: line ${message.line}, col ${message.column}, ${type} - ${message.message}`;
      output += message.ruleId ? ` (${message.ruleId})\n` : '\n';
    }
  }
  if (total > 0) output += `\n${total} problem${total === 1 ? '' : 's'}`;
  return output;
};
