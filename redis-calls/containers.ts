/**
 * Const object literals and enums that key text is read from ({@link containerOf}), for
 * `key-shape.ts`: an object literal, a `const` bound to one (`Object.freeze({...})` too), an enum,
 * a member of one (`KEYS.SYS`), or the same in another module of the repository, however it is
 * exported and imported. A configuration object counts, with the members its module's top level
 * assigns after the literal (`config.queue = {...}`; `module.exports = config`); members written
 * anywhere else are marked changed, so that a key reading them is not taken for the literal's text.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findExport, importedBinding, loadModule, locateExport, moduleContext, namespaceModule, type ImportedModule } from './modules.js';
import { findVariable, propertyName, unwrap, type AnyContext } from './static.js';

/** How deep a container is looked for (members, imports, bindings). */
const MAX_DEPTH = 8;

/** A const object literal or an enum that key names are read from, with the context it is written in. */
export interface Container {
  node: TSESTree.ObjectExpression | TSESTree.TSEnumDeclaration;
  context: AnyContext;
  /** It is another module's (its declarations stay out of `via`). */
  imported: boolean;
  via: TSESTree.Node[];
  /**
   * Members the module's top level assigns after the literal (`config.queue = {...}`,
   * `config.endpoints.cache = ...`), by their path below the container, in source order: they
   * are part of what the object holds once the module is loaded.
   */
  defined?: ReadonlyArray<{ path: readonly string[]; value: TSESTree.Node }>;
  /**
   * Paths below the container written anywhere else (in a function, by `+=`, `delete`,
   * `Object.assign(config.queue, ...)`; `*` for a computed member): what the literal says of them
   * is not what a key reads at run time.
   */
  mutated?: ReadonlyArray<readonly string[]>;
}

/** Methods that add elements to an array in place: an array they are called on is not read. */
export const MUTATING_METHODS: ReadonlySet<string> = new Set(['push', 'unshift', 'splice', 'fill', 'copyWithin']);

/** What a container holds under `name`: its value, whether it is changed at run time, and what is assigned below it. */
export function memberOf(container: Container, name: string): { value: TSESTree.Node | undefined; mutated: boolean; below: Pick<Container, 'defined' | 'mutated'> } {
  const mutated = (container.mutated ?? []).some((path) => path.length === 1 && (path[0] === name || path[0] === '*'));
  const assigned = (container.defined ?? []).filter((d) => d.path.length === 1 && d.path[0] === name).at(-1)?.value;
  const value = assigned ?? (container.node.type === AST_NODE_TYPES.ObjectExpression ? ownProperty(container.node, name) : undefined);
  const below = {
    defined: (container.defined ?? []).filter((d) => d.path.length > 1 && d.path[0] === name).map((d) => ({ path: d.path.slice(1), value: d.value })),
    mutated: (container.mutated ?? []).filter((path) => path.length > 1 && (path[0] === name || path[0] === '*')).map((path) => path.slice(1)),
  };
  return { value, mutated, below };
}

/**
 * The member writes of a variable bound to an object literal (`config.queue = {...}`): the
 * assignments of its module's top level (plain `=`, every member named) define members, every
 * other write changes the object at run time. `undefined` when the object as a whole is merged
 * into (`Object.assign(config, overrides)`): its literal then says nothing of what it holds.
 */
function memberWrites(variable: TSESLint.Scope.Variable): Pick<Container, 'defined' | 'mutated'> | undefined {
  const defined: Array<{ path: string[]; value: TSESTree.Node }> = [];
  const mutated: string[][] = [];
  for (const reference of variable.references) {
    if (reference.init) continue;
    let top: TSESTree.Node = outerCast(reference.identifier);
    const path: string[] = [];
    // through casts too: `(keys as Record<string, string>).session = ...`, `keys!.session = ...`
    while (top.parent?.type === AST_NODE_TYPES.MemberExpression && top.parent.object === top) {
      path.push(propertyName(top.parent.property, top.parent.computed) ?? '*');
      top = outerCast(top.parent);
    }
    if (isAssignTarget(top)) {
      if (path.length === 0) return undefined;
      mutated.push([...path, '*']);
      continue;
    }
    // an array below the object filled in place (`SCOPES.jobs.index.push(id)`): its literal no
    // longer lists its elements
    const filled = path.at(-1);
    if (path.length > 1 && filled !== undefined && MUTATING_METHODS.has(filled) && top.parent?.type === AST_NODE_TYPES.CallExpression && top.parent.callee === top) {
      mutated.push(path.slice(0, -1));
      continue;
    }
    if (path.length === 0 || !isWritten(top)) continue;
    const parent = top.parent!;
    const topLevel = parent.parent?.type === AST_NODE_TYPES.ExpressionStatement && parent.parent.parent?.type === AST_NODE_TYPES.Program;
    if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '=' && topLevel && !path.includes('*')) defined.push({ path, value: parent.right });
    else mutated.push(path);
  }
  return { defined, mutated };
}

