/**
 * The creation of a live record, for a field update of it (`incr-needs-expire-on-create`): when a
 * file creates a record (a hash, a member set: a key of one family) at one place and updates its
 * fields or members elsewhere, the record's lifetime is decided at its creation. A creation left
 * without TTL carries the finding; each later update of the record adds no leak of its own (its
 * HSET / HINCRBY / SADD keeps whatever TTL the record has, and the fix, an EXPIRE beside the
 * creation, goes there). One finding per key family, where the fix goes.
 *
 * Read here (the rule decides whether the creation is itself reported, and only then drops the
 * update):
 *
 * - **the same record**: a key of the same family, a shape with a static part (`room:*`,
 *   `socket:*`: `redis-calls/key-shape.ts`), written by a record command (`RECORD_WRITES` of
 *   `semantics/commands.ts`: HSET, HMSET, HSETNX, HINCRBY, HINCRBYFLOAT, SADD, ZADD, ZINCRBY) that
 *   keeps an existing key's TTL (`EFFECTS_THAT_KEEP_TTL`); a family the file also gives a TTL
 *   elsewhere (a sliding TTL another function re-arms: `touch(id) { pexpire(state(id), ms) }`) is
 *   read the same way: the creation is reported (the rule reports only a creation that leaves the
 *   record without TTL), and once fixed it is a record created with its TTL, whose updates
 *   `allowTtlRecordUpdates` leaves alone (`lifecycle.ts` createdWithTtlElsewhere); an update the
 *   rule reports for another reason (`staleExists`: it runs behind a read that saw the key) keeps
 *   its finding, only `noExpiry` is dropped;
 * - **its creation** (`creationWrite`): among the file's writes of the family that are
 *   the first write of their key in their function and run on every path of it (not under an
 *   `if`, `?:`, `&&`, a loop, a `switch` case or a `catch`), in a create path: its function reads
 *   nothing of the family before it (not a read-modify-write) and its key is not built from a
 *   member of a parameter (`` `room:${room.id}` ``: a record the caller hands in); the one that
 *   makes the record whole (an HSET / HMSET of several fields or of an object) first, then the
 *   first in source order. No such write: no creation, every write judged as before;
 * - **an update** ({@link fieldUpdateCreation}): another write of the family, in another function
 *   than the creation's (any record of the family: the family's creation decides its lifetime),
 *   unless it runs on the branch where a read of its own key found nothing (`const c = await
 *   redis.hgetall(k); if (c && c.status) return c; ... await redis.hset(k, row)`: a re-creation on
 *   a cache miss, after an eviction or a DEL, creates the key and is its own creation), nor when
 *   it is the first write of its key in a function every caller hands a freshly minted id
 *   (`minted-ids.ts`: `seedFlush(randomUUID())` creates a record of its own); or,
 *   in the creation's function, a write of the same key expression that an earlier write of that
 *   key, running on every path of the function, has just created: nothing but Redis round trips
 *   awaited in between, and no deletion of the key (DEL, HDEL, SREM ...) in between.
 *
 * A creation in another module of the package ({@link recordCreatedInAnotherModule}): a related
 * module creates the family without TTL, then calls the linted file's creation function, imported
 * by name: the file's writes of the family are updates of that record, the other module's
 * creation carries the finding.
 *
 * Not read: an update through another client the file makes than the creation's (`stats.hincrby`
 * beside `sessions.hset`: another server, whose record nothing created), a creation in another
 * module that does not call the file's creation after it (the update stays reported), a creation the
 * rule does not report (a SET belongs to `set-requires-ttl-or-keepttl`; a creation another reading
 * leaves alone), lists and streams (an append grows the key: its own finding).
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_KEEP_TTL, RECORD_WRITES } from '../semantics/commands.js';
import { fileIndexOf } from './file-index.js';
import { hasStaticPart, keyIdOf } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import { calledName } from './builder-lookup.js';
import { relatedModules } from './cross-file-lifecycle.js';
import { readModule } from './modules.js';
import { awaitOf, otherAwaitBetween, runsBefore } from './reserved-counter.js';
import { missGuard } from './stale-read.js';
import { keyOfMintedEntity } from './minted-ids.js';
import { enclosingFunction, findVariable, followsOnItsPath, isLoop, walk, type AnyContext, type FunctionLike } from './static.js';

/** One write of a record family: the call and its key argument. */
interface RecordWrite {
  call: RedisCall;
  arg: number;
  keyId: string;
  fn: TSESTree.Node | undefined;
}

