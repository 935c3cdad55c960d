/**
 * The *shape* of a key expression: its spelling with `*` for every part known only at run time.
 * `` `bull:${queue}:wait` `` has the shape `bull:*:wait`; `'user:' + id` is `user:*`; a `const` of
 * this module is read through (`const PREFIX = 'rl'` makes `` `${PREFIX}:${ip}` `` `rl:*`); a
 * key-builder function of this module whose return value has a static shape is evaluated with its
 * arguments' shapes (`const jobKey = (id) => `job:${id}`` makes `jobKey(id)` `job:*`), and so are
 * methods of the enclosing class (`this.toKey('wait')`), members of `const` object literals of any
 * scope (`KEYS.wait`; `keys.run(id)` of a factory's `const keys = { run: (id) => ... }`, unless the
 * object is written to or merged into), static members of a class (`Store.PREFIX`,
 * `Store.key(id)`, and `this.PREFIX` / `this.key(id)` in a static method, arrow field or block,
 * where `this` is the class: `redis-calls/class-statics.ts`), `[...].join(sep)` of literal arrays (also
 * a builder's parameter used only as `parts.join(sep)`, given an array literal: `cacheKey(['candle',
 * 'latest', id])`), and a format string whose text is known (`util.format('lock:%s', id)`,
 * `sprintf('lock:%s', id)` of `sprintf-js`, an application's `'info:%s'.format(id)`:
 * `redis-calls/format-strings.ts`). A chain of `+` is read whole, however
 * long (the depth bound is for indirections, not operands). A `let` / `var` assigned once and never
 * again counts as a `const` (bundlers emit `var`). A call of a function the linter cannot read
 * (a method of another module: `this.connection.key('stat', 'failed')`) keeps its literal
 * arguments in order, with `*` around and between them (`*stat*failed*`): key builders concatenate
 * their arguments, and a pattern such as `*stat*` can then name the family. A conditional key
 * (`c ? a : b`, `a ?? b`) has the spelling its arms share (`q:*:wait` and `q:*:active` give
 * `q:*`), an arm that is no key (`null`) left out; so has a parameter of a function only this
 * module calls, through the arguments of its calls, and of a method only its own class calls
 * (`this.saveCursor(appId, at)`: `redis-calls/own-method-calls.ts`). Keys reached through iteration have the
 * spelling the elements share: the element parameter of a `forEach` / `map` / `flatMap` /
 * `filter` / `reduce` / ... callback (written at the call, or a function of the module passed
 * there) and the variable of `for...of`, over an array literal, a `const` bound to one, or what
 * `filter` / `slice` / `map` / `Array.from` / `new Set` make of it; over the awaited listing of a
 * database table (`await prisma.app.findMany()`: `redis-calls/stored-records.ts`) each element is
 * `*` but bounded, one key per stored entity, and so is a property of an element that is bounded
 * (`row.environmentId`). A value of another module of
 * the repository (relative, tsconfig alias or workspace package: `redis-calls/resolve.ts`) is
 * read there: a `const`, a member of a const object literal, nested too (`KEYS.SYS.FEATURES`), an
 * enum member, a one-expression key builder (`genAuthPermKey(uid)`); an enum or const object
 * indexed by a non-constant (`Keys[env]`) is the spelling its values share, bounded. A
 * configuration object counts as a const object literal, whatever way its module exports it
 * (`module.exports = config`, `export default {...}`, read through `require`, a destructured
 * `require` or a default import) and also with the members its module's top level assigns after
 * the literal (`config.queue = {...}`): `config.queue.pending.name` is its text. A member written
 * anywhere else (in a function, `Object.assign(config.queue, ...)`) is `*`, not bounded. An imported
 * binding nothing reads (a third-party package's) is `*` but fixed: `` `${QUEUE_KEY}:tmp` `` is one key; so
 * is a member fixed once per instance (`this.stream`, `this.options.stream`), and a value of a
 * finite type (a union of literals, an enum: `redis-calls/bounded.ts`) is `*` but bounded.
 *
 * Shapes are what `settings['redis-ttl'].persistentKeys` patterns match (the same syntax as
 * lua-lint's, see `semantics/key-patterns.ts`), what messages show so that a maintainer can copy
 * a key into the setting, and what tells a bounded key (one constant string) from a family of keys.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { classOfThis, enumMemberValue, hasFiniteType, instanceMember, namesQueue, type InstanceMember } from './bounded.js';
import { arrayCalledOn } from './changed-arrays.js';
import { classOfStaticThis, staticMember, type ClassNode } from './class-statics.js';
import { asFunction, classOf, isNoKey, isStringConcatenation, returnedMemberValues, returnExpressions } from './key-builders.js';

export { returnExpressions } from './key-builders.js';
export { calledName, functionsByName, keyBuilder } from './builder-lookup.js';
import { foreignKeyBuilder, functionsByName, keyBuilder } from './builder-lookup.js';
import { destructuredArgument } from './destructured-params.js';
import { joinedArrayElements, joinedArrayItems, joinedIdentifier, joinedRestParameter, onlyJoined, restArguments } from './rest-arguments.js';
import { compiledCallee, instanceGetter } from './key-parts.js';
import { assignedOnce, containerOf, declarationStatement, isObjectAssign, memberChanged, memberOf, type Container } from './containers.js';
import { concatenatedOperands, isNodeUtilFormat, isSprintf, nodeFormatSegments, ownFormatSegments, sprintfSegments, type FormatSegment } from './format-strings.js';
import { exportedValue, findExport, importedBinding, moduleContext, namespaceModule, type ImportedModule } from './modules.js';
import { BUILD_ID_NAME } from './names.js';
import { textMethodCall } from './finite-members.js';
import { declaredMemberLiterals } from './declared-member-literals.js';
import { isModuleConfigMember, literalReturnsOf } from './process-fixed.js';
import { isStoredRecordListing } from './stored-records.js';
import { ownMethodCalls } from './own-method-calls.js';
import { configuredLiteral } from './configured-values.js';
import { bindingValues, soleAssignedValue } from './traced-values.js';
import { findVariable, isProcessEnv, pick, propertyName, referenceName, unwrap, type AnyContext } from './static.js';
import { configuredCallee, destructuredForOf, factoryParameter, forOfLoop, iterationElement, iterationOf, literalLength, MUTATING_METHODS, SAME_ELEMENTS_METHODS } from './key-shape-syntax.js';

/** The shape of one key expression. */
export interface KeyShape {
  /** The key's spelling, `*` for each run of characters known only at run time (`bull:*:wait`). */
  shape: string;
  /**
   * The key is bounded, one key or a few: a constant string (no `*`), built by a key builder the
   * linter cannot read from literal arguments only (`this.key('stats')`: one key per configured
   * prefix), from imported constants, from a member fixed once per instance (`this.channelName`
   * of a `readonly` member or one the constructor alone assigns from its parameters), or from
   * values of a finite type (`` `digest:${frequency}` `` with `frequency: 'daily' | 'weekly'`, an
   * enum). Writes to it cannot pile up keys.
   */
  constant: boolean;
  /**
   * The statements the shape was read through: `const` declarations and key-builder functions
   * of this module (annotations on them, `// redis-ttl persistent: <reason>`, apply to the key).
   */
  via: TSESTree.Node[];
  /**
   * The spelling of each value the key can take, when it is one of a few the speller reads apart:
   * both arms of a conditional (`ride ? 'rideDrivers:geo' : 'onlineDrivers:geo'`), each
   * assignment of a `let`, each caller's argument for a key parameter, and the choices of their
   * parts (`` `${base}[${i}]` `` with `base` one of `$` and `$.items` gives `$[*]` and
   * `$.items[*]`). `shape` is what they share; absent when there is one value or the speller
   * cannot list them (more than sixteen).
   */
  alternatives?: string[];
}

/** Parameter bindings while a key builder is evaluated with its call's arguments. */
type Bindings = ReadonlyMap<TSESTree.Node, Part>;

interface Part {
  text: string;
  via: TSESTree.Node[];
  /** The part does not depend on the data of the call (only on constants and configuration). */
  fixed: boolean;
  /** A builder's rest parameter bound to the call's arguments: their parts, in order (`args.join(':')`). */
  elements?: Part[];
  /** Each value the part can take, spelled, when it is one of a few (see {@link KeyShape.alternatives}). */
  alternatives?: string[];
  /**
   * Fixed by a queue name (bounded.ts namesQueue): bounded only beside a static part (`` `${queueName}:gq:signal` ``);
   * a key that is the name alone (`lpush(queueName, v)`) is the caller's whole key, which lifecycle.ts judges.
   */
  byName?: boolean;
}

/** At most this many spellings are kept for one key (a product of choices beyond it is given up). */
const MAX_ALTERNATIVES = 16;

/** The spellings of a part: its alternatives, or its text alone. */
function spellings(part: Part): string[] {
  return part.alternatives ?? [part.text];
}

