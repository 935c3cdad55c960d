/**
 * Syntax the client detector (`redis-calls/clients.ts`) reads without judging: where a name
 * comes from ({@link originOf}), what a pattern, a class member or a CommonJS module binds, the
 * values a function returns, and which declared interfaces describe a client's commands.
 */
import { optionalRequireSource } from './optional-require.js';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describeCommand } from '../semantics/commands.js';
import { isCodeSpecifier, loadModule, packageReExport } from './modules.js';
import { clientPackageOf, type ClientFlavor, type ClientPackage } from './client-packages.js';
import { declaredPathAlias } from './resolve.js';
import { commandOfMethod } from './command-methods.js';
import { findVariable, requiredModule, unwrap, type AnyContext } from './static.js';

/** Wrappers whose members are their argument's: `Readonly<Deps>`, `Partial<Options>`. */
export const TRANSPARENT_TYPES: ReadonlySet<string> = new Set(['Readonly', 'Partial', 'Required', 'NonNullable']);

/**
 * Method names a cache, a map or a store of the application has as often as a Redis client: an
 * interface declaring only those describes no client.
 */
export const GENERIC_STORE_METHODS: ReadonlySet<string> = new Set(['get', 'set', 'del', 'delete', 'has', 'clear', 'keys', 'exists', 'values', 'entries', 'size', 'on', 'off', 'once', 'connect', 'disconnect', 'quit', 'close', 'ping']);

/**
 * Whether the members of an interface or type literal of the code describe a Redis client
 * structurally: a method named after a Redis command that is not a generic store method
 * (`expire`, `incr`, `hset`, `pipeline`, ...), as a code base declares the part of a client it
 * takes (`interface RateLimitRedis { pipeline(): ...; expire(k, s): ... }`).
 */
export function describesClient(members: readonly TSESTree.TypeElement[]): boolean {
  return members.some((member) => {
    if (member.type !== AST_NODE_TYPES.TSMethodSignature && member.type !== AST_NODE_TYPES.TSPropertySignature) return false;
    const name = memberKeyName(member.key, member.computed);
    if (member.type === AST_NODE_TYPES.TSPropertySignature && member.typeAnnotation?.typeAnnotation.type !== AST_NODE_TYPES.TSFunctionType) return false;
    return name !== undefined && isClientCommandName(name);
  });
}

/**
 * The Redis commands a declared type of the code has as methods when it describes a client by its
 * shape (a duck-typed client: `interface SessionClient { get(key: string): ...; set(key: string,
 * value: string): ...; setEx?(key: string, ttlSeconds: number, value: string): ...; expire?(key:
 * string, ttlSeconds: number): ... }`), else `undefined`. Tight on purpose:
 *
 * - at least two methods (or function-typed properties) are named after commands of the shared
 *   command table (`semantics/commands.ts`: `incr`, `setEx`, `hSet`, `get`, ...) and have
 *   Redis-shaped parameters: the command's key first, typed as a key (`string`, `Buffer`, a union
 *   of them, a type named like `RedisKey` / `RedisArgument`, or untyped), and, for a command with a
 *   TTL argument (EXPIRE, SETEX, ...), that parameter present and typed `number` (or untyped);
 * - at least one of them is a command no generic store has (`expire`, `setEx`, `incr`, `hset`:
 *   not `get` / `set` / `del` / `delete` / `has` / ...), so a `Map`-like `get` / `set` / `delete`
 *   store, or a cache `get(key) / set(key, value, ttl) / del(key)`, is never a client.
 */
export function duckTypedCommands(members: readonly TSESTree.TypeElement[]): string[] | undefined {
  const commands: string[] = [];
  for (const member of members) {
    if (member.type !== AST_NODE_TYPES.TSMethodSignature && member.type !== AST_NODE_TYPES.TSPropertySignature) continue;
    let params: readonly TSESTree.Parameter[] | undefined;
    if (member.type === AST_NODE_TYPES.TSMethodSignature) params = member.params;
    else if (member.typeAnnotation?.typeAnnotation.type === AST_NODE_TYPES.TSFunctionType) params = member.typeAnnotation.typeAnnotation.params;
    const name = params ? memberKeyName(member.key, member.computed) : undefined;
    const resolved = name === undefined ? undefined : commandOfMethod(name);
    if (!params || !name || !resolved || resolved.prefix.length > 0 || !redisShaped(resolved.command, params)) continue;
    if (!commands.includes(name)) commands.push(name);
  }
  const distinctive = commands.some((name) => !GENERIC_STORE_METHODS.has(name.toLowerCase()));
  return commands.length >= 2 && distinctive ? commands : undefined;
}