const writesCache = new WeakMap<TSESTree.Program, Map<string, readonly RecordWrite[]>>();

/**
 * The file's writes of the record family `shape` by record commands that keep a key's TTL, in
 * source order. Built once per file.
 */
function recordWrites(context: AnyContext, shape: string): readonly RecordWrite[] {
  const program = context.sourceCode.ast;
  let byShape = writesCache.get(program);
  if (!byShape) {
    const map = new Map<string, RecordWrite[]>();
    const index = fileIndexOf(context);
    const calls = [...index.calls, ...index.facadeCalls].sort((a, b) => a.nameNode.range[0] - b.nameNode.range[0]);
    for (const call of calls) {
      if (!RECORD_WRITES.has(call.command)) continue;
      for (const key of call.description.keys) {
        const node = call.argNodes[key.arg];
        if (!EFFECTS_THAT_KEEP_TTL.has(key.effect) || !node || node.type === 'SpreadElement') continue;
        const keyId = keyIdOf(context, call, key.arg);
        if (!keyId) continue;
        const s = keyShapeOf(context, node).shape;
        const list = map.get(s);
        const write = { call, arg: key.arg, keyId, fn: enclosingFunction(call.node) };
        if (list) list.push(write);
        else map.set(s, [write]);
      }
    }
    byShape = map;
    writesCache.set(program, byShape);
  }
  return byShape.get(shape) ?? [];
}

/**
 * Whether `node` runs whenever its enclosing function's body runs to it: no `if` / `else` arm,
 * `?:` arm, right operand of `&&` / `||` / `??`, loop, `switch` case or `catch` between them.
 */
function onEveryPath(node: TSESTree.Node): boolean {
  for (let child: TSESTree.Node = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'FunctionDeclaration' || parent.type === 'FunctionExpression' || parent.type === 'ArrowFunctionExpression') return true;
    if (parent.type === 'IfStatement' && parent.test !== child) return false;
    if (parent.type === 'ConditionalExpression' && parent.test !== child) return false;
    if (parent.type === 'LogicalExpression' && parent.right === child) return false;
    if (parent.type === 'SwitchCase' || parent.type === 'CatchClause' || isLoop(parent)) return false;
    if (parent.type === 'ChainExpression') return false;
  }
  return true;
}

/** Whether a hash write names several fields, or an object of them (`hset(k, { a, b })`, HMSET). */
function writesWholeRecord(call: RedisCall): boolean {
  if (call.command === 'HMSET') return true;
  const fields = call.description.keys.find((key) => key.fields)?.fields;
  return fields !== undefined && (fields.args === 'unknown' || fields.args.length >= 2);
}

/** Whether the write's function reads a key of the family before it (a read-modify-write, not a create path). */
function readsFamilyBefore(context: AnyContext, write: RecordWrite, shape: string): boolean {
  const index = fileIndexOf(context);
  return [...index.calls, ...index.facadeCalls].some(
    (other) =>
      enclosingFunction(other.node) === write.fn &&
      other.nameNode.range[0] < write.call.nameNode.range[0] &&
      other.description.keys.some((key) => {
        const node = other.argNodes[key.arg];
        return key.effect === 'read' && node !== undefined && node.type !== 'SpreadElement' && keyShapeOf(context, node).shape === shape;
      }),
  );
}

/**
 * Whether the write's key is built from a member of a parameter (`` `room:${room.id}` `` with
 * `room` a parameter): a record its caller hands in, which exists before the write (an update).
 */
function handedInRecord(context: AnyContext, write: RecordWrite): boolean {
  const keyNode = write.call.argNodes[write.arg];
  if (!keyNode) return false;
  return walk(context, keyNode, (node) => {
    if (node.type !== 'MemberExpression' || node.object.type !== 'Identifier') return undefined;
    const variable = findVariable(context, node.object);
    return variable?.defs.some((def) => def.type === 'Parameter') ? 'stop' : undefined;
  });
}

/** The first write of its key in its function, on every path of it. */
function createsInItsFunction(write: RecordWrite, writes: readonly RecordWrite[]): boolean {
  return (
    onEveryPath(write.call.node) &&
    !writes.some((other) => other !== write && other.fn === write.fn && other.keyId === write.keyId && other.call.nameNode.range[0] < write.call.nameNode.range[0])
  );
}

