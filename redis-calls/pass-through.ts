/**
 * Pass-through wrappers: a function or method that re-exposes one Redis command under the
 * command's own name and forwards its own key parameter to it,
 *
 * ```ts
 * async incr(key: string) { await this.connect(); return this.client.incr(key); }
 * const adapter = { sadd: (key, ...members) => redis.sadd(key, members) };
 * sadd(key, value) { return new Promise((resolve) => { this.pub.sadd(key, value, resolve); }); }
 * get(key) { return this.client.get(this.buildKey(key)); }
 * ```
 *
 * is part of a client facade, not a place where a key is chosen: whether the key should expire is
 * decided where the wrapper is called. The wrapper's name must be the command's name (any case:
 * `hSet`, `hset`), its body short (at most {@link MAX_STATEMENTS} statements, and so is each
 * promise executor or callback the call sits in), and the key its parameter: as it is, given to a
 * key builder of the code (`this.buildKey(key)`, `prefixed(key)`, a class-field arrow `this.ns(key)`,
 * a function another module of the code exports; the builder's arguments that are no part of the
 * key it returns, such as a flag it tests, do not count), or with configuration around
 * it (`` `${this.prefix}:${key}` ``, `NAMESPACE + key` with an imported `NAMESPACE`; a literal
 * family such as `` `hits:${id}` `` is the wrapper's own choice). A function named after the data it stores
 * (`saveSummary(text, summary)`) is not a pass-through: it decides which keys exist, and stays
 * reported. Two arms of a choice that make the same write are one call (`lmove(source,
 * destination)` sending LMOVE or RPOPLPUSH by the server's version: {@link sameWriteOtherArm}).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { clientDetectorOf, redisCallsIn } from './index.js';
import { keyBuilder, keyShapeOf, returnExpressions } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import { counterStep, sameWriteCommands } from '../semantics/commands.js';
import { constantNumber } from './constant.js';
import { constInitializer, encloses, enclosingFunction, findVariable, functionName, referenceName, unwrap, type AnyContext, type FunctionLike } from './static.js';

export { functionName };

/** A facade method does little besides forwarding (a connection check, the call, a return). */
const MAX_STATEMENTS = 3;

/**
 * Whether the key at `keyNode` of `call` is the key parameter of a wrapper that re-exposes the
 * call's command under its own name (see the module comment).
 * @param context the rule context (scope analysis resolves the parameter)
 * @param call the Redis command
 * @param keyNode the key argument as written at the call
 */
export function isPassThrough(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  return passThroughFunction(context, call, keyNode) !== undefined;
}

/**
 * The wrapper and the position of its parameter that the key at `keyNode` of `call` forwards,
 * when {@link isPassThrough} holds: what its callers pass there is the key
 * (`redis-calls/facades.ts` reads those calls as the command). `index` counts the wrapper's
 * parameters from 0; `rest` says the parameter is `...keys` (the key is then the argument at
 * `index`, the first of the rest). `named` false: whatever the wrapper's name
 * ({@link forwardingWrapper}).
 */
export function passThroughParameter(
  context: AnyContext,
  call: RedisCall,
  keyNode: TSESTree.Node,
  named = true,
): { fn: FunctionLike; index: number; rest: boolean; destructured?: TSESTree.Identifier } | undefined {
  const param = passThroughFunction(context, call, keyNode, named);
  if (!param) return undefined;
  const index = param.fn.params.findIndex((p) => parameterBinding(p) === param.id);
  if (index >= 0) return { fn: param.fn, index, rest: param.fn.params[index]!.type === AST_NODE_TYPES.RestElement };
  // a name of an options object the wrapper destructures (`set({ key, value, client = c })`):
  // what its callers pass there is the property of that name of the object they pass
  const destructured = destructuredParameter(param.fn, param.id);
  return destructured && { fn: param.fn, index: destructured.index, rest: false, destructured: destructured.id };
}

/**
 * The position of the object parameter of `fn` that binds `id` as one of its top-level names
 * (`{ key, ttl = 60 }`, also `{ key } = {}`; not a nested pattern, a computed key or a rest
 * element), with that name; else `undefined`.
 */
