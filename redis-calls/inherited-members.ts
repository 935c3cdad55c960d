/**
 * The declared type of an instance member a class inherits from a superclass of the code:
 * `this.redisConnection` in `class ClaudeEventWorker extends AbstractQueueWorker`, where
 * `AbstractQueueWorker` (another module, imported with a path alias) declares `protected readonly
 * redisConnection: RedisConnection` and its constructor stores the instance it is given. The
 * facade reader (`redis-calls/facades.ts`) then reads `this.redisConnection.rpush(key, ...)` as a
 * call of `RedisConnection.rpush`, as it does for a member the class declares itself.
 *
 * Limits: the member must be declared with a type annotation (a property, or a constructor
 * parameter property) by a superclass named by an identifier (`extends Base`, not `extends
 * mixin(Base)`), at most {@link MAX_HOPS} superclasses up; the class itself must not declare it
 * (its own declaration is read first, by `bounded.ts` instanceMember).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { ClientDetector } from './clients.js';
import { propertyName, unwrap } from './static.js';

/** How many superclasses up a member's declaration is looked for. */
const MAX_HOPS = 3;

type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/** A class (or interface) found for a name, with the detector of its module. */
export interface FoundClass {
  node: ClassNode | TSESTree.ObjectExpression | TSESTree.TSInterfaceDeclaration;
  detector: ClientDetector;
}

/**
 * The type annotation a superclass of `cls` declares for the instance member `name`, with the
 * detector of the superclass's module; `undefined` when `cls` declares the member itself, or no
 * superclass within {@link MAX_HOPS} declares it with an annotation.
 * @param classNamed resolves a class name as written in a module (the facade reader's lookup)
 */
export function inheritedMemberType(
  detector: ClientDetector,
  cls: ClassNode,
  name: string,
  classNamed: (detector: ClientDetector, id: TSESTree.Identifier) => FoundClass | undefined,
): { type: TSESTree.TypeNode; detector: ClientDetector } | undefined {
  if (declaredMember(cls, name) !== undefined) return undefined;
  let current: { node: ClassNode; detector: ClientDetector } = { node: cls, detector };
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const superClass = current.node.superClass;
    if (superClass?.type !== AST_NODE_TYPES.Identifier) return undefined;
    const found = classNamed(current.detector, superClass);
    if (!found || (found.node.type !== AST_NODE_TYPES.ClassDeclaration && found.node.type !== AST_NODE_TYPES.ClassExpression)) return undefined;
    current = { node: found.node, detector: found.detector };
    const declared = declaredMember(current.node, name);
    if (declared === null) return undefined;
    if (declared) return { type: declared, detector: current.detector };
  }
  return undefined;
}

/**
 * The annotation of the instance member `name` a class declares (a property or a constructor
 * parameter property): the type, `null` when declared without one, `undefined` when not declared.
 */
function declaredMember(cls: ClassNode, name: string): TSESTree.TypeNode | null | undefined {
  for (const element of cls.body.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.static && propertyName(element.key, element.computed) === name) {
      return element.typeAnnotation?.typeAnnotation ?? null;
    }
    if (element.type !== AST_NODE_TYPES.MethodDefinition || element.kind !== 'constructor') continue;
    for (const param of element.value.params) {
      if (param.type !== AST_NODE_TYPES.TSParameterProperty) continue;
      const binding = param.parameter.type === AST_NODE_TYPES.AssignmentPattern ? param.parameter.left : param.parameter;
      if (binding.type === AST_NODE_TYPES.Identifier && binding.name === name) return binding.typeAnnotation?.typeAnnotation ?? null;
    }
  }
  return undefined;
}

/**
 * The class (or interface) the name `id` refers to in the module `detector` reads: a class or
 * interface declared in that module, or one the code's own module it is imported from exports
 * (through re-exported names, `depth` of `maxDepth` hops so far); `undefined` for anything else
 * (a package's class, a value).
 */
export function codeClassNamed(detector: ClientDetector, id: TSESTree.Identifier, depth: number, maxDepth: number): FoundClass | undefined {
  if (depth > maxDepth) return undefined;
  const origin = detector.identifierOrigin(id);
  if (origin.kind === 'local') {
    if (origin.classNode) return { node: origin.classNode, detector };
    return origin.typeNode?.type === AST_NODE_TYPES.TSInterfaceDeclaration ? { node: origin.typeNode, detector } : undefined;
  }
  if (origin.kind !== 'import' || !origin.own) return undefined;
  const exported = detector.exported(origin);
  const node = exported && unwrap(exported.node);
  if (!exported || !node) return undefined;
  if (node.type === AST_NODE_TYPES.ClassDeclaration || node.type === AST_NODE_TYPES.ClassExpression) return { node, detector: exported.detector };
  return node.type === AST_NODE_TYPES.Identifier ? codeClassNamed(exported.detector, node, depth + 1, maxDepth) : undefined;
}
