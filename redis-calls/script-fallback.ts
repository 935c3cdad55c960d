/**
 * "The JavaScript fallback of a Lua script": code that does a script's work with separate
 * commands, run only when the client cannot run scripts, or when the script call failed. In
 * production the script runs (its writes and their expiries are judged by `embedded-lua`, or by
 * lua-lint for a `.lua` file); the fallback serves an in-memory or mock client. A write is such a
 * fallback when
 *
 * - it sits in the **no-scripting arm** of a test of the client's scripting capability
 *   (`typeof client.evalsha === 'function'`, `'eval' in client`, `!client.eval`, or a same-file
 *   function returning such a test: `if (!supportsEvalSha(client)) return fallback()`) whose other
 *   arm, or the rest of the block after an arm that returns, runs a script (EVAL, EVALSHA, FCALL:
 *   `semantics/scripting.ts`); or in the `catch` of a `try` whose block runs one;
 * - or in a function that only such an arm calls: a same-file function called there
 *   (`return fallbackIncr(key, ttl)`), or a function passed to a same-file runner whose
 *   no-scripting arm (or `catch`) calls the parameter it arrives in
 *   (`executeLua(client, 'incr', [key], args, () => fallbackIncr(key, ttl))`); every reference of a
 *   fallback function must be such a call;
 * - and it writes **the same key the script is given**: the key as written (a fallback function's
 *   parameters read as the arguments of the call that runs it) is an argument of the script call
 *   (or of the runner's call), or an element of an array passed there.
 *
 * Not a fallback (still judged): a branch on anything else (a configuration flag, an environment:
 * `if (useLua)`, which may be off in production), a test mixing the capability with another
 * condition, writes after the branch, a key the script is not given, a function also called
 * elsewhere, and a runner or fallback in another module. `allowScriptFallbacks` (on in
 * `recommended`, off in `strict`) leaves such writes unreported.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { SCRIPT_RUNNING_COMMANDS } from '../semantics/scripting.js';
import { fileIndexOf } from './file-index.js';
import { alwaysExits, encloses, enclosingFunction, findVariable, propertyName, returnedExpressions, unwrap, walk, type AnyContext, type FunctionLike } from './static.js';

/** Client methods whose presence says the client can run scripts. */
const SCRIPTING_METHODS = new Set(['eval', 'evalsha', 'evalSha', 'evalRo', 'evalshaRo', 'evalShaRo', 'script', 'scriptLoad', 'fcall', 'fcallRo', 'EVAL', 'EVALSHA', 'FCALL']);
/** How deep a capability test is followed through same-file predicate functions. */
const MAX_PREDICATE_DEPTH = 3;
/** At most this many call sites of one runner are read. */
const MAX_RUNNER_CALLS = 50;

/** A region that runs only instead of a script, and the key texts that script is given. */
interface Cover {
  region: TSESTree.Node;
  keys: ReadonlySet<string>;
  /** For a fallback function: its parameters' names, read as the call's argument texts. */
  params?: ReadonlyMap<string, string>;
}

/** A same-file function run only as a fallback: its uses, and how many references it has. */
interface FallbackFunction {
  uses: Cover[];
  references: number;
}

interface Analysis {
  /** Regions whose own writes are fallbacks (arms, catch clauses, inline callbacks). */
  regions: Cover[];
  /** Fallback functions by their node. */
  functions: Map<FunctionLike, FallbackFunction>;
}

const analyses = new WeakMap<TSESLint.SourceCode, Analysis>();

/**
 * Whether the write of the key at `keyNode` by `call` is the JavaScript fallback of a script that
 * is given the same key (see the module comment).
 * @param context the rule context
 * @param call the write's node
 * @param keyNode the key argument as written at the call
 */
