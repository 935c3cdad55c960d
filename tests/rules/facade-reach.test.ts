/**
 * Facades whose callers cannot be found (issue 25, this round): a pass-through facade is left
 * alone where it is only when its callers are judged instead. In an application (a `package.json`
 * with `"private": true`, or whose `main` is its `bin`), that needs a call of it somewhere in the
 * application that the rules resolve to it; a facade no caller reaches (its only caller holds it
 * through a config object) is judged at the facade, or its leak would be reported nowhere. A call
 * from a test does not count, and a facade nothing calls by its name (dead code) stays left alone. In a library, the facade is the package's API, called by code
 * outside it: it stays left alone. The fixtures are in tests/fixtures/facade-apps.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import { runRule, untypedTester } from './tester.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'facade-apps');
const file = (path: string) => ({ code: readFileSync(join(fixtures, path), 'utf8'), filename: join(fixtures, path) });

runRule(untypedTester, 'incr-needs-expire-on-create (facades whose callers cannot be found)', incrRule, {
  valid: [
    // a library's facade: its callers are other people's code
    file('lib/src/cache.js'),
    // the application's facade with a caller the rules follow (presence.ts, judged there), and
    // one with no caller but a test (dead code): left alone
    { ...file('web/lib/store.ts'), code: file('web/lib/store.ts').code.replace(/ {2}hset\(key[^]*?\n {2}\}\n/, '') },
  ],
  invalid: [
    // an application (main is its bin) whose facade's only caller holds it through a config object
    {
      ...file('server/utils/cache.js'),
      errors: [
        {
          messageId: 'noExpiry',
          line: 14,
          column: 27,
          suggestions: [{ messageId: 'wrapInMulti', output: file('server/utils/cache.js').code.replace('this.client.incr(key)', 'this.client.multi().incr(key).expire(key, TTL_SECONDS).exec()') }],
        },
      ],
    },
    // an application (private) whose `hset` facade has a caller the rules cannot resolve
    { ...file('web/lib/store.ts'), errors: [{ messageId: 'noExpiry', line: 14, column: 18 }] },
    // the caller the rules follow, judged with its key
    { ...file('web/lib/presence.ts'), errors: [{ messageId: 'noExpiry', line: 5, column: 57 }] },
    // strict judges every facade where it is
    {
      ...file('lib/src/cache.js'),
      options: [{ allowPassThrough: false }],
      errors: [{ messageId: 'noExpiry', line: 7, column: 66, suggestions: [] }],
    },
  ],
});

// The same application linted as ESLint lints JavaScript by default (espree): the caller's module
// is read with espree too, and a module declaring a class must be analysed.
describe('facades whose callers cannot be found, JavaScript parsed by espree', () => {
  it('reports the facade whose only caller holds it through a config object', () => {
    const linter = new Linter({ configType: 'flat', cwd: fixtures });
    const { code, filename } = file('server/utils/cache.js');
    const messages = linter.verify(
      code,
      [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' }, plugins: { t: { rules: { incr: incrRule as never } } }, rules: { 't/incr': 'error' } }],
      { filename },
    );
    expect(messages.map((m) => [m.line, m.column, m.messageId])).toEqual([[14, 27, 'noExpiry']]);
  });
});
