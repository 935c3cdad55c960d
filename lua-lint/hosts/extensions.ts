/**
 * Which files lua-lint reads as host-language source (scripts embedded in code) rather than Lua.
 * Kept apart from the extractors so that the CLI's file discovery loads nothing else.
 */
import path from 'node:path';

/** The host languages, by id. */
export type HostLanguageId = 'go' | 'python' | 'ruby' | 'php' | 'java' | 'csharp' | 'javascript' | 'typescript';

/** File extensions (lower case, with the dot) of the host languages. */
export const HOST_EXTENSIONS: Readonly<Record<string, HostLanguageId>> = {
  '.go': 'go',
  '.py': 'python',
  '.rb': 'ruby',
  '.php': 'php',
  '.java': 'java',
  '.cs': 'csharp',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescript',
};

/** The host language of a file, by its extension; `undefined` for `.lua`, `.d.ts` and anything else. */
export function hostLanguageOf(filePath: string): HostLanguageId | undefined {
  if (/\.d\.[mc]?ts$/i.test(filePath)) return undefined;
  return HOST_EXTENSIONS[path.extname(filePath).toLowerCase()];
}

/** The glob a directory on the command line expands to: Lua files and host-language files. */
export const SOURCE_GLOB = `**/*.{lua,${Object.keys(HOST_EXTENSIONS).map((e) => e.slice(1)).join(',')}}`;

/**
 * Left out of directory walks: declaration files, and the folders where the host languages keep
 * their dependencies and generated code, as `node_modules` is for JavaScript (Composer's, Go's and
 * Bundler's `vendor/`, Python virtual environments, .NET's `obj/`). Naming such a file or a
 * glob into it still lints it.
 */
export const HOST_WALK_IGNORES: readonly string[] = [
  '**/*.d.{ts,mts,cts}',
  '**/vendor/**/*.{php,go,rb}',
  '**/{.venv,venv,site-packages}/**/*.py',
  '**/obj/**/*.cs',
];
