/**
 * An expiry queued with its write, but only on a branch decided by a reply read in an earlier,
 * separate round trip:
 *
 * ```ts
 * const current = await redis.get(key);        // round trip 1
 * const pipeline = redis.pipeline();
 * pipeline.incr(key);                          // round trip 2
 * if (!current) pipeline.expire(key, WINDOW);  //   ... only when round trip 1 saw no key
 * await pipeline.exec();
 * ```
 *
 * is not an atomic expiry: the key can expire between the read and the write, and the write then
 * recreates it with no expiry queued (the counter lives forever). The read counts when it reads
 * the same key (by its expression) in another atomic unit (sent before the unit is), and the branch's test
 * reads its reply, directly or through a `const` derived from it (`const count = current ?
 * parseInt(current, 10) : 0`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { MISSING_KEY_REPLY, missingKeyReplies } from '../semantics/missing-key-replies.js';
import { MAY_DELETE_UNNAMED_KEYS } from '../semantics/counter-corrections.js';
import { helperOf, sameKeyThroughCall, type Helper } from './helper-read.js';
import { keyIdOf } from './key-id.js';
import { awaitsOnlyRedis } from './redis-waits.js';
import { redisCallsOf } from './index.js';
import { facadeCallsOf } from './facades.js';
import type { RedisCall } from './normalize.js';
import { enclosingFunction, encloses, findVariable, unwrap, walk, type AnyContext, type FunctionLike } from './static.js';

/**
 * The earlier read whose reply decides whether `expiry` runs, when there is one (see the module
 * comment); `undefined` when the expiry runs whenever the write does, or its test reads no reply
 * of the key from another round trip.
 * @param expiry the expiry, queued in the write's unit after it
 * @param write the write that creates the key
 * @param keyArg the key's argument index in `write`
 */
export function staleGuard(context: AnyContext, expiry: RedisCall, write: RedisCall, keyArg: number): RedisCall | undefined {
  const key = keyIdOf(context, write, keyArg);
  if (!key) return undefined;
  const isRead = (call: RedisCall): boolean =>
    call.unit.key !== write.unit.key &&
    call.node.range[1] <= expiry.node.range[0] &&
    call.description.keys.some((action) => keyIdOf(context, call, action.arg) === key);
  for (const test of branchTests(expiry.node, write.node)) {
    const read = replyRead(context, test, isRead, 0);
    if (read) return read;
  }
  return undefined;
}

/**
 * The tests of the conditionals an expiry sits in a branch of, below the nearest node that holds
 * the write too (conditions above it decide both alike).
 */
function branchTests(expiry: TSESTree.Node, write: TSESTree.Node): TSESTree.Node[] {
  const tests: TSESTree.Node[] = [];
  for (let node: TSESTree.Node = expiry; node.parent; node = node.parent) {
    const parent: TSESTree.Node = node.parent;
    if (encloses(parent, write)) break;
    if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== node) tests.push(parent.test);
    else if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === node) tests.push(parent.left);
  }
  return tests;
}

/** The declarator ids whose names take their values from the initializer: a name, an array or an object pattern. */
const DECLARED_NAMES: ReadonlySet<string> = new Set([AST_NODE_TYPES.Identifier, AST_NODE_TYPES.ArrayPattern, AST_NODE_TYPES.ObjectPattern]);

/**
 * A Redis read `isRead` accepts whose reply an expression uses: a call in it, or a variable it
 * reads whose initializer holds one (through a few derived `const`s; a name destructured from the
 * initializer counts, as the reply may be any element of it).
 */
function replyRead(context: AnyContext, root: TSESTree.Node, isRead: (call: RedisCall) => boolean, depth: number): RedisCall | undefined {
  if (depth > 3) return undefined;
  let found: RedisCall | undefined;
  walk(context, root, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression) found = redisCallsOf(context, node).find(isRead);
    if (node.type === AST_NODE_TYPES.Identifier) {
      const def = findVariable(context, node)?.defs[0];
      // a name the declaration binds, whole or destructured (`const [err, current] = await
      // redis.get(key).then((v) => [null, v], (e) => [e, null])`): its initializer holds the read
      if (def?.type === 'Variable' && def.node.init && DECLARED_NAMES.has(def.node.id.type)) found = replyRead(context, def.node.init, isRead, depth + 1);
    }
    if (found) return 'stop';
    // a callback's reads are not the reply the expression uses (the root itself too: `const f = () => ...`)
    return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression ? 'skip' : undefined;
  });
  return found;
}

