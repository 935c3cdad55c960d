/**
 * "The code removes what it adds", read in the Lua scripts of a file: a job engine keeps its queue
 * structures (a sorted set of waiting ids, an items hash, an in-flight or current-concurrency set)
 * in its own scripts, one script adding a member (enqueue, dequeue into in-flight) and another
 * script of the same file taking it off again, by name (ZREM / SREM / HDEL: ack, nack, release) or
 * by position (ZPOPMIN, LPOP ...: a dequeue). Redis deletes a set, sorted set, list or hash with its
 * last member (`semantics/members.ts`, `semantics/queues.ts`), so such a key lives only while it
 * holds work: the script mirror of `lifecycle.ts` drainedElsewhere (a queue its consumer pops) and
 * `member-registry.ts` memberRemovedElsewhere (a member removed by name elsewhere), read with the
 * same Redis facts (`addedMembers` / `removedMembers`, `pushedQueue` / `poppedQueue`).
 *
 * A `KEYS[i]` of script A is drained when, for every write of A that adds to it:
 *
 * - the write adds members of a collection (SADD, ZADD, HSET ...) and another script of the file
 *   removes members of the same collection from the same key, a member of the same identity (a
 *   literal only by that literal; a run-time member, from ARGV or a reply, by a run-time member), or
 *   pops it (SPOP, ZPOPMIN ...);
 * - or the write pushes to a list (RPUSH, LPUSH ...) and another script pops that list;
 * - "the same key": `KEYS[j]` of the other script, whose key argument at a call of that script has
 *   the key shape of A's at each of its calls (an enqueue also called with a dead-letter key
 *   nothing acks is not drained), and, for a shape with no static part (`*`), the same
 *   spelling (`masterQueueKey` and `masterQueueKey`; not `items` and `queue`); a key built in
 *   both scripts by the same spelling, and from `KEYS[i]` only when that `KEYS[i]` is one key at
 *   their calls (`KEYS[1] .. ':members'` of `room:<id>` and of `team:<id>` are two keys);
 * - the other script can run: it is called in the file (a defined command's call, an eval), from
 *   code that may run (`pattern-drains.ts` mayRun: not a function nothing calls).
 *
 * Not drained (still reported): a key no other script removes members from, a removal from
 * another key, a removal of a literal member nobody adds (`HDEL h 'config'` for `HSET h id v`), a
 * stream (XADD: Redis keeps an empty stream, `semantics/queues.ts`), a removal in a script nothing
 * calls, and a key built in the two scripts by different spellings.
 */
import type * as L from 'luaparse';
import type { TSESTree } from '@typescript-eslint/utils';
import { describeCommand, EXPIRY_EFFECTS, type CommandArg } from '../semantics/commands.js';
import { addedMembers, removedMembers, takesOff, type MemberCollection, type MemberTaking } from '../semantics/members.js';
import { appendsUncappedEntry, poppedQueue, pushedQueue, removesStreamEntries, type QueueType } from '../semantics/queues.js';
import { parseLua } from '../lua-lint/parse.js';
import { commandCall, literalText } from '../lua-lint/walk/ast.js';
import { expressionText, forEachNode } from '../lua-lint/walk/ast.js';
import { embeddedScriptsOf, type EmbeddedScript } from './lua.js';
import { hasStaticPart } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import { namedFunctionOf } from './builder-lookup.js';
import { mayRun } from './pattern-drains.js';
import { walk, type AnyContext } from './static.js';

/** A member identity in a script: `value:<literal>` or `run-time` (ARGV, a reply, a loop element). */
type MemberId = string;

/**
 * A key as a script names it: `KEYS[i]` (its 1-based index), or a key built in the script from
 * its parts: `text`, the spelling lua-lint gives it (`base .. ':members'`, its identity in a
 * finding and in `persistentKeys`), and `resolved`, that spelling with each local assigned once
 * replaced by its value (`KEYS[1]..':members'`), which two scripts are compared by.
 */
export type ScriptKey = { index: number } | { text: string; resolved: string };

