/**
 * Every link of the repository's Markdown pages leads somewhere: a relative link (and a link to this
 * repository on GitHub, `.../blob/<ref>/<path>` or `.../tree/<ref>/<path>`) names a file or folder
 * that exists, and its `#fragment`, when it has one and the target is Markdown, names a heading of
 * that page. The README is an entrance to pages in docs/; a moved section must not leave a dead
 * link behind. (The consumer test checks the same for the files inside each tarball.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/build.js';
import { anchorsOf, deadLink, linksOf, REPOSITORY } from '../helpers/markdown.js';

/** The Markdown pages users read: the READMEs, the changelogs and docs/. */
function pages(): string[] {
  const found = ['README.md', 'CHANGELOG.md', 'runtime/README.md', 'runtime/CHANGELOG.md', 'examples/app/README.md', 'examples/scripts/README.md'];
  for (const entry of readdirSync(join(ROOT, 'docs'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.md')) found.push(relative(ROOT, join(entry.parentPath, entry.name)));
  }
  return found.filter((page) => existsSync(join(ROOT, page))).sort();
}

describe('links of the Markdown pages', () => {
  const all = pages();

  it('covers the README, the docs and the runtime README', () => {
    for (const page of ['README.md', 'runtime/README.md', 'docs/configuration.md', 'docs/lua-lint.md', 'docs/rules/no-getset.md']) expect(all).toContain(page);
  });

  it.each(all)('%s: every relative link and every link into this repository resolves, with its #anchor', (page) => {
    const links = linksOf(readFileSync(join(ROOT, page), 'utf8'));
    expect(links.map((target) => deadLink(page, target)).filter((dead) => dead !== undefined)).toEqual([]);
  });

  it('finds dead links and anchors (the check itself)', () => {
    expect(deadLink('README.md', 'docs/nope.md')).toBe('docs/nope.md: no file docs/nope.md');
    expect(deadLink('README.md', 'docs/lua-lint.md#nope')).toBe('docs/lua-lint.md#nope: docs/lua-lint.md has no heading #nope');
    expect(deadLink('README.md', 'docs/lua-lint.md#exit-codes')).toBeUndefined();
    expect(deadLink('docs/lua-lint.md', '../README.md#install')).toBeUndefined();
    expect(deadLink('README.md', `${REPOSITORY}/blob/main/runtime/README.md#outage-policy`)).toBeUndefined();
    expect(deadLink('README.md', `${REPOSITORY}/blob/main/runtime/nope.ts`)).toBe(`${REPOSITORY}/blob/main/runtime/nope.ts: no file runtime/nope.ts`);
    expect(anchorsOf('# A\n## Fixes: `eslint --fix` removes the leak\n## CI: --fail-on-persistent\n## A\n```\n# not a heading\n```\n')).toEqual(
      new Set(['a', 'fixes-eslint---fix-removes-the-leak', 'ci---fail-on-persistent', 'a-1']),
    );
  });
});
