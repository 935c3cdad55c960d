/**
 * Robustness: every rule runs over the installed Redis clients' own JavaScript (code none of us
 * wrote, full of `set` / `get` / `eval` calls on all kinds of receivers) without throwing.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every `.js` file under a directory (no `.d.ts`, no source maps). */
export function jsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...jsFiles(path));
    else if (/\.(c|m)?js$/.test(entry)) out.push(path);
  }
  return out;
}

describe('rules over node_modules', () => {
  it('lint ioredis/built without a crash', () => {
    const files = jsFiles(join(root, 'node_modules', 'ioredis', 'built'));
    expect(files.length).toBeGreaterThan(30);
    const linter = new Linter({ configType: 'flat' });
    const config = [
      { files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' as const }, ...plugin.configs.strict },
    ];
    let linted = 0;
    for (const file of files) {
      // flat config ignores node_modules: lint the text under a virtual name
      const filename = join(root, 'virtual', file.slice(root.length).replace(/node_modules/g, 'deps'));
      const messages = linter.verify(readFileSync(file, 'utf8'), config, { filename });
      const crashes = messages.filter((m) => m.fatal || m.ruleId === null);
      expect(crashes, file).toEqual([]);
      linted++;
    }
    expect(linted).toBe(files.length);
  });
});