/**
 * The mirror shape: a write that runs only on a branch where a reply read in an earlier, separate
 * round trip said the key **exists**:
 *
 * ```ts
 * const cur = await redis.get(key);          // round trip 1
 * if (!cur) { await redis.set(key, max, 'PX', window, 'NX'); return; }
 * await redis.decr(key);                     // round trip 2: only when round trip 1 saw the key
 * ```
 *
 * The key can expire between the two, and the write then recreates it without TTL (`staleExists`);
 * a key nothing expires cannot, and the write then creates nothing (`created-before.ts`). Returns that
 * read: a read of the same key ({@link keyIdOf}), and of it alone, in another atomic unit, ending
 * before the write, whose command's reply for a missing key is known (`semantics/missing-key-replies.ts`), and a
 * condition on the write's path that cannot hold with that reply: the test of an `if` / `? :` /
 * `&&` / `||` the write is a branch of, or of an `if` before it in an enclosing block whose taken
 * branch always leaves (`return`, `throw`, `break`, `continue`). The test reads the reply directly
 * (`if (await redis.exists(k))`), through a variable written with it (`const`, or `let cur;
 * cur = await redis.get(k)`, or a `let` every assignment of which is a read of the key) and a few
 * `const`s derived from it (`Math.floor(Number(cur))`), or as
 * the parameter of a `.then((len) => ...)` callback on the read. `undefined` otherwise: a test of
 * another key's reply, a test that holds with the missing reply, a branch below the write's own
 * function.
 * @param write the write that creates the key
 * @param keyArg the key's argument index in `write`
 */
export function existsGuard(context: AnyContext, write: RedisCall, keyArg: number): RedisCall | undefined {
  const key = keyIdOf(context, write, keyArg);
  if (!key) return undefined;
  const isRead = (call: RedisCall): boolean =>
    call.unit.key !== write.unit.key &&
    call.node.range[1] <= write.node.range[0] &&
    MISSING_KEY_REPLY.has(call.command) &&
    // one key: EXISTS a b replies 1 while a is missing and b is there
    call.description.keys.length === 1 &&
    call.description.keys.some((action) => action.effect === 'read' && keyIdOf(context, call, action.arg) === key);
  for (const { test, holds } of pathConditions(write.node)) {
    const reads = readsIn(context, test, isRead, 0);
    if (reads.length === 0) continue;
    const value = evaluate(context, test, replies(reads), 0);
    if (value !== UNKNOWN && Boolean(value.value) !== holds) return reads[0];
  }
  return undefined;
}

/**
 * A read that saw the key: the read, and the node of the write's function that stands for it (the
 * read itself, or the awaited call of the helper that made it).
 */
export interface SeenRead {
  read: RedisCall;
  node: TSESTree.Node;
}

/** A reply a test may use: the node that hands it over, the read behind it, its value per client family when the key is missing. */
interface Stand extends SeenRead {
  missing: readonly unknown[];
}

/**
 * {@link existsGuard} for created-before.ts, wider: the read may be HGETALL (its missing reply
 * `{}` or `null`, `semantics/missing-key-replies.ts` missingKeyReplies: the test must stop on
 * each), and it may sit in a same-file helper the write's function awaits (`const a = await
 * this.getActive(id); if (!a) return;`: redis-calls/helper-read.ts), a helper that reads the
 * write's key (its parameters standing for the call's arguments), awaits the read with only Redis
 * commands awaited after it, and returns one known value whenever the key is missing
 * ({@link helperMissing}). The reads of the write's own function must be another unit's, ending
 * before the write.
 * @param write the write that would create the key
 * @param keyArg the key's argument index in `write`
 */
