/**
 * `ttl-units`: a TTL in the wrong unit for the command or option it reaches. Redis reads EX,
 * EXPIRE, SETEX and HEXPIRE in seconds, PX, PEXPIRE, PSETEX and HPEXPIRE in milliseconds, EXAT /
 * EXPIREAT as a Unix time in seconds and PXAT / PEXPIREAT in milliseconds (the command table's
 * `ttl.unit`). Milliseconds as seconds make a key live 1000 times longer (5 minutes become 3.5
 * days), seconds as milliseconds 1000 times shorter, a Unix time as a TTL makes it live for
 * decades, and a TTL as a Unix time is a moment in 1970, so the expiry deletes the key at once.
 * The value's unit comes from its names (`ttlMs`, `WINDOW_SECONDS`, `expiresAt`) and clock
 * arithmetic (`Date.now()`, `getTime()`, `* 1000`, `/ 1000`): `semantics/ttl-units.ts`,
 * `redis-calls/ttl-value.ts`. The same rule id as lua-lint's.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { expectedUnit, unitMismatch } from '../semantics/ttl-units.js';
import { createRule } from './create-rule.js';
import { redisCallsOf, type RedisCall } from '../redis-calls/index.js';
import { propertyName, staticValue } from '../redis-calls/static.js';
import { describedWithTtl, guessUnit, shortText, ttlArgumentsOf, ttlValue } from '../redis-calls/ttl-value.js';

/** Messages of the rule and of its suggestion. */
export type MessageIds = 'msAsSeconds' | 'secondsAsMs' | 'absoluteAsDuration' | 'durationAsAbsolute' | 'absoluteUnit' | 'useInstead';

/** The command or option that takes the value in the unit it has: by the TTL's current spelling and the unit found. */
const SWITCH: Record<string, Partial<Record<'seconds' | 'milliseconds' | 'unix-seconds' | 'unix-milliseconds', string>>> = {
  EX: { milliseconds: 'PX', 'unix-seconds': 'EXAT', 'unix-milliseconds': 'PXAT' },
  PX: { seconds: 'EX', 'unix-seconds': 'EXAT', 'unix-milliseconds': 'PXAT' },
  EXAT: { 'unix-milliseconds': 'PXAT', seconds: 'EX', milliseconds: 'PX' },
  PXAT: { 'unix-seconds': 'EXAT', seconds: 'EX', milliseconds: 'PX' },
  EXPIRE: { milliseconds: 'PEXPIRE', 'unix-seconds': 'EXPIREAT', 'unix-milliseconds': 'PEXPIREAT' },
  PEXPIRE: { seconds: 'EXPIRE', 'unix-seconds': 'EXPIREAT', 'unix-milliseconds': 'PEXPIREAT' },
  EXPIREAT: { 'unix-milliseconds': 'PEXPIREAT', seconds: 'EXPIRE', milliseconds: 'PEXPIRE' },
  PEXPIREAT: { 'unix-seconds': 'EXPIREAT', seconds: 'EXPIRE', milliseconds: 'PEXPIRE' },
  SETEX: { milliseconds: 'PSETEX' },
  PSETEX: { seconds: 'SETEX' },
  HEXPIRE: { milliseconds: 'HPEXPIRE', 'unix-seconds': 'HEXPIREAT', 'unix-milliseconds': 'HPEXPIREAT' },
  HPEXPIRE: { seconds: 'HEXPIRE', 'unix-seconds': 'HEXPIREAT', 'unix-milliseconds': 'HPEXPIREAT' },
};

export default createRule<[], MessageIds>({
  name: 'ttl-units',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow TTLs in the wrong unit: milliseconds as EX seconds and the reverse, Unix times as TTLs and TTLs as Unix times.',
      recommended: true,
      strict: true,
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      msAsSeconds: '{{where}} counts seconds, but `{{text}}` is in milliseconds ({{why}}): the key lives 1000 times longer than meant. {{fixText}}',
      secondsAsMs: '{{where}} counts milliseconds, but `{{text}}` is in seconds ({{why}}): the key expires 1000 times sooner than meant. {{fixText}}',
      absoluteAsDuration: '{{where}} takes a duration, but `{{text}}` is a point in time ({{why}}): as a TTL it keeps the key for decades. {{fixText}}',
      durationAsAbsolute: '{{where}} takes a Unix time, but `{{text}}` is a duration ({{why}}): a time in 1970, so the expiry deletes the key at once. {{fixText}}',
      absoluteUnit: '{{where}} takes a Unix time in {{expected}}, but `{{text}}` is in {{actual}} ({{why}}). {{fixText}}',
      useInstead: 'Use {{replacement}}.',
    },
  },
  defaultOptions: [],
  create(context) {
    return {
      CallExpression(node: TSESTree.CallExpression) {
        for (const { call, ttl, ttlNode } of ttlArgumentsOf(context, node)) {
          const guess = guessUnit(context, ttlNode);
          if (!guess) continue;
          // a constant Redis rejects (`'EX', 1e21`, sent as `1e+21`; an EX whose milliseconds overflow):
          // the write fails whatever its unit, which expire-needs-positive-ttl reports
          const literal = ttlValue(context, ttlNode);
          const described = literal !== undefined ? describedWithTtl(call, literal) : undefined;
          if (described?.rejected || described?.rejectedWhenExists) continue;
          const mismatch = unitMismatch(guess, ttl.unit);
          if (!mismatch) continue;
          const current = call.description.ttlOption ?? call.command;
          // only the unit known (`windowStart + windowSizeMs`): a span or a time, as the command takes
          const kind = guess.unitOnly ? expectedUnit(ttl.unit).kind : guess.kind;
          const found = kind === 'absolute' ? (guess.unit ? (`unix-${guess.unit}` as const) : undefined) : guess.unit;
          const replacement = found ? SWITCH[current]?.[found] : undefined;
          const rewrite = replacement ? rewriteFor(context, call, current, replacement) : undefined;
          const where = call.description.ttlOption ? `${call.description.ttlOption} (of ${call.command})` : call.command;
          const fixText = replacement ? `Use ${replacement}${found?.startsWith('unix') ? ' (it takes a Unix time)' : ''}, or convert the value.` : 'Convert the value to what the command expects.';
          context.report({
            node: ttlNode,
            messageId:
              mismatch === 'ms-as-seconds'
                ? 'msAsSeconds'
                : mismatch === 'seconds-as-ms'
                  ? 'secondsAsMs'
                  : mismatch === 'absolute-as-duration'
                    ? 'absoluteAsDuration'
                    : mismatch === 'duration-as-absolute'
                      ? 'durationAsAbsolute'
                      : 'absoluteUnit',
            data: {
              where,
              text: shortText(context, ttlNode),
              why: guess.why,
              fixText,
              expected: ttl.unit === 'unix-seconds' ? 'seconds' : 'milliseconds',
              actual: guess.unit ?? '',
            },
            suggest: rewrite && replacement ? [{ messageId: 'useInstead', data: { replacement }, fix: rewrite }] : [],
          });
        }
      },
    };
  },
});

