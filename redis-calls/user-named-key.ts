/**
 * Keys the code's user names: a key that is, verbatim, a value the code was handed by whoever
 * operates it, an HTTP request's field or a command-line argument,
 *
 * ```js
 * app.post('/keys/:key', (req, res) => redis.sadd(req.params.key, req.body.member)); // the operator's key
 * const { key } = ctx.request.body;  await redis.hset(key, field, value);              // the same, Koa
 * program.command('push <key> <value>').action((key, value) => redis.rpush(key, value)); // a CLI's
 * ```
 *
 * is not a key the code chooses: an admin UI or a CLI writes the key its operator typed, and
 * whether that key should expire is the operator's business, as it is the caller's for a
 * pass-through wrapper (`redis-calls/pass-through.ts`). The code has no TTL policy to get wrong.
 *
 * **What counts.** The key expression, as it is (a cast, `await`, a `const` or a `let` never
 * reassigned in between; no prefix, template, concatenation or call around it), is one of:
 *
 * - a request field read off a handler's parameter: `req.params.x`, `req.body.x`, `req.query.x`
 *   (Express, Fastify, Next.js API routes, Koa's `ctx.params.x` / `ctx.query.x`),
 *   `ctx.request.body.x` / `ctx.request.query.x` (Koa), `c.req.param('x')` / `c.req.query('x')` /
 *   `(await c.req.json()).x` (Hono), `req.param('x')` (Express 4), the `params` of a Next.js route
 *   handler's second parameter (`(await params).x`), also destructured at any step
 *   (`const { key } = req.body`, `function h({ params: { key } })`, `const { params } = req`).
 *   A parameter named as the request or its context (`req`, `request`, `ctx`, `context`, `c`, or
 *   ending in `Req` / `Request` / `Ctx` / `Context`), or a destructured one: a queue job's
 *   `job.body.key` is not a request;
 * - a NestJS handler parameter decorated `@Param('x')` / `@Body('x')` / `@Query('x')`, or a field
 *   of one decorated `@Param()` / `@Body()` / `@Query()`;
 * - a command-line argument: `process.argv[i]`, `process.argv.slice(n)[i]` (also destructured), a
 *   parameter of a commander `.action(...)` callback, a field of the `argv` a yargs
 *   `.command(name, description, builder, handler)` handler receives;
 * - a field of a tRPC procedure's `input` or of a GraphQL resolver's arguments: what the remote
 *   caller of the procedure passed (`redis-calls/rpc-input.ts`);
 * - a parameter of a function of the code whose every call passes such a key at that position
 *   (`addSetMember(key, member)` called only with `req.body.key`), a few helpers deep (the callers
 *   `redis-calls/facades.ts` callSitesOf finds; none found, or one it cannot resolve: not counted).
 *
 * A key the code builds from a request field (`` `user:${req.params.id}` ``, `'cart:' + id`,
 * `keyFor(req.params.id)`) is the code's key family, and stays reported; so does a field of
 * anything else (a queue job, a message, a config), a field the code writes on the way
 * (`req.body.key = 'x:' + req.body.key`, `data.key = ...`, `Object.assign(data, { key })`,
 * `[data.key] = ...`), a handler the file also calls itself (`handle(...)`, `handle.call(self, ...)`,
 * `handle.apply(...)`) unless every such call hands it the user's value too (`handle({ key: 'fixed' })`;
 * a recursive call with the message it was handed does), and a write
 * storing a connected client's socket (its id) under the client's name: a room's members.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { EFFECTS_THAT_CLEAR_TTL, EFFECTS_THAT_DELETE_KEY } from '../semantics/commands.js';
import { isObjectAssign } from './containers.js';
import { callSitesOf } from './facades.js';
import { callsInFunction, keyExpiredBeside, optionalExpiry } from './file-index.js';
import { keyParameter } from './helper-keys.js';
import { keyIdOf } from './key-id.js';
import { messageField, storesConnection, type MessageStep } from './message-key.js';
import type { RedisCall } from './normalize.js';
import { rpcInputField } from './rpc-input.js';
import { constInitializer, encloses, enclosingFunction, findVariable, followsOnItsPath, propertyName, unwrap, type AnyContext, type FunctionLike } from './static.js';

/** How many helpers that pass on their key parameter are followed above the write. */
const MAX_HELPERS = 3;
/** How many bindings (`const key = body.key`, `const body = req.body`) are followed from the key. */
const MAX_BINDINGS = 6;

