/**
 * The path-sensitive walk over a Redis script: an abstract interpretation over the statements in
 * which the state maps each key (`KEYS[1]`, `KEYS[*]` for "every key" in a loop, a key built in the
 * script) to what this script has done to it: the write sites that may have left it without a TTL
 * ("pending"), and whether it is known to exist. Branches fork the state, joins keep the worst case
 * per key, loops run until the state stops changing, calls of local functions are followed, and
 * every exit (return, end of chunk, `error`, a failing `assert`, `redis.error_reply`, a comparison
 * that raises) checks the promise: no pending key.
 *
 * Redis semantics come from `semantics/commands.ts` (what a command does to a key) and `idioms.ts` (what a
 * guard proves); this file only walks.
 */
import type * as L from 'luaparse';
import { describeCommand, type CommandArg, type CommandDescription, type KeyEffect } from '../semantics/commands.js';
import {
  keyFactsOfComparison,
  keyFactsOfTruth,
  MOVES_REPLYING_THE_ELEMENT,
  REPLY_TO_STRING_COMMANDS,
  SIZE_READS,
  alwaysStatusReply,
  createdSize,
  replyLuaType,
  replyWhenCreated,
  WHOLE_AGGREGATE_READS,
  type KeyFacts,
} from './idioms.js';
import {
  adopt,
  clone,
  equalStates,
  FRESH_KEY,
  join,
  joinAll,
  joinNullable,
  newState,
  NIL,
  NUMBER,
  sameValue,
  setKey,
  setVar,
  getKey,
  universalId,
  union,
  UNKNOWN,
  type KeyState,
  type NumValue,
  type Reply,
  type Scope,
  type State,
  type Value,
} from './state.js';
import type { LuaRuleId } from './types.js';

// ---------------------------------------------------------------------------------------------
// Results

/** A write that can leave a key without TTL. */
export interface WriteSite {
  id: number;
  node: L.Node;
  command: string;
  keyName: string;
  effect: KeyEffect;
  rule: 'write-path-needs-ttl' | 'keepttl-needs-existing-key';
}

/** How a path left the script. */
export interface Exit {
  kind: 'return' | 'end' | 'error' | 'error-reply' | 'assert' | 'compare-error' | 'command-error';
  /** Offset of the exit in the source. */
  offset: number;
  /** For a Redis 7 function: its registered name. */
  functionName?: string;
}

/** A finding before positions and severities are applied. */
export interface RawFinding {
  ruleId: LuaRuleId;
  node: L.Node;
  message: string;
  /** The key concerned, as spelled in the script (for persistence checks). */
  keyNames?: string[];
}

/** The result of {@link walkScript}. */
export interface WalkResult {
  findings: RawFinding[];
  /** Set when the walk gave up (too many steps, or nesting deeper than the walker's stack): the result proves nothing. */
  incomplete?: string;
}

/** Input of {@link walkScript}. */
export interface WalkInput {
  ast: L.Chunk;
  source: string;
  /** Whether a write to a key (by any of its spellings) at a line is persistent on purpose. */
  isPersistent(names: readonly string[], line: number): boolean;
  lineOf(offset: number): number;
  /** The line number messages print for an offset (defaults to `lineOf`). */
  messageLineOf?(offset: number): number;
}

export function rangeOf(node: L.Node): [number, number] {
  return (node as L.Node & { range?: [number, number] }).range ?? [0, 0];
}

// ---------------------------------------------------------------------------------------------
// The walker

interface FnContext {
  kind: 'entry' | 'helper';
  name?: string;
  returns: State[];
  returnValues: Value[];
  /** Inside pcall(f): an error returns to the caller instead of ending the script. */
  protected: boolean;
  loops: State[][];
}

interface Ctx {
  scope: Scope;
  fn: FnContext;
}

const MAX_LOOP_ITERATIONS = 6;
/** A pending "site" that marks the element key of a loop over KEYS (never reported). */
const LOOP_MARKER = -1;
const MAX_CALL_DEPTH = 8;
const STEP_BUDGET = 200_000;

class BudgetExceeded extends Error {}

const GLOBAL_BUILTINS = new Set([
  'tonumber', 'tostring', 'type', 'error', 'assert', 'pcall', 'xpcall', 'unpack', 'ipairs', 'pairs', 'next',
  'select', 'rawget', 'rawset', 'rawequal', 'setmetatable', 'getmetatable', 'math', 'string', 'table', 'cjson',
  'cmsgpack', 'bit', 'struct', 'os', 'print', 'loadstring',
]);

/** Effects that write only when they create the key: an existing key keeps its TTL. */
const CREATION_ONLY: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['create-in-place', 'create-if-missing', 'keep-ttl']);


class Walker {
  private readonly findings = new Map<L.Node, Map<LuaRuleId, RawFinding>>();
  private readonly sites: WriteSite[] = [];
  private readonly siteIds = new Map<L.Node, Partial<Record<WriteSite['rule'], number>>>();
  private readonly leaks = new Map<number, { exit: Exit; keyId: string; otherKeys: Set<string> }>();
  private readonly registered: Value[] = [];
  private nextVar = 1;
  private nextVersion = 1;
  private steps = 0;
  private readonly callStack: L.FunctionDeclaration[] = [];
  private entryName: string | undefined;

  constructor(private readonly input: WalkInput) {}

  run(): WalkResult {
    const { ast, source } = this.input;
    const globals: Scope = { names: new Map() };
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
    for (const [siteId, leak] of this.leaks) {
      const keyName = leak.otherKeys.size > 0 ? `${leak.keyId} (and ${[...leak.otherKeys].join(', ')}, through other calls)` : leak.keyId;
      this.reportLeak(this.sites[siteId]!, leak.exit, keyName);
    }
    incomplete ??= this.unfollowed;
    const findings = [...this.findings.values()].flatMap((byRule) => [...byRule.values()]);
    return incomplete === undefined ? { findings } : { findings, incomplete };
  }

  // -- entries and exits ------------------------------------------------------------------------

  private newFn(kind: FnContext['kind'], name?: string, isProtected = false): FnContext {
    const fn: FnContext = { kind, returns: [], returnValues: [], protected: isProtected, loops: [] };
    if (name !== undefined) fn.name = name;
    return fn;
  }

