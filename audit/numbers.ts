/** Numbers as the report formats (table, csv, html) print them. */

/** `12.3 KB`, `1.0 MB`: binary units, one decimal. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `1,000`: a whole number with thousands separators. */
export const int = (n: number) => n.toLocaleString('en-US');
/** `1 key`, `2 keys`, `1,000 keys`. */
export const count = (n: number, noun: string) => `${int(n)} ${noun}${n === 1 ? '' : 's'}`;
/** `12.3%`: a share (0 to 1) as a percentage, one decimal. */
export const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
/** `+20`, `-3`, `0`. */
export const signed = (n: number) => (n > 0 ? `+${int(n)}` : int(n));

