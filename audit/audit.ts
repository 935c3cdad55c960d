/**
 * The audit itself: walk each server's keyspace with SCAN, inspect the keys with pipelined PTTL
 * (and MEMORY USAGE, OBJECT IDLETIME, TYPE when asked), fold the names into patterns, and add an
 * expiry to TTL-less keys when asked (EXPIRE ... NX). Never KEYS, never a delete.
 *
 * - SCAN: https://redis.io/docs/latest/commands/scan/ (each key present for the whole walk is
 *   returned at least once; a key may come twice if the server resizes its table meanwhile)
 * - PTTL: https://redis.io/docs/latest/commands/pttl/ (-1 no TTL, -2 no such key)
 * - MEMORY USAGE: https://redis.io/docs/latest/commands/memory-usage/
 * - OBJECT IDLETIME: https://redis.io/docs/latest/commands/object-idletime/
 * - EXPIRE NX (Redis 7.0+): https://redis.io/docs/latest/commands/expire/
 */
import type { ChainableCommander, Redis } from 'ioredis';
import { type AttributedShape, type Attribution, buildAttribution, computeFindings, type Findings, type InventoryInput, type WrittenBy } from './attribution.js';
import { type Baseline, compareWithBaseline, type Growth } from './baseline.js';
import { AuditError } from './errors.js';

export { AuditError } from './errors.js';
import { collapseSiblings, foldKey, PatternCache } from './fold.js';
import { compileGlob, type RedisGlob } from './glob.js';
import { RateLimiter } from './rate.js';
import { type NodeInfo, type Warning, nodeAddress, policyWarnings, readNodeInfo, versionAtLeast } from './server.js';
import { type PatternStats, type Proportion, addObservation, emptyStats, mergeStats, wilson95 } from './stats.js';

/** What to audit and how. Counts are whole numbers. */
export interface AuditOptions {
  /** Redis globs (MATCH syntax); a key is audited when it matches any; empty = every key. */
  match: string[];
  /** Only keys of this type: one of {@link KEY_TYPES}. */
  type?: KeyType;
  /** SCAN COUNT hint: hash-table buckets visited per SCAN call. */
  count: number;
  /** Stop after this many (matching) keys and extrapolate to DBSIZE. */
  sample?: number;
  /** Measure MEMORY USAGE of every key. */
  memory: boolean;
  /** Read OBJECT IDLETIME of every key. */
  idle: boolean;
  /** Commands per second over the whole audit; 0 = unlimited. */
  maxOpsPerSecond: number;
  /** Globs of keys that must expire: each TTL-less key matching one is a violation. */
  failOnPersistent: string[];
  /** Add this TTL (seconds, 1 to {@link MAX_FIX_TTL_SECONDS}) with EXPIRE NX to the TTL-less keys found. Requires `match`. */
  fixTtl?: number;
  /** Keep the names of the keys changed by `fixTtl`, and of more violation examples. */
  verbose: boolean;
  /** More sibling patterns than this, differing in one segment, fold into one (see collapseSiblings). */
  foldThreshold: number;
  /**
   * Key inventories (inventory/format.ts): keys are grouped by the shapes they match first, and
   * every pattern carries the sites that write it. The CLI reads them from `--inventory` files.
   */
  inventory?: readonly InventoryInput[];
  /** The directory the file paths of `writtenBy` are relative to; default: the working directory. */
  cwd?: string;
  /** An earlier report to compare counts and memory with (see baseline.ts). */
  baseline?: Baseline;
  /**
   * With `baseline`: a pattern (not declared persistent) with more than this many keys without
   * TTL beyond the baseline's count fails the run (`growth.exceeded`). A whole number of keys.
   */
  failOnGrowth?: number;
  /** Called after each SCAN batch. */
  onProgress?: (progress: AuditProgress) => void;
}

/**
 * The key types `--type` accepts: the types `TYPE` replies for Redis' own data types
 * (https://redis.io/docs/latest/commands/type/); SCAN's TYPE filter takes the same names.
 */
export const KEY_TYPES = ['string', 'list', 'set', 'zset', 'hash', 'stream'] as const;
/** One of {@link KEY_TYPES}. */
export type KeyType = (typeof KEY_TYPES)[number];

/**
 * The default connect and reply timeout of the audit's connections, in milliseconds (see
 * `ConnectOptions.timeoutMs` in connect.ts). Here, not in connect.ts, so the CLI can show it
 * without loading the Redis client.
 */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The longest TTL `fixTtl` adds: 365 days, in seconds. A longer one is almost always a unit
 * mistake (milliseconds given as seconds: `86400000` is 1,000 days), and a key meant to expire
 * that lives for years is still a leak.
 */
