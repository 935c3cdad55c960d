/**
 * The targets of the runtime benchmark (issue 30), judged where they are measured and printed
 * together at the end of `npm run bench:runtime`: each with the ratio measured, the bound, and
 * PASS or FAIL; figures that are reported, not judged (the INCR + PEXPIRE floor, the sliding-window
 * log's memory store against the store's fixed window, ioredis' autopipelining), with "-".
 * Every section also records the machine's load average while it ran: throughput ratios from a
 * loaded machine are not a verdict on the code.
 */
import { loadavg } from 'node:os';

/** One figure: judged against a bound, or only reported. */
export interface Verdict {
  /** Where it was measured, e.g. `limiters, hot key, 16 in flight`. */
  where: string;
  /** What, e.g. `fixed-window / rlf`. */
  what: string;
  measured: number;
  /** `>= bound` or `<= bound` to pass; absent: reported, not judged. */
  bound?: { op: '>=' | '<='; value: number };
}

const verdicts: Verdict[] = [];
const loads: Array<[string, string, string]> = [];

/** Records `measured` against `op bound` and returns it formatted with its verdict, e.g. `1.04 PASS`. */
export function judge(where: string, what: string, measured: number, op: '>=' | '<=', bound: number): string {
  verdicts.push({ where, what, measured, bound: { op, value: bound } });
  return `${measured.toFixed(2)} ${passes(measured, op, bound) ? 'PASS' : 'FAIL'}`;
}

/** Records a figure that is reported, not judged. */
export function report(where: string, what: string, measured: number): void {
  verdicts.push({ where, what, measured });
}

function passes(measured: number, op: '>=' | '<=', bound: number): boolean {
  return op === '>=' ? measured >= bound : measured <= bound;
}

/** The load averages (1, 5, 15 minutes) now, e.g. `0.52 0.61 0.80`. */
export function loadNow(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/** Records the load average at a section's start and end. */
export function noteLoad(section: string, atStart: string): void {
  loads.push([section, atStart, loadNow()]);
}

/** Prints every figure with its verdict, the counts, and the load of each section; returns the number of FAILs. */
export function printVerdicts(): number {
  console.log('## Targets\n');
  console.log('| where | what | measured | target | verdict |');
  console.log('| --- | --- | ---: | --- | --- |');
  let failed = 0;
  let passed = 0;
  for (const v of verdicts) {
    let verdict = '- (reported)';
    let target = '';
    if (v.bound !== undefined) {
      const ok = passes(v.measured, v.bound.op, v.bound.value);
      verdict = ok ? 'PASS' : '**FAIL**';
      target = `${v.bound.op} ${v.bound.value}`;
      if (ok) passed += 1;
      else failed += 1;
    }
    console.log(`| ${v.where} | ${v.what} | ${v.measured.toFixed(2)} | ${target} | ${verdict} |`);
  }
  console.log(`\n${passed} targets met, ${failed} missed, ${verdicts.filter((v) => v.bound === undefined).length} figures reported.\n`);
  if (loads.length > 0) {
    console.log('Load average (1, 5, 15 min) at the start and the end of each section (2 cores; above ~1 the throughput ratios are noise):\n');
    console.log('| section | at the start | at the end |');
    console.log('| --- | --- | --- |');
    for (const [section, start, end] of loads) console.log(`| ${section} | ${start} | ${end} |`);
    console.log('');
  }
  return failed;
}
