/**
 * Suggestion text in each client's own syntax. Rules say *what* to add (KEEPTTL, XX, an expiry,
 * the command in a MULTI); this module says how ioredis / iovalkey and Bun (positional tokens),
 * node-redis (`{ KEEPTTL: true }`), upstash (`{ keepTtl: true }`) and Valkey GLIDE (`{ expiry: {
 * type: TimeUnit.Seconds, count } }`, `{ expiry: 'keepExisting' }`) spell it. Every suggestion is
 * a valid expression in the client's API: Bun's `send` and GLIDE's `customCommand` take strings
 * only (`String(TTL_SECONDS)`), and neither Bun's client nor GLIDE's has a `multi()` to move a
 * command into (GLIDE's atomic batch is `new Batch(true)`, sent with `exec`).
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isBlockingCall } from '../semantics/blocking.js';
import type { ClientFlavor } from './client-facts.js';
import { moduleReference, removeStatement } from './autofix.js';
import type { RedisCall } from './normalize.js';
import { constantNumber } from './constant.js';
import { findVariable, moduleNamespaceOf, propertyName, unwrap, type AnyContext } from './static.js';

/**
 * Whether a suggestion may move a command into a MULTI (or turn its pipeline into one) without
 * changing what the code does: never a blocking command (BLPOP, BLMOVE, XREAD ... BLOCK, WAIT:
 * inside MULTI they do not block), never a callback-style call (`redis.incr(k, (err, n) => ...)`:
 * the callback would no longer receive the command's reply), never one with node-redis 4 command
 * options (a MULTI does not take them).
 */
export function movableIntoMulti(context: AnyContext, call: RedisCall): boolean {
  if (isBlockingCall(call.command, call.args)) return false;
  // node-redis 4 command options (`incr(commandOptions(o), k)`): a MULTI would send them as the key
  if (call.commandOptions) return false;
  // a client by the commands its declared type lists: it may have no multi()
  if (call.client.byShape) return false;
  return !hasCallback(context, call);
}

/** The call's last argument is a function (a node-style callback). */
export function hasCallback(context: AnyContext, call: RedisCall): boolean {
  if (call.node.type !== AST_NODE_TYPES.CallExpression) return false;
  const last = call.node.arguments[call.node.arguments.length - 1];
  if (!last) return false;
  const bare = unwrap(last);
  if (bare.type === AST_NODE_TYPES.ArrowFunctionExpression || bare.type === AST_NODE_TYPES.FunctionExpression) return true;
  if (bare.type !== AST_NODE_TYPES.Identifier) return false;
  if (/^(cb|callback|done|next|fn|noop)$/i.test(bare.name)) return true;
  const def = findVariable(context, bare)?.defs[0];
  if (def?.type === 'FunctionName') return true;
  // new Promise((resolve, reject) => redis.sadd(k, v, resolve)): the executor's resolve / reject
  const executor = def?.type === 'Parameter' ? def.node : undefined;
  if (executor?.parent?.type === AST_NODE_TYPES.NewExpression && executor.parent.arguments[0] === executor) {
    const callee = executor.parent.callee;
    if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Promise') return true;
  }
  const init = def?.type === 'Variable' ? def.node.init : undefined;
  return init?.type === AST_NODE_TYPES.ArrowFunctionExpression || init?.type === AST_NODE_TYPES.FunctionExpression;
}

/** A SET option a suggestion adds. */
export type SetOption = 'KEEPTTL' | 'XX' | 'NX' | 'GET' | { expiry: TtlConstant };

/** A TTL to use in a suggestion: a constant of the file, or a placeholder name to declare. */
export interface TtlConstant {
  /** The identifier to write. */
  name: string;
  /** Whether its value is in milliseconds (PX / PEXPIRE) rather than seconds (EX / EXPIRE). */
  milliseconds: boolean;
  /** `true` when no such constant exists in the file and the user must declare it. */
  placeholder: boolean;
  /** A point in time (EXAT / PXAT, from an EXPIREAT / PEXPIREAT) rather than a duration. */
  absolute?: boolean;
}

/** Name of the constant a suggestion refers to when the file has no TTL constant. */
export const TTL_PLACEHOLDER = 'TTL_SECONDS';

