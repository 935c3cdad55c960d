/**
 * Declared types of expressions, as the code writes them (no type checker): what an annotation,
 * a property of an annotated object, a destructured binding, a declared return type or an `as`
 * assertion says an expression is, and what such a type says of one of its members, also across
 * modules of the code (each type is read with the {@link ClientDetector} of the module it is
 * written in). `redis-calls/clients.ts` asks these to judge receivers it cannot settle from how
 * a value was made.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { ClientDetector } from './clients.js';
import { TRANSPARENT_TYPES, classMemberType, enclosingClass, inStaticMember, memberKeyName, outermostPattern, promisedType, propertyPath } from './client-syntax.js';
import { findVariable, unwrap, type FunctionLike } from './static.js';

/** A type as the code declares it, with the detector of the module it is written in. */
export interface TypeRef {
  type: TSESTree.TypeNode;
  detector: ClientDetector;
}

/** What a declared type says of one of its members. */
export interface MemberSignature {
  /** The property's type (`redis: Redis`). */
  property?: TSESTree.TypeNode;
  propertyRef?: TypeRef;
  /** What the method, or a property of a function type, returns (`getClient(): Redis`). */
  returns?: TSESTree.TypeNode;
  /** A method of a class of the code declared without a return type: its body says (`getClient() { return this.redis }`). */
  method?: FunctionLike;
  detector: ClientDetector;
}

const instanceTypes = new WeakMap<TSESTree.Identifier, TSESTree.TSTypeReference>();

/** The type `C` of `new C()`, as if written as an annotation (the class name's own node and range). */
function instanceType(name: TSESTree.Identifier): TSESTree.TSTypeReference {
  let type = instanceTypes.get(name);
  if (!type) {
    type = { type: AST_NODE_TYPES.TSTypeReference, typeName: name, range: name.range, loc: name.loc, parent: name.parent } as TSESTree.TSTypeReference;
    instanceTypes.set(name, type);
  }
  return type;
}

/**
 * The declared type of an expression, as the code writes it (no checker): the annotation of a
 * parameter, variable or class member, a property of such a type (`params.redis`), a
 * destructured binding's, a function's or method's declared return type (`await` unwraps a
 * `Promise<T>`), an `x as T` assertion, or what a relatively imported value is declared as.
 * `undefined` when the code does not say.
 */
export function typeOfExpression(host: ClientDetector, input: TSESTree.Node, depth: number): TypeRef | undefined {
  if (depth > 8) return undefined;
  const node = input.type === AST_NODE_TYPES.ChainExpression ? input.expression : input;
  switch (node.type) {
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSTypeAssertion:
    case AST_NODE_TYPES.TSSatisfiesExpression:
      return { type: node.typeAnnotation, detector: host };
    case AST_NODE_TYPES.TSNonNullExpression:
      return typeOfExpression(host, node.expression, depth + 1);
    case AST_NODE_TYPES.AwaitExpression: {
      const inner = typeOfExpression(host, node.argument, depth + 1);
      return inner ? { type: promisedType(inner.type), detector: inner.detector } : undefined;
    }
    case AST_NODE_TYPES.Identifier: {
      const variable = findVariable(host.contextOf, node);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (!def) return undefined;
      if (def.type === 'Parameter') {
        const id = def.name;
        if (id.type !== AST_NODE_TYPES.Identifier) return undefined;
        const pattern = outermostPattern(id);
        if (pattern === id) return id.typeAnnotation ? { type: id.typeAnnotation.typeAnnotation, detector: host } : undefined;
        const annotation = 'typeAnnotation' in pattern ? (pattern.typeAnnotation as TSESTree.TSTypeAnnotation | undefined) : undefined;
        const path = propertyPath(pattern, id);
        return annotation && path ? memberPath({ type: annotation.typeAnnotation, detector: host }, path, depth + 1) : undefined;
      }
      if (def.type === 'Variable') {
        const id = def.node.id;
        if (id.type === AST_NODE_TYPES.Identifier) {
          if (id.typeAnnotation) return { type: id.typeAnnotation.typeAnnotation, detector: host };
          return def.parent?.kind === 'const' && def.node.init ? typeOfExpression(host, def.node.init, depth + 1) : undefined;
        }
        const path = propertyPath(id, def.name);
        if (!path) return undefined;
        const base = id.typeAnnotation ? { type: id.typeAnnotation.typeAnnotation, detector: host } : def.node.init ? typeOfExpression(host, def.node.init, depth + 1) : undefined;
        return memberPath(base, path, depth + 1);
      }
      if (def.type === 'ImportBinding') {
        const origin = host.identifierOrigin(node);
        const exported = origin.kind === 'import' && origin.own ? host.exported(origin) : undefined;
        return exported ? typeOfExpression(exported.detector, exported.node, depth + 1) : undefined;
      }
      return undefined;
    }
    case AST_NODE_TYPES.MemberExpression: {
      const name = memberKeyName(node.property, node.computed);
      if (name === undefined) return undefined;
      const object = unwrap(node.object);
      if (object.type === AST_NODE_TYPES.ThisExpression) {
        const cls = enclosingClass(node);
        const declared = cls ? classMemberType(cls, name, inStaticMember(node, cls)) : undefined;
        return declared ? { type: declared, detector: host } : undefined;
      }
      return memberOf(typeOfExpression(host, node.object, depth + 1), name, depth + 1)?.propertyRef;
    }
    case AST_NODE_TYPES.NewExpression: {
      // new Store(): an instance of the class the name declares
      const callee = unwrap(node.callee);
      return callee.type === AST_NODE_TYPES.Identifier ? { type: instanceType(callee), detector: host } : undefined;
    }
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(node.callee);
      if (callee.type === AST_NODE_TYPES.Identifier) {
        const fn = host.functionOf(callee);
        return fn?.returnType ? { type: fn.returnType.typeAnnotation, detector: host } : undefined;
      }
      if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
      const method = host.localMethod(callee);
      if (method?.returnType) return { type: method.returnType.typeAnnotation, detector: host };
      const name = memberKeyName(callee.property, callee.computed);
      const signature = name === undefined ? undefined : memberOf(typeOfExpression(host, callee.object, depth + 1), name, depth + 1);
      return signature?.returns ? { type: signature.returns, detector: signature.detector } : undefined;
    }
    default:
      return undefined;
  }
}