export function seenGuard(context: AnyContext, write: RedisCall, keyArg: number): SeenRead | undefined {
  return guardOf(context, write, keyArg, 'seen');
}

/**
 * The mirror of {@link seenGuard}: the read whose missing reply LETS the write run, the write being
 * on the branch where the read found nothing (a cache miss), so that on that path the write
 * creates the key. The same reads count (one key, another unit, before the write, HGETALL's `{}`
 * and `null` and the others' `null` / `0`; a same-file helper's known missing reply), and a
 * condition on the write's path (an `if` / `? :` / `&&` / `||` the write is a branch of, or an
 * `if` before it whose taken branch always leaves) that holds with the missing reply of some
 * client family and fails with none:
 *
 * ```ts
 * const cached = await redis.hgetall(key);                 // {} when missing
 * if (cached && cached.status) return parse(cached);        // false with {} and with null
 * const row = await db.find(id);
 * await redis.hset(key, toHash(row));                       // runs on the miss: creates the key
 * ```
 *
 * `if (!cached)`, `if (cur === null)`, `if (!(await redis.exists(k)))`, `if
 * (Object.keys(h).length === 0)` read the same way. `undefined` when no condition of the path
 * tests such a reply, or the one that does cannot tell, or compares to a string (`if (p.isAlive ===
 * '0') continue;`: a field's value, which a miss passes only by the way).
 * @param write the write that may create the key
 * @param keyArg the key's argument index in `write`
 */
export function missGuard(context: AnyContext, write: RedisCall, keyArg: number): SeenRead | undefined {
  return guardOf(context, write, keyArg, 'missing');
}

/** {@link seenGuard} (`seen`: the write runs only when the key is there) and {@link missGuard} (`missing`: the write runs when it is not). */
function guardOf(context: AnyContext, write: RedisCall, keyArg: number, when: 'seen' | 'missing'): SeenRead | undefined {
  const key = keyIdOf(context, write, keyArg);
  const keyNode = write.argNodes[keyArg];
  if (!key || !keyNode) return undefined;
  const direct = (call: RedisCall): readonly unknown[] | undefined =>
    call.unit.key !== write.unit.key &&
    call.node.range[1] <= write.node.range[0] &&
    call.description.keys.length === 1 &&
    call.description.keys.some((action) => action.effect === 'read' && keyIdOf(context, call, action.arg) === key)
      ? missingKeyReplies(call.command)
      : undefined;
  const stand = (node: TSESTree.CallExpression): Stand | undefined => {
    // a client's read, or a pass-through facade's read at the caller (`await this.redis.hget(k, f)`: facades.ts)
    for (const call of [...redisCallsOf(context, node), ...facadeCallsOf(context, node)]) {
      const missing = direct(call);
      if (missing) return { read: call, node, missing };
    }
    if (node.range[1] > write.node.range[0] || !replyAwaited(node)) return undefined;
    const helper = helperOf(context, node);

    return helper && helper.fn !== enclosingFunction(write.node) ? helperMissing(context, helper, node, keyNode) : undefined;
  };
  for (const { test, holds } of pathConditions(write.node)) {
    const stands = standsIn(context, test, stand, 0);

    if (stands.length === 0) continue;
    if (when === 'seen' ? stopsOnEvery(context, test, stands, holds) : !comparesToText(context, test) && runsOnSome(context, test, stands, holds)) return stands[0];
  }
  return undefined;
}

/** Whether `test` is `!holds` with every client family's missing reply of every stand (each family in turn). */
function stopsOnEvery(context: AnyContext, test: TSESTree.Node, stands: readonly Stand[], holds: boolean): boolean {
  const families = Math.max(...stands.map((s) => s.missing.length));
  for (let i = 0; i < families; i++) {
    const value = evaluate(context, test, new Map(stands.map((s) => [s.node, s.missing[Math.min(i, s.missing.length - 1)]])), 0);
    if (value === UNKNOWN || Boolean(value.value) === holds) return false;
  }
  return true;
}