/**
 * Whether a module declares a type that is a client by its shape ({@link duckTypedCommands}): a
 * top-level interface or type alias, or a type literal annotating a parameter of a top-level
 * function (declared, or a `const` arrow / function expression). Deeper type literals are not
 * looked for.
 */
export function declaresDuckTypedClient(program: TSESTree.Program): boolean {
  const literal = (param: TSESTree.Parameter): boolean => {
    const annotation = param.type === AST_NODE_TYPES.Identifier ? param.typeAnnotation?.typeAnnotation : undefined;
    return annotation?.type === AST_NODE_TYPES.TSTypeLiteral && duckTypedCommands(annotation.members) !== undefined;
  };
  return program.body.some((statement) => {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration ? statement.declaration : statement;
    if (declaration?.type === AST_NODE_TYPES.TSInterfaceDeclaration) return duckTypedCommands(declaration.body.body) !== undefined;
    if (declaration?.type === AST_NODE_TYPES.TSTypeAliasDeclaration) {
      return declaration.typeAnnotation.type === AST_NODE_TYPES.TSTypeLiteral && duckTypedCommands(declaration.typeAnnotation.members) !== undefined;
    }
    if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration) return declaration.params.some(literal);
    if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration) return false;
    return declaration.declarations.some(
      (d) => (d.init?.type === AST_NODE_TYPES.ArrowFunctionExpression || d.init?.type === AST_NODE_TYPES.FunctionExpression) && d.init.params.some(literal),
    );
  });
}

/** Whether a method's parameters fit the command's argv: its key first, its TTL typed as a number. */
function redisShaped(command: string, params: readonly TSESTree.Parameter[]): boolean {
  // a rest parameter stands for any number of arguments: three are enough for every TTL position here
  const count = params.some((p) => p.type === AST_NODE_TYPES.RestElement) ? params.length + 2 : params.length;
  const description = describeCommand(command, Array.from({ length: count }, () => undefined));
  if (description.keys[0]?.arg !== 0 || !params[0] || !keyTyped(params[0])) return false;
  if (!description.ttl) return true;
  const ttl = params[description.ttl.arg];
  if (!ttl) return false;
  const annotation = ttl.type === AST_NODE_TYPES.Identifier ? ttl.typeAnnotation?.typeAnnotation : undefined;
  return annotation === undefined || annotation.type === AST_NODE_TYPES.TSNumberKeyword;
}

/** A parameter typed as a Redis key: untyped, `string`, `Buffer`, a union of them, `RedisKey`-like names. */
function keyTyped(param: TSESTree.Parameter): boolean {
  if (param.type !== AST_NODE_TYPES.Identifier) return false;
  const annotation = param.typeAnnotation?.typeAnnotation;
  const fits = (type: TSESTree.TypeNode): boolean => {
    if (type.type === AST_NODE_TYPES.TSStringKeyword) return true;
    if (type.type === AST_NODE_TYPES.TSUnionType) return type.types.every(fits);
    return type.type === AST_NODE_TYPES.TSTypeReference && type.typeName.type === AST_NODE_TYPES.Identifier && /^(?:Buffer|\w*Key\w*|RedisArgument|RedisCommandArgument)$/.test(type.typeName.name);
  };
  return annotation === undefined || fits(annotation);
}

/** A method name that says Redis: a command of the table that is no generic store method, or `pipeline` / `multi`. */
export function isClientCommandName(name: string): boolean {
  if (GENERIC_STORE_METHODS.has(name.toLowerCase())) return false;
  return name === 'pipeline' || name === 'multi' || commandOfMethod(name) !== undefined;
}

/** `Promise<T>` / `PromiseLike<T>` -> `T` (what an awaited call gives); any other type as it is. */
export function promisedType(type: TSESTree.TypeNode): TSESTree.TypeNode {
  if (
    type.type === AST_NODE_TYPES.TSTypeReference &&
    type.typeName.type === AST_NODE_TYPES.Identifier &&
    (type.typeName.name === 'Promise' || type.typeName.name === 'PromiseLike') &&
    type.typeArguments?.params.length === 1
  ) {
    return type.typeArguments.params[0]!;
  }
  return type;
}

/**
 * The outermost destructuring pattern a binding belongs to (`{ redis }` of `({ redis }: Deps) =>`
 * or of `const { redis } = ctx`), or the binding itself when it is not destructured.
 */
