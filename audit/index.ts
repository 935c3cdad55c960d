/**
 * The audit as a library: `connect()` a server or cluster, `runAudit()` its nodes, format the
 * report. The `redis-ttl-audit` CLI (audit/cli/) is a thin layer over these.
 */
export { AuditError, DEFAULT_AUDIT_OPTIONS, DEFAULT_TIMEOUT_MS, KEY_TYPES, MAX_FIX_TTL_SECONDS, MAX_NAME_LENGTH, runAudit, showKey, type KeyType } from './audit.js';
export type { AuditOptions, AuditProgress, AuditReport, FixResult, PatternReport, SampleEstimate, Violation } from './audit.js';
export { connect, type Connection, type ConnectOptions } from './connect.js';
export { optionsFromUrl, redactUrl } from './url.js';
export { collapseSiblings, escapeGlob, foldKey, isOpaqueSegment, PatternCache } from './fold.js';
export { FORMAT_NAMES, formatCsv, formatJson, formatReport, formatTable, type FormatContext, type FormatName } from './format.js';
export { compileGlob, type RedisGlob } from './glob.js';
export { RateLimiter } from './rate.js';
export { isLimiterLike, policyWarnings, type NodeInfo, type Warning } from './server.js';
export { TTL_BUCKETS, wilson95, type PatternStats, type Proportion, type TtlBucket } from './stats.js';
export { buildAttribution, computeFindings, TTL_LABELS, type Attribution, type AttributedShape, type Findings, type InventoryInput, type LeakFinding, type ReadBy, type UnexplainedFinding, type UnwrittenFinding, type WrittenBy } from './attribution.js';
export { compareWithBaseline, parseBaseline, readBaselineFile, type Baseline, type BaselinePattern, type Growth, type GrowthRow } from './baseline.js';
export { escapeHtml, formatHtml } from './html.js';
export {
  INVENTORY_VERSION,
  InventoryError,
  isPersistentShape,
  parseInventory,
  readInventoryFile,
  serializeInventory,
  TTL_STATUSES,
  validateInventory,
  type InventoryDocument,
  type InventoryShape,
  type ScriptCall,
  type Site,
  type TtlStatus,
  type UnresolvedWrite,
  type WriteSite,
} from '../inventory/format.js';
export { compileShape, MIN_LITERAL_RUN, ShapeIndex, type CompiledShape } from '../inventory/match.js';
