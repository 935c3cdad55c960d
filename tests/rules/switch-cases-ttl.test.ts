/**
 * A `switch` written by hand is no optional TTL (round 21, Cladily's rate limiter: `switch
 * (algorithm)` whose fixed-window case and default case each GET the count, SET count+1 with a
 * plain SET and EXPIRE only when the count is 1, so every SET after the first strips the TTL and the
 * counter never expires). The optional-TTL exemption reads another case of a `switch` that expires
 * the key as the other arm of one TTL decision only in the state machine compiled async code runs
 * (Babel's regenerator `switch (_context.prev = _context.next)` with numeric cases and its closing
 * `case "end"`, TypeScript's `switch (_a.label)`): there the no-TTL write stays exempt. Limits:
 * numeric cases under any other discriminant (`switch (state)`), or a string case other than
 * `"end"`, are written by hand, and reported.
 */
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { runRule, untypedTester } from './tester.js';

/** Replaces the `nth` (0-based) occurrence of `from` in `code` by `to`. */
function replaceNth(code: string, from: string, to: string, nth: number): string {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = code.indexOf(from, at + 1);
  return code.slice(0, at) + to + code.slice(at + from.length);
}

/**
 * The node-redis suggestions of a SET at the `nth` occurrence of `call` whose own EXPIRE follows on
 * `line`, under an `if`: that EXPIRE's TTL as the SET's (the EXPIRE stays), then KEEPTTL.
 */
const laterExpiry = (code: string, call: string, nth: number, ttl: string, line: string) => [
  { messageId: 'addLaterExpiry' as const, data: { ttl, line }, output: replaceNth(code, call, `${call.slice(0, -1)}, { EX: ${ttl} })`, nth) },
  { messageId: 'addKeepTtl' as const, output: replaceNth(code, call, `${call.slice(0, -1)}, { KEEPTTL: true })`, nth) },
];

/** The node-redis suggestions of a SET at the `nth` occurrence of `call` (its closing parenthesis last). */
const suggestions = (code: string, call: string, nth: number) => [
  { messageId: 'addExpiryPlaceholder' as const, output: replaceNth(code, call, `${call.slice(0, -1)}, { EX: TTL_SECONDS })`, nth) },
  { messageId: 'addKeepTtl' as const, output: replaceNth(code, call, `${call.slice(0, -1)}, { KEEPTTL: true })`, nth) },
];

/** The fixed-window limiter: two hand-written cases, each SET count+1 then EXPIRE when the count is 1. */
const limiter = `import { createClient } from 'redis';
const client = createClient();
export async function limit(key, windowMs, algorithm) {
  switch (algorithm) {
    case 'fixed_window': {
      const count = parseInt((await client.get(key)) || '0', 10) + 1;
      await client.set(key, count.toString());
      if (count === 1) await client.expire(key, Math.ceil(windowMs / 1000));
      return count;
    }
    default: {
      const count = parseInt((await client.get(key)) || '0', 10) + 1;
      await client.set(key, count.toString());
      if (count === 1) await client.expire(key, Math.ceil(windowMs / 1000));
      return count;
    }
  }
}`;
/** Babel's regenerator: the no-TTL SET of `case 4` is the other arm of `if (!ttl)` in `case 0`. */
const regenerator = `import { createClient } from 'redis';
const client = createClient();
export function save(key, value, ttl) {
  return _regeneratorRuntime().wrap(function _callee$(_context) {
    while (1) switch (_context.prev = _context.next) {
      case 0:
        if (!ttl) { _context.next = 4; break; }
        _context.next = 3;
        return client.set(key, value, { EX: ttl });
      case 3:
        return _context.abrupt('return');
      case 4:
        _context.next = 6;
        return client.set(key, value);
      case 6:
      case 'end':
        return _context.stop();
    }
  });
}`;
/** TypeScript's `__generator` state machine. */
const generator = regenerator.replace('switch (_context.prev = _context.next)', 'switch (_a.label)').replace("case 'end':", 'default:');
/** The same cases under a hand-written discriminant. */
const byHand = generator.replace('switch (_a.label)', 'switch (state)');
/** A string case other than regenerator's closing `"end"`: written by hand. */
const named = regenerator.replace('case 4:', "case 'four':");

runRule(untypedTester, 'set-requires-ttl-or-keepttl (cases of a hand-written switch)', setRule, {
  valid: [{ code: regenerator }, { code: generator }],
  invalid: [
    {
      code: limiter,
      errors: [
        { messageId: 'setThenExpire', line: 7, column: 20, data: { command: 'SET', key: 'key', line: '8', client: '', hint: '' }, suggestions: laterExpiry(limiter, 'set(key, count.toString())', 0, 'Math.ceil(windowMs / 1000)', '8') },
        { messageId: 'setThenExpire', line: 13, column: 20, data: { command: 'SET', key: 'key', line: '14', client: '', hint: '' }, suggestions: laterExpiry(limiter, 'set(key, count.toString())', 1, 'Math.ceil(windowMs / 1000)', '14') },
      ],
    },
    {
      code: named,
      errors: [{ messageId: 'setWithoutTtl', line: 14, column: 23, suggestions: suggestions(named, 'set(key, value)', 0) }],
    },
    {
      code: byHand,
      errors: [{ messageId: 'setWithoutTtl', line: 14, column: 23, suggestions: suggestions(byHand, 'set(key, value)', 0) }],
    },
  ],
});
