/**
 * Normalises a call of any Redis client into a Redis argv (command name + arguments) and asks the
 * shared command table (`semantics/commands.ts`) what it does. Client syntax lives here and only
 * here: ioredis positional tokens, node-redis v4 option objects (`{ EX: 60, GET: true }`) and v5
 * ones (`{ expiration: { type: 'EX', value: 60 }, condition: 'NX' }`), upstash lowercase options
 * (`{ ex: 60, keepTtl: true }`), generic forms, read as the command they name for every client
 * (`call('SET', ...)`, `send('SETEX', [...])`, `command('SET', ...)`, `sendCommand(['SET', ...])`,
 * upstash `exec(['SET', ...])`, `customCommand([...])`) and ioredis' array form of `multi([...])` /
 * `pipeline([...])`.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describeCommand, isKnownCommand, moduleCommandName, namesFieldValuePairs, namesKeyValuePairs, type CommandArg, type CommandDescription } from '../semantics/commands.js';
import type { ClientFlavor, ReceiverKind } from './client-facts.js';
import type { ClientDetector } from './clients.js';
import { isCallbackArgument } from './callbacks.js';
import { isLegacyModeClient, isNodeRedis3 } from './client-version.js';
import type { PromisifiedTarget } from './promisified.js';
import { glideArgv } from './glide.js';
import { isCommandOptionsArgument } from './command-options.js';
import { localArrayTokens, settleConditionalGroups, type ArrayToken } from './arg-arrays.js';
import { emptyTokens } from './empty-tokens.js';
import { enumMemberName } from './command-name.js';
import { commandOfMethod } from './command-methods.js';
import { undecidedDialect } from './dialect.js';
import { declaresOwnSignature } from './declared-wrappers.js';
import { droppedArguments, keepTtlConflict, misplacedTtl, OBJECT_AS_TEXT, objectOptionsOf, optionConflict, SENDS_TOKENS_AS_WRITTEN, sendsObjectAsText, unknownOptionOf } from './option-checks.js';
import { moduleNamespaceOf, propertyName, resolveConstExpression, returnedExpressions, staticValue, unwrap, type AnyContext } from './static.js';

/** The atomic unit a command runs in. */
export interface AtomicUnit {
  /** Identifies the unit: the `multi()` / `pipeline()` call, the variable holding one, or the call itself. */
  key: TSESTree.Node;
  /** `single`: a round trip of its own; `multi`: MULTI/EXEC; `pipeline`: batched but not atomic. */
  kind: 'single' | 'multi' | 'pipeline';
}

/** One Redis command issued by the code, in Redis terms. */
export interface RedisCall {
  /** The node that issues the command: the call, or the inner array of `multi([[...], ...])`. */
  node: TSESTree.CallExpression | TSESTree.ArrayExpression;
  /** The method name (or the command-name literal of a generic form): where findings start. */
  nameNode: TSESTree.Node;
  /**
   * How the command is written: a client method, a generic call naming the command, an element of
   * ioredis' `multi([...])`, or a call of a pass-through facade read as the command it forwards
   * (`redis-calls/facades.ts`: no fix or suggestion edits it, its syntax is the facade's).
   */
  form: 'method' | 'generic' | 'queued-array' | 'facade';
  /** Which client's syntax the call follows (for suggestions in that syntax). */
  flavor: ClientFlavor;
  /** The command name, upper-cased. */
  command: string;
  /** The argv after the command name: literal values where known, `undefined` where not. */
  args: CommandArg[];
  /** The source node of each argv entry (`undefined` for tokens synthesised from an option object). */
  argNodes: Array<TSESTree.Node | undefined>;
  /** What the command table says about this argv. */
  description: CommandDescription;
  /** The option object literal of node-redis / upstash calls, when there is one. */
  optionsObject?: TSESTree.ObjectExpression;
  /**
   * The call's argument list (method and generic forms; without node-redis 4 command options
   * written first, `get(commandOptions(o), key)`) or the inner array's elements.
   */
  argumentNodes: readonly TSESTree.Node[];
  /**
   * node-redis 4 command options written before the key (`commandOptions({ isolated: true })`),
   * which the client takes off: no fix moves such a call into a MULTI or a helper (neither takes
   * them, and an abort signal or isolation would be lost).
   */
  commandOptions?: TSESTree.Node;
  /** The unit the command runs in. */
  unit: AtomicUnit;
  /**
   * Why the receiver was taken for a Redis client, for messages: the receiver as written, the
   * reason (`{ receiver: 'this.redis', why: "its name matches clientNames 'redis'" }`), and
   * whether that rests on a name alone (`byName`: then messages say it), or on the commands its
   * declared type lists, or on a name with the call's arguments named in one object (`byShape`:
   * then no fix or suggestion rewrites the call). `keyPrefix`: the
   * shape of the ioredis / iovalkey `keyPrefix` option of the client the receiver was made as
   * (`redis-calls/client-key-prefix.ts`), which the client puts before every key: the key as stored
   * is `keyPrefix` followed by the key as written.
   */
  client: { receiver: string; why: string; byName?: true; byShape?: true; keyPrefix?: string };
  /**
   * Arguments the client library drops or misreads, so that Redis never gets the TTL (or the
   * option) the code spells: see {@link DroppedArgument}. Absent when there are none.
   */
  dropped?: DroppedArgument[];
  /**
   * For a call of a pass-through facade: the callee as written (`presence.sadd`) and where the
   * facade forwards the key (`line 12`, `./presence.ts:12`), for messages; `chosenBy`, the TTL
   * argument as the caller wrote it (`0`, `null`) when it chose the facade's arm without expiry
   * (`redis-calls/option-arms.ts`).
   */
  facade?: { label: string; where: string; chosenBy?: string };
}

