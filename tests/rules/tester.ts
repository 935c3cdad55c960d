/**
 * RuleTester set-up shared by the rule tests: vitest hooks, an untyped tester
 * (`@typescript-eslint/parser` without a project) and a typed one (project service over
 * `tests/rules/fixtures`), and small code builders for each client.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { RuleTester, type RunTests } from '@typescript-eslint/rule-tester';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

/** Where the typed tests' tsconfig lives. */
export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** `@typescript-eslint/parser` without type information. */
export const untypedTester = new RuleTester();

/** `@typescript-eslint/parser` with the project service: receivers are judged by their types. */
export const typedTester = new RuleTester({
  languageOptions: {
    parserOptions: {
      projectService: { allowDefaultProject: ['*.ts*'] },
      tsconfigRootDir: fixturesDir,
    },
  },
});

/** Code with an ioredis client named `redis` declared on lines 1-2; `body` starts on line 3. */
export const ioredis = (body: string): string => `import Redis from 'ioredis';\nconst redis = new Redis();\n${body}`;
/** Code with a node-redis client named `client` declared on lines 1-2; `body` starts on line 3. */
export const nodeRedis = (body: string): string =>
  `import { createClient } from 'redis';\nconst client = createClient();\n${body}`;
/** Code with an upstash client named `redis` declared on lines 1-2; `body` starts on line 3. */
export const upstash = (body: string): string =>
  `import { Redis } from '@upstash/redis';\nconst redis = Redis.fromEnv();\n${body}`;

/** Settings declaring `patterns` persistent: `{ 'redis-ttl': { persistentKeys: patterns } }`. */
export const persistentSettings = (...patterns: string[]) => ({ 'redis-ttl': { persistentKeys: patterns } });

/**
 * A `set-requires-ttl-or-keepttl` `setWithoutTtl` finding at `line`:`column` of `code`, with its two
 * suggestions added after the first `, v);` of `code` (an expiry of `TTL_SECONDS`, then KEEPTTL).
 */
export function setWithoutTtlAt(code: string, line: number, column: number) {
  const withArgs = (args: string) => code.replace(/, v\);/, `, v, ${args});`);
  return {
    messageId: 'setWithoutTtl' as const,
    line,
    column,
    suggestions: [
      { messageId: 'addExpiryPlaceholder' as const, output: withArgs("'EX', TTL_SECONDS") },
      { messageId: 'addKeepTtl' as const, output: withArgs("'KEEPTTL'") },
    ],
  };
}

/**
 * The two suggestions of a SET without expiry in ioredis syntax (an expiry of the `TTL_SECONDS`
 * constant to declare, then KEEPTTL) for the first `call` in `code`, where `call` ends after the
 * value (`redis.set(k, v` or `send('SET', [k, v`).
 */
export function setSuggestions(code: string, call: string) {
  return [
    { messageId: 'addExpiryPlaceholder' as const, output: code.replace(call, `${call}, 'EX', TTL_SECONDS`) },
    { messageId: 'addKeepTtl' as const, output: code.replace(call, `${call}, 'KEEPTTL'`) },
  ];
}

