// Copies the runtime's Lua scripts next to the compiled helpers and makes the CLIs executable.
import { chmodSync, cpSync, existsSync } from 'node:fs';

cpSync('runtime/scripts', 'dist/runtime/scripts', { recursive: true });
for (const bin of ['dist/lua-lint/cli/bin.js', 'dist/audit/cli/bin.js']) {
  if (existsSync(bin)) chmodSync(bin, 0o755);
}
