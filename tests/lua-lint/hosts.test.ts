// lua-lint on the Redis scripts embedded in Go, Python, Ruby, PHP, Java, C# and JS/TS files:
// the fixtures under tests/fixtures/hosts/ (one small realistic file per language and client),
// the cooking of each language's literals, StackExchange.Redis parameters, scripts built at run
// time, every output format through the CLI, and the lazy loading of the parsers.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from '../../lua-lint/cli/main.js';
import { extractHostScripts, hostLanguageOf, lintHostSource } from '../../lua-lint/hosts/index.js';
import { expectedFindings } from '../helpers/expectations.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = path.join(repoRoot, 'tests/fixtures/hosts');

type Place = [file: string, line: number, column: number, endLine: number, endColumn: number, ruleId: string];

/** Every finding lua-lint reports on the fixtures, at host lines and columns. */
const EXPECTED: Place[] = [
  ['csharp/CartStackExchange.cs', 13, 13, 13, 58, 'write-path-needs-ttl'],
  ['csharp/CartStackExchange.cs', 14, 1, 14, 50, 'key-must-come-from-keys'],
  ['csharp/CartStackExchange.cs', 14, 1, 14, 50, 'write-path-needs-ttl'],
  ['csharp/CartStackExchange.cs', 35, 65, 35, 83, 'unanalyzable-command'],
  ['go/lock_redigo.go', 23, 29, 23, 73, 'write-path-needs-ttl'],
  ['go/ratelimit_goredis.go', 15, 15, 15, 42, 'write-path-needs-ttl'],
  ['go/ratelimit_goredis.go', 45, 12, 45, 97, 'unanalyzable-command'],
  ['go/seen_rueidis.go', 22, 35, 22, 77, 'write-path-needs-ttl'],
  ['java/LeaseRedisson.java', 14, 10, 14, 56, 'keepttl-needs-existing-key'],
  ['java/QuotaJedis.java', 10, 22, 10, 60, 'write-path-needs-ttl'],
  ['java/TokensLettuce.java', 9, 10, 9, 51, 'write-path-needs-ttl'],
  ['js/counters_ioredis.ts', 7, 11, 7, 38, 'write-path-needs-ttl'],
  ['php/LuaScripts.php', 35, 30, 35, 57, 'write-path-needs-ttl'],
  ['php/counter_phpredis.php', 16, 26, 16, 62, 'write-path-needs-ttl'],
  ['php/session_predis.php', 16, 17, 16, 61, 'write-path-needs-ttl'],
  ['python/limiter_redis_py.py', 12, 1, 12, 42, 'write-path-needs-ttl'],
  ['python/limiter_redis_py.py', 35, 64, 35, 69, 'unanalyzable-command'],
  ['ruby/lock_redis_rb.rb', 9, 19, 9, 46, 'write-path-needs-ttl'],
];
const FILES = [
  'csharp/CartStackExchange.cs',
  'go/lock_redigo.go',
  'go/ratelimit_goredis.go',
  'go/seen_rueidis.go',
  'java/LeaseRedisson.java',
  'java/QuotaJedis.java',
  'java/TokensLettuce.java',
  'js/counters_ioredis.ts',
  'none.go',
  'php/LuaScripts.php',
  'php/counter_phpredis.php',
  'php/session_predis.php',
  'python/limiter_redis_py.py',
  'ruby/lock_redis_rb.rb',
  'ruby/queue_redis_client.rb',
];

async function lintText(fileName: string, text: string, options = {}) {
  return lintHostSource(fileName, text, options);
}

async function run(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([Buffer.from(stdin)]),
    cwd: fixtures,
    env: {},
  });
  return { code, stdout, stderr };
}