/** `{ alternatives }` when there are two to {@link MAX_ALTERNATIVES} distinct spellings, else nothing. */
function alternativesOf(texts: readonly string[]): { alternatives?: string[] } {
  const distinct = [...new Set(texts)];
  return distinct.length > 1 && distinct.length <= MAX_ALTERNATIVES ? { alternatives: distinct } : {};
}

/** The alternatives of `part`, to carry onto a part spelled by its text. */
function carried(part: Part): { alternatives?: string[] } {
  return part.alternatives ? { alternatives: part.alternatives } : {};
}

const UNKNOWN_PART: Part = { text: '*', via: [], fixed: false };
/** A value imported from another module: its spelling is unknown, but it is fixed. */
const IMPORTED_PART: Part = { text: '*', via: [], fixed: true };
/** A value of a few possible values (a union of literals, an enum, a constructor's argument): `*`, but bounded. */
const FINITE_PART: Part = { text: '*', via: [], fixed: true };
/** A record of a database table the code walks (`redis-calls/stored-records.ts`): `*`, one per stored entity, bounded by the table. */
const STORED_RECORD_PART: Part = { text: '*', via: [], fixed: true };

function literal(text: string): Part {
  return { text, via: [], fixed: true };
}
const MAX_DEPTH = 8;

const cache = new WeakMap<TSESTree.Node, KeyShape>();

/**
 * The shape of a key expression (cached per node). Never throws; anything it cannot read is `*`.
 * @param context the rule context (scope analysis resolves `const`s and functions of the module)
 * @param node the key argument as written at the call
 */
export function keyShapeOf(context: AnyContext, node: TSESTree.Node): KeyShape {
  const cached = cache.get(node);
  if (cached) return cached;
  const part = shapeOf(context, node, new Map(), 0);
  const shape = part.text.replace(/\*+/g, '*');
  const alternatives = alternativesOf(spellings(part).map((text) => text.replace(/\*+/g, '*')));
  const result: KeyShape = { shape, constant: isConstant(shape, part), via: part.via, ...alternatives };
  cache.set(node, result);
  return result;
}

/** Marks bindings that carry on into the local `const`s of the function they bind (no node of any AST). */
const CARRY_BINDINGS = { type: AST_NODE_TYPES.EmptyStatement } as TSESTree.Node;

/**
 * The shape of a key written in a function, its parameters read as the arguments of one call:
 * `parameters` maps a parameter's name (its declaration's identifier) to the shape of the argument
 * the call passes (read where the call is written). A parameter not in the map is read as
 * {@link keyShapeOf} reads it. Not cached (one answer per call).
 */
export function keyShapeWithArguments(context: AnyContext, node: TSESTree.Node, parameters: ReadonlyMap<TSESTree.Node, KeyShape>): KeyShape {
  const bindings = new Map<TSESTree.Node, Part>([[CARRY_BINDINGS, UNKNOWN_PART]]);
  for (const [name, argument] of parameters) {
    bindings.set(name, { text: argument.shape, via: [], fixed: argument.constant, ...(argument.alternatives ? { alternatives: argument.alternatives } : {}) });
  }
  const part = shapeOf(context, node, bindings, 0);
  const shape = part.text.replace(/\*+/g, '*');
  const alternatives = alternativesOf(spellings(part).map((text) => text.replace(/\*+/g, '*')));
  return { shape, constant: isConstant(shape, part), via: part.via, ...alternatives };
}

/** Whether a key of shape `shape` read as `part` is bounded: no `*`, or fixed (by a queue name only beside a static part). */
function isConstant(shape: string, part: Part): boolean {
  return !shape.includes('*') || (part.fixed && !(part.byName && shape.replace(/\*/g, '') === ''));
}

function join(parts: Part[]): Part {
  const joined: Part = { text: parts.map((p) => p.text).join(''), via: parts.flatMap((p) => p.via), fixed: parts.every((p) => p.fixed), ...(parts.some((p) => p.byName) ? { byName: true } : {}) };
  if (!parts.some((p) => p.alternatives)) return joined;
  // each choice of each part: `${base}[${i}]` is `$[*]` or `$.items[*]`
  let texts = [''];
  for (const part of parts) {
    texts = texts.flatMap((head) => spellings(part).map((tail) => head + tail));
    if (texts.length > MAX_ALTERNATIVES) return joined;
  }
  return { ...joined, ...alternativesOf(texts) };
}

function shapeOf(context: AnyContext, input: TSESTree.Node, bindings: Bindings, depth: number): Part {
  if (depth > MAX_DEPTH) return UNKNOWN_PART;
  const node = unwrap(input);
  switch (node.type) {
    case AST_NODE_TYPES.Literal:
      if (typeof node.value === 'string' || typeof node.value === 'number') return literal(String(node.value));
      return UNKNOWN_PART;
    case AST_NODE_TYPES.TemplateLiteral: {
      const parts: Part[] = [];
      node.quasis.forEach((quasi, index) => {
        parts.push(quasi.value.cooked === null ? UNKNOWN_PART : literal(quasi.value.cooked));
        const expression = node.expressions[index];
        if (expression) parts.push(shapeOf(context, expression, bindings, depth + 1));
      });
      return join(parts);
    }
    case AST_NODE_TYPES.BinaryExpression:
      if (node.operator !== '+') return UNKNOWN_PART;
      // a chain `a + b + c + ...` is one level, however long: its operands are read side by side
      // (nested left operands would each cost a level and lose the spelling of long keys)
      return join(concatenatedOperands(node).map((operand) => shapeOf(context, operand, bindings, depth + 1)));
    case AST_NODE_TYPES.Identifier:
      return identifierShape(context, node, bindings, depth);
    case AST_NODE_TYPES.MemberExpression:
      return memberShape(context, node, bindings, depth);
    case AST_NODE_TYPES.CallExpression:
      return callShape(context, node, bindings, depth);
    case AST_NODE_TYPES.AssignmentExpression:
      // redis.set((key = 'user_' + id), v): the key is the value assigned
      return node.operator === '=' ? shapeOf(context, node.right, bindings, depth + 1) : UNKNOWN_PART;
    case AST_NODE_TYPES.ConditionalExpression:
    case AST_NODE_TYPES.LogicalExpression: {
      // `c ? a : b`, `a ?? b`, `a || b`: the spelling both keys share; an arm that is no key
      // (null, undefined, '') is left out
      const arms = (node.type === AST_NODE_TYPES.ConditionalExpression ? [node.consequent, node.alternate] : [node.left, node.right])
        .filter((arm) => !isNoKey(arm))
        .map((arm) => shapeOf(context, arm, bindings, depth + 1));
      // `opts.prefix ?? 'workflows'`: a configured value whose spelling is not visible, or its
      // default, which is what a maintainer's pattern names
      if (node.type === AST_NODE_TYPES.LogicalExpression && node.operator !== '&&' && arms.length === 2) {
        const [given, fallback] = arms as [Part, Part];
        if (given.fixed && literalLength(given.text) === 0 && fallback.fixed && literalLength(fallback.text) > 0) {
          return { text: fallback.text, via: [...given.via, ...fallback.via], fixed: true };
        }
      }
      return arms.length === 0 ? UNKNOWN_PART : arms.reduce(common);
    }
    default:
      return UNKNOWN_PART;
  }
}


/**
 * The shape two keys share: their common beginning and end, `*` between (`q:*:wait` and
 * `q:*:active` give `q:*`); one of them when they are equal.
 */
function common(a: Part, b: Part): Part {
  const via = [...a.via, ...b.via];
  const fixed = a.fixed && b.fixed;
  const byName = a.byName || b.byName ? { byName: true } : {};
  // every value either can take
  const alternatives = [...spellings(a), ...spellings(b)].length <= MAX_ALTERNATIVES ? alternativesOf([...spellings(a), ...spellings(b)]) : {};
  if (a.text === b.text) return { text: a.text, via, fixed, ...alternatives, ...byName };
  let start = 0;
  while (start < a.text.length && start < b.text.length && a.text[start] === b.text[start]) start++;
  let end = 0;
  while (
    end < a.text.length - start &&
    end < b.text.length - start &&
    a.text[a.text.length - 1 - end] === b.text[b.text.length - 1 - end]
  ) {
    end++;
  }
  return { text: `${a.text.slice(0, start)}*${a.text.slice(a.text.length - end)}`, via, fixed, ...alternatives, ...byName };
}

