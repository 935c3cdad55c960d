/**
 * Which writes without TTL are worth a finding, the same for every rule:
 *
 * - a key **persistent by design** (`settings['redis-ttl'].persistentKeys`, matched against the
 *   key as written and, through an ioredis client with a `keyPrefix`, as stored; or a
 *   `// redis-ttl persistent: <reason>` annotation) is never reported; a pattern does not cover
 *   a key the writing function itself gives a TTL (the same key expression): the code says that
 *   key is meant to expire;
 *   a helper's key parameter takes the persistence of its callers' keys: persistent when every
 *   call of the helper passes a persistent key (`redis-calls/helper-keys.ts`); a key a KEYS /
 *   SCAN ... MATCH listing returned, written back by the loop over it, is spelled by the listing's
 *   pattern (`redis-calls/pattern-drains.ts` listedKeyShape);
 * - a **bounded key** cannot pile up keys: one constant string, a key fixed once per instance (a
 *   `readonly` member, or one the constructor alone assigns from its parameters), or one whose
 *   run-time parts range over a union of literals or an enum (`redis-calls/bounded.ts`). With
 *   `allowConstantKeys` (on in `recommended`) it is reported only when the file itself gives that
 *   key a TTL somewhere (then a missing or non-atomic expiry is a bug); `embedded-lua` reads a
 *   script's `KEYS[i]` with the same decision ({@link unexpiredBoundedKey}). A lock created without
 *   TTL and released by the file's code is no bounded key (`redis-calls/locks.ts`): written with
 *   its constant key, or through a helper whose key parameter a caller of the file gives it;
 * - a write in the **no-TTL arm of an explicit TTL test** whose other arm sets the TTL is the
 *   caller's choice: with `allowOptionalTtl` (on in `recommended`) it is not reported; and when the
 *   TTL tested is never falsy (`ttl = ttl || this.defaultTtl` with a default of `parseInt(env.TTL)
 *   || 600`: `redis-calls/positive-ttl.ts`) that arm is never taken and is not reported whatever
 *   the options;
 * - a **pass-through wrapper** that re-exposes the command under its own name and forwards its
 *   key parameter (`incr(key) { return this.client.incr(key); }`) is part of a client facade: the
 *   key is chosen by its callers. With `allowPassThrough` (on in `recommended`) it is not reported,
 *   and its callers are judged instead: a call of the facade is read as the command it forwards,
 *   with the caller's key ({@link keyCallsOf}, `redis-calls/facades.ts`). So is a library's thin
 *   wrapper of its caller's key under another name (`hashIncrementRemote(hash, f, n)`) beside a
 *   method that expires its caller's key (`redis-calls/api-wrappers.ts`), and a method of that
 *   shape under any name whose callers are read (`increase(key, n)`: `redis-calls/facades.ts`
 *   forwardingFacade). So is a **key the code's user names**, verbatim, by a write that keeps an
 *   existing key's TTL (`req.params.key` in an admin UI's route, `process.argv[2]` in a CLI:
 *   `redis-calls/user-named-key.ts`): the code does not choose the key, the operator does.
 * - an **opaque key built by a key helper** (no letter or digit in its shape, so no
 *   `persistentKeys` pattern can name it: `set(getKey(table, { id }), v)`, keys destructured from
 *   `getQueueKeys(q)`) in a file where nothing says a key is meant to expire (no TTL given to any
 *   key, no temporary name, no TTL value around it: `redis-calls/opaque-key.ts`) is a storage
 *   layer's record: with `allowOpaqueKeys` (on in `recommended`) it is not reported.
 * - the **JavaScript fallback of a script** (a write in the no-scripting arm of a test of the
 *   client's scripting capability, or the catch of a script call, on a key the script is given:
 *   `redis-calls/script-fallback.ts`) does not run in production, where the script does: with
 *   `allowScriptFallbacks` (on in `recommended`) it is not reported.
 * - a key of a package that **deletes every key on a recurring schedule** (a FLUSHALL, or a
 *   FLUSHDB / a DEL of every key `KEYS '*'` lists on its only database, run by an Egg.js schedule,
 *   `setInterval`, a cron library: `redis-calls/scheduled-flush.ts`) lives at most one period:
 *   with `allowScheduledFlush` (on in `recommended`) it is not reported.
 * - a key written through the client of a **Redis server the package starts itself** as a child
 *   process of its normal run (`spawn('redis-server')`, the client on its loopback address, or on
 *   the configured URL whose loopback default decides the start: `redis-calls/spawned-server.ts`)
 *   is process-scoped scratch, gone with the server: with `allowSpawnedServer` (on in
 *   `recommended`) it is not reported.
 * - a write in **code that never runs**: a method or function of an application whose name no
 *   other code of the application names (`redis-calls/uncalled.ts`): with `allowUncalledCode` (on
 *   in `recommended`) it is not reported; `strict` reports it and says so.
 *
 * `strict` turns every allowance off.
 */
