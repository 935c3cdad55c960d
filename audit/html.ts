/**
 * `--format html`: the report as one self-contained page. No network: the CSS, the script (table
 * sorting only) and the charts (SVG) are inline, and a Content-Security-Policy lets the page load
 * nothing else and run no script but its own (by hash). Key names are attacker-controlled
 * strings: every text of the report is HTML-escaped, none is placed in the script, and links
 * are made only from the inventory's file paths (relative, percent-encoded, always starting with
 * `./` or `../` so that no path reads as a URL scheme).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { AuditReport, PatternReport } from './audit.js';
import { siteText, ttlLabel, type WrittenBy } from './attribution.js';
import type { FormatContext } from './format.js';
import { count, formatBytes, signed } from './numbers.js';
import { TTL_BUCKETS } from './stats.js';

/** `text` safe in HTML text and in a double- or single-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

const int = (n: number) => n.toLocaleString('en-US');
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** The relative URL of `file` (relative to the working directory) from a page in `base`. */
export function fileHref(file: string, base = '.'): string {
  const relative = path.posix.relative(path.posix.normalize(base.split(path.sep).join('/')), path.posix.normalize(file));
  const encoded = relative.split('/').map(encodeURIComponent).join('/');
  return encoded.startsWith('../') ? encoded : `./${encoded}`;
}

const CSS = `
:root { color-scheme: light; --no-ttl: #c8102e; --ink: #1d2330; --muted: #5b6475; --line: #dfe3ea; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
header { background: #1d2330; color: #fff; padding: 18px 28px; }
header h1 { margin: 0 0 4px; font-size: 20px; font-weight: 600; }
header p { margin: 0; color: #c9d1e0; }
main { padding: 8px 28px 40px; max-width: 1500px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 14px 18px; margin: 16px 0; overflow-x: auto; }
h2 { font-size: 16px; margin: 0 0 10px; }
h2 .count { color: var(--muted); font-weight: 400; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin-top: 16px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 16px; min-width: 150px; }
.card b { display: block; font-size: 22px; }
.card.bad b { color: var(--no-ttl); }
.charts { display: flex; gap: 16px; flex-wrap: wrap; }
.charts section { flex: 1 1 520px; margin: 16px 0 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); white-space: nowrap; }
th.sortable { cursor: pointer; }
th.sortable:hover { color: var(--ink); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.pattern, .key { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; overflow-wrap: anywhere; }
td.pattern { min-width: 16em; max-width: 36em; }
td.bad { color: var(--no-ttl); font-weight: 600; }
a { color: #1f5fbf; }
.site { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; white-space: nowrap; }
.ttl { color: var(--muted); font-size: 12px; }
.ttl.leaves { color: var(--no-ttl); }
.none { color: var(--muted); font-style: italic; }
ul.findings { list-style: none; margin: 0; padding: 0; }
ul.findings > li { padding: 8px 0; border-bottom: 1px solid var(--line); }
ul.findings > li:last-child { border-bottom: 0; }
ul.sites { margin: 4px 0 0; padding-left: 18px; }
.examples { color: var(--muted); font-size: 12.5px; }
details summary { cursor: pointer; color: var(--muted); }
svg text { font: 11px system-ui, sans-serif; fill: var(--ink); }
svg .label { font-family: ui-monospace, Menlo, Consolas, monospace; }
.bar-no-ttl { fill: var(--no-ttl); }
.b0 { fill: #c8102e; } .b1 { fill: #f08c00; } .b2 { fill: #f2c14e; } .b3 { fill: #5fa8d3; } .b4 { fill: #2b7a78; } .b5 { fill: #1b4965; }
.legend span { display: inline-block; margin-right: 12px; font-size: 12px; color: var(--muted); }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; }
.legend .l0 { background: #c8102e; } .legend .l1 { background: #f08c00; } .legend .l2 { background: #f2c14e; } .legend .l3 { background: #5fa8d3; } .legend .l4 { background: #2b7a78; } .legend .l5 { background: #1b4965; }
.fail { color: var(--no-ttl); font-weight: 600; }
.ok { color: #2b7a78; font-weight: 600; }
`;

