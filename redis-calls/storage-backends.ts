/**
 * **Redis used as a store of record**: a class that is one of the application's interchangeable
 * storage backends, the one over Redis, beside another over a database.
 *
 * ```ts
 * // types.ts
 * export interface IStorage { createPlaylist(p: Playlist): Promise<void>; deletePlaylist(id: string): Promise<void> }
 * // redis.db.ts
 * export class RedisStorage implements IStorage {
 *   async createPlaylist(p) { await this.client.hSet(`playlist:${p.id}`, p); } // not reported by `recommended`
 *   async deletePlaylist(id) { await this.client.del(`playlist:${id}`); }
 * }
 * // postgres.db.ts
 * import { sql } from '@vercel/postgres';
 * export class PostgresStorage implements IStorage { ... }
 * ```
 *
 * What counts: a write in a class that `implements` an interface (or type) of the code which
 * another class of the code also implements in a module that imports a database client
 * (`redis-calls/database-packages.ts`: `pg`, `@prisma/client`, `mongodb`, D1's `D1Database` ...),
 * itself or through a module it imports directly, and no Redis client (a class over both is a cache
 * of the database, not its backend). The user can run the application on Redis in
 * place of that database, so the Redis class keeps the records the database would keep, with no
 * TTL, and removes them with the interface's delete methods. Left alone:
 *
 * - a write in a method the interface declares (or in a method of the class only such methods
 *   call), of a key family the store names (a shape with a static part), which the class deletes (DEL / UNLINK / GETDEL of the same key shape) in another
 *   method the interface declares: the record lives until the store's delete removes it, as a row
 *   would;
 * - a write of a key that is a parameter of its function, a method of an object literal the class
 *   builds that passes every parameter on to the client (a compatibility shim over the backend's
 *   client, `this.client = { set: (key, v) => this.adapter.set(key, v) }`; not a `setEx(key,
 *   seconds, v)` sending `set(key, v)`): its callers write records of the store. Not a method of the
 *   class itself (`increment(key)`), whose key any caller may fill.
 *
 * Still reported: a class whose interface no database-backed class implements (a cache interface
 * with a Map or memory implementation: a cache is no store of record); a class holding another
 * implementation of its interface (`constructor(private inner: UserRepository)`, or the database's
 * class itself, `inner: PgUserRepository`: a cache in front of the database's backend, not one in
 * its place); a write in a method the interface does not declare (nor only its methods call); a
 * record the class never deletes (a one-time code, the index of a token the reset leaves behind:
 * it piles up whatever the backend; a delete in a closure nothing calls does not count);
 * a key whose shape the file gives a TTL anywhere (the code meant it to expire); a write in a method
 * that gives a key a TTL, itself or through a helper method it calls (an index set written beside a record that expires: the record's expiry
 * never runs the store's delete, so the index outlives it).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { relative, resolve } from 'node:path';
import { describeCommand, EFFECTS_THAT_DELETE_KEY } from '../semantics/commands.js';
import { DATABASE_TYPE_NAMES, isDatabasePackage } from './database-packages.js';
import { EXPIRY_EFFECTS, fileIndexOf } from './file-index.js';
import { importSpecifiers, walkImporters } from './importers.js';
import { hasStaticPart, listedKeys, sameKeyByShape } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import { namedFunctionOf } from './builder-lookup.js';
import { mayRun } from './pattern-drains.js';
import { fileMemo } from './file-memo.js';
import { loadModule, readModule, specifierOf } from './modules.js';
import { moduleText } from './parsed-modules.js';
import type { RedisCall } from './normalize.js';
import { packageOf } from './project.js';
import { TEST_PATH } from './test-paths.js';
import { encloses, enclosingFunction, unwrap, walkParsed, type AnyContext } from './static.js';
import { enclosingClass } from './client-syntax.js';
import { NAMES_REDIS_MODULE } from './client-facts.js';

type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/**
 * A storage interface a class implements: its name, the module declaring it, and the backend's
 * methods: the members it declares and the methods of its database-backed implementations (a
 * method every backend has, which the callers reach by duck typing, is one of the store's too).
 */
interface StorageInterface {
  name: string;
  path: string;
  members: ReadonlySet<string>;
}

/** Per class: the storage interfaces (with a database-backed implementation) it implements. */
const backends = new WeakMap<ClassNode, readonly StorageInterface[]>();


/** The member of `cls` (method or property) whose body holds `node`. */
function memberOf(cls: ClassNode, node: TSESTree.Node): TSESTree.MethodDefinition | TSESTree.PropertyDefinition | undefined {
  return cls.body.body.find(
    (member): member is TSESTree.MethodDefinition | TSESTree.PropertyDefinition =>
      (member.type === AST_NODE_TYPES.MethodDefinition || member.type === AST_NODE_TYPES.PropertyDefinition) && encloses(member, node),
  );
}

