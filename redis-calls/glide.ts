/**
 * Valkey GLIDE's argument syntax (`@valkey/valkey-glide`, Node API) read as the Redis argv it
 * sends: option objects instead of tokens, arrays for lists, records or arrays of objects for
 * field / member pairs. From GLIDE's declarations (`BaseClient`, `Batch`, `Commands`):
 *
 * - `set(key, value, { expiry: { type: TimeUnit.Seconds, count: 60 } })` -> `SET key value EX 60`
 *   (`TimeUnit.Milliseconds` PX, `UnixSeconds` EXAT, `UnixMilliseconds` PXAT); `expiry:
 *   'keepExisting'` -> `KEEPTTL`; `conditionalSet: 'onlyIfDoesNotExist'` -> `NX`, `'onlyIfExists'`
 *   -> `XX`, `'onlyIfEqual'` -> `IFEQ comparisonValue`; `returnOldValue: true` -> `GET`.
 * - `getex(key, { expiry: { type, duration } | 'persist' })` -> `GETEX key EX n` / `PERSIST`.
 * - `expire(key, seconds, { expireOption: ExpireOptions.HasNoExpiry })` -> `EXPIRE key seconds NX`
 *   (PEXPIRE, EXPIREAT, PEXPIREAT alike).
 * - `hset(key, { f: v })` or `hset(key, [{ field, value }])` -> `HSET key f v`; `hsetex(key,
 *   fields, { fieldConditionalChange, expiry: { type, count } | 'KEEPTTL' })` -> `HSETEX key
 *   [FNX|FXX] [EX n|KEEPTTL] FIELDS n f v ...`.
 * - hash-field TTLs: `hexpire(key, seconds, fields, { condition })` -> `HEXPIRE key seconds [NX|XX|GT|LT]
 *   FIELDS n field ...` (HPEXPIRE, HEXPIREAT, HPEXPIREAT alike); `hpersist` / `httl` / `hpttl` /
 *   `hexpiretime` / `hpexpiretime(key, fields)`; `hgetex(key, fields, { expiry: { type, count } |
 *   'PERSIST' })` -> `HGETEX key [EX n|PERSIST] FIELDS n field ...`.
 * - `zadd(key, { member: score })` or `zadd(key, [{ element, score }], { conditionalChange,
 *   updateOptions, changed })` -> `ZADD key [XX|NX] [GT|LT] [CH] score member ...`.
 * - everything else: arrays are spread (`lpush(key, [a, b])`, `del([k1, k2])`), a record first is
 *   `key value` pairs (`mset({ k: v })`).
 *
 * Enum members are read by their names (`TimeUnit.Seconds` is `"EX"` in GLIDE), string literals as
 * the tokens they are (`type: 'EX'` in JavaScript). What cannot be read is one unknown entry,
 * which the command table treats as "may be an expiry".
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { CommandArg } from '../semantics/commands.js';
import { pick, propertyName, resolveConstExpression, staticValue, type AnyContext } from './static.js';

/** The argv of a call (after the command name), with the source node of each entry. */
export interface GlideArgv {
  args: CommandArg[];
  nodes: Array<TSESTree.Node | undefined>;
  /** The option object literal written at the call, when there is one. */
  optionsObject?: TSESTree.ObjectExpression;
}

/** GLIDE's enum members by name, as the Redis tokens they stand for. */
const ENUM_TOKENS: ReadonlyMap<string, string> = new Map([
  // TimeUnit
  ['Seconds', 'EX'],
  ['Milliseconds', 'PX'],
  ['UnixSeconds', 'EXAT'],
  ['UnixMilliseconds', 'PXAT'],
  // ConditionalChange
  ['ONLY_IF_EXISTS', 'XX'],
  ['ONLY_IF_DOES_NOT_EXIST', 'NX'],
  // HashFieldConditionalChange
  ['ONLY_IF_ALL_EXIST', 'FXX'],
  ['ONLY_IF_NONE_EXIST', 'FNX'],
  // ExpireOptions
  ['HasNoExpiry', 'NX'],
  ['HasExistingExpiry', 'XX'],
  ['NewExpiryGreaterThanCurrent', 'GT'],
  ['NewExpiryLessThanCurrent', 'LT'],
  // UpdateByScore
  ['LESS_THAN', 'LT'],
  ['GREATER_THAN', 'GT'],
  // HashExpirationCondition
  ['ONLY_IF_NO_EXPIRY', 'NX'],
  ['ONLY_IF_HAS_EXPIRY', 'XX'],
  ['ONLY_IF_GREATER_THAN_CURRENT', 'GT'],
  ['ONLY_IF_LESS_THAN_CURRENT', 'LT'],
]);

