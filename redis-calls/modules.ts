/**
 * Reading the top-level values of modules the linted file imports with a relative specifier
 * (`import { TTL_MS } from './limits'`, `import * as scripts from './scripts'`,
 * `const { KEY } = require('./keys')`): the module is read from disk and parsed with the linted
 * file's own parser (cached by path and modification time), and an exported name is resolved to
 * the expression of its top-level `const` (`export const X = ...`, `export { local as X }`,
 * CommonJS `exports.X = ...` / `module.exports = { X }`). No type checker and no scope analysis:
 * a module's top level is read as written. Package imports are followed only where they point
 * into the linted file's own repository, and only for values (constants, key builders, enums,
 * scripts: `loadModule(context, specifier, { packages: true })`): a tsconfig path alias
 * (`'~/helper/keys'`) or a workspace package of the monorepo (`'@acme/redis'`), see
 * `redis-calls/resolve.ts`; third-party packages (`'ioredis'`) never are. Re-exports
 * (`export * from './client'`, `export { KEYS } from './keys'`) are followed by {@link findExport}.
 *
 * The one module reader of the analysis: embedded scripts held in another module
 * (`redis-calls/lua.ts`), TTL constants (`redis-calls/constant.ts`) and receivers made in another
 * module (`redis-calls/clients.ts`) all read through it.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { analyze, type ScopeManager } from '@typescript-eslint/scope-manager';
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isOwnFile, packageSpecifierCandidates, RESOLVE_TTL_MS } from './resolve.js';
import { commonJsExportName, findVariable, pick, propertyName, requiredModule, unwrap, type AnyContext } from './static.js';

/** A module read from disk: its text and program, parsed with the linted file's parser. */
export interface ImportedModule {
  /** The module's absolute path. */
  path: string;
  text: string;
  program: TSESTree.Program;
  /** The path shown in messages, relative to the linted file's directory (`./scripts.ts`). */
  display: string;
  /** The parser that read it (modules it imports are read with the same one). */
  parser: ParserLike;
  /** The linted file's directory, which {@link display} is relative to. */
  shownFrom: string;
  /** The module's scope analysis (the parser's, or `@typescript-eslint/scope-manager`'s). */
  scopeManager: ScopeManager;
  /** Whether package specifiers pointing into the repository were followed to reach it (and are from it). */
  packages?: boolean;
}

/** How a module is looked for. */
export interface LoadOptions {
  /**
   * Also follow package specifiers that point into the linted file's repository (tsconfig path
   * aliases, workspace packages: `redis-calls/resolve.ts`). Default `false`: relative only.
   */
  packages?: boolean;
}

/** The part of an ESLint parser the reader uses. */
export interface ParserLike {
  parse?(text: string, options: object): TSESTree.Program;
  parseForESLint?(text: string, options: object): { ast: TSESTree.Program; scopeManager?: ScopeManager | null };
}

/** A module read from disk, as cached: its text, and its parse once something needed it (`null`: it does not parse). */
export interface CacheEntry {
  mtimeMs: number;
  text: string;
  parsed?: { program: TSESTree.Program; scopeManager: ScopeManager } | null;
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '/index.ts', '/index.js'];
/** Read (and parsed) modules by path, least recently used first; at most {@link MODULE_CACHE_SIZE}. */
const moduleCache = new Map<string, CacheEntry>();
const MODULE_CACHE_SIZE = 500;

/**
 * Reads and parses a relatively imported module with the linted file's parser (cached by path
 * and modification time). `undefined` for a package import (unless `options.packages` and it
 * points into the repository), a missing file or a parse error.
 * @param context the linted file's rule context (its path and parser)
 * @param specifier the import's module specifier as written (`'./scripts'`, `'../keys.js'`, `'~/keys'`)
 * @param options whether package specifiers into the repository are followed
 */
export function loadModule(context: AnyContext, specifier: string, options: LoadOptions = {}): ImportedModule | undefined {
  const from = context.physicalFilename ?? context.filename;
  const parser = (context.languageOptions as { parser?: ParserLike } | undefined)?.parser;
  if (!from || !isAbsolute(from) || !parser) return undefined;
  return loadModuleFrom(from, dirname(from), parser, specifier, options.packages ?? false);
}

