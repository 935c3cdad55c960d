/**
 * A script defined as a command (ioredis `defineCommand(name, { numberOfKeys, lua })`) and called
 * in the same file (`redis.name(k1, ..., args)`): a `KEYS[i]` every call passes a persistent key
 * as (its shape matches `persistentKeys`, directly or through a key helper) is persistent in the
 * script too (`redis-calls/defined-command-callers.ts`). Near misses stay reported: one call
 * passing another key, no call in the file, a spread key list, and the other `KEYS` of the script.
 */
import rule from '../../rules/embedded-lua.js';
import { runRule, untypedTester } from './tester.js';

const settings = { 'redis-ttl': { persistentKeys: ['meter:*:{*}'] } };
const head = "import Redis from 'ioredis';\nconst redis = new Redis();\nconst dirtyKey = (tag: string) => `meter:dirty:{${tag}}`;\n";
const define = (keys: number, lua: string) => `redis.defineCommand('drain', { numberOfKeys: ${keys}, lua: "${lua}" });\n`;
const sadd1 = "redis.call('SADD', KEYS[1], ARGV[1])";
const leak = (line: number, column: number, key: string, end: number) => ({
  messageId: 'luaFinding' as const,
  line,
  column,
  data: {
    ruleId: 'write-path-needs-ttl',
    message: `SADD on ${key} can create it without a TTL, and the script's end (line ${line}, column ${end}) precedes any expiry, so it never expires. Call PEXPIRE ${key} <ms> after the write on every path.`,
  },
});

runRule(untypedTester, 'embedded-lua (KEYS of a defined command, by its calls in the file)', rule, {
  valid: [
    // through a key helper, and spelled at the call
    { code: `${head}${define(1, sadd1)}await redis.drain(dirtyKey('m1'), 'c');\nawait redis.drain(\`meter:dirty:{\${'m2'}}\`, 'd');`, settings },
    // on another name of the client, with more arguments after the keys
    { code: `${head}${define(1, sadd1)}class Store { constructor(private r: Redis) {}\n  drain(tag: string) { return this.r.drain(dirtyKey(tag), 'x', 'y'); } }`, settings },
  ],
  invalid: [
    {
      // one call passes a key no pattern names
      code: `${head}${define(1, sadd1)}await redis.drain(dirtyKey('m1'), 'c');\nawait redis.drain(\`queue:\${'m2'}\`, 'd');`,
      settings,
      errors: [leak(4, 55, 'KEYS[1]', 90)],
    },
    {
      // the file never calls it: nothing says which key KEYS[1] is
      code: `${head}${define(1, sadd1)}`,
      settings,
      errors: [leak(4, 55, 'KEYS[1]', 90)],
    },
    {
      // the keys are spread
      code: `${head}${define(1, sadd1)}const keys = [dirtyKey('m1')];\nawait redis.drain(...keys, 'c');`,
      settings,
      errors: [leak(4, 55, 'KEYS[1]', 90)],
    },
    {
      // KEYS[1] is persistent, KEYS[2] is not
      code: `${head}${define(2, `${sadd1} redis.call('SADD', KEYS[2], ARGV[1])`)}await redis.drain(dirtyKey('m1'), \`seen:\${'m1'}\`, 'c');`,
      settings,
      errors: [leak(4, 92, 'KEYS[2]', 127)],
    },
  ],
});