describe('the fixtures, one per language and client', () => {
  it.each(FILES)('%s: every finding at its host line and column', async (file) => {
    const findings = await lintHostSource(path.join(fixtures, file), readFileSync(path.join(fixtures, file), 'utf8'));
    expect(findings.map((f): Place => [file, f.line, f.column, f.endLine, f.endColumn, f.ruleId ?? 'parse-error'])).toEqual(EXPECTED.filter(([name]) => name === file));
  });

  it('names host places in messages, and StackExchange.Redis parameters by their @name', async () => {
    const file = path.join(fixtures, 'csharp/CartStackExchange.cs');
    const [first] = await lintHostSource(file, readFileSync(file, 'utf8'));
    expect(first?.message).toBe(
      'HINCRBY on @cartKey can create it without a TTL, and the return at line 15, column 1 precedes any expiry, so it never expires. Call PEXPIRE @cartKey <ms> after the write on every path.',
    );
    const go = path.join(fixtures, 'go/ratelimit_goredis.go');
    const findings = await lintHostSource(go, readFileSync(go, 'utf8'));
    expect(findings[0]?.message).toContain('the return at line 17, column 2 precedes');
    expect(findings[1]?.message).toBe(
      'The script passed to l.rdb.Eval(...) is built at run time (fmt.Sprintf(...)), so lua-lint checks none of its TTLs. Keep the script a constant string and pass values in KEYS and ARGV: then it is checked, and Redis caches one script.',
    );
  });
});

describe('cooking: the Lua text Redis receives, mapped back to the host', () => {
  it('Go: interpreted strings with escapes, raw strings, + across lines, const and :=', async () => {
    const text = 'package x\nimport "github.com/redis/go-redis/v9"\nconst a = "local k = KEYS[1]\\n" +\n\t`redis.call("SET", k, 1)`\nfunc f() {\n\ts := a\n\trdb.Eval(ctx, s, keys)\n}\n';
    const { scripts } = await extractHostScripts('go', text);
    expect(scripts.map((s) => s.source)).toEqual(['local k = KEYS[1]\nredis.call("SET", k, 1)']);
    expect(scripts[0]!.position(0)).toEqual({ line: 3, column: 12 });
    expect(scripts[0]!.position(17)).toEqual({ line: 3, column: 29 }); // the \n escape
    expect(scripts[0]!.position(18)).toEqual({ line: 4, column: 3 }); // after the backtick
    expect(scripts[0]!.via).toBe('rdb.Eval(...)');
  });

  it('Python: triple quotes, raw strings, implicit concatenation, class attributes', async () => {
    const text = 'import redis\nclass L:\n    A = ("return \\"x\\"" r"\\n")\n    def f(self):\n        self.r.register_script(self.A)\n        eval("1 + 1")\n';
    const { scripts } = await extractHostScripts('python', text);
    expect(scripts.map((s) => s.source)).toEqual(['return "x"\\n']);
    expect(scripts[0]!.position(7)).toEqual({ line: 3, column: 18 }); // the \" escape
  });

  it('Ruby: <<~ removes the common indentation, single quotes keep backslashes, receiverless eval is Ruby', async () => {
    const text = 'require "redis"\nS = <<~LUA.freeze\n    local a = 1\n      return "\\t"\n  LUA\neval("x")\nredis.eval(\'a\\\\n\')\n';
    const { scripts } = await extractHostScripts('ruby', text);
    expect(scripts.map((s) => s.source)).toEqual(['local a = 1\n  return "\t"\n', 'a\\n']);
    expect(scripts[0]!.position(12)).toEqual({ line: 4, column: 5 });
    expect(scripts[0]!.via).toBe('the <<~LUA heredoc');
  });

  it('PHP: nowdoc indentation, single-quoted escapes, . concatenation, class constants, same-file methods', async () => {
    const text = "<?php\nclass S {\n  const A = 'it\\'s' . \"\\tB\";\n  static function b() {\n    return <<<'LUA'\n      x\n        y\n      LUA;\n  }\n  function f($r) { $r->eval(self::A); $r->eval(static::b(), 0); }\n}\n";
    const { scripts } = await extractHostScripts('php', text);
    expect(scripts.map((s) => s.source)).toEqual(["it's\tB", 'x\n  y']);
    expect(scripts[1]!.position(0)).toEqual({ line: 6, column: 7 });
  });

  it('Java: text blocks lose their incidental indentation; + joins literals', async () => {
    const text = 'import redis.clients.jedis.Jedis;\nclass A {\n  static final String S = """\n      a\n        b\n      """;\n  void f() { jedis.eval(S + "c", 0); }\n}\n';
    const { scripts } = await extractHostScripts('java', text);
    expect(scripts.map((s) => s.source)).toEqual(['a\n  b\nc']);
    expect(scripts[0]!.position(4)).toEqual({ line: 5, column: 9 });
    expect(scripts[0]!.position(6)).toEqual({ line: 7, column: 30 });
  });

  it('C#: verbatim strings with doubled quotes, raw strings, and @name parameters', async () => {
    const text = 'using StackExchange.Redis;\nclass C {\n  static LuaScript P = LuaScript.Prepare(@"redis.call(""SET"", @key, @value, ""EX"", @ttl, @@kept)");\n}\n';
    const { scripts } = await extractHostScripts('csharp', text);
    expect(scripts.map((s) => s.source)).toEqual(['redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2], @kept)']);
    expect(scripts[0]!.parameters).toEqual([
      { name: '@key', becomes: 'KEYS[1]' },
      { name: '@value', becomes: 'ARGV[1]' },
      { name: '@ttl', becomes: 'ARGV[2]' },
    ]);
    expect(scripts[0]!.position(18)).toEqual({ line: 3, column: 64 }); // KEYS[1] is at @key
  });
});

