/**
 * The TypeScript types of the plugin's configuration, exported from the package root for users who
 * type their `eslint.config.*` (`import type { RedisTtlSettings } from 'eslint-plugin-redis-ttl'`):
 * `settings['redis-ttl']` and the options object of every rule, with the same names, types and
 * defaults as the JSON schemas ESLint validates the options against (tests/rules/types.test.ts
 * ties the two). Each rule's own `Options` tuple is made of these.
 */
import type { Linter } from 'eslint';
import type { KeyPolicyOptions } from '../redis-calls/policy.js';
import type { LuaRuleId } from '../lua-lint/types.js';

export type { KeyPolicyOptions } from '../redis-calls/policy.js';
export type { RedisTtlSettings } from '../redis-calls/settings.js';

/** A Lua rule's severity as written in options: `'off'` (0), `'warn'` (1) or `'error'` (2). */
export type LuaSeverityOption = 'off' | 'warn' | 'error' | 0 | 1 | 2;

/** The `fix` option of the rules that have fixes. */
export interface FixOption {
  /**
   * Return fixes (`eslint --fix` rewrites the call), not only editor suggestions. Default:
   * `settings['redis-ttl'].autofix`, else `false`.
   */
  fix?: boolean;
}

/** Options of `no-getset`. */
export interface NoGetsetOptions extends KeyPolicyOptions, FixOption {}

/**
 * Options of `no-persist`: `allowPassThrough` (default `true`, `false` in `strict`) leaves alone a
 * PERSIST of a key the code's user names verbatim (an admin UI's "persist" action on the key its
 * operator typed: a request field, a client's message, a command-line argument).
 */
export type NoPersistOptions = Pick<KeyPolicyOptions, 'allowPassThrough'>;

/** Options of `set-requires-ttl-or-keepttl`. */
export interface SetRequiresTtlOrKeepttlOptions extends KeyPolicyOptions {
  /**
   * Return fixes, not only suggestions; they add `settings['redis-ttl'].defaultTtlSeconds` as the
   * expiry and are offered only when that setting is set (the rule never guesses a TTL). Default:
   * `settings['redis-ttl'].autofix`, else `false`.
   */
  fix?: boolean;
  /**
   * Whether a write followed by the expiry of its keys in one `pipeline()` counts as one unit.
   * Pipelines are not atomic. Default `true`; `false` in the `strict` config.
   */
  allowPipeline?: boolean;
  /**
   * Whether `SET ... KEEPTTL` without `XX` is accepted when nothing in view gave the key a TTL
   * before it; an earlier round trip of the same function that did, with time passing in between (a
   * callback, an `await` of something else), is always reported (the key may have expired, and
   * KEEPTTL recreates it without TTL). Default `true`; `false` in the
   * `strict` config, which reports every KEEPTTL without XX.
   */
  allowKeepTtl?: boolean;
  /**
   * Do not report a key the same file deletes as a whole (DEL, UNLINK, GETDEL) in another function,
   * off the writer's own path (a GC, a sweeper, an invalidation on change), and never gives a TTL:
   * its life is managed by the code. Locks (SET NX, SETNX, a key or value named lock / token) are
   * always reported. Default `true`; `false` in the `strict` config, which reports it saying that
   * a crash before the DEL leaves the key forever.
   * A key family the code gives a TTL beyond the file (redis-calls/cache-keys.ts) is a cache: its
   * DEL is an invalidation, and a write of it without TTL is reported.
   */
  allowDeletedKeys?: boolean;
}

/** Options of `incr-needs-expire-on-create`. */
export interface IncrNeedsExpireOnCreateOptions extends KeyPolicyOptions, FixOption {
  /**
   * Whether a `pipeline()` (or node-redis `execAsPipeline()`) counts as one unit for a write and
   * its expiry. Pipelines are not atomic. Default `true`; `false` in the `strict` config.
   */
  allowPipeline?: boolean;
  /**
   * Do not report a write whose key the same function re-arms whenever its TTL is missing: an
   * EXPIRE / PEXPIRE of the key on a branch where its TTL / PTTL reply is -1 (`ttl < 0`,
   * `ttl === -1`), so a lost expiry is healed on the next call (a key never hit again keeps none).
   * Default `true`; `false` in the `strict` config.
   */
  allowTtlRepair?: boolean;
  /**
   * Do not report a write of a bounded key (a constant, a member fixed once per instance, a value
   * of a finite type) whose expiry follows as a separate round trip that runs after every write,
   * not only on creation (`redis.hset('health', f, v); redis.expire('health', 900);`): a crash in
   * between leaves at most that key without TTL, and the next write re-arms it. A per-identity
   * key, or an expiry sent only on creation (`if (n === 1)`), stays reported. Default `true`;
   * `false` in the `strict` config.
   */
  allowRearmedBoundedKeys?: boolean;
  /**
   * Do not report a key the same file deletes as a whole (DEL, UNLINK, GETDEL) in another function,
   * off the writer's own path (a GC, a sweeper, an invalidation on change), and never gives a TTL:
   * its life is managed by the code. Locks (SET NX, SETNX, a key or value named lock / token) are
   * always reported. Default `true`; `false` in the `strict` config, which reports it saying that
   * a crash before the DEL leaves the key forever.
   * A key family the code gives a TTL beyond the file (redis-calls/cache-keys.ts) is a cache: its
   * DEL is an invalidation, and a write of it without TTL is reported.
   */
  allowDeletedKeys?: boolean;
  /**
   * Do not report an ID sequence: an INCR / INCRBY whose reply names another key, or is stored or
   * returned as an id (expiring it would reissue ids). A counter compared with a limit is always
   * reported. Default `true`; `false` in the `strict` config.
   */
  allowIdSequences?: boolean;
  /**
   * Do not report a push to a work queue (a list, set or sorted set written with LPUSH, RPUSH,
   * SADD, ZADD ...) that another function of the same file pops from (LPOP, RPOP, BRPOP, LMOVE,
   * LMPOP, SPOP, ZPOPMIN, BZPOPMIN ...) and never gives a TTL: Redis deletes the key with its last
   * element, so the queue does not outlive its work. Streams, reads (LRANGE, LINDEX), LTRIM and
   * LREM / SREM of a named member do not count, nor a pop the writer itself calls. Default `true`;
   * `false` in the `strict` config, which reports it saying the queue stays if its consumer stops.
   */
  allowConsumedQueues?: boolean;
  /**
   * Do not report a write that keeps the key's TTL (HSET, HINCRBY, SADD ...; not a string
   * counter) of a record another function of the same file creates with an expiry (SET ... EX,
   * SETEX, or a write and its EXPIRE of the same key): the record carries its TTL, and only an
   * update racing the expiry recreates it without one. Still reported when the creating function's
   * expiry is on another key, or the updating function clears the TTL (SET, GETSET, PERSIST of the
   * key) or gives a key a TTL itself (it creates). Default `true`; `false` in the `strict` config, which reports the race.
   */
  allowTtlRecordUpdates?: boolean;
}

