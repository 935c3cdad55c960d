/**
 * Parts of a key that `key-shape.ts` reads through besides consts, builders and members (round 19,
 * seventeenth validation set: keys whose prefix or whole spelling the shape left `*`, so that a
 * declared `persistentKeys` pattern could not reach them):
 *
 * - **An instance getter** (`get indexKey() { return `${this.INDEX_PREFIX}:createdAt`; }`) read as
 *   `this.indexKey`: the expression it returns, as if a member held it, when its body is that one
 *   `return` (a getter with branches or statements before the return stays `*`).
 * - **A compiled call of an imported function**: TypeScript's CommonJS output calls a named import
 *   as `(0, keys_1.namespaceKey)(ns)` (the `0,` drops `this`); the callee is `keys_1.namespaceKey`,
 *   looked up as the namespace member it names.
 * - **A factory that fills the object it returns** (`const provider = {}; ...
 *   Object.assign(provider, { storeTask: async () => {...} }); return provider;`, written so that
 *   the methods can call each other through `provider`): it makes an instance as a factory
 *   returning the object literal does, so its parameters are its configuration, one value per
 *   instance (`config.keyPrefix || 'jaf:a2a:tasks:'` is then the configured prefix or its default,
 *   `redis-calls/key-shape.ts`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { classOfThis } from './bounded.js';
import { isObjectAssign } from './containers.js';
import { propertyName, unwrap } from './static.js';

/** A getter a key reads, with its declaration (for `via` and annotations). */
export interface InstanceGetter {
  /** The one expression the getter returns. */
  returned: TSESTree.Expression;
  /** The getter's `MethodDefinition`. */
  declaration: TSESTree.MethodDefinition;
}

/**
 * The getter `this.<name>` reads in the class around `member`: a non-static `get <name>()` whose
 * body is one `return <expression>;`, in a class that declares no field of that name. `undefined`
 * otherwise (no such getter, a static context, a computed name, a getter with branches or more
 * statements).
 */
export function instanceGetter(member: TSESTree.MemberExpression): InstanceGetter | undefined {
  if (unwrap(member.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const name = memberName(member.property, member.computed);
  const cls = name === undefined ? undefined : classOfThis(member);
  if (!cls || name === undefined) return undefined;
  let getter: TSESTree.MethodDefinition | undefined;
  for (const element of cls.body.body) {
    if (element.type !== AST_NODE_TYPES.MethodDefinition && element.type !== AST_NODE_TYPES.PropertyDefinition) continue;
    if (element.static || memberName(element.key, element.computed) !== name) continue;
    // a field of that name, or a method: not (only) a getter
    if (element.type === AST_NODE_TYPES.PropertyDefinition || element.kind !== 'get') return undefined;
    getter = element;
  }
  const body = getter?.value.body?.body;
  const statement = body?.length === 1 ? body[0] : undefined;
  if (statement?.type !== AST_NODE_TYPES.ReturnStatement || !statement.argument) return undefined;
  return { returned: statement.argument, declaration: getter! };
}

/** `#name` of a private name, else the property's name (`undefined` when computed from data). */
function memberName(key: TSESTree.Node, computed: boolean): string | undefined {
  if (key.type === AST_NODE_TYPES.PrivateIdentifier) return `#${key.name}`;
  return propertyName(key, computed);
}

/**
 * The function a call names once TypeScript's CommonJS spelling is undone: `(0, keys_1.fn)` is
 * `keys_1.fn` (a sequence whose leading expressions are literals, the last a member or a name);
 * any other callee is itself.
 */
export function compiledCallee(callee: TSESTree.Node): TSESTree.Node {
  const node = unwrap(callee);
  if (node.type !== AST_NODE_TYPES.SequenceExpression || node.expressions.length < 2) return node;
  const last = unwrap(node.expressions[node.expressions.length - 1]!);
  const leading = node.expressions.slice(0, -1);
  if (!leading.every((e) => e.type === AST_NODE_TYPES.Literal)) return node;
  return last.type === AST_NODE_TYPES.MemberExpression || last.type === AST_NODE_TYPES.Identifier ? last : node;
}

/**
 * Whether the object literal `name` is bound to in `block` is filled with functions before it is
 * returned: `Object.assign(name, source, ...)` written in the block, a source being an object
 * literal with a function property or a `const` of the block bound to one. Such a function
 * returns an instance (`const provider = {}; Object.assign(provider, providerImpl); return
 * provider;`).
 */
export function filledWithMethods(block: TSESTree.BlockStatement, name: string): boolean {
  const objects = new Map<string, TSESTree.ObjectExpression>();
  for (const statement of block.body) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration || statement.kind !== 'const') continue;
    for (const declarator of statement.declarations) {
      const init = declarator.init ? unwrap(declarator.init) : undefined;
      if (declarator.id.type === AST_NODE_TYPES.Identifier && init?.type === AST_NODE_TYPES.ObjectExpression) objects.set(declarator.id.name, init);
    }
  }
  if (!objects.has(name)) return false;
  return block.body.some((statement) => {
    const call = statement.type === AST_NODE_TYPES.ExpressionStatement ? unwrap(statement.expression) : undefined;
    if (call?.type !== AST_NODE_TYPES.CallExpression || !isObjectAssign(call.callee)) return false;
    const [target, ...sources] = call.arguments;
    if (target?.type !== AST_NODE_TYPES.Identifier || target.name !== name) return false;
    return sources.some((source) => {
      const value = unwrap(source);
      const object = value.type === AST_NODE_TYPES.Identifier ? objects.get(value.name) : value;
      return object?.type === AST_NODE_TYPES.ObjectExpression && hasFunction(object);
    });
  });
}

/** An object literal with a property whose value is a function. */
function hasFunction(object: TSESTree.ObjectExpression): boolean {
  return object.properties.some((property) => {
    if (property.type !== AST_NODE_TYPES.Property) return false;
    const value = unwrap(property.value);
    return value.type === AST_NODE_TYPES.FunctionExpression || value.type === AST_NODE_TYPES.ArrowFunctionExpression;
  });
}