/**
 * The edit that swaps the TTL's command or option for `replacement`: the option token (`'EX'` ->
 * `'PX'`), the option key (`{ EX: n }` -> `{ PX: n }`, `{ ex }` -> `{ px }` for @upstash/redis), or
 * the method name (`expire` -> `pexpire`, node-redis `pExpire`). `undefined` when the spelling
 * cannot be found.
 */
function rewriteFor(
  context: Parameters<typeof redisCallsOf>[0],
  call: RedisCall,
  current: string,
  replacement: string,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined {
  const ttlArg = call.description.ttl!.arg;
  if (call.description.ttlOption) {
    const optionNode = call.argNodes[ttlArg - 1] ?? typeBeside(call.argNodes[ttlArg]);
    if (!optionNode) return undefined;
    if (optionNode.type === AST_NODE_TYPES.Literal && typeof staticValue(context, optionNode) === 'string' && optionNode.raw) {
      const quote = optionNode.raw[0];
      const raw = String(optionNode.value);
      const spelled = raw === raw.toLowerCase() ? replacement.toLowerCase() : replacement;
      return (fixer) => fixer.replaceText(optionNode, `${quote}${spelled}${quote}`);
    }
    if (optionNode.type === AST_NODE_TYPES.Identifier && optionNode.parent?.type === AST_NODE_TYPES.Property && optionNode.parent.key === optionNode) {
      const name = optionNode.name;
      const spelled = name === name.toLowerCase() ? replacement.toLowerCase() : replacement;
      if (optionNode.parent.shorthand) return undefined;
      return (fixer) => fixer.replaceText(optionNode, spelled);
    }
    return undefined;
  }
  if (call.form !== 'method') return undefined;
  const name = propertyName(call.nameNode);
  if (!name || name.toUpperCase() !== current) return undefined;
  const spelled = name === name.toUpperCase() ? replacement : camel(name, replacement, call.flavor);
  return (fixer) => fixer.replaceText(call.nameNode, spelled);
}

/**
 * The `type` string beside an expiry's `value` in node-redis 5's `{ expiration: { type: 'EX', value:
 * ttl } }` and GETEX's `{ type: 'EX', value: ttl }`: the token a unit switch rewrites.
 */
function typeBeside(valueNode: TSESTree.Node | undefined): TSESTree.Node | undefined {
  const property = valueNode?.parent;
  if (property?.type !== AST_NODE_TYPES.Property || property.value !== valueNode || propertyName(property.key) !== 'value') return undefined;
  if (property.parent.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const sibling of property.parent.properties) {
    if (sibling.type === AST_NODE_TYPES.Property && !sibling.computed && propertyName(sibling.key) === 'type' && sibling.value.type === AST_NODE_TYPES.Literal) return sibling.value;
  }
  return undefined;
}

/**
 * The replacement command in the method's own style: `expire` -> `pexpire` (ioredis, @upstash/redis,
 * node-redis 3: lower case), node-redis 4+ `expire` / `pExpire` / `expireAt` -> `pExpire` /
 * `expire` / `pExpireAt` (its camelCase names; a one-word name such as `expire` is lower case and
 * camelCase at once, so the client's flavor decides).
 */
function camel(name: string, replacement: string, flavor: RedisCall['flavor']): string {
  const lower = replacement.toLowerCase();
  if (name === name.toLowerCase() && flavor !== 'node-redis') return lower;
  // node-redis camelCase: pExpire, pExpireAt, expireAt, setEx, pSetEx, hExpire, hpExpire
  const map: Record<string, string> = {
    EXPIRE: 'expire',
    PEXPIRE: 'pExpire',
    EXPIREAT: 'expireAt',
    PEXPIREAT: 'pExpireAt',
    SETEX: 'setEx',
    PSETEX: 'pSetEx',
    HEXPIRE: 'hExpire',
    HPEXPIRE: 'hpExpire',
    HEXPIREAT: 'hExpireAt',
    HPEXPIREAT: 'hpExpireAt',
  };
  return map[replacement] ?? lower;
}
