/**
 * `incr-needs-expire-on-create`: a command that creates its key without TTL when the key is
 * missing (INCR, HINCRBY, SADD, LPUSH, ZADD, XADD, ... and the STORE commands: the table's
 * `create-in-place` / `overwrite` effects) must be followed, in the same atomic unit and on the
 * same key, by an expiry. Atomic units are a `multi()` chain or array, a variable holding one, or
 * (when `allowPipeline` is on) a `pipeline()`. Two awaits, `Promise.all` or an expiry guarded by
 * `n === 1` are separate round trips: a crash between them leaves the key without TTL.
 * An INCR / INCRBY whose expiry follows in the next statement (alone or behind `if (n === 1)`)
 * becomes the runtime's `incrementWithTtl(client, key, { by, ttlMs })`: a fix with `fix: true` or
 * `settings['redis-ttl'].autofix`, a suggestion otherwise; everything else gets suggestions only.
 * An expiry sent *before* the write that creates the key is a no-op on a missing key and gets its
 * own message, and so does an expiry queued with the write only on a branch decided by a reply
 * read in an earlier round trip (`if (!current) pipeline.expire(key, ...)` after `current = await
 * redis.get(key)`: `redis-calls/stale-read.ts`), since the key can expire in between; so does the
 * mirror, a write with no expiry in its unit on the branch where such a read saw the key (`if (!cur)
 * return; await redis.decr(key)`, `staleExists`), when the file gives the key a TTL. A write whose
 * key the same function re-arms whenever its TTL is missing (`if (ttl < 0) expire(key, ...)`:
 * `redis-calls/ttl-repair.ts`) is left alone with `allowTtlRepair` (on in `recommended`); in
 * `strict` it gets its own message (a key never hit again keeps no TTL). A bounded key (a constant,
 * or one of a few: `redis-calls/bounded.ts`) whose expiry follows in a later round trip that runs
 * after every write (`redis-calls/rearmed.ts`) is left alone with `allowRearmedBoundedKeys` (on in
 * `recommended`): a crash in between leaves that one key without TTL until its next write re-arms
 * it; `strict` reports it as `separateRoundTrip`. A write of a key the same function has just created on every path
 * (or warmed up behind a read that saw it missing, for a key the file never expires) creates
 * nothing and is left alone: `redis-calls/created-before.ts`; so is a decrement whose reply says it
 * created the key (DECR's -1) when the next statement deletes the key on that reply
 * (`if (n <= 0) await redis.del(key)`: `redis-calls/deleted-when-created.ts`). A field update of a
 * record (HSET, HINCRBY, SADD ... of a key family) whose creation the file holds and reports is
 * the creation's finding, not its own: one finding per family, at the creation; so is one whose
 * creation another module holds, when that module then calls the file's creation
 * (`redis-calls/record-creation.ts`). Persistent keys, constant keys the file never expires and the no-TTL arm of an
 * explicit TTL test follow the shared policy of `redis-calls/policy.ts`.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_SET_TTL, type KeyEffect } from '../semantics/commands.js';
import { EFFECTS_THAT_CREATE_WITH_TTL_IN_TRANSACTION, createsWithTtlBefore } from '../semantics/transactions.js';
import { GETSET_RULE_COMMANDS, SET_RULE_COMMANDS } from '../redis-calls/ownership.js';
import { createRule } from './create-rule.js';
import { appendExpiryInBatch, pipelineToMulti, standaloneStatementOf, ttlConstantOf, wrapInMulti } from '../redis-calls/fixes.js';
import type { RedisCall } from '../redis-calls/index.js';
import { reportLoc } from '../redis-calls/report.js';
import { fixesEnabled, FIX_OPTION_SCHEMA, incrementWithTtlFix, readAutofixSettings } from '../redis-calls/autofix.js';
import { expiryInLaterRoundTrip, fileIndexOf, followsOnItsPath, keyIdOf, optionalExpiry } from '../redis-calls/file-index.js';
import { exemption, keyCallsOf, KEY_POLICY_SCHEMA } from '../redis-calls/policy.js';
import type { IncrNeedsExpireOnCreateOptions } from './options.js';
import { keyData, KEY_TAIL } from '../redis-calls/report.js';
import { isBlockingCall } from '../semantics/blocking.js';
import { enclosingFunction, type AnyContext } from '../redis-calls/static.js';
import { findingsInModule } from '../redis-calls/foreign-findings.js';
import { existsGuard, staleGuard } from '../redis-calls/stale-read.js';
import { queuedWithWrite } from '../redis-calls/queued-with.js';
import { ttlRepairOf } from '../redis-calls/ttl-repair.js';
import { everyWriteRearms, expiryRunsAfterEveryWrite } from '../redis-calls/rearmed.js';
import { keyShapeOf } from '../redis-calls/key-shape.js';
import { fieldUpdateCreation, recordCreatedInAnotherModule } from '../redis-calls/record-creation.js';
import {
  CONSUMED_ELSEWHERE_TEXT,
  KEPT_STREAM_TEXT,
  CONSUMED_QUEUES_SCHEMA,
  createdWithTtlElsewhere,
  DELETED_ELSEWHERE_TEXT,
  DELETED_KEYS_SCHEMA,
  deletedElsewhere,
  deletedElsewhereData,
  createdWithTtlData,
  drainedElsewhere,
  keptStream,
  idSequence,
  ID_SEQUENCES_SCHEMA,
  TTL_RECORD_UPDATES_SCHEMA,
  UPDATES_TTL_RECORD_TEXT,
} from '../redis-calls/lifecycle.js';
import { expiredThroughCollection } from '../redis-calls/collected-keys.js';
import { expiredByEveryCaller } from '../redis-calls/caller-expiry.js';
import { expiryQueuedByHelper } from '../redis-calls/helper-expiry.js';
import { memberRemovedElsewhere } from '../redis-calls/member-registry.js';
import { untrimmedStreamAppend } from '../redis-calls/untrimmed-stream.js';
import { reservationCompensated } from '../redis-calls/reserved-counter.js';
import { clampedRefund } from '../redis-calls/clamped-refund.js';
import { createdBefore } from '../redis-calls/created-before.js';
import { foundByEveryCaller } from '../redis-calls/found-record.js';
import { deletedWhenCreated } from '../redis-calls/deleted-when-created.js';
import { hasStaticPart } from '../redis-calls/key-id.js';

/** Options of the rule (the options object's type is exported from the package root). */
export type Options = [IncrNeedsExpireOnCreateOptions];
/** Messages of the rule and of its suggestions. */
export type MessageIds =
  | 'noExpiry'
  | 'separateRoundTrip'
  | 'pipelineNotAtomic'
  | 'expiryBeforeCreate'
  | 'staleGuard'
  | 'staleExists'
  | 'repairedOnNextHit'
  | 'deletedElsewhere'
  | 'consumedElsewhere'
  | 'keptStream'
  | 'untrimmedStream'
  | 'updatesTtlRecord'
  | 'idSequence'
  | 'wrapInMulti'
  | 'useIncrementWithTtl'
  | 'appendExpire'
  | 'useMulti';

