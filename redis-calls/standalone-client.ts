/**
 * Whether a command is sent through a client that talks to one Redis server, never to a Cluster.
 * Only a cluster client reaches a Cluster (`semantics/cluster-clients.ts`: ioredis / iovalkey
 * `Cluster`, node-redis `createCluster`, GLIDE `GlideClusterClient`), so a script sent through
 * anything else never runs on one, and the Cluster rule of its keys (`key-must-come-from-keys`)
 * says nothing about it. Two ways to know, either is enough:
 *
 * - the receiver's origin: followed to where the client is built or declared, in this file or in
 *   the module it is imported from (ESM or CommonJS, one module away): a binding of `new Redis(url)`
 *   (ioredis / iovalkey) or node-redis `createClient()`, or a parameter, a parameter property
 *   (`constructor(private readonly redis: Redis)`) or a class property declared with a standalone
 *   client type of the client package (ioredis `Redis`, node-redis `RedisClientType`, GLIDE
 *   `GlideClient`; every member of a union), or an untyped class field built as one that no
 *   code of the class assigns again (`this.redis = new Redis.Cluster(nodes)`), or a `let` declared
 *   with such a type or only ever assigned a standalone client (or `null`) by either reading
 *   (`let redis: Awaited<ReturnType<typeof x.getClient>>; redis = await x.getClient()`); or the
 *   result of an accessor of the code's own (`getRedisClient()`, this file's or imported, or a
 *   method of an object literal of the code's own, written as a `const` or returned by a factory
 *   of its own: `redisSingleton.getClient()` with `const redisSingleton = createRedisSingleton()`)
 *   declared to return such a type, or, undeclared, whose every returned value is one of the
 *   above; or `a ?? b` / `a || b` / `c ? a : b` whose every operand it may take is one;
 * - the project: an application (`redis-calls/project.ts`: nobody imports it, so nobody hands it
 *   a client it does not build) that is no workspace member (a sibling package could build the
 *   Cluster) and whose source files never mention a cluster (`redis-calls/cluster-free.ts`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import {
  STANDALONE_CONSTRUCTOR_PACKAGES,
  STANDALONE_CONSTRUCTORS,
  STANDALONE_FACTORY_PACKAGES,
  STANDALONE_TYPE_NAMES,
  STANDALONE_TYPE_PACKAGES,
} from '../semantics/cluster-clients.js';
import { originOf } from './client-syntax.js';
import { applicationWithoutClusterClient } from './cluster-free.js';
import { commonJsDefault, exportedValue, importedBinding, loadModule, moduleBinding, moduleContext, namespaceModule, topLevelConst, topLevelDeclaration } from './modules.js';
import { constInitializer, findVariable, propertyName, unwrap, walk, type AnyContext } from './static.js';

/** How many bindings (a `const` of a `const`, an import) an origin is followed through. */
const MAX_DEPTH = 4;

/** The package and the exported name an identifier is imported as (`import Redis from 'ioredis'`, `const Redis = require('ioredis')`: `ioredis`, `default`), through client-syntax's originOf. */
function importOf(context: AnyContext, node: TSESTree.Identifier): { source: string; imported: string } | undefined {
  const origin = originOf(context, node);
  if (origin.kind !== 'import') return undefined;
  // `const Redis = require('ioredis')`: the whole module, which is its default export (the client class)
  const imported = origin.imported ?? (origin.namespace ? undefined : 'default');
  return imported === undefined ? undefined : { source: origin.source, imported };
}

