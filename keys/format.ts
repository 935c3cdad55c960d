/**
 * The outputs of `redis-ttl-keys`: a table for the terminal, Markdown for a pull request or a
 * wiki, JSON (exactly inventory/format.ts's document, the file `redis-ttl-audit --inventory`
 * reads), and the `persistentKeys` block of `--persistent-config`.
 */
import { isPersistentShape, serializeInventory, TTL_STATUSES, type InventoryDocument, type InventoryShape, lifecycleText, type TtlStatus, type WriteSite } from '../inventory/format.js';
import { compileShape, tooBroad } from '../inventory/match.js';
import { keyPatternMatcher } from '../semantics/key-patterns.js';
import type { ConfigModuleFormat } from './config-format.js';

/** The output formats of `redis-ttl-keys`. */
export const KEYS_FORMATS = ['table', 'json', 'markdown'] as const;
/** One of {@link KEYS_FORMATS}. */
export type KeysFormat = (typeof KEYS_FORMATS)[number];

/** Statuses that leave keys without TTL for good: the shape's keys can pile up. */
const LEAKING: ReadonlySet<TtlStatus> = new Set<TtlStatus>(['none', 'keepttl']);

/** What the statuses mean, in a few words (the table's legend). */
const STATUS_TEXT: Record<TtlStatus, string> = {
  atomic: 'TTL set with the write (or in the same MULTI / script)',
  separate: 'expiry in another round trip: a crash between them leaves no TTL',
  none: 'no expiry: keys without TTL',
  keepttl: 'keeps an existing TTL, creates a missing key without one',
  persistent: 'kept without TTL on purpose (persistentKeys, annotation)',
};

/**
 * The inventory in a format (without a final newline, except JSON's).
 * @param format `table`, `json` or `markdown`
 * @param document the inventory
 */
export function formatInventory(format: KeysFormat, document: InventoryDocument): string {
  if (format === 'json') return serializeInventory(document).trimEnd();
  return format === 'markdown' ? markdown(document) : table(document);
}

/** `file:line:column`. */
const where = (site: { file: string; line: number; column: number }) => `${site.file}:${site.line}:${site.column}`;

/** A shape's status counts in the order of {@link TTL_STATUSES}: `none 1, separate 1`. */
function statusSummary(shape: InventoryShape): string {
  const counts = new Map<TtlStatus, number>();
  for (const w of shape.writes) counts.set(w.ttl, (counts.get(w.ttl) ?? 0) + 1);
  return [...TTL_STATUSES]
    .sort((a, b) => order(a) - order(b))
    .filter((s) => counts.has(s))
    .map((s) => `${s} ${counts.get(s)}`)
    .join(', ');
}

/** Leaks first in summaries: none, keepttl, separate, then the safe ones. */
function order(status: TtlStatus): number {
  return ['none', 'keepttl', 'separate', 'persistent', 'atomic'].indexOf(status);
}

/** The notes after a write's status: an optional TTL, a key the code manages. */
function notes(write: WriteSite): string {
  const optional = write.optionalTtl ? ' (when the caller passes no TTL)' : '';
  const lifecycle = write.lifecycle ? ` (${lifecycleText(write.lifecycle)})` : '';
  return `${optional}${lifecycle}`;
}

function siteText(write: WriteSite): string {
  const via = write.via ? `  (script run at ${where(write.via)}, ${write.via.key})` : '';
  return `${where(write)}  ${write.command} ${write.client}  ${write.ttl}${notes(write)}${via}`;
}

function footer(document: InventoryDocument): string[] {
  const writes = document.shapes.flatMap((s) => s.writes);
  const files = new Set([...writes.map((w) => w.file), ...(document.unresolved ?? []).map((w) => w.file)]);
  const leaking = document.shapes.filter((s) => s.writes.some((w) => LEAKING.has(w.ttl)));
  const broad = document.shapes.filter((s) => tooBroad(compileShape(`${s.keyPrefix ?? ''}${s.shape}`)) !== undefined);
  const lines = [
    `${document.shapes.length} ${plural(document.shapes.length, 'shape')}, ${writes.length} write ${plural(writes.length, 'site')} in ${files.size} ${plural(files.size, 'file')}; ` +
      `${leaking.length} ${plural(leaking.length, 'shape')} written without TTL.`,
  ];
  if (broad.length > 0) lines.push(`Too broad to match live keys (the audit does not attribute them): ${broad.map((s) => s.shape).join(', ')}.`);
  const unresolved = document.unresolved ?? [];
  if (unresolved.length > 0) {
    lines.push(`${unresolved.length} script ${plural(unresolved.length, 'write')} with a key no call in the same file spells:`);
    for (const u of unresolved) lines.push(`  ${where(u)}  ${u.command} ${u.key}  ${u.ttl}${notes(u)}`);
  }
  return lines;
}

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);

