/**
 * Calls of pass-through facades, read at their callers. A facade re-exposes one Redis command
 * under the command's own name and forwards its key parameter to it (`redis-calls/pass-through.ts`):
 *
 * ```ts
 * class Presence {                                   // presence.ts
 *   sadd(key: string, member: string) {
 *     return new Promise((resolve) => this.pub.sadd(key, member, resolve));
 *   }
 * }
 * await presence.sadd(`online:${userId}`, socketId); // a caller, here or in another module
 * ```
 *
 * The key policy leaves the forwarded call alone (`allowPassThrough`): its callers choose the key.
 * So the callers are judged: a call of the facade is read as the command it forwards, at the
 * caller's line, with the caller's arguments in place of the facade's parameters (the key, the
 * value, a TTL the caller passes) and the facade's own arguments as they are (`'EX', 60`, a
 * field name). `presence.sadd(`online:${userId}`, id)` above is SADD of `online:*` without
 * expiry; `presence.sadd('online', id)` is one bounded key.
 *
 * A call counts when its callee is the facade: `this.sadd(...)` in the facade's class, a method
 * of an instance of the class (`new Presence()`, a parameter, variable or member annotated with
 * the class, also `Presence | null` filled later, `this.presence` filled once per instance, what a
 * function of the code returns: `await initRedis()` declared `Promise<RedisService>` or returning
 * `new RedisService()`; the class and the instance may come from
 * another module of the code, imported with a relative specifier, a tsconfig path alias or a
 * workspace package of the repository), a method of a `const` object
 * literal, a function of the module or one imported from another module of the code (named, also
 * renamed: the facade is named after its command where it is written; default, `import * as
 * cache` or `require`). A parameter the caller leaves out takes the facade's default (`mode =
 * 'KEEPTTL'`); an option object the facade forwards where the client reads one (node-redis
 * `set(k, v, options)`) is read at the caller: its literal is its tokens (`{ EX: 60 }`), and left
 * out it is the facade's default (`options = {}`: no expiry). The facade sends that one command and nothing else
 * (a facade that expires its key itself chose the TTL, also by calling a method of its class that
 * sends a command: it is judged where it is; two arms making the same write are one command,
 * `pass-through.ts` sameWriteOtherArm); one facade may forward to another, and that one to a
 * third (three levels).
 *
 * Since round 15 the facade may have any name: a method of a pass-through wrapper's shape
 * (`increase(key, n) { return this.redis.incrby(key, n); }`) is read at its callers when some call
 * of it resolves to it ({@link forwardingCallersRead}); a plain function of that shape under
 * another name stays a helper (`helper-keys.ts`). A receiver known by its declared type alone may
 * also hold any class of the code implementing an interface that type is or implements
 * (`backend: ICacheBackend`, a dependency-injection token `cache: Cache` whose class extends an
 * implementation of `ICache`): the call is read as the one Redis implementation's command.
 */
import { isAbsolute, relative } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describeCommand, EXPIRY_EFFECTS, type CommandArg } from '../semantics/commands.js';
import { classOfThis } from './bounded.js';
import { classMethod, contractsOf, functionNamed, methodTargets, resolvePath, specifierOf, type Target } from './facade-targets.js';
import { requiredModule } from './client-syntax.js';
import { clientDetectorOf, forEachCallIn, redisCallsIn, redisCallsOf } from './index.js';
import { commandOfMethod } from './command-methods.js';
import { optionObjectArgv, type RedisCall } from './normalize.js';
import { mayBeUndefined } from './option-checks.js';
import { isCodeSpecifier, loadModule, moduleContext, readModule } from './modules.js';
import { commandsOfWrapperName, destructuredParameter, forwardedKeyParameterIndex, functionName, passThroughParameter, sameWriteOtherArm, shortBody } from './pass-through.js';
import { destructuredArgument, type DestructuredValue } from './destructured-params.js';
import { mayBeWrapperName, walkImporters } from './importers.js';
import { earlyReturn, exportedThroughModuleObject } from './exported-arms-helpers.js';
import { chosenArm, optionArmsOf, optionProperty, optionValue, type OptionArms } from './option-arms.js';
import { LISTING_TTL_MS, packageFiles, packageOf } from './project.js';
import { nullishOnSomeBranch } from './empty-tokens.js';
import { commonJsExportName, constInitializer, encloses, findVariable, propertyName, referenceName, resolveConstExpression, staticValue, unwrap, walk, type AnyContext, type FunctionLike } from './static.js';
// paths of tests (test-paths.ts): a call there does not make a facade's production callers reachable
import { TEST_PATH } from './test-paths.js';

/**
 * A facade forwarding to a facade forwarding to one is followed (`setKey(k, v)` calling a `Cache`'s
 * `set(k, v)` calling its backend's `set(k, v)`, which sends SET); one more level is not.
 */
const MAX_DEPTH = 3;

/** Where a facade's argv entry comes from. */
type Entry =
  /**
   * the caller's argument at `index`; absent, the parameter's default (`ttl = 60`) when it has one,
   * else nothing (the caller left an optional parameter out)
   */
  | {
      from: 'param';
      index: number;
      fallback?: { value: CommandArg; node: TSESTree.Node; tokens?: OptionArgv };
      /**
       * the facade forwards the parameter where the client reads an option object (node-redis
       * `set(key, value, options)`): an object literal the caller passes (or the default, `options
       * = {}`) stands for its tokens (`{ EX: 60 }` is `EX 60`, `{}` nothing)
       */
      options?: true;
      /**
       * the parameter is an object the facade destructures (`set({ key, value })`) and this entry
       * is its name `id`: the caller's argument there is read by that property
       * (`destructured-params.ts`), its default in the pattern when the caller leaves it out
       */
      destructured?: { param: TSESTree.Parameter; id: TSESTree.Identifier };
    }
  /** every caller argument from `index` on (`...members`) */
  | { from: 'rest'; index: number }
  /** property `property` of the caller's options object at `index` (`opts.ex`: `option-arms.ts`) */
  | { from: 'option'; index: number; property: string }
  /** the facade's own value (`'EX'`, `60`, a field name); its node when the caller's file holds it */
  | { from: 'fixed'; value: CommandArg; node: TSESTree.Node | undefined }
  /**
   * an expiry option the facade builds from its optional parameter at `index` (`{ EX: ttl }` with
   * `ttl?: number`), which the client drops when it is `undefined` (`normalize.ts` may-be-undefined):
   * `option` and the caller's argument when the caller passes one, nothing when it leaves it out
   */
  | { from: 'optional-option'; index: number; option: string };

/** The argv entries an option object literal stands for (`normalize.ts` optionObjectArgv). */
type OptionArgv = ReturnType<typeof optionObjectArgv>;

/** A function read as a facade: the command it forwards and how its parameters fill the argv. */
interface Facade {
  /** The forwarded command as its own module reads it. */
  forwarded: RedisCall;
  entries: Entry[];
  /** The argv positions of the keys (each filled by a parameter). */
  keyArgs: ReadonlySet<number>;
  /** The context of the facade's module (the linted file's, or an imported module's). */
  context: AnyContext;
  /** Named after its command (`sadd`, `setKey`), not only of a pass-through wrapper's shape (`increase`). */
  named: boolean;
  /** One arm per combination of its options object, the caller's options choose (`option-arms.ts`). */
  arms?: { options: OptionArms; facades: ReadonlyMap<RedisCall, Facade> };
}

/** Facades by function, per depth (a deeper look follows fewer facades). */
const facades = Array.from({ length: MAX_DEPTH }, () => new WeakMap<TSESTree.Node, Facade | null>());
const callsAt = new WeakMap<TSESTree.CallExpression, readonly RedisCall[]>();