/** What one `redis.call` of a script does to the key it names. */
export interface KeyUse {
  key: ScriptKey;
  /** Members added: a collection and the identities, or a list pushed to. */
  adds?: { collection: MemberCollection | QueueType; members: MemberId[] };
  /** Members removed by name. */
  removes?: { collection: MemberCollection; members: MemberId[] };
  /** The queue type popped. */
  pops?: QueueType;
  /** The command gives the key a TTL (EXPIRE, SET ... EX ...: `semantics/commands.ts` EXPIRY_EFFECTS). */
  expires?: true;
  /** An XADD without MAXLEN / MINID: one more stream entry per run. */
  appendsUncapped?: true;
  /** XTRIM, XADD ... MAXLEN / MINID, XDEL: entries of the stream removed. */
  removesEntries?: true;
  /**
   * RENAME / RENAMENX / COPY from this key: its value (and its lack of TTL) goes to this other key
   * (`undefined` when the reading cannot name it).
   */
  movesTo?: { key: ScriptKey | undefined };
}

/** What a script's commands do to the keys it names ({@link scriptKeyUses}). */
export interface ScriptKeyUses {
  uses: KeyUse[];
  /** A command gives a TTL to a key the reading cannot name (`for _, k in ipairs(KEYS) do redis.call('EXPIRE', k, 60) end`). */
  expiresUnnamedKey: boolean;
}

/** One script of the file with its calls' KEYS arguments and its key uses. */
interface ScriptUses {
  script: EmbeddedScript;
  /** The KEYS arguments of each call of the script that may run (one list per call). */
  calls: TSESTree.Node[][];
  uses: KeyUse[];
}

const RUN_TIME: MemberId = 'run-time';

const fileCache = new WeakMap<TSESTree.Program, ScriptUses[]>();

/**
 * The 1-based `KEYS` indices of `script` that are work structures another script of the file
 * drains (see the module comment): lua-lint then takes them as kept by the code, as the key rules
 * take a queue its consumer pops.
 * @param context the rule context
 * @param script a script of the file, as `embeddedScriptsOf` found it
 */
export function drainedByOtherScripts(context: AnyContext, script: EmbeddedScript): Array<number | string> {
  const scripts = scriptsOfFile(context);
  const own = scripts.find((s) => s.script.literal === script.literal);
  if (!own || own.calls.length === 0) return [];
  const others = scripts.filter((s) => s !== own && s.calls.length > 0);
  if (others.length === 0) return [];
  const byKey = new Map<number | string, KeyUse[]>();
  for (const use of own.uses) {
    if (!use.adds) continue;
    const id = 'index' in use.key ? use.key.index : use.key.text;
    byKey.set(id, [...(byKey.get(id) ?? []), use]);
  }
  const drained: Array<number | string> = [];
  for (const [id, adds] of byKey) {
    const key = adds[0]!.key;
    const removals = others.flatMap((other) => other.uses.filter((use) => (use.removes || use.pops) && sameKey(context, own, key, other, use.key)));
    if (removals.length > 0 && adds.every((add) => add.adds!.members.every((member) => removals.some((removal) => removalTakesOff(add, member, removal))))) drained.push(id);
  }
  return drained;
}

/** Whether `removal` takes off the member `member` that `add` adds (`semantics/members.ts` takesOff, the key rules' notion). */
function removalTakesOff(add: KeyUse, member: MemberId, removal: KeyUse): boolean {
  const taking: MemberTaking = removal.pops
    ? { collection: removal.pops, popped: true }
    : { collection: removal.removes!.collection, named: (m) => removal.removes!.members.includes(m) };
  return takesOff(add.adds!.collection, member, taking);
}

/**
 * Whether the key `a` of `one` and the key `b` of `other` are one key: two `KEYS` by their calls'
 * arguments ({@link sameKeyAtCalls}), two keys built in the scripts by their spelling, and the
 * `KEYS[i]` that spelling names by their calls' arguments.
 */
