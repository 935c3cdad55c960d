/**
 * Instance members fixed at construction from one value: what `this.expireLogger` (or
 * `self.expireLogger`, `self` bound to `this`) stands for when the code gives the member one value
 * when the instance is made and never writes it again, so that a TTL computed from it
 * (`Math.floor(this.expireLogger / 1000)`) folds like a `const` (`redis-calls/constant.ts`).
 *
 * The member is given its value by exactly one of:
 * - a field initialiser of the class (`private readonly ttlMs = 60_000`, `ttl = 60`);
 * - an assignment `this.x = value` that is a statement of the constructor's own body (not in an
 *   `if`, a loop or a callback), in a class or in a function written as a constructor the pre-class
 *   way (`function Medusa(options) { this.expireLogs = 1000 * 60 * 60 * 24 * 5; }`, read in its
 *   callbacks through `var self = this` or in `Medusa.prototype.log = function () { ... }`).
 *
 * and nothing else in the file writes a member of that name (`this.x = ...` in another method,
 * `self.x += 1`, `instance.x = 0`, `delete this.x`, `this[k] = v`, `Object.assign(this, options)`),
 * except `this.x` of another class when neither class extends one. A constructor parameter
 * property (`constructor(private ttl: number)`) is a parameter: no value. Whether the value is a
 * constant is the folding's question: `this.ttl = options.ttl` or `this.ttl = ttl` (a parameter)
 * stays unknown there. A read in the constructor before the assignment, or in a field initialiser
 * when the constructor assigns, sees no value yet: none is given.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { thisBinding } from './bounded.js';
import { findVariable, memberWritesOf, propertyName, unwrap, type AnyContext, type MemberWrite } from './static.js';

type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;
type ConstructorFunction = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression;
type Owner = ClassNode | ConstructorFunction;

/** Where an instance member gets its one value: the value, and the node that writes it. */
interface Construction {
  value: TSESTree.Node;
  /** The field (`PropertyDefinition`) or the member assigned (`this.x` of `this.x = value`). */
  target: TSESTree.Node;
  /** The constructor's function, when the value is assigned there. */
  constructorFn?: TSESTree.FunctionExpression | TSESTree.FunctionDeclaration;
}

/**
 * The one value the instance member `member` reads (`this.x`, `self.x`) is given at construction,
 * under the conditions of this module's description; `undefined` otherwise.
 * @param context the linted file's rule context
 * @param member the member read
 */
export function instanceConstant(context: AnyContext, member: TSESTree.MemberExpression): TSESTree.Node | undefined {
  const name = memberName(member.property, member.computed);
  const thisNode = name === undefined ? undefined : thisOf(context, unwrap(member.object));
  const owner = thisNode ? ownerOf(context, thisNode) : undefined;
  if (!owner || name === undefined) return undefined;
  const construction = unwrittenConstruction(context, owner, name);
  if (!construction) return undefined;
  // read before the constructor assigns it: in the constructor's own body before the assignment,
  // or in a field initialiser (fields are initialised before the constructor's body runs)
  if (construction.constructorFn) {
    if (nearestFunction(member) === construction.constructorFn && member.range[0] < construction.target.range[1]) return undefined;
    if (owner.type !== AST_NODE_TYPES.FunctionDeclaration && owner.type !== AST_NODE_TYPES.FunctionExpression && inFieldInitializer(member, owner)) return undefined;
  }
  return construction.value;
}

/**
 * Whether anything in the file other than a `this.<name> = ...` statement of the owner's own
 * constructor may write member `name` of the instance `member` reads (`this.x`): under
 * {@link mayWrite}'s conditions, so `store.x = 500`, a subclass's constructor, another method,
 * `Object.assign(this, options)` (in the constructor too) or an alias of `this` count. `true`
 * when the owner cannot be told. For a check that reads every value the constructor and the
 * field initialiser give (`ttl-value.ts`, whole multiples).
 * @param context the linted file's rule context
 * @param member the member read
 */
