/**
 * TTLs that are never falsy, and the no-TTL arm they never take. A TTL written `e || c` with `c` a
 * positive number constant (a literal, a `const` of the file or of a module it imports: `constant.ts`,
 * an instance member given only such a value when the instance is made: `instance-constants.ts`)
 * is truthy whatever `e` is (a positive number when `e` is absent, `0` or `NaN`; `e` itself, maybe
 * `-1` or `'60'`, when it is truthy: so comparisons with numbers and `typeof` tests are decided only
 * by a positive number itself, `c` without `e || `): `this.defaultTtlSeconds = parseInt(env.TTL) || 600`, then
 * `ttlSeconds = ttlSeconds || this.defaultTtlSeconds`. A branch that tests such a TTL for absence
 * (`if (ttlSeconds && !isNaN(parseInt(ttlSeconds))) set(k, v, { EX }) else set(k, v)`) never takes
 * the arm where it is absent, so a write there is no write at all.
 *
 * Not positive: `e ?? c` (`e` may be `0`, `''` or `NaN`, which `??` keeps), `e || 0`, `Number(x)`,
 * `parseInt(x)` (NaN when `x` is unset), a parameter or variable the code never gives such a
 * value, and one written again between that value and the test (a loop, a callback, another
 * assignment). Read without type information; never reads another file than `constant.ts` does.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { constantNumber } from './constant.js';
import { instanceConstant } from './instance-constants.js';
import { findVariable, propertyName, unwrap, type AnyContext } from './static.js';

/** How many values a positive TTL may be read through (`a = b || c`, `c` a member, its value ...). */
const MAX_HOPS = 4;

/**
 * Whether `node` is a positive number TTL as the module comment says: a positive number constant,
 * `e || c` with `c` one, or a variable / instance member whose value at `node` is one.
 */
function positiveTtl(context: AnyContext, node: TSESTree.Node, hops = 0, number = false): boolean {
  if (hops > MAX_HOPS) return false;
  const bare = unwrap(node);
  // e || c is truthy whatever e is, but e itself when e is truthy: -1 (a common "no expiry"), '60'
  if (bare.type === AST_NODE_TYPES.LogicalExpression) return bare.operator === '||' && positiveConstant(context, bare.right, hops + 1, number) && (!number || positiveTtl(context, bare.left, hops + 1, true));
  if (positiveConstant(context, bare, hops, number)) return true;
  if (bare.type === AST_NODE_TYPES.Identifier) {
    const value = valueBefore(context, bare);
    return value !== undefined && positiveTtl(context, value, hops + 1, number);
  }
  return false;
}

/** A positive number constant: a literal or folded `const` (`constant.ts`), or an instance member whose one value is a positive TTL. */
function positiveConstant(context: AnyContext, node: TSESTree.Node, hops: number, number = false): boolean {
  const value = constantNumber(context, node);
  if (value !== undefined) return value > 0 && Number.isFinite(value);
  const bare = unwrap(node);
  if (bare.type !== AST_NODE_TYPES.MemberExpression || bare.object.type !== AST_NODE_TYPES.ThisExpression) return false;
  const given = instanceConstant(context, bare);
  return given !== undefined && positiveTtl(context, given, hops + 1, number);
}

/**
 * The value the variable `id` holds where it is read: the nearest earlier statement of an
 * enclosing block that assigns it as a statement of its own (`ttl = ttl || this.defaultTtl;`), when
 * nothing between that statement and the read writes it (anywhere in the source between the two,
 * a `switch` case or a nested block included); for a `const`, its initialiser.
 * `undefined` when neither is known (a parameter as the caller gives it, a write in a callback).
 */