  private entry(callback: Extract<Value, { t: 'fn' }>, base: State): void {
    base.ownVars = false;
    const st: State = newState(base.vars, false);
    const scope: Scope = { parent: callback.scope, names: new Map() };
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

  private exit(st: State, exit: Exit): void {
    if (st.dead) return;
    const withName = this.entryName !== undefined ? { ...exit, functionName: this.entryName } : exit;
    for (const [keyId, key] of st.keys) {
      for (const site of key.pending) {
        if (site < 0) continue;
        const leak = this.leaks.get(site);
        if (!leak) this.leaks.set(site, { exit: withName, keyId, otherKeys: new Set() });
        else if (leak.keyId !== keyId) leak.otherKeys.add(keyId); // a helper's write, called on several keys
      }
    }
    st.dead = true;
  }

  /** An `error(...)`: ends the script, or returns to a protecting pcall. */
  private raise(st: State, ctx: Ctx, exit: Exit): void {
    if (st.dead) return;
    if (ctx.fn.protected) {
      ctx.fn.returns.push(clone(st));
      st.dead = true;
      return;
    }
    this.exit(st, exit);
  }

  // -- statements -------------------------------------------------------------------------------

  private block(body: readonly L.Statement[], st: State, ctx: Ctx): State {
    let cur = st;
    for (const statement of body) {
      if (cur.dead) break;
      cur = this.statement(statement, cur, ctx);
    }
    return cur;
  }

  private child(ctx: Ctx): Ctx {
    return { scope: { parent: ctx.scope, names: new Map() }, fn: ctx.fn };
  }

  /** Runs a block in a scope of its own and forgets its locals afterwards (they are out of reach). */
  private scopedBlock(body: readonly L.Statement[], st: State, ctx: Ctx): State {
    const inner = this.child(ctx);
    const out = this.block(body, st, inner);
    this.dropScope(out, inner.scope);
    return out;
  }

  private dropScope(st: State, scope: Scope): void {
    if (st.dead || scope.names.size === 0) return;
    for (const id of scope.names.values()) {
      if (!st.vars.has(id)) continue;
      if (!st.ownVars) {
        st.vars = new Map(st.vars);
        st.ownVars = true;
      }
      st.vars.delete(id);
    }
  }

  private statement(node: L.Statement, st: State, ctx: Ctx): State {
    if (++this.steps > STEP_BUDGET) throw new BudgetExceeded();
    switch (node.type) {
      case 'LocalStatement': {
        const values = this.expressionList(node.init, st, ctx, node.variables.length);
        node.variables.forEach((variable, i) => this.declare(ctx.scope, st, variable.name, values[i] ?? NIL, variable));
        return st;
      }
      case 'AssignmentStatement': {
        const values = this.expressionList(node.init, st, ctx, node.variables.length);
        node.variables.forEach((target, i) => {
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
        });
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
      const [t, f]: [State | null, State | null] = this.condition(clause.condition, cur, ctx);
      if (t) outs.push(this.scopedBlock(clause.body, t, ctx));
      cur = f;
    }
    if (cur) outs.push(cur);
    return joinAll(outs);
  }

  /**
   * Runs a loop to a fixpoint. `iterate` runs one iteration from a head state and returns the
   * state that goes round again (`next`) and the state that leaves normally (`done`).
   * With `atLeastOnce`, the state before the loop is not a way out (loops over KEYS, repeat).
   */
  private loop(
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
    if (element) {
      // The element key starts each loop with a marker pending site and a fresh version: at the
      // end, a marker gone on every path means every key got an expiry or was deleted.
      start = this.bump();
      const before = getKey(st, element.id);
      head = clone(st);
      setKey(head, element.id, { ...before, pending: union(before.pending, [LOOP_MARKER]), version: start, lastDelete: before.lastDelete });
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
    // Leaving normally, the loop ran its body once for every key: what it did to the element, it
    // did to each key. Leaving by break (or before the first iteration) it did so for some only.
    const done = joinAll(exits);
    if (!done.dead) this.everyKey(done, element, start!);
    for (const b of breaks) this.dropMarker(b, element.id);
    return joinAll([done, ...breaks]);
  }

  /** A command over `unpack(KEYS)` that deleted or expired every key. */
  private everyKeyAtOnce(st: State, table: string, effect: KeyEffect): void {
    if (effect !== 'delete' && effect !== 'set-ttl' && effect !== 'create-with-ttl') return;
    const prefix = `${table}[`;
    const update = (key: KeyState): KeyState => {
      if (effect === 'delete') {
        const lastDelete = this.bump();
        return { pending: [], exists: 'no', version: lastDelete, lastDelete };
      }
      return { ...key, pending: [], ttl: true, version: this.bump() };
    };
    for (const [id, key] of [...st.keys]) if (id.startsWith(prefix) && !id.endsWith('[*]')) setKey(st, id, update(key));
    setKey(st, universalId(table), { ...update(getKey(st, universalId(table))), pending: [] });
  }

  private dropMarker(st: State, id: string): void {
    const key = st.keys.get(id);
    if (key && key.pending.includes(LOOP_MARKER)) setKey(st, id, { ...key, pending: key.pending.filter((site) => site !== LOOP_MARKER) });
  }

  /**
   * Applies what a loop (or a command over `unpack(KEYS)`) did to its element key to every key of
   * the table from index `from` on: the keys with a state of their own, and the table's universal
   * state for the others.
   */
  private everyKey(st: State, element: { table: string; id: string; from: number }, start: number): void {
    const el = st.keys.get(element.id);
    if (!el) return;
    const cleared = !el.pending.includes(LOOP_MARKER);
    const pending = el.pending.filter((site) => site !== LOOP_MARKER);
    const touched = el.version !== start || el.lastDelete > start;
    const deleted = el.lastDelete > start;
    setKey(st, element.id, { ...el, pending });
    const apply = (key: KeyState): KeyState => {
      const exists = el.exists !== 'maybe' ? el.exists : deleted ? 'maybe' : key.exists;
      const next: KeyState = {
        pending: cleared ? [] : key.pending,
        exists,
        version: touched ? this.bump() : key.version,
        lastDelete: deleted ? Math.max(key.lastDelete, el.lastDelete) : key.lastDelete,
      };
      if (el.ttl || (!touched && key.ttl)) next.ttl = true;
      return next;
    };
    const prefix = `${element.table}[`;
    for (const [id, key] of [...st.keys]) {
      if (id === element.id || !id.startsWith(prefix)) continue;
      const index = Number(id.slice(prefix.length, -1));
      if (id.endsWith('[#]') ? element.from <= 1 : Number.isInteger(index) && index >= element.from) setKey(st, id, apply(key));
    }
    if (element.from <= 1 && !st.keys.has(universalId(element.table))) {
      const universal = apply(FRESH_KEY);
      if (universal.exists !== 'maybe' || universal.ttl || universal.lastDelete > 0) setKey(st, universalId(element.table), { ...universal, pending: [] });
    }
  }

  private forNumeric(node: L.ForNumericStatement, st: State, ctx: Ctx): State {
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
    const element =
      index.t === 'num' && index.keyIndex
        ? { table: index.keyIndex.table, id: index.keyIndex.from <= 1 ? `${index.keyIndex.table}[*]` : `${index.keyIndex.table}[${index.keyIndex.from}..]`, from: index.keyIndex.from }
        : undefined;
    // `for i = 1, #entries` over a whole hash / set read: the body never runs when the key is
    // missing, so a counter that was 0 before the loop is still 0 then.
    const zeroBefore = end.t === 'reply' && end.sizeOfReply && end.keyId !== undefined ? [...st.vars].filter(([, v]) => v.t === 'num' && v.v === 0).map(([id]) => id) : [];
    const out = this.loop(
      st,
      ctx,
      overKeys || literalOnce,
      (head, inner) => {
        this.declare(inner.scope, head, node.variable.name, index, node.variable);
        const after = this.block(node.body, head, inner);
        return { next: after, done: after.dead ? null : clone(after) };
      },
      element,
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

  private forGeneric(node: L.ForGenericStatement, st: State, ctx: Ctx): State {
    let element: Value = UNKNOWN;
    let overKeys = false;
    let keysTable: string | undefined;
    const iterator = node.iterators[0];
    if (iterator && iterator.type === 'CallExpression' && node.iterators.length === 1) {
      const callee = this.expression(iterator.base, st, ctx);
      const arg = iterator.arguments[0] ? this.expression(iterator.arguments[0], st, ctx) : UNKNOWN;
      if (callee.t === 'builtin' && (callee.name === 'ipairs' || callee.name === 'pairs')) {
        if (arg.t === 'keys') {
          element = { t: 'key', id: `${arg.name}[*]` };
          overKeys = true;
          keysTable = arg.name;
        } else if (arg.t === 'argv') element = { t: 'str', argv: '*' };
        else if ((arg.t === 'unknown' && arg.origin) || arg.t === 'reply') element = { t: 'unknown', origin: arg.t === 'reply' ? 'reply' : arg.origin! };
        else if (arg.t === 'table' && arg.fields && arg.fields.size > 0) element = { t: 'each', values: [...arg.fields.values()] };
      }
    } else {
      for (const it of node.iterators) this.expression(it, st, ctx);
    }
    return this.loop(
      st,
      ctx,
      overKeys,
      (head, inner) => {
        node.variables.forEach((variable, i) => this.declare(inner.scope, head, variable.name, i === 1 ? element : UNKNOWN, variable));
        const after = this.block(node.body, head, inner);
        return { next: after, done: after.dead ? null : clone(after) };
      },
      keysTable !== undefined ? { table: keysTable, id: `${keysTable}[*]`, from: 1 } : undefined,
    );
  }

  // -- variables --------------------------------------------------------------------------------

  /** Variable ids by declaration site, so that a loop's locals keep their ids across iterations. */
  private readonly declarationIds = new WeakMap<object, number>();

  private declare(scope: Scope, st: State, name: string, value: Value, site?: object): void {
    let id = site ? this.declarationIds.get(site) : undefined;
    if (id === undefined) {
      id = this.nextVar++;
      if (site) this.declarationIds.set(site, id);
    }
    scope.names.set(name, id);
    setVar(st, id, value);
  }

  private lookupVar(scope: Scope, name: string): number | undefined {
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const id = s.names.get(name);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  private assign(scope: Scope, st: State, name: string, value: Value): void {
    const id = this.lookupVar(scope, name) ?? this.globalVar(name);
    setVar(st, id, value);
  }

  private readonly globals = new Map<string, number>();
  /** Keys given an EXPIRE ... XX/GT somewhere: their leaks say why that expiry did not count. */
  private readonly conditionalExpiries = new Set<string>();
  /** Why some code could not be analysed (a registered callback the walk cannot see). */
  private unfollowed: string | undefined;

  private globalVar(name: string): number {
    let id = this.globals.get(name);
    if (id === undefined) {
      id = this.nextVar++;
      this.globals.set(name, id);
    }
    return id;
  }

  private identifier(name: string, st: State, ctx: Ctx): Value {
    const id = this.lookupVar(ctx.scope, name);
    if (id !== undefined) return st.vars.get(id) ?? NIL;
    const global = this.globals.get(name);
    if (global !== undefined && st.vars.has(global)) return st.vars.get(global)!;
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

  // -- expressions ------------------------------------------------------------------------------

  /** Evaluates expressions left to right; the last one may expand to several values. */
  private expressionList(exprs: readonly L.Expression[], st: State, ctx: Ctx, want: number): Value[] {
    const values: Value[] = [];
    exprs.forEach((expr, i) => {
      const value = this.expression(expr, st, ctx);
      const last = i === exprs.length - 1;
      if (value.t === 'spread') {
        if (last && value.items) values.push(...value.items);
        else if (last && want === 0) values.push(value); // call arguments: keep the spread for the callee
        else if (last) for (let k = values.length; k < want; k++) values.push(value.of ? element(value.of) : UNKNOWN);
        else values.push(value.items?.[0] ?? (value.of ? element(value.of) : UNKNOWN));
      } else values.push(value);
    });
    return values;
  }

  private expression(node: L.Expression, st: State, ctx: Ctx): Value {
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
        for (const field of node.fields) {
          const key = field.type === 'TableKey' ? this.expression(field.key, st, ctx) : undefined;
          const value = this.expression(field.value, st, ctx);
          if (field.type === 'TableKeyString') fields.set(field.key.name, value);
          else if (key?.t === 'str' && key.v !== undefined) fields.set(key.v, value);
        }
        return { t: 'table', fields };
      }
      case 'UnaryExpression': {
        const arg = this.expression(node.argument, st, ctx);
        if (node.operator === 'not') return { t: 'bool' };
        if (node.operator === '-') return arg.t === 'num' && arg.v !== undefined ? { t: 'num', v: -arg.v } : { t: 'num', mayBeNonPositive: true };
        // '#' of a whole hash / set as read: 0 exactly when the key is missing (empty ones do not exist).
        if (arg.t === 'reply' && WHOLE_AGGREGATE_READS.has(arg.command) && !arg.pcall) {
          return { ...arg, luaType: 'number', sizeOfReply: true };
        }
        return { t: 'num' }; // '#'
      }
      case 'BinaryExpression':
        return this.binary(node, st, ctx);
      case 'LogicalExpression': {
        // Evaluated through the condition machinery so that calls in the right operand run only
        // on the paths where they run.
        const left = this.expression(node.left, st, ctx);
        const branch = clone(st);
        const right = this.expression(node.right, branch, ctx);
        const joined = join(st, branch);
        adopt(st, joined);
        return logicalValue(node.operator, left, right);
      }
      case 'MemberExpression': {
        const base = this.expression(node.base, st, ctx);
        if (base.t === 'builtin') return builtin(`${base.name}.${node.identifier.name}`);
        if (base.t === 'table' && base.fields?.has(node.identifier.name) && node.indexer === '.') return base.fields.get(node.identifier.name)!;
        if (base.t === 'unknown' && base.origin) return { t: 'unknown', node, origin: base.origin };
        return { t: 'unknown', node };
      }
      case 'IndexExpression': {
        const base = this.expression(node.base, st, ctx);
        const index = this.expression(node.index, st, ctx);
        if (base.t === 'keys') {
          if (index.t === 'num' && index.v !== undefined) return { t: 'key', id: `${base.name}[${index.v}]` };
          if (index.t === 'num' && index.keyIndex?.table === base.name) {
            const from = index.keyIndex.from;
            return { t: 'key', id: from <= 1 ? `${base.name}[*]` : `${base.name}[${from}..]` };
          }
          // Any other computed index is one key we cannot name: it stands for itself only.
          return { t: 'key', id: `${base.name}[${expressionText(node.index)}]` };
        }
        if (base.t === 'argv') {
          const literal = index.t === 'num' && index.v !== undefined ? index.v : '*';
          return { t: 'str', argv: literal };
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
        if (mismatchedTypes(left, right)) this.raise(st, ctx, { kind: 'compare-error', offset: rangeOf(node)[0] });
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

  // -- conditions -------------------------------------------------------------------------------

  /** Evaluates a condition; returns the states on its true and false edges (null = impossible). */
  private condition(node: L.Expression, st: State, ctx: Ctx): [State | null, State | null] {
    if (st.dead) return [null, null];
    if (node.type === 'UnaryExpression' && node.operator === 'not') {
      const [t, f] = this.condition(node.argument, st, ctx);
      return [f, t];
    }
    if (node.type === 'LogicalExpression') {
      const [t1, f1] = this.condition(node.left, st, ctx);
      if (node.operator === 'and') {
        const [t2, f2] = t1 ? this.condition(node.right, t1, ctx) : [null, null];
        return [t2, joinNullable(f1, f2)];
      }
      const [t2, f2] = f1 ? this.condition(node.right, f1, ctx) : [null, null];
      return [joinNullable(t1, t2), f2];
    }
    if (node.type === 'BinaryExpression' && ['==', '~=', '<', '>', '<=', '>='].includes(node.operator)) {
      const left = this.expression(node.left, st, ctx);
      const right = this.expression(node.right, st, ctx);
      if (st.dead) return [null, null];
      const op = node.operator as '==' | '~=' | '<' | '>' | '<=' | '>=';
      if (mismatchedTypes(left, right)) {
        // Lua 5.1 never finds a number equal to a string; ordering them raises an error.
        if (op === '==') return [null, st];
        if (op === '~=') return [st, null];
        this.raise(st, ctx, { kind: 'compare-error', offset: rangeOf(node)[0] });
        return [null, null];
      }
      const facts = keyFactsOfComparison(left, op, right);
      return this.applyFacts(st, facts, ctx, rangeOf(node)[0]);
    }
    const value = this.expression(node, st, ctx);
    if (st.dead) return [null, null];
    return this.applyFacts(st, keyFactsOfTruth(value));
  }

  private applyFacts(st: State, facts: KeyFacts | undefined, ctx?: Ctx, offset = 0): [State | null, State | null] {
    if (!facts) return [st, clone(st)];
    if (facts.always === true) return [st, null];
    if (facts.always === false) return [null, st];
    if (facts.raisesWhenMissing && ctx) {
      const missing = this.refine(clone(st), 'missing', facts);
      if (missing) this.raise(missing, ctx, { kind: 'compare-error', offset });
    }
    const other = clone(st);
    const t = this.refine(st, facts.whenTrue, facts);
    const f = this.refine(other, facts.whenFalse, facts);
    return [t, f];
  }

  private refine(st: State, fact: KeyFacts['whenTrue'], facts: KeyFacts): State | null {
    if (!fact || facts.keyId === undefined) return st;
    const key = getKey(st, facts.keyId);
    if (facts.version !== undefined && facts.version !== key.version) {
      return this.refineOlder(st, facts.keyId, key, fact, facts);
    }
    // A fact the path already contradicts (EXISTS == 1 right after DEL, PTTL == -1 after an expiry).
    if (key.exists === 'no' && (fact === 'exists' || fact === 'has-ttl' || fact === 'no-ttl' || fact === 'not-created-by-site')) return null;
    if (key.exists === 'yes' && fact === 'missing') return null;
    if (key.ttl && fact === 'no-ttl') return null;
    switch (fact) {
      case 'exists':
      case 'no-ttl':
        if (key.exists !== 'yes') setKey(st, facts.keyId, { ...key, exists: 'yes' });
        return st;
      case 'missing':
        setKey(st, facts.keyId, { ...key, exists: 'no', pending: [] });
        return st;
      case 'has-ttl-or-missing':
        setKey(st, facts.keyId, { ...key, pending: [], ttl: true });
        return st;
      case 'has-ttl':
        setKey(st, facts.keyId, { ...key, pending: [], exists: 'yes', ttl: true });
        return st;
      case 'not-created-by-site':
        setKey(st, facts.keyId, {
          ...key,
          exists: 'yes',
          pending: facts.site === undefined ? key.pending : key.pending.filter((s) => s !== facts.site),
        });
        return st;
      case 'impossible':
        return null;
      default:
        return st;
    }
  }

  /**
   * A guard on a reply taken before later writes to the key. "The key existed then" still proves
   * that the later in-place writes did not create it (unless it was deleted in between); facts
   * about its TTL say nothing about writes that came after.
   */
  private refineOlder(st: State, keyId: string, key: KeyState, fact: NonNullable<KeyFacts['whenTrue']>, facts: KeyFacts): State | null {
    if (fact === 'impossible') return null;
    if (facts.version !== undefined && key.lastDelete > facts.version) return st;
    const before = facts.pending ?? [];
    const createdSince = (site: number): boolean => site >= 0 && !before.includes(site) && CREATION_ONLY.has(this.sites[site]!.effect);
    let pending = key.pending;
    if (fact === 'exists' || fact === 'has-ttl' || fact === 'no-ttl') pending = pending.filter((site) => !createdSince(site));
    if (fact === 'has-ttl') pending = pending.filter((site) => !before.includes(site));
    if (fact === 'not-created-by-site') pending = pending.filter((site) => site !== facts.site);
    if (pending.length !== key.pending.length) setKey(st, keyId, { ...key, pending });
    return st;
  }

  // -- calls ------------------------------------------------------------------------------------

  private call(node: L.Node, baseNode: L.Expression, argNodes: readonly L.Expression[], st: State, ctx: Ctx): Value {
    const callee = this.expression(baseNode, st, ctx);
    if (callee.t === 'builtin') {
      switch (callee.name) {
        case 'assert': {
          const [cond, ...rest] = argNodes;
          if (!cond) return UNKNOWN;
          const [t, f] = this.condition(cond, st, ctx);
          if (f) this.raise(f, ctx, { kind: 'assert', offset: rangeOf(node)[0] });
          if (t) {
            for (const arg of rest) this.expression(arg, t, ctx);
            adopt(st, t);
          } else st.dead = true;
          return UNKNOWN;
        }
        case 'pcall':
        case 'xpcall': {
          const [fnNode, ...rest] = argNodes;
          const fn = fnNode ? this.expression(fnNode, st, ctx) : UNKNOWN;
          const args = this.expressionList(callee.name === 'xpcall' ? rest.slice(1) : rest, st, ctx, 0);
          if (fn.t === 'fn') this.callFunction(fn, args, st, ctx, true);
          else if (fn.t === 'builtin' && (fn.name === 'redis.call' || fn.name === 'redis.pcall')) {
            this.redisCall(node, args, rest, st, ctx, true);
          }
          return UNKNOWN;
        }
        default:
          break;
      }
    }
    const args = this.expressionList(argNodes, st, ctx, 0);
    if (st.dead) return UNKNOWN;
    if (callee.t === 'fn') return this.callFunction(callee, args, st, ctx, false);
    if (callee.t !== 'builtin') return UNKNOWN;
    switch (callee.name) {
      case 'redis.call':
      case 'redis.pcall':
        return this.redisCall(node, args, argNodes, st, ctx, callee.name === 'redis.pcall');
      case 'redis.error_reply':
        return { t: 'errorReply' };
      case 'redis.register_function': {
        // register_function(name, callback) or register_function{function_name = ..., callback = ...}
        const first = args[0];
        const callback = first?.t === 'table' && first.fields ? first.fields.get('callback') : args[1];
        const nameValue = first?.t === 'table' && first.fields ? first.fields.get('function_name') : first;
        const name = nameValue?.t === 'str' && nameValue.v !== undefined ? nameValue.v : undefined;
        const callbacks = callback?.t === 'each' ? callback.values : callback ? [callback] : [];
        for (const cb of callbacks) {
          if (cb.t === 'fn') this.registered.push(name ? { ...cb, name } : cb);
          else this.unfollowed ??= `a function registered at line ${this.input.lineOf(rangeOf(node)[0])} is not one the analyzer can follow`;
        }
        return UNKNOWN;
      }
      case 'error':
        this.raise(st, ctx, { kind: 'error', offset: rangeOf(node)[0] });
        return UNKNOWN;
      case 'tonumber': {
        const arg = args[0] ?? NIL;
        if (arg.t === 'num') return arg;
        // tonumber() of an integer reply is that reply: guards on it keep their meaning.
        if (arg.t === 'reply' && arg.luaType === 'number') return arg;
        // tonumber() of a bulk reply: a number when the key holds one, nil otherwise.
        if (arg.t === 'reply') return { ...arg, luaType: 'number', numeric: true };
        if (arg.t === 'str') {
          if (arg.zeroWhenMissing) return { t: 'num', zeroWhenMissing: arg.zeroWhenMissing };
          if (arg.v !== undefined) return arg.v.trim() !== '' && Number.isFinite(Number(arg.v)) ? { t: 'num', v: Number(arg.v) } : NIL;
          return arg.argv !== undefined && arg.argv !== '*' ? { t: 'num', argv: arg.argv, nilable: true } : { t: 'num', nilable: true };
        }
        return { t: 'num', nilable: true };
      }
      case 'tostring':
      case 'type':
      case 'table.concat':
      case 'cjson.encode':
      case 'redis.sha1hex':
        return { t: 'str', node };
      case 'unpack':
      case 'table.unpack': {
        // unpack(KEYS); unpack(t) of a table the script filled: its items; unpack({'PX', ARGV[2]}):
        // values we cannot list one by one.
        const table = args[0];
        if (table?.t === 'table') return table.items && table.items.length > 0 ? { t: 'spread', items: [...table.items] } : { t: 'spread' };
        return { t: 'spread', ...(table ? { of: table } : {}) };
      }
      case 'table.insert': {
        // table.insert(t, v): remembered in order, so that unpack(t) gives the keys it holds.
        const [table, ...rest] = args;
        if (table?.t === 'table' && rest.length === 1 && rest[0]) appendItem(table, rest[0]);
        return NIL;
      }
      case 'cjson.decode':
      case 'cmsgpack.unpack':
        return { t: 'unknown', origin: 'decoded' };
      default:
        if (callee.name.startsWith('math.')) return mathCall(callee.name, args);
        if (callee.name === 'string.len' || callee.name === 'string.byte' || callee.name === 'string.find') return { t: 'num' };
        if (callee.name.startsWith('string.')) return { t: 'str', node };
        return UNKNOWN;
    }
  }

  private callFunction(fn: Extract<Value, { t: 'fn' }>, args: Value[], st: State, _ctx: Ctx, isProtected: boolean): Value {
    if (this.callStack.length >= MAX_CALL_DEPTH || this.callStack.includes(fn.node)) return UNKNOWN;
    this.callStack.push(fn.node);
    const scope: Scope = { parent: fn.scope, names: new Map() };
    fn.node.parameters.forEach((param, i) => {
      if (param.type === 'Identifier') this.declare(scope, st, param.name, args[i] ?? NIL, param);
      else this.declare(scope, st, '...', { t: 'spread', items: args.slice(i) }, param);
    });
    const fnCtx = this.newFn('helper', fn.name, isProtected);
    const end = this.block(fn.node.body, st, { scope, fn: fnCtx });
    this.callStack.pop();
    const outs = [...fnCtx.returns];
    if (!end.dead) outs.push(end);
    const joined = joinAll(outs);
    adopt(st, joined);
    this.dropScope(st, scope);
    const first = fnCtx.returnValues[0];
    if (!first || outs.length !== fnCtx.returnValues.length) return first && !end.dead ? UNKNOWN : (first ?? NIL);
    return fnCtx.returnValues.every((v) => sameValue(v, first)) ? first : UNKNOWN;
  }

  /** `redis.call(name, ...)`: applies the command's effects on its keys to the state. */
  private redisCall(node: L.Node, rawArgs: Value[], argNodes: readonly L.Expression[], st: State, ctx: Ctx, pcall: boolean, outcomes = true): Value {
    const nameValue = rawArgs[0];
    if (nameValue?.t === 'str' && nameValue.v === undefined && nameValue.alts && nameValue.alts.length > 0) {
      // The name is one of a few literals (`cond and 'RPUSH' or 'LPUSH'`): each one on a path of its own.
      const outs: State[] = [];
      const replies: Value[] = [];
      for (const alt of nameValue.alts) {
        const branch = clone(st);
        replies.push(this.redisCall(node, [{ t: 'str', v: alt }, ...rawArgs.slice(1)], argNodes, branch, ctx, pcall));
        outs.push(branch);
      }
      adopt(st, joinAll(outs));
      return replies.every((r) => sameValue(r, replies[0]!)) ? replies[0]! : UNKNOWN;
    }
    if (!nameValue || nameValue.t !== 'str' || nameValue.v === undefined) {
      this.report('unanalyzable-command', node, unanalyzableMessage(argNodes[0] ? this.input.source.slice(...rangeOf(argNodes[0])) : undefined));
      return UNKNOWN;
    }
    const args = rawArgs.slice(1);
    const argNodesAfterName = argNodes.slice(1);
    const spreadIndex = args.findIndex((a) => a.t === 'spread');
    const literalArgs: CommandArg[] = (spreadIndex >= 0 ? args.slice(0, spreadIndex + 1) : args).map((a) =>
      a.t === 'str' && a.v !== undefined ? a.v : a.t === 'num' && a.v !== undefined ? a.v : undefined,
    );
    // A spread may stand for any number of arguments: two unknown ones make the table read the
    // options it cannot see as unknown (SET key unpack(ARGV), SET key value unpack(opts)).
    if (spreadIndex >= 0) literalArgs.push(undefined);
    const description = describeCommand(nameValue.v, literalArgs);
    const command = description.name;
    if (!description.known) return { t: 'reply', command, version: 0, pcall };
    const line = this.input.lineOf(rangeOf(node)[0]);
    const offset = rangeOf(node)[0];
    if (description.rejected) {
      const index = description.nonPositiveTtlArg;
      if (index !== undefined) this.report('expire-needs-positive-ttl', argNodesAfterName[index] ?? node, nonPositiveMessage(command, literalArgs[index]));
      // Redis rejects the command; in a script the error aborts it (redis.pcall returns the error instead).
      if (!pcall) this.raise(st, ctx, { kind: 'command-error', offset });
      return UNKNOWN;
    }
    if (description.unknownOptions && command === 'SET') {
      this.report('unanalyzable-command', node, unknownOptionsMessage(command));
    }
    // A TTL computed in the script: Redis may reject it (a fraction; <= 0 for SET EX) or take it as
    // "delete now" (<= 0, or an absolute time already past).
    const risk = description.ttl ? ttlRisk(command, description.ttl.unit, args[description.ttl.arg]) : NO_RISK;
    if (risk.mayRaise && !pcall) this.raise(clone(st), ctx, { kind: 'command-error', offset });
    // RENAME of a missing source raises "ERR no such key".
    for (const action of description.keys) {
      if (!action.mustExist || pcall) continue;
      const value = args[action.arg];
      const key = value ? this.keyOf(value, argNodesAfterName[action.arg]) : undefined;
      if (!key) continue;
      const state = getKey(st, key.id);
      if (state.exists === 'yes') continue;
      this.raise(state.exists === 'no' ? st : clone(st), ctx, { kind: 'command-error', offset });
      if (st.dead) return UNKNOWN;
      setKey(st, key.id, { ...state, exists: 'yes' });
    }
    // RENAMENX / COPY may do nothing at all (destination exists, source missing): both outcomes.
    if (outcomes) {
      const mayDoNothing = this.mayDoNothing(description, args, argNodesAfterName, st);
      if (mayDoNothing === 'always') return { t: 'reply', command, version: 0, pcall, luaType: 'number' };
      if (mayDoNothing) {
        const unchanged = clone(st);
        const reply = this.redisCall(node, rawArgs, argNodes, st, ctx, pcall, false);
        adopt(st, join(st, unchanged));
        return reply.t === 'reply' ? { ...reply, version: 0 } : reply;
      }
    }

    let firstKey: { id: string } | undefined;
    /** The key the write site is about: guards on the reply speak of it (LMOVE's destination). */
    let siteKey: string | undefined;
    const keyIds = new Map<number, string>(); // argument index -> key id, for moves onto themselves
    let site: number | undefined;
    const actions = [...description.keys];
    // RENAME deletes its source before the destination reads the source's state: keep a snapshot.
    const keysBefore = st.keys;
    if (actions.some((a) => a.sourceArg !== undefined)) st.ownKeys = false;
    let spreadKeys: Value[] = [];
    if (spreadIndex >= 0) {
      // unpack(KEYS): every argument from the spread on is a key of that table; unpack(t) of a
      // table the script filled: its items, at the key positions of the command.
      const spread = args[spreadIndex] as Extract<Value, { t: 'spread' }>;
      const keyAction = description.keys.find((k) => k.arg >= spreadIndex);
      if (keyAction || actions.length === 0) {
        const effect = keyAction?.effect;
        if (effect && spread.of) actions.push({ arg: -1, effect });
        else if (effect && spread.items) {
          const pairs = PAIRS_COMMANDS.has(command);
          spreadKeys = spread.items.filter((_, i) => !pairs || i % 2 === 0);
          spreadKeys.forEach((_, i) => actions.push({ arg: -2 - i, effect }));
        }
      }
    }
    for (const action of actions) {
      const value = action.arg === -1 ? element((args[spreadIndex] as Extract<Value, { t: 'spread' }>).of!) : action.arg <= -2 ? spreadKeys[-2 - action.arg] : args[action.arg];
      if (!value) continue;
      const argNode = action.arg >= 0 ? argNodesAfterName[action.arg] : undefined;
      const key = this.keyOf(value, argNode);
      if (!key) continue;
      if (value.t !== 'key' && (value.t === 'str' || value.t === 'num' || (value.t === 'unknown' && value.origin))) {
        // Reported at each call (docs/ttl-semantics.md): each one is a command Cluster may misroute.
        this.report('key-must-come-from-keys', node, keyMustComeFromKeysMessage(command, key.display, value), key.names);
      }
      keyIds.set(action.arg, key.id);
      // LMOVE k k / RPOPLPUSH k k: the list only rotates, and exists whenever anything moves.
      if (action.onlyWithSource !== undefined && keyIds.get(action.onlyWithSource) === key.id) continue;
      const persistent = this.input.isPersistent(key.names, line);
      const state = getKey(st, key.id);
      firstKey ??= { id: key.id };

      if (description.getDropsTtl && action.arg === 0) {
        if (!persistent) this.report('no-getset', node, noGetsetMessage(command, key.display), key.names);
        setKey(st, key.id, { ...state, exists: 'yes', version: this.bump(), ttl: undefined! });
        continue;
      }
      if (action.effect === 'remove-ttl') {
        if (!persistent) this.report('no-persist', node, noPersistMessage(command, key.display), key.names);
        const { ttl: _dropped, ...rest } = state;
        setKey(st, key.id, { ...rest, version: this.bump() });
        continue;
      }
      const sourceValue = action.sourceArg !== undefined ? args[action.sourceArg] : undefined;
      const sourceKey = sourceValue ? this.keyOf(sourceValue, undefined) : undefined;
      const sourceState = sourceKey ? (keysBefore.get(sourceKey.id) ?? getKey(st, sourceKey.id)) : undefined;
      const siteFor = (rule: WriteSite['rule']): number[] => {
        if (persistent) return [];
        site = this.site(node, command, key.display, action.effect, rule);
        siteKey = key.id;
        return [site];
      };
      let next = this.effect(state, action.effect, siteFor, sourceState);
      if (action.mayDelete && next.exists === 'yes') {
        // Removing the last element deletes the key: it may be gone, and may come back without TTL.
        const lastDelete = this.bump();
        next = { ...next, exists: 'maybe', version: lastDelete, lastDelete };
      }
      if (risk.mayDelete && action.arg === 0 && next.exists !== 'no' && MAY_DELETE_EFFECTS.has(action.effect)) {
        // An expiry <= 0 or in the past deletes the key: a later write creates it again without TTL.
        const lastDelete = this.bump();
        next = { ...next, exists: next.exists === 'yes' && action.effect === 'set-ttl-if-has-ttl' && !state.ttl ? 'yes' : 'maybe', version: lastDelete, lastDelete };
      }
      if (site !== undefined && siteKey === key.id && next.exists === 'yes' && state.exists !== 'yes') {
        const size = createdSize(command, args);
        if (size) next = { ...next, created: { site, size, version: next.version } };
      }
      if (next !== state) setKey(st, key.id, next);
      if (action.effect === 'set-ttl-if-has-ttl') this.conditionalExpiries.add(key.id);
      if (action.arg === -1) {
        // DEL unpack(KEYS), ...: the command did to every key what it did to the element, at once.
        const table = (args[spreadIndex] as Extract<Value, { t: 'spread' }>).of;
        if (table?.t === 'keys') this.everyKeyAtOnce(st, table.name, action.effect);
      }
    }
    if (description.nonPositiveTtlArg !== undefined) {
      const argNode = argNodesAfterName[description.nonPositiveTtlArg];
      this.report('expire-needs-positive-ttl', argNode ?? node, nonPositiveMessage(command, literalArgs[description.nonPositiveTtlArg]));
    }
    const whenCreated = replyWhenCreated(command, args);
    const replyKey = siteKey ?? firstKey?.id;
    const replyKeyState = replyKey !== undefined ? getKey(st, replyKey) : undefined;
    const reply: Reply = {
      t: 'reply',
      command,
      version: replyKeyState?.version ?? 0,
      pending: replyKeyState?.pending ?? [],
      pcall,
      ...(replyKey !== undefined ? { keyId: replyKey } : {}),
      ...(site !== undefined ? { site } : {}),
      ...(whenCreated ? { whenCreated } : {}),
      ...((command === 'SET' && description.keys[0]?.effect.startsWith('create-if-missing') && !literalArgs.some((a) => typeof a === 'string' && a.toUpperCase() === 'GET')) ||
      MOVES_REPLYING_THE_ELEMENT.has(command)
        ? { createsOnTruthy: true }
        : {}),
    };
    if (!pcall && alwaysStatusReply(command, literalArgs)) reply.status = true;
    // A size read right after the write that may have created the key: its size then is known.
    if (site === undefined && replyKeyState?.created && replyKeyState.created.version === replyKeyState.version && SIZE_READS.has(command)) {
      reply.sizeWhenCreated = replyKeyState.created.size;
      reply.site = replyKeyState.created.site;
    }
    const luaType = pcall ? undefined : replyLuaType(command);
    if (luaType) reply.luaType = luaType;
    return reply;
  }

  /**
   * Whether RENAMENX / COPY may write nothing on this path: `'always'` when it cannot write
   * (the destination exists for RENAMENX, the source is missing for COPY).
   */
  private mayDoNothing(description: CommandDescription, args: readonly Value[], argNodes: readonly L.Expression[], st: State): boolean | 'always' {
    const dest = description.keys.find((k) => k.effect === 'transfer-ttl');
    if (!dest || dest.sourceArg === undefined) return false;
    const stateOf = (arg: number): KeyState | undefined => {
      const value = args[arg];
      const key = value ? this.keyOf(value, argNodes[arg]) : undefined;
      return key ? getKey(st, key.id) : undefined;
    };
    const source = stateOf(dest.sourceArg);
    const target = stateOf(dest.arg);
    if (!source || !target) return false;
    const copy = description.name === 'COPY';
    if ((copy && source.exists === 'no') || (dest.onlyIfMissing && target.exists === 'yes')) return 'always';
    return (copy && source.exists !== 'yes') || (dest.onlyIfMissing === true && target.exists !== 'no');
  }

  /** The state of a key after one effect. `site(rule)` registers the write site (or none when persistent). */
  private effect(
    key: KeyState,
    effect: KeyEffect,
    site: (rule: WriteSite['rule']) => number[],
    source: KeyState | undefined,
  ): KeyState {
    const next = this.nextKeyState(key, effect, site, source);
    return next === key ? key : { ...next, version: this.bump() };
  }

  private nextKeyState(
    key: KeyState,
    effect: KeyEffect,
    site: (rule: WriteSite['rule']) => number[],
    source: KeyState | undefined,
  ): KeyState {
    const add = (rule: WriteSite['rule']): readonly number[] => union(key.pending, site(rule));
    const noTtl = (k: KeyState): KeyState => {
      const { ttl: _ttl, created: _created, ...rest } = k;
      return rest;
    };
    switch (effect) {
      case 'create-in-place':
      case 'create-if-missing':
        return key.exists === 'yes' ? key : { ...noTtl(key), pending: add('write-path-needs-ttl'), exists: 'yes' };
      case 'keep-ttl':
        return key.exists === 'yes' ? key : { ...noTtl(key), pending: add('keepttl-needs-existing-key'), exists: 'yes' };
      case 'overwrite':
        return { ...noTtl(key), pending: add('write-path-needs-ttl'), exists: 'yes' };
      case 'clear-ttl-if-present':
        return key.exists === 'no' ? key : { ...noTtl(key), pending: add('write-path-needs-ttl') };
      case 'transfer-ttl': {
        const lastDelete = this.bump();
        return { pending: source?.pending ?? [], exists: source?.exists ?? 'maybe', version: lastDelete, lastDelete, ...(source?.ttl ? { ttl: true as const } : {}) };
      }
      case 'create-with-ttl':
        return { ...noTtl(key), pending: [], exists: 'yes', ttl: true };
      case 'create-if-missing-with-ttl':
        return key.exists === 'yes' ? key : { ...noTtl(key), exists: 'yes', ...(key.exists === 'no' || key.ttl ? { ttl: true as const } : {}) };
      case 'set-ttl':
        return key.pending.length === 0 && key.ttl ? key : { ...noTtl(key), pending: [], ttl: true };
      case 'delete': {
        const lastDelete = this.bump();
        return { pending: [], exists: 'no', version: lastDelete, lastDelete };
      }
      case 'set-ttl-if-has-ttl':
      case 'modify-if-present':
      case 'remove-ttl':
      case 'read':
        return key;
    }
  }

  private keyOf(value: Value, argNode: L.Expression | undefined): { id: string; display: string; names: string[] } | undefined {
    const alias = argNode?.type === 'Identifier' ? argNode.name : undefined;
    const names = (id: string, display: string): string[] => [id, display, ...(alias ? [alias] : [])];
    switch (value.t) {
      case 'key':
        return { id: value.id, display: value.id, names: names(value.id, value.id) };
      case 'str': {
        if (value.v !== undefined) return { id: `'${value.v}'`, display: `'${value.v}'`, names: names(`'${value.v}'`, value.v) };
        if (value.argv !== undefined) {
          const id = `ARGV[${value.argv}]`;
          return { id, display: id, names: names(id, id) };
        }
        const textNode = value.node ?? argNode;
        if (!textNode) return undefined;
        const text = expressionText(textNode);
        return { id: text, display: alias ? `${alias} (${text})` : text, names: names(text, text) };
      }
      case 'num':
        return value.v !== undefined ? { id: String(value.v), display: String(value.v), names: names(String(value.v), String(value.v)) } : undefined;
      case 'unknown': {
        const textNode = value.node ?? argNode;
        if (!textNode) return undefined;
        const text = expressionText(textNode);
        return { id: text, display: text, names: names(text, text) };
      }
      default:
        return undefined;
    }
  }

  private bump(): number {
    return this.nextVersion++;
  }

  private site(node: L.Node, command: string, keyName: string, effect: KeyEffect, rule: WriteSite['rule']): number {
    let byRule = this.siteIds.get(node);
    if (!byRule) this.siteIds.set(node, (byRule = {}));
    let id = byRule[rule];
    if (id === undefined) {
      id = this.sites.length;
      this.sites.push({ id, node, command, keyName, effect, rule });
      byRule[rule] = id;
    }
    return id;
  }

  private report(ruleId: LuaRuleId, node: L.Node, message: string, keyNames?: string[]): void {
    let byRule = this.findings.get(node);
    if (!byRule) this.findings.set(node, (byRule = new Map()));
    if (!byRule.has(ruleId)) byRule.set(ruleId, { ruleId, node, message, ...(keyNames ? { keyNames } : {}) });
  }

  private reportLeak(site: WriteSite, exit: Exit, keyId: string): void {
    const where = describeExit(exit, (this.input.messageLineOf ?? this.input.lineOf)(exit.offset));
    // The key that leaks on this path (a helper's write may have other keys on other calls; RENAME moves it).
    const leaking = { ...site, keyName: keyId };
    let message = site.rule === 'keepttl-needs-existing-key' ? keepTtlMessage(leaking, where) : writePathMessage(leaking, where);
    if (this.conditionalExpiries.has(keyId.split(' ')[0]!)) {
      message += ' Note: an EXPIRE family call with XX or GT never gives a TTL to a key that has none; use NX (or no option) there.';
    }
    this.report(site.rule, site.node, message);
  }

}

// ---------------------------------------------------------------------------------------------
// Helpers




const KEYS_TABLE: Value = { t: 'keys', name: 'KEYS' };
const ARGV_TABLE: Value = { t: 'argv', name: 'ARGV' };

const BUILTINS = new Map<string, Value>();

function builtin(name: string): Value {
  let value = BUILTINS.get(name);
  if (!value) BUILTINS.set(name, (value = { t: 'builtin', name }));
  return value;
}

/** How many appended items of one table are remembered. */
const MAX_TABLE_ITEMS = 64;

/** Remembers an item appended to a table the script built (up to {@link MAX_TABLE_ITEMS}). */
function appendItem(table: Extract<Value, { t: 'table' }>, value: Value): void {
  table.items ??= [];
  if (table.items.length < MAX_TABLE_ITEMS) table.items.push(value);
}

/** `t[#t + 1]` */
function isAppendIndex(target: L.IndexExpression): boolean {
  const index = target.index;
  return (
    index.type === 'BinaryExpression' &&
    index.operator === '+' &&
    index.left.type === 'UnaryExpression' &&
    index.left.operator === '#' &&
    index.right.type === 'NumericLiteral' &&
    index.right.value === 1 &&
    expressionText(index.left.argument) === expressionText(target.base)
  );
}

/**
 * The value of `left and right` / `left or right`. Keeps: one of a few string literals
 * (`cond and 'RPUSH' or 'LPUSH'`); a number that is 0 when a key was missing
 * (`tonumber(GET k) or 0`, `tonumber(GET k or '0')`).
 */
function logicalValue(operator: 'and' | 'or', left: Value, right: Value): Value {
  if (sameValue(left, right)) return left;
  if (operator === 'or' && left.t === 'reply' && !left.pcall && left.keyId !== undefined && KEY_VALUE_READS.has(left.command)) {
    const zero = (right.t === 'num' && right.v === 0) || (right.t === 'str' && right.v === '0');
    if (zero) {
      const zeroWhenMissing = { keyId: left.keyId, version: left.version, pending: left.pending ?? [] };
      return left.numeric || right.t === 'num' ? { t: 'num', zeroWhenMissing } : { t: 'str', zeroWhenMissing };
    }
    return UNKNOWN;
  }
  const literals = (value: Value): readonly string[] | undefined =>
    value.t === 'str' ? (value.v !== undefined ? [value.v] : value.alts) : undefined;
  if (operator === 'and') {
    // `cond and 'A'`: 'A', or a falsy value that an enclosing `or` replaces.
    const alts = literals(right);
    return alts ? { t: 'str', alts, falsy: true } : right.t === 'num' && left.t === 'num' ? { t: 'num' } : UNKNOWN;
  }
  const a = literals(left);
  const b = literals(right);
  if (a && b) return { t: 'str', alts: [...new Set([...a, ...b])] };
  if (left.t === 'reply' && REPLY_TO_STRING_COMMANDS.has(left.command)) return UNKNOWN;
  return right.t === 'num' && left.t === 'num' ? { t: 'num' } : UNKNOWN;
}

/** Reads whose reply is the key's value, or false when it is missing (`or 0` gives 0 then). */
const KEY_VALUE_READS: ReadonlySet<string> = new Set(['GET', 'HGET', 'GETEX', 'LINDEX', 'ZSCORE']);

/** Commands whose arguments are key value pairs: unpack(t) gives keys at the even positions. */
const PAIRS_COMMANDS: ReadonlySet<string> = new Set(['MSET', 'MSETNX', 'JSON.MSET']);

/** Effects after which a TTL <= 0 or in the past leaves no key (the expiry deletes it). */
const MAY_DELETE_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['set-ttl', 'set-ttl-if-has-ttl', 'create-with-ttl', 'create-if-missing-with-ttl']);

/** What a TTL argument computed in the script may make Redis do. */
interface TtlRisk {
  /** Redis may reject the command ("value is not an integer", "invalid expire time"), aborting the script. */
  mayRaise: boolean;
  /** The expiry may be <= 0 or already past: Redis deletes the key instead of setting a TTL. */
  mayDelete: boolean;
}

const NO_RISK: TtlRisk = { mayRaise: false, mayDelete: false };

/** Commands whose TTL must be a positive integer (`SET ... EX 0` is "invalid expire time"). */
const POSITIVE_TTL_COMMANDS: ReadonlySet<string> = new Set(['SET', 'SETEX', 'PSETEX', 'GETEX']);

/**
 * The risk of a TTL argument that is not a literal (https://redis.io/docs/latest/commands/expire/,
 * /set/, /getex/): an absolute time may be in the past (EXPIREAT with an ARGV time, or
 * `TIME[1] * 1000 + ms`, which drops the current milliseconds); a relative one computed by a
 * subtraction, `math.floor` or a TTL reply may be <= 0; a division may be fractional, which the
 * EXPIRE family rejects. ARGV values and opaque values are assumed valid (docs/ttl-semantics.md).
 */
function ttlRisk(command: string, unit: string, value: Value | undefined): TtlRisk {
  if (!value) return NO_RISK;
  if ((value.t === 'num' || value.t === 'str') && value.v !== undefined) return NO_RISK; // literals: the command table decides
  const absolute = unit.startsWith('unix');
  const fractional = value.t === 'num' && value.mayBeFractional === true;
  const nonPositive = (value.t === 'num' && value.mayBeNonPositive === true) || (value.t === 'reply' && MAY_BE_NEGATIVE_REPLIES.has(value.command));
  const positiveOnly = POSITIVE_TTL_COMMANDS.has(command);
  return {
    mayRaise: fractional || (positiveOnly && !absolute && nonPositive),
    mayDelete: absolute || nonPositive,
  };
}

/** Integer replies that can be <= 0 (TTL -1/-2, a DECR below zero). */
const MAY_BE_NEGATIVE_REPLIES: ReadonlySet<string> = new Set(['TTL', 'PTTL', 'EXPIRETIME', 'PEXPIRETIME', 'DECR', 'DECRBY', 'INCRBY', 'HINCRBY', 'ZCARD', 'SCARD', 'LLEN', 'HLEN']);

/** A compact spelling of an expression (`KEYS[1]..':count'`), used as the identity of a key built in the script. */
export function expressionText(node: L.Node): string {
  switch (node.type) {
    case 'Identifier':
      return node.name;
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
      return node.raw;
    case 'NilLiteral':
      return 'nil';
    case 'VarargLiteral':
      return '...';
    case 'MemberExpression':
      return `${expressionText(node.base)}${node.indexer}${node.identifier.name}`;
    case 'IndexExpression':
      return `${expressionText(node.base)}[${expressionText(node.index)}]`;
    case 'BinaryExpression':
    case 'LogicalExpression':
      return `${expressionText(node.left)}${node.operator === 'and' || node.operator === 'or' ? ` ${node.operator} ` : node.operator}${expressionText(node.right)}`;
    case 'UnaryExpression':
      return `${node.operator === 'not' ? 'not ' : node.operator}${expressionText(node.argument)}`;
    case 'CallExpression':
      return `${expressionText(node.base)}(${node.arguments.map(expressionText).join(',')})`;
    case 'StringCallExpression':
      return `${expressionText(node.base)}${expressionText(node.argument)}`;
    case 'TableCallExpression':
    case 'TableConstructorExpression':
      return '{...}';
    case 'FunctionDeclaration':
      return 'function';
    default:
      return '?';
  }
}

function element(table: Value): Value {
  if (table.t === 'keys') return { t: 'key', id: `${table.name}[*]` };
  if (table.t === 'argv') return { t: 'str', argv: '*' };
  return UNKNOWN;
}




function luaTypeOf(value: Value): 'number' | 'string' | 'boolean' | undefined {
  switch (value.t) {
    case 'bool':
      return 'boolean';
    case 'num':
      return 'number';
    case 'str':
    case 'key':
      return 'string';
    case 'reply':
      return value.luaType === 'number' || value.luaType === 'string' ? value.luaType : undefined;
    default:
      return undefined;
  }
}

/** A number compared with a string: never equal in Lua 5.1, and ordering them raises an error. */
function mismatchedTypes(a: Value, b: Value): boolean {
  const x = luaTypeOf(a);
  const y = luaTypeOf(b);
  return x !== undefined && y !== undefined && x !== y;
}

/** Lua's view of a number operand: a literal, or what is known of its sign and integrality. */
function numberFacts(value: Value): { v?: number; nonPositive: boolean; fractional: boolean } {
  if (value.t === 'num') {
    if (value.v !== undefined) return { v: value.v, nonPositive: value.v <= 0, fractional: !Number.isInteger(value.v) };
    return { nonPositive: value.mayBeNonPositive === true, fractional: value.mayBeFractional === true };
  }
  if (value.t === 'str' && value.v !== undefined) {
    const v = Number(value.v);
    return Number.isFinite(v) ? { v, nonPositive: v <= 0, fractional: !Number.isInteger(v) } : { nonPositive: false, fractional: false };
  }
  if (value.t === 'reply') return { nonPositive: MAY_BE_NEGATIVE_REPLIES.has(value.command), fractional: false };
  return { nonPositive: false, fractional: false }; // ARGV and opaque values: assumed valid
}

/**
 * The result of `left op right` when it is not a literal: a subtraction or a modulo may be <= 0, a
 * division may be fractional, and the other operators keep what their operands may be.
 */
function arithmeticFacts(op: string, left: Value, right: Value): Value {
  const a = numberFacts(left);
  const b = numberFacts(right);
  const out: NumValue = { t: 'num' };
  const nonPositive = op === '-' || op === '%' ? true : a.nonPositive || b.nonPositive;
  const fractional = op === '/' || op === '^' ? true : a.fractional || b.fractional;
  if (nonPositive) out.mayBeNonPositive = true;
  if (fractional) out.mayBeFractional = true;
  return out;
}

/** `math.floor(x)` may be 0 for a positive fraction; `math.ceil` is an integer; `max`/`min` combine. */
function mathCall(name: string, args: readonly Value[]): Value {
  const facts = args.map(numberFacts);
  const out: NumValue = { t: 'num' };
  switch (name) {
    case 'math.floor':
      if (facts[0] && (facts[0].nonPositive || facts[0].fractional)) out.mayBeNonPositive = true;
      if (facts[0]?.v !== undefined) return { t: 'num', v: Math.floor(facts[0].v) };
      return out;
    case 'math.ceil':
      if (facts[0]?.nonPositive) out.mayBeNonPositive = true;
      if (facts[0]?.v !== undefined) return { t: 'num', v: Math.ceil(facts[0].v) };
      return out;
    case 'math.max':
      if (facts.length > 0 && facts.every((f) => f.nonPositive)) out.mayBeNonPositive = true;
      if (facts.some((f) => f.fractional)) out.mayBeFractional = true;
      return out;
    case 'math.min':
      if (facts.some((f) => f.nonPositive)) out.mayBeNonPositive = true;
      if (facts.some((f) => f.fractional)) out.mayBeFractional = true;
      return out;
    case 'math.abs':
      if (facts[0]?.fractional) out.mayBeFractional = true;
      out.mayBeNonPositive = true;
      return out;
    default:
      return { t: 'num', mayBeNonPositive: true, mayBeFractional: true };
  }
}

function arithmetic(op: string, a: number, b: number): number | undefined {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? undefined : a / b;
    default:
      return undefined;
  }
}

function lastCodeOffset(source: string): number {
  let end = source.length - 1;
  while (end > 0 && /\s/.test(source[end]!)) end--;
  return Math.max(0, end);
}

// ---------------------------------------------------------------------------------------------
// Messages: what is wrong, why it leaks, the safe replacement.

function describeExit(exit: Exit, line: number): string {
  const inFn = exit.functionName ? ` of function '${exit.functionName}'` : '';
  switch (exit.kind) {
    case 'return':
      return `the path that returns at line ${line}${inFn}`;
    case 'end':
      return exit.functionName ? `the end of function '${exit.functionName}' (line ${line})` : `the end of the script (line ${line})`;
    case 'error':
      return `the error raised at line ${line}${inFn} (Redis keeps the writes made before an error)`;
    case 'error-reply':
      return `the error reply returned at line ${line}${inFn} (Redis keeps the writes made before it)`;
    case 'assert':
      return `the failing assert at line ${line}${inFn} (Redis keeps the writes made before it)`;
    case 'command-error':
      return `the error Redis raises for the command at line ${line}, which aborts the script (writes made before it stay)`;
    case 'compare-error':
      return `the comparison at line ${line}, which raises "attempt to compare number with string" (use tonumber() on ARGV values)`;
  }
}

function writePathMessage(site: WriteSite, where: string): string {
  const key = site.keyName;
  switch (site.effect) {
    case 'overwrite':
      return (
        `${site.command} on ${key} creates the key without a TTL or removes the TTL it had, and ${where} leaves it that way: ` +
        `the key never expires. ` +
        (site.command === 'SET'
          ? `Write it with its expiry in the same command: SET key value PX <ms> (or EX <seconds>).`
          : `Follow it with PEXPIRE ${key} <ms> on every path.`)
      );
    case 'create-if-missing':
      return (
        `${site.command} on ${key} can create the key without a TTL, and ${where} leaves it that way: a key that is never ` +
        `deleted (a lock whose owner crashed) lives forever. Create it with its expiry in one command: SET key value NX PX <ms>.`
      );
    case 'clear-ttl-if-present':
      return (
        `SET ... XX on ${key} without KEEPTTL or an expiry removes the key's TTL, and ${where} leaves it that way. ` +
        `Keep the TTL with SET key value XX KEEPTTL, or set a new one with SET key value XX PX <ms>.`
      );
    default:
      return (
        `${site.command} on ${key} can create the key without a TTL, and ${where} gets there before any expiry is set ` +
        `on it: the key would never expire. Call PEXPIRE ${key} <ms> after the write on every path (before that exit too).`
      );
  }
}

function keepTtlMessage(site: WriteSite, where: string): string {
  return (
    `SET ... KEEPTTL on ${site.keyName} keeps an existing TTL but creates a missing key without one, and nothing on this ` +
    `path proves the key exists (${where} leaves it persistent). Return early when GET/EXISTS says the key is missing, ` +
    `or write SET key value XX KEEPTTL, which never creates the key.`
  );
}

function noGetsetMessage(command: string, key: string): string {
  const what = command === 'GETSET' ? 'GETSET' : 'SET ... GET without KEEPTTL or an expiry';
  return (
    `${what} on ${key} replaces the value and drops the key's TTL, so a key meant to expire becomes persistent. ` +
    `Use SET key value XX KEEPTTL GET: it returns the old value, keeps the TTL and never creates a missing key.`
  );
}

function noPersistMessage(command: string, key: string): string {
  const what = command === 'PERSIST' ? 'PERSIST' : 'GETEX ... PERSIST';
  return (
    `${what} on ${key} removes the key's TTL: it then lives until something deletes it. Remove the call; ` +
    `to change the TTL use PEXPIRE, or declare the key persistent on purpose (-- redis-ttl persistent: ${key}).`
  );
}

function nonPositiveMessage(command: string, value: CommandArg): string {
  if (command === 'SET' || command === 'SETEX' || command === 'PSETEX') {
    return (
      `${command} with the expiry ${String(value)} is rejected by Redis ("invalid expire time"), which aborts the script ` +
      `and keeps every write made before it. Use a positive integer TTL.`
    );
  }
  const integer = typeof value === 'number' ? Number.isInteger(value) : typeof value === 'string' && /^[+-]?\d+$/.test(value.trim());
  if (!integer) {
    return (
      `${command} with the timeout ${String(value)} is rejected by Redis ("value is not an integer"), which aborts the ` +
      `script and keeps every write made before it. Use a positive integer TTL.`
    );
  }
  return (
    `${command} with a timeout of ${String(value)} does not set a TTL: it deletes the key at once. ` +
    `Use DEL if that is the intent, or a positive TTL.`
  );
}

function keyMustComeFromKeysMessage(command: string, key: string, value: Value): string {
  const origin =
    value.t === 'str' && value.argv !== undefined
      ? 'is taken from ARGV'
      : value.t === 'str' && value.v !== undefined
        ? 'is a literal'
        : 'is built inside the script';
  return (
    `The key of ${command} (${key}) ${origin} instead of coming from KEYS: Redis Cluster routes a script by its ` +
    `declared keys, so this key may live on another node (CROSSSLOT / misrouted writes), and expiries set on KEYS do not ` +
    `cover it. Pass the key in KEYS (with a {hash tag} shared with the other keys).`
  );
}

function unknownOptionsMessage(command: string): string {
  return (
    `The options of this ${command} are not literals, so nothing can prove whether it keeps or sets a TTL ` +
    `(an option such as KEEPTTL or EX may or may not be there). Spell the options out: ${command} key value PX <ms>.`
  );
}

function unanalyzableMessage(text: string | undefined): string {
  return (
    `The command name of this redis.call${text ? ` (${text})` : ''} is not a literal or a known constant, so nothing can ` +
    `be proved about the TTL of the keys it writes. Call each command with a literal name.`
  );
}

/**
 * Walks a parsed script and returns its raw findings.
 * @throws never on well-formed luaparse ASTs; a step budget stops pathological inputs.
 */
export function walkScript(input: WalkInput): WalkResult {
  return new Walker(input).run();
}
