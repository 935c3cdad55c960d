/**
 * Write helpers of a module's top level judged at their callers, whatever their name (round 42,
 * finishing round 41's t69): a function declared at its module's top level whose key is its
 * parameter as it is and that writes it without TTL (a pass-through wrapper's shape:
 * `facades.ts` readFacade) is read at each call as the command with the caller's key, when every
 * call can be read:
 *
 * ```ts
 * export const s = (k, v) => { db.set(k, JSON.stringify(v)); };   // not reported: read at its callers
 * await s(`lnurl:${id}`, uid);                                      // reported: SET of `lnurl:*` without expiry
 * await s(`user:${uid}`, user);                                     // not reported under persistentKeys `user:*`
 * ```
 *
 * The judgement moves to the callers only when every call of the helper is found ({@link
 * KnownCallSites}: its own module and, exported, the other modules of an application or of a
 * package no registry would publish) and every call's key can be read ({@link callerKeysRead}).
 * One call whose key cannot be read keeps the helper judged where it is, as before round 42
 * (`helper-keys.ts`): the key a parameter of the caller's function that nobody calls in code
 * that may be a library's (or that is handed on, or whose callers cannot be found), a spread
 * argument, a computed property (`keys[type]`), a parameter of a callback. A helper some module
 * uses as a value (handed as a callback, stored: `migrateKeys(db, g, s)`) is called with keys no
 * call site shows: it stays judged where it is too, and the calls the code shows are read all the
 * same (coinos' `s` is both). A call whose key is a parameter of a function that never runs
 * ({@link calledNowhere}) passes no key at all.
 *
 * This module reads the call sites through the lookup `facades.ts` gives it (`callSitesOf`), so
 * that it imports nothing of it back.
 */
import { isAbsolute } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { packageOf, publishable } from './project.js';
import { asSaved, exportsReachedUnnamed } from './uncalled.js';
import { findVariable, staticValue, unwrap, type AnyContext, type FunctionLike } from './static.js';

/** The calls of a function as `facades.ts` callSitesOf finds them. */
export interface KnownCallSites {
  readonly sites: readonly { readonly call: TSESTree.CallExpression; readonly context: AnyContext }[];
  readonly escapes: boolean;
  readonly namedElsewhere: boolean;
}

/** `facades.ts` callSitesOf: the calls of `fn`, `undefined` when they cannot all be known. */
export type CallSitesLookup = (context: AnyContext, fn: FunctionLike) => KnownCallSites | undefined;

/**
 * A function declared at the top level of its module, exported or not: `function save(k, v)
 * {...}`, `export const s = (k, v) => {...}` (a `const`, never reassigned).
 */
export function moduleFunction(fn: FunctionLike): boolean {
  const topLevel = (node: TSESTree.Node | undefined): boolean =>
    node?.type === AST_NODE_TYPES.Program || (node?.type === AST_NODE_TYPES.ExportNamedDeclaration && node.parent?.type === AST_NODE_TYPES.Program);
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id !== null && topLevel(fn.parent);
  const declarator = fn.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== fn || declarator.id.type !== AST_NODE_TYPES.Identifier) return false;
  const declaration = declarator.parent;
  return declaration?.type === AST_NODE_TYPES.VariableDeclaration && declaration.kind === 'const' && topLevel(declaration.parent);
}

/**
 * Whether the function `fn` of the module of `context` never runs: a function of its module's top
 * level ({@link moduleFunction}; a method may be called by a framework by its name) of a file of
 * an application or of a package no registry would publish (`project.ts` publishable: nobody else
 * imports it), with no call found anywhere in it, no use as a value, its name written in no other
 * module (a renamed re-export `export { cacheBump as bump }` hides calls the lookup does not
 * follow) and once in its own module's code. A library's function, one
 * of code outside any package (a snippet), of a text that is not its file's on disk, or one whose
 * callers cannot be known may run.
 */
export function calledNowhere(context: AnyContext, fn: FunctionLike, sitesOf: CallSitesLookup): boolean {
  if (!moduleFunction(fn)) return false;
  const file = context.physicalFilename ?? context.filename;
  const info = file && isAbsolute(file) ? packageOf(file) : undefined;
  if (!info || (!info.application && publishable(info.root))) return false;
  // the callers are read from disk: an unsaved buffer, or text linted under another file's name, may call it
  if (!asSaved(context, file)) return false;
  // exported: called by name by a framework (nothing imports its module), or by a computed name
  const exported = (fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.parent : fn.parent?.parent?.parent)?.type === AST_NODE_TYPES.ExportNamedDeclaration;
  if (exported && exportsReachedUnnamed(file, info.root)) return false;
  const found = sitesOf(context, fn);
  if (found === undefined || found.sites.length > 0 || found.escapes || found.namedElsewhere) return false;
  // named once in its module's code (its declaration; comments aside): no call the lookup missed
  const name = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.id?.name : (fn.parent as TSESTree.VariableDeclarator).id.type === AST_NODE_TYPES.Identifier ? ((fn.parent as TSESTree.VariableDeclarator).id as TSESTree.Identifier).name : undefined;
  return name !== undefined && context.sourceCode.ast.tokens.filter((token) => token.type === 'Identifier' && token.value === name).length === 1;
}

/**
 * Whether the calls of the helper `fn` (its key parameters at `keyParams`) are read as its command
 * with their keys: its calls are all found (or, for one some module also uses as a value, those
 * the code shows), there is one, each call is read as the helper's where it is (`resolves`:
 * `facades.ts` resolves a call of a name its package declares; a call through a renamed re-export
 * is not, and would judge the write nowhere), and each call's key can be read ({@link keyRead}). Otherwise it
 * is judged where it is. A helper used as a value is judged where it is as well (`facades.ts`
 * forwardingFacade), for the calls no site shows.
 */
export function callerKeysRead(
  context: AnyContext,
  fn: FunctionLike,
  keyParams: Iterable<number>,
  sitesOf: CallSitesLookup,
  resolves: (at: AnyContext, call: TSESTree.CallExpression) => boolean,
): boolean {
  const found = sitesOf(context, fn);
  if (!found || found.sites.length === 0) return false;
  const params = [...keyParams];
  return found.sites.every(({ call, context: at }) => resolves(at, call) && params.every((index) => keyRead(at, call, index, sitesOf)));
}

/**
 * Whether the key argument `index` of the helper's call `call` (in the module of `context`) can be
 * read at the call: given (no spread before or at it), not a computed property whose name is no
 * constant, and when it is a parameter of the function the call is in, that function's calls are
 * known (its callers' keys are then judged there, `helper-keys.ts`) or it never runs ({@link
 * calledNowhere}).
 */
function keyRead(context: AnyContext, call: TSESTree.CallExpression, index: number, sitesOf: CallSitesLookup): boolean {
  const args = call.arguments.slice(0, index + 1);
  if (args.length <= index || args.some((arg) => arg.type === AST_NODE_TYPES.SpreadElement)) return false;
  const key = unwrap(args[index]!);
  if (key.type === AST_NODE_TYPES.MemberExpression && key.computed && staticValue(context, key.property) === undefined) return false;
  if (key.type !== AST_NODE_TYPES.Identifier) return true;
  const def = findVariable(context, key)?.defs[0];
  if (def?.type !== 'Parameter') return true;
  const owner = def.node as FunctionLike;
  const found = sitesOf(context, owner);
  if (found && found.sites.length > 0 && !found.escapes) return true;
  return calledNowhere(context, owner, sitesOf);
}