/** Whether `init` builds a standalone client: `new Redis(...)` (ioredis, iovalkey), `createClient(...)` (node-redis). */
function buildsStandalone(context: AnyContext, init: TSESTree.Node): boolean {
  const bare = unwrap(init.type === AST_NODE_TYPES.AwaitExpression ? init.argument : init);
  if (bare.type === AST_NODE_TYPES.NewExpression && bare.callee.type === AST_NODE_TYPES.Identifier) {
    const from = importOf(context, bare.callee);
    return from !== undefined && STANDALONE_CONSTRUCTOR_PACKAGES.has(from.source) && STANDALONE_CONSTRUCTORS.has(from.imported);
  }
  if (bare.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(bare.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return false;
  const from = importOf(context, callee);
  return from !== undefined && STANDALONE_FACTORY_PACKAGES.has(from.source) && from.imported === 'createClient';
}

/**
 * Whether a declared type names a client of one server only: ioredis / iovalkey `Redis` (the
 * default export, `IORedis.Redis`), node-redis `RedisClientType`, GLIDE `GlideClient`, imported
 * from the client's package; a union whose every member is one (or `null` / `undefined`). A
 * `Cluster`, `RedisClusterType`, `GlideClusterClient`, a type of the code's own or anything else: no.
 */
function declaresStandalone(context: AnyContext, type: TSESTree.TypeNode, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (type.type === AST_NODE_TYPES.TSUnionType) {
    const clients = type.types.filter((member) => member.type !== AST_NODE_TYPES.TSNullKeyword && member.type !== AST_NODE_TYPES.TSUndefinedKeyword);
    return clients.length > 0 && clients.every((member) => declaresStandalone(context, member, depth + 1));
  }
  if (type.type !== AST_NODE_TYPES.TSTypeReference) return false;
  const name = type.typeName;
  if (name.type === AST_NODE_TYPES.Identifier && (name.name === 'ReturnType' || name.name === 'InstanceType') && !findVariable(context, name)?.defs.length) {
    return typeOfBuilder(context, type, name.name === 'ReturnType' ? 'call' : 'new');
  }
  if (name.type === AST_NODE_TYPES.Identifier) {
    const from = importOf(context, name);
    if (!from) return false;
    return (
      (STANDALONE_CONSTRUCTOR_PACKAGES.has(from.source) && STANDALONE_CONSTRUCTORS.has(from.imported)) ||
      (STANDALONE_TYPE_PACKAGES.has(from.source) && STANDALONE_TYPE_NAMES.has(from.imported))
    );
  }
  // IORedis.Redis (import * as IORedis / import IORedis from 'ioredis'); not Redis.Cluster
  if (name.type !== AST_NODE_TYPES.TSQualifiedName || name.left.type !== AST_NODE_TYPES.Identifier) return false;
  const origin = originOf(context, name.left);
  return origin.kind === 'import' && STANDALONE_CONSTRUCTOR_PACKAGES.has(origin.source) && STANDALONE_CONSTRUCTORS.has(name.right.name);
}

/**
 * Whether `ReturnType<typeof createClient>` / `InstanceType<typeof Redis>` (TypeScript's own
 * utility types, `reference`) names what a standalone builder of a client package gives: the
 * result of node-redis `createClient`, an instance of ioredis / iovalkey `Redis`.
 */
function typeOfBuilder(context: AnyContext, reference: TSESTree.TSTypeReference, kind: 'call' | 'new'): boolean {
  const args = (reference as TSESTree.TSTypeReference & { typeArguments?: TSESTree.TSTypeParameterInstantiation }).typeArguments?.params;
  const query = args?.length === 1 ? args[0] : undefined;
  if (query?.type !== AST_NODE_TYPES.TSTypeQuery || query.exprName.type !== AST_NODE_TYPES.Identifier) return false;
  const from = importOf(context, query.exprName);
  if (!from) return false;
  return kind === 'call'
    ? STANDALONE_FACTORY_PACKAGES.has(from.source) && from.imported === 'createClient'
    : STANDALONE_CONSTRUCTOR_PACKAGES.has(from.source) && STANDALONE_CONSTRUCTORS.has(from.imported);
}

/** The type annotation of a parameter (`redis: Redis`, `private redis: Redis`, `redis: Redis = x`). */
function parameterType(parameter: TSESTree.Node): TSESTree.TypeNode | undefined {
  const inner = parameter.type === AST_NODE_TYPES.TSParameterProperty ? parameter.parameter : parameter;
  const bare = inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner;
  return bare.type === AST_NODE_TYPES.Identifier ? bare.typeAnnotation?.typeAnnotation : undefined;
}

/** Whether `this.name` of the class around `node` is declared or built as a standalone client. */
function standaloneMember(context: AnyContext, node: TSESTree.Node, name: string): boolean {
  let body: TSESTree.Node | undefined = node.parent;
  // the nearest class whose `this` this is: arrow functions keep it, other functions do not
  while (body && body.type !== AST_NODE_TYPES.ClassBody) {
    if (body.type === AST_NODE_TYPES.FunctionDeclaration || (body.type === AST_NODE_TYPES.FunctionExpression && body.parent?.type !== AST_NODE_TYPES.MethodDefinition)) return false;
    body = body.parent;
  }
  if (!body) return false;
  for (const member of body.body) {
    if (member.type === AST_NODE_TYPES.PropertyDefinition && !member.computed && propertyName(member.key) === name) {
      const declared = member.typeAnnotation?.typeAnnotation;
      if (declared) return declaresStandalone(context, declared);
      // untyped (JavaScript): a method may replace it (`this.redis = new Redis.Cluster(nodes)`)
      return member.value !== null && buildsStandalone(context, member.value) && !assignsMember(context, body, name);
    }
    if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor') {
      for (const parameter of member.value.params) {
        if (parameter.type !== AST_NODE_TYPES.TSParameterProperty) continue;
        const inner = parameter.parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.parameter.left : parameter.parameter;
        if (inner.type !== AST_NODE_TYPES.Identifier || inner.name !== name) continue;
        const declared = parameterType(parameter);
        return declared !== undefined && declaresStandalone(context, declared);
      }
    }
  }
  return false;
}

/** Whether some code of the class body `body` assigns `this.name` (`this.redis = new Redis.Cluster(nodes)`). */
function assignsMember(context: AnyContext, body: TSESTree.ClassBody, name: string): boolean {
  return walk(context, body, (n) =>
    n.type === AST_NODE_TYPES.AssignmentExpression &&
    n.left.type === AST_NODE_TYPES.MemberExpression &&
    n.left.object.type === AST_NODE_TYPES.ThisExpression &&
    propertyName(n.left.property, n.left.computed) === name
      ? 'stop'
      : undefined,
  );
}

/** Whether the value `node` stands for is a standalone client, by where it is built or declared. */
function standaloneOrigin(context: AnyContext, input: TSESTree.Node, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const node = unwrap(input);
  if (node.type === AST_NODE_TYPES.MemberExpression && node.object.type === AST_NODE_TYPES.ThisExpression) {
    const name = propertyName(node.property, node.computed);
    return name !== undefined && standaloneMember(context, node, name);
  }
  if (node.type === AST_NODE_TYPES.AwaitExpression) return standaloneOrigin(context, node.argument, depth);
  // `redisClient ?? (await getClient())`, `cond ? a : b`: whichever value it takes is one of its operands
  if (node.type === AST_NODE_TYPES.LogicalExpression && node.operator !== '&&') return standaloneOrigin(context, node.left, depth + 1) && standaloneOrigin(context, node.right, depth + 1);
  if (node.type === AST_NODE_TYPES.ConditionalExpression) return standaloneOrigin(context, node.consequent, depth + 1) && standaloneOrigin(context, node.alternate, depth + 1);
  if (node.type !== AST_NODE_TYPES.Identifier) return buildsStandalone(context, node) || returnsStandalone(context, node, depth);
  const init = constInitializer(context, node);
  // (`const redis = require('./client')` is read below, as the module's export)
  if (init && (buildsStandalone(context, init) || standaloneOrigin(context, init, depth + 1))) return true;
  const variable = findVariable(context, node);
  const def = variable?.defs[0];
  if (def?.type === 'Parameter') {
    const declared = def.name.type === AST_NODE_TYPES.Identifier ? parameterType(declaredParameter(def.name)) : undefined;
    return declared !== undefined && declaresStandalone(context, declared);
  }
  // a `let` holding the connection a function builds on first use (`let client: RedisClientType | null = null`)
  if (variable && def?.type === 'Variable' && variable.defs.length === 1 && def.name.type === AST_NODE_TYPES.Identifier) {
    if (standaloneVariable(context, variable, depth)) return true;
    if (def.name.typeAnnotation) return false;
  }
  // a client built in another module of the code: `import { redis } from './client'`,
  // `const { redis } = require('./client')`, `import redis from './client'`, `const redis = require('./client')`
  const named = importedBinding(context, node);
  if (named) {
    const bound = moduleBinding(named.module, named.name);
    if (bound) return standaloneOrigin(moduleContext(context, bound.module), bound.node, depth + 1);
    const exported = exportedValue(named.module.program, named.name);
    if (exported !== undefined) return standaloneOrigin(moduleContext(context, named.module), exported, depth + 1);
    // `export let redisClient: ReturnType<typeof createClient>;` that `connectRedis()` assigns
    const exportedLet = exportedVariable(moduleContext(context, named.module), named.module.program, named.name);
    return exportedLet !== undefined && standaloneVariable(moduleContext(context, named.module), exportedLet, depth + 1);
  }
  const defaultModule = def?.type === 'ImportBinding' && def.node.type === AST_NODE_TYPES.ImportDefaultSpecifier && def.parent?.type === AST_NODE_TYPES.ImportDeclaration
    ? loadModule(context, def.parent.source.value, { packages: true })
    : namespaceModule(context, node);
  if (!defaultModule) return false;
  const value = defaultExport(defaultModule.program);
  return value !== undefined && standaloneOrigin(moduleContext(context, defaultModule), value, depth + 1);
}

/**
 * Whether a variable declared once (`let client: RedisClientType | null = null`, `export let
 * redisClient: ReturnType<typeof createClient>`, `let client = null`) holds a standalone client:
 * its declared type is one, or, not a `const`, every value its module gives it builds one (a
 * module's `let` is written only by that module: an importer's binding is read-only).
 */
function standaloneVariable(context: AnyContext, variable: NonNullable<ReturnType<typeof findVariable>>, depth: number): boolean {
  const def = variable.defs[0];
  if (variable.defs.length !== 1 || def?.type !== 'Variable' || def.name.type !== AST_NODE_TYPES.Identifier) return false;
  const declared = def.name.typeAnnotation?.typeAnnotation;
  if (declared && declaresStandalone(context, declared)) return true;
  return def.parent?.kind !== 'const' && everyWriteBuildsStandalone(context, variable, depth);
}

/**
 * The top-level `let` / `var` a module exports under `name` (`export let redisClient`, `let
 * client; export { client as redisClient }`), read in the module's own context `context`.
 */
function exportedVariable(context: AnyContext, program: TSESTree.Program, name: string): NonNullable<ReturnType<typeof findVariable>> | undefined {
  let local: string | undefined;
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration || statement.source) continue;
    const declaration = statement.declaration;
    if (declaration?.type === AST_NODE_TYPES.VariableDeclaration && declaration.declarations.some((d) => d.id.type === AST_NODE_TYPES.Identifier && d.id.name === name)) local = name;
    for (const specifier of statement.specifiers) {
      if (propertyName(specifier.exported) === name && specifier.local.type === AST_NODE_TYPES.Identifier) local = specifier.local.name;
    }
  }
  if (local === undefined) return undefined;
  for (const statement of program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind === 'const') continue;
    for (const declarator of declaration.declarations) {
      if (declarator.id.type !== AST_NODE_TYPES.Identifier || declarator.id.name !== local) continue;
      return context.sourceCode.getDeclaredVariables(declarator).find((v) => v.name === local);
    }
  }
  return undefined;
}

