/**
 * The one small interface between the runtime and a Redis client. Only ioredis (`Redis` and
 * `Cluster`) is supported today; adapters for node-redis and @upstash/redis plug in here.
 *
 * @internal
 */
import type { Cluster, Redis } from 'ioredis';
import { MemoryStore } from './memory.js';
import type { RuntimeScript } from './scripts.js';

/** A client the public helpers accept: an ioredis `Redis` or `Cluster` instance. */
export type RedisClient = Redis | Cluster;

/**
 * What the rate-limit helpers (collect, incrementWithTtl, setKeepTtl, createLimiter,
 * createCircuitBreaker) accept: a Redis client, or an in-process {@link MemoryStore} that runs
 * the same scripts with the same semantics.
 */
export type StoreClient = RedisClient | MemoryStore;

/** What the runtime needs from a client: run a script with its keys and arguments. */
export interface ScriptRunner {
  /**
   * Runs `script` with `keys` as KEYS and `args` as ARGV and resolves with the raw reply.
   * Must survive a `SCRIPT FLUSH` (retry NOSCRIPT with the source). Rejects with the client's
   * error on a server error reply or a connection problem.
   */
  run(script: RuntimeScript, keys: readonly string[], args: readonly string[]): Promise<unknown>;
}

type ScriptFn = (...args: string[]) => Promise<unknown>;

interface IoredisLike {
  defineCommand(name: string, definition: { lua: string; numberOfKeys?: number }): void;
  eval(script: string, numberOfKeys: number, ...args: string[]): Promise<unknown>;
}

const runners = new WeakMap<object, ScriptRunner>();

function isIoredis(client: unknown): client is IoredisLike {
  return (
    typeof client === 'object' &&
    client !== null &&
    typeof (client as { defineCommand?: unknown }).defineCommand === 'function'
  );
}

/**
 * ioredis: each script becomes a custom command through `defineCommand`, which sends EVALSHA and
 * falls back to EVAL when the server answers NOSCRIPT (after a restart, a failover or
 * `SCRIPT FLUSH`, https://redis.io/docs/latest/commands/evalsha/). Its fallback retries once;
 * when that retry is answered NOSCRIPT too (flushes in quick succession) this runner sends a
 * plain EVAL, so callers never see NOSCRIPT. Works the same on `Redis` and `Cluster`
 * (https://github.com/redis/ioredis#lua-scripting).
 */
function ioredisRunner(client: IoredisLike): ScriptRunner {
  const commands = new Map<RuntimeScript, ScriptFn>();
  const commandFor = (script: RuntimeScript): ScriptFn => {
    let fn = commands.get(script);
    if (fn === undefined) {
      const name = `redisTtl_${script.name}_${script.sha1.slice(0, 8)}`;
      client.defineCommand(name, { lua: script.lua, numberOfKeys: script.numberOfKeys });
      const defined = (client as unknown as Record<string, ScriptFn>)[name];
      if (defined === undefined) throw new Error(`defineCommand did not define ${name}`);
      fn = defined.bind(client);
      commands.set(script, fn);
    }
    return fn;
  };
  return {
    run(script, keys, args) {
      return commandFor(script)(...keys, ...args).catch((error: unknown) => {
        // ioredis retries NOSCRIPT once, with EVALSHA again when another command on the same
        // connection has just loaded the script; a second SCRIPT FLUSH in between makes that retry
        // fail too. EVAL carries the source and can not answer NOSCRIPT.
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return client.eval(script.lua, keys.length, ...keys, ...args);
      });
    },
  };
}

/** A memory store answers synchronously; the runner turns a throw into a rejection. */
function memoryRunner(store: MemoryStore): ScriptRunner {
  return {
    run(script, keys, args) {
      try {
        return Promise.resolve(store.runScript(script.name, keys, args));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

/**
 * Returns the script runner for `client` (one per client object).
 * @throws {TypeError} when `client` is neither an ioredis `Redis` or `Cluster` nor a `MemoryStore`.
 */
export function runnerFor(client: RedisClient | MemoryStore): ScriptRunner {
  const known = runners.get(client);
  if (known !== undefined) return known;
  if (client instanceof MemoryStore) {
    const runner = memoryRunner(client);
    runners.set(client, runner);
    return runner;
  }
  if (!isIoredis(client)) {
    throw new TypeError('redis must be an ioredis Redis or Cluster instance');
  }
  const runner = ioredisRunner(client);
  runners.set(client, runner);
  return runner;
}
