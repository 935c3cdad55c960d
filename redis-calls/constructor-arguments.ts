/**
 * Instance members given a constructor's argument (`this.config = config`, `this.ttl = options.ttl`,
 * `constructor(private readonly config: SpamConfig)`) read where every `new` of the class the
 * code can see passes a constant: the values `this.config.timeWindow` can take
 * (`new AntiSpamManager({ spamThreshold: 4, timeWindow: 3000 })`: 3000), so that a TTL computed
 * from it (`this.config.timeWindow / 1000`) is judged by those values rather than taken for a
 * fraction (`redis-calls/ttl-value.ts`).
 *
 * The `new` sites are those of the class's own file and, when the class is exported, of the
 * modules of its package that import it, only in an application (`package.json` `"private":
 * true`, `redis-calls/project.ts`): a library's classes are constructed by code outside it.
 * Bounded and cached: the package's listing (at most `MAX_FILES` files; a build's copy in `dist/`,
 * `build/`, `out/` left out) is read as text, only
 * files naming the class or its module are parsed (at most {@link MAX_IMPORTERS}), and the answer
 * is kept per class for {@link LISTING_TTL_MS} milliseconds. Any use of the class the analysis
 * cannot read (passed as a value, extended, re-exported, required, named by a module that does not
 * import it by its path, a `new` with a spread or an argument that is no constant) gives no values.
 * Writes of the member or of the argument's property (`this.config.timeWindow = 0`, anywhere in
 * the class's file) give none either; writes by other modules are not seen.
 */
import { dirname, relative } from 'node:path';
import { readFileSync } from 'node:fs';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { thisBinding } from './bounded.js';
import { constantsOf, moduleConstants } from './constant.js';
import { instanceConstant } from './instance-constants.js';
import { loadModule, readModule, type ImportedModule } from './modules.js';
import { LISTING_TTL_MS, packageFiles, packageOf } from './project.js';
import { findVariable, foldNumber, memberWritesOf, propertyName, unwrap, valueAtPath, type AnyContext, type ConstantScope, type MemberWrite } from './static.js';

/** Beyond this many modules naming the class, its `new` sites are not read (no values). */
export const MAX_IMPORTERS = 12;

/** Folders holding a build of the package's sources, whose copies of the class are other classes. */
const BUILD_DIR = /(?:^|[\\/])(?:dist|build|out|coverage)[\\/]/;

type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/** A `new` of the class: its arguments, and the scope they are read in. */
interface NewSite {
  args: TSESTree.CallExpressionArgument[];
  scope: ConstantScope;
  /** The module the site is in, when it is not the class's own file. */
  module?: ImportedModule;
}

const sitesCache = new Map<string, { at: number; sites: NewSite[] | null }>();

/**
 * The values an instance member read can take when it stands for a constructor's argument (or a
 * property of one) and every `new` of the class the code can see gives it a constant: `[3000]`
 * for `this.config.timeWindow` with `this.config = config` in the constructor and the one
 * `new AntiSpamManager({ timeWindow: 3000, ... })` of the application. `undefined` under the
 * conditions of this module's description, or when no `new` is found.
 * @param context the linted file's rule context (the class is in it)
 * @param node the member read (`this.config.timeWindow`, `this.ttlMs`)
 */
