/**
 * A read of a key through a helper: a same-file function or method the code awaits, whose body
 * reads the key the caller means (`const a = await this.getActive(chatId)`, with `getActive(chatId)
 * { const data = await redis.hgetall(\`action:${chatId}\`); ... }`). This module finds the helper a
 * call names and tells whether a key the helper reads is the caller's key, its parameters standing
 * for the call's arguments. What the helper returns when the key is missing is stale-read.ts's
 * (`seenGuard`).
 *
 * What counts, conservatively:
 * - the callee: `this.name(...)` in a method (or an arrow function in one) of a class that declares
 *   an `async` method (or arrow property) `name` with a body; or a plain name bound to an `async`
 *   function declaration or a `const` arrow / function expression of the file. An imported helper,
 *   a method of another object, a function handed in as a value: no helper;
 * - the key: the helper's key expression and the caller's, each read through its `const`s, are the
 *   same expression: the same literal pieces, and run-time pieces that are the same variable, the
 *   same member of `this` (only for `this.name(...)`: one instance), the same call of the same builder,
 *   or, for a parameter of the helper (never reassigned in it), the argument the call passes in its
 *   place. Another shape, another argument, another object: another key.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { constInitializer, findVariable, propertyName, unwrap, walk, type AnyContext, type FunctionLike } from './static.js';

/** A helper a call names: its function, and whether `this` in it is the caller's `this`. */
export interface Helper {
  fn: FunctionLike;
  sameThis: boolean;
}

/** The same-file `async` function or method `call` names (see the module comment); `undefined` otherwise. */
export function helperOf(context: AnyContext, call: TSESTree.CallExpression): Helper | undefined {
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression && unwrap(callee.object).type === AST_NODE_TYPES.ThisExpression) {
    const name = propertyName(callee.property, callee.computed);
    const body = classBodyOfThis(call);
    if (!name || !body || overriddenInFile(context, body, name)) return undefined;
    for (const member of body.body) {
      if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'method' && !member.static && propertyName(member.key, member.computed) === name) {
        return member.value.async && member.value.body ? { fn: member.value, sameThis: true } : undefined;
      }
      if (member.type === AST_NODE_TYPES.PropertyDefinition && !member.static && propertyName(member.key, member.computed) === name) {
        const value = member.value && unwrap(member.value);
        return value?.type === AST_NODE_TYPES.ArrowFunctionExpression && value.async ? { fn: value, sameThis: true } : undefined;
      }
    }
    return undefined;
  }
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context, callee);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type === 'FunctionName' && def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node.async && def.node.body ? { fn: def.node, sameThis: false } : undefined;
  const init = callee && constInitializer(context, callee);
  const value = init && unwrap(init);
  if (value && (value.type === AST_NODE_TYPES.ArrowFunctionExpression || value.type === AST_NODE_TYPES.FunctionExpression) && value.async) return { fn: value, sameThis: false };
  return undefined;
}

/**
 * Whether a class of the file that extends the class of `body` (by its name, any depth) declares
 * a member `name`: `this.name(...)` then runs the subclass's, which may read nothing (an
 * in-memory override of a Redis read).
 */
function overriddenInFile(context: AnyContext, body: TSESTree.ClassBody, name: string): boolean {
  const names = new Set<string>();
  const own = body.parent.id?.name ?? (body.parent.parent?.type === AST_NODE_TYPES.VariableDeclarator && body.parent.parent.id.type === AST_NODE_TYPES.Identifier ? body.parent.parent.id.name : undefined);
  if (own === undefined) return false;
  names.add(own);
  const classes = classesOf(context);
  for (let grew = true; grew; ) {
    grew = false;
    for (const cls of classes) {
      const parent = cls.superClass && unwrap(cls.superClass);
      if (!cls.id || names.has(cls.id.name) || parent?.type !== AST_NODE_TYPES.Identifier || !names.has(parent.name)) continue;
      names.add(cls.id.name);
      grew = true;
      if (cls.body.body.some((member) => (member.type === AST_NODE_TYPES.MethodDefinition || member.type === AST_NODE_TYPES.PropertyDefinition) && propertyName(member.key, member.computed) === name)) return true;
    }
  }
  return false;
}

/** The class declarations of the linted file, found once per file. */
const CLASSES = new WeakMap<TSESTree.Program, TSESTree.ClassDeclaration[]>();
function classesOf(context: AnyContext): TSESTree.ClassDeclaration[] {
  const program = context.sourceCode.ast;
  let classes = CLASSES.get(program);
  if (!classes) {
    const found: TSESTree.ClassDeclaration[] = [];
    walk(context, program, (node) => {
      if (node.type === AST_NODE_TYPES.ClassDeclaration) found.push(node);
      return undefined;
    });
    CLASSES.set(program, (classes = found));
  }
  return classes;
}

