/**
 * Terminal colors for the stylish formatter: on only for a TTY, unless the user decides with
 * `--color` / `--no-color`, `NO_COLOR` (https://no-color.org) or `FORCE_COLOR`.
 */

/** Text styles; each is the identity when colors are off. */
export interface Styles {
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  underline(text: string): string;
}

function ansi(open: number, close: number): (text: string) => string {
  return (text) => (text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`);
}

const identity = (text: string): string => text;

/** The styles for `enabled` colors. */
export function createStyles(enabled: boolean): Styles {
  if (!enabled) return { red: identity, yellow: identity, dim: identity, bold: identity, underline: identity };
  return { red: ansi(31, 39), yellow: ansi(33, 39), dim: ansi(2, 22), bold: ansi(1, 22), underline: ansi(4, 24) };
}

/**
 * Whether to color the output.
 *
 * @param flag `true` for `--color`, `false` for `--no-color`, `undefined` when neither was given.
 * @param env the environment: a non-empty `NO_COLOR` turns colors off; `FORCE_COLOR` turns them on
 *   (`0` or `false` turns them off).
 * @param isTTY whether the output goes to a terminal (false when writing to `--output-file`).
 */
export function shouldUseColor(flag: boolean | undefined, env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY;
}