export function outermostPattern(id: TSESTree.Identifier): TSESTree.Node {
  let current: TSESTree.Node = id;
  for (;;) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) return current;
    const inPattern =
      parent.type === AST_NODE_TYPES.ObjectPattern ||
      parent.type === AST_NODE_TYPES.ArrayPattern ||
      (parent.type === AST_NODE_TYPES.Property && parent.parent?.type === AST_NODE_TYPES.ObjectPattern) ||
      // `{ redis = fallback }` (a default inside the pattern, not the parameter's own default)
      (parent.type === AST_NODE_TYPES.AssignmentPattern &&
        parent.left === current &&
        parent.parent !== undefined &&
        !isFunctionNode(parent.parent) &&
        parent.parent.type !== AST_NODE_TYPES.TSParameterProperty);
    if (!inPattern) return current;
    current = parent;
  }
}

export function isFunctionNode(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node.type === AST_NODE_TYPES.TSDeclareFunction ||
    node.type === AST_NODE_TYPES.TSEmptyBodyFunctionExpression
  );
}

/**
 * The property names from an object pattern down to one of its bindings: `['services', 'redis']`
 * for `store` in `{ services: { redis: store } }`; `undefined` through an array, a rest element or
 * a computed key.
 */
export function propertyPath(pattern: TSESTree.Node, binding: TSESTree.Identifier): string[] | undefined {
  const path: string[] = [];
  let current: TSESTree.Node = binding;
  while (current !== pattern) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) return undefined;
    if (parent.type === AST_NODE_TYPES.Property) {
      const key = parent.computed ? undefined : memberKeyName(parent.key, false) ?? (parent.key.type === AST_NODE_TYPES.Literal && typeof parent.key.value === 'string' ? parent.key.value : undefined);
      if (key === undefined) return undefined;
      path.unshift(key);
    } else if (parent.type !== AST_NODE_TYPES.ObjectPattern && parent.type !== AST_NODE_TYPES.AssignmentPattern) {
      return undefined;
    }
    current = parent;
  }
  return path;
}

/**
 * The declared type of a class member: a property's annotation (`private redis: Redis`), or a
 * constructor parameter property's (`constructor(private readonly redis: Redis)`).
 */
export function classMemberType(cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression, name: string, isStatic: boolean): TSESTree.TypeNode | undefined {
  for (const member of cls.body.body) {
    if (
      (member.type === AST_NODE_TYPES.PropertyDefinition || member.type === AST_NODE_TYPES.TSAbstractPropertyDefinition) &&
      member.static === isStatic &&
      memberKeyName(member.key, member.computed) === name &&
      member.typeAnnotation
    ) {
      return member.typeAnnotation.typeAnnotation;
    }
    if (!isStatic && member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor') {
      for (const param of member.value.params) {
        if (param.type !== AST_NODE_TYPES.TSParameterProperty) continue;
        const inner = param.parameter.type === AST_NODE_TYPES.AssignmentPattern ? param.parameter.left : param.parameter;
        if (inner.type === AST_NODE_TYPES.Identifier && inner.name === name && inner.typeAnnotation) return inner.typeAnnotation.typeAnnotation;
      }
    }
  }
  return undefined;
}

export { isRequire, requiredModule, returnedExpressions } from './static.js';

/** Whether a node sits in a static member (method, property, block) of `cls`. */
export function inStaticMember(node: TSESTree.Node, cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression): boolean {
  for (let current: TSESTree.Node | undefined = node; current && current !== cls; current = current.parent) {
    if (current.parent === cls.body) {
      return (
        ((current.type === AST_NODE_TYPES.MethodDefinition || current.type === AST_NODE_TYPES.PropertyDefinition) && current.static) ||
        current.type === AST_NODE_TYPES.StaticBlock
      );
    }
  }
  return false;
}

export function enclosingClass(node: TSESTree.Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined {
  let current: TSESTree.Node | undefined = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.ClassDeclaration || current.type === AST_NODE_TYPES.ClassExpression) {
      return current;
    }
    current = current.parent;
  }
  return undefined;
}

/**
 * The name of a class member as written: `redis` for `redis` / `this.redis`, `#redis` for a
 * private field (`#redis` and `redis` are different members of one class); `undefined` when
 * computed.
 */
