/**
 * "A membership registry emptied member by member": a set, sorted set or hash whose members are
 * added when something joins (a connection, a user, a room) and removed, the same member, when it
 * leaves or when a reaper finds it stale. Redis deletes a collection with its last member
 * (`semantics/members.ts`), so the key lives only while it has live members: no TTL is wanted on
 * a registry that must outlive any one member. A member-adding write (SADD, ZADD, ZINCRBY, HSET,
 * HSETNX, HINCRBY: `addedMembers`) counts as one when
 *
 * - its key spells a family (a static part: `room:*:members`, not `*`) that the file never gives
 *   a TTL, and the write adds **one member** whose identity can be read: a literal, or a name (the
 *   last identifier or property of the expression: `options.connId` and `connId` are one member,
 *   `JSON.stringify(x)` is none);
 * - another named function of the file removes **that member from that key** (SREM for a set,
 *   ZREM for a sorted set, HDEL for a hash: `removedMembers`; the same key as `lifecycle.ts`
 *   sameKey reads it, and a member of the same identity);
 * - that removal is a **reaper's**: the member it removes is one it read from Redis (an element of
 *   a reply, `for (const id of await redis.zrangebyscore(...))`, or what a call makes of one): a
 *   removal of a member its owner passes in (`done(job) { zrem(k, job) }`) runs only if the owner
 *   ends well, and a crashed owner's member stays for good;
 * - and that removal can run apart from the writer's operation, with the rules of `lifecycle.ts`
 *   for a cleanup that may never run: the remover is not the writer's function (nor encloses it, nor
 *   is enclosed by it), does not share an operation with it (two closures of one handler), does not
 *   run the writer first (`finish() { join(); srem() }`: removed only on the success path of the
 *   operation that added), and the writer does not call it (a registry it trims itself).
 *
 * Not a registry (still judged): a member no removal names (a set only ever grown: followers,
 * seen ids), a reaper nothing starts (a function of the module's own or a private method that
 * nothing names: {@link neverNamed}), a member removed only from another key, a removal of the whole key (DEL: `lifecycle.ts`
 * deletedElsewhere's), a removal by position or score (SPOP, ZREMRANGEBYSCORE, ZPOPMIN: the
 * consumed queues of `lifecycle.ts`), a key the file gives a TTL, and a registry only another
 * module empties. `allowConsumedQueues` (on in `recommended`, off in `strict`) leaves such writes
 * unreported, as it does a queue its consumer pops.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { addedMembers, removedMembers, takesOff, type MemberCollection } from '../semantics/members.js';
import { fileIndexOf } from './file-index.js';
import { hasStaticPart, keyIdOf } from './key-id.js';
import { keyShapeOf, perBuildKey } from './key-shape.js';
import { namedFunctionOf } from './builder-lookup.js';
import { reaches, sameKey, sharedOperation } from './lifecycle.js';
import type { RedisCall } from './normalize.js';
import { redisCallsOf } from './index.js';
import { facadeCallsOf } from './facades.js';
import { encloses, findVariable, propertyName, unwrap, type AnyContext, type FunctionLike } from './static.js';

/** A removal of named members, by key shape. */
interface Removal {
  call: RedisCall;
  collection: MemberCollection;
  /** The identities of the members it removes ({@link memberIdentity}), with their nodes. */
  members: ReadonlyMap<string, TSESTree.Node>;
}

const removalsCache = new WeakMap<TSESTree.Program, ReadonlyMap<string, readonly Removal[]>>();

/**
 * The call of another function of the file that removes the member the write `call` adds to the
 * key at argument `arg`, when that key is a membership registry emptied member by member (see the
 * module comment); `undefined` otherwise.
 * @param context the rule context
 * @param call the member-adding write
 * @param arg the argv position of its key
 */
