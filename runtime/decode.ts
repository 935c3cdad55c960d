/**
 * The replies of the limiter scripts (format 2; the log's format 3), turned into a
 * {@link LimitResult}. A script replies with the few numbers only Redis knows, as one integer
 * when they fit below 2^53 (a table costs the server ~6,000 instructions per call to build,
 * about a tenth of a call): the caller knows the parameters it sent and the cost, and computes
 * `remaining`, `retryAfterMs` and `resetAfterMs` here, with the integer arithmetic the scripts
 * used before (exact below 2^53). The memory store replies the same way (the parity tests compare
 * the raw replies), so one decoder serves both. Each script's header in `runtime/scripts/` says
 * what its reply holds.
 *
 * @internal
 */
import type { LimitResult } from './limiter.js';
import type { OutageReason } from './outage.js';
import type { ScriptName } from './scripts.js';

/** floor(a / b) for integers below 2^53 (b >= 1), corrected for rounding of the float division. */
export function idiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  if (q * b > a) q -= 1;
  else if ((q + 1) * b <= a) q += 1;
  return q;
}

/** ceil(a / b) for integers below 2^53 (b >= 1). */
export function cdiv(a: number, b: number): number {
  return 0 - idiv(-a, b);
}

/** A reply turned into a result; `cost` is the call's cost (an integer >= 1). */
export type Decoder = (reply: unknown, cost: number) => LimitResult;

/** The limiter scripts, the ones {@link decoderFor} decodes. */
export type LimiterScript = Extract<ScriptName, 'fixed_window' | 'sliding_window_log' | 'sliding_window_counter' | 'token_bucket' | 'leaky_bucket' | 'gcra'>;

/**
 * The decoder of `script`'s replies for a limiter sending `params` (the numbers of its ARGV before
 * the cost). `limit` is the limit the results report; `reason` is set on every result when given
 * (`'fallback'` for the memory store's answers during an outage).
 * @throws {TypeError} from the decoder when a reply has neither shape (never for the shipped scripts).
 */
export function decoderFor(script: LimiterScript, params: readonly number[], limit: number, reason?: OutageReason): Decoder {
  const result = (allowed: boolean, remaining: number, retryAfterMs: number, resetAfterMs: number): LimitResult =>
    reason === undefined
      ? { allowed, limit, remaining, retryAfterMs, resetAfterMs }
      : { allowed, limit, remaining, retryAfterMs, resetAfterMs, reason };
  const [a = 0, b = 0, c = 0] = params;
  switch (script) {
    case 'fixed_window':
      return fixedWindow(a, b, result);
    case 'sliding_window_log':
      return slidingWindowLog(a, b, result);
    case 'sliding_window_counter':
      return slidingWindowCounter(a, b, result);
    case 'token_bucket':
      return tokenBucket(a, b, c, result);
    case 'leaky_bucket':
      return leakyBucket(a, b, c, result);
    case 'gcra':
      return gcra(a, b, c, result);
  }
}

type Make = (allowed: boolean, remaining: number, retryAfterMs: number, resetAfterMs: number) => LimitResult;

/** The numbers of a table reply, or a TypeError naming the script. */
function table(reply: unknown, length: number, script: string): number[] {
  if (!Array.isArray(reply) || reply.length !== length) throw new TypeError(`unexpected reply of ${script}: ${typeof reply}`);
  return reply as number[];
}

/** The magnitude of a signed integer reply (x >= 0 for an admitted call, -x - 1 for a denied one). */
function magnitude(x: number): number {
  return x >= 0 ? x : -x - 1;
}

/** fixed_window: u (cost admitted in the window) and p (its time left), packed as u * (windowMs + 1) + p. */
function fixedWindow(limit: number, windowMs: number, make: Make): Decoder {
  const radix = windowMs + 1;
  return (reply, cost) => {
    let allowed: boolean;
    let used: number;
    let left: number;
    if (typeof reply === 'number') {
      allowed = reply >= 0;
      const x = magnitude(reply);
      used = idiv(x, radix);
      left = x - used * radix;
    } else {
      const [ok, u, p] = table(reply, 3, 'fixed_window') as [number, number, number];
      allowed = ok === 1;
      used = u;
      left = p;
    }
    if (allowed) return make(true, limit - used, 0, left);
    return make(false, Math.max(0, limit - used), cost > limit ? -1 : left, used > 0 ? left : 0);
  };
}

/** sliding_window_log: u (cost admitted in the window before the call), or { x, retry, reset }. */
function slidingWindowLog(limit: number, windowMs: number, make: Make): Decoder {
  return (reply, cost) => {
    if (typeof reply === 'number') return make(true, limit - reply - cost, 0, windowMs);
    const [x, retry, reset] = table(reply, 3, 'sliding_window_log') as [number, number, number];
    const used = magnitude(x);
    if (x >= 0) return make(true, limit - used - cost, 0, reset);
    return make(false, Math.max(0, limit - used), retry, reset);
  };
}

