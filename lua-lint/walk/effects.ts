/**
 * A Redis command's effects on the state: `redis.call` / `redis.pcall` with its arguments already
 * evaluated ({@link CommandEffects.redisCall}) reads the command's description from
 * `semantics/commands.ts` (which keys it writes and how, what it needs to exist, its TTL
 * argument) and applies each key action to the key's state: new write sites left without TTL,
 * existence, versions, deletions (a removal that may empty the key, an expiry <= 0, an empty
 * STORE), hash-field TTLs, the commands Redis rejects (the script raises there), and the reply
 * guards will read (`idioms.ts` says what a reply proves).
 */
import type * as L from 'luaparse';
import { describeCommand, removingTtlChangesNothing, type CommandArg, type CommandDescription, type KeyAction, type KeyEffect } from '../../semantics/commands.js';
import { isBelowJsonRoot, jsonWritesBelowRoot } from '../../semantics/redis8-types.js';
import { isTooNew } from '../../semantics/versions.js';
import {
  alwaysStatusReply,
  createdShape,
  mayReplyWhenCreated,
  MOVES_REPLYING_THE_ELEMENT,
  removalEmpties,
  removalKeeps,
  mayKnowReplyRange,
  removalRemovesNothing,
  replyLuaType,
  replyRange,
  replyWhenCreated,
  SIZE_READS,
} from '../idioms.js';
import {
  keyMustComeFromKeysMessage,
  minRedisVersionMessage,
  noGetsetMessage,
  noPersistMessage,
  nonPositiveMessage,
  unanalyzableMessage,
  unknownCommandMessage,
  unknownOptionsMessage,
  type RejectReason,
  type WriteSite,
} from '../messages.js';
import {
  adopt,
  clone,
  createdAt,
  getKey,
  join,
  joinAll,
  newKeyState,
  newReply,
  noteNoTtl,
  NIL,
  sameValue,
  setKey,
  union,
  universalId,
  UNKNOWN,
  withKey,
  withReply,
  type Existence,
  type KeyState,
  type Reply,
  type State,
  type Value,
} from '../state.js';
import { rangeOf } from './ast.js';
import { keyNames, type Ctx } from './base.js';
import { Findings, NO_RISK, ttlRisk } from './findings.js';
import { element } from './values.js';

/** Effects that write only when they create the key: an existing key keeps its TTL. */
export const CREATION_ONLY: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['create-in-place', 'create-if-missing', 'keep-ttl']);

/** Effects that can make a missing key exist. */
const CREATING_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-in-place',
  'create-if-missing',
  'overwrite',
  'transfer-ttl',
  'create-with-ttl',
  'create-if-missing-with-ttl',
  'keep-ttl',
  'create-with-field-ttl',
]);

/** See the module comment. */
export abstract class CommandEffects extends Findings {
  /** Per key id, how many writes so far may have created it (a loop over KEYS asks whether its body did). */
  protected readonly creations = new Map<string, number>();

