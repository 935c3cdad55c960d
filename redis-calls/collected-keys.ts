/**
 * Keys collected while a unit is queued and expired together later in it: the write's key is
 * pushed into a collection (`keys.push(k)`, `keys.add(k)`), and a loop over that collection queues
 * the expiry of each (`for (const k of keys) multi.expire(k, TTL)`, `keys.forEach((k) => ...)`,
 * `keys.map((k) => ...)`) before EXEC. Or the write is an MSET / MSETNX of an object (its keys
 * are the Redis keys, `mset(entries)`) and the loop runs over that object's keys
 * (`Object.keys(entries).forEach((k) => multi.expire(k, TTL))`, `for (const k in entries)`,
 * `for (const [k] of Object.entries(entries))`). The expiry then names the loop's variable, never
 * the write's key expression, so pairing by key identity (`key-id.ts`) does not see it. The loop
 * runs whenever the write does: no branch around it (`if (keys.length)` aside). The
 * collection may be a property of a `reduce` accumulator (`acc.keys.push(k)` beside the write in
 * the reducer, `const { keys } = items.reduce(...)`, then the loop).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { namesKeyValuePairs } from '../semantics/commands.js';
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
 * `Promise.all(...)`); or to each key of an object (`ofKeys`): `for (const k of Object.keys(o))`,
 * `for (const k in o)`, `Object.keys(o).forEach((k) => ...)`, `Object.entries(o)` with the key
 * destructured first (`([k]) => ...`, `for (const [k, v] of ...)`); `undefined` for any other
 * binding.
 */
function loopOver(
  context: AnyContext,
  node: TSESTree.Identifier,
): { loop: TSESTree.Node; body: TSESTree.Node; collection: TSESTree.Identifier; ofKeys: boolean } | undefined {
  const variable = findVariable(context, node);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return undefined;
  if (def.type === 'Variable') {
    const declaration = def.parent;
    const loop = declaration?.parent;
    if ((loop?.type !== 'ForOfStatement' && loop?.type !== 'ForInStatement') || loop.left !== declaration || declaration.declarations.length !== 1) return undefined;
    const bound = declaration.declarations[0]!.id;
    if (loop.type === 'ForInStatement') {
      const object = unwrap(loop.right);
      return bound === def.name && object.type === 'Identifier' ? { loop, body: loop.body, collection: object, ofKeys: true } : undefined;
    }
    const over = iterated(loop.right, bound, def.name);
    return over ? { loop, body: loop.body, ...over } : undefined;
  }
  if (def.type === 'Parameter') {
    const callback = def.node;
    if (callback.type !== 'ArrowFunctionExpression' && callback.type !== 'FunctionExpression') return undefined;
    const call = callback.parent;
    if (call?.type !== 'CallExpression' || call.arguments[0] !== callback || !callback.params[0]) return undefined;
    const callee = unwrap(call.callee);
    if (callee.type !== 'MemberExpression' || !ITERATORS.has(propertyName(callee.property, callee.computed) ?? '')) return undefined;
    const over = iterated(callee.object, callback.params[0], def.name);
    return over ? { loop: call, body: callback.body, ...over } : undefined;
  }
  return undefined;
}

/**
 * What a loop that binds `bound` (a name, or `[name, ...]`) to each element of `input` iterates
 * when `name` is that element or its first part: a collection named as it is (`keys`), or the keys
 * of an object (`Object.keys(o)`, `Object.entries(o)` with `[name]`).
 */
