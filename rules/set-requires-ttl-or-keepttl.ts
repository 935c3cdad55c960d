/**
 * `set-requires-ttl-or-keepttl`: a SET-family write (SET, SET NX / XX, SETNX, MSET, MSETNX) with
 * no EX / PX / EXAT / PXAT / KEEPTTL creates the key without TTL or removes the TTL it had. The
 * command table decides (the key's effect); options the linter cannot read are given the benefit
 * of the doubt (the table then assumes an expiry). With `settings['redis-ttl'].defaultTtlSeconds`
 * the expiry it suggests is that one, in the client's own syntax, and it is a fix with `fix: true`
 * or `settings['redis-ttl'].autofix` (SET, and SETNX whose reply is not used: SET ... NX replies
 * differently); MSET / MSETNX are never fixed (the rewrite changes the reply). A write whose own
 * EXPIRE follows as a round trip of its own gets that EXPIRE's TTL (and loses the EXPIRE when it is
 * a statement of its own beside the write's), a lock a lock-sized TTL, never the cache default
 * (`redis-calls/write-expiry.ts`).
 * Suggestions offer every expiry first and KEEPTTL last: editors list the first as the first quick
 * fix, and KEEPTTL keeps an existing key's TTL but creates a missing key with none.
 *
 * A write followed, in the same MULTI (or pipeline, unless `allowPipeline` is off), by an expiry
 * of every key it writes is one atomic unit and is not reported. SET ... KEEPTTL without XX is
 * reported too (`keepTtlMayCreate`): a key that expired or was deleted since it was written is
 * created again without TTL; not when the same MULTI wrote it with a TTL just before. Persistent keys, constant keys
 * the file never expires and the no-TTL arm of an explicit TTL test follow the shared policy of
 * `redis-calls/policy.ts` (`allowConstantKeys`, `allowOptionalTtl`; `strict` turns both off).
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { SET_WRITTEN_REPLY, type KeyEffect } from '../semantics/commands.js';
import { expiredByEveryCaller } from '../redis-calls/caller-expiry.js';
import { createRule } from './create-rule.js';
import { SETNX_INTEGER_REPLY } from '../redis-calls/client-facts.js';
import { addSetOptions, expireEachKeyInMulti, rewriteAsSet, ttlConstantOf, type SetOption } from '../redis-calls/fixes.js';
import { reportLoc } from '../redis-calls/report.js';
import { fixesEnabled, FIX_OPTION_SCHEMA, readAutofixSettings, removeStatement } from '../redis-calls/autofix.js';
import { laterExpiryTtl, lockTtlConstant } from '../redis-calls/write-expiry.js';
import { isLockWrite } from '../redis-calls/locks.js';
import { SET_RULE_COMMANDS } from '../redis-calls/ownership.js';
import { clampedRefundReset } from '../redis-calls/clamped-refund.js';
import { expiryQueuedByHelper } from '../redis-calls/helper-expiry.js';
import { createdWithTtlBeforeInUnit, expiryAfterInUnit, expiryInLaterRoundTrip, ttlInEarlierRoundTrip } from '../redis-calls/file-index.js';
import { declaredPersistent, exemption, keyCallsOf, KEY_POLICY_SCHEMA } from '../redis-calls/policy.js';
import type { SetRequiresTtlOrKeepttlOptions } from './options.js';
import { keyData, KEY_TAIL } from '../redis-calls/report.js';
import type { AnyContext } from '../redis-calls/static.js';
import type { RedisCall } from '../redis-calls/index.js';
import { ttlGivenOnOtherPath } from '../redis-calls/cleared-ttl.js';
import { DELETED_ELSEWHERE_TEXT, DELETED_KEYS_SCHEMA, deletedElsewhere, deletedElsewhereData } from '../redis-calls/lifecycle.js';

/** Options of the rule (the options object's type is exported from the package root). */
export type Options = [SetRequiresTtlOrKeepttlOptions];
/** Messages of the rule and of its suggestions. */
export type MessageIds =
  | 'setWithoutTtl'
  | 'createWithoutTtl'
  | 'setThenExpire'
  | 'setClearsTtl'
  | 'deletedElsewhere'
  | 'keepTtlMayCreate'
  | 'keepTtlAfterExpiry'
  | 'addXx'
  | 'msetWithoutTtl'
  | 'addKeepTtl'
  | 'addKeepTtlXx'
  | 'addExpiry'
  | 'addExpiryPlaceholder'
  | 'addDefaultExpiry'
  | 'moveLaterExpiry'
  | 'addLaterExpiry'
  | 'expireEachKey'
  | 'numberAsOptions'
  | 'useOptionsObject';