/**
 * A constant whole-number `const` declared at the top level of the file whose name says it is a TTL
 * (`TTL_SECONDS`, `SESSION_TTL_MS`, `EXPIRY`), for suggestions; else the {@link TTL_PLACEHOLDER}.
 * With `kind` `'lock'`, only one whose name also says lock (`LOCK_TTL_MS`, `MUTEX_TIMEOUT`: a
 * lock's TTL may be named a timeout; `write-expiry.ts` `lockTtlConstant`).
 */
export function ttlConstantOf(context: AnyContext, kind: 'any' | 'lock' = 'any'): TtlConstant {
  const program = context.sourceCode.ast;
  const cache = kind === 'lock' ? lockConstantCache : ttlConstantCache;
  let found = cache.get(program);
  if (!found) cache.set(program, (found = findTtlConstant(context, kind === 'lock' ? LOCK_TTL_NAME : TTL_CONSTANT_NAME)));
  return found;
}

/** Per file: its {@link ttlConstantOf} (every finding's suggestion asks; the file's statements are read once). */
const ttlConstantCache = new WeakMap<object, TtlConstant>();
const lockConstantCache = new WeakMap<object, TtlConstant>();

/** A constant named as a TTL. */
const TTL_CONSTANT_NAME = (name: string) => /ttl|expir/i.test(name);
/** A constant named as a lock's TTL. */
const LOCK_TTL_NAME = (name: string) => /lock|mutex|lease/i.test(name) && /ttl|expir|timeout/i.test(name);

function findTtlConstant(context: AnyContext, named: (name: string) => boolean): TtlConstant {
  for (const statement of context.sourceCode.ast.body) {
    const declaration =
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations) {
      if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) continue;
      // a positive whole number: `300`, `60 * 60`, `Math.floor(DAY_MS / 1000)`, an imported one
      const value = constantNumber(context, declarator.init);
      if (value === undefined || value <= 0 || !Number.isInteger(value)) continue;
      const name = declarator.id.name;
      if (!named(name)) continue;
      return { name, milliseconds: /(^|_)MS($|_)|Ms$|milli/i.test(name), placeholder: false };
    }
  }
  return { name: TTL_PLACEHOLDER, milliseconds: false, placeholder: true };
}

type Fix = TSESLint.RuleFix;
type Fixer = TSESLint.RuleFixer;

/** GLIDE's SET options, as properties of its options object. */
const GLIDE_SET_OPTIONS: Readonly<Record<'KEEPTTL' | 'XX' | 'NX' | 'GET', string>> = {
  KEEPTTL: "expiry: 'keepExisting'",
  XX: "conditionalSet: 'onlyIfExists'",
  NX: "conditionalSet: 'onlyIfDoesNotExist'",
  GET: 'returnOldValue: true',
};

/** The package of Valkey GLIDE, whose `TimeUnit` an expiry suggestion names. */
const GLIDE_PACKAGE = '@valkey/valkey-glide';

/**
 * The options of a suggestion as text: positional tokens (ioredis, Bun, generic forms), or
 * properties of an options object (node-redis, upstash, GLIDE). `timeUnit` is how the file
 * reaches GLIDE's `TimeUnit`; `stringsOnly` when the argv takes strings only (Bun's `send`,
 * GLIDE's `customCommand`, node-redis' `sendCommand`): a number literal is quoted, a name wrapped
 * in `String(...)`.
 */
function tokenText(option: SetOption, flavor: ClientFlavor, quote: string, timeUnit = 'TimeUnit', stringsOnly = false): string[] {
  if (flavor === 'glide') {
    if (typeof option === 'string') return [GLIDE_SET_OPTIONS[option]];
    const kind = `${option.expiry.absolute ? 'Unix' : ''}${option.expiry.milliseconds ? 'Milliseconds' : 'Seconds'}`;
    return [`expiry: { type: ${timeUnit}.${kind}, count: ${option.expiry.name} }`];
  }
  if (typeof option === 'string') {
    if (flavor === 'node-redis') return [`${option}: true`];
    if (flavor === 'upstash') return [`${option === 'KEEPTTL' ? 'keepTtl' : option.toLowerCase()}: true`];
    return [`${quote}${option}${quote}`];
  }
  const unit = `${option.expiry.milliseconds ? 'PX' : 'EX'}${option.expiry.absolute ? 'AT' : ''}`;
  if (flavor === 'node-redis') return [`${unit}: ${option.expiry.name}`];
  if (flavor === 'upstash') return [`${unit.toLowerCase()}: ${option.expiry.name}`];
  const count = option.expiry.name;
  return [`${quote}${unit}${quote}`, !stringsOnly ? count : /^\d+$/.test(count) ? `${quote}${count}${quote}` : `String(${count})`];
}