/** The outermost of the type casts around `node` (`x as T`, `x!`, `x satisfies T`), else `node`. */
function outerCast(node: TSESTree.Node): TSESTree.Node {
  let top = node;
  while (top.parent && (top.parent.type === AST_NODE_TYPES.TSAsExpression || top.parent.type === AST_NODE_TYPES.TSNonNullExpression || top.parent.type === AST_NODE_TYPES.TSSatisfiesExpression || top.parent.type === AST_NODE_TYPES.TSTypeAssertion)) top = top.parent;
  return top;
}

/**
 * Whether the code changes the member `name` of the object the variable holds, wherever it does
 * (`keys.userHash = ...`, `keys[k] = ...`, `delete keys.userHash`, `keys.userHash += ...`, also
 * through a cast: `(keys as Record<string, string>).userHash = ...`), or merges into the object as
 * a whole (`Object.assign(keys, overrides)`): what made the object then
 * no longer says what that member holds.
 */
export function memberChanged(variable: TSESLint.Scope.Variable, name: string): boolean {
  const writes = memberWrites(variable);
  if (!writes) return true;
  return [...(writes.defined ?? []).map((d) => d.path), ...(writes.mutated ?? [])].some((path) => path[0] === name || path[0] === '*');
}

/**
 * The container a module exports as its whole (`module.exports = config`, `export default
 * {...}`, `export default config`): what `require('./config')` and a default import give.
 */
function defaultContainer(context: AnyContext, module: ImportedModule, depth: number): Container | undefined {
  const site = locateExport(module, 'default');
  if (!site) return undefined;
  let node = site.expression;
  if (!node && site.local !== undefined) {
    // the top-level binding itself, so that the module's writes to it are read
    for (const statement of site.module.program.body) {
      const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
      if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration) continue;
      node ??= declaration.declarations.find((d) => d.id.type === AST_NODE_TYPES.Identifier && d.id.name === site.local)?.id;
    }
  }
  const inner = node ? containerOf(moduleContext(context, site.module), node, depth + 1) : undefined;
  return inner && { ...inner, imported: true, via: [] };
}

/**
 * The const object literal or enum an expression stands for: an object literal, a `const` (or a
 * `let` / `var` assigned once) bound to one, an enum, a member of one (`KEYS.SYS`), or the same
 * imported from another module of the repository (relative, tsconfig alias or workspace package;
 * `import * as keys` namespaces too). `undefined` for anything else.
 */