export function constructorArgumentValues(context: AnyContext, node: TSESTree.Node): number[] | undefined {
  const bare = unwrap(node);
  if (bare.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  // `this.config.timeWindow`: the member `config` of `this`, then the path `timeWindow`
  const suffix: string[] = [];
  let member: TSESTree.MemberExpression = bare;
  while (unwrap(member.object).type === AST_NODE_TYPES.MemberExpression) {
    const name = propertyName(member.property, member.computed);
    if (name === undefined) return undefined;
    suffix.unshift(name);
    member = unwrap(member.object) as TSESTree.MemberExpression;
  }
  const thisNode = unwrap(member.object);
  const memberName = propertyName(member.property, member.computed);
  if (thisNode.type !== AST_NODE_TYPES.ThisExpression || memberName === undefined) return undefined;
  const binding = thisBinding(thisNode);
  if (!binding || binding.isStatic || binding.inKey) return undefined;
  const argument = argumentOf(context, member, memberName, binding.cls);
  if (!argument) return undefined;
  const path = [...argument.prefix, ...suffix];
  // `this.config.timeWindow = 0`, `config.timeWindow++`: the argument's property is written
  const written = (write: MemberWrite): boolean => {
    // `this.x = ...` writes a member, not a property of the argument (instanceConstant judged those)
    if (write.root === 'this' && write.path.length === 1) return false;
    const last = write.path[write.path.length - 1];
    return (last !== undefined && path.includes(last)) || ((last === undefined || last === '*') && (write.root === 'this' || write.root === argument.root));
  };
  if (path.length > 0 && memberWritesOf(context.sourceCode.ast).some(written)) return undefined;
  return valuesAtSites(context, newSitesOf(context, binding.cls), argument.index, argument.fallback, path);
}

/**
 * The number each site passes at `path` below its argument `index` (the parameter's default value
 * `fallback` when a site passes none, read in the linted file's constants); `undefined` when a
 * site passes no constant there, spreads its arguments at or before `index`, or there is no site.
 */
function valuesAtSites(context: AnyContext, sites: readonly NewSite[] | undefined, index: number, fallback: TSESTree.Node | undefined, path: readonly string[]): number[] | undefined {
  if (!sites || sites.length === 0) return undefined;
  const values: number[] = [];
  for (const site of sites) {
    const spread = site.args.findIndex((arg) => arg.type === AST_NODE_TYPES.SpreadElement);
    if (spread !== -1 && spread <= index) return undefined;
    const arg = site.args[index];
    const given: { node: TSESTree.Node; scope: ConstantScope } | undefined = arg ? { node: arg, scope: site.scope } : fallback ? { node: fallback, scope: constantsOf(context) } : undefined;
    const at = given ? valueAtPath(given.node, given.scope, [...path]) : undefined;
    const value = at ? foldNumber(at.node, at.scope) : undefined;
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}

/** The identifier a member chain starts from and the property names below it (`opts.a.b`: `opts`, `['a', 'b']`); `undefined` for a computed name or another root. */
function memberPath(node: TSESTree.Node): { root: TSESTree.Identifier; path: string[] } | undefined {
  const path: string[] = [];
  let root = unwrap(node);
  while (root.type === AST_NODE_TYPES.MemberExpression) {
    const key = propertyName(root.property, root.computed);
    if (key === undefined) return undefined;
    path.unshift(key);
    root = unwrap(root.object);
  }
  return root.type === AST_NODE_TYPES.Identifier ? { root, path } : undefined;
}

/** A parameter's variable that nothing assigns (its default value is its initialiser, not a reassignment). */
function neverReassigned(variable: { references: ReadonlyArray<{ isWrite(): boolean; init?: boolean }> }): boolean {
  return !variable.references.some((reference) => reference.isWrite() && !reference.init);
}

/**
 * The expressions every `new` of a class passes for the constructor parameter an instance member
 * holds whole (`this.redis = redis`, `constructor(private readonly redis: Redis)`), each with the
 * module it is written in (`undefined`: the class's own file); the parameter's default value stands
 * for a site that passes nothing. `undefined` under the conditions of this module's description
 * (a use of the class that cannot be read, a reassigned parameter, a member the constructor gives
 * a property of its argument), when a site spreads its arguments, or when no `new` is found.
 * @param context the linted file's rule context (the class is in it)
 * @param member the member read on `this` (`this.redis`)
 * @param library read the `new` sites of the class's package even when it is no application (a
 *   package the caller knows runs as a program: one that starts its own Redis server)
 */
export function constructorArgumentSites(context: AnyContext, member: TSESTree.MemberExpression, library = false): { node: TSESTree.Node; module?: ImportedModule }[] | undefined {
  const thisNode = unwrap(member.object);
  const name = propertyName(member.property, member.computed);
  if (thisNode.type !== AST_NODE_TYPES.ThisExpression || name === undefined) return undefined;
  const binding = thisBinding(thisNode);
  if (!binding || binding.isStatic || binding.inKey) return undefined;
  const argument = argumentOf(context, member, name, binding.cls);
  if (!argument || argument.prefix.length > 0) return undefined;
  const sites = newSitesOf(context, binding.cls, library);
  if (!sites || sites.length === 0) return undefined;
  const found: { node: TSESTree.Node; module?: ImportedModule }[] = [];
  for (const site of sites) {
    const spread = site.args.findIndex((arg) => arg.type === AST_NODE_TYPES.SpreadElement);
    if (spread !== -1 && spread <= argument.index) return undefined;
    const arg = site.args[argument.index];
    if (arg) found.push(site.module ? { node: arg, module: site.module } : { node: arg });
    else if (argument.fallback) found.push({ node: argument.fallback });
    else return undefined;
  }
  return found;
}

/**
 * The values a property of a factory's parameter can take when every call of the factory the code
 * can see passes a constant there: `[5000, 8000]` for `opts.maxDelay` in (a closure of) `export
 * function createBackoffTracker(opts) { ... }` called as `createBackoffTracker({ maxDelay: 8000,
 * ... })` and `createBackoffTracker({ maxDelay: 5000, ... })` across the application. The same
 * bounds as for a class's `new` sites (this module's description): a named function declaration,
 * a parameter never reassigned nor written through (`opts.maxDelay = 0` in its file), every call
 * read; `undefined` otherwise, or when no call is found.
 * @param context the linted file's rule context (the factory is in it)
 * @param node the property read (`opts.maxDelay`)
 */
export function factoryArgumentValues(context: AnyContext, node: TSESTree.Node): number[] | undefined {
  if (unwrap(node).type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const read = memberPath(node);
  if (!read) return undefined;
  const { root, path } = read;
  const variable = findVariable(context, root);
  const def = variable?.defs[0];
  const fn = def?.node;
  if (def?.type !== 'Parameter' || fn?.type !== AST_NODE_TYPES.FunctionDeclaration || !fn.id || !neverReassigned(variable!)) return undefined;
  const index = fn.params.findIndex((param) => parameterName(param) === root.name);
  if (index === -1) return undefined;
  if (memberWritesOf(context.sourceCode.ast).some((write) => write.root === root.name)) return undefined;
  const param = fn.params[index]!;
  const fallback = param.type === AST_NODE_TYPES.AssignmentPattern ? param.right : undefined;
  return valuesAtSites(context, sitesOf(context, fn, fn.id, 'call'), index, fallback, path);
}

/**
 * Which constructor argument the member holds: its index, the path below it (`options.ttl`:
 * `['ttl']`) and the parameter's default value. `undefined` when the member is not given a
 * parameter of the class's constructor once (`redis-calls/instance-constants.ts`), or when the
 * parameter is reassigned.
 */
function argumentOf(
  context: AnyContext,
  member: TSESTree.MemberExpression,
  name: string,
  cls: ClassNode,
): { index: number; prefix: string[]; root: string; fallback?: TSESTree.Node } | undefined {
  const ctor = cls.body.body.find((element): element is TSESTree.MethodDefinition => element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'constructor');
  const params = ctor?.value.params;
  if (!params) return undefined;
  // constructor(private readonly config: SpamConfig): the member is the argument
  const property = params.findIndex((param) => param.type === AST_NODE_TYPES.TSParameterProperty && parameterName(param.parameter) === name);
  if (property !== -1) {
    const written = memberWritesOf(context.sourceCode.ast).some((write) => write.root === 'this' && (write.path[0] === name || write.path[0] === '*') && write.path.length === 1);
    const param = (params[property] as TSESTree.TSParameterProperty).parameter;
    return written ? undefined : { index: property, prefix: [], root: name, ...(param.type === AST_NODE_TYPES.AssignmentPattern ? { fallback: param.right } : {}) };
  }
  const value = instanceConstant(context, member);
  if (!value) return undefined;
  const read = memberPath(value);
  if (!read) return undefined;
  const { root, path: prefix } = read;
  const variable = findVariable(context, root);
  const def = variable?.defs[0];
  if (def?.type !== 'Parameter' || def.node !== ctor.value || !neverReassigned(variable!)) return undefined;
  const index = params.findIndex((param) => parameterName(param) === root.name);
  if (index === -1) return undefined;
  const param = params[index]!;
  return { index, prefix, root: root.name, ...(param.type === AST_NODE_TYPES.AssignmentPattern ? { fallback: param.right } : {}) };
}

/** `x` of a parameter `x`, `x = 1`, `x: T`; `undefined` for a pattern or a rest element. */
function parameterName(param: TSESTree.Parameter | TSESTree.BindingName | TSESTree.AssignmentPattern): string | undefined {
  if (param.type === AST_NODE_TYPES.Identifier) return param.name;
  if (param.type === AST_NODE_TYPES.AssignmentPattern && param.left.type === AST_NODE_TYPES.Identifier) return param.left.name;
  if (param.type === AST_NODE_TYPES.TSParameterProperty) return parameterName(param.parameter);
  return undefined;
}

/**
 * Every `new` of the class in its file and, for an exported class of an application, in the
 * modules of its package that import it; `undefined` when some use of the class cannot be read.
 */
function newSitesOf(context: AnyContext, cls: ClassNode, library = false): NewSite[] | undefined {
  return cls.id ? sitesOf(context, cls, cls.id, 'new', library) : undefined;
}

/**
 * Every call (`kind` `'call'`) or `new` (`'new'`) of the function or class `declaration` named
 * `id`, in its file and, when it is exported from an application, in the modules of its package
 * that import it (cached); `undefined` when some use of it cannot be read.
 */
function sitesOf(context: AnyContext, declaration: TSESTree.Node, id: TSESTree.Identifier, kind: 'new' | 'call', library = false): NewSite[] | undefined {
  const file = context.physicalFilename ?? context.filename;
  if (!file) return undefined;
  const key = `${file}\0${id.name}\0${declaration.range[0]}\0${kind}\0${library}`;
  const now = Date.now();
  const hit = sitesCache.get(key);
  if (hit && now - hit.at < LISTING_TTL_MS) return hit.sites ?? undefined;
  if (sitesCache.size > 500) sitesCache.clear();
  const sites = readSites(context, declaration, id, file, kind, library) ?? null;
  sitesCache.set(key, { at: now, sites });
  return sites ?? undefined;
}

function readSites(context: AnyContext, declaration: TSESTree.Node, id: TSESTree.Identifier, file: string, kind: 'new' | 'call', library: boolean): NewSite[] | undefined {
  const className = id.name;
  const sites: NewSite[] = [];
  const own = usesOf(context.sourceCode.ast, new Set([className]), id, constantsOf(context), kind);
  if (!own) return undefined;
  sites.push(...own.sites);
  const exported = own.exported || isExported(declaration);
  const defaultIsClass = own.defaultExport || declaration.parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration;
  if (!exported) return sites;
  const pkg = packageOf(file);
  const files = pkg?.application || (pkg && library) ? packageFiles(pkg.root) : undefined;
  if (!files) return undefined;
  const base = file.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
  let read = 0;
  const built = (path: string): boolean => BUILD_DIR.test(relative(pkg!.root, path));
  for (const other of files) {
    // a build's copy of the code (`dist/core/BaseClient.js`) constructs the build's copy of the class
    if (other === file || (built(other) && !built(file))) continue;
    let text: string;
    try {
      text = readFileSync(other, 'utf8');
    } catch {
      continue;
    }
    // a module using a named export names it (`import { C as D }`, `ns.C`, `require(...).C`); only
    // a default export can be imported under any name, found by its module's file name. The
    // spawned-server reading (`library`) looks for its named class by that name alone; the TTL
    // readings keep the wider search they were tuned with
    if (!text.includes(className) && !((defaultIsClass || !library) && text.includes(base))) continue;
    if (++read > MAX_IMPORTERS) return undefined;
    const specifier = relative(dirname(file), other);
    const module = loadModule(context, specifier.startsWith('.') ? specifier : `./${specifier}`);
    if (!module) return undefined;
    const locals = importsOf(module, file, className, defaultIsClass);
    if (!locals) return undefined;
    if (locals.size === 0) {
      // names the class without importing it from its module (a barrel, a global): unread
      const use = kind === 'new' ? `\\bnew\\s+${className.replace(/\$/g, '\\$')}\\b` : `\\b${className.replace(/\$/g, '\\$')}\\s*\\(`;
      if (new RegExp(use).test(text)) return undefined;
      continue;
    }
    const found = usesOf(module.program, locals, undefined, moduleConstants(module), kind);
    if (!found) return undefined;
    sites.push(...found.sites.map((site) => ({ ...site, module })));
  }
  return sites;
}

/** Whether the declaration is exported (`export class C`, `export default class C`, `export function f`). */
function isExported(declaration: TSESTree.Node): boolean {
  const parent = declaration.parent;
  return parent?.type === AST_NODE_TYPES.ExportNamedDeclaration || parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration;
}

/**
 * The local names a module binds to the class of `file` (`import AntiSpamManager from
 * '#src/managers/AntiSpamManager.js'` when the class is that module's default export,
 * `import { C as D } from './c'`); `undefined` when it re-exports, requires or imports as a
 * namespace that module (a use the analysis does not follow).
 */
function importsOf(module: ImportedModule, file: string, className: string, defaultIsClass: boolean): Set<string> | undefined {
  const locals = new Set<string>();
  const resolves = (specifier: string): boolean => readModule(module.path, specifier, true)?.path === file;
  for (const statement of module.program.body) {
    if ((statement.type === AST_NODE_TYPES.ExportAllDeclaration || statement.type === AST_NODE_TYPES.ExportNamedDeclaration) && statement.source && resolves(statement.source.value)) return undefined;
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration || !resolves(statement.source.value)) continue;
    if (statement.importKind === 'type') continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type === AST_NODE_TYPES.ImportNamespaceSpecifier) return undefined;
      if (specifier.type === AST_NODE_TYPES.ImportSpecifier && specifier.importKind === 'type') continue;
      const imported = specifier.type === AST_NODE_TYPES.ImportDefaultSpecifier ? 'default' : propertyName(specifier.imported);
      if (imported === className || (imported === 'default' && defaultIsClass)) locals.add(specifier.local.name);
    }
  }
  // `require('./c')`, `import('./c')`: a binding the analysis does not follow
  for (const match of module.text.matchAll(/\b(?:require|import)\s*\(\s*['"`]([^'"`]+)['"`]/g)) {
    if (resolves(match[1]!)) return undefined;
  }
  return locals;
}

/**
 * The `new` sites of the names `locals` in a program, and whether it exports the class by name
 * (`export { C }`, `export default C`);
 * `undefined` when a name is used otherwise as a value (passed, extended, compared).
 * @param declared the class's own name node, which is no use
 */
function usesOf(program: TSESTree.Program, locals: ReadonlySet<string>, declared: TSESTree.Identifier | undefined, scope: ConstantScope, kind: 'new' | 'call' = 'new'): { sites: NewSite[]; exported: boolean; defaultExport: boolean } | undefined {
  const sites: NewSite[] = [];
  let exported = false;
  let defaultExport = false;
  let unread = false;
  const stack: TSESTree.Node[] = [program];
  while (stack.length > 0 && !unread) {
    const node = stack.pop()!;
    if (node.type === AST_NODE_TYPES.Identifier && locals.has(node.name) && node !== declared) {
      const parent = node.parent;
      const site = kind === 'new' ? AST_NODE_TYPES.NewExpression : AST_NODE_TYPES.CallExpression;
      if (parent?.type === site && (parent as TSESTree.NewExpression | TSESTree.CallExpression).callee === node) sites.push({ args: (parent as TSESTree.NewExpression | TSESTree.CallExpression).arguments, scope });
      else if (parent?.type === AST_NODE_TYPES.ExportSpecifier) exported = true;
      else if (parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) exported = defaultExport = true;
      else if (!typePosition(node)) unread = true;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'parent' || key === 'loc' || key === 'range' || key === 'tokens' || key === 'comments' || !value || typeof value !== 'object') continue;
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child && typeof child === 'object' && typeof (child as { type?: unknown }).type === 'string') stack.push(child as TSESTree.Node);
      }
    }
  }
  return unread ? undefined : { sites, exported, defaultExport };
}

/** Whether an identifier is no value read: an import binding, a type, a key or member name, a declaration's own name. */
function typePosition(node: TSESTree.Identifier): boolean {
  const parent = node.parent;
  if (!parent) return false;
  switch (parent.type) {
    case AST_NODE_TYPES.ImportSpecifier:
    case AST_NODE_TYPES.ImportDefaultSpecifier:
    case AST_NODE_TYPES.ImportNamespaceSpecifier:
    case AST_NODE_TYPES.TSTypeReference:
    case AST_NODE_TYPES.TSQualifiedName:
    case AST_NODE_TYPES.TSTypeQuery:
    case AST_NODE_TYPES.TSInterfaceHeritage:
    case AST_NODE_TYPES.TSClassImplements:
      return true;
    case AST_NODE_TYPES.MemberExpression:
      return parent.property === node && !parent.computed;
    case AST_NODE_TYPES.Property:
    case AST_NODE_TYPES.PropertyDefinition:
    case AST_NODE_TYPES.MethodDefinition:
      return parent.key === node && !parent.computed;
    default:
      return false;
  }
}
