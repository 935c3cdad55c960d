/**
 * The values a parameter or a variable of the linted file is given inside the code, for the
 * unit reading of `redis-calls/ttl-value.ts`: a name such as `expiresAt` says "a point in time"
 * only when nothing says otherwise. `expiresAt: number = 0` reassigned `expiresAt =
 * getEndOfTheDayTimeIST()`, or `let expireAt = getEndOfTheDayTimeIST()`, is what those values
 * are; a function of the code called there is what it returns (`moment(eod).diff(now,
 * 'seconds')`: a duration in seconds).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, returnedExpressions, unwrap, type AnyContext, type ConstantScope } from './static.js';

/**
 * The values the binding `id` names is given in the linted file: a parameter's default, what the
 * calls of its function in this file pass (callers in other modules are not among them) and every
 * plain assignment to it, a variable's initializer and
 * every plain assignment (a `const` has its initializer alone). `undefined` when it is neither
 * (an import, a global, a destructured binding), when a
 * compound assignment (`+=`) or a destructuring writes it, or when it is given no value here.
 */
export function bindingValues(context: AnyContext, id: TSESTree.Identifier): TSESTree.Node[] | undefined {
  const variable = findVariable(context, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def || def.name.type !== AST_NODE_TYPES.Identifier) return undefined;
  const values: TSESTree.Node[] = [];
  if (def.type === 'Parameter') {
    const holder = def.name.parent;
    if (holder?.type === AST_NODE_TYPES.AssignmentPattern && holder.left === def.name) values.push(holder.right);
    // what the function's callers in this file pass there (`setCache(k, v, Date.now() + 60000)`)
    const passed = argumentsPassed(context, def.node, holder?.type === AST_NODE_TYPES.AssignmentPattern ? holder : def.name);
    if (!passed) return undefined;
    values.push(...passed);
  } else if (def.type === 'Variable') {
    if (def.parent?.type !== AST_NODE_TYPES.VariableDeclaration || def.node.id !== def.name) return undefined;
    if (def.node.init) values.push(def.node.init);
  } else return undefined;
  for (const reference of variable.references) {
    if (!reference.isWrite() || reference.identifier === def.name) continue;
    const assignment = reference.identifier.parent;
    if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.operator !== '=' || assignment.left !== reference.identifier) return undefined;
    values.push(assignment.right);
  }
  return values.length > 0 ? values : undefined;
}

/**
 * The arguments the calls of `fn` in the linted file pass for its parameter `param` (none for a
 * call that leaves it out: the default applies). `undefined` when a call spreads its arguments
 * there.
 */
function argumentsPassed(context: AnyContext, fn: TSESTree.Node, param: TSESTree.Node): TSESTree.Node[] | undefined {
  if (fn.type !== AST_NODE_TYPES.FunctionDeclaration && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.ArrowFunctionExpression) return [];
  const index = fn.params.indexOf(param as TSESTree.Parameter);
  const declarator = fn.parent?.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.init === fn ? fn.parent.id : undefined;
  const name = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.id : declarator?.type === AST_NODE_TYPES.Identifier ? declarator : undefined;
  const variable = index >= 0 && name ? findVariable(context, name) : undefined;
  const passed: TSESTree.Node[] = [];
  for (const reference of variable?.references ?? []) {
    const call = reference.identifier.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== reference.identifier) continue;
    const spread = call.arguments.findIndex((argument) => argument.type === AST_NODE_TYPES.SpreadElement);
    if (spread >= 0 && spread <= index) return undefined;
    const argument = call.arguments[index];
    if (argument) passed.push(argument);
  }
  return passed;
}

/**
 * What a call of a function of the code returns (`getEndOfTheDayTimeIST()`, awaited or not: a
 * `const` arrow or function expression of this file or of a module it imports, followed through
 * `scope`): its returned expressions with the scope they are read in; `undefined` for any other
 * call, or a function returning nothing.
 */
export function returnedValues(node: TSESTree.Node, scope: ConstantScope): { nodes: TSESTree.Node[]; scope: ConstantScope } | undefined {
  let bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.AwaitExpression) bare = unwrap(bare.argument);
  if (bare.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(bare.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const resolved = scope.resolve(callee);
  const fn = resolved && unwrap(resolved.node);
  if (!fn || (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.FunctionDeclaration)) return undefined;
  const nodes = returnedExpressions(fn);
  return nodes.length > 0 ? { nodes, scope: resolved.scope } : undefined;
}

/**
 * The one value a `let` / `var` declared without an initializer is given: its single plain
 * assignment (`var key; ... key = util.format('bucket:%d', distance);`), read as a `const`'s
 * initializer would be. `undefined` when the variable has an initializer, is written more than
 * once or otherwise (`+=`, a destructuring, `for...in`), or when the value names the variable
 * itself (`key = key + ':x'`).
 */
export function soleAssignedValue(context: AnyContext, id: TSESTree.Identifier): TSESTree.Node | undefined {
  const variable = findVariable(context, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== 'Variable' || def.node.init || def.node.id !== def.name) return undefined;
  // a `for (var key in o)` / `for (var key of a)` binding is written by its loop
  const loop = def.parent?.parent;
  if ((loop?.type === AST_NODE_TYPES.ForInStatement || loop?.type === AST_NODE_TYPES.ForOfStatement) && loop.left === def.parent) return undefined;
  const values = bindingValues(context, id);
  if (values?.length !== 1) return undefined;
  const [value] = values as [TSESTree.Node];
  const named = variable.references.some((reference) => reference.identifier.range[0] >= value.range[0] && reference.identifier.range[1] <= value.range[1]);
  return named ? undefined : value;
}
