/**
 * JavaScript fallbacks of Lua scripts (`allowScriptFallbacks`, redis-calls/script-fallback.ts), from
 * the kind's definition: a write of a key the script is given, in the arm that runs only when the
 * client cannot run scripts (a test of its scripting capability, also through a same-file
 * predicate), or in the catch of the script call, or in a same-file function only such an arm runs
 * (called there, or passed to a runner that calls that parameter only there), is not what runs in
 * production: not reported in `recommended`. Near misses stay reported: a branch on a flag, a test
 * mixing the capability with another condition, a key the script is not given, a write after the
 * branch, a fallback function also called elsewhere, a runner parameter also called on the
 * script's path, and `strict`.
 */
import { describe, expect, it } from 'vitest';
import { lintKeyRules, STRICT_KEY_POLICY } from '../helpers/lint.js';
import { ioredis } from './tester.js';

const SCRIPT = "const SCRIPT = \"redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], ARGV[1])\";\n";
const lines = (...body: string[]): string => ioredis(SCRIPT + body.join('\n'));

// the no-scripting arm of a capability test, the script in the other arm (lines 4-)
const inlineElse = lines(
  'export async function hit(key: string, ttl: number) {',
  "  if (typeof redis.evalsha === 'function') {",
  '    return redis.eval(SCRIPT, 1, key, ttl);',
  '  } else {',
  '    await redis.incr(key);',
  '    await redis.expire(key, ttl);',
  '  }',
  '}',
);
// an early-returning arm behind a same-file predicate, the script after it
const earlyReturn = lines(
  "const supportsScripts = (client: any): boolean => typeof client.eval === 'function' && typeof client.script === 'function';",
  'export async function record(key: string) {',
  '  if (!supportsScripts(redis)) {',
  "    await redis.hset(key, 'count', '1');",
  '    await redis.expire(key, 60);',
  '    return;',
  '  }',
  '  await redis.eval(SCRIPT, 1, key, 60);',
  '}',
);
// the catch of the script call
const inCatch = lines(
  'export async function hit(sha: string, key: string) {',
  '  try {',
  '    await redis.evalsha(sha, 1, key, 60);',
  '  } catch {',
  '    await redis.incr(key);',
  '    await redis.expire(key, 60);',
  '  }',
  '}',
);
// a runner whose no-scripting arm calls its `fallback` parameter, given a thunk of a fallback function
const runner = lines(
  'const run = async (keys: string[], args: number[], parse: (raw: unknown) => number, fallback: () => Promise<number>) => {',
  "  if (!('evalsha' in redis)) {",
  '    return fallback();',
  '  }',
  '  return parse(await redis.evalsha("sha", keys.length, ...keys, ...args));',
  '};',
  'const fallbackIncr = async (counter: string, ttl: number) => {',
  '  const n = await redis.incr(counter);',
  '  if (ttl > 0) await redis.expire(counter, ttl);',
  '  return n;',
  '};',
  'export const incr = (key: string, ttl: number) => run([key], [ttl], Number, () => fallbackIncr(key, ttl));',
);
// a fallback function called from the no-scripting arm, its key built from its parameter
const calledFromArm = lines(
  'async function fallbackMark(id: string) {',
  '  await redis.sadd(`seen:${id}`, "1");',
  '  await redis.expire(`seen:${id}`, 60);',
  '}',
  'export async function mark(id: string) {',
  '  if (!redis.evalsha) return fallbackMark(id);',
  '  await redis.evalsha("sha", 1, `seen:${id}`);',
  '}',
);

describe('script fallbacks: not reported in recommended', () => {
  it.each([
    ['the else arm of typeof evalsha', inlineElse],
    ['an early-returning arm of a same-file predicate', earlyReturn],
    ['the catch of the script call', inCatch],
    ['a thunk passed to a runner', runner],
    ['a function the no-scripting arm calls', calledFromArm],
  ])('%s', (_name, code) => {
    expect(lintKeyRules(code)).toEqual([]);
  });
});

describe('script fallbacks: reported in strict', () => {
  it('each write, as without the allowance', () => {
    expect(lintKeyRules(inlineElse, STRICT_KEY_POLICY)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 8, 17]]);
    expect(lintKeyRules(earlyReturn, STRICT_KEY_POLICY)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 7, 17]]);
    expect(lintKeyRules(inCatch, STRICT_KEY_POLICY)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 8, 17]]);
    expect(lintKeyRules(runner, STRICT_KEY_POLICY)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 11, 25]]);
    expect(lintKeyRules(calledFromArm, STRICT_KEY_POLICY)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 5, 15]]);
  });
  it('and with only allowScriptFallbacks off', () => {
    expect(lintKeyRules(inCatch, { allowScriptFallbacks: false })).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 8, 17]]);
  });
});

describe('near misses stay reported', () => {
  it('a branch on a flag, not on the client', () => {
    const code = lines(
      'export async function hit(key: string, useLua: boolean) {',
      '  if (useLua) {',
      '    return redis.eval(SCRIPT, 1, key, 60);',
      '  } else {',
      '    await redis.incr(key);',
      '    await redis.expire(key, 60);',
      '  }',
      '}',
    );
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 8, 17]]);
  });
  it('a test mixing the capability with a flag', () => {
    const code = inlineElse.replace("if (typeof redis.evalsha === 'function')", "if (useLua && typeof redis.evalsha === 'function')").replace('ttl: number)', 'ttl: number, useLua: boolean)');
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 8, 17]]);
  });
  it('a key the script is not given', () => {
    const code = inCatch.replace('await redis.incr(key);', 'await redis.incr(`errors:${key}`);').replace('await redis.expire(key, 60);', 'await redis.expire(`errors:${key}`, 60);');
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 8, 17]]);
  });
  it('a write after the branch', () => {
    const code = lines(
      'export async function hit(key: string) {',
      "  if (typeof redis.evalsha === 'function') {",
      '    await redis.eval(SCRIPT, 1, key, 60);',
      '  }',
      '  await redis.incr(key);',
      '  await redis.expire(key, 60);',
      '}',
    );
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 8, 15]]);
  });
  it('a fallback function also called on its own', () => {
    const code = `${calledFromArm}\nexport const markNow = (id: string) => fallbackMark(id);`;
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 5, 15]]);
  });
  it("a runner parameter also called on the script's path", () => {
    const code = runner.replace('  return parse(await redis.evalsha(', '  fallback();\n  return parse(await redis.evalsha(');
    expect(lintKeyRules(code)).toEqual([['redis-ttl/incr-needs-expire-on-create', 'separateRoundTrip', 12, 25]]);
  });
});
