/**
 * The client library of a **global** client: a receiver taken for a client by its name
 * (`clientNames`) that the file never declares nor imports, a global its host provides. The Yunzai
 * bot framework gives every plugin a node-redis 4 client as the global `redis` (no plugin imports
 * it); a Cloudflare- or Deno-style runtime, a `/* global redis *\/` comment, an ESLint
 * `languageOptions.globals` entry or an application's own `global.redis = createClient()` do the
 * same. Written `redis`, `global.redis`, `globalThis.redis`, `window.redis` or `self.redis`; also
 * `redis` bound by `const { redis } = global` (or `globalThis`, `window`, `self`) or declared
 * ambient (`declare const redis: any`, `declare var redis: RedisClientType`), which name the global.
 *
 * The file says nothing of its library, so the package does: every source file of the linted
 * file's package (`project.ts`) that names the global is read, and
 *
 * - an assignment of a client to it (`global.redis = createClient()`, `globalThis.redis = new
 *   Redis()`, `(globalThis as any).redis = ...`, `global.redis ??= createClient()`, `global.redis ||=
 *   ...`, `global.redis = global.redis || createClient()`, `Object.assign(global, { redis:
 *   createClient() })`), or of a module of the code that exports one (`global.redis =
 *   require('./client')`, whose `module.exports` is judged in its module),
 *   gives that client's library;
 * - a call on it written in a syntax only one client runs gives that client's: a camelCase command
 *   method (`redis.lPop(k)`, `redis.hSet(...)`, `redis.sendCommand([...])`: node-redis 4 and later,
 *   whose methods are the command's name in camelCase; ioredis and node-redis 3 spell them in
 *   lower case) or a SET options object in node-redis' casing (`redis.set(k, v, { EX: 30 })`) is
 *   node-redis; the same object in lower case (`{ ex: 30 }`) is @upstash/redis; a `...Buffer`
 *   command method, `defineCommand()` or a `...Stream()` scan is ioredis (`pipeline()` is no
 *   evidence: @upstash/redis has one too).
 *
 * A **member** a package stores a client in is read the same way (`req.redisClient` of an Express
 * handler, `ctx.redis`, `app.locals.redis`: a member of an object that is not `this`, whose name
 * matches a `clientNames` pattern, not a weak default name): the package's assignments to that
 * member of any object (`req.redisClient = await getRedisClient()` in the middleware that attaches
 * it) and the calls on it in one client's syntax tell its library ({@link memberClientLibrary}).
 *
 * One library from all of them is the global's; none, or more than one, leaves it unknown (the
 * call's own shape then guesses, as before, and nothing the client would drop is reported).
 * ioredis-style tokens (`set(k, v, 'EX', 60)`) are no evidence: on node-redis 4 they are the very
 * mistake `valid-ttl-args` reports. Verdicts are cached per linted file and global name, what a
 * module read from disk shows per module (re-read when it changes), and which files of a package
 * name a global and may show its library ({@link libraryTextFilter}: only those are parsed) for
 * {@link LISTING_TTL_MS} milliseconds.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { ClientFlavor, ReceiverKind } from './client-facts.js';
import { originOf } from './client-syntax.js';
import { commonJsDefault, loadModule, moduleContext, readModule, specifierOf, type ImportedModule } from './modules.js';
import { commandOfMethod } from './command-methods.js';
import { isEggService } from './application-members.js';
import { LISTING_TTL_MS, packageFiles, packageOf } from './project.js';
import { TEST_PATH, testOnlyModule } from './test-paths.js';
import { findVariable, propertyName, requiredModule, unwrap, walk, type AnyContext } from './static.js';
import { isLegacyModeClient } from './client-version.js';

/** The objects a global is a property of: `global.redis`, `globalThis.redis`, `window.redis`, `self.redis`. */
const GLOBAL_OBJECTS = new Set(['global', 'globalThis', 'window', 'self']);
/** SET options as node-redis spells them in an options object. */
const NODE_REDIS_SET_OPTION = /^(?:EX|PX|EXAT|PXAT|KEEPTTL|NX|XX|GET|expiration|condition)$/;
/** SET options as @upstash/redis spells them. */
const UPSTASH_SET_OPTION = /^(?:ex|px|exat|pxat|keepTtl|nx|xx|get)$/;
/**
 * ioredis' own methods, which no other client has. Not `pipeline()`: @upstash/redis has one too
 * (https://upstash.com/docs/redis/sdks/ts/pipelining/pipeline-transaction).
 */
