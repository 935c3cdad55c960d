/**
 * `persistentKeys` applies to a key written by a script loaded with `SCRIPT LOAD` exactly as to the
 * same key written by a client call (`redis-calls/loaded-script-calls.ts`): node-redis
 * `scriptLoad(script)` returns the digest, and the `KEYS[i]` every `evalSha(digest, { keys })` of
 * the file passes a key whose shape matches a declared pattern is not reported. The key arguments
 * are read by the JS rules' own key-shape reading, including a builder reached through a member of
 * an imported object (`redisKeys.USER_USD(id)` of `export const redisKeys = { USER_USD }`), which
 * the JS rules read the same way.
 *
 * Near misses stay reported: another `KEYS[j]` whose key matches nothing; a `KEYS[i]` one
 * `evalSha` passes an undeclared key as; a digest that may run elsewhere (exported, passed to a
 * function, assigned something else, run through a generic command); a script const another call
 * reads too; keys that cannot be read (a spread); the same file without the setting. A work set the
 * script adds to and a worker pops is kept when it is one constant key (the constant-key reading,
 * as for the same SADD in JS), and reported when it is one key per value.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import rule from '../../rules/embedded-lua.js';
import { lintApplication } from '../helpers/lint.js';
import { nodeRedis, persistentSettings, runRule, untypedTester } from './tester.js';

/** A click script (lines 3-6): INCRBY of KEYS[1] at line 4, SADD into KEYS[2] at line 5, neither with a TTL. */
const CLICK = "const CLICK = `\nredis.call('INCRBY', KEYS[1], ARGV[1])\nredis.call('SADD', KEYS[2], ARGV[2])\n`;\n";
/** The digest held by a module `let`, loaded at start-up (lines 7-8). */
const LOADED = 'let sha: string | null = null;\nexport async function load() { sha = await client.scriptLoad(CLICK); }\n';
/** `click(id)` running the digest with `keys` (line 9 on). */
const click = (keys: string, extra = '') =>
  `export async function click(id: string) {\n  if (!sha) throw new Error('not loaded');\n${extra}  return client.evalSha(sha, { keys: ${keys}, arguments: ['1', id] });\n}\n`;
const USER_AND_SEEN = '[`user:${id}:usd`, `seen:${id}`]';
/** An embedded-lua finding at `line`, column 1 (the analyzer's message). */
function at(line: number) {
  return { messageId: 'luaFinding' as const, line, column: 1 };
}

