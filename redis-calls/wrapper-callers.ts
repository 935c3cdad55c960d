/**
 * A wrapper's write judged at its callers. When the key of a write is a parameter of the method
 * it is in (and the arm it sits in is chosen by the method's other parameters: an optional
 * `{ nx, ex }`), the decision is made where the method is called:
 *
 * ```ts
 * // lib/redis.ts of an application
 * export const kv = {
 *   async set(key: string, value: unknown, opts?: { nx?: boolean; ex?: number }) {
 *     if (opts?.nx && opts?.ex) return r.set(key, value, 'EX', opts.ex, 'NX');
 *     if (opts?.nx) return r.set(key, value, 'NX');      // judged at the callers that reach it
 *     ...
 *   },
 * };
 * // lottery.ts
 * await kv.set(LOTTERY_RECORDS_TOTAL_KEY, n, { nx: true });  // reaches the NX arm: key persistent
 * await kv.set(lockKey, token, { nx: true, ex: 5 });          // does not reach it
 * ```
 *
 * What counts, conservatively (a caller missed would hide a leak):
 *
 * - the write's key is a parameter of a method of a top-level `const` object literal
 *   (`export const kv = { set(...) {...} }`), or of a top-level class its module does not export
 *   and names only in `new` expressions held by top-level `const`s (`export const kv: KV = useMem
 *   ? new MemoryKV() : new VercelKVWrapper()`); the method is called on that `const`
 *   (`kv.set(...)`) or on `this` inside the object or class; or of a singleton class, its one
 *   instance handed out by a static accessor (`RedisManager.getInstance().createData(key, v)`,
 *   `redis-calls/singleton-holders.ts`), the class exported by name or as the default export;
 * - the module is one of an **application** (`project.ts`: a library's callers are other people's
 *   code);
 * - every call is found: in the defining module, and in the modules importing it (directly or
 *   through barrels re-exporting the name), breadth first, at most `MAX_IMPORT_DEPTH` levels and
 *   `MAX_MODULES_READ` modules read (`importers.ts`); a module that does not import the defining
 *   module (or a barrel of it) is no caller, whatever it writes. Any other use of the `const`
 *   (handed on as a value, `kv.set` read without a call, a namespace import or a `require` of
 *   the module, `export * as`) leaves the callers unknown, and so does `this` used other than as
 *   a member's object in the holder (`const self = this`, `return this`) and a bound reached;
 *   tests are no callers;
 * - a call reaches the write unless its arguments decide, by the tests between the method's start
 *   and the write (the `if` / `?:` / `&&` around it, an earlier `if (...) return`), that it does
 *   not: `opts?.nx` with `{ nx: true }`, `opts?.ex` with `{ ex: 5 }` or left out; a run-time value
 *   (`{ ex: ttl }`), or an options `const` changed after its literal (`opts.nx = true`,
 *   `Object.assign(opts, ...)`), decides nothing, so the call reaches;
 * - each call that reaches passes a key persistent by design (a `persistentKeys` pattern) or,
 *   with `allowConstantKeys`, a bounded one (one constant key): the write is left alone (unless
 *   a caller of the file passes a lock the file releases: `policy.ts` then reports the write,
 *   `locks.ts` releasedHelperLock); any other key (a run-time id) keeps the finding, at the write;
 * - calls found, none reaching the write: the arm is code no caller runs (`allowUncalledCode`
 *   decides); no call found at all: today's behaviour (`uncalled.ts`).
 *
 * Cached per method for the lint run; nothing is read unless the key is such a parameter.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { keyParameter } from './helper-keys.js';
import { keyShapeOf } from './key-shape.js';
import { importersOf, MAX_IMPORT_DEPTH, MAX_MODULES_READ, resolved } from './importers.js';
import { loadModule, moduleContext, readModule } from './modules.js';
import { specifierOf, resolvePath } from './facade-targets.js';
import { persistentPattern } from './persistent.js';
import { EXPIRY_UNITS } from '../semantics/command-spec.js';
import { TTL_NAME } from './names.js';
import { packageOf } from './project.js';
import { alwaysExits, findVariable, propertyName, resolveConstExpression, staticValue, unwrap, walk, type AnyContext, type FunctionLike } from './static.js';
import { TEST_PATH } from './test-paths.js';
import { ownInstanceUse, singletonOf, singletonUses, storedInSlot, type Singleton } from './singleton-holders.js';
import { inStaticMember } from './client-syntax.js';
import { relative } from 'node:path';

/** A call of the wrapper method, with the context of the module it is written in. */
interface Site {
  call: TSESTree.CallExpression;
  context: AnyContext;
}