describe('scripts built at run time are reported, not guessed', () => {
  it.each([
    ['x.go', 'package x\nimport "github.com/redis/go-redis/v9"\nfunc f() { rdb.Eval(ctx, "return " + n, nil) }\n', 'a concatenation with `n`', 3, 38],
    ['x.py', 'import redis\nr.eval("return %d" % n, 0)\n', '`%` formatting', 2, 8],
    ['x.py', 'import redis\nr.eval("return {}".format(n), 0)\n', '`.format()`', 2, 8],
    ['x.rb', 'require "redis"\nredis.eval("return #{n}")\n', 'string interpolation `#{...}`', 2, 20],
    ['x.php', '<?php\n$redis->eval(sprintf("return %d", $n));\n', 'sprintf(...)', 2, 14],
    ['x.java', 'import redis.clients.jedis.Jedis;\nclass A { void f() { jedis.eval("return %d".formatted(n)); } }\n', '`.formatted(...)`', 2, 33],
    ['x.cs', 'using StackExchange.Redis;\nclass C { void F() { db.ScriptEvaluate(string.Format("return {0}", n)); } }\n', '`string.Format(...)`', 2, 40],
  ])('%s: %s', async (file, text, how, line, column) => {
    const findings = await lintText(file, text);
    expect(findings.map((f) => [f.ruleId, f.severity, f.line, f.column])).toEqual([['unanalyzable-command', 1, line, column]]);
    expect(findings[0]!.message).toContain(`is built at run time (${how})`);
    expect(await lintText(file, text, { rules: { 'unanalyzable-command': 'off' } })).toEqual([]);
  });

  it('leaves alone what is not a script: parameters, builtin eval, files that never name Redis', async () => {
    expect(await lintText('a.py', 'import redis\ndef f(r, script):\n    r.eval(script, 0)\n    eval("1 + 1")\n')).toEqual([]);
    expect(await lintText('a.go', 'package x\nfunc f() { c.Eval(ctx, "1 + 1", nil) }\n')).toEqual([]);
  });
});

