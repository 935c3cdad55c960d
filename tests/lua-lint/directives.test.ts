// Disable and enable comments that name a rule lua-lint does not have: reported as
// `unknown-rule-in-directive` (ESLint: "Definition for rule '...' was not found"), at the comment,
// with the nearest rule id when one is close, by the analyzer, every CLI format, the host-language
// front end and (tests/rules/embedded-lua.test.ts) the ESLint rule.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../lua-lint/cli/main.js';
import { lintHostSource } from '../../lua-lint/hosts/index.js';
import { analyzeLua, RULES } from '../../lua-lint/index.js';

const TYPO = "-- lua-lint-disable-next-line no-getst -- reviewed\nredis.call('GETSET', KEYS[1], ARGV[1])\nreturn 1\n";
const NO_GETST =
  "Unknown rule 'no-getst' in lua-lint-disable-next-line; did you mean 'no-getset'? The comment disables nothing under that name, so the finding it was written for stays reported.";
const GETSET =
  "GETSET on KEYS[1] replaces the value and drops the key's TTL, so a key meant to expire becomes persistent. Use SET key value XX KEEPTTL GET: it returns the old value, keeps the TTL and never creates a missing key.";

const brief = (source: string, options = {}) => analyzeLua(source, options).map((f) => [f.ruleId, f.severity, f.line, f.column, f.endLine, f.endColumn]);

describe('unknown-rule-in-directive', () => {
  it('is an error at the comment, naming the nearest rule id; the typo silences nothing', () => {
    expect(analyzeLua(TYPO)).toEqual([
      { ruleId: 'unknown-rule-in-directive', severity: 2, message: NO_GETST, line: 1, column: 1, endLine: 1, endColumn: 51, offset: 0, endOffset: 50 },
      { ruleId: 'no-getset', severity: 2, message: GETSET, line: 2, column: 1, endLine: 2, endColumn: 39, offset: 51, endOffset: 89 },
    ]);
    expect(RULES['unknown-rule-in-directive'].defaultSeverity).toBe(2);
  });

  it('checks every directive form, each unknown id once, and lists the rule ids when none is close', () => {
    const source = [
      "redis.call('SET', KEYS[2], 'x') -- lua-lint-disable-line write-path-needs-ttl, set-without-tll",
      '-- lua-lint-disable Key-Must-Come-From-Keys',
      "redis.call('SET', 'lit', 'x', 'EX', 5)",
      '-- lua-lint-enable key-must-come-from-key',
      'return 1',
    ].join('\n');
    const findings = analyzeLua(source);
    expect(findings.map((f) => [f.ruleId, f.line, f.column, f.endColumn])).toEqual([
      ['unknown-rule-in-directive', 1, 33, 95],
      ['unknown-rule-in-directive', 2, 1, 44],
      ['key-must-come-from-keys', 3, 1, 39],
      ['unknown-rule-in-directive', 4, 1, 42],
    ]);
    expect(findings.filter((f) => f.ruleId === 'unknown-rule-in-directive').map((f) => f.message)).toEqual([
      "Unknown rule 'set-without-tll' in lua-lint-disable-line. The comment disables nothing under that name, so the finding it was written for stays reported. The rule ids are listed in docs/lua-lint.md#rules.",
      "Unknown rule 'Key-Must-Come-From-Keys' in lua-lint-disable; did you mean 'key-must-come-from-keys'? The comment disables nothing under that name, so the finding it was written for stays reported.",
      "Unknown rule 'key-must-come-from-key' in lua-lint-enable; did you mean 'key-must-come-from-keys'? The comment enables nothing under that name, so a rule disabled above it stays disabled.",
    ]);
  });

  it('says nothing about known ids, ids-less comments and reasons after " -- "', () => {
    const source = [
      '-- lua-lint-disable-next-line no-getset -- the old value is needed, key-must-come-from-keys is not an id here',
      "redis.call('GETSET', KEYS[1], ARGV[1])",
      '-- lua-lint-disable',
      "redis.call('PERSIST', KEYS[1])",
      '-- lua-lint-enable',
      'return 1',
    ].join('\n');
    expect(analyzeLua(source)).toEqual([]);
  });

  it('takes a severity and "off" like any rule, and its own disable comment', () => {
    expect(brief(TYPO, { rules: { 'unknown-rule-in-directive': 'warn' } })[0]).toEqual(['unknown-rule-in-directive', 1, 1, 1, 1, 51]);
    expect(brief(TYPO, { rules: { 'unknown-rule-in-directive': 'off' } })).toEqual([['no-getset', 2, 2, 1, 2, 39]]);
    const owned = `-- lua-lint-disable-next-line unknown-rule-in-directive\n${TYPO}`;
    expect(brief(owned)).toEqual([['no-getset', 2, 3, 1, 3, 39]]);
  });

  it('is reported inside a script embedded in a host-language file, at the host line and column', async () => {
    const python = `import redis\nr = redis.Redis()\nSCRIPT = """\n${TYPO}"""\nr.eval(SCRIPT, 1, "k", "v")\n`;
    const findings = await lintHostSource('/repo/cache.py', python, {});
    expect(findings.map((f) => [f.ruleId, f.severity, f.line, f.column, f.endLine, f.endColumn, f.message])).toEqual([
      ['unknown-rule-in-directive', 2, 4, 1, 4, 51, NO_GETST],
      ['no-getset', 2, 5, 1, 5, 39, GETSET],
    ]);
  });
});

describe('unknown-rule-in-directive in every CLI format', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lua-lint-directive-'));
  writeFileSync(path.join(dir, 'swap.lua'), TYPO);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function run(format: string): Promise<{ code: number; stdout: string }> {
    let stdout = '';
    const code = await main(['swap.lua', '--no-config-lookup', '--format', format], {
      stdout: { write: (text: string) => (stdout += text), isTTY: false },
      stderr: { write: () => true },
      stdin: Readable.from([]),
      cwd: dir,
      env: {},
    });
    return { code, stdout };
  }

  it('json, compact, stylish, github and sarif', async () => {
    const file = path.join(dir, 'swap.lua');
    const json = await run('json');
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as Array<{ messages: unknown[] }>)[0]?.messages[0]).toEqual({
      ruleId: 'unknown-rule-in-directive',
      severity: 2,
      message: NO_GETST,
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 51,
    });
    expect((await run('compact')).stdout.split('\n')[0]).toBe(`${file}: line 1, col 1, Error - ${NO_GETST} (unknown-rule-in-directive)`);
    expect((await run('stylish')).stdout.split('\n')[2]).toMatch(/^ {2}1:1 {2}error {2}Unknown rule 'no-getst' in lua-lint-disable-next-line; did you mean 'no-getset'\?.* {2}unknown-rule-in-directive$/);
    expect((await run('github')).stdout.split('\n')[0]).toBe(
      `::error file=swap.lua,line=1,col=1,endLine=1,endColumn=51,title=lua-lint (unknown-rule-in-directive)::${NO_GETST}`,
    );
    const sarif = JSON.parse((await run('sarif')).stdout) as {
      runs: Array<{ tool: { driver: { rules: Array<{ id: string }> } }; results: Array<{ ruleId: string; ruleIndex: number; level: string; locations: unknown[] }> }>;
    };
    const [first] = sarif.runs[0]!.results;
    expect(first).toMatchObject({
      ruleId: 'unknown-rule-in-directive',
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'swap.lua' }, region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 51 } } }],
    });
    expect(sarif.runs[0]!.tool.driver.rules[first!.ruleIndex]?.id).toBe('unknown-rule-in-directive');
  });
});
