/**
 * lua-lint's `fixed-window-expire`, read from the script's text (one block at a time, no paths):
 *
 * - `local n = redis.call('INCR', k)` followed in the same block by `redis.call('EXPIRE', k, ttl)`
 *   (or PEXPIRE, without NX or LT), when `n` is compared with a limit only after the expiry
 *   (`n > limit`): every call re-arms the window, the denied ones too, so it never closes under
 *   steady traffic (an expiry after the limit check's early return re-arms only allowed calls);
 * - `redis.call('SET', k, v)` without an expiry or KEEPTTL, followed in the same block by
 *   `if redis.call('TTL', k) < 0 then redis.call('EXPIRE', k, ttl) end` (or through a local, or
 *   PTTL / `== -1`): the SET clears the TTL, so the check is true every time.
 *
 * An increment whose reply is not compared (an activity counter with a sliding TTL on purpose,
 * `01-increment-with-expire.lua`) is not reported.
 */
import type * as L from 'luaparse';
import { commandCall, expressionText, literalText, rangeOf, type CommandCall } from './walk/ast.js';
import { rearmedWindowMessage, ttlCheckAfterSetMessage } from './messages.js';
import type { ScriptIndex } from './script-index.js';
import { INCREMENT_COMMANDS } from '../semantics/commands.js';

/** One finding, before positions: the EXPIRE call and the message. */
export interface FixedWindowFinding {
  node: L.Node;
  message: string;
}

const EXPIRIES = new Set(['EXPIRE', 'PEXPIRE']);


/** The option tokens of a call: its literal arguments from the third after the name on (`SET k v EX 60`). */
function optionTokens(call: CommandCall): string[] {
  return tokens(call.node.arguments.slice(3));
}





/** A compact text of an expression, for comparing keys (`KEYS[1]`, `key`). */
function text(_source: string, node: L.Node): string {
  return expressionText(node);
}

function tokens(args: readonly L.Expression[]): string[] {
  return args.filter((a): a is L.StringLiteral => a.type === 'StringLiteral').map((a) => literalText(a).toUpperCase());
}

/**
 * The findings of `fixed-window-expire` in a script.
 * @param index the script's index (its blocks, and where names are compared with a limit)
 * @param source the script text
 */
export function fixedWindowFindings(index: ScriptIndex, source: string): FixedWindowFinding[] {
  const out: FixedWindowFinding[] = [];
  const compared = index.comparisons;
  for (const body of index.blocks) {
    // each finding takes two statements of one block (the write, then the expiry or the TTL check)
    if (body.length < 2) continue;
    // key text -> the increment whose reply went into a local, and that local's name
    let increments: Map<string, { command: string; local: string }> | undefined;
    let overwritten: Map<string, string> | undefined; // key text -> 'SET'
    let ttlLocals: Map<string, string> | undefined; // local name -> key text of its TTL / PTTL reply
    // (each made by its first entry: most blocks have none)
    for (const statement of body) {
      if (statement.type === 'LocalStatement' || statement.type === 'AssignmentStatement') {
        const call = commandCall(statement.init[0]);
        const target = statement.variables[0];
        if (call && call.key && target?.type === 'Identifier') {
          if (INCREMENT_COMMANDS.has(call.command)) (increments ??= new Map()).set(text(source, call.key), { command: call.command, local: target.name });
          if (call.command === 'TTL' || call.command === 'PTTL') (ttlLocals ??= new Map()).set(target.name, text(source, call.key));
        }
        continue;
      }
      const call = commandCall(statement);
      // only SET and the expiries are looked at: the key's text is built for those alone
      if (call && call.key && (call.command === 'SET' || EXPIRIES.has(call.command))) {
        const key = text(source, call.key);
        if (call.command === 'SET') {
          const options = optionTokens(call);
          if (!options.some((t) => ['EX', 'PX', 'EXAT', 'PXAT', 'KEEPTTL', 'NX', 'XX'].includes(t))) (overwritten ??= new Map()).set(key, 'SET');
          else overwritten?.delete(key);
        }
        if (EXPIRIES.has(call.command)) {
          const options = optionTokens(call);
          const increment = increments?.get(key);
          if (increment && !options.includes('NX') && !options.includes('LT')) {
            const expiryAt = rangeOf(call.node)[0];
            // the limit is checked after the expiry: denied calls re-arm the window too
            if ((compared.get(increment.local) ?? []).some((at) => at > expiryAt) && !(compared.get(increment.local) ?? []).some((at) => at < expiryAt)) {
              out.push({
                node: call.node,
                message: rearmedWindowMessage(call.command, text(source, call.key), increment.command),
              });
            }
          }
        }
        continue;
      }
      if (statement.type === 'IfStatement' && overwritten !== undefined) {
        const clause = statement.clauses[0];
        if (!clause || clause.type !== 'IfClause') continue;
        const test = clause.condition;
        if (test.type !== 'BinaryExpression') continue;
        const ttlCall = commandCall(test.left);
        const ttlKey = ttlCall && (ttlCall.command === 'TTL' || ttlCall.command === 'PTTL') && ttlCall.key ? text(source, ttlCall.key) : test.left.type === 'Identifier' ? ttlLocals?.get(test.left.name) : undefined;
        if (!ttlKey || !overwritten.has(ttlKey)) continue;
        const bound = test.right.type === 'NumericLiteral' ? test.right.value : test.right.type === 'UnaryExpression' && test.right.operator === '-' && test.right.argument.type === 'NumericLiteral' ? -test.right.argument.value : undefined;
        const noTtlTest = ((test.operator === '<' || test.operator === '<=') && bound === 0) || (test.operator === '==' && bound === -1);
        if (!noTtlTest) continue;
        for (const inner of clause.body) {
          const expiry = commandCall(inner);
          if (expiry && EXPIRIES.has(expiry.command) && expiry.key && text(source, expiry.key) === ttlKey) {
            out.push({
              node: expiry.node,
              message: ttlCheckAfterSetMessage(ttlKey, expiry.command),
            });
          }
        }
      }
    }
  }
  return out;
}