function identifierShape(context: AnyContext, node: TSESTree.Identifier, bindings: Bindings, depth: number): Part {
  const variable = findVariable(context, node);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return UNKNOWN_PART;
  if (def.type === 'Parameter') {
    if (bindings.has(def.name)) return bindings.get(def.name)!;
    if (def.name.type !== AST_NODE_TYPES.Identifier) return UNKNOWN_PART;
    const element = callbackElementShape(context, def.node, def.name, depth);
    const part = element ?? callSitesShape(context, def.node, def.name, depth, (argument, d) => shapeOf(context, argument, new Map(), d));
    // frequency: 'daily' | 'weekly': a few keys, whatever the callers pass; a factory's
    // configuration (createHandler({ keyPrefix })): one value per instance it makes, spelled
    // by its default when it has one (createHandler({ keyPrefix = 'cache' }))
    const factory = factoryParameter(variable!, def.node);
    if (factory && literalLength(part.text) === 0) {
      const option = optionDefault(context, def.name, depth);
      if (option) return option;
    }
    if (part.fixed) return part;
    // queueName: one of the few queues the configuration sets up (bounded.ts namesQueue)
    if (factory || hasFiniteType(context, def.name)) return { ...part, fixed: true };
    // an iteration's element (`streams.map((stream) => ...)`) is what the array holds, whatever its name
    return !element && queueNameParameter(context, def.node, def.name, undefined, depth) ? { ...part, fixed: true, byName: true } : part;
  }
  // for (const key of keys): the spelling the elements of `keys` share
  const loop = forOfLoop(def);
  if (loop) {
    if (!assignedOnce(variable!, def.name as TSESTree.Identifier)) return UNKNOWN_PART;
    return elementsShape(context, loop.right, bindings, depth + 1) ?? UNKNOWN_PART;
  }
  // for (const { environmentId } of rows): a property of each element, as `row.environmentId` is
  // (memberShape): fixed when the elements are (a stored record of a table the code walks, a constant)
  const patternLoop = destructuredForOf(def);
  if (patternLoop && assignedOnce(variable!, def.name as TSESTree.Identifier)) {
    const element = elementsShape(context, patternLoop.right, bindings, depth + 1);
    return element && element.fixed && element !== UNKNOWN_PART ? { text: '*', via: element.via, fixed: true } : UNKNOWN_PART;
  }
  // an imported binding is another module's top-level value, read-only here: configuration
  // (a key, a prefix), not the data of the call; spelled when a relative module's `const`
  // gives it (`import { KEY_PREFIX } from './constants'`, `const { KEY } = require('./keys')`)
  if (def.type === 'ImportBinding' || (def.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.ObjectPattern)) {
    const imported = importedBinding(context, node);
    const value = imported ? exportedValue(imported.module.program, imported.name) : undefined;
    if (imported && value) return importedValueShape(context, imported.module, value, depth);
    if (def.type === 'ImportBinding') return IMPORTED_PART;
  }
  // const { config: { appsKey } } = this.app: the literal the package's configuration modules give it
  if (def.type === 'Variable' && def.node.id.type !== AST_NODE_TYPES.Identifier && assignedOnce(variable!, def.name as TSESTree.Identifier)) {
    const name = configPatternProperty(def.name);
    const text = name === undefined ? undefined : configuredLiteral(context, name);
    if (text !== undefined) return literal(text);
  }
  // const { prefix = 'bull' } = options: a name destructured from configuration is fixed, and
  // spelled by its default when it has one
  if (def.type === 'Variable' && def.node.id.type !== AST_NODE_TYPES.Identifier && def.node.init && assignedOnce(variable!, def.name as TSESTree.Identifier)) {
    const source = shapeOf(context, def.node.init, bindings, depth + 1);
    if (!source.fixed) return UNKNOWN_PART;
    return optionDefault(context, def.name as TSESTree.Identifier, depth) ?? { text: '*', via: source.via, fixed: true };
  }
  // var key; ... key = util.format('bucket:%d', distance): its one assignment, as a const's initializer
  const init = def.type === 'Variable' ? (def.node.init ?? soleAssignedValue(context, def.name as TSESTree.Identifier)) : undefined;
  if (def.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.Identifier && init && (def.node.init === null || assignedOnce(variable!, def.node.id))) {
    // a helper read with its call's arguments (keyShapeWithArguments): the bindings carry on into
    // its local `const valueKey = `${key}:${id}``; a key builder's locals are read as before
    const inner = shapeOf(context, init, bindings.has(CARRY_BINDINGS) ? bindings : new Map(), depth + 1);
    if (!inner.fixed && hasFiniteType(context, def.node.id)) return { ...inner, via: [declarationStatement(def.node), ...inner.via], fixed: true };
    return { text: inner.text, via: [declarationStatement(def.node), ...inner.via], fixed: inner.fixed, ...carried(inner) };
  }
  // let key = GEO_KEY; if (ride) key = GEO_KEY_RIDE: its spelling stays unknown, each value it is given is an alternative
  const assigned = def.type === 'Variable' ? assignedValues(context, node, depth) : undefined;
  // let period: 'day' | 'week' = ...; reassigned, but to one of a few values
  if (def.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.Identifier && hasFiniteType(context, def.node.id)) return { ...FINITE_PART, ...assigned };
  if (assigned && def.type === 'Variable') return { ...UNKNOWN_PART, via: [declarationStatement(def.node)], ...assigned };
  return UNKNOWN_PART;
}

/** What a caller passes that depends on the call's data (a request's input, an id): never fixed. */
const DATA_PART: Part = { text: '*', via: [], fixed: false };

/**
 * Whether the parameter `param` of `fn` (or its property `property`, `params.queueName`) names a
 * queue by its name (bounded.ts namesQueue) and no call of `fn` the module's code shows passes
 * it data: each call's argument (or the value of that property of an object literal argument) is
 * fixed, or `fn`'s callers are not read (a method or exported function: the name decides).
 */
function queueNameParameter(context: AnyContext, fn: TSESTree.Node, param: TSESTree.Identifier, property: string | undefined, depth: number): boolean {
  if (!namesQueue(param, property)) return false;
  const callers = callSitesShape(context, fn, param, depth, (argument, d) => {
    let value: TSESTree.Node | undefined = argument;
    if (property !== undefined) {
      const object = unwrap(argument);
      if (object.type !== AST_NODE_TYPES.ObjectExpression) return null;
      const found = object.properties.find((p) => p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === property);
      value = found?.type === AST_NODE_TYPES.Property ? found.value : undefined;
      if (!value) return null;
    }
    const part = shapeOf(context, value, new Map(), d);
    return part.fixed ? part : DATA_PART;
  });
  return callers === UNKNOWN_PART || callers.fixed;
}

/**
 * A parameter of a function of this module that only this module calls (not exported, never
 * passed around but as the callback of an iteration): the spelling shared by the arguments of
 * every call (`function bump(key) {...}` called as `bump(`usage:${a}`)` and `bump(`usage:${b}:x`)`
 * gives `usage:*`), and by the elements of every array it is the callback of (`keys.forEach(bump)`).
 * `read` gives an argument's part (its shape, or the shape of its elements for a parameter
 * iterated over; `null` when it gives none, an empty array). Anything else is `*`.
 */
function callSitesShape(
  context: AnyContext,
  fn: TSESTree.Node,
  param: TSESTree.Identifier,
  depth: number,
  read: (argument: TSESTree.Node, depth: number) => Part | null,
): Part {
  if (
    fn.type !== AST_NODE_TYPES.FunctionDeclaration &&
    fn.type !== AST_NODE_TYPES.FunctionExpression &&
    fn.type !== AST_NODE_TYPES.ArrowFunctionExpression
  ) {
    return UNKNOWN_PART;
  }
  const index = fn.params.findIndex((p) => p === param || (p.type === AST_NODE_TYPES.AssignmentPattern && p.left === param));
  if (index < 0) return UNKNOWN_PART;
  // a method only its own class calls, `this.saveCursor(appId, at)`: its calls' arguments (own-method-calls.ts)
  const ownCalls = ownMethodCalls(context, fn);
  if (ownCalls) {
    const parts: Part[] = [];
    for (const call of ownCalls) {
      const argument = call.arguments[index];
      if (!argument || call.arguments.slice(0, index + 1).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return UNKNOWN_PART;
      const part = read(argument, depth + 1);
      if (part) parts.push(part);
    }
    return parts.length === 0 ? UNKNOWN_PART : parts.reduce(common);
  }
  let name: TSESTree.Identifier | undefined;
  let declaration: TSESTree.Node | undefined;
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration && fn.id) {
    name = fn.id;
    declaration = fn;
  } else if (
    fn.parent?.type === AST_NODE_TYPES.VariableDeclarator &&
    fn.parent.id.type === AST_NODE_TYPES.Identifier &&
    fn.parent.parent.kind === 'const'
  ) {
    name = fn.parent.id;
    declaration = fn.parent.parent;
  }
  // an exported function is called from other modules too
  if (!name || !declaration || declaration.parent?.type !== AST_NODE_TYPES.Program) return UNKNOWN_PART;
  const variable = context.sourceCode.getDeclaredVariables(declaration).find((v) => v.name === name.name);
  if (!variable) return UNKNOWN_PART;
  const parts: Part[] = [];
  for (const reference of variable.references) {
    const call = reference.identifier.parent;
    if (reference.identifier === name) continue;
    // keys.forEach(bump): the function is the callback of an iteration, its parameter an element
    const iteration = call?.type === AST_NODE_TYPES.CallExpression ? iterationOf(call, reference.identifier) : undefined;
    if (iteration) {
      if (iteration.elementParam !== index) return UNKNOWN_PART;
      const elements = elementsShape(context, iteration.receiver, new Map(), depth + 1);
      if (elements === null) continue; // an empty array: no call at all
      parts.push(elements ?? UNKNOWN_PART);
      continue;
    }
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== reference.identifier) return UNKNOWN_PART;
    const argument = call.arguments[index];
    if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) return UNKNOWN_PART;
    const part = read(argument, depth + 1);
    if (part) parts.push(part); // null: an empty array, no element at all
  }
  return parts.length === 0 ? UNKNOWN_PART : parts.reduce(common);
}

