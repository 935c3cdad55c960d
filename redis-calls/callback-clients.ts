/**
 * A client handed to a callback's parameter: `withRedis('counter', async (r) => { await
 * r.incr(k); await r.expire(k, 60); })`, where the function the callback is passed to calls it with
 * a client (`fn(redisClient)`) or declares it as taking one (`fn: (client: Redis) => Promise<T>`).
 * Without type information the callback's parameter says nothing of itself (the checker infers it
 * from the wrapper's declared parameter type); this module reads the wrapper instead, so a typed
 * and an untyped run agree.
 *
 * The wrapper is a function of the linted module (declared, or a `const` arrow / function
 * expression), a method of its class (`this.withRedis(...)`, `Cls.withRedis(...)`), or a function
 * another module of the code exports (ES or CommonJS, read through `redis-calls/modules.ts` as the
 * detector reads any import). A wrapper that hands its callback on (`return safe(label, fn,
 * fallback)`) is followed to the function it hands it to, {@link MAX_HOPS} wrappers deep. Verdicts
 * are cached per wrapper, per position, per detector (a lint run's).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { ClientDetector } from './clients.js';
import { NOT_REDIS, UNKNOWN, relabel, type ReceiverKind } from './client-facts.js';
import { findVariable, unwrap, type FunctionLike } from './static.js';

/** How many wrappers deep a callback is followed (`a(fn)` hands `fn` to `b`, which calls it). */
const MAX_HOPS = 3;

/** Verdicts per detector, per wrapper function, per `parameter:argument` position. */
const verdicts = new WeakMap<ClientDetector, WeakMap<FunctionLike, Map<string, ReceiverKind>>>();

/** Wrapper positions being judged (a wrapper that reaches itself again ends as unknown). */
const inProgress = new Set<string>();
const ids = new WeakMap<object, number>();
let nextId = 0;
const idOf = (node: object): number => {
  let id = ids.get(node);
  if (id === undefined) ids.set(node, (id = nextId++));
  return id;
};

/**
 * The verdict on `param`, a plain parameter of a function expression or arrow passed as an
 * argument of a call (`wrap(label, async (r) => ...)`), from what the called function does with
 * that argument: a client when it declares the callback's parameter at that position with a client
 * type, or calls the callback with a client there (in one call at least: a wrapper handing
 * `null` or a `Map` in one branch and a client in another hands the client wherever Redis is
 * configured); provably not a client when its declaration says so or every call passes something
 * provably not a client; else unknown (also for any other parameter, a spread before the callback, a wrapper
 * that cannot be read).
 * @param detector the detector of the module `param` is written in
 */
export function callbackParameterVerdict(detector: ClientDetector, param: TSESTree.Identifier, depth: number): ReceiverKind {
  const fn = param.parent;
  if (!fn || (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression)) return UNKNOWN;
  const index = fn.params.indexOf(param);
  const call = fn.parent;
  if (index < 0 || call?.type !== AST_NODE_TYPES.CallExpression) return UNKNOWN;
  const position = argumentPosition(call, fn);
  if (position === undefined || depth > 6) return UNKNOWN;
  const wrapper = wrapperOf(detector, call.callee);
  if (!wrapper) return UNKNOWN;
  const label = detector.contextOf.sourceCode.getText(call.callee);
  const verdict = handedVerdict(wrapper.detector, wrapper.fn, position, index, depth, 0);
  return relabel(verdict, (inner) => `it is the parameter of a callback \`${label}\` calls with a client, where ${inner}`);
}

/** A function the code calls, with the detector of the module it is written in. */
interface Wrapper {
  fn: FunctionLike;
  detector: ClientDetector;
}

/** The position of `fn` among the call's arguments; `undefined` after a spread. */
function argumentPosition(call: TSESTree.CallExpression, fn: TSESTree.Node): number | undefined {
  for (const [i, arg] of call.arguments.entries()) {
    if (arg.type === AST_NODE_TYPES.SpreadElement) return undefined;
    if (arg === fn || unwrap(arg) === fn) return i;
  }
  return undefined;
}

/** The function a callee names: of this module, a method of its class, or exported by another module of the code. */
function wrapperOf(detector: ClientDetector, callee: TSESTree.Node): Wrapper | undefined {
  const bare = unwrap(callee);
  if (bare.type === AST_NODE_TYPES.MemberExpression) {
    const method = detector.localMethod(bare);
    return method && isFunctionLike(method) ? { fn: method, detector } : undefined;
  }
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const origin = detector.identifierOrigin(bare);
  if (origin.kind === 'import') {
    const exported = origin.own ? detector.exported(origin) : undefined;
    if (!exported) return undefined;
    const node = unwrap(exported.node);
    const fn = isFunctionLike(node) ? node : exported.detector.functionOf(node);
    return fn && isFunctionLike(fn) ? { fn, detector: exported.detector } : undefined;
  }
  const fn = detector.functionOf(bare);
  return fn && isFunctionLike(fn) ? { fn, detector } : undefined;
}