/** The quote character the file uses for a string node (defaults to a single quote). */
function quoteOf(context: AnyContext, node: TSESTree.Node | undefined): string {
  if (node?.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') {
    const first = context.sourceCode.getText(node)[0];
    if (first === '"' || first === "'") return first;
  }
  return "'";
}

/** Whether options are written as an object (node-redis, upstash) rather than positional tokens. */
function usesObjectOptions(call: RedisCall): boolean {
  return call.form === 'method' && (call.flavor === 'node-redis' || call.flavor === 'upstash' || call.flavor === 'glide');
}

/** Whether the client has a `multi()` a suggestion may move commands into (Bun's and GLIDE's have none). */
function hasMultiMethod(flavor: ClientFlavor): boolean {
  return flavor !== 'bun' && flavor !== 'glide';
}

/**
 * Adds SET options to a SET call in its client's syntax: into the existing option object, as a
 * new option object after the value, or as positional tokens right after the value (where
 * ioredis' overloads expect KEEPTTL / EX before NX / XX / GET).
 * @returns the fixes, or `undefined` when the call's shape does not allow a safe edit.
 */
export function addSetOptions(
  context: AnyContext,
  call: RedisCall,
  options: readonly SetOption[],
): ((fixer: Fixer) => Fix[]) | undefined {
  // a client by the commands its declared type lists: its SET may take no options
  if (call.client.byShape) return undefined;
  // method form: (key, value, ...); generic and array forms start with the command name.
  const valueNode = call.argumentNodes[call.form === 'method' ? 1 : 2];
  if (!valueNode || call.argumentNodes.some((n) => n.type === AST_NODE_TYPES.SpreadElement)) return undefined;
  // the value must be the argument as written (not an element of an array argument, `set([k, v],
  // cb)`, nor of a local array built before the call, `set(args, cb)`)
  if (valueNode !== call.argNodes[1]) return undefined;
  if (usesObjectOptions(call)) {
    // GLIDE's expiry names its TimeUnit enum: imported as the file does, or added to its import
    const timeUnit = call.flavor === 'glide' && options.some((o) => typeof o !== 'string') ? moduleReference(context, call.node, GLIDE_PACKAGE, 'TimeUnit') : undefined;
    if (call.flavor === 'glide' && options.some((o) => typeof o !== 'string') && !timeUnit) return undefined;
    const parts = options.flatMap((option) => tokenText(option, call.flavor, "'", timeUnit?.text));
    const edit = addOptionsText(context, call, valueNode, parts);
    if (!edit) return undefined;
    const importFix = timeUnit?.importFix;
    return importFix ? (fixer) => [...edit(fixer), ...importFix(fixer)] : edit;
  }
  const quote = quoteOf(context, call.nameNode);
  // Bun's send(cmd, args) and GLIDE's customCommand(args) take strings only, and so does Bun's
  // set(key, value, ...options: string[]) past its two-token overloads (`'EX', seconds`), and
  // node-redis' sendCommand([...]) (its argv is `RedisArgument[]`: a number throws at run time);
  // Bun's past two tokens also when the edit adds them (SETNX as `set(k, v, 'EX', String(ttl), 'NX')`)
  const stringsOnly =
    (call.form === 'generic' && (call.flavor === 'bun' || call.flavor === 'glide')) ||
    (call.flavor === 'bun' && (call.argumentNodes.length > 2 || options.length > 1)) ||
    (call.form === 'generic' && call.flavor === 'node-redis' && valueNode.parent?.type === AST_NODE_TYPES.ArrayExpression);
  const parts = options.flatMap((option) => tokenText(option, 'ioredis', quote, undefined, stringsOnly));
  return (fixer) => [fixer.insertTextAfter(valueNode, `, ${parts.join(', ')}`)];
}