export const MAX_FIX_TTL_SECONDS = 365 * 86_400;

/**
 * Key names (and patterns) longer than this many characters are cut in reports: a name keeps its
 * first characters followed by `… (<n> bytes)`, a pattern its first characters followed by `*`
 * (still a glob that matches the keys).
 */
export const MAX_NAME_LENGTH = 200;

/** Defaults for the optional parts of {@link AuditOptions}. */
export const DEFAULT_AUDIT_OPTIONS: AuditOptions = {
  match: [],
  count: 1000,
  memory: false,
  idle: false,
  maxOpsPerSecond: 10_000,
  failOnPersistent: [],
  verbose: false,
  foldThreshold: 32,
};

/** Where the audit stands, for a progress bar. */
export interface AuditProgress {
  /** Keys returned by SCAN so far, on all servers. */
  visited: number;
  /** Keys inspected so far. */
  inspected: number;
  /** Sum of DBSIZE over the servers (the keys SCAN may return). */
  population: number;
  /** With `--sample`, the number of keys to stop at. */
  target?: number;
  /** Commands sent so far. */
  ops: number;
  /** Milliseconds since the scan started. */
  elapsedMs: number;
}

/** One pattern in the report. */
export interface PatternReport extends PatternStats {
  pattern: string;
  /** The inventory shape (keyPrefix + shape) the keys matched; null for a folded pattern or without an inventory. */
  shape: string | null;
  /**
   * The write sites of that shape, sorted by file, line, column: `[]` when no code of the
   * inventories writes the pattern; null without an inventory.
   */
  writtenBy: WrittenBy[] | null;
  /** noTtl / keys (0..1). */
  noTtlShare: number;
  /** With `--sample` (and a scan that stopped early): keys × population / visited, rounded. */
  estimatedKeys?: number;
}

/** A `--fail-on-persistent` glob and the TTL-less keys that match it. */
export interface Violation {
  pattern: string;
  /** TTL-less keys matching the glob. */
  keys: number;
  /** Up to 5 of them (up to 100 with `verbose`). */
  examples: string[];
}

/** What `--fix-ttl` did. */
export interface FixResult {
  /** The TTL added, in seconds. */
  seconds: number;
  /** TTL-less keys found (EXPIRE NX was sent to each). */
  candidates: number;
  /** Keys that got the TTL (EXPIRE NX replied 1). */
  changed: number;
  /** Keys that had gained a TTL, or had gone, by the time EXPIRE came (replied 0). */
  skipped: number;
  /** The changed keys (only with `verbose`). */
  keys?: string[];
}

/** The extrapolation of a `--sample` run. */
export interface SampleEstimate {
  /** The requested sample size. */
  requested: number;
  /** False when the scan ended before the sample was full: then every number is exact. */
  stoppedEarly: boolean;
  /** Keys SCAN returned before stopping (matching or not). */
  visited: number;
  /** Sum of DBSIZE. */
  population: number;
  /** Matching keys in the whole keyspace: inspected × population / visited. */
  estimatedKeys: number;
  /** Share of keys without TTL among the sampled ones, 95% Wilson interval. */
  noTtlShare: Proportion;
  /** estimatedKeys × the share, and its interval. */
  estimatedNoTtl: { value: number; low: number; high: number };
}

/** The whole result; the json format prints it as is. */
export interface AuditReport {
  /** Servers scanned (every master with `--cluster`). */
  nodes: NodeInfo[];
  totals: {
    /** Keys SCAN returned (matching or not, with duplicates). */
    visited: number;
    /** Keys inspected (alive and matching). */
    keys: number;
    noTtl: number;
    /** Keys that expired, were deleted or (cluster) moved away between SCAN and PTTL (PTTL -2, MOVED). */
    vanished: number;
    /** Keys that no longer had the `--type` type when inspected. */
    changedType: number;
    /** Sum of MEMORY USAGE (bytes), or null without `--memory`. */
    memoryBytes: number | null;
    /** Commands sent. */
    commands: number;
    elapsedMs: number;
  };
  sample: SampleEstimate | null;
  /** Largest first (by keys). */
  patterns: PatternReport[];
  warnings: Warning[];
  /** Things worth knowing that are not findings (a refused CONFIG GET, an LFU policy hiding idle times...). */
  notes: string[];
  violations: Violation[];
  fix: FixResult | null;
  /** With an inventory: the three findings of the join (see attribution.ts); null without one. */
  findings: Findings | null;
  /** With a baseline: counts and memory per pattern then and now; null without one. */
  growth: Growth | null;
}


