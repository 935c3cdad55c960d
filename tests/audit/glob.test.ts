// The local Redis glob (audit/glob.ts) against Redis' own `stringmatchlen`: the fix for
// CVE-2022-36021 (Redis 7.0.9, 6.2.11) that keeps pathological patterns from taking exponential
// time, the nesting limit of CVE-2024-31228 (7.2.6, 7.4.1), and the server's answers to
// `SCAN ... MATCH` for a fixed set of patterns and keys.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../audit/glob.js';
import { ROOT } from '../helpers/build.js';
import { needsOwnServer, scanWithPttl, uniquePrefix, useRedis } from '../helpers/redis.js';

const redis = useRedis();

/** Runs `compileGlob(pattern).test(key)` in a child process, killed after `timeoutMs`. */
function matchInChild(pattern: string, key: string, timeoutMs: number): { result: string; timedOut: boolean } {
  const code = `import { compileGlob } from './audit/glob.ts';
process.stdout.write(String(compileGlob(${JSON.stringify(pattern)}).test(${JSON.stringify(key)})));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, timeout: timeoutMs, encoding: 'utf8' });
  return { result: child.stdout, timedOut: child.error !== undefined && (child.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' };
}

/** The keys of the server comparison: the keys of Redis' own tests, sets, escapes, UTF-8. */
const KEYS = [
  'a'.repeat(30),
  `${'a'.repeat(30)}b`,
  'ab'.repeat(12),
  'foo_a',
  'foo_b',
  'foo_c',
  'key_x',
  'a-z',
  'b]',
  '[x]',
  '^x',
  '*',
  '?',
  '\\',
  'h*llo',
  'hello',
  'hällo',
  'x',
];

/** Patterns: Redis' KEYS tests, exponential ones (CVE-2022-36021), sets, escapes, odd ends. */
const PATTERNS = [
  'a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b',
  '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b',
  '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*',
  '*b*b*b*b*b*b*b*b*b*b*b*b*b*a',
  '*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?',
  'foo*',
  'foo_[ab]',
  'foo_[^a]',
  '*[a-c]',
  '*[c-a]',
  '[\\]]',
  'b[]]',
  '[a-',
  '[^',
  '[',
  '\\*',
  '\\',
  'h\\*llo',
  'h?llo',
  'h??llo',
  '*llo',
  '**',
  '*',
  '?',
  'x*',
  'x**',
  'x*?',
];

describe('compileGlob', () => {
  it('answers a pattern that is exponential without the CVE-2022-36021 fix at once (timed out after 20 s before)', () => {
    // 21 stars on 40 bytes: C(40, 20) ~ 1.4e11 attempts for the old port, a few hundred now
    const { result, timedOut } = matchInChild('*a'.repeat(20) + '*b', 'a'.repeat(40), 20_000);
    expect(timedOut).toBe(false);
    expect(result).toBe('false');
  });

  it('gives up past 1000 nested stars, as Redis does since CVE-2024-31228, instead of overflowing the stack', () => {
    // Redis' regression test (tests/unit/keyspace.tcl, "very long nested loops"): KEYS answers nothing
    expect(compileGlob('*?'.repeat(50_000)).test('a'.repeat(50_000))).toBe(false);
    // 1000 nested stars still match
    expect(compileGlob('*?'.repeat(1000)).test('a'.repeat(1000))).toBe(true);
    expect(compileGlob('*?'.repeat(1002)).test('a'.repeat(1002))).toBe(false);
  });

  it.each([
    ['*', '', true],
    ['**', '', false],
    ['', '', true],
    ['?', '', false],
    ['a*', 'a', true],
    ['a**', 'a', true],
    ['a*?', 'a', false],
  ])('%j on the key %j: %s (an empty key matches only a lone * and the empty pattern)', (pattern, key, expected) => {
    expect(compileGlob(pattern).test(key)).toBe(expected);
  });

  it('matches the keys SCAN MATCH finds on the server, pathological patterns included', async () => {
    // Under a private prefix of letters and digits: `P + pattern` matches `P + key` exactly when
    // `pattern` matches a non-empty `key` (the empty key is the test below).
    const r = redis.client();
    const prefix = uniquePrefix('globcve');
    await r.mset(Object.fromEntries(KEYS.map((k) => [`${prefix}${k}`, '1'])));
    for (const pattern of PATTERNS) {
      const server = [...(await scanWithPttl(r, `${prefix}${pattern}`)).keys()].map((k) => k.slice(prefix.length));
      const glob = compileGlob(pattern);
      expect({ pattern, keys: KEYS.filter((k) => glob.test(k)).sort() }).toEqual({ pattern, keys: server.sort() });
    }
    expect(compileGlob('a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b').test(`${'a'.repeat(30)}b`)).toBe(true);
  });

  describe.skipIf(needsOwnServer('stores the empty key in a database of its own'))('on a database of its own', () => {
    it('matches the empty key as KEYS and SCAN do', async () => {
      const r = redis.client({ db: 7 });
      await r.flushdb();
      await r.set('', '1');
      for (const pattern of ['*', '**', '', '?', '*?', '[]']) {
        const [, scanned] = await r.scan('0', 'MATCH', pattern, 'COUNT', 100);
        const keys = await r.keys(pattern);
        expect({ pattern, scan: scanned, keys }).toEqual({ pattern, scan: compileGlob(pattern).test('') ? [''] : [], keys: compileGlob(pattern).test('') ? [''] : [] });
      }
      await r.flushdb();
    });
  });
});