function table(document: InventoryDocument): string {
  if (document.shapes.length === 0 && (document.unresolved ?? []).length === 0) return 'No Redis key writes found.';
  const lines: string[] = [];
  for (const shape of document.shapes) {
    const persistent = isPersistentShape(shape) ? ' (persistent)' : '';
    lines.push(`${shape.keyPrefix ?? ''}${shape.shape}${persistent}  ${statusSummary(shape)}`);
    for (const write of shape.writes) lines.push(`  write ${siteText(write)}`);
    for (const read of shape.reads ?? []) lines.push(`  read  ${where(read)}  ${read.command} ${read.client}`);
  }
  lines.push('', ...footer(document));
  lines.push('TTL: ' + TTL_STATUSES.map((s) => `${s} = ${STATUS_TEXT[s]}`).join('; ') + '.');
  return lines.join('\n');
}

/** Markdown text of a table cell: `|` and line breaks escaped. */
const cell = (text: string) => text.replaceAll('|', '\\|').replace(/\r?\n/g, ' ');

function markdown(document: InventoryDocument): string {
  const lines = ['| Shape | TTL | Write sites | Reads |', '| --- | --- | --- | --- |'];
  for (const shape of document.shapes) {
    const writes = shape.writes.map((w) => `\`${where(w)}\` ${w.command} (${w.client}): ${w.ttl}${notes(w)}${w.via ? `, script run at \`${where(w.via)}\`` : ''}`).join('<br>');
    const reads = (shape.reads ?? []).map((r) => `\`${where(r)}\` ${r.command}`).join('<br>');
    lines.push(`| \`${cell(`${shape.keyPrefix ?? ''}${shape.shape}`)}\`${isPersistentShape(shape) ? ' (persistent)' : ''} | ${statusSummary(shape)} | ${cell(writes)} | ${cell(reads)} |`);
  }
  lines.push('', ...footer(document).map((l) => (l.startsWith('  ') ? `- \`${l.trim()}\`` : l)));
  return lines.join('\n');
}

/**
 * The shapes a `--persistent-config` block lists: shapes with a write that leaves keys without TTL
 * (`none`, `keepttl`) other than the no-TTL arm of an optional TTL (`optionalTtl`: the caller
 * chose no TTL; declaring the shape persistent would silence the key when the caller gets it
 * wrong), not already persistent, not too broad to be a pattern (`*` would silence
 * every key), and, when `only` is given, matching one of those patterns (persistentKeys syntax).
 * Never a shape the code gives a TTL somewhere (see {@link spellsTtl}): it is meant to expire,
 * and its write without TTL is a leak to fix, not a key to declare.
 * @param ttlSpelled the inventory's `InventoryResult.ttlSpelled` shapes (keys/inventory.ts), when known
 */
export function persistentCandidates(document: InventoryDocument, only: readonly string[] = [], ttlSpelled: ReadonlySet<string> = new Set()): InventoryShape[] {
  const matchers = only.map((p) => keyPatternMatcher(p));
  return document.shapes.filter(
    (s) =>
      !isPersistentShape(s) &&
      s.writes.some((w) => LEAKING.has(w.ttl) && w.optionalTtl !== true) &&
      !spellsTtl(s, ttlSpelled) &&
      tooBroad(compileShape(s.shape)) === undefined &&
      (matchers.length === 0 || matchers.some((m) => m(s.shape))),
  );
}

/**
 * Whether the code gives a shape a TTL somewhere: a write of it sets one (`atomic`, or `separate`:
 * an expiry follows), or, beyond the document, an expiry command names it or a write's TTL is
 * dropped by its client (`ttlSpelled`, from the inventory build).
 */
function spellsTtl(shape: InventoryShape, ttlSpelled: ReadonlySet<string>): boolean {
  return ttlSpelled.has(shape.shape) || shape.writes.some((w) => w.ttl === 'atomic' || w.ttl === 'separate');
}