/**
 * The parameter of a callback written at an iteration (`keys.flatMap((key) => ...)`): the spelling
 * the elements of the array share. `undefined` when the function is no such callback (or the
 * parameter is not the element), so that other readings can be tried.
 */
function callbackElementShape(context: AnyContext, fn: TSESTree.Node, param: TSESTree.Identifier, depth: number): Part | undefined {
  if (fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.ArrowFunctionExpression) return undefined;
  if (fn.parent?.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const iteration = iterationOf(fn.parent, fn);
  if (!iteration) return undefined;
  if (fn.params[iteration.elementParam] !== param) return UNKNOWN_PART;
  return elementsShape(context, iteration.receiver, new Map(), depth + 1) ?? UNKNOWN_PART;
}

/**
 * The spelling the elements of an array expression share: an array literal (spreads of arrays and
 * of conditionals between arrays included), a `const` of this module or function bound to one
 * and never filled in place, `filter` / `slice` / `sort` / ... of such an array, `map` of it with
 * a callback whose return value has a shape, `Array.from` / `new Set` of it, and a parameter of a
 * function only this module calls, through its calls' arguments. `null` for an array literal
 * without elements (it contributes nothing), `undefined` when the elements are not known.
 */
function elementsShape(context: AnyContext, input: TSESTree.Node, bindings: Bindings, depth: number): Part | null | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const node = unwrap(input);
  const combine = (parts: Array<Part | null | undefined>): Part | null | undefined => {
    if (parts.some((p) => p === undefined)) return undefined;
    const known = parts.filter((p): p is Part => p !== null);
    return known.length === 0 ? null : known.reduce(common);
  };
  switch (node.type) {
    case AST_NODE_TYPES.ArrayExpression:
      return combine(
        node.elements.map((element) =>
          element === null
            ? null
            : element.type === AST_NODE_TYPES.SpreadElement
              ? elementsShape(context, element.argument, bindings, depth + 1)
              : shapeOf(context, element, bindings, depth + 1),
        ),
      );
    case AST_NODE_TYPES.ConditionalExpression:
      return combine([node.consequent, node.alternate].map((arm) => elementsShape(context, arm, bindings, depth + 1)));
    case AST_NODE_TYPES.LogicalExpression:
      return combine([node.left, node.right].filter((arm) => !isNoKey(arm)).map((arm) => elementsShape(context, arm, bindings, depth + 1)));
    case AST_NODE_TYPES.Identifier: {
      const variable = findVariable(context, node);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (!variable || !def) return undefined;
      if (def.type === 'Parameter') {
        if (def.name.type !== AST_NODE_TYPES.Identifier) return undefined;
        const read = (argument: TSESTree.Node, d: number): Part | null => {
          const elements = elementsShape(context, argument, new Map(), d);
          return elements === undefined ? UNKNOWN_PART : elements;
        };
        const part = callSitesShape(context, def.node, def.name, depth, read);
        return part === UNKNOWN_PART ? undefined : part;
      }
      if (def.type !== 'Variable' || !def.node.init || def.node.id.type !== AST_NODE_TYPES.Identifier || !assignedOnce(variable, def.node.id)) return undefined;
      // filled in place (keys.push(k), keys[i] = k): its literal does not list its elements
      const filled = variable.references.some((reference) => {
        const parent = reference.identifier.parent;
        if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== reference.identifier) return false;
        const method = propertyName(parent.property, parent.computed);
        return (method !== undefined && MUTATING_METHODS.has(method)) || (parent.parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.parent.left === parent);
      });
      if (filled) return undefined;
      const inner = elementsShape(context, def.node.init, new Map(), depth + 1);
      return inner ? { text: inner.text, via: [declarationStatement(def.node), ...inner.via], fixed: inner.fixed } : undefined;
    }
    case AST_NODE_TYPES.AwaitExpression:
      // await prisma.app.findMany(): one element per stored record, bounded by the table (stored-records.ts)
      return isStoredRecordListing(node, context.physicalFilename ?? context.filename) ? STORED_RECORD_PART : undefined;
    case AST_NODE_TYPES.NewExpression:
      // new Set(keys)
      return node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'Set' && node.arguments.length === 1 && node.arguments[0]!.type !== AST_NODE_TYPES.SpreadElement
        ? elementsShape(context, node.arguments[0]!, bindings, depth + 1)
        : undefined;
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(node.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
      const method = propertyName(callee.property, callee.computed);
      const receiver = unwrap(callee.object);
      // Array.from(keys)
      if (method === 'from' && receiver.type === AST_NODE_TYPES.Identifier && receiver.name === 'Array' && node.arguments.length === 1) {
        const source = node.arguments[0]!;
        return source.type === AST_NODE_TYPES.SpreadElement ? undefined : elementsShape(context, source, bindings, depth + 1);
      }
      if (method !== undefined && SAME_ELEMENTS_METHODS.has(method)) return elementsShape(context, receiver, bindings, depth + 1);
      if (method === 'map') return mappedShape(context, node, receiver, bindings, depth);
      return undefined;
    }
    default:
      return undefined;
  }
}

