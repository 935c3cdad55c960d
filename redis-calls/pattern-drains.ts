/**
 * Keys a job **drains through a key pattern**: it lists the keys of a shape by KEYS or SCAN ...
 * MATCH, and deletes each listed key whole (a view counter buffered in Redis and flushed to the
 * database every minute):
 *
 * ```ts
 * async incrementViews(id) { await redis.incr(`views:${id}`); }   // not reported by `recommended`
 * private async syncViewCounts() {                                  // called by a setInterval
 *   const keys = await redis.keys('views:*');
 *   for (const key of keys) save(key, await redis.getdel(key));
 * }
 * ```
 *
 * The written key's shape (`views:*`) is matched by the pattern (a `*` of the pattern matches any
 * run, the shape's own `*` included: `semantics/key-patterns.ts` matchStars), so the key lives only
 * until the next drain; `lifecycle.ts` deletedElsewhere then takes the drain for the key's end as
 * it takes a DEL naming the shape.
 *
 * What counts as a drain: on every turn of a loop over the keys a listing returned (`for (const key
 * of keys)`, `for (const key of await redis.keys(p))`, `keys.forEach((key) => ...)`,
 * `keys.map(...)`), the key is consumed and deleted whole: GETDEL (`semantics/key-patterns.ts`
 * DELETES_READING_VALUE), or a Redis call naming it (GET, HGETALL, LRANGE ...) then its DEL /
 * UNLINK (the `delete` effect of `semantics/commands.ts`), with no branch, loop or `try` between
 * the loop body and the deletion. The listing (`semantics/key-patterns.ts` KEY_LISTINGS): KEYS
 * pattern (its reply, the array), SCAN cursor MATCH pattern, or a client's option object
 * `{ MATCH }` / `{ match }` (the second element of ioredis' `[cursor, keys]` reply, or the `keys`
 * of node-redis' `{ cursor, keys }`), also through a pass-through facade; its pattern a constant
 * (a listing of the whole family). Never: a pop of one element (LPOP, SPOP: the key stays while
 * it has others), a read without deletion, a deletion of a key derived from the listed one
 * (`${key}:lock`), a deletion on some turns only (`if (owner === me) del(room)`: a sweep of some
 * keys), a wipe that deletes the listed keys without reading them (`del(...keys)`: a reset, a
 * test's cleanup), a pattern with a run-time part (`room:${id}:*`: one entity's teardown) or
 * without a static part (`*`), nor a listed element reassigned, nor a turn that may end before the
 * deletion (`if (Number(v) < 100) continue;`: a sweep; an exit only when the key's read replied
 * nil, `if (!v) continue`, leaves nothing behind), nor a listing or deletion through an ioredis
 * client with a `keyPrefix` (it prefixes neither KEYS / SCAN patterns nor their replies: nothing is
 * drained).
 *
 * The drain must be able to run ({@link mayRun}): a drain in dead code never ends a key. A function
 * counts when other modules can call it (an exported function, a class member that is not
 * `private` / `protected` / `#name`: another module, a scheduler's decorator may call it), a
 * decorated method (`@Cron(...)`: the framework calls it), or its name is written elsewhere in
 * its file's code (a call, a `setInterval(() => this.sync())`, a registration; not a comment, as a
 * scheduler left disabled is, nor a word of a string), and `uncalled.ts` does not find it named
 * nowhere in its application.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_DELETE_KEY } from '../semantics/commands.js';
import { DELETES_READING_VALUE, KEY_LISTINGS, listedKeysShape, matchStars, starLiterals } from '../semantics/key-patterns.js';
import { calledName } from './builder-lookup.js';
import { listingDrainsThroughPrefix } from './client-key-prefix.js';
import { isFunctionNode } from './client-syntax.js';
import { fileIndexOf } from './file-index.js';
import { hasStaticPart } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import { removesWholeKey } from './moved-keys.js';
import type { RedisCall } from './normalize.js';
import { findVariable, isLoop, propertyName, unwrap, walkParsed, type AnyContext, type FunctionLike } from './static.js';
import { uncalledDeclaration } from './uncalled.js';
import { namesDefinition } from './defined-command-callers.js';

type Variable = TSESLint.Scope.Variable;

/** A deletion of each key a KEYS / SCAN listing returned, and the literals of the listing's pattern. */
export interface PatternDrain {
  /** The deletion (DEL / UNLINK / GETDEL). */
  call: RedisCall;
  /** The pattern's shape (`views:*`). */
  pattern: string;
}