/** Sorts the patterns table by a clicked column (numbers by their data-v). Reads no report data. */
const SCRIPT = `
document.querySelectorAll('table.sortable').forEach(function (table) {
  var heads = table.querySelectorAll('th');
  heads.forEach(function (th, column) {
    if (!th.classList.contains('sortable')) return;
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var down = th.getAttribute('aria-sort') !== 'descending';
      heads.forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
      rows.sort(function (a, b) {
        var x = a.cells[column], y = b.cells[column];
        var vx = x.getAttribute('data-v'), vy = y.getAttribute('data-v');
        var r = vx !== null && vy !== null ? Number(vx) - Number(vy) : x.textContent.localeCompare(y.textContent);
        return down ? -r : r;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** The buckets of the TTL histogram, no TTL first: labels and class names. */
const HISTOGRAM = [{ label: 'no TTL', cls: 'b0' }, ...TTL_BUCKETS.map((b, i) => ({ label: `TTL ${b.label}`, cls: `b${i + 1}` }))];

/** The counts of a pattern (or of all) per {@link HISTOGRAM} bucket. */
function bucketsOf(p: Pick<PatternReport, 'noTtl' | 'ttl'>): number[] {
  return [p.noTtl, ...TTL_BUCKETS.map((b) => p.ttl[b.label])];
}

/** A link to a write site: `<a href="./src/store.ts">src/store.ts:7:9</a>`. */
function siteLink(site: { file: string; line: number; column: number }, base: string | undefined): string {
  return `<a class="site" href="${escapeHtml(fileHref(site.file, base))}">${escapeHtml(siteText(site))}</a>`;
}

function siteItem(site: WrittenBy, base: string | undefined): string {
  const via = site.via === undefined ? '' : ` <span class="ttl">run by ${siteLink(site.via, base)} (${escapeHtml(site.via.key)})</span>`;
  return `${siteLink(site, base)} <span class="site">${escapeHtml(site.command)}</span> <span class="ttl${site.ttl === 'atomic' ? '' : ' leaves'}">${escapeHtml(ttlLabel(site))}</span>${via}`;
}

/** The writtenBy cell: the first site, the others in a details element. */
function writtenByCell(writtenBy: readonly WrittenBy[] | null, base: string | undefined): string {
  if (writtenBy === null) return '';
  if (writtenBy.length === 0) return '<span class="none">no code</span>';
  const first = siteItem(writtenBy[0]!, base);
  if (writtenBy.length === 1) return first;
  return `${first}<details><summary>${writtenBy.length - 1} more</summary><ul class="sites">${writtenBy
    .slice(1)
    .map((s) => `<li>${siteItem(s, base)}</li>`)
    .join('')}</ul></details>`;
}

/** A stacked bar of a pattern's TTL buckets (no TTL first), 140 px wide. */
function miniHistogram(p: PatternReport): string {
  const counts = bucketsOf(p);
  const total = counts.reduce((a, b) => a + b, 0);
  let x = 0;
  const parts = counts
    .map((n, i) => {
      if (n === 0 || total === 0) return '';
      const width = (n / total) * 140;
      const rect = `<rect class="${HISTOGRAM[i]!.cls}" x="${x.toFixed(2)}" y="0" width="${width.toFixed(2)}" height="12"><title>${escapeHtml(HISTOGRAM[i]!.label)}: ${int(n)}</title></rect>`;
      x += width;
      return rect;
    })
    .join('');
  return `<svg class="mini" width="140" height="12" role="img" aria-label="TTL distribution">${parts}</svg>`;
}

/** Horizontal bars: keys without TTL of the patterns that have the most. */
function noTtlChart(report: AuditReport): string {
  const top = report.patterns
    .filter((p) => p.noTtl > 0)
    .sort((a, b) => b.noTtl - a.noTtl || (a.pattern < b.pattern ? -1 : 1))
    .slice(0, 20);
  if (top.length === 0) return '<p class="none">No key without TTL.</p>';
  const max = top[0]!.noTtl;
  const labelWidth = 260;
  const barWidth = 300;
  const rowHeight = 22;
  const bars = top
    .map((p, i) => {
      const y = i * rowHeight;
      const width = Math.max(1, (p.noTtl / max) * barWidth);
      const label = p.pattern.length > 38 ? `${p.pattern.slice(0, 37)}…` : p.pattern;
      return (
        `<g class="bar-row"><text class="label" x="${labelWidth - 6}" y="${y + 15}" text-anchor="end">${escapeHtml(label)}</text>` +
        `<rect class="bar bar-no-ttl" x="${labelWidth}" y="${y + 4}" width="${width.toFixed(2)}" height="14"><title>${escapeHtml(p.pattern)}: ${int(p.noTtl)} keys without TTL</title></rect>` +
        `<text x="${(labelWidth + width + 6).toFixed(2)}" y="${y + 15}">${int(p.noTtl)}</text></g>`
      );
    })
    .join('');
  const height = top.length * rowHeight + 4;
  return `<svg id="no-ttl-chart" width="${labelWidth + barWidth + 70}" height="${height}" viewBox="0 0 ${labelWidth + barWidth + 70} ${height}" role="img" aria-label="Keys without TTL per pattern">${bars}</svg>`;
}

/** Vertical bars: every key by remaining TTL, keys without TTL first. */
function ttlHistogram(report: AuditReport): string {
  const totals = HISTOGRAM.map(() => 0);
  for (const p of report.patterns) bucketsOf(p).forEach((n, i) => (totals[i]! += n));
  const max = Math.max(1, ...totals);
  const column = 70;
  const chartHeight = 160;
  const bars = totals
    .map((n, i) => {
      const height = n === 0 ? 0 : Math.max(1, (n / max) * chartHeight);
      const x = 10 + i * column;
      const y = 20 + chartHeight - height;
      return (
        `<g class="hist-bar"><rect class="${HISTOGRAM[i]!.cls}" x="${x}" y="${y.toFixed(2)}" width="${column - 16}" height="${height.toFixed(2)}"><title>${escapeHtml(HISTOGRAM[i]!.label)}: ${int(n)} keys</title></rect>` +
        `<text x="${x + (column - 16) / 2}" y="${(y - 5).toFixed(2)}" text-anchor="middle">${int(n)}</text>` +
        `<text x="${x + (column - 16) / 2}" y="${20 + chartHeight + 16}" text-anchor="middle">${escapeHtml(HISTOGRAM[i]!.label)}</text></g>`
      );
    })
    .join('');
  const width = 20 + HISTOGRAM.length * column;
  return `<svg id="ttl-histogram" width="${width}" height="${chartHeight + 44}" viewBox="0 0 ${width} ${chartHeight + 44}" role="img" aria-label="Keys by remaining TTL">${bars}</svg>`;
}

function legend(): string {
  return `<div class="legend">${HISTOGRAM.map((h, i) => `<span><i class="l${i}"></i>${escapeHtml(h.label)}</span>`).join('')}</div>`;
}

const examples = (keys: readonly string[]) =>
  keys.length === 0 ? '' : `<div class="examples">e.g. ${keys.map((k) => `<span class="key">${escapeHtml(k)}</span>`).join(', ')}</div>`;

function findingsSections(report: AuditReport, base: string | undefined): string {
  const findings = report.findings;
  if (findings === null) return '';
  const section = (id: string, title: string, items: string[], empty: string) =>
    `<section id="${id}"><h2>${escapeHtml(title)} <span class="count">(${items.length})</span></h2>${
      items.length === 0 ? `<p class="none">${escapeHtml(empty)}</p>` : `<ul class="findings">${items.map((i) => `<li>${i}</li>`).join('')}</ul>`
    }</section>`;
  const sites = (list: readonly WrittenBy[]) => (list.length === 0 ? '' : `<ul class="sites">${list.map((s) => `<li>${siteItem(s, base)}</li>`).join('')}</ul>`);
  const leaking = findings.leaking.map(
    (f) =>
      `<span class="key">${escapeHtml(f.pattern)}</span>: <b>${int(f.noTtl)}</b> of ${escapeHtml(count(f.keys, 'key'))} without TTL` +
      (f.cause === 'unwritten' ? ', written by no code' : f.cause === 'unexplained' ? ', though every write sets a TTL' : '') +
      sites(f.writtenBy) +
      examples(f.examples),
  );
  const unwritten = findings.unwritten.map(
    (f) =>
      `<span class="key">${escapeHtml(f.pattern)}</span>: ${escapeHtml(count(f.keys, 'key'))}, ${int(f.noTtl)} without TTL` +
      (f.readBy.length === 0 ? '' : `<ul class="sites">${f.readBy.map((r) => `<li>read at ${siteLink(r, base)} <span class="site">${escapeHtml(r.command)}</span></li>`).join('')}</ul>`) +
      examples(f.examples),
  );
  const unexplained = findings.unexplained.map(
    (f) => `<span class="key">${escapeHtml(f.pattern)}</span>: <b>${int(f.noTtl)}</b> of ${escapeHtml(count(f.keys, 'key'))} without TTL${sites(f.writtenBy)}${examples(f.examples)}`,
  );
  return (
    section('leaking', 'Leaking: keys without TTL, and the code that writes them', leaking, 'No pattern has keys without TTL.') +
    section('unwritten', 'Written by no code (another service, or code removed since)', unwritten, 'Every live pattern is written by code of the inventory.') +
    section(
      'unexplained',
      'TTL missing though every write sets one (a path the analysis does not see: worth a bug report)',
      unexplained,
      'Every key without TTL is explained by a write site.',
    ) +
    (findings.persistent.length === 0
      ? ''
      : `<section id="persistent"><h2>Kept without TTL on purpose <span class="count">(${findings.persistent.length})</span></h2><p>${findings.persistent
          .map((p) => `<span class="key">${escapeHtml(p.pattern)}</span> (${int(p.noTtl)})`)
          .join(', ')}</p></section>`)
  );
}

function growthSection(report: AuditReport): string {
  const growth = report.growth;
  if (growth === null) return '';
  const memory = growth.patterns.some((r) => r.memoryBytes !== null);
  const rows = growth.patterns
    .map(
      (r) =>
        `<tr class="${r.exceeded ? 'exceeded' : r.grew ? 'grew' : ''}"><td class="pattern">${escapeHtml(r.pattern)}</td>` +
        `<td class="num" data-v="${r.keysBefore}">${int(r.keysBefore)}</td><td class="num" data-v="${r.keys}">${int(r.keys)}</td>` +
        `<td class="num" data-v="${r.noTtlBefore}">${int(r.noTtlBefore)}</td><td class="num" data-v="${r.noTtl}">${int(r.noTtl)}</td>` +
        `<td class="num${r.grew ? ' bad' : ''}" data-v="${r.noTtlGrowth}">${escapeHtml(signed(r.noTtlGrowth))}</td>` +
        (memory ? `<td class="num" data-v="${r.memoryBytesBefore ?? 0}">${escapeHtml(formatBytes(r.memoryBytesBefore ?? 0))}</td><td class="num" data-v="${r.memoryBytes ?? 0}">${escapeHtml(formatBytes(r.memoryBytes ?? 0))}</td>` : '') +
        `<td>${r.exceeded ? '<span class="fail">FAIL</span>' : r.grew ? (r.persistent ? 'grew (persistent)' : 'grew') : ''}</td></tr>`,
    )
    .join('');
  const verdict =
    growth.failOnGrowth === null
      ? ''
      : growth.patterns.some((r) => r.exceeded)
        ? `<p class="fail">--fail-on-growth ${growth.failOnGrowth}: ${escapeHtml(count(growth.patterns.filter((r) => r.exceeded).length, 'pattern'))} grew by more than ${escapeHtml(count(growth.failOnGrowth, 'key'))} without TTL.</p>`
        : `<p class="ok">--fail-on-growth ${growth.failOnGrowth}: no pattern grew by more than ${escapeHtml(count(growth.failOnGrowth, 'key'))} without TTL.</p>`;
  return (
    `<section id="growth"><h2>Growth since ${escapeHtml(growth.baseline.file)}${growth.baseline.target === null ? '' : ` <span class="count">(${escapeHtml(growth.baseline.target)})</span>`}${growth.estimated ? ' <span class="count">estimated</span>' : ''}</h2>${verdict}` +
    `<table class="sortable"><thead><tr><th class="sortable">pattern</th><th class="num sortable">keys before</th><th class="num sortable">keys</th><th class="num sortable">no TTL before</th><th class="num sortable">no TTL</th><th class="num sortable">growth</th>${memory ? '<th class="num sortable">memory before</th><th class="num sortable">memory</th>' : ''}<th></th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