/**
 * Whether a test compares something to a string (`player.isAlive === '0'`): it tests a field's
 * value, and a miss goes through it only by the way; not a test of the key's absence.
 */
function comparesToText(context: AnyContext, test: TSESTree.Node): boolean {
  return walk(context, test, (node) =>
    node.type === AST_NODE_TYPES.BinaryExpression &&
    ['===', '!==', '==', '!='].includes(node.operator) &&
    [node.left, node.right].some((side) => side.type === AST_NODE_TYPES.Literal && typeof side.value === 'string')
      ? 'stop'
      : undefined,
  );
}

/** Whether `test` is `holds` with some client family's missing replies of the stands, and `!holds` with none. */
function runsOnSome(context: AnyContext, test: TSESTree.Node, stands: readonly Stand[], holds: boolean): boolean {
  const families = Math.max(...stands.map((s) => s.missing.length));
  let runs = false;
  for (let i = 0; i < families; i++) {
    const value = evaluate(context, test, new Map(stands.map((s) => [s.node, s.missing[Math.min(i, s.missing.length - 1)]])), 0);
    if (value === UNKNOWN) continue;
    if (Boolean(value.value) !== holds) return false;
    runs = true;
  }
  return runs;
}

/** {@link readsIn} for {@link seenGuard}: the stands a test uses, directly or through the variables it reads. */
function standsIn(context: AnyContext, root: TSESTree.Node, stand: (node: TSESTree.CallExpression) => Stand | undefined, depth: number): Stand[] {
  if (depth > 3) return [];
  const found: Stand[] = [];
  walk(context, root, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const s = stand(node);
      if (s) found.push(s);
    }
    if (node.type === AST_NODE_TYPES.Identifier) {
      for (const source of valuesOf(context, node)) found.push(...standsIn(context, source, stand, depth + 1));
    }
    return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression ? 'skip' : undefined;
  });
  return found;
}

/**
 * What a helper returns, per client family, when the key the caller writes is missing: the helper
 * awaits a read of that key ({@link sameKeyThroughCall}) with a known missing reply, awaits nothing
 * but Redis commands after it, sends no command after it but reads (a DEL, a write, a script could
 * remove the key it saw), and every `return` it may reach with that reply (one whose path
 * condition does not rule the reply out, those before the read and in a `catch` included, and the
 * end of its body when it can be reached) gives one literal value (`null`, `undefined`, `false`,
 * `0`). `undefined` when any of them gives something else, or no read qualifies.
 */
function helperMissing(context: AnyContext, helper: Helper, node: TSESTree.CallExpression, keyNode: TSESTree.Node): Stand | undefined {
  const calls: RedisCall[] = [];
  walk(
    context,
    helper.fn.body,
    (inner) => {
      if (inner.type === AST_NODE_TYPES.CallExpression) calls.push(...redisCallsOf(context, inner));
    },
    { skipFunctions: true },
  );
  for (const read of calls) {
    const action = read.description.keys.length === 1 ? read.description.keys[0] : undefined;
    const readKey = action?.effect === 'read' ? read.argNodes[action.arg] : undefined;
    const replies = missingKeyReplies(read.command);
    if (!readKey || !replies || read.unit.kind !== 'single' || !replyAwaited(read.node)) continue;

    if (!sameKeyThroughCall(context, helper, node, readKey, keyNode)) continue;

    if (waitsAfter(context, helper.fn, read, calls)) continue;
    // a helper that writes or deletes after its read (`getAndClear`) may hand back a key that is gone
    if (calls.some((c) => c.node.range[0] >= read.node.range[1] && (MAY_DELETE_UNNAMED_KEYS.has(c.command) || c.description.keys.some((k) => k.effect !== 'read')))) continue;
    const missing: unknown[] = [];
    for (const reply of replies) {
      const value = returnedWhenMissing(context, helper.fn, read, reply);
      if (value === UNKNOWN) break;
      missing.push(value.value);
    }
    if (missing.length === replies.length) return { read, node, missing };
  }
  return undefined;
}