const IOREDIS_METHODS = new Set(['defineCommand', 'scanStream', 'sscanStream', 'hscanStream', 'zscanStream']);

/** What the package tells of one global: its library, and the call or assignment that says so. */
export interface GlobalClientLibrary {
  flavor: ClientFlavor;
  /** Why, for messages: ``a global the package uses as a node-redis client (`redis.lPop(...)` in apps/chat.js)``. */
  why: string;
}

const LIBRARY_NAMES: Partial<Record<ClientFlavor, string>> = { ioredis: 'an ioredis', 'node-redis': 'a node-redis', upstash: 'an @upstash/redis', bun: 'a Bun', glide: 'a Valkey GLIDE' };

/**
 * How a value is judged: `value` of the module `module` (`undefined`: the linted file), by that
 * module's client detector (passed in by `clients.ts`, which this module cannot import).
 */
export type ValueJudge = (module: ImportedModule | undefined, value: TSESTree.Node) => ReceiverKind;

/**
 * Where a package stores a client that files read by name: a global, a member of other objects,
 * or a framework's settings (`app.set('redis', client)`, `app.locals.redis = client`: a
 * `setting`, {@link settingClientLibrary}).
 */
type Store = { kind: 'global' | 'member' | 'setting'; name: string };

/** The key of a store in the caches below: `global:redis`, `member:redisClient`. */
function storeId(store: Store): string {
  return `${store.kind}:${store.name}`;
}

/** Verdicts per linted file (its program) and store (`global:redis`, `member:redisClient`). */
const verdicts = new WeakMap<TSESTree.Program, Map<string, GlobalClientLibrary | undefined>>();
/** What each module read from disk (its program) shows per store: library -> evidence. */
const moduleEvidence = new WeakMap<TSESTree.Program, Map<string, ReadonlyMap<ClientFlavor, string>>>();
/** Per package root and store, the files that name it ({@link filesNaming}). */
const naming = new Map<string, { at: number; paths: readonly string[] }>();
/** Globals being looked up (`global.redis = redis` would ask again): unknown meanwhile. */
const inProgress = new Set<string>();

/**
 * The name of the global `receiver` is, when it is one: a bare identifier no scope of the file
 * declares (`redis`: an implicit global, or one declared by a `/* global *\/` comment or ESLint's
 * `languageOptions.globals`, which have no definition in the code), or a property of the global
 * object (`global.redis`, `globalThis.redis`, `window.redis`, `self.redis`); `undefined` otherwise.
 */
