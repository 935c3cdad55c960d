/**
 * `fixed-window-expire`: an expiry that re-arms a counter's window on every call, so the window
 * never closes under steady traffic (the counter never resets, a client over the limit stays
 * blocked for as long as it retries, and a key touched often enough never expires):
 *
 * - an EXPIRE / PEXPIRE (without NX or LT) of the key of an INCR-family call that runs every time
 *   the increment does, when the counter's reply is compared with a limit (`count > max`) only
 *   after the expiry: a fixed-window rate limit whose denied calls re-arm the window too. An
 *   increment whose reply is not compared (a session's activity counter, a sliding TTL on
 *   purpose), an expiry after the limit check's early return, or a streak counter (the function
 *   deletes the key on a path the increment never takes: failures since the last success, a
 *   lockout meant to end a while after the last failure) is not reported;
 * - an expiry behind a `TTL < 0` (or `=== -1`) check that a plain SET of the same key before it
 *   makes true on every call (SET without KEEPTTL clears the TTL).
 *
 * The safe form: `EXPIRE key seconds NX` (Redis 7), or the expiry only when INCR returns 1, both
 * in the same MULTI or Lua script; `SET ... KEEPTTL` for the SET. The same rule id as lua-lint's.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { createRule } from './create-rule.js';
import { callsInFunction, fileIndexOf, keyIdOf } from '../redis-calls/file-index.js';
import type { RedisCall } from '../redis-calls/index.js';
import { keyLabel, reportLoc } from '../redis-calls/report.js';
import { alwaysExits, enclosingFunction, encloses, findVariable, resolveConstExpression, unwrap, walk } from '../redis-calls/static.js';
import { EFFECTS_THAT_DELETE_KEY, INCREMENT_COMMANDS } from '../semantics/commands.js';

/** Messages of the rule and of its suggestion. */
export type MessageIds = 'rearmedOnEveryIncrement' | 'rearmedAfterSet' | 'addNx';

const RELATIVE_EXPIRIES = new Set(['EXPIRE', 'PEXPIRE']);
const TTL_READS = new Set(['TTL', 'PTTL']);
const CONDITIONAL = new Set<string>([
  AST_NODE_TYPES.IfStatement,
  AST_NODE_TYPES.ConditionalExpression,
  AST_NODE_TYPES.LogicalExpression,
  AST_NODE_TYPES.SwitchCase,
  AST_NODE_TYPES.CatchClause,
  AST_NODE_TYPES.ForStatement,
  AST_NODE_TYPES.ForInStatement,
  AST_NODE_TYPES.ForOfStatement,
  AST_NODE_TYPES.WhileStatement,
  AST_NODE_TYPES.DoWhileStatement,
]);
const LIMIT_COMPARISONS = new Set(['<', '<=', '>', '>=']);

