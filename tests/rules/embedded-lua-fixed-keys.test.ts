/**
 * A script's `KEYS[i]` every call of the script fixes to one key (`redis-calls/script-fixed-keys.ts`):
 * a literal, a `const`, a member of a const object, a key builder called with constants only, a
 * member fixed once per instance, a value of a finite type, read with the key rules' decision
 * (`policy.ts` unexpiredBoundedKey). One key cannot pile up keys: `recommended` does not report a
 * write to it without TTL, as it does not `redis.set(STATE_KEY, v)`.
 *
 * Near misses stay reported: a call passing a key with a run-time part (a template of an id, a
 * parameter, a builder called with a run-time argument, a `let` assigned again), a script whose
 * calls cannot all be found (its `const` passed to a function, or exported by a library or to a
 * module of the application that names it, takes the module whole or re-exports it: an export only
 * a test reads is no call), a key the script
 * builds itself (`KEYS[1] .. ':' .. ARGV[1]`), a key the script or the file gives a TTL somewhere
 * (a path missing it is a bug), a stream appended to without MAXLEN, a defined command outside an
 * application (its callers may be anywhere), and everything in `strict` (`allowConstantKeys: false`).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import rule from '../../rules/embedded-lua.js';
import { lintApplication } from '../helpers/lint.js';
import { ioredis, runRule, untypedTester, upstash } from './tester.js';

/** A compare-and-set of a version key (KEYS[1]) and a state blob (KEYS[2]), both SET without TTL. */
const CAS = "const CAS = `\nlocal current = tonumber(redis.call('GET', KEYS[1]) or '0')\nif current ~= tonumber(ARGV[1]) then return 0 end\nredis.call('SET', KEYS[1], ARGV[2])\nredis.call('SET', KEYS[2], ARGV[3])\nreturn 1\n`;\n";
/** Its two SETs, on lines `first` and `first + 1` (6 and 7 when `CAS` starts on line 3, after the client). */
const casSets = (first: number) => [at(first, 1), at(first + 1, 1)];
const SET1 = "const SET1 = `\nredis.call('SET', KEYS[1], ARGV[1])\n`;\n";
/** An embedded-lua finding at `line`:`column` (the analyzer's message). */
function at(line: number, column: number) {
  return { messageId: 'luaFinding' as const, line, column };
}

