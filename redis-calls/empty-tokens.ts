/**
 * ioredis sends an `undefined` or `null` argument as an empty string (`utils.toArg`): `set(k, v,
 * 'EX', 60, nx ? 'NX' : undefined)` goes out as `SET k v EX 60 ""` when `nx` is false, and Redis
 * answers "ERR syntax error", so the key is never written on that branch (checked with ioredis 5
 * on redis-server 7.0.15: `'EX', undefined` is "value is not an integer or out of range", a bare
 * `undefined` option "syntax error"). Whether an empty argument makes Redis reject the command is
 * the command table's (`describeCommand` with `''` in its place); this module only finds the
 * arguments that are certainly `undefined` / `null` on some branch.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describeCommand, type CommandArg } from '../semantics/commands.js';
import type { DroppedArgument } from './normalize.js';
import { findVariable, unwrap, type AnyContext } from './static.js';

/**
 * Whether `node` is `undefined` or `null` on at least one branch, as written: the literal `null`,
 * the global `undefined` (not a local of that name), `void 0`, or an arm of a conditional that is
 * one (`nx ? 'NX' : undefined`). A name or call that may hold `undefined` does not count.
 */
export function nullishOnSomeBranch(context: AnyContext, node: TSESTree.Node, depth = 0): boolean {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Literal) return bare.value === null && !('regex' in bare) && !('bigint' in bare);
  if (bare.type === AST_NODE_TYPES.Identifier) return bare.name === 'undefined' && (findVariable(context, bare)?.defs.length ?? 0) === 0;
  if (bare.type === AST_NODE_TYPES.UnaryExpression) return bare.operator === 'void';
  if (bare.type === AST_NODE_TYPES.ConditionalExpression && depth < 4) return nullishOnSomeBranch(context, bare.consequent, depth + 1) || nullishOnSomeBranch(context, bare.alternate, depth + 1);
  return false;
}

/**
 * The arguments of a command sent by ioredis (`args`, their nodes `nodes`, aligned) that are
 * `undefined` / `null` on some branch ({@link nullishOnSomeBranch}) and whose empty string makes
 * Redis reject the whole command: `empty-token` findings, reported on the argument.
 */
export function emptyTokens(context: AnyContext, command: string, args: readonly CommandArg[], nodes: ReadonlyArray<TSESTree.Node | undefined>): DroppedArgument[] {
  const out: DroppedArgument[] = [];
  for (let i = 0; i < args.length; i++) {
    const node = nodes[i];
    if (!node || args[i] !== undefined || !nullishOnSomeBranch(context, node)) continue;
    const sent = args.slice();
    sent[i] = '';
    const described = describeCommand(command, sent);
    if (described.rejected || described.rejectedWhenExists) out.push({ kind: 'empty-token', node, ttl: false });
  }
  return out;
}