/** The type at a property path (`['services', 'redis']`) of a declared type. */
export function memberPath(base: TypeRef | undefined, path: readonly string[], depth: number): TypeRef | undefined {
  let current = base;
  for (const name of path) {
    current = memberOf(current, name, depth + 1)?.propertyRef;
    if (!current) return undefined;
  }
  return current;
}

/**
 * What a declared type says of its member `name`: the property's type, or what the method (or a
 * property of a function type) returns. Reads type literals, interfaces and the interfaces they
 * extend, type aliases, classes (their annotated members and methods), intersections, unions
 * (without `null` / `undefined`), `Readonly<T>` / `Partial<T>` / `Required<T>` /
 * `NonNullable<T>`, and the declarations of relatively imported types in their own modules.
 */
export function memberOf(ref: TypeRef | undefined, name: string, depth: number): MemberSignature | undefined {
  if (!ref || depth > 8) return undefined;
  const { type, detector: host } = ref;
  switch (type.type) {
    case AST_NODE_TYPES.TSTypeLiteral:
      return signatureIn(host, type.members, name);
    case AST_NODE_TYPES.TSIntersectionType:
    case AST_NODE_TYPES.TSUnionType:
      for (const part of type.types) {
        const found = memberOf({ type: part, detector: host }, name, depth + 1);
        if (found) return found;
      }
      return undefined;
    case AST_NODE_TYPES.TSTypeReference: {
      if (type.typeName.type !== AST_NODE_TYPES.Identifier) return undefined;
      const wrapped = type.typeArguments?.params[0];
      if (wrapped && TRANSPARENT_TYPES.has(type.typeName.name)) return memberOf({ type: wrapped, detector: host }, name, depth + 1);
      return memberOfDeclaration(host, type.typeName, name, depth + 1);
    }
    default:
      return undefined;
  }
}

/** The member `name` of the type, interface or class an identifier names (in this module or, imported, in its own). */
function memberOfDeclaration(host: ClientDetector, ident: TSESTree.Identifier, name: string, depth: number): MemberSignature | undefined {
  const origin = host.identifierOrigin(ident);
  if (origin.kind === 'import') {
    const exported = origin.own ? host.exported(origin) : undefined;
    return exported && exported.node.type === AST_NODE_TYPES.Identifier ? memberOfDeclaration(exported.detector, exported.node, name, depth + 1) : undefined;
  }
  if (origin.kind !== 'local') return undefined;
  if (origin.typeNode?.type === AST_NODE_TYPES.TSTypeAliasDeclaration) return memberOf({ type: origin.typeNode.typeAnnotation, detector: host }, name, depth + 1);
  if (origin.typeNode?.type === AST_NODE_TYPES.TSInterfaceDeclaration) {
    const own = signatureIn(host, origin.typeNode.body.body, name);
    if (own) return own;
    for (const heritage of origin.typeNode.extends) {
      if (heritage.expression.type !== AST_NODE_TYPES.Identifier) continue;
      const inherited = memberOfDeclaration(host, heritage.expression, name, depth + 1);
      if (inherited) return inherited;
    }
    return undefined;
  }
  if (origin.classNode) {
    const declared = classMemberType(origin.classNode, name, false);
    if (declared) return { property: declared, propertyRef: { type: declared, detector: host }, detector: host };
    for (const element of origin.classNode.body.body) {
      if (
        (element.type !== AST_NODE_TYPES.MethodDefinition && element.type !== AST_NODE_TYPES.TSAbstractMethodDefinition) ||
        element.static ||
        memberKeyName(element.key, element.computed) !== name
      ) {
        continue;
      }
      const declared = element.value.returnType?.typeAnnotation;
      // get client(): Redis: read as a property of that type
      if (element.kind === 'get') return declared ? { property: declared, propertyRef: { type: declared, detector: host }, detector: host } : undefined;
      if (declared) return { returns: declared, detector: host };
      // getClient() { return this.redisClient }: what its body returns, judged in its module
      if (element.kind === 'method' && element.value.body) return { method: element.value as FunctionLike, detector: host };
    }
  }
  return undefined;
}

/** The member `name` among the members of a type literal or interface body. */
function signatureIn(host: ClientDetector, members: readonly TSESTree.TypeElement[], name: string): MemberSignature | undefined {
  for (const member of members) {
    if (member.type === AST_NODE_TYPES.TSPropertySignature && memberKeyName(member.key, member.computed) === name) {
      const type = member.typeAnnotation?.typeAnnotation;
      if (!type) return undefined;
      // getClient: () => RedisClientType
      if (type.type === AST_NODE_TYPES.TSFunctionType) return type.returnType ? { returns: type.returnType.typeAnnotation, detector: host } : undefined;
      return { property: type, propertyRef: { type, detector: host }, detector: host };
    }
    if (member.type === AST_NODE_TYPES.TSMethodSignature && memberKeyName(member.key, member.computed) === name) {
      return member.returnType ? { returns: member.returnType.typeAnnotation, detector: host } : undefined;
    }
  }
  return undefined;
}
