/**
 * Values fixed by the code's own structure, for `key-shape.ts`: a key built only from them is one
 * key (or a few), bounded like a constant key.
 *
 * - **A property of the module's configuration** (`config.keyPrefix`): a non-computed member of a
 *   `const` declared at the module's top level from a call (`const config = loadConfig()`, awaited
 *   too) that no code of the module writes to (`config.keyPrefix = ...`, `++`, `delete`,
 *   `Object.assign(config, ...)`). The
 *   module evaluates it once: one value for the process's life, like `process.env.KEY_PREFIX`. A
 *   top-level call's result itself (`const instance = randomUUID()`) is not configuration (a value
 *   per process start, so a key per restart), and neither is a `let` nor a `const` of a function.
 * - **A method that returns only literals** (`this.getTier(level)` of a `getTier` whose every
 *   `return` is a string or number literal): one of those few values, whatever the arguments.
 *   A function of the module (`bucket(n)`) or a method of the class called through `this`
 *   (static or instance); not an inherited, imported or reassignable one, nor one a subclass
 *   overrides (`redis-calls/overridden-methods.ts`: its instances run the subclass's).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { classOfStaticThis, type ClassNode } from './class-statics.js';
import { classOfThis } from './bounded.js';
import { isObjectAssign } from './containers.js';
import { methodOverridden } from './overridden-methods.js';
import { findVariable, propertyName, unwrap, walkOwnNodes, type AnyContext } from './static.js';

/**
 * Whether `member` reads a property of a top-level `const` of the module initialized by a call
 * (its configuration, loaded once), that the module never writes to.
 * @param context the rule context of the file `member` is written in
 */
export function isModuleConfigMember(context: AnyContext, member: TSESTree.MemberExpression): boolean {
  if (member.computed) return false;
  const name = propertyName(member.property, false);
  const object = unwrap(member.object);
  if (name === undefined || object.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context, object);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return false;
  const declaration = def.parent;
  if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const' || !isTopLevel(declaration)) return false;
  let init = unwrap(def.node.init);
  if (init.type === AST_NODE_TYPES.AwaitExpression) init = unwrap(init.argument);
  // a `require(...)` is another module's values, read as such by key-shape.ts
  if (init.type !== AST_NODE_TYPES.CallExpression || (init.callee.type === AST_NODE_TYPES.Identifier && init.callee.name === 'require')) return false;
  // nothing of the module writes the property: `config.keyPrefix = id` makes it the data of a call
  return variable!.references.every((reference) => reference.identifier === def.node.id || !writesProperty(reference.identifier, name));
}

/**
 * The literals a function of this file returns when every `return` of its own body (or its
 * expression body) gives a string or number literal, or a conditional of them: `bucket(n)` of a
 * `function bucket(n)` or `const bucket = (n) => ...`, `this.getTier(level)` of a method of the
 * class `this` stands for (static or instance). `'overridden'` for such a method a subclass
 * overrides (its value is the subclass's, unknown). `undefined` when the callee is none of those,
 * or one return gives anything else (or none does).
 * @param context the rule context of the file the call is written in
 */
export function literalReturnsOf(context: AnyContext, callee: TSESTree.Node): string[] | 'overridden' | undefined {
  const found = ownFunction(context, unwrap(callee));
  const literals = found ? literalReturns(found.fn) : undefined;
  // a subclass's method of that name runs instead on its instances: its returns are unknown
  if (literals && found?.method && methodOverridden(context, found.method.cls, found.method.node)) return 'overridden';
  return literals;
}

type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

interface OwnFunction {
  fn: FunctionNode;
  /** The method and its class, for `this.m(...)`. */
  method?: { cls: ClassNode; node: TSESTree.MethodDefinition };
}

function ownFunction(context: AnyContext, node: TSESTree.Node): OwnFunction | undefined {
  if (node.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context, node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type === 'FunctionName' && def.node.type === AST_NODE_TYPES.FunctionDeclaration) return { fn: def.node };
    if (def?.type !== 'Variable' || def.parent?.kind !== 'const' || !def.node.init) return undefined;
    const init = unwrap(def.node.init);
    return init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression ? { fn: init } : undefined;
  }
  if (node.type !== AST_NODE_TYPES.MemberExpression || unwrap(node.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const name = propertyName(node.property, node.computed);
  if (name === undefined) return undefined;
  const statics = classOfStaticThis(node.object);
  const cls = statics ?? classOfThis(node.object);
  if (!cls) return undefined;
  // one definition with a body (overloads have none), the class's own: an inherited one is unknown
  const methods = cls.body.body.filter(
    (element): element is TSESTree.MethodDefinition =>
      element.type === AST_NODE_TYPES.MethodDefinition &&
      element.kind === 'method' &&
      element.static === (statics !== undefined) &&
      propertyName(element.key, element.computed) === name &&
      element.value.type === AST_NODE_TYPES.FunctionExpression,
  );
  const method = methods.length === 1 ? methods[0]! : undefined;
  return method?.value.type === AST_NODE_TYPES.FunctionExpression ? { fn: method.value, method: { cls, node: method } } : undefined;
}

function literalReturns(fn: FunctionNode): string[] | undefined {
  if (!fn.body) return undefined;
  const values: string[] = [];
  let other = false;
  const read = (expression: TSESTree.Node): void => {
    const bare = unwrap(expression);
    if (bare.type === AST_NODE_TYPES.ConditionalExpression) {
      read(bare.consequent);
      read(bare.alternate);
    } else if (bare.type === AST_NODE_TYPES.Literal && (typeof bare.value === 'string' || typeof bare.value === 'number')) values.push(String(bare.value));
    else other = true;
  };
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) read(fn.body);
  // every return of the body, in loops and branches too, not those of nested functions
  else {
    walkOwnNodes(fn.body, (node) => {
      if (node.type !== AST_NODE_TYPES.ReturnStatement) return;
      if (node.argument) read(node.argument);
      else other = true;
    });
  }
  return other || values.length === 0 ? undefined : values;
}

function isTopLevel(declaration: TSESTree.VariableDeclaration): boolean {
  const parent = declaration.parent;
  return parent?.type === AST_NODE_TYPES.Program || (parent?.type === AST_NODE_TYPES.ExportNamedDeclaration && parent.parent?.type === AST_NODE_TYPES.Program);
}

/**
 * `x.name = ...`, `x.name += ...`, `x.name++`, `delete x.name` (or any computed member of `x`),
 * and `Object.assign(x, ...)`, which may write any of its properties.
 */
function writesProperty(identifier: TSESTree.Node, name: string): boolean {
  const member = identifier.parent;
  if (member?.type === AST_NODE_TYPES.CallExpression && member.arguments[0] === identifier && isObjectAssign(member.callee)) return true;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== identifier) return false;
  if (!member.computed && propertyName(member.property, false) !== name) return false;
  const parent = member.parent;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === member) return true;
  if (parent?.type === AST_NODE_TYPES.UpdateExpression) return true;
  return parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'delete';
}