describe('literal joins of any length (issue 28: Redisson joins 25 to 50 literals)', () => {
  /** A script of `count` literals, one per host line from line `first`: locals, then a SET without TTL, then a return. */
  const pieces = (count: number): string[] => [...Array.from({ length: count - 2 }, (_, i) => `local a${i} = ${i};`), "redis.call('set', KEYS[1], ARGV[1]);", 'return 1;'];
  const join = (open: string, operator: string, count: number, quote = '"'): string => pieces(count).map((piece, i) => `${i === 0 ? open : `    ${operator} `}${quote}${piece}${quote}`).join('\n');
  const files: Array<[string, (count: number) => string, number]> = [
    ['a.java', (n) => `import redis.clients.jedis.Jedis;\nclass A {\n  Object f(Jedis jedis) {\n    return jedis.eval(\n${join('      ', '+', n)},\n      1, "k", "v");\n  }\n}\n`, 5],
    ['a.go', (n) => `package a\nimport "github.com/redis/go-redis/v9"\nvar s = redis.NewScript(\n${join('  ', '+', n)})\n`, 4],
    ['a.py', (n) => `import redis\nr = redis.Redis()\nS = r.register_script(\n${join('    ', '+', n)})\n`, 4],
    ['a.rb', (n) => `require "redis"\nredis = Redis.new\nredis.eval(\n${join('  ', '+', n)}, keys: ["k"])\n`, 4],
    ['a.php', (n) => `<?php\n$redis = new Redis();\n$redis->eval(\n${join('  ', '.', n)}, ["k"], 1);\n`, 4],
    ['a.cs', (n) => `using StackExchange.Redis;\nclass A {\n  void F(IDatabase db) {\n    db.ScriptEvaluate(\n${join('      ', '+', n)}, new RedisKey[] { "k" });\n  }\n}\n`, 5],
  ];

  it.each(files.flatMap(([file, make, first]) => [21, 200].map((count) => [file, count, make(count), first] as const)))('%s: %i literals are one script, analysed', async (file, count, text, first) => {
    const findings = await lintText(file, text);
    // the SET is the second-to-last literal
    expect(findings.map((f) => `${f.ruleId}@${f.line}`)).toEqual([`write-path-needs-ttl@${first + count - 2}`]);
  });

  it('joins a long chain in time linear in its length', async () => {
    // 2,000 literals: the old resolver copied every prefix (quadratic) and gave up past 20
    const [file, make] = files[0]!;
    const { scripts } = await extractHostScripts('java', make(2000));
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.source.split(';').length).toBe(2001);
    void file;
  });
});

describe('string methods applied to a constant script are evaluated', () => {
  it.each([
    ['a.py', 'import redis, textwrap\nS = textwrap.dedent("""\n    redis.call(\'set\', KEYS[1], ARGV[1])\n    return 1\n""")\nr.register_script(S)\n', 3],
    ['a.py', 'import redis\nr.register_script("""\n  redis.call(\'set\', KEYS[1], ARGV[1])\n""".strip())\n', 3],
    ['a.java', 'import redis.clients.jedis.Jedis;\nclass A { static final String S = """\n    redis.call(\'set\', KEYS[1], ARGV[1])\n    """;\n  void f() { jedis.eval(S.strip(), 1, "k"); } }\n', 3],
    ['a.go', 'package a\nimport ("strings"; "github.com/redis/go-redis/v9")\nvar s = redis.NewScript(strings.TrimSpace(`\n  redis.call("set", KEYS[1], ARGV[1])\n`))\n', 4],
    ['a.rb', 'require "redis"\nS = "\n  redis.call(\'set\', KEYS[1], ARGV[1])\n".strip.freeze\nredis.eval(S, keys: ["k"])\n', 3],
    ['a.php', "<?php\n$redis->eval(trim(\"\n  redis.call('set', KEYS[1], ARGV[1])\n\"), ['k'], 1);\n", 3],
    ['a.cs', 'using StackExchange.Redis;\nclass C { void F(IDatabase db) { db.ScriptEvaluate(@"\n  redis.call(\'set\', KEYS[1], ARGV[1])\n".Trim()); } }\n', 3],
  ])('%s', async (file, text, line) => {
    expect((await lintText(file, text)).map((f) => `${f.ruleId}@${f.line}`)).toEqual([`write-path-needs-ttl@${line}`]);
  });
});

