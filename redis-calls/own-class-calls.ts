/**
 * The calls of a method that only its own class calls, read for `own-method-calls.ts` (whose module
 * comment says what counts: `this.name(...)` in a method of its class; elsewhere only as a method of
 * a class of its own or an interface's signature) and for `uncalled.ts` (a method whose only
 * callers are uncalled methods of its class; there another class's method of the same name counts as
 * a use, as the tuning set's maintainers judged such writes by what they do). Apart from `own-method-calls.ts` so that
 * `uncalled.ts`, which that module reads the application root from, can import it without a cycle.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { visitorKeys as typescriptVisitorKeys } from '@typescript-eslint/visitor-keys';
import { moduleText, parsedModule } from './parsed-modules.js';
import { packageFiles } from './project.js';
import { testOnlyModule } from './test-paths.js';
import { propertyName, unwrap, type AnyContext } from './static.js';

type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;
type Keys = Readonly<Record<string, readonly string[] | undefined>>;

const classCallCache = new WeakMap<TSESTree.Node, readonly TSESTree.CallExpression[] | null>();

/**
 * The `this.name(...)` calls of the method whose function is `fn` when they are all of its calls
 * and no other class declares or calls a method of that name (see the module comment), none at all included (`uncalled.ts`: a method whose only callers are
 * methods nothing calls never runs either), else `undefined`.
 * @param context the rule context of the file `fn` is written in
 * @param root the root of the application `fn`'s file belongs to (`uncalled.ts` applicationRoot)
 */
export function ownClassCalls(context: AnyContext, fn: TSESTree.Node, root: string): readonly TSESTree.CallExpression[] | undefined {
  let found = classCallCache.get(fn);
  if (found === undefined) {
    found = collectOwnCalls(context, fn, root, true) ?? null;
    classCallCache.set(fn, found);
  }
  return found ?? undefined;
}

/**
 * The `this.name(...)` calls of the method whose function is `fn` (a method of a class of the
 * application at `root`) when they are all of its calls (`own-method-calls.ts`' module comment);
 * with `none`, an empty list when nothing calls it at all, and the strings of its own body left
 * unread; else `undefined`.
 */
export function collectOwnCalls(context: AnyContext, fn: TSESTree.Node, root: string, none = false): TSESTree.CallExpression[] | undefined {
  const method = fn.parent;
  if (fn.type !== AST_NODE_TYPES.FunctionExpression || method?.type !== AST_NODE_TYPES.MethodDefinition || method.value !== fn) return undefined;
  if (method.kind !== 'method' || method.static || method.computed || method.key.type !== AST_NODE_TYPES.Identifier) return undefined;
  const cls = method.parent.parent;
  if (cls?.type !== AST_NODE_TYPES.ClassDeclaration && cls?.type !== AST_NODE_TYPES.ClassExpression) return undefined;
  const name = method.key.name;
  const file = context.physicalFilename ?? context.filename;
  if (!file) return undefined;
  const calls: TSESTree.CallExpression[] = [];
  // for ownClassCalls, a string of the method's own body (`Error in Cache.decrement()`) names it only while it runs
  if (!onlyOwnCallsBounded(context.sourceCode.ast, context.sourceCode.visitorKeys, name, cls, calls, none ? fn : undefined, !none) || (calls.length === 0 && !none)) return undefined;
  const files = packageFiles(root);
  if (!files) return undefined;
  const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
  for (const path of files) {
    // a test module no production code imports (a production folder named like tests still counts)
    if (path === file || testOnlyModule(root, path)) continue;
    const text = moduleText(path);
    if (text === undefined || !word.test(text)) continue;
    const parsed = parsedModule(path);
    if (typeof parsed === 'string' || !onlyOwnCallsBounded(parsed.program, typescriptVisitorKeys, name, undefined, [], undefined, !none)) return undefined;
  }
  return calls;
}

/**
 * {@link onlyOwnCalls}, answering `false` (no reading) when the tree is nested too deep for its
 * recursive walk (a generated file, a long `+` chain): a lint never stops on a `RangeError`.
 */
