/**
 * Facades that translate an options object into a command's tokens, read at their callers
 * (`redis-calls/facades.ts`). An application's KV facade often takes its own options object and
 * sends the client's tokens in one arm per combination:
 *
 * ```ts
 * async set(key: string, value: string, opts?: { ex?: number; nx?: boolean }) {
 *   if (opts?.ex !== undefined && opts.nx) return this.client.set(key, value, 'EX', opts.ex, 'NX');
 *   if (opts?.ex !== undefined) return this.client.set(key, value, 'EX', opts.ex);
 *   if (opts?.nx) return this.client.set(key, value, 'NX');
 *   return this.client.set(key, value);
 * }
 * await kv().set(`lobby:${code}`, id, { ex: 60 }); // SET lobby:* id EX 60
 * await kv().set(`lobby:${code}`, id);             // SET lobby:* id: no expiry
 * ```
 *
 * The arms are the same command of the same key expressions, each chosen by
 * tests that read the options parameter alone (`opts?.ex !== undefined`, `opts.nx`, `typeof
 * opts.ttl === 'number'`, `!opts`, with `&&`, `||`, `!`, early returns and conditional
 * expressions). A caller's options (an object literal, or none) decide each test, and so the one
 * arm that runs; its `opts.ex` is the caller's property. When a test cannot be decided (a
 * property whose value is not known to be truthy, options the caller passes as a variable), the
 * call is not read.
 *
 * A positional parameter may choose the arms the same way (round 25: an application's cache
 * wrapper whose TTL is an optional argument):
 *
 * ```ts
 * async set(key: string, value: string, ttl?: number) {
 *   if (ttl) await this.client.setex(key, ttl, value);
 *   else await this.client.set(key, value);
 * }
 * await redisService.set(`cats:${id}`, json, CACHE_TTL); // SETEX: the TTL given
 * await redisService.set(`cats:${id}`, json);            // SET: no expiry
 * ```
 *
 * The tests then read that parameter itself (`ttl`, `ttl !== undefined`, `ttl > 0`, `!ttl`), every
 * write sits under one, some arm hands the parameter to a write that expires its key (what makes
 * it a TTL: a flag choosing LPUSH or RPUSH is no such choice), the arms may send different
 * commands of the same key expressions (SETEX and SET), and the caller's
 * argument decides: a known value (`3600`, a `const`, `0`, `undefined`) as it is; left out, the
 * parameter's default (`ttl = 60`), else `undefined`; any other expression (`this.ttl`, a
 * variable) is only known to be defined, so `ttl !== undefined` holds and `if (ttl)` is not
 * decided (the call is then not read: the caller passed a TTL). `undefined` (the global), `void 0`
 * and `undefined as number` are `undefined`; a `? :` argument (`remember ? WEEK : undefined`) is
 * the arm of each side, the one without expiry when they differ (it runs on one path). Since round
 * 36 a comparison reads `null` and `false` as 0 and `undefined` as NaN, as JavaScript does
 * (`ttl > 0` is false for each: the caller's explicit "no TTL" takes the arm without expiry), a
 * `const` of an imported module counts as known, and an argument check that throws before the
 * arms (`if (!key) throw ...`) is no arm test unless it tests the parameter the arms test. A default
 * the body spells as its first statement (`ttl = ttl ?? 3600`, `ttl ||= 3600`) is the default; a
 * parameter the body assigns any other way chooses no arms. Since round 37 a check throwing on a
 * disjunction (`if (!key || !ttl) throw ...`, `if (!key || ttl < 0) throw ...`) is read as one
 * check per test it joins: those of the arms' parameter count as its guard (a caller leaving the
 * TTL out, or passing `-1`, then writes nothing), the others (`!key`) choose nothing; a conjunction
 * (`!key && ttl < 0`) stays one test of two parameters, no guard. Also since round 37 the arms' key may be
 * the parameter as a pass-through wrapper forwards it (`pass-through.ts`
 * forwardedKeyParameterIndex: a key builder of the code, a configured prefix, a `const` holding
 * either, `const prefixedKey = this.addPrefix(key)`), not only the parameter as it is.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { EXPIRY_EFFECTS } from '../semantics/commands.js';
import { constantNumber } from './constant.js';
import { instanceConstant } from './instance-constants.js';
import { findExport, importedBinding, moduleConst, moduleContext } from './modules.js';
import type { RedisCall } from './normalize.js';
import { findVariable, propertyName, resolveConstExpression, staticValue, unwrap, type AnyContext, type FunctionLike } from './static.js';

/** A test on the way to an arm, and the outcome it needs. */
interface Condition {
  test: TSESTree.Node;
  holds: boolean;
  /**
   * an argument check before the arms that throws (`if (!key) throw new Error('key required')`):
   * it sends nothing and chooses no arm, only whether the function goes on at all
   */
  guard?: true;
  /**
   * an early return before the write (`if (!client) return false;`, `if (c.status !== 'ready')
   * return;`): when every arm sits past it, it decides whether the function writes at all, not
   * which arm runs, and counts as a guard
   */
  exit?: true;
}

