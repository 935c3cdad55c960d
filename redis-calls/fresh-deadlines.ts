/**
 * A remaining time whose deadline was set just before, in the same function, from the clock:
 *
 * ```ts
 * const now = Date.now();
 * const expires = new Date(now + SESSION_MAX_AGE);     // the deadline: now + a span
 * await redis.set(key, value, 'PX', expires.getTime() - Date.now());   // the span, not a time left
 * ```
 *
 * `deadline - clock` is `(N + C) - T` with N and T readings of the clock: C plus the time between
 * the two readings, which is C when T is read first and C less the few milliseconds the function
 * ran in between otherwise. So it is the span C, positive when C is, and judged as C is (a constant,
 * a configured setting, a parameter), not as a deadline that may have passed.
 *
 * The deadline is read through a `const` (or a `let` whose declaration is its only write) declared
 * in the same function as the subtraction, `new Date(x)`, `.getTime()` / `.valueOf()`, `Number(x)`
 * and a unary `+`, down to `N + C` (or `C + N`), N a clock reading: `Date.now()`, `new
 * Date().getTime()`, `+new Date()`, or a `const` bound to one (`const now = Date.now()`, `const now =
 * new Date(); now.getTime()`). T is any such clock reading.
 *
 * Not read (the time left stays one): a deadline the function may outlast, with an `await` or
 * `yield` between N's reading of the clock and the subtraction (or in a loop around the
 * subtraction only), a clock reading N bound outside the function (`const START = Date.now()` at
 * module load), a deadline that comes from a parameter, a caller, a member or
 * another function (`opts.expires - Date.now()`, `cookie.expires.getTime() - Date.now()`, an object
 * literal's property, which a later spread may replace), one assigned on several paths, and a
 * difference of two times neither of which is the clock.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { constInitializer, enclosingFunction, encloses, findVariable, isLoop, propertyName, unwrap, walk, type AnyContext } from './static.js';

/** How many bindings and wrappers are followed. */
const MAX_DEPTH = 8;

/**
 * The span C when `difference` is `deadline - clock` with `deadline` set to `clock + C` in the
 * function `difference` is in (see the module comment); `undefined` otherwise.
 * @param difference a subtraction (`expires.getTime() - Date.now()`)
 * @returns the node of C as written in the deadline's computation (a span in milliseconds, as
 *   the clock's Unix time is)
 */
export function freshDeadlineSpan(context: AnyContext, difference: TSESTree.BinaryExpression): TSESTree.Node | undefined {
  if (difference.operator !== '-') return undefined;
  if (!clockReading(context, difference.right, 0)) return undefined;
  const fn = enclosingFunction(difference);
  const deadline = spanOfDeadline(context, difference.left, fn, 0);
  // N's reading of the clock; an `await` (or `yield`) between it and the subtraction lets any time pass
  return deadline && fn && !suspendsBetween(context, fn, deadline.reading, difference) ? deadline.span : undefined;
}

/**
 * Whether the function `fn` may suspend after the deadline's clock reading `deadline` (N of `N +
 * C`, where the clock was read: `Date.now()` of `const now = Date.now()`) and before `difference`
 * reads the clock again: an `await` / `yield` that completes between them in source order (`const
 * deadline = Date.now() + 5000; await work(); ... deadline - Date.now()`, or `const now =
 * Date.now(); await work(); const d = now + 5000`: the work may outlast the span), or one anywhere
 * in a loop around the subtraction that does not hold the reading (a later turn of the loop reads
 * the clock after it). The `await` of the write the subtraction is an argument of completes after
 * it, and counts only from a loop.
 */
function suspendsBetween(context: AnyContext, fn: TSESTree.Node, deadline: TSESTree.Node, difference: TSESTree.Node): boolean {
  let loop: TSESTree.Node | undefined;
  for (let current = difference.parent; current && current !== fn; current = current.parent) {
    if (isLoop(current) && !encloses(current, deadline)) loop = current;
  }
  const suspends = (node: TSESTree.Node): boolean => node.type === AST_NODE_TYPES.AwaitExpression || node.type === AST_NODE_TYPES.YieldExpression || (node.type === AST_NODE_TYPES.ForOfStatement && node.await);
  return walk(
    context,
    fn,
    (node) => {
      if (!suspends(node)) return undefined;
      if (loop && encloses(loop, node)) return 'stop';
      return node.range[1] > deadline.range[1] && node.range[1] <= difference.range[0] ? 'stop' : undefined;
    },
    { skipFunctions: true },
  );
}

/** A deadline `N + C`: the node of C as written, and N's reading of the clock (the expression that reads it). */
interface Deadline {
  span: TSESTree.Node;
  reading: TSESTree.Node;
}

/**
 * The deadline `N + C` read through the wrappers and same-function bindings the module comment
 * lists; N must read the clock in `fn` (a reading bound at module load, `const START = Date.now()`,
 * is no fresh deadline: any time may have passed since).
 */