export function destructuredParameter(fn: FunctionLike, id: TSESTree.Node): { index: number; id: TSESTree.Identifier } | undefined {
  for (const [index, param] of fn.params.entries()) {
    const inner = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    if (inner.type !== AST_NODE_TYPES.ObjectPattern) continue;
    for (const property of inner.properties) {
      if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
      const bound = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
      if (bound === id && bound.type === AST_NODE_TYPES.Identifier) return { index, id: bound };
    }
  }
  return undefined;
}

/** The wrapper that forwards the key at `keyNode` of `call`, when {@link isPassThrough} holds. */
export function passThroughWrapper(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): FunctionLike | undefined {
  return passThroughFunction(context, call, keyNode)?.fn;
}

/**
 * The position in `fn`'s parameters of the plain parameter (not a rest element, not destructured,
 * without default) that the key expression `keyNode` forwards as it is, through a key builder of
 * the code (`this.addPrefix(key)`), with configuration around it (`` `${prefix}${key}` ``) or
 * through a `const` of `fn` holding one of these (`const prefixedKey = this.addPrefix(key)`); else
 * `undefined`. An options facade's arms (`option-arms.ts`) forward their key this way.
 */
export function forwardedKeyParameterIndex(context: AnyContext, keyNode: TSESTree.Node, fn: FunctionLike): number | undefined {
  const param = forwardedParameter(context, unwrap(keyNode), 0);
  if (param?.fn !== fn) return undefined;
  const index = fn.params.findIndex((p) => parameterBinding(p) === param.id);
  const declared = index < 0 ? undefined : fn.params[index]!;
  const inner = declared?.type === AST_NODE_TYPES.TSParameterProperty ? declared.parameter : declared;
  return inner?.type === AST_NODE_TYPES.Identifier ? index : undefined;
}

/**
 * The wrapper the key at `keyNode` of `call` forwards a parameter of, judged by its shape alone:
 * what {@link isPassThrough} asks but the name (short, the key its parameter as the module comment
 * says, the call its only Redis command). `hashIncrementRemote(hash, field, n) { return
 * this.store.hincrby(hash, field, n); }` has that shape; whether its name may differ from the
 * command is the key policy's to decide (`redis-calls/api-wrappers.ts`).
 */
export function forwardingWrapper(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): FunctionLike | undefined {
  return passThroughFunction(context, call, keyNode, false)?.fn;
}

/**
 * The function whose parameter the key expression `keyNode` forwards (as it is, given to a key
 * builder of the code, or with configuration around it: see the module comment), else `undefined`.
 */
export function forwardingFunction(context: AnyContext, keyNode: TSESTree.Node): FunctionLike | undefined {
  return forwardedParameter(context, unwrap(keyNode), 0)?.fn;
}

/**
 * The wrapper whose parameter `id` the key forwards, when {@link isPassThrough} holds (`named`
 * false: whatever the wrapper's name, then the call must be its only Redis command).
 */
function passThroughFunction(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node, named = true): { fn: FunctionLike; id: TSESTree.Node } | undefined {
  const param = forwardedParameter(context, unwrap(keyNode), 0);
  if (!param) return undefined;
  const fn = param.fn;
  if (!shortBody(fn)) return undefined;
  // the call is the wrapper's own, or sits in a promise executor or callback written in it
  for (let inner = enclosingFunction(call.node); inner !== fn; inner = enclosingFunction(inner)) {
    if (!inner || !isFunction(inner) || !shortBody(inner)) return undefined;
    const holder = inner.parent;
    const passed = (holder?.type === AST_NODE_TYPES.CallExpression || holder?.type === AST_NODE_TYPES.NewExpression) && holder.arguments.includes(inner as TSESTree.CallExpressionArgument);
    if (!passed) return undefined;
  }
  const name = functionName(fn) ?? assignedMethodName(fn);
  // whatever its name: the call is its only command, or the same write in the other arm of a
  // choice (`lmove` sending LMOVE or RPOPLPUSH by the server's version)
  if (!named) return redisCallsIn(context, fn.body).every((other) => other === call || sameWriteOtherArm(context, name, call, other)) ? param : undefined;
  if (name === undefined || !namesCommand(context, name, call)) return undefined;
  // a wrapper that sends another command too (its own EXPIRE, a read first) decides about the
  // key itself: it is judged where it is, not at its callers; the other end of the same list
  // chosen by a parameter (`position === 'start' ? c.lpush(key, v) : c.rpush(key, v)`) is the
  // same write
  return redisCallsIn(context, fn.body).every((other) => other === call || sameWriteOtherArm(context, name, call, other)) ? param : undefined;
}