/** `conditionalSet` values of GLIDE's SET options. */
const CONDITIONAL_SET: ReadonlyMap<string, string> = new Map([
  ['onlyIfDoesNotExist', 'NX'],
  ['onlyIfExists', 'XX'],
  ['onlyIfEqual', 'IFEQ'],
]);

/**
 * The Redis argv of a GLIDE method call for `command` (see the module comment), from the call's
 * arguments.
 */
export function glideArgv(context: AnyContext, command: string, argumentNodes: readonly TSESTree.Node[]): GlideArgv {
  const out: GlideArgv = { args: [], nodes: [] };
  const at = (index: number): TSESTree.Node | undefined => argumentNodes[index];
  switch (command) {
    case 'SET':
      positional(context, argumentNodes.slice(0, 2), out);
      if (at(2)) options(context, at(2)!, out, setOptions);
      return out;
    case 'GETEX':
      positional(context, argumentNodes.slice(0, 1), out);
      if (at(1)) options(context, at(1)!, out, getexOptions);
      return out;
    case 'EXPIRE':
    case 'PEXPIRE':
    case 'EXPIREAT':
    case 'PEXPIREAT':
      positional(context, argumentNodes.slice(0, 2), out);
      if (at(2)) options(context, at(2)!, out, (ctx, object, argv) => tokenOption(ctx, object, 'expireOption', argv));
      return out;
    case 'HSET':
    case 'HMSET':
      positional(context, argumentNodes.slice(0, 1), out);
      if (at(1)) pairs(context, at(1)!, out, 'field', 'value', false);
      return out;
    case 'HSETEX': {
      positional(context, argumentNodes.slice(0, 1), out);
      if (at(2)) options(context, at(2)!, out, hsetexOptions);
      const fields: GlideArgv = { args: [], nodes: [] };
      if (at(1)) pairs(context, at(1)!, fields, 'field', 'value', false);
      fieldsBlock(fields, 2, out);
      return out;
    }
    case 'HEXPIRE':
    case 'HPEXPIRE':
    case 'HEXPIREAT':
    case 'HPEXPIREAT':
      positional(context, argumentNodes.slice(0, 2), out);
      if (at(3)) options(context, at(3)!, out, (ctx, object, argv) => tokenOption(ctx, object, 'condition', argv));
      fieldsBlock(listOf(context, at(2)), 1, out);
      return out;
    case 'HGETEX':
      positional(context, argumentNodes.slice(0, 1), out);
      if (at(2)) options(context, at(2)!, out, (ctx, object, argv) => (pick(object, 'expiry') ? expiryOption(ctx, pick(object, 'expiry')!, argv, HGETEX_EXPIRY_KEYWORDS) : undefined));
      fieldsBlock(listOf(context, at(1)), 1, out);
      return out;
    case 'HPERSIST':
    case 'HTTL':
    case 'HPTTL':
    case 'HEXPIRETIME':
    case 'HPEXPIRETIME':
      positional(context, argumentNodes.slice(0, 1), out);
      fieldsBlock(listOf(context, at(1)), 1, out);
      return out;
    case 'ZADD': {
      positional(context, argumentNodes.slice(0, 1), out);
      if (at(2)) options(context, at(2)!, out, zaddOptions);
      if (at(1)) pairs(context, at(1)!, out, 'element', 'score', true);
      return out;
    }
    default:
      argumentNodes.forEach((node, index) => {
        const value = resolveConstExpression(context, node);
        if (index === 0 && value.type === AST_NODE_TYPES.ObjectExpression) pairs(context, node, out, 'key', 'value', false);
        else if (value.type === AST_NODE_TYPES.ObjectExpression) push(out, undefined, node);
        else positional(context, [node], out);
      });
      return out;
  }
}

/** The entries of a list argument (`['f1', 'f2']`), spread. */
function listOf(context: AnyContext, node: TSESTree.Node | undefined): GlideArgv {
  const list: GlideArgv = { args: [], nodes: [] };
  if (node) positional(context, [node], list);
  return list;
}