/** Adds option properties to a call's options object (or a new one after the value). */
function addOptionsText(context: AnyContext, call: RedisCall, valueNode: TSESTree.Node, parts: readonly string[]): ((fixer: Fixer) => Fix[]) | undefined {
  const sourceCode = context.sourceCode;
  if (call.optionsObject && !call.argumentNodes.includes(call.optionsObject)) {
    // options from a const declared elsewhere: extend a copy here rather than edit the const
    const argument = call.argumentNodes.find((n) => n.range[0] >= valueNode.range[1]);
    if (!argument || call.argumentNodes.indexOf(argument) !== call.argumentNodes.length - 1) return undefined;
    const text = sourceCode.getText(argument);
    return (fixer) => [fixer.replaceText(argument, `{ ...${text}, ${parts.join(', ')} }`)];
  }
  if (call.optionsObject) {
    const open = sourceCode.getFirstToken(call.optionsObject);
    if (!open) return undefined;
    const empty = call.optionsObject.properties.length === 0;
    return (fixer) => [fixer.insertTextAfter(open, empty ? ` ${parts.join(', ')} ` : ` ${parts.join(', ')},`)];
  }
  if (call.argumentNodes.length !== 2) return undefined;
  return (fixer) => [fixer.insertTextAfter(valueNode, `, { ${parts.join(', ')} }`)];
}

/**
 * Rewrites another string write as a SET with options in the client's syntax: GETSET becomes
 * `SET key value KEEPTTL XX GET`, SETNX becomes `SET key value EX ttl NX`. The method becomes
 * `set` with the options added, or the command-name literal of a generic form becomes `'SET'`.
 */
export function rewriteAsSet(
  context: AnyContext,
  call: RedisCall,
  options: readonly SetOption[],
): ((fixer: Fixer) => Fix[]) | undefined {
  if (call.client.byShape) return undefined;
  if (call.form === 'method') {
    if (call.argumentNodes.length !== 2) return undefined;
    const add = addSetOptions(context, call, options);
    if (!add) return undefined;
    return (fixer) => [fixer.replaceText(call.nameNode, 'set'), ...add(fixer)];
  }
  if (call.argumentNodes.length !== 3) return undefined;
  const add = addSetOptions(context, call, options);
  if (!add) return undefined;
  const quote = quoteOf(context, call.nameNode);
  const name = context.sourceCode.getText(call.nameNode);
  const setName = name === name.toLowerCase() ? 'set' : 'SET';
  return (fixer) => [fixer.replaceText(call.nameNode, `${quote}${setName}${quote}`), ...add(fixer)];
}

/** The EXPIRE method name in a client's spelling. */
function expireMethod(flavor: ClientFlavor, milliseconds: boolean): string {
  if (!milliseconds) return 'expire';
  return flavor === 'node-redis' ? 'pExpire' : 'pexpire';
}

/**
 * Adds an expiry of `keyText` right after a command queued in a MULTI / pipeline: `.expire(key,
 * ttl)` chained after a method call (every client's batch methods return the batch), or
 * `['expire', key, ttl]` after an element of ioredis' array form. None on a batch of the code's
 * own declared type (`byShape`).
 */
export function appendExpiryInBatch(
  context: AnyContext,
  call: RedisCall,
  keyText: string,
  ttl: { method?: string; ttlText: string; milliseconds: boolean },
): ((fixer: Fixer) => Fix[]) | undefined {
  if (call.form === 'queued-array') {
    const quote = quoteOf(context, call.nameNode);
    const name = ttl.milliseconds ? 'pexpire' : 'expire';
    return (fixer) => [fixer.insertTextAfter(call.node, `, [${quote}${name}${quote}, ${keyText}, ${ttl.ttlText}]`)];
  }
  if (call.form !== 'method') return undefined;
  // a batch of the code's own declared type: it may list no expiry, or not return itself from one
  if (call.client.byShape) return undefined;
  const method = ttl.method ?? expireMethod(call.flavor, ttl.milliseconds);
  return (fixer) => [fixer.insertTextAfter(call.node, `.${method}(${keyText}, ${ttl.ttlText})`)];
}

