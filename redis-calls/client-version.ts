/**
 * Which major version of node-redis (the `redis` package) a call runs on, where it changes what
 * the call sends. node-redis 3 and earlier (node_redis 0.x to 2.x alike) take a command's arguments
 * as they are, ioredis-style (`set(key, value, 'EX', 60, 'NX', callback)` sends
 * `SET key value EX 60 NX`); node-redis 4 and later take SET options as one object and ignore
 * extra positional arguments. Read in this order:
 *
 * 1. `settings['redis-ttl'].nodeRedisVersion` (`'2.8.0'`, `'3'`, `'4.7.0'`, `'^3.1.2'`), when set;
 * 2. with type information, where the called method is declared: `@types/redis` (the types of
 *    node-redis 2 and 3; node-redis 4 ships its own) means 3, `redis` / `@redis/client` means 4+,
 *    unless step 3 says 3 or earlier: node_redis 3 and earlier ship no types, so a 4+ declaration
 *    for a file whose package declares (or installs, nearest first) redis 3 comes from another
 *    install the checker found on its way up (TypeScript looks for typed packages in every
 *    `node_modules` above the file before it settles for an untyped one: a hoisted or
 *    workspace-root redis 4), not from the redis `require` loads;
 * 3. otherwise the linted file's nearest `package.json` that names `redis` in `dependencies`,
 *    `devDependencies` or `peerDependencies` (its range: `^3.1.2` is 3, `2.6.5` is 2, `>=3` is
 *    unknown), or, in
 *    the folders on the way up, an installed `node_modules/redis/package.json` (what `require`
 *    would load, also when `redis` comes in through another package). Looked up once per folder.
 *
 * Unknown means 4 or later, as before this lookup existed: the rules read node-redis 4+'s syntax.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import { pluginSettings } from './settings.js';
import type { AnyContext } from './static.js';
import { majorOfRange } from './version-range.js';

/** Major versions found per folder (`undefined`: nothing found in or above it). */
const byFolder = new Map<string, number | undefined>();

/** node-redis majors before 4 send a command's arguments as written. */
const positional = (major: number): boolean => major < 4;

/**
 * Whether the node-redis call whose method is `method` (the property node of `client.set`) runs
 * on node-redis 3 or earlier, whose positional syntax is the same (see the module comment for how
 * that is known). Never throws: an unreadable `package.json` is skipped.
 */
export function isNodeRedis3(context: AnyContext, method: TSESTree.Node): boolean {
  const setting = pluginSettings(context).nodeRedisMajor;
  if (setting !== undefined) return positional(setting);
  const declared = declaredMajor(context, method);
  if (declared !== undefined && positional(declared)) return true;
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return false;
  const found = majorAbove(dirname(file));
  return found !== undefined && positional(found);
}

/** 3 or 4 from where the called method is declared, with type information; `undefined` without. */
function declaredMajor(context: AnyContext, method: TSESTree.Node): number | undefined {
  const services = context.sourceCode.parserServices;
  if (!services?.program || !services.esTreeNodeToTSNodeMap) return undefined;
  const tsNode = services.esTreeNodeToTSNodeMap.get(method as never);
  if (!tsNode) return undefined;
  const symbol = services.program.getTypeChecker().getSymbolAtLocation(tsNode);
  for (const declaration of symbol?.getDeclarations() ?? []) {
    const fileName = declaration.getSourceFile().fileName.replace(/\\/g, '/');
    if (/\/node_modules\/@types\/redis\//.test(fileName)) return 3;
    if (/\/node_modules\/(?:redis|@redis\/client)\//.test(fileName)) return 4;
  }
  return undefined;
}

/** The major version of `redis` a folder's code gets, from the nearest `package.json` or install. */
function majorAbove(folder: string): number | undefined {
  if (byFolder.has(folder)) return byFolder.get(folder);
  let found: number | undefined;
  let settled = false;
  const manifest = readJson(join(folder, 'package.json'));
  if (manifest) {
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
      const range = (manifest[field] as Record<string, unknown> | undefined)?.redis;
      if (typeof range === 'string') {
        found = majorOfRange(range);
        settled = true;
        break;
      }
    }
  }
  if (!settled) {
    const installed = readJson(join(folder, 'node_modules', 'redis', 'package.json'));
    if (typeof installed?.version === 'string') {
      found = majorOfRange(installed.version);
      settled = true;
    }
  }
  if (!settled) {
    const parent = dirname(folder);
    found = parent === folder ? undefined : majorAbove(parent);
  }
  if (byFolder.size > 10_000) byFolder.clear();
  byFolder.set(folder, found);
  return found;
}

function readJson(file: string): Record<string, unknown> | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
