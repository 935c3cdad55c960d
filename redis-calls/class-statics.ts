/**
 * Static members of a class, as `key-shape.ts` reads them: the class a `this` stands for in a
 * static context, and what the class gives one static member (its values, or the function it is).
 *
 * In a static method, a static field's initializer (arrow functions included: `static set =
 * async () => { this.key }`), a static getter and a `static {}` block, `this` is the class
 * itself: `this.queuedKey` there is `TransactionDB.queuedKey`. A static member is fixed once for
 * the class when the class gives it one value (its initializer, an assignment of a `static {}`
 * block or of the module's top level, as compilers emit static fields) and nothing else writes it.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { forEachThisWrite, thisBinding } from './bounded.js';
import { propertyName, unwrap, type AnyContext } from './static.js';

export type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/**
 * The class a `this` stands for when it is in a static context of that class: a static method or
 * accessor, a static field's initializer, a `static {}` block, through arrow functions (they keep
 * `this`). `undefined` in an instance context, in a nested `function` (its own `this`) and
 * outside classes.
 */
export function classOfStaticThis(node: TSESTree.Node): ClassNode | undefined {
  const binding = thisBinding(node);
  // a computed key (`static [this.x]`) is evaluated outside the member: not the class's `this`
  return binding?.isStatic && !binding.inKey ? binding.cls : undefined;
}

/** What a class gives one of its static members. */
export interface StaticMember {
  /**
   * The values assigned to it: its initializer (`static PREFIX = 'sess'`), `this.PREFIX = ...` of
   * a `static {}` block, `Store.PREFIX = ...` of the module's top level. A method (`static key(id)
   * {...}`) has none.
   */
  values: TSESTree.Node[];
  /** `static get KEY() { return 'q:jobs'; }`: the getter's function. */
  getter?: TSESTree.FunctionExpression;
  /** `static key(id) { ... }`: the method's function. */
  method?: TSESTree.FunctionExpression;
  /** The member's declaration in the class body (annotations on it apply to the key). */
  declaration?: TSESTree.Node;
}

/**
 * The static member `name` of a class, when the class fixes it: `undefined` when nothing declares
 * or assigns it, or when it is written anywhere else than its initializer, a `static {}` block or
 * a plain `=` of the module's top level (a static method setting `this.key = p`, a function
 * setting `Store.key = p`, `+=`, `delete`), unless it is `readonly`.
 * @param context the rule context of the file the class is written in
 */
export function staticMember(context: AnyContext, cls: ClassNode, name: string): StaticMember | undefined {
  const member: StaticMember = { values: [] };
  let readonly = false;
  let writtenElsewhere = false;
  for (const element of cls.body.body) {
    if (element.type === AST_NODE_TYPES.StaticBlock) {
      forEachThisWrite(element, name, (value) => (value ? member.values.push(value) : (writtenElsewhere = true)));
      continue;
    }
    if (element.type !== AST_NODE_TYPES.MethodDefinition && element.type !== AST_NODE_TYPES.PropertyDefinition) continue;
    if (element.static && propertyName(element.key, element.computed) === name) {
      member.declaration = element;
      if (element.type === AST_NODE_TYPES.PropertyDefinition) {
        readonly ||= element.readonly;
        if (element.value) member.values.push(element.value);
      } else if (element.value.type === AST_NODE_TYPES.FunctionExpression) {
        // an overload signature (no body) declares nothing to read
        if (element.kind === 'get') member.getter = element.value;
        else if (element.kind === 'method') member.method = element.value;
      }
    }
    // this.<name> = ... in another static member: the class's member, changed at run time
    const body = element.type === AST_NODE_TYPES.MethodDefinition ? element.value.body : element.value;
    if (element.static && body) forEachThisWrite(body, name, () => (writtenElsewhere = true));
  }
  for (const reference of classReferences(context, cls)) {
    const target = reference.identifier.parent;
    if (target?.type !== AST_NODE_TYPES.MemberExpression || target.object !== reference.identifier || propertyName(target.property, target.computed) !== name) continue;
    const write = target.parent;
    if (write?.type === AST_NODE_TYPES.AssignmentExpression && write.left === target) {
      const topLevel = write.parent?.type === AST_NODE_TYPES.ExpressionStatement && write.parent.parent?.type === AST_NODE_TYPES.Program;
      if (topLevel && write.operator === '=') member.values.push(write.right);
      else writtenElsewhere = true;
    } else if (write?.type === AST_NODE_TYPES.UpdateExpression || (write?.type === AST_NODE_TYPES.UnaryExpression && write.operator === 'delete')) {
      writtenElsewhere = true;
    }
  }
  if (writtenElsewhere && !readonly) return undefined;
  // a method or getter and a value besides: the class replaces one with the other
  const kinds = (member.values.length > 0 ? 1 : 0) + (member.getter ? 1 : 0) + (member.method ? 1 : 0);
  return kinds === 1 ? member : undefined;
}

/** The references of the names a class is bound to (its declaration's, or the `var` of a class expression). */
function classReferences(context: AnyContext, cls: ClassNode): TSESLint.Scope.Reference[] {
  const declaration = cls.type === AST_NODE_TYPES.ClassDeclaration ? cls : unwrapParent(cls);
  return declaration ? context.sourceCode.getDeclaredVariables(declaration).flatMap((variable) => variable.references) : [];
}

/** The declarator a class expression is the value of (`var Store = class {}`), else the expression's parent. */
function unwrapParent(cls: TSESTree.ClassExpression): TSESTree.Node | undefined {
  let node: TSESTree.Node = cls;
  while (node.parent && unwrap(node.parent) === cls) node = node.parent;
  return node.parent;
}