/** The class body whose instance `this` is at `node`: through arrow functions, up to the first method. */
function classBodyOfThis(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
    if (current.type === AST_NODE_TYPES.FunctionExpression) {
      const owner = current.parent;
      return owner?.type === AST_NODE_TYPES.MethodDefinition && owner.parent.type === AST_NODE_TYPES.ClassBody ? owner.parent : undefined;
    }
    if (current.type === AST_NODE_TYPES.PropertyDefinition && current.parent.type === AST_NODE_TYPES.ClassBody) return current.parent;
  }
  return undefined;
}

/**
 * Whether the key expression `inHelper` (in the helper's body) names, for the call `call`, the key
 * `inCaller` names in the caller (see the module comment).
 */
export function sameKeyThroughCall(context: AnyContext, helper: Helper, call: TSESTree.CallExpression, inHelper: TSESTree.Node, inCaller: TSESTree.Node): boolean {
  return same(context, { helper, call }, inHelper, inCaller, 0);
}

/** Which side a node is read on: in the helper (its parameters are the call's arguments), or in the caller. */
interface Side {
  helper: Helper;
  call: TSESTree.CallExpression;
}

function same(context: AnyContext, side: Side | undefined, a: TSESTree.Node, b: TSESTree.Node, depth: number): boolean {
  if (depth > 12) return false;
  const x = unwrap(a);
  const y = unwrap(b);
  const next = (p: TSESTree.Node, q: TSESTree.Node, s = side) => same(context, s, p, q, depth + 1);
  if (x.type === AST_NODE_TYPES.Identifier) {
    if (side) {
      const index = parameterIndex(context, side.helper.fn, x);
      if (index === 'reassigned') return false;
      if (index !== undefined) {
        const argument = side.call.arguments[index];
        return argument !== undefined && argument.type !== AST_NODE_TYPES.SpreadElement && next(argument, y, undefined);
      }
    }
    // one variable (a module's key builder, a `const` of the caller's)
    const variable = findVariable(context, x);
    if (variable && y.type === AST_NODE_TYPES.Identifier && variable === findVariable(context, y)) return true;
    const init = constInitializer(context, x);
    if (init) return next(init, y);
  }
  if (y.type === AST_NODE_TYPES.Identifier) {
    const init = constInitializer(context, y);
    if (init) return next(x, init);
  }
  if (x.type !== y.type) return false;
  switch (x.type) {
    case AST_NODE_TYPES.Identifier: {
      const v = findVariable(context, x);
      return v !== null && v === findVariable(context, y as TSESTree.Identifier);
    }
    case AST_NODE_TYPES.Literal:
      return x.value === (y as TSESTree.Literal).value;
    case AST_NODE_TYPES.ThisExpression:
      return !side || side.helper.sameThis;
    case AST_NODE_TYPES.TemplateLiteral: {
      const t = y as TSESTree.TemplateLiteral;
      return (
        x.quasis.length === t.quasis.length &&
        x.quasis.every((q, i) => q.value.cooked === t.quasis[i]!.value.cooked) &&
        x.expressions.every((e, i) => next(e, t.expressions[i]!))
      );
    }
    case AST_NODE_TYPES.BinaryExpression: {
      const t = y as TSESTree.BinaryExpression;
      return x.operator === '+' && t.operator === '+' && next(x.left, t.left) && next(x.right, t.right);
    }
    case AST_NODE_TYPES.MemberExpression: {
      const t = y as TSESTree.MemberExpression;
      if (x.computed !== t.computed) return false;
      const property = x.computed ? next(x.property, t.property) : propertyName(x.property) !== undefined && propertyName(x.property) === propertyName(t.property);
      return property && next(x.object, t.object);
    }
    case AST_NODE_TYPES.CallExpression: {
      const t = y as TSESTree.CallExpression;
      return (
        x.arguments.length === t.arguments.length &&
        next(x.callee, t.callee) &&
        x.arguments.every((e, i) => e.type !== AST_NODE_TYPES.SpreadElement && t.arguments[i]!.type !== AST_NODE_TYPES.SpreadElement && next(e, t.arguments[i]!))
      );
    }
    default:
      return false;
  }
}

/** The index of the helper's plain parameter `id` names; `'reassigned'` when the helper assigns it; `undefined` for another variable. */
function parameterIndex(context: AnyContext, fn: FunctionLike, id: TSESTree.Identifier): number | 'reassigned' | undefined {
  const variable = findVariable(context, id);
  const def = variable?.defs[0];
  if (!variable || def?.type !== 'Parameter' || def.node !== fn) return undefined;
  const index = fn.params.findIndex((p) => p.type === AST_NODE_TYPES.Identifier && p.name === id.name);
  if (index < 0) return 'reassigned';
  return variable.references.some((r) => r.isWrite()) ? 'reassigned' : index;
}
