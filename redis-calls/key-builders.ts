/**
 * Key builders `redis-calls/key-shape.ts` reads a key's text from: which function values it
 * evaluates ({@link asFunction}: one returned expression, or a body whose every return writes
 * text), and the class an object is an instance of, whose methods build keys
 * (`this.keys.buildSplitKey(name)` of `this.keys = new KeyBuilder(prefix)`, the class here or
 * imported, its methods own or inherited; or of `this.keys = keys` when every `new` of the class
 * passes an instance of one key-builder class there: {@link passedInstanceClass}).
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { instanceMember } from './bounded.js';
import { constructorArgumentSites } from './constructor-arguments.js';
import type { ClassNode } from './class-statics.js';
import { assignedOnce } from './containers.js';
import { importedBinding, loadModule, locateExport, moduleContext, namespaceModule, type ExportSite, type ImportedModule } from './modules.js';
import { textMethodCall } from './finite-members.js';
import { findVariable, propertyName, unwrap, type AnyContext, type FunctionLike } from './static.js';

/** How deep classes are followed (imports, base classes). */
const MAX_DEPTH = 8;

/**
 * `null`, `undefined` or `''`: an arm of a conditional that gives no key; so is an empty object
 * literal, the fallback of an options object (`settings || {}`), whose members are then the
 * configuration's own.
 */
export function isNoKey(node: TSESTree.Node): boolean {
  const arm = unwrap(node);
  if (arm.type === AST_NODE_TYPES.Literal) return arm.value === null || arm.value === '';
  if (arm.type === AST_NODE_TYPES.ObjectExpression) return arm.properties.length === 0;
  return arm.type === AST_NODE_TYPES.Identifier && arm.name === 'undefined';
}

/** A string whose `concat` joins text: a string literal or template, or such a `concat` call (`"".concat(a).concat(b)`). */
export function isStringConcatenation(input: TSESTree.Node): boolean {
  const node = unwrap(input);
  if (node.type === AST_NODE_TYPES.Literal) return typeof node.value === 'string';
  if (node.type === AST_NODE_TYPES.TemplateLiteral) return true;
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(node.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && propertyName(callee.property, callee.computed) === 'concat' && isStringConcatenation(callee.object);
}

/**
 * A function value that is a key builder `key-shape.ts` reads in another module: its body is one
 * expression or one `return` (`(id) => `user:${id}``, `function k(v) { return PREFIX + v; }`).
 * A longer body counts when every return writes text (a template, a literal, a concatenation:
 * `if (!id) throw ...; return `t:${id}``; a `return ''` for invalid input left out); one that
 * returns anything else (a hash, a local computed from calls) is a library function whose parts
 * say little about the key: it stays a call the linter cannot read.
 */
export function asFunction(node: TSESTree.Node | undefined): FunctionLike | undefined {
  const fn = node ? unwrap(node) : undefined;
  if (!fn || (fn.type !== AST_NODE_TYPES.FunctionDeclaration && fn.type !== AST_NODE_TYPES.FunctionExpression && fn.type !== AST_NODE_TYPES.ArrowFunctionExpression) || !fn.body) {
    return undefined;
  }
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return fn;
  if (fn.body.body.length === 1 && fn.body.body[0]!.type === AST_NODE_TYPES.ReturnStatement) return fn;
  // a longer body whose every return writes the key's text (`if (!id) throw ...; return `t:${id}``)
  const returned = returnExpressions(fn).filter((expression) => !isNoKey(expression));
  if (returned.length === 0 || !returned.every(isKeyText)) return undefined;
  // text of locals computed by calls (`const ns = checkSegment(parts.namespace)`, a hash of the
  // identity) is the library's, not the caller's: its parts would name the locals, not the key
  const computed = localsComputedByCalls(fn.body);
  return returned.some((expression) => namesAny(expression, computed)) ? undefined : fn;
}

/** The children of a node (every property holding nodes, `parent` left out). */
function childrenOf(node: TSESTree.Node): TSESTree.Node[] {
  const out: TSESTree.Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent' || value === null || typeof value !== 'object') continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item && typeof item === 'object' && typeof (item as { type?: unknown }).type === 'string') out.push(item as TSESTree.Node);
    }
  }
  return out;
}

