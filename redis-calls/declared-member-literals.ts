/**
 * The string values a property of a typed parameter can hold, read from the declared type: a
 * parameter declared with an interface or an object type alias of the linted module whose property
 * is declared as a union of string literals (directly, or through a type alias of the module):
 *
 * ```ts
 * export type DataPublicationDataset = 'fpl:core' | 'fpl:live' | 'fpl:market';
 * export interface DataPublicationScope { readonly dataset: DataPublicationDataset; readonly seasonCode: string }
 * function scopePrefix(scope: DataPublicationScope): string {
 *   return `llm:data:${scope.dataset}:${scope.seasonCode}`; // llm:data:fpl:core:*, llm:data:fpl:live:*, ...
 * }
 * ```
 *
 * TypeScript admits no other value there, whatever a caller passes, so the key speller
 * (`key-shape.ts` memberShape) spells each, as it does the values of a union-typed parameter; a
 * `persistentKeys` pattern then matches the key when it matches every spelling. Not read: an
 * optional property (`dataset?:`, also `undefined`), a property of an `extends`ed or intersected
 * type, a member of a type of another module, a union with anything but string literals (`string`,
 * a number, a template type), and more than {@link MAX_LITERALS} values.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, propertyName, type AnyContext } from './static.js';

/** Beyond this many values a property's type is not spelled (the speller keeps at most sixteen spellings of a key). */
const MAX_LITERALS = 16;

/** How many type aliases are followed from the property's declared type. */
const MAX_ALIASES = 4;

/**
 * The string literals the property `name` of the parameter `parameter` can hold, from the
 * parameter's declared type (see the module comment), or `undefined` when the type does not say.
 * @param context the rule context of the module the parameter is declared in
 * @param parameter the parameter's name, as its definition holds it
 * @param name the property read (`dataset` of `scope.dataset`)
 */
export function declaredMemberLiterals(context: AnyContext, parameter: TSESTree.Node, name: string): string[] | undefined {
  if (parameter.type !== AST_NODE_TYPES.Identifier) return undefined;
  const annotation = parameter.typeAnnotation?.typeAnnotation;
  if (annotation?.type !== AST_NODE_TYPES.TSTypeReference || annotation.typeName.type !== AST_NODE_TYPES.Identifier || annotation.typeArguments) return undefined;
  const declaration = localType(context, annotation.typeName);
  const members =
    declaration?.type === AST_NODE_TYPES.TSInterfaceDeclaration
      ? declaration.extends.length === 0
        ? declaration.body.body
        : undefined
      : declaration?.type === AST_NODE_TYPES.TSTypeAliasDeclaration && declaration.typeAnnotation.type === AST_NODE_TYPES.TSTypeLiteral
        ? declaration.typeAnnotation.members
        : undefined;
  const member = members?.find((m): m is TSESTree.TSPropertySignature => m.type === AST_NODE_TYPES.TSPropertySignature && !m.computed && propertyName(m.key) === name);
  if (!member || member.optional) return undefined;
  const type = member.typeAnnotation?.typeAnnotation;
  return type ? stringLiterals(context, type, 0) : undefined;
}

/** The interface or type alias of the linted module a type name refers to (not an imported one). */
function localType(context: AnyContext, name: TSESTree.Identifier): TSESTree.Node | undefined {
  const variable = findVariable(context, name);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  return def && (def.node.type === AST_NODE_TYPES.TSInterfaceDeclaration || def.node.type === AST_NODE_TYPES.TSTypeAliasDeclaration) ? def.node : undefined;
}

/** The values of a union of string literal types (through the module's type aliases), else `undefined`. */
function stringLiterals(context: AnyContext, type: TSESTree.TypeNode, aliases: number): string[] | undefined {
  if (type.type === AST_NODE_TYPES.TSLiteralType) {
    return type.literal.type === AST_NODE_TYPES.Literal && typeof type.literal.value === 'string' ? [type.literal.value] : undefined;
  }
  if (type.type === AST_NODE_TYPES.TSUnionType) {
    const out: string[] = [];
    for (const member of type.types) {
      const values = stringLiterals(context, member, aliases);
      if (!values) return undefined;
      out.push(...values);
      if (out.length > MAX_LITERALS) return undefined;
    }
    return [...new Set(out)];
  }
  if (type.type === AST_NODE_TYPES.TSTypeReference && type.typeName.type === AST_NODE_TYPES.Identifier && !type.typeArguments && aliases < MAX_ALIASES) {
    const declaration = localType(context, type.typeName);
    return declaration?.type === AST_NODE_TYPES.TSTypeAliasDeclaration ? stringLiterals(context, declaration.typeAnnotation, aliases + 1) : undefined;
  }
  return undefined;
}
