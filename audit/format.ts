/**
 * The three output formats of a report: `table` (for people), `json` (the whole report),
 * `csv` (one row per pattern, RFC 4180 quoting, LF line ends, formula-like cells neutralised).
 */
import type { AuditReport } from './audit.js';
import { TTL_BUCKETS } from './stats.js';

/** Output format names, the first is the default. */
export const FORMAT_NAMES = ['table', 'json', 'csv'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** Context printed alongside the report. */
export interface FormatContext {
  /** The package version. */
  version: string;
  /** The URL audited, password redacted. */
  target: string;
  /** Whether the masters of a cluster were walked. */
  cluster: boolean;
  /** table: show at most this many patterns (the largest). */
  top: number;
}

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

const int = (n: number) => n.toLocaleString('en-US');
/** `1 key`, `2 keys`, `1,000 keys`. */
const count = (n: number, noun: string) => `${int(n)} ${noun}${n === 1 ? '' : 's'}`;
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function table(rows: string[][], rightAligned: (column: number) => boolean): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (rightAligned(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** The human-readable report. */
export function formatTable(report: AuditReport, context: FormatContext): string {
  const { totals } = report;
  const out: string[] = [];
  const servers = report.nodes.length === 1 ? '1 server' : `${report.nodes.length} masters`;
  out.push(
    `redis-ttl-audit ${context.version} · ${context.target}${context.cluster ? ' (cluster)' : ''} · ${servers} · ` +
      `${count(totals.keys, 'key')} in ${count(report.patterns.length, 'pattern')}, ${int(totals.noTtl)} without TTL ` +
      `(${percent(totals.keys === 0 ? 0 : totals.noTtl / totals.keys)}) · ${(totals.elapsedMs / 1000).toFixed(1)} s, ${int(totals.commands)} commands`,
  );
  if (totals.vanished > 0 || totals.changedType > 0) {
    out.push(`${count(totals.vanished, 'key')} vanished during the scan${totals.changedType > 0 ? `, ${int(totals.changedType)} changed type` : ''} (not counted).`);
  }
  out.push('');

  const memory = totals.memoryBytes !== null;
  const estimated = report.patterns.some((p) => p.estimatedKeys !== undefined);
  const header = ['PATTERN', 'KEYS', ...(estimated ? ['EST. KEYS'] : []), 'NO TTL', 'SHARE', ...(memory ? ['MEMORY'] : []), ...TTL_BUCKETS.map((b) => `TTL${b.label}`)];
  const shown = report.patterns.slice(0, context.top);
  const rows = shown.map((p) => [
    p.pattern,
    int(p.keys),
    ...(estimated ? [int(p.estimatedKeys ?? p.keys)] : []),
    int(p.noTtl),
    percent(p.noTtlShare),
    ...(memory ? [formatBytes(p.memoryBytes ?? 0)] : []),
    ...TTL_BUCKETS.map((b) => int(p.ttl[b.label])),
  ]);
  if (rows.length === 0) out.push('No keys found.');
  else out.push(...table([header, ...rows], (c) => c > 0));
  if (report.patterns.length > shown.length) out.push(`... and ${report.patterns.length - shown.length} smaller patterns (--top, or --format json/csv for all).`);

  // One example of each per pattern here; the json format has the three largest and idlest.
  const examples = shown
    .map((p) => {
      const parts = [
        ...(p.largest[0] ? [`largest ${p.largest[0].key} (${formatBytes(p.largest[0].bytes)})`] : []),
        ...(p.idlest[0] ? [`idlest ${p.idlest[0].key} (idle ${int(p.idlest[0].idleSeconds)} s)`] : []),
      ];
      return parts.length === 0 ? undefined : `  ${p.pattern}: ${parts.join(' · ')}`;
    })
    .filter((line) => line !== undefined);
  if (examples.length > 0) out.push('', 'Examples:', ...examples);

  if (report.sample !== null) {
    const s = report.sample;
    out.push('');
    if (s.stoppedEarly) {
      out.push(
        `Sample: ${int(totals.keys)} keys inspected of ${int(s.visited)} visited, DBSIZE ${int(s.population)}: ` +
          `about ${int(s.estimatedKeys)} matching keys, ${percent(s.noTtlShare.share)} without TTL ` +
          `(95% CI ${percent(s.noTtlShare.low)}–${percent(s.noTtlShare.high)}, about ${int(s.estimatedNoTtl.value)} keys, ` +
          `${int(s.estimatedNoTtl.low)}–${int(s.estimatedNoTtl.high)}).`,
      );
    } else {
      out.push(`Sample: the scan ended before ${int(s.requested)} keys; the numbers above are exact.`);
    }
  }

  out.push('', 'Servers:');
  out.push(
    ...table(
      report.nodes.map((n) => [
        `  ${n.address}`,
        `redis ${n.version}`,
        `DBSIZE ${int(n.dbsize)}`,
        n.maxmemory === null ? 'maxmemory ?' : n.maxmemory === 0 ? 'maxmemory 0 (no limit)' : `maxmemory ${formatBytes(n.maxmemory)}`,
        `policy ${n.maxmemoryPolicy ?? '?'}`,
      ]),
      () => false,
    ),
  );
  if (report.warnings.length > 0) {
    out.push('', 'Warnings:');
    for (const w of report.warnings) out.push(`  ! ${w.node}: ${w.message}`, `    patterns: ${w.patterns.join(', ')}`);
  }
  if (report.notes.length > 0) {
    out.push('', 'Notes:');
    for (const n of report.notes) out.push(`  - ${n}`);
  }
  if (report.violations.length > 0) {
    out.push('', 'Must expire (--fail-on-persistent):');
    for (const v of report.violations) {
      out.push(
        v.keys === 0
          ? `  ok   ${v.pattern}: every matching key has a TTL`
          : `  FAIL ${v.pattern}: ${count(v.keys, 'key')} without TTL, e.g. ${v.examples.join(', ')}`,
      );
    }
  }
  if (report.fix !== null) {
    const f = report.fix;
    out.push(
      '',
      `Fix: EXPIRE <key> ${f.seconds} NX added a TTL of ${int(f.seconds)} s to ${count(f.changed, 'key')}` +
        (f.skipped > 0 ? ` (${int(f.skipped)} had gained a TTL or were gone by then)` : '') +
        '.',
    );
    for (const key of f.keys ?? []) out.push(`  ${key}`);
  }
  return out.join('\n');
}

/** The whole report as JSON, with the tool, its version and the target first. */
export function formatJson(report: AuditReport, context: FormatContext): string {
  return JSON.stringify({ tool: 'redis-ttl-audit', version: context.version, target: context.target, cluster: context.cluster, ...report }, null, 2);
}

/** The CSV header, in column order. */
export const CSV_COLUMNS = [
  'pattern',
  'keys',
  'no_ttl',
  'no_ttl_share',
  'estimated_keys',
  'memory_bytes',
  'ttl_lt_1m',
  'ttl_lt_1h',
  'ttl_lt_1d',
  'ttl_lt_7d',
  'ttl_ge_7d',
  'largest_key',
  'largest_bytes',
  'idlest_key',
  'idlest_seconds',
] as const;

/**
 * One CSV cell, RFC 4180 quoted. A text cell that a spreadsheet would run as a formula (it starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return: a key named `=cmd|' /C calc'!A0`) gets a
 * leading `'` and is quoted, as OWASP's CSV injection advice says
 * (https://owasp.org/www-community/attacks/CSV_Injection). Numbers are written as they are.
 */
function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const formula = /^[=+\-@\t\r]/.test(value);
  const text = formula ? `'${value}` : value;
  return formula || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row per pattern; empty cells for what was not measured. Share with 6 decimals. */
export function formatCsv(report: AuditReport): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const p of report.patterns) {
    lines.push(
      [
        p.pattern,
        p.keys,
        p.noTtl,
        Number(p.noTtlShare.toFixed(6)),
        p.estimatedKeys,
        p.memoryBytes,
        ...TTL_BUCKETS.map((b) => p.ttl[b.label]),
        p.largest[0]?.key,
        p.largest[0]?.bytes,
        p.idlest[0]?.key,
        p.idlest[0]?.idleSeconds,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\n');
}

/** Formats `report` as `format`. */
export function formatReport(format: FormatName, report: AuditReport, context: FormatContext): string {
  if (format === 'json') return formatJson(report, context);
  if (format === 'csv') return formatCsv(report);
  return formatTable(report, context);
}