function spanOfDeadline(context: AnyContext, node: TSESTree.Node, fn: TSESTree.Node | undefined, depth: number): Deadline | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const bare = unwrap(node);
  const next = (n: TSESTree.Node): Deadline | undefined => spanOfDeadline(context, n, fn, depth + 1);
  switch (bare.type) {
    case AST_NODE_TYPES.Identifier: {
      const init = sameFunctionInitializer(context, bare, fn);
      return init ? next(init) : undefined;
    }
    case AST_NODE_TYPES.NewExpression: {
      // new Date(now + C): a Date at that Unix time in milliseconds
      const [only] = bare.arguments;
      return isDateConstructor(bare) && bare.arguments.length === 1 && only && only.type !== AST_NODE_TYPES.SpreadElement ? next(only) : undefined;
    }
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(bare.callee);
      // expires.getTime(), expires.valueOf()
      if (callee.type === AST_NODE_TYPES.MemberExpression && bare.arguments.length === 0) {
        const name = propertyName(callee.property, callee.computed);
        return name === 'getTime' || name === 'valueOf' ? next(callee.object) : undefined;
      }
      // Number(expires)
      const [only] = bare.arguments;
      return callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Number' && bare.arguments.length === 1 && only && only.type !== AST_NODE_TYPES.SpreadElement ? next(only) : undefined;
    }
    case AST_NODE_TYPES.UnaryExpression:
      return bare.operator === '+' ? next(bare.argument) : undefined;
    case AST_NODE_TYPES.BinaryExpression:
      if (bare.operator !== '+') return undefined;
      {
        const left = clockReading(context, bare.left, depth + 1, fn);
        if (left) return { span: bare.right, reading: left };
        const right = clockReading(context, bare.right, depth + 1, fn);
        return right ? { span: bare.left, reading: right } : undefined;
      }
    default:
      return undefined;
  }
}

/** The initializer of a `const` (or once-written `let`) `id` names, when it is declared in `fn`. */
function sameFunctionInitializer(context: AnyContext, id: TSESTree.Identifier, fn: TSESTree.Node | undefined): TSESTree.Expression | undefined {
  const init = constInitializer(context, id);
  const def = findVariable(context, id)?.defs[0];
  return init && def && enclosingFunction(def.node) === fn ? init : undefined;
}

/**
 * Where `node` reads the clock as a Unix time in milliseconds: `Date.now()`, `new
 * Date().getTime()` / `.valueOf()`, `+new Date()`, `Number(new Date())`, or a `const` bound to one
 * (`const now = Date.now()`; `now.getTime()` with `const now = new Date()`). Returns the
 * expression that reads it (`Date.now()`, `new Date()`), `undefined` for no clock reading.
 * @param fn when given, a `const` counts only when declared in this function (N of a deadline);
 *   without it, any `const` (T, the reading the subtraction makes)
 */
function clockReading(context: AnyContext, node: TSESTree.Node, depth: number, fn?: TSESTree.Node): TSESTree.Node | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const bare = unwrap(node);
  switch (bare.type) {
    case AST_NODE_TYPES.Identifier: {
      const init = boundValue(context, bare, fn);
      return init && clockReading(context, init, depth + 1, fn);
    }
    case AST_NODE_TYPES.UnaryExpression:
      return bare.operator === '+' ? currentDate(context, bare.argument, depth + 1, fn) : undefined;
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(bare.callee);
      if (callee.type === AST_NODE_TYPES.Identifier) {
        const [only] = bare.arguments;
        return callee.name === 'Number' && bare.arguments.length === 1 && only !== undefined && only.type !== AST_NODE_TYPES.SpreadElement ? currentDate(context, only, depth + 1, fn) : undefined;
      }
      if (callee.type !== AST_NODE_TYPES.MemberExpression || bare.arguments.length !== 0) return undefined;
      const name = propertyName(callee.property, callee.computed);
      const object = unwrap(callee.object);
      if (name === 'now') return object.type === AST_NODE_TYPES.Identifier && object.name === 'Date' && (findVariable(context, object)?.defs.length ?? 0) === 0 ? bare : undefined;
      return name === 'getTime' || name === 'valueOf' ? currentDate(context, object, depth + 1, fn) : undefined;
    }
    default:
      return undefined;
  }
}

/** `new Date()` with no argument (the current time), or a `const` bound to it: the `new Date()`. */
function currentDate(context: AnyContext, node: TSESTree.Node, depth: number, fn?: TSESTree.Node): TSESTree.Node | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.NewExpression) return isDateConstructor(bare) && bare.arguments.length === 0 ? bare : undefined;
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const init = boundValue(context, bare, fn);
  return init && currentDate(context, init, depth + 1, fn);
}

/** The value of the `const` `id` names: declared in `fn` when `fn` is given ({@link sameFunctionInitializer}), anywhere otherwise. */
function boundValue(context: AnyContext, id: TSESTree.Identifier, fn: TSESTree.Node | undefined): TSESTree.Expression | undefined {
  return fn ? sameFunctionInitializer(context, id, fn) : constInitializer(context, id);
}

function isDateConstructor(node: TSESTree.NewExpression): boolean {
  const callee = unwrap(node.callee);
  return callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Date';
}
