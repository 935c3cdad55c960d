/**
 * Runs once before the test files: compiles runtime/scripts/*.lua into runtime/lua.generated.ts,
 * which the runtime imports, so that tests run from the sources always see the current scripts
 * (no build needed after editing a .lua file).
 */
import { generateLuaModule } from '../../scripts/generate-lua-module.mjs';

export default function setup(): void {
  generateLuaModule();
}
