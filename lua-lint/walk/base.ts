/**
 * The walk's bookkeeping, under every room of it: the input and result types, the function
 * context of a path ({@link Ctx}), variables and scopes (a variable's id, its value in the
 * state), write sites, key versions, the key a value names ({@link WalkBase.keyOf}), and the
 * store of findings ({@link WalkBase.report}). Nothing here evaluates code or reads a command.
 *
 * The walk is one object whose class is built in layers, one module each, every layer adding one
 * concern to the ones below it (see walker.ts for the map).
 */
import type * as L from 'luaparse';
import type { KeyEffect } from '../../semantics/commands.js';
import type { RedisVersion } from '../../semantics/versions.js';
import type { Position, WriteSite } from '../messages.js';
import type { ScriptIndex } from '../script-index.js';
import { deleteVar, setVar, varFactsId, type Scope, type State, type Value } from '../state.js';
import type { LuaRuleId } from '../types.js';
import { expressionText } from './ast.js';

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

/** The result of `walkScript` (walker.ts). */
export interface WalkResult {
  findings: RawFinding[];
  /** Set when the walk gave up (too many steps, or nesting deeper than the walker's stack): the result proves nothing. */
  incomplete?: string;
}

/** Input of `walkScript` (walker.ts). */
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

/** The function a path runs in: the script's entry (or a registered callback), or a helper it calls. */
export interface FnContext {
  kind: 'entry' | 'helper';
  name?: string;
  returns: State[];
  returnValues: Value[];
  /** Inside pcall(f): an error returns to the caller instead of ending the script. */
  protected: boolean;
  loops: State[][];
}

/** Where a statement runs: its scope (for names) and the function it belongs to. */
export interface Ctx {
  scope: Scope;
  fn: FnContext;
}

/** Statements the walk runs before it gives up ({@link BudgetExceeded}): a script that needs more proves nothing. */
export const STEP_BUDGET = 200_000;

/** Thrown when the walk runs out of {@link STEP_BUDGET}. */
export class BudgetExceeded extends Error {}

/** What {@link WalkBase.keyOf} answers: the key's id, how messages show it, and its spellings. */
export interface KeyRef {
  id: string;
  display: string;
  /** The key as the script spells it (a literal without quotes). */
  spelled: string;
  /** The local the key was passed through, when the argument is a name. */
  alias: string | undefined;
}

/** Every spelling of a key, for persistent-key patterns and findings. */
export function keyNames(key: KeyRef): string[] {
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

/** See the module comment. */
export abstract class WalkBase {
  private readonly findings = new Map<L.Node, Map<LuaRuleId, RawFinding>>();
  /** Every write site met, by id (an id is the index). */
  protected readonly sites: WriteSite[] = [];
  private readonly siteIds = new Map<L.Node, Partial<Record<WriteSite['rule'], number>>>();
  /** The next variable id, and the next key version (see {@link WalkBase.bump}). */
  private nextVar = 1;
  private nextVersion = 1;
  /** Statements walked so far (see {@link STEP_BUDGET}). */
  protected steps = 0;

  constructor(protected readonly input: WalkInput) {}

  /** A fresh function context: no returns yet, no loop entered. */
  protected newFn(kind: FnContext['kind'], name?: string, isProtected = false): FnContext {
    const fn: FnContext = { kind, returns: [], returnValues: [], protected: isProtected, loops: [] };
    if (name !== undefined) fn.name = name;
    return fn;
  }

  /** A block's context: a scope of its own inside `ctx`'s, in the same function. */
  protected child(ctx: Ctx): Ctx {
    return { scope: { parent: ctx.scope, names: undefined }, fn: ctx.fn };
  }

  /** Forgets the variables a scope declared (its block is over: they are out of reach). */
  protected dropScope(st: State, scope: Scope): void {
    if (st.dead || scope.names === undefined || scope.names.size === 0) return;
    for (const id of scope.names.values()) deleteVar(st, id);
  }

  /** Variable ids by declaration site, so that a loop's locals keep their ids across iterations. */
  private readonly declarationIds = new Map<object, number>();

  /** Declares a local in `scope` with its value on this path (one id per declaration site). */
  protected declare(scope: Scope, st: State, name: string, value: Value, site?: object): void {
    let id = site ? this.declarationIds.get(site) : undefined;
    if (id === undefined) {
      id = this.nextVar++;
      if (site) this.declarationIds.set(site, id);
    }
    (scope.names ??= new Map()).set(name, id);
    setVar(st, id, value);
    if (this.varFactsUsed) deleteVar(st, varFactsId(id));
  }

  /** The id of the local `name` visible from `scope`, or undefined (a global, or nothing). */
  protected lookupVar(scope: Scope, name: string): number | undefined {
    if (!this.input.index.locals.has(name)) return undefined; // declared nowhere: no scope has it
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const id = s.names?.get(name);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  /** `name = value`: the visible local, or else the global of that name. */
  protected assign(scope: Scope, st: State, name: string, value: Value): void {
    const id = this.lookupVar(scope, name) ?? this.globalVar(name);
    setVar(st, id, value);
    if (this.varFactsUsed) deleteVar(st, varFactsId(id));
  }

  /** Whether a guard has recorded what it proved about a variable (`VarFacts`); until then assignments skip forgetting them. */
  protected varFactsUsed = false;

  /** Variable ids of the globals the script assigns, by name. */
  protected readonly globals = new Map<string, number>();

  private globalVar(name: string): number {
    let id = this.globals.get(name);
    if (id === undefined) {
      id = this.nextVar++;
      this.globals.set(name, id);
    }
    return id;
  }

  /** Blocks, comparisons and assignments by name, for the checks that look beyond the path walked. */
  protected scriptIndex(): ScriptIndex {
    return this.input.index;
  }

  /** The key a value names, or undefined (see {@link KeyRef}). */
  protected keyOf(value: Value, argNode: L.Expression | undefined): KeyRef | undefined {
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
  protected textOf(node: L.Node): string {
    let text = this.texts.get(node);
    if (text === undefined) this.texts.set(node, (text = expressionText(node)));
    return text;
  }

  /** A new key version (a write or a delete changes the key's version; guards on older replies then say less). */
  protected bump(): number {
    return this.nextVersion++;
  }

  /** The id of the write site of `rule` at `node` (one per node and rule, however often the walk passes it). */
  protected site(node: L.Node, command: string, keyName: string, effect: KeyEffect, rule: WriteSite['rule']): number {
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

  /** Records a finding; the first one of a rule at a node is kept. */
  protected report(ruleId: LuaRuleId, node: L.Node, message: string, keyNames?: string[], optionalTtl = false): void {
    let byRule = this.findings.get(node);
    if (!byRule) this.findings.set(node, (byRule = new Map()));
    if (!byRule.has(ruleId)) byRule.set(ruleId, { ruleId, node, message, ...(keyNames ? { keyNames } : {}), ...(optionalTtl ? { optionalTtl: true as const } : {}) });
  }

  /** The line and column a message prints for an offset. */
  protected position(offset: number): Position {
    return this.input.positionOf ? this.input.positionOf(offset) : { line: this.input.lineOf(offset) };
  }

  /** Every finding reported so far, one per node and rule, in the order they were first reported. */
  protected reported(): RawFinding[] {
    const findings: RawFinding[] = [];
    for (const byRule of this.findings.values()) for (const finding of byRule.values()) findings.push(finding);
    return findings;
  }
}