const creationCache = new WeakMap<TSESTree.Program, Map<string, RecordWrite | null>>();

function creationWrite(context: AnyContext, shape: string): RecordWrite | undefined {
  const program = context.sourceCode.ast;
  let byShape = creationCache.get(program);
  if (!byShape) {
    byShape = new Map();
    creationCache.set(program, byShape);
  }
  let found = byShape.get(shape);
  if (found === undefined) {
    const writes = recordWrites(context, shape);
    const candidates = writes
      .filter(
        (w) =>
          w.call.description.keys.some((key) => key.arg === w.arg && key.effect === 'create-in-place') &&
          createsInItsFunction(w, writes) &&
          !readsFamilyBefore(context, w, shape) &&
          !handedInRecord(context, w),
      )
      .map((w) => ({ w, rank: writesWholeRecord(w.call) ? 0 : 1 }));
    candidates.sort((a, b) => a.rank - b.rank || a.w.call.nameNode.range[0] - b.w.call.nameNode.range[0]);
    found = candidates[0]?.w ?? null;
    byShape.set(shape, found);
  }
  return found ?? undefined;
}

/** Whether the file deletes the key `keyId` (DEL, or HDEL / SREM ... that may take the last member) in `fn` between two offsets. */
function deletedBetween(context: AnyContext, fn: TSESTree.Node | undefined, keyId: string, from: number, to: number): boolean {
  const index = fileIndexOf(context);
  return [...index.calls, ...index.facadeCalls].some(
    (other) =>
      enclosingFunction(other.node) === fn &&
      other.nameNode.range[0] > from &&
      other.nameNode.range[0] < to &&
      other.description.keys.some((key) => (key.effect === 'delete' || key.mayDelete === true) && keyIdOf(context, other, key.arg) === keyId),
  );
}

/**
 * The key shape of the record `call` updates at argument `arg`, when the write is a record write
 * that keeps an existing key's TTL (HSET, SADD, ZADD, HINCRBY ...: `RECORD_WRITES` with an effect
 * of `EFFECTS_THAT_KEEP_TTL`) on a key with a static part, and does not run on the branch where a
 * read of its key found nothing (`stale-read.ts` missGuard: there it creates the key, a creation
 * judged on its own); `undefined` otherwise.
 */
function updatedRecordShape(context: AnyContext, call: RedisCall, arg: number): string | undefined {
  const keyNode = call.argNodes[arg];
  if (!keyNode || keyNode.type === 'SpreadElement' || !RECORD_WRITES.has(call.command)) return undefined;
  const action = call.description.keys.find((key) => key.arg === arg);
  if (!action || !EFFECTS_THAT_KEEP_TTL.has(action.effect)) return undefined;
  const shape = keyShapeOf(context, keyNode).shape;
  if (!hasStaticPart(shape)) return undefined;
  // on the branch where a read of its key found nothing (a cache miss), the write creates the key
  if (missGuard(context, call, arg)) return undefined;
  return shape;
}

/**
 * The write that created the record the field update `call` writes at argument `arg`, when the
 * write is such an update (see the module comment); `undefined` when it is not (another command,
 * a key with no static part, no creation found, or the write is the creation itself). The caller
 * drops the update only when that creation is itself reported for leaving the record without TTL
 * (`noExpiry`), not for its order or a stale read.
 */
export function fieldUpdateCreation(context: AnyContext, call: RedisCall, arg: number): RedisCall | undefined {
  const shape = updatedRecordShape(context, call, arg);
  if (shape === undefined) return undefined;
  const writes = recordWrites(context, shape);
  const self = writes.find((w) => w.call === call && w.arg === arg);
  const creation = creationWrite(context, shape);
  if (!self || !creation || creation === self) return undefined;
  // a record of the family on another server (two clients made in the file) was not created there
  const [client, creator] = [ownClientOf(context, call), ownClientOf(context, creation.call)];
  if (client !== undefined && creator !== undefined && client !== creator) return undefined;
  // another function than the creation's: the family's creation decides the record's lifetime,
  // unless the write is the first of its key in a function every caller hands a freshly minted
  // identifier (minted-ids.ts): no record of that key exists yet, the write creates its own
  if (self.fn !== creation.fn) {
    const keyNode = call.argNodes[arg];
    const minted = self.fn !== undefined && keyNode !== undefined && createsInItsFunction(self, writes) && keyOfMintedEntity(context, self.fn as FunctionLike, keyNode);
    return minted ? undefined : creation.call;
  }
  // the creation's own function: a write the same function has just created (same key expression)
  const earlier = writes.find(
    (w) =>
      w.fn === self.fn &&
      w.keyId === self.keyId &&
      w.call.nameNode.range[0] < call.nameNode.range[0] &&
      createsInItsFunction(w, writes) &&
      followsOnItsPath(w.call.node, call.node),
  );
  if (!earlier || deletedBetween(context, self.fn, self.keyId, earlier.call.nameNode.range[0], call.nameNode.range[0])) return undefined;
  return sameStep(context, earlier.call, call, self.fn) ? earlier.call : undefined;
}

