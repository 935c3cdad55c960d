/**
 * Growth between runs: an audit compared with the JSON report of an earlier one
 * (`--baseline previous.json`), pattern by pattern: keys, keys without TTL and memory then and
 * now. `--fail-on-growth <n>` fails the run when a pattern has more than `n` keys without TTL
 * beyond its count in the baseline (a pattern absent from the baseline counts from 0; patterns
 * whose inventory shape is declared persistent are never a failure).
 */
import { readText } from '../inventory/format.js';
import type { PatternReport, SampleEstimate } from './audit.js';
import { AuditError } from './errors.js';

/** A pattern's counts in the baseline (estimates when the baseline was a sample that stopped early). */
export interface BaselinePattern {
  keys: number;
  noTtl: number;
  /** Bytes; null when the baseline did not measure memory. */
  memoryBytes: number | null;
}

/** An earlier report, read for comparison. */
export interface Baseline {
  /** The file it came from. */
  source: string;
  /** The server it audited (its URL, password redacted), as the report says. */
  target: string | null;
  /** Whether its counts are estimates (a `--sample` run that stopped early). */
  sampled: boolean;
  /** Whether it measured memory (`--memory`). */
  memory: boolean;
  patterns: Map<string, BaselinePattern>;
}

/** One pattern then and now. */
export interface GrowthRow {
  pattern: string;
  /** Keys in the baseline (0 when the pattern was not there). */
  keysBefore: number;
  keys: number;
  /** Keys without TTL in the baseline (0 when the pattern was not there). */
  noTtlBefore: number;
  noTtl: number;
  /** noTtl - noTtlBefore. */
  noTtlGrowth: number;
  /** Bytes; null unless both runs measured memory (`--memory`). */
  memoryBytesBefore: number | null;
  memoryBytes: number | null;
  /** The pattern's inventory shape is declared persistent: growth never fails the run. */
  persistent: boolean;
  /** More keys without TTL than in the baseline. */
  grew: boolean;
  /** Grew by more than `--fail-on-growth` keys (and not persistent). */
  exceeded: boolean;
}

/** The comparison with a baseline. */
export interface Growth {
  /** The baseline file and the server it audited. */
  baseline: { file: string; target: string | null };
  /** Whether the counts compared are estimates (either run was a `--sample` that stopped early). */
  estimated: boolean;
  /** The `--fail-on-growth` threshold in keys, or null. */
  failOnGrowth: number | null;
  /**
   * Every pattern of either run, the largest growth of keys without TTL first (then the largest
   * growth of keys, then by name); a pattern gone since has `keys` 0.
   */
  patterns: GrowthRow[];
}

/**
 * A pattern's counts; when `sampled`, scaled to the whole keyspace by the pattern's
 * `estimatedKeys / keys` (keys without TTL and memory in the same proportion).
 */
function counts(p: { keys: number; noTtl: number; memoryBytes: number | null; estimatedKeys?: number | undefined }, sampled: boolean): BaselinePattern {
  const scale = sampled && p.estimatedKeys !== undefined && p.keys > 0 ? p.estimatedKeys / p.keys : 1;
  return { keys: Math.round(p.keys * scale), noTtl: Math.round(p.noTtl * scale), memoryBytes: p.memoryBytes === null ? null : Math.round(p.memoryBytes * scale) };
}

/**
 * Adds a pattern's counts to `map` (one pattern name may come twice: a shape's and a folded
 * pattern's spelling can coincide); `persistent` holds only when it holds for both.
 */
function addCounts<E extends { persistent?: boolean }>(map: Map<string, BaselinePattern & E>, pattern: string, add: BaselinePattern, extra: E): void {
  const existing = map.get(pattern);
  if (existing === undefined) {
    map.set(pattern, { ...add, ...extra });
    return;
  }
  existing.keys += add.keys;
  existing.noTtl += add.noTtl;
  existing.memoryBytes = existing.memoryBytes === null || add.memoryBytes === null ? null : existing.memoryBytes + add.memoryBytes;
  if (existing.persistent !== undefined) existing.persistent &&= extra.persistent === true;
}

/** `<file>: <JSON path>: <problem>` as an AuditError (the CLI exits with 2). */
function bad(source: string, where: string, problem: string): AuditError {
  return new AuditError(`${source}: ${where}${where === '' ? '' : ': '}${problem}`);
}

function count(source: string, where: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw bad(source, where, `expected a whole number >= 0, got ${JSON.stringify(value) ?? String(value)}`);
  return value;
}

/**
 * Reads an earlier report of `redis-ttl-audit --format json`.
 * @param text its JSON text
 * @param source the file name, for messages
 * @throws {AuditError} naming the file and the JSON path when the text is not JSON or not such a report
 */
