/**
 * What the code tells about a TTL argument before it reaches Redis: its unit and kind (a span or a
 * point in time, from names and clock arithmetic: `semantics/ttl-units.ts`), and whether it can be
 * <= 0 or fractional (a remaining time such as `expires - Date.now()`, `n - 1`, `Math.floor(a / b)`,
 * a bare division) or comes from a caller unchecked, and its value when it is a constant, `const`s
 * of this file and of relatively imported modules included (`Math.floor(WINDOW_MS / 1000)`:
 * `redis-calls/constant.ts`). Read by `ttl-units`, `expire-needs-positive-ttl` and the fixes; the
 * Redis side (which unit a command expects, what it does with 0) is the command table's.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describeCommand, type CommandArg, type CommandDescription } from '../semantics/commands.js';
import { isNowName, isOneSecondInMs, unitOfLiteral, unitOfName, type UnitGuess } from '../semantics/ttl-units.js';
import { constantNumber, constantsOf } from './constant.js';
import { redisCallsOf, type RedisCall } from './index.js';
import { spanSourceOf, type SpanSource } from './time-constants.js';
import { bindingValues, returnedValues, soleAssignedValue } from './traced-values.js';
import { constructorArgumentValues, factoryArgumentValues } from './constructor-arguments.js';
import { constructorValues, writtenOutsideConstructor } from './instance-constants.js';
import { classOfThis } from './bounded.js';
import { freshDeadlineSpan } from './fresh-deadlines.js';
import { exportedValue, importedBinding, locateExport, moduleContext, topLevelConst } from './modules.js';
import { constInitializer, defaultImportOf, enclosingFunction, findVariable, foldNumber, isProcessEnv, msDuration, propertyName, referenceName, resolveMember, returnedExpressions, staticValue, unwrap, walk, type AnyContext, type ConstantScope } from './static.js';
import { staticMember } from './class-statics.js';
import { classOf } from './key-builders.js';

const MAX_DEPTH = 6;

/**
 * Date's setters, which return the date's new Unix time in milliseconds
 * (`new Date().setUTCHours(23, 59, 59, 999)` is the end of today, in ms).
 */
const DATE_SETTER = /^set(?:UTC)?(?:FullYear|Month|Date|Hours|Minutes|Seconds|Milliseconds)$|^setTime$/;

/**
 * A call of the wall clock in milliseconds: `Date.now()`, `x.getTime()`, `Date.parse(s)`,
 * `Date.UTC(...)`, `+new Date()`, and Date's setters (`d.setUTCHours(23, 59, 59, 999)`).
 */
function isClockCall(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.NewExpression) return node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'Date';
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const name = propertyName(callee.property, callee.computed);
  const object = unwrap(callee.object);
  if (object.type === AST_NODE_TYPES.Identifier && object.name === 'Date') return name === 'now' || name === 'parse' || name === 'UTC';
  // `new Date(s).valueOf()`: the date's Unix time in milliseconds, as getTime() gives it
  if (name === 'valueOf') return object.type === AST_NODE_TYPES.NewExpression && isClockCall(object);
  return name === 'getTime' || (name !== undefined && DATE_SETTER.test(name));
}

/**
 * A guess for a value read from the wall clock (`Date.now()`, `getTime()`, `now`, `nowSec()`),
 * or computed from one by the arithmetic {@link guessUnit} follows (`Date.now() + ttl`,
 * `Math.floor(Date.now() / 1000) + d`): a point in time whatever the name it is stored under.
 * `shown`: the unit is shown by the value's own shape, not by a name: milliseconds by a product by
 * a literal 1000 or by a named second in milliseconds, `ms('10m')`, `Time.Day`, a difference of
 * clock readings; seconds by a division by a literal 1000 (or a named second in milliseconds) of a
 * value in milliseconds (`(resetTime - Date.now()) / 1000`), or a source of seconds
 * (`duration.asSeconds()`). Stronger than a name that says the other unit (`const
 * expirationSeconds = 10 * 60 * 1000`, `const ttlMs = Math.ceil((resetTime - now) / 1000)`).
 */
type Guess = UnitGuess & { clock?: true; shown?: true };

/**
 * Whether an expression is made of durations only: positive number literals below any Unix time,
 * names that say a span (`ttlSeconds`, `WINDOW_MS`), `const`s bound to such, and arithmetic and
 * rounding of them (`60 * 60`, `Math.ceil(ttlMs / 1000)`). A value the code computes this way is
 * a span, whatever name it is stored under (`const refreshAt = 15 * 60`).
 */
function durationsOnly(node: TSESTree.Node, scope: ConstantScope, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const bare = unwrap(node);
  switch (bare.type) {
    case AST_NODE_TYPES.Literal:
      return typeof bare.value === 'number' && unitOfLiteral(bare.value)?.kind === 'duration';
    case AST_NODE_TYPES.Identifier: {
      const named = unitOfName(bare.name);
      if (named) return named.kind === 'duration';
      const resolved = scope.resolve(bare);
      return resolved !== undefined && durationsOnly(resolved.node, resolved.scope, depth + 1);
    }
    case AST_NODE_TYPES.MemberExpression: {
      const name = propertyName(bare.property, bare.computed);
      return name !== undefined && unitOfName(name)?.kind === 'duration';
    }
    case AST_NODE_TYPES.BinaryExpression:
      return (
        ['+', '-', '*', '/'].includes(bare.operator) &&
        bare.left.type !== AST_NODE_TYPES.PrivateIdentifier &&
        durationsOnly(bare.left, scope, depth + 1) &&
        durationsOnly(bare.right, scope, depth + 1)
      );
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(bare.callee);
      const name = callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee.property, callee.computed) : undefined;
      return (
        name !== undefined &&
        ['floor', 'ceil', 'round', 'trunc'].includes(name) &&
        bare.arguments.length === 1 &&
        bare.arguments[0]!.type !== AST_NODE_TYPES.SpreadElement &&
        durationsOnly(bare.arguments[0]!, scope, depth + 1)
      );
    }
    default:
      return false;
  }
}

/**
 * The unit a TTL expression has, from what it is made of: `Date.now()` and `getTime()` are Unix
 * milliseconds, `a - b` of two points in time is a span, a point plus a span a point, `* 1000`
 * turns seconds (or an unnamed number) into milliseconds, `/ 1000` the reverse, and names say the
 * rest (`ttlMs`, `WINDOW_SECONDS`, `expiresAt`). Follows `const` bindings of the file.
 * @returns `undefined` when nothing tells.
 */
