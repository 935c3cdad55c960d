/**
 * What a call of the code may run, for the facade reader (`redis-calls/facades.ts`): the function
 * a callee names (a function of the module, one another module of the code exports, a method of
 * the class or object a receiver is, inherited from a class it extends, or of every class of the
 * code implementing the interface a declared type stands for), and the class instance or object
 * literal a receiver holds ({@link holderOf}: `new C()`, `this`, an annotated binding or member,
 * a member a superclass declares, what a function of the code returns). Split from facades.ts
 * along its sections; behaviour unchanged.
 */
import { isAbsolute, resolve } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { classOfThis, forEachThisWrite, instanceMember } from './bounded.js';
import { classOfStaticThis } from './class-statics.js';
import { codeClassNamed, inheritedMemberType } from './inherited-members.js';
import type { ClientDetector } from './clients.js';
import { clientDetectorOf } from './index.js';
import { loadModule, moduleContext, readModule, specifierOf } from './modules.js';

export { specifierOf };
import { walkImporters } from './importers.js';
import { packageFiles, packageOf } from './project.js';
import { constInitializer, findVariable, propertyName, returnedExpressions, unwrap, type AnyContext, type FunctionLike } from './static.js';
import { passedOnExport } from './module-methods.js';
import { eggServiceModule } from './application-members.js';

/** An absolute path, resolved (a module read twice is one file). */
export function resolvePath(path: string): string {
  return resolve(path);
}

/** A function definition with the context of the module it is written in. */
export interface Target {
  fn: FunctionLike;
  context: AnyContext;
}

/** `incr(key)`: a function of this module, or one another module of the code exports. */
export function functionNamed(detector: ClientDetector, callee: TSESTree.Identifier): Target | undefined {
  const local = asFunction(detector.functionOf(callee));
  if (local) return { fn: local, context: detector.contextOf };
  const origin = detector.identifierOrigin(callee);
  if (origin.kind !== 'import' || !origin.own) return undefined;
  return exportedFunction(detector.exported(origin));
}

/** The function another module exports (`export function incr`, `export const incr = ...`, `module.exports.incr = ...`). */
function exportedFunction(exported: { node: TSESTree.Node; detector: ClientDetector } | undefined): Target | undefined {
  if (!exported) return undefined;
  const node = unwrap(exported.node);
  const fn = node.type === AST_NODE_TYPES.Identifier ? asFunction(exported.detector.functionOf(node)) : asFunction(node);
  return fn ? { fn, context: exported.detector.contextOf } : undefined;
}

/**
 * The functions `x.sadd(...)` may run: the method of the class or object `x` is (inherited from
 * a class it extends too), or the function of the module namespace `x` names; and when `x` is
 * known by its declared type alone (an annotation, a constructor parameter's type), the method of
 * every class of the code that implements an interface that type is or implements
 * ({@link implementationsOf}): `backend: ICacheBackend` may hold the Redis backend, a
 * dependency-injection token `cache: Cache` (`class Cache extends LocalCache`, `LocalCache
 * implements ICache`) any `ICache` the container provides. The receiver's own method comes first.
 */
export function methodTargets(detector: ClientDetector, callee: TSESTree.MemberExpression, name: string): Target[] {
  const object = unwrap(callee.object);
  let holder: Holder | undefined;
  if (object.type === AST_NODE_TYPES.Identifier) {
    const origin = detector.identifierOrigin(object);
    // import * as cache from './cache'; const cache = require('./cache')
    if (origin.kind === 'import' && origin.own && (origin.namespace || origin.imported === undefined)) {
      const found = exportedFunction(detector.exported({ ...origin, namespace: undefined, imported: name }));
      if (found || origin.namespace) return found ? [found] : [];
      // const util = require('./redis_util') of a module whose `module.exports = new RedisUtil()`:
      // the method of the instance the module exports as a whole
      const whole = detector.exported({ ...origin, imported: 'default' });
      holder = whole ? holderOf(whole.detector, whole.node, 1) : undefined;
      if (!holder) return [];
    }
    // const { redisSetter } = require('./redis') of a module exporting `{ redisSetter:
    // require('./redisSetter') }`: the function the module it passes on exports
    if (origin.kind === 'import' && origin.own) {
      const found = exportedFunction(passedOnExport(detector, origin, name));
      if (found) return [found];
    }
  }
  // `RedisHelper.incr(key)`, `this.incr(key)` in a static method: the class's static method
  if (!holder) {
    const statics = staticHolder(detector, object);
    if (statics) {
      const fn = inheritedStaticMethod(statics, name, 0);
      return fn ? [fn] : [];
    }
  }
  holder ??= holderOf(detector, object, 0);
  if (!holder) return [];
  if (holder.node.type === AST_NODE_TYPES.ObjectExpression) {
    const fn = propertyFunction(holder.node, name);
    return fn ? [{ fn, context: holder.detector.contextOf }] : [];
  }
  const targets: Target[] = [];
  const own = holder.node.type === AST_NODE_TYPES.TSInterfaceDeclaration ? undefined : inheritedMethod({ node: holder.node, detector: holder.detector }, name, 0);
  if (own) targets.push(own);
  if (holder.declared) {
    for (const contract of contractsOf(holder, name, 0)) {
      for (const implementation of implementationsOf(holder.detector.contextOf, contract)) {
        const fn = inheritedMethod(implementation, name, 0);
        if (fn && !targets.some((t) => sameFunction(t, fn))) targets.push(fn);
      }
    }
  }
  return targets;
}

