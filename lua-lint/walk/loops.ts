/**
 * Loops: `while`, `repeat` and `for` run to a fixpoint (at most {@link MAX_LOOP_ITERATIONS}
 * rounds, joined); a loop over the keys of KEYS (`for i = 1, #KEYS`, `ipairs(KEYS)`) runs on an
 * element key that stands for every key, and what it did to the element holds for each key once
 * the loop ends ({@link Loops.everyKey}); when its body can leave midway, its first iterations run
 * on the keys the script names, one by one ({@link Loops.keysLoop}).
 */
import type * as L from 'luaparse';
import {
  clone,
  equalStates,
  getKey,
  join,
  joinAll,
  joinKeys,
  newKeyState,
  NIL,
  NUMBER,
  setKey,
  setVar,
  union,
  universalId,
  UNKNOWN,
  withKey,
  withReply,
  type KeyState,
  type State,
  type Value,
} from '../state.js';
import { keyFactsOfComparison, RANGE_READS, WHOLE_AGGREGATE_READS, type KeyFacts } from '../idioms.js';
import { statementExits } from './ast.js';
import type { Ctx } from './base.js';
import { Calls } from './calls.js';

const MAX_LOOP_ITERATIONS = 6;

/** The first index a key id of a KEYS-like table stands for: 3 for `KEYS[3]` and for `KEYS[3..]`; undefined for others. */
function keyIndexOf(id: string, prefix: string): number | undefined {
  const inside = id.slice(prefix.length, id.endsWith('..]') ? -3 : -1);
  const index = Number(inside);
  return inside !== '' && Number.isInteger(index) ? index : undefined;
}
/** How many iterations of a loop over KEYS run on named keys before the generic element. */
const MAX_UNROLLED_KEYS = 8;
/** A pending "site" that marks the element key of a loop over KEYS (never reported). */
const LOOP_MARKER = -1;

/** See the module comment. */
export abstract class Loops extends Calls {
  private readonly exits = new WeakMap<object, boolean>();

  private keyIndexes: Map<string, number> | undefined;

  /**
   * Whether a loop body can leave the loop or the script midway (`return`, `break`, `error`,
   * `assert`): only then do the iterations over the keys the script names run one by one.
   */
  private exitsInside(body: readonly L.Statement[]): boolean {
    let known = this.exits.get(body);
    if (known === undefined) {
      known = body.some(statementExits);
      this.exits.set(body, known);
    }
    return known;
  }

  /**
   * The highest literal index the script spells for a table (`KEYS[3]` -> 3), 0 when none. Read
   * from the text (a comment that spells `KEYS[9]` only makes a loop visit more keys by name).
   */
  private maxKeyIndex(table: string): number {
    this.keyIndexes ??= new Map();
    let max = this.keyIndexes.get(table);
    if (max === undefined) {
      max = 0;
      const spelled = new RegExp(`(?<![\\w.])${table.replace(/[^\w]/g, '')}\\s*\\[\\s*(\\d+)\\s*\\]`, 'g');
      for (const match of this.input.source.matchAll(spelled)) max = Math.max(max, Number(match[1]));
      this.keyIndexes.set(table, max);
    }
    return max;
  }

  /**
   * A loop over the keys of a KEYS-like table from index `from` on (`for i = from, #KEYS`,
   * `ipairs(KEYS)`). Its iterations over the keys the script names (`KEYS[from]` to the highest
   * `KEYS[m]` it spells, at most {@link MAX_UNROLLED_KEYS}) run on those keys themselves, so a
   * `return` or `break` in one of them is known to have touched only the keys before; the others
   * run on the element `KEYS[m+1..]`, and what they do to it holds for each of those keys once the
   * loop ends. The script is assumed to pass every key it names (`KEYS[3]` exists when it spells it).
   */
  private keysLoop(
    st: State,
    ctx: Ctx,
    table: string,
    from: number,
    body: (head: State, inner: Ctx, key: { named: true; index: number } | { named: false; from: number }) => State,
  ): State {
    const breaks: State[] = [];
    // The keys the script names (KEYS[1] .. KEYS[m]) exist, so the loop visits each of them.
    const last = Math.max(from, Math.min(from + MAX_UNROLLED_KEYS - 1, this.maxKeyIndex(table)));
    let after = st;
    for (let index = from; index <= last && !after.dead; index++) {
      ctx.fn.loops.push(breaks);
      const inner = this.child(ctx);
      after = body(clone(after), inner, { named: true, index });
      this.dropScope(after, inner.scope);
      for (const b of breaks) this.dropScope(b, inner.scope);
      ctx.fn.loops.pop();
    }
    if (after.dead) return joinAll(breaks);
    const rest = this.loop(
      after,
      ctx,
      true,
      (head, next) => {
        const end = body(head, next, { named: false, from: last + 1 });
        return { next: end, done: end.dead ? null : clone(end) };
      },
      { table, id: `${table}[${last + 1}..]`, from: last + 1 },
    );
    return joinAll([rest, ...breaks]);
  }

