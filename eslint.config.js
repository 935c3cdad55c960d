// Lints the project's own TypeScript, and keeps its layers apart (see "Layers" below).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** The project's own folders (everything else a source file imports is a package). */
const OURS = ['audit', 'bench', 'cli', 'lua-lint', 'redis-calls', 'rules', 'runtime', 'semantics', 'tests', 'text'];

/** A zone of `import-x/no-restricted-paths`: files under `target` import nothing of ours from outside `allowed`. */
const onlyFrom = (target, allowed, message) => ({
  target: `./${target}`,
  from: OURS.filter((folder) => !allowed.includes(folder)).map((folder) => `./${folder}`),
  message,
});

// Layers (README "Layout"): semantics/, text/ and cli/ at the bottom; redis-calls/; lua-lint/,
// audit/ and runtime/; rules/ on top; bench/ and tests/ over everything. A lower layer never imports
// a higher one, and no module imports itself back through others (no cycle).
const LAYERS = [
  ...['lua-lint', 'redis-calls', 'semantics', 'text', 'cli', 'audit', 'runtime'].map((target) => ({
    target: `./${target}`,
    from: './rules',
    message: 'rules/ (the ESLint plugin) sits on top: move what both need below it (redis-calls/, semantics/).',
  })),
  onlyFrom('semantics', ['semantics'], 'semantics/ holds the Redis facts and imports nothing of ours outside itself.'),
  onlyFrom('text', ['text'], 'text/ imports nothing of ours outside itself.'),
  onlyFrom('runtime', ['runtime'], 'runtime/ is the separate package redis-ttl-runtime: it imports nothing outside runtime/.'),
  { target: './lua-lint', from: './audit', message: 'lua-lint/ and audit/ are separate front ends: share code through a lower layer.' },
  { target: './audit', from: './lua-lint', message: 'lua-lint/ and audit/ are separate front ends: share code through a lower layer.' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'runtime/dist/**', 'runtime/lua.generated.ts', 'node_modules/**', '.bench-tmp/**', '.audit-demo-tmp/**', 'tests/fixtures/**', 'examples/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.ts', '**/*.mts', '**/*.js', '**/*.mjs'],
    plugins: { 'import-x': importX },
    settings: {
      // what import-x parses to follow imports: TypeScript through typescript-eslint's parser
      'import-x/extensions': ['.ts', '.mts', '.js', '.mjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.mts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      // type-only imports are erased at compile time and are not followed
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: LAYERS }],
    },
  },
);