export function guessUnit(context: AnyContext, node: TSESTree.Node, depth = 0, scope: ConstantScope = constantsOf(context)): Guess | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const bare = unwrap(node);
  const shortText = (n: TSESTree.Node): string => oneLine(scope.text(n), 30);
  const guessUnit_ = (n: TSESTree.Node, d: number): Guess | undefined => guessUnit(context, n, d, scope);
  switch (bare.type) {
    case AST_NODE_TYPES.Literal:
      return typeof bare.value === 'number' ? unitOfLiteral(bare.value) : undefined;
    case AST_NODE_TYPES.Identifier: {
      // `ONE_DAY = 86_400_000`: a constant named as one unit of time, its value says the unit
      const source = spanSourceOf(context, bare, scope);
      if (source) return spanGuess(source);
      const named = unitOfName(bare.name);
      // a `const` of this file, or of a module it imports (`import { WINDOW } from './limits'`)
      const resolved = scope.resolve(bare);
      const computed = named && resolved ? computedOverName(context, named, resolved, depth) : undefined;
      if (computed) return computed;
      // `expiresAt` given durations only in this file (`= 0`, `= secondsLeftToday()`): not a point in time
      const traced = named?.kind === 'absolute' && !isNowName(bare.name) && scope === constantsOf(context) ? tracedDuration(context, bare, depth, scope) : undefined;
      if (traced) return traced;
      if (named) return isNowName(bare.name) && named.kind === 'absolute' ? { ...named, clock: true } : named;
      return resolved ? guessUnit(context, resolved.node, depth + 1, resolved.scope) : undefined;
    }
    case AST_NODE_TYPES.MemberExpression: {
      // `Time.Day` of @sapphire/time-utilities, `TIME.DAY` of a table in milliseconds
      const source = spanSourceOf(context, bare, scope);
      if (source) return spanGuess(source);
      const name = propertyName(bare.property, bare.computed);
      const named = name ? unitOfName(name) : undefined;
      // a property of a `const` object (`CACHE_SETTINGS.maxTimeToLive`), a member fixed at
      // construction (`this.expireLogs = 1000 * 60 * 60 * 24 * 5`): read as a `const` is
      const resolved = resolveMember(bare, scope);
      const computed = named && resolved ? computedOverName(context, named, resolved, depth) : undefined;
      if (computed) return computed;
      if (named) return named;
      return resolved ? guessUnit(context, resolved.node, depth + 1, resolved.scope) : undefined;
    }
    case AST_NODE_TYPES.NewExpression:
    case AST_NODE_TYPES.CallExpression: {
      if (isClockCall(bare)) return { kind: 'absolute', unit: 'milliseconds', why: `\`${shortText(bare)}\` is a Unix time in milliseconds`, clock: true };
      if (bare.type === AST_NODE_TYPES.CallExpression) {
        // `ms('1d')`, `milliseconds({ days: 1 })`, `duration.asSeconds()`
        const source = spanSourceOf(context, bare, scope);
        if (source) return spanGuess(source);
        const callee = unwrap(bare.callee);
        const name = callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee.property, callee.computed) : callee.type === AST_NODE_TYPES.Identifier ? callee.name : undefined;
        // `nowSec()`, `now()`: the current time, in the unit the name says
        const named = name ? unitOfName(name) : undefined;
        if (named?.kind === 'absolute' && /^(?:now|currentTime|nowTime)/.test(name!)) return { ...named, clock: true };
        const first = bare.arguments[0];
        // `String(ttl)`, `ttl.toString()`: the string a client taking strings only sends (Bun's
        // `send('EXPIRE', [k, String(ttlMs)])`, a node-redis `sendCommand([...])`), in ttl's unit
        if (first && first.type !== AST_NODE_TYPES.SpreadElement && name && ['floor', 'ceil', 'round', 'trunc', 'Number', 'String', 'parseInt', 'parseFloat', 'abs'].includes(name)) {
          return guessUnit_(first, depth + 1);
        }
        if (name === 'toString' && bare.arguments.length === 0 && callee.type === AST_NODE_TYPES.MemberExpression) return guessUnit_(callee.object, depth + 1);
        if (name === 'max' || name === 'min') {
          for (const argument of bare.arguments) {
            if (argument.type === AST_NODE_TYPES.SpreadElement || argument.type === AST_NODE_TYPES.Literal) continue;
            const inner = guessUnit_(argument, depth + 1);
            if (inner) return inner;
          }
        }
      }
      return undefined;
    }
    case AST_NODE_TYPES.UnaryExpression:
      return bare.operator === '+' || bare.operator === '-' ? guessUnit_(bare.argument, depth + 1) : undefined;
    case AST_NODE_TYPES.BinaryExpression: {
      if (bare.left.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
      const left = guessUnit_(bare.left, depth + 1);
      const right = guessUnit_(bare.right, depth + 1);
      // `ms / TIME_MS.second`, `s * MS_PER_SECOND`: a named second in milliseconds is 1000
      const thousand = (side: TSESTree.Node): boolean => foldNumber(side, scope) === 1000 || namesOneSecondInMs(side) || isOneSecondInMsConstant(spanSourceOf(context, side, scope));
      const rightValue = thousand(bare.right) ? 1000 : foldNumber(bare.right, scope);
      switch (bare.operator) {
        case '-':
          if (left?.kind === 'absolute' && right?.kind === 'absolute' && !left.unitOnly && !right.unitOnly) {
            // `end.getTime() - Date.now()`: clock readings in milliseconds make a span in milliseconds
            const clockMs = [left, right].some((side) => side.clock && side.unit === 'milliseconds');
            return {
              kind: 'duration',
              ...(left.unit ?? right.unit ? { unit: left.unit ?? right.unit } : {}),
              why: `\`${shortText(bare)}\` is the time left until a point in time${left.unit ?? right.unit ? `, in ${left.unit ?? right.unit}` : ''}`,
              ...(clockMs && (left.unit ?? right.unit) === 'milliseconds' ? { shown: true as const } : {}),
            };
          }
          // a point minus a value nothing names: a point earlier (minus a span) or a span (minus
          // another point), nobody can tell; a constant or a span keeps it a point
          if (left?.kind === 'absolute' && !right && rightValue === undefined) return undefined;
          // a value nothing names minus a span: a span or a point, in the span's unit
          if (!left && right?.kind === 'duration') return sumWithUnknown(right);
          return left ?? (right?.kind === 'duration' ? right : undefined);
        case '+':
          if (left?.kind === 'absolute') return left;
          if (right?.kind === 'absolute') return right;
          // a value nothing names plus a span: a longer span, or a point in time later
          // (`windowStart + windowSizeMs` for PEXPIREAT): only the span's unit is known
          if (!left && !right) return undefined;
          if (!left || !right) return sumWithUnknown((left ?? right)!);
          return united(left, right);
        case '*':
          if (rightValue === 1000 || thousand(bare.left)) {
            const inner = rightValue === 1000 ? left : right;
            if (inner?.unit === 'milliseconds') return undefined; // ms * 1000 is microseconds: nobody's TTL
            // a literal 1000 or a named second in milliseconds shows the conversion in the value itself
            const shown = literalThousand(rightValue === 1000 ? bare.right : bare.left) || namesOneSecondInMs(rightValue === 1000 ? bare.right : bare.left);
            return converted(inner, 'milliseconds', `\`${shortText(bare)}\` multiplies by 1000 (seconds to milliseconds)`, shown);
          }
          // `30 * Time.Second`: the factor has no unit, the span has
          return united(left, right);
        case '/':
          if (rightValue === 1000) {
            if (left?.unit === 'seconds') return undefined;
            // milliseconds the value itself shows, divided by a 1000 written out: seconds by its shape
            // (a difference with a clock reading in milliseconds counts: `(resetTime - Date.now()) / 1000`)
            const milliseconds = (left?.unit === 'milliseconds' && !left.unitOnly) || clockDifference(bare.left, guessUnit_, depth + 1);
            const shown = milliseconds && (literalThousand(bare.right) || namesOneSecondInMs(bare.right));
            return converted(left, 'seconds', `\`${shortText(bare)}\` divides by 1000 (milliseconds to seconds)`, shown);
          }
          // `Time.Day / Time.Minute`: a span by a span of the same unit is a count, no unit
          if (left?.kind === 'duration' && right?.kind === 'duration' && left.unit && left.unit === right.unit) return undefined;
          return left;
        default:
          return undefined;
      }
    }
    case AST_NODE_TYPES.ConditionalExpression: {
      const a = guessUnit_(bare.consequent, depth + 1);
      const b = guessUnit_(bare.alternate, depth + 1);
      return a && b && a.kind === b.kind && a.unit === b.unit ? a : undefined;
    }
    case AST_NODE_TYPES.LogicalExpression:
      return guessUnit_(bare.left, depth + 1) ?? guessUnit_(bare.right, depth + 1);
    default:
      return undefined;
  }
}

