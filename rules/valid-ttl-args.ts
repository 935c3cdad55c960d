/**
 * `valid-ttl-args`: an expiry written in a shape the client silently drops or misreads, so the
 * key gets no TTL although the code spells one (`redis-calls/normalize.ts` decides, per client,
 * what is really sent: {@link DroppedArgument}). ioredis-style tokens passed to node-redis, an
 * option key in the other client's casing (`{ ex }` for node-redis, `{ EX }` for @upstash/redis),
 * a non-number upstash expiry, an expiry value that may be `undefined`, TTL tokens on a command
 * without TTL syntax (`hset(k, f, v, 'EX', 60)`), and KEEPTTL together with an expiry. A bare
 * number as node-redis SET options carries no TTL syntax at all: `set-requires-ttl-or-keepttl`
 * reports that SET.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { createRule } from './create-rule.js';
import { redisCallsOf, type RedisCall } from '../redis-calls/index.js';
import { optionObjectArgv, type DroppedArgument } from '../redis-calls/normalize.js';
import { nullishOnSomeBranch } from '../redis-calls/empty-tokens.js';
import { passedByEveryCaller } from '../redis-calls/facades.js';
import { staticValue, unwrap } from '../redis-calls/static.js';
import { describeCommand } from '../semantics/commands.js';

/** Messages of the rule and of its suggestions. */
export type MessageIds =
  | 'positionalTokens'
  | 'optionCasing'
  | 'notANumber'
  | 'mayBeUndefined'
  | 'noTtlSyntax'
  | 'keepTtlWithExpiry'
  | 'unknownOption'
  | 'conflictingOptions'
  | 'objectOptions'
  | 'emptyToken'
  | 'leaveOut'
  | 'useTokens'
  | 'nameExpiry'
  | 'useOptionsObject'
  | 'renameOption'
  | 'wrapNumber';

const CLIENT_NAMES: Record<string, string> = { 'node-redis': 'node-redis', 'node-redis-3': 'node-redis 3', upstash: '@upstash/redis', ioredis: 'ioredis', unknown: 'the client' };

