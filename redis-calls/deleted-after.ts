/**
 * A key **its own function deletes after the write on every path** (the status written just before
 * the handler's cleanup, a scratch key dropped at the end of its step):
 *
 * ```ts
 * socket.on('host:session:abort', async ({ pin }) => {
 *   await redis.set(keys.sessionStatus(pin), 'finished'); // not reported by `recommended`
 *   await db.update(...);
 *   await clearSessionRedis(pin);                          // DELs keys.sessionStatus(pin)
 * });
 * ```
 *
 * What counts: after the write, in the innermost function around it, a deletion of the same key
 * (DEL / UNLINK / GETDEL, the `delete` effect of `semantics/commands.ts`, also through a
 * pass-through facade; `del(a, b)` and `del([a, b])` name each key) that runs on every way the
 * function ends: the deletion, or a call of a function of the file whose body deletes the key
 * unconditionally (one call deep, every function of that name), sits in the function's main
 * sequence (only blocks, `try` blocks without `catch` and `finally` around it: no `if`, loop, `switch`, `catch`,
 * `&&`, `?:` nor callback), and no `return`, `throw`, `break` or `continue` of the function lies
 * between the write and it (unless a `finally` holding the deletion covers it); a `yield` counts
 * as an exit (the consumer may stop asking). Same key: the same key shape (`pin:*:status`) and the
 * same expression (through its `const`, none of its variables assigned in between: not a rename's
 * `del(room:${oldId})`); for a cleanup function, its key with its parameters read as the call's
 * arguments, and the callee bound to that function (not a parameter of the same name). A crash between the write and the deletion still leaves the key: `strict` reports it.
 *
 * Never: a deletion on one branch only (`if (done) del(k)`), after an early return
 * (`if (!id) return;` between the two), in a callback, or only in another handler (an `endGame`
 * the host may never send): `lifecycle.ts` deletedElsewhere decides those. Locks and limit counters
 * are excluded by the caller before asking.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_DELETE_KEY } from '../semantics/commands.js';
import { functionsByName } from './builder-lookup.js';
import { fileIndexOf } from './file-index.js';
import { hasStaticPart, keyAssignedBetween, listedKeys, sameKeyByShape } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import { removesWholeKey } from './moved-keys.js';
import type { RedisCall } from './normalize.js';
import { isFunctionNode } from './client-syntax.js';
import { constInitializer, encloses, enclosingFunction, findVariable, isLoop, unwrap, walk, walkOwnNodes, type AnyContext, type FunctionLike } from './static.js';
import { MISSING_KEY_REPLY } from '../semantics/missing-key-replies.js';

/** A deletion of one key node by one call. */
interface Deletion {
  call: RedisCall;
  key: TSESTree.Node;
}

/** The deletions {@link deletedAfterOnEveryPath} returned (their message says where they are). */
const returned = new WeakSet<RedisCall>();

/** Whether {@link deletedAfterOnEveryPath} gave `deleter` as the deletion that follows a write in its own function. */
export function deletesAfter(deleter: RedisCall): boolean {
  return returned.has(deleter);
}

const deletionsCache = new WeakMap<TSESTree.Program, ReadonlyMap<string, readonly Deletion[]>>();

/** The file's deletions by key shape (each key of `del(a, b)` / `del([a, b])`), built once per file. */
function deletionsByShape(context: AnyContext): ReadonlyMap<string, readonly Deletion[]> {
  const program = context.sourceCode.ast;
  let byShape = deletionsCache.get(program);
  if (byShape) return byShape;
  const map = new Map<string, Deletion[]>();
  const index = fileIndexOf(context);
  for (const call of [...index.calls, ...index.facadeCalls]) {
    for (const action of call.description.keys) {
      // a RENAME to a key that lives on moves the value, it does not end it (moved-keys.ts)
      if (!EFFECTS_THAT_DELETE_KEY.has(action.effect) || !removesWholeKey(context, call, action.arg)) continue;
      const nodes = call.argNodes.slice(action.arg, action.arg === 0 && call.description.keys.length === 1 ? undefined : action.arg + 1);
      for (const node of nodes) {
        if (!node) continue;
        for (const key of listedKeys(context, node)) {
          const shape = keyShapeOf(context, key).shape;
          const list = map.get(shape);
          if (list) list.push({ call, key });
          else map.set(shape, [{ call, key }]);
        }
      }
    }
  }
  byShape = map;
  deletionsCache.set(program, byShape);
  return byShape;
}

