/**
 * TTL-arms helpers of a CommonJS module, read at their callers (round 38). An application's
 * Redis service module often declares plain functions and exports them in one object, guarding
 * its client with early returns before the write:
 *
 * ```js
 * async function setJson(key, value, ttlSeconds = DEFAULT_TTL_SECONDS) {   // redisService.js
 *   const c = ensureClient();
 *   if (!c) return false;                  // no client: nothing is written
 *   try {
 *     if (c.status !== 'ready') return false;
 *     if (ttlSeconds) await c.set(key, JSON.stringify(value), 'EX', ttlSeconds);
 *     else await c.set(key, JSON.stringify(value));
 *     return true;
 *   } catch (err) { return false; }
 * }
 * module.exports = { setJson, getJson };
 * const redisService = require('./redisService');
 * await redisService.setJson(`replay:session:${id}`, session, 0);   // SET replay:session:* without expiry
 * ```
 *
 * Such a function is a method of the module's exports object (`redisService.setJson` calls it as
 * `exports.setJson = async function` would be called), and its early returns only decide whether
 * anything is written. It is read at its callers as its arms (`option-arms.ts`: the arm the
 * caller's TTL argument chooses) and only so: a plain function of the exports object with one
 * write, or arms not chosen by a positional TTL, stays a helper judged where it is
 * (`helper-keys.ts`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { logsOnly } from './pass-through.js';
import { commonJsExportName, findVariable, propertyName, unwrap, type AnyContext, type FunctionLike } from './static.js';

/**
 * Whether `fn` is a function declaration its module exports as a property of its CommonJS
 * exports (`module.exports = { setJson }`, `module.exports = { set: setJson }`, `exports.setJson
 * = setJson`, `module.exports.setJson = setJson`): a method of the object its importers
 * `require`.
 */
export function exportedThroughModuleObject(context: AnyContext, fn: FunctionLike): boolean {
  if (fn.type !== AST_NODE_TYPES.FunctionDeclaration || !fn.id) return false;
  const variable = findVariable(context, fn.id);
  if (!variable) return false;
  return variable.references.some((reference) => {
    const id = reference.identifier;
    const parent = id.parent;
    // exports.setJson = setJson; module.exports.setJson = setJson
    if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === id) return commonJsExportName(parent.left) !== undefined;
    // module.exports = { setJson, set: setJson }
    if (parent?.type !== AST_NODE_TYPES.Property || parent.value !== id || propertyName(parent.key, parent.computed) === undefined) return false;
    const object = parent.parent;
    const assignment = object?.type === AST_NODE_TYPES.ObjectExpression ? object.parent : undefined;
    if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.right !== object) return false;
    const target = unwrap(assignment.left);
    return (
      target.type === AST_NODE_TYPES.MemberExpression &&
      unwrap(target.object).type === AST_NODE_TYPES.Identifier &&
      (unwrap(target.object) as TSESTree.Identifier).name === 'module' &&
      propertyName(target.property, target.computed) === 'exports'
    );
  });
}

/**
 * An early return that only decides whether the function goes on (`if (!c) return false;`, `if
 * (!client) return;`, `if (c.status !== 'ready') return null;`): an `if` with no `else` whose
 * branch is a lone `return` of nothing or of a literal, after statements that only log (`if (!c) {
 * console.warn('redis unavailable'); return false; }`).
 */
export function earlyReturn(statement: TSESTree.Statement): boolean {
  if (statement.type !== AST_NODE_TYPES.IfStatement || statement.alternate) return false;
  const block = statement.consequent.type === AST_NODE_TYPES.BlockStatement ? statement.consequent.body : [statement.consequent];
  const body = block[block.length - 1];
  if (body?.type !== AST_NODE_TYPES.ReturnStatement || !block.slice(0, -1).every(logsOnly)) return false;
  const value = body.argument && unwrap(body.argument);
  return !value || value.type === AST_NODE_TYPES.Literal || (value.type === AST_NODE_TYPES.Identifier && value.name === 'undefined');
}