  /**
   * Runs a loop to a fixpoint. `iterate` runs one iteration from a head state and returns the
   * state that goes round again (`next`) and the state that leaves normally (`done`).
   * With `atLeastOnce`, the state before the loop is not a way out (loops over KEYS, repeat).
   */
  protected loop(
    st: State,
    ctx: Ctx,
    atLeastOnce: boolean,
    iterate: (head: State, inner: Ctx) => { next: State | null; done: State | null },
    element?: { table: string; id: string; from: number },
  ): State {
    const exits: State[] = [];
    const breaks: State[] = [];
    ctx.fn.loops.push(breaks);
    let head = st;
    let start: number | undefined;
    let before: KeyState | undefined;
    let createdBefore = 0;
    if (element) {
      // The element key starts each loop with a marker pending site and a fresh version: at the
      // end, a marker gone on every path means every key got an expiry or was deleted.
      start = this.bump();
      createdBefore = this.creations.get(element.id) ?? 0;
      before = this.elementAtEntry(st, element);
      head = clone(st);
      setKey(head, element.id, withKey(before, { pending: union(before.pending, [LOOP_MARKER]), version: start, lastDelete: before.lastDelete }));
    }
    for (let i = 0; i < MAX_LOOP_ITERATIONS; i++) {
      const inner = this.child(ctx);
      const { next, done } = iterate(clone(head), inner);
      if (next) this.dropScope(next, inner.scope);
      if (done) this.dropScope(done, inner.scope);
      if (done && !done.dead) exits.push(done);
      if (!next || next.dead) break;
      const joined = join(head, next);
      if (equalStates(joined, head)) break;
      head = joined;
    }
    ctx.fn.loops.pop();
    if (!atLeastOnce) exits.push(head);
    if (!element) return joinAll([...exits, ...breaks]);
    // A loop over KEYS without an exit inside: the generic element stands for every key.
    // Leaving normally, the loop ran its body once for every key: what it did to the element, it
    // did to each key. Leaving by break (or before the first iteration) it did so for some only.
    const done = joinAll(exits);
    if (!done.dead) this.everyKey(done, element, start!, before!, createdBefore);
    for (const b of breaks) this.dropMarker(b, element.id);
    return joinAll([done, ...breaks]);
  }

  /**
   * The element key's state as a loop over the keys of `element.table` from `element.from` on
   * starts: what is known of every key it will visit. The element's own (or the table's universal)
   * state says what held for every key once an earlier loop ended; a key written since by name
   * (`DEL KEYS[1]` after a loop that gave every key a TTL) may no longer be so, and the element
   * takes the worst of both (its own pending writes only: a key's leaks stay that key's).
   */
  private elementAtEntry(st: State, element: { table: string; id: string; from: number }): KeyState {
    const own = getKey(st, element.id);
    let joined = own;
    const prefix = `${element.table}[`;
    for (const [id, key] of st.keys) {
      if (id === element.id || !id.startsWith(prefix) || id.endsWith('[#]') || id.endsWith('[*]')) continue;
      const index = keyIndexOf(id, prefix);
      if (index !== undefined && index >= element.from) joined = joinKeys(joined, key);
    }
    return joined === own ? own : withKey(joined, { pending: own.pending, version: own.version, created: undefined, noTtl: own.noTtl, fieldSites: own.fieldSites });
  }

  private dropMarker(st: State, id: string): void {
    const key = st.keys.get(id);
    if (key && key.pending.includes(LOOP_MARKER)) setKey(st, id, withKey(key, { pending: key.pending.filter((site) => site !== LOOP_MARKER) }));
  }