/** Whether `value` is `null` or `undefined` (a client not built yet). */
function noClient(value: TSESTree.Node): boolean {
  const bare = unwrap(value);
  return (bare.type === AST_NODE_TYPES.Literal && bare.value === null) || (bare.type === AST_NODE_TYPES.Identifier && bare.name === 'undefined');
}

/**
 * Whether every value a variable is given is a standalone client (built as one, or one by its
 * origin: `redis = await getClient()` of an accessor declared to return one), or is no client yet
 * (`let client = null; ... client = createClient(url)`), and one does give it a client. Its
 * declared type then says nothing more (`let redis: Awaited<ReturnType<typeof getClient>>`).
 */
function everyWriteBuildsStandalone(context: AnyContext, variable: NonNullable<ReturnType<typeof findVariable>>, depth: number): boolean {
  let builds = false;
  for (const reference of variable.references) {
    if (!reference.isWrite()) continue;
    const value = reference.writeExpr;
    // `client ??= createClient()` is an assignment whose writeExpr is its right side, as `=` is
    const assignment = reference.identifier.parent;
    if (!value || (assignment?.type === AST_NODE_TYPES.AssignmentExpression && assignment.operator !== '=' && assignment.operator !== '??=' && assignment.operator !== '||=')) return false;
    if (noClient(value)) continue;
    if (!buildsStandalone(context, value) && !standaloneOrigin(context, value, depth + 1)) return false;
    builds = true;
  }
  return builds;
}