/** Array / Set methods whose callback's first parameter is each element in turn. */
const ITERATORS = new Set(['forEach', 'map']);

const drainsCache = new WeakMap<TSESTree.Program, readonly PatternDrain[]>();

/** The file's deletions of keys listed by a KEYS / SCAN pattern with a static part (see the module comment), built once per file. */
export function patternDrains(context: AnyContext): readonly PatternDrain[] {
  const program = context.sourceCode.ast;
  const cached = drainsCache.get(program);
  if (cached) return cached;
  const index = fileIndexOf(context);
  const all = [...index.calls, ...index.facadeCalls];
  const drains: PatternDrain[] = [];
  for (const call of all) {
    for (const action of call.description.keys) {
      // a RENAME to a key that lives on moves the value, it does not end it (moved-keys.ts)
      if (!EFFECTS_THAT_DELETE_KEY.has(action.effect) || !removesWholeKey(context, call, action.arg)) continue;
      const nodes = call.argNodes.slice(action.arg, action.arg === 0 && call.description.keys.length === 1 ? undefined : action.arg + 1);
      for (const node of nodes) {
        const pattern = node ? listingPattern(context, all, call, node) : undefined;
        if (pattern !== undefined && !drains.some((drain) => drain.call === call && drain.pattern === pattern)) drains.push({ call, pattern });
      }
    }
  }
  drainsCache.set(program, drains);
  return drains;
}

/** Whether the pattern of `drain` matches every key of the written shape `shape`. */
export function drainMatches(drain: PatternDrain, shape: string): boolean {
  return matchStars(starLiterals(drain.pattern), shape);
}

/**
 * The shape of the pattern of the KEYS / SCAN listing whose keys the loop element `node`, deleted
 * by `deletion`, is; `undefined` unless the pattern is a constant with a static part (a listing of
 * the whole family, not of one entity's keys: `room:${id}:*`), the deletion runs on every turn of
 * the loop, and it consumes the key: a deletion that replies with the value (GETDEL), or a Redis
 * call naming the element before it in the turn (GET, HGETALL, LRANGE ... then DEL).
 */
function listingPattern(context: AnyContext, all: readonly RedisCall[], deletion: RedisCall, node: TSESTree.Node): string | undefined {
  const key = unwrap(node);
  if (key.type !== 'Identifier') return undefined;
  const element = elementOf(context, key);
  if (!element || !unconditionalIn(deletion.node, element.body)) return undefined;
  const variable = findVariable(context, key);
  if (!variable || exitBefore(context, all, variable, deletion.node, element.body)) return undefined;
  const read = (call: RedisCall) =>
    call !== deletion &&
    call.node.range[1] <= deletion.node.range[0] &&
    call.node.range[0] >= element.body.range[0] &&
    call.argNodes.some((arg) => arg !== undefined && arg.type === 'Identifier' && findVariable(context, arg) === variable);
  if (!DELETES_READING_VALUE.has(deletion.command) && !all.some(read)) return undefined;
  const listing = listingOf(context, all, element.list);
  if (!listing || !listingDrainsThroughPrefix(listing.keyPrefix, deletion.client.keyPrefix)) return undefined;
  const shape = keyShapeOf(context, listing.pattern);
  return shape.constant && hasStaticPart(shape.shape) ? shape.shape : undefined;
}

/** Nodes a deletion may sit in and still run on every turn of its loop. */
const UNCONDITIONAL = new Set([
  'ExpressionStatement',
  'BlockStatement',
  'AwaitExpression',
  'CallExpression',
  'MemberExpression',
  'VariableDeclarator',
  'VariableDeclaration',
  'ReturnStatement',
  'TSAsExpression',
  'TSNonNullExpression',
  'ArrayExpression',
]);

/** Whether `node` runs every time `body` does: no branch, loop, `try` or function between them. */
function unconditionalIn(node: TSESTree.Node, body: TSESTree.Node): boolean {
  if (node === body) return true;
  for (let current = node.parent; current; current = current.parent) {
    if (current === body) return true;
    if (!UNCONDITIONAL.has(current.type)) return false;
  }
  return false;
}