runRule(untypedTester, 'embedded-lua (KEYS every call fixes to one key)', rule, {
  valid: [
    // two module constants, the script's only call
    ioredis(`const STATE_KEY = 'containment:state';\nconst VERSION_KEY = 'containment:state:ver';\n${CAS}export const write = (v: number, next: number, s: string) => redis.eval(CAS, 2, VERSION_KEY, STATE_KEY, v, next, s);\n`),
    // upstash's eval(script, keys, args)
    upstash(`const STATE_KEY = 'containment:state';\nconst VERSION_KEY = 'containment:state:ver';\nexport async function write(v: number, s: string) {\n  return redis.eval(CAS, [VERSION_KEY, STATE_KEY], [String(v), s]);\n}\n${CAS}`),
    // members of an `as const` object built by a key builder with constant arguments, String.raw
    ioredis(
      "const key = (name: string) => `mx:${name}`;\nconst STORE_KEYS = { records: key('presence:records'), epoch: key('presence:epoch') } as const;\n" +
        "const STORE = String.raw`\nredis.call('HSET', KEYS[1], ARGV[1], ARGV[2])\nredis.call('SET', KEYS[2], ARGV[3])\n`;\n" +
        'export class Presence {\n  put(id: string, v: string, e: string) { return redis.eval(STORE, 2, STORE_KEYS.records, STORE_KEYS.epoch, id, v, e); }\n  clear(e: string) { return redis.eval(STORE, 2, STORE_KEYS.records, STORE_KEYS.epoch, \'none\', \'\', e); }\n}\n',
    ),
    // written at the call, a literal key
    ioredis(`export const save = (v: string) => redis.eval("redis.call('SET', KEYS[1], ARGV[1])", 1, 'config:current', v);\n`),
    // a member fixed once per instance
    ioredis(`${SET1}export class Cursor {\n  private readonly key = 'audit:cursor';\n  save(v: string) { return redis.eval(SET1, 1, this.key, v); }\n}\n`),
    // a value of a finite type: one key per literal
    ioredis(`${SET1}export const save = (period: 'daily' | 'weekly', v: string) => redis.eval(SET1, 1, \`digest:\${period}\`, v);\n`),
    // a stream appended with MAXLEN: one key, its entries capped
    ioredis(`export const log = (v: string) => redis.eval("redis.call('XADD', KEYS[1], 'MAXLEN', '~', 1000, '*', 'v', ARGV[1])", 1, 'audit:stream', v);\n`),
  ],
  invalid: [
    {
      // one call passes a key of an id
      code: ioredis(`${CAS}export const write = (id: string, s: string) => Promise.all([redis.eval(CAS, 2, 'ver', 'state', 1, 2, s), redis.eval(CAS, 2, \`ver:\${id}\`, \`state:\${id}\`, 1, 2, s)]);\n`),
      errors: casSets(6),
    },
    {
      // a parameter: its callers choose the key
      code: ioredis(`${SET1}export const save = (key: string, v: string) => redis.eval(SET1, 1, key, v);\n`),
      errors: [at(4, 1)],
    },
    {
      // a key builder called with a run-time argument
      code: ioredis(`${SET1}const userKey = (id: string) => \`user:\${id}\`;\nexport const save = (id: string, v: string) => redis.eval(SET1, 1, userKey(id), v);\n`),
      errors: [at(4, 1)],
    },
    {
      // a let assigned again
      code: ioredis(`${SET1}let KEY = 'state';\nexport const point = (k: string) => { KEY = k; };\nexport const save = (v: string) => redis.eval(SET1, 1, KEY, v);\n`),
      errors: [at(4, 1)],
    },
    {
      // the script's const is exported: it may be run elsewhere, with other keys
      code: ioredis(`export ${SET1}export const save = (v: string) => redis.eval(SET1, 1, 'state', v);\n`),
      errors: [at(4, 1)],
    },
    {
      // the script's const is put in an exported array: its calls are not all here
      code: ioredis(`${SET1}export const scripts = [SET1];\nexport const save = (v: string) => redis.eval(SET1, 1, 'state', v);\n`),
      errors: [at(4, 1)],
    },
    {
      // a key the script builds from KEYS[1]: one per ARGV[1]
      code: ioredis(`export const save = (id: string, v: string) => redis.eval("redis.call('SET', KEYS[1] .. ':' .. ARGV[1], ARGV[2])", 1, 'user', id, v);\n`),
      errors: [at(3, 60)],
    },
    {
      // the script expires KEYS[1], but not on the early return: the key is meant to expire
      code: ioredis(`export const save = (v: string, skip: string) => redis.eval("redis.call('SET', KEYS[1], ARGV[1]) if ARGV[2] == '1' then return 0 end redis.call('EXPIRE', KEYS[1], 60)", 1, 'state', v, skip);\n`),
      errors: [at(3, 62)],
    },
    {
      // the file gives the key a TTL elsewhere
      code: ioredis(`${SET1}export const save = (v: string) => redis.eval(SET1, 1, 'state', v);\nexport const touch = () => redis.expire('state', 60);\n`),
      errors: [at(4, 1)],
    },
    {
      // a stream nothing trims: one key, but an entry per call for ever
      code: ioredis(`export const log = (v: string) => redis.eval("redis.call('XADD', KEYS[1], '*', 'v', ARGV[1])", 1, 'audit:stream', v);\n`),
      errors: [at(3, 47)],
    },
    {
      // a defined command outside an application: its callers may be anywhere
      code: ioredis(`redis.defineCommand('saveState', { numberOfKeys: 1, lua: "redis.call('SET', KEYS[1], ARGV[1])" });\nexport const save = (v: string) => (redis as any).saveState('state', v);\n`),
      errors: [at(3, 59)],
    },
    {
      // strict reports it
      code: ioredis(`const STATE_KEY = 'containment:state';\nconst VERSION_KEY = 'containment:state:ver';\n${CAS}export const write = (v: number, next: number, s: string) => redis.eval(CAS, 2, VERSION_KEY, STATE_KEY, v, next, s);\n`),
      options: [{ allowConstantKeys: false }],
      errors: casSets(8),
    },
  ],
});