export function writtenOutsideConstructor(context: AnyContext, member: TSESTree.MemberExpression): boolean {
  const name = memberName(member.property, member.computed);
  const thisNode = name === undefined ? undefined : thisOf(context, unwrap(member.object));
  const owner = thisNode ? ownerOf(context, thisNode) : undefined;
  if (!owner || name === undefined) return true;
  const constructorFn =
    owner.type === AST_NODE_TYPES.ClassDeclaration || owner.type === AST_NODE_TYPES.ClassExpression
      ? owner.body.body.find((element): element is TSESTree.MethodDefinition => element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'constructor')?.value
      : owner;
  return memberWritesOf(context.sourceCode.ast).some((write) => {
    const ownAssignment = write.root === 'this' && write.path.length === 1 && write.path[0] === name && constructorFn !== undefined && nearestFunction(write.node) === constructorFn;
    return !ownAssignment && mayWrite(context, write, name, owner);
  });
}

/** Per owner and member name: the member's one construction, when nothing else writes it (`null`: none). */
const settled = new WeakMap<Owner, Map<string, Construction | null>>();

/**
 * The construction of member `name` of `owner` when nothing else in the file may write it;
 * settled once per owner and name (a file reading one member in 3,000 methods scans its member
 * writes once, not 3,000 times).
 */
function unwrittenConstruction(context: AnyContext, owner: Owner, name: string): Construction | undefined {
  let byName = settled.get(owner);
  if (!byName) settled.set(owner, (byName = new Map()));
  const known = byName.get(name);
  if (known !== undefined) return known ?? undefined;
  let construction: Construction | null = constructionOf(owner, name) ?? null;
  if (construction) {
    const target = construction.target;
    if (memberWritesOf(context.sourceCode.ast).some((write) => write.node !== target && mayWrite(context, write, name, owner))) construction = null;
  }
  byName.set(name, construction);
  return construction ?? undefined;
}

/** `name` of `x.name`, `#name` of `this.#name`, `'name'` of `x['name']`; `undefined` for another computed member. */
function memberName(key: TSESTree.Node, computed: boolean): string | undefined {
  if (key.type === AST_NODE_TYPES.PrivateIdentifier) return `#${key.name}`;
  return propertyName(key, computed);
}

/** `this` itself, or the `this` a name is bound to once (`var self = this`, `const _this = this`). */
function thisOf(context: AnyContext, object: TSESTree.Node): TSESTree.ThisExpression | undefined {
  if (object.type === AST_NODE_TYPES.ThisExpression) return object;
  if (object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context, object);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  const id = def.node.id;
  if (init.type !== AST_NODE_TYPES.ThisExpression || variable!.references.some((r) => r.isWrite() && r.identifier !== id)) return undefined;
  return init;
}

/**
 * The class or constructor function whose instance `this` is: the class around it (through arrow
 * functions; not in a static member), else the nearest non-arrow function, or the constructor `C`
 * when that function is a method `C.prototype.m = function () {...}`. `undefined` for a method of
 * an object literal, and at the top level.
 */
function ownerOf(context: AnyContext, thisNode: TSESTree.ThisExpression): Owner | undefined {
  const binding = thisBinding(thisNode);
  if (binding) return binding.isStatic || binding.inKey ? undefined : binding.cls;
  let fn = nearestFunction(thisNode);
  while (fn?.type === AST_NODE_TYPES.ArrowFunctionExpression) fn = nearestFunction(fn); // arrows share `this`
  if (!fn) return undefined;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.Property || parent?.type === AST_NODE_TYPES.MethodDefinition) return undefined;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === fn) {
    const prototypeOf = prototypeObject(parent.left);
    if (prototypeOf) return constructorNamed(context, prototypeOf);
  }
  return fn;
}

/** `C` of `C.prototype.m`, `undefined` for any other target. */
function prototypeObject(target: TSESTree.Node): TSESTree.Identifier | undefined {
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.object.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const proto = target.object;
  return proto.object.type === AST_NODE_TYPES.Identifier && propertyName(proto.property, proto.computed) === 'prototype' ? proto.object : undefined;
}