export function containerOf(context: AnyContext, input: TSESTree.Node, depth: number): Container | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const node = unwrap(input);
  if (node.type === AST_NODE_TYPES.ObjectExpression || node.type === AST_NODE_TYPES.TSEnumDeclaration) return { node, context, imported: false, via: [] };
  // Object.freeze({ ... }): the literal, which nothing can change
  if (node.type === AST_NODE_TYPES.CallExpression && node.arguments.length === 1 && isGlobalObjectMethod(context, node.callee, 'freeze')) {
    const inner = containerOf(context, node.arguments[0]!, depth + 1);
    return inner && inner.node.type === AST_NODE_TYPES.ObjectExpression ? inner : undefined;
  }
  if (node.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context, node);
    const def = variable?.defs[0];
    if (!variable || !def) return undefined;
    if (def.type === 'TSEnumName' && def.node.type === AST_NODE_TYPES.TSEnumDeclaration) return { node: def.node, context, imported: false, via: [] };
    // import config from './config': the module's default export
    if (def.type === 'ImportBinding' && def.node.type === AST_NODE_TYPES.ImportDefaultSpecifier && def.parent?.type === AST_NODE_TYPES.ImportDeclaration) {
      const module = loadModule(context, def.parent.source.value, { packages: true });
      return module ? defaultContainer(context, module, depth) : undefined;
    }
    if (def.type === 'ImportBinding' || (def.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.ObjectPattern)) {
      const imported = importedBinding(context, node);
      const found = imported ? findExport(imported.module, imported.name) : undefined;
      // const { queue } = require('./config') of a module exporting `module.exports = config`
      const inner = found
        ? containerOf(moduleContext(context, found.module), bindingOf(found.node), depth + 1)
        : imported
          ? defaultMember(context, imported.module, imported.name, depth)
          : undefined;
      return inner && { ...inner, imported: true, via: [] };
    }
    if (variable.defs.length !== 1 || def.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init || !assignedOnce(variable, def.node.id)) return undefined;
    // const config = require('./config'): what the module exports as a whole
    const required = unwrap(def.node.init).type === AST_NODE_TYPES.CallExpression ? namespaceModule(context, node) : undefined;
    if (required) return defaultContainer(context, required, depth);
    // written to: members its module's top level assigns (config.queue = {...}) are part of it,
    // members written anywhere else (KEYS.a = ... in a function) are not what the literal says,
    // and an object merged into (Object.assign(KEYS, overrides)) says nothing
    const writes = memberWrites(variable);
    if (!writes) return undefined;
    const inner = containerOf(context, def.node.init, depth + 1);
    return (
      inner && {
        ...inner,
        defined: [...(inner.defined ?? []), ...(writes.defined ?? [])],
        mutated: [...(inner.mutated ?? []), ...(writes.mutated ?? [])],
        via: inner.imported ? [] : [declarationStatement(def.node), ...inner.via],
      }
    );
  }
  if (node.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = propertyName(node.property, node.computed);
  const object = unwrap(node.object);
  if (name === undefined || object.type === AST_NODE_TYPES.ThisExpression) return undefined;
  if (object.type === AST_NODE_TYPES.Identifier) {
    const namespace = namespaceModule(context, object);
    const found = namespace ? findExport(namespace, name) : undefined;
    const inner = found ? containerOf(moduleContext(context, found.module), bindingOf(found.node), depth + 1) : undefined;
    if (inner) return { ...inner, imported: true, via: [] };
    // else config.queue of `const config = require('./config')`, `module.exports = config`: below
  }
  const owner = containerOf(context, object, depth + 1);
  if (!owner || owner.node.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const member = memberOf(owner, name);
  const inner = member.value && !member.mutated ? containerOf(owner.context, member.value, depth + 1) : undefined;
  return (
    inner && {
      ...inner,
      defined: [...(inner.defined ?? []), ...(member.below.defined ?? [])],
      mutated: [...(inner.mutated ?? []), ...(member.below.mutated ?? [])],
      imported: owner.imported || inner.imported,
      via: owner.imported ? [] : [...owner.via, ...inner.via],
    }
  );
}

/**
 * The `const` an exported value initialises (`export const config = {...}`), so that the module's
 * writes to it are read ({@link memberWrites}); the value itself when it initialises none.
 */
function bindingOf(value: TSESTree.Node): TSESTree.Node {
  const declarator = value.parent;
  return declarator?.type === AST_NODE_TYPES.VariableDeclarator && declarator.init === value && declarator.id.type === AST_NODE_TYPES.Identifier ? declarator.id : value;
}

/** `const { queue } = require('./config')` of a module exporting `module.exports = config`: the member of its whole export. */
function defaultMember(context: AnyContext, module: ImportedModule, name: string, depth: number): Container | undefined {
  const whole = defaultContainer(context, module, depth + 1);
  if (!whole || whole.node.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const member = memberOf(whole, name);
  const inner = member.value && !member.mutated ? containerOf(whole.context, member.value, depth + 1) : undefined;
  return inner && { ...inner, defined: [...(inner.defined ?? []), ...(member.below.defined ?? [])], mutated: [...(inner.mutated ?? []), ...(member.below.mutated ?? [])] };
}

/** `Object.<method>` of the global `Object`. */
function isGlobalObjectMethod(context: AnyContext, callee: TSESTree.Node, method: string): boolean {
  const bare = unwrap(callee);
  return (
    bare.type === AST_NODE_TYPES.MemberExpression &&
    bare.object.type === AST_NODE_TYPES.Identifier &&
    bare.object.name === 'Object' &&
    (findVariable(context, bare.object)?.defs.length ?? 0) === 0 &&
    propertyName(bare.property, bare.computed) === method
  );
}

/** The object `Object.assign` merges into (`Object.assign(KEYS, overrides)`). */
export function isAssignTarget(node: TSESTree.Node): boolean {
  const call = node.parent;
  return call?.type === AST_NODE_TYPES.CallExpression && call.arguments[0] === node && isObjectAssign(call.callee);
}

/** A member expression that is assigned, updated or deleted. */
export function isWritten(member: TSESTree.Node): boolean {
  const parent = member.parent;
  return (
    (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === member) ||
    parent?.type === AST_NODE_TYPES.UpdateExpression ||
    (parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'delete')
  );
}

/** The value of a property of an object literal, when no spread after it may replace it. */
export function ownProperty(object: TSESTree.ObjectExpression, name: string): TSESTree.Node | undefined {
  let found: TSESTree.Node | undefined;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) found = undefined;
    else if (propertyName(property.key, property.computed) === name) found = property.value;
  }
  return found;
}

/** A `const`, or a `let` / `var` whose declaration is its only write. */
export function assignedOnce(variable: TSESLint.Scope.Variable, id: TSESTree.Identifier): boolean {
  const declaration = id.parent?.parent;
  if (declaration?.type === AST_NODE_TYPES.VariableDeclaration && declaration.kind === 'const') return true;
  if (variable.defs[0]?.type === 'Variable' && variable.defs[0].parent?.kind === 'const') return true;
  return variable.defs.length === 1 && variable.references.every((reference) => !reference.isWrite() || reference.identifier === id);
}

/** The statement declaring a variable (`const X = ...;`, or `export const X = ...;`). */
export function declarationStatement(declarator: TSESTree.VariableDeclarator): TSESTree.Node {
  const declaration = declarator.parent;
  return exportedStatement(declaration);
}

export function exportedStatement(node: TSESTree.Node): TSESTree.Node {
  return node.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration || node.parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration
    ? node.parent
    : node;
}

/** `Object.assign` (the global). */
export function isObjectAssign(callee: TSESTree.Node): boolean {
  const bare = unwrap(callee);
  return (
    bare.type === AST_NODE_TYPES.MemberExpression &&
    bare.object.type === AST_NODE_TYPES.Identifier &&
    bare.object.name === 'Object' &&
    propertyName(bare.property, bare.computed) === 'assign'
  );
}