/** The name of a class member (not a computed one). */
function memberName(member: TSESTree.MethodDefinition | TSESTree.PropertyDefinition): string | undefined {
  if (member.computed) return undefined;
  return member.key.type === AST_NODE_TYPES.Identifier ? member.key.name : member.key.type === AST_NODE_TYPES.Literal ? String(member.key.value) : undefined;
}

/** The member names an interface or a type literal declares. */
function declaredMembers(node: TSESTree.Node): Set<string> | undefined {
  const body =
    node.type === AST_NODE_TYPES.TSInterfaceDeclaration ? node.body.body : node.type === AST_NODE_TYPES.TSTypeAliasDeclaration && node.typeAnnotation.type === AST_NODE_TYPES.TSTypeLiteral ? node.typeAnnotation.members : undefined;
  if (!body) return undefined;
  const names = new Set<string>();
  for (const member of body) {
    if ((member.type === AST_NODE_TYPES.TSMethodSignature || member.type === AST_NODE_TYPES.TSPropertySignature) && !member.computed && member.key.type === AST_NODE_TYPES.Identifier) names.add(member.key.name);
  }
  return names;
}

/** The interface or type alias `name` a program declares at its top level. */
function declaredType(program: TSESTree.Program, name: string): TSESTree.TSInterfaceDeclaration | TSESTree.TSTypeAliasDeclaration | undefined {
  for (const statement of program.body) {
    const node = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if ((node?.type === AST_NODE_TYPES.TSInterfaceDeclaration || node?.type === AST_NODE_TYPES.TSTypeAliasDeclaration) && node.id.name === name) return node;
  }
  return undefined;
}

/** Whether a module's text imports a database client package or names a D1 binding, per modification time. */
const importsDatabaseAt = fileMemo((path): boolean => {
  const text = moduleText(path);
  return text !== undefined && (importSpecifiers(text).some(isDatabasePackage) || DATABASE_TYPE_NAMES.some((name) => new RegExp(`\\b${name}\\b`).test(text)));
}, false);

/** Whether the module at `path` (text `text`), or a module of the code it imports directly, reads a database ({@link importsDatabaseAt}). */
function databaseBacked(path: string, text: string): boolean {
  if (importsDatabaseAt(path)) return true;
  return importSpecifiers(text).some((specifier) => {
    const imported = readModule(path, specifier, true);
    return imported !== undefined && imported.path !== path && importsDatabaseAt(imported.path);
  });
}

/** The method names and class names of the classes of `program` that implement `name`; `undefined` when there is none. */
function implementingMethods(program: TSESTree.Program, name: string): { methods: Set<string>; classes: Set<string> } | undefined {
  let found: { methods: Set<string>; classes: Set<string> } | undefined;
  for (const statement of program.body) {
    const cls = statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration ? statement.declaration : statement;
    if (cls?.type !== AST_NODE_TYPES.ClassDeclaration) continue;
    if (!(cls.implements ?? []).some((clause) => { const id = unwrap(clause.expression); return id.type === AST_NODE_TYPES.Identifier && id.name === name; })) continue;
    found ??= { methods: new Set(), classes: new Set() };
    if (cls.id) found.classes.add(cls.id.name);
    for (const member of cls.body.body) {
      if (member.type !== AST_NODE_TYPES.MethodDefinition || member.kind !== 'method' || member.static) continue;
      const memberName = member.computed ? undefined : member.key.type === AST_NODE_TYPES.Identifier ? member.key.name : undefined;
      if (memberName) found.methods.add(memberName);
    }
  }
  return found;
}

/**
 * The method names and the class names of the classes of the code, other than those of the
 * linted file, that implement the interface `name` declared in `declaringPath` in a
 * database-backed module ({@link databaseBacked}); `undefined` when there is none. The declaring module and the modules
 * importing it are looked at (`redis-calls/importers.ts`, tests left out), not the linted file.
 * Read once per class per lint (`storageInterfacesOf`'s cache).
 */