export function globalName(context: AnyContext, receiver: TSESTree.Node): string | undefined {
  const bare = unwrap(receiver);
  if (bare.type === AST_NODE_TYPES.Identifier) {
    if (GLOBAL_OBJECTS.has(bare.name)) return undefined;
    return originOf(context, bare).kind === 'global' ? bare.name : aliasedGlobal(context, bare);
  }
  if (bare.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  return isGlobalObject(context, bare.object) ? propertyName(bare.property, bare.computed) : undefined;
}

/** Whether `node` is the global object: `global`, `globalThis`, `window` or `self`, none declared by the file. */
function isGlobalObject(context: AnyContext, node: TSESTree.Node): boolean {
  const object = unwrap(node);
  return object.type === AST_NODE_TYPES.Identifier && GLOBAL_OBJECTS.has(object.name) && originOf(context, object).kind === 'global';
}

/**
 * The global a declared name stands for: `redis` of `const { redis } = global` (`const { redis: r }
 * = globalThis` for `r`), or of an ambient declaration with no value (`declare const redis: any`,
 * `declare var redis: RedisClientType`), which only tells TypeScript of the host's global.
 */
function aliasedGlobal(context: AnyContext, id: TSESTree.Identifier): string | undefined {
  const defs = findVariable(context, id)?.defs ?? [];
  const def = defs.length === 1 ? defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id.type === AST_NODE_TYPES.ArrayPattern) return undefined;
  if (def.node.id.type === AST_NODE_TYPES.Identifier) return def.parent.declare && !def.node.init ? id.name : undefined;
  if (def.parent.kind !== 'const' || !def.node.init || !isGlobalObject(context, def.node.init)) return undefined;
  for (const property of def.node.id.properties) {
    if (property.type === AST_NODE_TYPES.Property && unwrap(property.value).type === AST_NODE_TYPES.Identifier && (unwrap(property.value) as TSESTree.Identifier).name === id.name) {
      return propertyName(property.key, property.computed);
    }
  }
  return undefined;
}

/**
 * The client library of the global `receiver` (see the module comment), from the files of the
 * linted file's package; `undefined` when `receiver` is no global, or nothing (or more than one
 * library) is told. Reads files from disk; never throws.
 */
export function globalClientLibrary(context: AnyContext, receiver: TSESTree.Node, judge: ValueJudge): GlobalClientLibrary | undefined {
  const name = globalName(context, receiver);
  return name === undefined ? undefined : storeLibrary(context, { kind: 'global', name }, judge);
}

/**
 * The member of another object `receiver` is, when it is one a package may store a client in
 * (see the module comment): `redisClient` of `req.redisClient`, `redis` of `ctx.state.redis`; not a
 * member of `this` (its class says what it holds), of `super` nor of the global object (a global).
 */
export function memberName(context: AnyContext, receiver: TSESTree.Node): string | undefined {
  const bare = unwrap(receiver);
  if (bare.type === AST_NODE_TYPES.Identifier) return aliasedMember(context, bare)?.name;
  if (bare.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = unwrap(bare.object);
  if (object.type === AST_NODE_TYPES.ThisExpression || object.type === AST_NODE_TYPES.Super || isGlobalObject(context, object)) return undefined;
  return propertyName(bare.property, bare.computed);
}

/** A binding that holds a member of another object: the member's name, and the object's name when it is a plain one (`req`). */
export interface MemberAlias {
  name: string;
  owner?: string;
}

/**
 * The member of another object a `const` binding holds, when it holds one as it is: `r` of `const
 * r = req.redisClient` (also `req.redisClient as Redis`, `await ctx.redis`) or of `const {
 * redisClient: r } = req`, `redisClient` of `const { redisClient } = req` (a property of the
 * pattern itself, not a nested one). Not a member of `this` (its class says what it holds), of
 * `super` nor of the global object (`const { redis } = global` names a global), and not a module
 * (`const { redis } = require('./db')`): what a module exports is read there. `undefined` for any
 * other binding, and for a binding written again.
 */
export function aliasedMember(context: AnyContext, id: TSESTree.Identifier): MemberAlias | undefined {
  const variable = findVariable(context, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.parent.kind !== 'const' || !def.node.init) return undefined;
  let init = unwrap(def.node.init);
  if (init.type === AST_NODE_TYPES.AwaitExpression) init = unwrap(init.argument);
  const pattern = def.node.id;
  if (pattern.type === AST_NODE_TYPES.Identifier) {
    if (init.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const name = memberOfObject(context, init);
    return name === undefined ? undefined : { name, owner: ownerOf(init.object) };
  }
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern || !ownerObject(context, init) || requiredModule(init) !== undefined) return undefined;
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (value !== def.name) continue;
    const name = propertyName(property.key, property.computed);
    return name === undefined ? undefined : { name, owner: ownerOf(init) };
  }
  return undefined;
}

