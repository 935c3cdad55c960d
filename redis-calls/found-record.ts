/**
 * A record the flow has read and found: the write that follows updates it, and cannot create it.
 *
 * "Exists" here means: an earlier read of the record, in the write's function, whose reply the code
 * goes on to use in a way that throws when the record is missing, unconditionally, before the
 * write. HGETALL replies `{}` for a missing hash (`null` with @upstash/redis), GET / HGET `null`
 * (semantics/missing-key-replies.ts); a field of either is `undefined` or a TypeError, and
 *
 * ```js
 * const room = await redis.hgetall(`room:${id}`);    // the read
 * room.users = JSON.parse(room.users);               // throws on {} (JSON.parse(undefined)) and on null
 * room.users.push(me);                               //   (room.users.push: `undefined.push`, also throws)
 * await redis.hset(`room:${room.id}`, { ...room, users: JSON.stringify(room.users) });
 * ```
 *
 * never reaches the HSET when the hash is missing: the throw leaves the function (or its `try`,
 * whose `catch` then runs instead of the write). The HSET keeps the hash's TTL, or its lack of
 * one; the record's lifetime is decided where it is created, and judged there.
 *
 * What counts, all of it:
 * - the read: a command of the write's function (a client call, or a pass-through facade's,
 *   `redis-calls/facades.ts`, read at the caller) reading one key, in another unit, before the
 *   write, whose every missing reply is `null` or an empty object, its reply awaited and held by a
 *   variable declared with it (`const room = await ...`) and never assigned again;
 * - the key: the write's key is the read's (`keyIdOf`: same shape, same pieces), or the read's
 *   shape, with one run-time piece, rebuilt from a field of the record it read (`room:${room.id}`
 *   after reading `room:${user.joinRoom}`): a record of that shape names itself by that field,
 *   which the function does not write through the record's variable before the write (a
 *   function the record is handed to is not read);
 * - the use that throws: `JSON.parse(record.field)`, or a member of a field
 *   (`record.field.length`, `record.field.find(...)`, never through `?.`), of a field no object
 *   has by itself (not `toString`, `constructor`, ...), evaluated whenever its statement runs, and
 *   that statement runs before the write on every path (`reserved-counter.ts` runsBefore: under
 *   no branch, loop, `try` or callback of its own), after the read's reply;
 * - between the read and that use, the record's variable is only read through its members or
 *   spread (`{ ...record }`): handed to a function, assigned to another variable, or its `field`
 *   assigned or deleted, it could hold something else by then.
 *
 * Whether the record is still there at the write (no DEL in between, other work awaited, a TTL
 * that may run out) is created-before.ts's `seenJustBefore`, as for a read whose reply a test
 * checks.
 *
 * A record handed in ({@link foundByEveryCaller}): the write's key is a field of a parameter
 * (`` `room:${room.id}` ``) and every caller of the function passes a record it has read and found
 * as above, with the call in place of the write. Near misses stay reported: a reply never used (`const r = await redis.hgetall(k);
 * await redis.hset(k, { ...r, n: 1 })`), a use under a branch or with `?.`, `JSON.parse(r.f)`
 * after `r.f = '[]'`, a key of another shape, a write on the branch where the read found nothing.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { missingKeyReplies } from '../semantics/missing-key-replies.js';
import { EFFECTS_THAT_LEAVE_THE_KEY, MAY_DELETE_UNNAMED_KEYS, TTL_ONLY_EFFECTS } from '../semantics/counter-corrections.js';
import { callSitesOf, handedOnAsValue } from './facades.js';
import { callsInFunction, fileIndexOf } from './file-index.js';
import { keyParameter } from './helper-keys.js';
import { awaitsOnlyRedis } from './redis-waits.js';
import { keyIdOf } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import { awaitsNoWork, runsBefore } from './reserved-counter.js';
import type { SeenRead } from './stale-read.js';
import { awaitedReplyVariable, constInitializer, enclosingFunction, findVariable, propertyName, unwrap, walk, type AnyContext } from './static.js';

/** A record found before the write: the read, and the key it read (`keyIdOf`), which may differ from the write's when rebuilt from a field. */
export interface FoundRecord extends SeenRead {
  readKey: string;
}

