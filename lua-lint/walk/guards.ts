/**
 * Guards: a condition splits the state into its true and false edges, and each edge learns what
 * the test proves about a key (`idioms.ts` reads a comparison or a truth test of a reply as
 * {@link KeyFacts}; {@link Guards.refine} applies them), about an ARGV value (`ARGV[1] == 'set'`
 * decided again later on the path), or about the caller's TTL (the "no TTL" edge of `ttl > 0`).
 * A comparison that can never be true (a number with a string) leaves its branch unwalked; one
 * that raises ends the path.
 */
import type * as L from 'luaparse';
import { keyFactsAgainstBounds, keyFactsOfComparison, keyFactsOfTruth, type KeyFacts, type Op } from '../idioms.js';
import { clone, getKey, joinNullable, markNoTtl, NO_VAR_FACTS, setKey, setVar, varFactsId, withKey, type KeyState, type State, type Value, type VarFacts } from '../state.js';
import { forEachNode, rangeOf } from './ast.js';
import type { Ctx } from './base.js';
import { CommandEffects, CREATION_ONLY } from './effects.js';
import { callerArgv, luaTypeOf, mismatchedTypes, ttlPresenceTest, type TtlPresenceTest } from './values.js';

/** See the module comment. */
export abstract class Guards extends CommandEffects {
  /** Set by a comparison that can never be true (a number compared with a string). */
  protected neverTrue: { offset: number; compared: readonly [string, string] } | undefined;

  /** Evaluates an expression on a path (expressions.ts). */
  protected abstract expression(node: L.Expression, st: State, ctx: Ctx): Value;