/**
 * The deletion (or the call of the file's function that deletes) that follows the write `call` of
 * the key at argument `arg` on every path of the write's own function (see the module comment);
 * `undefined` otherwise. Returns the Redis deletion call itself.
 */
export function deletedAfterOnEveryPath(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement') return undefined;
  // a write an array iterator's callback sends before its first await counts where the iteration is
  // (not when its key reads the callback's own variables: each element's key is another key)
  const lifted = writePosition(call.node);
  const { fn, at } = lifted.at !== call.node && readsVariableOf(context, keyNode, enclosingFunction(call.node)) ? { fn: enclosingFunction(call.node) as FunctionLike | undefined, at: call.node } : lifted;
  if (!fn) return undefined;
  const shape = keyShapeOf(context, keyNode).shape;
  const deletions = deletionsByShape(context).get(shape) ?? [];
  if (deletions.length === 0) return undefined;
  const same = (del: Deletion) =>
    hasStaticPart(shape) ? sameKeyByShape(context, shape, keyNode, del.key) : context.sourceCode.getText(unwrap(del.key)) === context.sourceCode.getText(unwrap(keyNode));
  // the write's key, spelled out: in its own function a deletion of another key of the same shape
  // (`set(room:${newId})` then `del(room:${oldId})`, a rename) does not end the written key
  const written = keyText(context, keyNode);
  // a deletion in the write's own function, after it
  for (const del of deletions) {
    if (del.call.node.range[0] <= at.range[1] || enclosingFunction(del.call.node) !== fn || !same(del)) continue;
    if (keyText(context, del.key) !== written || keyAssignedBetween(context, keyNode, at.range[1], del.call.node.range[0])) continue;
    if (alwaysFollows(context, fn, at, del.call.node, exitsWhenMissing(context, written, at.range[1]))) {
      returned.add(del.call);
      return del.call;
    }
  }
  if (!hasStaticPart(shape)) return undefined;
  // a call, after the write, of a function of the file that deletes the key unconditionally
  const byName = functionsByName(context);
  let found: RedisCall | undefined;
  walk(
    context,
    fn.body,
    (node) => {
      if (node.type !== 'CallExpression' || node.range[0] <= at.range[1]) return;
      const name = node.callee.type === 'Identifier' ? node.callee.name : node.callee.type === 'MemberExpression' && node.callee.property.type === 'Identifier' ? node.callee.property.name : undefined;
      const targets = name === undefined ? [] : (byName.get(name) ?? []);
      if (targets.length === 0 || targets.some((target) => encloses(target, call.node))) return;
      // a callee named like the file's function but bound to something else (a parameter, a local)
      if (node.callee.type === 'Identifier' && !targets.some((target) => declares(context, node.callee as TSESTree.Identifier, target))) return;
      // the function deletes the key it is given: the key, its parameters read as this call's arguments
      if (keyAssignedBetween(context, keyNode, at.range[1], node.range[0])) return;
      const deleting = targets.map((target) =>
        deletions.find((del) => enclosingFunction(del.call.node) === target && same(del) && keyText(context, del.key, target, node) === written && alwaysReached(context, target, del.call.node)),
      );
      if (deleting.some((del) => del === undefined) || !alwaysFollows(context, fn, at, node)) return;
      found = deleting[0]!.call;
      return 'stop';
    },
    { range: [at.range[1], Infinity], skipFunctions: true },
  );
  if (found) returned.add(found);
  return found;
}

