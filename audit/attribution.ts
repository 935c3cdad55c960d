/**
 * The join of a key inventory (inventory/format.ts) with the audit: the inventories given are
 * merged into one set of live shapes (keyPrefix + shape), each with the write sites that make its
 * keys, and compiled into a {@link ShapeIndex} that the scan asks for every key. The findings
 * of an audit with an inventory (leaking patterns, patterns no code writes, TTL-less keys no
 * write site explains) are computed here from the patterns of the report.
 */
import path from 'node:path';
import { type InventoryDocument, isPersistentShape, type Lifecycle, lifecycleText, type Site, type TtlStatus, type WriteSite } from '../inventory/format.js';
import { compileShape, ShapeIndex } from '../inventory/match.js';
import { escapeGlob } from './fold.js';

/**
 * An inventory handed to the audit: the document, and the directory its `root` is relative to.
 * `redis-ttl-audit --inventory <file>` passes the file's directory; the producer's library
 * function (the future `--source <dir>`) will pass its document with the source directory.
 */
export interface InventoryInput {
  document: InventoryDocument;
  /** The directory `document.root` is relative to (absolute, or relative to the working directory). */
  base: string;
}

/** A write site as reports show it: `file` relative to the working directory, `/` separators. */
export interface WrittenBy {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** The Redis command written there (for a Lua script, its `redis.call`'s). */
  command: string;
  /** What the site does about the TTL (see TTL_STATUSES in inventory/format.ts). */
  ttl: TtlStatus;
  /** For a write inside a Lua script: the call that runs it, and the script's key expression. */
  via?: { file: string; line: number; column: number; key: string };
  /**
   * For a write without TTL of a key whose life the code manages (deleted elsewhere, a drained
   * queue, an ID sequence ...; see Lifecycle in inventory/format.ts), `by.file` shown as `file`.
   */
  lifecycle?: Lifecycle;
}

/** A read site as reports show it. */
export interface ReadBy {
  file: string;
  line: number;
  column: number;
  command: string;
}

/** One live shape of the merged inventories. */
export interface AttributedShape {
  /** Index in {@link Attribution.shapes}. */
  id: number;
  /** keyPrefix + shape, runs of `*` as one. */
  shape: string;
  /** The shape as a Redis glob (its literal text escaped): what reports show as the pattern. */
  pattern: string;
  /** Kept without TTL on purpose in every inventory that has it (isPersistentShape). */
  persistent: boolean;
  /** Sorted by file, line, column; no duplicates. */
  writtenBy: WrittenBy[];
  readBy: ReadBy[];
}

/** The merged inventories, ready for the scan. */
export interface Attribution {
  shapes: AttributedShape[];
  /** Shapes used to attribute keys (the too broad ones are left out). */
  index: ShapeIndex<AttributedShape>;
  /** What the report should say about the inventories: too broad shapes, unresolved writes. */
  notes: string[];
}

/** `file` of an inventory, relative to `cwd`, `/` separators. */
function shownPath(input: InventoryInput, file: string, cwd: string): string {
  const absolute = path.resolve(cwd, input.base, input.document.root, file);
  const relative = path.relative(cwd, absolute);
  return (relative === '' ? '.' : relative).split(path.sep).join('/');
}

const bySite = (a: { file: string; line: number; column: number }, b: { file: string; line: number; column: number }) =>
  (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column;

/** `src/store.ts:7:9` */
export function siteText(site: { file: string; line: number; column: number }): string {
  return `${site.file}:${site.line}:${site.column}`;
}

const MAX_LISTED = 5;

/**
 * Merges inventories into live shapes and compiles them. Shapes with the same live spelling
 * (keyPrefix + shape) in several inventories are one shape with all their sites; it is
 * persistent only when every inventory says so.
 * @param inputs the inventories (an empty list gives an empty attribution)
 * @param cwd the directory report paths are relative to (default: the process's)
 */
export function buildAttribution(inputs: readonly InventoryInput[], cwd = process.cwd()): Attribution {
  const byShape = new Map<string, AttributedShape & { sites: Set<string> }>();
  let unresolved = 0;
  const unresolvedExamples: string[] = [];
  for (const input of inputs) {
    for (const entry of input.document.shapes) {
      const live = compileShape(`${entry.keyPrefix ?? ''}${entry.shape}`).shape;
      let shape = byShape.get(live);
      if (shape === undefined) {
        shape = {
          id: byShape.size,
          shape: live,
          pattern: live.split('*').map(escapeGlob).join('*'),
          persistent: true,
          writtenBy: [],
          readBy: [],
          sites: new Set(),
        };
        byShape.set(live, shape);
      }
      shape.persistent &&= isPersistentShape(entry);
      for (const write of entry.writes) {
        const shown = writtenBy(input, write, cwd);
        const id = `w${siteText(shown)}:${shown.command}`;
        if (shape.sites.has(id)) continue;
        shape.sites.add(id);
        shape.writtenBy.push(shown);
      }
      for (const read of entry.reads ?? []) {
        const shown = readBy(input, read, cwd);
        const id = `r${siteText(shown)}:${shown.command}`;
        if (shape.sites.has(id)) continue;
        shape.sites.add(id);
        shape.readBy.push(shown);
      }
    }
    for (const write of input.document.unresolved ?? []) {
      unresolved += 1;
      if (unresolvedExamples.length < MAX_LISTED) unresolvedExamples.push(`${write.key} at ${shownPath(input, write.file, cwd)}:${write.line}:${write.column}`);
    }
  }
  const shapes: AttributedShape[] = [...byShape.values()].map(({ sites: _sites, ...shape }) => {
    shape.writtenBy.sort(bySite);
    shape.readBy.sort(bySite);
    return shape;
  });
  const index = new ShapeIndex(shapes.map((shape) => ({ shape: shape.shape, value: shape })));
  const notes: string[] = [];
  if (index.skipped.length > 0) {
    const listed = index.skipped.slice(0, MAX_LISTED).map((s) => `'${s.shape}'${s.value.writtenBy[0] ? ` (${siteText(s.value.writtenBy[0])})` : ''}`);
    const more = index.skipped.length - listed.length;
    notes.push(
      `${index.skipped.length} inventory ${index.skipped.length === 1 ? 'shape is' : 'shapes are'} too broad to attribute keys (no literal part of 3 or more characters): ` +
        `${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}; their keys are grouped by folding.`,
    );
  }
  if (unresolved > 0) {
    notes.push(
      `${unresolved} inventory write ${unresolved === 1 ? 'site writes a key' : 'sites write keys'} the analysis could not spell (${unresolvedExamples.join(', ')}` +
        `${unresolved > unresolvedExamples.length ? ', ...' : ''}): the keys they make, if any, show up as written by no code.`,
    );
  }
  return { shapes, index, notes };
}

function writtenBy(input: InventoryInput, write: WriteSite, cwd: string): WrittenBy {
  return {
    file: shownPath(input, write.file, cwd),
    line: write.line,
    column: write.column,
    command: write.command,
    ttl: write.ttl,
    ...(write.via === undefined ? {} : { via: { file: shownPath(input, write.via.file, cwd), line: write.via.line, column: write.via.column, key: write.via.key } }),
    ...(write.lifecycle === undefined
      ? {}
      : { lifecycle: { reading: write.lifecycle.reading, ...(write.lifecycle.by ? { by: { ...write.lifecycle.by, file: shownPath(input, write.lifecycle.by.file, cwd) } } : {}) } }),
  };
}

function readBy(input: InventoryInput, read: Site, cwd: string): ReadBy {
  return { file: shownPath(input, read.file, cwd), line: read.line, column: read.column, command: read.command };
}

/** What each TTL status means, in a few words, for reports. */
export const TTL_LABELS: Record<TtlStatus, string> = {
  atomic: 'sets the TTL',
  separate: 'EXPIRE in another round trip',
  none: 'no TTL',
  keepttl: 'keeps a TTL, none on a new key',
  persistent: 'persistent on purpose',
};

/**
 * What a site does about the TTL, for reports: its {@link TTL_LABELS} label, and for a key the code
 * manages, how (`no TTL (deleted by the DEL at src/cleanup.ts:5:15)`).
 */
export function ttlLabel(site: Pick<WrittenBy, 'ttl' | 'lifecycle'>): string {
  return `${TTL_LABELS[site.ttl]}${site.lifecycle ? ` (${lifecycleText(site.lifecycle)})` : ''}`;
}

/** Write sites after which a key may lack a TTL: every status but `atomic`. */
export function leavesNoTtl(site: WrittenBy): boolean {
  return site.ttl !== 'atomic';
}

/** A live pattern with keys without TTL, and the code that writes it. */
export interface LeakFinding {
  pattern: string;
  /** The inventory shape, or null for a pattern no shape matched. */
  shape: string | null;
  keys: number;
  noTtl: number;
  /**
   * Why keys lack a TTL: `site`, a write site leaves one without (`none`, `keepttl`, `separate`,
   * `persistent`); `unwritten`, no code of the inventories writes the pattern; `unexplained`,
   * every write site sets a TTL atomically (see {@link UnexplainedFinding}).
   */
  cause: 'site' | 'unwritten' | 'unexplained';
  /** The write sites, those that may leave a key without TTL first. */
  writtenBy: WrittenBy[];
  /** Keys without TTL. */
  examples: string[];
}

/** A live pattern that no code of the inventories writes. */
export interface UnwrittenFinding {
  pattern: string;
  keys: number;
  noTtl: number;
  /** Read sites, when a shape with reads only matched. */
  readBy: ReadBy[];
  /** Keys of the pattern. */
  examples: string[];
}

/** A shape whose every write site sets a TTL atomically, yet whose live keys lack one. */
export interface UnexplainedFinding {
  pattern: string;
  shape: string;
  keys: number;
  noTtl: number;
  writtenBy: WrittenBy[];
  /** Keys without TTL. */
  examples: string[];
}

/** The findings of an audit with an inventory. */
export interface Findings {
  /** Patterns with keys without TTL not declared persistent, most keys without TTL first. */
  leaking: LeakFinding[];
  /** Live patterns no code writes (another service, removed code), most keys first. */
  unwritten: UnwrittenFinding[];
  /**
   * Keys without TTL no write site explains: every site sets the TTL atomically, so they come by
   * a path the static analysis does not see (worth a bug report); most keys without TTL first.
   */
  unexplained: UnexplainedFinding[];
  /** Patterns with keys without TTL whose shape is declared persistent: not leaks. */
  persistent: { pattern: string; keys: number; noTtl: number }[];
}

/** The parts of a report pattern the findings read. */
interface PatternLike {
  pattern: string;
  shape: string | null;
  keys: number;
  noTtl: number;
  writtenBy: WrittenBy[] | null;
  examples: string[];
  noTtlExamples: string[];
}

/**
 * The findings of the join, from the report's patterns.
 * @param shapeOf the inventory shape a pattern stands for (undefined for a folded pattern)
 */
export function computeFindings<P extends PatternLike>(patterns: readonly P[], shapeOf: (pattern: P) => AttributedShape | undefined): Findings {
  const findings: Findings = { leaking: [], unwritten: [], unexplained: [], persistent: [] };
  for (const p of patterns) {
    const shape = shapeOf(p);
    const sites = p.writtenBy ?? [];
    if (sites.length === 0) {
      findings.unwritten.push({ pattern: p.pattern, keys: p.keys, noTtl: p.noTtl, readBy: shape?.readBy ?? [], examples: p.examples });
    }
    if (p.noTtl === 0) continue;
    if (shape?.persistent === true) {
      findings.persistent.push({ pattern: p.pattern, keys: p.keys, noTtl: p.noTtl });
      continue;
    }
    const leaving = sites.filter(leavesNoTtl);
    const cause = sites.length === 0 ? 'unwritten' : leaving.length > 0 ? 'site' : 'unexplained';
    findings.leaking.push({
      pattern: p.pattern,
      shape: p.shape,
      keys: p.keys,
      noTtl: p.noTtl,
      cause,
      writtenBy: [...leaving, ...sites.filter((s) => !leavesNoTtl(s))],
      examples: p.noTtlExamples,
    });
    if (cause === 'unexplained') {
      findings.unexplained.push({ pattern: p.pattern, shape: p.shape!, keys: p.keys, noTtl: p.noTtl, writtenBy: sites, examples: p.noTtlExamples });
    }
  }
  const byName = (a: { pattern: string }, b: { pattern: string }) => (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0);
  findings.leaking.sort((a, b) => b.noTtl - a.noTtl || byName(a, b));
  findings.unexplained.sort((a, b) => b.noTtl - a.noTtl || byName(a, b));
  findings.unwritten.sort((a, b) => b.keys - a.keys || byName(a, b));
  findings.persistent.sort((a, b) => b.noTtl - a.noTtl || byName(a, b));
  return findings;
}