/** The function a call's callee names: one of this file, or one a relative module exports (`import { getClient } from './redis'`), with the context of its module. */
function calledFunction(context: AnyContext, callee: TSESTree.Identifier): { fn: TSESTree.FunctionLike; context: AnyContext } | undefined {
  const isFunction = (node: TSESTree.Node | undefined): node is TSESTree.FunctionLike =>
    node !== undefined &&
    (node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.ArrowFunctionExpression);
  const def = findVariable(context, callee)?.defs[0];
  if (def?.type === 'FunctionName' && isFunction(def.node)) return { fn: def.node, context };
  if (def?.type === 'Variable') {
    const init = constInitializer(context, callee);
    const bare = init ? unwrap(init) : undefined;
    return isFunction(bare) ? { fn: bare, context } : undefined;
  }
  const named = importedBinding(context, callee);
  if (!named) return undefined;
  const declared = topLevelDeclaration(named.module.program, named.name);
  return isFunction(declared) ? { fn: declared, context: moduleContext(context, named.module) } : undefined;
}

/** Whether `node` is a function expression (arrow or `function`). */
function isFunctionExpression(node: TSESTree.Node | undefined): node is TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression {
  return node !== undefined && (node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression);
}

/**
 * The object literals a value of the code's own is (`const redisSingleton = { getClient: ... }`,
 * this file's or exported by the module it is imported from), or that the factory of the code's own
 * it is the result of returns (`const redisSingleton = createRedisSingleton()` whose every return is
 * an object literal), each with the context of its module. `undefined` when one is anything else.
 */