/**
 * What the value a name is bound to is computed from, when it tells more than the name: the clock
 * plus a span is a point in time (`const expiresInSeconds = Date.now() + ttl`), durations alone a
 * span (`const refreshAt = 15 * 60`). `undefined` when the name is to be believed.
 */
function computedOverName(
  context: AnyContext,
  named: UnitGuess,
  resolved: { node: TSESTree.Node; scope: ConstantScope },
  depth: number,
): Guess | undefined {
  // the value's own text (a module's constant is not in the linted file)
  const shortText = (n: TSESTree.Node): string => oneLine(resolved.scope.text(n), 30);
  const computed = guessUnit(context, resolved.node, depth + 1, resolved.scope);
  if (computed?.clock && computed.kind === 'absolute' && !computed.unitOnly && !(named.kind === 'absolute' && named.unit === computed.unit)) {
    return { ...computed, why: `it is \`${shortText(resolved.node)}\`, read from the clock, whatever its name says` };
  }
  if (named.kind === 'absolute' && durationsOnly(resolved.node, resolved.scope, depth + 1)) {
    const unit = named.unit ?? computed?.unit;
    return { kind: 'duration', ...(unit ? { unit } : {}), ...(computed?.small ? { small: true as const } : {}), why: `it is \`${shortText(resolved.node)}\`, computed from durations only, whatever its name says` };
  }
  // milliseconds held in a name that says seconds (`expirationSeconds = 10 * 60 * 1000`): the
  // name is the author's intent, the value is what Redis receives
  if (named.kind === 'duration' && named.unit === 'seconds' && computed?.unit === 'milliseconds' && computed.shown && computed.kind === 'duration') {
    return { kind: 'duration', unit: 'milliseconds', shown: true, why: `it is \`${shortText(resolved.node)}\`, milliseconds by its value, whatever its name says` };
  }
  // seconds held in a name that says milliseconds (`const ttlMs = Math.ceil((resetTime - now) /
  // 1000)`): the division by 1000 of milliseconds is what Redis receives
  if (named.kind === 'duration' && named.unit === 'milliseconds' && computed?.unit === 'seconds' && computed.shown && computed.kind === 'duration') {
    return { kind: 'duration', unit: 'seconds', shown: true, why: `it is \`${shortText(resolved.node)}\`, seconds by its value, whatever its name says` };
  }
  return undefined;
}

/**
 * A parameter or variable named as a point in time (`expiresAt`) whose every value in the file
 * (`redis-calls/traced-values.ts`: a default, an initializer, the assignments; not what callers
 * pass) is a number literal or a duration, at least one a duration (`getEndOfTheDayTimeIST()`
 * returning `moment(eod).diff(now, 'seconds')`): a duration, whatever its name says. `undefined`
 * when a value is a point in time (`Math.floor(Date.now() / 1000) + 60`) or unknown.
 */
function tracedDuration(context: AnyContext, id: TSESTree.Identifier, depth: number, scope: ConstantScope): Guess | undefined {
  const values = bindingValues(context, id);
  if (!values) return undefined;
  let found: Guess | undefined;
  for (const value of values) {
    const bare = unwrap(value);
    const guess = valueGuess(context, value, depth + 1, scope);
    if (!guess && bare.type === AST_NODE_TYPES.Literal && typeof bare.value === 'number') continue;
    if (guess?.kind !== 'duration' || guess.unitOnly) return undefined;
    if (found?.unit && guess.unit && found.unit !== guess.unit) return undefined;
    if (!found?.unit) found = guess;
  }
  if (!found) return undefined;
  return { kind: 'duration', ...(found.unit ? { unit: found.unit } : {}), why: `\`${id.name}\` is given durations only here (${found.why}), whatever its name says` };
}

/** The unit of a value, or of what the function of the code it calls returns (every return alike). */
function valueGuess(context: AnyContext, node: TSESTree.Node, depth: number, scope: ConstantScope): Guess | undefined {
  const direct = guessUnit(context, node, depth, scope);
  if (direct) return direct;
  const returned = depth <= MAX_DEPTH ? returnedValues(node, scope) : undefined;
  if (!returned) return undefined;
  const guesses = returned.nodes.map((n) => guessUnit(context, n, depth + 1, returned.scope));
  const first = guesses[0];
  return first && guesses.every((g) => g !== undefined && g.kind === first.kind && g.unit === first.unit) ? first : undefined;
}

/** A duration whose source tells its unit (`Time.Day` of @sapphire/time-utilities, `ms('1d')`): `redis-calls/time-constants.ts`. */
function spanGuess(source: SpanSource): Guess {
  return { kind: 'duration', unit: source.unit, why: source.why, ...(source.unitOnly ? { unitOnly: true as const } : {}), ...(source.unit === 'milliseconds' || !source.unitOnly ? { shown: true as const } : {}) };
}

/**
 * Whether `node` is a difference one of whose sides is a clock reading in milliseconds
 * (`resetTime - now` with `const now = Date.now()`, `Date.now() - startedAt`): milliseconds
 * whatever the other side is called, since only a value in milliseconds is subtracted from or
 * to `Date.now()`. `guess` is {@link guessUnit} in the caller's scope.
 */
function clockDifference(node: TSESTree.Node, guess: (n: TSESTree.Node, depth: number) => Guess | undefined, depth: number): boolean {
  const bare = unwrap(node);
  if (bare.type !== AST_NODE_TYPES.BinaryExpression || bare.operator !== '-') return false;
  return [bare.left, bare.right].some((side) => {
    const found = guess(side, depth);
    return found?.clock === true && found.kind === 'absolute' && found.unit === 'milliseconds' && !found.unitOnly;
  });
}

/** A number literal 1000 (`1000`, `1_000`, `1e3`): a conversion to milliseconds written out, not a constant that happens to be 1000. */
function literalThousand(node: TSESTree.Node): boolean {
  const bare = unwrap(node);
  return bare.type === AST_NODE_TYPES.Literal && bare.value === 1000;
}

/** `Time.Second` of a table in milliseconds: one second counted in milliseconds, a divisor of 1000. */
function isOneSecondInMsConstant(source: SpanSource | undefined): boolean {
  return source?.unit === 'milliseconds' && source.value === 1000;
}

/**
 * The guess for `inner` multiplied or divided by 1000: now in `unit` (seconds or milliseconds),
 * the same kind (a duration when `inner` is unknown, then its unit only), a clock reading still
 * one; `shown` when the factor is written out (a literal 1000, a named second in milliseconds).
 */
function converted(inner: Guess | undefined, unit: 'seconds' | 'milliseconds', why: string, shown: boolean): Guess {
  return {
    kind: inner?.kind ?? 'duration',
    unit,
    why,
    ...(inner ? {} : { unitOnly: true as const }),
    ...(inner?.clock ? { clock: true as const } : {}),
    ...(shown ? { shown: true as const } : {}),
  };
}

/**
 * A span added to (or taken from) a value nothing names: a span, or a point in time moved by it
 * (`windowStart + windowSizeMs`), nobody can tell which; the span's unit is the sum's. `undefined`
 * for a span whose unit is unknown (`x + 60`).
 */
