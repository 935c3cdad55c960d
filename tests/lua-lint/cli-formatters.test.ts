// Unit tests of the CLI's pure parts: the five formatters on hand-made results (exact output),
// the config validation and the ignore globs. The end-to-end behaviour is in cli.test.ts.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shouldUseColor } from '../../lua-lint/cli/color.js';
import { validateConfig } from '../../lua-lint/cli/config.js';
import { FORMATTERS } from '../../lua-lint/cli/formatters/index.js';
import { escapeData, escapeProperty } from '../../lua-lint/cli/formatters/github.js';
import { compileIgnoreGlob, createIgnoreMatcher } from '../../lua-lint/cli/ignore.js';
import { createResult, errorsOnly, withCounts, type LintResult } from '../../lua-lint/cli/results.js';
import { RULE_IDS, RULES } from '../../lua-lint/rules.js';

/** The package's version: the docs links name its tag. */
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const cwd = path.resolve('/repo');
const limiter = path.join(cwd, 'scripts', 'limiter.lua');
const ok = path.join(cwd, 'scripts', 'ok.lua');
const broken = path.join(cwd, 'broken.lua');

const results: LintResult[] = [
  withCounts(limiter, [
    { ruleId: 'write-path-needs-ttl', severity: 2, message: 'INCRBY can create KEYS[1] without a TTL.', line: 3, column: 13, endLine: 3, endColumn: 51 },
    { ruleId: 'key-must-come-from-keys', severity: 1, message: 'Key built, not from KEYS', line: 12, column: 1, endLine: 13, endColumn: 9 },
  ]),
  withCounts(ok, []),
  withCounts(broken, [
    { ruleId: null, severity: 2, fatal: true, message: "'end' expected near 'return'", line: 5, column: 1, endLine: 5, endColumn: 7 },
  ]),
];
const context = { cwd, color: false, version: '9.8.7' };

describe('results', () => {
  it('counts errors, warnings and fatal errors like ESLint and sorts messages by position', () => {
    const result = createResult('/x.lua', [
      { ruleId: 'no-persist', severity: 1, message: 'b', line: 4, column: 2, endLine: 4, endColumn: 3, offset: 9, endOffset: 10 },
      { ruleId: null, severity: 2, message: 'a', line: 2, column: 7, endLine: 2, endColumn: 8, offset: 3, endOffset: 4, fatal: true },
    ]);
    expect(result).toEqual({
      filePath: '/x.lua',
      messages: [
        { ruleId: null, severity: 2, message: 'a', line: 2, column: 7, endLine: 2, endColumn: 8, fatal: true },
        { ruleId: 'no-persist', severity: 1, message: 'b', line: 4, column: 2, endLine: 4, endColumn: 3 },
      ],
      suppressedMessages: [],
      errorCount: 1,
      fatalErrorCount: 1,
      warningCount: 1,
      fixableErrorCount: 0,
      fixableWarningCount: 0,
      usedDeprecatedRules: [],
    });
    expect(Object.keys(result.messages[1] ?? {})).not.toContain('fatal');
    expect(errorsOnly([result])[0]).toMatchObject({ errorCount: 1, warningCount: 0, messages: [{ message: 'a' }] });
  });
});

