/**
 * Lists of keys the code builds once and walks: a helper returning every key of a record
 * (`sessionKeys(id)` returning `[kState(id), kPlayers(id), kGamestate(id)]`), walked to give each a
 * TTL:
 *
 * ```ts
 * for (const key of sessionKeys(id)) pipeline.pexpire(key, ttlMs);
 * sessionKeys(id).forEach((key) => multi.expire(key, ttl));
 * ```
 *
 * The key the loop's body names is each element of the list in turn; the rules read the elements'
 * shapes (`session:*:gamestate`), so the file is known to give those key families a TTL, as if it
 * named each. A list is an array literal, a `const` holding one, or a call of a function of the
 * file or an imported one whose body returns one (an arrow's expression, or its one `return`).
 * Anything else (a list filled at run time, a function with several returns) names no key here.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { importedBinding, moduleContext, topLevelDeclaration } from './modules.js';
import { constInitializer, findVariable, returnedExpressions, unwrap, walkOwnNodes, type AnyContext } from './static.js';

/** An element of a key list, with the context its shape is read in (the module that spells it). */
export interface ListedKey {
  context: AnyContext;
  node: TSESTree.Node;
}

/** Array methods that call their callback with every element as its first argument (not `some` / `every`, which stop early). */
const EACH_ELEMENT = new Set(['forEach', 'map', 'flatMap', 'filter']);

/**
 * The keys the identifier `id` takes in turn when it is the variable of `for (const id of LIST)`
 * or the first parameter of a `LIST.forEach((id) => ...)` (also `map`, `flatMap` ...), LIST a key
 * list (see the module comment); empty otherwise.
 */
export function iteratedKeys(context: AnyContext, id: TSESTree.Identifier): ListedKey[] {
  const def = findVariable(context, id)?.defs[0];
  if (!def) return [];
  if (def.type === 'Variable') {
    const declaration = def.parent;
    const loop = declaration?.parent;
    if (loop?.type === AST_NODE_TYPES.ForOfStatement && loop.left === declaration && def.node.id.type === AST_NODE_TYPES.Identifier) return keyList(context, loop.right, 0);
    return [];
  }
  if (def.type !== 'Parameter') return [];
  const fn = def.node;
  if ((fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression) || fn.params[0] !== def.name) return [];
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== fn) return [];
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.property.type !== AST_NODE_TYPES.Identifier || !EACH_ELEMENT.has(callee.property.name)) return [];
  return keyList(context, callee.object, 0);
}

/**
 * The keys a spread argument names (`del(...sessionKeys(id))`, `unlink(...keys)`): the elements of
 * the key list it spreads ({@link iteratedKeys}); empty when it is none.
 */
export function spreadKeys(context: AnyContext, node: TSESTree.SpreadElement): ListedKey[] {
  return keyList(context, node.argument, 0);
}

/** The elements of the key list `node` ({@link iteratedKeys}); empty when it is none. */
function keyList(context: AnyContext, node: TSESTree.Node, depth: number): ListedKey[] {
  if (depth > 3) return [];
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.ArrayExpression) {
    return bare.elements.flatMap((element) => (element && element.type !== AST_NODE_TYPES.SpreadElement ? [{ context, node: element }] : []));
  }
  if (bare.type === AST_NODE_TYPES.Identifier) {
    const init = constInitializer(context, bare);
    return init ? keyList(context, init, depth + 1) : [];
  }
  if (bare.type !== AST_NODE_TYPES.CallExpression) return [];
  const callee = unwrap(bare.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return [];
  const imported = importedBinding(context, callee);
  if (imported) {
    const declared = topLevelDeclaration(imported.module.program, imported.name);
    const returned = declared && returnedList(declared);
    return returned ? keyList(moduleContext(context, imported.module), returned, depth + 1) : [];
  }
  const def = findVariable(context, callee)?.defs[0];
  const fn = def?.type === 'FunctionName' ? def.node : def?.type === 'Variable' && def.node.init ? unwrap(def.node.init) : undefined;
  const returned = fn && returnedList(fn);
  return returned ? keyList(context, returned, depth + 1) : [];
}

/** The array literal a function returns: an arrow's expression body, or the one `return` of its body (a function with another `return`, nested or bare, returns something else too). */
function returnedList(fn: TSESTree.Node): TSESTree.ArrayExpression | undefined {
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.FunctionDeclaration) return undefined;
  let returns = 0;
  if (fn.body.type === AST_NODE_TYPES.BlockStatement) {
    walkOwnNodes(fn.body, (node) => {
      if (node.type === AST_NODE_TYPES.ReturnStatement) returns++;
    });
  }
  const values = returnedExpressions(fn);
  const value = values.length === 1 && (fn.body.type !== AST_NODE_TYPES.BlockStatement || returns === 1) ? unwrap(values[0]!) : undefined;
  return value?.type === AST_NODE_TYPES.ArrayExpression ? value : undefined;
}
