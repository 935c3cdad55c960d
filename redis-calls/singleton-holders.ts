/**
 * A class whose one instance is handed out by a static accessor (the singleton pattern), read as
 * the holder of its methods for `wrapper-callers.ts`: the calls of a method are every
 * `C.getInstance().member(...)` and every `x.member(...)` of a `const x = C.getInstance()`, in the
 * defining module and in the modules importing the class.
 *
 * ```js
 * class RedisManager {
 *   static instance = null;
 *   constructor() { if (!RedisManager.instance) { this.redis = new Redis(); RedisManager.instance = this; } }
 *   static getInstance() { if (!RedisManager.instance) RedisManager.instance = new RedisManager(); return RedisManager.instance; }
 *   async createData(key, info) { return this.redis.hset(key, info); } // judged at its callers
 * }
 * export default RedisManager;
 * // handlers/nickname.js
 * const redisManager = RedisManager.getInstance();
 * await redisManager.createData('user:' + name, info);
 * ```
 *
 * What counts, conservatively (a caller missed would hide a leak):
 *
 * - a top-level class with a static accessor method each of whose `return`s is the class's static
 *   slot (`C.instance`, `this.instance`) or `new C()`;
 * - inside the class, the class is only read as a member's object (`C.instance`) or constructed
 *   (`new C()`); `this` is only a member's object or stored in the class's slot (`C.instance =
 *   this`); the class's body may call the method too, on the instance its accessor or a static
 *   member gives (`static touch(id) { return C.getInstance().createData(id, v); }`,
 *   `C.instance!.createData(...)`, `this.getInstance()` in a static member): those are callers as
 *   well (the class's own binding of its name, not the module's, is what its body reads);
 * - outside the class, the class is only called through an accessor (`C.getInstance()`) or exported
 *   (`export default C`, `export { C }`); anything else (`new C()`, `C.instance`, handed on)
 *   leaves the callers unknown;
 * - the instance an accessor returns is only used as a member's object (`C.getInstance().set(...)`),
 *   held in a `const` (not exported) used only so, or dropped (`C.getInstance();` at start-up); a `this.manager = C.getInstance()`, an instance handed on
 *   or returned, leaves the callers unknown.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, propertyName, unwrap, type AnyContext } from './static.js';

type Variable = NonNullable<ReturnType<typeof findVariable>>;

/** A call of the wrapper method, with the context of the module it is written in. */
export interface SingletonSite {
  call: TSESTree.CallExpression;
  context: AnyContext;
}

/** A singleton class: its name, its static accessors (`getInstance`) and its body. */
export interface Singleton {
  name: string;
  accessors: ReadonlySet<string>;
  body: TSESTree.ClassBody;
}

/**
 * The singleton class `cls` is (see the module comment), or `undefined`: its static methods whose
 * every `return` gives the class's one instance.
 */
export function singletonOf(cls: TSESTree.ClassDeclaration): Singleton | undefined {
  if (!cls.id) return undefined;
  const name = cls.id.name;
  const accessors = new Set<string>();
  for (const element of cls.body.body) {
    if (element.type !== AST_NODE_TYPES.MethodDefinition || !element.static || element.kind !== 'method' || element.computed || element.key.type !== AST_NODE_TYPES.Identifier) continue;
    const returns = returnedValues(element.value.body);
    if (returns && returns.length > 0 && returns.every((value) => isInstance(value, name))) accessors.add(element.key.name);
  }
  return accessors.size > 0 ? { name, accessors, body: cls.body } : undefined;
}

/** The arguments of the `return`s of a method body (not of nested functions); `undefined` on a bare `return`. */
function returnedValues(body: TSESTree.BlockStatement | null | undefined): TSESTree.Node[] | undefined {
  if (!body) return undefined;
  const values: TSESTree.Node[] = [];
  let bare = false;
  const visit = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionDeclaration) return;
    if (node.type === AST_NODE_TYPES.ReturnStatement) {
      if (node.argument) values.push(node.argument);
      else bare = true;
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'parent') continue;
      if (Array.isArray(child)) for (const c of child) if (c && typeof c === 'object' && 'type' in c) visit(c as TSESTree.Node);
      if (child && typeof child === 'object' && 'type' in child && !Array.isArray(child)) visit(child as TSESTree.Node);
    }
  };
  visit(body);
  return bare ? undefined : values;
}

/** `C.instance`, `this.instance` (in a static method) or `new C()`. */
function isInstance(value: TSESTree.Node, name: string): boolean {
  const node = unwrap(value);
  if (node.type === AST_NODE_TYPES.NewExpression) return node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === name;
  if (node.type !== AST_NODE_TYPES.MemberExpression || node.computed) return false;
  const object = unwrap(node.object);
  return object.type === AST_NODE_TYPES.ThisExpression || (object.type === AST_NODE_TYPES.Identifier && object.name === name);
}