/** The member name of `node` (`redisClient` of `req.redisClient`) when its object is another object's (see {@link aliasedMember}). */
function memberOfObject(context: AnyContext, node: TSESTree.MemberExpression): string | undefined {
  return ownerObject(context, unwrap(node.object)) ? propertyName(node.property, node.computed) : undefined;
}

/** Whether a value may be an object other code stores a client in: not `this`, `super`, nor the global object. */
function ownerObject(context: AnyContext, object: TSESTree.Node): boolean {
  return object.type !== AST_NODE_TYPES.ThisExpression && object.type !== AST_NODE_TYPES.Super && !isGlobalObject(context, object);
}

/** `req` of `req.redisClient`, `res.locals` of `res.locals.redis`: the object as written when it is a plain name or path. */
function ownerOf(node: TSESTree.Node): string | undefined {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Identifier) return bare.name;
  if (bare.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const inner = ownerOf(bare.object);
  const name = propertyName(bare.property, bare.computed);
  return inner === undefined || name === undefined ? undefined : `${inner}.${name}`;
}

/**
 * The client library of the member `receiver` (`req.redisClient`), when its name matches a
 * `clientNames` pattern (`strong`) and the files of the linted file's package store one library's
 * client in that member of any object, or call it in one library's syntax (see the module
 * comment); `undefined` otherwise. Reads files from disk; never throws.
 */
export function memberClientLibrary(context: AnyContext, receiver: TSESTree.Node, strong: (name: string) => boolean, judge: ValueJudge): GlobalClientLibrary | undefined {
  const name = memberName(context, receiver);
  return name === undefined || !strong(name) ? undefined : storeLibrary(context, { kind: 'member', name }, judge);
}

/**
 * Whether the package told the library of `receiver`'s store: a global, or a member whose library
 * {@link memberClientLibrary} found for the linted file. The call's own syntax must not overrule it.
 * Read from the verdicts of the linted file: ask after the receiver was classified (the client
 * detector's `nameVerdict` looks the member up first); never reads a file.
 */
export function libraryToldByPackage(context: AnyContext, receiver: TSESTree.Node): boolean {
  if (globalName(context, receiver) !== undefined) return true;
  const name = memberName(context, receiver);
  return name !== undefined && verdicts.get(context.sourceCode.ast)?.get(storeId({ kind: 'member', name })) !== undefined;
}

/** The library of `store` for the linted file, cached per file and store. */
function storeLibrary(context: AnyContext, store: Store, judge: ValueJudge): GlobalClientLibrary | undefined {
  const program = context.sourceCode.ast;
  let byStore = verdicts.get(program);
  if (!byStore) verdicts.set(program, (byStore = new Map()));
  const id = storeId(store);
  if (byStore.has(id)) return byStore.get(id);
  const file = context.physicalFilename ?? context.filename;
  const key = `${file}\0${id}`;
  if (inProgress.has(key)) return undefined;
  inProgress.add(key);
  try {
    const value = fromPackage(context, store, file, judge);
    byStore.set(id, value);
    return value;
  } finally {
    inProgress.delete(key);
  }
}

