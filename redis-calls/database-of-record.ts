/**
 * "A record of an application whose database of record is Redis": the per-entity hashes, sets,
 * sorted sets and strings of a project that keeps its data in Redis and in nothing else (a relay's
 * API keys and their lifetime usage totals, a simulation's stations and trains, a tip bot's
 * wallets). Such a record is kept on purpose: a TTL would delete the application's data.
 *
 * ```js
 * // package.json: { "dependencies": { "ioredis": "^5" } }          (no other database)
 * await redis.hset(`apikey:${id}`, data);                 // a record: not reported
 * await redis.hincrby(`usage:${keyId}`, 'totalTokens', n); // a lifetime total of a record: not reported
 * await redis.hset(`session:${id}`, data);                // named temporary: reported as before
 * await redis.hset(`oauth:${state}`, data);               // expired on another path: reported
 * await redis.expire(`oauth:${state}`, 600);
 * ```
 *
 * A write is such a record when
 *
 * - the project's database of record is Redis: `settings['redis-ttl'].redisIsDatabase` is `true`
 *   (declared: holds in every config), or it is `'infer'` and the package of the linted file (its
 *   nearest `package.json`, with the workspace root above it when that declares `workspaces` or
 *   has a `pnpm-workspace.yaml` / `lerna.json`) names a Redis client package and no client of
 *   another database among its dependencies, dev, peer and optional ones included
 *   (`database-packages.ts` isDatabaseDependency), and is not a published library (one naming
 *   `exports`, `types`, `module` or `files` and not `private`: its keys are its users' data);
 *   inferred: only with `allowStorageBackends`, off in `strict`. Unset or `false`: never. The
 *   inference is not the default: on the tuning set it removed the records of the relay, the
 *   simulation and the tip bot but also lost the per-room and per-game state leaks of all-Redis
 *   game servers (a room's hash and a user's profile are one shape);
 * - the command writes a record's value ({@link RECORD_WRITES}: HSET, HINCRBY, SADD, ZADD, SET,
 *   MSET, JSON.SET ...), not a SET ... NX (a lock or a once-only marker): string counters, lists,
 *   streams and HyperLogLogs (hit counts, queues, logs) are judged as before;
 * - the key is **one per entity**: its shape has a static word and a part known only at run time
 *   (`user:*`, `usage:*:alltime`), and is not bounded (a constant key has its own reading); or it
 *   is spelled by its id alone (`hset(txHash, ...)`, `*`) in a package that gives no key a TTL
 *   anywhere (nothing then tells which family such a key is of);
 * - **nothing says it is temporary**: no word of the key's spelling or of the key expression is a
 *   temporary word (`names.ts` TEMPORARY_WORD: cache, session, lock, token, otp, limit, temp ...);
 * - **no code of the package gives that key family a TTL**: not the linted file, not a module it
 *   is related to (`cross-file-lifecycle.ts` relatedModules), not any module of its package (read
 *   once per package, tests left out; a package with more than {@link MAX_EXPIRING_MODULES}
 *   modules that may expire a key is not read, and nothing is left out there). A family is named
 *   by its static words ({@link mayNameSameKey}: `usage:daily:*:*` written by an import is the
 *   family `usage:daily:*:*-*-*` the live code expires). A key family the code expires on one path
 *   and not on another stays reported: the missing TTL is then the leak.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import { RECORD_WRITES } from '../semantics/commands.js';
import { clientPackageOf } from './client-packages.js';
import { relatedModules } from './cross-file-lifecycle.js';
import { isDatabaseDependency } from './database-packages.js';
import { fileIndexOf } from './file-index.js';
import { keyShapeOf } from './key-shape.js';
import { loadModule, moduleContext, readModule, specifierOf } from './modules.js';
import { TEMPORARY_WORD } from './names.js';
import type { RedisCall } from './normalize.js';
import { LISTING_TTL_MS, manifestOf, packageFiles, packageOf } from './project.js';
import { pluginSettings } from './settings.js';
import type { AnyContext } from './static.js';
import { DEPENDENCY_FIELDS } from './resolve.js';
import { testOnlyModule } from './test-paths.js';
import { wordsOf } from './names.js';

/** Modules of one package parsed for their expiries, at most; a package with more expiring modules is not read. */
const MAX_EXPIRING_MODULES = 300;