/** The arms of an options facade: the index of its options parameter, and each forwarded call with the tests choosing it. */
export interface OptionArms {
  param: number;
  /**
   * the arms test the parameter itself, a positional value (a TTL), not an options object's
   * properties; `fallbackValue`: its default (`ttl = 60`) as its own module reads it
   */
  positional?: { fallbackValue?: Operand; orFalsy?: true };
  /** the parameter's default object literal (`opts = {}`), what a caller leaving it out passes */
  fallback?: TSESTree.ObjectExpression;
  arms: Array<{ call: RedisCall; conditions: Condition[] }>;
}

/**
 * The arms of `fn` when it is an options facade (see the module comment): every call of `sent`
 * sits under tests reading one parameter of `fn` only, a parameter no key is, read by member at
 * least once (`opts.ex`); `undefined` otherwise (one call chosen by nothing, a test reading
 * anything else: `this.ready`, a second parameter).
 */
export function optionArmsOf(context: AnyContext, fn: FunctionLike, sent: readonly RedisCall[]): OptionArms | undefined {
  if (sent.length < 2) return undefined;
  // the same keys in every arm, and the same command for an options object (what the options
  // change is its tokens); a positional parameter may choose another command (SETEX or SET)
  const keysOf = (call: RedisCall): string => call.description.keys.map((action) => (call.argNodes[action.arg] ? context.sourceCode.getText(call.argNodes[action.arg]!) : '?')).join('\0');
  if (sent.some((call) => call.description.keys.length === 0 || keysOf(call) !== keysOf(sent[0]!))) return undefined;
  const oneCommand = sent.every((call) => call.command === sent[0]!.command);
  let param: number | undefined;
  let member = false;
  const arms: OptionArms['arms'] = [];
  const paths: Condition[][] = [];
  for (const call of sent) {
    const path = pathConditions(fn, call.node);
    if (!path) return undefined;
    paths.push(path);
  }
  // an early return every arm sits past (`if (!client) return false;`: the client's readiness)
  // chooses no arm either, like an argument check that throws (round 38)
  for (const path of paths) {
    for (const [j, condition] of path.entries()) {
      if (condition.exit && paths.every((other) => other.some((c) => c.test === condition.test))) path[j] = { test: condition.test, holds: false, guard: true };
    }
  }
  // an argument check that throws chooses no arm: it counts only when it tests the parameter
  // the arms test (`if (ttl < 0) throw ...`: that caller's call writes nothing)
  const chooser = (test: TSESTree.Node): number | undefined => {
    const read = parametersRead(context, fn, test);
    return read?.params.size === 1 ? [...read.params][0] : undefined;
  };
  const tested = new Set(paths.flat().filter((c) => !c.guard).map((c) => chooser(c.test)));
  for (const [i, call] of sent.entries()) {
    const conditions = paths[i]!.filter((c) => !c.guard || (tested.size === 1 && tested.has(chooser(c.test))));
    for (const { test } of conditions) {
      const read = parametersRead(context, fn, test);
      if (!read || read.params.size !== 1) return undefined;
      const [index] = read.params;
      if (param !== undefined && index !== param) return undefined;
      param = index;
      member ||= read.member;
    }
    arms.push({ call, conditions });
  }
  if (param === undefined) return undefined;
  // no key is the options parameter
  const declared = fn.params[param];
  if (!declared || sent.some((call) => call.description.keys.some((action) => refersTo(context, call.argNodes[action.arg], fn, param!)))) return undefined;
  const inner = declared.type === AST_NODE_TYPES.TSParameterProperty ? declared.parameter : declared;
  // a positional parameter: tested as it is, never by member (`opts.ex` is an options object's);
  // each call under a test of it (a write every call makes, `set(k, v); if (ttl) expire(k, ttl)`,
  // is no arm: the wrapper is judged where it is)
  if (!member) {
    if (arms.some((arm) => arm.conditions.length === 0)) return undefined;
    // the parameter is a TTL: an arm hands it to a write that expires its key (SETEX's seconds,
    // SET's `EX`); a flag choosing LPUSH or RPUSH, or two arms of one write, is no such choice
    const expiresWithIt = (call: RedisCall): boolean =>
      call.description.keys.some((action) => EXPIRY_EFFECTS.has(action.effect)) && call.argNodes.some((node, j) => !call.description.keys.some((action) => action.arg === j) && refersTo(context, node, fn, param!));
    if (!arms.some((arm) => expiresWithIt(arm.call))) return undefined;
    if (inner.type === AST_NODE_TYPES.RestElement || inner.type === AST_NODE_TYPES.ObjectPattern || inner.type === AST_NODE_TYPES.ArrayPattern) return undefined;
    let fallback: TSESTree.Node | undefined = inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.right : undefined;
    // the parameter assigned in the body: a default spelled there (`ttl = ttl ?? 3600;`, `ttl ||=
    // DEFAULT`, its first statement) is the fallback; any other assignment (`if (perm) ttl = 0`)
    // leaves the tests reading something else than the caller's argument
    const assigned = assignedDefault(context, fn, inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner);
    if (assigned === null) return undefined;
    if (assigned) {
      if (fallback) return undefined;
      fallback = assigned.value;
    }
    const fallbackValue = fallback ? (literalOf(context, fallback) ?? { kind: 'defined' as const }) : undefined;
    return { param, positional: { ...(fallbackValue ? { fallbackValue } : {}), ...(assigned?.orFalsy ? { orFalsy: true } : {}) }, arms };
  }
  if (!oneCommand) return undefined;
  if (inner.type === AST_NODE_TYPES.AssignmentPattern) {
    const fallback = unwrap(inner.right);
    return fallback.type === AST_NODE_TYPES.ObjectExpression ? { param, fallback, arms } : undefined;
  }
  return { param, arms };
}