/**
 * An argument the client does not send as the code means it (each client's option syntax, read
 * from the clients' sources: node-redis `SET` reads `options.EX`, `options.expiration`, ... and
 * ignores anything else; @upstash/redis reads `opts.ex` only when it is a number):
 *
 * - `number-as-options`: a bare number where node-redis takes an options object (`set(k, v, 60)`):
 *   not sent, the SET has no expiry.
 * - `positional-tokens`: ioredis-style tokens passed to node-redis (`set(k, v, 'EX', 60)`): not sent.
 * - `option-casing`: an option key the client does not read (`{ ex: 60 }` for node-redis,
 *   `{ EX: 60 }` for @upstash/redis): not sent.
 * - `not-a-number`: an @upstash/redis expiry that is not a number (`{ ex: '60' }`): not sent.
 * - `may-be-undefined`: an expiry value that may be `undefined` (node-redis and @upstash/redis
 *   then send no expiry).
 * - `no-ttl-syntax`: TTL tokens or options on a command without TTL syntax (`hset(k, f, v, 'EX',
 *   60)` writes a field named `EX`; `lpush(k, v, { EX: 60 })` drops the object).
 * - `keepttl-with-expiry`: KEEPTTL together with an expiry (Redis rejects it; node-redis and
 *   @upstash/redis send only the expiry).
 * - `unknown-option`: a literal in SET's option slots that is no SET option, sent as written
 *   (`set(k, v, 300)` on ioredis): Redis rejects the command and writes nothing.
 * - `object-options`: a node-redis-style options object given to ioredis's SET / GETEX
 *   (`set(k, v, { EX: 60 })`): sent as the token `[object Object]`, Redis rejects the command.
 * - `conflicting-options`: two SET options that exclude each other, sent as written (`'EX', 60,
 *   'PX', 500`, `'NX', 'XX'`; KEEPTTL with an expiry is `keepttl-with-expiry`): Redis rejects the
 *   command and writes nothing.
 * - `empty-token`: `undefined` / `null` on some branch, which ioredis sends as `""`, where Redis
 *   rejects an empty argument (`set(k, v, 'EX', 60, nx ? 'NX' : undefined)`): `empty-tokens.ts`.
 */
export interface DroppedArgument {
  kind: 'number-as-options' | 'positional-tokens' | 'option-casing' | 'not-a-number' | 'may-be-undefined' | 'no-ttl-syntax' | 'keepttl-with-expiry' | 'unknown-option' | 'conflicting-options' | 'object-options' | 'empty-token';
  /** Where to report. */
  node: TSESTree.Node;
  /** Whether what is dropped carries a TTL (then `valid-ttl-args` reports it, and the key rules leave it). */
  ttl: boolean;
  /** The option as written (`'ex'`, `'EX'`), when there is one. */
  option?: string;
  /** The spelling the client reads (`'EX'` for node-redis, `'ex'` for @upstash/redis). */
  expected?: string;
  /** `conflicting-options`: the earlier option this one excludes, upper-cased. */
  conflictsWith?: string;
}

/**
 * Methods that send a command by name, its arguments after it (spread or as one array): ioredis
 * `call('SET', k, v)` / `callBuffer`, node-redis v3 `send_command('SET', [k, v])`, Bun's
 * `send('SETEX', [k, '60', v])`, `command('SET', k, v)` (tedis and other thin clients).
 */
const GENERIC_BY_NAME = new Set(['call', 'callBuffer', 'send_command', 'send', 'command']);
/**
 * Methods that send an argv array: node-redis `sendCommand([...])` / `addCommand([...])`, upstash
 * `exec([...])`, Valkey GLIDE `customCommand([...])`.
 */
const GENERIC_BY_ARRAY = new Set(['sendCommand', 'addCommand', 'exec', 'customCommand']);
/**
 * Subcommands of COMMAND: `command('INFO', 'get')` on ioredis (whose `command` method is the
 * COMMAND command) asks about a command, it does not run it.
 */
const COMMAND_SUBCOMMANDS = new Set(['COUNT', 'DOCS', 'GETKEYS', 'GETKEYSANDFLAGS', 'HELP', 'INFO', 'LIST']);
/** Whether a member call's method name may issue a command (cheap filter before any analysis). */
export function isCandidateMethod(method: string): boolean {
  return (
    GENERIC_BY_NAME.has(method) ||
    GENERIC_BY_ARRAY.has(method) ||
    method === 'multi' ||
    method === 'pipeline' ||
    commandOfMethod(method) !== undefined
  );
}

/** The cheap syntactic filter of {@link normalizeCall}: a member call with a candidate method name. */
export function isCandidateCall(node: TSESTree.CallExpression): boolean {
  const callee = node.callee.type === AST_NODE_TYPES.ChainExpression ? node.callee.expression : node.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = propertyName(callee.property, callee.computed);
  return method !== undefined && (isCandidateMethod(method) || moduleNamespaceOf(callee) !== undefined);
}

/** A call's arguments flattened into a Redis argv, with the node each entry comes from. */
export interface Flattened {
  args: CommandArg[];
  nodes: Array<TSESTree.Node | undefined>;
  optionsObject?: TSESTree.ObjectExpression;
  /**
   * For entries read from a local array (`redis-calls/arg-arrays.ts`): the conditional group of
   * each entry, by index (`undefined`: always sent), until {@link settleGroups} settles them.
   */
  groups?: Array<number | undefined>;
}

/** The HEXPIRE family: node-redis and @upstash/redis take `(key, fields, time, condition?)`. */
const HASH_FIELD_EXPIRES = new Set(['HEXPIRE', 'HPEXPIRE', 'HEXPIREAT', 'HPEXPIREAT']);

/**
 * The argv `key time [condition] FIELDS n field ...` of a node-redis / @upstash/redis HEXPIRE-family
 * method, whose arguments are `(key, fields, time, condition?)` (`hExpire(k, ['a', 'b'], 60, 'NX')`,
 * a single field as a string) and whose time is seconds, milliseconds or a Unix time by command
 * (https://redis.io/docs/latest/commands/hexpire/).
 */
function hashFieldExpireArgv(context: AnyContext, nodes: readonly TSESTree.Node[]): Flattened {
  const [key, fields, ...rest] = nodes;
  const head = flattenArguments(context, [key!, ...rest], rest.length + 1);
  const list = flattenArguments(context, [fields!], 1);
  return { args: [...head.args, 'FIELDS', list.args.length, ...list.args], nodes: [...head.nodes, undefined, undefined, ...list.nodes] };
}

