/**
 * Whether an exported function of an application is named where a call can reach it: in a module
 * that imports its module, directly or through the modules importing that one (a barrel's
 * `export { cacheIncr } from './cache'`, then `import { cacheIncr } from '@/lib/redis'`), not in any
 * module of the package that happens to write the same word.
 *
 * ```ts
 * // lib/redis/cache.ts
 * export async function cacheIncr(key: string) { return redis.incr(key); }
 * // lib/redis/index.ts: a barrel; its `cacheIncr` is a re-export, not a call
 * export { cacheGet, cacheIncr } from './cache';
 * // feed.ts imports the barrel and names only cacheGet: cacheIncr runs nowhere
 * ```
 *
 * What counts as naming it, conservatively (a false "never runs" would hide a leak):
 *
 * - only the modules of the package that write the name as a word can name it (none: not named);
 *   the modules looked at are the importers of the defining module (`importers.ts` importersOf),
 *   then theirs, breadth first, at most `MAX_IMPORT_DEPTH` levels and `MAX_MODULES_SEEN` modules,
 *   until each module writing the name has been judged; a walk that stops at a bound with modules
 *   left to look at answers "named" (unknown callers);
 * - tests, mocks and fixtures (`test-paths.ts` testOnlyModule: on a test path and imported by no
 *   module off one) name nothing, but the walk still goes through them;
 * - a module that imports the defining module itself as a namespace (`import * as Service from
 *   './notification.service'`; not a barrel above it) names every export of it, whatever members
 *   it writes;
 * - a module looked at that imports the name (`import { apiKeyAuth } from './middleware/auth'`)
 *   and does not pass it on in an export list of its own (a barrel's `export { a }`) names it,
 *   even when its text writes no use: the import wires the function in (an import left unused is
 *   `no-unused-vars`' to report; the tuning set's maintainers judged such a middleware by what it
 *   does), unless its only uses are calls commented out (`// await createKey(...)`: switched off);
 * - the walk goes up only through modules that can pass the function on: the defining module's
 *   importers, and above them only modules writing its name, re-exporting a whole module
 *   (`export *`) or passing its namespace on in an export list (`import * as redisUtils from
 *   './utils'; export { redisUtils }`: a barrel of the namespace, not a use of it; the modules
 *   writing `redisUtils` are then judged, and one handing it on as a value names every export);
 * - in a module looked at, the name counts as a word anywhere outside its import declarations and
 *   its export lists (`export { a, b }`, `export { a } from './m'`, `export * from './m'`): a call,
 *   a reference, a destructured `require`, a string, a comment; an import or a local export that
 *   renames it (`import { cacheIncr as bump }`, `export { cacheIncr as incr }`) counts (the new
 *   name is called), and so does a module that does not parse;
 * - a re-export under a new name (`export { mset as redisMset } from './redis'`) is no use: the
 *   function goes on as `redisMset`, and the walk is run again from the re-exporting module for
 *   the new name (named only if its importers write `redisMset` where a call can reach it; a
 *   re-export `as default` counts, a default import takes any name);
 * - a module of the walk that takes the imported module whole and hands the namespace on as a
 *   value counts too, whatever words it writes: `import * as functions from './functions'` then
 *   `serve({ functions: Object.values(functions) })` (an Inngest / cron registry calls every export
 *   under no name the text writes), `const jobs = require('./jobs'); register(jobs)`,
 *   `const m = await import('./m')` used other than as `m.name`, and a barrel's
 *   `export * as visits from './visits'` (the namespace travels under a new name);
 * - a module outside that walk that writes the same word is no caller: it cannot reach the
 *   function without importing its module;
 * - a package whose package.json declares subpath imports (`"imports": { "#cache": ... }`), which
 *   the importer walk does not resolve, keeps the function named (its importers are unknown).
 *
 * Only functions: a method travels with its instance, which code that never imports the class's
 * module can hold (a parameter, a global, a framework's container), so `uncalled.ts` keeps the
 * package-wide word search for methods.
 *
 * Bounded and cached: each module's verdict per name is kept per modification time, and each
 * answer per defining module and name per listing (`project.ts` packageFiles).
 */