/**
 * Whether the turn may end before `deletion`: a `return`, `throw`, `yield`, a `break` / `continue`
 * of the loop over the keys (or labelled), before it in `body` and not around it (`if (Number(v) <
 * 100) continue;`: a sweep of some keys, the others left), outside nested functions; save an exit
 * taken only when the listed key is gone (`const v = await redis.get(key); if (!v) continue;`:
 * nothing is left to drain).
 */
function exitBefore(context: AnyContext, all: readonly RedisCall[], element: Variable, deletion: TSESTree.Node, body: TSESTree.Node): boolean {
  return walkParsed(body, (node) => {
    if (node !== body && isFunctionNode(node)) return 'skip';
    if (node.range[0] >= deletion.range[0]) return 'skip';
    if (node.range[1] >= deletion.range[1]) return undefined; // around the deletion (`return redis.getdel(key)`)
    const exits =
      node.type === 'ReturnStatement' ||
      node.type === 'ThrowStatement' ||
      node.type === 'YieldExpression' ||
      ((node.type === 'BreakStatement' || node.type === 'ContinueStatement') && (node.label !== null || !targetInside(node, body)));
    return exits && !takenWhenMissing(context, all, element, node) ? 'stop' : undefined;
  });
}

/**
 * Whether the exit `node` is the branch of an `if` whose test holds only for a missing key's reply:
 * `!v`, `v === null`, `v == null`, `v === undefined` of a `const v` holding the awaited read of the
 * listed key `element` (GET's nil; an empty reply, `{}` or `[]`, never makes them true).
 */
function takenWhenMissing(context: AnyContext, all: readonly RedisCall[], element: Variable, node: TSESTree.Node): boolean {
  let branch = node.parent;
  if (branch?.type === 'BlockStatement') branch = branch.parent;
  if (branch?.type !== 'IfStatement' || !(branch.consequent.range[0] <= node.range[0] && node.range[1] <= branch.consequent.range[1])) return false;
  const test = unwrap(branch.test);
  let tested: TSESTree.Node | undefined;
  if (test.type === 'UnaryExpression' && test.operator === '!') tested = unwrap(test.argument);
  else if (test.type === 'BinaryExpression' && (test.operator === '===' || test.operator === '==')) {
    const nothing = (side: TSESTree.Node) => (side.type === 'Literal' && side.value === null) || (side.type === 'Identifier' && side.name === 'undefined');
    tested = nothing(test.right) ? unwrap(test.left) : nothing(test.left) ? unwrap(test.right) : undefined;
  }
  if (tested?.type !== 'Identifier') return false;
  const reply = findVariable(context, tested);
  const def = reply?.defs.length === 1 ? reply.defs[0] : undefined;
  if (!reply || def?.type !== 'Variable' || def.parent?.kind !== 'const' || !def.node.init) return false;
  const init = unwrap(def.node.init);
  if (init.type !== 'AwaitExpression') return false;
  const call = all.find((c) => c.node === unwrap(init.argument));
  return (
    call !== undefined &&
    call.description.keys.length === 1 &&
    call.description.keys[0]!.effect === 'read' &&
    call.argNodes[call.description.keys[0]!.arg]?.type === 'Identifier' &&
    findVariable(context, call.argNodes[call.description.keys[0]!.arg] as TSESTree.Identifier) === element
  );
}

/** Whether the loop or `switch` an unlabelled `break` / `continue` leaves lies inside `body`. */
function targetInside(node: TSESTree.BreakStatement | TSESTree.ContinueStatement, body: TSESTree.Node): boolean {
  for (let current: TSESTree.Node | undefined = node.parent; current && current !== body; current = current.parent) {
    if (isLoop(current)) return true;
    if (node.type === 'BreakStatement' && current.type === 'SwitchStatement') return true;
  }
  return false;
}

/**
 * What the loop binding `id` to each element iterates, and the loop's body: `for (const id of
 * list)`, `list.forEach((id) => ...)`, `list.map(...)`; `undefined` for another binding or one
 * assigned again.
 */
