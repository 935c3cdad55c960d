/**
 * The path-sensitive walk over a Redis script: an abstract interpretation over the statements in
 * which the state maps each key (`KEYS[1]`, `KEYS[*]` for "every key" in a loop, a key built in the
 * script) to what this script has done to it: the write sites that may have left it without a TTL
 * ("pending"), and whether it is known to exist. Branches fork the state, joins keep the worst case
 * per key, loops run until the state stops changing, calls of local functions are followed, and
 * every exit (return, end of chunk, `error`, a failing `assert`, `redis.error_reply`, a comparison
 * that raises) checks the promise: no pending key.
 *
 * Redis semantics come from `semantics/commands.ts` (what a command does to a key) and
 * `../idioms.ts` (what a guard proves); the values and the state are `../state.ts`. The walk is one
 * class built in layers, a module each, every layer adding one concern on top of the ones below:
 *
 * - ast.ts: offsets and spellings of luaparse nodes (imported by any module);
 * - values.ts: what a value is without a state (builtins, KEYS[i], arithmetic, `and` / `or`);
 * - base.ts: input and result, scopes and variables, write sites, versions, keys, the findings store;
 * - findings.ts: exits (the promise checked, leaks recorded), TTL argument checks, the findings made at the end;
 * - effects.ts: a Redis command applied to the state, from `semantics/commands.ts`;
 * - guards.ts: conditions, and what each edge of a test proves;
 * - expressions.ts: the value of an expression;
 * - calls.ts: builtins, the script's own functions, pcall, redis.call handed to effects.ts;
 * - loops.ts: loops to a fixpoint, loops over KEYS;
 * - statements.ts: statements and blocks;
 * - walker.ts: the entry (the chunk, then each registered function) and {@link walkScript}.
 *
 * A layer calls only down, except where the walk recurses (a guard evaluates an expression, an
 * expression makes a call, a call walks a function's body): that method is declared `abstract` in
 * the layer that needs it and implemented above, so the imports all point down.
 */
import type * as L from 'luaparse';
import { newState, type Scope, type State, type Value } from '../state.js';
import { rangeOf } from './ast.js';
import { BudgetExceeded, STEP_BUDGET, type WalkInput, type WalkResult } from './base.js';
import { Statements } from './statements.js';

export type { RawFinding, WalkInput, WalkResult } from './base.js';

class Walker extends Statements {
  run(): WalkResult {
    const { ast, source } = this.input;
    const globals: Scope = { names: undefined };
    const st: State = newState();
    let incomplete: string | undefined;
    try {
      const fn = this.newFn('entry');
      const end = this.block(ast.body, st, { scope: globals, fn });
      if (!end.dead) this.exit(end, { kind: 'end', offset: lastCodeOffset(source) });
      // Redis 7 function libraries: each registered callback is a script of its own.
      const analysed = new Set<L.FunctionDeclaration>();
      for (let i = 0; i < this.registered.length; i++) {
        const callback = this.registered[i]!;
        if (callback.t !== 'fn' || analysed.has(callback.node)) continue;
        analysed.add(callback.node);
        this.entry(callback, end.dead ? st : end);
      }
    } catch (error) {
      if (error instanceof BudgetExceeded) incomplete = `the script needs more than ${STEP_BUDGET} analysis steps (split it into smaller scripts or functions)`;
      else if (error instanceof RangeError && /call stack/i.test(error.message)) incomplete = 'the script nests expressions or statements too deeply';
      else throw error;
    }
    const findings = this.collect();
    incomplete ??= this.unfollowed;
    return incomplete === undefined ? { findings } : { findings, incomplete };
  }

  /** A callback of `redis.register_function`, walked as a script of its own (its `keys` / `args` are KEYS / ARGV). */
  private entry(callback: Extract<Value, { t: 'fn' }>, base: State): void {
    base.ownVars = false;
    const st: State = newState(base.vars, false);
    const scope: Scope = { parent: callback.scope, names: undefined };
    const [keysParam, argsParam] = callback.node.parameters;
    if (keysParam?.type === 'Identifier') this.declare(scope, st, keysParam.name, { t: 'keys', name: keysParam.name }, keysParam);
    if (argsParam?.type === 'Identifier') this.declare(scope, st, argsParam.name, { t: 'argv', name: argsParam.name }, argsParam);
    const previous = this.entryName;
    this.entryName = callback.name;
    const fn = this.newFn('entry', callback.name);
    const end = this.block(callback.node.body, st, { scope, fn });
    if (!end.dead) this.exit(end, { kind: 'end', offset: Math.max(0, rangeOf(callback.node)[1] - 3) });
    this.entryName = previous;
  }
}

function lastCodeOffset(source: string): number {
  let end = source.length - 1;
  while (end > 0 && /\s/.test(source[end]!)) end--;
  return Math.max(0, end);
}

/**
 * Walks a parsed script and returns its raw findings.
 * @throws never on well-formed luaparse ASTs; a step budget stops pathological inputs.
 */
export function walkScript(input: WalkInput): WalkResult {
  return new Walker(input).run();
}