function sumWithUnknown(known: Guess): Guess | undefined {
  if (known.kind !== 'duration' || !known.unit) return undefined;
  return { ...known, unitOnly: true };
}

/** Of two guesses of one product or sum of spans, the one that knows its unit (`30 * Time.Second`). */
function united(left: Guess | undefined, right: Guess | undefined): Guess | undefined {
  if (left?.unit) return left;
  if (right?.unit) return right;
  return left ?? right;
}

/** A name of one second in milliseconds (`MS_PER_SECOND`, `TIME_MS.second`): `semantics/ttl-units.ts`. */
function namesOneSecondInMs(node: TSESTree.Node): boolean {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Identifier) return isOneSecondInMs(bare.name);
  if (bare.type !== AST_NODE_TYPES.MemberExpression) return false;
  const name = propertyName(bare.property, bare.computed);
  const object = unwrap(bare.object);
  const objectName = referenceName(object);
  return name !== undefined && isOneSecondInMs(name, objectName);
}

/**
 * Why a TTL expression may be <= 0 or fractional:
 * - `remaining`: a point in time minus another (`expires - Date.now()`): <= 0 once it has passed;
 * - `minus`: `n - 1` and other subtractions of a positive constant from a value nothing bounds
 *   (strict only: `expires_in - 60`, a provider's token lifetime minus a margin, is positive in practice);
 * - `rounded-down`: `Math.floor` / `Math.trunc` / `Math.round` / `| 0` of a division: 0 for a small value;
 * - `fractional`: a bare division (`ms / 1000`): Redis rejects a fraction;
 * - `parameter`: a parameter of the enclosing function, used as is (strict only: callers usually pass valid TTLs).
 */
export type TtlRisk = 'remaining' | 'minus' | 'rounded-down' | 'fractional' | 'parameter';

/**
 * Whether a TTL expression is a time left that the code computes itself, read through `const`s and
 * whatever test surrounds it: a point in time minus the clock or minus another (`deadline -
 * Date.now()`, `Math.floor((endOfDay() - Date.now()) / 1000)`: {@link TtlRisk} `remaining`). Such a
 * value reaches 0 or less once the moment has passed: a test of it being given
 * (`redis-calls/optional-ttl.ts`) is the code's own decision, not a caller's choice of no TTL. So
 * does one clamped at 0 (`Math.max(0, deadline - Date.now())`, the bound 0 or below), and what a
 * function of the file, a method of the class (`this.secondsLeft(d)`) or an imported function of
 * the repository returns when its every return is one (`secondsUntilMidnight()`), and the one assignment of a `let` declared without a value.
 */
export function remainingTime(context: AnyContext, node: TSESTree.Node, depth = 0): boolean {
  const risk = riskOf(context, node, false, new Set(), 0);
  if (risk === 'remaining' || risk === 'remaining-fraction') return true;
  if (depth > MAX_DEPTH) return false;
  const bare = unwrap(node);
  // a `const`'s initializer, or the one assignment of a `let` declared without one (`let ttl; ttl = deadline - Date.now()`)
  const init = bare.type === AST_NODE_TYPES.Identifier ? (constInitializer(context, bare) ?? soleAssignedValue(context, bare)) : undefined;
  if (init) return remainingTime(context, init, depth + 1);
  if (bare.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(bare.callee);
  // secondsUntilMidnight() of a function of the file whose every return is a time left
  const own = callee.type === AST_NODE_TYPES.Identifier ? ownFunction(context, callee) : undefined;
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? ownMethod(callee) : undefined;
  const helper = own ? { fn: own, context } : method ? { fn: method, context } : callee.type === AST_NODE_TYPES.Identifier ? importedFunction(context, callee) : undefined;
  if (helper) {
    const returned = returnedExpressions(helper.fn);
    return returned.length > 0 && returned.every((each) => remainingTime(helper.context, each, depth + 1));
  }
  // Math.max(0, deadline - Date.now()): a time left clamped at 0 (or below) still runs out to 0
  if (bare.arguments.length !== 2) return false;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.object.type !== AST_NODE_TYPES.Identifier || callee.object.name !== 'Math') return false;
  if (propertyName(callee.property, callee.computed) !== 'max') return false;
  const [a, b] = bare.arguments as [TSESTree.Node, TSESTree.Node];
  if (a.type === AST_NODE_TYPES.SpreadElement || b.type === AST_NODE_TYPES.SpreadElement) return false;
  const floor = (n: TSESTree.Node): boolean => {
    const value = constantNumber(context, n);
    return value !== undefined && value <= 0;
  };
  if (floor(a)) return remainingTime(context, b, depth + 1);
  if (floor(b)) return remainingTime(context, a, depth + 1);
  return false;
}

/** The function of the linted file `id` names: a declaration, or a `const` arrow / function expression. */
function ownFunction(context: AnyContext, id: TSESTree.Identifier): TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression | undefined {
  const def = findVariable(context, id)?.defs[0];
  const fn = def?.type === 'FunctionName' ? def.node : def?.type === 'Variable' ? constInitializer(context, id) : undefined;
  const bare = fn && unwrap(fn);
  return bare && (bare.type === AST_NODE_TYPES.FunctionDeclaration || bare.type === AST_NODE_TYPES.FunctionExpression || bare.type === AST_NODE_TYPES.ArrowFunctionExpression) ? bare : undefined;
}