import { inArmNeverTaken } from './positive-ttl.js';
import type { TSESTree } from '@typescript-eslint/utils';
import { apiWrapperOfCallersKey } from './api-wrappers.js';
import { exposedAsClientCommand } from './client-surface.js';
import { facadeCallersReachable, facadeCallsOf, forwardingFacade } from './facades.js';
import { boundedKeyExpired, boundedKeyNodeExpired, keyExpiredBeside } from './file-index.js';
import { builtHelperKeyPersistent, helperKeyPersistent } from './helper-keys.js';
import { redisCallsOf } from './index.js';
import { keyShapeOf, perBuildKey } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import { opaqueKeyNotMeantToExpire } from './opaque-key.js';
import { scriptFallback } from './script-fallback.js';
import { storageBackendRecord } from './storage-backends.js';
import { databaseRecord } from './database-of-record.js';
import { inNoTtlArm } from './optional-ttl.js';
import { forwardingWrapper, passThroughWrapper } from './pass-through.js';
import { persistNamedWriter } from './persist-named.js';
import { overwrittenExport } from './module-methods.js';
import { persistentAnnotation, persistentPattern, persistentReason } from './persistent.js';
import { listedKeyShape } from './pattern-drains.js';
import { flushedOnSchedule } from './scheduled-flush.js';
import { writesToSpawnedServer } from './spawned-server.js';
import type { AnyContext } from './static.js';
import { uncalledDeclaration } from './uncalled.js';
import { userNamedKey, userNamedWrite } from './user-named-key.js';
import { callersDecide } from './wrapper-callers.js';
import { releasedHelperLock, releasedUnexpiringLock } from './locks.js';
import { untrimmedStreamAppend } from './untrimmed-stream.js';

/** The options every key-writing rule has (all `true` by default, `false` in `strict`). */
export interface KeyPolicyOptions {
  /**
   * Do not report a constant key unless the file gives that key a TTL somewhere. Default `true`;
   * `false` in the `strict` config.
   */
  allowConstantKeys?: boolean;
  /**
   * Do not report a write in the no-TTL arm of an explicit TTL test whose other arm sets the TTL.
   * Default `true`; `false` in the `strict` config.
   */
  allowOptionalTtl?: boolean;
  /**
   * Do not report the key parameter of a wrapper that re-exposes the command under its own name,
   * nor a key the code's user names verbatim (a request field, a CLI argument) by a write that
   * keeps an existing key's TTL. Default `true`; `false` in the `strict` config.
   */
  allowPassThrough?: boolean;
  /**
   * Do not report an opaque key built by a key helper (no pattern can name it) in a file where
   * nothing says a key is meant to expire. Default `true`; `false` in the `strict` config.
   */
  allowOpaqueKeys?: boolean;
  /**
   * Do not report the JavaScript fallback of a script: a write, on a key the script is given, that
   * runs only when the client cannot run scripts or the script call failed. Default `true`;
   * `false` in the `strict` config.
   */
  allowScriptFallbacks?: boolean;
  /**
   * Do not report a write in a method or function of an application that nothing else in the
   * application names (dead code: `redis-calls/uncalled.ts`). Default `true`; `false` in the
   * `strict` config, whose message then names the uncalled function.
   */
  allowUncalledCode?: boolean;
  /**
   * Do not report a record of a storage backend the application can run on in place of a database
   * (`redis-calls/storage-backends.ts`), nor, with `redisIsDatabase: 'infer'`, a record of a
   * package whose only database is Redis (`redis-calls/database-of-record.ts`). Default `true`;
   * `false` in the `strict` config.
   */
  allowStorageBackends?: boolean;
  /**
   * Do not report a key of an application whose package deletes every key of the database on a
   * recurring schedule (an Egg.js schedule, `setInterval`, node-cron, node-schedule, cron,
   * `@Cron`: a FLUSHALL, or a FLUSHDB or DEL of every key `KEYS '*'` lists, on the only database
   * the package names): no key outlives the period (`redis-calls/scheduled-flush.ts`). Default
   * `true`; `false` in the `strict` config.
   */
  allowScheduledFlush?: boolean;
  /**
   * Do not report a key written through a client connected to a Redis server the package starts
   * itself as a child process of its normal run (`spawn('redis-server')`, `execa('valkey-server')`,
   * with no option that keeps its data): the server, and every key in it, ends with the process
   * (`redis-calls/spawned-server.ts`). Default `true`; `false` in the `strict` config.
   */
  allowSpawnedServer?: boolean;
}

