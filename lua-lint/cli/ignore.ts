/**
 * The `ignores` globs of a config file. A pattern is matched against a file's path relative to the
 * config file's directory, with `/` separators; a pattern that matches a directory ignores
 * everything below it. Supported syntax: `*` (within a path segment), `**` (any number of
 * segments), `?`, `[abc]` / `[!abc]`, `{a,b}` and `\` to escape. As in ESLint's flat config, a
 * pattern without `**` is anchored at the config directory: use `**\/name` for "at any depth".
 */
import { relativeInside } from './paths.js';

const REGEXP_SPECIAL = /[.+^${}()|[\]\\/]/;

/**
 * Compiles one glob into a regular expression over a whole relative path.
 * @throws Error with a short reason when the glob is malformed (an unclosed `{`).
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let braces = 0;
  const pattern = glob.replace(/^\.\//, '').replace(/^\//, '').replace(/\/+$/, '');
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === '\\' && i + 1 < pattern.length) {
      source += escapeChar(pattern[++i] as string);
    } else if (char === '*') {
      if (pattern[i + 1] === '*') {
        const atSegmentStart = i === 0 || pattern[i - 1] === '/';
        if (atSegmentStart && pattern[i + 2] === '/') {
          source += '(?:[^/]*/)*'; // `**/`: any number of leading directories, including none
          i += 2;
        } else if (atSegmentStart && i + 2 === pattern.length) {
          source += '.*'; // trailing `**`
          i += 1;
        } else {
          source += '[^/]*'; // `a**b` is just a `*` inside a segment
          i += 1;
        }
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
      } else {
        let body = pattern.slice(i + 1, close);
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        source += `[${body.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (char === '{') {
      braces++;
      source += '(?:';
    } else if (char === '}' && braces > 0) {
      braces--;
      source += ')';
    } else if (char === ',' && braces > 0) {
      source += '|';
    } else {
      source += escapeChar(char);
    }
  }
  if (braces > 0) throw new Error('unclosed "{"');
  return new RegExp(`^${source}$`);
}

function escapeChar(char: string): string {
  return REGEXP_SPECIAL.test(char) ? `\\${char}` : char;
}

/**
 * A predicate telling whether an absolute file path is ignored by `patterns` relative to `baseDir`.
 * Files outside `baseDir` are never ignored.
 */
export function createIgnoreMatcher(patterns: readonly string[], baseDir: string): (filePath: string) => boolean {
  if (patterns.length === 0) return () => false;
  const regexps = patterns.map(globToRegExp);
  return (filePath) => {
    const relative = relativeInside(baseDir, filePath);
    if (relative === undefined) return false;
    const segments = relative.split('/');
    // The file itself, then each directory above it: `vendor` or `vendor/` ignores `vendor/a.lua`.
    for (let end = segments.length; end > 0; end--) {
      const candidate = segments.slice(0, end).join('/');
      if (regexps.some((regexp) => regexp.test(candidate))) return true;
    }
    return false;
  };
}
