/**
 * Methods of the code's own declarations with an argument grammar of their own. A receiver taken
 * for a client by a guess (its declared type's shape or its name, `byName`) may be declared with
 * an interface, type or class of the code whose method gives its own parameter list:
 *
 * ```ts
 * export interface IRedisService {                        // src/interface/redis.interface.ts
 *   set(key: string, value: string, ttl?: number): Promise<'OK'>;
 *   incr(key: string): Promise<number>;
 *   expire(key: string, seconds: number): Promise<number>;
 * }
 * constructor(protected readonly redisService: IRedisService) {}
 * await this.redisService.set(`session:${id}`, data, 24 * 60 * 60);
 * ```
 *
 * `ttl` is a number where the client's SET reads an option token (`EX`, `NX`, ...): Redis would
 * reject `SET key value 86400` ("syntax error"), so the declaration is not the client's SET but
 * the code's wrapper, which does with its `ttl` what its implementation says. Such a call is not
 * read as the client's command (`redis-calls/normalize.ts`); where a class of the code implements
 * the declaration and forwards to a client, the facade reader reads it through that method
 * (`redis-calls/facades.ts`: `set(key, value, ttl)` sending `SETEX key ttl value` or a plain
 * `SET`), otherwise nothing is read on the call. Methods whose parameters fit the command
 * (`incr(key)`, `expire(key, seconds)`, `set(key, value, mode?: string, ttl?: number)`) stay the
 * client's commands, so the declaration's duck-typed reading is kept for them.
 *
 * The misfit is decided by the command table (`semantics/commands.ts`): a parameter declared
 * `number` (or with a numeric default) at an argument position where the command, given a number
 * there, rejects it as no option of its own (`unknownOption`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describeCommand, type CommandArg } from '../semantics/commands.js';
import type { ClientDetector } from './clients.js';
import { TRANSPARENT_TYPES, enclosingClass, inStaticMember, memberKeyName } from './client-syntax.js';
import { typeOfExpression, type TypeRef } from './declared-types.js';
import { codeClassNamed, inheritedMemberType } from './inherited-members.js';
import { unwrap } from './static.js';

/** How deep type references, aliases and `extends` clauses are followed. */
const MAX_DEPTH = 8;

/**
 * Whether the receiver's declared type, an interface, type or class of the code, declares the
 * method `method` with a parameter list of its own for `command` (see the module comment): the
 * call is then the code's wrapper, not the client's command.
 * @param detector the client detector of the receiver's module
 * @param receiver the object of the member call (`this.redisService`)
 * @param method the method called (`set`)
 * @param command the command the method is named after, and the arguments it adds (`commandOfMethod`)
 */
export function declaresOwnSignature(detector: ClientDetector, receiver: TSESTree.Node, method: string, command: { command: string; prefix: readonly string[] }): boolean {
  const type = receiverType(detector, receiver);
  // any overload of the method (`set(key, value)` and `set(key, value, ttl: number)`)
  const overloads = type ? declaredParameters(type, method, 0) : undefined;
  return overloads !== undefined && overloads.some((params) => misfits(command, params));
}