/**
 * The read of the record `write` updates, when the code has used its reply in a way that throws
 * on a missing record before the write (see the module comment); `undefined` otherwise.
 * @param context the rule context of the write's module
 * @param write the write that would create the key at argument `keyArg` without TTL
 * @param keyArg the index of the key argument in `write.argNodes`
 * @returns the read and `readKey`, the read key's identity (`keyIdOf`: `text:<expression>`), or
 *   `undefined`; never throws
 */
export function foundRecord(context: AnyContext, write: RedisCall, keyArg: number): FoundRecord | undefined {
  const key = keyIdOf(context, write, keyArg);
  const keyNode = write.argNodes[keyArg];
  if (!key || !keyNode) return undefined;
  const reads = callsInFunction(context, enclosingFunction(write.node), true).filter(
    (c) => c.unit.key !== write.unit.key && c.node.range[1] <= write.node.range[0] && c.description.keys.length === 1 && c.description.keys[0]!.effect === 'read',
  );
  for (let i = reads.length - 1; i >= 0; i--) {
    const read = reads[i]!;
    const readKey = keyIdOf(context, read, read.description.keys[0]!.arg);
    const readKeyNode = read.argNodes[read.description.keys[0]!.arg];
    if (!readKey || !readKeyNode || !missingFails(read.command)) continue;
    const record = awaitedReplyVariable(context, read.node);
    if (!record) continue;
    if (readKey !== key && !rebuiltFromField(context, keyNode, readKeyNode, record, write)) continue;
    if (throwingUse(context, record, read, write.node)) return { read, node: read.node, readKey };
  }
  return undefined;
}

/**
 * Whether the record `write` updates is handed in by every caller, found (see the module comment,
 * "A record handed in"): the write's key is a shape with one run-time piece, a field of a
 * parameter of the write's function (`` `room:${roomData.id}` ``), and every call of that function
 * (facades.ts callSitesOf: in its module and the modules importing it; none unknown) passes in
 * that parameter's place a variable its caller declared with the awaited read of a key of that
 * shape and has used in a way that throws on a missing record before the call, on every path.
 * Between that read and the call, and between the function's start and the write, only Redis
 * commands (and `JSON.parse`) are awaited and no command of the caller's function or of the
 * write's deletes or empties a key of that shape; the function does not write the field through
 * its parameter before the write.
 * @param context the rule context of the write's module
 * @param write the write that would create the key at argument `keyArg` without TTL
 * @param keyArg the index of the key argument in `write.argNodes`
 * @param keyExpiredInFile whether the file gives the key's shape a TTL: then the key can run out
 *   in between, and today's reading of the write decides (the finding stays)
 * @returns `false` whenever a caller cannot be listed or read; never throws
 */
export function foundByEveryCaller(context: AnyContext, write: RedisCall, keyArg: number, keyExpiredInFile: () => boolean): boolean {
  const keyNode = write.argNodes[keyArg];
  if (!keyNode) return false;
  const node = unwrap(keyNode);
  if (node.type !== AST_NODE_TYPES.TemplateLiteral || node.expressions.length !== 1) return false;
  const piece = unwrap(node.expressions[0]!);
  if (piece.type !== AST_NODE_TYPES.MemberExpression || piece.computed || piece.optional) return false;
  const param = keyParameter(context, piece.object);
  const fn = enclosingFunction(write.node);
  if (!param || param.fn !== fn || unwrap(param.fn.params[param.index]!).type !== AST_NODE_TYPES.Identifier) return false;
  const shape = keyShapeOf(context, node).shape;
  const field = propertyName(piece.property);
  if (shape.split('*').length !== 2 || !namesItself(field, shape) || keyExpiredInFile()) return false;
  const record = unwrap(param.fn.params[param.index]!) as TSESTree.Identifier;
  if (fieldWrittenBefore(context, record, field, write.node)) return false;
  if (!quietBetween(context, fn, param.fn.body.range[0], write.node, shape)) return false;
  if (handedOnAsValue(context, param.fn)) return false;
  const sites = callSitesOf(context, param.fn);
  if (!sites || sites.sites.length === 0) return false;
  return sites.sites.every((site) => foundAtCall(site.context, site.call, param.index, shape, field));
}

