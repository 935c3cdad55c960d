// End-to-end tests of the lua-lint CLI through main() (in-process), plus one run of the real
// executable as a subprocess. Exact formatter output is covered in cli-formatters.test.ts.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../lua-lint/cli/main.js';
import type { LintResult } from '../../lua-lint/cli/results.js';
import { RULE_IDS } from '../../lua-lint/rules.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const casesDir = path.join(repoRoot, 'tests/fixtures/cases/lua');
const packageVersion = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

const LEAK = "redis.call('SET', KEYS[1], ARGV[1])\nreturn 1\n"; // write-path-needs-ttl at 1:1
const WARN_ONLY = "redis.call('SET', 'fixed:key', ARGV[1], 'EX', 60)\nreturn 1\n"; // key-must-come-from-keys at 1:1
const CLEAN = "local n = redis.call('INCR', KEYS[1])\nredis.call('EXPIRE', KEYS[1], 60)\nreturn n\n";
const BROKEN = "local n = redis.call('INCR', KEYS[1])\nif n > 1 then\nreturn n\n"; // 'end' expected at line 4 (end of input)

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  cwd?: string;
  stdin?: string | Buffer;
  env?: Record<string, string | undefined>;
  isTTY?: boolean;
}

let dir: string;

/** Runs main() in `dir` (or opts.cwd) with captured streams and an empty environment. */
async function run(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text), isTTY: opts.isTTY ?? false },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from(opts.stdin === undefined ? [] : [typeof opts.stdin === 'string' ? Buffer.from(opts.stdin) : opts.stdin]),
    cwd: opts.cwd ?? dir,
    env: opts.env ?? {},
  });
  return { code, stdout, stderr };
}

