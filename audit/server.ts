/**
 * What the audit reads about each server, and the eviction-policy checks.
 *
 * - `maxmemory` and `maxmemory-policy` come from CONFIG GET
 *   (https://redis.io/docs/latest/commands/config-get/); an ACL that refuses CONFIG (managed
 *   services often do) leaves them `null` with a note, never an error.
 * - Eviction policies: https://redis.io/docs/latest/develop/reference/eviction/
 */
import type { Redis } from 'ioredis';

/** One server (one master in a cluster) as the audit found it. */
export interface NodeInfo {
  /** `host:port` */
  address: string;
  /** `redis_version` from INFO server, e.g. `'7.0.15'`. */
  version: string;
  /** DBSIZE before the scan: keys in the selected database. */
  dbsize: number;
  /** CONFIG GET maxmemory, in bytes (0 = no limit); `null` when CONFIG GET was refused. */
  maxmemory: number | null;
  /** CONFIG GET maxmemory-policy, e.g. `'volatile-lru'`; `null` when CONFIG GET was refused. */
  maxmemoryPolicy: string | null;
  /** Why CONFIG GET failed (e.g. an ACL NOPERM error), when it did. */
  configError?: string;
  /** Whether the server runs in cluster mode (INFO cluster `cluster_enabled:1`). */
  clusterEnabled: boolean;
}

/** A finding about the server configuration together with the keys found. */
export interface Warning {
  /** `'volatile-policy-no-ttl'` or `'allkeys-policy-limiter-keys'`. */
  code: 'volatile-policy-no-ttl' | 'allkeys-policy-limiter-keys';
  /** The server it concerns (`host:port`). */
  node: string;
  /** One or two sentences for humans. */
  message: string;
  /** The patterns concerned. */
  patterns: string[];
}

function infoField(info: string, field: string): string | undefined {
  const match = new RegExp(`^${field}:(.*)$`, 'm').exec(info);
  return match?.[1]?.trim();
}

/** `host:port` of a client's server. */
export function nodeAddress(node: Redis): string {
  const { host, port } = node.options;
  return `${host ?? '127.0.0.1'}:${port ?? 6379}`;
}

/**
 * Reads version, DBSIZE, cluster mode and the memory configuration of one server.
 * @throws what the connection throws for INFO or DBSIZE (e.g. NOAUTH, NOPERM, a closed socket).
 */
export async function readNodeInfo(node: Redis): Promise<NodeInfo> {
  const [server, cluster, dbsize] = await Promise.all([node.info('server'), node.info('cluster'), node.dbsize()]);
  const info: NodeInfo = {
    address: nodeAddress(node),
    version: infoField(server, 'redis_version') ?? 'unknown',
    dbsize,
    maxmemory: null,
    maxmemoryPolicy: null,
    clusterEnabled: infoField(cluster, 'cluster_enabled') === '1',
  };
  try {
    const reply = (await node.config('GET', 'maxmemory*')) as string[];
    const config = new Map<string, string>();
    for (let i = 0; i + 1 < reply.length; i += 2) config.set(reply[i]!, reply[i + 1]!);
    const maxmemory = config.get('maxmemory');
    info.maxmemory = maxmemory === undefined ? null : Number(maxmemory);
    info.maxmemoryPolicy = config.get('maxmemory-policy') ?? null;
  } catch (error) {
    info.configError = error instanceof Error ? error.message : String(error);
  }
  return info;
}

/** Whether a version string is at least `major.minor`. */
export function versionAtLeast(version: string, major: number, minor = 0): boolean {
  const [a = 0, b = 0] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

const LIMITER_WORDS = new Set([
  'rl', 'rate', 'rates', 'ratelimit', 'ratelimits', 'ratelimiter', 'limit', 'limits', 'limiter', 'limiters',
  'throttle', 'throttles', 'throttled', 'throttling', 'bucket', 'buckets', 'tokenbucket', 'window', 'windows',
  'quota', 'quotas', 'gcra', 'leaky', 'sliding', 'tb', 'fw', 'sw', 'swl', 'swl2', 'swc',
  // the runtime's keys of format 2 (the sliding-window log's, the buckets' and GCRA's format 3;
  // their format 2 still names the keys of a runtime before round 41)
  'fw2', 'swl3', 'swc2', 'tb2', 'gcra2', 'lb2', 'tb3', 'gcra3', 'lb3',
]);

/**
 * Whether a key pattern looks like rate-limiter state: one of its words (split at anything but
 * letters and digits, and at camelCase humps) is rl, rate, limit, limiter, throttle, bucket,
 * window, quota, gcra, leaky, sliding, tb, fw, sw, the runtime's algorithm segments (fw2, swl3,
 * swc2, tb2, gcra2, lb2, tb3, gcra3, lb3; or a plural / compound such as ratelimit), or it contains `ratelimit` or
 * `throttl` anywhere.
 */
export function isLimiterLike(pattern: string): boolean {
  const lower = pattern.toLowerCase();
  if (lower.includes('ratelimit') || lower.includes('throttl')) return true;
  const words = pattern
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => LIMITER_WORDS.has(w));
}

/** The per-pattern numbers the policy checks need. */
export interface PatternCounts {
  pattern: string;
  keys: number;
  noTtl: number;
}

/**
 * The eviction-policy warnings for one server and the patterns found on it (listed by the number
 * of keys concerned, then by name):
 * - `volatile-*` evicts only keys with a TTL: keys without one can never be evicted, and once
 *   they fill `maxmemory`, writes fail with OOM errors;
 * - `allkeys-*` may evict any key, including live rate-limiter counters, which silently hands the
 *   client a fresh budget.
 */
export function policyWarnings(node: NodeInfo, patterns: readonly PatternCounts[]): Warning[] {
  const policy = node.maxmemoryPolicy;
  if (policy === null) return [];
  const byName = (a: PatternCounts, b: PatternCounts) => (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0);
  const warnings: Warning[] = [];
  if (policy.startsWith('volatile-')) {
    const persistent = patterns.filter((p) => p.noTtl > 0).sort((a, b) => b.noTtl - a.noTtl || byName(a, b));
    const total = persistent.reduce((n, p) => n + p.noTtl, 0);
    if (total > 0) {
      warnings.push({
        code: 'volatile-policy-no-ttl',
        node: node.address,
        message:
          `maxmemory-policy is ${policy}, which evicts only keys with a TTL: the ${total} key(s) without TTL found here ` +
          `can never be evicted${node.maxmemory ? ` and can fill maxmemory (${node.maxmemory} bytes), after which writes fail` : ''}.`,
        patterns: persistent.map((p) => p.pattern),
      });
    }
  }
  if (policy.startsWith('allkeys-')) {
    const limiters = patterns.filter((p) => p.keys > 0 && isLimiterLike(p.pattern)).sort((a, b) => b.keys - a.keys || byName(a, b));
    if (limiters.length > 0) {
      warnings.push({
        code: 'allkeys-policy-limiter-keys',
        node: node.address,
        message:
          `maxmemory-policy is ${policy}, which may evict any key: rate-limiter state lives here and an evicted counter ` +
          `silently grants a fresh budget. Use a dedicated instance with volatile-ttl or noeviction.`,
        patterns: limiters.map((p) => p.pattern),
      });
    }
  }
  return warnings;
}
