/**
 * The output formats of a report: `table` (for people), `json` (the whole report), `csv` (one
 * row per pattern, RFC 4180 quoting, LF line ends, formula-like cells neutralised), `html` (one
 * self-contained page: html.ts).
 */
import type { AuditReport, PatternReport } from './audit.js';
import { siteText, ttlLabel, type WrittenBy } from './attribution.js';
import { formatHtml } from './html.js';
import { TTL_BUCKETS } from './stats.js';
import { count, formatBytes, int, percent, signed } from './numbers.js';


/** Output format names, the first is the default. */
export const FORMAT_NAMES = ['table', 'json', 'csv', 'html'] as const;
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
  /**
   * html: the directory the page will be read from, relative to the working directory, to which
   * its `file:line` links are made relative; default `.` (the page is saved in the working directory).
   */
  linkBase?: string;
}

/** The first write site of a pattern and how many more: `src/store.ts:7:9 (+2)`, `-` for none. */
export function firstSite(writtenBy: readonly WrittenBy[]): string {
  if (writtenBy.length === 0) return '-';
  return `${siteText(writtenBy[0]!)}${writtenBy.length > 1 ? ` (+${writtenBy.length - 1})` : ''}`;
}

/** One write site on a line: `src/store.ts:7:9 SET: no TTL, via src/jobs.ts:20:5 (KEYS[1])`. */
export function siteLine(site: WrittenBy): string {
  return `${siteText(site)} ${site.command}: ${ttlLabel(site)}${site.via ? `, run by ${siteText(site.via)} (${site.via.key})` : ''}`;
}

/** The growth of a pattern's keys without TTL, for the patterns table: `+20`, `new`, or empty. */
function growthCell(report: AuditReport, pattern: PatternReport): string {
  const row = report.growth?.patterns.find((r) => r.pattern === pattern.pattern);
  if (row === undefined) return '';
  return row.keysBefore === 0 && row.noTtlBefore === 0 && row.keys > 0 ? 'new' : signed(row.noTtlGrowth);
}

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
  const inventory = report.findings !== null;
  const growth = report.growth !== null;
  const header = [
    'PATTERN',
    'KEYS',
    ...(estimated ? ['EST. KEYS'] : []),
    'NO TTL',
    'SHARE',
    ...(growth ? ['NO TTL +/-'] : []),
    ...(memory ? ['MEMORY'] : []),
    ...TTL_BUCKETS.map((b) => `TTL${b.label}`),
    ...(inventory ? ['WRITTEN BY'] : []),
  ];
  const shown = report.patterns.slice(0, context.top);
  const rows = shown.map((p) => [
    p.pattern,
    int(p.keys),
    ...(estimated ? [int(p.estimatedKeys ?? p.keys)] : []),
    int(p.noTtl),
    percent(p.noTtlShare),
    ...(growth ? [growthCell(report, p)] : []),
    ...(memory ? [formatBytes(p.memoryBytes ?? 0)] : []),
    ...TTL_BUCKETS.map((b) => int(p.ttl[b.label])),
    ...(inventory ? [firstSite(p.writtenBy ?? [])] : []),
  ]);
  const written = header.length - 1;
  if (rows.length === 0) out.push('No keys found.');
  else out.push(...table([header, ...rows], (c) => c > 0 && !(inventory && c === written)));
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
  out.push(...findingsLines(report, context.top), ...growthLines(report, context));

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

/** The three sections of an audit with an inventory (nothing without one), each cut after `top` patterns. */
function findingsLines(report: AuditReport, top: number): string[] {
  const findings = report.findings;
  if (findings === null) return [];
  const out: string[] = [];
  const more = (list: readonly unknown[]) => {
    if (list.length > top) out.push(`  ... and ${list.length - top} more (--top, or --format json, csv or html for all).`);
  };
  const eg = (keys: readonly string[]) => (keys.length === 0 ? '' : `, e.g. ${keys.join(', ')}`);
  const heading = (title: string, n: number) => out.push('', `${title}: ${n === 0 ? 'none' : count(n, 'pattern')}`);
  heading('Leaking (keys without TTL)', findings.leaking.length);
  for (const f of findings.leaking.slice(0, top)) {
    const why = f.cause === 'unwritten' ? ', written by no code' : f.cause === 'unexplained' ? ', though every write sets a TTL' : '';
    out.push(`  ${f.pattern}: ${int(f.noTtl)} of ${count(f.keys, 'key')} without TTL${why}${eg(f.examples)}`);
    for (const site of f.writtenBy) out.push(`    ${siteLine(site)}`);
  }
  more(findings.leaking);
  heading('Written by no code (another service, or code removed since)', findings.unwritten.length);
  for (const f of findings.unwritten.slice(0, top)) {
    out.push(`  ${f.pattern}: ${count(f.keys, 'key')}, ${int(f.noTtl)} without TTL${eg(f.examples)}`);
    for (const site of f.readBy) out.push(`    read at ${siteText(site)} ${site.command}`);
  }
  more(findings.unwritten);
  heading('TTL missing though every write sets one (a path the analysis does not see: worth a bug report)', findings.unexplained.length);
  for (const f of findings.unexplained.slice(0, top)) {
    out.push(`  ${f.pattern}: ${int(f.noTtl)} of ${count(f.keys, 'key')} without TTL${eg(f.examples)}`);
    for (const site of f.writtenBy) out.push(`    ${siteLine(site)}`);
  }
  more(findings.unexplained);
  if (findings.persistent.length > 0) {
    out.push('', `Kept without TTL on purpose (persistent shapes): ${findings.persistent.map((p) => `${p.pattern} (${int(p.noTtl)})`).join(', ')}`);
  }
  return out;
}

