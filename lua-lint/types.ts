/**
 * Public types of the lua-lint analyzer.
 *
 * Positions follow ESLint's conventions so that findings can be handed to ESLint tooling as they
 * are: `line`/`endLine` are 1-based, `column`/`endColumn` are 1-based and count UTF-16 code units,
 * `endColumn` points just past the last character. `offset`/`endOffset` are 0-based UTF-16 indices
 * into the analysed source text (`source.slice(offset, endOffset)` is the reported code), which is
 * what the embedded-Lua ESLint rule uses to place a finding inside a JS/TS string.
 */

/** The rule ids shared by the Lua CLI and the embedded-Lua ESLint rule (see `docs/rules/`). */
export type LuaRuleId =
  | 'write-path-needs-ttl'
  | 'no-getset'
  | 'keepttl-needs-existing-key'
  | 'no-persist'
  | 'expire-needs-positive-ttl'
  | 'ttl-units'
  | 'fixed-window-expire'
  | 'min-redis-version'
  | 'key-must-come-from-keys'
  | 'unanalyzable-command'
  | 'unknown-rule-in-directive';

/** ESLint's severities: 0 = off, 1 = warning, 2 = error. */
export type Severity = 0 | 1 | 2;

/** A severity as users write it in configuration. */
export type SeverityName = 'off' | 'warn' | 'error';

/** Where something is in a source text: 1-based lines and columns, 0-based offsets, UTF-16 code units. */
export interface SourceRange {
  /** 1-based line of the first character. */
  line: number;
  /** 1-based column of the first character (UTF-16 code units). */
  column: number;
  /** 1-based line of the end. */
  endLine: number;
  /** 1-based column just past the last character. */
  endColumn: number;
  /** 0-based UTF-16 offset of the first character in the source text. */
  offset: number;
  /** 0-based UTF-16 offset just past the last character. */
  endOffset: number;
}

/** One problem found in a script (its place: {@link SourceRange}). */
export interface LuaFinding extends SourceRange {
  /**
   * The rule that found it; `null` for a parse error or a function library FUNCTION LOAD refuses
   * (then `fatal` is `true`).
   */
  ruleId: LuaRuleId | null;
  /** 1 = warning, 2 = error (parse errors are always 2). */
  severity: 1 | 2;
  /** What is wrong, why it leaks, and the safe replacement. */
  message: string;
  /** Present and `true` only for a parse error or a library FUNCTION LOAD refuses. */
  fatal?: true;
  /**
   * Present and `true` when the leak happens only where the caller passed no TTL: every path that
   * leaks the write tested an ARGV value as "no TTL" (`if ttl > 0 then PEXPIRE k ttl end` with
   * `ttl` from ARGV and 0 passed; also `~= nil`, `~= ''`, `tonumber(x)` truthy), and every expiry
   * of the key takes its TTL from that value. The mirror of the ESLint rules' caller-chosen TTL
   * arm: left out unless {@link AnalyzeOptions.allowOptionalTtl} is `false`.
   */
  optionalTtl?: true;
}

/** Options of {@link analyzeLua}. Every field is optional. */
export interface AnalyzeOptions {
  /**
   * Severity per rule id, overriding the defaults of `RULES` (`'off'`/0 turns a rule off).
   * An unknown id or severity makes {@link analyzeLua} throw a TypeError.
   */
  rules?: Partial<Record<LuaRuleId, Severity | SeverityName>>;
  /**
   * Keys that are persistent on purpose: no TTL finding is reported for writes to them.
   * A number is a 1-based KEYS index (`2` means `KEYS[2]`); a string is matched against the
   * key's spelling in the script (`'KEYS[2]'`, a local alias such as `'job_key'`, or for a key
   * built in the script its expression text) and may use `*` as a wildcard.
   */
  persistentKeys?: ReadonlyArray<string | number>;
  /**
   * Whether leaks where the caller chose no TTL (see {@link LuaFinding.optionalTtl}) are left out.
   * Default `true` (`false` when {@link AnalyzeOptions.strict} is on), as in the ESLint plugin's
   * `recommended` config; `false` reports them, marked with `optionalTtl: true` (the `strict`
   * config of `embedded-lua`).
   */
  allowOptionalTtl?: boolean;
  /**
   * Strict mode (the CLI's `--strict`, `"strict": true` in `lua-lint.config.json`): also report,
   * as `expire-needs-positive-ttl`, a TTL taken from ARGV that the script never compares with a
   * number before the expiry (a caller passing "0" makes PEXPIRE delete the key). Default `false`:
   * most scripts trust their callers here (docs/ttl-semantics.md, "ARGV is valid").
   */
  strict?: boolean;
  /**
   * The oldest Redis server the scripts run on (`'6.2'`, `'7.0.15'`): `min-redis-version` reports
   * commands and options newer than it. Without it that rule reports nothing. An invalid version
   * makes {@link analyzeLua} throw a TypeError, as the CLI and the ESLint settings reject it.
   */
  redisVersion?: string;
  /**
   * How messages name a line ("the return at line 12"): given a 0-based offset into the
   * script, the line number to print. Default: the script's own 1-based line. A front end that
   * analyses a script embedded in another file passes the host file's line here.
   */
  messageLine?: (offset: number) => number;
  /**
   * How messages name a place ("the return at line 12, column 5"): given a 0-based
   * offset into the script, the 1-based line and column to print. Default: the script's own. A
   * front end that analyses a script embedded in another file passes the host file's position
   * here; it wins over `messageLine` (which gives the line only). `file`, when given, is printed
   * too ("line 3, column 5 of includes/helper.lua"): the place is in another file than the one
   * reported (an included file).
   */
  messagePosition?: (offset: number) => { line: number; column: number; file?: string };
}