/**
 * Whether the variable `call` passes at `index` holds a record of `shape` its function has read and
 * found before the call (see {@link foundByEveryCaller}), its `field` (the callee's key) not written
 * before the call: `room.id = randomUUID(); await save(room)` hands in a record of another key.
 */
function foundAtCall(context: AnyContext, call: TSESTree.CallExpression, index: number, shape: string, field: string | undefined): boolean {
  const arg = call.arguments[index];
  const id = arg && unwrap(arg);
  if (id?.type !== AST_NODE_TYPES.Identifier) return false;
  const declared = findVariable(context, id)?.defs[0]?.name;
  if (declared?.type !== AST_NODE_TYPES.Identifier) return false;
  const fn = enclosingFunction(call);
  const read = callsInFunction(context, fn, true).find((c) => c.node.range[1] <= call.range[0] && awaitedReplyVariable(context, c.node) === declared);
  if (!read || read.description.keys.length !== 1 || read.description.keys[0]!.effect !== 'read' || !missingFails(read.command)) return false;
  const readKeyNode = read.argNodes[read.description.keys[0]!.arg];
  if (!readKeyNode || keyShapeOf(context, readKeyNode).shape !== shape || fieldWrittenBefore(context, declared, field, call)) return false;
  return throwingUse(context, declared, read, call) && quietBetween(context, fn, read.node.range[1], call, shape);
}

/**
 * Whether, in `fn` between the offset `from` and `target`, only Redis commands (or a value that is
 * no promise, reserved-counter.ts awaitsNoWork) are awaited and no command deletes, empties or
 * scripts a key of `shape`.
 */
function quietBetween(context: AnyContext, fn: TSESTree.Node | undefined, from: number, target: TSESTree.Node, shape: string): boolean {
  const calls = callsInFunction(context, fn, true);
  const between = calls.filter((c) => c.node.range[0] >= from && c.node.range[1] <= target.range[0] && c.node !== target);
  for (const other of between) {
    if (MAY_DELETE_UNNAMED_KEYS.has(other.command)) return false;
    for (const a of other.description.keys) {
      if (a.effect === 'read' || (EFFECTS_THAT_LEAVE_THE_KEY.has(a.effect) && !a.mayDelete)) continue;
      const keyNode = other.argNodes[a.arg];
      if (!keyNode || keyShapeOf(context, keyNode).shape === shape || TTL_ONLY_EFFECTS.has(a.effect)) return false;
    }
  }
  const redis = new Set<TSESTree.Node>(calls.map((c) => c.node));
  return !walk(
    context,
    fn ?? context.sourceCode.ast,
    (node) => {
      if ((node.type === AST_NODE_TYPES.ForOfStatement && node.await) || node.type === AST_NODE_TYPES.YieldExpression) return 'stop';
      // the `await` of the target itself (`await play(room)`) waits after it
      if (node.type !== AST_NODE_TYPES.AwaitExpression || (node.range[0] <= target.range[0] && target.range[1] <= node.range[1])) return undefined;
      return awaitsNoWork(context, node.argument) || awaitsOnlyRedis(context, node.argument, redis, fileIndexOf(context).calls) ? undefined : 'stop';
    },
    { range: [from, target.range[0]], skipFunctions: true },
  );
}

