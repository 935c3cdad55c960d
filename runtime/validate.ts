/**
 * Argument validation shared by the runtime helpers. Every check throws before any Redis call:
 * a `TypeError` when the value has the wrong type, a `RangeError` when it has the right type but
 * is out of range. The message always names the option, e.g. `windowMs must be an integer >= 1`.
 *
 * @internal
 */

/** Largest integer a JavaScript number and a Lua 5.1 number (a double) both hold exactly: 2^53 - 1. */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/**
 * Checks that `value` is an integer in `[min, max]` and returns it.
 * @throws {TypeError} when `value` is not a number.
 * @throws {RangeError} when it is not an integer or is out of range.
 */
export function checkInteger(name: string, value: unknown, min: number, max: number = MAX_EXACT): number {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  }
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const upper = max === MAX_EXACT ? '' : ` and <= ${max}`;
    throw new RangeError(`${name} must be an integer >= ${min}${upper}, got ${value}`);
  }
  return value;
}

/**
 * Checks that `value` is a finite number `> 0` and returns it.
 * @throws {TypeError} when `value` is not a number.
 * @throws {RangeError} when it is not finite or not positive.
 */
export function checkPositive(name: string, value: unknown): number {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  }
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a finite number > 0, got ${value}`);
  }
  return value;
}

/**
 * Checks that `value` is a non-empty string and returns it.
 * @throws {TypeError} when `value` is not a string.
 * @throws {RangeError} when it is empty.
 */
export function checkNonEmptyString(name: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new TypeError(`${name} must be a string, got ${describe(value)}`);
  }
  if (value.length === 0) {
    throw new RangeError(`${name} must not be empty`);
  }
  return value;
}

/**
 * An option's value, or `fallback` when it is left out (`undefined`). `null` is not "left out":
 * it goes on to the option's check, which refuses it by name (a `null` from a configuration file
 * is a mistake to report, not a default to take in silence).
 */
export function orDefault<T>(value: T | undefined, fallback: T): T {
  return value === undefined ? fallback : value;
}

/** Whether `value` is a plain object (`{ ... }`, or made by `Object.create(null)`): not an array, a Buffer, a class instance. */
export function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Checks that `value` is a boolean and returns it.
 * @throws {TypeError} when it is not.
 */
export function checkBoolean(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be a boolean, got ${describe(value)}`);
  return value;
}

/**
 * Checks that `value` is one of `allowed` and returns it.
 * @throws {TypeError} when it is not.
 */
export function checkOneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    // A choice among fixed names is never a secret: echo a short string so that a typo shows.
    const got = typeof value === 'string' && value.length <= 40 ? JSON.stringify(value) : describe(value);
    throw new TypeError(`${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${got}`);
  }
  return value as T;
}

/**
 * Refuses option names a function does not take: a misspelt option (`prefix` for `namespace`)
 * would otherwise be dropped in silence and its default used.
 * @param what the function and variant, for the message (`"createLimiter({ algorithm: 'gcra' })"`)
 * @param options the options object; only its own enumerable names are read
 * @param known the option names it takes
 * @throws {TypeError} naming the first unknown option and every known one
 */
export function checkKnownOptions(what: string, options: object, known: readonly string[]): void {
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) {
      const shown = name.length <= 40 ? JSON.stringify(name) : 'a long name';
      throw new TypeError(`${what}: unknown option ${shown}; the options are ${known.join(', ')}`);
    }
  }
}

/** Describes a value for an error message without dumping it (identities may be secrets). */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'undefined') return String(value);
  return typeof value;
}

/** Greatest common divisor of two non-negative integers. */
export function gcd(a: number, b: number): number {
  while (b !== 0) {
    [a, b] = [b, a % b];
  }
  return a;
}

/** Slowest rate a limiter takes, in units **per second**: 10^-6 (one unit in about 11.6 days). */
export const MIN_RATE_PER_SECOND = 0.000001;
/** Fastest rate a limiter takes, in units **per second**: 10^9. */
export const MAX_RATE_PER_SECOND = 1_000_000_000;

/**
 * Writes a per-second rate as an exact fraction `num / den` of units per millisecond, both
 * integers >= 1 and reduced. `rate` must be in [10^-6, 10^9] units per second and have at most 6
 * decimal places (0.000001 units per second).
 * @throws {TypeError} when `rate` is not a number.
 * @throws {RangeError} naming `name` when the rate is out of range or has more decimal places.
 */
export function perSecondToPerMs(name: string, rate: unknown): { num: number; den: number } {
  const value = checkPositive(name, rate);
  if (value < MIN_RATE_PER_SECOND || value > MAX_RATE_PER_SECOND) {
    throw new RangeError(`${name} must be between ${MIN_RATE_PER_SECOND} and ${MAX_RATE_PER_SECOND} per second, got ${value}`);
  }
  for (let digits = 0; digits <= 6; digits += 1) {
    const scale = 10 ** digits;
    const scaled = Math.round(value * scale);
    if (Math.abs(value * scale - scaled) <= 1e-9 * Math.max(1, scaled) && scaled >= 1) {
      const den = 1000 * scale;
      const g = gcd(scaled, den);
      return { num: scaled / g, den: den / g };
    }
  }
  throw new RangeError(`${name} must have at most 6 decimal places, got ${value}`);
}
