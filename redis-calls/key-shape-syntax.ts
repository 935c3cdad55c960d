/**
 * Syntax the key-shape reading (`key-shape.ts`) asks about and that needs no shape itself: which
 * array methods iterate, keep or fill their receiver's elements, which definitions are the element
 * of an iteration (`for...of`, a callback's element parameter), which parameters configure a
 * factory's instances, and which callees stand for configuration. Split from `key-shape.ts` (at
 * its 1,200-line bound) without a change of behaviour.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { returnExpressions } from './key-builders.js';
import { filledWithMethods } from './key-parts.js';
import { REQUEST_INPUT_NAME } from './names.js';
import { findVariable, propertyName, unwrap, type AnyContext } from './static.js';

/** Array methods that call their callback with each element (`reduce`: as the second parameter). */
export const ITERATION_METHODS: ReadonlyMap<string, number> = new Map([
  ...['forEach', 'map', 'flatMap', 'filter', 'some', 'every', 'find', 'findIndex', 'findLast', 'findLastIndex'].map((m) => [m, 0] as const),
  ['reduce', 1],
  ['reduceRight', 1],
]);

/** Array methods whose result holds elements of their receiver only. */
export const SAME_ELEMENTS_METHODS: ReadonlySet<string> = new Set(['filter', 'slice', 'reverse', 'sort', 'toSorted', 'toReversed']);

/**
 * `receiver.forEach(callback)` (or `map`, `flatMap`, `filter`, `reduce`, ...) where `callback` is
 * the given node: the array iterated and which parameter of the callback is its element.
 */
export function iterationOf(call: TSESTree.CallExpression, callback: TSESTree.Node): { receiver: TSESTree.Node; elementParam: number } | undefined {
  if (call.arguments[0] !== callback) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = propertyName(callee.property, callee.computed);
  const elementParam = method === undefined ? undefined : ITERATION_METHODS.get(method);
  return elementParam === undefined ? undefined : { receiver: callee.object, elementParam };
}

/** Whether a definition is the element of an iteration: the variable of a `for...of`, or the element parameter of a callback written at `forEach` / `map` / .... */
export function iterationElement(def: TSESLint.Scope.Definition): boolean {
  if (forOfLoop(def)) return true;
  if (def.type !== 'Parameter') return false;
  const fn = def.node;
  if ((fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.ArrowFunctionExpression) || fn.parent?.type !== AST_NODE_TYPES.CallExpression) return false;
  const iteration = iterationOf(fn.parent, fn);
  return iteration !== undefined && fn.params[iteration.elementParam] === def.name;
}

/** The `for (const x of <right>)` that declares a variable, if that is its definition. */
export function forOfLoop(def: TSESLint.Scope.Definition): TSESTree.ForOfStatement | undefined {
  if (def.type !== 'Variable' || def.node.init || def.node.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  const loop = def.parent?.parent;
  return loop?.type === AST_NODE_TYPES.ForOfStatement && loop.left === def.parent ? loop : undefined;
}

/** The `for (const { a, b: c } of <right>)` whose pattern binds a variable as a property of the element itself (not a nested one). */
export function destructuredForOf(def: TSESLint.Scope.Definition): TSESTree.ForOfStatement | undefined {
  if (def.type !== 'Variable' || def.node.init || def.node.id.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  const loop = def.parent?.parent;
  if (loop?.type !== AST_NODE_TYPES.ForOfStatement || loop.left !== def.parent) return undefined;
  const direct = def.node.id.properties.some((property) => {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) return false;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    return value === def.name;
  });
  return direct ? loop : undefined;
}

/** Methods that add elements to an array in place: an array they are called on is not read (`containers.ts`, where a container's arrays are read too). */
export { MUTATING_METHODS } from './containers.js';

/**
 * A callee that stands for configuration rather than data: a function or method reached from
 * `this` or from a binding of the module's top level (`this.connection.key`, `keys.stat`, `key`).
 */
export function configuredCallee(context: AnyContext, callee: TSESTree.Node): boolean {
  let root = unwrap(callee);
  while (root.type === AST_NODE_TYPES.MemberExpression && !root.computed) root = unwrap(root.object);
  if (root.type === AST_NODE_TYPES.ThisExpression) return true;
  if (root.type !== AST_NODE_TYPES.Identifier) return false;
  const scope = findVariable(context, root)?.scope;
  // the module's top level (ES module, CommonJS wrapper, or script)
  return scope !== undefined && (scope.type === 'module' || scope.type === 'global' || scope.block.type === 'Program');
}

/** How many characters of a shape are known (not `*`). */
export function literalLength(text: string): number {
  return text.replace(/\*/g, '').length;
}

/**
 * Whether a parameter is a factory's configuration: the function returns an object literal with
 * a method or function property (`return { async set(key) {...} }`, also through a `const` it
 * returns) or a function, and never assigns the parameter. What the returned functions write
 * with it is one key per instance the factory makes, like a class member fixed in its constructor.
 */
export function factoryParameter(variable: TSESLint.Scope.Variable, fn: TSESTree.Node): boolean {
  if (fn.type !== AST_NODE_TYPES.FunctionDeclaration && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.ArrowFunctionExpression) return false;
  if (variable.references.some((reference) => reference.isWrite() && !reference.init && !defaultsItself(reference.identifier, variable.name))) return false;
  if (calledWithCallersData(variable, fn)) return false;
  return returnExpressions(fn).some((expression) => makesInstance(expression, 0, variable.scope));
}

/**
 * Whether a call of the function declaration `fn` in this file passes, for the parameter
 * `variable`, a request handler's input (`app.post('/', (req) => forUser(req.body))`: a
 * parameter named as request input, `names.ts` REQUEST_INPUT_NAME, or a member of one): an
 * instance made per request, its options the caller's data (a user's id), not the configuration
 * of the few instances a program sets up.
 */
function calledWithCallersData(variable: TSESLint.Scope.Variable, fn: TSESTree.FunctionLike): boolean {
  if (fn.type !== AST_NODE_TYPES.FunctionDeclaration || !fn.id) return false;
  const index = fn.params.findIndex((param) => param === variable.defs[0]?.name || (param.type === AST_NODE_TYPES.AssignmentPattern && param.left === variable.defs[0]?.name));
  const declared = variable.scope.upper?.set.get(fn.id.name);
  if (index < 0 || !declared) return false;
  return declared.references.some((reference) => {
    const call = reference.identifier.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== reference.identifier) return false;
    let root: TSESTree.Node | undefined = call.arguments[index];
    while (root?.type === AST_NODE_TYPES.MemberExpression || root?.type === AST_NODE_TYPES.ChainExpression || root?.type === AST_NODE_TYPES.TSNonNullExpression) root = root.type === AST_NODE_TYPES.MemberExpression ? root.object : root.expression;
    if (root?.type !== AST_NODE_TYPES.Identifier) return false;
    for (let scope: TSESLint.Scope.Scope | null = reference.from; scope; scope = scope.upper) {
      const found = scope.set.get(root.name);
      // a request handler's input (req.body, ctx.request): data; a wrapper's own configuration
      // parameter (function init(config) { return create(config); }) stays configuration
      if (found) return REQUEST_INPUT_NAME.test(root.name) && found.defs.some((def) => def.type === 'Parameter');
    }
    return false;
  });
}