/** One step from a root value: a property read (`.body`, `[2]`), or a call of a method with a string (`.param('key')`), or `.slice(n)` / `.json()`, or `JSON.parse(...)`. */
type Step = MessageStep;

/** The root of a chain: a parameter of a function (its position and its name, when not destructured), or the global `process`. */
type Root = { kind: 'param'; fn: FunctionLike; index: number; name?: string; param: TSESTree.Parameter } | { kind: 'process' };

/** Names of a request or context parameter: `req`, `request`, `ctx`, `context`, `c`, `httpRequest`, `koaCtx`. */
const REQUEST_NAME = /^(?:req|request|ctx|context|c)$|(?:Req|Request|Ctx|Context)$/;
/** The request's own collections of named fields. */
const FIELDS: ReadonlySet<string> = new Set(['params', 'body', 'query']);
/** Koa's `ctx.request` and the fields it parses. */
const KOA_REQUEST: ReadonlySet<string> = new Set(['request']);
const KOA_FIELDS: ReadonlySet<string> = new Set(['body', 'query']);
/** Hono's `c.req` and its readers of one named value. */
const REQ: ReadonlySet<string> = new Set(['req']);
const HONO_READS: ReadonlySet<string> = new Set(['param', 'query']);
/** Express 4's `req.param('x')`. */
const EXPRESS_PARAM: ReadonlySet<string> = new Set(['param']);
/** NestJS's parameter decorators of a request's fields. */
const NEST_DECORATORS = new Set(['Param', 'Body', 'Query']);

const verdicts = new WeakMap<TSESTree.Node, boolean>();

/**
 * Whether the key expression `keyNode` is, verbatim, a value the code's user named: a request
 * field of a route handler, a command-line argument, or a helper's parameter every caller passes
 * one of those (see the module comment). Cached per node for the lint run.
 */
export function userNamedKey(context: AnyContext, keyNode: TSESTree.Node): boolean {
  let verdict = verdicts.get(keyNode);
  if (verdict === undefined) {
    verdict = namedByUser(context, keyNode, 0);
    verdicts.set(keyNode, verdict);
  }
  return verdict;
}

function namedByUser(context: AnyContext, node: TSESTree.Node, helpers: number): boolean {
  const chain = chainOf(context, node, [], 0);
  if (!chain) return false;
  // a handler the code also calls itself: each such call must hand it the user's value too
  if (userInput(context, chain.root, chain.steps)) return calledWithUserValues(context, chain, helpers);
  // a plain parameter of a helper: every call of it passes the user's key there
  if (chain.root.kind !== 'param' || chain.steps.length > 0 || chain.root.name === undefined || helpers >= MAX_HELPERS) return false;
  const parameter = keyParameter(context, chain.root.param.type === AST_NODE_TYPES.AssignmentPattern ? chain.root.param.left : chain.root.param);
  if (!parameter) return false;
  const found = callSitesOf(context, parameter.fn);
  if (!found || found.sites.length === 0) return false;
  return found.sites.every(({ call, context: at }) => {
    const arg = call.arguments[parameter.index];
    return arg !== undefined && arg.type !== AST_NODE_TYPES.SpreadElement && namedByUser(at, arg, helpers + 1);
  });
}

/**
 * The root and the steps the value `node` is read by, following `const` (and never-reassigned
 * `let`) bindings and destructuring back to a parameter or `process`; `undefined` when the value
 * is anything else (a template, a concatenation, a call of the code).
 */