/** The method `this.<name>(...)` calls, declared in the class around the call (not static, not an accessor). */
function ownMethod(callee: TSESTree.MemberExpression): TSESTree.FunctionExpression | undefined {
  if (unwrap(callee.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const cls = classOfThis(callee);
  const name = propertyName(callee.property, callee.computed);
  if (!cls || name === undefined) return undefined;
  const methods = cls.body.body.filter(
    (element): element is TSESTree.MethodDefinition =>
      element.type === AST_NODE_TYPES.MethodDefinition && !element.static && element.kind === 'method' && propertyName(element.key, element.computed) === name,
  );
  const value = methods.length === 1 ? methods[0]!.value : undefined;
  return value?.type === AST_NODE_TYPES.FunctionExpression ? value : undefined;
}

/**
 * The function another module of the repository exports under the name `id` imports (`export
 * function f`, `export const f = () => ...`, re-exports followed), with a context to read it in.
 */
function importedFunction(context: AnyContext, id: TSESTree.Identifier): { fn: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression; context: AnyContext } | undefined {
  const imported = importedBinding(context, id);
  const site = imported ? locateExport(imported.module, imported.name) : undefined;
  if (!site) return undefined;
  let found: TSESTree.Node | undefined = site.expression;
  if (!found && site.local !== undefined) {
    for (const statement of site.module.program.body) {
      const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration ? statement.declaration : statement;
      if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id?.name === site.local) found = declaration;
    }
    found ??= topLevelConst(site.module.program, site.local);
  }
  const bare = found && unwrap(found);
  if (bare?.type !== AST_NODE_TYPES.FunctionDeclaration && bare?.type !== AST_NODE_TYPES.FunctionExpression && bare?.type !== AST_NODE_TYPES.ArrowFunctionExpression) return undefined;
  return { fn: bare, context: moduleContext(context, site.module) };
}

/** {@link TtlRisk}, and a remaining time divided (`(expiresAt - Date.now()) / 1000`): also a fraction. */
type Risk = TtlRisk | 'remaining-fraction';

/**
 * The risk of a TTL expression that is not a constant, or `undefined` when it is surely positive
 * as far as the code tells (a constant, `Math.max(1, x)`, a value checked `> 0` before the call).
 * `fraction` is set on a `remaining` time that is also divided without rounding
 * (`(expiresAt - Date.now()) / 1000`): a fraction whatever the moment, which Redis rejects.
 * @param strict also report TTLs taken from the enclosing function's parameters unchecked.
 */
export function ttlRisk(context: AnyContext, node: TSESTree.Node, call: TSESTree.Node, strict: boolean): { risk: TtlRisk; names: string[]; fraction?: true } | undefined {
  // a constant (`Math.floor(DAY_MS / 1000)`) has a value, which the rule judges as it is
  if (constantNumber(context, node) !== undefined) return undefined;
  const names = new Set<string>();
  const risk = riskOf(context, node, strict, names, 0);
  if (!risk) return undefined;
  if ([...names].some((name) => checkedBefore(context, name, call))) return undefined;
  return risk === 'remaining-fraction' ? { risk: 'remaining', names: [...names], fraction: true } : { risk, names: [...names] };
}

function riskOf(context: AnyContext, node: TSESTree.Node, strict: boolean, names: Set<string>, depth: number): Risk | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const bare = unwrap(node);
  switch (bare.type) {
    case AST_NODE_TYPES.Identifier: {
      names.add(bare.name);
      const init = constInitializer(context, bare);
      if (init) return riskOf(context, init, strict, names, depth + 1);
      if (!strict) return undefined;
      const def = findVariable(context, bare)?.defs[0];
      return def?.type === 'Parameter' ? 'parameter' : undefined;
    }
    case AST_NODE_TYPES.MemberExpression:
      if (!strict) return undefined;
      {
        const root = memberRoot(bare);
        if (root?.type === AST_NODE_TYPES.Identifier && findVariable(context, root)?.defs[0]?.type === 'Parameter') {
          names.add(root.name);
          const name = propertyName(bare.property, bare.computed);
          if (name) names.add(name);
          return 'parameter';
        }
      }
      return undefined;
    case AST_NODE_TYPES.BinaryExpression: {
      if (bare.left.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
      const constantOf = (side: TSESTree.Node): number | undefined => constantNumber(context, side);
      if (constantOf(bare) !== undefined) return undefined;
      if (bare.operator === '-') {
        const left = guessUnit(context, bare.left);
        const right = guessUnit(context, bare.right);
        collectNames(bare, names);
        // the expiry of a token a verify call just accepted (`jwt.verify`, `verifyIdToken`): later than now
        if (verifiedExpiry(context, bare.left)) return undefined;
        // a deadline set to the clock plus a span in this function (`expires = new Date(now + C)`,
        // then `expires.getTime() - Date.now()`): that span, judged as it is (redis-calls/fresh-deadlines.ts)
        const span = freshDeadlineSpan(context, bare);
        if (span) {
          const value = constantOf(span);
          if (value !== undefined) return value > 0 ? undefined : 'remaining';
          return riskOf(context, span, strict, names, depth + 1);
        }
        if (left?.kind === 'absolute' && right?.kind === 'absolute') return 'remaining';
        // anything minus the clock (`exp - now`, `exp - Math.floor(Date.now() / 1000)`) is a time left
        if (right?.kind === 'absolute' || isClockCall(unwrap(bare.right)) || isClockCall(unwrap(bare.left))) return 'remaining';
        // an unknown amount minus a positive margin (`expires_in - 60`): as risky as that amount,
        // which is usually a lifetime far above the margin; reported as such with `strict` only
        const amount = constantOf(bare.right);
        if (amount !== undefined && amount > 0) return riskOf(context, bare.left, strict, names, depth + 1) ?? (strict ? 'minus' : undefined);
        // a subtrahend rounded down makes the difference larger, not smaller
        const subtrahend = riskOf(context, bare.right, strict, names, depth + 1);
        return riskOf(context, bare.left, strict, names, depth + 1) ?? (subtrahend === 'rounded-down' ? undefined : subtrahend);
      }
      if (bare.operator === '/') {
        collectNames(bare, names);
        const left = riskOf(context, bare.left, strict, names, depth + 1);
        const divisor = constantOf(bare.right);
        const whole = divisor !== undefined && divisor > 0 && multipleOf(context, bare.left, divisor, 0);
        if (left === 'remaining' || left === 'remaining-fraction') return whole ? left : 'remaining-fraction';
        // `this.ttlMs / 1000` with `this.ttlMs = seconds * 1000` in the constructor: whole seconds back
        if (whole) return left;
        // a constant the folding cannot read (`Threshold.JWT_LIFESPAN / 1000`, from a package): its
        // author chose a whole amount; a Unix time in milliseconds / 1000 is no small value either
        if (!strict && divisor !== undefined && divisor > 0 && (isNamedConstant(bare.left) || guessUnit(context, bare.left)?.kind === 'absolute')) return left;
        // a member of the code's configuration object set from a named setting (`appConfig.timeoutMs`
        // with `timeoutMs: envVars.DIALOGUE_TIMEOUT_MS`): an amount its operator chose, as above
        if (!strict && divisor !== undefined && divisor > 0 && configuredSetting(context, bare.left, divisor)) return left;
        // a setting read from the environment with the code's own fallback (`const ttlMs =
        // Number(process.env.SESSION_TTL) || 7 * DAY_MS`): an amount its operator chose, whose
        // fallback is whole in the divisor's unit
        if (!strict && divisor !== undefined && divisor > 0 && environmentSetting(context, bare.left, divisor)) return left;
        return 'fractional';
      }
      if (bare.operator === '|' && constantOf(bare.right) === 0) return roundedDown(context, bare.left, strict, names, depth);
      // `x + 1000`: slack added to a span the author knows is not negative
      if (bare.operator === '+' && [bare.left, bare.right].some((side) => (constantOf(side) ?? 0) >= 1)) return undefined;
      if (bare.operator === '*' || bare.operator === '+') {
        return riskOf(context, bare.left, strict, names, depth + 1) ?? riskOf(context, bare.right, strict, names, depth + 1);
      }
      return undefined;
    }
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(bare.callee);
      const name = callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee.property, callee.computed) : callee.type === AST_NODE_TYPES.Identifier ? callee.name : undefined;
      const first = bare.arguments[0];
      if (!first || first.type === AST_NODE_TYPES.SpreadElement) return undefined;
      if (name === 'max') return undefined; // Math.max(1, x): at least 1; Math.max(a, b): as safe as its parts, unread
      if (name === 'floor' || name === 'trunc' || name === 'round') return roundedDown(context, first, strict, names, depth);
      if (name === 'ceil') {
        const inner = riskOf(context, first, strict, names, depth + 1);
        return inner === 'fractional' ? undefined : inner === 'remaining-fraction' ? 'remaining' : inner;
      }
      if (name === 'Number' || name === 'parseInt' || name === 'parseFloat') return riskOf(context, first, strict, names, depth + 1);
      return undefined;
    }
    case AST_NODE_TYPES.ConditionalExpression:
      return riskOf(context, bare.consequent, strict, names, depth + 1) ?? riskOf(context, bare.alternate, strict, names, depth + 1);
    default:
      return undefined;
  }
}

/**
 * Whether an expression is a whole multiple of `divisor` (> 0) as far as the code tells, so that
 * dividing it gives no fraction: a constant multiple; `x * c` with `c` a multiple
 * (`seconds * 1000`, the seconds a caller configured, read as whole); a sum or difference of
 * multiples; a conditional whose numeric arms are multiples (an arm that is no number, `'never'`,
 * is not divided); a `const` initialised to one; and a class member (`this.ttlMs`, `this.#ttlMs`)
 * that only its constructor and its field initialiser assign, each time to a multiple. Anything
 * else (a parameter, a member assigned in other methods) is not known to be one.
 */