function implementedOverDatabase(context: AnyContext, name: string, declaringPath: string): { methods: ReadonlySet<string>; classes: ReadonlySet<string> } | undefined {
  const linted = resolve(context.physicalFilename ?? context.filename);
  const mention = new RegExp(`\\bimplements\\b[^{]*(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`);
  const methods = new Set<string>();
  const classes = new Set<string>();
  let found = false;
  const take = (more: { methods: Set<string>; classes: Set<string> } | undefined) => {
    if (!more) return;
    found = true;
    for (const method of more.methods) methods.add(method);
    for (const cls of more.classes) classes.add(cls);
  };
  const root = packageOf(declaringPath)?.root ?? '/';
  walkImporters(
    [declaringPath],
    (path) => {
      if (path === resolve(linted)) return 'read';
      const module = readModule(linted, specifierOf(linted, path));
      if (!module) return 'passed';
      if (!mention.test(module.entry.text)) return 'read';
      // a class that imports a Redis client (or a module named after one) beside the database is a
      // cache over it, not the database's backend (`UserCache implements IDataCache` over MongoDB)
      if (!databaseBacked(path, module.entry.text) || importSpecifiers(module.entry.text).some((specifier) => NAMES_REDIS_MODULE.test(specifier))) return 'read';
      const parsed = loadModule(context, specifierOf(linted, path));
      if (parsed) take(implementingMethods(parsed.program, name));
      return 'read';
    },
    (path) => TEST_PATH.test(relative(root, path)),
  );
  return found ? { methods, classes } : undefined;
}

/**
 * The storage interfaces `cls` implements that a database-backed class of the code implements too
 * (see the module comment); empty when there is none.
 */
function storageInterfacesOf(context: AnyContext, cls: ClassNode): readonly StorageInterface[] {
  const cached = backends.get(cls);
  if (cached) return cached;
  const found: StorageInterface[] = [];
  const linted = context.physicalFilename ?? context.filename;
  if (linted && packageOf(linted) && cls.implements && cls.implements.length > 0) {
    const program = context.sourceCode.ast;
    const ownPath = resolve(linted);
    for (const clause of cls.implements) {
      const id = unwrap(clause.expression);
      if (id.type !== AST_NODE_TYPES.Identifier || holdsImplementation(cls, (held) => held === id.name)) continue;
      const local = declaredType(program, id.name);
      let members = local && declaredMembers(local);
      let declaringPath = ownPath;
      let declaredName = id.name;
      if (!local) {
        const imported = importOf(program, id.name);
        const module = imported && loadModule(context, imported.source, { packages: true });
        if (!module) continue;
        declaringPath = module.path;
        declaredName = imported.imported;
        const declared = declaredType(module.program, declaredName);
        members = declared && declaredMembers(declared);
      }
      if (!members) continue;
      const implemented = implementedOverDatabase(context, declaredName, declaringPath);
      if (!implemented) continue;
      // holding the database's class itself (`constructor(private inner: PgUserRepository)`, an
      // import alias of it too): a cache in front of it as well
      if (holdsImplementation(cls, (held) => implemented.classes.has(importOf(program, held)?.imported ?? held))) continue;
      found.push({ name: declaredName, path: declaringPath, members: new Set([...members, ...implemented.methods]) });
    }
  }
  backends.set(cls, found);
  return found;
}

/** Whether a type annotation is a type whose name `named` accepts (`UserRepository`, `UserRepository | undefined`). */
function namesType(annotation: TSESTree.TypeNode | undefined, named: (name: string) => boolean): boolean {
  if (!annotation) return false;
  if (annotation.type === AST_NODE_TYPES.TSUnionType) return annotation.types.some((type) => namesType(type, named));
  return annotation.type === AST_NODE_TYPES.TSTypeReference && annotation.typeName.type === AST_NODE_TYPES.Identifier && named(annotation.typeName.name);
}

/**
 * Whether `cls` holds another implementation of an interface it implements: a field or a
 * constructor parameter of a type `named` accepts (the interface, `constructor(private inner:
 * UserRepository)`, or a database-backed class implementing it): a decorator in front of the
 * database's backend, a cache of it, not a backend the application runs on in its place.
 */
function holdsImplementation(cls: ClassNode, named: (name: string) => boolean): boolean {
  return cls.body.body.some((member) => {
    if (member.type === AST_NODE_TYPES.PropertyDefinition) return namesType(member.typeAnnotation?.typeAnnotation, named);
    if (member.type !== AST_NODE_TYPES.MethodDefinition || member.kind !== 'constructor') return false;
    return member.value.params.some((param) => {
      const bare = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
      const target = bare.type === AST_NODE_TYPES.AssignmentPattern ? bare.left : bare;
      return 'typeAnnotation' in target && namesType(target.typeAnnotation?.typeAnnotation, named);
    });
  });
}

/** The module and exported name an `import { name as local }` of the program binds `local` to. */
function importOf(program: TSESTree.Program, local: string): { source: string; imported: string } | undefined {
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration) continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type !== AST_NODE_TYPES.ImportSpecifier || specifier.local.name !== local) continue;
      const imported = specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : String(specifier.imported.value);
      return { source: statement.source.value, imported };
    }
  }
  return undefined;
}