/**
 * Flattens call arguments into argv entries: arrays are spread (ioredis and node-redis accept
 * them), an object literal first is `key value` pairs (`mset({ a: 1 })`), and so is one at `arrays.pairsObjectAt` (`hset(key, { f: v })`), an object literal from
 * argument `optionsFrom` on (the third; the second for GETEX) is an option object, and a spread we
 * cannot read is one unknown entry, or as the last argument enough of them to reach the options
 * (see {@link pushUnknownSpread}). With `pairs` (MSET, MSETNX), an array of pairs made by `map` /
 * `flatMap` stands for the elements of the pair its callback returns ({@link mappedPairElements}).
 */
function flattenArguments(context: AnyContext, nodes: readonly TSESTree.Node[], optionsFrom = 2, pairs = false, arrays?: ArrayArguments): Flattened {
  const out: Flattened = { args: [], nodes: [] };
  nodes.forEach((original, index) => {
    const local = arrays ? localArrayArgument(context, original, index, arrays) : undefined;
    if (local === 'unreadable') {
      // an array the code may change elsewhere before the call: tokens we cannot tell
      if (original.type === AST_NODE_TYPES.SpreadElement) pushUnknownSpread(out, original, index === nodes.length - 1 ? optionsFrom + 1 : 0);
      else pushUnknown(out, original);
      return;
    }
    if (local) {
      pushLocalArray(out, local);
      return;
    }
    if (original.type === AST_NODE_TYPES.SpreadElement) {
      const spread = resolveConstExpression(context, original.argument);
      if (spread.type === AST_NODE_TYPES.ArrayExpression) pushArrayElements(context, spread, out);
      else pushUnknownSpread(out, original, index === nodes.length - 1 ? optionsFrom + 1 : 0);
      return;
    }
    const node = resolveConstExpression(context, original);
    // a trailing callback (ioredis, node-redis v3), written at the call or passed by name, is not a command argument
    if (index > 0 && index === nodes.length - 1 && (isCallbackArgument(context, original) || isCallbackArgument(context, node))) return;
    const mapped = pairs ? mappedPairElements(node) : undefined;
    if (node.type === AST_NODE_TYPES.ArrayExpression) {
      pushArrayElements(context, node, out);
    } else if (mapped) {
      // mset(txs.map((tx) => [`tx:${tx.id}`, v])): one pair stands for them all, its key and
      // value read where the callback writes them
      for (const element of mapped) {
        const value = staticValue(context, element);
        out.args.push(typeof value === 'boolean' ? undefined : value);
        out.nodes.push(element);
      }
    } else if (node.type === AST_NODE_TYPES.ObjectExpression && (index === 0 || index === arrays?.pairsObjectAt)) {
      for (const property of node.properties) {
        if (property.type !== AST_NODE_TYPES.Property) {
          pushUnknown(out, property);
          continue;
        }
        out.args.push(propertyName(property.key, property.computed));
        out.nodes.push(property.key);
        out.args.push(staticValue(context, property.value) as CommandArg);
        out.nodes.push(property.value);
      }
    } else if (node.type === AST_NODE_TYPES.ObjectExpression && index >= optionsFrom && arrays?.objectAsText) {
      out.args.push(OBJECT_AS_TEXT);
      out.nodes.push(original);
    } else if (node.type === AST_NODE_TYPES.ObjectExpression && index >= optionsFrom) {
      out.optionsObject = node;
      pushOptions(context, node, out);
    } else {
      const value = staticValue(context, original);
      out.args.push(typeof value === 'boolean' ? undefined : value);
      out.nodes.push(original);
    }
  });
  return out;
}

/**
 * `list.map((x) => [key, value])` (nested pairs) or `list.flatMap((x) => [key, value])` (flat): the
 * elements of the pair the callback, written at the call, returns, when it returns one array
 * literal of two elements (no spread); `undefined` for any other array.
 */
function mappedPairElements(node: TSESTree.Node): TSESTree.Node[] | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression || node.arguments.length === 0) return undefined;
  const callee = unwrap(node.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee.property, callee.computed) : undefined;
  if (method !== 'map' && method !== 'flatMap') return undefined;
  const callback = unwrap(node.arguments[0]!);
  if (callback.type !== AST_NODE_TYPES.ArrowFunctionExpression && callback.type !== AST_NODE_TYPES.FunctionExpression) return undefined;
  const returned = returnedExpressions(callback);
  const pair = returned.length === 1 ? unwrap(returned[0]!) : undefined;
  if (pair?.type !== AST_NODE_TYPES.ArrayExpression || pair.elements.length !== 2) return undefined;
  const [key, value] = pair.elements;
  if (!key || !value || key.type === AST_NODE_TYPES.SpreadElement || value.type === AST_NODE_TYPES.SpreadElement) return undefined;
  return [key, value];
}

/**
 * A spread we cannot read (`set(...args)`, `set(key, ...rest)`) stands for any number of entries.
 * As the last argument it may carry the options too (a wrapper forwarding its arguments): it then
 * fills the argv up to `minLength` unknown entries, so that the options count as unknown (may be
 * an expiry) rather than absent.
 */
function pushUnknownSpread(out: Flattened, node: TSESTree.SpreadElement, minLength: number): void {
  pushUnknown(out, node);
  while (out.args.length < minLength) pushUnknown(out, node);
}

function pushUnknown(out: Flattened, node: TSESTree.Node): void {
  out.args.push(undefined);
  out.nodes.push(node);
}

/**
 * Where a call's arguments may be local arrays read by `redis-calls/arg-arrays.ts`: the call, and
 * whether a bare array argument at an index is sent flattened (client syntax: ioredis flattens
 * every argument one level, `Command` runs `args.flat()`; node-redis 2 / 3 take an array as the
 * first argument, `set([k, v, 'EX', 60], cb)`, or the second after the key, `set(k, [v, 'EX',
 * 60])`; node-redis 4 / 5 reject one, its encoder throws "must be of type string | Buffer";
 * @upstash/redis serializes it as one JSON value and GLIDE takes strings only). A spread
 * (`set(...args)`) is JavaScript's, the same for every client.
 */
interface ArrayArguments {
  call: TSESTree.Node;
  flattensAt: (index: number) => boolean;
  /** The client sends an object in the option slots as its text (`option-checks.ts` sendsObjectAsText). */
  objectAsText?: boolean;
  /** The argument index at which an object literal is `field value` pairs (`hset(key, { f: v })`: 1). */
  pairsObjectAt?: number;
}