/** Whether every reply of `command` for a missing key is `null` / `undefined` or an empty plain object (a field of it is `undefined`). */
function missingFails(command: string): boolean {
  const replies = missingKeyReplies(command);
  return (
    replies !== undefined &&
    replies.every((r) => r === null || r === undefined || (typeof r === 'object' && !Array.isArray(r) && Object.keys(r).length === 0))
  );
}

/** Whether `keyNode` is the read's key shape with its one run-time piece a field of the record (`room:${room.id}`). */
function rebuiltFromField(context: AnyContext, keyNode: TSESTree.Node, readKeyNode: TSESTree.Node, record: TSESTree.Identifier, write: RedisCall): boolean {
  let node = unwrap(keyNode);
  if (node.type === AST_NODE_TYPES.Identifier) node = (constInitializer(context, node) && unwrap(constInitializer(context, node)!)) ?? node;
  if (node.type !== AST_NODE_TYPES.TemplateLiteral || node.expressions.length !== 1) return false;
  const piece = unwrap(node.expressions[0]!);
  if (piece.type !== AST_NODE_TYPES.MemberExpression || piece.computed || piece.optional || !namesRecord(context, piece.object, record)) return false;
  const shape = keyShapeOf(context, node).shape;
  const field = propertyName(piece.property);
  if (shape !== keyShapeOf(context, readKeyNode).shape || shape.split('*').length !== 2 || !namesItself(field, shape)) return false;
  // the field keeps the value the record was read with: not written through the variable before the write
  return !fieldWrittenBefore(context, record, field, write.node);
}

/**
 * Whether `field` is a name a record of `shape` gives itself: `id`, `_id`, `uuid`, or the shape's
 * first segment and `Id` (`roomId`, `room_id` for `room:*`). Any other field names another record
 * (`user:${user.referredBy}`, `node:${node.next}`), which may be gone: the write may create it.
 */
function namesItself(field: string | undefined, shape: string): boolean {
  if (field === undefined) return false;
  const name = field.toLowerCase().replace(/_/g, '');
  const first = (/^[A-Za-z]+/.exec(shape)?.[0] ?? '').toLowerCase();
  return name === 'id' || name === 'uuid' || (first !== '' && name === `${first}id`);
}

/** Whether `field` of `record` (or a member of computed name) is written through the variable before `target`. */
function fieldWrittenBefore(context: AnyContext, record: TSESTree.Identifier, field: string | undefined, target: TSESTree.Node): boolean {
  return (findVariable(context, record)?.references ?? []).some((r) => {
    const member = r.identifier.parent;
    return (
      r.identifier.range[1] <= target.range[0] &&
      member?.type === AST_NODE_TYPES.MemberExpression &&
      member.object === r.identifier &&
      (member.computed || propertyName(member.property) === field) &&
      changes(member)
    );
  });
}

/** Whether `node` is the record's variable. */
function namesRecord(context: AnyContext, node: TSESTree.Node, record: TSESTree.Identifier): boolean {
  const inner = unwrap(node);
  return inner.type === AST_NODE_TYPES.Identifier && findVariable(context, inner)?.defs[0]?.name === record;
}

/** Names every object has (from Object.prototype): a field of those is no `undefined` on `{}`. */
const OWN_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Whether a use of the record that throws on its missing reply (`JSON.parse(r.f)`, `r.f.g`) runs
 * after the read and before `write` on every path, the record unchanged up to it: before the use,
 * the record is only read through members or spread, and the used field is not written (a write
 * takes effect at the end of its assignment: `r.f = JSON.parse(r.f)` uses the field read).
 */