function patternsTable(report: AuditReport, base: string | undefined): string {
  const memory = report.totals.memoryBytes !== null;
  const inventory = report.findings !== null;
  const estimated = report.patterns.some((p) => p.estimatedKeys !== undefined);
  const head =
    '<th class="sortable">pattern</th><th class="num sortable">keys</th>' +
    (estimated ? '<th class="num sortable">est. keys</th>' : '') +
    '<th class="num sortable">no TTL</th><th class="num sortable">share</th>' +
    (memory ? '<th class="num sortable">memory</th>' : '') +
    TTL_BUCKETS.map((b) => `<th class="num sortable">TTL ${escapeHtml(b.label)}</th>`).join('') +
    '<th>TTLs</th>' +
    (inventory ? '<th>written by</th>' : '');
  const rows = report.patterns
    .map(
      (p) =>
        `<tr><td class="pattern">${escapeHtml(p.pattern)}</td><td class="num" data-v="${p.keys}">${int(p.keys)}</td>` +
        (estimated ? `<td class="num" data-v="${p.estimatedKeys ?? p.keys}">${int(p.estimatedKeys ?? p.keys)}</td>` : '') +
        `<td class="num${p.noTtl > 0 ? ' bad' : ''}" data-v="${p.noTtl}">${int(p.noTtl)}</td><td class="num" data-v="${p.noTtlShare}">${percent(p.noTtlShare)}</td>` +
        (memory ? `<td class="num" data-v="${p.memoryBytes ?? 0}">${escapeHtml(formatBytes(p.memoryBytes ?? 0))}</td>` : '') +
        TTL_BUCKETS.map((b) => `<td class="num" data-v="${p.ttl[b.label]}">${int(p.ttl[b.label])}</td>`).join('') +
        `<td>${miniHistogram(p)}</td>` +
        (inventory ? `<td class="written-by">${writtenByCell(p.writtenBy, base)}</td>` : '') +
        '</tr>',
    )
    .join('');
  return `<section id="patterns"><h2>Patterns <span class="count">(${report.patterns.length})</span></h2>${legend()}${
    report.patterns.length === 0 ? '<p class="none">No keys found.</p>' : `<table id="patterns-table" class="sortable"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`
  }</section>`;
}