/**
 * A module imported by a module that was itself read with {@link loadModule} (its
 * `import { WINDOW_MS } from './time'`), shown relative to the same linted file.
 */
function loadNestedModule(module: ImportedModule, specifier: string): ImportedModule | undefined {
  return loadModuleFrom(module.path, module.shownFrom, module.parser, specifier, module.packages ?? false);
}

/** The longest imported module parsed, in UTF-16 units (1,000,000): larger ones are generated code, their values unknown. */
const MAX_PARSED_MODULE_CHARS = 1_000_000;

function loadModuleFrom(from: string, shownFrom: string, parser: ParserLike, specifier: string, packages: boolean): ImportedModule | undefined {
  const file = readModule(from, specifier, packages);
  if (!file) return undefined;
  const { path, entry } = file;
  if (entry.parsed === undefined) {
    entry.parsed = null;
    // a generated module (a bundle, a table of 100,000 exports) would cost a minute of parsing
    if (entry.text.length > MAX_PARSED_MODULE_CHARS) return undefined;
    try {
      const options = { ecmaVersion: 'latest', sourceType: 'module', range: true, loc: true, tokens: true, comment: true, filePath: path };
      const result = parser.parseForESLint ? parser.parseForESLint(entry.text, options) : undefined;
      const program = result ? result.ast : parser.parse?.(entry.text, options);
      if (program) {
        setParents(program);
        entry.parsed = { program, scopeManager: result?.scopeManager ?? analyze(program, { sourceType: 'module' }) };
      }
    } catch {
      // not parseable with this parser: its values stay unknown
    }
  }
  if (!entry.parsed) return undefined;
  const rel = relative(shownFrom, path);
  return { path, text: entry.text, ...entry.parsed, display: rel.startsWith('.') ? rel : `./${rel}`, parser, shownFrom, packages };
}

const codeSpecifiers = new Map<string, { at: number; value: boolean }>();

/**
 * The specifiers of the modules of the code (see {@link isCodeSpecifier}) the linted file imports
 * at its top level, in source order: its `import` declarations (an `import type` only with
 * `types`) and, with `requires`, its top-level `const x = require('...')`. Never throws.
 * @param context the rule context of the importing file
 * @param options `types`: count `import type` declarations; `requires`: count top-level `require` calls
 */
export function codeImports(context: AnyContext, options: { types?: boolean; requires?: boolean } = {}): string[] {
  const from = context.physicalFilename ?? context.filename;
  const found: string[] = [];
  for (const statement of context.sourceCode.ast.body) {
    let specifier: string | undefined;
    if (statement.type === AST_NODE_TYPES.ImportDeclaration) {
      if (statement.importKind !== 'type' || options.types) specifier = statement.source.value;
    } else if (options.requires && statement.type === AST_NODE_TYPES.VariableDeclaration) {
      const init = statement.declarations[0]?.init;
      specifier = init ? requiredModule(init) : undefined;
    }
    if (specifier !== undefined && isCodeSpecifier(from, specifier)) found.push(specifier);
  }
  return found;
}

/**
 * Whether an import specifier names a module of the code, which the analyses follow as they
 * follow a relative import: a relative specifier (`'./redis'`, `'../cache/service'`), or a package
 * specifier that resolves to a file of the linted file's repository (a tsconfig path alias
 * `'~/shared/redis/cache.service'`, a workspace package `'@acme/redis'`: `redis-calls/resolve.ts`).
 * A third-party package (`'ioredis'`, `'@nestjs/common'`) never is. Cached per directory and
 * specifier for `RESOLVE_TTL_MS` milliseconds.
 * @param from the importing file's absolute path (`undefined` or relative: only relative specifiers count)
 * @param specifier the specifier as written
 */
export function isCodeSpecifier(from: string | undefined, specifier: string): boolean {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return true;
  if (!from || !isAbsolute(from) || specifier.startsWith('node:')) return false;
  const key = `${dirname(from)}\0${specifier}`;
  const now = Date.now();
  const hit = codeSpecifiers.get(key);
  if (hit && now - hit.at < RESOLVE_TTL_MS) return hit.value;
  if (codeSpecifiers.size > 2000) codeSpecifiers.clear();
  // a package installed from a path of the repository (`"common": "file:../common"`) is read for
  // its values (key names, key builders: `local-dependencies.ts`), not as code whose functions
  // and clients the client detector follows: its importers keep reading its names as before
  const value = readModule(from, specifier, true, false) !== undefined;
  codeSpecifiers.set(key, { at: now, value });
  return value;
}