/** The comparison with `--baseline` (nothing without one). */
function growthLines(report: AuditReport, context: FormatContext): string[] {
  const growth = report.growth;
  if (growth === null) return [];
  const out: string[] = ['', `Growth since ${growth.baseline.file}${growth.baseline.target === null ? '' : ` (${growth.baseline.target})`}${growth.estimated ? ', estimated' : ''}:`];
  const changed = growth.patterns.filter((r) => r.keys !== r.keysBefore || r.noTtl !== r.noTtlBefore || r.memoryBytes !== r.memoryBytesBefore);
  if (changed.length === 0) {
    out.push('  no pattern changed.');
  } else {
    const memory = changed.some((r) => r.memoryBytes !== null);
    const rows = changed
      .slice(0, context.top)
      .map((r) => [
        `  ${r.pattern}`,
        `${int(r.keysBefore)} -> ${int(r.keys)}`,
        `${int(r.noTtlBefore)} -> ${int(r.noTtl)}`,
        signed(r.noTtlGrowth),
        ...(memory ? [`${formatBytes(r.memoryBytesBefore ?? 0)} -> ${formatBytes(r.memoryBytes ?? 0)}`] : []),
        r.exceeded ? 'FAIL' : r.grew ? (r.persistent ? 'grew (persistent)' : 'grew') : '',
      ]);
    out.push(...table([['  PATTERN', 'KEYS', 'NO TTL', 'GROWTH', ...(memory ? ['MEMORY'] : []), ''], ...rows], (c) => c > 0 && c < (memory ? 5 : 4)));
    if (changed.length > rows.length) out.push(`  ... and ${changed.length - rows.length} more changed patterns (--format json or csv for all).`);
  }
  if (growth.failOnGrowth !== null) {
    const exceeded = growth.patterns.filter((r) => r.exceeded);
    out.push(
      exceeded.length === 0
        ? `  ok   --fail-on-growth ${growth.failOnGrowth}: no pattern has more than ${count(growth.failOnGrowth, 'key')} without TTL beyond the baseline`
        : `  FAIL --fail-on-growth ${growth.failOnGrowth}: ${exceeded.map((r) => `${r.pattern} (${signed(r.noTtlGrowth)})`).join(', ')}`,
    );
  }
  return out;
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
  'shape',
  'written_by',
  'written_by_count',
  'findings',
  'no_ttl_before',
  'no_ttl_growth',
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
  const sections = new Map<string, string[]>();
  const mark = (pattern: string, section: string) => sections.set(pattern, [...(sections.get(pattern) ?? []), section]);
  for (const f of report.findings?.leaking ?? []) mark(f.pattern, 'leaking');
  for (const f of report.findings?.unwritten ?? []) mark(f.pattern, 'unwritten');
  for (const f of report.findings?.unexplained ?? []) mark(f.pattern, 'unexplained');
  const growth = new Map((report.growth?.patterns ?? []).map((r) => [r.pattern, r]));
  for (const p of report.patterns) {
    const row = growth.get(p.pattern);
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
        p.shape,
        p.writtenBy?.[0] === undefined ? null : siteText(p.writtenBy[0]),
        p.writtenBy?.length,
        p.writtenBy === null ? null : (sections.get(p.pattern) ?? []).join(';'),
        row?.noTtlBefore,
        row?.noTtlGrowth,
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
  if (format === 'html') return formatHtml(report, context);
  return formatTable(report, context);
}