/** Whether `flavor` sends an array argument at `index` flattened (see {@link ArrayArguments}). */
function flattensArrayAt(flavor: ClientFlavor, index: number): boolean {
  return flavor === 'ioredis' || (flavor === 'node-redis-3' && index <= 1);
}

/** The tokens of a local array passed as `node` (`args`, `...args`), when it is one. */
function localArrayArgument(context: AnyContext, node: TSESTree.Node, index: number, arrays: ArrayArguments): ArrayToken[] | 'unreadable' | undefined {
  const spread = node.type === AST_NODE_TYPES.SpreadElement;
  const bare = unwrap(spread ? node.argument : node);
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  // a bare array argument: only where the client flattens it (a `const` array always was read)
  if (!spread && !arrays.flattensAt(index) && !constArray(context, bare)) return undefined;
  return localArrayTokens(context, bare, arrays.call);
}

function constArray(context: AnyContext, id: TSESTree.Identifier): boolean {
  return resolveConstExpression(context, id).type === AST_NODE_TYPES.ArrayExpression;
}

/** Appends a local array's tokens, numbering its conditional groups after those already there. */
function pushLocalArray(out: Flattened, tokens: readonly ArrayToken[]): void {
  const offset = Math.max(0, ...(out.groups ?? []).map((g) => g ?? 0));
  for (const token of tokens) {
    if (token.group !== undefined) {
      out.groups ??= [];
      out.groups[out.args.length] = token.group + offset;
    }
    out.args.push(token.value);
    out.nodes.push(token.node);
  }
}

/**
 * The argv with the conditional groups of its local arrays settled by the command table
 * (`settleConditionalGroups`: an expiry pushed under a condition is an optional TTL).
 */
function settleGroups(command: string, prefix: readonly string[], flat: Flattened): void {
  if (!flat.groups) return;
  const groups = [...prefix.map(() => undefined), ...Array.from({ length: flat.args.length }, (_, i) => flat.groups![i])];
  flat.args = settleConditionalGroups(command, [...prefix, ...flat.args], groups).slice(prefix.length);
  delete flat.groups;
}

function pushArrayElements(context: AnyContext, array: TSESTree.ArrayExpression, out: Flattened): void {
  for (const element of array.elements) {
    if (!element) continue;
    if (element.type === AST_NODE_TYPES.SpreadElement) {
      pushUnknown(out, element);
      continue;
    }
    const value = staticValue(context, element);
    out.args.push(typeof value === 'boolean' ? undefined : value);
    out.nodes.push(element);
  }
}

/**
 * The argv entries a node-redis / @upstash/redis option object literal stands for (`{ EX: 60 }` is
 * `EX 60`, `{}` nothing), as a command method reads it from its third argument on: for a call of a
 * pass-through facade that forwards such an object (`redis-calls/facades.ts`).
 */
export function optionObjectArgv(context: AnyContext, object: TSESTree.ObjectExpression): { args: CommandArg[]; nodes: Array<TSESTree.Node | undefined> } {
  const out: Flattened = { args: [], nodes: [] };
  pushOptions(context, object, out);
  return out;
}

/**
 * Option objects as Redis tokens: `true` flags become their name (`{ GET: true }` -> `GET`,
 * upstash `{ keepTtl: true }` -> `keepTtl`, which the table reads case-insensitively), values
 * become `NAME value` (`{ EX: 60 }`), node-redis v5 `expiration` / `condition` become their
 * tokens. Anything unreadable becomes an unknown entry, which the table treats as "may be an
 * expiry".
 */
function pushOptions(context: AnyContext, object: TSESTree.ObjectExpression, out: Flattened): void {
  // node-redis v5 GETEX takes `{ type: 'EX', value: 60 }` / `{ type: 'PERSIST' }` itself
  const typed = object.properties.some((p) => p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === 'type');
  if (typed) {
    for (const property of object.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const name = propertyName(property.key, property.computed);
      const value = staticValue(context, property.value);
      if (name !== 'type' && name !== 'value') continue;
      out.args.push(typeof value === 'boolean' ? undefined : value);
      out.nodes.push(name === 'value' ? property.value : undefined);
    }
    return;
  }
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) {
      pushUnknown(out, property);
      continue;
    }
    const name = propertyName(property.key, property.computed);
    if (name === undefined) {
      pushUnknown(out, property);
      continue;
    }
    const valueNode = resolveConstExpression(context, property.value);
    if (name === 'expiration' || name === 'condition') {
      if (valueNode.type === AST_NODE_TYPES.ObjectExpression) {
        // { type: 'EX', value: 60 } | { type: 'KEEPTTL' }
        let type: CommandArg;
        let value: CommandArg;
        let hasValue = false;
        let valueNodeOf: TSESTree.Node | undefined;
        let readable = true;
        for (const inner of valueNode.properties) {
          if (inner.type !== AST_NODE_TYPES.Property) {
            readable = false;
            continue;
          }
          const innerName = propertyName(inner.key, inner.computed);
          const innerValue = staticValue(context, inner.value);
          if (innerName === 'type') type = typeof innerValue === 'string' ? innerValue : undefined;
          else if (innerName === 'value') {
            hasValue = true;
            value = typeof innerValue === 'boolean' ? undefined : innerValue;
            valueNodeOf = inner.value;
          }
        }
        out.args.push(readable ? type : undefined);
        out.nodes.push(undefined);
        if (hasValue) {
          // the expiry's own node (as `{ EX: ttl }`'s): ttl-units and expire-needs-positive-ttl
          // read `{ expiration: { type: 'EX', value: ttlMs } }` as they read `{ EX: ttlMs }`
          out.args.push(value);
          out.nodes.push(valueNodeOf);
        }
      } else {
        const value = staticValue(context, valueNode);
        out.args.push(typeof value === 'string' ? value : undefined);
        out.nodes.push(undefined);
      }
      continue;
    }
    if (name === 'TRIM') {
      pushTrim(context, valueNode, out);
      continue;
    }
    const value = staticValue(context, valueNode);
    if (value === false) continue;
    out.args.push(name);
    out.nodes.push(property.key);
    if (value === true) continue;
    out.args.push(value);
    out.nodes.push(property.value);
  }
}

