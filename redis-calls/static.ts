/**
 * Reading values the linter can know statically: literals, template literals without
 * substitutions, `const` bindings of them declared in the same file, and arithmetic of constant
 * numbers (`23 * 60 * 60`, `Math.floor(WINDOW_MS / 1000)`; {@link foldNumber}).
 */
import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { visitorKeys as typescriptVisitorKeys } from '@typescript-eslint/visitor-keys';
import { MODULE_NAMESPACES } from '../semantics/commands.js';
import parseMs from 'ms';
import { foldArithmetic } from '../semantics/ttl-units.js';

/** A function of any syntax: a declaration, a function expression or an arrow function. */
export type FunctionLike = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

/** The part of a rule context the helpers need (any rule's context fits). */
export type AnyContext = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;

/** Removes wrappers that do not change a value: `x as T`, `x satisfies T`, `x!`, `<T>x`. */
export function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        current = current.expression;
        break;
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** Finds the variable an identifier refers to, or `null` (a global, or no scope information). */
export function findVariable(context: AnyContext, node: TSESTree.Identifier): TSESLint.Scope.Variable | null {
  // getScope already gives the innermost scope; by name, findVariable walks up from it without
  // searching the scope's child scopes for the node (linear in a module's functions, per lookup)
  const scope = context.sourceCode.getScope(node);
  return ASTUtils.findVariable(scope, node.name);
}

/**
 * The initializer of a `const` binding (`const NAME = <init>`) declared once in this file, or of
 * a `let` / `var` whose declaration is its only write (bundlers emit `var` for constants), or
 * `undefined` when the identifier is not such a binding.
 */
export function constInitializer(context: AnyContext, node: TSESTree.Identifier): TSESTree.Expression | undefined {
  const variable = findVariable(context, node);
  if (!variable || variable.defs.length !== 1) return undefined;
  const def = variable.defs[0];
  if (!def || def.type !== 'Variable') return undefined;
  const declarator = def.node;
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) return undefined;
  const id = declarator.id;
  if (def.parent?.kind !== 'const' && variable.references.some((r) => r.isWrite() && r.identifier !== id)) return undefined;
  return declarator.init;
}

/**
 * Follows `const` bindings (at most a few hops) to the expression that gives a value its shape.
 * Returns the unwrapped node itself when it is not a resolvable identifier.
 */
export function resolveConstExpression(context: AnyContext, node: TSESTree.Node, depth = 0): TSESTree.Node {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Identifier && depth < 4) {
    const init = constInitializer(context, bare);
    if (init) return resolveConstExpression(context, init, depth + 1);
  }
  return bare;
}

/**
 * The literal value of an expression when it is statically known: a string or number literal, a
 * template literal without substitutions, a `const` bound to one of those, or arithmetic of
 * constant numbers of this file ({@link foldNumber}: `-60`, `60 * 60`, `Math.floor(MS / 1000)`).
 */
export function staticValue(context: AnyContext, node: TSESTree.Node): string | number | boolean | undefined {
  const bare = resolveConstExpression(context, node);
  switch (bare.type) {
    case AST_NODE_TYPES.Literal:
      if (typeof bare.value === 'string' || typeof bare.value === 'number' || typeof bare.value === 'boolean') {
        return bare.value;
      }
      return undefined;
    case AST_NODE_TYPES.TemplateLiteral:
      return bare.expressions.length === 0 ? (bare.quasis[0]?.value.cooked ?? undefined) : undefined;
    case AST_NODE_TYPES.UnaryExpression:
    case AST_NODE_TYPES.BinaryExpression:
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.MemberExpression:
      return foldNumber(bare, sameFileConstants(context));
    default:
      return undefined;
  }
}

/**
 * Where the identifiers of a constant expression lead: the linted file (scope analysis), or the
 * top level of a module it imports (`redis-calls/constant.ts`).
 */
export interface ConstantScope {
  /** The expression a `const` name stands for, and the scope that expression is read in. */
  resolve(id: TSESTree.Identifier): { node: TSESTree.Node; scope: ConstantScope } | undefined;
  /** `NS.NAME` of a namespace import (`import * as limits from './limits'`), when the scope knows one. */
  member?(object: TSESTree.Identifier, name: string): { node: TSESTree.Node; scope: ConstantScope } | undefined;
  /**
   * `this.ttl` (or `self.ttl`, `self` bound to `this`) of an instance member fixed at construction,
   * when the scope knows one (`redis-calls/instance-constants.ts`): the one value it is given.
   */
  instanceMember?(member: TSESTree.MemberExpression): { node: TSESTree.Node; scope: ConstantScope } | undefined;
  /** Whether a name is the global one (`Math` not shadowed). */
  isGlobal(id: TSESTree.Identifier): boolean;
  /** The package a name is the default import of (`import ms from 'ms'`, `const ms = require('ms')`), when the scope knows. */
  packageOf?(id: TSESTree.Identifier): string | undefined;
  /** The source text of a node of this scope. */
  text(node: TSESTree.Node): string;
}

const sameFileScopes = new WeakMap<TSESLint.SourceCode, ConstantScope>();

/** The {@link ConstantScope} of the linted file alone: its `const` bindings, no imports. */
export function sameFileConstants(context: AnyContext): ConstantScope {
  let scope = sameFileScopes.get(context.sourceCode);
  if (!scope) {
    const own: ConstantScope = {
      resolve(id) {
        const init = constInitializer(context, id);
        return init ? { node: init, scope: own } : undefined;
      },
      isGlobal: (id) => (findVariable(context, id)?.defs.length ?? 0) === 0,
      packageOf: (id) => defaultImportOf(context, id),
      text: (node) => context.sourceCode.getText(node),
    };
    scope = own;
    sameFileScopes.set(context.sourceCode, scope);
  }
  return scope;
}

/**
 * The module specifier a name is the default import of: `import ms from 'ms'`, `import * as ms
 * from 'ms'` (CommonJS interop), `const ms = require('ms')`. `undefined` for any other binding.
 */