export function memberRemovedElsewhere(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  if (arg !== 0) return undefined;
  const added = addedMembers(call.command, call.args);
  if (!added || added.positions.length !== 1) return undefined;
  const keyNode = call.argNodes[0];
  const memberNode = call.argNodes[added.positions[0]!];
  if (!keyNode || keyNode.type === 'SpreadElement' || !memberNode || memberNode.type === 'SpreadElement') return undefined;
  const member = memberIdentity(call, added.positions[0]!);
  if (member === undefined) return undefined;
  const shape = keyShapeOf(context, keyNode).shape;
  if (!hasStaticPart(shape)) return undefined;
  // a key under a per-build prefix: the next deploy's code names its own build's keys only
  if (perBuildKey(context, keyNode)) return undefined;
  const index = fileIndexOf(context);
  if (index.expiredShapes.has(shape)) return undefined;
  const id = keyIdOf(context, call, 0);
  if (id !== undefined && index.expiredKeyIds.has(id)) return undefined;
  const writer = namedFunctionOf(call.node);
  if (!writer) return undefined;
  for (const removal of removalsByShape(context).get(shape) ?? []) {
    if (!takesOff(added.collection, member, { collection: removal.collection, named: (m) => removal.members.has(m) })) continue;
    const removedNode = removal.members.get(member)!;
    if (!sameKey(context, shape, call, 0, removal.call, 0)) continue;
    const remover = namedFunctionOf(removal.call.node);
    if (!remover || remover === writer || encloses(remover, writer) || encloses(writer, remover)) continue;
    if (sharedOperation(call.node, removal.call.node)) continue;
    // removed only on the success path of the operation that added it, or by the writer itself
    if (reaches(context, remover, writer) || reaches(context, writer, remover)) continue;
    // a reaper: the member removed is one the remover read from Redis (`for (const id of await
    // redis.zrangebyscore(...)) srem(k, id)`); a removal of a member its owner passes in runs only
    // if that owner ends well (a crashed job never removes itself)
    if (!readFromRedis(context, removedNode, 0)) continue;
    // a reaper that never runs: a function of the module's own that nothing names (never started)
    if (neverNamed(context, remover)) continue;
    return removal.call;
  }
  return undefined;
}

/**
 * Whether `fn` is a function of the module's own (a declaration or a `const`, not exported; a
 * `private` or `#` method) whose name nothing outside its body refers to: a reaper nobody starts.
 * An exported function or a public method may be started from another module: kept.
 */
function neverNamed(context: AnyContext, fn: FunctionLike): boolean {
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.PropertyDefinition) {
    const key = parent.key;
    const own = key.type === AST_NODE_TYPES.PrivateIdentifier || parent.accessibility === 'private';
    if (!own || parent.computed || (key.type !== AST_NODE_TYPES.Identifier && key.type !== AST_NODE_TYPES.PrivateIdentifier)) return false;
    const text = context.sourceCode.text;
    const outside = text.slice(0, parent.range[0]) + '\n' + text.slice(parent.range[1]);
    return !new RegExp(`(?<![\\w$])${key.name.replace(/\$/g, '\\$')}(?![\\w$])`).test(outside);
  }
  const declaration = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn : parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === fn ? parent : undefined;
  if (!declaration || declaration.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration || declaration.parent?.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration) return false;
  const variable = context.sourceCode.getDeclaredVariables(declaration).find((v) => v.defs.some((d) => d.node === declaration && d.type !== 'Parameter'));
  if (!variable) return false;
  return !variable.references.some((ref) => !encloses(fn, ref.identifier) && ref.identifier !== (declaration.type === AST_NODE_TYPES.VariableDeclarator ? declaration.id : undefined));
}

/** The file's removals of named members (SREM, ZREM, HDEL, a facade's too), by key shape; built once per file. */
function removalsByShape(context: AnyContext): ReadonlyMap<string, readonly Removal[]> {
  const program = context.sourceCode.ast;
  let byShape = removalsCache.get(program);
  if (byShape) return byShape;
  const map = new Map<string, Removal[]>();
  // a client's removal, or a facade's (`kv().zrem(key, id)`: `facades.ts`)
  const { calls, facadeCalls } = fileIndexOf(context);
  for (const call of [...calls, ...facadeCalls]) {
    const removed = removedMembers(call.command, call.args);
    const keyNode = call.argNodes[0];
    if (!removed || !keyNode || keyNode.type === 'SpreadElement') continue;
    const members = new Map<string, TSESTree.Node>();
    for (const position of removed.positions) {
      const identity = memberIdentity(call, position);
      if (identity !== undefined) members.set(identity, call.argNodes[position]!);
    }
    if (members.size === 0) continue;
    const shape = keyShapeOf(context, keyNode).shape;
    const list = map.get(shape) ?? [];
    list.push({ call, collection: removed.collection, members });
    map.set(shape, list);
  }
  byShape = map;
  removalsCache.set(program, byShape);
  return byShape;
}