/** A key as the report shows it: its name, and its pattern. */
interface ShownKey {
  /** The name, binary bytes as `\\xNN`, cut after {@link MAX_NAME_LENGTH} characters with the length in bytes. */
  name: string;
  /** Its folded pattern (a glob matching it), cut after {@link MAX_NAME_LENGTH} characters and ended with `*`. */
  pattern: string;
}

/** A character outside printable ASCII (0x20-0x7E). */
const NOT_PRINTABLE = /[^\x20-\x7e]/;

/**
 * The name and pattern of a key (see {@link ShownKey}).
 * @param patterns where the patterns of earlier keys are found again without a new string (see
 *   {@link PatternCache}); without it each key's pattern is spelled out.
 */
export function showKey(key: Buffer, patterns?: PatternCache): ShownKey {
  const text = keyText(key);
  let name: string;
  let pattern: string;
  if (text !== undefined) {
    name = text;
    pattern = patterns === undefined ? foldKey(text) : patterns.fold(text);
  } else {
    // Binary keys and control characters are shown like redis-cli shows them.
    name = '';
    for (const byte of key) name += byte >= 0x20 && byte < 0x7f && byte !== 0x5c ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
    pattern = foldKey(name, { escape: false });
  }
  return { name: cutName(name, key.length), pattern: cutPattern(pattern) };
}

/**
 * The text of a key: its bytes as latin1 when they are printable ASCII (most keys: one byte per
 * character, then one native scan decides it), else as UTF-8 when they are valid UTF-8 without
 * control characters; undefined for a binary key.
 */
function keyText(key: Buffer): string | undefined {
  const latin1 = key.toString('latin1');
  if (!NOT_PRINTABLE.test(latin1)) return latin1;
  const text = key.toString('utf8');
  // eslint-disable-next-line no-control-regex
  return Buffer.byteLength(text) === key.length && !text.includes('\uFFFD') && !/[\u0000-\u001f\u007f]/.test(text) ? text : undefined;
}

/** The first {@link MAX_NAME_LENGTH} characters of `text`, never ending in half a surrogate pair. */
function head(text: string): string {
  let cut = text.slice(0, MAX_NAME_LENGTH);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut;
}

function cutName(name: string, bytes: number): string {
  return name.length <= MAX_NAME_LENGTH ? name : `${head(name)}… (${bytes.toLocaleString('en-US')} bytes)`;
}

function cutPattern(pattern: string): string {
  if (pattern.length <= MAX_NAME_LENGTH) return pattern;
  let cut = head(pattern);
  // Never end on the backslash of an escape: it would escape the `*` added below.
  if (/(?:^|[^\\])(?:\\\\)*\\$/.test(cut)) cut = cut.slice(0, -1);
  return cut.endsWith('*') ? cut : `${cut}*`;
}

/** ioredis' error for a reply that did not come within the client's `commandTimeout`. */
export function isTimeout(error: unknown): boolean {
  return error instanceof Error && /^Command timed out\b|\bETIMEDOUT\b/.test(error.message);
}

/** What the audit asks each server for, by option: the ACL permissions it needs. */
function neededCommands(options: AuditOptions): string {
  return [
    '+info +dbsize +scan +pttl',
    ...(options.type !== undefined ? ['+type'] : []),
    ...(options.memory ? ['+memory'] : []),
    ...(options.idle ? ['+object'] : []),
    ...(options.fixTtl !== undefined ? ['+expire'] : []),
  ].join(' ');
}

/**
 * Turns an error of a server or its connection into an {@link AuditError} that names the server
 * and says what to do: no reply within the timeout, an ACL refusal (NOPERM) of a command or of a
 * key (with `--match` as the way out), any other error reply. Errors of this code (TypeError and
 * the like) pass through: they are bugs.
 */
async function serverFailure(error: unknown, node: Redis, doing: string, run: Run, key?: string): Promise<unknown> {
  if (!(error instanceof Error) || error instanceof AuditError || error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError) {
    return error;
  }
  const address = nodeAddress(node);
  const message = error.message.split('\n')[0] ?? '';
  if (isTimeout(error)) {
    const ms = node.options.commandTimeout;
    return new AuditError(
      `${address} did not answer ${doing} within ${ms === undefined ? 'the timeout' : `${ms} ms`} (--timeout): the server is paused, ` +
        'overloaded or unreachable.',
    );
  }
  if (/^NOPERM\b/.test(message)) {
    if (key !== undefined) {
      const readable = await readableKeyPatterns(node);
      const hint = readable.length > 0 ? readable.map((p) => `--match '${p}'`).join(' ') : "--match '<prefix>*'";
      return new AuditError(
        `${address} refused ${doing} on key "${key}" (${message}): this ACL user may read only some keys. ` +
          `Audit the keys it may read with ${hint}${readable.length > 0 ? ' (its key patterns)' : ' (ACL GETUSER lists the key patterns of a user)'}.`,
      );
    }
    return new AuditError(`${address} refused ${doing} (${message}): the audit needs the ACL permissions ${neededCommands(run.options)}.`);
  }
  return new AuditError(`${address}: ${doing} failed: ${message}`);
}