function elementOf(context: AnyContext, id: TSESTree.Identifier): { list: TSESTree.Node; body: TSESTree.Node } | undefined {
  const variable = findVariable(context, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def || variable.references.some((reference) => reference.isWrite() && reference.identifier !== def.name && !reference.init)) return undefined;
  if (def.type === 'Variable') {
    const declaration = def.parent;
    const loop = declaration?.parent;
    if (loop?.type !== 'ForOfStatement' || loop.left !== declaration || def.node.id !== def.name) return undefined;
    return { list: loop.right, body: loop.body };
  }
  if (def.type === 'Parameter') {
    const callback = def.node;
    if ((callback.type !== 'ArrowFunctionExpression' && callback.type !== 'FunctionExpression') || callback.params[0] !== def.name) return undefined;
    const call = callback.parent;
    if (call?.type !== 'CallExpression' || call.arguments[0] !== callback) return undefined;
    const callee = unwrap(call.callee);
    if (callee.type !== 'MemberExpression' || !ITERATORS.has(propertyName(callee.property, callee.computed) ?? '')) return undefined;
    return { list: callee.object, body: callback.body };
  }
  return undefined;
}

/**
 * The pattern node of the KEYS / SCAN call whose reply `list` is: the call itself (awaited), or a
 * variable bound once to it (`const keys = await redis.keys(p)`, `const [next, keys] = await
 * redis.scan(c, 'MATCH', p)`, `const { keys } = await client.scan(c, { MATCH: p })`).
 */
function listingOf(context: AnyContext, all: readonly RedisCall[], list: TSESTree.Node): { pattern: TSESTree.Node; keyPrefix: string | undefined } | undefined {
  let value = unwrap(list);
  if (value.type === 'AwaitExpression') value = unwrap(value.argument);
  if (value.type === 'CallExpression') {
    const call = all.find((c) => c.node === value);
    return call && KEY_LISTINGS[call.command]?.keys === 'reply' ? listed(call) : undefined;
  }
  if (value.type !== 'Identifier') return undefined;
  const variable = findVariable(context, value);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== 'Variable' || !def.node.init) return undefined;
  if (variable.references.some((reference) => reference.isWrite() && reference.identifier !== def.name && !reference.init)) return undefined;
  let init = unwrap(def.node.init);
  if (init.type === 'AwaitExpression') init = unwrap(init.argument);
  const call = all.find((c) => c.node === init);
  const listing = call ? KEY_LISTINGS[call.command] : undefined;
  if (!call || !listing) return undefined;
  const id = def.node.id;
  const keysOfReply =
    listing.keys === 'reply'
      ? id === def.name
      : (id.type === 'ArrayPattern' && id.elements[1] === def.name) ||
        // node-redis converts SCAN's reply to `{ cursor, keys }`
        (id.type === 'ObjectPattern' && id.properties.some((p) => p.type === 'Property' && propertyName(p.key, p.computed) === 'keys' && p.value === def.name));
  return keysOfReply ? listed(call) : undefined;
}

/** The pattern node of a listing and the `keyPrefix` of its client. */
function listed(call: RedisCall): { pattern: TSESTree.Node; keyPrefix: string | undefined } | undefined {
  const pattern = patternOf(call);
  return pattern ? { pattern, keyPrefix: call.client.keyPrefix } : undefined;
}

/** The pattern node of a KEYS / SCAN call (semantics/key-patterns.ts KEY_LISTINGS): its argument, the one after MATCH, or a client's option object's `MATCH` / `match`. */
function patternOf(call: RedisCall): TSESTree.Node | undefined {
  const at = KEY_LISTINGS[call.command]?.pattern;
  if (typeof at === 'number') return call.argNodes[at];
  const match = call.args.findIndex((arg) => typeof arg === 'string' && arg.toUpperCase() === at);
  if (match >= 0) return call.argNodes[match + 1];
  // an option object: node-redis `{ MATCH: p }`, upstash `{ match: p }`
  for (const node of call.argNodes) {
    const options = node ? unwrap(node) : undefined;
    if (options?.type !== 'ObjectExpression') continue;
    const property = options.properties.find((p) => p.type === 'Property' && propertyName(p.key, p.computed)?.toUpperCase() === at);
    if (property?.type === 'Property') return property.value;
  }
  return undefined;
}

/**
 * Whether the function `fn` (a drain) may run: callable from outside its module (an exported
 * function, a class member that is not `private` / `protected` / `#name`), decorated, or its name
 * is a token of its file outside its own declaration and outside code `uncalled.ts` finds named
 * nowhere; and `uncalled.ts` does not find it named nowhere in its application.
 */
