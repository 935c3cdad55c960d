/**
 * Expressions: the value of each luaparse expression on a path (literals, names, tables, KEYS[i]
 * and ARGV[i], replies indexed, `and` / `or` walked as branches, comparisons that raise,
 * arithmetic); calls go to calls.ts.
 */
import type * as L from 'luaparse';
import { RANGE_READS, WHOLE_AGGREGATE_READS } from '../idioms.js';
import { adopt, clone, join, newReply, NIL, UNKNOWN, varFactsId, withReply, type State, type Value } from '../state.js';
import { rangeOf } from './ast.js';
import type { Ctx } from './base.js';
import { Guards } from './guards.js';
import {
  arithmetic,
  arithmeticFacts,
  ARGV_TABLE,
  builtin,
  element,
  GLOBAL_BUILTINS,
  KEYS_TABLE,
  keyValue,
  logicalValue,
  luaTypeOf,
  MAX_TABLE_ITEMS,
  memberBuiltin,
  mismatchedTypes,
  MULTI_ELEMENT_READS,
  narrowedValue,
  numberedKey,
} from './values.js';

/** See the module comment. */
export abstract class Expressions extends Guards {
  /** Evaluates a call (calls.ts). */
  protected abstract call(node: L.Node, baseNode: L.Expression, argNodes: readonly L.Expression[], st: State, ctx: Ctx): Value;

  private identifier(name: string, st: State, ctx: Ctx): Value {
    const id = this.lookupVar(ctx.scope, name);
    if (id !== undefined) return this.varFactsUsed ? this.narrowed(st, id, st.vars.get(id) ?? NIL) : (st.vars.get(id) ?? NIL);
    const global = this.globals.get(name);
    if (global !== undefined && st.vars.has(global)) return this.varFactsUsed ? this.narrowed(st, global, st.vars.get(global)!) : st.vars.get(global)!;
    switch (name) {
      case 'KEYS':
        return KEYS_TABLE;
      case 'ARGV':
        return ARGV_TABLE;
      case 'redis':
      case 'server':
        return builtin('redis');
      default:
        return GLOBAL_BUILTINS.has(name) ? builtin(name) : { t: 'unknown', node: { type: 'Identifier', name } as L.Identifier };
    }
  }

  /** A variable's value as the guards of the path narrowed it (`narrowedValue`). */
  private narrowed(st: State, id: number, value: Value): Value {
    const facts = st.vars.get(varFactsId(id));
    return facts?.t === 'varFacts' ? narrowedValue(value, facts) : value;
  }

  /** Evaluates expressions left to right; the last one may expand to several values. */
  protected expressionList(exprs: readonly L.Expression[], st: State, ctx: Ctx, want: number): Value[] {
    const values: Value[] = [];
    for (let i = 0; i < exprs.length; i++) {
      const value = this.expression(exprs[i]!, st, ctx);
      const last = i === exprs.length - 1;
      if (value.t === 'spread') {
        if (last && value.items) values.push(...value.items);
        else if (last && want === 0) values.push(value); // call arguments: keep the spread for the callee
        else if (last) for (let k = values.length; k < want; k++) values.push(value.of ? element(value.of) : UNKNOWN);
        else values.push(value.items?.[0] ?? (value.of ? element(value.of) : UNKNOWN));
      } else values.push(value);
    }
    return values;
  }