/**
 * The key patterns the connected ACL user may read (`~pattern` / `%R~pattern`), from ACL WHOAMI and
 * ACL GETUSER (https://redis.io/docs/latest/commands/acl-getuser/); empty when the user may not
 * run them (a user limited to some keys usually may not) or has no such limit.
 */
async function readableKeyPatterns(node: Redis): Promise<string[]> {
  try {
    const user = String(await node.call('ACL', 'WHOAMI'));
    const reply = (await node.call('ACL', 'GETUSER', user)) as unknown[];
    const at = reply.findIndex((item) => String(item) === 'keys');
    const keys = reply[at + 1];
    const text = Array.isArray(keys) ? keys.map(String).join(' ') : String(keys ?? '');
    return text
      .split(/\s+/)
      .map((entry) => /^(?:%R?W?~|~)(.+)$/.exec(entry)?.[1])
      .filter((pattern): pattern is string => pattern !== undefined && pattern !== '*');
  } catch {
    return [];
  }
}

interface NodeState {
  /** Keys no inventory shape matched, by folded pattern. */
  patterns: Map<string, PatternStats>;
  /** Keys matched by an inventory shape, by the shape's id. */
  shaped: (PatternStats | undefined)[];
  /** Collapse siblings during the scan once there are this many patterns (doubles when that does not help). */
  collapseAt: number;
  /** The patterns of keys seen so far, found again without a new string per key. */
  folded: PatternCache;
}

/** Mutable counters of one audit. */
class Run {
  readonly limiter: RateLimiter;
  readonly started = performance.now();
  visited = 0;
  inspected = 0;
  vanished = 0;
  changedType = 0;
  population = 0;
  /** Whether a server's walk stopped before its end (a full --sample). */
  stoppedEarly = false;
  readonly notes = new Set<string>();
  readonly violations: { glob: RedisGlob; keys: number; examples: string[] }[];
  fix: FixResult | null;
  readonly matchers: RedisGlob[];
  /** The inventories, merged and compiled; null without any. */
  readonly attribution: Attribution | null;

  constructor(readonly options: AuditOptions) {
    this.attribution = options.inventory === undefined || options.inventory.length === 0 ? null : buildAttribution(options.inventory, options.cwd);
    this.limiter = new RateLimiter(options.maxOpsPerSecond);
    this.violations = options.failOnPersistent.map((p) => ({ glob: compileGlob(p), keys: 0, examples: [] }));
    this.matchers = options.match.map(compileGlob);
    this.fix = options.fixTtl === undefined ? null : { seconds: options.fixTtl, candidates: 0, changed: 0, skipped: 0, ...(options.verbose ? { keys: [] } : {}) };
  }

  progress(): void {
    this.options.onProgress?.({
      visited: this.visited,
      inspected: this.inspected,
      population: this.population,
      ...(this.options.sample === undefined ? {} : { target: this.options.sample }),
      ops: this.limiter.ops,
      elapsedMs: performance.now() - this.started,
    });
  }
}

