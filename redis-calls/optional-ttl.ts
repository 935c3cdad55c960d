/**
 * "The caller chose no TTL": a write without TTL in one arm of a branch whose condition tests the
 * TTL value that the other arm passes as the expiry, and takes this arm only when that value is
 * absent (`undefined`, `null`, `0`, `''`, `false`, a sentinel such as `'never'` or `-1`, not a
 * number, or <= 0; also said by a predicate call: `isNil(ttl)`, `util.isNullOrUndefined(ttl)`,
 * `Number.isFinite(ttl)` false):
 * `if (ttl) set(k, v, 'EX', ttl) else set(k, v)`, `ttl ? setex(...) : set(...)`,
 * `if (options && options.EX) ... else ...`, `if (t !== undefined && t !== 0) { multi.set(k, v,
 * 'PX', t) } else mset(...)`, `if (this.ttl !== undefined)`, `if (ttl) { ...; return; } set(k, v)`.
 * The no-TTL write may be of another key than the expiring one (an MSET of the entries the other
 * arm writes one by one). Stores such as keyv, cache-manager or connect-redis take "no TTL" from
 * their caller as "never expires": the TTL-less arm is a decision made next to the arm that sets the
 * TTL, not a forgotten expiry. A test of a TTL-named flag that does not read the TTL value itself
 * (`if (disableTtl) return set(k, v); return setex(k, t, v)`) counts when the other arm writes the
 * same key (same shape) with a TTL. Not the caller's choice, and reported: a condition unrelated to
 * the TTL (`if (cached)`), one under which the no-TTL arm runs while a TTL was given
 * (`if (ttl > 1000) ... else set(k, v)`, `if (ttl) set(k, v) else set(k, v, 'EX', ttl)`), and a
 * TTL the code computes as a time left (`const ttl = deadline - Date.now()`: ttl-value.ts
 * remainingTime), which runs out to 0 by the code's own doing. An infinite lifetime (`ttl ===
 * Infinity`, `Number.POSITIVE_INFINITY`) is a caller's "never expires", like `-1` or `'never'`.
 * Compiled async code (Babel's regenerator) turns such an `if` into cases of one `switch`: a case
 * that writes the same key with a TTL counts as the other arm. A test of a TTL-named parameter of
 * an enclosing function that the function hands to a call outside the arm counts without an arm
 * the analyzer can read (`if (ttl === 0) zAdd(k, m) else zAddWithTtl(k, m, ttl * 1000)`). A write
 * whose command has no TTL syntax (MSET, HSET: `COMMANDS_WITHOUT_TTL_SYNTAX`) counts beside an arm
 * that hands on the caller's or configuration's TTL it tests (an array element, a call argument:
 * `setCommands.push(['set', k, v, 'PX', this.config.ttlInMsecs]); return multi(setCommands)`).
 * An Effect Option is an optional TTL: `ttl._tag === 'None'`, `Option.isNone` / `isSome`, and the
 * `onNone` handler of `Option.match(ttl, { onNone, onSome })` whose `onSome` writes the same key
 * with a TTL. The other arm may give the key its TTL through a helper handed the unit and the key
 * (`this.expireIn(multi, key)`, `helper-expiry.ts`), whose TTL as the arm reads it (`this.lifetime`
 * of the arm's class, or the argument passed) is the value tested: a store's configured "never
 * expire" (`if (this.lifetime) { multi + helper } else { write }`).
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { COMMANDS_WITHOUT_TTL_SYNTAX, EXPIRY_EFFECTS } from '../semantics/commands.js';
import { callersPassTested, deferredCommand } from './deferred-arms.js';
import { helperExpiriesOf } from './helper-expiry-read.js';
import { redisCallsIn } from './index.js';
import { sameKeyByShape } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import { TTL_NAME } from './names.js';
import { alwaysExits, constInitializer, defaultImportOf, findVariable, numberLiteral, propertyName, swappedComparison, unwrap, walk, type AnyContext } from './static.js';
import { remainingTime } from './ttl-value.js';

/**
 * Whether `call` writes the key at argument `keyArg` in the no-TTL arm of an explicit TTL test
 * whose other arm gives the same key a TTL (the same expression, or the same shape: `sameKeyByShape`).
 */
