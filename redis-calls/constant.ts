/**
 * Constant numbers across modules: the value of a TTL expression built from `const` numbers of
 * this file and of the modules it imports with a relative specifier (`import { WINDOW_MS } from
 * './limits'`; `import * as limits from './limits'`; `require('./limits')`), read through
 * `redis-calls/modules.ts`. The arithmetic is {@link foldNumber}'s (`Math.floor(WINDOW_MS / 1000)`
 * is 900 with `export const WINDOW_MS = 15 * 60 * 1000` in `./limits.ts`). Every rule that reads
 * a TTL's value reads it here (`redis-calls/ttl-value.ts`).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { instanceConstant } from './instance-constants.js';
import { commonJsDefault, exportedValue, findExport, importedBinding, loadModule, moduleBinding, namespaceModule, topLevelConst, type ImportedModule } from './modules.js';
import { constInitializer, defaultImportOf, findVariable, foldNumber, unwrap, valueAtPath, type AnyContext, type ConstantScope } from './static.js';

const fileScopes = new WeakMap<TSESLint.SourceCode, ConstantScope>();
const moduleScopes = new WeakMap<TSESTree.Program, ConstantScope>();

/**
 * The {@link ConstantScope} of the linted file with its relative imports followed: a `const` of
 * the file, or the value an imported module exports under the imported name.
 */
export function constantsOf(context: AnyContext): ConstantScope {
  let scope = fileScopes.get(context.sourceCode);
  if (scope) return scope;
  const own: ConstantScope = {
    resolve(id) {
      const init = constInitializer(context, id);
      if (init) return { node: init, scope: own };
      const imported = importedBinding(context, id);
      const value = imported ? exportedValue(imported.module.program, imported.name) : undefined;
      if (imported && value) return { node: value, scope: moduleConstants(imported.module) };
      return defaultImported(context, id);
    },
    member(object, name) {
      const module = namespaceModule(context, object);
      const value = module ? exportedValue(module.program, name) : undefined;
      if (module && value) return { node: value, scope: moduleConstants(module) };
      return module ? commonJsObjectMember(module, name) : undefined;
    },
    instanceMember(member) {
      const value = instanceConstant(context, member);
      return value ? { node: value, scope: own } : undefined;
    },
    isGlobal: (id) => (findVariable(context, id)?.defs.length ?? 0) === 0,
    packageOf: (id) => defaultImportOf(context, id),
    text: (node) => context.sourceCode.getText(node),
  };
  scope = own;
  fileScopes.set(context.sourceCode, scope);
  return scope;
}

/**
 * The value a module's default export is (`import CACHE_SETTINGS from './CacheSettings.js'` with
 * `export default CACHE_SETTINGS` of a top-level `const`, or `export default { ... }`), when `id`
 * is such a default import of a module of the code.
 */
function defaultImported(context: AnyContext, id: TSESTree.Identifier): { node: TSESTree.Node; scope: ConstantScope } | undefined {
  const def = findVariable(context, id)?.defs[0];
  if (def?.type !== 'ImportBinding' || def.node.type !== AST_NODE_TYPES.ImportDefaultSpecifier || def.parent?.type !== AST_NODE_TYPES.ImportDeclaration) return undefined;
  const module = loadModule(context, def.parent.source.value, { packages: true });
  const found = module ? findExport(module, 'default') : undefined;
  return found ? { node: found.node, scope: moduleConstants(found.module) } : undefined;
}

/** `NAME` of a CommonJS module whose `module.exports = SETTINGS` is a top-level `const` object literal. */
function commonJsObjectMember(module: ImportedModule, name: string): { node: TSESTree.Node; scope: ConstantScope } | undefined {
  const exported = commonJsDefault(module.program);
  const bare = exported ? unwrap(exported) : undefined;
  const object = bare?.type === AST_NODE_TYPES.Identifier ? topLevelConst(module.program, bare.name) : undefined;
  return object ? valueAtPath(object, moduleConstants(module), [name]) : undefined;
}

/** The {@link ConstantScope} of an imported module's top level (and the modules it imports). */
export function moduleConstants(module: ImportedModule): ConstantScope {
  let scope = moduleScopes.get(module.program);
  if (scope) return scope;
  const own: ConstantScope = {
    resolve(id) {
      const bound = moduleBinding(module, id.name);
      if (!bound) return undefined;
      return { node: bound.node, scope: bound.module === module ? own : moduleConstants(bound.module) };
    },
    isGlobal: (id) => moduleBinding(module, id.name) === undefined,
    text: (node) => module.text.slice(node.range[0], node.range[1]),
  };
  scope = own;
  moduleScopes.set(module.program, scope);
  return scope;
}

/**
 * The value of a constant number expression of the linted file, its `const`s and those of the
 * modules it imports relatively included (`REPORT_WINDOW_MS / 1000`, `Math.floor(A / 1000)`);
 * `undefined` when it is not a constant.
 */
export function constantNumber(context: AnyContext, node: TSESTree.Node): number | undefined {
  return foldNumber(node, constantsOf(context));
}
