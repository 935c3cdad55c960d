/**
 * `settings['redis-ttl']`, read and validated in one place for every rule. A value of the wrong
 * type, an invalid regular expression or pattern, or a setting name the plugin does not know is an
 * error that names the setting and the value given (ESLint prints it with the rule that read it),
 * never silently ignored: a typo such as `persistentKey` would otherwise turn a setting off
 * without a word.
 */
import { keyPatternMatcher, type KeyPatternMatcher } from '../semantics/key-patterns.js';
import { parseRedisVersion, type RedisVersion } from '../semantics/versions.js';
import { nearestName } from '../text/did-you-mean.js';
import type { AnyContext } from './static.js';
import { majorOfRange } from './version-range.js';

/**
 * Default `clientNames`: receivers named like a Redis client when nothing else is known. A name
 * containing `redis` or `valkey` always counts; the generic `client` only in a file that imports
 * a Redis client package (a memcached or HTTP `client.incr(...)` elsewhere is not Redis).
 */
export const DEFAULT_CLIENT_NAMES: readonly string[] = ['redis', 'valkey', '^client$'];
/** Default names that need a Redis import in the file to count. */
const WEAK_DEFAULT_NAMES: ReadonlySet<string> = new Set(['^client$']);

/** A `clientNames` entry, compiled. */
export interface ClientNamePattern {
  /** The entry as written (shown in messages: "its name matches clientNames /redis/i"). */
  source: string;
  regex: RegExp;
}

/** A `persistentKeys` entry, compiled. */
export interface PersistentKeyPattern {
  /** The pattern as written (shown in messages). */
  pattern: string;
  matches: KeyPatternMatcher;
}

/** `settings['redis-ttl']` after validation, with defaults filled in. */
export interface PluginSettings {
  /** Names that mark a receiver as a client on their own (case-insensitive regular expressions). */
  clientNames: ClientNamePattern[];
  /** Names that count only in a file importing a Redis client package (the default `^client$`). */
  weakClientNames: ClientNamePattern[];
  /** `autofix: true` turns the fixes of every rule on (default `false`). */
  autofix: boolean;
  /** Module specifier the autofixes import runtime helpers from; `undefined`: the default. */
  runtimeModule: string | undefined;
  /** The expiry `set-requires-ttl-or-keepttl` adds, in seconds (an integer >= 1), or `undefined`. */
  defaultTtlSeconds: number | undefined;
  /**
   * Keys persistent by design: patterns matched against a key's shape (`bull:*:wait`); see
   * `semantics/key-patterns.ts` for the syntax.
   */
  persistentKeys: PersistentKeyPattern[];
  /**
   * The oldest Redis server the code runs against (`'6.2'`, `'7.0.15'`), for `min-redis-version`
   * (and the embedded scripts' rule of the same id); `undefined` when not set.
   */
  redisVersion: { text: string; version: RedisVersion } | undefined;
  /**
   * The major version of node-redis (`redis`) the code runs on, from `nodeRedisVersion`;
   * `undefined` when not set (then types or the nearest package.json decide: `client-version.ts`).
   */
  nodeRedisMajor: number | undefined;
  /**
   * Whether Redis is the project's database of record (`redisIsDatabase`): `true` or `false` as
   * declared, `'infer'` to read it from the package's dependencies
   * (`redis-calls/database-of-record.ts`); `false` when not set.
   */
  redisIsDatabase: boolean | 'infer';
}

/**
 * `settings['redis-ttl']` as written in a flat config (exported from the package root). Every
 * value is checked when a rule reads it: a wrong type, an invalid pattern or an unknown name is an
 * error naming the setting (see {@link pluginSettings}).
 */