/**
 * node-redis' XADD option `TRIM: { strategy: 'MAXLEN' | 'MINID', strategyModifier?: '=' | '~',
 * threshold, limit? }` as the tokens it sends (`MAXLEN ~ 1000 LIMIT 100`). An option object that
 * cannot be read still caps the stream: its strategy is taken as MAXLEN and the threshold is unknown.
 */
function pushTrim(context: AnyContext, valueNode: TSESTree.Node, out: Flattened): void {
  const read = (field: string): CommandArg => {
    if (valueNode.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const property = valueNode.properties.find((p) => p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === field);
    if (property?.type !== AST_NODE_TYPES.Property) return undefined;
    const value = staticValue(context, property.value);
    return typeof value === 'boolean' ? undefined : value;
  };
  const strategy = read('strategy');
  out.args.push(typeof strategy === 'string' ? strategy : 'MAXLEN');
  out.nodes.push(undefined);
  const modifier = read('strategyModifier');
  if (modifier !== undefined) {
    out.args.push(modifier);
    out.nodes.push(undefined);
  }
  out.args.push(read('threshold'));
  out.nodes.push(undefined);
  const limit = read('limit');
  if (limit !== undefined) {
    out.args.push('LIMIT', limit);
    out.nodes.push(undefined, undefined);
  }
}

/** Builds the {@link RedisCall}s issued by one call expression (none when it is not a Redis call). */
export function normalizeCall(
  context: AnyContext,
  detector: ClientDetector,
  node: TSESTree.CallExpression,
  promised?: PromisifiedTarget,
): RedisCall[] {
  const callee = promised?.callee ?? unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return [];
  const method = promised?.method ?? propertyName(callee.property, callee.computed);
  if (method === undefined) return [];
  const namespace = moduleNamespaceOf(callee);
  if (namespace) return moduleCall(context, detector, node, callee, namespace, method);
  if (!isCandidateMethod(method)) return [];
  // pify(client): the call's member is read on the client it wraps
  const object = promised?.receiver ?? callee.object;
  const receiver = detector.classify(object);
  if (!receiver.redis) return [];
  const guessed = receiver.flavor !== 'unknown' ? receiver.flavor : guessFlavor(method, node, detector);
  // node-redis 3 sends its arguments as written (`set(k, v, 'EX', 60, cb)`): ioredis' syntax
  // (so do node-redis 4's legacyMode and 5's legacy() clients)
  let flavor = guessed === 'node-redis' && (promised || isNodeRedis3(context, callee.property, node) || isLegacyModeClient(context, object)) ? 'node-redis-3' : guessed;
  const client = {
    receiver: shortText(context, object),
    why: receiver.why,
    ...(receiver.byName ? { byName: true as const } : {}),
    ...(receiver.byShape ? { byShape: true as const } : {}),
    ...(receiver.keyPrefix !== undefined ? { keyPrefix: receiver.keyPrefix } : {}),
  };

  // ioredis multi([['incr', key], ...]) / pipeline([...])
  if (method === 'multi' || method === 'pipeline') {
    const list = node.arguments[0] ? resolveConstExpression(context, node.arguments[0]) : undefined;
    if (list?.type !== AST_NODE_TYPES.ArrayExpression) return [];
    const unit: AtomicUnit = { key: node, kind: method === 'multi' ? 'multi' : 'pipeline' };
    const calls: RedisCall[] = [];
    for (const element of list.elements) {
      if (element?.type !== AST_NODE_TYPES.ArrayExpression) continue;
      const call = fromArgv(context, element, element.elements.filter(isPresent), 'queued-array', flavor, unit, client);
      if (call) calls.push(call);
    }
    return calls;
  }

  const unit = unitOf(context, node, object, receiver);

  const flavorKnown = receiver.flavor !== 'unknown' || detector.fileFlavor() !== 'unknown';
  if (GENERIC_BY_NAME.has(method)) {
    const name = node.arguments[0] ? staticValue(context, node.arguments[0]) : undefined;
    if (method === 'command' && typeof name === 'string' && COMMAND_SUBCOMMANDS.has(name.toUpperCase())) return [];
    // send('SETEX', [k, '60', v]): the argv is the name and the array's elements (suggestions
    // then edit inside the array); the array of a trailing-callback call too
    const [, arrayArg, ...rest] = node.arguments;
    const elements =
      arrayArg?.type === AST_NODE_TYPES.ArrayExpression && rest.every((arg) => isCallbackArgument(context, arg)) && !arrayArg.elements.some((e) => e === null)
        ? [node.arguments[0]!, ...arrayArg.elements.filter(isPresent)]
        : node.arguments;
    // in the client's syntax: ioredis sends an options object as `[object Object]` (a client of unknown flavor is not judged)
    const call = fromArgv(context, node, elements, 'generic', flavor, unit, client, undefined, flavorKnown);
    return call ? [call] : [];
  }
  if (GENERIC_BY_ARRAY.has(method)) {
    // const argv = ['SET', k, v]; if (ttl) argv.push('EX', ttl); sendCommand(argv)
    const local = fromLocalArgv(context, node, flavor, unit, client);
    if (local) return [local];
    const arrayArg = node.arguments
      .map((arg) => resolveConstExpression(context, arg))
      .find((arg): arg is TSESTree.ArrayExpression => arg.type === AST_NODE_TYPES.ArrayExpression);
    if (!arrayArg) return [];
    const call = fromArgv(context, node, arrayArg.elements.filter(isPresent), 'generic', flavor, unit, client);
    return call ? [{ ...call, node }] : [];
  }

  const resolved = commandOfMethod(method);
  if (!resolved) return [];
  // a client guessed by its declared type's shape or its name, whose declaration of the code gives
  // this method a parameter list of its own (`set(key, value, ttl?: number)`): the code's wrapper,
  // read through its implementation if at all (`declared-wrappers.ts`), not the client's command
  if (receiver.byName && declaresOwnSignature(detector, object, method, resolved)) return [];
  // a client by name only, its options in another client's syntax: that client's (dialect.ts)
  flavor = undecidedDialect(context, object, receiver, detector.fileFlavor(), flavor, resolved.command, node.arguments) ?? flavor;
  // redis8.sadd({ key: REDIS_KEY.BOTS, member }) of a client by name only: the code's wrapper,
  // called with named arguments; its key is the `key` property's value
  const named = receiver.byName ? namedArguments(resolved.command, node.arguments) : undefined;
  const commandArgs = named ?? commandArguments(context, node, flavor, unit);
  // GETEX key options: the options object comes right after the key; GLIDE has its own syntax
  const flat: Flattened =
    flavor === 'glide'
      ? glideArgv(context, resolved.command, commandArgs)
      : HASH_FIELD_EXPIRES.has(resolved.command) && (flavor === 'node-redis' || flavor === 'upstash') && commandArgs.length >= 3
        ? hashFieldExpireArgv(context, commandArgs)
        : flattenArguments(context, commandArgs, resolved.command === 'GETEX' ? 1 : 2, namesKeyValuePairs(resolved.command), {
            call: node,
            flattensAt: (index) => flattensArrayAt(flavor, index),
            objectAsText: flavorKnown && sendsObjectAsText(resolved.command, flavor),
            pairsObjectAt: namesFieldValuePairs(resolved.command) ? 1 : undefined,
          });
  settleGroups(resolved.command, resolved.prefix, flat);
  const dropped = flavorKnown ? droppedArguments(context, resolved.command, flavor, node, commandArgs, flat) : [];
  dropped.push(...misplacedTtl(context, resolved.command, flat));
  const args = [...resolved.prefix, ...flat.args];
  const nodes = [...resolved.prefix.map(() => undefined), ...flat.nodes];
  const description = describeCommand(resolved.command, args);
  dropped.push(...keepTtlConflict(description, args, nodes, dropped));
  if (flavorKnown && SENDS_TOKENS_AS_WRITTEN.has(flavor)) dropped.push(...unknownOptionOf(description, nodes, dropped), ...optionConflict(description, nodes));
  if (flavorKnown && flavor === 'ioredis') dropped.push(...emptyTokens(context, resolved.command, args, nodes));
  return [
    {
      node,
      nameNode: promised?.nameNode ?? callee.property,
      form: promised ? 'facade' : 'method',
      flavor,
      command: resolved.command,
      args,
      argNodes: nodes,
      description,
      ...(flat.optionsObject ? { optionsObject: flat.optionsObject } : {}),
      argumentNodes: commandArgs,
      ...(commandArgs !== node.arguments && !named ? { commandOptions: node.arguments[0]! } : {}),
      unit,
      // named arguments: the code's wrapper, whose own syntax no fix may rewrite into a client's
      client: named ? { ...client, byShape: true as const } : client,
      ...(dropped.length > 0 ? { dropped } : {}),
    },
  ];
}

/**
 * A node-redis module command (`client.json.set(key, '$', value)`, `client.ts.add(key, '*', 1)`,
 * `client.multi().bf.add(key, item)`; @redis/json, @redis/time-series and @redis/bloom, bundled in
 * `redis` 4 and 5; @upstash/redis has `json` too): the namespace and method name the command
 * (`moduleCommandName`), and the argv is rebuilt as the client's `parseCommand` sends it (see
 * {@link moduleArguments}). ioredis has no namespaces: there `redis.json` is not a command.
 */
function moduleCall(
  context: AnyContext,
  detector: ClientDetector,
  node: TSESTree.CallExpression,
  callee: TSESTree.MemberExpression,
  namespace: TSESTree.MemberExpression & { property: TSESTree.Identifier },
  method: string,
): RedisCall[] {
  const command = moduleCommandName(namespace.property.name, method);
  if (command === undefined) return [];
  const receiver = detector.classify(namespace.object);
  if (!receiver.redis || receiver.flavor === 'ioredis') return [];
  const flavor = receiver.flavor !== 'unknown' ? receiver.flavor : detector.fileFlavor() !== 'unknown' ? detector.fileFlavor() : 'node-redis';
  const client = { receiver: shortText(context, namespace.object), why: receiver.why, ...(receiver.byName ? { byName: true as const } : {}), ...(receiver.byShape ? { byShape: true as const } : {}) };
  const unit = unitOf(context, node, namespace.object, receiver);
  const commandArgs = commandArguments(context, node, flavor, unit);
  const flat = moduleArguments(context, command, commandArgs);
  return [
    {
      node,
      nameNode: callee.property,
      form: 'method',
      flavor,
      command,
      args: flat.args,
      argNodes: flat.nodes,
      description: describeCommand(command, flat.args),
      ...(flat.optionsObject ? { optionsObject: flat.optionsObject } : {}),
      argumentNodes: commandArgs,
      ...(commandArgs !== node.arguments ? { commandOptions: node.arguments[0]! } : {}),
      unit,
      client,
    },
  ];
}

/**
 * The arguments of a command method call that make its argv: all of them, but node-redis 4 command
 * options first (`get(commandOptions({ returnBuffers: true }), key)`, `redis-calls/command-options.ts`),
 * which the client takes off before sending, so the key is the argument after them. Only a round
 * trip of its own: node-redis 4 queues a MULTI's commands without looking for options.
 */
function commandArguments(context: AnyContext, node: TSESTree.CallExpression, flavor: ClientFlavor, unit: AtomicUnit): readonly TSESTree.CallExpressionArgument[] {
  if ((flavor !== 'node-redis' && flavor !== 'unknown') || unit.kind !== 'single') return node.arguments;
  return node.arguments.length >= 2 && isCommandOptionsArgument(context, node.arguments[0]) ? node.arguments.slice(1) : node.arguments;
}

/**
 * The arguments of a call written with named arguments, `sadd({ key: REDIS_KEY.BOTS, member })`:
 * one object literal whose `key` property is written (no spread, no computed name), for a command
 * that does not take an object of key-value pairs first (`mset({ k1: v1 })`). No client takes a
 * key command's arguments so: it is a wrapper of the code whose parameter is destructured
 * (`sadd: ({ key, member }) => client.sadd(key, member)`), and its arguments are the object's
 * values, the key first, the others in the order written. `undefined` for any other call.
 */
function namedArguments(command: string, args: readonly TSESTree.CallExpressionArgument[]): TSESTree.Node[] | undefined {
  if (args.length !== 1 || namesKeyValuePairs(command)) return undefined;
  const object = unwrap(args[0]!);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const properties: TSESTree.Property[] = [];
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed || property.kind !== 'init' || property.method) return undefined;
    properties.push(property);
  }
  const key = properties.find((property) => propertyName(property.key, false) === 'key');
  if (!key) return undefined;
  return [key.value, ...properties.filter((property) => property !== key).map((property) => property.value)];
}

