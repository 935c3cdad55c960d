/**
 * Whether a method of a class may be replaced by a subclass: `this.tier()` in `Base` runs the
 * subclass's `tier()` on an instance of `class Pools extends Base { tier() { return id; } }`, so
 * what `Base.tier` returns says nothing of the call's value. A method that returns only literals
 * (`redis-calls/process-fixed.ts`) is one of a few values only when no subclass overrides it.
 *
 * Looked for: the classes of the method's own file that extend its class (directly, or through
 * other classes of the file), and, when the class is exported, the classes of the modules that
 * import it (`redis-calls/importers.ts`'s bounded walk: by depth and count) that extend it by its
 * imported name, each declaring a member of the same name (a method, an accessor or a field, of
 * the same staticness). A `private` or `#private` method cannot be overridden (TypeScript rejects a
 * subclass's member of that name). Also overridden: a class extending an expression that names the
 * class (`Logged(Pools)`, `ns.Pools`) or a `const` alias of it, in an importer any class declaring
 * the member whose `extends` is a project import (a barrel may rename the class: `export { Pools as
 * BasePools }`) or not a plain identifier, and a replacement of the member outside class bodies
 * in the file or an importer (`Pools.prototype.tier = ...`, `this.tier = tier`, `pool.tier = ...`,
 * `Object.assign(Pools.prototype, ...)`). Cached per class and name for the lint run.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { isAbsolute } from 'node:path';
import type { ClassNode } from './class-statics.js';
import { walkImporters } from './importers.js';
import { fileOfNode, loadModule, moduleContext, readModule, specifierOf } from './modules.js';
import { findVariable, propertyName, walkParsed, type AnyContext } from './static.js';

type Definition = NonNullable<ReturnType<typeof findVariable>>['defs'][number];

const verdicts = new WeakMap<ClassNode, Map<string, boolean>>();
const classesCache = new WeakMap<TSESTree.Program, ClassNode[]>();

/**
 * Whether `method` (a method of `cls`) may be overridden by a subclass: a class of its file or of
 * a module importing it that extends `cls` (in the file also through other classes) and declares a
 * member of the same name and staticness. `false` for a `private` or `#private` method.
 * @param context the rule context of the file `cls` is written in
 */
export function methodOverridden(context: AnyContext, cls: ClassNode, method: TSESTree.MethodDefinition): boolean {
  if (method.accessibility === 'private' || method.key.type === AST_NODE_TYPES.PrivateIdentifier) return false;
  const name = propertyName(method.key, method.computed);
  if (name === undefined) return true;
  const key = `${method.static ? 'static ' : ''}${name}`;
  let byName = verdicts.get(cls);
  if (!byName) verdicts.set(cls, (byName = new Map()));
  let verdict = byName.get(key);
  if (verdict === undefined) {
    verdict = overriddenInFile(context, cls, name, method.static) || overriddenByImporters(context, cls, name, method.static);
    byName.set(key, verdict);
  }
  return verdict;
}

/** Whether a class declares a member `name` of that staticness (a method, an accessor or a field). */
function declares(cls: ClassNode, name: string, isStatic: boolean): boolean {
  return cls.body.body.some(
    (element) =>
      (element.type === AST_NODE_TYPES.MethodDefinition || element.type === AST_NODE_TYPES.PropertyDefinition || element.type === AST_NODE_TYPES.TSAbstractMethodDefinition) &&
      element.static === isStatic &&
      propertyName(element.key, element.computed) === name,
  );
}

/** The classes of a program (declarations and expressions, nested ones too). */
function classesOf(program: TSESTree.Program): ClassNode[] {
  const cached = classesCache.get(program);
  if (cached) return cached;
  const out: ClassNode[] = [];
  classesCache.set(program, out);
  walkParsed(program, (node) => {
    if (node.type === AST_NODE_TYPES.ClassDeclaration || node.type === AST_NODE_TYPES.ClassExpression) out.push(node);
  });
  return out;
}