export default createRule<[], MessageIds>({
  name: 'fixed-window-expire',
  meta: {
    type: 'problem',
    docs: {
      description: "Disallow expiries that re-arm a counter's window on every call (EXPIRE after every INCR without NX, or after a TTL check a plain SET makes true).",
      recommended: true,
      strict: true,
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      rearmedOnEveryIncrement:
        "{{command}} of `{{key}}` runs on every {{increment}} (line {{line}}): each hit moves the window's end, so under steady traffic the counter never resets and the key never expires. Expire only when the window opens: {{command}} ... NX (Redis 7), or when {{increment}} returns 1.",
      rearmedAfterSet:
        'The TTL check of `{{key}}` is true on every call: the SET at line {{line}} has no KEEPTTL, so it clears the TTL and this {{command}} re-arms the window, which never closes under steady traffic. Write with SET ... KEEPTTL (or INCR).',
      addNx: "Add NX: only a key without TTL gets one (Redis 7.0 or later).",
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    return {
      'Program:exit'() {
        const calls = fileIndexOf(context).calls;
        for (const expiry of calls) {
          if (!RELATIVE_EXPIRIES.has(expiry.command)) continue;
          const options = expiry.args.slice(2).map((a) => (typeof a === 'string' ? a.toUpperCase() : a));
          if (options.includes('NX') || options.includes('LT') || options.some((o) => o === undefined)) continue;
          const key = keyIdOf(context, expiry, 0);
          if (!key) continue;
          const fn = enclosingFunction(expiry.node);
          const before = callsInFunction(context, fn).filter((c) => c !== expiry && c.nameNode.range[0] < expiry.nameNode.range[0] && keyIdOf(context, c, 0) === key);
          const increment = before.reverse().find((c) => INCREMENT_COMMANDS.has(c.command));
          if (
            increment &&
            !conditionalBetween(expiry.node, increment.node) &&
            replyComparedWithLimit(increment, fn, expiry.node) &&
            !resetOnTheOtherPath(increment, fn, key)
          ) {
            context.report({
              node: expiry.node,
              loc: reportLoc(expiry),
              messageId: 'rearmedOnEveryIncrement',
              data: { command: expiry.command, key: keyText(expiry), increment: increment.command, line: String(increment.nameNode.loc.start.line) },
              suggest: addNx(expiry),
            });
            continue;
          }
          const ttlRead = before.find((c) => TTL_READS.has(c.command));
          const set = ttlRead && before.find((c) => c.nameNode.range[0] < ttlRead.nameNode.range[0] && c.description.keys[0]?.effect === 'overwrite' && (c.command === 'SET' || c.command === 'SETNX'));
          if (ttlRead && set && guardedByNoTtlCheck(expiry.node, ttlRead)) {
            context.report({
              node: expiry.node,
              loc: reportLoc(expiry),
              messageId: 'rearmedAfterSet',
              data: { command: expiry.command, key: keyText(expiry), line: String(set.nameNode.loc.start.line) },
            });
          }
        }
      },
    };

    function keyText(call: RedisCall): string {
      return keyLabel(context, call.argNodes[0]);
    }

    /** `expire(key, ttl)` -> `expire(key, ttl, 'NX')`. */
    function addNx(call: RedisCall): Array<{ messageId: MessageIds; fix: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix }> {
      const ttlNode = call.argNodes[1];
      if (!ttlNode || call.args.length !== 2 || !call.argumentNodes.includes(ttlNode)) return [];
      const quote = sourceCode.getText(call.nameNode).startsWith('"') ? '"' : "'";
      return [{ messageId: 'addNx', fix: (fixer) => fixer.insertTextAfter(ttlNode, `, ${quote}NX${quote}`) }];
    }

    /**
     * Whether the function deletes the counter's key on a path the increment never takes: the
     * increment and a DEL / UNLINK of the same key on the two arms of one `if`, or one of them on
     * an arm that always leaves (`if (ok) { await redis.del(k); return; }`) and the other after
     * that `if`. Such a counter counts a streak (failures since the last success, which resets
     * it): an expiry re-armed on each failure, a lockout that ends a while after the *last* one,
     * is what it is for.
     */
    function resetOnTheOtherPath(increment: RedisCall, fn: TSESTree.Node | undefined, key: string): boolean {
      const spelled = (node: TSESTree.Node | undefined) => (node ? sourceCode.getText(resolveConstExpression(context, node)).replace(/\s+/g, '') : undefined);
      const counter = spelled(increment.argNodes[0]);
      return callsInFunction(context, fn).some(
        (reset) =>
          // the same key: as written, or through the `const` it is read from
          reset.description.keys.some(
            (k) =>
              EFFECTS_THAT_DELETE_KEY.has(k.effect) &&
              ((key.startsWith('value:') && keyIdOf(context, reset, k.arg) === key) ||
                ((keyIdOf(context, reset, k.arg) === key || spelled(reset.argNodes[k.arg]) === counter) && sameBindings(reset.argNodes[k.arg], increment.argNodes[0]))),
          ) &&
          (exclusiveArms(increment.node, reset.node) || exclusiveArms(reset.node, increment.node)),
      );
    }

    /**
     * Whether two key expressions, read through their `const`s, name the same variables in the
     * same order: a loop or callback variable that shadows the counter's (`for (const id of
     * users) del(`rl:${id}`)`) spells the key alike but deletes other users' counters.
     */
    function sameBindings(a: TSESTree.Node | undefined, b: TSESTree.Node | undefined): boolean {
      const bindings = (node: TSESTree.Node | undefined) => {
        const found: Array<unknown> = [];
        if (!node || node.type === AST_NODE_TYPES.SpreadElement) return undefined;
        walk(context, resolveConstExpression(context, node), (inner) => {
          if (inner.type !== AST_NODE_TYPES.Identifier) return undefined;
          const parent = inner.parent;
          if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === inner && !parent.computed) return undefined;
          found.push(findVariable(context, inner) ?? inner.name);
          return undefined;
        });
        return found;
      };
      const left = bindings(a);
      const right = bindings(b);
      return left !== undefined && right !== undefined && left.length === right.length && left.every((v, i) => v === right[i]);
    }

    /**
     * Whether an `if` around `a` (up to its function) runs `b` only when it does not run `a`: `b`
     * on its other arm, or `a` on an arm that always leaves and `b` after the `if`, in the block
     * that holds it.
     */
    function exclusiveArms(a: TSESTree.Node, b: TSESTree.Node): boolean {
      for (let node: TSESTree.Node | undefined = a; node?.parent; node = node.parent) {
        const statement: TSESTree.Node = node.parent;
        if (statement.type === 'FunctionDeclaration' || statement.type === 'FunctionExpression' || statement.type === 'ArrowFunctionExpression') return false;
        if (statement.type !== AST_NODE_TYPES.IfStatement || statement.test === node) continue;
        const other = statement.consequent === node ? statement.alternate : statement.consequent;
        if (other && encloses(other, b)) return true;
        const holder = statement.parent;
        if (alwaysExits(node) && b.range[0] > statement.range[1] && holder && encloses(holder, b)) return true;
      }
      return false;
    }

    /** Whether a conditional or loop holds `inner` without holding `outer` too (up to their function). */
    function conditionalBetween(inner: TSESTree.Node, outer: TSESTree.Node): boolean {
      for (let node = inner.parent; node; node = node.parent) {
        if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') return false;
        if (!CONDITIONAL.has(node.type)) continue;
        if (outer.range[0] >= node.range[0] && outer.range[1] <= node.range[1]) return false;
        // `a && b`: both sides run when a is truthy: only the right side is conditional
        if (node.type === AST_NODE_TYPES.LogicalExpression && node.left.range[0] <= inner.range[0] && inner.range[1] <= node.left.range[1]) continue;
        return true;
      }
      return false;
    }

    /** The names an increment's reply is bound to (`const n = await redis.incr(k)`, `const [[, n]] = await multi...exec()`). */
    function replyComparedWithLimit(call: RedisCall, fn: TSESTree.Node | undefined, expiry: TSESTree.Node): boolean {
      let node: TSESTree.Node = call.node;
      while (node.parent) {
        const parent: TSESTree.Node = node.parent;
        if (parent.type === AST_NODE_TYPES.BinaryExpression && LIMIT_COMPARISONS.has(parent.operator)) return parent.range[0] > expiry.range[0];
        if (
          parent.type === AST_NODE_TYPES.AwaitExpression ||
          parent.type === AST_NODE_TYPES.TSAsExpression ||
          parent.type === AST_NODE_TYPES.TSNonNullExpression ||
          parent.type === AST_NODE_TYPES.ChainExpression ||
          (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === node) ||
          (parent.type === AST_NODE_TYPES.CallExpression && parent.callee === node)
        ) {
          node = parent;
          continue;
        }
        break;
      }
      const declarator = node.parent;
      if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== node) return false;
      const names = new Set<string>();
      collectPatternNames(declarator.id, names);
      if (names.size === 0) return false;
      // the limit is checked after the expiry: denied calls re-arm the window too (an expiry
      // after `if (count > limit) return` re-arms only allowed calls)
      let after = false;
      let before = false;
      walk(context, fn ?? sourceCode.ast, (current) => {
        if (current.type === AST_NODE_TYPES.BinaryExpression && LIMIT_COMPARISONS.has(current.operator) && current.left.type !== AST_NODE_TYPES.PrivateIdentifier) {
          if (rootName(current.left, names) || rootName(current.right, names)) {
            if (current.range[0] > expiry.range[0]) after = true;
            else before = true;
          }
        }
      });
      return after && !before;
    }

    /** The expiry sits in the consequent of an `if` whose test finds the TTL reply below 0 (or -1). */
    function guardedByNoTtlCheck(expiry: TSESTree.Node, ttlRead: RedisCall): boolean {
      const names = new Set<string>();
      let node: TSESTree.Node = ttlRead.node;
      while (node.parent && (node.parent.type === AST_NODE_TYPES.AwaitExpression || node.parent.type === AST_NODE_TYPES.TSAsExpression)) node = node.parent;
      if (node.parent?.type === AST_NODE_TYPES.VariableDeclarator) collectPatternNames(node.parent.id, names);
      for (let current = expiry.parent; current; current = current.parent) {
        if (current.type === AST_NODE_TYPES.IfStatement && current.consequent.range[0] <= expiry.range[0] && expiry.range[1] <= current.consequent.range[1]) {
          const test = unwrap(current.test);
          if (test.type !== AST_NODE_TYPES.BinaryExpression || test.left.type === AST_NODE_TYPES.PrivateIdentifier) continue;
          const mentionsReply = (side: TSESTree.Node): boolean => rootName(side, names) || (side.range[0] <= ttlRead.node.range[0] && ttlRead.node.range[1] <= side.range[1]);
          const literal = (side: TSESTree.Node): number | undefined => {
            const bare = unwrap(side);
            if (bare.type === AST_NODE_TYPES.Literal && typeof bare.value === 'number') return bare.value;
            if (bare.type === AST_NODE_TYPES.UnaryExpression && bare.operator === '-' && bare.argument.type === AST_NODE_TYPES.Literal && typeof bare.argument.value === 'number') return -bare.argument.value;
            return undefined;
          };
          if (!mentionsReply(test.left)) continue;
          const value = literal(test.right);
          if ((test.operator === '<' && value === 0) || (test.operator === '<=' && value === 0) || ((test.operator === '===' || test.operator === '==') && value === -1)) return true;
        }
        if (current.type === 'FunctionDeclaration' || current.type === 'FunctionExpression' || current.type === 'ArrowFunctionExpression') break;
      }
      return false;
    }
  },
});

