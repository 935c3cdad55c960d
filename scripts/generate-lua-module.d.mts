/** Writes runtime/lua.generated.ts from runtime/scripts/*.lua; true when its content changed. */
export function generateLuaModule(): boolean;
