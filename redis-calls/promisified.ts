/**
 * node-redis 2 / 3 (`redis` before 4) is callback-based; its users promisify it, after which each
 * command goes out under another name. The promisified name sends exactly the underlying command
 * with the same arguments (node-redis 3 conventions), so every rule reads it as that command:
 *
 * ```js
 * const bluebird = require('bluebird');
 * bluebird.promisifyAll(redis.RedisClient.prototype);        // or promisifyAll(require('redis')),
 * await client.setAsync(`token:${id}`, userId);               //    promisifyAll(client), { suffix }
 * await client.expireAsync(`token:${id}`, 5);                 // SET, then EXPIRE: two round trips
 *
 * const setAsync = promisify(client.set).bind(client);       // util.promisify, es6-promisify, pify
 * const getAsync = promisify(client.get.bind(client));
 * const redisAsync = { incr: promisify(client.incr).bind(client) };
 * client.ttlAsync = promisify(client.ttl);                    // called as client.ttlAsync(k)
 * ```
 *
 * - bluebird's `promisifyAll` (bluebird imported under any name, or the global `Promise` it
 *   replaced) adds `<method><suffix>` (`Async` unless the `suffix` option says otherwise): read as
 *   the command of `<method>` when the call's receiver is a Redis client the detector knows and
 *   `promisifyAll` was applied to node-redis (the module, `RedisClient.prototype`, `Multi.prototype`,
 *   a client it makes) in the file or in a module of the code the file imports (two levels, at most
 *   {@link MAX_MODULES_READ} modules read per file). A bare `setAsync` on anything else is not read.
 * - `promisify(client.set).bind(client)`, `promisify(client.set.bind(client))`,
 *   `promisify(client.set, client)`, `Promise.promisify(client.set, { context: client })`,
 *   `pify(client.set.bind(client))` (and `pify(client)`, the whole client): the function (a
 *   variable, a property of a `const` object literal, or a member it is assigned to) is read as the
 *   command of the method it wraps, on that method's receiver, which must be a Redis client.
 *   `pify(client)` in a variable of any name stands for the client: `p.set(k, v)` of `const p =
 *   pify(client)` is SET on `client` (found by the variable, not by the method's name).
 *
 * Such a call is a round trip of its own (a MULTI's queued `expireAsync` stays in the MULTI: the
 * unit is the receiver's); its form is `facade`: no fix rewrites a promisified name.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { enclosingClass, originOf } from './client-syntax.js';
import type { ClientDetector } from './clients.js';
import { codeImports, loadModule, moduleContext, readModule, type ImportedModule } from './modules.js';
import { commandOfMethod } from './command-methods.js';
import { isCandidateMethod } from './normalize.js';
import { findVariable, promisifyAllArgument, propertyName, requiredModule, staticValue, unwrap, walk, type AnyContext } from './static.js';

/** What a promisified call stands for: the client method it sends (`client.set`) and where findings start. */
export interface PromisifiedTarget {
  /** A member expression whose object is the receiver (unless `receiver` is given) and whose property names the method. */
  callee: TSESTree.MemberExpression;
  /** The client the callee's object wraps, read as the receiver: `client` of `const redisAsync = pify(client)`. */
  receiver?: TSESTree.Node;
  /** The client method name (`set`, `hincrby`). */
  method: string;
  /** The name as written at the call (`setAsync`, `redisAsync.get`'s `get`). */
  nameNode: TSESTree.Node;
}

/** Modules of the code read per linted file to find a `promisifyAll` of node-redis. */
const MAX_MODULES_READ = 20;
/** bluebird's default suffix. */
const DEFAULT_SUFFIX = 'Async';
/** The node-redis 2 / 3 package. */
const NODE_REDIS = 'redis';

interface FileFacts {
  /** Suffixes of `promisifyAll` applied to node-redis in the file or a module it imports. */
  suffixes: ReadonlySet<string>;
  /** Names of functions made by promisifying a client method, by binding. */
  bindings: Map<string, Binding[]>;
  /** `pify(client)` wrappers, by the name of the variable holding one (`p` of `const p = pify(client)`). */
  wrappers: Map<string, Binding[]>;
}

