/**
 * An expiry **re-armed on every write**: the EXPIRE-family command that follows a write of the
 * same key as a round trip of its own (`expiryInLaterRoundTrip` of `file-index.ts`) and runs
 * whenever the write does: it sits in a later statement of the block that holds the write's
 * statement, on no branch of its own (no `if`, `?:`, `&&` / `||` / `??`, `switch`, loop, `catch`
 * or callback between it and that block), and no statement in between can leave the block
 * (`return`, `throw`, `break`, `continue`). For a bounded key (one key, or a few) a crash between
 * the two round trips leaves at most that key without TTL, and the next write re-arms it: nothing
 * accumulates. An expiry sent only on creation (`if (n === 1) expire(k)`) or after a check that can
 * return first re-arms nothing: a crash there leaves the key without TTL for good.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction, encloses } from './static.js';

const EXITS: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.ReturnStatement,
  AST_NODE_TYPES.ThrowStatement,
  AST_NODE_TYPES.BreakStatement,
  AST_NODE_TYPES.ContinueStatement,
]);

/** Whether `expiry` runs every time `write` does (see the module comment). */
export function expiryRunsAfterEveryWrite(write: TSESTree.Node, expiry: TSESTree.Node): boolean {
  // the statements enclosing the write, up to its function
  const writeStatements = new Set<TSESTree.Node>();
  for (let child: TSESTree.Node = write, parent = write.parent; parent; child = parent, parent = parent.parent) {
    if (isBlock(parent)) writeStatements.add(child);
    if (isFunction(parent)) break;
  }
  // climb from the expiry, on no branch, to the block holding one of those statements
  for (let child: TSESTree.Node = expiry, parent = expiry.parent; parent; child = parent, parent = parent.parent) {
    if (isBlock(parent)) {
      const body = parent.body as readonly TSESTree.Node[];
      const writeStatement = body.find((statement) => writeStatements.has(statement));
      if (writeStatement) {
        const from = body.indexOf(writeStatement);
        const to = body.indexOf(child);
        return from < to && body.slice(from + 1, to).every((statement) => !canLeave(statement));
      }
      continue; // a plain nested block `{ ... }` runs in order
    }
    // both in one expression evaluated in order (Promise.all([redis.incr(k), redis.expire(k, 60)]))
    if (encloses(parent, write)) return inOrderAfter(parent, child, write);
    if (!unconditionalChild(parent, child)) return false;
  }
  return false;
}

/** Whether `child`, an element / argument of `parent`, comes after the one holding `write`. */
function inOrderAfter(parent: TSESTree.Node, child: TSESTree.Node, write: TSESTree.Node): boolean {
  const items: readonly (TSESTree.Node | null)[] | undefined =
    parent.type === AST_NODE_TYPES.ArrayExpression
      ? parent.elements
      : parent.type === AST_NODE_TYPES.SequenceExpression
        ? parent.expressions
        : parent.type === AST_NODE_TYPES.CallExpression || parent.type === AST_NODE_TYPES.NewExpression
          ? parent.arguments
          : undefined;
  if (!items || !items.includes(child)) return false;
  const holder = items.find((item) => item !== null && encloses(item, write));
  return holder !== undefined && holder !== null && items.indexOf(holder) < items.indexOf(child);
}

function isBlock(node: TSESTree.Node): node is TSESTree.BlockStatement | TSESTree.Program | TSESTree.StaticBlock {
  return node.type === AST_NODE_TYPES.BlockStatement || node.type === AST_NODE_TYPES.Program || node.type === AST_NODE_TYPES.StaticBlock;
}

function isFunction(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/** Whether `child` is evaluated whenever `parent` is (no branch, loop, handler or function between). */
function unconditionalChild(parent: TSESTree.Node, child: TSESTree.Node): boolean {
  switch (parent.type) {
    case AST_NODE_TYPES.ExpressionStatement:
    case AST_NODE_TYPES.AwaitExpression:
    case AST_NODE_TYPES.VariableDeclaration:
    case AST_NODE_TYPES.ArrayExpression:
    case AST_NODE_TYPES.SequenceExpression:
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.ReturnStatement:
      return true;
    case AST_NODE_TYPES.VariableDeclarator:
      return parent.init === child;
    case AST_NODE_TYPES.AssignmentExpression:
      return parent.right === child;
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression:
      // an argument (Promise.all([...])), or the callee chain (redis.expire(k, 60).catch(...)); not through `?.`
      return !(parent.type === AST_NODE_TYPES.CallExpression && parent.optional);
    case AST_NODE_TYPES.MemberExpression:
      return parent.object === child && !parent.optional;
    case AST_NODE_TYPES.LogicalExpression:
    case AST_NODE_TYPES.ConditionalExpression:
      // the left of `a && b` / the test of `c ? a : b` always runs; the other operands do not
      return parent.type === AST_NODE_TYPES.LogicalExpression ? parent.left === child : parent.test === child;
    case AST_NODE_TYPES.IfStatement:
      return parent.test === child;
    case AST_NODE_TYPES.TryStatement:
      return parent.block === child;
    default:
      return false;
  }
}

/** Whether a statement can leave the block it sits in (an exit not inside a function of its own). */
function canLeave(statement: TSESTree.Node): boolean {
  let found = false;
  const visit = (node: TSESTree.Node): void => {
    if (found) return;
    if (EXITS.has(node.type)) {
      found = true;
      return;
    }
    if (isFunction(node)) return; // its exits leave only itself
    for (const key of Object.keys(node) as (keyof typeof node)[]) {
      if (key === 'parent') continue;
      const value = node[key] as unknown;
      if (Array.isArray(value)) {
        for (const item of value) if (item && typeof item === 'object' && 'type' in item) visit(item as TSESTree.Node);
      } else if (value && typeof value === 'object' && 'type' in value) visit(value as TSESTree.Node);
    }
  };
  visit(statement);
  return found;
}

/** A write or an expiry of a key, as the key rules collect them (`key`: the key's identity in the file). */
export interface KeyedCall {
  node: TSESTree.Node;
  key: string;
}

/**
 * Whether every other write of `write`'s key in the file (`writes`) is followed, in its own
 * function, by an expiry of that key (`expiries`): only then does "the next write re-arms it"
 * hold. A write of the same key elsewhere that never expires it (`updateTitle`'s ZADD of the
 * shared index that `save` ZADDs and EXPIREs) can be that next write, and keeps the key without
 * TTL after a crash between `save`'s two round trips.
 */
export function everyWriteRearms(write: KeyedCall, writes: readonly KeyedCall[], expiries: readonly KeyedCall[]): boolean {
  const own = enclosingFunction(write.node);
  return writes.every((other) => {
    if (other === write || other.key !== write.key) return true;
    const fn = enclosingFunction(other.node);
    if (fn === own) return true;
    return expiries.some((e) => e.key === write.key && enclosingFunction(e.node) === fn && e.node.range[0] > other.node.range[0]);
  });
}