describe('a defined command of an application, by its calls in every module', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  /** A client exported with a command whose script SETs KEYS[1] without TTL (reported at line 3, column 59). */
  const CLIENT = "import Redis from 'ioredis';\nexport const redis = new Redis();\nredis.defineCommand('saveState', { numberOfKeys: 1, lua: \"redis.call('SET', KEYS[1], ARGV[1])\" });\n";
  const SET = ['embedded-lua', 'luaFinding', 3, 59];
  const fixed = "import { redis } from './client';\nconst STATE = { current: 'app:state' } as const;\nexport const save = (v: string) => (redis as any).saveState(STATE.current, v);\n";
  const judge = (files: Record<string, string>) => lintApplication(roots, { 'client.ts': CLIENT, 'state.ts': fixed, ...files }, 'client.ts', { 'embedded-lua': {} }, []);

  it('every call, here and elsewhere, passes one constant key: not reported', () => {
    expect(judge({})).toEqual([]);
  });
  it('a call in another module with a key of an id keeps the finding', () => {
    const perUser = "import { redis } from './client';\nexport const save = (id: string, v: string) => (redis as any).saveState(`state:${id}`, v);\n";
    expect(judge({ 'user.ts': perUser })).toEqual([SET]);
  });
});

describe('an exported script const of an application, by the modules that import it', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  /** A module exporting a script that SETs KEYS[1] (line 4, column 1) and its one eval, with a constant key. */
  const ADMISSION =
    "import Redis from 'ioredis';\nconst redis = new Redis();\nexport const ACQUIRE = `\nredis.call('SET', KEYS[1], ARGV[1])\n`;\nconst STATE_KEY = 'app:admission:state';\nexport const acquire = (v: string) => redis.eval(ACQUIRE, 1, STATE_KEY, v);\n";
  const SET = ['embedded-lua', 'luaFinding', 4, 1];
  const judge = (files: Record<string, string>, manifest?: string) =>
    lintApplication(roots, { 'src/admission.ts': ADMISSION, ...files }, 'src/admission.ts', { 'embedded-lua': {} }, [], manifest);

  it('imported only for its other exports, and read by a test: the module eval is the only call, not reported', () => {
    const client = "import { acquire } from './admission';\nexport const run = () => acquire('x');\n";
    const test = "import { ACQUIRE } from '../src/admission';\nexport const t = () => ACQUIRE.includes('SET');\n";
    expect(judge({ 'src/client.ts': client, 'tests/admission.test.ts': test })).toEqual([]);
  });

  it('a module that imports the script, takes the module whole or re-exports it keeps the finding', () => {
    const named = "import Redis from 'ioredis';\nimport { ACQUIRE } from './admission';\nexport const other = (id: string) => new Redis().eval(ACQUIRE, 1, `state:${id}`, 'v');\n";
    expect(judge({ 'src/other.ts': named })).toEqual([SET]);
    expect(judge({ 'src/all.ts': "import * as admission from './admission';\nexport const all = admission;\n" })).toEqual([SET]);
    expect(judge({ 'src/index.ts': "export * from './admission';\n" })).toEqual([SET]);
  });

  it('a library: its users may import the script, reported', () => {
    expect(judge({}, JSON.stringify({ name: 'lib', version: '1.0.0', main: 'src/admission.js' }))).toEqual([SET]);
  });
});