/** A function (or object of functions) made by promisifying a client method. */
interface Binding {
  /** The variable it is stored in, or the text of the object it is assigned to (`client`, `this`). */
  holder: { variable: object } | { text: string; cls?: TSESTree.Node };
  /** `method`: the wrapped method; `client`: `pify(client)`, every method. */
  wrapped: { member: TSESTree.MemberExpression } | { client: TSESTree.Node };
}

const facts = new WeakMap<object, FileFacts>();
const mentions = new WeakMap<object, boolean>();

/**
 * Whether a file may call a promisified node-redis method (the cheap test before any analysis,
 * once per file): its text promisifies (`promisify`, `promisifyAll`, `pify`) or calls a method
 * ending in `Async` (bluebird's suffix, given by a module it imports). A custom suffix set in
 * another module is read only in files that also call some `*Async` method.
 */
export function mayBePromisified(context: AnyContext): boolean {
  let found = mentions.get(context.sourceCode);
  if (found === undefined) {
    found = /promisify|\bpify\b|[a-z]Async\s*\(/.test(context.sourceCode.text);
    mentions.set(context.sourceCode, found);
  }
  return found;
}
/** `promisifyAll` suffixes per module path (the modules a file imports), for the lint run. */
const moduleSuffixes = new Map<string, ReadonlySet<string>>();

/**
 * The client method a call sends when it calls a promisified node-redis method (see the module
 * comment), else `undefined`. Cheap for files that mention no promisification.
 */
export function promisifiedTarget(context: AnyContext, detector: ClientDetector, node: TSESTree.CallExpression): PromisifiedTarget | undefined {
  const file = factsOf(context);
  if (file.suffixes.size === 0 && file.bindings.size === 0 && file.wrappers.size === 0) return undefined;
  const callee = unwrap(node.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return fromBinding(context, detector, file, callee, callee, undefined);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = propertyName(callee.property, callee.computed);
  if (name === undefined) return undefined;
  const bound = fromBinding(context, detector, file, callee.property, callee.object, name);
  if (bound) return bound;
  for (const suffix of file.suffixes) {
    if (name.length <= suffix.length || !name.endsWith(suffix)) continue;
    const method = name.slice(0, -suffix.length);
    if (commandOfMethod(method) === undefined) continue;
    const receiver = detector.classify(callee.object);
    if (!receiver.redis || (receiver.flavor !== 'node-redis' && receiver.flavor !== 'node-redis-3' && receiver.flavor !== 'unknown')) return undefined;
    return { callee, method, nameNode: callee.property };
  }
  return undefined;
}

/** The promisified function a callee names (`setAsync`, `redisAsync.get`, `client.getAsync`), read as its method. */
function fromBinding(
  context: AnyContext,
  detector: ClientDetector,
  file: FileFacts,
  nameNode: TSESTree.Node,
  holder: TSESTree.Node,
  property: string | undefined,
): PromisifiedTarget | undefined {
  const key = property ?? (holder.type === AST_NODE_TYPES.Identifier ? holder.name : undefined);
  // a promisified method by its own name (`setAsync(k, v)`, `redisAsync.get(k)`); a method of a
  // `pify(client)` wrapper by the wrapper's name (`p.set(k, v)`)
  const wrapper = property !== undefined && holder.type === AST_NODE_TYPES.Identifier ? file.wrappers.get(holder.name) : undefined;
  const candidates = [...((key !== undefined && file.bindings.get(key)) || []), ...(wrapper ?? [])];
  if (candidates.length === 0) return undefined;
  const variable = property === undefined && holder.type === AST_NODE_TYPES.Identifier ? findVariable(context, holder) : undefined;
  const objectVariable = property !== undefined && holder.type === AST_NODE_TYPES.Identifier ? findVariable(context, holder) : undefined;
  const text = property !== undefined ? context.sourceCode.getText(unwrap(holder)) : undefined;
  for (const binding of candidates) {
    const h = binding.holder;
    const matches =
      'variable' in h
        ? h.variable === (variable ?? objectVariable)
        : text === h.text && (h.cls === undefined || h.cls === enclosingClass(holder));
    if (!matches) continue;
    if ('member' in binding.wrapped) {
      const member = binding.wrapped.member;
      const method = propertyName(member.property, member.computed);
      if (method === undefined || !detector.classify(member.object).redis) return undefined;
      return { callee: member, method, nameNode };
    }
    // pify(client): every method of the client, promisified under its own name
    if (property === undefined || !isCandidateMethod(property) || !detector.classify(binding.wrapped.client).redis) return undefined;
    const callee = nameNode.parent;
    return callee?.type === AST_NODE_TYPES.MemberExpression ? { callee, receiver: binding.wrapped.client, method: property, nameNode } : undefined;
  }
  return undefined;
}

function factsOf(context: AnyContext): FileFacts {
  const cached = facts.get(context.sourceCode);
  if (cached) return cached;
  const text = context.sourceCode.text;
  const suffixes = new Set<string>();
  const bindings = new Map<string, Binding[]>();
  const wrappers = new Map<string, Binding[]>();
  if (text.includes('promisifyAll')) for (const suffix of ownSuffixes(context)) suffixes.add(suffix);
  for (const suffix of importedSuffixes(context)) suffixes.add(suffix);
  if (/\b(?:promisify|pify)\s*\(/.test(text)) collectBindings(context, bindings, wrappers);
  const result = { suffixes, bindings, wrappers };
  facts.set(context.sourceCode, result);
  return result;
}

/** The suffixes of the `promisifyAll` calls of node-redis in a file (or a module read as one). */
function ownSuffixes(context: AnyContext): Set<string> {
  const found = new Set<string>();
  walk(context, context.sourceCode.ast, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const target = promisifyAllArgument(node);
    if (!target || !isBluebird(context, node.callee) || !isNodeRedis(context, target, 0)) return undefined;
    const suffix = suffixOption(context, node.arguments[1]);
    if (suffix !== undefined) found.add(suffix);
    return undefined;
  });
  return found;
}

/** `{ suffix: 'P' }` -> `P`; no options -> `Async`; a suffix not known statically -> `undefined`. */
function suffixOption(context: AnyContext, options: TSESTree.Node | undefined): string | undefined {
  if (!options) return DEFAULT_SUFFIX;
  const object = unwrap(options);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) return undefined;
    if (propertyName(property.key, property.computed) !== 'suffix') continue;
    const value = staticValue(context, property.value);
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  }
  return DEFAULT_SUFFIX;
}