/** The library the linted file (as linted) and the other files of its package (as on disk) show for `store`. */
function fromPackage(context: AnyContext, store: Store, file: string | undefined, judge: ValueJudge): GlobalClientLibrary | undefined {
  const own = file && isAbsolute(file) ? resolve(file) : undefined;
  const root = own ? packageOf(own)?.root : undefined;
  const found = new Map<ClientFlavor, string>();
  const add = (evidence: ReadonlyMap<ClientFlavor, string>): void => {
    for (const [flavor, where] of evidence) if (!found.has(flavor)) found.set(flavor, where);
  };
  add(evidenceIn(context, store, own && root ? relative(root, own) : 'this file', undefined, judge));
  // a test's client (`req.redisClient = new RedisMock()` in a spec) is not the application's,
  // unless the linted file is a test itself
  const ownTest = own && root ? TEST_PATH.test(relative(root, own)) : false;
  for (const path of root && own ? filesNaming(root, store, own) : []) {
    if (found.size > 1) return undefined;
    if (path === own || (!ownTest && testOnlyModule(root!, path))) continue;
    const module = loadModule(context, specifierOf(own!, path));
    if (!module) continue;
    let byStore = moduleEvidence.get(module.program);
    if (!byStore) moduleEvidence.set(module.program, (byStore = new Map()));
    const id = storeId(store);
    let evidence = byStore.get(id);
    if (!evidence) {
      evidence = evidenceIn(moduleContext(context, module), store, relative(root!, path), module, judge);
      byStore.set(id, evidence);
    }
    add(evidence);
  }
  if (found.size !== 1) return undefined;
  const [flavor, evidence] = [...found][0]!;
  const what = store.kind === 'global' ? 'a global' : store.kind === 'setting' ? `a setting (\`'${store.name}'\`)` : `a member (\`.${store.name}\`)`;
  return { flavor, why: `${what} the package uses as ${LIBRARY_NAMES[flavor] ?? 'a'} client (${evidence})` };
}

/**
 * The source files of the package at `root` whose text names `name` and may show its library
 * ({@link libraryTextFilter}; absolute paths; `from`: a file of the package, to read them from),
 * listed once per {@link LISTING_TTL_MS} milliseconds:
 * every file of a package with a global client asks, and reading every file's text for each would
 * cost the package's size times theirs.
 */
function filesNaming(root: string, store: Store, from: string): readonly string[] {
  if (store.kind === 'setting') return settingNamesOf(root, from).get(store.name) ?? [];
  const key = `${root}\0${storeId(store)}`;
  const now = Date.now();
  const cached = naming.get(key);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.paths;
  const mayShow = libraryTextFilter(store.name);
  const paths: string[] = [];
  for (const path of packageFiles(root) ?? []) {
    const text = readModule(from, specifierOf(from, path))?.entry.text;
    if (text !== undefined && mayShow(text)) paths.push(resolve(path));
  }
  naming.set(key, { at: now, paths });
  return paths;
}

/** Assignments that store a value in the global: `=`, and `??=` / `||=`, which store it when none is there yet. */
const STORING = new Set(['=', '??=', '||=']);

/**
 * The libraries the module of `context` shows for `store` (a global or a member name), each with its first evidence
 * (`where`: the module's path, for messages; `module`: the module, `undefined` for the linted file;
 * `judge`: what a value of a module is).
 */
function evidenceIn(context: AnyContext, store: Store, where: string, module: ImportedModule | undefined, judge: ValueJudge): ReadonlyMap<ClientFlavor, string> {
  const found = new Map<ClientFlavor, string>();
  const name = store.name;
  // `ctx.service.redis` of an Egg.js application is its own service, not a store of a client
  const names = (node: TSESTree.Node): boolean => (store.kind === 'global' ? globalName(context, node) : memberName(context, node)) === name && !(store.kind === 'member' && isEggService(context, node));
  const stored = (value: TSESTree.Node, written: string): void => {
    const verdict = storedValue(context, module, value, judge);
    if (verdict.redis && !verdict.byName && verdict.flavor !== 'unknown') note(found, verdict.flavor, `\`${written}\` in ${where}`);
  };
  if (store.kind === 'setting') {
    walk(context, context.sourceCode.ast, (node) => {
      const value = settingStored(context, node, name);
      // a legacy-mode node-redis client (createClient({ legacyMode: true }), client.legacy()) sends
      // its arguments as written, which a read's receiver cannot say (node-redis-3 is a call's
      // flavor): no evidence of a client, its reads are judged as before they were read as one
      if (value && isLegacyModeClient(context, value)) return;
      if (value) stored(value, node.type === AST_NODE_TYPES.CallExpression ? `${context.sourceCode.getText(node.callee)}('${name}', ...)` : `${context.sourceCode.getText((node as TSESTree.AssignmentExpression).left)} = ...`);
    });
    return found;
  }
  walk(context, context.sourceCode.ast, (node) => {
    if (node.type === AST_NODE_TYPES.AssignmentExpression && STORING.has(node.operator)) {
      const target = unwrap(node.left);
      if (target.type === AST_NODE_TYPES.MemberExpression && names(target)) stored(node.right, `${context.sourceCode.getText(node.left)} ${node.operator} ...`);
      return;
    }
    if (node.type !== AST_NODE_TYPES.CallExpression) return;
    const callee = unwrap(node.callee);
    // Object.assign(global, { redis: createClient() })
    const assigned = store.kind === 'global' ? objectAssignedGlobal(context, node, name) : undefined;
    if (assigned) stored(assigned, `Object.assign(${context.sourceCode.getText(node.arguments[0]!)}, { ${name}: ... })`);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || !names(callee.object)) return;
    const method = propertyName(callee.property, callee.computed);
    if (method === undefined) return;
    const flavor = syntaxFlavor(method, node);
    if (flavor) note(found, flavor, `\`${context.sourceCode.getText(callee)}(...)\` in ${where}`);
  });
  return found;
}