/** JSON schema properties of {@link KeyPolicyOptions}. */
export const KEY_POLICY_SCHEMA = {
  allowConstantKeys: {
    type: 'boolean',
    description:
      'Do not report a write to one constant key (it cannot pile up keys) unless the file gives that key a TTL somewhere. Default true; false in the strict config.',
  },
  allowOptionalTtl: {
    type: 'boolean',
    description:
      'Do not report a write in the no-TTL arm of an explicit TTL test (if (ttl) ... else ...) whose other arm sets the TTL of the same key, or of a test of a TTL parameter the function hands to another call (if (ttl === 0) ... else setWithTtl(k, v, ttl)). Default true; false in the strict config.',
  },
  allowPassThrough: {
    type: 'boolean',
    description:
      'Do not report the key parameter of a short function or method named after the command it forwards that parameter to (incr(key) { return this.client.incr(key); }): its callers choose the key; nor a key forwarded verbatim from a route handler\'s request (req.params.key) or the command line (process.argv[2]) by a write that keeps an existing key\'s TTL: its operator chooses it. Default true; false in the strict config.',
  },
  allowOpaqueKeys: {
    type: 'boolean',
    description:
      'Do not report a key built by a key helper whose spelling has no static part (set(getKey(table, { id }), v): no persistentKeys pattern can name it) when the file gives no key a TTL and no name or TTL value around the write says it is meant to expire. Default true; false in the strict config.',
  },
  allowScriptFallbacks: {
    type: 'boolean',
    description:
      "Do not report the JavaScript fallback of a Lua script: a write of a key the script is given, in the arm that runs only when the client cannot run scripts (if (typeof client.evalsha !== 'function') ...) or in the catch of the script call, or in a function only such an arm runs. The script is what runs in production. Default true; false in the strict config.",
  },
  allowUncalledCode: {
    type: 'boolean',
    description:
      'Do not report a write in a method or function of an application (a private package, or one whose main is its bin) whose name no other code of the application names (tests left out): code that never runs. Default true; false in the strict config, which names the uncalled function.',
  },
  allowStorageBackends: {
    type: 'boolean',
    description:
      'Do not report a write of a storage backend the application can run on in place of a database: in a class implementing an interface of the code that another class implements in a module importing a database client (pg, mysql2, @prisma/client, mongodb, drizzle-orm, D1Database ...), a write in a method the interface declares (or a method only those call) of a key the class deletes in another such method, or of a key parameter of a shim forwarding to the backend. Not when the file gives the key a TTL anywhere. Also, with settings[\'redis-ttl\'].redisIsDatabase \'infer\', a per-entity record (HSET, HINCRBY, SADD, ZADD, SET without NX ... of user:<id>) of a package whose package.json names a Redis client and no other database, when no module of the package gives that key family a TTL and no word of the key says temporary. Default true; false in the strict config.',
  },
  allowScheduledFlush: {
    type: 'boolean',
    description:
      "Do not report a key of a package that deletes every key of the database on a recurring schedule: an Egg.js schedule with cron or interval, setInterval, node-cron's schedule, node-schedule's scheduleJob (not with a Date), cron's CronJob or a @Cron / @Interval method runs, unconditionally, a FLUSHALL, or a FLUSHDB or a DEL of every key KEYS '*' lists when the package names no database but 0, and every client of the package is made with one connection. A wipe at start-up only, behind a flag, after a one-off setTimeout, or of one prefix does not count. Default true; false in the strict config.",
  },
  allowSpawnedServer: {
    type: 'boolean',
    description:
      "Do not report a key written through a client connected to a Redis server the package starts itself as a child process of its normal run: a spawn / execFile / exec / execa of redis-server or valkey-server (written as a literal or a const, with literal arguments asking for no persistence, no daemonize and no config file) in code that runs (not a test, a script or a function nothing calls), unconditional or started exactly when a URL is the loopback one; the client made with no server, the loopback URL or port of that server, or the same configured URL with that loopback default. A client on another URL is reported as before. Default true; false in the strict config.",
  },
} as const;