export function scriptFallback(context: AnyContext, call: { node: TSESTree.Node }, keyNode: TSESTree.Node): boolean {
  const analysis = analysisOf(context);
  if (analysis.regions.length === 0 && analysis.functions.size === 0) return false;
  const text = keyText(context, keyNode);
  if (analysis.regions.some((cover) => encloses(cover.region, call.node) && cover.keys.has(text))) return true;
  for (const [fn, fallback] of analysis.functions) {
    if (!encloses(fn, call.node)) continue;
    if (fallback.uses.length === 0 || fallback.uses.length !== fallback.references) continue;
    if (fallback.uses.every((use) => use.keys.has(keyText(context, keyNode, use.params)))) return true;
  }
  return false;
}

function analysisOf(context: AnyContext): Analysis {
  const sourceCode = context.sourceCode;
  let analysis = analyses.get(sourceCode);
  if (analysis) return analysis;
  analysis = { regions: [], functions: new Map() };
  analyses.set(sourceCode, analysis);
  // every region that runs instead of a script, with the keys of every script it stands for
  const regions = new Map<TSESTree.Node, Set<string>>();
  for (const script of fileIndexOf(context).calls) {
    if (!SCRIPT_RUNNING_COMMANDS.has(script.command) || script.node.type !== AST_NODE_TYPES.CallExpression) continue;
    const keys = argumentTexts(context, script.node.arguments);
    for (const region of fallbackRegionsOf(context, script.node)) {
      const known = regions.get(region);
      if (known) keys.forEach((key) => known.add(key));
      else regions.set(region, new Set(keys));
    }
  }
  const runners = new Set<string>();
  for (const [region, keys] of regions) {
    analysis.regions.push({ region, keys });
    const runner = enclosingFunction(region) as FunctionLike | undefined;
    walk(context, region, (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.Identifier) return;
      const index = runner ? parameterIndex(runner, node.callee.name) : -1;
      if (runner && index >= 0) {
        // a parameter the runner calls only where the script does not run: its callers' callbacks
        const id = `${runner.range[0]}:${index}`;
        if (runners.has(id) || !calledOnlyIn(context, runner, node.callee.name, [...regions.keys()])) return;
        runners.add(id);
        addRunnerCallbacks(context, analysis!, runner, index);
      } else addFunctionUse(context, analysis!, node, keys);
    });
  }
  return analysis;
}

/** Whether every call of the parameter `name` in `runner` lies in one of `regions`. */
function calledOnlyIn(context: AnyContext, runner: FunctionLike, name: string, regions: readonly TSESTree.Node[]): boolean {
  let only = true;
  walk(context, runner.body, (node) => {
    if (node.type !== AST_NODE_TYPES.Identifier || node.name !== name) return;
    const parent = node.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return;
    if (!regions.some((region) => encloses(region, node))) only = false;
    return only ? undefined : 'stop';
  });
  return only;
}

/** A call of a same-file function from a fallback region: that function is a fallback for this use. */
function addFunctionUse(context: AnyContext, analysis: Analysis, node: TSESTree.CallExpression, keys: ReadonlySet<string>): void {
  if (node.callee.type !== AST_NODE_TYPES.Identifier) return;
  const found = sameFileFunction(context, node.callee);
  if (!found) return;
  const params = new Map<string, string>();
  found.fn.params.forEach((param, i) => {
    const name = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    const arg = node.arguments[i];
    if (name.type === AST_NODE_TYPES.Identifier && arg && arg.type !== AST_NODE_TYPES.SpreadElement) params.set(name.name, normalized(context.sourceCode.getText(arg)));
  });
  let entry = analysis.functions.get(found.fn);
  if (!entry) {
    entry = { uses: [], references: found.references };
    analysis.functions.set(found.fn, entry);
  }
  entry.uses.push({ region: found.fn, keys, params });
}