describe('stylish', () => {
  it('prints ESLint stylish output without colors', () => {
    expect(FORMATTERS.stylish(results, context)).toBe(
      [
        '',
        limiter,
        '   3:13  error    INCRBY can create KEYS[1] without a TTL  write-path-needs-ttl',
        '  12:1   warning  Key built, not from KEYS                 key-must-come-from-keys',
        '',
        broken,
        "  5:1  error  'end' expected near 'return'",
        '',
        '\u2716 3 problems (2 errors, 1 warning)',
        '',
      ].join('\n'),
    );
  });

  it('prints nothing when there is no problem, and singulars for one', () => {
    expect(FORMATTERS.stylish([withCounts(ok, [])], context)).toBe('');
    const one = [withCounts(ok, [{ ruleId: 'no-persist', severity: 1, message: 'm.', line: 1, column: 1, endLine: 1, endColumn: 2 }])];
    expect(FORMATTERS.stylish(one, context).endsWith('\u2716 1 problem (0 errors, 1 warning)\n')).toBe(true);
  });

  it('colors the path, the severities, the position and the summary on a terminal', () => {
    const output = FORMATTERS.stylish(results, { ...context, color: true });
    expect(output).toContain(`\u001b[4m${limiter}\u001b[24m`);
    expect(output).toContain('  \u001b[2m3:13\u001b[22m  \u001b[31merror\u001b[39m  ');
    expect(output).toContain('\u001b[33mwarning\u001b[39m');
    expect(output).toContain('\u001b[2mwrite-path-needs-ttl\u001b[22m');
    expect(output).toContain('\u001b[1m\u001b[31m\u2716 3 problems (2 errors, 1 warning)\n\u001b[39m\u001b[22m');
    // the columns stay aligned although the colored cells are longer
    // eslint-disable-next-line no-control-regex -- removing the ANSI codes this test is about
    expect(output.replace(/\u001b\[\d+m/g, '')).toBe(FORMATTERS.stylish(results, context));
  });
});

describe('json', () => {
  it('is ESLint\'s JSON: the results array, files without problems included', () => {
    const output = FORMATTERS.json(results, context);
    expect(output).toBe(JSON.stringify(results));
    const parsed = JSON.parse(output) as LintResult[];
    expect(parsed.map((r) => Object.keys(r))).toEqual(
      Array(3).fill([
        'filePath',
        'messages',
        'suppressedMessages',
        'errorCount',
        'fatalErrorCount',
        'warningCount',
        'fixableErrorCount',
        'fixableWarningCount',
        'usedDeprecatedRules',
      ]),
    );
    expect(parsed[2]?.messages).toEqual([
      { ruleId: null, severity: 2, message: "'end' expected near 'return'", line: 5, column: 1, endLine: 5, endColumn: 7, fatal: true },
    ]);
  });
});

describe('compact', () => {
  it('prints one ESLint compact line per problem and a total', () => {
    expect(FORMATTERS.compact(results, context)).toBe(
      [
        `${limiter}: line 3, col 13, Error - INCRBY can create KEYS[1] without a TTL. (write-path-needs-ttl)`,
        `${limiter}: line 12, col 1, Warning - Key built, not from KEYS (key-must-come-from-keys)`,
        `${broken}: line 5, col 1, Error - 'end' expected near 'return'`,
        '',
        '3 problems',
      ].join('\n'),
    );
    expect(FORMATTERS.compact([withCounts(ok, [])], context)).toBe('');
  });
});

describe('github', () => {
  it('prints one workflow annotation per problem, paths relative to the working directory', () => {
    expect(FORMATTERS.github(results, context).split('\n')).toEqual([
      '::error file=scripts/limiter.lua,line=3,col=13,endLine=3,endColumn=51,title=lua-lint (write-path-needs-ttl)::INCRBY can create KEYS[1] without a TTL.',
      // a range over several lines: GitHub ignores columns there, so none are given
      '::warning file=scripts/limiter.lua,line=12,endLine=13,title=lua-lint (key-must-come-from-keys)::Key built, not from KEYS',
      "::error file=broken.lua,line=5,col=1,endLine=5,endColumn=7,title=lua-lint (parse-error)::'end' expected near 'return'",
    ]);
  });

  it('escapes %, CR and LF in messages and also : and , in properties', () => {
    expect(escapeData('100% a,b:c\r\nd')).toBe('100%25 a,b:c%0D%0Ad');
    expect(escapeProperty('a,b:c%\n')).toBe('a%2Cb%3Ac%25%0A');
    const odd = withCounts(path.join(cwd, 'we,ird:name.lua'), [
      { ruleId: 'no-persist', severity: 2, message: 'line one\nline two: 50%', line: 1, column: 1, endLine: 1, endColumn: 5 },
    ]);
    expect(FORMATTERS.github([odd], context)).toBe(
      '::error file=we%2Cird%3Aname.lua,line=1,col=1,endLine=1,endColumn=5,title=lua-lint (no-persist)::line one%0Aline two: 50%25',
    );
  });
});

describe('sarif', () => {
  const log = JSON.parse(FORMATTERS.sarif(results, context)) as {
    $schema: string;
    version: string;
    runs: Array<{
      tool: { driver: { name: string; version: string; informationUri: string; rules: Array<Record<string, unknown>> } };
      originalUriBaseIds: Record<string, { uri: string }>;
      columnKind: string;
      results: Array<Record<string, unknown>>;
    }>;
  };
  const run = log.runs[0];

  it('declares SARIF 2.1.0 and the lua-lint driver with one rule per id plus parse-error', () => {
    expect(log.$schema).toBe('https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json');
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const driver = run?.tool.driver;
    expect(driver?.name).toBe('lua-lint');
    expect(driver?.version).toBe('9.8.7');
    expect(driver?.informationUri).toBe('https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl');
    expect(driver?.rules.map((rule) => rule.id)).toEqual([...RULE_IDS, 'parse-error']);
    expect(driver?.rules[0]).toEqual({
      id: 'write-path-needs-ttl',
      shortDescription: { text: RULES['write-path-needs-ttl'].description },
      helpUri: `https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl/blob/v${VERSION}/docs/rules/write-path-needs-ttl.md`,
      defaultConfiguration: { level: 'error' },
    });
    const keys = driver?.rules.find((rule) => rule.id === 'key-must-come-from-keys');
    expect(keys?.defaultConfiguration).toEqual({ level: 'warning' });
    expect(driver?.rules.at(-1)?.helpUri).toBe(
      `https://github.com/eslint-plugin-redis-ttl/eslint-plugin-redis-ttl/blob/v${VERSION}/docs/lua-lint.md#parse-errors`,
    );
    expect(run?.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: pathToFileURL(`${cwd}/`).href } });
    expect(run?.columnKind).toBe('utf16CodeUnits');
  });

  it('reports each problem with its rule index, level, relative location and region', () => {
    expect(run?.results).toEqual([
      {
        ruleId: 'write-path-needs-ttl',
        ruleIndex: 0,
        level: 'error',
        message: { text: 'INCRBY can create KEYS[1] without a TTL.' },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'scripts/limiter.lua', uriBaseId: '%SRCROOT%' },
              region: { startLine: 3, startColumn: 13, endLine: 3, endColumn: 51 },
            },
          },
        ],
      },
      {
        ruleId: 'key-must-come-from-keys',
        ruleIndex: RULE_IDS.indexOf('key-must-come-from-keys'),
        level: 'warning',
        message: { text: 'Key built, not from KEYS' },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'scripts/limiter.lua', uriBaseId: '%SRCROOT%' },
              region: { startLine: 12, startColumn: 1, endLine: 13, endColumn: 9 },
            },
          },
        ],
      },
      {
        ruleId: 'parse-error',
        ruleIndex: RULE_IDS.length,
        level: 'error',
        message: { text: "'end' expected near 'return'" },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'broken.lua', uriBaseId: '%SRCROOT%' },
              region: { startLine: 5, startColumn: 1, endLine: 5, endColumn: 7 },
            },
          },
        ],
      },
    ]);
  });

  it('percent-encodes relative URIs and uses an absolute file URI outside the working directory', () => {
    const outside = path.resolve('/elsewhere/a b.lua');
    const spaced = path.join(cwd, 'my scripts', 'a#1.lua');
    const message = { ruleId: 'no-persist' as const, severity: 2 as const, message: 'm', line: 1, column: 1, endLine: 1, endColumn: 2 };
    const parsed = JSON.parse(FORMATTERS.sarif([withCounts(outside, [message]), withCounts(spaced, [message])], context)) as typeof log;
    const locations = parsed.runs[0]?.results.map(
      (result) => (result.locations as Array<{ physicalLocation: { artifactLocation: unknown } }>)[0]?.physicalLocation.artifactLocation,
    );
    expect(locations).toEqual([{ uri: pathToFileURL(outside).href }, { uri: 'my%20scripts/a%231.lua', uriBaseId: '%SRCROOT%' }]);
  });
});