/** `FIELDS numfields ...` of the hash-field commands; `step` 2 when each field has its value. */
function fieldsBlock(fields: GlideArgv, step: number, out: GlideArgv): void {
  // known when every entry is an element of an array literal or a property of an object literal
  const known =
    fields.args.length % step === 0 &&
    fields.nodes.every((n) => n !== undefined && n.type !== AST_NODE_TYPES.SpreadElement && (n.parent?.type === AST_NODE_TYPES.ArrayExpression || n.parent?.type === AST_NODE_TYPES.Property));
  push(out, 'FIELDS', undefined);
  push(out, known ? fields.args.length / step : undefined, undefined);
  out.args.push(...fields.args);
  out.nodes.push(...fields.nodes);
}

function push(out: GlideArgv, arg: CommandArg, node: TSESTree.Node | undefined): void {
  out.args.push(arg);
  out.nodes.push(node);
}

/** Plain arguments: values, arrays spread into their elements, anything unreadable one unknown entry. */
function positional(context: AnyContext, nodes: readonly TSESTree.Node[], out: GlideArgv): void {
  for (const node of nodes) {
    if (node.type === AST_NODE_TYPES.SpreadElement) {
      push(out, undefined, node);
      continue;
    }
    const value = resolveConstExpression(context, node);
    if (value.type === AST_NODE_TYPES.ArrayExpression) {
      for (const element of value.elements) {
        if (!element) continue;
        push(out, element.type === AST_NODE_TYPES.SpreadElement ? undefined : scalar(context, element), element);
      }
    } else {
      push(out, scalar(context, node), node);
    }
  }
}

/** A string or number argument (booleans are no Redis argument). */
function scalar(context: AnyContext, node: TSESTree.Node): CommandArg {
  const value = staticValue(context, node);
  return typeof value === 'boolean' ? undefined : value;
}

/**
 * Field / member pairs: a record (`{ f: v }`, `{ member: score }`) or an array of objects (`[{
 * field, value }]`, `[{ element, score }]`). `scoreFirst` writes each pair as ZADD wants it
 * (score, then member).
 */
function pairs(context: AnyContext, node: TSESTree.Node, out: GlideArgv, nameKey: string, valueKey: string, scoreFirst: boolean): void {
  const emit = (name: CommandArg, nameNode: TSESTree.Node | undefined, value: CommandArg, valueNode: TSESTree.Node | undefined): void => {
    if (scoreFirst) {
      push(out, value, valueNode);
      push(out, name, nameNode);
    } else {
      push(out, name, nameNode);
      push(out, value, valueNode);
    }
  };
  const value = node.type === AST_NODE_TYPES.SpreadElement ? node : resolveConstExpression(context, node);
  if (value.type === AST_NODE_TYPES.ObjectExpression) {
    for (const property of value.properties) {
      if (property.type !== AST_NODE_TYPES.Property) {
        push(out, undefined, property);
        continue;
      }
      emit(property.computed ? scalar(context, property.key) : propertyName(property.key), property.key, scalar(context, property.value), property.value);
    }
    return;
  }
  if (value.type === AST_NODE_TYPES.ArrayExpression) {
    for (const element of value.elements) {
      if (!element) continue;
      const item = element.type === AST_NODE_TYPES.SpreadElement ? element : resolveConstExpression(context, element);
      const nameNode = item.type === AST_NODE_TYPES.ObjectExpression ? pick(item, nameKey) : undefined;
      const valueNode = item.type === AST_NODE_TYPES.ObjectExpression ? pick(item, valueKey) : undefined;
      if (!nameNode || !valueNode) {
        push(out, undefined, element);
        continue;
      }
      emit(scalar(context, nameNode), nameNode, scalar(context, valueNode), valueNode);
    }
    return;
  }
  push(out, undefined, node);
}

type OptionReader = (context: AnyContext, object: TSESTree.ObjectExpression, out: GlideArgv) => void;

/**
 * An option argument: an object literal (at the call or in a `const`) read by `read`; anything
 * else (a variable, a spread) one unknown entry.
 */
function options(context: AnyContext, node: TSESTree.Node, out: GlideArgv, read: OptionReader): void {
  const object = node.type === AST_NODE_TYPES.SpreadElement ? node : resolveConstExpression(context, node);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) {
    push(out, undefined, node);
    return;
  }
  out.optionsObject = object;
  const before = out.args.length;
  read(context, object, out);
  // a spread or a computed key may hold an expiry
  if (object.properties.some((p) => p.type !== AST_NODE_TYPES.Property || (p.computed && propertyName(p.key) === undefined))) {
    out.args.splice(before, 0, undefined);
    out.nodes.splice(before, 0, node);
  }
}

