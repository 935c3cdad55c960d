/**
 * The client verdict a type annotation gives (`client: Redis`, `RedisClientType`, `ReturnType<typeof
 * createClient>`, a union, `typeof client`, a type literal declaring Redis commands), for the
 * client detector (`redis-calls/clients.ts`): a type of a client package, a class, interface or
 * alias of the code (in this module or the module of the code it is imported from) judged by what
 * it extends or aliases, known non-Redis types, or unknown. Each function takes the detector of
 * the module the annotation is written in.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { type ReceiverKind, NOT_REDIS, FOREIGN, UNKNOWN, clientVerdict, relabel, CLIENT_FACTORIES, CLIENT_TYPE_NAMES, KNOWN_NOT_REDIS, duckVerdict, batchOfTypeName, packageType } from './client-facts.js';
import { TRANSPARENT_TYPES, describesClient, duckTypedCommands, importedFlavor, importedName, importedPackage } from './client-syntax.js';
import type { ClientDetector } from './clients.js';
import { declaresArgvSender } from './argv-sender-types.js';
import { declaresOptionsObject, implementedInCode } from './implemented-interfaces.js';

/** A type annotation: client / batch types, known non-Redis types, or unknown. */
export function annotationVerdict(detector: ClientDetector, type: TSESTree.TypeNode, depth = 0): ReceiverKind {
  if (depth > 4) return UNKNOWN;
  switch (type.type) {
    case AST_NODE_TYPES.TSTypeReference: {
      let ident: TSESTree.Identifier | undefined;
      let last: string;
      if (type.typeName.type === AST_NODE_TYPES.Identifier) {
        ident = type.typeName;
        last = type.typeName.name;
      } else if (type.typeName.type === AST_NODE_TYPES.TSQualifiedName) {
        // IORedis.Redis, Redis.Cluster
        let left: TSESTree.EntityName = type.typeName;
        while (left.type === AST_NODE_TYPES.TSQualifiedName) left = left.left;
        if (left.type === AST_NODE_TYPES.Identifier) ident = left;
        last = type.typeName.right.name;
      } else {
        return UNKNOWN;
      }
      const annotated = detector.contextOf.sourceCode.getText(type);
      if (last === 'ReturnType' && type.typeArguments?.params[0]?.type === AST_NODE_TYPES.TSTypeQuery) {
        // ReturnType<typeof createClient>, ReturnType<typeof getRedis>
        const query = type.typeArguments.params[0].exprName;
        if (query.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
        const origin = detector.identifierOrigin(query);
        const why = `its annotation is \`${annotated}\``;
        if (origin.kind === 'import' && importedFlavor(origin)) {
          return CLIENT_FACTORIES.has(importedName(origin) ?? query.name) ? clientVerdict(importedFlavor(origin)!, why) : UNKNOWN;
        }
        const fn = origin.kind === 'local' ? detector.functionOf(query) : undefined;
        if (fn) return detector.classifyReturnOf(fn, `${query.name}()`, depth + 1);
        // ReturnType<typeof getRedis> of a function another module of the code exports
        const exported = origin.kind === 'import' && origin.own ? detector.exported(origin) : undefined;
        const exportedFn = exported ? exported.detector.functionOf(exported.node) : undefined;
        if (exported && exportedFn) return relabel(exported.detector.classifyReturnOf(exportedFn, `${query.name}()`, depth + 1), (inner) => `${inner} (${exported.module.display})`);
        return CLIENT_FACTORIES.has(query.name) ? clientVerdict(detector.fileFlavor(), why, undefined, true) : UNKNOWN;
      }
      // Awaited<Redis>, NonNullable<Redis>, Awaited<ReturnType<typeof getRedis>>: the type inside
      const wrapped = type.typeArguments?.params[0];
      if (wrapped && ident === type.typeName && (last === 'Awaited' || TRANSPARENT_TYPES.has(last)) && detector.identifierOrigin(ident).kind === 'global') {
        return annotationVerdict(detector, wrapped, depth + 1);
      }
      const batch = batchOfTypeName(last);
      if (ident) {
        const origin = detector.identifierOrigin(ident);
        if (origin.kind === 'import') {
          const pkg = importedPackage(origin);
          const name = ident === type.typeName ? (origin.namespace ? undefined : origin.imported) : last;
          if (pkg) return packageType(pkg, name, `its annotation \`${annotated}\` comes from ${origin.source}`, batch);
          if (!origin.own) return FOREIGN;
          // import type { Store } from './store': what its module declares it as
          const exported = detector.exported(origin.namespace && ident !== type.typeName ? { ...origin, namespace: undefined, imported: last } : origin);
          // a type of the code whose module cannot be read (`RedisService` of a service
          // module): the declared type beats the receiver's name, which is not asked; the
          // checker still is, where there is one
          if (!exported) return FOREIGN;
          if (exported.node.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
          return relabel(typeNameVerdict(exported.detector, exported.node, annotated, depth + 1), (inner) => `${inner} (${exported.module.display})`);
        }
        if (origin.kind === 'local') return typeNameVerdict(detector, ident, annotated, depth);
      }
      if (KNOWN_NOT_REDIS.has(last)) return NOT_REDIS;
      const why = `its annotation is \`${annotated}\``;
      if (batch) return clientVerdict(detector.fileFlavor(), why, batch, true);
      if (CLIENT_TYPE_NAMES.has(last)) return clientVerdict(detector.fileFlavor(), why, undefined, true);
      return UNKNOWN;
    }
    case AST_NODE_TYPES.TSUnionType:
    case AST_NODE_TYPES.TSIntersectionType: {
      let allNot = true;
      let foreign = false;
      for (const member of type.types) {
        if (member.type === AST_NODE_TYPES.TSUndefinedKeyword || member.type === AST_NODE_TYPES.TSNullKeyword) continue;
        const verdict = annotationVerdict(detector, member, depth + 1);
        if (verdict.redis) return verdict;
        if (!verdict.proven) allNot = false;
        if (verdict.foreign) foreign = true;
      }
      return allNot && type.type === AST_NODE_TYPES.TSUnionType ? (foreign ? FOREIGN : NOT_REDIS) : UNKNOWN;
    }
    case AST_NODE_TYPES.TSTypeQuery:
      // typeof client: what the value is
      return type.exprName.type === AST_NODE_TYPES.Identifier && !type.typeArguments
        ? relabel(detector.classifySyntactic(type.exprName, depth + 1), (inner) => `its annotation is \`${detector.contextOf.sourceCode.getText(type)}\`, where ${inner}`)
        : UNKNOWN;
    case AST_NODE_TYPES.TSTypeLiteral:
      // { incr(key: string); expire(key: string, s: number) } is a client by its shape; { get(k); set(k, v) } is none
      return duckVerdict(detector.fileFlavor(), duckTypedCommands(type.members), (list) => `its annotation declares Redis commands (${list})`) ?? (describesClient(type.members) ? UNKNOWN : NOT_REDIS);
    case AST_NODE_TYPES.TSStringKeyword:
    case AST_NODE_TYPES.TSNumberKeyword:
    case AST_NODE_TYPES.TSBooleanKeyword:
    case AST_NODE_TYPES.TSArrayType:
    case AST_NODE_TYPES.TSTupleType:
    case AST_NODE_TYPES.TSFunctionType:
      return NOT_REDIS;
    default:
      return UNKNOWN;
  }
}

/**
 * A type named by a declaration of this module (a class, an interface, a type alias), or by an
 * import seen from it: a class is a client when it extends one, an interface when it extends one,
 * an alias when what it aliases is one.
 */
function typeNameVerdict(detector: ClientDetector, ident: TSESTree.Identifier, annotated: string, depth: number): ReceiverKind {
  if (depth > 6) return UNKNOWN;
  const origin = detector.identifierOrigin(ident);
  if (origin.kind === 'import') {
    const pkg = importedPackage(origin);
    if (pkg) return packageType(pkg, origin.namespace ? undefined : origin.imported, `its annotation \`${annotated}\` comes from ${origin.source}`, batchOfTypeName(origin.imported ?? ident.name));
    if (!origin.own) return FOREIGN;
    const exported = detector.exported(origin);
    if (!exported) return FOREIGN; // as in classifyType: the declared type beats the name
    return exported.node.type === AST_NODE_TYPES.Identifier ? typeNameVerdict(exported.detector, exported.node, annotated, depth + 1) : UNKNOWN;
  }
  if (origin.kind !== 'local') return UNKNOWN;
  const superClass = origin.classNode?.superClass;
  if (origin.classNode) {
    const inherited = superClass ? detector.classifyConstruction(superClass, undefined, depth + 1) : NOT_REDIS;
    return inherited.redis ? inherited : (argvSenderVerdict(detector, origin.classNode, annotated) ?? inherited);
  }
  // type Client = Redis | Cluster; interface Store extends Redis {}
  if (origin.typeNode) return localTypeVerdict(detector, origin.typeNode, annotated, depth);
  // class Repo<C extends Redis>: what the parameter is constrained to
  if (origin.typeParameter) return origin.typeParameter.constraint ? annotationVerdict(detector, origin.typeParameter.constraint, depth + 1) : UNKNOWN;
  return origin.enumNode ? NOT_REDIS : UNKNOWN;
}

/** A type alias or interface of this module: a client when it aliases or extends a client type. */
function localTypeVerdict(
  detector: ClientDetector,
  declaration: TSESTree.TSTypeAliasDeclaration | TSESTree.TSInterfaceDeclaration,
  annotated: string,
  depth: number,
): ReceiverKind {
  const via = (verdict: ReceiverKind): ReceiverKind =>
    relabel(verdict, (inner) => `its annotation \`${annotated}\` is declared ${detector.moduleOf ? `in ${detector.moduleOf.display}` : 'in this file'} as ${inner.replace(/^its annotation /, '')}`);
  if (declaration.type === AST_NODE_TYPES.TSTypeAliasDeclaration) return via(annotationVerdict(detector, declaration.typeAnnotation, depth + 1));
  let allNot = true;
  let foreign = false;
  for (const heritage of declaration.extends) {
    if (heritage.expression.type !== AST_NODE_TYPES.Identifier && heritage.expression.type !== AST_NODE_TYPES.MemberExpression) continue;
    const verdict = heritageVerdict(detector, heritage, depth);
    if (verdict.redis) return via(verdict);
    if (!verdict.proven) allNot = false;
    if (verdict.foreign) foreign = true;
  }
  // interface RedisLike { incr(key: string); expire(key: string, s: number) }: the code's own description
  // of the client it takes, a client by its shape when tight enough, else unknown (names decide)
  const commands = allNot ? duckTypedCommands(declaration.body.body) : undefined;
  // ... unless it has an argument grammar of its own (an options object) and a class of the code off
  // test paths implements it (`class RedisKV implements KV`): then it is the application's own
  // facade, not a client, and its methods decide what is sent (`redis-calls/facades.ts` reads them
  // at their callers). One that forwards keys, values and numbers stays a client by its shape.
  if (commands && declaration.type === AST_NODE_TYPES.TSInterfaceDeclaration && declaresOptionsObject(declaration) && implementedInCode(detector, declaration)) return NOT_REDIS;
  const duck = duckVerdict(detector.fileFlavor(), commands, (list) => `its annotation \`${annotated}\` is declared ${detector.moduleOf ? `in ${detector.moduleOf.display}` : 'in this file'} with Redis commands (${list})`);
  if (duck) return duck;
  const sender = allNot ? argvSenderVerdict(detector, declaration, annotated) : undefined;
  if (sender) return sender;
  if (allNot && describesClient(declaration.body.body)) return UNKNOWN;
  return allNot ? (foreign ? FOREIGN : NOT_REDIS) : UNKNOWN;
}

/**
 * A class or interface of the code that sends argv arrays (`redis-calls/argv-sender-types.ts`): a
 * client by its shape, of the module's flavor, whose `sendCommand([...])` calls are read as the
 * commands their arrays name; `undefined` when it declares no such sender.
 */
function argvSenderVerdict(
  detector: ClientDetector,
  declaration: TSESTree.ClassDeclaration | TSESTree.ClassExpression | TSESTree.TSInterfaceDeclaration,
  annotated: string,
): ReceiverKind | undefined {
  if (!declaresArgvSender(declaration, detector.moduleOf?.program ?? detector.contextOf.sourceCode.ast)) return undefined;
  const where = detector.moduleOf ? `in ${detector.moduleOf.display}` : 'in this file';
  return duckVerdict(detector.fileFlavor(), ['sendCommand'], () => `its annotation \`${annotated}\` is declared ${where} with an argv sender (sendCommand)`);
}

/** `interface X extends Redis` / `extends IORedis.Cluster`: judged as a type reference. */
function heritageVerdict(detector: ClientDetector, heritage: TSESTree.TSInterfaceHeritage, depth: number): ReceiverKind {
  const expression = heritage.expression;
  let ident: TSESTree.Identifier | undefined;
  let last: string | undefined;
  if (expression.type === AST_NODE_TYPES.Identifier) {
    ident = expression;
    last = expression.name;
  } else if (expression.type === AST_NODE_TYPES.MemberExpression && expression.property.type === AST_NODE_TYPES.Identifier) {
    let left: TSESTree.Node = expression;
    while (left.type === AST_NODE_TYPES.MemberExpression) left = left.object;
    if (left.type === AST_NODE_TYPES.Identifier) ident = left;
    last = expression.property.name;
  }
  if (!ident || !last) return UNKNOWN;
  const written = detector.contextOf.sourceCode.getText(expression);
  const origin = detector.identifierOrigin(ident);
  if (origin.kind === 'import' || origin.kind === 'local') {
    if (ident === expression) return typeNameVerdict(detector, ident, written, depth + 1);
    if (origin.kind === 'import') {
      const pkg = importedPackage(origin);
      if (pkg) return packageType(pkg, last, `its annotation \`${written}\` comes from ${origin.source}`, batchOfTypeName(last));
      return origin.own ? UNKNOWN : FOREIGN;
    }
  }
  if (CLIENT_TYPE_NAMES.has(last)) return clientVerdict(detector.fileFlavor(), `its annotation is \`${written}\``, undefined, true);
  return UNKNOWN;
}
