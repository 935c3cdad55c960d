/**
 * Every docs link the code prints points at the docs of the installed version: the git tag
 * `v<version>` of package.json, never `main` (whose docs describe a later version), and a file of
 * docs/ that exists, with the heading its #fragment names. The links: each ESLint rule's
 * `meta.docs.url`, each Lua rule's `docsUrl` (lua-lint's SARIF `helpUri`), the SARIF help of parse
 * errors, and the `Docs:` line of `lua-lint --help` and `redis-ttl-audit --help`. And no source
 * file spells the repository's URL except cli/package-info.ts, which pins it (and cli/process.ts's
 * "report it at .../issues").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsRef, docsUrl, packageVersion } from '../../cli/package-info.js';
import { FORMATTERS } from '../../lua-lint/cli/formatters/index.js';
import { DOCS_BASE_URL, RULES } from '../../lua-lint/rules.js';
import { rules } from '../../rules/index.js';
import { runCli } from '../audit/run-cli.js';
import { runLuaLint } from '../lua-lint/run-cli.js';
import { ROOT } from '../helpers/build.js';
import { deadLink, REPOSITORY } from '../helpers/markdown.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const TAG = `v${VERSION}`;

/** Every URL into this repository in `text`. */
function repositoryUrls(text: string): string[] {
  return [...text.matchAll(/https:\/\/github\.com\/eslint-plugin-redis-ttl\/eslint-plugin-redis-ttl[^\s"'`)]*/g)].map((m) => m[0]);
}

async function luaLintHelp(): Promise<string> {
  const { code, stdout } = await runLuaLint(['--help'], ROOT);
  expect(code).toBe(0);
  return stdout;
}

/** The docs links the code emits, each with where it comes from. */
async function emittedUrls(): Promise<Array<{ from: string; url: string }>> {
  const urls: Array<{ from: string; url: string }> = [];
  for (const [name, rule] of Object.entries(rules)) urls.push({ from: `ESLint rule ${name} meta.docs.url`, url: rule.meta.docs!.url! });
  for (const [id, rule] of Object.entries(RULES)) urls.push({ from: `Lua rule ${id} docsUrl`, url: rule.docsUrl });
  const sarif = JSON.parse(FORMATTERS.sarif([], { cwd: ROOT, color: false, version: VERSION })) as {
    runs: Array<{ tool: { driver: { rules: Array<{ id: string; helpUri: string }> } } }>;
  };
  for (const rule of sarif.runs[0]!.tool.driver.rules) urls.push({ from: `SARIF helpUri of ${rule.id}`, url: rule.helpUri });
  for (const url of repositoryUrls(await luaLintHelp())) urls.push({ from: 'lua-lint --help', url });
  for (const url of repositoryUrls((await runCli(['--help'])).stdout)) urls.push({ from: 'redis-ttl-audit --help', url });
  return urls;
}

describe('docs URLs the code emits', () => {
  it('are pinned to the tag of package.json version', () => {
    expect(packageVersion()).toBe(VERSION);
    expect(docsRef()).toBe(TAG);
    expect(docsUrl('docs/lua-lint.md#exit-codes')).toBe(`${REPOSITORY}/blob/${TAG}/docs/lua-lint.md#exit-codes`);
    expect(DOCS_BASE_URL).toBe(`${REPOSITORY}/blob/${TAG}/docs/rules/`);
  });

  it('each name the version tag and a docs file (and heading) that exists', async () => {
    const urls = await emittedUrls();
    // 10 ESLint rules, 11 Lua rules, their SARIF rules plus parse-error, the two --help pages
    expect(urls.length).toBe(Object.keys(rules).length + 2 * Object.keys(RULES).length + 1 + 2);
    const wrong = urls.filter(({ url }) => !url.startsWith(`${REPOSITORY}/blob/${TAG}/docs/`) || deadLink('README.md', url) !== undefined);
    expect(wrong).toEqual([]);
    expect(urls.map(({ from }) => from)).toEqual(expect.arrayContaining(['lua-lint --help', 'redis-ttl-audit --help', 'SARIF helpUri of parse-error']));
  });

  it('no source file spells the repository URL but the one that pins it', () => {
    const spelled: string[] = [];
    for (const folder of ['audit', 'cli', 'lua-lint', 'redis-calls', 'rules', 'runtime', 'semantics', 'text']) {
      for (const entry of readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
        const file = join(entry.parentPath, entry.name);
        if (!entry.isFile() || !file.endsWith('.ts') || /\/(dist|node_modules)\//.test(file) || file.endsWith('.generated.ts')) continue;
        // comments may cite the repository; code must go through docsUrl()
        const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
        if (code.includes('github.com/eslint-plugin-redis-ttl')) spelled.push(relative(ROOT, file));
      }
    }
    expect(spelled.sort()).toEqual(['cli/package-info.ts', 'cli/process.ts']);
    expect(readFileSync(join(ROOT, 'cli/process.ts'), 'utf8')).toContain('eslint-plugin-redis-ttl/eslint-plugin-redis-ttl/issues');
  });
});