export interface RedisTtlSettings {
  /**
   * Keys persistent by design (queues, registries, stats kept forever): patterns matched against
   * each key's shape, `*` for any run of characters (`'bull:*'`, `'stats:*:daily'`). No rule reports
   * them (`embedded-lua` included, for the `KEYS` an `eval` passes them as). Default `[]`.
   */
  persistentKeys?: string[];
  /**
   * Regular expressions (case-insensitive) matched against a receiver's name when nothing else
   * tells whether it is a Redis client. Default `['redis', 'valkey', '^client$']` (`client` only
   * in files that import a Redis client package); a list given replaces it, every entry counting
   * everywhere.
   */
  clientNames?: string | string[];
  /**
   * The oldest Redis server the code runs against (`'6.2'`, `'7.0.15'`): `min-redis-version` and
   * `embedded-lua` report commands and options newer than it. Default: unset.
   */
  redisVersion?: string;
  /**
   * The node-redis (`redis` package) version the code runs on, a version or range (`'3'`,
   * `'3.1.2'`, `'^4.6.0'`), when the nearest package.json does not say it (`redis` comes in
   * through another package) or says it wrongly. node-redis 3 takes SET options as positional
   * tokens (`set(k, v, 'EX', 60)`), 4 and later as an object. Default: unset (type information,
   * then the nearest package.json naming `redis`, then an installed `node_modules/redis`, decide;
   * unknown means 4 or later).
   */
  nodeRedisVersion?: string;
  /** Turn the fixes of every rule on, as each rule's `fix: true` does. Default `false`. */
  autofix?: boolean;
  /**
   * The expiry, in seconds (an integer >= 1), that `set-requires-ttl-or-keepttl`'s fix adds to a
   * SET without one; without it that rule offers no fix. Default: unset.
   */
  defaultTtlSeconds?: number;
  /** The module the fixes import the runtime's helpers from. Default `'redis-ttl-runtime'`. */
  runtimeModule?: string;
  /**
   * Redis is the project's database of record (no other database holds its data): a write of a
   * per-entity record (a hash, set, sorted set or string keyed by an id: `user:${id}`) whose key
   * family no code of the package gives a TTL is then kept on purpose, not reported. Counters,
   * lists, streams, locks (SET NX) and keys named as temporary (cache, session, lock, token, limit
   * ...) are judged as before. `'infer'`: read as such when the package's `package.json` names a
   * Redis client and no other database's client (with `allowStorageBackends`). Default `false`.
   */
  redisIsDatabase?: boolean | 'infer';
}

/** The setting names the plugin reads; any other name under `settings['redis-ttl']` is an error. */
export const SETTING_NAMES = ['autofix', 'clientNames', 'defaultTtlSeconds', 'nodeRedisVersion', 'persistentKeys', 'redisIsDatabase', 'redisVersion', 'runtimeModule'] as const satisfies ReadonlyArray<keyof RedisTtlSettings>;

const cache = new WeakMap<object, PluginSettings>();
let defaults: PluginSettings | undefined;

/**
 * The validated `settings['redis-ttl']` of a rule context (computed once per settings object).
 * @throws Error naming the setting and the bad value when a value is invalid or a name unknown.
 */
export function pluginSettings(context: AnyContext): PluginSettings {
  const raw = (context.settings as Record<string, unknown> | undefined)?.['redis-ttl'];
  if (raw === undefined || raw === null) return (defaults ??= parseSettings({}));
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error(`settings['redis-ttl'] must be an object of settings, got ${show(raw)}.`);
  }
  let parsed = cache.get(raw);
  if (!parsed) {
    parsed = parseSettings(raw as Record<string, unknown>);
    cache.set(raw, parsed);
  }
  return parsed;
}