function chainOf(context: AnyContext, node: TSESTree.Node, after: Step[], bindings: number): { root: Root; steps: Step[] } | undefined {
  const bare = unwrapValue(node);
  if (bare.type === AST_NODE_TYPES.MemberExpression) {
    const name = bare.computed ? literalKey(bare.property) : propertyName(bare.property, false);
    if (name === undefined) return undefined;
    return chainOf(context, bare.object, [{ kind: 'prop', name: String(name) }, ...after], bindings);
  }
  if (bare.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(bare.callee);
    // a message's raw text parsed: `JSON.parse(data)` (`redis-calls/message-key.ts`)
    if (jsonParse(callee) && bare.arguments.length === 1 && bare.arguments[0]!.type !== AST_NODE_TYPES.SpreadElement) return chainOf(context, bare.arguments[0]!, [{ kind: 'parse' }, ...after], bindings);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || bare.arguments.length > 1) return undefined;
    const name = propertyName(callee.property, false);
    const first = bare.arguments[0];
    const arg = first === undefined ? undefined : literalKey(first);
    if (name === undefined || (first !== undefined && arg === undefined)) return undefined;
    return chainOf(context, callee.object, [{ kind: 'call', name, arg }, ...after], bindings);
  }
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context, bare);
  if (!variable) return bare.name === 'process' ? { root: { kind: 'process' }, steps: after } : undefined;
  if (variable.defs.length === 0 && bare.name === 'process') return { root: { kind: 'process' }, steps: after };
  const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return undefined;
  // reassigned after its declaration: not the value it was given
  if (variable.references.some((ref) => ref.isWrite() && !(ref.init === true) && ref.identifier !== def.name)) return undefined;
  // a field on the way written by the code (`data.key = 'x:' + data.key`, `options.payload = f(options.payload)`): the code's value
  if (variable.references.some((ref) => ref.identifier.type === AST_NODE_TYPES.Identifier && fieldWrittenAlong(ref.identifier, after))) return undefined;
  if (def.type === 'Parameter') {
    const fn = def.node as TSESTree.Node;
    if (fn.type !== AST_NODE_TYPES.FunctionDeclaration && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.ArrowFunctionExpression) return undefined;
    const index = fn.params.findIndex((param) => encloses(param, def.name));
    if (index < 0) return undefined;
    const param = fn.params[index]!;
    const path = pathTo(param, def.name);
    if (!path) return undefined;
    const plain = path.length === 0 ? bindingName(param) : undefined;
    return { root: { kind: 'param', fn, index, name: plain, param }, steps: [...path, ...after] };
  }
  if (def.type !== 'Variable' || bindings >= MAX_BINDINGS) return undefined;
  const declarator = def.node;
  const declaration = def.parent;
  if (!declarator.init || declaration.kind === 'var' || declaration.parent?.type === AST_NODE_TYPES.ForOfStatement || declaration.parent?.type === AST_NODE_TYPES.ForInStatement) return undefined;
  const path = pathTo(declarator.id, def.name);
  return path ? chainOf(context, declarator.init, [...path, ...after], bindings + 1) : undefined;
}

/**
 * Whether the reference `id` is the object of a member chain the code writes (`id.a.b = v`,
 * `id.a++`, `delete id.a`) that overlaps the property reads `steps` (one is a prefix of the other;
 * a computed member of unknown name overlaps any).
 */
function fieldWrittenAlong(id: TSESTree.Identifier, steps: readonly Step[]): boolean {
  const path: Array<string | undefined> = [];
  let node: TSESTree.Node = id;
  while (node.parent?.type === AST_NODE_TYPES.MemberExpression && node.parent.object === node) {
    const member: TSESTree.MemberExpression = node.parent;
    const name = member.computed ? literalKey(member.property) : propertyName(member.property, false);
    path.push(name === undefined ? undefined : String(name));
    node = member;
  }
  const parent = node.parent;
  // Object.assign(data, { key: 'x:' + data.key }): the target's fields the sources name (any, when
  // a source is not an object literal of plain names)
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === node && isObjectAssign(parent.callee)) {
    const named = assignedNames(parent.arguments.slice(1));
    if (named === undefined) return overlaps(path, steps);
    return named.some((name) => overlaps([...path, name], steps));
  }
  if (path.length === 0) return false;
  const written =
    (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node) ||
    parent?.type === AST_NODE_TYPES.UpdateExpression ||
    (parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'delete') ||
    assignmentTarget(node);
  if (!written) return false;
  return overlaps(path, steps);
}