  /** `redis.call(name, ...)`: applies the command's effects on its keys to the state. */
  protected redisCall(node: L.Node, rawArgs: Value[], argNodes: readonly L.Expression[], st: State, ctx: Ctx, pcall: boolean, outcomes = true): Value {
    const nameValue = rawArgs[0];
    if (nameValue?.t === 'str' && nameValue.v === undefined && nameValue.alts && nameValue.alts.length > 0) {
      // The name is one of a few literals (`cond and 'RPUSH' or 'LPUSH'`): each one on a path of its own.
      const outs: State[] = [];
      const replies: Value[] = [];
      for (const alt of nameValue.alts) {
        const branch = clone(st);
        replies.push(this.redisCall(node, [{ t: 'str', v: alt }, ...rawArgs.slice(1)], argNodes, branch, ctx, pcall));
        outs.push(branch);
      }
      adopt(st, joinAll(outs));
      return replies.every((r) => sameValue(r, replies[0]!)) ? replies[0]! : UNKNOWN;
    }
    if (!nameValue || nameValue.t !== 'str' || nameValue.v === undefined) {
      this.report('unanalyzable-command', node, unanalyzableMessage(argNodes[0] ? this.input.source.slice(...rangeOf(argNodes[0])) : undefined));
      return UNKNOWN;
    }
    // the arguments after the name, and as literals up to the first spread (one pass)
    const args: Value[] = [];
    const literalArgs: CommandArg[] = [];
    let spreadIndex = -1;
    for (let i = 1; i < rawArgs.length; i++) {
      const a = rawArgs[i]!;
      args.push(a);
      if (spreadIndex >= 0) continue;
      literalArgs.push(a.t === 'str' && a.v !== undefined ? a.v : a.t === 'num' && a.v !== undefined ? a.v : undefined);
      if (a.t === 'spread') spreadIndex = i - 1;
    }
    // A spread may stand for any number of arguments: two unknown ones make the table read the
    // options it cannot see as unknown (SET key unpack(ARGV), SET key value unpack(opts)).
    if (spreadIndex >= 0) literalArgs.push(undefined);
    const facts = describe(nameValue.v, literalArgs);
    const description = facts.description.keys.some((a) => a.rootPathArg !== undefined) ? this.belowJsonRoot(facts.description, argNodes) : facts.description;
    const command = description.name;
    if (!description.known) {
      // A command no table knows (a module's, or a newer Redis'): nothing is proved about its keys, and the script does not pass as clean.
      this.report('unanalyzable-command', node, unknownCommandMessage(command));
      return newReply(command, 0, pcall);
    }
    const offset = rangeOf(node)[0];
    if (description.rejectedWhenExists) {
      // GETEX with a bad literal expiry: an error when the key exists, nil when it is missing.
      const index = description.nonPositiveTtlArg;
      if (index !== undefined) this.report('expire-needs-positive-ttl', argNodes[index + 1] ?? node, nonPositiveMessage(command, literalArgs[index], description));
      const key = args[0] ? this.keyOf(args[0], argNodes[1]) : undefined;
      const state = key ? getKey(st, key.id) : undefined;
      if (!pcall && state?.exists !== 'no') {
        const existing = state?.exists === 'yes' || !key ? st : this.raising(st, ctx);
        if (existing !== st) setKey(existing, key!.id, withKey(state!, { exists: 'yes' }));
        this.raise(existing, ctx, key ? { kind: 'command-error', offset, reason: { kind: 'exists', key: key.display } } : { kind: 'command-error', offset });
        if (st.dead) return UNKNOWN;
        // on the path that goes on, the key was missing: nothing it held is left without TTL
        if (key) setKey(st, key.id, withKey(state!, { exists: 'no', pending: [] }));
      }
      return NIL;
    }
    if (description.rejected) {
      const index = description.nonPositiveTtlArg;
      if (index !== undefined) this.report('expire-needs-positive-ttl', argNodes[index + 1] ?? node, nonPositiveMessage(command, literalArgs[index], description));
      // Redis rejects the command; in a script the error aborts it (redis.pcall returns the error instead).
      if (!pcall) this.raise(st, ctx, { kind: 'command-error', offset });
      return UNKNOWN;
    }
    if (description.unknownOptions && command === 'SET') {
      this.report('unanalyzable-command', node, unknownOptionsMessage(command));
    }
    if (this.input.redisVersion && description.requires && isTooNew(description.requires, this.input.redisVersion)) {
      this.report('min-redis-version', node, minRedisVersionMessage(description.requires.feature, description.requires.version));
    }
    if (description.ttl) {
      const keyId = args[0] ? this.keyOf(args[0], argNodes[0 + 1])?.id : undefined;
      this.checkTtlValue(node, command, description, args[description.ttl.arg], argNodes[description.ttl.arg + 1], spreadIndex >= 0 && description.ttl.arg >= spreadIndex, keyId);
    }
    // A TTL computed in the script: Redis may reject it (a fraction; <= 0 for SET EX) or take it as
    // "delete now" (<= 0, or an absolute time already past).
    const risk = description.ttl ? ttlRisk(command, description.ttl.unit, args[description.ttl.arg]) : NO_RISK;
    if (risk.mayRaise && !pcall) this.raise(this.raising(st, ctx), ctx, { kind: 'command-error', offset, reason: { kind: 'computed-ttl' } });
    // redis.pcall of a command Redis may reject: on that path nothing was written.
    const rejectedUnderPcallTtl = pcall && risk.mayRaise ? clone(st) : undefined;
    // RENAME of a missing source raises "ERR no such key", TS.CREATE / BF.RESERVE / TDIGEST.CREATE of
    // an existing key "key already exists" (redis.pcall: nothing happens). Past the command, the
    // key was as the command needs it.
    let missingUnderPcall: State | undefined;
    for (const action of description.keys) {
      if (!action.mustExist && !action.mustBeMissing) continue;
      const value = args[action.arg];
      const key = value ? this.keyOf(value, argNodes[action.arg + 1]) : undefined;
      if (!key) continue;
      const state = getKey(st, key.id);
      const needed: Existence = action.mustExist ? 'yes' : 'no';
      if (state.exists === needed) continue;
      // the key as it is on the path that raises, and on the path that goes on
      const raisingState = action.mustExist ? withKey(state, { exists: 'no', pending: [] }) : withKey(state, { exists: 'yes' });
      const goingOn = action.mustExist ? withKey(state, { exists: 'yes' }) : withKey(state, { exists: 'no', pending: [] });
      if (pcall) {
        if (state.exists !== 'maybe') return newReply(command, 0, pcall);
        missingUnderPcall ??= clone(st);
      } else {
        const failing = state.exists !== 'maybe' ? st : this.raising(st, ctx);
        if (failing !== st) setKey(failing, key.id, raisingState);
        const error = command === 'RENAME' || command === 'RENAMENX' ? undefined : 'key does not exist';
        const reason: RejectReason = action.mustExist ? { kind: 'missing', key: key.display, ...(error ? { error } : {}) } : { kind: 'exists', key: key.display };
        this.raise(failing, ctx, { kind: 'command-error', offset, reason });
        if (st.dead) return UNKNOWN;
      }
      setKey(st, key.id, goingOn);
    }
    /** Every way out from here keeps the path where redis.pcall's command was rejected (see {@link keepRejected}). */
    const rejected = rejectedUnderPcallTtl ?? missingUnderPcall;
    // COPY k k: "ERR source and destination objects are the same".
    if (command === 'COPY' && args[0] && args[1] && this.keyOf(args[0], argNodes[0 + 1])?.id === this.keyOf(args[1], argNodes[1 + 1])?.id) {
      if (!pcall) this.raise(st, ctx, { kind: 'command-error', offset, reason: { kind: 'copy-onto-itself' } });
      return this.keepRejected(st, rejected, UNKNOWN);
    }
    // RENAMENX / COPY may do nothing at all (destination exists, source missing): both outcomes.
    if (outcomes) {
      const mayDoNothing = this.mayDoNothing(description, args, argNodes, st);
      if (mayDoNothing === 'always') {
        const reply = newReply(command, 0, pcall);
        reply.luaType = 'number';
        return this.keepRejected(st, rejected, reply);
      }
      if (mayDoNothing) {
        const unchanged = clone(st);
        this.nothingDone(description, args, argNodes, unchanged);
        const reply = this.redisCall(node, rawArgs, argNodes, st, ctx, pcall, false);
        adopt(st, join(st, unchanged));
        return this.keepRejected(st, rejected, reply.t === 'reply' ? withReply(reply, { version: 0 }) : reply);
      }
    }

    // the first key as it was before the command: what its reply can be depends on it
    const firstArgKey = !pcall && (facts.rangeKnown || facts.setCondition) && description.keys[0]?.arg === 0 && args[0] ? this.keyOf(args[0], argNodes[1]) : undefined;
    const firstBefore = firstArgKey ? getKey(st, firstArgKey.id) : undefined;
    let firstKey: { id: string } | undefined;
    /** The key the write site is about: guards on the reply speak of it (LMOVE's destination). */
    let siteKey: string | undefined;
    const keyIds: string[] = []; // argument index -> key id, for moves onto themselves
    let site: number | undefined;
    let surelyCreated = false;
    let actions: readonly KeyAction[] = description.keys;
    // RENAME deletes its source before the destination reads the source's state, and LMOVE may
    // empty its source before the destination asks whether it had an element: both read the keys
    // as they were before the command (`before`), which the command's first write forks from.
    const keysBefore = st.keys;
    const stateBefore = { keys: keysBefore } as State;
    if (facts.readsBefore) st.ownKeys = false;
    let spreadKeys: Value[] = [];
    if (spreadIndex >= 0) {
      // unpack(KEYS): every argument from the spread on is a key of that table; unpack(t) of a
      // table the script filled: its items, at the key positions of the command.
      const spread = args[spreadIndex] as Extract<Value, { t: 'spread' }>;
      const keyAction = description.keys.find((k) => k.arg >= spreadIndex);
      if (keyAction || actions.length === 0) {
        const effect = keyAction?.effect;
        if (effect && spread.of) actions = [...actions, { arg: -1, effect }];
        else if (effect && spread.items) {
          const stride = PAIRS_COMMANDS.has(command) ? 2 : TRIPLES_COMMANDS.has(command) ? 3 : 1;
          spreadKeys = spread.items.filter((_, i) => i % stride === 0);
          actions = [...actions, ...spreadKeys.map((_, i): KeyAction => ({ arg: -2 - i, effect }))];
        }
      }
    }
    for (const action of actions) {
      const value = action.arg === -1 ? element((args[spreadIndex] as Extract<Value, { t: 'spread' }>).of!) : action.arg <= -2 ? spreadKeys[-2 - action.arg] : args[action.arg];
      if (!value) continue;
      const argNode = action.arg >= 0 ? argNodes[action.arg + 1] : undefined;
      const key = action.arg === 0 && firstArgKey ? firstArgKey : this.keyOf(value, argNode);
      if (!key) continue;
      if (value.t !== 'key' && (value.t === 'str' || value.t === 'num' || (value.t === 'unknown' && value.origin))) {
        // Reported at each call (docs/ttl-semantics.md): each one is a command Cluster may misroute.
        this.report('key-must-come-from-keys', node, keyMustComeFromKeysMessage(command, key.display, value), keyNames(key));
      }
      if (action.arg >= 0) keyIds[action.arg] = key.id;
      // LMOVE / RPOPLPUSH / SMOVE write the destination only when the source has an element (SMOVE: the member).
      let sourceMayBeMissing = false;
      if (action.onlyWithSource !== undefined) {
        const sourceId = keyIds[action.onlyWithSource];
        // LMOVE k k / RPOPLPUSH k k: the list only rotates, and exists whenever anything moves.
        if (sourceId === key.id) continue;
        const source = sourceId !== undefined ? getKey(stateBefore, sourceId).exists : 'maybe';
        if (source === 'no') continue;
        // SMOVE moves one named member, which a source that exists may not hold
        sourceMayBeMissing = source !== 'yes' || action.onlyWithMember === true;
      }
      // A STORE whose result is empty deletes its destination.
      let effect = action.effect;
      let storeMayBeEmpty = false;
      if (action.storeOf) {
        const sources = description.keys
          .filter((k) => k !== action && k.effect === 'read')
          .map((k) => {
            const v = args[k.arg];
            const id = v ? this.keyOf(v, argNodes[k.arg + 1])?.id : undefined;
            return id !== undefined ? getKey(stateBefore, id).exists : 'maybe';
          });
        const empty =
          action.storeOf === 'union' ? sources.every((e) => e === 'no') : action.storeOf === 'intersection' ? sources.some((e) => e === 'no') : sources[0] === 'no';
        if (empty) effect = 'delete';
        else storeMayBeEmpty = !(action.storeOf === 'union' && sources.some((e) => e === 'yes'));
      }
      const persistent = this.input.isPersistent !== undefined && this.input.isPersistent(keyNames(key), this.input.lineOf(offset));
      const state = getKey(st, key.id);
      firstKey ??= { id: key.id };

      if (description.getDropsTtl && action.arg === 0) {
        if (!persistent) this.report('no-getset', node, noGetsetMessage(command, key.display), keyNames(key));
        setKey(st, key.id, withKey(state, { ttl: undefined, exists: 'yes', withoutTtl: true, version: this.bump() }));
        continue;
      }
      if (action.effect === 'remove-ttl') {
        // PERSIST of a key a TTL read just found without one (`elseif ttl == -1 then PERSIST`), or
        // of a missing key: nothing changes, so nothing is removed
        if (!persistent && !removingTtlChangesNothing(state)) this.report('no-persist', node, noPersistMessage(command, key.display), keyNames(key));
        setKey(st, key.id, withKey(state, { ttl: undefined, withoutTtl: true, version: this.bump() }));
        continue;
      }
      const sourceValue = action.sourceArg !== undefined ? args[action.sourceArg] : undefined;
      const sourceKey = sourceValue ? this.keyOf(sourceValue, undefined) : undefined;
      const sourceState = sourceKey ? getKey(stateBefore, sourceKey.id) : undefined;
      const siteFor = (rule: WriteSite['rule']): number[] => {
        if (persistent) return [];
        site = this.site(node, command, key.display, action.effect, rule);
        siteKey = key.id;
        surelyCreated = state.exists === 'no' && !sourceMayBeMissing;
        return [site];
      };
      // EXPIRE ... NX / XX with a literal timeout <= 0 deletes the key only when it has no TTL / has one.
      let pastMayDelete = false;
      if (action.arg === 0 && description.pastExpiry && description.nonPositiveTtlArg !== undefined) {
        const outcome = pastExpiryOutcome(description.pastExpiry, state);
        effect = outcome === 'delete' ? 'delete' : 'read';
        pastMayDelete = outcome === 'maybe';
      }
      let next = this.effect(state, effect, siteFor, sourceState);
      if (state.exists !== 'yes' && next.exists !== 'no' && CREATING_EFFECTS.has(effect)) this.creations.set(key.id, (this.creations.get(key.id) ?? 0) + 1);
      if (this.noTtlTested && site !== undefined && next.pending.includes(site) && !state.pending.includes(site)) next = noteNoTtl(st, next, site);
      const rotates =
        action.mayDelete === true &&
        description.keys.some((k) => k.onlyWithSource === action.arg && args[k.arg] && this.keyOf(args[k.arg]!, argNodes[k.arg + 1])?.id === key.id);
      const fresh = state.created && state.created.version === state.version ? state.created : undefined;
      if (action.mayDelete && fresh && !rotates && removalEmpties(command, args, fresh)) {
        // Right after the write that may have created it, this removal empties a key that write made.
        const createdBy = fresh.site;
        next = withKey(next, { pending: next.pending.filter((s) => s !== createdBy) });
      }
      if ((sourceMayBeMissing || storeMayBeEmpty) && next.exists === 'yes' && (storeMayBeEmpty || state.exists !== 'yes')) {
        // Nothing moved (an empty source), or the STORE result was empty (the destination deleted).
        const lastDelete = storeMayBeEmpty ? this.bump() : next.lastDelete;
        next = withKey(next, { exists: 'maybe', version: storeMayBeEmpty ? lastDelete : next.version, lastDelete });
      }
      if (action.mayDelete && next.exists !== 'no' && !rotates && !(fresh && removalKeeps(command, args, fresh))) {
        // Removing the last element deletes the key: it may be gone, and may come back without TTL.
        // A key that may exist also gets a new delete version: a size or an existence read before
        // the removal no longer proves that it exists (SCARD = 1, then SPOP empties the set).
        const lastDelete = this.bump();
        next = withKey(next, { exists: 'maybe', version: lastDelete, lastDelete });
      }
      if (
        (pastMayDelete && next.exists !== 'no') ||
        (risk.mayDelete && action.arg === 0 && next.exists !== 'no' && MAY_DELETE_EFFECTS.has(action.effect) && pastExpiryOutcome(description.pastExpiry ?? 'delete', state) !== 'nothing')
      ) {
        // An expiry <= 0 or in the past deletes the key (under XX only one with a TTL, under NX only
        // one without, under GT none): a later write creates it again without TTL.
        const lastDelete = this.bump();
        next = withKey(next, { exists: 'maybe', version: lastDelete, lastDelete });
      }
      if (next.created && next.created === state.created && effect !== 'read' && !(action.mayDelete && fresh && removalRemovesNothing(command, args, fresh))) {
        // Any other write changes what the key holds: its size right after creation is history.
        next = withKey(next, { created: undefined });
      }
      if (site !== undefined && siteKey === key.id && next.exists !== 'no' && state.exists !== 'yes' && CREATION_ONLY.has(effect)) {
        const shape = createdShape(command, args);
        if (shape) next = withKey(next, { created: createdAt(site, shape, next.version) });
      }
      next = this.fieldEffects(next, state, effect, action, args, spreadIndex, site !== undefined && siteKey === key.id ? site : undefined);
      if (action.fields?.ttl === 'remove' && !persistent) this.report('no-persist', node, noPersistMessage(command, key.display), keyNames(key));
      if (next !== state) setKey(st, key.id, next);
      if (action.effect === 'set-ttl-if-has-ttl') this.conditionalExpiries.add(key.id);
      if (description.ttl && TTL_GIVING_EFFECTS.has(action.effect)) this.noteExpiryTtl(key.id, args[description.ttl.arg]);
      if (action.arg === -1) {
        // DEL unpack(KEYS), ...: the command did to every key what it did to the element, at once.
        const table = (args[spreadIndex] as Extract<Value, { t: 'spread' }>).of;
        if (table?.t === 'keys') this.everyKeyAtOnce(st, table.name, action.effect);
      }
    }
    if (description.nonPositiveTtlArg !== undefined) {
      const argNode = argNodes[description.nonPositiveTtlArg + 1];
      this.report('expire-needs-positive-ttl', argNode ?? node, nonPositiveMessage(command, literalArgs[description.nonPositiveTtlArg], description));
    }
    const whenCreated = facts.mayReplyWhenCreated ? replyWhenCreated(command, args) : undefined;
    const replyKey = siteKey ?? firstKey?.id;
    const replyKeyState = replyKey !== undefined ? getKey(st, replyKey) : undefined;
    const reply = newReply(command, replyKeyState?.version ?? 0, pcall);
    reply.pending = replyKeyState?.pending ?? [];
    reply.keyId = replyKey;
    reply.site = site;
    if (site !== undefined && surelyCreated) reply.surelyCreated = true;
    reply.whenCreated = whenCreated;
    if (facts.createsOnTruthy) reply.createsOnTruthy = true;
    if (!pcall && facts.statusReply) reply.status = true;
    if (command === 'MGET') {
      reply.elements = args.map((arg, i) => {
        const key = this.keyOf(arg, argNodes[i + 1]);
        const state = key ? getKey(st, key.id) : undefined;
        return key && state ? { keyId: key.id, version: state.version, pending: state.pending } : { keyId: '', version: -1, pending: [] };
      });
    }
    if (!pcall && facts.movesElement && args[0]) {
      const source = this.keyOf(args[0], argNodes[0 + 1]);
      if (source) {
        reply.sourceKeyId = source.id;
        reply.sourceVersion = getKey(st, source.id).version;
      }
    }
    // A size read right after the write that may have created the key: its size then is known.
    if (site === undefined && replyKeyState?.created && replyKeyState.created.version === replyKeyState.version && facts.sizeRead) {
      reply.sizeWhenCreated = replyKeyState.created.size;
      reply.site = replyKeyState.created.site;
    }
    const luaType = pcall ? undefined : facts.luaType;
    if (luaType) reply.luaType = luaType;
    // EXISTS / PFCOUNT of several keys: the reply counts them all, it says nothing of the first alone
    if (description.keys.length > 1 && MULTI_KEY_COUNTS.has(command)) reply.keyId = undefined;
    if (firstBefore) {
      const fresh = firstBefore.created && firstBefore.created.version === firstBefore.version ? firstBefore.created.size : undefined;
      const range = facts.rangeKnown ? replyRange(command, args, { exists: firstBefore.exists, size: fresh }) : undefined;
      if (range) reply.range = range;
      const conditional = facts.setCondition;
      if (conditional === 'NX') {
        // SET ... NX answers nil when the key exists: it never writes then
        if (firstBefore.exists === 'yes') return this.keepRejected(st, rejected, FALSE);
        if (firstBefore.exists === 'no') reply.status = true;
        else if (description.ttl) {
          // written: the key was missing and now has that TTL; nil: the key was there
          reply.whenTruthy = 'has-ttl';
          reply.whenFalsy = 'exists';
        }
      } else if (conditional === 'XX') {
        // SET ... XX answers nil when the key is missing: it wrote nothing then
        if (firstBefore.exists === 'no') return this.keepRejected(st, rejected, FALSE);
        if (firstBefore.exists === 'yes') reply.status = true;
        else {
          reply.whenTruthy = 'exists';
          reply.whenFalsy = 'missing';
        }
      }
    }
    return this.keepRejected(st, rejected, reply) as Reply;
  }