function iterated(input: TSESTree.Node, bound: TSESTree.Node, name: TSESTree.Node): { collection: TSESTree.Identifier; ofKeys: boolean } | undefined {
  const over = unwrap(input);
  const first = bound.type === 'ArrayPattern' ? bound.elements[0] : undefined;
  if (over.type === 'Identifier') return bound === name ? { collection: over, ofKeys: false } : undefined;
  if (over.type !== 'CallExpression' || over.arguments.length !== 1) return undefined;
  const callee = unwrap(over.callee);
  if (callee.type !== 'MemberExpression' || unwrap(callee.object).type !== 'Identifier' || (unwrap(callee.object) as TSESTree.Identifier).name !== 'Object') return undefined;
  const method = propertyName(callee.property, callee.computed);
  const object = unwrap(over.arguments[0]!);
  if (object.type !== 'Identifier') return undefined;
  if (method === 'keys' && bound === name) return { collection: object, ofKeys: true };
  if (method === 'entries' && first === name) return { collection: object, ofKeys: true };
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

/** Nodes that run what they hold whenever they run themselves, for the loop of expiries. */
const RUNS_HELD = new Set([...UNCONDITIONAL, 'VariableDeclarator', 'VariableDeclaration', 'AssignmentExpression', 'SequenceExpression', 'UnaryExpression', 'SpreadElement', 'TSSatisfiesExpression']);

/**
 * Whether the loop of expiries `loop` runs whenever `write` does: between it and the nearest node
 * holding the write, no branch, loop, `catch` or function (`if (mode === 'hourly') for (const k of
 * keys) m.expire(k, 60)` leaves the keys without TTL on the other runs); a `try` block, and an
 * `if` whose consequent it is and whose test says the collection is not empty (`if (keys.length)`,
 * `keys.length > 0`, `keys.size`), do not count.
 */
function loopRunsWhenever(loop: TSESTree.Node, write: TSESTree.Node, collection: TSESTree.Identifier): boolean {
  for (let node: TSESTree.Node = loop, parent = loop.parent; parent && !encloses(parent, write); node = parent, parent = parent.parent) {
    if (RUNS_HELD.has(parent.type) || (parent.type === 'TryStatement' && parent.block === node)) continue;
    if (parent.type === 'IfStatement' && parent.consequent === node && testsNotEmpty(parent.test, collection.name)) continue;
    return false;
  }
  return true;
}

/** A test that holds when the collection named `name` has an element: `name.length`, `name.size`, either `> 0`, `!== 0`, `>= 1`. */
function testsNotEmpty(test: TSESTree.Node, name: string): boolean {
  let bare = unwrap(test);
  if (bare.type === 'BinaryExpression') {
    const right = unwrap(bare.right);
    const bound = right.type === 'Literal' ? right.value : undefined;
    if (!((['>', '!=', '!=='].includes(bare.operator) && bound === 0) || (bare.operator === '>=' && bound === 1)) || bare.left.type === 'PrivateIdentifier') return false;
    bare = unwrap(bare.left);
  }
  if (bare.type !== 'MemberExpression' || !['length', 'size'].includes(propertyName(bare.property, bare.computed) ?? '')) return false;
  const object = unwrap(bare.object);
  return object.type === 'Identifier' && object.name === name;
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
  const addsKey = (member: TSESTree.Node): TSESTree.CallExpression | undefined => {
    const call = member.parent;
    if (member.type !== 'MemberExpression' || call?.type !== 'CallExpression' || call.callee !== member || !ADDERS.has(propertyName(member.property, member.computed) ?? '')) return undefined;
    const added = call.arguments[0];
    if (!added || added.type === 'SpreadElement' || context.sourceCode.getText(unwrap(added)).replace(/\s+/g, '') !== keyText) return undefined;
    // a statement of a block that holds the write, in its function: it runs whenever the write does
    const statement = call.parent;
    const block = statement?.type === 'ExpressionStatement' ? statement.parent : undefined;
    if (!block || (block.type !== 'BlockStatement' && block.type !== 'Program')) return undefined;
    return encloses(block, write.node) && enclosingFunction(call) === enclosingFunction(write.node) ? call : undefined;
  };
  const direct = variable.references.some((reference) => {
    const member = reference.identifier.parent;
    if (member?.type !== 'MemberExpression' || member.object !== reference.identifier) return false;
    const call = addsKey(member);
    return call !== undefined && followsOnItsPath(call, loop);
  });
  if (direct) return true;
  // a `const` array literal written with the key's `const` binding as an element, read nowhere
  // but by the loop: `const expireKeys = [countKey, maxKey]; for (const k of expireKeys) ...`
  if (listedInConstArray(context, variable, keyNode, loop)) return true;
  // the collection a reduce accumulated: `const { keys } = items.reduce((acc, item) => { ...;
  // multi.set(k, v); acc.keys.push(k); return acc; }, { keys: [] })`
  const accumulated = reducedProperty(context, collection);
  if (!accumulated || !followsOnItsPath(accumulated.reduce, loop)) return false;
  let found = false;
  walkOwnNodes(accumulated.callback.body, (node) => {
    if (found || node.type !== 'MemberExpression' || propertyName(node.property, node.computed) !== accumulated.property) return;
    const object = unwrap(node.object);
    if (object.type === 'Identifier' && findVariable(context, object) === accumulated.accumulator && node.parent && addsKey(node.parent)) found = true;
  }, true);
  return found;
}

/**
 * Whether the collection `variable` is a `const` bound to an array literal one of whose elements
 * names the same `const` binding as `keyNode` (a key set once, so the element is the written key),
 * and nothing but the loop `loop` reads the collection (no `push`, `pop`, `splice`, no handing on).
 */
function listedInConstArray(context: AnyContext, variable: TSESLint.Scope.Variable, keyNode: TSESTree.Node, loop: TSESTree.Node): boolean {
  const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.parent.kind !== 'const' || def.node.id !== def.name) return false;
  const array = def.node.init ? unwrap(def.node.init) : undefined;
  const key = unwrap(keyNode);
  if (array?.type !== 'ArrayExpression' || key.type !== 'Identifier') return false;
  const keyVariable = findVariable(context, key);
  const keyDef = keyVariable?.defs.length === 1 ? keyVariable.defs[0] : undefined;
  if (!keyVariable || keyDef?.type !== 'Variable' || keyDef.parent.kind !== 'const') return false;
  const listed = array.elements.some((element) => element?.type === 'Identifier' && findVariable(context, element) === keyVariable);
  if (!listed) return false;
  return variable.references.every((reference) => reference.identifier === def.name || (encloses(loop, reference.identifier) && !reference.isWrite() && loopReads(loop, reference.identifier)));
}

