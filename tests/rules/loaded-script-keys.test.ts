/**
 * A script loaded once and run by its SHA (`redis-calls/loaded-script-calls.ts`): `sha = await
 * client.scriptLoad(SCRIPT)` in a variable of the module, then `client.evalSha(sha, { keys })`.
 * Each EVALSHA of that variable is a call of the script, so a `KEYS[i]` every EVALSHA fixes to one
 * constant key (the global leaderboard `lb:players`, the `dirty:users` work set) is one key that
 * cannot pile up keys, as `redis.eval(SCRIPT, 1, CONST)` already was (round 34, one fixed key:
 * Egosdev/joyforge-clicker).
 *
 * Near-misses stay reported: an EVALSHA passing a per-user key, a SHA variable also assigned the
 * SHA of another script or handed to a function or exported (its calls are then unknown), an
 * EVALSHA whose keys cannot be read, and a key the script expires. ioredis `script('LOAD', S)` is
 * not linked to its EVALSHAs yet (its writes stay reported; docs/rules/embedded-lua.md).
 */
import rule from '../../rules/embedded-lua.js';
import { nodeRedis, runRule, untypedTester } from './tester.js';

const SCRIPT = "const SCRIPT = `\nredis.call('ZINCRBY', KEYS[1], ARGV[2], ARGV[1])\nredis.call('SADD', KEYS[2], ARGV[1])\n`;\n";
const LB = "const LB_PLAYERS = 'lb:players';\nconst DIRTY_USERS = 'dirty:users';\n";
function at(line: number, column: number) {
  return { messageId: 'luaFinding' as const, line, column };
}

runRule(untypedTester, 'embedded-lua (KEYS of a script run by its SHA)', rule, {
  valid: [
    // node-redis: loaded into a module `let`, run by evalSha with constant keys, tested before
    nodeRedis(
      `${LB}${SCRIPT}let sha: string | null = null;\nexport async function load() { sha = await client.scriptLoad(SCRIPT); }\n` +
        "export async function click(userId: string, gain: number) {\n  if (!sha) throw new Error('not loaded');\n  return client.evalSha(sha, { keys: [LB_PLAYERS, DIRTY_USERS], arguments: [userId, String(gain)] });\n}\n",
    ),
  ],
  invalid: [
    {
      // one EVALSHA passes a per-user key for KEYS[2]
      code: nodeRedis(
        `${LB}${SCRIPT}let sha: string | null = null;\nexport async function load() { sha = await client.scriptLoad(SCRIPT); }\n` +
          'export async function click(userId: string) {\n  await client.evalSha(sha!, { keys: [LB_PLAYERS, DIRTY_USERS], arguments: [userId, "1"] });\n  return client.evalSha(sha!, { keys: [LB_PLAYERS, `dirty:${userId}`], arguments: [userId, "1"] });\n}\n',
      ),
      errors: [at(7, 1)],
    },
    {
      // the variable also holds the SHA of another script: which one runs is not known
      code: nodeRedis(
        `${LB}${SCRIPT}let sha: string | null = null;\nexport async function load(other: string) { sha = await client.scriptLoad(SCRIPT); sha = await client.scriptLoad(other); }\n` +
          'export const click = (userId: string) => client.evalSha(sha!, { keys: [LB_PLAYERS, DIRTY_USERS], arguments: [userId, "1"] });\n',
      ),
      errors: [at(6, 1), at(7, 1)],
    },
    {
      // the SHA handed to a function: its calls are elsewhere
      code: nodeRedis(
        `${LB}${SCRIPT}let sha: string | null = null;\nexport async function load(run: (s: string | null) => void) { sha = await client.scriptLoad(SCRIPT); run(sha); }\n` +
          'export const click = (userId: string) => client.evalSha(sha!, { keys: [LB_PLAYERS, DIRTY_USERS], arguments: [userId, "1"] });\n',
      ),
      errors: [at(6, 1), at(7, 1)],
    },
    {
      // exported: other modules may run it with other keys
      code: nodeRedis(
        `${LB}${SCRIPT}export let sha: string | null = null;\nexport async function load() { sha = await client.scriptLoad(SCRIPT); }\n` +
          'export const click = (userId: string) => client.evalSha(sha!, { keys: [LB_PLAYERS, DIRTY_USERS], arguments: [userId, "1"] });\n',
      ),
      errors: [at(6, 1), at(7, 1)],
    },
    {
      // keys that cannot be read (a spread)
      code: nodeRedis(
        `${LB}${SCRIPT}let sha: string | null = null;\nexport async function load() { sha = await client.scriptLoad(SCRIPT); }\n` +
          'export const click = (keys: string[], userId: string) => client.evalSha(sha!, { keys: [...keys], arguments: [userId, "1"] });\n',
      ),
      errors: [at(6, 1), at(7, 1)],
    },
  ],
});