export function memberKeyName(key: TSESTree.Node, computed: boolean): string | undefined {
  if (key.type === AST_NODE_TYPES.PrivateIdentifier) return `#${key.name}`;
  return !computed && key.type === AST_NODE_TYPES.Identifier ? key.name : undefined;
}

/** The name an import binding takes from its module: `{ createClient as mk }` -> `createClient`. */
export function bindingImportedName(node: TSESTree.Node): { imported?: string } {
  if (node.type !== AST_NODE_TYPES.ImportSpecifier) return {};
  const imported = node.imported.type === AST_NODE_TYPES.Identifier ? node.imported.name : String(node.imported.value);
  return { imported };
}

/** The property a destructured binding reads: `const { createClient: mk } = ...` -> `createClient` for `mk`. */
export function destructuredName(pattern: TSESTree.Node, binding: TSESTree.Identifier): { imported?: string } {
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return {};
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (value !== binding) continue;
    if (property.computed) return {};
    if (property.key.type === AST_NODE_TYPES.Identifier) return { imported: property.key.name };
    if (property.key.type === AST_NODE_TYPES.Literal && typeof property.key.value === 'string') return { imported: property.key.value };
  }
  return {};
}

/**
 * The name a binding was imported under in its module, when it is a named import (`createClient`
 * for `import { createClient as mk }` or `const { createClient: mk } = require(...)`); default and
 * namespace imports, and local names, answer `undefined`.
 */
export function importedName(origin: { kind: string; imported?: string }): string | undefined {
  return origin.kind === 'import' ? origin.imported : undefined;
}

/** An import of another module, as the client detector follows it. */
export interface ImportOrigin {
  source: string;
  /**
   * A module of the code (`redis-calls/modules.ts` `isCodeSpecifier`): a relative specifier, or a
   * tsconfig path alias / workspace package that resolves into the repository. Its declarations
   * are read where they are written; any other import is a package's. A specifier spelled like a
   * client package (`'@redis/redis.service.js'`) is the code's only through a `paths` alias the
   * project declared for it ({@link ownSpecifier}).
   */
  own: boolean;
  /** The name imported (`'default'` for a default import); absent for a whole module. */
  imported?: string;
  /** `import * as m from './m'`. */
  namespace?: true;
}

/** Where a name comes from: an import (with its module), a declaration in this file, or nowhere. */
export type IdentifierOrigin =
  | ({ kind: 'import' } & ImportOrigin)
  | {
      kind: 'local';
      classNode?: TSESTree.ClassDeclaration | TSESTree.ClassExpression;
      typeNode?: TSESTree.TSTypeAliasDeclaration | TSESTree.TSInterfaceDeclaration;
      /** The initializer of a `const` (`const Client = Redis`). */
      init?: TSESTree.Expression;
      typeParameter?: TSESTree.TSTypeParameter;
      enumNode?: TSESTree.TSEnumDeclaration;
    }
  | { kind: 'global' };

/**
 * Whether an import's specifier names a module of the code (`isCodeSpecifier`). One spelled like a
 * client package's (`@redis/*` is node-redis' scope) counts only when a `paths` pattern of the
 * project's tsconfig names it (`"@redis/*": ["src/redis/*"]`: TypeScript and the path-alias
 * loaders resolve it there before `node_modules`) and it resolves to a file of the code; a bare
 * `baseUrl` or the catch-all `*` pattern leaves `'redis'` the package even beside a `src/redis/`.
 */
export function ownSpecifier(from: string | undefined, source: string): boolean {
  if (!isCodeSpecifier(from, source)) return false;
  return !clientPackageOf(source) || (from !== undefined && declaredPathAlias(from, source));
}

/**
 * The client package an import brings, else `undefined`: never for a module of the code, even one
 * whose specifier is spelled like a package's (an alias `@redis/redis.service.js` of the project's
 * own `RedisService`: {@link ownSpecifier}).
 */
export function importedPackage(origin: ImportOrigin): ClientPackage | undefined {
  return origin.own ? undefined : clientPackageOf(origin.source);
}

/** The flavor of the client package an import brings ({@link importedPackage}), else `undefined`. */
export function importedFlavor(origin: ImportOrigin): ClientFlavor | undefined {
  return importedPackage(origin)?.flavor;
}

/**
 * The origin of a binding imported from `source`: a name that a module of the code only passes on
 * from a client package (`export { createClient } from 'redis'` in `./lib/redis`) comes from that
 * package, as the import says once followed (modules.ts `packageReExport`).
 */