export function defaultImportOf(context: AnyContext, id: TSESTree.Identifier): string | undefined {
  const variable = findVariable(context, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return undefined;
  if (def.type === 'ImportBinding') {
    const declaration = def.parent;
    const kind = def.node.type;
    const source = declaration?.type === AST_NODE_TYPES.ImportDeclaration ? declaration.source.value : undefined;
    return kind === AST_NODE_TYPES.ImportDefaultSpecifier || kind === AST_NODE_TYPES.ImportNamespaceSpecifier ? source : undefined;
  }
  if (def.type !== 'Variable' || def.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  const init = def.node.init ? unwrap(def.node.init) : undefined;
  if (init?.type !== AST_NODE_TYPES.CallExpression || init.callee.type !== AST_NODE_TYPES.Identifier || init.callee.name !== 'require') return undefined;
  const specifier = init.arguments[0];
  return specifier?.type === AST_NODE_TYPES.Literal && typeof specifier.value === 'string' ? specifier.value : undefined;
}

/**
 * The milliseconds of a duration written for the `ms` package (`ms('24h')`, `ms('2 days')`,
 * https://github.com/vercel/ms), parsed by that package; `undefined` when it is no duration.
 */
export function msDuration(text: string): number | undefined {
  const value = (parseMs as unknown as (text: string) => number | undefined)(text);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** `Math` functions a constant TTL is computed with. */
const MATH_FUNCTIONS: Readonly<Record<string, (...values: number[]) => number>> = {
  floor: Math.floor,
  ceil: Math.ceil,
  round: Math.round,
  trunc: Math.trunc,
  abs: Math.abs,
  max: Math.max,
  min: Math.min,
};

/**
 * The value of a constant number expression, as JavaScript computes it: number literals, unary
 * `-` / `+`, `+ - * / % **`, `Math.floor` / `ceil` / `round` / `trunc` / `abs` / `max` / `min`,
 * `Number(...)`, `ms('24h')` of the `ms` package (in milliseconds), `const` names (through `scope`: `const HOUR = 60 * 60`), properties of `const` object
 * literals, nested too, that nothing writes (`TTL.SESSION`, `TIME.cache.ttl`: {@link resolveMember}),
 * namespace imports the scope knows, and instance members fixed at construction when the scope
 * knows them (`this.ttl`). `undefined` when any part is not a constant, or the result is not finite.
 */
export function foldNumber(node: TSESTree.Node, scope: ConstantScope, depth = 0): number | undefined {
  if (depth > 12) return undefined;
  const bare = unwrap(node);
  switch (bare.type) {
    case AST_NODE_TYPES.Literal:
      return typeof bare.value === 'number' ? bare.value : undefined;
    case AST_NODE_TYPES.UnaryExpression: {
      if (bare.operator !== '-' && bare.operator !== '+') return undefined;
      const inner = foldNumber(bare.argument, scope, depth + 1);
      return inner === undefined ? undefined : bare.operator === '-' ? -inner : inner;
    }
    case AST_NODE_TYPES.BinaryExpression: {
      if (bare.left.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
      const a = foldNumber(bare.left, scope, depth + 1);
      const b = a === undefined ? undefined : foldNumber(bare.right, scope, depth + 1);
      if (a === undefined || b === undefined) return undefined;
      if (bare.operator === '%') return b === 0 ? undefined : a % b;
      return foldArithmetic(bare.operator, a, b);
    }
    case AST_NODE_TYPES.Identifier: {
      const resolved = scope.resolve(bare);
      return resolved ? foldNumber(resolved.node, resolved.scope, depth + 1) : undefined;
    }
    case AST_NODE_TYPES.MemberExpression: {
      const resolved = resolveMember(bare, scope, depth + 1);
      return resolved ? foldNumber(resolved.node, resolved.scope, depth + 1) : undefined;
    }
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(bare.callee);
      // `ms('24h')` of the `ms` package: 86400000
      if (callee.type === AST_NODE_TYPES.Identifier && bare.arguments.length === 1 && scope.packageOf?.(callee) === 'ms') {
        const text = bare.arguments[0]!.type === AST_NODE_TYPES.Literal ? bare.arguments[0]!.value : undefined;
        return typeof text === 'string' ? msDuration(text) : undefined;
      }
      let fn: ((...values: number[]) => number) | undefined;
      if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Number' && scope.isGlobal(callee) && bare.arguments.length === 1) fn = Number;
      if (
        callee.type === AST_NODE_TYPES.MemberExpression &&
        callee.object.type === AST_NODE_TYPES.Identifier &&
        callee.object.name === 'Math' &&
        scope.isGlobal(callee.object)
      ) {
        const name = propertyName(callee.property, callee.computed);
        fn = name === undefined || !Object.hasOwn(MATH_FUNCTIONS, name) ? undefined : MATH_FUNCTIONS[name];
      }
      if (!fn || bare.arguments.length === 0) return undefined;
      const values: number[] = [];
      for (const argument of bare.arguments) {
        if (argument.type === AST_NODE_TYPES.SpreadElement) return undefined;
        const value = foldNumber(argument, scope, depth + 1);
        if (value === undefined) return undefined;
        values.push(value);
      }
      const out = fn(...values);
      return Number.isFinite(out) ? out : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The expression a member read stands for, and the scope it is read in: an instance member the
 * scope knows fixed at construction (`this.ttl`: {@link ConstantScope.instanceMember}), or a
 * property, nested or not, of a `const` object literal of the file or of an imported module
 * (`TTL.SESSION`, `TIME.cache.ttl`, `limits.LIMITS.lockSeconds`, `CONFIG[0]`), also written `{ ... }
 * as const` or `Object.freeze({ ... })`. Not a property of an object declared with `let`, nor one
 * the program writes (`TTL.SESSION = 0`, `TTL.cache.ttl++`, `delete TTL.x`, `TTL[k] = v`,
 * `Object.assign(TTL, ...)`, anywhere in the file holding the object or in the one reading it),
 * nor one an object spread after it may replace, nor a getter. `undefined` otherwise.
 */
export function resolveMember(member: TSESTree.MemberExpression, scope: ConstantScope, depth = 0): { node: TSESTree.Node; scope: ConstantScope } | undefined {
  const own = scope.instanceMember?.(member);
  if (own) return own;
  const path: string[] = [];
  let current: TSESTree.Node = member;
  while (current.type === AST_NODE_TYPES.MemberExpression) {
    const name = memberPathName(current);
    if (name === undefined) return undefined;
    path.unshift(name);
    current = unwrap(current.object);
  }
  return current.type === AST_NODE_TYPES.Identifier ? valueAtPath(current, scope, path, depth) : undefined;
}

/** `x` of `a.x`, `'x'` of `a['x']`, `'0'` of `a[0]`; `undefined` for any other computed member. */
function memberPathName(member: TSESTree.MemberExpression): string | undefined {
  if (member.computed && member.property.type === AST_NODE_TYPES.Literal && typeof member.property.value === 'number') return String(member.property.value);
  return propertyName(member.property, member.computed);
}

/**
 * The value at `path` (property names, outermost first) below `node`, following `const` names,
 * members and imports, under {@link resolveMember}'s conditions (no `let` object, no property the
 * program writes).
 */
export function valueAtPath(node: TSESTree.Node, scope: ConstantScope, path: readonly string[], depth = 0): { node: TSESTree.Node; scope: ConstantScope } | undefined {
  if (depth > 12) return undefined;
  const bare = unwrap(node);
  if (path.length === 0) return { node: bare, scope };
  switch (bare.type) {
    case AST_NODE_TYPES.Identifier: {
      if (writesPath(bare, bare.name, path)) return undefined;
      const viaNamespace = scope.member?.(bare, path[0]!);
      if (viaNamespace) return valueAtPath(viaNamespace.node, viaNamespace.scope, path.slice(1), depth + 1);
      const resolved = scope.resolve(bare);
      return resolved ? valueAtPath(resolved.node, resolved.scope, path, depth + 1) : undefined;
    }
    case AST_NODE_TYPES.MemberExpression: {
      const resolved = resolveMember(bare, scope, depth + 1);
      return resolved ? valueAtPath(resolved.node, resolved.scope, path, depth + 1) : undefined;
    }
    case AST_NODE_TYPES.CallExpression: {
      // Object.freeze({ ... }): the object itself
      const callee = unwrap(bare.callee);
      const frozen =
        callee.type === AST_NODE_TYPES.MemberExpression &&
        callee.object.type === AST_NODE_TYPES.Identifier &&
        callee.object.name === 'Object' &&
        scope.isGlobal(callee.object) &&
        propertyName(callee.property, callee.computed) === 'freeze';
      const argument = bare.arguments[0];
      return frozen && argument && argument.type !== AST_NODE_TYPES.SpreadElement ? valueAtPath(argument, scope, path, depth + 1) : undefined;
    }
    case AST_NODE_TYPES.ObjectExpression:
    case AST_NODE_TYPES.ArrayExpression: {
      const declarator = declaratorOf(bare);
      if (declarator) {
        if (declarator.parent.kind === 'let') return undefined; // a `let` object may be another object by then
        if (declarator.id.type === AST_NODE_TYPES.Identifier && writesPath(declarator.id, declarator.id.name, path)) return undefined;
      }
      if (bare.type === AST_NODE_TYPES.ObjectExpression && writesItself(bare)) return undefined;
      const value = ownValue(bare, path[0]!);
      return value ? valueAtPath(value, scope, path.slice(1), depth + 1) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Whether an object literal has a setter, or a method (not an arrow) that reads `this`: calling
 * it, or assigning the setter's property, may write any property of the object.
 */
function writesItself(literal: TSESTree.ObjectExpression): boolean {
  return literal.properties.some((property) => {
    if (property.type !== AST_NODE_TYPES.Property) return false;
    if (property.kind === 'set') return true;
    const fn = property.value;
    if (fn.type !== AST_NODE_TYPES.FunctionExpression) return false;
    return walkWithKeys(typescriptVisitorKeys, fn.body, (node) => (node.type === AST_NODE_TYPES.ThisExpression ? 'stop' : isFunctionNode(node) && node.type !== AST_NODE_TYPES.ArrowFunctionExpression ? 'skip' : undefined));
  });
}

/** The declaration an object or array literal initialises (through `as const`, `satisfies`, `Object.freeze(...)`). */
function declaratorOf(literal: TSESTree.Node): TSESTree.VariableDeclarator | undefined {
  let current: TSESTree.Node = literal;
  for (let hops = 0; hops < 6 && current.parent; hops++) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.VariableDeclarator) return parent.init === current ? parent : undefined;
    const wraps =
      parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      parent.type === AST_NODE_TYPES.TSTypeAssertion ||
      (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === current);
    if (!wraps) return undefined;
    current = parent;
  }
  return undefined;
}

/**
 * The value an object literal gives property `key` (the last one written, as JavaScript keeps),
 * or an array literal element `key`; `undefined` for a getter or method, or when a spread after
 * it (or any spread, when the key is not written) may give another value.
 */
function ownValue(container: TSESTree.ObjectExpression | TSESTree.ArrayExpression, key: string): TSESTree.Node | undefined {
  if (container.type === AST_NODE_TYPES.ArrayExpression) {
    if (!/^\d+$/.test(key) || container.elements.some((element) => element?.type === AST_NODE_TYPES.SpreadElement)) return undefined;
    return container.elements[Number(key)] ?? undefined;
  }
  let found: TSESTree.Node | undefined;
  for (const property of container.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) found = undefined;
    else if (property.computed && propertyName(property.key, true) === undefined) found = undefined; // [k]: any key
    else if (propertyName(property.key, property.computed) === key) found = property.kind === 'init' && !property.method ? property.value : undefined;
  }
  return found;
}

/** A write of a member chain: the name it starts from (`'this'` for `this`), its property names (`'*'`: computed), the member written. */
export interface MemberWrite {
  root: string | undefined;
  path: string[];
  /** The member written (`TTL.a` of `TTL.a = 1`), or the object given to `Object.assign` / `defineProperty`. */
  node: TSESTree.Node;
  /** The value of a plain `=`; absent for `+=`, `++`, `delete`, destructuring and `Object.assign`. */
  value?: TSESTree.Node;
  /**
   * Not a write: the object at `path` escapes (given to another name, an argument, the receiver
   * of a method call), so anything strictly below `path` may be written through it.
   */
  escapes?: true;
}

/** A program's member writes, and the same with its escapes ({@link escapeOf}) by the name they start from. */
interface ProgramWrites {
  writes: MemberWrite[];
  byRoot: Map<string, MemberWrite[]>;
}

const programWrites = new WeakMap<TSESTree.Node, ProgramWrites>();

/**
 * Every write of a member in a program (the linted file's or an imported module's): assignments
 * (`=`, `+=`, ...), `++` / `--`, `delete`, destructuring and `for (... of ...)` targets, and the
 * object given to `Object.assign` / `Object.defineProperty` / `Object.defineProperties` (all its
 * properties). Computed once per program, in source order. An imported module has no rule
 * context, so the walk takes typescript-estree's visitor keys, which cover every ESTree node too.
 */
export function memberWritesOf(program: TSESTree.Node): MemberWrite[] {
  return writesOfProgram(program).writes;
}

function writesOfProgram(program: TSESTree.Node): ProgramWrites {
  const cached = programWrites.get(program);
  if (cached) return cached;
  const writes: MemberWrite[] = [];
  const byRoot = new Map<string, MemberWrite[]>();
  const add = (write: MemberWrite, list?: MemberWrite[]): void => {
    list?.push(write);
    if (write.root === undefined) return;
    const same = byRoot.get(write.root);
    if (same) same.push(write);
    else byRoot.set(write.root, [write]);
  };
  walkWithKeys(typescriptVisitorKeys, program, (node) => {
    if (node.type === AST_NODE_TYPES.MemberExpression) {
      const written = writeOf(node);
      if (written) add({ ...chainOf(node), node, ...(written.value ? { value: written.value } : {}) }, writes);
    } else if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(node.callee);
      const target = node.arguments[0];
      const mutator = callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'Object' && /^(?:assign|defineProperty|defineProperties)$/.test(propertyName(callee.property, callee.computed) ?? '');
      if (mutator && target && target.type !== AST_NODE_TYPES.SpreadElement) {
        const bare = unwrap(target);
        if (bare.type === AST_NODE_TYPES.Identifier) add({ root: bare.name, path: [], node: bare }, writes);
        else if (bare.type === AST_NODE_TYPES.ThisExpression) add({ root: 'this', path: [], node: bare }, writes);
        else if (bare.type === AST_NODE_TYPES.MemberExpression) add({ ...chainOf(bare), node: bare }, writes);
      }
    } else if (node.type === AST_NODE_TYPES.Identifier) {
      const escape = escapeOf(node);
      // an object that escapes may be written through what it escapes to: everything below it
      if (escape) add({ root: node.name, path: escape, node, escapes: true });
    }
  });
  const result = { writes, byRoot };
  programWrites.set(program, result);
  return result;
}

/** Functions that read their arguments and keep no reference to them (`Math.floor(TTL.a)`, `Object.keys(TTL)`). */
const READS_ARGUMENTS = /^(?:Math\.\w+|Number|String|Boolean|BigInt|parseInt|parseFloat|isNaN|isFinite|Array\.isArray|Object\.(?:keys|values|entries|freeze|isFrozen|hasOwn|getOwnPropertyNames)|JSON\.stringify|console\.\w+|ms)$/;

/**
 * Where the value read from `id`, a reference to a name, escapes to something that could write
 * it: the path of the member chain read (`[]` for the name itself, `['grace']` for
 * `const inner = A.grace`), or `undefined` when the read only uses it (an operand, a test, a
 * key, an argument of a function that keeps nothing, `TTL.a` itself). Escapes: given to another
 * name, an argument, a property or element, returned, or the receiver of a method call
 * (`A.list.push(x)`, `A.configure(60)` may write through `this`).
 */
function escapeOf(id: TSESTree.Identifier): string[] | undefined {
  const parent = id.parent;
  if (!parent || !isReference(id, parent)) return undefined;
  const path: string[] = [];
  let chain: TSESTree.Node = id;
  while (chain.parent?.type === AST_NODE_TYPES.MemberExpression && chain.parent.object === chain) {
    path.push(memberPathName(chain.parent) ?? '*');
    chain = chain.parent;
  }
  // the chain's value passes unchanged through casts, `a || b`, `c ? a : b`, `(x, a)`, `await a`
  let top: TSESTree.Node = chain;
  let user: TSESTree.Node | undefined = top.parent;
  while (user && (PASSES_VALUE.has(user.type) || (user.type === AST_NODE_TYPES.ConditionalExpression && user.test !== top) || (user.type === AST_NODE_TYPES.SequenceExpression && user.expressions.at(-1) === top))) {
    top = user;
    user = user.parent;
  }
  if (!user || exported(top, user)) return undefined;
  switch (user.type) {
    case AST_NODE_TYPES.BinaryExpression:
    case AST_NODE_TYPES.UnaryExpression:
    case AST_NODE_TYPES.UpdateExpression:
    case AST_NODE_TYPES.TemplateLiteral:
    case AST_NODE_TYPES.IfStatement:
    case AST_NODE_TYPES.WhileStatement:
    case AST_NODE_TYPES.DoWhileStatement:
    case AST_NODE_TYPES.SwitchStatement:
    case AST_NODE_TYPES.SwitchCase:
    case AST_NODE_TYPES.ExpressionStatement:
    case AST_NODE_TYPES.ForInStatement:
    case AST_NODE_TYPES.ForOfStatement:
      return undefined;
    case AST_NODE_TYPES.MemberExpression:
      return user.property === top ? undefined : path;
    case AST_NODE_TYPES.AssignmentExpression:
      if (user.left === top) return undefined; // a write is recorded as one
      // `({ a } = TTL)`: as a destructuring declaration below
      return user.left.type === AST_NODE_TYPES.ObjectPattern ? [...path, '*'] : path;
    case AST_NODE_TYPES.VariableDeclarator:
      // `const { session } = TTL`: each property's value is taken out, so only what lies below a
      // property (an object held in it) may be written through it
      return user.id.type === AST_NODE_TYPES.ObjectPattern ? [...path, '*'] : path;
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression: {
      // the receiver of a method call: `this` in it is the object holding the method
      if (user.callee === top) return path.length > 0 ? path.slice(0, -1) : undefined;
      const callee = unwrap(user.callee);
      const calleeName = callee.type === AST_NODE_TYPES.Identifier ? callee.name : callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier ? `${callee.object.name}.${propertyName(callee.property, callee.computed) ?? ''}` : undefined;
      return user.type === AST_NODE_TYPES.CallExpression && calleeName !== undefined && READS_ARGUMENTS.test(calleeName) ? undefined : path;
    }
    default:
      return path;
  }
}

/**
 * Whether `value` is what the module exports (`export default X`, `module.exports = { X }`,
 * `exports.X = X`): writes by importers are not seen anyway (nor those through `export { X }`),
 * and counting the export as an escape would stop every CommonJS constants module from folding.
 */
function exported(value: TSESTree.Node, user: TSESTree.Node): boolean {
  if (user.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
  let target: TSESTree.Node = user;
  if (user.type === AST_NODE_TYPES.Property && user.value === value && user.parent?.type === AST_NODE_TYPES.ObjectExpression) {
    const holder = user.parent.parent;
    if (holder?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
    if (!holder) return false;
    target = holder;
  }
  if (target.type !== AST_NODE_TYPES.AssignmentExpression || target.left === value) return false;
  const left = unwrap(target.left);
  const { root, path } = left.type === AST_NODE_TYPES.MemberExpression ? chainOf(left) : { root: undefined, path: [] };
  return (root === 'module' && path[0] === 'exports' && path.length <= 2) || (root === 'exports' && path.length === 1);
}

/** Nodes whose value is their operand's, unchanged. */
const PASSES_VALUE: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
  AST_NODE_TYPES.TSSatisfiesExpression,
  AST_NODE_TYPES.TSTypeAssertion,
  AST_NODE_TYPES.LogicalExpression,
  AST_NODE_TYPES.AwaitExpression,
  AST_NODE_TYPES.ChainExpression,
]);

/** Whether an identifier reads a name where it stands (not a declaration, a key, a property name, a label or a type). */
function isReference(id: TSESTree.Identifier, parent: TSESTree.Node): boolean {
  switch (parent.type) {
    case AST_NODE_TYPES.MemberExpression:
      return parent.object === id || parent.computed;
    case AST_NODE_TYPES.Property:
      return parent.value === id && !(parent.parent?.type === AST_NODE_TYPES.ObjectPattern);
    case AST_NODE_TYPES.VariableDeclarator:
      return parent.init === id;
    case AST_NODE_TYPES.AssignmentPattern:
      return parent.right === id;
    case AST_NODE_TYPES.PropertyDefinition:
    case AST_NODE_TYPES.MethodDefinition:
      return parent.value === id || (parent.computed && parent.key === id);
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression:
    case AST_NODE_TYPES.ArrayExpression:
    case AST_NODE_TYPES.SpreadElement:
    case AST_NODE_TYPES.ReturnStatement:
    case AST_NODE_TYPES.ArrowFunctionExpression:
    case AST_NODE_TYPES.AssignmentExpression:
    case AST_NODE_TYPES.LogicalExpression:
    case AST_NODE_TYPES.ConditionalExpression:
    case AST_NODE_TYPES.SequenceExpression:
    case AST_NODE_TYPES.AwaitExpression:
    case AST_NODE_TYPES.YieldExpression:
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.TSSatisfiesExpression:
    case AST_NODE_TYPES.TSTypeAssertion:
    case AST_NODE_TYPES.ExportDefaultDeclaration:
    case AST_NODE_TYPES.JSXExpressionContainer:
    case AST_NODE_TYPES.TaggedTemplateExpression:
    case AST_NODE_TYPES.ThrowStatement:
      return true;
    default:
      return false;
  }
}

/** Whether a member is written where it stands (and with which value, for a plain `=`). */
function writeOf(member: TSESTree.MemberExpression): { value?: TSESTree.Node } | undefined {
  let child: TSESTree.Node = member;
  let parent = member.parent;
  // (TTL.a as number) = 1, TTL.a! = 1
  while (parent && (parent.type === AST_NODE_TYPES.TSAsExpression || parent.type === AST_NODE_TYPES.TSNonNullExpression || parent.type === AST_NODE_TYPES.TSSatisfiesExpression || parent.type === AST_NODE_TYPES.TSTypeAssertion)) {
    child = parent;
    parent = parent.parent;
  }
  if (!parent) return undefined;
  switch (parent.type) {
    case AST_NODE_TYPES.AssignmentExpression:
      return parent.left === child ? (parent.operator === '=' ? { value: parent.right } : {}) : undefined;
    case AST_NODE_TYPES.UpdateExpression:
      return {};
    case AST_NODE_TYPES.UnaryExpression:
      return parent.operator === 'delete' ? {} : undefined;
    case AST_NODE_TYPES.ForInStatement:
    case AST_NODE_TYPES.ForOfStatement:
      return parent.left === child ? {} : undefined;
    case AST_NODE_TYPES.ArrayPattern:
    case AST_NODE_TYPES.RestElement:
      return {};
    case AST_NODE_TYPES.AssignmentPattern:
      return (parent.left as TSESTree.Node) === child ? {} : undefined;
    case AST_NODE_TYPES.Property:
      return parent.value === child && parent.parent?.type === AST_NODE_TYPES.ObjectPattern ? {} : undefined;
    default:
      return undefined;
  }
}

/** The name a member chain starts from (`'this'` for `this`) and its property names, `'*'` for a computed one. */
function chainOf(member: TSESTree.MemberExpression): { root: string | undefined; path: string[] } {
  const path: string[] = [];
  let current: TSESTree.Node = member;
  while (current.type === AST_NODE_TYPES.MemberExpression) {
    path.unshift(current.property.type === AST_NODE_TYPES.PrivateIdentifier ? `#${current.property.name}` : (memberPathName(current) ?? '*'));
    current = unwrap(current.object);
  }
  const root = current.type === AST_NODE_TYPES.Identifier ? current.name : current.type === AST_NODE_TYPES.ThisExpression ? 'this' : undefined;
  return { root, path };
}

/**
 * Whether the program holding `at` writes `name` along `path`, or a property on the way to it or
 * below it (`TTL.cache = {...}` and `TTL.cache.ttl.x = 1` both touch `TTL.cache.ttl`). By name:
 * a local of the same name written elsewhere counts too.
 */
function writesPath(at: TSESTree.Node, name: string, path: readonly string[]): boolean {
  let program: TSESTree.Node = at;
  while (program.parent) program = program.parent;
  return (writesOfProgram(program).byRoot.get(name) ?? []).some((write) => {
    if (write.escapes && write.path.length >= path.length) return false; // a value read, not an object holding it
    const shared = Math.min(write.path.length, path.length);
    for (let i = 0; i < shared; i++) if (write.path[i] !== '*' && path[i] !== '*' && write.path[i] !== path[i]) return false;
    return true;
  });
}

/** The value of property `key` of an object literal, or element `key` of an array literal. */
export function pick(container: TSESTree.Node, key: string): TSESTree.Node | undefined {
  if (container.type === AST_NODE_TYPES.ObjectExpression) {
    for (const property of container.properties) {
      if (property.type === AST_NODE_TYPES.Property && propertyName(property.key, property.computed) === key) return property.value;
    }
    return undefined;
  }
  if (container.type === AST_NODE_TYPES.ArrayExpression && /^\d+$/.test(key)) {
    const element = container.elements[Number(key)];
    return element && element.type !== AST_NODE_TYPES.SpreadElement ? element : undefined;
  }
  return undefined;
}

/**
 * The value of a number literal, or of a negated one (`60`, `-1`); `undefined` for anything else
 * (no `const` followed: {@link foldNumber} does that).
 */
export function numberLiteral(node: TSESTree.Node): number | undefined {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Literal && typeof bare.value === 'number') return bare.value;
  if (bare.type === AST_NODE_TYPES.UnaryExpression && bare.operator === '-') {
    const inner = numberLiteral(bare.argument);
    return inner === undefined ? undefined : -inner;
  }
  return undefined;
}

const SWAPPED_COMPARISONS: Readonly<Record<string, string>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '===': '===', '==': '==', '!==': '!==', '!=': '!=' };

/**
 * The comparison operator that says the same with its operands swapped (`a < b` is `b > a`;
 * equality operators are their own); `undefined` for any other operator.
 */
export function swappedComparison(operator: string): string | undefined {
  return Object.hasOwn(SWAPPED_COMPARISONS, operator) ? SWAPPED_COMPARISONS[operator] : undefined;
}

/** The name of a non-computed property key or member property (`a.b`, `{ b: 1 }`, `{ 'b': 1 }`). */
export function propertyName(node: TSESTree.Node, computed = false): string | undefined {
  if (node.type === AST_NODE_TYPES.Identifier && !computed) return node.name;
  if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') return node.value;
  if (node.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
  return undefined;
}

/** The name a reference ends with: `logger` for `logger`, `logger` for `this.logger`, `second` for `TIME_MS.second`. */
export function referenceName(node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  return node.type === AST_NODE_TYPES.MemberExpression ? propertyName(node.property, node.computed) : undefined;
}

/** Whether `inner`'s source range lies within `outer`'s (the node itself counts: a node encloses itself). */
export function encloses(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** The nearest function (declaration, expression or arrow) around a node; `undefined` at top level. */
export function enclosingFunction(node: TSESTree.Node): TSESTree.Node | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (
      current.type === 'FunctionDeclaration' ||
      current.type === 'FunctionExpression' ||
      current.type === 'ArrowFunctionExpression'
    ) {
      return current;
    }
  }
  return undefined;
}

/**
 * The outermost function enclosing `node` (`undefined` at a module's top level): for code written
 * only in unnamed callbacks (an Express route handler `router.post('/x', (req, res) => { ... })`),
 * the operation a write belongs to.
 */
export function outermostFunction(node: TSESTree.Node): FunctionLike | undefined {
  let found: TSESTree.Node | undefined;
  for (let fn = enclosingFunction(node); fn; fn = enclosingFunction(fn)) found = fn;
  return found as FunctionLike | undefined;
}

/**
 * Whether the write `write` and the later call `later` belong to one unnamed callback, in code
 * written only in unnamed callbacks ({@link outermostFunction}): the function of one of them
 * encloses the other (`router.post('/x', async () => { hset(k); await x.then(() => expire(k)) })`,
 * `await Promise.all(fields.map((f) => hset(k, f, v))); await expire(k)`). Two handlers one plugin
 * function registers (`export default async (app) => { app.post('/a', ...); app.post('/b', ...)
 * }`) share their outermost function, not an operation.
 */
export function inCallbackOf(write: TSESTree.Node, later: TSESTree.Node): boolean {
  const [own, other] = [enclosingFunction(write), enclosingFunction(later)];
  return (own !== undefined && encloses(own, later)) || (other !== undefined && encloses(other, write));
}

/** What a {@link walk} callback returns: nothing to go on, `'skip'` not to enter the node's children, `'stop'` to end the walk. */
export type WalkStep = void | 'skip' | 'stop';

/** Limits of a {@link walk}. */
export interface WalkOptions {
  /**
   * Source offsets `[start, end)`: a node (with its subtree) is visited only when its range
   * overlaps them (it ends after `start` and starts before `end`); `-Infinity` / `Infinity` leave a
   * side open.
   */
  range?: readonly [start: number, end: number];
  /**
   * Functions below the root (declarations, expressions, arrows) are visited but not entered:
   * their parameters and bodies are skipped. The root itself is always entered.
   */
  skipFunctions?: boolean;
}

/**
 * Visits `root` and every node below it, depth first in source order (a node before its children,
 * the children in the order of the parser's visitor keys, `context.sourceCode.visitorKeys`, so
 * type annotations and decorators too), calling `visit` once per node. `visit` returns `'skip'`
 * not to enter a node's children, `'stop'` to end the walk. Iterative: any depth of nesting.
 * The one tree walk of the analysis (ESLint and typescript-estree's `simpleTraverse` cannot skip a
 * subtree or stop early). Returns `true` when `visit` stopped the walk.
 */
export function walk(context: AnyContext, root: TSESTree.Node, visit: (node: TSESTree.Node) => WalkStep, options: WalkOptions = {}): boolean {
  return walkWithKeys(context.sourceCode.visitorKeys, root, visit, options);
}

/**
 * {@link walk} over a tree parsed outside the linted file (a module read from disk with
 * @typescript-eslint/parser), with typescript-estree's visitor keys; same `visit` steps and
 * options. Returns `true` when `visit` stopped the walk.
 */
export function walkParsed(root: TSESTree.Node, visit: (node: TSESTree.Node) => WalkStep, options: WalkOptions = {}): boolean {
  return walkWithKeys(typescriptVisitorKeys, root, visit, options);
}

/** `walk` with the visitor keys given: for a tree parsed outside the linted file (an imported module). */
function walkWithKeys(visitorKeys: Readonly<Record<string, readonly string[] | undefined>>, root: TSESTree.Node, visit: (node: TSESTree.Node) => WalkStep, options: WalkOptions = {}): boolean {
  const keys = visitorKeys;
  const [start, end] = options.range ?? [-Infinity, Infinity];
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.range[1] <= start || node.range[0] >= end) continue;
    const step = visit(node);
    if (step === 'stop') return true;
    if (step === 'skip') continue;
    if (options.skipFunctions && node !== root && isFunctionNode(node)) continue;
    const childKeys = keys[node.type] ?? [];
    for (let k = childKeys.length - 1; k >= 0; k--) {
      const value = (node as unknown as Record<string, unknown>)[childKeys[k]!];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) if (isNodeValue(value[i])) stack.push(value[i] as TSESTree.Node);
      } else if (isNodeValue(value)) stack.push(value);
    }
  }
  return false;
}

