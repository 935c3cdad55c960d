/**
 * The Lua scripts of the runtime, one file per operation in `runtime/scripts/`. The build copies
 * that folder to `dist/runtime/scripts`, so the files are located relative to this module.
 *
 * @internal
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** One script: its name, how many of its arguments are keys, and its source (read on first use). */
export interface RuntimeScript {
  /** File name without `.lua`, e.g. `collect`. */
  readonly name: string;
  /** How many leading arguments are keys (they go to `KEYS`, the rest to `ARGV`). */
  readonly numberOfKeys: number;
  /** The Lua source. */
  readonly lua: string;
  /** SHA-1 of the source, what EVALSHA takes (https://redis.io/docs/latest/commands/evalsha/). */
  readonly sha1: string;
}

const URLS = {
  collect: new URL('./scripts/collect.lua', import.meta.url),
  increment: new URL('./scripts/increment.lua', import.meta.url),
  set_keep_ttl: new URL('./scripts/set_keep_ttl.lua', import.meta.url),
  fixed_window: new URL('./scripts/fixed_window.lua', import.meta.url),
  sliding_window_log: new URL('./scripts/sliding_window_log.lua', import.meta.url),
  sliding_window_counter: new URL('./scripts/sliding_window_counter.lua', import.meta.url),
  token_bucket: new URL('./scripts/token_bucket.lua', import.meta.url),
  gcra: new URL('./scripts/gcra.lua', import.meta.url),
  leaky_bucket: new URL('./scripts/leaky_bucket.lua', import.meta.url),
  cache_get: new URL('./scripts/cache_get.lua', import.meta.url),
  cache_set: new URL('./scripts/cache_set.lua', import.meta.url),
  cache_release: new URL('./scripts/cache_release.lua', import.meta.url),
  cache_del: new URL('./scripts/cache_del.lua', import.meta.url),
  circuit_acquire: new URL('./scripts/circuit_acquire.lua', import.meta.url),
  circuit_record: new URL('./scripts/circuit_record.lua', import.meta.url),
  circuit_read: new URL('./scripts/circuit_read.lua', import.meta.url),
} as const;

/** Names of the scripts shipped in `runtime/scripts/`. */
export type ScriptName = keyof typeof URLS;

/** Scripts that take more than one key (every other script takes exactly one). */
const NUMBER_OF_KEYS: Partial<Record<ScriptName, number>> = { cache_get: 2, cache_set: 2, cache_del: 2 };

const cache = new Map<ScriptName, RuntimeScript>();

/**
 * Returns the script `name`, reading its file once.
 * @throws {Error} when the file is missing (a broken install: `runtime/scripts` not copied).
 */
export function getScript(name: ScriptName): RuntimeScript {
  let script = cache.get(name);
  if (script === undefined) {
    const lua = readFileSync(URLS[name], 'utf8');
    script = { name, numberOfKeys: NUMBER_OF_KEYS[name] ?? 1, lua, sha1: createHash('sha1').update(lua).digest('hex') };
    cache.set(name, script);
  }
  return script;
}

/** Every script shipped, for tests and audits. */
export function allScriptNames(): ScriptName[] {
  return Object.keys(URLS) as ScriptName[];
}
