/**
 * The client verdict on a member of a class of the code (`this.redis`, `Cls.client`, a member
 * destructured from `this`), for the client detector (`redis-calls/clients.ts`): its annotation,
 * its initializer, a constructor parameter property, the values the class's methods assign to it,
 * or the member its superclass declares; and the `keyPrefix` of the ioredis clients a binding
 * can hold. Each function takes the detector of the module the class is declared in.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { type ReceiverKind, NOT_REDIS, UNKNOWN, withKeyPrefix } from './client-facts.js';
import { memberKeyName } from './client-syntax.js';
import type { ClientDetector } from './clients.js';
import { forEachThisWrite } from './bounded.js';
import { unwrap } from './static.js';
import { injectedClientVerdict } from './client-registries.js';

/** The class members whose assignments the current search judges or has judged: per class, `[static ]<name>` -> depth and verdict. */
let memberSearch: Map<object, Map<string, { depth: number; verdict?: ReceiverKind }>> | undefined;

/**
 * A class member: its type annotation, its initializer, a constructor parameter property (its
 * annotation or default value), else every value the class assigns to `this.<name>` (a client
 * if one is, provably not one if all are provably not, e.g. `this.redisListeners = new Map()`).
 */
export function classMemberVerdict(
  detector: ClientDetector,
  cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  name: string,
  depth: number,
  isStatic: boolean,
): ReceiverKind {
  let declared: ReceiverKind | undefined;
  for (const member of cls.body.body) {
    if (
      member.type === AST_NODE_TYPES.PropertyDefinition &&
      member.static === isStatic &&
      memberKeyName(member.key, member.computed) === name
    ) {
      const fromType = member.typeAnnotation ? detector.classifyType(member.typeAnnotation.typeAnnotation) : undefined;
      // private redis: Redis, made with a keyPrefix by its initializer or the class's methods
      if (fromType?.redis) return keyPrefixOfValues(detector, fromType, () => (member.value ? [member.value] : assignedValues(detector, cls, name, isStatic)), depth);
      // @InjectRedis() private readonly redis: what Nest injects, whatever the annotation (client-registries.ts)
      const injected = injectedClientVerdict(detector, member.decorators);
      if (injected) return injected;
      if (fromType?.proven) return fromType;
      if (member.value) return detector.classifySyntactic(member.value, depth + 1);
    }
    if (
      !isStatic &&
      member.type === AST_NODE_TYPES.MethodDefinition &&
      member.kind === 'constructor' &&
      member.value.type === AST_NODE_TYPES.FunctionExpression
    ) {
      for (const param of member.value.params) {
        if (param.type !== AST_NODE_TYPES.TSParameterProperty) continue;
        const inner = param.parameter;
        const id = inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner;
        if (id.type !== AST_NODE_TYPES.Identifier || id.name !== name) continue;
        if (id.typeAnnotation) {
          declared = detector.classifyType(id.typeAnnotation.typeAnnotation);
          if (declared.redis) return declared;
        }
        // constructor(@InjectRedis('log') private readonly log: Redis)
        const injected = injectedClientVerdict(detector, param.decorators);
        if (injected) return injected;
        if (declared && !declared.redis && declared.proven) return declared;
        if (inner.type === AST_NODE_TYPES.AssignmentPattern) {
          // constructor(private readonly redisRequests = new Map()): provably not a client unless
          // callers may pass something else, which only an annotation would tell
          const fromDefault = detector.classifySyntactic(inner.right, depth + 1);
          if (fromDefault.redis || fromDefault.proven) return fromDefault;
        }
      }
    }
  }
  if (declared) return declared;
  const assigned = assignmentsOnce(detector, cls, name, depth, isStatic);
  if (assigned.redis || assigned.proven || depth > 6) return assigned;
  return inheritedMember(detector, cls, name, depth + 1, isStatic) ?? assigned;
}

/**
 * A member the class inherits (`class Adapter extends BaseAdapter`, `this.redisCache`): its getter
 * or member in the superclass, declared in this module or in another module of the code, when
 * that decides (a client, or provably none: the app's own cache class).
 */
function inheritedMember(
  detector: ClientDetector,
  cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  name: string,
  depth: number,
  isStatic: boolean,
): ReceiverKind | undefined {
  const superClass = cls.superClass ? unwrap(cls.superClass) : undefined;
  const parent = superClass?.type === AST_NODE_TYPES.Identifier ? classDeclaration(detector, superClass, depth) : undefined;
  if (!parent) return undefined;
  const { node, detector: owner } = parent;
  let verdict: ReceiverKind | undefined;
  for (const element of node.body.body) {
    if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'get' && element.static === isStatic && memberKeyName(element.key, element.computed) === name) {
      verdict = owner.classifyReturnOf(element.value, `this.${name}`, depth + 1);
      break;
    }
  }
  verdict ??= classMemberVerdict(owner, node, name, depth + 1, isStatic);
  return verdict.redis || verdict.proven ? verdict : undefined;
}