/**
 * Whether `other` is the write `call` makes, in the other arm of a choice (`c ? a : b`, `if`):
 * a command the wrapper's name names too (`push` is LPUSH or RPUSH), or one that makes the same
 * write (`semantics/commands.ts` sameWriteCommands: the same command, LMOVE or RPOPLPUSH), with
 * the same effect on each of the same key expressions (`lmove(source, destination)` sending
 * `LMOVE source destination` in both arms of a direction test).
 */
export function sameWriteOtherArm(context: AnyContext, name: string | undefined, call: RedisCall, other: RedisCall): boolean {
  const equivalent = sameWriteCommands(call.command, other.command) || (name !== undefined && namesCommand(context, name, other));
  if (!equivalent) return false;
  const arms = otherArms(call.node, other.node);
  // after an early return, only two commands of one counter (`if (n === 1) { return c.incr(key); }
  // return c.incrby(key, n);`); the same command on both sides may drop what the test read (a TTL)
  if (arms === false || (arms === 'early' && call.command === other.command)) return false;
  const keys = (c: RedisCall): string | undefined => {
    const parts = c.description.keys.map((action) => {
      const node = c.argNodes[action.arg];
      return node ? `${action.effect}:${context.sourceCode.getText(node)}` : undefined;
    });
    return parts.length > 0 && parts.every((part) => part !== undefined) ? parts.join('\0') : undefined;
  };
  return keys(call) !== undefined && keys(call) === keys(other);
}

/**
 * Whether two nodes sit in different arms of one conditional expression or `if`, or one in an
 * `if` without `else` that always returns or throws and the other after it in the same block
 * (`if (n === 1) { return c.incr(key); } return c.incrby(key, n);`): `'arms'` or `'early'`.
 */
function otherArms(a: TSESTree.Node, b: TSESTree.Node): 'arms' | 'early' | false {
  for (let node: TSESTree.Node | undefined = a.parent; node; node = node.parent) {
    if (node.range[0] > b.range[0] || node.range[1] < b.range[1]) continue;
    if (node.type === AST_NODE_TYPES.BlockStatement) return earlyReturnArms(node, a, b) ? 'early' : false;
    if (node.type !== AST_NODE_TYPES.ConditionalExpression && node.type !== AST_NODE_TYPES.IfStatement) return false;
    const arm = (n: TSESTree.Node): 'consequent' | 'alternate' | undefined =>
      encloses(node.consequent, n) ? 'consequent' : node.alternate && encloses(node.alternate, n) ? 'alternate' : undefined;
    const armA = arm(a);
    const armB = arm(b);
    return armA !== undefined && armB !== undefined && armA !== armB ? 'arms' : false;
  }
  return false;
}

/**
 * Whether, in `block`, one of `a` and `b` sits in the branch of an `if` without `else` that always
 * exits (ends in `return` or `throw`), and the other in a later statement of the block: the rest
 * of the block is that `if`'s other arm.
 */
function earlyReturnArms(block: TSESTree.BlockStatement, a: TSESTree.Node, b: TSESTree.Node): boolean {
  const indexOf = (n: TSESTree.Node): number => block.body.findIndex((statement) => encloses(statement, n));
  const [first, second] = [indexOf(a), indexOf(b)].sort((x, y) => x - y) as [number, number];
  if (first < 0 || first === second) return false;
  const guard = block.body[first]!;
  if (guard.type !== AST_NODE_TYPES.IfStatement || guard.alternate) return false;
  // the first write in the branch that returns, not in the test (which runs either way)
  if (!encloses(guard.consequent, indexOf(a) === first ? a : b)) return false;
  const last = guard.consequent.type === AST_NODE_TYPES.BlockStatement ? guard.consequent.body.at(-1) : guard.consequent;
  return last?.type === AST_NODE_TYPES.ReturnStatement || last?.type === AST_NODE_TYPES.ThrowStatement;
}