/** `keys.map((k) => `${k}:x`)`: the callback's return value, its element parameter bound to the elements' shape. */
function mappedShape(context: AnyContext, call: TSESTree.CallExpression, receiver: TSESTree.Node, bindings: Bindings, depth: number): Part | null | undefined {
  const callbackNode = call.arguments[0];
  if (!callbackNode || callbackNode.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const callback = unwrap(callbackNode);
  const fn =
    callback.type === AST_NODE_TYPES.ArrowFunctionExpression || callback.type === AST_NODE_TYPES.FunctionExpression
      ? { fn: callback, declaration: undefined }
      : keyBuilder(context, callback);
  if (!fn) return undefined;
  const elements = elementsShape(context, receiver, bindings, depth + 1);
  if (elements === null) return null;
  const param = fn.fn.params[0];
  const inner = new Map<TSESTree.Node, Part>();
  if (param?.type === AST_NODE_TYPES.Identifier) inner.set(param, elements ?? UNKNOWN_PART);
  const returned = returnExpressions(fn.fn);
  if (returned.length === 0) return undefined;
  const part = returned.map((expression) => shapeOf(context, expression, inner, depth + 1)).reduce(common);
  return fn.declaration ? { ...part, via: [fn.declaration, ...part.via] } : part;
}

/**
 * `KEYS.wait` of a `const KEYS = { wait: 'q:wait' }`, `Frequency.Daily` of an enum, `this.key` of
 * a member fixed once per instance (and `this.options.key` below one); `[a, b].join(':')` is
 * handled by calls.
 */
function memberShape(context: AnyContext, node: TSESTree.MemberExpression, bindings: Bindings, depth: number): Part {
  const name = propertyName(node.property, node.computed);
  const object = unwrap(node.object);
  if (object.type === AST_NODE_TYPES.ThisExpression) {
    // this.queuedKey in a static method or a static arrow: the class's static member
    const statics = classOfStaticThis(object);
    if (statics) return name === undefined ? UNKNOWN_PART : staticMemberShape(context, statics, name, depth);
    // this.prefix in a method of a key-builder object: the object's member
    const own = name === undefined ? undefined : objectMethodThisShape(context, object, name, depth);
    // this.indexKey of `get indexKey() { return ...; }`: what the getter returns (key-parts.ts)
    const getter = own ? undefined : instanceGetter(node);
    if (getter) {
      const inner = shapeOf(context, getter.returned, new Map(), depth + 1);
      // get jobId(): the identity of the entity the instance is made for, as a member of that name
      return { text: inner.text, via: [getter.declaration, ...inner.via], fixed: inner.fixed && !ENTITY_ID.test(name ?? '') };
    }
    return own ?? instanceMemberShape(context, node, depth);
  }
  // process.env.KEY_PREFIX: the process's configuration, one value for its life
  if (isProcessEnv(context, object)) return IMPORTED_PART;
  // KEYS.SYS.FEATURES, Keys[env]: a member of a const object literal or enum, here or imported
  const fromContainer = containerMemberShape(context, node, bindings, depth);
  if (fromContainer) return fromContainer;
  // this.app.config.logsKey: the literal the package's configuration modules give it
  if (name !== undefined && !node.computed && object.type === AST_NODE_TYPES.MemberExpression && propertyName(object.property, object.computed) === CONFIG_OBJECT) {
    const text = configuredLiteral(context, name);
    if (text !== undefined) return literal(text);
  }
  if (object.type === AST_NODE_TYPES.MemberExpression && !node.computed) {
    // this.options.stream: a property of a member fixed once per instance is configuration too,
    // spelled when the member is an object of defaults (`this.opts = { prefix: 'bull', ...opts }`)
    const defaulted = name === undefined ? undefined : defaultsObjectShape(context, object, name, depth);
    if (defaulted) return defaulted;
    const owner = memberShape(context, object, bindings, depth + 1);
    return owner.fixed && owner !== UNKNOWN_PART ? { text: '*', via: owner.via, fixed: true } : UNKNOWN_PART;
  }
  // R.space(id).devices: a member of the object literal a key builder returns
  if (name !== undefined && !node.computed && object.type === AST_NODE_TYPES.CallExpression) return callShape(context, object, bindings, depth + 1, name);
  if (name === undefined || object.type !== AST_NODE_TYPES.Identifier) return UNKNOWN_PART;
  const enumValue = enumMemberValue(context, node);
  if (enumValue !== undefined) return enumValue === null ? FINITE_PART : literal(enumValue);
  const imported = importedMemberShape(context, object, name, depth);
  if (imported) return imported;
  const variable = findVariable(context, object);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  // RedisStore.PREFIX: a static member fixed once for the class
  const cls = def ? classOf(variable!, def) : undefined;
  if (cls) return staticMemberShape(context, cls, name, depth);
  if (def?.type === 'Parameter' && def.name.type === AST_NODE_TYPES.Identifier) {
    // scope.dataset of `scope: Scope` whose `dataset: 'a' | 'b'`: each value an alternative spelling (a
    // declared pattern must match them all), not a bounded key (a sorted set per level still grows)
    const declared = declaredMemberLiterals(context, def.name, name);
    if (declared) return declared.length === 1 ? literal(declared[0]!) : { ...UNKNOWN_PART, ...alternativesOf(declared) };
    // options.keyPrefix of a fixed argument (a constructor's, bound while a member's values are
    // read), or of a factory's options: configuration, one value per instance
    const bound = bindings.get(def.name);
    if (bound) return bound.fixed ? { text: '*', via: bound.via, fixed: true } : UNKNOWN_PART;
    if (factoryParameter(variable!, def.node)) return FINITE_PART;
    // params.queueName: the name of one of the few queues the configuration sets up (bounded.ts)
    if (!node.computed && queueNameParameter(context, def.node, def.name, name, depth)) return { ...FINITE_PART, byName: true };
  }
  // row.environmentId of `for (const row of rows)` or `rows.forEach((row) => ...)`: a property of
  // an element that is fixed (a stored record of a table the code walks, a constant) is fixed
  if (def && !node.computed && iterationElement(def)) {
    const element = identifierShape(context, object, bindings, depth + 1);
    if (element.fixed && element !== UNKNOWN_PART) return { text: '*', via: element.via, fixed: true };
  }
  if (def?.type !== 'Variable' || !def.node.init || def.node.id.type !== AST_NODE_TYPES.Identifier || !assignedOnce(variable!, def.node.id)) {
    return UNKNOWN_PART;
  }
  const init = unwrap(def.node.init);
  // keys.userHash of `const keys = buildKeys(id)`, the member never changed after: buildKeys(id).userHash; else config.keyPrefix of a top-level `const config = loadConfig()` never written to (process-fixed.ts)
  const built = init.type === AST_NODE_TYPES.CallExpression && !node.computed && !memberChanged(variable!, name) ? callShape(context, init, bindings, depth + 1, name) : UNKNOWN_PART;
  // the declaration read through (`// redis-ttl persistent:` above `const keys = buildKeys(id)` names its keys)
  if (init.type !== AST_NODE_TYPES.ObjectExpression) return built !== UNKNOWN_PART ? { ...built, via: [declarationStatement(def.node), ...built.via] } : isModuleConfigMember(context, node) ? IMPORTED_PART : UNKNOWN_PART;
  for (const property of init.properties) {
    if (property.type !== AST_NODE_TYPES.Property) return UNKNOWN_PART;
    if (propertyName(property.key, property.computed) === name) {
      const inner = shapeOf(context, property.value, bindings, depth + 1);
      return { text: inner.text, via: [declarationStatement(def.node), ...inner.via], fixed: inner.fixed, ...carried(inner) };
    }
  }
  return UNKNOWN_PART;
}

/**
 * `this.prefix` in a method (shorthand or function expression, not an arrow) of a const object
 * literal that is read as a container ({@link containerOf}: bound once, never written to nor
 * merged into): the shape of the object's member `name`, as when the method is called on it
 * (`keys.run(id)` of `const keys = { prefix: 'wf', run(id) { return `${this.prefix}:runs:${id}`; } }`).
 * `undefined` when `this` is no such method's.
 */
function objectMethodThisShape(context: AnyContext, thisNode: TSESTree.Node, name: string, depth: number): Part | undefined {
  // the function `this` is bound by: the nearest that is not an arrow (a class body binds its own)
  let fn: TSESTree.Node | undefined = thisNode.parent;
  while (fn && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.FunctionDeclaration && fn.type !== AST_NODE_TYPES.ClassBody) fn = fn.parent;
  const property = fn?.type === AST_NODE_TYPES.FunctionExpression ? fn.parent : undefined;
  const object = property?.type === AST_NODE_TYPES.Property && property.value === fn ? property.parent : undefined;
  const declarator = object?.parent;
  if (object?.type !== AST_NODE_TYPES.ObjectExpression || declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== object || declarator.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  const container = containerOf(context, declarator.id, depth + 1);
  if (container?.node !== object) return undefined;
  const { value, mutated } = memberOf(container, name);
  if (!value || mutated) return undefined;
  const inner = shapeOf(context, value, new Map(), depth + 1);
  return { text: inner.text, via: [...container.via, ...inner.via], fixed: inner.fixed };
}


/**
 * `this.key` of a member fixed once per instance (`readonly`, or assigned only in the constructor):
 * the spelling its values share, with the constructor's parameters as fixed parts (`this.key =
 * \`lock:${name}\`` gives `lock:*`, one key per instance). A `readonly` member is fixed whatever
 * its value; one assigned in the constructor only when its values come from the constructor's
 * parameters and constants (`this.key = \`s:${Date.now()}\`` is not).
 */
function instanceMemberShape(context: AnyContext, node: TSESTree.MemberExpression, depth: number): Part {
  const member = instanceMember(node);
  if (!member || depth > MAX_DEPTH) return UNKNOWN_PART;
  // a member's spelling is the same wherever it is read: read once per class, from depth 0, so
  // that members built from members (`this.fileNamespace = `${this.namespace}f.``) are spelled
  // however deep the read is; a member read while its own spelling is read is `*`
  const cls = classOfThis(node);
  const name = propertyName(node.property, node.computed);
  if (!cls || name === undefined) return memberValuesShape(context, member, depth);
  let members = memberShapes.get(cls);
  if (!members) memberShapes.set(cls, (members = new Map()));
  const known = members.get(name);
  if (known) return known;
  members.set(name, UNKNOWN_PART);
  const values = memberValuesShape(context, member, 0);
  // `this.jobId`, `this.userId`: the identity of the entity the instance is made for, not its
  // configuration; a class made per job writes one key per job, however fixed the member is
  const part = ENTITY_ID.test(name) ? { ...values, fixed: false } : values;
  members.set(name, part);
  return part;
}

/**
 * Member names that identify an entity (`id`, `uuid`, `jobId`, `sessionID`, `user_id`,
 * `roomIds`): the instance is one of many, one per entity, so a key read from it grows with them.
 */
const ENTITY_ID = /^(?:id|uuid|guid)$|[a-z0-9](?:Id|ID|Ids|IDs|Uuid|UUID|_id|_ids)$/;

/** Spellings of instance members, by class and name ({@link instanceMemberShape}). */
const memberShapes = new WeakMap<TSESTree.Node, Map<string, Part>>();

function memberValuesShape(context: AnyContext, member: InstanceMember, depth: number): Part {
  const params = constructorBindings(context, member, depth);
  const parts = member.values.map((value) => shapeOf(context, value, params, depth + 1));
  const via = member.declaration ? [member.declaration] : [];
  if (parts.length === 0) return member.readonly ? { text: '*', via, fixed: true } : UNKNOWN_PART;
  const shared = parts.reduce(common);
  return { text: shared.text, via: [...via, ...shared.via], fixed: member.readonly || shared.fixed };
}

/**
 * The constructor's options while a member's values are read: fixed, spelled by their default
 * when they have one (`constructor(redis, keyPrefix = 'workflows')`, `constructor({ prefix =
 * 'bull' } = {})`).
 */
function constructorBindings(context: AnyContext, member: InstanceMember, depth: number): Map<TSESTree.Node, Part> {
  return new Map([...member.constructorParams, ...member.destructuredParams].map((param) => [param, optionDefault(context, param, depth) ?? FINITE_PART]));
}

/**
 * `this.opts.prefix` of a member the class sets to an object of defaults merged with options
 * (`{ prefix: 'bull', ...opts }`, `Object.assign({ prefix: 'bull' }, opts)`): the property's value
 * when nothing merged after it can replace it, its default when something can (spelled only when
 * fixed and not empty, else `*`). `undefined` when a value of the member is no such object or
 * does not name the property.
 */
function defaultsObjectShape(context: AnyContext, object: TSESTree.MemberExpression, name: string, depth: number): Part | undefined {
  if (unwrap(object.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const member = instanceMember(object);
  if (!member || member.values.length === 0) return undefined;
  const params = constructorBindings(context, member, depth);
  const parts: Part[] = [];
  for (const value of member.values) {
    const bare = unwrap(value);
    const assign = bare.type === AST_NODE_TYPES.CallExpression && isObjectAssign(bare.callee) ? bare.arguments : undefined;
    const sources = bare.type === AST_NODE_TYPES.ObjectExpression ? [bare] : assign;
    if (!sources) return undefined;
    let found: TSESTree.Node | undefined;
    let replaceable = false;
    for (const source of sources) {
      const merged = unwrap(source);
      if (merged.type !== AST_NODE_TYPES.ObjectExpression) {
        replaceable = true;
        continue;
      }
      for (const property of merged.properties) {
        if (property.type !== AST_NODE_TYPES.Property) replaceable = true;
        else if (propertyName(property.key, property.computed) === name) {
          found = property.value;
          replaceable = false;
        }
      }
    }
    if (!found) return undefined;
    const part = shapeOf(context, found, params, depth + 1);
    parts.push(!replaceable ? { ...part, fixed: true } : part.fixed && literalLength(part.text) > 0 ? part : { text: '*', via: part.via, fixed: true });
  }
  return parts.reduce(common);
}


/**
 * The default of an option (`keyPrefix = 'workflows'` of a parameter, `{ prefix = 'bull' }` of a
 * destructuring): its shape when it is fixed and spells something, else `undefined`.
 */
function optionDefault(context: AnyContext, id: TSESTree.Identifier, depth: number): Part | undefined {
  const pattern = id.parent;
  if (pattern?.type !== AST_NODE_TYPES.AssignmentPattern || pattern.left !== id) return undefined;
  const part = shapeOf(context, pattern.right, new Map(), depth + 1);
  return part.fixed && literalLength(part.text) > 0 ? part : undefined;
}

/**
 * The shape of a value of an imported module's top level (read in that module: its own `const`s
 * and imports): fixed, as every imported binding. Its declarations stay out of `via` (an
 * annotation there is another file's).
 */
function importedValueShape(context: AnyContext, module: ImportedModule, value: TSESTree.Node, depth: number): Part {
  const inner = shapeOf(moduleContext(context, module), value, new Map(), depth + 1);
  return { text: inner.text, via: [], fixed: true, ...carried(inner) };
}

/**
 * `NS.NAME` of a namespace import of a relative module (`import * as keys from './keys'`,
 * `const keys = require('./keys')`), `KEYS.queue` of an imported `const` object literal: the
 * shape of the value there; `undefined` when `object` is no such import or the value is not found.
 */
function importedMemberShape(context: AnyContext, object: TSESTree.Identifier, name: string, depth: number): Part | undefined {
  const namespace = namespaceModule(context, object);
  if (namespace) {
    const found = findExport(namespace, name);
    const value = found ? exportedValue(found.module.program, found.name) : undefined;
    return found && value ? importedValueShape(context, found.module, value, depth) : undefined;
  }
  const imported = importedBinding(context, object);
  const container = imported ? exportedValue(imported.module.program, imported.name) : undefined;
  const value = container ? pick(unwrap(container), name) : undefined;
  return imported && value ? importedValueShape(context, imported.module, value, depth) : undefined;
}


/**
 * `Store.PREFIX` (or `this.PREFIX` in a static method) of a static member: the spelling of its
 * values (`static PREFIX = 'sess'`, `Store.PREFIX = 'sess'` of the module's top level as
 * compilers emit static fields, `this.PREFIX = ...` of a `static {}` block) or of what its getter
 * returns (`static get PREFIX() { return 'sess'; }`), fixed once for the class; `*` when it is
 * written anywhere else (a function may change it) and it is not `readonly`
 * (`redis-calls/class-statics.ts`).
 */
function staticMemberShape(context: AnyContext, cls: ClassNode, name: string, depth: number): Part {
  const member = staticMember(context, cls, name);
  const getter = member?.getter ? asFunction(member.getter) : undefined;
  const values = getter ? returnExpressions(getter) : (member?.values ?? []);
  if (values.length === 0) return UNKNOWN_PART;
  const shared = values.map((value) => shapeOf(context, value, new Map(), depth + 1)).reduce(common);
  return { ...shared, via: member?.declaration ? [member.declaration, ...shared.via] : shared.via, fixed: true };
}


/** The member an application's configuration object is read through (`app.config`, `this.config`). */
const CONFIG_OBJECT = 'config';

/**
 * The configuration property a destructured name reads: `appsKey` of `{ config: { appsKey } }`
 * (or `{ config: { appsKey: key } }`, with a default too), nested at any depth of the pattern;
 * `undefined` for a name not read from a `config` member.
 */
function configPatternProperty(name: TSESTree.Node): string | undefined {
  const value = name.parent?.type === AST_NODE_TYPES.AssignmentPattern && name.parent.left === name ? name.parent : name;
  const property = value.parent;
  if (property?.type !== AST_NODE_TYPES.Property || property.value !== value || property.parent?.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  const owner = property.parent.parent;
  if (owner?.type !== AST_NODE_TYPES.Property || owner.computed || propertyName(owner.key) !== CONFIG_OBJECT) return undefined;
  return propertyName(property.key, property.computed);
}

/**
 * Whether a part is text some literal of the code spells (`t:feed:`, `t:feed:*`): only a string
 * (a literal, a template, a key builder's result) has a spelling; an array or an unread value is
 * `*` alone, and a rest parameter's bound arguments are elements, not text.
 */
function spellsText(part: Part): boolean {
  return part.elements === undefined && /[^*]/.test(part.text);
}

function callShape(context: AnyContext, node: TSESTree.CallExpression, bindings: Bindings, depth: number, member?: string): Part {
  // (0, keys_1.namespaceKey)(ns) of TypeScript's CommonJS output is keys_1.namespaceKey(ns)
  const callee = compiledCallee(node.callee);
  // [prefix, queue, 'wait'].join(':'); args.join(':') of a builder's rest parameter (rest-arguments.ts)
  const array = callee.type === AST_NODE_TYPES.MemberExpression && propertyName(callee.property, callee.computed) === 'join' ? unwrap(callee.object) : undefined;
  const rest = joinedIdentifier(callee);
  const restName = rest ? findVariable(context, rest)?.defs[0]?.name : undefined;
  const items = array ? joinedArrayItems(context, array) : undefined;
  const elements = items
    ? items.flatMap((item) => {
        const bound = item.bound ? bindings.get(item.bound)?.elements : undefined;
        if (bound) return bound;
        if (!item.value) return [UNKNOWN_PART];
        const part = shapeOf(context, item.value, bindings, depth + 1);
        // concat's argument: an array adds its elements, anything else itself
        return item.flattened ? (part.elements ?? [part]) : [part];
      })
    : restName && bindings.get(restName)?.elements;
  if (elements) {
    const separatorNode = node.arguments[0];
    const separator = separatorNode ? shapeOf(context, separatorNode, bindings, depth + 1) : literal(',');
    return join(elements.flatMap((element, index) => (index > 0 ? [separator, element] : [element])));
  }
  // String(id): the global conversion spells its argument
  if (
    callee.type === AST_NODE_TYPES.Identifier &&
    callee.name === 'String' &&
    node.arguments.length === 1 &&
    node.arguments[0]!.type !== AST_NODE_TYPES.SpreadElement &&
    (findVariable(context, callee)?.defs.length ?? 0) === 0
  ) {
    return shapeOf(context, node.arguments[0]!, bindings, depth + 1);
  }
  // NATIVE_MINT.toString(), PREFIX.trim() of an imported, constant or configured value: its text, fixed as the value is
  const method = member === undefined ? textMethodCall(callee, node) : undefined;
  const text = method ? shapeOf(context, method.receiver, bindings, depth + 1) : undefined;
  if (method && text?.fixed) return method.respell(text);
  // "".concat(prefix, '.split.', name): compilers' spelling of a template (ES5 output); and
  // String.prototype.concat on a value that spells text (`feedNamespace.concat(id)` of a `const`
  // string, `createFeedKey(id).concat(':delayed')` of a key builder): an array's concat spells none
  if (callee.type === AST_NODE_TYPES.MemberExpression && propertyName(callee.property, callee.computed) === 'concat') {
    const receiver = shapeOf(context, callee.object, bindings, depth + 1);
    if (isStringConcatenation(callee.object) || spellsText(receiver)) {
      const parts = [receiver];
      for (const argument of node.arguments) parts.push(argument.type === AST_NODE_TYPES.SpreadElement ? UNKNOWN_PART : shapeOf(context, argument, bindings, depth + 1));
      return join(parts);
    }
  }
  // util.format('lock:%s', id), REDIS_KEY.format(id) of the application's String.prototype.format
  const formatted = formatCallShape(context, node, callee, bindings, depth);
  if (formatted) return formatted;
  // bucket(n), this.getTier(level) of a function whose every return is a literal: one of a few
  // values, their common spelling (process-fixed.ts)
  // (one value alone is read as a key builder's, with its declaration for annotations)
  const literals = member === undefined ? literalReturnsOf(context, callee) : undefined;
  if (literals === 'overridden') return UNKNOWN_PART;
  if (literals && new Set(literals).size > 1) return literals.map(literal).reduce(common);
  const local = keyBuilder(context, callee);
  // a builder of another module (`genAuthPermKey(uid)` imported from '~/helper/genRedisKey') or
  // held in a const object (`KEYS.user(id)`) is read where it is written; its declaration stays
  // out of `via` when it is another file's
  const builder = local ? { ...local, context, own: true } : foreignKeyBuilder(context, callee, depth);
  if (!builder) return member === undefined ? opaqueCallShape(context, node, bindings, depth) : UNKNOWN_PART;
  const where = builder.context;
  // a return that gives no key (`return ''` when the input is invalid) is no spelling of the key;
  // `R.space(id).devices`: the member of the object literal the builder returns (key-builders.ts)
  const returnedKeys = returnExpressions(builder.fn).filter((expression) => !isNoKey(expression));
  const returned = member === undefined ? returnedKeys : (returnedMemberValues(returnedKeys, member) ?? []);
  if (returned.length === 0) return UNKNOWN_PART;
  // bind the builder's parameters to its arguments' shapes (evaluated where the call is)
  const inner = new Map<TSESTree.Node, Part>();
  const restParam = joinedRestParameter(where, builder.fn);
  const restArgs = restParam && restArguments(node, restParam.index);
  if (restParam && restArgs) inner.set(restParam.id, { ...UNKNOWN_PART, elements: restArgs.map((a) => shapeOf(context, a, bindings, depth + 1)) });
  // createRedisKey(...REDIS_KEY_SCOPES.jobs.index, id): the elements of the const array spread there, in order
  const spreadArgs = restParam && !restArgs ? spreadRestArguments(context, node, restParam.index, bindings, depth) : undefined;
  if (restParam && spreadArgs) inner.set(restParam.id, { ...UNKNOWN_PART, elements: spreadArgs });
  builder.fn.params.forEach((param, index) => {
    const id = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    const argument = node.arguments[index];
    // flagKey({ prefix: this.prefix, flagName }) of `function flagKey({ prefix, tenant = 'default', flagName })`
    for (const bound of argument?.type === AST_NODE_TYPES.SpreadElement ? [] : (destructuredArgument(param, argument) ?? [])) {
      const { id: name, value, from } = bound;
      inner.set(name, !value || reassigned(where, name) ? UNKNOWN_PART : from === 'argument' ? shapeOf(context, value, bindings, depth + 1) : shapeOf(where, value, new Map(), depth + 1));
    }
    if (id.type !== AST_NODE_TYPES.Identifier) return;
    // `cacheKey(['candle', 'latest', id])` of `(parts) => parts.join(':')`: the literal's elements
    const joined = param === id && onlyJoined(where, id) ? joinedArrayElements(argument) : undefined;
    // a parameter the builder reassigns (`name = normalize(name)`) is not its argument's text
    if (reassigned(where, id)) inner.set(id, UNKNOWN_PART);
    else if (joined) inner.set(id, { ...UNKNOWN_PART, elements: joined.map((a) => shapeOf(context, a, bindings, depth + 1)) });
    else if (argument && argument.type !== AST_NODE_TYPES.SpreadElement) {
      const part = shapeOf(context, argument, bindings, depth + 1);
      // a builder parameter typed `Frequency` takes one of a few values, whatever the argument says
      inner.set(id, part.fixed || !hasFiniteType(where, id) ? part : { ...part, fixed: true });
    }
    else if (param.type === AST_NODE_TYPES.AssignmentPattern) inner.set(id, shapeOf(where, param.right, new Map(), depth + 1));
  });
  const shapes = returned.map((expression) => shapeOf(where, expression, inner, depth + 1));
  const first = shapes[0]!;
  const opaque = opaqueCallShape(context, node, bindings, depth);
  const declaration = builder.own ? [builder.declaration] : [];
  // several returns: one shape only when they agree; a builder the evaluation cannot read
  // (`return args.join(':')`) says less than its literal arguments
  if (member !== undefined && shapes.some((s) => s.text !== first.text)) return UNKNOWN_PART;
  if (shapes.some((s) => s.text !== first.text) || (member === undefined && literalLength(first.text) < literalLength(opaque.text))) {
    return { text: opaque.text, via: [...declaration, ...opaque.via], fixed: opaque.fixed };
  }
  const via = builder.own ? shapes.flatMap((s) => s.via) : node.arguments.flatMap((a) => (a.type === AST_NODE_TYPES.SpreadElement ? [] : shapeOf(context, a, bindings, depth + 1).via));
  return { text: first.text, via: [...declaration, ...via], fixed: shapes.every((p) => p.fixed), ...(shapes.length === 1 ? carried(first) : {}) };
}


/**
 * A key written with a format string whose text is known (a literal, or a `const` read through):
 * Node's `util.format(format, ...args)` (imported from `util` / `node:util`), `sprintf(format,
 * ...args)` of the `sprintf-js` package, and a `format`
 * method called on the string (`'judge:%s'.format(id)`, an application's `String.prototype.format`),
 * read by `redis-calls/format-strings.ts`, the arguments spelled where the call is. `undefined`
 * for any other call, or when the format string is not known (`` `${p}:%s`.format(id) ``).
 */
function formatCallShape(context: AnyContext, node: TSESTree.CallExpression, callee: TSESTree.Node, bindings: Bindings, depth: number): Part | undefined {
  let formatNode: TSESTree.Node | undefined;
  let args: TSESTree.CallExpressionArgument[];
  let read: (format: string, count: number | undefined) => FormatSegment[] | undefined;
  if (isNodeUtilFormat(context, callee)) {
    formatNode = node.arguments[0];
    args = node.arguments.slice(1);
    read = nodeFormatSegments;
  } else if (isSprintf(context, callee)) {
    formatNode = node.arguments[0];
    args = node.arguments.slice(1);
    read = sprintfSegments;
  } else if (callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && propertyName(callee.property) === 'format') {
    formatNode = callee.object;
    args = node.arguments;
    read = ownFormatSegments;
  } else {
    return undefined;
  }
  if (!formatNode || formatNode.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const format = shapeOf(context, formatNode, bindings, depth + 1);
  if (format.text.includes('*') || !format.fixed) return undefined;
  const segments = read(format.text, args.some((a) => a.type === AST_NODE_TYPES.SpreadElement) ? undefined : args.length);
  if (!segments) return undefined;
  const parts = segments.map((segment): Part => {
    if ('text' in segment) return literal(segment.text);
    if ('unknown' in segment) return UNKNOWN_PART;
    const argument = args['argument' in segment ? segment.argument : segment.converted]!;
    if (argument.type === AST_NODE_TYPES.SpreadElement) return UNKNOWN_PART;
    const part = shapeOf(context, argument, bindings, depth + 1);
    // `%d`, `%05s` of sprintf: text of its own, known only at run time, fixed when the argument is
    return 'argument' in segment ? part : { text: '*', via: part.via, fixed: part.fixed };
  });
  const own = read === ownFormatSegments;
  const joined = join(parts);
  // the placeholders of an application's format method are filled from its arguments: fixed when they are
  const fixed = own ? args.every((a) => a.type !== AST_NODE_TYPES.SpreadElement && shapeOf(context, a, bindings, depth + 1).fixed) : joined.fixed;
  return { text: joined.text, via: [...format.via, ...joined.via], fixed };
}

/** `let` variables whose assigned values are being read (a value naming its own variable is not listed). */
const readingAssignments = new Set<TSESLint.Scope.Variable>();

/**
 * A `let` / `var` given several values by plain assignments (`traced-values.ts` bindingValues):
 * the spelling of each (`{ alternatives }`), when every one is a single spelling the speller reads
 * (no `*`-only value, none written in terms of the variable itself, at most sixteen). `undefined`
 * otherwise, and for a variable assigned once (a `const`'s reading applies).
 */
function assignedValues(context: AnyContext, node: TSESTree.Identifier, depth: number): { alternatives?: string[] } | undefined {
  const variable = findVariable(context, node);
  if (!variable || readingAssignments.has(variable)) return undefined;
  const values = bindingValues(context, node);
  if (!values || values.length < 2) return undefined;
  readingAssignments.add(variable);
  try {
    const texts: string[] = [];
    for (const value of values) {
      const part = shapeOf(context, value, new Map(), depth + 1);
      if (spellings(part).some((text) => literalLength(text) === 0)) return undefined;
      texts.push(...spellings(part));
    }
    const alternatives = alternativesOf(texts);
    return alternatives.alternatives ? alternatives : undefined;
  } finally {
    readingAssignments.delete(variable);
  }
}

/** A parameter written in its function's body (`name = normalize(name)`). */
function reassigned(context: AnyContext, id: TSESTree.Identifier): boolean {
  const variable = findVariable(context, id);
  return variable !== null && variable.references.some((reference) => reference.isWrite() && !reference.init);
}


/**
 * `KEYS.SYS.FEATURES` (nested members), `RedisKeys.AUTH_PERM_PREFIX` (an enum), `KEYS['a']` of a
 * const object literal or enum reached through members and imports ({@link containerOf}): the
 * shape of the member's value, read where it is written (fixed when imported). `Keys[env]`, an
 * index that is not constant: one of its values, whichever, so the spelling they share, bounded.
 * `undefined` when the object is no such container (other readings are then tried).
 */
function containerMemberShape(context: AnyContext, node: TSESTree.MemberExpression, bindings: Bindings, depth: number): Part | undefined {
  const container = containerOf(context, node.object, depth + 1);
  if (!container) return undefined;
  let name = propertyName(node.property, node.computed);
  if (name === undefined && node.computed) {
    const index = shapeOf(context, node.property, bindings, depth + 1);
    if (!index.text.includes('*')) name = index.text;
  }
  const read = (value: TSESTree.Node): Part => containerValueShape(container, value, depth);
  const { node: declared } = container;
  if (declared.type === AST_NODE_TYPES.TSEnumDeclaration) {
    const members = declared.body?.members ?? (declared as unknown as { members: TSESTree.TSEnumMember[] }).members;
    const values = members.filter((m) => name === undefined || propertyName(m.id) === name);
    if (values.length === 0) return name === undefined ? undefined : FINITE_PART;
    const parts = values.map((m) => (m.initializer ? read(m.initializer) : FINITE_PART));
    return name === undefined ? { ...parts.reduce(common), fixed: true } : parts[0];
  }
  if (name !== undefined) {
    const member = memberOf(container, name);
    // a member the module changes at run time (config.queue.x = ... in a function): not the literal's
    if (member.mutated) return UNKNOWN_PART;
    return member.value ? read(member.value) : undefined;
  }
  // Keys[env]: every value of the object (a spread, an assigned or changed member hides some: unknown)
  if (declared.properties.some((p) => p.type !== AST_NODE_TYPES.Property) || (container.defined?.length ?? 0) > 0 || (container.mutated?.length ?? 0) > 0) return undefined;
  const parts = declared.properties.map((p) => read((p as TSESTree.Property).value));
  return parts.length === 0 ? undefined : { ...parts.reduce(common), fixed: parts.every((p) => p.fixed) };
}

/** The shape of `value`, written in `container`, where a key reads it: fixed when imported. */
function containerValueShape(container: Container, value: TSESTree.Node, depth: number): Part {
  const inner = shapeOf(container.context, value, new Map(), depth + 1);
  return container.imported ? { text: inner.text, via: [], fixed: true, ...carried(inner) } : { text: inner.text, via: [...container.via, ...inner.via], fixed: inner.fixed, ...carried(inner) };
}

/**
 * The parts a call passes for a builder's rest parameter (the arguments from `index` on) when it
 * spreads a constant array there: a member of a const object literal, here or imported, holding an
 * array literal (`createRedisKey(...REDIS_KEY_SCOPES.backgroundJobs.index)` of `REDIS_KEY_SCOPES =
 * { backgroundJobs: { index: ['background-jobs', 'index'] } } as const`, Myyiso/Rhex), its
 * elements spelled where they are written, in order. `undefined` when a spread is of anything
 * else (an array the code fills, a parameter, a call), holds a hole or a spread itself, or when an
 * argument before the rest parameter is spread (the parameters would not get the arguments they
 * are written against).
 */
function spreadRestArguments(context: AnyContext, call: TSESTree.CallExpression, index: number, bindings: Bindings, depth: number): Part[] | undefined {
  if (call.arguments.slice(0, index).some((argument) => argument.type === AST_NODE_TYPES.SpreadElement)) return undefined;
  const parts: Part[] = [];
  for (const argument of call.arguments.slice(index)) {
    if (argument.type !== AST_NODE_TYPES.SpreadElement) {
      parts.push(shapeOf(context, argument, bindings, depth + 1));
      continue;
    }
    const spread = unwrap(argument.argument);
    if (spread.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const container = containerOf(context, spread.object, depth + 1);
    const name = propertyName(spread.property, spread.computed);
    if (!container || name === undefined || container.node.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const member = memberOf(container, name);
    // changed at run time: assigned, written into (`SCOPES.jobs.index[0] = id`), or called on (`.push(id)`)
    const changed = member.mutated || (member.below.mutated?.length ?? 0) > 0 || (member.below.defined?.length ?? 0) > 0 || arrayCalledOn(context, spread);
    const array = member.value && !changed ? unwrap(member.value) : undefined;
    if (array?.type !== AST_NODE_TYPES.ArrayExpression || array.elements.some((element) => element === null || element.type === AST_NODE_TYPES.SpreadElement)) return undefined;
    for (const element of array.elements as TSESTree.Expression[]) parts.push(containerValueShape(container, element, depth));
  }
  return parts;
}

/**
 * A call the linter cannot read: `*`, then each argument's shape that has a literal part, with
 * `*` between and after them (`key('stat', name)` -> `*stat*`).
 */
function opaqueCallShape(context: AnyContext, node: TSESTree.CallExpression, bindings: Bindings, depth: number): Part {
  const parts: Part[] = [UNKNOWN_PART];
  let fixed = node.arguments.length > 0 && configuredCallee(context, node.callee);
  for (const argument of node.arguments) {
    if (argument.type === AST_NODE_TYPES.SpreadElement) {
      fixed = false;
      continue;
    }
    // a flag (`this.prefixKey('whitelist', true)`) is no part of the key, and no data
    const bare = unwrap(argument);
    if (bare.type === AST_NODE_TYPES.Literal && (typeof bare.value === 'boolean' || bare.value === null)) continue;
    const part = shapeOf(context, argument, bindings, depth + 1);
    if (!part.fixed) fixed = false;
    if (part.text.replace(/\*/g, '') === '') continue;
    parts.push(part, UNKNOWN_PART);
  }
  // with literal arguments only, a builder of configuration (this.key('stats')) gives one key;
  // a call without arguments (uuid(), Date.now()) or on data (id.toString(16)) does not
  return { ...join(parts), fixed };
}


/**
 * Whether the key at `node` lives under a per-build prefix: its expression, or a `const` or a key
 * builder of the module it is read through ({@link KeyShape.via}: `buildKey(k) { return
 * `${this.BUILD_ID}:${k}` }`), names a build or deploy id. Such a key belongs to one deploy of
 * the application: the code that deletes it later runs in the next build and names that build's
 * keys, so the previous build's keys are never deleted nor read again.
 */
export function perBuildKey(context: AnyContext, node: TSESTree.Node): boolean {
  const texts = [node, ...keyShapeOf(context, node).via].map((n) => context.sourceCode.getText(n));
  if (texts.some((text) => BUILD_ID_NAME.test(text))) return true;
  // `this.buildKey(k)` in compiled async code (inside `__generator(this, function (_e) { ... })`),
  // where the builder is not resolved: a method of the module by that name returning a build id
  const key = unwrap(node);
  const callee = key.type === AST_NODE_TYPES.CallExpression ? key.callee : undefined;
  const name = callee ? referenceName(unwrap(callee)) : undefined;
  if (name === undefined) return false;
  return (functionsByName(context).get(name) ?? []).some((fn) => returnExpressions(fn).some((e) => BUILD_ID_NAME.test(context.sourceCode.getText(e))));
}