/**
 * The arm a caller's options choose: `options` is the caller's argument (an object literal, or a
 * `const` holding one), `undefined` when it leaves it out. `undefined` when a test cannot be
 * decided, or no arm or more than one runs.
 */
export function chosenArm(context: AnyContext, arms: OptionArms, options: TSESTree.Node | undefined): RedisCall | undefined {
  // a positional argument chosen at the call (`remember ? WEEK : undefined`): the arm each side
  // chooses, and of two, the one that leaves the key without expiry (it runs on one path)
  const choice = arms.positional && options ? unwrap(options) : undefined;
  if (choice?.type === AST_NODE_TYPES.ConditionalExpression) {
    const sides = [chosenArm(context, arms, choice.consequent), chosenArm(context, arms, choice.alternate)];
    if (sides.some((side) => side === undefined)) return undefined;
    return sides.find((side) => !side!.description.keys.some((action) => EXPIRY_EFFECTS.has(action.effect))) ?? sides[0];
  }
  const value = arms.positional ? undefined : options ? optionsValue(context, options) : arms.fallback;
  if (value === UNKNOWN_VALUE) return undefined;
  const positional = arms.positional ? positionalOperand(context, options, arms.positional.fallbackValue, arms.positional.orFalsy) : undefined;
  if (arms.positional && !positional) return undefined;
  let chosen: RedisCall | undefined;
  for (const arm of arms.arms) {
    let runs: boolean | undefined = true;
    for (const { test, holds } of arm.conditions) {
      const truth = truthOf(context, test, value, positional);
      if (truth === undefined) return undefined;
      if (truth !== holds) {
        runs = false;
        break;
      }
    }
    if (runs) {
      if (chosen) return undefined;
      chosen = arm.call;
    }
  }
  return chosen;
}