/** Words a wrapper's name adds to the command's without changing it: `setKey`, `getValue`, `setRedisObject`. */
const GENERIC_SUFFIX = /(?:Key|Value|Item|Entry)$/;
/**
 * The store and a generic noun after the verb, with a preposition: `setRedisObject`,
 * `pushToRedisList`, `setCacheValue`, `incrInRedis` (the verb is then the command).
 */
const STORE_SUFFIX = /^([a-z]+)(?:To|In|Into|On)?(?:Redis|Cache)(?:Key|Value|Item|Entry|Object|Data|String|List|Hash|Record)?$/;
/** The promisified variant's suffix, after a name of its own: `setAsync` (not `Async` alone). */
const PROMISIFIED_SUFFIX = /(?<=[a-zA-Z])Async$/;
/**
 * Counter verbs spelled out: `increment` and `increase` are INCR, `decrementBy` DECRBY; `push` is
 * either end's LPUSH / RPUSH.
 */
const COUNTER_WORDS: Readonly<Record<string, string | string[]>> = {
  INCREMENT: 'INCR',
  INCREMENTBY: 'INCRBY',
  INCREASE: 'INCR',
  INCREASEBY: 'INCRBY',
  DECREMENT: 'DECR',
  DECREMENTBY: 'DECRBY',
  DECREASE: 'DECR',
  DECREASEBY: 'DECRBY',
  PUSH: ['LPUSH', 'RPUSH'],
};

/**
 * The commands a wrapper's name says it sends: the command's own name in any case (`hSet`), with
 * a generic noun added (`setKey`, `getValue`), the store named after the verb (`setRedisObject`,
 * `pushToRedisList`: `push` is LPUSH or RPUSH), a hash verb spelled with its type (`setHash` is
 * HSET), a counter verb spelled out (`increment`, `increase`, `decrementBy`), each maybe as the
 * promisified variant (`setAsync`, `hSetAsync`, `incrbyFloatAsync`). Not the command's name alone:
 * `[name]` is among them whether or not Redis has such a command.
 */
export function commandsOfWrapperName(name: string): string[] {
  // the promisified variant bluebird's promisifyAll (and the code's own `util.promisify` wrappers)
  // name after the command: `setAsync`, `hincrbyAsync`, `setKeyAsync`
  const bases = PROMISIFIED_SUFFIX.test(name) ? [name, name.replace(PROMISIFIED_SUFFIX, '')] : [name];
  const spelled = bases.flatMap((base) => {
    const store = STORE_SUFFIX.exec(base)?.[1];
    return [base, base.replace(GENERIC_SUFFIX, ''), base.replace(/^([a-z]+)Hash$/, 'h$1'), ...(store ? [store] : [])];
  });
  return [...new Set(spelled.filter((n) => n !== '').map((n) => n.toUpperCase()))].flatMap((n) => COUNTER_WORDS[n] ?? n);
}

/**
 * Whether a wrapper's name is the command it sends ({@link commandsOfWrapperName}), or a counter
 * command that adds the same amount (`incr(key) { return this.incrBy(key, 1) }`: INCR is INCRBY 1,
 * `semantics/commands.ts` counterStep), or the same way by an amount the code does not fix
 * (`incr(key, n = 1)` sending INCRBY `n`: the caller's step).
 */
export function namesCommand(context: AnyContext, name: string, call: RedisCall): boolean {
  const commands = commandsOfWrapperName(name);
  // `hmset(key, v)` sending HSET (node-redis' hSet): the same write (semantics sameWriteCommands)
  if (commands.some((command) => sameWriteCommands(command, call.command))) return true;
  const amountNode = call.command === 'INCRBY' || call.command === 'DECRBY' ? call.argNodes[1] : undefined;
  const amount = amountNode ? constantNumber(context, amountNode) : undefined;
  const step = counterStep(call.command, amount);
  if (step !== undefined) return commands.some((command) => counterStep(command) === step);
  // `incr(key, n = 1)` sending INCRBY by the caller's `n`: the counter its name says, by the
  // amount its caller chooses (a constant amount must be the name's: `incr` sending INCRBY 5 is not)
  // INCRBY by `-n` (or `n * -1`) moves the counter the other way: DECRBY `n`
  const direction = counterDirection(call.command);
  const sign = amountNode ? amountSign(context, amountNode) : 1;
  return amountNode !== undefined && amount === undefined && direction !== undefined && commands.some((command) => counterDirection(command) === direction * sign);
}

