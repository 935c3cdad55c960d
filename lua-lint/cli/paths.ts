/** Path helpers shared by file expansion, ignores and formatters. */
import path from 'node:path';

/**
 * The path of `filePath` relative to `baseDir` with `/` separators, or `undefined` when the file
 * is not strictly inside `baseDir` (outside it, on another drive, or `baseDir` itself).
 */
export function relativeInside(baseDir: string, filePath: string): string | undefined {
  const relative = path.relative(baseDir, filePath);
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/** A path as users typed it: relative to `cwd` when inside it, else absolute. */
export function displayPath(filePath: string, cwd: string): string {
  return relativeInside(cwd, filePath) ?? filePath;
}