function isNodeValue(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function isFunctionNode(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/**
 * Visits the nodes of a function body without entering nested non-arrow functions and classes
 * (arrows are entered when `arrows` is set: they share `this`); at most 20,000 nodes.
 */
export function walkOwnNodes(root: TSESTree.Node, visit: (node: TSESTree.Node) => void, arrows = false): void {
  const stack: TSESTree.Node[] = [root];
  let budget = 20_000;
  while (stack.length > 0 && budget-- > 0) {
    const node = stack.pop()!;
    visit(node);
    for (const key of Object.keys(node) as Array<keyof typeof node>) {
      if (key === 'parent') continue;
      const value = node[key] as unknown;
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) {
        if (!child || typeof child !== 'object' || typeof (child as { type?: unknown }).type !== 'string') continue;
        const type = (child as TSESTree.Node).type;
        if (
          type === AST_NODE_TYPES.FunctionDeclaration ||
          type === AST_NODE_TYPES.FunctionExpression ||
          type === AST_NODE_TYPES.ClassDeclaration ||
          type === AST_NODE_TYPES.ClassExpression ||
          (type === AST_NODE_TYPES.ArrowFunctionExpression && !arrows)
        ) {
          continue;
        }
        stack.push(child as TSESTree.Node);
      }
    }
  }
}

/**
 * The namespace member of a node-redis module command (`client.json` in `client.json.set(...)`,
 * `multi.ts` in `multi.ts.add(...)`): a non-computed member named like one of Redis 8's types'
 * namespaces (`semantics/commands.ts` `MODULE_NAMESPACES`), else `undefined`.
 */
export function moduleNamespaceOf(callee: TSESTree.MemberExpression): (TSESTree.MemberExpression & { property: TSESTree.Identifier }) | undefined {
  const object = unwrap(callee.object);
  if (object.type !== AST_NODE_TYPES.MemberExpression || object.computed || object.property.type !== AST_NODE_TYPES.Identifier) return undefined;
  return Object.hasOwn(MODULE_NAMESPACES, object.property.name) ? (object as TSESTree.MemberExpression & { property: TSESTree.Identifier }) : undefined;
}

/**
 * Whether a value written to variable `name` is a method call on that variable itself, directly or
 * at the start of a chain (`tx.set(k, v)`, `tx.set(k, v).expire(k, 60)`, `await tx.incr(k)`): a
 * batch's queued commands return the batch, so `tx = tx.set(k, v)` keeps what `tx` was.
 */
export function isCallOnItself(value: TSESTree.Node, name: string): boolean {
  let current = unwrap(value);
  for (let depth = 0; depth < 200; depth++) {
    if (current.type === AST_NODE_TYPES.AwaitExpression) current = unwrap(current.argument);
    else if (current.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(current.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
      current = unwrap(callee.object);
    } else break;
    if (current.type === AST_NODE_TYPES.Identifier) return current !== value && current.name === name;
  }
  return false;
}

/** The expressions a function returns (its own `return` statements, not those of nested functions). */
export function returnedExpressions(fn: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression): TSESTree.Node[] {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return [fn.body];
  const out: TSESTree.Node[] = [];
  walkOwnNodes(fn.body, (node) => {
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) out.push(node.argument);
  });
  return out;
}

/**
 * Whether `later` sits in a statement that follows one enclosing `node` in the same block (so it
 * runs after `node` whenever that block goes on), or in a later element, argument or operand of an
 * expression that evaluates them all in order (`Promise.all([redis.incr(k), redis.expire(k, 60)])`),
 * not on another branch of an `if` or `?:`.
 */
export function followsOnItsPath(node: TSESTree.Node, later: TSESTree.Node): boolean {
  const laterIn = (siblings: readonly (TSESTree.Node | null)[], child: TSESTree.Node): boolean =>
    siblings.slice(siblings.indexOf(child) + 1).some((sibling) => sibling !== null && encloses(sibling, later));
  for (let child: TSESTree.Node = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'BlockStatement' || parent.type === 'Program' || parent.type === 'StaticBlock') {
      if (laterIn(parent.body as readonly TSESTree.Node[], child)) return true;
    }
    if (parent.type === 'ArrayExpression' && laterIn(parent.elements, child)) return true;
    if (parent.type === 'SequenceExpression' && laterIn(parent.expressions, child)) return true;
    if ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && parent.callee !== child && laterIn(parent.arguments, child)) return true;
    if (parent.type.startsWith('Function') || parent.type === 'ArrowFunctionExpression') return false;
  }
  return false;
}

