// Builds both packages from a clean slate: the runtime (redis-ttl-runtime, runtime/dist/) and the
// ESLint plugin with lua-lint and redis-ttl-audit (dist/). A clean build, so that no file of an
// older layout (or a source map) ends up in a tarball.
//
//   node scripts/build.mjs            both packages (npm run build, npm's prepare)
//   node scripts/build.mjs --runtime  the runtime only (its own npm run build / prepack)
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
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
  for (const bin of ['dist/lua-lint/cli/bin.js', 'dist/audit/cli/bin.js']) chmodSync(path.join(root, bin), 0o755);
}