  /**
   * A JSON write whose path is not a literal ({@link KeyAction.rootPathArg}) cannot create a
   * missing key below the root: read as an update of a key that must exist when its path starts
   * with a literal that is not the root (`'$.results[' .. id .. ']'`), and, outside strict mode,
   * when the path comes from elsewhere (ARGV, a variable): a script that takes its JSON path from
   * its caller updates a member of a document that exists. Strict mode keeps that one a creation.
   */
  private belowJsonRoot(description: CommandDescription, argNodes: readonly L.Expression[]): CommandDescription {
    return jsonWritesBelowRoot(description, (pathArg) => {
      const prefix = literalPrefix(argNodes[pathArg + 1]);
      return prefix !== undefined ? isBelowJsonRoot(prefix) : !this.input.strict;
    });
  }

  /**
   * Every way out of {@link redisCall} after its checks: the path on which redis.pcall's command
   * was rejected (`rejected`, nothing written there), if any, joins `st` again.
   */
  private keepRejected(st: State, rejected: State | undefined, reply: Value): Value {
    if (rejected) adopt(st, join(st, rejected));
    return reply;
  }

  /**
   * Whether RENAMENX / COPY may write nothing on this path: `'always'` when it cannot write
   * (the destination exists for RENAMENX, the source is missing for COPY). `args` are the
   * arguments after the command name, `argNodes` the call's argument nodes (the name first).
   */
  private mayDoNothing(description: CommandDescription, args: readonly Value[], argNodes: readonly L.Expression[], st: State): boolean | 'always' {
    const dest = transferDestination(description);
    if (!dest || dest.sourceArg === undefined) return false;
    const stateOf = (arg: number): KeyState | undefined => {
      const value = args[arg];
      const key = value ? this.keyOf(value, argNodes[arg + 1]) : undefined;
      return key ? getKey(st, key.id) : undefined;
    };
    const source = stateOf(dest.sourceArg);
    const target = stateOf(dest.arg);
    if (!source || !target) return false;
    const copy = description.name === 'COPY';
    if ((copy && source.exists === 'no') || (dest.onlyIfMissing && target.exists === 'yes')) return 'always';
    return (copy && source.exists !== 'yes') || (dest.onlyIfMissing === true && target.exists !== 'no');
  }