/**
 * The command a call of a pass-through facade sends, read at the call (see the module comment):
 * one {@link RedisCall} of form `facade`, with the caller's key, or none when the callee is no
 * facade. Cached per call.
 * @param context the caller's rule context
 * @param node a call expression of the caller's file
 */
export function facadeCallsOf(context: AnyContext, node: TSESTree.CallExpression): readonly RedisCall[] {
  let calls = callsAt.get(node);
  if (!calls) {
    calls = facadeCallsAt(context, node, 0);
    callsAt.set(node, calls);
  }
  return calls;
}

function facadeCallsAt(context: AnyContext, node: TSESTree.CallExpression, depth: number): readonly RedisCall[] {
  const callee = unwrap(node.callee);
  const name = referenceName(callee);
  if (name === undefined) return NONE;
  if (callee.type !== AST_NODE_TYPES.Identifier && callee.type !== AST_NODE_TYPES.MemberExpression) return NONE;
  const detector = clientDetectorOf(context);
  // a file with no sign of Redis may still call a facade of another module (that module's own
  // reading decides whether the facade sends a Redis command)
  if (!detector.mayUseRedis() && !importsCode(context)) return NONE;
  // a plain function is a facade only under its command's name (here, or where it is exported
  // from: `import { incr as bump }`); under another name it is a helper (`helper-keys.ts`): other
  // calls cost nothing more
  if (callee.type === AST_NODE_TYPES.Identifier && !namesACommand(name) && !namesACommand(importedName(context, callee) ?? '')) return NONE;
  // a method under another name is resolved only when a short method of that name is declared
  // in a module of the package naming Redis (`importers.ts` mayBeWrapperName; none when the
  // package cannot be listed, its callers could not be read): resolving the receiver of every
  // call reads much of a large application
  if (callee.type === AST_NODE_TYPES.MemberExpression && !namesACommand(name) && !mayBeWrapperName(context, name)) return NONE;
  if (redisCallsOf(context, node).length > 0) return NONE;
  // a method whatever its name (`increase(key)`, `setKey(k, v)`): the function the call reaches decides
  const targets = callee.type === AST_NODE_TYPES.Identifier ? [functionNamed(detector, callee)].filter((t) => t !== undefined) : methodTargets(detector, callee, name);
  const found = oneFacade(targets, depth);
  // an options facade: the arm the caller's options choose (`option-arms.ts`)
  const facade = found?.arms ? found.arms.facades.get(chosenArm(context, found.arms.options, node.arguments[found.arms.options.param])!) : found;
  // an arm the call's argument does not decide (`ttl` of an enclosing wrapper, `opts` as a
  // variable): the call sends one command or another, not nothing
  if (found?.arms && !facade) undecided.add(node);
  const call = facade && callerCall(context, node, callee, facade);
  // a TTL argument the caller spells (`0`, `null`, `NO_TTL`) that takes the arm without expiry:
  // the message names it, the caller's choice that made the write one without TTL
  const given = found?.arms?.options.positional ? node.arguments[found.arms.options.param] : undefined;
  if (call?.facade && given && !facade!.forwarded.description.keys.some((action) => EXPIRY_EFFECTS.has(action.effect))) {
    call.facade = { ...call.facade, chosenBy: shortText(context, given) };
  }
  return call ? [call] : NONE;
}

/** Calls of an arms facade whose arm their arguments do not decide ({@link facadeCallsAt}). */
const undecided = new WeakSet<TSESTree.CallExpression>();

/**
 * The expiring arm of an arms facade (`set(key, value, ttl?)` sending SETEX or SET) that a call
 * passing a TTL the arms' test cannot decide (a variable: `set(key, '1', windowSeconds)`) may
 * send, read as the caller's command (SETEX of the caller's key); `undefined` for any other call.
 * The call may as well send the other arm: this says what the caller means the key to have.
 * @param context the caller's rule context
 * @param node a call expression of the caller's file
 */