/** Key effects that leave the written key without TTL. */
const LEAKING: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['overwrite', 'create-if-missing', 'clear-ttl-if-present']);

export default createRule<Options, MessageIds>({
  name: 'set-requires-ttl-or-keepttl',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require an expiry (EX / PX / EXAT / PXAT) or KEEPTTL on SET, SETNX, MSET and MSETNX.',
      recommended: true,
      strict: true,
    },
    fixable: 'code',
    hasSuggestions: true,
    schema: [
      {
        type: 'object',
        description: 'Options of set-requires-ttl-or-keepttl.',
        properties: {
          fix: FIX_OPTION_SCHEMA,
          allowKeepTtl: {
            type: 'boolean',
            description:
              'Whether SET ... KEEPTTL without XX is accepted when nothing in view gave the key a TTL before it (an earlier round trip of the same function that did, with time passing in between, is always reported). The strict config turns this off.',
          },
          allowPipeline: {
            type: 'boolean',
            description:
              'Whether a write followed by the expiry of its keys in one pipeline() counts as one unit. Pipelines are not atomic, so the strict config turns this off.',
          },
          ...DELETED_KEYS_SCHEMA,
          ...KEY_POLICY_SCHEMA,
        },
        additionalProperties: false,
      },
    ],
    messages: {
      setWithoutTtl: `{{command}} of \`{{key}}\` has no EX/PX/EXAT/PXAT or KEEPTTL: it writes the key without TTL and drops the TTL it had, so the key never expires. Pass an expiry, or KEEPTTL for a key that has one.${KEY_TAIL}`,
      setThenExpire: `{{command}} of \`{{key}}\` writes it without TTL and its expiry follows as a separate round trip (line {{line}}): a crash or lost connection between them leaves the key without TTL forever. Set it in the same command: SET key value EX <seconds> (with NX for a SETNX).${KEY_TAIL}`,
      setClearsTtl: `{{command}} of \`{{key}}\` without EX/PX/EXAT/PXAT or KEEPTTL discards the TTL line {{line}} gives the key: from this write on it never expires. Keep that TTL with KEEPTTL XX (a key that expired meanwhile stays gone), or count with INCR and give the key its expiry when it is created.${KEY_TAIL}`,
      deletedElsewhere: `{{command}} of \`{{key}}\` writes it without TTL, and it ${DELETED_ELSEWHERE_TEXT}.${KEY_TAIL}`,
      createWithoutTtl: `{{command}} of \`{{key}}\` has no expiry: the key (a lock, a flag) is created without TTL and lives forever if its owner never deletes it. Pass one: SET key value NX EX <seconds>.${KEY_TAIL}`,
      keepTtlMayCreate: `SET ... KEEPTTL of \`{{key}}\` keeps the TTL of an existing key, but a key that expired or was deleted since is created again without any TTL and never expires. Add XX to update only a key that still exists.${KEY_TAIL}`,
      keepTtlAfterExpiry: `SET ... KEEPTTL of \`{{key}}\` keeps the TTL given at line {{line}}, but if the key expired or was deleted in between, it is created again without any TTL and never expires. Add XX to update only a key that still exists.${KEY_TAIL}`,
      msetWithoutTtl: `{{command}} cannot set a TTL: every key it writes (\`{{key}}\`) lives forever, and existing keys lose theirs. Use SET ... EX per key, or EXPIRE each key in the same MULTI.${KEY_TAIL}`,
      numberAsOptions: `SET of \`{{key}}\` has no expiry: node-redis reads SET options from an object, so the number \`{{text}}\` is never sent and the key gets no TTL. Pass \`{ EX: {{text}} }\` (seconds).${KEY_TAIL}`,
      useOptionsObject: 'Pass it as { EX: {{text}} } (seconds).',
      addKeepTtl: 'Add KEEPTTL (keeps the TTL of an existing key; a missing key is still created without TTL).',
      addKeepTtlXx: 'Add KEEPTTL XX: keep the TTL the key has, and write nothing when it expired meanwhile (the reply is null).',
      addXx: 'Add XX: write only a key that still exists (a gone key stays gone, and the reply is null).',
      addExpiry: 'Add an expiry of {{name}}.',
      addDefaultExpiry: "Add an expiry of {{seconds}} seconds (settings['redis-ttl'].defaultTtlSeconds).",
      addExpiryPlaceholder: 'Add an expiry of {{name}} (declare the constant with the TTL this key needs).',
      moveLaterExpiry: 'Give the key the TTL of its expiry at line {{line}} ({{ttl}}) in this command, and remove that separate expiry.',
      addLaterExpiry: 'Give the key the TTL of its expiry at line {{line}} ({{ttl}}) in this command (the separate expiry stays: check whether it is still needed).',
      expireEachKey:
        'Expire every key it writes with {{name}} in the same MULTI{{placeholder}} (the awaited value becomes the MULTI reply; for MSETNX, keys that already existed get this TTL too).',
    },
  },
  defaultOptions: [{}],
  create(context, [options]) {
    const autofix = fixesEnabled(context, options.fix);
    const { defaultTtlSeconds } = readAutofixSettings(context);
    const allowPipeline = options.allowPipeline !== false;
    const allowDeletedKeys = options.allowDeletedKeys !== false;

    /** An expiry of the key at argument `arg` right after the write in the same MULTI (or pipeline, when allowed): one atomic unit. */
    function expiredInItsUnit(call: RedisCall, arg: number): boolean {
      const atomic = call.unit.kind === 'multi' || (call.unit.kind === 'pipeline' && allowPipeline);
      if (atomic && expiryAfterInUnit(context, call, arg) !== undefined) return true;
      // an EXPIRE a helper queues in the same unit, handed the unit and the key (redis-calls/helper-expiry.ts)
      if (atomic && expiryQueuedByHelper(context, call, arg) !== undefined) return true;
      // a helper's write on the pipeline it is given, expired there by every caller (redis-calls/caller-expiry.ts)
      const keyNode = call.argNodes[arg];
      return allowPipeline && keyNode !== undefined && expiredByEveryCaller(context, call, keyNode);
    }

    /** The leaking keys of a write: every key it writes without TTL that no policy exempts. */
    function leakingKeys(call: RedisCall) {
      return call.description.keys.filter((key) => {
        if (!LEAKING.has(key.effect)) return false;
        const keyNode = call.argNodes[key.arg];
        if (!keyNode) return true;
        if (expiredInItsUnit(call, key.arg)) return false;
        if (exemption(context, call, keyNode, options) !== undefined) return false;
        // SET key 0 when a refund went below zero, of a counter the file charges with a TTL (clamped-refund.ts)
        if (call.unit.kind === 'single' && clampedRefundReset(context, call)) return false;
        // a key the file deletes elsewhere and never expires: its life is the code's (lifecycle.ts)
        return !(allowDeletedKeys && deletedElsewhere(context, call, key.arg));
      });
    }

    /**
     * The keys a SET whose expiry node-redis drops (`set(k, v, 300)`: a bare number where it reads
     * an options object) writes without TTL. The code meant them to expire, so the exemptions that
     * read a write as kept on purpose (a constant key, a key deleted elsewhere, an optional TTL, a
     * pass-through or opaque key) do not apply; a key declared persistent, or expired right after
     * in the same MULTI, still is not reported.
     */
    function droppedTtlKeys(call: RedisCall) {
      return call.description.keys.filter((key) => {
        if (!LEAKING.has(key.effect)) return false;
        const keyNode = call.argNodes[key.arg];
        if (!keyNode) return true;
        if (expiredInItsUnit(call, key.arg)) return false;
        return !declaredPersistent(context, call, keyNode);
      });
    }

    /**
     * SET ... KEEPTTL without XX: an existing key keeps its TTL, a missing one (expired or deleted
     * since it was written) is created without any. With `allowKeepTtl` (default) only when the
     * code shows the key may have expired before it: an earlier round trip of the same function
     * (or of a function enclosing it) gave the same key a TTL; without it, every such write. Not
     * when the key was written with a TTL just before in the same MULTI (or pipeline, with
     * `allowPipeline`), or an expiry follows there, nor when the shared key policy exempts it.
     */
    function reportKeepTtl(call: RedisCall): void {
      const action = call.description.keys[0]!;
      const keyNode = call.argNodes[action.arg];
      if (!keyNode) return;
      const atomic = call.unit.kind === 'multi' || (call.unit.kind === 'pipeline' && allowPipeline);
      if (atomic && (expiryAfterInUnit(context, call, action.arg) || createdWithTtlBeforeInUnit(context, call, action.arg))) return;
      const earlier = ttlInEarlierRoundTrip(context, call, action.arg);
      if (!earlier && options.allowKeepTtl !== false) return;
      if (exemption(context, call, keyNode, options) !== undefined) return;
      // a key given a TTL is not kept forever on purpose: no persistentKeys hint then
      const data = { ...keyData(context, call, keyNode), ...(earlier ? { line: String(earlier.nameNode.loc.start.line), hint: '' } : {}) };
      const xx = call.form === 'facade' ? undefined : addXx(context, call);
      context.report({
        node: call.node,
        loc: reportLoc(call),
        messageId: earlier ? 'keepTtlAfterExpiry' : 'keepTtlMayCreate',
        data,
        suggest: xx ? [{ messageId: 'addXx', fix: xx }] : [],
      });
    }

    return {
      CallExpression(node: TSESTree.CallExpression) {
        for (const call of keyCallsOf(context, node, options)) {
          if (!SET_RULE_COMMANDS.has(call.command) || call.description.getDropsTtl) continue;
          // an expiry the client drops is valid-ttl-args' (one root cause, one finding)
          if (call.dropped?.some((d) => d.ttl)) continue;
          // Redis rejects the command (SET k v 300, SET k v NX XX, ioredis's set(k, v, { NX: true }), sent as
          // SET k v [object Object]): nothing is written
          if (call.description.rejected) continue;
          if (call.command === 'SET' && call.description.keys[0]?.effect === 'keep-ttl') {
            reportKeepTtl(call);
            continue;
          }
          const numberAsOptions = call.dropped?.find((d) => d.kind === 'number-as-options');
          const leaking = numberAsOptions ? droppedTtlKeys(call) : leakingKeys(call);
          const effect = leaking[0]?.effect;
          if (!effect) continue;
          if (numberAsOptions) {
            const text = context.sourceCode.getText(numberAsOptions.node);
            context.report({
              node: call.node,
              loc: reportLoc(call),
              messageId: 'numberAsOptions',
              data: { text: text.length <= 40 ? text : `${text.slice(0, 37)}...`, ...keyData(context, call, call.argNodes[leaking[0]!.arg]) },
              suggest: [{ messageId: 'useOptionsObject', data: { text }, fix: (fixer) => fixer.replaceText(numberAsOptions.node, `{ EX: ${text} }`) }],
            });
            continue;
          }
          const data = {
            command: call.command === 'SET' ? describeSet(effect) : call.command,
            ...keyData(context, call, call.argNodes[leaking[0]!.arg]),
          };
          const messageId = call.command === 'MSET' || call.command === 'MSETNX' ? 'msetWithoutTtl' : effect === 'create-if-missing' ? 'createWithoutTtl' : 'setWithoutTtl';
          // a facade's call is written in the facade's syntax: the fix belongs in the facade; an
          // expiry added to SET ... NX KEEPTTL would conflict with its KEEPTTL (a syntax error)
          if (call.form === 'facade' || call.description.keepTtl) {
            // a promisified node-redis SET (`setAsync`, redis-calls/promisified.ts) or a facade's
            // (`redisSetter.set({ key, value })`) whose EXPIRE follows as its own round trip
            const later = call.form === 'facade' ? expiryInLaterRoundTrip(context, call, leaking[0]!.arg, options.allowPassThrough !== false) : undefined;
            const laterData = later ? { ...data, line: String(later.nameNode.loc.start.line) } : data;
            // a plain SET of a key its function gives a TTL on another path (cleared-ttl.ts)
            const given = !later && messageId === 'setWithoutTtl' && call.command === 'SET' ? ttlGivenOnOtherPath(context, call, leaking[0]!.arg) : undefined;
            if (given) {
              context.report({ node: call.node, loc: reportLoc(call), messageId: 'setClearsTtl', data: { ...data, line: String(given.nameNode.loc.start.line) } });
              continue;
            }
            context.report({ node: call.node, loc: reportLoc(call), messageId: later && messageId !== 'msetWithoutTtl' ? 'setThenExpire' : messageId, data: laterData });
            continue;
          }
          if (call.command === 'MSET' || call.command === 'MSETNX') {
            const ttl = ttlConstantOf(context);
            const fix = expireEachKeyInMulti(context, call, { ttlText: ttl.name, milliseconds: ttl.milliseconds });
            const placeholder = ttl.placeholder ? ` (declare ${ttl.name})` : '';
            context.report({
              node: call.node,
              loc: reportLoc(call),
              messageId: 'msetWithoutTtl',
              data,
              suggest: fix ? [{ messageId: 'expireEachKey', data: { name: ttl.name, placeholder }, fix }] : [],
            });
            continue;
          }
          const suggest: Array<{ messageId: MessageIds; data?: Record<string, string>; fix: NonNullable<ReturnType<typeof addSetOptions>> }> = [];
          let fix: ReturnType<typeof addSetOptions>;
          /** The edit adding `expiry` to the write (SETNX has no expiry option: it becomes SET key value EX <ttl> NX). */
          const withExpiry = (expiry: SetOption) => (call.command === 'SETNX' ? setnxAsSet(call, expiry) : addSetOptions(context, call, [expiry]));
          /**
           * SETNX as SET key value EX <ttl> NX. SET ... NX replies OK or nil where SETNX replied 1
           * or 0 (https://redis.io/docs/latest/commands/setnx/): a reply the code reads
           * (`return redis.setnx(k, v)`, `(await redis.setnx(k, v)) === 1`) is turned back into
           * SETNX's for the clients whose SETNX resolves to 1 / 0 (ioredis, iovalkey, @upstash/redis,
           * Bun); node-redis' resolves to a boolean in 4 and to 1 / 0 in 5, so no rewrite is offered
           * there, nor in a MULTI / pipeline (the reply is an element of EXEC's).
           */
          const setnxAsSet = (call: RedisCall, expiry: SetOption): ReturnType<typeof rewriteAsSet> => {
            const rewrite = rewriteAsSet(context, call, [expiry, 'NX']);
            // queued in a MULTI / pipeline, its reply is an element of EXEC's, which the code may
            // read anywhere (`replies[0][1] === 1`): no rewrite there, whatever the statement shows
            if (call.unit.kind !== 'single') return undefined;
            if (!rewrite || replyUnused(call.node)) return rewrite;
            if (call.form !== 'method' || !SETNX_INTEGER_REPLY.has(call.flavor)) return undefined;
            return (fixer) => [...rewrite(fixer), fixer.insertTextAfter(call.node, `.then((reply) => (reply === '${SET_WRITTEN_REPLY}' ? 1 : 0))`)];
          };
          // an expiry of the key in a later round trip: the key is not kept forever on purpose,
          // only exposed between the two (the message says so); its TTL is the one to add
          // (redis-calls/write-expiry.ts), never a cache default or another key's constant
          const later = expiryInLaterRoundTrip(context, call, leaking[0]!.arg, options.allowPassThrough !== false);
          const own = later ? laterExpiryTtl(context, call, leaking[0]!.arg, later) : undefined;
          // a lock gets a lock-sized TTL, never the cache default (write-expiry.ts)
          const lock = !later && isLockWrite(context, call, leaking[0]!.arg);
          if (own) {
            const add = withExpiry({ expiry: own.ttl });
            const removable = own.removable;
            if (add) {
              const line = String(later!.nameNode.loc.start.line);
              const moved: typeof add = removable ? (fixer) => [...add(fixer), removeStatement(context, fixer, removable)] : add;
              suggest.push({ messageId: removable ? 'moveLaterExpiry' : 'addLaterExpiry', data: { ttl: own.ttl.name, line }, fix: moved });
              // a fix only when the separate expiry goes with it (else it would run twice)
              if (removable && (call.command !== 'SETNX' || replyUnused(call.node))) fix = moved;
            }
          } else if (defaultTtlSeconds !== undefined && !later && !lock) {
            const seconds = String(defaultTtlSeconds);
            const add = withExpiry({ expiry: { name: seconds, milliseconds: false, placeholder: false } });
            if (add) {
              suggest.push({ messageId: 'addDefaultExpiry', data: { seconds }, fix: add });
              if (call.command !== 'SETNX' || replyUnused(call.node)) fix = add;
            }
          }
          if (!later) {
            const ttl = lock ? lockTtlConstant(context) : ttlConstantOf(context);
            const add = withExpiry({ expiry: ttl });
            if (add) suggest.push({ messageId: ttl.placeholder ? 'addExpiryPlaceholder' : 'addExpiry', data: { name: ttl.name }, fix: add });
          }
          // KEEPTTL is offered last, after every expiry: editors list the first suggestion as the first
          // quick fix, and KEEPTTL keeps an existing key's TTL but creates a missing key with none
          // (it silences the finding under allowKeepTtl while the leak stays). After an earlier TTL
          // of the key it is keepTtlAfterExpiry's finding: not offered then
          const deleter = later ? undefined : deletedElsewhere(context, call, leaking[0]!.arg);
          // a plain SET of a key its function gives a TTL on another path (cleared-ttl.ts)
          const given = later || deleter || effect === 'create-if-missing' || call.command !== 'SET' ? undefined : ttlGivenOnOtherPath(context, call, leaking[0]!.arg);
          if (given) {
            // the key had a TTL on this path: KEEPTTL alone would recreate a key that expired since
            // (a read-modify-write counter) without any; with XX a gone key stays gone
            const keep = addSetOptions(context, call, ['KEEPTTL', 'XX']);
            if (keep) suggest.push({ messageId: 'addKeepTtlXx', fix: keep });
          } else if (call.command === 'SET' && effect !== 'create-if-missing' && !ttlInEarlierRoundTrip(context, call, leaking[0]!.arg)) {
            const keep = addSetOptions(context, call, ['KEEPTTL']);
            if (keep) suggest.push({ messageId: 'addKeepTtl', fix: keep });
          }
          context.report({
            node: call.node,
            loc: reportLoc(call),
            messageId: later ? 'setThenExpire' : deleter ? 'deletedElsewhere' : given ? 'setClearsTtl' : effect === 'create-if-missing' ? 'createWithoutTtl' : 'setWithoutTtl',
            data: later
              ? { ...data, line: String(later.nameNode.loc.start.line) }
              : deleter
                ? { ...data, ...deletedElsewhereData(context, deleter) }
                : given
                  ? { ...data, line: String(given.nameNode.loc.start.line) }
                  : data,
            fix: autofix ? (fix ?? null) : null,
            suggest,
          });
        }
      },
    };
  },
});

