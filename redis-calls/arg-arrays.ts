/**
 * Command arguments built in a local array: `const args = [key, json]; if (ttl) args.push('EX',
 * ttl); client.set(args, cb)` (or `set(...args)`, `send_command('set', args)`, `call('SET',
 * ...args)`, `sendCommand(argv)`, `args = args.concat(['EX', ttl])`). The array is read as the
 * tokens it can hold at the call: its literal elements plus what `push` / `unshift` / `concat` /
 * `splice` added before the call, a reassignment `args = [...]` starting it over. A mutation that
 * runs on every path to the call (a statement of a block the call comes later in) adds its tokens
 * as they are; one that may not run (under an `if`, in a loop, in a callback) is a conditional
 * group, which the caller settles with the command table ({@link settleConditionalGroups}): a group
 * that decides whether the write carries an expiry is an optional TTL, read as unknown tokens, as
 * `...(ttl ? ['EX', ttl] : [])` is; any other group (`if (onlyNew) args.push('NX')`) keeps its
 * tokens. The array is not read (`'unreadable'`: unknown tokens) when the code may change it in a way this module
 * does not follow before the call: a conditional reassignment, an index write, another mutating
 * method, or the array handed to other code (an argument of another call, a value stored
 * elsewhere). Which clients send an array argument flattened is client syntax, decided in
 * `normalize.ts`.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describeCommand, EXPIRY_EFFECTS, type CommandArg, type CommandDescription } from '../semantics/commands.js';
import { encloses, findVariable, propertyName, resolveConstExpression, staticValue, unwrap, type AnyContext } from './static.js';

/** One token of a local array: its value where known, its source node, and its conditional group. */
export interface ArrayToken {
  value: CommandArg;
  /** The element or pushed argument it comes from (the spread itself for an unreadable spread). */
  node: TSESTree.Node;
  /** Set when the mutation that added it may not run before the call: the group's number. */
  group?: number;
}

/** Array methods that read an array and leave it as it is. */
const READING_METHODS = new Set([
  'at', 'concat', 'entries', 'every', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'flat', 'flatMap', 'forEach',
  'includes', 'indexOf', 'join', 'keys', 'lastIndexOf', 'map', 'reduce', 'reduceRight', 'slice', 'some', 'toString', 'values',
]);

/**
 * The tokens the local array named by `id` can hold when `call` runs; `undefined` when `id` is
 * not a variable declared with an array literal (`const`, `let` or `var`; `[]` too), and
 * `'unreadable'` when the array may change in a way this module does not follow before the call
 * (see the module comment): its tokens are then unknown.
 */