/**
 * The text of a relatively imported module, without parsing it (cached by path and modification
 * time with the parse, when there is one): what a cheap look at a module needs.
 * @param from the importing file's absolute path
 * @param specifier the import's specifier (`'./redis'`); package specifiers give `undefined`
 * unless `packages` and they point into the repository (`redis-calls/resolve.ts`)
 * @param packages whether to follow package specifiers into the repository
 * @param localDependencies whether a package installed from a path (`file:../common`) counts
 *   (`redis-calls/local-dependencies.ts`)
 */
export function readModule(from: string, specifier: string, packages = false, localDependencies = true): { path: string; entry: CacheEntry } | undefined {
  const relativeSpecifier = specifier.startsWith('./') || specifier.startsWith('../');
  if (!relativeSpecifier && !packages) return undefined;
  const bases = relativeSpecifier ? [join(dirname(from), specifier)] : packageSpecifierCandidates(from, specifier, localDependencies);
  const candidates: string[] = [];
  for (const base of bases) {
    candidates.push(...EXTENSIONS.map((ext) => base + ext));
    // TypeScript's ESM style: './scripts.js' is './scripts.ts' on disk
    const js = /\.(m|c)?js$/.exec(base);
    if (js) candidates.push(base.replace(/\.(m|c)?js$/, `.${js[1] ?? ''}ts`));
  }
  for (const path of candidates) {
    // a package specifier never leads to a third-party package's code
    if (!relativeSpecifier && !isOwnFile(path)) continue;
    let stat;
    try {
      stat = statSync(path);
    } catch {
      continue;
    }
    if (!stat.isFile()) continue;
    let entry = moduleCache.get(path);
    if (entry) {
      // least recently used first: a hit moves to the end
      moduleCache.delete(path);
      moduleCache.set(path, entry);
    }
    if (!entry || entry.mtimeMs !== stat.mtimeMs) {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
      // evict the least recently used one: clearing all of them made a lint reading more than
      // 500 modules parse the same ones again and again (962 modules parsed 31,047 times)
      if (moduleCache.size >= MODULE_CACHE_SIZE) moduleCache.delete(moduleCache.keys().next().value!);
      entry = { mtimeMs: stat.mtimeMs, text };
      moduleCache.set(path, entry);
    }
    return { path, entry };
  }
  return undefined;
}

/** Node types whose `decorators` array the scope manager reads. */
const DECORATED: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.ClassDeclaration,
  AST_NODE_TYPES.ClassExpression,
  AST_NODE_TYPES.MethodDefinition,
  AST_NODE_TYPES.PropertyDefinition,
  AST_NODE_TYPES.AccessorProperty,
]);

/** Adds to a node the TS-ESTree arrays espree leaves out (see {@link setParents}). */
function completeForScopeManager(node: TSESTree.Node): void {
  const loose = node as unknown as { implements?: unknown[]; decorators?: unknown[]; params?: Array<{ decorators?: unknown[] }> };
  if (DECORATED.has(node.type)) loose.decorators ??= [];
  if (node.type === AST_NODE_TYPES.ClassDeclaration || node.type === AST_NODE_TYPES.ClassExpression) loose.implements ??= [];
  if (node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.ArrowFunctionExpression) {
    for (const param of loose.params ?? []) param.decorators ??= [];
  }
}

/**
 * Gives every node of a parsed module its `parent`, as ESLint does for the linted file, and the
 * TS-ESTree arrays espree leaves out, which the scope manager reads (`implements` and `decorators`
 * of a class, `decorators` of its members and of every function parameter): without them a
 * JavaScript module declaring a class could not be analysed.
 */
function setParents(program: TSESTree.Program): void {
  const stack: TSESTree.Node[] = [program];
  while (stack.length > 0) {
    const node = stack.pop()!;
    completeForScopeManager(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'parent' || !value || typeof value !== 'object') continue;
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child && typeof child === 'object' && typeof (child as { type?: unknown }).type === 'string' && key !== 'loc' && key !== 'range') {
          (child as { parent?: TSESTree.Node }).parent = node;
          stack.push(child as TSESTree.Node);
        }
      }
    }
  }
}

