/**
 * Members of an application object that a framework fills in, read by what the framework puts
 * there rather than by their names:
 *
 * ```js
 * // an Egg.js application whose package.json depends on egg-redis
 * const { redis } = this.app;                  // egg-redis' client: ioredis
 * await redis.set(key, value, 'EX', seconds);  // EX is sent
 * ctx.service.redis.set(key, value, 7200);     // app/service/redis.js: the application's service, no client
 * ```
 *
 * - A framework plugin's client ({@link APPLICATION_MEMBER_CLIENTS} of `client-packages.ts`):
 *   `<owner>.<member>` (`app.redis`, `this.app.redis`, `ctx.app.redis`, `this.ctx.app.redis`), or a
 *   `const` holding it (`const { redis } = this.app`, `const redis = app.redis`), in a package whose
 *   nearest `package.json` lists the plugin, is that plugin's client package's client: egg-redis
 *   hands out ioredis, which sends `set(k, v, 'EX', n)` as written, whatever syntax the package's
 *   other code uses on members named `redis`.
 * - An Egg.js service: Egg loads every module of `app/service/` into `ctx.service` (also
 *   `this.service` of a controller or service, `app.service` ...) under its file name in camelCase
 *   (`app/service/user_info.js` is `ctx.service.userInfo`; https://www.eggjs.org/basics/service).
 *   `<x>.service.<name>` in a package that depends on `egg` and has such a module is that
 *   application class, not a Redis client, whatever its name; its methods are the code's own.
 *
 * Not read: a plugin client configured under another member name, a client stored on `app` by the
 * application itself (`app.redis = createClient()`: client detection reads the assignment), and a
 * service module in a directory other than `app/service/`. A service of a subdirectory is
 * `ctx.service.<dir>.<name>`, and a file name's first letter is lower-cased (`Redis.ts` is
 * `ctx.service.redis`), as Egg's loader names them.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { APPLICATION_MEMBER_CLIENTS, clientPackageOf, type ClientFlavor } from './client-packages.js';
import { LISTING_TTL_MS, manifestOf, packageOf } from './project.js';
import { findVariable, propertyName, unwrap, type AnyContext } from './static.js';

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies'] as const;
/** The framework package whose loader fills `ctx.service`. */
const EGG = 'egg';
/** Where Egg's loader reads services from, under the package root. */
const EGG_SERVICE_DIR = join('app', 'service');

/** The client a framework plugin hands out as the member `receiver` is, with why (for messages). */
export interface ApplicationClient {
  /** The client family whose call syntax the member follows (ioredis for egg-redis). */
  flavor: ClientFlavor;
  /** Why the member is that client, for a finding's explanation (`\`app.redis\` is egg-redis' ioredis client (...)`). */
  why: string;
}

/**
 * The client `receiver` is when it is a framework plugin's member of the application object (see
 * the module comment): `app.redis`, `this.app.redis`, or an identifier bound by `const` to one.
 * @returns `undefined` when `receiver` is no such member or the linted file's package does not
 *   depend on the plugin.
 */
export function applicationMemberClient(context: AnyContext, receiver: TSESTree.Node): ApplicationClient | undefined {
  const member = memberRead(context, receiver);
  if (!member) return undefined;
  const dependencies = dependenciesOf(context);
  for (const entry of APPLICATION_MEMBER_CLIENTS) {
    if (entry.member !== member.name || !entry.owners.includes(member.owner)) continue;
    const plugin = entry.dependencies.find((name) => dependencies.has(name));
    const client = plugin ? clientPackageOf(entry.client) : undefined;
    if (plugin && client) return { flavor: client.flavor, why: `\`${member.owner}.${member.name}\` is ${plugin}'s ${client.name} client (the package depends on ${plugin})` };
  }
  return undefined;
}

/**
 * Whether `receiver` is an Egg.js service of the application (`ctx.service.redis`, `this.service.cache`,
 * or a `const` holding one; see the module comment): the package depends on `egg` and has
 * `app/service/<file>` whose name in camelCase is the member's.
 */
export function isEggService(context: AnyContext, receiver: TSESTree.Node): boolean {
  return eggServiceEntry(context, receiver) !== undefined;
}

/**
 * The module of the Egg.js service `receiver` is ({@link isEggService}): the path of
 * `app/service/<file>` without its extension, so its class's methods can be read at their callers
 * (a pass-through `set(key, value)` of the service is judged where `ctx.service.redis.set(...)` is
 * called, `redis-calls/facades.ts`); `undefined` for no service, a directory of services, or a
 * file beside a directory of its name (two files of one base name, `redis.ts` and `redis.js`, are
 * one module).
 */
export function eggServiceModule(context: AnyContext, receiver: TSESTree.Node): string | undefined {
  return eggServiceEntry(context, receiver)?.module;
}

function eggServiceEntry(context: AnyContext, receiver: TSESTree.Node): { module: string | undefined } | undefined {
  const path = servicePath(context, receiver, 0);
  if (path === undefined || !dependenciesOf(context).has(EGG)) return undefined;
  const root = packageRoot(context);
  if (root === undefined) return undefined;
  const names = serviceNames(root);
  const name = path.join('.');
  return names.has(name) ? { module: names.get(name) } : undefined;
}

