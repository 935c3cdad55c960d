/**
 * The handed TS cases (`tests/fixtures/cases/ts`, copied verbatim from the shared cases): each file
 * is linted with all four rules through ESLint's `Linter`, with and without type information, and
 * the set of (rule, line) findings must equal the file's `// expect: rule` and
 * `// expect-at N: embedded-lua` annotations exactly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const fixturesRoot = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const casesDir = join(fixturesRoot, 'cases', 'ts');
const files = readdirSync(casesDir).filter((f) => f.endsWith('.ts')).sort();

/** The expected findings of a case file as sorted `rule@line` strings. */
function expectedFindings(source: string): string[] {
  const out: string[] = [];
  source.split('\n').forEach((line, index) => {
    const at = /\/\/\s*expect-at\s+(\d+):\s*([\w-]+(?:\s*,\s*[\w-]+)*)/.exec(line);
    if (at) {
      for (const rule of at[2]!.split(',')) out.push(`${rule.trim()}@${at[1]}`);
      return;
    }
    const here = /\/\/\s*expect:\s*([\w-]+(?:\s*,\s*[\w-]+)*)\s*$/.exec(line);
    if (here) for (const rule of here[1]!.split(',')) out.push(`${rule.trim()}@${index + 1}`);
  });
  return out.sort();
}

const allRules = Object.fromEntries(Object.keys(plugin.rules).map((name) => [`redis-ttl/${name}`, 'error' as const]));

function lint(file: string, typed: boolean): string[] {
  const linter = new Linter({ configType: 'flat' });
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
        rules: allRules,
      },
    ],
    { filename },
  );
  const fatal = messages.find((m) => m.fatal || m.ruleId === null);
  if (fatal) throw new Error(`${file}: ${fatal.message}`);
  return messages.map((m) => `${m.ruleId!.replace(/^redis-ttl\//, '')}@${m.line}`).sort();
}

describe('handed TS cases', () => {
  it('has the fourteen handed files', () => {
    expect(files.length).toBeGreaterThanOrEqual(14);
  });
  for (const typed of [false, true]) {
    describe(typed ? 'with type information' : 'without type information', () => {
      for (const file of files) {
        it(file, () => {
          const source = readFileSync(join(casesDir, file), 'utf8');
          expect(lint(file, typed)).toEqual(expectedFindings(source));
        });
      }
    });
  }
});