/** Whether a node holds a call (`f()`, `new C()`, `await x`), nested functions left out. */
function holdsCall(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression || node.type === AST_NODE_TYPES.AwaitExpression) return true;
  if (node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression) return false;
  return childrenOf(node).some(holdsCall);
}

/** The names of the locals a function body declares with a value computed by a call (nested functions left out). */
function localsComputedByCalls(body: TSESTree.Node): Set<string> {
  const names = new Set<string>();
  const visit = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.ArrowFunctionExpression) return;
    // `const prefix = process.env.REDIS_KEY_PREFIX?.trim() || 'app'`: configuration, not data a call computes
    if (node.type === AST_NODE_TYPES.VariableDeclarator && node.id.type === AST_NODE_TYPES.Identifier && node.init && holdsCall(node.init) && !isConfiguredWithDefault(node.init)) {
      names.add(node.id.name);
    }
    childrenOf(node).forEach(visit);
  };
  visit(body);
  return names;
}

/**
 * A setting read from the environment with a literal default the code writes: `process.env.X ??
 * 'app'`, `process.env.X || 'app'`, the read normalised by argument-less text methods first
 * (`process.env.REDIS_KEY_PREFIX?.trim() || 'rhex'`, Myyiso/Rhex's `createRedisKey`). One value per
 * deployment, spelled by its default (`redis-calls/key-shape.ts` reads `a ?? 'lit'` of a fixed `a`
 * whose text is unknown as `'lit'`): a key builder's local holding it is no text a call computes
 * from the key's data. Syntactic (`process` is not checked to be the global: a builder of another
 * module is read without its scope here).
 */
function isConfiguredWithDefault(input: TSESTree.Node): boolean {
  const node = unwrap(input);
  if (node.type !== AST_NODE_TYPES.LogicalExpression || node.operator === '&&') return false;
  const fallback = unwrap(node.right);
  if (fallback.type !== AST_NODE_TYPES.Literal || typeof fallback.value !== 'string' || fallback.value === '') return false;
  let read = unwrap(node.left);
  // process.env.X?.trim().toLowerCase(): each argument-less text method, down to the read
  for (let call = read; call.type === AST_NODE_TYPES.CallExpression; call = read) {
    const method = textMethodCall(unwrap(call.callee), call);
    if (!method) return false;
    read = unwrap(method.receiver);
  }
  if (read.type !== AST_NODE_TYPES.MemberExpression) return false;
  const env = unwrap(read.object);
  if (env.type !== AST_NODE_TYPES.MemberExpression || propertyName(env.property, env.computed) !== 'env') return false;
  const process = unwrap(env.object);
  return process.type === AST_NODE_TYPES.Identifier && process.name === 'process';
}

/** Whether an expression reads an identifier of `names` (property keys left out). */
function namesAny(node: TSESTree.Node, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false;
  if (node.type === AST_NODE_TYPES.Identifier) return names.has(node.name);
  if (node.type === AST_NODE_TYPES.MemberExpression && !node.computed) return namesAny(node.object, names);
  return childrenOf(node).some((child) => namesAny(child, names));
}