function collectPatternNames(pattern: TSESTree.Node, names: Set<string>): void {
  switch (pattern.type) {
    case AST_NODE_TYPES.Identifier:
      names.add(pattern.name);
      break;
    case AST_NODE_TYPES.ArrayPattern:
      for (const element of pattern.elements) if (element) collectPatternNames(element, names);
      break;
    case AST_NODE_TYPES.ObjectPattern:
      for (const property of pattern.properties) collectPatternNames(property.type === AST_NODE_TYPES.Property ? property.value : property, names);
      break;
    case AST_NODE_TYPES.RestElement:
      collectPatternNames(pattern.argument, names);
      break;
    case AST_NODE_TYPES.AssignmentPattern:
      collectPatternNames(pattern.left, names);
      break;
    default:
      break;
  }
}

/** The expression is one of `names`, or a member / call of one (`results[0][1]`, `Number(n)`). */
function rootName(node: TSESTree.Node, names: ReadonlySet<string>): boolean {
  let current = unwrap(node);
  for (let depth = 0; depth < 8; depth++) {
    if (current.type === AST_NODE_TYPES.Identifier) return names.has(current.name);
    if (current.type === AST_NODE_TYPES.MemberExpression) current = unwrap(current.object);
    else if (current.type === AST_NODE_TYPES.CallExpression && current.arguments[0] && current.arguments[0].type !== AST_NODE_TYPES.SpreadElement) current = unwrap(current.arguments[0]);
    else return false;
  }
  return false;
}
