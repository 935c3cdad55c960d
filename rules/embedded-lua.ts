/**
 * `embedded-lua`: runs the lua-lint analyzer on Lua scripts written in the file (ioredis `eval` /
 * `defineCommand`, node-redis `eval` / `defineScript`, upstash `eval` / `createScript`) and reports
 * each finding at its exact place inside the string or template literal. The Lua rules and their
 * verdicts are the analyzer's; this rule only finds scripts and maps positions.
 *
 * Persistent keys: the rule's `persistentKeys` option, the patterns of
 * `settings['redis-ttl'].persistentKeys` (also matched against key spellings inside the script),
 * and, for `eval` calls, every `KEYS[i]` whose argument at the call is a persistent key of the
 * JS/TS code (its shape matches the setting, or it is annotated `// redis-ttl persistent: ...`);
 * for a script loaded with `scriptLoad`, every `KEYS[i]` that every `evalSha` of its digest in the
 * file passes a persistent key as (`redis-calls/loaded-script-calls.ts`).
 * With `allowOpaqueKeys` (on in `recommended`), also a `KEYS[i]` whose argument is an opaque key
 * built by a key helper that nothing says is meant to expire (`redis-calls/opaque-key.ts`), when
 * the script itself names no expiry and no temporary key either.
 *
 * Caller-chosen TTLs: a leak lua-lint marks `optionalTtl` (the only expiry the path misses is
 * skipped by a test of the ARGV value passed as its TTL, `if ttl > 0 then PEXPIRE k ttl end`) is
 * the script's mirror of the key rules' `if (ttl) ... else ...` arm: with `allowOptionalTtl` (on
 * in `recommended`) it is not reported.
 *
 * Queue structures another script drains: with `allowConsumedQueues` (on in `recommended`), a
 * `KEYS[i]` (or a key built in the script) the script adds members to that another script of the
 * file, called from code that may run, takes them off again (the same members removed by name, or
 * the key popped) is taken as kept by the code (`redis-calls/script-consumers.ts`), as the key
 * rules take a queue its consumer pops.
 *
 * Keys every call fixes: with `allowConstantKeys` (on in `recommended`), a `KEYS[i]` every call
 * of the script (its `eval`s, or a defined command's calls across the application) passes one
 * bounded key as, read with the key rules' own decision (a literal, a `const`, a member of a const
 * object, a key builder called with constants only: `redis-calls/policy.ts` unexpiredBoundedKey),
 * that neither the file nor the script gives a TTL, is kept, as the key rules keep
 * `redis.set(CONST_KEY, v)` (`redis-calls/script-fixed-keys.ts`).
 *
 * Cluster routing: `key-must-come-from-keys` (a key not passed in KEYS breaks on a Cluster) is not
 * reported for a script sent through a client that never talks to a Cluster
 * (`redis-calls/standalone-client.ts`): one built for one server (`new Redis(url)`,
 * `createClient()`) in this file or the module it is imported from, one declared with the
 * standalone client's type, or any client of an application that builds no Cluster client
 * (`redis-calls/cluster-free.ts`).
 */
import type { JSONSchema, TSESTree } from '@typescript-eslint/utils';
import { analyzeLua, parseSeverity, RULE_IDS, type AnalyzeOptions } from '../lua-lint/index.js';
import { builtAtRunTimeMessage } from '../lua-lint/messages.js';
import type { EmbeddedLuaOptions } from './options.js';
import { createRule } from './create-rule.js';
import { keyShapeOf } from '../redis-calls/key-shape.js';
import { embeddedScriptsOf, type EmbeddedScript } from '../redis-calls/lua.js';
import { opaqueKeyNotMeantToExpire, textSaysTemporary } from '../redis-calls/opaque-key.js';
import { helperKeyPersistent } from '../redis-calls/helper-keys.js';
import { callersDecide } from '../redis-calls/wrapper-callers.js';
import { definedCommandCallersElsewhere, inListedApplication } from '../redis-calls/defined-command-callers.js';
import { persistentPattern, persistentReason } from '../redis-calls/persistent.js';
import { pluginSettings } from '../redis-calls/settings.js';
import { sentThroughStandaloneClient } from '../redis-calls/standalone-client.js';
import { drainedByOtherScripts } from '../redis-calls/script-consumers.js';
import { fixedScriptKeys } from '../redis-calls/script-fixed-keys.js';

export type { LuaSeverityOption } from './options.js';

