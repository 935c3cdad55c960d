/**
 * The command name at the head of an argv array when the code names it through an enum member:
 * `client.sendCommand([BrowserToolStringCommands.Set, key, value, 'XX'])` with `export enum
 * BrowserToolStringCommands { Set = 'set' }` in the same module or in a module of the code it
 * imports (`import { BrowserToolStringCommands } from 'src/modules/browser/constants'`, re-exports
 * followed by `redis-calls/modules.ts`). Only the name is read here; what the command does comes
 * from the command table (`semantics/commands.ts`).
 *
 * Limits: the member must be written `Enum.Member` (or `Enum['member']`) on an enum declared with a
 * string literal initializer for that member; a numeric or computed member, an enum imported from a
 * package, or an object of constants (`const Commands = { Set: 'set' }`, left to the constant
 * readers) is no name here.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { enumMember } from './bounded.js';
import { findExport, importedBinding } from './modules.js';
import { findVariable, propertyName, unwrap, type AnyContext } from './static.js';

/** The string value of `Enum.Member` for an enum of the linted file or one it imports; else `undefined`. */
export function enumMemberName(context: AnyContext, node: TSESTree.Node): string | undefined {
  const member = unwrap(node);
  if (member.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = unwrap(member.object);
  const name = propertyName(member.property, member.computed);
  if (object.type !== AST_NODE_TYPES.Identifier || name === undefined) return undefined;
  const def = findVariable(context, object)?.defs[0];
  if (def?.type === 'TSEnumName' && def.node.type === AST_NODE_TYPES.TSEnumDeclaration) return memberValue(def.node, name);
  if (def?.type !== 'ImportBinding') return undefined;
  const imported = importedBinding(context, object);
  const found = imported ? findExport(imported.module, imported.name) : undefined;
  return found?.node.type === AST_NODE_TYPES.TSEnumDeclaration ? memberValue(found.node, name) : undefined;
}

/** The string initializer of an enum's member named `name`. */
function memberValue(declaration: TSESTree.TSEnumDeclaration, name: string): string | undefined {
  const init = enumMember(declaration, name)?.initializer;
  const value = init ? unwrap(init) : undefined;
  return value?.type === AST_NODE_TYPES.Literal && typeof value.value === 'string' ? value.value : undefined;
}
