// What Redis itself refuses, checked on a real redis-server: Lua 5.1's nesting limit counted with
// parentheses (EVAL), and the function libraries FUNCTION LOAD refuses, each with the analyzer's
// verdict and message next to the server's error.
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';
import { needsOwnServer, useRedis } from '../helpers/redis.js';

const server = useRedis();
let client: Redis | undefined;
const redis = (): Redis => (client ??= server.client());

/** The error EVAL gives for `source`, or undefined when Redis compiles and runs it. */
async function evalError(source: string): Promise<string | undefined> {
  try {
    await redis().eval(source, 0);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The error FUNCTION LOAD REPLACE gives for `source`, or undefined when Redis loads it. */
async function loadError(source: string): Promise<string | undefined> {
  try {
    await redis().call('FUNCTION', 'LOAD', 'REPLACE', source);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const fatals = (source: string) => analyzeLua(source).filter((f) => f.fatal).map((f) => [f.line, f.column, f.message]);

const TOO_DEEP =
  'Parsing error: the script nests blocks, expressions and parentheses deeper than Redis\' Lua 5.1 parser allows (200 levels): Redis refuses it with "chunk has too many syntax levels".';

describe('parentheses count towards Lua 5.1\'s 200 syntax levels', () => {
  const parens = (n: number, inner = '1') => `${'('.repeat(n)}${inner}${')'.repeat(n)}`;
  const cases: Array<[string, string, [number, number] | undefined]> = [
    ['return + 198 (', `return ${parens(198)}`, undefined],
    ['return + 199 (', `return ${parens(199)}`, [1, 207]],
    ['local + 199 (', `local x = ${parens(199)}\nreturn x`, [1, 210]],
    ['spaces between', `return ${'( '.repeat(199)}1${' )'.repeat(199)}`, [1, 406]],
    // the call's own parentheses are not a level: f((x)) is one parenthesised argument
    ['call argument, 197 (', `local function f(x) return x end\nreturn f(${parens(197)})`, undefined],
    ['call argument, 198 (', `local function f(x) return x end\nreturn f(${parens(198)})`, [2, 208]],
    ['100 ifs + 98 (', `${'if ARGV then '.repeat(100)}return ${parens(98)}${' end'.repeat(100)}`, undefined],
    ['100 ifs + 99 (', `${'if ARGV then '.repeat(100)}return ${parens(99)}${' end'.repeat(100)}`, [1, 1407]],
    ['operand, 197 (', `return 1 + ${parens(197)}`, undefined],
    ['operand, 198 (', `return 1 + ${parens(198)}`, [1, 210]],
  ];
  it.each(cases)('%s: the analyzer and redis-server agree', async (_name, source, at) => {
    const error = await evalError(source);
    if (at === undefined) {
      expect(error).toBeUndefined();
      expect(fatals(source)).toEqual([]);
    } else {
      expect(error).toMatch(/chunk has too many syntax levels$/);
      expect(fatals(source)).toEqual([[...at, TOO_DEEP]]);
    }
  });
});

describe.skipIf(needsOwnServer('tests/lua-lint/redis-refuses.test.ts loads function libraries (FUNCTION LOAD)'))('function libraries FUNCTION LOAD refuses', () => {
  const register = "redis.register_function('f', function(keys) return redis.call('SET', keys[1], 'v', 'PX', 1000) end)";
  it('loads a valid library, and the analyzer has nothing to say about it', async () => {
    const source = `#!lua name=okay\nredis.log(redis.LOG_NOTICE, redis.REDIS_VERSION)\n${register}\n`;
    expect(await loadError(source)).toBeUndefined();
    expect(analyzeLua(source)).toEqual([]);
  });

  it('refuses redis.call outside a function body', async () => {
    const source = `#!lua name=top\nredis.call('SET', 'k', 'v')\n${register}\n`;
    expect(await loadError(source)).toBe("ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global variable 'call'");
    expect(analyzeLua(source).map((f) => [f.ruleId, f.fatal, f.line, f.column, f.endLine, f.endColumn, f.message])).toEqual([
      [
        null,
        true,
        2,
        1,
        2,
        11,
        'FUNCTION LOAD refuses this library: redis.call runs while the library loads (outside every function body), ' +
          "where redis has only register_function, log and REDIS_VERSION (Redis: \"Script attempted to access nonexistent global variable 'call'\"). " +
          'Move it into a registered function.',
      ],
      // the rules still run: the write itself leaks and its key is not from KEYS
      [
        'key-must-come-from-keys',
        undefined,
        2,
        1,
        2,
        28,
        "The key of SET ('k') is a literal, not from KEYS: Redis Cluster routes a script by its KEYS, so this key may be on another node (CROSSSLOT). " +
          'Pass it in KEYS, with a {hash tag} shared with the other keys.',
      ],
      [
        'write-path-needs-ttl',
        undefined,
        2,
        1,
        2,
        28,
        "SET on 'k' creates it without a TTL or removes its TTL, and the script's end (line 3, column 99) leaves it so: the key never expires. " +
          'Set the expiry in the same command: SET key value PX <ms>.',
      ],
    ]);
  });

  it('refuses a library without a name', async () => {
    const source = `#!lua\n${register}\n`;
    expect(await loadError(source)).toBe('ERR Library name was not given');
    expect(fatals(source)).toEqual([
      [1, 1, 'FUNCTION LOAD refuses this library: its `#!lua` first line has no name (Redis: "Library name was not given"). Write `#!lua name=<library>`.'],
    ]);
  });

  it('refuses an option other than name= on the first line', async () => {
    const source = `#!lua name=opt flags=no-writes\n${register}\n`;
    expect(await loadError(source)).toBe('ERR Invalid metadata value given: flags=no-writes');
    expect(fatals(source)).toEqual([
      [
        1,
        1,
        'FUNCTION LOAD refuses this library: `flags=no-writes` is not an option of its first line, which takes only name= (Redis: "Invalid metadata value given: flags=no-writes"). ' +
          "Remove it; a function's flags go to redis.register_function{..., flags={...}}.",
      ],
    ]);
  });

  it('refuses a library that registers no function', async () => {
    const source = '#!lua name=empty\nlocal x = 1\nreturn x\n';
    expect(await loadError(source)).toBe('ERR No functions registered');
    expect(fatals(source)).toEqual([
      [
        1,
        1,
        'FUNCTION LOAD refuses this library: it never calls redis.register_function (Redis: "No functions registered"). Register each function with redis.register_function(\'name\', callback).',
      ],
    ]);
  });

  it('leaves an EVAL script with a `#!lua flags=` shebang alone', async () => {
    const source = "#!lua flags=no-writes\nreturn 'ok'\n";
    expect(await evalError(source)).toBeUndefined();
    expect(analyzeLua(source)).toEqual([]);
  });
});

describe('Lua 5.4 attributes', () => {
  it('get the "Redis runs Lua 5.1" hint, and redis-server refuses them', async () => {
    const source = 'local x <const> = 5\nreturn x';
    expect(await evalError(source)).toBe("ERR Error compiling script (new function): user_script:1: unexpected symbol near '<'");
    expect(fatals(source)).toEqual([
      [
        1,
        9,
        "Parsing error: unexpected symbol '<' near 'const' (Redis runs Lua 5.1: goto and labels, bitwise operators, integer division `//`, `<const>` and `<close>` locals and other Lua 5.2+ syntax are errors there)",
      ],
    ]);
    expect(fatals('local a, f <close> = 1, io.open("x")')[0]?.[2]).toMatch(/Redis runs Lua 5\.1/);
    // a comparison is not an attribute
    expect(fatals('local x = 1 < const')[0]?.[2] ?? '').not.toMatch(/Redis runs Lua 5\.1/);
  });
});

describe('a script whose first token is no Lua token', () => {
  // luaparse reads the token before the first one here: left over from the previous parse, or
  // missing (an internal error); the message must not depend on what was parsed before
  const cases: Array<[string, string, [number, number], string]> = [
    ['an @', '@x = 1', [1, 1], '@'],
    ['a backtick after comments', '-- header\n--[[ long\n comment ]]\n  `x`', [4, 3], '`'],
    ['a dollar', '$', [1, 1], '$'],
    ['a non-ASCII letter', 'é = 1', [1, 1], 'é'],
  ];
  it.each(cases)('%s: Redis refuses it, and the analyzer says where and why', async (_name, source, [line, column], char) => {
    expect(await evalError(source)).toMatch(/unexpected symbol near/);
    analyzeLua("return redis.call('GET', KEYS[1])"); // a parse before, whose last token luaparse keeps
    expect(fatals(source)).toEqual([[line, column, `Parsing error: unexpected symbol near '${char}'`]]);
  });
  it('leaves a valid first token to the parser', () => {
    expect(fatals('-- c\nreturn 1')).toEqual([]);
    expect(fatals('[[x]]')).toEqual([[1, 1, expect.stringContaining('Parsing error') as unknown as string]]);
  });
});