/**
 * The sign an amount the code does not fix gives the caller's value: -1 for `-n`, `n * -1`, `-1 *
 * n`, `n / -1`, else 1 (`n`, `+n`, `n * 2`: the caller's own).
 */
function amountSign(context: AnyContext, input: TSESTree.Node): number {
  const node = unwrap(input);
  if (node.type === AST_NODE_TYPES.UnaryExpression && (node.operator === '-' || node.operator === '+')) return (node.operator === '-' ? -1 : 1) * amountSign(context, node.argument);
  if (node.type === AST_NODE_TYPES.BinaryExpression && (node.operator === '*' || node.operator === '/')) {
    const factor = (side: TSESTree.Node): number => {
      const value = constantNumber(context, side);
      return value === undefined ? amountSign(context, side) : value < 0 ? -1 : 1;
    };
    return factor(node.left) * factor(node.right);
  }
  return 1;
}

/** Which way a string counter command moves its integer by a positive amount: the sign of `semantics/command-families.ts` counterStep (1 for INCR / INCRBY, -1 for DECR / DECRBY), `undefined` for another command. */
function counterDirection(command: string): number | undefined {
  const step = counterStep(command, 1);
  return step === undefined ? undefined : Math.sign(step);
}

/** The identifier a parameter binds: `key`, `key = ''`, `private readonly key`, `...keys`. */
function parameterBinding(param: TSESTree.Parameter): TSESTree.Node | undefined {
  const inner = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
  if (inner.type === AST_NODE_TYPES.AssignmentPattern) return inner.left;
  if (inner.type === AST_NODE_TYPES.RestElement) return inner.argument;
  return inner;
}

/**
 * The parameter a key expression forwards, with its function: the bare parameter, a key builder of
 * the module given it (`this.buildKey(key)`, `prefixed(key)`), or fixed parts around it
 * (`` `${this.prefix}:${key}` ``, `PREFIX + key`).
 */
function forwardedParameter(context: AnyContext, key: TSESTree.Node, depth: number): { fn: FunctionLike; id: TSESTree.Node } | undefined {
  if (depth > 3) return undefined;
  if (key.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context, key);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type === 'Parameter') return isFunction(def.node) ? { fn: def.node, id: def.name } : undefined;
    // the key built first in a `const` of the wrapper (`const full = this.concatenateKey(key)`)
    const init = constInitializer(context, key);
    return init && def && enclosingFunction(def.node) !== undefined ? forwardedParameter(context, unwrap(init), depth + 1) : undefined;
  }
  let parts: TSESTree.Node[] | undefined;
  // a key builder of the code given the parameter, its other arguments fixed, or not part of the
  // key it builds (`this.buildKey(baseKey, addKeyPrefix)` only tests `addKeyPrefix`)
  let fixedPart = (part: TSESTree.Node): boolean => keyShapeOf(context, part).constant;
  const builder = key.type === AST_NODE_TYPES.CallExpression ? builderOf(context, unwrap(key.callee)) : undefined;
  if (builder && key.type === AST_NODE_TYPES.CallExpression) {
    const keyParams = keyParameters(builder);
    parts = key.arguments.filter((_, index) => keyParams.size === 0 || keyParams.has(index));
  } else if (key.type === AST_NODE_TYPES.TemplateLiteral || key.type === AST_NODE_TYPES.BinaryExpression) {
    // configuration around the parameter (`${this.prefix}:${key}`), not a family the wrapper names
    // (`hits:${id}` chooses which keys exist, as `saveSummary` does)
    if (key.type === AST_NODE_TYPES.BinaryExpression && key.operator !== '+') return undefined;
    if (key.type === AST_NODE_TYPES.TemplateLiteral && !key.quasis.every((quasi) => SEPARATORS.test(quasi.value.cooked ?? 'x'))) return undefined;
    parts = key.type === AST_NODE_TYPES.TemplateLiteral ? key.expressions : [key.left, key.right];
    fixedPart = (part) => {
      const shape = keyShapeOf(context, part);
      return shape.constant && SEPARATORS.test(shape.shape.replace(/\*/g, ''));
    };
  }
  if (!parts) return undefined;
  // exactly one part forwards the parameter; every other part is fixed
  let found: { fn: FunctionLike; id: TSESTree.Node } | undefined;
  for (const part of parts) {
    if (part.type === AST_NODE_TYPES.SpreadElement || part.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
    const forwarded = forwardedParameter(context, unwrap(part), depth + 1);
    if (forwarded) {
      if (found) return undefined;
      found = forwarded;
    } else if (!fixedPart(part)) {
      return undefined;
    }
  }
  return found;
}