describe("a join function's pieces are one script, in every host language", () => {
  // the SET is always the piece on line 4 of the file, at column 4 (its quote at 3)
  const SET = "redis.call('set', KEYS[1], ARGV[1])";
  it.each([
    ['a.py', `import redis\nr.eval("\\n".join([\n  "local x = 1",\n  "${SET}",\n]), 1, "k")\n`],
    ['a.py', `import redis\nLINES = (\n  "local x = 1",\n  "${SET}",\n)\nr.register_script("\\n".join(LINES))\n`],
    ['a.java', `import redis.clients.jedis.Jedis;\nclass A { void f(Jedis jedis) {\n  jedis.eval(String.join("\\n",\n  "${SET}",\n    "return 1"), 1, "k");\n} }\n`],
    ['a.java', `import redis.clients.jedis.Jedis;\nclass A {\n  static final List<String> L = List.of("local x = 1",\n  "${SET}");\n  void f(Jedis jedis) { jedis.eval(String.join("\\n", L), 1, "k"); } }\n`],
    ['a.java', `import redis.clients.jedis.Jedis;\nclass A { void f(Jedis jedis) {\n  jedis.eval(String.join("\\n", new String[] {"local x = 1",\n  "${SET}"}), 1, "k");\n} }\n`],
    ['a.go', `package a\nimport ("strings"; "github.com/redis/go-redis/v9")\nvar s = redis.NewScript(strings.Join([]string{\n  "${SET}",\n  "return 1",\n}, "\\n"))\n`],
    ['a.rb', `require "redis"\nLINES = [\n  "local x = 1",\n  "${SET}",\n]\nredis.eval(LINES.join("\\n"), keys: ["k"])\n`],
    ['a.rb', `require "redis"\nredis.eval(\n  ["local x = 1\\n",\n  "${SET}"].join, keys: ["k"])\n`],
    ['a.php', `<?php\n$redis->eval(implode("\\n", [\n  "local x = 1",\n  "${SET}",\n]), ['k'], 1);\n`],
    ['a.php', `<?php\n$redis->eval(join(array(\n  "local x = 1\\n",\n  "${SET}")), ['k'], 1);\n`],
    ['a.cs', `using StackExchange.Redis;\nclass C { void F(IDatabase db) {\n  db.ScriptEvaluate(string.Join("\\n",\n  "${SET}",\n    "return 1"), new RedisKey[] { "k" });\n} }\n`],
    ['a.cs', `using StackExchange.Redis;\nclass C { void F(IDatabase db) {\n  db.ScriptEvaluate(String.Join("\\n", new[] { "local x = 1",\n  "${SET}" }));\n} }\n`],
    ['a.cs', `using StackExchange.Redis;\nclass C { void F(IDatabase db) {\n  db.ScriptEvaluate(string.Concat("local x = 1\\n",\n  "${SET}"));\n} }\n`],
    ['a.java', `import redis.clients.jedis.Jedis;\nclass A { void f(Jedis jedis) {\n  jedis.eval(new StringBuilder("local x = 1\\n").append(\n  "${SET}").toString(), 1, "k");\n} }\n`],
    ['a.java', `import redis.clients.jedis.Jedis;\nclass A { void f(Jedis jedis) {\n  jedis.eval(new StringBuffer(64).append("local x = 1\\n").append(\n  "${SET}").append("\\nreturn 1").toString(), 1, "k");\n} }\n`],
  ])('%s: analysed, the finding at its host line and column', async (file, text) => {
    expect((await lintText(file, text)).map((f) => `${f.ruleId}@${f.line}:${f.column}`)).toEqual(['write-path-needs-ttl@4:4']);
  });

  it.each([
    ['a.py', 'import redis\ndef f(r, lines):\n    r.eval("\\n".join(lines), 0)\n', 3, '`lines`'],
    ['a.java', 'import redis.clients.jedis.Jedis;\nclass A { void f(Jedis jedis, String body) {\n  jedis.eval(String.join("\\n", "local x = 1", body), 0);\n} }\n', 3, '`body`'],
    ['a.go', 'package a\nimport ("strings"; "github.com/redis/go-redis/v9")\nfunc f(body string) { redis.NewScript(strings.Join([]string{"local x = 1", body}, "\\n")) }\n', 3, '`body`'],
    ['a.rb', 'require "redis"\ndef f(body)\n  redis.eval(["local x = 1", body].join("\\n"))\nend\n', 3, '`body`'],
    ['a.php', '<?php\nfunction f($redis, $body) { $redis->eval(implode("\\n", ["local x = 1", $body]), [], 0); }\n', 2, '`$body`'],
    ['a.cs', 'using StackExchange.Redis;\nclass C { void F(IDatabase db, string body) {\n  db.ScriptEvaluate(string.Join("\\n", "local x = 1", body));\n} }\n', 3, '`body`'],
    ['a.java', 'import redis.clients.jedis.Jedis;\nclass A { void f(Jedis jedis, String body) {\n  jedis.eval(new StringBuilder("local x = 1").append(body).toString(), 0);\n} }\n', 3, '`body`'],
  ])('%s: a piece built elsewhere makes the join one unanalyzable-command, naming the piece', async (file, text, line, piece) => {
    const findings = await lintText(file, text);
    expect(findings.map((f) => `${f.ruleId}@${f.line}`)).toEqual([`unanalyzable-command@${line}`]);
    expect(findings[0]!.message).toContain(`(a join of ${piece})`);
  });

  it('a join of paths is no script (os.path.join, File.join, Path.Join)', async () => {
    expect(await lintText('a.py', 'import os, redis\nr.eval(open(os.path.join("scripts", "a.lua")).read(), 0)\n')).toEqual([]);
    expect(await lintText('a.rb', 'require "redis"\nredis.eval(File.read(File.join("scripts", "a.lua")))\n')).toEqual([]);
    expect(await lintText('a.cs', 'using StackExchange.Redis;\nclass C { void F(IDatabase db) { db.ScriptEvaluate(File.ReadAllText(Path.Join("scripts", "a.lua"))); } }\n')).toEqual([]);
  });
});