/** Whether the written member path and the read steps overlap (one is a prefix of the other; an unknown name overlaps any). */
function overlaps(path: ReadonlyArray<string | undefined>, steps: readonly Step[]): boolean {
  for (let i = 0; i < path.length && i < steps.length; i++) {
    const step = steps[i]!;
    if (step.kind !== 'prop') return false;
    if (path[i] !== undefined && path[i] !== step.name) return false;
  }
  return true;
}

/** The property names `Object.assign`'s sources write, `undefined` when one cannot be read (a spread, a variable, a computed name). */
function assignedNames(sources: readonly TSESTree.CallExpressionArgument[]): Array<string | undefined> | undefined {
  const names: Array<string | undefined> = [];
  for (const source of sources) {
    const value = unwrap(source);
    if (value.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    for (const property of value.properties) {
      if (property.type !== AST_NODE_TYPES.Property) return undefined;
      const name = property.computed ? literalKey(property.key) : propertyName(property.key, false);
      names.push(name === undefined ? undefined : String(name));
    }
  }
  return names;
}

/**
 * Whether the member `node` is a target of a destructuring assignment or a loop's binding
 * (`[data.key] = [...]`, `({ k: data.key } = o)`, `for (data.key of list)`): written.
 */
function assignmentTarget(node: TSESTree.Node): boolean {
  let current: TSESTree.Node = node;
  for (let parent = current.parent; parent; current = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.ArrayPattern || parent.type === AST_NODE_TYPES.ObjectPattern || parent.type === AST_NODE_TYPES.RestElement) continue;
    if (parent.type === AST_NODE_TYPES.Property && parent.value === current && parent.parent.type === AST_NODE_TYPES.ObjectPattern) continue;
    if (parent.type === AST_NODE_TYPES.AssignmentPattern && parent.left === current) continue;
    if (parent.type === AST_NODE_TYPES.AssignmentExpression) return parent.left === current && current !== node;
    return (parent.type === AST_NODE_TYPES.ForOfStatement || parent.type === AST_NODE_TYPES.ForInStatement) && parent.left === current;
  }
  return false;
}

/**
 * Whether every call the code makes itself of the function whose parameter roots `chain` (a handler
 * also called by name in its file: `handle({ key: 'fixed' })` beside `socket.on('x', handle)`)
 * hands it, at that position, a value the user named as well; `true` when the file never calls it.
 */
function calledWithUserValues(context: AnyContext, chain: { root: Root; steps: Step[] }, helpers: number): boolean {
  const { root } = chain;
  if (root.kind !== 'param') return true;
  const calls = directCalls(context, root.fn);
  if (calls.length === 0) return true;
  if (helpers >= MAX_HELPERS) return false;
  return calls.every(({ call, shift }) => {
    // handle.apply(this, args): the arguments are not read
    if (shift === undefined) return false;
    const arg = call.arguments[root.index + shift];
    if (arg === undefined || arg.type === AST_NODE_TYPES.SpreadElement) return false;
    const below = chainOf(context, arg, chain.steps, 0);
    if (below === undefined) return false;
    // the handler recursing with (a field of) the message it was handed: the same user's value
    if (!userInput(context, below.root, below.steps)) return false;
    if (below.root.kind === 'param' && below.root.fn === root.fn && below.root.index === root.index && encloses(root.fn, call)) return true;
    return calledWithUserValues(context, below, helpers + 1);
  });
}