/** The class a name declares, in this module or in the module of the code it is imported from, with that module's detector. */
function classDeclaration(
  detector: ClientDetector,
  ident: TSESTree.Identifier,
  depth: number,
): { node: TSESTree.ClassDeclaration | TSESTree.ClassExpression; detector: ClientDetector } | undefined {
  if (depth > 8) return undefined;
  const origin = detector.identifierOrigin(ident);
  if (origin.kind === 'local') return origin.classNode ? { node: origin.classNode, detector } : undefined;
  if (origin.kind !== 'import' || !origin.own) return undefined;
  const exported = detector.exported(origin);
  return exported?.node.type === AST_NODE_TYPES.Identifier ? classDeclaration(exported.detector, exported.node, depth + 1) : undefined;
}

/**
 * {@link classifyAssignments}, once per member and depth in one search: members assigned from
 * each other (`this.a = this.b; this.b = this.a`, n members assigning each other: n^depth paths)
 * are judged once; a member met again while it is judged gives no verdict, one judged already
 * at the same depth or nearer gives that verdict.
 */
function assignmentsOnce(
  detector: ClientDetector,
  cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  name: string,
  depth: number,
  isStatic: boolean,
): ReceiverKind {
  const outermost = memberSearch === undefined;
  const search = (memberSearch ??= new Map());
  try {
    let members = search.get(cls);
    if (!members) search.set(cls, (members = new Map()));
    const key = `${isStatic ? 'static ' : ''}${name}`;
    const met = members.get(key);
    if (met && met.depth <= depth) return met.verdict ?? UNKNOWN;
    const entry: { depth: number; verdict?: ReceiverKind } = { depth };
    members.set(key, entry);
    entry.verdict = assignmentsVerdict(detector, cls, name, depth, isStatic);
    return entry.verdict;
  } finally {
    if (outermost) memberSearch = undefined;
  }
}

/**
 * Every `this.<name> = value` in the class's own methods (not in nested classes): a client if
 * one is (with a `keyPrefix` only when every value that is a client has that same one), provably
 * not one if all are provably not.
 */
function assignmentsVerdict(
  detector: ClientDetector,
  cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  name: string,
  depth: number,
  isStatic: boolean,
): ReceiverKind {
  const values = assignedValues(detector, cls, name, isStatic);
  if (values.length === 0) return UNKNOWN;
  let allNot = true;
  for (const value of values) {
    const verdict = detector.classifySyntactic(value, depth + 1);
    if (verdict.redis) return verdict.keyPrefix === undefined || values.length === 1 ? verdict : keyPrefixOfValues(detector, verdict, () => values, depth);
    if (!verdict.proven) allNot = false;
  }
  return allNot ? NOT_REDIS : UNKNOWN;
}

/** The values the class's own methods assign to `this.<name>`. */
function assignedValues(detector: ClientDetector, cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression, name: string, isStatic: boolean): TSESTree.Node[] {
  const values: TSESTree.Node[] = [];
  for (const member of cls.body.body) {
    if (member.type !== AST_NODE_TYPES.MethodDefinition || member.static !== isStatic || !member.value.body) continue;
    forEachThisWrite(member.value.body, name, (value) => value && values.push(value));
  }
  return values;
}

/**
 * A client verdict with the `keyPrefix` of the values a binding can hold, when every one of them
 * that is a client has the same (`*` when they differ); without one when none has one.
 */
export function keyPrefixOfValues(detector: ClientDetector, verdict: ReceiverKind, valuesOf: () => readonly TSESTree.Node[], depth: number): ReceiverKind {
  // only ioredis / iovalkey clients have the option
  if (!verdict.redis || verdict.flavor !== 'ioredis' || depth > 6) return verdict;
  const prefixes = new Set<string | undefined>();
  for (const value of valuesOf()) {
    const made = detector.classifySyntactic(value, depth + 1);
    if (made.redis) prefixes.add(made.keyPrefix);
  }
  const { keyPrefix: _, ...rest } = verdict;
  const base = rest as ReceiverKind;
  if (prefixes.size === 0 || (prefixes.size === 1 && prefixes.has(undefined))) return base;
  return withKeyPrefix(base, prefixes.size === 1 ? [...prefixes][0] : '*');
}