describe('a script lua-lint cannot evaluate is reported, never dropped', () => {
  it.each([
    ['a.py', 'import redis\nS = "return 1"\nr.eval(S.lower(), 0)\n', '`S.lower()`'],
    ['a.java', 'import redis.clients.jedis.Jedis;\nclass A { void f() { jedis.eval("return 1".toLowerCase(), 0); } }\n', '`"return 1".toLowerCase()`'],
    ['a.rb', 'require "redis"\nredis.eval("return 1".downcase)\n', '`"return 1".downcase`'],
    ['a.go', 'package a\nimport ("strings"; "github.com/redis/go-redis/v9")\nfunc f() { c.Eval(ctx, strings.ToLower("x"), nil) }\n', '`strings.ToLower("x")`'],
    ['a.php', '<?php\n$redis->eval(strtolower("return 1"), [], 0);\n', '`strtolower("return 1")`'],
    ['a.ts', "import Redis from 'ioredis';\nconst redis = new Redis();\nconst S = 'return 1';\nexport const f = (x: string) => redis.eval(S.replace('1', x), 0);\n", "`S.replace('1', x)`"],
    ['a.js', "const { createClient } = require('redis');\nconst client = createClient();\nconst S = 'return 1';\nexports.f = (x) => client.sendCommand(['EVAL', S.padEnd(x), '0']);\n", '`S.padEnd(x)`'],
  ])('%s', async (file, text, how) => {
    const findings = await lintText(file, text);
    expect(findings.map((f) => f.ruleId)).toEqual(['unanalyzable-command']);
    expect(findings[0]!.message).toContain(`(${how}, which lua-lint cannot evaluate)`);
  });

  it('in JS/TS, at the expression that builds the script, once per expression, with the join or template part named', async () => {
    const text = [
      "import Redis from 'ioredis';", // 1
      'const redis = new Redis();', // 2
      "const HEAD = \"redis.call('INCR', KEYS[1]) \";", // 3
      'export async function hit(ttl: number) {', // 4
      "  await redis.eval(HEAD + 'redis.call(\\'EXPIRE\\', KEYS[1], ' + ttl + ')', 1, 'k');", // 5
      "  await redis.call('EVAL', `redis.call('SET', KEYS[1], 'v', 'EX', ${ttl})`, 1, 'k');", // 6
      '}',
      '',
    ].join('\n');
    const findings = await lintText('a.ts', text);
    expect(findings.map((f) => `${f.ruleId}@${f.line}:${f.column}-${f.endLine}:${f.endColumn}`)).toEqual([
      'unanalyzable-command@5:20-5:73',
      'unanalyzable-command@6:28-6:75',
    ]);
    expect(findings[0]!.message).toContain('The script passed to redis.eval(...) is built at run time (a concatenation with `ttl`)');
    expect(findings[1]!.message).toContain('The script passed to redis.call(...) is built at run time (a template literal with `${ttl}`)');
    // unanalyzable-command off: nothing
    expect(await lintText('a.ts', text, { rules: { 'unanalyzable-command': 'off' } })).toEqual([]);
  });

  it('but a script that comes from elsewhere (a parameter, a file read) is left to where it is built', async () => {
    expect(await lintText('a.py', 'import redis\ndef f(r, script):\n    r.eval(script.strip(), 0)\n    r.eval(load("limiter.lua"), 0)\n')).toEqual([]);
    expect(await lintText('a.java', 'import redis.clients.jedis.Jedis;\nclass A { void f(String s) { jedis.eval(Files.readString(Path.of("x.lua")), 0); jedis.eval(s.trim(), 0); } }\n')).toEqual([]);
    expect(await lintText('a.ts', "import Redis from 'ioredis';\nimport { readFileSync } from 'node:fs';\nconst redis = new Redis();\nexport const f = (s: string) => Promise.all([redis.eval(s, 0), redis.eval(s.trim(), 0), redis.eval(readFileSync('x.lua', 'utf8'), 0)]);\n")).toEqual([]);
  });
});

