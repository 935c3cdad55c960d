/**
 * Constant numbers across modules: the value of a TTL expression built from `const` numbers of
 * this file and of the modules it imports with a relative specifier (`import { WINDOW_MS } from
 * './limits'`; `import * as limits from './limits'`; `require('./limits')`), read through
 * `redis-calls/modules.ts`. The arithmetic is {@link foldNumber}'s (`Math.floor(WINDOW_MS / 1000)`
 * is 900 with `export const WINDOW_MS = 15 * 60 * 1000` in `./limits.ts`). Every rule that reads
 * a TTL's value reads it here (`redis-calls/ttl-value.ts`).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { exportedValue, importedBinding, moduleBinding, namespaceModule, type ImportedModule } from './modules.js';
import { constInitializer, defaultImportOf, findVariable, foldNumber, type AnyContext, type ConstantScope } from './static.js';

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
      return imported && value ? { node: value, scope: moduleConstants(imported.module) } : undefined;
    },
    member(object, name) {
      const module = namespaceModule(context, object);
      const value = module ? exportedValue(module.program, name) : undefined;
      return module && value ? { node: value, scope: moduleConstants(module) } : undefined;
    },
    isGlobal: (id) => (findVariable(context, id)?.defs.length ?? 0) === 0,
    packageOf: (id) => defaultImportOf(context, id),
    text: (node) => context.sourceCode.getText(node),
  };
  scope = own;
  fileScopes.set(context.sourceCode, scope);
  return scope;
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