/**
 * The calls of `fn` by its name in its file (`function handle() {}` / `const handle = () => {}`,
 * then `handle(x)`, `handle.call(self, x)`; `shift`: where its first argument sits; `undefined` for
 * `handle.apply(self, args)`, whose arguments are not read).
 */
function directCalls(context: AnyContext, fn: FunctionLike): Array<{ call: TSESTree.CallExpression; shift: number | undefined }> {
  const name = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.id : fn.parent?.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.init === fn ? fn.parent.id : undefined;
  if (name?.type !== AST_NODE_TYPES.Identifier) return [];
  const calls: Array<{ call: TSESTree.CallExpression; shift: number | undefined }> = [];
  for (const ref of findVariable(context, name)?.references ?? []) {
    const parent = ref.identifier.parent;
    if (parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === ref.identifier) calls.push({ call: parent, shift: 0 });
    // handle.call(self, x) / handle.apply(self, args)
    const method = parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === ref.identifier ? propertyName(parent.property, parent.computed) : undefined;
    const call = parent?.parent;
    if ((method === 'call' || method === 'apply') && call?.type === AST_NODE_TYPES.CallExpression && call.callee === parent) calls.push({ call, shift: method === 'call' ? 1 : undefined });
  }
  return calls;
}

/** `JSON.parse`. */
function jsonParse(callee: TSESTree.Node): boolean {
  return callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'JSON' && propertyName(callee.property, false) === 'parse';
}

/** `await x`, `x as T`, `x!` are `x`. */
function unwrapValue(node: TSESTree.Node): TSESTree.Node {
  let current = unwrap(node);
  while (current.type === AST_NODE_TYPES.AwaitExpression) current = unwrap(current.argument);
  return current;
}

/** A string or number literal (a computed property `[2]`, a method's argument `'key'`). */
function literalKey(node: TSESTree.Node): string | number | undefined {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Literal && (typeof bare.value === 'string' || typeof bare.value === 'number')) return bare.value;
  if (bare.type === AST_NODE_TYPES.TemplateLiteral && bare.expressions.length === 0) return bare.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/**
 * The steps from the value a pattern destructures to the binding `target` in it: `[]` for the
 * pattern itself, `[.params, .key]` for `{ params: { key } }`, `[[2]]` for `[, , key]`;
 * `undefined` when `target` is not found, or sits under a rest element.
 */