function multipleOf(context: AnyContext, node: TSESTree.Node, divisor: number, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const bare = unwrap(node);
  const value = constantNumber(context, bare);
  if (value !== undefined) return Number.isInteger(value / divisor);
  switch (bare.type) {
    case AST_NODE_TYPES.BinaryExpression: {
      if (bare.left.type === AST_NODE_TYPES.PrivateIdentifier) return false;
      if (bare.operator === '*') {
        const factor = constantNumber(context, bare.right) ?? constantNumber(context, bare.left);
        return factor !== undefined && Number.isInteger(factor / divisor);
      }
      if (bare.operator === '+' || bare.operator === '-') return multipleOf(context, bare.left, divisor, depth + 1) && multipleOf(context, bare.right, divisor, depth + 1);
      return false;
    }
    case AST_NODE_TYPES.ConditionalExpression: {
      const arms = [bare.consequent, bare.alternate].filter((arm) => !isNonNumberLiteral(arm));
      return arms.length > 0 && arms.every((arm) => multipleOf(context, arm, divisor, depth + 1));
    }
    case AST_NODE_TYPES.Identifier: {
      const init = constInitializer(context, bare);
      return init !== undefined && multipleOf(context, init, divisor, depth + 1);
    }
    case AST_NODE_TYPES.MemberExpression: {
      // a constructor's argument every `new` of the class gives a positive multiple (`this.config.timeWindow`)
      // or a factory's parameter every call gives one (`opts.maxDelay` of `createBackoffTracker({ maxDelay: 8000 })`)
      const given = constructorArgumentValues(context, bare) ?? factoryArgumentValues(context, bare);
      if (given) return given.every((v) => v > 0 && Number.isInteger(v / divisor));
      const values = constructorValues(context, bare);
      return values !== undefined && values.length > 0 && values.every((v) => multipleOf(context, v, divisor, depth + 1)) && !writtenOutsideConstructor(context, bare);
    }
    default:
      return false;
  }
}

/** A literal that is no number (`'never'`, `null`): a conditional's arm the division never sees. */
function isNonNumberLiteral(node: TSESTree.Node): boolean {
  const bare = unwrap(node);
  return bare.type === AST_NODE_TYPES.Literal && typeof bare.value !== 'number';
}

/**
 * `Math.floor(x)`: 0 for a small positive `x` when `x` is a division or a remaining time. Not for
 * a whole amount plus a fraction (`Math.floor(n + n / 2)`: at least the whole part), nor, unless
 * `strict`, for the caller's value converted to another unit (`Math.floor(ttlMs / 1000)`: 0 only
 * for a TTL under a second, as trusted as a parameter passed as is; also a property destructured
 * from a parameter in the body, `const { ttlMs } = opts`), unless the default the code gives it
 * is a constant under the divisor (`{ ttlMs = 500 }`: 0 whenever the caller passes nothing).
 */
function roundedDown(context: AnyContext, inner: TSESTree.Node, strict: boolean, names: Set<string>, depth: number): Risk | undefined {
  const bare = unwrap(inner);
  if (bare.type === AST_NODE_TYPES.BinaryExpression && bare.operator === '+') {
    const sides = [riskOf(context, bare.left, strict, names, depth + 1), riskOf(context, bare.right, strict, names, depth + 1)];
    if (sides.some((side) => side !== 'fractional')) {
      const risk = sides.find((side) => side !== undefined && side !== 'fractional');
      return risk === 'remaining-fraction' ? 'remaining' : risk;
    }
    return 'rounded-down';
  }
  // the caller's value converted to another unit: trusted unless its default, the value when the
  // caller gives none, is a constant the division rounds down to 0 (`{ ttlMs = 500 }`)
  if (!strict && bare.type === AST_NODE_TYPES.BinaryExpression && bare.operator === '/') {
    const given = parameterValue(context, bare.left);
    const divisor = constantNumber(context, bare.right);
    if (given && given.defaults.every((value) => !belowDivisor(context, value, divisor))) return undefined;
  }
  // a constructor's argument every `new` (or a factory's every call) gives at least the divisor: rounded down, never 0
  if (bare.type === AST_NODE_TYPES.BinaryExpression && bare.operator === '/' && bare.left.type === AST_NODE_TYPES.MemberExpression) {
    const divisor = constantNumber(context, bare.right);
    const given = divisor !== undefined && divisor > 0 ? (constructorArgumentValues(context, bare.left) ?? factoryArgumentValues(context, bare.left)) : undefined;
    if (given && given.every((v) => v >= divisor!)) return undefined;
  }
  const risk = riskOf(context, inner, strict, names, depth + 1);
  if (risk === 'fractional') return 'rounded-down';
  return risk === 'remaining-fraction' ? 'remaining' : risk;
}

/**
 * Whether `node` is a member of a configuration object another module of the code exports (`import
 * { appConfig } from '@/config'`, `appConfig.dialogueTimeoutMs`) whose property there is a named
 * setting (`dialogueTimeoutMs: envVars.DIALOGUE_TIMEOUT_MS`, `DEFAULT_TIMEOUT_MS`): a value the
 * operator configures in whole units, not a computed one. A literal there is left to the folding
 * (`timeoutMs: 1500` is no named setting).
 */
function configuredSetting(context: AnyContext, node: TSESTree.Node, divisor: number): boolean {
  const bare = unwrap(node);
  if (bare.type !== AST_NODE_TYPES.MemberExpression || bare.computed || bare.object.type !== AST_NODE_TYPES.Identifier) return false;
  const property = propertyName(bare.property, bare.computed);
  const named = importedBinding(context, bare.object);
  if (!property || !named) return false;
  const exported = exportedValue(named.module.program, named.name);
  const object = exported && unwrap(exported);
  if (object?.type !== AST_NODE_TYPES.ObjectExpression) return false;
  for (const entry of object.properties) {
    if (entry.type === AST_NODE_TYPES.Property && !entry.computed && propertyName(entry.key, entry.computed) === property) {
      return isNamedConstant(entry.value) && defaultsWhole(named.module.program, entry.value, divisor);
    }
  }
  return false;
}

/**
 * Whether the amounts the configuration module itself writes for the named setting `value` are
 * whole in the divisor's unit: the setting read there (`const DIALOGUE_TIMEOUT_MS =
 * Number(process.env.X) || 1500`, `envVars = { DIALOGUE_TIMEOUT_MS: Number(process.env.X ?? '30000') }`)
 * falls back to its literals, and a default of 1500 ms is 1.5 s. A setting the module only names
 * (imported, a global) has none.
 */
function defaultsWhole(program: TSESTree.Program, value: TSESTree.Node, divisor: number): boolean {
  const bare = unwrap(value);
  let init: TSESTree.Node | undefined;
  if (bare.type === AST_NODE_TYPES.Identifier) init = topLevelConst(program, bare.name);
  else if (bare.type === AST_NODE_TYPES.MemberExpression && !bare.computed && bare.object.type === AST_NODE_TYPES.Identifier) {
    const holder = topLevelConst(program, bare.object.name);
    const key = propertyName(bare.property, bare.computed);
    const entry = holder?.type === AST_NODE_TYPES.ObjectExpression ? holder.properties.find((p) => p.type === AST_NODE_TYPES.Property && !p.computed && propertyName(p.key, p.computed) === key) : undefined;
    init = entry?.type === AST_NODE_TYPES.Property ? entry.value : undefined;
  }
  return !init || fallbackAmounts(init).every((amount) => Number.isInteger(amount / divisor));
}