/**
 * The value `node` stores under the setting `name`: `value` of `<x>.set('<name>', value)` (Express's
 * `app.set`, Hono's `c.set`: exactly two arguments, the name a literal) or of `<x>.locals.<name> =
 * value` (Express's `app.locals`, `res.locals`); `undefined` for any other node.
 */
function settingStored(context: AnyContext, node: TSESTree.Node, name: string): TSESTree.Node | undefined {
  if (node.type === AST_NODE_TYPES.AssignmentExpression && STORING.has(node.operator)) {
    return localsMemberName(node.left) === name ? node.right : undefined;
  }
  if (node.type !== AST_NODE_TYPES.CallExpression || node.arguments.length !== 2) return undefined;
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee.property, callee.computed) !== 'set') return undefined;
  const [first, value] = node.arguments;
  if (!first || !value || value.type === AST_NODE_TYPES.SpreadElement) return undefined;
  return literalName(first) === name ? value : undefined;
}

/** The text of a string literal (or a template literal without expressions); `undefined` for anything else. */
export function literalName(node: TSESTree.Node): string | undefined {
  const arg = unwrap(node);
  if (arg.type === AST_NODE_TYPES.Literal && typeof arg.value === 'string') return arg.value;
  if (arg.type === AST_NODE_TYPES.TemplateLiteral && arg.expressions.length === 0) return arg.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** `redis` of `app.locals.redis` / `req.app.locals['redis']`: the member of a `locals` object; `undefined` otherwise. */
export function localsMemberName(node: TSESTree.Node): string | undefined {
  const bare = unwrap(node);
  if (bare.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = unwrap(bare.object);
  if (object.type !== AST_NODE_TYPES.MemberExpression || propertyName(object.property, object.computed) !== 'locals') return undefined;
  return propertyName(bare.property, bare.computed);
}

/**
 * The client library of the setting `name`: the one library whose client (decided by its
 * construction or import, not by a name) the files of the linted file's package store with
 * `<x>.set('<name>', client)` or `<x>.locals.<name> = client`, so that `<any>.get('<name>')` and
 * `<any>.locals.<name>` read it (Express's `app.set('redis', client)` then `req.app.get('redis')`,
 * Hono's `c.set('redis', client)` then `c.get('redis')`); `undefined` when no file stores a client
 * under that name, or clients of more than one library. Reads files from disk; never throws.
 */
export function settingClientLibrary(context: AnyContext, name: string, judge: ValueJudge): GlobalClientLibrary | undefined {
  // a name no file of the package may store a value under is none (config.get('k1') ... of a
  // file reading a thousand names: each looked up in every file of the package took seconds)
  const file = context.physicalFilename ?? context.filename;
  const own = file && isAbsolute(file) ? resolve(file) : undefined;
  const root = own ? packageOf(own)?.root : undefined;
  if (!ownSettingNames(context).has(name) && !(root && own && settingNamesOf(root, own).has(name))) return undefined;
  return storeLibrary(context, { kind: 'setting', name }, judge);
}

/** A setting's store as written in a file's text, any name: `.set('<name>',`, `locals.<name>`, `locals['<name>']`. */
const ANY_SETTING_STORE = /\.\s*set\s*\(\s*(['"`])([^'"`\n]+?)\1\s*,|\blocals\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(['"`])([^'"`\n]+?)\4\s*\])/g;

/** The names {@link ANY_SETTING_STORE} finds in `text`. */
function settingNamesIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(ANY_SETTING_STORE)) names.add(match[2] ?? match[3] ?? match[5]!);
  return names;
}