describe('handed host cases (../shared/cases/hosts, copied into tests/fixtures/cases/hosts)', () => {
  const dir = path.join(repoRoot, 'tests/fixtures/cases/hosts');
  const files = readdirSync(dir).sort();
  it('are all present', () => expect(files).toEqual(['01-java-concatenation-over-20-literals.java', '02-ts-sendcommand-array-eval.ts']));
  it.each(files)('%s: exactly the annotated findings, at host lines', async (file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const found = (await lintHostSource(path.join(dir, file), text)).map((f) => `${f.ruleId ?? 'parse-error'}@${f.line}`).sort();
    expect(found).toEqual(expectedFindings(text, '//'));
  });
});

describe('the CLI', () => {
  const places = EXPECTED.map(([file, line, column, , , ruleId]) => `${file}:${line}:${column}:${ruleId}`);

  it('walks a mixed-language tree and reports every finding in every format', async () => {
    const json = await run(['.', '--format', 'json']);
    expect(json.code).toBe(1);
    const results = JSON.parse(json.stdout) as Array<{ filePath: string; messages: Array<{ line: number; column: number; ruleId: string }> }>;
    expect(results.map((r) => path.relative(fixtures, r.filePath))).toEqual(FILES);
    expect(results.flatMap((r) => r.messages.map((m) => `${path.relative(fixtures, r.filePath)}:${m.line}:${m.column}:${m.ruleId}`))).toEqual(places);

    const sarif = JSON.parse((await run(['.', '--format', 'sarif'])).stdout) as {
      runs: Array<{ results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }> }> }>;
    };
    expect(
      sarif.runs[0]!.results.map((r) => {
        const { artifactLocation, region } = r.locations[0]!.physicalLocation;
        return `${artifactLocation.uri}:${region.startLine}:${region.startColumn}:${r.ruleId}`;
      }),
    ).toEqual(places);

    const github = (await run(['.', '--format', 'github'])).stdout.trim().split('\n');
    expect(github.map((l) => /file=([^,]+),line=(\d+),col=(\d+),.*\(([\w-]+)\)::/.exec(l)!.slice(1).join(':'))).toEqual(places);

    const compact = (await run(['.', '--format', 'compact'])).stdout.trim().split('\n').slice(0, -2);
    expect(compact.map((l) => /^(.+): line (\d+), col (\d+), \w+ - .* \(([\w-]+)\)$/.exec(l)!.slice(1).map((v, i) => (i === 0 ? path.relative(fixtures, v) : v)).join(':'))).toEqual(places);

    const stylish = (await run(['.'])).stdout.split('\n');
    const stylishPlaces: string[] = [];
    let current = '';
    for (const line of stylish) {
      if (line.startsWith('/')) current = path.relative(fixtures, line);
      const match = /^ {2}(\d+):(\d+) +(?:error|warning) +.* {2}([\w-]+)$/.exec(line);
      if (match) stylishPlaces.push(`${current}:${match[1]}:${match[2]}:${match[3]}`);
    }
    expect(stylishPlaces).toEqual(places);
  });

  it('reads a host file from standard input by its --stdin-filename', async () => {
    const go = readFileSync(path.join(fixtures, 'go/lock_redigo.go'), 'utf8');
    const result = await run(['-', '--stdin-filename', 'lock.go', '--format', 'compact'], go);
    expect(result.stdout.split('\n')[0]).toMatch(/lock\.go: line 23, col 29, Error - HSET on KEYS\[1\] .* \(write-path-needs-ttl\)$/);
  });

  it('knows the host extensions, and leaves declaration files out', () => {
    expect(['a.go', 'a.py', 'a.rb', 'a.php', 'a.java', 'a.cs', 'a.mjs', 'a.TSX', 'a.d.ts', 'a.lua'].map(hostLanguageOf)).toEqual([
      'go',
      'python',
      'ruby',
      'php',
      'java',
      'csharp',
      'javascript',
      'typescript',
      undefined,
      undefined,
    ]);
  });

  it('does not load a parser for .lua files, nor for host files that never name Redis', async () => {
    const script = [
      "import { createRequire } from 'node:module';",
      `const { main } = await import(${JSON.stringify(path.join(repoRoot, 'lua-lint/cli/main.ts'))});`,
      "const io = { stdout: { write() {} }, stderr: { write() {} }, stdin: [], cwd: process.argv[1], env: {} };",
      "await main(['examples/scripts', 'tests/fixtures/hosts/none.go'], io);",
      'const loaded = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("tree-sitter"));',
      "await main(['tests/fixtures/hosts/go'], io);",
      'const after = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("tree-sitter"));',
      'console.log(JSON.stringify({ loaded, after }));',
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, repoRoot], { cwd: repoRoot });
    expect(JSON.parse(stdout)).toEqual({ loaded: false, after: true });
  });
});