/**
 * The flat-config block declaring `shapes` persistent (`settings['redis-ttl'].persistentKeys`),
 * each pattern with its write sites in a comment, ready to paste into `eslint.config.js`.
 * @param shapes from {@link persistentCandidates}
 * @param only the `--only` patterns given (said in the header comment)
 */
export function persistentConfig(shapes: readonly InventoryShape[], only: readonly string[] = [], options: PersistentConfigOptions = {}): string {
  const left = leftOut(options.tooBroad ?? []);
  if (shapes.length === 0) {
    return [
      only.length > 0
        ? `// No shape written without TTL matches ${only.map((p) => `'${p}'`).join(', ')}: nothing to declare.`
        : '// No shape is written without TTL: nothing to declare persistent.',
      ...left,
    ].join('\n');
  }
  const format = options.format ?? 'esm';
  const lines = [
    `// settings['redis-ttl'].persistentKeys for ${shapes.length} key ${plural(shapes.length, 'shape')} written without TTL (redis-ttl-keys).`,
    ...left,
    only.length > 0
      ? `// Chosen with --only ${only.map((p) => `'${p}'`).join(' --only ')}: these keys are kept without TTL on purpose.`
      : '// Review: keep the lines of keys kept without TTL on purpose (queues, registries); delete the others and fix their writes.',
    '// Add the patterns to an existing persistentKeys list; every rule and redis-ttl-audit --source then leave these keys alone.',
    ...(format === 'unknown' ? ['// ES module syntax: in a CommonJS project write it in eslint.config.mjs, or as module.exports = [...] in eslint.config.cjs.'] : []),
    format === 'commonjs' ? 'module.exports = [' : 'export default [',
    '  {',
    '    settings: {',
    "      'redis-ttl': {",
    '        persistentKeys: [',
  ];
  for (const shape of shapes) {
    const leaks = shape.writes.filter((w) => LEAKING.has(w.ttl));
    const sites = leaks.slice(0, 3).map((w) => `${where(w)} ${w.command}`).join(', ') + (leaks.length > 3 ? `, and ${leaks.length - 3} more` : '');
    lines.push(`          ${quote(shape.shape)}, // ${sites}`);
  }
  lines.push('        ],', '      },', '    },', '  },', '];');
  return lines.join('\n');
}

/** How {@link persistentConfig} prints its block. */
export interface PersistentConfigOptions {
  /** Shapes written without TTL but too broad to be a pattern ({@link tooBroadCandidates}): named as left out. */
  tooBroad?: readonly InventoryShape[];
  /** The module syntax of the project's ESLint config (`keys/config-format.ts`); default ESM. */
  format?: ConfigModuleFormat;
}

/**
 * The shapes written without TTL that {@link persistentCandidates} leaves out because they are too
 * broad to be a pattern (`*`: the key is a run-time value the linter cannot spell; declaring it
 * would silence every key), with the same other conditions (`only` included).
 */
export function tooBroadCandidates(document: InventoryDocument, only: readonly string[] = [], ttlSpelled: ReadonlySet<string> = new Set()): InventoryShape[] {
  const matchers = only.map((p) => keyPatternMatcher(p));
  return document.shapes.filter(
    (s) =>
      !isPersistentShape(s) &&
      s.writes.some((w) => LEAKING.has(w.ttl) && w.optionalTtl !== true) &&
      !spellsTtl(s, ttlSpelled) &&
      tooBroad(compileShape(s.shape)) !== undefined &&
      (matchers.length === 0 || matchers.some((m) => m(s.shape))),
  );
}

/** The comment lines naming the shapes left out as too broad (none when there are none). */
function leftOut(shapes: readonly InventoryShape[]): string[] {
  if (shapes.length === 0) return [];
  const sites = shapes.flatMap((s) => s.writes.filter((w) => LEAKING.has(w.ttl) && w.optionalTtl !== true));
  const shown = sites.slice(0, 3).map((w) => `${where(w)} ${w.command}`).join(', ') + (sites.length > 3 ? `, and ${sites.length - 3} more` : '');
  return [
    `// Left out: ${shapes.length} ${plural(shapes.length, 'shape')} too broad to declare (${shapes.map((s) => `'${s.shape}'`).join(', ')}: a pattern would silence every key), written without TTL at ${shown}; fix those writes or build their keys from a named family.`,
  ];
}

/** A single-quoted JS string. */
function quote(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