const contexts = new WeakMap<TSESTree.Program, { settings: unknown; context: AnyContext }>();

/**
 * A rule context for an imported module, as the shared analysis needs one (scope analysis, source
 * text, the linted file's settings and parser, the module's own path for the modules it imports):
 * the analyses of `redis-calls/` can then judge a value where it is made, in its own module. It
 * reports nothing and has no type information.
 * @param context the linted file's rule context
 * @param module a module read with {@link loadModule}
 */
export function moduleContext(context: AnyContext, module: ImportedModule): AnyContext {
  const cached = contexts.get(module.program);
  if (cached && cached.settings === context.settings) return cached.context;
  const { program, text, scopeManager } = module;
  const sourceCode = {
    ast: program,
    text,
    visitorKeys: context.sourceCode.visitorKeys,
    parserServices: {},
    scopeManager,
    getText: (node?: TSESTree.Node) => (node ? text.slice(node.range[0], node.range[1]) : text),
    getScope(node: TSESTree.Node) {
      // as ESLint's SourceCode#getScope: the innermost scope around the node
      const inner = node.type !== AST_NODE_TYPES.Program;
      for (let current: TSESTree.Node | undefined = node; current; current = current.parent) {
        const scope = scopeManager.acquire(current, inner);
        if (scope) return scope.type === 'function-expression-name' ? scope.childScopes[0]! : scope;
      }
      return scopeManager.scopes[0]!;
    },
    getDeclaredVariables: (node: TSESTree.Node) => scopeManager.getDeclaredVariables(node),
  } as unknown as TSESLint.SourceCode;
  const result = {
    sourceCode,
    settings: context.settings,
    languageOptions: context.languageOptions,
    filename: module.path,
    physicalFilename: module.path,
    cwd: context.cwd,
    id: context.id,
    options: [],
    report() {},
  } as unknown as AnyContext;
  contexts.set(program, { settings: context.settings, context: result });
  return result;
}

/**
 * The absolute path of the file a node is in: the linted file's, or that of the imported module
 * whose {@link moduleContext} was made (a DEL of another module that ends a key's life);
 * `undefined` for a node of neither.
 */
export function fileOfNode(context: AnyContext, node: TSESTree.Node): string | undefined {
  let program: TSESTree.Node = node;
  while (program.parent) program = program.parent;
  if (program === context.sourceCode.ast) return context.physicalFilename ?? context.filename;
  if (program.type !== AST_NODE_TYPES.Program) return undefined;
  const made = contexts.get(program)?.context;
  return made === undefined ? undefined : (made.physicalFilename ?? made.filename);
}

/** `const NAME = init` at the top level of a program (exported or not). */
export function topLevelConst(program: TSESTree.Program, name: string): TSESTree.Expression | undefined {
  for (const statement of program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations) {
      if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === name && declarator.init) return declarator.init;
    }
  }
  return undefined;
}

/**
 * The value a module exports under `name`: `export const NAME = ...`, `export { local as NAME }`
 * of a top-level `const`, CommonJS `exports.NAME = ...` / `module.exports.NAME = ...` /
 * `module.exports = { NAME: ... }`.
 */
export function exportedValue(program: TSESTree.Program, name: string): TSESTree.Node | undefined {
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration) continue;
    if (statement.declaration) {
      const init = statement.declaration.type === AST_NODE_TYPES.VariableDeclaration ? topLevelConst({ ...program, body: [statement] }, name) : undefined;
      if (init) return init;
    }
    for (const specifier of statement.specifiers) {
      if (moduleExportName(specifier.exported) === name && !statement.source) return topLevelConst(program, moduleExportName(specifier.local));
    }
  }
  return commonJsExport(program, name);
}

