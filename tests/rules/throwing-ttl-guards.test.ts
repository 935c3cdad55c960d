/**
 * An argument check that throws on a disjunction, read as the TTL guard it holds (round 37, from
 * the kind's definition): past `if (!key || ttl < 0) throw ...` or `if (!key || !ttl) throw ...`
 * every test it joins is false, so a caller of the application's TTL-arms helper
 * (`redis-calls/option-arms.ts`) whose TTL makes one of the TTL's tests true writes nothing: not
 * reported at that caller. The reading is option-arms' own guard (a check that always throws
 * before the arms, `alwaysThrows`), split into its disjuncts; the tests of other parameters
 * (`!key`) choose no arm. Near misses, still reported: `if (!key) throw` alone (no TTL test), a
 * conjunction (`!key && ttl < 0`: it throws only when both hold), a check that only logs, and a
 * caller whose TTL passes the guard into the arm without expiry (`0` past `ttl < 0`).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { lintApplication } from '../helpers/lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const MANIFEST = '{ "name": "app", "private": true, "dependencies": { "ioredis": "^5.3.2" } }';
const SET = 'set-requires-ttl-or-keepttl';

/** The helper: an argument check (`check`, the statement), then EX when the TTL is positive, a plain SET else. */
const helper = (check: string, params = 'ttl = 0', arms = "  if (ttl > 0) return client.set(key, value, 'EX', ttl);\n  return client.set(key, value);\n") =>
  `import Redis from 'ioredis';\nconst client = new Redis();\nexport async function set(key: string, value: string, ${params}) {\n  ${check}\n${arms}}\n`;
/** A caller: line 3 passes `ttl` (or nothing when `ttl` is empty). */
const caller = (ttl: string) => `import { set } from './cache';\nexport async function save(id: string, v: string) {\n  await set(\`profile:\${id}\`, v${ttl === '' ? '' : `, ${ttl}`});\n}\n`;
const lint = (cache: string, use: string) => lintApplication(roots, { 'src/cache.ts': cache, 'src/use.ts': use }, 'src/use.ts', { [SET]: undefined }, [], MANIFEST);

describe('a throwing check joining a test of the key and one of the TTL', () => {
  it('`!key || ttl < 0`: a caller passing -1 makes the helper throw, nothing written', () => {
    expect(lint(helper("if (!key || ttl < 0) throw new Error('key and a TTL >= 0 are required');"), caller('-1'))).toEqual([]);
    expect(lint(helper("if (!key || ttl < 0) {\n    throw new Error('bad arguments');\n  }"), caller('-1'))).toEqual([]);
  });
  it('`!key || !ttl` before `if (ttl)` arms: a caller leaving the TTL out (or passing 0) throws, nothing written', () => {
    const arms = "  if (ttl) return client.set(key, value, 'EX', ttl);\n  return client.set(key, value);\n";
    const cache = helper("if (!key || !ttl) throw new Error('key and ttl are required');", 'ttl?: number', arms);
    expect(lint(cache, caller(''))).toEqual([]);
    expect(lint(cache, caller('0'))).toEqual([]);
    expect(lint(cache, caller('60'))).toEqual([]);
  });
  it('three tests (`!key || !value || ttl <= 0`): the TTL test still guards', () => {
    expect(lint(helper("if (!key || !value || ttl <= 0) throw new Error('bad arguments');"), caller('0'))).toEqual([]);
  });
  it('near miss: a TTL the guard lets through into the arm without expiry (0 past `ttl < 0`) stays reported', () => {
    expect(lint(helper("if (!key || ttl < 0) throw new Error('bad arguments');"), caller('0'))).toEqual([[SET, 'setWithoutTtl', 3, 9]]);
  });
  it('near miss: `if (!key) throw` alone tests no TTL, -1 goes to the plain SET', () => {
    expect(lint(helper("if (!key) throw new Error('key required');"), caller('-1'))).toEqual([[SET, 'setWithoutTtl', 3, 9]]);
  });
  it('near miss: a conjunction (`!key && ttl < 0`) throws only when both hold: -1 with a key is written without expiry', () => {
    expect(lint(helper("if (!key && ttl < 0) throw new Error('bad arguments');"), caller('-1'))).toEqual([[SET, 'setWithoutTtl', 3, 9]]);
  });
  it('near miss: a check that only logs lets the write go on', () => {
    expect(lint(helper("if (!key || ttl < 0) console.warn('bad arguments');"), caller('-1'))).toEqual([[SET, 'setWithoutTtl', 3, 9]]);
  });
});
