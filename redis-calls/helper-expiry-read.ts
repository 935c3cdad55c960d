/**
 * The reading of a helper handed a MULTI / pipeline and a key that queues their EXPIRE on it
 * (`helper-expiry.ts` says what counts and why): which of its parameters receive the unit and the
 * key, and the TTL as its callers read it. Apart from `helper-expiry.ts` so that `optional-ttl.ts`
 * can read such a helper in the other arm of a TTL test without an import cycle: the test of a
 * TTL the helper's EXPIRE hangs on is handed in ({@link TtlTest}, `optional-ttl.ts`
 * armRunsOnlyWithTtl).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describeCommand, EFFECTS_THAT_EXPIRE_EXISTING_KEY, EFFECTS_THAT_SET_TTL, type CommandArg } from '../semantics/commands.js';
import { functionNamed, methodTargets, type Target } from './facade-targets.js';
import { keyParameter } from './helper-keys.js';
import { clientDetectorOf } from './index.js';
import { encloses, findVariable, propertyName, staticValue, unwrap, walkOwnNodes, type AnyContext, type FunctionLike } from './static.js';

/** One EXPIRE a helper queues on a unit it is given, as its callers see it. */
export interface HelperExpiry {
  /** The index of the argument the helper queues the EXPIRE on (the MULTI / pipeline). */
  unitArg: number;
  /** The index of the argument the helper expires (the key). */
  keyArg: number;
  /**
   * The TTL as the caller reads it: the caller's argument when the helper passes a parameter, the
   * helper's own expression when it reads a member of `this` of the caller's own class, else
   * `undefined` (the helper reads a value of its own).
   */
  ttl: TSESTree.Node | undefined;
}

/**
 * Whether `method` is of the EXPIRE family (EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, however the
 * client spells it): a command that, without options, gives its first key a TTL without writing
 * it (not SET ... EX, SETEX, GETEX, whose second argument is no TTL).
 */
function expiresKey(method: string): boolean {
  return describeCommand(method, []).keys.some((action) => action.arg === 0 && EFFECTS_THAT_EXPIRE_EXISTING_KEY.has(action.effect));
}

/**
 * Whether the arm `arm` of `branch` (an `if`, `?:` or the right of `&&`) runs only when the TTL
 * read from `sources` is given (the branch skips it only when that TTL is absent): `optional-ttl.ts` armRunsOnlyWithTtl.
 */
export type TtlTest = (context: AnyContext, branch: TSESTree.IfStatement | TSESTree.ConditionalExpression | TSESTree.LogicalExpression, arm: TSESTree.Node, sources: readonly TSESTree.Node[]) => boolean;

const cache = new WeakMap<TSESTree.CallExpression, readonly HelperExpiry[]>();

/**
 * The EXPIREs the helper called at `site` queues on a unit it is given (`helper-expiry.ts`): each
 * runs whenever the helper does, or under a test that skips it only when its TTL is absent
 * (`ttlTested`, always `optional-ttl.ts` armRunsOnlyWithTtl); empty when the callee is no such
 * helper. Cached per call site for the lint run.
 */
export function helperExpiriesOf(context: AnyContext, site: TSESTree.CallExpression, ttlTested: TtlTest): readonly HelperExpiry[] {
  const cached = cache.get(site);
  if (cached) return cached;
  const found = site.arguments.length >= 2 ? readHelper(context, site, ttlTested) : [];
  cache.set(site, found);
  return found;
}

