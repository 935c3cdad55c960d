/**
 * Per-pattern statistics (mergeable, so patterns can be folded further after the scan) and the
 * sampling arithmetic.
 */

/** TTL buckets of the keys that have one, by remaining time: upper bound (exclusive) in ms. */
export const TTL_BUCKETS = [
  { label: '<1m', belowMs: 60_000 },
  { label: '<1h', belowMs: 3_600_000 },
  { label: '<1d', belowMs: 86_400_000 },
  { label: '<7d', belowMs: 604_800_000 },
  { label: '>=7d', belowMs: Number.POSITIVE_INFINITY },
] as const;

/** `'<1m' | '<1h' | '<1d' | '<7d' | '>=7d'` */
export type TtlBucket = (typeof TTL_BUCKETS)[number]['label'];

/** How many examples of the largest and the idlest keys a pattern keeps. */
export const EXAMPLES_KEPT = 3;

/** How many key names a pattern keeps as examples: the first keys the scan met ({@link PatternStats.examples}). */
export const KEY_EXAMPLES_KEPT = 3;

/** How many names of keys without TTL a pattern keeps ({@link PatternStats.noTtlExamples}). */
export const NO_TTL_EXAMPLES_KEPT = 5;

/** A key with its size (MEMORY USAGE, bytes). */
export interface SizedKey {
  key: string;
  bytes: number;
}

/** A key with its idle time (OBJECT IDLETIME, seconds). */
export interface IdleKey {
  key: string;
  idleSeconds: number;
}

/** What the audit knows about the keys of one pattern. */
export interface PatternStats {
  /** Keys seen (alive when inspected). */
  keys: number;
  /** Of those, keys without TTL (PTTL -1). */
  noTtl: number;
  /** Sum of MEMORY USAGE in bytes; `null` when memory was not measured (no `--memory`). */
  memoryBytes: number | null;
  /** Keys with a TTL, by remaining time. */
  ttl: Record<TtlBucket, number>;
  /** The largest keys, largest first (empty without `--memory`). */
  largest: SizedKey[];
  /** The idlest keys, idlest first (empty without `--idle`). */
  idlest: IdleKey[];
  /** The first keys the scan met, up to {@link KEY_EXAMPLES_KEPT}. */
  examples: string[];
  /** The first keys without TTL the scan met, up to {@link NO_TTL_EXAMPLES_KEPT}. */
  noTtlExamples: string[];
}

/** One inspected key, as the scan saw it. */
export interface KeyObservation {
  key: string;
  /** PTTL in ms, -1 for no TTL (never -2: vanished keys are not observed). */
  pttl: number;
  /** MEMORY USAGE in bytes, when measured. */
  bytes?: number;
  /** OBJECT IDLETIME in seconds, when measured. */
  idleSeconds?: number;
}

/** Empty statistics; `memory` says whether `memoryBytes` counts (0) or is unknown (`null`). */
export function emptyStats(memory: boolean): PatternStats {
  return {
    keys: 0,
    noTtl: 0,
    memoryBytes: memory ? 0 : null,
    ttl: { '<1m': 0, '<1h': 0, '<1d': 0, '<7d': 0, '>=7d': 0 },
    largest: [],
    idlest: [],
    examples: [],
    noTtlExamples: [],
  };
}

/** The bucket of a positive PTTL (ms). */
export function ttlBucket(pttlMs: number): TtlBucket {
  for (const bucket of TTL_BUCKETS) if (pttlMs < bucket.belowMs) return bucket.label;
  return '>=7d';
}

function keepTop<T>(list: T[], item: T, score: (x: T) => number): void {
  if (list.length >= EXAMPLES_KEPT && score(item) <= score(list[list.length - 1]!)) return;
  list.push(item);
  list.sort((a, b) => score(b) - score(a));
  if (list.length > EXAMPLES_KEPT) list.length = EXAMPLES_KEPT;
}

/** Adds one key to `stats` (in place). */
export function addObservation(stats: PatternStats, o: KeyObservation): void {
  stats.keys += 1;
  if (stats.examples.length < KEY_EXAMPLES_KEPT) stats.examples.push(o.key);
  if (o.pttl < 0) {
    stats.noTtl += 1;
    if (stats.noTtlExamples.length < NO_TTL_EXAMPLES_KEPT) stats.noTtlExamples.push(o.key);
  } else {
    stats.ttl[ttlBucket(o.pttl)] += 1;
  }
  if (o.bytes !== undefined) {
    if (stats.memoryBytes !== null) stats.memoryBytes += o.bytes;
    keepTop(stats.largest, { key: o.key, bytes: o.bytes }, (x) => x.bytes);
  }
  if (o.idleSeconds !== undefined) keepTop(stats.idlest, { key: o.key, idleSeconds: o.idleSeconds }, (x) => x.idleSeconds);
}

/** The statistics of two patterns taken together (a new object). */
export function mergeStats(a: PatternStats, b: PatternStats): PatternStats {
  const merged: PatternStats = {
    keys: a.keys + b.keys,
    noTtl: a.noTtl + b.noTtl,
    memoryBytes: a.memoryBytes === null || b.memoryBytes === null ? null : a.memoryBytes + b.memoryBytes,
    ttl: { ...a.ttl },
    largest: [...a.largest],
    idlest: [...a.idlest],
    examples: [...a.examples, ...b.examples].slice(0, KEY_EXAMPLES_KEPT),
    noTtlExamples: [...a.noTtlExamples, ...b.noTtlExamples].slice(0, NO_TTL_EXAMPLES_KEPT),
  };
  for (const { label } of TTL_BUCKETS) merged.ttl[label] += b.ttl[label];
  for (const x of b.largest) keepTop(merged.largest, x, (y) => y.bytes);
  for (const x of b.idlest) keepTop(merged.idlest, x, (y) => y.idleSeconds);
  return merged;
}

/** A proportion with its 95% confidence interval. */
export interface Proportion {
  /** successes / trials, 0..1 (0 when there were no trials). */
  share: number;
  /** Lower and upper bound of the 95% Wilson score interval, 0..1. */
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * The 95% Wilson score interval of `successes` out of `trials`, with the finite-population
 * correction when the sample is a large part of `population` (both sides of the interval shrink
 * towards the share by `sqrt((N - n) / (N - 1))`; a full census has no error). Wilson rather than the normal approximation because the
 * share of keys without TTL is often 0 or close to it, where the normal interval collapses.
 * https://en.wikipedia.org/wiki/Binomial_proportion_confidence_interval#Wilson_score_interval
 */
export function wilson95(successes: number, trials: number, population = Number.POSITIVE_INFINITY): Proportion {
  if (trials === 0) return { share: 0, low: 0, high: 1 };
  const p = successes / trials;
  const z2 = Z95 * Z95;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const margin = (Z95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  let low = Math.max(0, centre - margin);
  let high = Math.min(1, centre + margin);
  if (Number.isFinite(population) && population > 1) {
    // Shrink the interval towards p: to nothing for a full census.
    const fpc = Math.sqrt(Math.max(0, population - trials) / (population - 1));
    low = p - (p - low) * fpc;
    high = p + (high - p) * fpc;
  }
  return { share: p, low, high };
}