/** Text that may give a key a TTL: only such a module is parsed (`expire`, `setEx`, `{ EX: 60 }`, `'PX'`). */
const MAY_EXPIRE = /expire|setex|getex|\b(?:ex|px|exat|pxat)\b/i;

/**
 * How the project of the linted file keeps its data: `'declared'` when `redisIsDatabase` is
 * `true`, `'inferred'` when it is `'infer'` and the package names a Redis client and no other
 * database (see the module comment), `undefined` otherwise.
 */
export function redisDatabaseOfRecord(context: AnyContext): 'declared' | 'inferred' | undefined {
  const declared = pluginSettings(context).redisIsDatabase;
  if (declared !== 'infer') return declared ? 'declared' : undefined;
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return undefined;
  const info = packageOf(file);
  return info && !publishedLibrary(manifestOf(info.root)) && onlyRedis(info.root) ? 'inferred' : undefined;
}

/**
 * Whether a `package.json` is a library's that others install (not `private`, and it says what it
 * publishes: `exports`, `types` / `typings`, `module` or `files`): its Redis keys are its users'
 * data, kept in whatever database they use, not an application's records.
 */
function publishedLibrary(manifest: Readonly<Record<string, unknown>> | undefined): boolean {
  if (!manifest || manifest.private === true) return false;
  return ['exports', 'types', 'typings', 'module', 'files'].some((field) => manifest[field] !== undefined);
}

const onlyRedisCache = new Map<string, { at: number; value: boolean }>();

/**
 * Whether the package at `root`, with the workspace root above it when there is one, depends on
 * a Redis client package and on no other database's client.
 */