/** An expression that spells text: a string literal, a template, a `+` concatenation or a string's `concat`. */
export function isKeyText(input: TSESTree.Node): boolean {
  const node = unwrap(input);
  return (
    node.type === AST_NODE_TYPES.TemplateLiteral ||
    (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') ||
    (node.type === AST_NODE_TYPES.BinaryExpression && node.operator === '+') ||
    isStringConcatenation(node) ||
    isJoinedArrayLiteral(node)
  );
}

/** `[prefix, ...parts].join(':')`: an array literal joined, each element's text in order (`redis-calls/key-shape.ts`). */
function isJoinedArrayLiteral(node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(node.callee);
  return (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    propertyName(callee.property, callee.computed) === 'join' &&
    unwrap(callee.object).type === AST_NODE_TYPES.ArrayExpression
  );
}

/** The class a name stands for: `class Store {}`, or `var Store = class {}` assigned once (bundlers). */
export function classOf(variable: TSESLint.Scope.Variable, def: TSESLint.Scope.Definition): ClassNode | undefined {
  if (def.type === 'ClassName') return def.node as ClassNode;
  if (def.type !== 'Variable' || !def.node.init || def.node.id.type !== AST_NODE_TYPES.Identifier || !assignedOnce(variable, def.node.id)) return undefined;
  const init = unwrap(def.node.init);
  return init.type === AST_NODE_TYPES.ClassExpression ? init : undefined;
}

/**
 * The class an object is an instance of, with the context it is written in: a `const` (or a
 * member fixed once per instance, `this.keys`) whose every value is `new C(...)` of one class C of
 * this module or imported from another module of the repository (`import { KeyBuilder } from
 * './keys'`, a default import too), or a constructor parameter declared with such a class
 * (`constructor(private readonly keys: KeyBuilder)`).
 */
export function instanceClass(context: AnyContext, input: TSESTree.Node, depth: number): { cls: ClassNode; context: AnyContext } | undefined {
  const node = unwrap(input);
  let values: TSESTree.Node[];
  if (node.type === AST_NODE_TYPES.MemberExpression && unwrap(node.object).type === AST_NODE_TYPES.ThisExpression) {
    values = instanceMember(node)?.values ?? [];
  } else if (node.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context, node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || !def.node.init || def.node.id.type !== AST_NODE_TYPES.Identifier || !assignedOnce(variable!, def.node.id)) return undefined;
    values = [def.node.init];
  } else {
    return undefined;
  }
  let found: { cls: ClassNode; context: AnyContext } | undefined;
  for (const value of values) {
    const made = unwrap(value);
    // constructor(private readonly keys: KeyBuilder): the class its declared type names
    const param = made.type === AST_NODE_TYPES.Identifier ? findVariable(context, made)?.defs.find((d) => d.type === 'Parameter')?.name : undefined;
    const declared = param?.type === AST_NODE_TYPES.Identifier ? declaredClass(param) : undefined;
    // constructor(rpc, redis, redisKeys) { this.keys = redisKeys }: what every `new` passes there
    if (!declared && param && node.type === AST_NODE_TYPES.MemberExpression) {
      const passed = passedInstanceClass(context, node, depth);
      if (!passed || (found && found.cls !== passed.cls)) return undefined;
      found = passed;
      continue;
    }
    if (!declared && (made.type !== AST_NODE_TYPES.NewExpression || made.callee.type !== AST_NODE_TYPES.Identifier)) return undefined;
    const cls =
      declared?.type === AST_NODE_TYPES.TSQualifiedName
        ? qualifiedClass(context, declared, depth)
        : classNamed(context, declared ?? ((made as TSESTree.NewExpression).callee as TSESTree.Identifier), depth);
    if (!cls || (found && found.cls !== cls.cls)) return undefined;
    found = cls;
  }
  return found;
}

/**
 * The class of the instance a member holds when the constructor stores a parameter of its own whole
 * (`this.keys = redisKeys`, no declared type: JavaScript) and every `new` of the class the code
 * can see (`redis-calls/constructor-arguments.ts`: its own file and, in an application, the modules
 * of its package that import it) passes there `new C(...)` of one class C, written at the site or
 * held in a `const` of the site's module (`const redisKeys = new RedisKeys(prefix)`), C declared
 * there or imported (`import`, a default import, or `const C = require('./c')` of a module whose
 * `module.exports` is the class). `undefined` when a site passes anything else, two sites pass
 * instances of two classes, or the sites cannot all be read.
 */
function passedInstanceClass(context: AnyContext, member: TSESTree.MemberExpression, depth: number): { cls: ClassNode; context: AnyContext } | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const sites = constructorArgumentSites(context, member);
  if (!sites || sites.length === 0) return undefined;
  let found: { cls: ClassNode; context: AnyContext } | undefined;
  for (const site of sites) {
    const where = site.module ? moduleContext(context, site.module) : context;
    const cls = constructedClass(where, site.node, depth + 1);
    if (!cls || (found && found.cls !== cls.cls)) return undefined;
    found = cls;
  }
  return found;
}

