/**
 * The handed TS cases (`tests/fixtures/cases/ts`, copied verbatim from the shared cases): each file
 * is linted with the `recommended` config through ESLint's `Linter`, with and without type information, and
 * the set of (rule, line) findings must equal the file's `// expect: rule` and
 * `// expect-at N: embedded-lua` annotations exactly. Every message of the plugin's own rules is
 * at most 300 characters (`embedded-lua` reports lua-lint's messages, whose length lua-lint answers for).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { Linter as Linter9 } from 'eslint-v9';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';
import { expectedFindings } from '../helpers/expectations.js';

const fixturesRoot = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const casesDir = join(fixturesRoot, 'cases', 'ts');
const files = readdirSync(casesDir).filter((f) => f.endsWith('.ts')).sort();

/** The cases are judged with `recommended` (every rule but min-redis-version, which needs a setting). */
const recommendedRules = plugin.configs.recommended.rules ?? {};

/** ESLint 10 (the dev dependency) and ESLint 9 (`eslint-v9`, an npm alias): the plugin supports both. */
const LINTERS = { 'ESLint 10': Linter, 'ESLint 9': Linter9 as unknown as typeof Linter };

function lint(file: string, typed: boolean, LinterClass: typeof Linter): { findings: string[]; tooLong: string[] } {
  const linter = new LinterClass({ configType: 'flat' });
  const filename = join(casesDir, file);
  const messages = linter.verify(
    readFileSync(filename, 'utf8'),
    [
      {
        files: ['**/*.ts'],
        languageOptions: {
          parser: tsParser,
          parserOptions: typed ? { projectService: true, tsconfigRootDir: fixturesRoot } : {},
        },
        plugins: { 'redis-ttl': plugin },
        rules: recommendedRules,
      },
    ],
    { filename },
  );
  const fatal = messages.find((m) => m.fatal || m.ruleId === null);
  if (fatal) throw new Error(`${file}: ${fatal.message}`);
  return {
    findings: messages.map((m) => `${m.ruleId!.replace(/^redis-ttl\//, '')}@${m.line}`).sort(),
    tooLong: messages.filter((m) => m.ruleId !== 'redis-ttl/embedded-lua' && m.message.length > 300).map((m) => `${m.message.length}: ${m.message}`),
  };
}

describe('handed TS cases', () => {
  it('has the thirty handed files', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });
  for (const [version, LinterClass] of Object.entries(LINTERS)) {
    for (const typed of [false, true]) {
      describe(`${version}, ${typed ? 'with' : 'without'} type information`, () => {
        for (const file of files) {
          it(file, () => {
            const source = readFileSync(join(casesDir, file), 'utf8');
            const { findings, tooLong } = lint(file, typed, LinterClass);
            expect(findings).toEqual(expectedFindings(source, '//'));
            expect(tooLong).toEqual([]);
          });
        }
      });
    }
  }
});

/**
 * The handed host cases in JS/TS (`tests/fixtures/cases/hosts/*.ts`), written for `lua-lint`: a
 * `// expect: <lua rule>` marks the host line where a finding of the embedded script starts. Linted
 * with `recommended`, each is an `embedded-lua` finding on that line whose lua-lint rule id is the
 * annotated one, and there is nothing else.
 */
describe('handed host cases (JS/TS), through embedded-lua', () => {
  const hostsDir = join(fixturesRoot, 'cases', 'hosts');
  const hostFiles = readdirSync(hostsDir).filter((f) => /\.[cm]?[jt]sx?$/.test(f)).sort();
  it('has the handed TS host file', () => expect(hostFiles).toEqual(['02-ts-sendcommand-array-eval.ts']));
  for (const typed of [false, true]) {
    for (const file of hostFiles) {
      it(`${file}, ${typed ? 'with' : 'without'} type information`, () => {
        const filename = join(hostsDir, file);
        const source = readFileSync(filename, 'utf8');
        const messages = new Linter({ configType: 'flat' }).verify(
          source,
          [
            {
              files: ['**/*.ts'],
              languageOptions: { parser: tsParser, parserOptions: typed ? { projectService: true, tsconfigRootDir: fixturesRoot } : {} },
              plugins: { 'redis-ttl': plugin },
              rules: recommendedRules,
            },
          ],
          { filename },
        );
        const found = messages.map((m) => (m.ruleId === 'redis-ttl/embedded-lua' ? `${/^\[([\w-]+)\]/.exec(m.message)?.[1] ?? '?'}@${m.line}` : `${m.ruleId ?? 'fatal'}@${m.line}`));
        expect(found.sort()).toEqual(expectedFindings(source, '//'));
      });
    }
  }
});
