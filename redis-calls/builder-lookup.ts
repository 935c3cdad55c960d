/**
 * Which function a key is built by: the function a call of a key expression names, found without
 * evaluating it (`redis-calls/key-shape.ts` then evaluates its returned expression with the call's
 * arguments). A function or `const` arrow of the module, a method or arrow field of the enclosing
 * class ({@link keyBuilder}); a static builder of a class ({@link staticBuilder}); a builder of
 * another module of the repository, of a namespace import, of a const object literal, of a
 * key-builder class instance, or a pre-class prototype method ({@link foreignKeyBuilder}); and
 * the module's functions by the name they are called by ({@link functionsByName}).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { classOfStaticThis, staticMember, type ClassNode } from './class-statics.js';
import { assignedOnce, containerOf, declarationStatement, exportedStatement, memberOf } from './containers.js';
import { asFunction, classMethod, classNamed, classOf, instanceClass } from './key-builders.js';
import { findExport, importedBinding, moduleContext, namespaceModule, type ImportedModule } from './modules.js';
import { enclosingFunction, findVariable, functionName, propertyName, unwrap, walk, type AnyContext, type FunctionLike } from './static.js';

/** How many aliases of an exported builder are followed. */
const MAX_DEPTH = 8;

/**
 * The key builder a static member of a class is (`static key(id) { return `tx:${id}`; }`, `static
 * key = (id) => `tx:${id}``), when the class fixes it and its body is one returned expression
 * ({@link asFunction}); `undefined` otherwise.
 */
export function staticBuilder(context: AnyContext, cls: ClassNode, name: string): { fn: FunctionLike; declaration: TSESTree.Node } | undefined {
  const member = staticMember(context, cls, name);
  if (!member) return undefined;
  const fn = member.method ? asFunction(member.method) : member.values.length === 1 ? asFunction(member.values[0]) : undefined;
  return fn ? { fn, declaration: member.declaration ?? fn } : undefined;
}

/**
 * A key builder {@link keyBuilder} does not find, with the context it is read in: a function
 * imported from another module of the repository (`import { genAuthPermKey } from
 * '~/helper/genRedisKey'`, re-exports followed), one of a namespace import (`keys.userKey(id)`),
 * or a function held in a const object literal, here or imported (`KEYS.user(id)` of `const KEYS
 * = { user: (id) => `u:${id}` }`, or of `{ user: userKey }` / `{ USER_USD }` naming a builder of
 * the object's module). `own` when it is written in the linted file.
 */