function parseSettings(raw: Record<string, unknown>): PluginSettings {
  for (const name of Object.keys(raw)) {
    if (!(SETTING_NAMES as readonly string[]).includes(name)) {
      const nearest = nearestName(name, SETTING_NAMES);
      throw new Error(
        `settings['redis-ttl'].${name} is not a setting of eslint-plugin-redis-ttl` +
          (nearest ? `; did you mean "${nearest}"?` : ` (its settings: ${SETTING_NAMES.join(', ')}).`),
      );
    }
  }
  const settings: PluginSettings = {
    clientNames: [],
    weakClientNames: [],
    autofix: false,
    runtimeModule: undefined,
    defaultTtlSeconds: undefined,
    persistentKeys: [],
    redisVersion: undefined,
    nodeRedisMajor: undefined,
    redisIsDatabase: false,
  };

  const clientNames = raw.clientNames;
  if (clientNames === undefined) {
    for (const source of DEFAULT_CLIENT_NAMES) {
      (WEAK_DEFAULT_NAMES.has(source) ? settings.weakClientNames : settings.clientNames).push({ source, regex: new RegExp(source, 'i') });
    }
  } else {
    const list = typeof clientNames === 'string' ? [clientNames] : clientNames;
    if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string')) {
      throw new Error(`settings['redis-ttl'].clientNames must be a string or an array of strings (regular expressions), got ${show(clientNames)}.`);
    }
    settings.clientNames = (list as string[]).map((source) => ({ source, regex: compileClientName(source) }));
  }

  if (raw.autofix !== undefined) {
    if (typeof raw.autofix !== 'boolean') throw new Error(`settings['redis-ttl'].autofix must be true or false, got ${show(raw.autofix)}.`);
    settings.autofix = raw.autofix;
  }

  if (raw.runtimeModule !== undefined) {
    if (typeof raw.runtimeModule !== 'string' || raw.runtimeModule.trim() === '') {
      throw new Error(`settings['redis-ttl'].runtimeModule must be a non-empty module specifier, got ${show(raw.runtimeModule)}.`);
    }
    settings.runtimeModule = raw.runtimeModule;
  }

  if (raw.redisIsDatabase !== undefined) {
    if (typeof raw.redisIsDatabase !== 'boolean' && raw.redisIsDatabase !== 'infer') {
      throw new Error(`settings['redis-ttl'].redisIsDatabase must be true, false or 'infer', got ${show(raw.redisIsDatabase)}.`);
    }
    settings.redisIsDatabase = raw.redisIsDatabase;
  }

  const ttl = raw.defaultTtlSeconds;
  if (ttl !== undefined) {
    if (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl < 1) {
      throw new Error(`settings['redis-ttl'].defaultTtlSeconds must be an integer >= 1 (seconds), got ${show(ttl)}.`);
    }
    settings.defaultTtlSeconds = ttl;
  }

  if (raw.redisVersion !== undefined) {
    const version = parseRedisVersion(raw.redisVersion);
    if (!version) {
      throw new Error(`settings['redis-ttl'].redisVersion must be a Redis version such as '6.2' or '7.0.15' (a string), got ${show(raw.redisVersion)}.`);
    }
    settings.redisVersion = { text: String(raw.redisVersion).trim(), version };
  }

  if (raw.nodeRedisVersion !== undefined) {
    const major = typeof raw.nodeRedisVersion === 'string' ? majorOfRange(raw.nodeRedisVersion) : undefined;
    if (major === undefined) {
      throw new Error(
        `settings['redis-ttl'].nodeRedisVersion must be a node-redis version or range of one major version such as '3', '3.1.2' or '^4.6.0' (a string), got ${show(raw.nodeRedisVersion)}.`,
      );
    }
    settings.nodeRedisMajor = major;
  }

  const persistent = raw.persistentKeys;
  if (persistent !== undefined) {
    if (!Array.isArray(persistent)) {
      throw new Error(`settings['redis-ttl'].persistentKeys must be an array of key patterns such as 'bull:*:wait', got ${show(persistent)}.`);
    }
    for (const pattern of persistent) {
      if (typeof pattern !== 'string' || pattern.trim() === '') {
        throw new Error(
          `settings['redis-ttl'].persistentKeys: ${show(pattern)} is not a key pattern (a non-empty string such as 'bull:*:wait'; ` +
            `KEYS indices of embedded scripts go in the embedded-lua rule's persistentKeys option).`,
        );
      }
      settings.persistentKeys.push({ pattern, matches: keyPatternMatcher(pattern) });
    }
  }
  return settings;
}

function compileClientName(source: string): RegExp {
  try {
    return new RegExp(source, 'i');
  } catch (error) {
    throw new Error(
      `settings['redis-ttl'].clientNames: ${JSON.stringify(source)} is not a valid regular expression ` +
        `(${error instanceof Error ? error.message : String(error)}).`,
      { cause: error },
    );
  }
}

/** A value as the user wrote it in the config, for error messages. */
function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