/** A Redis token from an enum member (`TimeUnit.Seconds`) or a string (`'EX'`). */
function tokenOf(context: AnyContext, node: TSESTree.Node | undefined): string | undefined {
  if (!node) return undefined;
  const bare = resolveConstExpression(context, node);
  if (bare.type === AST_NODE_TYPES.MemberExpression) {
    const name = propertyName(bare.property, bare.computed);
    return name === undefined ? undefined : ENUM_TOKENS.get(name);
  }
  const value = staticValue(context, bare);
  return typeof value === 'string' ? value : undefined;
}

/** An expiry `{ type: TimeUnit.X, count | duration: n }` as `EX n`; unreadable parts as unknown entries. */
function expiry(context: AnyContext, object: TSESTree.ObjectExpression, out: GlideArgv): void {
  const type = pick(object, 'type');
  const amount = pick(object, 'count') ?? pick(object, 'duration');
  push(out, tokenOf(context, type), type);
  if (amount) push(out, scalar(context, amount), amount);
  else push(out, undefined, object);
}

/** An `expiry` option's value: a keyword (`keepExisting`, `persist`, `KEEPTTL`) or an expiry object. */
function expiryOption(context: AnyContext, node: TSESTree.Node, out: GlideArgv, keywords: ReadonlyMap<string, string>): void {
  const value = resolveConstExpression(context, node);
  if (value.type === AST_NODE_TYPES.ObjectExpression) {
    expiry(context, value, out);
    return;
  }
  const keyword = staticValue(context, value);
  push(out, typeof keyword === 'string' ? keywords.get(keyword) : undefined, node);
}

const SET_EXPIRY_KEYWORDS: ReadonlyMap<string, string> = new Map([['keepExisting', 'KEEPTTL']]);
const GETEX_EXPIRY_KEYWORDS: ReadonlyMap<string, string> = new Map([['persist', 'PERSIST']]);
const HSETEX_EXPIRY_KEYWORDS: ReadonlyMap<string, string> = new Map([['KEEPTTL', 'KEEPTTL']]);
const HGETEX_EXPIRY_KEYWORDS: ReadonlyMap<string, string> = new Map([['PERSIST', 'PERSIST']]);

function setOptions(context: AnyContext, object: TSESTree.ObjectExpression, out: GlideArgv): void {
  const condition = pick(object, 'conditionalSet');
  if (condition) {
    const value = staticValue(context, condition);
    const token = typeof value === 'string' ? CONDITIONAL_SET.get(value) : undefined;
    push(out, token, condition);
    if (token === 'IFEQ') {
      const comparison = pick(object, 'comparisonValue');
      push(out, comparison ? scalar(context, comparison) : undefined, comparison);
    }
  }
  const old = pick(object, 'returnOldValue');
  if (old && staticValue(context, old) !== false) push(out, staticValue(context, old) === true ? 'GET' : undefined, old);
  const expiryNode = pick(object, 'expiry');
  if (expiryNode) expiryOption(context, expiryNode, out, SET_EXPIRY_KEYWORDS);
}

function getexOptions(context: AnyContext, object: TSESTree.ObjectExpression, out: GlideArgv): void {
  const expiryNode = pick(object, 'expiry');
  if (expiryNode) expiryOption(context, expiryNode, out, GETEX_EXPIRY_KEYWORDS);
}

function hsetexOptions(context: AnyContext, object: TSESTree.ObjectExpression, out: GlideArgv): void {
  tokenOption(context, object, 'fieldConditionalChange', out);
  const expiryNode = pick(object, 'expiry');
  if (expiryNode) expiryOption(context, expiryNode, out, HSETEX_EXPIRY_KEYWORDS);
}

function zaddOptions(context: AnyContext, object: TSESTree.ObjectExpression, out: GlideArgv): void {
  tokenOption(context, object, 'conditionalChange', out);
  tokenOption(context, object, 'updateOptions', out);
  const changed = pick(object, 'changed');
  if (changed && staticValue(context, changed) === true) push(out, 'CH', changed);
}

/** An option whose value is one token (`expireOption: ExpireOptions.HasNoExpiry` -> `NX`). */
function tokenOption(context: AnyContext, object: TSESTree.ObjectExpression, name: string, out: GlideArgv): void {
  const node = pick(object, name);
  if (node) push(out, tokenOf(context, node), node);
}