/**
 * `opts.ex` of the options parameter (at `param` of `fn`) in a forwarded call: the property it
 * reads (`ex`), else `undefined`.
 */
export function optionProperty(context: AnyContext, fn: FunctionLike, param: number, node: TSESTree.Node | undefined): string | undefined {
  const bare = node && unwrap(node);
  if (bare?.type !== AST_NODE_TYPES.MemberExpression || !refersTo(context, bare.object, fn, param)) return undefined;
  return propertyName(bare.property, bare.computed);
}

/**
 * The value node of property `name` in the caller's options object literal; `undefined` when the
 * caller passes no literal, or it has no such property, or a spread.
 */
export function optionValue(context: AnyContext, arms: OptionArms, options: TSESTree.Node | undefined, name: string): TSESTree.Node | undefined {
  const value = options ? optionsValue(context, options) : arms.fallback;
  if (value === UNKNOWN_VALUE || value === undefined) return undefined;
  const found = propertyOf(value, name);
  return found && found !== UNKNOWN_VALUE ? found : undefined;
}

const UNKNOWN_VALUE = Symbol('unknown');

/**
 * A caller's positional argument as a test operand: its known value, only `defined` for any other
 * expression; left out (or `undefined`), the parameter's default, else `undefined`. Unknown for a
 * spread.
 */
function positionalOperand(context: AnyContext, argument: TSESTree.Node | undefined, fallback: Operand | undefined, orFalsy?: true): Operand | undefined {
  if (!argument) return fallback ?? { kind: 'undefined' };
  if (argument.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const bare = unwrap(argument);
  // `void 0` is `undefined`
  const known = bare.type === AST_NODE_TYPES.UnaryExpression && bare.operator === 'void' ? ({ kind: 'undefined' } as const) : literalOf(context, argument);
  if (known?.kind === 'undefined') return fallback ?? known;
  // `ttl = ttl || DEFAULT`: a falsy argument takes the default too
  if (orFalsy && fallback && known?.kind === 'value' && !known.value) return fallback;
  return known ?? { kind: 'defined' };
}

/**
 * How the body of `fn` assigns its parameter `id`: `undefined` when it does not; its default when
 * the only assignment is the body's first statement `id = id ?? D` / `id ??= D` (`orFalsy` for
 * `||` / `||=`); `null` for any other assignment.
 */
function assignedDefault(context: AnyContext, fn: FunctionLike, id: TSESTree.Node): { value: TSESTree.Node; orFalsy: boolean } | null | undefined {
  if (id.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context, id);
  const writes = variable ? variable.references.filter((reference) => reference.isWrite() && reference.identifier !== id) : [];
  if (writes.length === 0) return undefined;
  if (writes.length > 1) return null;
  const first = fn.body.type === AST_NODE_TYPES.BlockStatement ? fn.body.body[0] : undefined;
  const assignment = first?.type === AST_NODE_TYPES.ExpressionStatement ? first.expression : undefined;
  if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.left !== writes[0]!.identifier) return null;
  if (assignment.operator === '??=' || assignment.operator === '||=') return { value: assignment.right, orFalsy: assignment.operator === '||=' };
  const right = unwrap(assignment.right);
  if (assignment.operator !== '=' || right.type !== AST_NODE_TYPES.LogicalExpression || (right.operator !== '??' && right.operator !== '||')) return null;
  const left = unwrap(right.left);
  if (left.type !== AST_NODE_TYPES.Identifier || findVariable(context, left) !== variable) return null;
  return { value: right.right, orFalsy: right.operator === '||' };
}

/** The caller's options: its object literal, `undefined` when left out (or `undefined`), else unknown. */
function optionsValue(context: AnyContext, options: TSESTree.Node | undefined): TSESTree.ObjectExpression | undefined | typeof UNKNOWN_VALUE {
  if (!options) return undefined;
  if (options.type === AST_NODE_TYPES.SpreadElement) return UNKNOWN_VALUE;
  const bare = resolveConstExpression(context, options);
  if (bare.type === AST_NODE_TYPES.ObjectExpression) return bare;
  if (bare.type === AST_NODE_TYPES.Identifier && bare.name === 'undefined' && !findVariable(context, bare)) return undefined;
  return UNKNOWN_VALUE;
}