/** Array methods that call their callback on each element before they return. */
const SYNC_ITERATORS = new Set(['forEach', 'map']);

/**
 * The function a write belongs to for this analysis and the node that stands for it there: its
 * innermost function and itself; or, for a write in the callback of an array's `forEach` / `map`
 * (`items.forEach(async (x) => await redis.rpush(k, x))`) that the callback sends before any
 * `await` or `yield` of its own, the function around that iteration and the iteration's call: the
 * callback runs, up to its first `await`, before the iteration returns, so the write is sent
 * before anything the enclosing function does after it.
 */
function writePosition(write: TSESTree.Node): { fn: FunctionLike | undefined; at: TSESTree.Node } {
  const fn = enclosingFunction(write) as FunctionLike | undefined;
  const iteration = fn?.parent;
  if (!fn || iteration?.type !== 'CallExpression' || iteration.arguments[0] !== fn) return { fn, at: write };
  const callee = unwrap(iteration.callee);
  if (callee.type !== 'MemberExpression' || !SYNC_ITERATORS.has(callee.property.type === 'Identifier' ? callee.property.name : '')) return { fn, at: write };
  let waits = false;
  walkOwnNodes(fn.body, (node) => {
    if ((node.type === 'AwaitExpression' || node.type === 'YieldExpression') && node.range[1] <= write.range[0]) waits = true;
  });
  if (waits) return { fn, at: write };
  const outer = enclosingFunction(iteration) as FunctionLike | undefined;
  return outer ? { fn: outer, at: iteration } : { fn, at: write };
}

/** Whether a key expression reads a variable declared in `fn` (a parameter or local of an iteration's callback). */
function readsVariableOf(context: AnyContext, keyNode: TSESTree.Node, fn: TSESTree.Node | undefined): boolean {
  if (!fn) return false;
  return walk(context, unwrap(keyNode), (inner) => {
    if (inner.type !== 'Identifier') return undefined;
    const def = findVariable(context, inner)?.defs[0];
    return def && fn.range[0] <= def.name.range[0] && def.name.range[1] <= fn.range[1] ? 'stop' : undefined;
  });
}

/**
 * The exits that leave the key `written` (a key text, {@link keyText}) behind only when it is
 * missing: `if (!exists) return;` where `exists` is a `const` holding the awaited EXISTS of that one
 * key, sent after the write (offset `after`): 0 when it is missing (`semantics/missing-key-replies.ts`),
 * and a key already gone needs no deletion.
 */
function exitsWhenMissing(context: AnyContext, written: string, after: number): (exit: TSESTree.Node) => boolean {
  return (exit) => {
    let branch = exit.parent;
    if (branch?.type === 'BlockStatement' && branch.body.length === 1) branch = branch.parent;
    if (branch?.type !== 'IfStatement' || branch.alternate !== null || !encloses(branch.consequent, exit)) return false;
    const test = unwrap(branch.test);
    const tested = test.type === 'UnaryExpression' && test.operator === '!' ? unwrap(test.argument) : undefined;
    if (tested?.type !== 'Identifier') return false;
    const variable = findVariable(context, tested);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.parent.kind !== 'const' || !def.node.init) return false;
    const init = unwrap(def.node.init);
    if (init.type !== 'AwaitExpression') return false;
    const read = fileIndexOf(context).calls.find((c) => c.node === unwrap(init.argument));
    if (!read || read.node.range[0] < after || read.command !== 'EXISTS' || MISSING_KEY_REPLY.get(read.command) !== 0 || read.argNodes.length !== 1 || !read.argNodes[0]) return false;
    return keyText(context, read.argNodes[0]) === written;
  };
}

/**
 * The text of a key expression without spaces, through the `const` it is read from; with `fn` and
 * `call`, each of `fn`'s parameters it reads is spelled as `call`'s argument (undefined text when
 * one is missing or spread: never equal to a written key).
 */
