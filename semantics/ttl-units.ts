/**
 * What a TTL argument's name or arithmetic says about its unit, shared by the `ttl-units` ESLint
 * rule and lua-lint's rule of the same id. Redis reads EX / EXPIRE / SETEX / HEXPIRE in seconds,
 * PX / PEXPIRE / PSETEX / HPEXPIRE in milliseconds, EXAT / EXPIREAT / HEXPIREAT as a Unix time in
 * seconds and PXAT / PEXPIREAT / HPEXPIREAT in milliseconds (https://redis.io/docs/latest/commands/set/,
 * https://redis.io/docs/latest/commands/expire/, https://redis.io/docs/latest/commands/expireat/);
 * the unit each command expects is the command table's `ttl.unit` (`semantics/commands.ts`).
 */
import type { TtlUnit } from './commands.js';

/** What a value is, as far as names and arithmetic tell: a span or a point in time, in a unit. */
export interface UnitGuess {
  /** `duration`: a span (a TTL); `absolute`: a Unix time (`Date.now()`, `expiresAt`). */
  kind: 'duration' | 'absolute';
  /** `undefined` when only the kind is known (`expiresAt`). */
  unit?: 'seconds' | 'milliseconds';
  /** Why, for messages: "its name ends in Ms", "it is Date.now()". */
  why: string;
  /** A literal far below any current Unix time: surely a duration, whatever its unit. */
  small?: true;
  /**
   * Only the unit is known, not whether it is a span or a point in time (`x / 1000` of a value
   * nothing names: milliseconds to seconds either way); `kind` is then a default, and only the
   * unit is compared with what the command expects.
   */
  unitOnly?: true;
}

const MS_NAME = /(?:^|[_$.])(?:ms|millis|milliseconds|msec)$/i;
const MS_CAMEL = /[a-z0-9](?:Ms|MS|Millis|Milliseconds)$/;
const SECONDS_NAME = /(?:^|[_$.])(?:s|sec|secs|seconds)$|[a-z0-9](?:Sec|Secs|Seconds|InSeconds)$/;
const SECONDS_UPPER = /(?:^|_)(?:S|SEC|SECS|SECONDS)$/;
const ABSOLUTE_NAME = /(?:^|[_$.])(?:expires?_?at|expiry_?at|deadline|timestamp|valid_?until|not_?after)(?:_?(?:ms|s|sec|seconds|millis))?$/i;
const ABSOLUTE_CAMEL = /^(?:expiresAt|expireAt|deadline|timestamp)|[a-z0-9](?:At|Deadline|Timestamp|Until)(?:Ms|Millis|Sec|Seconds)?$/;
/** The current time: `now`, `nowMs`, `nowSec()`, `now_s`, `currentTime`. */
const NOW_NAME = /^(?:now|currentTime|nowTime)(?:Ms|MS|Millis|Milliseconds|Sec|Secs|Seconds|InSeconds|InMs|_ms|_s|_sec|_secs|_seconds|_millis)?$/;

/** Whether a name is the current time (`now`, `nowMs`, `now_s`, `currentTime`). */
export function isNowName(name: string): boolean {
  return NOW_NAME.test(name);
}

/**
 * The unit a variable or property name states: `ttlMs`, `TTL_MS`, `timeoutMillis` are
 * milliseconds; `ttlSeconds`, `ttl_s`, `WINDOW_SEC` seconds; `expiresAt`, `deadline`, `resetAt`
 * a point in time (with a unit when the name adds one: `expiresAtMs`).
 * @returns `undefined` when the name says nothing.
 */
export function unitOfName(name: string): UnitGuess | undefined {
  const absolute = NOW_NAME.test(name) || ((ABSOLUTE_NAME.test(name) || ABSOLUTE_CAMEL.test(name)) && !/(?:ttl|duration|timeout|window|period|interval|delay)$/i.test(name));
  const ms = MS_CAMEL.test(name) || MS_NAME.test(name);
  const seconds = !ms && (SECONDS_NAME.test(name) || SECONDS_UPPER.test(name));
  const unit = ms ? 'milliseconds' : seconds ? 'seconds' : undefined;
  if (absolute) return { kind: 'absolute', ...(unit ? { unit } : {}), why: `its name \`${name}\` says it is a point in time` };
  if (unit) return { kind: 'duration', unit, why: `its name \`${name}\` says ${unit}` };
  return undefined;
}