  /** The value of `node` on the path `st` (calls and `and` / `or` may change `st`; a dead path gives unknown). */
  protected expression(node: L.Expression, st: State, ctx: Ctx): Value {
    if (st.dead) return UNKNOWN;
    switch (node.type) {
      case 'StringLiteral':
        return { t: 'str', v: node.value ?? undefined! };
      case 'NumericLiteral':
        return { t: 'num', v: node.value };
      case 'BooleanLiteral':
        return { t: 'bool', v: node.value };
      case 'NilLiteral':
        return NIL;
      case 'VarargLiteral': {
        const id = this.lookupVar(ctx.scope, '...');
        return id !== undefined ? (st.vars.get(id) ?? UNKNOWN) : { t: 'spread' };
      }
      case 'Identifier':
        return this.identifier(node.name, st, ctx);
      case 'FunctionDeclaration':
        return { t: 'fn', node, scope: ctx.scope, name: 'function' };
      case 'TableConstructorExpression': {
        const fields = new Map<string, Value>();
        // The positional values, in order ({KEYS[1], ARGV[1], 'NX'}), so that unpack(t) and
        // table.insert(t, v) see them; a trailing unpack(...) or ... we cannot list makes the
        // list unknown.
        const items: Value[] = [];
        let listed = true;
        node.fields.forEach((field, i) => {
          const key = field.type === 'TableKey' ? this.expression(field.key, st, ctx) : undefined;
          const value = this.expression(field.value, st, ctx);
          if (field.type === 'TableKeyString') fields.set(field.key.name, value);
          else if (key?.t === 'str' && key.v !== undefined) fields.set(key.v, value);
          else if (field.type === 'TableValue') {
            if (value.t !== 'spread') items.push(value);
            else if (i < node.fields.length - 1) items.push(value.items?.[0] ?? (value.of ? element(value.of) : UNKNOWN));
            else if (value.items) items.push(...value.items);
            else listed = false;
          }
        });
        if (!listed) return { t: 'table', fields, unlisted: true };
        return items.length > 0 ? { t: 'table', fields, items: items.slice(0, MAX_TABLE_ITEMS) } : { t: 'table', fields };
      }
      case 'UnaryExpression': {
        const arg = this.expression(node.argument, st, ctx);
        if (node.operator === 'not') return { t: 'bool' };
        if (node.operator === '-') return arg.t === 'num' && arg.v !== undefined ? { t: 'num', v: -arg.v } : { t: 'num', mayBeNonPositive: true };
        // '#' of a whole hash / set as read: 0 exactly when the key is missing (empty ones do not exist).
        if (arg.t === 'reply' && WHOLE_AGGREGATE_READS.has(arg.command) && !arg.pcall) {
          return withReply(arg, { luaType: 'number', sizeOfReply: true });
        }
        // '#' of a range read: a positive count proves the key exists.
        if (arg.t === 'reply' && RANGE_READS.has(arg.command) && !arg.pcall && arg.keyId !== undefined) {
          return withReply(arg, { luaType: 'number', nonEmptyExists: true });
        }
        return { t: 'num' }; // '#'
      }
      case 'BinaryExpression':
        return this.binary(node, st, ctx);
      case 'LogicalExpression': {
        // Evaluated through the condition machinery so that calls in the right operand run only
        // on the paths where they run.
        const left = this.expression(node.left, st, ctx);
        const { ownKeys, ownVars } = st;
        const branch = clone(st);
        const right = this.expression(node.right, branch, ctx);
        if (!branch.dead && branch.keys === st.keys && branch.vars === st.vars && !ctx.fn.protected && st.keys.settled() === st.keys && st.vars.settled() === st.vars) {
          // The right operand wrote nothing (a write forks the branch's maps), no raise kept its
          // state (only a pcall keeps one) and no fork left a merged copy of the maps to build on:
          // the join is `st` as it was, which may go on writing in place.
          st.ownKeys = ownKeys;
          st.ownVars = ownVars;
        } else adopt(st, join(st, branch));
        return logicalValue(node.operator, left, right);
      }
      case 'MemberExpression': {
        const base = this.expression(node.base, st, ctx);
        if (base.t === 'builtin') return memberBuiltin(base.name, node.identifier.name);
        if (base.t === 'table' && base.fields?.has(node.identifier.name) && node.indexer === '.') return base.fields.get(node.identifier.name)!;
        if (base.t === 'unknown' && base.origin) return { t: 'unknown', node, origin: base.origin };
        return { t: 'unknown', node };
      }
      case 'IndexExpression': {
        const base = this.expression(node.base, st, ctx);
        const index = this.expression(node.index, st, ctx);
        if (base.t === 'keys') {
          if (index.t === 'num' && index.v !== undefined) return numberedKey(base.name, index.v);
          if (index.t === 'num' && index.keyIndex?.table === base.name) {
            const from = index.keyIndex.from;
            return from <= 1 ? keyValue(base.name, '*') : keyValue(base.name, `${from}..`);
          }
          // Any other computed index is one key we cannot name: it stands for itself only.
          return keyValue(base.name, this.textOf(node.index));
        }
        if (base.t === 'argv') {
          const literal = index.t === 'num' && index.v !== undefined ? index.v : '*';
          return { t: 'str', argv: literal };
        }
        if (base.t === 'reply' && !base.pcall && index.t === 'num' && index.v !== undefined && MULTI_ELEMENT_READS.has(base.command)) {
          // HMGET(...)[i] / ZMSCORE(...)[i]: that field's value or false (like HGET); MGET(...)[i]: the
          // i-th key's value or false (like GET on that key).
          if (base.command === 'MGET') {
            const element = base.elements?.[index.v - 1];
            if (element) {
              const reply = newReply('GET', element.version, false);
              reply.keyId = element.keyId;
              reply.pending = element.pending;
              return reply;
            }
            return { t: 'unknown', node, origin: 'reply' };
          }
          return withReply(base, { elements: undefined, luaType: undefined, command: base.command === 'HMGET' ? 'HGET' : 'ZSCORE' });
        }
        if (base.t === 'reply' && !base.pcall && base.keyId !== undefined && index.t === 'num' && index.v !== undefined && (RANGE_READS.has(base.command) || WHOLE_AGGREGATE_READS.has(base.command))) {
          // An element of a range or whole read (ZRANGE(...)[1]): a string, or false when there is none; truthy proves the key exists.
          const elementOf = newReply('LINDEX', base.version, false);
          elementOf.keyId = base.keyId;
          elementOf.pending = base.pending;
          return elementOf;
        }
        if (base.t === 'reply' && base.command === 'TIME' && index.t === 'num' && (index.v === 1 || index.v === 2)) {
          // TIME answers { unix seconds, microseconds } (https://redis.io/docs/latest/commands/time/).
          return { t: 'num', clock: index.v === 1 ? 'now-s' : 'us' };
        }
        if (base.t === 'reply' || (base.t === 'unknown' && base.origin)) return { t: 'unknown', node, origin: base.t === 'reply' ? 'reply' : base.origin! };
        return { t: 'unknown', node };
      }
      case 'CallExpression':
        return this.call(node, node.base, node.arguments, st, ctx);
      case 'StringCallExpression':
        return this.call(node, node.base, [node.argument], st, ctx);
      case 'TableCallExpression':
        return this.call(node, node.base, [node.arguments], st, ctx);
      default:
        return UNKNOWN;
    }
  }

  /** A binary operator: concatenation, comparisons (an ordering of a number with a string raises), arithmetic. */
  private binary(node: L.BinaryExpression, st: State, ctx: Ctx): Value {
    const left = this.expression(node.left, st, ctx);
    const right = this.expression(node.right, st, ctx);
    switch (node.operator) {
      case '..':
        return left.t === 'str' && right.t === 'str' && left.v !== undefined && right.v !== undefined
          ? { t: 'str', v: left.v + right.v }
          : { t: 'str', node };
      case '==':
      case '~=':
        return { t: 'bool' };
      case '<':
      case '>':
      case '<=':
      case '>=': {
        if (mismatchedTypes(left, right)) this.raise(st, ctx, { kind: 'compare-error', offset: rangeOf(node)[0], compared: `${luaTypeOf(left)} with ${luaTypeOf(right)}` });
        return { t: 'bool' };
      }
      default: {
        if (left.t === 'num' && right.t === 'num' && left.v !== undefined && right.v !== undefined) {
          const v = arithmetic(node.operator, left.v, right.v);
          return v === undefined ? { t: 'num' } : { t: 'num', v };
        }
        return arithmeticFacts(node.operator, left, right);
      }
    }
  }
}