/** Whether `promisifyAll`'s callee is bluebird's: imported (any name, also destructured) or the global `Promise` it replaced. */
function isBluebird(context: AnyContext, callee: TSESTree.Node): boolean {
  const bare = unwrap(callee);
  const root = bare.type === AST_NODE_TYPES.MemberExpression ? unwrap(bare.object) : bare;
  if (requiredModule(root) === 'bluebird') return true;
  if (root.type !== AST_NODE_TYPES.Identifier) return false;
  const origin = originOf(context, root);
  if (origin.kind === 'import') return origin.source === 'bluebird';
  return origin.kind === 'global' && root.name === 'Promise' && bare !== root;
}

/**
 * Whether `promisifyAll`'s argument is node-redis: the module (`require('redis')`, an import of
 * it), its `RedisClient.prototype` / `Multi.prototype`, or a client it makes (`redis.createClient()`,
 * a variable holding one).
 */
function isNodeRedis(context: AnyContext, input: TSESTree.Node, depth: number): boolean {
  if (depth > 4) return false;
  let node = unwrap(input);
  if (node.type === AST_NODE_TYPES.MemberExpression && propertyName(node.property, node.computed) === 'prototype') node = unwrap(node.object);
  if (node.type === AST_NODE_TYPES.MemberExpression && ['RedisClient', 'Multi'].includes(propertyName(node.property, node.computed) ?? '')) node = unwrap(node.object);
  if (node.type === AST_NODE_TYPES.CallExpression && !requiredModule(node)) {
    const callee = unwrap(node.callee);
    if (callee.type === AST_NODE_TYPES.MemberExpression && propertyName(callee.property, callee.computed) === 'createClient') return isNodeRedis(context, callee.object, depth + 1);
    if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'createClient') return isNodeRedis(context, callee, depth + 1);
    return false;
  }
  if (requiredModule(node) !== undefined) return requiredModule(node) === NODE_REDIS;
  if (node.type !== AST_NODE_TYPES.Identifier) return false;
  const origin = originOf(context, node);
  if (origin.kind === 'import') return origin.source === NODE_REDIS;
  const def = findVariable(context, node)?.defs[0];
  const init = def?.type === 'Variable' ? def.node.init : undefined;
  return init ? isNodeRedis(context, init, depth + 1) : false;
}