function otherSections(report: AuditReport): string {
  const list = (id: string, title: string, items: string[]) =>
    items.length === 0 ? '' : `<section id="${id}"><h2>${escapeHtml(title)}</h2><ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul></section>`;
  const servers = report.nodes.map(
    (n) =>
      `${escapeHtml(n.address)} · redis ${escapeHtml(n.version)} · DBSIZE ${int(n.dbsize)} · maxmemory ${n.maxmemory === null ? '?' : n.maxmemory === 0 ? '0 (no limit)' : escapeHtml(formatBytes(n.maxmemory))} · policy ${escapeHtml(n.maxmemoryPolicy ?? '?')}`,
  );
  const warnings = report.warnings.map((w) => `<b>${escapeHtml(w.node)}</b>: ${escapeHtml(w.message)} <span class="examples">patterns: ${w.patterns.map((p) => `<span class="key">${escapeHtml(p)}</span>`).join(', ')}</span>`);
  const violations = report.violations.map((v) =>
    v.keys === 0
      ? `<span class="ok">ok</span> <span class="key">${escapeHtml(v.pattern)}</span>: every matching key has a TTL`
      : `<span class="fail">FAIL</span> <span class="key">${escapeHtml(v.pattern)}</span>: ${escapeHtml(count(v.keys, 'key'))} without TTL${examples(v.examples)}`,
  );
  const fix =
    report.fix === null
      ? []
      : [`EXPIRE &lt;key&gt; ${report.fix.seconds} NX added a TTL to ${escapeHtml(count(report.fix.changed, 'key'))} (${int(report.fix.skipped)} skipped)`];
  return (
    list('violations', 'Must expire (--fail-on-persistent)', violations) +
    list('fix', 'Fix (--fix-ttl)', fix) +
    list('warnings', 'Warnings', warnings) +
    list('notes', 'Notes', report.notes.map(escapeHtml)) +
    list('servers', 'Servers', servers)
  );
}