describe('directory walks', () => {
  it("leave out the host languages' dependency folders and declaration files, not what is named", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(path.join(tmpdir(), 'lua-lint-hosts-'));
    try {
      const leak = "<?php\n$redis->eval('redis.call(\"INCR\", KEYS[1]) return 1', 1, 'k');\n";
      for (const file of ['app/a.php', 'vendor/laravel/b.php', 'venv/lib/c.py', 'obj/Debug/D.cs', 'types/e.d.ts']) {
        mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
        const text = file.endsWith('.php') ? leak : file.endsWith('.py') ? "import redis\nr.eval(\"redis.call('INCR', KEYS[1])\", 1)\n" : file.endsWith('.cs') ? 'class D { void F() { db.ScriptEvaluate("redis.call(\'INCR\', KEYS[1])"); } }\n' : "declare const redis: unknown;\n";
        writeFileSync(path.join(dir, file), text);
      }
      let stdout = '';
      const io = { stdout: { write: (t: string) => (stdout += t), isTTY: false }, stderr: { write: () => true }, stdin: Readable.from([]), cwd: dir, env: {} };
      expect(await main(['.', '--format', 'json'], io)).toBe(1);
      expect((JSON.parse(stdout) as Array<{ filePath: string; messages: Array<{ line: number; column: number }> }>).map((r) => [path.relative(dir, r.filePath), r.messages.map((m) => `${m.line}:${m.column}`)])).toEqual([
        ['app/a.php', ['2:15']],
      ]);
      stdout = '';
      expect(await main(['vendor/laravel/b.php', 'venv', '--format', 'json'], io)).toBe(1);
      expect((JSON.parse(stdout) as Array<{ filePath: string }>).map((r) => path.relative(dir, r.filePath))).toEqual(['vendor/laravel/b.php', 'venv/lib/c.py']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('odd input', () => {
  it('never throws, and every finding is inside the file', async () => {
    const fc = await import('fast-check');
    const { decodeEscape } = await import('../../lua-lint/hosts/cooked.js');
    expect(decodeEscape('\\U7fffffff')).toBe('\\U7fffffff'); // not a character: kept as written
    expect(decodeEscape('\\u{1F600}')).toBe('😀');
    const heads: Record<string, string> = {
      'x.go': 'package x\nimport "redis"\nfunc f() { rdb.Eval(ctx, "',
      'x.py': 'import redis\nr.eval("""',
      'x.rb': 'require "redis"\nS = <<~LUA\n',
      'x.php': "<?php\n$redis->eval(<<<'LUA'\n",
      'x.java': 'class A { void f() { jedis.eval("""\n',
      'x.cs': 'using StackExchange.Redis;\nclass C { LuaScript P = LuaScript.Prepare(@"',
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(heads)), fc.string({ unit: 'binary', maxLength: 80 }), async (file, tail) => {
        const text = heads[file]! + tail;
        for (const finding of await lintText(file, text)) {
          expect(finding.offset).toBeGreaterThanOrEqual(0);
          expect(finding.endOffset).toBeLessThanOrEqual(text.length);
          expect(finding.line).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 300, seed: 16 },
    );
  });
});