/**
 * The commands a call sends, as the key rules judge them: its client commands, and with
 * `allowPassThrough` (the facade's own call is then left alone) the command a pass-through
 * facade it calls forwards, read at the call with the caller's key.
 */
export function keyCallsOf(context: AnyContext, node: TSESTree.CallExpression, options: KeyPolicyOptions): readonly RedisCall[] {
  const calls = redisCallsOf(context, node);
  if (options.allowPassThrough === false || calls.length > 0) return calls;
  return facadeCallsOf(context, node);
}

/** {@link KeyPolicyOptions} with every inferred exemption off. */
const DECLARED_ONLY: KeyPolicyOptions = { allowConstantKeys: false, allowOptionalTtl: false, allowPassThrough: false, allowOpaqueKeys: false, allowScriptFallbacks: false, allowUncalledCode: false, allowStorageBackends: false, allowScheduledFlush: false, allowSpawnedServer: false };

/**
 * Whether the key at `keyNode` written by `call` is declared persistent: a `// redis-ttl persistent:`
 * annotation, a `persistentKeys` pattern (as written or as stored under the client's keyPrefix)
 * the code does not expire beside it, or a helper key every caller passes persistent. The only
 * exemption that holds for a write whose code meant the key to expire (a TTL the client drops):
 * the inferred ones (a constant key, an optional TTL, a pass-through or opaque key) read a write
 * as kept on purpose, which that code contradicts.
 */
export function declaredPersistent(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  return exemption(context, call, keyNode, DECLARED_ONLY) !== undefined;
}

/**
 * Why a key write is left alone: a declared persistent key, a constant (bounded) key, a TTL its
 * caller may leave out, a pass-through wrapper's key, a key the code's user names, an opaque key, a
 * write in code that never runs.
 */
export type Exemption = 'persistent' | 'constant' | 'never-taken' | 'optional-ttl' | 'pass-through' | 'user-named' | 'opaque' | 'script-fallback' | 'uncalled' | 'storage-backend' | 'flushed' | 'spawned-server';

/**
 * Whether a command that removes the TTL of the key at `keyNode` (PERSIST, GETEX ... PERSIST,
 * HPERSIST, HGETEX ... PERSIST: `no-persist`) is left alone, and why: a key persistent by design
 * (a `persistentKeys` pattern, as written or as stored under the client's keyPrefix, or a
 * `// redis-ttl persistent:` annotation), or with `allowPassThrough` a key the code's user names
 * verbatim (`redis-calls/user-named-key.ts`): the operator's explicit PERSIST of the key they
 * named. The other inferred exemptions read a write as kept on purpose; a removed TTL is not a
 * write without one, so they do not apply.
 */