  /**
   * Applies what a loop (or a command over `unpack(KEYS)`) did to its element key to every key of
   * the table from index `from` on: the keys with a state of their own, and the table's universal
   * state for the others. `before` is the element's state when the loop started: what the body
   * neither wrote nor learned (by a guard) about the element leaves each key as it was, even when
   * that state says more than "maybe" (the element of `for i = 1, #KEYS` is the universal key,
   * which earlier guards may have set to "exists" while one key was deleted since).
   */
  private everyKey(st: State, element: { table: string; id: string; from: number }, start: number, before: KeyState, createdBefore: number): void {
    const el = st.keys.get(element.id);
    if (!el) return;
    const cleared = !el.pending.includes(LOOP_MARKER);
    const pending = el.pending.filter((site) => site !== LOOP_MARKER);
    const touched = el.version !== start || el.lastDelete > start;
    const deleted = el.lastDelete > start;
    // A write of the body that may have created the element (an expiry or a removal cannot).
    const mayCreate = (this.creations.get(element.id) ?? 0) > createdBefore;
    setKey(st, element.id, withKey(el, { pending }));
    // What the loop learned about the element: a write, or a guard that changed what is known of
    // it; what the element only inherited from the state before the loop says nothing of a key
    // with a state of its own.
    const learnedExists = deleted || mayCreate || el.exists !== before.exists;
    const learnedTtl = touched || !el.ttl !== !before.ttl;
    const apply = (key: KeyState): KeyState => {
      if (!cleared && !learnedExists && !learnedTtl) return key;
      const exists = !learnedExists
        ? key.exists
        : el.exists !== 'maybe'
          ? el.exists
          : (deleted && key.exists === 'yes') || (mayCreate && key.exists === 'no')
            ? 'maybe'
            : key.exists;
      const next = newKeyState(
        cleared ? [] : key.pending,
        exists,
        touched ? this.bump() : key.version,
        deleted ? Math.max(key.lastDelete, el.lastDelete) : key.lastDelete,
      );
      if ((learnedTtl && el.ttl) || (!touched && key.ttl)) next.ttl = true;
      return next;
    };
    const prefix = `${element.table}[`;
    // Setting an existing entry while iterating a Map is safe (and a copy on write iterates the old map).
    for (const [id, key] of st.keys) {
      if (id === element.id || !id.startsWith(prefix) || id.endsWith('[#]')) continue;
      // KEYS[3], and KEYS[3..] (the element of an earlier loop that ran its first keys by name)
      const index = keyIndexOf(id, prefix);
      if (index !== undefined && index >= element.from) setKey(st, id, apply(key));
    }
    // Keys met later take the universal state; the ones below `from` keep their own.
    const universal = universalId(element.table);
    for (let i = 1; i < element.from; i++) {
      const id = `${element.table}[${i}]`;
      if (!st.keys.has(id)) setKey(st, id, getKey(st, id));
    }
    const next = apply(getKey(st, universal));
    if (st.keys.has(universal) || next.exists !== 'maybe' || next.ttl || next.lastDelete > 0) setKey(st, universal, withKey(next, { pending: [] }));
  }

  /** `for i = a, b[, s]`: over the keys of KEYS when `b` is `#KEYS`, else a plain loop. */
  protected forNumeric(node: L.ForNumericStatement, st: State, ctx: Ctx): State {
    const start = this.expression(node.start, st, ctx);
    const end = this.expression(node.end, st, ctx);
    if (node.step) this.expression(node.step, st, ctx);
    const keysTable = node.end.type === 'UnaryExpression' && node.end.operator === '#' ? this.expression(node.end.argument, st, ctx) : undefined;
    const overKeys = keysTable?.t === 'keys';
    const stepOne = !node.step || (node.step.type === 'NumericLiteral' && node.step.value === 1);
    // `for i = s, #KEYS do ... KEYS[i]`: i runs over the keys from s on (every key when s is 1).
    const index: Value =
      keysTable?.t === 'keys' && start.t === 'num' && start.v !== undefined && Number.isInteger(start.v) && stepOne
        ? { t: 'num', keyIndex: { table: keysTable.name, from: start.v } }
        : NUMBER;
    const literalOnce =
      start.t === 'num' && end.t === 'num' && start.v !== undefined && end.v !== undefined && start.v <= end.v && !node.step;
    const element = index.t === 'num' && index.keyIndex ? { table: index.keyIndex.table, from: Math.max(1, index.keyIndex.from) } : undefined;
    // `for i = 1, #entries` over a whole hash / set read: the body never runs when the key is
    // missing, so a counter that was 0 before the loop is still 0 then.
    const zeroBefore = end.t === 'reply' && end.sizeOfReply && end.keyId !== undefined ? [...st.vars].filter(([, v]) => v.t === 'num' && v.v === 0).map(([id]) => id) : [];
    const out = element && this.exitsInside(node.body)
      ? this.keysLoop(st, ctx, element.table, element.from, (head, inner, key) => {
          const i: Value = key.named ? { t: 'num', v: key.index } : { t: 'num', keyIndex: { table: element.table, from: key.from } };
          this.declare(inner.scope, head, node.variable.name, i, node.variable);
          return this.block(node.body, head, inner);
        })
      : this.loop(
          st,
          ctx,
          overKeys || literalOnce,
          (head, inner) => {
            this.declare(inner.scope, head, node.variable.name, index, node.variable);
            const after = this.block(node.body, head, inner);
            return { next: after, done: after.dead ? null : clone(after) };
          },
          element ? { table: element.table, id: element.from <= 1 ? `${element.table}[*]` : `${element.table}[${element.from}..]`, from: element.from } : undefined,
        );
    if (end.t === 'reply' && end.keyId !== undefined && !out.dead) {
      const zeroWhenMissing = { keyId: end.keyId, version: end.version, pending: end.pending ?? [] };
      for (const id of zeroBefore) {
        const after = out.vars.get(id);
        if (after && !(after.t === 'num' && after.v === 0)) setVar(out, id, { t: 'num', zeroWhenMissing });
      }
    }
    return out;
  }