/** Whether the helper awaits anything but Redis after `read` (`redis-waits.ts` awaitsOnlyRedis: other work can outlast the key's TTL). */
function waitsAfter(context: AnyContext, fn: TSESTree.Node, read: RedisCall, calls: readonly RedisCall[]): boolean {
  const redis = new Set<TSESTree.Node>(calls.map((c) => c.node));
  return walk(
    context,
    fn,
    (node) => {
      if (node.range[1] <= read.node.range[1]) return 'skip';
      if ((node.type === AST_NODE_TYPES.ForOfStatement && node.await) || node.type === AST_NODE_TYPES.YieldExpression) return 'stop';
      return node.type === AST_NODE_TYPES.AwaitExpression && node.range[0] > read.node.range[1] && !awaitsOnlyRedis(context, node.argument, redis, calls) ? 'stop' : undefined;
    },
    { skipFunctions: true },
  );
}

/** The one value `fn` returns when `read` replied `reply` (see {@link helperMissing}), or {@link UNKNOWN}. */
function returnedWhenMissing(context: AnyContext, fn: FunctionLike, read: RedisCall, reply: unknown): Value {
  const values: Value[] = [];
  const readReply = new Map<TSESTree.Node, unknown>([[read.node, reply]]);
  const isRead = (call: RedisCall): boolean => call === read;
  walk(
    context,
    fn.body,
    (node) => {
      if (node.type !== AST_NODE_TYPES.ReturnStatement) return undefined;
      const ruledOut = pathConditions(node).some(({ test, holds }) => {
        if (readsIn(context, test, isRead, 0).length === 0) return false;
        const value = evaluate(context, test, readReply, 0);
        return value !== UNKNOWN && Boolean(value.value) !== holds;
      });
      if (!ruledOut) values.push(node.argument ? evaluate(context, node.argument, new Map(), 0) : { value: undefined });
      return 'skip';
    },
    { skipFunctions: true },
  );
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) values.push(evaluate(context, fn.body, new Map(), 0));
  else if (completes(fn.body)) values.push({ value: undefined });
  const first = values[0];
  return first !== undefined && first !== UNKNOWN && values.every((v) => v !== UNKNOWN && Object.is(v.value, first.value)) ? first : UNKNOWN;
}

/** Whether a statement may end without a `return` or `throw` (conservatively: yes unless its last statement, or both arms, leave). */
function completes(statement: TSESTree.Node): boolean {
  switch (statement.type) {
    case AST_NODE_TYPES.BlockStatement: {
      const last = statement.body.at(-1);
      return last === undefined || completes(last);
    }
    case AST_NODE_TYPES.ReturnStatement:
    case AST_NODE_TYPES.ThrowStatement:
      return false;
    case AST_NODE_TYPES.IfStatement:
      return statement.alternate === null || completes(statement.consequent) || completes(statement.alternate);
    case AST_NODE_TYPES.TryStatement:
      return (statement.finalizer === null || completes(statement.finalizer)) && (completes(statement.block) || (statement.handler !== null && completes(statement.handler.body)));
    default:
      return true;
  }
}

/**
 * The reads of one key a test uses, each standing for its missing-key reply: when the key is
 * missing, every read of it replies so (`let id = await redis.hget(k, 'a'); if (...) id = await
 * redis.hget(k, 'b'); if (!id) return;`).
 */
function replies(reads: readonly RedisCall[]): ReadonlyMap<TSESTree.Node, unknown> {
  return new Map(reads.map((read) => [read.node, MISSING_KEY_REPLY.get(read.command)]));
}

/**
 * The earlier read of `write`'s key whose missing-key reply makes `test` truthy (`if (cur === null)`
 * after `const cur = await redis.get(key)`): a read {@link existsGuard} would accept (one key, a
 * known missing reply, another unit, ending before the test). `undefined` when the test holds no
 * such reply, or does not hold with it. A read whose reply is not awaited guards nothing: the test
 * sees its promise, never the reply (`if (!redis.exists(key))` is always false).
 * @param test the condition to evaluate
 * @param write the write whose key the read must read
 * @param keyArg the key's argument index in `write`
 */