function pathTo(pattern: TSESTree.Node, target: TSESTree.Node): Step[] | undefined {
  if (pattern === target) return [];
  switch (pattern.type) {
    case AST_NODE_TYPES.AssignmentPattern:
      return pathTo(pattern.left, target);
    case AST_NODE_TYPES.TSParameterProperty:
      return pathTo(pattern.parameter, target);
    case AST_NODE_TYPES.ObjectPattern:
      for (const property of pattern.properties) {
        if (property.type !== AST_NODE_TYPES.Property) continue;
        const name = property.computed ? literalKey(property.key) : propertyName(property.key, false);
        const below = pathTo(property.value, target);
        if (below) return name === undefined ? undefined : [{ kind: 'prop', name: String(name) }, ...below];
      }
      return undefined;
    case AST_NODE_TYPES.ArrayPattern:
      for (const [index, element] of pattern.elements.entries()) {
        if (!element || element.type === AST_NODE_TYPES.RestElement) continue;
        const below = pathTo(element, target);
        if (below) return [{ kind: 'prop', name: String(index) }, ...below];
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The name a plain parameter binds (`req`, `req = {}`, `private readonly req`). */
function bindingName(param: TSESTree.Parameter): string | undefined {
  const inner = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
  const id = inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner;
  return id.type === AST_NODE_TYPES.Identifier ? id.name : undefined;
}

/** Whether the steps from `root` read one named value of a request, of the command line, or of a client's message. */
function userInput(context: AnyContext, root: Root, steps: readonly Step[]): boolean {
  if (root.kind === 'process') return commandLineArgument(steps);
  if (nestField(root.param, steps)) return true;
  if (messageField(context, root.fn, root.index, root.param, steps)) return true;
  // a remote caller's input to a tRPC procedure or a GraphQL resolver (`redis-calls/rpc-input.ts`)
  if (rpcInputField(root.fn, root.index, root.param, steps)) return true;
  if (steps.length === 0) return commanderArgument(root.fn);
  if (yargsField(root, steps)) return true;
  // a request or context parameter by its name, or destructured (its fields name it)
  if (root.name !== undefined && !REQUEST_NAME.test(root.name)) return false;
  return requestField(steps) || (root.index === 1 && root.name === undefined && nextParams(steps));
}

/**
 * A named field of a request: `.params.x`, `.body.x`, `.query.x` (Express, Fastify, Koa),
 * `.request.body.x` / `.request.query.x` (Koa), `.req.param('x')` / `.req.query('x')` /
 * `.req.json().x` (Hono), `.param('x')` (Express 4).
 */
function requestField(steps: readonly Step[]): boolean {
  const [first, second, third] = steps;
  const prop = (step: Step | undefined, names?: ReadonlySet<string>): boolean => step?.kind === 'prop' && (names === undefined || names.has(step.name));
  const namedCall = (step: Step | undefined, names: ReadonlySet<string>): boolean => step?.kind === 'call' && names.has(step.name) && typeof step.arg === 'string';
  if (steps.length === 2) return (prop(first, FIELDS) && prop(second)) || (prop(first, REQ) && namedCall(second, HONO_READS));
  if (steps.length === 3 && prop(first, KOA_REQUEST)) return prop(second, KOA_FIELDS) && prop(third);
  if (steps.length === 3 && prop(first, REQ)) return second?.kind === 'call' && second.name === 'json' && second.arg === undefined && prop(third);
  return steps.length === 1 && namedCall(first, EXPRESS_PARAM);
}

/** A Next.js route handler's second parameter destructured: `{ params }`, then `(await params).x`. */
function nextParams(steps: readonly Step[]): boolean {
  return steps.length === 2 && steps[0]?.kind === 'prop' && steps[0].name === 'params' && steps[1]?.kind === 'prop';
}

/** `process.argv[i]`, `process.argv.slice(n)[i]`. */
function commandLineArgument(steps: readonly Step[]): boolean {
  const [argv, second, third] = steps;
  if (argv?.kind !== 'prop' || argv.name !== 'argv') return false;
  const index = (step: Step | undefined): boolean => step?.kind === 'prop' && /^\d+$/.test(step.name);
  if (steps.length === 2) return index(second);
  return steps.length === 3 && second?.kind === 'call' && second.name === 'slice' && typeof second.arg === 'number' && index(third);
}

/** A parameter decorated `@Param('x')` (the field itself), or `@Body()` read at one field. */
function nestField(param: TSESTree.Parameter, steps: readonly Step[]): boolean {
  const decorators = 'decorators' in param && Array.isArray(param.decorators) ? (param.decorators as TSESTree.Decorator[]) : [];
  return decorators.some((decorator) => {
    const expression = decorator.expression;
    if (expression.type !== AST_NODE_TYPES.CallExpression || expression.callee.type !== AST_NODE_TYPES.Identifier) return false;
    if (!NEST_DECORATORS.has(expression.callee.name)) return false;
    const named = expression.arguments.length === 1 && literalKey(expression.arguments[0]!) !== undefined;
    return named ? steps.length === 0 : expression.arguments.length === 0 && steps.length === 1 && steps[0]?.kind === 'prop';
  });
}

/** A parameter of a commander `.action(...)` callback: the command's arguments (`program.command('set <key>').action((key) => ...)`). */
function commanderArgument(fn: FunctionLike): boolean {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== fn) return false;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee.property, callee.computed) !== 'action') return false;
  return chainNames(callee.object).some((name) => name === 'command' || name === 'argument' || name === 'arguments');
}