describe('shouldUseColor', () => {
  it('follows the flag, then FORCE_COLOR, then NO_COLOR, then the terminal', () => {
    expect(shouldUseColor(false, { FORCE_COLOR: '1' }, true)).toBe(false);
    expect(shouldUseColor(true, { NO_COLOR: '1' }, false)).toBe(true);
    expect(shouldUseColor(undefined, { FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true);
    expect(shouldUseColor(undefined, { FORCE_COLOR: '0' }, true)).toBe(false);
    expect(shouldUseColor(undefined, { NO_COLOR: '1' }, true)).toBe(false);
    expect(shouldUseColor(undefined, { NO_COLOR: '' }, true)).toBe(true);
    expect(shouldUseColor(undefined, {}, true)).toBe(true);
    expect(shouldUseColor(undefined, {}, false)).toBe(false);
  });
});

describe('config validation', () => {
  const file = path.resolve('/proj/lua-lint.config.json');

  it('accepts the documented shape and normalises severities', () => {
    expect(
      validateConfig(
        { $schema: 'x', rules: { 'no-persist': 'warn', 'key-must-come-from-keys': 0 }, persistentKeys: [2, 'audit:*'], ignores: ['vendor/**'] },
        file,
      ),
    ).toEqual({
      filePath: file,
      rules: { 'no-persist': 1, 'key-must-come-from-keys': 0 },
      persistentKeys: [2, 'audit:*'],
      ignores: ['vendor/**'],
      baseDir: path.dirname(file),
    });
  });

  it('names the file, the property and the problem', () => {
    expect(() => validateConfig([], file)).toThrow(`Invalid config ${file}: expected a JSON object at the top level, got an array.`);
    expect(() => validateConfig({ rules: { 'no-persist': 'sometimes' } }, file)).toThrow(
      `Invalid config ${file}: rules.no-persist: expected "off", "warn", "error", 0, 1 or 2, got "sometimes".`,
    );
    expect(() => validateConfig({ persistentKeys: [0] }, file)).toThrow(
      `Invalid config ${file}: persistentKeys[0]: expected a KEYS index (an integer >= 1) or a non-empty key pattern, got 0.`,
    );
    expect(() => validateConfig({ ignores: 'vendor' }, file)).toThrow(`Invalid config ${file}: ignores: expected an array of globs, got "vendor".`);
    expect(() => validateConfig({ ignores: ['!keep.lua'] }, file)).toThrow(
      `Invalid config ${file}: ignores[0]: negated patterns ("!...") are not supported.`,
    );
    expect(() => validateConfig({ ignores: ['{a,b'] }, file)).toThrow(`Invalid config ${file}: ignores[0]: invalid glob "{a,b": Missing closing: "}" - use "\\\\}" to match literal characters.`);
    expect(() => validateConfig({ rule: {}, rules: { nope: 'off' } }, file)).toThrow(
      `Invalid config ${file}:\n` +
        '  - unknown property "rule"; did you mean "rules"?\n' +
        `  - rules.nope: unknown rule id (known: ${RULE_IDS.join(', ')})`,
    );
    expect(() => validateConfig({ ignore: [] }, file)).toThrow(`Invalid config ${file}: unknown property "ignore"; did you mean "ignores"?`);
    expect(() => validateConfig({ severity: {} }, file)).toThrow(
      `Invalid config ${file}: unknown property "severity" (allowed: rules, persistentKeys, ignores, includeRoot, allowOptionalTtl, strict, redisVersion).`,
    );
  });

  it("places each problem at its line and column when it has the file's text", () => {
    const text = '{\n  "rule": {},\n  "rules": { "no-persist": "loud", "no-getst": "off" },\n  "persistentKeys": [1, 0],\n  "ignores": ["!x"]\n}\n';
    expect(() => validateConfig(JSON.parse(text), file, text)).toThrow(
      `Invalid config ${file}:\n` +
        `  - ${file}:2:3: unknown property "rule"; did you mean "rules"?\n` +
        `  - ${file}:3:28: rules.no-persist: expected "off", "warn", "error", 0, 1 or 2, got "loud"\n` +
        `  - ${file}:3:36: rules.no-getst: unknown rule id; did you mean "no-getset"?\n` +
        `  - ${file}:4:25: persistentKeys[1]: expected a KEYS index (an integer >= 1) or a non-empty key pattern, got 0\n` +
        `  - ${file}:5:15: ignores[0]: negated patterns ("!...") are not supported`,
    );
    // a duplicated key: JSON.parse keeps the last, and so does the place
    const twice = '{ "rules": { "no-getst": "off", "no-getst": "warn" } }';
    expect(() => validateConfig(JSON.parse(twice), file, twice)).toThrow(`Invalid config ${file}:1:33: rules.no-getst: unknown rule id; did you mean "no-getset"?`);
  });
});

describe('ignore globs', () => {
  it('compiles *, **, ?, classes and braces over whole relative paths', () => {
    expect(compileIgnoreGlob('vendor/**')('vendor/a/b.lua')).toBe(true);
    expect(compileIgnoreGlob('vendor/**')('src/vendor/a.lua')).toBe(false);
    expect(compileIgnoreGlob('**/vendor/**')('src/vendor/a.lua')).toBe(true);
    expect(compileIgnoreGlob('**/*.gen.lua')('a.gen.lua')).toBe(true);
    expect(compileIgnoreGlob('*.lua')('a/b.lua')).toBe(false);
    expect(compileIgnoreGlob('test?.lua')('test1.lua')).toBe(true);
    expect(compileIgnoreGlob('[!a]*.lua')('a1.lua')).toBe(false);
    expect(compileIgnoreGlob('{old,legacy}/*.lua')('legacy/x.lua')).toBe(true);
    expect(compileIgnoreGlob('a.lua')('aXlua')).toBe(false);
  });

  it('matches relative to the base directory, a directory pattern ignoring what is below it', () => {
    const base = path.resolve('/proj');
    const ignored = createIgnoreMatcher(['legacy', 'build/', '**/*.gen.lua'], base);
    expect(ignored(path.join(base, 'legacy', 'deep', 'x.lua'))).toBe(true);
    expect(ignored(path.join(base, 'build', 'x.lua'))).toBe(true);
    expect(ignored(path.join(base, 'src', 'x.gen.lua'))).toBe(true);
    expect(ignored(path.join(base, 'src', 'legacy', 'x.lua'))).toBe(false);
    expect(ignored(path.resolve('/other/legacy/x.lua'))).toBe(false);
  });
});