runRule(untypedTester, 'embedded-lua (KEYS of a loaded script, by its evalSha calls)', rule, {
  valid: [
    // every KEYS[i] matches a declared pattern at the one evalSha
    { code: nodeRedis(CLICK + LOADED + click(USER_AND_SEEN)), settings: persistentSettings('user:*', 'seen:*') },
    // the digest held by a const of the function that runs it, node-redis' EVALSHA spelling
    {
      code: nodeRedis(`${CLICK}export async function click(id: string) {\n  const sha = await client.scriptLoad(CLICK);\n  return client.EVALSHA(sha, { keys: ${USER_AND_SEEN}, arguments: ['1', id] });\n}\n`),
      settings: persistentSettings('user:*', 'seen:*'),
    },
    // two evalSha calls, each passing declared keys; `sha === null` and `if (sha)` only test it
    {
      code: nodeRedis(
        `${CLICK}${LOADED}export async function click(id: string, g: string) {\n  if (sha === null) return;\n  if (sha) await client.evalSha(sha, { keys: [\`user:\${g}:usd\`, \`seen:\${g}\`] });\n  return client.evalSha(sha, { keys: ${USER_AND_SEEN} });\n}\n`,
      ),
      settings: persistentSettings('user:*', 'seen:*'),
    },
    // a script written at the load
    {
      code: nodeRedis(`let sha: string | undefined;\nexport async function load() { sha = await client.scriptLoad("redis.call('SET', KEYS[1], ARGV[1])"); }\nexport const save = (id: string, v: string) => client.evalSha(sha!, { keys: [\`user:\${id}\`], arguments: [v] });\n`),
      settings: persistentSettings('user:*'),
    },
    // a work set drained by a worker: one constant key (`dirty:users`) every evalSha passes, kept
    // by the constant-key reading as `client.sAdd(DIRTY_USERS, id)` is (allowConstantKeys)
    { code: nodeRedis(`const DIRTY_USERS = 'dirty:users';\n${CLICK}${LOADED}${click('[`user:${id}:usd`, DIRTY_USERS]')}`), settings: persistentSettings('user:*') },
  ],
  invalid: [
    // a dirty set per shard: one key per value, not one key (line 6: the script starts a line later)
    {
      code: nodeRedis(`const shardOf = (id: string) => id.slice(0, 2);\n${CLICK}${LOADED}${click('[`user:${id}:usd`, `dirty:${shardOf(id)}`]')}`),
      settings: persistentSettings('user:*'),
      errors: [at(6)],
    },
    // KEYS[2] (seen:<id>) matches no pattern: its SADD stays reported
    { code: nodeRedis(CLICK + LOADED + click(USER_AND_SEEN)), settings: persistentSettings('user:*'), errors: [at(5)] },
    // the same file without the setting: both writes
    { code: nodeRedis(CLICK + LOADED + click(USER_AND_SEEN)), errors: [at(4), at(5)] },
    // another evalSha passes KEYS[1] an undeclared key
    {
      code: nodeRedis(`${CLICK}${LOADED}${click(USER_AND_SEEN, '  await client.evalSha(sha, { keys: [`tmp:${id}`, `seen:${id}`] });\n')}`),
      settings: persistentSettings('user:*', 'seen:*'),
      errors: [at(4)],
    },
    // the digest is exported: other modules may run it with other keys
    {
      code: nodeRedis(CLICK + LOADED.replace('let sha', 'export let sha') + click(USER_AND_SEEN)),
      settings: persistentSettings('user:*', 'seen:*'),
      errors: [at(4), at(5)],
    },
    // the digest is passed on
    {
      code: nodeRedis(`${CLICK}${LOADED}declare function runLater(sha: string | null): void;\nrunLater(sha);\n${click(USER_AND_SEEN)}`),
      settings: persistentSettings('user:*', 'seen:*'),
      errors: [at(4), at(5)],
    },
    // the digest is assigned another value too
    {
      code: nodeRedis(`${CLICK}${LOADED}export const reuse = (cached: string) => { sha = cached; };\n${click(USER_AND_SEEN)}`),
      settings: persistentSettings('user:*', 'seen:*'),
      errors: [at(4), at(5)],
    },
    // run through a generic command: not read here
    {
      code: nodeRedis(`${CLICK}${LOADED}export const raw = (id: string) => client.sendCommand(['EVALSHA', sha!, '2', \`tmp:\${id}\`, 'x']);\n${click(USER_AND_SEEN)}`),
      settings: persistentSettings('user:*', 'seen:*'),
      errors: [at(4), at(5)],
    },
    // the script const is loaded a second time, its digest unread
    {
      code: nodeRedis(`${CLICK}${LOADED}export const again = () => client.scriptLoad(CLICK);\n${click(USER_AND_SEEN)}`),
      settings: persistentSettings('user:*', 'seen:*'),
      errors: [at(4), at(5)],
    },
    // keys that cannot be read
    {
      code: nodeRedis(`${CLICK}${LOADED}${click('[...keysOf(id)]')}declare function keysOf(id: string): string[];\n`),
      settings: persistentSettings('user:*', 'seen:*'),
      errors: [at(4), at(5)],
    },
  ],
});

describe('a key builder named by a member of an imported object (`redisKeys.USER_USD(id)`), in JS and in Lua alike', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  const STATE = "const USER_USD = (u: string) => `user:${u}:usd`;\nconst seenKey = (u: string) => `seen:${u}`;\nexport const redisKeys = { USER_USD, SEEN: seenKey };\n";
  /** The loaded click script (INCRBY KEYS[1] at line 5, SADD KEYS[2] at line 6) and plain SETs of the same keys (lines 12-13, column 16). */
  const CLICKER =
    "import { createClient } from 'redis';\nimport { redisKeys } from './state';\nconst client = createClient();\n" +
    CLICK +
    LOADED +
    "export async function click(id: string) {\n  await client.evalSha(sha!, { keys: [redisKeys.USER_USD(id), redisKeys.SEEN(id)], arguments: ['1', id] });\n" +
    "  await client.set(redisKeys.USER_USD(id), '1');\n  await client.set(redisKeys.SEEN(id), '1');\n}\n";
  const judge = (persistentKeys: string[]) =>
    lintApplication(roots, { 'state.ts': STATE, 'clicker.ts': CLICKER }, 'clicker.ts', { 'embedded-lua': {}, 'set-requires-ttl-or-keepttl': {} }, persistentKeys);

  it('the declared user:* key is kept in both; the undeclared seen:* key is reported in both', () => {
    expect(judge(['user:*'])).toEqual([
      ['embedded-lua', 'luaFinding', 6, 1],
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 13, 16],
    ]);
  });
  it('nothing declared: every write reported', () => {
    expect(judge([])).toEqual([
      ['embedded-lua', 'luaFinding', 5, 1],
      ['embedded-lua', 'luaFinding', 6, 1],
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 12, 16],
      ['set-requires-ttl-or-keepttl', 'setWithoutTtl', 13, 16],
    ]);
  });
});
