/**
 * Thin wrapper methods of a store's API over the caller's key, whatever their names: a library's
 * cache service that re-exposes Redis commands under its own vocabulary,
 *
 * ```js
 * class CacheService {
 *   hashIncrementRemote(hash, field, increment) { return this.redisCacheService.hincrby(hash, field, increment); }
 *   setAddRemote(key, ...values) { return this.redisCacheService.sadd(key, ...values); }
 *   setTtlRemote(key, ttl) { return this.redisCacheService.expire(key, ttl); }
 * }
 * ```
 *
 * is part of a facade, as a pass-through wrapper named after its command is
 * (`redis-calls/pass-through.ts`): the key is its caller's, and so is the key's lifetime, which
 * the same API lets the caller set. Such a wrapper is left alone when
 *
 * - it has a pass-through wrapper's shape: short, the key one of its parameters (as it is, given to
 *   a key builder of the code, or with configuration around it; a family it spells itself, such as
 *   `` `hits:${key}` ``, chooses which keys exist and stays reported), and the call its only Redis
 *   command;
 * - a method beside it (the same class, or the same object literal) is an expiry method: the one
 *   command it sends is EXPIRE / PEXPIRE / EXPIREAT / PEXPIREAT (`set-ttl`, `semantics/commands.ts`)
 *   of its own key parameter, directly or through a pass-through facade (`setTtlRemote(key, ttl)`,
 *   `expire(key, ttl)`), so the API gives its callers the way to bound any key they name; an
 *   expiry of a key the method chooses itself, or one sent after its own write (`save(id, meta,
 *   s)`: HSET then EXPIRE, a record created with a TTL), does not count;
 * - its callers are outside the code: the file belongs to a library (`redis-calls/project.ts`),
 *   or nothing can be told. In an application the wrapper is judged where it is unless one of
 *   its callers is read as the command (`redis-calls/facades.ts` forwardingCallersRead, which
 *   the key policy asks first), or the leak would be reported nowhere.
 *
 * A wrapper that stores data of its own naming (`saveSummary(text, summary)` beside no expiry
 * method), one in a class without an expiry method, one that sends a second command, and one that
 * calls a method beside it sending a command (`kSet(table, k, v)` HSETs the table and calls
 * `exTable(...)`: it chooses the key's expiry itself, here wrongly) stay reported.
 */
import { isAbsolute } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { KeyEffect } from '../semantics/commands.js';
import { facadeCallsOf } from './facades.js';
import { forEachCallIn, redisCallsOf } from './index.js';
import type { RedisCall } from './normalize.js';
import { forwardingFunction, forwardingWrapper } from './pass-through.js';
import { packageOf } from './project.js';
import { propertyName, unwrap, type AnyContext, type FunctionLike } from './static.js';

/** The effect an expiry of an existing key has, whatever its type (EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT). */
const EXPIRES_EXISTING_KEY: KeyEffect = 'set-ttl';

/**
 * The wrapper method of a store's API whose parameter the key at `keyNode` of `call` is, when it
 * is left alone as the module comment says; else `undefined`.
 * @param context the rule context of the linted file
 * @param call the write
 * @param keyNode the key argument as written at the call
 */
export function apiWrapperOfCallersKey(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): FunctionLike | undefined {
  const fn = forwardingWrapper(context, call, keyNode);
  if (!fn || !callersOutsideCode(context)) return undefined;
  const siblings = siblingFunctions(fn);
  // a wrapper that calls a method beside it sending a command (its own expiry: `kSet` calling
  // `exTable`) does more than forward: it decides about the key itself
  if (callsSenderBeside(context, fn, siblings)) return undefined;
  return siblings.some((other) => forwardsExpiry(context, other.fn)) ? fn : undefined;
}

/**
 * Whether `fn` calls a method of its own class or object (`this.exTable(...)`, `Cls.m(...)`)
 * that sends a Redis command, directly or through a facade.
 */
