/**
 * The progress bar on standard error, drawn only when standard error is a terminal: keys visited
 * out of DBSIZE (or out of the `--sample` size), commands per second, and an estimate of the time
 * left. Redrawn at most ten times a second, erased when the scan ends.
 */
import type { AuditProgress } from '../audit.js';

/** Something to draw on: `process.stderr`, or a collector in tests. */
export interface ProgressOutput {
  write(text: string): unknown;
}

const WIDTH = 24;
const INTERVAL_MS = 100;

/** One line of progress (without `\r`). */
export function progressLine(p: AuditProgress): string {
  const done = p.target !== undefined ? p.inspected : p.visited;
  const total = p.target !== undefined ? Math.min(p.target, p.population) : p.population;
  const ratio = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(ratio * WIDTH);
  const seconds = p.elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(p.ops / seconds) : 0;
  const eta = ratio > 0 && ratio < 1 ? Math.round((seconds / ratio) * (1 - ratio)) : 0;
  return (
    `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ` +
    `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} keys · ${rate.toLocaleString('en-US')} ops/s · eta ${eta} s`
  );
}

/** A throttled progress bar; `update` is the audit's onProgress, `done` erases the line. */
export function createProgressBar(out: ProgressOutput, now: () => number = () => performance.now()) {
  let last = Number.NEGATIVE_INFINITY;
  let drawn = false;
  return {
    update(p: AuditProgress): void {
      const t = now();
      if (t - last < INTERVAL_MS) return;
      last = t;
      drawn = true;
      out.write(`\r${progressLine(p)}\u001b[K`);
    },
    done(): void {
      if (drawn) out.write('\r\u001b[K');
    },
  };
}
