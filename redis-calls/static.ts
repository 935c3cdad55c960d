/**
 * Reading values the linter can know statically: literals, template literals without
 * substitutions, and `const` bindings of them declared in the same file.
 */
import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

/** The part of a rule context the helpers need (any rule's context fits). */
export type AnyContext = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;

/** Removes wrappers that do not change a value: `x as T`, `x satisfies T`, `x!`, `<T>x`. */
export function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        current = current.expression;
        break;
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** Finds the variable an identifier refers to, or `null` (a global, or no scope information). */
export function findVariable(context: AnyContext, node: TSESTree.Identifier): TSESLint.Scope.Variable | null {
  const scope = context.sourceCode.getScope(node);
  return ASTUtils.findVariable(scope, node);
}

/**
 * The initializer of a `const` binding (`const NAME = <init>`) declared once in this file, or of
 * a `let` / `var` whose declaration is its only write (bundlers emit `var` for constants), or
 * `undefined` when the identifier is not such a binding.
 */
export function constInitializer(context: AnyContext, node: TSESTree.Identifier): TSESTree.Expression | undefined {
  const variable = findVariable(context, node);
  if (!variable || variable.defs.length !== 1) return undefined;
  const def = variable.defs[0];
  if (!def || def.type !== 'Variable') return undefined;
  const declarator = def.node;
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) return undefined;
  const id = declarator.id;
  if (def.parent?.kind !== 'const' && variable.references.some((r) => r.isWrite() && r.identifier !== id)) return undefined;
  return declarator.init;
}

/**
 * Follows `const` bindings (at most a few hops) to the expression that gives a value its shape.
 * Returns the unwrapped node itself when it is not a resolvable identifier.
 */
export function resolveConstExpression(context: AnyContext, node: TSESTree.Node, depth = 0): TSESTree.Node {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Identifier && depth < 4) {
    const init = constInitializer(context, bare);
    if (init) return resolveConstExpression(context, init, depth + 1);
  }
  return bare;
}

/**
 * The literal value of an expression when it is statically known: a string or number literal, a
 * template literal without substitutions, a negated number, or a `const` bound to one of those.
 */
export function staticValue(context: AnyContext, node: TSESTree.Node): string | number | boolean | undefined {
  const bare = resolveConstExpression(context, node);
  switch (bare.type) {
    case AST_NODE_TYPES.Literal:
      if (typeof bare.value === 'string' || typeof bare.value === 'number' || typeof bare.value === 'boolean') {
        return bare.value;
      }
      return undefined;
    case AST_NODE_TYPES.TemplateLiteral:
      return bare.expressions.length === 0 ? (bare.quasis[0]?.value.cooked ?? undefined) : undefined;
    case AST_NODE_TYPES.UnaryExpression:
      if (bare.operator === '-') {
        const inner = staticValue(context, bare.argument);
        return typeof inner === 'number' ? -inner : undefined;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The name of a non-computed property key or member property (`a.b`, `{ b: 1 }`, `{ 'b': 1 }`). */
export function propertyName(node: TSESTree.Node, computed = false): string | undefined {
  if (node.type === AST_NODE_TYPES.Identifier && !computed) return node.name;
  if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') return node.value;
  if (node.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
  return undefined;
}

/** The nearest function (declaration, expression or arrow) around a node; `undefined` at top level. */
export function enclosingFunction(node: TSESTree.Node): TSESTree.Node | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (
      current.type === 'FunctionDeclaration' ||
      current.type === 'FunctionExpression' ||
      current.type === 'ArrowFunctionExpression'
    ) {
      return current;
    }
  }
  return undefined;
}