function callsSenderBeside(context: AnyContext, fn: FunctionLike, siblings: readonly Sibling[]): boolean {
  // `this.m(...)`, or `Cls.m(...)` of a static method (not `hashMap.set(...)` of a local Map)
  const owner = fn.parent?.parent?.parent;
  const className = (owner?.type === AST_NODE_TYPES.ClassDeclaration || owner?.type === AST_NODE_TYPES.ClassExpression) && owner.id ? owner.id.name : undefined;
  let found = false;
  forEachCallIn(context, fn.body, (node) => {
    const callee = unwrap(node.callee);
    if (found || callee.type !== AST_NODE_TYPES.MemberExpression) return;
    const object = unwrap(callee.object);
    if (object.type !== AST_NODE_TYPES.ThisExpression && !(object.type === AST_NODE_TYPES.Identifier && object.name === className)) return;
    const name = propertyName(callee.property, callee.computed);
    found = siblings.some((other) => other.name === name && sendsCommand(context, other.fn));
  });
  return found;
}

/** Whether `fn` sends a Redis command, directly or through a facade. */
function sendsCommand(context: AnyContext, fn: FunctionLike): boolean {
  let found = false;
  forEachCallIn(context, fn.body, (node) => {
    found ||= redisCallsOf(context, node).length > 0 || facadeCallsOf(context, node).length > 0;
  });
  return found;
}

/** Whether the linted file belongs to a library (or to no package that can be read). */
function callersOutsideCode(context: AnyContext): boolean {
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return true;
  const info = packageOf(file);
  return !info || !info.application;
}

/** A method beside a wrapper, with its name (`undefined` when computed). */
interface Sibling {
  name: string | undefined;
  fn: FunctionLike;
}

/** The other methods of the class or object literal `fn` is a method of (none for a plain function). */
function siblingFunctions(fn: FunctionLike): Sibling[] {
  const member = fn.parent;
  const owner = member?.parent;
  let members: readonly TSESTree.Node[] = [];
  if (member?.type === AST_NODE_TYPES.MethodDefinition || member?.type === AST_NODE_TYPES.PropertyDefinition) {
    if (owner?.type === AST_NODE_TYPES.ClassBody) members = owner.body;
  } else if (member?.type === AST_NODE_TYPES.Property && owner?.type === AST_NODE_TYPES.ObjectExpression) {
    members = owner.properties;
  }
  const out: Sibling[] = [];
  for (const other of members) {
    if (other === member) continue;
    if (other.type !== AST_NODE_TYPES.MethodDefinition && other.type !== AST_NODE_TYPES.PropertyDefinition && other.type !== AST_NODE_TYPES.Property) continue;
    const value = other.value;
    if (value && (value.type === AST_NODE_TYPES.FunctionExpression || value.type === AST_NODE_TYPES.ArrowFunctionExpression) && value.body) {
      out.push({ name: propertyName(other.key, other.computed), fn: value });
    }
  }
  return out;
}

const expiring = new WeakMap<TSESTree.Node, boolean>();

/**
 * Whether `fn` is an expiry method: the one command it sends (directly or through a pass-through
 * facade) is an expiry (EXPIRE family) of a key that is its own parameter. Cached per function; a
 * function met again while it is judged (facades reading each other) is not one.
 */
function forwardsExpiry(context: AnyContext, fn: FunctionLike): boolean {
  const known = expiring.get(fn);
  if (known !== undefined) return known;
  expiring.set(fn, false);
  const calls: RedisCall[] = [];
  forEachCallIn(context, fn.body, (node) => {
    const direct = redisCallsOf(context, node);
    calls.push(...(direct.length > 0 ? direct : facadeCallsOf(context, node)));
  });
  // the expiry is all it sends: a method that also writes (`save(id, meta, s)`: HSET then
  // EXPIRE) creates its own records, it offers callers no way to bound theirs
  const found =
    calls.length === 1 &&
    calls[0]!.description.keys.some((action) => {
      const keyNode = calls[0]!.argNodes[action.arg];
      return action.effect === EXPIRES_EXISTING_KEY && keyNode !== undefined && forwardingFunction(context, keyNode) === fn;
    });
  expiring.set(fn, found);
  return found;
}
