// The Lua rule pages and the CLI reference stay true: every "Incorrect" example is reported by
// its rule, every "Correct" example (and every example of the CLI reference) is clean, and the
// reference names every option and rule the CLI has.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeLua } from '../../lua-lint/index.js';
import { RULE_IDS } from '../../lua-lint/rules.js';
import { runLuaLint } from './run-cli.js';

const docsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs');

/** The pages written with the CLI; `no-getset` is shared with the ESLint rule and lives elsewhere. */
const LUA_RULE_PAGES = [
  'write-path-needs-ttl',
  'keepttl-needs-existing-key',
  'no-persist',
  'expire-needs-positive-ttl',
  'ttl-units',
  'fixed-window-expire',
  'key-must-come-from-keys',
  'unanalyzable-command',
  'unknown-rule-in-directive',
] as const;

/** The ```lua blocks of a markdown page, each with the heading it sits under. */
function luaBlocks(markdown: string): Array<{ heading: string; code: string }> {
  const blocks: Array<{ heading: string; code: string }> = [];
  let heading = '';
  let code: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (code) {
      if (line.trim() === '```') {
        blocks.push({ heading, code: code.join('\n') });
        code = undefined;
      } else code.push(line.replace(/^ {2}/, ''));
    } else if (/^#+ /.test(line)) heading = line.replace(/^#+ /, '');
    else if (line.trim() === '```lua') code = [];
  }
  return blocks;
}

function findings(code: string): string[] {
  return analyzeLua(code).map((f) => `${f.ruleId ?? 'parse-error'}@${f.line}`);
}

describe.each(LUA_RULE_PAGES)('docs/rules/%s.md', (id) => {
  const page = readFileSync(path.join(docsDir, 'rules', `${id}.md`), 'utf8');
  const blocks = luaBlocks(page);

  it('has the sections of a rule page and links the Redis docs', () => {
    expect(page.startsWith(`# \`${id}\`\n`)).toBe(true);
    const headings = page.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual([
      '## What it reports',
      '## Why it leaks',
      '## Examples',
      '## Options',
      '## When not to use it',
      '## Further reading',
    ]);
    expect(page).toContain('https://redis.io/docs/latest/develop/interact/programmability/lua-api/');
    expect(page).toMatch(/https:\/\/redis\.io\/docs\/latest\/commands\/[a-z]+\//);
  });

  it('has incorrect examples that the rule reports', () => {
    const incorrect = blocks.filter((block) => block.heading === 'Incorrect');
    expect(incorrect.length).toBeGreaterThan(0);
    for (const block of incorrect) expect({ code: block.code, found: findings(block.code).some((f) => f.startsWith(`${id}@`)) }).toEqual({ code: block.code, found: true });
  });

  it('has correct examples without any finding', () => {
    const correct = blocks.filter((block) => block.heading === 'Correct');
    expect(correct.length).toBeGreaterThan(0);
    for (const block of correct) expect({ code: block.code, found: findings(block.code) }).toEqual({ code: block.code, found: [] });
  });
});

describe('relative links', () => {
  it.each([...LUA_RULE_PAGES.map((id) => `rules/${id}.md`), 'lua-lint.md'])('of docs/%s lead to existing files', (page) => {
    const file = path.join(docsDir, page);
    const links = [...readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
      .map((match) => match[1] as string)
      .filter((target) => !/^[a-z]+:/.test(target));
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((target) => !existsSync(path.resolve(path.dirname(file), target)))).toEqual([]);
  });
});

describe('docs/lua-lint.md', () => {
  const page = readFileSync(path.join(docsDir, 'lua-lint.md'), 'utf8');

  it('has Lua examples that are clean (annotations and disable comments at work)', () => {
    const blocks = luaBlocks(page).filter((block) => /redis-ttl persistent|lua-lint-disable/.test(block.code));
    expect(blocks).toHaveLength(2);
    for (const block of blocks) expect({ code: block.code, found: findings(block.code) }).toEqual({ code: block.code, found: [] });
    // without its comments, each example would be reported
    for (const block of blocks) expect(findings(block.code.replace(/--.*$/gm, '')).length).toBeGreaterThan(0);
  });

  it('documents every rule and every option of lua-lint --help', async () => {
    for (const id of RULE_IDS) expect(page).toContain(`[\`${id}\`](rules/${id}.md)`);
    const { code, stdout: help } = await runLuaLint(['--help'], docsDir);
    expect(code).toBe(0);
    const options = [...new Set(help.match(/--[a-z][a-z-]+/g))];
    expect(options.length).toBeGreaterThan(10);
    const table = page.slice(page.indexOf('## Options'), page.indexOf('## Exit codes'));
    for (const option of options) expect({ option, documented: new RegExp(`[\\s\`]${option}[\\s\`]`).test(table) }).toEqual({ option, documented: true });
  });
});