/** Whether `identifier` is what `loop` iterates (`for (... of keys)`, `keys.forEach(...)`, `keys.map(...)`). */
function loopReads(loop: TSESTree.Node, identifier: TSESTree.Node): boolean {
  if (loop.type === 'ForOfStatement' || loop.type === 'ForInStatement') return unwrap(loop.right) === identifier;
  if (loop.type !== 'CallExpression') return false;
  const callee = unwrap(loop.callee);
  return callee.type === 'MemberExpression' && unwrap(callee.object) === identifier;
}

/** Whether every reference of the collection `variable` is its declaration, an adder statement (`keys.push(a, b)`), a `length` / `size` read, or what a loop iterates. */
function onlyFilledAndIterated(variable: TSESLint.Scope.Variable, adders: TSESTree.CallExpression[]): boolean {
  for (const reference of variable.references) {
    const identifier = reference.identifier;
    if (variable.defs.some((def) => def.name === identifier)) continue;
    if (reference.isWrite()) return false;
    const parent = identifier.parent;
    if (parent?.type === 'ForOfStatement' && parent.right === identifier) continue;
    if (parent?.type !== 'MemberExpression' || parent.object !== identifier) return false;
    const member = propertyName(parent.property, parent.computed);
    const call = parent.parent;
    if (call?.type === 'CallExpression' && call.callee === parent) {
      if (member && ITERATORS.has(member)) continue;
      if (member && ADDERS.has(member) && call.parent?.type === 'ExpressionStatement') {
        adders.push(call);
        continue;
      }
      return false;
    }
    if ((member === 'length' || member === 'size') && !(call?.type === 'AssignmentExpression' && call.left === parent)) continue;
    return false;
  }
  return true;
}

/**
 * Whether the key `writeKey`, the variable of a loop over a collection A (`for (const k of synced)
 * multi.hset(k, ...)`), is in the collection `expired` (B) the expiry loop runs over, because
 * every statement that adds to A (`synced.push(k)`) sits in a block where a statement adding the
 * same text to B (`toExpire.push(k, other)`) comes with it, only declarations and expression
 * statements between the two; A and B are distinct `const` collections that are only filled,
 * sized and iterated (no `pop`, `splice`, `length = 0`, no handing on).
 */
function collectedAlongside(context: AnyContext, writeKey: TSESTree.Node, expired: TSESTree.Identifier): boolean {
  const key = unwrap(writeKey);
  if (key.type !== 'Identifier') return false;
  const source = loopOver(context, key);
  if (!source || source.ofKeys) return false;
  const from = findVariable(context, source.collection);
  const to = findVariable(context, expired);
  if (!from || !to || from === to) return false;
  for (const variable of [from, to]) {
    const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.parent.kind !== 'const' || def.node.id !== def.name) return false;
  }
  const fromAdders: TSESTree.CallExpression[] = [];
  const toAdders: TSESTree.CallExpression[] = [];
  if (!onlyFilledAndIterated(from, fromAdders) || !onlyFilledAndIterated(to, toAdders) || fromAdders.length === 0) return false;
  const text = (node: TSESTree.Node) => context.sourceCode.getText(unwrap(node)).replace(/\s+/g, '');
  return fromAdders.every((adder) => {
    const statement = adder.parent as TSESTree.ExpressionStatement;
    const block = statement.parent;
    if (block?.type !== 'BlockStatement' && block?.type !== 'Program') return false;
    const added = adder.arguments.map((arg) => (arg.type === 'SpreadElement' ? undefined : text(arg)));
    if (added.includes(undefined)) return false;
    const at = block.body.indexOf(statement as TSESTree.ProgramStatement);
    return added.every((item) =>
      toAdders.some((other) => {
        const otherStatement = other.parent as TSESTree.ExpressionStatement;
        const otherAt = block.body.indexOf(otherStatement as TSESTree.ProgramStatement);
        if (otherAt < 0 || !other.arguments.some((arg) => arg.type !== 'SpreadElement' && text(arg) === item)) return false;
        const between = block.body.slice(Math.min(at, otherAt) + 1, Math.max(at, otherAt));
        return between.every((s) => s.type === 'ExpressionStatement' || s.type === 'VariableDeclaration');
      }),
    );
  });
}