export function readMissingMakesTrue(context: AnyContext, test: TSESTree.Node, write: RedisCall, keyArg: number): RedisCall | undefined {
  const key = keyIdOf(context, write, keyArg);
  if (!key) return undefined;
  const isRead = (call: RedisCall): boolean =>
    call.unit.key !== write.unit.key &&
    replyAwaited(call.node) &&
    call.node.range[1] <= test.range[1] &&
    MISSING_KEY_REPLY.has(call.command) &&
    call.description.keys.length === 1 &&
    call.description.keys.some((action) => action.effect === 'read' && keyIdOf(context, call, action.arg) === key);
  const reads = readsIn(context, test, isRead, 0);
  if (reads.length === 0) return undefined;
  const value = evaluate(context, test, replies(reads), 0);
  return value !== UNKNOWN && Boolean(value.value) ? reads[0] : undefined;
}

/** Whether `call`'s promise is awaited where it is made (`await redis.get(k)`, through casts and `?.`). */
export function replyAwaited(call: TSESTree.Node): boolean {
  let node: TSESTree.Node = call;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.ChainExpression || unwrap(node.parent) !== node.parent)) node = node.parent;
  return node.parent?.type === AST_NODE_TYPES.AwaitExpression;
}

/** The conditions that hold whenever `node` runs, up to its function: a test and its truth. */
function pathConditions(node: TSESTree.Node): { test: TSESTree.Node; holds: boolean }[] {
  const conditions: { test: TSESTree.Node; holds: boolean }[] = [];
  for (let child: TSESTree.Node = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== child) {
      conditions.push({ test: parent.test, holds: parent.consequent === child });
    } else if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === child && parent.operator !== '??') {
      conditions.push({ test: parent.left, holds: parent.operator === '&&' });
    } else if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.Program) {
      const body = parent.body as readonly TSESTree.Node[];
      for (const earlier of body.slice(0, body.indexOf(child))) {
        if (earlier.type !== AST_NODE_TYPES.IfStatement) continue;
        // an `if` whose taken branch always leaves: the write runs only when the other is taken
        if (alwaysLeaves(earlier.consequent) && (!earlier.alternate || !alwaysLeaves(earlier.alternate))) conditions.push({ test: earlier.test, holds: false });
        else if (earlier.alternate && alwaysLeaves(earlier.alternate) && !alwaysLeaves(earlier.consequent)) conditions.push({ test: earlier.test, holds: true });
      }
    }
    if (parent.type === AST_NODE_TYPES.FunctionDeclaration || parent.type === AST_NODE_TYPES.FunctionExpression || parent.type === AST_NODE_TYPES.ArrowFunctionExpression) {
      // a `.then((reply) => ...)` callback on the read: its conditions are the write's, and the
      // read's reply is its parameter; any other function ends the path
      if (!thenCallbackRead(parent)) break;
    }
  }
  return conditions;
}

/** Whether a statement always leaves the block it is in: its last statement returns, throws, breaks or continues. */
function alwaysLeaves(statement: TSESTree.Statement): boolean {
  const last = statement.type === AST_NODE_TYPES.BlockStatement ? statement.body.at(-1) : statement;
  if (!last) return false;
  if (last.type === AST_NODE_TYPES.BlockStatement) return alwaysLeaves(last);
  return (
    last.type === AST_NODE_TYPES.ReturnStatement ||
    last.type === AST_NODE_TYPES.ThrowStatement ||
    last.type === AST_NODE_TYPES.BreakStatement ||
    last.type === AST_NODE_TYPES.ContinueStatement
  );
}

/** The call a function is the `.then` callback of (`x.then((v) => ...)`), when it is one. */
function thenCallbackRead(fn: TSESTree.Node): TSESTree.CallExpression | undefined {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== fn) return undefined;
  const callee = call.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.property.type !== AST_NODE_TYPES.Identifier || callee.property.name !== 'then') return undefined;
  const object = unwrap(callee.object);
  return object.type === AST_NODE_TYPES.CallExpression ? object : undefined;
}

