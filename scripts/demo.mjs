// `npm run demo`: the two analyzers on the bundled examples, as a first run on a fresh clone
// (after `npm ci`, which builds dist/). lua-lint checks examples/scripts/*.lua, ESLint with the
// plugin's recommended config checks the TypeScript of examples/app. Both print their findings;
// the examples leak on purpose (3 of the 10 scripts, 4 calls in the app), so findings are the
// expected outcome: the demo exits 0 when both tools ran and found exactly those, 1 otherwise, 2
// when dist/ is missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const luaLint = path.join(root, 'dist/lua-lint/cli/bin.js');
if (!existsSync(luaLint)) {
  process.stderr.write('demo: dist/ is missing: run `npm ci` (or `npm run build`) first.\n');
  process.exit(2);
}

process.stdout.write('$ lua-lint examples/scripts\n');
let luaExit = 0;
try {
  execFileSync(process.execPath, [luaLint, 'examples/scripts'], { cwd: root, stdio: 'inherit' });
} catch (error) {
  luaExit = error.status ?? 2;
}

process.stdout.write('\n$ eslint examples/app  (the plugin\'s recommended config, TypeScript parser)\n');
const { ESLint } = await import('eslint');
const { default: tseslint } = await import('typescript-eslint');
const { default: redisTtl } = await import(path.join(root, 'dist/rules/index.js'));
const eslint = new ESLint({
  cwd: path.join(root, 'examples/app'),
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, redisTtl.configs.recommended],
});
const results = await eslint.lintFiles(['src/**/*.ts']);
const formatter = await eslint.loadFormatter('stylish');
process.stdout.write(await formatter.format(results));
const eslintFindings = results.reduce((n, r) => n + r.messages.length, 0);

const expected = luaExit === 1 && eslintFindings === 4;
process.stdout.write(
  expected
    ? '\nAs expected: the examples leak on purpose (see examples/scripts/README.md and examples/app/README.md).\n' +
        'lua-lint exits 1 on findings; `npm test` runs the test suite.\n'
    : `\nUnexpected: lua-lint exited ${luaExit} (expected 1), ESLint found ${eslintFindings} problems (expected 4).\n`,
);
process.exitCode = expected ? 0 : 1;