/** CommonJS `exports.NAME = value`, `module.exports.NAME = value`, `module.exports = { NAME: value }`: the value. */
function commonJsExport(program: TSESTree.Program, name: string): TSESTree.Node | undefined {
  // the last assignment is what the module exports (`exports.incr` written twice: the second wins)
  let found: TSESTree.Node | undefined;
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.AssignmentExpression) continue;
    const { left, right } = statement.expression;
    if (left.type !== AST_NODE_TYPES.MemberExpression) continue;
    if (commonJsExportName(left) === name) found = right;
    const target = left.object;
    const isModuleExports = target.type === AST_NODE_TYPES.Identifier && target.name === 'module' && propertyName(left.property, left.computed) === 'exports';
    // `module.exports = ...` replaces the exports object: what was set on it before is gone
    if (isModuleExports) found = right.type === AST_NODE_TYPES.ObjectExpression ? pick(right, name) : undefined;
  }
  return found;
}

/** `module.exports = <expression>` of a CommonJS module. */
export function commonJsDefault(program: TSESTree.Program): TSESTree.Node | undefined {
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.AssignmentExpression) continue;
    const { left, right } = statement.expression;
    if (
      left.type === AST_NODE_TYPES.MemberExpression &&
      left.object.type === AST_NODE_TYPES.Identifier &&
      left.object.name === 'module' &&
      propertyName(left.property, left.computed) === 'exports' &&
      right.type !== AST_NODE_TYPES.ObjectExpression
    ) {
      return right;
    }
  }
  return undefined;
}

/**
 * A function or enum a module declares at its top level under `name` (exported or not): `function
 * NAME() {}`, `enum NAME {}`, or a `const` bound to a function (`const NAME = (id) => ...`).
 */
export function topLevelDeclaration(program: TSESTree.Program, name: string): TSESTree.Node | undefined {
  for (const statement of program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration ? statement.declaration : statement;
    if (!declaration) continue;
    if ((declaration.type === AST_NODE_TYPES.FunctionDeclaration || declaration.type === AST_NODE_TYPES.TSEnumDeclaration) && declaration.id?.name === name) {
      return declaration;
    }
  }
  const init = topLevelConst(program, name);
  const fn = init ? unwrap(init) : undefined;
  return fn && (fn.type === AST_NODE_TYPES.ArrowFunctionExpression || fn.type === AST_NODE_TYPES.FunctionExpression) ? fn : undefined;
}

/** What a module exports under a name: the module holding it, its name there, and its value or declaration. */
export interface FoundExport {
  module: ImportedModule;
  name: string;
  /** A `const`'s initializer or CommonJS export's value ({@link exportedValue}), or a function or enum declaration. */
  node: TSESTree.Node;
}

/**
 * Where a module's export is declared, once re-exports are followed: the module, and either the
 * name of one of its top-level bindings (`export const redis`, `export class Cache`, `export
 * interface Store`, `export { local as name }`, `export default cache`, `module.exports = { redis
 * }`) or the exported expression itself (`export default new Redis()`, `exports.redis = new
 * Redis()`, `module.exports = createClient()`).
 */
export interface ExportSite {
  module: ImportedModule;
  /** The name {@link module} exports it under (the imported name, or the one a re-export renamed it from). */
  name: string;
  /** The top-level binding of {@link module} the export names. */
  local?: string;
  /** The exported expression, when it is not a top-level binding's identifier. */
  expression?: TSESTree.Node;
}

/** How many re-export hops ({@link locateExport}) are followed from the module imported. */
const RE_EXPORT_HOPS = 4;

/**
 * The site of the export `name` of `module` (`'default'` for the default export), following
 * re-exports up to {@link RE_EXPORT_HOPS} modules deep (`export { KEYS as REDIS_KEYS } from
 * './keys'`, `export * from './client'`, type-only ones too; into the repository's packages when
 * the module was reached through one). ES exports are looked at before CommonJS assignments.
 * `undefined` for a name the module does not export, or one found only beyond the hop limit.
 * One search visits a module's export once (`export *` cycles: a module re-exporting itself,
 * modules re-exporting each other), again only when reached nearer the start.
 */