  /**
   * What "RENAMENX / COPY did nothing" proves: RENAMENX's destination exists; COPY ... REPLACE's
   * source is missing. `args` and `argNodes` as for {@link mayDoNothing}.
   */
  private nothingDone(description: CommandDescription, args: readonly Value[], argNodes: readonly L.Expression[], st: State): void {
    const dest = transferDestination(description);
    if (!dest || dest.sourceArg === undefined) return;
    const keyAt = (arg: number) => (args[arg] ? this.keyOf(args[arg], argNodes[arg + 1]) : undefined);
    if (description.name !== 'COPY') {
      const target = keyAt(dest.arg);
      if (target) setKey(st, target.id, withKey(getKey(st, target.id), { exists: 'yes' }));
    } else if (!dest.onlyIfMissing) {
      const source = keyAt(dest.sourceArg);
      if (source) setKey(st, source.id, withKey(getKey(st, source.id), { exists: 'no', pending: [] }));
    }
  }

  /** The state of a key after one effect. `site(rule)` registers the write site (or none when persistent). */
  private effect(
    key: KeyState,
    effect: KeyEffect,
    site: (rule: WriteSite['rule']) => number[],
    source: KeyState | undefined,
  ): KeyState {
    const next = this.nextKeyState(key, effect, site, source);
    if (next === key) return key;
    const version = this.bump();
    // A size carried over (RENAME) is the destination's as of now.
    return next.created && next.created !== key.created ? withKey(next, { version, created: createdAt(next.created.site, next.created, version) }) : withKey(next, { version });
  }

