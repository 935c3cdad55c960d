/**
 * A property of a parameter whose declared type gives the property a finite type:
 * `message.type` of `storeMessage(message: MudVaultMessage)` where `interface MudVaultMessage {
 * type: MessageType }` and `type MessageType = 'tell' | 'emote' | ...`: one of a few values,
 * whatever the caller passes, so `` `message_history:${message.type}` `` is one key per message
 * type, bounded like a key over a parameter typed with a union of literals (`redis-calls/bounded.ts`).
 *
 * Read: the parameter's annotation names an interface or a type alias of an object type, of the
 * file or imported relatively (`import { MudVaultMessage } from '../types'`), or is an object
 * type written in place (`(m: { kind: 'a' | 'b' })`); the property's declared type is finite as
 * `bounded.ts` reads it (a union of literals, `boolean`, an enum, an alias of those, in the module
 * that declares the interface). Not read (the property stays data): a property typed `string`, an
 * interface that extends another or has an index signature, a generic type, a property the
 * interface does not declare.
 *
 * Also here, the other reading of a value's few texts: `NATIVE_MINT.toString()` ({@link
 * isToStringCall}) is the text of `NATIVE_MINT`, fixed when that value is (an imported binding, a
 * `const` of constants), as `String(NATIVE_MINT)` is; `id.toString()` of data stays data.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { isFiniteTypeNode } from './bounded.js';
import { loadModule, type ImportedModule } from './modules.js';
import { findVariable, propertyName, type AnyContext } from './static.js';

type ObjectTypeDeclaration = { members: readonly TSESTree.TypeElement[]; module: ImportedModule | undefined };

/**
 * Whether the property `name` of the parameter `param` has a finite declared type (see the
 * module comment).
 * @param context the rule context of the file the parameter is declared in
 */
export function parameterMemberIsFinite(context: AnyContext, param: TSESTree.Identifier, name: string): boolean {
  const annotation = param.typeAnnotation?.typeAnnotation;
  if (!annotation) return false;
  const declaration = objectType(context, annotation);
  if (!declaration) return false;
  // an index signature admits any property; the members named are not all there is
  if (declaration.members.some((member) => member.type === AST_NODE_TYPES.TSIndexSignature)) return false;
  const property = declaration.members.find(
    (member): member is TSESTree.TSPropertySignature => member.type === AST_NODE_TYPES.TSPropertySignature && !member.computed && propertyName(member.key, false) === name,
  );
  const type = property?.typeAnnotation?.typeAnnotation;
  return type !== undefined && isFiniteTypeNode(context, type, declaration.module);
}

/** The members of the object type an annotation names (in place, of the file, or imported relatively). */
function objectType(context: AnyContext, annotation: TSESTree.TypeNode): ObjectTypeDeclaration | undefined {
  if (annotation.type === AST_NODE_TYPES.TSTypeLiteral) return { members: annotation.members, module: undefined };
  if (annotation.type !== AST_NODE_TYPES.TSTypeReference || annotation.typeArguments || annotation.typeName.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(context, annotation.typeName)?.defs[0];
  if (!def) return undefined;
  if (def.node.type === AST_NODE_TYPES.TSInterfaceDeclaration || def.node.type === AST_NODE_TYPES.TSTypeAliasDeclaration) return membersOf(def.node, undefined);
  if (def.type !== 'ImportBinding' || def.parent?.type !== AST_NODE_TYPES.ImportDeclaration || def.node.type !== AST_NODE_TYPES.ImportSpecifier) return undefined;
  const module = loadModule(context, def.parent.source.value);
  if (!module) return undefined;
  const imported = def.node.imported.type === AST_NODE_TYPES.Identifier ? def.node.imported.name : def.node.imported.value;
  for (const statement of module.program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if ((declaration?.type === AST_NODE_TYPES.TSInterfaceDeclaration || declaration?.type === AST_NODE_TYPES.TSTypeAliasDeclaration) && declaration.id.name === imported) {
      return membersOf(declaration, module);
    }
  }
  return undefined;
}

function membersOf(declaration: TSESTree.TSInterfaceDeclaration | TSESTree.TSTypeAliasDeclaration, module: ImportedModule | undefined): ObjectTypeDeclaration | undefined {
  if (declaration.typeParameters) return undefined;
  if (declaration.type === AST_NODE_TYPES.TSInterfaceDeclaration) {
    // an interface that extends another may redeclare or add members elsewhere: not read
    if ((declaration.extends?.length ?? 0) > 0) return undefined;
    return { members: declaration.body.body, module };
  }
  return declaration.typeAnnotation.type === AST_NODE_TYPES.TSTypeLiteral ? { members: declaration.typeAnnotation.members, module } : undefined;
}

/** `x.toString()` with no argument (not `x.toString(16)`, a radix), `x` any expression. */
export function isToStringCall(callee: TSESTree.Node, call: TSESTree.CallExpression): callee is TSESTree.MemberExpression {
  return callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && propertyName(callee.property, false) === 'toString' && call.arguments.length === 0;
}