import { join } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import { fileMemo } from './file-memo.js';
import { moduleText, parsedModule } from './parsed-modules.js';
import { walkParsed } from './static.js';
import { testOnlyModule } from './test-paths.js';
import { importersOf, MAX_IMPORT_DEPTH, MAX_MODULES_SEEN, resolved } from './importers.js';
import { packageFiles, packageOf } from './project.js';

/** Per defining module and name: the listing the answer was found with, and the answer. */
const answers = new Map<string, { files: readonly string[]; named: boolean }>();

/**
 * Whether a module importing `file` (directly, or through the modules importing it, bounded: see
 * the module comment) names `name` other than in its import declarations and export lists, or the
 * bounded walk could not tell. `root` is the package root whose listing is searched; `wordsOf`
 * gives the words of a file's text (the caller's per-file cache: a module that does not write the
 * name is no caller, and the walk ends once every module writing it is judged).
 */
export function namedByImporters(file: string, root: string, name: string, wordsOf: (path: string) => ReadonlySet<string>): boolean {
  const files = packageFiles(root);
  if (!files) return true;
  // package.json subpath imports (`import { bump } from '#cache'`) are not resolved: their
  // importers cannot be found, so any module may be one
  const manifest = packageOf(join(root, 'package.json'));
  if (manifest?.root === root && manifest.subpathImports) return true;
  const key = `${file}\0${name}`;
  const cached = answers.get(key);
  if (cached && cached.files === files) return cached.named;
  const named = walk(file, root, files, name, wordsOf);
  if (answers.size > 20_000) answers.clear();
  answers.set(key, { files, named });
  return named;
}

function walk(file: string, root: string, files: readonly string[], name: string, wordsOf: (path: string) => ReadonlySet<string>): boolean {
  // the modules that write the word at all, or may take a module whole (tests left out): the
  // walk ends once each is judged
  const pending = new Set(files.filter((path) => path !== file && !testOnlyModule(root, path) && (wordsOf(path).has(name) || mayTakeWhole(path) || writesNamespaceImport(path))));
  if (pending.size === 0) return false;
  const seen = new Set<string>([file]);
  const aliases = new Set<string>();
  const carries = (path: string): boolean => path === file || wordsOf(path).has(name) || [...aliases].some((alias) => wordsOf(path).has(alias) && new RegExp(`\\bexport\\s*\\{[^}]*(?<![\\w$])${alias.replace(/\$/g, '\\$')}(?![\\w$])`).test(moduleText(path) ?? '')) || PASSES_ON_WHOLE.test(moduleText(path) ?? 'export *');
  let level = [file];
  for (let depth = 0; level.length > 0; depth++) {
    const next: string[] = [];
    for (const path of level) {
      for (const importer of importersOf(path, root)) {
        if (seen.has(importer)) continue;
        // importers left unread at a bound: callers unknown
        if (depth === MAX_IMPORT_DEPTH || seen.size >= MAX_MODULES_SEEN) return true;
        seen.add(importer);
        // a barrel passing the namespace on under a name: the modules writing that name are callers to judge
        const passed = namespaceAliases(importer, path);
        if (passed === undefined) return true;
        for (const alias of passed) {
          aliases.add(alias);
          for (const other of files) if (!seen.has(other) && !testOnlyModule(root, other) && wordsOf(other).has(alias)) pending.add(other);
        }
        // its importers reach the function only through a module that passes it on: one that
        // writes its name, exports a namespace passing it on, or may pass a module on whole
        // (`export *`, CommonJS exports: PASSES_ON_WHOLE)
        if (carries(importer)) next.push(importer);
        if (!pending.delete(importer)) continue;
        for (const alias of aliases) if (wordsOf(importer).has(alias) && usesAliasAsValue(importer, alias)) return true;
        // the namespace handed on as a value: its members are called under names no text writes
        // (only a namespace that may hold the function: of its own module, or of one that writes
        // its name, exports a namespace passing it on, or may pass a module on whole)
        if (mayTakeWhole(importer) && carries(path) && handsOnWhole(importer, path)) return true;
        // the defining module itself imported as a namespace (not a barrel above it)
        if (depth === 0 && writesNamespaceImport(importer) && importsNamespace(importer, path) && !onlyPassedOn(importer, path)) return true;
        // a re-export under a new name (`export { mset as redisMset } from './redis'`): the function
        // goes on as the new name, named (if at all) where that module's importers write it
        if (wordsOf(importer).has(name) && reExportedAs(importer, name).some((alias) => renamedNamed(importer, root, alias, wordsOf))) return true;
        if (wordsOf(importer).has(name) && names(importer, name)) return true;
        if (pending.size === 0) return false;
      }
    }
    level = next;
  }
  return false;
}

