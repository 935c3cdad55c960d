/**
 * The lua-lint of another commit, compiled as `npm run build` compiles it, for side-by-side runs
 * of the benchmarks: `git archive <commit>` of the folders lua-lint imports (semantics, lua-lint,
 * cli, text, redis-calls, rules: those the commit has) with package.json and tsconfig.json,
 * extracted into `.bench-tmp/lua-lint-baseline/<commit>/` and compiled there with tsc (once per
 * commit; dependencies resolve to this checkout's node_modules).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Compiles lua-lint at `commit` (anything `git rev-parse` takes) unless already done.
 * @returns the folder of its compiled files: `<dir>/lua-lint/index.js`, `<dir>/lua-lint/cli/bin.js`.
 * @throws Error when the commit is unknown or does not compile.
 */
export function buildBaseline(commit: string): string {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${commit}^{commit}`], { cwd: root, encoding: 'utf8' }).trim();
  const dir = join(root, '.bench-tmp', 'lua-lint-baseline', sha.slice(0, 12));
  const out = join(dir, 'dist');
  if (existsSync(join(out, 'lua-lint', 'cli', 'bin.js'))) return out;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // the folders lua-lint imports, as the commit has them: rules/ held the JS/TS extraction from
  // issue 16 until bdfc82b, which moved it to redis-calls/ (with text/)
  const top = execFileSync('git', ['ls-tree', '--name-only', sha], { cwd: root, encoding: 'utf8' }).split('\n');
  const folders = ['semantics', 'lua-lint', 'cli', 'text', 'redis-calls', 'rules'].filter((folder) => top.includes(folder));
  const paths = [...folders, 'package.json', 'tsconfig.json'];
  const archive = execFileSync('git', ['archive', sha, ...paths], { cwd: root, maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  writeFileSync(
    join(dir, 'tsconfig.bench.json'),
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: { noEmit: false, sourceMap: false, inlineSources: false, declaration: false, outDir: 'dist' },
      include: ['semantics', 'lua-lint', 'cli'],
      exclude: ['**/*.test.ts'],
    }),
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.bench.json')], { cwd: dir, stdio: 'inherit' });
  return out;
}