  /** What one effect makes of a key's state, before {@link CommandEffects.effect} gives it a new version. */
  private nextKeyState(
    key: KeyState,
    effect: KeyEffect,
    site: (rule: WriteSite['rule']) => number[],
    source: KeyState | undefined,
  ): KeyState {
    const add = (rule: WriteSite['rule']): readonly number[] => union(key.pending, site(rule));
    // a key created here has no TTL; one that may have existed keeps what was known of its TTL
    const withoutTtl = key.exists === 'no' ? true : key.withoutTtl;
    switch (effect) {
      case 'create-in-place':
        // A hash this script created with expiring fields only: a field written without TTL keeps it alive.
        if (key.exists === 'yes' && key.fieldsExpire && !key.ttl) return withKey(key, { pending: add('write-path-needs-ttl') });
        return key.exists === 'yes' ? key : withKey(key, { ttl: undefined, created: undefined, pending: add('write-path-needs-ttl'), exists: 'yes', withoutTtl });
      case 'create-if-missing':
        return key.exists === 'yes' ? key : withKey(key, { ttl: undefined, created: undefined, pending: add('write-path-needs-ttl'), exists: 'yes', withoutTtl });
      case 'create-with-field-ttl': {
        // HSETEX ... EX: a missing key is created without key TTL, but every field it holds expires.
        if (key.exists === 'yes') return key;
        return withKey(key, { ttl: undefined, created: undefined, exists: 'yes', fieldsExpire: true, withoutTtl });
      }
      case 'keep-ttl':
        return key.exists === 'yes' ? key : withKey(key, { ttl: undefined, created: undefined, pending: add('keepttl-needs-existing-key'), exists: 'yes', withoutTtl });
      case 'overwrite':
        // A key that existed without TTL before the script (TTL answered -1) is neither created nor stripped of a TTL.
        if (key.exists === 'yes' && key.withoutTtl && key.pending.length === 0) return withKey(key, { created: undefined });
        return withKey(key, { ttl: undefined, created: undefined, pending: add('write-path-needs-ttl'), exists: 'yes', withoutTtl: true });
      case 'clear-ttl-if-present':
        if (key.exists === 'no' || (key.withoutTtl && key.pending.length === 0)) return key;
        return withKey(key, { ttl: undefined, created: undefined, pending: add('write-path-needs-ttl'), withoutTtl: true });
      case 'transfer-ttl': {
        const lastDelete = this.bump();
        const created = source?.created && source.created.version === source.version ? createdAt(source.created.site, source.created, lastDelete) : undefined;
        const moved = newKeyState(source?.pending ?? [], source?.exists ?? 'maybe', lastDelete, lastDelete);
        if (source?.ttl) moved.ttl = true;
        if (source?.withoutTtl) moved.withoutTtl = true;
        if (created) moved.created = created;
        return moved;
      }
      case 'create-with-ttl':
        return withKey(key, { ttl: true, created: undefined, pending: [], exists: 'yes', withoutTtl: undefined });
      case 'create-if-missing-with-ttl':
        return key.exists === 'yes' ? key : withKey(key, { created: undefined, exists: 'yes', ttl: key.exists === 'no' || key.ttl ? true : undefined, withoutTtl: undefined });
      case 'set-ttl':
        return key.pending.length === 0 && key.ttl ? key : withKey(key, { ttl: true, created: undefined, pending: [], withoutTtl: undefined });
      case 'delete': {
        const lastDelete = this.bump();
        return newKeyState([], 'no', lastDelete, lastDelete);
      }
      case 'set-ttl-if-has-ttl':
      case 'modify-if-present':
      case 'remove-ttl':
      case 'read':
        return key;
    }
  }