export function locateExport(module: ImportedModule, name: string, depth = 0, seen = new Map<string, number>()): ExportSite | undefined {
  const key = `${module.path}\0${name}`;
  if ((seen.get(key) ?? Infinity) <= depth) return undefined;
  seen.set(key, depth);
  const nested = (source: string, inner: string): ExportSite | undefined => {
    if (depth >= RE_EXPORT_HOPS) return undefined;
    const next = loadNestedModule(module, source);
    return next ? locateExport(next, inner, depth + 1, seen) : undefined;
  };
  for (const statement of module.program.body) {
    if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration) {
      const declaration = statement.declaration;
      if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
        for (const declarator of declaration.declarations) {
          if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === name) return { module, name, local: name };
        }
      } else if (declaration && 'id' in declaration && declaration.id?.type === AST_NODE_TYPES.Identifier && declaration.id.name === name) {
        return { module, name, local: name };
      }
      for (const specifier of statement.specifiers) {
        if (moduleExportName(specifier.exported) !== name) continue;
        const local = moduleExportName(specifier.local);
        return statement.source ? nested(statement.source.value, local) : { module, name, local };
      }
    } else if (statement.type === AST_NODE_TYPES.ExportDefaultDeclaration && name === 'default') {
      const declaration = statement.declaration;
      if (declaration.type === AST_NODE_TYPES.Identifier) return { module, name, local: declaration.name };
      if ('id' in declaration && declaration.id?.type === AST_NODE_TYPES.Identifier) return { module, name, local: declaration.id.name };
      return { module, name, expression: declaration };
    }
  }
  if (name !== 'default') {
    for (const statement of module.program.body) {
      if (statement.type !== AST_NODE_TYPES.ExportAllDeclaration || statement.exported) continue;
      const found = nested(statement.source.value, name);
      if (found) return found;
    }
  }
  // CommonJS: exports.redis = ...; module.exports = { redis }; module.exports = new Redis()
  const value = commonJsExport(module.program, name) ?? (name === 'default' ? commonJsDefault(module.program) : undefined);
  if (!value) return undefined;
  const bare = unwrap(value);
  return bare.type === AST_NODE_TYPES.Identifier ? { module, name, local: bare.name, expression: value } : { module, name, expression: value };
}

/**
 * The package binding that the export `name` of a module of the code passes on unchanged
 * (`export { createClient } from 'redis'`, `export { default as Redis } from 'ioredis'`,
 * `export * from 'ioredis'`), through re-exports between the code's own modules up to
 * {@link RE_EXPORT_HOPS} deep: the package's specifier and the name it exports there. An
 * `export *` of a package answers only when `packageHolds(source)` says the package is one whose
 * exports the caller knows (a client package), since it may not export `name` at all.
 * `undefined` when the code declares the export itself, or does not export it.
 * @param isOwn whether a re-export's specifier, written in the module at `from`, names a module of the code
 */
export function packageReExport(
  module: ImportedModule,
  name: string,
  isOwn: (from: string, source: string) => boolean,
  packageHolds: (source: string) => boolean,
  depth = 0,
  seen = new Map<string, number>(),
): { source: string; name: string } | undefined {
  // as in locateExport: a module's export is searched once, again only when reached nearer the start
  const key = `${module.path}\0${name}`;
  if ((seen.get(key) ?? Infinity) <= depth) return undefined;
  seen.set(key, depth);
  const through = (source: string, inner: string): { source: string; name: string } | undefined => {
    if (!isOwn(module.path, source)) return { source, name: inner };
    const next = depth < RE_EXPORT_HOPS ? loadNestedModule(module, source) : undefined;
    return next ? packageReExport(next, inner, isOwn, packageHolds, depth + 1, seen) : undefined;
  };
  for (const statement of module.program.body) {
    if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration) continue;
    for (const specifier of statement.specifiers) {
      if (moduleExportName(specifier.exported) !== name) continue;
      if (statement.source) return through(statement.source.value, moduleExportName(specifier.local));
      // `import { createClient } from 'redis'; export { createClient };`: passed on as imported
      const imported = moduleImportOf(module, moduleExportName(specifier.local));
      return imported ? through(imported.source, imported.name) : undefined;
    }
  }
  // `export *` never passes a default export on; a declared export of the same name wins over it
  // (locateExport at the hop limit looks at this module's own exports only)
  if (name === 'default' || locateExport(module, name, RE_EXPORT_HOPS) !== undefined) return undefined;
  for (const statement of module.program.body) {
    if (statement.type !== AST_NODE_TYPES.ExportAllDeclaration || statement.exported) continue;
    const source = statement.source.value;
    const found = isOwn(module.path, source) ? through(source, name) : packageHolds(source) ? { source, name } : undefined;
    if (found) return found;
  }
  return undefined;
}