/**
 * Whether `node` (or the `const` it names, in this file) is a setting read from the environment
 * with fallbacks the code writes: made only of `process.env.NAME`, number literals (or numeric
 * strings) and `const`s folding to one, joined by `||` / `??` and converted by `Number` /
 * `parseInt` / `parseFloat` (`Number(process.env.SESSION_TTL) || 7 * 24 * 60 * 60 * 1000`,
 * `parseInt(process.env.TTL_MS ?? '60000', 10)`), reading at least one variable and falling back
 * to at least one amount, every amount a positive whole multiple of `divisor`. The operator
 * configures the variable in whole units, as {@link configuredSetting} trusts a named setting; a
 * fallback under the divisor or not whole in it (`|| 500`, `|| 1500` for seconds) is not such a
 * setting, nor is a value of the request or of a parameter. A `??` fallback after a conversion is
 * no fallback (`Number(process.env.TTL_MS) ?? 60000` is NaN, not 60000, when the variable is unset).
 * The same setting written for the `ms` package (`ms(process.env.JWT_EXPIRES_IN || '15m')`, its
 * fallbacks read by that package: 900000), and one held in a `const` or a static member the class
 * gives one value (`static readonly accessTtl = process.env.JWT_EXPIRES_IN || '15m'`, then
 * `ms(SessionsService.accessTtl) / 1000`), are read the same way; a number given to `ms` (which
 * returns text) is none.
 */
function environmentSetting(context: AnyContext, node: TSESTree.Node, divisor: number, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Identifier) {
    const init = constInitializer(context, bare);
    return init !== undefined && environmentSetting(context, init, divisor, depth + 1);
  }
  const parts = { variables: 0, amounts: [] as number[], other: false };
  const read = (part: TSESTree.Node, d: number, ms = false): void => {
    const value = unwrap(part);
    const held = d > MAX_DEPTH ? undefined : heldSetting(context, value);
    if (d > MAX_DEPTH) parts.other = true;
    else if (held) read(held, d + 1, ms);
    else if (value.type === AST_NODE_TYPES.MemberExpression && isProcessEnv(context, unwrap(value.object))) parts.variables++;
    else if (value.type === AST_NODE_TYPES.LogicalExpression && (value.operator === '||' || value.operator === '??')) {
      read(value.left, d + 1, ms);
      // `Number(process.env.TTL) ?? 60000`: a conversion is never nullish (NaN when unset), so the fallback never applies
      if (value.operator === '??' && conversion(unwrap(value.left))) return;
      read(value.right, d + 1, ms);
    } else if (!ms && msCall(context, value)) {
      read(value.arguments[0]!, d + 1, true);
    } else if (!ms && conversion(value)) {
      read(value.arguments[0], d + 1);
    } else {
      const text = value.type === AST_NODE_TYPES.Literal && typeof value.value === 'string' && value.value.trim() !== '' ? value.value : undefined;
      const amount = ms ? (text === undefined ? undefined : msDuration(text)) : text !== undefined ? Number(text) : constantNumber(context, value);
      if (amount === undefined || !Number.isFinite(amount)) parts.other = true;
      else parts.amounts.push(amount);
    }
  };
  read(bare, depth);
  return !parts.other && parts.variables > 0 && parts.amounts.length > 0 && parts.amounts.every((amount) => amount >= divisor && Number.isInteger(amount / divisor));
}

/** `ms(x)` of the `ms` package (its default import or require), with one argument. */
function msCall(context: AnyContext, node: TSESTree.Node): node is TSESTree.CallExpression & { arguments: [TSESTree.Expression] } {
  if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.Identifier || node.arguments.length !== 1) return false;
  return node.arguments[0]!.type !== AST_NODE_TYPES.SpreadElement && defaultImportOf(context, node.callee) === 'ms';
}

/**
 * What a name in a setting stands for: a `const` of the file (its initializer), or a static member
 * of a class of the file that the class gives one value and nothing else writes
 * (`class-statics.ts` staticMember: `SessionsService.accessTtl` of `static readonly accessTtl =
 * ...`). `undefined` for anything else (a `let`, a member written at run time, a parameter).
 */
function heldSetting(context: AnyContext, node: TSESTree.Node): TSESTree.Node | undefined {
  if (node.type === AST_NODE_TYPES.Identifier) return constInitializer(context, node);
  if (node.type !== AST_NODE_TYPES.MemberExpression || node.computed || node.object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const name = propertyName(node.property, node.computed);
  const variable = findVariable(context, node.object);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const cls = def ? classOf(variable!, def) : undefined;
  const member = cls && name !== undefined ? staticMember(context, cls, name) : undefined;
  return member?.values.length === 1 ? member.values[0] : undefined;
}

/** `Number(x)`, `parseInt(x, 10)`, `parseFloat(x)`: a number (NaN when `x` is none), never `null` / `undefined`. */
function conversion(node: TSESTree.Node): node is TSESTree.CallExpression & { arguments: [TSESTree.Expression, ...TSESTree.CallExpressionArgument[]] } {
  return node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.Identifier && ['Number', 'parseInt', 'parseFloat'].includes(node.callee.name) && node.arguments[0] !== undefined && node.arguments[0].type !== AST_NODE_TYPES.SpreadElement;
}

/** The literal amounts an expression may take: `x ?? 1500`, `a ? 500 : 1500`, `Number(x || '30000')`. */
function fallbackAmounts(node: TSESTree.Node): number[] {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Literal) return typeof bare.value === 'number' || (typeof bare.value === 'string' && bare.value.trim() !== '' && Number.isFinite(Number(bare.value))) ? [Number(bare.value)] : [];
  if (bare.type === AST_NODE_TYPES.LogicalExpression) return [...fallbackAmounts(bare.left), ...fallbackAmounts(bare.right)];
  if (bare.type === AST_NODE_TYPES.ConditionalExpression) return [...fallbackAmounts(bare.consequent), ...fallbackAmounts(bare.alternate)];
  if (bare.type === AST_NODE_TYPES.CallExpression && bare.callee.type === AST_NODE_TYPES.Identifier && ['Number', 'parseInt', 'parseFloat'].includes(bare.callee.name) && bare.arguments[0]) return fallbackAmounts(bare.arguments[0]);
  return [];
}

/** A name in CONSTANT_CASE, bare or as a member: `JWT_LIFESPAN`, `Threshold.JWT_LIFESPAN`. */
function isNamedConstant(node: TSESTree.Node): boolean {
  const bare = unwrap(node);
  const name = referenceName(bare);
  return name !== undefined && /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[A-Z]{2,}[0-9]*$/.test(name);
}

/**
 * A parameter of a function, or a property of one, as the caller gives it: `ttlMs`, `{ ttlMs }`,
 * `opts.ttlMs`, and a binding destructured from one in the body and never reassigned (`const {
 * ttlMs } = opts`, `const { duration = rememberMe ? WEEK_MS : HOUR_MS } = options`); with the
 * defaults the code gives such a binding when the caller passes nothing (`{ ttlMs = 60_000 }`).
 * `undefined` for anything else.
 */