/**
 * The reads `isRead` accepts whose reply an expression uses: a call in it, the value written once
 * to a variable it reads (through a few variables derived from it), or the read a `.then`
 * callback parameter stands for.
 */
function readsIn(context: AnyContext, root: TSESTree.Node, isRead: (call: RedisCall) => boolean, depth: number): RedisCall[] {
  if (depth > 3) return [];
  const found: RedisCall[] = [];
  walk(context, root, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression) found.push(...redisCallsOf(context, node).filter(isRead));
    if (node.type === AST_NODE_TYPES.Identifier) {
      for (const source of valuesOf(context, node)) found.push(...readsIn(context, source, isRead, depth + 1));
    }
    return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression ? 'skip' : undefined;
  });
  return found;
}

/**
 * The values a variable holds: its initializer and the right sides of its plain assignments (`let
 * cur; try { cur = await redis.get(k) } catch { ... }`, `let id = await redis.hget(k, 'a'); if (x)
 * id = await redis.hget(k, 'b')`), or the read call a `.then` callback's first parameter receives;
 * none when it is written any other way (`+=`, `++`, destructuring, a loop's variable).
 */
function valuesOf(context: AnyContext, id: TSESTree.Identifier): TSESTree.Node[] {
  const variable = findVariable(context, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return [];
  if (def.type === 'Parameter') {
    const fn = def.node;
    const read = fn.params[0] === def.name ? thenCallbackRead(fn) : undefined;
    return read ? [read] : [];
  }
  if (def.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier) return [];
  const values: TSESTree.Node[] = [];
  for (const write of variable.references.filter((r) => r.isWrite())) {
    const parent = write.identifier.parent;
    if (write.identifier === def.node.id && def.node.init) values.push(def.node.init);
    else if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '=' && parent.left === write.identifier) values.push(parent.right);
    else return [];
  }
  return values;
}

const UNKNOWN = Symbol('unknown');

/**
 * Whether `test` holds when the call `reply` (a Redis command, or an awaited call) handed back
 * `value`, read directly or through the variables it is written to (see {@link evaluate});
 * `undefined` when that does not decide it.
 */
export function holdsWithReply(context: AnyContext, test: TSESTree.Node, reply: TSESTree.Node, value: unknown): boolean | undefined {
  const result = evaluate(context, test, new Map([[reply, value]]), 0);
  return result === UNKNOWN ? undefined : Boolean(result.value);
}
type Value = { value: unknown } | typeof UNKNOWN;

/** Number conversions the code applies to a reply (`Number(cur)`, `Math.floor(n)`, `parseInt(cur, 10)`). */
const CONVERSIONS: Record<string, (value: unknown) => unknown> = {
  Number: (v) => Number(v),
  Boolean: (v) => Boolean(v),
  parseInt: (v) => parseInt(v as string, 10),
  parseFloat: (v) => parseFloat(v as string),
  'Math.floor': (v) => Math.floor(v as number),
  'Math.ceil': (v) => Math.ceil(v as number),
  'Math.trunc': (v) => Math.trunc(v as number),
  'Math.round': (v) => Math.round(v as number),
  // HGETALL's empty object; `null` would throw
  'Object.keys': (v) => (v !== null && typeof v === 'object' ? Object.keys(v) : UNKNOWN),
};

/**
 * The value of an expression when the `reads` (of one key) replied that it is missing, as far as
 * it follows: a reply itself (the read call, its `await`, a variable or `.then` parameter holding
 * it: every value a variable may hold must give the same),
 * literals, `!` / `-` / `+`, comparisons, arithmetic, `&&` / `||` and the conversions above;
 * {@link UNKNOWN} for anything else.
 */