function objectLiterals(context: AnyContext, input: TSESTree.Node, depth: number): Array<{ object: TSESTree.ObjectExpression; context: AnyContext }> | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const node = unwrap(input);
  if (node.type === AST_NODE_TYPES.ObjectExpression) return [{ object: node, context }];
  if (node.type === AST_NODE_TYPES.Identifier) {
    const init = constInitializer(context, node);
    if (init) return objectLiterals(context, init, depth + 1);
    const named = importedBinding(context, node);
    const bound = named ? moduleBinding(named.module, named.name) : undefined;
    return bound ? objectLiterals(moduleContext(context, bound.module), bound.node, depth + 1) : undefined;
  }
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(node.callee);
  const factory = callee.type === AST_NODE_TYPES.Identifier ? calledFunction(context, callee) : undefined;
  if (!factory?.fn.body) return undefined;
  const returned: TSESTree.Node[] = [];
  if (factory.fn.body.type !== AST_NODE_TYPES.BlockStatement) returned.push(factory.fn.body);
  else {
    walk(factory.context, factory.fn.body, (n) => {
      if (n.type === AST_NODE_TYPES.ReturnStatement) returned.push(n.argument ?? n);
      return undefined;
    }, { skipFunctions: true });
  }
  const objects = returned.map((value) => unwrap(value));
  return objects.length > 0 && objects.every((value) => value.type === AST_NODE_TYPES.ObjectExpression)
    ? objects.map((object) => ({ object: object as TSESTree.ObjectExpression, context: factory.context }))
    : undefined;
}

/**
 * The functions a method call's callee names (`redisSingleton.getClient`): the property of that
 * name of each object literal its receiver is ({@link objectLiterals}), when it is a function
 * (`getClient: async (): Promise<Redis> => ...`, `getClient() {...}`). `undefined` when the
 * receiver is not one of those, a spread could give the method, or a property is anything else.
 */
function calledMethods(context: AnyContext, callee: TSESTree.MemberExpression, depth: number): Array<{ fn: TSESTree.FunctionLike; context: AnyContext }> | undefined {
  const name = propertyName(callee.property, callee.computed);
  const objects = name === undefined ? undefined : objectLiterals(context, callee.object, depth + 1);
  if (!objects) return undefined;
  const out: Array<{ fn: TSESTree.FunctionLike; context: AnyContext }> = [];
  for (const { object, context: at } of objects) {
    if (object.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement)) return undefined;
    // the last property of that name is the one the object keeps
    const property = [...object.properties].reverse().find((p) => p.type === AST_NODE_TYPES.Property && propertyName(p.key, p.computed) === name);
    const value = property?.type === AST_NODE_TYPES.Property && property.kind === 'init' ? unwrap(property.value) : undefined;
    if (!isFunctionExpression(value)) return undefined;
    out.push({ fn: value, context: at });
  }
  return out;
}