/**
 * The import that binds `local` in a module (`import { createClient as mk } from 'redis'`: the
 * source and the name imported there, `default` for a default import); `undefined` for a name the
 * module declares, or a namespace import.
 */
function moduleImportOf(module: ImportedModule, local: string): { source: string; name: string } | undefined {
  for (const statement of module.program.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration) continue;
    for (const specifier of statement.specifiers) {
      if (specifier.local.name !== local) continue;
      if (specifier.type === AST_NODE_TYPES.ImportDefaultSpecifier) return { source: statement.source.value, name: 'default' };
      if (specifier.type === AST_NODE_TYPES.ImportSpecifier) return { source: statement.source.value, name: moduleExportName(specifier.imported) };
      return undefined;
    }
  }
  return undefined;
}

/** `foo` and `'foo'` in `export { foo as 'foo' }`. */
function moduleExportName(node: TSESTree.Identifier | TSESTree.StringLiteral): string {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : node.value;
}

/**
 * The value a module exports under `name`, following re-exports a few modules deep
 * ({@link locateExport}): a `const` value ({@link exportedValue}), a CommonJS export's value, or an
 * exported function or enum declaration. `undefined` otherwise (a class, an interface, a name
 * bound to anything else).
 */
export function findExport(module: ImportedModule, name: string): FoundExport | undefined {
  const site = locateExport(module, name);
  if (!site) return undefined;
  if (site.local !== undefined) {
    const program = site.module.program;
    // a const is named as its module exports it (exportedValue reads it so), a declaration by its own name
    const value = topLevelConst(program, site.local);
    if (value) return { module: site.module, name: site.name, node: value };
    const declaration = topLevelDeclaration(program, site.local);
    if (declaration) return { module: site.module, name: site.local, node: declaration };
  }
  return site.expression ? { module: site.module, name: site.name, node: site.expression } : undefined;
}

/** An identifier of an imported module's top level resolved to its `const` initializer (a few hops). */
export function moduleConst(module: ImportedModule, node: TSESTree.Node): TSESTree.Node {
  let current = unwrap(node);
  for (let hop = 0; hop < 4 && current.type === AST_NODE_TYPES.Identifier; hop++) {
    const init = topLevelConst(module.program, current.name);
    if (!init) break;
    current = unwrap(init);
  }
  return current;
}

/** `import { NAME as local } from './m'` (or `const { NAME: local } = require('./m')`) -> the module and `NAME`. */
export function importedBinding(context: AnyContext, node: TSESTree.Identifier): { module: ImportedModule; name: string } | undefined {
  const def = findVariable(context, node)?.defs[0];
  if (def?.type === 'ImportBinding' && def.node.type === AST_NODE_TYPES.ImportSpecifier) {
    const declaration = def.parent;
    if (declaration?.type !== AST_NODE_TYPES.ImportDeclaration) return undefined;
    const module = loadModule(context, declaration.source.value, { packages: true });
    const imported = def.node.imported;
    const name = imported.type === AST_NODE_TYPES.Identifier ? imported.name : imported.value;
    return module ? reExported(module, name) : undefined;
  }
  if (def?.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.ObjectPattern && def.node.init) {
    const specifier = requiredSpecifier(def.node.init);
    const name = specifier === undefined ? undefined : destructuredKey(def.node.id, def.name);
    const module = specifier === undefined || name === undefined ? undefined : loadModule(context, specifier, { packages: true });
    return module && name !== undefined ? reExported(module, name) : undefined;
  }
  return undefined;
}

/** The module and name where an export is declared, through re-exports; the module itself when not found. */
function reExported(module: ImportedModule, name: string): { module: ImportedModule; name: string } {
  const found = findExport(module, name);
  return found ? { module: found.module, name: found.name } : { module, name };
}

/**
 * `import * as m from './m'`, `const m = require('./m')`, `import m = require('./m')`: the module; and a name another module
 * re-exports as a namespace, `import { OrderbookV1 as OB } from './orderbook'` of `export * as
 * OrderbookV1 from './v1'` (in the module imported, or one of its `export *` a few modules deep):
 * the module re-exported.
 */
