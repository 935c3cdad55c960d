/**
 * Exits, TTL checks and findings: every way out of the script (return, end, `error`, a raise)
 * checks the promise, no key left without a TTL, and records each pending write site as a leak;
 * the TTL argument of a command is checked (`ttl-units`, `expire-needs-positive-ttl`) and the
 * risk of a computed one assessed ({@link ttlRisk}); at the end the leaks become
 * `write-path-needs-ttl` / `keepttl-needs-existing-key` findings, with what explains them (an
 * expiry under a guard that is never true, EXPIRE ... XX, a TTL the caller chose not to pass).
 */
import type * as L from 'luaparse';
import type { CommandDescription, TtlUnit } from '../../semantics/commands.js';
import { unitMismatch, unitOfLiteral, unitOfName, type UnitGuess } from '../../semantics/ttl-units.js';
import { fixedWindowFindings } from '../fixed-window.js';
import {
  computedTtlMessage,
  CONDITIONAL_EXPIRY_NOTE,
  keepTtlMessage,
  ttlUnitsMessage,
  uncheckedArgvTtlMessage,
  writePathMessage,
  type SpanUnit,
  type Exit,
  type RejectedExpiry,
  type WriteSite,
} from '../messages.js';
import { clone, snapshot, type State, type Value } from '../state.js';
import { rangeOf } from './ast.js';
import { WalkBase, type Ctx, type RawFinding } from './base.js';
import { callerArgv, mayBeNonPositiveReply } from './values.js';

/** See the module comment. */
export abstract class Findings extends WalkBase {
  private readonly leaks = new Map<number, { exit: Exit; keyId: string; otherKeys: Set<string> }>();
  /** The name a registered callback runs under (its leaks say which function), while the walk is in one. */
  protected entryName: string | undefined;

  /**
   * `expire-needs-positive-ttl` findings on computed TTLs, kept until the end: one whose effect
   * already shows as a leak (the script raised at that expiry, or a later write recreated the key
   * it deleted) is that leak's root cause, reported once as `write-path-needs-ttl`.
   */
  private readonly ttlCandidates: Array<{ node: L.Node; message: string; offset: number; keyId?: string }> = [];

  /**
   * Per write site, the ARGV indices that every path leaking it tested as "no TTL" (`ttl > 0`
   * false, `not ttl`, `ARGV[n] == ''`).
   */
  private readonly noTtlArgs = new Map<number, readonly number[]>();

  /** Per key, where the TTLs of its expiries come from: an ARGV index, or `'other'` (a literal, a computation). */
  private readonly expiryTtls = new Map<string, Set<number | 'other'>>();

  /** Whether the script tests an ARGV value as "no TTL" anywhere: until then, writes skip that bookkeeping. */
  protected noTtlTested = false;

  /** Per key, an expiry under a guard that is never true: its leaks say so. */
  protected readonly rejectedExpiries = new Map<string, RejectedExpiry>();

  /** Keys given an EXPIRE ... XX/GT somewhere: their leaks say why that expiry did not count. */
  protected readonly conditionalExpiries = new Set<string>();
  /** The units of the TTL arguments of every expiry the walk met: a fix is written in the script's own unit. */
  private readonly ttlUnits = new Set<TtlUnit>();

