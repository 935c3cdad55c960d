/**
 * Calls of a module of the code through its namespace, whose method is a function of the code:
 *
 * ```js
 * const redis = require('./redis.js');       // exports.incr = function (table, id, n) {
 * await redis.incr('user_xp', id, gain);     //   return ... client.zincrby(table, n, id, cb) ... }
 * ```
 *
 * `redis.incr(...)` runs the function `./redis.js` exports as `incr`, not a client's INCR, however
 * the receiver is named (`clientNames` matches `redis`): what it sends is read in that function
 * (`redis-calls/facades.ts` reads it at the call as the command it forwards). The receiver must be
 * an import of the module as a whole (`import * as redis`, `const redis = require('./redis')`,
 * a default import of a CommonJS module) of a module of the code, and the export named by the
 * method a function written there (`exports.incr = function`, `export function incr`); an export
 * that is a client (`exports.client = createClient()`) or a client's own method bound to it stays
 * a client call. A module another module of the code passes on as one of its values
 * (`const { redisSetter } = require('./redis')` of `module.exports = { redisSetter:
 * require('./redisSetter') }`) counts as imported whole ({@link passedOnExport}). One module read, cached per call by the caller (`index.ts` redisCallsOf).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { ClientDetector } from './clients.js';
import { ownSpecifier, type ImportOrigin } from './client-syntax.js';
import { commonJsExportName, constInitializer, propertyName, requiredModule, unwrap } from './static.js';

/**
 * Whether `node` (`x.m(...)`) calls the function a module of the code exports as `m`, `x` being
 * an import of that whole module (see the module comment).
 * @param detector the client detector of the calling file
 * @param node a call expression of that file
 */
export function callsOwnModuleFunction(detector: ClientDetector, node: TSESTree.CallExpression): boolean {
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = unwrap(callee.object);
  const name = propertyName(callee.property, callee.computed);
  if (object.type !== AST_NODE_TYPES.Identifier || name === undefined) return false;
  const origin = detector.identifierOrigin(object);
  if (origin.kind !== 'import' || !origin.own) return false;
  const whole = origin.namespace || origin.imported === undefined;
  const exported = whole ? detector.exported({ ...origin, namespace: undefined, imported: name }) : passedOnExport(detector, origin, name);
  if (!exported) return false;
  const value = unwrap(exported.node);
  const fn: TSESTree.Node | { body?: unknown } | undefined = value.type === AST_NODE_TYPES.Identifier ? exported.detector.functionOf(value) : value;
  if (!fn || !('type' in fn)) return false;
  const isFunction = fn.type === AST_NODE_TYPES.FunctionDeclaration || fn.type === AST_NODE_TYPES.FunctionExpression || fn.type === AST_NODE_TYPES.ArrowFunctionExpression;
  return isFunction && fn.body !== null && fn.body !== undefined;
}

/**
 * What the module of the code that another module exports as a value (`module.exports = {
 * redisSetter: require('./redisSetter') }`, or a `const` holding that `require`) exports as
 * `name`, reached through `origin`, the import of that value (`const { redisSetter } =
 * require('./redis')`): the module passed on stands for an import of it as a whole. Else
 * `undefined` (a default import, a value that is no plain `require` of the code).
 */
export function passedOnExport(detector: ClientDetector, origin: ImportOrigin, name: string): ReturnType<ClientDetector['exported']> {
  if (origin.namespace || origin.imported === undefined || origin.imported === 'default') return undefined;
  const exported = detector.exported(origin);
  if (!exported) return undefined;
  let value = unwrap(exported.node);
  if (value.type === AST_NODE_TYPES.Identifier) value = unwrap(constInitializer(exported.detector.contextOf, value) ?? value);
  // a plain `require(...)`, not what a call makes of it (`promisifyAll(require('redis'))`)
  const source = value.type === AST_NODE_TYPES.CallExpression && unwrap(value.callee).type === AST_NODE_TYPES.Identifier ? requiredModule(value) : undefined;
  const module = exported.detector.contextOf;
  if (source === undefined || !ownSpecifier(module.physicalFilename ?? module.filename, source)) return undefined;
  return exported.detector.exported({ source, own: true, imported: name });
}

/**
 * Whether `fn` is a CommonJS export that a later top-level statement of its module exports again
 * under the same name (`exports.incr = function (key, n) {...}` then `exports.incr = function
 * (table, id, n) {...}`): the later one replaces it before any caller can run it, so nothing
 * calls it.
 */
export function overwrittenExport(fn: TSESTree.Node): boolean {
  const assignment = fn.parent;
  if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.right !== fn) return false;
  const name = commonJsExportName(assignment.left);
  const statement = assignment.parent;
  const program = statement?.parent;
  if (name === undefined || statement?.type !== AST_NODE_TYPES.ExpressionStatement || program?.type !== AST_NODE_TYPES.Program) return false;
  return program.body.slice(program.body.indexOf(statement) + 1).some((later) => {
    const expression = later.type === AST_NODE_TYPES.ExpressionStatement ? later.expression : undefined;
    return expression?.type === AST_NODE_TYPES.AssignmentExpression && commonJsExportName(expression.left) === name && !readsExport(expression.right, name);
  });
}

/** Whether `node` reads the export `name` (`util.deprecate(exports.incr, ...)`): a wrapper of the earlier function, which still runs. */
function readsExport(node: TSESTree.Node, name: string): boolean {
  if (node.type === AST_NODE_TYPES.MemberExpression && commonJsExportName(node) === name) return true;
  for (const [field, value] of Object.entries(node)) {
    if (field === 'parent' || !value || typeof value !== 'object') continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof (child as { type?: unknown }).type === 'string' && readsExport(child as TSESTree.Node, name)) return true;
    }
  }
  return false;
}
