/**
 * A helper whose key is its own parameter takes the persistence of its callers' keys. A function or
 * method that does more than forward (so no pass-through facade, `redis-calls/pass-through.ts`)
 * writes the key its caller passes:
 *
 * ```ts
 * async function addSample(key: string, value: number) {          // the write is here
 *   await ensureSeries(key);
 *   await redis.sendCommand(['TS.ADD', key, '*', String(value)]);
 * }
 * await addSample(`ts:cpu:${host}`, load);                        // every caller: ts:* (persistentKeys)
 * ```
 *
 * When every call of the helper passes a key that is persistent by design (a `persistentKeys`
 * pattern, or a `// redis-ttl persistent:` annotation at a call in the linted file), the write is persistent by
 * design too. A caller may itself pass on its own parameter (`safeAdd(key) { return
 * this.add(key) }`): its callers are judged the same way, a few levels deep; a helper of an
 * application that nothing names anywhere passes no key at all (a write reached only through such
 * helpers is dead code; a helper with no call at all keeps its finding). The callers are those
 * `redis-calls/facades.ts` finds ({@link callSitesOf}): the helper's own module, and for an
 * exported function or a method the other modules of its application; a library's exported
 * function (its callers are other people's code), or a call of the helper's name the rules cannot
 * resolve, leaves the write judged where it is; so does a helper some module also uses as a value
 * (handed as a callback, `.call`ed, stored under another name: `facades.ts` CallSites.escapes),
 * whose calls through that value pass keys no call site shows. A caller's key read from a loop over a constant
 * array (`for (const { key } of series)`) is each key the array holds.
 *
 * A key the helper builds from its parameters (`` const valueKey = `${family}:${user}` ``) is read
 * with each call's arguments in place of the parameters ({@link builtHelperKeyPersistent}): every
 * call's key must be persistent by design. An argument a call leaves out (or passes as `undefined`)
 * is the parameter's default; a call of the helper by itself that passes on the parameters the key
 * reads is the call it sits in, and needs a call from elsewhere.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { callSitesOf } from './facades.js';
import { keyShapeOf, keyShapeWithArguments, type KeyShape } from './key-shape.js';
import { persistentAnnotation, persistentPattern } from './persistent.js';
import { findVariable, propertyName, unwrap, type AnyContext, type FunctionLike } from './static.js';

/** How many helpers that pass on their parameter are followed above the write. */
const MAX_DEPTH = 3;

const verdicts = new WeakMap<TSESTree.Node, boolean>();

/**
 * Whether the key at `keyNode` is a parameter of the function the write is in, and every call of
 * that function passes a key persistent by design (see the module comment).
 * @param keyPrefix the shape of the writing client's `keyPrefix`, if any: a caller's key is
 *   persistent when a pattern matches it as written or as stored (the prefix, then the key)
 */
export function helperKeyPersistent(context: AnyContext, keyNode: TSESTree.Node, keyPrefix?: string): boolean {
  let verdict = verdicts.get(keyNode);
  if (verdict === undefined) {
    verdict = judge(context, keyNode, 0, keyPrefix) === true;
    verdicts.set(keyNode, verdict);
  }
  return verdict;
}

/** `true` persistent, `false` not, `'dead'` a parameter of a helper nothing names (it passes no key). */
function judge(context: AnyContext, keyNode: TSESTree.Node, depth: number, keyPrefix: string | undefined): boolean | 'dead' {
  const parameter = keyParameter(context, keyNode);
  if (!parameter) return false;
  const found = callSitesOf(context, parameter.fn);
  // handed as a callback, `.call`ed, stored: calls with keys no site shows
  if (!found || found.escapes) return false;
  if (found.sites.length === 0) return depth > 0 && !found.named ? 'dead' : false;
  let live = false;
  for (const { call, context: at } of found.sites) {
    const arg = call.arguments[parameter.index];
    if (!arg || arg.type === AST_NODE_TYPES.SpreadElement) return false;
    for (const candidate of valuesOf(at, arg)) {
      if (persistentAt(at, call, candidate, keyPrefix)) {
        live = true;
        continue;
      }
      const above = depth + 1 < MAX_DEPTH ? judge(at, candidate, depth + 1, keyPrefix) : false;
      if (above === false) return false;
      if (above === true) live = true;
    }
  }
  // every call passes on a parameter of a helper nothing names: the write is dead code (a helper
  // with no call at all keeps its finding)
  return live || depth === 0 ? true : 'dead';
}

/**
 * Whether a caller's key is persistent by design: a `persistentKeys` pattern, or an annotation at
 * the call in the linted file (another module is read without its comments' API).
 */
function persistentAt(context: AnyContext, call: TSESTree.CallExpression, key: TSESTree.Node, keyPrefix: string | undefined): boolean {
  const shape = keyShapeOf(context, key);
  if (persistentPattern(context, shape, keyPrefix) !== undefined) return true;
  return typeof context.sourceCode.getAllComments === 'function' && persistentAnnotation(context, call, shape) !== undefined;
}