function sameKey(context: AnyContext, one: ScriptUses, a: ScriptKey, other: ScriptUses, b: ScriptKey): boolean {
  if ('text' in a || 'text' in b) {
    if (!('text' in a && 'text' in b) || a.resolved !== b.resolved) return false;
    // a key built from a `KEYS[i]` (`KEYS[1] .. ':members'`, directly or through a local) is the
    // same key only when that `KEYS[i]` is one key at the two scripts' calls (`room:<id>` and
    // `team:<id>` build two keys)
    return [...a.resolved.matchAll(/\bKEYS\s*\[\s*(\d+)\s*\]/g)].every((m) => sameKeyAtCalls(context, one, Number(m[1]), other, Number(m[1])));
  }
  return sameKeyAtCalls(context, one, a.index, other, b.index);
}

/**
 * Whether `KEYS[a]` of `one` and `KEYS[b]` of `other` are one key: at every call of `one`, its key
 * argument and that of some call of `other` have one key shape and, for a shape with a static part, may be one key
 * (`key-id.ts` sameKeyByShape); for a shape of run-time parts only, the same spelling.
 */
function sameKeyAtCalls(context: AnyContext, one: ScriptUses, a: number, other: ScriptUses, b: number): boolean {
  let matched = false;
  for (const callA of one.calls) {
    const nodeA = callA[a - 1];
    if (!nodeA) continue;
    const shapeA = keyShapeOf(context, nodeA).shape;
    const drained = other.calls.some((callB) => {
      const nodeB = callB[b - 1];
      if (!nodeB || keyShapeOf(context, nodeB).shape !== shapeA) return false;
      // a shape with a static part names one key family (`key-id.ts` sameKeyByShape); one of
      // run-time parts only, by its spelling
      return hasStaticPart(shapeA) || spelling(context, nodeA) === spelling(context, nodeB);
    });
    // every key the script is called with must be drained: `enqueue(queueKey(q))` acked, but
    // `enqueue(deadKey(q))` (a dead-letter set nothing acks) is not
    if (!drained) return false;
    matched = true;
  }
  return matched;
}

function spelling(context: AnyContext, node: TSESTree.Node): string {
  return context.sourceCode.getText(node).replace(/\s+/g, '');
}

/** The file's scripts with their running calls and key uses, built once per file. */
function scriptsOfFile(context: AnyContext): ScriptUses[] {
  const program = context.sourceCode.ast;
  let scripts = fileCache.get(program);
  if (scripts) return scripts;
  const list: ScriptUses[] = [];
  const byLiteral = new Map<TSESTree.Node, ScriptUses>();
  walk(context, program, (node) => {
    if (node.type !== 'CallExpression' && node.type !== 'NewExpression') return;
    for (const found of embeddedScriptsOf(context, node)) {
      if ('unreadable' in found) continue;
      const calls = (found.keyArgs ? [found.keyArgs] : (found.callerKeys ?? found.loadedCallerKeys ?? [])).filter((keys) => keys.length > 0 && callMayRun(context, keys[0]!));
      // one script text evaluated at several calls (`const ENQUEUE = '...'`): every call's keys
      const known = byLiteral.get(found.literal);
      if (known) {
        known.calls.push(...calls);
        continue;
      }
      const uses: ScriptUses = { script: found, calls, uses: scriptKeyUses(found.source).uses };
      byLiteral.set(found.literal, uses);
      list.push(uses);
    }
  });
  scripts = list;
  fileCache.set(program, scripts);
  return scripts;
}

/** Whether the code around a call's key argument may run: not inside a named function nothing calls (`pattern-drains.ts` mayRun). */
function callMayRun(context: AnyContext, keyNode: TSESTree.Node): boolean {
  const fn = namedFunctionOf(keyNode);
  return !fn || mayRun(context, fn);
}

/**
 * The script's `redis.call` / `redis.pcall` / `server.call` uses of its keys (a `KEYS[i]`, directly
 * or through a local assigned once, or a key built in the script) that add, remove or pop members,
 * give a TTL, or append to or trim a stream, at every key a command names.
 * @param source the script as Redis receives it
 */