/**
 * sliding_window_counter: an admission's r * windowMs + e (r the cost still admissible, e the ms
 * elapsed in the current window); a denial's -x - 1 with x = (p * (limit + 1) + c) * windowMs + e
 * (p and c the previous and current window's cost); or { allowed, p, c, e, lag }.
 */
function slidingWindowCounter(limit: number, windowMs: number, make: Make): Decoder {
  const w = windowMs;
  return (reply, cost) => {
    let allowed: boolean;
    let prev: number;
    let curr: number;
    let elapsed: number;
    let lag = 0;
    if (typeof reply === 'number') {
      if (reply >= 0) {
        const room = idiv(reply, w);
        return make(true, room, 0, 2 * w - (reply - room * w));
      }
      allowed = false;
      const x = -reply - 1;
      const q = idiv(x, w);
      elapsed = x - q * w;
      prev = idiv(q, limit + 1);
      curr = q - prev * (limit + 1);
    } else {
      const [ok, p, c, e, l] = table(reply, 5, 'sliding_window_counter') as [number, number, number, number, number];
      allowed = ok === 1;
      prev = p;
      curr = c;
      elapsed = e;
      lag = l;
    }
    // cost still admissible, in whole units, at `elapsed` with counts prev and curr
    const room = idiv(limit * w - prev * (w - elapsed) - curr * w, w);
    if (allowed) return make(true, room, 0, 2 * w + lag - elapsed);
    const idleReset = curr > 0 ? 2 * w + lag - elapsed : prev > 0 ? w + lag - elapsed : 0;
    if (cost > limit) return make(false, Math.max(0, room), -1, idleReset);
    const here = firstFit(limit, w, cost, prev, curr, elapsed);
    // next window: this window's count becomes the previous one, the current count starts at 0;
    // firstFit(curr, 0, 0) is at most w, and never -1 (cost <= limit)
    const retry = here >= 0 && here < w ? here - elapsed : w - elapsed + firstFit(limit, w, cost, curr, 0, 0);
    return make(false, Math.max(0, room), retry + lag, idleReset);
  };
}

/**
 * The sliding-window counter's first fit: the smallest e' >= e in the current window's frame with
 * p * (w - e') + (c + cost) * w <= limit * w; may be >= w (then it is not reachable in this
 * window); -1 if never.
 */
function firstFit(limit: number, w: number, cost: number, p: number, c: number, e: number): number {
  const spare = (limit - c - cost) * w;
  if (spare < 0) return -1;
  if (p === 0) return e;
  return Math.max(w - idiv(spare, p), e);
}

/** token_bucket: s (tokens * den after an admission, before a denial), or { that, lag }. */
function tokenBucket(capacity: number, num: number, den: number, make: Make): Decoder {
  const full = capacity * den;
  return (reply, cost) => {
    let x: number;
    let lag = 0;
    if (typeof reply === 'number') x = reply;
    else [x, lag] = table(reply, 2, 'token_bucket') as [number, number];
    const tokens = magnitude(x);
    const toFull = cdiv(full - tokens, num);
    if (x >= 0) return make(true, idiv(tokens, den), 0, toFull + lag);
    const reset = toFull > 0 ? toFull + lag : toFull;
    return make(false, idiv(tokens, den), cost > capacity ? -1 : cdiv(cost * den - tokens, num) + lag, reset);
  };
}

/** leaky_bucket: l (level * den after an admission, before a denial), or { that, lag }. */
function leakyBucket(capacity: number, num: number, den: number, make: Make): Decoder {
  const full = capacity * den;
  return (reply, cost) => {
    let x: number;
    let lag = 0;
    if (typeof reply === 'number') x = reply;
    else [x, lag] = table(reply, 2, 'leaky_bucket') as [number, number];
    const level = magnitude(x);
    const toEmpty = cdiv(level, num);
    if (x >= 0) return make(true, idiv(full - level, den), 0, toEmpty + lag);
    const reset = toEmpty > 0 ? toEmpty + lag : toEmpty;
    return make(false, idiv(full - level, den), cost > capacity ? -1 : cdiv(level + cost * den - full, num) + lag, reset);
  };
}

/** gcra: o (time outstanding in units of 1/L ms, after an admission, before a denial), or { that, over }. */
function gcra(burst: number, per: number, units: number, make: Make): Decoder {
  const tau = burst * per;
  return (reply, cost) => {
    let x: number;
    let over = 0;
    if (typeof reply === 'number') x = reply;
    else [x, over] = table(reply, 2, 'gcra') as [number, number];
    const outstanding = magnitude(x);
    const remaining = Math.max(0, idiv(tau - outstanding, per));
    if (x >= 0) return make(true, remaining, 0, cdiv(outstanding, units));
    const retry = cost > burst ? -1 : over + cdiv(outstanding + cost * per - tau, units);
    return make(false, remaining, retry, over + cdiv(outstanding, units));
  };
}
