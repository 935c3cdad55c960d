/**
 * The one small interface between the runtime and a Redis client. The client's shape decides the
 * adapter (no import of any client library at run time):
 * - ioredis `Redis` / `Cluster` (has `defineCommand` and `evalsha`);
 * - node-redis v4+ client or cluster from `createClient()` / `createCluster()` (has `evalSha` /
 *   `eval` taking `{ keys, arguments }`, or only `sendCommand([...])`);
 * - @upstash/redis `Redis` (has lowercase `evalsha(sha, keys, args)` / `eval(script, keys, args)`),
 *   or any object with that pair of methods;
 * - Valkey GLIDE `GlideClient` / `GlideClusterClient` (has `invokeScript` and `customCommand`);
 * - Bun's `RedisClient` (has `send`, a boolean `connected` and positional `evalsha` / `eval`).
 * Each adapter sends EVALSHA and falls back to EVAL on NOSCRIPT. ioredis 5 and 6 and iovalkey
 * (the Valkey project's fork of ioredis) share one shape and one adapter.
 *
 * @internal
 */
import { MemoryStore } from './memory.js';
import { GET_COMMAND, type RuntimeScript } from './scripts.js';

/**
 * The part of a node-redis v4+ client (`createClient()`, `createCluster()`) the runtime uses:
 * `evalSha` / `eval` with `{ keys, arguments }`, or `sendCommand` with an argv. Structural, so
 * that this package does not depend on `redis`'s types (a `RedisClientType` of any module
 * combination fits).
 */
export type NodeRedisLike =
  | {
      evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
      eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
    }
  | { sendCommand(args: string[]): Promise<unknown> };

/**
 * The part of an @upstash/redis `Redis` the runtime uses: `evalsha` / `eval` with key and argument
 * arrays. Upstash's automatic deserialization parses JSON-looking replies; the helpers' replies
 * (integers, integer strings, `null`) come through unchanged (numbers are kept as strings when
 * parsing would change them), but `createCache` needs `automaticDeserialization: false`.
 */
