// No source file of the repository grows past 1,200 lines (tests, benches, fixtures and Lua
// included): past that a file holds more than one concern, and a change is hard to place. Split it
// by concern, as lua-lint/walk/ splits the walk (its modules' headers say what lives where).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_LINES = 1200;
/** Source code, by extension (data, docs and lock files are not source). */
const SOURCE = /\.(?:[cm]?[jt]s|lua|sh|go|py|rb|php|java|cs)$/;

/** The repository's files: tracked, and new ones not ignored (a file not committed yet counts too). */
function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  return [...new Set(listed.split('\0'))].filter((file) => file && existsSync(path.join(root, file)));
}

/** Lines as `wc -l` counts them, plus a last line without a newline. */
function lineCount(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.length > 0 && !text.endsWith('\n') ? lines + 1 : lines;
}

describe('file size', () => {
  it('counts lines as wc -l does, a last line without newline included', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\n\n')]).toEqual([0, 1, 1, 2, 2]);
  });

  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const sources = repositoryFiles().filter((file) => SOURCE.test(file) || file === '.ci/run');
    // the listing is the repository's, not an empty one
    expect(sources).toEqual(expect.arrayContaining(['lua-lint/walk/walker.ts', 'tests/project/file-size.test.ts', 'runtime/scripts/cache_set.lua', '.ci/run']));
    const tooLong = sources
      .map((file) => ({ file, lines: lineCount(readFileSync(path.join(root, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(tooLong).toEqual([]);
  });
});