export default createRule<[], MessageIds>({
  name: 'valid-ttl-args',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow expiry arguments the Redis client silently drops or misreads (option shapes, casing, undefined values, TTL tokens on commands without TTL syntax).',
      recommended: true,
      strict: true,
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      positionalTokens:
        "{{client}} takes SET options as one object, not ioredis-style tokens: `{{text}}` and what follows are never sent, so the SET goes out without {{what}}. Pass an object: `{ EX: seconds }` or `{ expiration: { type: 'EX', value: seconds } }`.",
      optionCasing:
        '{{client}} reads `{{expected}}`, not `{{option}}`: this expiry is never sent and the key is written without TTL (TypeScript catches it only on a typed options object). Spell it `{{expected}}`.',
      notANumber:
        '@upstash/redis sends `{{option}}` only when it is a number: `{{text}}` is dropped and the key is written without TTL. Pass a number: `Number({{text}})`.',
      mayBeUndefined:
        '`{{text}}` may be undefined here, and {{client}} then sends no `{{option}}`: the key is written without TTL. Give it a default (`{{text}} ?? DEFAULT_TTL_SECONDS`) or branch on it.',
      noTtlSyntax:
        '{{command}} has no expiry option: `{{option}}` {{fate}}, and the key is created without TTL. Send {{command}} and an EXPIRE of the key in one MULTI (or a Lua script).',
      keepTtlWithExpiry:
        'KEEPTTL and `{{option}}` exclude each other: Redis rejects the pair ("syntax error"), and node-redis / @upstash/redis send only one. Keep the expiry to set a new TTL, or KEEPTTL to keep the current one.',
      objectOptions:
        '{{client}} sends {{command}} options as Redis tokens, one per argument: `{{text}}` goes out as `[object Object]`, Redis answers "syntax error" and the key is never written. Pass tokens: `\'EX\', seconds`.',
      useTokens: 'Pass the options as tokens: `{{replacement}}`.',
      emptyToken:
        'ioredis sends `undefined` and `null` as an empty argument: when `{{text}}` is one, {{command}} goes out with `""` there, Redis rejects it ("syntax error" / "value is not an integer") and the key is never written. Leave the argument out on that branch: `...(cond ? [token] : [])`.',
      leaveOut: 'Leave it out when it is undefined: `{{replacement}}`.',
      conflictingOptions:
        '`{{option}}` and `{{other}}` exclude each other: Redis answers "syntax error" to the whole {{command}}, so the key is never written. Keep one of them.',
      unknownOption:
        '{{command}} has no option `{{token}}`: Redis answers "syntax error" to the whole command, so the key is never written. {{fix}}',
      useOptionsObject: 'Pass the options as an object: {{replacement}}.',
      nameExpiry: 'Send it as EX seconds: `{{replacement}}`.',
      renameOption: 'Rename `{{option}}` to `{{expected}}`.',
      wrapNumber: 'Convert it with Number(...).',
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    const text = (node: TSESTree.Node): string => {
      const raw = sourceCode.getText(node).replace(/\s+/g, ' ');
      return raw.length <= 50 ? raw : `${raw.slice(0, 47)}...`;
    };

    /**
     * The tokens an options object literal stands for, as `redis-calls/normalize.ts`
     * optionObjectArgv reads it (`{ EX: 60, NX: true }` -> `'EX', 60, 'NX'`; node-redis 5's
     * `{ expiration: { type: 'EX', value: 60 }, condition: 'NX' }` -> `'EX', 60, 'NX'`; a flag set
     * to `false` sends nothing). Option names are written upper-case, values as written. Undefined
     * when an entry cannot be written as a token (a spread, a computed key, a value read from an
     * inner object that is not a literal), when nothing would be sent, or unless the command table
     * reads the tokens as options of `command` it knows, none excluding another. A cast of the
     * literal (`{ EX: ttl, NX: true } as any`, `as never`, `<any>{ ... }`), written to silence
     * the client's types, stands for the literal: the whole cast is what the tokens replace.
     */
    function tokensFor(command: string, written: TSESTree.Node): string | undefined {
      const node = unwrap(written);
      if (node.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
      const { args, nodes } = optionObjectArgv(context, node);
      if (args.length === 0) return undefined;
      const tokens: string[] = [];
      for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        const at = nodes[i];
        const property = at?.parent;
        if (at && property?.type === AST_NODE_TYPES.Property && property.parent === node) {
          if (property.key === at && typeof arg === 'string') tokens.push(`'${arg.toUpperCase()}'`);
          else if (property.value === at) tokens.push(sourceCode.getText(at));
          else return undefined;
        } else if (at && !(property?.type === AST_NODE_TYPES.Property && property.value === at && property.parent.parent?.parent === node)) return undefined;
        // an entry read from an inner object (`expiration: { type: 'EX', value: 60 }`, whose
        // value's node normalize.ts keeps for ttl-units): its value
        else if (typeof arg === 'number') tokens.push(String(arg));
        else if (typeof arg === 'string' && /^\w+$/.test(arg)) tokens.push(`'${arg.toUpperCase()}'`);
        else return undefined;
      }
      const description = describeCommand(command, [...(command === 'SET' ? ['key', 'value'] : ['key']), ...args]);
      return description.known && !description.rejected && !description.unknownOption && !description.conflictingOption ? tokens.join(', ') : undefined;
    }

    function report(call: RedisCall, dropped: DroppedArgument): void {
      const client = CLIENT_NAMES[call.flavor] ?? 'the client';
      switch (dropped.kind) {
        case 'positional-tokens': {
          const replacement = optionsObjectFor(call);
          context.report({
            node: dropped.node,
            messageId: 'positionalTokens',
            data: { client, text: text(dropped.node), what: dropped.ttl ? 'its expiry' : 'its options' },
            suggest: replacement
              ? [
                  {
                    messageId: 'useOptionsObject',
                    data: { replacement: replacement.text },
                    fix: (fixer: TSESLint.RuleFixer) => fixer.replaceTextRange(replacement.range, replacement.text),
                  },
                ]
              : [],
          });
          return;
        }
        case 'option-casing':
          context.report({
            node: dropped.node,
            messageId: 'optionCasing',
            data: { client, option: dropped.option ?? '', expected: dropped.expected ?? '' },
            suggest: [
              {
                messageId: 'renameOption',
                data: { option: dropped.option ?? '', expected: dropped.expected ?? '' },
                fix: (fixer: TSESLint.RuleFixer) => fixer.replaceText(dropped.node, dropped.expected ?? ''),
              },
            ],
          });
          return;
        case 'not-a-number':
          context.report({
            node: dropped.node,
            messageId: 'notANumber',
            data: { option: dropped.option ?? 'ex', text: text(dropped.node) },
            suggest: [
              {
                messageId: 'wrapNumber',
                fix: (fixer: TSESLint.RuleFixer) => fixer.replaceText(dropped.node, `Number(${sourceCode.getText(dropped.node)})`),
              },
            ],
          });
          return;
        case 'may-be-undefined':
          context.report({ node: dropped.node, messageId: 'mayBeUndefined', data: { client, option: dropped.option ?? '', text: text(dropped.node) } });
          return;
        case 'no-ttl-syntax':
          context.report({
            node: dropped.node,
            messageId: 'noTtlSyntax',
            data: {
              command: call.command,
              option: dropped.option ?? '',
              fate: dropped.node.type === AST_NODE_TYPES.Literal ? 'and the value after it are written as data' : 'is not an option of this command (the client drops or sends it as data)',
            },
          });
          return;
        case 'keepttl-with-expiry':
          context.report({ node: dropped.node, messageId: 'keepTtlWithExpiry', data: { option: dropped.option ?? 'EX' } });
          return;
        case 'unknown-option': {
          context.report({
            node: dropped.node,
            messageId: 'unknownOption',
            data: {
              command: call.command,
              token: dropped.option ?? '',
              fix: dropped.ttl
                ? "A TTL needs its option before it: `'EX', seconds` or `'PX', milliseconds`."
                : `Remove it, or spell one of the options ${call.command} has.`,
            },
            suggest: dropped.ttl
              ? [
                  {
                    messageId: 'nameExpiry',
                    data: { replacement: `'EX', ${sourceCode.getText(dropped.node)}` },
                    fix: (fixer: TSESLint.RuleFixer) => fixer.insertTextBefore(dropped.node, "'EX', "),
                  },
                ]
              : [],
          });
          return;
        }
        case 'object-options': {
          const tokens = tokensFor(call.command, dropped.node);
          context.report({
            node: dropped.node,
            messageId: 'objectOptions',
            data: { client, command: call.command, text: text(dropped.node) },
            suggest: tokens
              ? [{ messageId: 'useTokens', data: { replacement: tokens }, fix: (fixer: TSESLint.RuleFixer) => fixer.replaceText(dropped.node, tokens) }]
              : [],
          });
          return;
        }
        case 'conflicting-options':
          context.report({ node: dropped.node, messageId: 'conflictingOptions', data: { option: dropped.option ?? '', other: dropped.conflictsWith ?? '', command: call.command } });
          return;
        case 'empty-token': {
          const replacement = spreadFor(call, dropped.node);
          context.report({
            node: dropped.node,
            messageId: 'emptyToken',
            data: { text: text(dropped.node), command: call.command },
            suggest: replacement
              ? [{ messageId: 'leaveOut', data: { replacement }, fix: (fixer: TSESLint.RuleFixer) => fixer.replaceText(dropped.node, replacement) }]
              : [],
          });
          return;
        }
        case 'number-as-options':
          return; // set-requires-ttl-or-keepttl's
      }
    }

    /**
     * `nx ? 'NX' : undefined`, an argument of the call itself, as a spread that sends nothing on the
     * nullish arm: `...(nx ? ['NX'] : [])`. `undefined` for any other shape, and when the command
     * without that argument is one Redis rejects too (a TTL after `'EX'`).
     */
    function spreadFor(call: RedisCall, node: TSESTree.Node): string | undefined {
      if (node.type !== AST_NODE_TYPES.ConditionalExpression || call.node.type !== AST_NODE_TYPES.CallExpression || !call.node.arguments.includes(node as TSESTree.CallExpressionArgument)) return undefined;
      // not the TTL itself (`SET k v EX` and `SETEX k v` are rejected too), and the command without
      // the argument must be one Redis takes
      const at = call.argNodes.indexOf(node);
      if (at < 0 || call.description.ttl?.arg === at) return undefined;
      const without = describeCommand(call.command, [...call.args.slice(0, at), ...call.args.slice(at + 1)]);
      if (without.rejected || without.rejectedWhenExists) return undefined;
      const arm = (branch: TSESTree.Node): string | undefined => {
        if (branch.type === AST_NODE_TYPES.ConditionalExpression) return undefined;
        return nullishOnSomeBranch(context, branch) ? '[]' : `[${sourceCode.getText(branch)}]`;
      };
      const consequent = arm(node.consequent);
      const alternate = arm(node.alternate);
      if (!consequent || !alternate || (consequent === '[]') === (alternate === '[]')) return undefined;
      return `...(${sourceCode.getText(node.test)} ? ${consequent} : ${alternate})`;
    }

    /** `set(k, v, 'EX', 60, 'NX')` -> `{ EX: 60, NX: true }`, when every token is a literal. */
    function optionsObjectFor(call: RedisCall): { range: [number, number]; text: string } | undefined {
      if (call.node.type !== AST_NODE_TYPES.CallExpression) return undefined;
      const rest = call.argumentNodes.slice(2);
      const parts: string[] = [];
      for (let i = 0; i < rest.length; i++) {
        const token = staticValue(context, rest[i]!);
        if (typeof token !== 'string') return undefined;
        const upper = token.toUpperCase();
        if (['EX', 'PX', 'EXAT', 'PXAT'].includes(upper)) {
          const value = rest[i + 1];
          if (!value || value.type === AST_NODE_TYPES.SpreadElement) return undefined;
          parts.push(`${upper}: ${sourceCode.getText(value)}`);
          i++;
        } else if (['NX', 'XX', 'GET', 'KEEPTTL'].includes(upper)) parts.push(`${upper}: true`);
        else return undefined;
      }
      const first = rest[0];
      const last = rest[rest.length - 1];
      if (!first || !last) return undefined;
      return { range: [first.range[0], last.range[1]], text: `{ ${parts.join(', ')} }` };
    }

    return {
      CallExpression(node: TSESTree.CallExpression) {
        for (const call of redisCallsOf(context, node)) {
          for (const dropped of call.dropped ?? []) {
            // `{ EX: ttl }` with an optional `ttl` every caller of the wrapper passes: always sent
            if (dropped.kind === 'may-be-undefined' && passedByEveryCaller(context, dropped.node)) continue;
            report(call, dropped);
          }
        }
      },
    };
  },
});