/** Options of the rule: the same as the `lua-lint` CLI's configuration (exported from the package root). */
export type Options = [EmbeddedLuaOptions];
/** Messages of the rule. */
export type MessageIds = 'luaFinding' | 'luaFindingImported' | 'luaParseError';

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
            items: { oneOf: [{ type: 'string', minLength: 1 }, { type: 'integer', minimum: 1 }] },
          },
          allowOptionalTtl: {
            type: 'boolean',
            description:
              'Do not report a leak that happens only where the caller passed no TTL (the only expiry the path misses is skipped by a test of the ARGV value passed as its TTL: if ttl > 0 then PEXPIRE k ttl end). Default true; false in the strict config.',
          },
          allowOpaqueKeys: {
            type: 'boolean',
            description:
              'Do not report a KEYS[i] whose argument at the eval is an opaque key built by a key helper (no persistentKeys pattern can name it) when neither the file nor the script says a key is meant to expire. Default true; false in the strict config.',
          },
          allowConstantKeys: {
            type: 'boolean',
            description:
              "Do not report a KEYS[i] that every call of the script (its evals in the file, or a defined command's calls across the application) passes one bounded key as (a literal, a const, a member of a const object, a key builder called with constants only, a member fixed once per instance), when neither the file nor the script gives that key a TTL: one key cannot pile up keys, as the key rules' allowConstantKeys. Default true; false in the strict config.",
          },
          allowConsumedQueues: {
            type: 'boolean',
            description:
              'Do not report a KEYS[i] the script adds members to (ZADD, SADD, HSET, RPUSH ...) when another script of the file, called from code that may run, removes the same members from the same key by name (ZREM, SREM, HDEL) or pops it (ZPOPMIN, LPOP ...): Redis deletes the emptied collection. Default true; false in the strict config.',
          },
          strict: {
            type: 'boolean',
            description: "lua-lint's strict mode: also report a TTL taken from ARGV that the script never checks (default false; true in the strict config).",
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      luaFinding: '[{{ruleId}}] {{message}}',
      luaFindingImported: '[{{ruleId}}] In the script at {{where}}: {{message}}',
      luaParseError: '[parse-error] The embedded Lua script does not parse, so Redis rejects it and no TTL in it can be checked: {{message}}',
    },
  },
  defaultOptions: [{}],
  create(context, [options]) {
    const settings = pluginSettings(context);
    const settingPatterns = settings.persistentKeys.map((p) => p.pattern);
    const configured = [...(options.persistentKeys ?? []), ...settingPatterns];
    const analyzeOptions: AnalyzeOptions = {
      ...(options.rules ? { rules: options.rules } : {}),
      ...(options.strict ? { strict: true } : {}),
      ...(settings.redisVersion ? { redisVersion: settings.redisVersion.text } : {}),
      ...(configured.length > 0 ? { persistentKeys: configured } : {}),
      // every finding, marked: this rule decides which caller-chosen TTLs to report
      allowOptionalTtl: false,
    };
    const allowOptionalTtl = options.allowOptionalTtl ?? options.strict !== true;
    const allowOpaqueKeys = options.allowOpaqueKeys ?? options.strict !== true;
    const allowConsumedQueues = options.allowConsumedQueues ?? options.strict !== true;
    const allowConstantKeys = options.allowConstantKeys ?? options.strict !== true;
    /**
     * KEYS indices (1-based) whose argument at the eval call is a persistent key of the JS/TS code,
     * or (`allowOpaqueKeys`) an opaque key nothing says is meant to expire.
     */
    const persistentIndices = (script: EmbeddedScript, call: TSESTree.CallExpression | TSESTree.NewExpression): number[] => {
      const opaqueAllowed = allowOpaqueKeys && !textSaysTemporary(script.source);
      const persistentKey = (keyNode: TSESTree.Node, at: TSESTree.Node): boolean => {
        const shape = keyShapeOf(context, keyNode);
        return (
          persistentReason(context, at, shape) !== undefined ||
          (opaqueAllowed && opaqueKeyNotMeantToExpire(context, keyNode, shape)) ||
          helperKeyPersistent(context, keyNode) ||
          // a wrapper method's key every caller reaching the eval passes persistent (wrapper-callers.ts)
          callersDecide(context, at, keyNode, undefined, { allowConstantKeys: false }) === 'persistent'
        );
      };
      if (script.keyArgs) return script.keyArgs.flatMap((keyNode, index) => (persistentKey(keyNode, call) ? [index + 1] : []));
      // a script loaded once (SCRIPT LOAD): a KEYS[i] every EVALSHA of its digest passes a persistent key as
      if (script.loadedCallerKeys) {
        const runs = script.loadedCallerKeys;
        const width = runs.length === 0 ? 0 : Math.min(...runs.map((keys) => keys.length));
        return Array.from({ length: width }, (_, index) => index).flatMap((index) =>
          runs.every((keys) => persistentKey(keys[index]!, keys[index]!.parent ?? call)) ? [index + 1] : [],
        );
      }
      // a defined command: a KEYS[i] every call of it in the file passes a persistent key as
      const calls = script.callerKeys ?? [];
      const persistentInFile = (index: number) => calls.every((keys) => persistentKey(keys[index]!, keys[index]!.parent ?? call));
      // KEYS[index] every call in the application's other modules passes under a persistent pattern
      const persistentElsewhere = (others: NonNullable<ReturnType<typeof definedCommandCallersElsewhere>>, index: number) =>
        others.every(({ keys, context: at }) => persistentPattern(at, keyShapeOf(at, keys[index]!)) !== undefined || helperKeyPersistent(at, keys[index]!));
      // in an application, the client may be exported and the command called in other modules
      // too: a call there with a run-time key keeps the finding, whatever the file's own calls pass
      if (calls.length > 0 && call.type === 'CallExpression' && inListedApplication(context)) {
        const others = definedCommandCallersElsewhere(context, call);
        if (!others) return [];
        return calls[0]!.flatMap((_, index) => (persistentInFile(index) && persistentElsewhere(others, index) ? [index + 1] : []));
      }
      if (calls.length === 0) {
        // none in the file: its calls in the other modules of the application (a client exported
        // with the command defined on it), judged in their own modules by the key policy's pattern
        const others = script.callerKeys && call.type === 'CallExpression' ? definedCommandCallersElsewhere(context, call) : undefined;
        if (!others || others.length === 0) return [];
        return others[0]!.keys.flatMap((_, index) => (persistentElsewhere(others, index) ? [index + 1] : []));
      }
      return calls[0]!.flatMap((_, index) => (persistentInFile(index) ? [index + 1] : []));
    };
    const seen = new Set<TSESTree.Node>();
    const sourceCode = context.sourceCode;
    const unanalyzable = options.rules?.['unanalyzable-command'];
    const reportUnreadable = unanalyzable === undefined || parseSeverity(unanalyzable) !== 0;
    const check = (node: TSESTree.CallExpression | TSESTree.NewExpression): void => {
        for (const found of embeddedScriptsOf(context, node)) {
          if ('unreadable' in found) {
            // built at run time: one finding that says so (lua-lint's unanalyzable-command), never silence
            if (reportUnreadable && !seen.has(found.node)) {
              seen.add(found.node);
              context.report({
                node: found.node,
                messageId: 'luaFinding',
                data: { ruleId: 'unanalyzable-command', message: builtAtRunTimeMessage(found.via, found.how) },
              });
            }
            continue;
          }
          const script = found;
          // A script held in a const and used by several calls is reported once, at the script.
          if (seen.has(script.literal)) continue;
          seen.add(script.literal);
          // Messages name places of this file, not of the script ("returns at line 14, column 3"),
          // or of the module a script was imported from ("line 9, column 3 of ./scripts.ts").
          const messagePosition = (offset: number): { line: number; column: number } => {
            const loc = sourceCode.getLocFromIndex(script.toFileOffset(offset));
            return { line: loc.line, column: loc.column + 1 };
          };
          const indices = persistentIndices(script, node);
          // a work structure another script of the file removes the members of (ack, dequeue): the
          // script mirror of a queue its consumer drains (`redis-calls/script-consumers.ts`)
          const drained = allowConsumedQueues ? drainedByOtherScripts(context, script) : [];
          // a KEYS[i] every call fixes to one key nothing expires: bounded, as the key rules'
          // constant key (`redis-calls/script-fixed-keys.ts`)
          const fixed = allowConstantKeys ? fixedScriptKeys(context, script, node) : [];
          const persistentKeys = [...(analyzeOptions.persistentKeys ?? []), ...indices, ...drained, ...fixed];
          const perScript: AnalyzeOptions = {
            ...analyzeOptions,
            ...(persistentKeys.length > 0 ? { persistentKeys } : {}),
            messagePosition: script.modulePosition ?? messagePosition,
          };
          // sent through a client of one server, never a Cluster: its routing rule does not apply
          const standalone = sentThroughStandaloneClient(context, node);
          for (const finding of analyzeLua(script.source, perScript)) {
            // the caller chose no TTL (0 = none): reported in strict only, as in the key rules
            if (finding.optionalTtl && allowOptionalTtl) continue;
            if (standalone && finding.ruleId === 'key-must-come-from-keys') continue;
            if (script.importedFrom) {
              // the literal's position in its module, plus the finding's line inside the script
              const [, file, line] = /^(.*):(\d+):\d+$/.exec(script.importedFrom) ?? [];
              const where = `${file ?? script.importedFrom}:${Number(line ?? 1) + finding.line - 1}`;
              context.report({
                node: script.literal,
                messageId: finding.ruleId === null ? 'luaParseError' : 'luaFindingImported',
                data: { ruleId: finding.ruleId ?? 'parse-error', where, message: finding.message },
              });
              continue;
            }
            const start = sourceCode.getLocFromIndex(script.toFileOffset(finding.offset));
            const end = sourceCode.getLocFromIndex((script.toFileEndOffset ?? script.toFileOffset)(Math.max(finding.endOffset, finding.offset)));
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
    };
    return {
      CallExpression: check,
      // Valkey GLIDE: new Script(code)
      NewExpression: check,
    };
  },
});