/** A field of the `argv` a yargs command handler receives: `.command('set <key>', desc, builder, (argv) => argv.key)`. */
function yargsField(root: Extract<Root, { kind: 'param' }>, steps: readonly Step[]): boolean {
  if (root.index !== 0 || steps.length !== 1 || steps[0]?.kind !== 'prop') return false;
  const call = root.fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments.length !== 4 || call.arguments[3] !== root.fn) return false;
  const callee = unwrap(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && propertyName(callee.property, callee.computed) === 'command';
}

/** The method names of a call chain: `program.command('x').argument('<k>')` gives `argument`, `command`. */
function chainNames(node: TSESTree.Node): string[] {
  const names: string[] = [];
  let current = unwrap(node);
  while (current.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(current.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) break;
    const name = propertyName(callee.property, callee.computed);
    if (name !== undefined) names.push(name);
    current = unwrap(callee.object);
  }
  return names;
}

/**
 * Whether the write of the key at `keyNode` by `call` is left alone as the user's key: the key is
 * one the user named ({@link userNamedKey}), and the write cannot take a TTL away from a key that
 * had one. So only the writes that create a missing key and keep an existing key's TTL (HSET,
 * SADD, LPUSH, INCR ..., SET ... NX, SET ... KEEPTTL: a new key without TTL is what the user asked
 * for), and not:
 *
 * - a write that clears an existing key's TTL (SET without expiry, GETSET, SET ... GET, the STORE
 *   commands, SET ... XX: `semantics/commands.ts` EFFECTS_THAT_CLEAR_TTL, getDropsTtl): editing a
 *   key that expires makes it live forever, which the user did not ask for;
 * - a write that follows, in the same function or one enclosing it, a command that may delete that
 *   key (SREM, ZREM, LPOP ... of its last member, DEL): replacing a member of an expiring key
 *   recreates it without its TTL; unless the user chose the key's lifetime too
 *   ({@link userTtlAppliedAfter}: an editor that deletes the key, writes it again and then
 *   EXPIREs it with the TTL the operator typed, when one was typed);
 * - a write whose function gives the same key a TTL itself: the code has a TTL policy for the key
 *   (a non-atomic expiry is then a finding like any other).
 */
export function userNamedWrite(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  const arg = call.argNodes.indexOf(keyNode);
  const action = call.description.keys.find((key) => key.arg === arg);
  if (!action || call.description.getDropsTtl || EFFECTS_THAT_CLEAR_TTL.has(action.effect)) return false;
  if (!userNamedKey(context, keyNode)) return false;
  // the connection's own identity stored under the client's name (a room's members): the server's bookkeeping
  if (storesConnection(context, call.argNodes, arg)) return false;
  if (keyExpiredBeside(context, call, arg)) return false;
  return !deletedBefore(context, call, arg) || userTtlAppliedAfter(context, call, arg);
}

/** How many `const` bindings and number conversions {@link userChosenValue} reads through. */
const MAX_TTL_HOPS = 4;

/**
 * Whether, after the write of the key at argument `arg` of `call` and on its path (a later
 * statement of its function: `static.ts` followsOnItsPath), an EXPIRE-family command (the table's
 * `set-ttl` effect) gives that same key ({@link keyIdOf}) a TTL that is, verbatim or through a
 * number conversion, a value the code's user named ({@link userChosenValue}: `const { key, ttl } =
 * req.body`, `parseInt(ttl, 10)`), and is sent only when that TTL was given
 * (`redis-calls/file-index.ts` optionalExpiry: `if (ttlNum > 0) await redis.expire(key, ttlNum)`).
 * The user then chose the key and its lifetime (a key editor's optional TTL field): the
 * re-created key keeps no TTL only when none was typed. A TTL the code computes or configures
 * (`3600`, `deadline - Date.now()`), an expiry of another key, before the write or on another
 * branch, and an expiry sent whatever the input (`keyExpiredBeside` keeps those reported) do not count.
 */