/**
 * The suffixes of `promisifyAll` of node-redis in the modules of the code the file imports, and
 * in the modules those import (read only when their text mentions `promisifyAll`; cached by path).
 */
function importedSuffixes(context: AnyContext): Set<string> {
  const found = new Set<string>();
  const from = context.physicalFilename ?? context.filename;
  let read = 0;
  const visit = (ctx: AnyContext, depth: number, seen: Set<string>): void => {
    for (const specifier of codeImports(ctx, { requires: true })) {
      if (read >= MAX_MODULES_READ) return;
      const file = readModule(ctx.physicalFilename ?? ctx.filename, specifier);
      if (!file || seen.has(file.path) || file.path === from) continue;
      seen.add(file.path);
      read++;
      let suffixes = moduleSuffixes.get(file.path);
      let module: ImportedModule | undefined;
      if (suffixes === undefined) {
        module = file.entry.text.includes('promisifyAll') || depth === 0 ? loadModule(ctx, specifier) : undefined;
        suffixes = module && file.entry.text.includes('promisifyAll') ? ownSuffixes(moduleContext(context, module)) : new Set();
        if (moduleSuffixes.size > 2_000) moduleSuffixes.clear();
        moduleSuffixes.set(file.path, suffixes);
      }
      for (const suffix of suffixes) found.add(suffix);
      if (depth === 0 && suffixes.size === 0) {
        module ??= loadModule(ctx, specifier);
        if (module) visit(moduleContext(context, module), depth + 1, seen);
      }
    }
  };
  visit(context, 0, new Set());
  return found;
}

/**
 * Records every function the file makes by promisifying a client method (see the module comment),
 * by its name, and every `pify(client)` wrapper, by the name of its variable.
 */
function collectBindings(context: AnyContext, bindings: Map<string, Binding[]>, wrappers: Map<string, Binding[]>): void {
  const add = (name: string, binding: Binding): void => {
    const map = 'client' in binding.wrapped ? wrappers : bindings;
    const list = map.get(name) ?? [];
    list.push(binding);
    map.set(name, list);
  };
  walk(context, context.sourceCode.ast, (node) => {
    if (node.type === AST_NODE_TYPES.VariableDeclarator && node.id.type === AST_NODE_TYPES.Identifier && node.init) {
      const variable = context.sourceCode.getDeclaredVariables(node)[0];
      if (!variable) return undefined;
      const wrapped = promisifiedMethod(context, node.init);
      if (wrapped) add(node.id.name, { holder: { variable }, wrapped });
      const object = unwrap(node.init);
      // const redisAsync = { get: promisify(client.get).bind(client), ... }
      if (object.type === AST_NODE_TYPES.ObjectExpression && node.parent?.type === AST_NODE_TYPES.VariableDeclaration && node.parent.kind === 'const') {
        for (const property of object.properties) {
          if (property.type !== AST_NODE_TYPES.Property) continue;
          const name = propertyName(property.key, property.computed);
          const inner = name === undefined ? undefined : promisifiedMethod(context, property.value);
          if (name !== undefined && inner && 'member' in inner) add(name, { holder: { variable }, wrapped: inner });
        }
      }
    } else if (node.type === AST_NODE_TYPES.AssignmentExpression && node.operator === '=' && node.left.type === AST_NODE_TYPES.MemberExpression) {
      // client.getAsync = promisify(client.get).bind(client); this.setAsync = promisify(this.redis.set).bind(this.redis)
      const name = propertyName(node.left.property, node.left.computed);
      const wrapped = name === undefined ? undefined : promisifiedMethod(context, node.right, node.left.object);
      if (name === undefined || !wrapped || !('member' in wrapped)) return undefined;
      const holder = unwrap(node.left.object);
      const rootsInThis = context.sourceCode.getText(holder).startsWith('this');
      add(name, { holder: { text: context.sourceCode.getText(holder), ...(rootsInThis ? { cls: enclosingClass(node) } : {}) }, wrapped });
    }
    return undefined;
  });
}