/** `MS_PER_SECOND`, `ONE_SECOND_MS`, `SECOND_IN_MILLIS`, `millisecondsPerSecond`: one second in milliseconds. */
const SECOND_IN_MS_NAME = /^(?:one_?)?seconds?_?(?:in_?)?(?:ms|millis|milliseconds)$|^(?:ms|millis|milliseconds)_?(?:per|in)_?(?:one_?)?second$/i;

/**
 * Whether a name is one second counted in milliseconds (a divisor that turns milliseconds into
 * seconds): `MS_PER_SECOND`, `ONE_SECOND_MS`, or `second` of an object whose name says
 * milliseconds (`TIME_MS.second`, `Milliseconds.SECOND`).
 * @param name the variable's or the property's name
 * @param objectName for a property, the name of the object it is read from
 */
export function isOneSecondInMs(name: string, objectName?: string): boolean {
  if (objectName !== undefined && /^(?:one_?)?seconds?$/i.test(name)) return unitOfName(objectName)?.unit === 'milliseconds' || /^(?:ms|millis|milliseconds)$/i.test(objectName);
  return SECOND_IN_MS_NAME.test(name);
}

/**
 * The guess for a literal number: a Unix time in milliseconds (>= 1e12) or seconds (>= 1e9), a
 * duration (`small`) when it is positive and below 1e8 (before March 1973 as a Unix time), else
 * nothing.
 */
export function unitOfLiteral(value: number): UnitGuess | undefined {
  if (value >= 1e12) return { kind: 'absolute', unit: 'milliseconds', why: `${value} is a Unix time in milliseconds` };
  if (value >= 1e9) return { kind: 'absolute', unit: 'seconds', why: `${value} is a Unix time in seconds` };
  if (value > 0 && value < 1e8) return { kind: 'duration', small: true, why: `${value} as a Unix time lies in the early 1970s` };
  return undefined;
}

/** The kind and unit a command's TTL argument expects. */
export function expectedUnit(unit: TtlUnit): { kind: 'duration' | 'absolute'; unit: 'seconds' | 'milliseconds' } {
  switch (unit) {
    case 'seconds':
      return { kind: 'duration', unit: 'seconds' };
    case 'milliseconds':
      return { kind: 'duration', unit: 'milliseconds' };
    case 'unix-seconds':
      return { kind: 'absolute', unit: 'seconds' };
    case 'unix-milliseconds':
      return { kind: 'absolute', unit: 'milliseconds' };
  }
}

/**
 * Whether a guess contradicts what the argument expects, and how: `ms-as-seconds` (a TTL 1000
 * times too long), `seconds-as-ms` (1000 times too short), `absolute-as-duration` (a Unix time as
 * a TTL: the key lives for decades), `duration-as-absolute` (a TTL as a Unix time: a time in 1970,
 * so the expiry deletes the key at once), `absolute-unit` (a Unix time in the other unit).
 */
export function unitMismatch(
  guess: UnitGuess,
  expected: TtlUnit,
): 'ms-as-seconds' | 'seconds-as-ms' | 'absolute-as-duration' | 'duration-as-absolute' | 'absolute-unit' | undefined {
  const want = expectedUnit(expected);
  // only the unit is known: a span or a point in time as the command expects
  if (guess.unitOnly) guess = { ...guess, kind: want.kind };
  if (guess.kind === 'absolute' && want.kind === 'duration') return 'absolute-as-duration';
  if (guess.kind === 'duration' && want.kind === 'absolute') return guess.unit || guess.small ? 'duration-as-absolute' : undefined;
  if (!guess.unit || guess.unit === want.unit) return undefined;
  if (guess.kind === 'absolute') return 'absolute-unit';
  return guess.unit === 'milliseconds' ? 'ms-as-seconds' : 'seconds-as-ms';
}

/**
 * `a op b` for two known numbers, as Lua and JavaScript compute it (`^` / `**` a float power), for
 * the analyses that fold constant TTL arithmetic (`5 * 60 * 1000`, `2 ^ 53 - 1`).
 * @returns `undefined` for another operator, a division by 0 or a result that is not finite.
 */
export function foldArithmetic(op: string, a: number, b: number): number | undefined {
  let out: number;
  switch (op) {
    case '+':
      out = a + b;
      break;
    case '-':
      out = a - b;
      break;
    case '*':
      out = a * b;
      break;
    case '/':
      if (b === 0) return undefined;
      out = a / b;
      break;
    case '^':
    case '**':
      out = Math.pow(a, b);
      break;
    default:
      return undefined;
  }
  return Number.isFinite(out) ? out : undefined;
}
