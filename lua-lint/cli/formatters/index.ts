/** The output formats of `lua-lint --format`. */
import { compact } from './compact.js';
import { github } from './github.js';
import { json } from './json.js';
import { sarif } from './sarif.js';
import { stylish } from './stylish.js';
import type { FormatName } from './load.js';
import type { Formatter } from './types.js';

export type { Formatter, FormatterContext } from './types.js';
export { FORMAT_NAMES, loadFormatter, type FormatName } from './load.js';

/** Every format, by the name given to `--format` (the CLI loads only the one it uses: `loadFormatter`). */
export const FORMATTERS = { stylish, json, compact, sarif, github } as const satisfies Record<FormatName, Formatter>;