/**
 * The `reduce` a collection was destructured from (`const { keys } = items.reduce(cb, { keys: []
 * })`, also `{ keys: alias }`): the call, its callback, the callback's accumulator and the
 * property; only when every `return` of the callback (or its expression body) is that accumulator,
 * so the property of the result is the one the callback filled.
 */
function reducedProperty(
  context: AnyContext,
  collection: TSESTree.Identifier,
): { reduce: TSESTree.CallExpression; callback: TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression; accumulator: TSESLint.Scope.Variable; property: string } | undefined {
  const def = findVariable(context, collection)?.defs[0];
  if (def?.type !== 'Variable' || def.node.id.type !== 'ObjectPattern' || !def.node.init) return undefined;
  const prop = def.node.id.properties.find((p) => p.type === 'Property' && unwrap(p.value) === def.name);
  const property = prop?.type === 'Property' ? propertyName(prop.key, prop.computed) : undefined;
  const reduce = unwrap(def.node.init.type === 'AwaitExpression' ? def.node.init.argument : def.node.init);
  if (!property || reduce.type !== 'CallExpression') return undefined;
  const callee = unwrap(reduce.callee);
  const callback = reduce.arguments[0];
  if (callee.type !== 'MemberExpression' || propertyName(callee.property, callee.computed) !== 'reduce') return undefined;
  if (callback?.type !== 'ArrowFunctionExpression' && callback?.type !== 'FunctionExpression') return undefined;
  const param = callback.params[0];
  const accumulator = param?.type === 'Identifier' ? findVariable(context, param) : null;
  if (!accumulator || !param || param.type !== 'Identifier') return undefined;
  const isAccumulator = (node: TSESTree.Node | null | undefined): boolean => node?.type === 'Identifier' && node.name === param.name;
  if (callback.body.type !== 'BlockStatement') return isAccumulator(callback.body) ? { reduce, callback, accumulator, property } : undefined;
  const returns: TSESTree.ReturnStatement[] = [];
  walkOwnNodes(callback.body, (node) => {
    if (node.type === 'ReturnStatement') returns.push(node);
  });
  return returns.length > 0 && returns.every((r) => isAccumulator(r.argument)) ? { reduce, callback, accumulator, property } : undefined;
}

/**
 * Whether `write` is a command of key value pairs (MSET, MSETNX: `semantics/commands.ts`
 * namesKeyValuePairs) given the object `collection` names as its pairs (`mset(o)`: its keys are the
 * Redis keys), the same binding the loop `loop` reads, not assigned between the two, and the loop
 * follows the write on its path.
 */
function writesKeysOf(context: AnyContext, collection: TSESTree.Identifier, write: RedisCall, writeKey: TSESTree.Node, loop: TSESTree.Node): boolean {
  if (!namesKeyValuePairs(write.command)) return false;
  const object = unwrap(writeKey);
  if (object.type !== 'Identifier') return false;
  const variable = findVariable(context, collection);
  if (!variable || findVariable(context, object) !== variable) return false;
  const between = (node: TSESTree.Node): boolean => node.range[0] > write.node.range[1] && node.range[1] < loop.range[0];
  if (variable.references.some((reference) => reference.isWrite() && between(reference.identifier))) return false;
  return followsOnItsPath(write.node, loop);
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
 * Or the loop runs over the keys of an object (`Object.keys(o)`, `for (const k in o)`) that the
 * write, an MSET / MSETNX, takes whole as its key value pairs (`mset(o)`), not replaced between.
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
  if (over.loop.range[0] < write.node.range[1] || !loopRunsWhenever(over.loop, write.node, over.collection)) return false;
  const covered = over.ofKeys
    ? writesKeysOf(context, over.collection, write, writeKey, over.loop)
    : collects(context, over.collection, write, writeKey, over.loop) || collectedAlongside(context, writeKey, over.collection);
  if (!covered) return false;
  const receiver = expiry.node.type === 'CallExpression' ? unwrap(expiry.node.callee) : undefined;
  if (receiver?.type !== 'MemberExpression') return false;
  const receiverText = context.sourceCode.getText(receiver.object).replace(/\s+/g, '');
  return !execBetween(context, write.node, receiverText, write.node.range[1], over.loop.range[0]);
}