/** The class a `superClass` identifier of this file names (`class B extends A`, `const A = class {}`, `const Base = A`). */
function superClassOf(context: AnyContext, cls: ClassNode): ClassNode | undefined {
  let superClass: TSESTree.Node | null = cls.superClass;
  for (let hop = 0; superClass?.type === AST_NODE_TYPES.Identifier && hop < 4; hop++) {
    const def: Definition | undefined = findVariable(context, superClass)?.defs[0];
    if (def?.type === 'ClassName') return def.node as ClassNode;
    if (def?.type !== 'Variable' || !def.node.init) return undefined;
    if (def.node.init.type === AST_NODE_TYPES.ClassExpression) return def.node.init;
    superClass = def.node.init;
  }
  return undefined;
}

/**
 * Whether a class's `extends` clause is an expression that may build on `cls` without naming a
 * class of the file: a mixin call (`Logged(Pools)`), a member (`ns.Pools`), anything but a plain
 * identifier, when its text names `cls`.
 */
function mayExtendThrough(context: AnyContext, candidate: ClassNode, cls: ClassNode): boolean {
  const superClass = candidate.superClass;
  if (!superClass || superClass.type === AST_NODE_TYPES.Identifier || !cls.id) return false;
  return new RegExp(`\\b${cls.id.name}\\b`).test(context.sourceCode.getText(superClass));
}

/**
 * Whether the program replaces a member `name` outside class bodies: an assignment of a value
 * that may be a function (`Pools.prototype.tier = function ...`, `this.tier = tier` in a
 * constructor, `pool.tier = () => id`; not a literal), or `Object.assign` / `Object.defineProperty`
 * onto a `prototype` or naming the member (`Object.assign(Pools.prototype, { tier })`).
 */
function replacedByAssignment(program: TSESTree.Program, text: string, name: string): boolean {
  if (!text.includes(name)) return false;
  let replaced = false;
  walkParsed(program, (node) => {
    if (replaced) return 'stop';
    if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.MemberExpression && propertyName(node.left.property, node.left.computed) === name) {
      const right = node.right;
      if (right.type !== AST_NODE_TYPES.Literal && right.type !== AST_NODE_TYPES.TemplateLiteral) replaced = true;
    }
    if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression && node.callee.object.type === AST_NODE_TYPES.Identifier && node.callee.object.name === 'Object') {
      const method = propertyName(node.callee.property, node.callee.computed);
      if (method === 'assign' || method === 'defineProperty' || method === 'defineProperties') {
        const [target, ...rest] = node.arguments;
        const onPrototype = target?.type === AST_NODE_TYPES.MemberExpression && propertyName(target.property, target.computed) === 'prototype';
        const names = rest.some(
          (arg) =>
            arg.type === AST_NODE_TYPES.ObjectExpression
              ? arg.properties.some((p) => p.type !== AST_NODE_TYPES.Property || p.computed || propertyName(p.key, false) === name)
              : // an object of unknown members copied onto an existing one (not a fresh `{}`)
                target?.type !== AST_NODE_TYPES.ObjectExpression && arg.type !== AST_NODE_TYPES.Literal,
        );
        const literalName = rest.some((arg) => arg.type === AST_NODE_TYPES.Literal && arg.value === name);
        if (onPrototype || names || literalName) replaced = true;
      }
    }
    return undefined;
  });
  return replaced;
}

function overriddenInFile(context: AnyContext, cls: ClassNode, name: string, isStatic: boolean): boolean {
  let program: TSESTree.Node = cls;
  while (program.parent) program = program.parent;
  if (program.type !== AST_NODE_TYPES.Program) return false;
  // replaced on the prototype, an instance or `this` (a strategy passed to the constructor)
  if (replacedByAssignment(program, context.sourceCode.text, name)) return true;
  return classesOf(program).some((candidate) => {
    if (candidate === cls || !declares(candidate, name, isStatic)) return false;
    // up the chain of the file's classes, a few levels
    let current: ClassNode | undefined = candidate;
    for (let depth = 0; current && depth < 8; depth++) {
      if (mayExtendThrough(context, current, cls)) return true;
      current = superClassOf(context, current);
      if (current === cls) return true;
    }
    return false;
  });
}