/**
 * Text that may pass on what it imports without writing its names: `export *` (also `export * as`),
 * TypeScript's `export =`, and CommonJS exports of a required module (`module.exports =
 * require('./utils')`, `exports.utils = require(...)`, `module.exports = { ...utils }`,
 * `Object.assign(module.exports, ...)`, or a whole value: `module.exports = utils`, which may be a
 * required module). `module.exports = { a, b }` writes the names it passes on.
 */
const PASSES_ON_WHOLE = /\bexport\s*(?:\*|=)|\b(?:module\.)?exports(?:\.[\w$]+)?\s*=\s*(?:require\s*\(|\{[^}]*\.\.\.|[A-Za-z_$][\w$]*\s*(?:;|$))|\bObject\.assign\s*\(\s*(?:module\.)?exports\b/m;

/** Text that may take a module whole: `import * as`, `export * as`, `= require(`, `= await import(`, `import x = require(`. */
const WHOLE_MODULE = /\b(?:import|export)\s*\*\s*as\b|=\s*(?:await\s+)?(?:require|import)\s*\(/;

/** Whether the module at a path hands some module of the code on whole as a value ({@link handsOnWhole}), per modification time. */
const mayTakeWhole = fileMemo((path) => handsOnWhole(path, undefined), false);

/**
 * Whether the module at `path` takes the module `imported` (any module of the code when
 * `undefined`) whole (a namespace import, a whole
 * `require` or dynamic `import()` bound to a name, a TypeScript `import x = require()`) and uses
 * that name other than as `name.member`, or re-exports it as a namespace (`export * as x from`).
 * A module that does not parse counts.
 */
function handsOnWhole(path: string, imported: string | undefined): boolean {
  const text = moduleText(path);
  if (text === undefined) return true;
  if (!WHOLE_MODULE.test(text)) return false;
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return true;
  const { program } = parsed;
  // `imported` undefined: any module of the code (a package of node_modules resolves to none)
  const leadsHere = (specifier: unknown): boolean => {
    if (typeof specifier !== 'string') return false;
    const target = resolved(path, specifier);
    return imported === undefined ? target !== undefined : target === imported;
  };
  const bindings: Array<{ local: string; declaration: readonly [number, number] }> = [];
  const visit = (n: TSESTree.Node): undefined => {
    if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier' && n.init) {
      let init: TSESTree.Node = n.init;
      if (init.type === 'AwaitExpression') init = init.argument;
      const source =
        init.type === 'ImportExpression' ? (init.source.type === 'Literal' ? init.source.value : undefined)
        : init.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' && init.arguments[0]?.type === 'Literal' ? init.arguments[0].value
        : undefined;
      if (leadsHere(source)) bindings.push({ local: n.id.name, declaration: n.id.range });
    }
    return undefined;
  };
  for (const statement of program.body) {
    if (statement.type === 'ExportAllDeclaration' && statement.exported && leadsHere(statement.source.value)) return true;
    if (statement.type === 'ImportDeclaration' && leadsHere(statement.source.value)) {
      for (const specifier of statement.specifiers) {
        if (specifier.type === 'ImportNamespaceSpecifier') bindings.push({ local: specifier.local.name, declaration: statement.range });
      }
      continue;
    }
    if (statement.type === 'TSImportEqualsDeclaration' && statement.moduleReference.type === 'TSExternalModuleReference' && leadsHere(statement.moduleReference.expression.value)) {
      bindings.push({ local: statement.id.name, declaration: statement.range });
      continue;
    }
    walkParsed(statement, visit);
  }
  // `import * as utils from './utils'; export { utils }`: passed on under a name, not used
  // (`namespaceAliases` follows that name to the modules importing it)
  const lists = exportLists(program);
  return bindings.some(({ local, declaration }) => usedAsValue(text, local, [declaration, ...lists]));
}

/** The ranges of a module's export lists of its own bindings (`export { a, b as c }`, no `from`). */
function exportLists(program: TSESTree.Program): Array<readonly [number, number]> {
  return program.body.filter((statement) => statement.type === 'ExportNamedDeclaration' && statement.declaration === null && statement.source === null).map((statement) => statement.range);
}

/**
 * The names under which the module at `path` passes on, in an export list, a namespace import of
 * the module `imported` (`import * as redisUtils from './utils'; export { redisUtils }`): a barrel
 * of a namespace, whose importers reach each export of `imported` as `redisUtils.name`, or call
 * them under no name the text writes when they hand `redisUtils` on as a value. None for a
 * module that writes no namespace import; a module that does not parse answers `undefined`.
 */
function namespaceAliases(path: string, imported: string): string[] | undefined {
  if (!writesNamespaceImport(path)) return [];
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return undefined;
  const locals = new Set<string>();
  for (const statement of parsed.program.body) {
    if (statement.type !== 'ImportDeclaration' || statement.importKind === 'type' || resolved(path, statement.source.value) !== imported) continue;
    for (const specifier of statement.specifiers) if (specifier.type === 'ImportNamespaceSpecifier') locals.add(specifier.local.name);
  }
  const aliases: string[] = [];
  if (locals.size === 0) return aliases;
  for (const statement of parsed.program.body) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.declaration !== null || statement.source !== null) continue;
    for (const specifier of statement.specifiers) {
      const local = specifier.local.name;
      if (locals.has(local)) aliases.push(specifier.exported.type === 'Identifier' ? specifier.exported.name : String((specifier.exported as TSESTree.StringLiteral).value));
    }
  }
  return aliases;
}

