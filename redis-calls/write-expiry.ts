/**
 * Which expiry a fix of a SET-family write without TTL adds, when the code itself says it:
 *
 * - **the write's own later expiry**: `await redis.set(k, token); await redis.expire(k, 900);` is
 *   one TTL policy sent as two round trips. The fix moves that expiry into the write (`SET k token
 *   EX 900`, in the EXPIRE's unit: EX for EXPIRE, PX for PEXPIRE, EXAT / PXAT for EXPIREAT /
 *   PEXPIREAT, as `semantics/commands.ts` gives the command's TTL unit) and removes the separate
 *   statement, which would otherwise run a second time for nothing; never a TTL constant found
 *   elsewhere in the file (a 7-day feed TTL has nothing to do with a 15-minute token);
 * - **a lock** (SET ... NX / SETNX whose key or value says lock, owner, token, ...): never the
 *   cache default `defaultTtlSeconds`; a lock-sized constant of the file, or a placeholder to declare.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { RedisCall } from './normalize.js';
import { expiryLiteral } from '../semantics/command-spec.js';
import type { CommandArg, TtlUnit } from '../semantics/commands.js';
import { hasCallback, standaloneStatementOf, ttlConstantOf, type TtlConstant } from './fixes.js';
import { enclosingFunction, findVariable, walk, type AnyContext } from './static.js';

/** The expiry of a later round trip, as a fix of the write can use it. */
export interface LaterExpiryTtl {
  /** The TTL as text the write can carry (the expiry's own argument), with its unit. */
  ttl: TtlConstant;
  /**
   * The expiry's statement, when the fix may remove it: a statement of its own (its reply unused)
   * in the block that holds the write's own statement, of the write's same key, a plain
   * (non-facade) call with no callback, whose TTL is a known value above 0, and the write is no create-if-missing (a SET NX whose EXPIRE also runs when
   * the key existed: removing it would change what happens to someone else's key).
   */
  removable?: TSESTree.ExpressionStatement;
}

/**
 * The TTL the write `call` (its key at argument `arg`) gets from `later`, the expiry that follows it
 * as a round trip of its own (`expiryInLaterRoundTrip` of `file-index.ts`), as text a fix can add
 * to the write: the expiry's TTL argument as written, when it means the same at the write (in the
 * same function; every name it reads declared before the write, or outside the function, and not
 * assigned between the two; no `await`, assignment or function in it), when its key argument reads
 * the same names as well. `undefined` when the expiry has no TTL argument of its own (GETEX's
 * option, a facade's) or its text or key cannot move. Not removable when a statement between the
 * two sends a command through the write's client ({@link sentBetween}).
 */
export function laterExpiryTtl(context: AnyContext, call: RedisCall, arg: number, later: RedisCall): LaterExpiryTtl | undefined {
  const spec = later.description.ttl;
  if (!spec || later.description.ttlOption || later.form === 'facade') return undefined;
  const node = later.argNodes[spec.arg];
  if (!node || node.type === AST_NODE_TYPES.SpreadElement) return undefined;
  if (node.range[0] < later.node.range[0] || node.range[1] > later.node.range[1]) return undefined;
  const fn = enclosingFunction(call.node);
  if (enclosingFunction(later.node) !== fn) return undefined;
  // the expiry's key must name the write's key when it runs (let key = a; set(key); key = b; expire(key))
  const keyNode = later.argNodes[later.description.keys[0]?.arg ?? -1];
  if (!keyNode || !movableText(context, keyNode, call, later, fn)) return undefined;
  const text = movableText(context, node, call, later, fn);
  if (text === undefined) return undefined;
  const ttl: TtlConstant = {
    name: text,
    milliseconds: spec.unit === 'milliseconds' || spec.unit === 'unix-milliseconds',
    placeholder: false,
    ...(spec.unit === 'unix-seconds' || spec.unit === 'unix-milliseconds' ? { absolute: true } : {}),
  };
  const creates = call.description.keys.find((k) => k.arg === arg)?.effect === 'create-if-missing';
  const statement = standaloneStatementOf(later.node);
  const own = standaloneStatementOf(call.node);
  // an EXPIRE that hands its reply to a callback: removing it would call the callback once less;
  // a TTL SET is not known to take: EXPIRE 0 deletes the key where SET ... EX 0 is refused
  // (semantics/command-spec.ts expiryLiteral), so the EXPIRE stays and no fix moves it
  const removable =
    !creates && settable(later.args[spec.arg], spec.unit) && !hasCallback(context, later) && statement && own && statement.parent === own.parent && !sentBetween(context, call, own, statement)
      ? statement
      : undefined;
  return removable ? { ttl, removable } : { ttl };
}

