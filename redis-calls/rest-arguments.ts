/**
 * A key builder that joins its rest parameter: `static _joinQuery(...args) { return args.join(':'); }`
 * called as `this._joinQuery('chat', chatId, 'messages')` spells `chat:*:messages`, its arguments
 * in order with the separator between them, as `[a, b, c].join(sep)` does (`redis-calls/key-shape.ts`
 * evaluates the builder; this module says which arguments the rest parameter holds and when the
 * join can be read).
 *
 * Read only when the rest parameter is never changed nor passed on: every use of it is
 * `args.join(sep)` (an `args.unshift('user')`, `args.push(x)`, `args = ...` or `f(args)` makes it
 * something the call does not show), and the call spreads no argument into it
 * (`this._joinQuery(...parts)`: how many values, and which, is not written at the call).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, propertyName, unwrap, type AnyContext, type FunctionLike } from './static.js';

/** The rest parameter of a builder: its name and its position among the parameters. */
export interface RestParameter {
  id: TSESTree.Identifier;
  index: number;
}

/**
 * The rest parameter of `fn` (`...args`, the last parameter), when every reference of it in `fn`
 * is the receiver of a `join` call (`args.join(':')`); `undefined` otherwise.
 * @param context the context `fn` is written in (its scope analysis finds the references)
 * @param fn the builder
 */
export function joinedRestParameter(context: AnyContext, fn: FunctionLike): RestParameter | undefined {
  const index = fn.params.length - 1;
  const last = fn.params[index];
  if (last?.type !== AST_NODE_TYPES.RestElement || last.argument.type !== AST_NODE_TYPES.Identifier) return undefined;
  const id = last.argument;
  return onlyJoined(context, id) ? { id, index } : undefined;
}

/**
 * Whether every reference of a parameter is the receiver of a `join` call (`parts.join(':')`), or
 * spread into an array literal that is (`[group, ...parts].join(sep)`, 1MaTo/Nora's
 * `redisKey.struct(groupsKey.reportLog, [])`), so that an array literal passed for it is joined as
 * written: `function cacheKey(parts) { return parts.join(':'); }` called as `cacheKey(['candle',
 * 'latest', id])` spells `candle:latest:*`. A parameter filled, changed or passed on
 * (`parts.push(x)`, `f(parts)`) is not.
 * @param context the context the function is written in
 * @param id the parameter's name, as declared
 */
export function onlyJoined(context: AnyContext, id: TSESTree.Identifier): boolean {
  const variable = findVariable(context, id);
  if (!variable || variable.references.length === 0) return false;
  return variable.references.every((reference) => {
    // `[group, ...parts].join(sep)`: spread into an array literal that is joined as written, or
    // each element converted to its text first (`...parts.map((part) => String(part))`)
    const converted = textConversionOf(reference.identifier);
    const spread = converted ? converted.parent : reference.identifier.parent;
    const spreadValue = converted ?? reference.identifier;
    const joined =
      spread?.type === AST_NODE_TYPES.SpreadElement && spread.argument === spreadValue && spread.parent?.type === AST_NODE_TYPES.ArrayExpression
        ? spread.parent
        : (concatenatedInto(reference.identifier) ?? reference.identifier);
    const member = joined.parent;
    return (
      member?.type === AST_NODE_TYPES.MemberExpression &&
      member.object === joined &&
      propertyName(member.property, member.computed) === 'join' &&
      member.parent?.type === AST_NODE_TYPES.CallExpression &&
      member.parent.callee === member
    );
  });
}

/**
 * The call `[a, b].concat(id)` (or `[a].concat(x, id)`) when `id` is one of its arguments and
 * its receiver is an array literal, so that the result is `[a, b, ...id]` to a `join` after it
 * (`[prefix].concat(parts).join(':')`).
 */
function concatenatedInto(id: TSESTree.Node): TSESTree.CallExpression | undefined {
  const call = id.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(id as TSESTree.Expression)) return undefined;
  const callee = call.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee.property, callee.computed) !== 'concat') return undefined;
  return unwrap(callee.object).type === AST_NODE_TYPES.ArrayExpression ? call : undefined;
}

/**
 * The parameter a spread element of a joined array literal spreads (`parts` of `[group,
 * ...parts].join(sep)`), as declared, so that the elements it is bound to are spelled in its
 * place; `undefined` for a spread of anything else (`...ids.map(f)`).
 * @param context the context the array literal is written in
 * @param element the spread element
 */
export function spreadParameter(context: AnyContext, element: TSESTree.SpreadElement): TSESTree.Node | undefined {
  const argument = textConvertedArray(unwrap(element.argument)) ?? unwrap(element.argument);
  return argument.type === AST_NODE_TYPES.Identifier ? findVariable(context, argument)?.defs[0]?.name : undefined;
}

/**
 * `parts.map(String)`, `parts.map((part) => String(part))`, `` parts.map((p) => `${p}`) ``: the
 * elements of `parts`, each as its text (what `join` would make of it anyway); the call, when
 * `identifier` is the receiver of one, else `undefined`.
 */
function textConversionOf(identifier: TSESTree.Identifier | TSESTree.JSXIdentifier): TSESTree.CallExpression | undefined {
  const member = identifier.parent;
  const call = member?.parent;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== identifier || call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) return undefined;
  return textConvertedArray(call) === identifier ? call : undefined;
}

