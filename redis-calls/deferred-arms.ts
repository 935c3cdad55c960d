/**
 * A write queued as a callback in the no-TTL arm of a caller-chosen TTL: a pipeline shim's
 *
 * ```ts
 * set(key: string, value: string, ...args: unknown[]) {
 *   const exIdx = args.indexOf('EX');
 *   if (exIdx !== -1) this.commands.push(() => client.setex(key, args[exIdx + 1] as number, value));
 *   else this.commands.push(() => client.set(key, value)); // taken only when the caller passes no 'EX'
 *   return this;
 * }
 * ```
 *
 * The callback only defers the command (`redis-calls/optional-ttl.ts` reads its arm as the
 * queuing code's), and which arm runs is the caller's choice: the no-TTL arm is left alone when
 * every call of the shim's method the rules find passes an argument to the parameter the test
 * reads (`shim.set(k, v, 'EX', 300)`; when the test looks for an option, `args.indexOf('EX')`,
 * that option or a value not known there: `shim.set(k, v, 'NX')` takes the bare SET), or none is found because its callers go through a client
 * the rules read as one (their own calls are then judged as the command where they are). A call
 * that leaves that parameter out (`shim.set(k, v)`), or callers the rules cannot all know, keep
 * the finding at the write.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { callSitesOf } from './facades.js';
import { constInitializer, encloses, findVariable, walk, type AnyContext, type FunctionLike } from './static.js';

/**
 * Whether `fn`, the function around `body`, only defers the one command it holds: an argument of a
 * call (`commands.push(() => client.set(k, v))`) whose body is that command's expression or a
 * block of that one statement.
 */
export function deferredCommand(fn: TSESTree.Node, body: TSESTree.Node): boolean {
  const holder = fn.parent;
  if (holder?.type !== AST_NODE_TYPES.CallExpression && holder?.type !== AST_NODE_TYPES.NewExpression) return false;
  if (!holder.arguments.some((argument) => argument === fn)) return false;
  if (!('body' in fn) || fn.body !== body) return false;
  return body.type !== AST_NODE_TYPES.BlockStatement || body.body.length === 1;
}

/**
 * Whether every call of the function whose parameter `test` reads (directly, or through a `const`
 * read from it: `const exIdx = args.indexOf('EX')`) passes an argument to that parameter; `true`
 * also when no call of it is found but its callers can all be known (see the module comment).
 */
export function callersPassTested(context: AnyContext, test: TSESTree.Node): boolean {
  let index: number | undefined;
  let owner: FunctionLike | undefined;
  // the option the test looks for in the parameter (`args.indexOf('EX')`), when it does
  let wanted: string | undefined;
  const seen = new Set<TSESTree.Node>();
  const visit = (root: TSESTree.Node, depth: number): void => {
    walk(context, root, (node) => {
      if (node.type !== AST_NODE_TYPES.Identifier || seen.has(node)) return;
      seen.add(node);
      const def = findVariable(context, node)?.defs[0];
      if (def?.type === 'Parameter') {
        const fn = def.node as FunctionLike;
        const at = fn.params.findIndex((param) => encloses(param, def.name));
        if (at >= 0 && (index === undefined || at < index)) {
          index = at;
          owner = fn;
        }
        wanted ??= searchedOption(node);
        return;
      }
      const init = depth < 2 ? constInitializer(context, node) : undefined;
      if (init) visit(init, depth + 1);
    });
  };
  visit(test, 0);
  if (index === undefined || !owner) return false;
  const known = callSitesOf(context, owner, true);
  if (!known) return false;
  return known.sites.every(({ call }) => {
    const spread = call.arguments.findIndex((argument) => argument.type === AST_NODE_TYPES.SpreadElement);
    if (spread >= 0 && spread <= index!) return true;
    if (call.arguments.length <= index!) return false;
    // `shim.set(k, v, 'NX')` passes options, but not the 'EX' the test looks for: the bare arm runs.
    // Compared as written, as the shim's own `indexOf` does (`'ex'` is not found there either,
    // though Redis would read it as EX)
    return wanted === undefined || call.arguments.slice(index).some((argument) => argument.type !== AST_NODE_TYPES.Literal || argument.value === wanted);
  });
}

/** The string a parameter is searched for (`args.indexOf('EX')`, `(args as string[]).includes('EX')`). */
function searchedOption(param: TSESTree.Node): string | undefined {
  let node = param;
  while (node.parent && (node.parent.type === AST_NODE_TYPES.TSAsExpression || node.parent.type === AST_NODE_TYPES.TSNonNullExpression || node.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)) node = node.parent;
  const member = node.parent;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== node || member.computed || member.property.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (member.property.name !== 'indexOf' && member.property.name !== 'includes') return undefined;
  const call = member.parent;
  const [first] = call?.type === AST_NODE_TYPES.CallExpression && call.callee === member ? call.arguments : [];
  return first?.type === AST_NODE_TYPES.Literal && typeof first.value === 'string' ? first.value : undefined;
}