function importOrigin(context: AnyContext, source: string, own: boolean, imported: string | undefined): IdentifierOrigin {
  const module = own && imported !== undefined ? loadModule(context, source, { packages: true }) : undefined;
  const passed = module && packageReExport(module, imported!, ownSpecifier, (pkg) => clientPackageOf(pkg) !== undefined);
  if (passed) return { kind: 'import', source: passed.source, own: false, imported: passed.name };
  return { kind: 'import', source, own, ...(imported === undefined ? {} : { imported }) };
}

/**
 * Where the name `node` comes from in the file of `context`: an import (`own` when it is a module
 * of the code: relative, or a path alias / workspace package into the repository; `import x =
 * require('m')` as `const x = require('m')`), a declaration of the file (a class, type, `const`,
 * type parameter, enum, an `import x = A.B` alias), or nowhere (a global).
 */
export function originOf(context: AnyContext, node: TSESTree.Identifier): IdentifierOrigin {
  const variable = findVariable(context, node);
  if (!variable || variable.defs.length === 0) return { kind: 'global' };
  const def = variable.defs[0]!;
  const from = context.physicalFilename ?? context.filename;
  if (def.type === 'ImportBinding' && def.node.type === AST_NODE_TYPES.TSImportEqualsDeclaration) {
    // import Redis = require('ioredis'): TypeScript's CommonJS import, the module `require` returns;
    // import r = Outer.redis: an alias of a namespace member, declared in the code
    const reference = def.node.moduleReference;
    if (reference.type !== AST_NODE_TYPES.TSExternalModuleReference || typeof reference.expression.value !== 'string') return { kind: 'local' };
    const source = reference.expression.value;
    return importOrigin(context, source, ownSpecifier(from, source), undefined);
  }
  if (def.type === 'ImportBinding') {
    const declaration = def.parent;
    const source = declaration.type === AST_NODE_TYPES.ImportDeclaration ? declaration.source.value : '';
    const own = ownSpecifier(from, source);
    if (def.node.type === AST_NODE_TYPES.ImportNamespaceSpecifier) return { kind: 'import', source, own, namespace: true };
    if (def.node.type === AST_NODE_TYPES.ImportDefaultSpecifier) return importOrigin(context, source, own, 'default');
    return importOrigin(context, source, own, bindingImportedName(def.node).imported);
  }
  if (def.type === 'Variable') {
    // const Redis = require('ioredis'); const { createClient } = require('redis')
    const init = def.node.init ? unwrap(def.node.init) : undefined;
    const source = init && requiredModule(init);
    if (source !== undefined) return importOrigin(context, source, ownSpecifier(from, source), destructuredName(def.node.id, def.name).imported);
    // let Redis = null; try { Redis = require('ioredis'); } catch { Redis = null; } (optional-require.ts)
    const optional = optionalRequireSource(variable);
    if (optional !== undefined) return importOrigin(context, optional, ownSpecifier(from, optional), undefined);
    // const { createClient: mk } = await import('redis')
    const dynamic = init?.type === AST_NODE_TYPES.AwaitExpression ? unwrap(init.argument) : undefined;
    if (
      dynamic?.type === AST_NODE_TYPES.ImportExpression &&
      dynamic.source.type === AST_NODE_TYPES.Literal &&
      typeof dynamic.source.value === 'string' &&
      def.node.id.type === AST_NODE_TYPES.ObjectPattern
    ) {
      const source = dynamic.source.value;
      return { kind: 'import', source, own: ownSpecifier(from, source), ...destructuredName(def.node.id, def.name) };
    }
  }
  if (def.type === 'ClassName') return { kind: 'local', classNode: def.node };
  if (def.type === 'Variable' && def.node.init?.type === AST_NODE_TYPES.ClassExpression) {
    return { kind: 'local', classNode: def.node.init };
  }
  if (def.type === 'Type' && (def.node.type === AST_NODE_TYPES.TSTypeAliasDeclaration || def.node.type === AST_NODE_TYPES.TSInterfaceDeclaration)) {
    return { kind: 'local', typeNode: def.node };
  }
  if (def.type === 'Variable' && def.parent?.kind === 'const' && def.node.id.type === AST_NODE_TYPES.Identifier && def.node.init) {
    return { kind: 'local', init: def.node.init };
  }
  if (def.type === 'Type' && def.node.type === AST_NODE_TYPES.TSTypeParameter) return { kind: 'local', typeParameter: def.node };
  if (def.type === 'TSEnumName') return { kind: 'local', enumNode: def.node };
  return { kind: 'local' };
}
