/**
 * `no-persist`: PERSIST, GETEX ... PERSIST (node-redis `{ PERSIST: true }` / `{ type: 'PERSIST' }`,
 * @upstash/redis `{ persist: true }`), HPERSIST and HGETEX ... PERSIST remove a TTL: the key (or
 * the hash fields, which keep their hash alive) then lives until something deletes it. The same
 * rule as lua-lint's `no-persist`; the command table decides (`remove-ttl` on a key, `remove` on
 * fields). Keys persistent by design (`settings['redis-ttl'].persistentKeys`, `// redis-ttl
 * persistent: <reason>`) are not reported, nor with `allowPassThrough` a key the code's user
 * names: the key policy decides (`redis-calls/policy.ts` ttlRemovalExemption).
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { createRule } from './create-rule.js';
import { redisCallsOf } from '../redis-calls/index.js';
import { keyData, KEY_TAIL, reportLoc } from '../redis-calls/report.js';
import { KEY_POLICY_SCHEMA, ttlRemovalExemption } from '../redis-calls/policy.js';
import type { NoPersistOptions } from './options.js';

/** Options of the rule (the options object's type is exported from the package root). */
export type Options = [NoPersistOptions];

/** Messages of the rule. */
export type MessageIds = 'persist' | 'persistFields';

export default createRule<Options, MessageIds>({
  name: 'no-persist',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow PERSIST, GETEX ... PERSIST, HPERSIST and HGETEX ... PERSIST: they remove a TTL.',
      recommended: true,
      strict: true,
    },
    schema: [
      {
        type: 'object',
        description: 'Options of no-persist.',
        properties: { allowPassThrough: KEY_POLICY_SCHEMA.allowPassThrough },
        additionalProperties: false,
      },
    ],
    messages: {
      persist: `{{command}} removes the TTL of \`{{key}}\`: the key then lives until something deletes it. Remove the call; to change the TTL use EXPIRE / PEXPIRE (GETEX ... EX to read and re-arm).${KEY_TAIL}`,
      persistFields: `{{command}} removes the TTL of fields of \`{{key}}\`: a field without TTL keeps its hash alive forever. Remove the call; to change a field's TTL use HEXPIRE / HPEXPIRE.${KEY_TAIL}`,
    },
  },
  defaultOptions: [{}],
  create(context, [policy]) {
    return {
      CallExpression(node: TSESTree.CallExpression) {
        for (const call of redisCallsOf(context, node)) {
          for (const action of call.description.keys) {
            const fields = action.fields?.ttl === 'remove';
            if (action.effect !== 'remove-ttl' && !fields) continue;
            const keyNode = call.argNodes[action.arg];
            // a key persistent by design, or the operator's explicit PERSIST of the key they named
            // (an admin UI's action): the key policy's exemptions of a removed TTL
            if (keyNode && ttlRemovalExemption(context, call, keyNode, policy)) continue;
            const command = call.command === 'GETEX' || call.command === 'HGETEX' ? `${call.command} ... PERSIST` : call.command;
            context.report({
              node: call.node,
              loc: reportLoc(call),
              messageId: fields ? 'persistFields' : 'persist',
              data: { command, ...keyData(context, call, keyNode) },
            });
          }
        }
      },
    };
  },
});
