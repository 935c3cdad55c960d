/**
 * One memo per file for the readings that scan modules from disk (the importer walk, the word
 * search of `uncalled.ts`, `import-callers.ts`): a value derived from a file is kept until the
 * file's modification time changes, so an editor's long-lived ESLint process sees edits.
 */
import { statSync } from 'node:fs';

/** Files a memo keeps before it starts over (a bound on memory in a long-lived process). */
const MAX_FILES = 20_000;

/**
 * A function of a file's path that returns `derive(path, mtimeMs)` (`mtimeMs`: the file's
 * modification time in milliseconds), computed once per path and modification time, or
 * `missing` when the file cannot be stat'ed (it does not exist, or is unreadable). At most
 * `maxFiles` paths ({@link MAX_FILES} unless said) are kept; past that the memo is cleared. `derive` should not throw.
 */
export function fileMemo<T>(derive: (path: string, mtimeMs: number) => T, missing: T, maxFiles = MAX_FILES): (path: string) => T {
  const byFile = new Map<string, { mtimeMs: number; value: T }>();
  return (path) => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      return missing;
    }
    const cached = byFile.get(path);
    if (cached && cached.mtimeMs === mtimeMs) return cached.value;
    const value = derive(path, mtimeMs);
    if (byFile.size > maxFiles) byFile.clear();
    byFile.set(path, { mtimeMs, value });
    return value;
  };
}