/**
 * The variable of the client a call writes through when the file makes that client itself (`const
 * stats = new Redis(url)`, `createClient(...)`), under any `pipeline()` / `multi()` chain; `undefined`
 * otherwise (a member, a parameter, an imported client: not told apart).
 */
function ownClientOf(context: AnyContext, call: RedisCall): unknown {
  if (call.node.type !== 'CallExpression') return undefined;
  let node: TSESTree.Node = call.node.callee;
  while (node.type === 'MemberExpression' || node.type === 'CallExpression' || node.type === 'ChainExpression' || node.type === 'TSNonNullExpression') {
    node = node.type === 'MemberExpression' ? node.object : node.type === 'CallExpression' ? node.callee : node.expression;
  }
  if (node.type !== 'Identifier') return undefined;
  const variable = findVariable(context, node);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.node.type !== 'VariableDeclarator' || !def.node.init) return undefined;
  let init: TSESTree.Node = def.node.init;
  while (init.type === 'AwaitExpression' || init.type === 'TSAsExpression' || init.type === 'TSNonNullExpression') init = init.type === 'AwaitExpression' ? init.argument : init.expression;
  return init.type === 'NewExpression' || (init.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'createClient') ? variable : undefined;
}

/**
 * Whether `write` is the same step of the record's life as the earlier write `creation` of its
 * function: nothing but Redis round trips awaited between them (the `created-before.ts` window). A
 * write after the application's own work (a job's handler, a reply sent) is a new step, such as a
 * status going from active to completed, where a retention TTL belongs: judged on its own.
 */
function sameStep(context: AnyContext, creation: RedisCall, write: RedisCall, fn: TSESTree.Node | undefined): boolean {
  const done = awaitOf(context, creation, write, fn);
  if (done) return runsBefore(done, write.node) && !otherAwaitBetween(context, done, write, fn);
  // not awaited on its own (an element of one `Promise.all([...])`): no await at all in between
  return !walk(context, fn ?? context.sourceCode.ast, (node) =>
      node.type === 'AwaitExpression' && node.range[0] >= creation.node.range[1] && node.range[1] <= write.node.range[0] ? 'stop' : undefined, {
    range: [creation.node.range[1], write.node.range[0]],
    skipFunctions: true,
  });
}

/**
 * Text of a module that may write a record (HSET, HMSET, HSETNX, HINCRBY, SADD, ZADD, ZINCRBY in
 * any client's spelling): only such a related module is parsed for a creation.
 */
const MAY_WRITE_RECORD = /\b(?:h(?:set|mset|setnx|incrby|incrbyfloat)|sadd|zadd|zincrby)\b/i;

/**
 * Per linted program (dropped with it), {@link recordCreatedInAnotherModule}'s answers keyed by
 * `<key shape>\0<range of the update's function>`: the other module's creation, or `null` for none.
 */
const foreignCache = new WeakMap<TSESTree.Program, Map<string, RedisCall | null>>();