/** The setting names the linted file, as linted, may store a value under: read once per file. */
const ownNames = new WeakMap<TSESTree.Program, Set<string>>();
function ownSettingNames(context: AnyContext): Set<string> {
  const program = context.sourceCode.ast;
  let names = ownNames.get(program);
  if (!names) ownNames.set(program, (names = settingNamesIn(context.sourceCode.text)));
  return names;
}

/** Per package root: each setting name its files may store a value under, with those files ({@link settingNamesOf}). */
const settingNames = new Map<string, { at: number; files: ReadonlyMap<string, readonly string[]> }>();

/**
 * The names any file of the package at `root` may store a setting under ({@link ANY_SETTING_STORE}),
 * each with those files (absolute paths; `from`: the linted file, to read them from), read in one
 * pass over the package's texts once per {@link LISTING_TTL_MS} milliseconds: both the test of a
 * name and the files to judge it in ({@link filesNaming}) come from it, so an Express package
 * whose files each read and write many `locals.<name>` costs one pass, not one per name (400 files
 * of 25 `res.locals.<name> = v` and 25 `req.app.get('<name>')` each: 120 s before, 9.7 s; 3.9 s
 * before settings were read at all).
 */
function settingNamesOf(root: string, from: string): ReadonlyMap<string, readonly string[]> {
  const now = Date.now();
  const cached = settingNames.get(root);
  if (cached && now - cached.at < LISTING_TTL_MS) return cached.files;
  const files = new Map<string, string[]>();
  for (const path of packageFiles(root) ?? []) {
    const text = readModule(from, specifierOf(from, path))?.entry.text;
    for (const name of text === undefined ? [] : settingNamesIn(text)) {
      let paths = files.get(name);
      if (!paths) files.set(name, (paths = []));
      paths.push(resolve(path));
    }
  }
  settingNames.set(root, { at: now, files });
  return files;
}


/**
 * What a value stored in the global is: `require('./client')` of a module of the code is what that
 * module exports as a whole (`module.exports = createClient()`), judged in that module; any other value is judged where it is written.
 */
function storedValue(context: AnyContext, module: ImportedModule | undefined, value: TSESTree.Node, judge: ValueJudge): ReceiverKind {
  const specifier = requiredModule(value);
  if (specifier === undefined || !specifier.startsWith('.')) return judge(module, value);
  const required = loadModule(context, specifier);
  const exported = required ? commonJsDefault(required.program) : undefined;
  return required && exported ? judge(required, exported) : judge(module, value);
}

/** The value `Object.assign(<the global object>, { <name>: value })` stores in the global `name`. */
function objectAssignedGlobal(context: AnyContext, call: TSESTree.CallExpression, name: string): TSESTree.Node | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee.property, callee.computed) !== 'assign') return undefined;
  const object = unwrap(callee.object);
  if (object.type !== AST_NODE_TYPES.Identifier || object.name !== 'Object' || !call.arguments[0] || !isGlobalObject(context, call.arguments[0])) return undefined;
  for (const source of call.arguments.slice(1)) {
    if (source.type !== AST_NODE_TYPES.ObjectExpression) continue;
    for (const property of source.properties) {
      if (property.type === AST_NODE_TYPES.Property && propertyName(property.key, property.computed) === name) return property.value;
    }
  }
  return undefined;
}