export function parseBaseline(text: string, source: string): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw bad(source, '', `not valid JSON (${(error as Error).message.replace(/, ".*" is not valid JSON$/s, '')}): --baseline takes a report of redis-ttl-audit --format json`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { tool?: unknown }).tool !== 'redis-ttl-audit') {
    throw bad(source, '$.tool', 'not a report of redis-ttl-audit --format json (no "tool": "redis-ttl-audit")');
  }
  const report = value as Record<string, unknown>;
  if (!Array.isArray(report.patterns)) throw bad(source, '$.patterns', 'expected an array');
  const sample = report.sample as { stoppedEarly?: unknown } | null | undefined;
  const sampled = typeof sample === 'object' && sample !== null && sample.stoppedEarly === true;
  const patterns = new Map<string, BaselinePattern>();
  for (const [i, entry] of (report.patterns as unknown[]).entries()) {
    const where = `$.patterns[${i}]`;
    if (typeof entry !== 'object' || entry === null) throw bad(source, where, 'expected an object');
    const p = entry as Record<string, unknown>;
    if (typeof p.pattern !== 'string') throw bad(source, `${where}.pattern`, 'expected a string');
    const keys = count(source, `${where}.keys`, p.keys);
    const noTtl = count(source, `${where}.noTtl`, p.noTtl);
    const memoryBytes = p.memoryBytes === null || p.memoryBytes === undefined ? null : count(source, `${where}.memoryBytes`, p.memoryBytes);
    const estimatedKeys = p.estimatedKeys === undefined ? undefined : count(source, `${where}.estimatedKeys`, p.estimatedKeys);
    addCounts(patterns, p.pattern, counts({ keys, noTtl, memoryBytes, estimatedKeys }, sampled), {});
  }
  const totals = report.totals as { memoryBytes?: unknown } | undefined;
  const memory = typeof totals === 'object' && totals !== null && typeof totals.memoryBytes === 'number';
  return { source, target: typeof report.target === 'string' ? report.target : null, sampled, memory, patterns };
}

/**
 * Reads and parses a baseline file (see {@link parseBaseline}).
 * @throws {AuditError} when the file cannot be read or is not a report
 */
export async function readBaselineFile(file: string): Promise<Baseline> {
  const read = await readText(file);
  if ('problem' in read) throw bad(file, '', `cannot read the baseline (${read.problem})`);
  return parseBaseline(read.text, file);
}

/**
 * Compares the patterns of a run with a baseline.
 * @param patterns the run's patterns
 * @param sample the run's sample estimate (null for a full scan): a sample that stopped early is
 *   compared by its estimates
 * @param memory whether the run measured memory
 * @param failOnGrowth the threshold in keys without TTL, or undefined
 * @param persistent whether a pattern's shape is declared persistent
 * @param notes the run's notes (a note is added when estimates are compared)
 */
export function compareWithBaseline(
  patterns: readonly PatternReport[],
  sample: SampleEstimate | null,
  memory: boolean,
  baseline: Baseline,
  failOnGrowth: number | undefined,
  persistent: (pattern: PatternReport) => boolean,
  notes: Set<string>,
): Growth {
  const sampled = sample?.stoppedEarly === true;
  const now = new Map<string, BaselinePattern & { persistent: boolean }>();
  for (const p of patterns) addCounts(now, p.pattern, counts(p, sampled), { persistent: persistent(p) });
  const names = new Set([...now.keys(), ...baseline.patterns.keys()]);
  const rows: GrowthRow[] = [];
  for (const pattern of names) {
    const after = now.get(pattern);
    const before = baseline.patterns.get(pattern);
    const noTtl = after?.noTtl ?? 0;
    const noTtlBefore = before?.noTtl ?? 0;
    const memoryKnown = memory && baseline.memory;
    const growth = noTtl - noTtlBefore;
    const isPersistent = after?.persistent ?? false;
    rows.push({
      pattern,
      keysBefore: before?.keys ?? 0,
      keys: after?.keys ?? 0,
      noTtlBefore,
      noTtl,
      noTtlGrowth: growth,
      memoryBytesBefore: memoryKnown ? (before?.memoryBytes ?? 0) : null,
      memoryBytes: memoryKnown ? (after?.memoryBytes ?? 0) : null,
      persistent: isPersistent,
      grew: growth > 0,
      exceeded: failOnGrowth !== undefined && growth > failOnGrowth && !isPersistent,
    });
  }
  rows.sort(
    (a, b) => b.noTtlGrowth - a.noTtlGrowth || b.keys - b.keysBefore - (a.keys - a.keysBefore) || (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0),
  );
  const estimated = sampled || baseline.sampled;
  if (estimated) notes.add(`Growth compares estimates: ${sampled ? 'this run' : 'the baseline'}${sampled && baseline.sampled ? ' and the baseline were' : ' was'} a --sample that stopped early.`);
  return { baseline: { file: baseline.source, target: baseline.target }, estimated, failOnGrowth: failOnGrowth ?? null, patterns: rows };
}