  /**
   * A path leaves the script (or a registered function) at `exit`: every write site still pending
   * on one of its keys is a leak, and the path is dead.
   */
  protected exit(st: State, exit: Exit): void {
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
  protected raising(st: State, ctx: Ctx): State {
    return ctx.fn.protected || !st.keys.copiesOnFork() || !st.vars.copiesOnFork() ? clone(st) : snapshot(st);
  }

  /** An `error(...)`: ends the script, or returns to a protecting pcall. */
  protected raise(st: State, ctx: Ctx, exit: Exit): void {
    if (st.dead) return;
    if (ctx.fn.protected) {
      ctx.fn.returns.push(clone(st));
      st.dead = true;
      return;
    }
    this.exit(st, exit);
  }

  protected noteExpiryTtl(keyId: string, ttl: Value | undefined): void {
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

  /**
   * `expire-needs-positive-ttl` beyond literals and `ttl-units`, on the TTL argument of a command
   * whose table entry names one (`description.ttl`).
   */
  protected checkTtlValue(
    node: L.Node,
    command: string,
    description: CommandDescription,
    value: Value | undefined,
    argNode: L.Expression | undefined,
    spread: boolean,
    keyId: string | undefined,
  ): void {
    this.ttlUnits.add(description.ttl!.unit);
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
    if (mayBeNonPositiveReply(value)) {
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

  /**
   * The unit a leak's fix is written in: seconds (EXPIRE, SET ... EX) when the script's expiries all
   * count seconds (EXPIRE, SETEX, SET ... EX, EXPIREAT, ...), else milliseconds (PEXPIRE, SET ... PX).
   */
  private fixUnit(): SpanUnit {
    if (this.ttlUnits.size === 0) return 'milliseconds';
    for (const unit of this.ttlUnits) if (unit !== 'seconds' && unit !== 'unix-seconds') return 'milliseconds';
    return 'seconds';
  }

  private reportLeak(site: WriteSite, exit: Exit, key: string, others: readonly string[], keyId: string, optionalTtlArgv: number | undefined): void {
    const where = { exit, position: this.position(exit.offset) };
    const rejected = this.rejectedExpiries.get(keyId);
    let message =
      site.rule === 'keepttl-needs-existing-key'
        ? keepTtlMessage(key, where, others)
        : writePathMessage(site, key, where, others, rejected, optionalTtlArgv, this.fixUnit());
    if (this.conditionalExpiries.has(keyId) && optionalTtlArgv === undefined) message += CONDITIONAL_EXPIRY_NOTE;
    this.report(site.rule, site.node, message, undefined, optionalTtlArgv !== undefined);
  }

  /**
   * Reports what the walk kept for its end (fixed windows, the computed TTLs no leak explains, the
   * leaks) and returns every finding, one per node and rule, in the order they were reported.
   */
  protected collect(): RawFinding[] {
    const { source } = this.input;
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
    return this.reported();
  }
}

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

const NO_ARGS: readonly number[] = [];

/** What a TTL argument computed in the script may make Redis do. */
export interface TtlRisk {
  /** Redis may reject the command ("value is not an integer", "invalid expire time"), aborting the script. */
  mayRaise: boolean;
  /** The expiry may be <= 0 or already past: Redis deletes the key instead of setting a TTL. */
  mayDelete: boolean;
}

export const NO_RISK: TtlRisk = { mayRaise: false, mayDelete: false };

/** Commands whose TTL must be a positive integer (`SET ... EX 0` is "invalid expire time"). */
const POSITIVE_TTL_COMMANDS: ReadonlySet<string> = new Set(['SET', 'SETEX', 'PSETEX', 'GETEX']);

/**
 * The risk of a TTL argument that is not a literal (https://redis.io/docs/latest/commands/expire/,
 * /set/, /getex/): an absolute time may be in the past (EXPIREAT with an ARGV time, or
 * `TIME[1] * 1000 + ms`, which drops the current milliseconds); a relative one computed by a
 * subtraction, `math.floor` or a TTL reply may be <= 0; a division may be fractional, which the
 * EXPIRE family rejects. ARGV values and opaque values are assumed valid (docs/ttl-semantics.md).
 */
export function ttlRisk(command: string, unit: string, value: Value | undefined): TtlRisk {
  if (!value) return NO_RISK;
  if ((value.t === 'num' || value.t === 'str') && value.v !== undefined) return NO_RISK; // literals: the command table decides
  const absolute = unit.startsWith('unix');
  if (absolute && value.t === 'num' && value.clock === 'future') return NO_RISK;
  const fractional = value.t === 'num' && value.mayBeFractional === true;
  const nonPositive = (value.t === 'num' && value.mayBeNonPositive === true) || mayBeNonPositiveReply(value);
  const positiveOnly = POSITIVE_TTL_COMMANDS.has(command);
  return {
    mayRaise: fractional || (positiveOnly && !absolute && nonPositive),
    // SET ... EX <= 0 raises instead (above); only a past absolute time deletes there.
    mayDelete: absolute || (nonPositive && !positiveOnly),
  };
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