/** Module commands whose argument 2 is a JSON value, sent as one JSON string (node-redis `transformRedisJsonArgument`). */
const JSON_VALUE_AT_2 = new Set(['JSON.SET', 'JSON.MERGE', 'JSON.ARRAPPEND', 'JSON.STRAPPEND']);
/** BF.INSERT / CF.INSERT / CF.INSERTNX: node-redis `insert(key, items, options)` sends `key options... ITEMS items...`. */
const FILTER_INSERTS = new Set(['BF.INSERT', 'CF.INSERT', 'CF.INSERTNX']);

/**
 * The argv of a node-redis module method, as its `parseCommand` builds it (read from @redis/json,
 * @redis/time-series and @redis/bloom 5): a JSON value is one argument whatever its shape
 * (`json.set(k, '$', { a: 1 })`), `json.set`'s fourth argument is its condition (`{ condition:
 * 'NX' }`, v4's `{ NX: true }`), `json.mSet([{ key, path, value }, ...])` is `key path value`
 * triples, the filters' `insert(key, items, options)` puts the options before `ITEMS`, and for
 * every other method an option object from the second argument on becomes its tokens
 * (`ts.create(k, { RETENTION: 60000 })` -> `RETENTION 60000`) and an array is spread.
 */
function moduleArguments(context: AnyContext, command: string, nodes: readonly TSESTree.Node[]): Flattened {
  if (command === 'JSON.MSET') {
    const out: Flattened = { args: [], nodes: [] };
    const list = nodes[0] ? resolveConstExpression(context, nodes[0]) : undefined;
    if (list?.type !== AST_NODE_TYPES.ArrayExpression) {
      if (nodes[0]) pushUnknown(out, nodes[0]);
      return out;
    }
    for (const element of list.elements) {
      const item = element && element.type !== AST_NODE_TYPES.SpreadElement ? resolveConstExpression(context, element) : undefined;
      if (item?.type !== AST_NODE_TYPES.ObjectExpression) {
        if (element) pushUnknown(out, element);
        continue;
      }
      for (const name of ['key', 'path', 'value']) {
        const property = item.properties.find((p): p is TSESTree.ObjectLiteralElement & TSESTree.Property => p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === name);
        const value = property && name !== 'value' ? staticValue(context, property.value) : undefined;
        out.args.push(typeof value === 'string' || typeof value === 'number' ? value : undefined);
        out.nodes.push(property?.value ?? item);
      }
    }
    return out;
  }
  if (JSON_VALUE_AT_2.has(command)) {
    const out: Flattened = { args: [], nodes: [] };
    nodes.forEach((original, index) => {
      const node = resolveConstExpression(context, original);
      if (index === 3 && command === 'JSON.SET' && node.type === AST_NODE_TYPES.ObjectExpression) {
        out.optionsObject = node;
        pushOptions(context, node, out);
        return;
      }
      const value = index === 2 || original.type === AST_NODE_TYPES.SpreadElement ? undefined : staticValue(context, original);
      out.args.push(typeof value === 'string' || typeof value === 'number' ? value : undefined);
      out.nodes.push(original);
    });
    return out;
  }
  if (FILTER_INSERTS.has(command) && nodes.length >= 2) {
    const [key, items, ...rest] = nodes;
    const head = flattenArguments(context, [key!, ...rest], 1);
    const tail = flattenArguments(context, [items!], 1);
    return { ...head, args: [...head.args, 'ITEMS', ...tail.args], nodes: [...head.nodes, undefined, ...tail.nodes] };
  }
  return flattenArguments(context, nodes, 1);
}

