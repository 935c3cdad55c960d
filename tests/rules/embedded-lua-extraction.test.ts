/**
 * Extraction of embedded scripts (issue 28, item 4): a script is analysed wherever Redis receives
 * it, or reported once as `unanalyzable-command` when it is built at run time, never dropped:
 *
 * - joins of any number of literals (`'...' + '...' + ...`), in linear time;
 * - the generic command forms whose command words are EVAL / EVAL_RO, SCRIPT LOAD or FUNCTION LOAD
 *   (node-redis `sendCommand([...])`, ioredis `call('EVAL', ...)`, `script('LOAD', ...)`), and the
 *   load methods (`scriptLoad`, `functionLoad`); EVALSHA and FCALL carry no script;
 * - string methods applied to a constant (`replaceAll`, `replace`, `trim`, `trimStart`, `trimEnd`)
 *   when their arguments are constants, positions mapped back through them;
 * - anything else made from a string of the file: one finding saying how it is built.
 */
import rule from '../../rules/embedded-lua.js';
import { ioredis, nodeRedis, runRule, typedTester, untypedTester } from './tester.js';

const leaky = `"redis.call('SET', KEYS[1], ARGV[1])"`;
/** The SET of {@link leaky} starts at this column of a line holding `prefix` then the literal. */
const setAt = (prefix: string) => prefix.length + 2;
/** A finding of the script's Lua, by place (the Lua messages are lua-lint's, tested there). */
const at = (line: number, column: number, endColumn: number, endLine = line) => ({ messageId: 'luaFinding' as const, line, column, endLine, endColumn });
/** lua-lint's wording of a script built at run time (lua-lint/messages.ts). */
const built = (via: string, how: string) => ({
  ruleId: 'unanalyzable-command',
  message: `The script passed to ${via} is built at run time (${how}), so lua-lint checks none of its TTLs. Keep the script a constant string and pass values in KEYS and ARGV: then it is checked, and Redis caches one script.`,
});

/** `n` literals joined with `+`, one per line from line 4, the SET in the last but one. */
function longJoin(n: number): string {
  const lines = [];
  for (let i = 1; i <= n - 2; i++) lines.push(`  'local v${i} = ${i} ' +`);
  lines.push(`  "redis.call('SET', KEYS[1], ARGV[1]) " +`);
  lines.push(`  'return 1';`);
  return ioredis(`const SCRIPT =\n${lines.join('\n')}\nredis.eval(SCRIPT, 1, k);`);
}