function isFunctionLike(node: object): node is FunctionLike {
  const type = (node as TSESTree.Node).type;
  return (
    (type === AST_NODE_TYPES.FunctionDeclaration || type === AST_NODE_TYPES.FunctionExpression || type === AST_NODE_TYPES.ArrowFunctionExpression) &&
    (node as FunctionLike).body !== undefined
  );
}

/**
 * What `wrapper` hands the callback it takes as parameter `position` at argument `argument` (cached).
 * @param hops how many wrappers handed the callback on to this one
 */
function handedVerdict(detector: ClientDetector, wrapper: FunctionLike, position: number, argument: number, depth: number, hops: number): ReceiverKind {
  let byWrapper = verdicts.get(detector);
  if (!byWrapper) verdicts.set(detector, (byWrapper = new WeakMap()));
  let byPosition = byWrapper.get(wrapper);
  if (!byPosition) byWrapper.set(wrapper, (byPosition = new Map()));
  const key = `${position}:${argument}`;
  const cached = byPosition.get(key);
  if (cached) return cached;
  const running = `${idOf(detector)}:${idOf(wrapper)}:${key}`;
  if (inProgress.has(running)) return UNKNOWN;
  inProgress.add(running);
  try {
    const verdict = judgeHanded(detector, wrapper, position, argument, depth, hops);
    byPosition.set(key, verdict);
    return verdict;
  } finally {
    inProgress.delete(running);
  }
}

function judgeHanded(detector: ClientDetector, wrapper: FunctionLike, position: number, argument: number, depth: number, hops: number): ReceiverKind {
  const raw = wrapper.params[position];
  if (!raw || raw.type === AST_NODE_TYPES.RestElement || raw.type === AST_NODE_TYPES.TSParameterProperty) return UNKNOWN;
  const param = raw.type === AST_NODE_TYPES.AssignmentPattern ? raw.left : raw;
  if (param.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
  // fn: (client: Redis) => Promise<T>: the declared type of the callback's parameter
  const declared = declaredArgumentType(param, argument);
  if (declared) {
    const verdict = detector.classifyType(declared);
    if (verdict.redis || verdict.proven) return relabel(verdict, (inner) => `\`${param.name}\` is declared to take it, ${inner}`);
  }
  const variable = findVariable(detector.contextOf, param);
  if (!variable) return UNKNOWN;
  let client: ReceiverKind | undefined;
  let allNot = true;
  let any = false;
  for (const reference of variable.references) {
    const node = reference.identifier;
    const parent = node.parent;
    if (parent?.type !== AST_NODE_TYPES.CallExpression) continue;
    let verdict: ReceiverKind;
    if (parent.callee === node) {
      // fn(redisClient): what the wrapper calls its callback with
      const arg = parent.arguments[argument];
      if (!arg || parent.arguments.slice(0, argument + 1).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) {
        allNot = false;
        continue;
      }
      verdict = detector.classifySyntactic(arg, depth + 2);
    } else {
      // return safe(label, fn, fallback): handed on to another wrapper
      const next = hops < MAX_HOPS ? argumentPosition(parent, node) : undefined;
      const onward = next === undefined ? undefined : wrapperOf(detector, parent.callee);
      if (next === undefined || !onward) continue;
      verdict = handedVerdict(onward.detector, onward.fn, next, argument, depth + 1, hops + 1);
    }
    any = true;
    // a client in one call and `null` / a Map in another (`if (!redis) return fn(null)`): the
    // callback runs with the client wherever Redis is configured, so a client it is
    if (verdict.redis) client ??= verdict;
    else if (!verdict.proven) allNot = false;
  }
  if (client) return relabel(client, (inner) => `\`${param.name}\` is called with a client, ${inner}`);
  return any && allNot ? NOT_REDIS : UNKNOWN;
}

/** The declared type of argument `argument` of a parameter annotated as a function type: `Redis` in `fn: (c: Redis) => T`. */
function declaredArgumentType(param: TSESTree.Identifier, argument: number): TSESTree.TypeNode | undefined {
  const annotation = param.typeAnnotation?.typeAnnotation;
  if (annotation?.type !== AST_NODE_TYPES.TSFunctionType) return undefined;
  const target = annotation.params[argument];
  if (!target || target.type === AST_NODE_TYPES.RestElement) return undefined;
  const inner = target.type === AST_NODE_TYPES.AssignmentPattern ? target.left : target;
  return 'typeAnnotation' in inner ? inner.typeAnnotation?.typeAnnotation : undefined;
}
