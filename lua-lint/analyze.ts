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
import { describeCommand, type CommandArg, type CommandDescription, type KeyAction, type KeyEffect } from '../semantics/commands.js';
import { foldArithmetic, unitMismatch, unitOfLiteral, unitOfName, type UnitGuess } from '../semantics/ttl-units.js';
import { isTooNew, type RedisVersion } from '../semantics/versions.js';
import { fixedWindowFindings } from './fixed-window.js';
import type { ScriptIndex } from './script-index.js';
import {
  keyFactsOfComparison,
  keyFactsOfTruth,
  MOVES_REPLYING_THE_ELEMENT,
  REPLY_TO_STRING_COMMANDS,
  SIZE_READS,
  alwaysStatusReply,
  createdShape,
  removalEmpties,
  removalKeeps,
  replyLuaType,
  mayReplyWhenCreated,
  replyWhenCreated,
  WHOLE_AGGREGATE_READS,
  type KeyFacts,
} from './idioms.js';
import {
  adopt,
  clone,
  equalStates,
  join,
  joinAll,
  joinNullable,
  newKeyState,
  newReply,
  newState,
  NIL,
  NUMBER,
  sameValue,
  setKey,
  setVar,
  snapshot,
  withKey,
  withReply,
  createdAt,
  getKey,
  markNoTtl,
  deleteVar,
  noteNoTtl,
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
import {
  describeExit,
  keepTtlMessage,
  keyMustComeFromKeysMessage,
  noGetsetMessage,
  nonPositiveMessage,
  minRedisVersionMessage,
  ttlUnitsMessage,
  computedTtlMessage,
  uncheckedArgvTtlMessage,
  noPersistMessage,
  optionalTtlNote,
  unanalyzableMessage,
  undefinedFunctionMessage,
  unknownOptionsMessage,
  writePathMessage,
  type Exit,
  type Position,
  type RejectedExpiry,
  type WriteSite,
} from './messages.js';
import type { LuaRuleId } from './types.js';

export type { Exit, WriteSite } from './messages.js';

// ---------------------------------------------------------------------------------------------
// Results

/** A finding before positions and severities are applied. */
export interface RawFinding {
  ruleId: LuaRuleId;
  node: L.Node;
  message: string;
  /** The key concerned, as spelled in the script (for persistence checks). */
  keyNames?: string[];
  /** The leak happens only on paths where the caller passed no TTL (see `LuaFinding.optionalTtl`). */
  optionalTtl?: true;
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
  /**
   * Whether a write to a key (by any of its spellings) at a 1-based line is persistent on purpose.
   * Absent: no key is (then the walk computes no line for a write).
   */
  isPersistent?(names: readonly string[], line: number): boolean;
  lineOf(offset: number): number;
  /** The line and column messages print for an offset (defaults to the script's own). */
  positionOf?(offset: number): Position;
  /** Strict mode: an ARGV TTL never compared with a number is reported (`expire-needs-positive-ttl`). */
  strict?: boolean;
  /** The configured oldest server, for `min-redis-version`. */
  redisVersion?: RedisVersion;
  /** The script's index, collected while parsing it (`ParsedScript.index`). */
  index: ScriptIndex;
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
/** How many iterations of a loop over KEYS run on named keys before the generic element. */
const MAX_UNROLLED_KEYS = 8;
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

  private names: Set<string> | undefined;
  /**
   * `expire-needs-positive-ttl` findings on computed TTLs, kept until the end: one whose effect
   * already shows as a leak (the script raised at that expiry, or a later write recreated the key
   * it deleted) is that leak's root cause, reported once as `write-path-needs-ttl`.
   */
  private readonly ttlCandidates: Array<{ node: L.Node; message: string; offset: number; keyId?: string }> = [];
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

  /** Every name the script declares or assigns anywhere (functions, locals, globals, parameters). */
  private definedNames(): Set<string> {
    // the scan listed them: the locals (functions, parameters, loop variables among them) and the
    // names assigned by `name = v`
    if (this.names) return this.names;
    const { locals, assigned } = this.input.index;
    return (this.names = new Set([...locals, ...assigned]));
  }

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
    for (const finding of fixedWindowFindings(this.scriptIndex(), source)) this.report('fixed-window-expire', finding.node, finding.message);
    for (const candidate of this.ttlCandidates) {
      let explained = false;
      for (const [siteId, leak] of this.leaks) {
        if (leak.exit.offset === candidate.offset || (candidate.keyId !== undefined && leak.keyId === candidate.keyId && rangeOf(this.sites[siteId]!.node)[0] > candidate.offset)) {
          explained = true;
          break;
        }
      }
      if (!explained) this.report('expire-needs-positive-ttl', candidate.node, candidate.message);
    }
    for (const [siteId, leak] of this.leaks) {
      const [key, ...others] = displayKeys([leak.keyId, ...leak.otherKeys]);
      this.reportLeak(this.sites[siteId]!, leak.exit, key!, others, leak.keyId, this.optionalTtl(siteId, [leak.keyId, ...leak.otherKeys]));
    }
    incomplete ??= this.unfollowed;
    const findings: RawFinding[] = [];
    for (const byRule of this.findings.values()) for (const finding of byRule.values()) findings.push(finding);
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

  private exit(st: State, exit: Exit): void {
    if (st.dead) return;
    const withName = this.entryName !== undefined ? { ...exit, functionName: this.entryName } : exit;
    for (const [keyId, key] of st.keys) {
      for (const site of key.pending) {
        if (site < 0) continue;
        // the ARGV values every path that leaks this write tested as "no TTL"; a path that ends in
        // an error (the script rejecting "no TTL" after the write) is a bug, not the caller's choice
        const absent = (exit.kind === 'return' || exit.kind === 'end' ? key.noTtl?.get(site) : undefined) ?? NO_ARGS;
        const before = this.noTtlArgs.get(site);
        if (before === undefined) this.noTtlArgs.set(site, absent);
        else if (before.length > 0) this.noTtlArgs.set(site, before.filter((n) => absent.includes(n)));
        const leak = this.leaks.get(site);
        if (!leak) this.leaks.set(site, { exit: withName, keyId, otherKeys: new Set() });
        else if (leak.keyId !== keyId) leak.otherKeys.add(keyId); // a helper's write, called on several keys
      }
    }
    st.dead = true;
  }

  /**
   * The state of a path that raises right here, forked from `st`: under pcall the raise keeps it as
   * a return (a fork like any); elsewhere the exit only reads it (and a write to it copies the small
   * maps it shares), so `st` stays the owner of its maps.
   */
  private raising(st: State, ctx: Ctx): State {
    return ctx.fn.protected || !st.keys.copiesOnFork() || !st.vars.copiesOnFork() ? clone(st) : snapshot(st);
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
    return { scope: { parent: ctx.scope, names: undefined }, fn: ctx.fn };
  }

  /** Runs a block in a scope of its own and forgets its locals afterwards (they are out of reach). */
  private scopedBlock(body: readonly L.Statement[], st: State, ctx: Ctx): State {
    const inner = this.child(ctx);
    const out = this.block(body, st, inner);
    this.dropScope(out, inner.scope);
    return out;
  }

  private dropScope(st: State, scope: Scope): void {
    if (st.dead || scope.names === undefined || scope.names.size === 0) return;
    for (const id of scope.names.values()) deleteVar(st, id);
  }

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

  /**
   * Runs a loop to a fixpoint. `iterate` runs one iteration from a head state and returns the
   * state that goes round again (`next`) and the state that leaves normally (`done`).
   * With `atLeastOnce`, the state before the loop is not a way out (loops over KEYS, repeat).
   */
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
    let before: KeyState | undefined;
    if (element) {
      // The element key starts each loop with a marker pending site and a fresh version: at the
      // end, a marker gone on every path means every key got an expiry or was deleted.
      start = this.bump();
      before = getKey(st, element.id);
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
    if (!done.dead) this.everyKey(done, element, start!, before!);
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
        return newKeyState([], 'no', lastDelete, lastDelete);
      }
      return withKey(key, { pending: [], ttl: true, version: this.bump() });
    };
    for (const [id, key] of [...st.keys]) if (id.startsWith(prefix) && !id.endsWith('[*]')) setKey(st, id, update(key));
    setKey(st, universalId(table), withKey(update(getKey(st, universalId(table))), { pending: [] }));
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
  private everyKey(st: State, element: { table: string; id: string; from: number }, start: number, before: KeyState): void {
    const el = st.keys.get(element.id);
    if (!el) return;
    const cleared = !el.pending.includes(LOOP_MARKER);
    const pending = el.pending.filter((site) => site !== LOOP_MARKER);
    const touched = el.version !== start || el.lastDelete > start;
    const deleted = el.lastDelete > start;
    // A state change after the last delete: the body may have created the key.
    const mayCreate = el.version !== start && el.version !== el.lastDelete;
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
      if (id === element.id || !id.startsWith(prefix)) continue;
      const index = Number(id.slice(prefix.length, -1));
      if (!id.endsWith('[#]') && Number.isInteger(index) && index >= element.from) setKey(st, id, apply(key));
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

  private forGeneric(node: L.ForGenericStatement, st: State, ctx: Ctx): State {
    let element: Value = UNKNOWN;
    let overKeys = false;
    let keysTable: string | undefined;
    let ipairs = false;
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
  private readonly declarationIds = new Map<object, number>();

  private declare(scope: Scope, st: State, name: string, value: Value, site?: object): void {
    let id = site ? this.declarationIds.get(site) : undefined;
    if (id === undefined) {
      id = this.nextVar++;
      if (site) this.declarationIds.set(site, id);
    }
    (scope.names ??= new Map()).set(name, id);
    setVar(st, id, value);
  }

  private lookupVar(scope: Scope, name: string): number | undefined {
    if (!this.input.index.locals.has(name)) return undefined; // declared nowhere: no scope has it
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const id = s.names?.get(name);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  private assign(scope: Scope, st: State, name: string, value: Value): void {
    const id = this.lookupVar(scope, name) ?? this.globalVar(name);
    setVar(st, id, value);
  }

  private readonly globals = new Map<string, number>();
  /** Set by a comparison that can never be true (a number compared with a string). */
  private neverTrue: { offset: number; reason: string } | undefined;

  /**
   * Remembers the expiries written in a branch whose guard is never true, by the key they name
   * (evaluated in the state at the guard), so that a leak of that key can say why they do not count.
   */
  private noteRejectedExpiries(body: readonly L.Statement[], st: State, ctx: Ctx, guard: { offset: number; reason: string }): void {
    forEachNode(body, (n) => {
      if (n.type === 'FunctionDeclaration') return false;
      if (n.type !== 'CallExpression' || n.arguments.length < 2) return true;
      const [name, keyNode] = n.arguments;
      const command = name?.type === 'StringLiteral' && typeof name.value === 'string' ? name.value.toUpperCase() : undefined;
      if (command && keyNode && EXPIRY_COMMANDS.has(command)) {
        const key = this.keyOf(this.expression(keyNode, clone(st), ctx), keyNode);
        if (key && !this.rejectedExpiries.has(key.id)) {
          this.rejectedExpiries.set(key.id, { expiry: this.position(rangeOf(n)[0]), guard: this.position(guard.offset), reason: guard.reason });
        }
      }
      return true;
    });
  }

  /**
   * Per write site, the ARGV indices that every path leaking it tested as "no TTL" (`ttl > 0`
   * false, `not ttl`, `ARGV[n] == ''`).
   */
  private readonly noTtlArgs = new Map<number, readonly number[]>();
  /** Per key, where the TTLs of its expiries come from: an ARGV index, or `'other'` (a literal, a computation). */
  private readonly expiryTtls = new Map<string, Set<number | 'other'>>();

  private noteExpiryTtl(keyId: string, ttl: Value | undefined): void {
    let sources = this.expiryTtls.get(keyId);
    if (!sources) this.expiryTtls.set(keyId, (sources = new Set()));
    sources.add((ttl && callerArgv(ttl)) ?? 'other');
  }

  /**
   * Whether a leak is the caller's choice, and through which ARGV: every path that leaks the write
   * tested an ARGV value as "no TTL", and every expiry the script gives each leaking key takes its
   * TTL from such a value (`if ttl > 0 then PEXPIRE k ttl end` with ttl = ARGV[1]): the only
   * expiry the path misses is the one the caller turned off.
   */
  private optionalTtl(siteId: number, keyIds: readonly string[]): number | undefined {
    const absent = this.noTtlArgs.get(siteId);
    if (!absent || absent.length === 0) return undefined;
    let argv: number | undefined;
    for (const keyId of keyIds) {
      const sources = this.expiryTtls.get(keyId);
      if (!sources || sources.size === 0) return undefined;
      for (const source of sources) {
        if (source === 'other' || !absent.includes(source)) return undefined;
        argv ??= source;
      }
    }
    return argv;
  }

  /** Per key, an expiry under a guard that is never true: its leaks say so. */
  private readonly rejectedExpiries = new Map<string, RejectedExpiry>();
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
        const compared = `${luaTypeOf(left)} with ${luaTypeOf(right)}`;
        if (op === '==' || op === '~=') {
          this.neverTrue = { offset: rangeOf(node)[0], reason: `compares a ${luaTypeOf(left)} with a ${luaTypeOf(right)}, which Lua 5.1 never finds equal${compared.includes('string') ? '; use tonumber() on ARGV values' : ''}` };
          if (op === '~=') this.neverTrue = undefined;
          return op === '==' ? [null, st] : [st, null];
        }
        this.raise(st, ctx, { kind: 'compare-error', offset: rangeOf(node)[0], compared });
        return [null, null];
      }
      const test = ttlPresenceTest(left, op, right);
      if (op === '==' || op === '~=') {
        const known = this.argvEquality(left, right, op, st);
        if (known) return this.markTtlAbsent(known, test);
      }
      const facts = keyFactsOfComparison(left, op, right);
      return this.markTtlAbsent(this.applyFacts(st, facts, ctx, rangeOf(node)[0]), test);
    }
    const value = this.expression(node, st, ctx);
    if (st.dead) return [null, null];
    const argv = callerArgv(value);
    return this.markTtlAbsent(this.applyFacts(st, keyFactsOfTruth(value)), argv === undefined ? undefined : { argv, absentWhenTrue: false });
  }

  /** Whether the script tests an ARGV value as "no TTL" anywhere: until then, writes skip that bookkeeping. */
  private noTtlTested = false;

  /** Marks the "no TTL" edge of a TTL presence test: that path did not get a TTL from the caller. */
  private markTtlAbsent(edges: [State | null, State | null], test: TtlPresenceTest | undefined): [State | null, State | null] {
    const absent = test ? edges[test.absentWhenTrue ? 0 : 1] : null;
    if (test && absent && !absent.dead) {
      this.noTtlTested = true;
      markNoTtl(absent, test.argv);
    }
    return edges;
  }

  /**
   * `ARGV[1] == 'set'` (or `tonumber(ARGV[2]) == 0`): each edge remembers what it proved, so that the
   * same test later on the path is decided (`if mode == 'a' then SET ... end ... if mode == 'a' then
   * EXPIRE ... end`).
   */
  private argvEquality(left: Value, right: Value, op: '==' | '~=', st: State): [State | null, State | null] | undefined {
    const side = (value: Value): { id: number } | undefined =>
      value.t === 'str' && value.v === undefined && typeof value.argv === 'number'
        ? { id: -1_000_000 - value.argv }
        : value.t === 'num' && value.v === undefined && value.argv !== undefined
          ? { id: -2_000_000 - value.argv }
          : undefined;
    const literal = (value: Value): string | undefined => (value.t === 'str' || value.t === 'num') && value.v !== undefined ? String(value.v) : undefined;
    const arg = side(left) ?? side(right);
    const lit = side(left) ? literal(right) : literal(left);
    if (!arg || lit === undefined) return undefined;
    const current = st.vars.get(arg.id);
    const facts = current?.t === 'argvFacts' ? current : { t: 'argvFacts' as const, not: [] as readonly string[] };
    let edges: [State | null, State | null];
    if (facts.equals !== undefined) edges = facts.equals === lit ? [st, null] : [null, st];
    else if (facts.not.includes(lit)) edges = [null, st];
    else {
      const other = clone(st);
      setVar(st, arg.id, { t: 'argvFacts', equals: lit, not: [] });
      setVar(other, arg.id, { t: 'argvFacts', not: [...facts.not, lit] });
      edges = [st, other];
    }
    return op === '==' ? edges : [edges[1], edges[0]];
  }

  private applyFacts(st: State, facts: KeyFacts | undefined, ctx?: Ctx, offset = 0): [State | null, State | null] {
    if (!facts) return [st, clone(st)];
    if (facts.always === true) return [st, null];
    if (facts.always === false) return [null, st];
    if (facts.raisesWhenMissing && ctx) {
      const missing = this.refine(this.raising(st, ctx), 'missing', facts);
      if (missing) this.raise(missing, ctx, { kind: 'compare-error', offset, compared: 'nil with number' });
    }
    const other = clone(st);
    let t = this.refine(st, facts.whenTrue, facts);
    let f = this.refine(other, facts.whenFalse, facts);
    if (facts.and) {
      if (t) t = this.refine(t, facts.and.whenTrue, facts.and);
      if (f) f = this.refine(f, facts.and.whenFalse, facts.and);
    }
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
    if (fact === 'no-ttl-or-missing') {
      // PTTL < 0: with a TTL on every path, the key must be missing.
      if (!key.ttl) return st;
      if (key.exists === 'yes') return null;
      setKey(st, facts.keyId, withKey(key, { exists: 'no', pending: [] }));
      return st;
    }
    switch (fact) {
      case 'exists':
      case 'no-ttl':
        if (key.exists !== 'yes') setKey(st, facts.keyId, withKey(key, { exists: 'yes' }));
        return st;
      case 'missing':
        setKey(st, facts.keyId, withKey(key, { exists: 'no', pending: [] }));
        return st;
      case 'has-ttl-or-missing':
        setKey(st, facts.keyId, withKey(key, { pending: [], ttl: true }));
        return st;
      case 'has-ttl':
        setKey(st, facts.keyId, withKey(key, { pending: [], exists: 'yes', ttl: true }));
        return st;
      case 'site-did-not-create':
        if (facts.site !== undefined && key.pending.includes(facts.site)) setKey(st, facts.keyId, withKey(key, { pending: key.pending.filter((s) => s !== facts.site) }));
        return st;
      case 'not-created-by-site':
        if (facts.surelyCreated) return null;
        setKey(st, facts.keyId, withKey(key, { exists: 'yes', pending: facts.site === undefined ? key.pending : key.pending.filter((s) => s !== facts.site) }));
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
    if (fact === 'not-created-by-site' || fact === 'site-did-not-create') pending = pending.filter((site) => site !== facts.site);
    if (pending.length !== key.pending.length) setKey(st, keyId, withKey(key, { pending }));
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
    if (callee.t !== 'builtin') {
      const name = undefinedCallee(baseNode, this.definedNames());
      if (name !== undefined && callee.t === 'unknown' && !callee.origin) this.report('unanalyzable-command', node, undefinedFunctionMessage(name));
      return UNKNOWN;
    }
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
        if (arg.t === 'reply') return withReply(arg, { luaType: 'number', numeric: true });
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
        // unpack(KEYS); unpack(t) of a table the script built or filled: its items; unpack(t) of
        // a table holding values we cannot list one by one ({unpack(ARGV)}): unknown values.
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
    const scope: Scope = { parent: fn.scope, names: undefined };
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
    // the arguments after the name, and as literals up to the first spread (one pass)
    const args: Value[] = [];
    const literalArgs: CommandArg[] = [];
    let spreadIndex = -1;
    for (let i = 1; i < rawArgs.length; i++) {
      const a = rawArgs[i]!;
      args.push(a);
      if (spreadIndex >= 0) continue;
      literalArgs.push(a.t === 'str' && a.v !== undefined ? a.v : a.t === 'num' && a.v !== undefined ? a.v : undefined);
      if (a.t === 'spread') spreadIndex = i - 1;
    }
    // A spread may stand for any number of arguments: two unknown ones make the table read the
    // options it cannot see as unknown (SET key unpack(ARGV), SET key value unpack(opts)).
    if (spreadIndex >= 0) literalArgs.push(undefined);
    const facts = describe(nameValue.v, literalArgs);
    const description = facts.description;
    const command = description.name;
    if (!description.known) return newReply(command, 0, pcall);
    const offset = rangeOf(node)[0];
    if (description.rejectedWhenExists) {
      // GETEX with a bad literal expiry: an error when the key exists, nil when it is missing.
      const index = description.nonPositiveTtlArg;
      if (index !== undefined) this.report('expire-needs-positive-ttl', argNodes[index + 1] ?? node, nonPositiveMessage(command, literalArgs[index]));
      const key = args[0] ? this.keyOf(args[0], argNodes[1]) : undefined;
      const state = key ? getKey(st, key.id) : undefined;
      if (!pcall && state?.exists !== 'no') {
        const existing = state?.exists === 'yes' || !key ? st : this.raising(st, ctx);
        if (existing !== st) setKey(existing, key!.id, withKey(state!, { exists: 'yes' }));
        this.raise(existing, ctx, key ? { kind: 'command-error', offset, reason: `when ${key.display} exists` } : { kind: 'command-error', offset });
        if (st.dead) return UNKNOWN;
        // on the path that goes on, the key was missing: nothing it held is left without TTL
        if (key) setKey(st, key.id, withKey(state!, { exists: 'no', pending: [] }));
      }
      return NIL;
    }
    if (description.rejected) {
      const index = description.nonPositiveTtlArg;
      if (index !== undefined) this.report('expire-needs-positive-ttl', argNodes[index + 1] ?? node, nonPositiveMessage(command, literalArgs[index]));
      // Redis rejects the command; in a script the error aborts it (redis.pcall returns the error instead).
      if (!pcall) this.raise(st, ctx, { kind: 'command-error', offset });
      return UNKNOWN;
    }
    if (description.unknownOptions && command === 'SET') {
      this.report('unanalyzable-command', node, unknownOptionsMessage(command));
    }
    if (this.input.redisVersion && description.requires && isTooNew(description.requires, this.input.redisVersion)) {
      this.report('min-redis-version', node, minRedisVersionMessage(description.requires.feature, description.requires.version));
    }
    if (description.ttl) {
      const keyId = args[0] ? this.keyOf(args[0], argNodes[0 + 1])?.id : undefined;
      this.checkTtlValue(node, command, description, args[description.ttl.arg], argNodes[description.ttl.arg + 1], spreadIndex >= 0 && description.ttl.arg >= spreadIndex, keyId);
    }
    // A TTL computed in the script: Redis may reject it (a fraction; <= 0 for SET EX) or take it as
    // "delete now" (<= 0, or an absolute time already past).
    const risk = description.ttl ? ttlRisk(command, description.ttl.unit, args[description.ttl.arg]) : NO_RISK;
    if (risk.mayRaise && !pcall) this.raise(this.raising(st, ctx), ctx, { kind: 'command-error', offset, reason: 'when the computed TTL is not a positive integer' });
    // redis.pcall of a command Redis may reject: on that path nothing was written.
    const rejectedUnderPcallTtl = pcall && risk.mayRaise ? clone(st) : undefined;
    // RENAME of a missing source raises "ERR no such key" (redis.pcall: nothing happens).
    let missingUnderPcall: State | undefined;
    for (const action of description.keys) {
      if (!action.mustExist) continue;
      const value = args[action.arg];
      const key = value ? this.keyOf(value, argNodes[action.arg + 1]) : undefined;
      if (!key) continue;
      const state = getKey(st, key.id);
      if (state.exists === 'yes') continue;
      if (pcall) {
        if (state.exists === 'no') return newReply(command, 0, pcall);
        missingUnderPcall = clone(st);
      } else {
        const missing = state.exists === 'no' ? st : this.raising(st, ctx);
        // On that path the key was missing: no write left it without TTL.
        if (missing !== st) setKey(missing, key.id, withKey(state, { exists: 'no', pending: [] }));
        this.raise(missing, ctx, { kind: 'command-error', offset, reason: `"no such key" when ${key.display} is missing` });
        if (st.dead) return UNKNOWN;
      }
      setKey(st, key.id, withKey(state, { exists: 'yes' }));
    }
    /** Every way out from here keeps the path where redis.pcall's command was rejected (see {@link keepRejected}). */
    const rejected = rejectedUnderPcallTtl ?? missingUnderPcall;
    // COPY k k: "ERR source and destination objects are the same".
    if (command === 'COPY' && args[0] && args[1] && this.keyOf(args[0], argNodes[0 + 1])?.id === this.keyOf(args[1], argNodes[1 + 1])?.id) {
      if (!pcall) this.raise(st, ctx, { kind: 'command-error', offset, reason: 'COPY onto its own source' });
      return this.keepRejected(st, rejected, UNKNOWN);
    }
    // RENAMENX / COPY may do nothing at all (destination exists, source missing): both outcomes.
    if (outcomes) {
      const mayDoNothing = this.mayDoNothing(description, args, argNodes, st);
      if (mayDoNothing === 'always') {
        const reply = newReply(command, 0, pcall);
        reply.luaType = 'number';
        return this.keepRejected(st, rejected, reply);
      }
      if (mayDoNothing) {
        const unchanged = clone(st);
        this.nothingDone(description, args, argNodes, unchanged);
        const reply = this.redisCall(node, rawArgs, argNodes, st, ctx, pcall, false);
        adopt(st, join(st, unchanged));
        return this.keepRejected(st, rejected, reply.t === 'reply' ? withReply(reply, { version: 0 }) : reply);
      }
    }

    let firstKey: { id: string } | undefined;
    /** The key the write site is about: guards on the reply speak of it (LMOVE's destination). */
    let siteKey: string | undefined;
    const keyIds: string[] = []; // argument index -> key id, for moves onto themselves
    let site: number | undefined;
    let surelyCreated = false;
    let actions: readonly KeyAction[] = description.keys;
    // RENAME deletes its source before the destination reads the source's state, and LMOVE may
    // empty its source before the destination asks whether it had an element: both read the keys
    // as they were before the command (`before`), which the command's first write forks from.
    const keysBefore = st.keys;
    const stateBefore = { keys: keysBefore } as State;
    if (facts.readsBefore) st.ownKeys = false;
    let spreadKeys: Value[] = [];
    if (spreadIndex >= 0) {
      // unpack(KEYS): every argument from the spread on is a key of that table; unpack(t) of a
      // table the script filled: its items, at the key positions of the command.
      const spread = args[spreadIndex] as Extract<Value, { t: 'spread' }>;
      const keyAction = description.keys.find((k) => k.arg >= spreadIndex);
      if (keyAction || actions.length === 0) {
        const effect = keyAction?.effect;
        if (effect && spread.of) actions = [...actions, { arg: -1, effect }];
        else if (effect && spread.items) {
          const pairs = PAIRS_COMMANDS.has(command);
          spreadKeys = spread.items.filter((_, i) => !pairs || i % 2 === 0);
          actions = [...actions, ...spreadKeys.map((_, i): KeyAction => ({ arg: -2 - i, effect }))];
        }
      }
    }
    for (const action of actions) {
      const value = action.arg === -1 ? element((args[spreadIndex] as Extract<Value, { t: 'spread' }>).of!) : action.arg <= -2 ? spreadKeys[-2 - action.arg] : args[action.arg];
      if (!value) continue;
      const argNode = action.arg >= 0 ? argNodes[action.arg + 1] : undefined;
      const key = this.keyOf(value, argNode);
      if (!key) continue;
      if (value.t !== 'key' && (value.t === 'str' || value.t === 'num' || (value.t === 'unknown' && value.origin))) {
        // Reported at each call (docs/ttl-semantics.md): each one is a command Cluster may misroute.
        this.report('key-must-come-from-keys', node, keyMustComeFromKeysMessage(command, key.display, value), keyNames(key));
      }
      if (action.arg >= 0) keyIds[action.arg] = key.id;
      // LMOVE / RPOPLPUSH / SMOVE write the destination only when the source has an element (SMOVE: the member).
      let sourceMayBeMissing = false;
      if (action.onlyWithSource !== undefined) {
        const sourceId = keyIds[action.onlyWithSource];
        // LMOVE k k / RPOPLPUSH k k: the list only rotates, and exists whenever anything moves.
        if (sourceId === key.id) continue;
        const source = sourceId !== undefined ? getKey(stateBefore, sourceId).exists : 'maybe';
        if (source === 'no') continue;
        // SMOVE moves one named member, which a source that exists may not hold
        sourceMayBeMissing = source !== 'yes' || action.onlyWithMember === true;
      }
      // A STORE whose result is empty deletes its destination.
      let effect = action.effect;
      let storeMayBeEmpty = false;
      if (action.storeOf) {
        const sources = description.keys
          .filter((k) => k !== action && k.effect === 'read')
          .map((k) => {
            const v = args[k.arg];
            const id = v ? this.keyOf(v, argNodes[k.arg + 1])?.id : undefined;
            return id !== undefined ? getKey(stateBefore, id).exists : 'maybe';
          });
        const empty =
          action.storeOf === 'union' ? sources.every((e) => e === 'no') : action.storeOf === 'intersection' ? sources.some((e) => e === 'no') : sources[0] === 'no';
        if (empty) effect = 'delete';
        else storeMayBeEmpty = !(action.storeOf === 'union' && sources.some((e) => e === 'yes'));
      }
      const persistent = this.input.isPersistent !== undefined && this.input.isPersistent(keyNames(key), this.input.lineOf(offset));
      const state = getKey(st, key.id);
      firstKey ??= { id: key.id };

      if (description.getDropsTtl && action.arg === 0) {
        if (!persistent) this.report('no-getset', node, noGetsetMessage(command, key.display), keyNames(key));
        setKey(st, key.id, withKey(state, { ttl: undefined, exists: 'yes', version: this.bump() }));
        continue;
      }
      if (action.effect === 'remove-ttl') {
        if (!persistent) this.report('no-persist', node, noPersistMessage(command, key.display), keyNames(key));
        setKey(st, key.id, withKey(state, { ttl: undefined, version: this.bump() }));
        continue;
      }
      const sourceValue = action.sourceArg !== undefined ? args[action.sourceArg] : undefined;
      const sourceKey = sourceValue ? this.keyOf(sourceValue, undefined) : undefined;
      const sourceState = sourceKey ? getKey(stateBefore, sourceKey.id) : undefined;
      const siteFor = (rule: WriteSite['rule']): number[] => {
        if (persistent) return [];
        site = this.site(node, command, key.display, action.effect, rule);
        siteKey = key.id;
        surelyCreated = state.exists === 'no' && !sourceMayBeMissing;
        return [site];
      };
      let next = this.effect(state, effect, siteFor, sourceState);
      if (this.noTtlTested && site !== undefined && next.pending.includes(site) && !state.pending.includes(site)) next = noteNoTtl(st, next, site);
      const rotates =
        action.mayDelete === true &&
        description.keys.some((k) => k.onlyWithSource === action.arg && args[k.arg] && this.keyOf(args[k.arg]!, argNodes[k.arg + 1])?.id === key.id);
      const fresh = state.created && state.created.version === state.version ? state.created : undefined;
      if (action.mayDelete && fresh && !rotates && removalEmpties(command, args, fresh)) {
        // Right after the write that may have created it, this removal empties a key that write made.
        const createdBy = fresh.site;
        next = withKey(next, { pending: next.pending.filter((s) => s !== createdBy) });
      }
      if ((sourceMayBeMissing || storeMayBeEmpty) && next.exists === 'yes' && (storeMayBeEmpty || state.exists !== 'yes')) {
        // Nothing moved (an empty source), or the STORE result was empty (the destination deleted).
        const lastDelete = storeMayBeEmpty ? this.bump() : next.lastDelete;
        next = withKey(next, { exists: 'maybe', version: storeMayBeEmpty ? lastDelete : next.version, lastDelete });
      }
      if (action.mayDelete && next.exists === 'yes' && !rotates && !(fresh && removalKeeps(command, args, fresh))) {
        // Removing the last element deletes the key: it may be gone, and may come back without TTL.
        const lastDelete = this.bump();
        next = withKey(next, { exists: 'maybe', version: lastDelete, lastDelete });
      }
      if (risk.mayDelete && action.arg === 0 && next.exists !== 'no' && MAY_DELETE_EFFECTS.has(action.effect)) {
        // An expiry <= 0 or in the past deletes the key: a later write creates it again without TTL.
        const lastDelete = this.bump();
        next = withKey(next, { exists: next.exists === 'yes' && action.effect === 'set-ttl-if-has-ttl' && !state.ttl ? 'yes' : 'maybe', version: lastDelete, lastDelete });
      }
      if (next.created && next.created === state.created && effect !== 'read') {
        // Any other write changes what the key holds: its size right after creation is history.
        next = withKey(next, { created: undefined });
      }
      if (site !== undefined && siteKey === key.id && next.exists !== 'no' && state.exists !== 'yes' && CREATION_ONLY.has(effect)) {
        const shape = createdShape(command, args);
        if (shape) next = withKey(next, { created: createdAt(site, shape, next.version) });
      }
      next = this.fieldEffects(next, state, effect, action, args, spreadIndex, site !== undefined && siteKey === key.id ? site : undefined);
      if (action.fields?.ttl === 'remove' && !persistent) this.report('no-persist', node, noPersistMessage(command, key.display), keyNames(key));
      if (next !== state) setKey(st, key.id, next);
      if (action.effect === 'set-ttl-if-has-ttl') this.conditionalExpiries.add(key.id);
      if (description.ttl && TTL_GIVING_EFFECTS.has(action.effect)) this.noteExpiryTtl(key.id, args[description.ttl.arg]);
      if (action.arg === -1) {
        // DEL unpack(KEYS), ...: the command did to every key what it did to the element, at once.
        const table = (args[spreadIndex] as Extract<Value, { t: 'spread' }>).of;
        if (table?.t === 'keys') this.everyKeyAtOnce(st, table.name, action.effect);
      }
    }
    if (description.nonPositiveTtlArg !== undefined) {
      const argNode = argNodes[description.nonPositiveTtlArg + 1];
      this.report('expire-needs-positive-ttl', argNode ?? node, nonPositiveMessage(command, literalArgs[description.nonPositiveTtlArg]));
    }
    const whenCreated = facts.mayReplyWhenCreated ? replyWhenCreated(command, args) : undefined;
    const replyKey = siteKey ?? firstKey?.id;
    const replyKeyState = replyKey !== undefined ? getKey(st, replyKey) : undefined;
    const reply = newReply(command, replyKeyState?.version ?? 0, pcall);
    reply.pending = replyKeyState?.pending ?? [];
    reply.keyId = replyKey;
    reply.site = site;
    if (site !== undefined && surelyCreated) reply.surelyCreated = true;
    reply.whenCreated = whenCreated;
    if (facts.createsOnTruthy) reply.createsOnTruthy = true;
    if (!pcall && facts.statusReply) reply.status = true;
    if (command === 'MGET') {
      reply.elements = args.map((arg, i) => {
        const key = this.keyOf(arg, argNodes[i + 1]);
        const state = key ? getKey(st, key.id) : undefined;
        return key && state ? { keyId: key.id, version: state.version, pending: state.pending } : { keyId: '', version: -1, pending: [] };
      });
    }
    if (!pcall && facts.movesElement && args[0]) {
      const source = this.keyOf(args[0], argNodes[0 + 1]);
      if (source) {
        reply.sourceKeyId = source.id;
        reply.sourceVersion = getKey(st, source.id).version;
      }
    }
    // A size read right after the write that may have created the key: its size then is known.
    if (site === undefined && replyKeyState?.created && replyKeyState.created.version === replyKeyState.version && facts.sizeRead) {
      reply.sizeWhenCreated = replyKeyState.created.size;
      reply.site = replyKeyState.created.site;
    }
    const luaType = pcall ? undefined : facts.luaType;
    if (luaType) reply.luaType = luaType;
    return this.keepRejected(st, rejected, reply) as Reply;
  }

  /**
   * Every way out of {@link redisCall} after its checks: the path on which redis.pcall's command
   * was rejected (`rejected`, nothing written there), if any, joins `st` again.
   */
  private keepRejected(st: State, rejected: State | undefined, reply: Value): Value {
    if (rejected) adopt(st, join(st, rejected));
    return reply;
  }

  /**
   * Whether RENAMENX / COPY may write nothing on this path: `'always'` when it cannot write
   * (the destination exists for RENAMENX, the source is missing for COPY). `args` are the
   * arguments after the command name, `argNodes` the call's argument nodes (the name first).
   */
  private mayDoNothing(description: CommandDescription, args: readonly Value[], argNodes: readonly L.Expression[], st: State): boolean | 'always' {
    const dest = transferDestination(description);
    if (!dest || dest.sourceArg === undefined) return false;
    const stateOf = (arg: number): KeyState | undefined => {
      const value = args[arg];
      const key = value ? this.keyOf(value, argNodes[arg + 1]) : undefined;
      return key ? getKey(st, key.id) : undefined;
    };
    const source = stateOf(dest.sourceArg);
    const target = stateOf(dest.arg);
    if (!source || !target) return false;
    const copy = description.name === 'COPY';
    if ((copy && source.exists === 'no') || (dest.onlyIfMissing && target.exists === 'yes')) return 'always';
    return (copy && source.exists !== 'yes') || (dest.onlyIfMissing === true && target.exists !== 'no');
  }

  /**
   * What "RENAMENX / COPY did nothing" proves: RENAMENX's destination exists; COPY ... REPLACE's
   * source is missing. `args` and `argNodes` as for {@link mayDoNothing}.
   */
  private nothingDone(description: CommandDescription, args: readonly Value[], argNodes: readonly L.Expression[], st: State): void {
    const dest = transferDestination(description);
    if (!dest || dest.sourceArg === undefined) return;
    const keyAt = (arg: number) => (args[arg] ? this.keyOf(args[arg], argNodes[arg + 1]) : undefined);
    if (description.name !== 'COPY') {
      const target = keyAt(dest.arg);
      if (target) setKey(st, target.id, withKey(getKey(st, target.id), { exists: 'yes' }));
    } else if (!dest.onlyIfMissing) {
      const source = keyAt(dest.sourceArg);
      if (source) setKey(st, source.id, withKey(getKey(st, source.id), { exists: 'no', pending: [] }));
    }
  }

  /** The state of a key after one effect. `site(rule)` registers the write site (or none when persistent). */
  private effect(
    key: KeyState,
    effect: KeyEffect,
    site: (rule: WriteSite['rule']) => number[],
    source: KeyState | undefined,
  ): KeyState {
    const next = this.nextKeyState(key, effect, site, source);
    if (next === key) return key;
    const version = this.bump();
    // A size carried over (RENAME) is the destination's as of now.
    return next.created && next.created !== key.created ? withKey(next, { version, created: createdAt(next.created.site, next.created, version) }) : withKey(next, { version });
  }

  private nextKeyState(
    key: KeyState,
    effect: KeyEffect,
    site: (rule: WriteSite['rule']) => number[],
    source: KeyState | undefined,
  ): KeyState {
    const add = (rule: WriteSite['rule']): readonly number[] => union(key.pending, site(rule));
    switch (effect) {
      case 'create-in-place':
        // A hash this script created with expiring fields only: a field written without TTL keeps it alive.
        if (key.exists === 'yes' && key.fieldsExpire && !key.ttl) return withKey(key, { pending: add('write-path-needs-ttl') });
        return key.exists === 'yes' ? key : withKey(key, { ttl: undefined, created: undefined, pending: add('write-path-needs-ttl'), exists: 'yes' });
      case 'create-if-missing':
        return key.exists === 'yes' ? key : withKey(key, { ttl: undefined, created: undefined, pending: add('write-path-needs-ttl'), exists: 'yes' });
      case 'create-with-field-ttl': {
        // HSETEX ... EX: a missing key is created without key TTL, but every field it holds expires.
        if (key.exists === 'yes') return key;
        return withKey(key, { ttl: undefined, created: undefined, exists: 'yes', fieldsExpire: true });
      }
      case 'keep-ttl':
        return key.exists === 'yes' ? key : withKey(key, { ttl: undefined, created: undefined, pending: add('keepttl-needs-existing-key'), exists: 'yes' });
      case 'overwrite':
        return withKey(key, { ttl: undefined, created: undefined, pending: add('write-path-needs-ttl'), exists: 'yes' });
      case 'clear-ttl-if-present':
        return key.exists === 'no' ? key : withKey(key, { ttl: undefined, created: undefined, pending: add('write-path-needs-ttl') });
      case 'transfer-ttl': {
        const lastDelete = this.bump();
        const created = source?.created && source.created.version === source.version ? createdAt(source.created.site, source.created, lastDelete) : undefined;
        const moved = newKeyState(source?.pending ?? [], source?.exists ?? 'maybe', lastDelete, lastDelete);
        if (source?.ttl) moved.ttl = true;
        if (created) moved.created = created;
        return moved;
      }
      case 'create-with-ttl':
        return withKey(key, { ttl: true, created: undefined, pending: [], exists: 'yes' });
      case 'create-if-missing-with-ttl':
        return key.exists === 'yes' ? key : withKey(key, { created: undefined, exists: 'yes', ttl: key.exists === 'no' || key.ttl ? true : undefined });
      case 'set-ttl':
        return key.pending.length === 0 && key.ttl ? key : withKey(key, { ttl: true, created: undefined, pending: [] });
      case 'delete': {
        const lastDelete = this.bump();
        return newKeyState([], 'no', lastDelete, lastDelete);
      }
      case 'set-ttl-if-has-ttl':
      case 'modify-if-present':
      case 'remove-ttl':
      case 'read':
        return key;
    }
  }

  /**
   * Hash-field expiration (docs/ttl-semantics.md): remembers which fields a hash write left without
   * TTL, takes a write site out of `pending` once every field it wrote got a field TTL (or was
   * deleted), and keeps `fieldSites` / `fieldsExpire` true to the key after any other effect.
   */
  private fieldEffects(
    next: KeyState,
    before: KeyState,
    effect: KeyEffect,
    action: KeyAction,
    args: readonly Value[],
    spreadIndex: number,
    site: number | undefined,
  ): KeyState {
    let out = next;
    if (!FIELD_STATE_KEPT.has(effect) && (out.fieldsExpire || out.fieldSites)) out = withKey(out, { fieldsExpire: undefined, fieldSites: undefined });
    const fields = action.fields;
    if (fields) {
      const ids =
        fields.args === 'unknown' || (spreadIndex >= 0 && fields.args.some((i) => i >= spreadIndex)) ? null : fields.args.map((i) => fieldIdOf(args[i]));
      const known = ids !== null && ids.every((id): id is string => id !== null) ? ids : null;
      if ((fields.ttl === 'clear' || fields.ttl === 'keep') && site !== undefined && out.pending.includes(site) && !before.pending.includes(site)) {
        out = withKey(out, { fieldSites: [...(out.fieldSites ?? []).filter((f) => f.site !== site), { site, fields: known }] });
      } else if ((fields.ttl === 'clear' || fields.ttl === 'keep') && out.fieldSites && out.fieldSites.length > 0) {
        // a field written into a hash this script created: it keeps that hash alive as much as
        // the fields of the creating write do, so covering those alone is not enough
        out = withKey(out, {
          fieldSites: out.fieldSites.map((f) => ({ site: f.site, fields: f.fields === null || known === null ? null : [...new Set([...f.fields, ...known])] })),
        });
      } else if ((fields.ttl === 'set' || fields.ttl === 'delete') && !fields.allOrNone && known && out.fieldSites) {
        const covered = new Set(known);
        const remaining: Array<{ site: number; fields: readonly string[] | null }> = [];
        const done: number[] = [];
        for (const entry of out.fieldSites) {
          const left = entry.fields === null ? null : entry.fields.filter((f) => !covered.has(f));
          if (left !== null && left.length === 0) done.push(entry.site);
          else remaining.push({ site: entry.site, fields: left });
        }
        if (done.length > 0) {
          out = withKey(out, {
            pending: out.pending.filter((p) => !done.includes(p)),
            fieldSites: remaining.length > 0 ? remaining : undefined,
            fieldsExpire: out.ttl ? out.fieldsExpire : true,
          });
        }
      }
    }
    if (out.fieldSites && out.fieldSites.some((f) => !out.pending.includes(f.site))) {
      const kept = out.fieldSites.filter((f) => out.pending.includes(f.site));
      out = withKey(out, { fieldSites: kept.length > 0 ? kept : undefined });
    }
    return out;
  }

  /**
   * `expire-needs-positive-ttl` beyond literals and `ttl-units`, on the TTL argument of a command
   * whose table entry names one (`description.ttl`).
   */
  private checkTtlValue(
    node: L.Node,
    command: string,
    description: CommandDescription,
    value: Value | undefined,
    argNode: L.Expression | undefined,
    spread: boolean,
    keyId: string | undefined,
  ): void {
    if (!value || !argNode || spread || description.nonPositiveTtlArg !== undefined) return;
    const candidate = (message: string): void => {
      this.ttlCandidates.push({ node: argNode, message, offset: rangeOf(node)[0], ...(keyId !== undefined ? { keyId } : {}) });
    };
    const unit = description.ttl!.unit;
    const absolute = unit.startsWith('unix');
    // where the TTL is, for messages: built only for a finding
    const where = (): string => (description.ttlOption ? `${command} ... ${description.ttlOption}` : command);
    // the TTL as the script spells it, for messages: built only for a finding
    const text = (): string => this.input.source.slice(...rangeOf(argNode)).replace(/\s+/g, ' ');
    const name = argNode.type === 'Identifier' ? argNode.name : undefined;
    const checked = name !== undefined && this.comparedBefore(name, rangeOf(node)[0]);
    // the unit: a server time, a literal Unix time, or a name that says it
    let guess: UnitGuess | undefined;
    if (value.t === 'num' && value.clock && value.clock !== 'us') {
      guess = { kind: 'absolute', ...(value.clock === 'now-s' ? { unit: 'seconds' as const } : value.clock === 'future' ? {} : { unit: 'milliseconds' as const }), why: 'it is computed from the server time (TIME)' };
    } else if ((value.t === 'num' || value.t === 'str') && value.v !== undefined && Number.isFinite(Number(value.v))) {
      guess = literalUnit(Number(value.v));
    } else if (name && !(value.t === 'num' && value.argv === undefined)) {
      // a name speaks for a value the script takes as it is (ARGV, a reply); a number the script
      // computes without TIME is a span whatever it is called (`local expireAt = n * interval`)
      guess = nameUnit(name);
    }
    const mismatch = guess ? unitMismatch(guess, unit) : undefined;
    if (guess && mismatch) {
      this.report('ttl-units', argNode, ttlUnitsMessage(where(), text(), guess.why, mismatch));
      return;
    }
    if (absolute || checked || this.addsSlack(argNode, rangeOf(node)[0])) return;
    // `2 ^ n` and other fractions the script rarely means are left to write-path-needs-ttl, which
    // follows the raise when it leaks: a value that can be <= 0 is reported here
    if (value.t === 'num' && value.v === undefined && value.mayBeNonPositive && !value.clock) {
      candidate(computedTtlMessage(where(), text(), false, POSITIVE_TTL_COMMANDS.has(command)));
      return;
    }
    if (value.t === 'reply' && MAY_BE_NEGATIVE_REPLIES.has(value.command)) {
      candidate(computedTtlMessage(where(), text(), false, POSITIVE_TTL_COMMANDS.has(command)));
      return;
    }
    if (this.input.strict && (value.t === 'num' || value.t === 'str') && value.v === undefined && value.argv !== undefined) {
      candidate(uncheckedArgvTtlMessage(where(), text(), POSITIVE_TTL_COMMANDS.has(command)));
    }
  }

  /**
   * A TTL written as `x + n` with a literal n >= 1 (directly, or as the last assignment of the local
   * before `offset`): the author added slack to a span they know is not negative (a token bucket's
   * time to refill, plus a second), which is not worth a finding.
   */
  private addsSlack(argNode: L.Expression, offset: number): boolean {
    const slack = (expr: L.Node | undefined): boolean =>
      expr?.type === 'BinaryExpression' &&
      expr.operator === '+' &&
      [expr.left, expr.right].some((side) => side.type === 'NumericLiteral' && side.value >= 1);
    if (slack(argNode)) return true;
    if (argNode.type !== 'Identifier') return false;
    // the last value assigned to the name by a statement before `offset`
    const list = this.scriptIndex().assignments.get(argNode.name) ?? [];
    let last: L.Node | undefined;
    for (let i = list.length - 1; i >= 0 && last === undefined; i--) if (list[i]!.offset < offset) last = list[i]!.value;
    return slack(last);
  }

  /** Names compared with `<`, `<=`, `>`, `>=` somewhere before `offset` (a positive check of a TTL). */
  private comparedBefore(name: string, offset: number): boolean {
    const offsets = this.scriptIndex().comparisons.get(name);
    return offsets !== undefined && offsets.some((at) => at < offset);
  }

  /** Blocks, comparisons and assignments by name, for the checks that look beyond the path walked. */
  private scriptIndex(): ScriptIndex {
    return this.input.index;
  }

  /** The key a value names, or undefined (see {@link KeyRef}). */
  private keyOf(value: Value, argNode: L.Expression | undefined): KeyRef | undefined {
    const alias = argNode?.type === 'Identifier' ? argNode.name : undefined;
    switch (value.t) {
      case 'key':
        return { id: value.id, display: value.id, spelled: value.id, alias };
      case 'str': {
        if (value.v !== undefined) {
          const id = quotedKeyId(value.v);
          return { id, display: id, spelled: value.v, alias };
        }
        if (value.argv !== undefined) {
          const id = argvKeyId(value.argv);
          return { id, display: id, spelled: id, alias };
        }
        const textNode = value.node ?? argNode;
        if (!textNode) return undefined;
        const text = this.textOf(textNode);
        return { id: text, display: alias ? `${alias} (${text})` : text, spelled: text, alias };
      }
      case 'num': {
        if (value.v === undefined) return undefined;
        const id = String(value.v);
        return { id, display: id, spelled: id, alias };
      }
      case 'unknown': {
        const textNode = value.node ?? argNode;
        if (!textNode) return undefined;
        const text = this.textOf(textNode);
        return { id: text, display: text, spelled: text, alias };
      }
      default:
        return undefined;
    }
  }

  private readonly texts = new Map<L.Node, string>();

  /** {@link expressionText} of a node, computed once per node (keys built in the script are looked up by it). */
  private textOf(node: L.Node): string {
    let text = this.texts.get(node);
    if (text === undefined) this.texts.set(node, (text = expressionText(node)));
    return text;
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

  private report(ruleId: LuaRuleId, node: L.Node, message: string, keyNames?: string[], optionalTtl = false): void {
    let byRule = this.findings.get(node);
    if (!byRule) this.findings.set(node, (byRule = new Map()));
    if (!byRule.has(ruleId)) byRule.set(ruleId, { ruleId, node, message, ...(keyNames ? { keyNames } : {}), ...(optionalTtl ? { optionalTtl: true as const } : {}) });
  }

  private reportLeak(site: WriteSite, exit: Exit, key: string, others: readonly string[], keyId: string, optionalTtlArgv: number | undefined): void {
    const where = describeExit(exit, this.position(exit.offset));
    const rejected = this.rejectedExpiries.get(keyId);
    let message =
      site.rule === 'keepttl-needs-existing-key' ? keepTtlMessage(key, where, others) : writePathMessage(site, key, where, others, rejected);
    if (this.conditionalExpiries.has(keyId)) {
      message += ' Note: an EXPIRE family call with XX or GT never gives a TTL to a key that has none; use NX (or no option) there.';
    }
    if (optionalTtlArgv !== undefined) message += optionalTtlNote(optionalTtlArgv);
    this.report(site.rule, site.node, message, undefined, optionalTtlArgv !== undefined);
  }

  /** The line and column a message prints for an offset. */
  private position(offset: number): Position {
    return this.input.positionOf ? this.input.positionOf(offset) : { line: this.input.lineOf(offset) };
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

// The builtins the walk tests by name, made from these literals so that the tests compare one
// string with itself.
for (const name of [
  'redis.call', 'redis.pcall', 'redis.error_reply', 'redis.register_function', 'redis.sha1hex', 'table.concat', 'table.unpack',
  'table.insert', 'cjson.encode', 'cjson.decode', 'cmsgpack.unpack', 'string.len', 'string.byte', 'string.find', 'math.floor',
  'math.ceil', 'math.max', 'math.min', 'math.abs',
]) builtin(name);

const LITERAL_UNITS = new Map<number, UnitGuess | null>();
const NAME_UNITS = new Map<string, UnitGuess | null>();

/**
 * `guess(input)`, remembered in `memo` (emptied beyond 10,000 entries, so a long run's memory
 * stays bounded): the unit guesses build their reason text, and scripts repeat the same few values.
 */
function rememberedUnit<T>(memo: Map<T, UnitGuess | null>, input: T, guess: (input: T) => UnitGuess | undefined): UnitGuess | undefined {
  let known = memo.get(input);
  if (known === undefined) {
    if (memo.size > 10_000) memo.clear();
    memo.set(input, (known = guess(input) ?? null));
  }
  return known ?? undefined;
}

/** {@link unitOfLiteral}, once per value. */
function literalUnit(value: number): UnitGuess | undefined {
  return rememberedUnit(LITERAL_UNITS, value, unitOfLiteral);
}

/** {@link unitOfName}, once per name (seven regular expressions and a reason text). */
function nameUnit(name: string): UnitGuess | undefined {
  return rememberedUnit(NAME_UNITS, name, unitOfName);
}

/** One node of {@link DESCRIPTIONS}: the description of the arguments so far, and the next argument's nodes. */
interface DescriptionNode {
  described: Described | undefined;
  next: Map<CommandArg, DescriptionNode> | undefined;
}

/**
 * A command's description and what the walk reads of the command besides it, all from the same
 * input (the name and the literal arguments), so computed once with it (see {@link describe}).
 */
interface Described {
  description: CommandDescription;
  /** A key action reads the keys as they were before the command (RENAME's source, LMOVE's). */
  readsBefore: boolean;
  /** The reply is falsy when the command wrote nothing (SET ... NX without GET, LMOVE / RPOPLPUSH). */
  createsOnTruthy: boolean;
  /** Outside redis.pcall the reply is a status or a table: always truthy (`alwaysStatusReply`). */
  statusReply: boolean;
  /** The reply's Lua type outside redis.pcall (`replyLuaType`). */
  luaType: 'number' | undefined;
  /** LMOVE / RPOPLPUSH: the reply is the element moved. */
  movesElement: boolean;
  /** A read of the key's size (`SIZE_READS`). */
  sizeRead: boolean;
  /** `replyWhenCreated` may know the reply (`mayReplyWhenCreated`). */
  mayReplyWhenCreated: boolean;
}

function described(name: string, args: readonly CommandArg[]): Described {
  const description = describeCommand(name, args);
  const command = description.name;
  const movesElement = MOVES_REPLYING_THE_ELEMENT.has(command);
  return {
    description,
    readsBefore: description.keys.some((a) => a.sourceArg !== undefined || a.onlyWithSource !== undefined),
    createsOnTruthy:
      (command === 'SET' && description.keys[0]?.effect.startsWith('create-if-missing') === true && !args.some((a) => typeof a === 'string' && a.toUpperCase() === 'GET')) ||
      movesElement,
    statusReply: alwaysStatusReply(command, args),
    luaType: replyLuaType(command),
    movesElement,
    sizeRead: SIZE_READS.has(command),
    mayReplyWhenCreated: mayReplyWhenCreated(command),
  };
}

/** Descriptions by command name, then by each literal argument in turn (see {@link describe}). */
const DESCRIPTIONS = new Map<string, DescriptionNode>();
let describedCount = 0;

/**
 * {@link describeCommand} and the rest of {@link Described}, remembered by their input: scripts spell the same few commands with the
 * same literal options over and over. The table's answer depends on nothing else, and the walk never
 * changes it. The input is looked up one argument at a time (a Map per argument position: strings,
 * numbers and `undefined` stay apart), with no key string to build.
 */
function describe(name: string, args: readonly CommandArg[]): Described {
  let node: DescriptionNode | undefined = DESCRIPTIONS.get(name);
  if (!node) {
    if (describedCount > 10_000) {
      DESCRIPTIONS.clear();
      describedCount = 0;
    }
    DESCRIPTIONS.set(name, (node = { described: undefined, next: undefined }));
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    let child: DescriptionNode | undefined = node.next?.get(arg);
    if (!child) {
      child = { described: undefined, next: undefined };
      (node.next ??= new Map()).set(arg, child);
    }
    node = child;
  }
  if (node.described === undefined) {
    describedCount++;
    node.described = described(name, args);
  }
  return node.described;
}

/** `base.field` of a builtin table, by the two names (the member's name is not built again at each evaluation). */
const MEMBER_BUILTINS = new Map<string, Map<string, Value>>();

function memberBuiltin(base: string, field: string): Value {
  let fields = MEMBER_BUILTINS.get(base);
  if (!fields) MEMBER_BUILTINS.set(base, (fields = new Map()));
  let value = fields.get(field);
  if (!value) {
    if (fields.size > 1_000) fields.clear();
    fields.set(field, (value = builtin(`${base}.${field}`)));
  }
  return value;
}

/**
 * A key of a KEYS-like table as a value, `KEYS[1]` or `KEYS[*]`: one value (and one id string, whose
 * hash is computed once) per spelling, since the walk looks keys up by id at every command.
 */
const KEY_VALUES = new Map<string, Map<string, Value>>();

function keyValue(table: string, index: string): Value {
  let byIndex = KEY_VALUES.get(table);
  if (!byIndex) {
    if (KEY_VALUES.size > 1_000) KEY_VALUES.clear();
    KEY_VALUES.set(table, (byIndex = new Map()));
  }
  let value = byIndex.get(index);
  if (!value) {
    if (byIndex.size > 10_000) byIndex.clear();
    byIndex.set(index, (value = { t: 'key', id: `${table}[${index}]` }));
  }
  return value;
}

/** `KEYS[n]` for a literal index n. */
function numberedKey(table: string, n: number): Value {
  return Number.isInteger(n) && n >= 0 && n < NUMBERED_KEY_CACHE ? keyValue(table, SMALL_INTEGERS[n]!) : { t: 'key', id: `${table}[${n}]` };
}

const NUMBERED_KEY_CACHE = 256;
const SMALL_INTEGERS = Array.from({ length: NUMBERED_KEY_CACHE }, (_, i) => String(i));

/** What {@link Walker.keyOf} answers: the key's id, how messages show it, and its spellings. */
interface KeyRef {
  id: string;
  display: string;
  /** The key as the script spells it (a literal without quotes). */
  spelled: string;
  /** The local the key was passed through, when the argument is a name. */
  alias: string | undefined;
}

/** Every spelling of a key, for persistent-key patterns and findings. */
function keyNames(key: KeyRef): string[] {
  return key.alias ? [key.id, key.spelled, key.alias] : [key.id, key.spelled];
}

const QUOTED_IDS = new Map<string, string>();

/** The id of a key spelled as a literal: `'name'`. */
function quotedKeyId(literal: string): string {
  let id = QUOTED_IDS.get(literal);
  if (id === undefined) {
    if (QUOTED_IDS.size > 10_000) QUOTED_IDS.clear();
    QUOTED_IDS.set(literal, (id = `'${literal}'`));
  }
  return id;
}

const ARGV_IDS = new Map<number | '*', string>();

/** The id of a key passed in ARGV: `ARGV[2]`. */
function argvKeyId(argv: number | '*'): string {
  let id = ARGV_IDS.get(argv);
  if (id === undefined) {
    if (ARGV_IDS.size > 10_000) ARGV_IDS.clear();
    ARGV_IDS.set(argv, (id = `ARGV[${argv}]`));
  }
  return id;
}

/**
 * Key ids as messages show them: a loop's first key and its other keys (`KEYS[1]`, `KEYS[2..]`)
 * are one `KEYS[*]`.
 */
function displayKeys(ids: readonly string[]): string[] {
  const out = [...ids];
  for (const id of ids) {
    const rest = /^(.*)\[(\d+)\.\.\]$/.exec(id);
    if (!rest) continue;
    const from = Number(rest[2]) - 1;
    const first = `${rest[1]}[${from}]`;
    if (!out.includes(first)) continue;
    const merged = from <= 1 ? `${rest[1]}[*]` : `${rest[1]}[${from}..]`;
    out.splice(out.indexOf(first), 1, merged);
    out.splice(out.indexOf(id), 1);
  }
  return out.filter((id, i) => out.indexOf(id) === i);
}

/** Whether a statement (or a block inside it, functions aside) can leave a loop or the script. */
function statementExits(node: L.Statement): boolean {
  switch (node.type) {
    case 'ReturnStatement':
    case 'BreakStatement':
      return true;
    case 'CallStatement': {
      const base = node.expression.base;
      return base.type === 'Identifier' && (base.name === 'error' || base.name === 'assert');
    }
    case 'IfStatement':
      return node.clauses.some((clause) => clause.body.some(statementExits));
    case 'DoStatement':
    case 'WhileStatement':
    case 'RepeatStatement':
    case 'ForNumericStatement':
    case 'ForGenericStatement':
      return node.body.some(statementExits);
    default:
      return false;
  }
}

/**
 * Calls `visit` on every node under `root`, depth first; `visit` returning `false` skips the
 * node's children.
 */
/** Visits every node under `root` in source order (pre-order); `visit` returning `false` skips a node's children. */
export function forEachNode(root: unknown, visit: (node: L.Node) => boolean | void): void {
  if (!root || typeof root !== 'object') return;
  if (Array.isArray(root)) {
    for (const item of root) forEachNode(item, visit);
    return;
  }
  const node = root as L.Node;
  if (visit(node) === false) return;
  const fields = CHILD_FIELDS[node.type];
  if (fields === undefined) {
    // a node type of another luaparse version: every field, as luaparse wrote them
    for (const [field, value] of Object.entries(node)) if (field !== 'range' && field !== 'loc') forEachNode(value, visit);
    return;
  }
  const record = node as unknown as Record<string, unknown>;
  for (const field of fields) forEachNode(record[field], visit);
}

/**
 * The fields of each luaparse node type that can hold nodes, in the order luaparse creates them
 * (the order `Object.entries` would give, which source-order walks rely on). Leaves have none.
 */
const CHILD_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Chunk: ['body', 'comments'],
  LabelStatement: ['label'],
  BreakStatement: [],
  GotoStatement: ['label'],
  ReturnStatement: ['arguments'],
  IfStatement: ['clauses'],
  IfClause: ['condition', 'body'],
  ElseifClause: ['condition', 'body'],
  ElseClause: ['body'],
  WhileStatement: ['condition', 'body'],
  DoStatement: ['body'],
  RepeatStatement: ['condition', 'body'],
  LocalStatement: ['variables', 'init'],
  AssignmentStatement: ['variables', 'init'],
  CallStatement: ['expression'],
  FunctionDeclaration: ['identifier', 'parameters', 'body'],
  ForNumericStatement: ['variable', 'start', 'end', 'step', 'body'],
  ForGenericStatement: ['variables', 'iterators', 'body'],
  Identifier: [],
  StringLiteral: [],
  NumericLiteral: [],
  BooleanLiteral: [],
  NilLiteral: [],
  VarargLiteral: [],
  Comment: [],
  TableKey: ['key', 'value'],
  TableKeyString: ['key', 'value'],
  TableValue: ['value'],
  TableConstructorExpression: ['fields'],
  BinaryExpression: ['left', 'right'],
  LogicalExpression: ['left', 'right'],
  UnaryExpression: ['argument'],
  MemberExpression: ['identifier', 'base'],
  IndexExpression: ['base', 'index'],
  CallExpression: ['base', 'arguments'],
  TableCallExpression: ['base', 'arguments'],
  StringCallExpression: ['base', 'argument'],
};

/** Globals of Redis' Lua 5.1 besides {@link GLOBAL_BUILTINS} (https://redis.io/docs/latest/develop/interact/programmability/lua-api/). */
const OTHER_GLOBALS: ReadonlySet<string> = new Set(['_G', '_VERSION', 'KEYS', 'ARGV', 'redis', 'server', 'collectgarbage', 'coroutine', 'gcinfo', 'getfenv', 'setfenv', 'newproxy', 'select', 'bit', 'struct']);

/**
 * The name of a called function that the script defines nowhere (`helper(...)`, `utils.helper(...)`
 * with `utils` undefined), or undefined.
 */
function undefinedCallee(base: L.Expression, defined: ReadonlySet<string>): string | undefined {
  let root: L.Expression = base;
  while (root.type === 'MemberExpression' || root.type === 'IndexExpression') root = root.base;
  if (root.type !== 'Identifier') return undefined;
  const name = root.name;
  if (defined.has(name) || GLOBAL_BUILTINS.has(name) || OTHER_GLOBALS.has(name)) return undefined;
  return expressionText(base);
}

/** Commands that give a key a TTL (for the message about an expiry under a guard that is never true). */
const EXPIRY_COMMANDS: ReadonlySet<string> = new Set(['EXPIRE', 'PEXPIRE', 'EXPIREAT', 'PEXPIREAT', 'SETEX', 'PSETEX', 'GETEX', 'SET']);

/** How many appended items of one table are remembered. */
const MAX_TABLE_ITEMS = 64;

/** Remembers an item appended to a table the script built (up to {@link MAX_TABLE_ITEMS}). */
function appendItem(table: Extract<Value, { t: 'table' }>, value: Value): void {
  if (table.unlisted) return;
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
 * The ARGV index a value is the caller's value of: `ARGV[n]`, `tonumber(ARGV[n])`,
 * `tonumber(ARGV[n]) or 0`; `undefined` for anything computed from it.
 */
function callerArgv(value: Value): number | undefined {
  if (value.t === 'str' && value.v === undefined && typeof value.argv === 'number') return value.argv;
  if (value.t === 'num' && value.v === undefined) return value.argv ?? value.fromArgv;
  return undefined;
}

/** A test of whether the caller passed a TTL: which ARGV, and on which edge it did not. */
interface TtlPresenceTest {
  argv: number;
  /** The "no TTL" edge is the true one (`ttl == 0`, `ttl <= 0`), else the false one (`ttl > 0`). */
  absentWhenTrue: boolean;
}

const FLIPPED: Readonly<Record<string, string>> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=', '==': '==', '~=': '~=' };

/**
 * Whether `left op right` tests the caller's ARGV value for "no TTL": `> 0`, `>= 1`, `~= 0`,
 * `~= nil`, `~= ''`, `~= '0'` (present on the true edge) and their negations `<= 0`, `< 1`,
 * `== 0`, `== nil`, `== ''`, `== '0'`, either side of the operator. Thresholds (`ttl > 5`) are
 * not presence tests.
 */
function ttlPresenceTest(left: Value, op: string, right: Value): TtlPresenceTest | undefined {
  let argv = callerArgv(left);
  let other = right;
  let operator = op;
  if (argv === undefined) {
    argv = callerArgv(right);
    other = left;
    operator = FLIPPED[op] ?? op;
  }
  if (argv === undefined) return undefined;
  const numeric = left.t === 'num' || right.t === 'num';
  const literal =
    other.t === 'nil' || (other.t === 'bool' && other.v === false)
      ? 'none'
      : numeric && other.t === 'num' && other.v !== undefined
        ? other.v
        : !numeric && other.t === 'str' && other.v !== undefined
          ? other.v
          : undefined;
  if (literal === undefined) return undefined;
  const none = literal === 'none' || literal === 0 || literal === '' || literal === '0';
  switch (operator) {
    case '==':
      return none ? { argv, absentWhenTrue: true } : undefined;
    case '~=':
      return none ? { argv, absentWhenTrue: false } : undefined;
    case '>':
      return literal === 0 ? { argv, absentWhenTrue: false } : undefined;
    case '>=':
      return literal === 1 ? { argv, absentWhenTrue: false } : undefined;
    case '<=':
      return literal === 0 ? { argv, absentWhenTrue: true } : undefined;
    case '<':
      return literal === 1 ? { argv, absentWhenTrue: true } : undefined;
    default:
      return undefined;
  }
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
  // `tonumber(ARGV[n]) or 0`: still the caller's value, with a default
  const argv = callerArgv(left);
  if (left.t === 'num' && argv !== undefined && right.t === 'num' && right.v !== undefined) return { t: 'num', fromArgv: argv };
  if (left.t === 'reply' && REPLY_TO_STRING_COMMANDS.has(left.command)) return UNKNOWN;
  return right.t === 'num' && left.t === 'num' ? { t: 'num' } : UNKNOWN;
}

/** Reads whose reply is the key's value, or false when it is missing (`or 0` gives 0 then). */
const KEY_VALUE_READS: ReadonlySet<string> = new Set(['GET', 'HGET', 'GETEX', 'LINDEX', 'ZSCORE']);

/** Reads that answer one element per field (HMGET, ZMSCORE) or per key (MGET), false where it is missing. */
const MULTI_ELEMENT_READS: ReadonlySet<string> = new Set(['HMGET', 'ZMSCORE', 'MGET']);

/** Effects after which a key's hash-field state (`fieldSites`, `fieldsExpire`) still holds. */
const FIELD_STATE_KEPT: ReadonlySet<KeyEffect> = new Set<KeyEffect>([
  'create-in-place',
  'create-with-field-ttl',
  'create-if-missing',
  'modify-if-present',
  'read',
  'set-ttl-if-has-ttl',
  'remove-ttl',
]);

/** The identity of a hash field argument: its literal, or the ARGV element it is; `null` when unknown. */
function fieldIdOf(value: Value | undefined): string | null {
  if (!value) return null;
  if ((value.t === 'str' || value.t === 'num') && value.v !== undefined) return `'${String(value.v)}'`;
  if ((value.t === 'str' || value.t === 'num') && typeof value.argv === 'number') return `ARGV[${value.argv}]`;
  return null;
}

/** The destination of RENAME / RENAMENX / COPY (the action that takes the source's TTL), if any. */
function transferDestination(description: CommandDescription): KeyAction | undefined {
  for (const action of description.keys) if (action.effect === 'transfer-ttl') return action;
  return undefined;
}

/** Commands whose arguments are key value pairs: unpack(t) gives keys at the even positions. */
const PAIRS_COMMANDS: ReadonlySet<string> = new Set(['MSET', 'MSETNX', 'JSON.MSET']);

const NO_ARGS: readonly number[] = [];

/** Effects that give the key a TTL (EXPIRE XX / GT, which may not, left out). */
const TTL_GIVING_EFFECTS: ReadonlySet<KeyEffect> = new Set<KeyEffect>(['set-ttl', 'create-with-ttl', 'create-if-missing-with-ttl']);

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
  if (absolute && value.t === 'num' && value.clock === 'future') return NO_RISK;
  const fractional = value.t === 'num' && value.mayBeFractional === true;
  const nonPositive = (value.t === 'num' && value.mayBeNonPositive === true) || (value.t === 'reply' && MAY_BE_NEGATIVE_REPLIES.has(value.command));
  const positiveOnly = POSITIVE_TTL_COMMANDS.has(command);
  return {
    mayRaise: fractional || (positiveOnly && !absolute && nonPositive),
    // SET ... EX <= 0 raises instead (above); only a past absolute time deletes there.
    mayDelete: absolute || (nonPositive && !positiveOnly),
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
  if (table.t === 'keys') return keyValue(table.name, '*');
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

/** A number (or ARGV string) that carries no literal, sign, fraction or clock fact. */
function isPlainOperand(value: Value): boolean {
  if (value.t === 'num') return value.v === undefined && !value.mayBeNonPositive && !value.mayBeFractional && !value.clock;
  return value.t === 'str' ? value.v === undefined : value.t !== 'reply';
}

/** Lua's view of a number operand: a literal, or what is known of its sign and integrality. */
function numberFacts(value: Value): { v?: number; nonPositive: boolean; fractional: boolean; clock?: NumValue['clock'] } {
  if (value.t === 'num') {
    if (value.v !== undefined) return { v: value.v, nonPositive: value.v <= 0, fractional: !Number.isInteger(value.v) };
    return { nonPositive: value.mayBeNonPositive === true, fractional: value.mayBeFractional === true, ...(value.clock ? { clock: value.clock } : {}) };
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
  // Most arithmetic is on plain numbers: nothing to track.
  if (op !== '-' && op !== '%' && op !== '/' && op !== '^' && isPlainOperand(left) && isPlainOperand(right)) return NUMBER;
  const a = numberFacts(left);
  const b = numberFacts(right);
  const out: NumValue = { t: 'num' };
  // a power of a positive base is positive whatever the exponent (2 ^ n: a backoff factor)
  const nonPositive = op === '-' || op === '%' ? true : op === '^' ? a.nonPositive : a.nonPositive || b.nonPositive;
  const fractional = op === '/' || op === '^' ? true : a.fractional || b.fractional;
  if (nonPositive) out.mayBeNonPositive = true;
  if (fractional) out.mayBeFractional = true;
  const clock = clockOf(op, a, b) ?? (op === '+' || op === '*' ? clockOf(op, b, a) : undefined);
  if (clock) {
    out.clock = clock;
    delete out.mayBeNonPositive;
  }
  return out;
}

/**
 * Server time arithmetic: TIME[1] * 1000 is whole seconds in milliseconds (up to 999 ms in the
 * past); adding TIME[2] / 1000 gives now; adding a span that is surely positive (a literal >= 1 s,
 * or an ARGV value, assumed valid) to a time that is at most that much in the past gives a time
 * in the future.
 */
function clockOf(op: string, a: ReturnType<typeof numberFacts>, b: ReturnType<typeof numberFacts>): NumValue['clock'] | undefined {
  const positive = b.clock === undefined && !b.nonPositive && (b.v === undefined || b.v > 0);
  switch (a.clock) {
    case 'now-s':
      if (op === '*' && b.v === 1000) return 'now-ms-floor';
      if (op === '+' && positive && (b.v === undefined || b.v >= 1)) return 'future';
      return undefined;
    case 'now-ms-floor':
      if (op === '+' && b.clock === 'us') return 'now-ms';
      if (op === '+' && b.v !== undefined && b.v >= 1000) return 'future';
      return undefined;
    case 'now-ms':
      return op === '+' && positive ? 'future' : undefined;
    case 'us':
      return op === '/' ? 'us' : undefined;
    case 'future':
      return (op === '+' && !b.nonPositive) || (op === '*' && b.v !== undefined && b.v >= 1) ? 'future' : undefined;
    default:
      return undefined;
  }
}

/** `math.floor(x)` may be 0 for a positive fraction; `math.ceil` is an integer; `max`/`min` combine. */
function mathCall(name: string, args: readonly Value[]): Value {
  const facts = args.map(numberFacts);
  const out: NumValue = { t: 'num' };
  switch (name) {
    case 'math.floor':
      if (facts[0]?.clock) return { t: 'num', clock: facts[0].clock };
      if (facts[0] && (facts[0].nonPositive || facts[0].fractional)) out.mayBeNonPositive = true;
      if (facts[0]?.v !== undefined) return { t: 'num', v: Math.floor(facts[0].v) };
      return out;
    case 'math.ceil':
      if (facts[0]?.clock) return { t: 'num', clock: facts[0].clock };
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
  // constants such as 2 ^ 53 - 1 (MAX_SAFE_INTEGER) fold too
  return foldArithmetic(op, a, b);
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