/** Per class: its `this.<name>` references by name. */
const thisReferenceCache = new WeakMap<ClassNode, Map<string, TSESTree.Node[]>>();

/** The `this.<name>` references of a class body, by name (built once per class). */
function thisReferences(cls: ClassNode): ReadonlyMap<string, readonly TSESTree.Node[]> {
  const cached = thisReferenceCache.get(cls);
  if (cached) return cached;
  const byName = new Map<string, TSESTree.Node[]>();
  thisReferenceCache.set(cls, byName);
  const visit = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.MemberExpression && node.object.type === AST_NODE_TYPES.ThisExpression && !node.computed && node.property.type === AST_NODE_TYPES.Identifier) {
      const list = byName.get(node.property.name);
      if (list) list.push(node);
      else byName.set(node.property.name, [node]);
    }
  };
  walkParsed(cls.body, visit);
  return byName;
}

/** Whether `member` is one the interfaces declare, or a method of the class that only such members call (`this.name(...)`). */
function servesInterface(cls: ClassNode, member: TSESTree.MethodDefinition | TSESTree.PropertyDefinition, declared: ReadonlySet<string>): boolean {
  const name = memberName(member);
  if (name === undefined || (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor')) return false;
  if (declared.has(name)) return true;
  const callers = thisReferences(cls).get(name) ?? [];
  return (
    callers.length > 0 &&
    callers.every((caller) => {
      const around = memberOf(cls, caller);
      const aroundName = around && memberName(around);
      return around !== member && aroundName !== undefined && declared.has(aroundName);
    })
  );
}

/**
 * Whether the write of the key at `keyNode` by `call` is a record of a storage backend the
 * application can run on in place of a database (see the module comment): not reported by the
 * no-TTL rules with `allowStorageBackends`.
 */
export function storageBackendRecord(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  const cls = enclosingClass(call.node);
  if (!cls) return false;
  const member = memberOf(cls, call.node);
  if (!member) return false;
  const interfaces = storageInterfacesOf(context, cls);
  if (interfaces.length === 0) return false;
  const shape = keyShapeOf(context, keyNode);
  const index = fileIndexOf(context);
  // the code gives this key family a TTL somewhere: it is meant to expire
  if (index.expiredShapes.has(shape.shape)) return false;
  // a shim of the backend forwarding its caller's key: the callers write records of the store
  const bare = unwrap(keyNode);
  const fn = enclosingFunction(call.node);
  // (a method of an object literal the class builds, `this.client = { set: (key, v) => ... }`; not
  // a method of the class itself, whose key parameter any caller may fill: `increment(key)`)
  const shim = fn && fn !== member.value && fn.parent?.type === AST_NODE_TYPES.Property && fn.parent.value === fn && fn.parent.parent?.type === AST_NODE_TYPES.ObjectExpression;
  // (every parameter of the shim reaches the client: a `setEx(key, seconds, v)` that sends
  // `set(key, v)` drops the TTL its callers give, and is no forward)
  if (shim && bare.type === AST_NODE_TYPES.Identifier && 'params' in fn && fn.params.some((param) => param.type === AST_NODE_TYPES.Identifier && param.name === bare.name) && forwardsEveryParameter(fn.params, call.node)) return true;
  const declared = new Set(interfaces.flatMap((found) => [...found.members]));
  if (!servesInterface(cls, member, declared)) return false;
  // an index written beside a record the same method gives a TTL: the record's expiry never runs
  // the store's delete, so the index outlives it
  // (also in a helper method it calls: `await this.putOtp(code, user)` setting `otp:*` with EX)
  const regions = [member, ...calledMembers(cls, member)];
  if ([...index.calls, ...index.facadeCalls].some((other) => regions.some((region) => encloses(region, other.node)) && other.description.keys.some((action) => EXPIRY_EFFECTS.has(action.effect)))) return false;
  // deleted by another method of the backend, a key family the store names (`playlist:*`; not a
  // caller's key, `increment(key)` beside `reset(key)`: a limiter's counter)
  if (!hasStaticPart(shape.shape)) return false;
  // deleted by another method of the backend
  return deletionsIn(context, cls, call).some(({ node, key }) => {
    // in a method of the store, or one only such methods call (`remove(id) { await this.purge(id); }`)
    const around = memberOf(cls, node);
    if (!around || around === member || !servesInterface(cls, around, declared)) return false;
    // (not in a closure of it nothing runs: `const purge = () => client.del(key)` never called)
    const closure = namedFunctionOf(node);
    if (closure && closure !== around.value && encloses(around, closure) && !mayRun(context, closure)) return false;
    // (not a helper only the writing method calls: `save` clearing then writing the record)
    const aroundName = memberName(around);
    if (aroundName !== undefined && !declared.has(aroundName) && (thisReferences(cls).get(aroundName) ?? []).every((reference) => encloses(member, reference))) return false;
    const listed = listedKeys(context, key);
    return (listed.length > 0 ? listed : [key]).some((deleted) => keyShapeOf(context, deleted).shape === shape.shape && sameKeyByShape(context, shape.shape, keyNode, deleted));
  });
}

/** The members of `cls` that `member` calls as `this.name(...)`, and those they call (three levels). */
function calledMembers(cls: ClassNode, member: TSESTree.MethodDefinition | TSESTree.PropertyDefinition): Array<TSESTree.MethodDefinition | TSESTree.PropertyDefinition> {
  const found = new Set<TSESTree.MethodDefinition | TSESTree.PropertyDefinition>([member]);
  let frontier = [member];
  for (let depth = 0; depth < 3 && frontier.length > 0; depth++) {
    const next: typeof frontier = [];
    for (const [name, references] of thisReferences(cls)) {
      if (!references.some((reference) => frontier.some((region) => encloses(region, reference)))) continue;
      for (const other of cls.body.body) {
        if ((other.type === AST_NODE_TYPES.MethodDefinition || other.type === AST_NODE_TYPES.PropertyDefinition) && memberName(other) === name && !found.has(other)) {
          found.add(other);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  found.delete(member);
  return [...found];
}

/** Whether every parameter of a shim's method (`(key, ...args)`, `(key, v = '')`) is read by the `call` it makes. */
function forwardsEveryParameter(params: readonly TSESTree.Parameter[], call: TSESTree.Node): boolean {
  const read = new Set<string>();
  const visit = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.Identifier) read.add(node.name);
  };
  walkParsed(call, visit);
  return params.every((param) => {
    const target = param.type === AST_NODE_TYPES.RestElement ? param.argument : param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    return target.type !== AST_NODE_TYPES.Identifier || read.has(target.name);
  });
}

/** Per class and receiver as written: its deletions ({@link deletionsIn}). */
const deletionCache = new WeakMap<ClassNode, Map<string, Deletion[]>>();

/** A key a call deletes. */
interface Deletion {
  node: TSESTree.Node;
  key: TSESTree.Node;
}

/**
 * The deletions in `cls`: the DEL / UNLINK / GETDEL ... (`semantics/commands.ts`, the `delete`
 * effects) the rules read as commands, and the calls of a method of that name on the receiver the
 * write `call` is sent through (`this.adapter.del(keys)`: an adapter whose `del` reshapes its
 * argument before the client's, which no pass-through reading follows).
 */
function deletionsIn(context: AnyContext, cls: ClassNode, call: RedisCall): readonly Deletion[] {
  const callee = call.node.type === AST_NODE_TYPES.CallExpression ? unwrap(call.node.callee) : undefined;
  const receiver = callee?.type === AST_NODE_TYPES.MemberExpression ? context.sourceCode.getText(callee.object) : '';
  let byReceiver = deletionCache.get(cls);
  if (!byReceiver) deletionCache.set(cls, (byReceiver = new Map()));
  const cached = byReceiver.get(receiver);
  if (cached) return cached;
  const found: Deletion[] = [];
  byReceiver.set(receiver, found);
  const index = fileIndexOf(context);
  for (const other of [...index.calls, ...index.facadeCalls]) {
    if (!encloses(cls, other.node)) continue;
    for (const action of other.description.keys) {
      const key = other.argNodes[action.arg];
      if (key && EFFECTS_THAT_DELETE_KEY.has(action.effect)) found.push({ node: other.node, key });
    }
  }
  if (!receiver) return found;
  const visit = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const target = unwrap(node.callee);
      const method = target.type === AST_NODE_TYPES.MemberExpression && !target.computed && target.property.type === AST_NODE_TYPES.Identifier ? target.property.name : undefined;
      if (method && target.type === AST_NODE_TYPES.MemberExpression && context.sourceCode.getText(target.object) === receiver) {
        const description = describeCommand(method, node.arguments.map(() => undefined));
        for (const action of description.keys) {
          const key = node.arguments[action.arg];
          if (key && EFFECTS_THAT_DELETE_KEY.has(action.effect)) found.push({ node, key });
        }
      }
    }
  };
  walkParsed(cls.body, visit);
  return found;
}