/** The callbacks passed to `runner` at parameter `index`, at each of its same-file calls. */
function addRunnerCallbacks(context: AnyContext, analysis: Analysis, runner: FunctionLike, index: number): void {
  const id = runner.type === AST_NODE_TYPES.FunctionDeclaration ? runner.id : runner.parent?.type === AST_NODE_TYPES.VariableDeclarator ? runner.parent.id : undefined;
  if (!id || id.type !== AST_NODE_TYPES.Identifier) return;
  const variable = findVariable(context, id);
  if (!variable) return;
  for (const reference of variable.references.slice(0, MAX_RUNNER_CALLS)) {
    const call = reference.identifier.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== reference.identifier) continue;
    const callback = call.arguments[index];
    if (!callback || (callback.type !== AST_NODE_TYPES.ArrowFunctionExpression && callback.type !== AST_NODE_TYPES.FunctionExpression)) continue;
    const keys = argumentTexts(context, call.arguments.filter((arg) => arg !== callback));
    // the callback's own writes, and the same-file functions it calls (`() => fallbackIncr(key)`)
    analysis.regions.push({ region: callback, keys });
    walk(context, callback.body, (node) => {
      if (node.type === AST_NODE_TYPES.CallExpression) addFunctionUse(context, analysis, node, keys);
    });
  }
}

/**
 * The regions that run instead of the script call `script`: the no-scripting arm of a capability
 * test around it, an earlier returning no-scripting arm of its block, the `catch` of a `try` around it.
 */
function fallbackRegionsOf(context: AnyContext, script: TSESTree.CallExpression): TSESTree.Node[] {
  const out: TSESTree.Node[] = [];
  for (let child: TSESTree.Node = script, parent: TSESTree.Node | undefined = script.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) {
      const test = capabilityTest(context, parent.test, 0);
      if (test === 'has' && child === parent.consequent && parent.alternate) out.push(parent.alternate);
      if (test === 'lacks' && child === parent.alternate) out.push(parent.consequent);
    }
    if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.Program) {
      const body = parent.body as readonly TSESTree.Node[];
      for (const earlier of body.slice(0, body.indexOf(child))) {
        if (earlier.type !== AST_NODE_TYPES.IfStatement || earlier.alternate || !alwaysExits(earlier.consequent)) continue;
        if (capabilityTest(context, earlier.test, 0) === 'lacks') out.push(earlier.consequent);
      }
    }
    if (parent.type === AST_NODE_TYPES.TryStatement && child === parent.block && parent.handler) out.push(parent.handler.body);
    if (parent.type === AST_NODE_TYPES.FunctionDeclaration || parent.type === AST_NODE_TYPES.FunctionExpression || parent.type === AST_NODE_TYPES.ArrowFunctionExpression) break;
  }
  return out;
}

/**
 * What a test says about the client's scripting capability: `'has'` when it holds only if the
 * client can run scripts, `'lacks'` when it holds only if it cannot, `undefined` for any other test
 * (also one mixing the capability with another condition).
 */
function capabilityTest(context: AnyContext, test: TSESTree.Node, depth: number): 'has' | 'lacks' | undefined {
  const node = unwrap(test);
  switch (node.type) {
    case AST_NODE_TYPES.UnaryExpression: {
      if (node.operator !== '!') return undefined;
      const inner = capabilityTest(context, node.argument, depth);
      return inner === 'has' ? 'lacks' : inner === 'lacks' ? 'has' : undefined;
    }
    case AST_NODE_TYPES.MemberExpression:
      return scriptingMember(node) ? 'has' : undefined;
    case AST_NODE_TYPES.BinaryExpression:
      return binaryTest(node);
    case AST_NODE_TYPES.LogicalExpression: {
      const left = capabilityTest(context, node.left, depth);
      const right = capabilityTest(context, node.right, depth);
      if (left !== right) return undefined;
      // `a && b` holds only if both do; `a || b` fails only if both fail
      if (node.operator === '&&' && left === 'has') return 'has';
      if (node.operator === '||' && left === 'lacks') return 'lacks';
      return undefined;
    }
    case AST_NODE_TYPES.CallExpression: {
      if (depth >= MAX_PREDICATE_DEPTH || node.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
      const found = sameFileFunction(context, node.callee);
      if (!found) return undefined;
      const returned = returnedExpressions(found.fn);
      if (returned.length !== 1) return undefined;
      return capabilityTest(context, returned[0]!, depth + 1);
    }
    default:
      return undefined;
  }
}

/** `typeof client.evalsha === 'function'` and its negations, `'eval' in client`. */
function binaryTest(node: TSESTree.BinaryExpression): 'has' | 'lacks' | undefined {
  if (node.operator === 'in') {
    return node.left.type === AST_NODE_TYPES.Literal && typeof node.left.value === 'string' && SCRIPTING_METHODS.has(node.left.value) ? 'has' : undefined;
  }
  const equal = node.operator === '===' || node.operator === '==';
  if (!equal && node.operator !== '!==' && node.operator !== '!=') return undefined;
  const [typeOf, literal] = node.left.type === AST_NODE_TYPES.UnaryExpression ? [node.left, node.right] : [node.right, node.left];
  if (typeOf.type !== AST_NODE_TYPES.UnaryExpression || typeOf.operator !== 'typeof' || !scriptingMember(unwrap(typeOf.argument))) return undefined;
  if (literal.type !== AST_NODE_TYPES.Literal) return undefined;
  if (literal.value === 'function') return equal ? 'has' : 'lacks';
  if (literal.value === 'undefined') return equal ? 'lacks' : 'has';
  return undefined;
}

function scriptingMember(node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.MemberExpression) return false;
  const name = propertyName(node.property, node.computed);
  return name !== undefined && SCRIPTING_METHODS.has(name);
}