/** The class of `new C(...)`, written as the node or as the initializer of the `const` it names (assigned once). */
function constructedClass(context: AnyContext, input: TSESTree.Node, depth: number): { cls: ClassNode; context: AnyContext } | undefined {
  let made = unwrap(input);
  if (made.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context, made);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || !def.node.init || def.node.id.type !== AST_NODE_TYPES.Identifier || !assignedOnce(variable!, def.node.id)) return undefined;
    made = unwrap(def.node.init);
  }
  if (made.type !== AST_NODE_TYPES.NewExpression || made.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  return classNamed(context, made.callee, depth);
}

/**
 * The name of the type a constructor parameter is declared with, when it is one name (`keys:
 * KeyBuilder`) or a name of a namespace (`storage: OB.OrderbookStorage`).
 */
function declaredClass(param: TSESTree.Identifier): TSESTree.Identifier | TSESTree.TSQualifiedName | undefined {
  const owner = param.parent?.type === AST_NODE_TYPES.TSParameterProperty ? param.parent.parent : param.parent;
  if (owner?.type !== AST_NODE_TYPES.FunctionExpression || owner.parent?.type !== AST_NODE_TYPES.MethodDefinition || owner.parent.kind !== 'constructor') return undefined;
  const type = param.typeAnnotation?.typeAnnotation;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference || type.typeArguments) return undefined;
  const name = type.typeName;
  if (name.type === AST_NODE_TYPES.Identifier) return name;
  return name.type === AST_NODE_TYPES.TSQualifiedName && name.left.type === AST_NODE_TYPES.Identifier ? name : undefined;
}

/**
 * The class a namespace-qualified type names (`OB.OrderbookStorage` of `import * as OB from
 * './orderbook'`, or of `import { OrderbookV1 as OB }` re-exported `export * as OrderbookV1 from
 * './v1'`), exported by a module of the repository, with the context it is written in.
 */
function qualifiedClass(context: AnyContext, name: TSESTree.TSQualifiedName, depth: number): { cls: ClassNode; context: AnyContext } | undefined {
  if (name.left.type !== AST_NODE_TYPES.Identifier || depth > MAX_DEPTH) return undefined;
  const namespace = namespaceModule(context, name.left);
  const site = namespace ? locateExport(namespace, name.right.name) : undefined;
  return site ? classAt(context, site) : undefined;
}

/** The class a name stands for, here or imported from another module of the repository. */
export function classNamed(context: AnyContext, id: TSESTree.Identifier, depth: number): { cls: ClassNode; context: AnyContext } | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const variable = findVariable(context, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return undefined;
  const local = classOf(variable!, def);
  if (local) return { cls: local, context };
  let site: ExportSite | undefined;
  if (def.type === 'ImportBinding' && def.node.type === AST_NODE_TYPES.ImportDefaultSpecifier && def.parent?.type === AST_NODE_TYPES.ImportDeclaration) {
    const module = loadModule(context, def.parent.source.value, { packages: true });
    site = module ? locateExport(module, 'default') : undefined;
  } else if (def.type === 'ImportBinding' || (def.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.ObjectPattern)) {
    const imported = importedBinding(context, id);
    site = imported ? locateExport(imported.module, imported.name) : undefined;
  } else if (def.type === 'Variable' && def.node.init && def.node.id.type === AST_NODE_TYPES.Identifier && assignedOnce(variable!, def.node.id)) {
    // const RedisKeys = require('./utils/redisKeys') of a module ending `module.exports = RedisKeys`
    const module = requiredModule(context, def.node.init);
    site = module ? locateExport(module, 'default') : undefined;
  }
  return site ? classAt(context, site) : undefined;
}

/** The module of the repository `require('<specifier>')` loads (relative, alias or workspace package). */
function requiredModule(context: AnyContext, init: TSESTree.Node): ImportedModule | undefined {
  const call = unwrap(init);
  if (call.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.Identifier || call.callee.name !== 'require') return undefined;
  const specifier = call.arguments[0];
  if (specifier?.type !== AST_NODE_TYPES.Literal || typeof specifier.value !== 'string') return undefined;
  // `require` is the module system's, not a binding of the file
  if ((findVariable(context, call.callee)?.defs.length ?? 0) > 0) return undefined;
  return loadModule(context, specifier.value, { packages: true });
}