  /**
   * Hash-field expiration (docs/ttl-semantics.md): remembers which fields a hash write left without
   * TTL, takes a write site out of `pending` once every field it wrote got a field TTL (or was
   * deleted), and keeps `fieldSites` / `fieldsExpire` true to the key after any other effect.
   */
  private fieldEffects(
    next: KeyState,
    before: KeyState,
    effect: KeyEffect,
    action: KeyAction,
    args: readonly Value[],
    spreadIndex: number,
    site: number | undefined,
  ): KeyState {
    let out = next;
    if (!FIELD_STATE_KEPT.has(effect) && (out.fieldsExpire || out.fieldSites)) out = withKey(out, { fieldsExpire: undefined, fieldSites: undefined });
    const fields = action.fields;
    if (fields) {
      const ids =
        fields.args === 'unknown' || (spreadIndex >= 0 && fields.args.some((i) => i >= spreadIndex)) ? null : fields.args.map((i) => fieldIdOf(args[i]));
      const known = ids !== null && ids.every((id): id is string => id !== null) ? ids : null;
      if ((fields.ttl === 'clear' || fields.ttl === 'keep') && site !== undefined && out.pending.includes(site) && !before.pending.includes(site)) {
        out = withKey(out, { fieldSites: [...(out.fieldSites ?? []).filter((f) => f.site !== site), { site, fields: known }] });
      } else if ((fields.ttl === 'clear' || fields.ttl === 'keep') && out.fieldSites && out.fieldSites.length > 0) {
        // a field written into a hash this script created: it keeps that hash alive as much as
        // the fields of the creating write do, so covering those alone is not enough
        out = withKey(out, {
          fieldSites: out.fieldSites.map((f) => ({ site: f.site, fields: f.fields === null || known === null ? null : [...new Set([...f.fields, ...known])] })),
        });
      } else if ((fields.ttl === 'set' || fields.ttl === 'delete') && !fields.allOrNone && known && out.fieldSites) {
        const covered = new Set(known);
        const remaining: Array<{ site: number; fields: readonly string[] | null }> = [];
        const done: number[] = [];
        for (const entry of out.fieldSites) {
          const left = entry.fields === null ? null : entry.fields.filter((f) => !covered.has(f));
          if (left !== null && left.length === 0) done.push(entry.site);
          else remaining.push({ site: entry.site, fields: left });
        }
        if (done.length > 0) {
          out = withKey(out, {
            pending: out.pending.filter((p) => !done.includes(p)),
            fieldSites: remaining.length > 0 ? remaining : undefined,
            fieldsExpire: out.ttl ? out.fieldsExpire : true,
          });
        }
      }
    }
    if (out.fieldSites && out.fieldSites.some((f) => !out.pending.includes(f.site))) {
      const kept = out.fieldSites.filter((f) => out.pending.includes(f.site));
      out = withKey(out, { fieldSites: kept.length > 0 ? kept : undefined });
    }
    return out;
  }