/** The name a function is called by: its declaration, method, property or `const`. */
export function functionName(fn: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression): string | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id?.name;
  const parent = fn.parent;
  if (!parent) return undefined;
  if (parent.type === AST_NODE_TYPES.MethodDefinition || parent.type === AST_NODE_TYPES.Property) {
    return propertyName(parent.key, parent.computed);
  }
  if (parent.type === AST_NODE_TYPES.PropertyDefinition) return propertyName(parent.key, parent.computed);
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  // CommonJS: `exports.hset = function (...) {...}`, `module.exports.hset = ...`
  if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.right === fn) return commonJsExportName(parent.left);
  return undefined;
}

/** The name `exports.NAME` / `module.exports.NAME` assigns, else `undefined`. */
export function commonJsExportName(target: TSESTree.Node): string | undefined {
  if (target.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = target.object;
  const isExports =
    (object.type === AST_NODE_TYPES.Identifier && object.name === 'exports') ||
    (object.type === AST_NODE_TYPES.MemberExpression &&
      object.object.type === AST_NODE_TYPES.Identifier &&
      object.object.name === 'module' &&
      propertyName(object.property, object.computed) === 'exports');
  return isExports ? propertyName(target.property, target.computed) : undefined;
}

/** `require('...')`. */
export function isRequire(node: TSESTree.Node): boolean {
  const call = unwrap(node);
  return call.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'require';
}

/**
 * The module a `require('<module>')` call names (a string literal), else `undefined`; seen through
 * bluebird's `promisifyAll(require('redis'))`, which returns the module it was given.
 */
export function requiredModule(node: TSESTree.Node): string | undefined {
  const call = unwrap(promisifyAllArgument(node) ?? node);
  if (!isRequire(call)) return undefined;
  const source = (call as TSESTree.CallExpression).arguments[0];
  return source?.type === AST_NODE_TYPES.Literal && typeof source.value === 'string' ? source.value : undefined;
}

/**
 * The argument of a `promisifyAll(x)` / `X.promisifyAll(x, options)` call (bluebird's, which adds
 * promisified methods to `x` and returns it), else `undefined`. Syntax only.
 */
export function promisifyAllArgument(node: TSESTree.Node): TSESTree.Node | undefined {
  const call = unwrap(node);
  if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments.length === 0) return undefined;
  const callee = unwrap(call.callee);
  const name = callee.type === AST_NODE_TYPES.Identifier ? callee.name : callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee.property, callee.computed) : undefined;
  return name === 'promisifyAll' && call.arguments[0]!.type !== AST_NODE_TYPES.SpreadElement ? call.arguments[0] : undefined;
}