function onlyOwnCallsBounded(program: TSESTree.Node, keys: Keys, name: string, target: ClassNode | undefined, calls: TSESTree.CallExpression[], own?: TSESTree.Node, namesakes = true): boolean {
  try {
    return onlyOwnCalls(program, keys, name, target, calls, own, namesakes);
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/**
 * Whether `name` is written in `program` only as a method key and as `this.name(...)` in a class
 * declaring a method `name`; the calls made in `target` (the class of the method read) are added
 * to `calls`, and `this[expr]` in `target` answers `false`. Strings and templates inside `own` (the
 * method's own function) are not read. Without `namesakes`, a method of that name of any other class
 * (declared, or called through its `this`) answers `false` too.
 */
function onlyOwnCalls(program: TSESTree.Node, keys: Keys, name: string, target: ClassNode | undefined, calls: TSESTree.CallExpression[], own?: TSESTree.Node, namesakes = true): boolean {
  const inOwn = (node: TSESTree.Node) => own !== undefined && own.range[0] <= node.range[0] && node.range[1] <= own.range[1];
  let ok = true;
  let visited = 0;
  const visit = (node: TSESTree.Node, self: ClassNode | undefined): void => {
    if (!ok) return;
    if (++visited > 200_000) {
      ok = false;
      return;
    }
    switch (node.type) {
      case AST_NODE_TYPES.ClassDeclaration:
      case AST_NODE_TYPES.ClassExpression:
        if (node.id) visit(node.id, self);
        if (node.superClass) visit(node.superClass, self);
        if (!namesakes && node !== target && declares(node, name)) ok = false;
        for (const member of node.body.body) {
          const isStatic = 'static' in member && member.static;
          const inner = isStatic ? undefined : node;
          if ((member.type === AST_NODE_TYPES.MethodDefinition || member.type === AST_NODE_TYPES.PropertyDefinition) && !member.computed) {
            // the member's own key is its definition, not a use; a field of that name is no method
            if (member.type === AST_NODE_TYPES.PropertyDefinition && propertyName(member.key, false) === name) ok = false;
            // a method's (or a function field's) `this` is an instance of the class, as an arrow field's
            const value = member.value;
            if (value?.type === AST_NODE_TYPES.FunctionExpression) visitChildren(value, inner);
            else if (value) visit(value, inner);
          } else visitChildren(member, inner);
        }
        return;
      case AST_NODE_TYPES.FunctionDeclaration:
      case AST_NODE_TYPES.FunctionExpression:
        // a function of its own binds `this` (a class member's function is entered with its class)
        visitChildren(node, undefined);
        return;
      case AST_NODE_TYPES.CallExpression: {
        const callee = unwrap(node.callee);
        if (callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && unwrap(callee.object).type === AST_NODE_TYPES.ThisExpression && propertyName(callee.property, false) === name) {
          if (!self || !declares(self, name) || (!namesakes && self !== target)) ok = false;
          else if (self === target) calls.push(node);
          for (const argument of node.arguments) visit(argument, self);
          return;
        }
        break;
      }
      case AST_NODE_TYPES.TSMethodSignature:
      case AST_NODE_TYPES.TSPropertySignature:
        // an interface's or type's signature of that name declares it, and calls nothing
        if (!node.computed && propertyName(node.key, false) === name) return;
        break;
      case AST_NODE_TYPES.MemberExpression:
        if (node.computed && target && self === target && unwrap(node.object).type === AST_NODE_TYPES.ThisExpression) ok = false;
        break;
      case AST_NODE_TYPES.Identifier:
      case AST_NODE_TYPES.PrivateIdentifier:
        if (node.name === name) ok = false;
        return;
      case AST_NODE_TYPES.Literal:
        if (typeof node.value === 'string' && hasWord(node.value, name) && !inOwn(node)) ok = false;
        return;
      case AST_NODE_TYPES.TemplateElement:
        if (hasWord(node.value.raw, name) && !inOwn(node)) ok = false;
        return;
      default:
        break;
    }
    visitChildren(node, self);
  };
  const visitChildren = (node: TSESTree.Node, self: ClassNode | undefined): void => {
    for (const key of keys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item, self);
      } else if (isNode(value)) visit(value, self);
    }
  };
  visit(program, undefined);
  return ok;
}

/** Whether a class declares an instance method `name` of its own. */
function declares(cls: ClassNode, name: string): boolean {
  return cls.body.body.some((member) => member.type === AST_NODE_TYPES.MethodDefinition && !member.static && !member.computed && propertyName(member.key, false) === name);
}

function hasWord(text: string, name: string): boolean {
  const words: readonly string[] = text.match(/[\w$]+/g) ?? [];
  return words.includes(name);
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