/**
 * The key builder a wrapper calls: a function or method of its module (`prefixed(key)`,
 * `this.buildKey(key)`, a class-field arrow `this.ns(key)`), or a function another module of the
 * code exports (`import { prefixed } from './keys'`).
 */
function builderOf(context: AnyContext, callee: TSESTree.Node): FunctionLike | undefined {
  const local = keyBuilder(context, callee);
  if (local) return local.fn;
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const detector = clientDetectorOf(context);
  const origin = detector.identifierOrigin(callee);
  const exported = origin.kind === 'import' && origin.own ? detector.exported(origin) : undefined;
  if (!exported) return undefined;
  const node = unwrap(exported.node);
  const fn = node.type === AST_NODE_TYPES.Identifier ? exported.detector.functionOf(node) : node;
  return fn && isFunction(fn as TSESTree.Node) && (fn as FunctionLike).body ? (fn as FunctionLike) : undefined;
}

/**
 * The positions of a builder's parameters that the key it returns is made of: those its returned
 * expressions read outside a condition's test (`addKeyPrefix ? full(baseKey) : baseKey` is made of
 * `baseKey` only). Empty when it cannot tell (the key is built in a local variable first).
 */
function keyParameters(fn: FunctionLike): Set<number> {
  const byName = new Map<string, number>();
  fn.params.forEach((param, index) => {
    const binding = parameterBinding(param);
    if (binding?.type === AST_NODE_TYPES.Identifier) byName.set(binding.name, index);
  });
  const used = new Set<number>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const current = node as TSESTree.Node;
    if (typeof current.type !== 'string') return;
    if (current.type === AST_NODE_TYPES.Identifier) {
      const index = byName.get(current.name);
      if (index !== undefined) used.add(index);
      return;
    }
    if (isFunction(current)) return;
    for (const [field, child] of Object.entries(current)) {
      if (field === 'parent' || field === 'loc' || field === 'range') continue;
      // the test of `c ? a : b` chooses between keys; it is no part of one
      if (field === 'test' && current.type === AST_NODE_TYPES.ConditionalExpression) continue;
      // `x.name`: a property name, not a read of `name`
      if (field === 'property' && current.type === AST_NODE_TYPES.MemberExpression && !current.computed) continue;
      visit(child);
    }
  };
  returnExpressions(fn).forEach(visit);
  return used;
}