function checkOptions(options: AuditOptions): void {
  const whole = (name: string, value: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER) => {
    if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)) {
      throw new AuditError(`${name} must be a whole number from ${min} to ${max}, got ${String(value)}`);
    }
  };
  whole('count', options.count, 1);
  whole('sample', options.sample, 1);
  whole('maxOpsPerSecond', options.maxOpsPerSecond, 0);
  whole('fixTtl', options.fixTtl, 1, MAX_FIX_TTL_SECONDS);
  whole('foldThreshold', options.foldThreshold, 1);
  for (const [name, list] of [['match', options.match], ['failOnPersistent', options.failOnPersistent]] as const) {
    if (!Array.isArray(list) || list.some((p) => typeof p !== 'string' || p === '')) throw new AuditError(`${name} must be an array of non-empty glob strings`);
  }
  if (options.type !== undefined && !(KEY_TYPES as readonly string[]).includes(options.type)) {
    throw new AuditError(`type must be one of ${KEY_TYPES.join(', ')}, got ${JSON.stringify(options.type)}`);
  }
  if (options.fixTtl !== undefined && options.match.length === 0) throw new AuditError('fix-ttl needs at least one match pattern');
  if (options.fixTtl !== undefined && options.sample !== undefined) throw new AuditError('fix-ttl cannot be combined with sample: it must see every key');
  whole('failOnGrowth', options.failOnGrowth, 0);
  if (options.failOnGrowth !== undefined && options.baseline === undefined) throw new AuditError('fail-on-growth needs a baseline to compare with');
  if (options.failOnGrowth !== undefined && options.sample !== undefined) {
    throw new AuditError('fail-on-growth cannot be combined with sample: a sample\'s counts are estimates, and a CI verdict needs exact ones');
  }
  if (options.failOnGrowth !== undefined && options.baseline?.sampled === true) {
    throw new AuditError(`fail-on-growth needs exact counts, but the baseline ${options.baseline.source} is a --sample report (its counts are estimates)`);
  }
}

/**
 * Audits the given servers, one after the other (pass every master of a cluster). Read-only
 * unless `options.fixTtl` is set, and then it only ever runs `EXPIRE key seconds NX`.
 *
 * @param nodes connected clients, one per server; the audit neither connects nor closes them.
 * @returns the report (see {@link AuditReport}); numbers are exact unless `options.sample` stopped
 *   the scan early (then `report.sample` holds the extrapolation).
 * @throws {AuditError} on invalid options, when `fixTtl` meets a server older than 7.0, and when a
 *   server fails: no reply within the client's `commandTimeout`, an ACL refusal (NOPERM, with the
 *   permissions needed or a `--match` hint), a lost connection; the message names the server.
 */