function note(found: Map<ClientFlavor, string>, flavor: ClientFlavor, evidence: string): void {
  if (!found.has(flavor)) found.set(flavor, evidence);
}

/**
 * The one client whose syntax the call `method(...)` of `node` is written in, when only one runs
 * it (see the module comment); `undefined` when several do.
 */
export function syntaxFlavor(method: string, node: TSESTree.CallExpression): ClientFlavor | undefined {
  const flavor = methodFlavor(method);
  if (flavor !== 'set') return flavor;
  const options = node.arguments[2];
  if (options?.type !== AST_NODE_TYPES.ObjectExpression || options.properties.length === 0) return undefined;
  const names = options.properties.map((p) => (p.type === AST_NODE_TYPES.Property ? propertyName(p.key, p.computed) : undefined));
  if (names.every((n) => n !== undefined && NODE_REDIS_SET_OPTION.test(n))) return 'node-redis';
  if (names.every((n) => n !== undefined && UPSTASH_SET_OPTION.test(n))) return 'upstash';
  return undefined;
}

/**
 * The client a call of `method` says by its name alone (see the module comment), `'set'` when its
 * SET options decide, `undefined` when the name says nothing.
 */
function methodFlavor(method: string): ClientFlavor | 'set' | undefined {
  if (IOREDIS_METHODS.has(method)) return 'ioredis';
  if (method.length > 6 && method.endsWith('Buffer') && commandOfMethod(method)) return 'ioredis';
  if (method === 'sendCommand' || (/[a-z][A-Z]/.test(method) && commandOfMethod(method))) return 'node-redis';
  return method.toLowerCase() === 'set' ? 'set' : undefined;
}

/** `Object.assign(global, ...)` as written in a file's text. */
const OBJECT_ASSIGN_GLOBAL = /\bObject\.assign\s*\(\s*(?:global|globalThis|window|self)\b/;
/** A property read as written in a file's text: `.name`, `?.name`, `['name']`. */
const PROPERTY_TOKEN = /\??\.\s*([A-Za-z_$][\w$]*)|\[\s*['"`]([A-Za-z_$][\w$]*)['"`]\s*\]/g;
/** A SET option key as written in an object literal, in either client's casing. */
const SET_OPTION_KEY = /\b(?:EX|PX|EXAT|PXAT|KEEPTTL|NX|XX|GET|expiration|condition|ex|px|exat|pxat|keepTtl|nx|xx|get)['"]?\s*:/;

/**
 * Whether the text of a file may show the library of the global `name`: it names `name`, and has
 * an assignment on a line that names it (`global.redis = ...`, `globalThis['redis'] = ...`) or a
 * property whose name alone tells a client (`.lPop`, `['hSet']`, `.getBuffer`; for `.set`, with a
 * SET option key in the file). A cheap over-approximation of what the parsed file shows, so that
 * only the files it keeps are parsed: a package where a thousand files call `redis.get(k)` and
 * `redis.set(k, v)` on a global would otherwise parse every one of them (about 35 ms a file).
 */
export function libraryTextFilter(name: string): (text: string) => boolean {
  const escaped = name.replace(/[^\w$]/g, '\\$&');
  const word = new RegExp(`\\b${escaped}\\b`);
  // not `==` nor `=>`
  const assignment = new RegExp(`\\b${escaped}\\b[^;\\n=]*=(?![=>])`);
  return (text) => {
    if (!word.test(text)) return false;
    if (assignment.test(text) || OBJECT_ASSIGN_GLOBAL.test(text)) return true;
    for (const match of text.matchAll(PROPERTY_TOKEN)) {
      const flavor = methodFlavor(match[1] ?? match[2]!);
      if (flavor === 'set' ? SET_OPTION_KEY.test(text) : flavor !== undefined) return true;
    }
    return false;
  };
}