/** Text that only separates key parts (`:`, `/`, `.`, `-`, `_`, `|`, `#`), or none. */
const SEPARATORS = /^[:/.\-_|#{}]*$/;

/**
 * At most {@link MAX_STATEMENTS} statements (an expression body is one), not counting those that
 * only log (`debug('set %s', key)`, `if (this.debug) console.debug(...)`) or only read the clock
 * to time the call (`const start = Date.now()`, `const elapsed = Date.now() - start`), nor those
 * `skipped` says (a TTL-arms helper's early returns: `exported-arms-helpers.ts`).
 */
export function shortBody(fn: FunctionLike, skipped?: (statement: TSESTree.Statement) => boolean): boolean {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return true;
  return fn.body.body.filter((statement) => !logsOnly(statement) && !timesOnly(statement) && !argumentCheck(statement) && !skipped?.(statement)).length <= MAX_STATEMENTS;
}

/**
 * An argument check that throws (`if (!key) throw new Error('key required')`): it sends nothing
 * and decides nothing about the key beyond whether the call goes on at all.
 */
function argumentCheck(statement: TSESTree.Statement): boolean {
  if (statement.type !== AST_NODE_TYPES.IfStatement || statement.alternate) return false;
  const body = statement.consequent.type === AST_NODE_TYPES.BlockStatement && statement.consequent.body.length === 1 ? statement.consequent.body[0]! : statement.consequent;
  return body.type === AST_NODE_TYPES.ThrowStatement;
}

/**
 * The property name a function is assigned to as a method of an object (`redis.xAdd = (stream,
 * id, data) => ...`, `client.hSet = function (...) {...}`), else `undefined`.
 */
function assignedMethodName(fn: FunctionLike): string | undefined {
  const parent = fn.parent;
  if (parent?.type !== AST_NODE_TYPES.AssignmentExpression || parent.right !== fn || parent.operator !== '=') return undefined;
  const target = parent.left;
  return target.type === AST_NODE_TYPES.MemberExpression && !target.computed && target.property.type === AST_NODE_TYPES.Identifier ? target.property.name : undefined;
}

/**
 * A declaration whose every value reads the clock (`Date.now()`, `performance.now()`,
 * `process.hrtime()` / `process.hrtime.bigint()`, `new Date()`), maybe in arithmetic with other
 * names (`Date.now() - start`): it times the forwarded call and decides nothing about the key.
 */
function timesOnly(statement: TSESTree.Statement): boolean {
  if (statement.type !== AST_NODE_TYPES.VariableDeclaration) return false;
  return statement.declarations.every((d) => d.id.type === AST_NODE_TYPES.Identifier && d.init !== null && clockArithmetic(d.init) === 'clock');
}

/** `'clock'` when `node` is arithmetic over names and numbers with at least one clock read, `'plain'` without one, `undefined` when it is anything else. */
function clockArithmetic(input: TSESTree.Node): 'clock' | 'plain' | undefined {
  const node = unwrap(input);
  if (node.type === AST_NODE_TYPES.Identifier || (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'number')) return 'plain';
  if (node.type === AST_NODE_TYPES.BinaryExpression && ['-', '+', '/', '*'].includes(node.operator)) {
    const left = node.left.type === AST_NODE_TYPES.PrivateIdentifier ? undefined : clockArithmetic(node.left);
    const right = clockArithmetic(node.right);
    if (!left || !right) return undefined;
    return left === 'clock' || right === 'clock' ? 'clock' : 'plain';
  }
  if (node.type === AST_NODE_TYPES.NewExpression) return node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'Date' && node.arguments.length === 0 ? 'clock' : undefined;
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(node.callee);
  const path: string[] = [];
  for (let part: TSESTree.Node = callee; ; ) {
    if (part.type === AST_NODE_TYPES.Identifier) {
      path.unshift(part.name);
      break;
    }
    if (part.type !== AST_NODE_TYPES.MemberExpression || part.computed || part.property.type !== AST_NODE_TYPES.Identifier) return undefined;
    path.unshift(part.property.name);
    part = part.object;
  }
  return CLOCK_READS.has(path.join('.')) ? 'clock' : undefined;
}

/** Calls that read the clock, by their path. */
const CLOCK_READS = new Set(['Date.now', 'performance.now', 'process.hrtime', 'process.hrtime.bigint']);

/** A log line: `console.debug(...)`, `this.logger.info(...)`, the `debug` package's `debug(...)`, also under an `if`. */
export function logsOnly(statement: TSESTree.Statement): boolean {
  if (statement.type === AST_NODE_TYPES.IfStatement) return !statement.alternate && logsOnly(statement.consequent);
  if (statement.type === AST_NODE_TYPES.BlockStatement) return statement.body.length > 0 && statement.body.every(logsOnly);
  if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(statement.expression.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name === 'debug';
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = unwrap(callee.object);
  const objectName = referenceName(object);
  return objectName !== undefined && /^(?:console|_?logger|log|_?debug)$/i.test(objectName);
}

function isFunction(node: TSESTree.Node): node is FunctionLike {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