export async function runAudit(nodes: readonly Redis[], options: AuditOptions): Promise<AuditReport> {
  checkOptions(options);
  const run = new Run(options);
  const infos: NodeInfo[] = [];
  for (const node of nodes) {
    await run.limiter.acquire(4);
    try {
      infos.push(await readNodeInfo(node));
    } catch (error) {
      throw await serverFailure(error, node, 'INFO / DBSIZE', run);
    }
  }
  if (options.fixTtl !== undefined) {
    const old = infos.find((i) => !versionAtLeast(i.version, 7));
    if (old !== undefined) throw new AuditError(`fix-ttl uses EXPIRE ... NX, which needs Redis 7.0 or later; ${old.address} runs ${old.version}`);
  }
  run.population = infos.reduce((n, i) => n + i.dbsize, 0);
  for (const note of run.attribution?.notes ?? []) run.notes.add(note);
  if (options.match.length > 0 && options.failOnPersistent.length > 0) {
    run.notes.add('--fail-on-persistent saw only the keys selected by --match.');
  }
  for (const info of infos) {
    if (info.configError !== undefined) {
      run.notes.add(`CONFIG GET refused on ${info.address} (${info.configError}): maxmemory and the eviction policy were not checked.`);
    }
    if (info.clusterEnabled && nodes.length === 1) {
      run.notes.add(`${info.address} is a Redis Cluster node: only its own keys were scanned; use --cluster to walk every master.`);
    }
  }

  const states: NodeState[] = [];
  for (const [i, node] of nodes.entries()) {
    const info = infos[i]!;
    // With --sample, each server gives its share of the sample, in proportion to its DBSIZE.
    const quota = options.sample === undefined ? Number.POSITIVE_INFINITY : run.population === 0 ? 0 : Math.ceil((options.sample * info.dbsize) / run.population);
    try {
      states.push(await scanNode(node, run, quota));
    } catch (error) {
      throw await serverFailure(error, node, 'SCAN', run);
    }
  }

  // Per-server patterns decide the policy warnings of that server; the report merges them. Keys
  // an inventory shape matched keep their shape's pattern: only folded patterns are collapsed.
  const warnings: Warning[] = [];
  let all = new Map<string, PatternStats>();
  const shaped: (PatternStats | undefined)[] = [];
  for (const [i, state] of states.entries()) {
    const collapsed = collapseSiblings(state.patterns, options.foldThreshold, { merge: mergeStats });
    const own = [...collapsed].map(([pattern, s]) => ({ pattern, keys: s.keys, noTtl: s.noTtl }));
    for (const [id, stats] of state.shaped.entries()) {
      if (stats === undefined) continue;
      own.push({ pattern: run.attribution!.shapes[id]!.pattern, keys: stats.keys, noTtl: stats.noTtl });
      const existing = shaped[id];
      shaped[id] = existing === undefined ? stats : mergeStats(existing, stats);
    }
    warnings.push(...policyWarnings(infos[i]!, own));
    for (const [pattern, stats] of collapsed) {
      const existing = all.get(pattern);
      all.set(pattern, existing === undefined ? stats : mergeStats(existing, stats));
    }
  }
  if (states.length > 1) all = collapseSiblings(all, options.foldThreshold, { merge: mergeStats });

  const rows: { pattern: string; stats: PatternStats; shape: AttributedShape | null }[] = [...all].map(([pattern, stats]) => ({ pattern, stats, shape: null }));
  for (const [id, stats] of shaped.entries()) {
    if (stats !== undefined) rows.push({ pattern: run.attribution!.shapes[id]!.pattern, stats, shape: run.attribution!.shapes[id]! });
  }
  const keys = sum(rows, (r) => r.stats.keys);
  const noTtl = sum(rows, (r) => r.stats.noTtl);
  const stoppedEarly = run.stoppedEarly;
  const scale = stoppedEarly && run.visited > 0 ? run.population / run.visited : 1;
  const inventory = run.attribution !== null;
  const shapeOf = new Map<PatternReport, AttributedShape>();
  const patterns: PatternReport[] = rows
    .map(({ pattern, stats, shape }) => {
      const report: PatternReport = {
        pattern,
        shape: shape?.shape ?? null,
        writtenBy: inventory ? (shape?.writtenBy ?? []) : null,
        ...stats,
        noTtlShare: stats.keys === 0 ? 0 : stats.noTtl / stats.keys,
        ...(stoppedEarly ? { estimatedKeys: Math.round(stats.keys * scale) } : {}),
      };
      if (shape !== null) shapeOf.set(report, shape);
      return report;
    })
    .sort((a, b) => b.keys - a.keys || b.noTtl - a.noTtl || (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0) || (a.shape === null ? 1 : 0) - (b.shape === null ? 1 : 0));

  let sample: SampleEstimate | null = null;
  if (options.sample !== undefined) {
    const estimatedKeys = Math.round(keys * scale);
    const share = wilson95(noTtl, keys, stoppedEarly ? estimatedKeys : keys);
    sample = {
      requested: options.sample,
      stoppedEarly,
      visited: run.visited,
      population: run.population,
      estimatedKeys,
      noTtlShare: share,
      estimatedNoTtl: {
        value: Math.round(share.share * estimatedKeys),
        low: Math.round(share.low * estimatedKeys),
        high: Math.round(share.high * estimatedKeys),
      },
    };
  }

  const findings = inventory ? computeFindings(patterns, (p) => shapeOf.get(p)) : null;
  const growth =
    options.baseline === undefined ? null : compareWithBaseline(patterns, sample, options.memory, options.baseline, options.failOnGrowth, (p) => shapeOf.get(p)?.persistent === true, run.notes);
  return {
    nodes: infos,
    totals: {
      visited: run.visited,
      keys,
      noTtl,
      vanished: run.vanished,
      changedType: run.changedType,
      memoryBytes: options.memory ? sum(rows, (r) => r.stats.memoryBytes ?? 0) : null,
      commands: run.limiter.ops,
      elapsedMs: Math.round(performance.now() - run.started),
    },
    sample,
    patterns,
    warnings,
    notes: [...run.notes],
    violations: run.violations.map((v) => ({ pattern: v.glob.source, keys: v.keys, examples: v.examples })),
    fix: run.fix,
    findings,
    growth,
  };
}

function sum<T>(items: readonly T[], f: (x: T) => number): number {
  return items.reduce((n, x) => n + f(x), 0);
}