/** The declared type of a receiver: its annotation, or the annotation of a member a superclass of the code declares. */
function receiverType(detector: ClientDetector, receiver: TSESTree.Node): TypeRef | undefined {
  const declared = typeOfExpression(detector, receiver, 0);
  if (declared) return declared;
  const node = unwrap(receiver);
  if (node.type !== AST_NODE_TYPES.MemberExpression || unwrap(node.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const name = memberKeyName(node.property, node.computed);
  const cls = enclosingClass(node);
  if (name === undefined || !cls || inStaticMember(node, cls)) return undefined;
  return inheritedMemberType(detector, cls, name, (owner, id) => codeClassNamed(owner, id, 0, MAX_DEPTH));
}


/** The parameter lists of a method's signatures: one, or one per overload. */
type Overloads = ReadonlyArray<readonly TSESTree.Parameter[]>;

/**
 * The parameters a declared type of the code gives its method `name`, per overload: a type
 * literal's, an interface's (or of an interface of the code it extends), a type alias's, a
 * class's; `undefined` when the code does not declare the method (a type of a client package
 * declares the client's).
 */
function declaredParameters(ref: TypeRef, name: string, depth: number): Overloads | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const { type, detector } = ref;
  switch (type.type) {
    case AST_NODE_TYPES.TSTypeLiteral:
      return parametersIn(type.members, name);
    case AST_NODE_TYPES.TSIntersectionType:
    case AST_NODE_TYPES.TSUnionType:
      for (const part of type.types) {
        const found = declaredParameters({ type: part, detector }, name, depth + 1);
        if (found) return found;
      }
      return undefined;
    case AST_NODE_TYPES.TSTypeReference: {
      if (type.typeName.type !== AST_NODE_TYPES.Identifier) return undefined;
      const wrapped = type.typeArguments?.params[0];
      if (wrapped && TRANSPARENT_TYPES.has(type.typeName.name)) return declaredParameters({ type: wrapped, detector }, name, depth + 1);
      return parametersOfDeclaration(detector, type.typeName, name, depth + 1);
    }
    default:
      return undefined;
  }
}

/** The parameters of the method `name` of the type, interface or class an identifier names. */
function parametersOfDeclaration(detector: ClientDetector, id: TSESTree.Identifier, name: string, depth: number): Overloads | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const origin = detector.identifierOrigin(id);
  if (origin.kind === 'import') {
    const exported = origin.own ? detector.exported(origin) : undefined;
    return exported && exported.node.type === AST_NODE_TYPES.Identifier ? parametersOfDeclaration(exported.detector, exported.node, name, depth + 1) : undefined;
  }
  if (origin.kind !== 'local') return undefined;
  const declaration = origin.typeNode;
  if (declaration?.type === AST_NODE_TYPES.TSTypeAliasDeclaration) return declaredParameters({ type: declaration.typeAnnotation, detector }, name, depth + 1);
  if (declaration?.type === AST_NODE_TYPES.TSInterfaceDeclaration) {
    const own = parametersIn(declaration.body.body, name);
    if (own) return own;
    for (const heritage of declaration.extends) {
      if (heritage.expression.type !== AST_NODE_TYPES.Identifier) continue;
      const inherited = parametersOfDeclaration(detector, heritage.expression, name, depth + 1);
      if (inherited) return inherited;
    }
    return undefined;
  }
  if (!origin.classNode) return undefined;
  const overloads: Array<readonly TSESTree.Parameter[]> = [];
  for (const element of origin.classNode.body.body) {
    if (element.type !== AST_NODE_TYPES.MethodDefinition && element.type !== AST_NODE_TYPES.TSAbstractMethodDefinition) continue;
    if (element.static || element.kind !== 'method' || memberKeyName(element.key, element.computed) !== name) continue;
    overloads.push(element.value.params);
  }
  return overloads.length > 0 ? overloads : undefined;
}

/** The parameters of the method (each overload) or function-typed property `name` among an interface's or type literal's members. */
function parametersIn(members: readonly TSESTree.TypeElement[], name: string): Overloads | undefined {
  const overloads: Array<readonly TSESTree.Parameter[]> = [];
  for (const member of members) {
    if (member.type === AST_NODE_TYPES.TSMethodSignature && memberKeyName(member.key, member.computed) === name) overloads.push(member.params);
    if (member.type === AST_NODE_TYPES.TSPropertySignature && memberKeyName(member.key, member.computed) === name) {
      const type = member.typeAnnotation?.typeAnnotation;
      return type?.type === AST_NODE_TYPES.TSFunctionType ? [type.params] : undefined;
    }
  }
  return overloads.length > 0 ? overloads : undefined;
}

/**
 * Whether a parameter declared as a number sits where the command rejects a number as no option
 * of its own (`set(key, value, ttl?: number)`: `SET key value 86400`). Parameters after a rest
 * parameter are not placed.
 */
function misfits(command: { command: string; prefix: readonly string[] }, params: readonly TSESTree.Parameter[]): boolean {
  for (let index = 0; index < params.length; index++) {
    const param = params[index]!;
    if (param.type === AST_NODE_TYPES.RestElement) return false;
    if (!numeric(param)) continue;
    const args: CommandArg[] = [...command.prefix, ...params.map((_, i) => (i === index ? 1 : undefined))].slice(0, command.prefix.length + index + 1);
    if (describeCommand(command.command, args).unknownOption?.arg === command.prefix.length + index) return true;
  }
  return false;
}

/** A parameter declared `number` (`ttl: number`, `ttl?: number`, `ttl: number | undefined`) or defaulting to a number (`ttl = 3600`). */
function numeric(param: TSESTree.Parameter): boolean {
  const binding = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
  const id = binding.type === AST_NODE_TYPES.AssignmentPattern ? binding.left : binding;
  if (binding.type === AST_NODE_TYPES.AssignmentPattern && binding.right.type === AST_NODE_TYPES.Literal && typeof binding.right.value === 'number') return true;
  if (id.type !== AST_NODE_TYPES.Identifier) return false;
  const type = id.typeAnnotation?.typeAnnotation;
  if (type?.type === AST_NODE_TYPES.TSNumberKeyword) return true;
  return (
    type?.type === AST_NODE_TYPES.TSUnionType &&
    type.types.some((t) => t.type === AST_NODE_TYPES.TSNumberKeyword) &&
    type.types.every((t) => t.type === AST_NODE_TYPES.TSNumberKeyword || t.type === AST_NODE_TYPES.TSUndefinedKeyword || t.type === AST_NODE_TYPES.TSNullKeyword)
  );
}