export function expiringArmAt(context: AnyContext, node: TSESTree.CallExpression): RedisCall | undefined {
  facadeCallsOf(context, node);
  if (!undecided.has(node)) return undefined;
  const callee = unwrap(node.callee);
  const name = referenceName(callee);
  if (name === undefined) return undefined;
  const detector = clientDetectorOf(context);
  if (callee.type !== AST_NODE_TYPES.Identifier && callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const targets = callee.type === AST_NODE_TYPES.Identifier ? [functionNamed(detector, callee)].filter((t) => t !== undefined) : methodTargets(detector, callee, name);
  const arms = oneFacade(targets, 0)?.arms;
  if (!arms?.options.positional) return undefined;
  // a value the code spells (`-1` past `if (ttl < 0) throw`) decided the call sends nothing
  const given = node.arguments[arms.options.param];
  if (!given || staticValue(context, given) !== undefined) return undefined;
  for (const facade of arms.facades.values()) {
    if (!facade.forwarded.description.keys.some((action) => EXPIRY_EFFECTS.has(action.effect))) continue;
    const call = callerCall(context, node, callee, facade);
    if (call) return call;
  }
  return undefined;
}

/**
 * The facade a call reaches among the functions it may reach: the first when it is one (the
 * method of the receiver's own class), else the only facade among the others (the one Redis
 * implementation of an interface the receiver's declared type stands for).
 */
function oneFacade(targets: readonly Target[], depth: number): Facade | undefined {
  if (targets.length === 0) return undefined;
  const own = facadeOf(targets[0]!, depth);
  if (own) return own;
  const others = targets.slice(1).map((target) => facadeOf(target, depth)).filter((f) => f !== undefined);
  return others.length === 1 ? others[0] : undefined;
}

const NONE: readonly RedisCall[] = Object.freeze([]);

/**
 * Whether a function's name may be a facade's: a command's (`sadd`, `hSet`), or a command with
 * the words a pass-through wrapper's name may add (`setKey`, `setRedisObject`, `pushToRedisList`:
 * `redis-calls/pass-through.ts`).
 */
function namesACommand(name: string): boolean {
  return commandOfMethod(name) !== undefined || commandsOfWrapperName(name).some((command) => command !== name.toUpperCase() && commandOfMethod(command.toLowerCase()) !== undefined);
}

const reachable = new WeakMap<TSESTree.Node, boolean>();

/** A minified file by its name's convention (`jquery.min.js`, `chart.min.mjs`): a vendored bundle. */
const MINIFIED_BUNDLE = /\.min\.[cm]?js$/;

/**
 * Whether the callers of the pass-through facade `fn` of the linted file are judged, so that the
 * facade itself can be left alone: the facade belongs to a library (its callers may be other
 * people's code; `redis-calls/project.ts` tells an application from a library by its
 * `package.json`), or a call of it somewhere in its application (tests left out, unless the
 * facade is in one) resolves to it as this module's reading of callers does, or nothing calls a
 * method of its name at all (dead code; a minified bundle the application serves, `*.min.js`,
 * is a vendored library and calls none of its code). A facade of an application whose calls the rules cannot
 * resolve (`this.cache = config.cache; this.cache.incr(key)`) is judged where it is, or its leak
 * would be reported nowhere. Also `true` when nothing can be told: no file on disk, no
 * `package.json`, a package of more than `MAX_FILES` source files.
 */
export function facadeCallersReachable(context: AnyContext, fn: FunctionLike): boolean {
  let found = reachable.get(fn);
  if (found === undefined) {
    found = findCallers(context, fn);
    reachable.set(fn, found);
  }
  return found;
}

function findCallers(context: AnyContext, fn: FunctionLike): boolean {
  const file = context.physicalFilename ?? context.filename;
  const name = functionName(fn);
  if (!file || !isAbsolute(file) || name === undefined) return true;
  const info = packageOf(file);
  if (!info || !info.application) return true;
  const files = packageFiles(info.root);
  if (!files) return true;
  const word = new RegExp(`\\b${name.replace(/[^\w$]/g, '\\$&')}\\b`);
  const ownIsTest = TEST_PATH.test(relative(info.root, file));
  let unresolved = false;
  for (const path of files) {
    const own = resolvePath(path) === resolvePath(file);
    if (!own && !ownIsTest && TEST_PATH.test(relative(info.root, path))) continue;
    // a minified bundle the application serves (`public/assets/plugins/morris/morris.min.js`
    // calling its own `incr`) is a vendored copy of another library, not a caller of its code
    if (!own && MINIFIED_BUNDLE.test(path)) continue;
    let moduleCtx: AnyContext | undefined = own ? context : undefined;
    if (!own) {
      const text = readModule(file, specifierOf(file, path))?.entry.text;
      if (text === undefined || !word.test(text)) continue;
      const module = loadModule(context, specifierOf(file, path));
      if (!module) continue;
      moduleCtx = moduleContext(context, module);
    }
    const calls = callsOfFacade(moduleCtx!, fn, file, name);
    if (calls === 'resolved') return true;
    if (calls === 'unresolved') unresolved = true;
  }
  // no call resolves to it: judged where it is when a call of its name exists that the rules
  // cannot resolve (`this.cache.incr(key)` with `this.cache = config.cache`); a facade nothing
  // calls by its name is dead code, nothing to report
  return !unresolved;
}

const readCallers = new WeakMap<TSESTree.Node, boolean>();
/** Verdicts of {@link forwardingCallersRead} per method (file and range), per process, kept `LISTING_TTL_MS`. */
const readCallersByPlace = new Map<string, { at: number; read: boolean }>();

/**
 * Whether the callers of `fn`, a method of a pass-through wrapper's shape whatever its name
 * (`redis-calls/pass-through.ts` forwardingWrapper: `increase(key, n) { return
 * this.redis.incrby(key, n); }`), are read in its place: some call resolves to it as
 * {@link facadeCallsOf} resolves a callee (an instance of its class, a member or binding typed as
 * the class or as an interface it implements, an imported instance), in its own module or in a
 * module of its package (an application's or a library's; tests left out, unless the method is in
 * one) that imports its module or an interface its class implements, directly or through at most
 * four more modules (`redis-calls/importers.ts`: bounded by depth and by count, nearest first,
 * stopped at the first such call). `false` when no call is found (none of its name, only calls the
 * rules cannot resolve, or none within the bounds: the method is then judged where it is, so that
 * its leak is reported somewhere), and when nothing can be told (no file on disk, no
 * `package.json`, a package too large to list). Cached per method for the lint run.
 */
export function forwardingCallersRead(context: AnyContext, fn: FunctionLike): boolean {
  let found = readCallers.get(fn);
  if (found !== undefined) return found;
  const file = context.physicalFilename ?? context.filename;
  const place = `${resolvePath(file ?? '')}\0${fn.range[0]}\0${fn.range[1]}`;
  const now = Date.now();
  const known = readCallersByPlace.get(place);
  if (known && now - known.at < LISTING_TTL_MS) found = known.read;
  else {
    // met again while it is looked for (here or read as another module): not yet
    readCallers.set(fn, false);
    if (readCallersByPlace.size > 5000) readCallersByPlace.clear();
    readCallersByPlace.set(place, { at: now, read: false });
    found = findReadCaller(context, fn);
    readCallersByPlace.set(place, { at: now, read: found });
  }
  readCallers.set(fn, found);
  return found;
}

function findReadCaller(context: AnyContext, fn: FunctionLike): boolean {
  const file = context.physicalFilename ?? context.filename;
  const name = functionName(fn);
  if (!file || !isAbsolute(file) || name === undefined) return false;
  const info = packageOf(file);
  if (!info || !packageFiles(info.root)) return false;
  const word = new RegExp(`\\b${name.replace(/[^\w$]/g, '\\$&')}\\b`);
  const own = resolvePath(file);
  const ownIsTest = TEST_PATH.test(relative(info.root, file));
  // its module, and the modules of the interfaces its class implements (callers typed with one)
  const cls = classOfThis(fn.body);
  const contracts = cls ? contractsOf({ node: cls, detector: clientDetectorOf(context) }, name, 0) : [];
  const roots = [own, ...contracts.map((contract) => contract.file)];
  const reaches = (moduleCtx: AnyContext): boolean => {
    let read = false;
    walkCallsOf(moduleCtx, fn, file, name, () => {
      read = true;
      return true;
    });
    return read;
  };
  // no call found: judged where it is, whether calls of its name go unread (the leak would be
  // reported nowhere) or none exists (an application's unused method, a library's API its own
  // code never calls: `redis-calls/api-wrappers.ts` decides those)
  return walkImporters(
    roots,
    (path) => {
      if (path === own) return reaches(context) ? 'found' : 'read';
      const text = readModule(file, specifierOf(file, path))?.entry.text;
      if (text === undefined || !word.test(text)) return 'passed';
      const module = loadModule(context, specifierOf(file, path));
      if (!module) return 'passed';
      return reaches(moduleContext(context, module)) ? 'found' : 'read';
    },
    (path) => path !== own && !ownIsTest && TEST_PATH.test(relative(info.root, path)),
  );
}

/**
 * The calls of `fn`'s name (of the file `file`) in the module of `context`: `'resolved'` when one
 * resolves to `fn`; else `'unresolved'` when a method call of that name neither resolves to a
 * function of the code nor is a Redis client's command (its receiver is unknown); else `'none'`.
 */
function callsOfFacade(context: AnyContext, fn: FunctionLike, file: string, name: string): 'resolved' | 'unresolved' | 'none' {
  let resolved = false;
  const { unresolved } = walkCallsOf(
    context,
    fn,
    file,
    name,
    () => {
      resolved = true;
      return true;
    },
    true,
  );
  return resolved ? 'resolved' : unresolved ? 'unresolved' : 'none';
}

/**
 * Walks the calls named `name` in the module of `context` (`name(...)`, an import of it under
 * another name, `x.name(...)`) and calls `onSite` with each that resolves to `fn` (of the file
 * `file`: the same node, or the same range of the same file read as another module), until it
 * returns `true`. `unresolved`: a method call of that name that neither resolves to a function of
 * the code nor is a Redis client's own command (`this.cache.m(key)` with `this.cache` of a config
 * object), so the module's callers of `fn` cannot all be known.
 */
function walkCallsOf(
  context: AnyContext,
  fn: FunctionLike,
  file: string,
  name: string,
  onSite: (call: TSESTree.CallExpression) => boolean | void,
  hopsKnown = false,
): { unresolved: boolean } {
  const detector = clientDetectorOf(context);
  let unresolved = false;
  let stopped = false;
  forEachCallIn(context, context.sourceCode.ast, (call) => {
    if (stopped) return;
    const callee = unwrap(call.callee);
    let targets: readonly Target[] = [];
    if (callee.type === AST_NODE_TYPES.Identifier) {
      if (callee.name !== name && importedName(context, callee) !== name) return;
      targets = [functionNamed(detector, callee)].filter((t) => t !== undefined);
    } else if (callee.type === AST_NODE_TYPES.MemberExpression && propertyName(callee.property, callee.computed) === name) {
      targets = methodTargets(detector, callee, name);
      // `hopsKnown`: a call on an instance of a global class (`new URLSearchParams()`) is no
      // call of `fn`, and one that forwards the key parameter of a function of the same
      // name it sits in (an adapter's `incr(key) { p.incr(key); return this }` on a receiver the
      // rules cannot read) hands on its own callers' key, and those are calls of this name too
      if (targets.length === 0) {
        const receiver = detector.classify(callee.object);
        if (!receiver.redis && !(hopsKnown && (globalInstance(context, callee.object) || sameNameHop(context, call, name)))) unresolved = true;
      }
    }
    const reaches = targets.some((target) => {
      const where = target.context.physicalFilename ?? target.context.filename;
      return target.fn === fn || (resolvePath(where) === resolvePath(file) && target.fn.range[0] === fn.range[0] && target.fn.range[1] === fn.range[1]);
    });
    if (reaches && onSite(call) === true) stopped = true;
  });
  return { unresolved };
}

/**
 * Whether `call` (a method call named `name`) forwards, as its first argument, a parameter of a
 * function named `name` it is written in (directly, or in a callback or executor of it): a hop
 * of the same pass-through, whose key its own callers choose (`incr(key) { p.incr(key); return
 * wrapper }`).
 */
function sameNameHop(context: AnyContext, call: TSESTree.CallExpression, name: string): boolean {
  const first = call.arguments[0] ? unwrap(call.arguments[0]) : undefined;
  if (first?.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(context, first)?.defs[0];
  if (def?.type !== 'Parameter') return false;
  const owner = def.node as TSESTree.Node;
  return (
    (owner.type === AST_NODE_TYPES.FunctionDeclaration || owner.type === AST_NODE_TYPES.FunctionExpression || owner.type === AST_NODE_TYPES.ArrowFunctionExpression) &&
    functionName(owner) === name &&
    encloses(owner.body, call)
  );
}

/** Whether `node` is, or is a `const` holding, `new X(...)` of a global class (`URLSearchParams`, `Map`): no object of the code. */
function globalInstance(context: AnyContext, node: TSESTree.Node): boolean {
  let value = unwrap(node);
  if (value.type === AST_NODE_TYPES.Identifier) value = constInitializer(context, value) ?? value;
  if (value.type !== AST_NODE_TYPES.NewExpression) return false;
  const callee = unwrap(value.callee);
  return callee.type === AST_NODE_TYPES.Identifier && clientDetectorOf(context).identifierOrigin(callee).kind === 'global';
}

const codeImports = new WeakMap<object, boolean>();

/**
 * Whether the file imports (or requires at top level) a module of the code: a relative specifier,
 * or a path alias / workspace package into the repository (`isCodeSpecifier`).
 */
function importsCode(context: AnyContext): boolean {
  const { sourceCode } = context;
  const from = context.physicalFilename ?? context.filename;
  let found = codeImports.get(sourceCode);
  if (found === undefined) {
    const own = (specifier: string | undefined): boolean => specifier !== undefined && isCodeSpecifier(from, specifier);
    found = sourceCode.ast.body.some((statement) => {
      if (statement.type === AST_NODE_TYPES.ImportDeclaration) return own(statement.source.value);
      if (statement.type !== AST_NODE_TYPES.VariableDeclaration) return false;
      return statement.declarations.some((d) => own(d.init ? requiredModule(d.init) : undefined));
    });
    codeImports.set(sourceCode, found);
  }
  return found;
}

/**
 * The name a renamed binding has where it comes from: `incr` for `import { incr as bump }` or
 * `const { incr: bump } = require('./store')`; `undefined` for any other binding.
 */
function importedName(context: AnyContext, id: TSESTree.Identifier): string | undefined {
  const def = findVariable(context, id)?.defs[0];
  if (def?.type === 'ImportBinding') return def.node.type === AST_NODE_TYPES.ImportSpecifier ? propertyName(def.node.imported) : undefined;
  const property = def?.type === 'Variable' ? def.name.parent : undefined;
  return property?.type === AST_NODE_TYPES.Property && property.parent.type === AST_NODE_TYPES.ObjectPattern && property.value === def!.name
    ? propertyName(property.key, property.computed)
    : undefined;
}

/**
 * The facade a function is, when it is one: it sends exactly one Redis command (a facade's call
 * counts when `depth` allows one more level), in a round trip of its own, and every key of that
 * command is one of its parameters, forwarded as `redis-calls/pass-through.ts` says.
 */
function facadeOf(target: Target, depth: number): Facade | undefined {
  const { fn, context } = target;
  const cache = facades[depth]!;
  if (cache.has(fn)) return cache.get(fn) ?? undefined;
  cache.set(fn, null); // recursion (a facade calling itself) ends here
  // a facade is short (its key must be a pass-through parameter, `pass-through.ts`), and a
  // function under another name than its command's is one only as a method: anything else is
  // left before its body is read (the body's calls would be resolved one level down, and theirs)
  // since round 38 also, read as TTL arms only (`exported-arms-helpers.ts`), a function of a
  // CommonJS module's exports object and one guarding its client with early returns
  const plain = shortBody(fn) && (isMethod(fn) || namesACommand(functionName(fn) ?? ''));
  if (!plain && !(shortBody(fn, earlyReturn) && (isMethod(fn) || namesACommand(functionName(fn) ?? '') || exportedThroughModuleObject(context, fn)))) return undefined;
  const sent = [...redisCallsIn(context, fn.body)];
  let open = false;
  if (depth + 1 < MAX_DEPTH) {
    forEachCallIn(context, fn.body, (call) => {
      sent.push(...facadeCallsAt(context, call, depth + 1));
      open ||= undecided.has(call);
    });
  }
  // a wrapper forwarding its own TTL to an arms facade (`if (ttl) inner.set(k, v, ttl) else
  // inner.set(k, v)`): the first call's command is not known, so the second is not its only one
  if (open) {
    cache.set(fn, null);
    return undefined;
  }
  // one command, or one write whichever end of the list a parameter chooses (`pushToRedisList`)
  const name = functionName(fn);
  // or one write per combination of an options object (`option-arms.ts`)
  const options = sent.length > 1 ? optionArmsOf(context, fn, sent) : undefined;
  if (!plain && !options?.positional) return undefined;
  const one = options !== undefined || sent.length === 1 || (sent.length > 1 && sent.slice(1).every((other) => sameWriteOtherArm(context, name, sent[0]!, other)));
  const alone = one && !callsSenderOfItsClass(context, fn, new Set(sent.map((call) => call.node)));
  const facade = alone ? (options ? optionFacade(context, fn, options) : readFacade(context, fn, sent[0]!)) : undefined;
  cache.set(fn, facade ?? null);
  return facade;
}

/**
 * Whether `fn` calls a method of its own class (`this.exTable(...)`) that sends a Redis command
 * itself: its own expiry of the key, say. Such a wrapper decides about the key; it is no facade. A
 * helper that sends nothing (`this.withTimeout(() => ...)`, `this.connect()` of a wrapper that
 * only connects) does not count, nor does the forwarded call itself (`forwarded`: `incr(key) {
 * return this.incrBy(key, 1); }` calling the INCRBY facade of its class).
 */
function callsSenderOfItsClass(context: AnyContext, fn: FunctionLike, forwarded: ReadonlySet<TSESTree.Node>): boolean {
  const cls = classOfThis(fn.body);
  if (!cls) return false;
  let found = false;
  forEachCallIn(context, fn.body, (call) => {
    const callee = unwrap(call.callee);
    // the forwarded call itself (`incr(key) { return this.incrBy(key, 1); }`) is the one command
    if (found || forwarded.has(call) || callee.type !== AST_NODE_TYPES.MemberExpression || unwrap(callee.object).type !== AST_NODE_TYPES.ThisExpression) return;
    const name = propertyName(callee.property, callee.computed);
    const method = name === undefined ? undefined : classMethod(cls, name);
    found = method !== undefined && method !== fn && redisCallsIn(context, method.body).length > 0;
  });
  return found;
}

/**
 * Whether the method `fn` of the module of `context`, of a pass-through wrapper's shape under a
 * name that is not its command's, is read at its callers: a facade (its one command, keys its
 * parameters) whose callers are read ({@link forwardingCallersRead}). The key policy then leaves
 * its own write alone.
 */
export function forwardingFacade(context: AnyContext, fn: FunctionLike): boolean {
  return isMethod(fn) && facadeOf({ fn, context }, 0) !== undefined;
}

/**
 * Whether every key of the forwarded call is the wrapper's parameter as it is, or with
 * configuration around it (`` `${this.prefix}:${key}` ``), not given to a key builder: under a
 * name that is not its command's, `setPermissionsCache(uid, p) { return
 * this.redis.set(genAuthPermKey(uid), p); }` names the family it writes (the builder's), it does
 * not forward its caller's key.
 */
function keysAsGiven(context: AnyContext, forwarded: RedisCall): boolean {
  return forwarded.description.keys.every((action) => {
    const node = forwarded.argNodes[action.arg];
    return node !== undefined && !containsCall(unwrap(node)) && (unwrap(node).type !== AST_NODE_TYPES.Identifier || findVariable(context, unwrap(node) as TSESTree.Identifier)?.defs[0]?.type === 'Parameter');
  });
}

/** Whether an expression calls anything (a key builder), outside nested functions. */
function containsCall(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) return true;
  if (node.type === AST_NODE_TYPES.TemplateLiteral) return node.expressions.some((e) => containsCall(unwrap(e)));
  if (node.type === AST_NODE_TYPES.BinaryExpression) return containsCall(unwrap(node.left)) || containsCall(unwrap(node.right));
  return false;
}

/**
 * A method of a class or an object literal (`increase(key) {...}`, `push: (key, v) => ...`), or
 * of a CommonJS module's exports object (`exports.incr = function (table, id, n) {...}`, called
 * as `redis.incr(...)` on the required module: `redis-calls/module-methods.ts`).
 */
export function isMethod(fn: FunctionLike): boolean {
  const holder = fn.parent;
  if (holder?.type === AST_NODE_TYPES.AssignmentExpression) return holder.right === fn && commonJsExportName(holder.left) !== undefined;
  return holder?.type === AST_NODE_TYPES.MethodDefinition || holder?.type === AST_NODE_TYPES.PropertyDefinition || holder?.type === AST_NODE_TYPES.Property;
}

/**
 * `fn`, an options facade (its `options` arms: `option-arms.ts`), read as one facade per arm, each
 * reading the options parameter's properties at the caller (`'EX', opts.ex`); `undefined` when an
 * arm is no facade.
 */
function optionFacade(context: AnyContext, fn: FunctionLike, options: OptionArms): Facade | undefined {
  const facades = new Map<RedisCall, Facade>();
  for (const arm of options.arms) {
    const facade = readFacade(context, fn, arm.call, options.param);
    if (!facade) return undefined;
    facades.set(arm.call, facade);
  }
  const arms = { options, facades };
  for (const facade of facades.values()) facade.arms = arms;
  return facades.get(options.arms[0]!.call);
}

function readFacade(context: AnyContext, fn: FunctionLike, forwarded: RedisCall, optionsParam?: number): Facade | undefined {
  // a batch of its own (`pipeline().sadd(key, m).exec()`), or none
  if (forwarded.unit.kind !== 'single' && !encloses(fn, forwarded.unit.key)) return undefined;
  const keyArgs = new Map<number, number>();
  /** Key arguments forwarded from a name of a destructured object parameter, by argv position. */
  const keyNames = new Map<number, TSESTree.Identifier>();
  let restKeyArg: number | undefined;
  let named = true;
  for (const action of forwarded.description.keys) {
    const keyNode = forwarded.argNodes[action.arg];
    // an options facade's arm: its key is a parameter as it is (the other arms send the same command
    // with other tokens, which `pass-through.ts` does not take for the same write)
    if (optionsParam !== undefined) {
      const param = keyNode && parameterOf(context, keyNode, fn);
      // or given to a key builder, with a configured prefix, held in a `const` first
      // (`const prefixedKey = this.addPrefix(key)`: `pass-through.ts`)
      const index = param ? undefined : keyNode && forwardedKeyParameterIndex(context, keyNode, fn);
      if (index === undefined && (param?.from !== 'param' || param.fallback || param.destructured)) return undefined;
      named &&= namesACommand(functionName(fn) ?? '');
      keyArgs.set(action.arg, index ?? (param as { index: number }).index);
      continue;
    }
    // `del(...keys) { return this.client.del(...keys); }`: every caller argument is a key, when the
    // spread rest parameter is the command's last argument (an unread spread stands for several
    // argv entries, `normalize.ts`: the first is the rest)
    const rest = keyNode?.type === AST_NODE_TYPES.SpreadElement && keyNode === forwarded.argNodes[forwarded.argNodes.length - 1] ? parameterOf(context, keyNode, fn) : undefined;
    if (rest?.from === 'rest') {
      restKeyArg = Math.min(restKeyArg ?? action.arg, forwarded.argNodes.indexOf(keyNode!));
      named &&= namesACommand(functionName(fn) ?? '');
      keyArgs.set(action.arg, rest.index);
      continue;
    }
    const param = keyNode && passThroughParameter(context, forwarded, keyNode, false);
    if (!param || param.fn !== fn || param.rest) return undefined;
    named &&= passThroughParameter(context, forwarded, keyNode) !== undefined;
    keyArgs.set(action.arg, param.index);
    if (param.destructured) keyNames.set(action.arg, param.destructured);
  }
  // under another name, a method's (a class's or an object's: a plain function's key parameter is
  // a helper's, judged where it is by the persistence of its callers' keys, `helper-keys.ts`)
  // whose callers are read (`forwardingCallersRead`)
  const method = isMethod(fn) || (optionsParam !== undefined && exportedThroughModuleObject(context, fn));
  if (!named && !(method && keysAsGiven(context, forwarded) && forwardingCallersRead(context, fn))) return undefined;
  if (keyArgs.size === 0) return undefined;
  const last = forwarded.argNodes.length - 1;
  const entries: Entry[] = [];
  forwarded.argNodes.forEach((node, j) => {
    const keyParam = keyArgs.get(j);
    // an unread spread stands for several argv entries (`normalize.ts`): the rest parameter once
    if (j > 0 && node?.type === AST_NODE_TYPES.SpreadElement && node === forwarded.argNodes[j - 1]) return;
    const keyName = keyNames.get(j);
    if (keyParam !== undefined && keyName) return entries.push({ from: 'param', index: keyParam, destructured: { param: fn.params[keyParam]!, id: keyName } });
    if (keyParam !== undefined) return entries.push(j === restKeyArg ? { from: 'rest', index: keyParam } : { from: 'param', index: keyParam });
    const property = optionsParam === undefined ? undefined : optionProperty(context, fn, optionsParam, node);
    if (property !== undefined) return entries.push({ from: 'option', index: optionsParam!, property });
    const param = node && parameterOf(context, node, fn);
    if (param?.from === 'param' && optionsPosition(forwarded, node!)) {
      const fallback = param.fallback && unwrap(param.fallback.node);
      return entries.push({
        ...param,
        options: true,
        ...(param.fallback && fallback?.type === AST_NODE_TYPES.ObjectExpression ? { fallback: { ...param.fallback, tokens: optionObjectArgv(context, fallback) } } : {}),
      });
    }
    if (param) return entries.push(param);
    // a promise executor's `resolve`, a node-style callback the facade passes on
    if (j === last && node && unwrap(node).type === AST_NODE_TYPES.Identifier && findVariable(context, unwrap(node) as TSESTree.Identifier)?.defs[0]?.type === 'Parameter') return;
    entries.push({ from: 'fixed', value: forwarded.args[j], node });
  });
  entries.push(...optionalOptions(context, fn, forwarded));
  return { forwarded, entries, keyArgs: new Set(keyArgs.keys()), context, named };
}

/**
 * The expiry options of the forwarded call that the client drops because their value may be
 * `undefined`, when that value is an optional parameter of the facade `fn` as it is (`setString(key,
 * value, ttl?) { client.set(k, value, { EX: ttl }) }`): the caller's argument decides, so each is
 * read at the caller (sent when the caller passes it).
 */
function optionalOptions(context: AnyContext, fn: FunctionLike, forwarded: RedisCall): Entry[] {
  const out: Entry[] = [];
  for (const dropped of forwarded.dropped ?? []) {
    if (dropped.kind !== 'may-be-undefined' || dropped.option === undefined) continue;
    const param = parameterOf(context, dropped.node, fn);
    if (param?.from === 'param' && !param.fallback && !param.destructured) out.push({ from: 'optional-option', index: param.index, option: dropped.option });
  }
  return out;
}

/**
 * Whether `value` (an option value the client drops when `undefined`: `ttl` of `{ EX: ttl }`) is an
 * optional parameter of the function it is written in, as it is, and every caller of that function
 * passes it (not left out, not after a spread, not a literal `undefined`, not a value that may be
 * `undefined` there: the caller's own optional parameter): then the option is always sent. `false`
 * when the callers cannot all be known ({@link callSitesOf}), the function is also handed on as a
 * value ({@link handedOnAsValue}), or there are none.
 */
export function passedByEveryCaller(context: AnyContext, value: TSESTree.Node): boolean {
  const bare = unwrap(value);
  if (bare.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(context, bare)?.defs[0];
  if (def?.type !== 'Parameter') return false;
  const fn = def.node as FunctionLike;
  const param = parameterOf(context, bare, fn);
  if (param?.from !== 'param' || param.fallback || param.destructured) return false;
  const sites = callSitesOf(context, fn)?.sites;
  if (!sites || sites.length === 0 || handedOnAsValue(context, fn)) return false;
  return sites.every((site) => {
    const call = site.call;
    const spreadAt = call.arguments.findIndex((a) => a.type === AST_NODE_TYPES.SpreadElement);
    const given = spreadAt >= 0 && param.index >= spreadAt ? undefined : call.arguments[param.index];
    return given !== undefined && givenWhole(site.context, call, given);
  });
}

/**
 * Whether a caller's argument for a facade's optional expiry option (`ttl` of `{ EX: ttl }`) is
 * a value on every path, so that the option is sent: not a literal `undefined` / `null` or a
 * conditional with one in an arm (`id ? 300 : undefined`), not an optional chain (`opts?.ttl`),
 * not the caller's own optional parameter that nothing tests (`ttl?: number`; with type
 * information, no type including `undefined`).
 */
function givenWhole(context: AnyContext, call: TSESTree.CallExpression, given: TSESTree.Node): boolean {
  if (given.type === AST_NODE_TYPES.SpreadElement || nullishOnSomeBranch(context, given)) return false;
  for (let part = unwrap(given); part.type === AST_NODE_TYPES.MemberExpression || part.type === AST_NODE_TYPES.CallExpression || part.type === AST_NODE_TYPES.ChainExpression; ) {
    if (part.type === AST_NODE_TYPES.ChainExpression) part = unwrap(part.expression);
    else if (part.optional) return false;
    else part = unwrap(part.type === AST_NODE_TYPES.MemberExpression ? part.object : part.callee);
  }
  return !mayBeUndefined(context, given, call);
}

/**
 * Whether the forwarded call reads an option object at `node` (a client method's third argument
 * on, GETEX's second: where `normalize.ts` reads one), so that a caller's object literal there is
 * read as its tokens.
 */
function optionsPosition(forwarded: RedisCall, node: TSESTree.Node): boolean {
  if (forwarded.form !== 'method' || forwarded.flavor === 'glide') return false;
  const position = forwarded.argumentNodes.indexOf(node);
  return position >= (forwarded.command === 'GETEX' ? 1 : 2);
}

/** A parameter of `fn` given as it is (`value`, `ttl`), or its rest parameter (`members`, `...members`). */
function parameterOf(context: AnyContext, input: TSESTree.Node, fn: FunctionLike): Entry | undefined {
  const spread = input.type === AST_NODE_TYPES.SpreadElement;
  const node = unwrap(spread ? (input as TSESTree.SpreadElement).argument : input);
  if (node.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(context, node)?.defs[0];
  if (def?.type !== 'Parameter' || def.node !== fn) return undefined;
  const index = fn.params.findIndex((p) => {
    const inner = p.type === AST_NODE_TYPES.TSParameterProperty ? p.parameter : p;
    const binding = inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner.type === AST_NODE_TYPES.RestElement ? inner.argument : inner;
    return binding === def.name;
  });
  if (index < 0) {
    // a name of an object parameter the facade destructures (`expire({ key, ttl })`)
    const destructured = spread ? undefined : destructuredParameter(fn, def.name);
    return destructured && { from: 'param', index: destructured.index, destructured: { param: fn.params[destructured.index]!, id: destructured.id } };
  }
  const param = fn.params[index]!;
  if (param.type === AST_NODE_TYPES.RestElement) return { from: 'rest', index };
  if (spread) return undefined;
  const inner = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
  if (inner.type !== AST_NODE_TYPES.AssignmentPattern) return { from: 'param', index };
  const value = staticValue(context, inner.right);
  return { from: 'param', index, fallback: { value: typeof value === 'boolean' ? undefined : value, node: inner.right } };
}

/**
 * The facade's command as the caller sends it: the caller's arguments in place of the facade's
 * parameters. `undefined` when a key argument is missing or spread (the caller forwards a list:
 * nothing to read).
 */
function callerCall(context: AnyContext, node: TSESTree.CallExpression, callee: TSESTree.Node, facade: Facade): RedisCall | undefined {
  const { forwarded, entries } = facade;
  const sameFile = facade.context.sourceCode === context.sourceCode;
  const spreadAt = node.arguments.findIndex((a) => a.type === AST_NODE_TYPES.SpreadElement);
  const argument = (index: number): TSESTree.Node | undefined => (spreadAt >= 0 && index >= spreadAt ? undefined : node.arguments[index]);
  const args: CommandArg[] = [];
  const argNodes: Array<TSESTree.Node | undefined> = [];
  const push = (value: TSESTree.Node): void => {
    const known = staticValue(context, value);
    args.push(typeof known === 'boolean' ? undefined : known);
    argNodes.push(value);
  };
  for (const [j, entry] of entries.entries()) {
    if (entry.from === 'fixed') {
      args.push(entry.value);
      argNodes.push(sameFile ? entry.node : undefined);
      continue;
    }
    if (entry.from === 'rest') {
      // a spread, or no key at all (`del(...keys)` called with none)
      if (spreadAt >= 0 || (j === 0 && node.arguments.length <= entry.index)) return undefined;
      node.arguments.slice(entry.index).forEach(push);
      continue;
    }
    if (entry.from === 'optional-option') {
      const given = argument(entry.index);
      if (given && givenWhole(context, node, given)) {
        args.push(entry.option);
        argNodes.push(undefined);
        push(given);
      }
      continue;
    }
    if (entry.from === 'option') {
      const value = facade.arms && optionValue(context, facade.arms.options, argument(entry.index), entry.property);
      if (!value) return undefined;
      push(value);
      continue;
    }
    let bound: DestructuredValue | undefined;
    if (entry.destructured) {
      // the caller's object literal (or a const holding one); none, the parameter's default object
      const given = argument(entry.index);
      bound = destructuredArgument(entry.destructured.param, given && resolveConstExpression(context, given))?.find((v) => v.id === entry.destructured!.id);
      if (!bound) return undefined;
      if (!bound.value) {
        // left out, or a spread may set it: no key to read; any other value unknown
        if (facade.keyArgs.has(j)) return undefined;
        args.push(undefined);
        argNodes.push(undefined);
      } else if (bound.from === 'default') {
        const known = staticValue(facade.context, bound.value);
        args.push(typeof known === 'boolean' ? undefined : known);
        argNodes.push(sameFile ? bound.value : undefined);
      }
      if (!bound.value || bound.from === 'default') continue;
    }
    const value = bound ? bound.value : argument(entry.index);
    if (facade.keyArgs.has(j) && !value) return undefined;
    // an option object: its tokens, the caller's (`{ EX: 60 }`) or the facade's default (`{}`)
    const object = value && entry.options ? resolveConstExpression(context, value) : undefined;
    const tokens = object?.type === AST_NODE_TYPES.ObjectExpression ? optionObjectArgv(context, object) : undefined;
    if (tokens) {
      args.push(...tokens.args);
      argNodes.push(...tokens.nodes);
    } else if (value) push(value);
    else if (spreadAt >= 0 && entry.index >= spreadAt) return undefined;
    else if (entry.fallback?.tokens) {
      args.push(...entry.fallback.tokens.args);
      argNodes.push(...entry.fallback.tokens.nodes.map((n) => (sameFile ? n : undefined)));
    } else if (entry.fallback) {
      args.push(entry.fallback.value);
      argNodes.push(sameFile ? entry.fallback.node : undefined);
    }
  }
  const label = shortText(context, callee);
  const where = sameFile ? `line ${forwarded.nameNode.loc.start.line}` : `${relativePath(context, facade.context)}:${forwarded.nameNode.loc.start.line}`;
  return {
    node,
    nameNode: callee.type === AST_NODE_TYPES.MemberExpression ? callee.property : callee,
    form: 'facade',
    flavor: forwarded.flavor,
    command: forwarded.command,
    args,
    argNodes,
    description: describeCommand(forwarded.command, args),
    argumentNodes: node.arguments,
    unit: { key: node, kind: 'single' },
    // the key is stored as the facade's client stores it
    client: { receiver: label, why: `it forwards its key to ${forwarded.command} (${where})`, ...(forwarded.client.keyPrefix !== undefined ? { keyPrefix: forwarded.client.keyPrefix } : {}) },
    facade: { label, where },
  };
}

/** The facade's module as messages show it: relative to the linted file (`./presence.ts`). */
function relativePath(context: AnyContext, module: AnyContext): string {
  return specifierOf(context.physicalFilename ?? context.filename, module.physicalFilename ?? module.filename);
}

/** Source text on one line, at most about 40 characters. */
function shortText(context: AnyContext, node: TSESTree.Node): string {
  const text = context.sourceCode.getText(node).replace(/\s+/g, ' ');
  return text.length <= 40 ? text : `${text.slice(0, 37)}...`;
}

/** A call of a function, with the context of the module it is written in. */
export interface CallSite {
  call: TSESTree.CallExpression;
  context: AnyContext;
}

/**
 * Whether the function `fn` is named in its module other than by calling it or exporting it
 * (`rs.map(save)`, `{ save }`, `const persist = save`): a value handed on is called with records
 * no caller site shows ({@link callSitesOf} reads calls only). Reads the package's files from disk
 * (text only); never throws.
 */
export function handedOnAsValue(context: AnyContext, fn: TSESTree.Node): boolean {
  const parent = fn.parent;
  const id = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.id : parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier ? parent.id : undefined;
  if (!id) return false;
  if (handedOnElsewhere(context, id.name)) return true;
  return (findVariable(context, id)?.references ?? []).some((r) => {
    const use = r.identifier.parent;
    if (r.init || r.identifier === id) return false;
    if (use?.type === AST_NODE_TYPES.CallExpression && use.callee === r.identifier) return false;
    return use?.type !== AST_NODE_TYPES.ExportSpecifier;
  });
}

/** Import and require clauses, whose names bind rather than use (`import { save } from './rooms'`, `const { save } = require('./rooms')`). */
const BINDING_CLAUSES = /\bimport\s[^;]*?\bfrom\s*(['"])[^'"\n]+\1|\bexport\s*\{[^}]*\}(?:\s*from\s*(['"])[^'"\n]+\2)?|\b(?:const|let|var)\s*\{[^}]*\}\s*=\s*(?:await\s+)?(?:require|import)\s*\(/g;

/**
 * Whether another source file of the linted file's package (tests left out) writes `name` other
 * than as a call (`name(` or `.name(`) outside its import and export clauses: `rs.map(save)` in a
 * module importing `save` hands it records no call site shows. Read as text: any other use of the
 * word counts.
 */
function handedOnElsewhere(context: AnyContext, name: string): boolean {
  const file = context.physicalFilename ?? context.filename;
  const info = file && isAbsolute(file) ? packageOf(file) : undefined;
  const files = info ? packageFiles(info.root) : undefined;
  if (!file || !info || !files) return false;
  const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
  for (const path of files) {
    if (path === file || TEST_PATH.test(relative(info.root, path))) continue;
    const text = readModule(file, specifierOf(file, path))?.entry.text;
    if (text === undefined || !text.includes(name)) continue;
    const code = text.replace(BINDING_CLAUSES, '');
    for (const match of code.matchAll(word)) {
      if (!/^\s*(?:<[^<>()]*>)?\s*\(/.test(code.slice(match.index! + name.length))) return true;
    }
  }
  return false;
}

/**
 * The calls of a function; `named` when its name occurs anywhere but its definition (a reference, a
 * comment); `escapes` when a module also uses the function as a value ({@link escapesIn}: handed
 * as a callback, `.call` / `.bind` / `.apply`, stored in a variable or an object), whose calls
 * are not among `sites`.
 */
export interface CallSites {
  sites: readonly CallSite[];
  named: boolean;
  escapes: boolean;
}

const callSites = new WeakMap<TSESTree.Node, CallSites | null>();

/**
 * Every call of the function `fn` of the linted file, read as this module reads a facade's callers
 * (`this.m(...)`, a method of an instance of its class, a function of the module or one imported
 * from it): those of its own module, and when it may be called from elsewhere (exported, or a
 * method), those of the other modules of its application that name it (tests left out, unless
 * `fn` is in one). `undefined` when its callers cannot all be known: a library's exported function
 * (its callers may be other people's code), no file on disk or no `package.json`, or a call of its
 * name the rules cannot resolve (`this.cache.m(key)` with `this.cache = config.cache`).
 * @param hopsKnown when true, a same-name forward of the enclosing function's own key parameter
 *   and a call on an instance of a global class (`new URLSearchParams()`) do not make the callers
 *   unknown ({@link walkCallsOf}); answers are cached apart for each mode
 */
export function callSitesOf(context: AnyContext, fn: FunctionLike, hopsKnown = false): CallSites | undefined {
  const cache = hopsKnown ? callSitesAcrossHops : callSites;
  let found = cache.get(fn);
  if (found === undefined) {
    found = collectCallSites(context, fn, hopsKnown) ?? null;
    cache.set(fn, found);
  }
  return found ?? undefined;
}

/**
 * {@link callSitesOf} with `hopsKnown` (true): a call of the name that forwards the key parameter
 * of a function of that name it sits in, on a receiver the rules cannot read, does not make the
 * callers unknown ({@link walkCallsOf}).
 */
const callSitesAcrossHops = new WeakMap<TSESTree.Node, CallSites | null>();

function collectCallSites(context: AnyContext, fn: FunctionLike, hopsKnown: boolean): CallSites | undefined {
  const file = context.physicalFilename ?? context.filename;
  const name = functionName(fn);
  if (name === undefined) return undefined;
  const sites: CallSite[] = [];
  const word = new RegExp(`\\b${name.replace(/[^\w$]/g, '\\$&')}\\b`, 'g');
  let named = (context.sourceCode.text.match(word)?.length ?? 0) > 1;
  if (sitesIn(context, fn, file, name, sites, hopsKnown) === 'unresolved') return undefined;
  const member = isClassMember(fn);
  // the modules whose uses of the function as a value `escapes` reads, only when a caller asks
  const read: AnyContext[] = [context];
  if (!reachableFromOutside(fn, context)) return withEscapes(sites, named, read, name, member);
  if (!file || !isAbsolute(file)) return undefined;
  const info = packageOf(file);
  if (!info || !info.application) return undefined;
  const files = packageFiles(info.root);
  if (!files) return undefined;
  const ownIsTest = TEST_PATH.test(relative(info.root, file));
  for (const path of files) {
    if (resolvePath(path) === resolvePath(file)) continue;
    const text = readModule(file, specifierOf(file, path))?.entry.text;
    word.lastIndex = 0;
    if (text === undefined || !word.test(text)) continue;
    named = true;
    if (!ownIsTest && TEST_PATH.test(relative(info.root, path))) continue;
    const module = loadModule(context, specifierOf(file, path));
    if (!module) return undefined;
    const at = moduleContext(context, module);
    if (sitesIn(at, fn, file, name, sites, hopsKnown) === 'unresolved') return undefined;
    read.push(at);
  }
  return withEscapes(sites, named, read, name, member);
}

/**
 * A {@link CallSites} whose `escapes` walks the modules `read` ({@link escapesIn}) the first time it
 * is read: most readers of the call sites never ask, and the walk is one more pass over each module.
 */
function withEscapes(sites: CallSite[], named: boolean, read: readonly AnyContext[], name: string, member: boolean): CallSites {
  let escapes: boolean | undefined;
  return {
    sites,
    named,
    get escapes() {
      escapes ??= read.some((at) => escapesIn(at, name, member));
      return escapes;
    },
  };
}

/** Whether `fn` is a method or a property of a class or an object literal (named by its key). */
function isClassMember(fn: FunctionLike): boolean {
  const parent = fn.parent;
  return parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.PropertyDefinition || parent?.type === AST_NODE_TYPES.Property;
}

/**
 * Whether the module of `context` uses a function named `name` as a value rather than calling it:
 * a binding of that name (its declaration, an import under any local name) handed as an argument
 * (`bus.on('typing', mark)`), read for `.call` / `.bind` / `.apply`, stored (`const m = mark`,
 * `{ mark }`), returned or exported as the default; for a method (`member`), `x.name` so read
 * (`bus.on('typing', this.mark)`). Its calls through that value are no calls {@link callSitesOf}
 * finds. Not a callee, an import or export specifier, a declaration, a type query, or a property key.
 */
function escapesIn(context: AnyContext, name: string, member: boolean): boolean {
  return walk(context, context.sourceCode.ast, (node) => {
    const parent = node.parent;
    if (!parent) return undefined;
    if (node.type === AST_NODE_TYPES.MemberExpression) {
      if (!member || propertyName(node.property, node.computed) !== name) return undefined;
      return valueUse(node, parent) ? 'stop' : undefined;
    }
    if (node.type !== AST_NODE_TYPES.Identifier) return undefined;
    if (node.name !== name && importedName(context, node) !== name) return undefined;
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return undefined;
    if (parent.type === AST_NODE_TYPES.Property && parent.key === node && !parent.shorthand) return undefined;
    if (parent.type === AST_NODE_TYPES.ImportSpecifier || parent.type === AST_NODE_TYPES.ExportSpecifier || parent.type === AST_NODE_TYPES.ImportDefaultSpecifier) return undefined;
    if (parent.type.startsWith('TS')) return undefined;
    const defs = findVariable(context, node)?.defs ?? [];
    if (!defs.some((def) => def.type === 'FunctionName' || def.type === 'ImportBinding' || (def.type === 'Variable' && def.name !== node))) return undefined;
    return valueUse(node, parent) ? 'stop' : undefined;
  });
}

/** Whether the reference `node` (its parent `parent`) reads the function as a value: no callee, no declared name, no assigned target. */
function valueUse(node: TSESTree.Node, parent: TSESTree.Node): boolean {
  if ((parent.type === AST_NODE_TYPES.CallExpression || parent.type === AST_NODE_TYPES.NewExpression) && parent.callee === node) return false;
  if (parent.type === AST_NODE_TYPES.ChainExpression || parent.type === AST_NODE_TYPES.TSNonNullExpression) return valueUse(parent, parent.parent!);
  if (parent.type === AST_NODE_TYPES.FunctionDeclaration || parent.type === AST_NODE_TYPES.FunctionExpression || parent.type === AST_NODE_TYPES.ClassDeclaration) return false;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id === node) return false;
  if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node) return false;
  if (parent.type === AST_NODE_TYPES.MethodDefinition || parent.type === AST_NODE_TYPES.PropertyDefinition) return parent.value === node;
  // `typeof mark`, `mark === undefined`, `if (mark)`: a test of the binding, not a call of it elsewhere
  if (parent.type === AST_NODE_TYPES.UnaryExpression || parent.type === AST_NODE_TYPES.BinaryExpression || parent.type === AST_NODE_TYPES.IfStatement) return false;
  if (parent.type === AST_NODE_TYPES.ExpressionStatement) return false;
  return true;
}

/**
 * The calls of `fn` (named `name`, of the file `file`) in the module of `context`, added to
 * `sites`; `'unresolved'` when the module has a call of that name that cannot be resolved
 * ({@link walkCallsOf}: the sites are then not all known).
 */
function sitesIn(context: AnyContext, fn: FunctionLike, file: string, name: string, sites: CallSite[], hopsKnown = false): 'unresolved' | undefined {
  const { unresolved } = walkCallsOf(
    context,
    fn,
    file,
    name,
    (call) => {
      sites.push({ call, context });
    },
    hopsKnown,
  );
  return unresolved ? 'unresolved' : undefined;
}

/**
 * Whether `fn` can be called from another module: a method (its instance may travel), or a
 * function its module exports (`export`, `module.exports`, `exports.name`).
 */
function reachableFromOutside(fn: FunctionLike, context: AnyContext): boolean {
  let node: TSESTree.Node | undefined = fn.parent;
  while (node && node.type !== AST_NODE_TYPES.Program) {
    if (node.type === AST_NODE_TYPES.ExportNamedDeclaration || node.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
    if (node.type === AST_NODE_TYPES.MethodDefinition || node.type === AST_NODE_TYPES.PropertyDefinition) {
      // a private method (`private m()`, `#m()`) is called from its class alone
      if (node.key.type === AST_NODE_TYPES.PrivateIdentifier || node.accessibility === 'private') return false;
      return true;
    }
    if (node.type === AST_NODE_TYPES.Property) return true;
    node = node.parent;
  }
  const name = functionName(fn);
  if (name === undefined) return true;
  const text = context.sourceCode.text;
  const word = name.replace(/[^\w$]/g, '\\$&');
  return new RegExp(`export\\s*\\{[^}]*\\b${word}\\b|\\bexports\\b[^;]*\\b${word}\\b`).test(text);
}