export function localArrayTokens(context: AnyContext, id: TSESTree.Identifier, call: TSESTree.Node): ArrayToken[] | 'unreadable' | undefined {
  const variable = findVariable(context, id);
  if (!variable || variable.defs.length !== 1) return undefined;
  const def = variable.defs[0]!;
  if (def.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.ArrayExpression) return undefined;
  let tokens = elementTokens(context, init.elements, undefined);
  let groups = 0;
  const references = variable.references
    .filter((r) => r.identifier !== def.node.id && r.identifier.range[1] <= call.range[0])
    .sort((a, b) => a.identifier.range[0] - b.identifier.range[0]);
  for (const reference of references) {
    const ref = reference.identifier as TSESTree.Identifier;
    if (encloses(call, ref)) continue;
    const parent = ref.parent;
    if (!parent) return 'unreadable';
    // args = [...] / args = args.concat([...])
    if (reference.isWrite()) {
      if (parent.type !== AST_NODE_TYPES.AssignmentExpression || parent.operator !== '=' || parent.left !== ref) return 'unreadable';
      const value = unwrap(parent.right);
      const certain = runsBefore(parent, call);
      if (value.type === AST_NODE_TYPES.ArrayExpression) {
        if (!certain) return 'unreadable';
        tokens = elementTokens(context, value.elements, undefined);
        continue;
      }
      const concat = concatOf(value, variable.name);
      if (!concat) return 'unreadable';
      const group = certain ? undefined : ++groups;
      tokens = [...tokens, ...concat.flatMap((argument) => concatTokens(context, argument, group))];
      continue;
    }
    // args.concat(...) read, assigned back above; any other reading use of a member
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === ref) {
      const method = propertyName(parent.property, parent.computed);
      const invoked = parent.parent.type === AST_NODE_TYPES.CallExpression && parent.parent.callee === parent ? parent.parent : undefined;
      if (isAssigned(parent)) return 'unreadable';
      if (!invoked) {
        if (method === 'length' || parent.computed) continue;
        return 'unreadable';
      }
      if (method !== undefined && READING_METHODS.has(method)) {
        // `args = args.concat(...)` is read at its write reference
        continue;
      }
      const certain = runsBefore(invoked, call);
      const group = certain ? undefined : ++groups;
      const added = invoked.arguments.flatMap((argument) => argumentTokens(context, argument, group));
      if (method === 'push') tokens = [...tokens, ...added];
      else if (method === 'unshift') tokens = [...added, ...tokens];
      else if (method === 'splice') {
        const spliced = splice(context, tokens, invoked, group);
        if (!spliced) return 'unreadable';
        tokens = spliced;
      } else return 'unreadable';
      continue;
    }
    // `...args` in another array literal, or `args` tested / compared: a read
    if (parent.type === AST_NODE_TYPES.SpreadElement && parent.parent.type === AST_NODE_TYPES.ArrayExpression) continue;
    if (parent.type === AST_NODE_TYPES.BinaryExpression || parent.type === AST_NODE_TYPES.UnaryExpression || parent.type === AST_NODE_TYPES.IfStatement) continue;
    if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.parent.type === AST_NODE_TYPES.IfStatement) continue;
    // handed to other code, stored, returned: it may change there
    return 'unreadable';
  }
  return tokens;
}

/**
 * Settles the conditional groups of an argv built from local arrays with the command table: a
 * group whose tokens decide whether the command gives its key a TTL (an expiry or KEEPTTL pushed
 * under an `if`) becomes unknown tokens, an optional TTL the table takes as one; any other group
 * keeps its tokens (a write without expiry on every path). Returns the argv to describe.
 * @param command the command name, upper-cased
 * @param args the argv after the command name
 * @param groups for each entry of `args`, its conditional group (`undefined`: always there)
 */
export function settleConditionalGroups(command: string, args: readonly CommandArg[], groups: ReadonlyArray<number | undefined>): CommandArg[] {
  const out = [...args];
  const numbers = new Set(groups.filter((g): g is number => g !== undefined));
  if (numbers.size === 0) return out;
  const withAll = givesTtl(describeCommand(command, args));
  for (const group of numbers) {
    const without = args.filter((_, index) => groups[index] !== group);
    if (givesTtl(describeCommand(command, without)) === withAll) continue;
    groups.forEach((g, index) => {
      if (g === group) out[index] = undefined;
    });
  }
  return out;
}

/** Whether a described command gives a key an expiry, or keeps the one it has (KEEPTTL). */
function givesTtl(description: CommandDescription): boolean {
  return description.keepTtl || description.ttl !== undefined || description.keys.some((key) => EXPIRY_EFFECTS.has(key.effect));
}

/** `node` is the target of an assignment or update (`args[2] = 'EX'`, `args.length = 0`). */
function isAssigned(member: TSESTree.MemberExpression): boolean {
  const parent = member.parent;
  return (
    (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.left === member) ||
    (parent.type === AST_NODE_TYPES.UpdateExpression && parent.argument === member) ||
    (parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'delete')
  );
}

/**
 * Whether `expression` runs on every path that reaches `call`: it is (or is the whole expression
 * of) a statement of a block, and `call` lies in a later statement of that same block. Stricter
 * than `static.followsOnItsPath`, which asks the converse (whether a later node runs whenever
 * the first one did) and also accepts later operands of one expression: here a push inside an
 * `if` before the call is not certain, so its tokens are optional.
 */