function valueBefore(context: AnyContext, id: TSESTree.Identifier): TSESTree.Node | undefined {
  const variable = findVariable(context, id);
  if (!variable) return undefined;
  const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
  const writes = variable.references.filter((r) => r.isWrite());
  if (def?.type === 'Variable' && def.parent.kind === 'const') return def.node.init ?? undefined;
  for (let node: TSESTree.Node = id; node.parent; node = node.parent) {
    const parent: TSESTree.Node = node.parent;
    if (parent.type === AST_NODE_TYPES.ArrowFunctionExpression || parent.type === AST_NODE_TYPES.FunctionExpression || parent.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
    if (parent.type === AST_NODE_TYPES.WhileStatement || parent.type === AST_NODE_TYPES.DoWhileStatement || parent.type === AST_NODE_TYPES.ForStatement || parent.type === AST_NODE_TYPES.ForInStatement || parent.type === AST_NODE_TYPES.ForOfStatement) return undefined;
    if (parent.type !== AST_NODE_TYPES.BlockStatement) continue;
    const before = parent.body.slice(0, parent.body.indexOf(node as TSESTree.Statement));
    for (let i = before.length - 1; i >= 0; i--) {
      const statement = before[i]!;
      const inside = writes.filter((w) => w.identifier.range[0] >= statement.range[0] && w.identifier.range[1] <= statement.range[1]);
      if (inside.length === 0) continue;
      const expression = statement.type === AST_NODE_TYPES.ExpressionStatement ? statement.expression : undefined;
      if (inside.length !== 1 || expression?.type !== AST_NODE_TYPES.AssignmentExpression || expression.operator !== '=' || expression.left !== inside[0]!.identifier) return undefined;
      // a write after it and before the read, in a statement that holds the read (a `switch` case
      // assigning `ttl = 0` above its test), is the value there: not known
      if (writes.some((w) => w.identifier.range[0] > statement.range[1] && w.identifier.range[0] < id.range[0])) return undefined;
      return expression.right;
    }
  }
  return undefined;
}

/**
 * What `test` evaluates to when every TTL reference in `positive` (by its text: `ttl`,
 * `this.ttl`) is a positive number: `true`, `false`, or `undefined` when that does not decide it.
 * Reads the reference itself, `!`, `&&`, `||`, `isNaN(x)` / `Number.isNaN(x)`, `parseInt(x)` /
 * `Number(x)` / `parseFloat(x)` of it, comparisons with `0` / `1` / `null` / `undefined`, and
 * `typeof x === 'number'`.
 */
function evaluate(context: AnyContext, input: TSESTree.Node, isPositive: (node: TSESTree.Node) => boolean, isNumber: (node: TSESTree.Node) => boolean): boolean | undefined {
  const test = unwrap(input);
  if (isPositive(test)) return true;
  if (test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!') {
    const inner = evaluate(context, test.argument, isPositive, isNumber);
    return inner === undefined ? undefined : !inner;
  }
  if (test.type === AST_NODE_TYPES.LogicalExpression && test.operator !== '??') {
    const left = evaluate(context, test.left, isPositive, isNumber);
    const right = evaluate(context, test.right, isPositive, isNumber);
    if (test.operator === '&&') return left === false || right === false ? false : left === true && right === true ? true : undefined;
    return left === true || right === true ? true : left === false && right === false ? false : undefined;
  }
  if (test.type === AST_NODE_TYPES.CallExpression && test.arguments.length === 1) {
    const name = calleeName(test.callee);
    if (name === 'isNaN' || name === 'Number.isNaN') return numberOfPositive(test.arguments[0]!, isPositive) ? false : undefined;
    if (name === 'Number.isFinite' || name === 'Number.isInteger' || name === 'Boolean') return numberOfPositive(test.arguments[0]!, isPositive) && name !== 'Number.isInteger' ? true : undefined;
    return numberOfPositive(test, isPositive) ? true : undefined;
  }
  if (test.type !== AST_NODE_TYPES.BinaryExpression || test.left.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
  const [ref, other, flipped] = numberOfPositive(test.left, isPositive) ? [test.left, test.right, false] : numberOfPositive(test.right, isPositive) ? [test.right, test.left as TSESTree.Node, true] : [];
  if (ref === undefined) {
    // typeof ttl === 'number'
    const typed = unwrap(test.left);
    if (typed.type === AST_NODE_TYPES.UnaryExpression && typed.operator === 'typeof' && isNumber(unwrap(typed.argument)) && literal(test.right) === 'number') {
      return test.operator === '===' || test.operator === '==' ? true : test.operator === '!==' || test.operator === '!=' ? false : undefined;
    }
    return undefined;
  }
  const value = literal(other!);
  const op = flipped ? flip(test.operator) : test.operator;
  if (value === null || value === undefined) {
    const bare = unwrap(other!);
    const nullish = (bare.type === AST_NODE_TYPES.Identifier && bare.name === 'undefined') || (bare.type === AST_NODE_TYPES.Literal && value === null);
    if (!nullish) return undefined;
    if (op === '===' || op === '==') return false;
    if (op === '!==' || op === '!=') return true;
    return undefined;
  }
  if (typeof value !== 'number') return undefined;
  // a truthy TTL (e || c) is no number below 1 only when it is a positive number: e may be -1 or
  // '60'; it is never the number 0, whatever else it is
  if (!numberOfPositive(ref, isNumber) && !(value === 0 && (op === '===' || op === '!=='))) return undefined;
  // ttl > 0, ttl >= 1, ttl !== 0: a positive number (an integer TTL: >= 1 holds only for whole seconds)
  if ((op === '>' && value <= 0) || (op === '>=' && value <= 0) || ((op === '!==' || op === '!=') && value <= 0)) return true;
  if ((op === '<=' && value <= 0) || (op === '<' && value <= 0) || ((op === '===' || op === '==') && value <= 0)) return false;
  return undefined;
}

/** Whether `node` is the number of a positive TTL reference: the reference, or `parseInt` / `Number` / `parseFloat` of it. */
function numberOfPositive(input: TSESTree.Node, isPositive: (node: TSESTree.Node) => boolean): boolean {
  const node = unwrap(input);
  if (isPositive(node)) return true;
  if (node.type !== AST_NODE_TYPES.CallExpression || node.arguments.length < 1) return false;
  const name = calleeName(node.callee);
  return (name === 'parseInt' || name === 'Number.parseInt' || name === 'parseFloat' || name === 'Number.parseFloat' || name === 'Number') && isPositive(unwrap(node.arguments[0]!));
}

function calleeName(callee: TSESTree.Node): string | undefined {
  const bare = unwrap(callee);
  if (bare.type === AST_NODE_TYPES.Identifier) return bare.name;
  if (bare.type === AST_NODE_TYPES.MemberExpression && bare.object.type === AST_NODE_TYPES.Identifier) {
    const name = propertyName(bare.property, bare.computed);
    return name === undefined ? undefined : `${bare.object.name}.${name}`;
  }
  return undefined;
}

/** The value of a literal (`undefined` for the identifier `undefined` and for anything that is no literal). */
function literal(input: TSESTree.Node): unknown {
  const node = unwrap(input);
  if (node.type === AST_NODE_TYPES.Literal) return node.value;
  if (node.type === AST_NODE_TYPES.UnaryExpression && node.operator === '-' && node.argument.type === AST_NODE_TYPES.Literal && typeof node.argument.value === 'number') return -node.argument.value;
  return undefined;
}

function flip(op: string): string {
  return op === '<' ? '>' : op === '>' ? '<' : op === '<=' ? '>=' : op === '>=' ? '<=' : op;
}

/**
 * Whether the write `call` (its call expression) sits in an arm that is never taken: an arm of an
 * `if` / `?:` of the enclosing function whose test, with the TTL references it reads that are
 * positive TTLs ({@link positiveTtl}), always takes the other arm; or after an `if (ttl) { ...;
 * return; }` whose test always holds. Stops at the enclosing function.
 */
export function inArmNeverTaken(context: AnyContext, call: TSESTree.Node): boolean {
  const positive = new Map<TSESTree.Node, boolean>();
  const numbers = new Map<TSESTree.Node, boolean>();
  const reference = (node: TSESTree.Node): boolean => node.type === AST_NODE_TYPES.Identifier || (node.type === AST_NODE_TYPES.MemberExpression && node.object.type === AST_NODE_TYPES.ThisExpression);
  const isPositive = (node: TSESTree.Node): boolean => {
    if (!reference(node)) return false;
    let known = positive.get(node);
    if (known === undefined) positive.set(node, (known = positiveTtl(context, node)));
    return known;
  };
  // a positive number, not only truthy: what comparisons with numbers and `typeof` need
  const isNumber = (node: TSESTree.Node): boolean => {
    if (!reference(node)) return false;
    let known = numbers.get(node);
    if (known === undefined) numbers.set(node, (known = positiveTtl(context, node, 0, true)));
    return known;
  };
  for (let node: TSESTree.Node = call; node.parent; node = node.parent) {
    const parent: TSESTree.Node = node.parent;
    if (parent.type === AST_NODE_TYPES.ArrowFunctionExpression || parent.type === AST_NODE_TYPES.FunctionExpression || parent.type === AST_NODE_TYPES.FunctionDeclaration) return false;
    if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== node) {
      const value = evaluate(context, parent.test, isPositive, isNumber);
      if (value !== undefined && value !== (node === parent.consequent)) return true;
    }
    if (parent.type === AST_NODE_TYPES.BlockStatement) {
      for (const sibling of parent.body.slice(0, parent.body.indexOf(node as TSESTree.Statement))) {
        if (sibling.type === AST_NODE_TYPES.IfStatement && !sibling.alternate && exits(sibling.consequent) && evaluate(context, sibling.test, isPositive, isNumber) === true) return true;
      }
    }
  }
  return false;
}

/** Whether a statement always leaves its function (ends with `return` or `throw`). */
function exits(statement: TSESTree.Statement): boolean {
  if (statement.type === AST_NODE_TYPES.ReturnStatement || statement.type === AST_NODE_TYPES.ThrowStatement) return true;
  const last = statement.type === AST_NODE_TYPES.BlockStatement ? statement.body.at(-1) : undefined;
  return last !== undefined && exits(last);
}
