/**
 * `no-getset`: GETSET, and SET ... GET without KEEPTTL or a new expiry, return the old value and
 * silently drop the key's TTL. What counts is decided by the command table
 * (`description.getDropsTtl`); this rule only reports and suggests the TTL-keeping form:
 * `getset(key, '0')` becomes the runtime's `collect(client, key)`, any other GETSET / SET ... GET
 * the client's `SET ... XX KEEPTTL GET`. `collect()` and adding KEEPTTL to a SET that already says
 * NX or XX are fixes with `fix: true` or `settings['redis-ttl'].autofix`; adding XX is always a
 * suggestion only, because a missing key then stays missing where the call wrote it. Persistent keys, constant keys the file
 * never expires and the no-TTL arm of an explicit TTL test follow the shared policy of
 * `redis-calls/policy.ts` (a key that never had a TTL loses none).
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { createRule } from './create-rule.js';
import { redisCallsOf } from '../redis-calls/index.js';
import { addSetOptions, rewriteAsSet, type SetOption } from '../redis-calls/fixes.js';
import { reportLoc } from '../redis-calls/report.js';
import { collectFix, fixesEnabled, FIX_OPTION_SCHEMA, readAutofixSettings } from '../redis-calls/autofix.js';
import { exemption, KEY_POLICY_SCHEMA } from '../redis-calls/policy.js';
import type { NoGetsetOptions } from './options.js';
import { keyData, KEY_TAIL } from '../redis-calls/report.js';
import { expiryAfterInUnit, optionalExpiry } from '../redis-calls/file-index.js';
import type { RedisCall } from '../redis-calls/normalize.js';
import type { AnyContext } from '../redis-calls/static.js';

/**
 * Whether the TTL `call` (GETSET, SET ... GET) drops is given back in the same MULTI / EXEC: a
 * later EXPIRE-family command (or SET ... EX, or a DEL) of the same key queued whenever the
 * GETSET is, in the transaction (`multi().getset(key, v).expire(key, 60).exec()`). The transaction runs as one,
 * so no client ever sees the key without its TTL. A pipeline is not atomic, and an EXPIRE in a
 * later round trip comes after a window where a crash leaves the key without TTL: both stay reported.
 */
function ttlRestoredInTransaction(context: AnyContext, call: RedisCall): boolean {
  if (call.unit.kind !== 'multi') return false;
  const arg = call.description.keys[0]?.arg ?? 0;
  // queued whenever the GETSET is, of the same key (redis-calls/queued-with.ts)
  const expiry = expiryAfterInUnit(context, call, arg);
  if (!expiry) return false;
  const expiryArg = expiry.description.keys[0]?.arg ?? 0;
  return !optionalExpiry(context, expiry, expiryArg);
}

/** Options of the rule (the options object's type is exported from the package root). */
export type Options = [NoGetsetOptions];
/** Messages of the rule and of its suggestions. */
export type MessageIds = 'getset' | 'setGet' | 'useCollect' | 'useSetKeepTtl' | 'addKeepTtl';

export default createRule<Options, MessageIds>({
  name: 'no-getset',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow GETSET and SET ... GET without KEEPTTL or a new expiry: both drop the key\'s TTL.',
      recommended: true,
      strict: true,
    },
    fixable: 'code',
    hasSuggestions: true,
    schema: [
      {
        type: 'object',
        description: 'Options of no-getset.',
        properties: { fix: FIX_OPTION_SCHEMA, ...KEY_POLICY_SCHEMA },
        additionalProperties: false,
      },
    ],
    messages: {
      getset: `GETSET of \`{{key}}\` replaces the value and removes the key's TTL, so a key that lived by its TTL now lives forever. Use SET key value XX KEEPTTL GET: it returns the old value and keeps the TTL.${KEY_TAIL}`,
      setGet: `SET ... GET of \`{{key}}\` without KEEPTTL or an expiry clears the key's TTL like GETSET, so it never expires. Add KEEPTTL (with XX, so a missing key is not created) or a new expiry.${KEY_TAIL}`,
      useCollect:
        'Replace with collect() from {{module}}: reads the value and resets it to 0 in one script, keeps the TTL, and leaves a missing key missing.',
      useSetKeepTtl: 'Replace with SET key value XX KEEPTTL GET (keeps the TTL; a missing key stays missing).',
      addKeepTtl: 'Add {{options}} (keeps the TTL of an existing key).',
    },
  },
  defaultOptions: [{}],
  create(context, [policy]) {
    const autofix = fixesEnabled(context, policy.fix);
    return {
      CallExpression(node: TSESTree.CallExpression) {
        for (const call of redisCallsOf(context, node)) {
          if (!call.description.getDropsTtl) continue;
          const keyNode = call.argNodes[call.description.keys[0]?.arg ?? 0];
          if (keyNode && exemption(context, call, keyNode, policy)) continue;
          if (ttlRestoredInTransaction(context, call)) continue;
          const data = keyData(context, call, keyNode);
          if (call.command === 'GETSET') {
            const useCollect = collectFix(context, call);
            const fix = rewriteAsSet(context, call, ['KEEPTTL', 'XX', 'GET']);
            const module = readAutofixSettings(context).runtimeModule;
            context.report({
              node: call.node,
              loc: reportLoc(call),
              messageId: 'getset',
              data,
              // XX changes what is written (a missing key stays missing where GETSET wrote it):
              // a suggestion, never a fix; collect() writes as GETSET did, with a TTL
              fix: autofix ? (useCollect ?? null) : null,
              suggest: [
                ...(useCollect ? [{ messageId: 'useCollect' as const, data: { module }, fix: useCollect }] : []),
                ...(fix ? [{ messageId: 'useSetKeepTtl' as const, fix }] : []),
              ],
            });
            continue;
          }
          // SET ... GET: add KEEPTTL, and XX unless the call already says XX (SET ... NX GET writes
          // only a missing key, which has no TTL to drop: semantics/ does not call it getDropsTtl)
          const effect = call.description.keys[0]?.effect;
          const hasCondition = effect === 'clear-ttl-if-present';
          const options: SetOption[] = hasCondition ? ['KEEPTTL'] : ['KEEPTTL', 'XX'];
          const fix = addSetOptions(context, call, options);
          context.report({
            node: call.node,
            loc: reportLoc(call),
            messageId: 'setGet',
            data,
            // adding XX changes what is written (a missing key stays missing): a suggestion only
            fix: autofix && hasCondition ? (fix ?? null) : null,
            suggest: fix ? [{ messageId: 'addKeepTtl', data: { options: options.join(' ') }, fix }] : [],
          });
        }
      },
    };
  },
});