function parameterValue(context: AnyContext, node: TSESTree.Node, depth = 0): { defaults: TSESTree.Node[] } | undefined {
  let bare = unwrap(node);
  while (bare.type === AST_NODE_TYPES.MemberExpression) bare = unwrap(bare.object);
  if (bare.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context, bare);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def || def.name.type !== AST_NODE_TYPES.Identifier) return undefined;
  const holder = def.name.parent;
  const defaults = holder?.type === AST_NODE_TYPES.AssignmentPattern && holder.left === def.name ? [holder.right] : [];
  if (def.type === 'Parameter') return { defaults };
  // const { ttlMs = d } = opts: one property of a parameter's object, read once
  if (depth > 2 || def.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.ObjectPattern || !def.node.init) return undefined;
  const property = holder?.type === AST_NODE_TYPES.AssignmentPattern ? holder.parent : holder;
  if (property?.type !== AST_NODE_TYPES.Property || property.parent !== def.node.id) return undefined;
  if (variable.references.some((reference) => reference.isWrite() && reference.identifier !== def.name)) return undefined;
  const from = parameterValue(context, def.node.init, depth + 1);
  if (!from) return undefined;
  // const { cache = { ttlMs: 500 } } = opts; const { ttlMs } = cache: the object's default holds one too
  const name = propertyName(property.key, property.computed);
  for (const value of from.defaults) {
    const object = unwrap(value);
    if (object.type !== AST_NODE_TYPES.ObjectExpression) continue;
    for (const member of object.properties) {
      if (member.type === AST_NODE_TYPES.Property && name !== undefined && propertyName(member.key, member.computed) === name) defaults.push(member.value);
    }
  }
  return { defaults };
}

/**
 * Whether `value` (a default) is a constant below `divisor`, or a conditional with such an arm:
 * divided and rounded down, it gives 0. A value that is no constant, or a divisor that is none,
 * is not known to.
 */
function belowDivisor(context: AnyContext, value: TSESTree.Node, divisor: number | undefined, depth = 0): boolean {
  if (divisor === undefined) return false;
  const bare = unwrap(value);
  if (bare.type === AST_NODE_TYPES.ConditionalExpression && depth < MAX_DEPTH) {
    return [bare.consequent, bare.alternate].some((arm) => belowDivisor(context, arm, divisor, depth + 1));
  }
  const constant = constantNumber(context, bare);
  return constant !== undefined && constant < divisor;
}

/**
 * Whether a value is the expiry of a token a verify call returned (`const token = await
 * verifyIDToken(...)`, then `token.exp`; `const { exp } = jwt.verify(...)`): the verification
 * rejects a token whose expiry has passed, so the time left is positive when the code reads it.
 */
function verifiedExpiry(context: AnyContext, node: TSESTree.Node): boolean {
  let bare = unwrap(node);
  while (bare.type === AST_NODE_TYPES.MemberExpression) bare = unwrap(bare.object);
  if (bare.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(context, bare)?.defs[0];
  if (def?.type !== 'Variable' || def.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return false;
  let init = unwrap(def.node.init);
  if (init.type === AST_NODE_TYPES.AwaitExpression) init = unwrap(init.argument);
  if (init.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(init.callee);
  const name = callee.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee.property, callee.computed) : callee.type === AST_NODE_TYPES.Identifier ? callee.name : undefined;
  return name !== undefined && /^verify|Verify/.test(name);
}

function memberRoot(node: TSESTree.MemberExpression): TSESTree.Node | undefined {
  let current: TSESTree.Node = node;
  while (current.type === AST_NODE_TYPES.MemberExpression) current = unwrap(current.object);
  return current;
}

function collectNames(root: TSESTree.Node, names: Set<string>): void {
  const visit = (node: TSESTree.Node): void => {
    const bare = unwrap(node);
    if (bare.type === AST_NODE_TYPES.Identifier) names.add(bare.name);
    else if (bare.type === AST_NODE_TYPES.BinaryExpression) {
      if (bare.left.type !== AST_NODE_TYPES.PrivateIdentifier) visit(bare.left);
      visit(bare.right);
    } else if (bare.type === AST_NODE_TYPES.MemberExpression) {
      const root = memberRoot(bare);
      if (root?.type === AST_NODE_TYPES.Identifier) names.add(root.name);
    }
  };
  visit(root);
}

const COMPARISONS = new Set(['>', '>=', '<', '<=']);

/**
 * Whether the enclosing function compares `name` with a number before `call` (`if (ttl <= 0)
 * return`, `ttl > 0 && ...`, `if (ttl < 1) throw`): the code took care of the non-positive case.
 */
function checkedBefore(context: AnyContext, name: string, call: TSESTree.Node): boolean {
  const scope = enclosingFunction(call) ?? context.sourceCode.ast;
  const compares = (node: TSESTree.Node): boolean =>
    node.type === AST_NODE_TYPES.BinaryExpression &&
    COMPARISONS.has(node.operator) &&
    node.left.type !== AST_NODE_TYPES.PrivateIdentifier &&
    (mentionsName(node.left, name) || mentionsName(node.right, name));
  return walk(context, scope, (node) => (compares(node) ? 'stop' : undefined), { range: [-Infinity, call.range[0]] });
}

function mentionsName(node: TSESTree.Node, name: string): boolean {
  const bare = unwrap(node);
  if (bare.type === AST_NODE_TYPES.Identifier) return bare.name === name;
  if (bare.type === AST_NODE_TYPES.MemberExpression) return propertyName(bare.property, bare.computed) === name || mentionsName(bare.object, name);
  return false;
}

/** An expression's text on one line, cut to about 50 characters. */
export function shortText(context: AnyContext, node: TSESTree.Node): string {
  return oneLine(context.sourceCode.getText(node), 50);
}

/** Source text on one line, cut to `max` characters (`...` at the end when cut). */
function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length <= max ? line : `${line.slice(0, max - 3)}...`;
}

/**
 * The value of a TTL argument when the code fixes it: a constant number (`const`s of this file and
 * of relatively imported modules, `Math.floor(WINDOW_MS / 1000)`: {@link constantNumber}), or a
 * numeric string (`'60'`, which Redis parses). `undefined` when it is computed at run time.
 */
export function ttlValue(context: AnyContext, node: TSESTree.Node): number | string | undefined {
  const value = constantNumber(context, node);
  if (value !== undefined) return value;
  const text = staticValue(context, node);
  return typeof text === 'string' && text.trim() !== '' && Number.isFinite(Number(text)) ? text : undefined;
}

/**
 * The command table's description of `call` with its TTL argument replaced by `literal` (a constant
 * the call may only compute, {@link ttlValue}): what Redis does with that very value, rejected
 * (`'60.0'`, `1e21`, `0` after EX) or taken. `undefined` when the command has no TTL argument.
 */
export function describedWithTtl(call: RedisCall, literal: CommandArg): CommandDescription | undefined {
  const ttlArg = call.description.ttl?.arg;
  if (ttlArg === undefined) return undefined;
  const args = call.args.slice();
  args[ttlArg] = literal;
  return describeCommand(call.command, args);
}

/** The TTL argument of each command a call issues (the command table's `ttl`), when it is one node. */
export function ttlArgumentsOf(context: AnyContext, node: TSESTree.CallExpression): Array<{ call: RedisCall; ttl: NonNullable<RedisCall['description']['ttl']>; ttlNode: TSESTree.Node }> {
  const out: Array<{ call: RedisCall; ttl: NonNullable<RedisCall['description']['ttl']>; ttlNode: TSESTree.Node }> = [];
  for (const call of redisCallsOf(context, node)) {
    const ttl = call.description.ttl;
    const ttlNode = ttl ? call.argNodes[ttl.arg] : undefined;
    if (ttl && ttlNode && ttlNode.type !== AST_NODE_TYPES.SpreadElement) out.push({ call, ttl, ttlNode });
  }
  return out;
}
