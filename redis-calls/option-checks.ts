/**
 * What a client drops or Redis rejects in a call's options, before the command table judges the
 * argv Redis really gets (`redis-calls/normalize.ts` calls these once it has flattened a call):
 *
 * - options written in another client's syntax, which node-redis 4+ / @upstash/redis drop
 *   (`set(k, v, 'EX', 60)` on node-redis 4: no TTL sent), or ioredis sends as `[object Object]`;
 * - a TTL given to a command that has no TTL syntax (`hset(k, f, v, 'EX', 60)`);
 * - options of one exclusive group together (`'KEEPTTL', 'EX', 10`; `'NX', 'XX'`), and a token that
 *   is no option of the command, on the clients that send tokens as written.
 *
 * Each finding is a {@link DroppedArgument}: the node it starts at, whether it carried a TTL, and
 * the option involved. Which tokens Redis reads is the command table's (`semantics/commands.ts`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { COMMANDS_WITHOUT_TTL_SYNTAX, type CommandArg, type CommandDescription } from '../semantics/commands.js';
import type { ClientFlavor } from './client-facts.js';
import { constantNumber } from './constant.js';
import type { DroppedArgument, Flattened } from './normalize.js';
import { findVariable, propertyName, resolveConstExpression, staticValue, unwrap, type AnyContext } from './static.js';

/** SET option names as each client spells them in an options object. */
export const NODE_REDIS_SET_OPTIONS: ReadonlySet<string> = new Set(['EX', 'PX', 'EXAT', 'PXAT', 'KEEPTTL', 'NX', 'XX', 'GET', 'expiration', 'condition', 'matchValue']);
export const UPSTASH_SET_OPTIONS: ReadonlySet<string> = new Set(['ex', 'px', 'exat', 'pxat', 'keepTtl', 'nx', 'xx', 'get']);
const EXPIRY_OPTION = /^(?:ex|px|exat|pxat)$/i;
/** ioredis-style SET tokens (ioredis and node-redis 3 send them as written). */
export const SET_TOKENS = /^(?:EX|PX|EXAT|PXAT|KEEPTTL|NX|XX|GET)$/i;

/**
 * What node-redis / @upstash/redis drop from a SET, GETEX or SETEX-like call written in another
 * client's syntax. Removes the dropped entries from `flat`, so that the command table sees the
 * argv Redis really gets.
 */
export function droppedArguments(context: AnyContext, command: string, flavor: ClientFlavor, node: TSESTree.CallExpression, commandArgs: readonly TSESTree.Node[], flat: Flattened): DroppedArgument[] {
  const out: DroppedArgument[] = [];
  if (sendsObjectAsText(command, flavor)) return objectOptions(context, command, commandArgs);
  if ((command !== 'SET' && command !== 'GETEX') || (flavor !== 'node-redis' && flavor !== 'upstash')) return out;
  const optionsAt = command === 'SET' ? 2 : 1;
  const optionsArg = commandArgs[optionsAt];
  if (!optionsArg || optionsArg.type === AST_NODE_TYPES.SpreadElement) return out;
  const options = resolveConstExpression(context, optionsArg);
  if (options.type !== AST_NODE_TYPES.ObjectExpression) {
    const value = staticValue(context, optionsArg);
    const firstIndex = flat.nodes.indexOf(optionsArg);
    if (firstIndex < 0) return out;
    if (typeof value === 'string' && SET_TOKENS.test(value)) {
      // set(k, v, 'EX', 60): the client takes one options object and ignores the rest
      const carriesTtl = commandArgs.slice(optionsAt).some((a) => {
        const token = staticValue(context, a);
        return typeof token === 'string' && EXPIRY_OPTION.test(token);
      });
      out.push({ kind: 'positional-tokens', node: optionsArg, ttl: carriesTtl, option: value });
      flat.args.splice(firstIndex);
      flat.nodes.splice(firstIndex);
    } else if (commandArgs.length === optionsAt + 1 && isNumberLike(context, optionsArg)) {
      out.push({ kind: 'number-as-options', node: optionsArg, ttl: false });
      flat.args.splice(firstIndex);
      flat.nodes.splice(firstIndex);
    }
    return out;
  }
  const reads = flavor === 'node-redis' ? NODE_REDIS_SET_OPTIONS : UPSTASH_SET_OPTIONS;
  let expiry: string | undefined;
  let keepTtl: TSESTree.Node | undefined;
  for (const property of options.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = propertyName(property.key, property.computed);
    if (name === undefined) continue;
    const drop = (entry: DroppedArgument): void => {
      out.push(entry);
      const index = flat.nodes.indexOf(property.key);
      if (index < 0) return;
      const valued = flat.nodes[index + 1] === property.value;
      flat.args.splice(index, valued ? 2 : 1);
      flat.nodes.splice(index, valued ? 2 : 1);
    };
    if (!reads.has(name)) {
      const known = [...reads].find((r) => r.toLowerCase() === name.toLowerCase());
      if (known) drop({ kind: 'option-casing', node: property.key, ttl: EXPIRY_OPTION.test(name), option: name, expected: known });
      continue;
    }
    if (EXPIRY_OPTION.test(name)) {
      if (flavor === 'upstash' && isNonNumber(context, property.value)) {
        drop({ kind: 'not-a-number', node: property.value, ttl: true, option: name });
        continue;
      }
      if (mayBeUndefined(context, property.value, node)) {
        drop({ kind: 'may-be-undefined', node: property.value, ttl: true, option: name });
        continue;
      }
      expiry ??= name;
    }
    if (/^keepttl$/i.test(name) && staticValue(context, property.value) !== false) keepTtl = property.key;
  }
  if (expiry && keepTtl) out.push({ kind: 'keepttl-with-expiry', node: keepTtl, ttl: false, option: expiry });
  return out;
}