export function inNoTtlArm(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  const shape = keyShapeOf(context, keyNode).shape;
  const keyText = squeeze(context.sourceCode.getText(keyNode));
  // crossed a callback that only queues the write: which arm runs is then the callers' to show
  // (redis-calls/deferred-arms.ts)
  let deferred = false;
  const decided = (test: TSESTree.Node): boolean => !deferred || callersPassTested(context, test);
  for (let node: TSESTree.Node = call.node; node.parent; node = node.parent) {
    const parent: TSESTree.Node = node.parent;
    // Option.match(ttl, { onNone: () => set(k, v), onSome: (t) => set(k, v, 'PX', t) })
    // a command queued as a callback (`queue.push(() => client.set(k, v))`) is the same write,
    // deferred: the arm it sits in is the queuing code's
    if (isFunction(parent) && deferredCommand(parent, node)) {
      deferred = true;
      continue;
    }
    if (isFunction(parent)) return optionMatchSibling(context, parent, shape, keyText, keyNode);
    if ((parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') && parent.test !== node) {
      const inConsequent = node === parent.consequent;
      const other = inConsequent ? parent.alternate : parent.consequent;
      // the write runs when the test is `inConsequent`
      if (other && armSetsTtl(context, other, { node: parent.test, value: inConsequent }, shape, keyText, keyNode)) return decided(parent.test);
      // if (ttl) { ...multi(commandsWithPx) } else { mset(...) }: MSET cannot carry the TTL the other arm hands on
      if (other && COMMANDS_WITHOUT_TTL_SYNTAX.has(call.command) && armHandsOnTestedTtl(context, other, { node: parent.test, value: inConsequent })) return decided(parent.test);
      // if (ttl === 0) set(k, v) else setWithTtl(k, v, ttl): the caller's TTL parameter said none
      if (callerChoseNoTtl(context, { node: parent.test, value: inConsequent }, node)) return decided(parent.test);
      // if (disableTtl) return redis.set(k, v);  return redis.setex(k, ttl, v);
      if (!other && parent.type === 'IfStatement' && alwaysExits(parent.consequent)) {
        const slot = parent.parent;
        const list: readonly TSESTree.Node[] =
          slot.type === 'BlockStatement' || slot.type === 'Program' ? slot.body : slot.type === 'SwitchCase' ? slot.consequent : [];
        for (const sibling of list.slice(list.indexOf(parent) + 1)) {
          if (armSetsTtl(context, sibling, { node: parent.test, value: true }, shape, keyText, keyNode)) return decided(parent.test);
        }
      }
    }
    // compiled async code (regenerator state machines) spreads an if / else over the cases of one
    // switch: another case that writes the key with a TTL is the other arm of the same decision
    if (parent.type === 'SwitchCase' && parent.parent.type === 'SwitchStatement' && stateMachineSwitch(parent.parent)) {
      for (const other of parent.parent.cases) {
        if (other !== parent && armSetsTtl(context, other, null, shape, keyText, keyNode)) return !deferred;
      }
    }
    // if (ttl) { await redis.set(k, v, 'EX', ttl); return; }  await redis.set(k, v);
    if (parent.type === 'BlockStatement' || parent.type === 'Program' || parent.type === 'SwitchCase') {
      const list: readonly TSESTree.Node[] = parent.type === 'SwitchCase' ? parent.consequent : parent.body;
      for (const sibling of list.slice(0, list.indexOf(node))) {
        if (sibling.type === 'IfStatement' && !sibling.alternate && alwaysExits(sibling.consequent)) {
          if (armSetsTtl(context, sibling.consequent, { node: sibling.test, value: false }, shape, keyText, keyNode)) return decided(sibling.test);
          if (callerChoseNoTtl(context, { node: sibling.test, value: false }, node)) return decided(sibling.test);
          if (COMMANDS_WITHOUT_TTL_SYNTAX.has(call.command) && armHandsOnTestedTtl(context, sibling.consequent, { node: sibling.test, value: false })) return decided(sibling.test);
        }
      }
    }
  }
  return false;
}

/**
 * A test that takes the write's arm only when a TTL the caller chose is absent: a TTL-named
 * parameter of an enclosing function (`ttl`, `options.ttlMs`, a destructured `{ ttl = DAY }`) is
 * then falsy, `0`, <= 0, ... ({@link absentWhen}), and the function passes that TTL on to some
 * call outside the arm (`zAddWithTtl(redis, key, v, ttl * 1000)`, the TTL write of a helper the
 * analyzer cannot read): `if (ttl === 0) await redis.zAdd(k, m); else await zAddWithTtl(...)`.
 */
function callerChoseNoTtl(context: AnyContext, test: Branch, arm: TSESTree.Node): boolean {
  for (const ref of referencesIn(context, test.node)) {
    if (!TTL_NAME.test(ref.slice(ref.lastIndexOf('.') + 1))) continue;
    const root = rootIdentifier(context, test.node, ref.split('.')[0]!);
    const variable = root ? findVariable(context, root) : null;
    const def = variable?.defs[0];
    if (!def || def.type !== 'Parameter' || !absentWhen(context, test.node, test.value, new Set([ref]))) continue;
    if (passedOnOutside(context, def.node, ref, arm)) return true;
  }
  return false;
}

/** The identifier named `name` in `root` (the first one in source order). */
function rootIdentifier(context: AnyContext, root: TSESTree.Node, name: string): TSESTree.Identifier | undefined {
  let found: TSESTree.Identifier | undefined;
  walk(context, root, (node) => {
    if (node.type !== 'Identifier' || node.name !== name) return undefined;
    found = node;
    return 'stop';
  });
  return found;
}

/** Whether a call in `fn` outside `arm` takes `ref` in one of its arguments. */
function passedOnOutside(context: AnyContext, fn: TSESTree.Node, ref: string, arm: TSESTree.Node): boolean {
  return walk(context, fn, (node) => {
    if (node === arm) return 'skip';
    if ((node.type === 'CallExpression' || node.type === 'NewExpression') && node.arguments.some((a) => referencesIn(context, a).has(ref))) return 'stop';
    return undefined;
  });
}

/**
 * The `onNone` handler of an Option match (`Option.match(ttl, { onNone, onSome })`, the curried
 * `Option.match({ onNone, onSome })`, any callee named `match`) whose `onSome` handler gives the
 * same key a TTL: the caller's Option said "no TTL". `fn` is the function the write sits in.
 */
function optionMatchSibling(context: AnyContext, fn: TSESTree.Node, shape: string, keyText: string, keyNode: TSESTree.Node): boolean {
  const property = fn.parent;
  if (property?.type !== 'Property' || property.value !== fn || propertyName(property.key, property.computed) !== 'onNone') return false;
  const object = property.parent;
  const call = object.parent;
  if (object.type !== 'ObjectExpression' || call?.type !== 'CallExpression' || !call.arguments.includes(object)) return false;
  const callee = unwrap(call.callee);
  const name = callee.type === 'MemberExpression' ? propertyName(callee.property, callee.computed) : callee.type === 'Identifier' ? callee.name : undefined;
  if (name !== 'match') return false;
  for (const p of object.properties) {
    if (p.type !== 'Property' || propertyName(p.key, p.computed) !== 'onSome') continue;
    return isFunction(p.value) && armSetsTtl(context, p.value, null, shape, keyText, keyNode);
  }
  return false;
}

/**
 * An arm that hands on the TTL value its test reads, when the write runs only while that value is
 * absent: a TTL-named reference of the test (`this.config.ttlInMsecs`, `ttl`) is an element of an
 * array or an argument of a call in the arm (`setCommands.push(['set', k, v, 'PX',
 * this.config.ttlInMsecs])`, `multi(...)`), and the test takes the write's side only when it is
 * absent ({@link absentWhen}). Asked only for a write whose command has no TTL syntax (MSET,
 * HSET...): it cannot carry that TTL, the other arm is where the code gives it.
 */
function armHandsOnTestedTtl(context: AnyContext, arm: TSESTree.Node, test: Branch): boolean {
  const tested = [...referencesIn(context, test.node)].filter((ref) => TTL_NAME.test(ref.slice(ref.lastIndexOf('.') + 1)) && chosenByCaller(context, test.node, ref));
  const absent = tested.filter((ref) => absentWhen(context, test.node, test.value, new Set([ref])));
  if (absent.length === 0) return false;
  return walk(context, arm, (node) => {
    const parent = node.parent;
    const handed =
      (parent?.type === 'ArrayExpression' && parent.elements.includes(node as TSESTree.Expression)) ||
      ((parent?.type === 'CallExpression' || parent?.type === 'NewExpression') && parent.arguments.includes(node as TSESTree.Expression));
    if (!handed) return undefined;
    const text = referenceText(context, node);
    return text !== undefined && absent.includes(text) ? 'stop' : undefined;
  });
}

/**
 * Whether a TTL reference is one a caller or a configuration chose: a member of `this` (the
 * store's configured TTL, `this.config.ttlInMsecs`) or a parameter of an enclosing function
 * (`ttl`, `options.ttl`); a TTL the function computes itself (`const ttl = computeTtl(key)`) is not.
 */
function chosenByCaller(context: AnyContext, test: TSESTree.Node, ref: string): boolean {
  const root = ref.split('.')[0]!;
  if (root === 'this') return ref.includes('.');
  const id = rootIdentifier(context, test, root);
  return id !== undefined && findVariable(context, id)?.defs[0]?.type === 'Parameter';
}

/**
 * Whether a `switch` is the state machine compiled async code runs (Babel's regenerator: `switch
 * (_context.prev = _context.next)`, TypeScript's `__generator`: `switch (_a.label)`): its
 * discriminant reads a `next` / `label` member and every case is a number (or regenerator's
 * closing `case "end"`). A `switch` written by
 * hand (`switch (algorithm) { case 'fixed': ... }`) chooses between behaviours, not between the two
 * arms of one TTL decision: another case that expires the key says nothing of this one.
 */
function stateMachineSwitch(node: TSESTree.SwitchStatement): boolean {
  const discriminant = unwrap(node.discriminant);
  const read = discriminant.type === 'AssignmentExpression' ? unwrap(discriminant.right) : discriminant;
  if (read.type !== 'MemberExpression' || !['next', 'label'].includes(propertyName(read.property, read.computed) ?? '')) return false;
  // regenerator closes its machine with `case "end":`
  return node.cases.every((c) => c.test === null || numberLiteral(c.test) !== undefined || (c.test.type === 'Literal' && c.test.value === 'end'));
}

/** The test of a branch, and the value it has when the write without TTL runs. */
interface Branch {
  node: TSESTree.Node;
  value: boolean;
}

/**
 * An arm that gives a key a TTL, behind a test that is about that TTL: the test takes the other
 * arm only when the TTL value this arm passes is absent; or the test is about a TTL-named flag
 * and the arm writes the same key (an expiry counts only for the key it names: `sameKeyByShape`).
 * `test` is `null` for a regenerator `switch`.
 */
function armSetsTtl(context: AnyContext, arm: TSESTree.Node, test: Branch | null, shape: string, keyText: string, writeKey: TSESTree.Node): boolean {
  const testNames = test ? namesIn(context, test.node) : undefined;
  for (const call of redisCallsIn(context, arm)) {
    for (const action of call.description.keys) {
      const keyNode = call.argNodes[action.arg];
      if (!EXPIRY_EFFECTS.has(action.effect) || !keyNode) continue;
      const refs = ttlReferences(context, call, keyNode);
      // the test reads the TTL value this arm passes: the write runs only when it is absent, unless
      // the code computes that value as a time left (`deadline - Date.now()`): its running out is
      // the code's doing, not a caller's choice of no TTL (ttl-value.ts remainingTime)
      if (test && [...refs].some((ref) => readsReference(context, test.node, ref))) {
        const ttlArg = call.description.ttl ? call.argNodes[call.description.ttl.arg] : undefined;
        if (ttlArg && remainingTime(context, ttlArg)) continue;
        if (absentWhen(context, test.node, test.value, refs)) return true;
        continue;
      }
      // an expiry counts only for the key it names (`sameKeyByShape`)
      const sameKey =
        squeeze(context.sourceCode.getText(keyNode)) === keyText || (keyShapeOf(context, keyNode).shape === shape && sameKeyByShape(context, shape, writeKey, keyNode));
      if (!sameKey) continue;
      // a switch: the decision's test is not one expression (see inNoTtlArm)
      if (!testNames) return true;
      if ([...testNames].some((name) => TTL_NAME.test(name))) return true;
    }
  }
  return test !== null && helperSetsTestedTtl(context, arm, test, keyText);
}

/**
 * An arm that calls a helper queueing an EXPIRE of the same key (written the same way) on a unit
 * it is given (`helper-expiry.ts`: `this.expireIn(multi, key)`), whose TTL, as the arm reads it
 * (`this.lifetime` of the arm's own class, or the argument the arm passes), is the value the test
 * reads and finds absent on the other side: `if (this.lifetime) { ...; this.expireIn(multi, key) }
 * else { await redis.incrBy(key, n) }`, the operator's configured "never expire".
 */
function helperSetsTestedTtl(context: AnyContext, arm: TSESTree.Node, test: Branch, keyText: string): boolean {
  return walk(context, arm, (node) => {
    if (node.type !== 'CallExpression' || node.arguments.length < 2) return undefined;
    if (!node.arguments.some((arg) => arg.type !== 'SpreadElement' && squeeze(context.sourceCode.getText(unwrap(arg))) === keyText)) return undefined;
    for (const expiry of helperExpiriesOf(context, node, armRunsOnlyWithTtl)) {
      const key = node.arguments[expiry.keyArg];
      if (!key || !expiry.ttl || squeeze(context.sourceCode.getText(unwrap(key))) !== keyText) continue;
      const refs = ttlSourceReferences(context, [expiry.ttl]);
      if (refs && [...refs].some((ref) => readsReference(context, test.node, ref)) && absentWhen(context, test.node, test.value, refs)) return 'stop';
    }
    return undefined;
  });
}

/**
 * The values an expiring write takes its TTL from, as written (`ttl`, `this.ttl`, `options.EX`,
 * `options`): each identifier or member chain of its TTL argument (of every argument but the key
 * when the table names none) and the chains it starts with, less those the key itself reads.
 */
function ttlReferences(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): Set<string> {
  const ttlArg = call.description.ttl ? call.argNodes[call.description.ttl.arg] : undefined;
  const sources = ttlArg ? [ttlArg] : call.argumentNodes.filter((node) => node !== keyNode);
  const keyRefs = referencesIn(context, keyNode);
  const refs = new Set<string>();
  for (const source of sources) {
    for (const ref of referencesIn(context, source)) if (!keyRefs.has(ref)) refs.add(ref);
    // a TTL read into a `const` first (`const ttl = args[exIdx + 1]`): what it was read from too
    const bare = unwrap(source);
    const init = bare.type === 'Identifier' ? constInitializer(context, bare) : undefined;
    if (init) for (const ref of referencesIn(context, init)) if (!keyRefs.has(ref)) refs.add(ref);
  }
  return refs;
}

/** Identifier and member-chain texts in an expression (`a.b.c` gives `a`, `a.b`, `a.b.c`); not `this`. */
function referencesIn(context: AnyContext, root: TSESTree.Node): Set<string> {
  const refs = new Set<string>();
  const collect = (from: TSESTree.Node): void => {
    walk(context, from, (node) => {
      // `x as T`, `x!`: the value only, not its type
      const bare = unwrap(node);
      if (bare !== node) {
        collect(bare);
        return 'skip';
      }
      const text = referenceText(context, node);
      if (!text) return undefined;
      refs.add(text);
      if (node.type === 'MemberExpression') collect(node.object);
      return 'skip';
    });
  };
  collect(root);
  return refs;
}

/** `ttl`, `this.ttl`, `options?.EX` (as `options.EX`): an identifier or a chain of non-computed members; else undefined. */
function referenceText(context: AnyContext, input: TSESTree.Node): string | undefined {
  const node = unwrap(input);
  if (node.type === 'Identifier') return node.name === 'undefined' ? undefined : node.name;
  if (node.type !== 'MemberExpression' || node.computed) return undefined;
  const object = unwrap(node.object);
  const base = object.type === 'ThisExpression' ? 'this' : referenceText(context, object);
  return base === undefined ? undefined : `${base}.${node.property.type === 'Identifier' ? node.property.name : ''}`;
}

/** Whether a test reads the reference (as a whole chain: `options.EX`, not `options.other`). */
function readsReference(context: AnyContext, test: TSESTree.Node, ref: string): boolean {
  return referencesIn(context, test).has(ref);
}

/** How many `const` flags {@link absentWhen} reads through (a cycle, `const a = !a`, is a TDZ error but parses). */
const MAX_FLAG_HOPS = 3;

/**
 * Whether `test` having the value `value` implies that one of `refs` is absent: falsy, equal to a
 * value that is no TTL ({@link isNone}: `null`, `-1`, `'never'`), not a number, or <= 0. `!`, `&&`,
 * `||`, `===` / `!==` / `==` / `!=`, `typeof`, `>` / `>=` / `<` / `<=` with 0 or 1, and a nullish or
 * number predicate called on the value ({@link predicateKind}: `isNil(ttl)`, `Number.isFinite(ttl)`)
 * are read, and a `const` flag through the test it is computed by (`const permanent = ttlMs ===
 * 0`, at most {@link MAX_FLAG_HOPS} such `const`s deep); anything else implies nothing.
 */
function absentWhen(context: AnyContext, input: TSESTree.Node, value: boolean, refs: ReadonlySet<string>, flagHops = 0): boolean {
  const test = unwrap(input);
  const isRef = (node: TSESTree.Node): boolean => {
    const text = referenceText(context, node);
    return text !== undefined && refs.has(text);
  };
  if (isRef(test)) return !value;
  // const permanent = ttlMs === 0; if (!permanent) ...: a flag computed from the TTL, read through its `const`
  if (test.type === 'Identifier') {
    const init = constInitializer(context, test);
    return init !== undefined && flagHops < MAX_FLAG_HOPS && absentWhen(context, init, value, refs, flagHops + 1);
  }
  if (test.type === 'UnaryExpression' && test.operator === '!') return absentWhen(context, test.argument, !value, refs, flagHops);
  if (test.type === 'LogicalExpression' && test.operator !== '??') {
    const left = (v: boolean) => absentWhen(context, test.left, v, refs, flagHops);
    const right = (v: boolean) => absentWhen(context, test.right, v, refs, flagHops);
    // a && b is true: both are; false: one of them is (each must imply it). || the other way round
    if (test.operator === '&&') return value ? left(true) || right(true) : left(false) && right(false);
    return value ? left(true) && right(true) : left(false) || right(false);
  }
  // isNil(ttl), util.isNullOrUndefined(ttl), Number.isFinite(ttl), isDefined(ttl)
  if (test.type === 'CallExpression' && test.arguments.length === 1 && isRef(test.arguments[0]!)) {
    const kind = predicateKind(context, test.callee);
    if (kind === 'nullish') return value;
    if (kind === 'number' || kind === 'present') return !value;
    return false;
  }
  if (test.type !== 'BinaryExpression' || test.left.type === 'PrivateIdentifier') return false;
  const op = test.operator;
  if (op === '===' || op === '==' || op === '!==' || op === '!=') {
    const equal = op === '===' || op === '==' ? value : !value;
    for (const [side, other] of [[test.left, test.right], [test.right, test.left]] as const) {
      // typeof ttl === 'undefined' / typeof ttl === 'number'
      const s = unwrap(side);
      if (s.type === 'UnaryExpression' && s.operator === 'typeof' && isRef(s.argument)) {
        const type = literalValue(other);
        if (type === 'undefined') return equal;
        if (typeof type === 'string') return !equal;
        return false;
      }
      if (isRef(side) && isNone(other)) return equal;
      // an Effect Option: ttl._tag === 'None' (absent), ttl._tag === 'Some' (given)
      if (s.type === 'MemberExpression' && !s.computed && propertyName(s.property) === '_tag' && isRef(s.object)) {
        const tag = literalValue(other);
        if (tag === 'None') return equal;
        if (tag === 'Some') return !equal;
      }
    }
    return false;
  }
  // ttl > 0, ttl > -1, ttl >= 1, ttl >= 0, 0 < ttl (false: absent); ttl <= 0, ttl < 1, ttl < 0 (true:
  // absent): the arm runs only for values below 1 (0, a negative sentinel)
  const bound = (ref: TSESTree.Node, n: TSESTree.Node, greater: string | undefined): boolean => {
    const limit = numberLiteral(n);
    if (!isRef(ref) || limit === undefined) return false;
    if (greater === '>') return !value && limit <= 0;
    if (greater === '>=') return !value && limit <= 1;
    if (greater === '<=') return value && limit <= 0;
    return value && limit <= 1;
  };
  if (op === '>' || op === '>=' || op === '<' || op === '<=') {
    return bound(test.left, test.right, op) || bound(test.right, test.left, swappedComparison(op));
  }
  return false;
}

/**
 * Predicates of one value that say whether it is a TTL at all, by the name they are known by
 * (lower case): true for a nullish value (Node's `util.isNullOrUndefined` / `isUndefined` /
 * `isNull`, lodash's and ramda's `isNil`, `isNull`, `isUndefined`), false for a value that is not a
 * number (`Number.isFinite` / `isInteger` / `isSafeInteger`, lodash's `isNumber` / `isFinite` /
 * `isInteger`), false for an absent one (`isDefined` of class-validator and many codebases).
 */
const PREDICATES: ReadonlyMap<string, 'nullish' | 'number' | 'present'> = new Map([
  ...['isnil', 'isnull', 'isundefined', 'isnullorundefined', 'isnullish', 'isnone'].map((name) => [name, 'nullish'] as const),
  ...['isnumber', 'isfinite', 'isinteger', 'issafeinteger'].map((name) => [name, 'number'] as const),
  ...['isdefined', 'isnotnil', 'isnotnullish', 'notnil', 'issome'].map((name) => [name, 'present'] as const),
]);

/**
 * What a called predicate says of its argument ({@link PREDICATES}), read from the name it is
 * known by: a member's name (`_.isNil`, `util.isNullOrUndefined`, `Number.isFinite`, compiled
 * CommonJS's `(0, common_1.isNullOrUndefined)`), the name a binding imports (`import { isNil as
 * nil }`), the module a default import is (`import _isNil from 'lodash/isNil'`, `lodash.isnil`),
 * else the function's own name. `undefined` for any other callee.
 */
function predicateKind(context: AnyContext, input: TSESTree.Node): 'nullish' | 'number' | 'present' | undefined {
  let callee = unwrap(input);
  if (callee.type === 'SequenceExpression') callee = unwrap(callee.expressions[callee.expressions.length - 1]!);
  let name: string | undefined;
  if (callee.type === 'MemberExpression') name = callee.computed ? undefined : propertyName(callee.property);
  else if (callee.type === 'Identifier') {
    const def = findVariable(context, callee)?.defs[0];
    const specifier = defaultImportOf(context, callee);
    if (def?.type === 'ImportBinding' && def.node.type === 'ImportSpecifier') name = propertyName(def.node.imported);
    else if (specifier !== undefined) name = specifier.split(/[/.]/).pop();
    else name = callee.name;
  }
  return name === undefined ? undefined : PREDICATES.get(name.toLowerCase());
}

/** A literal's value (a template literal without expressions is its string); a symbol when the node is no literal. */
function literalValue(input: TSESTree.Node): unknown {
  const node = unwrap(input);
  if (node.type === 'Literal') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked;
  return Symbol.for('unknown');
}

/**
 * A value that is no TTL: `undefined`, `void 0`, `null`, `false`, a number <= 0 (`0`, `-1`), a
 * string that is not a positive number (`''`, `'never'`, `'none'`), or an infinite lifetime
 * (`Infinity`, `Number.POSITIVE_INFINITY`: never expires). A TTL value equal to one was not given
 * as a TTL.
 */
function isNone(input: TSESTree.Node): boolean {
  const node = unwrap(input);
  if (node.type === 'Identifier') return node.name === 'undefined' || node.name === 'Infinity';
  if (node.type === 'MemberExpression' && !node.computed && node.object.type === 'Identifier' && node.object.name === 'Number') {
    return propertyName(node.property) === 'POSITIVE_INFINITY';
  }
  if (node.type === 'UnaryExpression' && node.operator === 'void') return true;
  if (node.type === 'UnaryExpression' && node.operator === '-') return typeof literalValue(node.argument) === 'number';
  const value = literalValue(node);
  if (value === null || value === false) return true;
  if (typeof value === 'number') return value <= 0;
  if (typeof value === 'string') return !(Number(value) > 0);
  return false;
}

/** Identifier names and non-computed member names in an expression. */
function namesIn(context: AnyContext, root: TSESTree.Node): Set<string> {
  const names = new Set<string>();
  walk(context, root, (node) => {
    if (node.type === 'Identifier') names.add(node.name);
  });
  return names;
}

/**
 * Whether `node` (an expiry) runs only when a TTL value `sources` read is given: it sits under a
 * test (`if`, `?:`, the left side of `&&`, up to the enclosing function) whose other outcome
 * implies that value is absent ({@link absentWhen}: `if (ttl)`, `ttl > 0 && ...`, `if (!ttl) ...
 * else ...`). The values are the references of `sources` and, through `const`s they are computed
 * from, of their initializers (two hops: `if (ttlMinutes) { const ttlSeconds = ttlMinutes * 60;
 * expire(k, ttlSeconds); }`). A store that expires a key only when its caller configured a TTL
 * keeps the key otherwise on purpose. A time left the code computes (`if (left > 0)
 * multi.pexpire(k, left)` with `left = deadline - Date.now()`) is no such TTL: false.
 */
export function onlyWhenTtlGiven(context: AnyContext, node: TSESTree.Node, sources: readonly TSESTree.Node[]): boolean {
  const refs = ttlSourceReferences(context, sources);
  if (!refs) return false;
  for (let child: TSESTree.Node = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (isFunction(parent)) return false;
    if ((parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') && parent.test !== child) {
      // the other arm runs when the test has the other value
      if (absentWhen(context, parent.test, child !== parent.consequent, refs)) return true;
    } else if (parent.type === 'LogicalExpression' && parent.operator === '&&' && parent.right === child) {
      if (absentWhen(context, parent.left, false, refs)) return true;
    }
  }
  return false;
}

/**
 * Whether the arm `arm` of the branch `branch` (an `if`, `?:`, or the right of `&&`) runs only when the TTL value
 * `sources` read is given: the test takes the other arm only when that value is absent
 * ({@link absentWhen}), read as {@link onlyWhenTtlGiven} reads the tests above an expiry, one
 * branch only (`if (this.lifetime) { multi.expire(key, this.lifetime) }`: the helper of
 * `helper-expiry.ts` queues the EXPIRE whenever a lifetime is configured).
 */
export function armRunsOnlyWithTtl(
  context: AnyContext,
  branch: TSESTree.IfStatement | TSESTree.ConditionalExpression | TSESTree.LogicalExpression,
  arm: TSESTree.Node,
  sources: readonly TSESTree.Node[],
): boolean {
  // `ttl && m.expire(key, ttl)`: the right of `&&` runs when the left is truthy
  if (branch.type === 'LogicalExpression') {
    if (branch.operator !== '&&' || arm !== branch.right) return false;
    const refs = ttlSourceReferences(context, sources);
    return refs !== undefined && absentWhen(context, branch.left, false, refs);
  }
  if (arm === branch.test) return false;
  const refs = ttlSourceReferences(context, sources);
  return refs !== undefined && absentWhen(context, branch.test, arm !== branch.consequent, refs);
}

/**
 * The references a TTL read from `sources` may be tested by ({@link onlyWhenTtlGiven}): theirs and
 * those of the `const`s they are computed from, two hops; `undefined` when there are none or the
 * value is a time left the code computes.
 */
function ttlSourceReferences(context: AnyContext, sources: readonly TSESTree.Node[]): Set<string> | undefined {
  // a time left the code computes (`deadline - Date.now()`): the test is the code's, not a caller's choice
  if (sources.some((source) => remainingTime(context, source))) return undefined;
  const refs = new Set<string>();
  const collect = (root: TSESTree.Node, hops: number): void => {
    for (const ref of referencesIn(context, root)) refs.add(ref);
    if (hops >= 2) return;
    walk(context, root, (child) => {
      if (child.type !== 'Identifier' || child.parent?.type === 'MemberExpression') return;
      const def = findVariable(context, child)?.defs[0];
      if (def?.type === 'Variable' && def.node.init && def.node.id.type === 'Identifier' && def.node.id.name === child.name) collect(def.node.init, hops + 1);
    });
  };
  for (const source of sources) collect(source, 0);
  return refs.size === 0 ? undefined : refs;
}

function isFunction(node: TSESTree.Node): boolean {
  return node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';
}

const squeeze = (text: string): string => text.replace(/\s+/g, '');
