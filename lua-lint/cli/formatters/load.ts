/**
 * The `--format` names and a loader that imports only the formatter a run uses (a lint run
 * prints one format; the others need not be loaded).
 */
import type { Formatter } from './types.js';

/** The `--format` values, default first. */
export const FORMAT_NAMES = ['stylish', 'json', 'compact', 'sarif', 'github'] as const;

/** A `--format` value. */
export type FormatName = (typeof FORMAT_NAMES)[number];

/** The formatter of one `--format` value, imported on demand. */
export async function loadFormatter(name: FormatName): Promise<Formatter> {
  switch (name) {
    case 'stylish':
      return (await import('./stylish.js')).stylish;
    case 'json':
      return (await import('./json.js')).json;
    case 'compact':
      return (await import('./compact.js')).compact;
    case 'sarif':
      return (await import('./sarif.js')).sarif;
    case 'github':
      return (await import('./github.js')).github;
  }
}