/** Property `name` of an object literal: its value, `undefined` when absent, unknown with a spread or a computed key. */
function propertyOf(object: TSESTree.ObjectExpression, name: string): TSESTree.Node | undefined | typeof UNKNOWN_VALUE {
  let found: TSESTree.Node | undefined;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) return UNKNOWN_VALUE;
    const key = propertyName(property.key, property.computed);
    if (key === undefined) return UNKNOWN_VALUE;
    if (key === name) found = property.value;
  }
  return found;
}

/**
 * The tests a call runs under, inside `fn`: the `if` and conditional expressions around it (each
 * with the arm it sits in), `a && call`, and the early exits before it (`if (t) return ...;`
 * earlier in a block around it: `t` is false). `undefined` when another statement before it may
 * leave the function (a return inside a loop, a `try`).
 */
function pathConditions(fn: FunctionLike, call: TSESTree.Node): Condition[] | undefined {
  const conditions: Condition[] = [];
  let child: TSESTree.Node = call;
  for (let node = call.parent; node && node !== fn; child = node, node = node.parent) {
    switch (node.type) {
      case AST_NODE_TYPES.IfStatement:
      case AST_NODE_TYPES.ConditionalExpression:
        if (child === node.consequent) conditions.push({ test: node.test, holds: true });
        else if (child === node.alternate) conditions.push({ test: node.test, holds: false });
        break;
      case AST_NODE_TYPES.LogicalExpression:
        if (child === node.right) {
          if (node.operator === '??') return undefined;
          conditions.push({ test: node.left, holds: node.operator === '&&' });
        }
        break;
      case AST_NODE_TYPES.BlockStatement:
        for (const statement of node.body) {
          if (statement === child) break;
          if (!exits(statement)) continue;
          if (statement.type !== AST_NODE_TYPES.IfStatement || statement.alternate || !alwaysExits(statement.consequent)) return undefined;
          // an argument check throwing on any of several tests (`if (!key || !ttl) throw ...`): past
          // it every one of them is false, each a guard of its own (a conjunction stays one test)
          if (alwaysThrows(statement.consequent)) conditions.push(...disjuncts(statement.test).map((test) => ({ test, holds: false, guard: true as const })));
          else conditions.push(...disjuncts(statement.test).map((test) => ({ test, holds: false, exit: true as const })));
        }
        break;
      case AST_NODE_TYPES.SwitchStatement:
      case AST_NODE_TYPES.SwitchCase:
      case AST_NODE_TYPES.ForStatement:
      case AST_NODE_TYPES.ForInStatement:
      case AST_NODE_TYPES.ForOfStatement:
      case AST_NODE_TYPES.WhileStatement:
      case AST_NODE_TYPES.DoWhileStatement:
        return undefined;
      default:
        break;
    }
  }
  return conditions;
}

/** Whether a statement may leave the function (a `return` or `throw` in it, nested functions left out). */
function exits(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.ReturnStatement || node.type === AST_NODE_TYPES.ThrowStatement) return true;
  if (node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.ArrowFunctionExpression) return false;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent') continue;
    const children = Array.isArray(value) ? value : [value];
    if (children.some((c) => c && typeof c === 'object' && typeof (c as TSESTree.Node).type === 'string' && exits(c as TSESTree.Node))) return true;
  }
  return false;
}

/** Whether a statement always leaves the function: a `return` / `throw`, or a block ending in one. */
function alwaysExits(node: TSESTree.Statement): boolean {
  if (node.type === AST_NODE_TYPES.ReturnStatement || node.type === AST_NODE_TYPES.ThrowStatement) return true;
  if (node.type !== AST_NODE_TYPES.BlockStatement) return false;
  const last = node.body[node.body.length - 1];
  return last !== undefined && alwaysExits(last) && node.body.slice(0, -1).every((s) => !exits(s));
}

