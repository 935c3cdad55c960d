/** The identity of a key expression, for pairing a command with another on the same key. */
import type { TSESTree } from '@typescript-eslint/utils';
import type { RedisCall } from './normalize.js';
import { constInitializer, findVariable, staticValue, unwrap, walk, type AnyContext } from './static.js';

/**
 * The identity of the key at argument `arg` of a command, for pairing a write with its expiry:
 * its literal value when known, else its source text without white space (`key`, `` `rl:${ip}` ``).
 * `undefined` when there is no such argument or it is spread.
 */
export function keyIdOf(context: AnyContext, call: RedisCall, arg: number): string | undefined {
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement') return undefined;
  return idOf(context, keyNode, call.args[arg]);
}

/**
 * {@link keyIdOf} for a key expression outside a client command (a `KEYS` argument of a script
 * call): its literal value when the expression is a constant the file spells (`'jobs:last'`, a
 * `const` of one), else its source text without white space.
 */
export function keyNodeId(context: AnyContext, keyNode: TSESTree.Node): string | undefined {
  if (keyNode.type === 'SpreadElement') return undefined;
  return idOf(context, keyNode, staticValue(context, keyNode));
}

/** The id of a key expression: `value:<its value>` when known, else `text:<its source without white space>`. */
function idOf(context: AnyContext, keyNode: TSESTree.Node, value: unknown): string {
  return value !== undefined ? `value:${String(value)}` : `text:${context.sourceCode.getText(keyNode).replace(/\s+/g, '')}`;
}

/**
 * Whether a key shape (`redis-calls/key-shape.ts`, `*` for each run-time part) has a static part,
 * a letter or digit: `room:*:status` and `jobs:*` do, `*` and `*:*` do not.
 */
export function hasStaticPart(shape: string): boolean {
  return /[\p{L}\p{N}]/u.test(shape.replace(/\*/g, ''));
}

/**
 * The keys a deletion argument names: the argument itself; each element of an array literal
 * (`del([a, b])`); of a spread or a name whose `const` is an array literal (`unlink(...keys)` with
 * `const keys = [a, b]`). A spread of anything else names no key the reading can see.
 */
export function listedKeys(context: AnyContext, node: TSESTree.Node): TSESTree.Node[] {
  let value: TSESTree.Node = unwrap(node.type === 'SpreadElement' ? node.argument : node);
  if (value.type === 'Identifier') {
    const init = constInitializer(context, value);
    if (init && unwrap(init).type === 'ArrayExpression') value = unwrap(init);
  }
  if (value.type === 'ArrayExpression') return value.elements.filter((e): e is TSESTree.Expression => e !== null && e.type !== 'SpreadElement');
  return node.type === 'SpreadElement' ? [] : [node];
}

/**
 * Whether two key expressions of one shape (`redis-calls/key-shape.ts`) may be taken for one key,
 * for an expiry written elsewhere than the write (another arm of a TTL test): yes when the shape
 * spells a key family (`sess:*`, `*:tags`); when it is only run-time parts and separators (`*`,
 * `*:*`), only if one of them is opaque (a variable, a member: `items` and `key` of a loop over
 * it may be the same keys). Two keys both built before our eyes with different spellings, a record
 * `${ns}:${id}` and an index `${ns}:${value}`, `recordKey(id)` and `indexKey(id)`, are two keys:
 * an expiry counts only for the key it names. The caller has checked the shapes are equal.
 */
export function sameKeyByShape(context: AnyContext, shape: string, a: TSESTree.Node, b: TSESTree.Node): boolean {
  if (hasStaticPart(shape)) return true;
  return !isBuiltKey(context, a) || !isBuiltKey(context, b);
}

/**
 * A key spelled at its use, or in the `const` it is read from: a template literal, a
 * concatenation, or a call of a key builder.
 */
function isBuiltKey(context: AnyContext, node: TSESTree.Node): boolean {
  const bare = unwrap(node);
  if (bare.type === 'Identifier') {
    const init = constInitializer(context, bare);
    return init !== undefined && isBuiltKey(context, init);
  }
  return bare.type === 'TemplateLiteral' || bare.type === 'CallExpression' || (bare.type === 'BinaryExpression' && bare.operator === '+');
}

/**
 * Whether a variable the key expression reads (through the `const` it is read from) is assigned between the offsets `from` and `to` (`key = other` before the DEL).
 * @param declarations whether a declaration with an initializer counts (`const key = ...` between
 *   the two; not a loop's `for (const key of keys)`): off when the key at `from` was matched
 *   through its initializer, not by its name
 */
export function keyAssignedBetween(context: AnyContext, keyNode: TSESTree.Node, from: number, to: number, declarations = true): boolean {
  const roots: TSESTree.Node[] = [unwrap(keyNode)];
  const top = roots[0]!;
  if (top.type === 'Identifier') {
    const init = constInitializer(context, top);
    if (init) roots.push(init);
  }
  let assigned = false;
  for (const root of roots) {
    walk(context, root, (inner) => {
      if (assigned || inner.type !== 'Identifier') return;
      const references = findVariable(context, inner)?.references ?? [];
      const counts = (reference: (typeof references)[number]): boolean => declarations || !reference.init || loopHead(reference.identifier);
      if (references.some((reference) => reference.isWrite() && reference.identifier.range[0] > from && reference.identifier.range[0] < to && counts(reference))) assigned = true;
    });
  }
  return assigned;
}

/**
 * Whether a function other than `fn` (a closure in it, a module function) assigns a variable the
 * key expression `keyNode` reads: a call of it may run between two uses of the key in `fn`
 * (the companion of {@link keyAssignedBetween}, which reads `fn`'s own assignments).
 */
export function keyAssignedInClosure(context: AnyContext, keyNode: TSESTree.Node, fn: TSESTree.Node | undefined): boolean {
  let assigned = false;
  walk(context, unwrap(keyNode), (inner) => {
    if (assigned || inner.type !== 'Identifier') return;
    for (const reference of findVariable(context, inner)?.references ?? []) {
      if (reference.isWrite() && !reference.init && reference.from.variableScope.block !== fn) assigned = true;
    }
  });
  return assigned;
}

/** Whether an identifier is declared in a `for ... in` / `for ... of` head (a new value each turn). */
function loopHead(id: TSESTree.Node): boolean {
  for (let node = id.parent; node; node = node.parent) {
    if (node.type === 'ForInStatement' || node.type === 'ForOfStatement') return true;
    if (node.type !== 'VariableDeclarator' && node.type !== 'VariableDeclaration' && node.type !== 'ObjectPattern' && node.type !== 'ArrayPattern' && node.type !== 'Property' && node.type !== 'AssignmentPattern') return false;
  }
  return false;
}