/** How many steps {@link readFromRedis} follows (bindings, calls, members). */
const MAX_READ_DEPTH = 6;

/**
 * Whether a value comes from a Redis read of the function it is in: a reply (`await
 * redis.zrangebyscore(...)`), an element of one (a `for ... of` variable, a `.forEach` / `.map`
 * callback's parameter), a member of one, or what a call makes of one (`parseMetadata(value)`),
 * through `const` bindings, a few steps deep.
 */
function readFromRedis(context: AnyContext, node: TSESTree.Node, depth: number): boolean {
  if (depth > MAX_READ_DEPTH) return false;
  const bare = unwrap(node);
  switch (bare.type) {
    case AST_NODE_TYPES.AwaitExpression:
      return readFromRedis(context, bare.argument, depth + 1);
    case AST_NODE_TYPES.MemberExpression:
      return readFromRedis(context, bare.object, depth + 1);
    case AST_NODE_TYPES.LogicalExpression:
      return readFromRedis(context, bare.left, depth + 1) || readFromRedis(context, bare.right, depth + 1);
    case AST_NODE_TYPES.CallExpression:
      // a client's read, or a facade's (`kv().zrangebyscore(...)`: `facades.ts`)
      if (redisCallsOf(context, bare).length > 0 || facadeCallsOf(context, bare).length > 0) return true;
      return bare.arguments.some((argument) => argument.type !== AST_NODE_TYPES.SpreadElement && readFromRedis(context, argument, depth + 1));
    case AST_NODE_TYPES.Identifier: {
      const def = findVariable(context, bare)?.defs[0];
      if (!def) return false;
      const declarator = def.node as TSESTree.Node;
      if (def.type === 'Variable' && declarator.type === AST_NODE_TYPES.VariableDeclarator) {
        // for (const id of replies) / const id = await redis.hget(...)
        const loop = declarator.parent?.parent;
        if (loop?.type === AST_NODE_TYPES.ForOfStatement && loop.left === declarator.parent) return readFromRedis(context, loop.right, depth + 1);
        return declarator.init ? readFromRedis(context, declarator.init, depth + 1) : false;
      }
      if (def.type === 'Parameter') {
        // replies.forEach((id) => ...): the element of what the iteration method is called on
        const fn = declarator as TSESTree.Node;
        const call = fn.parent;
        if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== fn || call.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
        return ITERATION_METHODS.has(propertyName(call.callee.property, call.callee.computed) ?? '') && readFromRedis(context, call.callee.object, depth + 1);
      }
      return false;
    }
    default:
      return false;
  }
}

const ITERATION_METHODS = new Set(['forEach', 'map', 'filter', 'flatMap']);

/**
 * The identity of the member at argv position `position` of `call`: its literal value, or the
 * name it is read by (the last identifier or property name: `options.connId` is `connId`);
 * `undefined` for anything else (a call, a template, a spread).
 */
function memberIdentity(call: RedisCall, position: number): string | undefined {
  const value = call.args[position];
  if (value !== undefined) return `value:${String(value)}`;
  const node = call.argNodes[position];
  if (!node || node.type === 'SpreadElement') return undefined;
  const bare = unwrap(node);
  if (bare.type === 'Identifier') return `name:${bare.name}`;
  if (bare.type === 'MemberExpression') {
    const name = propertyName(bare.property, bare.computed);
    return name !== undefined ? `name:${name}` : undefined;
  }
  return undefined;
}