function keyText(context: AnyContext, node: TSESTree.Node, fn?: FunctionLike, call?: TSESTree.CallExpression): string {
  let value: TSESTree.Node = unwrap(node);
  if (value.type === 'Identifier') {
    const init = constInitializer(context, value);
    if (init) value = unwrap(init);
  }
  const text = context.sourceCode.getText(value);
  const start = value.range[0];
  const pieces: Array<{ range: [number, number]; text: string }> = [];
  let missing = false;
  walk(context, value, (inner) => {
    if (missing || inner.type !== 'Identifier' || !fn || !call) return;
    const parent = inner.parent;
    if (parent?.type === 'MemberExpression' && parent.property === inner && !parent.computed) return;
    if (parent?.type === 'Property' && parent.key === inner && !parent.computed && !parent.shorthand) return;
    const index = fn.params.findIndex((param) => param.type === 'Identifier' && param.name === inner.name);
    if (index < 0 || findVariable(context, inner)?.defs[0]?.node !== fn) return;
    const argument = call.arguments[index];
    if (!argument || argument.type === 'SpreadElement' || call.arguments.slice(0, index).some((a) => a.type === 'SpreadElement')) missing = true;
    else pieces.push({ range: inner.range, text: parent?.type === 'Property' && parent.shorthand ? `${inner.name}:${context.sourceCode.getText(argument)}` : context.sourceCode.getText(argument) });
  });
  if (missing) return `\u0000${String(node.range[0])}`;
  let spelled = '';
  let at = start;
  for (const piece of pieces.sort((a, b) => a.range[0] - b.range[0])) {
    spelled += text.slice(at - start, piece.range[0] - start) + piece.text;
    at = piece.range[1];
  }
  spelled += text.slice(at - start);
  return spelled.replace(/\s+/g, '');
}

/** Whether the callee identifier is bound to `target` (its declaration, or the variable it initializes), not a parameter or local of the same name. */
function declares(context: AnyContext, callee: TSESTree.Identifier, target: FunctionLike): boolean {
  const def = findVariable(context, callee)?.defs[0];
  if (!def) return false;
  if (def.node === target) return true;
  return def.node.type === 'VariableDeclarator' && def.node.init !== null && unwrap(def.node.init) === target;
}

/** Parents through which a node's value is computed whenever its statement runs. */
const UNCONDITIONAL_PARENTS = new Set([
  'AwaitExpression',
  'CallExpression',
  'MemberExpression',
  'ArrayExpression',
  'VariableDeclarator',
  'VariableDeclaration',
  'ExpressionStatement',
  'ReturnStatement',
  'TSAsExpression',
  'TSNonNullExpression',
  'SpreadElement',
  'AssignmentExpression',
]);

/**
 * Whether a `catch` always ends by throwing: its last statement is a `throw` and it has no
 * `return`, `break` or `continue` of its own (`catch (e) { log(e); throw wrap(e); }`). An exception
 * then leaves the function as if nothing caught it: a crash, which `strict` reports.
 */
export function rethrows(handler: TSESTree.CatchClause): boolean {
  const last = handler.body.body.at(-1);
  if (last?.type !== 'ThrowStatement') return false;
  let leaves = false;
  walkOwnNodes(handler.body, (node) => {
    if (node.type === 'ReturnStatement' || node.type === 'BreakStatement' || node.type === 'ContinueStatement') leaves = true;
  });
  return !leaves;
}

/**
 * Whether `node` runs each time its function `fn` runs to its end: in its statement, only
 * unconditional expressions around it ({@link UNCONDITIONAL_PARENTS}); above its statement, only
 * blocks and a `try`'s block or `finally` up to the function's body. Early exits are
 * {@link alwaysFollows}' concern.
 */