/**
 * The tests of a disjunction, nested ones flattened (`!key || ttl < 0 || ttl > MAX` gives three);
 * any other test is its own only one. Past `if (a || b) throw ...` each of them is false.
 */
function disjuncts(test: TSESTree.Expression): TSESTree.Expression[] {
  const bare = unwrap(test) as TSESTree.Expression;
  if (bare.type !== AST_NODE_TYPES.LogicalExpression || bare.operator !== '||') return [test];
  return [...disjuncts(bare.left), ...disjuncts(bare.right)];
}

/** Whether a statement always throws: a `throw`, or a block ending in one that nothing before leaves. */
function alwaysThrows(node: TSESTree.Statement): boolean {
  if (node.type === AST_NODE_TYPES.ThrowStatement) return true;
  if (node.type !== AST_NODE_TYPES.BlockStatement) return false;
  const last = node.body[node.body.length - 1];
  return last !== undefined && alwaysThrows(last) && node.body.slice(0, -1).every((s) => !exits(s));
}

/**
 * The parameters of `fn` a test reads, and whether one is read by member (`opts.ex`); `undefined`
 * when the test reads anything else than parameters, literals and `undefined` (a call, `this`, a
 * variable).
 */
function parametersRead(context: AnyContext, fn: FunctionLike, test: TSESTree.Node): { params: Set<number>; member: boolean } | undefined {
  const params = new Set<number>();
  let member = false;
  const visit = (input: TSESTree.Node): boolean => {
    const node = unwrap(input);
    switch (node.type) {
      case AST_NODE_TYPES.Literal:
        return true;
      case AST_NODE_TYPES.Identifier: {
        if (node.name === 'undefined' && !findVariable(context, node)) return true;
        const index = parameterIndex(context, fn, node);
        if (index === undefined) return false;
        params.add(index);
        return true;
      }
      case AST_NODE_TYPES.MemberExpression: {
        const object = unwrap(node.object);
        if (object.type !== AST_NODE_TYPES.Identifier || propertyName(node.property, node.computed) === undefined) return false;
        member = true;
        return visit(object);
      }
      case AST_NODE_TYPES.UnaryExpression:
        return (node.operator === '!' || node.operator === 'typeof') && visit(node.argument);
      case AST_NODE_TYPES.LogicalExpression:
        return node.operator !== '??' && visit(node.left) && visit(node.right);
      case AST_NODE_TYPES.BinaryExpression:
        return (['===', '!==', '==', '!='].includes(node.operator) || RELATIONAL.has(node.operator)) && node.left.type !== AST_NODE_TYPES.PrivateIdentifier && visit(node.left) && visit(node.right);
      default:
        return false;
    }
  };
  return visit(test) ? { params, member } : undefined;
}

/** The index of the parameter of `fn` an identifier names (a plain or optional parameter, with or without a default). */
function parameterIndex(context: AnyContext, fn: FunctionLike, node: TSESTree.Identifier): number | undefined {
  const def = findVariable(context, node)?.defs[0];
  if (def?.type !== 'Parameter' || def.node !== fn) return undefined;
  const index = fn.params.findIndex((p) => {
    const inner = p.type === AST_NODE_TYPES.TSParameterProperty ? p.parameter : p;
    return (inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner) === def.name;
  });
  return index < 0 ? undefined : index;
}

/** Whether `node` is the parameter at `param` of `fn`. */
function refersTo(context: AnyContext, node: TSESTree.Node | undefined, fn: FunctionLike, param: number): boolean {
  const bare = node && unwrap(node);
  return bare?.type === AST_NODE_TYPES.Identifier && parameterIndex(context, fn, bare) === param;
}

/** The ordering comparisons a test may make of a number (`ttl > 0`). */
const RELATIONAL = new Set(['>', '>=', '<', '<=']);

/** What a test's operand is for one caller: `undefined`, the options object, a known value, or a value known only to be defined. */
type Operand = { kind: 'undefined' } | { kind: 'object' } | { kind: 'value'; value: string | number | boolean | null } | { kind: 'defined' };

