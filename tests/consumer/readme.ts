/**
 * The code blocks of README.md and the docs pages, read by the tests so that the text users copy
 * and the tests cannot drift: wherever a block lives, the test reads it there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/build.js';

/**
 * The first fenced block of `language` after the first occurrence of `marker` in `page`, a path
 * relative to the repository root (`'README.md'`, `'docs/configuration.md'`).
 * @throws {Error} when there is none (the page changed: the test must follow).
 */
export function docBlock(page: string, marker: string, language: string): string {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const at = text.indexOf(marker);
  if (at === -1) throw new Error(`${page} has no "${marker}"`);
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(text.slice(at));
  if (match === null) throw new Error(`${page} has no \`\`\`${language} block after "${marker}"`);
  return match[1]!;
}

/** The first fenced block of `language` after `marker` in README.md (see {@link docBlock}). */
export function readmeBlock(marker: string, language: string): string {
  return docBlock('README.md', marker, language);
}

/** The shell commands of a block: one per line, comments and blank lines dropped. */
export function commands(block: string): string[] {
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