/**
 * A statement that always leaves the enclosing block: `return`, `throw`, a block ending in one, or
 * an `if` / `else` both of whose arms do (`if (typeof type === 'string') { ...; return set(k, v,
 * type, t); } else { ...; return set(k, v, 'PX', type); }`).
 */
export function alwaysExits(statement: TSESTree.Node): boolean {
  if (statement.type === 'ReturnStatement' || statement.type === 'ThrowStatement') return true;
  if (statement.type === 'IfStatement') return statement.alternate !== null && alwaysExits(statement.consequent) && alwaysExits(statement.alternate);
  if (statement.type === 'BlockStatement') {
    const last = statement.body[statement.body.length - 1];
    return last !== undefined && alwaysExits(last);
  }
  return false;
}

/** Whether `node` is a loop statement (`for`, `for ... in`, `for ... of`, `while`, `do ... while`). */
export function isLoop(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.ForStatement ||
    node.type === AST_NODE_TYPES.ForInStatement ||
    node.type === AST_NODE_TYPES.ForOfStatement ||
    node.type === AST_NODE_TYPES.WhileStatement ||
    node.type === AST_NODE_TYPES.DoWhileStatement
  );
}

/**
 * The variable an awaited call's reply is declared with (`const room = await redis.hgetall(k)`,
 * through type assertions around the call): its identifier, or `undefined` when the reply is not
 * awaited into a declaration of its own. `constOnly`: only a `const`; otherwise any declaration
 * nothing assigns again (its initialiser is no reassignment).
 */
export function awaitedReplyVariable(context: AnyContext, call: TSESTree.Node, constOnly = false): TSESTree.Identifier | undefined {
  let node: TSESTree.Node = call;
  while (node.parent && unwrap(node.parent) !== node.parent) node = node.parent;
  const awaited = node.parent;
  if (awaited?.type !== AST_NODE_TYPES.AwaitExpression) return undefined;
  const declarator = awaited.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== awaited || declarator.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (constOnly) return declarator.parent?.type === AST_NODE_TYPES.VariableDeclaration && declarator.parent.kind === 'const' ? declarator.id : undefined;
  const variable = findVariable(context, declarator.id);
  return variable && !variable.references.some((r) => r.isWrite() && !r.init) ? declarator.id : undefined;
}

/** `process.env` of the global `process`. */
export function isProcessEnv(context: AnyContext, node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.MemberExpression || propertyName(node.property, node.computed) !== 'env') return false;
  const object = unwrap(node.object);
  return object.type === AST_NODE_TYPES.Identifier && object.name === 'process' && (findVariable(context, object)?.defs.length ?? 0) === 0;
}