/**
 * Whether a test holds for the caller's options `value` (its object literal, `undefined` when left
 * out): `undefined` when it cannot be told. The test is read in the facade's module (it reads the
 * options parameter alone: {@link parametersRead}); the caller's property values in the caller's
 * `context`.
 */
function truthOf(context: AnyContext, test: TSESTree.Node, value: TSESTree.ObjectExpression | undefined, positional?: Operand): boolean | undefined {
  const operand = (input: TSESTree.Node): Operand | undefined => {
    const node = unwrap(input);
    switch (node.type) {
      case AST_NODE_TYPES.Literal:
        return typeof node.value === 'string' || typeof node.value === 'number' || typeof node.value === 'boolean' || node.value === null ? { kind: 'value', value: node.value } : undefined;
      case AST_NODE_TYPES.Identifier:
        if (node.name === 'undefined') return { kind: 'undefined' };
        if (positional) return positional;
        return value ? { kind: 'object' } : { kind: 'undefined' };
      case AST_NODE_TYPES.MemberExpression: {
        if (positional) return undefined;
        // `opts?.ex` of no options is undefined; `opts.ex` of none throws, which no arm expects
        if (!value) return node.optional || (node.parent?.type === AST_NODE_TYPES.ChainExpression) ? { kind: 'undefined' } : undefined;
        const name = propertyName(node.property, node.computed);
        const found = name === undefined ? UNKNOWN_VALUE : propertyOf(value, name);
        if (found === UNKNOWN_VALUE) return undefined;
        if (found === undefined) return { kind: 'undefined' };
        return literalOf(context, found) ?? { kind: 'defined' };
      }
      default:
        return undefined;
    }
  };
  const truthy = (o: Operand | undefined): boolean | undefined => {
    if (!o) return undefined;
    if (o.kind === 'undefined') return false;
    if (o.kind === 'object') return true;
    if (o.kind === 'value') return Boolean(o.value);
    return undefined;
  };
  const evaluate = (input: TSESTree.Node): boolean | undefined => {
    const node = unwrap(input);
    switch (node.type) {
      case AST_NODE_TYPES.UnaryExpression: {
        if (node.operator !== '!') return undefined;
        const inner = evaluate(node.argument);
        return inner === undefined ? undefined : !inner;
      }
      case AST_NODE_TYPES.LogicalExpression: {
        const left = evaluate(node.left);
        if (node.operator === '&&') return left === false ? false : left === true ? evaluate(node.right) : evaluate(node.right) === false ? false : undefined;
        if (node.operator === '||') return left === true ? true : left === false ? evaluate(node.right) : evaluate(node.right) === true ? true : undefined;
        return undefined;
      }
      case AST_NODE_TYPES.BinaryExpression:
        return compare(node);
      default:
        return truthy(operand(node));
    }
  };
  const compare = (node: TSESTree.BinaryExpression): boolean | undefined => {
    if (node.left.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
    // ttl > 0, opts.ex >= 1: decided for known numbers, and for what JavaScript compares as one
    // (`null` and `false` are 0, `true` 1, `undefined` NaN: `null > 0` is false)
    if (RELATIONAL.has(node.operator)) {
      const a = asNumber(operand(node.left));
      const b = asNumber(operand(node.right));
      if (a === undefined || b === undefined) return undefined;
      return node.operator === '>' ? a > b : node.operator === '>=' ? a >= b : node.operator === '<' ? a < b : a <= b;
    }
    const negated = node.operator === '!==' || node.operator === '!=';
    const loose = node.operator === '==' || node.operator === '!=';
    const left = unwrap(node.left);
    const right = unwrap(node.right);
    // typeof opts.ex === 'number'
    if (left.type === AST_NODE_TYPES.UnaryExpression && left.operator === 'typeof' && right.type === AST_NODE_TYPES.Literal && typeof right.value === 'string') {
      const o = operand(left.argument);
      if (!o) return undefined;
      const type = o.kind === 'undefined' ? 'undefined' : o.kind === 'object' ? 'object' : o.kind === 'value' ? (o.value === null ? 'object' : typeof o.value) : undefined;
      return type === undefined ? undefined : (type === right.value) !== negated;
    }
    const a = operand(left);
    const b = operand(right);
    if (!a || !b) return undefined;
    const nullish = (o: Operand): boolean => o.kind === 'undefined' || (o.kind === 'value' && o.value === null);
    let equal: boolean | undefined;
    if (a.kind === 'value' && b.kind === 'value') equal = loose ? a.value == b.value : a.value === b.value;
    else if (a.kind === 'undefined' || b.kind === 'undefined' || (loose && ((a.kind === 'value' && a.value === null) || (b.kind === 'value' && b.value === null)))) {
      const other = a.kind === 'undefined' || (a.kind === 'value' && a.value === null) ? b : a;
      const against = other === b ? a : b;
      // `x === undefined`: a defined value is not; `x == null`: neither undefined nor null is
      if (other.kind === 'defined') {
        // a property written as a name or call: defined unless it is `undefined` itself, which a caller would not write
        equal = false;
      } else if (loose) equal = nullish(other);
      else equal = other.kind === against.kind && (other.kind !== 'value' || (against.kind === 'value' && other.value === against.value));
    } else return undefined;
    return equal === undefined ? undefined : equal !== negated;
  };
  return evaluate(test);
}

/**
 * The number a relational comparison reads an operand as (ECMAScript ToNumber): a number itself,
 * `null` and `false` 0, `true` 1, `undefined` NaN; `undefined` for anything else (a string, a value
 * only known to be defined).
 */
function asNumber(operand: Operand | undefined): number | undefined {
  if (operand?.kind === 'undefined') return Number.NaN;
  if (operand?.kind !== 'value') return undefined;
  if (typeof operand.value === 'number') return operand.value;
  if (typeof operand.value === 'boolean') return operand.value ? 1 : 0;
  return operand.value === null ? 0 : undefined;
}

/**
 * A caller's property value as a test operand, when its value is known (`60`, `true`, `null`, a
 * `const`, `undefined`, an instance member given one such value at construction and never written
 * again, `private readonly BOOKING_TTL = 600` read as `this.BOOKING_TTL`: instance-constants.ts):
 * `undefined` for any other (then only known to be defined).
 */
function literalOf(context: AnyContext, node: TSESTree.Node): Operand | undefined {
  const argument = unwrap(node);
  const bare = (argument.type === AST_NODE_TYPES.MemberExpression && instanceConstant(context, argument)) || argument;
  // through a `const` of the file (`const NO_TTL = null`) or one a module it imports exports
  // (`import { NO_TTL } from './ttl'`), read in the module that spells it
  const { node: resolved, context: spelled } = constantOf(context, bare);
  if (resolved.type === AST_NODE_TYPES.Literal && resolved.value === null && !('regex' in resolved)) return { kind: 'value', value: null };
  // the global `undefined` (ESLint's builtin globals give it a variable without declaration), not a
  // shadowing one, and `void 0`, also held in a `const` (`const NONE = undefined`)
  if (resolved.type === AST_NODE_TYPES.Identifier && resolved.name === 'undefined' && !findVariable(spelled, resolved)?.defs.length) return { kind: 'undefined' };
  if (resolved !== bare && resolved.type === AST_NODE_TYPES.UnaryExpression && resolved.operator === 'void') return { kind: 'undefined' };
  // a number `const` of the file or of a module it imports (constant.ts), a `false` one too
  const known = staticValue(context, bare) ?? (spelled === context ? undefined : staticValue(spelled, resolved)) ?? constantNumber(context, bare);
  return known === undefined ? undefined : { kind: 'value', value: known };
}

/** The expression a `const` of the file, or one an imported module exports, holds, and the context of its module. */
function constantOf(context: AnyContext, node: TSESTree.Node): { node: TSESTree.Node; context: AnyContext } {
  const resolved = resolveConstExpression(context, node);
  const imported = resolved.type === AST_NODE_TYPES.Identifier ? importedBinding(context, resolved) : undefined;
  const found = imported ? findExport(imported.module, imported.name) : undefined;
  if (!found || found.node.type === AST_NODE_TYPES.FunctionDeclaration || found.node.type === AST_NODE_TYPES.TSEnumDeclaration) return { node: resolved, context };
  return { node: moduleConst(found.module, found.node), context: moduleContext(context, found.module) };
}