/** Writes files (relative path -> content) under `dir`. */
function files(tree: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(tree)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

function json(output: string): LintResult[] {
  return JSON.parse(output) as LintResult[];
}

/** The (ruleId, line) pairs of a result, sorted, as `rule@line` strings. */
function found(result: LintResult | undefined): string[] {
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse-error'}@${m.line}`).sort();
}

beforeEach(() => {
  // A directory of its own under a parent that has no lua-lint.config.json (checked below).
  dir = mkdtempSync(path.join(tmpdir(), 'lua-lint-cli-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('exit codes', () => {
  it('exits 0 and prints nothing for a clean script', async () => {
    files({ 'ok.lua': CLEAN });
    expect(await run(['ok.lua'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('exits 1 for an error and prints it in stylish format', async () => {
    files({ 'leak.lua': LEAK });
    const { code, stdout, stderr } = await run(['leak.lua']);
    expect(code).toBe(1);
    expect(stderr).toBe('');
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('');
    expect(lines[1]).toBe(path.join(dir, 'leak.lua'));
    expect(lines[2]).toMatch(/^ {2}1:1 {2}error {2}SET on KEYS\[1\] .+ {2}write-path-needs-ttl$/);
    expect(lines.slice(3)).toEqual(['', '\u2716 1 problem (1 error, 0 warnings)', '', '']);
  });

  it('exits 1 for a parse error, reported as one fatal message without rule', async () => {
    files({ 'broken.lua': BROKEN });
    const { code, stdout } = await run(['broken.lua', '--format', 'json']);
    expect(code).toBe(1);
    const [result] = json(stdout);
    expect(result?.messages).toHaveLength(1);
    expect(result?.messages[0]).toMatchObject({ ruleId: null, severity: 2, fatal: true, line: 4 });
    expect(result?.messages[0]?.message).toMatch(/^Parsing error: /);
    expect(result).toMatchObject({ errorCount: 1, fatalErrorCount: 1, warningCount: 0 });
  });

  it('exits 0 with warnings only, and 1 when they exceed --max-warnings', async () => {
    files({ 'warn.lua': WARN_ONLY, 'warn2.lua': WARN_ONLY });
    const plain = await run(['warn.lua', 'warn2.lua', '--format', 'compact']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`${path.join(dir, 'warn.lua')}: line 1, col 1, Warning - `);
    expect(plain.stdout.endsWith('(key-must-come-from-keys)\n\n2 problems\n')).toBe(true);
    expect((await run(['warn.lua', 'warn2.lua', '--max-warnings', '2'])).code).toBe(0);
    const tooMany = await run(['warn.lua', 'warn2.lua', '--max-warnings', '1', '--format', 'json']);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toBe('lua-lint found too many warnings (maximum: 1).\n');
    expect(json(tooMany.stdout).map((r) => r.warningCount)).toEqual([1, 1]);
  });

  it('exits 2 for usage errors with one message and a pointer to --help', async () => {
    expect(await run(['--bogus'])).toEqual({ code: 2, stdout: '', stderr: "lua-lint: unknown option '--bogus'\nRun \"lua-lint --help\" for usage.\n" });
    expect(await run([])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'lua-lint: No files given. Usage: lua-lint [options] <files, directories or globs...>\nRun "lua-lint --help" for usage.\n',
    });
    // an unset shell variable ("$SRC") must not lint the working directory
    const EMPTY = 'lua-lint: An empty argument where a file, directory or glob belongs (an unset shell variable?).\nRun "lua-lint --help" for usage.\n';
    expect(await run([''])).toEqual({ code: 2, stdout: '', stderr: EMPTY });
    expect(await run(['x.lua', ' '])).toEqual({ code: 2, stdout: '', stderr: EMPTY });
    const format = await run(['x.lua', '--format', 'xml']);
    expect(format.code).toBe(2);
    expect(format.stderr).toBe(
      "lua-lint: option '-f, --format <name>' argument 'xml' is invalid. Allowed choices are stylish, json, compact, sarif, github.\n" +
        'Run "lua-lint --help" for usage.\n',
    );
    const max = await run(['x.lua', '--max-warnings', 'many']);
    expect(max.code).toBe(2);
    expect(max.stderr).toBe(
      "lua-lint: option '--max-warnings <n>' argument 'many' is invalid. expected a whole number >= 0.\nRun \"lua-lint --help\" for usage.\n",
    );
  });
});

describe('--help and --version', () => {
  it('prints the usage, every option and examples, and exits 0', async () => {
    const { code, stdout, stderr } = await run(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.startsWith('Usage: lua-lint [options] <files, directories or globs...>\n')).toBe(true);
    for (const option of ['--format', '--output-file', '--rule', '--persistent', '--max-warnings', '--quiet', '--config', '--stdin-filename', '--no-color', '--version']) {
      expect(stdout).toContain(option);
    }
    expect(stdout).toContain('Examples:\n  $ lua-lint scripts/');
    expect(stdout).not.toContain('(default: [])');
    const rules = stdout.slice(stdout.indexOf('Rules (each documented in docs/rules/<id>.md):\n'), stdout.indexOf('Config:'));
    expect(rules.trimEnd().split('\n').slice(1).every((line) => line.startsWith('  ') && line.length <= 76)).toBe(true);
    expect(rules.replace(/\s+/g, ' ')).toContain(RULE_IDS.join(', '));
  });

  it('prints the package version on -v, -V and --version, as redis-ttl-audit does', async () => {
    for (const flag of ['--version', '-v', '-V']) expect(await run([flag])).toEqual({ code: 0, stdout: `${packageVersion}\n`, stderr: '' });
    expect((await run(['--help'])).stdout).toMatch(/\n {2}-v, --version +print the version \(also -V\)\n/);
  });
});

describe('formats through the CLI', () => {
  beforeEach(() => files({ 'scripts/leak.lua': LEAK, 'scripts/ok.lua': CLEAN, 'scripts/warn.lua': WARN_ONLY }));

  it('json: ESLint results for every file, absolute paths, sorted within the directory', async () => {
    const { code, stdout } = await run(['scripts', '--format', 'json']);
    expect(code).toBe(1);
    const results = json(stdout);
    expect(results.map((r) => r.filePath)).toEqual(['leak.lua', 'ok.lua', 'warn.lua'].map((f) => path.join(dir, 'scripts', f)));
    expect(results.map((r) => [r.errorCount, r.warningCount, r.fatalErrorCount, r.fixableErrorCount, r.fixableWarningCount])).toEqual([
      [1, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 1, 0, 0, 0],
    ]);
    const message = results[0]?.messages[0];
    expect(Object.keys(message ?? {})).toEqual(['ruleId', 'severity', 'message', 'line', 'column', 'endLine', 'endColumn']);
    expect(message).toMatchObject({ ruleId: 'write-path-needs-ttl', severity: 2, line: 1, column: 1, endLine: 1, endColumn: 36 });
    expect(results[2]?.messages[0]).toMatchObject({ ruleId: 'key-must-come-from-keys', severity: 1, line: 1, column: 1 });
  });

  it('sarif: results relative to the working directory', async () => {
    const { code, stdout } = await run(['scripts', '--format', 'sarif']);
    expect(code).toBe(1);
    const log = JSON.parse(stdout) as { version: string; runs: Array<{ tool: { driver: { version: string } }; results: Array<Record<string, unknown>> }> };
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0]?.tool.driver.version).toBe(packageVersion);
    expect(log.runs[0]?.results.map((r) => [r.ruleId, r.ruleIndex, r.level])).toEqual([
      ['write-path-needs-ttl', 0, 'error'],
      ['key-must-come-from-keys', RULE_IDS.indexOf('key-must-come-from-keys'), 'warning'],
    ]);
    expect(log.runs[0]?.results[0]?.locations).toEqual([
      {
        physicalLocation: {
          artifactLocation: { uri: 'scripts/leak.lua', uriBaseId: '%SRCROOT%' },
          region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 36 },
        },
      },
    ]);
  });

  it('github: one annotation line per problem', async () => {
    const { code, stdout } = await run(['scripts', '--format', 'github']);
    expect(code).toBe(1);
    const lines = stdout.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^::error file=scripts\/leak\.lua,line=1,col=1,endLine=1,endColumn=36,title=lua-lint \(write-path-needs-ttl\)::SET on KEYS\[1\] /);
    expect(lines[1]).toMatch(/^::warning file=scripts\/warn\.lua,line=1,col=1,endLine=1,endColumn=\d+,title=lua-lint \(key-must-come-from-keys\)::/);
    expect(lines[2]).toBe('');
  });

  it('--output-file writes the report (creating folders) and nothing goes to standard output', async () => {
    const { code, stdout } = await run(['scripts', '--format', 'json', '--output-file', 'reports/lua.json']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const written = readFileSync(path.join(dir, 'reports/lua.json'), 'utf8');
    expect(written.endsWith(']\n')).toBe(true);
    expect(json(written)).toHaveLength(3);
  });

  it.runIf(process.platform === 'linux')('--output-file in a folder that cannot be made (under /proc) is exit 2, not a hang', async () => {
    const result = await run(['scripts', '--output-file', '/proc/lua-lint-no-such-dir/sub/out.txt']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('lua-lint: Cannot write the report to "/proc/lua-lint-no-such-dir/sub/out.txt": file not found (ENOENT).\n');
  });

  it('--output-file that cannot be written is exit 2', async () => {
    files({ 'blocker': 'a file, not a folder' });
    const result = await run(['scripts', '--output-file', 'blocker/out.txt']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^lua-lint: Cannot write the report to "blocker\/out\.txt": .+\(E[A-Z]+\)\.\n$/);
  });

  it('--quiet drops warnings from the output and the counts', async () => {
    const { code, stdout } = await run(['scripts', '--format', 'json', '--quiet', '--max-warnings', '0']);
    expect(code).toBe(1); // the error in leak.lua; the warning is not counted
    expect(json(stdout).map((r) => [r.messages.length, r.warningCount])).toEqual([
      [1, 0],
      [0, 0],
      [0, 0],
    ]);
    expect((await run(['scripts/warn.lua', '--quiet', '--max-warnings', '0'])).code).toBe(0);
  });

  it('colors stylish output on a terminal only, unless NO_COLOR, FORCE_COLOR or a flag decides', async () => {
    const hasColor = async (args: string[], opts: RunOptions) => (await run(['scripts/leak.lua', ...args], opts)).stdout.includes('\u001b[');
    expect(await hasColor([], { isTTY: true })).toBe(true);
    expect(await hasColor([], { isTTY: false })).toBe(false);
    expect(await hasColor([], { isTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
    expect(await hasColor([], { isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(await hasColor(['--no-color'], { isTTY: true })).toBe(false);
    expect(await hasColor(['--color'], { isTTY: false })).toBe(true);
    expect(await hasColor(['--format', 'json'], { isTTY: true })).toBe(false);
  });
});

describe('--rule and --persistent', () => {
  beforeEach(() => files({ 'leak.lua': LEAK, 'warn.lua': WARN_ONLY }));

  it('turns a rule off or raises it to an error', async () => {
    expect((await run(['leak.lua', '--rule', 'write-path-needs-ttl=off'])).code).toBe(0);
    const raised = await run(['warn.lua', '--rule', 'key-must-come-from-keys=error', '--format', 'json']);
    expect(raised.code).toBe(1);
    expect(json(raised.stdout)[0]?.messages.map((m) => [m.ruleId, m.severity])).toEqual([['key-must-come-from-keys', 2]]);
    const later = await run(['warn.lua', '--rule', 'key-must-come-from-keys=error', '--rule', 'key-must-come-from-keys:off', '--format', 'json']);
    expect(json(later.stdout)[0]?.messages).toEqual([]);
  });

  it('rejects an unknown rule id (listing the ids) and an unknown severity with exit 2', async () => {
    expect(await run(['leak.lua', '--rule', 'no-such-rule=off'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `lua-lint: Unknown rule "no-such-rule" in --rule "no-such-rule=off". Rule ids: ${RULE_IDS.join(', ')}.\n`,
    });
    expect(await run(['leak.lua', '--rule', 'no-getst=off'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'lua-lint: Unknown rule "no-getst" in --rule "no-getst=off"; did you mean "no-getset"?\n',
    });
    expect((await run(['leak.lua', '--rule', 'Key-Must-Come-From-Key:warn'])).stderr).toBe(
      'lua-lint: Unknown rule "Key-Must-Come-From-Key" in --rule "Key-Must-Come-From-Key:warn"; did you mean "key-must-come-from-keys"?\n',
    );
    expect((await run(['leak.lua', '--rule', 'no-persist=loud'])).stderr).toBe(
      'lua-lint: Invalid severity "loud" in --rule "no-persist=loud": expected off, warn or error.\n',
    );
    expect((await run(['leak.lua', '--rule', 'no-persist'])).stderr).toBe(
      'lua-lint: Invalid --rule "no-persist": expected <id>=off|warn|error, e.g. --rule no-persist=warn.\n',
    );
  });

  it('--persistent takes a KEYS index or a key pattern', async () => {
    expect((await run(['leak.lua', '--persistent', '1'])).code).toBe(0);
    expect((await run(['leak.lua', '--persistent', 'KEYS[*]'])).code).toBe(0);
    expect((await run(['leak.lua', '--persistent', '2'])).code).toBe(1);
    expect(await run(['leak.lua', '--persistent', '0'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'lua-lint: Invalid --persistent "0": KEYS indices start at 1.\n',
    });
  });
});

describe('standard input', () => {
  it('reads "-" and reports it as <stdin>', async () => {
    const { code, stdout } = await run(['-', '--format', 'json'], { stdin: LEAK });
    expect(code).toBe(1);
    expect(json(stdout).map((r) => [r.filePath, found(r)])).toEqual([['<stdin>', ['write-path-needs-ttl@1']]]);
  });

  it('reports --stdin-filename as an absolute path, next to other files', async () => {
    files({ 'ok.lua': CLEAN });
    const { code, stdout } = await run(['ok.lua', '-', '--stdin-filename', 'src/piped.lua', '--format', 'json'], { stdin: CLEAN });
    expect(code).toBe(0);
    expect(json(stdout).map((r) => r.filePath)).toEqual([path.join(dir, 'ok.lua'), path.join(dir, 'src/piped.lua')]);
  });

  it('reports each unknown rule id of one directive comment, though all start at the comment', async () => {
    const { code, stdout } = await run(['-', '--format', 'json'], {
      stdin: "-- lua-lint-disable-next-line foo bar, baz\nredis.call('GET', KEYS[1])\nreturn 1\n",
    });
    expect(code).toBe(1);
    const messages = json(stdout)[0]!.messages;
    expect(messages.map((m) => [m.ruleId, m.line, m.column, /^Unknown rule '(\w+)'/.exec(m.message)?.[1]])).toEqual([
      ['unknown-rule-in-directive', 1, 1, 'foo'],
      ['unknown-rule-in-directive', 1, 1, 'bar'],
      ['unknown-rule-in-directive', 1, 1, 'baz'],
    ]);
  });

  it('refuses --stdin-filename without "-"', async () => {
    files({ 'ok.lua': CLEAN });
    expect(await run(['ok.lua', '--stdin-filename', 'x.lua'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'lua-lint: --stdin-filename names standard input, so "-" must be among the files.\n',
    });
  });
});

describe('files, directories and globs', () => {
  it('expands a directory to its .lua files, skipping node_modules and other extensions', async () => {
    files({
      'a/one.lua': CLEAN,
      'a/deep/two.lua': LEAK,
      'a/readme.md': '# not lua',
      'a/node_modules/dep/three.lua': LEAK,
      'a/.hidden/four.lua': CLEAN,
    });
    const { stdout } = await run(['a', '--format', 'json']);
    expect(json(stdout).map((r) => path.relative(dir, r.filePath))).toEqual(['a/.hidden/four.lua', 'a/deep/two.lua', 'a/one.lua'].map(path.normalize));
  });

  it('expands globs relative to the working directory, without duplicates', async () => {
    files({ 'x/one.lua': CLEAN, 'x/two.lua': CLEAN, 'y/three.lua': CLEAN, 'y/three.txt': CLEAN });
    const { code, stdout } = await run(['y/*', 'x/*.lua', 'x/one.lua', '--format', 'json']);
    expect(code).toBe(0);
    expect(json(stdout).map((r) => path.relative(dir, r.filePath))).toEqual(
      ['y/three.lua', 'y/three.txt', 'x/one.lua', 'x/two.lua'].map(path.normalize),
    );
  });

  it('keeps \\ as the escape character of globs', async () => {
    files({ 'x/[draft]one.lua': CLEAN, 'x/done.lua': CLEAN });
    const { code, stdout } = await run(['x/\\[draft\\]*.lua', '--format', 'json']);
    expect(code).toBe(0);
    expect(json(stdout).map((r) => path.basename(r.filePath))).toEqual(['[draft]one.lua']);
  });

  it('lints a file once when a symbolic link leads back to it', async () => {
    files({ 'a/x.lua': CLEAN });
    symlinkSync('..', path.join(dir, 'a', 'up'));
    symlinkSync(path.join(dir, 'a', 'x.lua'), path.join(dir, 'alias.lua'));
    const { code, stdout } = await run(['a', 'alias.lua', '--format', 'json']);
    expect(code).toBe(0);
    expect(json(stdout).map((r) => r.filePath)).toEqual([path.join(dir, 'a', 'x.lua')]);
  });

  it('does not follow a symbolic link to a directory out of the tree (a link to / would walk the whole disk)', async () => {
    files({ 'a/x.lua': CLEAN, 'outside/leak.lua': LEAK });
    symlinkSync(path.join(dir, 'outside'), path.join(dir, 'a', 'out'));
    const { code, stdout } = await run(['a', '--format', 'json']);
    expect(code).toBe(0);
    expect(json(stdout).map((r) => r.filePath)).toEqual([path.join(dir, 'a', 'x.lua')]);
  });

  it('lints an explicitly named file whatever its extension', async () => {
    files({ 'script.txt': LEAK });
    const { code, stdout } = await run(['script.txt', '--format', 'json']);
    expect(code).toBe(1);
    expect(found(json(stdout)[0])).toEqual(['write-path-needs-ttl@1']);
  });

  it('exits 2 when a file, a glob or a directory matches nothing', async () => {
    expect(await run(['nothing-here.lua'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'lua-lint: No such file or directory: "nothing-here.lua".\n',
    });
    expect((await run(['*.lua'])).stderr).toBe('lua-lint: No files matching the pattern "*.lua" were found.\n');
    files({ 'empty/readme.md': 'no scripts here' });
    expect(await run(['empty'])).toEqual({ code: 2, stdout: '', stderr: 'lua-lint: No .lua files (nor Go, Python, Ruby, PHP, Java, C#, JS or TS files) were found in the directory "empty".\n' });
    expect(await run(['empty', '--no-error-on-unmatched-pattern'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('exits 2 when a glob names a folder that does not exist (no match, not an unreadable folder)', async () => {
    files({ 'lua/ok.lua': 'return 1' });
    expect(await run(['nope/*.lua'])).toEqual({ code: 2, stdout: '', stderr: 'lua-lint: No files matching the pattern "nope/*.lua" were found.\n' });
    expect(await run(['nope/**/*.lua'])).toEqual({ code: 2, stdout: '', stderr: 'lua-lint: No files matching the pattern "nope/**/*.lua" were found.\n' });
    expect(await run(['nope/*.lua', '--no-error-on-unmatched-pattern'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await run(['nope/*.lua', 'lua/ok.lua', '--no-error-on-unmatched-pattern'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('reports a file it cannot read as one fatal problem of that file and lints the others', async () => {
    files({ 'a-leak.lua': LEAK });
    const socketPath = path.join(dir, 'socket.lua');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const { code, stdout } = await run(['socket.lua', 'a-leak.lua', '--format', 'json']);
      expect(code).toBe(1);
      const [socket, leak] = json(stdout);
      expect(socket?.filePath).toBe(socketPath);
      expect(socket?.messages).toEqual([
        { ruleId: null, severity: 2, message: 'Cannot read this file: not a regular file (ENXIO).', line: 1, column: 1, endLine: 1, endColumn: 1, fatal: true },
      ]);
      expect(found(leak)).toEqual(['write-path-needs-ttl@1']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.skipIf(process.platform !== 'linux')('a directory holding file and folder names that are not UTF-8: one problem each, every other file linted', async () => {
    // names are bytes on Linux: Latin-1 'café.lua', a folder 'donn\xe9es' with a file in it
    const latin1 = Buffer.concat([Buffer.from(`${dir}/scripts/caf`), Buffer.from([0xe9]), Buffer.from('.lua')]);
    const folder = Buffer.concat([Buffer.from(`${dir}/scripts/donn`), Buffer.from([0xe9]), Buffer.from('es')]);
    files({ 'scripts/leak.lua': LEAK, 'scripts/clean.lua': CLEAN });
    writeFileSync(latin1, LEAK);
    mkdirSync(folder);
    writeFileSync(Buffer.concat([folder, Buffer.from('/inner.lua')]), LEAK);
    for (const format of ['json', 'stylish', 'sarif', 'compact', 'github']) {
      const { code, stdout, stderr } = await run(['scripts', '--format', format]);
      expect(code, format).toBe(1);
      expect(stderr, format).toBe('');
      expect(stdout, format).toContain('Cannot read this file: its path is not valid UTF-8 (the bytes shown as \ufffd)');
      expect(stdout, format).toContain('write-path-needs-ttl');
    }
    const results = json((await run(['scripts', '--format', 'json'])).stdout);
    const byName = Object.fromEntries(results.map((r) => [path.relative(dir, r.filePath), r.messages.map((m) => (m.fatal ? m.message : `${m.ruleId}@${m.line}`))]));
    expect(byName).toEqual({
      'scripts/caf\ufffd.lua': [
        'Cannot read this file: its path is not valid UTF-8 (the bytes shown as \ufffd), so it can not be opened by the name the directory walk gives it. Rename it to UTF-8 (e.g. convmv -f latin1 -t utf8) to lint it.',
      ],
      'scripts/clean.lua': [],
      'scripts/donn\ufffdes': [
        'Cannot list this folder: its path is not valid UTF-8 (the bytes shown as \ufffd), so the files in it were not linted. Rename it to UTF-8 (e.g. convmv -f latin1 -t utf8) to lint them.',
      ],
      'scripts/leak.lua': ['write-path-needs-ttl@1'],
    });
    // the same through a glob
    expect(json((await run(['scripts/**/*.lua', '--format', 'json'])).stdout).map((r) => path.relative(dir, r.filePath)).sort()).toEqual(Object.keys(byName).sort());
  });

  it('reports a binary file as one fatal problem instead of parsing it', async () => {
    files({ 'blob.lua': Buffer.from([0x1b, 0x4c, 0x75, 0x61, 0x51, 0x00, 0x01, 0x04]) });
    const { code, stdout } = await run(['blob.lua', '--format', 'json']);
    expect(code).toBe(1);
    expect(json(stdout)[0]?.messages).toEqual([
      {
        ruleId: null,
        severity: 2,
        message: 'Not a Lua source file: it contains NUL bytes (binary data?).',
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 1,
        fatal: true,
      },
    ]);
  });

  it('accepts an empty file, reports a byte-order mark as the parse error Redis gives, counts positions in Latin-1 like an editor', async () => {
    files({ 'empty.lua': '', 'bom.lua': `\uFEFF${LEAK}`, 'latin1.lua': Buffer.concat([Buffer.from("-- caf\xe9\n", 'latin1'), Buffer.from(LEAK)]) });
    const { code, stdout } = await run(['empty.lua', 'bom.lua', 'latin1.lua', '--format', 'json']);
    expect(code).toBe(1);
    const [empty, bom, latin1] = json(stdout);
    expect(empty?.messages).toEqual([]);
    expect(bom?.messages.map((m) => [m.ruleId, m.line, m.column, m.fatal])).toEqual([[null, 1, 1, true]]);
    expect(bom?.messages[0]?.message).toMatch(/^Parsing error: the script starts with a UTF-8 byte order mark/);
    expect(latin1?.messages.map((m) => [m.ruleId, m.line, m.column, m.endLine, m.endColumn])).toEqual([['write-path-needs-ttl', 2, 1, 2, 36]]);
  });
});

describe('config file', () => {
  it('is found by walking up from the working directory, and applies rules and persistent keys', async () => {
    files({
      'lua-lint.config.json': JSON.stringify({ rules: { 'key-must-come-from-keys': 'error' }, persistentKeys: [1] }),
      'pkg/src/leak.lua': LEAK,
      'pkg/src/warn.lua': WARN_ONLY,
    });
    const { code, stdout } = await run(['.', '--format', 'json'], { cwd: path.join(dir, 'pkg/src') });
    expect(code).toBe(1);
    expect(json(stdout).map((r) => [path.basename(r.filePath), r.messages.map((m) => [m.ruleId, m.severity])])).toEqual([
      ['leak.lua', []],
      ['warn.lua', [['key-must-come-from-keys', 2]]],
    ]);
    // --rule overrides the config file; --no-config-lookup ignores it
    expect((await run(['warn.lua', '--rule', 'key-must-come-from-keys=warn'], { cwd: path.join(dir, 'pkg/src') })).code).toBe(0);
    const noLookup = await run(['.', '--no-config-lookup', '--format', 'json'], { cwd: path.join(dir, 'pkg/src') });
    expect(json(noLookup.stdout).map((r) => found(r))).toEqual([['write-path-needs-ttl@1'], ['key-must-come-from-keys@1']]);
  });

  it('ignores files matching "ignores", relative to the config file', async () => {
    files({
      'lua-lint.config.json': JSON.stringify({ ignores: ['vendor/**', '**/*.gen.lua'] }),
      'vendor/leak.lua': LEAK,
      'src/ok.lua': CLEAN,
      'src/leak.gen.lua': LEAK,
    });
    const { code, stdout } = await run(['.', '--format', 'json']);
    expect(code).toBe(0);
    expect(json(stdout).map((r) => path.relative(dir, r.filePath))).toEqual([path.normalize('src/ok.lua')]);
    expect(await run(['vendor'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'lua-lint: All files matched by "vendor" are ignored (see "ignores" in the config file).\n',
    });
  });

  it('warns, as ESLint does, about a file named on the command line that "ignores" match, and does not read it', async () => {
    files({
      'lua-lint.config.json': JSON.stringify({ ignores: ['vendor/**'] }),
      'vendor/leak.lua': LEAK,
      'vendor/binary.lua': Buffer.from([0, 159, 146, 150]),
      'src/ok.lua': CLEAN,
    });
    const ignored = path.join(dir, 'vendor/leak.lua');
    const warning =
      'File ignored because of a matching ignore pattern ("ignores" in the config file). Use "--no-ignore" to disable file ignore settings or use "--no-warn-ignored" to suppress this warning.';
    // a staged-file list (lint-staged): the ignored files are warned about, the others linted; exit 0
    const staged = await run(['vendor/leak.lua', 'src/ok.lua', 'vendor/binary.lua', '--format', 'json']);
    expect(staged.code).toBe(0);
    expect(json(staged.stdout).map((r) => [path.relative(dir, r.filePath), r.warningCount, r.errorCount, r.messages])).toEqual([
      [path.normalize('vendor/leak.lua'), 1, 0, [{ ruleId: null, fatal: false, severity: 1, message: warning }]],
      [path.normalize('src/ok.lua'), 0, 0, []],
      [path.normalize('vendor/binary.lua'), 1, 0, [{ ruleId: null, fatal: false, severity: 1, message: warning }]],
    ]);
    expect((await run(['vendor/leak.lua'])).stdout).toBe(`\n${ignored}\n  0:0  warning  ${warning.slice(0, -1)}\n\n\u2716 1 problem (0 errors, 1 warning)\n\n`);
    expect((await run(['vendor/leak.lua', '--format', 'compact'])).stdout).toBe(`${ignored}: line 0, col 0, Warning - ${warning}\n\n1 problem\n`);
    expect((await run(['vendor/leak.lua', '--format', 'github'])).stdout).toBe(`::warning file=vendor/leak.lua,title=lua-lint::${warning}\n`);
    const sarif = JSON.parse((await run(['vendor/leak.lua', 'src/ok.lua', '--format', 'sarif'])).stdout) as { runs: Array<{ results: unknown[]; invocations: unknown }> };
    expect(sarif.runs[0]?.results).toEqual([]);
    expect(sarif.runs[0]?.invocations).toEqual([
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          { level: 'warning', message: { text: warning }, locations: [{ physicalLocation: { artifactLocation: { uri: 'vendor/leak.lua', uriBaseId: '%SRCROOT%' } } }] },
        ],
      },
    ]);
    // --max-warnings counts it (ESLint does too); --no-warn-ignored drops it; --quiet hides it
    expect(await run(['vendor/leak.lua', 'src/ok.lua', '--max-warnings', '0', '--format', 'compact'])).toMatchObject({
      code: 1,
      stderr: 'lua-lint found too many warnings (maximum: 0).\n',
    });
    expect(await run(['vendor/leak.lua', 'src/ok.lua', '--max-warnings', '0', '--no-warn-ignored'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await run(['vendor/leak.lua', '--quiet'])).toEqual({ code: 0, stdout: '', stderr: '' });
    // --no-ignore lints what "ignores" match, named or found in a directory
    const all = await run(['vendor/leak.lua', 'vendor', '--no-ignore', '--format', 'json']);
    expect(all.code).toBe(1);
    expect(json(all.stdout).map((r) => [path.relative(dir, r.filePath), found(r)])).toEqual([
      [path.normalize('vendor/leak.lua'), ['write-path-needs-ttl@1']],
      [path.normalize('vendor/binary.lua'), ['parse-error@1']],
    ]);
    // standard input named with an ignored --stdin-filename: not linted, warned about (ESLint's lintText)
    const stdin = await run(['-', '--stdin-filename', 'vendor/leak.lua', '--format', 'json'], { stdin: LEAK });
    expect({ code: stdin.code, results: json(stdin.stdout).map((r) => [r.filePath, r.messages.map((m) => m.message)]) }).toEqual({
      code: 0,
      results: [[ignored, [warning]]],
    });
  });

  it('--config names a config file explicitly', async () => {
    files({ 'conf/strict.json': JSON.stringify({ rules: { 'write-path-needs-ttl': 'warn' } }), 'leak.lua': LEAK });
    const { code, stdout } = await run(['leak.lua', '--config', 'conf/strict.json', '--format', 'json']);
    expect(code).toBe(0);
    expect(json(stdout)[0]?.messages.map((m) => m.severity)).toEqual([1]);
  });

  it('leaves out leaks where the caller chose no TTL unless the config sets allowOptionalTtl to false', async () => {
    const optional = "redis.call('HSET', KEYS[1], 'f', ARGV[2])\nlocal ttl = tonumber(ARGV[1])\nif ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) end\nreturn 1\n";
    files({ 'cache.lua': optional });
    expect(await run(['cache.lua', '--format', 'json'])).toMatchObject({ code: 0 });
    files({ 'lua-lint.config.json': JSON.stringify({ allowOptionalTtl: false }) });
    const { code, stdout } = await run(['cache.lua', '--format', 'json']);
    expect(code).toBe(1);
    expect(json(stdout)[0]?.messages.map((m) => [m.ruleId, m.line, m.column, m.optionalTtl])).toEqual([['write-path-needs-ttl', 1, 1, true]]);
    files({ 'lua-lint.config.json': JSON.stringify({ allowOptionalTtl: 'no' }) });
    expect((await run(['cache.lua'])).stderr).toBe(`lua-lint: Invalid config ${path.join(dir, 'lua-lint.config.json')}:1:21: allowOptionalTtl: expected true or false, got "no".\n`);
  });

  it('reports an invalid config with its path, the property and the problem, and exits 2', async () => {
    const config = path.join(dir, 'lua-lint.config.json');
    files({ 'leak.lua': LEAK, 'lua-lint.config.json': '{\n  "rules": {\n    "no-persist": "error",\n  }\n}\n' });
    expect(await run(['leak.lua'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `lua-lint: Invalid config ${config}:4:3: invalid JSON: Expected double-quoted property name.\n`,
    });
    files({ 'lua-lint.config.json': JSON.stringify({ rules: { 'no-persist': 'loud' } }) });
    expect((await run(['leak.lua'])).stderr).toBe(
      `lua-lint: Invalid config ${config}:1:24: rules.no-persist: expected "off", "warn", "error", 0, 1 or 2, got "loud".\n`,
    );
    files({ 'lua-lint.config.json': JSON.stringify({ rules: { 'no-such': 'off' } }) });
    expect((await run(['leak.lua'])).stderr).toBe(
      `lua-lint: Invalid config ${config}:1:11: rules.no-such: unknown rule id (known: ${RULE_IDS.join(', ')}).\n`,
    );
    // a misspelt rule id: the nearest one, at the line and column of the name
    files({ 'lua-lint.config.json': '\uFEFF{\n  "rules": {\n    "no-persist": "warn",\n    "no-getst": "off"\n  }\n}\n' });
    expect(await run(['leak.lua'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `lua-lint: Invalid config ${config}:4:5: rules.no-getst: unknown rule id; did you mean "no-getset"?\n`,
    });
    files({ 'lua-lint.config.json': '' });
    expect((await run(['leak.lua'])).stderr).toBe(`lua-lint: Invalid config ${config}: invalid JSON: Unexpected end of JSON input.\n`);
    expect(await run(['leak.lua', '--config', 'missing.json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `lua-lint: Cannot read config file "${path.join(dir, 'missing.json')}": file not found (ENOENT).\n`,
    });
  });
});

describe('handed cases', () => {
  const caseFiles = readdirSync(casesDir).filter((name) => name.endsWith('.lua')).sort();

  /** `rule@line` for each id of each trailing `-- expect: a, b` annotation. */
  function expectations(source: string): string[] {
    const expected: string[] = [];
    source.split('\n').forEach((text, index) => {
      const match = /--\s*expect:\s*(.+?)\s*$/.exec(text);
      for (const id of match?.[1]?.split(',') ?? []) expected.push(`${id.trim()}@${index + 1}`);
    });
    return expected.sort();
  }

  it('are all present', () => {
    expect(caseFiles).toHaveLength(61);
  });

  it('--format json reports exactly the annotated (rule, line) pairs of every case', async () => {
    const { stdout } = await run([casesDir, '--format', 'json', '--no-config-lookup']);
    const results = json(stdout);
    expect(results.map((r) => path.basename(r.filePath))).toEqual(caseFiles);
    for (const result of results) {
      const source = readFileSync(result.filePath, 'utf8');
      expect({ file: path.basename(result.filePath), found: found(result) }).toEqual({
        file: path.basename(result.filePath),
        found: expectations(source),
      });
      for (const message of result.messages) expect(message.fatal === true).toBe(message.ruleId === null);
    }
  });
});

describe('examples/scripts', () => {
  it('reports exactly the leaks their headers announce, and exits 1', async () => {
    const { code, stdout } = await run(['examples/scripts', '--format', 'json', '--no-config-lookup'], { cwd: repoRoot });
    expect(code).toBe(1);
    expect(Object.fromEntries(json(stdout).map((r) => [path.basename(r.filePath), found(r)]))).toEqual({
      '01-fixed-window-limiter.lua': [],
      '02-fixed-window-early-return.lua': ['write-path-needs-ttl@19'],
      '03-token-bucket.lua': [],
      '04-lock-acquire.lua': [],
      '05-lock-release.lua': [],
      // the lease is the caller's choice: reported with allowOptionalTtl: false only (below)
      '06-lock-without-expiry.lua': [],
      '07-collect-guarded.lua': [],
      '08-collect-unguarded.lua': ['keepttl-needs-existing-key@13'],
      '09-counters-library.lua': [],
      '10-leaderboard.lua': ['write-path-needs-ttl@15'],
    });
  });
});

describe('examples/scripts with allowOptionalTtl: false', () => {
  it('also reports the lock whose lease the caller may leave out', async () => {
    files({ 'strict.json': JSON.stringify({ allowOptionalTtl: false }) });
    const { code, stdout } = await run(['examples/scripts/06-lock-without-expiry.lua', '--format', 'json', '--config', path.join(dir, 'strict.json')], { cwd: repoRoot });
    expect(code).toBe(1);
    expect(json(stdout).map((r) => found(r))).toEqual([['write-path-needs-ttl@16']]);
  });
});

describe('the executable', () => {
  it('runs bin.ts as a subprocess: JSON on stdout, exit code 1', async () => {
    files({ 'leak.lua': LEAK });
    const { code, stdout, stderr } = await new Promise<RunResult>((resolve) => {
      execFile(
        process.execPath,
        // tsx is resolved from the repository: the subprocess runs in a temporary directory
        ['--import', import.meta.resolve('tsx'), path.join(repoRoot, 'lua-lint/cli/bin.ts'), 'leak.lua', '--format', 'json'],
        { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' } },
        (error, out, err) => resolve({ code: error ? Number(error.code) : 0, stdout: out, stderr: err }),
      );
    });
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(json(stdout).map((r) => [r.filePath, found(r)])).toEqual([[path.join(dir, 'leak.lua'), ['write-path-needs-ttl@1']]]);
  });

  it('starts with a node shebang', () => {
    expect(readFileSync(path.join(repoRoot, 'lua-lint/cli/bin.ts'), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });
});

describe('--- @include resolution', () => {
  const HELPER = "--[[ helper ]]\nlocal function touch(key)\n  redis.call('HSET', key, 'n', 1)\nend\n";
  const SCRIPT = "--- @include \"includes/touch\"\ntouch(KEYS[1])\nreturn 1\n";

  it('analyses the script with its includes and reports each finding in the file that holds it', async () => {
    files({ 'commands/main.lua': SCRIPT, 'commands/includes/touch.lua': HELPER });
    const { code, stdout } = await run(['commands/main.lua', '--format', 'json', '--no-config-lookup']);
    expect(code).toBe(1);
    const results = json(stdout);
    expect(results.map((r) => path.relative(dir, r.filePath))).toEqual(['commands/main.lua', path.join('commands', 'includes', 'touch.lua')]);
    expect(results[0]!.messages).toEqual([]);
    expect(results[1]!.messages).toEqual([
      {
        ruleId: 'write-path-needs-ttl',
        severity: 2,
        message:
          'HSET on KEYS[1] can create it without a TTL, and the return at line 3, column 1 of main.lua precedes any ' +
          'expiry, so it never expires. Call PEXPIRE KEYS[1] <ms> after the write on every path.',
        line: 3,
        column: 3,
        endLine: 3,
        endColumn: 34,
      },
    ]);
  });

  it('reports a finding of a shared include once, however many scripts include it', async () => {
    files({ 'a.lua': SCRIPT, 'b.lua': SCRIPT.replace('return 1', 'return 2'), 'includes/touch.lua': HELPER });
    const results = json((await run(['.', '--format', 'json', '--no-config-lookup'])).stdout);
    expect(results.map((r) => [path.relative(dir, r.filePath), found(r)])).toEqual([
      ['a.lua', []],
      [path.join('includes', 'touch.lua'), ['write-path-needs-ttl@3']],
      ['b.lua', []],
    ]);
  });

  it('looks includes up under --include-root or the config file\'s includeRoot, and reports one that is missing', async () => {
    files({ 'scripts/main.lua': SCRIPT, 'lib/includes/touch.lua': HELPER });
    const missing = json((await run(['scripts/main.lua', '--format', 'json', '--no-config-lookup'])).stdout);
    expect(missing.map(found)).toEqual([['unanalyzable-command@1', 'unanalyzable-command@2']]);
    expect(missing[0]!.messages[0]!.message).toContain('The included file "includes/touch" was not found');
    expect(missing[0]!.messages[1]!.message).toContain('touch() is defined nowhere in this script');
    const rooted = json((await run(['scripts/main.lua', '--include-root', 'lib', '--format', 'json', '--no-config-lookup'])).stdout);
    expect(rooted.map(found)).toEqual([[], ['write-path-needs-ttl@3']]);
    files({ 'lua-lint.config.json': JSON.stringify({ includeRoot: 'lib' }) });
    const configured = json((await run(['scripts/main.lua', '--format', 'json'])).stdout);
    expect(configured.map(found)).toEqual([[], ['write-path-needs-ttl@3']]);
  });
});