/** The array a text-converting `map` call ({@link textConversionOf}) is made on, or `undefined`. */
function textConvertedArray(node: TSESTree.Node): TSESTree.Node | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression || node.arguments.length !== 1) return undefined;
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee.property, callee.computed) !== 'map') return undefined;
  const callback = unwrap(node.arguments[0]!);
  const isString = (n: TSESTree.Node) => n.type === AST_NODE_TYPES.Identifier && n.name === 'String';
  if (isString(callback)) return unwrap(callee.object);
  if (callback.type !== AST_NODE_TYPES.ArrowFunctionExpression || callback.params.length !== 1 || callback.params[0]!.type !== AST_NODE_TYPES.Identifier) return undefined;
  const param = callback.params[0]!.name;
  const body = unwrap(callback.body);
  const names = (n: TSESTree.Node) => n.type === AST_NODE_TYPES.Identifier && n.name === param;
  const converts =
    (body.type === AST_NODE_TYPES.CallExpression && isString(unwrap(body.callee)) && body.arguments.length === 1 && names(unwrap(body.arguments[0]!))) ||
    (body.type === AST_NODE_TYPES.TemplateLiteral && body.expressions.length === 1 && body.quasis.every((q) => q.value.cooked === '') && names(unwrap(body.expressions[0]!)));
  return converts ? unwrap(callee.object) : undefined;
}

/**
 * The elements of an array literal passed for a parameter {@link onlyJoined} (`['candle', 'latest',
 * id]`), in order; `undefined` for anything else, or a literal with a spread or a hole (its
 * elements are then not all written at the call).
 */
export function joinedArrayElements(argument: TSESTree.Node | undefined): TSESTree.Expression[] | undefined {
  const array = argument && argument.type !== AST_NODE_TYPES.SpreadElement ? unwrap(argument) : undefined;
  if (array?.type !== AST_NODE_TYPES.ArrayExpression) return undefined;
  return array.elements.every((element) => element !== null && element.type !== AST_NODE_TYPES.SpreadElement) ? (array.elements as TSESTree.Expression[]) : undefined;
}

/**
 * The arguments of `call` the rest parameter at `index` holds, in order; `undefined` when the
 * call spreads an argument at or after that position (its count is not written at the call).
 */
export function restArguments(call: TSESTree.CallExpression, index: number): TSESTree.Expression[] | undefined {
  const rest = call.arguments.slice(index);
  return rest.some((argument) => argument.type === AST_NODE_TYPES.SpreadElement) ? undefined : (rest as TSESTree.Expression[]);
}

/**
 * One element, or run of elements, of an array written in place, as {@link joinedArrayItems}
 * gives them: `bound`, the parameter (as declared) or spread element whose bound elements stand
 * here when the call binds it; else `value`, read as one element, or, when `flattened` (an
 * argument of `concat`), as the elements it holds if it is an array; neither: nothing known.
 */
export interface ArrayItem {
  bound?: TSESTree.Node;
  value?: TSESTree.Node;
  flattened?: boolean;
}

/**
 * The items of an array a `join` is called on, when it is written in place: `[prefix, queue,
 * 'wait']`, a spread of a builder's rest parameter among them (`[prefix, ...parts]`), or such an
 * array's `concat` (`[prefix].concat(parts)`, node-quartz's key builder: its arguments are
 * appended, an array's elements or the value itself); `undefined` for any other array.
 * @param context the context the array is written in
 * @param array the receiver of the `join`
 */
export function joinedArrayItems(context: AnyContext, array: TSESTree.Node): ArrayItem[] | undefined {
  if (array.type === AST_NODE_TYPES.ArrayExpression) {
    return array.elements.map((element) =>
      !element ? {} : element.type === AST_NODE_TYPES.SpreadElement ? { bound: spreadParameter(context, element) ?? element } : { value: element },
    );
  }
  if (array.type !== AST_NODE_TYPES.CallExpression || array.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  if (propertyName(array.callee.property, array.callee.computed) !== 'concat') return undefined;
  const head = joinedArrayItems(context, unwrap(array.callee.object));
  if (!head) return undefined;
  const appended = array.arguments.flatMap((argument): ArrayItem[] => {
    if (argument.type === AST_NODE_TYPES.SpreadElement) return [{}];
    const value = unwrap(argument);
    if (value.type === AST_NODE_TYPES.ArrayExpression) return joinedArrayItems(context, value) ?? [{}];
    const declared = value.type === AST_NODE_TYPES.Identifier ? findVariable(context, value)?.defs[0]?.name : undefined;
    return [{ ...(declared ? { bound: declared } : {}), value, flattened: true }];
  });
  return [...head, ...appended];
}

/**
 * The rest parameter a `join` call is made on (`args` of `args.join(':')`), the identifier
 * written at the call, when its callee is `<identifier>.join`; `undefined` otherwise.
 */
export function joinedIdentifier(callee: TSESTree.Node): TSESTree.Identifier | undefined {
  if (callee.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee.property, callee.computed) !== 'join') return undefined;
  const object = unwrap(callee.object);
  return object.type === AST_NODE_TYPES.Identifier ? object : undefined;
}