/** The same-file function an identifier names (a declaration, or a `const` bound to one), and how many references its name has. */
function sameFileFunction(context: AnyContext, id: TSESTree.Identifier): { fn: FunctionLike; references: number } | undefined {
  const variable = findVariable(context, id);
  const def = variable?.defs[0];
  if (!variable || !def || variable.defs.length !== 1) return undefined;
  const node = def.node as TSESTree.Node;
  if (node.type === AST_NODE_TYPES.FunctionDeclaration) return { fn: node, references: variable.references.length };
  if (node.type === AST_NODE_TYPES.VariableDeclarator && node.init) {
    const init = unwrap(node.init);
    if (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression) {
      // the declarator's own write is a reference too
      return { fn: init, references: variable.references.filter((reference) => reference.isRead()).length };
    }
  }
  return undefined;
}

function parameterIndex(fn: FunctionLike, name: string): number {
  return fn.params.findIndex((param) => {
    const id = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    return id.type === AST_NODE_TYPES.Identifier && id.name === name;
  });
}

/** The texts of a call's arguments, of the elements of its array arguments, and of what it spreads. */
function argumentTexts(context: AnyContext, args: readonly TSESTree.Node[]): Set<string> {
  const out = new Set<string>();
  const add = (node: TSESTree.Node | null): void => {
    if (!node) return;
    if (node.type === AST_NODE_TYPES.SpreadElement) return add(node.argument);
    if (node.type === AST_NODE_TYPES.ArrayExpression) return node.elements.forEach(add);
    out.add(normalized(context.sourceCode.getText(node)));
  };
  args.forEach(add);
  return out;
}

/**
 * The text of a key expression, whitespace removed; with `params`, every identifier naming one
 * of them replaced by the argument text it was called with.
 */
function keyText(context: AnyContext, keyNode: TSESTree.Node, params?: ReadonlyMap<string, string>): string {
  const text = context.sourceCode.getText(keyNode);
  if (!params || params.size === 0) return normalized(text);
  const replacements: Array<[number, number, string]> = [];
  walk(context, keyNode, (node) => {
    if (node.type !== AST_NODE_TYPES.Identifier || !params.has(node.name)) return;
    const parent = node.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return;
    if (parent?.type === AST_NODE_TYPES.Property && parent.key === node && !parent.computed && !parent.shorthand) return;
    replacements.push([node.range[0] - keyNode.range[0], node.range[1] - keyNode.range[0], params.get(node.name)!]);
  });
  let out = text;
  for (const [start, end, value] of replacements.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + value + out.slice(end);
  return normalized(out);
}

function normalized(text: string): string {
  return text.replace(/\s+/g, '');
}