function throwingUse(context: AnyContext, record: TSESTree.Identifier, read: RedisCall, target: TSESTree.Node): boolean {
  const references = findVariable(context, record)?.references ?? [];
  const uses = references
    .filter((r) => !r.init && r.identifier.range[0] > read.node.range[1] && r.identifier.range[1] <= target.range[0])
    .map((r) => r.identifier)
    .sort((a, b) => a.range[0] - b.range[0]);
  const writes: { name: string; at: number }[] = [];
  for (const id of uses) {
    const member = id.parent?.type === AST_NODE_TYPES.MemberExpression && id.parent.object === id ? id.parent : undefined;
    const name = member && propertyName(member.property, member.computed);
    if (member && name !== undefined && changes(member)) writes.push({ name, at: member.parent!.range[1] });
  }
  for (const id of uses) {
    if (id.parent?.type === AST_NODE_TYPES.SpreadElement) continue;
    const member = id.parent?.type === AST_NODE_TYPES.MemberExpression && id.parent.object === id ? id.parent : undefined;
    // handed on, aliased, or a member of unknown name written: what follows may see another value
    const name = member && propertyName(member.property, member.computed);
    if (!member || name === undefined) return false;
    if (writes.some((w) => w.name === name && w.at <= id.range[0])) continue;
    if (throwsOnMissing(member) && unconditional(member) && runsBefore(member, target)) return true;
  }
  return false;
}

/** Whether `member` (`record.field`) throws when the field is `undefined`: `JSON.parse(record.field)` or `record.field.x`, no `?.`. */
function throwsOnMissing(member: TSESTree.MemberExpression): boolean {
  const name = propertyName(member.property, member.computed);
  if (name === undefined || OWN_NAMES.has(name) || member.optional || changes(member)) return false;
  const parent = member.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === member) return !parent.optional;
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === member && parent.arguments.length <= 2) {
    const callee = unwrap(parent.callee);
    return (
      callee.type === AST_NODE_TYPES.MemberExpression &&
      !callee.computed &&
      unwrap(callee.object).type === AST_NODE_TYPES.Identifier &&
      (unwrap(callee.object) as TSESTree.Identifier).name === 'JSON' &&
      propertyName(callee.property) === 'parse'
    );
  }
  return false;
}

/** Whether `member` is written there (`record.f = x`, `record.f++`, `delete record.f`). */
function changes(member: TSESTree.MemberExpression): boolean {
  const parent = member.parent;
  return (
    (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === member) ||
    parent?.type === AST_NODE_TYPES.UpdateExpression ||
    (parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'delete')
  );
}

/**
 * Whether `node` is evaluated whenever its statement runs: between it and its statement only
 * operands that are always evaluated (call arguments and callees, member objects, awaits, the right
 * side of an assignment or declaration, an `if`'s or `switch`'s test); no `?:`, `&&`, `||`, `??`,
 * `?.` or function in between.
 */
function unconditional(node: TSESTree.Node): boolean {
  for (let child: TSESTree.Node = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    switch (parent.type) {
      case AST_NODE_TYPES.ExpressionStatement:
      case AST_NODE_TYPES.VariableDeclaration:
      case AST_NODE_TYPES.ReturnStatement:
      case AST_NODE_TYPES.ThrowStatement:
        return true;
      case AST_NODE_TYPES.IfStatement:
        return parent.test === child;
      case AST_NODE_TYPES.SwitchStatement:
        return parent.discriminant === child;
      case AST_NODE_TYPES.ChainExpression:
      case AST_NODE_TYPES.ConditionalExpression:
      case AST_NODE_TYPES.LogicalExpression:
        return false;
      case AST_NODE_TYPES.MemberExpression:
        if (parent.optional) return false;
        break;
      case AST_NODE_TYPES.CallExpression:
        if (parent.optional) return false;
        break;
      case AST_NODE_TYPES.AssignmentExpression:
        if (parent.operator !== '=' && parent.right === child) return false;
        break;
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.VariableDeclarator:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.SpreadElement:
      case AST_NODE_TYPES.ArrayExpression:
      case AST_NODE_TYPES.Property:
      case AST_NODE_TYPES.ObjectExpression:
      case AST_NODE_TYPES.TemplateLiteral:
      case AST_NODE_TYPES.BinaryExpression:
      case AST_NODE_TYPES.UnaryExpression:
        break;
      default:
        return false;
    }
  }
  return false;
}