/** How many functions around a write are tried as the helper whose parameters build its key. */
const MAX_ENCLOSING = 3;

const builtVerdicts = new WeakMap<TSESTree.Node, boolean>();

/**
 * Whether the key at `keyNode` is built by the function it is written in from that function's own
 * parameters (`const valueKey = `${key}:${id}:${valueId}``, `key` a parameter), and every call of
 * that function, the callers found as {@link helperKeyPersistent} finds them, passes arguments
 * that spell a key persistent by design: `incValue('unread', userId, chatId, 1)` builds
 * `unread:*:*`, which `unread:*` names. Each parameter is read as its call's argument, a parameter
 * reassigned anywhere leaves the key judged at the write, and so does a call with a spread argument,
 * a caller that cannot be found, or one whose key no pattern names. A key that is itself a
 * parameter is {@link helperKeyPersistent}'s.
 * @param keyPrefix the shape of the writing client's `keyPrefix`, if any
 */
export function builtHelperKeyPersistent(context: AnyContext, keyNode: TSESTree.Node, keyPrefix?: string): boolean {
  let verdict = builtVerdicts.get(keyNode);
  if (verdict === undefined) {
    verdict = judgeBuilt(context, keyNode, keyPrefix);
    builtVerdicts.set(keyNode, verdict);
  }
  return verdict;
}

/** A character no key shape spells: a parameter bound to it shows whether the key reads the parameter. */
const PROBE: KeyShape = { shape: '\u0001', constant: false, via: [] };

function judgeBuilt(context: AnyContext, keyNode: TSESTree.Node, keyPrefix: string | undefined): boolean {
  if (keyParameter(context, keyNode)) return false;
  let fn: FunctionLike | undefined;
  let names: Map<number, TSESTree.Identifier> | undefined;
  let node: TSESTree.Node | undefined = keyNode.parent;
  for (let tried = 0; node && tried < MAX_ENCLOSING; node = node.parent) {
    if (node.type !== AST_NODE_TYPES.FunctionDeclaration && node.type !== AST_NODE_TYPES.FunctionExpression && node.type !== AST_NODE_TYPES.ArrowFunctionExpression) continue;
    tried++;
    // a callback written inline (`users.map((u) => redis.set(`${family}:${u}`, '1'))`): its
    // parameters are whatever the callee hands it; the helper around it is the one called by name
    if (node.type !== AST_NODE_TYPES.FunctionDeclaration && node.parent?.type === AST_NODE_TYPES.CallExpression && node.parent.arguments.includes(node as TSESTree.CallExpressionArgument)) continue;
    const params = parameterNames(context, node);
    if (!params || params.size === 0) continue;
    const probed = keyShapeWithArguments(context, keyNode, new Map([...params.values()].map((name) => [name, PROBE])));
    if (!probed.shape.includes('\u0001')) continue;
    fn = node;
    names = params;
    break;
  }
  if (!fn || !names) return false;
  // the parameters the key reads (`n` of `mark(family, user, n)` is not one)
  const keyNames = new Map([...names].filter(([, name]) => keyShapeWithArguments(context, keyNode, new Map([[name, PROBE]])).shape.includes('\u0001')));
  const found = callSitesOf(context, fn);
  // handed as a callback, `.call`ed, stored: calls with arguments no site shows
  if (!found || found.sites.length === 0 || found.escapes) return false;
  let judged = 0;
  for (const { call, context: at } of found.sites) {
    if (call.arguments.some((arg) => arg.type === AST_NODE_TYPES.SpreadElement)) return false;
    // the helper calling itself with the parameters the key reads, unchanged
    // (`mark(family, user, n - 1)`): the key of the call it sits in
    if (at === context && fn.range[0] <= call.range[0] && call.range[1] <= fn.range[1] && passesOwnParameters(context, call, keyNames)) continue;
    judged++;
    const bound = new Map<TSESTree.Node, KeyShape>();
    for (const [index, name] of names) {
      const arg = call.arguments[index];
      const param = fn.params[index];
      // an argument left out (or `undefined`): the parameter's default value
      const omitted = !arg || (arg.type === AST_NODE_TYPES.Identifier && arg.name === 'undefined' && (findVariable(at, arg)?.defs.length ?? 0) === 0);
      if (omitted && param?.type === AST_NODE_TYPES.AssignmentPattern) bound.set(name, keyShapeOf(context, param.right));
      else if (arg) bound.set(name, keyShapeOf(at, arg));
    }
    const shape = keyShapeWithArguments(context, keyNode, bound);
    if (persistentPattern(context, shape, keyPrefix) === undefined) return false;
  }
  // a helper only calling itself: no call from outside chose its key
  return judged > 0;
}