/** Whether the value of a command's call is thrown away (`redis.setnx(k, v);`, `await redis.setnx(k, v);`). */
function replyUnused(node: TSESTree.Node): boolean {
  const parent = node.parent;
  if (parent?.type === 'ExpressionStatement') return true;
  return parent?.type === 'AwaitExpression' && parent.parent?.type === 'ExpressionStatement';
}

function describeSet(effect: KeyEffect): string {
  if (effect === 'create-if-missing') return 'SET ... NX';
  if (effect === 'clear-ttl-if-present') return 'SET ... XX';
  return 'SET';
}

/**
 * The edit that adds XX to a SET ... KEEPTTL in the client's syntax: a positional token after the
 * KEEPTTL token (ioredis' overloads take the condition after it), or a property of the options
 * object (node-redis `XX: true`, upstash `xx: true`). `undefined` when the call cannot be edited
 * safely.
 */
function addXx(context: AnyContext, call: RedisCall): ReturnType<typeof addSetOptions> {
  if (call.client.byShape) return undefined;
  if (call.optionsObject || call.flavor === 'node-redis' || call.flavor === 'upstash' || call.flavor === 'glide') return addSetOptions(context, call, ['XX']);
  const index = call.args.findIndex((value) => typeof value === 'string' && value.toUpperCase() === 'KEEPTTL');
  const token = call.argNodes[index];
  if (!token || token.type !== 'Literal' || !call.argumentNodes.includes(token)) return undefined;
  const raw = token.raw ?? "'";
  const quote = raw[0] === '"' ? '"' : "'";
  const xx = raw.slice(1, -1) === raw.slice(1, -1).toLowerCase() ? 'xx' : 'XX';
  return (fixer) => [fixer.insertTextAfter(token, `, ${quote}${xx}${quote}`)];
}
