/** ESLint's `json` format: the results array as one line of JSON. */
import type { Formatter } from './types.js';

/** The json formatter. */
export const json: Formatter = (results) => JSON.stringify(results);
