/**
 * `redis-ttl-runtime`: TTL-safe Redis helpers and rate limiters.
 *
 * Every operation is one Lua script in `runtime/scripts/` (checked by lua-lint in the tests),
 * run through EVALSHA with automatic fallback on NOSCRIPT. Accepts an ioredis `Redis` or `Cluster`,
 * a node-redis client (`createClient()`) or an @upstash/redis `Redis`. The rate-limit helpers,
 * limiters and circuit breakers also run on a `MemoryStore` (the same scripts, in process), which
 * is what `onRedisError: 'fallback'` switches to while Redis is unavailable
 * (docs/runtime-resilience.md). Every call has a deadline; a shard found unavailable gets no
 * command until a background probe answers, and errors never carry a command's arguments.
 */
export { collect } from './collect.js';
export { RedisError, RedisUnavailableError } from './errors.js';
export type { DeadlineOptions } from './health.js';
export {
  CacheLoadError,
  createCache,
  NotFound,
  type Cache,
  type CacheOptions,
  type CacheStats,
  type EarlyRecomputeOptions,
  type InvalidateOptions,
  type Loader,
  type NotFoundMarker,
  type Serializer,
} from './cache.js';
export { incrementWithTtl, type IncrementOptions, type IncrementResult, type TtlMode } from './increment.js';
export { setKeepTtl } from './set-keep-ttl.js';
export { runtimeScripts, type ScriptSource } from './scripts.js';
export { buildKey, hashIdentity, IDENTITY_HASH_LENGTH, type KeyParts } from './keys.js';
export {
  createLimiter,
  SLIDING_LOG_MAX_CALLS_PER_WINDOW,
  SLIDING_LOG_MAX_LIMIT,
  type Algorithm,
  type CommonLimiterOptions,
  type FixedWindowOptions,
  type GcraOptions,
  type LeakyBucketOptions,
  type Limiter,
  type LimiterOptions,
  type LimitResult,
  type SlidingWindowCounterOptions,
  type SlidingWindowLogOptions,
  type TakeOptions,
  type TokenBucketOptions,
} from './limiter.js';
export type { OutagePolicy, OutageReason } from './outage.js';
export type { IoredisLike, NodeRedisLike, RedisClient, StoreClient, UpstashLike } from './client.js';
export {
  createCircuitBreaker,
  type BreakerCallOptions,
  type BreakerDecision,
  type BreakerSnapshot,
  type BreakerState,
  type CallOutcome,
  type CircuitBreaker,
  type CircuitBreakerOptions,
} from './breaker.js';
export { createMemoryStore, MemoryReplyError, MemoryStore, StoreFullError, type MemoryStoreOptions } from './memory.js';
export type { OnRedisError, OutageOptions } from './fallback.js';