/**
 * Whether the module at `path` writes its namespace imports of the module `imported` only in its
 * export lists (`import * as redisUtils from './utils'; export { redisUtils }`): a barrel, which
 * calls nothing itself; its importers are judged by the name it passes on ({@link namespaceAliases}).
 */
function onlyPassedOn(path: string, imported: string): boolean {
  const text = moduleText(path);
  const parsed = parsedModule(path);
  if (text === undefined || typeof parsed === 'string') return false;
  const locals: string[] = [];
  for (const statement of parsed.program.body) {
    if (statement.type !== 'ImportDeclaration' || resolved(path, statement.source.value) !== imported) continue;
    for (const specifier of statement.specifiers) if (specifier.type === 'ImportNamespaceSpecifier') locals.push(specifier.local.name);
  }
  const skipped = parsed.program.body.filter((statement) => importOrExportList(statement)).map((statement) => statement.range);
  let rest = text;
  for (const [start, end] of skipped) rest = rest.slice(0, start) + ' '.repeat(end - start) + rest.slice(end);
  return locals.length > 0 && locals.every((local) => !hasWord(rest, local));
}

/**
 * Whether the module at `path` uses `alias` (a namespace passed on by a barrel: {@link
 * namespaceAliases}) other than as `alias.member` or in its import declarations and export lists:
 * the namespace handed on as a value, whose members are then called under names no text writes.
 * A module that cannot be read or parsed counts.
 */
function usesAliasAsValue(path: string, alias: string): boolean {
  const text = moduleText(path);
  if (text === undefined) return true;
  if (!hasWord(text, alias)) return false;
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return true;
  const declarations = parsed.program.body.filter((statement) => importOrExportList(statement)).map((statement) => statement.range);
  return usedAsValue(text, alias, declarations);
}

/** Whether a module's text writes a namespace import (`import * as x from`), per modification time. */
const writesNamespaceImport = fileMemo((path) => {
  const text = moduleText(path);
  return text === undefined || /\bimport\s*\*\s*as\b/.test(text);
}, false);