export function mayRun(context: AnyContext, fn: FunctionLike): boolean {
  const name = calledName(fn);
  if (name === undefined || uncalledDeclaration(context, fn) !== undefined) return false;
  let declaration: TSESTree.Node = fn;
  const parent = fn.parent;
  if (parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition' || parent?.type === 'VariableDeclarator') declaration = parent;
  if (exported(declaration)) return true;
  // a decorated method: the framework calls it (`@Cron('* * * * *') private async sync()`)
  if (declaration.type === 'MethodDefinition' && declaration.decorators.length > 0) return true;
  // named in code outside its declaration: a token, not a comment (`// setInterval(() => this.sync())`
  // left disabled) nor a word of a string (`'sync is disabled'`); a string that is the name itself
  // may dispatch to it (`this[job]()` with `job = 'sync'`), unless it names a defined command
  return context.sourceCode.ast.tokens.some(
    (token) =>
      (token.range[1] <= declaration.range[0] || token.range[0] >= declaration.range[1]) &&
      (((token.type === 'Identifier' || token.type === 'PrivateIdentifier') && (token.value === name || `#${token.value}` === name || token.value === `#${name}`)) ||
        (token.type === 'String' && token.value.slice(1, -1) === name && !namesCommand(context, token))) &&
      !inUncalledCode(context, token),
  );
}

/**
 * Whether a token sits in a function `uncalled.ts` finds named nowhere in its application: naming
 * the drain there (`function startWorker() { setInterval(work, 1000) }`, a starter nothing calls)
 * runs nothing.
 */
function inUncalledCode(context: AnyContext, token: TSESLint.AST.Token): boolean {
  const node = context.sourceCode.getNodeByRangeIndex(token.range[0]);
  return node !== null && uncalledDeclaration(context, node) !== undefined;
}

/**
 * Whether a string token is the name `defineCommand` gives a script (`redis.defineCommand('take',
 * ...)`): it names the command, not a function of the code that wraps it (`function take() {
 * return redis.take(key) }`), so it does not make that wrapper called.
 */
function namesCommand(context: AnyContext, token: TSESLint.AST.Token): boolean {
  const node = context.sourceCode.getNodeByRangeIndex(token.range[0]);
  return node !== null && node.type === 'Literal' && namesDefinition(context, node);
}

/**
 * Whether a declaration can be called from outside its module: an exported function or variable,
 * or a member of a class that is not `private` / `protected` / `#name` (an instance of any class
 * may be handed out: `export const jobs = new Jobs()`).
 */
function exported(declaration: TSESTree.Node): boolean {
  if (declaration.type === 'MethodDefinition' || declaration.type === 'PropertyDefinition') {
    return declaration.accessibility !== 'private' && declaration.accessibility !== 'protected' && declaration.key.type !== 'PrivateIdentifier';
  }
  const node = declaration.type === 'VariableDeclarator' ? declaration.parent : declaration;
  const above = node.parent;
  return above?.type === 'ExportNamedDeclaration' || above?.type === 'ExportDefaultDeclaration';
}

/**
 * The spelling of a key a KEYS / SCAN ... MATCH listing returned, written back by the loop over
 * the listing (`for (const key of await redis.keys('candle:latest:*')) redis.set(key, v)`): the
 * shape of the listing's pattern, Redis' glob classes read as `*` (`semantics/key-patterns.ts`
 * listedKeysShape), since every key the listing gives matches it.
 * `undefined` for any other key: not a loop element over a listing's reply (`for...of`, `forEach`,
 * `map`), an element assigned again, or a listing or write through an ioredis client with a
 * `keyPrefix` (the listing's reply holds the prefix, the write adds it again).
 * @param call the write
 * @param node the key argument of the write
 */
export function listedKeyShape(context: AnyContext, call: RedisCall, node: TSESTree.Node): string | undefined {
  const key = unwrap(node);
  if (key.type !== 'Identifier' || call.client.keyPrefix !== undefined) return undefined;
  const element = elementOf(context, key);
  if (!element) return undefined;
  const index = fileIndexOf(context);
  const listing = listingOf(context, [...index.calls, ...index.facadeCalls], element.list);
  if (!listing || listing.keyPrefix !== undefined) return undefined;
  return listedKeysShape(keyShapeOf(context, listing.pattern).shape);
}