/** The one function `site` calls, when the analyzer can tell it. */
function targetOf(context: AnyContext, site: TSESTree.CallExpression): Target | undefined {
  const callee = unwrap(site.callee);
  const detector = clientDetectorOf(context);
  if (callee.type === AST_NODE_TYPES.Identifier) return functionNamed(detector, callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = propertyName(callee.property, callee.computed);
  if (!name) return undefined;
  const targets = methodTargets(detector, callee, name);
  return targets.length === 1 ? targets[0] : undefined;
}

/** The parameter binding at each index of `fn` (`key`, `mode = DEFAULT`), `undefined` for a pattern or rest. */
function parameterIds(fn: FunctionLike): Array<TSESTree.Identifier | undefined> {
  return fn.params.map((param) => {
    if (param.type === AST_NODE_TYPES.Identifier) return param;
    if (param.type === AST_NODE_TYPES.AssignmentPattern && param.left.type === AST_NODE_TYPES.Identifier) return param.left;
    return undefined;
  });
}

function readHelper(context: AnyContext, site: TSESTree.CallExpression, ttlTested: TtlTest): HelperExpiry[] {
  const target = targetOf(context, site);
  if (!target || site.arguments.some((arg) => arg.type === AST_NODE_TYPES.SpreadElement)) return [];
  const { fn, context: helperContext } = target;
  const params = parameterIds(fn);
  const paramIndex = (node: TSESTree.Node): number => {
    const bare = unwrap(node);
    if (bare.type !== AST_NODE_TYPES.Identifier) return -1;
    const variable = findVariable(helperContext, bare);
    return variable ? params.findIndex((param) => param !== undefined && findVariable(helperContext, param) === variable) : -1;
  };
  const givenParameter = (node: TSESTree.Node): number => {
    const parameter = keyParameter(helperContext, node);
    return parameter?.fn === fn ? parameter.index : -1;
  };
  // the EXPIREs queued on a parameter, of a parameter, in the helper's own body
  const expiries: Array<{ node: TSESTree.CallExpression; unitArg: number; keyArg: number }> = [];
  const exits: TSESTree.Node[] = [];
  // an `await` of the helper before its EXPIRE, at a call not awaited, lets the caller go on (and
  // `exec()`) before the EXPIRE is queued: it then lands after the transaction was sent
  const awaits: TSESTree.Node[] = [];
  const awaited = unwrap(site).parent?.type === AST_NODE_TYPES.AwaitExpression;
  walkOwnNodes(fn.body, (node) => {
    if (node.type === AST_NODE_TYPES.ReturnStatement || node.type === AST_NODE_TYPES.ThrowStatement) exits.push(node);
    if (node.type === AST_NODE_TYPES.AwaitExpression || (node.type === AST_NODE_TYPES.ForOfStatement && node.await)) awaits.push(node);
    if (node.type !== AST_NODE_TYPES.CallExpression) return;
    const callee = unwrap(node.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return;
    const method = propertyName(callee.property, callee.computed);
    if (!method || !expiresKey(method)) return;
    // the unit and the key as the caller hands them: a parameter the helper reassigns is another
    // value (`key = `${key}:seen``), which keyParameter already refuses
    const unitArg = givenParameter(callee.object);
    const key = node.arguments[0];
    const keyArg = key ? givenParameter(key) : -1;
    if (unitArg < 0 || keyArg < 0 || unitArg === keyArg || unitArg >= site.arguments.length || keyArg >= site.arguments.length) return;
    // with the options the caller passes: EXPIRE ... XX / GT leaves a key without TTL without one
    const args: CommandArg[] = node.arguments.map((arg, index) => (index < 2 ? undefined : optionValue(context, site, helperContext, fn, paramIndex, arg)));
    const description = describeCommand(method, args);
    if (!description.keys.some((action) => action.arg === 0 && EFFECTS_THAT_SET_TTL.has(action.effect))) return;
    expiries.push({ node, unitArg, keyArg });
  });
  const found: HelperExpiry[] = [];
  for (const expiry of expiries) {
    if (found.some((f) => f.unitArg === expiry.unitArg && f.keyArg === expiry.keyArg)) continue;
    const same = expiries.filter((other) => other.unitArg === expiry.unitArg && other.keyArg === expiry.keyArg).map((other) => other.node);
    // an exit before it (not the `return` that sends it: `return m.expire(key, 60)`)
    if (exits.some((exit) => exit.range[0] < expiry.node.range[0] && !encloses(exit, expiry.node))) continue;
    if (!awaited && fn.async && awaits.some((wait) => wait.range[0] < expiry.node.range[0])) continue;
    if (!runsWheneverHelperDoes(helperContext, fn, expiry.node, same, ttlTested)) continue;
    const ttlNode = expiry.node.arguments[1];
    // the TTL a parameter the caller leaves out (or passes as `undefined` / `null`): no lifetime at
    // all at this call, not a configured one (`queueExpire(tx, key)` over `if (ttl) tx.expire(key, ttl)`)
    if (ttlNode && absentAtCaller(site, fn, paramIndex(ttlNode))) continue;
    found.push({ unitArg: expiry.unitArg, keyArg: expiry.keyArg, ttl: ttlNode ? ttlAtCaller(context, site, helperContext, fn, paramIndex, ttlNode) : undefined });
  }
  return found;
}

/** Whether the caller at `site` leaves the parameter at `index` of `fn` without a value: not passed and without default, or `undefined` / `null`. */
function absentAtCaller(site: TSESTree.CallExpression, fn: FunctionLike, index: number): boolean {
  if (index < 0) return false;
  const passed = site.arguments[index];
  if (!passed) return fn.params[index]?.type !== AST_NODE_TYPES.AssignmentPattern;
  const value = unwrap(passed);
  return (value.type === AST_NODE_TYPES.Identifier && value.name === 'undefined') || (value.type === AST_NODE_TYPES.Literal && value.value === null && !('regex' in value));
}

/** An option of the helper's EXPIRE as the caller sends it: the caller's literal for a parameter (or the parameter's default), else the helper's literal. */
function optionValue(
  context: AnyContext,
  site: TSESTree.CallExpression,
  helperContext: AnyContext,
  fn: FunctionLike,
  paramIndex: (node: TSESTree.Node) => number,
  arg: TSESTree.CallExpressionArgument,
): CommandArg {
  if (arg.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const index = paramIndex(arg);
  if (index < 0) return literal(staticValue(helperContext, arg));
  const passed = site.arguments[index];
  if (passed) return literal(staticValue(context, passed));
  const param = fn.params[index];
  return param?.type === AST_NODE_TYPES.AssignmentPattern ? literal(staticValue(helperContext, param.right)) : undefined;
}

function literal(value: string | number | boolean | undefined): CommandArg {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

/** The helper's TTL expression as the caller reads it (see {@link HelperExpiry.ttl}). */
function ttlAtCaller(
  context: AnyContext,
  site: TSESTree.CallExpression,
  helperContext: AnyContext,
  fn: FunctionLike,
  paramIndex: (node: TSESTree.Node) => number,
  ttl: TSESTree.Node,
): TSESTree.Node | undefined {
  const index = paramIndex(ttl);
  if (index >= 0) {
    const passed = site.arguments[index];
    return passed && passed.type !== AST_NODE_TYPES.SpreadElement ? passed : undefined;
  }
  // `this.lifetime` read by a method of the caller's own class: the same member at the caller
  let root = unwrap(ttl);
  while (root.type === AST_NODE_TYPES.MemberExpression) root = unwrap(root.object);
  if (root.type !== AST_NODE_TYPES.ThisExpression || helperContext.sourceCode.ast !== context.sourceCode.ast) return undefined;
  return classOf(fn) !== undefined && classOf(fn) === classOf(site) ? ttl : undefined;
}

/** The class whose method (or field function) `node` is in. */
function classOf(node: TSESTree.Node): TSESTree.Node | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current.parent;
    if (current.type === AST_NODE_TYPES.FunctionDeclaration || current.type === AST_NODE_TYPES.FunctionExpression) {
      if (current.parent?.type !== AST_NODE_TYPES.MethodDefinition && current.parent?.type !== AST_NODE_TYPES.PropertyDefinition) return undefined;
    }
  }
  return undefined;
}

/** Statements and expressions that run what they hold whenever they run themselves. */
const UNCONDITIONAL = new Set<string>([
  AST_NODE_TYPES.ExpressionStatement,
  AST_NODE_TYPES.AwaitExpression,
  AST_NODE_TYPES.BlockStatement,
  AST_NODE_TYPES.ChainExpression,
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
  AST_NODE_TYPES.ReturnStatement,
]);

/**
 * Whether `expiry` runs whenever the helper `fn` runs (`helper-expiry.ts`): each node above it
 * runs what it holds, or is a branch whose other arm queues one of `same` unconditionally, or
 * whose test skips this arm only when the TTL the EXPIRE passes is absent.
 */
function runsWheneverHelperDoes(context: AnyContext, fn: FunctionLike, expiry: TSESTree.CallExpression, same: readonly TSESTree.Node[], ttlTested: TtlTest): boolean {
  const ttl = expiry.arguments[1];
  for (let node: TSESTree.Node = expiry; node !== fn.body; node = node.parent!) {
    const parent: TSESTree.Node | undefined = node.parent;
    if (!parent) return false;
    if (UNCONDITIONAL.has(parent.type)) continue;
    if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== node) {
      const other = parent.consequent === node ? parent.alternate : parent.consequent;
      if (other && same.some((e) => e !== expiry && encloses(other, e) && unconditionalWithin(other, e))) continue;
      if (ttl && ttl.type !== AST_NODE_TYPES.SpreadElement && ttlTested(context, parent, node, [ttl])) continue;
    }
    // `ttl && m.expire(key, ttl)`: whenever the TTL is given, as `if (ttl)`
    if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.operator === '&&' && parent.right === node) {
      if (ttl && ttl.type !== AST_NODE_TYPES.SpreadElement && ttlTested(context, parent, node, [ttl])) continue;
    }
    return false;
  }
  return true;
}

/** Whether `inner` runs whenever `arm` does: only plain statements between them. */
function unconditionalWithin(arm: TSESTree.Node, inner: TSESTree.Node): boolean {
  for (let node: TSESTree.Node = inner; node !== arm; node = node.parent!) {
    if (!node.parent || !UNCONDITIONAL.has(node.parent.type)) return false;
  }
  return true;
}