/** Line and column (1-based) of the first `text` in `code`: where a finding on the call whose method starts `text` is reported. */
export function positionOf(code: string, text: string): { line: number; column: number } {
  const offset = code.indexOf(text);
  if (offset < 0) throw new Error(`${text} not in the code`);
  const before = code.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/**
 * An `incr-needs-expire-on-create` `noExpiry` finding on the awaited call `call` (the method and
 * its opening parenthesis) of `client`, with its suggestion: the call and an EXPIRE of `key` in
 * one MULTI.
 */
export function noExpiryWithMulti(code: string, call: string, key: string, client = 'redis') {
  return {
    messageId: 'noExpiry' as const,
    ...positionOf(code, call),
    suggestions: [{ messageId: 'wrapInMulti' as const, output: code.replace(`${client}.${call}`, `${client}.multi().${call}.expire(${key}, TTL_SECONDS).exec()`) }],
  };
}

/** An `incr-needs-expire-on-create` `noExpiry` finding on a call whose value the function returns (no MULTI suggestion there). */
export function noExpiryReturned(code: string, call: string) {
  return { messageId: 'noExpiry' as const, ...positionOf(code, call) };
}

/**
 * `tester.run` for our rules. `@typescript-eslint/rule-tester` (8.72, the newest published) bundles
 * its own copy of `@typescript-eslint/utils`, whose AST types differ nominally from the 8.74 the
 * rules are built with; the objects are the same at runtime, so only the static type is bridged.
 */
export function runRule<MessageIds extends string, Options extends readonly unknown[]>(
  tester: RuleTester,
  name: string,
  rule: { meta: { messages: Record<MessageIds, string> }; defaultOptions?: Readonly<Options> },
  tests: RunTests<MessageIds, Options>,
): void {
  (tester.run as (name: string, rule: unknown, tests: RunTests<MessageIds, Options>) => void).call(tester, name, rule, tests);
  if (tester === untypedTester) relintAppliedEdits(name, rule, tests);
}

/**
 * Every suggestion and fix the rule offers on its invalid cases must lint clean once applied:
 * applying one removes at least the finding it was offered for and adds none (the rule is run
 * again on the edited code, with the case's options and settings).
 */
function relintAppliedEdits<MessageIds extends string, Options extends readonly unknown[]>(
  name: string,
  rule: unknown,
  tests: RunTests<MessageIds, Options>,
): void {
  describe(`${name}: every suggestion and fix lints clean once applied`, () => {
    it(`${tests.invalid.length} invalid cases`, () => {
      const linter = new Linter({ configType: 'flat' });
      let edits = 0;
      for (const test of tests.invalid) {
        const config: Linter.Config[] = [
          {
            files: ['**/*.ts', '**/*.js'],
            languageOptions: { parser: tsParser },
            plugins: { t: { rules: { [name.replace(/ \(.*\)$/, '')]: rule as never } } },
            rules: { [`t/${name.replace(/ \(.*\)$/, '')}`]: ['error', ...((test.options ?? []) as unknown[])] },
            ...(test.settings ? { settings: test.settings as Record<string, unknown> } : {}),
          },
        ];
        const filename = test.filename ?? 'file.ts';
        const lint = (code: string) => linter.verify(code, config, { filename }).filter((m) => m.ruleId !== null);
        const before = lint(test.code);
        for (const message of before) {
          for (const suggestion of message.suggestions ?? []) {
            const edited = test.code.slice(0, suggestion.fix.range[0]) + suggestion.fix.text + test.code.slice(suggestion.fix.range[1]);
            const after = lint(edited);
            expect(after.length, `${test.code}\n-- suggestion ${suggestion.messageId} -->\n${edited}\n${after.map((m) => m.message).join('\n')}`).toBeLessThan(before.length);
            edits++;
          }
        }
        const fixed = linter.verifyAndFix(test.code, config, { filename });
        if (fixed.fixed) {
          const after = lint(fixed.output);
          expect(after.length, `${test.code}\n-- fix -->\n${fixed.output}`).toBeLessThan(before.length);
          edits++;
        }
      }
      // every suggestion the cases declare, and every fix they expect, was applied and re-linted
      const declared = tests.invalid.reduce(
        (sum, test) =>
          sum +
          (typeof test.errors === 'number' ? 0 : test.errors.reduce((n, e) => n + (Array.isArray(e.suggestions) ? e.suggestions.length : 0), 0)) +
          // a fix expected as one output, or as the outputs of several passes
          ((typeof test.output === 'string' && test.output !== test.code) || Array.isArray(test.output) ? 1 : 0),
        0,
      );
      expect(edits).toBe(declared);
    });
  });
}