/** Whether SET takes the TTL value `value` (in `unit`) as its expiry: known, and not refused by Redis. */
function settable(value: CommandArg, unit: TtlUnit): boolean {
  const literal = expiryLiteral(value, unit, 'set');
  return literal !== undefined && !literal.rejected;
}

/**
 * Whether a statement between the write's `own` statement and the expiry's `statement` (of one
 * block) sends a command through the write's receiver (`redis.set(k, b)`, `redis.getset(k, x)`):
 * such a write clears the TTL the moved expiry gave, which the removed EXPIRE set again after it.
 * The TTL still moves; the EXPIRE stays. A write whose receiver is no member's object: any call.
 */
function sentBetween(context: AnyContext, call: RedisCall, own: TSESTree.Node, statement: TSESTree.Node): boolean {
  const callee = call.node.type === AST_NODE_TYPES.CallExpression ? call.node.callee : undefined;
  const receiver = callee?.type === AST_NODE_TYPES.MemberExpression ? context.sourceCode.getText(callee.object) : undefined;
  let sent = false;
  walk(
    context,
    own.parent!,
    (child) => {
      if (child.type !== AST_NODE_TYPES.CallExpression || child.range[0] < own.range[1]) return undefined;
      const object = child.callee.type === AST_NODE_TYPES.MemberExpression ? context.sourceCode.getText(child.callee.object) : undefined;
      if (receiver !== undefined && object !== receiver) return undefined;
      sent = true;
      return 'stop';
    },
    { range: [own.range[1], statement.range[0]] },
  );
  return sent;
}

/** Nodes a TTL expression moved earlier must not hold: they run code or bind names of their own. */
const NOT_MOVABLE: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.AwaitExpression,
  AST_NODE_TYPES.YieldExpression,
  AST_NODE_TYPES.AssignmentExpression,
  AST_NODE_TYPES.UpdateExpression,
  AST_NODE_TYPES.ArrowFunctionExpression,
  AST_NODE_TYPES.FunctionExpression,
  AST_NODE_TYPES.ClassExpression,
]);

/** The text of the TTL expression `node` when it reads the same values at the write (see {@link laterExpiryTtl}). */
function movableText(context: AnyContext, node: TSESTree.Node, call: RedisCall, later: RedisCall, fn: TSESTree.Node | undefined): string | undefined {
  // a string of digits sent as the TTL ('900'): the number, which every client's option takes
  if (node.type === AST_NODE_TYPES.Literal) {
    if (typeof node.value === 'number' && Number.isInteger(node.value) && node.value > 0) return node.raw;
    if (typeof node.value === 'string' && /^[1-9]\d*$/.test(node.value)) return node.value;
    return undefined;
  }
  const writeAt = call.node.range[0];
  let movable = true;
  walk(context, node, (child) => {
    if (NOT_MOVABLE.has(child.type)) return fail();
    if (child.type !== AST_NODE_TYPES.Identifier || !isReference(child)) return undefined;
    const variable = findVariable(context, child);
    if (!variable) return undefined; // a global: Math, Number
    const declaredBefore = variable.defs.every((def) => def.name.range[1] <= writeAt || (fn !== undefined && !encloses(fn, def.name)));
    const assignedBetween = variable.references.some((ref) => ref.isWrite() && ref.identifier.range[0] > writeAt && ref.identifier.range[0] < later.node.range[0]);
    return declaredBefore && !assignedBetween ? undefined : fail();
  });
  return movable ? context.sourceCode.getText(node) : undefined;

  function fail(): 'stop' {
    movable = false;
    return 'stop';
  }
}

function encloses(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** Whether an identifier reads a binding (not a property name: `a.ttl`, `{ ttl: 1 }`). */
function isReference(id: TSESTree.Identifier): boolean {
  const parent = id.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === id && !parent.computed) return false;
  if (parent?.type === AST_NODE_TYPES.Property && parent.key === id && !parent.computed && !parent.shorthand) return false;
  return true;
}

/** Name of the constant a lock's suggestion refers to when the file has no lock TTL constant. */
export const LOCK_TTL_PLACEHOLDER = 'LOCK_TTL_SECONDS';

/**
 * The TTL a lock's suggestion names: a top-level TTL constant of the file whose name says lock
 * (`LOCK_TTL_MS`, `MUTEX_TIMEOUT`), else {@link LOCK_TTL_PLACEHOLDER} to declare; never the file's
 * other TTL constants (a cache's or a session's).
 */
export function lockTtlConstant(context: AnyContext): TtlConstant {
  const found = ttlConstantOf(context, 'lock');
  return found.placeholder ? { name: LOCK_TTL_PLACEHOLDER, milliseconds: false, placeholder: true } : found;
}