/** The verdict of {@link callersDecide}. */
export type CallersVerdict = 'persistent' | 'constant' | 'unreached';

/** Options of the key policy this reading follows. */
export interface CallersOptions {
  allowConstantKeys?: boolean;
}

const sitesCache = new WeakMap<TSESTree.Node, readonly Site[] | null>();

/**
 * Whether the callers of the method whose parameter is the key at `keyNode` of the write `write` decide
 * that the write is kept on purpose (see the module comment): `'persistent'` every call reaching
 * the write passes a persistent key, `'constant'` some pass a bounded constant key (the others
 * persistent ones), `'unreached'` calls were found and none reaches the write; `undefined`: judged
 * at the write.
 * @param write the node of the write (a command call, an `eval`): the tests around it choose its arm
 * @param keyPrefix the shape of the writing client's `keyPrefix`, if any (a pattern may match the key as stored)
 */
export function callersDecide(context: AnyContext, write: TSESTree.Node, keyNode: TSESTree.Node, keyPrefix: string | undefined, options: CallersOptions = {}): CallersVerdict | undefined {
  const parameter = keyParameter(context, keyNode);
  if (!parameter) return undefined;
  const { fn, index } = parameter;
  if (parameterIsRest(fn, index)) return undefined;
  const sites = sitesOf(context, fn);
  if (!sites || sites.length === 0) return undefined;
  const guards = guardsOf(write, fn);
  if (!guards) return undefined;
  let reached = 0;
  let constant = false;
  for (const site of sites) {
    if (!reaches(context, fn, guards, site)) continue;
    reached++;
    const arg = site.call.arguments[index];
    if (!arg || arg.type === AST_NODE_TYPES.SpreadElement || site.call.arguments.slice(0, index).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return undefined;
    const shape = keyShapeOf(site.context, arg);
    if (persistentPattern(site.context, shape, keyPrefix) !== undefined) continue;
    if (options.allowConstantKeys !== false && shape.constant && keyParameter(site.context, arg) === undefined) {
      constant = true;
      continue;
    }
    return undefined;
  }
  if (reached === 0) return 'unreached';
  return constant ? 'constant' : 'persistent';
}

/**
 * Whether the call `call` of `fn` (written in the module of `at`) may reach `write` in `fn`: no
 * test between the start of `fn` and the write is decided against it by the call's arguments
 * (`opts?.nx` with `{ nx: true, ex: 30 }` does not reach the `{ nx }`-only arm). A write in a nested
 * function is reached (its tests decide nothing).
 * @param context the context of the module `fn` and `write` are in
 * @param at the context of the module the call is written in (its arguments are read there)
 */
export function callReachesWrite(context: AnyContext, fn: FunctionLike, write: TSESTree.Node, call: TSESTree.CallExpression, at: AnyContext): boolean {
  const guards = guardsOf(write, fn);
  return !guards || reaches(context, fn, guards, { call, context: at });
}

function parameterIsRest(fn: FunctionLike, index: number): boolean {
  return fn.params[index]?.type === AST_NODE_TYPES.RestElement;
}

/** The calls of `fn`, every one, or `undefined` when they cannot all be known. Cached per method. */
function sitesOf(context: AnyContext, fn: FunctionLike): readonly Site[] | undefined {
  let found = sitesCache.get(fn);
  if (found === undefined) {
    found = collectSites(context, fn) ?? null;
    sitesCache.set(fn, found);
  }
  return found ?? undefined;
}

/** How a method is reached: its name, the top-level `const`s holding its object or instances, and the object or class `this` is in it. */
interface Holder {
  member: string;
  declarators: TSESTree.VariableDeclarator[];
  body: TSESTree.Node;
  /** A singleton class (`redis-calls/singleton-holders.ts`): its instances come from its static accessor. */
  singleton?: { class: Singleton; variable: Variable; exported: string[] };
}

function holderOf(context: AnyContext, fn: FunctionLike): Holder | undefined {
  const slot = fn.parent;
  if (slot?.type === AST_NODE_TYPES.Property && slot.value === fn && !slot.computed) {
    const member = propertyName(slot.key, false);
    const object = slot.parent;
    if (member === undefined || object?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    let holder: TSESTree.Node | undefined = object.parent;
    while (holder && (holder.type === AST_NODE_TYPES.TSAsExpression || holder.type === AST_NODE_TYPES.TSSatisfiesExpression)) holder = holder.parent;
    if (holder?.type !== AST_NODE_TYPES.VariableDeclarator || !topLevelConst(holder)) return undefined;
    return { member, declarators: [holder], body: object };
  }
  if (slot?.type === AST_NODE_TYPES.MethodDefinition && slot.kind === 'method' && !slot.static && !slot.computed && slot.key.type === AST_NODE_TYPES.Identifier) {
    const cls = slot.parent.parent;
    if (cls?.type !== AST_NODE_TYPES.ClassDeclaration || !cls.id) return undefined;
    const variable = context.sourceCode.scopeManager?.getDeclaredVariables(cls).find((v) => v.name === cls.id!.name);
    if (!variable) return undefined;
    if (cls.parent?.type !== AST_NODE_TYPES.Program) return singletonHolder(cls, variable, slot.key.name);
    const declarators = new Set<TSESTree.VariableDeclarator>();
    for (const reference of variable.references) {
      const id = reference.identifier as TSESTree.Node;
      // a type annotation (`as VercelKVWrapper`) is no value
      if (id.parent?.type === AST_NODE_TYPES.TSTypeReference || (reference as { isTypeReference?: boolean }).isTypeReference) continue;
      if (id.parent?.type !== AST_NODE_TYPES.NewExpression || id.parent.callee !== id) return singletonHolder(cls, variable, slot.key.name);
      const declarator = instanceHolder(id.parent);
      if (!declarator) return singletonHolder(cls, variable, slot.key.name);
      declarators.add(declarator);
    }
    return declarators.size > 0 ? { member: slot.key.name, declarators: [...declarators], body: cls.body } : singletonHolder(cls, variable, slot.key.name);
  }
  return undefined;
}

/** A top-level (or exported) singleton class as the holder of its method `member` (`redis-calls/singleton-holders.ts`), or `undefined`. */
function singletonHolder(cls: TSESTree.ClassDeclaration, variable: Variable, member: string): Holder | undefined {
  const outer = cls.parent;
  const exported = outer?.type === AST_NODE_TYPES.ExportDefaultDeclaration ? ['default'] : outer?.type === AST_NODE_TYPES.ExportNamedDeclaration ? [cls.id!.name] : [];
  if (outer?.type !== AST_NODE_TYPES.Program && exported.length === 0) return undefined;
  if (exported.length > 0 && outer?.parent?.type !== AST_NODE_TYPES.Program) return undefined;
  const singleton = singletonOf(cls);
  if (!singleton) return undefined;
  // the module's binding of the class, not the one its own body sees (a class scope has its own)
  const outerVariable = variable.scope.type === 'class' ? variable.scope.upper?.set.get(variable.name) : variable;
  return outerVariable ? { member, declarators: [], body: cls.body, singleton: { class: singleton, variable: outerVariable, exported } } : undefined;
}

/** The top-level `const` whose initializer is `created` (through casts, parentheses and `?:` arms). */
function instanceHolder(created: TSESTree.NewExpression): TSESTree.VariableDeclarator | undefined {
  let node: TSESTree.Node = created;
  for (;;) {
    const parent: TSESTree.Node | undefined = node.parent;
    if (!parent) return undefined;
    if (parent.type === AST_NODE_TYPES.TSAsExpression || parent.type === AST_NODE_TYPES.TSSatisfiesExpression || parent.type === AST_NODE_TYPES.TSNonNullExpression) node = parent;
    else if (parent.type === AST_NODE_TYPES.ConditionalExpression && parent.test !== node) node = parent;
    else if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === node) return topLevelConst(parent) ? parent : undefined;
    else return undefined;
  }
}

function topLevelConst(declarator: TSESTree.VariableDeclarator): boolean {
  const declaration = declarator.parent;
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const') return false;
  const outer = declaration.parent;
  return outer?.type === AST_NODE_TYPES.Program || (outer?.type === AST_NODE_TYPES.ExportNamedDeclaration && outer.parent?.type === AST_NODE_TYPES.Program);
}

function collectSites(context: AnyContext, fn: FunctionLike): Site[] | undefined {
  const file = context.physicalFilename ?? context.filename;
  if (!file) return undefined;
  const info = packageOf(file);
  if (!info || !info.application) return undefined;
  const holder = holderOf(context, fn);
  if (!holder) return undefined;
  const sites: Site[] = [];
  // `this.set(...)` inside the object or class
  if (!thisCalls(context, holder, sites)) return undefined;
  if (holder.singleton) {
    const { class: singleton, variable } = holder.singleton;
    const names = singletonUses(context, variable, singleton, holder.member, sites, singleton.body);
    if (!names) return undefined;
    // the class's own binding of its name, which its body reads (`C.getInstance().member(...)` in a
    // static method): another variable than the module's
    const cls = singleton.body.parent;
    const inner = cls ? (context.sourceCode.scopeManager?.getDeclaredVariables(cls) ?? []).filter((v) => v.name === singleton.name && v !== variable) : [];
    if (inner.some((v) => !singletonUses(context, v, singleton, holder.member, sites, singleton.body))) return undefined;
    const exported = new Set([...holder.singleton.exported, ...names]);
    if (exported.size === 0) return sites;
    const uses: Uses = (at, imported, member, found) => singletonUses(at, imported, singleton, member, found);
    return importerSites(context, file, info.root, exported, holder.member, sites, uses) ? sites : undefined;
  }
  const exported = new Set<string>();
  for (const declarator of holder.declarators) {
    const variable = context.sourceCode.scopeManager?.getDeclaredVariables(declarator)[0];
    if (!variable) return undefined;
    if (declarator.parent?.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration) exported.add(variable.name);
    const uses = usesOf(context, variable, holder.member, sites);
    if (!uses) return undefined;
    for (const name of uses) exported.add(name);
  }
  if (exported.size === 0) return sites;
  return importerSites(context, file, info.root, exported, holder.member, sites) ? sites : undefined;
}

/**
 * Adds the `this.member(...)` calls in the holder's body; `false` on a computed member of `this`
 * (any method may be called), and on `this` used other than as a member's object: aliased
 * (`const self = this; self.set(...)`), destructured, handed on or returned (`return this`
 * chains), its calls are made under names no walk follows.
 */
function thisCalls(context: AnyContext, holder: Holder, sites: Site[]): boolean {
  let ok = true;
  walk(context, holder.body, (node) => {
    if (node.type === AST_NODE_TYPES.ThisExpression) {
      let outer: TSESTree.Node = node;
      while (outer.parent && (outer.parent.type === AST_NODE_TYPES.TSAsExpression || outer.parent.type === AST_NODE_TYPES.TSNonNullExpression || outer.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)) outer = outer.parent;
      // `C.instance = this` of a singleton class: its one instance, handed out by its accessor
      if ((outer.parent?.type !== AST_NODE_TYPES.MemberExpression || outer.parent.object !== outer) && !(holder.singleton && storedInSlot(outer, holder.singleton.class))) ok = false;
      return ok ? undefined : 'stop';
    }
    if (node.type !== AST_NODE_TYPES.MemberExpression || unwrap(node.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
    const name = propertyName(node.property, node.computed);
    if (name === holder.member) {
      const call = node.parent;
      if (call?.type === AST_NODE_TYPES.CallExpression && call.callee === node) sites.push({ call, context });
      else ok = false;
    } else if (name === undefined) ok = false;
    // `this.getInstance().createData(key, v)`, `this.instance.createData(key, v)` in a static member
    // of a singleton class: its one instance's calls (singleton-holders.ts)
    else if (holder.singleton && holder.body.parent?.type === AST_NODE_TYPES.ClassDeclaration && inStaticMember(node, holder.body.parent) && !ownInstanceUse(context, node, holder.singleton.class, holder.member, sites)) ok = false;
    return ok ? undefined : 'stop';
  });
  return ok;
}

type Variable = NonNullable<ReturnType<typeof findVariable>>;

/** How a module's binding of the holder is used: adds the member's calls, returns the names it is exported under, `undefined` when unknown. */
type Uses = (context: AnyContext, variable: Variable, member: string, sites: Site[]) => string[] | undefined;

/**
 * Adds the calls `name.member(...)` of a variable holding the object or instance; returns the
 * names it is exported under (`export { kv }`, `export { kv as store }`), or `undefined` when it is
 * used any other way (handed on, `name.member` not called, `name[x]`).
 */
function usesOf(context: AnyContext, variable: Variable, member: string, sites: Site[]): string[] | undefined {
  const names: string[] = [];
  for (const reference of variable.references) {
    const id = reference.identifier as TSESTree.Node;
    if (reference.init) continue;
    const parent = id.parent;
    if (parent?.type === AST_NODE_TYPES.ExportSpecifier) {
      names.push(parent.exported.type === AST_NODE_TYPES.Identifier ? parent.exported.name : String(parent.exported.value));
      continue;
    }
    if (parent?.type === AST_NODE_TYPES.TSTypeQuery || (reference as { isTypeReference?: boolean }).isTypeReference) continue;
    if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== id) return undefined;
    const name = propertyName(parent.property, parent.computed);
    if (name === undefined) return undefined;
    if (name !== member) continue;
    const call = parent.parent?.type === AST_NODE_TYPES.ChainExpression ? parent.parent.parent : parent.parent;
    const callee = parent.parent?.type === AST_NODE_TYPES.ChainExpression ? parent.parent : parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== callee) return undefined;
    sites.push({ call, context });
  }
  return names;
}

/** A `require(...)` or `import(...)` of a string: the module may be taken whole. */
const WHOLE_MODULE_CALL = /\b(?:require|import)\s*\(\s*['"`]([^'"`]+)['"`]/g;

/**
 * Adds the calls of `member` on the names `exported` by `file` in the modules importing it
 * (directly or through barrels), bounded; `false` when they cannot all be known.
 */
function importerSites(context: AnyContext, file: string, root: string, exported: ReadonlySet<string>, member: string, sites: Site[], uses: Uses = usesOf): boolean {
  const own = resolvePath(file);
  // modules providing the holder, with the names they export it under
  const providers = new Map<string, Set<string>>([[own, new Set(exported)]]);
  const seen = new Set<string>([own]);
  let level = [own];
  let read = 0;
  for (let depth = 0; level.length > 0; depth++) {
    const next: string[] = [];
    for (const path of level) {
      for (const importer of importersOf(path, root)) {
        if (seen.has(importer)) continue;
        if (depth >= MAX_IMPORT_DEPTH) return false;
        seen.add(importer);
        const text = readModule(file, specifierOf(file, importer))?.entry.text;
        if (text === undefined) return false;
        const names = providers.get(path)!;
        // a default export is imported under any name: every importer is read
        if (!names.has('default') && ![...names].some((name) => new RegExp(`\\b${name.replace(/[^\w$]/g, '\\$&')}\\b`).test(text)) && !/\b(?:import|export)\s*\*/.test(text)) continue;
        // taken whole: its members are reached under names no text writes
        for (const match of text.matchAll(WHOLE_MODULE_CALL)) {
          const target = resolved(importer, match[1]!);
          if (target !== undefined && providers.has(resolvePath(target))) return false;
        }
        if (++read > MAX_MODULES_READ) return false;
        const module = loadModule(context, specifierOf(file, importer), { packages: true });
        if (!module) return false;
        const at = moduleContext(context, module);
        const test = TEST_PATH.test(relative(root, importer));
        const provided = importsOf(at, importer, providers, member, test ? [] : sites, uses);
        if (provided === undefined) return false;
        if (provided.size > 0) {
          const previous = providers.get(importer) ?? new Set<string>();
          for (const name of provided) previous.add(name);
          providers.set(importer, previous);
          next.push(importer);
        }
      }
    }
    level = next;
  }
  return true;
}

/**
 * Reads one importing module: adds the calls of `member` on the bindings it imports from a
 * provider; returns the names it re-exports the holder under (a barrel), `undefined` when a use
 * cannot be followed (a namespace import, `export * as`).
 */
function importsOf(context: AnyContext, path: string, providers: ReadonlyMap<string, ReadonlySet<string>>, member: string, sites: Site[], uses: Uses): Set<string> | undefined {
  const provided = new Set<string>();
  const from = (source: string): ReadonlySet<string> | undefined => {
    const target = resolved(path, source);
    return target === undefined ? undefined : providers.get(resolvePath(target));
  };
  for (const statement of context.sourceCode.ast.body) {
    if (statement.type === AST_NODE_TYPES.ExportAllDeclaration) {
      const names = from(statement.source.value);
      if (!names) continue;
      if (statement.exported) return undefined;
      for (const name of names) provided.add(name);
      continue;
    }
    if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration && statement.source) {
      const names = from(statement.source.value);
      if (!names) continue;
      for (const specifier of statement.specifiers) {
        const local = specifier.local.type === AST_NODE_TYPES.Identifier ? specifier.local.name : String(specifier.local.value);
        if (names.has(local)) provided.add(specifier.exported.type === AST_NODE_TYPES.Identifier ? specifier.exported.name : String(specifier.exported.value));
      }
      continue;
    }
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration || statement.importKind === 'type') continue;
    const names = from(statement.source.value);
    if (!names) continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type === AST_NODE_TYPES.ImportNamespaceSpecifier) return undefined;
      if (specifier.type === AST_NODE_TYPES.ImportSpecifier && specifier.importKind === 'type') continue;
      const imported = specifier.type === AST_NODE_TYPES.ImportDefaultSpecifier ? 'default' : specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : String(specifier.imported.value);
      if (!names.has(imported)) continue;
      const variable = context.sourceCode.scopeManager?.getDeclaredVariables(specifier)[0];
      if (!variable) return undefined;
      const reexported = uses(context, variable, member, sites);
      if (!reexported) return undefined;
      for (const name of reexported) provided.add(name);
    }
  }
  return provided;
}

/** A test the write's arm depends on, and the value it must have. */
interface Guard {
  test: TSESTree.Node;
  value: boolean;
}

/**
 * The tests between `fn`'s start and `write`: the `if` / `?:` / `&&` / `||` around it, and each
 * earlier `if (...) return` (or throw) of the blocks it is in. `undefined` when the write is in a
 * nested function (the tests do not decide when it runs).
 */
function guardsOf(write: TSESTree.Node, fn: FunctionLike): Guard[] | undefined {
  const guards: Guard[] = [];
  for (let node: TSESTree.Node = write; node !== fn; ) {
    const parent: TSESTree.Node | undefined = node.parent;
    if (!parent) return undefined;
    if (parent !== fn && (parent.type === AST_NODE_TYPES.FunctionExpression || parent.type === AST_NODE_TYPES.ArrowFunctionExpression || parent.type === AST_NODE_TYPES.FunctionDeclaration)) return undefined;
    if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== node) {
      guards.push({ test: parent.test, value: node === parent.consequent });
    } else if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === node && parent.operator !== '??') {
      guards.push({ test: parent.left, value: parent.operator === '&&' });
    } else if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.SwitchCase) {
      const list: readonly TSESTree.Node[] = parent.type === AST_NODE_TYPES.BlockStatement ? parent.body : parent.consequent;
      for (const sibling of list.slice(0, list.indexOf(node))) {
        if (sibling.type === AST_NODE_TYPES.IfStatement && !sibling.alternate && alwaysExits(sibling.consequent)) guards.push({ test: sibling.test, value: false });
      }
    }
    node = parent;
  }
  return guards;
}

/** A parameter's value at a call: left out, an expression of the caller's module (or of the wrapper's, a default), or unknown. */
type Value = { absent: true } | { node: TSESTree.Node; context: AnyContext } | undefined;

/** Whether the call `site` may reach the write: no guard is decided against it by its arguments. */
function reaches(context: AnyContext, fn: FunctionLike, guards: readonly Guard[], site: Site): boolean {
  const argument = (index: number): Value => {
    const args = site.call.arguments;
    if (args.slice(0, index + 1).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return undefined;
    const given = args[index];
    if (given) return { node: given, context: site.context };
    const param = fn.params[index];
    if (param?.type === AST_NODE_TYPES.AssignmentPattern) return { node: param.right, context };
    return { absent: true };
  };
  const valueOf = (expression: TSESTree.Node): Value => {
    const node = unwrap(expression.type === AST_NODE_TYPES.ChainExpression ? expression.expression : expression);
    if (node.type === AST_NODE_TYPES.Identifier) {
      if (node.name === 'undefined') return { absent: true };
      const parameter = keyParameter(context, node);
      return parameter && parameter.fn === fn ? argument(parameter.index) : undefined;
    }
    if (node.type === AST_NODE_TYPES.Literal) return { node, context };
    if (node.type === AST_NODE_TYPES.MemberExpression) {
      const name = propertyName(node.property, node.computed);
      const object = valueOf(node.object);
      if (name === undefined || !object) return undefined;
      if ('absent' in object) return node.optional || inOptionalChain(node) ? { absent: true } : undefined;
      // an options object the caller changes after writing it (`opts.nx = true`) is not its literal
      if (!unchangedObject(object.context, object.node, site.call)) return undefined;
      const literal = resolveConstExpression(object.context, object.node);
      if (literal.type !== AST_NODE_TYPES.ObjectExpression || literal.properties.some((p) => p.type !== AST_NODE_TYPES.Property || p.computed)) return undefined;
      const property = literal.properties.find((p) => p.type === AST_NODE_TYPES.Property && propertyName(p.key, false) === name) as TSESTree.Property | undefined;
      if (!property) return { absent: true };
      return { node: property.value, context: object.context };
    }
    return undefined;
  };
  const truthy = (value: Value): boolean | undefined => {
    if (!value) return undefined;
    if ('absent' in value) return false;
    const node = unwrap(value.node);
    if (node.type === AST_NODE_TYPES.ObjectExpression || node.type === AST_NODE_TYPES.ArrayExpression) return true;
    if (node.type === AST_NODE_TYPES.Literal && node.value === null) return false;
    if (node.type === AST_NODE_TYPES.Identifier && node.name === 'undefined') return false;
    const known = staticValue(value.context, node);
    return known === undefined ? undefined : Boolean(known);
  };
  const nullish = (value: Value): boolean | undefined => {
    if (!value) return undefined;
    if ('absent' in value) return true;
    const node = unwrap(value.node);
    if ((node.type === AST_NODE_TYPES.Literal && node.value === null) || (node.type === AST_NODE_TYPES.Identifier && node.name === 'undefined')) return true;
    if (node.type === AST_NODE_TYPES.ObjectExpression || node.type === AST_NODE_TYPES.ArrayExpression) return false;
    return staticValue(value.context, node) === undefined ? undefined : false;
  };
  const test = (expression: TSESTree.Node): boolean | undefined => {
    const node = unwrap(expression);
    if (node.type === AST_NODE_TYPES.UnaryExpression && node.operator === '!') {
      const inner = test(node.argument);
      return inner === undefined ? undefined : !inner;
    }
    if (node.type === AST_NODE_TYPES.LogicalExpression && node.operator !== '??') {
      const left = test(node.left);
      const right = test(node.right);
      if (node.operator === '&&') return left === false || right === false ? false : left === true && right === true ? true : undefined;
      return left === true || right === true ? true : left === false && right === false ? false : undefined;
    }
    if (node.type === AST_NODE_TYPES.BinaryExpression && ['===', '!==', '==', '!='].includes(node.operator)) {
      // `x === undefined`, `x != null`: only what the arguments decide (left out, a literal, an object)
      const nothing = (side: TSESTree.Node): 'undefined' | 'null' | undefined => {
        const bare = unwrap(side);
        return bare.type === AST_NODE_TYPES.Literal && bare.value === null ? 'null' : bare.type === AST_NODE_TYPES.Identifier && bare.name === 'undefined' ? 'undefined' : undefined;
      };
      const kind = nothing(node.right) ?? nothing(node.left);
      const other = nothing(node.right) ? node.left : nothing(node.left) ? node.right : undefined;
      if (!other || !kind) return undefined;
      const value = valueOf(other);
      const isNullish = nullish(value);
      if (isNullish === undefined) return undefined;
      const loose = node.operator.length === 2;
      // strictly: left out equals `undefined`, not `null`; a `null` literal the reverse
      const equal = !isNullish ? false : loose ? true : value && 'absent' in value ? kind === 'undefined' : undefined;
      if (equal === undefined) return undefined;
      return node.operator.startsWith('=') ? equal : !equal;
    }
    const value = valueOf(node);
    const known = truthy(value);
    // a TTL the caller computes (`{ ex: getSecondsUntilMidnight() }`, a `const` holding one) is
    // given; a variable that may be left out (a parameter) decides nothing
    if (known === undefined && value && !('absent' in value) && ttlNamed(node) && computed(value.context, value.node, 0)) return true;
    return known;
  };
  return guards.every((guard) => {
    const value = test(guard.test);
    return value === undefined || value === guard.value;
  });
}

/**
 * Whether an object argument keeps the properties its literal writes: written inline, or a
 * `const` (through a few hops) whose every other use reads a property (`opts.ex`), is passed to
 * the wrapper method again (`kv.set(k, v, opts)`), or initializes the next `const` followed. A
 * property assigned, updated or deleted (`opts.nx = true`, `delete opts.ex`), a spread, or the
 * object handed to anything else (`Object.assign(opts, ...)`, `configure(opts)`) may change it.
 */
function unchangedObject(context: AnyContext, expression: TSESTree.Node, call: TSESTree.CallExpression): boolean {
  const member = call.callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(call.callee.property, call.callee.computed) : undefined;
  let node = unwrap(expression);
  for (let depth = 0; node.type === AST_NODE_TYPES.Identifier && depth < 4; depth++) {
    const variable = findVariable(context, node);
    if (!variable) return true;
    const def = variable.defs[0];
    if (variable.defs.length !== 1 || def?.type !== 'Variable' || !def.node.init) return true;
    for (const reference of variable.references) {
      if (reference.init) continue;
      let use: TSESTree.Node = reference.identifier as TSESTree.Node;
      while (use.parent && (use.parent.type === AST_NODE_TYPES.TSAsExpression || use.parent.type === AST_NODE_TYPES.TSNonNullExpression || use.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)) use = use.parent;
      const parent = use.parent;
      if (!parent) return false;
      if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === use) {
        const above = parent.parent;
        const written =
          (above?.type === AST_NODE_TYPES.AssignmentExpression && above.left === parent) ||
          above?.type === AST_NODE_TYPES.UpdateExpression ||
          (above?.type === AST_NODE_TYPES.UnaryExpression && above.operator === 'delete') ||
          above?.type === AST_NODE_TYPES.ArrayPattern ||
          above?.type === AST_NODE_TYPES.Property ||
          above?.type === AST_NODE_TYPES.ForInStatement ||
          above?.type === AST_NODE_TYPES.ForOfStatement;
        if (written) return false;
        continue;
      }
      if (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(use as TSESTree.CallExpressionArgument)) {
        const callee = parent.callee;
        if (member !== undefined && callee.type === AST_NODE_TYPES.MemberExpression && propertyName(callee.property, callee.computed) === member) continue;
        return false;
      }
      if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === use) continue;
      return false;
    }
    node = unwrap(def.node.init);
  }
  return true;
}

/** Whether a tested expression names a TTL: an option of SET (`opts.ex`, `options.PX`) or a TTL-named member or parameter (`ttl`, `expiresIn`). */
function ttlNamed(node: TSESTree.Node): boolean {
  const name = node.type === AST_NODE_TYPES.MemberExpression ? propertyName(node.property, node.computed) : node.type === AST_NODE_TYPES.Identifier ? node.name : undefined;
  return name !== undefined && (Object.hasOwn(EXPIRY_UNITS, name.toUpperCase()) || TTL_NAME.test(name));
}

/**
 * Whether a caller's expression is a value computed there, not one that may be left out: a call
 * (`getSecondsUntilMidnight()`), a sum or product (`ttl * 60`, `n + 3600`), or a `const` holding
 * one. A parameter, a member read or anything else may be `undefined` or `0`.
 */
function computed(context: AnyContext, expression: TSESTree.Node, depth: number): boolean {
  const node = unwrap(expression);
  if (node.type === AST_NODE_TYPES.CallExpression) return !node.optional && node.parent?.type !== AST_NODE_TYPES.ChainExpression;
  if (node.type === AST_NODE_TYPES.BinaryExpression) return node.operator === '+' || node.operator === '*';
  if (node.type === AST_NODE_TYPES.Identifier && depth < 2) {
    const variable = findVariable(context, node);
    const def = variable?.defs[0];
    if (!variable || variable.defs.length !== 1 || def?.type !== 'Variable' || def.parent.kind !== 'const' || !def.node.init) return false;
    return computed(context, def.node.init, depth + 1);
  }
  return false;
}

function inOptionalChain(node: TSESTree.MemberExpression): boolean {
  for (let inner: TSESTree.Node = node.object; inner.type === AST_NODE_TYPES.MemberExpression; inner = inner.object) {
    if (inner.optional) return true;
  }
  return false;
}