/**
 * An options object where ioredis's SET / GETEX take tokens (`set(k, v, { EX: 60 })`, node-redis's
 * syntax): ioredis sends it as the string `[object Object]`, and Redis answers "syntax error" to
 * the whole command (checked with ioredis 5 on redis-server 7.0). `ttl` when it names an expiry.
 */
function objectOptions(context: AnyContext, command: string, commandArgs: readonly TSESTree.Node[]): DroppedArgument[] {
  const optionsArg = commandArgs[command === 'SET' ? 2 : 1];
  if (!optionsArg || optionsArg.type === AST_NODE_TYPES.SpreadElement) return [];
  const options = resolveConstExpression(context, optionsArg);
  if (options.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const ttl = options.properties.some((p) => p.type === AST_NODE_TYPES.Property && TTL_OPTION_KEY.test(propertyName(p.key, p.computed) ?? ''));
  return [{ kind: 'object-options', node: optionsArg, ttl }];
}

/**
 * The options object `flavor` sends as its text in `command`'s option slots ({@link sendsObjectAsText}),
 * for a generic call whose arguments after the command name are `commandArgs`
 * (`redis.call('SET', k, v, { EX: 60 })` on ioredis): the same finding as the method's.
 */
export function objectOptionsOf(context: AnyContext, command: string, flavor: ClientFlavor, commandArgs: readonly TSESTree.Node[]): DroppedArgument[] {
  return sendsObjectAsText(command, flavor) ? objectOptions(context, command, commandArgs) : [];
}

/** Option keys that say "expire" in any client's spelling. */
const TTL_OPTION_KEY = /^(?:ex|px|exat|pxat|ttl|expire|expiration|expiresIn)$/i;

/**
 * TTL tokens on a command without TTL syntax, for every client: `hset(k, f, v, 'EX', 60)` (the
 * tokens become a field and its value), `sadd(k, m, { EX: 60 })` (the object is dropped or
 * sent as a member).
 */
export function misplacedTtl(context: AnyContext, command: string, flat: Flattened): DroppedArgument[] {
  if (!COMMANDS_WITHOUT_TTL_SYNTAX.has(command)) return [];
  for (let i = 1; i < flat.args.length - 1; i++) {
    const token = flat.args[i];
    const node = flat.nodes[i];
    const next = flat.nodes[i + 1];
    // `'EX', 60`: a TTL token followed by a number (a field named EX holding 'v' is data)
    if (node && next && typeof token === 'string' && EXPIRY_OPTION.test(token) && node.type === AST_NODE_TYPES.Literal && isNumberLike(context, next)) {
      return [{ kind: 'no-ttl-syntax', node, ttl: true, option: token }];
    }
  }
  const object = flat.optionsObject;
  if (object) {
    for (const property of object.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const name = propertyName(property.key, property.computed);
      if (name !== undefined && TTL_OPTION_KEY.test(name)) return [{ kind: 'no-ttl-syntax', node: property.key, ttl: true, option: name }];
    }
  }
  return [];
}

/** A number, or an expression typed or annotated `number` (the cast in `ttl as any` is looked through). */
function isNumberLike(context: AnyContext, node: TSESTree.Node): boolean {
  if (constantNumber(context, node) !== undefined) return true;
  const bare = unwrap(node);
  const type = typeFlagsOf(context, bare);
  if (type !== undefined) return (type & 296) !== 0; // ts.TypeFlags.NumberLike
  if (bare.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(context, bare)?.defs[0];
    const id = def?.name;
    if (id?.type === AST_NODE_TYPES.Identifier && id.typeAnnotation?.typeAnnotation.type === AST_NODE_TYPES.TSNumberKeyword) return true;
  }
  return bare.type === AST_NODE_TYPES.BinaryExpression && ['*', '/', '-'].includes(bare.operator);
}

/** A string literal, a template literal, or `process.env.X`: @upstash/redis only sends a number. */
function isNonNumber(context: AnyContext, node: TSESTree.Node): boolean {
  if (typeof staticValue(context, node) === 'string') return true;
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.TemplateLiteral) return true;
  return (
    bare.type === AST_NODE_TYPES.MemberExpression &&
    bare.object.type === AST_NODE_TYPES.MemberExpression &&
    bare.object.object.type === AST_NODE_TYPES.Identifier &&
    bare.object.object.name === 'process' &&
    propertyName(bare.object.property, bare.object.computed) === 'env'
  );
}