function runsBefore(expression: TSESTree.Node, call: TSESTree.Node): boolean {
  let statement: TSESTree.Node = expression;
  while (statement.parent?.type === AST_NODE_TYPES.AwaitExpression || statement.parent?.type === AST_NODE_TYPES.ChainExpression) statement = statement.parent;
  if (statement.parent?.type !== AST_NODE_TYPES.ExpressionStatement) return false;
  statement = statement.parent;
  const block = statement.parent;
  if (!block) return false;
  const list: readonly TSESTree.Node[] | undefined =
    block.type === AST_NODE_TYPES.BlockStatement || block.type === AST_NODE_TYPES.Program
      ? block.body
      : block.type === AST_NODE_TYPES.SwitchCase
        ? block.consequent
        : undefined;
  if (!list) return false;
  return list.slice(list.indexOf(statement) + 1).some((later) => encloses(later, call));
}

/** `args.concat(a, b)` assigned back to `args`: its arguments. */
function concatOf(value: TSESTree.Node, name: string): readonly TSESTree.CallExpressionArgument[] | undefined {
  if (value.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(value.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee.property, callee.computed) !== 'concat') return undefined;
  const object = unwrap(callee.object);
  return object.type === AST_NODE_TYPES.Identifier && object.name === name ? value.arguments : undefined;
}

/** The tokens of array elements; a spread or a hole we cannot read is one unknown token. */
function elementTokens(context: AnyContext, elements: readonly (TSESTree.Node | null)[], group: number | undefined): ArrayToken[] {
  return elements.flatMap((element) => (element ? argumentTokens(context, element, group) : []));
}

/** The tokens one pushed argument adds: its value, or one unknown token for a spread. */
function argumentTokens(context: AnyContext, node: TSESTree.Node, group: number | undefined): ArrayToken[] {
  const grouped = group === undefined ? {} : { group };
  if (node.type === AST_NODE_TYPES.SpreadElement) {
    const spread = resolveConstExpression(context, node.argument);
    if (spread.type === AST_NODE_TYPES.ArrayExpression) return elementTokens(context, spread.elements, group);
    return [{ value: undefined, node, ...grouped }];
  }
  const value = staticValue(context, node);
  return [{ value: typeof value === 'boolean' ? undefined : value, node, ...grouped }];
}

/** The tokens `concat` adds for one argument: an array's elements (one level), else the value. */
function concatTokens(context: AnyContext, node: TSESTree.CallExpressionArgument, group: number | undefined): ArrayToken[] {
  const resolved = node.type === AST_NODE_TYPES.SpreadElement ? node : resolveConstExpression(context, node);
  if (resolved.type === AST_NODE_TYPES.ArrayExpression) return elementTokens(context, resolved.elements, group);
  return argumentTokens(context, node, group);
}

/**
 * `args.splice(start, deleteCount, ...items)` with literal numbers: the tokens after it; a
 * conditional splice only when it inserts (`deleteCount` 0). `undefined` when it cannot be told.
 */
function splice(context: AnyContext, tokens: readonly ArrayToken[], call: TSESTree.CallExpression, group: number | undefined): ArrayToken[] | undefined {
  const [startNode, countNode, ...items] = call.arguments;
  const start = startNode && startNode.type !== AST_NODE_TYPES.SpreadElement ? staticValue(context, startNode) : undefined;
  const count = countNode === undefined ? tokens.length : countNode.type !== AST_NODE_TYPES.SpreadElement ? staticValue(context, countNode) : undefined;
  if (typeof start !== 'number' || typeof count !== 'number' || !Number.isInteger(start) || !Number.isInteger(count)) return undefined;
  if (group !== undefined && count !== 0) return undefined;
  // a token of a conditional group before the position makes the index uncertain
  const at = start < 0 ? Math.max(tokens.length + start, 0) : Math.min(start, tokens.length);
  if (tokens.slice(0, at + Math.max(count, 0)).some((t) => t.group !== undefined)) return undefined;
  const added = items.flatMap((item) => argumentTokens(context, item, group));
  return [...tokens.slice(0, at), ...added, ...tokens.slice(at + Math.max(count, 0))];
}
