/**
 * `expire-needs-positive-ttl`: an expiry whose value is, or can be, <= 0 or fractional. Redis
 * deletes the key on EXPIRE / PEXPIRE / HEXPIRE ... 0 (or a negative EXPIRE), and rejects SET ...
 * EX 0, SETEX 0, GETEX EX 0 and every fractional TTL ("invalid expire time", "value is not an
 * integer"), so the write throws (https://redis.io/docs/latest/commands/expire/,
 * https://redis.io/docs/latest/commands/set/). The same rule id as lua-lint's.
 *
 * Reported: a literal (or constant arithmetic) <= 0, except, in `recommended`, a literal EXPIRE 0
 * without NX / XX / GT (a DEL the code means; what each condition makes of it is semantics'
 * `pastExpiry`, and GT, which never applies, has its own message); in `recommended`, a TTL computed as a remaining
 * time (`expires - Date.now()`, `getTime()` differences, also minus a margin) for the commands that
 * reject it (SET EX, SETEX: the EXPIRE family deletes the key, its expiry), or by arithmetic that
 * can reach 0 or a fraction (`Math.floor(a / b)`, a bare division), with no comparison of it
 * before the call; with `checkParameters` (the `strict` config), also a TTL taken from a parameter
 * of the enclosing function and never compared (also rounded down, `Math.floor(ttlMs / 1000)`), a
 * value nothing bounds minus a constant margin (`n - 1`, `expires_in - 60`: a token lifetime,
 * positive in practice), a remaining time given to the EXPIRE family and a literal EXPIRE 0.
 * Which argument is a TTL is the command table's `ttl`.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { CommandArg, CommandDescription } from '../semantics/commands.js';
import { createRule } from './create-rule.js';
import type { ExpireNeedsPositiveTtlOptions } from './options.js';
import type { RedisCall } from '../redis-calls/index.js';
import { keyLabel } from '../redis-calls/report.js';
import { unwrap } from '../redis-calls/static.js';
import { describedWithTtl, shortText, ttlArgumentsOf, ttlRisk, ttlValue, type TtlRisk } from '../redis-calls/ttl-value.js';

/**
 * What the expiry `call` does with the TTL `literal` (a constant the call may only compute), as
 * `semantics/commands.ts` describes the command with that value: its `pastExpiry`, `'rejected'`
 * when Redis rejects the value (SET ... EX 0, a negative HEXPIRE, a fraction; GETEX on an existing
 * key), `'other'` for a command with no such fact (RESTORE: 0 means no TTL; HSETEX ... EX 0 writes
 * fields that expire at once).
 */
function pastExpiryWith(call: RedisCall, literal: CommandArg): NonNullable<CommandDescription['pastExpiry']> | 'rejected' | 'other' {
  const described = describedWithTtl(call, literal);
  if (!described) return 'other';
  return described.rejected || described.rejectedWhenExists ? 'rejected' : (described.pastExpiry ?? 'other');
}

/** Options of the rule (the options object's type is exported from the package root). */
export type Options = [ExpireNeedsPositiveTtlOptions];
/** Messages of the rule and of its suggestion. */
export type MessageIds = 'literalDeletes' | 'literalNeverApplies' | 'literalRejected' | 'computed' | 'clampToOne';


const RISK_TEXT: Record<TtlRisk, string> = {
  remaining: 'is the time left until a moment, <= 0 once it has passed',
  minus: 'subtracts, and is 0 or less for a small value',
  'rounded-down': 'rounds a division down, to 0 for a small value',
  fractional: 'is a division, usually a fraction',
  parameter: 'comes from a caller unchecked (0 or less is possible)',
};

/**
 * The check the message proposes, on the TTL as the call passes it: the TTL itself when it is a
 * name or a property (`if (ttl <= 0) ...`, `if (opts.ttlMs <= 0) ...`); for an expression, the
 * value it computes, kept in a variable first (a check of one of its inputs, such as the deadline
 * `expiresAt` of `expiresAt - Date.now()`, does not stop a TTL <= 0: the deadline is positive and
 * already past).
 */