  /** Evaluates a condition; returns the states on its true and false edges (null = impossible). */
  protected condition(node: L.Expression, st: State, ctx: Ctx): [State | null, State | null] {
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
      const op = node.operator as Op;
      if (mismatchedTypes(left, right)) {
        // Lua 5.1 never finds a number equal to a string; ordering them raises an error.
        const compared = `${luaTypeOf(left)} with ${luaTypeOf(right)}`;
        if (op === '==' || op === '~=') {
          this.neverTrue = op === '==' ? { offset: rangeOf(node)[0], compared: [luaTypeOf(left)!, luaTypeOf(right)!] } : undefined;
          return op === '==' ? [null, st] : [st, null];
        }
        this.raise(st, ctx, { kind: 'compare-error', offset: rangeOf(node)[0], compared });
        return [null, null];
      }
      const test = ttlPresenceTest(left, op, right);
      // what the path's guards proved about a variable compared with a literal decides the test again
      const leftVar = this.varIdOf(node.left, ctx);
      const rightVar = this.varIdOf(node.right, ctx);
      const variable = this.variableTest(st, leftVar, left, op, rightVar, right);
      if (op === '==' || op === '~=') {
        const known = this.argvEquality(left, right, op, st);
        if (known) return this.withVariableFacts(this.markTtlAbsent(known, test), variable);
      }
      let facts = keyFactsOfComparison(left, op, right);
      if (!facts && this.varFactsUsed) {
        // a reply compared with a variable the guards bound: `idx >= arr_len` after `idx < 0` was false
        const bound = (id: number | undefined): VarFacts | undefined => {
          const known = id !== undefined ? st.vars.get(varFactsId(id)) : undefined;
          return known?.t === 'varFacts' ? known : undefined;
        };
        const rightBounds = right.t === 'reply' ? undefined : bound(rightVar);
        const leftBounds = left.t === 'reply' ? undefined : bound(leftVar);
        if (left.t === 'reply' && rightBounds) facts = keyFactsAgainstBounds(left, op, rightBounds);
        else if (right.t === 'reply' && leftBounds) facts = keyFactsAgainstBounds(right, FLIPPED_OP[op], leftBounds);
      }
      return this.withVariableFacts(this.markTtlAbsent(this.applyFacts(st, facts, ctx, rangeOf(node)[0]), test), variable);
    }
    const value = this.expression(node, st, ctx);
    if (st.dead) return [null, null];
    const argv = callerArgv(value);
    return this.markTtlAbsent(this.applyFacts(st, keyFactsOfTruth(value)), argv === undefined ? undefined : { argv, absentWhenTrue: false });
  }

  /** The variable an operand names: a local in scope, or a global the script assigns. */
  private varIdOf(node: L.Expression, ctx: Ctx): number | undefined {
    if (node.type !== 'Identifier') return undefined;
    return this.lookupVar(ctx.scope, node.name) ?? this.globals.get(node.name);
  }

  /**
   * A variable (or a number read from ARGV) compared with a literal (`got == 0`, `idx < 0`): what
   * each edge proves about the value it holds, given what the path's guards proved already
   * (`null`: the edge cannot be taken), and the id the facts are kept under.
   */
  private variableTest(st: State, leftVar: number | undefined, left: Value, op: Op, rightVar: number | undefined, right: Value): { id: number; whenTrue: VarFacts | null; whenFalse: VarFacts | null } | undefined {
    const literalOf = (value: Value): number | string | undefined => (value.t === 'num' || value.t === 'str') && value.v !== undefined ? value.v : undefined;
    // where the facts are kept: the variable's, or (a number read from ARGV, constant for the whole
    // script: `tonumber(ARGV[1]) > 5` tested twice) the ARGV element's
    const factsIdOf = (variable: number | undefined, value: Value): number | undefined => {
      if (variable !== undefined) return varFactsId(variable);
      const argv = value.t === 'num' && value.v === undefined ? callerArgv(value) : undefined;
      return argv !== undefined ? ARGV_FACTS_BASE - argv : undefined;
    };
    let id = factsIdOf(leftVar, left);
    let operator = op;
    let literal = literalOf(right);
    if (id === undefined || literal === undefined) {
      id = factsIdOf(rightVar, right);
      operator = FLIPPED_OP[op];
      literal = literalOf(left);
    }
    if (id === undefined || literal === undefined) return undefined;
    const known = st.vars.get(id);
    const facts = known?.t === 'varFacts' ? known : NO_VAR_FACTS;
    return { id, ...decideVariable(facts, operator, literal) };
  }

  /** Keeps on each edge of a test what it proved about its variable, and drops the edges it rules out. */
  private withVariableFacts(edges: [State | null, State | null], variable: { id: number; whenTrue: VarFacts | null; whenFalse: VarFacts | null } | undefined): [State | null, State | null] {
    if (!variable) return edges;
    this.varFactsUsed = true;
    let [t, f] = edges;
    if (t && !variable.whenTrue) t = null;
    if (f && !variable.whenFalse) f = null;
    if (t && !t.dead) setVar(t, variable.id, variable.whenTrue!);
    if (f && !f.dead) setVar(f, variable.id, variable.whenFalse!);
    return [t, f];
  }

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

  protected applyFacts(st: State, facts: KeyFacts | undefined, ctx?: Ctx, offset = 0): [State | null, State | null] {
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

  /** Applies what one edge of a guard proves about its key to `st`; null when the path already contradicts it. */
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
      // PTTL < 0: with a TTL on every path, the key must be missing; else, if it exists, it has none.
      if (!key.ttl) {
        if (!key.withoutTtl) setKey(st, facts.keyId, withKey(key, { withoutTtl: true }));
        return st;
      }
      if (key.exists === 'yes') return null;
      setKey(st, facts.keyId, withKey(key, { exists: 'no', pending: [] }));
      return st;
    }
    switch (fact) {
      case 'exists':
        if (key.exists !== 'yes') setKey(st, facts.keyId, withKey(key, { exists: 'yes' }));
        return st;
      case 'no-ttl':
        if (key.exists !== 'yes' || !key.withoutTtl) setKey(st, facts.keyId, withKey(key, { exists: 'yes', withoutTtl: true }));
        return st;
      case 'missing':
        setKey(st, facts.keyId, withKey(key, { exists: 'no', pending: [] }));
        return st;
      case 'has-ttl-or-missing':
        setKey(st, facts.keyId, withKey(key, { pending: [], ttl: true, withoutTtl: undefined }));
        return st;
      case 'has-ttl':
        setKey(st, facts.keyId, withKey(key, { pending: [], exists: 'yes', ttl: true, withoutTtl: undefined }));
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

  /**
   * Remembers the expiries written in a branch whose guard is never true, by the key they name
   * (evaluated in the state at the guard), so that a leak of that key can say why they do not count.
   */
  protected noteRejectedExpiries(body: readonly L.Statement[], st: State, ctx: Ctx, guard: { offset: number; compared: readonly [string, string] }): void {
    forEachNode(body, (n) => {
      if (n.type === 'FunctionDeclaration') return false;
      if (n.type !== 'CallExpression' || n.arguments.length < 2) return true;
      const [name, keyNode] = n.arguments;
      const command = name?.type === 'StringLiteral' && typeof name.value === 'string' ? name.value.toUpperCase() : undefined;
      if (command && keyNode && EXPIRY_COMMANDS.has(command)) {
        const key = this.keyOf(this.expression(keyNode, clone(st), ctx), keyNode);
        if (key && !this.rejectedExpiries.has(key.id)) {
          this.rejectedExpiries.set(key.id, { expiry: this.position(rangeOf(n)[0]), guard: this.position(guard.offset), compared: guard.compared });
        }
      }
      return true;
    });
  }
}

