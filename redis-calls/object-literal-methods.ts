/**
 * A client reached through a **method of an object literal**: a service exported as a plain
 * object whose members forward to an instance (ClassWaves' `export const redisService = {
 * getClient: () => getRedisService().getClient(), ... }`), so that `redisService.getClient().incr(k)`
 * runs a command on whatever that member returns. The member is found in the `const` object
 * literal the receiver's object names, in this module or in the module of the code it is imported
 * from (ES import or `require`, read with that module's detector), and the call is judged by what
 * the member returns, as a method of a class of the code is (`ClientDetector.classifyReturnOf`):
 * its declared return type, or its returned expressions read syntactically.
 *
 * Limits: only a `const` bound to an object literal (no spread before the member, no computed
 * key); a `let`, an object built step by step (`service.getClient = ...`), a value returned by a
 * factory, or a member that is no function literal or method shorthand is not followed. Imports
 * are followed one module deep per name (an object re-exported under a re-export is followed only
 * as far as `locateExport` resolves it).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { ClientDetector } from './clients.js';
import { memberKeyName } from './client-syntax.js';
import { findVariable, unwrap, type FunctionLike } from './static.js';

/** A function member of an object literal, with the detector of the module it is written in. */
export interface ObjectLiteralMethod {
  fn: FunctionLike;
  detector: ClientDetector;
}

/**
 * The function member `name` of the `const` object literal `object` names (`redisService` in
 * `redisService.getClient()`), here or in the module of the code it is imported from; `undefined`
 * when `object` is no such name or the literal has no such function member.
 * @param host the detector of the module `object` is written in
 */
export function objectLiteralMethod(host: ClientDetector, object: TSESTree.Node, name: string): ObjectLiteralMethod | undefined {
  const bare = unwrap(object);
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const origin = host.identifierOrigin(bare);
  if (origin.kind === 'import') {
    const exported = origin.own ? host.exported(origin) : undefined;
    if (!exported) return undefined;
    const literal = exported.node.type === AST_NODE_TYPES.Identifier ? constObjectLiteral(exported.detector, exported.node) : objectLiteralOf(exported.node);
    const fn = literal ? functionMember(literal, name) : undefined;
    return fn ? { fn, detector: exported.detector } : undefined;
  }
  const literal = constObjectLiteral(host, bare);
  const fn = literal ? functionMember(literal, name) : undefined;
  return fn ? { fn, detector: host } : undefined;
}

/** The object literal a `const` name is bound to (`const x = { ... }`, also `as const`), else `undefined`. */
function constObjectLiteral(host: ClientDetector, id: TSESTree.Identifier): TSESTree.ObjectExpression | undefined {
  const variable = findVariable(host.contextOf, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.parent?.kind !== 'const' || !def.node.init) return undefined;
  if (def.node.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  return objectLiteralOf(def.node.init);
}

/** `node` itself when it is an object literal (under `as` / `satisfies` / `!`), else `undefined`. */
function objectLiteralOf(node: TSESTree.Node): TSESTree.ObjectExpression | undefined {
  const bare = unwrap(node);
  return bare.type === AST_NODE_TYPES.ObjectExpression ? bare : undefined;
}

/**
 * The function written for the member `name` of an object literal (`name: () => ...`, `name:
 * function () {}`, `name() {}`, `async name() {}`): the last such property wins, as at run time; a
 * spread after it may bring another value, so a spread after the last match leaves it unknown.
 */
function functionMember(literal: TSESTree.ObjectExpression, name: string): FunctionLike | undefined {
  let found: FunctionLike | undefined;
  let spreadAfter = false;
  for (const property of literal.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      spreadAfter = true;
      continue;
    }
    if (property.kind !== 'init' || memberKeyName(property.key, property.computed) !== name) continue;
    const value = unwrap(property.value);
    found = value.type === AST_NODE_TYPES.ArrowFunctionExpression || value.type === AST_NODE_TYPES.FunctionExpression ? value : undefined;
    spreadAfter = false;
  }
  return spreadAfter ? undefined : found;
}
