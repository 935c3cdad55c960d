/** The output formats of `lua-lint --format`. */
import { compact } from './compact.js';
import { github } from './github.js';
import { json } from './json.js';
import { sarif } from './sarif.js';
import { stylish } from './stylish.js';
import type { Formatter } from './types.js';

export type { Formatter, FormatterContext } from './types.js';

/** Every format, by the name given to `--format`. */
export const FORMATTERS = { stylish, json, compact, sarif, github } as const satisfies Record<string, Formatter>;

/** A `--format` value. */
export type FormatName = keyof typeof FORMATTERS;

/** The `--format` values, default first. */
export const FORMAT_NAMES = Object.keys(FORMATTERS) as FormatName[];