/**
 * The members below `service` that `receiver` reads: `['redis']` of `ctx.service.redis` (or of a
 * `const` bound to it), `['cache', 'redis']` of `ctx.service.cache.redis` (`app/service/cache/redis.js`,
 * which Egg's loader nests under its directory's name).
 */
function servicePath(context: AnyContext, receiver: TSESTree.Node, depth: number): string[] | undefined {
  if (depth > 6) return undefined;
  const bare = unwrap(receiver);
  if (bare.type === AST_NODE_TYPES.MemberExpression) {
    const name = propertyName(bare.property, bare.computed);
    if (name === undefined) return undefined;
    if (lastName(bare.object) === 'service') return [name];
    const above = unwrap(bare.object).type === AST_NODE_TYPES.MemberExpression ? servicePath(context, bare.object, depth + 1) : undefined;
    return above && [...above, name];
  }
  const member = memberRead(context, bare);
  if (member?.owner === 'service') return [member.name];
  // const { redis } = ctx.service.cache; const redis = ctx.service.cache.redis
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(context, bare)?.defs[0];
  if (def?.type !== 'Variable' || def.parent.kind !== 'const' || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (def.node.id.type === AST_NODE_TYPES.Identifier) return init.type === AST_NODE_TYPES.MemberExpression ? servicePath(context, init, depth + 1) : undefined;
  const above = init.type === AST_NODE_TYPES.MemberExpression ? servicePath(context, init, depth + 1) : undefined;
  return above && member ? [...above, member.name] : undefined;
}

/** `name` of `<x>.<owner>.<name>` / `<owner>.<name>`, or of a `const` bound to one (`const { name } = <x>.<owner>`). */
function memberRead(context: AnyContext, receiver: TSESTree.Node): { owner: string; name: string } | undefined {
  const bare = unwrap(receiver);
  if (bare.type === AST_NODE_TYPES.MemberExpression) {
    const name = propertyName(bare.property, bare.computed);
    const owner = lastName(bare.object);
    return name !== undefined && owner !== undefined ? { owner, name } : undefined;
  }
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context, bare);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.parent.kind !== 'const' || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (def.node.id.type === AST_NODE_TYPES.Identifier) return init.type === AST_NODE_TYPES.MemberExpression ? memberRead(context, init) : undefined;
  if (def.node.id.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  const owner = lastName(init);
  if (owner === undefined) return undefined;
  for (const property of def.node.id.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (value !== def.name) continue;
    const name = propertyName(property.key, property.computed);
    return name === undefined ? undefined : { owner, name };
  }
  return undefined;
}

/** `app` of `app`, `this.app`, `ctx.app`, `this.ctx.app`: the last name of a plain path (not a call, not `this` alone). */
function lastName(node: TSESTree.Node): string | undefined {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Identifier) return bare.name;
  return bare.type === AST_NODE_TYPES.MemberExpression ? propertyName(bare.property, bare.computed) : undefined;
}

function packageRoot(context: AnyContext): string | undefined {
  const file = context.physicalFilename ?? context.filename;
  return file ? packageOf(file)?.root : undefined;
}

/** The names the nearest `package.json` of the linted file lists as dependencies of any kind. */
function dependenciesOf(context: AnyContext): ReadonlySet<string> {
  const root = packageRoot(context);
  const manifest = root !== undefined ? manifestOf(root) : undefined;
  const names = new Set<string>();
  for (const field of DEPENDENCY_FIELDS) {
    const deps = manifest?.[field];
    if (deps && typeof deps === 'object') for (const name of Object.keys(deps)) names.add(name);
  }
  return names;
}

/** Per package root, its service names and when they were listed (re-listed after {@link LISTING_TTL_MS}). */
const services = new Map<string, { at: number; names: ReadonlyMap<string, string | undefined> }>();

/**
 * The members Egg's loader makes of `app/service/` of the package at `root`: file and directory
 * names in camelCase with a lower-case first letter (the loader's `caseStyle: 'lower'`:
 * `app/service/RedisCache.ts` is `ctx.service.redisCache`), those of a subdirectory below its own
 * (`app/service/cache/redis.js` is `cache.redis`), each with its module's path without extension
 * (`undefined` for a directory).
 */
function serviceNames(root: string): ReadonlyMap<string, string | undefined> {
  const now = Date.now();
  const cached = services.get(root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.names;
  const names = new Map<string, string | undefined>();
  const list = (dir: string, prefix: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // no app/service/: no services
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name.endsWith('.d.ts')) continue;
      if (!entry.isDirectory() && !/\.[cm]?[jt]s$/.test(entry.name)) continue;
      const base = entry.isDirectory() ? entry.name : entry.name.replace(/\.[cm]?[jt]s$/, '');
      const camel = base.replace(/[_-]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
      const name = prefix + camel.charAt(0).toLowerCase() + camel.slice(1);
      // a file beside a directory of the same name: the loader's last one; neither is read as a
      // module. Two files of one base name (`redis.ts` compiled in place to `redis.js`) are one module
      const module = join(dir, base);
      names.set(name, entry.isDirectory() || (names.has(name) && names.get(name) !== module) ? undefined : module);
      if (entry.isDirectory() && depth < 4) list(join(dir, entry.name), `${name}.`, depth + 1);
    }
  };
  list(join(root, EGG_SERVICE_DIR), '', 0);
  if (services.size > 1000) services.clear();
  services.set(root, { at: now, names });
  return names;
}