function guardOf(ttlNode: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): string {
  let node = ttlNode;
  while (node.type === 'TSAsExpression' || node.type === 'TSNonNullExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'TSTypeAssertion') node = node.expression;
  const simple = node.type === 'Identifier' || (node.type === 'MemberExpression' && !node.computed && (node.object.type === 'Identifier' || node.object.type === 'ThisExpression'));
  return simple ? `\`if (${sourceCode.getText(node)} <= 0) ...\`` : '`const ttl = ...; if (ttl <= 0) ...`, on the computed value';
}

export default createRule<Options, MessageIds>({
  name: 'expire-needs-positive-ttl',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require expiries to be positive integers: a TTL <= 0 deletes the key (EXPIRE family) or makes Redis reject the write (SET EX, SETEX, GETEX).',
      recommended: true,
      strict: true,
    },
    hasSuggestions: true,
    schema: [
      {
        type: 'object',
        description: 'Options of expire-needs-positive-ttl.',
        properties: {
          checkParameters: {
            type: 'boolean',
            description:
              'Also report a TTL taken from a parameter of the enclosing function that is never compared with a number before the expiry, a remaining time given to the EXPIRE family, and a literal EXPIRE 0 (default false; true in the strict config).',
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      literalDeletes:
        '{{command}} with the TTL {{value}} deletes `{{key}}` (an expiry <= 0 means "delete now"), and a later write creates it again without TTL. Use a positive TTL, or DEL / UNLINK to delete.',
      literalNeverApplies:
        '{{command}} with the TTL {{value}} and GT does nothing: a time already past is never greater than the current TTL (no TTL counts as infinite), so `{{key}}` keeps its TTL or none. Use a positive TTL.',
      literalRejected:
        '{{command}} with the TTL {{value}} is rejected by Redis ("invalid expire time" / "value is not an integer"): the write throws. Use a positive integer TTL.',
      computed:
        'The TTL `{{text}}` {{why}}: {{effect}} Check it before the call ({{guard}}) or clamp it: Math.max(1, ...).',
      clampToOne: 'Clamp the TTL to at least 1: Math.max(1, {{text}}).',
    },
  },
  defaultOptions: [{}],
  create(context, [options]) {
    const strict = options.checkParameters === true;
    const sourceCode = context.sourceCode;
    return {
      CallExpression(node: TSESTree.CallExpression) {
        for (const { call, ttl, ttlNode } of ttlArgumentsOf(context, node)) {
          const keyNode = call.argNodes[call.description.keys[0]?.arg ?? 0];
          const key = keyLabel(context, keyNode);
          const command = call.description.ttlOption ? `${call.command} ... ${call.description.ttlOption}` : call.command;
          const absolute = ttl.unit.startsWith('unix');
          // a constant, also computed from consts of this file or of imported modules
          const literal = ttlValue(context, ttlNode);
          if (literal !== undefined) {
            // a value Redis takes as a TTL (a positive integer as it parses one: not '60.0', '+5' or
            // 1e21, sent as `1e+21`; within its range): nothing to say
            if (describedWithTtl(call, literal)?.nonPositiveTtlArg === undefined) continue;
            // what Redis does with this very value, and under the call's condition (NX / XX / GT / LT)
            const past = pastExpiryWith(call, literal);
            // `0`, `'-1'`; a computed constant with its value: `Math.floor(MS / 1000)` (= 0)
            const text = shortText(context, unwrap(ttlNode));
            const written = text.replace(/^(['"`])(.*)\1$/, '$2') === String(literal) ? String(literal) : `\`${text}\` (= ${String(literal)})`;
            // `expire(key, 0)` (or under LT): a DEL written as an expiry, which the code means
            // (`expireNow(key)`); reported with `checkParameters` (strict), DEL says it plainly
            if (past === 'delete' && !strict && written === String(literal)) continue;
            // RESTORE 0 restores without TTL: no expiry <= 0, the write rules judge the key
            if (past === 'other') continue;
            const messageId = past === 'rejected' ? 'literalRejected' : past === 'nothing' ? 'literalNeverApplies' : 'literalDeletes';
            context.report({ node: ttlNode, messageId, data: { command, value: written, key } });
            continue;
          }
          if (absolute) continue; // a point in time: ttl-units and the code's clock decide
          // Redis rejects this command's TTL <= 0 (SET ... EX, SETEX, GETEX), where the EXPIRE family deletes
          const rejects = pastExpiryWith(call, 0) === 'rejected';
          const found = ttlRisk(context, ttlNode, call.node, strict);
          if (!found) continue;
          // a remaining time divided without rounding is a fraction, which even EXPIRE rejects
          const risk = found.fraction && !rejects ? { ...found, risk: 'fractional' as const } : found;
          // EXPIRE / PEXPIRE / HEXPIRE of the time left until a moment: at <= 0 the moment has passed,
          // and deleting the key is what its expiry means; SET ... EX / SETEX reject it (strict reports both)
          if (risk.risk === 'remaining' && !rejects && !strict) continue;
          const text = shortText(context, ttlNode);
          const effect =
            risk.risk === 'fractional'
              ? 'Redis rejects a fraction ("value is not an integer"), so the write throws.'
              : rejects
                ? `${command} then fails ("invalid expire time"), so the write throws.`
                : `${command} then deletes \`${key}\`, and a later write recreates it without TTL.`;
          const fullText = sourceCode.getText(ttlNode);
          const clamp = risk.risk === 'fractional' ? `Math.max(1, Math.ceil(${fullText}))` : `Math.max(1, ${fullText})`;
          context.report({
            node: ttlNode,
            messageId: 'computed',
            data: { text, why: RISK_TEXT[risk.risk], effect, guard: guardOf(ttlNode, sourceCode) },
            suggest: [{ messageId: 'clampToOne', data: { text }, fix: (fixer: TSESLint.RuleFixer) => fixer.replaceText(ttlNode, clamp) }],
          });
        }
      },
    };
  },
});
