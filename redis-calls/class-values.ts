/**
 * Where a module hands a class itself on as a value, not only names it: for `uncalled.ts`, whose
 * static methods travel with the class, never with its instances.
 *
 * ```ts
 * export class CacheService {
 *   static async cachePitch(id: number, data: unknown) { await redis.set(`pitch:${id}`, JSON.stringify(data)); }
 * }
 * let instance: CacheService | null = null;          // a type: hands nothing on
 * export const getCacheService = () => (instance ??= new CacheService()); // an instance: carries no static method
 * CacheService.getCacheType();                        // a member read on the class: its name is written
 * register(CacheService);                             // the class handed on: whoever holds it may call cachePitch
 * ```
 *
 * A static method is a member of the class object (https://tc39.es/ecma262/#sec-static-semantics-classelementkind,
 * MDN "static"): `new CacheService()` makes an object whose prototype chain holds the instance
 * methods only, so a library given an instance (`rateLimit({ store })`) calls its instance
 * methods by its own interface's names. It could still reach a static one through
 * `instance.constructor`, which no store or adapter interface does: that case is taken as not
 * happening (a documented limit, like a namespace import handed on whole). Only the class object, written as a
 * value (an argument, a property value, an array element, an assigned or returned value, a
 * default export, a superclass, a JSX element, a computed member read), may reach code that calls
 * a static method by a name the application never writes.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { fileMemo } from './file-memo.js';
import { moduleText, parsedModule } from './parsed-modules.js';
import { walkParsed } from './static.js';

/**
 * Per module and modification time: the class names the module writes as values (see the module
 * comment), or `undefined` when it does not parse (then every name its code writes, comments
 * left out, counts as handed on: {@link codeWordsOfUnparsed}).
 */
const valueNamesOf = fileMemo((path): ReadonlySet<string> | undefined => {
  const parsed = parsedModule(path);
  if (typeof parsed === 'string') return undefined;
  const harmless = new Set<number>();
  const named: TSESTree.Identifier[] = [];
  const mark = (node: TSESTree.Node | null | undefined) => {
    if (node?.type === AST_NODE_TYPES.Identifier) harmless.add(node.range[0]);
  };
  const values = new Set<string>();
  walkParsed(parsed.program, (node) => {
    switch (node.type) {
      case AST_NODE_TYPES.Identifier:
        named.push(node);
        break;
      case AST_NODE_TYPES.JSXIdentifier:
        values.add(node.name);
        break;
      // `CacheService.cachePitch(...)`: a member read by its name (a computed one, `Cls[name]`, may call any)
      case AST_NODE_TYPES.MemberExpression:
        if (!node.computed) mark(node.object);
        break;
      // an instance carries no static method
      case AST_NODE_TYPES.NewExpression:
        mark(node.callee);
        break;
      // declarations: the class's own, or another binding of the same name (`interface CacheService`)
      case AST_NODE_TYPES.ClassDeclaration:
      case AST_NODE_TYPES.ClassExpression:
      case AST_NODE_TYPES.TSInterfaceDeclaration:
      case AST_NODE_TYPES.TSTypeAliasDeclaration:
      case AST_NODE_TYPES.TSEnumDeclaration:
        mark(node.id);
        break;
      case AST_NODE_TYPES.BinaryExpression:
        if (node.operator === 'instanceof') mark(node.right);
        break;
      // types name the class's instances (or its shape), they hold nothing
      case AST_NODE_TYPES.TSTypeReference:
        mark(node.typeName);
        break;
      case AST_NODE_TYPES.TSQualifiedName:
        mark(node.left);
        break;
      case AST_NODE_TYPES.TSTypeQuery:
        mark(node.exprName as TSESTree.Node);
        break;
      case AST_NODE_TYPES.TSClassImplements:
      case AST_NODE_TYPES.TSInterfaceHeritage:
        mark(node.expression);
        break;
      // bindings between modules: the importers are read in turn, by the class's name; a binding
      // renamed on the way (`import { Counter as C }`, `export { Counter as default }`) goes on
      // under a name no importer writes, so it counts as handed on (as import-callers.ts reads it)
      case AST_NODE_TYPES.ImportSpecifier:
      case AST_NODE_TYPES.ExportSpecifier: {
        const [from, to] = node.type === AST_NODE_TYPES.ImportSpecifier ? [node.imported, node.local] : [node.local, node.exported];
        if (specifierName(from) !== specifierName(to)) values.add(specifierName(from));
        mark(from as TSESTree.Node);
        mark(to as TSESTree.Node);
        break;
      }
      case AST_NODE_TYPES.ImportDefaultSpecifier:
      case AST_NODE_TYPES.ImportNamespaceSpecifier:
        mark(node.local);
        break;
      default:
        break;
    }
    return undefined;
  });
  for (const id of named) if (!harmless.has(id.range[0])) values.add(id.name);
  return values;
}, undefined);

/** The name an import or export specifier spells (`Counter`, or a string name `'Counter'`). */
function specifierName(node: TSESTree.Identifier | TSESTree.StringLiteral): string {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : node.value;
}

/**
 * Whether the module at `path` writes the class named `name` as a value that may reach other code
 * (see the module comment): anything but a non-computed member read (`Cls.method()`), a `new Cls()`,
 * its declaration, an `instanceof Cls`, a type, an `implements` / interface `extends`, or an
 * import or export specifier. A module that does not parse: whether its code (comments left out)
 * writes the name at all; one that cannot be read: `true`.
 * @param path an absolute path of a source module
 * @param name the class's name as declared (`CacheService`)
 */
export function classWrittenAsValue(path: string, name: string): boolean {
  const values = valueNamesOf(path);
  if (values !== undefined) return values.has(name);
  return codeWordsOfUnparsed(path)?.has(name) ?? true;
}

/**
 * The words of a module that does not parse, its comments blanked (`// CacheService disabled`
 * names nothing), per modification time; `undefined` when it cannot be read.
 */
const codeWordsOfUnparsed = fileMemo((path): ReadonlySet<string> | undefined => {
  const text = moduleText(path);
  if (text === undefined) return undefined;
  const code = text.replace(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g, ' ');
  return new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? []);
}, undefined);