/** Whether `call` hands each parameter of `names` its own parameter at the same position. */
function passesOwnParameters(context: AnyContext, call: TSESTree.CallExpression, names: ReadonlyMap<number, TSESTree.Identifier>): boolean {
  for (const [index, name] of names) {
    const arg = call.arguments[index] ? unwrap(call.arguments[index]!) : undefined;
    if (arg?.type !== AST_NODE_TYPES.Identifier || arg.name !== name.name) return false;
    if (!findVariable(context, arg)?.defs.some((def) => def.name === name)) return false;
  }
  return true;
}

/**
 * The plain parameters of `fn` by position (`key`, `id = 0`), or `undefined` when one of them is
 * reassigned in its body (its value at the write is no longer the call's argument).
 */
function parameterNames(context: AnyContext, fn: FunctionLike): Map<number, TSESTree.Identifier> | undefined {
  const names = new Map<number, TSESTree.Identifier>();
  for (const [index, param] of fn.params.entries()) {
    const inner = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
    const name = inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner;
    if (name.type !== AST_NODE_TYPES.Identifier) continue;
    const variable = findVariable(context, name);
    if (!variable) continue;
    if (variable.references.some((ref) => ref.isWrite() && ref.identifier !== name)) return undefined;
    names.set(index, name);
  }
  return names;
}

/** The function and parameter position `node` names, when it is a parameter never reassigned. */
export function keyParameter(context: AnyContext, node: TSESTree.Node): { fn: FunctionLike; index: number } | undefined {
  const bare = unwrap(node);
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context, bare);
  const def = variable?.defs[0];
  if (!variable || def?.type !== 'Parameter' || variable.defs.length !== 1) return undefined;
  if (variable.references.some((ref) => ref.isWrite() && ref.identifier !== def.name)) return undefined;
  const fn = def.node as TSESTree.Node;
  if (fn.type !== AST_NODE_TYPES.FunctionDeclaration && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.ArrowFunctionExpression) {
    return undefined;
  }
  const index = fn.params.findIndex((param) => {
    const inner = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
    return inner === def.name || (inner.type === AST_NODE_TYPES.AssignmentPattern && inner.left === def.name);
  });
  return index < 0 ? undefined : { fn, index };
}

/**
 * The values a caller's argument can be: each element's key of a constant array a `for...of`
 * destructures it from (`for (const { key } of series)`, `series` a `const` array literal of
 * object literals, or the array written in the loop), else the argument itself.
 */
function valuesOf(context: AnyContext, arg: TSESTree.Node): TSESTree.Node[] {
  const bare = unwrap(arg);
  if (bare.type !== AST_NODE_TYPES.Identifier) return [arg];
  const variable = findVariable(context, bare);
  const def = variable?.defs[0];
  if (!variable || def?.type !== 'Variable' || def.parent.kind !== 'const') return [arg];
  const loop = def.parent.parent;
  if (loop?.type !== AST_NODE_TYPES.ForOfStatement || loop.left !== def.parent) return [arg];
  const pattern = def.node.id;
  let member: string | undefined;
  if (pattern.type === AST_NODE_TYPES.ObjectPattern) {
    const property = pattern.properties.find((p) => p.type === AST_NODE_TYPES.Property && unwrapDefault(p.value) === def.name);
    if (!property || property.type !== AST_NODE_TYPES.Property || property.computed) return [arg];
    member = propertyName(property.key, false);
    if (member === undefined) return [arg];
  } else if (pattern !== def.name) {
    return [arg];
  }
  const array = constArray(context, loop.right);
  if (!array) return [arg];
  const values: TSESTree.Node[] = [];
  for (const element of array.elements) {
    if (!element || element.type === AST_NODE_TYPES.SpreadElement) return [arg];
    if (member === undefined) {
      values.push(element);
      continue;
    }
    const object = unwrap(element);
    if (object.type !== AST_NODE_TYPES.ObjectExpression) return [arg];
    const property = object.properties.find(
      (p): p is Extract<TSESTree.ObjectLiteralElement, { type: AST_NODE_TYPES.Property }> => p.type === AST_NODE_TYPES.Property && !p.computed && propertyName(p.key, false) === member,
    );
    if (!property || object.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement)) return [arg];
    values.push(property.value);
  }
  return values.length > 0 ? values : [arg];
}

function unwrapDefault(node: TSESTree.Node): TSESTree.Node {
  return node.type === AST_NODE_TYPES.AssignmentPattern ? node.left : node;
}

/** The array literal an expression is: written there, or a `const` never reassigned that holds one. */
function constArray(context: AnyContext, node: TSESTree.Node): TSESTree.ArrayExpression | undefined {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.ArrayExpression) return bare;
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context, bare);
  const def = variable?.defs[0];
  if (!variable || def?.type !== 'Variable' || def.parent.kind !== 'const' || def.node.id !== def.name) return undefined;
  const init = def.node.init ? unwrap(def.node.init) : undefined;
  return init?.type === AST_NODE_TYPES.ArrayExpression ? init : undefined;
}