/**
 * The report as one HTML page (UTF-8), self-contained: see the module comment.
 * @param context `linkBase` makes the `file:line` links relative to where the page is saved.
 */
export function formatHtml(report: AuditReport, context: FormatContext): string {
  const { totals } = report;
  const title = `redis-ttl-audit · ${context.target}`;
  const csp = `default-src 'none'; style-src 'sha256-${sha256(CSS)}'; script-src 'sha256-${sha256(SCRIPT)}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const share = totals.keys === 0 ? 0 : totals.noTtl / totals.keys;
  const cards = [
    ['keys', int(totals.keys), ''],
    ['without TTL', `${int(totals.noTtl)} (${percent(share)})`, totals.noTtl > 0 ? 'bad' : ''],
    ['patterns', int(report.patterns.length), ''],
    ...(totals.memoryBytes === null ? [] : [['memory', formatBytes(totals.memoryBytes), '']]),
    ...(report.findings === null
      ? []
      : [
          ['leaking patterns', int(report.findings.leaking.length), report.findings.leaking.length > 0 ? 'bad' : ''],
          ['written by no code', int(report.findings.unwritten.length), ''],
          ['unexplained', int(report.findings.unexplained.length), report.findings.unexplained.length > 0 ? 'bad' : ''],
        ]),
  ]
    .map(([label, value, cls]) => `<div class="card${cls === '' ? '' : ` ${cls}`}"><b>${escapeHtml(value!)}</b>${escapeHtml(label!)}</div>`)
    .join('');
  const servers = report.nodes.length === 1 ? '1 server' : `${report.nodes.length} masters`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${CSS}</style></head><body>`,
    `<header><h1>${escapeHtml(title)}</h1><p>redis-ttl-audit ${escapeHtml(context.version)}${context.cluster ? ' · cluster' : ''} · ${servers} · ${escapeHtml(count(totals.keys, 'key'))} in ${escapeHtml(count(report.patterns.length, 'pattern'))} · ${(totals.elapsedMs / 1000).toFixed(1)} s, ${int(totals.commands)} commands</p></header>`,
    `<main><div class="cards">${cards}</div>`,
    `<div class="charts"><section><h2>Keys without TTL per pattern</h2>${noTtlChart(report)}</section><section><h2>Keys by remaining TTL</h2>${ttlHistogram(report)}</section></div>`,
    findingsSections(report, context.linkBase),
    growthSection(report),
    patternsTable(report, context.linkBase),
    otherSections(report),
    `</main><script>${SCRIPT}</script></body></html>`,
  ].join('\n');
}