export function foreignKeyBuilder(
  context: AnyContext,
  callee: TSESTree.Node,
  depth: number,
): { fn: FunctionLike; declaration: TSESTree.Node; context: AnyContext; own: boolean } | undefined {
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(context, callee)?.defs[0];
    const isImport = def?.type === 'ImportBinding' || (def?.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.ObjectPattern);
    const imported = isImport ? importedBinding(context, callee) : undefined;
    const found = imported ? findExport(imported.module, imported.name) : undefined;
    return found ? exportedBuilder(context, found, depth) : undefined;
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = propertyName(callee.property, callee.computed);
  const object = unwrap(callee.object);
  if (name === undefined) return undefined;
  const method = prototypeMethod(context, object, name);
  if (method) return { ...method, context, own: true };
  // this.keys.buildSplitKey(name) of `this.keys = new KeyBuilder(prefix)`: the class's method
  const instance = instanceClass(context, object, depth);
  const instanceMethod = instance ? classMethod(instance.context, instance.cls, name, depth) : undefined;
  if (instanceMethod) return { ...instanceMethod, own: instanceMethod.context === context };
  if (object.type === AST_NODE_TYPES.ThisExpression) return undefined;
  if (object.type === AST_NODE_TYPES.Identifier) {
    // TransactionDB.detailsKey(id): a static builder of a class of the module
    const variable = findVariable(context, object);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    const cls = def ? classOf(variable!, def) : undefined;
    const builder = cls ? staticBuilder(context, cls, name) : undefined;
    if (builder) return { ...builder, context, own: true };
    const foreignStatic = cls ? undefined : importedStaticBuilder(context, object, name, depth);
    if (foreignStatic) return foreignStatic;
    const namespace = namespaceModule(context, object);
    const found = namespace ? findExport(namespace, name) : undefined;
    const exported = found ? exportedBuilder(context, found, depth) : undefined;
    if (exported) return exported;
  }
  const container = containerOf(context, object, depth + 1);
  if (container?.node.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const { value, mutated } = memberOf(container, name);
  const fn = mutated ? undefined : asFunction(value);
  if (value && fn) return { fn, declaration: value, context: container.context, own: !container.imported };
  // `export const redisKeys = { USER_USD }` (or `{ user: userKey }`): the member names a builder
  // of the object's module, read there as a call of that name would be
  const alias = value && !mutated ? unwrap(value) : undefined;
  if (alias?.type !== AST_NODE_TYPES.Identifier || depth > MAX_DEPTH) return undefined;
  const local = keyBuilder(container.context, alias);
  if (local) return { ...local, context: container.context, own: !container.imported };
  const aliased = foreignKeyBuilder(container.context, alias, depth + 1);
  return aliased && { ...aliased, own: aliased.own && !container.imported };
}

/**
 * A static key builder of a class another module of the repository exports, read there:
 * `QueryBuilder.messages(chatId)` of `import QueryBuilder from '@/lib/queryBuilder'` (a default or
 * named import, or a destructured `require`), whose `static messages(id) { return ...; }` is one
 * returned expression ({@link staticBuilder}). `undefined` for a binding that is no import, or a
 * class that does not fix the member.
 */
function importedStaticBuilder(
  context: AnyContext,
  object: TSESTree.Identifier,
  name: string,
  depth: number,
): { fn: FunctionLike; declaration: TSESTree.Node; context: AnyContext; own: boolean } | undefined {
  const def = findVariable(context, object)?.defs[0];
  const isImport = def?.type === 'ImportBinding' || (def?.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.ObjectPattern);
  if (!isImport || depth > MAX_DEPTH) return undefined;
  const found = classNamed(context, object, depth + 1);
  const builder = found ? staticBuilder(found.context, found.cls, name) : undefined;
  return builder && found ? { ...builder, context: found.context, own: false } : undefined;
}

/**
 * The key builder another module exports, read there: a function, or a `const` naming another
 * builder (`export const buildAuditStreamKey: KeyBuilder = auditStreamKey`, itself imported or
 * written in that module), a few aliases deep.
 */
function exportedBuilder(
  context: AnyContext,
  found: { module: ImportedModule; node: TSESTree.Node },
  depth: number,
): { fn: FunctionLike; declaration: TSESTree.Node; context: AnyContext; own: boolean } | undefined {
  const there = moduleContext(context, found.module);
  const fn = asFunction(found.node);
  if (fn) return { fn, declaration: found.node, context: there, own: false };
  const alias = unwrap(found.node);
  if (alias.type !== AST_NODE_TYPES.Identifier || depth > MAX_DEPTH) return undefined;
  const local = keyBuilder(there, alias);
  const aliased = local ? { ...local, context: there } : foreignKeyBuilder(there, alias, depth + 1);
  return aliased && { ...aliased, own: false };
}




/**
 * A method of the instance written the pre-class way, called on `this` or on an alias of it
 * (`_this` of an IIFE called with `this`, as CoffeeScript and Babel emit it; `var self = this`)
 * inside another such method: `C.prototype.whitelistKey = function () { ... }` assigned in the
 * same block as the method the call is in (`C.prototype.whitelist = function () {
 * _this.whitelistKey() }`). Its `this` is the same instance.
 */
function prototypeMethod(context: AnyContext, object: TSESTree.Node, name: string): { fn: FunctionLike; declaration: TSESTree.Node } | undefined {
  let from: TSESTree.Node = object;
  if (object.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context, object);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type === 'Parameter' && (def.node.type === AST_NODE_TYPES.FunctionExpression || def.node.type === AST_NODE_TYPES.ArrowFunctionExpression)) {
      // (function (_this) { ... })(this)
      const call = def.node.parent;
      const index = def.node.params.indexOf(def.name as TSESTree.Parameter);
      if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== def.node || index < 0 || call.arguments[index]?.type !== AST_NODE_TYPES.ThisExpression) return undefined;
      from = call;
    } else if (def?.type === 'Variable' && def.node.init?.type === AST_NODE_TYPES.ThisExpression && def.node.id.type === AST_NODE_TYPES.Identifier && assignedOnce(variable!, def.node.id)) {
      from = def.node;
    } else {
      return undefined;
    }
  } else if (object.type !== AST_NODE_TYPES.ThisExpression) {
    return undefined;
  }
  // the method `this` is bound by: the nearest function that is not an arrow
  let fn: TSESTree.Node | undefined = from.parent;
  while (fn && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.FunctionDeclaration) fn = fn.parent;
  const assignment = fn?.parent;
  if (fn?.type !== AST_NODE_TYPES.FunctionExpression || assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.right !== fn) return undefined;
  const owner = prototypeOwner(assignment.left);
  const block = assignment.parent?.parent;
  if (owner === undefined || (block?.type !== AST_NODE_TYPES.BlockStatement && block?.type !== AST_NODE_TYPES.Program)) return undefined;
  for (const statement of block.body) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.AssignmentExpression) continue;
    const { left, right } = statement.expression;
    if (left.type !== AST_NODE_TYPES.MemberExpression || propertyName(left.property, left.computed) !== name || prototypeOwner(left) !== owner) continue;
    const value = unwrap(right);
    if (value.type === AST_NODE_TYPES.FunctionExpression) return { fn: value, declaration: statement };
  }
  return undefined;
}