/** Where a path keeps what it proved of the number ARGV[n] (`ARGV_FACTS_BASE - n`), apart from variables' facts. */
const ARGV_FACTS_BASE = -5_000_000;

const FLIPPED_OP: Record<Op, Op> = { '==': '==', '~=': '~=', '<': '>', '>': '<', '<=': '>=', '>=': '<=' };

/** `x` narrowed to `x <= c` (`open`: `x < c`). */
function withUpper(facts: VarFacts, c: number, open: boolean): VarFacts {
  if (facts.hi !== undefined && (facts.hi < c || (facts.hi === c && (facts.hiOpen || !open)))) return facts;
  return { ...facts, hi: c, hiOpen: open };
}

/** `x` narrowed to `x >= c` (`open`: `x > c`). */
function withLower(facts: VarFacts, c: number, open: boolean): VarFacts {
  if (facts.lo !== undefined && (facts.lo > c || (facts.lo === c && (facts.loOpen || !open)))) return facts;
  return { ...facts, lo: c, loOpen: open };
}

/** Whether a value known by `facts` can satisfy `x op c`, and what it is known to be if it does. */
function narrow(facts: VarFacts, op: Op, c: number | string): VarFacts | null {
  const key = typeof c === 'number' ? `n:${c}` : `s:${c}`;
  if (op === '==') {
    if ((facts.equals !== undefined && facts.equals !== key) || facts.not.includes(key)) return null;
    if (typeof c !== 'number') return { ...facts, equals: key };
    const within = (facts.lo === undefined || facts.lo < c || (facts.lo === c && !facts.loOpen)) && (facts.hi === undefined || facts.hi > c || (facts.hi === c && !facts.hiOpen));
    return within ? { ...facts, equals: key, lo: c, loOpen: false, hi: c, hiOpen: false } : null;
  }
  if (op === '~=') {
    if (facts.equals === key) return null;
    if (typeof c === 'number' && facts.lo === c && facts.hi === c && !facts.loOpen && !facts.hiOpen) return null;
    return facts.not.includes(key) ? facts : { ...facts, not: [...facts.not, key] };
  }
  // an ordering: numbers only (strings order too, but nothing is kept for them)
  if (typeof c !== 'number') return facts;
  const exact = facts.equals?.startsWith('n:') ? Number(facts.equals.slice(2)) : undefined;
  if (exact !== undefined && !(op === '<' ? exact < c : op === '<=' ? exact <= c : op === '>' ? exact > c : exact >= c)) return null;
  switch (op) {
    case '<':
      return facts.lo !== undefined && facts.lo >= c ? null : withUpper(facts, c, true);
    case '<=':
      return facts.lo !== undefined && (facts.lo > c || (facts.lo === c && facts.loOpen)) ? null : withUpper(facts, c, false);
    case '>':
      return facts.hi !== undefined && facts.hi <= c ? null : withLower(facts, c, true);
    default:
      return facts.hi !== undefined && (facts.hi < c || (facts.hi === c && facts.hiOpen)) ? null : withLower(facts, c, false);
  }
}

const NEGATE_OP: Record<Op, Op> = { '==': '~=', '~=': '==', '<': '>=', '>': '<=', '<=': '>', '>=': '<' };

/** Both edges of `x op c` for a variable known by `facts` (see {@link narrow}). */
function decideVariable(facts: VarFacts, op: Op, c: number | string): { whenTrue: VarFacts | null; whenFalse: VarFacts | null } {
  return { whenTrue: narrow(facts, op, c), whenFalse: narrow(facts, NEGATE_OP[op], c) };
}

/** Commands that give a key a TTL (for the message about an expiry under a guard that is never true). */
const EXPIRY_COMMANDS: ReadonlySet<string> = new Set(['EXPIRE', 'PEXPIRE', 'EXPIREAT', 'PEXPIREAT', 'SETEX', 'PSETEX', 'GETEX', 'SET']);
