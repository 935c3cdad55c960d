/**
 * ESLint's `json` format: the results array as one line of JSON. A message about a whole file (an
 * ignored file named on the command line, `isFileMessage`) is written as ESLint
 * writes its own (`createIgnoreResult` in eslint/lib/eslint/eslint-helpers.js): `fatal: false`
 * and no position fields.
 */
import { isFileMessage } from '../results.js';
import type { Formatter } from './types.js';

/** The json formatter. */
export const json: Formatter = (results) =>
  JSON.stringify(
    results.map((result) =>
      result.messages.some(isFileMessage)
        ? {
            ...result,
            messages: result.messages.map((m) => (isFileMessage(m) ? { ruleId: null, fatal: false, severity: m.severity, message: m.message } : m)),
          }
        : result,
    ),
  );