/**
 * Wraps a lone command and its expiry in one MULTI: `redis.incr(key)` becomes
 * `redis.multi().incr(key).expire(key, ttl).exec()` (the same in all three clients), and the
 * separate expiry statement it replaces (`moved`, see {@link standaloneStatementOf}) is removed.
 * Only when the command's reply is discarded ({@link replyDiscarded}): EXEC replies an array
 * (ioredis `[[err, reply], ...]`, node-redis and @upstash/redis `[reply, ...]`), so code that reads
 * the reply (`const n = await redis.incr(k); if (n === 1) ...`) would break; it gets the runtime's
 * `incrementWithTtl` instead, when that applies.
 */
export function wrapInMulti(
  context: AnyContext,
  call: RedisCall,
  keyText: string,
  ttl: { method?: string; ttlText: string; milliseconds: boolean },
  moved?: TSESTree.Node,
): ((fixer: Fixer) => Fix[]) | undefined {
  if (call.form !== 'method' || call.node.type !== AST_NODE_TYPES.CallExpression || !hasMultiMethod(call.flavor)) return undefined;
  if (!replyDiscarded(call.node)) return undefined;
  if (!movableIntoMulti(context, call)) return undefined;
  const callee = call.node.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.optional) return undefined;
  const method = ttl.method ?? expireMethod(call.flavor, ttl.milliseconds);
  const { receiver, rest } = splitAtClient(context, callee, call.node);
  const node = call.node;
  return (fixer) => [
    fixer.replaceText(node, `${receiver}.multi().${rest}.${method}(${keyText}, ${ttl.ttlText}).exec()`),
    ...(moved ? [removeStatement(context, fixer, moved)] : []),
  ];
}

/**
 * Whether the value of a call is thrown away: `redis.incr(k);`, `await redis.incr(k);` or
 * `void redis.incr(k)` as a statement. Anything else (assigned, returned, compared, passed on)
 * reads the reply.
 */
export function replyDiscarded(node: TSESTree.Node): boolean {
  let current = node;
  if (current.parent?.type === AST_NODE_TYPES.AwaitExpression) current = current.parent;
  if (current.parent?.type === AST_NODE_TYPES.UnaryExpression && current.parent.operator === 'void') current = current.parent;
  return current.parent?.type === AST_NODE_TYPES.ExpressionStatement;
}

/**
 * The statement a call is alone in (`await redis.expire(k, 60);`, `redis.expire(k, 60);`), directly
 * in a block, the program or a `case`: a statement that can be removed without touching anything
 * else. `undefined` when the call is part of a larger expression or sits under an `if`.
 */
export function standaloneStatementOf(node: TSESTree.Node): TSESTree.ExpressionStatement | undefined {
  if (!replyDiscarded(node)) return undefined;
  let statement: TSESTree.Node | undefined = node.parent;
  while (statement && statement.type !== AST_NODE_TYPES.ExpressionStatement) statement = statement.parent;
  const holder = statement?.parent;
  const inList =
    holder?.type === AST_NODE_TYPES.BlockStatement || holder?.type === AST_NODE_TYPES.Program || holder?.type === AST_NODE_TYPES.SwitchCase;
  return inList && statement?.type === AST_NODE_TYPES.ExpressionStatement ? statement : undefined;
}

/**
 * Makes a batch atomic: `.pipeline()` becomes `.multi()`, node-redis `multi()...execAsPipeline()`
 * becomes `multi()...exec()`, and Valkey GLIDE's `new Batch(false)` becomes `new Batch(true)`.
 */
export function pipelineToMulti(unitKey: TSESTree.Node): ((fixer: Fixer) => Fix[]) | undefined {
  // Valkey GLIDE: new Batch(false) -> new Batch(true) (its unit key is the `new` expression)
  if (unitKey.type === AST_NODE_TYPES.NewExpression) {
    const atomic = unitKey.arguments[0];
    if (atomic?.type !== AST_NODE_TYPES.Literal || atomic.value !== false) return undefined;
    return (fixer) => [fixer.replaceText(atomic, 'true')];
  }
  if (unitKey.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unitKey.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.property.type !== AST_NODE_TYPES.Identifier) {
    return undefined;
  }
  if (callee.property.name === 'pipeline') {
    const property = callee.property;
    return (fixer) => [fixer.replaceText(property, 'multi')];
  }
  let current: TSESTree.Node = unitKey;
  while (current.parent?.type === AST_NODE_TYPES.MemberExpression && current.parent.object === current) {
    const member: TSESTree.MemberExpression = current.parent;
    if (member.property.type === AST_NODE_TYPES.Identifier && member.property.name === 'execAsPipeline') {
      const property = member.property;
      return (fixer) => [fixer.replaceText(property, 'exec')];
    }
    if (member.parent?.type !== AST_NODE_TYPES.CallExpression) break;
    current = member.parent;
  }
  return undefined;
}