function userTtlAppliedAfter(context: AnyContext, call: RedisCall, arg: number): boolean {
  const id = keyIdOf(context, call, arg);
  if (id === undefined) return false;
  return callsInFunction(context, enclosingFunction(call.node), true).some(
    (other) =>
      other !== call &&
      other.nameNode.range[0] > call.nameNode.range[0] &&
      followsOnItsPath(call.node, other.node) &&
      other.description.keys.some((action) => {
        if (action.effect !== 'set-ttl' || keyIdOf(context, other, action.arg) !== id) return false;
        const ttl = other.description.ttl ? other.argNodes[other.description.ttl.arg] : undefined;
        return ttl !== undefined && userChosenValue(context, ttl, 0) && optionalExpiry(context, other, action.arg);
      }),
  );
}

/**
 * Whether `node` is a value the code's user named ({@link userNamedKey}'s reading of a request
 * field, a command-line argument, ...), as it is or converted (`Number(x)`,
 * `parseInt(x, 10)`, `parseFloat(x)`, `+x`, or to a string by `x.toString()`), through `const`s
 * (`const ttlNum = parseInt(ttl, 10)`), at most {@link MAX_TTL_HOPS} steps.
 */
function userChosenValue(context: AnyContext, node: TSESTree.Node, hops: number): boolean {
  const bare = unwrap(node);
  if (hops < MAX_TTL_HOPS) {
    if (bare.type === AST_NODE_TYPES.UnaryExpression && bare.operator === '+') return userChosenValue(context, bare.argument, hops + 1);
    if (bare.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(bare.callee);
      const first = bare.arguments[0];
      if (callee.type === AST_NODE_TYPES.Identifier && ['Number', 'parseInt', 'parseFloat'].includes(callee.name) && first && first.type !== AST_NODE_TYPES.SpreadElement) {
        return userChosenValue(context, first, hops + 1);
      }
      if (callee.type === AST_NODE_TYPES.MemberExpression && propertyName(callee.property, callee.computed) === 'toString' && bare.arguments.length === 0) {
        return userChosenValue(context, callee.object, hops + 1);
      }
      return false;
    }
    const init = bare.type === AST_NODE_TYPES.Identifier ? constInitializer(context, bare) : undefined;
    if (init && init.type !== AST_NODE_TYPES.ObjectExpression && userChosenValue(context, init, hops + 1)) return true;
  }
  return userNamedKey(context, bare);
}

/**
 * Whether a command before `call`, in its function or one enclosing it, may delete the key at
 * argument `arg` (not one on the other branch of an `if` or `?:`: `value === tombstone ?
 * hdel(key, f) : hset(key, f, value)` deletes or writes).
 */
function deletedBefore(context: AnyContext, call: RedisCall, arg: number): boolean {
  const id = keyIdOf(context, call, arg);
  if (id === undefined) return false;
  for (let fn = enclosingFunction(call.node); ; fn = fn && enclosingFunction(fn)) {
    const earlier = callsInFunction(context, fn, true).some(
      (other) =>
        other !== call &&
        // before it in the source: also a command whose callback the write sits in (`srem(k, m, () => sadd(k, n))`)
        other.nameNode.range[0] < call.nameNode.range[0] &&
        !otherArms(other.node, call.node) &&
        other.description.keys.some((key) => (EFFECTS_THAT_DELETE_KEY.has(key.effect) || key.mayDelete === true) && keyIdOf(context, other, key.arg) === id),
    );
    if (earlier) return true;
    if (!fn) return false;
  }
}

/** Whether `a` and `b` sit in different branches of the nearest `if` or `?:` that holds both. */
function otherArms(a: TSESTree.Node, b: TSESTree.Node): boolean {
  for (let node = a.parent; node; node = node.parent) {
    if (!encloses(node, b)) continue;
    if (node.type !== AST_NODE_TYPES.IfStatement && node.type !== AST_NODE_TYPES.ConditionalExpression) return false;
    const { consequent, alternate } = node;
    const armOf = (n: TSESTree.Node): number => (encloses(consequent, n) ? 1 : alternate && encloses(alternate, n) ? 2 : 0);
    return armOf(a) !== 0 && armOf(b) !== 0 && armOf(a) !== armOf(b);
  }
  return false;
}