for (const tester of [untypedTester, typedTester]) {
  runRule(tester, 'embedded-lua', rule, {
    valid: [
      // nothing to analyse: the script is loaded elsewhere
      nodeRedis("client.sendCommand(['EVALSHA', sha, '1', k]);"),
      nodeRedis("client.sendCommand(['FCALL', 'hit', '1', k]);"),
      ioredis("redis.call('EVALSHA', sha, 1, k);"),
      // a script that comes from elsewhere is the business of the code that builds it
      ioredis('export const run = (script: string) => redis.eval(script, 1, k);'),
      ioredis("import { readFileSync } from 'node:fs';\nredis.eval(readFileSync('limiter.lua', 'utf8'), 1, k);"),
      nodeRedis("export const load = (lib: string) => client.sendCommand(['FUNCTION', 'LOAD', lib]);"),
      // KEYS read from the argv: a persistent key of the code is persistent in the script
      { code: nodeRedis(`client.sendCommand(['EVAL', ${leaky}, '1', 'config:site', v]);`), settings: { 'redis-ttl': { persistentKeys: ['config:*'] } } },
      { code: ioredis(`redis.call('EVAL', ${leaky}, 1, 'config:site', v);`), settings: { 'redis-ttl': { persistentKeys: ['config:*'] } } },
      // a constant made by a string method, with its expiry
      ioredis("redis.eval(`redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], {{TTL}})`.replaceAll('{{TTL}}', '60'), 1, k);"),
      // unanalyzable-command off: the script built at run time is not reported
      { code: ioredis("export const f = (ttl: number) => redis.eval(`redis.call('SET', KEYS[1], 'v', 'EX', ${ttl})`, 1, k);"), options: [{ rules: { 'unanalyzable-command': 'off' } }] },
    ],
    invalid: [
      // joins of any length: 14, 30 and 400 literals, the finding in the last but one
      { code: longJoin(14), errors: [at(16, 4, 39)] },
      { code: longJoin(30), errors: [at(32, 4, 39)] },
      { code: longJoin(400), errors: [at(402, 4, 39)] },
      // the generic forms: node-redis sendCommand, ioredis call / script, the load methods
      // `prefix` + the leaky script + `suffix` on line 3: the SET is found right after the prefix
      ...([
        [nodeRedis, "client.sendCommand(['EVAL', ", ", '1', k, v]);"],
        [nodeRedis, "client.sendCommand(['eval_ro', ", ", '0']);"],
        [nodeRedis, "client.sendCommand(['SCRIPT', 'LOAD', ", ']);'],
        [nodeRedis, "const ARGV_ = ['SCRIPT', 'LOAD', ", '];\nclient.sendCommand(ARGV_);'],
        [nodeRedis, "client.multi().addCommand(['EVAL', ", ", '1', k]).exec();"],
        [ioredis, "redis.call('EVAL', ", ', 1, k, v);'],
        [ioredis, "redis.script('LOAD', ", ');'],
        [nodeRedis, 'client.scriptLoad(', ');'],
      ] as const).map(([wrap, prefix, suffix]) => ({ code: wrap(`${prefix}${leaky}${suffix}`), errors: [at(3, setAt(prefix), setAt(prefix) + 35)] })),
      {
        // a function library: FUNCTION LOAD REPLACE and functionLoad
        code: nodeRedis(
          "const LIB = `#!lua name=lib\nredis.register_function('hit', function(keys) return redis.call('INCR', keys[1]) end)`;\nclient.sendCommand(['FUNCTION', 'LOAD', 'REPLACE', LIB]);\nclient.functionLoad(LIB, { REPLACE: true });",
        ),
        errors: [at(4, 54, 81)],
      },
      // string methods on a constant: positions map back through them (line, column, end column)
      ...([
        [ioredis("const S = `\n  redis.call('INCR', KEYS[1])\n  redis.call('EXPIRE', KEYS[1], {{TTL}})\n`.replaceAll('{{TTL}}', '0');\nredis.eval(S, 1, k);"), 5, 33, 40],
        [ioredis("redis.eval(\"redis.call('SADD', KEYS[1], 'x') redis.call('EXPIRE', KEYS[1], TTL)\".replace(/TTL/g, '-1'), 1, k);"), 3, 76, 79],
        [ioredis("redis.eval(\"redis.call('PEXPIRE', KEYS[1], MS) redis.call('SADD', KEYS[1], 'x')\".replace('MS', '$&0'), 1, k);"), 3, 48, 80],
        [ioredis("redis.eval(\"   redis.call('HSET', KEYS[1], 'f', 'v')   \".trim(), 1, k);"), 3, 16, 53],
        [ioredis("redis.eval(\"redis.call('HSET', KEYS[1], 'f', 'v')   \".trimEnd().trimStart(), 1, k);"), 3, 13, 50],
      ] as const).map(([code, line, column, endColumn]) => ({ code, errors: [at(line, column, endColumn)] })),
      // built at run time: one finding at the expression, saying how
      {
        code: ioredis("export const f = (ttl: number) => redis.eval(\"redis.call('SET', KEYS[1], 'v', 'EX', \" + ttl + ')', 1, k);"),
        errors: [{ messageId: 'luaFinding', data: built('redis.eval(...)', 'a concatenation with `ttl`'), line: 3, column: 46, endLine: 3, endColumn: 98 }],
      },
      {
        code: ioredis("export const f = (ttl: number) => redis.eval(`redis.call('SET', KEYS[1], 'v', 'EX', ${ttl})`, 1, k);"),
        errors: [{ messageId: 'luaFinding', data: built('redis.eval(...)', 'a template literal with `${ttl}`'), line: 3, column: 46, endLine: 3, endColumn: 93 }],
      },
      {
        code: nodeRedis("const S = \"redis.call('SET', KEYS[1], 'v', 'EX', TTL)\";\nexport const f = (ttl: string) => client.sendCommand(['EVAL', S.replace('TTL', ttl), '1', k]);"),
        errors: [{ messageId: 'luaFinding', data: built('client.sendCommand(...)', "`S.replace('TTL', ttl)`, which lua-lint cannot evaluate"), line: 4, column: 63, endLine: 4, endColumn: 84 }],
      },
      {
        // the same expression passed twice is reported once
        code: ioredis("const S = 'return 1';\nexport const f = (x: string) => { const s = S + x; redis.eval(s, 0); redis.eval(s, 0); };"),
        errors: [{ messageId: 'luaFinding', data: built('redis.eval(...)', 'a concatenation with `x`'), line: 4, column: 45, endLine: 4, endColumn: 50 }],
      },
    ],
  });
}