/**
 * MSET / MSETNX cannot carry a TTL: send them with an EXPIRE of every key they write in one MULTI
 * (`redis.multi().mset(...).expire(k1, ttl).expire(k2, ttl).exec()`), or, inside a batch already,
 * queue the expiries right after. Only when every key is a plain expression or property name.
 */
export function expireEachKeyInMulti(
  context: AnyContext,
  call: RedisCall,
  ttl: { ttlText: string; milliseconds: boolean },
): ((fixer: Fixer) => Fix[]) | undefined {
  if (call.form !== 'method' || call.node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  if (call.unit.kind === 'single' && (!movableIntoMulti(context, call) || !hasMultiMethod(call.flavor))) return undefined;
  const callee = call.node.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.optional) return undefined;
  const keyTexts: string[] = [];
  for (const key of call.description.keys) {
    const node = call.argNodes[key.arg];
    if (!node || !writtenInCall(node, call.node)) return undefined;
    const parent = node.parent;
    if (parent?.type === AST_NODE_TYPES.Property && parent.key === node && !parent.computed) {
      const name = propertyName(node);
      if (name === undefined) return undefined;
      keyTexts.push(JSON.stringify(name));
    } else if (
      node.type === AST_NODE_TYPES.ArrayExpression ||
      makesArray(node) ||
      node.type === AST_NODE_TYPES.ObjectExpression ||
      node.type === AST_NODE_TYPES.SpreadElement ||
      node.type === AST_NODE_TYPES.Property
    ) {
      return undefined;
    } else {
      keyTexts.push(context.sourceCode.getText(node));
    }
  }
  if (keyTexts.length === 0) return undefined;
  const method = expireMethod(call.flavor, ttl.milliseconds);
  const expiries = keyTexts.map((key) => `.${method}(${key}, ${ttl.ttlText})`).join('');
  const node = call.node;
  if (call.unit.kind !== 'single') return (fixer) => [fixer.insertTextAfter(node, expiries)];
  const { receiver, rest } = splitAtClient(context, callee, node);
  return (fixer) => [fixer.replaceText(node, `${receiver}.multi().${rest}${expiries}.exec()`)];
}

/** `list.map(...)`, `list.flatMap(...)`: an array of keys or pairs, which EXPIRE cannot take as its key. */
function makesArray(node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = propertyName(node.callee.property, node.callee.computed);
  return method === 'map' || method === 'flatMap';
}

/**
 * Whether a key is written in the call's arguments, outside any function there: not one of the
 * pairs a `map` callback makes (`mset(txs.map((tx) => [`tx:${tx.id}`, v]))`), whose text means
 * nothing outside the callback.
 */
function writtenInCall(node: TSESTree.Node, call: TSESTree.Node): boolean {
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
    if (current === call) return true;
    if (current.type === AST_NODE_TYPES.ArrowFunctionExpression || current.type === AST_NODE_TYPES.FunctionExpression || current.type === AST_NODE_TYPES.FunctionDeclaration) return false;
  }
  return false;
}

/**
 * A method call split where `.multi()` goes: the client's text and the rest of the call
 * (`redis.incr(k)` -> `redis` + `incr(k)`; a module command `client.json.set(k, '$', v)` ->
 * `client` + `json.set(k, '$', v)`, as node-redis queues module commands on a MULTI).
 */
function splitAtClient(context: AnyContext, callee: TSESTree.MemberExpression, node: TSESTree.CallExpression): { receiver: string; rest: string } {
  const namespace = moduleNamespaceOf(callee);
  const client = namespace ? namespace.object : callee.object;
  const from = namespace ? namespace.property : callee.property;
  return { receiver: context.sourceCode.getText(client), rest: context.sourceCode.text.slice(from.range[0], node.range[1]) };
}