/** Whether `this` (already known not to be a member's object) is stored in the class's slot: `C.instance = this`. */
export function storedInSlot(thisNode: TSESTree.Node, singleton: Singleton): boolean {
  const parent = thisNode.parent;
  if (parent?.type !== AST_NODE_TYPES.AssignmentExpression || parent.right !== thisNode || parent.left.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = unwrap(parent.left.object);
  return object.type === AST_NODE_TYPES.Identifier && object.name === singleton.name;
}

function inside(node: TSESTree.Node, container: TSESTree.Node): boolean {
  return node.range[0] >= container.range[0] && node.range[1] <= container.range[1];
}

/**
 * Adds the calls of `member` on the instances the singleton's class variable (declared here, or
 * imported) hands out; returns the names the class is exported under, or `undefined` when a use
 * cannot be followed (see the module comment).
 * @param body the class body when `variable` is the class's own declaration (uses inside it are its own)
 */
export function singletonUses(context: AnyContext, variable: Variable, singleton: Singleton, member: string, sites: SingletonSite[], body?: TSESTree.ClassBody): string[] | undefined {
  const names: string[] = [];
  for (const reference of variable.references) {
    const id = reference.identifier as TSESTree.Node;
    if (reference.init) continue;
    const parent = id.parent;
    // an export names the value and the type at once
    if (parent?.type === AST_NODE_TYPES.ExportSpecifier) {
      names.push(parent.exported.type === AST_NODE_TYPES.Identifier ? parent.exported.name : String(parent.exported.value));
      continue;
    }
    if (parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) {
      names.push('default');
      continue;
    }
    if ((reference as { isTypeReference?: boolean }).isTypeReference || parent?.type === AST_NODE_TYPES.TSTypeReference || parent?.type === AST_NODE_TYPES.TSTypeQuery) continue;
    if (body && inside(id, body)) {
      // C.instance, new C() in the class's own body; the instance they give may call the member
      // there too (`static touch(id) { return C.getInstance().createData(id, v); }`)
      if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === id) {
        if (!ownInstanceUse(context, parent, singleton, member, sites)) return undefined;
        continue;
      }
      if (parent?.type === AST_NODE_TYPES.NewExpression && parent.callee === id) {
        if (!valueUse(context, parent, member, sites)) return undefined;
        continue;
      }
      return undefined;
    }
    if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== id || !singleton.accessors.has(propertyName(parent.property, parent.computed) ?? '')) return undefined;
    const call = parent.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== parent) return undefined;
    if (!instanceUses(context, call, member, sites)) return undefined;
  }
  return names;
}

/**
 * A use, inside the class's own body, of its accessor or of a static member (`C.getInstance()`,
 * `C.instance`; `this.getInstance()`, `this.instance` in a static member): adds the calls of
 * `member` on the instance it gives (`C.getInstance().createData(key, v)`, `C.instance!.createData(key,
 * v)`); `false` when an accessor's instance is used any other way. A static member read that is
 * not used as an instance (`if (!C.instance)`, `C.instance = new C()`, an accessor's `return
 * C.instance`) adds nothing.
 * @param access the member expression `C.x` (or `this.x`)
 */
export function ownInstanceUse(context: AnyContext, access: TSESTree.MemberExpression, singleton: Singleton, member: string, sites: SingletonSite[]): boolean {
  const name = propertyName(access.property, access.computed);
  if (name === undefined) return false;
  const call = access.parent;
  if (singleton.accessors.has(name) && call?.type === AST_NODE_TYPES.CallExpression && call.callee === access) return instanceUses(context, call, member, sites);
  return valueUse(context, access, member, sites);
}

/** A value that may be the instance (`C.instance`, `new C()`): its calls of `member` as a member's object or through a `const` are sites; other uses add nothing. */
function valueUse(context: AnyContext, value: TSESTree.Node, member: string, sites: SingletonSite[]): boolean {
  let node = value;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.TSAsExpression || node.parent.type === AST_NODE_TYPES.TSNonNullExpression || (node.parent.type === AST_NODE_TYPES.AwaitExpression && node.parent.argument === node))) node = node.parent;
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === node) return memberUse(context, parent, member, sites);
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === node) return instanceUses(context, value, member, sites);
  return true;
}

/** Adds the calls of `member` on the instance `instance` evaluates to; `false` when it is used any other way. */
function instanceUses(context: AnyContext, instance: TSESTree.Node, member: string, sites: SingletonSite[]): boolean {
  let node = instance;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.TSAsExpression || node.parent.type === AST_NODE_TYPES.TSNonNullExpression || (node.parent.type === AST_NODE_TYPES.AwaitExpression && node.parent.argument === node))) node = node.parent;
  const parent = node.parent;
  // `C.getInstance();` made for its side effects (connecting at start-up): no call of any member
  if (parent?.type === AST_NODE_TYPES.ExpressionStatement) return true;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === node) return memberUse(context, parent, member, sites);
  // held in a `const` of the module (not exported: `export const manager = C.getInstance()` hands
  // it to modules whose calls are not read here)
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === node && parent.id.type === AST_NODE_TYPES.Identifier && parent.parent?.type === AST_NODE_TYPES.VariableDeclaration && parent.parent.kind === 'const') {
    if (parent.parent.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration) return false;
    const variable = context.sourceCode.scopeManager?.getDeclaredVariables(parent)[0];
    if (!variable) return false;
    for (const reference of variable.references) {
      if (reference.init) continue;
      const id = reference.identifier as TSESTree.Node;
      if (id.parent?.type !== AST_NODE_TYPES.MemberExpression || id.parent.object !== id) return false;
      if (!memberUse(context, id.parent, member, sites)) return false;
    }
    return true;
  }
  return false;
}

/** `instance.name`: a call of `member` is a site; another named member says nothing; a computed one may be any. */
function memberUse(context: AnyContext, access: TSESTree.MemberExpression, member: string, sites: SingletonSite[]): boolean {
  const name = propertyName(access.property, access.computed);
  if (name === undefined) return false;
  if (name !== member) return true;
  const call = access.parent?.type === AST_NODE_TYPES.ChainExpression ? access.parent.parent : access.parent;
  const callee = access.parent?.type === AST_NODE_TYPES.ChainExpression ? access.parent : access;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== callee) return false;
  sites.push({ call, context });
  return true;
}