/**
 * Effects that create a key without TTL (`create-if-missing` outside the SET family, which is
 * set-requires-ttl-or-keepttl's: JSON.SET ... NX at the root).
 */
const CREATES: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['create-in-place', 'overwrite', 'create-if-missing']);

interface KeyUse {
  call: RedisCall;
  /** Identity of the key expression: its literal value or its source text. */
  key: string;
  /** The key's argument node (for suggestion text). */
  keyNode: TSESTree.Node;
  /** Position in the unit (commands of a chain run in source order). */
  order: number;
  /** What the command does to the key (for expiries: set-ttl, create-with-ttl, delete). */
  effect: KeyEffect;
}

const rule = createRule<Options, MessageIds>({
  name: 'incr-needs-expire-on-create',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require a command that creates a key without TTL (INCR, HSET, SADD, ...) to be followed by an expiry of the same key in the same MULTI, pipeline or script.',
      recommended: true,
      strict: true,
    },
    fixable: 'code',
    hasSuggestions: true,
    schema: [
      {
        type: 'object',
        description: 'Options of incr-needs-expire-on-create.',
        properties: {
          allowPipeline: {
            type: 'boolean',
            description:
              'Whether a pipeline() counts as one unit. Pipelines are not atomic (a failure can stop between the commands), so the strict config turns this off.',
          },
          allowRearmedBoundedKeys: {
            type: 'boolean',
            description:
              'Do not report a write of a bounded key (a constant, or one of a few keys) whose expiry follows as a separate round trip that runs after every write (not only on creation): a crash in between leaves at most that key without TTL until the next write re-arms it. Default true; false in the strict config.',
          },
          allowTtlRepair: {
            type: 'boolean',
            description:
              'Do not report a write whose key the same function re-arms whenever its TTL is missing (an EXPIRE of the key on a branch where its TTL / PTTL reply is -1: if ((await redis.ttl(key)) < 0) ...): a lost expiry is healed on the next call. Default true; false in the strict config.',
          },
          fix: FIX_OPTION_SCHEMA,
          ...DELETED_KEYS_SCHEMA,
          ...ID_SEQUENCES_SCHEMA,
          ...CONSUMED_QUEUES_SCHEMA,
          ...TTL_RECORD_UPDATES_SCHEMA,
          ...KEY_POLICY_SCHEMA,
        },
        additionalProperties: false,
      },
    ],
    messages: {
      noExpiry: `{{command}} creates \`{{key}}\` without TTL when it is missing, and no expiry of that key follows in the same atomic unit, so it can live forever. Queue EXPIRE after it in one MULTI, or use a Lua script.${KEY_TAIL}`,
      separateRoundTrip: `{{command}} of \`{{key}}\` creates it without TTL and its expiry follows as a separate round trip (line {{line}}): a crash or lost connection between them (or a guard such as \`n === 1\` that misses) leaves the key without TTL forever. Send both in one MULTI or Lua script.${KEY_TAIL}`,
      pipelineNotAtomic: `{{command}} and the expiry of \`{{key}}\` share a pipeline, which is not atomic: if the connection drops between them the key keeps no TTL. Use multi() so both run or neither does.${KEY_TAIL}`,
      expiryBeforeCreate: `The expiry of \`{{key}}\` is sent before the {{command}} that creates it: EXPIRE does nothing on a missing key, so the key is then created without TTL. Expire after the write, in one MULTI or Lua script.${KEY_TAIL}`,
      repairedOnNextHit: `{{command}} creates \`{{key}}\` without TTL, and the EXPIRE at line {{line}} re-arms it when its TTL is missing only on a later call: a key never hit again keeps no TTL. Send the write and its expiry in one MULTI or Lua script.${KEY_TAIL}`,
      deletedElsewhere: `{{command}} creates \`{{key}}\` without TTL, and it ${DELETED_ELSEWHERE_TEXT}.${KEY_TAIL}`,
      consumedElsewhere: `{{command}} creates \`{{key}}\` without TTL, and it ${CONSUMED_ELSEWHERE_TEXT}.${KEY_TAIL}`,
      untrimmedStream: `{{command}} appends to the stream \`{{key}}\` without MAXLEN or MINID, and nothing trims that stream (no XTRIM, no XADD ... MAXLEN / MINID of it): it grows by one entry per call for ever. Cap it in the XADD (MAXLEN ~ 10000, or MINID), or XTRIM it where it is consumed.${KEY_TAIL}`,
      keptStream: `{{command}} creates \`{{key}}\` without TTL, and it ${KEPT_STREAM_TEXT}.${KEY_TAIL}`,
      updatesTtlRecord: `{{command}} of \`{{key}}\` ${UPDATES_TTL_RECORD_TEXT}.${KEY_TAIL}`,
      idSequence: `{{command}} of \`{{key}}\` creates it without TTL, and {{why}}: an ID sequence must not expire (ids would be reissued). If it is one, declare it persistent; if it is a counter, expire it in the same MULTI.${KEY_TAIL}`,
      staleGuard: `The expiry of \`{{key}}\` is queued only when the {{read}} at line {{line}}, an earlier round trip, saw no key: if it expires in between, {{command}} recreates it without TTL. Expire every time (EXPIRE ... NX) or use a Lua script.${KEY_TAIL}`,
      staleExists: `{{command}} of \`{{key}}\` runs only when the {{read}} at line {{line}}, an earlier round trip, saw the key: if it expires in between, {{command}} recreates it without TTL, for good. Expire it in the same MULTI (EXPIRE ... NX) or use a Lua script.${KEY_TAIL}`,
      useIncrementWithTtl:
        'Replace both with incrementWithTtl() from {{module}}: the increment and its TTL in one script.',
      wrapInMulti: 'Send {{command}} and {{expire}} in one MULTI (the result becomes the MULTI reply){{declare}}.',
      appendExpire: 'Queue {{expire}} right after it in the same unit{{declare}}.',
      useMulti: 'Use multi() instead of pipeline().',
    },
  },
  defaultOptions: [{ allowPipeline: true }],
  create(context, [options]) {
    const allowPipeline = options.allowPipeline !== false;
    const allowTtlRepair = options.allowTtlRepair !== false;
    const allowRearmedBoundedKeys = options.allowRearmedBoundedKeys !== false;
    const allowDeletedKeys = options.allowDeletedKeys !== false;
    const allowIdSequences = options.allowIdSequences !== false;
    const allowConsumedQueues = options.allowConsumedQueues !== false;
    const allowTtlRecordUpdates = options.allowTtlRecordUpdates !== false;
    const autofix = fixesEnabled(context, options.fix);
    const sourceCode = context.sourceCode;
    const creations: KeyUse[] = [];
    const expiries: KeyUse[] = [];
    /** Hash-field expiries (HEXPIRE, HPEXPIRE, HSETEX / HGETEX with an expiry) and the fields they name. */
    const fieldExpiries: Array<KeyUse & { fields: Set<string> }> = [];
    /** The fields a hash write names, by their source text; `undefined` when one is spread. */
    const fieldTexts = (call: RedisCall, args: readonly number[] | 'unknown'): Set<string> | undefined => {
      if (args === 'unknown') return undefined;
      const texts = new Set<string>();
      for (const index of args) {
        const node = call.argNodes[index];
        if (!node || node.type === 'SpreadElement') return undefined;
        texts.add(call.args[index] !== undefined ? `value:${String(call.args[index])}` : `text:${sourceCode.getText(node).replace(/\s+/g, '')}`);
      }
      return texts;
    };

    /**
     * The earlier read that saw the key a creation writes only when it exists, when the file gives
     * that key a TTL somewhere (a key of its shape when the shape spells a family, else the same key
     * expression of the same shape): without one the key has no expiry to race.
     */
    function existsGuardOf(creation: KeyUse): RedisCall | undefined {
      const keyArg = creation.call.argNodes.indexOf(creation.keyNode);
      return keyExpiredInFile(creation) ? existsGuard(context, creation.call, keyArg) : undefined;
    }

    /** Whether the file gives the creation's key a TTL somewhere (see {@link existsGuardOf}). */
    function keyExpiredInFile(creation: KeyUse): boolean {
      const shape = keyShapeOf(context, creation.keyNode).shape;
      const family = hasStaticPart(shape);
      return expiries.some((e) => e.effect !== 'delete' && (family || e.key === creation.key) && keyShapeOf(context, e.keyNode).shape === shape);
    }

    function keyIdentity(call: RedisCall, arg: number): { key: string; keyNode: TSESTree.Node } | undefined {
      const key = keyIdOf(context, call, arg);
      const keyNode = call.argNodes[arg];
      return key && keyNode ? { key, keyNode } : undefined;
    }

    function describeExpiry(use: KeyUse | undefined, fallbackKeyText: string) {
      // Reuse only an EXPIRE-family call, with every argument after its key (NX, GT, ... included):
      // a SET ... EX or SETEX elsewhere also writes a value and must never be moved into the unit.
      if (use && use.effect === 'set-ttl' && use.call.form === 'method' && use.call.argNodes.length >= 2) {
        const rest = use.call.argNodes.slice(1).map((arg) => sourceCode.getText(arg)).join(', ');
        const method = sourceCode.getText(use.call.nameNode);
        return {
          method,
          ttlText: rest,
          milliseconds: use.call.description.ttl?.unit === 'milliseconds',
          label: `${method}(${fallbackKeyText}, ${rest})`,
          declare: '',
        };
      }
      const ttl = ttlConstantOf(context);
      const method = ttl.milliseconds ? 'pexpire' : 'expire';
      // the file has no TTL constant: the suggestion names one the user must declare
      const declare = ttl.placeholder ? `; declare ${ttl.name} with the TTL this key needs` : '';
      return { ttlText: ttl.name, milliseconds: ttl.milliseconds, label: `${method}(${fallbackKeyText}, ${ttl.name})`, declare };
    }

    return {
      CallExpression(node: TSESTree.CallExpression) {
        for (const call of keyCallsOf(context, node, options)) {
          for (const action of call.description.keys) {
            const creates = CREATES.has(action.effect) && !SET_RULE_COMMANDS.has(call.command) && !GETSET_RULE_COMMANDS.has(call.command);
            // a SET ... NX EX counts only when queued before the write in the same MULTI (Program:exit)
            const expires =
              EFFECTS_THAT_SET_TTL.has(action.effect) || action.effect === 'delete' || EFFECTS_THAT_CREATE_WITH_TTL_IN_TRANSACTION.has(action.effect);
            if (action.fields && (action.fields.ttl === 'set' || action.fields.ttl === 'delete') && !action.fields.allOrNone) {
              const identity = keyIdentity(call, action.arg);
              const fields = fieldTexts(call, action.fields.args);
              if (identity && fields) fieldExpiries.push({ call, ...identity, order: call.nameNode.range[0], effect: action.effect, fields });
            }
            if (!creates && !expires) continue;
            // TTL tokens the command has no syntax for (hset(k, f, v, 'EX', 60)) are valid-ttl-args'
            if (creates && call.dropped?.some((d) => d.ttl)) continue;
            const identity = keyIdentity(call, action.arg);
            if (!identity) continue;
            const use: KeyUse = { call, ...identity, order: call.nameNode.range[0], effect: action.effect };
            (creates ? creations : expiries).push(use);
          }
        }
      },
      'Program:exit'() {
        // the expiries of each unit, in order: a creation looks at its own unit's only
        const byUnit = <T extends { call: RedisCall }>(list: readonly T[]) => {
          const map = new Map<unknown, T[]>();
          for (const e of list) {
            const same = map.get(e.call.unit.key);
            if (same) same.push(e);
            else map.set(e.call.unit.key, [e]);
          }
          return map;
        };
        const expiriesByUnit = byUnit(expiries);
        const fieldExpiriesByUnit = byUnit(fieldExpiries);
        // the findings, held until every creation is judged: a field update whose record's creation
        // is itself reported is dropped (redis-calls/record-creation.ts)
        type ReportDescriptor = Parameters<typeof context.report>[0];
        const pending = new Map<KeyUse, ReportDescriptor>();
        const report = (creation: KeyUse, descriptor: ReportDescriptor) => pending.set(creation, descriptor);
        for (const creation of creations) {
          const { call } = creation;
          const unit = call.unit;
          // In one unit, an expiry after the write covers it (not SET ... NX EX: the key exists),
          // and so does a write before it that leaves the key with a TTL (semantics/transactions.ts)
          // the later expiries of the key: the arms of a branch may each queue one (queued-with.ts)
          const sameKey = (expiriesByUnit.get(unit.key) ?? []).filter((e) => e.key === creation.key && e.order > creation.order && EFFECTS_THAT_SET_TTL.has(e.effect)).map((e) => e.call);
          const candidatesIn = expiriesByUnit.get(unit.key) ?? [];
          // expired by a later loop over the keys collected with it (redis-calls/collected-keys.ts),
          // whose variable may be spelled as the write's key (`for (const cacheKey of touched)`)
          const throughCollection = new Map<(typeof candidatesIn)[number], boolean>();
          const collected = (e: (typeof candidatesIn)[number]): boolean => {
            let found = throughCollection.get(e);
            if (found === undefined) {
              found = e.order > creation.order && e.effect === 'set-ttl' && expiredThroughCollection(context, call, creation.keyNode, e.call, e.call.argNodes.indexOf(e.keyNode));
              throughCollection.set(e, found);
            }
            return found;
          };
          const candidates = candidatesIn.filter(
            (e) =>
              (e.key === creation.key || collected(e)) &&
              (e.order > creation.order
                ? e.effect !== 'create-if-missing-with-ttl'
                : e.order < creation.order
                  ? createsWithTtlBefore(e.effect, unit.kind)
                  : e.effect === 'create-with-ttl'),
          );
          // an expiry queued only when an earlier, separate read found no key is no atomic expiry
          const keyArg = call.argNodes.indexOf(creation.keyNode);
          const staleReads = candidates.map((e) => staleGuard(context, e.call, call, keyArg));
          // a later expiry of the key must also be queued whenever the write is (redis-calls/queued-with.ts),
          // or only when its TTL is given (`if (ttl) m.expire(k, ttl)`: no TTL given, kept on purpose)
          const everyTime = (e: (typeof candidates)[number]): boolean =>
            e.key !== creation.key ||
            e.order <= creation.order ||
            queuedWithWrite(context, call, e.call, keyArg, sameKey) ||
            optionalExpiry(context, e.call, e.call.argNodes.indexOf(e.keyNode)) ||
            collected(e);
          const inUnit = candidates.find((e, i) => !staleReads[i] && everyTime(e));
          const stale = inUnit ? undefined : staleReads.find((read) => read !== undefined);
          const atomic = unit.kind === 'multi' || (unit.kind === 'pipeline' && allowPipeline);
          if (inUnit && atomic) continue;
          // an EXPIRE a helper queues in the same unit, handed the unit and the key (redis-calls/helper-expiry.ts)
          const byHelper = !inUnit && !stale && expiryQueuedByHelper(context, call, keyArg) !== undefined;
          if (byHelper && atomic) continue;
          // a helper's write on the pipeline it is given, expired there by every caller (redis-calls/caller-expiry.ts)
          if (!inUnit && allowPipeline && expiredByEveryCaller(context, call, creation.keyNode)) continue;
          // HSET then HEXPIRE of every field it wrote, in one unit: the hash empties itself
          // (docs/ttl-semantics.md, "Hash-field expiration")
          const written = creation.call.description.keys.find((k) => k.fields)?.fields;
          const writtenFields = written && (written.ttl === 'clear' || written.ttl === 'keep') ? fieldTexts(call, written.args) : undefined;
          const fieldsCovered =
            writtenFields !== undefined &&
            (fieldExpiriesByUnit.get(unit.key) ?? []).some(
              (e) =>
                e.key === creation.key &&
                // after the write; or, in a MULTI, an HSETEX ... EX that created the fields an
                // HINCRBY then increments (it keeps their TTL: semantics/transactions.ts)
                (e.order > creation.order || (unit.kind === 'multi' && written?.ttl === 'keep' && e.effect === 'create-with-field-ttl')) &&
                [...writtenFields].every((f) => e.fields.has(f)),
            );
          if (fieldsCovered && atomic) continue;
          if (exemption(context, call, creation.keyNode, options)) continue;
          // a decrement of a counter the same function reserved moments before (redis-calls/reserved-counter.ts)
          if (!inUnit && reservationCompensated(context, call, keyArg, () => keyExpiredInFile(creation))) continue;
          // a refund kept at zero or above, of a counter the file charges with a TTL (redis-calls/clamped-refund.ts)
          if (!inUnit && clampedRefund(context, call)) continue;
          // a write of a key the same function created moments before on every path (redis-calls/created-before.ts)
          if (!inUnit && createdBefore(context, call, keyArg, () => keyExpiredInFile(creation))) continue;
          // an update of a record every caller hands in after reading and finding it (redis-calls/found-record.ts)
          if (!inUnit && foundByEveryCaller(context, call, keyArg, () => keyExpiredInFile(creation))) continue;
          // a decrement whose reply says it created the key, deleted on that reply next (redis-calls/deleted-when-created.ts)
          if (!inUnit && deletedWhenCreated(context, call, keyArg)) continue;
          // a write that runs only when an earlier, separate read saw its key, a key the code gives a
          // TTL: the key can expire in between, and the write recreates it without one
          // (redis-calls/stale-read.ts existsGuard)
          const existing = inUnit ? undefined : existsGuardOf(creation);
          // keys whose life the code manages: deleted elsewhere and never expired, ID sequences
          const deleter = inUnit ? undefined : deletedElsewhere(context, call, keyArg);
          if (deleter && allowDeletedKeys) continue;
          const sequence = inUnit ? undefined : idSequence(context, call, keyArg);
          if (sequence && allowIdSequences) continue;
          // a work queue another function pops to empty; a record another function creates with a TTL
          // or a registry another function empties member by member (redis-calls/member-registry.ts)
          const consumer = inUnit || deleter || sequence ? undefined : (drainedElsewhere(context, call, keyArg) ?? memberRemovedElsewhere(context, call, keyArg));
          if (consumer && allowConsumedQueues) continue;
          // a stream kept as a message bus: read by a consumer group, or capped (MAXLEN, XTRIM)
          const stream = inUnit || deleter || sequence || consumer ? undefined : keptStream(context, call, keyArg);
          if (stream && allowConsumedQueues) continue;
          // one stream that XADD grows by an entry per call and nothing trims (redis-calls/untrimmed-stream.ts)
          if (!inUnit && !deleter && !sequence && !consumer && !stream && untrimmedStreamAppend(context, call, creation.keyNode)) {
            report(creation, { node: call.node, loc: reportLoc(call), messageId: 'untrimmedStream', data: { command: call.command, ...keyData(context, call, creation.keyNode) } });
            continue;
          }
          const creator = inUnit || deleter || sequence || consumer || stream || existing ? undefined : createdWithTtlElsewhere(context, call, keyArg);
          if (creator && allowTtlRecordUpdates) continue;
          const managed = sequence
            ? { messageId: 'idSequence' as const, data: { why: sequence } }
            : deleter
              ? { messageId: 'deletedElsewhere' as const, data: deletedElsewhereData(context, deleter) }
              : consumer
                ? { messageId: 'consumedElsewhere' as const, data: { consumer: consumer.command, line: String(consumer.nameNode.loc.start.line) } }
                : stream
                  ? { messageId: 'keptStream' as const, data: { user: stream.command, line: String(stream.nameNode.loc.start.line) } }
                  : existing
                    ? { messageId: 'staleExists' as const, data: { read: existing.command, line: String(existing.nameNode.loc.start.line) } }
                    : creator
                      ? { messageId: 'updatesTtlRecord' as const, data: createdWithTtlData(context, creator) }
                      : undefined;
          // the key re-armed whenever its TTL is missing (redis-calls/ttl-repair.ts)
          const repair = ttlRepairOf(context, call, keyArg);
          if (repair && allowTtlRepair) continue;
          const repaired = repair ? { messageId: 'repairedOnNextHit' as const, line: String(repair.expiry.nameNode.loc.start.line) } : undefined;
          const keyText = sourceCode.getText(creation.keyNode);
          const data = { command: call.command, ...keyData(context, call, creation.keyNode) };
          if (stale) {
            report(creation, {
              node: call.node,
              loc: reportLoc(call),
              messageId: 'staleGuard',
              data: { ...data, read: stale.command, line: String(stale.nameNode.loc.start.line) },
            });
            continue;
          }
          if ((inUnit || byHelper) && unit.kind === 'pipeline') {
            // a blocking command of the pipeline would stop blocking inside a MULTI; a batch of the
            // code's own declared type may have no multi()
            const blocking = (fileIndexOf(context).byUnit.get(unit.key) ?? []).some((c) => isBlockingCall(c.command, c.args));
            const fix = blocking || call.client.byShape ? undefined : pipelineToMulti(unit.key);
            report(creation, {
              node: call.node,
              loc: reportLoc(call),
              messageId: 'pipelineNotAtomic',
              data,
              suggest: fix ? [{ messageId: 'useMulti', fix }] : [],
            });
            continue;
          }
          if (unit.kind === 'single') {
            // The expiry sent as its own round trip after the write, on its path (the definition
            // set-requires-ttl-or-keepttl uses): only an EXPIRE-family call counts.
            const later = expiryInLaterRoundTrip(context, call, keyArg, options.allowPassThrough !== false);
            const elsewhere = later ? expiries.find((e) => e.call === later && e.key === creation.key && e.effect === 'set-ttl') : undefined;
            // a bounded key whose expiry is re-armed after every write: at most this key is left
            // without TTL by a crash in between, until its next write (redis-calls/rearmed.ts)
            if (
              elsewhere &&
              allowRearmedBoundedKeys &&
              !repaired &&
              !stale &&
              keyShapeOf(context, creation.keyNode).constant &&
              expiryRunsAfterEveryWrite(call.node, elsewhere.call.node) &&
              everyWriteRearms(
                { node: call.node, key: creation.key },
                creations.map((c) => ({ node: c.call.node, key: c.key })),
                expiries.filter((e) => e.effect === 'set-ttl').map((e) => ({ node: e.call.node, key: e.key })),
              )
            ) {
              continue;
            }
            // An expiry of the key sent before the write, in the same function: a no-op on a missing key.
            const before = elsewhere
              ? undefined
              : expiries.find(
                  (e) =>
                    e.key === creation.key &&
                    e.effect === 'set-ttl' &&
                    e.order < creation.order &&
                    e.call.unit.kind === 'single' &&
                    sameFunction(e.call.node, call.node),
                );
            const expiry = describeExpiry(elsewhere ?? before, keyText);
            // The separate expiry moves into the MULTI: its statement goes. One that cannot be
            // removed alone (under an `if`, inside an expression, in another block) would stay and
            // run twice, or conditionally: then no MULTI suggestion.
            const separate = elsewhere ?? before;
            const own = standaloneStatementOf(call.node);
            // a facade's expiry is the facade's syntax (and TTL): it is not moved
            const movable = separate && separate.call.form !== 'facade' ? standaloneStatementOf(separate.call.node) : undefined;
            const moved = movable && own && movable.parent === own.parent ? movable : undefined;
            const fix = elsewhere && !moved ? undefined : wrapInMulti(context, call, keyText, expiry, moved);
            const helper = elsewhere ? incrementWithTtlFix(context, call) : undefined;
            const module = readAutofixSettings(context).runtimeModule;
            // HSET f then HEXPIRE ... FIELDS f in a later round trip: the field's expiry, separate (the
            // MULTI suggestion keeps it where it is and expires the key)
            const fieldLater =
              elsewhere || before || !writtenFields
                ? undefined
                : fieldExpiries.find(
                    (e) =>
                      e.key === creation.key &&
                      e.call.unit.kind === 'single' &&
                      e.order > creation.order &&
                      sameFunction(e.call.node, call.node) &&
                      followsOnItsPath(call.node, e.call.node) &&
                      [...writtenFields].every((f) => e.fields.has(f)),
                  );
            const separateLine = (elsewhere ?? fieldLater)?.call.nameNode.loc.start.line;
            // no MULTI offered after a read that saw the key: an EXPIRE queued with every write would
            // slide a window the code keeps fixed (the message names EXPIRE ... NX)
            const staleOnly = !repaired && separateLine === undefined && !before && managed?.messageId === 'staleExists';
            report(creation, {
              node: call.node,
              loc: reportLoc(call),
              messageId:
                repaired?.messageId ?? (separateLine !== undefined ? 'separateRoundTrip' : before ? 'expiryBeforeCreate' : (managed?.messageId ?? 'noExpiry')),
              data: repaired
                ? { ...data, line: repaired.line }
                : separateLine !== undefined
                  ? { ...data, line: String(separateLine) }
                  : before
                    ? data
                    : { ...data, ...managed?.data },
              fix: autofix && !staleOnly ? (helper ?? null) : null,
              suggest: staleOnly
                ? []
                : [
                    ...(helper ? [{ messageId: 'useIncrementWithTtl' as const, data: { module }, fix: helper }] : []),
                    ...(fix ? [{ messageId: 'wrapInMulti' as const, data: { command: call.command, expire: expiry.label, declare: expiry.declare }, fix }] : []),
                  ],
            });
            continue;
          }
          // an expiry of the key queued before the write in the same unit: a no-op on a missing key
          const before = expiries.find(
            (e) => e.call.unit.key === unit.key && e.key === creation.key && e.effect === 'set-ttl' && e.order < creation.order,
          );
          const expiry = describeExpiry(before, keyText);
          const fix = appendExpiryInBatch(context, call, keyText, expiry);
          report(creation, {
            node: call.node,
            loc: reportLoc(call),
            messageId: repaired?.messageId ?? (before ? 'expiryBeforeCreate' : (managed?.messageId ?? 'noExpiry')),
            data: repaired ? { ...data, line: repaired.line } : before ? data : { ...data, ...managed?.data },
            suggest: fix && (repaired || before || managed?.messageId !== 'staleExists') ? [{ messageId: 'appendExpire', data: { expire: expiry.label, declare: expiry.declare }, fix }] : [],
          });
        }
        // one finding per record family, at its creation: an update of a record whose creation is
        // reported, and not itself dropped as an update, adds no leak of its own
        const reported = new Map<RedisCall, KeyUse>();
        for (const creation of pending.keys()) if (!reported.has(creation.call)) reported.set(creation.call, creation);
        const dropped = new Map<KeyUse, boolean>();
        const isDropped = (creation: KeyUse, depth = 0): boolean => {
          const known = dropped.get(creation);
          if (known !== undefined) return known;
          const descriptor = pending.get(creation);
          let drop = false;
          if (descriptor && 'messageId' in descriptor && descriptor.messageId === 'noExpiry' && depth < 4) {
            const arg = creation.call.argNodes.indexOf(creation.keyNode);
            // the family's creation in another module, which calls this file's creation after it
            if (recordCreatedInAnotherModule(context, creation.call, arg, (at, made) => noExpiryReportedIn(context, at, made))) drop = true;
            else {
              const created = fieldUpdateCreation(context, creation.call, arg);
              const creator = created ? reported.get(created) : undefined;
              // only a creation reported for leaving the record without TTL carries the update's
              // leak: one reported for its order or a stale read has a TTL once that is mended
              const carried = creator ? pending.get(creator) : undefined;
              drop = creator !== undefined && carried !== undefined && 'messageId' in carried && carried.messageId === 'noExpiry' && !isDropped(creator, depth + 1);
            }
          }
          dropped.set(creation, drop);
          return drop;
        };
        for (const [creation, descriptor] of pending) if (!isDropped(creation)) context.report(descriptor);
      },
    };
  },
});

function sameFunction(a: TSESTree.Node, b: TSESTree.Node): boolean {
  return enclosingFunction(a) === enclosingFunction(b);
}

export default rule;

/**
 * Whether this rule, linting the module of `at` (a related module's context) with the options and
 * settings of `context`, reports the write `creation` of that module for leaving its key without
 * TTL (`noExpiry`; a disable directive there is the user's decision and counts as reported,
 * `redis-calls/foreign-findings.ts`); `true` for a question asked while a module is judged (so the
 * judged module drops its update and the module asking first keeps its finding), `false` when a
 * run throws (not known: the caller keeps its finding).
 */
function noExpiryReportedIn(context: Readonly<TSESLint.RuleContext<MessageIds, Options>>, at: AnyContext, creation: RedisCall): boolean {
  const findings = findingsInModule(context as unknown as AnyContext, at, rule.create);
  if (findings === 'nested') return true;
  return findings?.some((f) => f.node === creation.node && f.messageId === 'noExpiry') === true;
}