/** Walks one server's keyspace; stops after `quota` inspected keys. */
async function scanNode(node: Redis, run: Run, quota: number): Promise<NodeState> {
  const { options } = run;
  const state: NodeState = { patterns: new Map(), shaped: [], collapseAt: 20_000, folded: new PatternCache() };
  // Server-side filters when the scan is complete; a sample must count every key SCAN returns
  // to extrapolate, so it filters locally.
  const sampling = options.sample !== undefined;
  const serverMatch = !sampling && options.match.length === 1 ? options.match[0] : undefined;
  const localMatch = serverMatch === undefined && run.matchers.length > 0;
  const serverType = !sampling ? options.type : undefined;
  const args: (string | number)[] = [];
  if (serverMatch !== undefined) args.push('MATCH', serverMatch);
  args.push('COUNT', options.count);
  if (serverType !== undefined) args.push('TYPE', serverType);

  let inspected = 0;
  let cursor = '0';
  const scan = (from: string): Promise<[Buffer, Buffer[]]> => {
    const reply = (async () => {
      await run.limiter.acquire(1);
      return (await node.callBuffer('SCAN', from, ...args)) as [Buffer, Buffer[]];
    })();
    // it may fail while the previous batch is being inspected: handled when awaited, never unhandled
    reply.catch(() => undefined);
    return reply;
  };
  // The next SCAN is sent before the PTTLs of the current batch, on the same connection: its
  // reply is there when they are answered, so the walk costs one round trip per batch, not two.
  let next: Promise<[Buffer, Buffer[]]> | null = quota > 0 ? scan(cursor) : null;
  while (next !== null) {
    const [nextCursor, batch] = await next;
    next = null;
    cursor = nextCursor.toString();
    const selected: Buffer[] = [];
    for (const key of batch) {
      if (inspected + selected.length >= quota) {
        run.stoppedEarly = true; // keys of this batch are left out
        break;
      }
      run.visited += 1;
      if (localMatch && !run.matchers.some((m) => m.test(key))) continue;
      selected.push(key);
    }
    inspected += selected.length;
    if (cursor !== '0' && inspected < quota) next = scan(cursor);
    await inspectKeys(node, run, state, selected, serverType !== undefined);
    run.progress();
  }
  if (cursor !== '0') run.stoppedEarly = true;
  return state;
}

/** The replies of a pipeline: `[error, reply]` per command, in order. */
type PipelineReplies = [Error | null, unknown][];

/**
 * Sends `pipeline` on `node` with one deadline for the whole batch: the client's reply timeout
 * (`commandTimeout`, the `--timeout`), counted from when the batch is sent, as ioredis counts it
 * per command. ioredis arms a timer for every command it sends with a `commandTimeout`: for a
 * pipeline of one PTTL per key, that timer was most of what the audit cost beyond SCAN and PTTL
 * themselves. So the option is left out while the pipeline is written (ioredis reads it when
 * each command is sent, which `exec` does at once on a connected client; an audit's commands are
 * never queued for a reconnection) and one timer stands for the batch.
 * @throws ioredis' own `Command timed out` error when the batch is not answered in time (see
 *   {@link isTimeout}), or what `exec` rejects with.
 */
async function execWithin(node: Redis, pipeline: ChainableCommander): Promise<PipelineReplies> {
  const ms = node.options.commandTimeout;
  if (ms === undefined) return (await pipeline.exec()) ?? [];
  let sent: Promise<PipelineReplies | null>;
  node.options.commandTimeout = undefined;
  try {
    sent = pipeline.exec();
  } finally {
    node.options.commandTimeout = ms;
  }
  sent.catch(() => undefined); // settles after the deadline: handled there, never unhandled
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Command timed out')), ms);
  });
  try {
    return (await Promise.race([sent, late])) ?? [];
  } finally {
    clearTimeout(timer);
  }
}

/** Commands per inspected key, in pipeline order. */
function perKeyCommands(options: AuditOptions): number {
  return 1 + (options.type !== undefined ? 1 : 0) + (options.memory ? 1 : 0) + (options.idle ? 1 : 0);
}