/** Options of `embedded-lua`: the same as lua-lint's configuration. */
export interface EmbeddedLuaOptions {
  /** Severity per Lua rule id; `'off'` hides that rule's findings. Default: the Lua rules' own. */
  rules?: Partial<Record<LuaRuleId, LuaSeverityOption>>;
  /**
   * Keys persistent on purpose in the scripts: 1-based `KEYS` indices (`2` is `KEYS[2]`) or key
   * spellings with `*` wildcards (`'KEYS[2]'`, `'job_*'`). Default `[]`.
   */
  persistentKeys?: Array<string | number>;
  /**
   * Do not report a leak that happens only where the caller passed no TTL
   * (`if ttl > 0 then PEXPIRE k ttl end` with `ttl` from `ARGV`). Default `true`; `false` in the
   * `strict` config.
   */
  allowOptionalTtl?: boolean;
  /**
   * Do not report a `KEYS[i]` whose argument at the eval is an opaque key built by a key helper (no
   * `persistentKeys` pattern can name it) when neither the file nor the script says a key is meant
   * to expire. Default `true`; `false` in the `strict` config.
   */
  allowOpaqueKeys?: boolean;
  /**
   * Do not report a `KEYS[i]` a script adds members to (ZADD, SADD, HSET, RPUSH ...) that another
   * script of the same file, called from code that may run, takes them off again: removes the same
   * members by name (ZREM, SREM, HDEL: an ack, a release) or pops it (ZPOPMIN, LPOP: a dequeue),
   * the same key at their calls (`redis-calls/script-consumers.ts`). Redis deletes the emptied
   * collection, as for a queue its consumer pops in TypeScript (`allowConsumedQueues` of the key
   * rules). Default `true`; `false` in the `strict` config.
   */
  allowConsumedQueues?: boolean;
  /**
   * Do not report a `KEYS[i]` that every call of the script passes one bounded key as (a literal,
   * a `const`, a member of a const object, a key builder called with constants only, a member
   * fixed once per instance: the key rules' constant key), when neither the file nor the script
   * gives that key a TTL (`redis-calls/script-fixed-keys.ts`). Default `true`; `false` in the
   * `strict` config.
   */
  allowConstantKeys?: boolean;
  /**
   * lua-lint's strict mode: also report a TTL taken from `ARGV` that the script never checks.
   * Default `false`; `true` in the `strict` config.
   */
  strict?: boolean;
}

/** Options of `expire-needs-positive-ttl`. */
export interface ExpireNeedsPositiveTtlOptions {
  /**
   * Also report a TTL taken from a parameter of the enclosing function that is never compared
   * with a number before the expiry (also converted and rounded down, `Math.floor(ttlMs / 1000)`),
   * a remaining time given to the EXPIRE family (`expire(k, deadline - now)`: deleted once the
   * moment has passed) and a literal `expire(k, 0)` without condition (a DEL). Default `false`;
   * `true` in the `strict` config.
   */
  checkParameters?: boolean;
}

/**
 * The options object of each rule, by rule name; `undefined` for the rules that take no options
 * (`valid-ttl-args`, `ttl-units`, `fixed-window-expire`, `min-redis-version`).
 */
export interface RedisTtlRuleOptions {
  'no-getset': NoGetsetOptions;
  'set-requires-ttl-or-keepttl': SetRequiresTtlOrKeepttlOptions;
  'incr-needs-expire-on-create': IncrNeedsExpireOnCreateOptions;
  'embedded-lua': EmbeddedLuaOptions;
  'valid-ttl-args': undefined;
  'expire-needs-positive-ttl': ExpireNeedsPositiveTtlOptions;
  'ttl-units': undefined;
  'fixed-window-expire': undefined;
  'no-persist': NoPersistOptions;
  'min-redis-version': undefined;
}

/**
 * The plugin's entries of a flat config's `rules`, typed: a severity, or a severity and the rule's
 * options object for the rules that have one
 * (`{ 'redis-ttl/no-getset': ['error', { fix: true }], 'redis-ttl/no-persist': 'warn' }`).
 */
export type RedisTtlRulesConfig = {
  [Name in keyof RedisTtlRuleOptions as `redis-ttl/${Name}`]?:
    | Linter.RuleSeverity
    | [Linter.RuleSeverity]
    | (RedisTtlRuleOptions[Name] extends undefined ? never : [Linter.RuleSeverity, RedisTtlRuleOptions[Name]]);
};