/** `Promise<T>` -> `T` (an async accessor's declared result), anything else as it is. */
function awaitedType(type: TSESTree.TypeNode): TSESTree.TypeNode {
  if (type.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier || type.typeName.name !== 'Promise') return type;
  const args = (type as TSESTree.TSTypeReference & { typeArguments?: TSESTree.TSTypeParameterInstantiation }).typeArguments?.params;
  return args?.length === 1 ? args[0]! : type;
}

/**
 * Whether `call` (`getRedisClient()`, `await getClient()`) calls a function of the code's own that
 * hands back a standalone client: its declared result is a standalone client type (`():
 * RedisClientType | null`, `Promise<Redis>`), or, undeclared, every value it returns is one by its
 * origin (the module's `let client` built with `createClient()`).
 */
function returnsStandalone(context: AnyContext, call: TSESTree.Node, depth: number): boolean {
  if (call.type !== AST_NODE_TYPES.CallExpression || depth >= MAX_DEPTH) return false;
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    // `redisSingleton.getClient()`: a method of an object literal of the code's own
    const methods = calledMethods(context, callee, depth);
    return methods !== undefined && methods.length > 0 && methods.every((found) => functionReturnsStandalone(found, depth));
  }
  if (callee.type !== AST_NODE_TYPES.Identifier) return false;
  const found = calledFunction(context, callee);
  return found !== undefined && functionReturnsStandalone(found, depth);
}

/** Whether a function of the code's own hands back a standalone client: its declared result is one, or, undeclared, every value it returns is one by its origin. */
function functionReturnsStandalone({ fn, context: fnContext }: { fn: TSESTree.FunctionLike; context: AnyContext }, depth: number): boolean {
  const declared = fn.returnType?.typeAnnotation;
  if (declared) return declaresStandalone(fnContext, awaitedType(declared));
  if (!fn.body) return false;
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return standaloneOrigin(fnContext, fn.body, depth + 1);
  const returned: TSESTree.Node[] = [];
  walk(fnContext, fn.body, (n) => {
    if (n.type === AST_NODE_TYPES.ReturnStatement) returned.push(n.argument ?? n);
    return undefined;
  }, { skipFunctions: true });
  return returned.length > 0 && returned.every((value) => value.type !== AST_NODE_TYPES.ReturnStatement && standaloneOrigin(fnContext, value, depth + 1));
}

/** The parameter node a parameter's name belongs to (`private redis: Redis` for `redis`). */
function declaredParameter(name: TSESTree.Identifier): TSESTree.Node {
  const parent = name.parent;
  if (parent?.type === AST_NODE_TYPES.AssignmentPattern && parent.left === name) {
    return parent.parent?.type === AST_NODE_TYPES.TSParameterProperty ? parent.parent : parent;
  }
  return parent?.type === AST_NODE_TYPES.TSParameterProperty ? parent : name;
}

/** `export default <expression>` (or of a top-level `const`), CommonJS `module.exports = <expression>`. */
function defaultExport(program: TSESTree.Program): TSESTree.Node | undefined {
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExportDefaultDeclaration) continue;
    const declaration = statement.declaration;
    if (declaration.type === AST_NODE_TYPES.Identifier) return topLevelConst(program, declaration.name) ?? declaration;
    return declaration;
  }
  return commonJsDefault(program);
}

/**
 * Whether `call` (`redis.eval(...)`, `redis.defineCommand(...)`) is sent through a client that
 * never talks to a Cluster: its receiver is built or declared as a standalone client (in this file
 * or the module it is imported from), or the project is an application that builds no Cluster
 * client anywhere. `false` when nothing says so (a receiver of unknown origin in a library, a
 * project that may build a Cluster client and a receiver that may be it).
 */
export function sentThroughStandaloneClient(context: AnyContext, call: TSESTree.CallExpression | TSESTree.NewExpression): boolean {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  return standaloneOrigin(context, callee.object, 0) || applicationWithoutClusterClient(context);
}