/** Pipelines PTTL (+ TYPE, MEMORY USAGE, OBJECT IDLETIME) for `keys`, in rate-limited chunks. */
async function inspectKeys(node: Redis, run: Run, state: NodeState, keys: Buffer[], typeFilteredByServer: boolean): Promise<void> {
  const { options } = run;
  const per = perKeyCommands(options);
  const chunk = Math.max(1, Math.min(keys.length, Math.floor(run.limiter.burst / per)));
  const typed = options.type !== undefined ? 1 : 0;
  const memoryAt = 1 + typed;
  const idleAt = memoryAt + (options.memory ? 1 : 0);
  const noReply: [Error, null] = [new Error('no reply'), null];
  // one observation object for every key when nothing of it is kept (no MEMORY USAGE, no IDLETIME)
  const shared: { key: string; pttl: number; bytes?: number; idleSeconds?: number } = { key: '', pttl: 0 };
  const { folded } = state;
  const index = run.attribution?.index;
  for (let start = 0; start < keys.length; start += chunk) {
    const part = chunk >= keys.length ? keys : keys.slice(start, start + chunk);
    await run.limiter.acquire(part.length * per);
    const pipeline = node.pipeline();
    for (const key of part) {
      pipeline.pttl(key);
      if (options.type !== undefined) pipeline.type(key);
      if (options.memory) pipeline.call('MEMORY', 'USAGE', key);
      if (options.idle) pipeline.call('OBJECT', 'IDLETIME', key);
    }
    let replies: PipelineReplies;
    try {
      replies = await execWithin(node, pipeline);
    } catch (error) {
      throw await serverFailure(error, node, 'PTTL', run);
    }
    const toFix: { key: Buffer; name: string }[] = [];
    for (let k = 0; k < part.length; k += 1) {
      const key = part[k]!;
      const base = k * per;
      const [pttlError, pttl] = replies[base] ?? noReply;
      if (pttlError && /^(MOVED|ASK) /.test(pttlError.message)) {
        run.vanished += 1; // its slot moved to another master since SCAN (a cluster resharding)
        continue;
      }
      if (pttlError) throw await serverFailure(pttlError, node, 'PTTL', run, showKey(key).name);
      const type: unknown = typed ? (replies[base + 1] ?? noReply)[1] : undefined;
      const memory = options.memory ? (replies[base + memoryAt] ?? noReply) : undefined;
      const idle = options.idle ? (replies[base + idleAt] ?? noReply) : undefined;
      if (pttl === -2 || type === 'none') {
        run.vanished += 1; // expired or deleted since SCAN returned it
        continue;
      }
      if (options.type !== undefined && type !== options.type) {
        if (typeFilteredByServer) run.changedType += 1; // replaced by a value of another type since SCAN
        continue;
      }
      // An inventory shape first; the folded pattern for keys no shape matches.
      const text = index === undefined ? undefined : keyText(key);
      const shape = text === undefined ? undefined : index!.match(text);
      let name: string;
      let stats: PatternStats | undefined;
      if (shape !== undefined) {
        name = cutName(text!, key.length);
        stats = state.shaped[shape.id];
        if (stats === undefined) state.shaped[shape.id] = stats = emptyStats(options.memory);
      } else {
        const shown = showKey(key, folded);
        name = shown.name;
        stats = state.patterns.get(shown.pattern);
        if (stats === undefined) state.patterns.set(shown.pattern, (stats = emptyStats(options.memory)));
      }
      const observation = memory === undefined && idle === undefined ? shared : { key: name, pttl: 0 };
      observation.key = name;
      observation.pttl = Number(pttl);
      if (memory !== undefined) {
        if (memory[0]) run.notes.add(`MEMORY USAGE failed: ${memory[0].message}`);
        else if (typeof memory[1] === 'number') observation.bytes = memory[1];
      }
      if (idle !== undefined) {
        if (idle[0]) run.notes.add(`OBJECT IDLETIME failed (${idle[0].message}): idle times are missing.`);
        else if (typeof idle[1] === 'number') observation.idleSeconds = idle[1];
      }
      run.inspected += 1;
      addObservation(stats, observation);
      if (observation.pttl < 0) {
        for (const v of run.violations) {
          if (!v.glob.test(key)) continue;
          v.keys += 1;
          if (v.examples.length < (options.verbose ? 100 : 5)) v.examples.push(name);
        }
        if (run.fix !== null) toFix.push({ key, name });
      }
    }
    if (toFix.length > 0) await fixKeys(node, run, toFix);
    // Keep memory bounded on keyspaces full of ids the rules do not recognise.
    if (state.patterns.size > state.collapseAt) {
      state.patterns = collapseSiblings(state.patterns, options.foldThreshold, { merge: mergeStats });
      state.collapseAt = Math.max(state.collapseAt, 2 * state.patterns.size);
    }
  }
}

/** `EXPIRE key seconds NX` for each key: only keys that still have no TTL change. */
async function fixKeys(node: Redis, run: Run, keys: { key: Buffer; name: string }[]): Promise<void> {
  const fix = run.fix!;
  await run.limiter.acquire(keys.length);
  const pipeline = node.pipeline();
  for (const { key } of keys) pipeline.call('EXPIRE', key, fix.seconds, 'NX');
  let replies: PipelineReplies;
  try {
    replies = await execWithin(node, pipeline);
  } catch (error) {
    throw await serverFailure(error, node, 'EXPIRE', run);
  }
  for (const [i, { name }] of keys.entries()) {
    const [error, reply] = replies[i] ?? [new Error('no reply'), null];
    if (error && !/^(MOVED|ASK) /.test(error.message)) throw await serverFailure(error, node, 'EXPIRE', run, name); // a moved key counts as skipped
    fix.candidates += 1;
    if (reply === 1) {
      fix.changed += 1;
      fix.keys?.push(name);
    } else {
      fix.skipped += 1;
    }
  }
}
