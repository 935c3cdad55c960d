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
 *    unless step 4 says 3 or earlier: node_redis 3 and earlier ship no types, so a 4+ declaration
 *    for a file whose package declares (or installs, nearest first) redis 3 (step 4) comes from another
 *    install the checker found on its way up (TypeScript looks for typed packages in every
 *    `node_modules` above the file before it settles for an untyped one: a hoisted or
 *    workspace-root redis 4), not from the redis `require` loads;
 * 3. the call itself, when it ends with a callback (`set(k, v, 'EX', 60, (err) => ...)`,
 *    `set(k, v, 'EX', ttl, cb)`): node-redis 4 and later take no callback (their commands return a
 *    promise and a trailing function is never called), so a call written with one runs on node_redis
 *    3 or earlier, or on node-redis 4's `legacyMode` / 5's `legacy()` client, which send a command's
 *    arguments as written, node_redis 3's way. Said by the code, it outranks what a `package.json`
 *    or an install on the way up says (the linted tree may hold another package's, or none);
 * 4. otherwise the linted file's nearest `package.json` that names `redis` in `dependencies`,
 *    `devDependencies` or `peerDependencies` (its range: `^3.1.2` is 3, `2.6.5` is 2, `>=3` is
 *    unknown), or, in
 *    the folders on the way up, an installed `node_modules/redis/package.json` (what `require`
 *    would load, also when `redis` comes in through another package). Looked up once per folder.
 *
 * Unknown for a file on disk (no `package.json` above it names `redis`, none is installed above
 * it) means either: a call that passes its options as tokens (`set(k, v, 'EX', 60)`) is read as
 * node_redis 3 reads it, since only node-redis 4+ drops them and nothing says it is 4+ (reporting
 * them would be a finding on one dialect's word); any other call reads as 4+, so suggestions keep
 * 4+'s object syntax. A file with no path (linted from a string or stdin) has nothing to look up
 * and reads as 4+, as before this lookup existed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { isCallbackArgument } from './callbacks.js';
import { pluginSettings } from './settings.js';
import { findVariable, propertyName, unwrap, type AnyContext } from './static.js';
import { majorOfRange } from './version-range.js';

/** Major versions found per folder (`undefined`: nothing found in or above it). */
const byFolder = new Map<string, number | undefined>();

/** node-redis majors before 4 send a command's arguments as written. */
const positional = (major: number): boolean => major < 4;

/**
 * Whether the node-redis call whose method is `method` (the property node of `client.set`) runs
 * on node-redis 3 or earlier, whose positional syntax is the same (see the module comment for how
 * that is known; `call`: the call expression, whose trailing callback says so). Never throws: an
 * unreadable `package.json` is skipped.
 */
export function isNodeRedis3(context: AnyContext, method: TSESTree.Node, call?: TSESTree.CallExpression): boolean {
  const setting = pluginSettings(context).nodeRedisMajor;
  if (setting !== undefined) return positional(setting);
  const declared = declaredMajor(context, method);
  if (declared !== undefined && positional(declared)) return true;
  const last = call?.arguments.at(-1);
  if (call && call.arguments.length > 1 && last && isCallbackArgument(context, last)) return true;
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return false;
  const found = majorAbove(dirname(file));
  return found === undefined ? call !== undefined && passesTokens(call) : positional(found);
}

/** Whether a SET-like call passes options as tokens after its key and value (`set(k, v, 'EX', 60)`). */
function passesTokens(call: TSESTree.CallExpression): boolean {
  const third = call.arguments[2];
  return third?.type === AST_NODE_TYPES.Literal && typeof third.value === 'string';
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

/**
 * Whether the client `object` a call is made on sends a command's arguments as written, node_redis
 * 3's way, whatever the version installed: node-redis 4's `createClient({ legacyMode: true })` and
 * 5's `client.legacy()`, written at the call (`client.legacy().set(...)`) or as the value of the
 * `const` / never reassigned variable it reads (through `await`), up to a few hops.
 */
export function isLegacyModeClient(context: AnyContext, object: TSESTree.Node): boolean {
  let node: TSESTree.Node = object;
  for (let hops = 0; hops < 4; hops++) {
    node = unwrap(node);
    if (node.type === AST_NODE_TYPES.AwaitExpression) {
      node = node.argument;
      continue;
    }
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(node.callee);
      const name = callee.type === AST_NODE_TYPES.Identifier ? callee.name : callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee.property, callee.computed) : undefined;
      if (name === 'legacy' && callee.type === AST_NODE_TYPES.MemberExpression && node.arguments.length === 0) return true;
      if (name !== 'createClient' && name !== 'createCluster') return false;
      const options = node.arguments[0] && unwrap(node.arguments[0]);
      return (
        options?.type === AST_NODE_TYPES.ObjectExpression &&
        options.properties.some((p) => p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === 'legacyMode' && unwrap(p.value).type === AST_NODE_TYPES.Literal && (unwrap(p.value) as TSESTree.Literal).value === true)
      );
    }
    if (node.type !== AST_NODE_TYPES.Identifier) return false;
    const variable = findVariable(context, node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return false;
    if (variable!.references.some((r) => r.isWrite() && r.identifier !== def.node.id)) return false;
    node = def.node.init;
  }
  return false;
}