/**
 * The client method an expression promisifies: `promisify(m).bind(r)`, `promisify(m.bind(r))`,
 * `promisify(m, r)`, `promisify(m, { context: r })`, `pify(m.bind(r))`; `promisify(m)` unbound only
 * where it is assigned to a member of `m`'s receiver (`client.ttlAsync = promisify(client.ttl)`,
 * `holder`); `pify(client)`, the whole client.
 */
function promisifiedMethod(context: AnyContext, input: TSESTree.Node, holder?: TSESTree.Node): Binding['wrapped'] | undefined {
  let node = unwrap(input);
  let boundTo: TSESTree.Node | undefined;
  // promisify(m).bind(r)
  if (node.type === AST_NODE_TYPES.CallExpression && isBindCall(node) && unwrap((node.callee as TSESTree.MemberExpression).object).type === AST_NODE_TYPES.CallExpression) {
    boundTo = node.arguments[0];
    node = unwrap((node.callee as TSESTree.MemberExpression).object);
  }
  if (node.type !== AST_NODE_TYPES.CallExpression || !isPromisifyCallee(node.callee) || node.arguments.length === 0) return undefined;
  let fn = unwrap(node.arguments[0]!);
  const second = node.arguments[1] ? unwrap(node.arguments[1]) : undefined;
  if (second?.type === AST_NODE_TYPES.ObjectExpression) {
    for (const property of second.properties) {
      if (property.type === AST_NODE_TYPES.Property && propertyName(property.key, property.computed) === 'context') boundTo ??= property.value;
    }
  } else if (second) {
    boundTo ??= second;
  }
  // promisify(m.bind(r))
  if (fn.type === AST_NODE_TYPES.CallExpression && isBindCall(fn)) {
    boundTo ??= fn.arguments[0];
    fn = unwrap((fn.callee as TSESTree.MemberExpression).object);
  }
  if (fn.type !== AST_NODE_TYPES.MemberExpression) {
    // pify(client): the whole client
    return boundTo === undefined && calleeName(node.callee) === 'pify' ? { client: fn } : undefined;
  }
  const method = propertyName(fn.property, fn.computed);
  if (method === undefined || commandOfMethod(method) === undefined) return undefined;
  const receiver = boundTo ?? holder;
  if (!receiver || context.sourceCode.getText(unwrap(receiver)) !== context.sourceCode.getText(unwrap(fn.object))) return undefined;
  return { member: fn };
}

function isBindCall(node: TSESTree.CallExpression): boolean {
  const callee = unwrap(node.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && propertyName(callee.property, callee.computed) === 'bind' && node.arguments.length >= 1;
}

function calleeName(callee: TSESTree.Node): string | undefined {
  const bare = unwrap(callee);
  if (bare.type === AST_NODE_TYPES.Identifier) return bare.name;
  return bare.type === AST_NODE_TYPES.MemberExpression ? propertyName(bare.property, bare.computed) : undefined;
}

/** `promisify` (util, es6-promisify, bluebird's `Promise.promisify`, `util_1.promisify`) or `pify`. */
function isPromisifyCallee(callee: TSESTree.Node): boolean {
  const name = calleeName(callee);
  return name === 'promisify' || name === 'pify';
}
