/**
 * A TTL that is the caller's value converted to seconds, `Math.floor(x / 1000)`, where `x` is a
 * property of a parameter destructured in the body (`const { duration = ... } = options`): the
 * caller's value, trusted by `recommended` as `options.duration` and a parameter are (0 only for a
 * TTL under a second), unless the default the code gives it is a constant under the divisor
 * (`{ ttlMs = 500 }`, or a conditional with such an arm): then the TTL is 0 whenever the caller
 * passes nothing, and it is reported, in the parameter list too. Whole defaults (`rememberMe ?
 * WEEK_MS : HOUR_MS`) settle nothing either way. Stays reported: a binding reassigned after it is
 * destructured, one destructured from a call's result (no parameter), and everything with
 * `checkParameters` (strict), which judges a caller's value as today.
 */
import rule from '../../rules/expire-needs-positive-ttl.js';
import { ioredis, runRule, untypedTester } from './tester.js';

/** A function (line 3) taking `params`, whose body (from line 4) is `body`. */
const fn = (params: string, body: string) => ioredis(`export async function save(k: string, ${params}) {\n${body}\n}`);

/** The `computed` finding on `text` at `line`:`column`, with its clamp suggestion. */
function computed(code: string, text: string, line: number, column: number, options?: { checkParameters: boolean }) {
  return {
    code,
    ...(options ? { options: [options] as [typeof options] } : {}),
    errors: [{ messageId: 'computed' as const, line, column, suggestions: [{ messageId: 'clampToOne' as const, output: code.replace(text, `Math.max(1, ${text})`) }] }],
  };
}

// the shape of a session's creation: the caller's duration, or one of two whole defaults
const session = fn(
  'options: { duration?: number; rememberMe?: boolean } = {}',
  "  const WEEK_MS = 7 * 24 * 60 * 60 * 1000;\n  const { duration = options.rememberMe ? WEEK_MS : 60 * 60 * 1000 } = options;\n  await redis.setex(k, Math.floor(duration / 1000), 'v');",
);
const noDefault = fn('options: { ttlMs: number }', "  const { ttlMs } = options;\n  await redis.setex(k, Math.floor(ttlMs / 1000), 'v');");
const shortDefault = fn('options: { ttlMs?: number }', "  const { ttlMs = 500 } = options;\n  await redis.setex(k, Math.floor(ttlMs / 1000), 'v');");

runRule(untypedTester, 'expire-needs-positive-ttl (a property destructured from a parameter)', rule, {
  valid: [
    session,
    noDefault,
    // renamed, from a nested property of the parameter, the default a constant of the file
    ioredis(`const HOUR_MS = 3_600_000;\nexport async function save(k: string, opts: { ttl: { ms?: number } }) {\n  const { ms: lifetime = HOUR_MS } = opts.ttl;\n  await redis.expire(k, Math.floor(lifetime / 1000));\n}`),
    // in the parameter list, with a whole default
    fn('{ ttlMs = 60_000 }: { ttlMs?: number }', "  await redis.setex(k, Math.floor(ttlMs / 1000), 'v');"),
  ],
  invalid: [
    // a default under a second: 0 whenever the caller passes nothing
    computed(shortDefault, 'Math.floor(ttlMs / 1000)', 5, 24),
    computed(fn('{ ttlMs = 500 }: { ttlMs?: number }', "  await redis.setex(k, Math.floor(ttlMs / 1000), 'v');"), 'Math.floor(ttlMs / 1000)', 4, 24),
    computed(fn('options: { ttlMs?: number; short?: boolean }', '  const { ttlMs = options.short ? 500 : 60_000 } = options;\n  await redis.expire(k, Math.floor(ttlMs / 1000));'), 'Math.floor(ttlMs / 1000)', 5, 25),
    // reassigned after it is destructured: no longer the caller's value
    computed(fn('options: { ttlMs: number }', "  let { ttlMs } = options;\n  ttlMs -= 1000;\n  await redis.setex(k, Math.floor(ttlMs / 1000), 'v');"), 'Math.floor(ttlMs / 1000)', 6, 24),
    // destructured from a call's result, not from a parameter
    computed(
      ioredis("declare function loadConfig(): { ttlMs?: number };\nexport async function save(k: string) {\n  const { ttlMs = 60_000 } = loadConfig();\n  await redis.setex(k, Math.floor(ttlMs / 1000), 'v');\n}"),
      'Math.floor(ttlMs / 1000)',
      6,
      24,
    ),
    // strict judges a caller's value as before
    computed(session, 'Math.floor(duration / 1000)', 6, 24, { checkParameters: true }),
    computed(noDefault, 'Math.floor(ttlMs / 1000)', 5, 24, { checkParameters: true }),
  ],
});
