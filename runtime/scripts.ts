/**
 * The Lua scripts of the runtime, one file per operation in `runtime/scripts/`. The build compiles
 * those files into `lua.generated.ts` (scripts/generate-lua-module.mjs), so nothing is read from
 * disk at run time and the runtime works inside a bundle.
 *
 * @internal
 */
import { createHash } from 'node:crypto';
import { LUA_SOURCES } from './lua.generated.js';

/** One script: its name, how many of its arguments are keys, and its source. */
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

/** Names of the scripts shipped in `runtime/scripts/` (file names without `.lua`). */
export type ScriptName = keyof typeof LUA_SOURCES;

/** Scripts that take more than one key (every other script takes exactly one). */
const NUMBER_OF_KEYS: Partial<Record<ScriptName, number>> = { cache_get: 2, cache_set: 2, cache_del: 2 };

const cache = new Map<ScriptName, RuntimeScript>();

/** Returns the script `name` (its SHA-1 computed once). */
export function getScript(name: ScriptName): RuntimeScript {
  let script = cache.get(name);
  if (script === undefined) {
    const lua = LUA_SOURCES[name];
    script = { name, numberOfKeys: NUMBER_OF_KEYS[name] ?? 1, lua, sha1: createHash('sha1').update(lua).digest('hex') };
    cache.set(name, script);
  }
  return script;
}

/** Every script shipped, for tests and audits. */
export function allScriptNames(): ScriptName[] {
  return Object.keys(LUA_SOURCES) as ScriptName[];
}

const GET_LUA = "return redis.call('GET', KEYS[1])";

/**
 * Not a script: a plain `GET KEYS[1]` (https://redis.io/docs/latest/commands/get/), which the
 * runners send as the client's own GET command (one command, no script), e.g. for a cache hit.
 * Its `lua` does the same, for clients without a GET method.
 */
export const GET_COMMAND: RuntimeScript = {
  name: 'GET',
  numberOfKeys: 1,
  lua: GET_LUA,
  sha1: createHash('sha1').update(GET_LUA).digest('hex'),
};

/** A script of the runtime as an administrator preloads it: `SCRIPT LOAD <lua>` answers `sha1`. */
export interface ScriptSource {
  /** File name without `.lua` (`'GET'`: the one-line GET for clients without a GET method). */
  readonly name: string;
  /** SHA-1 of `lua`, what EVALSHA sends. */
  readonly sha1: string;
  /** The Lua source. */
  readonly lua: string;
}

/**
 * Every script the runtime may run, for a Redis user allowed EVALSHA but not EVAL: load each with
 * `SCRIPT LOAD` (on every master, again after a restart, a failover or `SCRIPT FLUSH`), e.g.
 * `for (const s of runtimeScripts()) await redis.script('LOAD', s.lua)`.
 */
export function runtimeScripts(): ScriptSource[] {
  const scripts: ScriptSource[] = allScriptNames().map((name) => {
    const { sha1, lua } = getScript(name);
    return { name, sha1, lua };
  });
  scripts.push({ name: GET_COMMAND.name, sha1: GET_COMMAND.sha1, lua: GET_COMMAND.lua });
  return scripts;
}
