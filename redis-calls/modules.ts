/**
 * Reading the top-level values of modules the linted file imports with a relative specifier
 * (`import { TTL_MS } from './limits'`, `import * as scripts from './scripts'`,
 * `const { KEY } = require('./keys')`): the module is read from disk and parsed with the linted
 * file's own parser (cached by path and modification time), and an exported name is resolved to
 * the expression of its top-level `const` (`export const X = ...`, `export { local as X }`,
 * CommonJS `exports.X = ...` / `module.exports = { X }`). No type checker and no scope analysis:
 * a module's top level is read as written. Package imports (`'ioredis'`, `'@/lib/x'`) are not
 * followed.
 *
 * The one module reader of the analysis: embedded scripts held in another module
 * (`redis-calls/lua.ts`), TTL constants (`redis-calls/constant.ts`) and receivers made in another
 * module (`redis-calls/clients.ts`) all read through it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, pick, propertyName, unwrap, type AnyContext } from './static.js';

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
}

/** The part of an ESLint parser the reader uses. */
export interface ParserLike {
  parse?(text: string, options: object): TSESTree.Program;
  parseForESLint?(text: string, options: object): { ast: TSESTree.Program };
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '/index.ts', '/index.js'];
const moduleCache = new Map<string, { mtimeMs: number; parsed: { text: string; program: TSESTree.Program } | undefined }>();

/**
 * Reads and parses a relatively imported module with the linted file's parser (cached by path
 * and modification time). `undefined` for a package import, a missing file or a parse error.
 * @param context the linted file's rule context (its path and parser)
 * @param specifier the import's module specifier as written (`'./scripts'`, `'../keys.js'`)
 */
export function loadModule(context: AnyContext, specifier: string): ImportedModule | undefined {
  const from = context.physicalFilename ?? context.filename;
  const parser = (context.languageOptions as { parser?: ParserLike } | undefined)?.parser;
  if (!from || !isAbsolute(from) || !parser) return undefined;
  return loadModuleFrom(from, dirname(from), parser, specifier);
}

/**
 * A module imported by a module that was itself read with {@link loadModule} (its
 * `import { WINDOW_MS } from './time'`), shown relative to the same linted file.
 */
function loadNestedModule(module: ImportedModule, specifier: string): ImportedModule | undefined {
  return loadModuleFrom(module.path, module.shownFrom, module.parser, specifier);
}

function loadModuleFrom(from: string, shownFrom: string, parser: ParserLike, specifier: string): ImportedModule | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = join(dirname(from), specifier);
  const candidates = EXTENSIONS.map((ext) => base + ext);
  // TypeScript's ESM style: './scripts.js' is './scripts.ts' on disk
  const js = /\.(m|c)?js$/.exec(base);
  if (js) candidates.push(base.replace(/\.(m|c)?js$/, `.${js[1] ?? ''}ts`));
  const path = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  if (!path) return undefined;
  const mtimeMs = statSync(path).mtimeMs;
  let cached = moduleCache.get(path);
  if (!cached || cached.mtimeMs !== mtimeMs) {
    let parsed: { text: string; program: TSESTree.Program } | undefined;
    try {
      const text = readFileSync(path, 'utf8');
      const options = { ecmaVersion: 'latest', sourceType: 'module', range: true, loc: true, filePath: path };
      const program = parser.parseForESLint ? parser.parseForESLint(text, options).ast : parser.parse?.(text, options);
      parsed = program ? { text, program } : undefined;
    } catch {
      parsed = undefined; // not parseable with this parser: its values stay unknown
    }
    if (moduleCache.size > 500) moduleCache.clear();
    cached = { mtimeMs, parsed };
    moduleCache.set(path, cached);
  }
  if (!cached.parsed) return undefined;
  const rel = relative(shownFrom, path);
  return { path, ...cached.parsed, display: rel.startsWith('.') ? rel : `./${rel}`, parser, shownFrom };
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
    if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration) {
      if (statement.declaration) {
        const init = statement.declaration.type === AST_NODE_TYPES.VariableDeclaration ? topLevelConst({ ...program, body: [statement] }, name) : undefined;
        if (init) return init;
      }
      for (const specifier of statement.specifiers) {
        const exported = specifier.exported.type === AST_NODE_TYPES.Identifier ? specifier.exported.name : specifier.exported.value;
        const local = specifier.local.type === AST_NODE_TYPES.Identifier ? specifier.local.name : specifier.local.value;
        if (exported === name && !statement.source) return topLevelConst(program, local);
      }
    }
    if (statement.type === AST_NODE_TYPES.ExpressionStatement && statement.expression.type === AST_NODE_TYPES.AssignmentExpression) {
      const { left, right } = statement.expression;
      if (left.type !== AST_NODE_TYPES.MemberExpression) continue;
      const target = left.object;
      const isExports =
        (target.type === AST_NODE_TYPES.Identifier && target.name === 'exports') ||
        (target.type === AST_NODE_TYPES.MemberExpression &&
          target.object.type === AST_NODE_TYPES.Identifier &&
          target.object.name === 'module' &&
          propertyName(target.property, target.computed) === 'exports');
      if (isExports && propertyName(left.property, left.computed) === name) return right;
      const isModuleExports =
        target.type === AST_NODE_TYPES.Identifier && target.name === 'module' && propertyName(left.property, left.computed) === 'exports';
      if (isModuleExports && right.type === AST_NODE_TYPES.ObjectExpression) {
        const value = pick(right, name);
        if (value) return value;
      }
    }
  }
  return undefined;
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
    const module = loadModule(context, declaration.source.value);
    const imported = def.node.imported;
    const name = imported.type === AST_NODE_TYPES.Identifier ? imported.name : imported.value;
    return module ? { module, name } : undefined;
  }
  if (def?.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.ObjectPattern && def.node.init) {
    const specifier = requiredSpecifier(def.node.init);
    const name = specifier === undefined ? undefined : destructuredKey(def.node.id, def.name);
    const module = specifier === undefined || name === undefined ? undefined : loadModule(context, specifier);
    return module && name !== undefined ? { module, name } : undefined;
  }
  return undefined;
}

/** `import * as m from './m'`, `const m = require('./m')`: the module. */
export function namespaceModule(context: AnyContext, node: TSESTree.Identifier): ImportedModule | undefined {
  const def = findVariable(context, node)?.defs[0];
  if (def?.type === 'ImportBinding' && def.node.type === AST_NODE_TYPES.ImportNamespaceSpecifier && def.parent?.type === AST_NODE_TYPES.ImportDeclaration) {
    return loadModule(context, def.parent.source.value);
  }
  if (def?.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.Identifier && def.node.init) {
    const specifier = requiredSpecifier(def.node.init);
    return specifier === undefined ? undefined : loadModule(context, specifier);
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
