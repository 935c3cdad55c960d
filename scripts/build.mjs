// Builds both packages from a clean slate: the runtime (redis-ttl-runtime, runtime/dist/) and the
// ESLint plugin with lua-lint and redis-ttl-audit (dist/). A clean build, so that no file of an
// older layout (or a source map) ends up in a tarball.
//
//   node scripts/build.mjs            both packages (npm run build: npm ci's prepare, npm pack's prepack)
//   node scripts/build.mjs --runtime  the runtime only (its own npm run build / prepack)
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { generateLuaModule } from './generate-lua-module.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compile = (project) => execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });

generateLuaModule();
rmSync(path.join(root, 'runtime/dist'), { recursive: true, force: true });
compile('runtime/tsconfig.build.json');
if (!process.argv.includes('--runtime')) {
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  compile('tsconfig.build.json');
  for (const bin of ['dist/lua-lint/cli/bin.js', 'dist/audit/cli/bin.js', 'dist/keys/cli/bin.js']) chmodSync(path.join(root, bin), 0o755);
  rootSpecifiersInDeclarations(path.join(root, 'dist'));
}

/**
 * TypeScript's declaration emit names the rule types by typescript-eslint's subpath export
 * (`import("@typescript-eslint/utils/ts-eslint").RuleModule`), which `moduleResolution: node10`
 * cannot resolve (no `exports` support). The package root exports the same namespace as
 * `TSESLint`, which every resolution mode finds: rewrite to that (tested by tests/consumer/).
 */
function rootSpecifiersInDeclarations(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    const fixed = text.replaceAll('import("@typescript-eslint/utils/ts-eslint")', 'import("@typescript-eslint/utils").TSESLint');
    if (/["']@typescript-eslint\/utils\/[^"']+["']/.test(fixed)) throw new Error(`${file}: a typescript-eslint subpath import that node10 resolution cannot follow`);
    if (fixed !== text) writeFileSync(file, fixed);
  }
}