export interface UpstashLike {
  evalsha(sha1: string, keys: string[], args: string[]): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

/**
 * The part of a Valkey GLIDE client (`GlideClient` or `GlideClusterClient` of
 * `@valkey/valkey-glide`) the runtime uses: `customCommand` (EVALSHA, EVAL) and `get`;
 * `invokeScript` only tells GLIDE apart from the other clients. Structural, so that the runtime's
 * types import nothing from `@valkey/valkey-glide` (method parameters are checked bivariantly: a
 * `GlideClient` fits although its methods take `GlideString` and options).
 */
export interface GlideLike {
  customCommand(args: string[]): Promise<unknown>;
  invokeScript(script: object, options?: { keys?: string[]; args?: string[] }): Promise<unknown>;
  get(key: string): Promise<unknown>;
}

/**
 * The part of Bun's built-in Redis client (`RedisClient` and the default `redis` of the `bun`
 * module, https://bun.com/docs/runtime/redis) the runtime uses: `evalsha` / `eval` with the
 * number of keys first (as ioredis), `get`; `send` and `connected` tell it apart from
 * @upstash/redis. Only runs under Bun.
 */
export interface BunRedisLike {
  readonly connected: boolean;
  send(command: string, args: string[]): Promise<unknown>;
  evalsha(sha1: string, numkeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  eval(script: string, numkeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  get(key: string): Promise<unknown>;
}

/**
 * The part of an ioredis `Redis` or `Cluster` the runtime uses: `evalsha` and `eval`
 * (`defineCommand` only tells ioredis apart from @upstash/redis, which has an `evalsha` too).
 * Structural, so that the runtime's types import nothing from `ioredis`: a project on node-redis
 * or @upstash/redis type-checks without it installed. ioredis 5 and 6 and iovalkey fit.
 */
export interface IoredisLike {
  defineCommand(name: string, definition: { lua: string; numberOfKeys?: number }): void;
  evalsha(sha1: string, numberOfKeys: number, ...args: string[]): Promise<unknown>;
  eval(script: string, numberOfKeys: number, ...args: string[]): Promise<unknown>;
}

/**
 * A client the public helpers accept: an ioredis (5 or 6) or iovalkey `Redis` or `Cluster`, a
 * node-redis v4+ client or cluster, an @upstash/redis `Redis` (any object with its `evalsha` /
 * `eval`), a Valkey GLIDE `GlideClient` / `GlideClusterClient`, or Bun's `RedisClient` (under Bun).
 */
export type RedisClient = IoredisLike | NodeRedisLike | UpstashLike | GlideLike | BunRedisLike;

/**
 * What the rate-limit helpers (collect, incrementWithTtl, setKeepTtl, createLimiter,
 * createCircuitBreaker) accept: a Redis client, or an in-process {@link MemoryStore} that runs
 * the same scripts with the same semantics.
 */
export type StoreClient = RedisClient | MemoryStore;

/** Keys of a script call: one key (most scripts), or several. */
export type ScriptKeys = string | readonly string[];

/** What the runtime needs from a client: run a script with its keys and arguments. */
export interface ScriptRunner {
  /**
   * Runs `script` with `keys` as KEYS and `args` as ARGV and resolves with the raw reply.
   * Survives a `SCRIPT FLUSH` (retries NOSCRIPT with the source). Rejects with the client's
   * error on a server error reply or a connection problem.
   */
  run(script: RuntimeScript, keys: ScriptKeys, args: readonly string[]): Promise<unknown>;
  /**
   * The first attempt of {@link run}, without its own NOSCRIPT handling (one promise less per
   * call): may reject with a NOSCRIPT error reply ({@link isNoScript}), after which the caller
   * sends {@link evalSource}. `health.ts` does so for every call it sends.
   */
  send(script: RuntimeScript, keys: ScriptKeys, args: readonly string[]): Promise<unknown>;
  /** EVALSHA alone (never EVAL): may answer NOSCRIPT. */
  evalSha(script: RuntimeScript, keys: ScriptKeys, args: readonly string[]): Promise<unknown>;
  /** EVAL with the script's source: can not answer NOSCRIPT. */
  evalSource(script: RuntimeScript, keys: ScriptKeys, args: readonly string[]): Promise<unknown>;
  /** `GET key` with the client's own command (a bulk string or `null`); a script doing it where the client has none. */
  get(key: string): Promise<unknown>;
}

/** `keys` as an array (a fresh one only for a single key). */
function keyList(keys: ScriptKeys): string[] {
  return typeof keys === 'string' ? [keys] : [...keys];
}

/**
 * {@link ScriptRunner.run} from `send` and `evalSource`; `get` from the client's own `get` method
 * when `client` has one, else from the GET script.
 */
function withRetry(runner: Pick<ScriptRunner, 'send' | 'evalSource'> & Partial<Pick<ScriptRunner, 'get' | 'evalSha'>>, client?: unknown): ScriptRunner {
  const run: ScriptRunner['run'] = (script, keys, args) =>
    runner.send(script, keys, args).catch((error: unknown) => {
      if (!isNoScript(error)) throw error;
      return runner.evalSource(script, keys, args);
    });
  const own = hasFunction(client, 'get') ? (client as { get(key: string): Promise<unknown> }) : null;
  return {
    send: runner.send,
    evalSha: runner.evalSha ?? runner.send,
    evalSource: runner.evalSource,
    run,
    get: runner.get ?? (own !== null ? (key) => own.get(key) : (key) => run(GET_COMMAND, key, NO_ARGS)),
  };
}

const NO_ARGS: readonly string[] = [];

/** The argv of `EVALSHA sha1 numkeys key... arg...` or `EVAL source numkeys key... arg...`. */
function argv(command: 'EVALSHA' | 'EVAL', first: string, keys: ScriptKeys, args: readonly string[]): string[] {
  return typeof keys === 'string' ? [command, first, '1', keys, ...args] : [command, first, String(keys.length), ...keys, ...args];
}

const runners = new WeakMap<object, ScriptRunner>();

function isIoredis(client: unknown): client is IoredisLike {
  return hasFunction(client, 'defineCommand') && hasFunction(client, 'evalsha');
}

/**
 * ioredis: `client.evalsha(sha1, numberOfKeys, ...keys, ...args)`, and `client.eval` with the
 * source on the first call of each script through this runner, so that a server that has never
 * seen it loads it without a NOSCRIPT round trip (as ioredis' `defineCommand` does once per
 * connection). A NOSCRIPT reply later (after a restart, a failover or `SCRIPT FLUSH`,
 * https://redis.io/docs/latest/commands/evalsha/) is retried with EVAL by the caller
 * (`ClientHealth`, or `run` here), so callers never see NOSCRIPT. `defineCommand` is not used:
 * its command object costs ~3.6 µs of client CPU per call (a `.catch` layer, a closure per write,
 * the argument array copied twice), about 15% of a call on one connection. Works the same on
 * `Redis` and `Cluster`; ioredis' `keyPrefix` applies to EVALSHA's keys as to any command's.
 */
function ioredisRunner(client: IoredisLike): ScriptRunner {
  const sent = new Set<RuntimeScript>();
  const evalSource: ScriptRunner['evalSource'] = (script, keys, args) =>
    typeof keys === 'string' ? client.eval(script.lua, 1, keys, ...args) : client.eval(script.lua, keys.length, ...keys, ...args);
  const evalSha: ScriptRunner['evalSha'] = (script, keys, args) => {
    if (typeof keys !== 'string') return client.evalsha(script.sha1, keys.length, ...keys, ...args);
    // a limiter's call of cost 1 has 2 or 3 arguments: passed as such, not spread (a spread call costs a third more here)
    if (args.length === 2) return client.evalsha(script.sha1, 1, keys, args[0]!, args[1]!);
    if (args.length === 3) return client.evalsha(script.sha1, 1, keys, args[0]!, args[1]!, args[2]!);
    return client.evalsha(script.sha1, 1, keys, ...args);
  };
  return withRetry({
    send(script, keys, args) {
      if (!sent.has(script)) {
        sent.add(script);
        return evalSource(script, keys, args);
      }
      return evalSha(script, keys, args);
    },
    evalSha,
    evalSource,
  }, client);
}

/** Valkey GLIDE's `ClosingError` for a command of a client after `close()`: nothing is sent. */
const GLIDE_CLOSED = 'Unable to execute requests; the client is closed. Please create a new client.';

function hasFunction(client: unknown, name: string): boolean {
  return typeof client === 'object' && client !== null && typeof (client as Record<string, unknown>)[name] === 'function';
}

/**
 * What to say when the client refused a command without writing it to any socket, or `null` when
 * the command may have reached the server. node-redis (4 to 6) rejects every command of a client
 * that is not connected (never `connect()`ed, or after `quit()` / `close()` / `destroy()`) with
 * `ClientClosedError` ("The client is closed"), and, when `disableOfflineQueue` is set, of a
 * client that is reconnecting with `ClientOfflineError` ("The client is offline"), both before
 * anything is written (`sendCommand` in @redis/client's `lib/client/index.js`). ioredis with
 * `enableOfflineQueue: false` rejects a command while its connection is not ready ("Stream isn't
 * writeable and enableOfflineQueue options is false", "Cluster isn't ready and ...") without
 * writing it either (`sendCommand` in ioredis' `built/Redis.js` and `built/cluster/index.js`). Its
 * "Connection is closed." is not one of them: it also rejects commands that were in flight when
 * the connection dropped. Valkey GLIDE rejects every command of a client after `close()` with a
 * `ClosingError` ("Unable to execute requests; the client is closed. ...") before sending it.
 */
export function notSentReason(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  if (error.message === 'The client is closed') {
    return 'the node-redis client is not connected ("The client is closed"): call `await client.connect()` once before using it (and again after `quit()`)';
  }
  if (error.message === 'The client is offline') {
    return 'the node-redis client is reconnecting and `disableOfflineQueue` is set ("The client is offline")';
  }
  if (/^(?:Stream|Cluster) isn't (?:writeable|ready) and enableOfflineQueue options is false$/.test(error.message)) return error.message;
  if (error.name === 'ClosingError' && error.message === GLIDE_CLOSED) {
    return 'the Valkey GLIDE client is closed ("the client is closed"): create a new client (`GlideClient.createClient()`)';
  }
  return null;
}

/**
 * Valkey GLIDE's names for the error kinds of its Rust core (redis-rs `ErrorKind`), mapped back to
 * the reply's code: GLIDE writes an error reply `LOADING ...` as "An error was signalled by the
 * server: - BusyLoadingError: ...", and a reply of a code it has no kind for (`WRONGTYPE`, `OOM`,
 * `BUSY`, `NOAUTH`...) as "WRONGTYPE: ..." (measured with @valkey/valkey-glide 2.5 against Redis 7.0).
 */
const GLIDE_KINDS: Readonly<Record<string, string>> = {
  ResponseError: 'ERR',
  BusyLoadingError: 'LOADING',
  NoScriptError: 'NOSCRIPT',
  ExecAbortError: 'EXECABORT',
  ReadOnly: 'READONLY',
  MasterDown: 'MASTERDOWN',
  ClusterDown: 'CLUSTERDOWN',
  CrossSlot: 'CROSSSLOT',
  TryAgain: 'TRYAGAIN',
  Moved: 'MOVED',
  Ask: 'ASK',
  NotBusy: 'NOTBUSY',
  PermissionDenied: 'NOPERM',
};

/**
 * A Valkey GLIDE error reply (`RequestError`, never its subclasses `TimeoutError` /
 * `ConnectionError`, which are no reply) as the other clients report it: an error named
 * `ReplyError` whose message is the server's reply text (`ERR ...`, `NOSCRIPT ...`,
 * `WRONGTYPE ...`), so that NOSCRIPT, outage and bug replies are told apart as for any client.
 * Any other value is returned as is.
 */
export function glideReplyError(error: unknown): unknown {
  if (!(error instanceof Error) || error.name !== 'RequestError') return error;
  return replyError(glideReplyText(error.message)) ?? error;
}

/** An error named `ReplyError` (as ioredis names error replies) with the reply's text, or `undefined`. */
function replyError(text: string | undefined): Error | undefined {
  if (text === undefined) return undefined;
  const reply = new Error(text);
  reply.name = 'ReplyError';
  return reply;
}

/** The reply text of a GLIDE `RequestError` message, or `undefined` when it is not one GLIDE made of a reply. */
function glideReplyText(message: string): string | undefined {
  const known = /^An error was signalled by the server: - (\w+): ([\s\S]*)$/.exec(message);
  if (known !== null) {
    const code = GLIDE_KINDS[known[1]!];
    return code === undefined ? undefined : `${code} ${known[2]!}`;
  }
  const extension = /^([A-Z][A-Z_]{1,31}): ([\s\S]*)$/.exec(message);
  return extension === null ? undefined : `${extension[1]!} ${extension[2]!}`;
}

/**
 * A Bun `RedisClient` error reply (its error with `code: 'ERR_REDIS_SERVER_ERROR'`, the message
 * being the reply's text) as an error named `ReplyError`, so that it is told apart from a closed
 * connection (`ERR_REDIS_CONNECTION_CLOSED`, an outage); any other value is returned as is.
 */
export function bunReplyError(error: unknown): unknown {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'ERR_REDIS_SERVER_ERROR') return error;
  return replyError(error.message) ?? error;
}

/** A NOSCRIPT error reply, whatever the client wraps it in (`ReplyError`, `ErrorReply`, `UpstashError`). */
export function isNoScript(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // node-redis and ioredis: the reply text itself; upstash: the reply text, sometimes after "ERR "
  return /^(?:ERR )?NOSCRIPT\b/.test(error.message) || /\bNOSCRIPT No matching script\b/.test(error.message);
}

/**
 * node-redis v4+: `evalSha(sha, { keys, arguments })`, then `eval(source, ...)` on NOSCRIPT
 * (https://github.com/redis/node-redis/blob/master/docs/programmability.md). A cluster client
 * (`createCluster()`) has the same two methods and routes by the first key. A client that only has
 * `sendCommand(argv)` gets the raw `EVALSHA` / `EVAL` commands.
 */
function nodeRedisRunner(client: NodeRedisLike): ScriptRunner {
  const withOptions = client as { evalSha?: unknown; eval?: unknown };
  if (typeof withOptions.evalSha === 'function' && typeof withOptions.eval === 'function') {
    const c = client as Extract<NodeRedisLike, { evalSha: unknown }>;
    return withRetry({
      send: (script, keys, args) => c.evalSha(script.sha1, { keys: keyList(keys), arguments: [...args] }),
      evalSource: (script, keys, args) => c.eval(script.lua, { keys: keyList(keys), arguments: [...args] }),
    }, client);
  }
  const c = client as Extract<NodeRedisLike, { sendCommand: unknown }>;
  return withRetry({
    send: (script, keys, args) => c.sendCommand(argv('EVALSHA', script.sha1, keys, args)),
    evalSource: (script, keys, args) => c.sendCommand(argv('EVAL', script.lua, keys, args)),
    get: (key) => c.sendCommand(['GET', key]),
  });
}

/**
 * @upstash/redis (and any object with its `evalsha(sha, keys, args)` / `eval(script, keys, args)`):
 * EVALSHA, then EVAL on NOSCRIPT (https://upstash.com/docs/redis/sdks/ts/commands/scripts/evalsha).
 */
function upstashRunner(client: UpstashLike): ScriptRunner {
  return withRetry({
    send: (script, keys, args) => client.evalsha(script.sha1, keyList(keys), [...args]),
    evalSource: (script, keys, args) => client.eval(script.lua, keyList(keys), [...args]),
  }, client);
}

/**
 * Valkey GLIDE (`GlideClient`, `GlideClusterClient`): `customCommand(['EVALSHA', sha1, numkeys,
 * ...keys, ...args])`, then the same with EVAL and the source on NOSCRIPT; `get` is the client's
 * own. GLIDE's `invokeScript` is not used: it keeps a native `Script` object per script and does
 * its own NOSCRIPT handling out of the runtime's sight (the runtime's outage tracking needs to see
 * EVALSHA and EVAL apart). A `GlideClusterClient` routes EVALSHA / EVAL by their first key, as for
 * any keyed command (https://valkey.io/topics/cluster-spec/). GLIDE's error replies are turned back
 * into the reply's text ({@link glideReplyError}). GLIDE's own `requestTimeout` (250 ms by default)
 * should exceed the helpers' `timeoutMs`, or GLIDE's TimeoutError comes first (an outage either way).
 */
function glideRunner(client: GlideLike): ScriptRunner {
  const rethrow = (error: unknown): never => {
    throw glideReplyError(error);
  };
  return withRetry({
    send: (script, keys, args) => client.customCommand(argv('EVALSHA', script.sha1, keys, args)).catch(rethrow),
    evalSource: (script, keys, args) => client.customCommand(argv('EVAL', script.lua, keys, args)).catch(rethrow),
    get: (key) => client.get(key).catch(rethrow),
  });
}

/**
 * Bun's `RedisClient`: `evalsha(sha1, numkeys, ...keys, ...args)`, then `eval` with the source on
 * NOSCRIPT, and its own `get`; its error replies become `ReplyError`s ({@link bunReplyError}).
 */
function bunRunner(client: BunRedisLike): ScriptRunner {
  const rethrow = (error: unknown): never => {
    throw bunReplyError(error);
  };
  return withRetry({
    send: (script, keys, args) => client.evalsha(...positional(script.sha1, keys, args)).catch(rethrow),
    evalSource: (script, keys, args) => client.eval(...positional(script.lua, keys, args)).catch(rethrow),
    get: (key) => client.get(key).catch(rethrow),
  });
}

/** `[first, numkeys, ...keys, ...args]`, the arguments of a positional `evalsha` / `eval`. */
function positional(first: string, keys: ScriptKeys, args: readonly string[]): [string, number, ...string[]] {
  return typeof keys === 'string' ? [first, 1, keys, ...args] : [first, keys.length, ...keys, ...args];
}

function isBun(client: unknown): client is BunRedisLike {
  return hasFunction(client, 'send') && hasFunction(client, 'evalsha') && hasFunction(client, 'eval') && typeof (client as { connected?: unknown }).connected === 'boolean';
}

function isGlide(client: unknown): client is GlideLike {
  return hasFunction(client, 'invokeScript') && hasFunction(client, 'customCommand') && hasFunction(client, 'get');
}

/** A memory store answers synchronously; the runner turns a throw into a rejection. */
function memoryRunner(store: MemoryStore): ScriptRunner {
  const run = (script: RuntimeScript, keys: ScriptKeys, args: readonly string[]): Promise<unknown> => {
    try {
      return Promise.resolve(store.runScript(script.name, typeof keys === 'string' ? [keys] : keys, args));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return { run, send: run, evalSha: run, evalSource: run, get: (key) => run(GET_COMMAND, key, NO_ARGS) };
}

/**
 * Returns the script runner for `client` (one per client object), chosen by the client's shape:
 * Valkey GLIDE (`invokeScript` / `customCommand`), Bun (`send`, `evalsha`, `connected`), ioredis or iovalkey (`defineCommand`),
 * node-redis (`evalSha` / `eval`, or `sendCommand`), upstash (`evalsha` / `eval`), or a `MemoryStore`.
 * @throws {TypeError} when `client` is none of these.
 */
export function runnerFor(client: RedisClient | MemoryStore): ScriptRunner {
  const known = runners.get(client);
  if (known !== undefined) return known;
  if (client instanceof MemoryStore) {
    const runner = memoryRunner(client);
    runners.set(client, runner);
    return runner;
  }
  let runner: ScriptRunner;
  if (isGlide(client)) {
    runner = glideRunner(client);
  } else if (isBun(client)) {
    runner = bunRunner(client);
  } else if (isIoredis(client)) {
    runner = ioredisRunner(client);
  } else if ((hasFunction(client, 'evalSha') && hasFunction(client, 'eval')) || hasFunction(client, 'sendCommand')) {
    runner = nodeRedisRunner(client as NodeRedisLike);
  } else if (hasFunction(client, 'evalsha') && hasFunction(client, 'eval')) {
    runner = upstashRunner(client as UpstashLike);
  } else {
    throw new TypeError(
      "redis must be an ioredis or iovalkey Redis or Cluster, a node-redis client (createClient()), an @upstash/redis Redis, a Valkey GLIDE GlideClient or GlideClusterClient, Bun's RedisClient, or a MemoryStore",
    );
  }
  runners.set(client, runner);
  return runner;
}
