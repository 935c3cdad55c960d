/**
 * Keys collected while a unit is queued and expired together later in it: the write's key is
 * pushed into a collection (`keys.push(k)`, `keys.add(k)`), and a loop over that collection queues
 * the expiry of each (`for (const k of keys) multi.expire(k, TTL)`, `keys.forEach((k) => ...)`,
 * `keys.map((k) => ...)`) before EXEC. The expiry then names the loop's variable, never the
 * write's key expression, so pairing by key identity (`key-id.ts`) does not see it.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import type { RedisCall } from './normalize.js';
import { encloses, enclosingFunction, findVariable, followsOnItsPath, propertyName, unwrap, walkOwnNodes, type AnyContext } from './static.js';

/** Methods that add their first argument to an array or a Set. */
const ADDERS = new Set(['push', 'unshift', 'add']);
/** Array / Set methods whose callback's first parameter is each element in turn, called once each. */
const ITERATORS = new Set(['forEach', 'map']);
/** Nodes an expiry may sit in and still run on every turn of the loop's body. */
const UNCONDITIONAL = new Set([
  'ExpressionStatement',
  'BlockStatement',
  'AwaitExpression',
  'ChainExpression',
  'ReturnStatement',
  'CallExpression',
  'MemberExpression',
  'TSNonNullExpression',
  'TSAsExpression',
  'ArrayExpression',
]);

/**
 * The loop that binds the identifier `node` to each element of a collection, and that collection:
 * `for (const k of keys)`, `keys.forEach((k) => ...)`, `keys.map((k) => ...)` (also inside
 * `Promise.all(...)`); `undefined` for any other binding.
 */
function loopOver(context: AnyContext, node: TSESTree.Identifier): { loop: TSESTree.Node; body: TSESTree.Node; collection: TSESTree.Identifier } | undefined {
  const variable = findVariable(context, node);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return undefined;
  if (def.type === 'Variable') {
    const declaration = def.parent;
    const loop = declaration?.parent;
    if (loop?.type !== 'ForOfStatement' || loop.left !== declaration || declaration.declarations.length !== 1) return undefined;
    if (declaration.declarations[0]!.id !== def.name) return undefined;
    const collection = unwrap(loop.right);
    return collection.type === 'Identifier' ? { loop, body: loop.body, collection } : undefined;
  }
  if (def.type === 'Parameter') {
    const callback = def.node;
    if (callback.type !== 'ArrowFunctionExpression' && callback.type !== 'FunctionExpression') return undefined;
    if (callback.params[0] !== def.name) return undefined;
    const call = callback.parent;
    if (call?.type !== 'CallExpression' || call.arguments[0] !== callback) return undefined;
    const callee = unwrap(call.callee);
    if (callee.type !== 'MemberExpression' || !ITERATORS.has(propertyName(callee.property, callee.computed) ?? '')) return undefined;
    const collection = unwrap(callee.object);
    return collection.type === 'Identifier' ? { loop: call, body: callback.body, collection } : undefined;
  }
  return undefined;
}

/** Whether `node` runs every time `body` does: no branch, loop or function between them. */
function unconditionalIn(node: TSESTree.Node, body: TSESTree.Node): boolean {
  if (node === body) return true;
  for (let current = node.parent; current && current !== body; current = current.parent) {
    if (!UNCONDITIONAL.has(current.type)) return false;
  }
  return true;
}

/**
 * Whether `collection` receives the key `keyNode` (the same source text) through an adder call
 * (`push`, `unshift`, `add`) that is a statement of a block enclosing `write`, so that it runs
 * whenever the write does, and that the loop `loop` follows on its path.
 */
function collects(context: AnyContext, collection: TSESTree.Identifier, write: RedisCall, keyNode: TSESTree.Node, loop: TSESTree.Node): boolean {
  const variable = findVariable(context, collection);
  if (!variable) return false;
  const keyText = context.sourceCode.getText(unwrap(keyNode)).replace(/\s+/g, '');
  return variable.references.some((reference) => {
    const member = reference.identifier.parent;
    if (member?.type !== 'MemberExpression' || member.object !== reference.identifier) return false;
    const call = member.parent;
    if (call?.type !== 'CallExpression' || call.callee !== member || !ADDERS.has(propertyName(member.property, member.computed) ?? '')) return false;
    const added = call.arguments[0];
    if (!added || added.type === 'SpreadElement' || context.sourceCode.getText(unwrap(added)).replace(/\s+/g, '') !== keyText) return false;
    const statement = call.parent;
    const block = statement?.type === 'ExpressionStatement' ? statement.parent : undefined;
    if (!block || (block.type !== 'BlockStatement' && block.type !== 'Program')) return false;
    return encloses(block, write.node) && enclosingFunction(call) === enclosingFunction(write.node) && followsOnItsPath(call, loop);
  });
}

/** Whether the unit's EXEC is called on `receiver` (its source text) between `from` and `to`, in the function of `write`. */
function execBetween(context: AnyContext, write: TSESTree.Node, receiver: string, from: number, to: number): boolean {
  const fn = enclosingFunction(write) ?? context.sourceCode.ast;
  let found = false;
  walkOwnNodes(
    fn,
    (node) => {
      if (found || node.type !== 'CallExpression' || node.range[0] < from || node.range[1] > to) return;
      const callee = unwrap(node.callee);
      if (callee.type !== 'MemberExpression' || !/^exec/.test(propertyName(callee.property, callee.computed) ?? '')) return;
      if (context.sourceCode.getText(callee.object).replace(/\s+/g, '') === receiver) found = true;
    },
    true,
  );
  return found;
}

/**
 * Whether the expiry `expiry` queued at argument `expiryArg` covers the key `write` writes at
 * `writeKey`, through a collection of keys: the expiry's key is the variable of a loop over a
 * collection (`for (const k of keys)`, `keys.forEach((k) => ...)`, `keys.map(...)`), queued on
 * every turn of it; the write's key is added to that collection (`keys.push(k)`, `keys.add(k)`)
 * whenever the write runs; the loop follows on that path, and the unit is not executed in between.
 * The caller checks both are queued in the same unit (a MULTI / pipeline), the expiry after the
 * write. A loop over another collection, an expiry after `exec()`, or a push on one branch only
 * is no cover.
 */
export function expiredThroughCollection(context: AnyContext, write: RedisCall, writeKey: TSESTree.Node, expiry: RedisCall, expiryArg: number): boolean {
  const expiryKey = expiry.argNodes[expiryArg];
  const bare = expiryKey && expiryKey.type !== 'SpreadElement' ? unwrap(expiryKey) : undefined;
  if (bare?.type !== 'Identifier') return false;
  const over = loopOver(context, bare);
  if (!over || !unconditionalIn(expiry.node, over.body)) return false;
  if (over.loop.range[0] < write.node.range[1]) return false;
  if (!collects(context, over.collection, write, writeKey, over.loop)) return false;
  const receiver = expiry.node.type === 'CallExpression' ? unwrap(expiry.node.callee) : undefined;
  if (receiver?.type !== 'MemberExpression') return false;
  const receiverText = context.sourceCode.getText(receiver.object).replace(/\s+/g, '');
  return !execBetween(context, write.node, receiverText, write.node.range[1], over.loop.range[0]);
}