/** Whether two targets are one function (the same node, or the same range of the same file read twice). */
function sameFunction(a: Target, b: Target): boolean {
  if (a.fn === b.fn) return true;
  const file = (t: Target): string => resolvePath(t.context.physicalFilename ?? t.context.filename);
  return file(a) === file(b) && a.fn.range[0] === b.fn.range[0] && a.fn.range[1] === b.fn.range[1];
}

/** A class with the detector of its module. */
interface ClassHolder {
  node: TSESTree.ClassDeclaration | TSESTree.ClassExpression;
  detector: ClientDetector;
}

/**
 * The class a receiver names itself, not an instance of it: an identifier bound to a class of the
 * code (`RedisHelper` declared in the module, or imported from another module of the code, or a
 * `const` holding one: `const H = RedisHelper`), or
 * `this` in a static context of a class (a static method, a static field's initializer). A call
 * on it runs the class's static method.
 */
function staticHolder(detector: ClientDetector, object: TSESTree.Node, depth = 0): ClassHolder | undefined {
  if (object.type === AST_NODE_TYPES.ThisExpression) {
    const cls = classOfStaticThis(object);
    return cls ? { node: cls, detector } : undefined;
  }
  if (object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const found = classNamed(detector, object, 0);
  if (found && (found.node.type === AST_NODE_TYPES.ClassDeclaration || found.node.type === AST_NODE_TYPES.ClassExpression)) return { node: found.node, detector: found.detector };
  // `const H = RedisHelper; H.incr(k)`: the class the const holds, as `const h = helper` holds an instance
  const init = depth < 4 ? constInitializer(detector.contextOf, object) : undefined;
  return init && unwrap(init).type === AST_NODE_TYPES.Identifier ? staticHolder(detector, unwrap(init), depth + 1) : undefined;
}

/** The static method `name` of a class, or of the class it extends (a few levels): `static incr(key) {...}`. */
function inheritedStaticMethod(holder: ClassHolder, name: string, depth: number): Target | undefined {
  const fn = classMethod(holder.node, name, true);
  if (fn) return { fn, context: holder.detector.contextOf };
  const parent = depth < 4 ? superClass(holder) : undefined;
  return parent ? inheritedStaticMethod(parent, name, depth + 1) : undefined;
}

/** The method `name` of a class, or of the class it extends (a few levels). */
function inheritedMethod(holder: ClassHolder, name: string, depth: number): Target | undefined {
  const fn = classMethod(holder.node, name);
  if (fn) return { fn, context: holder.detector.contextOf };
  const parent = depth < 4 ? superClass(holder) : undefined;
  return parent ? inheritedMethod(parent, name, depth + 1) : undefined;
}

/** The class a class extends, when the code declares it (`extends LocalCache`). */
function superClass(holder: ClassHolder): ClassHolder | undefined {
  const parent = holder.node.superClass && unwrap(holder.node.superClass);
  const found = parent?.type === AST_NODE_TYPES.Identifier ? classNamed(holder.detector, parent, 0) : undefined;
  return found && found.node.type !== AST_NODE_TYPES.TSInterfaceDeclaration && found.node.type !== AST_NODE_TYPES.ObjectExpression ? { node: found.node, detector: found.detector } : undefined;
}

/** An interface of the code (or an abstract class declaring the method abstract), known by its file and position (a module read twice is one interface). */
interface Contract {
  file: string;
  name: string;
  start: number;
}

/**
 * The interfaces a declared type stands for that declare the method `name`: the interface itself,
 * or those a class implements (`implements ICache`), or a class it extends does, or an abstract
 * class declaring the method abstract (its subclasses are its implementations).
 */
export function contractsOf(holder: Holder, name: string, depth: number): Contract[] {
  if (holder.node.type === AST_NODE_TYPES.ObjectExpression) return [];
  if (holder.node.type === AST_NODE_TYPES.TSInterfaceDeclaration) {
    const declares = holder.node.body.body.some(
      (member) => (member.type === AST_NODE_TYPES.TSMethodSignature || member.type === AST_NODE_TYPES.TSPropertySignature) && propertyName(member.key, member.computed) === name,
    );
    const file = holder.detector.contextOf.physicalFilename ?? holder.detector.contextOf.filename;
    return declares ? [{ file: resolvePath(file), name: holder.node.id.name, start: holder.node.range[0] }] : [];
  }
  const out: Contract[] = [];
  for (const clause of holder.node.implements ?? []) {
    const id = unwrap(clause.expression);
    const found = id.type === AST_NODE_TYPES.Identifier ? classNamed(holder.detector, id, 0) : undefined;
    if (found?.node.type === AST_NODE_TYPES.TSInterfaceDeclaration) out.push(...contractsOf(found, name, depth + 1));
  }
  const parent = depth < 4 ? superClass({ node: holder.node, detector: holder.detector }) : undefined;
  if (parent) out.push(...contractsOf({ ...parent }, name, depth + 1));
  // an abstract class declaring the method abstract (a dependency-injection token: `constructor(
  // private cache: CacheService)`, `class RedisCache extends CacheService`): a contract its
  // subclasses fulfil, as an interface is one its implementers do
  const abstract = holder.node.body.body.some((member) => member.type === AST_NODE_TYPES.TSAbstractMethodDefinition && propertyName(member.key, member.computed) === name);
  if (abstract && holder.node.id) {
    const file = holder.detector.contextOf.physicalFilename ?? holder.detector.contextOf.filename;
    out.push({ file: resolvePath(file), name: holder.node.id.name, start: holder.node.range[0] });
  }
  return out;
}

/** Classes implementing each interface, per package listing (reused as long as the listing is). */
const implementers = new Map<string, { files: readonly string[]; classes: ClassHolder[] }>();

/**
 * The classes of the linted file's package that implement `contract` (`class RedisCache implements
 * Cache`, the interface resolved where it is declared), found in the interface's module and the
 * modules importing it, directly or through at most four more (`redis-calls/importers.ts`, bounded
 * by count), whose text says `implements ... <name>`. None when the package cannot be listed.
 */
function implementationsOf(context: AnyContext, contract: Contract): ClassHolder[] {
  const file = context.physicalFilename ?? context.filename;
  if (!file || !isAbsolute(file)) return [];
  const info = packageOf(file);
  const files = info && packageFiles(info.root);
  if (!files) return [];
  const key = `${info!.root}\0${contract.file}\0${contract.start}`;
  const cached = implementers.get(key);
  if (cached && cached.files === files) return cached.classes;
  const classes: ClassHolder[] = [];
  const name = contract.name.replace(/[^\w$]/g, '\\$&');
  const mention = new RegExp(`\\bimplements\\b[^{]*\\b${name}\\b|\\bextends\\s+${name}\\b`);
  walkImporters([contract.file], (path) => {
    const specifier = specifierOf(file, path);
    const text = readModule(file, specifier)?.entry.text;
    if (text === undefined || !mention.test(text)) return 'passed';
    const module = loadModule(context, specifier);
    if (!module) return 'passed';
    const detector = clientDetectorOf(moduleContext(context, module));
    for (const statement of module.program.body) {
      const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration ? statement.declaration : statement;
      if (declaration?.type !== AST_NODE_TYPES.ClassDeclaration) continue;
      if (implementsContract({ node: declaration, detector }, contract)) classes.push({ node: declaration, detector });
    }
    return 'read';
  });
  implementers.set(key, { files, classes });
  return classes;
}

/** Whether a class's `implements` clause names `contract`, or it extends `contract`, an abstract class. */
function implementsContract(holder: ClassHolder, contract: Contract): boolean {
  const parent = superClass(holder);
  if (parent && resolvePath(parent.detector.contextOf.physicalFilename ?? parent.detector.contextOf.filename) === contract.file && parent.node.range[0] === contract.start) return true;
  return (holder.node.implements ?? []).some((clause) => {
    const id = unwrap(clause.expression);
    const found = id.type === AST_NODE_TYPES.Identifier ? classNamed(holder.detector, id, 0) : undefined;
    if (found?.node.type !== AST_NODE_TYPES.TSInterfaceDeclaration) return false;
    const where = resolvePath(found.detector.contextOf.physicalFilename ?? found.detector.contextOf.filename);
    return where === contract.file && found.node.range[0] === contract.start;
  });
}

/**
 * A class whose instance a value is, or an object literal it is, or the interface its declared
 * type names, with the detector of its module. `declared`: known by a declared type alone (an
 * annotation), so it may hold any implementation of the interfaces that type stands for.
 */
interface Holder {
  node: TSESTree.ClassDeclaration | TSESTree.ClassExpression | TSESTree.ObjectExpression | TSESTree.TSInterfaceDeclaration;
  detector: ClientDetector;
  declared?: true;
}

/**
 * The object literal whose method `this` is read in (the nearest function that binds `this`, not
 * an arrow, is a shorthand method or a `function` value of one of its properties): the object a
 * call `obj.m()` runs the method on. `undefined` anywhere else (a class's method, a function).
 */
function objectOfMethodThis(thisNode: TSESTree.Node): TSESTree.ObjectExpression | undefined {
  let fn: TSESTree.Node | undefined = thisNode.parent;
  while (fn && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.FunctionDeclaration && fn.type !== AST_NODE_TYPES.ClassBody) fn = fn.parent;
  const property = fn?.type === AST_NODE_TYPES.FunctionExpression ? fn.parent : undefined;
  if (property?.type !== AST_NODE_TYPES.Property || property.value !== fn || property.kind !== 'init') return undefined;
  return property.parent?.type === AST_NODE_TYPES.ObjectExpression ? property.parent : undefined;
}

/**
 * What a receiver is an instance of, from the code alone: `new C()`, `this`, an object literal, a
 * binding annotated `C` or holding one of those (a `const`, a parameter, an import of another
 * module of the code), a member of the class fixed once per instance (`this.presence`).
 */
function holderOf(detector: ClientDetector, input: TSESTree.Node, depth: number): Holder | undefined {
  if (depth > 6) return undefined;
  const node = unwrap(input);
  // `ctx.service.redis` of an Egg.js application: the class `app/service/redis.js` exports
  // (application-members.ts), whose methods its callers call
  const service = eggServiceModule(detector.contextOf, node);
  const from = detector.contextOf.physicalFilename ?? detector.contextOf.filename;
  if (service !== undefined && from) {
    // the module exports the class (`module.exports = RedisService`, `export default class ...`): Egg makes its instances
    const exported = detector.exported({ source: specifierOf(from, service), own: true, imported: 'default' });
    let cls = exported && unwrap(exported.node);
    // or a function of the application returning the class (`module.exports = app => class extends
    // app.Service {...}`, Egg 1.x's form): the loader calls it with the application
    if (cls?.type === AST_NODE_TYPES.ArrowFunctionExpression || cls?.type === AST_NODE_TYPES.FunctionExpression || cls?.type === AST_NODE_TYPES.FunctionDeclaration) {
      const returned = returnedExpressions(cls);
      cls = returned.length === 1 ? unwrap(returned[0]!) : undefined;
    }
    if (cls?.type === AST_NODE_TYPES.ClassDeclaration || cls?.type === AST_NODE_TYPES.ClassExpression) return { node: cls, detector: exported!.detector };
    return cls?.type === AST_NODE_TYPES.Identifier ? classNamed(exported!.detector, cls, depth + 1) : undefined;
  }
  switch (node.type) {
    case AST_NODE_TYPES.NewExpression: {
      const callee = unwrap(node.callee);
      return callee.type === AST_NODE_TYPES.Identifier ? classNamed(detector, callee, depth + 1) : undefined;
    }
    case AST_NODE_TYPES.ObjectExpression:
      return { node, detector };
    case AST_NODE_TYPES.ThisExpression: {
      // `this._tryFormMatch(...)` in a method of an object literal: that object's member
      const literal = objectOfMethodThis(node);
      if (literal) return { node: literal, detector };
      const cls = classOfThis(node);
      return cls ? { node: cls, detector } : undefined;
    }
    case AST_NODE_TYPES.Identifier:
      return bindingHolder(detector, node, depth);
    // `await initRedis(2)`, `getStore()`: what a function of the code returns
    case AST_NODE_TYPES.AwaitExpression:
      return holderOf(detector, node.argument, depth + 1);
    case AST_NODE_TYPES.CallExpression:
      return returnedHolder(detector, node, depth + 1);
    case AST_NODE_TYPES.MemberExpression: {
      if (unwrap(node.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
      // the same member of the same class holds the same instance (read once per class and depth)
      const cls = classOfThis(node);
      const name = propertyName(node.property, node.computed);
      if (!cls || name === undefined) return undefined;
      let perClass = memberHolders.get(cls);
      if (!perClass) memberHolders.set(cls, (perClass = new Map()));
      const key = `${name}\0${depth}`;
      if (!perClass.has(key)) {
        perClass.set(key, null); // a member whose value reads itself ends here
        perClass.set(key, memberHolder(detector, node, depth) ?? null);
      }
      return perClass.get(key) ?? undefined;
    }
    default:
      return undefined;
  }
}

/** Holders of `this.<member>` per class, per member and depth. */
const memberHolders = new WeakMap<TSESTree.Node, Map<string, Holder | null>>();

/** `this.presence`: its declared type, or the one value the class gives it. */
function memberHolder(detector: ClientDetector, node: TSESTree.MemberExpression, depth: number): Holder | undefined {
  const member = instanceMember(node);
  // a member a superclass of the code declares (`protected readonly redisConnection: RedisConnection`)
  const cls = member ? undefined : classOfThis(node);
  const name = propertyName(node.property, node.computed);
  const inherited = cls && name !== undefined ? inheritedMemberType(detector, cls, name, (d, id) => classNamed(d, id, depth + 1)) : undefined;
  if (inherited) return typeHolder(inherited.detector, inherited.type, depth + 1);
  const declared = member?.declaration;
  const annotation =
    declared?.type === AST_NODE_TYPES.PropertyDefinition
      ? declared.typeAnnotation
      : declared?.type === AST_NODE_TYPES.TSParameterProperty && declared.parameter.type === AST_NODE_TYPES.Identifier
        ? declared.parameter.typeAnnotation
        : undefined;
  if (annotation) return typeHolder(detector, annotation.typeAnnotation, depth + 1);
  // one value, made in the class (a constructor argument would need the caller's type)
  const values = member?.values.filter((value) => value.type !== AST_NODE_TYPES.Identifier || !member.constructorParams.includes(value));
  if (values?.length === 1 && values.length === member?.values.length) return holderOf(detector, values[0]!, depth + 1);
  return member || !cls || name === undefined ? undefined : filledLater(detector, cls, name, depth);
}

/**
 * A member the class fills outside its constructor and clears with `null` (`this.redis = null` in
 * the constructor and in `close()`, `this.redis = new RedisService()` in `initializeRedis()`),
 * what `RedisService | null` says in an annotation: the class every value that is not `null` or
 * `undefined` makes, when they all make the same one (a member given anything else, or values of
 * two classes, holds no one class).
 */
function filledLater(detector: ClientDetector, cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression, name: string, depth: number): Holder | undefined {
  const values: Array<TSESTree.Node | undefined> = [];
  for (const element of cls.body.body) {
    const body = element.type === AST_NODE_TYPES.MethodDefinition ? element.value.body : element.type === AST_NODE_TYPES.PropertyDefinition && !element.static ? element.value : undefined;
    if (body) forEachThisWrite(body, name, (value) => values.push(value));
  }
  let found: Holder | undefined;
  for (const value of values) {
    if (!value) return undefined;
    if (emptyValue(value)) continue;
    const holder = holderOf(detector, value, depth + 1);
    if (!holder || (found && found.node !== holder.node)) return undefined;
    found = holder;
  }
  return found;
}

/** `null`, `undefined` (the global) or `void 0`: a member with no instance in it. */
function emptyValue(input: TSESTree.Node): boolean {
  const node = unwrap(input);
  if (node.type === AST_NODE_TYPES.Literal) return node.value === null && !('regex' in node);
  if (node.type === AST_NODE_TYPES.Identifier) return node.name === 'undefined';
  return node.type === AST_NODE_TYPES.UnaryExpression && node.operator === 'void';
}

/** An identifier: its annotation, its one value, or what another module of the code exports under its name. */
function bindingHolder(detector: ClientDetector, node: TSESTree.Identifier, depth: number): Holder | undefined {
  const variable = findVariable(detector.contextOf, node);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return undefined;
  if (def.type === 'ImportBinding') {
    const origin = detector.identifierOrigin(node);
    const exported = origin.kind === 'import' && origin.own ? detector.exported(origin) : undefined;
    return exported ? holderOf(exported.detector, exported.node, depth + 1) : undefined;
  }
  if (def.name.type !== AST_NODE_TYPES.Identifier) return undefined;
  const annotation = def.name.typeAnnotation?.typeAnnotation;
  if (annotation) return typeHolder(detector, annotation, depth + 1);
  if (def.type === 'Variable' && def.node.init && variable!.references.every((r) => !r.isWrite() || r.identifier === def.name)) {
    return holderOf(detector, def.node.init, depth + 1);
  }
  return undefined;
}

/**
 * `presence: RedisPresence`: the class the annotation names, also with `null` / `undefined`
 * beside it (`let worker: RedisService | null = null`, filled later).
 */
function typeHolder(detector: ClientDetector, type: TSESTree.TypeNode, depth: number): Holder | undefined {
  if (type.type === AST_NODE_TYPES.TSUnionType) {
    const members = type.types.filter((member) => member.type !== AST_NODE_TYPES.TSNullKeyword && member.type !== AST_NODE_TYPES.TSUndefinedKeyword);
    return members.length === 1 ? typeHolder(detector, members[0]!, depth + 1) : undefined;
  }
  const found = type.type === AST_NODE_TYPES.TSTypeReference && type.typeName.type === AST_NODE_TYPES.Identifier && !type.typeArguments ? classNamed(detector, type.typeName, depth) : undefined;
  return found && { ...found, declared: true };
}

/**
 * The class instance a call of a function of the code returns (`initRedis(2, true)`, awaited or
 * not): its declared return type (`RedisService`, `Promise<RedisService>`, either with `| null`),
 * or else the one holder every `return` gives (`return new RedisService()`).
 */
function returnedHolder(detector: ClientDetector, call: TSESTree.CallExpression, depth: number): Holder | undefined {
  if (depth > 6) return undefined;
  const callee = unwrap(call.callee);
  const target = callee.type === AST_NODE_TYPES.Identifier ? functionNamed(detector, callee) : undefined;
  if (!target) return undefined;
  const own = clientDetectorOf(target.context);
  const declared = target.fn.returnType?.typeAnnotation;
  if (declared) {
    const promised =
      declared.type === AST_NODE_TYPES.TSTypeReference && declared.typeName.type === AST_NODE_TYPES.Identifier && declared.typeName.name === 'Promise'
        ? declared.typeArguments?.params[0]
        : declared;
    return promised ? typeHolder(own, promised, depth + 1) : undefined;
  }
  let found: Holder | undefined;
  for (const returned of returnedExpressions(target.fn)) {
    const holder = holderOf(own, returned, depth + 1);
    if (!holder || (found && found.node !== holder.node)) return undefined;
    found = holder;
  }
  return found;
}

/** {@link codeClassNamed} followed up to 6 hops of re-exports. */
function classNamed(detector: ClientDetector, name: TSESTree.Identifier, depth: number): Holder | undefined {
  return codeClassNamed(detector, name, depth, 6);
}

/**
 * The instance method (or arrow-function property) `name` of a class; with `isStatic`, its static
 * method (`static incr(key) {...}`, `static incr = (key) => ...`).
 */
export function classMethod(cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression, name: string, isStatic = false): FunctionLike | undefined {
  for (const element of cls.body.body) {
    if (element.type !== AST_NODE_TYPES.MethodDefinition && element.type !== AST_NODE_TYPES.PropertyDefinition) continue;
    if (element.static !== isStatic || propertyName(element.key, element.computed) !== name) continue;
    if (element.type === AST_NODE_TYPES.MethodDefinition) return element.kind === 'method' ? asFunction(element.value) : undefined;
    return element.value ? asFunction(unwrap(element.value)) : undefined;
  }
  return undefined;
}

/** The function at property `name` of an object literal (`{ sadd: (k, m) => ... }`, `{ sadd(k, m) {...} }`). */
function propertyFunction(object: TSESTree.ObjectExpression, name: string): FunctionLike | undefined {
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.Property && propertyName(property.key, property.computed) === name) return asFunction(unwrap(property.value));
  }
  return undefined;
}

function asFunction(node: TSESTree.Node | { body?: unknown } | undefined): FunctionLike | undefined {
  if (!node || !('type' in node)) return undefined;
  return (node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.ArrowFunctionExpression) && node.body
    ? node
    : undefined;
}