export function scriptKeyUses(source: string): ScriptKeyUses {
  const parsed = parseLua(source, { comments: false });
  if (!parsed.ok) return { uses: [], expiresUnnamedKey: false };
  const assignments = parsed.index.assignments;
  // `KEYS[i]`, directly or through a local assigned once; a concatenation (`prefix .. id`),
  // directly or through such a local, by its spelling
  const scriptKey = (node: L.Expression | undefined, depth = 0): ScriptKey | undefined => {
    if (!node || depth > 4) return undefined;
    if (node.type === 'IndexExpression' && node.base.type === 'Identifier' && node.base.name === 'KEYS' && node.index.type === 'NumericLiteral') return { index: node.index.value };
    if (node.type === 'BinaryExpression' && node.operator === '..') {
      // a `*` would be a wildcard of the persistent-key pattern the spelling becomes
      const text = expressionText(node);
      return text.includes('*') ? undefined : { text, resolved: resolved(node) };
    }
    if (node.type === 'Identifier') {
      const values = assignments.get(node.name);
      return values?.length === 1 ? scriptKey(values[0]!.value, depth + 1) : undefined;
    }
    return undefined;
  };
  // the spelling with each local assigned once replaced by its value (`base` by `KEYS[1]`)
  const resolved = (node: L.Expression, depth = 0): string => {
    if (depth <= 4 && node.type === 'Identifier') {
      const values = assignments.get(node.name);
      if (values?.length === 1) return resolved(values[0]!.value, depth + 1);
    }
    if (node.type === 'BinaryExpression' && node.operator === '..') return `${resolved(node.left, depth)}..${resolved(node.right, depth)}`;
    return expressionText(node).replace(/\s+/g, '');
  };
  const uses: KeyUse[] = [];
  let expiresUnnamedKey = false;
  forEachNode(parsed.ast, (node) => {
    const call = commandCall(node);
    if (!call || call.node !== node) return;
    const rest = node.arguments.slice(1);
    const command = call.command;
    if (!command) return;
    const args: CommandArg[] = rest.map((arg) => (arg.type === 'StringLiteral' ? literalText(arg) : arg.type === 'NumericLiteral' ? arg.value : undefined));
    const members = (positions: readonly number[]): MemberId[] => positions.map((p) => (args[p] !== undefined ? `value:${String(args[p])}` : RUN_TIME));
    // every key the command names: LMPOP / ZMPOP pop from any of theirs, LMOVE pops its source
    // and pushes its destination (semantics/members.ts and queues.ts say which key does what)
    for (const action of describeCommand(command, args).keys) {
      const key = scriptKey(rest[action.arg]);
      const expires = EXPIRY_EFFECTS.has(action.effect);
      // the source of a RENAME / COPY hands its value and its TTL (or none) on to the destination
      // (a literal one is one key)
      const source = action.effect === 'transfer-ttl' && action.sourceArg !== undefined ? scriptKey(rest[action.sourceArg]) : undefined;
      if (source && rest[action.arg]?.type !== 'StringLiteral') uses.push({ key: source, movesTo: { key } });
      // a literal key is another key than any KEYS[i]; anything else may be one of them
      if (key === undefined) {
        if (expires && rest[action.arg]?.type !== 'StringLiteral') expiresUnnamedKey = true;
        continue;
      }
      if (expires) uses.push({ key, expires: true });
      if (appendsUncappedEntry(command, args)) uses.push({ key, appendsUncapped: true });
      if (removesStreamEntries(command, args)) uses.push({ key, removesEntries: true });
      const added = addedMembers(command, args, action.arg);
      const pushed = pushedQueue(command, action);
      const removed = removedMembers(command, args, action.arg);
      const popped = poppedQueue(command, action);
      if (added && added.positions.length > 0) uses.push({ key, adds: { collection: added.collection, members: members(added.positions) } });
      else if (pushed === 'list') uses.push({ key, adds: { collection: 'list', members: [RUN_TIME] } });
      if (removed) uses.push({ key, removes: { collection: removed.collection, members: members(removed.positions) } });
      if (popped) uses.push({ key, pops: popped });
    }
  });
  return { uses, expiresUnnamedKey };
}