/**
 * A value that may be `undefined` where it is used: with type information, a type that includes
 * `undefined` (narrowing included); without it, an optional parameter (`ttl?: number`) that no
 * test on the way to the call mentions.
 */
export function mayBeUndefined(context: AnyContext, node: TSESTree.Node, call: TSESTree.Node): boolean {
  // a constant (`SESSION_TTL`, `60 * 60`) is no question for the type checker
  if (constantNumber(context, node) !== undefined) return false;
  const bare = unwrap(node);
  const services = context.sourceCode.parserServices;
  const compilerOptions = services?.program?.getCompilerOptions();
  // without strictNullChecks, types never include undefined: only the syntax can tell
  if (services?.program && services.esTreeNodeToTSNodeMap && (compilerOptions?.strictNullChecks ?? compilerOptions?.strict)) {
    const tsNode = services.esTreeNodeToTSNodeMap.get(bare as never);
    if (!tsNode) return false;
    const type = services.program.getTypeChecker().getTypeAtLocation(tsNode);
    const parts = type.isUnion() ? type.types : [type];
    // ts.TypeFlags.Undefined = 32768
    return parts.some((t) => (t.flags & 32768) !== 0) && parts.some((t) => (t.flags & 32768) === 0);
  }
  if (bare.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context, bare);
  const def = variable?.defs[0];
  if (!def || def.type !== 'Parameter' || def.name.type !== AST_NODE_TYPES.Identifier || !def.name.optional) return false;
  // a test on the way (if (ttl), ttl ? ... : ..., ttl !== undefined && ...) narrows it
  for (let current: TSESTree.Node | undefined = call; current; current = current.parent) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) break;
    if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== current && mentions(parent.test, bare.name)) return false;
    if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === current && mentions(parent.left, bare.name)) return false;
    if (parent.type === AST_NODE_TYPES.BlockStatement) {
      // if (!ttl) return ...; before the call
      for (const statement of parent.body) {
        if (statement === current) break;
        if (statement.type === AST_NODE_TYPES.IfStatement && mentions(statement.test, bare.name)) return false;
      }
    }
    if (parent === def.node) break;
  }
  return true;
}

function mentions(root: TSESTree.Node, name: string): boolean {
  let found = false;
  const visit = (node: unknown): void => {
    if (found || !node || typeof node !== 'object') return;
    const n = node as TSESTree.Node;
    if (n.type === AST_NODE_TYPES.Identifier && n.name === name) {
      found = true;
      return;
    }
    for (const [key, value] of Object.entries(n)) {
      if (key === 'parent') continue;
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object' && 'type' in value) visit(value);
    }
  };
  visit(root);
  return found;
}