/**
 * Whether the module at `path` imports the module `imported` as a namespace (`import * as
 * NotificationService from './notification.service'`): every export is then one member access
 * away, and the tuning set's maintainers judged an export such a namespace never names by what it
 * does. A module that does not parse counts.
 */
function importsNamespace(path: string, imported: string): boolean {
  const text = moduleText(path);
  if (text === undefined) return true;
  if (!/\bimport\s*\*\s*as\b/.test(text)) return false;
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return true;
  const { program } = parsed;
  return program.body.some(
    (statement) => statement.type === 'ImportDeclaration' && statement.importKind !== 'type' && statement.specifiers.some((s) => s.type === 'ImportNamespaceSpecifier') && resolved(path, statement.source.value) === imported,
  );
}

/** Whether `local` occurs in `text`, outside the ranges `skipped` (its declaration, export lists), other than as `local.member` / `local?.member` or as a member itself (`x.local`). */
function usedAsValue(text: string, local: string, skipped: ReadonlyArray<readonly [number, number]>): boolean {
  for (let at = text.indexOf(local); at >= 0; at = text.indexOf(local, at + 1)) {
    if (skipped.some(([start, end]) => at >= start && at < end)) continue;
    const end = at + local.length;
    if (WORD_CHARS.test(text[at - 1] ?? ' ') || WORD_CHARS.test(text[end] ?? ' ')) continue;
    if (/\.\s*$/.test(text.slice(Math.max(0, at - 8), at))) continue;
    if (/^\s*\??\.\s*[A-Za-z_$]/.test(text.slice(end, end + 16))) continue;
    return true;
  }
  return false;
}

const WORD_CHARS = /[\w$]/;

/** Per module path, its answers per name of {@link namesOutsideImports}, kept per modification time. */
const namingOf = fileMemo((): Map<string, boolean> | undefined => new Map(), undefined);

/** Whether the module at `path` names `name` outside its import declarations and export lists (cached per modification time; a module that cannot be read counts). */
function names(path: string, name: string): boolean {
  const answers = namingOf(path);
  if (!answers) return true;
  let answer = answers.get(name);
  if (answer === undefined) {
    answer = namesOutsideImports(path, name);
    answers.set(name, answer);
  }
  return answer;
}

function namesOutsideImports(path: string, name: string): boolean {
  const text = moduleText(path);
  if (text === undefined) return true;
  if (!hasWord(text, name)) return false;
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return true;
  const { program } = parsed;
  // blank the import declarations and export lists that pass the name on under the same name
  let rest = text;
  let imported = false;
  let passedOn = false;
  for (const statement of program.body) {
    if (!importOrExportList(statement)) continue;
    if (renames(statement, name)) return true;
    if (statement.type === 'ImportDeclaration' && importsByName(statement, name)) imported = true;
    if (statement.type === 'ExportNamedDeclaration' && statement.source === null && exportsByName(statement, name)) passedOn = true;
    rest = rest.slice(0, statement.range[0]) + ' '.repeat(statement.range[1] - statement.range[0]) + rest.slice(statement.range[1]);
  }
  // imported and not passed on (a barrel's `import { a } from './a'; export { a }`): taken in
  // for a use, even when the text never writes one (an unused import is no-unused-vars' to report),
  // unless its calls are there, commented out: they were switched off
  if (imported && !passedOn) return !callsOnlyCommentedOut(rest, name);
  return hasWord(rest, name);
}

/** Comments of a module's text (`//` lines, not a URL's `://`; `/* *\/` blocks). */
const COMMENT = /\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g;

/**
 * Whether `text` (a module's text, its import declarations and export lists blanked) writes `name`
 * only in comments, and there as a call (`// await createKey("users:online", "hash");`): an import
 * whose every call is commented out wires nothing in.
 */