/** A receiver's source text on one line, shortened to about 40 characters. */
function shortText(context: AnyContext, node: TSESTree.Node): string {
  const text = context.sourceCode.getText(node).replace(/\s+/g, ' ');
  return text.length <= 40 ? text : `${text.slice(0, 37)}...`;
}

function isPresent<T>(value: T | null): value is T {
  return value !== null;
}

/** A command written as an argv whose first element is the command name. */
function fromArgv(
  context: AnyContext,
  node: TSESTree.CallExpression | TSESTree.ArrayExpression,
  elements: readonly TSESTree.Node[],
  form: RedisCall['form'],
  flavor: ClientFlavor,
  unit: AtomicUnit,
  client: RedisCall['client'],
  given?: { name: CommandArg; flat: Flattened },
  objectsAsText = false,
): RedisCall | undefined {
  const [nameNode, ...rest] = elements;
  if (!nameNode || nameNode.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const name = (given ? given.name : staticValue(context, nameNode)) ?? enumMemberName(context, nameNode);
  if (typeof name !== 'string' || !isKnownCommand(name)) return undefined;
  const command = name.toUpperCase();
  // generic forms take the argv as one array, or flatten it (ioredis `call('SET', args)`); an
  // options object where the client takes tokens is sent as its text (`objectsAsText`)
  const objectAsText = objectsAsText && sendsObjectAsText(command, flavor);
  const flat =
    given?.flat ??
    flattenArguments(context, rest, command === 'GETEX' ? 1 : 2, false, form === 'generic' ? { call: node, flattensAt: () => true, objectAsText } : undefined);
  settleGroups(command, [], flat);
  const description = describeCommand(command, flat.args);
  const objects = objectAsText ? objectOptionsOf(context, command, flavor, rest) : [];
  const dropped = [...objects, ...keepTtlConflict(description, flat.args, flat.nodes, []), ...unknownOptionOf(description, flat.nodes, objects), ...optionConflict(description, flat.nodes)];
  if (flavor === 'ioredis' && form === 'generic') dropped.push(...emptyTokens(context, command, flat.args, flat.nodes));
  return {
    node,
    nameNode,
    form,
    flavor,
    command,
    args: flat.args,
    argNodes: flat.nodes,
    description,
    argumentNodes: elements,
    unit,
    client,
    ...(dropped.length > 0 ? { dropped } : {}),
  };
}

/**
 * A command sent as a local argv array whose first token names it (`sendCommand(argv)`,
 * `customCommand(argv)`), read by `redis-calls/arg-arrays.ts`; the name must always be there.
 */
function fromLocalArgv(context: AnyContext, node: TSESTree.CallExpression, flavor: ClientFlavor, unit: AtomicUnit, client: RedisCall['client']): RedisCall | undefined {
  const argument = node.arguments.find((arg) => unwrap(arg).type === AST_NODE_TYPES.Identifier);
  if (!argument) return undefined;
  const tokens = localArrayTokens(context, unwrap(argument) as TSESTree.Identifier, node);
  const [name, ...rest] = Array.isArray(tokens) ? tokens : [];
  if (!name || name.group !== undefined) return undefined;
  const flat: Flattened = { args: [], nodes: [] };
  pushLocalArray(flat, rest);
  const call = fromArgv(context, node, [name.node, ...rest.map((t) => t.node)], 'generic', flavor, unit, client, { name: name.value, flat });
  // reported at the call, and its argument list is the call's own: no suggestion edits the array
  const callee = unwrap(node.callee);
  return call && callee.type === AST_NODE_TYPES.MemberExpression ? { ...call, node, nameNode: callee.property, argumentNodes: node.arguments } : undefined;
}

/** When detection does not tell the client: the method spelling and option style do. */
function guessFlavor(method: string, node: TSESTree.CallExpression, detector: ClientDetector): ClientFlavor {
  const fromFile = detector.fileFlavor();
  if (fromFile !== 'unknown') return fromFile;
  if (method === 'sendCommand' || /[a-z][A-Z]/.test(method.replace(/Buffer$/, ''))) return 'node-redis';
  const last = node.arguments[node.arguments.length - 1];
  if (last?.type === AST_NODE_TYPES.ObjectExpression) {
    const names = last.properties.map((p) => (p.type === AST_NODE_TYPES.Property ? propertyName(p.key) : undefined));
    if (names.some((n) => n !== undefined && n === n.toLowerCase())) return 'upstash';
    return 'node-redis';
  }
  return 'ioredis';
}

/**
 * The atomic unit of a method call: the `multi()` / `pipeline()` chain it is part of, the
 * variable holding such a batch, or the call alone.
 */
function unitOf(
  context: AnyContext,
  node: TSESTree.CallExpression,
  object: TSESTree.Node,
  receiver: ReceiverKind,
): AtomicUnit {
  let current = unwrap(object);
  for (let depth = 0; depth < 200; depth++) {
    if (current.type === AST_NODE_TYPES.CallExpression) {
      const inner = unwrap(current.callee);
      if (inner.type !== AST_NODE_TYPES.MemberExpression) break;
      const name = propertyName(inner.property, inner.computed);
      if (name === 'multi' || name === 'pipeline') {
        return { key: current, kind: batchKindOfChain(current, name) };
      }
      // a module command queued in the chain: `multi().json.set(...)` goes on from `multi()`
      current = unwrap((moduleNamespaceOf(inner) ?? inner).object);
      continue;
    }
    if (current.type === AST_NODE_TYPES.AwaitExpression) {
      current = unwrap(current.argument);
      continue;
    }
    // new Batch(true).set(k, v).expire(k, 60) (Valkey GLIDE): the batch object made in the chain
    if (current.type === AST_NODE_TYPES.NewExpression && receiver.redis && receiver.batch) return { key: current, kind: receiver.batch };
    if (current.type === AST_NODE_TYPES.Identifier && receiver.redis && receiver.batch) {
      return batchRootOfIdentifier(context, current, receiver.batch) ?? { key: current, kind: receiver.batch };
    }
    break;
  }
  return { key: node, kind: 'single' };
}

/** `multi()` chains end in `exec()`; node-redis `execAsPipeline()` sends them as a plain pipeline. */
function batchKindOfChain(root: TSESTree.CallExpression, name: 'multi' | 'pipeline'): 'multi' | 'pipeline' {
  if (name === 'pipeline') return 'pipeline';
  let current: TSESTree.Node = root;
  while (
    current.parent?.type === AST_NODE_TYPES.MemberExpression &&
    current.parent.object === current &&
    current.parent.parent?.type === AST_NODE_TYPES.CallExpression
  ) {
    if (propertyName(current.parent.property, current.parent.computed) === 'execAsPipeline') return 'pipeline';
    current = current.parent.parent;
  }
  return 'multi';
}

/**
 * Whether a batch variable is sent by node-redis `m.execAsPipeline()` (`const m = client.multi();
 * ...; await m.execAsPipeline()`): a plain pipeline, not a transaction, as in a chain.
 */
function sentAsPipeline(variable: { references: ReadonlyArray<{ identifier: TSESTree.Node }> }): boolean {
  return variable.references.some(({ identifier }) => {
    const parent = identifier.parent;
    return parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === identifier && propertyName(parent.property, parent.computed) === 'execAsPipeline';
  });
}

/** For `const m = redis.multi()`: the declaration as the unit key and the batch kind. */
function batchRootOfIdentifier(
  context: AnyContext,
  node: TSESTree.Identifier,
  fallbackKind: 'multi' | 'pipeline',
): AtomicUnit | undefined {
  const scope = context.sourceCode.getScope(node);
  let found: TSESTree.Node | undefined;
  for (let s: typeof scope | null = scope; s && !found; s = s.upper) {
    const variable = s.set.get(node.name);
    if (variable) {
      const def = variable.defs[0];
      if (def?.type === 'Variable' && def.node.init) {
        let init = unwrap(def.node.init);
        // const batch = new Batch(false) (Valkey GLIDE): the `new` expression, as in a chain
        if (init.type === AST_NODE_TYPES.NewExpression) return { key: init, kind: fallbackKind };
        while (init.type === AST_NODE_TYPES.CallExpression) {
          const inner = unwrap(init.callee);
          if (inner.type !== AST_NODE_TYPES.MemberExpression) break;
          const name = propertyName(inner.property, inner.computed);
          // the same key as a chain written in one expression: the multi() / pipeline() call
          if (name === 'multi' || name === 'pipeline') return { key: init, kind: sentAsPipeline(variable) ? 'pipeline' : batchKindOfChain(init, name) };
          init = unwrap(inner.object);
        }
      }
      if (def) return { key: def.name, kind: fallbackKind };
      found = node;
    }
  }
  return undefined;
}
