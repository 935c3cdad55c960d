/**
 * Statements: blocks in order (a dead path stops), locals and assignments, function declarations,
 * `return` (an exit of the script, or of a helper back to its caller), `break`, `if` (each clause
 * on its guard's edge, joined), and the loops, handed to loops.ts. Each statement counts against
 * the step budget.
 */
import type * as L from 'luaparse';
import { clone, joinAll, NIL, UNKNOWN, type State, type Value } from '../state.js';
import { rangeOf } from './ast.js';
import { BudgetExceeded, STEP_BUDGET, type Ctx } from './base.js';
import { Loops } from './loops.js';
import { appendItem, isAppendIndex } from './values.js';

/** See the module comment. */
export abstract class Statements extends Loops {
  protected block(body: readonly L.Statement[], st: State, ctx: Ctx): State {
    let cur = st;
    for (const statement of body) {
      if (cur.dead) break;
      cur = this.statement(statement, cur, ctx);
    }
    return cur;
  }

  /** Runs a block in a scope of its own and forgets its locals afterwards (they are out of reach). */
  private scopedBlock(body: readonly L.Statement[], st: State, ctx: Ctx): State {
    const inner = this.child(ctx);
    const out = this.block(body, st, inner);
    this.dropScope(out, inner.scope);
    return out;
  }

  /** One statement on the path `st`; returns the path after it (dead after a return, break or raise). */
  private statement(node: L.Statement, st: State, ctx: Ctx): State {
    if (++this.steps > STEP_BUDGET) throw new BudgetExceeded();
    switch (node.type) {
      case 'LocalStatement': {
        const values = this.expressionList(node.init, st, ctx, node.variables.length);
        const variables = node.variables;
        for (let i = 0; i < variables.length; i++) this.declare(ctx.scope, st, variables[i]!.name, values[i] ?? NIL, variables[i]);
        return st;
      }
      case 'AssignmentStatement': {
        const values = this.expressionList(node.init, st, ctx, node.variables.length);
        for (let i = 0; i < node.variables.length; i++) {
          const target = node.variables[i]!;
          if (target.type === 'Identifier') this.assign(ctx.scope, st, target.name, values[i] ?? NIL);
          else if (target.type === 'MemberExpression') {
            // M.f = function ... end: remember the field, so that calls of M.f are followed.
            const base = this.expression(target.base, st, ctx);
            if (base.t === 'table' && base.fields) base.fields.set(target.identifier.name, values[i] ?? NIL);
          }
          else {
            const base = this.expression(target.base, st, ctx);
            this.expression(target.index, st, ctx);
            // t[#t + 1] = v appends, as table.insert(t, v) does.
            const value = values[i];
            if (base.t === 'table' && value && isAppendIndex(target)) appendItem(base, value);
          }
        }
        return st;
      }
      case 'CallStatement':
        this.expression(node.expression, st, ctx);
        return st;
      case 'FunctionDeclaration': {
        if (node.identifier?.type === 'Identifier') {
          const name = node.identifier.name;
          if (node.isLocal) this.declare(ctx.scope, st, name, UNKNOWN, node.identifier);
          const fn: Value = { t: 'fn', node, scope: ctx.scope, name };
          this.assign(ctx.scope, st, name, fn);
        } else if (node.identifier?.type === 'MemberExpression' && node.identifier.indexer === '.') {
          // function M.f(...) end
          const base = this.expression(node.identifier.base, st, ctx);
          const name = node.identifier.identifier.name;
          if (base.t === 'table' && base.fields) base.fields.set(name, { t: 'fn', node, scope: ctx.scope, name });
        }
        return st;
      }
      case 'ReturnStatement': {
        const values = this.expressionList(node.arguments, st, ctx, 1);
        if (st.dead) return st;
        const value = values[0] ?? NIL;
        if (ctx.fn.kind === 'entry') {
          this.exit(st, { kind: value.t === 'errorReply' ? 'error-reply' : 'return', offset: rangeOf(node)[0] });
        } else {
          ctx.fn.returns.push(clone(st));
          ctx.fn.returnValues.push(value);
          st.dead = true;
        }
        return st;
      }
      case 'BreakStatement': {
        const loop = ctx.fn.loops[ctx.fn.loops.length - 1];
        if (loop) loop.push(clone(st));
        st.dead = true;
        return st;
      }
      case 'DoStatement':
        return this.scopedBlock(node.body, st, ctx);
      case 'IfStatement':
        return this.ifStatement(node, st, ctx);
      case 'WhileStatement':
        return this.loop(st, ctx, false, (s, inner) => {
          const [t, f] = this.condition(node.condition, s, inner);
          return { next: t ? this.block(node.body, t, inner) : null, done: f };
        });
      case 'RepeatStatement':
        return this.loop(st, ctx, true, (s, inner) => {
          const after = this.block(node.body, s, inner);
          if (after.dead) return { next: null, done: null };
          const [t, f] = this.condition(node.condition, after, inner);
          return { next: f, done: t };
        });
      case 'ForNumericStatement':
        return this.forNumeric(node, st, ctx);
      case 'ForGenericStatement':
        return this.forGeneric(node, st, ctx);
      default:
        return st; // labels, goto (not Lua 5.1)
    }
  }

  /** Each clause on its guard's true edge, the next guard on its false edge, joined at the end. */
  private ifStatement(node: L.IfStatement, st: State, ctx: Ctx): State {
    const outs: State[] = [];
    let cur: State | null = st;
    for (const clause of node.clauses) {
      if (!cur) break;
      if (clause.type === 'ElseClause') {
        outs.push(this.scopedBlock(clause.body, cur, ctx));
        cur = null;
        break;
      }
      this.neverTrue = undefined;
      const [t, f]: [State | null, State | null] = this.condition(clause.condition, cur, ctx);
      if (t) outs.push(this.scopedBlock(clause.body, t, ctx));
      // A guard that is never true leaves the false edge as the state at the guard.
      else if (this.neverTrue && f) this.noteRejectedExpiries(clause.body, f, ctx, this.neverTrue);
      this.neverTrue = undefined;
      cur = f;
    }
    if (cur) outs.push(cur);
    return joinAll(outs);
  }
}