/** The name `cls` is exported under when its module exports it (`export class A`, `export default class A`, `export { A }`). */
function exportedNames(cls: ClassNode): string[] {
  const parent = cls.parent;
  if (parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return ['default', ...(cls.id ? [cls.id.name] : [])];
  if (!cls.id) return [];
  if (parent?.type === AST_NODE_TYPES.ExportNamedDeclaration) return [cls.id.name];
  const program = parent?.type === AST_NODE_TYPES.Program ? parent : undefined;
  if (!program) return [];
  const local = cls.id.name;
  const names: string[] = [];
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ExportDefaultDeclaration && statement.declaration.type === AST_NODE_TYPES.Identifier && statement.declaration.name === local) names.push('default');
    if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration || statement.source) continue;
    for (const specifier of statement.specifiers) {
      if (specifier.local.type === AST_NODE_TYPES.Identifier && specifier.local.name === local) names.push(propertyName(specifier.exported, false) ?? local);
    }
  }
  return names;
}

function overriddenByImporters(context: AnyContext, cls: ClassNode, name: string, isStatic: boolean): boolean {
  const exported = exportedNames(cls);
  if (exported.length === 0) return false;
  const file = fileOfNode(context, cls);
  if (!file || !isAbsolute(file)) return false;
  const own = context.physicalFilename ?? context.filename;
  return walkImporters([file], (path) => {
    if (path === file) return 'passed';
    const text = readModule(own, specifierOf(own, path))?.entry.text;
    // a cheap look first: a subclass or a replacement names the member
    if (text === undefined || !text.includes(name)) return 'passed';
    const module = loadModule(context, specifierOf(own, path));
    if (!module) return 'passed';
    const at = moduleContext(context, module);
    // the module imports the class (maybe through barrels): a replacement of the member there
    // (`Pools.prototype.tier = ...`, `pool.tier = ...`, `Object.assign(Pools.prototype, ...)`)
    if (replacedByAssignment(module.program, text, name)) return 'found';
    const found = classesOf(module.program).some((candidate) => {
      const superClass = candidate.superClass;
      if (!superClass || !declares(candidate, name, isStatic)) return false;
      // a mixin (`Logged(Pools)`), a namespace member (`ns.Pools`): may be the class
      if (superClass.type !== AST_NODE_TYPES.Identifier) return true;
      let def: Definition | undefined = findVariable(at, superClass)?.defs[0];
      // `const Base = Pools` then `extends Base`
      for (let hop = 0; def?.type === 'Variable' && def.node.init?.type === AST_NODE_TYPES.Identifier && hop < 4; hop++) def = findVariable(at, def.node.init)?.defs[0];
      if (def?.type === 'Variable') return def.node.init?.type !== AST_NODE_TYPES.ClassExpression;
      if (def?.type !== 'ImportBinding') return false;
      const specifier = def.node;
      const imported =
        specifier.type === AST_NODE_TYPES.ImportDefaultSpecifier ? 'default' : specifier.type === AST_NODE_TYPES.ImportSpecifier ? propertyName(specifier.imported, false) : undefined;
      // its own name, or a name a barrel of the walk may re-export it under (`export { Pools as
      // BasePools }`): any relative import but a package's
      return imported !== undefined && (exported.includes(imported) || (def.parent.type === AST_NODE_TYPES.ImportDeclaration && !isPackageSpecifier(def.parent.source.value)));
    });
    return found ? 'found' : 'read';
  });
}

/** A bare package specifier (`react`, `@nestjs/common`), not a path or an alias of the project (`./x`, `../x`, `@/x`, `~/x`, `#x`). */
function isPackageSpecifier(specifier: string): boolean {
  return !/^(?:\.|\/|@\/|~\/|#)/.test(specifier);
}