function callsOnlyCommentedOut(text: string, name: string): boolean {
  const comments = text.match(COMMENT) ?? [];
  if (hasWord(text.replace(COMMENT, ' '), name)) return false;
  const call = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}\\s*\\(`);
  return comments.some((comment) => call.test(comment));
}

/** Whether an import declaration binds `name` under its own name, as a value (`import { name }`, not `import type`). */
function importsByName(statement: TSESTree.ImportDeclaration, name: string): boolean {
  if (statement.importKind === 'type') return false;
  return statement.specifiers.some(
    (specifier) => specifier.type === 'ImportSpecifier' && specifier.importKind !== 'type' && specifier.local.name === name && (specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value) === name,
  );
}

/** Whether an export list of the module's own bindings (`export { name }`) passes `name` on. */
function exportsByName(statement: TSESTree.ExportNamedDeclaration, name: string): boolean {
  return statement.specifiers.some((specifier) => (specifier.local.type === 'Identifier' ? specifier.local.name : specifier.local.value) === name);
}

/** An import declaration, or an export that declares nothing (`export { a }`, `export { a } from`, `export * from`). */
function importOrExportList(statement: TSESTree.ProgramStatement): statement is TSESTree.ImportDeclaration | TSESTree.ExportNamedDeclaration | TSESTree.ExportAllDeclaration {
  if (statement.type === 'ImportDeclaration' || statement.type === 'ExportAllDeclaration') return true;
  return statement.type === 'ExportNamedDeclaration' && statement.declaration === null;
}

/**
 * The names under which the module at `path` re-exports `name` from another module under a new
 * name (`export { mset as redisMset } from './redis'` gives `['redisMset']`); empty when it does
 * not, or does not parse (then {@link names} answers for it).
 */
function reExportedAs(path: string, name: string): string[] {
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return [];
  const aliases: string[] = [];
  for (const statement of parsed.program.body) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.source === null || statement.exportKind === 'type') continue;
    for (const specifier of statement.specifiers) {
      const local = specifier.local.type === 'Identifier' ? specifier.local.name : specifier.local.value;
      const exported = specifier.exported.type === 'Identifier' ? specifier.exported.name : specifier.exported.value;
      if (local === name && exported !== name && specifier.exportKind !== 'type') aliases.push(exported);
    }
  }
  return aliases;
}

/** The (module, new name) pairs whose walk is under way: a cycle of renaming re-exports answers "named". */
const following = new Set<string>();

/**
 * Whether `alias`, the new name under which the module at `path` re-exports a function, is named
 * by the importers of `path` (the same walk as {@link namedByImporters}, from `path`). A default
 * export (`export { mset as default } from './redis'`) is imported under any name: named.
 */
function renamedNamed(path: string, root: string, alias: string, wordsOf: (path: string) => ReadonlySet<string>): boolean {
  if (alias === 'default') return true;
  const key = `${path}\0${alias}`;
  if (following.has(key)) return true;
  following.add(key);
  try {
    return namedByImporters(path, root, alias, wordsOf);
  } finally {
    following.delete(key);
  }
}

/**
 * Whether the statement imports `name` under another name (`import { name as other }`), or
 * exports a local `name` under another (`export { name as other }`). A re-export from a module
 * under a new name (`export { name as other } from './m'`) is not read here: the walk follows the
 * new name ({@link reExportedAs}).
 */
function renames(statement: TSESTree.ImportDeclaration | TSESTree.ExportNamedDeclaration | TSESTree.ExportAllDeclaration, name: string): boolean {
  if (statement.type === 'ExportAllDeclaration') return false;
  const reExport = statement.type === 'ExportNamedDeclaration' && statement.source !== null;
  for (const specifier of statement.specifiers) {
    if (specifier.type === 'ImportSpecifier') {
      const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value;
      if (imported === name && specifier.local.name !== name) return true;
    } else if (specifier.type === 'ExportSpecifier') {
      const local = specifier.local.type === 'Identifier' ? specifier.local.name : specifier.local.value;
      const exported = specifier.exported.type === 'Identifier' ? specifier.exported.name : specifier.exported.value;
      if (local === name && exported !== name && !reExport) return true;
    }
  }
  return false;
}

function hasWord(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if (!WORD_CHARS.test(text[at - 1] ?? ' ') && !WORD_CHARS.test(text[at + name.length] ?? ' ')) return true;
  }
  return false;
}