  /** A command over `unpack(KEYS)` that deleted or expired every key. */
  private everyKeyAtOnce(st: State, table: string, effect: KeyEffect): void {
    if (effect !== 'delete' && effect !== 'set-ttl' && effect !== 'create-with-ttl') return;
    const prefix = `${table}[`;
    const update = (key: KeyState): KeyState => {
      if (effect === 'delete') {
        const lastDelete = this.bump();
        return newKeyState([], 'no', lastDelete, lastDelete);
      }
      return withKey(key, { pending: [], ttl: true, withoutTtl: undefined, version: this.bump() });
    };
    for (const [id, key] of [...st.keys]) if (id.startsWith(prefix) && !id.endsWith('[*]')) setKey(st, id, update(key));
    setKey(st, universalId(table), withKey(update(getKey(st, universalId(table))), { pending: [] }));
  }
}

/**
 * What an expiry <= 0 (or already past) does to a key in `state`, by the command's condition
 * (`CommandDescription.pastExpiry`): deletes it, leaves it, or either (its TTL is not known).
 */
function pastExpiryOutcome(pastExpiry: NonNullable<CommandDescription['pastExpiry']>, state: KeyState): 'delete' | 'nothing' | 'maybe' {
  switch (pastExpiry) {
    case 'delete':
      return 'delete';
    case 'nothing':
      return 'nothing';
    case 'delete-if-ttl':
      return state.ttl ? 'delete' : state.withoutTtl ? 'nothing' : 'maybe';
    case 'delete-if-no-ttl':
      return state.withoutTtl ? 'delete' : state.ttl ? 'nothing' : 'maybe';
  }
}

/** One node of {@link DESCRIPTIONS}: the description of the arguments so far, and the next argument's nodes. */
interface DescriptionNode {
  described: Described | undefined;
  next: Map<CommandArg, DescriptionNode> | undefined;
}

/**
 * A command's description and what the walk reads of the command besides it, all from the same
 * input (the name and the literal arguments), so computed once with it (see {@link describe}).
 */
interface Described {
  description: CommandDescription;
  /** A key action reads the keys as they were before the command (RENAME's source, LMOVE's). */
  readsBefore: boolean;
  /** The reply is falsy when the command wrote nothing (SET ... NX without GET, LMOVE / RPOPLPUSH). */
  createsOnTruthy: boolean;
  /** Outside redis.pcall the reply is a status or a table: always truthy (`alwaysStatusReply`). */
  statusReply: boolean;
  /** The reply's Lua type outside redis.pcall (`replyLuaType`). */
  luaType: 'number' | undefined;
  /** LMOVE / RPOPLPUSH: the reply is the element moved. */
  movesElement: boolean;
  /** A read of the key's size (`SIZE_READS`). */
  sizeRead: boolean;
  /** `replyWhenCreated` may know the reply (`mayReplyWhenCreated`). */
  mayReplyWhenCreated: boolean;
  /** SET ... NX / SET ... XX without GET, with readable options: the reply says whether it wrote. */
  setCondition: 'NX' | 'XX' | undefined;
  /** `replyRange` may know the reply's range (`mayKnowReplyRange`). */
  rangeKnown: boolean;
}