function onMainSequence(fn: FunctionLike, node: TSESTree.Node): boolean {
  let current: TSESTree.Node = node;
  while (current.parent && current.parent !== fn.body) {
    const parent: TSESTree.Node = current.parent;
    if (parent === fn) return false;
    if (parent.type === 'BlockStatement') {
      // a bare block, a `finally`, or a `try` block without `catch` (an exception then leaves the
      // function: a crash, which `strict` reports); not a `try` block whose `catch` goes on without
      // the deletion, nor the body of an `if`, a loop, a `catch`
      const above = parent.parent;
      if (!above || (above.type !== 'TryStatement' && above.type !== 'BlockStatement')) return false;
      if (above.type === 'TryStatement' && above.block === parent && above.handler !== null && !rethrows(above.handler)) return false;
    } else if (parent.type === 'CatchClause' || parent.type === 'SwitchCase') return false;
    else if (parent.type === 'TryStatement') {
      if (parent.handler === current) return false;
    } else if (parent.type === 'CallExpression' && parent.arguments.includes(current as TSESTree.CallExpressionArgument)) {
      // an argument is evaluated with its call, save a callback's body (checked below: a function parent)
    } else if (parent.type === 'MemberExpression' && parent.object !== current) return false;
    else if (!UNCONDITIONAL_PARENTS.has(parent.type)) return false;
    current = parent;
  }
  return current.parent === fn.body || current === fn.body;
}

/** Whether the function `fn` reaches `node` whenever it runs: on its main sequence, and no exit before it. */
function alwaysReached(context: AnyContext, fn: FunctionLike, node: TSESTree.Node): boolean {
  return onMainSequence(fn, node) && !exitBetween(context, fn, fn.body.range[0], node);
}

/** Whether every path of `fn` from `write` to the function's end runs `later`, save the exits `harmless` accepts. */
function alwaysFollows(context: AnyContext, fn: FunctionLike, write: TSESTree.Node, later: TSESTree.Node, harmless?: (exit: TSESTree.Node) => boolean): boolean {
  return later.range[0] > write.range[1] && onMainSequence(fn, later) && !exitBetween(context, fn, write.range[1], later, harmless);
}

/**
 * Whether a `return`, `throw`, `break`, `continue` or `yield` of `fn` (not of a nested function) lies
 * between the offset `from` and `later`, other than one a `try` whose `finally` holds `later`
 * covers. A `break` / `continue` of a loop or `switch` that lies wholly between them stays inside
 * it and does not count.
 */
function exitBetween(context: AnyContext, fn: FunctionLike, from: number, later: TSESTree.Node, harmless?: (exit: TSESTree.Node) => boolean): boolean {
  let exit = false;
  const visit = (node: TSESTree.Node): 'skip' | 'stop' | void => {
    // a `yield` hands control to the consumer, which may never ask for the next value (a `break`
    // out of its `for await`): the code after it then never runs, save a `finally`
    if (node.type !== 'ReturnStatement' && node.type !== 'ThrowStatement' && node.type !== 'BreakStatement' && node.type !== 'ContinueStatement' && node.type !== 'YieldExpression') return;
    if (node.range[0] < from || node.range[0] >= later.range[0]) return;
    if ((node.type === 'BreakStatement' || node.type === 'ContinueStatement') && node.label === null && innerTarget(node, from)) return;
    if (coveredByFinally(node, later) || harmless?.(node)) return;
    exit = true;
    return 'stop';
  };
  walk(context, fn.body, visit, { skipFunctions: true });
  return exit;
}

/** Whether the loop or `switch` an unlabelled `break` / `continue` leaves starts after `from` (it stays between the two). */
function innerTarget(node: TSESTree.BreakStatement | TSESTree.ContinueStatement, from: number): boolean {
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
    if (isFunctionNode(current)) return false;
    if (isLoop(current) || (node.type === 'BreakStatement' && current.type === 'SwitchStatement')) return current.range[0] >= from;
  }
  return false;
}

/** Whether a `try` whose block holds `exit` has a `finally` that holds `later`. */
function coveredByFinally(exit: TSESTree.Node, later: TSESTree.Node): boolean {
  for (let current: TSESTree.Node | undefined = exit.parent; current; current = current.parent) {
    if (current.type === 'TryStatement' && current.finalizer && encloses(current.finalizer, later) && !encloses(current.finalizer, exit)) return true;
  }
  return false;
}
