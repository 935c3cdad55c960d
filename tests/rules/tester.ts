/**
 * RuleTester set-up shared by the rule tests: vitest hooks, an untyped tester
 * (`@typescript-eslint/parser` without a project) and a typed one (project service over
 * `tests/rules/fixtures`), and small code builders for each client.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester, type RunTests } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';

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
}