/** The class an export site declares (`export class C`, `export { C }` of a class, `export default class`), read in its module. */
function classAt(context: AnyContext, site: ExportSite): { cls: ClassNode; context: AnyContext } | undefined {
  const expression = site.expression ? unwrap(site.expression) : undefined;
  if (expression?.type === AST_NODE_TYPES.ClassDeclaration || expression?.type === AST_NODE_TYPES.ClassExpression) return { cls: expression, context: moduleContext(context, site.module) };
  const there = moduleContext(context, site.module);
  for (const statement of site.module.program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration ? statement.declaration : statement;
    if (declaration?.type === AST_NODE_TYPES.ClassDeclaration && declaration.id?.name === site.local) return { cls: declaration, context: there };
    if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of declaration.declarations) {
      const init = declarator.init ? unwrap(declarator.init) : undefined;
      if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === site.local && init?.type === AST_NODE_TYPES.ClassExpression) return { cls: init, context: there };
    }
  }
  return undefined;
}

/**
 * The key builder an instance method of a class is (a method, or an arrow-function field), its own
 * or inherited (`extends`, the base class here or imported), when its body returns text
 * ({@link asFunction}).
 */
export function classMethod(context: AnyContext, cls: ClassNode, name: string, depth: number): { fn: FunctionLike; declaration: TSESTree.Node; context: AnyContext } | undefined {
  for (const element of cls.body.body) {
    if ((element.type !== AST_NODE_TYPES.MethodDefinition && element.type !== AST_NODE_TYPES.PropertyDefinition) || element.static || propertyName(element.key, element.computed) !== name) continue;
    if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind !== 'method') return undefined;
    const fn = element.value ? asFunction(element.value) : undefined;
    return fn ? { fn, declaration: element, context } : undefined;
  }
  const base = cls.superClass ? unwrap(cls.superClass) : undefined;
  if (base?.type !== AST_NODE_TYPES.Identifier || depth > MAX_DEPTH) return undefined;
  const parent = classNamed(context, base, depth + 1);
  return parent ? classMethod(parent.context, parent.cls, name, depth + 1) : undefined;
}

/**
 * The values of the member `name` of the object literals a key builder returns, for a key read as
 * a member of the builder's result (`R.space(id).devices` of `space: (id) => ({ devices:
 * \`space-${id}-devices\`, files: ... })`); `undefined` when a return is not an object literal
 * holding that member as a plain property (a spread, a computed or missing name: the key is then
 * not spelled).
 */
export function returnedMemberValues(returned: readonly TSESTree.Node[], name: string): TSESTree.Node[] | undefined {
  const values: TSESTree.Node[] = [];
  for (const expression of returned) {
    const object = unwrap(expression);
    if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const property = object.properties.find((p) => p.type === AST_NODE_TYPES.Property && !p.computed && propertyName(p.key) === name) as TSESTree.Property | undefined;
    if (!property || object.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement) || property.kind !== 'init') return undefined;
    values.push(property.value);
  }
  return values.length > 0 ? values : undefined;
}

/** The expressions a function returns: its expression body, or its own `return` statements. */
export function returnExpressions(fn: FunctionLike): TSESTree.Node[] {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return [fn.body];
  const out: TSESTree.Node[] = [];
  const visit = (statement: TSESTree.Node): void => {
    switch (statement.type) {
      case AST_NODE_TYPES.ReturnStatement:
        if (statement.argument) out.push(statement.argument);
        return;
      case AST_NODE_TYPES.BlockStatement:
        statement.body.forEach(visit);
        return;
      case AST_NODE_TYPES.IfStatement:
        visit(statement.consequent);
        if (statement.alternate) visit(statement.alternate);
        return;
      case AST_NODE_TYPES.TryStatement:
        visit(statement.block);
        if (statement.handler) visit(statement.handler.body);
        if (statement.finalizer) visit(statement.finalizer);
        return;
      case AST_NODE_TYPES.SwitchStatement:
        for (const branch of statement.cases) branch.consequent.forEach(visit);
        return;
      default:
        return;
    }
  };
  fn.body.body.forEach(visit);
  return out;
}