  /** `for k, v in ipairs(t)` / `pairs(t)`: over the keys of KEYS, ARGV, a reply, a table the script built. */
  protected forGeneric(node: L.ForGenericStatement, st: State, ctx: Ctx): State {
    let element: Value = UNKNOWN;
    let overKeys = false;
    let keysTable: string | undefined;
    let ipairs = false;
    let nonEmpty: KeyFacts | undefined;
    const iterator = node.iterators[0];
    if (iterator && iterator.type === 'CallExpression' && node.iterators.length === 1) {
      const callee = this.expression(iterator.base, st, ctx);
      const arg = iterator.arguments[0] ? this.expression(iterator.arguments[0], st, ctx) : UNKNOWN;
      if (callee.t === 'builtin' && (callee.name === 'ipairs' || callee.name === 'pairs')) {
        ipairs = callee.name === 'ipairs';
        if (arg.t === 'keys') {
          element = { t: 'key', id: `${arg.name}[*]` };
          overKeys = true;
          keysTable = arg.name;
        } else if (arg.t === 'argv') element = { t: 'str', argv: '*' };
        else if ((arg.t === 'unknown' && arg.origin) || arg.t === 'reply') element = { t: 'unknown', origin: arg.t === 'reply' ? 'reply' : arg.origin! };
        // a turn over the elements of a range read (`ZRANGEBYSCORE`, `LRANGE`, `SMEMBERS`, ...) is taken
        // only when it answered some: its key existed then (like `#reply > 0`, idioms.ts RANGE_READS)
        if (arg.t === 'reply' && !arg.pcall && arg.keyId !== undefined && (RANGE_READS.has(arg.command) || WHOLE_AGGREGATE_READS.has(arg.command))) {
          nonEmpty = keyFactsOfComparison(withReply(arg, { luaType: 'number', nonEmptyExists: true }), '>', { t: 'num', v: 0 });
        }
        else if (arg.t === 'table' && arg.fields && arg.fields.size > 0) element = { t: 'each', values: [...arg.fields.values()] };
      }
    } else {
      for (const it of node.iterators) this.expression(it, st, ctx);
    }
    if (keysTable !== undefined && ipairs && this.exitsInside(node.body)) {
      const table = keysTable;
      return this.keysLoop(st, ctx, table, 1, (head, inner, key) => {
        const values: Value[] = key.named
          ? [{ t: 'num', v: key.index }, { t: 'key', id: `${table}[${key.index}]` }]
          : [{ t: 'num', keyIndex: { table, from: key.from } }, { t: 'key', id: `${table}[${key.from}..]` }];
        node.variables.forEach((variable, i) => this.declare(inner.scope, head, variable.name, values[i] ?? NIL, variable));
        return this.block(node.body, head, inner);
      });
    }
    return this.loop(
      st,
      ctx,
      overKeys,
      (turn, inner) => {
        const head = (nonEmpty && this.applyFacts(turn, nonEmpty)[0]) || turn;
        node.variables.forEach((variable, i) => this.declare(inner.scope, head, variable.name, i === 1 ? element : UNKNOWN, variable));
        const after = this.block(node.body, head, inner);
        return { next: after, done: after.dead ? null : clone(after) };
      },
      keysTable !== undefined ? { table: keysTable, id: `${keysTable}[*]`, from: 1 } : undefined,
    );
  }
}