/**
 * The creation, in ANOTHER MODULE of the package, of the record family the field update `call`
 * writes at argument `arg`, when that module's creation is the family's (see below); `undefined`
 * otherwise. The caller drops the update (its `noExpiry` finding): the record's lifetime is decided
 * at that creation, and judged in that module.
 *
 * What counts, all of it:
 * - the write: a record command that keeps an existing key's TTL (as {@link fieldUpdateCreation}),
 *   of a key shape with a static part;
 * - the other module: a related module of the linted file (`cross-file-lifecycle.ts`
 *   relatedModules: its importers, its imports and their importers, tests left out) whose
 *   creation of the family ({@link creationWrite} read there: the first write of its key on every
 *   path of a create path) runs without TTL: that module expires the family nowhere (a creation
 *   with a TTL there is `createdWithTtlInAnotherModule`'s reading);
 * - the order: the function of that creation goes on, on the creation's path and in its own body
 *   (not a callback), to call by name, through a named `import` of the linted file, the linted
 *   file's own creation function of the family (or, when the file has none, the function of the
 *   write): the file's first write of the family runs on a record the other module has just
 *   created, so it is an update, and so is every other write of the family in the file;
 * - that module REPORTS the creation (`reportedThere`, the rule's own decision there: `rules/
 *   incr-needs-expire-on-create.ts` runs itself on that module, `foreign-findings.ts`): with the
 *   same options it would report it (`noExpiry`; an `eslint-disable` there silences it, as the
 *   user's decision on the family, and counts as reported, as in the linted file). A creation in
 *   code nothing runs (`allowUncalledCode`), or left alone by any other exemption the rule applies there and not to the update (a persistent
 *   annotation on the creation, a pass-through wrapper, an opaque key there...) is reported nowhere
 *   else: the update keeps its finding. A persistent pattern, or a deletion of the family, leaves
 *   the update alone in the linted file too.
 *
 * Not read: a call through a namespace, a default import, a class instance or a `require`; a
 * related module that never calls the linted file's creation (two modules each creating the family
 * keep their findings); a creation in a module beyond {@link relatedModules}' bounds.
 * @param reportedThere whether the rule, linting the module of `at`, shows its finding on `creation`
 */
export function recordCreatedInAnotherModule(context: AnyContext, call: RedisCall, arg: number, reportedThere: (at: AnyContext, creation: RedisCall) => boolean): RedisCall | undefined {
  const shape = updatedRecordShape(context, call, arg);
  if (shape === undefined) return undefined;
  // by its node: a module judged from another (foreign-findings.ts) reads its calls anew, so the
  // call objects of the module's file index are not the rule's
  const self = recordWrites(context, shape).find((w) => w.call.node === call.node && w.call.command === call.command && w.arg === arg);
  if (!self) return undefined;
  const program = context.sourceCode.ast;
  let byShape = foreignCache.get(program);
  if (!byShape) {
    byShape = new Map();
    foreignCache.set(program, byShape);
  }
  // the linted file's function that creates the family (or the write's, when the file creates none)
  const local = creationWrite(context, shape)?.fn ?? self.fn;
  const cacheKey = `${shape}\u0000${local?.range.join(':') ?? ''}`;
  let found = byShape.get(cacheKey);
  if (found === undefined) {
    found = null;
    const name = local ? calledName(local as FunctionLike) : undefined;
    if (name !== undefined) {
      for (const at of relatedModules(context, MAY_WRITE_RECORD)) {
        const creation = creationWrite(at, shape);
        if (!creation?.fn || fileIndexOf(at).expiredShapes.has(shape)) continue;
        // that module shows the creation's finding: the family is reported there, not nowhere
        if (callsAfter(at, creation, context.physicalFilename ?? context.filename, name) && reportedThere(at, creation.call)) {
          found = creation.call;
          break;
        }
      }
    }
    byShape.set(cacheKey, found);
  }
  return found ?? undefined;
}

/**
 * Whether the function of `creation` (a write of the module of `at`) calls, in its own body and on
 * the creation's path after it, the function `name` it imports by name from the module `file`.
 */
function callsAfter(at: AnyContext, creation: RecordWrite, file: string, name: string): boolean {
  const fn = creation.fn;
  if (!fn) return false;
  const from = at.physicalFilename ?? at.filename;
  return walk(at, fn, (node) => {
    if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier' || enclosingFunction(node) !== fn) return undefined;
    if (node.range[0] < creation.call.node.range[1] || !followsOnItsPath(creation.call.node, node)) return undefined;
    const def = findVariable(at, node.callee)?.defs[0];
    if (def?.type !== 'ImportBinding' || def.node.type !== 'ImportSpecifier' || def.parent?.type !== 'ImportDeclaration') return undefined;
    const imported = def.node.imported.type === 'Identifier' ? def.node.imported.name : def.node.imported.value;
    if (imported !== name) return undefined;
    return readModule(from, def.parent.source.value, true)?.path === file ? 'stop' : undefined;
  });
}