function described(name: string, args: readonly CommandArg[]): Described {
  const description = describeCommand(name, args);
  const command = description.name;
  const movesElement = MOVES_REPLYING_THE_ELEMENT.has(command);
  return {
    description,
    readsBefore: description.keys.some((a) => a.sourceArg !== undefined || a.onlyWithSource !== undefined),
    createsOnTruthy:
      (command === 'SET' && description.keys[0]?.effect.startsWith('create-if-missing') === true && !args.some((a) => typeof a === 'string' && a.toUpperCase() === 'GET')) ||
      movesElement,
    statusReply: alwaysStatusReply(command, args),
    luaType: replyLuaType(command),
    movesElement,
    sizeRead: SIZE_READS.has(command),
    mayReplyWhenCreated: mayReplyWhenCreated(command),
    setCondition: command === 'SET' && !description.unknownOptions && !description.rejected ? setCondition(args) : undefined,
    rangeKnown: mayKnowReplyRange(command),
  };
}

/** Descriptions by command name, then by each literal argument in turn (see {@link describe}). */
const DESCRIPTIONS = new Map<string, DescriptionNode>();
let describedCount = 0;

/**
 * {@link describeCommand} and the rest of {@link Described}, remembered by their input: scripts spell the same few commands with the
 * same literal options over and over. The table's answer depends on nothing else, and the walk never
 * changes it. The input is looked up one argument at a time (a Map per argument position: strings,
 * numbers and `undefined` stay apart), with no key string to build.
 */
function describe(name: string, args: readonly CommandArg[]): Described {
  let node: DescriptionNode | undefined = DESCRIPTIONS.get(name);
  if (!node) {
    if (describedCount > 10_000) {
      DESCRIPTIONS.clear();
      describedCount = 0;
    }
    DESCRIPTIONS.set(name, (node = { described: undefined, next: undefined }));
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    let child: DescriptionNode | undefined = node.next?.get(arg);
    if (!child) {
      child = { described: undefined, next: undefined };
      (node.next ??= new Map()).set(arg, child);
    }
    node = child;
  }
  if (node.described === undefined) {
    describedCount++;
    node.described = described(name, args);
  }
  return node.described;
}

/** Effects after which a key's hash-field state (`fieldSites`, `fieldsExpire`) still holds. */
const FIELD_STATE_KEPT: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-in-place',
  'create-with-field-ttl',
  'create-if-missing',
  'modify-if-present',
  'read',
  'set-ttl-if-has-ttl',
  'remove-ttl',
]);

/** The identity of a hash field argument: its literal, or the ARGV element it is; `null` when unknown. */
function fieldIdOf(value: Value | undefined): string | null {
  if (!value) return null;
  if ((value.t === 'str' || value.t === 'num') && value.v !== undefined) return `'${String(value.v)}'`;
  if ((value.t === 'str' || value.t === 'num') && typeof value.argv === 'number') return `ARGV[${value.argv}]`;
  return null;
}

/** The destination of RENAME / RENAMENX / COPY (the action that takes the source's TTL), if any. */
function transferDestination(description: CommandDescription): KeyAction | undefined {
  for (const action of description.keys) if (action.effect === 'transfer-ttl') return action;
  return undefined;
}

/** SET's condition token when it has no GET: NX or XX (https://redis.io/docs/latest/commands/set/). */
function setCondition(args: readonly CommandArg[]): 'NX' | 'XX' | undefined {
  let condition: 'NX' | 'XX' | undefined;
  for (let i = 2; i < args.length; i++) {
    const token = typeof args[i] === 'string' ? (args[i] as string).toUpperCase() : undefined;
    if (token === 'GET') return undefined;
    if (token === 'NX' || token === 'XX') condition = token;
  }
  return condition;
}

/** Commands whose integer reply counts over all their keys. */
const MULTI_KEY_COUNTS: ReadonlySet<string> = new Set(['EXISTS', 'PFCOUNT', 'TOUCH']);

/** A nil reply, as redis.call gives it to Lua. */
const FALSE: Value = { t: 'bool', v: false };

/** Commands whose arguments are key value pairs: unpack(t) gives keys at the even positions. */
const PAIRS_COMMANDS: ReadonlySet<string> = new Set(['MSET', 'MSETNX']);
/** Commands whose arguments are key path value (or key timestamp value) triples: unpack(t) gives a key every third item. */
const TRIPLES_COMMANDS: ReadonlySet<string> = new Set(['JSON.MSET', 'TS.MADD']);

/** Effects that give the key a TTL (EXPIRE XX / GT, which may not, left out). */
const TTL_GIVING_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['set-ttl', 'create-with-ttl', 'create-if-missing-with-ttl']);

/** Effects after which a TTL <= 0 or in the past leaves no key (the expiry deletes it). */
const MAY_DELETE_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['set-ttl', 'set-ttl-if-has-ttl', 'create-with-ttl', 'create-if-missing-with-ttl']);

/** The literal text a string concatenation starts with (`'$.a[' .. id .. ']'`: `'$.a['`), if any. */
function literalPrefix(node: L.Expression | undefined): string | undefined {
  let start = node;
  while (start?.type === 'BinaryExpression' && start.operator === '..') start = start.left;
  return start !== node && start?.type === 'StringLiteral' && typeof start.value === 'string' ? start.value : undefined;
}
