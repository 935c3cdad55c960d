/**
 * What the walk computes about Lua values, without a state: the builtins and the KEYS / ARGV
 * tables as values, a key of KEYS as a value, the value of `a and b` / `a or b`, arithmetic (what
 * a TTL computed in the script may be: <= 0, fractional, a server time), the Lua types a
 * comparison may mismatch, and which ARGV a value is the caller's TTL of. Pure functions of
 * {@link Value}s (and bounded memo tables), shared by the rooms of the walk.
 */
import type * as L from 'luaparse';
import { foldArithmetic } from '../../semantics/ttl-units.js';
import { REPLY_TO_STRING_COMMANDS } from '../idioms.js';
import { NUMBER, sameValue, UNKNOWN, withReply, type NumValue, type Value, type VarFacts } from '../state.js';
import { expressionText } from './ast.js';

/** Globals of Redis' Lua the walk knows as builtins (the others are listed in calls.ts). */
export const GLOBAL_BUILTINS = new Set([
  'tonumber', 'tostring', 'type', 'error', 'assert', 'pcall', 'xpcall', 'unpack', 'ipairs', 'pairs', 'next',
  'select', 'rawget', 'rawset', 'rawequal', 'setmetatable', 'getmetatable', 'math', 'string', 'table', 'cjson',
  'cmsgpack', 'bit', 'struct', 'os', 'print', 'loadstring',
]);

export const KEYS_TABLE: Value = { t: 'keys', name: 'KEYS' };
export const ARGV_TABLE: Value = { t: 'argv', name: 'ARGV' };

const BUILTINS = new Map<string, Value>();

export function builtin(name: string): Value {
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

/** `base.field` of a builtin table, by the two names (the member's name is not built again at each evaluation). */
const MEMBER_BUILTINS = new Map<string, Map<string, Value>>();

export function memberBuiltin(base: string, field: string): Value {
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

export function keyValue(table: string, index: string): Value {
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
export function numberedKey(table: string, n: number): Value {
  return Number.isInteger(n) && n >= 0 && n < NUMBERED_KEY_CACHE ? keyValue(table, SMALL_INTEGERS[n]!) : { t: 'key', id: `${table}[${n}]` };
}

const NUMBERED_KEY_CACHE = 256;
const SMALL_INTEGERS = Array.from({ length: NUMBERED_KEY_CACHE }, (_, i) => String(i));

export function element(table: Value): Value {
  if (table.t === 'keys') return keyValue(table.name, '*');
  if (table.t === 'argv') return { t: 'str', argv: '*' };
  return UNKNOWN;
}

/** How many appended items of one table are remembered. */
export const MAX_TABLE_ITEMS = 64;

/** Remembers an item appended to a table the script built (up to {@link MAX_TABLE_ITEMS}). */
export function appendItem(table: Extract<Value, { t: 'table' }>, value: Value): void {
  if (table.unlisted) return;
  table.items ??= [];
  if (table.items.length < MAX_TABLE_ITEMS) table.items.push(value);
}

/** `t[#t + 1]` */
export function isAppendIndex(target: L.IndexExpression): boolean {
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
export function callerArgv(value: Value): number | undefined {
  if (value.t === 'str' && value.v === undefined && typeof value.argv === 'number') return value.argv;
  if (value.t === 'num' && value.v === undefined) return value.argv ?? value.fromArgv;
  return undefined;
}

/** A test of whether the caller passed a TTL: which ARGV, and on which edge it did not. */
export interface TtlPresenceTest {
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
export function ttlPresenceTest(left: Value, op: string, right: Value): TtlPresenceTest | undefined {
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
export function logicalValue(operator: 'and' | 'or', left: Value, right: Value): Value {
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
export const MULTI_ELEMENT_READS: ReadonlySet<string> = new Set(['HMGET', 'ZMSCORE', 'MGET']);

/** Integer replies that can be <= 0 (TTL -1/-2, a DECR below zero). */
export const MAY_BE_NEGATIVE_REPLIES: ReadonlySet<string> = new Set(['TTL', 'PTTL', 'EXPIRETIME', 'PEXPIRETIME', 'DECR', 'DECRBY', 'INCRBY', 'HINCRBY', 'ZCARD', 'SCARD', 'LLEN', 'HLEN']);

/** A reply that may be <= 0 (a TTL reply, a DECR, a size), unless the path's guards proved it positive. */
export function mayBeNonPositiveReply(value: Value): boolean {
  return value.t === 'reply' && MAY_BE_NEGATIVE_REPLIES.has(value.command) && !(value.range !== undefined && value.range[0] > 0);
}

/**
 * A variable's value as the path's guards narrowed it (`facts`, see `VarFacts`): an integer reply
 * gets the range they allow, a number computed in the script loses "may be <= 0" when they prove
 * it positive.
 */
export function narrowedValue(value: Value, facts: VarFacts): Value {
  if (value.t === 'reply' && value.luaType === 'number' && !value.pcall) {
    const lo = facts.lo === undefined ? -Number.MAX_SAFE_INTEGER : facts.loOpen ? Math.floor(facts.lo) + 1 : Math.ceil(facts.lo);
    const hi = facts.hi === undefined ? Number.MAX_SAFE_INTEGER : facts.hiOpen ? Math.ceil(facts.hi) - 1 : Math.floor(facts.hi);
    const [a, b] = value.range ?? [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
    const range: [number, number] = [Math.max(a, lo), Math.min(b, hi)];
    if (range[0] > range[1] || (range[0] === a && range[1] === b)) return value;
    return withReply(value, { range });
  }
  if (value.t === 'num' && value.v === undefined && value.mayBeNonPositive && facts.lo !== undefined && (facts.lo > 0 || (facts.lo === 0 && facts.loOpen))) {
    const out: NumValue = { ...value };
    delete out.mayBeNonPositive;
    return out;
  }
  return value;
}

export function luaTypeOf(value: Value): 'number' | 'string' | 'boolean' | undefined {
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
export function mismatchedTypes(a: Value, b: Value): boolean {
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
  if (value.t === 'reply') return { nonPositive: mayBeNonPositiveReply(value), fractional: false };
  return { nonPositive: false, fractional: false }; // ARGV and opaque values: assumed valid
}

/**
 * The result of `left op right` when it is not a literal: a subtraction or a modulo may be <= 0, a
 * division may be fractional, and the other operators keep what their operands may be.
 */
export function arithmeticFacts(op: string, left: Value, right: Value): Value {
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
export function mathCall(name: string, args: readonly Value[]): Value {
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

export function arithmetic(op: string, a: number, b: number): number | undefined {
  // constants such as 2 ^ 53 - 1 (MAX_SAFE_INTEGER) fold too
  return foldArithmetic(op, a, b);
}
