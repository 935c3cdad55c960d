/**
 * The file-level evidence of `ClientDetector.mayUseRedis` (`redis-calls/clients.ts`) through the
 * code's own modules that pass a value on: a module that imports another module of the code and
 * exports one of its bindings as it is (`import { redisClient } from '../lib/redis'; export
 * default redisClient;`, `const client = redisClient; export default client;`, `export { client }`,
 * `module.exports = client`) may hand on the client that module makes, however many such modules
 * stand between (up to {@link PASS_ON_HOPS}). Text only, as the one-module look is: whether the
 * value really is a client is decided later by following the exports (`modules.ts` locateExport).
 *
 * ```ts
 * // lib/redis.ts            let client: any = createClient(...); export { client as redisClient };
 * // redis/client.ts         import { redisClient } from '../lib/redis'; export default redisClient;
 * // redis/redisClient.ts    import redisClient from './client'; const client = redisClient; export default client;
 * // middleware/limit.ts     import client from '../redis/redisClient'; await client.incr(key);
 * ```
 */
import { ARGV_SENDER_TEXT } from './argv-sender-types.js';
import { CLIENT_MODULE_TEXT } from './client-facts.js';
import { importSpecifiers } from './importers.js';
import { readModule, type CacheEntry } from './modules.js';

/** How many modules that pass a value on are looked through after the one imported. */
export const PASS_ON_HOPS = 4;

/** A module exporting one of its bindings as it is (a default or named export of an identifier, `module.exports = x`). */
const EXPORTS_BINDING = /^\s*export\s+default\s+[A-Za-z_$][\w$]*\s*;?\s*$|^\s*export\s*\{[^}]*\}\s*;?\s*$|^\s*module\.exports\s*=\s*[A-Za-z_$][\w$]*\s*;?\s*$/m;

/**
 * A module exporting a class, interface or type alias, whose members may hold a client its imports make
 * (`export class Bot { readonly cache: typeof redis }`): looked through only when it is the module
 * imported (depth 0), since nearly every module of typed code exports a declaration and the walk
 * would otherwise open every import chain.
 */
const EXPORTS_DECLARATION = /^\s*export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:class|interface|type)\s/m;

/**
 * The one-module test of the file-level evidence: the module's text imports a client package or
 * re-exports another module (`CLIENT_MODULE_TEXT`), or declares an argv sender type
 * (`ARGV_SENDER_TEXT`). One function for every caller, so that {@link mayPassOnClient}'s cache,
 * kept per test function, is shared by every file of a lint run (a new arrow function per call
 * made every file walk its imports again: half of the bench's file filter on a large monorepo).
 * @param text a module's source text
 */
export function makesOrPassesClient(text: string): boolean {
  return CLIENT_MODULE_TEXT.test(text) || ARGV_SENDER_TEXT.test(text);
}

/** Per one-module test, the verdict on each module text imported directly (deeper modules are not kept: their verdict depends on the walk's `seen`). */
const verdicts = new WeakMap<(text: string) => boolean, WeakMap<CacheEntry, boolean>>();

/**
 * Whether the module `specifier` imported from the file `from` is one whose text `holdsClient`
 * accepts, or passes on a binding imported from a module of the code that is (or passes one on),
 * up to {@link PASS_ON_HOPS} modules on. Cached per module text.
 * @param holdsClient the one-module test (its text imports a client package, re-exports ...)
 */
export function mayPassOnClient(from: string, specifier: string, holdsClient: (text: string) => boolean): boolean {
  return passesOn(from, specifier, holdsClient, 0, new Set());
}

function passesOn(from: string, specifier: string, holdsClient: (text: string) => boolean, depth: number, seen: Set<string>): boolean {
  const module = readModule(from, specifier, true);
  if (!module || seen.has(module.path)) return false;
  seen.add(module.path);
  const { entry } = module;
  let cached = verdicts.get(holdsClient);
  if (!cached) verdicts.set(holdsClient, (cached = new WeakMap()));
  const known = depth === 0 ? cached.get(entry) : undefined;
  if (known !== undefined) return known;
  let verdict = holdsClient(entry.text);
  if (!verdict && depth < PASS_ON_HOPS && (EXPORTS_BINDING.test(entry.text) || (depth === 0 && EXPORTS_DECLARATION.test(entry.text)))) {
    for (const next of importSpecifiers(entry.text)) {
      if (passesOn(module.path, next, holdsClient, depth + 1, seen)) {
        verdict = true;
        break;
      }
    }
  }
  if (depth === 0) cached.set(entry, verdict);
  return verdict;
}