/** The TypeScript type flags of an expression when type information is available. */
function typeFlagsOf(context: AnyContext, node: TSESTree.Node): number | undefined {
  const services = context.sourceCode.parserServices;
  if (!services?.program || !services.esTreeNodeToTSNodeMap) return undefined;
  const tsNode = services.esTreeNodeToTSNodeMap.get(node as never);
  if (!tsNode) return undefined;
  const type = services.program.getTypeChecker().getTypeAtLocation(tsNode);
  if (type.flags & 1) return undefined; // any
  return type.isUnion() ? type.types.reduce((flags, t) => flags | t.flags, 0) : type.flags;
}

/**
 * KEEPTTL together with an expiry as Redis tokens (`set(k, v, 'KEEPTTL', 'EX', 10)`, `call('SET',
 * k, v, 'EX', 10, 'KEEPTTL')`): the command table says the options exclude each other
 * (`conflictingOption`), Redis answers "ERR syntax error". Reported on the KEEPTTL token, unless an
 * option object already gave that finding.
 */
export function keepTtlConflict(
  description: CommandDescription,
  args: readonly CommandArg[],
  nodes: ReadonlyArray<TSESTree.Node | undefined>,
  dropped: readonly DroppedArgument[],
): DroppedArgument[] {
  const conflict = description.conflictingOption;
  if (!conflict || dropped.some((d) => d.kind === 'keepttl-with-expiry')) return [];
  const expiry = conflict.option === 'KEEPTTL' ? conflict.conflictsWith : conflict.conflictsWith === 'KEEPTTL' ? conflict.option : undefined;
  if (!expiry) return [];
  const at = conflict.option === 'KEEPTTL' ? conflict.arg : args.findIndex((a) => typeof a === 'string' && a.toUpperCase() === 'KEEPTTL');
  const node = nodes[at];
  return node ? [{ kind: 'keepttl-with-expiry', node, ttl: false, option: expiry }] : [];
}

/**
 * Two options of one exclusive group as tokens sent as written (`'EX', 60, 'PX', 500`, `'NX',
 * 'XX'`): the command table's `conflictingOption`, other than KEEPTTL's pair
 * (`keepTtlConflict`). Reported on the second token.
 */
export function optionConflict(description: CommandDescription, nodes: ReadonlyArray<TSESTree.Node | undefined>): DroppedArgument[] {
  const conflict = description.conflictingOption;
  if (!conflict || conflict.option === 'KEEPTTL' || conflict.conflictsWith === 'KEEPTTL') return [];
  const node = nodes[conflict.arg];
  return node ? [{ kind: 'conflicting-options', node, ttl: false, option: conflict.option, conflictsWith: conflict.conflictsWith }] : [];
}

/**
 * The clients whose SET method sends every argument as a Redis token, as written (ioredis,
 * node_redis 3); node-redis 4+ and @upstash/redis read one options object instead.
 */
export const SENDS_TOKENS_AS_WRITTEN: ReadonlySet<ClientFlavor> = new Set(['ioredis', 'node-redis-3']);

/**
 * A literal in SET's option slots that is no SET option, as sent (`set(k, v, 300)` on ioredis,
 * `call('SET', k, v, 'EXPIRE', 60)`): the command table says Redis rejects the command
 * (`unknownOption`). Reported on the token, unless an entry of `dropped` already names it (an
 * options object ioredis sends as `[object Object]`: `object-options`); `ttl` when the token looks
 * like a TTL written without its option.
 */
export function unknownOptionOf(description: CommandDescription, nodes: ReadonlyArray<TSESTree.Node | undefined>, dropped: readonly DroppedArgument[] = []): DroppedArgument[] {
  const unknown = description.unknownOption;
  const node = unknown ? nodes[unknown.arg] : undefined;
  if (!unknown || !node || dropped.some((d) => d.node === node)) return [];
  return [{ kind: 'unknown-option', node, ttl: unknown.looksLikeTtl, option: unknown.token }];
}

/** The token a client sends for an object it does not read as options: JavaScript's `String({})`. */
export const OBJECT_AS_TEXT = '[object Object]';

/**
 * Whether `flavor` sends an object in `command`'s option slots as its text ({@link OBJECT_AS_TEXT})
 * instead of reading it as options: ioredis's SET and GETEX, which take tokens (its argument
 * transformers read objects for HSET / HMSET / MSET only); see {@link objectOptions}.
 */
export function sendsObjectAsText(command: string, flavor: ClientFlavor): boolean {
  return flavor === 'ioredis' && (command === 'SET' || command === 'GETEX');
}

