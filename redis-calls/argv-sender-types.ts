/**
 * A client class or interface of the code that sends Redis commands as argv arrays: the shape of
 * an application's own client abstraction over ioredis and node-redis (RedisInsight's `abstract
 * class RedisClient extends EventEmitter2 { abstract sendCommand(command: RedisClientCommand, ...) }`
 * with `type RedisClientCommand = [cmd: string, ...args: RedisClientCommandArguments]`). Such a
 * type names no client package and extends none, and its commands are no command methods
 * (`duckTypedCommands` counts none), so the detector could not take it for a client; its
 * `client.sendCommand(['SET', key, value, 'XX'])` calls then went unread.
 *
 * The kind, tight on purpose: the class (abstract or not) or interface declares a method
 * `sendCommand` (node-redis' name for the argv sender, `redis-calls/normalize.ts`
 * GENERIC_BY_ARRAY) whose first parameter is typed as an array of command arguments: `string[]`,
 * `Array<...>`, `ReadonlyArray<...>`, a tuple, or a type alias of the same module aliasing one of
 * those. Its limits: a `sendCommand` whose first parameter is untyped or typed as anything else
 * (`sendCommand(command: string)`: an SMTP or debugger protocol, not an argv), or whose parameter
 * type is an alias imported from another module, describes no client here; a class that extends
 * a client is judged by what it extends, before this is asked.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { propertyName } from './static.js';

/** Array types of command arguments, by name. */
const ARRAY_TYPE_NAMES: ReadonlySet<string> = new Set(['Array', 'ReadonlyArray']);

/**
 * Whether a class or interface of the code declares an argv sender `sendCommand(argv: T[])` (see
 * the module comment); `program` is the module declaring it, where a type alias naming the
 * parameter's type is looked up.
 */
export function declaresArgvSender(
  declaration: TSESTree.ClassDeclaration | TSESTree.ClassExpression | TSESTree.TSInterfaceDeclaration,
  program: TSESTree.Program | undefined,
): boolean {
  const members: readonly TSESTree.Node[] = declaration.body.body;
  return members.some((member) => {
    const params = senderParams(member);
    const first = params?.[0];
    if (!first || first.type !== AST_NODE_TYPES.Identifier) return false;
    const annotation = first.typeAnnotation?.typeAnnotation;
    return annotation !== undefined && isArgvType(annotation, program, 0);
  });
}

/** The parameters of a member named `sendCommand` (method, abstract method, method signature). */
function senderParams(member: TSESTree.Node): readonly TSESTree.Parameter[] | undefined {
  if (
    member.type === AST_NODE_TYPES.MethodDefinition ||
    member.type === AST_NODE_TYPES.TSAbstractMethodDefinition
  ) {
    if (member.static || propertyName(member.key, member.computed) !== 'sendCommand') return undefined;
    return member.value.params;
  }
  if (member.type === AST_NODE_TYPES.TSMethodSignature) {
    return propertyName(member.key, member.computed) === 'sendCommand' ? member.params : undefined;
  }
  return undefined;
}

/** Whether a type is an array or tuple, or a local alias of one (aliases followed three deep). */
function isArgvType(type: TSESTree.TypeNode, program: TSESTree.Program | undefined, depth: number): boolean {
  if (type.type === AST_NODE_TYPES.TSArrayType || type.type === AST_NODE_TYPES.TSTupleType) return true;
  if (type.type === AST_NODE_TYPES.TSTypeOperator && type.operator === 'readonly' && type.typeAnnotation) return isArgvType(type.typeAnnotation, program, depth);
  if (type.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier) return false;
  if (ARRAY_TYPE_NAMES.has(type.typeName.name)) return true;
  if (!program || depth >= 3) return false;
  const alias = localAlias(program, type.typeName.name);
  return alias !== undefined && isArgvType(alias.typeAnnotation, program, depth + 1);
}

/** A type alias declared at the top level of `program` (exported or not). */
function localAlias(program: TSESTree.Program, name: string): TSESTree.TSTypeAliasDeclaration | undefined {
  for (const statement of program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declaration?.type === AST_NODE_TYPES.TSTypeAliasDeclaration && declaration.id.name === name) return declaration;
  }
  return undefined;
}

/** Whether a module declares, at its top level, a class or interface that is an argv sender ({@link declaresArgvSender}). */
export function declaresArgvSenderType(program: TSESTree.Program): boolean {
  return program.body.some((statement) => {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration ? statement.declaration : statement;
    return (
      (declaration?.type === AST_NODE_TYPES.ClassDeclaration || declaration?.type === AST_NODE_TYPES.TSInterfaceDeclaration) && declaresArgvSender(declaration, program)
    );
  });
}

/** Text of a module that may declare an argv sender: read before parsing it (a cheap filter). */
export const ARGV_SENDER_TEXT = /\bsendCommand\s*\(\s*\w+\s*[?]?:/;