function evaluate(context: AnyContext, root: TSESTree.Node, reads: ReadonlyMap<TSESTree.Node, unknown>, depth: number): Value {
  if (depth > 8) return UNKNOWN;
  const node = unwrap(root);
  const sub = (n: TSESTree.Node): Value => evaluate(context, n, reads, depth + 1);
  switch (node.type) {
    case AST_NODE_TYPES.AwaitExpression:
      return sub(node.argument);
    case AST_NODE_TYPES.CallExpression: {
      if (reads.has(node)) return { value: reads.get(node) };
      const callee = node.callee;
      const name =
        callee.type === AST_NODE_TYPES.Identifier
          ? callee.name
          : callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier && callee.property.type === AST_NODE_TYPES.Identifier
            ? `${callee.object.name}.${callee.property.name}`
            : undefined;
      const convert = name !== undefined ? CONVERSIONS[name] : undefined;
      const arg = node.arguments[0];
      if (!convert || !arg || arg.type === AST_NODE_TYPES.SpreadElement) return UNKNOWN;
      const value = sub(arg);
      if (value === UNKNOWN) return UNKNOWN;
      const converted = convert(value.value);
      return converted === UNKNOWN ? UNKNOWN : { value: converted };
    }
    case AST_NODE_TYPES.MemberExpression: {
      if (node.computed || node.property.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
      const value = sub(node.object);
      // a field of HGETALL's empty reply (`cached.status` of `{}`): none, but for the members every object has
      if (node.property.name !== 'length') return value !== UNKNOWN && isEmptyObject(value.value) && !(node.property.name in Object.prototype) ? { value: undefined } : UNKNOWN;
      // the length of a reply's array or string (`Object.keys(data).length`)
      return value !== UNKNOWN && (typeof value.value === 'string' || Array.isArray(value.value)) ? { value: (value.value as string | unknown[]).length } : UNKNOWN;
    }
    case AST_NODE_TYPES.Identifier: {
      if (node.name === 'undefined') return { value: undefined };
      // every value it may hold gives the same one
      const values = valuesOf(context, node).map(sub);
      const first = values[0];
      return first !== undefined && first !== UNKNOWN && values.every((v) => v !== UNKNOWN && Object.is(v.value, first.value)) ? first : UNKNOWN;
    }
    case AST_NODE_TYPES.Literal:
      return node.value instanceof RegExp ? UNKNOWN : { value: node.value };
    case AST_NODE_TYPES.UnaryExpression: {
      const value = sub(node.argument);
      if (value === UNKNOWN) return UNKNOWN;
      if (node.operator === '!') return { value: !value.value };
      if (node.operator === '-') return { value: -(value.value as number) };
      if (node.operator === '+') return { value: +(value.value as number) };
      return UNKNOWN;
    }
    case AST_NODE_TYPES.LogicalExpression: {
      const left = sub(node.left);
      const right = sub(node.right);
      if (node.operator === '&&') {
        if (left !== UNKNOWN) return left.value ? right : left;
        return right !== UNKNOWN && !right.value ? { value: false } : UNKNOWN;
      }
      if (node.operator === '||') {
        if (left !== UNKNOWN) return left.value ? left : right;
        return right !== UNKNOWN && right.value ? { value: true } : UNKNOWN;
      }
      if (left === UNKNOWN) return UNKNOWN;
      return left.value === null || left.value === undefined ? right : left;
    }
    case AST_NODE_TYPES.BinaryExpression: {
      const left = node.left.type === AST_NODE_TYPES.PrivateIdentifier ? UNKNOWN : sub(node.left);
      const right = sub(node.right);
      if (left === UNKNOWN || right === UNKNOWN) return UNKNOWN;
      const a = left.value as number;
      const b = right.value as number;
      switch (node.operator) {
        case '===': return { value: a === b };
        case '!==': return { value: a !== b };
        case '==': return { value: a == b };
        case '!=': return { value: a != b };
        case '<': return { value: a < b };
        case '<=': return { value: a <= b };
        case '>': return { value: a > b };
        case '>=': return { value: a >= b };
        case '+': return { value: a + b };
        case '-': return { value: a - b };
        case '*': return { value: a * b };
        default: return UNKNOWN;
      }
    }
    default:
      return UNKNOWN;
  }
}

/** Whether a value is a plain object without own fields (HGETALL's reply for a missing hash). */
function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}