/** `C.prototype.m` -> `C`. */
function prototypeOwner(target: TSESTree.Node): string | undefined {
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.object.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const proto = target.object;
  return proto.object.type === AST_NODE_TYPES.Identifier && propertyName(proto.property, proto.computed) === 'prototype' ? proto.object.name : undefined;
}

/**
 * A function of this module a key is built with: `f(...)` of a function or `const` arrow of the
 * module, `this.m(...)` of a method or class-field arrow (`ns = (key) => ...`) of the enclosing class.
 */
export function keyBuilder(context: AnyContext, callee: TSESTree.Node): { fn: FunctionLike; declaration: TSESTree.Node } | undefined {
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context, callee);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (!def) return undefined;
    if (def.type === 'FunctionName' && def.node.type === AST_NODE_TYPES.FunctionDeclaration && def.node.body) {
      return { fn: def.node, declaration: exportedStatement(def.node) };
    }
    if (def.type === 'Variable' && def.parent?.kind === 'const' && def.node.init) {
      const init = unwrap(def.node.init);
      if (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression) {
        return { fn: init, declaration: declarationStatement(def.node) };
      }
    }
    return undefined;
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.property.type !== AST_NODE_TYPES.Identifier) {
    return undefined;
  }
  const name = callee.property.name;
  const object = unwrap(callee.object);
  if (object.type === AST_NODE_TYPES.ThisExpression) {
    // this.key(id) in a static method or a static arrow: the class's static builder
    const statics = classOfStaticThis(object);
    if (statics) return staticBuilder(context, statics, name);
    for (let current: TSESTree.Node | undefined = callee.parent; current; current = current.parent) {
      if (current.type !== AST_NODE_TYPES.ClassBody) continue;
      for (const element of current.body) {
        if (
          element.type === AST_NODE_TYPES.MethodDefinition &&
          element.kind === 'method' &&
          !element.static &&
          !element.computed &&
          element.key.type === AST_NODE_TYPES.Identifier &&
          element.key.name === name &&
          element.value.body
        ) {
          return { fn: element.value, declaration: element };
        }
        // ns = (key) => `${this.namespace}:${key}`: a builder written as a class field
        if (
          element.type === AST_NODE_TYPES.PropertyDefinition &&
          !element.static &&
          !element.computed &&
          element.key.type === AST_NODE_TYPES.Identifier &&
          element.key.name === name &&
          element.value
        ) {
          const value = unwrap(element.value);
          if (value.type === AST_NODE_TYPES.ArrowFunctionExpression || value.type === AST_NODE_TYPES.FunctionExpression) return { fn: value, declaration: element };
        }
      }
      return undefined;
    }
  }
  return undefined;
}

const functionsCache = new WeakMap<TSESTree.Program, ReadonlyMap<string, readonly FunctionLike[]>>();

/**
 * The name a function is called by: a declaration's, a method's or property's key, a variable's,
 * or the member it is assigned to (`C.prototype.m = function`, `exports.m = ...`).
 */
export function calledName(fn: FunctionLike): string | undefined {
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === fn && parent.left.type === AST_NODE_TYPES.MemberExpression && parent.left.property.type === AST_NODE_TYPES.Identifier) {
    return parent.left.property.name;
  }
  return functionName(fn);
}

/** The module's functions by the name they are called by ({@link calledName}; a name may be several methods), read once per file. */
export function functionsByName(context: AnyContext): ReadonlyMap<string, readonly FunctionLike[]> {
  const program = context.sourceCode.ast;
  let byName = functionsCache.get(program);
  if (!byName) {
    const map = new Map<string, FunctionLike[]>();
    walk(context, program, (node) => {
      if (node.type !== AST_NODE_TYPES.FunctionDeclaration && node.type !== AST_NODE_TYPES.FunctionExpression && node.type !== AST_NODE_TYPES.ArrowFunctionExpression) return;
      const name = calledName(node);
      if (name === undefined) return;
      const same = map.get(name);
      if (same) same.push(node);
      else map.set(name, [node]);
    });
    byName = map;
    functionsCache.set(program, byName);
  }
  return byName;
}

/** The innermost enclosing function that has a name (a callback belongs to its named function). */
export function namedFunctionOf(node: TSESTree.Node): FunctionLike | undefined {
  for (let fn = enclosingFunction(node); fn; fn = enclosingFunction(fn)) {
    if (calledName(fn as FunctionLike) !== undefined) return fn as FunctionLike;
  }
  return undefined;
}