export function ttlRemovalExemption(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node, options: Pick<KeyPolicyOptions, 'allowPassThrough'>): Exemption | undefined {
  if (persistentReason(context, call.node, keyShapeOf(context, keyNode), call.client.keyPrefix)) return 'persistent';
  if (options.allowPassThrough !== false && userNamedKey(context, keyNode)) return 'user-named';
  return undefined;
}

/**
 * Whether the key at `keyNode` is a bounded key `allowConstantKeys` leaves alone: one key or a few
 * (`KeyShape.constant`: a literal, a `const`, a member of a const object, a key builder called with
 * constants only, a member fixed once per instance, values of a finite type), not one per build (a
 * constant under a per-build prefix, `${DEPLOY_ID}:pages`, is one key per deploy), that the file
 * gives no TTL anywhere (a TTL there says the key is meant to expire: a write that misses it is a
 * bug). The one decision the key rules ({@link exemption}, for a client command's key, adding the
 * command's own condition: an XADD nothing trims) and `embedded-lua` (for a script's `KEYS[i]`, at
 * every call of the script: `script-fixed-keys.ts`) share.
 * @param call the client command writing the key, whose key identity pairs it with an expiry;
 *   none for a key argument of a script call, identified by its expression
 */
export function unexpiredBoundedKey(context: AnyContext, keyNode: TSESTree.Node, call?: RedisCall): boolean {
  const shape = keyShapeOf(context, keyNode);
  if (!shape.constant || perBuildKey(context, keyNode)) return false;
  return call ? !boundedKeyExpired(context, call, call.argNodes.indexOf(keyNode), shape) : !boundedKeyNodeExpired(context, keyNode, shape);
}

