/**
 * "The caller chose no TTL": a write in one arm of an explicit TTL test (`if (ttl) ... else ...`,
 * `ttl ? ... : ...`, `if (ttl === undefined)`, `if (disableTtl)`, or an `if` whose arm sets the TTL
 * and returns before the write) whose other arm writes the same key with a TTL. Stores such as
 * keyv, cache-manager or connect-redis take "no TTL" from their caller as "never expires"; the
 * TTL-less arm is a decision made next to the arm that sets the TTL, not a forgotten expiry.
 * Compiled async code (Babel's regenerator) turns such an `if` into cases of one `switch`: a case
 * that writes the same key with a TTL counts as the other arm.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { EXPIRY_EFFECTS } from './file-index.js';
import { redisCallsIn } from './index.js';
import { sameKeyByShape } from './key-id.js';
import { keyShapeOf } from './key-shape.js';
import type { RedisCall } from './normalize.js';
import type { AnyContext } from './static.js';

/** Names that say a test is about the TTL even when the other arm's TTL argument is spelled otherwise. */
const TTL_NAME = /ttl|expir|persist|lifetime|maxage|timeout|duration/i;

/**
 * Whether `call` writes the key at argument `keyArg` in the no-TTL arm of an explicit TTL test
 * whose other arm gives the same key a TTL (the same expression, or the same shape: `sameKeyByShape`).
 */
export function inNoTtlArm(context: AnyContext, call: RedisCall, keyNode: TSESTree.Node): boolean {
  const shape = keyShapeOf(context, keyNode).shape;
  const keyText = squeeze(context.sourceCode.getText(keyNode));
  for (let node: TSESTree.Node = call.node; node.parent; node = node.parent) {
    const parent: TSESTree.Node = node.parent;
    if (isFunction(parent)) return false;
    if ((parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') && parent.test !== node) {
      const other = node === parent.consequent ? parent.alternate : parent.consequent;
      if (other && armSetsTtl(context, other, parent.test, shape, keyText, keyNode)) return true;
      // if (disableTtl) return redis.set(k, v);  return redis.setex(k, ttl, v);
      if (!other && parent.type === 'IfStatement' && alwaysExits(parent.consequent)) {
        const slot = parent.parent;
        const list: readonly TSESTree.Node[] =
          slot.type === 'BlockStatement' || slot.type === 'Program' ? slot.body : slot.type === 'SwitchCase' ? slot.consequent : [];
        for (const sibling of list.slice(list.indexOf(parent) + 1)) {
          if (armSetsTtl(context, sibling, parent.test, shape, keyText, keyNode)) return true;
        }
      }
    }
    // compiled async code (regenerator state machines) spreads an if / else over the cases of one
    // switch: another case that writes the key with a TTL is the other arm of the same decision
    if (parent.type === 'SwitchCase' && parent.parent.type === 'SwitchStatement') {
      for (const other of parent.parent.cases) {
        if (other !== parent && armSetsTtl(context, other, null, shape, keyText, keyNode)) return true;
      }
    }
    // if (ttl) { await redis.set(k, v, 'EX', ttl); return; }  await redis.set(k, v);
    if (parent.type === 'BlockStatement' || parent.type === 'Program' || parent.type === 'SwitchCase') {
      const list: readonly TSESTree.Node[] = parent.type === 'SwitchCase' ? parent.consequent : parent.body;
      for (const sibling of list.slice(0, list.indexOf(node))) {
        if (sibling.type === 'IfStatement' && !sibling.alternate && alwaysExits(sibling.consequent)) {
          if (armSetsTtl(context, sibling.consequent, sibling.test, shape, keyText, keyNode)) return true;
        }
      }
    }
  }
  return false;
}

/** An arm that gives the key a TTL, behind a test that is about that TTL. */
function armSetsTtl(context: AnyContext, arm: TSESTree.Node, test: TSESTree.Node | null, shape: string, keyText: string, writeKey: TSESTree.Node): boolean {
  const testNames = test ? namesIn(test) : undefined;
  for (const call of redisCallsIn(context, arm)) {
    for (const action of call.description.keys) {
      const keyNode = call.argNodes[action.arg];
      if (!EXPIRY_EFFECTS.has(action.effect) || !keyNode) continue;
      // an expiry counts only for the key it names (`sameKeyByShape`)
      const sameKey =
        squeeze(context.sourceCode.getText(keyNode)) === keyText || (keyShapeOf(context, keyNode).shape === shape && sameKeyByShape(context, shape, writeKey, keyNode));
      if (!sameKey) continue;
      // a switch: the decision's test is not one expression (see inNoTtlArm)
      if (!testNames) return true;
      if ([...testNames].some((name) => TTL_NAME.test(name))) return true;
      // the test reads what the arm passes as the TTL (`if (t) redis.setex(k, t, v)`)
      const keyNames = namesIn(keyNode);
      for (const argument of call.argumentNodes) {
        if (argument === keyNode) continue;
        for (const name of namesIn(argument)) if (testNames.has(name) && !keyNames.has(name)) return true;
      }
    }
  }
  return false;
}

/** Identifier names and non-computed member names in an expression. */
function namesIn(root: TSESTree.Node): Set<string> {
  const names = new Set<string>();
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'Identifier') names.add(node.name);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'parent') continue;
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) stack.push(child);
      }
      else if (isNode(value)) stack.push(value);
    }
  }
  return names;
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** A statement that always leaves the enclosing block: `return`, `throw`, or a block ending in one. */
function alwaysExits(statement: TSESTree.Node): boolean {
  if (statement.type === 'ReturnStatement' || statement.type === 'ThrowStatement') return true;
  if (statement.type === 'BlockStatement') {
    const last = statement.body[statement.body.length - 1];
    return last !== undefined && alwaysExits(last);
  }
  return false;
}

function isFunction(node: TSESTree.Node): boolean {
  return node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';
}

const squeeze = (text: string): string => text.replace(/\s+/g, '');
