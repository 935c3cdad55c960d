/**
 * The `ignores` globs of a config file. A pattern is matched against a file's path relative to the
 * config file's directory, with `/` separators; a pattern that matches a directory ignores
 * everything below it. Matching is picomatch's: `*` (within a path segment), `**` (any number of
 * segments), `?`, `[abc]` / `[!abc]`, `{a,b}` and `\` to escape. As in ESLint's flat config, a
 * pattern without `**` is anchored at the config directory: use `**\/name` for "at any depth".
 */
import picomatch from 'picomatch';
import { relativeInside } from './paths.js';

/**
 * Compiles one `ignores` glob (picomatch syntax, dot files included; a leading `./` or `/` and
 * trailing `/` are dropped) into a predicate over a whole relative path with `/` separators.
 * @throws Error with picomatch's reason when the glob is malformed (an unclosed `{` or `[`).
 */
export function compileIgnoreGlob(glob: string): (relativePath: string) => boolean {
  const pattern = glob.replace(/^\.\//, '').replace(/^\//, '').replace(/\/+$/, '');
  return picomatch(pattern, { dot: true, posix: true, strictBrackets: true });
}

/**
 * A predicate telling whether an absolute file path is ignored by `patterns` relative to `baseDir`.
 * Files outside `baseDir` are never ignored.
 */
export function createIgnoreMatcher(patterns: readonly string[], baseDir: string): (filePath: string) => boolean {
  if (patterns.length === 0) return () => false;
  const matchers = patterns.map(compileIgnoreGlob);
  return (filePath) => {
    const relative = relativeInside(baseDir, filePath);
    if (relative === undefined) return false;
    const segments = relative.split('/');
    // The file itself, then each directory above it: `vendor` or `vendor/` ignores `vendor/a.lua`.
    for (let end = segments.length; end > 0; end--) {
      const candidate = segments.slice(0, end).join('/');
      if (matchers.some((matches) => matches(candidate))) return true;
    }
    return false;
  };
}