/** Whether the write of the key at `keyNode` by `call` is left alone, and why (`undefined`: it is judged). */
export function exemption(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node, options: KeyPolicyOptions): Exemption | undefined {
  const shape = keyShapeOf(context, keyNode);
  if (persistentAnnotation(context, call.node, shape)) return 'persistent';
  // a pattern names a family by its spelling; a function that gives this very key a TTL says it
  // is meant to expire (`generation:*` declared persistent, `generation:audit-checked:${id}`
  // written then expired)
  if (persistentPattern(context, shape, call.client.keyPrefix) && !keyExpiredBeside(context, call, call.argNodes.indexOf(keyNode))) return 'persistent';
  // a key a KEYS / SCAN listing returned is spelled by the listing's pattern (`candle:latest:*`)
  const listed = shape.shape === '*' ? listedKeyShape(context, call, keyNode) : undefined;
  if (listed !== undefined && persistentPattern(context, { ...shape, shape: listed }) && !keyExpiredBeside(context, call, call.argNodes.indexOf(keyNode))) return 'persistent';
  // an XADD to one stream nothing trims is one key, but its entries pile up (untrimmed-stream.ts)
  // a lock its writer releases (DEL) without a TTL: held forever by an owner that dies first (locks.ts)
  if (
    options.allowConstantKeys !== false &&
    unexpiredBoundedKey(context, keyNode, call) &&
    !untrimmedStreamAppend(context, call, keyNode) &&
    !releasedUnexpiringLock(context, call, call.argNodes.indexOf(keyNode))
  )
    return 'constant';
  // the no-TTL arm of a TTL that is never falsy (`ttl = ttl || this.defaultTtl`, the default
  // `parseInt(env.TTL) || 600`): no write happens there, whatever the options (positive-ttl.ts)
  if (inArmNeverTaken(context, call.node)) return 'never-taken';
  if (options.allowOptionalTtl !== false && inNoTtlArm(context, call, keyNode)) return 'optional-ttl';
  // every key of a package that wipes its database on a recurring schedule (scheduled-flush.ts)
  if (options.allowScheduledFlush !== false && flushedOnSchedule(context)) return 'flushed';
  // every key written through the client of a server the package starts as its child process
  // (spawned-server.ts)
  if (options.allowSpawnedServer !== false && writesToSpawnedServer(context, call)) return 'spawned-server';
  if (options.allowPassThrough !== false) {
    // judged at its callers, when some caller can be (else the leak would be reported nowhere)
    const wrapper = passThroughWrapper(context, call, keyNode);
    if (wrapper && facadeCallersReachable(context, wrapper)) return 'pass-through';
    // the same shape under any other name (`increase(key, n)`, `pushBack(key, ...v)`): judged at
    // its callers when one is read as the command (or, in an application, when nothing calls it)
    const forwarding = wrapper ? undefined : forwardingWrapper(context, call, keyNode);
    if (forwarding && forwardingFacade(context, forwarding)) return 'pass-through';
    // the same shape handed out by a client surface under its command's name (`case 'incr':
    // return safeIncr` of a `new Proxy` read as a client): its callers' calls are read as the
    // command where they are (redis-calls/client-surface.ts)
    if (forwarding && exposedAsClientCommand(context, forwarding, call)) return 'pass-through';
    // a helper named for keeping its caller's key (`setPermanent(key, v)`, `rememberForever(key,
    // cb)`), or a call of a facade so named: the maintainer's declared intent (persist-named.ts)
    if (persistNamedWriter(context, call, keyNode) !== undefined) return 'persistent';
    // a CommonJS export its module exports again later (`exports.incr` written twice): dead code
    if (forwarding && overwrittenExport(forwarding)) return 'pass-through';
    // a thin wrapper of a library's API over its caller's key, whatever its name, beside a method
    // that expires the caller's key (`redis-calls/api-wrappers.ts`)
    if (apiWrapperOfCallersKey(context, call, keyNode)) return 'pass-through';
    // the key the operator typed into an admin UI or a CLI, forwarded verbatim, by a write that
    // keeps an existing key's TTL (`redis-calls/user-named-key.ts`)
    if (userNamedWrite(context, call, keyNode)) return 'user-named';
  }
  if (options.allowOpaqueKeys !== false && opaqueKeyNotMeantToExpire(context, keyNode, shape)) return 'opaque';
  if (options.allowScriptFallbacks !== false && scriptFallback(context, call, keyNode)) return 'script-fallback';
  // a record of the Redis backend of a storage interface a database-backed class implements too
  if (options.allowStorageBackends !== false && storageBackendRecord(context, call, keyNode)) return 'storage-backend';
  // a per-entity record of a project whose database of record is Redis, declared (or, on request,
  // inferred from its package's dependencies) whose key shape no code of the package expires
  // (redis-calls/database-of-record.ts)
  if (databaseRecord(context, call, keyNode, options.allowStorageBackends !== false)) return 'storage-backend';
  // a helper's key parameter: persistent when every caller passes a persistent key
  if (helperKeyPersistent(context, keyNode, call.client.keyPrefix)) return 'persistent';
  // a key the helper builds from its parameters (`${key}:${id}`): persistent when every call's
  // arguments spell a persistent key, unless the helper also expires it (a pattern does not cover that)
  if (builtHelperKeyPersistent(context, keyNode, call.client.keyPrefix) && !keyExpiredBeside(context, call, call.argNodes.indexOf(keyNode))) return 'persistent';
  // a wrapper method's key (and arm) chosen by its callers: every call reaching the write passes a
  // persistent or bounded key, or none reaches it (redis-calls/wrapper-callers.ts)
  const decided = callersDecide(context, call.node, keyNode, call.client.keyPrefix, options);
  if (decided === 'persistent') return decided;
  // a bounded key of the callers, unless a caller in this file passes a lock the file releases:
  // held forever by an owner that dies first (locks.ts releasedHelperLock)
  if (decided === 'constant' && !releasedHelperLock(context, call, call.argNodes.indexOf(keyNode))) return decided;
  if (decided === 'unreached' && options.allowUncalledCode !== false) return 'uncalled';
  // a method or function of an application nothing else names (redis-calls/uncalled.ts)
  if (options.allowUncalledCode !== false && uncalledDeclaration(context, call.node) !== undefined) return 'uncalled';
  return undefined;
}