export function namespaceModule(context: AnyContext, node: TSESTree.Identifier): ImportedModule | undefined {
  const def = findVariable(context, node)?.defs[0];
  if (def?.type === 'ImportBinding' && def.node.type === AST_NODE_TYPES.ImportNamespaceSpecifier && def.parent?.type === AST_NODE_TYPES.ImportDeclaration) {
    return loadModule(context, def.parent.source.value, { packages: true });
  }
  if (def?.type === 'ImportBinding' && def.node.type === AST_NODE_TYPES.ImportSpecifier && def.parent?.type === AST_NODE_TYPES.ImportDeclaration) {
    const module = loadModule(context, def.parent.source.value, { packages: true });
    return module ? namespaceReExport(module, moduleExportName(def.node.imported)) : undefined;
  }
  if (def?.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.Identifier && def.node.init) {
    const specifier = requiredSpecifier(def.node.init);
    return specifier === undefined ? undefined : loadModule(context, specifier, { packages: true });
  }
  // import keys = require('./keys') (TypeScript's CommonJS import)
  const equals = def?.type === 'ImportBinding' ? (def.node as TSESTree.Node) : undefined;
  if (equals?.type === AST_NODE_TYPES.TSImportEqualsDeclaration && equals.moduleReference.type === AST_NODE_TYPES.TSExternalModuleReference) {
    const source = equals.moduleReference.expression;
    return source.type === AST_NODE_TYPES.Literal && typeof source.value === 'string' ? loadModule(context, source.value, { packages: true }) : undefined;
  }
  return undefined;
}

/** The module `module` re-exports as the namespace `name` (`export * as name from './v1'`), through its `export *` up to {@link RE_EXPORT_HOPS} modules deep. */
function namespaceReExport(module: ImportedModule, name: string, depth = 0): ImportedModule | undefined {
  for (const statement of module.program.body) {
    if (statement.type === AST_NODE_TYPES.ExportAllDeclaration && statement.exported && moduleExportName(statement.exported) === name) {
      return loadNestedModule(module, statement.source.value);
    }
  }
  if (depth >= RE_EXPORT_HOPS) return undefined;
  for (const statement of module.program.body) {
    if (statement.type !== AST_NODE_TYPES.ExportAllDeclaration || statement.exported) continue;
    const next = loadNestedModule(module, statement.source.value);
    const found = next ? namespaceReExport(next, name, depth + 1) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** `require('./m')` -> `'./m'`. */
function requiredSpecifier(init: TSESTree.Node): string | undefined {
  const call = unwrap(init);
  return call.type === AST_NODE_TYPES.CallExpression &&
    call.callee.type === AST_NODE_TYPES.Identifier &&
    call.callee.name === 'require' &&
    call.arguments[0]?.type === AST_NODE_TYPES.Literal &&
    typeof call.arguments[0].value === 'string'
    ? call.arguments[0].value
    : undefined;
}

/** The property a destructured binding reads: `{ KEY: key }` -> `KEY` for `key`. */
function destructuredKey(pattern: TSESTree.ObjectPattern, binding: TSESTree.Identifier): string | undefined {
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (value === binding) return propertyName(property.key);
  }
  return undefined;
}

/**
 * What an identifier written in an imported module's top-level code stands for: its `const`
 * initializer in that module, or the value exported under that name by a module it imports
 * relatively. `undefined` otherwise (a function, a parameter, a package import).
 */
export function moduleBinding(module: ImportedModule, name: string): { node: TSESTree.Node; module: ImportedModule } | undefined {
  const init = topLevelConst(module.program, name);
  if (init) return { node: init, module };
  for (const statement of module.program.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration || statement.importKind === 'type') continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type !== AST_NODE_TYPES.ImportSpecifier || specifier.local.name !== name) continue;
      const nested = loadNestedModule(module, statement.source.value);
      const imported = specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : specifier.imported.value;
      const value = nested ? exportedValue(nested.program, imported) : undefined;
      return nested && value ? { node: value, module: nested } : undefined;
    }
  }
  return undefined;
}

/**
 * The relative specifier of the file `path` seen from the file `from`, both absolute:
 * `./b.ts`, `../c/d.js` (POSIX separators, always starting with `.`).
 */
export function specifierOf(from: string, path: string): string {
  const spec = relative(dirname(from), path).split('\\').join('/');
  return spec.startsWith('.') ? spec : `./${spec}`;
}
