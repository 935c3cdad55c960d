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