/** The function a constructor's name is bound to: `function C() {}`, `var C = function () {}`, `var C = exports.C = function () {}`. */
function constructorNamed(context: AnyContext, id: TSESTree.Identifier): ConstructorFunction | undefined {
  const def = findVariable(context, id)?.defs[0];
  if (def?.type === 'FunctionName' && def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node;
  if (def?.type !== 'Variable' || !def.node.init) return undefined;
  let init = unwrap(def.node.init);
  while (init.type === AST_NODE_TYPES.AssignmentExpression) init = unwrap(init.right);
  return init.type === AST_NODE_TYPES.FunctionExpression ? init : undefined;
}

/** The nearest function around a node, arrow functions included. */
function nearestFunction(node: TSESTree.Node): TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.FunctionDeclaration || current.type === AST_NODE_TYPES.FunctionExpression || current.type === AST_NODE_TYPES.ArrowFunctionExpression) return current;
  }
  return undefined;
}

/** The one value an owner gives member `name` when an instance is made: a field initialiser, or one `this.name = value` statement of the constructor's body (not in a nested block). */
function constructionOf(owner: Owner, name: string): Construction | undefined {
  const all = constructorAssignments(owner, name);
  return all?.length === 1 && all[0]!.direct ? all[0] : undefined;
}

/** A value the owner gives a member at construction ({@link constructorAssignments}). */
interface ConstructorAssignment extends Construction {
  /** Given on every construction: a field initialiser, or a statement of the constructor's body itself (not in an `if`, a loop, a `try`). */
  direct: boolean;
}

/**
 * Every value an owner gives member `name` at construction: its field initialiser and each
 * `this.name = value` of the constructor, nested blocks included (an `if` inside it), not in a
 * function inside it (a callback runs later) nor a nested class. `undefined` when the constructor
 * takes it as a parameter property (`constructor(private ttl: number)`) or writes it otherwise
 * (`this.name += 1`, `this.name++`). Writes elsewhere in the file are the callers' question
 * ({@link writtenOutsideConstructor}, {@link unwrittenConstruction}).
 */
function constructorAssignments(owner: Owner, name: string): ConstructorAssignment[] | undefined {
  const found: ConstructorAssignment[] = [];
  let constructorFn: TSESTree.FunctionExpression | TSESTree.FunctionDeclaration | undefined;
  if (owner.type === AST_NODE_TYPES.ClassDeclaration || owner.type === AST_NODE_TYPES.ClassExpression) {
    for (const element of owner.body.body) {
      if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.static && memberName(element.key, element.computed) === name && element.value) {
        found.push({ value: element.value, target: element, direct: true });
      }
      if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'constructor' && element.value.type === AST_NODE_TYPES.FunctionExpression) {
        constructorFn = element.value;
        // constructor(private ttl: number): the caller's value
        if (element.value.params.some((param) => param.type === AST_NODE_TYPES.TSParameterProperty && param.parameter.type === AST_NODE_TYPES.Identifier && param.parameter.name === name)) return undefined;
      }
    }
  } else {
    constructorFn = owner;
  }
  const body = constructorFn?.body;
  if (!body) return found;
  let other = false;
  const isOwn = (target: TSESTree.Node): target is TSESTree.MemberExpression =>
    target.type === AST_NODE_TYPES.MemberExpression && unwrap(target.object).type === AST_NODE_TYPES.ThisExpression && memberName(target.property, target.computed) === name;
  const visit = (node: TSESTree.Node): void => {
    if (other) return;
    if (node.type === AST_NODE_TYPES.AssignmentExpression && isOwn(node.left)) {
      if (node.operator !== '=') other = true;
      else found.push({ value: node.right, target: node.left, constructorFn: constructorFn!, direct: node.parent?.type === AST_NODE_TYPES.ExpressionStatement && node.parent.parent === body });
    } else if (node.type === AST_NODE_TYPES.UpdateExpression && isOwn(node.argument)) other = true;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'parent') continue;
      for (const c of Array.isArray(child) ? child : [child]) {
        if (!c || typeof c !== 'object' || typeof (c as { type?: unknown }).type !== 'string') continue;
        const next = c as TSESTree.Node;
        // a function inside the constructor runs later (or never); a nested class has its own `this`
        if (FUNCTION_OR_CLASS.has(next.type)) continue;
        visit(next);
      }
    }
  };
  visit(body);
  return other ? undefined : found;
}