function onlyRedis(root: string): boolean {
  const now = Date.now();
  const cached = onlyRedisCache.get(root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.value;
  const names = dependencyNames(manifestOf(root));
  for (let dir = dirname(root); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = manifestOf(dir);
    const pnpm = existsSync(join(dir, 'pnpm-workspace.yaml'));
    if (!manifest && !pnpm) continue;
    // the first package.json above: the workspace root when it declares one, else another project
    if (manifest?.workspaces !== undefined || pnpm || existsSync(join(dir, 'lerna.json'))) names.push(...dependencyNames(manifest));
    break;
  }
  const value = names.some((name) => clientPackageOf(name) !== undefined) && !names.some(isDatabaseDependency);
  onlyRedisCache.set(root, { at: now, value });
  return value;
}

/** The dependency names of a `package.json`, dev, peer and optional dependencies included. */
function dependencyNames(manifest: Readonly<Record<string, unknown>> | undefined): string[] {
  if (!manifest) return [];
  return DEPENDENCY_FIELDS.flatMap((field) => {
    const deps = manifest[field];
    return typeof deps === 'object' && deps !== null ? Object.keys(deps) : [];
  });
}

/**
 * Whether the write of the key at `keyNode` by `call` is a record of an application whose database
 * of record is Redis (see the module comment).
 * @param inferred whether the inferred reading may apply (`allowStorageBackends`); a declared
 *   `redisIsDatabase: true` applies either way
 */
export function databaseRecord(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node, inferred: boolean): boolean {
  const reading = redisDatabaseOfRecord(context);
  if (reading === undefined || (reading === 'inferred' && !inferred)) return false;
  if (!RECORD_WRITES.has(call.command)) return false;
  // SET ... NX: a lock or a once-only marker, not a record
  if (call.command === 'SET' && call.args.some((arg) => typeof arg === 'string' && arg.toUpperCase() === 'NX')) return false;
  const shape = keyShapeOf(context, keyNode);
  if (shape.constant || !shape.shape.includes('*')) return false;
  const spellings = shape.alternatives ?? [shape.shape];
  const text = context.sourceCode.getText(keyNode);
  if ([...spellings, text].some((spelling) => wordsOf(spelling).some((word) => TEMPORARY_WORD.test(word)))) return false;
  const packageWide = packageExpiredShapes(context);
  if (packageWide === undefined) return false;
  const expired = [fileIndexOf(context).expiredShapes, ...relatedModules(context).map((at) => fileIndexOf(at).expiredShapes), packageWide];
  // a key spelled by its id alone (`hset(txHash, ...)`, `this.managerId`): one of the records of a
  // package that gives no key a TTL at all
  if (!spellings.every(perEntity)) return expired.every((shapes) => shapes.size === 0);
  return ![...spellings, shape.shape].some((spelling) => expired.some((shapes) => [...shapes].some((other) => mayNameSameKey(spelling, other))));
}

/** A key spelling of one entity: a static word and a part known only at run time (`user:*`). */
function perEntity(spelling: string): boolean {
  return spelling.includes('*') && /\p{L}/u.test(spelling);
}

/**
 * Whether the expiry of a key of shape `expired` may be that of the family `written` writes: the
 * same static words (the `:`-separated segments with a letter, in order: an opaque `*:*` of a
 * helper's key parameter names no family), and one shape matching the other with `*` as any run
 * of characters (`usage:daily:*:*` and `usage:daily:*:*-*-*` of a formatted date do, and
 * `usage:hourly:*:*` and `usage:hourly:*:*-*-*:*` of a date and an hour; `usage:*` and
 * `usage:daily:*:*` do not, nor `apikey:*` and the one key `apikey:hash_map`).
 */
export function mayNameSameKey(written: string, expired: string): boolean {
  const words = staticWords(expired);
  if (words.length === 0 || words.join(':') !== staticWords(written).join(':')) return false;
  return globMatches(written, expired) || globMatches(expired, written);
}

/** The `:`-separated segments of a shape that hold a letter (`usage:*:model:*` gives usage, model). */
function staticWords(shape: string): string[] {
  return shape.split(':').filter((segment) => /\p{L}/u.test(segment));
}

/** Whether the text `text` matches the pattern `pattern`, `*` for any run of characters. */
function globMatches(pattern: string, text: string): boolean {
  if (!pattern.includes('*')) return false;
  const regex = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's');
  return regex.test(text);
}

const expiredCache = new Map<string, { at: number; shapes: ReadonlySet<string> | null }>();

/**
 * The shapes of every key a module of the linted file's package gives a TTL (tests left out), or
 * `undefined` when the package cannot be listed or has more than {@link MAX_EXPIRING_MODULES}
 * modules that may expire a key. Read once per package (for {@link LISTING_TTL_MS}).
 */
function packageExpiredShapes(context: AnyContext): ReadonlySet<string> | undefined {
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return new Set();
  const root = packageOf(file)?.root;
  if (root === undefined) return new Set();
  const now = Date.now();
  const cached = expiredCache.get(root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.shapes ?? undefined;
  const shapes = readExpiredShapes(context, file, root);
  expiredCache.set(root, { at: now, shapes: shapes ?? null });
  return shapes;
}

function readExpiredShapes(context: AnyContext, file: string, root: string): ReadonlySet<string> | undefined {
  const files = packageFiles(root);
  if (files === undefined) return undefined;
  const shapes = new Set<string>();
  let parsed = 0;
  for (const path of files) {
    if (testOnlyModule(root, path)) continue;
    const specifier = specifierOf(file, path);
    const text = readModule(file, specifier)?.entry.text;
    if (text === undefined || !MAY_EXPIRE.test(text)) continue;
    if (++parsed > MAX_EXPIRING_MODULES) return undefined;
    const module = loadModule(context, specifier);
    if (!module) continue;
    for (const shape of fileIndexOf(moduleContext(context, module)).expiredShapes) shapes.add(shape);
  }
  return shapes;
}
