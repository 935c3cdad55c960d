/**
 * `embedded-lua`: runs the lua-lint analyzer on Lua scripts written in the file (ioredis `eval` /
 * `defineCommand`, node-redis `eval` / `defineScript`, upstash `eval` / `createScript`) and reports
 * each finding at its exact place inside the string or template literal. The Lua rules and their
 * verdicts are the analyzer's; this rule only finds scripts and maps positions.
 */
import type { JSONSchema, TSESTree } from '@typescript-eslint/utils';
import { analyzeLua, RULE_IDS, type AnalyzeOptions, type LuaRuleId } from '../lua-lint/index.js';
import { createRule } from './create-rule.js';
import { embeddedScriptsOf } from './redis-calls/lua.js';

/** A Lua rule severity as written in options. */
export type LuaSeverityOption = 'off' | 'warn' | 'error' | 0 | 1 | 2;

/** Options of the rule: the same as the `lua-lint` CLI's configuration. */
export type Options = [
  {
    /** Severity per Lua rule id; `'off'` hides that rule's findings. */
    rules?: Partial<Record<LuaRuleId, LuaSeverityOption>>;
    /** Keys persistent on purpose: KEYS indices (`2`) or spellings (`'KEYS[2]'`, `'job_*'`). */
    persistentKeys?: Array<string | number>;
  },
];
/** Messages of the rule. */
export type MessageIds = 'luaFinding' | 'luaParseError';

const severitySchema: JSONSchema.JSONSchema4 = {
  description: "Severity of this Lua rule: 'off' (0), 'warn' (1) or 'error' (2).",
  oneOf: [
    { type: 'string', enum: ['off', 'warn', 'error'] },
    { type: 'integer', enum: [0, 1, 2] },
  ],
};

export default createRule<Options, MessageIds>({
  name: 'embedded-lua',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Analyse Lua scripts embedded in eval / defineCommand / defineScript / createScript calls with lua-lint and report TTL leaks inside them.',
      recommended: true,
      strict: true,
    },
    schema: [
      {
        type: 'object',
        description: 'Options passed to the lua-lint analyzer.',
        properties: {
          rules: {
            type: 'object',
            description: 'Severity per Lua rule id, as in the lua-lint configuration.',
            properties: Object.fromEntries(RULE_IDS.map((id) => [id, severitySchema])),
            additionalProperties: false,
          },
          persistentKeys: {
            type: 'array',
            description: 'Keys that are persistent on purpose: 1-based KEYS indices, or key spellings with * wildcards.',
            items: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 1 }] },
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      luaFinding: '[{{ruleId}}] {{message}}',
      luaParseError: '[parse-error] The embedded Lua script does not parse, so Redis rejects it and nothing about its TTLs can be checked: {{message}}',
    },
  },
  defaultOptions: [{}],
  create(context, [options]) {
    const analyzeOptions: AnalyzeOptions = {
      ...(options.rules ? { rules: options.rules } : {}),
      ...(options.persistentKeys ? { persistentKeys: options.persistentKeys } : {}),
    };
    const seen = new Set<TSESTree.Node>();
    const sourceCode = context.sourceCode;
    return {
      CallExpression(node: TSESTree.CallExpression) {
        for (const script of embeddedScriptsOf(context, node)) {
          // A script held in a const and used by several calls is reported once, at the script.
          if (seen.has(script.literal)) continue;
          seen.add(script.literal);
          // Messages name lines of this file, not of the script ("returns at line 14").
          const messageLine = (offset: number): number => sourceCode.getLocFromIndex(script.toFileOffset(offset)).line;
          for (const finding of analyzeLua(script.source, { ...analyzeOptions, messageLine })) {
            const start = sourceCode.getLocFromIndex(script.toFileOffset(finding.offset));
            const end = sourceCode.getLocFromIndex(script.toFileOffset(Math.max(finding.endOffset, finding.offset)));
            if (finding.ruleId === null) {
              context.report({ node: script.literal, loc: { start, end }, messageId: 'luaParseError', data: { message: finding.message } });
            } else {
              context.report({
                node: script.literal,
                loc: { start, end },
                messageId: 'luaFinding',
                data: { ruleId: finding.ruleId, message: finding.message },
              });
            }
          }
        }
      },
    };
  },
});