const FUNCTION_OR_CLASS: ReadonlySet<AST_NODE_TYPES> = new Set([
  AST_NODE_TYPES.FunctionExpression,
  AST_NODE_TYPES.FunctionDeclaration,
  AST_NODE_TYPES.ArrowFunctionExpression,
  AST_NODE_TYPES.ClassDeclaration,
  AST_NODE_TYPES.ClassExpression,
]);

/**
 * The values a class member `this.x` is given at construction: its field initialiser and every
 * `this.x = value` of the constructor, nested blocks included ({@link constructorAssignments});
 * `undefined` when the member is not read on `this` of a class, is a parameter property, or the
 * constructor writes it otherwise. Whether anything else writes it is
 * {@link writtenOutsideConstructor}'s. For a check that reads every value (`ttl-value.ts`, whole
 * multiples).
 * @param context the linted file's rule context
 * @param member the member read
 */
export function constructorValues(context: AnyContext, member: TSESTree.MemberExpression): TSESTree.Node[] | undefined {
  const name = memberName(member.property, member.computed);
  const thisNode = name === undefined || unwrap(member.object).type !== AST_NODE_TYPES.ThisExpression ? undefined : thisOf(context, unwrap(member.object));
  const owner = thisNode ? ownerOf(context, thisNode) : undefined;
  if (!owner || name === undefined || (owner.type !== AST_NODE_TYPES.ClassDeclaration && owner.type !== AST_NODE_TYPES.ClassExpression)) return undefined;
  return constructorAssignments(owner, name)?.map((assignment) => assignment.value);
}

/**
 * Whether a write may give the member `name` of the owner's instances another value: a write of
 * a member of that name on any object (`self.x = 1`, `cache.x = 0`), or of any member of `this`
 * or of an alias of it (`this[k] = v`, `Object.assign(this, options)`); not `this.x` of another
 * class when neither class extends one (another object).
 */
function mayWrite(context: AnyContext, write: MemberWrite, name: string, owner: Owner): boolean {
  const last = write.path[write.path.length - 1];
  if (last === name) return !(write.root === 'this' && write.path.length === 1 && unrelatedClass(write.node, owner));
  if (write.path.length > 1 || (last !== undefined && last !== '*')) return false;
  // `this[k] = v`, `Object.assign(this, ...)`: any member of the object written
  const object = write.path.length === 0 ? write.node : write.node.type === AST_NODE_TYPES.MemberExpression ? unwrap(write.node.object) : undefined;
  return object !== undefined && thisOf(context, unwrap(object)) !== undefined;
}

/** Whether the `this` of a written member belongs to another class than `owner`, neither extending one. */
function unrelatedClass(written: TSESTree.Node, owner: Owner): boolean {
  const binding = written.type === AST_NODE_TYPES.MemberExpression ? thisBinding(written) : undefined;
  if (!binding || binding.cls === owner || binding.cls.superClass) return false;
  return owner.type === AST_NODE_TYPES.FunctionDeclaration || owner.type === AST_NODE_TYPES.FunctionExpression || !owner.superClass;
}

/** Whether a node lies in an instance field's initialiser of `cls` (run before the constructor's body). */
function inFieldInitializer(node: TSESTree.Node, cls: ClassNode): boolean {
  for (let current: TSESTree.Node | undefined = node; current?.parent; current = current.parent) {
    if (current.parent.type === AST_NODE_TYPES.ClassBody) return current.parent.parent === cls && current.type === AST_NODE_TYPES.PropertyDefinition && !current.static;
  }
  return false;
}
