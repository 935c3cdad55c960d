/** The README's code blocks, read by the consumer tests so that README and tests cannot drift. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/build.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/**
 * The first fenced block of `language` after the first occurrence of `marker` in README.md.
 * @throws {Error} when there is none (the README changed: the test must follow).
 */
export function readmeBlock(marker: string, language: string): string {
  const at = README.indexOf(marker);
  if (at === -1) throw new Error(`README.md has no "${marker}"`);
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(README.slice(at));
  if (match === null) throw new Error(`README.md has no \`\`\`${language} block after "${marker}"`);
  return match[1]!;
}

/** The README's shell commands of a block: one per line, comments and blank lines dropped. */
export function commands(block: string): string[] {
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