/**
 * Whether a write of a parameter only gives it an empty default: `options = options || {}`,
 * `options = options ?? {}`, `options ||= {}`, `options ??= {}` (the idiom of code written
 * before default parameters). The options are still the caller's.
 */
function defaultsItself(identifier: TSESTree.Node, name: string): boolean {
  const assignment = identifier.parent;
  if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.left !== identifier) return false;
  const emptyObject = (node: TSESTree.Node) => {
    const value = unwrap(node);
    return value.type === AST_NODE_TYPES.ObjectExpression && value.properties.length === 0;
  };
  if (assignment.operator === '||=' || assignment.operator === '??=') return emptyObject(assignment.right);
  const right = unwrap(assignment.right);
  return (
    assignment.operator === '=' &&
    right.type === AST_NODE_TYPES.LogicalExpression &&
    right.operator !== '&&' &&
    unwrap(right.left).type === AST_NODE_TYPES.Identifier &&
    (unwrap(right.left) as TSESTree.Identifier).name === name &&
    emptyObject(right.right)
  );
}

/**
 * An object literal with a function property, a function or a class; or a `const` bound to one.
 * Within a factory `fn`, a property may name a function the factory declares (`function
 * scheduleJob() {...}; return { scheduleJob, close }`).
 */
function makesInstance(input: TSESTree.Node, depth: number, factoryScope?: TSESLint.Scope.Scope): boolean {
  const node = unwrap(input);
  switch (node.type) {
    case AST_NODE_TYPES.ArrowFunctionExpression:
    case AST_NODE_TYPES.FunctionExpression:
    case AST_NODE_TYPES.ClassExpression:
      return true;
    case AST_NODE_TYPES.ObjectExpression:
      return node.properties.some((property) => {
        if (property.type !== AST_NODE_TYPES.Property) return false;
        const value = unwrap(property.value);
        if (value.type === AST_NODE_TYPES.FunctionExpression || value.type === AST_NODE_TYPES.ArrowFunctionExpression) return true;
        return value.type === AST_NODE_TYPES.Identifier && factoryScope !== undefined && declaresFunction(factoryScope, value);
      });
    case AST_NODE_TYPES.Identifier: {
      if (depth > 0) return false;
      // const handler = { ... }; return handler;
      let scope: TSESTree.Node | undefined = node.parent;
      while (scope && scope.type !== AST_NODE_TYPES.BlockStatement && scope.type !== AST_NODE_TYPES.Program) scope = scope.parent;
      if (scope?.type !== AST_NODE_TYPES.BlockStatement) return false;
      for (const statement of scope.body) {
        if (statement.type !== AST_NODE_TYPES.VariableDeclaration || statement.kind !== 'const') continue;
        for (const declarator of statement.declarations) {
          // const provider = {}; Object.assign(provider, impl); return provider;
          if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === node.name && declarator.init) return makesInstance(declarator.init, depth + 1) || filledWithMethods(scope, node.name);
        }
      }
      return false;
    }
    default:
      return false;
  }
}

/**
 * Whether `name` (a returned shorthand) is, where it is written, a function the factory's body
 * declares at its top level (`factoryScope`, the scope of its parameters): a function declaration
 * or a `const` bound to a function expression or arrow, never written again. A name that resolves
 * to another binding (a block's `const hit = options.n` shadowing `function hit`) or a declared
 * function replaced by a value (`hit = options.n`) is not one.
 */
function declaresFunction(factoryScope: TSESLint.Scope.Scope, name: TSESTree.Identifier): boolean {
  const variable = factoryScope.set.get(name.name);
  if (!variable || variable.defs.length !== 1 || !variable.references.some((reference) => reference.identifier === name)) return false;
  if (variable.references.some((reference) => reference.isWrite() && !reference.init)) return false;
  const def = variable.defs[0]!;
  if (def.type === 'FunctionName') return def.node.type === AST_NODE_TYPES.FunctionDeclaration;
  if (def.type !== 'Variable' || def.parent?.kind !== 'const' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return false;
  const init = unwrap(def.node.init);
  return init.type === AST_NODE_TYPES.FunctionExpression || init.type === AST_NODE_TYPES.ArrowFunctionExpression;
}
